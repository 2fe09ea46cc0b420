"""rules/flow.py: the sequence of play of a session: initiative (8.1, 12.3(3)), the night
turn (10.1, 10.2, E32, 12.3(4)g, 12.3(5)), the landing (10.3), card 01 and the victory
checks (4.1-4.3)."""

from __future__ import annotations

from mw_session import (
    apply,
    at_phase,
    due,
    legal,
    proceeded,
    with_cards,
    with_tracks,
)
from warpress.engine.dice import GivenDice
from warpress.games.midway.rules import area as A
from warpress.games.midway.rules import flow
from warpress.games.midway.rules.moves import Run
from warpress.games.midway.rules.positions import moved_fleet, to_area, with_area


def test_initiative_roll_and_the_card_of_an_unequal_tie(game):
    """8.1(1)(2): 1d6 + AOP each; a tie with unequal AOP goes to the side with more, who
    draws a card (its hand grows, the card is not named)."""
    position = at_phase(game, "standard", "air-operations", 2,
                        {"ichikokan": "B-3", "tf16-17": "K-8"})
    position = with_tracks(position, {"aop-japan": 3, "aop-us": 2})
    hand = len(position.cards["japan.hand"])
    position, said = proceeded(game, position, GivenDice({"japan_roll": 2, "us_roll": 3}))
    assert due(position) == ("air-op", "japan")
    assert len(position.cards["japan.hand"]) == hand + 1
    assert "initiative: japan 5, us 5: japan" in said
    assert not any(c in " ".join(said) for c in position.cards["japan.hand"])
    assert position.tracks["aop-japan"] == 2


def test_a_side_without_aop_rolls_nothing(game):
    """8.1(3)."""
    position = at_phase(game, "standard", "air-operations", 2,
                        {"ichikokan": "B-3", "tf16-17": "K-8"})
    position = with_tracks(position, {"aop-japan": 0, "aop-us": 2})
    position, said = proceeded(game, position, GivenDice({}))
    assert due(position) == ("air-op", "us")
    assert "us has the initiative (the other side has no AOP)" in said


def night_meeting(game, fleet="ichikokan"):
    """Turn 4, the US plan ends in a Japanese fleet's hex."""
    position = at_phase(game, "standard", "us-movement-execution", 4,
                        {"ichikokan": "D-4", "tf16-17": "F-4", "invasion-force": "B-6"},
                        plan=["F-4", "E-4", "D-4"] if fleet == "ichikokan"
                        else ["F-4", "E-5", "D-5", "C-6", "B-6"])
    return position


def test_a_night_meeting_is_a_surface_battle_the_japanese_allocate(game):
    """10.1(2), E18, E19: the Japanese roll 6 (4 hits on the US), the US 6 (2 on the
    Japanese); the Japanese put every hit on a carrier of their choice."""
    position, said = proceeded(game, night_meeting(game),
                               GivenDice({"japan_roll": 6, "us_roll": 6}))
    assert "surface battle in D-4 with the ichikokan: 4 hit(s) on the US fleet, 2 on the " \
           "Japanese" in said
    assert due(position) == ("surface", "japan") and position.due.data["on"] == "us"
    assert {a["target"] for _, a in legal(game, position)} == {"yorktown", "enterprise",
                                                               "hornet"}
    rolls = GivenDice({"hit_location": [1] * 8})
    position, said = apply(game, position, ("hit", {"target": "yorktown"}),
                           ("hit", {"target": "yorktown"}), ("hit", {"target": "hornet"}),
                           ("hit", {"target": "enterprise"}), ("hit", {"target": "akagi"}),
                           ("hit", {"target": "akagi"}), dice=rolls)
    area = to_area(game, position)
    assert area.sunk == {"yorktown", "akagi"}
    assert A.status(game, area, "hornet") == "damaged"
    assert position.phase == "night-air-operations"


def test_the_invasion_force_loses_a_point_per_surface_hit(game):
    position, said = proceeded(game, night_meeting(game, "invasion-force"),
                               GivenDice({"japan_roll": 1, "us_roll": 6}))
    assert to_area(game, position).invasion == 2
    assert any("Invasion Force loses a point" in s for s in said)


def test_no_surface_battle_in_solitaire(game):
    """12.3(5): at night the solitaire fleets may share a hex; nothing is fought."""
    position = at_phase(game, "solitaire", "us-movement-execution", 4,
                        {"ichikokan": "E-3", "tf16-17": "F-3"})
    position = with_cards(position, deck=("03", "01", "02", "05", "06", "08"))
    position, said = proceeded(game, position)
    assert position.piece("tf16-17").place == "E-3" == position.piece("ichikokan").place
    assert not any("surface battle" in s for s in said)


def test_a_group_in_flight_at_night_lands_through_return_2(game):
    """E32, 10.2(2)a: a Japanese group still in the combat area lands via Return 2 and rolls
    for the night landing (5-6 lose the step)."""
    position = at_phase(game, "standard", "night-air-operations", 4,
                        {"ichikokan": "B-3", "tf16-17": "K-8"})
    area = to_area(game, position)
    area = A.put(area, A.Air("d3a-akagi-3", "d3a", 2, A.COMBAT_AREA, "C-4", group="g1"))
    position = with_area(game, position, area)
    position, said = proceeded(game, position, GivenDice({"night_landing": [6, 1]}))
    assert "night: group g1 lands from the combat area via cardiv1 return-2" in said
    area = to_area(game, position)
    assert area.unit("d3a-akagi-3").steps == 1
    assert A.box(game, *_where(area, "d3a-akagi-3")).kind == "hangar"
    assert due(position) == ("night-op", "japan")
    assert {n for n, _ in legal(game, position)} == {"move", "end-op"}


def _where(area, uid):
    unit = area.unit(uid)
    return unit.display, unit.box


def test_the_solitaire_us_night_deployment(game):
    """12.3(4)g: after the night landings every US carrier gets a fighter and an attack
    aircraft on deck and, with two fighters or more, one in CAP."""
    position = at_phase(game, "solitaire", "night-air-operations", 4,
                        {"ichikokan": "B-3", "tf16-17": "F-3"}, night_done=["japan"])
    position, said = proceeded(game, position)
    area = to_area(game, position)
    for carrier in ("enterprise", "hornet"):
        deck = A.on_deck(game, area, carrier)
        assert sorted(u.type for u in deck) == ["f4f", "sbd"]
    assert len(area.in_box("tf16", "cap")) == 2 and len(area.in_box("tf17", "cap")) == 1
    assert any(s.startswith("us night deployment") for s in said)


def test_the_landing_at_the_end_of_turn_7(game):
    """10.3, 4.2(2): the Invasion Force adjacent to Midway lands; captured, the Japanese
    score 2 for Midway."""
    position = at_phase(game, "standard", "end-of-turn", 7,
                        {"ichikokan": "B-3", "tf16-17": "K-8", "invasion-force": "E-6"})
    position = with_tracks(position, {"garrison": 2})
    position = with_cards(position, japan_hand=(), us_hand=())
    position, said = proceeded(game, position, GivenDice({"rolls": [1, 6, 1]}))
    assert "the landing on Midway: captured (Invasion Force 4, Garrison X)" in said
    position, _ = apply(game, position, ("pass", {}), ("pass", {}))
    assert position.data["points"] == {"japan": 2, "us": 0}
    assert position.verdict.winner == "japan" and position.verdict.condition == "day-2"


def test_card_01_denies_a_sunk_carriers_point(game):
    """2.3, 4.2(1): card 01 at the end of Turn 7 denies the opponent one carrier's point."""
    position = at_phase(game, "standard", "end-of-turn", 7,
                        {"ichikokan": "B-3", "tf16-17": "K-8"})
    area = A.sink(game, to_area(game, position), "akagi")
    position = with_cards(with_area(game, position, area), japan_hand=("01",), us_hand=())
    position, _ = proceeded(game, position)
    assert due(position) == ("scuttle", "japan")
    position, _ = apply(game, position, ("play", {"card": "01"}))
    assert position.data["points"] == {"japan": 0, "us": 2}  # Midway held; Akagi not scored


def test_an_invasion_force_destroyed_is_off_the_map(game):
    """6.1(3), 9.4(3): at X the Invasion Force is removed; the US holds Midway at the end."""
    position = at_phase(game, "standard", "air-operations", 5,
                        {"ichikokan": "B-3", "tf16-17": "K-8", "invasion-force": "C-6"})
    run = Run(game, position)
    run.put(A.hit_invasion(run.area, 4))
    assert run.pos.piece("invasion-force").kind == "eliminated"


def test_automatic_victory_at_any_turn_end(game):
    """4.3: every US carrier sunk at the end of Turn 5: the Japanese win at once."""
    position = at_phase(game, "standard", "end-of-turn", 5,
                        {"ichikokan": "B-3", "tf16-17": "K-8"})
    area = to_area(game, position)
    for carrier in ("yorktown", "enterprise", "hornet"):
        area = A.sink(game, area, carrier)
    position, _ = proceeded(game, with_area(game, position, area))
    assert position.verdict.winner == "japan" and position.verdict.condition == "automatic"


def test_the_game_goes_on_to_the_next_turn(game):
    position = at_phase(game, "standard", "end-of-turn", 5,
                        {"ichikokan": "B-3", "tf16-17": "K-8"})
    position, said = proceeded(game, position)
    assert position.turn == 6 and due(position) == ("declare", "japan")
    assert position.data["declared"] is None


def test_a_day_move_stops_short_of_a_japanese_fleet(game):
    """6.1(4), E28: the US plan ends in the 1st Air Fleet's hex by day: it stops before."""
    position = at_phase(game, "standard", "us-movement-execution", 2,
                        {"ichikokan": "D-4", "tf16-17": "F-4"}, plan=["F-4", "E-4", "D-4"])
    position, said = proceeded(game, position)
    assert position.piece("tf16-17").place == "E-4"
    assert any("a Japanese fleet is in D-4: it stops in E-4" in s for s in said)


def test_the_solitaire_move_card_goes_to_the_discards(game):
    """12.3(2), E21: #08 reshuffles the discards and the deck (not itself) and the US draws
    again; the card used is discarded."""
    position = at_phase(game, "solitaire", "us-movement-execution", 5,
                        {"ichikokan": "D-3", "tf16-17": "F-3"})
    position = with_cards(position, deck=("08", "06"), discard=("07", "01", "02"),
                          removed=("03", "05"))
    position, said = proceeded(game, position)
    assert "08" in position.cards["removed"]
    assert len(position.cards["deck"]) + len(position.cards["discard"]) == 4
    assert any("shuffled together" in s for s in said)


def test_an_empty_deck_takes_the_discards(game):
    """E31: the deck empty, the discards become a shuffled deck."""
    run = Run(game, with_cards(at_phase(game, "solitaire", "us-movement-execution", 7,
                                        {"ichikokan": "D-3", "tf16-17": "F-3"}),
                               deck=(), discard=("06",)))
    from warpress.engine.dice import SeededDice

    run.dice = SeededDice(1)
    assert flow.draw_move_card(run) == "06"


def test_japanese_movement_enters_the_invasion_force_on_turn_4(game):
    """10.1(3), E2: on the night turn the Invasion Force enters at A-4..A-6 and moves one
    hex more; the movement cannot end before it has."""
    position = at_phase(game, "solitaire", "japanese-movement", 4,
                        {"ichikokan": "D-3", "tf16-17": "F-3"})
    position, _ = proceeded(game, position)
    assert "6.3(1)" in str(_refused(game, position, "end-move"))
    paths = [a["path"] for n, a in legal(game, position)
             if n == "sail" and a["fleet"] == "invasion-force"]
    assert paths and all(p.split(",")[0] in ("A-4", "A-5", "A-6") for p in paths)
    assert max(len(p.split(",")) for p in paths) == 2


def _refused(game, position, name):
    from mw_session import refusal

    return refusal(game, position, name)


def test_moved_fleet_is_the_one_piece_moved(game):
    position = at_phase(game, "solitaire", "japanese-movement", 3)
    moved = moved_fleet(position, "ichikokan", "C-3")
    assert [p.id for p in moved.pieces if p != position.piece(p.id)] == ["ichikokan"]

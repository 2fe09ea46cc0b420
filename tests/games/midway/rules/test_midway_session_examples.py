"""The rulebook's worked examples (digest ids M-EX...) played in a session: the positions
the examples describe, the commands a player types, and what the session answers."""

from __future__ import annotations

from mw_session import (
    RULES,
    apply,
    at_op,
    at_phase,
    due,
    legal,
    proceeded,
    refusal,
    start,
    with_cards,
)
from warpress.engine.dice import GivenDice
from warpress.games.midway.rules import area as A
from warpress.games.midway.rules import flow
from warpress.games.midway.rules.common import distance, grid
from warpress.games.midway.rules.moves import Run, group_reach
from warpress.games.midway.rules.positions import to_area, with_area

MIDWAY = "F-6"


def hexes_at(game, fleet_distance, base_distance):
    """A 1st Air Fleet hex ``base_distance`` from Midway and a US fleet hex
    ``fleet_distance`` from it (the first in map order)."""
    for main in grid(game).all_hexes():
        if main == MIDWAY or distance(game, main, MIDWAY) != base_distance:
            continue
        for us in grid(game).all_hexes():
            if us != MIDWAY and distance(game, main, us) == fleet_distance:
                return main, us
    raise AssertionError("no such hexes")


def search(game, fleets, played=(), **values):
    run = Run(game, at_phase(game, "standard", "search", 2, fleets, **values))
    return flow.search_values(run, list(played))


def test_m_ex2_end_of_turn_3_the_us_sank_three(game):
    """4.1: the US sank 3 Japanese carriers, the Japanese none: 1 against 3, the US wins."""
    position = at_phase(game, "standard", "end-of-turn", 3)
    area = to_area(game, position)
    for carrier in ("akagi", "kaga", "soryu"):
        area = A.sink(game, area, carrier)
    position, said = proceeded(game, with_area(game, position, area))
    assert position.verdict.winner == "us" and position.verdict.condition == "day-1"
    assert position.verdict.rule == ("4.1",)
    assert "carriers afloat japan 1, us 3" in said[-1]


def test_m_ex3_the_plan_f4_e3_d3(game):
    """6.2(1), 3.2(1): the US starts in F-4 and writes F-4→E-3→D-3; revealed after the
    Japanese moved, the fleet stands in D-3."""
    position, _ = apply(game, start(game, "standard"), ("ready", {}), ("ready", {}),
                        ("declare", {"attack": "no"}))
    assert due(position) == ("plan", "us")
    position, _ = apply(game, position, ("plan", {"route": "F-4→E-3→D-3"}),
                        ("sail", {"fleet": "ichikokan", "path": "A-1,B-1"}),
                        ("end-move", {}))
    assert position.piece("tf16-17").place == "D-3"
    told = [e["text"] for e in position.data["events"]]
    assert "the US reveals its plan F-4→E-3→D-3: the US fleet ends in D-3" in told


def test_m_ex3_the_start_hex_is_in_columns_f_to_h(game):
    position, _ = apply(game, start(game, "standard"), ("ready", {}), ("ready", {}),
                        ("declare", {"attack": "no"}))
    assert "3.2(1)" in str(refusal(game, position, "plan", {"route": "E-4,E-3"}))
    assert "3.2(1)" in str(refusal(game, position, "plan", {"route": "F-6,F-5"}))
    starts = {a["route"].split(",")[0] for n, a in legal(game, position) if n == "plan"}
    assert starts == set(game.hex_map().feature("us-start").hexes)


def test_m_ex4_search_at_distance_5(game):
    main, us = hexes_at(game, 5, 7)
    assert search(game, {"ichikokan": main, "tf16-17": us}) == {"japan": 1, "us": 2}


def test_m_ex5_the_base_searches_better_than_the_fleet(game):
    main, us = hexes_at(game, 5, 4)
    assert search(game, {"ichikokan": main, "tf16-17": us}) == {"japan": 1, "us": 4}


def test_m_ex6_the_invasion_force_is_a_target(game):
    """The US fleet 4 hexes from the 1st Air Fleet and 3 from the Invasion Force."""
    for invasion in grid(game).all_hexes():
        if distance(game, invasion, "H-3") == 3 and distance(game, invasion, "D-4") > 1 \
                and invasion != MIDWAY:
            break
    assert distance(game, "D-4", "H-3") == 4
    values = search(game, {"ichikokan": "D-4", "tf16-17": "H-3", "invasion-force": invasion})
    assert values == {"japan": 2, "us": 4}


def test_m_ex8_a_base_attack_costs_aop(game):
    """7.4: a Japanese search result of 1 with two base-attack operations leaves 0 AOP."""
    main, us = hexes_at(game, 5, 4)
    values = search(game, {"ichikokan": main, "tf16-17": us}, declared=True, base_ops=2)
    assert values["japan"] == 0


def japanese_op(game):
    """The two-player Japanese air operation, the set-up's aircraft (every D3A and B5N on
    deck), the fleets far apart."""
    return at_op(game, "standard", "japan", {"ichikokan": "B-3", "tf16-17": "K-8"})


def test_m_ex9_an_air_rendezvous_of_eight(game):
    """8.4(3): eight units launched in one operation form one group of 8, or two of 4."""
    position = japanese_op(game)
    deck = [u.uid for u in to_area(game, position).units
            if u.display.startswith("cardiv") and u.box.endswith(("-front", "-rear"))]
    assert len(deck) == 8
    one = position
    one, _ = apply(game, one, ("launch", {"unit": deck[0], "group": "new"}),
                   *[("launch", {"unit": u, "group": "g1"}) for u in deck[1:]])
    assert len(to_area(game, one).group("g1")) == 8
    two, _ = apply(game, position, ("launch", {"unit": deck[0], "group": "new"}),
                   *[("launch", {"unit": u, "group": "g1"}) for u in deck[1:4]],
                   ("launch", {"unit": deck[4], "group": "new"}),
                   *[("launch", {"unit": u, "group": "g2"}) for u in deck[5:]])
    area = to_area(game, two)
    assert len(area.group("g1")) == len(area.group("g2")) == 4


def test_m_ex10_sbd_and_tbd_fly_at_2(game):
    """8.5(2): a US group of an SBD and a TBD moves 2 hexes, the TBD's allowance."""
    position = at_phase(game, "standard", "air-operations", 2,
                        {"ichikokan": "B-3", "tf16-17": "K-8"})
    area = to_area(game, position)
    for uid in ("sbd-enterprise-19", "tbd-enterprise-21"):
        area = A.put(area, A.Air(uid, area.unit(uid).type, 2, A.COMBAT_AREA, "H-5",
                                 group="g1"))
    run = Run(game, with_area(game, position, area))
    flow.start_op(run, "us", "air")
    assert group_reach(run, "g1") == 2


def test_m_ex11_a_d3a_and_a_b5n_do_not_combine(game):
    """8.3(4): two 1-step units of different types stay two units."""
    position = at_phase(game, "solitaire", "air-operations", 3)
    area = to_area(game, position)
    area = A.place(game, area, "b5n-hiryu-3", "cardiv2", "hiryu-hangar")
    position = at_op(game, "solitaire", "japan", {}, turn=3, area=area)
    assert "8.3(4)" in str(refusal(game, position, "reorganize",
                                   {"unit": "d3a-hiryu-5", "other": "b5n-hiryu-3"}))
    pairs = [(a["unit"], a["other"]) for n, a in legal(game, position) if n == "reorganize"]
    assert ("d3a-hiryu-5", "b5n-hiryu-3") not in pairs
    assert ("a6m-hiryu-4", "d3a-hiryu-5") not in pairs


def test_m_ex12_a_us_group_chooses_one_division(game):
    """9.1: a US group attacking the 1st Air Fleet attacks CarDiv1 or CarDiv2, not both."""
    position = at_op(game, "standard", "us", {"ichikokan": "G-2", "tf16-17": "H-3"})
    deck = [u.uid for u in to_area(game, position).units if u.uid.startswith("sbd-hornet")]
    position, _ = apply(game, position, ("launch", {"unit": deck[0], "group": "new"}),
                        ("fly", {"group": "g1", "hex": "G-2"}))
    assert due(position) == ("target", "us")
    assert sorted(a["target"] for _, a in legal(game, position)) == ["cardiv1", "cardiv2"]
    position, said = apply(game, position, ("target", {"target": "cardiv2"}))
    assert position.data["strike"]["target"] == "cardiv2"


def test_m_ex13_the_base_attack_example(game):
    """9.6(2)(3): 6 attack steps roll 2 or less (attack 3 - 1); three hits, the third void;
    the Garrison 6 -> 4; the US puts the first damage marker on an empty runway box, the
    second on the SB2U's box, which is removed; one more hit would destroy the base."""
    position = at_phase(game, "standard", "base-attack", 1, {"ichikokan": "E-5"},
                        declared=True, base_ops=1)
    area = to_area(game, position)
    base = A.base_display(game).id
    for unit in [u for u in area.units if u.display == base]:
        area = A.remove(area, [unit.uid]) if unit.type != "sb2u" else area
    area = A.place(game, area, "sb2u-midway-34", base, "runway-1")
    position, _ = proceeded(game, with_area(game, position, area))
    assert due(position) == ("base-op", "japan")
    position, _ = apply(game, position, ("launch", {"unit": "d3a-akagi-3", "group": "new"}),
                        ("launch", {"unit": "d3a-kaga-7", "group": "g1"}),
                        ("launch", {"unit": "b5n-akagi-4", "group": "g1"}))
    rolls = GivenDice({"aa": [6] * 6, "attack": [1, 2, 2, 5, 6, 6]})
    position, said = apply(game, position, ("fly", {"group": "g1", "hex": MIDWAY}), dice=rolls)
    assert "1 hit(s) on Midway void" in " ".join(said)
    assert due(position) == ("runway", "us")
    position, said = apply(game, position, ("runway", {"box": f"{base}/runway-2"}),
                           ("runway", {"box": f"{base}/runway-1"}))
    area = to_area(game, position)
    assert area.garrison == 4 and area.base_hits == 2
    assert "sb2u-midway-34" not in {u.uid for u in area.units}
    assert not A.base_destroyed(game, area)
    assert any("Garrison 6 -> 4" in s for s in said)


def test_m_ex16_the_malfunction_cancels_the_prototype_scout(game):
    """11.0(2): the Japanese play 試作高速偵察機, the US answer with 偵察機の不調: the
    prototype is discarded and only the malfunction applies."""
    main, us = hexes_at(game, 4, 7)
    position = at_phase(game, "standard", "search", 2, {"ichikokan": main, "tf16-17": us})
    position = with_cards(position, japan_hand=("02",), us_hand=("07",))
    position, _ = proceeded(game, position)
    assert due(position) == ("search-card", "japan")
    position, said = apply(game, position, ("play", {"card": "02"}), ("play", {"card": "07"}))
    plain = search(game, {"ichikokan": main, "tf16-17": us})
    assert position.tracks["aop-japan"] == plain["japan"] - 1
    assert set(position.cards["removed"]) == {"02", "07"}


def test_m_ex17_no_prototype_after_the_malfunction(game):
    """11.0(2): the Japanese decide first; once the US has played 偵察機の不調 the Japanese
    are not asked again."""
    main, us = hexes_at(game, 4, 7)
    position = at_phase(game, "standard", "search", 2, {"ichikokan": main, "tf16-17": us})
    position = with_cards(position, japan_hand=("02",), us_hand=("07",))
    position, _ = proceeded(game, position)
    position, _ = apply(game, position, ("pass", {}), ("play", {"card": "07"}))
    assert position.phase == "air-operations" and "02" in position.cards["japan.hand"]


def solitaire_end_of_turn_3(game, us_sunk=()):
    position = at_phase(game, "solitaire", "end-of-turn", 3)
    area = to_area(game, position)
    for carrier in us_sunk:
        area = A.sink(game, area, carrier)
    return with_area(game, position, area)


def test_m_ex18_hiryu_alone_loses_at_the_end_of_turn_3(game):
    """12.3(6): Hiryu afloat and no US carrier sunk: 1 against 3, the Japanese lose (4.1)."""
    position, _ = proceeded(game, solitaire_end_of_turn_3(game))
    assert position.verdict.winner == "us" and position.verdict.condition == "day-1"


def test_m_ex19_one_us_carrier_sunk_plays_on(game):
    """12.3(6): Hiryu afloat and one US carrier sunk: 1 against 2, the night turn comes."""
    position, _ = proceeded(game, solitaire_end_of_turn_3(game, ("yorktown",)))
    assert position.verdict is None and position.turn == 4


def test_m_ex20_card_06_the_us_fleet_stays(game):
    """12.3(2): card #06, the US fleet does not move."""
    position = at_phase(game, "solitaire", "us-movement-execution", 3,
                        {"ichikokan": "D-3", "tf16-17": "F-3"})
    position = with_cards(position, deck=("06", "01", "02", "03", "05", "08"))
    position, said = proceeded(game, position)
    assert position.piece("tf16-17").place == "F-3"
    assert "the US draws #06 (stay): the US fleet F-3 -> F-3" in said


def test_m_ex21_the_solitaire_start_gives_both_4_aop(game):
    """12.2 (derived): 1st Air Fleet D-3, US fleet F-3 (2 hexes): 6-2 = 4 and 7-2 = 5
    held to 4; with nobody moving (card #06) both sides have 4 AOP on Turn 3."""
    position = with_cards(start(game, "solitaire"), deck=("06", "01", "02", "03", "05", "08"))
    position, _ = apply(game, position, ("declare", {"attack": "no"}), ("end-move", {}))
    told = [e["text"] for e in position.data["events"]]
    assert "search: japan 4 AOP, us 4 AOP" in told
    # 12.3(3): no roll; the US first on equal AOP, then the Japanese with more
    assert "us flies an air operation (AOP japan 4, us 4; no initiative roll)" in told
    assert "japan flies an air operation (AOP japan 4, us 3; no initiative roll)" in told
    assert (position.tracks["aop-japan"], position.tracks["aop-us"]) == (3, 3)
    assert RULES.decision(game, position).side == "japan"

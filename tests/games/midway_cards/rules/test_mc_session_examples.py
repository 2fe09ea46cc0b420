"""The worked examples (ids C-EX1 ...) played as session commands: each decision asked of
the side the rules name, in their order, with the outcome the rule text gives."""

from __future__ import annotations

from dataclasses import replace

from mc_session import apply, at_attack, legal, refusal, with_state
from warpress.games.midway_cards.rules.common import BASE_ID
from warpress.games.midway_cards.rules.positions import cards, to_state

# C-EX1's cards by the example's names
J1, J2, J3, J4, J5, J6, J7 = ("j-evasion-a#1", "j-b5n#1", "j-b5n#2", "j-d3a#1", "j-d3a#2",
                              "j-zero#1", "j-zero#2")
U1, U2, U3, U4, U5, U6 = ("us-evasion-c#1", "us-aa-a#1", "us-tbd#1", "us-f4f#1", "us-f4f#2",
                          "us-f4f#3")


def _secondary(game, side: str, result: str) -> str:
    """A secondary-damage card whose ``side`` (bombing, torpedo) reads ``result``."""
    return next(f"{c.id}#1" for c in game.cards
                if c.deck == "secondary-damage" and c.stats[side] == result)


def test_c_ex1_rule_13_combat_example_played_in_a_session(game):
    position = at_attack(game, (J1, J2, J3, J4, J5, J6, J7), (U1, U2, U3, U4, U5, U6),
                         secondary_top=(_secondary(game, "torpedo", "propulsion"),))
    # pair creation: each Japanese card answered in turn; the US has no F left for J5
    position, said = apply(game, position,
                           ("fly", {"card": J6, "mission": "F"}), ("cap", {"card": U4}),
                           ("fly", {"card": J7, "mission": "F"}), ("cap", {"card": U5}),
                           ("fly", {"card": J4, "mission": "A"}), ("cap", {"card": U6}),
                           ("fly", {"card": J5, "mission": "A"}))
    assert (position.due.kind, position.due.side) == ("cap", "us")
    assert legal(game, position) == [("pass", {})], "no F card left: 「ありません」"
    position, said = apply(game, position, ("pass", {}),
                           ("fly", {"card": J2, "mission": "A"}),
                           ("fly", {"card": J3, "mission": "A"}), ("launch", {}))
    assert said[-3:] == [
        f"air combat 1: {J6} (F) against {U4}: mission complete (任務完了), both removed",
        f"air combat 2: {J7} (F) against {U5}: mission complete (任務完了), both removed",
        f"air combat 3: {J4} (A) against {U6}: {J4} removed"]
    # U6 won: the US takes it back; then the Japanese name one target for J5, J2, J3
    assert (position.due.kind, position.due.side) == ("recover", "us")
    position, _ = apply(game, position, ("recover", {}))
    assert (position.due.kind, list(position.due.data["cards"])) == ("target", [J5, J2, J3])
    position, _ = apply(game, position, ("target", {"ship": "yorktown"}))
    assert (position.due.kind, position.due.side) == ("defense", "us")
    position, said = apply(game, position, ("defend", {"card": J5, "defense": U2}),
                           ("defend", {"card": J2, "defense": U1}), ("pass", {}))
    assert f"us answers {J5} with {U2} (Anti-aircraft A): stopped" in said
    assert f"us answers {J2} with {U1} (Evasion C): stopped" in said
    assert any(s.startswith(f"{J3} hits yorktown") and s.endswith("5 damage, 発着艦不能")
               for s in said)
    yorktown = position.piece("yorktown")
    assert (yorktown.props["deck_damage"], yorktown.props["side_damage"]) == (0, 5)
    assert "disabled" in yorktown.flags and yorktown.kind == "area"
    state = to_state(game, position)
    assert state.ship("yorktown").disabled
    # return: J3 discarded, the US holds U3 and U6; no exchange; the adjustment refills
    assert cards(position, "japan.hand") == (J1,)
    assert sorted(cards(position, "us.hand")) == sorted((U3, U6))
    assert {J2, J3, J4, J5, J6, J7} == set(cards(position, "japan.discard"))
    assert {U1, U2, U4, U5} == set(cards(position, "us.discard"))
    assert (position.due.kind, position.due.side) == ("exchange", "japan")
    position, said = apply(game, position, ("exchange", {}))
    assert "japan draws 5 card(s) (hand adjustment)" in said
    assert "us draws 4 card(s) (hand adjustment)" in said
    assert position.side == "us" and len(cards(position, "japan.hand")) == 6
    assert len(cards(position, "us.hand")) == 7, "6 after the adjustment, 1 drawn in 5-1"
    view = [s for s in _view(game, position)["ships"] if s["id"] == "yorktown"][0]
    assert (view["status"], view["aircraft"], view["yellow"]) == ("heavy", "none (tapped)",
                                                                  True)


def _view(game, position, side=None):
    from mc_session import RULES

    return RULES.player_view(game, position, side)


def test_c_ex2_defender_pass_ends_interception(game):
    position = at_attack(game, (J1, J4, J6, J7), (U4, U5, U6))
    position, _ = apply(game, position, ("fly", {"card": J6, "mission": "F"}),
                        ("cap", {"card": U4}), ("fly", {"card": J7, "mission": "F"}),
                        ("pass", {}))
    assert (position.due.kind, position.due.side) == ("pairs", "japan")
    position, _ = apply(game, position, ("fly", {"card": J4, "mission": "A"}))
    assert position.due.kind == "pairs", "no CAP asked after the pass"
    assert refusal(game, position, "cap", {"card": U5}).rule == "7-1-1"


def test_c_ex3_japanese_attack_cards_share_one_target(game):
    position = at_attack(game, (J2, J3, J4), (U1,))
    position, _ = apply(game, position, ("fly", {"card": J2, "mission": "A"}), ("pass", {}),
                        ("fly", {"card": J3, "mission": "A"}),
                        ("fly", {"card": J4, "mission": "A"}), ("launch", {}))
    assert {a["ship"] for _, a in legal(game, position)} == {"enterprise", "hornet",
                                                             "yorktown"}
    assert all("card" not in a for _, a in legal(game, position))
    assert refusal(game, position, "target", {"ship": "hornet", "card": J3}).rule == "7-2"
    position, said = apply(game, position, ("target", {"ship": "hornet"}))
    assert f"japan attacks hornet with {J2}, {J3}, {J4}" in said


def test_c_ex4_turn_with_rearming_only_discards_the_drawn_card(game):
    position = at_attack(game, (J1, J2, J4, J6, "j-zero#3"), (U1, U2))
    position = with_state(game, position, japan=replace(to_state(game, position).japan,
                                                        drawn=("j-zero#3",)))
    position, _ = apply(game, position, ("rearm", {"card": J4}), ("pass", {}))
    assert (position.due.kind, position.due.side) == ("rearm-discard", "japan")
    assert legal(game, position) == [("discard", {"cards": "j-zero#3"})]
    assert refusal(game, position, "discard", {"cards": J1}).rule == "12-2"
    position, said = apply(game, position, ("discard", {"cards": "j-zero#3"}))
    assert "j-zero#3" in cards(position, "japan.discard") and position.due.kind == "exchange"


def test_c_ex5_zero_only_base_attack_needs_no_rearming(game):
    position = at_attack(game, (J1, J2, J6, J7), (U1, U2))
    position, said = apply(game, position, ("raid", {"card": J6}), ("raid", {"card": J7}),
                           ("launch", {}), ("pass", {}))
    assert position.due.kind == "exchange", "no forced discard"
    assert position.piece("rearming-in-progress").kind == "pool"
    assert sum(1 for s in said if " hits midway-base" in s) == 2


def _base_view(game, position):
    return [s for s in _view(game, position)["ships"] if s["id"] == BASE_ID][0]


def test_c_ex6_base_at_20_damage(game):
    position = with_state(game, at_attack(game, (J1,), (U1,)), base_damage=20)
    assert _base_view(game, position)["status"] == "heavy"
    assert _view(game, position)["score"]["japan"] == 10


def test_c_ex7_base_at_40_damage(game):
    position = with_state(game, at_attack(game, (J1,), (U1,)), base_damage=40)
    assert _base_view(game, position)["status"] == "destroyed"
    assert _view(game, position)["score"]["japan"] == 20


def _us_carriers_disabled(game, position):
    state = to_state(game, position)
    return with_state(game, position, ships=tuple(
        replace(s, disabled=True) if s.id in ("enterprise", "hornet", "yorktown") else s
        for s in state.ships))


def test_c_ex8_us_carriers_out_base_below_20_game_goes_on(game):
    repair = "us-emergency-repair#1"
    position = at_attack(game, (J1,), (U3, U4, U2, repair), turn=4, turn_player="us",
                         base_damage=19)
    position = _us_carriers_disabled(game, position)
    assert position.verdict is None
    assert refusal(game, position, "fly", {"card": U3, "mission": "A"}).rule == "11"
    assert ("emergency-repair", {"card": repair, "target": BASE_ID}) in legal(game, position)
    assert {n for n, _ in legal(game, position)} == {"emergency-repair", "pass"}
    # the game ends by the decks with the base under 大破: a draw (11)
    last = with_state(game, position, end_after_turn=4)
    ended, said = apply(game, last, ("pass", {}), ("exchange", {}))
    assert ended.verdict is not None and ended.verdict.winner is None
    assert ended.verdict.condition == "us-carriers-out-base-intact"


def test_c_ex8_the_base_reaching_heavy_damage_ends_the_game(game):
    bomber = "ac-d3a#1"
    position = at_attack(game, (bomber,), (U1,), base_damage=19,
                         secondary_top=(_secondary(game, "bombing", "none"),))
    position = _us_carriers_disabled(game, position)
    ended, _ = apply(game, position, ("raid", {"card": bomber}), ("launch", {}), ("pass", {}))
    assert ended.verdict.winner == "japan" and ended.verdict.condition == "us-carriers-out"


def test_c_ex9_more_japanese_vp_but_base_not_heavy(game):
    position = at_attack(game, (J1,), (U1,), turn=4, turn_player="us", base_damage=19,
                         end_after_turn=4)
    state = to_state(game, position)
    position = with_state(game, position, ships=tuple(
        replace(s, side_damage=4) if s.id in ("enterprise", "hornet") else s
        for s in state.ships))
    ended, _ = apply(game, position, ("pass", {}), ("exchange", {}))
    assert ended.verdict.winner == "us" and ended.verdict.condition == "base-not-heavy"
    vp = _view(game, ended)["summary"]["vp"]
    assert vp["japan"] > vp["us"]


def test_c_ex10_emergency_repair_on_an_undamaged_ship_not_allowed(game):
    repair = "us-emergency-repair#1"
    position = at_attack(game, (J1,), (repair, U1), turn=4, turn_player="us")
    error = refusal(game, position, "emergency-repair", {"card": repair, "target": "yorktown",
                                                         "colour": "deck"})
    assert error.rule == "10-2"
    assert not any(n == "emergency-repair" for n, _ in legal(game, position))


def test_c_ex11_two_emergency_repairs(game):
    r1, r2 = "us-emergency-repair#1", "us-emergency-repair#2"
    position = at_attack(game, (J1,), (r1, r2, U1), turn=4, turn_player="us")
    state = to_state(game, position)
    damaged = with_state(game, position, ships=tuple(
        replace(s, deck_damage=2) if s.id == "yorktown" else
        replace(s, side_damage=3) if s.id == "hornet" else s for s in state.ships))
    same, _ = apply(game, damaged,
                    ("emergency-repair", {"card": r1, "target": "yorktown", "colour": "deck"}),
                    ("emergency-repair", {"card": r2, "target": "yorktown", "colour": "deck"}))
    assert same.piece("yorktown").props["deck_damage"] == 0
    apart, _ = apply(game, damaged,
                     ("emergency-repair", {"card": r1, "target": "yorktown", "colour": "deck"}),
                     ("emergency-repair", {"card": r2, "target": "hornet", "colour": "side"}))
    assert (apart.piece("yorktown").props["deck_damage"],
            apart.piece("hornet").props["side_damage"]) == (1, 2)
    assert {r1, r2} <= set(cards(apart, "us.discard"))


def test_c_ex12_dud_zero_damage(game):
    position = at_attack(game, (J2,), (U1,), secondary_top=(_secondary(game, "torpedo",
                                                                       "dud"),))
    position, said = apply(game, position, ("fly", {"card": J2, "mission": "A"}), ("pass", {}),
                           ("launch", {}), ("target", {"ship": "yorktown"}), ("pass", {}))
    assert any(s.startswith(f"{J2} hits yorktown") and s.endswith(": 0 damage") for s in said)
    assert position.piece("yorktown").props["side_damage"] == 0


def test_c_ex13_flight_deck_against_the_base_adds_one_only(game):
    bomber = "ac-d3a#1"
    position = at_attack(game, (bomber,), (U1,),
                         secondary_top=(_secondary(game, "bombing", "flight-deck"),))
    position, said = apply(game, position, ("raid", {"card": bomber}), ("launch", {}),
                           ("pass", {}))
    damage = game.get("cards", "ac-d3a").stats["damage"]
    assert position.piece(BASE_ID).props["damage"] == damage + 1
    assert not any("発着艦不能" in s for s in said)
    assert bomber in cards(position, "armament.pile"), "back to its pile (12-2)"

"""Launches and whole air strikes (8.4, 9.0-9.6) over the carrier-area state."""

from __future__ import annotations

import pytest
from warpress.engine.dice import GivenDice, distribution
from warpress.engine.errors import RuleViolation
from warpress.games.midway.rules import area as A
from warpress.games.midway.rules import combat as C

JAPAN = [("z1", "a6m", "cardiv1", "akagi-deck-front"), ("k1", "b5n", "cardiv1", "akagi-deck-rear"),
         ("c1", "a6m", "cardiv1", "cap"), ("z9", "a6m", "cardiv2", "hiryu-hangar")]
US_DECK = [("s1", "sbd", "tf16", "enterprise-deck-front"),
           ("f1", "f4f", "tf16", "enterprise-deck-rear")]


def us_strike_state(game, build, extra=()):
    state = build(JAPAN + US_DECK + list(extra))
    return C.launch(game, state, ["s1", "f1"], "C-3", "g1")


def test_launch_puts_a_group_in_the_combat_area(game, build):
    state = us_strike_state(game, build)
    group = state.group("g1")
    assert {u.uid for u in group} == {"s1", "f1"}
    assert all(u.box == "C-3" and u.launched for u in group)
    assert A.on_deck(game, state, "enterprise") == ()


def test_launch_only_from_a_deck(game, build):
    state = build([("h", "sbd", "tf16", "enterprise-hangar")])
    with pytest.raises(RuleViolation, match=r"8\.4\(1\)"):
        C.launch(game, state, ["h"], "C-3", "g")


def test_no_launch_at_night(game, build):
    state = build(US_DECK)
    with pytest.raises(RuleViolation, match=r"10\.2\(2\)d"):
        C.launch(game, state, ["s1"], "C-3", "g", night=True)


def test_us_carrier_group_from_one_carrier(game, build):
    state = build([("a", "sbd", "tf16", "enterprise-deck-front"),
                   ("b", "sbd", "tf16", "hornet-deck-front")])
    with pytest.raises(RuleViolation, match=r"8\.4\(2\)"):
        C.launch(game, state, ["a", "b"], "C-3", "g")


def test_base_group_up_to_3(game, build):
    state = build([("a", "sb2u", "midway-base", "runway-1"),
                   ("b", "tbf", "midway-base", "runway-2"),
                   ("c", "b26", "midway-base", "runway-3")])
    state = C.launch(game, state, ["a", "b", "c"], "F-6", "g")
    assert len(state.group("g")) == 3


def test_us_strike_on_a_division_end_to_end(game, build):
    """CAP misses, an escort hit, one AA hit, a dive bomber +1 hit on Akagi's front box."""
    state = us_strike_state(game, build)
    strike = C.Strike(group=("s1", "f1"), target="cardiv1", assign={"s1": "akagi"},
                      cap=("c1",), return_to="tf16")
    dice = GivenDice({"cap": [4, 5], "escort": [1, 6], "aa": [2, 3, 4, 1], "attack": [4],
                      "hit_location": [2]})
    state, report = C.air_strike(game, state, strike, dice)
    assert (report.cap_hits, report.escort_hits, report.aa_dice, report.aa_hits) == (0, 1, 4, 1)
    assert report.attack_hits == {"akagi": 1}
    assert ("cardiv1", "akagi-deck-front") in state.damage and "z1" in report.removed
    assert state.unit("c1").steps == 1 and state.unit("c1").box == "akagi-hangar"
    assert state.unit("s1").steps == 1
    assert {(u.display, u.box) for u in state.units if u.uid in ("s1", "f1")} == {
        ("tf16", "return-1")}
    A.check_state(game, state)


def test_the_other_division_takes_no_part(game, build):
    state = us_strike_state(game, build)
    strike = C.Strike(group=("s1", "f1"), target="cardiv1", assign={"s1": "kaga"})
    after, _ = C.air_strike(game, state, strike, GivenDice({"aa": [6] * 4, "attack": [6, 6]}))
    assert after.unit("z9") == state.unit("z9")


def test_unescorted_group_faces_cap_plus_1_and_aa_on_1_or_2(game, build):
    state = build(JAPAN + [("s1", "sbd", "tf16", "enterprise-deck-front")])
    state = C.launch(game, state, ["s1"], "C-3", "g1")
    strike = C.Strike(group=("s1",), target="cardiv1", assign={"s1": "kaga"}, cap=("c1",))
    # a6m air 3 + 1 = 4: rolls 4 and 5 give one hit; then AA hits on 1-2.
    dice = GivenDice({"cap": [4, 5], "aa": [2, 6, 6, 6], "attack": []})
    state, report = C.air_strike(game, state, strike, dice)
    assert report.cap_hits == 1 and report.aa_hits == 1 and report.attack_hits == {}
    assert "s1" in report.removed


def test_aa_hits_fall_on_attack_aircraft_only(game, build):
    state = us_strike_state(game, build)
    strike = C.Strike(group=("s1", "f1"), target="cardiv1", assign={"s1": "kaga"})
    state, report = C.air_strike(game, state, strike, GivenDice({"aa": [1, 1, 1, 1]}))
    assert report.aa_hits == 4
    assert "s1" in report.removed and state.unit("f1").steps == 2


def test_fighters_alone_cannot_attack(game, build):
    state = build([("f1", "f4f", "tf16", "enterprise-deck-front")] + JAPAN)
    state = C.launch(game, state, ["f1"], "C-3", "g")
    with pytest.raises(RuleViolation, match=r"9\.0.*fighters alone|fighters alone.*9\.0"):
        C.air_strike(game, state, C.Strike(("f1",), "cardiv1"), GivenDice({}))


def test_target_must_be_one_enemy_division(game, build):
    state = us_strike_state(game, build)
    with pytest.raises(RuleViolation, match=r"cardiv1, cardiv2"):
        C.air_strike(game, state, C.Strike(("s1", "f1"), "ichikokan"), GivenDice({}))
    with pytest.raises(RuleViolation, match=r"9\.1"):
        C.air_strike(game, state, C.Strike(("s1", "f1"), "tf17"), GivenDice({}))


def test_attack_units_are_assigned_before_rolling(game, build):
    state = us_strike_state(game, build)
    with pytest.raises(RuleViolation, match=r"9\.4"):
        C.air_strike(game, state, C.Strike(("s1", "f1"), "cardiv1"), GivenDice({}))
    with pytest.raises(RuleViolation, match="hiryu"):
        C.air_strike(game, state, C.Strike(("s1", "f1"), "cardiv1", {"s1": "hiryu"}),
                     GivenDice({}))


def test_only_the_targets_cap_intercepts(game, build):
    state = us_strike_state(game, build, [("c2", "a6m", "cardiv2", "cap")])
    strike = C.Strike(("s1", "f1"), "cardiv1", {"s1": "akagi"}, cap=("c2",))
    with pytest.raises(RuleViolation, match=r"9\.2"):
        C.air_strike(game, state, strike, GivenDice({}))


def test_assignment_holds_even_when_the_carrier_sinks_first(game, build):
    rows = [("a", "sbd", "tf16", "enterprise-deck-front"),
            ("b", "sbd", "tf16", "enterprise-deck-rear")]
    state = build(rows + [("k1", "b5n", "cardiv1", "akagi-hangar")])
    state = C.launch(game, state, ["a", "b"], "C-3", "g")
    strike = C.Strike(("a", "b"), "cardiv1", {"a": "akagi", "b": "akagi"})
    dice = GivenDice({"aa": [6] * 4, "attack": [1, 1, 1, 1], "hit_location": [1]})
    state, report = C.air_strike(game, state, strike, dice)
    assert report.attack_hits == {"akagi": 4} and report.sunk == ("akagi",)
    assert "kaga" not in state.sunk


def test_japanese_b5n_with_d3a_on_the_same_carrier(game, build):
    rows = [("v", "d3a", "cardiv1", "akagi-deck-front"), ("k", "b5n", "cardiv1", "akagi-deck-rear"),
            ("e", "sbd", "tf16", "enterprise-hangar")]
    state = C.launch(game, build(rows), ["v", "k"], "C-3", "g")
    strike = C.Strike(("v", "k"), "tf16", {"v": "enterprise", "k": "enterprise"},
                      return_to="cardiv2")
    # No attack aircraft on Enterprise's deck: the D3A hits on 3 (4, 4 miss); the B5N on
    # 3 + 1 = 4 (4 hits, 5 misses).
    dice = GivenDice({"aa": [6] * 4, "attack": [4, 4, 4, 5], "hit_location": [6]})
    state, report = C.air_strike(game, state, strike, dice)
    assert report.attack_hits == {"enterprise": 1}
    assert ("tf16", "enterprise-deck-rear") in state.damage and report.sunk == ()
    assert {u.box for u in state.units if u.uid in ("v", "k")} == {"return-1"}


def test_b5n_alone_on_a_carrier_has_no_bonus(game, build):
    rows = [("v", "d3a", "cardiv1", "akagi-deck-front"), ("k", "b5n", "cardiv1", "akagi-deck-rear")]
    state = C.launch(game, build(rows), ["v", "k"], "C-3", "g")
    strike = C.Strike(("v", "k"), "tf16", {"v": "enterprise", "k": "hornet"})
    dice = GivenDice({"aa": [6] * 4, "attack": [6, 6, 4, 4]})
    _, report = C.air_strike(game, state, strike, dice)
    assert report.attack_hits == {"enterprise": 0, "hornet": 0}


def test_japanese_may_attack_midway_only_in_the_base_attack_phase(game, build):
    rows = [("v", "d3a", "cardiv1", "akagi-deck-front")]
    state = C.launch(game, build(rows), ["v"], "F-6", "g")
    with pytest.raises(RuleViolation, match=r"6\.4"):
        C.air_strike(game, state, C.Strike(("v",), "midway-base"), GivenDice({}))
    with pytest.raises(RuleViolation, match=r"6\.4"):
        C.air_strike(game, state, C.Strike(("v",), "tf16", {"v": "hornet"},
                                           base_attack_phase=True), GivenDice({}))


def test_us_attack_on_the_invasion_force(game, build):
    rows = [("t", "tbf", "midway-base", "runway-1")]
    state = C.launch(game, build(rows), ["t"], "D-6", "g")
    dice = GivenDice({"aa": [3, 3, 3, 3], "attack": [2, 2]})
    state, report = C.air_strike(game, state, C.Strike(("t",), "invasion"), dice)
    assert report.aa_dice == 4 and report.aa_hits == 0
    assert state.invasion == 2
    assert state.unit("t").display == "midway-base" and state.unit("t").box == "return-1"


def test_cap_cannot_return_when_every_carrier_sank(game, build):
    rows = [("a", "sbd", "tf16", "enterprise-deck-front"),
            ("b", "sbd", "tf16", "enterprise-deck-rear"),
            ("c1", "a6m", "cardiv1", "cap"), ("c2", "a6m", "cardiv1", "cap")]
    state = build(rows, sunk=frozenset({"kaga"}))
    state = C.launch(game, state, ["a", "b"], "C-3", "g")
    strike = C.Strike(("a", "b"), "cardiv1", {"a": "akagi", "b": "akagi"}, cap=("c1",))
    dice = GivenDice({"cap": [6, 6], "aa": [6, 6], "attack": [1, 1, 1, 6],
                      "hit_location": [1]})
    state, report = C.air_strike(game, state, strike, dice)
    assert "akagi" in report.sunk
    assert {"c1", "c2"} <= set(report.removed)


def test_cap_is_lost_with_its_division_even_when_none_intercepted(game, build):
    """9.5(1), E17: every CAP fighter of an all-sunk division is removed, interception or not
    (found by verify midway 9.4(2); the defender used to keep them by not intercepting)."""
    rows = [("a", "sbd", "tf16", "enterprise-deck-front"),
            ("b", "sbd", "tf16", "enterprise-deck-rear"),
            ("c1", "a6m", "cardiv1", "cap")]
    state = build(rows, sunk=frozenset({"kaga"}))
    state = C.launch(game, state, ["a", "b"], "C-3", "g")
    strike = C.Strike(("a", "b"), "cardiv1", {"a": "akagi", "b": "akagi"})
    dice = GivenDice({"aa": [6, 6], "attack": [1, 1, 1, 6], "hit_location": [1]})
    state, report = C.air_strike(game, state, strike, dice)
    assert "akagi" in report.sunk
    assert "c1" in report.removed and not state.in_box("cardiv1", "cap")


def test_strike_odds_by_enumeration(game, build):
    """A one-step dive bomber against a lone damaged carrier: exact odds it sinks."""
    rows = [("a", "sbd", "tf16", "enterprise-deck-front", 1)]
    state = build(rows, sunk=frozenset({"kaga"}),
                  damage=frozenset({("cardiv1", "akagi-deck-front")}))
    state = C.launch(game, state, ["a"], "C-3", "g")
    strike = C.Strike(("a",), "cardiv1", {"a": "akagi"})

    def sunk(dice):
        after, _ = C.air_strike(game, state, strike, dice)
        return "akagi" in after.sunk

    # 1 AA die (damaged carrier) hits on 1 (the group is all dive bombers, no fighter: 1-2).
    dist = distribution(sunk)
    assert dist[True] == pytest.approx(4 / 6 * 3 / 6) and sum(dist.values()) == 1


def test_fly_within_the_launch_move_or_the_group_allowance(game, build):
    state = us_strike_state(game, build)  # launched at C-3
    state = C.fly(game, state, "g1", "A-3", just_launched=True)
    assert {u.box for u in state.group("g1")} == {"A-3"}
    with pytest.raises(RuleViolation, match=r"8\.4\(1\)"):
        C.fly(game, state, "g1", "D-3", just_launched=True)
    state = C.fly(game, state, "g1", "D-3")  # SBD 3, F4F 3: the group moves 3
    assert not any(u.launched for u in state.group("g1"))
    with pytest.raises(RuleViolation, match=r"8\.5\(2\)"):
        C.fly(game, state, "g1", "H-3")


def test_a_group_from_the_combat_area_returns_to_return_2(game, build):
    state = C.fly(game, us_strike_state(game, build), "g1", "C-4")
    strike = C.Strike(("s1", "f1"), "cardiv1", {"s1": "kaga"}, return_to="tf17")
    state, _ = C.air_strike(game, state, strike, GivenDice({"aa": [6] * 4, "attack": [6, 6]}))
    assert {(u.display, u.box) for u in state.units if u.uid in ("s1", "f1")} == {
        ("tf17", "return-2")}


def test_no_target_goes_to_return_2_of_an_own_fleet(game, build):
    state = C.no_target(game, us_strike_state(game, build), "g1", "tf17")
    assert state.unit("s1").box == "return-2" and state.unit("s1").display == "tf17"
    with pytest.raises(RuleViolation, match=r"9\.5\(2\)"):
        C.no_target(game, us_strike_state(game, build), "g1", "cardiv1")


def test_a_day_of_air_operations_end_to_end(game, build):
    """Search, initiative, launch, strike, then the forced return moves of later operations."""
    from warpress.games.midway.rules import search as S

    aop = S.search_phase(game, S.Positions("C-3", "E-3"), turn=2)
    assert aop == {"japan": 4, "us": 4}
    first = S.initiative(game, aop["japan"], aop["us"], 6, GivenDice({"japan_roll": 2,
                                                                      "us_roll": 5}))
    assert first.winner == "us"
    state = C.launch(game, build(JAPAN + US_DECK), ["s1", "f1"], "E-3", "g1")
    state = C.fly(game, state, "g1", "C-3", just_launched=True)
    strike = C.Strike(("s1", "f1"), "cardiv1", {"s1": "kaga"}, return_to="tf16")
    state, _ = C.air_strike(game, state, strike, GivenDice({"aa": [6] * 4, "attack": [6, 6]}))
    assert state.unit("s1").box == "return-1"
    state = A.advance_returns(game, state, "us")
    assert state.unit("s1").box == "enterprise-hangar"
    assert S.spend_aop(game, aop["us"]) == 3


def test_the_report_names_rules_and_errata(game, build):
    state = us_strike_state(game, build)
    strike = C.Strike(("s1", "f1"), "cardiv1", {"s1": "kaga"})
    _, report = C.air_strike(game, state, strike, GivenDice({"aa": [6] * 4, "attack": [6, 6]}))
    assert "9.4(1)" in report.rules and "E25" in report.errata


def test_strike_odds_match_a_seeded_monte_carlo(game, build):
    from warpress.engine.dice import monte_carlo

    rows = [("a", "sbd", "tf16", "enterprise-deck-front", 1),
            ("f", "f4f", "tf16", "enterprise-deck-rear", 1)]
    state = build(rows + [("c", "a6m", "cardiv1", "cap", 1)],
                  damage=frozenset({("cardiv1", "akagi-deck-front")}), sunk=frozenset({"kaga"}))
    state = C.launch(game, state, ["a", "f"], "C-3", "g")
    strike = C.Strike(("a", "f"), "cardiv1", {"a": "akagi"}, cap=("c",))

    def sunk(dice):
        return "akagi" in C.air_strike(game, state, strike, dice)[0].sunk

    exact = float(distribution(sunk)[True])
    n = 3000
    seen = monte_carlo(sunk, n, seed=7).get(True, 0.0)
    assert abs(seen - exact) < 4 * (exact * (1 - exact) / n) ** 0.5


DECKS = ("akagi-deck-front", "akagi-deck-rear", "kaga-deck-front", "kaga-deck-rear")


@pytest.mark.parametrize("seed", range(12))
def test_base_attacks_never_break_the_cap_or_the_floor(game, build, seed):
    """Three turns of base attacks with seeded dice: <= 2 hits a turn, Garrison >= 2 (9.6(3))."""
    from warpress.engine.dice import SeededDice

    garrison = 3 + seed % 4
    state = build([(f"v{i}", "d3a", "cardiv1", box) for i, box in enumerate(DECKS)],
                  garrison=garrison, base_hits=6 - garrison)
    dice = SeededDice(seed)
    for turn in range(3):
        state = A.new_turn(state)
        alive = [u.uid for u in state.units]
        if not alive:
            break
        for uid, box in zip(alive, DECKS, strict=False):
            state = A.place(game, state, uid, "cardiv1", box)
        state = C.launch(game, state, alive, "F-6", f"g{turn}")
        strike = C.Strike(tuple(alive), "midway-base", base_attack_phase=True)
        state, report = C.air_strike(game, state, strike, dice)
        assert report.base_hits_applied <= game.constant("base-hits-per-turn")
        assert state.garrison >= game.constant("garrison-air-attack-floor")
        A.check_state(game, state)

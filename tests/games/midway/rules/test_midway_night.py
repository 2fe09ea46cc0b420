"""The night turn: night landings, everything to the hangars, redeploy, surface battle (10.x)."""

from __future__ import annotations

import pytest
from warpress.engine.dice import GivenDice
from warpress.engine.errors import RuleViolation
from warpress.games.midway.rules import area as A
from warpress.games.midway.rules import night as N


def test_night_operation_a_to_d(game, build):
    state = build([
        ("r2", "d3a", "cardiv1", "return-2"),          # 2 steps land: 5 lost, 1 safe
        ("r1", "b5n", "cardiv1", "return-1"),
        ("cap", "a6m", "cardiv1", "cap"),
        ("deck", "a6m", "cardiv1", "kaga-deck-front"),
        ("hz", "a6m", "cardiv1", "kaga-hangar"),
    ])
    state = N.night_operation(game, state, "japan", GivenDice({"night_landing": [5, 1]}),
                              redeploy=[("hz", "cap"), ("deck", "kaga-deck-rear")])
    assert state.unit("r2").steps == 1 and state.unit("r2").box == "akagi-hangar"
    assert state.unit("r1").box == "akagi-hangar"
    assert state.unit("cap").box == "akagi-hangar"
    assert state.unit("hz").box == "cap"
    assert state.unit("deck").box == "kaga-deck-rear"
    A.check_state(game, state)


def test_night_landing_us_loses_on_4_to_6(game, build):
    state = build([("s", "sbd", "tf16", "return-2")])
    state = N.night_operation(game, state, "us", GivenDice({"night_landing": [4, 6]}))
    assert "s" in [u.uid for u in state.removed]


def test_return_goes_to_the_other_division_if_none_is_left(game, build):
    state = build([("r", "d3a", "cardiv2", "return-1")], sunk=frozenset({"hiryu", "soryu"}))
    state = N.night_operation(game, state, "japan", GivenDice({}))
    assert state.unit("r").display == "cardiv1" and state.unit("r").box == "akagi-hangar"


def test_no_room_at_night_removes_the_unit(game, build):
    full = [(f"h{i}", "a6m", "tf17", "yorktown-hangar") for i in range(5)]
    state = build(full + [("c", "f4f", "tf17", "cap")])
    state = N.night_operation(game, state, "us", GivenDice({}))
    assert "c" in [u.uid for u in state.removed]


def test_night_redeploy_keeps_cap_fighters_only(game, build):
    state = build([("k", "b5n", "cardiv1", "akagi-hangar")])
    with pytest.raises(RuleViolation, match=r"8\.3\(2\)"):
        N.night_operation(game, state, "japan", GivenDice({}), redeploy=[("k", "cap")])


def test_surface_battle_rolls_and_allocation(game, build):
    assert N.surface_battle(game, GivenDice({"japan_roll": 6, "us_roll": 5})) == {
        "hits_on_us": 4, "hits_on_japan": 1}
    state = build([("z", "a6m", "cardiv1", "akagi-deck-front")])
    state = N.apply_surface_hits(game, state, "japan", ["invasion"], 1, GivenDice({}))
    assert state.invasion == 3
    state = N.apply_surface_hits(game, state, "us", ["yorktown", "yorktown"], 2,
                                 GivenDice({"hit_location": [1]}))
    assert "yorktown" in state.sunk
    with pytest.raises(RuleViolation, match=r"10\.1\(2\)"):
        N.apply_surface_hits(game, state, "us", ["hornet"], 2, GivenDice({"hit_location": [1]}))
    with pytest.raises(RuleViolation, match=r"10\.1\(2\)"):
        N.apply_surface_hits(game, state, "us", ["akagi"], 1, GivenDice({}))


@pytest.mark.parametrize("seed", range(10))
def test_night_operation_from_any_return_boxes_keeps_the_limits(game, seed):
    """Send a random half of each side's aircraft to Return 1/2, then fly both night ops."""
    import random
    from dataclasses import replace

    from warpress.engine.dice import SeededDice
    from warpress.games.midway.rules.setup import standard_start

    rng = random.Random(seed)
    state = standard_start(game, cap_fighters=1)
    moved = []
    for air in state.units:
        if air.home == "carrier" and rng.random() < 0.5:
            moved.append(replace(air, box=rng.choice(["return-1", "return-2"])))
        else:
            moved.append(air)
    state = replace(state, units=tuple(moved), sunk=frozenset(rng.sample(
        ["akagi", "kaga", "hiryu", "soryu", "enterprise", "hornet", "yorktown"], seed % 4)))
    state = A.remove(state, [u.uid for c in state.sunk for u in A.aboard(game, state, c)])
    steps_before = sum(u.steps for u in state.units)
    dice = SeededDice(seed)
    for side in ("japan", "us"):
        state = N.night_operation(game, state, side, dice)
        A.check_state(game, state)
    assert not [u for u in state.units if A.box(game, u.display, u.box).kind == "return"]
    assert sum(u.steps for u in state.units) <= steps_before

"""The carrier-area state (8.3, 9.4(2), 9.6): capacities, arrows, forced moves, damage."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from warpress.engine.dice import GivenDice
from warpress.engine.errors import BadInput, RuleViolation
from warpress.games.midway.rules import area as A

AKAGI = [("z1", "a6m", "cardiv1", "akagi-deck-front"), ("z2", "a6m", "cardiv1", "akagi-hangar"),
         ("v1", "d3a", "cardiv1", "akagi-hangar"), ("k1", "b5n", "cardiv1", "akagi-deck-rear")]


def test_a_new_area_starts_on_the_tracks(game, build):
    state = build(AKAGI)
    assert (state.garrison, state.invasion, state.base_hits) == (6, 4, 0)
    assert [u.uid for u in A.on_deck(game, state, "akagi")] == ["z1", "k1"]


def test_deck_holds_one_unit_per_box(game, build):
    state = build(AKAGI)
    with pytest.raises(RuleViolation, match=r"8\.3\(5\)"):
        A.move(game, state, "z2", "akagi-deck-front")


def test_hangar_to_deck_along_the_arrow(game, build):
    state = build(AKAGI[1:])
    state = A.move(game, state, "z2", "akagi-deck-front")
    assert state.unit("z2").box == "akagi-deck-front"
    with pytest.raises(RuleViolation, match=r"8\.3"):
        A.move(game, state, "v1", "kaga-deck-front")


def test_carrier_capacity_5_units(game, build):
    rows = [(f"u{i}", "a6m", "cardiv1", "akagi-hangar") for i in range(5)]
    state = build(rows + [("x", "a6m", "cardiv1", "cap")])
    with pytest.raises(RuleViolation, match=r"8\.3\(3\)"):
        A.place(game, state, "x", "cardiv1", "akagi-hangar")
    with pytest.raises(RuleViolation, match=r"8\.3\(3\)"):
        build(rows + [("x", "a6m", "cardiv1", "akagi-deck-front")])


def test_cap_fighters_only_and_unlimited(game, build):
    rows = [(f"z{i}", "a6m", "cardiv1", "cap") for i in range(8)]
    state = build(rows + [("v", "d3a", "cardiv1", "akagi-deck-front")])
    assert len(state.in_box("cardiv1", "cap")) == 8
    with pytest.raises(RuleViolation, match=r"8\.3\(2\)"):
        A.move(game, state, "v", "cap")


def test_deck_to_cap_but_hangar_to_cap_only_at_night(game, build):
    state = build([("z", "a6m", "cardiv1", "akagi-hangar"),
                   ("y", "a6m", "cardiv1", "akagi-deck-rear")])
    with pytest.raises(RuleViolation, match="no arrow"):
        A.move(game, state, "z", "cap")
    assert A.move(game, state, "z", "cap", night=True).unit("z").box == "cap"
    assert A.move(game, state, "y", "cap").unit("y").box == "cap"


def test_sides_keep_to_their_own_displays(game, build):
    state = build([("f", "f4f", "tf16", "cap")])
    with pytest.raises(RuleViolation):
        A.place(game, state, "f", "cardiv1", "cap")


def test_land_based_units_never_on_carriers(game, build):
    state = build([("sb", "sb2u", "midway-base", "hangar")])
    with pytest.raises(RuleViolation, match=r"9\.5\(3\)"):
        A.place(game, state, "sb", "tf16", "enterprise-hangar")
    with pytest.raises(RuleViolation, match=r"9\.5\(3\)"):
        A.place(game, state, "sb", "tf16", "return-1")


def test_base_runway_holds_3(game, build):
    rows = [("a", "sb2u", "midway-base", "runway-1"), ("b", "tbf", "midway-base", "runway-2"),
            ("c", "b26", "midway-base", "runway-3"), ("d", "sbd-land", "midway-base", "hangar")]
    state = build(rows)
    assert len(A.on_deck(game, state, "midway")) == 3
    with pytest.raises(RuleViolation, match=r"8\.3\(5\)"):
        A.move(game, state, "d", "runway-1")


def test_base_capacity_5(game, build):
    rows = [(f"h{i}", "sb2u", "midway-base", "hangar") for i in range(5)]
    with pytest.raises(RuleViolation, match=r"9\.6\(1\)"):
        build(rows + [("x", "tbf", "midway-base", "runway-1")])


def test_unknown_unit_type_and_steps_are_bad_input(game):
    with pytest.raises(BadInput, match="b17"):
        A.make_unit(game, "x", "b17", "midway-base", "hangar")
    with pytest.raises(BadInput, match="steps"):
        A.make_unit(game, "x", "a6m", "cardiv1", "cap", steps=3)
    with pytest.raises(BadInput, match="fleet"):
        A.make_unit(game, "x", "ichikokan", "cardiv1", "cap")


# --------------------------------------------------------------------------- forced moves


def test_return_2_to_return_1_to_hangar(game, build):
    state = build([("a", "d3a", "cardiv1", "return-2"), ("b", "b5n", "cardiv1", "return-1")])
    state = A.advance_returns(game, state, "japan")
    assert state.unit("a").box == "return-1"
    assert state.unit("b").box == "akagi-hangar"
    state = A.advance_returns(game, state, "japan")
    assert state.unit("a").box == "akagi-hangar"


def test_return_1_goes_to_a_carrier_with_room(game, build):
    full = [(f"u{i}", "a6m", "cardiv1", "akagi-hangar") for i in range(5)]
    state = build(full + [("r", "d3a", "cardiv1", "return-1")])
    state = A.advance_returns(game, state, "japan")
    assert state.unit("r").box == "kaga-hangar"


def test_return_1_removed_when_no_carrier_has_room(game, build):
    full = [(f"a{i}", "a6m", "cardiv1", "akagi-hangar") for i in range(5)]
    state = build(full, sunk=frozenset({"kaga"}))
    state = A.place(game, state, "a0", "cardiv1", "akagi-hangar")
    state = replace(state, units=state.units + (
        A.make_unit(game, "r", "d3a", "cardiv1", "return-1"),))
    state = A.advance_returns(game, state, "japan")
    assert "r" in [u.uid for u in state.removed]
    assert "r" not in [u.uid for u in state.units]


def test_the_chooser_picks_the_carrier(game, build):
    state = build([("r", "d3a", "cardiv1", "return-1")])
    state = A.advance_returns(game, state, "japan", choose=lambda air, options: options[-1])
    assert state.unit("r").box == "kaga-hangar"


def test_reorganize_two_1_step_units_of_one_type(game, build):
    state = build([("a", "d3a", "cardiv1", "akagi-hangar", 1),
                   ("b", "d3a", "cardiv1", "akagi-hangar", 1),
                   ("c", "b5n", "cardiv1", "akagi-hangar", 1)])
    merged = A.reorganize(game, state, "a", "b")
    assert merged.unit("a").steps == 2 and "b" not in [u.uid for u in merged.units]
    with pytest.raises(RuleViolation, match=r"8\.3\(4\)"):
        A.reorganize(game, state, "a", "c")


# --------------------------------------------------------------------------- damage


def test_first_hit_damages_a_deck_box_and_removes_its_unit(game, build):
    state = build(AKAGI)
    state = A.hit_carrier(game, state, "akagi", GivenDice({"hit_location": 5}))
    assert ("cardiv1", "akagi-deck-rear") in state.damage
    assert "k1" in [u.uid for u in state.removed]
    assert A.status(game, state, "akagi") == "damaged"
    with pytest.raises(RuleViolation, match=r"9\.4\(2\)"):
        A.move(game, state, "v1", "akagi-deck-rear")


def test_second_hit_sinks_and_clears_the_carrier(game, build):
    state = build(AKAGI)
    state = A.hit_carrier(game, state, "akagi", GivenDice({"hit_location": 1}))
    state = A.hit_carrier(game, state, "akagi", GivenDice({}))
    assert A.status(game, state, "akagi") == "sunk"
    assert A.aboard(game, state, "akagi") == ()
    assert A.hit_carrier(game, state, "akagi", GivenDice({})) == state


def test_base_hits_capped_per_turn_and_floored(game, build):
    state = build([("sb", "sb2u", "midway-base", "runway-2")])
    state, applied = A.hit_base(game, state, 3)
    assert applied == 2 and state.garrison == 4 and state.base_hits_turn == 2
    assert len(state.damage) == 2 and "sb" in [u.uid for u in state.units]
    state, applied = A.hit_base(game, state, 1)
    assert applied == 0
    state = A.new_turn(state)
    state, applied = A.hit_base(game, state, 5)
    assert applied == 2 and state.garrison == 2 and A.base_destroyed(game, state)
    state, applied = A.hit_base(game, A.new_turn(state), 4)
    assert applied == 0 and state.garrison == 2


def test_third_base_hit_destroys_the_function(game, build):
    state = build([("h", "tbf", "midway-base", "hangar"), ("r", "b26", "midway-base", "runway-1")])
    state, _ = A.hit_base(game, state, 2, ["runway-2", "runway-3"])
    state, _ = A.hit_base(game, A.new_turn(state), 1)
    assert A.base_destroyed(game, state)
    assert {u.uid for u in state.removed} == {"h", "r"}
    newcomer = A.make_unit(game, "x", "tbf", "midway-base", "cap")
    with pytest.raises(RuleViolation, match=r"9\.6\(2\)"):
        A.check_place(game, state, newcomer, "midway-base", "hangar")


def test_runway_box_choice_must_be_intact(game, build):
    state = build([])
    state, _ = A.hit_base(game, state, 1, ["runway-1"])
    with pytest.raises(RuleViolation, match="runway-1"):
        A.hit_base(game, state, 1, ["runway-1"])


# --------------------------------------------------------------------------- properties

BOXES = [("cardiv1", b) for b in ("akagi-deck-front", "akagi-deck-rear", "akagi-hangar",
                                  "kaga-deck-front", "kaga-deck-rear", "kaga-hangar", "cap",
                                  "return-1", "return-2")]
BASE_BOXES = [("midway-base", b) for b in ("runway-1", "runway-2", "runway-3", "hangar", "cap")]
TYPES = ["a6m", "d3a", "b5n"]
BASE_TYPES = ["f2a", "sbd-land", "sb2u", "tbf", "b26"]

action = st.one_of(
    st.tuples(st.just("move"), st.integers(0, 11), st.sampled_from([b for _, b in BOXES]),
              st.booleans()),
    st.tuples(st.just("place"), st.integers(0, 11), st.sampled_from(BOXES), st.booleans()),
    st.tuples(st.just("returns"), st.integers(0, 11), st.just(""), st.booleans()),
    st.tuples(st.just("hit"), st.sampled_from(["akagi", "kaga"]), st.integers(1, 6),
              st.booleans()),
    st.tuples(st.just("base"), st.integers(0, 4), st.just(""), st.booleans()),
    st.tuples(st.just("base-place"), st.integers(12, 16), st.sampled_from(BASE_BOXES),
              st.booleans()),
)


def _start(game):
    units = [A.make_unit(game, f"j{i}", TYPES[i % 3], "cardiv1", "return-2")
             for i in range(12)]
    units += [A.make_unit(game, f"j{12 + i}", t, "midway-base", "cap" if t == "f2a" else
                          "hangar") for i, t in enumerate(BASE_TYPES)]
    return A.new_area(game, units)


def _step(game, state, act):
    kind, a, b, flag = act
    uids = [u.uid for u in state.units]
    if kind == "hit":
        return A.hit_carrier(game, state, a, GivenDice({"hit_location": b}))
    if kind == "base":
        state = A.new_turn(state) if flag else state
        return A.hit_base(game, state, a)[0]
    if kind == "returns":
        return A.advance_returns(game, state, "japan")
    uid = f"j{a}"
    if uid not in uids:
        return state
    if kind == "move":
        return A.move(game, state, uid, b, night=flag)
    return A.place(game, state, uid, *b)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(action, max_size=25))
def test_any_sequence_of_transitions_keeps_the_limits(game, actions):
    """I1-I4, I8, I10-I12: legal transitions keep every limit; illegal ones raise."""
    state = _start(game)
    total = 0
    for act in actions:
        try:
            state = _step(game, state, act)
        except RuleViolation:
            continue
        A.check_state(game, state)
        for carrier in ("akagi", "kaga"):
            assert len(A.aboard(game, state, carrier)) <= game.constant("carrier-capacity")
            assert len(A.on_deck(game, state, carrier)) <= game.constant("deck-capacity")
        assert len(A.on_deck(game, state, "midway")) <= game.constant("runway-capacity")
        assert state.base_hits_turn <= game.constant("base-hits-per-turn")
        assert state.garrison >= game.constant("garrison-air-attack-floor")
        assert len([d for d in state.damage if d[0] == "midway-base"]) == min(3, state.base_hits)
        steps = sum(u.steps for u in state.units)
        assert total == 0 or steps <= total
        total = steps


def test_land_based_fighters_not_in_a_division_cap(game, build):
    state = build([("f", "f2a", "midway-base", "cap")])
    with pytest.raises(RuleViolation, match=r"9\.5\(3\)"):
        A.place(game, state, "f", "tf16", "cap")
    with pytest.raises(RuleViolation, match=r"9\.5\(3\)"):
        build([("f", "f2a", "tf16", "cap")])


def test_standard_start_places_every_unit_legally(game):
    from collections import Counter

    from warpress.games.midway.rules.setup import standard_start

    state = standard_start(game, cap_fighters=2)
    assert Counter(u.type for u in state.units) == {
        "a6m": 8, "d3a": 4, "b5n": 4, "f4f": 6, "sbd": 6, "tbd": 3,
        "f2a": 1, "sbd-land": 1, "sb2u": 1, "tbf": 1, "b26": 1}
    assert all(u.steps == 2 for u in state.units)
    assert len(state.in_box("cardiv1", "cap")) == 2 and len(state.in_box("tf17", "cap")) == 2
    assert {u.type for u in state.in_box("midway-base", "cap")} == {"f2a"}
    for carrier in ("akagi", "kaga", "hiryu", "soryu", "enterprise", "hornet", "yorktown"):
        assert len(A.on_deck(game, state, carrier)) == 2
    assert len(standard_start(game).in_box("cardiv2", "cap")) == 0


def test_each_unit_moves_once_per_air_operation(game, build):
    state = build([("z", "a6m", "cardiv1", "akagi-hangar"), ("r1", "d3a", "cardiv1", "return-1"),
                   ("r2", "b5n", "cardiv1", "return-2"), ("f", "f4f", "tf16", "return-2")])
    after = A.operation_moves(game, state, "japan",
                              [("z", "akagi-deck-front"), ("r1", "kaga-hangar")])
    assert after.unit("z").box == "akagi-deck-front"
    assert after.unit("r1").box == "kaga-hangar"          # the owner's choice of carrier
    assert after.unit("r2").box == "return-1"             # forced
    assert after.unit("f").box == "return-2"              # the other side's units wait
    with pytest.raises(RuleViolation, match=r"8\.2"):
        A.operation_moves(game, state, "japan", [("z", "akagi-deck-front"), ("z", "cap")])
    with pytest.raises(RuleViolation, match=r"8\.2"):
        A.operation_moves(game, state, "japan", [("f", "return-1")])
    with pytest.raises(RuleViolation, match="no arrow"):
        A.operation_moves(game, state, "japan", [("r2", "akagi-hangar")])

"""Refused commands of the Nightfighter referee: each names its rule and changes nothing."""

from __future__ import annotations

from dataclasses import replace

import pytest
from nf_helpers import edited, night_of, start_state
from warpress.engine.dice import SeededDice
from warpress.engine.errors import BadInput, RuleViolation


@pytest.fixture(scope="module")
def start(game, ref):
    """Cat's-eye night, turn 1, Fighter Movement: Hurricanes 231 (0708) and 232 (1108), N."""
    return start_state(game, ref, "cats-eye", 5)


def refused(game, ref, state, command, args, rule):
    before = ref.dump(state)
    with pytest.raises(RuleViolation) as err:
        ref.apply(game, state, command, args, SeededDice(9))
    assert err.value.rule == rule, str(err.value)
    assert ref.dump(state) == before
    return str(err.value)


def moved_both(game, ref, state):
    for fid, path in (("231", "F,F"), ("232", "F,F")):
        state = ref.apply(game, state, "move", {"fighter": fid, "path": path},
                          SeededDice(3)).state
    return state


def test_nf_referee_starts_in_fighter_movement(game, ref, start):
    view = ref.player_view(game, start)
    assert view["phase"] == "fighter-movement" and view["turn"] == 1
    assert view["awaiting"] == ["move"]
    assert [f["id"] for f in view["fighters"]] == ["231", "232"]


def test_nf_referee_more_mp_than_allowed(game, ref, start):
    text = refused(game, ref, start, "move", {"fighter": "231", "path": "F,F,F,F,F"}, "9.1")
    assert "'F,F,F,F,F'" in text


def test_nf_referee_a_bad_facing_is_bad_input_before_any_rule(game, ref, start):
    """A facing that is no facing is refused as input first, even where a rule would
    refuse the move too (one MP is too few, 9.1)."""
    before = ref.dump(start)
    with pytest.raises(BadInput, match="input facing='Q' is not a facing"):
        ref.apply(game, start, "move", {"fighter": "232", "path": "F", "facing": "Q"},
                  SeededDice(9))
    assert ref.dump(start) == before


def bad_input(game, ref, state, command, args, match):
    before = ref.dump(state)
    with pytest.raises(BadInput, match=match):
        ref.apply(game, state, command, args, SeededDice(9))
    assert ref.dump(state) == before


def test_nf_referee_a_bad_hex_is_bad_input_in_any_phase(game, ref, start):
    """A search typed in Fighter Movement, before the fighters moved: leaving the phase
    would be refused (9.0), but an unknown counter or a hex off the map is said first."""
    radar = start_state(game, ref, "kammhuber-line", 15)
    assert ref.player_view(game, radar)["phase"] == "fighter-movement"
    with pytest.raises(RuleViolation, match="every night fighter must move"):
        ref.apply(game, radar, "search", {"counter": "freya", "hex": "0710"}, SeededDice(9))
    bad_input(game, ref, radar, "search", {"counter": "freya", "hex": "9999"}, "9999")
    bad_input(game, ref, radar, "search", {"counter": "zork", "hex": "0710"},
              "no search counter 'zork'")
    bad_input(game, ref, start, "attack", {"fighter": "999"}, "no night fighter '999'")


def test_nf_referee_entry_options_only_for_the_beacon_box(game, ref, start):
    """--facing and --enter place a fighter leaving the radio beacon box (23.0); one on the
    map goes and faces where its path ends, so they are refused, not ignored."""
    bad_input(game, ref, start, "move", {"fighter": "231", "path": "F,F", "facing": "S"},
              "--facing only for a fighter leaving the radio beacon box; 231 is on-map")
    bad_input(game, ref, start, "move", {"fighter": "231", "path": "F,F", "hex": "0710"},
              "--enter only")


def test_nf_referee_a_fighter_leaving_the_box_needs_its_hex_and_facing(game, ref):
    """Fighter 203 of kammhuber-line waits in the radio beacon box: its entry hex and facing
    are the player's choice (23.0), so neither is taken for granted."""
    radar = start_state(game, ref, "kammhuber-line", 15)
    for given in ({}, {"hex": "1824"}, {"facing": "NW"}):
        bad_input(game, ref, radar, "move", {"fighter": "203", "path": "F", **given},
                  "203 is in the radio beacon box: give the hex it enters and the way it "
                  "faces there")
    bad_input(game, ref, radar, "search", {"counter": ""},
              r"search: missing counter \(this scenario's: freya")


def test_nf_referee_a_plan_that_goes_on_off_the_map_says_where_it_left(game, ref, start):
    night = night_of(game, start)
    edge = edited(game, start, night=night.with_fighter(
        replace(night.fighter("231"), hex="0702", facing=0)))
    text = refused(game, ref, edge, "move", {"fighter": "231", "path": "F,F,F",
                                             "leave_map": True}, "9.2.1")
    assert "plan 'F,F,F' goes on after its step" in text and "leaves the map" in text


def test_nf_referee_a_missing_path_says_what_a_path_is(game, ref, start):
    bad_input(game, ref, start, "move", {"fighter": "231", "path": ""},
              r"move: missing path \(the steps F \(forward 1 MP\), L and R")
    bad_input(game, ref, start, "move", {"fighter": "231", "path": "leave_map"},
              "path 'leave_map': step 'E' is not F")


def test_nf_referee_fewer_than_minimum_mp(game, ref, start):
    refused(game, ref, start, "move", {"fighter": "231", "path": "F"}, "9.1")


def test_nf_referee_turn_before_spending_an_mp(game, ref, start):
    refused(game, ref, start, "move", {"fighter": "231", "path": "L,F,F"}, "9.2")


def test_nf_referee_two_turns_without_an_mp(game, ref, start):
    refused(game, ref, start, "move", {"fighter": "231", "path": "F,L,L,F"}, "9.2")


def test_nf_referee_leaving_the_map_unintentionally(game, ref, start):
    night = night_of(game, start)
    edge = edited(game, start, night=night.with_fighter(
        replace(night.fighter("231"), hex="0702", facing=0)))
    text = refused(game, ref, edge, "move", {"fighter": "231", "path": "F,F"}, "9.2.1")
    assert "add --leave-map to mean it" in text
    gone = ref.apply(game, edge, "move", {"fighter": "231", "path": "F,F", "leave_map": True},
                     SeededDice(1)).state
    assert night_of(game, gone).fighter("231").status == "off-map"


def test_nf_referee_second_move_refused(game, ref, start):
    once = ref.apply(game, start, "move", {"fighter": "231", "path": "F,F"}, SeededDice(1)).state
    refused(game, ref, once, "move", {"fighter": "231", "path": "F,F"}, "9.0")


def test_nf_referee_phase_cannot_end_with_a_fighter_unmoved(game, ref, start):
    once = ref.apply(game, start, "move", {"fighter": "231", "path": "F,F"}, SeededDice(1)).state
    text = refused(game, ref, once, "sight", {}, "9.0")
    assert "232" in text


def test_nf_referee_evade_without_warning_and_descend_without_advantage(game, ref, start):
    refused(game, ref, start, "evade", {"fighter": "231"}, "27.3.1")
    refused(game, ref, start, "descend", {"fighter": "231"}, "18.0")


def test_nf_referee_attack_without_sighting(game, ref, start):
    state = moved_both(game, ref, start)
    text = refused(game, ref, state, "attack", {"fighter": "231"}, "11.0")
    assert "231" in text and "sighted" in text


def _sighted_in_hex(game, ref, start, facing, same_hex=True):
    """Combat phase: 231 has sighted a bomber in its hex (or the next one)."""
    state = moved_both(game, ref, start)
    state = ref.apply(game, state, "sight", {}, SeededDice(2)).state
    night = night_of(game, state)
    fighter = night.fighter("231")
    bomber = next(b for b in night.bombers if b.status in ("pool", "on-map"))
    where = fighter.hex if same_hex else "0101"
    night = night.with_bomber(replace(bomber, hex=where, facing=3, status="on-map"))
    night = night.with_fighter(replace(fighter, facing=facing, sighting=bomber.id))
    return edited(game, state, night=night, phase="combat")


def test_nf_referee_attack_from_another_facing(game, ref, start):
    state = _sighted_in_hex(game, ref, start, facing=0)
    text = refused(game, ref, state, "attack", {"fighter": "231"}, "11.0")
    assert "face" in text


def test_nf_referee_attack_from_another_hex(game, ref, start):
    state = _sighted_in_hex(game, ref, start, facing=3, same_hex=False)
    refused(game, ref, state, "attack", {"fighter": "231"}, "11.0")


def test_nf_referee_attack_allowed_when_the_rules_hold(game, ref, start):
    state = _sighted_in_hex(game, ref, start, facing=3)
    step = ref.apply(game, state, "attack", {"fighter": "231"}, SeededDice(4))
    assert step.announcements[0].text.startswith("231 attacks")
    assert "11.0" in step.announcements[0].rules


def test_nf_referee_earlier_phase_command_refused(game, ref, start):
    state = moved_both(game, ref, start)
    state = ref.apply(game, state, "sight", {}, SeededDice(2)).state
    assert state.phase in ("combat", "end-of-turn")
    text = refused(game, ref, state, "move", {"fighter": "231", "path": "F,F"}, "4.0")
    assert "end-turn" in text
    refused(game, ref, state, "sight", {}, "4.0")


@pytest.mark.parametrize("command, args, needle", [
    ("move", {"fighter": "999", "path": "F,F"}, "'999'"),
    ("move", {"fighter": "231"}, "missing path"),
    ("move", {"fighter": "231", "path": "F,X"}, "'X'"),
    ("fly", {}, "'fly'"),
])
def test_nf_referee_bad_input(game, ref, start, command, args, needle):
    with pytest.raises(BadInput) as err:
        ref.apply(game, start, command, args, SeededDice(1))
    assert needle in str(err.value)


def test_nf_referee_search_unknown_counter_and_hex(game, ref):
    state = start_state(game, ref, "kammhuber-line", 5)
    for fid in ("201", "202"):
        state = ref.apply(game, state, "move", {"fighter": fid, "path": "F,F"},
                          SeededDice(1)).state
    with pytest.raises(BadInput, match="'gci'"):
        ref.apply(game, state, "search", {"counter": "gci", "hex": "0910"}, SeededDice(1))
    with pytest.raises(BadInput, match="'0930'"):
        ref.apply(game, state, "search", {"counter": "freya", "hex": "0930"}, SeededDice(1))
    placed = ref.apply(game, state, "search", {"counter": "freya", "hex": "0910"},
                       SeededDice(1)).state
    refused(game, ref, placed, "search", {"counter": "freya", "hex": "0911"}, "13.1.1")


def test_nf_referee_unknown_scenario(game, ref):
    with pytest.raises(BadInput, match="'nope'.*cats-eye"):
        ref.load_scenario(game, "nope")


def test_nf_referee_oblique_guns_only_when_fitted(game, ref, start):
    state = _sighted_in_hex(game, ref, start, facing=3)
    text = refused(game, ref, state, "attack", {"fighter": "231", "oblique": True}, "20.0")
    assert "oblique" in text

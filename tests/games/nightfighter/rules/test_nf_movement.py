"""Bomber movement, entry, hand-off and displacement; fighter movement; turn steps."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nf_helpers import bomber, fighter, night
from warpress.engine.dice import GivenDice
from warpress.engine.errors import BadInput, RuleViolation
from warpress.engine.loader import builtin
from warpress.games.nightfighter.rules import movement, phases
from warpress.games.nightfighter.rules.common import grid

GAME = builtin("nightfighter")
HEXES = st.sampled_from(grid(GAME).all_hexes())


# --- bombers -------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(hex_id=HEXES, mp=st.integers(1, 6))
def test_i2_i4_bomber_keeps_column_rows_grow_by_mp_or_exits(hex_id, mp):
    move = movement.bomber_path(GAME, hex_id, mp)
    rows = [int(h[2:]) for h in move.path]
    assert all(h[:2] == hex_id[:2] for h in move.path)
    assert rows == list(range(int(hex_id[2:]) + 1, int(hex_id[2:]) + 1 + len(rows)))
    if move.exited:
        assert int(hex_id[2:]) + len(rows) == 27 and len(rows) < mp
    else:
        assert len(rows) == mp


def test_bomber_movement_phase_moves_exits_and_records_mp(game):
    n = night([bomber("101", "0712", mp="3"), bomber("102", "0926", mp="2"),
               bomber("103", None, status="pool")],
              [fighter("204", "0926", sighting="102")])
    after = phases.bomber_movement(game, n, GivenDice({}))
    assert after.bomber("101").hex == "0715" and after.bomber("101").moved == 3
    gone = after.bomber("102")
    assert gone.status == "exited" and gone.hex is None
    assert after.fighter("204").sighting is None
    assert after.bomber("103").hex is None


def test_bomber_movement_nearest_exit_first(game):
    n = night([bomber("101", "0712", mp="2"), bomber("102", "0720", mp="2")])
    after = phases.bomber_movement(game, n, GivenDice({}))
    assert (after.bomber("101").hex, after.bomber("102").hex) == ("0714", "0722")


def test_capture_kept_inside_the_zone(game):
    n = night([bomber("101", "0304", mp="2")], zones=("A",), captures=(("A", "101"),))
    after = phases.bomber_movement(game, n, GivenDice({}))
    assert after.captures == (("A", "101"),) and after.bomber("101").hex == "0306"


def test_capture_lost_leaving_the_zone_then_displaced(game):
    n = night([bomber("101", "0308", mp="3")], zones=("A",), captures=(("A", "101"),))
    after = phases.bomber_movement(game, n, GivenDice({"displacement": 3}))
    assert after.captures == ()
    assert after.bomber("101").hex == "0311"


def test_capture_lost_displaced_rear_diagonal(game):
    n = night([bomber("101", "0308", mp="3")], zones=("A",), captures=(("A", "101"),))
    after = phases.bomber_movement(game, n, GivenDice({"displacement": 1}))
    moved = after.bomber("101").hex
    assert moved != "0311" and grid(game).distance(moved, "0311") == 1
    assert abs(int(moved[:2]) - 3) == 1


def test_hand_off_success_moves_the_capture(game):
    # Zone A (rows 04-09) abuts zone D (rows 10-15): 0308 -> 0309 -> 0310 (D) -> 0311.
    n = night([bomber("101", "0308", mp="3")], zones=("A", "D"), captures=(("A", "101"),))
    after = phases.bomber_movement(game, n, GivenDice({"hand_off": [2, 1, 5, 6]}),
                                   hand_offs=frozenset({"101"}))
    assert after.captures == (("D", "101"),)
    assert after.bomber("101").hex == "0311"


def test_hand_off_not_tried_capture_lost(game):
    n = night([bomber("101", "0308", mp="3")], zones=("A", "D"), captures=(("A", "101"),))
    after = phases.bomber_movement(game, n, GivenDice({"displacement": 3}))
    assert after.captures == () and after.bomber("101").hex == "0311"


def test_hand_off_fails_capture_lost(game):
    n = night([bomber("101", "0308", mp="3")], zones=("A", "D"), captures=(("A", "101"),))
    after = phases.bomber_movement(game, n, GivenDice({"hand_off": [2, 2, 5, 6],
                                                       "displacement": 4}),
                                   hand_offs=frozenset({"101"}))
    assert after.captures == () and after.bomber("101").hex == "0311"


def test_no_hand_off_in_cloud(game):
    from warpress.games.nightfighter.rules.detection import environment

    n = night([bomber("101", "0308", mp="3")], zones=("A", "D"), captures=(("A", "101"),),
              env=environment(game, "new", "good", "overcast"))
    after = phases.bomber_movement(game, n, GivenDice({"displacement": 3}),
                                   hand_offs=frozenset({"101"}))
    assert after.captures == ()


def test_no_hand_off_into_a_zone_holding_a_capture(game):
    n = night([bomber("101", "0308", mp="3"), bomber("105", "0213", mp="2")],
              zones=("A", "D"), captures=(("A", "101"), ("D", "105")))
    after = phases.bomber_movement(game, n, GivenDice({"displacement": 3}),
                                   hand_offs=frozenset({"101"}))
    assert after.captures == (("D", "105"),)


def test_no_displacement_while_still_sighted(game):
    n = night([bomber("101", "0308", mp="3")], [fighter("204", "0311", sighting="101")],
              zones=("A",), captures=(("A", "101"),))
    after = phases.bomber_movement(game, n, GivenDice({}))
    assert after.bomber("101").hex == "0311" and after.fighter("204").sighting == "101"


# --- entry ---------------------------------------------------------------------------------


def test_enter_stacked_bomber_is_refused(game):
    n = night([bomber("101", "0502"), bomber("102", status="pool", hex_id=None)])
    with pytest.raises(RuleViolation, match="8.2.1"):
        movement.enter_bomber(game, n, "102", 5, 2)
    assert movement.enter_bomber(game, n, "102", 5, 1).bomber("102").hex == "0501"


def test_enter_twice_is_refused(game):
    n = night([bomber("101", "0502")])
    with pytest.raises(RuleViolation, match="8.0"):
        movement.enter_bomber(game, n, "101", 5, 1)


def test_entry_column_off_the_map(game):
    with pytest.raises(BadInput, match="19"):
        movement.entry_hex(game, 19)


def test_chit_face_must_be_red_or_yellow(game):
    with pytest.raises(BadInput, match="green"):
        movement.chit_numbers(game, "01", "green")


def test_two_entrants_use_top_two_numbers(game):
    assert movement.entry_columns(game, (4, 6, 9), 2) == (4, 6)


def test_torpedo_bomber_moves_2_until_launched(game):
    b = bomber(kind="torpedo", mp="3*")
    assert movement.bomber_mp(game, b, 2) == game.constant("torpedo-bomber-mp")
    assert movement.bomber_mp(game, replace(b, launched=True), 2) == 4


def test_torpedo_corkscrew_treats_07_and_12_as_edges(game):
    for hex_id in ("0710", "1210"):
        b = bomber(hex_id=hex_id, kind="torpedo")
        moved = {movement.corkscrew_hex(game, None, b, d) for d in ("left", "right")}
        cols = {int(h[:2]) for h in moved}
        assert cols <= set(range(7, 13)) and hex_id in moved


def test_corkscrew_into_another_bomber_stays(game):
    b = bomber("101", "0710")
    target = movement.corkscrew_hex(game, None, b, "right")
    n = night([b, bomber("102", target)])
    assert movement.corkscrew_hex(game, n, b, "right") == "0710"


@settings(max_examples=60, deadline=None)
@given(hex_id=HEXES, direction=st.sampled_from(["left", "forward", "right"]))
def test_i49_corkscrew_destination(hex_id, direction):
    b = bomber(hex_id=hex_id)
    moved = movement.corkscrew_hex(GAME, None, b, direction)
    assert moved in {hex_id, *grid(GAME).neighbours(hex_id)}
    if moved != hex_id:
        assert int(moved[2:]) <= int(hex_id[2:]) and abs(int(moved[:2]) - int(hex_id[:2])) == 1


def test_serrate_ahead_and_left(game):
    ahead = movement.serrate_path(game, "0905", 3, "ahead", 3)
    assert ahead.path == ("0906", "0907", "0908")
    left = movement.serrate_path(game, "0905", 3, "left", 2)
    assert len(left.path) == 3 and left.path[0][:2] == "10"


# --- fighters ------------------------------------------------------------------------------


def test_fighter_moves_and_turns(game):
    n = night(fighters=[fighter(hex_id="0910", facing=0)])
    after = movement.move_fighter(game, n, "204", "F R F").fighter("204")
    assert after.facing == 1 and after.mp_spent == 2 and after.turned
    assert after.hex == grid(game).neighbour_in_direction("0909", 1)


def test_fighter_turn_after_last_mp_allowed(game):
    n = night(fighters=[fighter(hex_id="0910", facing=0)])
    after = movement.move_fighter(game, n, "204", "FFL").fighter("204")
    assert after.facing == 5 and after.hex == "0908"


def test_fighter_more_mp_than_allowed(game):
    n = night(fighters=[fighter(hex_id="0910", mp="3")])
    with pytest.raises(RuleViolation, match=r"9\.1"):
        movement.move_fighter(game, n, "204", "FFFF")
    n = replace(n, turn=2)
    with pytest.raises(RuleViolation, match=r"9\.1"):
        movement.move_fighter(game, replace(n, fighters=(fighter(hex_id="0910", mp="3*"),)),
                              "204", "FFFFF")


def test_fighter_leaves_the_map_for_good(game):
    n = night(fighters=[fighter(hex_id="0102", facing=0)])
    after = movement.move_fighter(game, n, "204", "FF")
    f = after.fighter("204")
    assert f.status == "off-map" and f.hex is None
    with pytest.raises(RuleViolation, match=r"9\.2\.1"):
        movement.move_fighter(game, after, "204", "FF")
    with pytest.raises(RuleViolation, match=r"9\.2\.1"):
        movement.move_fighter(game, n, "204", "FFF")


def test_dazzled_fighter_flies_straight_unless_evading(game):
    n = night(fighters=[fighter(hex_id="0910", dazzled_until=3)], turn=2)
    with pytest.raises(RuleViolation, match=r"17\.3\.2"):
        movement.move_fighter(game, n, "204", "FRF")
    assert movement.move_fighter(game, n, "204", "FRF", evade=True).fighter("204").evading


def test_evaded_fighter_does_not_move_next_turn(game):
    n = night(fighters=[fighter(hex_id="0910", evaded_turn=4)], turn=5)
    with pytest.raises(RuleViolation, match=r"17\.3\.1"):
        movement.move_fighter(game, n, "204", "FF")
    assert movement.move_fighter(game, replace(n, turn=6), "204", "FF")


def test_dives_cannot_exceed_what_is_left(game):
    n = night(fighters=[fighter(hex_id="0910", dives_left=1)])
    with pytest.raises(RuleViolation, match=r"18\.0"):
        movement.move_fighter(game, n, "204", "FFFF", dives=2)


def test_bad_plan_and_bad_hex(game):
    n = night(fighters=[fighter(hex_id="0910")])
    with pytest.raises(BadInput, match="X"):
        movement.move_fighter(game, n, "204", "FXF")
    with pytest.raises(BadInput, match="0000"):
        movement.check_fighter_plan(game, "0000", 0, "FF", max_mp=3, min_mp=2)


@settings(max_examples=80, deadline=None)
@given(hex_id=HEXES, facing=st.integers(0, 5), plan=st.text("FLR", max_size=8))
def test_i14_turns_never_exceed_mp_and_follow_an_mp(hex_id, facing, plan):
    try:
        move = movement.check_fighter_plan(GAME, hex_id, facing, plan, max_mp=5, min_mp=2)
    except RuleViolation as exc:
        assert exc.rule in ("9.1", "9.2", "9.2.1")
        return
    assert move.turns <= move.mp_spent <= 5
    assert "LL" not in plan.replace("R", "L") and not plan.startswith(("L", "R"))
    assert len(move.path) == move.mp_spent - (1 if move.left_map else 0)


def _outcomes_by_brute_force(hex_id, facing, **rules):
    """Every plan of up to 2 x max MP steps that check_fighter_plan accepts, by its outcome."""
    found = {}
    plans = [""]
    for _ in range(2 * rules["max_mp"]):
        plans = [p + s for p in plans for s in "FLR"]
        for plan in plans:
            try:
                move = movement.check_fighter_plan(GAME, hex_id, facing, plan, **rules)
            except RuleViolation:
                continue
            end = None if move.left_map else (move.path[-1] if move.path else hex_id,
                                               move.facing, move.mp_spent, move.turns > 0)
            found.setdefault(end, set()).add(plan)
    return found


@settings(max_examples=30, deadline=None)
@given(hex_id=st.sampled_from(["0101", "0712", "1827", "0926", "1801", "0114"]),
       facing=st.integers(0, 5), max_mp=st.integers(2, 4), min_mp=st.integers(1, 3),
       dive=st.booleans(), dazzled=st.booleans(), evading=st.booleans())
def test_fighter_plans_list_every_outcome_of_the_accepted_plans_once(hex_id, facing, max_mp,
                                                                     min_mp, dive, dazzled,
                                                                     evading):
    """The legal answers of a fighter's move (9.1, 9.2, 9.2.1, 17.3.2, 18.0): each outcome
    of an accepted plan once, with a shortest plan reaching it; nothing the rules refuse."""
    rules = dict(max_mp=max_mp, min_mp=min_mp, dive=dive, dazzled=dazzled, evading=evading)
    listed = movement.fighter_plans(GAME, hex_id, facing, **rules)
    truth = _outcomes_by_brute_force(hex_id, facing, **rules)
    assert set(listed) == set(truth)
    for end, plan in listed.items():
        steps = plan.replace(",", "")
        assert steps in truth[end]
        assert len(steps) == min(len(p) for p in truth[end])


# --- turn ----------------------------------------------------------------------------------


def test_end_turn_clears_turn_flags(game):
    n = night([bomber(moved=2)], [fighter(mp_spent=3, turned=True, attacked=True,
                                          evading=True, dived=True)], turn=7)
    after = phases.end_turn(n)
    f = after.fighter("204")
    assert after.turn == 8
    assert (f.mp_spent, f.turned, f.attacked, f.evading, f.dived) == (0, False, False, False,
                                                                      False)
    assert after.bomber("102").moved == 0


def test_alert_bomber_faster_unless_it_would_stack(game):
    n = night([bomber("101", "0710", mp="2", alert=True)], turn=2)
    assert phases.bomber_movement(game, n, GivenDice({}), alert_rule=True).bomber(
        "101").hex == "0713"
    assert phases.bomber_movement(game, n, GivenDice({})).bomber("101").hex == "0712"
    blocked = night([bomber("101", "0710", mp="2", alert=True), bomber("102", "0712", mp="1")],
                    turn=2)
    after = phases.bomber_movement(game, blocked, GivenDice({}), alert_rule=True)
    assert after.bomber("102").hex == "0713" and after.bomber("101").hex == "0712"


def test_leave_the_radio_beacon_box(game):
    exits = game.hex_map().feature("radio-beacon-box").hexes
    n = night(fighters=[fighter("204", None, status="beacon-box"),
                        fighter("205", None, status="beacon-box")], turn=3)
    after = movement.leave_beacon_box(game, n, "204", exits[0], 5, "F")
    f = after.fighter("204")
    assert f.on_map and f.mp_spent == 2 and after.beacon_departure == 3
    with pytest.raises(RuleViolation, match="23.0"):
        movement.leave_beacon_box(game, replace(after, turn=4), "205", exits[0], 5, "F")
    later = movement.leave_beacon_box(game, replace(after, turn=5), "205", exits[1], 4, "F")
    assert later.fighter("205").on_map
    with pytest.raises(RuleViolation, match="23.0"):
        movement.leave_beacon_box(game, n, "204", "0101", 5, "F")
    with pytest.raises(RuleViolation, match=r"9\.1"):
        movement.leave_beacon_box(game, n, "204", exits[0], 5, "")

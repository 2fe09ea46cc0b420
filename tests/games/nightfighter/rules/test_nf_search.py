"""Sighting, radar search and sweeps, AI radar, searchlights, tail warning, the player's view."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nf_helpers import bomber, fighter, night
from warpress.engine.dice import GivenDice
from warpress.engine.errors import RuleViolation
from warpress.engine.loader import builtin
from warpress.games.nightfighter.rules import detection, phases, radars, searchlights
from warpress.games.nightfighter.rules.common import grid, record
from warpress.games.nightfighter.rules.state import player_view

GAME = builtin("nightfighter")
HEXES = st.sampled_from(grid(GAME).all_hexes())


# --- general sighting ----------------------------------------------------------------------


def test_sighting_ranges(game):
    env = detection.environment(game, "new", "average")
    assert detection.sighting_range(game, env) == 0
    assert detection.sighting_range(game, env, captured=True) == 3
    assert detection.sighting_range(game, env, captured=True, altitude_advantage=True) == 0
    assert detection.sighting_range(game, env, captured=True, in_illuminated_cloud=True) == 1


def test_dazzled_fighter_cannot_sight(game):
    env = detection.environment(game, "new", "good")
    n = night([bomber("102", "0712")], [fighter("204", "0712", dazzled_until=3)], env=env,
              turn=3)
    assert detection.general_sighting(game, n, GivenDice({"sighting": [2, 2, 2]})).sighted == ()


def test_visibility_bonus_die_counts_only_for_its_fighter(game):
    env = detection.environment(game, "new", "good")
    n = night([bomber("105", "0712"), bomber("103", "1012")],
              [fighter("231", "0713", unit="hurricane-catseye"), fighter("204", "1013")],
              env=env)
    dice = GivenDice({"sighting": [1, 1, 1], "visibility_bonus": [5]})
    roll = detection.general_sighting(game, n, dice)
    assert roll.visibility_bonus == (("231", 5),)
    assert dict(roll.sighted) == {"105": ("231",)}
    green = n.with_fighter(replace(n.fighter("231"), green=True))
    roll = detection.general_sighting(game, green, GivenDice({"sighting": [1, 1, 1]}))
    assert roll.visibility_bonus == () and roll.sighted == ()


def test_cloud_bonus_die_only_in_illuminated_cloud(game):
    env = detection.environment(game, "new", "good", "overcast")
    n = night([bomber("104", "0305"), bomber("114", "0712")],
              [fighter("204", "0306"), fighter("205", "0713")], env=env, zones=("A",))
    roll = detection.general_sighting(game, n, GivenDice({"sighting": [1, 1, 1],
                                                          "cloud_bonus": [4]}))
    assert roll.cloud_bonus == (4,)
    assert dict(roll.sighted) == {"104": ("204",)}


def test_keep_one_sighting_within_range(game):
    env = detection.environment(game, "new", "good")
    n = night([bomber("102", "0712"), bomber("112", "0714")],
              [fighter("204", "0713")], env=env)
    roll = detection.general_sighting(game, n, GivenDice({"sighting": [2, 3, 4]}))
    assert dict(roll.sighted) == {"102": ("204",), "112": ("204",)}
    kept = detection.keep_sightings(game, n, roll, {"204": "112"})
    assert kept.fighter("204").sighting == "112"
    with pytest.raises(RuleViolation, match="10.1"):
        detection.keep_sightings(game, n, roll, {"204": "999"})


def test_sighting_lost_out_of_range(game):
    env = detection.environment(game, "new", "good")
    n = night([bomber("102", "0715")], [fighter("204", "0712", sighting="102")], env=env)
    assert detection.maintain_sightings(game, n).fighter("204").sighting is None
    near = n.with_bomber(replace(n.bomber("102"), hex="0713"))
    assert detection.maintain_sightings(game, near).fighter("204").sighting == "102"


# --- acquired-target sighting -------------------------------------------------------------------


def test_acquired_sighting_must_try_the_ai_contact(game):
    env = detection.environment(game, "new", "good")
    n = night([bomber("102", "0712"), bomber("113", "0713")],
              [fighter("204", "0713", ai_contact="113")], env=env, captures=(("A", "102"),))
    with pytest.raises(RuleViolation, match="15.1"):
        phases.acquired_sighting(game, n, "204", "102", GivenDice({}))
    after, rolled = phases.acquired_sighting(game, n, "204", "113",
                                             GivenDice({"acquired": [3, 5]}))
    assert rolled == (3, 5) and after.fighter("204").sighting == "113"


def test_acquired_dice_from_the_night(game):
    # Bf110G-4: Lichtenstein C-1, modifier -1, L band. Fighter turned, spent 4 vs 2: -3 -> 0.
    env = detection.environment(game, "half", "good")
    n = night([bomber("102", "0712", moved=2)],
              [fighter("204", "0712", ai_contact="102", turned=True, mp_spent=4)], env=env)
    assert phases.acquired_dice(game, n, "204", "102") == 1
    lit = replace(n, captures=(("A", "102"),))
    assert phases.acquired_dice(game, lit, "204", "102") == 5


def test_acquired_sighting_needs_an_acquired_target(game):
    n = night([bomber("102", "0712")], [fighter("204", "0712")])
    with pytest.raises(RuleViolation, match="15.1"):
        phases.acquired_sighting(game, n, "204", "102", GivenDice({}))
    with pytest.raises(RuleViolation, match="10.2"):
        phases.acquired_sighting(game, n.with_fighter(replace(n.fighter("204"),
                                                              sighting="1")), "204", "102",
                                 GivenDice({}))


# --- radar search ---------------------------------------------------------------------------


def test_sweep_without_bombers_any_adjacent_hex(game):
    assert radars.sweep_candidates(game, "0910", []) == tuple(
        sorted(grid(game).neighbours("0910")))


@settings(max_examples=50, deadline=None)
@given(counter=HEXES, targets=st.lists(HEXES, min_size=1, max_size=4))
def test_i35_sweep_adjacent_and_nearest(counter, targets):
    g = grid(GAME)
    options = radars.sweep_candidates(GAME, counter, targets)
    assert options and all(g.distance(counter, h) == 1 for h in options)
    near = radars.nearest(GAME, counter, targets)
    best = min(min(g.distance(h, t) for t in near) for h in g.neighbours(counter))
    assert all(min(g.distance(h, t) for t in near) == best for h in options)


@settings(max_examples=50, deadline=None)
@given(counter=HEXES, targets=st.lists(HEXES, max_size=4), value=st.integers(1, 4))
def test_i34_contact_iff_a_bomber_within_value(counter, targets, value):
    g = grid(GAME)
    expected = any(g.distance(counter, t) <= value for t in targets)
    assert radars.radar_contact(GAME, counter, value, targets) == expected


def test_gci_sweeps(game):
    n = night([bomber("101", "0910"), bomber("102", "1520")])
    after = radars.radar_search(game, n, [("gci", "0905")])
    counter = after.counters[0]
    assert not counter.contact and grid(game).distance(counter.sweeps[0], "0910") <= 1
    assert radars.radar_search(game, night(), [("gci", "0905")]).counters[0].sweeps == ()
    same = radars.radar_search(game, n, [("gci", "0910")]).counters[0]
    assert same.contact and same.sweeps == ("0910",)
    heavy = radars.radar_search(game, n, [("gci", "0910")], jamming="heavy").counters[0]
    assert heavy.sweeps == ()


def test_mew_sweeps_one_per_bomber_up_to_its_count(game):
    limit = record(game, "radars", "mew").get("sweeps")
    targets = ["0101", "0301", "0501", "0701", "0901", "1101", "1301"]
    sweeps = radars.mew_sweeps(game, "0127", targets)
    assert len(sweeps) == min(limit, len(targets))
    near = radars.mew_sweeps(game, "0505", ["0506", "0507", "1527"])
    assert near[:2] == ("0506", "0507") and grid(game).distance(near[2], "1527") <= 1
    assert radars.mew_sweeps(game, "0505", []) == ()


def test_light_jamming_no_sweep_but_printed_value(game):
    assert radars.search_value(game, "wurzburg", "light") == 1
    assert not radars.sweeps_allowed(game, "wurzburg", "light")
    assert radars.search_value(game, "mew", "heavy") == radars.search_value(game, "mew")
    assert radars.sweeps_allowed(game, "mew", "heavy")


# --- AI radar ------------------------------------------------------------------------------


def test_arc_sizes_at_range_2(game):
    g = grid(game)
    assert [len(g.arc_hexes("0910", 0, arc, 2)) for arc in ("narrow", "wide", "hemi")] == [
        3, 9, 11]


def test_ai_contact_is_the_nearest_in_arc(game):
    n = night([bomber("101", "0908"), bomber("102", "0909"), bomber("103", "0911")],
              [fighter("204", "0910", facing=0)])
    assert radars.ai_search(game, n).fighter("204").ai_contact == "102"
    dazzled = n.with_fighter(replace(n.fighter("204"), dazzled_until=1))
    assert radars.ai_search(game, dazzled).fighter("204").ai_contact is None


def test_ai_low_altitude_l_band_same_hex_only(game):
    env = replace(detection.environment(game, "new", "good"), altitude="low")
    n = night([bomber("101", "0909")], [fighter("204", "0910", facing=0)], env=env)
    assert radars.ai_search(game, n).fighter("204").ai_contact is None
    n = n.with_bomber(replace(n.bomber("101"), hex="0910"))
    assert radars.ai_search(game, n).fighter("204").ai_contact == "101"


@settings(max_examples=40, deadline=None)
@given(origin=HEXES, facing=st.integers(0, 5), targets=st.lists(HEXES, max_size=5))
def test_i28_ai_contact_nearest_in_arc_and_range(origin, facing, targets):
    radar = radars.parse_radar("3 Wide (0) L-band")
    g = grid(GAME)
    found = radars.ai_candidates(GAME, origin, facing, radar, targets)
    inside = [t for t in targets if g.in_arc(origin, facing, t, "wide", 3)]
    if not inside:
        assert found == ()
    else:
        best = min(g.distance(origin, t) for t in inside)
        assert set(found) == {t for t in inside if g.distance(origin, t) == best}


# --- searchlights ----------------------------------------------------------------------------


def test_searchlight_capture_nearest_to_a_fighter(game):
    env = detection.environment(game, "new", "good")
    n = night([bomber("104", "0305"), bomber("114", "0309")], [fighter("204", "0310")],
              env=env, zones=("A",))
    after = searchlights.searchlight_search(game, n, "A", GivenDice({"searchlight": [4, 2, 2]}))
    assert after.captures == (("A", "114"),)
    with pytest.raises(RuleViolation, match="14.2.2"):
        searchlights.searchlight_search(game, after, "A", GivenDice({}))


def test_searchlight_rules(game):
    n = night([bomber("104", "0305")], zones=("A",),
              env=detection.environment(game, "new", "good", "overcast"))
    with pytest.raises(RuleViolation, match="14.1"):
        searchlights.searchlight_search(game, n, "A", GivenDice({}))
    with pytest.raises(RuleViolation, match="14.2"):
        searchlights.searchlight_search(game, replace(n, zones=()), "A", GivenDice({}))
    high = replace(n, env=replace(detection.environment(game, "new", "good"), altitude="high"))
    with pytest.raises(RuleViolation, match="21.2"):
        searchlights.searchlight_search(game, high, "A", GivenDice({}))
    miss = replace(n, env=detection.environment(game, "new", "good"), radar_guided=True)
    assert searchlights.searchlight_search(game, miss, "A",
                                        GivenDice({"searchlight": [1, 2, 3, 5]})).captures == ()


def test_hand_off_four_dice(game):
    assert searchlights.hand_off(game, GivenDice({"hand_off": [1, 2, 3, 4]}), 4)
    assert not searchlights.hand_off(game, GivenDice({"hand_off": [1, 2, 3, 5]}), 4)


def test_zone_of_and_bad_zone(game):
    assert detection.zone_of(game, "0305", ("A", "B")) == "A"
    assert detection.zone_of(game, "0101", ("A",)) is None
    with pytest.raises(Exception, match="Q"):
        detection.zone_hexes(game, "Q")


# --- tail warning -------------------------------------------------------------------------------


def test_tail_warning_behind_and_same_hex(game):
    me = fighter("204", "0910", facing=0)
    assert detection.tail_warning(game, night([bomber("101", "0912")], [me]), me)
    assert not detection.tail_warning(game, night([bomber("101", "0908")], [me]), me)
    assert not detection.tail_warning(game, night([bomber("101", "0913")], [me]), me)
    same = night([bomber("101", "0910")], [me])
    assert detection.tail_warning(game, same, me)
    known = night([bomber("101", "0910")], [replace(me, sighting="101")])
    assert not detection.tail_warning(game, known, known.fighter("204"))


# --- the player's view (hidden information) --------------------------------------------------


def test_player_view_shows_only_known_bombers(game):
    n = night([bomber("101", "0712"), bomber("102", "1520")],
              [fighter("204", "0712", sighting="101")])
    view = player_view(n)
    assert [(m.kind, m.hex, m.fighter) for m in view.markers] == [("sighting", "0712", "204")]
    assert "101" not in repr(view) and "102" not in repr(view)


@settings(max_examples=40, deadline=None)
@given(hidden=HEXES, other=HEXES)
def test_i60_view_independent_of_unknown_positions(hidden, other):
    base = night([bomber("101", "0712"), bomber("102", hidden)],
                 [fighter("204", "0712", sighting="101")], captures=(("B", "101"),))
    moved = base.with_bomber(replace(base.bomber("102"), hex=other))
    assert player_view(base) == player_view(moved)


# --- fog of war: displacement [16.0] -------------------------------------------------------------


def test_sighting_not_kept_displaces_the_bomber(game):
    env = detection.environment(game, "new", "good")
    n = night([bomber("102", "0712"), bomber("112", "0813")], [fighter("204", "0713")], env=env)
    roll = detection.general_sighting(game, n, GivenDice({"sighting": [2, 3, 4]}))
    assert dict(roll.sighted) == {"102": ("204",), "112": ("204",)}
    kept = detection.keep_sightings(game, n, roll, {"204": "102"},
                                    GivenDice({"displacement": 6}))
    assert kept.bomber("102").hex == "0712"
    moved = kept.bomber("112").hex
    assert moved != "0813" and grid(game).distance(moved, "0813") == 1


def test_ai_contact_lost_displaces_unless_still_known(game):
    n = night([bomber("101", "0909")], [fighter("204", "0910", facing=0, ai_contact="101")])
    turned = n.with_fighter(replace(n.fighter("204"), facing=3))
    after = radars.ai_search(game, turned, dice=GivenDice({"displacement": 1}))
    assert after.fighter("204").ai_contact is None and after.bomber("101").hex != "0909"
    kept = replace(turned, captures=(("B", "101"),))
    after = radars.ai_search(game, kept, dice=GivenDice({}))
    assert after.bomber("101").hex == "0909"


def test_sighting_out_of_range_lost_and_displaced(game):
    env = detection.environment(game, "new", "good")
    n = night([bomber("102", "0715")], [fighter("204", "0712", sighting="102")], env=env)
    after = detection.maintain_sightings(game, n, GivenDice({"displacement": 3}))
    assert after.fighter("204").sighting is None and after.bomber("102").hex == "0715"


def test_contrails_at_high_altitude(game):
    high = replace(detection.environment(game, "new", "good"), altitude="high")
    me = fighter("204", "0705")
    n = night([bomber("101", "0712")], [me], env=high)
    assert detection.contrails(game, n, me)
    assert not detection.contrails(game, night([bomber("101", "0702")], [me], env=high), me)
    assert not detection.contrails(game, replace(n, env=detection.environment(game, "new",
                                                                              "good")), me)


def test_searchlight_dice_from_the_night(game):
    env = detection.environment(game, "full", "average")
    n = night([bomber("104", "0305")], [fighter("204", "0312")], env=env, zones=("A",))
    assert searchlights.search_dice_for_zone(game, n, "A") == 3
    assert searchlights.search_dice_for_zone(game, replace(n, radar_guided=True), "A") == 4
    jammed = replace(n, radar_guided=True, searchlight_jammed=True)
    assert searchlights.search_dice_for_zone(game, jammed, "A") == 3
    assert searchlights.search_dice_for_zone(game, replace(n, flare_zones=("A",)), "A") == 4
    near = n.with_fighter(replace(n.fighter("204"), hex="0310"))
    assert searchlights.search_dice_for_zone(game, near, "A", confusion_rule=True) == 2
    assert searchlights.search_dice_for_zone(game, n, "A", confusion_rule=True) == 3
    cloud = replace(n, env=replace(env, clouds="overcast"), flare_zones=("A",))
    assert searchlights.search_dice_for_zone(game, cloud, "A") == 1
    tf = replace(n, zones=("N",), flare_zones=("N",), task_force=True)
    assert searchlights.search_dice_for_zone(game, tf, "N") == 2


def test_jammed_ai_radar_rolls_instead(game):
    n = night([bomber("101", "0908"), bomber("102", "0909")],
              [fighter("204", "0910", facing=0)], ai_jamming="light", jammed_bands=("L",))
    assert radars.ai_search(game, n).fighter("204").ai_contact is None
    after, rolled = radars.jammed_ai_roll(game, n, "204", GivenDice({"jammed_ai": [1, 3, 5]}))
    assert rolled == (1, 3, 5) and after.fighter("204").ai_contact == "101"
    other = replace(n, jammed_bands=("S",))
    assert radars.ai_search(game, other).fighter("204").ai_contact == "102"
    with pytest.raises(RuleViolation, match="24.5.2"):
        radars.jammed_ai_roll(game, other, "204", GivenDice({}))

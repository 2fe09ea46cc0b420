"""Every catalogue table of Nightfighter at its edges, and exact odds against Monte Carlo."""

from __future__ import annotations

import math

import pytest
from warpress.engine.catalogue import ref_table, ref_tables
from warpress.engine.dice import BadInput, monte_carlo

CATALOGUE = {
    "combat": ["hits"],
    "moon": ["moon"],
    "visibility": ["visibility", "range", "lit_range"],
    "clouds": ["clouds"],
    "sighting-dice": ["dice", "cloud_bonus", "visibility_bonus"],
    "captured-sighting-dice": ["dice"],
    "reaction": ["reacts"],
    "reaction-effect": ["effect"],
    "corkscrew": ["direction"],
    "shootdown": ["effect"],
    "bomber-move": ["path", "exited"],
    "flak": ["hits"],
}


def test_catalogue_tables_registered_with_their_fields(game):
    tables = ref_tables(game)
    for name, fields in CATALOGUE.items():
        assert name in tables, name
        assert list(tables[name].results) == fields


# --- environment ---------------------------------------------------------------------------


@pytest.mark.parametrize("roll,europe,moon", [
    (2, "no", "full"), (4, "no", "full"), (5, "no", "half"), (6, "no", "half"),
    (7, "no", "new"), (12, "no", "new"), (2, "yes", "full"), (3, "yes", "half"),
    (5, "yes", "new"), (12, "yes", "new"),
])
def test_moon_edges(lookup, roll, europe, moon):
    assert lookup("moon", f"roll={roll}", f"europe_after_april_1942={europe}") == {
        "moon": moon}


@pytest.mark.parametrize("roll,pacific,vis,x,y", [
    (2, "no", "poor", 0, 1), (4, "no", "poor", 0, 1), (5, "no", "average", 0, 3),
    (9, "no", "average", 0, 3), (10, "no", "good", 1, 5), (12, "no", "good", 1, 5),
    (2, "yes", "poor", 0, 1), (3, "yes", "average", 0, 3), (12, "yes", "good", 1, 5),
])
def test_visibility_edges(lookup, roll, pacific, vis, x, y):
    result = lookup("visibility", f"roll={roll}", f"pacific={pacific}")
    assert result == {"visibility": vis, "range": x, "lit_range": y}


@pytest.mark.parametrize("roll,clouds", [(1, "overcast"), (3, "overcast"), (4, "clear"),
                                         (6, "clear")])
def test_clouds_edges(lookup, roll, clouds):
    assert lookup("clouds", f"roll={roll}") == {"clouds": clouds}


def test_environment_odds_are_exact(odds):
    assert odds("moon")["exact"] == {"full": "1/6", "half": "1/4", "new": "7/12"}
    assert odds("moon", "europe_after_april_1942=yes")["exact"] == {
        "full": "1/36", "half": "5/36", "new": "5/6"}
    assert odds("clouds")["exact"] == {"clear": "1/2", "overcast": "1/2"}
    assert odds("visibility", "pacific=yes")["exact"]["good"] == "5/12"


# --- sighting ------------------------------------------------------------------------------


@pytest.mark.parametrize("vis,moon,dice", [
    ("poor", "new", 1), ("poor", "half", 2), ("average", "new", 2), ("average", "full", 3),
    ("good", "new", 3), ("good", "full", 4),
])
def test_sighting_dice_all_cells(lookup, vis, moon, dice):
    assert lookup("sighting-dice", f"visibility={vis}", f"moon={moon}") == {
        "dice": dice, "cloud_bonus": 0, "visibility_bonus": 0}


@pytest.mark.parametrize("pairs,dice", [
    ((), 3),
    (("expert=yes", "both=yes", "searchlight=yes"), 6),
    (("expert=yes", "both=yes", "radar_modifier=-9"), 6),
    (("radar_modifier=3",), 6),
    (("radar_modifier=3", "searchlight=yes"), 3),
    (("radar_modifier=-2",), 1),
    (("green=yes",), 1),
    (("green=yes", "rear=yes", "radar_modifier=-9"), 1),
    (("green=yes", "expert=yes"), 3),
])
def test_captured_sighting_dice_caps_and_floor(lookup, pairs, dice):
    assert lookup("captured-sighting-dice", "moon=new", *pairs) == {"dice": dice}


def test_captured_sighting_dice_largest(lookup):
    pairs = ("moon=full", "expert=yes", "both=yes")
    assert lookup("captured-sighting-dice", *pairs) == {"dice": 7}
    assert lookup("captured-sighting-dice", "moon=half", "radar_modifier=3",
                  "expert=yes") == {"dice": 9}


def test_captured_sighting_dice_radar_modifier_range(lookup):
    with pytest.raises(BadInput, match="radar_modifier"):
        lookup("captured-sighting-dice", "moon=new", "radar_modifier=4")
    with pytest.raises(BadInput, match="radar_modifier"):
        lookup("captured-sighting-dice", "moon=new", "radar_modifier=-10")


# --- reactions -----------------------------------------------------------------------------


@pytest.mark.parametrize("warning,alerted,lowest", [
    ("no", "no", 6), ("yes", "no", 5), ("no", "yes", 4), ("yes", "yes", 3),
])
def test_reaction_columns(lookup, warning, alerted, lowest):
    for roll in range(1, 7):
        result = lookup("reaction", f"roll={roll}", f"warning={warning}",
                        f"alerted={alerted}")
        assert result == {"reacts": roll >= lowest}, roll


@pytest.mark.parametrize("roll,pairs,effect", [
    (1, (), "corkscrew"), (2, (), "corkscrew"), (3, (), "return-fire"), (4, (), "return-fire"),
    (5, (), "none"), (6, (), "none"),
    (1, ("green=yes", "illuminated=yes"), "corkscrew"),
    (3, ("illuminated=yes",), "corkscrew"),
    (6, ("oblique=yes", "expert=yes", "held_fire=yes"), "none"),
    (2, ("oblique=yes",), "return-fire"),
    (1, ("oblique=yes", "expert=yes", "held_fire=yes"), "none"),
])
def test_reaction_effect_edges(lookup, roll, pairs, effect):
    assert lookup("reaction-effect", f"roll={roll}", *pairs) == {"effect": effect}


@pytest.mark.parametrize("roll,direction", [(1, "left"), (2, "left"), (3, "forward"),
                                            (4, "forward"), (5, "right"), (6, "right")])
def test_corkscrew_every_face(lookup, roll, direction):
    assert lookup("corkscrew", f"roll={roll}") == {"direction": direction}


@pytest.mark.parametrize("roll,effect", [(1, "evade"), (2, "flash"), (3, "follow"),
                                         (5, "follow"), (6, "none")])
def test_shootdown_every_face(lookup, roll, effect):
    assert lookup("shootdown", f"roll={roll}") == {"effect": effect}


def test_reaction_odds(odds):
    assert odds("reaction")["exact"] == {"no": "5/6", "yes": "1/6"}
    assert odds("reaction", "warning=yes", "alerted=yes")["exact"] == {
        "no": "1/3", "yes": "2/3"}
    assert odds("corkscrew")["exact"] == {"forward": "1/3", "left": "1/3",
                                          "right": "1/3"}


# --- combat --------------------------------------------------------------------------------


@pytest.mark.parametrize("roll,fp,hits", [
    (2, -20, 0), (2, 0, 0), (9, 0, 0), (8, 2, 1), (10, 0, 1), (11, 0, 2), (12, 0, 3),
    (12, 1, 4), (2, 11, 4), (12, 20, 4), (12, -3, 0), (12, -2, 1),
])
def test_combat_edges(lookup, roll, fp, hits):
    assert lookup("combat", f"roll={roll}", f"fp={fp}") == {"hits": hits}


def test_combat_hits_are_capped_and_monotone(lookup):
    last = 0
    for total in range(-18, 33):
        hits = lookup("combat", "roll=2", f"fp={total - 2}")["hits"] if -20 <= total - 2 <= 20 \
            else None
        if hits is None:
            continue
        assert 0 <= hits <= 4 and hits >= last
        last = hits


def test_combat_odds_match_monte_carlo(game, odds):
    ref = ref_table(game, "combat")
    exact = odds("combat", "fp=3")["distribution"]
    n = 20000
    seen = monte_carlo(lambda d: str(ref.resolve(game, {"fp": 3}, d).result["hits"]), n, seed=7)
    for key, p in exact.items():
        se = math.sqrt(p * (1 - p) / n)
        assert abs(seen.get(key, 0.0) - p) <= 4 * se + 1e-9, key


# --- bomber move ---------------------------------------------------------------------------


@pytest.mark.parametrize("hex_id,mp,turn,path,exited", [
    ("0712", "3", 1, ["0713", "0714", "0715"], False),
    ("0712", "2*", 1, ["0713", "0714"], False),
    ("0712", "2*", 2, ["0713", "0714", "0715"], False),
    ("0726", "1", 1, ["0727"], False),
    ("0726", "2", 1, ["0727"], True),
    ("0727", "1", 1, [], True),
    ("1825", "4*", 2, ["1826", "1827"], True),
    ("0101", "2", 1, ["0102", "0103"], False),
])
def test_bomber_move_edges(lookup, hex_id, mp, turn, path, exited):
    result = lookup("bomber-move", f"hex={hex_id}", f"mp={mp}", f"turn={turn}")
    assert result == {"path": path, "exited": exited}


@pytest.mark.parametrize("pairs,word", [
    (("hex=1901", "mp=2", "turn=1"), "hex"),
    (("hex=0728", "mp=2", "turn=1"), "hex"),
    (("hex=0700", "mp=2", "turn=1"), "hex"),
    (("hex=ab12", "mp=2", "turn=1"), "hex"),
    (("hex=0712", "mp=x", "turn=1"), "mp"),
    (("hex=0712", "mp=0", "turn=1"), "mp"),
    (("hex=0712", "mp=2", "turn=0"), "turn"),
])
def test_bomber_move_bad_input(lookup, pairs, word):
    with pytest.raises(BadInput, match=word):
        lookup("bomber-move", *pairs)


# --- flak ----------------------------------------------------------------------------------


@pytest.mark.parametrize("pairs,hits", [
    (("rolls=1,2,4,4", "sighting=4"), 2),
    (("rolls=6,6,6,6", "sighting=6"), 4),
    (("rolls=1,2,3,5", "sighting=6"), 0),
    (("rolls=1,1,1,1,1,1,1,1", "sighting=1", "task_force=yes"), 8),
    (("rolls=1,2,3,4,5,6,1,2", "sighting=2", "task_force=yes"), 2),
    (("rolls=1,2,3,4,5,6,1,2", "sighting=2"), 2),
])
def test_flak_edges(lookup, pairs, hits):
    assert lookup("flak", *pairs) == {"hits": hits}


@pytest.mark.parametrize("pairs", [
    ("rolls=1,2,4", "sighting=4"),
    ("rolls=1,2,4,4,5", "sighting=4"),
    ("rolls=1,2,4,4", "sighting=4", "task_force=yes"),
    ("rolls=1,2,4,4,5,6,1", "sighting=4"),
    ("rolls=1,2,4,7", "sighting=4"),
    ("rolls=1,2,4,4", "sighting=7"),
    ("rolls=1,2,4,4", "sighting=0"),
    ("rolls=1,2,4,4",),
])
def test_flak_bad_input(lookup, pairs):
    with pytest.raises(BadInput):
        lookup("flak", *pairs)


@pytest.mark.parametrize("task_force,count", [("no", 4), ("yes", 8)])
def test_flak_odds_match_monte_carlo(game, odds, task_force, count):
    ref = ref_table(game, "flak")
    result = odds("flak", f"task_force={task_force}", "sighting=3")
    exact = result["distribution"]
    assert len(exact) == count + 1
    assert math.isclose(sum(exact.values()), 1.0)
    args = {"sighting": 3, "task_force": task_force == "yes"}
    n = 20000
    seen = monte_carlo(lambda d: str(ref.resolve(game, args, d).result["hits"]), n, seed=11)
    for key, p in exact.items():
        se = math.sqrt(p * (1 - p) / n)
        assert abs(seen.get(key, 0.0) - p) <= 4 * se + 1e-3, key


def test_flak_check_only_double_six(lookup, odds):
    assert lookup("flak-check", "roll=11") == {"fires": False, "hit_dice": 0}
    assert lookup("flak-check", "roll=12") == {"fires": True, "hit_dice": 4}
    assert lookup("flak-check", "roll=12", "task_force=yes") == {"fires": True,
                                                                "hit_dice": 8}
    assert odds("flak-check")["exact"] == {"no": "35/36", "yes": "1/36"}


# --- tables beyond the catalogue ----------------------------------------------------------------


def test_searchlight_dice_table(lookup):
    assert lookup("searchlight-dice", "mode=searchlight", "visibility=poor") == {"dice": 1}
    assert lookup("searchlight-dice", "mode=searchlight", "visibility=good", "moon=full",
                  "flare_too=yes") == {"dice": 5}
    assert lookup("searchlight-dice", "mode=radar-guided", "jammed=yes") == {"dice": 2}
    assert lookup("searchlight-dice", "mode=hand-off", "confusion=yes") == {"dice": 4}


def test_min_range_modifier_table(lookup):
    assert lookup("min-range-modifier", "radar_modifier=0", "fighter_mp=4",
                  "target_mp=2", "turned=yes") == {"modifier": -2}
    assert lookup("min-range-modifier", "radar_modifier=0", "low_altitude=yes",
                  "band=X") == {"modifier": 0}
    assert lookup("min-range-modifier", "radar_modifier=-2", "low_altitude=yes",
                  "band=L", "same_facing=no", "turned=yes", "fighter_mp=5",
                  "target_mp=2") == {"modifier": -6}


def test_firepower_table(lookup):
    assert lookup("firepower", "fp=4", "corkscrewed=yes", "expert=yes") == {"fp": 2}
    assert lookup("firepower", "fp=1", "green=yes", "unfavourable=yes") == {"fp": -2}
    assert lookup("firepower", "fp=2", "defensive=yes", "vs_oblique=yes",
                  "village_inn=yes") == {"fp": 2}


def test_aircraft_table(game, lookup):
    result = lookup("aircraft", "unit=me262b-1a-u1")
    stats = game.get("units", "me262b-1a-u1").stats
    assert result["mp"] == str(stats["mp"]) and result["type"] == "night-fighter"
    with pytest.raises(BadInput, match="spitfire"):
        lookup("aircraft", "unit=spitfire")


def test_sighting_roll_table(lookup, odds):
    assert lookup("sighting-roll", "dice=3", "rolls=2,2,6", "sighting=2") == {
        "sighted": True, "matching": 2, "announced": [2, 6]}
    assert lookup("sighting-roll", "dice=1", "rolls=5", "sighting=2")["sighted"] is False
    with pytest.raises(BadInput):
        lookup("sighting-roll", "dice=2", "rolls=5", "sighting=2")
    with pytest.raises(BadInput):
        lookup("sighting-roll", "dice=1", "rolls=5,4", "sighting=2")
    assert odds("sighting-roll", "dice=2", "sighting=4")["exact"] == {
        "no": "25/36", "yes": "11/36"}


def test_sighting_roll_odds_match_monte_carlo(game, odds):
    ref = ref_table(game, "sighting-roll")
    args = {"dice": 3, "sighting": 5}
    exact = odds("sighting-roll", "dice=3", "sighting=5")["distribution"]
    n = 20000
    seen = monte_carlo(lambda d: "yes" if ref.resolve(game, args, d).result["sighted"]
                       else "no", n, seed=19)
    for key, p in exact.items():
        assert abs(seen.get(key, 0.0) - p) <= 4 * math.sqrt(p * (1 - p) / n)


# --- the lookups that give the whole answer ---------------------------------------------------


@pytest.mark.parametrize("pairs,result", [
    ((), {"dice": 2, "cloud_bonus": 0, "visibility_bonus": 0}),
    (("illuminated_cloud=yes",), {"dice": 2, "cloud_bonus": 1, "visibility_bonus": 0}),
    (("good_visibility=2",), {"dice": 2, "cloud_bonus": 0, "visibility_bonus": 2}),
    (("illuminated_cloud=yes", "good_visibility=1"),
     {"dice": 2, "cloud_bonus": 1, "visibility_bonus": 1}),
])
def test_sighting_dice_names_the_bonus_dice_10_1_1(payload, pairs, result):
    """10.1.1: a bonus die where illuminated cloud is on the map, one per good-visibility
    night fighter; rolled apart from the base dice."""
    answer = payload("lookup", "sighting-dice", "visibility=average", "moon=new", *pairs)
    assert answer["result"] == result
    assert ("10.1.1" in answer["rules"]) == bool(pairs)


@pytest.mark.parametrize("pairs,dice", [
    (("jamming=heavy",), 1), (("jamming=light",), 3),
    (("jamming=heavy", "expert=yes"), 3), (("jamming=heavy", "anti_jam=yes"), 4),
    (("jamming=light", "expert=yes", "anti_jam=yes"), 8),
])
def test_jammed_ai_dice_with_experte_and_anti_jam_24_5_2(lookup, pairs, dice):
    """24.5.2: a jammed radar rolls 1 (heavy) or 3 (light) dice, +2 Experte, +3 ¶."""
    assert lookup("jammed-ai-dice", *pairs) == {"dice": dice}


@pytest.mark.parametrize("pairs,dice", [
    (("contact=none",), 1), (("contact=P",), 2), (("contact=X",), 2), (("contact=S",), 4),
    (("contact=none", "expert=yes"), 3), (("contact=S", "expert=yes"), 6),
])
def test_corkscrew_follow_dice_with_experte_28_1(lookup, pairs, dice):
    """28.1: 1 die with no AI contact, 2 with P, L or X band, 4 with S band; +2 Experte."""
    assert lookup("corkscrew-follow-dice", *pairs) == {"dice": dice}


def test_firepower_oblique_guns_on_an_alert_bomber_28_2(payload):
    """28.2: oblique guns have base FP 0 against an alert bomber; Experte still +2."""
    alert = payload("lookup", "firepower", "fp=3", "oblique=yes", "alert_target=yes",
                    "expert=yes")
    assert alert["result"] == {"fp": 2} and "28.2" in alert["rules"]
    plain = payload("lookup", "firepower", "fp=3", "oblique=yes", "expert=yes")
    assert plain["result"] == {"fp": 5} and "28.2" not in plain["rules"]
    forward = payload("lookup", "firepower", "fp=3", "alert_target=yes")
    assert forward["result"] == {"fp": 3}

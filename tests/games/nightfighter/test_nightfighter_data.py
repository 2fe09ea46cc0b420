"""Nightfighter game data: the manifest counts and key facts of the rules."""

from __future__ import annotations

import re
from statistics import mean

import pytest
from warpress.engine.loader import load_game
from warpress.engine.structure import check_table
from warpress.engine.tables import lookup
from warpress.verify.data import check_folder


@pytest.fixture(scope="module")
def game():
    return load_game("nightfighter")


def test_data_checks_pass():
    report = check_folder("nightfighter")
    assert report.ok, "\n".join(map(str, report.problems))
    assert report.sourced > 0 and report.assumed > 0


def test_game_info(game):
    assert game.info.id == "nightfighter"
    assert game.info.kind == "hex"
    assert {s.id for s in game.info.sides} == {"attacker", "defender"}


# ---- map ---------------------------------------------------------------------------


def test_map_is_18_by_27_with_ccrr_ids(game):
    hex_map = game.hex_map("map")
    ids = hex_map.hex_ids
    assert len(ids) == 18 * 27 == 486
    assert len(set(ids)) == 486
    assert ids[0] == "0101" and ids[-1] == "1827"
    assert "0712" in hex_map.hex_set  # column 07, row 12
    for hex_id in ids:
        assert re.fullmatch(r"\d{4}", hex_id)
        assert 1 <= int(hex_id[:2]) <= 18 and 1 <= int(hex_id[2:]) <= 27


def test_entry_and_exit_edges(game):
    hex_map = game.hex_map("map")
    entry = hex_map.feature("entry-edge")
    assert list(entry.hexes) == [f"{c:02d}01" for c in range(1, 19)]
    assert list(hex_map.feature("exit-edge").hexes) == [f"{c:02d}27" for c in range(1, 19)]
    assert game.constant("entry-row") == 1 and game.constant("exit-row") == 27


def test_searchlight_zones_are_4_by_6_rectangles_with_zone_n(game):
    zones = [f for f in game.hex_map("map").features if f.kind == "searchlight-zone"]
    letters = {f.label for f in zones}
    assert "N" in letters
    assert all(re.fullmatch(r"[A-Z]", letter) for letter in letters)
    assert game.constant("searchlight-zone-size") == (4, 6)
    for zone in zones:
        cols = {h[:2] for h in zone.hexes}
        rows = {h[2:] for h in zone.hexes}
        assert len(zone.hexes) == 24 and len(cols) == 4 and len(rows) == 6
    all_hexes = [h for z in zones for h in z.hexes]
    assert len(all_hexes) == len(set(all_hexes)), "zones overlap"


def test_beacons_and_flare_dropper_entries(game):
    hex_map = game.hex_map("map")
    assert hex_map.feature("searchlight-beacon").hexes
    assert hex_map.feature("radio-beacon-box").hexes
    entries = [f for f in hex_map.features if f.kind == "flare-dropper-entry"]
    assert sorted(f.label for f in entries) == [f"{n:02d}" for n in range(1, 19)]
    for n in range(1, 19):
        path = hex_map.feature(f"flare-path-{n:02d}").hexes
        assert path[0] == hex_map.feature(f"flare-entry-{n:02d}").hexes[0]
        assert len({h[:2] for h in path}) == 18, "a diagonal path crosses every column"


# ---- chits, counters -----------------------------------------------------------------


def test_forty_entry_chits_with_three_columns_per_face(game):
    chits = game.extra["entry-chits"]
    assert len(chits) == 40
    assert game.get("markers", "entry-chit").count == 40
    columns = {f"{c:02d}" for c in range(1, 19)}
    for chit in chits:
        for face in ("red", "yellow"):
            numbers = chit.get(face)
            assert len(numbers) == 3 and set(numbers) <= columns
            assert len(set(numbers)) == 3


def test_chit_faces_bias_opposite_sides_of_the_centre(game):
    chits = game.extra["entry-chits"]
    red = mean(int(n) for c in chits for n in c.get("red"))
    yellow = mean(int(n) for c in chits for n in c.get("yellow"))
    assert red < 9.5 < yellow


def test_counter_sheets_hold_88_and_280(game):
    by_size: dict[float, int] = {}
    for record in (*game.units, *game.markers):
        by_size[record.size_mm] = by_size.get(record.size_mm, 0) + record.count
    assert by_size == {15.875: 88, 12.7: 280}
    assert game.constant("counters-large-sheet") == 88
    assert game.constant("counters-small-sheet") == 280
    sheets = {s.id: s for s in game.extra["counter-sheets"]}
    for sheet in sheets.values():
        listed = sum(game.get("units", u).count for u in sheet.get("units"))
        listed += sum(game.get("markers", m).count for m in sheet.get("markers"))
        assert listed == sheet.get("count")


def test_aircraft_counter_ids_end_in_sighting_numbers(game):
    seen = set()
    for unit in game.units:
        ids = unit.stats["counter_ids"]
        assert len(ids) == unit.count
        for counter_id in ids:
            assert re.fullmatch(r"\d{3}", counter_id) and counter_id[-1] in "123456"
            assert counter_id not in seen
            seen.add(counter_id)


def test_aircraft_the_rules_name(game):
    assert game.get("units", "ju88g-1-g-6").stats["mp_with_berlin_or_bremen"] == "4*"
    assert game.get("units", "me262b-1a-u1").stats["min_mp"] == 5
    assert game.get("units", "mosquito-intruder").stats["mp"] == "5"
    assert game.get("units", "ta154a")
    assert game.get("units", "beaufighter-intruder").type == "intruder"
    fields = {f.get("stat") for f in game.extra["aircraft-chart-fields"]}
    for unit in game.units:
        assert {"mp", "damage", "equipment", "dates"} <= set(unit.stats)
        assert set(unit.stats) - {"counter_ids", "min_mp", "mp_with_berlin_or_bremen",
                                  "rear_view"} <= fields


def test_radars(game):
    radars = {r.id: r for r in game.extra["radars"]}
    assert radars["freya"].get("search_value") == 2
    assert radars["wurzburg"].get("search_value") == 1
    assert radars["mew"].get("sweeps") == 5
    assert game.get("markers", "mew-sweep").count == 5
    assert game.get("markers", "mew-search").count == 1
    assert {"gci", "flensburg", "naxos", "serrate"} <= set(radars)
    assert [a.id for a in game.extra["radar-arcs"]] == ["Narrow", "Wide", "Hemi"]
    bands = sorted(game.extra["radar-bands"], key=lambda b: b.get("order"))
    assert [b.id for b in bands] == ["P", "L", "S", "X"]


def test_turn_track_asterisks_even_turns(game):
    track = game.get("tracks", "game-turn")
    assert track.values[0] == 1 and track.start == 1
    assert set(track.labels) == {str(t) for t in track.values if t % 2 == 0}
    assert game.get("markers", "game-turn").back == "+20"


# ---- tables --------------------------------------------------------------------------


CATALOGUE = ("combat", "moon", "visibility", "clouds", "sighting-dice", "captured-sighting-dice",
             "reaction", "reaction-effect", "corkscrew", "shootdown", "flak", "evade", "flash",
             "collision")


@pytest.mark.parametrize("table_id", CATALOGUE)
def test_catalogue_tables_exist(game, table_id):
    assert game.table(table_id).rows


def test_every_table_covers_its_die_range(game):
    for table in game.tables:
        problems = list(check_table(table))
        assert not problems, f"{table.id}: {problems}"


@pytest.mark.parametrize("roll,hits", [(-3, 0), (2, 0), (9, 0), (10, 1), (11, 2), (12, 3),
                                       (13, 4), (16, 4), (22, 4)])
def test_combat(game, roll, hits):
    assert lookup(game.table("combat"), roll=roll) == {"hits": hits}


def test_environment(game):
    assert lookup(game.table("moon"), roll=4)["moon"] == "full"
    assert lookup(game.table("moon"), roll=5)["moon"] == "half"
    assert lookup(game.table("moon"), roll=7)["moon"] == "new"  # 5 + 2 Europe after April 1942
    assert lookup(game.table("visibility"), roll=11) == {"visibility": "good", "range": 1,
                                                          "lit_range": 5}
    assert lookup(game.table("visibility"), roll=9)["lit_range"] == 3
    assert lookup(game.table("clouds"), roll=3)["clouds"] == "overcast"
    assert lookup(game.table("clouds"), roll=4)["clouds"] == "clear"


def test_sighting_dice(game):
    table = game.table("sighting-dice")
    assert lookup(table, visibility="good", moon="new")["dice"] == 3
    assert lookup(table, visibility="average", moon="half")["dice"] == 3
    assert lookup(table, visibility="poor", moon="full")["dice"] == 2
    captured = game.table("captured-sighting-dice")
    assert game.constant("captured-sighting-base-dice") == 3
    assert lookup(captured, modifier_total=-2)["dice"] == 1  # 2 Hemi (-2): 3 -> 1
    assert lookup(captured, modifier_total=-6)["dice"] == 1  # never fewer than 1
    assert lookup(captured, modifier_total=1)["dice"] == 4


def test_reactions(game):
    assert lookup(game.table("reaction"), roll=5, warning="no")["reacts"] is False
    assert lookup(game.table("reaction"), roll=5, warning="yes")["reacts"] is True
    assert lookup(game.table("reaction"), roll=8, warning="no")["reacts"] is True  # 6 + 2 alert
    effect = game.table("reaction-effect")
    assert lookup(effect, roll=2)["effect"] == "corkscrew"
    assert lookup(effect, roll=4)["effect"] == "return-fire"  # 2 + 2 oblique
    assert lookup(effect, roll=5)["effect"] == "none"
    assert lookup(effect, roll=0)["effect"] == "corkscrew"
    corkscrew = game.table("corkscrew")
    assert [lookup(corkscrew, roll=r)["direction"] for r in range(1, 7)] == [
        "left", "left", "forward", "forward", "right", "right"]


def test_shootdown_evade_flak(game):
    shootdown = game.table("shootdown")
    assert [lookup(shootdown, roll=r)["effect"] for r in range(1, 7)] == [
        "evade", "flash", "follow", "follow", "follow", "none"]
    assert lookup(game.table("evade"), roll=1)["result"] == "collision"
    assert lookup(game.table("collision"), oblique="no")["fp"] == 2
    assert lookup(game.table("collision"), oblique="yes")["fp"] == 0
    flak = game.table("flak")
    assert lookup(flak, roll=11, task_force="no")["hit_dice"] == 0
    assert lookup(flak, roll=12, task_force="no")["hit_dice"] == 4
    assert lookup(flak, roll=12, task_force="yes")["hit_dice"] == 8


def test_searchlight_dice(game):
    table = game.table("searchlight-dice")
    assert lookup(table, mode="radar-guided", moon="new")["dice"] == 4
    assert lookup(table, mode="hand-off", moon="full")["dice"] == 4
    assert lookup(table, mode="flare", moon="half")["dice"] == 2
    assert lookup(table, mode="searchlight", moon="new")["table"] == "sighting-dice"


# ---- rules records -----------------------------------------------------------------------


def test_errata_e1_to_e41(game):
    ids = [e.id for e in game.errata]
    assert ids == [f"E{n}" for n in range(1, 42)]
    assert all(len(e.readings) >= 2 for e in game.errata)


def test_sequence_of_play(game):
    phases = sorted(game.sequence, key=lambda p: p.order)
    assert [p.id for p in phases] == [
        "bomber-movement", "bomber-entry", "fighter-movement", "flak", "radar-search",
        "ai-search", "searchlight", "sighting", "combat", "end-of-turn"]


def test_scenario_record_schema(game):
    fields = [f.id for f in game.extra["scenario-fields"]]
    assert len(fields) == 17
    assert {"difficulty", "attacker-entry", "searchlights", "moon", "variants"} <= set(fields)


def test_constants(game):
    assert game.constant("max-dives") == 3
    assert game.constant("fighter-min-mp") == 2
    assert game.constant("flare-duration-turns") == 3
    assert game.constant("torpedo-columns") == (7, 12)
    assert game.constant("entry-delay-max-turns") == 2
    assert game.constant("deconfliction-range") == 5


def test_worked_examples_part_5(game):
    # T43: alert bombers move faster (optional 28.2)
    alert = game.table("alert-mp")
    assert [lookup(alert, mp=m)["alert_mp"] for m in ("2", "2*", "3", "3*", "4")] == [
        "2*", "3", "3*", "4", "4*"]
    # T62: heavy jamming 1 die (+2 Experte +3 anti-jam = 6)
    jammed = game.table("jammed-ai-dice")
    mods = {m.id: m.value for m in jammed.modifiers}
    assert lookup(jammed, jamming="heavy")["dice"] + mods["expert"] + mods["anti-jam"] == 6
    # T66: following an S-band contact with an Experte: 4 + 2 dice
    follow = game.table("corkscrew-follow-dice")
    assert lookup(follow, contact="S")["dice"] + follow.modifiers[0].value == 6
    # T32, T33: low altitude S-band halved, L-band range 0
    low = game.table("low-altitude-ai")
    assert lookup(low, band="S")["range"] == "half-round-down"
    assert lookup(low, band="L")["range"] == "0"
    # T14: moon roll 5 in Europe after April 1942 (+2) is New
    moon = game.table("moon")
    europe = next(m for m in moon.modifiers if m.id == "europe-after-april-1942").value
    assert lookup(moon, roll=5 + europe)["moon"] == "new"
    # T8, T9: one entrant uses the top number, three use all three
    entry = game.table("entry-numbers")
    assert lookup(entry, entrants=1)["positions"] == ("top",)
    assert lookup(entry, entrants=3)["positions"] == ("top", "middle", "bottom")


def test_contents_list(game):
    contents = {c.id: c.get("count") for c in game.extra["contents"]}
    assert contents["dice"] == 6 and contents["patrol-display"] == 1


def test_digest_checks_are_data(game):
    assert len(game.extra["examples"]) == 66
    assert len(game.extra["invariants"]) == 60
    assert len(game.extra["leak-checks"]) == 7
    assert len(game.extra["referee-messages"]) == 15

"""Midway data: the game's own manifest counts and key facts of the rules."""

from __future__ import annotations

from collections import Counter

import pytest
from warpress.engine.loader import load_game
from warpress.engine.tables import lookup
from warpress.verify.data import check_folder

STANDARD_J_CARRIER = {"a6m": 8, "d3a": 4, "b5n": 4}
STANDARD_US_CARRIER = {"f4f": 6, "sbd": 6, "tbd": 3}


@pytest.fixture(scope="module")
def game():
    return load_game("midway")


def placed(game, setup_id):
    """unit id -> counters placed by one setup record."""
    counts: Counter = Counter()
    for p in game.get("setup", setup_id).place:
        if p.unit:
            counts[p.unit] += p.count
    return counts


# --------------------------------------------------------------------------- game and errata


def test_game_info(game):
    assert game.info.id == "midway"
    assert game.info.kind == "hex"
    assert game.info.solitaire is True
    assert game.info.dice == ("d6",)
    assert [s.id for s in game.info.sides] == ["japan", "us"]
    assert game.info.name_ja == "ミッドウェイ海戦"


def test_every_erratum_of_the_digest_is_present(game):
    ids = {e.id for e in game.errata}
    digest = {f"E{i}" for i in range(1, 28)}
    assert digest <= ids
    # errata found later (by `verify midway`) continue the numbering
    assert ids - digest <= {f"E{i}" for i in range(28, 28 + len(ids - digest))}
    for erratum in game.errata:
        assert len(erratum.readings) >= 2, erratum.id
        assert erratum.rules and erratum.ruling and erratum.why, erratum.id


def test_errata_rulings_followed_by_data(game):
    assert "E1" in game.get("constants", "night-turn").errata
    assert "E2" in game.get("constants", "invasion-force-entry-turn").errata
    assert "E19" in game.table("surface-battle").errata
    assert "E7" in game.get("constants", "base-attack-modifier").errata


# --------------------------------------------------------------------------- components


def test_event_deck_manifest(game):
    deck = game.get("decks", "event")
    assert deck.count == 8
    cards = [c for c in game.cards if c.deck == "event"]
    assert sum(c.count for c in cards) == 8
    assert sorted(c.number for c in cards) == list(range(1, 9))
    assert game.get("cards", "01").name_ja == "処分中止"
    assert game.get("cards", "04").name_ja == "潜水艦"
    assert game.get("cards", "07").name_ja == "偵察機の不調"


def test_unit_manifest(game):
    units = {u.id: u for u in game.units}
    for uid, n in {**STANDARD_J_CARRIER, **STANDARD_US_CARRIER}.items():
        assert units[uid].count == n, uid
    land = [u for u in game.units if "land-based" in u.tags]
    assert sum(u.count for u in land) == 5
    fleets = [u for u in game.units if u.type == "fleet"]
    assert sorted(u.id for u in fleets) == ["ichikokan", "invasion-force", "tf16-17"]
    assert units["d3a"].stats["dive_bomber"] is True
    assert units["sbd-land"].stats["dive_bomber"] is False  # 2.2 design note


def test_setup_aircraft_counts(game):
    japan = placed(game, "japan-carrier-aircraft")
    us = placed(game, "us-carrier-aircraft")
    land = placed(game, "us-land-based-aircraft")
    assert dict(japan) == STANDARD_J_CARRIER and sum(japan.values()) == 16
    assert dict(us) == STANDARD_US_CARRIER and sum(us.values()) == 15
    assert sum(land.values()) == 5
    # every carrier gets the same load (3.1(2), 3.2(2))
    per = Counter()
    for p in game.get("setup", "japan-carrier-aircraft").place:
        per[p.per] += p.count
    assert per == {"akagi": 4, "kaga": 4, "hiryu": 4, "soryu": 4}
    per = Counter()
    for p in game.get("setup", "us-carrier-aircraft").place:
        per[p.per] += p.count
    assert per == {"enterprise": 5, "hornet": 5, "yorktown": 5}


def test_setup_counts_match_unit_manifest(game):
    units = {u.id: u for u in game.units}
    placed_all = placed(game, "japan-carrier-aircraft") + placed(game, "us-carrier-aircraft") \
        + placed(game, "us-land-based-aircraft")
    for uid, n in placed_all.items():
        assert units[uid].count == n, uid


def test_tracks(game):
    tracks = {t.id: t for t in game.tracks}
    assert len(tracks) == 4
    assert tracks["turn"].values == (1, 2, 3, 4, 5, 6, 7) and tracks["turn"].start == 1
    assert tracks["aop"].values == (0, 1, 2, 3, 4) and tracks["aop"].start == 0
    assert tracks["invasion-force"].values == ("X", 1, 2, 3, 4)
    assert tracks["invasion-force"].start == 4
    assert tracks["garrison"].values == ("X", 1, 2, 3, 4, 5, 6)
    assert tracks["garrison"].start == 6


def test_markers(game):
    markers = {m.id: m for m in game.markers}
    assert {"turn", "aop-japan", "aop-us", "damage", "invasion-force", "garrison"} <= set(markers)
    assert markers["damage"].field_assumed("count")


def test_carriers(game):
    carriers = {c.id: c for c in game.extra["carriers"]}
    by_division = Counter(c.get("division") for c in carriers.values())
    assert by_division == {"cardiv1": 2, "cardiv2": 2, "tf16": 2, "tf17": 1}
    assert carriers["akagi"].name_ja == "赤城" and carriers["hiryu"].name_ja == "飛龍"
    assert carriers["enterprise"].is_assumed and carriers["hornet"].is_assumed


# --------------------------------------------------------------------------- map


def test_hex_map(game):
    hex_map = game.hex_map()
    assert "F-6" in hex_map.hex_set
    assert hex_map.orientation == "flat" and hex_map.offset == "even-q"
    assert hex_map.is_assumed
    assert hex_map.feature("midway").hexes == ("F-6",)
    assert hex_map.feature("ichikokan-entry").hexes == ("A-1", "A-2", "A-3")
    assert hex_map.feature("invasion-force-entry").hexes == ("A-4", "A-5", "A-6")
    start = hex_map.feature("us-start").hexes
    assert "F-6" not in start and {h.split("-")[0] for h in start} == {"F", "G", "H"}


def _grid(hex_map):
    from warpress.engine.hexgrid import HexGrid

    return HexGrid.letters(hex_map.columns.count, hex_map.rows.count, hex_map.hex_id,
                           hex_map.orientation, hex_map.offset)


def test_base_attack_range_is_the_hexes_within_5_of_midway(game):
    hex_map = game.hex_map()
    grid = _grid(hex_map)
    reach = game.constant("base-attack-range")
    near = game.constant("base-attack-near-range")
    assert reach == 5 and near == 2
    assert set(hex_map.feature("base-attack-range").hexes) == set(grid.within("F-6", reach))
    one_op = set(grid.within("F-6", near)) - {"F-6"}
    assert set(hex_map.feature("base-attack-one-operation").hexes) == one_op
    assert set(hex_map.feature("midway-adjacent").hexes) == set(grid.neighbours("F-6"))


def test_map_geometry_facts(game):
    grid = _grid(game.hex_map())
    assert grid.distance("F-4", "E-3") == 1 and grid.distance("E-3", "D-3") == 1  # 6.2(1)
    assert grid.distance("D-3", "F-3") == 2  # solitaire start (M-EX21)
    assert [grid.distance(f"A-{r}", "F-6") for r in (1, 2, 3)] == [7, 6, 5]


# --------------------------------------------------------------------------- displays


def test_carrier_area_displays(game):
    displays = {d.id: d for d in game.displays}
    assert {"cardiv1", "cardiv2", "tf16", "tf17", "midway-base"} <= set(displays)
    for did in ("cardiv1", "cardiv2", "tf16", "tf17", "midway-base"):
        d = displays[did]
        assert d.box("cap").accepts == ("fighter",)
        assert any(a.from_ == "return-2" and a.to == "return-1" for a in d.arrows), did
    akagi = [b for b in displays["cardiv1"].boxes if b.holds == "akagi"]
    assert sorted(b.kind for b in akagi) == ["deck", "deck", "hangar"]
    assert sum(b.capacity for b in akagi if b.kind == "deck") == game.constant("deck-capacity")
    assert displays["cardiv1"].box("akagi-hangar").capacity == game.constant("carrier-capacity")
    runway = [b for b in displays["midway-base"].boxes if b.kind == "runway"]
    assert sum(b.capacity for b in runway) == game.constant("runway-capacity") == 3


# --------------------------------------------------------------------------- constants


@pytest.mark.parametrize("cid, value", [
    ("search-capability-ichikokan", 6), ("search-capability-us-fleet", 7),
    ("search-capability-base", 8), ("search-capability-base-destroyed", 0),
    ("search-result-min", 1), ("search-result-max", 4),
    ("base-attack-range", 5), ("base-attack-ops-near", 1), ("base-attack-ops-far", 2),
    ("base-hits-per-turn", 2), ("garrison-air-attack-floor", 2),
    ("base-function-destroyed-hits", 3), ("base-attack-modifier", -1),
    ("carrier-capacity", 5), ("base-capacity", 5), ("deck-capacity", 2), ("runway-capacity", 3),
    ("group-size-us-carrier", 2), ("group-size-us-base", 3), ("group-size-japan", 8),
    ("move-ichikokan", 2), ("move-us-fleet", 2), ("move-invasion-force", 1),
    ("night-move-ichikokan", 4), ("night-move-us-fleet", 4), ("night-move-invasion-force", 2),
    ("night-turn", 4), ("turns", 7), ("invasion-force-entry-turn", 4), ("launch-move", 2),
])
def test_constants(game, cid, value):
    assert game.constant(cid) == value


# --------------------------------------------------------------------------- tables


@pytest.mark.parametrize("roll, box", [(1, "front"), (3, "front"), (4, "rear"), (6, "rear")])
def test_carrier_damage_hit_location(game, roll, box):
    result = lookup(game.table("carrier-damage"), damaged="no", roll=roll)
    assert result == {"box": box, "sunk": False}


def test_second_hit_sinks(game):
    assert lookup(game.table("carrier-damage"), damaged="yes", roll=2)["sunk"] is True


@pytest.mark.parametrize("side, lost_on", [("japan", {5, 6}), ("us", {4, 5, 6})])
def test_night_landing(game, side, lost_on):
    table = game.table("night-landing")
    assert {r for r in range(1, 7) if lookup(table, side=side, roll=r)["lost"]} == lost_on


def test_surface_battle_floored_at_zero(game):
    table = game.table("surface-battle")
    for j in range(1, 7):
        for u in range(1, 7):
            result = lookup(table, japan_roll=j, us_roll=u)
            assert result == {"hits_on_us": max(0, j - 2), "hits_on_japan": max(0, u - 4)}


@pytest.mark.parametrize("card, move, hexes, prefer", [
    (1, "toward", 2, "north"), (2, "toward", 2, "south"), (3, "toward", 1, "north"),
    (4, "away", 2, "north"), (5, "toward", 1, "south"), (6, "stay", 0, "none"),
    (7, "away", 2, "south"), (8, "reshuffle", 0, "none"),
])
def test_solitaire_move(game, card, move, hexes, prefer):
    assert lookup(game.table("solitaire-move"), card=card) == {
        "move": move, "hexes": hexes, "prefer": prefer}


def test_attack_modifiers(game):
    table = game.table("attack-modifier")
    base = lookup(table, target="base", dive_bomber="yes", deck_loaded="yes", combined="no")
    assert base["modifier"] == game.constant("base-attack-modifier") == -1  # E7
    assert lookup(table, target="carrier", dive_bomber="yes", deck_loaded="yes",
                  combined="no")["modifier"] == 1
    assert lookup(table, target="carrier", dive_bomber="no", deck_loaded="yes",
                  combined="yes")["modifier"] == 1
    assert lookup(table, target="invasion", dive_bomber="yes", deck_loaded="yes",
                  combined="yes")["modifier"] == 0


def test_anti_aircraft(game):
    dice = game.table("aa-dice")
    assert [lookup(dice, carrier=c)["dice"] for c in ("intact", "damaged", "sunk")] == [2, 1, 0]
    hit = game.table("aa-hit")
    assert lookup(hit, escorted="yes")["hit_on"] == 1
    assert lookup(hit, escorted="no")["hit_on"] == 2


# --------------------------------------------------------------------------- setup, play, sheets


def test_solitaire_setup(game):
    solitaire = [s for s in game.setup if s.scenario == "solitaire"]
    assert solitaire
    fleets = {p.unit: p.get("hex") for p in game.get("setup", "solitaire-fleets").place}
    assert fleets == {"ichikokan": "D-3", "tf16-17": "F-3"}
    hiryu = placed(game, "solitaire-hiryu-aircraft")
    assert hiryu == {"a6m": 3, "b5n": 1, "d3a": 1}
    us = placed(game, "solitaire-us-aircraft")
    assert us == {"f4f": 6, "sbd": 6}
    assert all(p.steps == 1 for s in ("solitaire-hiryu-aircraft", "solitaire-us-aircraft")
               for p in game.get("setup", s).place)


def test_sequence_of_play(game):
    day = sorted((p for p in game.sequence
                  if p.get("turns") is None and p.get("scenario") is None), key=lambda p: p.order)
    assert [p.id for p in day] == [
        "base-attack-declaration", "us-movement-planning", "japanese-movement", "base-attack",
        "us-movement-execution", "search", "air-operations", "end-of-turn"]
    night = {p.id for p in game.sequence if p.get("turns") == (4,)}
    assert night == {"night-movement", "night-search", "night-air-operations"}
    solitaire = {p.id for p in game.sequence if p.get("scenario") == "solitaire"}
    assert solitaire == {"solitaire-procedure", "solitaire-us-air-policy"}


def _search(game, side, distance, base_distance=None, base_destroyed=False, base_strikes=0):
    """7.1-7.4 computed from the constants (the search procedure of 7.1-7.4)."""
    lo, hi = game.constant("search-result-min"), game.constant("search-result-max")
    if side == "japan":
        result = game.constant("search-capability-ichikokan") - distance
    else:
        result = game.constant("search-capability-us-fleet") - distance
        if base_distance is not None:
            base = game.constant("search-capability-base-destroyed" if base_destroyed
                                 else "search-capability-base")
            result = max(result, base - base_distance)
    aop = min(hi, max(lo, result))
    return max(game.constant("aop-min-after-base-attack"), aop - base_strikes)


@pytest.mark.parametrize("side, distance, base_distance, strikes, aop", [
    ("us", 5, None, 0, 2), ("japan", 5, None, 0, 1),      # M-EX4
    ("us", 5, 4, 0, 4),                                   # M-EX5
    ("us", 3, None, 0, 4), ("japan", 4, None, 0, 2),      # M-EX6
    ("japan", 10, None, 0, 1), ("us", 0, 1, 0, 4),        # M-EX7 clamp
    ("japan", 5, None, 2, 0),                             # M-EX8
    ("japan", 2, None, 0, 4), ("us", 2, None, 0, 4),      # M-EX21
])
def test_search_examples_from_constants(game, side, distance, base_distance, strikes, aop):
    assert _search(game, side, distance, base_distance, base_strikes=strikes) == aop


def test_victory(game):
    ids = {v.id for v in game.victory}
    assert {"day-1", "day-2", "automatic", "landing"} <= ids
    assert game.get("victory", "day-1").params["ratio"] == 3


def test_us_movement_plan_sheet(game):
    sheet = game.get("sheets", "us-movement-plan")
    assert sheet.kind == "plan-sheet" and sheet.name_ja == "米軍移動計画シート"
    assert "surface-battle" in sheet.tables
    text = " ".join(line for s in sheet.sections for line in s.lines)
    assert "F-6" in text and "4 hexes on the night turn" in text


def test_data_checks_pass():
    report = check_folder("midway")
    assert report.problems == (), "\n".join(map(str, report.problems))
    assert report.assumed > 0 and report.sourced > report.assumed


def _base_damage(game, garrison, hits_this_turn, hits):
    """9.6(2)(3) from the constants: (applied, ignored, garrison after)."""
    room = max(0, game.constant("base-hits-per-turn") - hits_this_turn)
    applied = min(hits, room)
    after = max(game.constant("garrison-air-attack-floor"), garrison - applied)
    return applied, hits - applied, after


def test_base_attack_example(game):
    # M-EX13: 6 attack steps roll at attack 3 - 1 = 2; 3 hits, the 3rd is void; Garrison 6 -> 4.
    d3a = game.get("units", "d3a").stats["attack"]
    modifier = lookup(game.table("attack-modifier"), target="base", dive_bomber="yes",
                      deck_loaded="yes", combined="no")["modifier"]
    assert d3a + modifier == 2
    assert _base_damage(game, garrison=6, hits_this_turn=0, hits=3) == (2, 1, 4)
    assert _base_damage(game, garrison=4, hits_this_turn=0, hits=2) == (2, 0, 2)
    assert _base_damage(game, garrison=2, hits_this_turn=0, hits=1) == (1, 0, 2)  # E23 floor


@pytest.mark.parametrize("japan, us, winner", [
    (4, 1, "japan"), (3, 1, "japan"), (2, 1, None), (1, 3, "us"), (1, 2, None), (4, 3, None),
])
def test_day_1_victory(game, japan, us, winner):
    ratio = game.get("victory", "day-1").params["ratio"]
    got = "japan" if japan >= ratio * us else "us" if us >= ratio * japan else None
    assert got == winner

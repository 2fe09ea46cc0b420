"""Nimitz data: the game's own manifest counts and key facts of the rules."""

from __future__ import annotations

from collections import deque

import pytest
from warpress.engine.loader import load_game
from warpress.engine.tables import lookup
from warpress.verify.data import check_folder

STAT_KEYS = {"cost_hit", "cost_buy", "aa", "aa_sup", "gunnery", "torpedo", "asw",
             "air", "air_sup", "anti_ship", "anti_ground", "ground"}
ORDERS = {"standby": (6, 2, 3), "reorganize": (4, 1, 0), "south-advance": (3, 1, 2),
          "east-advance": (4, 2, 2), "battle": (2, 1, 2), "engage": (3, 1, 2),
          "reinforce": (2, 1, 2), "sortie": (3, 1, 2)}
US_BONUS = {"vt-fuze", "air-defense-system", "asw", "artillery-support", "barrel-roll", "assault",
            "damage-control", "dive-bombing", "pinning", "siege", "first-strike", "melee",
            "leathernecks", "radar-gunnery", "seabees", "sonar"}
JAPAN_BONUS = {"air-superiority", "artillery-support", "attack-plan", "carrier-attack",
               "emergency-repair", "battle-duration", "first-strike", "infantry-combat",
               "battalion-draw", "kamikaze", "search-failure", "escort-fleet",
               "surface-fleet-success", "submarine-warfare"}


@pytest.fixture(scope="module")
def game():
    return load_game("nimitz")


@pytest.fixture(scope="module")
def campaign_map(game):
    return game.get("point_maps", "campaign")


def distances(point_map, start):
    adjacent: dict[str, set[str]] = {p.id: set() for p in point_map.points}
    for r in point_map.routes:
        adjacent[r.a].add(r.b)
        adjacent[r.b].add(r.a)
    dist, todo = {start: 0}, deque([start])
    while todo:
        here = todo.popleft()
        for there in adjacent[here]:
            if there not in dist:
                dist[there] = dist[here] + 1
                todo.append(there)
    return dist, adjacent


# --------------------------------------------------------------------------- game and errata


def test_data_checks_pass():
    report = check_folder("nimitz")
    assert report.ok, "\n".join(map(str, report.problems))
    assert report.assumed > 0 and report.sourced > report.assumed


def test_game_info(game):
    assert game.info.id == "nimitz"
    assert game.info.kind == "point-to-point"
    assert game.info.solitaire is True
    assert game.info.dice == ("d10",)
    assert {s.id for s in game.info.sides} == {"us", "japan"}
    assert game.info.name_ja == "ニミッツの決断"


def test_every_erratum_of_the_digest_is_present(game):
    digest = {f"E{i}" for i in range(1, 30)}
    assert digest <= {e.id for e in game.errata}  # E30 and later: rulings found after it
    for erratum in game.errata:
        assert len(erratum.readings) >= 2, erratum.id
        assert erratum.rules and erratum.ruling and erratum.why, erratum.id


def test_errata_rulings_followed_by_data(game):
    assert "E12" in game.table("japanese-air").errata
    assert "E6" in game.get("constants", "battalion-substitution-when-last-unit-stays").errata
    assert game.constant("battalion-substitution-when-last-unit-stays") is False
    assert "E4" in game.get("orders", "sortie").errata
    assert "E26" in game.get("constants", "last-unit-counts-jointly").errata


def test_e31_infantry_of_9_2_6_and_11_1_read_as_ground_units(game):
    """9.2.6 and 11.1 say infantry where 9.2.5, 9.2.8 and 11.2 say ground units: E31 takes
    the ruling (a battalion counts) and the Engage order and the reinforcement table follow."""
    erratum = game.get("errata", "E31")
    assert {"9.2.6", "11.1"} <= set(erratum.rules) and "battalion" in erratum.ruling
    assert "E31" in game.get("orders", "engage").errata
    assert game.get("orders", "engage").get("land_air_condition") == "garrison"
    assert "E31" in game.table("japanese-reinforcement").errata


@pytest.mark.parametrize("pair", [("地上戦", "歩兵攻撃手順"), ("地上部隊の移動", "歩兵前進手順"),
                                  ("大隊ボックス", "大隊保管ボックス"),
                                  ("保管ボックス", "艦載機保管ボックス"),
                                  ("増援ボックス", "増援保管ボックス"),
                                  ("戦闘ラウンド記録トラック", "戦闘ラウンド・トラック"),
                                  ("キャンペーン・ターン記録トラック", "ターン記録トラック"),
                                  ("空戦力", "空中戦力"), ("移動判定", "命令判定")])
def test_e18_lists_every_pair_of_spellings(game, pair):
    """E18 (terminology): both spellings of each pair the rule text uses, in one reading."""
    readings = game.get("errata", "E18").readings
    assert any(all(word in reading for word in pair) for reading in readings), pair


# --------------------------------------------------------------------------- tables


@pytest.mark.parametrize("table_id", ["japanese-air", "japanese-orders", "battle-rounds"])
def test_d10_tables_cover_1_to_10_exactly_once(game, table_id):
    table = game.table(table_id)
    assert table.dice == "d10"
    for roll in range(1, 11):
        assert lookup(table, roll=roll) is not None
    from warpress.engine.tables import matching_rows
    for roll in range(1, 11):
        assert len(matching_rows(table, {"roll": roll})) == 1, (table_id, roll)


def test_japanese_aircraft_movement_table(game):
    table = game.table("japanese-air")
    expected = {1: "japanese-sea", 2: "japanese-sea", 3: "island", 4: "island", 5: "island",
                6: "coastal", 7: "us-sea", 8: "us-sea", 9: "us-sea", 10: "us-sea"}
    for roll, area in expected.items():
        assert lookup(table, roll=roll)["area"] == area
    assert lookup(table, roll=6)["position"] == 3


def test_order_table_observed_rolls(game):
    table = game.table("japanese-orders")
    assert lookup(table, roll=2)["order"] == "standby"
    assert lookup(table, roll=4)["order"] == "south-advance"
    assert lookup(table, roll=7)["order"] == "battle"
    assert lookup(table, roll=10)["order"] == "sortie"
    orders = {r.id for r in game.extra["orders"]}
    assert {lookup(table, roll=r)["order"] for r in range(1, 11)} == orders


def test_attack_table(game):
    table = game.table("attack")
    # carrier AA 4/2 (2.6.4 example)
    assert [lookup(table, value=4, superior=2, roll=r)["hits"] for r in range(1, 11)] == \
        [2, 2, 1, 1, 0, 0, 0, 0, 0, 0]
    # Colorado/Maryland AA 3
    assert lookup(table, value=3, superior=0, roll=3)["hits"] == 1
    assert lookup(table, value=3, superior=0, roll=4)["hits"] == 0
    # air superiority: anti-ship 4 -> 7/2
    assert lookup(table, value=7, superior=2, roll=7)["hits"] == 1
    assert lookup(table, value=7, superior=2, roll=8)["hits"] == 0
    # modified values above 10 still resolve
    assert lookup(table, value=13, superior=6, roll=10)["hits"] == 1


def test_repair_and_battle_points(game):
    repair = game.table("repair-cost")
    assert [lookup(repair, cost=c)["supply"] for c in (0, 1, 2, 3, 5)] == [1, 1, 1, 1, 2]
    bpp = game.table("battle-points")
    assert lookup(bpp, supply=0)["bpp"] == 3
    assert lookup(bpp, supply=2)["bpp"] == 9
    assert game.constant("free-battle-plan-points") == 3
    assert game.constant("battle-plan-points-per-supply") == 3


def test_linked_campaign_table_covers_its_range(game):
    table = game.table("linked-result")
    key = table.key("total")
    assert (key.min, key.max) == (0, 51)
    expected = {51: "great-victory", 50: "great-victory", 49: "historic-triumph",
                45: "historic-triumph", 44: "historical", 35: "historical",
                34: "disappointing", 26: "disappointing", 25: "ignominious-defeat",
                0: "ignominious-defeat"}
    for total, result in expected.items():
        assert lookup(table, total=total)["result"] == result
    results = {lookup(table, total=t)["result"] for t in range(0, 52)}
    assert len(results) == 5
    assert lookup(table, total=50)["label_ja"] == "偉大な勝利"


def test_reinforcement_and_round_data_points(game):
    assert lookup(game.table("japanese-reinforcement"), roll=9) == \
        {"ships": 2, "infantry": 2, "land_air": 1}
    assert lookup(game.table("battle-rounds"), roll=9)["rounds"] == 4
    assert lookup(game.table("battle-rounds"), roll=4)["rounds"] == 2
    assert lookup(game.table("battle-plan-count"), unit_count=6)["draws"] == 2
    assert lookup(game.table("battle-plan-count"), unit_count=5)["draws"] == 2
    assert lookup(game.table("japan-invasion"), cost=82)["objectives"] == 2


def test_port_return_boxes_by_year(game):
    table = game.table("port-return")
    assert lookup(table, campaign="1942")["boxes"] == ("port-return-1942-45",)
    assert lookup(table, campaign="1943")["arrival_box"] == "port-return-1943-45"
    assert len(lookup(table, campaign="1945")["boxes"]) == 3
    display = game.get("displays", "port-return")
    assert {b.id for b in display.boxes} == {"port-return-1942-45", "port-return-1943-45",
                                             "port-return-1944-45"}


# --------------------------------------------------------------------------- orders and markers


def test_the_eight_japanese_orders(game):
    orders = {o.id: o for o in game.extra["orders"]}
    assert set(orders) == set(ORDERS)
    for order_id, (ships, infantry, land_air) in ORDERS.items():
        order = orders[order_id]
        assert (order.get("ships"), order.get("infantry"), order.get("land_air")) == \
            (ships, infantry, land_air), order_id
        assert order.name_ja.endswith("命令")


def test_both_sides_bonus_markers(game):
    markers = {m.id: m for m in game.markers}
    for name in US_BONUS:
        assert markers[f"us-{name}"].side == "us"
    for name in JAPAN_BONUS:
        assert markers[f"japan-{name}"].side == "japan"
    table = game.table("bonus-marker")
    assert lookup(table, side="us", bonus="melee")["cost"] == 1
    assert lookup(table, side="us", bonus="vt-fuze")["cost"] == 2
    assert lookup(table, side="us", bonus="seabees")["cost"] == 2
    assert lookup(table, side="us", bonus="air-defense-system")["cost"] == 2
    assert lookup(table, side="japan", bonus="kamikaze")["exists"] is True
    assert lookup(table, side="us", bonus="kamikaze")["exists"] is False
    for name in US_BONUS:
        assert lookup(table, side="us", bonus=name)["cost"] >= 1


def test_all_markers_of_2_9(game):
    ids = {m.id for m in game.markers}
    assert {"us-points", "japanese-supply", "recon", "campaign-turn", "battle-round",
            "battle-plan-count", "japanese-movement-order", "japanese-moving", "move-complete",
            "battle-location", "us-airfield-capacity", "japanese-airfield-capacity",
            "objective", "transport"} <= ids


# --------------------------------------------------------------------------- units


def test_every_unit_has_the_stat_schema(game):
    assert len(game.units) >= 40
    for unit in game.units:
        assert set(unit.stats) == STAT_KEYS, unit.id
        assert unit.steps == 2
        assert unit.side in {"us", "japan"}


def test_unit_values_from_the_text(game):
    lexington = game.get("units", "lexington")
    assert (lexington.stats["cost_hit"], lexington.stats["cost_buy"]) == (1, 5)
    colorado = game.get("units", "colorado-maryland")
    assert (colorado.stats["aa"], colorado.stats["gunnery"], colorado.stats["asw"]) == (3, 4, 2)
    for unit in game.units:
        if unit.type in {"CV", "CVL", "CVE"}:
            assert unit.stats["cost_hit"] == 1, unit.id
        if unit.type == "SS":
            assert unit.stats["aa"] is None and unit.stats["torpedo"] is not None
            assert unit.stats["gunnery"] is None
        if unit.type == "battalion":
            assert unit.stats["cost_hit"] == 0
    assert game.get("units", "sbd").stats["anti_ship"] == 4
    assert game.get("units", "raaf-bg2").stats["cost_buy"] == 2
    assert "australian" in game.get("units", "raaf-bg2").tags


# --------------------------------------------------------------------------- map


def test_routes_reference_existing_points(campaign_map):
    ids = campaign_map.point_ids
    assert len(ids) == 19
    for route in campaign_map.routes:
        assert route.a in ids and route.b in ids
    for point in campaign_map.points:  # each at its real place, in the map's frame
        lon, lat = point.extra.get("lon"), point.extra.get("lat")
        assert 100 < lon < 250 and -42 < lat < 62, point.id
        assert point.name_ja


def test_points_lie_where_they_are_on_the_globe(campaign_map):
    """Real positions (east of 180 counted on): Japan north-west of the Marianas, Hawaii
    east of Midway, Australia south of New Guinea, the West Coast east of everything."""
    at = {p.id: (p.extra["lon"], p.extra["lat"]) for p in campaign_map.points}
    assert at["japan"][0] < at["mariana-islands"][0] and at["japan"][1] > at["mariana-islands"][1]
    assert at["midway"][0] < at["hawaiian-islands"][0]
    assert at["australia"][1] < at["new-guinea"][1]
    assert max(lon for lon, _lat in at.values()) == at["west-coast"][0]


def test_map_facts_from_the_text(campaign_map):
    points = {p.id: p for p in campaign_map.points}
    assert points["solomon-islands"].capacity == 6
    for unlimited in ("west-coast", "hawaiian-islands", "australia"):
        assert points[unlimited].capacity == "unlimited"
    assert "australia" in points["new-guinea"].flags
    assert "australia" not in points["midway"].flags
    from_japan, adjacent = distances(campaign_map, "japan")
    for four in ("midway", "solomon-islands", "new-guinea"):
        assert from_japan[four] == 4, four
    assert from_japan["hawaiian-islands"] > 4
    to_australia, _ = distances(campaign_map, "australia")
    assert "australia" in adjacent["new-guinea"]
    closer = {p for p in adjacent["caroline-islands"]
              if to_australia[p] < to_australia["caroline-islands"]}
    assert closer == {"new-guinea", "solomon-islands"}
    assert adjacent["mariana-islands"] & {"wake"}
    assert "caroline-islands" not in adjacent["mariana-islands"]


def test_battle_sheet_areas(game):
    sheet = game.get("displays", "battle-sheet")
    boxes = {b.id for b in sheet.boxes}
    assert {"japanese-sea", "coastal", "island", "us-sea", "us-position", "us-beach",
            "us-airfield", "japanese-position", "japanese-beach", "japanese-airfield",
            "carrier-aircraft-holding"} <= boxes


# --------------------------------------------------------------------------- campaigns, sheets


def test_campaigns(game):
    campaigns = {c.id: c for c in game.extra["campaigns"]}
    assert set(campaigns) == {"1942", "1943", "1944", "1945"}
    assert len(campaigns["1942"].get("objectives")) == 8
    assert len(campaigns["1945"].get("objectives")) == 16
    assert campaigns["1945"].get("last_turn") == "jul-aug"
    points = {p.id for p in game.get("point_maps", "campaign").points}
    for campaign in campaigns.values():
        assert set(campaign.get("objectives")) <= points
    level = game.table("campaign-level")
    assert lookup(level, campaign="1942", objectives=3)["level"] == "dismissal"
    assert lookup(level, campaign="1942", objectives=7)["level"] == "better-than-historical"
    assert lookup(level, campaign="1945", objectives=15)["level"] == "as-historical"


def test_sequence_has_eleven_phases(game):
    phases = sorted((p for p in game.sequence if p.get("part") is None), key=lambda p: p.order)
    assert [p.order for p in phases] == list(range(1, 12))
    assert phases[4].name_ja == "日本軍移動フェイズ"


def test_player_log(game):
    log = game.get("sheets", "player-log")
    assert log.kind == "log"
    text = " ".join(line for s in log.sections for line in s.lines)
    assert "最終結果" in text and "1945" in text
    assert "linked-result" in log.tables


def test_turn_track(game):
    track = game.get("tracks", "campaign-turn")
    assert track.start == "start"
    assert len(track.values) == 1 + game.constant("campaign-turns")

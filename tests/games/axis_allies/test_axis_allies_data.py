"""Axis & Allies data: the game's own manifest counts and key facts.

Board facts (territories, connections, production, starting forces and incomes) come from the
public Classic reference data, converted into games/axis_allies/map.yaml and setup-units.yaml.
"""

from __future__ import annotations

from collections import Counter, defaultdict

import pytest
from warpress.engine.loader import load_game
from warpress.engine.tables import lookup
from warpress.verify.data import check_folder

POWERS = ["russia", "germany", "uk", "japan", "usa"]
INCOMES = {"russia": 24, "germany": 32, "uk": 30, "japan": 25, "usa": 36}
CAPITALS = {"russia": "russia", "germany": "germany", "uk": "united-kingdom",
            "japan": "japan", "usa": "east-us"}
UNIT_TABLE = {  # unit table, L36-51: cost, move, attack, defense (None = "–")
    "infantry": (3, 1, 1, 2),
    "armor": (5, 2, 3, 2),
    "fighter": (12, 4, 3, 4),
    "bomber": (15, 6, 4, 1),
    "antiaircraft": (5, 1, None, 1),
    "battleship": (24, 2, 4, 4),
    "carrier": (18, 2, 1, 3),
    "transport": (8, 2, None, 1),
    "submarine": (8, 2, 2, 2),
    "factory": (15, None, None, None),
}


@pytest.fixture(scope="module")
def game():
    return load_game("axis-allies")


@pytest.fixture(scope="module")
def world(game):
    return game.get("point_maps", "world")


@pytest.fixture(scope="module")
def points(world):
    return {p.id: p for p in world.points}


def test_verify_data_is_clean():
    report = check_folder("axis-allies")
    assert report.ok, "\n".join(map(str, report.problems))
    assert report.sourced > 0 and report.assumed > 0


def test_five_powers_in_turn_order(game):
    assert [s.id for s in game.info.sides] == POWERS
    assert list(game.constant("turn-order")) == POWERS
    assert game.info.players == "2-5"
    assert game.info.dice == ("d6",)
    ja = {s.id: s.name_ja for s in game.info.sides}
    assert ja == {"russia": "ソ連", "germany": "ドイツ", "uk": "イギリス", "japan": "日本",
                  "usa": "アメリカ"}


def test_alliances(game):
    assert {s.id: s.alliance for s in game.info.sides} == {
        "russia": "allies", "germany": "axis", "uk": "allies", "japan": "axis", "usa": "allies"}
    alliances = {a.id: list(a.get("members")) for a in game.extra["alliances"]}
    assert alliances == {"axis": ["germany", "japan"], "allies": ["russia", "uk", "usa"]}


def test_board_counts(world, points):
    assert len(world.points) == 128
    kinds = Counter(p.kind for p in world.points)
    assert kinds == {"sea": 58, "land": 70}
    # The reference lists 310 connections; one pair (Congo Sea Zone - South Brazil Sea Zone)
    # appears twice there (once in each direction), so the board has 309 distinct routes.
    pairs = {frozenset((r.a, r.b)) for r in world.routes}
    assert len(world.routes) == 309 == len(pairs)
    assert len(world.routes) + 1 == 310
    assert frozenset(("congo-sea-zone", "south-brazil-sea-zone")) in pairs
    assert "310 connections" in world.note
    for r in world.routes:
        a, b = points[r.a].kind, points[r.b].kind
        expected = "sea" if a == b == "sea" else "land" if a == b == "land" else "coast"
        assert r.kind == expected, (r.a, r.b)


def test_board_is_assumed_with_a_note(world):
    assert world.is_assumed
    assert "public reference data" in world.note and "not in the rule text" in world.note


def test_positions_scaled(world):
    for p in world.points:
        assert 0 <= p.x <= 1 and 0 <= p.y <= 1, p.id


def test_every_point_reachable(world, points):
    adj = defaultdict(set)
    for r in world.routes:
        adj[r.a].add(r.b)
        adj[r.b].add(r.a)
    assert set(adj) == set(points)
    seen, todo = {"germany"}, ["germany"]
    while todo:
        for n in adj[todo.pop()] - seen:
            seen.add(n)
            todo.append(n)
    assert seen == set(points)


def test_incomes_are_sums_of_production(game, points):
    npl = Counter()
    for p in points.values():
        if p.kind == "land" and p.get("owner") in INCOMES:
            npl[p.get("owner")] += p.get("production")
    assert dict(npl) == INCOMES
    for power, income in INCOMES.items():
        assert game.constant(f"starting-ipc-{power}") == income
    assert npl["germany"] + npl["japan"] < game.constant("axis-economic-victory-npl")


def test_land_and_sea_fields(points):
    for p in points.values():
        if p.kind == "sea":
            assert p.get("production") is None and p.get("owner") is None
        else:
            assert isinstance(p.get("production"), int) and p.get("production") >= 0
            assert p.get("owner") in (*POWERS, "neutral")
            assert ("neutral" in p.flags) == (p.get("owner") == "neutral")
    assert sum(1 for p in points.values() if p.get("owner") == "neutral") == 14
    assert sum(p.get("production") or 0 for p in points.values()) == 147


def test_capitals(points):
    capitals = {p.get("owner"): p.id for p in points.values() if p.get("capital")}
    assert capitals == CAPITALS
    assert all("capital" in points[c].flags for c in CAPITALS.values())
    axis = [c for pw, c in CAPITALS.items() if pw in ("germany", "japan")]
    assert len(axis) == 2 and len(CAPITALS) - len(axis) == 3


def test_units_of_the_unit_table(game):
    assert {u.id for u in game.units} == set(UNIT_TABLE)
    table = game.table("unit")
    for unit_id, (cost, move, attack, defense) in UNIT_TABLE.items():
        unit = game.get("units", unit_id)
        stats = dict(unit.stats)
        assert (stats["cost"], stats["move"], stats["attack"], stats["defense"]) == \
            (cost, move, attack, defense), unit_id
        row = lookup(table, type=unit_id)
        assert (row["cost"], row["move"], row["attack"], row["defense"]) == \
            (cost, move, attack, defense), unit_id
        assert unit.name_ja


def test_units_worked_examples(game):
    cost = {u.id: u.stats["cost"] for u in game.units}
    assert 2 * cost["infantry"] + cost["armor"] == 11          # W19
    assert cost["battleship"] + cost["carrier"] == 42          # W20
    assert 3 * game.constant("research-die-cost") == 15         # W15


def test_combat_hit_table(game):
    t = game.table("combat-hit")
    assert lookup(t, value=1, roll=1)["hit"] is True            # W01
    assert lookup(t, value=1, roll=2)["hit"] is False
    assert lookup(t, value=2, roll=2)["hit"] is True            # W02
    assert lookup(t, value=2, roll=3)["hit"] is False
    for value in range(0, 7):
        for roll in range(1, 7):
            assert lookup(t, value=value, roll=roll)["hit"] is (roll <= value)
    assert game.constant("defender-rolls-against") == "defense"  # E1


def test_aa_and_research_dice(game):
    assert [lookup(game.table("aa-fire"), roll=r)["destroyed"] for r in range(1, 7)] == \
        [True, False, False, False, False, False]
    assert [lookup(game.table("research-die"), roll=r)["success"] for r in range(1, 7)] == \
        [False] * 5 + [True]
    research = game.table("research")
    assert lookup(research, dice=1) == {"cost": 5, "p_success": "1/6"}
    assert lookup(research, dice=2) == {"cost": 10, "p_success": "11/36"}
    for n in range(1, 13):
        assert lookup(research, dice=n)["cost"] == n * game.constant("research-die-cost")


def test_weapons_development_chart(game):
    chart = game.table("weapons-development")
    weapons = {w.id for w in game.extra["weapons"]}
    results = [lookup(chart, roll=r)["weapon"] for r in range(1, 7)]
    assert len(set(results)) == 6 and set(results) == weapons
    assert {b.id for b in game.get("displays", "weapons-development-chart").boxes} == weapons
    for w in game.extra["weapons"]:
        assert w.is_assumed and w.note
        for c in w.get("constants"):
            game.constant(c)


def test_placement_limits(game):
    t = game.table("placement-limit")
    assert lookup(t, factory="original", income=8)["limit"] == "unlimited"   # W26
    assert lookup(t, factory="built", income=3)["limit"] == 3                # W25
    assert game.constant("max-factories-per-territory") == 1                 # W28
    assert game.constant("max-aa-guns-per-territory") == 1


def test_victory(game):
    assert game.constant("axis-economic-victory-npl") == 84
    assert game.constant("allied-capitals-for-axis-win") == 2
    assert game.constant("axis-capitals-for-allied-win") == 2
    t = game.table("victory")

    def win(**kw):
        base = {"round_end": True, "axis_capitals_lost": 0, "allied_capitals_lost": 0,
                "axis_npl": 0}
        base.update(kw)
        return lookup(t, **base)["winner"]

    assert win(axis_npl=84) == "axis"                    # W31
    assert win(axis_npl=83) == "none"                    # W32
    assert win(axis_npl=200) == "axis"                   # open range
    assert win(allied_capitals_lost=2) == "axis"         # W33
    assert win(axis_capitals_lost=2) == "allies"         # W34
    assert win(round_end=False, axis_npl=90) == "none"   # E10: round end only
    npl = game.get("victory", "axis-economic-victory").params["npl"]
    assert game.constant(npl) == 84


def test_sequence(game):
    actions = sorted((p for p in game.sequence if p.order and p.order <= 6), key=lambda p: p.order)
    assert [p.name_ja for p in actions] == [
        "兵器開発/ユニット購入", "戦闘移動", "戦闘", "非戦闘移動",
        "購入したユニットを盤上に配置", "収入"]
    assert game.constant("actions-per-turn") == len(actions) == 6
    assert game.constant("rounds-per-year") == 4
    assert game.constant("start-year") == 1942
    steps = Counter(s.get("battle") for s in game.extra["battle-steps"])
    assert steps == {"land": 7, "sea": 8}


def test_errata(game):
    # E1-E13 read the rule text; E14 is the ruling on where a retreating attacker goes
    assert [e.id for e in game.errata] == [f"E{i}" for i in range(1, 15)]
    for e in game.errata:
        assert len(e.readings) >= 2 and e.ruling and e.rules


def test_setup(game, points):
    units = {u.id for u in game.units}
    total = Counter()
    for item in game.setup:
        for place in item.place:
            if place.unit is None:
                continue
            assert place.unit in units
            where = points[place.where]
            domain = game.get("units", place.unit).stats["domain"]
            if domain == "air" and where.kind == "sea":
                # fighters start aboard a carrier of their own power in that sea zone
                assert place.get("aboard") == "carrier"
                assert place.unit in game.constant("carrier-landing-units")
                carriers = sum(p.count for p in item.place if p.unit == "carrier")
                assert 0 < place.count <= carriers * game.constant("carrier-fighter-capacity")
            else:
                assert (where.kind == "sea") == (domain == "sea"), (item.id, place.unit)
            if where.kind == "land":
                assert where.get("owner") == item.side, item.id
            total[place.unit] += place.count
    assert total == {"infantry": 78, "armor": 19, "fighter": 19, "bomber": 4, "antiaircraft": 9,
                     "battleship": 6, "carrier": 2, "transport": 10, "submarine": 6, "factory": 8}
    factories = {p.where for i in game.setup for p in i.place if p.unit == "factory"}
    assert factories == {p.id for p in points.values() if "original-factory" in p.flags}
    assert set(CAPITALS.values()) <= factories


def test_counter_mix_covers_setup(game):
    start = Counter()
    for item in game.setup:
        for place in item.place:
            if place.unit:
                start[(item.side, place.unit)] += place.count
    mix = {(m.get("side"), m.get("unit")): m for m in game.extra["counter-mix"]}
    assert len(mix) == 5 * 10
    for (side, unit), m in mix.items():
        assert m.get("starting") == start[(side, unit)]
        assert m.get("count") == m.get("starting") + m.get("reserve") >= start[(side, unit)]
    for unit in game.units:
        assert unit.count == sum(m.get("count") for (s, u), m in mix.items() if u == unit.id)


def test_examples_and_invariants(game):
    assert [w.id for w in game.extra["worked-examples"]] == [f"W{i:02d}" for i in range(1, 36)]
    assert [i.id for i in game.extra["invariants"]] == [f"I{i}" for i in range(1, 22)]


def test_player_allocation(game):
    rows = {r.get("players"): r.get("seats") for r in game.extra["player-allocation"]}
    assert sorted(rows) == [2, 3, 4, 5]
    for players, seats in rows.items():
        assert len(seats) == players
        assert sorted(p for seat in seats for p in seat) == sorted(POWERS)
        for seat in seats:  # a player never controls powers of both alliances
            axis = game.get("alliances", "axis").get("members")
            assert len({p in axis for p in seat}) == 1

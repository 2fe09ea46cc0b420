"""engine/limits.py: the bounds on game data are at least ten times the largest figure of
the shipped games (measured here, not copied), documented, and enforced at load time."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from warpress.engine import limits
from warpress.engine.errors import DataError
from warpress.engine.loader import builtin_folder, builtin_games, load_game

DOCS = Path(__file__).resolve().parents[2] / "docs" / "data-format.md"
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _yaml_figures(path: Path) -> dict[str, int]:
    """Bytes, nodes, depth and longest integer of one shipped file, from its events."""
    text = path.read_text(encoding="utf-8")
    nodes = depth = deepest = digits = 0
    for event in yaml.parse(text, Loader=_LOADER):
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            deepest = max(deepest, depth)
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
        if isinstance(event, yaml.NodeEvent):
            nodes += 1
        if isinstance(event, yaml.ScalarEvent) and event.implicit[0] and re.fullmatch(
                r"[-+]?[0-9_]+", event.value):
            digits = max(digits, len(event.value.lstrip("+-")))
    return {"file_bytes": len(text.encode()), "nodes": nodes, "depth": deepest,
            "int_digits": digits}


def _shipped_maxima() -> dict[str, int]:
    most: dict[str, int] = {}

    def keep(name: str, value: int) -> None:
        most[name] = max(most.get(name, 0), value)

    for name in builtin_games():
        files = sorted(builtin_folder(name).glob("*.yaml"))
        keep("files", len(files))
        figures = [_yaml_figures(path) for path in files]
        keep("game_bytes", sum(f["file_bytes"] for f in figures))
        keep("nodes", sum(f["nodes"] for f in figures))
        for key in ("file_bytes", "depth", "int_digits"):
            keep(key, max(f[key] for f in figures))
        for figure, _item, _path, value in limits.figures(load_game(name)):
            keep(figure, value)
    for figure, _item, _path, value in limits.figures(_starter()):  # shipped for `new`
        keep(figure, value)
    return most


def _starter():
    """The starting game `warpress new` writes (the only shipped game with a CRT form)."""
    import tempfile

    from warpress.starter.new import new_game

    with tempfile.TemporaryDirectory() as tmp:
        new_game(str(Path(tmp) / "start"))
        return load_game(str(Path(tmp) / "start"))


def test_every_limit_is_at_least_ten_times_the_shipped_maximum():
    most = _shipped_maxima()
    bounds = {**limits.READING_LIMITS,
              **{name: limit.most for name, limit in limits.GAME_LIMITS.items()}}
    assert set(bounds) == set(most)
    for name, bound in bounds.items():
        assert bound >= 10 * most[name], f"{name}: {bound} < 10 x {most[name]}"
        assert bound <= 20 * max(most[name], 5), f"{name}: {bound} is not about 10x"


def test_every_limit_is_documented_with_its_value():
    text = DOCS.read_text(encoding="utf-8")
    section = text[text.index("## Limits"):]
    bounds = {**limits.READING_LIMITS,
              **{name: limit.most for name, limit in limits.GAME_LIMITS.items()}}
    for name, bound in bounds.items():
        assert re.search(rf"`{name}`.*\b{bound:,}\b", section), f"{name} {bound:,} not in docs"


def test_the_shipped_games_are_within_every_limit():
    for name in builtin_games():
        assert limits.check_game(load_game(name)) == []


@pytest.mark.parametrize("record,needle", [
    ("markers:\n  - {id: flood, count: 1401, source: assumed, note: x}\n",
     "markers[flood].count: 1,401 counters or cards of one record: at most 1,400"),
    ("markers:\n" + "".join(f"  - {{id: m{i}, count: 1000, source: assumed, note: x}}\n"
                            for i in range(7)),
     "units: 7,004 counters in the game (unit and marker counts): at most 7,000"),
    ("hex_maps:\n  - {id: big, columns: {count: 71}, rows: {count: 71}, source: assumed, "
     "note: x}\n", "hex_maps[big]: 5,041 hexes on one map"),
    ("hex_maps:\n  - {id: long, columns: {count: 2}, rows: {count: 2}, hex_size_mm: 4001, "
     "source: assumed, note: x}\n", "hex_maps[long].hex_size_mm: 8,002 mm across"),
    ("tracks:\n  - {id: t, values: [" + ", ".join(map(str, range(1501))) + "], "
     "source: assumed, note: x}\n", "tracks[t].values: 1,501 boxes on one track"),
    ("markers:\n" + "".join(f"  - {{id: m{i}, count: 1400, source: assumed, note: x}}\n"
                            for i in range(60))
     + "  - {id: neg, count: -84000, source: assumed, note: x}\n",
     "markers[neg].count: count -84,000: a count is 1 or more (leave it out for one)"),
    ("markers:\n  - {id: none, count: 0, source: assumed, note: x}\n",
     "markers[none].count: count 0: a count is 1 or more"),
    ("markers:\n" + "".join(f"  - {{id: m{i}, source: assumed, note: x}}\n"
                            for i in range(7001)),
     "units: 7,005 counters in the game (unit and marker counts): at most 7,000"),
    ("hex_maps:\n" + "".join(f"  - {{id: m{i}, columns: {{count: 70}}, rows: {{count: 70}}, "
                             f"source: assumed, note: x}}\n" for i in range(5)),
     "hex_maps: 24,520 hexes on all the maps: at most 5,000"),
    ("tracks:\n" + "".join(f"  - {{id: t{i}, values: [" + ", ".join(map(str, range(1000)))
                           + "], source: assumed, note: x}\n" for i in range(2)),
     "tracks: 2,004 boxes on all the tracks: at most 1,700"),
    ("displays:\n  - {id: d, source: assumed, note: x, boxes: ["
     + ", ".join(f"{{id: b{i}}}" for i in range(501)) + "]}\n",
     "displays: 501 boxes on all the displays: at most 500"),
    ("tables:\n  - {id: big, dice: none, source: assumed, note: x, results: [v], keys: "
     "[{id: n, kind: int, min: 1, max: 1900}], rows: ["
     + ", ".join(f"{{n: {i}, v: 1}}" for i in range(1, 1901)) + "]}\n",
     "tables: 1,904 rows of all the tables (a CRT: one per cell): at most 1,800"),
])
def test_a_figure_past_its_limit_is_refused_at_load_time(tiny_game, record, needle):
    (tiny_game / "zz.yaml").write_text(record, encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load_game(str(tiny_game))
    assert [str(p) for p in caught.value.problems if needle in str(p)], caught.value


def test_a_figure_at_its_limit_is_taken(tiny_game):
    (tiny_game / "zz.yaml").write_text(
        "markers:\n  - {id: flood, count: 1400, source: assumed, note: x}\n", encoding="utf-8")
    assert load_game(str(tiny_game)).get("markers", "flood").count == 1400


def test_a_crt_of_more_columns_than_a_page_holds_is_refused(corps_game):
    from data_edits import edit

    columns = [f"{i + 1}-1" for i in range(71)]
    edit(corps_game, 'columns: ["1-1", "2-1", "3-1", "4-1", "5-1", "6-1"]',
         f"columns: {columns}".replace("'", '"'), "combat.yaml")
    with pytest.raises(DataError) as caught:
        load_game(str(corps_game))
    assert any("tables[crt].crt.columns: 71 columns of a combat results table: at most 70"
               in str(p) for p in caught.value.problems), caught.value

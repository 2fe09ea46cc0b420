"""The hostile game folders: what an attacker (or a careless designer) hands over, each built
from a copy of the corps fixture (tests/fixtures/games/corps) by ``FOLDERS[name](root)``.
The YAML files of tests/fixtures/hostile/ are single hostile files dropped into a game;
these are whole folders, most of them too big to keep as files. (tests/conftest.py puts
this folder on ``sys.path``.)

``REFUSED`` names the folders every command that loads the game refuses (exit 2, one line
per problem); the others load, and every command must still answer within the bounds.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path

CORPS = Path(__file__).resolve().parent / "fixtures" / "games" / "corps"

#: The marker file a folder's Python writes when it runs (it must not, untrusted).
MARKER = "ran"


def _corps(root: Path, name: str) -> Path:
    """A copy of corps as ``root/name`` (its id changed to ``name``)."""
    folder = root / name
    shutil.copytree(CORPS, folder)
    game = folder / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("id: corps", f"id: {name}", 1),
                    encoding="utf-8")
    return folder


def _replace(folder: Path, file: str, old: str, new: str) -> None:
    path = folder / file
    text = path.read_text(encoding="utf-8")
    assert old in text, f"corps lacks {old!r} in {file}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def escaped_id(root: Path) -> Path:
    """A unit id leading out of every folder: its piece images would land outside --out."""
    folder = _corps(root, "escaped-id")
    for old in ("{id: s3,", "unit: s3,"):
        _replace(folder, "units.yaml", old, old.replace("s3", '"s5/../../../../ESCAPED"'))
    return folder


def _crt(columns: int, name: str) -> Callable[[Path], Path]:
    def build(root: Path) -> Path:
        """A CRT of ``columns`` columns (each one scanned for every row, once)."""
        folder = _corps(root, name)
        path = folder / "combat.yaml"
        text = path.read_text(encoding="utf-8")
        heads = ", ".join(f'"{i + 1}-1"' for i in range(columns))
        cells = ", ".join(["DR"] * columns)
        grid = "".join(f"        {roll}: [{cells}]\n" for roll in range(1, 7))
        start, end = text.index("      columns:"), text.index("      below:")
        text = f"{text[:start]}      columns: [{heads}]\n{text[end:]}"
        start, end = text.index("      grid:"), text.index("\nterrain:")
        path.write_text(f"{text[:start]}      grid:\n{grid}{text[end:]}", encoding="utf-8")
        return folder

    build.__doc__ = f"A CRT of {columns:,} columns."
    return build


def _die_rows(rows: int, name: str) -> Callable[[Path], Path]:
    def build(root: Path) -> Path:
        folder = _corps(root, name)
        body = "".join(f"      - {{roll: {i}, hits: 1}}\n" for i in range(1, rows + 1))
        (folder / "big.yaml").write_text(
            f"tables:\n  - id: big\n    rule: '1'\n    dice: none\n    keys:\n"
            f"      - {{id: roll, kind: int, min: 1, max: {rows}}}\n    results: [hits]\n"
            f"    rows:\n{body}", encoding="utf-8")
        return folder

    build.__doc__ = f"A die table of {rows:,} rows."
    return build


def _maps(count: int, name: str) -> Callable[[Path], Path]:
    def build(root: Path) -> Path:
        folder = _corps(root, name)
        (folder / "more-maps.yaml").write_text("hex_maps:\n" + "".join(
            f"  - {{id: m{i}, columns: {{count: 70}}, rows: {{count: 70}}, rule: '1'}}\n"
            for i in range(count)), encoding="utf-8")
        return folder

    build.__doc__ = f"{count} more maps of 4,900 hexes, each within its own limit."
    return build


def negative_count(root: Path) -> Path:
    """60 markers of 1,400 and one of -84,000: each within its limit, the total negative."""
    folder = _corps(root, "negative-count")
    (folder / "markers.yaml").write_text("markers:\n" + "".join(
        f"  - {{id: m{i}, count: 1400, rule: '1'}}\n" for i in range(60))
        + "  - {id: minus, count: -84000, rule: '1'}\n", encoding="utf-8")
    return folder


def no_counts(root: Path) -> Path:
    """15,003 markers without a count (one counter drawn each), in three files."""
    folder = _corps(root, "no-counts")
    for part in range(3):
        (folder / f"markers-{part}.yaml").write_text("markers:\n" + "".join(
            f"  - {{id: m{part}-{i}, rule: '1'}}\n" for i in range(5001)), encoding="utf-8")
    return folder


def terminal_controls(root: Path) -> Path:
    """Names that would clear the screen, print a fake 'data OK', set the window title,
    write the clipboard and reverse the text."""
    folder = _corps(root, "terminal-controls")
    _replace(folder, "game.yaml", "name: Corps test game",
             'name: "\\e[2J\\e[Hdata OK \\e]0;pwned\\a\\e]52;c;ZWNobyBoaQ==\\a\\u202eevil"')
    _replace(folder, "units.yaml", "name: XXIV Panzer", 'name: "\\e[31mXXIV\\x9b2J"')
    return folder


def python_marker(root: Path) -> Path:
    """rules.py, checks.py, kit.py and a referee that each leave a marker when run."""
    folder = _corps(root, "python-marker")
    mark = f"(__import__('pathlib').Path(__file__).resolve().parent / {MARKER!r}).touch()\n"
    for name in ("rules.py", "checks.py", "kit.py"):
        (folder / name).write_text(mark, encoding="utf-8")
    return folder


def zero_columns(root: Path) -> Path:
    """A hex map of 0 columns."""
    folder = _corps(root, "zero-columns")
    _replace(folder, "map.yaml", "columns: {count: 10,", "columns: {count: 0,")
    return folder


def side_without_id(root: Path) -> Path:
    folder = _corps(root, "side-without-id")
    _replace(folder, "game.yaml", "- {id: germany, name: German}", "- {name: German}")
    return folder


def empty_table(root: Path) -> Path:
    folder = _corps(root, "empty-table")
    (folder / "empty.yaml").write_text("tables:\n  - {}\n", encoding="utf-8")
    return folder


def crt_column_zero(root: Path) -> Path:
    """A CRT column "0" (no odds)."""
    folder = _corps(root, "crt-column-zero")
    _replace(folder, "combat.yaml", 'columns: ["1-1"', 'columns: ["0"')
    return folder


def long_values(root: Path) -> Path:
    """A name of 100,000 characters and an unknown key of 10,000."""
    folder = _corps(root, "long-values")
    _replace(folder, "units.yaml", "name: XXIV Panzer", "name: " + "X" * 100_000)
    _replace(folder, "units.yaml", "{id: g2,", "{id: g2, " + "k" * 10_000 + ": 1,")
    return folder


def formula_points(root: Path) -> Path:
    """A table the play aid tries to print as its rule: 100 sides by 60 rolls (6,000
    lookups), answered by 1,700 rows (each lookup used to scan every row)."""
    folder = _corps(root, "formula-points")
    cuts = [1 + round(i * 60 / 17) for i in range(18)]
    rows = "".join(f"      - {{side: s{side}, roll: [{lo}, {hi - 1}], r: {(side + i) % 3}}}\n"
                   for side in range(100) for i, (lo, hi) in enumerate(pairwise(cuts)))
    sides = ", ".join(f"s{i}" for i in range(100))
    (folder / "big.yaml").write_text(
        f"tables:\n  - id: big\n    rule: '1'\n    dice: none\n    keys:\n"
        f"      - {{id: side, kind: enum, values: [{sides}]}}\n"
        f"      - {{id: roll, kind: int, min: 1, max: 60}}\n    results: [r]\n"
        f"    rows:\n{rows}", encoding="utf-8")
    _replace(folder, "units.yaml", "tables: [crt]", "tables: [crt, big]")
    return folder


FOLDERS: dict[str, Callable[[Path], Path]] = {
    "escaped-id": escaped_id,
    "crt-400-columns": _crt(400, "crt-400-columns"),
    "crt-10000-columns": _crt(10_000, "crt-10000-columns"),
    "die-3000-rows": _die_rows(3_000, "die-3000-rows"),
    "maps-5x4900": _maps(5, "maps-5x4900"),
    "maps-10x4900": _maps(10, "maps-10x4900"),
    "negative-count": negative_count,
    "no-counts": no_counts,
    "terminal-controls": terminal_controls,
    "python-marker": python_marker,
    "zero-columns": zero_columns,
    "side-without-id": side_without_id,
    "empty-table": empty_table,
    "crt-column-zero": crt_column_zero,
    "long-values": long_values,
    # at the limits: loaded, and every command answers within the bounds
    "crt-70-columns": _crt(70, "crt-70-columns"),
    "die-1700-rows": _die_rows(1_700, "die-1700-rows"),
    "formula-points": formula_points,
}

#: Refused when loaded (exit 2 wherever the game is loaded).
REFUSED = frozenset({"escaped-id", "crt-400-columns", "crt-10000-columns", "die-3000-rows",
                     "maps-5x4900", "maps-10x4900", "negative-count", "no-counts",
                     "zero-columns", "side-without-id", "empty-table", "crt-column-zero",
                     "long-values"})

"""The hostile game folders: what an attacker (or a careless designer) hands over, each built
from a copy of the corps fixture (tests/fixtures/games/corps) by ``FOLDERS[name](root)``.
The YAML files of tests/fixtures/hostile/ are single hostile files dropped into a game;
these are whole folders, most of them too big to keep as files. (tests/conftest.py puts
this folder on ``sys.path``.)

``REFUSED`` names the folders every command that loads the game refuses (exit 2, one line
per problem); the others load, and every command must still answer within the bounds.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path

from warpress.starter.new import new_game

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


def _added(name: str, files: dict[str, str]) -> Callable[[Path], Path]:
    """A builder of corps with ``files`` (name -> YAML text) added."""
    def build(root: Path) -> Path:
        folder = _corps(root, name)
        for file, text in files.items():
            (folder / file).write_text(text, encoding="utf-8")
        return folder

    return build


def _die_table(rows: int) -> dict[str, str]:
    """A die table of ``rows`` rows."""
    body = "".join(f"      - {{roll: {i}, hits: 1}}\n" for i in range(1, rows + 1))
    return {"big.yaml": f"tables:\n  - id: big\n    rule: '1'\n    dice: none\n    keys:\n"
                        f"      - {{id: roll, kind: int, min: 1, max: {rows}}}\n"
                        f"    results: [hits]\n    rows:\n{body}"}


def _more_maps(count: int) -> dict[str, str]:
    """``count`` more maps of 4,900 hexes, each within its own limit."""
    return {"more-maps.yaml": "hex_maps:\n" + "".join(
        f"  - {{id: m{i}, columns: {{count: 70}}, rows: {{count: 70}}, rule: '1'}}\n"
        for i in range(count))}


#: 60 markers of 1,400 and one of -84,000: each within its limit, the total negative
NEGATIVE = {"markers.yaml": "markers:\n" + "".join(
    f"  - {{id: m{i}, count: 1400, rule: '1'}}\n" for i in range(60))
    + "  - {id: minus, count: -84000, rule: '1'}\n"}
#: 15,003 markers without a count (one counter drawn each), in three files
NO_COUNTS = {f"markers-{part}.yaml": "markers:\n" + "".join(
    f"  - {{id: m{part}-{i}, rule: '1'}}\n" for i in range(5001)) for part in range(3)}


def python_marker(root: Path) -> Path:
    """rules.py, checks.py, kit.py and a referee that each leave a marker when run."""
    folder = _corps(root, "python-marker")
    mark = f"(__import__('pathlib').Path(__file__).resolve().parent / {MARKER!r}).touch()\n"
    for name in ("rules.py", "checks.py", "kit.py"):
        (folder / name).write_text(mark, encoding="utf-8")
    return folder


def _starter(root: Path, name: str) -> Path:
    """The starting game as ``warpress new`` writes it (a game with play rules: sessions and
    balance play it), as ``root/name``."""
    return new_game(str(root / name)).folder


def _python_fifo(base: Callable[[Path, str], Path], name: str) -> Callable[[Path], Path]:
    def build(root: Path) -> Path:
        """A FIFO named like a module: whoever reads it waits for a writer that never
        comes."""
        folder = base(root, name)
        os.mkfifo(folder / "helpers.py")
        return folder

    return build


def python_huge(root: Path) -> Path:
    """6 MB of Python, a statement a line: compiling it takes seconds and gigabytes."""
    folder = _corps(root, "python-huge")
    (folder / "helpers.py").write_text("x\n" * 3_000_000, encoding="utf-8")
    return folder


def play_python_marker(root: Path) -> Path:
    """The starting game with session rules (rules/session.py), checks and kit parts that
    each leave a marker when run."""
    folder = _starter(root, "play-python-marker")
    mark = f"(__import__('pathlib').Path(__file__).resolve().parents[1] / {MARKER!r}).touch()\n"
    (folder / "rules").mkdir()
    for name in ("rules/__init__.py", "rules/session.py"):
        (folder / name).write_text(mark, encoding="utf-8")
    for name in ("checks.py", "kit.py"):
        (folder / name).write_text(mark.replace("parents[1]", "parent"), encoding="utf-8")
    return folder


def _edited(name: str, *edits: tuple[str, str, str],
            base: Callable[[Path, str], Path] = _corps) -> Callable[[Path], Path]:
    """A builder of corps (or another ``base``) with ``edits`` (file, old text, new text)
    made."""
    def build(root: Path) -> Path:
        folder = base(root, name)
        for file, old, new in edits:
            _replace(folder, file, old, new)
        return folder

    return build


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
    "die-3000-rows": _added("die-3000-rows", _die_table(3_000)),
    "maps-5x4900": _added("maps-5x4900", _more_maps(5)),
    "maps-10x4900": _added("maps-10x4900", _more_maps(10)),
    "negative-count": _added("negative-count", NEGATIVE),
    "no-counts": _added("no-counts", NO_COUNTS),
    # names that would clear the screen, print a fake 'data OK', set the window title, write
    # the clipboard and reverse the text
    "terminal-controls": _edited(
        "terminal-controls",
        ("game.yaml", "name: Corps test game",
         'name: "\\e[2J\\e[Hdata OK \\e]0;pwned\\a\\e]52;c;ZWNobyBoaQ==\\a\\u202eevil"'),
        ("units.yaml", "name: XXIV Panzer", 'name: "\\e[31mXXIV\\x9b2J"')),
    "python-marker": python_marker,
    # a game sessions play, its names as above: what play new, status, moves and log print
    "play-terminal-controls": _edited(
        "play-terminal-controls",
        ("game.yaml", 'name: "Play terminal controls"',
         'name: "\\e[2J\\e[Hdata OK \\e]0;pwned\\a\\u202eevil"'),
        ("game.yaml", "name: North,", 'name: "\\e]52;c;ZWNobyBoaQ==\\aNorth\\u2066",'),
        ("units.yaml", "name: Guards Tank Corps", 'name: "\\e[31mGuards\\x9b2J"'),
        ("play.yaml", "name: North movement", 'name: "\\e[1mNorth movement\\u202e"'),
        base=_starter),
    "python-fifo": _python_fifo(_corps, "python-fifo"),
    "play-python-fifo": _python_fifo(_starter, "play-python-fifo"),
    "play-python-marker": play_python_marker,
    "python-huge": python_huge,
    "zero-columns": _edited("zero-columns", ("map.yaml", "columns: {count: 10,",
                                             "columns: {count: 0,")),
    "side-without-id": _edited("side-without-id", ("game.yaml", "- {id: germany, name: German}",
                                                   "- {name: German}")),
    "empty-table": _added("empty-table", {"empty.yaml": "tables:\n  - {}\n"}),
    "crt-column-zero": _edited("crt-column-zero", ("combat.yaml", 'columns: ["1-1"',
                                                   'columns: ["0"')),
    # a name of 100,000 characters and an unknown key of 10,000
    "long-values": _edited("long-values",
                           ("units.yaml", "name: XXIV Panzer", "name: " + "X" * 100_000),
                           ("units.yaml", "{id: g2,", "{id: g2, " + "k" * 10_000 + ": 1,")),
    # at the limits: loaded, and every command answers within the bounds
    "crt-70-columns": _crt(70, "crt-70-columns"),
    "die-1700-rows": _added("die-1700-rows", _die_table(1_700)),
    "formula-points": formula_points,
}

#: Refused when loaded (exit 2 wherever the game is loaded).
REFUSED = frozenset({"escaped-id", "crt-400-columns", "crt-10000-columns", "die-3000-rows",
                     "maps-5x4900", "maps-10x4900", "negative-count", "no-counts",
                     "zero-columns", "side-without-id", "empty-table", "crt-column-zero",
                     "long-values"})

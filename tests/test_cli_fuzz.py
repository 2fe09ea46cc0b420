"""Fuzzing the command line: hypothesis draws arguments for every command and subcommand
click knows (read from the click tree, so a new command is fuzzed too), from pools of likely
words (games, tables, input names, fighters, hexes), hostile values (Unicode digits, 4,301
digits, names of 300 and 5,000 characters, NUL, unknown tables, the hostile YAML corpus,
hostile game folders, folders the system will not search) and arbitrary text. Every run must
exit 0, 1 or 2, print no traceback, and print at most three lines on stderr.

CI runs ``FUZZ_EXAMPLES`` examples (300, a few seconds); set ``WARPRESS_FUZZ_EXAMPLES``
(e.g. 5000) for a longer run with fresh random draws:

    WARPRESS_FUZZ_EXAMPLES=5000 python -m pytest -q tests/test_cli_fuzz.py

Two commands are stubbed to keep an example in milliseconds, as their work is tested
elsewhere: `build` lays out nothing (components.kit.build_kit: its options are still
parsed, its folder checked), and `verify` without --data runs no rule invariants.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from warpress.cli import main

FUZZ_EXAMPLES = 300
EXAMPLES = int(os.environ.get("WARPRESS_FUZZ_EXAMPLES") or FUZZ_EXAMPLES)
HOSTILE = sorted((Path(__file__).parent / "fixtures" / "hostile").glob("*.yaml"))

#: Values that broke or might break a parser.
NASTY = ["", " ", "0", "1", "6", "-1", "+3", "²", "٣", "９", "1_000", "1e3", "0x10", "nan",
         "inf", "9" * 19, "1" * 4301, "x" * 300, "yes", "no", "YES", "none", "null",
         ",", ",,", "=", "a=b=c", "--", "-", "--json", "\u202e", "🎲", "\n", "1,2,3",
         "x" * 5000, "\x1b[2J", "nosuch",
         "\udcff"]  # a byte of argv that is not UTF-8, as Python decodes it
#: A path the system refuses to search (longer than any path it takes: ENAMETOOLONG).
UNSEARCHABLE = "deep/" * 900 + "x"
#: Hostile game folders (tests/hostile_folders.py) each refused, or answered, in one line.
FOLDERS = ("escaped-id", "negative-count", "zero-columns", "crt-column-zero",
           "terminal-controls", "python-marker")
#: Text as argv can hold it: anything but NUL (no command line can pass one).
TEXT = st.text(st.characters(blacklist_characters="\0"), max_size=12)


def commands(group: click.Group = main, prefix: tuple[str, ...] = ()) -> list:
    """Every (path, command) of the click tree, groups included."""
    out = []
    for name, command in sorted(group.commands.items()):
        out.append((prefix + (name,), command))
        if isinstance(command, click.Group):
            out.extend(commands(command, prefix + (name,)))
    return out


@cache
def pools() -> dict[str, list[str]]:
    """Likely words per parameter name, read from the shipped games."""
    from warpress.engine.catalogue import ref_tables
    from warpress.engine.loader import builtin, builtin_games

    tables, inputs = set(), set()
    for name in builtin_games():
        for table_name, table in ref_tables(builtin(name)).items():
            tables.add(table_name)
            inputs.update(i.name for i in table.inputs)
    games = [*builtin_games(), "all", "nosuch", ".", "/", "/dev/null", str(HOSTILE[0]),
             UNSEARCHABLE, *(f"hostile/{name}" for name in FOLDERS)]
    return {
        "game": games,
        "game_folder": games,
        "folder": games,
        "table": [*sorted(tables), "nosuch", "x" * 300, "crt", "combat"],
        "input": sorted(inputs),
        "value": ["1 infantry", "2 armor, 1 fighter", "1001 infantry", "٣ infantry",
                  "3 infantry x2", "4/2", "4/²", "3*", "2*", "N", "SE", "0712", "F,F",
                  "a6m", "carrier", "full", "akagi:3:full", "1,2", "air-superiority"],
        "fighter": ["231", "232", "201", "301", "²", "0"],
        "path": ["F", "F,F", "F,F,L,F", "R,R,R", "L" * 40, "F,²", "X"],
        "hex": ["0712", "1824", "0101", "9999", "07١2", "radio-beacon-box"],
        "counter": ["freya", "wurzburg", "wurzburg#2", "freya#9", "gci"],
        "facing": ["N", "NE", "0", "5", "6", "-1", "²"],
        "scenario": ["cats-eye", "kammhuber-line", "tame-boar", "nosuch",
                     *map(str, HOSTILE[:4])],
        "seed": ["0", "7", "123456789012345678", "1234567890123456789", "-3", "²"],
        "paper_name": ["a4", "letter", "a3", "tabloid", "a0", "A4"],
        "formats": ["pdf", "svg", "png", "pdf,svg", "pdf,,svg", "bmp", "PNG"],
        "dpi": ["150", "10", "600", "9", "601", "٣٠٠"],
        "duplex": ["long", "short", "both"],
        "back_offset": ["0,0", "1.5,-2", "11,0", "nan,0", "inf,1", "1", "1,2,3"],
        "only": ["map", "counters", "cards,sheets", "map,,", "everything"],
        "indent": ["0", "2", "16", "17", "99999", "-1"],
        "map_file": ["m.svg", "m.png", "m.txt", "nodir/m.svg", "x" * 300 + ".svg"],
    }


def word(name: str, session: str):
    """A strategy for the value of parameter ``name``."""
    likely = pools().get(name, [])
    if name == "session_dir":
        likely = [session, "fresh", "nosuch/deeper", "s" * 300, str(HOSTILE[0]), UNSEARCHABLE]
    if name == "out_dir":
        likely = ["out", "/dev/null", str(HOSTILE[0]), "o" * 300, UNSEARCHABLE]
    return st.one_of(st.sampled_from(likely or NASTY), st.sampled_from(NASTY),
                     TEXT)


@st.composite
def pair(draw, session: str) -> str:
    name = draw(st.one_of(st.sampled_from(pools()["input"]), TEXT))
    value = draw(st.one_of(st.sampled_from(pools()["value"]), word("value", session)))
    return f"{name}={value}"


@st.composite
def invocation(draw, session: str) -> list[str]:
    """A command path and arguments for it: mostly well-formed, sometimes not."""
    path, command = draw(st.sampled_from(commands()))
    args = list(path)
    for param in command.params:
        if isinstance(param, click.Argument):
            if param.nargs == -1:
                args += draw(st.lists(pair(session), max_size=4))
            elif draw(st.integers(0, 9)):  # now and then an argument is left out
                args.append(draw(word(param.name, session)))
        elif draw(st.booleans()):
            args.append(draw(st.sampled_from(param.opts)))
            if not param.is_flag:
                args.append(draw(word(param.name, session)))
    if not draw(st.integers(0, 5)):  # a stray word or option somewhere
        junk = draw(st.one_of(st.sampled_from(["--bogus", "-x", "--help", "extra"]),
                              st.sampled_from(NASTY)))
        args.insert(draw(st.integers(0, len(args))), junk)
    return args


@pytest.fixture(scope="module")
def fuzz_place(tmp_path_factory):
    """A folder to run in, holding a live referee session; the slow work stubbed."""
    import warpress.cli.designer as cli
    import warpress.components.kit as kit
    from hostile_folders import FOLDERS as BUILDERS

    place = tmp_path_factory.mktemp("fuzz")
    for name in FOLDERS:
        BUILDERS[name](place / "hostile")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(place)
        patch.delenv("WARPRESS_SESSION", raising=False)
        patch.setattr(cli, "_run_invariants", lambda *args, **kwargs: False)
        patch.setattr(kit, "build_kit", lambda game, out, options, *args, **kwargs:
                      kit.BuildResult(game.id, Path(out) / game.id, (), 0, 0.0))
        result = CliRunner().invoke(main, ["referee", "new", "nightfighter", "--seed", "7",
                                           "--session", "live"])
        assert result.exit_code == 0, result.output
        yield place


#: A group given no command prints its help (click: on stderr, exit 2; tests/test_cli.py).
GROUPS = {path for path, command in commands() if isinstance(command, click.Group)} | {()}


def check(result, args) -> None:
    shown = f"warpress {args!r}\n{result.output}"
    bare = tuple(a for a in args if a != "--") in GROUPS  # '--' ends options, nothing else
    if bare and result.exit_code == 2 and "Commands:" in result.output:
        return
    assert result.exit_code in (0, 1, 2), shown
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        shown, result.exc_info)
    assert "Traceback" not in result.output, shown
    assert len([line for line in result.stderr.splitlines() if line.strip()]) <= 3, shown


@settings(max_examples=EXAMPLES, deadline=None, derandomize=EXAMPLES == FUZZ_EXAMPLES,
          database=None, suppress_health_check=[HealthCheck.too_slow,
                                                HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_every_command_exits_0_1_or_2_in_at_most_three_lines(fuzz_place, data):
    args = data.draw(invocation(str(fuzz_place / "live")), label="args")
    check(CliRunner().invoke(main, args), args)


@pytest.mark.parametrize("path", [p for p, _c in commands()], ids=" ".join)
def test_every_command_has_help(path):
    result = CliRunner().invoke(main, [*path, "--help"])
    assert result.exit_code == 0 and "Usage:" in result.output

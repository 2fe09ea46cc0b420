"""The data-facing commands: games, schema, errata, verify all."""

from __future__ import annotations

import json
import re
from pathlib import Path

import click
import jsonschema
import pytest
import yaml
from click.testing import CliRunner
from warpress.cli import main, referee
from warpress.components.export import EXPORTS
from warpress.components.kit import FORMATS, PARTS
from warpress.components.page import PAPERS
from warpress.engine.gamelist import GAMES_DIR
from warpress.engine.loader import builtin_games

GAMES = tuple(builtin_games())


def _run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_the_five_games_ship():
    assert builtin_games() == GAMES


def test_games_lists_kind_counts_and_provenance_share():
    result = _run("games", "--json")
    assert result.exit_code == 0, result.output
    rows = {row["id"]: row for row in json.loads(result.output)["games"]}
    assert set(rows) == set(GAMES)
    for row in rows.values():
        assert row["sourced"] + row["assumed"] == row["values"] > 0
        assert row["sourced_pct"] + row["assumed_pct"] == pytest.approx(100.0)
    assert rows["midway"]["kind"] == "hex" and rows["nimitz"]["kind"] == "point-to-point"
    assert rows["midway"]["components"]["cards"] == 8
    text = _run("games").output
    assert all(g in text for g in GAMES) and "% sourced" in text


def test_verify_all_data_passes():
    result = _run("verify", "all", "--data")
    assert result.exit_code == 0, result.output
    assert result.output.count(": data OK:") == 5


def test_schema_is_valid_and_every_shipped_file_follows_it():
    schema = json.loads(_run("schema").output)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for path in sorted(GAMES_DIR.glob("*/*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        errors = sorted(validator.iter_errors(data), key=str)
        assert not errors, f"{path.name}: {errors[0].message} at {list(errors[0].path)}"


def test_schema_rejects_what_the_loader_rejects():
    schema = json.loads(_run("schema").output)
    bad = {"units": [{"id": "tank", "type": "armor", "count": "four", "rule": "1"}]}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema)


def test_errata_prints_readings_and_ruling():
    result = _run("errata", "midway")
    assert result.exit_code == 0
    assert "E1 [" in result.output and "ruling:" in result.output and "reading:" in result.output


def test_errata_all_gives_every_game_under_its_heading():
    """``all`` as ``games``, ``verify``, ``build`` and ``export`` take it."""
    result = _run("errata", "all")
    assert result.exit_code == 0, result.output
    headings = [line for line in result.output.splitlines()
                if re.fullmatch(r"[a-z-]+: \d+ errata", line)]
    assert [h.split(":")[0] for h in headings] == list(GAMES)
    midway = _run("errata", "midway").output
    assert midway in result.output


@pytest.mark.parametrize("args,needle", [
    (("tables", "axis-allies", "extra"), "tables: Got unexpected extra argument (extra)"),
    (("referee", "new"), "referee new: Missing argument 'GAME'"),
    (("--bogus",), "No such option '--bogus'"),
    (("nosuchcmd",), "No such command 'nosuchcmd'"),
    (("lookup", "midway"), "lookup: Missing argument 'TABLE'"),
    (("referee", "status", "--bogus"), "referee status: No such option '--bogus'"),
    (("play", "moves", "--bogus"), "play moves: No such option '--bogus'"),
    (("build", "midway", "--paper"), "build: Option '--paper' requires an argument"),
    (("referee", "new", "nightfighter", "--seed"), "referee new: Option '--seed' requires"),
])
def test_usage_errors_are_one_line_with_the_help_to_see(args, needle):
    result = _run(*args)
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert result.exit_code == 2 and len(lines) == 1, result.output
    assert lines[0].startswith("warpress: ") and needle in lines[0]
    assert "--help')" in lines[0] and "Traceback" not in result.output


def test_a_bare_group_still_prints_its_help():
    result = _run("referee")
    assert result.exit_code == 2 and "Commands:" in result.output


TINY = str(Path(__file__).parent / "fixtures" / "games" / "tiny")


def test_games_takes_a_folder_or_a_game():
    rows = json.loads(_run("games", TINY, "--json").output)["games"]
    assert [(row["id"], row["components"]["hexes"]) for row in rows] == [("tiny", 20)]
    assert [row["id"] for row in json.loads(_run("games", "midway", "--json").output)["games"]
            ] == ["midway"]
    text = _run("games", TINY).output
    assert text.startswith("tiny ") and "1 errata" in text


def test_games_refuses_an_unknown_game_in_one_line():
    result = _run("games", "no-such-game")
    assert result.exit_code == 2
    assert "unknown game 'no-such-game'" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("args, shows", [
    (("tables",), "hit  [4.1]  Hit table"),
    (("verify", "--data"), "tiny: data OK:"),
    (("errata",), "E1 [2.1, 3.1] Capacity given twice"),
])
def test_the_data_commands_take_a_game_folder(args, shows):
    result = _run(args[0], TINY, *args[1:])
    assert result.exit_code == 0, result.output
    assert shows in result.output


def test_build_takes_a_game_folder(tmp_path):
    result = _run("build", TINY, "--out", str(tmp_path), "--format", "pdf")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "tiny" / "tiny.pdf").is_file()


def test_schema_refuses_an_unknown_feature_key_as_the_loader_does():
    schema = json.loads(_run("schema").output)
    feature = {"id": "town", "kind": "town", "hexes": ["A-1"], "color": "red"}
    bad = {"hex_maps": [{"id": "m", "columns": {"count": 2}, "rows": {"count": 2},
                         "source": "assumed", "note": "x",
                         "features": [{**feature, "hexs": ["9999"]}]}]}
    jsonschema.validate({"hex_maps": [{**bad["hex_maps"][0], "features": [feature]}]}, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema)


def _groups(group, path=()):
    """Every group of the command line with its path (``()``: ``warpress`` itself)."""
    yield path, group
    ctx = click.Context(group, info_name="warpress")
    for name in group.list_commands(ctx):
        sub = group.get_command(ctx, name)
        if isinstance(sub, click.Group):
            yield from _groups(sub, (*path, name))


def _listing(output: str) -> dict[str, str]:
    """The commands of a ``--help`` page with their short help, continuation lines joined."""
    rows: dict[str, str] = {}
    lines = output.split("Commands:\n", 1)[1].splitlines()
    for line in lines:
        head = re.match(r"  (\S+)  +(.*)$", line)
        if head:
            name = head.group(1)
            rows[name] = head.group(2)
        elif line.startswith("   ") and rows:
            rows[name] += " " + line.strip()
        else:
            break
    return rows


@pytest.mark.parametrize("width", [40, 50, 55, 60, 66, 70, 75, 78, 80, 120])
def test_no_short_help_in_a_listing_leaves_a_bracket_open(monkeypatch, width):
    """Click cuts a command's first sentence at its first full stop ("e.g.") or at the
    listing's width ("..."): every short help any group's --help lists closes what it opens."""
    monkeypatch.setenv("COLUMNS", str(width))
    seen = 0
    for path, group in _groups(main):
        result = CliRunner().invoke(main, [*path, "--help"])
        assert result.exit_code == 0, result.output
        rows = _listing(result.output)
        ctx = click.Context(group, info_name="warpress")
        assert set(rows) == {n for n in group.list_commands(ctx)
                             if not group.get_command(ctx, n).hidden}
        for name, text in rows.items():
            for opening, closing in ("()", "[]", "{}"):
                assert text.count(opening) == text.count(closing), (path, name, text)
        seen += len(rows)
    assert seen >= 25


def test_a_seed_past_18_digits_is_told_so():
    result = _run("roll", "midway", "carrier-damage", "damaged=no", "--seed", "9" * 19)
    assert result.exit_code == 2
    assert "a whole number of at least 0, at most 18 digits" in " ".join(result.output.split())


@pytest.mark.parametrize("args, line", [
    (["lookup", "midway", "carier-damage"], "warpress: unknown table 'carier-damage' for midway: "
     "did you mean 'carrier-damage'? (warpress tables midway lists them all)"),
    (["build", "midway", "--only", "maps"], "warpress: unknown kit part 'maps' for --only: "
     "did you mean 'map'? (allowed: map, counters, cards, sheets)"),
    (["build", "midway", "--paper", "lettre"], "warpress: unknown paper 'lettre': did you "
     "mean 'letter'? (allowed: a4, letter, a3, tabloid)"),
    (["build", "midway", "--format", "pfd"], "warpress: unknown format 'pfd': did you mean "
     "'pdf'? (allowed: pdf, svg, png)"),
    (["export", "midway", "--format", "vasal"], "warpress: unknown export format 'vasal': did "
     "you mean 'vassal'? (allowed: pieces, vassal, tts)"),
])
def test_a_typo_is_answered_with_the_name_meant(args, line, tmp_path):
    result = CliRunner().invoke(main, [*args, *(["--out", str(tmp_path)] if args[0] in (
        "build", "export") else [])])
    assert result.exit_code == 2 and result.output == line + "\n"
    assert not any(tmp_path.iterdir())


def test_an_unknown_table_far_from_every_name_lists_some_and_where_to_see_them():
    result = CliRunner().invoke(main, ["lookup", "midway", "zzzz"])
    assert result.exit_code == 2
    assert "(tables: aa-dice, " in result.output and "warpress tables midway)" in result.output


@pytest.mark.parametrize("error, shown", [
    (OSError(5, "Input/output error", "/media/card/game.yaml"),
     "cannot read or write '/media/card/game.yaml': Input/output error"),
    (OSError(24, "Too many open files"), "cannot read or write: Too many open files"),
], ids=["a file", "no file"])
def test_any_other_os_error_is_one_line(monkeypatch, error, shown):
    """An OSError no command expected (a failing disk, a limit of the system) is one line
    naming the file when there is one, exit 2: never a traceback."""
    def failing(*args, **kwargs):
        raise error

    monkeypatch.setattr(referee, "load_cached", failing)
    out = CliRunner().invoke(main, ["tables", "midway"], env={"COLUMNS": "200"})
    assert (out.exit_code, out.output) == (2, f"warpress: {shown}\n")


def test_the_closed_options_list_what_the_kit_and_the_exports_take():
    """--paper, --format and --only of build and --format of export are the lists of the
    parts that take them, shown in --help."""
    options = {p.name: p.type for p in main.commands["build"].params}
    assert options["paper_name"].choices == tuple(PAPERS)
    assert options["formats"].choices == FORMATS and options["only"].choices == PARTS
    export = {p.name: p.type for p in main.commands["export"].params}
    assert export["fmt"].choices == tuple(EXPORTS)
    shown = " ".join(_run("build", "--help").output.split())
    assert "--paper [a4|letter|a3|tabloid]" in shown
    assert "--only [map|counters|cards|sheets],..." in shown
    assert "--format [pieces|vassal|tts]" in " ".join(_run("export", "--help").output.split())


@pytest.mark.parametrize("args, line", [
    (["build", "no-such-game", "--paper", "lettre"], "unknown paper 'lettre'"),
    (["build", "no-such-game", "--format", "pdf,gif"], "unknown format 'gif'"),
    (["build", "no-such-game", "--only", "map,dice"], "unknown kit part 'dice' for --only"),
    (["export", "no-such-game", "--format", "vmod"], "unknown export format 'vmod'"),
])
def test_a_closed_option_is_refused_before_any_game_is_read(args, line):
    result = _run(*args)
    assert result.exit_code == 2 and result.output.startswith(f"warpress: {line}")
    assert "no-such-game" not in result.output and len(result.output.splitlines()) <= 2


def test_closed_options_take_any_case():
    options = {p.name: p for p in main.commands["build"].params}
    context = click.Context(main.commands["build"])
    assert options["only"].type.convert("Map,COUNTERS", options["only"], context) == \
        "Map,COUNTERS"
    assert options["paper_name"].type.convert("A4", options["paper_name"], context) == "A4"

"""engine/gamecode.py: a game folder's Python (rules, checks, kit) is loaded from the folder
named on the command line and bound to it, never to the game id; an import error is a data
problem (one line, exit 2); an installed package provides games through entry points."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from data_edits import edit as _edit
from warpress.engine.trust import trust_folder

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "games"

INIT = '''\
from warpress.engine.registry import GameCode

CODE = GameCode()
'''

RULES = '''\
from warpress.engine.registry import Answer, Input

from . import CODE


@CODE.table("boxes", rules=["2.1"], inputs=[Input("n", "int", "units", min=0, max=99)],
              results=["boxes"], summary="boxes needed for n units")
def boxes(game, args, dice):
    capacity = game.constant("capacity")
    return Answer({{"boxes": -(-args["n"] // capacity) + {extra}}}, rules=("2.1",))
'''

CHECKS = '''\
from hypothesis import given
from hypothesis import strategies as st
from warpress.engine.tables import lookup

from . import CODE


@CODE.check("4.1", "a hit roll scores at most 2 hits")
def at_most_two_hits(game):
    @given(st.integers(1, 6), st.sampled_from(["yes", "no"]))
    def hits(roll, armored):
        assert lookup(game.table("hit"), roll=roll, armored=armored)["hits"] <= 2

    return hits
'''

KIT = '''\
from warpress.components.kit import KitPage
from warpress.components.primitives import Page, Text

from . import CODE


@CODE.kit_part("sheets")
def designer_note(game, options):
    paper = options.paper
    text = Text(20, 30, "A page of the designer's own", size=4)
    return [KitPage("sheets", Page(paper.width, paper.height, (text,), id="designer-note"))]
'''


def tiny_folder(root: Path, game_id: str = "tiny", trusted: bool = True,
                **files: str) -> Path:
    """The tiny fixture game as ``root/<game_id>`` (id changed to match) with ``files``
    (name -> text) written beside its YAML; trusted (engine/trust.py) unless not
    ``trusted``."""
    folder = root / game_id
    shutil.copytree(FIXTURES / "tiny", folder)
    yaml_file = folder / "game.yaml"
    yaml_file.write_text(yaml_file.read_text(encoding="utf-8").replace(
        "id: tiny", f"id: {game_id}", 1), encoding="utf-8")
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    if trusted:
        trust_folder(folder)
    return folder


def own_python(root: Path, game_id: str = "tiny", extra: int = 0) -> Path:
    return tiny_folder(root, game_id, **{"__init__.py": INIT, "checks.py": CHECKS, "kit.py": KIT,
                                         "rules.py": RULES.format(extra=extra)})


# --- a folder's own rules, checks and kit part ---------------------------------------------


def test_a_folders_rules_answer_lookup(tmp_path, cli_json):
    folder = own_python(tmp_path)
    out = cli_json("lookup", str(folder), "boxes", "n=11")
    assert out["result"] == {"boxes": 3} and out["rules"] == ["2.1"]


def test_a_folders_check_runs_in_verify_and_fails_when_the_data_breaks_it(tmp_path, cli):
    folder = own_python(tmp_path)
    ok = cli("verify", str(folder))
    assert ok.exit_code == 0, ok.output
    assert "PASS  4.1 a hit roll scores at most 2 hits" in ok.output
    _edit(folder, "{roll: 6, armored: yes, hits: 2}", "{roll: 6, armored: yes, hits: 3}")
    bad = cli("verify", str(folder))
    assert bad.exit_code == 1, bad.output
    assert "FAIL  4.1 a hit roll scores at most 2 hits" in bad.output
    assert "roll=6" in bad.output


def test_a_folders_kit_part_is_in_the_build(tmp_path, cli):
    folder = own_python(tmp_path / "game")
    out = tmp_path / "kit"
    result = cli("build", str(folder), "--out", str(out), "--format", "svg", "--only", "sheets")
    assert result.exit_code == 0, result.output
    pages = sorted((out / "tiny").rglob("*designer-note*.svg"))
    assert len(pages) == 1
    assert "A page of the designer" in pages[0].read_text(encoding="utf-8")


def test_two_folders_with_one_id_keep_their_own_rules(tmp_path, cli_json):
    first = own_python(tmp_path / "a", extra=0)
    second = own_python(tmp_path / "b", extra=100)
    assert cli_json("lookup", str(first), "boxes", "n=5")["result"] == {"boxes": 1}
    assert cli_json("lookup", str(second), "boxes", "n=5")["result"] == {"boxes": 101}
    assert cli_json("lookup", str(first), "boxes", "n=5")["result"] == {"boxes": 1}


def test_the_rules_are_found_when_the_cached_game_was_loaded_from_another_folder(
        tmp_path, monkeypatch, cli_json):
    monkeypatch.setenv("WARPRESS_CACHE", str(tmp_path / "cache"))
    own_python(tmp_path / "a" / "b")
    monkeypatch.chdir(tmp_path / "a")
    assert cli_json("lookup", "b/tiny", "boxes", "n=6")["result"] == {"boxes": 2}
    monkeypatch.chdir(tmp_path / "a" / "b")  # the pickled game's path was b/tiny
    assert cli_json("lookup", "tiny", "boxes", "n=6")["result"] == {"boxes": 2}


# --- a folder that reuses a shipped game's id ------------------------------------------------


def test_a_folder_with_id_midway_runs_none_of_midways_code(tmp_path, cli, cli_json):
    from warpress.components.registry import extensions
    from warpress.engine.catalogue import own_tables
    from warpress.engine.loader import builtin, load_game
    from warpress.verify.invariants import invariants_for

    shipped = builtin("midway")  # the shipped Midway's code is loaded in this process
    assert "landing" in own_tables(shipped)
    assert any(i.rule == "8.3(3)" for i in invariants_for(shipped))
    assert extensions(shipped, "sheets")
    folder = tiny_folder(tmp_path, "midway")
    mine = load_game(str(folder))
    assert own_tables(mine) == {}
    assert {i.game for i in invariants_for(mine)} == {"*"}
    assert extensions(mine, "sheets") == [] and extensions(mine, "map") == []
    tables = cli_json("tables", str(folder))
    assert "landing" not in json.dumps(tables)
    result = cli("verify", str(folder))
    assert result.exit_code == 0, result.output
    assert "8.3(3)" not in result.output and "Traceback" not in result.output


# --- import errors are data problems ---------------------------------------------------------


def test_a_syntax_error_is_one_line_and_fails_verify_data(tmp_path, cli, cli_refused):
    folder = tiny_folder(tmp_path, **{"rules.py": "ENGINE = None\n\ndef broken(:\n    pass\n"})
    line = cli_refused("lookup", str(folder), "hit", "roll=1", "armored=yes")
    assert line.startswith(f"warpress: {folder}/rules.py:3: SyntaxError: "), line
    data = cli("verify", str(folder), "--data")
    assert data.exit_code == 2, data.output
    assert f"{folder}/rules.py:3: SyntaxError: " in data.output
    assert "tiny: data OK" not in data.output and "Traceback" not in data.output


def test_a_missing_import_names_the_file_line_and_module(tmp_path, cli):
    folder = tiny_folder(tmp_path, **{"kit.py": "import math\nimport warpress_no_such_module\n"})
    expected = (f"{folder}/kit.py:2: ModuleNotFoundError: "
                "No module named 'warpress_no_such_module'")
    built = cli("build", str(folder), "--out", str(tmp_path / "out"))
    assert built.exit_code == 2 and "Traceback" not in built.output
    assert built.output.splitlines()[-1] == f"warpress: {expected}"
    data = cli("verify", str(folder), "--data")
    assert data.exit_code == 2 and expected in data.output, data.output


def test_a_check_that_raises_on_import_is_a_data_problem_where_it_raises(tmp_path, cli):
    folder = tiny_folder(tmp_path, **{"checks.py": "X = 1\nY = {}['missing']\n"})
    result = cli("verify", str(folder))
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.output.splitlines()[0] == f"{folder}/checks.py:2: KeyError: 'missing'"


def test_rules_without_the_folders_code_are_refused_naming_where_it_is_declared(
        tmp_path, cli_refused):
    folder = tiny_folder(tmp_path, **{"rules.py": "TABLES = {}\n"})
    line = cli_refused("tables", str(folder))
    assert line == (f"warpress: {folder}/rules.py: rules registers on the folder's CODE: declare "
                    "CODE = GameCode() (from warpress.engine.registry) in the folder's "
                    "__init__.py (docs/designing.md)"), line


def test_an_init_that_declares_no_code_is_refused(tmp_path, cli_refused):
    folder = tiny_folder(tmp_path, **{"__init__.py": "TABLES = {}\n",
                                      "rules.py": RULES.format(extra=0)})
    line = cli_refused("tables", str(folder))
    assert line.startswith(f"warpress: {folder}/__init__.py: __init__ defines no CODE "
                           "(CODE = GameCode(), from warpress.engine.registry)"), line


#: a folder written the way the contract replaced: the module, what it imports, the new way
OLD_WAYS = {
    "rules.py": ("from warpress.engine.registry import Answer, register\n\n"
                 "ENGINE = register('tiny')\n", "'register' of warpress.engine.registry",
                 "@CODE.table"),
    "checks.py": ("from warpress.verify.invariants import invariant\n",
                  "'invariant' of warpress.verify.invariants", '@CODE.check("<rule>", '),
    "kit.py": ("from warpress.components.registry import kit_part\n",
               "'kit_part' of warpress.components.registry", '@CODE.kit_part("<part>")'),
}


@pytest.mark.parametrize("module", sorted(OLD_WAYS))
def test_a_folder_registering_the_old_way_is_told_the_new_way_in_one_line(
        tmp_path, cli, module):
    text, old, new = OLD_WAYS[module]
    folder = tiny_folder(tmp_path, **{module: "import math\n" + text})
    result = cli("verify", str(folder), "--data")
    assert result.exit_code == 2 and "Traceback" not in result.output
    line = f"{folder}/{module}:2: {old} is the old way to register a game's Python: declare "
    assert line in result.output, result.output
    assert "CODE = GameCode() (from warpress.engine.registry) in the folder's __init__.py " \
        f"and use {new}" in result.output and "(docs/designing.md)" in result.output


def test_a_module_level_referee_is_told_the_new_way(tmp_path, cli, cli_refused):
    session = "class Rules:\n    pass\n\n\nREFEREE = Rules\n"
    folder = tiny_folder(tmp_path, **{"__init__.py": INIT})
    (folder / "rules").mkdir()
    (folder / "rules" / "__init__.py").write_text("", encoding="utf-8")
    (folder / "rules" / "session.py").write_text(session, encoding="utf-8")
    trust_folder(folder)
    line = cli_refused("play", "new", str(folder), "--session", str(tmp_path / "session"))
    assert line == (f"warpress: {folder}/rules/session.py: REFEREE is the old way to register "
                    "a game's Python: use @CODE.session on the class, on the CODE the folder's "
                    "__init__.py declares (docs/designing.md)"), line
    data = cli("verify", str(folder), "--data")
    assert data.exit_code == 2 and line.removeprefix("warpress: ") in data.output, data.output


def test_a_folders_procedure_that_raises_is_one_line_naming_its_file_and_line(
        tmp_path, cli_refused):
    """A designer's table that fails while it runs (here a typo in a game method) is their
    folder's problem: one line with the file and line, exit 2, not a traceback."""
    rules = RULES.format(extra=0).replace("game.constant(", "game.konstant(")
    folder = tiny_folder(tmp_path, **{"__init__.py": INIT, "rules.py": rules})
    line = cli_refused("lookup", str(folder), "boxes", "n=11")
    assert line.startswith(f"warpress: {folder.resolve()}/rules.py:9: AttributeError: "), line
    assert "konstant" in line and "in the game folder's Python" in line


def test_an_error_of_warpress_itself_is_not_blamed_on_a_folder(monkeypatch):
    """Only frames of a designer's folder make a runtime error that folder's one line."""
    from warpress.engine.gamecode import runtime_problem

    try:
        {}["missing"]
    except KeyError as exc:
        assert runtime_problem(exc) is None


def test_game_engine_in_the_data_is_refused_with_where_the_code_goes(tmp_path, cli):
    folder = tiny_folder(tmp_path)
    _edit(folder, "  dice: [d6]\n", "  dice: [d6]\n  engine: tiny\n")
    result = cli("verify", str(folder), "--data")
    assert result.exit_code == 2
    assert (f"{folder}/game.yaml:8: game.engine: no longer used: a game's procedures go in "
            "rules/ (or rules.py)") in result.output


# --- a game installed through the warpress.games entry points --------------------------------


def installed(site: Path, package: str, points: dict[str, str]) -> None:
    """``site/package/`` (an empty package) and its ``<package>-0.1.dist-info`` declaring
    ``points`` (id -> module) in the group warpress.games: an installed distribution as
    importlib.metadata sees it once ``site`` is on sys.path."""
    (site / package).mkdir(parents=True)
    (site / package / "__init__.py").write_text("", encoding="utf-8")
    info = site / f"{package}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {package}\nVersion: 0.1\n",
                                   encoding="utf-8")
    lines = "".join(f"{name} = {value}\n" for name, value in points.items())
    (info / "entry_points.txt").write_text(f"[warpress.games]\n{lines}", encoding="utf-8")


@pytest.fixture
def skirmish(tmp_path, monkeypatch):
    """An installed package ``wp_skirmish_pkg`` providing game ``skirmish`` (with rules)."""
    site = tmp_path / "site"
    installed(site, "wp_skirmish_pkg", {"skirmish": "wp_skirmish_pkg.skirmish"})
    folder = own_python(site / "wp_skirmish_pkg", "skirmish", extra=10)
    monkeypatch.syspath_prepend(str(site))
    yield folder
    for name in [m for m in sys.modules if m.startswith("wp_skirmish_pkg")]:
        del sys.modules[name]


def test_an_entry_point_game_is_listed_verified_built_and_queried(skirmish, tmp_path, cli,
                                                                  cli_json):
    listed = cli_json("games")
    assert [g["id"] for g in listed["games"]][-1] == "skirmish"
    assert cli_json("games", "skirmish")["games"][0]["name"].startswith("Tiny test game")
    verified = cli("verify", "skirmish")
    assert verified.exit_code == 0, verified.output
    assert "skirmish: data OK" in verified.output
    assert "PASS  4.1 a hit roll scores at most 2 hits" in verified.output
    assert cli_json("lookup", "skirmish", "boxes", "n=6")["result"] == {"boxes": 12}
    built = cli("build", "skirmish", "--out", str(tmp_path / "kit"), "--format", "svg",
                "--only", "sheets")
    assert built.exit_code == 0, built.output
    assert list((tmp_path / "kit" / "skirmish").rglob("*designer-note*.svg"))
    from warpress.engine.gamecode import package_of
    from warpress.engine.loader import load_game

    assert package_of(load_game("skirmish")) == "wp_skirmish_pkg.skirmish"


def test_a_shipped_id_wins_over_an_entry_point(tmp_path, monkeypatch, cli):
    site = tmp_path / "site"
    installed(site, "wp_shadow_pkg", {"midway": "wp_shadow_pkg.midway"})
    tiny_folder(site / "wp_shadow_pkg", "midway")
    (site / "wp_shadow_pkg" / "midway" / "__init__.py").write_text("", encoding="utf-8")
    monkeypatch.syspath_prepend(str(site))
    result = cli("games", "midway")
    assert result.exit_code == 0, result.output
    assert ("warpress: entry point midway = wp_shadow_pkg.midway (package wp_shadow_pkg) is "
            "ignored: 'midway' is a shipped game") in result.output
    assert "Midway" in result.output and "Tiny test game" not in result.output


def test_a_broken_entry_point_is_one_line_and_leaves_the_others_alone(tmp_path, monkeypatch,
                                                                      cli, cli_refused):
    site = tmp_path / "site"
    installed(site, "wp_ghost_pkg", {"ghost": "wp_ghost_pkg.nothing"})
    installed(site, "wp_boom_pkg", {"boom": "wp_boom_pkg.game"})
    (site / "wp_boom_pkg" / "__init__.py").write_text("raise RuntimeError('boom')\n",
                                                     encoding="utf-8")
    monkeypatch.syspath_prepend(str(site))
    listed = cli("games")
    assert listed.exit_code == 0, listed.output
    assert ("warpress: entry point ghost = wp_ghost_pkg.nothing (package wp_ghost_pkg): not an "
            "importable package") in listed.output
    assert ("warpress: entry point boom = wp_boom_pkg.game (package wp_boom_pkg): "
            "RuntimeError: boom") in listed.output
    assert "Traceback" not in listed.output
    assert cli_refused("verify", "ghost").startswith(
        "warpress: entry point ghost = wp_ghost_pkg.nothing (package wp_ghost_pkg): not an")
    assert cli("verify", "midway", "--data").exit_code == 0
    for name in [m for m in sys.modules if m.startswith(("wp_ghost_pkg", "wp_boom_pkg"))]:
        del sys.modules[name]

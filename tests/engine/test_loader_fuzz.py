"""Random wrong-type edits of game YAML (engine/loader.py): hypothesis picks a value of a game
file, anywhere in it, and writes another kind of value in its place (a negative or huge
number, a string, an empty or nested list or mapping, null, a path). Every command that
reads a game then exits 0, 1 or 2 with no traceback: the loader and the structural checks
every command runs refuse what would break a command, as ``verify --data`` does.

CI runs ``EDITS`` edits of the test games (a few seconds); ``WARPRESS_FUZZ_EDITS`` (e.g.
3000) runs more, the shipped games' data among them:

    WARPRESS_FUZZ_EDITS=3000 python -m pytest -q tests/engine/test_loader_fuzz.py
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from warpress.cli import main
from warpress.engine.loader import builtin_folder, builtin_games

EDITS = 40
COUNT = int(os.environ.get("WARPRESS_FUZZ_EDITS") or EDITS)
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "games"
#: the games edited: the test games; with more edits, the shipped games' data too
GAMES = [FIXTURES / "corps", FIXTURES / "tiny"] + (
    [builtin_folder(name) for name in builtin_games()] if COUNT > EDITS else [])
#: what replaces a value: every kind of value, and values that broke a command before
WRONG = ["-1", "0", "-84000", "99999", "1.5", "2.5e300", "''", "x", "'0'", "'../x'", "true",
         "null", "[]", "[[]]", "[1, 2]", "[x]", "{}", "{a: 1}", "{id: 1}", "'\\e[2J'"]
COMMANDS = [["games", "G"], ["errata", "G"], ["tables", "G"], ["verify", "G", "--data"],
            ["lookup", "G", "crt", "odds=3-1", "roll=3"],
            ["build", "G", "--out", "O", "--format", "svg", "--only", "sheets,counters"]]


def _values(node: yaml.Node) -> list[yaml.Node]:
    """Every node below ``node`` that is a value (not a mapping key)."""
    out = []
    children = ([v for _k, v in node.value] if isinstance(node, yaml.MappingNode)
                else node.value if isinstance(node, yaml.SequenceNode) else [])
    for child in children:
        out.append(child)
        out.extend(_values(child))
    return out


@st.composite
def edits(draw):
    game = draw(st.sampled_from(GAMES))
    file = draw(st.sampled_from(sorted(game.glob("*.yaml"))))
    text = file.read_text(encoding="utf-8")
    nodes = _values(yaml.compose(text))
    node = draw(st.sampled_from(nodes))
    new = draw(st.sampled_from(WRONG))
    start, end = node.start_mark.index, node.end_mark.index
    return game, file.name, text[:start] + new + text[end:]


@settings(max_examples=COUNT, deadline=None, derandomize=COUNT == EDITS, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(edit=edits())
def test_a_wrong_value_anywhere_is_one_clean_exit(tmp_path_factory, edit):
    game, name, text = edit
    root = tmp_path_factory.mktemp("edit")
    folder = root / game.name
    shutil.copytree(game, folder, ignore=shutil.ignore_patterns("*.py", "rules", "__pycache__"))
    (folder / name).write_text(text, encoding="utf-8")
    for command in COMMANDS:
        args = [{"G": str(folder), "O": str(root / "out")}.get(a, a) for a in command]
        result = CliRunner().invoke(main, args)
        shown = f"{game.name}/{name}: {args[0]}:\n{result.output[-1500:]}"
        assert result.exit_code in (0, 1, 2), shown
        assert result.exception is None or isinstance(result.exception, SystemExit), (
            shown, result.exc_info)
        assert "Traceback" not in result.output, shown


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_the_games_edited_have_values_to_edit(game):
    assert sum(len(_values(yaml.compose(f.read_text(encoding="utf-8"))))
               for f in game.glob("*.yaml")) > 20

"""``warpress new``: the starting game is written whole, refused cleanly, and is a game."""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from warpress.cli import main
from warpress.starter.new import TEMPLATE, new_game

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def refused(*args: str) -> str:
    """The one line of a refusal (exit 2, no traceback)."""
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    return lines[0]


def listing(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def test_new_writes_every_template_file_with_the_folder_name_as_id(tmp_path):
    result = run("new", str(tmp_path / "bfm"))
    assert result.exit_code == 0, result.output
    written = sorted(p.name for p in (tmp_path / "bfm").iterdir())
    assert written == sorted(p.name for p in TEMPLATE.iterdir() if p.suffix in (".yaml", ".md"))
    game = yaml.safe_load((tmp_path / "bfm" / "game.yaml").read_text(encoding="utf-8"))["game"]
    assert (game["id"], game["name"]) == ("bfm", "Bfm")
    assert "__" not in "".join(p.read_text(encoding="utf-8")
                               for p in (tmp_path / "bfm").iterdir())
    assert "warpress verify" in result.output


def test_new_takes_a_name_and_quotes_it_as_yaml_text(tmp_path):
    name = 'Drive on "Northtown": 1944 # no comment'
    assert run("new", str(tmp_path / "drive"), "--name", name).exit_code == 0
    game = yaml.safe_load((tmp_path / "drive" / "game.yaml").read_text(encoding="utf-8"))
    assert game["game"]["name"] == name
    assert name in (tmp_path / "drive" / "rules.md").read_text(encoding="utf-8")


def test_a_numeric_folder_name_stays_a_text_id(tmp_path):
    new_game(str(tmp_path / "1944"))
    game = yaml.safe_load((tmp_path / "1944" / "game.yaml").read_text(encoding="utf-8"))
    assert game["game"]["id"] == "1944"
    assert run("verify", str(tmp_path / "1944"), "--data").exit_code == 0


def test_new_is_byte_identical_for_the_same_input(tmp_path):
    new_game(str(tmp_path / "a" / "bfm"))
    new_game(str(tmp_path / "b" / "bfm"))
    for path in (tmp_path / "a" / "bfm").iterdir():
        assert path.read_bytes() == (tmp_path / "b" / "bfm" / path.name).read_bytes()


def test_an_empty_folder_is_filled(tmp_path):
    (tmp_path / "bfm").mkdir()
    assert run("new", str(tmp_path / "bfm")).exit_code == 0
    assert (tmp_path / "bfm" / "game.yaml").is_file()


def test_a_non_empty_folder_is_refused_and_left_alone(tmp_path):
    (tmp_path / "bfm").mkdir()
    (tmp_path / "bfm" / "notes.txt").write_text("mine", encoding="utf-8")
    line = refused("new", str(tmp_path / "bfm"))
    assert "exists and is not empty" in line and "bfm" in line
    assert listing(tmp_path) == ["bfm", "bfm/notes.txt"]


def test_a_file_in_the_way_is_refused(tmp_path):
    (tmp_path / "bfm").write_text("a file", encoding="utf-8")
    line = refused("new", str(tmp_path / "bfm"))
    assert "is a file" in line
    assert (tmp_path / "bfm").read_text(encoding="utf-8") == "a file"
    assert listing(tmp_path) == ["bfm"]


@pytest.mark.parametrize("args, words", [
    (("my game",), "is the game's id"),
    (("bfm", "--name", ""), "a name is 1-100 characters"),
    (("bfm", "--name", "two\nlines"), "control character"),
])
def test_bad_names_are_refused_before_anything_is_written(tmp_path, args, words):
    folder, *options = args
    line = refused("new", str(tmp_path / folder), *options)
    assert words in line
    assert listing(tmp_path) == []


def test_the_id_is_the_folder_name_and_a_copy_runs_under_its_own(tmp_path):
    """No --id: the folder's name is the id; a copied folder is tried under its new name."""
    assert run("new", str(tmp_path / "bfm"), "--id", "bfm").exit_code == 2
    assert run("new", str(tmp_path / "bfm")).exit_code == 0
    shutil.copytree(tmp_path / "bfm", tmp_path / "bfm-copy")
    result = run("verify", str(tmp_path / "bfm-copy"), "--data")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("bfm-copy: data OK")
    answer = run("lookup", str(tmp_path / "bfm-copy"), "crt", "odds=3-1", "roll=4", "--json")
    assert json.loads(answer.stdout)["game"] == "bfm-copy"


def test_the_template_ships_with_the_package():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["warpress.starter"]
    shipped = {p.name for pattern in patterns for p in (ROOT / "starter").glob(pattern)}
    assert shipped == {p.name for p in TEMPLATE.iterdir()}
    assert "warpress.starter" in config["tool"]["setuptools"]["packages"]


def test_a_killed_write_leaves_no_folder(tmp_path, monkeypatch):
    """The folder appears whole or not at all: a write that fails half way leaves nothing."""
    import warpress.starter.new as new_module

    calls = []

    def failing(staging, files):
        calls.append(staging)
        (staging / "game.yaml").write_bytes(b"half")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(new_module, "write_files", failing)
    line = refused("new", str(tmp_path / "bfm"))
    assert "No space left on device" in line
    assert calls and listing(tmp_path) == []


def test_new_refuses_a_folder_it_cannot_read(tmp_path, monkeypatch):
    """A folder the system will not list (permissions: root reads every folder, so the
    refusal is simulated) is one line, nothing written."""
    (tmp_path / "bfm").mkdir()

    def refuse(self):
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "iterdir", refuse)
    line = refused("new", str(tmp_path / "bfm"))
    assert "cannot be read: Permission denied" in line and "bfm" in line
    monkeypatch.undo()
    assert listing(tmp_path) == ["bfm"]


@pytest.mark.parametrize("under", ["afile/x", "afile/deeper/x"])
def test_new_under_a_file_is_one_line(tmp_path, monkeypatch, under):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "afile").write_text("not a folder", encoding="utf-8")
    out = CliRunner().invoke(main, ["new", under])
    assert out.exit_code == 2 and "Traceback" not in out.output
    assert out.output.startswith(f"warpress: game folder '{under}': ")
    assert len(out.output.splitlines()) == 1


def test_new_under_a_parent_that_cannot_be_made_is_one_line(tmp_path, monkeypatch):
    def refuse(self, *args, **kwargs):
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(Path, "mkdir", refuse)
    out = CliRunner().invoke(main, ["new", "locked/sub/x"])
    assert (out.exit_code, out.output) == (2, "warpress: game folder 'locked/sub/x': cannot "
                                              "make 'locked/sub': Permission denied\n")

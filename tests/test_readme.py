"""The README's referee walk-through, run verbatim: every command in its ``sh`` block, in a
fresh folder, must be accepted (exit 0) as the README shows it."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from click.testing import CliRunner
from warpress.cli import main

README = Path(__file__).resolve().parents[1] / "README.md"


def walk_through(text: str) -> list[list[str]]:
    """The commands of the first ``sh`` block after the ``### Referee`` heading, as words
    (comments dropped, as the shell drops them)."""
    section = text.split("\n### Referee\n", 1)[1]
    block = re.search(r"```sh\n(.*?)\n```", section, re.S)
    assert block, "README.md: no ```sh block under '### Referee'"
    return [words for line in block.group(1).splitlines()
            if (words := shlex.split(line, comments=True))]


def test_the_walk_through_is_found_and_plays_a_whole_attack():
    commands = walk_through(README.read_text(encoding="utf-8"))
    assert commands[0][:3] == ["warpress", "referee", "scenarios"]
    assert ["export", "WARPRESS_SESSION=night1"] in commands
    assert any(words[:3] == ["warpress", "referee", "attack"] for words in commands)
    assert all(words[0] in ("warpress", "export") for words in commands), commands


def test_the_readme_referee_walk_through_runs_as_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("WARPRESS_SESSION", raising=False)
    env: dict[str, str] = {}
    runner = CliRunner()
    for words in walk_through(README.read_text(encoding="utf-8")):
        if words[0] == "export":
            name, _, value = words[1].partition("=")
            env[name] = value
            continue
        result = runner.invoke(main, words[1:], env=env)
        shown = " ".join(words)
        assert result.exit_code == 0, (f"README.md's referee walk-through: `{shown}` exited "
                                       f"{result.exit_code}: {result.output}")
        if words[2] == "attack":
            assert " attacks" in result.stdout, result.stdout
    assert (tmp_path / "night1" / "log.jsonl").is_file()
    assert (tmp_path / "night.png").is_file() and (tmp_path / "umpire.svg").is_file()

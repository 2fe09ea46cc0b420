"""Every example in the README and docs/ runs as written: each ``sh`` block's commands, in
order, in a fresh folder per page, must be accepted (exit 0). Synopses with placeholders
(GAME, TABLE) are ``text`` blocks, not ``sh``. Commands other than ``warpress`` are the
shell's and pip's: ``export NAME=VALUE`` sets the environment of the commands after it;
``python3 -m venv``, ``pip``, ``python -m pytest``, ``ruff`` and ``pdffonts`` are what CI and
the Quick start run outside this test."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner
from warpress.cli import main

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: Commands of the examples that are not warpress's: run by the shell, pip or CI.
OUTSIDE = {"python3", "python", "pip", "ruff", "lint-imports", "pdffonts", "."}


def commands(text: str) -> list[list[str]]:
    """The commands of every ``sh`` block, as words (comments dropped, ``&&`` split, a
    redirection ``> FILE`` or a pipe ``| ...`` kept as the words that follow)."""
    out = []
    for block in re.findall(r"```sh\n(.*?)\n```", text, re.S):
        for line in block.splitlines():
            words = shlex.split(line, comments=True)
            while words:
                cut = words.index("&&") if "&&" in words else len(words)
                out.append(words[:cut])
                words = words[cut + 1:]
    return [words for words in out if words]


def run_page(page: Path, folder: Path) -> list[tuple[list[str], object]]:
    """Run the page's commands in ``folder``; (words, click result) of each warpress one."""
    env: dict[str, str] = {}
    done = []
    for words in commands(page.read_text(encoding="utf-8")):
        if words[0] == "export":
            name, _, value = words[1].partition("=")
            env[name] = value
            continue
        if words[0] != "warpress":
            assert words[0] in OUTSIDE, f"{page.name}: `{shlex.join(words)}`"
            continue
        args, into = words[1:], None
        for mark in ("|", ">"):
            if mark in args:
                at = args.index(mark)
                into = args[at + 1] if mark == ">" else into
                args = args[:at]
        result = CliRunner().invoke(main, args, env=env)
        assert result.exit_code == 0, (f"{page.name}: `{shlex.join(words)}` "
                                       f"exited {result.exit_code}: {result.output}")
        if into:
            (folder / into).write_text(result.stdout, encoding="utf-8")
        done.append((words, result))
    return done


def test_the_pages_hold_examples():
    found = {page.name: commands(page.read_text(encoding="utf-8")) for page in PAGES}
    assert {"README.md", "designing.md", "referee.md", "engine.md"} <= {
        name for name, words in found.items() if words}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_example_runs_as_written(page, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("WARPRESS_SESSION", raising=False)
    run_page(page, tmp_path)


def test_the_referee_walk_through_plays_a_whole_attack(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("WARPRESS_SESSION", raising=False)
    done = run_page(ROOT / "docs" / "referee.md", tmp_path)
    assert done[0][0][:3] == ["warpress", "referee", "scenarios"]
    attacks = [result for words, result in done if words[2] == "attack"]
    assert attacks and " attacks" in attacks[0].stdout
    assert (tmp_path / "night1" / "log.jsonl").is_file()
    assert (tmp_path / "night.png").is_file() and (tmp_path / "umpire.svg").is_file()


def test_a_command_that_fails_is_caught(tmp_path, monkeypatch):
    page = tmp_path / "page.md"
    page.write_text("```sh\nwarpress lookup midway nope   # no such table\n```\n",
                    encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(AssertionError, match="exited 2"):
        run_page(page, tmp_path)

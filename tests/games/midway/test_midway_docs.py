"""docs/midway.md run as written: every command of its ``sh`` blocks succeeds, in order;
each ``console`` block's command prints what the page shows, with the exit code of a
refusal."""

from __future__ import annotations

import shlex
from pathlib import Path

from click.testing import CliRunner
from docs_walk import steps
from warpress.cli import main

PAGE = Path(__file__).resolve().parents[3] / "docs" / "midway.md"


def test_the_page_runs_as_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    found = steps(PAGE)
    assert len(found) > 25 and any(shown for _, shown in found)
    for words, shown in found:
        assert words[0] == "warpress", words
        result = runner.invoke(main, words[1:])
        if shown is None:
            assert result.exit_code == 0, f"`{shlex.join(words)}`: {result.output}"
        else:
            assert result.exit_code == 1, result.output
            assert " ".join(result.output.split()) == " ".join(shown.split()), result.output
    assert "game over" in runner.invoke(main, ["play", "status", "--session", "mw"]).output
    assert (tmp_path / "turn3.png").stat().st_size > 10_000

"""docs/axis-allies.md run as written: every command of its ``sh`` blocks succeeds, in
order, in one session; each ``console`` block's command prints what the page shows, with
the exit code of a refusal; the map it asks for draws the units."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from docs_walk import run_page
from warpress.cli import main

PAGE = Path(__file__).resolve().parents[2].parent / "docs" / "axis-allies.md"


def test_the_page_runs_as_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    run_page(PAGE, runner)
    assert (tmp_path / "aa.svg").read_text("utf-8").count('class="space-units"') > 30
    log = runner.invoke(main, ["play", "log", "--session", "aa"]).output
    assert "lose 3xinfantry" in log and "REFUSED" in log

"""docs/midway-cards.md run as written: every command of its ``sh`` blocks succeeds, in
order, in one session; each ``console`` block's command prints what the page shows, with
the exit code of a refusal."""

from __future__ import annotations

from doc_walk import run_page
from warpress.cli import main


def test_the_page_runs_as_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner, found = run_page("midway-cards.md")
    assert len(found) > 20 and any(shown for _, shown in found)
    assert "game over" in runner.invoke(main, ["play", "status", "--session", "mw"]).output

"""docs/nimitz.md run as written (the one command-line walk of the Nimitz session): every
command of its ``sh`` blocks succeeds in one session, each ``console`` block's refusal
prints what the page shows; the map is drawn and the campaign ends."""

from __future__ import annotations

from doc_walk import run_page
from warpress.cli import main

PNG = b"\x89PNG\r\n\x1a\n"


def test_the_page_runs_as_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner, found = run_page("nimitz.md")
    assert len(found) > 25 and any(shown for _, shown in found)
    assert (tmp_path / "nz.png").read_bytes().startswith(PNG)
    status = runner.invoke(main, ["play", "status", "--session", "nz"]).output
    assert "game over" in status

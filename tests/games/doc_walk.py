"""A docs page run in one CliRunner (docs/nimitz.md): every command of its ``sh`` blocks must
succeed, in order; each ``console`` block's command must print what the page shows, with
the exit code of a refusal. The steps are read by docs_walk.steps."""

from __future__ import annotations

import shlex
from pathlib import Path

from click.testing import CliRunner
from docs_walk import steps
from warpress.cli import main

DOCS = Path(__file__).resolve().parents[2] / "docs"


def run_page(page: str) -> tuple[CliRunner, list[tuple[list[str], str | None]]]:
    """Run every command of ``docs/PAGE`` in the current folder; the runner and the steps."""
    runner = CliRunner()
    found = steps(DOCS / page)
    for words, shown in found:
        assert words[0] == "warpress", words
        result = runner.invoke(main, words[1:])
        if shown is None:
            assert result.exit_code == 0, f"`{shlex.join(words)}`: {result.output}"
        else:
            assert result.exit_code == 1 and result.output.strip() == shown, result.output
    return runner, found

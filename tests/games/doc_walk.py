"""A docs page run as written (docs/midway-cards.md, docs/nimitz.md): every command of its
``sh`` blocks must succeed, in order; each ``console`` block's command must print what the
page shows, with the exit code of a refusal."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from click.testing import CliRunner
from warpress.cli import main

DOCS = Path(__file__).resolve().parents[2] / "docs"
COMMENT = re.compile(r"\s+#\s.*$")


def steps(page: str) -> list[tuple[list[str], str | None]]:
    """(words, expected output or None) of every command of ``docs/PAGE``, in order."""
    out: list[tuple[list[str], str | None]] = []
    text = (DOCS / page).read_text("utf-8")
    for kind, body in re.findall(r"```(sh|console)\n(.*?)\n```", text, re.S):
        if kind == "sh":
            out += [(shlex.split(COMMENT.sub("", line)), None) for line in body.splitlines()
                    if COMMENT.sub("", line).strip()]
            continue
        for chunk in body.split("$ ")[1:]:
            command, _, shown = chunk.partition("\n")
            out.append((shlex.split(command), shown.strip()))
    return out


def run_page(page: str) -> tuple[CliRunner, list[tuple[list[str], str | None]]]:
    """Run every command of the page in the current folder; the runner and the steps."""
    runner = CliRunner()
    found = steps(page)
    for words, shown in found:
        assert words[0] == "warpress", words
        result = runner.invoke(main, words[1:])
        if shown is None:
            assert result.exit_code == 0, f"`{shlex.join(words)}`: {result.output}"
        else:
            assert result.exit_code == 1 and result.output.strip() == shown, result.output
    return runner, found

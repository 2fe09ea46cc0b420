"""A game's docs page run as written: the commands of its ``sh`` blocks in order (each must
succeed) and each ``console`` block's command with the refusal it shows."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

COMMENT = re.compile(r"\s+#\s.*$")


def steps(page: Path) -> list[tuple[list[str], str | None]]:
    """(words, expected output or None) of every command of ``page``, in order."""
    out: list[tuple[list[str], str | None]] = []
    for kind, body in re.findall(r"```(sh|console)\n(.*?)\n```", page.read_text("utf-8"),
                                 re.S):
        if kind == "sh":
            out += [(shlex.split(COMMENT.sub("", line)), None) for line in body.splitlines()
                    if COMMENT.sub("", line).strip()]
            continue
        for chunk in body.split("$ ")[1:]:
            command, _, shown = chunk.partition("\n")
            out.append((shlex.split(command), shown.strip()))
    return out

"""Text every layer prints: rule numbers as a list shows them, and the width of the terminal
that the command line and the games' text answers wrap to."""

from __future__ import annotations

import re
from collections.abc import Iterable

#: Columns when the output is not a terminal and $COLUMNS is unset.
DEFAULT_WIDTH = 80
#: Narrower terminals are treated as this wide (a hanging indent needs room).
MIN_WIDTH = 40
#: A rule-text step number closed by a bracket it never opened: "land 4)" -> "land 4".
_STEP = re.compile(r"(?<![(\w])(\d+)\)")


def terminal_width() -> int:
    """The columns to fill: $COLUMNS, else the terminal's, else 80; at least MIN_WIDTH."""
    import shutil  # 3 ms of start-up, for the commands that print text

    return max(MIN_WIDTH, shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns)


def plain_steps(text: str) -> str:
    """``text`` (a rule number as printed in a list, or prose that cites them: an erratum's
    readings) with the rule text's step numbers printed without the bracket they never
    opened (the Axis & Allies text's Japanese enumerator): "land 4)" -> "land 4", "land 4), and
    sea 5)" -> "land 4, and sea 5", "(before the 3)-5) loop)" -> "(before the 3-5 loop)".
    Where dropping every such bracket would unbalance the text ("(see rule 4)"), only
    those that close nothing are dropped."""
    if ")" not in text:
        return text
    every = _STEP.sub(r"\1", text)
    if _balanced(every):
        return every
    out, depth = [], 0
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            if depth:
                depth -= 1
            elif _STEP.match(text, _number_start(text, i)):
                continue  # a step number's bracket that closes nothing
        out.append(ch)
    return "".join(out)


def _balanced(text: str) -> bool:
    depth = 0
    for ch in text:
        depth += (ch == "(") - (ch == ")")
        if depth < 0:
            return False
    return depth == 0


def _number_start(text: str, close: int) -> int:
    """Where the run of digits before the bracket at ``close`` starts (``close`` if none)."""
    start = close
    while start and text[start - 1].isdigit():
        start -= 1
    return start


def rules_text(rules: Iterable[str]) -> str:
    """Rule numbers joined for a bracketed list: ``③ combat, land 1-7, sea 1-8``."""
    return ", ".join(plain_steps(str(r)) for r in rules)

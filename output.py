"""Text a person reads in a terminal: every command prints its text through :func:`say`.

``say`` wraps each line to the terminal's width (80 columns when the output is not a
terminal, or ``$COLUMNS``), continuing a long line under a hanging indent (its own indent
plus four spaces). Widths are counted in terminal columns: East Asian wide and full-width
characters (Japanese names) take two, combining marks none. JSON output and one-line
error messages are not wrapped.
"""

from __future__ import annotations

import re
import shutil
import unicodedata
from collections.abc import Iterable

import click

#: Columns when the output is not a terminal and $COLUMNS is unset.
DEFAULT_WIDTH = 80
#: Narrower terminals are treated as this wide (a hanging indent needs room).
MIN_WIDTH = 40
#: Continuation lines start this many columns right of the line's own indent.
HANG = 4
#: Characters that may not begin a line (Japanese closing punctuation, JIS X 4051 in brief).
NO_LINE_START = frozenset("、。，．・：；？！）」』】〕〉》ー々"
                          "ぁぃぅぇぉっゃゅょァィゥェォッャュョ)]},.;:!?")

#: Inside a word too long for a line, a cut goes after one of these where it can.
BREAK_AFTER = ("/", ",", "-", "_")

_WORDS = re.compile(r"(\s*)(\S+)")
#: A rule-text step number closed by a bracket it never opened: "land 4)" -> "land 4".
_STEP = re.compile(r"(?<![(\w])(\d+)\)")


def terminal_width() -> int:
    """The columns to fill: $COLUMNS, else the terminal's, else 80; at least MIN_WIDTH."""
    return max(MIN_WIDTH, shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns)


def char_width(ch: str) -> int:
    """Terminal columns of one character: 2 for East Asian wide/full-width, 0 combining."""
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def text_width(text: str) -> int:
    """Terminal columns of ``text`` (one line)."""
    return sum(char_width(ch) for ch in text)


def wrap_line(line: str, width: int) -> list[str]:
    """``line`` as lines of at most ``width`` columns; continuations hang under its indent."""
    if text_width(line) <= width:
        return [line]
    indent = len(line) - len(line.lstrip(" "))
    hang = " " * min(indent + HANG, width // 2)
    lines: list[str] = []
    current, empty = line[:indent], True
    for sep, word in _WORDS.findall(line[indent:]):
        joined = current + ("" if empty else sep) + word
        if text_width(joined) <= width:
            current, empty = joined, False
            continue
        too_long = text_width(word) > width - len(hang)   # cut anyway: fill this line first
        if too_long and not empty and text_width(current + sep) < width:
            current += sep
        elif not empty:
            lines.append(current.rstrip())
            current = hang
        pieces = _split_word(word, width - text_width(current), width - len(hang))
        for piece in pieces[:-1]:
            lines.append(current + piece)
            current = hang
        current, empty = current + pieces[-1], False
    lines.append(current.rstrip())
    return lines


def _split_word(word: str, first: int, rest: int) -> list[str]:
    """``word`` cut into pieces of ``first`` then ``rest`` columns (a word longer than a
    line: Japanese text without spaces, a long path); a cut falls after a ``/ , - _`` in
    the piece's second half if it has one, and no piece begins with closing punctuation."""
    pieces, piece, room = [], "", max(first, 1)
    for ch in word:
        if piece and text_width(piece + ch) > room:
            cut = _cut(piece, ch)
            pieces.append(piece[:cut])
            piece = piece[cut:]
            room = max(rest, 1)
        piece += ch
    pieces.append(piece)
    return pieces


def _cut(piece: str, after: str) -> int:
    """Where to end a full ``piece`` that ``after`` would overflow."""
    soft = max(piece.rfind(mark) for mark in BREAK_AFTER) + 1
    if soft > len(piece) // 2:
        return soft
    if after in NO_LINE_START and len(piece) > 1:
        return len(piece) - 1
    return len(piece)


def fit(text: str, width: int | None = None) -> str:
    """Every line of ``text`` wrapped to ``width`` (default: the terminal's)."""
    width = terminal_width() if width is None else width
    return "\n".join(out for line in text.split("\n") for out in wrap_line(line, width))


def say(text: str = "", err: bool = False) -> None:
    """Print ``text`` for a person: wrapped to the terminal (the one text printer of the CLI)."""
    click.echo(fit(text), err=err)


def rule_label(rule: str) -> str:
    """A rule number as printed in a list: a step number of the Axis & Allies rule text
    ("land 4)", the Japanese enumerator) loses the bracket it never opened ("land 4")."""
    return _STEP.sub(r"\1", rule) if rule.count(")") > rule.count("(") else rule


def rules_text(rules: Iterable[str]) -> str:
    """Rule numbers joined for a bracketed list: ``③ combat, land 1-7, sea 1-8``."""
    return ", ".join(rule_label(str(r)) for r in rules)

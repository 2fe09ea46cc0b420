"""What a user types: whole numbers and the names of files and folders.

Every integer read from the command line (a roll, an input value, a unit count, an MP
value, a seed, an indent) goes through :func:`read_int` or :func:`parse_int`: ASCII
digits only, with an optional sign, at most :data:`MAX_DIGITS` of them. Python's own
``int()`` takes ``'٣'`` (Arabic-Indic three) and ``'1_000'``, refuses ``'²'`` although
``'²'.isdigit()``, and stops with a ``ValueError`` past 4,300 digits; none of that
reaches the engine.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from difflib import get_close_matches

from .errors import BadInput

#: The most digits a whole number typed by a user may have: every count, roll and value
#: of the five games has at most 4, and a seed fits in 18 (a 64-bit integer).
MAX_DIGITS = 18

#: The longest name of one file or folder (a path component) most file systems take.
MAX_NAME_BYTES = 255

#: How much of a long input a message quotes.
QUOTE_CHARS = 40
#: How many choices a message lists before it says how many more there are.
CHOICES = 5


def quote(text: object, most: int = QUOTE_CHARS) -> str:
    """``repr`` of an input, cut to ``most`` characters with its length when longer."""
    if not isinstance(text, str) or len(text) <= most:
        return repr(text)
    return f"{text[:most]!r}... ({len(text)} characters)"


def choices(items: Iterable[object], see: str = "", most: int = CHOICES) -> str:
    """``a, b, c`` for a message; past ``most`` items the first ``most`` and ``and N more``,
    then ``: see`` (where to find them all)."""
    shown = [str(item) for item in items]
    if len(shown) <= most:
        return ", ".join(shown)
    more = f" and {len(shown) - most} more"
    return ", ".join(shown[:most]) + more + (f": {see}" if see else "")


def likely_first(typed: object, items: Iterable[str]) -> list[str]:
    """``items`` with those closest to ``typed`` (a typo's intended name) first."""
    keys = list(items)
    close = get_close_matches(str(typed)[:100], keys, n=3)
    return [*close, *(k for k in keys if k not in close)]


def did_you_mean(typed: object, items: Iterable[str]) -> str:
    """``: did you mean 'map'?`` when one of ``items`` is close to ``typed`` (a typo, a
    plural), else nothing: what a message adds after the name it refuses."""
    close = get_close_matches(str(typed)[:100].strip().lower(), list(items), n=1)
    return f": did you mean {close[0]!r}?" if close else ""


def read_int(text: object) -> int | None:
    """``text`` as an int when it is ``[+-]`` and 1 to ``MAX_DIGITS`` ASCII digits (spaces
    around allowed), else None. An int is returned as it is when it has at most
    ``MAX_DIGITS`` digits; a bool is never a number."""
    if isinstance(text, bool):
        return None
    if isinstance(text, int):
        return text if len(str(abs(text))) <= MAX_DIGITS else None
    if not isinstance(text, str):
        return None
    body = text.strip()
    digits = body[1:] if body[:1] in ("+", "-") else body
    if not (0 < len(digits) <= MAX_DIGITS and digits.isascii() and digits.isdigit()):
        return None
    return int(body)


def too_many_digits(text: object) -> bool:
    """Whether ``text`` is a whole number that ``read_int`` refuses for its length alone
    (more than ``MAX_DIGITS`` digits), to be told so rather than a range it lies in."""
    if not isinstance(text, str):
        return False
    digits = text.strip().lstrip("+-")
    return len(digits) > MAX_DIGITS and digits.isascii() and digits.isdigit()


def bounds_text(low: int | None, high: int | None) -> str:
    """``'a whole number from 1 to 6'``, ``'... of at least 0'`` and so on."""
    if low is not None and high is not None:
        return f"a whole number from {low} to {high}"
    if low is not None:
        return f"a whole number of at least {low}, at most {MAX_DIGITS} digits"
    if high is not None:
        return f"a whole number of at most {high}, at most {MAX_DIGITS} digits"
    return f"a whole number of at most {MAX_DIGITS} digits (0-9)"


def parse_int(text: object, name: str, low: int | None = None, high: int | None = None,
              allowed: str | None = None) -> int:
    """``text`` as an int within ``[low, high]``; else BadInput quoting ``name`` and the
    input and saying what is allowed (``allowed`` or the bounds)."""
    value = read_int(text)
    if value is None or (low is not None and value < low) or (high is not None and
                                                              value > high):
        raise BadInput(f"{name} {quote(text)} is not allowed "
                       f"({allowed or bounds_text(low, high)})")
    return value


def check_path_name(text: str, name: str) -> str:
    """A file or folder name a user gave, refused (BadInput) when one of its parts is longer
    than the file system takes (``OSError: File name too long`` otherwise) or it holds a
    NUL character."""
    if "\0" in text:
        raise BadInput(f"{name} {quote(text)}: a path cannot hold a NUL character")
    for part in text.replace(os.sep, "/").split("/"):
        size = len(part.encode("utf-8", "surrogatepass"))
        if size > MAX_NAME_BYTES:
            raise BadInput(f"{name} {quote(text)}: a file or folder name is at most "
                           f"{MAX_NAME_BYTES} bytes (one part here is {size})")
    return text

"""Domain errors of the engine.

The library raises these; ``cli/`` maps them to exit codes (bad input: 2).
"""

from __future__ import annotations

from functools import total_ordering
from operator import attrgetter

from .records import Frozen, frozen_record


class WarpressError(Exception):
    """Base class of every error warpress raises on purpose."""


class BadInput(WarpressError, ValueError):
    """Input a user typed (a game, table, input name or value) is not allowed.

    The message names the input and what is allowed.
    """


class Untrusted(BadInput):
    """A command needs the Python of a game folder that is not trusted (engine/trust.py)."""


@total_ordering
@frozen_record(kw_only=False)
class Problem(Frozen):
    """One problem in a game's data, located by file, line and key path; problems sort by
    file, line, path and message."""

    file: str
    line: int
    path: str
    message: str

    def __lt__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return _order(self) < _order(other)

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.path}: {self.message}" if self.path else f"{where}: {self.message}"


_order = attrgetter("file", "line", "path", "message")


class DataError(WarpressError):
    """A game's data has problems; ``problems`` lists every one of them."""

    def __init__(self, problems: list[Problem], game: str | None = None):
        self.problems = sorted(set(problems))
        self.game = game  # the game as the user named it, when known
        super().__init__("\n".join(str(p) for p in self.problems))


class InputProblems(BadInput):
    """Bad input that is a file (a referee scenario): ``problems`` lists every problem found,
    located by file, line and key path; the message is their lines."""

    def __init__(self, problems: list[Problem]):
        self.problems = tuple(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class RuleViolation(WarpressError):
    """A procedure was asked to do what the rules forbid; names the rule."""

    def __init__(self, rule: str, message: str):
        self.rule = rule
        super().__init__(f"{message} (rule {rule})")

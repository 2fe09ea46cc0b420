"""Automatic referee sessions: the contract between a game's referee and the session store.

A *referee* plays the hidden side of a game (Nightfighter's umpire, rule 5.0) for one human
player. It is a set of pure functions over an opaque, immutable game state: it never does
I/O and draws every random number from the ``Dice`` it is given, so the same scenario, seed
and commands always give the same state (the session store in ``engine.session`` relies on
that to replay a log).

The store owns the files; the referee owns the rules. A game's folder holds its referee in
``rules/session.py``, which names a class implementing :class:`Referee` ``REFEREE``; the CLI
finds it with :func:`referee_for` (bound to the folder, never to the id; no
``if game == ...``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from .dice import Dice
from .errors import BadInput
from .model import Game


@dataclass(frozen=True)
class Announcement:
    """One thing the referee tells the player (Nightfighter: the referee's messages, checks.yaml).

    ``text`` is the sentence shown to the player; ``data`` the same facts as JSON values for
    ``--json`` (never more than ``text`` says); ``rules`` the rule numbers behind it."""

    turn: int
    phase: str
    text: str
    rules: tuple[str, ...] = ()
    data: Mapping[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {"turn": self.turn, "phase": self.phase, "text": self.text,
                "rules": list(self.rules), "data": dict(self.data)}


@dataclass(frozen=True)
class Step:
    """The result of a referee step: the new state and what the player is told."""

    state: Any
    announcements: tuple[Announcement, ...] = ()


@dataclass(frozen=True)
class ScenarioInfo:
    """A shipped scenario, as ``referee scenarios`` lists it."""

    name: str
    title: str
    path: str
    summary: str = ""


#: the formats a referee's maps may be asked in (``--map FILE``, by its suffix); a referee
#: refuses a format it cannot draw with BadInput
MAP_FORMATS = ("svg", "png")


class Referee(Protocol):
    """What a game implements to be refereed automatically.

    All state objects are immutable; functions return new ones. A command the rules forbid
    raises ``RuleViolation`` naming the rule, and bad input (unknown fighter, hex, command
    arguments) raises ``BadInput``; in both cases the store keeps the old state.
    """

    game_id: str
    #: player command names this referee accepts, e.g. ("move", "search", ..., "end-turn")
    commands: tuple[str, ...]
    #: optional: how the text views print a field, by key (Nightfighter: facing -> "NW (5)")
    field_text: Mapping[str, Callable[[Any], str]]
    #: optional: how ``referee log`` prints a command's argument as it was typed, by name
    #: (Nightfighter: facing=NW -> "NW (5)"; a value that is no facing as typed)
    arg_text: Mapping[str, Callable[[Any], str]]

    def scenarios(self, game: Game) -> tuple[ScenarioInfo, ...]:
        """The shipped scenarios, the default first."""

    def scenario_file(self, game: Game, name_or_path: str | None) -> Path:
        """The file of a scenario by shipped name or YAML path (``None``: the default), found
        without reading it; BadInput if unknown."""

    def load_scenario(self, game: Game, name_or_path: str | None) -> Any:
        """A scenario by shipped name or YAML path (``None``: the default). BadInput if unknown
        or invalid (file:line: key: message)."""

    def new(self, game: Game, scenario: Any, dice: Dice) -> Step:
        """Set up and run the referee's phases up to the first one the player acts in."""

    def apply(self, game: Game, state: Any, command: str, args: Mapping[str, Any],
              dice: Dice) -> Step:
        """Run one player command, then the referee's phases up to the next player decision."""

    def player_view(self, game: Game, state: Any) -> dict[str, Any]:
        """JSON-ready: only what the player is entitled to know (rule 5.0)."""

    def referee_view(self, game: Game, state: Any) -> dict[str, Any]:
        """JSON-ready: the whole truth (the umpire map), for ``reveal``."""

    def summary(self, game: Game, state: Any) -> dict[str, Any] | None:
        """``None`` while the game goes on; at the end the result and its reasons (4.1)."""

    def dump(self, state: Any) -> dict[str, Any]:
        """The whole state as JSON values (lists, dicts, str, int, bool, None)."""

    def load(self, game: Game, data: Mapping[str, Any]) -> Any:
        """The inverse of ``dump``; BadInput naming the key when ``data`` is not a state."""

    def render_player_map(self, game: Game, state: Any, fmt: str = "svg") -> bytes:
        """The player map as ``fmt`` ("svg" or "png") bytes, drawn from ``player_view`` only;
        BadInput for a format the game cannot draw."""

    def render_referee_map(self, game: Game, state: Any, fmt: str = "svg") -> bytes:
        """The umpire map (every attacker) as ``fmt`` bytes."""


def referee_for(game: Game) -> Referee:
    """The referee of ``game``: ``REFEREE`` of ``rules/session.py`` in its folder, imported
    only here, so that a plain ``lookup`` does not pay for it; BadInput listing the games
    that have one."""
    from .gamecode import import_part, missing

    module = import_part(game, "rules.session")
    if module is None:
        have = ", ".join(_builtin_refereed()) or "none"
        raise BadInput(f"game {game.id!r} has no automatic referee (have: {have})")
    referee = getattr(module, "REFEREE", None)
    if not isinstance(referee, type):
        raise missing(game, "rules.session", "REFEREE", "the class of the game's referee")
    return referee()


def _builtin_refereed() -> list[str]:
    """Built-in games whose folder has a ``rules/session.py`` (found, not imported)."""
    from .loader import GAMES_DIR, builtin_games

    return [name for name in builtin_games()
            if (GAMES_DIR / name / "rules" / "session.py").is_file()]

"""Automatic referee sessions: the contract between a game's referee and the session store.

A *referee* plays the hidden side of a game (Nightfighter's umpire, rule 5.0) for one human
player. It is a set of pure functions over an opaque, immutable game state: it never does
I/O and draws every random number from the ``Dice`` it is given, so the same scenario, seed
and commands always give the same state (the session store in ``engine.session`` relies on
that to replay a log).

The store owns the files; the rules own the game. A game's folder holds its own session
rules in ``rules/session.py``: a class implementing :class:`Referee`, registered with
``@CODE.session`` on the folder's ``CODE`` (``engine.registry.GameCode``);
a game with a ``play`` mapping and no such file is played by the data-driven rules of
``engine.play``. ``engine.rulesets.rules_for`` finds them (bound to the folder, never to the
id; no ``if game == ...``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Protocol

from .decisions import ActionSpec, Decision
from .dice import Dice
from .errors import BadInput, RuleViolation
from .inputs import quote
from .model import Game
from .position import Position, Verdict


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
    """What a game implements to be played in a session (``warpress play``): its rules.

    The state is a :class:`~warpress.engine.position.Position`; functions return new ones.
    A command the rules forbid raises ``RuleViolation`` naming the rule, and bad input
    (unknown unit, hex, command arguments) raises ``BadInput``; in both cases the store keeps
    the old position. A game with a ``play`` mapping and no ``rules/session.py`` is played by
    the data-driven rules of ``engine.play`` (docs/playing.md).
    """

    #: the actions this game accepts, as the command line offers them (name, arguments,
    #: options, help); ``commands`` are their names
    actions: tuple[ActionSpec, ...]
    commands: tuple[str, ...]
    #: whether a side's view hides part of the position (double-blind, hands); such rules
    #: may also give ``determinise(game, view, side, rng) -> Position``: a position drawn at
    #: random that agrees with ``view``, which agents that look ahead search instead of the
    #: position itself (engine/agents.py); ``view`` is ``agent_view(game, position, side)``
    #: where the rules give one (what the side knows, in any form: the Midway card game's
    #: is the position with what the side cannot see sorted and pooled), else
    #: ``player_view`` of ``side``. Rules whose game the data-driven scorer cannot read
    #: (engine/evaluate.py) may give ``score(game, position, side) -> float``: how good an
    #: unfinished position is for ``side``, zero-sum between the sides, on the scale of
    #: evaluate's (a victory point weighs 4; a won game 1000). Rules whose every step costs
    #: much may give ``lookahead``: per agent name, the settings its agents use unless told
    #: (``{"greedy": {"limit": 12}, "mcts": {"budget": 48}}``; engine.agents.lookahead)
    hidden: bool
    #: optional: ``broken(game, before, action, after) -> list[str]``, what a step broke of
    #: the game's own whole-game invariants (empty: nothing), checked beside
    #: ``engine.whole.broken`` after every step a balance run plays
    #: optional: how the text views print a field, by key (Nightfighter: facing -> "NW (5)")
    field_text: Mapping[str, Callable[[Any], str]]
    #: optional: how ``play log`` prints a command's argument as it was typed, by name
    arg_text: Mapping[str, Callable[[Any], str]]
    #: optional: the arguments, by command, that the other side may not read until the rules
    #: reveal them (a written plan): the session log keeps them sealed (engine/session.py)
    sealed_args: Mapping[str, tuple[str, ...]]

    def scenarios(self, game: Game) -> tuple[ScenarioInfo, ...]:
        """The shipped scenarios, the default first."""

    def scenario_file(self, game: Game, name_or_path: str | None) -> Path | None:
        """The file of a scenario by shipped name or YAML path (``None``: the default), found
        without reading it (None when the scenario is part of the game's data); BadInput if
        unknown."""

    def load_scenario(self, game: Game, name_or_path: str | None) -> Any:
        """A scenario by shipped name or YAML path (``None``: the default). BadInput if unknown
        or invalid (file:line: key: message)."""

    def new(self, game: Game, scenario: Any, dice: Dice) -> Step:
        """Set up and run up to the first decision."""

    def apply(self, game: Game, state: Position, command: str, args: Mapping[str, Any],
              dice: Dice) -> Step:
        """Run one command, then whatever follows by itself up to the next decision."""

    def decision(self, game: Game, state: Position) -> Decision | None:
        """The decision due and its legal answers (None once the game is over)."""

    def player_view(self, game: Game, state: Position, side: str | None = None
                    ) -> dict[str, Any]:
        """JSON-ready: only what ``side`` (default: the player) is entitled to know."""

    def referee_view(self, game: Game, state: Position) -> dict[str, Any]:
        """JSON-ready: the whole truth, for ``reveal``."""

    def summary(self, game: Game, state: Position) -> dict[str, Any] | None:
        """``None`` while the game goes on; at the end the result and its reasons."""


class PositionRules:
    """What the rules of every game whose state is a :class:`Position` share: the position
    dumped and loaded as its JSON, and the checks every command meets first
    (:meth:`checked`, :meth:`refuse_when_over`). A game's rules class takes it as a base
    beside its own methods: its ``actions`` name its ``commands``; fields and arguments read
    plainly in text unless it gives ``field_text`` or ``arg_text``."""

    actions: tuple[ActionSpec, ...] = ()
    commands: tuple[str, ...] = ()
    field_text: Mapping[str, Callable[[Any], str]] = MappingProxyType({})
    arg_text: Mapping[str, Callable[[Any], str]] = MappingProxyType({})

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "actions" in cls.__dict__ and "commands" not in cls.__dict__:
            cls.commands = tuple(action.name for action in cls.actions)

    def checked(self, command: str, args: Any) -> Mapping[str, Any]:
        """``args`` once ``command`` is one of the rules' commands and ``args`` an object
        (BadInput quoting them)."""
        if command not in self.commands:
            raise BadInput(f"unknown command {quote(command)} (commands: "
                           f"{', '.join(self.commands)})")
        if not isinstance(args, Mapping):
            raise BadInput(f"{command}: arguments must be an object, got {quote(args)}")
        return args

    @staticmethod
    def refuse_when_over(position: Position, command: str, rule: str,
                         over: Callable[[Verdict], str] = lambda v: v.result,
                         what: str = "game") -> None:
        """RuleViolation once the game is over: the verdict's rule (else ``rule``), how it
        ended (``over(verdict)``)."""
        verdict = position.verdict
        if position.over and verdict is not None:
            raise RuleViolation(verdict.rule[0] if verdict.rule else rule,
                                f"the {what} is over ({over(verdict)}); {command} is refused")

    def dump(self, position: Position) -> dict[str, Any]:
        return position.to_json()

    def load(self, game: Game, data: Mapping[str, Any]) -> Position:
        return Position.from_json(data)


class OneScenario(PositionRules):
    """What the rules of a game with one scenario, part of its data, share besides
    :class:`PositionRules`: the scenario's name (``scenario``: the class's), found without
    a file."""

    scenario: str = "standard"

    def scenario_file(self, game: Game, name_or_path: str | None) -> None:
        self.load_scenario(game, name_or_path)
        return None

    def load_scenario(self, game: Game, name_or_path: str | None) -> str:
        if name_or_path not in (None, self.scenario):
            raise BadInput(f"scenario {quote(name_or_path)} is not one of {game.id}'s "
                           f"({self.scenario})")
        return self.scenario

"""Agents: players the rules run, choosing among the legal answers a session lists.

An agent sees the decision due (``Rules.decision``: its side, its options and their
actions) and the view its side may have, never more, and returns one of the listed
actions; dice stay chance, drawn from the session's seed. :func:`playout` plays a game to
its end (or a step cap) with an agent for each side, drawing each step's dice exactly as a
session does (``derived_seed(seed, n)``), so a playout's actions replayed in a session
give the same positions, hash for hash.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from .decisions import Action, Decision
from .dice import SeededDice, derived_seed
from .model import Game
from .position import Position
from .referee import Referee


class Agent(Protocol):
    """Chooses one of the actions a decision lists."""

    name: str

    def choose(self, game: Game, rules: Referee, position: Position, decision: Decision,
               rng: random.Random) -> Action:
        """One of ``decision``'s actions."""


class RandomAgent:
    """Random among the legal answers: an option at random (one unit to move, one hex to
    attack, ...), then one of its actions at random."""

    name = "random"

    def choose(self, game: Game, rules: Referee, position: Position, decision: Decision,
               rng: random.Random) -> Action:
        options = list(decision.options)
        while options:
            option = options.pop(rng.randrange(len(options)))
            actions = option.actions
            if actions:
                return actions[rng.randrange(len(actions))]
        raise Stalled(f"no legal answer to {decision.prompt!r}")


class Stalled(Exception):
    """A decision with no legal answer while the game is not over (a hole in the rules)."""


@dataclass
class Playout:
    """A game played by agents: its seed, the actions taken (in order), the final position,
    and why it stopped (``over``, ``cap``)."""

    seed: int
    position: Position
    actions: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    stopped: str = "over"


def playout(game: Game, rules: Referee, seed: int, agents: Mapping[str, Agent] | Agent,
            scenario: Any = None, max_steps: int = 20_000,
            each: Callable[[Position | None, tuple[str, dict] | None, Position], None]
            | None = None) -> Playout:
    """Play ``game`` from ``scenario`` with ``seed`` to its end, each side by its agent;
    ``each(before, action, after)`` is called after the set-up and every action (the
    whole-game invariants)."""
    rng = random.Random(derived_seed(seed, "agents"))
    loaded = rules.load_scenario(game, scenario)
    position = rules.new(game, loaded, SeededDice(derived_seed(seed, 0))).state
    if each is not None:
        each(None, None, position)
    played = Playout(seed, position)
    for n in range(1, max_steps + 1):
        decision = rules.decision(game, position)
        if decision is None:
            return played
        agent = agents if not isinstance(agents, Mapping) else agents[decision.side or ""]
        action = agent.choose(game, rules, position, decision, rng)
        args = dict(action.args)
        after = rules.apply(game, position, action.name, args,
                            SeededDice(derived_seed(seed, n))).state
        if each is not None:
            each(position, (action.name, args), after)
        played.actions.append((action.name, args))
        played.position = position = after
    played.stopped = "cap"
    return played

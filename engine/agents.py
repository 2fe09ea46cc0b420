"""Agents: players the rules run, choosing among the legal answers a session lists.

An agent is given what its side may know when it decides (:class:`Seen`: the decision due
with its legal answers, and the side's view; the position itself only for a game that
hides nothing) and returns one of the listed actions. Dice stay chance: a step's dice are
drawn from the game's seed exactly as a session draws them (``derived_seed(seed, n)``),
and an agent's own randomness for step ``n`` from ``derived_seed(seed, "agent:n")``, so a
game played by agents and the same seed replayed in a session (``warpress play new ...
--agent SIDE=NAME``) make the same choices, hash for hash.

Three agents (``AGENTS``): ``random`` (an option at random, then one of its answers),
``greedy`` (every answer looked at one step ahead and scored from the data, the expected
score over the dice where the step rolls: engine/evaluate.py) and ``mcts`` (a Monte Carlo
tree search, :class:`MctsAgent`). For a game whose rules hide part of the position
(``rules.hidden``), an agent that looks ahead searches positions sampled to agree with its
side's view (``rules.determinise``), never the position itself.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Protocol

from .decisions import Action, Decision, Option
from .dice import Dice, DiceError, SeededDice, derived_seed, distribution, expected
from .errors import BadInput, RuleViolation
from .evaluate import score
from .model import Game
from .play.pieces import party
from .position import Position
from .referee import Referee


class Stalled(Exception):
    """A decision with no legal answer while the game is not over (a hole in the rules)."""


class Seen:
    """What an agent of ``side`` may know when it decides: the ``decision`` due (its legal
    answers, as the rules list them to a person), the side's ``view`` (the rules'
    ``agent_view`` where they give one, else ``player_view``) and,
    through :meth:`sample`, a position to search: the position itself in a game that hides
    nothing, else one drawn to agree with the view (``rules.determinise``)."""

    def __init__(self, game: Game, rules: Referee, position: Position, decision: Decision):
        self.game, self.rules, self.decision = game, rules, decision
        self.side = decision.side
        self.hidden = bool(getattr(rules, "hidden", False))
        self._position = None if self.hidden else position
        if self.hidden:
            agent_view = getattr(rules, "agent_view", None) or rules.player_view
            self.view = agent_view(game, position, self.side)

    @cached_property
    def view(self) -> dict[str, Any]:  # a game that hides nothing: the view when asked
        assert self._position is not None  # a hiding game's view is set when it is seen
        return self.rules.player_view(self.game, self._position, self.side)

    def sample(self, rng: random.Random) -> Position:
        """A position to look ahead from (see the class docstring)."""
        if self._position is not None:
            return self._position
        determinise = getattr(self.rules, "determinise", None)
        if determinise is None:
            raise BadInput(f"{self.game.id}: its rules hide part of the position and cannot "
                           f"sample it from a side's view (determinise): only the random "
                           f"agent plays it")
        sampled: Position = determinise(self.game, self.view, self.side, rng)
        return sampled


class Agent(Protocol):
    """Chooses one of the actions a decision lists."""

    name: str

    def choose(self, seen: Seen, rng: random.Random) -> Action:
        """One of ``seen.decision``'s actions."""


class RandomAgent:
    """Random among the legal answers: an option at random (one unit to move, one hex to
    attack, ...), then one of its actions at random."""

    name = "random"

    def choose(self, seen: Seen, rng: random.Random) -> Action:
        return random_answer(seen.decision, rng)


def position_score(rules: Referee, game: Game, position: Position, side: str | None
                   ) -> float:
    """``side``'s score of ``position``: a finished game's verdict, else the rules' own
    ``score`` where they give one (a game whose data the scorer cannot read: cards, a
    base's damage), else the score read from the data (engine/evaluate.py)."""
    own = getattr(rules, "score", None)
    if own is not None and position.verdict is None:
        return float(own(game, position, side))
    return score(game, position, side)


def random_answer(decision: Decision, rng: random.Random) -> Action:
    options = list(decision.options)
    while options:
        option = options.pop(rng.randrange(len(options)))
        actions = option.actions
        if actions:
            return actions[rng.randrange(len(actions))]
    raise Stalled(f"no legal answer to {decision.prompt!r}")


def candidates(decision: Decision, rng: random.Random, limit: int, options: int = 0
               ) -> list[Action]:
    """The answers a looking-ahead agent weighs: all of them, or ``limit`` drawn at random
    (every option keeps one answer, so that ``end`` or ``pass`` is always weighed). With
    ``options`` (0: every option), at most that many options have their answers listed:
    the last (where a game lists ``end`` or ``pass``) and the rest drawn at random, so
    that a decision of many units pays for a few units' moves; where the options drawn
    have no answer, every option is listed."""
    listed = decision.options
    if 0 < options < len(listed):
        drawn = sorted(rng.sample(range(len(listed) - 1), options - 1))
        found = _weighed(tuple(listed[i] for i in drawn) + (listed[-1],), rng, limit)
        if found:
            return found
    found = _weighed(listed, rng, limit)
    if not found:
        raise Stalled(f"no legal answer to {decision.prompt!r}")
    return found


def _weighed(options: Sequence[Option], rng: random.Random, limit: int) -> list[Action]:
    """The answers of ``options``: all of them, or ``limit`` with one of every option."""
    by_option = [list(option.actions) for option in options]
    every = [a for actions in by_option for a in actions]
    if len(every) <= limit:
        return every
    kept = [actions[rng.randrange(len(actions))] for actions in by_option if actions]
    rest = [a for a in every if a not in kept]  # an answer two options list is kept once
    kept += rng.sample(rest, min(len(rest), max(0, limit - len(kept))))
    return kept


def lookahead(rules: Referee, agent: str, given: Mapping[str, int]) -> dict[str, int]:
    """An agent's settings under ``rules``: the defaults ``given``, those the rules name
    for the agent (``rules.lookahead[agent]``: a game whose every step costs much looks less
    far by default) in their place."""
    own = (getattr(rules, "lookahead", None) or {}).get(agent, {})
    return {key: int(own.get(key, value)) for key, value in given.items()}


class GreedyAgent:
    """One step ahead: every answer (at most ``limit``) applied and the position after it
    scored for the side (engine/evaluate.py); where the step rolls dice, the score is the
    expected one over every roll (exactly, up to ``rolls`` sequences; else the mean of
    ``rolls // 8`` seeded samples). The best answer wins, ties at random. In a game that
    hides part of the position, the score is averaged over ``samples`` positions drawn from
    the side's view. A setting not given is the game's (:func:`lookahead`), else the
    default (64 answers, 216 rolls, 4 samples, the answers of every option: ``options``,
    see :func:`candidates`)."""

    name = "greedy"
    DEFAULTS = {"limit": 64, "rolls": 216, "samples": 4, "options": 0}

    def __init__(self, limit: int | None = None, rolls: int | None = None,
                 samples: int | None = None, options: int | None = None):
        given = {"limit": limit, "rolls": rolls, "samples": samples, "options": options}
        self.given = {k: v for k, v in given.items() if v is not None}

    def settings(self, rules: Referee) -> dict[str, int]:
        return {**lookahead(rules, self.name, self.DEFAULTS), **self.given}

    def choose(self, seen: Seen, rng: random.Random) -> Action:
        settings = self.settings(seen.rules)
        actions = candidates(seen.decision, rng, settings["limit"], settings["options"])
        if len(actions) == 1:
            return actions[0]
        positions = [seen.sample(rng) for _ in range(settings["samples"] if seen.hidden
                                                     else 1)]
        values = [sum(self.value(seen, p, a, rng) for p in positions) for a in actions]
        top = max(values)
        best = [a for a, v in zip(actions, values, strict=True) if v >= top - 1e-9]
        return best[rng.randrange(len(best))]

    def value(self, seen: Seen, position: Position, action: Action,
              rng: random.Random) -> float:
        """The expected score of ``action`` from ``position`` for the side deciding."""
        game, rules, side = seen.game, seen.rules, seen.side
        rolls = self.settings(rules)["rolls"]

        def after(dice: Dice) -> float:
            moved = rules.apply(game, position, action.name, dict(action.args), dice).state
            return round(position_score(rules, game, moved, side), 9)

        try:
            return float(expected(distribution(after, max_rolls=8, max_sequences=rolls)))
        except DiceError:
            draws = [after(SeededDice(rng.getrandbits(63))) for _ in range(max(1, rolls // 8))]
            return sum(draws) / len(draws)


#: the largest budget of ``mcts:STEPS``: a few seconds a decision, so that an agent a
#: session names (a session handed over names its agents) cannot stall a command
MOST_STEPS = 20_000
#: the agents by name; ``mcts:N`` gives the search a budget of N steps a decision
AGENTS: dict[str, Callable[..., Agent]] = {
    "random": lambda: RandomAgent(),
    "greedy": lambda: GreedyAgent(),
    "mcts": lambda budget=None: MctsAgent(budget=budget),
}


def make_agent(spec: str) -> Agent:
    """The agent a name gives (``random``, ``greedy``, ``mcts`` or ``mcts:STEPS``); BadInput
    quoting the name and listing the agents."""
    name, _, budget = spec.strip().partition(":")
    if name not in AGENTS:
        raise BadInput(f"unknown agent {spec!r} (agents: {', '.join(sorted(AGENTS))}; "
                       f"mcts:STEPS sets the search's budget)")
    if not budget:
        return AGENTS[name]()
    if name != "mcts":
        raise BadInput(f"agent {spec!r}: only mcts takes a budget (mcts:STEPS)")
    if not budget.isascii() or not budget.isdigit() or not 1 <= int(budget) <= MOST_STEPS:
        raise BadInput(f"agent {spec!r}: the budget of mcts:STEPS is a whole number of steps "
                       f"from 1 to {MOST_STEPS}")
    return AGENTS[name](int(budget))


def parse_agents(specs: Sequence[str], sides: Sequence[str], what: str = "--agent",
                 rules: Referee | None = None) -> dict[str, str]:
    """``SIDE=NAME`` pairs as a dict side -> agent name, each checked (BadInput quoting the
    pair: an unknown side or agent, a side named twice, an agent that looks ahead for
    ``rules`` that hide part of the position and cannot draw it from a side's view)."""
    out: dict[str, str] = {}
    for spec in specs:
        side, eq, name = spec.partition("=")
        side, name = side.strip(), name.strip()
        if not eq or not side or not name:
            raise BadInput(f"{what} {spec!r}: expected SIDE=AGENT (sides: {', '.join(sides)};"
                           f" agents: {', '.join(sorted(AGENTS))})")
        if side not in sides:
            raise BadInput(f"{what} {spec!r}: no side {side!r} (sides: {', '.join(sides)})")
        if side in out:
            raise BadInput(f"{what} {spec!r}: side {side!r} is named twice")
        make_agent(name)
        if rules is not None and not can_search(rules) and name != "random":
            raise BadInput(f"{what} {spec!r}: this game hides part of the position from "
                           f"each side and its rules cannot draw it from what the side has "
                           f"seen: only the random agent plays it")
        out[side] = name
    return out


def can_search(rules: Referee) -> bool:
    """Whether an agent that looks ahead can play under ``rules``: the game hides nothing,
    or its rules draw positions from a side's view (``determinise``)."""
    return not getattr(rules, "hidden", False) or getattr(rules, "determinise", None) is not None


def agent_rng(seed: int, n: int) -> random.Random:
    """An agent's randomness for step ``n`` of the game played from ``seed``."""
    return random.Random(derived_seed(seed, f"agent:{n}"))


@dataclass
class Playout:
    """A game played by agents: its seed, the actions taken (in order), the final position,
    the sides that made a decision, and why it stopped (``over``; ``cap``: the step cap;
    ``turn-cap``: the turn cap; ``stall``: a decision with no legal answer, ``stall`` says
    which)."""

    seed: int
    position: Position
    actions: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    deciders: set[str] = field(default_factory=set)
    stopped: str = "over"
    stall: str = ""


Each = Callable[[Position | None, tuple[str, dict[str, Any]] | None, Position], None]


def playout(game: Game, rules: Referee, seed: int, agents: Mapping[str, Agent] | Agent,
            scenario: Any = None, max_steps: int = 20_000, each: Each | None = None,
            start: Callable[[Position], Position] | None = None,
            max_turns: int | None = None) -> Playout:
    """Play ``game`` from ``scenario`` with ``seed`` to its end, each side by its agent;
    ``each(before, action, after)`` is called after the set-up and every action (the
    whole-game invariants); ``start`` changes the set-up's position first (restricted
    play: a unit removed or weakened). The game stops undecided after ``max_steps``
    actions (``cap``) or once its turn passes ``max_turns`` (``turn-cap``)."""
    loaded = rules.load_scenario(game, scenario)
    position = rules.new(game, loaded, SeededDice(derived_seed(seed, 0))).state
    if start is not None:
        position = start(position)
    if each is not None:
        each(None, None, position)
    played = Playout(seed, position)
    for n in range(1, max_steps + 1):
        if max_turns is not None and position.turn > max_turns and not position.over:
            played.stopped = "turn-cap"
            return played
        decision = rules.decision(game, position)
        if decision is None:
            return played
        agent = agents if not isinstance(agents, Mapping) else agents[decision.side or ""]
        played.deciders.add(decision.side or "")
        try:
            action = agent.choose(Seen(game, rules, position, decision), agent_rng(seed, n))
        except Stalled as exc:
            played.stopped, played.stall = "stall", str(exc)
            return played
        args = dict(action.args)
        after = rules.apply(game, position, action.name, args,
                            SeededDice(derived_seed(seed, n))).state
        if each is not None:
            each(position, (action.name, args), after)
        played.actions.append((action.name, args))
        played.position = position = after
    played.stopped = "cap"
    return played


def logistic(x: float) -> float:
    """A score squashed into 0..1 (what a search averages)."""
    if x < -60:
        return 0.0
    if x > 60:
        return 1.0
    return 1.0 / (1.0 + math.exp(-x))


class _Node:
    """A node of the search tree: the side deciding there, the answers weighed (fixed at
    the first visit), and each answer's child with its visits and summed value (for the
    side at the root)."""

    __slots__ = ("side", "actions", "children", "visits", "value")

    def __init__(self) -> None:
        self.side: str | None = None
        self.actions: list[Action] | None = None
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.value = 0.0


class MctsAgent:
    """Monte Carlo tree search (UCT) over the decisions, chance by sampling the dice.

    Each iteration starts from the position (in a game that hides part of it, from one
    drawn to agree with the side's view), walks the tree by the UCB1 rule (each side
    maximising its own value), adds one answer not tried yet, then plays on at random;
    after ``depth`` steps from the root, or at the end of the game, the position is scored
    (a win 1, a loss 0, a draw 0.5; before the end the score of engine/evaluate.py
    squashed into 0..1). The dice of every step are drawn anew for each iteration
    ("open loop"): the tree indexes answers, not outcomes, and an answer that the dice made
    illegal ends the walk there. The budget is ``budget`` steps (actions applied) a
    decision, not wall time, so that a seed plays the same game on any machine; the
    answer chosen is the most visited. At most ``width`` answers a node are weighed. A
    budget, depth or width not given is the game's (:func:`lookahead`), else the default
    (400 steps, 24 deep, 16 wide, the answers of every option: ``options``, see
    :func:`candidates`)."""

    name = "mcts"
    DEFAULTS = {"budget": 400, "depth": 24, "width": 16, "options": 0}

    def __init__(self, budget: int | None = None, depth: int | None = None,
                 width: int | None = None, exploration: float = 1.4, scale: float = 8.0,
                 options: int | None = None):
        given = {"budget": budget, "depth": depth, "width": width, "options": options}
        self.given = {k: v for k, v in given.items() if v is not None}
        self.budget, self.depth, self.width, self.options = (self.given.get(k, v)
                                                             for k, v in self.DEFAULTS.items())
        self.exploration, self.scale = exploration, scale

    def choose(self, seen: Seen, rng: random.Random) -> Action:
        settings = {**lookahead(seen.rules, self.name, self.DEFAULTS), **self.given}
        self.budget, self.depth, self.width, self.options = (settings[k]
                                                             for k in self.DEFAULTS)
        root = _Node()
        root.side = seen.side
        root.actions = candidates(seen.decision, rng, self.width, self.options)
        if len(root.actions) == 1:
            return root.actions[0]
        spent = 0
        while spent < self.budget:
            spent += self._iterate(seen, root, seen.sample(rng), rng)
        ranked = sorted(root.children.items(),
                        key=lambda kv: (-kv[1].visits, -kv[1].value / max(kv[1].visits, 1),
                                        kv[0]))
        return root.actions[ranked[0][0]]

    def _iterate(self, seen: Seen, root: _Node, position: Position,
                 rng: random.Random) -> int:
        """One iteration; the steps it applied (at least one, so the budget runs out)."""
        game, rules = seen.game, seen.rules
        node, path, steps = root, [root], 0
        while steps < self.depth and not position.over:
            if node.actions is None:
                decision = rules.decision(game, position)
                if decision is None:  # no side decides: the game is over
                    break
                node.side = decision.side
                try:
                    node.actions = candidates(decision, rng, self.width, self.options)
                except Stalled:
                    break
            index = self._pick(node, rng, seen.side)
            after = _try(rules, game, position, node.actions[index], rng)
            steps += 1
            if after is None:
                break
            position = after
            fresh = index not in node.children
            node = node.children.setdefault(index, _Node())
            path.append(node)
            if fresh:
                break
        steps += self._rollout(seen, position, rng, self.depth - steps)
        value = self._value(seen, position)
        for visited in path:
            visited.visits += 1
            visited.value += value
        return max(steps, 1)

    def _pick(self, node: _Node, rng: random.Random, me: str | None) -> int:
        assert node.actions is not None  # a node is picked from once its answers are listed
        untried = [i for i in range(len(node.actions)) if i not in node.children]
        if untried:
            return untried[rng.randrange(len(untried))]
        log_n = math.log(max(node.visits, 1))
        mine = node.side == me

        def ucb(i: int) -> float:
            child = node.children[i]
            mean = child.value / child.visits
            return ((mean if mine else 1.0 - mean)
                    + self.exploration * math.sqrt(log_n / child.visits))

        return max(sorted(node.children), key=ucb)

    def _rollout(self, seen: Seen, position: Position, rng: random.Random, left: int) -> int:
        steps = 0
        while steps < left and not position.over:
            decision = seen.rules.decision(seen.game, position)
            if decision is None:  # no side decides: the game is over
                break
            try:
                action = random_answer(decision, rng)
            except Stalled:
                break
            after = _try(seen.rules, seen.game, position, action, rng)
            steps += 1
            if after is None:
                break
            position = after
        return steps

    def _value(self, seen: Seen, position: Position) -> float:
        verdict = position.verdict
        if verdict is not None:
            if verdict.winner is None:
                return 0.5
            return float(party(seen.game, verdict.winner) == party(seen.game, seen.side))
        return logistic(position_score(seen.rules, seen.game, position, seen.side)
                        / self.scale)


def _try(rules: Referee, game: Game, position: Position, action: Action,
         rng: random.Random) -> Position | None:
    """``position`` after ``action`` with fresh dice; None when the rules refuse it now (an
    answer of the tree that other dice made illegal)."""
    try:
        after: Position = rules.apply(game, position, action.name, dict(action.args),
                                      SeededDice(rng.getrandbits(63))).state
        return after
    except (RuleViolation, BadInput):
        return None


def play_session(session: Any, agents: Mapping[str, str], max_steps: int = 20_000
                 ) -> list[tuple[str, str, Action, Any]]:
    """Let ``agents`` (side -> agent name) make the decisions due in an open session for as
    long as one of their sides decides, each logged as that agent's command (so ``replay``
    is exact); the steps made, each ``(side, agent, action, step)``. Step ``n``'s choice
    draws on ``agent_rng(seed, n)``, as :func:`playout` does."""
    made = {side: make_agent(name) for side, name in agents.items()}
    done = []
    for _ in range(max_steps):
        decision = session.decision()
        if decision is None or decision.side not in made:
            break
        seen = Seen(session.game, session.referee, session.state, decision)
        action = made[decision.side].choose(seen, agent_rng(session.seed, session.n + 1))
        step = session.command(action.name, dict(action.args), agent=agents[decision.side])
        done.append((decision.side, agents[decision.side], action, step))
    return done

"""Helpers of the midway-cards session tests: positions at a chosen decision, commands
applied as a session applies them, whole games watched step by step."""

from __future__ import annotations

from dataclasses import replace

import pytest
from mc_helpers import state_with
from warpress.engine.agents import RandomAgent, playout
from warpress.engine.dice import SeededDice
from warpress.engine.errors import RuleViolation
from warpress.games.midway_cards.rules import session as ses
from warpress.games.midway_cards.rules import state as st
from warpress.games.midway_cards.rules.positions import start, to_state
from warpress.verify.whole import broken

RULES = ses.MidwayCardsRules()


def at_attack(game, japan_hand=(), us_hand=(), secondary_top=(), **changes):
    """The position of a turn's attack decision (after its draw phase) with exactly these
    hands; ``changes`` as ``state_with`` takes them (turn, turn_player, ships ...)."""
    changes.setdefault("turn", 3)
    changes.setdefault("turn_player", "japan")
    state = state_with(game, japan_hand, us_hand, secondary_top, **changes)
    run = ses.Run(game, start(game, state, ses.SCENARIO))
    run.pos = replace(run.pos, phase="aircraft-attack")
    run.due("attack", state.turn_player)
    return run.pos


def with_state(game, position, **changes):
    """``position`` with fields of its folder state changed (damage, flags)."""
    run = ses.Run(game, position)
    run.put(replace(to_state(game, position), **changes))
    return run.pos


def apply(game, position, *commands):
    """Each ``(name, args)`` in turn, as a session applies them; the last position and every
    announcement's text."""
    said = []
    for n, (name, args) in enumerate(commands, 1):
        step = RULES.apply(game, position, name, dict(args), SeededDice(n))
        position = step.state
        said += [a.text for a in step.announcements]
    return position, said


def refusal(game, position, name, args=None) -> RuleViolation:
    """The RuleViolation a command meets (the test fails if it is accepted)."""
    with pytest.raises(RuleViolation) as caught:
        RULES.apply(game, position, name, dict(args or {}), SeededDice(1))
    return caught.value


def legal(game, position) -> list[tuple[str, dict]]:
    """Every answer the decision due lists."""
    return [(a.name, dict(a.args)) for a in RULES.decision(game, position).actions()]


def play_watched(game, seed, each=None):
    """A whole game of random agents; the whole-game invariants after every step; ``each``
    is called too. Returns the playout and the positions, the set-up first."""
    positions = []

    def watch(before, action, after):
        problems = broken(game, before, action, after)
        assert not problems, f"seed {seed}, after {action}: {problems}"
        assert st.census_ok(to_state(game, after), game), f"seed {seed}, after {action}"
        positions.append(after)
        if each is not None:
            each(before, action, after)

    played = playout(game, RULES, seed, RandomAgent(), each=watch)
    return played, positions

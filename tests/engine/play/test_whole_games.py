"""Whole games played by random agents from every scenario of the starting game and of the
second example game (tests/fixtures/games/ridge): each reaches its end with one verdict,
the whole-game invariants hold at every step, and the same seed plays the same game."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from warpress.engine.agents import RandomAgent, playout
from warpress.engine.errors import RuleViolation
from warpress.engine.loader import load_game
from warpress.engine.play.game import HexRules
from warpress.engine.play.setup import scenario_names
from warpress.engine.whole import broken
from warpress.starter.new import new_game

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "games"
RULES = HexRules()


@pytest.fixture(scope="module")
def starter(tmp_path_factory):
    return load_game(str(new_game(str(tmp_path_factory.mktemp("play") / "starter")).folder))


@pytest.fixture(scope="module")
def ridge():
    return load_game(str(FIXTURES / "ridge"))


def watched(game):
    """A playout's ``each``: the invariants after every step, and the verdicts seen."""
    seen = {"verdicts": 0, "steps": 0}

    def each(before, action, after):
        problems = broken(game, before, action, after)
        assert not problems, f"step {seen['steps']} ({action}): {problems}"
        if after.verdict is not None and (before is None or before.verdict is None):
            seen["verdicts"] += 1
        seen["steps"] += 1

    return each, seen


def play_to_the_end(game, seed, scenario=None):
    each, seen = watched(game)
    played = playout(game, RULES, seed, RandomAgent(), scenario=scenario, each=each)
    assert played.stopped == "over", f"seed {seed}: stopped by the step cap"
    assert seen["verdicts"] == 1
    verdict = played.position.verdict
    assert verdict.rule, "the verdict cites its victory rule"
    return played


@settings(max_examples=15, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_the_starting_game_plays_to_its_end(starter, seed):
    for scenario in scenario_names(starter):
        play_to_the_end(starter, seed, scenario)


@settings(max_examples=15, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_the_second_game_plays_to_its_end(ridge, seed):
    for scenario in scenario_names(ridge):
        play_to_the_end(ridge, seed, scenario)


@pytest.mark.parametrize("seed", [3, 41])
def test_the_same_seed_plays_the_same_game(ridge, seed):
    digests = []
    for _ in range(2):
        each, _seen = watched(ridge)
        trail = []
        playout(ridge, RULES, seed, RandomAgent(),
                each=lambda b, a, after, each=each, trail=trail: (each(b, a, after),
                                                                  trail.append(after.digest())))
        digests.append(trail)
    assert digests[0] == digests[1] and len(digests[0]) > 20


def test_after_the_end_every_action_is_refused(ridge):
    played = play_to_the_end(ridge, 7)
    with pytest.raises(RuleViolation, match="the game is over"):
        RULES.apply(ridge, played.position, "end", {}, None)
    assert RULES.decision(ridge, played.position) is None

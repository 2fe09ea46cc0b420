"""Battle for Moscow played whole by random agents in process, from several seeds: each
game reaches its verdict (rule 12.1) with the whole-game invariants holding at every step
(the command-line walk of test_moscow_play covers one seed through `warpress play`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from warpress.engine.agents import RandomAgent, playout
from warpress.engine.loader import load_game
from warpress.engine.rulesets import rules_for
from warpress.engine.whole import broken

GAME = Path(__file__).resolve().parents[2] / "fixtures" / "games" / "moscow"


@pytest.fixture(scope="module")
def moscow():
    return load_game(str(GAME))


@pytest.mark.parametrize("seed", [2, 3, 4, 5, 6])
def test_a_random_game_reaches_its_verdict(moscow, seed):
    rules = rules_for(moscow)
    seen = []

    def each(before, action, after):
        problems = broken(moscow, before, action, after)
        assert not problems, f"seed {seed}, {action}: {problems}"
        seen.append(after.verdict)

    played = playout(moscow, rules, seed, RandomAgent(), each=each)
    assert played.stopped == "over"
    verdict = played.position.verdict
    assert verdict.rule == ("12.1",) and verdict.winner in ("germany", "soviet")
    assert verdict.winner == played.position.control["1205"]
    assert sum(1 for a, b in zip([None, *seen], seen, strict=False) if a is None and b) == 1

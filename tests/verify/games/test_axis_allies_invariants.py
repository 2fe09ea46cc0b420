"""verify/games/axis_allies.py: victory outcomes pass; an NPL win outside the round end FAILS."""

from __future__ import annotations

from warpress.engine.games.axis_allies import board
from warpress.engine.loader import builtin
from warpress.verify.invariants import invariants_for, run


def _victory(game):
    return next(i for i in invariants_for(game) if i.name == "victory_outcomes")


def test_victory_outcomes_pass():
    game = builtin("axis-allies")
    outcome = run(_victory(game), game, examples=80)
    assert outcome.passed, outcome.counterexample or outcome.error


def test_an_npl_victory_outside_the_round_end_fails(monkeypatch):
    game = builtin("axis-allies")
    real = board.victory_check

    def any_time(game, axis_lost, allied_lost, npl, round_end):
        return real(game, axis_lost, allied_lost, npl, True)

    monkeypatch.setattr(board, "victory_check", any_time)
    outcome = run(_victory(game), game, examples=200)
    assert not outcome.passed
    assert "round_end=False" in outcome.counterexample

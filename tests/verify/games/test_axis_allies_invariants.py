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


def test_battle_odds_invariant_fails_when_a_bigger_attacker_fares_worse(monkeypatch):
    game = builtin("axis-allies")
    inv = next(i for i in invariants_for(game) if i.name == "battle_odds")
    assert run(inv, game, examples=10).passed

    from warpress.verify.games import axis_allies as va

    real = va._battle

    def broken(game, attacker, defender):  # a side gets worse the more it brings
        odds = real(game, attacker, defender)
        if sum(attacker.values()) > 2:
            odds = dict(odds, attacker_wins=odds["attacker_wins"] / 2,
                        defender_wins=odds["defender_wins"] + odds["attacker_wins"] / 2)
        return odds

    monkeypatch.setattr(va, "_battle", broken)
    outcome = run(inv, game, examples=60)
    assert not outcome.passed
    assert "lowers attacker_wins" in outcome.counterexample

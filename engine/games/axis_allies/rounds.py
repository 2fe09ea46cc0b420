"""Exact odds of a battle cut off after ``rounds`` rounds (the battle table's optional cap).

Without the fixed point the states are advanced round by round, every state's
transitions scaled to one denominator per round (``6**K``, K = the dice of a full
round), so all arithmetic stays on integers.
"""

from __future__ import annotations

from ...model import Game
from .battle import BattleSpec, first_strikers
from .odds import Opening, State, suffix_products, unit_poly


def capped_terminals(game: Game, spec: BattleSpec, op: Opening):
    """``(attacker order, numerators of every final state, denominator)`` after the cap."""
    att, dfn = op.attacker, spec.defender
    na, nd = len(att), len(dfn)
    A = suffix_products([unit_poly(game, t, "attack", spec.attacker_weapons) for t in att])
    D = suffix_products([unit_poly(game, t, "defense", spec.defender_weapons) for t in dfn])
    full = sum(A[0]) * sum(D[0])
    left = spec.rounds - (1 if spec.kind == "sea" and first_strikers(game, att) else 0)
    dist: dict[State, int] = dict(op.start)
    den = op.den
    for _ in range(max(left, 0)):
        dist = _one_round(dist, A, D, full, na, nd)
        den *= full
    return att, dist, den


def _one_round(dist: dict[State, int], A, D, full: int, na: int, nd: int) -> dict[State, int]:
    """Advance every live state one round; ended battles carry over (all over ``full``)."""
    out: dict[State, int] = {}
    for (i, j), n in dist.items():
        if i == na or j == nd:
            out[(i, j)] = out.get((i, j), 0) + n * full
            continue
        scale = full // (sum(A[i]) * sum(D[j]))
        base = n * scale
        for x, wa in enumerate(A[i]):
            if not wa:
                continue
            jj = min(j + x, nd)
            va = base * wa
            for y, wd in enumerate(D[j]):
                if wd:
                    key = (min(i + y, na), jj)
                    out[key] = out.get(key, 0) + va * wd
    return out

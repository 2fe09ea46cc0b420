"""Exact odds of a battle cut off after ``rounds`` rounds (the battle table's optional cap).

Without the fixed point the states are advanced round by round, every state's
transitions scaled to one denominator per round (``6**K``, K = the dice of a full
round), so all arithmetic stays on integers.

A round moves state ``(i, j)`` to ``(i + y, j + x)`` with the attackers' ways ``A_i[x]``
and the defenders' ``D_j[y]``. Target column by target column the defenders' part is a
Horner scheme over the source columns (``D_j = delta_j * D_(j+1)``), as in the chain of
``odds``: a round costs O(n^3) steps, not O(n^4).
"""

from __future__ import annotations

from warpress.engine.model import Game

from .battle import BattleSpec, first_strikers
from .opening import Opening, Poly, State, retreat_row, side_polys, stop_round, suffix_products
from .polys import add_sources, coefficient_columns, conv_cap, tails_of


def capped_terminals(game: Game, spec: BattleSpec, op: Opening):
    """``(attacker order, numerators of every final state, denominator)`` after the cap
    (``rounds`` or ``retreat_after``, ``odds.stop_round``). With ``retreat_at`` the states
    from ``retreat_row`` on stop after every round (the attacker retreats)."""
    att = op.attacker
    step = _round_of(game, spec, att)
    done = 1 if spec.kind == "sea" and first_strikers(game, att) else 0
    stop = retreat_row(spec, len(att))
    dist: dict[State, int] = dict(op.start)
    den = op.den
    for r in range(max(stop_round(spec) - done, 0)):
        dist = step.advance(dist, stop if (r or done) else None)
        den *= step.full
    return att, dist, den


def first_round(game: Game, spec: BattleSpec, att: tuple[str, ...], start: dict[State, int],
                den: int) -> tuple[dict[State, int], int]:
    """Round 1 from ``start`` (numerators over ``den``): numerators over ``den * full``."""
    step = _round_of(game, spec, att)
    return step.advance(start), den * step.full


def _round_of(game: Game, spec: BattleSpec, att: tuple[str, ...]) -> Round:
    delta = list(side_polys(game, spec.defender, "defense", spec.defender_weapons))
    A = suffix_products(list(side_polys(game, att, "attack", spec.attacker_weapons)))
    return Round(A, suffix_products(delta), delta)


class Round:
    """One round of a battle on integers: the suffix distributions of both sides (``A``,
    ``D``) and the defenders' own (``delta``)."""

    def __init__(self, A: list[Poly], D: list[Poly], delta: list[Poly]):
        self.na, self.nd = len(A) - 1, len(D) - 1
        self.D, self.delta = D, delta
        self.full = sum(A[0]) * sum(D[0])
        self.scale = [[self.full // (sum(a) * sum(d)) for d in D[:-1]] for a in A[:-1]]
        self.cols = coefficient_columns(A)
        self.tails = coefficient_columns([tails_of(p) for p in A])  # the last column

    def advance(self, dist: dict[State, int], stop: int | None = None) -> dict[State, int]:
        """Every live state one round on (ended battles, and rows from ``stop`` on: a
        retreat, carry over), all over ``full``."""
        na, nd = self.na, self.nd
        stop = na if stop is None else stop
        out: dict[State, int] = {}
        V = [[0] * na for _ in range(nd)]  # V[j][i]: live state (i, j) scaled to full
        for (i, j), n in dist.items():
            if i >= stop or j == nd:
                out[(i, j)] = out.get((i, j), 0) + n * self.full
            else:
                V[j][i] = n * self.scale[i][j]
        first = min((j for j in range(nd) if any(V[j])), default=nd)
        for target in range(first, nd + 1):
            for i, v in enumerate(self._into(V, first, target)):
                if v:
                    out[(i, target)] = out.get((i, target), 0) + v
        return out

    def _into(self, V, first: int, target: int) -> list[int]:
        """The flow into column ``target``: ``sum_j (V_j . A[:, target - j]) * D_j`` over
        the source columns ``j <= target``, rows beyond ``na`` folded into ``na``."""
        na, nd = self.na, self.nd
        cols = self.tails if target == nd else self.cols  # the last column: "x or more"
        R: list[int] = [0] * (na + 1)
        for j in range(first, min(target + 1, nd)):
            x = target - j
            if x < len(cols):
                add_sources(R, V[j], cols[x])
            R = conv_cap(R, self.delta[j], na)
        return R if target == nd else conv_cap(R, self.D[target + 1], na)

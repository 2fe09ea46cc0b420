"""How good a position is for one power, read in IPC: what the greedy agent maximises and
where a search agent's playouts stop (engine/agents.py asks the rules' ``score``).

The powers of an alliance win together, so a power counts its alliance against the other
one, in IPC:

- the units on the board and those bought but not placed yet, each at its cost in the
  unit table plus its attack and defence (a unit lost is worth that; buying turns IPC
  into units, the fighting strength a unit adds deciding between purchases);
- the IPC in hand;
- the territories held, each at its income value times :data:`INCOME_WEIGHT` (a territory
  pays its income every round it is held: taking one undefended is worth a few rounds of
  it, and the Axis' economic victory is counted in it);

divided by :data:`SCALE`, so that a search squashing the score into 0..1 (a logistic of the
score over 8) tells a lead of tens of IPC from one of hundreds. A finished game's score is
its verdict (engine/evaluate.py), not this one. One pass over the pieces and the control,
the unit costs and income values read once per game.
"""

from __future__ import annotations

from warpress.engine.model import Game
from warpress.engine.position import Position

from .positions import facts, ipc, powers

#: a territory held counts its income value this many times (rounds of income)
INCOME_WEIGHT = 3
#: the score is the lead in IPC divided by this
SCALE = 20.0


def worth(game: Game, position: Position) -> dict[str, int]:
    """Each power's worth in IPC: its units, IPC in hand, income held weighted."""
    known = facts(game)
    out = {p: ipc(position, p) for p in powers(game)}
    unit = known.unit_worth
    for piece in position.pieces:  # the pieces of a position are only area or pool units
        side = piece.side
        if side is not None and side in out:
            out[side] += unit.get(piece.unit, 0)
    income = known.income
    for territory, who in position.control.items():
        if who in out:
            out[who] += INCOME_WEIGHT * income.get(territory, 0)
    return out


def score(game: Game, position: Position, side: str | None) -> float:
    """``side``'s score of ``position``: its alliance's worth less the other's, over
    :data:`SCALE` (see the module docstring)."""
    alliance = facts(game).alliance
    own = alliance.get(side or "")
    lead = sum(v if alliance[p] == own else -v for p, v in worth(game, position).items())
    return lead / SCALE

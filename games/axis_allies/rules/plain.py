"""Battle odds in floating point on plain Python floats, for a battle of a few chains
fought to the end (no ``rounds`` or ``retreat_after``; a ``retreat_at`` only when no start
is already at that size): an attacker that no AA fire splits is one chain (every sea
battle, every land battle without an AA gun or without attacking aircraft), and a few
aircraft against an AA gun are a few chains, one an AA result (``odds.shared_chains``),
while their work adds up to ``MOST_PLAIN`` (that of 100 units a side) or less.

The procedure is ``floats``' on one chain of attacker states (state ``s``: the first ``s``
units of the casualty order lost, ``S`` the attacker eliminated), column by column of
defender losses: a column's own fire lands its states on lower ones when the attacker
misses (``_settle_column``), its outflow normalised by ``1 / T``; its flow to later columns
takes the fire of the defenders standing when it left by the Horner scheme of ``floats``
(``D_j = delta_j * D_(j+1)``: each later column's accumulator takes defender ``j``'s own
die, ``_horner``), the rest of the fire (``D_t``) when its column comes. The chains' answers
add up (``float_battle``), as the exact odds' do.

Why a second program of the same procedure: a chain of 41 states is 41 numbers a column,
too few for numpy to pay for its import (0.06-0.19 s of a command here, more than this
whole battle: 20 ms for 40 a side). ``float_battle`` takes the chains here and everything
else to ``floats``, whose one table holds every AA result at once; ``battle_totals`` reads
both tables' ends the same way. The tests hold both to the exact odds (``odds``) within
1e-12.
"""

from __future__ import annotations

from typing import Any

from warpress.engine.model import Game

from .battle import BattleSpec, first_strikers
from .opening import FIELDS, Opening, openings, runs, shared_chains, side_polys, suffix_products
from .totals import Totals, battle_totals, land_blocks


def plain_work(attackers: int, defenders: int) -> int:
    """The steps of a chain here: the Horner rows and each column's own fire (attackers
    times defenders squared), the attacker's hit distributions (attackers squared)."""
    return attackers * defenders * defenders + attackers * attackers


#: The most work (``plain_work``) taken here; more goes to numpy's table: past about the work
#: of 100 infantry a side, numpy's table with its import is the faster (``python
#: benchmarks/bench.py engine`` times the battles on both sides of the limit).
MOST_PLAIN = plain_work(100, 100)


def float_battle(game: Game, spec: BattleSpec, least: float = 0.0):
    """``(fields, survivors)`` in floating point (see ``floats.float_battle``): here when
    the battle is a few chains (``chain_openings``), else by ``floats``' numpy tables,
    which take the openings found here. Every field and survivor chance is a sum over the
    chains (their starts carry the chances of their AA results)."""
    ops = _plain_openings(game, spec)
    chains = None if ops is None else _chains(game, spec, ops)
    if chains is None:
        from .floats import float_battle as table_battle  # numpy: 0.1-0.2 s to import

        return table_battle(game, spec, least, ops)
    fields: dict[str, Any] = dict.fromkeys(FIELDS, 0.0)
    attacker: dict[str, float] = {}
    defender: dict[str, float] = {}
    for op in chains:
        one, (att, dfn) = _chain_answer(game, spec, op, least)
        for key, p in one.items():
            fields[key] += p
        for side, part in ((attacker, att), (defender, dfn)):
            for force, p in part.items():
                side[force] = side.get(force, 0.0) + p
    return fields, (attacker, defender)


def _chain_answer(game: Game, spec: BattleSpec, op: Opening, least: float):
    """``battle_totals`` of one chain: the army ``op.attacker`` from ``op.start``."""
    E = settle(game, spec, op)
    A = len(op.attacker)
    order_runs = runs(op.attacker)
    blocks = [(t, n) for t, _, n in order_runs]
    counts = [_counts(order_runs, s) for s in range(A)]
    land = land_blocks(game, blocks)
    taking = [spec.kind != "land" or any(c[k] for k in land) for c in counts]
    return battle_totals(game, spec, Totals.of_rows(E), counts, blocks,
                         [A - s for s in range(A)], taking, _absorbing(spec, A)[:A], least)


def chain_openings(game: Game, spec: BattleSpec) -> list[Opening] | None:
    """The battle's chains (``odds.shared_chains``: an AA result whose army is the end of
    another's is start mass in that one's chain) when they are fought to the end and
    their work (``plain_work``) adds up to ``MOST_PLAIN`` or less; else None: a round cap,
    too much work, or a start at the retreat size that must fight round 1 first
    (``floats.float_ends``)."""
    ops = _plain_openings(game, spec)
    return None if ops is None else _chains(game, spec, ops)


def _plain_openings(game: Game, spec: BattleSpec) -> list[Opening] | None:
    """The battle's openings, or None (none enumerated) when a round cap or the size of
    the whole army already sends it to numpy's table."""
    if spec.rounds is not None or spec.retreat_after is not None:
        return None
    if plain_work(len(spec.attacker), len(spec.defender)) > MOST_PLAIN:
        return None
    return openings(game, spec)


def _chains(game: Game, spec: BattleSpec, ops: list[Opening]) -> list[Opening] | None:
    """``chain_openings`` of the openings ``ops``."""
    nd = len(spec.defender)
    chains = shared_chains(ops)
    if sum(plain_work(len(op.attacker), nd) for op in chains) > MOST_PLAIN:
        return None
    for op in chains:
        A = len(op.attacker)
        absorbing = _absorbing(spec, A)
        done_first = spec.kind == "sea" and bool(first_strikers(game, op.attacker))
        if not done_first and any(absorbing[min(i, A)] for i, j in op.start if j < nd):
            return None
    return chains


def _absorbing(spec: BattleSpec, A: int) -> list[bool]:
    """Per state of an army of ``A`` units (``S + 1``): the attacker retreats there
    (``retreat_at`` units or fewer)."""
    at = spec.retreat_at
    return [at is not None and s < A and A - s <= at for s in range(A + 1)]


def _counts(blocks: list[tuple[str, int, int]], lost: int) -> tuple[int, ...]:
    """Each block's units left after the first ``lost`` of the order."""
    return tuple(max(0, min(n, start + n - lost)) for _, start, n in blocks)


def _probabilities(ways) -> list[float]:
    total = sum(ways)
    return [w / total for w in ways]


def settle(game: Game, spec: BattleSpec, op: Opening) -> list[list[float]]:
    """``E[j][s]``: the chance of ending with ``j`` defenders and ``s`` attackers lost
    (``s = S``: eliminated); retreats (``retreat_at``) end where they are."""
    A, nd = len(op.attacker), len(spec.defender)
    S = A
    # the hits of units s.. (and the defenders' j..: ``floats``' D[j]) from their integer
    # ways (``suffix_products``, as the exact odds have them), each a float once
    hits = [_probabilities(p) for p in suffix_products(
        side_polys(game, op.attacker, "attack", spec.attacker_weapons))]
    polys = side_polys(game, spec.defender, "defense", spec.defender_weapons)
    own = [_probabilities(w) for w in polys]
    fire = [_probabilities(p) for p in suffix_products(polys)]
    absorbing = _absorbing(spec, A)
    P = [[0.0] * (S + 1) for _ in range(nd + 1)]
    for (i, j), n in op.start.items():
        P[j][min(i, S)] += n / op.den
    exactly, at_least = _by_hits(hits, nd, S)
    acc: list[list[float] | None] = [None] * (nd + 1)
    for col in range(nd + 1):
        row = P[col]
        if acc[col] is not None:  # the rest of the fire on what came in: D[col]
            _spread(row, acc[col], fire[col], S)
        if col == nd:
            break
        flow = _settle_column(row, hits, fire[col], absorbing, S)
        for t in range(col + 1, nd + 1):  # from ``col`` to ``t``: ``t - col`` hits, or more
            chances = at_least[t - col] if t == nd else exactly[t - col]
            acc[t] = _horner(acc[t], flow, chances, own[col], S)
    return P


def _spread(row: list[float], masses: list[float], taps: list[float], S: int) -> None:
    """Add ``masses`` (by state) to ``row`` after a fire with hit chances ``taps`` (past a
    state's level: the dead state ``S``)."""
    for s, m in enumerate(masses):
        if m:
            if s == S:
                row[S] += m
            else:
                _land(row, s, m, taps, 0, S)


def _land(row: list[float], s: int, m: float, taps: list[float], first: int, S: int) -> None:
    """Add to ``row`` the mass ``m`` of state ``s`` hit ``y`` times (``taps[y]``, from
    ``first`` on): in state ``s + y``, or dead (``S``) past its level."""
    room = S - s
    for y in range(first, min(len(taps), room)):
        row[s + y] += m * taps[y]
    if len(taps) > room:
        row[S] += m * sum(taps[room:])


def _settle_column(row: list[float], hits: list[list[float]], taps: list[float],
                   absorbing: list[bool], S: int) -> list[float]:
    """Settle one column in place: a live state's mass, normalised by ``1 / T``, sends what
    the defender hits while the attacker misses down the chain (smaller armies come later
    in ``row``, so each state's mass is whole when its turn comes); ended states keep
    theirs. Returns each state's outflow to later columns (0 where it ended)."""
    flow = [0.0] * (S + 1)
    t0 = taps[0]
    n = len(taps)
    for s in range(S):
        m = row[s]
        if not m or absorbing[s]:
            continue
        miss = hits[s][0]
        stay = miss * t0
        if stay >= 1.0:  # nobody can score: it stays, undecided
            continue
        m /= 1.0 - stay
        flow[s] = m
        row[s] = 0.0
        down = m * miss
        if down and n > 1:
            _land(row, s, down, taps, 1, S)
    return flow


def _horner(acc: list[float] | None, flow: list[float], chances: list[float],
            die: list[float], S: int) -> list[float]:
    """A later column's accumulator after the flow of an earlier one (``chances[s]``: of
    the hits that lead there from state ``s``) and the die of the defender lost there."""
    if acc is None:
        acc = [w * c for w, c in zip(flow, chances, strict=True)]
    else:
        acc = [a + w * c for a, w, c in zip(acc, flow, chances, strict=True)]
    if len(die) == 1:
        return acc
    if len(die) == 2:
        t0, t1 = die
        out = [t0 * acc[0]]
        out += [t0 * a + t1 * b for a, b in zip(acc[1:S], acc[:S - 1], strict=True)]
        out.append(acc[S] + t1 * acc[S - 1])  # the dead keep their own mass
        return out
    out = [0.0] * (S + 1)
    _spread(out, acc, die, S)
    return out


def _by_hits(hits: list[list[float]], nd: int, S: int):
    """``(exactly, at_least)``: ``exactly[x][s]``, the chance that state ``s`` scores ``x``
    hits, and ``at_least[x][s]`` ``x`` or more (the defender eliminated), ``x`` from 1 to
    ``nd`` (index 0 unused). The dead state scores none."""
    exactly, at_least = [[]], [[]]
    for x in range(1, nd + 1):
        exactly.append([h[x] if x < len(h) else 0.0 for h in hits[:S]] + [0.0])
        at_least.append([sum(h[x:]) for h in hits[:S]] + [0.0])
    return exactly, at_least

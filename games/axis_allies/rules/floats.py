"""Battle odds in floating point: the chains of ``odds`` on floats, every AA result at once.

The procedure is the exact one of ``odds``: the one-time steps (AA fire, the submarines'
first strike and sea round 1) are ``odds.openings``, enumerated exactly into a start
distribution; then rounds to the end, a state's outflow normalised by ``1 / T`` (``T``: the
chance that somebody is hit), column by column of defender losses, the casualties' return
fire gathered by a Horner scheme over the source columns (``D_j = delta_j * D_(j+1)``).
Only the numbers differ: floats instead of integers over a common denominator.

One thing floats allow that exact integers made slow: all AA results share one table. The
attacker's states are not the suffixes of one army but every army a state can be (``Space``:
the casualty order's blocks, the aircraft blocks at any count the AA gun may leave), so 1
infantry, 20 fighters and 19 bombers are 841 attacker states, not 420 chains of 41 rows.
A state loses units from the front of its own order (``Space.loss``), and the columns are
numpy vectors over the states, a defender column at a time; inside a column the states are
settled by levels (units left), since a round in which the attacker misses moves mass only
to smaller armies of the same column.

How the table is held, for speed (each step the same arithmetic on every path, and the
tests hold each path to the exact odds): the columns still to come are scaled by
``g * c**level`` (``Scaled``), so that one defender die's fire is the states' own mass plus
their parents' (one loss above), with no products; the states lie in chains of losses
(``Chains``), so that the parents' mass is mostly a shifted add; in a big battle a
column's own fire (the defenders still standing) is taken one die at a time on its row
(``PULLED_FIRE``) and the Horner step of the later rows runs on a second thread beside the
next column's work (``THREADED``).

What is negligible is left out and counted (``Cuts``, ``Ends.pruned``): the least likely
AA results (their chances adding up to less than 1e-15; of 33 fighters' and 33 bombers'
1,156 results 640 are kept, and the table has only the states those armies come to), the
ends of a defender fire's hit distribution (1e-22), a level's own flow in a column when it
is below 1e-21 in every state. Past ``MOST_PRUNED`` in all (never seen) a battle is settled
again without cuts, so every probability stays far within the 1e-12 of the contract.

Retreat (land 6), sea 8)): the attacker retreats when a round ends with it holding
``retreat_at`` units or fewer (those states absorb; the start fights round 1 first unless
round 1 was part of the opening), or after round ``retreat_after`` (``advance``, round by
round, as a ``rounds`` cap is).
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass

# No BLAS routine is used here; OpenBLAS's thread pool would take 50 ms of CPU at start
# (measured: ``import numpy`` 0.126 s of CPU, 0.076 s with one thread).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
import numpy as np  # noqa: E402
from warpress.engine.errors import BadInput  # noqa: E402
from warpress.engine.model import Game  # noqa: E402
from warpress.engine.records import Frozen, frozen_record

from .battle import BattleSpec, BattleState, first_strikers, has_aa
from .opening import Opening, openings, runs, side_polys
from .totals import Totals, battle_totals, land_blocks

#: The most memory the float tables may take (a tool limit, bytes): the state tables of a
#: battle are (attacker states) x (defender units) floats a few times over. 100 units a
#: side with an AA gun and 66 aircraft take about 150 MB; a bigger table is refused at once.
MOST_FLOAT_BYTES = 1_000_000_000


#: A level's flow in its own column (the rounds in which the attacker scores no hit) below
#: this chance in all is left out: the 1,600 levels of a 40-a-side battle leave out less
#: than 2e-18 together, far below the 1e-12 the floats are held to (against the exact odds)
#: and below a double's resolution near 1. Big armies almost never miss with every die, so
#: most levels of their columns are skipped.
NEGLIGIBLE = 1e-21


@dataclass
class Space:
    """The attacker's states after the one-time steps, as rows of numpy tables.

    ``blocks``: the casualty order in runs of one type ``(type, count, shot at by AA)``.
    A state is the count left of each block: the blocks before its first are gone, its
    first is any count from 1, the later ones as an AA result left them (the kept ones:
    ``likely_openings``). Row ``S`` (``dead``) is the attacker eliminated.
    """

    blocks: list[tuple[str, int, bool]]
    keys: list[tuple[int, ...]]
    index: dict[tuple[int, ...], int]
    level: np.ndarray  # units left per state (0 for dead)
    loss: np.ndarray  # loss[y, s]: the state after losing y units (dead past its level)
    hits: np.ndarray  # hits[s, x]: chance of x hits, x >= width - 1 folded into the last
    parents: np.ndarray  # parents[t]: the states that lose one unit to become t (padded)
    #: (rows, level, their losses 1..level less ``rows.stop``: each lands below the level)
    levels: list[tuple[slice, int, np.ndarray]] = None

    @property
    def dead(self) -> int:
        return len(self.keys)


def space_size(blocks: list[tuple[str, int, bool]]) -> int:
    """How many attacker states ``blocks`` give with every AA result kept (``Space``), before
    building any."""
    total, tails = 0, 1
    for _, n, shot_at in reversed(blocks):
        total += n * tails
        tails *= (n + 1) if shot_at else 1
    return total


def attacker_blocks(game: Game, spec: BattleSpec) -> list[tuple[str, int, bool]]:
    """The attacker's casualty order in runs of one type, marked when AA fire shoots them."""
    shot_at = set(spec.aircraft) if has_aa(game, spec, BattleState(spec.attacker,
                                                                    spec.defender)) else set()
    return [(unit, n, unit in shot_at) for unit, _, n in runs(spec.attacker)]


def check_size(game: Game, spec: BattleSpec, blocks) -> None:
    """Bad input, with the battle's size, when its tables would pass ``MOST_FLOAT_BYTES``."""
    states = space_size(blocks) + 1
    cols = len(spec.defender) + 1
    width = min(cols, len(spec.attacker) + 1)
    need = 8 * states * (4 * cols + 2 * width)
    if need > MOST_FLOAT_BYTES:
        raise BadInput(
            f"inputs attacker, defender: the odds of this battle ({len(spec.attacker)} v "
            f"{len(spec.defender)} units, {states - 1:,} attacker states after AA fire) need "
            f"{need / 1e9:.1f} GB of tables, more than this tool takes "
            f"({MOST_FLOAT_BYTES / 1e9:.0f} GB); ask with fewer aircraft against the AA gun, "
            "or use roll")


def build_space(game: Game, spec: BattleSpec, blocks, width: int,
                armies: list[list[int]]) -> Space:
    """The attacker states ``armies`` (counts by block) can come to, their losses and their
    hits (see ``Space``), biggest armies first: the states of one level (units left) are a
    run of rows.

    A state is numbered by its counts in mixed radix (block ``k`` counts ``0..n_k``), so
    the numbers sort as the keys do and one unit lost from the front is a subtraction;
    Python integers (an object array) where the numbers would pass 62 bits.
    """
    nb = len(blocks)
    base = [n + 1 for _, n, _ in blocks]
    weight = [math.prod(base[k + 1:]) for k in range(nb)]
    dtype = object if math.prod(base) >= 2**62 else np.int64
    W = np.array(weight, dtype=dtype)
    A = np.array(armies, dtype=np.int64).reshape(-1, nb)
    found = []
    for k in range(nb):  # an army's states: its blocks lost from the front
        n = A[:, k]
        tail = (A[:, k + 1:].astype(dtype) * W[k + 1:]).sum(axis=1) if k + 1 < nb else \
            np.zeros(len(A), dtype=dtype)
        ends = np.cumsum(n)
        r = np.arange(int(ends[-1]) if len(ends) else 0) - np.repeat(ends - n, n) + 1
        found.append(np.repeat(tail, n) + r.astype(dtype) * W[k])
    codes = np.sort(np.concatenate(found)) if found else np.zeros(0, dtype=dtype)
    if len(codes):
        codes = codes[np.concatenate([[True], codes[1:] != codes[:-1]])]
    counts = np.stack([(codes // W[k]) % base[k] for k in range(nb)], axis=1).astype(np.int64) \
        if len(codes) else np.zeros((0, nb), dtype=np.int64)
    lev = counts.sum(axis=1)
    order = np.lexsort((codes, -lev))  # biggest armies first, then by key
    codes, counts, lev = codes[order], counts[order], lev[order]
    S = len(codes)
    keys = list(map(tuple, counts.tolist()))
    index = dict(zip(keys, range(S), strict=True))
    level = np.append(lev, 0)
    first = np.append(np.argmax(counts > 0, axis=1), -1)
    one_less = np.full(S + 1, S, dtype=np.int64)
    more = np.flatnonzero(lev > 1)
    if len(more):
        by_code = np.argsort(codes, kind="stable")
        want = codes[more] - W[first[more]]
        one_less[more] = by_code[np.searchsorted(codes[by_code], want)]
    most = int(level.max()) if S else 0
    loss = np.empty((most + 1, S + 1), dtype=np.int64)  # by losses: a row is contiguous
    loss[0] = np.arange(S + 1)
    for y in range(1, most + 1):
        loss[y] = one_less[loss[y - 1]]
    hits = _attacker_hits(game, spec, blocks, level, first, one_less, width)
    levels = [(rows, int(level[rows.start]),  # the losses land past the level's own rows
               loss[1:int(level[rows.start]) + 1, rows].ravel() - rows.stop)
              for rows in _levels(level)]
    return Space(blocks, keys, index, level, loss, hits, _parents(one_less), levels)


def _parents(one_less: np.ndarray) -> np.ndarray:
    """``out[t]``: the states one loss above ``t`` (and the dead row above itself), padded
    with ``len(one_less)`` (none); ``Chains`` lays the table out by them."""
    S1 = len(one_less)
    counts = np.bincount(one_less, minlength=S1)
    out = np.full((S1, int(counts.max())), S1, dtype=np.int64)
    order = np.argsort(one_less, kind="stable")
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    rank = np.arange(S1) - starts[one_less[order]]
    out[one_less[order], rank] = order
    return out


def _attacker_hits(game, spec, blocks, level, first, one_less, width) -> np.ndarray:
    """``hits[s]``: the state's hit distribution, built from its first unit and the state
    one unit smaller, level by level; hits from ``width - 1`` on are folded together."""
    polys = [_probabilities(p) for p in
             side_polys(game, [t for t, _, _ in blocks], "attack", spec.attacker_weapons)]
    S = len(level) - 1
    hits = np.zeros((S + 1, width))
    hits[S, 0] = 1.0
    for rows in reversed(_levels(level)):
        for k in sorted(set(first[rows].tolist())):  # np.unique would import numpy.ma
            sub = np.arange(rows.start, rows.stop)[first[rows] == k]
            hits[sub] = _convolve(hits[one_less[sub]], polys[k])
    return hits


def _probabilities(ways) -> np.ndarray:
    total = sum(ways)
    return np.array([w / total for w in ways])


def _convolve(rows: np.ndarray, poly: np.ndarray) -> np.ndarray:
    """Each row convolved with ``poly``, indices past the last folded into it."""
    out = rows * poly[0]
    width = rows.shape[1]
    for k in range(1, len(poly)):
        if k < width:
            out[:, k:] += rows[:, :width - k] * poly[k]
            out[:, -1] += rows[:, width - k:].sum(axis=1) * poly[k]
        else:
            out[:, -1] += rows.sum(axis=1) * poly[k]
    return out


@dataclass
class Defender:
    """The defender's hits: ``delta[j]`` of unit ``j``, ``D[j]`` of units ``j..``."""

    delta: list[np.ndarray]
    D: list[np.ndarray]
    ways: tuple[tuple[int, ...], ...]  # unit ``j``'s hits as integer ways (``delta[j]``)

    @classmethod
    def of(cls, game: Game, spec: BattleSpec) -> Defender:
        ways = side_polys(game, spec.defender, "defense", spec.defender_weapons)
        delta = [_probabilities(p) for p in ways]
        D = [np.ones(1)]
        for p in reversed(delta):
            D.append(np.convolve(p, D[-1]))
        D.reverse()
        return cls(delta, D, ways)


def _fire_at(space: Space, R: np.ndarray, taps: np.ndarray, cut: float = 0.0
             ) -> tuple[np.ndarray, float]:
    """The attacker's states (``R[s]``) after a defender fire with hit chances ``taps``
    (losses from the front of each state's order; past its level, dead), and the mass
    left out: the hit counts whose chances add up to less than ``cut`` at either end of
    ``taps``."""
    S1 = space.dead + 1
    if len(taps) == 1:
        return R[:S1] * taps[0], 0.0
    taps = _folded(space, taps)
    if len(taps) == 2:
        out = R[:S1] * taps[0]
        out += np.bincount(space.loss[1], R[:S1] * taps[1], S1)
        return out, 0.0
    lo, hi, dropped = _significant(taps, cut)
    out = np.bincount(space.loss[lo:hi].ravel(), np.outer(taps[lo:hi], R[:S1]).ravel(), S1)
    return out, dropped * float(R[:S1].sum()) if dropped else 0.0


#: The hit counts at either end of a defender fire's distribution whose chances add up to
#: less than this are left out (their mass counted in ``Ends.pruned``): 100 defenders at 2
#: score 14 to 53 hits but for a chance of 1e-22.
NEGLIGIBLE_TAPS = 1e-22


def _significant(taps: np.ndarray, cut: float) -> tuple[int, int, float]:
    """``(lo, hi, dropped)``: the range of ``taps`` kept and the chance left out (less
    than ``cut``)."""
    if not cut:
        return 0, len(taps), 0.0
    head = np.cumsum(taps)
    tail = np.cumsum(taps[::-1])
    lo = int(np.searchsorted(head, cut / 2))
    hi = len(taps) - int(np.searchsorted(tail, cut / 2))
    dropped = float(head[lo - 1] if lo else 0.0) + float(tail[len(taps) - hi - 1]
                                                         if hi < len(taps) else 0.0)
    return lo, hi, dropped


def _folded(space: Space, taps: np.ndarray) -> np.ndarray:
    """``taps`` with the hits past the biggest army's level added into its last entry."""
    most = space.loss.shape[0] - 1
    if len(taps) > most + 1:
        return np.concatenate([taps[:most], [taps[most:].sum()]])
    return taps


@dataclass
class Chains:
    """The column table's layout: the attacker states in chains of losses, so that pulling
    each state's mass from the states one loss above it is mostly a shifted add.

    A state's first parent (``Space.parents``) loses one unit to become it; its slot comes
    right after that parent's, so ``M[:, 1:] += M[:, :-1]`` pulls from it. A chain starts
    at a state none of whose parents came before it in this way; each chain has a pad
    slot before it, kept at 0. The other parents (``extra``, by rank: each rank's targets
    distinct) are added by index. The dead row is not its own parent here (its own mass
    stays through ``Scaled.dead_fix``). One row of 22,713 states (66 aircraft behind 34
    infantry): a take with the parents' index (the plain layout) 24 us, the shifted add
    13 us; the whole pull 42 us -> 22 us (``pull_row``).
    """

    slot: np.ndarray  # the slot of each state (0..S, the dead row S)
    state: np.ndarray  # the state at each slot; the pads: S + 1 (a zero appended)
    pads: np.ndarray
    extra: list[tuple[np.ndarray, np.ndarray]]  # (target slots, source slots)
    dead: int  # the dead row's slot
    reach: np.ndarray  # reach[x]: the slots of the chains whose first state can score x hits

    @classmethod
    def of(cls, space: Space, width: int) -> Chains:
        """``width``: the hit counts the table holds (``reach`` has one more entry)."""
        parents = space.parents
        S = space.dead
        S1 = S + 1
        chained = np.full(S1, -1, dtype=np.int64)  # the state after each in its chain
        first = parents[:, 0]
        has = (first != S1) & (first != np.arange(S1))  # the dead row: not after itself
        chained[first[has]] = np.flatnonzero(has)
        heads = np.flatnonzero(~has)  # biggest armies first
        after = chained.tolist()
        order, starts = [], []
        for h in heads.tolist():
            starts.append(len(order))
            k = h
            while k != -1:
                order.append(k)
                k = after[k]
        chain = np.zeros(len(order), dtype=np.int64)
        chain[starts[1:]] = 1
        chain = np.cumsum(chain)
        slot = np.empty(S1, dtype=np.int64)
        slot[order] = np.arange(len(order)) + chain + 1
        size = len(order) + len(starts)
        state = np.full(size, S1, dtype=np.int64)
        state[slot] = np.arange(S1)
        pads = np.flatnonzero(state == S1)
        extra = []
        for m in range(1, parents.shape[1]):
            targets = np.flatnonzero((parents[:, m] != S1) & (parents[:, m] != np.arange(S1)))
            extra.append((slot[targets], slot[parents[targets, m]]))
        ends = np.append(pads[1:], size)  # each chain's end (the next pad)
        # the most hits each chain's first state can score (a chain's later states have
        # fewer units, so no more): its level, or more with several dice (heavy bombers)
        scores = space.hits[heads] > 0
        top = width - 1 - np.argmax(scores[:, ::-1], axis=1)
        reach = np.array([int(ends[top >= x].max()) if (top >= x).any() else 0
                          for x in range(width + 1)])
        return cls(slot, state, pads, extra, int(slot[S]), reach)

    def pull(self, M: np.ndarray, a: float, b: float, fix: float) -> None:
        """Every row of ``M`` (slots) becomes ``a * M[s] + b * (M[p] summed over the states
        p one loss above s)``, the dead slot ``fix`` times its own mass more, in place."""
        extra = [M[:, sources] for _, sources in self.extra]
        dead = M[:, self.dead].copy() if fix else None
        if b != 1.0:
            shifted = M[:, :-1] * b
            if a != 1.0:
                M *= a
            M[:, 1:] += shifted
        else:
            if a != 1.0:
                shifted = M[:, :-1].copy()
                M *= a
                M[:, 1:] += shifted
            else:
                M[:, 1:] += M[:, :-1]  # numpy reads the overlap as it was
        M[:, self.pads] = 0.0
        for (targets, _), values in zip(self.extra, extra, strict=True):
            if b != 1.0:
                values *= b
            M[:, targets] += values
        if fix:
            M[:, self.dead] += fix * dead

    def pull_row(self, x: np.ndarray, fix: float) -> None:
        """``pull(x, 1, 1, fix)`` on one row (a vector: fewer steps of numpy's own)."""
        extra = [x[sources] for _, sources in self.extra]
        dead = x[self.dead]
        x[1:] += x[:-1]
        x[self.pads] = 0.0
        for (targets, _), values in zip(self.extra, extra, strict=True):
            x[targets] += values
        x[self.dead] += fix * dead

    def shifted(self, M: np.ndarray) -> np.ndarray:
        """``M`` pulled once (the parents' sum), the dead slot keeping its own mass."""
        out = np.zeros_like(M)
        out[:, 1:] = M[:, :-1]
        out[:, self.pads] = 0.0
        for targets, sources in self.extra:
            out[:, targets] += M[:, sources]
        out[:, self.dead] += M[:, self.dead]
        return out

    def fire(self, M: np.ndarray, taps: tuple[float, ...], fix: float) -> None:
        """One defender unit's fire (``taps``) on every row of ``M`` in place."""
        if len(taps) == 1:
            if taps[0] != 1.0:
                M *= taps[0]
            return
        if len(taps) == 2 and len(M) == 1 and taps[0] == 1.0 and taps[1] == 1.0:
            self.pull_row(M[0], fix)  # a column's own fire, one die at a time (``fired``)
            return
        if len(taps) == 2:
            self.pull(M, taps[0], taps[1], fix)
            return
        cur, acc = M, M * taps[0]  # several dice: the plain table (``Scaled``)
        for p in taps[1:]:
            cur = self.shifted(cur)
            acc += cur * p
        M[:] = acc

    def to_slots(self, v: np.ndarray) -> np.ndarray:
        """A vector by state (``S + 1``) laid out in slots."""
        return np.append(v, 0.0).take(self.state)

    def to_states(self, row: np.ndarray) -> np.ndarray:
        """A row of slots as a vector by state."""
        return row.take(self.slot)


#: Rows of the column table a Horner step takes at once: 8 rows of 22,713 states (1.5 MB)
#: stay in the cache between the step's passes (measured: 8 % off the 66-aircraft battle).
ROWS_AT_ONCE = 8
#: The scaled table's factors (``Scaled``) stay within this power of ten either way.
FLOAT_RANGE = 150


@dataclass
class Scaled:
    """The column table held as ``acc = g * c**level * table``, so that a defender die's
    fire costs two passes instead of five.

    One die's fire at a state is ``t0 * M[s] + t1 * (M[p] summed over the states p one
    loss above s)``. With ``M = g * c**level * M'`` and ``c = t0 / t1`` (of the defender
    unit most of them are) it is ``g * t0 * c**level * (M'[s] + M'[p] summed)``: the
    table takes the parents' sum as it is and ``g`` takes ``t0``. Other units' dice
    keep a product (``ratio[j]``: ``t1 * c / t0``, exactly 1.0 for the reference unit);
    a unit that never rolls changes nothing. The dead row keeps its own mass when hit
    (``(t0 + t1) / t0`` of it, of which the pull gives 1: ``dead_fix[j]`` is ``t1 / t0``;
    ``t1`` in the plain table). Flows come in
    divided by ``g`` and, through ``hits``, by ``c**level``; a row is read back times
    ``g * c**level``. Without a reference die (no defender rolls), with a die that
    always hits, or when ``c**level`` or ``g`` would leave ``FLOAT_RANGE``, ``c = 1`` and
    ``g`` stays 1 (the plain table: ``ratio`` is the die's own taps).
    """

    scale: np.ndarray  # c**level per state (the dead row: 1)
    taps: list[tuple[float, ...]]  # defender j's fire on the scaled table (plain floats)
    pivot: list[float]  # what g takes at defender j
    dead_fix: list[float]
    g: float = 1.0

    @classmethod
    def of(cls, defender: Defender, level: np.ndarray) -> Scaled:
        dice = [w for w in defender.ways if len(w) == 2]
        ref = max(dice, key=dice.count) if dice else None
        most = int(level.max()) if len(level) else 0
        c = ref[0] / ref[1] if ref and ref[0] and ref[1] else 1.0
        if c != 1.0 and (most * abs(np.log10(c)) > FLOAT_RANGE
                         or any(w[0] == 0 for w in dice)
                         or any(len(w) > 2 for w in defender.ways)
                         or sum(-np.log10(w[0] / sum(w)) for w in dice) > FLOAT_RANGE):
            c = 1.0
        scale = c ** level.astype(float)
        scale[-1] = 1.0  # the dead row
        taps, pivot, fix = [], [], []
        for w, delta in zip(defender.ways, defender.delta, strict=True):
            if len(w) != 2 or c == 1.0:
                taps.append(tuple(float(t) for t in delta))
                pivot.append(1.0)
                fix.append(float(delta[1]) if len(w) == 2 else 0.0)
                continue
            ratio = 1.0 if w[0] * ref[1] == w[1] * ref[0] else (w[1] * ref[0]) / (w[0] * ref[1])
            taps.append((1.0, ratio))
            pivot.append(delta[0])
            fix.append(w[1] / w[0])
        return cls(scale, taps, pivot, fix)

    def fired(self, chains: Chains, acc: np.ndarray, t: int) -> np.ndarray:
        """Row ``t`` of the table as chances after the fire of defenders ``t..`` on it (the
        end of its Horner: ``D[t]``), one die at a time; the row is used up."""
        g = self.g
        for taps, pivot, fix in zip(self.taps[t:], self.pivot[t:], self.dead_fix[t:],
                                    strict=True):
            chains.fire(acc[t:t + 1], taps, fix)
            g *= pivot
        return self.row(chains, acc, t, g)

    def row(self, chains: Chains, acc: np.ndarray, t: int, g: float) -> np.ndarray:
        """Row ``t`` of the table as chances (``S + 1`` states), ``g``: the factor it had
        when it took its last fire."""
        return chains.to_states(acc[t]) * (g * self.scale)


#: From this many attacker states on, a column's own fire (``D[col]``, the defenders still
#: standing) is one die at a time on the scaled row (``Scaled.fired``: two passes a die)
#: rather than every hit count scattered at once (``_fire_at``): 66 aircraft behind 34
#: infantry (22,711 states) 0.34 -> 0.17 s; below it the scatter is faster (2,827 states:
#: 0.055 s against 0.063 s).
PULLED_FIRE = 8000
#: From this many attacker states on, the Horner step of the rows past the next column runs
#: on a second thread beside the next column's own fire and levels (numpy lets go of the
#: interpreter in both); every row takes the same steps in the same order either way, so
#: the answer is the same to the bit. 66 aircraft behind 34 infantry (22,711 states):
#: 0.55 -> 0.45 s wall in process (CPU 0.65 -> 0.73 s); 25 aircraft (12,850): no gain.
THREADED = 16000


#: Up to this many attacker states (with the dead row), a column's levels are settled as
#: one linear system (a dense triangular matrix, ``_levels_at_once``) instead of level by
#: level, and a capped battle's rounds are matrix products (``_round_at_once``) instead of
#: the scaled table's Horner steps: a battle without an AA gun is a chain of 41 states for
#: 40 units (20 rounds of 40 v 40 mixed land: 127 -> 33 ms in process).
DENSE_LEVELS = 160


#: The most numbers the tables of a small battle's rounds at once may hold (``advance``):
#: 40 units a side without an AA gun, 41 states, take 140,000.
MOST_ROUND_TABLE = 4_000_000


def _round_tables(space: Space, defender: Defender, nd: int):
    """The tables of a round at once on a small table (``Solver._round_at_once``):
    ``fire[j]`` (states by states) the fire of defenders ``j..`` on every state (losses
    past a state's level: dead); ``hits[j, s, x]`` the chance that state ``s`` scores
    ``x`` hits, ``nd - j`` or more (the defender eliminated) folded into ``nd - j``."""
    S1 = space.dead + 1
    most = len(space.loss) - 1
    into = (space.loss * S1 + np.arange(S1)).ravel()  # loss[y, s] -> row, s -> column
    fire = np.empty((nd, S1, S1))
    for j in range(nd):
        taps = defender.D[j]
        padded = np.zeros(max(len(taps), most + 1))
        padded[:len(taps)] = taps
        fire[j] = np.bincount(into, np.repeat(padded[:most + 1], S1), S1 * S1).reshape(S1, S1)
        fire[j, S1 - 1] += padded[most + 1:].sum()  # hits past the biggest army: dead
    tails = np.cumsum(space.hits[:, ::-1], axis=1)[:, ::-1]
    hits = np.zeros((nd, S1, nd + 1))
    for j in range(nd):
        hits[j, :, :nd - j] = space.hits[:, :nd - j]
        hits[j, :, nd - j] = tails[:, nd - j]
    return fire, hits


def _slot_hits(hits: np.ndarray, chains: Chains, scaled: Scaled):
    """``(hitsT, tailsT)``: ``hitsT[x, slot]``, the chance that the state in ``slot`` scores
    ``x`` hits, divided by its ``Scaled`` factor (the hits enter the scaled table), and
    ``tailsT[x, slot]`` ``x`` or more; the pads 0. Laid out by hits from the start: the
    transposed copy of 22,713 states' table took 20 ms of the 100-a-side battle."""
    width, S1 = hits.shape[1], hits.shape[0]
    by_state = np.zeros((width, S1 + 1))  # one more state, 0: the pads'
    by_state[:, :S1] = hits.T
    hitsT = by_state.take(chains.state, axis=1)
    hitsT *= chains.to_slots(1.0 / scaled.scale)
    tailsT = np.empty_like(hitsT)
    tailsT[-1] = hitsT[-1]
    for x in range(width - 2, -1, -1):  # the same sums, in the same order, as a cumsum
        np.add(tailsT[x + 1], hitsT[x], out=tailsT[x])
    return hitsT, tailsT


class Solver:
    """One battle's states: attacker states (``Space``) by defender losses (columns)."""

    def __init__(self, game: Game, spec: BattleSpec, ops: list[Opening], blocks, cuts: Cuts):
        self.spec, self.cuts = spec, cuts
        ops, self.pruned = likely_openings(ops, cuts.openings)  # the mass left out (Cuts)
        self.nd = nd = len(spec.defender)
        armies = [_block_counts(blocks, op.attacker) for op in ops]
        self.space = space = build_space(game, spec, blocks, nd + 1, armies)
        self.defender = Defender.of(game, spec)
        S = space.dead
        cols = 1 + max((j for op in ops for _, j in op.start), default=0)
        self.start = np.zeros((cols, S + 1))  # the columns the openings reach (1 on land)
        for op, counts in zip(ops, armies, strict=True):
            for (i, j), n in op.start.items():
                self.start[j, self._state(counts, i)] += n / op.den
        S1 = S + 1  # small tables: a column's levels at once (``_levels_at_once``)
        self.dense = (space.loss[1:] * S1 + np.arange(S1)).ravel() if S1 <= DENSE_LEVELS \
            else None
        self.rounds = _round_tables(space, self.defender, nd) \
            if S1 <= DENSE_LEVELS and nd * S1 * (S1 + nd + 1) <= MOST_ROUND_TABLE else None
        self.scaled = Scaled.of(self.defender, space.level)
        self.chains = chains = Chains.of(space, space.hits.shape[1])
        self.hits0 = space.hits[:, 0].copy()
        self.hitsT, self.tailsT = _slot_hits(space.hits, chains, self.scaled)
        space.hits = None  # 8 bytes x states x defenders: kept once, as hitsT

    def _state(self, counts: list[int], lost: int) -> int:
        """The row of the army ``counts`` after losing its first ``lost`` units."""
        counts = list(counts)
        for k, n in enumerate(counts):
            take = min(n, lost)
            counts[k] -= take
            lost -= take
        key = tuple(counts)
        return self.space.index.get(key, self.space.dead) if any(key) else self.space.dead

    def _send(self, acc: np.ndarray, w: np.ndarray, j: int, own: bool, worker=None):
        """Add the flow ``w`` of column ``j`` to the columns it hits into (``acc[t]``,
        ``t > j``, or ``t >= j`` in a round by round ``advance``), then the fire of
        defender ``j`` on all of them (the Horner step over the source columns; rows with
        nothing in them and no flow are left as they are); the table is scaled
        (``Scaled``). With a ``worker`` (``THREADED``), the rows past the next are its
        job: the future is returned, to be waited for before the next ``_send``."""
        sc = self.scaled
        lo = j if own else j + 1
        flow = self.chains.to_slots(w / sc.g) if w.any() else None
        sc.g *= sc.pivot[j]
        if flow is None and not acc[lo:].any():
            return None
        if worker is None:
            self._rows(acc, flow, j, lo, self.nd + 1)
            return None
        self._rows(acc, flow, j, lo, lo + 1)  # the next column's row now
        return worker.submit(self._rows, acc, flow, j, lo + 1, self.nd + 1)

    def _rows(self, acc: np.ndarray, w: np.ndarray | None, j: int, lo: int, hi: int) -> None:
        """``_send`` to rows ``lo..hi - 1``; ``w`` in slots, divided by ``g``."""
        nd, sc, chains = self.nd, self.scaled, self.chains
        reach, taps, fix = chains.reach, sc.taps[j], sc.dead_fix[j]
        for a in range(lo, hi, ROWS_AT_ONCE):  # a few rows at a time stay in the cache
            b = min(a + ROWS_AT_ONCE, hi)
            if w is not None:
                last = min(b, nd)
                if last > a:  # hits a - j .. last - 1 - j; past what a chain scores: 0
                    n = reach[a - j]  # the chains that can score a - j hits
                    acc[a:last, :n] += self.hitsT[a - j:last - j, :n] * w[:n]
                if b == nd + 1:
                    n = reach[nd - j]
                    acc[nd, :n] += self.tailsT[nd - j, :n] * w[:n]
            chains.fire(acc[a:b], taps, fix)

    def whole(self, P: np.ndarray) -> np.ndarray:
        """``P`` with the columns past its last (zero) added: ``(nd + 1, S + 1)``."""
        out = np.zeros((self.nd + 1, P.shape[1]))
        out[:len(P)] = P
        return out

    def settle(self, start: np.ndarray, absorbs: np.ndarray) -> np.ndarray:
        """The chance of ending in each state (``out[j, s]``), fought to the end from
        ``start``; states where ``absorbs`` is set end where they are (retreat)."""
        nd, space = self.nd, self.space
        S = space.dead
        acc = np.zeros((nd + 1, len(self.chains.state)))
        self.scaled.g = 1.0
        out = np.zeros((nd + 1, S + 1))
        worker = None
        if S >= THREADED:  # imported here: 6 ms of every command's start-up otherwise
            from concurrent.futures import ThreadPoolExecutor

            worker = ThreadPoolExecutor(1)
        try:
            return self._settle(start, absorbs, acc, out, worker)
        finally:
            if worker is not None:
                worker.shutdown()

    def _settle(self, start, absorbs, acc, out, worker) -> np.ndarray:
        nd, space = self.nd, self.space
        S = space.dead
        hits0 = self.hits0
        most = space.loss.shape[0] - 1
        later = None
        for col in range(nd + 1):
            if S >= PULLED_FIRE:
                P = self.scaled.fired(self.chains, acc, col)  # its row is whole (see below)
            else:
                P, dropped = _fire_at(space, self.scaled.row(self.chains, acc, col,
                                                             self.scaled.g),
                                      self.defender.D[col], self.cuts.taps)
                self.pruned += dropped
            if col < len(start):
                P += start[col]
            if col == nd:
                out[nd] = P
                break
            taps = self.defender.D[col]
            stay = hits0 * taps[0]
            live = ~absorbs & (stay < 1.0)
            live[S] = False
            inv = np.where(live, 1.0 / np.where(live, 1.0 - stay, 1.0), 0.0)
            own_of = inv * hits0
            # taps[y] for y = 1..most, and from each level u on, all folded into u (dead)
            padded = np.zeros(max(len(taps), most + 1) + 1)
            padded[:len(taps)] = taps
            tails = np.cumsum(padded[::-1])[::-1]
            if len(taps) > 1 and self.dense is not None:
                P = self._levels_at_once(P, own_of, padded, tails)
            elif len(taps) > 1:
                self._levels_one_by_one(P, own_of, padded, tails)
            W = P * inv  # a level's mass is whole once the levels above it have pushed
            out[col] = np.where(live, 0.0, P)
            if later is not None:
                later.result()  # the rows past the next took the last column's flow
            # the later columns take defender col's fire even when no flow leaves col
            later = self._send(acc, W, col, False, worker)
        if later is not None:
            later.result()
        return out

    def _round_at_once(self, P: np.ndarray, live: np.ndarray) -> np.ndarray:
        """``advance`` on a small table (``_round_tables``): every column's live states
        fire at once, one matrix product a column."""
        nd = self.nd
        fire, hits = self.rounds
        Y = fire @ (np.where(live, P[:nd], 0.0)[:, :, None] * hits)  # Y[j, s, x]
        out = np.where(live, 0.0, P)
        out[nd] = P[nd]
        for x in range(nd + 1):  # column j's x hits land in column j + x
            m = min(nd, nd + 1 - x)
            out[x:x + m] += Y[:m, :, x]
        return out

    def _levels_one_by_one(self, P: np.ndarray, own_of: np.ndarray, padded: np.ndarray,
                           tails: np.ndarray) -> None:
        """The levels' flows of one column (``_settle``), biggest armies first, in place:
        what a level's states send down when the attacker misses (``own_of`` of their mass)
        lands on the smaller armies before they send theirs. ``folds[u, :u]``: the
        defender's hits 1..u on a state of level ``u``, the last holding every hit from
        ``u`` on (``tails[u]``: the state is dead)."""
        most = len(self.space.loss) - 1
        folds = np.tile(padded[1:most + 1], (most + 1, 1))
        folds[np.arange(1, most + 1), np.arange(most)] = tails[1:most + 1]
        S1, cut, miss = len(P), self.cuts.levels, 1.0 - padded[0]
        for rows, u, targets in self.space.levels:
            own = P[rows] * own_of[rows]
            if own.max() > cut:
                P[rows.stop:] += np.bincount(targets, (folds[u, :u, None] * own).ravel(),
                                             S1 - rows.stop)
            else:
                self.pruned += float(own.sum()) * miss

    def _levels_at_once(self, P: np.ndarray, own_of: np.ndarray, padded: np.ndarray,
                        tails: np.ndarray) -> np.ndarray:
        """The levels' flows of one column (``_settle``) as one triangular system: ``P``
        plus what every state sends down when the attacker misses (``own_of`` of its mass,
        spread by the defender's hits ``padded``, those past the biggest army ``tails``)."""
        S1 = len(P)
        most = len(self.dense) // S1
        send = np.bincount(self.dense, (padded[1:most + 1, None] * own_of).ravel(), S1 * S1)
        send = send.reshape(S1, S1)
        send[S1 - 1] += tails[most + 1] * own_of  # hits past the biggest army: dead
        return np.linalg.solve(np.eye(S1) - send, P)

    def advance(self, P: np.ndarray, absorbs: np.ndarray) -> np.ndarray:
        """One round from every live state of ``P`` (``P[j, s]``); ended states and those
        where ``absorbs`` is set carry over."""
        nd, S = self.nd, self.space.dead
        live = ~absorbs
        live[S] = False
        if self.rounds is not None:
            return self._round_at_once(P, live)
        out = np.where(live, 0.0, P)
        out[nd] = P[nd]
        acc = np.zeros((nd + 1, len(self.chains.state)))
        sc = self.scaled
        sc.g = 1.0
        g = []  # row t takes the fire of defenders 0..t, then no more: its factor then
        for j in range(nd):
            self._send(acc, np.where(live, P[j], 0.0), j, True)
            g.append(sc.g)
        for t in range(nd):
            fired, dropped = _fire_at(self.space, sc.row(self.chains, acc, t, g[t]),
                                      self.defender.D[t + 1], self.cuts.taps)
            out[t] += fired
            self.pruned += dropped
        out[nd] += sc.row(self.chains, acc, nd, sc.g)
        return out


#: The least likely AA results are left out while their chances add up to less than this
#: (``likely_openings``): of 33 fighters' and 33 bombers' 1,156 results, 640 are kept.
NEGLIGIBLE_OPENINGS = 1e-15


def likely_openings(ops: list[Opening], cut: float) -> tuple[list[Opening], float]:
    """``ops`` without the least likely ones whose chances add up to less than ``cut``,
    and that chance."""
    mass = [sum(op.start.values()) / op.den for op in ops]
    dropped, left_out = 0.0, set()
    for k in sorted(range(len(ops)), key=lambda k: (mass[k], k)):
        if dropped + mass[k] >= cut:
            break
        dropped += mass[k]
        left_out.add(k)
    return [op for k, op in enumerate(ops) if k not in left_out], dropped


@frozen_record(kw_only=False)
class Cuts(Frozen):
    """What the table leaves out as negligible, its mass counted (``Ends.pruned``): the
    least likely AA results, the ends of a defender fire's hit distribution, a level's
    own flow in a column when every state of it holds less than ``levels``."""

    openings: float = NEGLIGIBLE_OPENINGS
    taps: float = NEGLIGIBLE_TAPS
    levels: float = NEGLIGIBLE


#: The cuts of every battle, and none (nothing left out but flows of exactly 0).
CUTS, NO_CUTS = Cuts(), Cuts(0.0, 0.0, 0.0)
#: The most mass the cuts may leave out before a battle is settled again without them:
#: every probability is then within it of the uncut table (measured: under 1e-15 on the
#: benchmark battles; ``float_battle``).
MOST_PRUNED = 1e-14


def _levels(level: np.ndarray) -> list[slice]:
    """The runs of rows of each level, biggest armies first (the dead row left out)."""
    S = len(level) - 1
    cuts = [0, *(np.flatnonzero(np.diff(level[:S])) + 1).tolist(), S]
    return [slice(a, b) for a, b in zip(cuts, cuts[1:], strict=False) if b > a]


def _block_counts(blocks, army: tuple[str, ...]) -> list[int]:
    """The army's count in each block (its units are the blocks' types in order)."""
    out, k = [0] * len(blocks), 0
    for unit, _, n in runs(army):
        while blocks[k][0] != unit:
            k += 1
        out[k] += n
    return out


@dataclass
class Ends:
    """Where a battle ends: ``P[j, s]`` over attacker states ``space`` and defender losses
    ``j``; ``retreats[s]`` marks the live states that are a retreat, not undecided."""

    space: Space
    P: np.ndarray
    retreats: np.ndarray
    pruned: float = 0.0  # the mass the cuts left out (``Cuts``)


def float_ends(game: Game, spec: BattleSpec, cuts: Cuts | None = None,
               ops: list[Opening] | None = None) -> Ends:
    """The battle's end states in floating point (see the module docstring); ``cuts``:
    what is left out as negligible (default ``CUTS``); ``ops``: the battle's ``openings``
    when the caller has them."""
    cuts = CUTS if cuts is None else cuts
    blocks = attacker_blocks(game, spec)
    check_size(game, spec, blocks)
    ops = openings(game, spec) if ops is None else ops
    solver = Solver(game, spec, ops, blocks, cuts)
    space, nd = solver.space, solver.nd
    S = space.dead
    none = np.zeros(S + 1, dtype=bool)
    at = np.zeros(S + 1, dtype=bool)
    if spec.retreat_at is not None:
        at = space.level <= spec.retreat_at
        at[S] = False
    done_first = spec.kind == "sea" and bool(first_strikers(game, spec.attacker))
    stop = _stop_after(spec)
    start = solver.start
    if stop is None:
        first = None
        if at.any() and not done_first:  # armies already at the retreat size fight round 1
            k = min(nd, len(start))  # the start's columns where the defender stands
            first = solver.whole(np.zeros_like(start))
            first[:k, at] = start[:k, at]
            start = start.copy()
            start[:k, at] = 0.0
        P = solver.settle(start, at)
        if first is not None and first.any():
            P += solver.advance(first, none)
        return Ends(space, P, at, solver.pruned)
    P = solver.whole(start)
    for r in range(max(stop - (1 if done_first else 0), 0)):
        P = solver.advance(P, at if (r or done_first) else none)
    return Ends(space, P, at if spec.retreat_after is None or (
        spec.rounds is not None and spec.rounds < spec.retreat_after) else ~none,
        solver.pruned)


def _stop_after(spec: BattleSpec) -> int | None:
    """The round after which the battle stops (a ``rounds`` cap or ``retreat_after``)."""
    caps = [n for n in (spec.rounds, spec.retreat_after) if n is not None]
    return min(caps) if caps else None


def float_battle(game: Game, spec: BattleSpec, least: float = 0.0,
                 ops: list[Opening] | None = None):
    """``(fields, survivors)`` in floating point: the fields of ``FIELDS`` and the chance
    of each side's surviving force (``force_text`` -> chance), those under ``least`` left
    out (a battle against an AA gun has tens of thousands, most under 1e-30). The answer
    (``plain.float_battle``) takes a battle of a few chains to ``plain``, the rest here
    with the ``openings`` (``ops``) that it found, if any."""
    ends = float_ends(game, spec, ops=ops)
    if ends.pruned > MOST_PRUNED:  # not met on any battle tried; the contract holds anyway
        ends = float_ends(game, spec, NO_CUTS, ops)
    space, E = ends.space, ends.P
    S, nd = space.dead, len(spec.defender)
    totals = Totals(per_state=E.sum(axis=0).tolist(), per_col=E.sum(axis=1).tolist(),
                    wins=E[nd, :S].tolist(), live=E[:nd, :S].sum(axis=0).tolist(),
                    mutual=float(E[nd, S]))
    blocks = [(t, n) for t, n, _ in space.blocks]
    counts = np.array(space.keys, dtype=np.int64).reshape(S, len(blocks))
    land = land_blocks(game, blocks)
    taking = (counts[:, land] > 0).any(axis=1) if spec.kind == "land" else np.ones(S, bool)
    return battle_totals(game, spec, totals, space.keys, blocks, space.level[:S].tolist(),
                         taking.tolist(), ends.retreats[:S].tolist(), least)

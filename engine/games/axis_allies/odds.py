"""Exact battle odds by dynamic programming over (attacker losses, defender losses).

Casualties follow each side's fixed order, so a side's survivors are always a suffix
of its casualty order and a state is two counts ``(i, j)``: units lost by the attacker
and by the defender. Per state, the hits a side scores are a convolution of per-unit
distributions (one d6 per unit hitting at its value, ``value`` faces of 6; heavy bombers
roll more dice); these are integer "ways" over ``6**dice``, computed once per suffix.

A round in which nobody is hit leaves the state unchanged and repeats: the transitions
out of a state are normalised by ``1 / (1 - p_stay)``, i.e. divided by
``T = 6**dice - ways_stay``. All arithmetic is on integers over one common denominator
``Q`` (the opening's ``6**k`` times every state's ``T``): a state's outflow
``W = Q * p / T`` is an exact integer division. Contributions from earlier defender-loss
columns are gathered column by column with a Horner scheme over the defenders' per-unit
distributions (the defenders' suffix distribution ``D_j`` is ``delta_j * D_(j+1)``), so a
40-against-40 battle costs O(n^3) big-integer steps instead of O(n^4).

The one-time steps (AA fire, the submarines' first strike and sea round 1, E4) are
enumerated exactly into the starting distribution of the chain. AA fire removes aircraft
from the back of the casualty order, so each AA result is an army of its own and a chain
of its own; big sets of chains are shared with a forked second process (``split_sum``)
and their sums added pairwise (``_tree_sum``). The big numbers are GMP integers (gmpy2):
the common denominators run to hundreds of thousands of bits.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

import gmpy2

from ...model import Game
from .battle import BattleSpec, BattleState, first_strikers, has_aa
from .common import aa_faces, const, flag, has_tag, hit_faces, shot

Poly = tuple[int, ...]
State = tuple[int, int]
Part = tuple[dict[str, int], int]  # every summary field's numerator over one denominator


# --------------------------------------------------------------------------- polynomials


def polymul(a: Poly, b: Poly) -> Poly:
    """Product of two hit distributions (integer ways, index = hits)."""
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return tuple(out)


def unit_poly(game: Game, unit_type: str, role: str, weapons: frozenset[str]) -> Poly:
    """One unit's hits in ``role`` as integer ways (``(1,)`` if it never rolls)."""
    s = shot(game, unit_type, role, weapons)
    if not s.rolls:
        return (1,)
    f = hit_faces(game, s.value)
    g = math.gcd(6 - f, f)  # ways over the smallest total: (4, 2) of 6 -> (2, 1) of 3
    out: Poly = (1,)
    for _ in range(s.dice):
        out = polymul(out, ((6 - f) // g, f // g))
    return out


def suffix_products(polys: list[Poly]) -> list[Poly]:
    """``out[i]`` = the hit distribution of units ``i..end`` (``out[len] = (1,)``)."""
    out: list[Poly] = [(1,)] * (len(polys) + 1)
    for i in range(len(polys) - 1, -1, -1):
        out[i] = polymul(polys[i], out[i + 1])
    return out


def conv_cap(vec: list[int], taps: Poly, cap: int) -> list[int]:
    """Convolve ``vec`` with ``taps``, folding indices beyond ``cap`` into ``cap``."""
    if len(taps) == 2:
        return _conv2(vec, taps[0], taps[1], cap)
    out = [0] * (cap + 1)
    tails = _tails(taps)
    for i, v in enumerate(vec):
        if v:
            room = cap - i  # taps from ``room`` on all land on ``cap``
            for t in range(min(room, len(taps))):
                c = taps[t]
                if c:
                    out[i + t] += v * c
            if room < len(taps):
                out[cap] += v * tails[room]
    return out


def _conv2(vec: list[int], q: int, p: int, cap: int) -> list[int]:
    """``conv_cap`` for one die: ``out[i] = q*vec[i] + p*vec[i-1]``, the top folded.

    Ways of one normalised die are small ((2, 1), (5, 1), (1, 1)...): a factor 1 is
    skipped and a power of two is a shift.
    """
    mq, mp = _scaler(q), _scaler(p)
    out = [0] * (cap + 1)
    prev = 0
    for i in range(cap):
        v = vec[i]
        out[i] = (mq(v) if v else 0) + (mp(prev) if prev else 0)
        prev = v
    top = vec[cap]
    out[cap] = (top * (q + p) if top else 0) + (mp(prev) if prev else 0)
    return out


def _scaler(c: int):
    """``x -> c * x``, as cheap as ``c`` allows."""
    if c == 1:
        return lambda x: x
    if c & (c - 1) == 0:
        shift = c.bit_length() - 1
        return lambda x: x << shift
    return lambda x: x * c


# --------------------------------------------------------------------------- the chain


@dataclass(frozen=True)
class Chain:
    """Per-unit hit distributions of both sides, in casualty order."""

    alpha: tuple[Poly, ...]  # attackers' attack
    delta: tuple[Poly, ...]  # defenders' defense


def chain_terminals(chain: Chain, start: dict[State, int], den0: int) -> tuple[dict, int]:
    """Absorbing states reached from ``start`` (numerators over ``den0``): ``(nums, Q)``.

    Absorbing: a side eliminated (``i == na`` or ``j == nd``), or a stalemate (nobody
    can hit, ``T == 0``). Returned numerators are over the common denominator ``Q``.
    """
    alpha, delta = list(chain.alpha), list(chain.delta)
    na, nd = len(alpha), len(delta)
    A, D = suffix_products(alpha), suffix_products(delta)
    tot_a = [sum(p) for p in A]
    tot_d = [sum(p) for p in D]
    T = [[tot_a[i] * tot_d[j] - A[i][0] * D[j][0] for j in range(nd)] for i in range(na)]
    Q = big_product([den0, *(t for row in T for t in row if t)])
    scale = Q // den0
    tail_a = [_tails(p) for p in A]
    chunks = tail_chunks(delta)
    W = [[0] * nd for _ in range(na)]
    term: dict[State, int] = {}
    setup = Setup(A, D, T, tail_a, chunks, delta, na, nd, start, scale)
    for jp in range(nd + 1):
        R = _from_earlier_columns(A, tail_a, delta, chunks, W, jp, na)
        settle(setup, W, R, jp, term)
    return term, Q


@dataclass(frozen=True)
class Setup:
    """Everything a chain's columns are settled from."""

    A: list
    D: list
    T: list
    tail_a: list
    chunks: list
    delta: list
    na: int
    nd: int
    start: dict
    scale: int


def settle(setup: Setup, W, R: list[int], jp: int, term: dict) -> None:
    """Settle column ``jp`` given the flow ``R`` from earlier columns."""
    na, nd = setup.na, setup.nd
    if jp == nd:
        for i in range(na + 1):
            p = R[i] + setup.start.get((i, nd), 0) * setup.scale
            if p:
                term[(i, nd)] = p
        return
    _column(setup.A, setup.D[jp], setup.T, W, R, setup.start, setup.scale, jp, na, term)


def _tails(p: Poly) -> Poly:
    """``out[x]`` = ways of ``x`` or more hits."""
    out = list(p)
    for k in range(len(out) - 2, -1, -1):
        out[k] += out[k + 1]
    return tuple(out)


def _from_earlier_columns(A, tail_a, delta, chunks, W, jp: int, na: int) -> list[int]:
    """Flow into column ``jp`` from columns ``j < jp`` (Horner over the defenders).

    Defenders ``j < jp`` are applied one by one (a source column joins after each);
    the rest, ``D_jp``, in chunks of several defenders at once (``tail_chunks``).
    """
    R = head(A, tail_a, delta, W, jp, jp, na)
    return apply_tail(R, chunks, jp, len(delta), na)


def head(A, tail_a, delta, W, jp: int, upto: int, na: int) -> list[int]:
    """Flow into column ``jp`` from source columns ``j < upto``, with defenders ``j < upto``
    applied (Horner): ``sum_j Y_j * delta_j * ... * delta_(upto-1)``."""
    R = [0] * (na + 1)
    active = False
    last = jp == len(delta)
    for j in range(upto):
        x = jp - j
        for i in range(na):
            w = W[i][j]
            if not w:
                continue
            coeffs = tail_a[i] if last else A[i]
            if x < len(coeffs) and coeffs[x]:
                R[i] += w * coeffs[x]
                active = True
        if active and len(delta[j]) > 1:
            R = conv_cap(R, delta[j], na)
    return R


def apply_tail(R: list[int], chunks, jp: int, nd: int, na: int) -> list[int]:
    """Apply the defenders ``jp..nd-1`` (``D_jp``) to a flow vector, chunk by chunk."""
    if jp == nd or not any(R):
        return R
    for taps in chunks[jp]:
        R = conv_cap(R, taps, na)
    return R


def tail_chunks(delta: list[Poly], limit: int = 1 << 30) -> list[list[Poly]]:
    """``out[j]``: ``delta[j:]`` multiplied together in runs whose ways stay one machine
    digit (applying a run costs one pass instead of one per defender)."""
    out: list[list[Poly]] = [[] for _ in range(len(delta) + 1)]
    for j in range(len(delta) - 1, -1, -1):
        run: Poly = (1,)
        k = j
        while k < len(delta) and max(polymul(run, delta[k])) < limit:
            run = polymul(run, delta[k])
            k += 1
        if k == j:  # one defender's ways alone exceed the limit
            run, k = delta[j], j + 1
        out[j] = ([run] if len(run) > 1 else []) + out[k]
    return out


def _column(A, Dj, T, W, R, start, scale, jp: int, na: int, term: dict) -> None:
    """Settle column ``jp``: rows in order, pushing same-column flow (no defender lost)."""
    same = [0] * (na + 1)
    tail_d = _tails(Dj)
    for i in range(na):
        p = R[i] + same[i] + start.get((i, jp), 0) * scale
        if not p:
            continue
        t = T[i][jp]
        if t == 0:
            term[(i, jp)] = p  # stalemate: nobody can hit
            continue
        w = p // t
        W[i][jp] = w
        a0 = A[i][0]
        if a0:
            v = w * a0
            room = na - i  # defender hits from ``room`` on kill every attacker left
            for y in range(1, min(room, len(Dj))):
                d = Dj[y]
                if d:
                    same[i + y] += v * d
            if room < len(Dj):
                same[na] += v * tail_d[room]
    p = R[na] + same[na] + start.get((na, jp), 0) * scale
    if p:
        term[(na, jp)] = p


# --------------------------------------------------------------------------- openings


@dataclass(frozen=True)
class Opening:
    """After the one-time steps: the attacker's order, the chain start and its denominator."""

    attacker: tuple[str, ...]
    start: dict
    den: int


def openings(game: Game, spec: BattleSpec) -> list[Opening]:
    """The exact one-time steps: AA fire splits the attacker's force; sea round 1 (E4)."""
    out = []
    for attacker, ways, den in _after_aa(game, spec):
        if spec.kind == "sea" and first_strikers(game, attacker):
            start, den1 = _sea_first_round(game, spec, attacker)
            out.append(Opening(attacker, {s: n * ways for s, n in start.items()}, den * den1))
        else:
            out.append(Opening(attacker, {(0, 0): ways}, den))
    return out


def _after_aa(game: Game, spec: BattleSpec) -> list[tuple[tuple[str, ...], int, int]]:
    """``(attacker order, ways, denominator)`` for each AA result (land 2), I5)."""
    if not has_aa(game, spec, BattleState(spec.attacker, spec.defender)):
        return [(spec.attacker, 1, 1)]
    per = int(const(game, "aa-dice-per-aircraft"))
    miss = (6 - aa_faces(game)) ** per
    kill = 6**per - miss
    counts: dict[str, int] = {}
    for plane in spec.aircraft:
        counts[plane] = counts.get(plane, 0) + 1
    results = [({}, 1)]
    for plane, n in counts.items():
        results = [({**lost, plane: k}, w * math.comb(n, k) * kill**k * miss ** (n - k))
                   for lost, w in results for k in range(n + 1)]
    den = 6 ** (per * len(spec.aircraft))
    return [(_without(spec.attacker, lost), w, den) for lost, w in results]


def _without(units: tuple[str, ...], lost: dict[str, int]) -> tuple[str, ...]:
    """The order with ``lost[type]`` units of each type removed (the last ones)."""
    out = list(units)
    for plane, k in lost.items():
        for _ in range(k):
            idx = len(out) - 1 - out[::-1].index(plane)
            del out[idx]
    return tuple(out)


def _sea_first_round(game: Game, spec: BattleSpec, attacker: tuple[str, ...]):
    """Submarine first strike (sea 2)-3)) then round 1 without the subs (E4): start states."""
    subs = first_strikers(game, attacker)
    sub_hits = _side_poly(game, subs, "attack", spec.attacker_weapons)
    again = flag(game, "subs-fire-again-round-one")
    firers = attacker if again else tuple(t for t in attacker
                                          if not has_tag(game, t, "first-strike"))
    att_hits = _side_poly(game, firers, "attack", spec.attacker_weapons)
    na, nd = len(attacker), len(spec.defender)
    dd = suffix_products([unit_poly(game, t, "defense", spec.defender_weapons)
                          for t in spec.defender])
    den_d = max(sum(p) for p in dd)
    start: dict[State, int] = {}
    for h, wh in enumerate(sub_hits):
        j1 = min(h, nd)
        if j1 == nd:
            _add(start, (0, nd), wh * sum(att_hits) * den_d)
            continue
        scale = den_d // sum(dd[j1])
        for x, wx in enumerate(att_hits):
            for y, wy in enumerate(dd[j1]):
                _add(start, (min(y, na), min(j1 + x, nd)), wh * wx * wy * scale)
    return start, sum(sub_hits) * sum(att_hits) * den_d


def _side_poly(game: Game, units: Iterable[str], role: str, weapons: frozenset[str]) -> Poly:
    out: Poly = (1,)
    for t in units:
        out = polymul(out, unit_poly(game, t, role, weapons))
    return out


def _add(acc: dict, key, value: int) -> None:
    if value:
        acc[key] = acc.get(key, 0) + value


# --------------------------------------------------------------------------- summary


FIELDS = ("attacker_wins", "defender_wins", "mutual_destruction", "undecided",
          "attacker_takes", "attacker_survivors", "defender_survivors")


def battle_odds(game: Game, spec: BattleSpec, workers: int | None = None) -> dict[str, Fraction]:
    """Exact probabilities (and expected survivors) of a battle fought to the end.

    Each opening (AA result) is a chain of its own; with several, big ones, they are
    shared between ``workers`` processes (default: 2 when the work is worth a fork).
    """
    ops = openings(game, spec)
    if spec.rounds is not None:
        from .rounds import capped_terminals

        return _combine([_summed(game, spec, capped_terminals(game, spec, op)) for op in ops])
    costs = [len(op.attacker) * len(spec.defender) * (len(op.attacker) + len(spec.defender))
             for op in ops]
    if workers is None:
        workers = 2 if sum(costs) >= FORK_WORK and (os.cpu_count() or 1) > 1 else 1
    return _combine([split_sum(lambda op: _summed(game, spec, _chain_part(game, spec, op)),
                               ops, costs, workers)])


def _summed(game: Game, spec: BattleSpec, part) -> Part:
    att, nums, den = part
    return summarise(game, spec, att, nums), den


#: Estimated work (sum of ``na * nd * (na + nd)`` over the chains) worth a second process.
FORK_WORK = 20_000


def split_sum(fn, items: list, costs: list[int], workers: int = 2) -> Part:
    """The sum of the parts ``fn(x)`` over ``items``; with two workers a forked child
    takes the share a greedy split by ``costs`` gives it and sends back its share's sum.

    If the child fails, the parent computes its share too (same sum, slower).
    """
    if workers < 2 or len(items) < 2 or not hasattr(os, "fork"):
        return _tree_sum([fn(x) for x in items])
    child_set = _greedy_half(costs)
    theirs = [x for k, x in enumerate(items) if k in child_set]
    ours = [x for k, x in enumerate(items) if k not in child_set]
    mine, child = _in_child(lambda: _tree_sum([fn(x) for x in theirs]),
                            lambda: _tree_sum([fn(x) for x in ours]))
    if child is None:
        child = _tree_sum([fn(x) for x in theirs])
    return _add_parts(mine, child)


def _greedy_half(costs: list[int]) -> set[int]:
    """Indices for the second process: biggest first, each to the lighter side."""
    loads, child = [0, 0], set()
    for k in sorted(range(len(costs)), key=lambda k: -costs[k]):
        side = 0 if loads[0] <= loads[1] else 1
        loads[side] += costs[k]
        if side == 1:
            child.add(k)
    return child


def _in_child(child_job, parent_job):
    """Run ``child_job`` in a forked process while the parent runs ``parent_job``.

    Returns ``(parent result, child result or None if the child failed)``.
    """
    import pickle

    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: compute, send, leave without cleanup handlers
        code = 1
        try:
            os.close(read)
            data = pickle.dumps(child_job(), pickle.HIGHEST_PROTOCOL)
            with os.fdopen(write, "wb") as pipe:
                pipe.write(data)
            code = 0
        finally:
            os._exit(code)
    os.close(write)
    try:
        mine = parent_job()
    finally:
        with os.fdopen(read, "rb") as pipe:
            data = pipe.read()
        _, status = os.waitpid(pid, 0)
    if status != 0 or not data:
        return mine, None
    return mine, pickle.loads(data)


def _combine(parts: list[Part]) -> dict[str, Fraction]:
    """The parts' sum as fractions, each field reduced once (equal numerators share one
    reduction)."""
    total, common = _tree_sum(parts)
    reduced: dict[int, Fraction] = {}
    for value in total.values():
        if value not in reduced:
            reduced[value] = reduced_fraction(value, common)
    return {key: reduced[total[key]] for key in FIELDS}


def big_product(factors: Iterable[int]) -> int:
    """The product of many integers as a GMP integer, multiplied in a balanced tree (the
    exact odds' common denominators run to hundreds of thousands of bits)."""
    level = [gmpy2.mpz(f) for f in factors] or [gmpy2.mpz(1)]
    while len(level) > 1:
        level = [level[k] * level[k + 1] if k + 1 < len(level) else level[k]
                 for k in range(0, len(level), 2)]
    return level[0]


def reduced_fraction(numerator: int, denominator: int) -> Fraction:
    """``Fraction(numerator, denominator)`` with GMP's gcd (CPython's takes seconds on
    numbers of 500,000 bits). The result is an ordinary ``Fraction`` of Python ints."""
    q = gmpy2.mpq(numerator, denominator)
    out = Fraction(0)
    if q:
        # the slots Fraction itself sets; the pair is already in lowest terms
        out = Fraction.__new__(Fraction)
        out._numerator, out._denominator = int(q.numerator), int(q.denominator)
    return out


def _tree_sum(parts: list[Part]) -> Part:
    """Add the parts pairwise (a balanced tree: the big numbers meet only at the top)."""
    while len(parts) > 1:
        parts = [_add_parts(parts[k], parts[k + 1]) if k + 1 < len(parts) else parts[k]
                 for k in range(0, len(parts), 2)]
    return parts[0]


def _add_parts(a: Part, b: Part) -> Part:
    """``a + b`` over the least common denominator of the two."""
    (sa, da), (sb, db) = a, b
    g = gmpy2.gcd(da, db)
    ka, kb = db // g, da // g
    return {key: sa[key] * ka + sb[key] * kb for key in FIELDS}, da * ka


def _chain_part(game: Game, spec: BattleSpec, op: Opening):
    chain = Chain(
        tuple(unit_poly(game, t, "attack", spec.attacker_weapons) for t in op.attacker),
        tuple(unit_poly(game, t, "defense", spec.defender_weapons) for t in spec.defender),
    )
    nums, q = chain_terminals(chain, op.start, op.den)
    return op.attacker, nums, q


def summarise(game: Game, spec: BattleSpec, attacker: tuple[str, ...],
              nums: dict[State, int]) -> dict[str, int]:
    """Integer numerators of every field from the absorbing states' numerators."""
    from .battle import takes

    na, nd = len(attacker), len(spec.defender)
    out = dict.fromkeys(FIELDS, 0)
    for (i, j), n in nums.items():
        if i == na and j == nd:
            out["mutual_destruction"] += n
        elif j == nd:
            out["attacker_wins"] += n
            if takes(game, spec, attacker[i:], True):
                out["attacker_takes"] += n
        elif i == na:
            out["defender_wins"] += n
        else:
            out["undecided"] += n
        out["attacker_survivors"] += n * (na - i)
        out["defender_survivors"] += n * (nd - j)
    return out

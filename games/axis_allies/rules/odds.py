"""Exact battle odds by dynamic programming over (attacker losses, defender losses).

Casualties follow each side's fixed order, so a side's survivors are always a suffix
of its casualty order and a state is two counts ``(i, j)``: units lost by the attacker
and by the defender. Per state, the hits a side scores are a convolution of per-unit
distributions (one d6 per unit hitting at its value, ``value`` faces of 6; heavy bombers
roll more dice); these are integer "ways" over ``6**dice``, computed once per suffix.

A round in which nobody is hit leaves the state unchanged and repeats: the transitions
out of a state are normalised by ``1 / (1 - p_stay)``, i.e. divided by
``T = 6**dice - ways_stay``. All arithmetic is on integers over one common denominator
``Q`` (the opening's ``6**k`` times every state's ``T``, each prime below 1,000 only as
often as one path of states can meet it: ``common_denominator``): a state's outflow
``W = Q * p / T`` is an exact integer division. Contributions from earlier defender-loss
columns are gathered column by column with a Horner scheme over the defenders' per-unit
distributions (the defenders' suffix distribution ``D_j`` is ``delta_j * D_(j+1)``), so a
40-against-40 battle costs O(n^3) big-integer steps instead of O(n^4) (``head``); the
defenders still standing, ``D_jp``, act on that flow and on the column's own in one pass
(``_column``). The numbers have 100,000 bits: a step costs its pass over the limbs, not
the interpreter, so the work saved is whole passes. Runs of defenders whose ways are
powers of two (defending at 2, 3 or 4) are applied by one addition per entry in a
shifted basis (``Run``).

The one-time steps (AA fire, the submarines' first strike and sea round 1, E4) are
enumerated exactly into the starting distribution of the chain. AA fire removes aircraft
from the back of the casualty order, so each AA result is an army of its own and a chain
of its own, unless its army is the tail of a bigger one (aircraft alone: ``shared_chains``,
one chain with several start states); big sets of chains are shared with a forked second
process (``split_sum``) and their sums added pairwise (``_tree_sum``). The big numbers are
GMP integers (gmpy2): the common denominators run to hundreds of thousands of bits.
"""

from __future__ import annotations

import math
import os
import pickle
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from operator import mul
from typing import Any

import gmpy2
from warpress.engine.errors import BadInput
from warpress.engine.model import Game

from .battle import BattleSpec, takes
from .common import force_text
from .opening import (  # noqa: F401  (shared with floats; re-exported for the tests)
    FIELDS,
    SURVIVOR_KINDS,
    SURVIVORS,
    Opening,
    Poly,
    State,
    fought_round_one,
    openings,
    polymul,
    retreat_row,
    retreats_at_stop,
    shared_chains,
    side_polys,
    stop_round,
    suffix_products,
    unit_poly,
)
from .polys import add_sources, coefficient_columns, conv_cap, tails_of
from .rounds import capped_terminals, first_round

Part = tuple[dict[str, int], int]  # every summary field's numerator over one denominator


# --------------------------------------------------------------------------- the chain


@dataclass(frozen=True)
class Chain:
    """Per-unit hit distributions of both sides, in casualty order."""

    alpha: tuple[Poly, ...]  # attackers' attack
    delta: tuple[Poly, ...]  # defenders' defense


def chain_terminals(chain: Chain, start: dict[State, int], den0: int,
                    stop: int | None = None) -> tuple[dict, int]:
    """Absorbing states reached from ``start`` (numerators over ``den0``): ``(nums, Q)``.

    Absorbing: a side eliminated (``i == na`` or ``j == nd``), or a stalemate (nobody
    can hit, ``T == 0``). Returned numerators are over the common denominator ``Q``
    (``common_denominator``). Every unit of start mass ends in an absorbing state; if the
    numerators do not add up to the start's mass (a division was not exact: the bound of
    ``common_denominator`` is proved, so this is a guard, not a path taken), the chain is
    settled again over the plain product of every ``T``.
    """
    alpha, delta = list(chain.alpha), list(chain.delta)
    A, D = suffix_products(alpha), suffix_products(delta)
    T = stay_out(A, D, stop)
    Q = common_denominator(T, den0)
    term = _settled(A, D, T, delta, start, den0, Q)
    if sum(term.values()) != Q // den0 * sum(start.values()):
        Q = big_product([den0, *(t for row in T for t in row if t)])
        term = _settled(A, D, T, delta, start, den0, Q)
    return term, Q


def stay_out(A: list[Poly], D: list[Poly], stop: int | None = None) -> list[list[int]]:
    """``T[i][j]``: the ways of a round at state ``(i, j)`` that hit someone (0 from row
    ``stop`` on: those rows absorb)."""
    tot_a = [sum(p) for p in A]
    tot_d = [sum(p) for p in D]
    stop = len(A) - 1 if stop is None else stop
    return [[gmpy2.mpz(tot_a[i] * tot_d[j] - A[i][0] * D[j][0]) if i < stop else gmpy2.mpz(0)
             for j in range(len(D) - 1)] for i in range(len(A) - 1)]


def _settled(A, D, T, delta, start: dict[State, int], den0: int, Q: int) -> dict:
    """The absorbing states' numerators over ``Q``, column by column."""
    na, nd = len(A) - 1, len(D) - 1
    W = [[0] * na for _ in range(nd)]  # W[j][i]: state (i, j)'s outflow, by columns
    term: dict[State, int] = {}
    cols = (coefficient_columns(A), coefficient_columns([tails_of(p) for p in A]))
    setup = Setup(A, D, T, cols, defender_runs(delta, na), na, nd, start, Q // den0)
    for jp in range(nd + 1):
        settle(setup, W, head(setup, W, jp), jp, term)
    return term


#: Odd primes below 1,000: ``common_denominator`` keeps each of them in ``Q`` only as
#: often as one path of states can need it.
SMALL_PRIMES = tuple(p for p in range(3, 1000, 2) if gmpy2.is_prime(p))
_SMALL_PRODUCT = gmpy2.mpz(math.prod(SMALL_PRIMES))


def common_denominator(T: list[list[int]], den0: int) -> int:
    """A common denominator of every state's outflow and every absorbing state.

    A state's outflow is start mass (over ``den0``) times, along a path of states that
    reaches it, each state's transition ways over its ``T``; its denominator divides
    ``den0`` times the product of the ``T`` on one path. Every transition hits someone,
    so ``i + j`` grows along a path: it meets each anti-diagonal once at most, and a
    prime ``p`` divides its product at most ``sum over anti-diagonals of max v_p(T)``
    times. The product of all the ``T`` holds small primes far more often: 2 divides a
    ``T`` up to 32 times when the defenders' misses are even (2 ways of 3 at 2). In a
    40-a-side battle the product of the ``T`` has 101,237 bits, 14,263 of them powers of
    2, of which the bound keeps 1,264: ``Q`` has 85,460 bits, and every big-number step
    of the chain is a sixth shorter. Primes from 1,000 up are kept as often as they come.
    """
    most: dict = {}  # most[p][d]: the highest power of p in one T on anti-diagonal d
    kept = [_bound(most, i, j, rest, powers) for i, j, rest, powers in _factored(T)]
    return big_product([den0, *kept, *_bounded(most)])


def _factored(T: list[list[int]]) -> list[tuple[int, int, Any, list[tuple[int, int]]]]:
    """``(i, j, rest, small prime powers)`` of every non-zero ``T[i][j]``."""
    return [(i, j, *_without_small_primes(t)) for i, row in enumerate(T)
            for j, t in enumerate(row) if t]


def _bound(most: dict, i: int, j: int, rest, powers: list[tuple[int, int]]):
    """Note the small prime powers of state ``(i, j)``'s ``T`` in ``most``; ``rest``."""
    for p, k in powers:
        on = most.setdefault(p, {})
        if k > on.get(i + j, 0):
            on[i + j] = k
    return rest


def _bounded(most: dict) -> list:
    return [gmpy2.mpz(p) ** sum(on.values()) for p, on in most.items()]


def force_denominators(T: list[list[int]], den0: int, Q: int) -> tuple[list, list]:
    """``(rows, cols)``: ``rows[i] = (q, Q / q)`` with ``q`` ``common_denominator``'s bound
    over the states of rows up to ``i`` only, ``cols[j]`` over columns up to ``j``; both
    empty if the whole bound does not divide ``Q``.

    Losses only grow, so every path to an absorbing state of row ``i`` (the attacker's
    force ``i`` units in) stays in rows up to ``i``, and ``common_denominator``'s proof
    holds there: that state's chance is a fraction over ``rows[i]``, which divides the
    chain's ``Q``. Reducing ``n / Q`` is then ``n / (Q / rows[i])`` over ``rows[i]``: a
    gcd of shorter numbers (40 v 40 mixed, 80 forces over 88,000 bits: the survivors'
    fractions 0.142 -> 0.094 s of CPU, and 0.01 s for these bounds).
    """
    factored = _factored(T)
    return (_prefix_bounds(factored, den0, len(T), 0, Q),
            _prefix_bounds(factored, den0, len(T[0]) if T else 0, 1, Q))


def _prefix_bounds(factored: list, den0: int, n: int, axis: int, Q: int) -> list:
    """``(bound, Q / bound)`` of ``common_denominator``'s bound over the states whose
    ``axis`` index is at most ``k``, for every ``k`` below ``n`` (empty unless the last
    bound divides ``Q``)."""
    by: list[list] = [[] for _ in range(n)]
    for f in factored:
        by[f[axis]].append(f)
    most: dict = {}  # as in common_denominator; each raised maximum multiplies in its rise
    bound, bounds, grows = gmpy2.mpz(den0), [], []
    for k in range(n):
        grow = []
        for i, j, rest, powers in by[k]:
            grow.append(rest)
            for p, e in powers:
                on = most.setdefault(p, {})
                had = on.get(i + j, 0)
                if e > had:
                    on[i + j] = e
                    grow.append(gmpy2.mpz(p) ** (e - had))
        grows.append(big_product(grow))
        bound *= grows[-1]
        bounds.append(bound)
    if not bounds:
        return []
    cofactor = gmpy2.divexact(gmpy2.mpz(Q), bounds[-1])
    if cofactor * bounds[-1] != Q:
        return []
    out = [(bounds[-1], cofactor)]
    for k in range(n - 2, -1, -1):  # bound[k] * cofactor[k] = bound[k+1] * cofactor[k+1]
        cofactor *= grows[k + 1]
        out.append((bounds[k], cofactor))
    return out[::-1]


def _without_small_primes(t) -> tuple[int, list[tuple[int, int]]]:
    """``t`` without its primes below 1,000, and their powers in ``t``."""
    powers = []
    k = gmpy2.bit_scan1(t)
    if k:
        t >>= k
        powers.append((2, k))
    if (s := gmpy2.gcd(t, _SMALL_PRODUCT)) > 1:
        for p in _primes_of(s):
            t, k = gmpy2.remove(t, p)
            powers.append((p, k))
    return t, powers


@lru_cache(maxsize=4096)
def _primes_of(s: int) -> tuple[int, ...]:
    """The primes of ``s``, a product of distinct primes from ``SMALL_PRIMES``."""
    out = []
    for p in SMALL_PRIMES:
        if s % p == 0:
            out.append(p)
            s //= p
            if s == 1:
                break
    return tuple(out)


@dataclass(frozen=True)
class Setup:
    """Everything a chain's columns are settled from."""

    A: list
    D: list
    T: list
    cols: tuple  # coefficient_columns of A and of A's tails (the last column)
    runs: list
    na: int
    nd: int
    start: dict
    scale: int


def settle(setup: Setup, W, R: list[int], jp: int, term: dict) -> None:
    """Settle column ``jp`` given the flow ``R`` from earlier columns (``head``); its
    outflows go into ``W`` in the basis the Horner adds them in (``Run.enter``)."""
    na, nd = setup.na, setup.nd
    if jp == nd:
        for i in range(na + 1):
            p = R[i] + setup.start.get((i, nd), 0) * setup.scale
            if p:
                term[(i, nd)] = p
        return
    _column(setup.A, setup.D[jp], setup.T, W[jp], R, setup.start, setup.scale, jp, na, term)
    next(run for run in setup.runs if run.r0 <= jp < run.r1).enter(W[jp], jp)


def head(setup: Setup, W, jp: int) -> list[int]:
    """Flow into column ``jp`` from the columns ``j < jp``, defenders ``j < jp`` applied
    (Horner): ``sum_j Y_j * delta_j * ... * delta_(jp-1)`` with
    ``Y_j[i] = W[j][i] * A[i][jp - j]``. The defenders ``jp..`` are ``_column``'s."""
    na = setup.na
    cols = setup.cols[jp == setup.nd]  # the last column takes "x or more" hits
    R: list = [0] * (na + 1)
    active = False
    for run in setup.runs:
        if run.r0 >= jp:
            break
        end = min(run.r1, jp)
        if active:
            run.enter(R, run.r0)
        for j in range(run.r0, end):
            x = jp - j
            active = x < len(cols) and add_sources(R, W[j], cols[x]) or active
            if active:
                R = run.step(R)
        if active:
            run.leave(R, end)
    return R


@dataclass(frozen=True)
class Run:
    """Defenders ``r0..r1-1`` who all roll the same ``taps`` (ways of 0 and 1 hits...).

    Most defenders' ways are powers of two: (2, 1) defending at 2, (1, 2) at 4, (1, 1) at
    3. For a run of those, ``(q, p) = (2**eq, 2**ep)``, the Horner keeps its flow vector
    shifted, ``x[k] << E(k, m)`` before defender ``m`` with
    ``E(k, m) = (eq - ep) * k + eq * (r1 - m) + lift``: then a defender's
    ``q * x[k] + p * x[k - 1]`` is ``x[k] + x[k - 1]``, one addition instead of a shift
    or product and an addition (the numbers run to 100,000 bits; an addition is a third
    of a product). The factor ``q`` moves into the exponent's ``r1 - m`` term; ``lift``
    keeps every exponent nonnegative. Shorter runs and other ways are convolved as they are.
    """

    r0: int
    r1: int
    taps: Poly
    na: int
    exps: tuple[int, int] | None  # (eq, ep) for the shifted basis, else None

    def exponent(self, k: int, m: int) -> int:
        """``E(k, m)``: the shift of index ``k`` before defender ``m`` (0 unless shifted)."""
        if self.exps is None:
            return 0
        eq, ep = self.exps
        return (eq - ep) * k + eq * (self.r1 - m) + max(0, ep - eq) * self.na

    def enter(self, R: list, m: int) -> None:
        """A plain vector into the basis before defender ``m``."""
        if self.exps is not None:
            for k, v in enumerate(R):
                e = self.exponent(k, m)
                if v and e:
                    R[k] = v << e

    def leave(self, R: list, m: int) -> None:
        """Back to plain from the basis before defender ``m`` (the shifts are exact)."""
        if self.exps is not None:
            for k, v in enumerate(R):
                e = self.exponent(k, m)
                if v and e:
                    R[k] = v >> e

    def step(self, R: list) -> list:
        """Apply one defender of the run, indices beyond ``na`` folded into ``na``."""
        if self.exps is None:
            return conv_cap(R, self.taps, self.na) if len(self.taps) > 1 else R
        na, eq = self.na, self.exps[0]
        top = R[na]
        # the fold: (q + p) * x[na] over q, exact (E(na, m) >= eq before every defender)
        R[na] = (((top * sum(self.taps)) >> eq) if top else 0) + R[na - 1]
        for k in range(na - 1, 0, -1):
            if R[k - 1]:
                R[k] = R[k] + R[k - 1]
        return R


def defender_runs(delta: list[Poly], na: int) -> list[Run]:
    """The defenders in runs of equal ways (see ``Run``)."""
    out: list[Run] = []
    j = 0
    while j < len(delta):
        k = j
        while k < len(delta) and delta[k] == delta[j]:
            k += 1
        out.append(Run(j, k, delta[j], na, _pow2_exps(delta[j]) if k - j > 1 else None))
        j = k
    return out


def _pow2_exps(taps: Poly) -> tuple[int, int] | None:
    """``(eq, ep)`` if ``taps == (2**eq, 2**ep)``, else None."""
    if len(taps) != 2 or any(t & (t - 1) or t == 0 for t in taps):
        return None
    return taps[0].bit_length() - 1, taps[1].bit_length() - 1


def _column(A, Dj, T, W: list, H, start, scale, jp: int, na: int, term: dict) -> None:
    """Settle column ``jp`` row by row from ``H``, the flow of earlier columns before the
    defenders ``jp..`` are applied (``head``).

    The defenders' hits ``D_jp`` act alike on the flow from earlier columns and on the
    column's own flow (rows already settled, no defender lost), so both are taken in one
    pass: each row pulls ``sum_y D_jp[y] * U[i - y]`` with ``U = H + own outflow``
    (the ``y = 0`` term is ``H`` alone: a row's own no-hit round is the stay in ``T``).
    Indices beyond ``na`` fold into ``na`` (every attacker killed).
    """
    taps = [gmpy2.mpz(d) for d in Dj]
    tail_d = [gmpy2.mpz(d) for d in tails_of(Dj)]
    U = [0] * (na + 1)
    for i in range(na):
        h = H[i]
        p = _pull(U, taps, i) + (h * taps[0] if h else 0) + start.get((i, jp), 0) * scale
        U[i] = h
        if not p:
            continue
        t = T[i][jp]
        if t == 0:
            term[(i, jp)] = p  # stalemate: nobody can hit
            continue
        w = gmpy2.divexact(p, t)  # exact by the choice of Q; faster than //
        W[i] = w
        a0 = A[i][0]
        if a0:
            U[i] = h + w * a0
    h = H[na]
    p = _pull(U, tail_d, na) + (h * tail_d[0] if h else 0) + start.get((na, jp), 0) * scale
    if p:
        term[(na, jp)] = p


def _pull(U: list, taps: list, i: int) -> int:
    """``sum_(y >= 1) taps[y] * U[i - y]`` over the taps there are."""
    return sum(map(mul, U[i - 1::-1], taps[1:])) if i else 0


# --------------------------------------------------------------------------- openings


# --------------------------------------------------------------------------- summary


def battle_odds(game: Game, spec: BattleSpec, workers: int | None = None) -> dict[str, Fraction]:
    """Exact probabilities (and expected survivors) of a battle (``exact_battle``)."""
    return exact_battle(game, spec, workers)[0]


def exact_battle(game: Game, spec: BattleSpec, workers: int | None = None,
                 survivors: str = "float"):
    """``(fields, survivors)``: the exact probabilities (and expected survivors) of a
    battle, fought to the end, cut off after ``spec.rounds`` or left by a retreat
    (``rounds.capped_terminals``, ``retreat_row``); and the chance of each side's
    surviving force, likeliest first: floats from the exact numerators by default,
    exact fractions with ``survivors="exact"`` while ``MOST_SURVIVOR_WORK`` allows
    (``_survivor_fractions``).

    Each opening (AA result) is a chain of its own; with several, big ones, they are
    shared between ``workers`` processes (default: 2 when the work is worth a fork).
    Battles past ``MOST_WORK`` or ``MOST_MEMORY`` are refused (``checked_work``).
    """
    if survivors not in SURVIVOR_KINDS:
        raise ValueError(f"survivors={survivors!r} is not one of {SURVIVOR_KINDS}")
    results = openings(game, spec)
    ops = shared_chains(results)
    costs = checked_work(game, spec, ops, len(results))
    if workers is None:
        workers = 2 if sum(costs) >= FORK_WORK and (os.cpu_count() or 1) > 1 else 1
    if spec.rounds is None and spec.retreat_after is None:
        terminals = _chain_part
    else:
        terminals = capped_terminals
    # one chain fought to the end: its forces' fractions are reduced over their own rows'
    # or columns' denominators (``force_denominators``), the other chains over the whole
    exact = survivors == "exact"
    alone = exact and terminals is _chain_part and spec.retreat_at is None and len(ops) == 1
    total = split_sum(lambda op: _summed(game, spec, terminals(game, spec, op),
                                         op if alone else None, not exact), ops, costs, workers)
    return _combine(total), (_survivor_fractions(total) if exact else
                             _survivor_floats(*_by_force(total)))


def chain_cost(na: int, nd: int, rounds: int | None = None,
               round_bits: int = 0) -> tuple[int, int]:
    """One chain's estimated ``(work, memory)``, in bit-steps and bits.

    Fought to the end, the common denominator has about 0.85 bits per state for every
    unit of either side (a ``T`` has fewer bits as units fall; 0.7-0.9 measured from 40
    to 100 a side), every state keeps one outflow of that length, and a state takes
    about as many steps as the smaller side has units. Cut off after ``rounds`` rounds,
    the numbers grow by ``round_bits`` a round and a state takes a step per defender
    each round; those small steps cost more than their bits (the interpreter's share), so
    that work counts 2.5 times (100 v 100 cut off after 50 rounds took 56 s here).
    """
    states = na * nd
    if rounds is None:
        bits = states * (na + nd) * 17 // 20
        return states * min(na, nd) * bits, states * bits
    return (states * nd * round_bits * rounds * (rounds + 1) * 5 // 4,
            states * round_bits * rounds)


#: The most exact odds take: the work and memory of 100 infantry a side fought to the end,
#: which took 72 s and 2.2 GB on the project machine (BENCHMARKS.md). A bigger battle is
#: refused at once rather than left to run for hours or fill memory.
MOST_WORK, MOST_MEMORY = chain_cost(100, 100)


def checked_work(game: Game, spec: BattleSpec, ops: list[Opening],
                 results: int | None = None) -> list[int]:
    """Each chain's estimated work; bad input (with the battle's size and the limit) past
    ``MOST_WORK`` (the chains' work added up) or ``MOST_MEMORY`` (the biggest chain's).
    ``results``: the AA results the chains stand for (default: one each)."""
    nd = len(spec.defender)
    costs = [chain_cost(len(op.attacker), nd, stop_round(spec), _round_bits(game, spec, op))
             for op in ops]
    over = max(sum(work for work, _ in costs) / MOST_WORK,
               max(memory for _, memory in costs) / MOST_MEMORY)
    if over <= 1:
        return [work for work, _ in costs]
    sizes = f"{len(spec.attacker)} v {nd} units"
    results = len(ops) if results is None else results
    if results > 1:
        sizes += f", {results} AA results"
        if len(ops) != results:
            sizes += f" in {len(ops)} chains"
    if stop_round(spec) is not None:
        sizes += f", {stop_round(spec)} rounds"
    raise BadInput(f"inputs attacker, defender: exact odds for this battle ({sizes}) need "
                   f"{over:.3g} times the most this tool computes (100 infantry a side: 72 s, "
                   "2.2 GB here); leave out --exact, or use roll")


def _round_bits(game: Game, spec: BattleSpec, op: Opening) -> int:
    """Bits a capped battle's denominator grows by each round (0 when fought to the end):
    the ways of every die of a full round."""
    if stop_round(spec) is None:
        return 0
    polys = [*side_polys(game, op.attacker, "attack", spec.attacker_weapons),
             *side_polys(game, spec.defender, "defense", spec.defender_weapons)]
    return math.prod(sum(p) for p in polys).bit_length()


def _summed(game: Game, spec: BattleSpec, part, alone: Opening | None = None,
            as_floats: bool = False) -> Part:
    """A chain's fields and its survivors' numerators; ``alone``: the opening of the
    battle's only chain, fought to the end (its forces' own denominators go with them:
    ``force_denominators``). ``as_floats``: each force's chance in this chain as a float
    instead (``_ratio``; the denominator ``None``), made where the chain was, in the second
    process for its chains: 450,000-bit numerators are neither sent back nor converted in
    the first (39 aircraft behind 1 infantry, 420 chains: 13.1-15.2 s -> 11.0-11.4 s)."""
    att, nums, den = part
    out = summarise(game, spec, att, nums)
    numerators = survivor_numerators(spec, att, nums)
    if as_floats:
        out[SURVIVORS] = [(tuple({key: _ratio(n, den) for key, n in side.items() if n}
                                 for side in numerators), None, None)]
        return out, den
    dens = _own_denominators(game, spec, alone, den) if alone is not None else None
    out[SURVIVORS] = [(numerators, den, dens)]  # see _add_parts
    return out, den


def _own_denominators(game: Game, spec: BattleSpec, op: Opening, Q: int
                      ) -> tuple[dict[str, tuple], dict[str, tuple]]:
    """Each side's forces (``force_text``) with ``force_denominators``' bound and ``Q``
    over it, where the bound divides ``Q`` (``Q`` is the plain product of every ``T`` if
    the chain fell back to it)."""
    A = suffix_products(side_polys(game, op.attacker, "attack", spec.attacker_weapons))
    D = suffix_products(side_polys(game, spec.defender, "defense", spec.defender_weapons))
    rows, cols = force_denominators(stay_out(A, D), op.den, Q)
    return ({force_text(op.attacker[i:]): own for i, own in enumerate(rows)},
            {force_text(spec.defender[j:]): own for j, own in enumerate(cols)})


def survivor_numerators(spec: BattleSpec, att: tuple[str, ...], nums: dict[State, int]
                        ) -> tuple[dict[str, int], dict[str, int]]:
    """Each side's surviving forces (``force_text``) with their numerators over the
    chain's denominator (the absorbing states' numerators added up by force)."""
    sides: tuple[dict[str, int], dict[str, int]] = ({}, {})
    for (i, j), n in nums.items():
        for side, left in zip(sides, (att[i:], spec.defender[j:]), strict=True):
            key = force_text(left)
            side[key] = side.get(key, 0) + n
    return sides


#: The most work exact survivors may take, in bit-steps: a force's chance is a sum over the
#: chains that reach it, over the battle's common denominator, reduced by a gcd. A 40 v 40
#: battle without an AA gun (80 forces, one chain of 85,000 bits: 7e6) takes 0.1 s; an AA
#: gun with 10 aircraft (1,126 forces in 35 chains over 450,000 bits) would take 8 s more
#: and write 70 MB of digits. Past this the survivors are given as floats.
MOST_SURVIVOR_WORK = 3 * 10**7


def _survivor_fractions(part: Part) -> tuple[dict[str, Any], dict[str, Any]]:
    """Each side's surviving forces with their chances, likeliest first: exact fractions
    adding up to 1 exactly while ``MOST_SURVIVOR_WORK`` allows, else floats.
    ``part[SURVIVORS]``: each chain's numerators by force, over its own denominator.
    """
    chains, sides = _by_force(part)
    common = part[1]
    work = sum(len(parts) for side in sides for parts in side.values()) * \
        int(common).bit_length()
    if work > MOST_SURVIVOR_WORK:
        return _survivor_floats(chains, sides)
    own = chains[0][2] if len(chains) == 1 and chains[0][1] == common else None
    if own is not None:
        return tuple(_likeliest({key: _reduced_over(parts[0][1], common, dens.get(key))
                                 for key, parts in side.items()})
                     for side, dens in zip(sides, own, strict=True))
    scale = [gmpy2.divexact(gmpy2.mpz(common), den) for _, den, _ in chains]
    return tuple(_likeliest({key: reduced_fraction(sum(n * scale[c] for c, n in parts), common)
                             for key, parts in side.items()}) for side in sides)


def _by_force(part: Part) -> tuple[list, list[dict[str, list[tuple[int, int]]]]]:
    """``part[SURVIVORS]`` (each chain's numerators by force, over its own denominator) and
    each side's forces with the ``(chain, numerator)`` pairs that reach them."""
    chains = part[0].get(SURVIVORS, [])
    sides = []
    for k in range(2):
        by_key: dict[str, list[tuple[int, int]]] = {}
        for c, (numerators, den, _) in enumerate(chains):
            for key, n in numerators[k].items():
                if n or den is None:  # a float (``as_floats``) of a non-zero numerator
                    by_key.setdefault(key, []).append((c, n))
        sides.append(by_key)
    return chains, sides


def _survivor_floats(chains: list, sides: list) -> tuple[dict[str, float], dict[str, float]]:
    """Each side's forces with their chances as floats, each chain's numerator over its
    denominator (``_ratio``: no gcd, no fraction), likeliest first."""
    return tuple(_likeliest({key: sum(n if chains[c][1] is None else _ratio(n, chains[c][1])
                                      for c, n in parts)
                             for key, parts in side.items()}) for side in sides)


def _reduced_over(n: int, common: int, own: tuple | None) -> Fraction:
    """``n / common`` reduced, through ``own = (q, common / q)`` (``q``: a denominator of
    the fraction, ``force_denominators``) when ``common / q`` divides ``n``: the same
    fraction, from a gcd of shorter numbers."""
    if own is not None:
        q, cofactor = own
        m = gmpy2.divexact(n, cofactor)
        if m * cofactor == n:
            return reduced_fraction(m, q)
    return reduced_fraction(n, common)


def _ratio(n: int, den: int) -> float:
    """``n / den`` as a float, correctly rounded (both may have 500,000 bits). It was taken
    from their leading 64 bits once: a force under 1e-17 was off by up to 5% (40 infantry a
    side).

    Both are cut to the leading ``RATIO_BITS`` of ``den`` first (``a = n >> k``, ``b = den
    >> k``): ``n / den`` lies between ``a / (b + 1)`` and ``(a + 1) / b``, and when those two
    round to the same float (Python's int division rounds correctly), so does ``n / den``.
    They differ only within about 2**-120 of a halfway point; then the whole numbers are
    divided. The cut spares converting 500,000-bit numbers (39 aircraft behind 1 infantry:
    33,600 of them)."""
    k = den.bit_length() - RATIO_BITS
    if k <= 0:
        return int(n) / int(den)
    a, b = int(n >> k), int(den >> k)
    low, high = a / (b + 1), (a + 1) / b
    return low if low == high else int(n) / int(den)


#: The leading bits of a denominator ``_ratio`` divides with: a float's 53 and its
#: exponent range (1,075 binary places below 1) and room for the bounds to agree.
RATIO_BITS = 1200


def _likeliest(chances: dict) -> dict:
    """Likeliest first (ties by name), compared as floats (a Fraction compare multiplies
    numbers of 100,000 bits)."""
    value = {key: float(p) for key, p in chances.items()}
    return {key: chances[key] for key in sorted(chances, key=lambda k: (-value[k], k))}


#: Work (``chain_cost`` summed over the chains) worth a second process: about 0.1 s of
#: chains (a 13-against-14 chain is 6e6 and takes 5 ms; a fork costs about 10 ms).
FORK_WORK = 10**8


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


def _combine(part: Part) -> dict[str, Fraction]:
    """A part as fractions, each field reduced once (equal numerators share one
    reduction)."""
    total, common = part
    reduced = {v: reduced_fraction(v, common)
               for v in dict.fromkeys(total[key] for key in FIELDS)}
    return {key: reduced[total[key]] for key in FIELDS}


def big_product(factors: Iterable[int]) -> int:
    """The product of many integers as a GMP integer, multiplied in a balanced tree (the
    exact odds' common denominators run to hundreds of thousands of bits)."""
    return _pairwise([gmpy2.mpz(f) for f in factors] or [gmpy2.mpz(1)], mul)


def _pairwise(items: list, op):
    """``items`` folded with ``op`` in a balanced tree (the big numbers meet only at the
    top)."""
    while len(items) > 1:
        items = [op(items[k], items[k + 1]) if k + 1 < len(items) else items[k]
                 for k in range(0, len(items), 2)]
    return items[0]


def reduced_fraction(numerator: int, denominator: int) -> Fraction:
    """``Fraction(numerator, denominator)`` with GMP's gcd (CPython's takes seconds on
    numbers of 500,000 bits). The result is an ordinary ``Fraction`` of Python ints."""
    q = gmpy2.mpq(numerator, denominator)
    if not q:
        return Fraction(0)
    out = Fraction.__new__(Fraction)  # already in lowest terms: skip Fraction's own gcd
    out._numerator, out._denominator = int(q.numerator), int(q.denominator)
    return out


def _tree_sum(parts: list[Part]) -> Part:
    """Add the parts pairwise (``_pairwise``)."""
    return _pairwise(parts, _add_parts)


def _add_parts(a: Part, b: Part) -> Part:
    """``a + b`` over the least common denominator of the two."""
    (sa, da), (sb, db) = a, b
    g = gmpy2.gcd(da, db)
    ka, kb = db // g, da // g
    out = {key: sa[key] * ka + sb[key] * kb for key in FIELDS}
    if SURVIVORS in sa or SURVIVORS in sb:  # the chains' own, added up at the end only
        out[SURVIVORS] = [*sa.get(SURVIVORS, []), *sb.get(SURVIVORS, [])]
    return out, da * ka


def _chain_part(game: Game, spec: BattleSpec, op: Opening):
    """The chain of an opening: ``(attacker order, terminal numerators, denominator)``.

    With ``retreat_at`` the rows from ``retreat_row`` on absorb (the attacker leaves after
    the round that brought it there); start mass already there fights round 1 first
    (``rounds.first_round``) unless the opening fought it (sea round 1, E4).
    """
    chain = Chain(
        side_polys(game, op.attacker, "attack", spec.attacker_weapons),
        side_polys(game, spec.defender, "defense", spec.defender_weapons),
    )
    stop = retreat_row(spec, len(op.attacker))
    early = {s: n for s, n in op.start.items() if stop <= s[0] < len(op.attacker)
             and s[1] < len(spec.defender)}
    if early and not fought_round_one(game, spec, op.attacker):
        rest = {s: n for s, n in op.start.items() if s not in early}
        nums, q = chain_terminals(chain, rest, op.den, stop) if rest else ({}, op.den)
        more, q2 = first_round(game, spec, op.attacker, early, op.den)
        return op.attacker, *_sum_over(nums, q, more, q2)
    nums, q = chain_terminals(chain, op.start, op.den, stop)
    return op.attacker, nums, q


def _sum_over(a: dict, da: int, b: dict, db: int) -> tuple[dict, int]:
    """Two sets of numerators over their least common denominator."""
    g = gmpy2.gcd(da, db)
    ka, kb = db // g, da // g
    out = {s: n * ka for s, n in a.items()}
    for s, n in b.items():
        out[s] = out.get(s, 0) + n * kb
    return out, da * ka


def summarise(game: Game, spec: BattleSpec, attacker: tuple[str, ...],
              nums: dict[State, int]) -> dict[str, int]:
    """Integer numerators of every field from the absorbing states' numerators."""
    na, nd = len(attacker), len(spec.defender)
    stop = 0 if retreats_at_stop(spec) else retreat_row(spec, na)
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
        elif i >= stop:
            out["attacker_retreats"] += n
        else:
            out["undecided"] += n
        out["attacker_survivors"] += n * (na - i)
        out["defender_survivors"] += n * (nd - j)
    return out

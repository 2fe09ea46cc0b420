"""What the exact chains (``odds``) and the floating-point table (``floats``) share: the
units' hit distributions as integer ways, the one-time steps of a battle enumerated
exactly (``openings``: AA fire, the submarines' first strike and sea round 1, E4), the
answer's fields and where a battle stops (a ``rounds`` cap, the attacker's retreat).

Kept apart from ``odds`` so that floating-point odds load no GMP integers.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable

from warpress.engine.model import Game
from warpress.engine.records import Frozen, frozen_record

from .battle import BattleSpec, BattleState, first_strikers, has_aa
from .common import aa_faces, const, flag, has_tag, hit_faces, shot

Poly = tuple[int, ...]
State = tuple[int, int]


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


def side_polys(game: Game, units: Iterable[str], role: str,
               weapons: frozenset[str]) -> tuple[Poly, ...]:
    """``unit_poly`` of each unit in order, each type looked up once."""
    units = tuple(units)
    once = {t: unit_poly(game, t, role, weapons) for t in dict.fromkeys(units)}
    return tuple(once[t] for t in units)


def suffix_products(polys: list[Poly]) -> list[Poly]:
    """``out[i]`` = the hit distribution of units ``i..end`` (``out[len] = (1,)``)."""
    out: list[Poly] = [(1,)] * (len(polys) + 1)
    for i in range(len(polys) - 1, -1, -1):
        out[i] = polymul(polys[i], out[i + 1])
    return out


@frozen_record(kw_only=False)
class Opening(Frozen):
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


def shared_chains(ops: list[Opening]) -> list[Opening]:
    """The openings as chains: an opening whose attacker is a suffix of another's (same
    denominator) is start mass in that one's chain (the first such, longest first), its
    states shifted by the units it lacks. Against an AA gun, aircraft attacking alone lose
    the cheapest first, so an AA result is the same army as a bigger one after its first
    losses: 20 fighters and 20 bombers are 441 AA results but 21 chains. With units in front
    of the aircraft in the casualty order, every AA result is a chain of its own.

    The chains are found by their runs of one type (``_suffix_keys``), not by comparing
    armies: 1,156 AA results took 0.3 s that way."""
    out: list[Opening] = []
    hosts: dict[tuple, list[tuple[int, int]]] = {}  # suffix key -> (chain, first run's size)
    for op in sorted(ops, key=lambda o: -len(o.attacker)):  # stable: longest first
        keys = _suffix_keys(op)
        key, size = keys[0]
        k = next((k for k, most in hosts.get(key, ()) if most >= size), None)
        if k is None:
            for key, most in keys:
                hosts.setdefault(key, []).append((len(out), most))
            out.append(op)
            continue
        host = out[k]
        shift = len(host.attacker) - len(op.attacker)
        start = dict(host.start)
        for (i, j), n in op.start.items():
            _add(start, (i + shift, j), n)
        out[k] = Opening(host.attacker, start, host.den)
    return out


def _suffix_keys(op: Opening) -> list[tuple[tuple, int]]:
    """``(key, size)`` of each suffix of ``op``'s army that starts a run, from the whole army
    on, then the empty one: an army whose runs are ``(t, a)`` then ``rest`` is a suffix of
    this one exactly when this one has the key ``(den, t, rest)`` with a size of ``a`` or
    more."""
    blocks = tuple((t, n) for t, _, n in runs(op.attacker))
    keys = [((op.den, t, blocks[j + 1:]), n) for j, (t, n) in enumerate(blocks)]
    return keys + [((op.den, None, ()), 0)]


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
    order_runs = runs(spec.attacker)
    return [(_without(spec.attacker, lost, order_runs), w, den) for lost, w in results]


def _without(units: tuple[str, ...], lost: dict[str, int],
             order_runs: list[tuple[str, int, int]]) -> tuple[str, ...]:
    """The order with ``lost[type]`` units of each type removed (the last ones); ``order_runs``:
    the order's ``runs``."""
    if not any(lost.values()):
        return units
    if len(order_runs) == len({t for t, _, _ in order_runs}):  # each type in one run: cut its tail
        return tuple(itertools.chain.from_iterable(units[a:a + n - lost.get(t, 0)]
                                                   for t, a, n in order_runs))
    keep = {t: units.count(t) - lost.get(t, 0) for t in lost}
    out = []
    for unit in units:
        left = keep.get(unit)
        if left is None:
            out.append(unit)
        elif left:
            out.append(unit)
            keep[unit] = left - 1
    return tuple(out)


def runs(units: tuple[str, ...]) -> list[tuple[str, int, int]]:
    """``(type, start, length)`` of each run of one type in ``units``."""
    out: list[tuple[str, int, int]] = []
    start = 0
    for unit, run in itertools.groupby(units):
        n = len(list(run))
        out.append((unit, start, n))
        start += n
    return out


def _sea_first_round(game: Game, spec: BattleSpec, attacker: tuple[str, ...]):
    """Submarine first strike (sea 2)-3)) then round 1 without the subs (E4): start states."""
    subs = first_strikers(game, attacker)
    sub_hits = _side_poly(game, subs, "attack", spec.attacker_weapons)
    again = flag(game, "subs-fire-again-round-one")
    firers = attacker if again else tuple(t for t in attacker
                                          if not has_tag(game, t, "first-strike"))
    att_hits = _side_poly(game, firers, "attack", spec.attacker_weapons)
    na, nd = len(attacker), len(spec.defender)
    dd = suffix_products(list(side_polys(game, spec.defender, "defense",
                                         spec.defender_weapons)))
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
    for p in side_polys(game, units, role, weapons):
        out = polymul(out, p)
    return out


def _add(acc: dict, key, value: int) -> None:
    if value:
        acc[key] = acc.get(key, 0) + value


FIELDS = ("attacker_wins", "defender_wins", "mutual_destruction", "undecided",
          "attacker_takes", "attacker_survivors", "defender_survivors", "attacker_retreats")


#: The part's key of the chances of each side's surviving force (floats, ``survivors``).
SURVIVORS = "survivors"
#: The battle input ``survivors``: the survivors' chances as floats from the exact
#: numerators (cheap), or as exact fractions (each force's fraction reduced: slower).
SURVIVOR_KINDS = ("float", "exact")


def stop_round(spec: BattleSpec) -> int | None:
    """The round after which the battle stops: a ``rounds`` cap or ``retreat_after``."""
    caps = [n for n in (spec.rounds, spec.retreat_after) if n is not None]
    return min(caps) if caps else None


def retreats_at_stop(spec: BattleSpec) -> bool:
    """True when the battle stops (``stop_round``) by the attacker's retreat, not a cap."""
    return spec.retreat_after is not None and (spec.rounds is None
                                               or spec.retreat_after <= spec.rounds)


def retreat_row(spec: BattleSpec, na: int) -> int:
    """The first row (attacker losses) at which the attacker retreats (``retreat_at``)."""
    return na if spec.retreat_at is None else max(na - spec.retreat_at, 0)


def fought_round_one(game: Game, spec: BattleSpec, attacker: tuple[str, ...]) -> bool:
    """True when the opening fought round 1 (sea, attacking submarines: E4)."""
    return spec.kind == "sea" and bool(first_strikers(game, attacker))

"""A plain-Fraction battle reference for the exact odds: every round's hits enumerated
die by die, then a fixed point over survivor tuples (no integers over common
denominators, no Horner, no shared chains). The start of the rounds comes from the
caller: the engine's own one-time steps enumerated die by die (``test_aa_battle``), or
the AA dice and the submarines' first round written out by hand
(``test_aa_odds_speed_reference``). Also the battle tests' shared inputs: ``spec`` and the
per-unit hit distributions ``POLYS``."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import product

from hypothesis import strategies as st
from warpress.games.axis_allies.rules import battle as B
from warpress.games.axis_allies.rules.common import hit_faces, shot
from warpress.games.axis_allies.rules.odds import FIELDS

#: The unit types of the random battles (``draw_forces``), land and sea.
LAND = ["infantry", "armor", "fighter", "bomber"]
SEA = ["submarine", "battleship", "carrier", "transport", "fighter"]


def force(counts, types) -> str:
    """``"2 infantry, 1 armor"`` from counts by type (types with 0 left out)."""
    return ", ".join(f"{n} {t}" for n, t in zip(counts, types, strict=True) if n)


def draw_forces(draw, kind: str, most_defenders: int = 12) -> tuple[str, str]:
    """Hypothesis: an attacker of 1 to 12 units and a defender of 1 to ``most_defenders``,
    up to 4 of each type of ``kind``'s."""
    types = LAND if kind == "land" else SEA
    att = draw(st.lists(st.integers(0, 4), min_size=len(types), max_size=len(types))
               .filter(lambda c: 0 < sum(c) <= 12))
    dfn = draw(st.lists(st.integers(0, 4), min_size=len(types), max_size=len(types))
               .filter(lambda c: 0 < sum(c) <= most_defenders))
    return force(att, types), force(dfn, types)


def assert_close(fields, survivors, fields_x, survivors_x, within=1e-12):
    """Two answers ``(fields, survivors)`` (floats, or the exact odds' fractions) agree
    within ``within`` on every field and every force's chance (a force missing: 0)."""
    for key in FIELDS:
        assert abs(fields[key] - float(fields_x[key])) < within, key
    for side, side_x in zip(survivors, survivors_x, strict=True):
        for name in set(side) | set(side_x):
            assert abs(side.get(name, 0.0) - float(side_x.get(name, 0.0))) < within, name


@st.composite
def battles(draw, caps: bool = True):
    """Hypothesis: ``(kind, attacker, defender, more inputs)``, a random battle of up to 12
    units a side: land (an AA gun now and then) or sea; a retreat size, and with ``caps``
    a round cap or a retreat after a round, and developed weapons now and then (heavy
    bombers roll 3 dice: more hits than units)."""
    kind = draw(st.sampled_from(["land", "sea"]))
    attacker, defender = draw_forces(draw, kind, most_defenders=11)
    if kind == "land" and draw(st.booleans()):
        defender += ", 1 antiaircraft"
    more = {}
    if draw(st.booleans()):
        more["retreat_at"] = draw(st.integers(1, 6))
    if caps and draw(st.integers(0, 3)) == 0:
        more["retreat_after"] = draw(st.integers(1, 4))
    if caps and draw(st.integers(0, 3)) == 0:
        more["rounds"] = draw(st.integers(1, 4))
    if draw(st.integers(0, 3)) == 0:
        more["attacker_weapons"] = [draw(st.sampled_from(
            ["heavy-bombers", "jet-power", "super-submarines"]))]
    if draw(st.integers(0, 4)) == 0:
        more["defender_weapons"] = ["jet-power"]
    return kind, attacker, defender, more


#: Per-unit hit distributions (integer ways) for properties of the chain's steps: one die
#: at each value, a unit that never rolls, and heavy bombers' two dice.
POLYS = [(5, 1), (2, 1), (1, 1), (1, 2), (1, 5), (1,), (1, 2, 1), (4, 4, 1)]


def spec(game, attacker, defender, kind="land", **more):
    """The battle table's spec for two forces."""
    return B.make_spec(game, {"attacker": attacker, "defender": defender, "kind": kind, **more})


def hits(game, units, role, weapons) -> dict[int, Fraction]:
    """The number of hits ``units`` score in ``role``, die by die."""
    dist = {0: Fraction(1)}
    for unit in units:
        s = shot(game, unit, role, weapons)
        for _ in range(s.dice if s.rolls else 0):
            p = Fraction(hit_faces(game, s.value), 6)
            new: dict[int, Fraction] = {}
            for k, q in dist.items():
                new[k] = new.get(k, 0) + q * (1 - p)
                new[k + 1] = new.get(k + 1, 0) + q * p
            dist = new
    return dist


def fought_out(game, sp, starts: dict[tuple, Fraction]) -> dict[str, Fraction]:
    """Every field of the odds once the rounds from ``starts`` ((attacker, defender)
    survivors -> probability) are fought to the end."""
    out = dict.fromkeys(FIELDS, Fraction(0))
    for (att, dfn), p in end_states(game, sp, starts).items():
        _tally(game, sp, out, att, dfn, p)
    return out


def end_states(game, sp, starts: dict[tuple, Fraction]) -> dict[tuple, Fraction]:
    """``(attacker, defender) survivors -> probability`` once the rounds from ``starts``
    are fought to the end."""

    def can_hit(units, role, weapons):
        return any(shot(game, u, role, weapons).rolls for u in units)

    @cache
    def rounds(att, dfn):
        if not att or not dfn or not (can_hit(att, "attack", sp.attacker_weapons)
                                      or can_hit(dfn, "defense", sp.defender_weapons)):
            return {(att, dfn): Fraction(1)}
        ha = hits(game, att, "attack", sp.attacker_weapons)
        hd = hits(game, dfn, "defense", sp.defender_weapons)
        stay = ha.get(0, 0) * hd.get(0, 0)
        out: dict[tuple, Fraction] = {}
        for (x, px), (y, py) in product(ha.items(), hd.items()):
            if x or y:
                for end, q in rounds(att[y:], dfn[x:]).items():
                    out[end] = out.get(end, 0) + px * py * q / (1 - stay)
        return out

    out: dict[tuple, Fraction] = {}
    for start, p in starts.items():
        for end, q in rounds(*start).items():
            out[end] = out.get(end, 0) + p * q
    return out


def _tally(game, sp, out, att, dfn, p) -> None:
    if not att and not dfn:
        out["mutual_destruction"] += p
    elif not dfn:
        out["attacker_wins"] += p
        out["attacker_takes"] += p * B.takes(game, sp, att, True)
    elif not att:
        out["defender_wins"] += p
    else:
        out["undecided"] += p
    out["attacker_survivors"] += p * len(att)
    out["defender_survivors"] += p * len(dfn)

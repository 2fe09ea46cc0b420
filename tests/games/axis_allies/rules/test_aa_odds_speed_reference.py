"""The fast battle-odds paths (AA openings split over two processes, the tree combination
of the openings' parts, the bounded common denominator) against the plain-Fraction
reference, and the size limit."""

from __future__ import annotations

import os
from fractions import Fraction
from itertools import product

import pytest
from aa_fraction_reference import POLYS, fought_out, hits, spec
from hypothesis import given, settings
from hypothesis import strategies as st
from warpress.engine.errors import BadInput
from warpress.games.axis_allies.rules import odds as O
from warpress.games.axis_allies.rules.common import aa_faces, const, has_tag


def straight_odds(game, sp):
    """The plain-Fraction reference from the AA dice and the first sea round written out
    here by hand (not the engine's one-time steps)."""
    starts = {}
    for att, p in aa_results(game, sp).items():
        for state, q in first_round(game, sp, att).items():
            starts[state] = starts.get(state, 0) + p * q
    return fought_out(game, sp, starts)


def aa_results(game, sp):
    """Attacker orders after the AA gun's dice, one aircraft at a time (last of a type
    in casualty order goes first)."""
    if not (sp.kind == "land" and sp.aircraft
            and any(has_tag(game, t, "aa-fire") for t in sp.defender)):
        return {sp.attacker: Fraction(1)}
    per = int(const(game, "aa-dice-per-aircraft"))
    kill = 1 - (1 - Fraction(aa_faces(game), 6)) ** per
    out = {}
    for fate in product((True, False), repeat=len(sp.aircraft)):
        att = list(sp.attacker)
        p = Fraction(1)
        for plane, shot_down in zip(sp.aircraft, fate, strict=True):
            p *= kill if shot_down else 1 - kill
            if shot_down:
                del att[len(att) - 1 - att[::-1].index(plane)]
        out[tuple(att)] = out.get(tuple(att), 0) + p
    return out


def first_round(game, sp, att):
    """Sea: the submarines' strike (removed at once), then round 1 without them (E4)."""
    subs = tuple(t for t in att if has_tag(game, t, "first-strike"))
    if sp.kind != "sea" or not subs:
        return {(att, sp.defender): Fraction(1)}
    others = tuple(t for t in att if t not in subs)
    out = {}
    for h, ph in hits(game, subs, "attack", sp.attacker_weapons).items():
        dfn = sp.defender[h:]
        if not dfn:
            out[(att, dfn)] = out.get((att, dfn), 0) + ph
            continue
        for (x, px), (y, py) in product(
                hits(game, others, "attack", sp.attacker_weapons).items(),
                hits(game, dfn, "defense", sp.defender_weapons).items()):
            key = (att[y:], dfn[x:])
            out[key] = out.get(key, 0) + ph * px * py
    return out


AA_CASES = [
    ("2 infantry, 2 fighter, 1 bomber", "2 infantry, 1 antiaircraft", {}),
    ("1 armor, 1 fighter, 2 bomber", "1 antiaircraft, 2 infantry, 1 fighter", {}),
    ("1 infantry, 2 fighter, 1 bomber", "1 antiaircraft, 2 infantry",
     {"attacker_order": ["fighter", "bomber"]}),
    ("2 bomber, 1 fighter, 1 infantry", "1 antiaircraft, 1 armor, 1 infantry",
     {"attacker_weapons": ["heavy-bombers"], "defender_weapons": ["jet-power"]}),
    ("3 fighter", "1 antiaircraft, 1 infantry", {"attacker_order": ["fighter"]}),
    # aircraft alone: AA results share chains (shared_chains)
    ("2 fighter, 2 bomber", "1 antiaircraft, 2 infantry", {}),
    ("2 bomber, 1 fighter", "1 antiaircraft, 1 infantry, 1 armor",
     {"attacker_order": ["bomber", "fighter"], "attacker_weapons": ["heavy-bombers"]}),
]


@pytest.mark.parametrize("attacker,defender,more", AA_CASES)
@pytest.mark.parametrize("workers", [1, 2])
def test_aa_openings_match_the_straight_reference(game, attacker, defender, more, workers):
    sp = spec(game, attacker, defender, **more)
    assert len(O.openings(game, sp)) > 1
    assert O.battle_odds(game, sp, workers=workers) == straight_odds(game, sp)


def starts_by_army(game, ops):
    """Each chain's start mass as (army at that state, ways), for comparing chain sets."""
    out = {}
    for op in ops:
        for (i, j), n in op.start.items():
            key = (op.attacker[i:], j, op.den)
            out[key] = out.get(key, 0) + n
    return out


@pytest.mark.parametrize("attacker,chains", [
    ("20 fighter, 20 bomber", 21),  # one per bombers left; fighters alone join bombers' 0
    ("3 fighter", 1),
    ("1 infantry, 2 fighter, 1 bomber", 6),  # the infantry in front: no AA result is a tail
])
def test_aa_results_that_are_tails_of_a_bigger_army_share_its_chain(game, attacker, chains):
    sp = spec(game, attacker, "1 antiaircraft, 2 infantry")
    results = O.openings(game, sp)
    merged = O.shared_chains(results)
    assert len(merged) == chains
    assert starts_by_army(game, merged) == starts_by_army(game, results)


SINGLE_CHAINS = [
    ("land", "3 infantry, 1 armor", "3 infantry", {}),
    ("land", "1 antiaircraft, 2 infantry", "1 antiaircraft, 2 infantry",
     {"attacker_order": ["infantry"], "defender_order": ["infantry"]}),
    ("land", "2 bomber, 1 infantry, 1 armor", "2 infantry, 1 fighter, 1 armor",
     {"attacker_weapons": ["heavy-bombers"], "defender_weapons": ["jet-power"]}),
    ("sea", "2 submarine, 1 battleship, 1 carrier", "1 carrier, 2 transport, 1 submarine", {}),
    ("land", "5 infantry, 2 armor", "6 infantry, 1 armor", {}),
]


@pytest.mark.parametrize("kind,attacker,defender,more", SINGLE_CHAINS)
def test_one_chain_matches_the_straight_reference(game, kind, attacker, defender, more):
    sp = spec(game, attacker, defender, kind, **more)
    assert len(O.openings(game, sp)) == 1
    assert O.battle_odds(game, sp, workers=2) == straight_odds(game, sp)


def part(value, den=1):
    return dict.fromkeys(O.FIELDS, value), den


def test_a_failed_child_is_redone_by_the_parent():
    parent = os.getpid()

    def in_parent_only(x):
        if os.getpid() != parent:
            raise RuntimeError("child refuses")
        return part(x, x + 1)

    got = O.split_sum(in_parent_only, list(range(7)), [1] * 7, workers=2)
    assert O._combine(got) == O._combine(O._tree_sum([part(x, x + 1) for x in range(7)]))


def test_the_child_computes_a_share():
    parent = os.getpid()
    got = O.split_sum(lambda x: part(int(os.getpid() != parent)), list(range(6)),
                      [5, 1, 4, 2, 3, 3], workers=2)
    assert got == part(3)  # the greedy split gives the child 4 + 3 + 2 = 9 of 18: 3 items


def test_gmp_reductions_are_the_fractions_in_lowest_terms():
    common = 2**40 * 3**30 * 7 * 11
    for value in (common // 3 * 2, common // 7, 0, 12345, common, common // 11 * 5):
        got = O.reduced_fraction(value, common)
        want = Fraction(value, common)
        assert got == want
        assert (got.numerator, got.denominator) == (want.numerator, want.denominator)
        assert type(got.numerator) is int and type(got.denominator) is int


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 6), st.integers(1, 6)), min_size=1, max_size=6))
def test_tree_combine_is_the_sum_of_the_parts(parts):
    raw = [({k: n * (i + 1) for i, k in enumerate(O.FIELDS)}, d) for n, d in parts]
    got = O._combine(O._tree_sum(raw))
    for i, key in enumerate(O.FIELDS):
        assert got[key] == sum(Fraction(n * (i + 1), d) for n, d in parts)


LAND = ["infantry", "armor", "fighter", "bomber"]
SEA = ["submarine", "battleship", "carrier", "transport", "fighter"]


def force(counts, types):
    return ", ".join(f"{n} {t}" for n, t in zip(counts, types, strict=True) if n)


@settings(max_examples=40, deadline=None)
@given(att=st.lists(st.integers(0, 2), min_size=4, max_size=4),
       dfn=st.lists(st.integers(0, 2), min_size=4, max_size=4), aa=st.booleans(),
       air_first=st.booleans(), workers=st.sampled_from([1, 2]))
def test_small_land_battles_match_the_straight_reference(game, att, dfn, aa, air_first,
                                                         workers):
    if not any(att) or not (any(dfn) or aa):
        return
    defender = ", ".join(p for p in (force(dfn, LAND), "1 antiaircraft" if aa else "") if p)
    more = {"attacker_order": ["bomber", "fighter"]} if air_first else {}
    sp = spec(game, force(att, LAND), defender, **more)
    assert O.battle_odds(game, sp, workers=workers) == straight_odds(game, sp)


@settings(max_examples=30, deadline=None)
@given(att=st.lists(st.integers(0, 2), min_size=5, max_size=5),
       dfn=st.lists(st.integers(0, 2), min_size=5, max_size=5),
       super_subs=st.booleans(), workers=st.sampled_from([1, 2]))
def test_small_sea_battles_match_the_straight_reference(game, att, dfn, super_subs, workers):
    if not any(att) or not any(dfn):
        return
    more = {"attacker_weapons": ["super-submarines"]} if super_subs else {}
    sp = spec(game, force(att, SEA), force(dfn, SEA), "sea", **more)
    assert O.battle_odds(game, sp, workers=workers) == straight_odds(game, sp)


SHIFTED = [
    ("land", "20 infantry, 10 armor, 6 fighter, 4 bomber",
     "12 infantry, 4 armor, 4 fighter, 1 antiaircraft, 1 bomber", {}),
    ("land", "6 infantry, 2 armor, 2 fighter", "8 infantry, 3 fighter", {}),
    ("sea", "4 submarine, 3 battleship, 2 carrier, 3 fighter",
     "3 transport, 4 submarine, 3 battleship, 3 fighter", {}),
    ("land", "4 bomber, 3 infantry, 2 armor", "3 infantry, 3 fighter, 2 armor",
     {"attacker_weapons": ["heavy-bombers"], "defender_weapons": ["jet-power"]}),
]


@pytest.mark.parametrize("kind,attacker,defender,more", SHIFTED)
def test_the_shifted_runs_lose_no_bits_and_match_plain_runs(game, monkeypatch, kind, attacker,
                                                            defender, more):
    """A debug check of ``Run``'s shifted basis: the fold's halving and the shifts back
    drop only zero bits, and the odds equal those of plain convolutions."""
    sp = spec(game, attacker, defender, kind, **more)
    shifted = []
    leave, step = O.Run.leave, O.Run.step

    def checked_leave(self, R, m):
        for k, v in enumerate(R):
            e = self.exponent(k, m)
            assert v % (1 << e) == 0, (k, m, e)
            shifted.append(e)
        leave(self, R, m)

    def checked_step(self, R):
        if self.exps is not None:
            assert R[self.na] * sum(self.taps) % (1 << self.exps[0]) == 0
        return step(self, R)

    monkeypatch.setattr(O.Run, "leave", checked_leave)
    monkeypatch.setattr(O.Run, "step", checked_step)
    got = O.battle_odds(game, sp, workers=1)
    assert any(shifted)  # the shifted basis was used
    monkeypatch.setattr(O, "_pow2_exps", lambda taps: None)  # every run convolved plainly
    assert got == O.battle_odds(game, sp, workers=1)


# --------------------------------------------------------------------------- common denominator


def plain_product(T, den0):
    return O.big_product([den0, *(t for row in T for t in row if t)])


def test_small_primes_are_kept_once_per_anti_diagonal():
    # 2-powers 2, 1, 1 on anti-diagonals 0, 1, 1 (a path meets 2**2 and one 2**1);
    # 7 divides two T on one anti-diagonal (a path meets one of them); 1009 is kept as
    # often as it comes
    T = [[4, 2 * 3 * 7], [2 * 5 * 7, 0], [1009 * 1009, 1009]]
    assert O.common_denominator(T, 3) == 3 * 2**3 * 3 * 5 * 7 * 1009**3


def probabilities(nums, q):
    return {state: Fraction(n, q) for state, n in nums.items()}


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(POLYS), min_size=1, max_size=9),
       st.lists(st.sampled_from(POLYS), min_size=1, max_size=9),
       st.dictionaries(st.tuples(st.integers(0, 3), st.integers(0, 3)),
                       st.integers(1, 50), min_size=1, max_size=4))
def test_the_bounded_denominator_gives_the_plain_products_answer(alpha, delta, start):
    chain = O.Chain(tuple(alpha), tuple(delta))
    start = {(min(i, len(alpha)), min(j, len(delta))): n for (i, j), n in start.items()}
    den0 = 6 * sum(start.values())
    fast = probabilities(*O.chain_terminals(chain, start, den0))
    with pytest.MonkeyPatch.context() as m:
        m.setattr(O, "common_denominator", plain_product)
        assert fast == probabilities(*O.chain_terminals(chain, start, den0))


def test_a_forty_a_side_battle_has_the_plain_products_answer(game, monkeypatch):
    sp = spec(game, "20 infantry, 10 armor, 6 fighter, 4 bomber",
              "24 infantry, 8 armor, 7 fighter, 1 bomber")
    fast = O.battle_odds(game, sp, workers=1)
    monkeypatch.setattr(O, "common_denominator", plain_product)
    assert O.battle_odds(game, sp, workers=1) == fast


def test_an_inexact_division_is_caught_and_settled_over_the_plain_product(game, monkeypatch):
    sp = spec(game, "3 infantry, 2 armor, 1 bomber", "4 infantry, 1 fighter")
    monkeypatch.setattr(O, "common_denominator", lambda T, den0: den0)  # far too small
    assert O.battle_odds(game, sp, workers=1) == straight_odds(game, sp)


# --------------------------------------------------------------------------- size limit


@pytest.mark.parametrize("attacker,defender,more", [
    ("100 infantry", "100 infantry", {}),  # the limit itself
    ("300 infantry", "10 infantry", {}),
    ("100 infantry", "100 infantry", {"rounds": 50}),
    ("20 infantry, 10 armor, 6 fighter, 4 bomber",
     "24 infantry, 8 armor, 6 fighter, 1 antiaircraft, 1 bomber", {}),
])
def test_battles_up_to_the_limit_are_taken(game, attacker, defender, more):
    sp = spec(game, attacker, defender, **more)
    assert all(w > 0 for w in O.checked_work(game, sp, O.openings(game, sp)))  # no BadInput


def test_the_estimates_grow_with_every_unit_and_round():
    for k in (0, 1):
        assert O.chain_cost(40, 40)[k] < O.chain_cost(41, 40)[k]
        assert O.chain_cost(40, 40)[k] < O.chain_cost(40, 41)[k]
        assert O.chain_cost(40, 40, 10, 200)[k] < O.chain_cost(40, 40, 11, 200)[k]
    assert O.chain_cost(100, 100) == (O.MOST_WORK, O.MOST_MEMORY)


def test_a_lopsided_battle_is_refused_for_its_memory(game):
    # 1000 v 10 is less work than 100 v 100, but its outflows would fill 10 GB
    sp = spec(game, "1000 infantry", "10 infantry")
    work, memory = O.chain_cost(1000, 10)
    assert work < O.MOST_WORK < memory * 100
    with pytest.raises(BadInput,
                       match=r"\(1000 v 10 units\) need [0-9.]+ times the most this tool"):
        O.checked_work(game, sp, O.openings(game, sp))

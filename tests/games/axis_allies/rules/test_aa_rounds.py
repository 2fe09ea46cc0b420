"""The capped-rounds step (``rounds.Round``) against the plain one: every live state's
transitions enumerated one by one."""

from __future__ import annotations

from aa_fraction_reference import POLYS
from hypothesis import given, settings
from hypothesis import strategies as st
from warpress.games.axis_allies.rules import battle as B
from warpress.games.axis_allies.rules import odds as O
from warpress.games.axis_allies.rules.rounds import Round


def plain_round(dist, A, D, full, na, nd):
    """Every live state's transitions, one by one, all over ``full``."""
    out = {}
    for (i, j), n in dist.items():
        if i == na or j == nd:
            out[(i, j)] = out.get((i, j), 0) + n * full
            continue
        base = n * (full // (sum(A[i]) * sum(D[j])))
        for x, wa in enumerate(A[i]):
            for y, wd in enumerate(D[j]):
                if wa and wd:
                    key = (min(i + y, na), min(j + x, nd))
                    out[key] = out.get(key, 0) + base * wa * wd
    return out


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(POLYS), min_size=1, max_size=8),
       st.lists(st.sampled_from(POLYS), min_size=1, max_size=8),
       st.dictionaries(st.tuples(st.integers(0, 8), st.integers(0, 8)),
                       st.integers(1, 99), min_size=1, max_size=6),
       st.integers(1, 3))
def test_a_round_is_the_plain_round(alpha, delta, dist, rounds):
    A, D = O.suffix_products(alpha), O.suffix_products(delta)
    na, nd = len(alpha), len(delta)
    dist = {(min(i, na), min(j, nd)): n for (i, j), n in dist.items()}
    step = Round(A, D, delta)
    fast, plain = dict(dist), dict(dist)
    for _ in range(rounds):
        fast = step.advance(fast)
        plain = plain_round(plain, A, D, step.full, na, nd)
    assert {k: v for k, v in fast.items() if v} == {k: v for k, v in plain.items() if v}


def test_forty_a_side_capped_at_five_rounds_keeps_every_unit_of_mass(game):
    sp = B.make_spec(game, {"attacker": "20 infantry, 10 armor, 6 fighter, 4 bomber",
                            "defender": "24 infantry, 8 armor, 7 fighter, 1 bomber",
                            "rounds": 5})
    got = O.battle_odds(game, sp)
    assert 0 < got["undecided"] < 1
    assert sum(got[k] for k in ("attacker_wins", "defender_wins", "mutual_destruction",
                                "undecided")) == 1


def test_capped_aa_results_shared_by_two_processes_add_up_alike(game):
    sp = B.make_spec(game, {"attacker": "3 infantry, 2 fighter, 1 bomber",
                            "defender": "3 infantry, 1 antiaircraft", "rounds": 3})
    assert len(O.openings(game, sp)) == 6
    assert O.battle_odds(game, sp, workers=2) == O.battle_odds(game, sp, workers=1)


def test_capped_aa_results_in_shared_chains_match_one_chain_each(game, monkeypatch):
    sp = B.make_spec(game, {"attacker": "3 fighter, 2 bomber",
                            "defender": "3 infantry, 1 antiaircraft", "rounds": 2})
    assert len(O.shared_chains(O.openings(game, sp))) < len(O.openings(game, sp))
    shared = O.battle_odds(game, sp, workers=1)
    monkeypatch.setattr(O, "shared_chains", lambda ops: ops)
    assert O.battle_odds(game, sp, workers=1) == shared

"""Battle odds on plain Python floats (``plain``): a battle of a few chains (one, or one an
AA result), held to the exact odds (``odds``) and to numpy's table (``floats``); which
battles it takes; and that its answers do not import numpy."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from aa_fraction_reference import assert_close, battles, spec
from hypothesis import given, settings
from warpress.games.axis_allies.rules import floats as F
from warpress.games.axis_allies.rules import odds as O
from warpress.games.axis_allies.rules import plain as P


@settings(max_examples=60, deadline=None)
@given(battles(caps=False))
def test_chains_match_the_exact_odds_and_the_numpy_table(game, battle):
    kind, attacker, defender, more = battle
    sp = spec(game, attacker, defender, kind, **more)
    if P.chain_openings(game, sp) is None:  # a start already at the retreat size
        assert sp.retreat_at is not None
        return
    fields, survivors = P.float_battle(game, sp)
    fields_x, survivors_x = O.exact_battle(game, sp, workers=1, survivors="exact")
    assert_close(fields, survivors, fields_x, survivors_x)
    fields_f, survivors_f = F.float_battle(game, sp)
    assert_close(fields, survivors, fields_f, survivors_f, within=1e-14)
    for side, side_f in zip(survivors, survivors_f, strict=True):  # the same forces named
        assert {k for k, p in side.items() if p > 1e-15} == \
            {k for k, p in side_f.items() if p > 1e-15}
    assert abs(sum(survivors[0].values()) - 1) < 1e-12
    assert abs(sum(survivors[1].values()) - 1) < 1e-12


BIG = [
    ("land", "20 infantry, 10 armor, 6 fighter, 4 bomber",
     "24 infantry, 8 armor, 7 fighter, 1 bomber", {}),
    ("land", "40 infantry", "40 infantry", {"retreat_at": 10}),
    ("sea", "10 submarine, 10 battleship, 10 carrier, 10 fighter",
     "10 transport, 10 submarine, 10 battleship, 10 fighter", {}),
]


@pytest.mark.parametrize("kind,attacker,defender,more", BIG)
def test_forty_a_side_matches_the_exact_odds(game, kind, attacker, defender, more):
    sp = spec(game, attacker, defender, kind, **more)
    assert P.chain_openings(game, sp) is not None
    fields_x, survivors_x = O.exact_battle(game, sp, survivors="exact")
    assert_close(*P.float_battle(game, sp), fields_x, survivors_x)


@pytest.mark.parametrize("attacker,defender,kind,more,why", [
    ("1 infantry, 20 fighter, 19 bomber", "39 infantry, 1 antiaircraft", "land", {},
     "420 AA results, each a chain of 40 states: past MOST_PLAIN"),
    ("3 infantry", "3 infantry", "land", {"rounds": 2}, "a round cap"),
    ("3 infantry", "3 infantry", "land", {"retreat_after": 1}, "a retreat after a round"),
    ("3 infantry", "3 infantry", "land", {"retreat_at": 3}, "a start at the retreat size"),
    ("101 infantry", "100 infantry", "land", {}, "past MOST_PLAIN"),
    ("10 infantry", "400 infantry", "land", {}, "past MOST_PLAIN: many columns"),
])
def test_what_is_not_a_few_chains_goes_to_the_numpy_table(game, attacker, defender, kind, more,
                                                        why):
    sp = spec(game, attacker, defender, kind, **more)
    assert P.chain_openings(game, sp) is None, why
    if len(sp.attacker) <= 12:
        assert P.float_battle(game, sp) == F.float_battle(game, sp)


@pytest.mark.parametrize("attacker,defender,chains", [
    ("3 infantry, 2 armor", "4 infantry, 1 antiaircraft", 1),  # no aircraft: no AA fire
    ("6 infantry, 3 armor, 2 fighter, 2 bomber",
     "8 infantry, 2 armor, 2 fighter, 1 antiaircraft, 1 bomber", 9),  # 3 x 3 AA results
    ("10 fighter, 10 bomber", "19 infantry, 1 antiaircraft", 11),  # aircraft alone: shared
])
def test_an_aa_gun_makes_a_chain_of_each_aa_result(game, attacker, defender, chains):
    sp = spec(game, attacker, defender)
    assert len(P.chain_openings(game, sp)) == chains
    fields_x, survivors_x = O.exact_battle(game, sp, survivors="exact")
    assert_close(*P.float_battle(game, sp), fields_x, survivors_x)


#: Runs ``warpress odds`` in a fresh interpreter and says whether numpy was imported.
PROBE = """
import contextlib, io, json, sys
from warpress.cli import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    try:
        main(["odds", "axis-allies", "battle", *sys.argv[1:], "--json"], standalone_mode=False)
    except SystemExit:
        pass
print(json.dumps({"numpy": "numpy" in sys.modules,
                  "wins": json.loads(out.getvalue())["result"]["attacker_wins"]}))
"""


@pytest.mark.parametrize("attacker,defender,numpy", [
    ("20 infantry, 10 armor, 6 fighter, 4 bomber", "24 infantry, 8 armor, 7 fighter", False),
    ("3 infantry, 2 fighter", "4 infantry, 1 antiaircraft", False),
    ("1 infantry, 20 fighter, 19 bomber", "39 infantry, 1 antiaircraft", True),
])
def test_a_few_chains_answer_without_numpy(attacker, defender, numpy):
    run = subprocess.run([sys.executable, "-c", PROBE, f"attacker={attacker}",
                          f"defender={defender}"], capture_output=True, text=True, check=True)
    answer = json.loads(run.stdout)
    assert answer["numpy"] is numpy
    assert 0 < answer["wins"] < 1

"""Battle odds on plain Python floats (``plain``): a battle whose attacker is one chain,
held to the exact odds (``odds``) and to numpy's table (``floats``); which battles it takes;
and that its answers do not import numpy."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from aa_fraction_reference import draw_forces, draw_weapons, spec
from hypothesis import given, settings
from hypothesis import strategies as st
from warpress.games.axis_allies.rules import floats as F
from warpress.games.axis_allies.rules import odds as O
from warpress.games.axis_allies.rules import plain as P


@st.composite
def chains(draw):
    """Random battles of up to 12 units a side that are one chain: land without an AA gun,
    or sea; developed weapons and a retreat size now and then."""
    kind = draw(st.sampled_from(["land", "sea"]))
    attacker, defender = draw_forces(draw, kind)
    more = {}
    if draw(st.booleans()):
        more["retreat_at"] = draw(st.integers(1, 6))
    draw_weapons(draw, more, attacker_one_in=3, defender_one_in=4)
    return kind, attacker, defender, more


def assert_close(fields, survivors, fields_x, survivors_x, within=1e-12):
    for key in O.FIELDS:
        assert abs(fields[key] - float(fields_x[key])) < within, key
    for side, side_x in zip(survivors, survivors_x, strict=True):
        for name in set(side) | set(side_x):
            assert abs(side.get(name, 0.0) - float(side_x.get(name, 0.0))) < within, name


@settings(max_examples=60, deadline=None)
@given(chains())
def test_a_chain_matches_the_exact_odds_and_the_numpy_table(game, battle):
    kind, attacker, defender, more = battle
    sp = spec(game, attacker, defender, kind, **more)
    if P.chain_opening(game, sp) is None:  # a start already at the retreat size
        assert sp.retreat_at is not None
        return
    fields, survivors = P.float_battle(game, sp)
    fields_x, survivors_x = O.exact_battle(game, sp, workers=1, survivors="exact")
    assert_close(fields, survivors, fields_x, survivors_x)
    fields_f, survivors_f = F.float_battle(game, sp)
    assert_close(fields, survivors, fields_f, survivors_f, within=1e-14)
    assert list(survivors[0]) == list(survivors_f[0])  # the same names, in the same order
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
    assert P.chain_opening(game, sp) is not None
    fields_x, survivors_x = O.exact_battle(game, sp, survivors="exact")
    assert_close(*P.float_battle(game, sp), fields_x, survivors_x)


@pytest.mark.parametrize("attacker,defender,kind,more,why", [
    ("3 infantry, 2 fighter", "4 infantry, 1 antiaircraft", "land", {}, "AA fire"),
    ("3 infantry", "3 infantry", "land", {"rounds": 2}, "a round cap"),
    ("3 infantry", "3 infantry", "land", {"retreat_after": 1}, "a retreat after a round"),
    ("3 infantry", "3 infantry", "land", {"retreat_at": 3}, "a start at the retreat size"),
    ("101 infantry", "100 infantry", "land", {}, "past MOST_PLAIN"),
    ("10 infantry", "400 infantry", "land", {}, "past MOST_PLAIN: many columns"),
])
def test_what_is_not_one_chain_goes_to_the_numpy_table(game, attacker, defender, kind, more,
                                                        why):
    sp = spec(game, attacker, defender, kind, **more)
    assert P.chain_opening(game, sp) is None, why
    if len(sp.attacker) <= 12:
        assert P.float_battle(game, sp) == F.float_battle(game, sp)


def test_an_aa_gun_without_attacking_aircraft_leaves_one_chain(game):
    sp = spec(game, "3 infantry, 2 armor", "4 infantry, 1 antiaircraft")
    assert P.chain_opening(game, sp) is not None
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
    ("3 infantry, 2 fighter", "4 infantry, 1 antiaircraft", True),
])
def test_a_chain_answer_does_not_import_numpy(attacker, defender, numpy):
    run = subprocess.run([sys.executable, "-c", PROBE, f"attacker={attacker}",
                          f"defender={defender}"], capture_output=True, text=True, check=True)
    answer = json.loads(run.stdout)
    assert answer["numpy"] is numpy
    assert 0 < answer["wins"] < 1

"""Floating-point battle odds (``floats``) held to the exact ones (``odds``), what survives,
and the attacker's retreat (land 6), sea 8)) against a plain reference written here."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from functools import cache
from itertools import product

import gmpy2
import numpy as np
import pytest
from aa_fraction_reference import assert_close, battles, hits, spec
from hypothesis import given, settings
from hypothesis import strategies as st
from warpress.engine.dice import distribution
from warpress.games.axis_allies.rules import battle as B
from warpress.games.axis_allies.rules import floats as F
from warpress.games.axis_allies.rules import odds as O
from warpress.games.axis_allies.rules.common import shot


@settings(max_examples=40, deadline=None)
@given(battles())
def test_floats_match_the_exact_odds(game, battle):
    kind, attacker, defender, more = battle
    sp = spec(game, attacker, defender, kind, **more)
    fractions, survivors_x = O.exact_battle(game, sp, workers=1, survivors="exact")
    floats, survivors_f = F.float_battle(game, sp)
    assert_close(floats, survivors_f, fractions, survivors_x)
    assert_exact_survivors(fractions, survivors_x)


def assert_exact_survivors(fields, survivors):
    """The exact survivors are fractions adding up to 1 exactly, and to the outcomes."""
    att, dfn = survivors
    assert all(type(p) is Fraction and p > 0 for p in (*att.values(), *dfn.values()))
    assert sum(att.values()) == 1 and sum(dfn.values()) == 1
    assert att.get("none", 0) == fields["defender_wins"] + fields["mutual_destruction"]
    assert dfn.get("none", 0) == fields["attacker_wins"] + fields["mutual_destruction"]
    for side, key in ((att, "attacker_survivors"), (dfn, "defender_survivors")):
        assert sum(p * units(name) for name, p in side.items()) == fields[key]


BIG = [  # the last item: whether --exact survivors=exact gives the survivors as fractions
    ("land", "20 infantry, 10 armor, 6 fighter, 4 bomber",
     "24 infantry, 8 armor, 6 fighter, 1 antiaircraft, 1 bomber", {}, False),
    ("land", "1 infantry, 20 fighter, 19 bomber", "39 infantry, 1 antiaircraft", {}, False),
    ("sea", "10 submarine, 10 battleship, 10 carrier, 10 fighter",
     "10 transport, 10 submarine, 10 battleship, 10 fighter", {}, True),
    ("land", "40 infantry", "40 infantry", {"retreat_at": 10}, True),
]


@pytest.mark.parametrize("kind,attacker,defender,more,exact", BIG)
def test_big_battles_match_the_exact_odds(game, kind, attacker, defender, more, exact):
    sp = spec(game, attacker, defender, kind, **more)
    fractions, survivors_x = O.exact_battle(game, sp, survivors="exact")
    floats, survivors_f = F.float_battle(game, sp)
    assert_close(floats, survivors_f, fractions, survivors_x)
    if exact:
        assert_exact_survivors(fractions, survivors_x)
    else:  # 35 and 420 chains over 450,000-bit denominators: floats from the numerators
        assert all(type(p) is float for side in survivors_x for p in side.values())
        assert [abs(sum(side.values()) - 1) < 1e-12 for side in survivors_x] == [True] * 2


@pytest.mark.parametrize("attacker,defender", [
    ("1 bomber", "2 bomber"),  # found by the plain floats' test: 0.131 for 0.659 won
    ("2 infantry, 3 bomber, 2 fighter", "6 infantry, 1 antiaircraft"),
])
def test_heavy_bombers_score_more_hits_than_they_are_units(game, attacker, defender):
    """Heavy bombers roll 3 dice each: a state can score more hits than its level, and the
    table's rows past its level must still take them (``Chains.reach``), on every path."""
    sp = spec(game, attacker, defender, "land", attacker_weapons=["heavy-bombers"])
    fractions, survivors_x = O.exact_battle(game, sp, workers=1)
    for pulled, dense in ((10**9, 10**9), (0, 0)):
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(F, "PULLED_FIRE", pulled)
            mp.setattr(F, "DENSE_LEVELS", dense)
            floats, survivors_f = F.float_battle(game, sp)
        assert_close(floats, survivors_f, fractions, survivors_x)


# --------------------------------------------------------------------------- table paths


@settings(max_examples=25, deadline=None)
@given(battles())
def test_the_pulled_fire_and_the_unscaled_table_match_the_exact_odds(game, battle):
    """Small battles take the scattered fire on the scaled table; big ones one die at a time
    (``PULLED_FIRE``), the later rows on a second thread (``THREADED``); a table whose scale
    would leave the float range is kept plain (``FLOAT_RANGE``); a small table settles a
    column's levels as one linear system and fires a capped battle's rounds as matrix
    products, a big one level by level and column by column (``DENSE_LEVELS``).
    Every path holds to the exact odds."""
    kind, attacker, defender, more = battle
    sp = spec(game, attacker, defender, kind, **more)
    fractions, survivors_x = O.exact_battle(game, sp, workers=1)
    for pulled, scaled, threaded, dense in ((0, F.FLOAT_RANGE, 0, 10**9),
                                            (10**9, 0, 10**9, 0), (0, 0, 0, 10**9),
                                            (10**9, F.FLOAT_RANGE, 10**9, 0)):
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(F, "PULLED_FIRE", pulled)
            mp.setattr(F, "FLOAT_RANGE", scaled)
            mp.setattr(F, "THREADED", threaded)
            mp.setattr(F, "DENSE_LEVELS", dense)
            floats, survivors_f = F.float_battle(game, sp)
        assert_close(floats, survivors_f, fractions, survivors_x)


@pytest.mark.parametrize("attacker,defender,kind", [
    ("3 infantry, 4 fighter, 4 bomber", "8 infantry, 1 antiaircraft", "land"),
    ("2 submarine, 3 battleship, 2 fighter", "2 transport, 3 submarine, 2 battleship", "sea"),
])
def test_the_threaded_table_gives_the_same_bits_as_one_thread(game, attacker, defender, kind):
    sp = spec(game, attacker, defender, kind)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(F, "THREADED", 10**9)
        one = F.float_ends(game, sp)
        mp.setattr(F, "THREADED", 0)
        mp.setattr(F, "PULLED_FIRE", 0)
        two = F.float_ends(game, sp)
        mp.setattr(F, "THREADED", 10**9)
        pulled = F.float_ends(game, sp)
    assert np.array_equal(two.P, pulled.P)  # the thread changes no bit
    assert np.abs(two.P - one.P).max() < 1e-15


def test_the_scale_is_kept_plain_past_the_float_range(game):
    sp = spec(game, "40 infantry", "40 infantry, 1 fighter")
    ends = F.Solver(game, sp, O.openings(game, sp), F.attacker_blocks(game, sp), F.CUTS)
    scaled = ends.scaled
    assert scaled.scale.max() == 2.0**40  # c = 2 (infantry's 4 ways to miss, 2 to hit)
    assert [list(t) for t in scaled.taps[:40]] == [[1.0, 1.0]] * 40
    assert list(scaled.taps[40]) == [1.0, 4.0]  # the fighter: 2 ways to miss, 4 to hit
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(F, "FLOAT_RANGE", 5)  # 40 levels of 2 pass 10**5
        plain = F.Solver(game, sp, O.openings(game, sp), F.attacker_blocks(game, sp),
                         F.CUTS).scaled
    assert plain.scale.max() == 1.0 and plain.pivot == [1.0] * 41


def test_a_casualty_order_in_several_runs_of_a_type_loses_the_last_ones(game):
    from warpress.games.axis_allies.rules import opening

    order = ("fighter", "infantry", "fighter", "bomber", "fighter")
    runs = opening.runs(order)
    assert runs == [("fighter", 0, 1), ("infantry", 1, 1), ("fighter", 2, 1),
                    ("bomber", 3, 1), ("fighter", 4, 1)]
    assert opening._without(order, {"fighter": 2, "bomber": 0}, runs) == \
        ("fighter", "infantry", "bomber")
    blocks = ("infantry",) * 3 + ("fighter",) * 2 + ("bomber",) * 2
    assert opening._without(blocks, {"fighter": 1, "bomber": 2}, opening.runs(blocks)) == \
        ("infantry",) * 3 + ("fighter",)


# --------------------------------------------------------------------------- cuts


@pytest.mark.parametrize("attacker,defender", [
    ("1 infantry, 20 fighter, 19 bomber", "39 infantry, 1 antiaircraft"),
    ("14 infantry, 13 fighter, 13 bomber", "39 infantry, 1 antiaircraft"),
    ("20 infantry, 10 armor, 6 fighter, 4 bomber", "24 infantry, 8 armor, 7 fighter, 1 bomber"),
])
def test_the_cuts_leave_out_less_than_their_bound_and_change_nothing_more(game, attacker,
                                                                          defender):
    sp = spec(game, attacker, defender)
    cut, whole = F.float_ends(game, sp), F.float_ends(game, sp, F.NO_CUTS)
    assert whole.pruned == 0.0 and 0.0 <= cut.pruned < F.MOST_PRUNED
    assert cut.space.dead <= whole.space.dead
    # the same states, the cut table's mass at most the uncut one's, less by the pruned mass
    rows = [whole.space.index[key] for key in cut.space.keys] + [whole.space.dead]
    gap = whole.P[:, rows] - cut.P
    assert gap.min() > -1e-15 and abs(gap.sum() - cut.pruned) < 1e-14
    assert whole.P.sum() - whole.P[:, rows].sum() < 1e-15  # the states left out: no mass


def test_the_cut_aa_results_are_the_least_likely_and_add_up_to_less_than_the_cut(game):
    sp = spec(game, "2 infantry, 33 fighter, 33 bomber", "9 infantry, 1 antiaircraft")
    ops = O.openings(game, sp)
    kept, dropped = F.likely_openings(ops, 1e-15)
    mass = {id(op): sum(op.start.values()) / op.den for op in ops}
    left = [mass[id(op)] for op in ops if op not in kept]
    assert len(ops) == 34 * 34 and 500 < len(kept) < 34 * 34
    assert abs(sum(left) - dropped) < 1e-30 and dropped < 1e-15
    assert max(left) <= min(mass[id(op)] for op in kept)


def test_a_battle_past_the_pruned_bound_is_settled_again_without_cuts(game, monkeypatch):
    sp = spec(game, "2 infantry, 3 fighter, 3 bomber", "3 infantry, 1 antiaircraft")
    whole = F.float_battle(game, sp)
    monkeypatch.setattr(F, "CUTS", F.Cuts(openings=0.1))  # leaves out AA results of 9%
    assert F.float_ends(game, sp).pruned > F.MOST_PRUNED
    assert F.float_battle(game, sp) == whole


# --------------------------------------------------------------------------- survivors


@settings(max_examples=25, deadline=None)
@given(battles())
def test_survivors_add_up_to_one_and_to_the_outcomes(game, battle):
    kind, attacker, defender, more = battle
    sp = spec(game, attacker, defender, kind, **more)
    fields, (att, dfn) = F.float_battle(game, sp)
    assert abs(sum(att.values()) - 1) < 1e-12 and abs(sum(dfn.values()) - 1) < 1e-12
    assert abs(att.get("none", 0) - fields["defender_wins"] - fields["mutual_destruction"]) \
        < 1e-12
    assert abs(dfn.get("none", 0) - fields["attacker_wins"] - fields["mutual_destruction"]) \
        < 1e-12
    for side, key in ((att, "attacker_survivors"), (dfn, "defender_survivors")):
        expected = sum(p * units(name) for name, p in side.items())
        assert abs(expected - fields[key]) < 1e-9


def units(name: str) -> int:
    return 0 if name == "none" else sum(int(part.split()[0]) for part in name.split(", "))


def test_the_cli_answers_survivors_and_ipc_losses(cli_json):
    result = cli_json("odds", "axis-allies", "battle", "attacker=3 infantry, 1 armor",
                      "defender=2 infantry")["result"]
    assert "exact" not in result
    att = result["survivors"]["attacker"]
    assert abs(sum(att.values()) - 1) < 1e-12
    assert list(att.values()) == sorted(att.values(), reverse=True)
    assert set(att) <= {"none", "1 armor", "1 infantry, 1 armor", "2 infantry, 1 armor",
                        "3 infantry, 1 armor"}
    # the expected IPC lost is the cost of the force less the expected cost left
    cost = {"none": 0, "1 armor": 5, "1 infantry, 1 armor": 8, "2 infantry, 1 armor": 11,
            "3 infantry, 1 armor": 14}
    assert result["expected_ipc_loss"]["attacker"] == pytest.approx(
        14 - sum(p * cost[k] for k, p in att.items()))


def test_the_text_answer_fits_80_columns_and_shows_the_likeliest(cli, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")  # the width of an output that is not a terminal
    out = cli("odds", "axis-allies", "battle", "kind=sea",
              "attacker=10 submarine, 10 battleship, 10 carrier, 10 fighter",
              "defender=10 transport, 10 submarine, 10 battleship, 10 fighter")
    assert out.exit_code == 0
    lines = [line for line in out.output.splitlines() if not line.startswith("  (rules")]
    assert max(len(line) for line in lines) <= 80  # the rules line: the CLI's wrapping
    assert "attacker left, likeliest first:" in out.output
    assert any("#" in line and "battleship" in line for line in lines)


@pytest.mark.parametrize("attacker,defender", [
    ("2 infantry, 1 fighter", "2 infantry, 1 antiaircraft"),  # several chains
    ("3 infantry, 1 armor, 1 fighter", "3 infantry, 1 fighter"),  # one chain, fought out
])
def test_exact_odds_give_the_survivors_as_floats_by_default(cli, cli_json, attacker,
                                                             defender):
    args = ("odds", "axis-allies", "battle", f"attacker={attacker}", f"defender={defender}",
            "--exact")
    data = cli_json(*args)
    result = data["result"]
    assert "exact_survivors" not in result and "survivors" not in data["inputs"]  # default
    fields = {k: Fraction(v) for k, v in result["exact"].items()}
    att, dfn = result["survivors"]["attacker"], result["survivors"]["defender"]
    assert all(type(p) is float for p in (*att.values(), *dfn.values()))
    assert abs(sum(att.values()) - 1) < 1e-12 and abs(sum(dfn.values()) - 1) < 1e-12
    assert abs(att.get("none", 0) - float(fields["defender_wins"]
                                          + fields["mutual_destruction"])) < 1e-12
    assert abs(dfn.get("none", 0) - float(fields["attacker_wins"]
                                          + fields["mutual_destruction"])) < 1e-12
    for side, key in ((att, "attacker_survivors"), (dfn, "defender_survivors")):
        assert abs(sum(p * units(name) for name, p in side.items())
                   - float(fields[key])) < 1e-12
    # the same chances as the fractions survivors=exact gives
    exact = cli_json(*args, "survivors=exact")["result"]["exact_survivors"]
    for side in ("attacker", "defender"):
        want = {k: float(Fraction(v)) for k, v in exact[side].items()}
        got = result["survivors"][side]
        assert set(got) == set(want) and all(abs(got[k] - want[k]) < 1e-15 for k in want)
    text = cli(*args).output
    assert "survivors=exact gives their fractions" in text
    bars = [line for line in text.splitlines() if "%  #" in line]
    assert bars and not any("(" in line for line in bars)  # no fraction after a force


def test_the_default_exact_path_reduces_no_survivor_fraction(cli_json, monkeypatch):
    """``--exact`` without ``survivors=exact`` takes neither the survivors' gcds nor their
    denominator bounds: every step of that work raises here."""
    def refused(*args, **kwargs):
        raise AssertionError("a survivor's fraction was reduced")

    for name in ("_survivor_fractions", "_reduced_over", "force_denominators",
                 "_own_denominators"):
        monkeypatch.setattr(O, name, refused)
    for attacker, defender in (("3 infantry, 1 armor, 1 fighter", "3 infantry, 1 fighter"),
                               ("2 infantry, 1 fighter", "2 infantry, 1 antiaircraft")):
        result = cli_json("odds", "axis-allies", "battle", f"attacker={attacker}",
                          f"defender={defender}", "--exact")["result"]
        assert "exact_survivors" not in result and "attacker_wins" in result["exact"]


def test_exact_survivors_without_exact_odds_are_refused(cli_refused):
    line = cli_refused("odds", "axis-allies", "battle", "attacker=1 infantry",
                       "defender=1 infantry", "survivors=exact")
    assert line == "warpress: input survivors='exact': the survivors' exact fractions need " \
        "--exact"


def test_exact_survivors_are_fractions_in_the_json_and_the_text(cli, cli_json):
    args = ("odds", "axis-allies", "battle", "attacker=2 infantry, 1 fighter",
            "defender=2 infantry, 1 antiaircraft", "--exact", "survivors=exact")
    result = cli_json(*args)["result"]
    for side in ("attacker", "defender"):
        exact = {k: Fraction(v) for k, v in result["exact_survivors"][side].items()}
        assert sum(exact.values()) == 1
        assert {k: float(p) for k, p in exact.items()} == result["survivors"][side]
    assert set(result["exact"]) == {k for k in result if k in O.FIELDS}  # fractions only
    likeliest, fraction = next(iter(result["exact_survivors"]["attacker"].items()))
    assert len(fraction) < 24  # short enough to be shown whole (else its digits)
    p = 100 * float(Fraction(fraction))
    text = cli(*args).output
    assert f"{p:6.2f}%  {'#' * 20}  {likeliest}  ({fraction})" in text, text


def test_a_force_whose_chance_reads_0_00_percent_has_no_bar():
    from warpress.games.axis_allies.rules.report import histogram

    lines = histogram("attacker", {"2 infantry": 0.98, "1 infantry": 0.0199, "none": 1e-7})
    assert [line.count("#") for line in lines[1:]] == [20, 1, 0]  # 1.99% keeps its one mark
    assert lines[3].split() == ["0.00%", "none"]


@pytest.mark.parametrize("width", [60, 80])
def test_the_histogram_wraps_a_force_under_its_name_with_its_fraction(cli, cli_json,
                                                                    monkeypatch, width):
    """At the terminal's width each histogram line fits; a long force's name goes on under
    its own first column, broken after a comma, and its fraction stays whole with it."""
    args = ("odds", "axis-allies", "battle", "attacker=2 infantry, 1 armor, 1 fighter",
            "defender=2 infantry, 1 antiaircraft", "--exact", "survivors=exact")
    exact = cli_json(*args)["result"]["exact_survivors"]
    monkeypatch.setenv("COLUMNS", str(width))
    out = cli(*args)
    assert out.exit_code == 0
    lines = out.output.splitlines()
    assert max(len(line) for line in lines) <= width
    entries = []  # (name's column, the entry's lines after the bar)
    for line in lines:
        bar = re.match(r"( +\d+\.\d\d%  #+ +)\S", line)
        if bar:
            entries.append((len(bar.group(1)), [line[len(bar.group(1)):]]))
        elif entries and line.startswith(" " * entries[-1][0]) and line.strip() and \
                not line.strip().startswith("..."):
            column = len(line) - len(line.lstrip())
            assert column == entries[-1][0], line  # under the name, not the CLI's hang
            entries[-1][1].append(line.strip())
        elif not line.startswith(" " * 8):
            entries.append((10**6, []))  # a line of its own ends the entry before it
    entries = [rows for _, rows in entries if rows]
    want = [(force, f"({fraction})" if len(fraction) <= 24 else f"({len(fraction)} digits)")
            for side in ("attacker", "defender")
            for force, fraction in list(exact[side].items())[:5]]
    assert len(entries) == len(want) == 9
    wrapped = 0
    for rows, (force, note) in zip(entries, want, strict=True):
        if rows[-1] == note:  # the fraction on a line of its own, whole
            names = rows[:-1]
        else:  # or whole after the name's last part
            assert rows[-1].endswith(f"  {note}"), rows
            names = [*rows[:-1], rows[-1][:-len(note) - 2]]
        assert " ".join(names) == force and all(row.endswith(",") for row in names[:-1])
        wrapped += len(rows) > 1
    assert wrapped  # the case of the issue: at 60 and at 80 some entry takes two lines


def test_exact_survivors_past_their_work_bound_are_floats_and_say_so(cli, monkeypatch):
    args = ("odds", "axis-allies", "battle", "attacker=2 infantry, 1 fighter",
            "defender=2 infantry, 1 antiaircraft", "--exact", "survivors=exact")
    monkeypatch.setattr(O, "MOST_SURVIVOR_WORK", 0)
    result = json.loads(cli(*args, "--json").output)["result"]
    assert result["exact_survivors"] is None and "attacker_wins" in result["exact"]  # asked
    assert all(abs(sum(side.values()) - 1) < 1e-12 for side in result["survivors"].values())
    assert "survivors' chances in floating point" in cli(*args).output


# --------------------------------------------------------------------------- retreat


def plain_retreat(game, sp):
    """Every field, round by round over survivor tuples: the attacker leaves after round
    ``retreat_after`` or when a round leaves it ``retreat_at`` units or fewer; a ``rounds``
    cap stops it undecided. The one-time steps are the engine's, enumerated die by die."""
    K, N, cap = sp.retreat_at, sp.retreat_after, sp.rounds

    def first(dice):
        state = B.opening(game, sp, dice)
        fought = 0
        if sp.kind == "sea" and B.first_strikers(game, sp.attacker) and not state.over:
            state, fought = B.combat_round(game, sp, state, dice), 1
        return state.attacker, state.defender, fought

    def can_hit(units, role, weapons):
        return any(shot(game, u, role, weapons).rolls for u in units)

    @cache
    def fight(att, dfn, r):
        if not att or not dfn:
            return {(att, dfn, "end"): Fraction(1)}
        if r >= 1 and K is not None and len(att) <= K:
            return {(att, dfn, "retreat"): Fraction(1)}
        if N is not None and r >= N and (cap is None or N <= cap):
            return {(att, dfn, "retreat"): Fraction(1)}
        if cap is not None and r >= cap:
            return {(att, dfn, "undecided"): Fraction(1)}
        steady = N is None and cap is None and r >= 1  # later rounds are all alike
        if steady and not (can_hit(att, "attack", sp.attacker_weapons)
                           or can_hit(dfn, "defense", sp.defender_weapons)):
            return {(att, dfn, "undecided"): Fraction(1)}
        ha = hits(game, att, "attack", sp.attacker_weapons)
        hd = hits(game, dfn, "defense", sp.defender_weapons)
        stay = ha.get(0, 0) * hd.get(0, 0) if steady else 0
        out = {}
        for (x, px), (y, py) in product(ha.items(), hd.items()):
            if steady and not (x or y):
                continue
            for end, q in fight(att[y:], dfn[x:], r if steady else r + 1).items():
                out[end] = out.get(end, 0) + px * py * q / (1 - stay)
        return out

    out = dict.fromkeys(O.FIELDS, Fraction(0))
    for start, p in distribution(first).items():
        for (att, dfn, how), q in fight(*start).items():
            w = p * q
            if how == "retreat":
                out["attacker_retreats"] += w
            elif how == "undecided":
                out["undecided"] += w
            elif not att and not dfn:
                out["mutual_destruction"] += w
            elif not dfn:
                out["attacker_wins"] += w
                out["attacker_takes"] += w * B.takes(game, sp, att, True)
            else:
                out["defender_wins"] += w
            out["attacker_survivors"] += w * len(att)
            out["defender_survivors"] += w * len(dfn)
    return out


RETREATS = [
    ("land", "3 infantry, 1 armor", "4 infantry", {"retreat_at": 2}),
    ("land", "3 infantry, 1 armor", "4 infantry", {"retreat_at": 4}),  # at once: round 1 first
    ("land", "3 infantry, 1 armor", "4 infantry", {"retreat_after": 1}),
    ("land", "2 infantry, 1 fighter, 1 bomber", "2 infantry, 1 antiaircraft",
     {"retreat_at": 2}),
    ("land", "2 infantry, 2 armor", "3 infantry", {"retreat_at": 1, "retreat_after": 2}),
    ("land", "2 infantry, 2 armor", "3 infantry", {"retreat_at": 2, "rounds": 2}),
    ("land", "2 infantry, 2 armor", "3 infantry", {"retreat_after": 3, "rounds": 2}),
    ("sea", "2 submarine, 1 battleship", "1 carrier, 1 transport, 1 submarine",
     {"retreat_at": 2}),
    ("sea", "2 submarine, 1 battleship", "2 transport, 1 submarine", {"retreat_after": 1}),
    ("land", "1 antiaircraft, 1 infantry", "1 antiaircraft",
     {"attacker_order": ["infantry"], "retreat_at": 1}),  # nobody can hit
]


@pytest.mark.parametrize("kind,attacker,defender,more", RETREATS)
def test_retreat_matches_the_plain_reference(game, kind, attacker, defender, more):
    sp = spec(game, attacker, defender, kind, **more)
    want = plain_retreat(game, sp)
    assert O.battle_odds(game, sp, workers=1) == want
    floats, _ = F.float_battle(game, sp)
    for key in O.FIELDS:
        assert abs(floats[key] - float(want[key])) < 1e-12, key


OUTCOME_FIELDS = {"attacker": "attacker_wins", "defender": "defender_wins",
                  "retreat": "attacker_retreats", "mutual": "mutual_destruction",
                  "undecided": "undecided"}


@pytest.mark.parametrize("kind,attacker,defender,more", [
    ("land", "2 infantry, 1 armor", "2 infantry", {"retreat_after": 1, "rounds": 2}),
    ("land", "1 infantry, 1 armor", "1 infantry", {"retreat_after": 2, "retreat_at": 1,
                                                  "rounds": 3}),
    ("sea", "1 submarine, 1 battleship", "1 transport", {"retreat_after": 2, "rounds": 3}),
])
def test_lookup_retreats_as_the_odds_say_every_roll(game, kind, attacker, defender, more):
    """``resolve`` (lookup and roll) over every roll of a battle (the ``rounds`` cap keeps
    the enumeration finite should a retreat come late)."""
    sp = spec(game, attacker, defender, kind, **more)
    dist = distribution(lambda dice: B.outcome(B.resolve(game, sp, dice)))
    want = plain_retreat(game, sp)
    for outcome, name in OUTCOME_FIELDS.items():
        assert dist.get(outcome, 0) == want[name], name


@pytest.mark.parametrize("kind,attacker,defender,more", [RETREATS[0], RETREATS[3],
                                                          RETREATS[7]])
def test_roll_retreats_as_the_odds_say(game, kind, attacker, defender, more):
    """A seeded Monte Carlo of ``resolve`` against the retreat odds (4 standard errors)."""
    import math

    from warpress.engine.dice import monte_carlo

    sp = spec(game, attacker, defender, kind, **more)
    want = plain_retreat(game, sp)
    n = 4000
    freq = monte_carlo(lambda dice: B.outcome(B.resolve(game, sp, dice)), n, seed=15)
    for outcome, name in OUTCOME_FIELDS.items():
        p = float(want[name])
        assert abs(freq.get(outcome, 0.0) - p) <= 4 * math.sqrt(p * (1 - p) / n) + 1e-9, name


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 4000), st.integers(0, 1200), st.randoms(use_true_random=False))
def test_a_ratio_of_long_numbers_is_correctly_rounded(bits, below, rnd):
    """``odds._ratio`` divides the leading bits when that cannot change the float: every
    quotient is Python's correctly rounded one, halfway points included."""
    den = rnd.getrandbits(bits) | (1 << (bits - 1))
    top = den >> below
    n = rnd.randrange(0, top + 1) if top else rnd.getrandbits(3)
    assert O._ratio(n, den) == n / den
    assert O._ratio(gmpy2.mpz(n), gmpy2.mpz(den)) == n / den


def test_a_ratio_exactly_halfway_between_two_floats_rounds_to_even():
    den = 1 << 1400
    halfway = den + (den >> 53)  # 1 + 2**-53: between 1.0 and the next float
    assert O._ratio(halfway, den) == halfway / den == 1.0
    assert O._ratio(halfway + 1, den) == (halfway + 1) / den > 1.0

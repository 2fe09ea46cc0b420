"""games/midway/checks.py: every Midway invariant passes on the engine and FAILS, with a
replayable counterexample, when one rule is deliberately broken (a monkeypatched engine
function or a modified game): capacity, base hit cap, the draw, the AOP clamp, the
surface-battle hits, AA fire on fighters."""

from __future__ import annotations

import dataclasses
import re

import pytest
from warpress.engine.loader import builtin
from warpress.games.midway.rules import area as A
from warpress.verify.invariants import invariants_for, run

#: the properties over the area, fleets, strikes and initiative (the machine and victory have
#: their own tests below)
PROPERTIES = ("day_two_points", "fleet_paths", "fleets_apart", "base_attack_range",
              "search_clamps", "initiative_and_aop", "strike_fire", "strike_damage",
              "strike_refusals", "base_strikes", "attack_monotone", "surface_battle",
              "night_recovery", "landing", "cards", "solitaire_moves", "solitaire_policy")


@pytest.fixture(scope="module")
def game():
    return builtin("midway")


@pytest.fixture(scope="module")
def machine(game):
    return next(inv for inv in invariants_for(game) if inv.name == "carrier_area")


def test_the_carrier_area_machine_passes(game, machine):
    outcome = run(machine, game, examples=20)
    assert outcome.passed, outcome.counterexample or outcome.error


def test_a_carrier_capacity_of_six_fails(game, machine, monkeypatch):
    real = A.capacity
    monkeypatch.setattr(A, "capacity", lambda g, holder: real(g, holder) + 1)
    outcome = run(machine, game, examples=200)
    assert not outcome.passed
    assert "state = CarrierArea()" in outcome.counterexample
    assert "holds 6 units (8.3(3)/9.6(1): 5)" in outcome.counterexample


def test_no_base_hit_cap_fails(game, machine, monkeypatch):
    def uncapped(g, garrison, hits_this_turn, hits):
        after = garrison - hits
        return {"applied": hits, "ignored": 0, "garrison": after, "base_destroyed": after <= 3}

    monkeypatch.setattr(A, "base_damage", uncapped)
    outcome = run(machine, game, examples=200)
    assert not outcome.passed
    assert "state.hit_the_base(" in outcome.counterexample
    assert "9.6(3)" in outcome.counterexample


def test_victory_outcomes_pass(game):
    inv = next(i for i in invariants_for(game) if i.name == "victory_outcomes")
    outcome = run(inv, game, examples=60)
    assert outcome.passed, outcome.counterexample or outcome.error


def test_a_victory_check_that_ignores_the_draw_fails(game, monkeypatch):
    from warpress.games.midway.rules import victory as V

    monkeypatch.setattr(V, "automatic", lambda japan, us: "japan" if us == 0 else
                        "us" if japan == 0 else None)
    inv = next(i for i in invariants_for(game) if i.name == "victory_outcomes")
    outcome = run(inv, game, examples=200)
    assert not outcome.passed
    assert "not a draw (4.3)" in outcome.counterexample
    assert "japan=0" in outcome.counterexample and "us=0" in outcome.counterexample


def _own(game, name):
    return next(i for i in invariants_for(game) if i.name == name)


def _fails(outcome, *needles: str) -> None:
    assert not outcome.passed, f"{outcome.invariant.label} passed on a broken rule"
    for needle in needles:
        assert needle in outcome.counterexample, outcome.counterexample


def test_every_property_is_registered_under_a_rule_citing_no_undefined_code(game):
    mine = {i.name: i for i in invariants_for(game) if i.game == "midway"}
    assert set(PROPERTIES) <= set(mine)
    for name in PROPERTIES:
        assert mine[name].rule[0].isdigit(), mine[name].rule
        assert not re.search(r"\bI\d+\b", mine[name].summary), mine[name].summary


@pytest.mark.parametrize("name", PROPERTIES)
def test_the_property_passes(game, name):
    outcome = run(_own(game, name), game, examples=15)
    assert outcome.passed, outcome.counterexample or outcome.error


def test_an_aop_without_its_upper_clamp_fails(game, monkeypatch):
    """7.2 (I21): a search result left above 4 is caught, with the positions that give it."""
    from warpress.games.midway.rules import search as S

    low = game.constant("search-result-min")
    monkeypatch.setattr(S, "clamp_result", lambda g, value: max(low, value))
    outcome = run(_own(game, "search_clamps"), game, examples=200)
    _fails(outcome, "check(", "ichikokan=", "AOP", "(7.2")


def test_a_surface_battle_with_five_hits_fails(game):
    """10.1(2) (I32): a table row giving 5 hits on the US is caught with its roll."""
    def change(row):
        if row.extra.get("japan_roll") == 6:
            return dataclasses.replace(row, extra={**row.extra, "hits_on_us": 5})
        return row

    tables = tuple(dataclasses.replace(t, rows=tuple(change(r) for r in t.rows))
                   if t.id == "surface-battle" else t for t in game.tables)
    broken = dataclasses.replace(game, tables=tables)
    outcome = run(_own(broken, "surface_battle"), broken, examples=200)
    _fails(outcome, "japan_roll=6", "J roll 6: 5 (0-4)")


def test_anti_aircraft_fire_on_fighters_fails(game, monkeypatch):
    """9.3(3) (I27): AA hits that may fall on the group's fighters are caught."""
    from warpress.games.midway.rules import combat as C

    def on_everyone(g, state, strike, dice, attacker_losses):
        group = C._alive(state, strike.group)
        count = C.aa_dice(g, state, strike.target)
        hit_on = C.aa_hit_on(g, bool(C._fighters(g, group)))
        hits = sum(dice.roll("d6", "aa") <= hit_on for _ in range(count))
        return C._apply_losses(state, group, hits, attacker_losses), count, hits

    monkeypatch.setattr(C, "anti_aircraft", on_everyone)
    outcome = run(_own(game, "strike_fire"), game, examples=300)
    _fails(outcome, "Draw 1 (cap_fighters)", "AA hits fell on fighters (9.3(3))")

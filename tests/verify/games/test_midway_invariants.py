"""verify/games/midway.py: the carrier-area machine passes on the engine and FAILS, with a
replayable program, when the engine's capacity or base hit cap is broken."""

from __future__ import annotations

import pytest
from warpress.engine.games.midway import area as A
from warpress.engine.loader import builtin
from warpress.verify.invariants import invariants_for, run


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
    from warpress.engine.games.midway import victory as V

    monkeypatch.setattr(V, "automatic", lambda japan, us: "japan" if us == 0 else
                        "us" if japan == 0 else None)
    inv = next(i for i in invariants_for(game) if i.name == "victory_outcomes")
    outcome = run(inv, game, examples=200)
    assert not outcome.passed
    assert "not a draw (4.3)" in outcome.counterexample
    assert "japan=0" in outcome.counterexample and "us=0" in outcome.counterexample

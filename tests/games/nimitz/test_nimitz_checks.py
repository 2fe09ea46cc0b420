"""games/nimitz/checks.py: the Nimitz rule invariants pass on the shipped engine and data,
and FAIL with a counterexample when one rule is deliberately broken (a modified game or a
monkeypatched engine function)."""

from __future__ import annotations

import dataclasses

import pytest
from warpress.engine.loader import builtin
from warpress.engine.model import Game
from warpress.games.nimitz.rules import campaign as cp
from warpress.games.nimitz.rules import combat as cb
from warpress.games.nimitz.rules import orders as od
from warpress.verify.invariants import Invariant, invariants_for, run

EXAMPLES = 15
#: the engine bug invariant I18 exposes (see test_i18_escorts_in_the_japanese_sea_area)


@pytest.fixture(scope="module")
def game() -> Game:
    return builtin("nimitz")


@pytest.fixture(scope="module")
def own(game) -> dict[str, Invariant]:
    """The Nimitz invariants by function name."""
    return {inv.name: inv for inv in invariants_for(game) if inv.game == "nimitz"}


def _constant(game: Game, constant_id: str, value) -> Game:
    """The game with one constant changed."""
    constants = tuple(dataclasses.replace(c, value=value) if c.id == constant_id else c
                      for c in game.constants)
    return dataclasses.replace(game, constants=constants)


def _rows(game: Game, table_id: str, change) -> Game:
    """The game with ``change(row) -> row`` applied to every row of one table."""
    tables = tuple(dataclasses.replace(t, rows=tuple(change(r) for r in t.rows))
                   if t.id == table_id else t for t in game.tables)
    return dataclasses.replace(game, tables=tables)


def _set(row, match: dict, **fields):
    """``row`` with its result ``fields`` replaced when its conditions equal ``match``."""
    if all(row.extra.get(k) == v for k, v in match.items()):
        return dataclasses.replace(row, extra={**row.extra, **fields})
    return row


def _fails(outcome, *needles: str) -> None:
    assert not outcome.passed, f"{outcome.invariant.label} passed on a broken rule"
    for needle in needles:
        assert needle in outcome.counterexample, outcome.counterexample


# --------------------------------------------------------------------------- registry


def test_invariants_carry_rule_numbers_and_summaries(own):
    assert len(own) >= 25
    for inv in own.values():
        assert inv.rule and inv.summary and inv.rule[0].isdigit(), inv
    rules = {inv.rule for inv in own.values()}
    assert {"10.10.2", "10.20.2", "10.21", "2.6.4", "10.12.1", "6.3", "12.6", "11.4",
            "4.1"} <= rules


def test_every_invariant_passes_on_the_shipped_rules(game, own):
    for inv in own.values():
        outcome = run(inv, game, examples=EXAMPLES)
        assert outcome.passed, f"{inv.label}\n{outcome.counterexample}\n{outcome.error}"
        assert outcome.examples > 0


def test_e30_few_escorts_alternate_between_the_areas(game):
    """2 carriers, 2 escorts, a landing: step 1 then step 2, the escorts run out (E30)."""
    fleet = [game.get("units", u) for u in ("kaga", "akagi", "nagato-mutsu", "jp-desron-1")]
    areas = cb.place_japanese_ships(game, fleet, landing=True)
    assert len([s for s in areas["japanese-sea"] if cb.is_escort(s)]) == 1
    assert len([s for s in areas["coastal"] if cb.is_escort(s)]) == 1


# --------------------------------------------------------------------------- broken rules


def test_hits_on_the_highest_cost_first_fail_the_state_machine(game, own, monkeypatch):
    monkeypatch.setattr(cb, "_priority", lambda piece, index: (-piece.cost, 0, index))
    outcome = run(own["hit_allocation"], game, examples=EXAMPLES)
    _fails(outcome, "state = HitAllocation()", "state.one_hit()", "while a target of cost")


def test_a_wrong_repair_cost_row_fails_with_that_cost(game, own):
    broken = _rows(game, "repair-cost", lambda r: _set(r, {"cost": "4-5"}, supply=1))
    outcome = run(own["repair_cost"], broken, examples=60)
    _fails(outcome, "check(", "SP")
    assert "cost=4" in outcome.counterexample or "cost=5" in outcome.counterexample


def test_damaged_carriers_taking_aircraft_back_fail(game, own):
    broken = _constant(game, "damaged-carrier-lands-none", False)
    outcome = run(own["carrier_return"], broken, examples=60)
    _fails(outcome, "damaged=True", "a damaged carrier took back")


def test_a_linked_result_out_of_order_fails(game, own):
    broken = _rows(game, "linked-result",
                   lambda r: _set(r, {"total": "45-49"}, result="disappointing"))
    outcome = run(own["linked_monotone"], broken, examples=60)
    _fails(outcome, "check(", "disappointing")


def test_supply_through_enemy_points_fails(game, own, monkeypatch):
    monkeypatch.setattr(cp, "in_supply", lambda game, point, held: True)
    outcome = run(own["supply_check"], game, examples=60)
    _fails(outcome, "check(", "supplied=True")


def test_moving_the_last_unit_away_fails(game, own, monkeypatch):
    monkeypatch.setattr(od, "_movable_ground_air", lambda game, stack, ground, air: (ground, air))
    outcome = run(own["japanese_movement"], game, examples=60)
    _fails(outcome, "check(", "the last ground/air unit left")


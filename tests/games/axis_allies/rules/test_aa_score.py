"""What the agents maximise in Axis & Allies (``score.py``): an alliance's lead in IPC,
units at cost plus attack and defence, IPC in hand, territories at three rounds' income."""

from __future__ import annotations

import random

import pytest
from aa_session import RULES, apply, at
from warpress.engine.agents import GreedyAgent, Seen
from warpress.engine.dice import SeededDice
from warpress.games.axis_allies.rules import score as scores
from warpress.games.axis_allies.rules.board import income_value
from warpress.games.axis_allies.rules.positions import npl_of, powers, remove_pieces, start


@pytest.fixture(scope="module")
def opening(game):
    return start(game, "standard")


def test_the_score_is_the_alliances_lead_the_same_for_each_power(game, opening):
    allies = [scores.score(game, opening, p) for p in ("russia", "uk", "usa")]
    axis = [scores.score(game, opening, p) for p in ("germany", "japan")]
    assert len(set(allies)) == 1 and len(set(axis)) == 1 and allies[0] == -axis[0]
    worth = scores.worth(game, opening)
    assert set(worth) == set(powers(game))
    assert allies[0] == pytest.approx((worth["russia"] + worth["uk"] + worth["usa"]
                                       - worth["germany"] - worth["japan"]) / scores.SCALE)
    assert RULES.score(game, opening, "uk") == allies[0]


def test_a_unit_lost_costs_its_price_attack_and_defence(game, opening):
    battleship = next(p for p in opening.pieces if p.unit == "battleship"
                      and p.side == "germany")
    without = remove_pieces(opening, [battleship])
    drop = scores.score(game, opening, "germany") - scores.score(game, without, "germany")
    assert drop == pytest.approx((24 + 4 + 4) / scores.SCALE)  # the unit table's row


def test_a_territory_taken_counts_three_rounds_of_its_income(game, opening):
    where = next(t for t, who in sorted(opening.control.items())
                 if who == "russia" and income_value(game, t) > 0)
    taken = opening.with_control({where: "germany"})
    value = income_value(game, where)
    gain = scores.score(game, taken, "japan") - scores.score(game, opening, "japan")
    assert gain == pytest.approx(2 * scores.INCOME_WEIGHT * value / scores.SCALE)


def test_buying_turns_ipc_into_units_and_gains_their_strength(game):
    position = at(game, "germany", "purchase", [("germany", "factory", "germany", 1)],
                  ipc={"germany": 20})
    bought, _ = apply(game, position, ("buy", {"unit": "infantry", "count": 2}))
    gain = scores.score(game, bought, "germany") - scores.score(game, position, "germany")
    assert gain == pytest.approx(2 * (1 + 2) / scores.SCALE)


def test_a_greedy_power_takes_the_richest_undefended_territory_in_reach(game):
    position = at(game, "germany", "combat-move",
                  [("germany", "armor", "east-europe", 1), ("russia", "infantry", "russia", 1)])
    decision = RULES.decision(game, position)
    made = GreedyAgent(limit=200).choose(Seen(game, RULES, position, decision),
                                         random.Random(1))
    reached = {(a.name, tuple(sorted(a.args.items()))): npl_of(
        game, RULES.apply(game, position, a.name, dict(a.args), SeededDice(1)).state,
        "germany") for a in decision.actions()}
    chosen = RULES.apply(game, position, made.name, dict(made.args), SeededDice(1)).state
    assert npl_of(game, chosen, "germany") == max(reached.values())
    assert max(reached.values()) > npl_of(game, position, "germany")

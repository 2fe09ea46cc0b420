"""The 1942 play example of the rulebook step by step, as far as the data carries it."""

from __future__ import annotations

import pytest
from warpress.engine.dice import GivenDice
from warpress.engine.errors import RuleViolation
from warpress.games.nimitz.rules import campaign as cp
from warpress.games.nimitz.rules import combat as cb
from warpress.games.nimitz.rules import orders as od
from warpress.games.nimitz.rules.campaign import MapView
from warpress.games.nimitz.rules.common import AttackValue, Piece, unit_value


def test_pe_supply_purchase_and_recon(game):
    camp = game.get("campaigns", "1942")
    rp, sp = camp.get("us_rp_per_turn"), camp.get("us_sp_per_turn")
    price = sum(cp.unit_buy_cost(game, u) for u in ("hornet", "us-1st-marine-division",
                                                   "raaf-bg2"))
    assert (rp, sp, price) == (7, 20, 9)
    sp = cp.spend(sp, price - rp, "purchase")
    assert sp == 18
    sp = cp.spend(sp, cp.recon_cost(game, 3), "recon")
    assert sp == 15
    with pytest.raises(RuleViolation, match="6.1"):
        cp.spend(sp, 16, "movement")


def test_pe_japan_sortie_to_midway(game):
    us = frozenset({"midway", "solomon-islands", "new-guinea", "borneo", "hawaiian-islands"})
    board = od.Board(MapView(us_ground=us), frozenset(game.get("campaigns", "1942")
                                                      .get("objectives")))
    stack = od.Stack("japan", ("kaga", "akagi", "hiei-kirishima"), (), (), staying=2)
    move = od.determine(game, stack, board, GivenDice({"roll": [10, 2]}))
    assert (move.executed, move.destination) == ("sortie", "midway")
    assert move.ships == ("kaga", "akagi", "hiei-kirishima") and move.battalions == 1
    assert move.transport


def test_pe_japan_standby_freezes_top_six(game):
    ships = ("soryu", "shoho", "nagato-mutsu", "tone-chikuma", "jp-desron-1",
             "jp-1st-sub-flotilla", "kaga", "akagi", "hiei-kirishima")
    stack = od.Stack("japan", ships, ("bn-1", "bn-2"))
    move = od.determine(game, stack, od.Board(MapView()), GivenDice({"roll": [2]}))
    assert move.executed == "standby" and move.ships == ships[:6]
    assert move.ground == ("bn-1", "bn-2") and move.supply_markers == 1


def test_pe_battle_set_up(game):
    assert cb.battle_rounds(game, 4) == 2
    assert cb.battle_plan_draws(game, 5) == 2
    assert cb.battle_points(game, 1) == 6
    assert cb.check_purchase(game, ["melee", "vt-fuze", "seabees"], 1) == 1


def test_pe_air_defense_cost_follows_erratum_e5(game):
    # the PE pays 1 for the air-defense system; the data follows rule 10.5 (cost 2, E5)
    with pytest.raises(RuleViolation, match="10.5"):
        cb.check_purchase(game, ["melee", "vt-fuze", "air-defense-system", "seabees"], 1)


def test_pe_round_1(game):
    a6m = unit_value(game.get("units", "a6m"), "air")
    assert cb.attack_hits(game, a6m, 2) == 2
    done = cb.allocate_hits(game, [Piece("tbd", 1), Piece("28bg", 1), Piece("sbd-1", 2),
                                   Piece("sbd-2", 2)], 2)
    assert done.pieces[0].state == "destroyed" and done.player_choice
    cruiser = cb.marked_value(game, AttackValue(2), "aa", ["surface-fleet-success"])
    assert str(cruiser) == "5/2"
    assert [cb.attack_hits(game, cruiser, r) for r in (6, 3)] == [0, 1]
    bombs = [AttackValue(4), AttackValue(4), AttackValue(1)]
    assert sum(cb.attack_hits(game, v, r) for v, r in zip(bombs, (2, 3, 9), strict=True)) == 2
    airfield = cb.allocate_hits(game, [Piece("airfield", 1, capacity=2)],
                                cb.cancel_hits(game, 2)).pieces[0]
    assert airfield.capacity == 1
    furutaka = cb.marked_value(game, unit_value(game.get("units", "furutaka-kako"), "gunnery"),
                               "gunnery", ["surface-fleet-success"])
    assert cb.attack_hits(game, furutaka, 1) == 2
    landed = cb.airfield_landing(game, "us", 0, [cb.Plane("18fg", 2),
                                                 cb.Plane("28bg", 1, "damaged")])
    assert landed.landed == () and len(landed.removed) == 2


def test_pe_round_2(game):
    assert cb.air_destination(game, cb.forced_roll(game), cb.air_areas(game))[1] == "us-sea"
    assert cb.air_destination(game, 8, cb.air_areas(game))[1] == "us-sea"
    a6m = unit_value(game.get("units", "a6m"), "air")
    f4f = unit_value(game.get("units", "f4f"), "air")
    assert cb.attack_hits(game, a6m, 7) == 1
    assert cb.bonus_extra_hits(game, cb.attack_hits(game, f4f, 4)) == 2
    assert cb.attack_hits(game, AttackValue(4), 1) == 1  # SBD die 1 -> Hiryu damaged
    back = cb.carrier_return(game, "us", 4, damaged=True,
                             planes=[cb.Plane("sbd-1", 2), cb.Plane("sbd-2", 2),
                                     cb.Plane("f4f", 2, "damaged")])
    assert back.landed == ()


def test_pe_reinforcement_and_end_of_turn(game):
    modified = cp.reinforcement_roll(game, 8, supply_markers=3, damaged=2, raiding_subs=0)
    assert modified == 9 and cp.reinforcements(game, modified) == cp.Reinforcements(2, 2, 1, 0)
    assert cp.must_return(game, "solomon-islands", enemy_present=False)
    assert not cp.dismissed(game, "1942", 6)

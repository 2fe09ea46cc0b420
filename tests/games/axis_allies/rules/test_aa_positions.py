"""The Axis & Allies position (rules/positions.py): the set-up from the data, fighters aboard
the carriers of their sea zone, JSON without loss; and the whole-game invariants
(rules/invariants.py) catching each thing they guard."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace

from aa_session import RULES, apply, at
from warpress.engine.dice import SeededDice
from warpress.engine.model import FrozenDict
from warpress.engine.position import Piece, Position
from warpress.games.axis_allies.rules.board import start_control
from warpress.games.axis_allies.rules.invariants import broken
from warpress.games.axis_allies.rules.positions import start


def test_the_set_up_holds_every_starting_unit_ipc_and_territory(game):
    position = start(game, "standard")
    placed = Counter((r.side, p.unit) for r in game.setup for p in r.place if p.unit
                     for _ in range(p.count or 1))
    assert Counter((p.side, p.unit) for p in position.pieces) == placed
    assert all(p.kind == "area" for p in position.pieces)
    assert dict(position.data["ipc"]) == {p: game.constant(f"starting-ipc-{p}")
                                          for p in ("russia", "germany", "uk", "japan", "usa")}
    assert dict(position.control) == start_control(game)
    assert {p.place for p in position.pieces if p.unit == "factory"} == {
        p.id for p in game.point_maps[0].points if "original-factory" in p.flags}
    assert not broken(game, None, None, position)


def test_fighters_at_sea_start_aboard_a_carrier_of_their_zone(game):
    position = start(game, "standard")
    at_sea = [p for p in position.pieces if p.unit == "fighter" and p.place.endswith("sea-zone")]
    assert at_sea
    for fighter in at_sea:
        carrier = next(p for p in position.pieces if p.id == fighter.props["aboard"])
        assert carrier.unit == "carrier" and carrier.place == fighter.place


def test_a_position_goes_to_json_and_back_without_loss(game):
    position = RULES.new(game, "standard", SeededDice(1)).state
    assert Position.from_json(json.loads(json.dumps(position.to_json()))) == position


def _with(position, **changes):
    return replace(position, **changes)


def test_the_invariants_catch_what_they_guard(game):
    position = at(game, "germany", "purchase", [("germany", "infantry", "germany", 2),
                                                ("germany", "factory", "germany", 1)])
    assert not broken(game, None, None, position)
    pieces = position.pieces
    extra = Piece("germany.factory.9", "factory", "germany", "area", "germany")
    assert "2 factory in germany" in broken(game, None, None,
                                             _with(position, pieces=pieces + (extra,)))
    poor = position.with_data(ipc={**position.data["ipc"], "germany": -1})
    assert "germany has -1 IPC" in broken(game, None, None, poor)
    gone = _with(position, pieces=pieces[1:])
    assert any("left the board" in p for p in broken(game, position, ("end", {}), gone))
    made = Piece("germany.infantry.9", "infantry", "germany", "area", "germany")
    grown = _with(position, pieces=pieces + (made,))
    assert any("appeared" in p for p in broken(game, position, ("end", {}), grown))
    lost = _with(position, pieces=pieces + (Piece("x.infantry.1", "infantry", "germany", "area",
                                                  "atlantis"),))
    assert any("no space of the board" in p for p in broken(game, None, None, lost))
    adrift = _with(position, pieces=pieces + (Piece("germany.infantry.7", "infantry", "germany",
                                                    "area", "baltic-sea-zone",
                                                    props=FrozenDict(aboard="nothing")),))
    assert any("is aboard nothing" in p for p in broken(game, None, None, adrift))
    taken = position.with_control({"sweden": "germany"})
    assert any("sweden is held by germany" in p for p in broken(game, None, None, taken))
    mixed = _with(position, pieces=pieces + (Piece("uk.infantry.1", "infantry", "uk", "area",
                                                   "germany"),))
    assert any("holds enemies" in p for p in broken(game, None, None, mixed))


def test_a_purchase_makes_units_and_is_paid(game):
    position = at(game, "germany", "purchase", [], ipc={"germany": 10})
    after, _ = apply(game, position, ("buy", {"unit": "infantry", "count": 2}))
    assert not broken(game, position, ("buy", {}), after)
    free = after.with_data(ipc=position.data["ipc"])
    assert any("bought for 0 IPC" in p for p in broken(game, position, ("buy", {}), free))

"""What the players of an Axis & Allies session see (rules/views.py) and the world map of a
position (rules/mapview.py): every power's IPC, NPL and weapons, each space's units, the
battle going on, the verdict; the map tinted by who holds each territory now, a count per
unit type in each space."""

from __future__ import annotations

import re

import pytest
from aa_session import RULES, apply, at
from warpress.engine.errors import BadInput
from warpress.engine.gamecode import import_part
from warpress.games.axis_allies.rules.mapview import draw, line_of


def test_the_view_shows_every_power_and_every_space_with_units(game):
    units = [("germany", "infantry", "germany", 3), ("germany", "factory", "germany", 1),
             ("uk", "transport", "north-sea-zone", 1),
             ("uk", "infantry", "north-sea-zone", 2, {"aboard": "uk.transport.1"})]
    view = RULES.player_view(game, at(game, "germany", "purchase", units, ipc={"germany": 7}))
    assert view["title"].endswith("Spring 1942") and view["acting"] == "germany"
    powers = {p["id"]: p for p in view["powers"]}
    assert powers["germany"]["ipc"] == 7 and powers["germany"]["npl"] == 32
    assert powers["russia"]["capital"] == "russia (held by russia)"
    areas = {a["id"]: a for a in view["areas"]}
    assert areas["germany"] == {"id": "germany", "held_by": "germany",
                                "germany": "3 infantry, 1 factory"}
    assert areas["north-sea-zone"]["uk"] == "uk.transport.1 [2xinfantry]"
    assert view["awaiting"] == ["buy", "develop", "end"]


def test_the_view_shows_the_battle_going_on(game):
    units = [("germany", "armor", "karelia-ssr", 2, {"from": "east-europe", "used": 1}),
             ("russia", "infantry", "karelia-ssr", 2)]
    position = at(game, "germany", "combat-move", units)
    position = position.with_pieces([p.flagged("moved") for p in position.pieces
                                     if p.side == "germany"])
    due, _ = apply(game, position, ("end", {}),
                   rolls={"attacker_rolls": [6, 6], "defender_rolls": [6, 6]})
    battle = RULES.player_view(game, due)["battle"]
    assert battle == [{"space": "karelia-ssr", "kind": "land", "round": 1,
                       "attacker": "2xarmor", "defender": "2xinfantry", "casualties": "none"}]


def test_a_space_s_units_on_the_map_read_as_counts(game):
    position = at(game, "uk", "purchase", [
        ("uk", "infantry", "north-sea-zone", 2, {"aboard": "uk.transport.1"}),
        ("uk", "transport", "north-sea-zone", 1), ("uk", "battleship", "north-sea-zone", 1)])
    pieces = [p for p in position.pieces if p.place == "north-sea-zone"]
    assert line_of(pieces) == "1 bb tr(2 inf)"


def test_the_world_map_draws_each_space_s_units_and_who_holds_it(game):
    units = [("germany", "infantry", "germany", 3), ("germany", "armor", "karelia-ssr", 2),
             ("uk", "battleship", "north-sea-zone", 1)]
    position = at(game, "germany", "purchase", units, control={"karelia-ssr": "germany"})
    svg = RULES.render_player_map(game, position, "svg").decode("utf-8")
    for place, text in (("germany", "3 inf"), ("karelia-ssr", "2 arm"),
                        ("north-sea-zone", "1 bb")):
        block = re.search(rf'id="units-{place}".*?</g>', svg, re.S)
        assert block and text in block.group(0)
    assert 'id="units-russia"' not in svg
    kit = import_part(game, "kit")
    tint = {s.id: kit.mix(s.color, 0.3) for s in game.info.sides}
    for cell, power in (("karelia-ssr", "germany"), ("russia", "russia")):
        drawn = re.search(rf'id="cell-{cell}".*?</g>', svg, re.S).group(0)
        assert f'fill="{tint[power]}"' in drawn
    with pytest.raises(BadInput):
        draw(game, position, "gif")

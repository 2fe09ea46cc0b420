"""engine/terrain.py: a hex's terrain, the chart's entries for a hex and a hexside, stacking
limits, and the ``terrain`` referee table (tests/fixtures/games/corps in tmp_path)."""

from __future__ import annotations

from pathlib import Path

from warpress.engine.loader import load_game
from warpress.engine.terrain import (
    game_names,
    hex_effects,
    hex_terrains,
    hexside_effects,
    stacking_limit,
)


def test_hex_terrain_features_and_hexsides(corps_game: Path):
    game = load_game(corps_game)
    front = game.hex_map()
    ground = hex_terrains(front)
    assert ground["0302"] == "forest" and ground["0504"] == "clear"
    assert [e.entry.id for e in hex_effects(game, front, "0504")] == ["clear", "city"]
    assert [e.why for e in hexside_effects(game, front, "0504", "0404")] == [
        "river between 0504 and 0404"]
    assert hexside_effects(game, front, "0504", "0503") == []
    names = game_names(game)
    assert names.hexsides == {"river", "fortified-line"} and "city" in names.features


def test_the_limit_naming_the_terrain_wins(corps_game: Path):
    game = load_game(corps_game)
    front = game.hex_map()
    assert stacking_limit(game, front, "0302").id == "forest"
    assert stacking_limit(game, front, "0504").id == "per-hex"


def test_lookup_terrain_gives_movement_and_combat_effects(cli_json, cli, corps_game):
    out = cli_json("lookup", str(corps_game), "terrain", "hex=0504", "from=0404")
    r = out["result"]
    assert (r["terrain"], r["movement"], r["shift"], r["defence"]) == ("clear", 2, -1, 2)
    assert out["rules"] == ["6.1", "6.3", "6.4"]
    text = cli("lookup", str(corps_game), "terrain", "hex=0606").output
    assert "movement cost 2 MP" in text and "forest: -1 column [6.2]" in text


def test_lookup_terrain_refuses_a_hex_not_next_to_it(cli_refused, corps_game):
    line = cli_refused("lookup", str(corps_game), "terrain", "hex=0504", "from=0808")
    assert "from='0808'" in line

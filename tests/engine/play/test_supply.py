"""Supply from data: sources, length in hexes or MP, what blocks a trace, and what being out
of supply does. Each switch is changed in the data and the test sees the difference."""

from __future__ import annotations

from data_edits import edit
from warpress.engine.loader import load_game
from warpress.engine.play import combat
from warpress.engine.play.supply import in_supply

from .conftest import ctx, in_phase, place, start

SUPPLY = """\
  supply:
    sources: {blue: [{edge: west}], red: [{edge: east}]}
    trace: hexes
    length: LENGTH
    blocked: [enemy-units, enemy-zoc]
    friendly_negates_zoc: NEGATES
    effects: {attack: 0.5, eliminate_after: 2}
    rule: "8.0"
"""


def supplied(mini_dir, length="null", negates="true", extra=""):
    text = SUPPLY.replace("LENGTH", length).replace("NEGATES", negates) + extra
    edit(mini_dir, "  advance: {units: 1", text + "  advance: {units: 1", "play.yaml")
    return load_game(str(mini_dir))


def test_any_length_to_the_edge(mini_dir):
    game = supplied(mini_dir)
    p = place(start(game), b1="0503", b2="0101", b3="0102", r1="0806", r2="0805")
    assert in_supply(game, p, p.piece("b1"))


def test_length_in_hexes(mini_dir):
    game = supplied(mini_dir, length="3")
    p = place(start(game), b1="0403", b2="0101", b3="0102", r1="0806", r2="0805")
    assert in_supply(game, p, p.piece("b1"))      # 0403 -> 0302 -> 0202 -> 0101: 3 hexes
    p = place(p, b1="0503")
    assert not in_supply(game, p, p.piece("b1"))


def test_length_in_mp(mini_dir):
    game = supplied(mini_dir, length="3")
    edit(mini_dir, "trace: hexes", "trace: mp", "play.yaml")
    game = load_game(str(mini_dir))
    p = place(start(game), b1="0404", b2="0101", b3="0102", r1="0806", r2="0805")
    # 0404 -> 0303 -> 0203 -> 0103: 3 MP; a forest hex on the way would cost 2
    assert in_supply(game, p, p.piece("b1"))
    p = place(p, b1="0504")
    assert not in_supply(game, p, p.piece("b1"))


#: red units whose zones cover the whole west edge (column 01)
WALL = {"r1": "0202", "r2": "0204", "r3": "0206"}


def test_enemy_zone_blocks_unless_a_friend_holds_the_hex(mini_dir):
    game = supplied(mini_dir)
    cut = place(start(game), b1="0203", b2="0606", b3="0605", **WALL)
    assert not in_supply(game, cut, cut.piece("b1"))
    held = place(cut, b2="0103")       # a blue unit in a zone's hex opens it
    assert in_supply(game, held, held.piece("b1"))


def test_without_friendly_negation_a_held_zone_still_blocks(mini_dir):
    game = supplied(mini_dir, negates="false")
    held = place(start(game), b1="0203", b2="0103", b3="0605", **WALL)
    assert not in_supply(game, held, held.piece("b1"))


def test_out_of_supply_halves_attack_and_eliminates_in_a_row(mini_dir):
    supplied(mini_dir)
    edit(mini_dir, "  - {id: blue-move, order: 10,",
         "  - {id: blue-supply, order: 0, name: Blue supply, who: blue, do: supply, "
         "rule: \"8.1\"}\n  - {id: blue-move, order: 1,", "play.yaml")
    game = load_game(str(mini_dir))
    cut = place(start(game), b1="0303", b2="0606", b3="0605", **WALL)
    p = in_phase(game, cut, "blue-supply")
    assert "oos" in p.piece("b1").flags and p.piece("b1").props["oos"] == 1
    battle = {"hex": "0204", "attackers": ["b1"], "from": {"b1": "0303"}}
    t, _column, _extra = combat.odds_of(ctx(game), p, battle)
    assert "x0.5 (out of supply" in t.lines[0]
    p = in_phase(game, p, "blue-supply")          # a second check out of supply in a row
    assert p.piece("b1").kind == "eliminated"
    fed = in_phase(game, place(p, r1="0806", r2="0805", r3="0804"), "blue-supply")
    assert all("oos" not in fed.piece(u).flags for u in ("b2", "b3"))

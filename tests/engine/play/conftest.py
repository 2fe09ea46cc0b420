"""A small hex game for the tests of the play forms, written where a test wants it, with
every switch in reach of ``data_edits.edit``; and helpers to set a position up and act on
it with the dice a test gives."""

from __future__ import annotations

from pathlib import Path

import pytest
from warpress.engine.dice import GivenDice
from warpress.engine.loader import load_game
from warpress.engine.play.context import Context
from warpress.engine.play.flow import enter
from warpress.engine.play.game import HexRules
from warpress.engine.play.sequence import phase
from warpress.engine.position import Position

GAME = """\
game:
  id: mini
  name: Mini
  kind: hex
  players: "2"
  dice: [d6]
  sides:
    - {id: blue, name: Blue}
    - {id: red, name: Red}
  rule: "1.0"
"""

MAP = """\
hex_maps:
  - id: map
    name: Map
    columns: {count: 8, labels: numbers, pad: 2}
    rows: {count: 6, labels: numbers, pad: 2}
    hex_id: "{col}{row}"
    orientation: flat
    offset: even-q
    terrain: clear
    rule: "2.1"
    features:
      - {id: wood, kind: terrain, terrain: forest, hexes: ["0403", "0404"], rule: "2.2"}
      - {id: fen, kind: terrain, terrain: swamp, hexes: ["0206"], rule: "2.2"}
      - {id: town, name: Town, kind: city, hexes: ["0603"], rule: "2.3"}
      - {id: keep, name: Keep, kind: fort, hexes: ["0702"], rule: "2.3"}
      - {id: creek, kind: river, hexsides: ["0301/0401", "0301/0402", "0302/0402"], rule: "2.4"}
      - {id: track, kind: road, path: ["0101", "0201", "0301", "0401", "0501"], rule: "2.5"}
      - {id: line, kind: railway, path: ["0105", "0205", "0305", "0405", "0505", "0605"],
         rule: "2.6"}
terrain:
  - {id: clear, movement: 1, rule: "6.1"}
  - {id: forest, movement: 2, shift: -1, rule: "6.1"}
  - {id: swamp, movement: all, rule: "6.1"}
  - {id: city, movement: 1, defence: 2, rule: "6.1"}
  - {id: fort, shift: -1, side: red, rule: "7.3"}
  - {id: river, movement: 1, shift: -1, rule: "6.1"}
  - {id: road, movement: 1, rule: "6.2"}
  - {id: railway, movement: 1, rule: "6.5"}
stacking:
  - {id: per-hex, limit: 2, of: units, rule: "6.3"}
"""

UNITS = """\
units:
  - {id: b1, side: blue, type: infantry, steps: 2, stats: {attack: 4, defence: 4, move: 3},
     back: {attack: 2, defence: 2, move: 3}, rule: "3.1"}
  - {id: b2, side: blue, type: infantry, steps: 2, stats: {attack: 4, defence: 4, move: 3},
     back: {attack: 2, defence: 2, move: 3}, rule: "3.1"}
  - {id: b3, side: blue, type: armour, steps: 2, stats: {attack: 9, defence: 4, move: 6},
     back: {attack: 4, defence: 2, move: 6}, rule: "3.1"}
  - {id: r1, side: red, type: infantry, steps: 2, stats: {attack: 3, defence: 3, move: 3},
     back: {attack: 1, defence: 2, move: 3}, rule: "3.2"}
  - {id: r2, side: red, type: infantry, steps: 2, stats: {attack: 3, defence: 3, move: 3},
     back: {attack: 1, defence: 2, move: 3}, rule: "3.2"}
  - {id: r3, side: red, type: infantry, steps: 1, stats: {attack: 2, defence: 2, move: 2},
     rule: "3.2"}
setup:
  - id: blue
    side: blue
    rule: "4.1"
    place:
      - {unit: b1, hex: "0101"}
      - {unit: b2, hex: "0102"}
      - {unit: b3, hex: "0103"}
  - id: red
    side: red
    rule: "4.2"
    place:
      - {unit: r1, hex: "0801"}
      - {unit: r2, hex: "0802"}
      - {unit: r3, where: reserve}
tracks:
  - {id: turn, values: [1, 2, 3, 4], start: 1, rule: "5.2"}
"""

PLAY = """\
sequence:
  - {id: blue-move, order: 10, name: Blue movement, who: blue, do: move, rule: "5.1"}
  - {id: blue-combat, order: 20, name: Blue combat, who: blue, do: combat, rule: "5.1"}
  - {id: red-move, order: 30, name: Red movement, who: red, do: move, rule: "5.1"}
  - {id: red-combat, order: 40, name: Red combat, who: red, do: combat, rule: "5.1"}
play:
  rule: "5.0"
  turns: {track: turn, rule: "5.2"}
  movement: {allowance: move, rule: "6.1"}
  zoc: {kind: stop, rule: "6.4"}
  stacking: {when: end-of-move, rule: "6.3"}
  combat:
    table: crt
    rule: "7.0"
    results:
      AR: [{retreat: attacker, hexes: 1}]
      EX: [{exchange: steps}]
      DR: [{retreat: defender, hexes: 1}]
      DRL: [{lose: defender}, {retreat: defender, hexes: 1}]
      DE: [{eliminate: defender}]
  retreat: {chooser: owner, rule: "7.4"}
  advance: {units: 1, rule: "7.5"}
victory:
  - {id: town, name: Hold the town, check: hold, features: [town], at: end, otherwise: draw,
     rule: "8.1"}
tables:
  - id: crt
    name: CRT
    rule: "7.1"
    dice: d6
    crt:
      method: odds
      columns: ["1-1", "2-1", "3-1"]
      below: AR
      above: clamp
      rule: "7.1"
      codes: {AR: Attacker retreats, EX: Exchange, DR: Defender retreats,
              DRL: Defender retreats and loses a step, DE: Defender eliminated}
      grid:
        1: [DR, DRL, DE]
        2: [EX, DR, DRL]
        3: [AR, EX, DR]
        4: [AR, AR, EX]
        5: [AR, AR, AR]
        6: [AR, AR, AR]
"""

FILES = {"game.yaml": GAME, "map.yaml": MAP, "units.yaml": UNITS, "play.yaml": PLAY}


def write_mini(folder: Path) -> Path:
    """The mini game's folder (a fresh copy a test may edit)."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in FILES.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


@pytest.fixture
def mini_dir(tmp_path: Path) -> Path:
    return write_mini(tmp_path / "mini")


@pytest.fixture
def mini(mini_dir: Path):
    return load_game(str(mini_dir))


RULES = HexRules()


def start(game, *rolls: int) -> Position:
    """The game's position after set-up (``rolls``: the dice the set-up rolls)."""
    return RULES.new(game, None, GivenDice(list(rolls))).state


def act(game, position: Position, name: str, *rolls: int, **args) -> Position:
    """``position`` after the action ``name`` with ``args``, rolling ``rolls``."""
    return RULES.apply(game, position, name, args, GivenDice(list(rolls))).state


def place(position: Position, **where: str) -> Position:
    """``position`` with pieces moved: ``place(p, b1="0404", r1="0505")``."""
    changed = [position.piece(pid).at("hex", hex_id) if hex_id != "eliminated" else
               position.piece(pid).at("eliminated") for pid, hex_id in where.items()]
    return position.with_pieces(changed)


def ctx(game) -> Context:
    return Context(game, GivenDice([]))


def in_phase(game, position: Position, phase_id: str) -> Position:
    """``position`` moved into phase ``phase_id``, entered as the sequence enters it (a
    test's set-up)."""
    return enter(ctx(game), position, phase(game, phase_id))

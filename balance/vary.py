"""What a balance run changes in a game: parameter sweeps (``--vary KEY=RANGE``) and
restricted play (a unit removed, or weakened by a step, from the set-up).

A sweep's KEY names one number or word of the game's data:

=====================  ==========================================================
``constant.ID``        a constant's value
``unit.ID.STAT``       a stat of a unit's front face (``unit.n4.attack``)
``unit.ID.back.STAT``  a stat of its reduced face
``table.ID.ROW.COL``   a cell of a combat results table: the die roll's row and the
                       column's label (``table.crt.3.2-1``)
``setup.UNIT``         the hex a unit is set up in (``setup.UNIT.N``: its Nth placement)
``SECTION.ID.FIELD``   a whole-number field of a record (``stacking.per-hex.limit``,
                       ``replacements.soviet.points``)
=====================  ==========================================================

RANGE is ``A..B`` (whole numbers, ``A..B:STEP`` to step), or values separated by commas
(``4,5,7``; ``AR,EX,DR`` for a table cell; ``0302,0403`` for a set-up hex). Every value is
checked against the data before a game is played (BadInput quoting the key or value).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..engine.errors import BadInput
from ..engine.model import SECTIONS, Constant, FrozenDict, Game, Unit
from ..engine.position import Piece, Position, thaw

#: at most this many values in one sweep
MAX_VALUES = 50


@dataclass(frozen=True)
class Sweep:
    """One ``--vary``: the key as given, and its values in order."""

    key: str
    values: tuple[Any, ...]

    def edits(self) -> tuple[tuple[str, Any], ...]:
        return tuple((self.key, v) for v in self.values)


def parse_vary(text: str, game: Game) -> Sweep:
    """``KEY=RANGE`` checked against ``game``: every value applies (BadInput otherwise)."""
    key, eq, spec = text.partition("=")
    key, spec = key.strip(), spec.strip()
    if not eq or not key or not spec:
        raise BadInput(f"--vary {text!r}: expected KEY=RANGE (A..B, A..B:STEP or a,b,c)")
    kind = _kind(game, key)
    values = _values(text, spec, numeric=kind != "word")
    for value in values:
        apply_edit(game, key, value)
    return Sweep(key, values)


def _kind(game: Game, key: str) -> str:
    """Whether ``key`` takes numbers or words (``setup`` hexes, table codes); BadInput when
    it names nothing in the game."""
    head = key.split(".", 1)[0]
    if head in ("setup", "table"):
        apply_edit(game, key, None, check_only=True)
        return "word"
    apply_edit(game, key, None, check_only=True)
    return "number"


def _values(text: str, spec: str, numeric: bool) -> tuple[Any, ...]:
    if ".." in spec:
        if not numeric:
            raise BadInput(f"--vary {text!r}: a range A..B is of whole numbers; list the "
                           f"values (a,b,c)")
        return _int_range(text, spec)
    words = tuple(v.strip() for v in spec.split(","))
    if any(not v for v in words):
        raise BadInput(f"--vary {text!r}: an empty value between commas")
    values: tuple[Any, ...] = tuple(_number(text, v) for v in words) if numeric else words
    if len(values) > MAX_VALUES:
        raise BadInput(f"--vary {text!r}: {len(values)} values; at most {MAX_VALUES}")
    return values


def _int_range(text: str, spec: str) -> tuple[int, ...]:
    body, _, step_text = spec.partition(":")
    low_text, _, high_text = body.partition("..")
    try:
        low, high = int(low_text), int(high_text)
        step = int(step_text) if step_text else 1
    except ValueError:
        raise BadInput(f"--vary {text!r}: range {spec!r} does not parse (A..B or A..B:STEP, "
                       f"whole numbers)") from None
    if step <= 0 or high < low:
        raise BadInput(f"--vary {text!r}: range {spec!r} is empty (A <= B, STEP > 0)")
    values = tuple(range(low, high + 1, step))
    if len(values) > MAX_VALUES:
        raise BadInput(f"--vary {text!r}: {len(values)} values; at most {MAX_VALUES}")
    return values


def _number(text: str, value: str) -> int | float:
    try:
        return int(value)
    except ValueError:
        pass
    try:
        return float(value)
    except ValueError:
        raise BadInput(f"--vary {text!r}: {value!r} is not a number") from None


# --- edits -------------------------------------------------------------------------------


def apply_edits(game: Game, edits: tuple[tuple[str, Any], ...]) -> Game:
    for key, value in edits:
        game = apply_edit(game, key, value)
    return game


def apply_edit(game: Game, key: str, value: Any, check_only: bool = False) -> Game:
    """``game`` with ``key`` set to ``value`` (see the module docstring)."""
    parts = key.split(".")
    edit = _EDITS.get(parts[0], _field)
    return edit(game, key, parts, value, check_only)


def _constant(game: Game, key: str, parts: list[str], value: Any, check_only: bool) -> Game:
    if len(parts) != 2:
        raise BadInput(f"--vary {key!r}: expected constant.ID")
    record = game.get("constants", parts[1])
    assert isinstance(record, Constant)  # the constants section holds Constant records
    if check_only:
        return game
    return _swap(game, "constants", record, replace(record, value=value))


def _unit(game: Game, key: str, parts: list[str], value: Any, check_only: bool) -> Game:
    if len(parts) not in (3, 4) or len(parts) == 4 and parts[2] != "back":
        raise BadInput(f"--vary {key!r}: expected unit.ID.STAT or unit.ID.back.STAT")
    unit = game.get("units", parts[1])
    assert isinstance(unit, Unit)  # the units section holds Unit records
    stat = parts[-1]
    face = unit.back if len(parts) == 4 else unit.stats
    if not isinstance(face, dict | FrozenDict) or stat not in face:
        have = ", ".join(face) if isinstance(face, dict | FrozenDict) else "none"
        raise BadInput(f"--vary {key!r}: unit {unit.id} has no {'back ' if len(parts) == 4 else ''}"
                       f"stat {stat!r} (stats: {have})")
    if check_only:
        return game
    changed = FrozenDict({**face, stat: value})
    new = replace(unit, back=changed) if len(parts) == 4 else replace(unit, stats=changed)
    return _swap(game, "units", unit, new)


def _table(game: Game, key: str, parts: list[str], value: Any, check_only: bool) -> Game:
    if len(parts) != 4:
        raise BadInput(f"--vary {key!r}: expected table.ID.ROW.COLUMN (a CRT cell)")
    table = game.table(parts[1])
    crt = table.crt
    if crt is None:
        raise BadInput(f"--vary {key!r}: table {table.id} is not a combat results table")
    row, column = parts[2], parts[3]
    if row not in crt.grid:
        raise BadInput(f"--vary {key!r}: no row {row!r} (rows: {', '.join(crt.grid)})")
    labels = [str(c) for c in crt.columns]
    if column not in labels:
        raise BadInput(f"--vary {key!r}: no column {column!r} (columns: {', '.join(labels)})")
    if value is not None and crt.codes and value not in crt.codes:
        raise BadInput(f"--vary {key!r}: {value!r} is no result code of {table.id} (codes: "
                       f"{', '.join(crt.codes)})")
    if check_only or value is None:
        return game
    cells = list(crt.grid[row])
    cells[labels.index(column)] = value
    grid = FrozenDict({**crt.grid, row: tuple(cells)})
    new = replace(table, crt=replace(crt, grid=grid), keys=(), results=(), rows=())
    return _swap(game, "tables", table, new)


def _setup(game: Game, key: str, parts: list[str], value: Any, check_only: bool) -> Game:
    if len(parts) not in (2, 3) or len(parts) == 3 and not parts[2].isdigit():
        raise BadInput(f"--vary {key!r}: expected setup.UNIT or setup.UNIT.N")
    unit, nth = parts[1], int(parts[2]) if len(parts) == 3 else 1
    found = [(i, j) for i, item in enumerate(game.setup) for j, p in enumerate(item.place)
             if p.unit == unit and p.hex]
    if len(found) < nth or nth < 1:
        raise BadInput(f"--vary {key!r}: unit {unit!r} has {len(found)} placement(s) on the "
                       f"map in the set-up")
    if value is not None and not any(value in m.hex_set for m in game.hex_maps):
        raise BadInput(f"--vary {key!r}: {value!r} is no hex of the map")
    if check_only or value is None:
        return game
    i, j = found[nth - 1]
    item = game.setup[i]
    places = list(item.place)
    places[j] = replace(places[j], hex=str(value))
    return _swap(game, "setup", item, replace(item, place=tuple(places)))


def _field(game: Game, key: str, parts: list[str], value: Any, check_only: bool) -> Game:
    if len(parts) != 3 or parts[0] not in SECTIONS:
        raise BadInput(f"--vary {key!r}: expected constant.ID, unit.ID.STAT, "
                       f"table.ID.ROW.COLUMN, setup.UNIT or SECTION.ID.FIELD")
    record = game.get(parts[0], parts[1])
    current = getattr(record, parts[2], None)
    if isinstance(current, bool) or not isinstance(current, int | float):
        raise BadInput(f"--vary {key!r}: {parts[0]} {parts[1]} has no number {parts[2]!r}")
    if check_only:
        return game
    return _swap(game, parts[0], record, replace(record, **{parts[2]: value}))


#: an edit: (game, key, its parts, the value, check only) -> the game edited
Edit = Callable[[Game, str, list[str], Any, bool], Game]
_EDITS: dict[str, Edit] = {"constant": _constant, "unit": _unit,
                                          "table": _table, "setup": _setup}


def _swap(game: Game, section: str, old: Any, new: Any) -> Game:
    records = tuple(new if r is old else r for r in getattr(game, section))
    changed: dict[str, Any] = {section: records}
    return replace(game, **changed)


# --- restricted play ----------------------------------------------------------------------


def restrict(kind: str, piece_id: str, leaves: bool = False,
             set_aside: Callable[[Position, str], Position] | None = None,
             ) -> Callable[[Position], Position]:
    """The set-up changed for restricted play: ``remove`` takes the piece out of the game
    (by the rules' own ``set_aside`` when they have one, such as a scenario's force one
    piece fewer; else out of the position where the game's pieces ``leaves`` it when they
    are lost: the rules' ``pieces_leave``, and the pieces it carries, a prop naming it, go
    with it; else to kind ``removed``), ``weaken`` takes one step from it."""

    def change(position: Position) -> Position:
        piece = position.piece(piece_id)
        if kind == "remove" and set_aside is not None:
            return set_aside(position, piece_id)
        if kind == "remove" and leaves:  # what it carries (a prop naming it) goes too
            return replace(position, pieces=tuple(
                p for p in position.pieces
                if p.id != piece_id and piece_id not in thaw(p.props).values()))
        if kind == "remove":
            return position.with_piece(piece.at("removed"))
        return position.with_piece(replace(piece, step=piece.step - 1))

    return change


def restricted_variants(game: Game, starts: Sequence[Position]) -> list[tuple[str, str]]:
    """``(kind, piece)`` for every piece on the board at the start (a hex, an area, a point
    or a box: ``ON_BOARD``) of every game in ``starts`` (the set-ups the variants are played
    from: a piece a game draws at random, such as Nightfighter's bombers, is no variant):
    removed, and weakened when it has a step to lose. Pieces alike (the same unit, side,
    place and steps: Axis & Allies' three infantry in one territory) give one variant, the
    first's."""
    first, *others = starts
    out, alike = [], set()
    for piece in first.pieces:
        key = _variant_key(piece)
        if not piece.on_board or piece.side is None or key in alike:
            continue
        if any(_variant_key(p) != key for p in (_piece_or_none(s, piece.id) for s in others)):
            continue
        alike.add(key)
        out.append(("remove", piece.id))
        if piece.step > 1:
            out.append(("weaken", piece.id))
    return out


def _variant_key(piece: Piece | None) -> tuple[Any, ...] | None:
    if piece is None:
        return None
    return (piece.unit, piece.side, piece.kind, piece.place, piece.step, piece.flags,
            repr(piece.props))


def _piece_or_none(position: Position, piece_id: str) -> Piece | None:
    return next((p for p in position.pieces if p.id == piece_id), None)

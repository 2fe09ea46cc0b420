"""A game's first position, from its set-up data in every form the data allows.

Each ``setup`` placement of the scenario (records without ``scenario`` belong to every
scenario) becomes pieces: ``hex:`` (or a ``where:`` that is a hex of a map) puts them on
the map, ``where: eliminated`` in the eliminated pool, any other ``where`` word in the
off-map pool of that name (``reserve``: units replacements may rebuild); ``steps`` gives
the step they start with (default: full); ``count`` makes several. A unit of one counter
is the piece of the unit's id; a unit of ``count`` N gives pieces ``ID.1`` .. ``ID.N``.
Units a ``reinforcements`` record brings (and that the set-up did not place) wait in the
pool ``reinforcements``. Marker placements set track markers: a marker on a track
(``track:``, or a marker whose id is a track's) sets that track to its ``where``.
The turn track starts at the game's first turn.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..errors import BadInput
from ..model import FrozenDict, Game, Placement, SetupItem
from ..position import Piece, Position
from .pieces import full_steps, units_of
from .sequence import turns

#: the pool that holds units not yet arrived
ARRIVING = "reinforcements"


def scenario_names(game: Game) -> tuple[str, ...]:
    """The scenarios the set-up names, in order of first mention; ``standard`` when the
    set-up names none."""
    names = tuple(dict.fromkeys(s.scenario for s in game.setup if s.scenario))
    return names or ("standard",)


def items_of(game: Game, scenario: str | None) -> list[SetupItem]:
    """The set-up records of ``scenario`` (and those of every scenario)."""
    names = scenario_names(game)
    if scenario is not None and scenario not in names:
        raise BadInput(f"scenario {scenario!r} is not one of {game.id}'s "
                       f"({', '.join(names)})")
    chosen = scenario or names[0]
    return [s for s in game.setup if s.scenario in (None, chosen)]


class _Ids:
    """Piece ids: a unit's id for a unit of one counter, ``ID.k`` for the k-th of several."""

    def __init__(self, game: Game):
        self.units = units_of(game)
        self.used: dict[str, int] = {}

    def next(self, unit_id: str, where: str) -> str:
        unit = self.units.get(unit_id)
        if unit is None:
            raise BadInput(f"{where}: {unit_id!r} is no unit of the game")
        k = self.used.get(unit_id, 0) + 1
        self.used[unit_id] = k
        limit = unit.count if unit.count is not None else 1
        if k > max(limit, 1):
            raise BadInput(f"{where}: more counters of {unit_id!r} placed than its count "
                           f"({limit})")
        return unit_id if limit <= 1 else f"{unit_id}.{k}"


def initial_position(game: Game, scenario: str | None = None) -> Position:
    """The position before the first phase (see the module docstring)."""
    hexes = {h for m in game.hex_maps for h in m.hex_set}
    ids = _Ids(game)
    pieces: list[Piece] = []
    tracks: dict[str, object] = {t.id: t.start for t in game.tracks if t.start is not None}
    for item in items_of(game, scenario):
        for k, place in enumerate(item.place):
            where = f"{place.origin or item.origin}: setup[{item.id}].place[{k}]"
            if place.marker is not None:
                _marker(game, place, tracks)
                continue
            if place.unit is None:
                continue
            pieces.extend(_pieces(game, ids, place, item.side, hexes, where))
    for record in game.reinforcements:
        for unit_id in record.units:
            where = f"{record.origin}: reinforcements[{record.id}]"
            piece_id = ids.next(unit_id, where)
            unit = ids.units[unit_id]
            steps = record.steps or full_steps(unit)
            pieces.append(Piece(piece_id, unit_id, unit.side, "pool", ARRIVING, steps,
                                props=FrozenDict({"turn": record.turn})))
    first = _first_turn(game)
    if game.play is not None and game.play.turns.track:
        tracks[game.play.turns.track] = first
    pieces.sort(key=lambda p: p.id)
    return Position(game=game.id, scenario=scenario or scenario_names(game)[0], turn=first,
                    pieces=tuple(pieces), tracks=FrozenDict(tracks))


def _first_turn(game: Game) -> int:
    return turns(game)[0]


def _pieces(game: Game, ids: _Ids, place: Placement, side: str | None,
            hexes: set[str], where: str) -> Iterable[Piece]:
    unit = ids.units.get(place.unit or "")
    if unit is None:
        raise BadInput(f"{where}: {place.unit!r} is no unit of the game")
    count = place.count if place.count is not None else 1
    steps = place.steps if place.steps is not None else full_steps(unit)
    kind, spot = _where(place, hexes)
    for _ in range(count):
        yield Piece(ids.next(unit.id, where), unit.id, unit.side or side, kind, spot, steps)


def _where(place: Placement, hexes: set[str]) -> tuple[str, str | None]:
    if place.hex is not None:
        return "hex", place.hex
    where = place.where
    if where is None:
        return "pool", "off-map"
    text = str(where)
    if text in hexes:
        return "hex", text
    if text == "eliminated":
        return "eliminated", None
    return "pool", text


def _marker(game: Game, place: Placement, tracks: dict[str, object]) -> None:
    track = place.get("track") or (place.marker if any(t.id == place.marker
                                                       for t in game.tracks) else None)
    if track is not None:
        tracks[str(track)] = place.where

"""The map as the play forms read it: hexes as numbers, neighbours, what entering each hex
and crossing each hexside costs, line features (roads, railways), map edges, the hexes
named by features, which hexsides and terrains a zone of control does not reach.

A :class:`Board` is computed once per game (``board_of``) from the hex maps, the terrain
effects chart and the ``play`` rules, so that a unit's moves are a search over small
integers (docs/playing.md, "Movement").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import BadInput
from ..inputs import quote
from ..model import Feature, Game, HexMap, Place, StackingLimit, TerrainEffect
from ..terrain import feature_terrain, grid_of, hex_terrains, hexside_pairs, stacking_limit

if TYPE_CHECKING:
    from ..position import Piece

#: terrain words that forbid entering a hex or crossing a hexside
PROHIBITED = frozenset({"prohibited", "impassable", "no"})
#: the word for "entering costs all the MP a unit has left"
ALL = "all"
#: an entry cost meaning "all the MP left"
ALL_MP = -1

_BOARDS: dict[int, tuple[Game, Board]] = {}


@dataclass(frozen=True)
class Line:
    """A line feature of one kind (road, railway): its hex pairs and the MP of a hex moved
    along it."""

    kind: str
    pairs: frozenset[tuple[int, int]]
    hexes: frozenset[int]
    cost: int


class Board:
    """Precomputed map facts of one game (see the module docstring)."""

    def __init__(self, game: Game):
        self.game = game
        self.names: list[str] = []
        self.index: dict[str, int] = {}
        self.map_of: list[HexMap] = []
        self.terrain: list[str] = []
        for hex_map in game.hex_maps:
            terrains = hex_terrains(hex_map)
            for hex_id in hex_map.hex_ids:
                self.index[hex_id] = len(self.names)
                self.names.append(hex_id)
                self.map_of.append(hex_map)
                self.terrain.append(terrains[hex_id])
        self.neighbours: list[tuple[int, ...]] = [() for _ in self.names]
        for hex_map in game.hex_maps:
            grid = grid_of(hex_map)
            for hex_id in hex_map.hex_ids:
                self.neighbours[self.index[hex_id]] = tuple(
                    self.index[n] for n in sorted(grid.neighbours(hex_id)))
        chart = {entry.id: entry for entry in game.terrain}
        default = next((e for e in game.terrain if e.default), None)
        self.enter: list[int | None] = [self._enter_cost(i, chart, default)
                                        for i in range(len(self.names))]
        self.crossing: dict[tuple[int, int], int | None] = self._crossings(chart)
        self.lines: dict[str, Line] = self._lines(chart)
        rail = game.play.movement.rail if game.play else None
        self.rail: Line | None = self.lines.get(rail.kind) if rail else None
        self.road_cost: dict[tuple[int, int], int] = {}
        for line in self.lines.values():
            if line is not self.rail:
                for pair in line.pairs:
                    self.road_cost[pair] = min(line.cost, self.road_cost.get(pair, line.cost))
        self.edges = self._edges()
        self.feature_hexes = {f.id: frozenset(self.index[h] for h in _hexes_of(f)
                                              if h in self.index)
                              for m in game.hex_maps for f in m.features if f.id}
        self.kind_hexes: dict[str, frozenset[int]] = {}
        for m in game.hex_maps:
            for f in m.features:
                hexes = frozenset(self.index[h] for h in _hexes_of(f) if h in self.index)
                self.kind_hexes[f.kind] = self.kind_hexes.get(f.kind, frozenset()) | hexes
        self.steps: list[tuple[tuple[int, int | None], ...]] = [
            tuple((n, self.step_cost(a, n)) for n in self.neighbours[a])
            for a in range(len(self.names))]
        self._limits: dict[str | None, list[StackingLimit | None]] = {}
        zoc = game.play.zoc if game.play else None
        self.zoc_closed_sides = self._sides_of(zoc.hexsides if zoc else ())
        self.zoc_closed_hexes = frozenset(i for i, t in enumerate(self.terrain)
                                          if zoc and t in zoc.terrain)

    # -- costs

    def _enter_cost(self, i: int, chart: dict[str, TerrainEffect],
                    default: TerrainEffect | None) -> int | None:
        """MP to enter hex ``i``: the hex terrain's entry (or the default), replaced by a
        feature's in the hex (a city); None when the terrain forbids it."""
        entry = chart.get(self.terrain[i]) or default
        cost: int | str | None = entry.movement if entry is not None else None
        hex_id = self.names[i]
        for f in self.map_of[i].features:
            if (hex_id in f.hexes and f.kind in chart and feature_terrain(f) is None
                    and chart[f.kind].movement is not None and not f.get("path")):
                cost = chart[f.kind].movement
        return _cost(cost, 1)

    def _crossings(self, chart: dict[str, TerrainEffect]) -> dict[tuple[int, int], int | None]:
        """Hexside pairs (both directions) -> MP added to cross, None: crossing forbidden."""
        out: dict[tuple[int, int], int | None] = {}
        for m in self.game.hex_maps:
            for f in m.features:
                entry = chart.get(f.kind)
                if entry is None or entry.movement is None:
                    continue
                for a, b in hexside_pairs(f):
                    if a in self.index and b in self.index:
                        extra = _cost(entry.movement, 0)
                        pair = (self.index[a], self.index[b])
                        before = out.get(pair, 0)
                        total = None if extra is None or before is None else before + extra
                        out[pair] = out[pair[::-1]] = total
        return out

    def _lines(self, chart: dict[str, TerrainEffect]) -> dict[str, Line]:
        pairs: dict[str, set[tuple[int, int]]] = {}
        for m in self.game.hex_maps:
            for f in m.features:
                path = [h for h in f.get("path") or () if h in self.index]
                for a, b in zip(path, path[1:], strict=False):
                    ia, ib = self.index[a], self.index[b]
                    if ib in self.neighbours[ia]:
                        pairs.setdefault(f.kind, set()).update({(ia, ib), (ib, ia)})
        out = {}
        for kind, found in pairs.items():
            entry = chart.get(kind)
            cost = _cost(entry.movement if entry else None, 1)
            out[kind] = Line(kind, frozenset(found), frozenset(a for a, _ in found),
                             cost if cost is not None and cost > 0 else 1)
        return out

    def _edges(self) -> dict[str, frozenset[int]]:
        edges: dict[str, set[int]] = {"north": set(), "south": set(), "east": set(),
                                      "west": set()}
        for m in self.game.hex_maps:
            grid = grid_of(m)
            last_col, last_row = len(grid.columns) - 1, len(grid.rows) - 1
            for hex_id in m.hex_ids:
                col, row = grid.coords(hex_id)
                i = self.index[hex_id]
                if col == 0:
                    edges["west"].add(i)
                if col == last_col:
                    edges["east"].add(i)
                if row == 0:
                    edges["north"].add(i)
                if row == last_row:
                    edges["south"].add(i)
        return {k: frozenset(v) for k, v in edges.items()}

    def _sides_of(self, kinds: Iterable[str]) -> frozenset[tuple[int, int]]:
        kinds = set(kinds)
        out = set()
        for m in self.game.hex_maps:
            for f in m.features:
                if f.kind in kinds:
                    for a, b in hexside_pairs(f):
                        if a in self.index and b in self.index:
                            out.update({(self.index[a], self.index[b]),
                                        (self.index[b], self.index[a])})
        return frozenset(out)

    # -- reading

    def limits(self, side: str | None) -> list[StackingLimit | None]:
        """The stacking limit of every hex for ``side``'s units (None: no limit)."""
        found = self._limits.get(side)
        if found is None:
            found = self._limits[side] = [
                stacking_limit(self.game, self.map_of[i], self.names[i], side)
                for i in range(len(self.names))]
        return found

    def of(self, piece: Piece) -> int:
        """The number of the hex ``piece`` stands in (KeyError for a piece in none)."""
        if piece.place is None:
            raise KeyError(piece.place)
        return self.index[piece.place]

    def hex(self, hex_id: str, what: str = "hex") -> int:
        """The number of hex ``hex_id``; BadInput naming the map's range when it is none."""
        try:
            return self.index[hex_id]
        except (KeyError, TypeError):
            first = self.names[0] if self.names else "?"
            last = self.names[-1] if self.names else "?"
            raise BadInput(f"{what} {quote(str(hex_id))} is not a hex of the map "
                           f"({first}..{last})") from None

    def step_cost(self, a: int, b: int) -> int | None:
        """MP to move from ``a`` into neighbour ``b`` by land: the hex's cost plus the
        hexside's (a road along both halves the way: its own cost instead); None if
        forbidden; ``ALL_MP`` when it takes all the MP left."""
        road = self.road_cost.get((a, b))
        if road is not None:
            return road
        enter = self.enter[b]
        if enter is None:
            return None
        extra = self.crossing.get((a, b), 0)
        if extra is None:
            return None
        if enter == ALL_MP:
            return ALL_MP
        return enter + extra

    def places(self, place: Place) -> frozenset[int]:
        """The hexes a ``Place`` names (before its owned / empty / supply filters); a place
        naming no edge, hex, feature or kind is every hex of the map."""
        if not (place.edge or place.hexes or place.features or place.kinds):
            return frozenset(range(len(self.names)))
        out: set[int] = set()
        if place.edge:
            out |= self.edges[place.edge]
        out |= {self.index[h] for h in place.hexes if h in self.index}
        for fid in place.features:
            out |= self.feature_hexes.get(fid, frozenset())
        for kind in place.kinds:
            out |= self.kind_hexes.get(kind, frozenset())
        return frozenset(out)

    def distance(self, a: int, b: int) -> int:
        ma, mb = self.map_of[a], self.map_of[b]
        if ma is not mb:
            return 10**6
        return grid_of(ma).distance(self.names[a], self.names[b])


def _hexes_of(feature: Feature) -> tuple[str, ...]:
    return tuple(feature.hexes) + tuple(str(h) for h in feature.get("path") or ())


def _cost(value: int | str | None, missing: int) -> int | None:
    """A terrain chart ``movement`` as an int, None (forbidden) or ``ALL_MP``."""
    if value is None:
        return missing
    if isinstance(value, str):
        word = value.strip().lower()
        if word in PROHIBITED:
            return None
        if word == ALL:
            return ALL_MP
        raise BadInput(f"terrain movement {quote(value)} is not a number, prohibited or all")
    return int(value)


def board_of(game: Game) -> Board:
    """The board of ``game``, computed once per game object."""
    hit = _BOARDS.get(id(game))
    if hit is None or hit[0] is not game:
        if not game.hex_maps:
            raise BadInput(f"game {game.id!r} has no hex map to play on")
        hit = _BOARDS[id(game)] = (game, Board(game))
    return hit[1]

"""The terrain effects chart and stacking limits read against a hex map.

A game's ``terrain`` section names, by the names its maps use, what a hex's terrain
(``clear``, ``forest``), a map feature in the hex (``city``) or a hexside between two hexes
(``river``) does: movement cost, combat column shift, defence and attack multipliers.
``stacking`` limits how many units or steps a hex holds. The combat query
(engine/combat.py), the data checks (verify/forms.py) and the printed chart
(components/charts.py) all read them through this module.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeVar

from .errors import BadInput
from .hexgrid import HexGrid
from .inputs import quote
from .model import Feature, Game, HexMap, StackingLimit, TerrainEffect

if TYPE_CHECKING:
    from .dice import Dice
    from .registry import Answer, RefTable

Owner = TypeVar("Owner")
Made = TypeVar("Made")

#: The terrain of a hex no terrain feature names, when the map gives none.
DEFAULT_TERRAIN = "clear"


def feature_terrain(feature: Feature) -> str | None:
    """The terrain a feature makes its hexes: ``kind: terrain`` + ``terrain:``, or island."""
    if feature.kind == "terrain":
        return str(feature.get("terrain") or DEFAULT_TERRAIN)
    return "island" if feature.kind == "island" else None


_MEMO: dict[tuple[str, int], tuple[Any, Any]] = {}


def _memo(kind: str, owner: Owner, make: Callable[[Owner], Made]) -> Made:
    """``make(owner)`` once per (frozen, unhashable) record: keyed by identity."""
    hit = _MEMO.get((kind, id(owner)))
    if hit is None or hit[0] is not owner:
        hit = _MEMO[(kind, id(owner))] = (owner, make(owner))
    made: Made = hit[1]  # what make(owner) gave for this kind
    return made


def hex_terrains(hex_map: HexMap) -> dict[str, str]:
    """Every hex of the map -> its terrain (the last terrain feature naming it wins)."""
    return _memo("terrain", hex_map, _hex_terrains)


def _hex_terrains(hex_map: HexMap) -> dict[str, str]:
    ground = dict.fromkeys(hex_map.hex_ids, hex_map.terrain or DEFAULT_TERRAIN)
    for feature in hex_map.features:
        name = feature_terrain(feature)
        if name is not None:
            for hex_id in feature.hexes:
                if hex_id in ground:
                    ground[hex_id] = name
    return ground


def hexside_pairs(feature: Feature) -> list[tuple[str, str]]:
    """``hexsides: ["0503/0504"]`` -> ``[("0503", "0504")]`` (malformed sides left out)."""
    sides = feature.get("hexsides") or ()
    out = []
    for side in sides if isinstance(sides, list | tuple) else (sides,):
        ends = str(side).split("/")
        if len(ends) == 2:
            out.append((ends[0], ends[1]))
    return out


def path_hexes(feature: Feature) -> list[str]:
    """A line feature's ``path: [hex, hex, ...]`` (a road, a railway), in order; [] for a
    feature without one."""
    path = feature.get("path") or ()
    return [str(h) for h in path] if isinstance(path, list | tuple) else [str(path)]


def grid_of(hex_map: HexMap) -> HexGrid:
    return _memo("grid", hex_map, _grid)


def _grid(hex_map: HexMap) -> HexGrid:
    return HexGrid(hex_map.columns.all_labels(), hex_map.rows.all_labels(), hex_map.hex_id,
                   hex_map.orientation, hex_map.offset)


@dataclass(frozen=True)
class MapNames:
    """The names a map gives that a terrain effects chart may describe."""

    terrains: frozenset[str]  # hex terrains (the map default included when a hex has it)
    hexsides: frozenset[str]  # kinds of hexside features (river, fortified-line)
    features: frozenset[str]  # kinds of features in hexes that are not terrain (city, town)
    lines: frozenset[str] = frozenset()  # kinds of line features with a path (road, railway)


def map_names(hex_map: HexMap) -> MapNames:
    hexsides = {f.kind for f in hex_map.features if f.get("hexsides")}
    features = {f.kind for f in hex_map.features
                if f.hexes and feature_terrain(f) is None and not f.get("hexsides")}
    lines = {f.kind for f in hex_map.features if f.get("path")}
    return MapNames(frozenset(hex_terrains(hex_map).values()), frozenset(hexsides),
                    frozenset(features), frozenset(lines))


def game_names(game: Game) -> MapNames:
    names = [map_names(m) for m in game.hex_maps]
    return MapNames(frozenset().union(*(n.terrains for n in names)),
                    frozenset().union(*(n.hexsides for n in names)),
                    frozenset().union(*(n.features for n in names)),
                    frozenset().union(*(n.lines for n in names)))


def effects(game: Game) -> dict[str, TerrainEffect]:
    return {entry.id: entry for entry in game.terrain}


def default_effect(game: Game) -> TerrainEffect | None:
    return next((entry for entry in game.terrain if entry.default), None)


def map_of(game: Game, hex_id: str, what: str) -> HexMap:
    """The hex map holding ``hex_id``; a hex on no map is bad input naming ``what``."""
    for hex_map in game.hex_maps:
        if hex_id in hex_map.hex_set:
            return hex_map
    if not game.hex_maps:
        raise BadInput(f"{what} {quote(hex_id)}: {game.id} has no hex map")
    first = game.hex_maps[0]
    raise BadInput(f"{what} {quote(hex_id)} is not a hex of the map "
                   f"({first.hex_ids[0]}..{first.hex_ids[-1]})")


@dataclass(frozen=True)
class Effect:
    """One chart entry that applies, and why (the terrain or hexside it comes from)."""

    entry: TerrainEffect
    why: str  # "forest", "city (Minsk)", "river between 0503 and 0504"


def hex_effects(game: Game, hex_map: HexMap, hex_id: str) -> list[Effect]:
    """The chart entries of a hex: its terrain (or the default entry), then every feature
    in it whose kind the chart lists."""
    chart = effects(game)
    out = []
    terrain = hex_terrains(hex_map)[hex_id]
    entry = chart.get(terrain) or default_effect(game)
    if entry is not None:
        out.append(Effect(entry, terrain if entry.id == terrain else
                          f"{terrain} (as {entry.id})"))
    for feature in hex_map.features:
        if hex_id in feature.hexes and feature.kind in chart and feature_terrain(feature) is None:
            named = feature.name or feature.label or feature.id
            out.append(Effect(chart[feature.kind],
                              f"{feature.kind} ({named})" if named else feature.kind))
    return out


def hexside_effects(game: Game, hex_map: HexMap, a: str, b: str) -> list[Effect]:
    """The chart entries of the hexside between ``a`` and ``b`` (every hexside feature on it
    whose kind the chart lists)."""
    chart = effects(game)
    out = []
    for feature in hex_map.features:
        if feature.kind not in chart:
            continue
        for x, y in hexside_pairs(feature):
            if {x, y} == {a, b}:
                out.append(Effect(chart[feature.kind], f"{feature.kind} between {a} and {b}"))
                break
    return out


# --- stacking --------------------------------------------------------------------------


def stacking_limit(game: Game, hex_map: HexMap, hex_id: str,
                   side: str | None = None) -> StackingLimit | None:
    """The limit of a hex: one naming the hex's terrain wins over one for every hex; a
    limit for one side applies to that side's units only."""
    terrain = hex_terrains(hex_map)[hex_id]
    fitting = [s for s in game.stacking if s.side in (None, side)]
    named = [s for s in fitting if terrain in s.terrain]
    if named:
        return named[0]
    return next((s for s in fitting if not s.terrain), None)


def limits_for_sides(game: Game) -> Iterator[str | None]:
    """The sides stacking limits are kept for: None (every unit) and each side named."""
    yield None
    yield from dict.fromkeys(s.side for s in game.stacking if s.side)


# --- the terrain table: what a hex (and a hexside crossed into it) does -------------------


def terrain_ref_table(game: Game) -> RefTable:
    """``lookup GAME terrain hex=0504 from=0404``: the chart's entries for the hex and the
    hexside crossed, the movement cost to enter and the combat effects, with their rules."""
    from .registry import Input, RefTable

    inputs = (Input("hex", "text", help="the hex entered or attacked"),
              Input("from", "text", help="the hex next to it a unit comes from (hexsides)",
                    default=None))

    def resolve(game_: Game, args: dict[str, Any], dice: Dice) -> Answer:
        return terrain_answer(game, args["hex"], args.get("from"))

    return RefTable(name="terrain", summary="Terrain effects of a hex (and a hexside crossed)",
                    rules=tuple(r for e in game.terrain for r in e.rule)[:1], inputs=inputs,
                    results=("terrain", "movement", "shift", "defence", "attack"),
                    resolve=resolve, whole_text=True)


def terrain_answer(game: Game, hex_id: str, from_hex: str | None) -> Answer:
    from .registry import Answer

    hex_map = map_of(game, hex_id, "hex")
    here = hex_effects(game, hex_map, hex_id)
    crossed: list[Effect] = []
    if from_hex is not None:
        if from_hex not in hex_map.hex_set or grid_of(hex_map).distance(from_hex, hex_id) != 1:
            raise BadInput(f"from={quote(from_hex)} is not a hex next to {quote(hex_id)}")
        crossed = hexside_effects(game, hex_map, from_hex, hex_id)
    terrain = hex_terrains(hex_map)[hex_id]
    cost, cost_lines = movement_cost(here, crossed)
    shift = sum(e.entry.shift for e in here) + sum(e.entry.shift for e in crossed)
    defence = Fraction(1)
    for e in here:
        if e.entry.defence is not None:
            defence *= Fraction(str(e.entry.defence))
    attack = Fraction(1)
    for e in crossed:
        if e.entry.attack is not None:
            attack *= Fraction(str(e.entry.attack))
    lines = [*cost_lines]
    rules: list[str] = []
    for e in (*here, *crossed):
        rules.extend(e.entry.rule)
        bits = [f"{e.entry.shift:+d} column" if e.entry.shift else "",
                f"defence x{_num(e.entry.defence)}" if e.entry.defence is not None else "",
                f"attack x{_num(e.entry.attack)} across" if e.entry.attack is not None else ""]
        bits = [b for b in bits if b]
        if bits:
            lines.append(f"{e.why}: {', '.join(bits)} [{', '.join(e.entry.rule) or 'assumed'}]")
    if not here:
        lines.append(f"{terrain}: no entry in the terrain effects chart")
    result = {"terrain": terrain, "movement": cost, "shift": shift,
              "defence": _num(defence), "attack": _num(attack),
              "effects": [{"from": e.why, "entry": e.entry.id, "rules": list(e.entry.rule)}
                          for e in (*here, *crossed)]}
    text = f"{hex_id}: {terrain}" + "".join(f"\n  {line}" for line in lines)
    return Answer(result=result, rules=tuple(dict.fromkeys(rules)), text=text)


def movement_cost(here: list[Effect], crossed: list[Effect]) -> tuple[Any, list[str]]:
    """MP to enter: the hex terrain's ``movement``, a feature's in the hex replacing it,
    plus each hexside crossed; a word (``prohibited``) wins over numbers."""
    cost: Any = None
    lines = []
    for e in here:
        if e.entry.movement is not None:
            instead = ", in place of the terrain's" if cost is not None else ""
            cost = e.entry.movement
            lines.append(f"enter: {e.entry.movement}{' MP' if isinstance(cost, int) else ''} "
                         f"({e.why}{instead}) [{', '.join(e.entry.rule) or 'assumed'}]")
    for e in crossed:
        extra = e.entry.movement
        if extra is None:
            continue
        if isinstance(extra, str) or isinstance(cost, str):
            cost = extra if isinstance(extra, str) else cost
        else:
            cost = (cost or 0) + extra
        lines.append(f"cross {e.why}: {'+' if isinstance(extra, int) else ''}{extra}"
                     f"{' MP' if isinstance(extra, int) else ''} "
                     f"[{', '.join(e.entry.rule) or 'assumed'}]")
    if cost is not None:
        lines.insert(0, f"movement cost {cost}{' MP' if isinstance(cost, int) else ''}")
    return cost, lines


def _num(value: object) -> int | float:
    frac = Fraction(str(value))
    return int(frac) if frac.denominator == 1 else round(float(frac), 3)

"""Charts of the data forms on play aids: the terrain effects chart and the stacking limits.

A sheet lists them in ``charts: [terrain, stacking]``. The terrain chart prints each entry
of the game's ``terrain`` section with the look the map gives it (the swatch of the map's
legend: ``hexmap.terrain_swatch``, ``hexside_swatch``, ``point_symbol``), its movement
cost and its combat effects, each with its rule: the values the combat query reads.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from fractions import Fraction

from ..engine.errors import BadInput
from ..engine.model import Feature, Game, PlayRules, TerrainEffect, Track, Value, VictoryCondition
from ..engine.terrain import game_names
from ..engine.text import rules_text
from .aids import (
    BODY,
    CELL,
    HEAD,
    LEADING,
    SMALL,
    Block,
    bulleted,
    heading,
    number_text,
    text_lines,
)
from .fonts import text_width, wrap
from .hexmap import (
    POINT_KINDS,
    feature_swatch,
    hexside_swatch,
    path_swatch,
    point_symbol,
    terrain_looks,
    terrain_swatch,
)
from .marks import dagger
from .primitives import Group, Primitive, Rect, Text

SWATCH_W = 14.0  # mm: the column of swatches (a 10x6 mm swatch and its margins)
ROW_MIN = 8.0  # mm: a row holds a swatch
PAD = 1.2


def chart_blocks(game: Game, chart: str, width: float) -> Iterator[Block]:
    """The chart ``chart`` (a name of ``Sheet.charts``) as blocks."""
    if chart == "terrain":
        yield from terrain_chart(game, width)
    elif chart == "stacking":
        yield from stacking_chart(game, width)
    elif chart == "play":
        yield from play_chart(game, width)


def _times(value: float) -> str:
    frac = Fraction(str(value))
    return f"x{frac.numerator}" if frac.denominator == 1 else f"x{frac}"


def movement_text(entry: TerrainEffect, hexside: bool) -> str:
    if entry.movement is None:
        return "–"
    if isinstance(entry.movement, str):
        return entry.movement
    if hexside:
        return f"+{entry.movement} MP to cross" if entry.movement else "no extra MP"
    return f"{entry.movement} MP"


def combat_text(entry: TerrainEffect, hexside: bool) -> str:
    parts = []
    if entry.shift:
        column = "column" if abs(entry.shift) == 1 else "columns"
        parts.append(f"{number_text(str(entry.shift), sign=True)} {column}" + (
            " if every attacker attacks across"
            if hexside else ""))
    if entry.defence is not None:
        parts.append(f"defence {_times(entry.defence)}")
    if entry.attack is not None:
        parts.append(f"attack {_times(entry.attack)} for a unit attacking across")
    if parts and entry.side is not None:
        parts.append(f"for {entry.side} defenders only")
    return "; ".join(parts) or "no effect"


def _in_hex_swatch(game: Game, kind: str) -> list[Primitive]:
    """How a feature kind in a hex looks on the map: its point symbol (city, town, ...), or
    the outline the map draws for the first feature of that kind."""
    if kind in POINT_KINDS:
        return point_symbol(kind, 5, 3, 5.0)
    for hex_map in game.hex_maps:
        for feature in hex_map.features:
            if feature.kind == kind and feature.hexes:
                return feature_swatch(feature, hex_map)
    return []


def _drawn_feature(game: Game, kind: str, key: str) -> Feature | None:
    """The first map feature of ``kind`` that has ``key`` (hexsides, path): the chart shows
    its colour and line, as the map does."""
    for hex_map in game.hex_maps:
        for feature in hex_map.features:
            if feature.kind == kind and feature.get(key):
                return feature
    return None


def terrain_chart(game: Game, width: float) -> Iterator[Block]:
    """One row per chart entry: swatch, name, movement, combat, rule."""
    if not game.terrain:
        return
    yield heading("Terrain effects chart", width, 3.6)
    names = game_names(game)
    looks = terrain_looks(game)
    rows = []
    for entry in game.terrain:
        hexside = entry.id in names.hexsides
        if hexside:
            swatch = hexside_swatch(entry.id, _drawn_feature(game, entry.id, "hexsides"))
            kind = "hexside"
        elif entry.id in names.lines:
            swatch = path_swatch(entry.id, _drawn_feature(game, entry.id, "path"))
            kind = "line"
        elif entry.id in names.features and entry.id not in names.terrains:
            swatch = _in_hex_swatch(game, entry.id)
            kind = "in the hex"
        else:
            look = looks.get(entry.id)
            swatch = terrain_swatch(look) if look is not None else []
            kind = "any terrain without a line" if entry.default else ""
        shown_look = None if hexside else looks.get(entry.id)
        name = entry.name or (shown_look.label if shown_look else entry.id)
        label = f"{name} ({kind})" if kind else str(name)
        moves = (f"{entry.movement} MP a hex along it"
                 if kind == "line" and isinstance(entry.movement, int) else
                 movement_text(entry, hexside))
        rows.append((swatch, [label, moves, combat_text(entry, hexside)
                              + dagger(entry.is_assumed), rules_text(entry.rule) or "–"]))
    yield _table(["Terrain", "Movement", "Combat", "Rule"], rows, width)


def _table(header: list[str], rows: list[tuple[list[Primitive], list[str]]],
           width: float) -> Block:
    """Ruled rows: a swatch column, then text columns as wide as their text, the widest
    (combat) wrapped to what is left of ``width``."""
    columns = list(zip(header, *(cells for _s, cells in rows), strict=True))
    natural = [max(text_width(t, BODY) for t in col) + 2 * PAD for col in columns]
    room = width - SWATCH_W - sum(natural) + max(natural)
    widths = [min(w, max(room, 30.0)) if w == max(natural) else w for w in natural]
    items: list[Primitive] = []
    y = _row(items, None, header, widths, 0.0, head=True)
    for swatch, cells in rows:
        y = _row(items, swatch, cells, widths, y)
    return Block(tuple(items), y + 2.0, id="chart-terrain", cls="chart terrain-chart",
                 width=SWATCH_W + sum(widths))


def _row(items: list[Primitive], swatch: list[Primitive] | None, cells: list[str],
         widths: list[float], y: float, head: bool = False) -> float:
    wrapped = [wrap(text, BODY, w - 2 * PAD) for text, w in zip(cells, widths, strict=True)]
    lines = max(len(w) for w in wrapped)
    h = max(ROW_MIN if not head else 0.0, lines * BODY * LEADING + BODY * 0.6)
    style = HEAD if head else CELL
    items.append(Rect(0, y, SWATCH_W, h, style))
    if swatch:
        items.append(Group(tuple(swatch), dx=2.0, dy=y + (h - 6.0) / 2, cls="chart-swatch"))
    x = SWATCH_W
    for text_rows, w in zip(wrapped, widths, strict=True):
        items.append(Rect(x, y, w, h, style))
        top = y + (h - len(text_rows) * BODY * LEADING) / 2
        for j, line in enumerate(text_rows):
            items.append(Text(x + PAD, top + BODY * 1.0 + j * BODY * LEADING, line, size=BODY,
                              bold=head))
        x += w
    return y + h


#: when the stacking limits hold in play (``play.stacking.when``), as the chart says it
STACKING_WHEN = {"move": ", even passing through", "end-of-move": " at the end of a move",
                 "end-of-phase": " at the end of a phase"}


def _when(game: Game) -> str:
    return STACKING_WHEN[game.play.stacking.when] if game.play is not None else ""


def stacking_chart(game: Game, width: float) -> Iterator[Block]:
    """The stacking limits, one line each with its rule, led by a bold "Stacking" (a line,
    as the terrain chart's caption is: it costs no heading's room on the aid)."""
    if not game.stacking:
        return
    size = SMALL * 1.1
    lead = "Stacking:  "
    indent = text_width(lead, size)
    items: list[Primitive] = [Text(0, size, lead.rstrip(), size=size, bold=True)]
    y = 0.0
    for limit in game.stacking:
        where = ("in " + ", ".join(limit.terrain) + " hexes" if limit.terrain
                 else "in a hex")
        whose = f" ({limit.side})" if limit.side else ""
        text = (f"At most {limit.limit} {limit.of if limit.limit != 1 else limit.of[:-1]}"
                f"{whose} {where}{_when(game)}{dagger(limit.is_assumed)}  "
                f"[{rules_text(limit.rule) or '–'}]")
        lines, used = text_lines(text, indent, y, size, width - indent)
        items.extend(lines)
        y += used
    yield Block(tuple(items), y + 2.0, id="chart-stacking", cls="chart stacking-chart")


# --- how a session plays: zones of control, retreats, results, victory ---------------------

ZOC_TEXT = {
    "none": "No zones of control.",
    "stop": "A unit that enters a hex next to an enemy unit (its zone of control) stops there.",
    "locking": "A unit that enters a hex next to an enemy unit (its zone of control) stops "
               "there; one that starts there leaves only by retreat or advance.",
}
CHOOSER = {"owner": "its owner", "enemy": "the enemy"}
BLOCKED = {"enemy-units": "enemy units", "enemy-zoc": "enemy ZOC",
           "prohibited": "prohibited terrain"}
OVERSTACK = {"extend": "past a full hex it goes on", "allowed": "it may end overstacked",
             "eliminate": "a unit that would end overstacked is eliminated"}


def _line(text: str, rule: Iterable[str]) -> str:
    return f"{text}  [{rules_text(rule) or '–'}]"


def zoc_text(game: Game) -> str:
    """The zones of control as a player reads them, from ``play.zoc`` (what a session plays)."""
    zoc = _play(game).zoc
    text = ZOC_TEXT[zoc.kind]
    if zoc.kind != "none" and zoc.leave_cost:
        text += f" Leaving one costs {zoc.leave_cost} MP more."
    if zoc.kind != "none" and zoc.hexsides:
        text += f" Not across {', '.join(zoc.hexsides)} hexsides."
    return text


def retreat_text(game: Game) -> str:
    retreat = _play(game).retreat
    blocked = ", ".join(BLOCKED[b] for b in retreat.blocked)
    return (f"Retreat: {CHOOSER[retreat.chooser]} picks the path, each hex farther from the "
            f"battle, not into {blocked}; {OVERSTACK[retreat.overstack]}; a unit that cannot "
            f"retreat is eliminated.")


def play_chart(game: Game, width: float) -> Iterator[Block]:
    """The turn, how the game is won, zones of control, retreats and advances: the sequence,
    the victory conditions and the switches a session plays by (``play``), one line each
    with its rule (the CRT's legend says what each result does)."""
    lines = [*_turn_lines(game), *_victory_lines(game), *_play_lines(game)]
    if lines:
        yield heading("Turn, victory, zones of control and retreat", width, 3.6)
        yield from _lines_block(lines, width, "chart-play", "chart play-chart")


def _play(game: Game) -> PlayRules:
    if game.play is None:
        raise BadInput(f"game {game.id!r} has no play rules")
    return game.play


def _turn_lines(game: Game) -> list[str]:
    """The sequence of play in one line: the phases a session runs, in order."""
    if not game.sequence:
        return []
    phases = sorted(game.sequence, key=lambda p: p.order or 0)
    rules = sorted({r for p in phases for r in p.rule[:1]})
    return [_line("Turn: " + " → ".join(p.label for p in phases), rules)]


def _play_lines(game: Game) -> list[str]:
    play = game.play
    if play is None:
        return []
    retreat = retreat_text(game)
    if play.advance is not None:
        units = (f"up to {play.advance.units} attacking unit" + ("s" if play.advance.units != 1
                                                                 else "")
                 if play.advance.units else "attacking units, as stacking allows")
        retreat += f" Advance: {units} may enter the emptied hex."
    rules = [*play.retreat.rule, *(play.advance.rule if play.advance else ())]
    return [_line(zoc_text(game), play.zoc.rule), _line(retreat, rules)]


def _victory_lines(game: Game) -> list[str]:
    """Each victory condition: when it is checked (the turns the session plays) and what it
    asks, with the places it names."""
    names = {f.id: f.name or f.label or f.id for m in game.hex_maps for f in m.features if f.id}
    lines = []
    for condition in game.victory:
        places = [names.get(f, f) for f in condition.features]
        where = f" ({', '.join(places)})" if places else ""
        text = (f"Victory: {condition.label}{where}, {_checked(game, condition)}: "
                f"{condition.condition or ''}").rstrip(": ")
        lines.append(_line(text + dagger(condition.is_assumed), condition.rule))
    return lines


def _checked(game: Game, condition: VictoryCondition) -> str:
    """When a condition is checked, from the turns the session plays (the turn track)."""
    last = _last_turn(game)
    if condition.turns:
        return "at the end of turn " + ", ".join(map(str, condition.turns))
    if condition.at == "end":
        return f"at the end of the game (turn {last})" if last is not None else "at the end"
    return "at the end of every turn" if condition.at == "turn-end" else "after every phase"


def _last_turn(game: Game) -> Value:
    turns = game.play.turns if game.play is not None else None
    if turns is None:
        return None
    if turns.track:
        return game.record("tracks", turns.track, Track).values[-1]
    return turns.count


def _lines_block(lines: list[str], width: float, block_id: str, cls: str) -> Iterator[Block]:
    items: list[Primitive] = []
    y = 0.0
    for line in lines:
        more, used = text_lines(bulleted(line), 0, y, SMALL * 1.1, width, dash=True)
        items.extend(more)
        y += used
    yield Block(tuple(items), y + 2.0, id=block_id, cls=cls)

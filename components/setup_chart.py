"""The set-up as published games print it: an order of battle of counter images.

Each scenario's set-up and reinforcements become a chart grouped by side and by turn of
arrival ("At start", "Turn 4"): under a heading per group, one cell per place (a hex, an
area, a box, a track box, an entry), its counters side by side and the place under them;
alike counters are drawn once with "×3" beside them. Every counter is drawn by the code
that draws it on the counter sheets (``pieces.counter_image``, or the function a game's
``kit.py`` registers with ``registry.counter_face``), at its own size: a chart never
prints a counter's text smaller than the sheets do.

Where the data says it: a ``setup`` placement's ``hex:``, its ``where:`` (a hex, a point
or area, a display box, a track box, a pool such as ``reserve``), a unit placed on the
turn track (``track: TURN-TRACK, where: "4"``: it arrives on Turn 4), and each
``reinforcements`` record (its ``turn``, the places ``at`` or the pool ``to``). A game
whose scenarios are not in the set-up data (Nightfighter's scenario files) builds its
``Order`` itself and draws it with ``order_blocks``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace

from ..engine.model import (
    Display,
    Game,
    Marker,
    Place,
    Placement,
    Reinforcement,
    SetupItem,
    Track,
    Unit,
)
from ..engine.play.setup import scenario_names
from .aids import Block, bullets, heading, readable
from .counters import counter_size
from .fonts import text_width
from .legibility import MIN_MM, fit_lines, scaled
from .marks import dagger
from .pieces import counter_image
from .primitives import Group, Polygon, Primitive, Rect, Style, Text
from .registry import counter_face
from .style import side_colour

#: a chart cell: (its items, width, height)
Cell = tuple[tuple[Primitive, ...], float, float]

#: mm: the place under a cell (6 pt), its line pitch, the "×3" beside a counter (9 pt).
PLACE, PITCH, TIMES = 2.1, 1.25, 3.2
#: mm: between counters of a cell, between cells, between rows of cells.
COUNTER_GAP, CELL_GAP, ROW_GAP = 1.2, 4.0, 2.5
#: mm: the widest a cell grows for its place's words; the lines a place may take.
CELL_MOST, PLACE_LINES = 38.0, 3
#: mm: the group heading (side and turn) and its height; the panel's margin; the tallest
#: panel before a group goes on in another (so that a long group flows across pages).
GROUP_HEAD, GROUP_HEAD_H = 3.2, 6.0
INSET, PANEL_MOST = 1.5, 110.0
AT_START = "At start"
#: mm under the counters to the bracket that ties a cell's counters to its place.
BRACKET = 1.2
BRACKET_LINE = Style(stroke="#888888", width=0.25)


@dataclass(frozen=True)
class Entry:
    """Counters of one kind in a cell: ``count`` of ``record`` (a unit or a marker), on its
    reduced side (or a marker's back) when ``reduced``; ``side`` colours a unit of no side."""

    record: Unit | Marker
    count: int = 1
    side: str | None = None
    reduced: bool = False
    copy: str | None = None  # which counter of the unit, where its copies differ (an id)


@dataclass(frozen=True)
class Spot:
    """A cell of the chart: a place and what starts (or arrives) there."""

    place: str
    entries: tuple[Entry, ...]


@dataclass(frozen=True)
class Arrival:
    """A group of the chart: one side's counters at start (``turn`` None) or on a turn."""

    side: str | None
    turn: int | None
    spots: tuple[Spot, ...]


@dataclass(frozen=True)
class Order:
    """One scenario's order of battle."""

    scenario: str
    title: str
    arrivals: tuple[Arrival, ...]
    notes: tuple[str, ...] = ()  # what the set-up says that no counter shows (cards, IPC)
    drawer: Callable[[Entry], tuple[Primitive, ...]] | None = field(default=None,
                                                                     compare=False)


# --- from the data -----------------------------------------------------------------------


def orders(game: Game) -> list[Order]:
    """The order of battle of every scenario whose set-up places a counter (or brings one
    as a reinforcement), in the order the data names the scenarios."""
    names = scenario_names(game)
    out = []
    for name in names:
        arrivals = scenario_arrivals(game, name)
        if arrivals:
            title = ("Set-up" if len(names) == 1 else f"Set-up: {scenario_title(name)}")
            if any(a.turn is not None for a in arrivals):
                title = title.replace("Set-up", "Set-up and reinforcements", 1)
            out.append(Order(name, title, tuple(arrivals), scenario_notes(game, name)))
    return out


#: A scenario name whose set-up records belong to every scenario, as no name does.
EVERY = "all"


def _of(item: SetupItem, scenario: str) -> bool:
    """Whether a set-up record belongs to ``scenario``'s chart: records of no scenario go
    with every scenario; those of ``all`` make a chart of their own."""
    return item.scenario == scenario or (item.scenario is None and scenario != EVERY)


def scenario_notes(game: Game, scenario: str) -> tuple[str, ...]:
    """The words of the scenario's set-up records that place no counter (cards, points)."""
    return tuple(item.text for item in game.setup if _of(item, scenario) and item.text
                 and not any(_record(game, p) is not None for p in item.place))


def scenario_title(name: str) -> str:
    """A scenario's printed name: ``standard`` -> ``Standard game``, ``1942`` -> ``1942``."""
    if name == EVERY:
        return "every scenario"
    return "Standard game" if name == "standard" else readable(name)


def scenario_arrivals(game: Game, scenario: str) -> list[Arrival]:
    """The groups of one scenario: its set-up records (and those of every scenario), then
    the reinforcements, grouped by side and turn (at start first, then by turn)."""
    cells: dict[tuple[str | None, int | None], dict[str, list[Entry]]] = {}
    for item in game.setup:
        if not _of(item, scenario):
            continue
        for place in item.place:
            found = placement_entry(game, item, place)
            if found is not None:
                key, where, entry = found
                cells.setdefault(key, {}).setdefault(where, []).append(entry)
    for record in game.reinforcements:
        for key, where, entry in reinforcement_entries(game, record):
            cells.setdefault(key, {}).setdefault(where, []).append(entry)
    sides = [None, *(s.id for s in game.info.sides)]
    order = sorted(cells, key=lambda k: (k[1] or 0, sides.index(k[0]) if k[0] in sides
                                         else len(sides)))
    return [Arrival(side, turn, tuple(Spot(where, merged(entries))
                                      for where, entries in cells[side, turn].items()))
            for side, turn in order]


def merged(entries: Iterable[Entry]) -> tuple[Entry, ...]:
    """Alike entries of a cell counted together (first seen first)."""
    counts: dict[tuple[str, str, str | None, bool, str | None], Entry] = {}
    for e in entries:
        key = (e.record.id, type(e.record).__name__, e.side, e.reduced, e.copy)
        seen = counts.get(key)
        counts[key] = e if seen is None else replace(e, count=seen.count + e.count)
    return tuple(counts.values())


def placement_entry(game: Game, item: SetupItem, place: Placement
                    ) -> tuple[tuple[str | None, int | None], str, Entry] | None:
    """(side and turn, place, entry) of one placement of a unit or marker; None for a card
    or a deck."""
    record = _record(game, place)
    if record is None:
        return None
    side = getattr(record, "side", None) or item.side
    full = getattr(record, "steps", None) or 1
    reduced = (place.steps is not None and place.steps < full) or place.get("face") is not None
    turn = arrival_turn(game, place, record)
    entry = Entry(record, place.count if place.count is not None else 1, side, reduced)
    assumed = item.field_assumed("place") or place.is_assumed or bool(place.assumed)
    return (side, turn), place_words(game, place) + dagger(assumed), entry


def _record(game: Game, place: Placement) -> Unit | Marker | None:
    if place.unit is not None:
        return next((u for u in game.units if u.id == place.unit), None)
    if place.marker is not None:
        return next((m for m in game.markers if m.id == place.marker), None)
    return None


def turn_track(game: Game) -> str | None:
    """The track that counts the turns: ``play.turns.track``, else a track named ``turn``."""
    if game.play is not None and game.play.turns.track:
        return game.play.turns.track
    return "turn" if any(t.id == "turn" for t in game.tracks) else None


def arrival_turn(game: Game, place: Placement, record: Unit | Marker) -> int | None:
    """The turn a unit placed on the turn track arrives on (a published game's "place it on
    the turn track"); None for everything at start (a marker on a track is at start)."""
    track = place.get("track")
    if not isinstance(record, Unit) or track is None or str(track) != turn_track(game):
        return None
    try:
        return int(str(place.where))
    except ValueError:
        return None


def reinforcement_entries(game: Game, record: Reinforcement
                          ) -> Iterator[tuple[tuple[str | None, int | None], str, Entry]]:
    """(side and turn, place, entry) for each unit a reinforcement record brings."""
    where = arrival_words(game, record)
    for unit_id in record.units:
        unit = next((u for u in game.units if u.id == unit_id), None)
        if unit is None:
            continue
        full = unit.steps or 1
        reduced = record.steps is not None and record.steps < full
        yield (unit.side, record.turn), where, Entry(unit, 1, unit.side, reduced)


def arrival_words(game: Game, record: Reinforcement) -> str:
    """Where reinforcements arrive: the pool ``to``, else the places ``at`` in words."""
    if record.to:
        return place_name(game, record.to)
    return " or ".join(_place_rule_words(game, p) for p in record.at) or "Off the map"


def _place_rule_words(game: Game, place: Place) -> str:
    parts = []
    if place.edge:
        parts.append(f"{place.edge} edge")
    parts.extend(place.hexes)
    parts.extend(place_name(game, f) for f in place.features)
    parts.extend(f"any {k}" for k in place.kinds)
    words = ", ".join(parts) or "any hex"
    if place.owned:
        words += ", own"
    if place.empty:
        words += ", empty"
    return words[:1].upper() + words[1:]


def place_words(game: Game, place: Placement) -> str:
    """A placement's place as a player reads it under a counter: a hex id, an area's, a
    box's or a point's name, a track box, hexes to enter, or the data's own words."""
    hexes = place.get("hexes")
    if hexes:
        listed = [str(h) for h in hexes]
        return "Enters " + (", ".join(listed[:-1]) + " or " + listed[-1] if len(listed) > 1
                            else listed[0])
    if place.hex is not None:
        return str(place.hex)
    track = place.get("track") or (place.marker if any(t.id == place.marker
                                                        for t in game.tracks) else None)
    if track is not None and " " in str(place.where):  # "game-turn track box 1"
        return _words(game, str(place.where), None)
    if track is not None:
        return track_words(game, str(track), place.where)
    where = "" if place.where is None else str(place.where)
    per = place.per
    display = str(place.get("display") or "") or None
    if not where or where == per:
        return place_name(game, per) if per else "Off the map"
    if per and where.startswith(f"{per} ") and " or " in where:
        return place_name(game, per)  # "akagi deck, akagi hangar or cardiv1 CAP": Akagi
    if " " in where:  # the data's own words, a box id in them named
        return _words(game, where, display)
    return place_name(game, where, display=display, per=per)


def _words(game: Game, text: str, display: str | None) -> str:
    """Free words of the data as printed: a box id among them by its name, else the box's
    display named first (``2 runway boxes`` of the Midway base)."""
    boxes = {b.id: b.name for d in game.displays if d.id == display for b in d.boxes
             if b.name and "-" in b.id}  # an id, not a plain word such as "hangar"
    words = [boxes.get(w.strip(","), w) + ("," if w.endswith(",") and w.strip(",") in boxes
                                            else "") for w in text.split(" ")]
    out = " ".join(words)
    if display and not any(w.strip(",") in boxes for w in text.split(" ")):
        out = f"{place_name(game, display)}: {out}"
    return out[:1].upper() + out[1:]


def track_words(game: Game, track_id: str, where: object) -> str:
    """A track box: ``Turn record track: 1``."""
    track = next((t for t in game.tracks if t.id == track_id), None)
    name = track.name if track is not None and track.name else readable(track_id)
    return f"{name}: {where}"


def place_name(game: Game, word: str, display: str | None = None, per: str | None = None
               ) -> str:
    """The printed name of a place id: a point or area, a display box (of ``display``
    first), a display, a map feature, a hex, a unit (a carrier a box belongs to); else the
    word itself, made readable."""
    for lookup in (_point, _box(display, per), _display, _feature, _unit, _track):
        name = lookup(game, word)
        if name:
            return name
    if any(word in m.hex_set for m in game.hex_maps):
        return word
    if word == "eliminated":
        return "Eliminated"
    if word == "off-map":
        return "Off the map"
    if per and word.startswith(f"{per}-"):  # "hiryu-deck-front" of Hiryu
        return f"{place_name(game, per)} {readable(word[len(per) + 1:], capital=False)}"
    if per:  # "beside-carrier" of Lexington
        return f"{place_name(game, per)} ({readable(word, capital=False)})"
    return word[:1].upper() + word[1:] if " " in word else readable(word)


def _point(game: Game, word: str) -> str | None:
    for point_map in game.point_maps:
        for point in point_map.points:
            if point.id == word:
                return point.label
    return None


def _box(display_id: str | None, per: str | None) -> Callable[[Game, str], str | None]:
    def lookup(game: Game, word: str) -> str | None:
        displays = sorted(game.displays, key=lambda d: d.id != display_id)
        for display in displays:
            for box in display.boxes:
                if box.id != word or not box.name:
                    continue
                if display.id == display_id and not word.startswith(
                        (display_id.split("-")[0], *((per,) if per else ()))):
                    return f"{short_name(display)} {box.label}"  # CarDiv2 CAP box
                return box.label
        return None
    return lookup


def short_name(record: Display | Track) -> str:
    """A record's name to its first bracket: ``CarDiv2 (2nd Carrier Division)`` -> CarDiv2."""
    return (record.name or readable(record.id)).split(" (", 1)[0]


def _display(game: Game, word: str) -> str | None:
    found = next((d for d in game.displays if d.id == word), None)
    return found.label if found is not None and found.name else None


def _feature(game: Game, word: str) -> str | None:
    for hex_map in game.hex_maps:
        for feature in hex_map.features:
            if feature.id == word and feature.name:
                return feature.name
    return None


def _track(game: Game, word: str) -> str | None:
    found = next((t for t in game.tracks if t.id == word), None)
    return short_name(found) if found is not None else None


def _unit(game: Game, word: str) -> str | None:
    found = next((u for u in game.units if u.id == word), None)
    return found.name if found is not None and found.name else None


# --- drawing -----------------------------------------------------------------------------


def drawer_of(game: Game) -> Callable[[Entry], tuple[Primitive, ...]]:
    """How the chart draws an entry's counter: the game's registered counter face, else the
    counter sheets' own drawing (``pieces.counter_image``)."""
    own = counter_face(game)

    def draw_entry(entry: Entry) -> tuple[Primitive, ...]:
        if own is not None:
            drawn = own(game, entry.record, entry.side, entry.reduced)
            if drawn is not None:
                return scaled(drawn)
        return counter_image(game, entry.record, side=entry.side, reduced=entry.reduced)
    return draw_entry


def side_words(game: Game, side: str | None) -> str:
    """A group's side: its name (and Japanese name); "Both sides" for what is no side's."""
    found = next((s for s in game.info.sides if s.id == side), None)
    if found is None:
        return "Both sides" if side is None else readable(side)
    return found.label


def turn_words(turn: int | None) -> str:
    return AT_START if turn is None else f"Turn {turn}"


def order_blocks(game: Game, order: Order, width: float) -> list[Block]:
    """An order of battle as blocks: its title, then a panel per group (tinted in the side's
    colour, its heading on top, its cells in rows); a group taller than ``PANEL_MOST`` goes
    a few rows a block, so that it flows on to the next page (the heading with the first)."""
    draw_entry = order.drawer or drawer_of(game)
    blocks = [replace(heading(order.title, width, 4.2), whole=True)]
    for arrival in order.arrivals:
        cells = [_cell(game, spot, draw_entry, width - 2 * INSET) for spot in arrival.spots]
        tint = _tint(side_colour(game, arrival.side))
        for i, rows in enumerate(_panels(_rows(cells, width - 2 * INSET))):
            items: list[Primitive] = list(_group_head(game, arrival, continued=i > 0))
            y = INSET + GROUP_HEAD_H
            for row in rows:
                x = INSET
                for cell_items, w, _h in row:
                    items.append(Group(cell_items, dx=x, dy=y, cls="setup-cell"))
                    x += w + CELL_GAP
                y += max(h for _items, _w, h in row) + ROW_GAP
            height = y - ROW_GAP + INSET
            items.insert(0, Rect(0, 0, width, height, Style(fill=tint, stroke=None),
                                 cls="setup-panel"))
            blocks.append(Block(tuple(items), height, id=_block_id(order, arrival, i),
                                cls="setup-chart"))
    if order.notes:
        blocks.append(replace(bullets(order.notes, width), id=f"setup-{order.scenario}-notes"))
    return blocks


def _panels(rows: list[list[Cell]], most: float | None = None) -> list[list[list[Cell]]]:
    """Rows gathered into as few panels as keep each under ``PANEL_MOST`` mm, the rows
    shared out evenly among them (no panel of one row left over)."""
    most = PANEL_MOST if most is None else most
    height = sum(max(c[2] for c in row) + ROW_GAP for row in rows)
    count = min(len(rows), max(1, math.ceil(height / (most - GROUP_HEAD_H))))
    share = math.ceil(len(rows) / count)
    return [rows[i:i + share] for i in range(0, len(rows), share)]


def _tint(colour: str, share: float = 0.86) -> str:
    """``colour`` mixed with white: the ground of a side's panel, under its counters."""
    rgb = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(c + (255 - c) * share):02x}" for c in rgb)


def _block_id(order: Order, arrival: Arrival, row: int) -> str:
    return (f"setup-{order.scenario}-{arrival.side or 'all'}-"
            f"{'start' if arrival.turn is None else arrival.turn}-{row + 1}")


def _group_head(game: Game, arrival: Arrival, continued: bool = False
                ) -> tuple[Primitive, ...]:
    colour = side_colour(game, arrival.side)
    text = (f"{side_words(game, arrival.side)} · {turn_words(arrival.turn)}"
            + (" (continued)" if continued else ""))
    return (Rect(INSET, INSET + 0.8, 3.4, 3.4, Style(fill=colour, stroke="#555555", width=0.2),
                 cls="setup-side"),
            Text(INSET + 5.0, INSET + GROUP_HEAD, text, size=GROUP_HEAD, bold=True,
                 cls="setup-group"))


def _cell(game: Game, spot: Spot, draw_entry: Callable[[Entry], tuple[Primitive, ...]],
          width: float) -> Cell:
    """(items, width, height) of a cell: its counters side by side (in lines when they are
    more than ``width`` holds), "×N" beside a counter of several, the place under them."""
    items: list[Primitive] = []
    x, top, line_h, widest = 0.0, 0.0, 0.0, 0.0
    for entry in spot.entries:
        size = counter_size(game, entry.record)
        times = f"×{entry.count}" if entry.count > 1 else ""
        wide = size + (0.6 + text_width(times, TIMES) * 1.08 if times else 0.0)
        if x > 0 and x + wide > width:  # the next line of the cell's counters
            top += line_h + COUNTER_GAP
            x, line_h = 0.0, 0.0
        items.append(Group(draw_entry(entry), dx=x, dy=top, cls="setup-counter"))
        if times:
            items.append(Text(x + size + 0.6, top + size / 2 + TIMES * 0.35, times, size=TIMES,
                              bold=True, cls="setup-count"))
        x += wide
        widest = max(widest, x)
        x += COUNTER_GAP
        line_h = max(line_h, size)
    cell_w = min(max(widest, min(text_width(spot.place, PLACE), CELL_MOST)), width)
    lines, size = fit_lines(spot.place, PLACE, cell_w, PLACE_LINES, f"set-up place {spot.place!r}",
                            floor=MIN_MM)
    y = top + line_h + BRACKET
    if len(spot.entries) > 1 or spot.entries[0].count > 1:  # the counters the place is of
        items.append(Polygon(((0, y - 1.0), (0, y), (cell_w, y), (cell_w, y - 1.0)),
                             BRACKET_LINE, closed=False, cls="setup-bracket"))
    for line in lines:
        y += size * PITCH
        items.append(Text(cell_w / 2, y, line, size=size, anchor="middle", cls="setup-place"))
    return tuple(items), cell_w, y + 0.4


def _rows(cells: Iterable[Cell], width: float) -> list[list[Cell]]:
    rows: list[list[Cell]] = [[]]
    x = 0.0
    for cell in cells:
        w = cell[1]
        if rows[-1] and x + w > width:
            rows.append([])
            x = 0.0
        rows[-1].append(cell)
        x += w + CELL_GAP
    return [r for r in rows if r]


def chart_blocks(game: Game, width: float) -> list[Block]:
    """Every scenario's order of battle from the data, as blocks."""
    return [b for order in orders(game) for b in order_blocks(game, order, width)]

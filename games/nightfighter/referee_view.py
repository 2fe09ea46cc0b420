"""Maps of an automatic Nightfighter referee session: the player's map and the referee's map.

Both are drawn from one JSON *view* dict (the player view of ``Referee.player_view``; the
referee view adds ``"bombers"``, see ``warpress.engine.referee``) and the loaded ``Game``
for the map geometry, never from the referee's state: the player map cannot show what the view
does not hold, and it reads no ``"bombers"`` key even when one is there.

The map itself is the print kit's Nightfighter map (``kit.py`` beside this module: hexes,
entry marks, searchlight zones, flare paths, beacons, radio-beacon box) at the 17x22 in player
map geometry. On top of it, one *piece* per item of the view, each a group with a stable id and
the classes ``piece <kind> at-<hex>``:

- fighters: blue discs with the id, hits/damage and a nose pointing to the facing; fighters in
  the radio-beacon box are drawn in the box;
- radar search counters: green squares with the radar's name, a red frame and ``CONTACT`` when
  they made contact, a dashed frame and ``no contact`` when not; their sweep counters smaller;
- sighting, AI-contact and searchlight-capture markers: squares with a nose to their facing and
  the fighter id or zone;
- searchlight markers: yellow discs with the zone letter;
- referee map only: bombers (red discs with id, unit, hits/damage and nose); exited, pooled and
  shot-down bombers are listed beside the map, not drawn on it.

Several pieces in one hex are laid out side by side in a grid inside the hex (smaller the more
there are), so none hides another. A header gives the scenario, turn, phase and environment; a
side column this turn's announcements, every item of the view as text, and a legend.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from warpress.components.fonts import text_width
from warpress.components.hexmap import HexGeometry
from warpress.components.kit import check_glyphs, safe_id, typeset
from warpress.components.primitives import (
    Circle,
    Group,
    Page,
    Polygon,
    Primitive,
    Rect,
    Style,
    Text,
)
from warpress.components.render_pdf import check_dpi, pdf_bytes, png_pages
from warpress.engine.errors import BadInput
from warpress.engine.model import Game

from .kit import (
    BEACON_W,
    PAD,
    map_geometry,
    map_grid,
    radio_beacon_box,
    wrapped,
)
from .rules.common import facing_text

HEADER_H = 24.0
PANEL_GAP = 4.0
FIGHTER_INK = "#1f4e9a"
BOMBER_INK = "#b3261e"
RADAR_FILL = "#cfe3c4"
RADAR_INK = "#2f6b2f"
CONTACT_INK = "#d01c1c"
SEARCHLIGHT_FILL = "#ffe45c"
SEARCHLIGHT_INK = "#8a6200"
MARKER_STYLES = {  # kind: (fill, frame, label)
    "sighting": ("#ffffff", "#202020", "SIGHTED"),
    "ai-contact": ("#d9e4f2", "#1f4e9a", "AI CONTACT"),
    "captured": ("#fff2a8", "#c07000", "CAPTURED"),
}
MARKER_NAMES = {"sighting": "Sighting", "ai-contact": "AI contact", "captured": "Captured"}
FIGHTER_STATUSES = ("on-map", "beacon-box", "off-map", "shot-down")
BOMBER_STATUSES = ("pool", "on-map", "exited", "shot-down")
SEARCHLIGHT_KINDS = ("search", "capture")
PLAYER_KEYS = ("title", "turn", "turns", "phase", "environment", "fighters", "counters",
               "markers", "searchlights", "announcements")


# --- the view, checked -------------------------------------------------------------------


@dataclass(frozen=True)
class Item:
    """One thing drawn on the map: its hex (None for the beacon box) and how it is drawn."""

    hex: str | None
    draw: Callable[[float, float, float], Group]


def _need(record: Mapping, key: str, where: str) -> Any:
    if not isinstance(record, Mapping):
        raise BadInput(f"view: {where}: expected an object, got {type(record).__name__}")
    if key not in record:
        raise BadInput(f"view: {where}: missing key {key!r}")
    return record[key]


def _list(view: Mapping, key: str) -> list:
    value = _need(view, key, key)
    if not isinstance(value, list | tuple):
        raise BadInput(f"view: {key}: expected a list, got {type(value).__name__}")
    return list(value)


def _hex(value: Any, where: str, hexes: frozenset[str]) -> str:
    if not isinstance(value, str) or value not in hexes:
        raise BadInput(f"view: {where}: {value!r} is not a hex of the map "
                       f"({min(hexes)}..{max(hexes)})")
    return value


def _facing(value: Any, where: str, optional: bool = False) -> int | None:
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 5:
        raise BadInput(f"view: {where}: facing {value!r} is not 0..5")
    return value


def _choice(value: Any, where: str, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise BadInput(f"view: {where}: {value!r} is not one of {', '.join(allowed)}")
    return value


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value:
        raise BadInput(f"view: {where}: expected a non-empty string, got {value!r}")
    return value


def check_view(game: Game, view: Any, referee: bool = False) -> None:
    """BadInput naming the key and value of the first thing in ``view`` the map cannot draw:
    a missing key, a hex not on the map, a facing not 0..5, an unknown status or kind."""
    if not isinstance(view, Mapping):
        raise BadInput(f"view: expected an object, got {type(view).__name__}")
    for key in PLAYER_KEYS:
        _need(view, key, key)
    if not isinstance(view["environment"], Mapping):
        raise BadInput(f"view: environment: expected an object, got {view['environment']!r}")
    hexes = frozenset(game.hex_map().hex_ids)
    for i, fighter in enumerate(_list(view, "fighters")):
        _check_aircraft(fighter, f"fighters[{i}]", FIGHTER_STATUSES, ("on-map", "beacon-box"),
                        hexes)
    for i, counter in enumerate(_list(view, "counters")):
        where = f"counters[{i}]"
        _text(_need(counter, "radar", where), f"{where}.radar")
        _hex(_need(counter, "hex", where), f"{where}.hex", hexes)
        if not isinstance(_need(counter, "contact", where), bool):
            raise BadInput(f"view: {where}.contact: expected true or false, "
                           f"got {counter['contact']!r}")
        for j, sweep in enumerate(counter.get("sweeps") or ()):
            _hex(sweep, f"{where}.sweeps[{j}]", hexes)
    for i, marker in enumerate(_list(view, "markers")):
        where = f"markers[{i}]"
        _choice(_need(marker, "kind", where), f"{where}.kind", tuple(MARKER_STYLES))
        _hex(_need(marker, "hex", where), f"{where}.hex", hexes)
        _facing(marker.get("facing"), f"{where}.facing", optional=True)
    for i, light in enumerate(_list(view, "searchlights")):
        where = f"searchlights[{i}]"
        _text(_need(light, "zone", where), f"{where}.zone")
        _hex(_need(light, "hex", where), f"{where}.hex", hexes)
        _choice(light.get("kind", "search"), f"{where}.kind", SEARCHLIGHT_KINDS)
    for i, note in enumerate(_list(view, "announcements")):
        if not isinstance(_need(note, "text", f"announcements[{i}]"), str):
            raise BadInput(f"view: announcements[{i}].text: expected a string, "
                           f"got {note['text']!r}")
    if referee:
        for i, bomber in enumerate(_list(view, "bombers")):
            _check_aircraft(bomber, f"bombers[{i}]", BOMBER_STATUSES, ("on-map",), hexes)


def _check_aircraft(record, where: str, statuses, drawn, hexes) -> None:
    _text(str(_need(record, "id", where)), f"{where}.id")
    for key in ("hits", "damage"):
        _need(record, key, where)
    status = _choice(_need(record, "status", where), f"{where}.status", statuses)
    place = _need(record, "hex", where)
    if status == "on-map" or place is not None:
        _hex(place, f"{where}.hex", hexes)
    if status in drawn:
        _facing(_need(record, "facing", where), f"{where}.facing")


# --- pieces ------------------------------------------------------------------------------


def _fit(text: str, size: float, width: float) -> float:
    """``size``, or smaller so that ``text`` fits ``width`` mm."""
    wide = text_width(text, size)
    return size if wide <= width or wide == 0 else size * width / wide


def _label(text: str, x: float, y: float, size: float, width: float, **kw) -> Text:
    return Text(x, y, text, size=_fit(text, size, width), anchor="middle", **kw)


def facing_vector(geo: HexGeometry, facing: int) -> tuple[float, float]:
    """The unit vector of a facing on the drawing (0 is the top side of a flat hex)."""
    angle = math.radians(60 * facing + (0 if geo.flat else 30))
    return math.sin(angle), -math.cos(angle)


def _nose(cx: float, cy: float, u: tuple[float, float], edge: float, d: float,
          ink: str) -> Polygon:
    """A triangle on the piece's rim pointing along ``u``: the facing."""
    ux, uy = u
    base = (cx + ux * (edge - d * 0.02), cy + uy * (edge - d * 0.02))
    half = d * 0.15
    tip = (cx + ux * (edge + d * 0.24), cy + uy * (edge + d * 0.24))
    return Polygon((tip, (base[0] - uy * half, base[1] + ux * half),
                    (base[0] + uy * half, base[1] - ux * half)),
                   Style(fill=ink, stroke="#ffffff", width=d * 0.02), cls="facing-arrow")


def _square_edge(u: tuple[float, float], d: float) -> float:
    return d / 2 / max(abs(u[0]), abs(u[1]))


def _aircraft(kind: str, record: Mapping, name: str, ink: str, geo: HexGeometry, where: str
              ) -> Callable[[float, float, float], Group]:
    """A disc with the id, the unit's name, hits/damage and a nose to the facing."""
    ident = str(record["id"])
    hits = f"{record['hits']}/{record['damage']}"

    def draw(cx: float, cy: float, d: float) -> Group:
        r = d / 2
        detail = d >= 8.0  # the type only where it can be read
        items: list[Primitive] = [
            Circle(cx, cy, r, Style(fill=ink, stroke="#ffffff", width=d * 0.04)),
            _nose(cx, cy, facing_vector(geo, record["facing"]), r, d, ink),
            _label(ident, cx, cy + d * 0.08, d * 0.4, d * 0.8, fill="#ffffff", bold=True,
                   cls=f"{kind}-id"),
            _label(hits, cx, cy + d * 0.36, d * 0.22, d * 0.56, fill="#ffffff",
                   cls=f"{kind}-hits")]
        if detail:
            items.append(_label(name, cx, cy - d * 0.23, d * 0.15, d * 0.66, fill="#ffffff",
                                cls=f"{kind}-unit"))
        return Group(tuple(items), id=f"{kind}-{safe_id(ident)}",
                     cls=f"piece {kind} {record['status']} at-{where}")

    return draw


def _counter(i: int, record: Mapping, name: str) -> Callable[[float, float, float], Group]:
    """A radar search counter: the radar's name; contact: red frame and CONTACT."""
    contact = bool(record["contact"])
    frame = (Style(fill=RADAR_FILL, stroke=CONTACT_INK, width=0.7) if contact else
             Style(fill=RADAR_FILL, stroke=RADAR_INK, width=0.35, dash=(0.9, 0.6)))
    state = "CONTACT" if contact else "no contact"

    def draw(cx: float, cy: float, d: float) -> Group:
        x, y = cx - d / 2, cy - d / 2
        items: list[Primitive] = [
            Rect(x, y, d, d, frame, r=d * 0.08),
            _label("search", cx, y + d * 0.24, d * 0.16, d * 0.85, fill=RADAR_INK),
            _label(name, cx, y + d * 0.55, d * 0.27, d * 0.88, bold=True, cls="radar-name"),
            _label(state, cx, y + d * 0.85, d * 0.2 if contact else d * 0.16, d * 0.88,
                   fill=CONTACT_INK if contact else "#555555", bold=contact,
                   cls="radar-contact")]
        return Group(tuple(items), id=f"counter-{i + 1}-{safe_id(record['radar'])}",
                     cls=f"piece radar-counter {'contact' if contact else 'no-contact'} "
                         f"at-{record['hex']}")

    return draw


def _sweep(i: int, j: int, record: Mapping, name: str, where: str
           ) -> Callable[[float, float, float], Group]:
    def draw(cx: float, cy: float, d: float) -> Group:
        s = d * 0.8
        items: list[Primitive] = [
            Rect(cx - s / 2, cy - s / 2, s, s,
                 Style(fill="#e9f3e3", stroke=RADAR_INK, width=0.3, dash=(0.6, 0.5)),
                 r=s * 0.1),
            _label("sweep", cx, cy - s * 0.08, s * 0.22, s * 0.85, fill=RADAR_INK),
            _label(name, cx, cy + s * 0.28, s * 0.26, s * 0.88, bold=True, cls="radar-name")]
        return Group(tuple(items), id=f"sweep-{i + 1}-{j + 1}-{safe_id(record['radar'])}",
                     cls=f"piece sweep at-{where}")

    return draw


def _marker(i: int, record: Mapping, geo: HexGeometry) -> Callable[[float, float, float], Group]:
    """A sighting, AI-contact or capture marker: kind, fighter or zone, nose to the facing."""
    kind = record["kind"]
    fill, ink, label = MARKER_STYLES[kind]
    owner = record.get("fighter") or (f"zone {record['zone']}" if record.get("zone") else "")
    facing = record.get("facing")

    def draw(cx: float, cy: float, d: float) -> Group:
        x, y = cx - d / 2, cy - d / 2
        items: list[Primitive] = [Rect(x, y, d, d, Style(fill=fill, stroke=ink, width=0.6),
                                       r=d * 0.04)]
        if facing is not None:
            u = facing_vector(geo, facing)
            items.append(_nose(cx, cy, u, _square_edge(u, d), d, ink))
        items.append(_label(label, cx, y + d * 0.34, d * 0.17, d * 0.9, fill=ink, bold=True,
                            cls="marker-kind"))
        if owner:
            items.append(_label(owner, cx, y + d * 0.72, d * 0.27, d * 0.9, bold=True,
                                cls="marker-owner"))
        return Group(tuple(items), id=f"marker-{i + 1}-{kind}",
                     cls=f"piece marker {kind} at-{record['hex']}")

    return draw


def _searchlight(i: int, record: Mapping) -> Callable[[float, float, float], Group]:
    """A searchlight marker: yellow disc with rays, the zone letter large."""
    kind = record.get("kind", "search")
    zone = str(record["zone"])

    def draw(cx: float, cy: float, d: float) -> Group:
        r = d * 0.42
        ink = CONTACT_INK if kind == "capture" else SEARCHLIGHT_INK
        rays = [Polygon(((cx + r * 1.18 * math.sin(a), cy - r * 1.18 * math.cos(a)),
                         (cx + r * math.sin(a + 0.2), cy - r * math.cos(a + 0.2)),
                         (cx + r * math.sin(a - 0.2), cy - r * math.cos(a - 0.2))),
                        Style(fill=ink, stroke=None))
                for a in (math.pi * k / 4 for k in range(8))]
        items: list[Primitive] = [
            *rays, Circle(cx, cy, r, Style(fill=SEARCHLIGHT_FILL, stroke=ink, width=0.5)),
            _label(zone, cx, cy + r * 0.2, r * 0.95, r * 1.5, bold=True, fill=ink,
                   cls="searchlight-zone-letter"),
            _label(kind, cx, cy + r * 0.68, r * 0.36, r * 1.4, fill=ink, bold=True)]
        return Group(tuple(items), id=f"searchlight-{i + 1}-{safe_id(zone)}",
                     cls=f"piece searchlight {kind} at-{record['hex']}")

    return draw


# --- what goes where ---------------------------------------------------------------------


def _unit_name(game: Game, unit_id: Any) -> str:
    unit = next((u for u in game.units if u.id == unit_id), None)
    return (unit.name or unit.id) if unit else str(unit_id)


def _radar_name(game: Game, radar_id: str) -> str:
    base = radar_id.split("#")[0]
    radar = next((r for r in game.section("radars") if r.id == base), None) \
        if "radars" in game.extra else None
    suffix = radar_id[len(base):]
    return ((radar.name or radar.id) if radar else base) + suffix


def map_items(game: Game, view: Mapping, referee: bool, geo: HexGeometry) -> list[Item]:
    """Every piece the view puts on the map, in drawing order: fighters, bombers (only when
    ``referee``), radar counters, their sweeps, searchlights, markers."""
    items: list[Item] = []
    for fighter in view["fighters"]:
        if fighter["status"] in ("on-map", "beacon-box"):
            place = fighter["hex"] if fighter["status"] == "on-map" else None
            items.append(Item(place, _aircraft("fighter", fighter,
                                               _unit_name(game, fighter.get("unit")),
                                               FIGHTER_INK, geo, place or "beacon-box")))
    if referee:
        for bomber in view["bombers"]:
            if bomber["status"] == "on-map":
                items.append(Item(bomber["hex"], _aircraft(
                    "bomber", bomber, _unit_name(game, bomber.get("unit")), BOMBER_INK, geo,
                    bomber["hex"])))
    names = [_radar_name(game, counter["radar"]) for counter in view["counters"]]
    for i, counter in enumerate(view["counters"]):
        items.append(Item(counter["hex"], _counter(i, counter, names[i])))
    for i, counter in enumerate(view["counters"]):
        for j, sweep in enumerate(counter.get("sweeps") or ()):
            items.append(Item(sweep, _sweep(i, j, counter, names[i], sweep)))
    for i, light in enumerate(view["searchlights"]):
        items.append(Item(light["hex"], _searchlight(i, light)))
    for i, marker in enumerate(view["markers"]):
        items.append(Item(marker["hex"], _marker(i, marker, geo)))
    return items


#: pieces in one hex by how many there are: (columns, row width, height, centre), in hex sizes
ROWS = {1: (1, 1.14, 1.14, 0.2), 2: (2, 1.76, 0.9, 0.15), 3: (3, 1.86, 0.66, 0.2)}
CROWD = (1.8, 1.5, 0.05)  # four or more: a grid over the whole hex, hex id tag on top


def slots(n: int, size: float) -> tuple[list[tuple[float, float]], float]:
    """Offsets from a hex centre for ``n`` pieces side by side, and the pieces' size. Up to
    three go in one row below the hex id; more fill the hex in a grid."""
    if n in ROWS:
        cols, width, height, dy = ROWS[n]
    else:
        cols, (width, height, dy) = math.ceil(math.sqrt(n)), CROWD
    rows = math.ceil(n / cols)
    cell = min(width / cols, height / rows) * size
    d = 0.88 * cell
    out = []
    for k in range(n):
        r, c = divmod(k, cols)
        in_row = min(cols, n - r * cols)
        out.append(((c - (in_row - 1) / 2) * cell, dy * size + (r - (rows - 1) / 2) * cell))
    return out, d


def _pieces(game: Game, view: Mapping, referee: bool, geo: HexGeometry) -> list[Primitive]:
    index = {hex_id: (c, r) for hex_id, c, r in geo.cells()}
    by_hex: dict[str | None, list[Item]] = {}
    for item in map_items(game, view, referee, geo):
        by_hex.setdefault(item.hex, []).append(item)
    out: list[Primitive] = []
    for place in sorted(by_hex, key=lambda h: (h is None, h or "")):
        stack = by_hex[place]
        if place is None:
            out.extend(_in_beacon_box(geo, stack))
            continue
        cx, cy = geo.centre(*index[place])
        offsets, d = slots(len(stack), geo.size)
        out.extend(item.draw(cx + dx, cy + dy, d)
                   for item, (dx, dy) in zip(stack, offsets, strict=True))
        if len(stack) not in ROWS:
            out.append(_hex_tag(place, cx, cy - geo.size * 0.7, geo.size))
    return out


def _hex_tag(hex_id: str, cx: float, y: float, size: float) -> Group:
    """The id of a crowded hex, over the pieces that cover the printed one."""
    text = min(2.6, size * 0.24)
    w = text_width(hex_id, text) + 1.6
    return Group((Rect(cx - w / 2, y - text * 0.5, w, text * 1.25,
                       Style(fill="#ffffff", stroke="#7f93ad", width=0.2), r=0.5),
                  Text(cx, y + text * 0.55, hex_id, size=text, anchor="middle", fill="#333333")),
                 cls=f"hex-tag at-{hex_id}")


def _in_beacon_box(geo: HexGeometry, stack: list[Item]) -> list[Primitive]:
    """Fighters in the radio-beacon box, one below the other from its top; they cover the
    box's printed name, so the map feature's name and Japanese name are repeated above the
    box (without the kit's dagger)."""
    box = radio_beacon_box(geo)
    if box is None:
        raise BadInput("view: a fighter is in the radio-beacon box, but the map has none")
    x, y, w, h = box.rect
    d = min(0.8 * w, 0.85 * geo.size, 0.8 * (h - 2.0) / len(stack))
    step = min(d * 1.3, (h - 2.0) / len(stack))
    out: list[Primitive] = [item.draw(x + w / 2, y + 1.0 + (k + 0.5) * step, d)
                            for k, item in enumerate(stack)]
    size = 2.2
    names = (box.feature.name or "Radio beacon box", box.feature.name_ja or "")
    for i, line in enumerate(names):
        if not line:
            continue
        out.append(Text(x + w / 2, y - 1.2 - (1 - i) * size * 1.2, line,
                        size=_fit(line, size, w + geo.size * 0.3), anchor="middle", bold=True,
                        fill=RADAR_INK, cls="beacon-box-caption"))
    return out


# --- header and side column ----------------------------------------------------------------


def _scalar(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return ", ".join(_scalar(v) for v in value) or "-"
    if isinstance(value, Mapping):
        return "; ".join(f"{k.replace('_', ' ')} {_scalar(v)}" for k, v in value.items())
    return str(value)


def _header(game: Game, view: Mapping, referee: bool, width: float) -> list[Primitive]:
    name = game.info.name.split(":")[0]
    inner = width - 2 * PAD
    if referee:
        first = f"REFEREE MAP — do not show the player 審判用マップ — {view['title']}"
        ink = BOMBER_INK
    else:
        first = f"{name} — player map プレイヤーマップ — {view['title']}"
        ink = "#000000"
    turns = f" of {view['turns']}" if view.get("turns") is not None else ""
    second = f"Turn {_scalar(view['turn'])}{turns} · phase: {view['phase']}"
    if view.get("awaiting"):
        whose = "the player's" if referee else "your"
        second += f" · {whose} commands: {_scalar(view['awaiting'])}"
    if view.get("over"):
        second += " · GAME OVER"
    third = "Environment: " + _scalar(view["environment"])
    return [Text(PAD, PAD + 7.0, first, size=_fit(first, 7.0, inner), bold=True, fill=ink,
                 cls="map-title"),
            Text(PAD, PAD + 13.5, second, size=_fit(second, 4.6, inner), bold=True,
                 cls="map-turn"),
            Text(PAD, PAD + 19.5, third, size=_fit(third, 4.2, inner), cls="map-environment")]


def _section(title: str, lines: list[str], width: float, y: float, cls: str,
             size: float = 3.0, ink: str = "#000000") -> tuple[Group, float]:
    """A titled list: the bold title, then each line wrapped to ``width``."""
    items: list[Primitive] = [Rect(0, y, width, 6.0, Style(fill="#e4e8ef", stroke=None)),
                              Text(1.5, y + 4.4, title, size=_fit(title, 3.8, width - 3),
                                   bold=True, fill=ink)]
    y += 7.5
    for line in lines or ["(none)"]:
        text, h = wrapped(line, 1.5, y, size, width - 3, cls=f"{cls}-line")
        items.extend(text)
        y += h
    return Group(tuple(items), id=f"panel-{cls}", cls=f"map-panel {cls}"), y + 3.0


def _fighter_line(game: Game, f: Mapping) -> str:
    where = {"on-map": f"at {f['hex']}", "beacon-box": "in the radio beacon box"}.get(
        f["status"], f["status"])
    facing = f" facing {facing_text(f['facing'])}" \
        if f["status"] in ("on-map", "beacon-box") else ""
    flags = [k for k in ("dazzled", "moved", "attacked") if f.get(k)]
    shown = {"MP": f"{f['mp']}{'*' if f.get('mp_asterisk') else ''}",  # a chart's N* [7.2]
             "dives": f.get("dives_left")}
    extra = "".join(f" · {label} {value}" for label, value in shown.items() if value is not None)
    return (f"{f['id']} {_unit_name(game, f.get('unit'))} {where}{facing} · hits "
            f"{f['hits']}/{f['damage']}{extra}" + "".join(f" · {k}" for k in flags))


def _bomber_line(game: Game, b: Mapping) -> str:
    where = f"at {b['hex']} facing {facing_text(b['facing'])}" \
        if b["status"] == "on-map" else b["status"]
    kind = f" ({b['kind']})" if b.get("kind") else ""
    alert = " · ALERT" if b.get("alert") else ""
    return (f"{b['id']} {_unit_name(game, b.get('unit'))}{kind} {where} · hits "
            f"{b['hits']}/{b['damage']}{alert}")


def _panel(game: Game, view: Mapping, referee: bool, width: float) -> tuple[list[Primitive],
                                                                           float]:
    """The side column: announcements, the view's items as text, the score, a legend."""
    sections: list[tuple[str, list[str], str, str]] = []
    notes = []
    for note in view["announcements"]:
        rules = f" [{', '.join(note.get('rules') or ())}]" if note.get("rules") else ""
        phase = f"{note['phase']}: " if note.get("phase") else ""
        notes.append(f"• {phase}{note['text']}{rules}")
    sections.append(("This turn's announcements 今ターンの通告", notes, "announcements", "#000000"))
    sections.append(("Fighters 夜間戦闘機", [_fighter_line(game, f) for f in view["fighters"]],
                     "fighters", FIGHTER_INK))
    radar = []
    for c in view["counters"]:
        sweeps = f" · sweeps {', '.join(c.get('sweeps') or ())}" if c.get("sweeps") else ""
        radar.append(f"{_radar_name(game, c['radar'])} search at {c['hex']}: "
                     f"{'CONTACT' if c['contact'] else 'no contact'}{sweeps}")
    sections.append(("Radar search counters レーダー捜索", radar, "counters", RADAR_INK))
    marks = []
    for m in view["markers"]:
        owner = m.get("fighter") or (f"zone {m['zone']}" if m.get("zone") else "")
        facing = (f" facing {facing_text(m['facing'])}"
                  if m.get("facing") is not None else "")
        marks.append(f"{MARKER_NAMES[m['kind']]} at {m['hex']}{facing}"
                     f"{' · ' + owner if owner else ''}")
    marks += [f"Searchlight zone {s['zone']} {s.get('kind', 'search')} at {s['hex']}"
              for s in view["searchlights"]]
    sections.append(("Markers and searchlights マーカー", marks, "markers", "#000000"))
    if view.get("score"):
        sections.append(("Score 得点", [_scalar(view["score"])], "score", "#000000"))
    if view.get("summary"):
        sections.append(("End of game 終了", [f"{k.replace('_', ' ')}: {_scalar(v)}"
                                              for k, v in view["summary"].items()]
                         if isinstance(view["summary"], Mapping) else [str(view["summary"])],
                         "summary", "#000000"))
    if referee:
        lines = [_bomber_line(game, b) for b in view["bombers"]]
        if view.get("chit_face") is not None:
            lines.append(f"Entry chit face: {view['chit_face']}")
        if view.get("chits_drawn"):
            lines.append(f"Chits drawn: {_scalar(view['chits_drawn'])}")
        sections.append(("Bombers (referee only) 爆撃機", lines, "bombers", BOMBER_INK))
    items: list[Primitive] = []
    y = 0.0
    for title, lines, cls, ink in sections:
        group, y = _section(title, lines, width, y, cls, ink=ink)
        items.append(group)
    legend, y = _legend(game, referee, width, y)
    items.append(legend)
    return items, y


def _legend(game: Game, referee: bool, width: float, y: float) -> tuple[Group, float]:
    """One sample of every kind of piece with what it is."""
    geo = HexGeometry(game.hex_map(), 10.0)
    sample_fighter = {"id": "F1", "hits": 0, "damage": 1, "facing": 1, "status": "on-map",
                      "hex": "x"}
    samples: list[tuple[Group, str]] = [
        (_aircraft("fighter", sample_fighter, "Bf110G-4", FIGHTER_INK, geo, "x")(0, 0, 9),
         "Fighter: id, hits taken/damage (its type too when drawn large); the nose shows "
         "its facing"),
        (_counter(0, {"radar": "r", "hex": "x", "contact": True}, "Freya")(0, 0, 9),
         "Radar search counter that made contact"),
        (_counter(0, {"radar": "r", "hex": "x", "contact": False}, "Freya")(0, 0, 9),
         "Radar search counter without contact"),
        (_sweep(0, 0, {"radar": "r"}, "Freya", "x")(0, 0, 9), "Sweep counter of a radar"),
        (_marker(0, {"kind": "sighting", "hex": "x", "facing": 3, "fighter": "F1"}, geo)(0, 0, 9),
         "Sighting marker: the fighter that sighted, the sighted aircraft's facing"),
        (_marker(0, {"kind": "ai-contact", "hex": "x", "facing": 3, "fighter": "F1"}, geo)
         (0, 0, 9), "AI radar contact of a fighter"),
        (_marker(0, {"kind": "captured", "hex": "x", "facing": 3, "zone": "C"}, geo)(0, 0, 9),
         "Aircraft captured by the searchlights of a zone"),
        (_searchlight(0, {"zone": "C", "hex": "x", "kind": "search"})(0, 0, 9),
         "Searchlight of a zone searching")]
    if referee:
        sample_bomber = {**sample_fighter, "id": "231", "facing": 3}
        samples.append((_aircraft("bomber", sample_bomber, "Lancaster", BOMBER_INK, geo, "x")
                        (0, 0, 9), "Bomber (referee map only)"))
    items: list[Primitive] = [Rect(0, y, width, 6.0, Style(fill="#e4e8ef", stroke=None)),
                              Text(1.5, y + 4.4, "Legend 凡例", size=3.8, bold=True)]
    y += 9.0
    for sample, text in samples:
        # the samples are drawn without ids: only the view's items carry the piece ids
        plain = Group(tuple(sample.items), dx=7.0, dy=y + 6.0, cls="legend-sample")
        lines, h = wrapped(text, 15.0, y + 6.0 - 3.2, 2.8, width - 16.0)
        items.extend([plain, *lines])
        y += max(14.0, h + 2.0)
    return Group(tuple(items), id="panel-legend", cls="map-panel legend"), y


# --- the page ----------------------------------------------------------------------------


def map_page(game: Game, view: Mapping, referee: bool = False) -> Page:
    """The player map (``referee=False``: reads no ``bombers``) or the referee map of ``view``
    as one page of primitives in mm. BadInput names the key and value of a view it cannot
    draw."""
    check_view(game, view, referee)
    geo, width, _sheet_h = map_geometry(game, "player")
    gw, gh = geo.extent()
    x0, y0 = PAD, PAD + HEADER_H
    which = "referee" if referee else "player"
    grid = Group((*map_grid(game, which, geo),
                  Group(tuple(_pieces(game, view, referee, geo)), id="pieces", cls="pieces")),
                 dx=x0, dy=y0, id=f"{which}-map-grid", cls=f"map-grid {which}")
    px = x0 + gw + BEACON_W * geo.size + PANEL_GAP
    panel, panel_h = _panel(game, view, referee, width - px - PAD)
    height = y0 + max(gh, panel_h) + PAD
    items: list[Primitive] = [Rect(0, 0, width, height, Style(fill="#ffffff", stroke=None),
                                   cls="map-sheet")]
    if referee:
        items.append(Rect(1.0, 1.0, width - 2.0, height - 2.0,
                          Style(stroke=BOMBER_INK, width=2.0), cls="referee-frame"))
    items += [*_header(game, view, referee, width), grid,
              Group(tuple(panel), dx=px, dy=y0, id="map-side", cls="map-side")]
    page = Page(width, height, typeset(items), id=f"{which}-session-map",
                title=f"{view['title']} — {'referee' if referee else 'player'} map, "
                      f"turn {_scalar(view['turn'])}")
    check_glyphs([page])
    return page


def map_svg(game: Game, view: Mapping, referee: bool = False) -> bytes:
    """The map of ``view`` as an SVG document (UTF-8)."""
    # start-up: 68 more modules (svgwrite), only when this runs
    from warpress.components.render_svg import svg_text

    return svg_text(map_page(game, view, referee)).encode()


def map_png(game: Game, view: Mapping, referee: bool = False, dpi: int = 100) -> bytes:
    """The map of ``view`` as a PNG at ``dpi``, rasterised from the PDF (embedded font) by
    pypdfium2."""
    check_dpi(dpi, "dpi")
    page = map_page(game, view, referee)
    return png_pages(pdf_bytes([page], page.title), dpi)[0]


MAP_FORMATS = {"svg": map_svg, "png": map_png}

"""A VASSAL 3.7 module (``GAME.vmod``) from the kit: boards, grids, pieces, decks, charts.

A ``.vmod`` is a zip holding ``buildFile.xml`` (the module's components as XML elements
named by their Java classes), ``moduledata`` (name, version, VASSAL version) and
``images/``. What is written here follows VASSAL's own source (vassalengine/vassal,
``VASSAL.build.*`` and ``VASSAL.counters.*``):

- each map drawing is a ``Map`` with one ``Board`` whose image is the drawing at ``dpi``;
  a hex map's board carries a ``HexGrid`` (``x0``/``y0`` the centre of raw hex (0, 0),
  ``dx`` the column spacing, ``dy`` the hex height; odd raw columns sit ``(int)(dy/2)``
  lower; ``sideways`` swaps x and y for pointy-topped hexes) with a ``HexGridNumbering``
  (``first`` H or V, ``sep``, ``hType``/``vType`` N or A, ``hOff``/``vOff`` added to the
  raw index, ``hLeading``/``vLeading`` zeros, ``stagger`` adding 1 to the row of odd raw
  columns) chosen so that the location of every hex centre is the game's own hex id;
  a point map's board carries a ``ZonedGrid`` with a ``Zone`` (``path`` ``x,y;x,y;...``)
  for every territory, sea zone or box drawn with the point's id: the area's outline, or
  the box round what is drawn for it;
- tracks and display boxes are zones on a "Tracks and displays" board;
- every piece is a ``PieceSlot`` whose text is VASSAL's ``AddPiece`` command
  (``+/null/TYPE/STATE``; a decorator's type and state wrap the inner piece's with a tab):
  a ``BasicPiece`` (``piece;;;IMAGE;NAME``), and for a two-sided counter an
  ``Embellishment`` (``emb2;...``) whose two layers are front and back, flipped by Ctrl+F;
- every deck is a ``DrawPile`` of ``CardSlot``s, each card masked face down by an
  ``Obscurable`` (``obs;...``) whose image is the card's back;
- chart pages (play aids, sheets, tracks) are ``Chart``s in a ``ChartWindow``, at
  ``CHART_DPI`` at least;
- the palette (``PieceWindow``) has a tab per side and a list per kind;
- the set-up data's placements on a hex or zone are ``SetupStack``s (``useGridLocation``,
  ``location`` the hex id or zone name): at-start stacks.

Zip entries are written in a fixed order with a fixed time, so the same data gives the
same bytes.
"""

from __future__ import annotations

import io
import math
import re
import xml.etree.ElementTree as ET
import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from ..engine.dice import parse_die
from ..engine.model import Game, HexMap, Placement
from .atomic import entry_name
from .collect import Collected, ExportPiece, drawing_page, drawing_title, face_pages, rasterise
from .hexmap import HexGeometry
from .impose import Drawing
from .kit import safe_id
from .primitives import Circle, Group, Line, Page, Polygon, Primitive, Rect

VASSAL_VERSION = "3.7.0"
#: The time every zip entry carries: the same data gives the same bytes.
ZIP_TIME = (1980, 1, 1, 0, 0, 0)
#: Ctrl+F as VASSAL encodes a key stroke: key code, then modifiers (CTRL_MASK | CTRL_DOWN_MASK).
FLIP_KEY = "70,130"
PKG = "VASSAL.build.module"
#: The least resolution of a chart (a page read on screen at 100 %): 4.5 pt text is 9 px.
CHART_DPI = 150


# --- VASSAL's text encodings ------------------------------------------------------------------


def sequence(values: Iterable[str], delim: str) -> str:
    """VASSAL's ``SequenceEncoder``: values joined by ``delim``, a backslash before every
    ``delim`` inside a value, and a value starting with a backslash (or quoted) quoted."""
    out = []
    for value in values:
        escaped = value.replace(delim, "\\" + delim)
        if value.startswith("\\") or (value.startswith("'") and value.endswith("'")
                                      and len(value) > 1):
            escaped = f"'{escaped}'"
        out.append(escaped)
    return delim.join(out)


def basic_piece(image: str, name: str) -> str:
    """``BasicPiece`` type: no clone or delete key, the image, the name."""
    return "piece;" + sequence(["", "", image, name], ";")


def flip_layers(front: str, back: str) -> str:
    """``Embellishment`` (``emb2;``, version 1) type: two always-active layers, front and
    back, looping, the Flip command on Ctrl+F."""
    fields = ["", "130", "", "Flip", "130", "", "", "130", "", "", "", "1", "false", "0",
              "0", sequence([front, back], ","), sequence(["", ""], ","), "true", "Flip",
              "", "", "false", "", "1", "1", "true", "", FLIP_KEY, "", "Flip", "1.0", "",
              "true"]
    return "emb2;" + sequence(fields, ";")


def card_mask(back: str) -> str:
    """``Obscurable`` type: masked by the back image (shown face down), Ctrl+F, style B."""
    return "obs;" + sequence([FLIP_KEY, back, "Flip", "B"], ";")


def add_piece(types: list[str], states: list[str]) -> str:
    """The ``AddPiece`` command of a piece whose traits' types and states are given
    outermost first (the ``BasicPiece`` last)."""
    return "+/" + sequence(["null", _nest(types), _nest(states)], "/")


def _nest(parts: list[str]) -> str:
    """A decorator's string wraps the inner piece's: ``outer\\tinner`` (escaped inner)."""
    text = parts[-1]
    for outer in reversed(parts[:-1]):
        text = sequence([outer, text], "\t")
    return text


def basic_state(gpid: str) -> str:
    """``BasicPiece`` state: no map, at 0,0, its id, no persistent properties."""
    return sequence(["null", "0", "0", gpid, "0"], ";")


# --- hex grids --------------------------------------------------------------------------------


@dataclass(frozen=True)
class HexGrid:
    """A ``HexGrid`` and its ``HexGridNumbering``, as XML attributes, with the scale (px
    per mm) and the hex centres (px) the drawing has."""

    grid: dict[str, str]
    numbering: dict[str, str] | None  # None: the ids cannot be VASSAL numbering
    centres: dict[str, tuple[float, float]]


_HEX_ID = re.compile(r"(?:^|-)hex-(.+)$")


def drawn_hexes(items: Iterable[Primitive]) -> dict[str, tuple[float, float, float]]:
    """hex id -> (x, y, circumradius) in mm of every hex polygon a drawing holds (class
    ``hex``, id ``...hex-<id>``), group translations and scales applied."""
    out: dict[str, tuple[float, float, float]] = {}
    for item, (ox, oy, scale) in _placed(items):
        if not isinstance(item, Polygon) or "hex" not in (item.cls or "").split():
            continue
        match = _HEX_ID.search(item.id or "")
        if not match or len(item.points) != 6:
            continue
        cx = sum(x for x, _ in item.points) / 6
        cy = sum(y for _, y in item.points) / 6
        r = math.hypot(item.points[0][0] - cx, item.points[0][1] - cy)
        out.setdefault(match.group(1), (ox + cx * scale, oy + cy * scale, r * scale))
    return out


def _placed(items: Iterable[Primitive], ox: float = 0.0, oy: float = 0.0, scale: float = 1.0
            ) -> Iterator[tuple[Primitive, tuple[float, float, float]]]:
    """Every primitive with the offset and scale its groups give it (rotated groups are
    left out: nothing drawn in them is placed on a grid)."""
    for item in items:
        yield item, (ox, oy, scale)
        if isinstance(item, Group) and not item.rotate:
            yield from _placed(item.items, ox + item.dx * scale, oy + item.dy * scale,
                               scale * item.scale)


def hex_grid(hex_map: HexMap, drawn: dict[str, tuple[float, float, float]], px_per_mm: float
             ) -> HexGrid | None:
    """The VASSAL grid over a drawing's hexes, or None when they are not ``hex_map``'s
    regular grid (then the board has no grid)."""
    cells = {hex_id: (c, r) for hex_id, c, r in HexGeometry.of(hex_map).cells()}
    if not drawn or not set(drawn) <= set(cells):
        return None
    size = sorted(r for _x, _y, r in drawn.values())[len(drawn) // 2]
    geo = HexGeometry(hex_map, size)
    first = next(iter(drawn))
    fx, fy = geo.centre(*cells[first])
    zx, zy = geo.centre(0, 0)
    ox, oy = drawn[first][0] - fx + zx, drawn[first][1] - fy + zy  # our (0, 0) in the drawing
    for hex_id, (x, y, _r) in drawn.items():
        gx, gy = geo.centre(*cells[hex_id])
        if abs(ox + gx - zx - x) > 0.01 or abs(oy + gy - zy - y) > 0.01:
            return None
    k = px_per_mm
    flat = geo.flat
    # In VASSAL's own axes (x' along the columns' spacing; swapped for sideways grids):
    along, across = 1.5 * size * k, math.sqrt(3) * size * k
    origin = (ox * k, oy * k) if flat else (oy * k, ox * k)
    first_shifted = hex_map.offset.startswith("even")  # our index 0 column (row) is shifted
    centres = {hex_id: (x * k, y * k) for hex_id, (x, y, _r) in drawn.items()}
    raw = {hex_id: _raw_index(cells[hex_id], flat, first_shifted) for hex_id in drawn}
    x0, y0 = _best_origin(origin, along, across, raw, centres, flat)
    grid = {"sideways": str(not flat).lower(), "x0": str(x0), "y0": str(y0),
            "dy": repr(across), "dx": repr(along), "snapTo": "true", "edgesLegal": "false",
            "cornersLegal": "false", "visible": "false", "dotsVisible": "false",
            "color": "0,0,0"}
    return HexGrid(grid, _numbering(hex_map, flat, first_shifted), centres)


def _raw_index(cell: tuple[int, int], flat: bool, first_shifted: bool) -> tuple[int, int]:
    """VASSAL's raw (column, row) of our (col, row): its columns run along our columns
    (flat) or rows (pointy); where our index-0 line is the shifted one, VASSAL's odd
    lines hold our odd ones one raw row higher (the numbering's stagger adds it back)."""
    c, r = cell
    line, place = (c, r) if flat else (r, c)
    if first_shifted and line % 2:
        place -= 1
    return line, place


def vassal_centre(nx: int, ny: int, x0: int, y0: int, dx: float, dy: float
                  ) -> tuple[int, int]:
    """The centre VASSAL draws for raw hex (nx, ny), in its (possibly swapped) axes."""
    x = math.trunc(dx * nx + x0)
    y = math.trunc(dy * ny + y0) if nx % 2 == 0 else math.trunc(dy * ny + math.trunc(dy / 2)
                                                                 + y0)
    return x, y


def _best_origin(origin: tuple[float, float], along: float, across: float,
                 raw: dict[str, tuple[int, int]], centres: dict[str, tuple[float, float]],
                 flat: bool) -> tuple[int, int]:
    """The whole-pixel origin whose hex centres (VASSAL truncates them to pixels) lie
    nearest the drawing's."""
    best: tuple[float, int, int] | None = None
    for x0 in range(math.floor(origin[0]) - 1, math.floor(origin[0]) + 3):
        for y0 in range(math.floor(origin[1]) - 1, math.floor(origin[1]) + 3):
            worst = 0.0
            for hex_id, (nx, ny) in raw.items():
                vx, vy = vassal_centre(nx, ny, x0, y0, along, across)
                px, py = centres[hex_id] if flat else centres[hex_id][::-1]
                worst = max(worst, abs(vx - px), abs(vy - py))
            if best is None or worst < best[0]:
                best = (worst, x0, y0)
    assert best is not None  # the loops above try 16 origins
    return best[1], best[2]


_ID_FORMAT = re.compile(r"^\{(col|row)\}(.*)\{(col|row)\}$")


def _numbering(hex_map: HexMap, flat: bool, first_shifted: bool) -> dict[str, str] | None:
    """``HexGridNumbering`` attributes naming each hex by the game's id, or None when the
    id format is not two labels around a separator or letters run past Z (VASSAL's
    27th letter label is AA, BB ... where the game's is AA, AB ...)."""
    match = _ID_FORMAT.match(hex_map.hex_id)
    if not match or match.group(1) == match.group(3) or "{" in match.group(2):
        return None
    axes = {"col": hex_map.columns, "row": hex_map.rows}
    for axis in axes.values():
        if axis.labels == "letters" and axis.first - 1 + axis.count > 26:
            return None
    # VASSAL's columns run along our columns for flat grids, along our rows for sideways.
    h_axis, v_axis = ("col", "row") if flat else ("row", "col")
    out = {"first": "H" if match.group(1) == h_axis else "V", "sep": match.group(2)}
    for prefix, axis in (("h", axes[h_axis]), ("v", axes[v_axis])):
        letters = axis.labels == "letters"
        out[f"{prefix}Type"] = "A" if letters else "N"
        out[f"{prefix}Off"] = str(axis.first - 1 if letters else axis.first)
        out[f"{prefix}Leading"] = str(0 if letters else max(axis.pad - 1, 0))
        out[f"{prefix}Descend"] = "false"
    out.update({"stagger": str(first_shifted).lower(), "visible": "false",
                "locationFormat": "$gridLocation$", "fontSize": "9", "color": "0,0,0",
                "rotateText": "0", "hDrawOff": "0", "vDrawOff": "0"})
    return out


# --- zones -------------------------------------------------------------------------------------


def bounds(item: Primitive) -> tuple[float, float, float, float] | None:
    """(x1, y1, x2, y2) in mm of the shapes in ``item`` (text left out), groups applied."""
    boxes = []
    for shape, (ox, oy, scale) in _placed([item]):
        box = _shape_box(shape)
        if box:
            boxes.append((ox + box[0] * scale, oy + box[1] * scale, ox + box[2] * scale,
                          oy + box[3] * scale))
    if not boxes:
        return None
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes),
            max(b[3] for b in boxes))


def _shape_box(shape: Primitive) -> tuple[float, float, float, float] | None:
    if isinstance(shape, Rect):
        return shape.x, shape.y, shape.x + shape.w, shape.y + shape.h
    if isinstance(shape, Circle):
        return shape.cx - shape.r, shape.cy - shape.r, shape.cx + shape.r, shape.cy + shape.r
    if isinstance(shape, Polygon):
        xs, ys = [p[0] for p in shape.points], [p[1] for p in shape.points]
        return min(xs), min(ys), max(xs), max(ys)
    if isinstance(shape, Line):
        return (min(shape.x1, shape.x2), min(shape.y1, shape.y2), max(shape.x1, shape.x2),
                max(shape.y1, shape.y2))
    return None


def zones(items: Iterable[Primitive], names: dict[str, str], px_per_mm: float
          ) -> list[tuple[str, str]]:
    """(zone name, VASSAL path) of the first drawn element whose id is ``<word>-<key>``
    for a key of ``names`` (key -> zone name), one zone per key: a polygon's own outline
    (an area's shape), else the box round the element's shapes."""
    found: dict[str, str] = {}
    k = px_per_mm
    for item, (ox, oy, scale) in _placed(items):
        key = _zone_key(item.id or "", names)
        if key is None or key in found:
            continue
        shape = item if isinstance(item, Polygon) and item.closed else _largest_polygon(item)
        if shape is not None:
            corners = [(ox + x * scale, oy + y * scale) for x, y in shape.points]
        else:
            box = bounds(item)
            if box is None:
                continue
            x1, x2 = (ox + v * scale for v in (box[0], box[2]))
            y1, y2 = (oy + v * scale for v in (box[1], box[3]))
            corners = [(x1, y1), (x2, y1), (x2, y2), (x1, y2)]
        found[key] = ";".join(f"{round(x * k)},{round(y * k)}" for x, y in corners)
    return [(names[key], path) for key, path in found.items()]


def _largest_polygon(item: Primitive) -> Polygon | None:
    """Of a group of closed polygons (an area drawn as its outline's rings), the largest."""
    if not isinstance(item, Group):
        return None
    rings = [i for i in item.items if isinstance(i, Polygon) and i.closed]
    if not rings or len(rings) != len(item.items):
        return None
    return max(rings, key=lambda r: abs(sum(r.points[i - 1][0] * r.points[i][1]
                                            - r.points[i][0] * r.points[i - 1][1]
                                            for i in range(len(r.points)))))


def anchors(items: Iterable[Primitive], names: dict[str, str], px_per_mm: float
            ) -> dict[str, tuple[int, int]]:
    """zone name -> the centre (px) of the box drawn to hold its pieces (class ``holds``,
    id ``<word>-<key>``): where its at-start stack goes."""
    out: dict[str, tuple[int, int]] = {}
    for item, (ox, oy, scale) in _placed(items):
        key = _zone_key(item.id or "", names)
        if key is None or "holds" not in (item.cls or "").split():
            continue
        box = bounds(item)
        if box is not None:
            x = ox + (box[0] + box[2]) / 2 * scale
            y = oy + (box[1] + box[3]) / 2 * scale
            out.setdefault(names[key], (round(x * px_per_mm), round(y * px_per_mm)))
    return out


def _zone_key(item_id: str, names: dict[str, str]) -> str | None:
    """``caucasus`` of ``cell-caucasus`` or ``territory-caucasus``; not of
    ``route-ukraine-ssr-caucasus`` (a link between two places is neither)."""
    _prefix, _sep, key = item_id.partition("-")
    return key if key in names else None


def zone_names(game: Game) -> dict[str, str]:
    """Point ids, display boxes and track boxes -> the zone names players see."""
    names: dict[str, str] = {}
    for point_map in game.point_maps:
        for point in point_map.points:
            names[point.id] = point.name or point.id
    for display in game.displays:
        for box in display.boxes:
            names[f"{display.id}-{box.id}"] = f"{display.name or display.id}: " \
                                              f"{box.name or box.id}"
    for track in game.tracks:
        for value in track.values:
            names[f"{track.id}-{value}"] = f"{track.name or track.id} {value}"
    return names


# --- the module ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Board:
    name: str
    image: str
    drawing: Drawing
    grid: HexGrid | None
    zones: list[tuple[str, str]]
    anchors: dict[str, tuple[int, int]] = field(default_factory=dict)  # zone -> stack (px)


def vassal_module(collected: Collected, dpi: int) -> tuple[dict[str, bytes], str]:
    """``{GAME.vmod: bytes}`` and a one-line summary."""
    game = collected.game
    k = dpi / 25.4
    faces = face_pages(collected.pieces)
    boards = _boards(collected, k)
    charts = [(f"chart-{n:02d}-{page.id}.png", page) for n, page in enumerate(
        collected.charts, 1)]
    pages: list[Page] = [page for _stem, page in faces]
    pages += [drawing_page(b.drawing) for b in boards]
    pngs = rasterise(pages, dpi, f"{game.info.name}: VASSAL images")
    pngs += rasterise([page for _name, page in charts], max(dpi, CHART_DPI),
                      f"{game.info.name}: charts")
    face_pngs, other = pngs[:len(faces)], pngs[len(faces):]
    images: dict[str, bytes] = {}
    first: dict[bytes, str] = {}
    names: dict[str, str] = {}  # face stem -> its image: faces drawn alike share one
    for (stem, _page), png in zip(faces, face_pngs, strict=True):
        names[stem] = first.setdefault(png, f"{stem}.png")
        images[names[stem]] = png
    others = [b.image for b in boards] + [name for name, _page in charts]
    images.update(zip(others, other, strict=True))
    setup = at_start(game, collected, boards)
    root = _build_file(game, collected, boards, charts, k, names, setup.stacks)
    xml = ET.tostring(root, encoding="UTF-8", xml_declaration=True)
    files = {"buildFile.xml": xml, "moduledata": _moduledata(game)}
    files.update({f"images/{name}": images[name] for name in sorted(images)})
    vmod = zip_bytes(files)
    hexes = sum(len(b.grid.centres) for b in boards if b.grid)
    summary = (f"{len(boards)} boards ({hexes} hexes on grids, "
               f"{sum(len(b.zones) for b in boards)} zones), {len(collected.pieces)} pieces, "
               f"{len(game.decks)} decks, {len(charts)} charts, "
               f"{len(game.info.dice)} dice buttons; set-up: "
               f"{sum(len(p) for _b, _w, p in setup.stacks)} pieces at start, "
               f"{len(setup.left)} placements left to the players; {dpi} dpi "
               f"(charts {max(dpi, CHART_DPI)})")
    return {f"{game.id}.vmod": vmod}, summary


def zip_bytes(files: dict[str, bytes]) -> bytes:
    """A zip of ``files`` in the given order, every entry dated ``ZIP_TIME``; an entry name
    that would lead out of the folder it is unpacked into is refused (``entry_name``)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in files.items():
            info = zipfile.ZipInfo(entry_name(name), date_time=ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data, compresslevel=6)
    return buffer.getvalue()


def _boards(collected: Collected, k: float) -> list[Board]:
    game = collected.game
    names = zone_names(game)
    boards = []
    for drawing in collected.drawings:
        image = f"board-{safe_id(drawing.name)}.png"
        grid = _grid_for(game, drawing, k)
        found = [] if grid else zones(drawing.items, names, k)
        boards.append(Board(drawing_title(game, drawing.name), image, drawing, grid, found,
                            anchors(drawing.items, names, k)))
    track_pages = [p for p in collected.charts if zones(p.items, _box_names(game), k)]
    if track_pages:
        drawing = _stacked(track_pages, "tracks and displays")
        boards.append(Board("Tracks and displays", "board-tracks-and-displays.png", drawing,
                            None, zones(drawing.items, _box_names(game), k),
                            anchors(drawing.items, _box_names(game), k)))
    return boards


def setup_scenario(game: Game) -> str | None:
    """The scenario whose set-up the module places at start: ``standard`` when the data has
    it, else the first one named (set-up items of no scenario or ``all`` go with any)."""
    named = [item.scenario for item in game.setup if item.scenario not in (None, "all")]
    return "standard" if "standard" in named else (named[0] if named else None)


@dataclass(frozen=True)
class AtStart:
    """The set-up as the module places it: ``stacks`` (board, location, pieces), VASSAL's
    at-start stacks; ``left`` the placements of the scenario left to the players, each
    ``record: where`` (a choice, a hand, a cup, a place no board has)."""

    stacks: list[tuple[str, str, list[ExportPiece]]]
    left: list[str]


def at_start(game: Game, collected: Collected, boards: list[Board]) -> AtStart:
    """The set-up placements of a unit or marker whose place is a hex of a grid (``hex:``,
    or ``where:`` a hex id) or a zone (a territory, a track space: ``track:`` and ``where:``
    the value, or ``where:`` the track with its ``start``; a display box): VASSAL's at-start
    stacks. Placements the data words as a choice ("akagi deck or hangar") are left to the
    players and listed, as are those of other scenarios (not listed)."""
    places = _places(game, boards)
    scenario = setup_scenario(game)
    stacks: dict[tuple[str, str], list[ExportPiece]] = {}
    used: dict[str, int] = {}
    left: list[str] = []
    for item in game.setup:
        if item.scenario not in (None, "all", scenario):
            continue
        for placement in item.place:
            record = placement.unit or placement.marker
            place = _place_of(game, placement, places)
            if record is None:
                continue
            if place is None:
                left.append(f"{record}: {placement.hex or placement.where}")
                continue
            candidates = _pieces_of(collected, record, item.side or "")
            for _ in range(placement.count or 1):
                if candidates:
                    index = used.get(record + (item.side or ""), 0)
                    used[record + (item.side or "")] = index + 1
                    stacks.setdefault(place, []).append(candidates[index % len(candidates)])
    return AtStart([(board, where, pieces) for (board, where), pieces in stacks.items()], left)


def _places(game: Game, boards: list[Board]) -> dict[str, tuple[str, str]]:
    """A place's key (hex id, point id, ``<track>-<value>``, ``<display>-<box>``) -> (board,
    the location VASSAL names it by)."""
    names = zone_names(game)
    out: dict[str, tuple[str, str]] = {}
    for board in boards:
        if board.grid and board.grid.numbering:
            out.update({hex_id: (board.name, hex_id) for hex_id in board.grid.centres})
        zoned = {name for name, _path in board.zones}
        out.update({key: (board.name, name) for key, name in names.items() if name in zoned})
    return out


def _place_of(game: Game, placement: Placement, places: dict[str, tuple[str, str]]
              ) -> tuple[str, str] | None:
    """The (board, location) of a placement: its ``hex``, its ``where`` (a hex, a point, a
    space of the ``track`` or a box of the ``display`` it names), or the ``start`` of the
    track its ``where`` names."""
    where = str(placement.where) if placement.where is not None else ""
    keys = [str(placement.hex)] if placement.hex is not None else []
    keys.append(where)
    for section in ("track", "display"):
        if placement.get(section):
            keys.append(f"{placement.get(section)}-{where}")
    track = next((t for t in game.tracks if t.id == where), None)
    if track is not None and track.start is not None:
        keys.append(f"{track.id}-{track.start}")
    return next((places[key] for key in keys if key in places), None)


def _pieces_of(collected: Collected, record: str, side: str) -> list[ExportPiece]:
    """The pieces of unit or marker ``record`` (of ``side`` when its pieces differ by side)."""
    mine = [p for p in collected.pieces if record in (p.piece.cls or "").split()]
    sided = [p for p in mine if side in (p.piece.cls or "").split()]
    return sided or mine


def _box_names(game: Game) -> dict[str, str]:
    point_ids = {p.id for m in game.point_maps for p in m.points}
    return {key: name for key, name in zone_names(game).items() if key not in point_ids}


def _stacked(pages: list[Page], name: str) -> Drawing:
    """Pages one below the other as one drawing."""
    items, y = [], 0.0
    for page in pages:
        items.append(Group(page.items, dy=y, id=f"stacked-{page.id}"))
        y += page.height
    return Drawing(name, tuple(items), max(p.width for p in pages), y)


def _grid_for(game: Game, drawing: Drawing, k: float) -> HexGrid | None:
    drawn = drawn_hexes(drawing.items)
    for hex_map in game.hex_maps:
        if drawn and set(drawn) <= set(hex_map.hex_ids):
            return hex_grid(hex_map, drawn, k)
    return None


def _el(parent: ET.Element | None, cls: str, attrs: dict[str, str] | None = None,
        text: str | None = None) -> ET.Element:
    element = ET.Element(cls, attrs or {}) if parent is None else ET.SubElement(
        parent, cls, attrs or {})
    if text is not None:
        element.text = text
    return element


def dice_button(die: str) -> dict[str, str]:
    """A ``DiceButton``'s attributes for one of the game's dice (``d6``, ``2d6``): a toolbar
    button named by the die that rolls it and reports the total in the chat."""
    count, sides = parse_die(die)
    return {"name": die, "text": die, "tooltip": f"Roll {die}", "icon": "",
            "nDice": str(count), "nSides": str(sides), "plus": "0", "addToTotal": "0",
            "reportTotal": "true", "hotkey": "", "prompt": "false",
            "reportFormat": "** $name$ = $result$ *** <$PlayerName$>", "sortDice": "false"}


def _build_file(game: Game, collected: Collected, boards: list[Board],
                charts: list[tuple[str, Page]], k: float,
                faces: dict[str, str], stacks: list[tuple[str, str, list[ExportPiece]]]
                ) -> ET.Element:
    slots = len(collected.pieces) + sum(1 for p in collected.pieces if p.deck)
    root = _el(None, "VASSAL.build.GameModule", {
        "ModuleOther1": "", "ModuleOther2": "", "VassalVersion": VASSAL_VERSION,
        "description": f"{game.info.name}: made by warpress from its game data",
        "name": game.info.name or game.info.id, "nextPieceSlotId": str(slots + 1),
        "version": "1.0"})
    for cls in ("BasicCommandEncoder", "Documentation"):
        _el(root, f"{PKG}.{cls}")
    roster = _el(root, f"{PKG}.PlayerRoster", {"buttonKeyStroke": "", "buttonText": "Retire",
                                                 "buttonToolTip": "Switch sides"})
    for side in game.info.sides:
        _el(roster, "entry", text=side.name or side.id)
    _el(root, f"{PKG}.GlobalOptions", {"autoReport": "Always",
                                        "centerOnMove": "Use Preferences Setting",
                                        "chatterHTMLSupport": "Always",
                                        "nonOwnerUnmaskable": "Never", "playerIdFormat":
                                        "$PlayerName$", "promptString": "Opponents can unmask "
                                        "pieces"})
    for cls in ("Chatter", "KeyNamer", "PrototypesContainer", "properties.GlobalProperties",
                "properties.GlobalTranslatableMessages", "gamepieceimage."
                "GamePieceImageDefinitions"):
        _el(root, f"{PKG}.{cls}")
    _el(root, "VASSAL.i18n.Language")
    for die in game.info.dice:
        _el(root, f"{PKG}.DiceButton", dice_button(die))
    slots += sum(len(pieces) for _board, _where, pieces in stacks)
    root.set("nextPieceSlotId", str(slots + 1))
    gpids = iter(range(1, slots + 1))
    _palette(root, collected.pieces, gpids, k, faces)
    maps = {board.name: _map(root, board, index == 0) for index, board in enumerate(boards)}
    anchored = {board.name: board.anchors for board in boards}
    for index, (board_name, where, pieces) in enumerate(stacks, 1):
        x, y = anchored[board_name].get(where, (0, 0))
        stack = _el(maps[board_name], f"{PKG}.map.SetupStack", {
            "location": where, "name": f"set-up {index}: {where}", "owningBoard": board_name,
            "useGridLocation": str(where not in anchored[board_name]).lower(),
            "x": str(x), "y": str(y)})
        for entry in pieces:
            _slot(stack, "VASSAL.build.widget.PieceSlot", entry, next(gpids), k, faces)
    if game.decks:
        _deck_map(root, collected, gpids, k, faces, main=not boards)
    if charts:
        window = _el(root, f"{PKG}.ChartWindow", {"hotkey": "", "name": "Charts",
                                                   "text": "Charts", "tooltip": "Play aids"})
        tabs = _el(window, "VASSAL.build.widget.TabWidget", {"entryName": "Charts"})
        for name, page in charts:
            _el(tabs, "VASSAL.build.widget.Chart", {"chartName": page.title.split(": ")[-1]
                                                     + f" ({page.id})", "description": "",
                                                     "fileName": name})
    return root


def _palette(root: ET.Element, pieces: tuple[ExportPiece, ...], gpids: Iterator[int],
             k: float, faces: dict[str, str]) -> None:
    window = _el(root, f"{PKG}.PieceWindow", {"defaultWidth": "0", "hidden": "false",
                                               "hotkey": "", "icon": "", "name": "Pieces",
                                               "scale": "1.0", "text": "Pieces",
                                               "tooltip": "The game's pieces"})
    tabs = _el(window, "VASSAL.build.widget.TabWidget", {"entryName": "Pieces"})
    groups: dict[str, dict[str, list[ExportPiece]]] = {}
    for entry in pieces:
        groups.setdefault(entry.side, {}).setdefault(entry.kind, []).append(entry)
    for side, kinds in groups.items():
        panel = _el(tabs, "VASSAL.build.widget.PanelWidget", {
            "entryName": side, "fixed": "false", "nColumns": "1", "scale": "1.0",
            "vert": "true"})
        for kind, entries in kinds.items():
            listing = _el(panel, "VASSAL.build.widget.ListWidget", {
                "divider": "150", "entryName": kind, "height": "0", "scale": "1.0",
                "width": "0"})
            for entry in entries:
                _slot(listing, "VASSAL.build.widget.PieceSlot", entry, next(gpids), k, faces)


def _slot(parent: ET.Element, cls: str, entry: ExportPiece, gpid: int, k: float,
          faces: dict[str, str], card: bool = False) -> None:
    piece = entry.piece
    front, back = faces[f"{piece.id}-front"], faces.get(f"{piece.id}-back", "")
    state = basic_state(str(gpid))
    name = entry.label
    if piece.back is None:
        text = add_piece([basic_piece(front, name)], [state])
    elif card:
        text = add_piece([card_mask(back), basic_piece(front, name)], ["null;", state])
    else:
        text = add_piece([flip_layers(front, back), basic_piece("", name)], ["1", state])
    _el(parent, cls, {"entryName": piece.id, "gpid": str(gpid),
                      "height": str(math.ceil(piece.h * k)),
                      "width": str(math.ceil(piece.w * k))}, text)


_MAP_PARTS = ("StackMetrics", "ForwardToKeyBuffer", "Scroller", "ForwardToChatter",
              "MenuDisplayer", "MapCenterer", "StackExpander", "PieceMover", "KeyBufferer",
              "ImageSaver", "CounterDetailViewer", "Flare", "Zoomer", "SelectionHighlighters",
              "HighlightLastMoved")


def _new_map(root: ET.Element, name: str, main: bool) -> ET.Element:
    return _el(root, f"{PKG}.Map", {
        "allowMultiple": "false", "backgroundcolor": "255,255,255", "buttonName": name,
        "changeFormat": "$message$", "color": "0,0,0", "createFormat":
        "$pieceName$ created in $location$", "edgeHeight": "0", "edgeWidth": "0",
        "hideKey": "", "hotkey": "", "icon": "", "launch": "false" if main else "true",
        "mapName": name, "markMoved": "Never", "markUnmovedHotkey": "", "markUnmovedIcon": "",
        "markUnmovedText": "", "markUnmovedTooltip": "", "moveKey": "", "moveToFormat":
        "$pieceName$ moves $previousLocation$ -> $location$", "moveWithinFormat":
        "$pieceName$ moves $previousLocation$ -> $location$", "showKey": "",
        "thickness": "3", "tooltip": name})


def _map_parts(element: ET.Element) -> None:
    for part in _MAP_PARTS:
        cls = f"{PKG}.map.{part}"
        if part == "StackMetrics":
            _el(element, cls, {"bottom": "40,0", "color": "255,255,255", "disabled": "false",
                               "down": "37,0", "exSepX": "6", "exSepY": "18", "top": "38,0",
                               "unexSepX": "2", "unexSepY": "4", "up": "39,0"})
        else:
            _el(element, cls)
    _el(element, f"{PKG}.properties.GlobalProperties")


def _map(root: ET.Element, board: Board, main: bool) -> ET.Element:
    element = _new_map(root, board.name, main)
    picker = _el(element, f"{PKG}.map.BoardPicker", {
        "addColumnText": "Add column", "addRowText": "Add row", "boardPrompt": "Select board",
        "slotHeight": "125", "slotScale": "0.2", "slotWidth": "350",
        "title": "Choose Boards"})
    b = _el(picker, f"{PKG}.map.boardPicker.Board", {
        "image": board.image, "name": board.name, "reversible": "false"})
    if board.grid:
        grid = _el(b, f"{PKG}.map.boardPicker.board.HexGrid", board.grid.grid)
        if board.grid.numbering:
            _el(grid, f"{PKG}.map.boardPicker.board.mapgrid.HexGridNumbering",
                board.grid.numbering)
    elif board.zones:
        zoned = _el(b, f"{PKG}.map.boardPicker.board.ZonedGrid")
        for name, path in board.zones:
            _el(zoned, f"{PKG}.map.boardPicker.board.mapgrid.Zone", {
                "highlightProperty": "", "locationFormat": "$name$", "name": name,
                "path": path, "useHighlight": "false", "useParentGrid": "false"})
    _map_parts(element)
    return element


def _deck_map(root: ET.Element, collected: Collected, gpids: Iterator[int], k: float,
              faces: dict[str, str], main: bool) -> None:
    """A "Cards" window: a blank board with a face-down draw pile per deck."""
    game = collected.game
    decks = [(deck, [p for p in collected.pieces if p.deck == deck.id]) for deck in game.decks]
    decks = [(deck, cards) for deck, cards in decks if cards]
    if not decks:
        return
    gap = 20
    width = max(math.ceil(c[0].piece.w * k) for _d, c in decks)
    height = max(math.ceil(c[0].piece.h * k) for _d, c in decks)
    element = _new_map(root, "Cards", main)
    picker = _el(element, f"{PKG}.map.BoardPicker", {
        "addColumnText": "Add column", "addRowText": "Add row", "boardPrompt": "Select board",
        "slotHeight": "125", "slotScale": "0.2", "slotWidth": "350",
        "title": "Choose Boards"})
    total_w = len(decks) * (width + gap) + gap
    _el(picker, f"{PKG}.map.boardPicker.Board", {
        "color": "230,230,230", "height": str(height + 2 * gap), "image": "",
        "name": "Cards", "reversible": "false", "width": str(total_w)})
    for index, (deck, cards) in enumerate(decks):
        pile = _el(element, f"{PKG}.map.DrawPile", {
            "allowMultiple": "false", "allowSelect": "false", "canSave": "false",
            "color": "0,0,0", "draw": "true", "drawFaceUp": "false", "faceDown": "Always",
            "height": str(height), "name": deck.label, "owningBoard": "Cards",
            "reshufflable": "false", "reversible": "false", "shuffle": "Always",
            "width": str(width), "x": str(gap + index * (width + gap) + width // 2),
            "y": str(gap + height // 2)})
        for entry in cards:
            _slot(pile, "VASSAL.build.widget.CardSlot", entry, next(gpids), k, faces,
                  card=True)
    _map_parts(element)


def _moduledata(game: Game) -> bytes:
    root = ET.Element("data", {"version": "1"})
    ET.SubElement(root, "version").text = "1.0"
    ET.SubElement(root, "VassalVersion").text = VASSAL_VERSION
    ET.SubElement(root, "dateSaved").text = "0"
    ET.SubElement(root, "description").text = f"{game.info.name}: made by warpress"
    ET.SubElement(root, "name").text = game.info.name
    data: bytes = ET.tostring(root, encoding="UTF-8", xml_declaration=True)
    return data

"""components/vassal.py: the .vmod unpacked and read as VASSAL 3.7 reads it.

The grid checks hold an independent copy of VASSAL's own arithmetic
(``HexGrid.getRawColumn/getRawRow``, ``HexGridNumbering.getRow`` with ``stagger``,
``RegularGridNumbering.getName``): the location VASSAL names at the centre of every hex
the map drawing has must be that hex's id.
"""

from __future__ import annotations

import io
import math
import xml.etree.ElementTree as ET
import zipfile

import pytest
from every_game import every_game, game_named, starter_game
from PIL import Image
from warpress.components import vassal
from warpress.components.collect import drawing_title
from warpress.components.export import collect, export_game
from warpress.components.primitives import Group, Polygon
from warpress.engine.loader import builtin, load_game
from warpress.starter.new import new_game

#: every registered game, the starting game and the test fixtures
GAMES = every_game()
DPI = 100
K = DPI / 25.4


@pytest.fixture(scope="module")
def loaded(tmp_path_factory):
    """Each game of GAMES by its name."""
    starter = starter_game(tmp_path_factory.mktemp("new"))
    return {name: game_named(name, starter) for name in GAMES}


@pytest.fixture(scope="module")
def modules(tmp_path_factory, loaded):
    out = tmp_path_factory.mktemp("vmod")
    made = {}
    for name, game in loaded.items():
        result = export_game(game, "vassal", out / name.replace("/", "-"))
        made[name] = zipfile.ZipFile(io.BytesIO(result.files[0].read_bytes()))
    return made


def build_file(module: zipfile.ZipFile) -> ET.Element:
    return ET.fromstring(module.read("buildFile.xml"))


# --- VASSAL's arithmetic, from its source ---------------------------------------------------


def java_round(value: float) -> int:
    return math.floor(value + 0.5)


def vassal_location(grid: dict, numbering: dict, x: float, y: float) -> str:
    """HexGridNumbering.locationName at pixel (x, y) with locationFormat $gridLocation$."""
    if grid["sideways"] == "true":
        x, y = y, x
    x0, y0, dx, dy = int(grid["x0"]), int(grid["y0"]), float(grid["dx"]), float(grid["dy"])
    column = math.floor((x - x0) / dx + 0.5)  # getRawColumn
    nx = java_round((x - x0) / dx)  # getRawRow
    row = java_round((y - y0) / dy) if nx % 2 == 0 else java_round((y - y0 - dy / 2) / dy)
    if numbering["stagger"] == "true" and column % 2 != 0:
        row += 1
    col_name = java_name(column + int(numbering["hOff"]), numbering["hType"],
                         int(numbering["hLeading"]))
    row_name = java_name(row + int(numbering["vOff"]), numbering["vType"],
                         int(numbering["vLeading"]))
    sep = numbering["sep"]
    return col_name + sep + row_name if numbering["first"] == "H" else row_name + sep + col_name


def java_name(n: int, kind: str, leading: int) -> str:
    """RegularGridNumbering.getName(int, char, int)."""
    out = "-" if n < 0 else ""
    n = abs(n)
    if kind == "A":
        while True:
            out += "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[n % 26]
            n -= 26
            if n < 0:
                return out
    while leading > 0 and n < 10 ** leading:
        leading -= 1
        out += "0"
    return out + str(n)


def vassal_centre(grid: dict, nx: int, ny: int) -> tuple[int, int]:
    """HexGrid.hexPointCenterFromRawIndex, back in page axes."""
    x0, y0, dx, dy = int(grid["x0"]), int(grid["y0"]), float(grid["dx"]), float(grid["dy"])
    x = int(dx * nx + x0)
    y = int(dy * ny + y0) if nx % 2 == 0 else int(dy * ny + int(dy / 2) + y0)
    return (y, x) if grid["sideways"] == "true" else (x, y)


def exact_centre(grid: dict, nx: int, ny: int) -> tuple[float, float]:
    """The centre of raw hex (nx, ny) from the grid's attributes, before VASSAL's rounding."""
    x0, y0, dx, dy = int(grid["x0"]), int(grid["y0"]), float(grid["dx"]), float(grid["dy"])
    x, y = dx * nx + x0, dy * ny + y0 + (dy / 2 if nx % 2 else 0)
    return (y, x) if grid["sideways"] == "true" else (x, y)


def raw_of(grid: dict, x: float, y: float) -> tuple[int, int]:
    if grid["sideways"] == "true":
        x, y = y, x
    x0, y0, dx, dy = int(grid["x0"]), int(grid["y0"]), float(grid["dx"]), float(grid["dy"])
    nx = java_round((x - x0) / dx)
    ny = java_round((y - y0) / dy) if nx % 2 == 0 else java_round((y - y0 - dy / 2) / dy)
    return nx, ny


# --- the hex centres each map drawing uses -------------------------------------------------


def polygon_centres(items, ox=0.0, oy=0.0, scale=1.0) -> dict[str, tuple[float, float]]:
    """hex id -> centre (mm) of every polygon the drawing has with an id ``...hex-<id>``."""
    out = {}
    for item in items:
        if isinstance(item, Group):
            out.update(polygon_centres(item.items, ox + item.dx * scale, oy + item.dy * scale,
                                       scale * item.scale))
        elif isinstance(item, Polygon) and "hex-" in (item.id or ""):
            hex_id = item.id.split("hex-", 1)[1]
            out.setdefault(hex_id, (ox + scale * sum(x for x, _ in item.points) / 6,
                                    oy + scale * sum(y for _, y in item.points) / 6))
    return out


def drawing_of(game, title: str):
    """The kit's drawing of the board named ``title`` (boards are named by their titles)."""
    return next(d for d in collect(game).drawings if drawing_title(game, d.name) == title)


CENTRES = [("midway", "Operations area (combat area)", 130),
           ("nightfighter", "Player map", 486),
           ("nightfighter", "Referee map", 486)]


def board(module: zipfile.ZipFile, name: str) -> ET.Element:
    return next(b for b in build_file(module).iter(f"{vassal.PKG}.map.boardPicker.Board")
                if b.get("name") == name)


@pytest.mark.parametrize(("game", "name", "count"), CENTRES)
def test_every_hex_centre_is_named_by_its_own_id(modules, game, name, count):
    grid_names_every_hex(modules[game], builtin(game), name, count)


def grid_names_every_hex(module, game, name: str, count: int) -> None:
    element = board(module, name)
    grid = element.find(f"{vassal.PKG}.map.boardPicker.board.HexGrid")
    numbering = grid.find(f"{vassal.PKG}.map.boardPicker.board.mapgrid.HexGridNumbering")
    hexes = polygon_centres(drawing_of(game, name).items)
    assert len(hexes) == count
    for hex_id, (x, y) in hexes.items():
        px, py = x * K, y * K
        assert vassal_location(grid.attrib, numbering.attrib, px, py) == hex_id
        nx, ny = raw_of(grid.attrib, px, py)
        ex, ey = exact_centre(grid.attrib, nx, ny)
        assert abs(ex - px) <= 1 and abs(ey - py) <= 1, hex_id  # the grid: to the pixel
        vx, vy = vassal_centre(grid.attrib, nx, ny)  # VASSAL truncates to whole pixels twice
        assert abs(vx - px) < 1.5 and abs(vy - py) < 1.5, hex_id


@pytest.mark.parametrize(("game", "name", "count"), CENTRES)
def test_the_board_image_is_the_drawing_at_the_grids_scale(modules, game, name, count):
    element = board(modules[game], name)
    drawing = drawing_of(builtin(game), name)
    image = Image.open(io.BytesIO(modules[game].read(f"images/{element.get('image')}")))
    assert image.size == (math.ceil(drawing.width * K - 1e-6),
                          math.ceil(drawing.height * K - 1e-6))


def test_midway_and_nightfighter_ids_as_the_games_write_them(modules):
    grid = board(modules["midway"], "Operations area (combat area)")[0]
    numbering = grid[0]
    assert (numbering.get("first"), numbering.get("sep"), numbering.get("hType"),
            numbering.get("vType")) == ("H", "-", "A", "N")
    grid = board(modules["nightfighter"], "Player map")[0]
    assert (grid[0].get("sep"), grid[0].get("hLeading"), grid[0].get("stagger")) == (
        "", "1", "false")


def piece_images(definition: str) -> list[str]:
    """The image names in a PieceSlot's AddPiece command (BasicPiece, Embellishment
    layers, Obscurable mask)."""
    names = []
    for trait in definition.split("/")[2].split("\t"):
        fields = trait.split(";")
        if trait.startswith("piece;"):
            names.append(fields[3])
        elif trait.startswith("emb2;"):
            names.extend(fields[16].split(","))
        elif trait.startswith("obs;"):
            names.append(fields[2])
    return [n for n in names if n]


@pytest.mark.parametrize("game", GAMES)
def test_every_image_named_is_in_the_module(modules, game):
    module = modules[game]
    root = build_file(module)
    held = {n.removeprefix("images/") for n in module.namelist() if n.startswith("images/")}
    named = [b.get("image") for b in root.iter(f"{vassal.PKG}.map.boardPicker.Board")
             if b.get("image")]
    named += [c.get("fileName") for c in root.iter("VASSAL.build.widget.Chart")]
    for cls in ("VASSAL.build.widget.PieceSlot", "VASSAL.build.widget.CardSlot"):
        for slot in root.iter(cls):
            assert slot.text.startswith("+/null/")
            named += piece_images(slot.text)
    assert named and set(named) <= held


@pytest.mark.parametrize("game", GAMES)
def test_every_piece_of_the_kit_is_in_the_palette_once(modules, loaded, game):
    root = build_file(modules[game])
    window = root.find(f"{vassal.PKG}.PieceWindow")
    slots = [s.get("entryName") for s in window.iter("VASSAL.build.widget.PieceSlot")]
    assert sorted(slots) == sorted(p.id for p in collect(loaded[game]).pieces)
    gpids = [s.get("gpid") for s in root.iter() if s.get("gpid")]
    assert len(gpids) == len(set(gpids))
    assert int(root.get("nextPieceSlotId")) == len(gpids) + 1


def test_a_two_sided_counter_flips_and_a_card_is_masked_by_its_back(modules):
    root = build_file(modules["midway"])
    slots = {s.get("entryName"): s.text for s in root.iter("VASSAL.build.widget.PieceSlot")}
    assert piece_images(slots["counter-a6m-1"]) == ["counter-a6m-1-front.png",
                                                   "counter-a6m-1-back.png"]
    cards = {s.get("entryName"): s.text for s in root.iter("VASSAL.build.widget.CardSlot")}
    deck = builtin("midway").decks[0]
    assert len(cards) == sum(c.count for c in builtin("midway").cards if c.deck == deck.id)
    assert all(text.split("/")[2].startswith("obs;70,130;card-") for text in cards.values())


def test_decks_are_face_down_draw_piles(modules):
    piles = list(build_file(modules["midway-cards"]).iter(f"{vassal.PKG}.map.DrawPile"))
    assert [p.get("name") for p in piles] == [d.label for d in builtin("midway-cards").decks]
    assert {p.get("faceDown") for p in piles} == {"Always"}


def test_point_maps_have_a_zone_round_every_point(modules):
    root = build_file(modules["axis-allies"])
    world = next(b for b in root.iter(f"{vassal.PKG}.map.boardPicker.Board")
                 if b.get("name") == "World map (Classic board)")
    names = {z.get("name") for z in world.iter(f"{vassal.PKG}.map.boardPicker.board.mapgrid."
                                                "Zone")}
    points = {p.name or p.id for m in builtin("axis-allies").point_maps for p in m.points}
    assert points <= names
    for zone in world.iter(f"{vassal.PKG}.map.boardPicker.board.mapgrid.Zone"):
        corners = [tuple(map(int, c.split(","))) for c in zone.get("path").split(";")]
        assert len(set(corners)) >= 3


def test_moduledata_names_the_game_and_vassal_version(modules):
    data = ET.fromstring(modules["nimitz"].read("moduledata"))
    assert data.get("version") == "1"
    assert data.findtext("name") == builtin("nimitz").info.name
    assert data.findtext("VassalVersion").startswith("3.7")


def test_same_data_same_module_bytes(tmp_path):
    first = export_game(builtin("midway"), "vassal", tmp_path / "a").files[0].read_bytes()
    second = export_game(builtin("midway"), "vassal", tmp_path / "b").files[0].read_bytes()
    assert first == second
    names = zipfile.ZipFile(io.BytesIO(first)).namelist()
    assert names[:2] == ["buildFile.xml", "moduledata"]
    assert {i.date_time for i in zipfile.ZipFile(io.BytesIO(first)).infolist()} == {
        vassal.ZIP_TIME}


def test_sequence_escapes_as_vassals_sequence_encoder():
    assert vassal.sequence(["a;b", "", "\\x", "'q'"], ";") == "a\\;b;;'\\x';''q''"


def test_a_zone_is_the_outline_of_its_element_where_its_groups_put_it():
    from warpress.components.primitives import Circle, Group, Line, Polygon, Rect, Text

    drawing = (Line(0, 0, 1, 1, id="route-x-a"),
               Group((Group((Rect(1, 2, 3, 4, id="box-a"), Text(0, 0, "a")), dx=5, dy=7,
                            scale=2.0),
                      Circle(0, 0, 1, id="point-b"),
                      Polygon(((0, 0), (2, 0), (1, 3)), id="cell-c")), dx=10, dy=50),)
    assert vassal.zones(drawing, {"a": "A", "b": "B", "c": "C", "x-a": "X"}, 10.0) == [
        ("X", "0,0;10,0;10,10;0,10"), ("A", "170,610;230,610;230,690;170,690"),
        ("B", "90,490;110,490;110,510;90,510"), ("C", "100,500;120,500;110,530")]


GRIDS = [  # (orientation, offset, columns, rows, hex id format)
    ("flat", "even-q", "{count: 5, labels: letters}", "{count: 4}", "{col}-{row}"),
    ("flat", "odd-q", "{count: 6, first: 3, pad: 2}", "{count: 5, pad: 2}", "{col}{row}"),
    ("pointy", "odd-r", "{count: 5, labels: letters}", "{count: 4}", "{col}-{row}"),
    ("pointy", "even-r", "{count: 4, pad: 3}", "{count: 6, labels: letters, first: 2}",
     "{row}.{col}"),
]


@pytest.mark.parametrize(("orientation", "offset", "columns", "rows", "hex_id"), GRIDS)
def test_a_designers_grid_is_numbered_by_its_own_ids(tiny_game, tmp_path, orientation, offset,
                                                     columns, rows, hex_id):
    path = tiny_game / "game.yaml"
    text = path.read_text(encoding="utf-8")
    text = text.replace("    columns: {count: 5, labels: letters}\n    rows: {count: 4}\n"
                        '    hex_id: "{col}-{row}"\n',
                        f"    columns: {columns}\n    rows: {rows}\n    hex_id: \"{hex_id}\"\n"
                        f"    orientation: {orientation}\n    offset: {offset}\n")
    text = text.replace("hexes: [C-2]", "hexes: []")
    assert f"orientation: {orientation}" in text
    path.write_text(text, encoding="utf-8")
    game = load_game(str(tiny_game))
    result = export_game(game, "vassal", tmp_path)
    module = zipfile.ZipFile(io.BytesIO(result.files[0].read_bytes()))
    hex_map = game.hex_maps[0]
    grid_names_every_hex(module, game, hex_map.name, len(hex_map.hex_ids))
    grid = board(module, hex_map.name)[0]
    assert grid.get("sideways") == str(orientation == "pointy").lower()


def zone_path(root: ET.Element, name: str) -> list[tuple[int, int]]:
    zone = next(z for z in root.iter(f"{vassal.PKG}.map.boardPicker.board.mapgrid.Zone")
                if z.get("name") == name)
    return [tuple(map(int, c.split(","))) for c in zone.get("path").split(";")]


def inside(polygon: list[tuple[int, int]], x: int, y: int) -> bool:
    """Even-odd rule: is (x, y) inside ``polygon``?"""
    hit = False
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


def test_the_standard_set_up_is_placed_at_start_in_its_territories(modules):
    game = builtin("axis-allies")
    root = build_file(modules["axis-allies"])
    zones = {z.get("name") for z in root.iter(f"{vassal.PKG}.map.boardPicker.board.mapgrid.Zone")}
    stacks = list(root.iter(f"{vassal.PKG}.map.SetupStack"))
    assert stacks and {s.get("location") for s in stacks} <= zones
    for stack in stacks:  # at the zone, or at the box drawn in it to hold the pieces
        assert stack.get("useGridLocation") == "true" or inside(
            zone_path(root, stack.get("location")), int(stack.get("x")), int(stack.get("y")))
    points = {p.id: p.name or p.id for m in game.point_maps for p in m.points}
    want: dict[str, int] = {}
    for item in game.setup:
        if item.scenario in (None, "all", "standard"):
            for placement in item.place:
                if placement.unit and placement.where in points:
                    name = points[placement.where]
                    want[name] = want.get(name, 0) + (placement.count or 1)
    placed = {s.get("location"): len(s.findall("VASSAL.build.widget.PieceSlot")) for s in stacks
              if s.get("location") in points.values()}
    assert placed == want


def test_a_unit_set_up_on_a_track_space_starts_there(modules):
    stacks = build_file(modules["midway"]).iter(f"{vassal.PKG}.map.SetupStack")
    where = {s.get("location"): [p.get("entryName") for p in s] for s in stacks}
    assert where["Turn record track 4"] == ["counter-invasion-force-1"]


def test_charts_are_legible_pages(modules):
    module = modules["nimitz"]
    charts = list(build_file(module).iter("VASSAL.build.widget.Chart"))
    assert len(charts) == len(collect(builtin("nimitz")).charts)
    image = Image.open(io.BytesIO(module.read(f"images/{charts[0].get('fileName')}")))
    assert min(image.size) >= math.floor(210 / 25.4 * vassal.CHART_DPI)  # an A4 page at 150 dpi


@pytest.mark.parametrize("name", ["../../evil.sh", "/etc/evil", "images/../../evil",
                                  "images\\..\\..\\evil"])
def test_a_zip_entry_leading_out_of_the_module_is_refused(name):
    from warpress.engine.errors import BadInput

    with pytest.raises(BadInput, match="would lead outside its folder"):
        vassal.zip_bytes({"buildFile.xml": b"<x/>", name: b"#!/bin/sh"})


def test_a_set_up_written_with_hex_starts_on_its_hexes(tmp_path):
    """The starting game places every unit with ``hex:``: each is in an at-start stack on
    its hex, named by the grid's own location."""
    folder = new_game(str(tmp_path / "bfm")).folder
    game = load_game(str(folder))
    result = export_game(game, "vassal", tmp_path / "out")
    root = build_file(zipfile.ZipFile(io.BytesIO(result.files[0].read_bytes())))
    stacks = {s.get("location"): sorted(p.get("entryName").split("-")[1] for p in s)
              for s in root.iter(f"{vassal.PKG}.map.SetupStack")}
    want: dict[str, list[str]] = {}
    for item in game.setup:
        for placement in item.place:
            if placement.hex:
                want.setdefault(placement.hex, []).extend([placement.unit] *
                                                          (placement.count or 1))
    assert want and {hex_id: sorted(units) for hex_id, units in want.items()} == {
        hex_id: units for hex_id, units in stacks.items() if hex_id in want}
    assert all(s.get("useGridLocation") == "true" and s.get("owningBoard") == game.hex_maps[0].name
               for s in root.iter(f"{vassal.PKG}.map.SetupStack") if s.get("location") in want)


def test_a_marker_on_a_track_without_track_starts_at_the_tracks_start(modules):
    """Axis & Allies' round marker is set up ``where: round`` (the track, whose start is 1);
    its NPL markers name no box the data gives: left to the players and counted."""
    stacks = build_file(modules["axis-allies"]).iter(f"{vassal.PKG}.map.SetupStack")
    where = {s.get("location"): [p.get("entryName") for p in s] for s in stacks}
    round_track = next(t for t in builtin("axis-allies").tracks if t.id == "round")
    assert where[f"{round_track.name} 1"] == ["counter-marker-round-marker-1"]
    game = builtin("axis-allies")
    collected = collect(game)
    left = vassal.at_start(game, collected, vassal._boards(collected, K)).left
    assert left == [f"npl-{side}: national-production"
                    for side in ("russia", "germany", "uk", "japan", "usa")]


@pytest.mark.parametrize("game", GAMES)
def test_every_die_of_the_game_has_a_dice_button(modules, loaded, game):
    buttons = {b.get("name"): b.attrib
               for b in build_file(modules[game]).iter(f"{vassal.PKG}.DiceButton")}
    assert set(buttons) == set(loaded[game].info.dice)
    for die, attrs in buttons.items():
        count, sides = (int(n or 1) for n in die.split("d"))
        assert (attrs["nDice"], attrs["nSides"]) == (str(count), str(sides))
        assert attrs["reportTotal"] == "true" and attrs["text"] == die


@pytest.mark.parametrize("game", GAMES)
def test_maps_and_boards_are_named_by_their_titles(modules, loaded, game):
    root = build_file(modules[game])
    maps = {m.get("mapName") for m in root.iter(f"{vassal.PKG}.Map")}
    boards = {b.get("name") for b in root.iter(f"{vassal.PKG}.map.boardPicker.Board")}
    data = loaded[game]
    titles = {m.name for m in (*data.hex_maps, *data.point_maps)}
    if not titles:  # a game of cards: its boards are its charts and decks, if any
        return
    assert boards <= maps and not [b for b in boards if b.startswith("map ")]
    assert titles & boards or game == "nightfighter"
    assert all(b[:1].isupper() for b in boards)

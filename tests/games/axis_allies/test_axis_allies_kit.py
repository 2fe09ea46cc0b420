"""Axis & Allies kit extensions: structure of the pages, not pixels."""

from __future__ import annotations

import math
import re

import pytest
from kit_walk import group_of, ids_on, page_of, texts_of
from pypdf import PdfReader
from warpress.components import aids
from warpress.components.kit import build_kit, parse_options
from warpress.components.primitives import Group, Line, Rect, walk
from warpress.engine.loader import builtin
from warpress.games.axis_allies import kit as aa

A4 = sorted((210.0, 297.0))


@pytest.fixture(scope="module")
def game():
    return builtin("axis-allies")


def test_every_territory_and_sea_zone_is_drawn_on_the_tiles(game, pages):
    world = game.get("point_maps", "world")
    tiles = [p for p in pages if p.id.startswith("map-world-") and p.id != "map-world-assembly"]
    assert len(tiles) > 1
    diagrams = [p.id for p in pages for r in walk(p.items)
                if isinstance(r, Rect) and r.cls == "assembly-tile" and r.id == "assembly-A1"]
    assert diagrams == ["map-world-C2"]  # in the legend's band, beside the legend's tile
    drawn = set().union(*(ids_on(p) for p in tiles))
    land = {f"territory-{p.id}" for p in world.points if p.kind != "sea"}
    sea = {f"sea-{p.id}" for p in world.points if p.kind == "sea"}
    assert land | sea <= drawn
    assert len(land) == 70 and len(sea) == 58


def test_territories_carry_owner_capital_and_factory(game):
    items, width, height = aa.world_map_drawing(game)
    groups = {i.id: i for i in walk(items) if isinstance(i, Group) and i.id}
    capitals = [g for g in groups.values() if "capital" in (g.cls or "").split()]
    assert {g.id for g in capitals} == {f"territory-{t}" for t in
                                        ("east-us", "germany", "japan", "russia",
                                         "united-kingdom")}
    germany = groups["territory-germany"]
    assert {"owner-germany", "factory"} <= set(germany.cls.split())
    assert "10" in texts_of(germany)
    box = next(i for i in germany.items if isinstance(i, Rect))
    assert box.style.stroke == aa.power_colour(game, "germany") == "#4d4d4d"
    assert width == 770 and height == 440  # the legend is placed by the tiler


def _seen(areas, route) -> bool:
    """The two areas of ``route`` are of one kind and share a border a player sees."""
    edges = {frozenset((a, b)): line for a, b, line in aa.neighbours(areas)}
    edge = edges.get(frozenset((route.a, route.b)))
    return edge is not None and aa.seen_border(areas[route.a], areas[route.b], edge)


def test_every_connection_is_drawn_and_shapes_do_not_overlap(game):
    """A mark, the far area's name (or a lettered badge) in each, or a border the player
    sees between two areas of one kind (no barrier on it: they connect)."""
    world = game.get("point_maps", "world")
    items, _w, _h = aa.world_map_drawing(game)
    ids = {i.id for i in walk(items) if i.id}
    areas = aa.layout(game, world)
    unmarked = 0
    for route in world.routes:
        rid = f"route-{route.a}-{route.b}"
        drawn = rid in ids or {f"{rid}-a", f"{rid}-b"} <= ids
        assert drawn or _seen(areas, route), rid
        unmarked += not drawn
    assert unmarked  # the map leaves the borders a player sees without names
    boxes = [(a.point.id, b) for a in aa.layout(game, world).values() for b in a.boxes()]
    for i, (a, box_a) in enumerate(boxes):
        for b, box_b in boxes[i + 1:]:
            assert not box_a.overlaps(box_b), (a, b)


def test_the_drawn_regions_agree_with_the_map_graph(game):
    """Neighbours in the data share a border (a mark is drawn across it) or are joined by a
    drawn link (the far area's name, or a lettered badge, in each); two territories or two
    sea zones that touch without a connection have a barrier on their border."""
    world = game.get("point_maps", "world")
    areas = aa.layout(game, world)
    items, _w, _h, lettered = aa.world_map(game)
    ids = {i.id for i in walk(items) if i.id}
    touching = {frozenset((a, b)) for a, b, _line in aa.neighbours(areas)}
    joined = {frozenset((r.a, r.b)) for r in world.routes}
    marks = 0
    for route in world.routes:
        rid = f"route-{route.a}-{route.b}"
        if rid in ids:
            assert frozenset((route.a, route.b)) in touching, rid  # a mark needs a border
            marks += 1
        else:
            assert {f"{rid}-a", f"{rid}-b"} <= ids or _seen(areas, route), rid
    assert marks >= 235  # of 309 connections (240 when measured): the rest are links
    barriers = {i.id for i in walk(items) if i.id and i.id.startswith("barrier-")}
    expected = {f"barrier-{'-'.join(sorted(p))}" for p in touching - joined
                if len({areas[x].land for x in p}) == 1}
    assert barriers == expected and len(barriers) > 10
    assert len(lettered) < 20


def test_territories_lie_where_they_are_on_the_globe(game):
    """Real geography: the United Kingdom west of Germany and north of Spain, Japan east of
    China, Australia south of India, Brazil south of the East US, Egypt south of Turkey."""
    areas = aa.layout(game, game.get("point_maps", "world"))

    def at(area_id):
        return areas[area_id].anchor

    assert at("united-kingdom")[0] < at("germany")[0] and at("united-kingdom")[1] < at("spain")[1]
    assert at("japan")[0] > at("china")[0]
    assert at("australia")[1] > at("india")[1]
    assert at("brazil")[1] > at("east-us")[1]
    assert at("anglo-sudan-egypt")[1] > at("turkey")[1]
    assert at("east-us")[0] < at("united-kingdom")[0] < at("russia")[0] < at("west-us")[0]


def test_no_connection_passes_through_a_third_area(game):
    """Each connection is a mark across the two areas' shared border lying in those two
    areas only, or the far area's name (or a lettered badge) in each area or beside its
    block."""
    from warpress.components.impose import SpatialIndex

    world = game.get("point_maps", "world")
    areas = aa.layout(game, world)
    items, _w, _h, lettered = aa.world_map(game)
    shapes = {i.id: i for i in walk(items) if i.id}
    index = SpatialIndex(())
    for route in world.routes:
        a, b = areas[route.a], areas[route.b]
        rid = f"route-{route.a}-{route.b}"
        if rid in shapes:
            bar = next(i for i in shapes[rid].items if isinstance(i, Line))
            for k in range(51):
                x = bar.x1 + (bar.x2 - bar.x1) * k / 50
                y = bar.y1 + (bar.y2 - bar.y1) * k / 50
                assert a.inside(x, y) or b.inside(x, y), rid
            continue
        if f"{rid}-a" not in shapes:
            assert _seen(areas, route), rid
            continue
        for part, area in (("a", a), ("b", b)):
            x0, y0, x1, y1 = index.box(shapes[f"{rid}-{part}"])
            beside = ((x0 + x1) / 2 - area.x) ** 2 + ((y0 + y1) / 2 - area.y) ** 2 < (
                max(area.w, area.h) / 2 + 12) ** 2
            assert area.region.box_inside(x0, y0, x1, y1) or beside, (rid, part)


def test_every_point_of_the_map_belongs_to_an_area_or_to_land_out_of_play(game):
    world = game.get("point_maps", "world")
    areas = list(aa.layout(game, world).values())
    out = aa.outlines(game)[aa.OUT_OF_PLAY]
    w, h = aa.map_size(world)
    bare = [(x, y) for x in range(1, int(w), 7) for y in range(1, int(h), 7)
            if not any(a.inside(x, y) for a in areas) and not out.inside(x, y)]
    assert not bare, bare[:5]


def test_every_area_holds_its_name_and_a_box_for_a_stack_or_points_to_them(game):
    """An area's block lies in its outline; where it does not fit, its name does and its
    stack box lies apart in the area or beside it (a frame and a leader), or the whole
    block is beside it (a small island); every territory but a neutral one has a box."""
    from warpress.components import holds

    world = game.get("point_maps", "world")
    areas = aa.layout(game, world)
    assert len(areas) == 128
    items, _w, _h = aa.world_map_drawing(game)
    shapes = {i.id: i for i in walk(items) if i.id}
    least = holds.least(game)
    for area in areas.values():
        assert f"cell-{area.point.id}" in shapes
        name = area.boxes()[0]
        beside = area.callout or (area.detached is not None and not area.apart)
        assert (f"callout-{area.point.id}" in shapes) == beside, area.point.id
        if not area.callout:
            assert area.region.box_inside(name.x0, name.y0, name.x1, name.y1), area.point.id
        if area.apart:
            box = area.boxes()[-1]
            assert area.region.box_inside(box.x0, box.y0, box.x1, box.y1), area.point.id
        stack = shapes.get(f"stack-{'beside-' * beside}{area.point.id}")
        assert not area.boxless, area.point.id
        if area.neutral:
            assert stack is None
            continue
        assert "holds" in stack.cls.split() and stack.w >= least and stack.h >= least


def _crossings(areas) -> tuple[list, list, list]:
    """The leaders that cross one another, those that run through another area's block or
    frame, and the pairs of boxes or frames drawn closer than 1 mm."""
    from warpress.components.labels import Box, segment_hits

    beside = [a for a in areas.values() if a.callout or (a.detached and not a.apart)]
    leaders = {a.point.id: aa.leader(a) for a in beside}
    crossed = [(m, n) for m in leaders for n in leaders
               if m < n and aa.segments_cross(*leaders[m], *leaders[n])]
    through = [(m, a.point.id) for m, ends in leaders.items() for a in areas.values()
               if a.point.id != m for box in a.boxes() if segment_hits(box, *ends)]
    drawn = {}
    for a in areas.values():
        if a.neutral:
            continue
        if a in beside:
            b = a.boxes()[-1]
            drawn[a.point.id] = Box(b.x0 - aa.FRAME, b.y0 - aa.FRAME, b.x1 + aa.FRAME,
                                    b.y1 + aa.FRAME)
        else:
            x, y = a.detached or (a.x, a.boxes()[0].y1 - a.stack / 2 - 2.0)
            drawn[a.point.id] = Box(x - a.stack / 2, y - a.stack / 2, x + a.stack / 2,
                                    y + a.stack / 2)
    touching = [(m, n) for m in drawn for n in drawn
                if m < n and drawn[m].overlaps(drawn[n], gap=1.0)]
    return crossed, through, touching


#: The longest leader measured on the tiled board (A4 14.1 mm, Letter 42.1 mm), with room.
LONGEST_LEADER = {"a4": 20.0, "letter": 45.0}
MEAN_LEADER = {"a4": 5.0, "letter": 8.0}  # measured 4.1 and 7.2 mm


@pytest.mark.parametrize("paper_name", ["a4", "letter"])
def test_every_box_is_near_its_area_its_leader_short_and_crossing_nothing(game, paper_name):
    """On the board as the kit tiles it (its boxes out of the lanes where the tiles meet):
    every territory and sea zone keeps its box, no leader crosses another or runs through
    another area's block or frame, no two boxes touch, and the leaders stay short."""
    paper = parse_options(paper_name, "pdf", "long", "0,0", "map").paper
    *_drawing, clear = aa.tiled_world(game, paper)
    assert clear
    areas = aa.world_layout(game, game.get("point_maps", "world"), clear=clear,
                            scale=aa.board_scale(game, paper))
    assert [a.point.id for a in areas.values() if a.boxless] == []
    crossed, through, touching = _crossings(areas)
    assert (crossed, through, touching) == ([], [], [])
    lengths = [math.dist(*aa.leader(a)) for a in areas.values()
               if a.callout or (a.detached and not a.apart)]
    assert max(lengths) < LONGEST_LEADER[paper_name]
    assert sum(lengths) / len(lengths) < MEAN_LEADER[paper_name]


def test_leaders_that_cross_are_told_from_leaders_that_meet():
    """Two leaders that cross are caught; two that only share an end are not."""
    assert aa.segments_cross((0, 0), (10, 10), (0, 10), (10, 0))
    assert not aa.segments_cross((0, 0), (10, 10), (20, 0), (20, 10))
    assert not aa.segments_cross((0, 0), (10, 10), (10, 10), (20, 0))  # ends that touch


def test_an_area_without_an_outline_stops_the_build_naming_it(game):
    from dataclasses import replace

    from warpress.engine.errors import BadInput

    world = game.get("point_maps", "world")
    atlantis = replace(world.points[0], id="atlantis")
    with pytest.raises(BadInput, match="map area 'atlantis' has no outline"):
        aa.layout(game, replace(world, points=(*world.points, atlantis)))


def test_battle_board_columns_list_units_by_hit_value(pages):
    board = page_of(pages, "battle-board")
    ids = ids_on(board)
    for side in ("attacker", "defender"):
        for value in (1, 2, 3, 4):
            assert f"board-{side}-{value}" in ids
    assert {"board-casualties", "board-attacker-transports"} <= ids
    attack3 = " ".join(texts_of(group_of(board.items, "board-attacker-3")))
    assert "Armor" in attack3 and "Fighter" in attack3
    defend4 = " ".join(texts_of(group_of(board.items, "board-defender-4")))
    assert "Fighter" in defend4 and "Battleship" in defend4


def test_production_chart_has_a_box_per_value_and_the_starting_levels(game, pages):
    values = game.get("tracks", "national-production").values
    boxes = [i for page in pages for i in walk(page.items)  # flowed with the aids
             if isinstance(i, Group) and i.id and i.id.startswith("npl-")
             and i.id[4:].isdigit()]
    assert len(boxes) == len(values) == 148
    starts = {i.id for i in boxes if "start" in i.cls.split()}
    assert starts == {f"npl-{game.constant(f'starting-ipc-{s.id}')}" for s in game.info.sides}


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_production_notes_print_under_the_last_row_of_the_chart(game, paper):
    pages = [p.page for p in aa.production_pages(game, parse_options(paper, "pdf", "long", "0,0",
                                                                      "map"))]
    last = f"npl-{game.get('tracks', 'national-production').values[-1]}"
    (with_last,) = [p for p in pages if last in {g.id for g in walk(p.items)
                                                  if isinstance(g, Group)}]
    assert any(isinstance(g, Group) and "npl-notes" in (g.id, g.cls) for g in walk(with_last.items))
    # the whole chart on that one page: every value's box with the last
    boxes = {g.id for g in walk(with_last.items) if isinstance(g, Group) and g.id
             and g.id.startswith("npl-") and g.id[4:].isdigit()}
    assert len(boxes) == len(game.get("tracks", "national-production").values)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_board_is_drawn_smaller_only_where_that_spares_a_column_of_tiles(game, paper):
    from warpress.components.impose import planned_seams

    paper_ = parse_options(paper, "pdf", "long", "0,0", "map").paper
    scale = aa.board_scale(game, paper_)
    w, h = aa.map_size(game.get("point_maps", "world"))
    full, drawn = (len(planned_seams(w * k, h * k, paper_)[0]) for k in (1.0, scale))
    assert scale in (1.0, aa.SHRINK)
    assert (scale < 1.0) == (drawn < full)
    _items, width, _h, _lettered, _clear = aa.tiled_world(game, paper_)
    assert width == pytest.approx(w * scale)


def test_no_name_or_badge_lies_under_a_leader_or_its_dot(game):
    """A far area's name ("→ Madagascar") or a lettered badge is never covered by the dot or
    line of a box set beside its area."""
    from warpress.components.impose import SpatialIndex

    areas = aa.layout(game, game.get("point_maps", "world"))
    items, _w, _h, _lettered = aa.world_map(game)
    index = SpatialIndex(())
    names = [index.box(i) for i in walk(items)
             if "far-connection" in (getattr(i, "cls", None) or "").split()]
    assert names
    leaders = [b for a in areas.values() if (a.callout or a.detached) and not a.apart
               for b in aa.leader_boxes(a)]
    for x0, y0, x1, y1 in names:
        assert not [b for b in leaders if b.x0 < x1 and x0 < b.x1 and b.y0 < y1 and y0 < b.y1]


def test_the_unit_card_shows_each_units_counter_in_its_row(game, pages):
    card = next(g for p in pages for g in walk(p.items)
                if isinstance(g, Group) and g.id == "unit-card")
    pictures = [g for g in walk(card.items)
                if isinstance(g, Group) and g.cls == "unit-card-counter"]
    assert len(pictures) == len(game.table("unit").rows)


def test_the_victory_check_prints_a_sentence_per_row(game, pages):
    block = next(g for p in pages for g in walk(p.items)
                 if isinstance(g, Group) and g.id == "table-victory")
    text = " ".join(texts_of(block))
    table = game.table("victory")
    for row in table.rows:
        assert str(table.result(row)["reason"]).split()[-1].rstrip(")") in text
    assert " any " not in f" {text} "  # no grid of conditions


def test_markers_of_one_family_print_their_word_at_one_size(game):
    from warpress.components.pieces import marker_pieces
    from warpress.components.primitives import Text

    families: dict[str, set[float]] = {}
    for marker in game.markers:
        words = [t for t in walk(marker_pieces(game, marker)[0].front)
                 if isinstance(t, Text) and t.cls == "word"]
        families.setdefault(marker.id.rsplit("-", 1)[0], set()).update(t.size for t in words)
    assert {"control", "npl", "ipc"} <= set(families)
    assert all(len(sizes) == 1 for sizes in families.values()), families


def test_weapons_chart_has_a_row_per_weapon_and_a_box_per_power(game, pages):
    chart = page_of(pages, "weapons-development")
    ids = ids_on(chart)
    weapons = [w.id for w in game.section("weapons")]
    assert len(weapons) == 6
    for weapon in weapons:
        assert f"weapon-{weapon}" in ids
        for side in game.info.sides:
            assert f"weapon-{weapon}-{side.id}" in ids


def test_one_unit_card_for_every_power_with_what_ships_carry(game, pages):
    cards = [g for p in pages for g in walk(p.items)
             if isinstance(g, Group) and (g.cls or "") == "unit-card"]
    assert len(cards) == 1  # the powers' units are the same: the table prints once
    texts = texts_of(cards[0])
    table = game.table("unit")
    for row in table.rows:
        assert any(t.startswith(row.name.title()) for t in texts)
    assert str(table.result(table.rows[5])["cost"]) in texts
    # the values the engine reads for what transports and carriers carry, and starting IPC
    assert f"{game.constant('transport-capacity')} slots 枠" in texts
    assert f"{game.constant('carrier-fighter-capacity')} fighters 戦闘機" in texts
    for side in game.info.sides:
        assert f"{side.name} {game.constant(f'starting-ipc-{side.id}')}" in texts
    assert not any(p.id.startswith("sheet-reference-chart") for p in pages)


def test_the_values_the_rules_lack_are_printed_for_players(game, pages):
    """Transports, carriers, shore bombardment, retreat and landing: printed as values a
    player uses, from the constants the engine reads."""
    printed = " ".join(t for p in pages for i in p.items for t in texts_of(i))
    for constant in ("transport-capacity", "amphibious-assault", "shore-bombardment",
                     "carrier-fighter-capacity", "attacker-retreat-destination",
                     "aircraft-without-landing"):
        record = game.get("constants", constant)
        line = aids.constant_line(game, constant)  # its sentence, with the value in it
        assert record.is_assumed and line in printed, constant


def test_the_weapons_chart_and_its_notes_print_once(game, pages):
    printed = [t for p in pages for i in p.items for t in texts_of(i)]
    assert sum(t.startswith(game.table("weapons-development").label) for t in printed) == 1
    assert sum("roll once on the chart per 6" in t for t in printed) == 1


def test_counters_follow_the_counter_mix_in_power_colours(game, pages):
    fronts = [p for p in pages if not p.id.endswith("-back")]  # a small sheet: with the aids
    units = [i for p in fronts for i in walk(p.items)
             if isinstance(i, Group) and (i.cls or "").startswith("counter unit ")]
    mix = game.section("counter-mix")
    assert len(units) == sum(int(r.get("count")) for r in mix)
    for piece in units:
        side = piece.cls.split()[-1]
        ground = next(i for i in piece.items if isinstance(i, Rect))
        assert ground.style.fill == aa.power_colour(game, side)
    markers = [i for p in fronts for i in walk(p.items)
               if isinstance(i, Group) and (i.cls or "").startswith("counter marker ")]
    assert len(markers) == sum(m.count or 1 for m in game.markers)


def test_pages_are_a4_and_the_pdf_has_them_all(game, tmp_path):
    options = parse_options("a4", "pdf", "long", "0,0", "map,sheets")
    kit = build_kit(game, tmp_path, options)
    reader = PdfReader(kit.folder / "axis-allies.pdf")
    assert len(reader.pages) == kit.pages
    for page in reader.pages:
        size = sorted((float(page.mediabox.width) * 25.4 / 72,
                       float(page.mediabox.height) * 25.4 / 72))
        assert size == pytest.approx(A4, abs=0.01)


def test_rule_lists_on_the_pages_have_balanced_brackets(pages):
    """The rule text numbers its steps "land 4)"; a printed list shows "[③ combat, land 4]"."""
    listed = [re.search(r"\[(.*?)\]", text).group(1) for page in pages for item in page.items
              for text in texts_of(item) if re.search(r"\[.*land \d", text)]
    assert any("land 2" in text for text in listed)
    unbalanced = [t for t in listed if t.count("(") != t.count(")")]
    assert unbalanced == []

"""Map legends: laid out to the width they get, and whole on one tile of every tiled map."""

from __future__ import annotations

import pytest
from every_game import every_game, game_named, starter_game
from warpress.components.impose import OVERLAP, SpatialIndex, with_legend
from warpress.components.kit import kit_pages, parse_options
from warpress.components.legend import legend_block
from warpress.components.page import paper
from warpress.components.primitives import Group, Rect, Text, walk


def _boxes(page):
    """(the tile's window, [(legend frame box | None, [legend item boxes])]) of a tile page,
    in map mm."""
    content = page.items[0]
    index = SpatialIndex(())
    found = []
    for group in content.items:
        if not (isinstance(group, Group) and "map-legend" in (group.cls or "")):
            continue
        frame, items = None, []
        for child in group.items:
            box = index.box(child)
            moved = (box[0] + group.dx, box[1] + group.dy, box[2] + group.dx, box[3] + group.dy)
            if isinstance(child, Rect) and child.cls == "legend-frame":
                frame = moved
            elif isinstance(child, Group) and child.cls == "legend-item":
                items.append(moved)
        found.append((frame, items))
    return content.clip, found


def _inside(box, window, slack=0.01) -> bool:
    x, y, w, h = window
    return (box[0] >= x - slack and box[1] >= y - slack and box[2] <= x + w + slack
            and box[3] <= y + h + slack)


@pytest.fixture(scope="module")
def starter(tmp_path_factory):
    return starter_game(tmp_path_factory.mktemp("new"))


@pytest.mark.parametrize("paper_name", ["a4", "letter"])
@pytest.mark.parametrize("game_id", every_game())
def test_every_tiled_map_has_its_legend_whole_on_one_tile(game_id, paper_name, starter):
    game = game_named(game_id, starter)
    pages = kit_pages(game, parse_options(paper_name, "pdf", "long", "0,0", "map"))
    maps: dict[str, list] = {}
    for page in pages:
        if page.items and isinstance(page.items[0], Group) and page.items[0].clip and \
                "tile" in (page.items[0].cls or "").split():
            maps.setdefault(page.id.rsplit("-", 1)[0], []).append(page)
    assert bool(maps) == bool(game.hex_maps or game.point_maps), game_id  # a map is tiled
    for name, tiles in maps.items():
        whole, seen = 0, 0
        for page in tiles:
            window, legends = _boxes(page)
            for frame, items in legends:
                seen += len(items)
                for box in items:  # an item on this tile is on it whole
                    assert _inside(box, window), (name, page.id, box, window)
                if frame is not None and _inside(frame, window):
                    whole += 1
        assert seen and whole == 1, (name, whole)  # one tile shows the whole legend


def test_a_legend_keeps_to_its_width_and_sets_its_entries_in_columns():
    entries = [([Rect(0, 0, 10, 6)], f"entry number {i} with some words") for i in range(7)]
    items, height = legend_block("A title", entries, 180.0)
    groups = [i for i in items if isinstance(i, Group) and i.cls == "legend-item"]
    assert len(groups) == 7
    index = SpatialIndex(())
    assert all(index.box(g)[2] <= 180.0 for g in groups)
    assert len({g.dx for g in groups}) == 2  # two columns at 180 mm
    assert any(isinstance(t, Text) and t.text == "A title" for t in walk(items))
    narrow, taller = legend_block("A title", entries, 80.0)
    assert taller > height  # one column: taller


def test_a_narrow_legend_stacks_its_north_arrow_and_words_under_what_they_follow():
    """A column beside a map: the north arrow under the title, each entry's words under its
    swatch, nothing wider than the column."""
    entries = [([Rect(0, 0, 10, 6)], f"entry number {i} with some words") for i in range(3)]
    items, _height = legend_block("A title of a map", entries, 30.0)
    index = SpatialIndex(())
    title = max(t.y for t in walk(items) if isinstance(t, Text) and t.cls == "legend-title")
    north = next(i for i in items if isinstance(i, Group) and i.cls == "north-arrow")
    assert index.box(north)[1] > title
    for entry in (i for i in items if isinstance(i, Group) and i.cls == "legend-item"):
        swatch = index.box(entry.items[0])
        words = [index.box(t) for t in entry.items[1:]]
        assert words and all(w[1] >= swatch[3] for w in words)
        assert entry.dx + max(w[2] for w in words) <= 30.0
    assert all(index.box(i)[2] <= 30.0 for i in items[1:])  # inside its frame


def test_the_legend_goes_where_one_tile_shows_it_whole():
    def legend(width):
        return legend_block("L", [([Rect(0, 0, 10, 6)], "x")], width)

    items, total, plan = with_legend((), 600.0, 400.0, paper("a4"), legend, name="m")
    group = items[-1]
    frame = group.items[0]
    right = group.dx + frame.w
    assert right <= plan.w - OVERLAP  # a seam clear of it leaves the glue strip
    assert group.dy >= total - plan.h + OVERLAP  # the bottom row reaches over it

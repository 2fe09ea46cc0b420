"""components/position_map.py: a hex map with counters on it, as SVG and PNG, drawn by the
kit's own map and counter code."""

from __future__ import annotations

import io
import math
import re

import pytest
from PIL import Image
from warpress.components.hexmap import HexGeometry
from warpress.components.position_map import (
    SHIFT,
    draw_map_with_pieces,
    piece_for,
    position_page,
)
from warpress.components.primitives import Group, Rect, walk
from warpress.engine.errors import BadInput
from warpress.engine.loader import load_game
from warpress.starter.new import new_game


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return load_game(new_game(str(tmp_path_factory.mktemp("position") / "bfm")).folder)


def stacks(game):
    return [("0302", [piece_for(game, "n1"), piece_for(game, "n2")]),
            ("0605", [piece_for(game, "s1", reduced=True)])]


def stacked(page):
    return [i for i in walk(page.items) if isinstance(i, Group) and i.id
            and i.id.startswith("on-")]


def test_each_counter_sits_in_its_hex_shifted_from_the_one_under_it(game):
    page = position_page(game, "map", stacks(game))
    geo = HexGeometry.of(game.hex_maps[0])
    index = geo.index()
    on = {g.id: g for g in stacked(page)}
    assert set(on) == {"on-0302-1", "on-0302-2", "on-0605-1"}
    first, second = on["on-0302-1"], on["on-0302-2"]
    assert (second.dx - first.dx, second.dy - first.dy) == pytest.approx((SHIFT, -SHIFT))
    for counter_id, hex_id in (("on-0302-1", "0302"), ("on-0302-2", "0302"),
                               ("on-0605-1", "0605")):
        g = on[counter_id]
        side = g.clip[2] * g.scale
        cx, cy = geo.centre(*index[hex_id])
        corners = [(g.dx + a, g.dy + b) for a in (0, side) for b in (0, side)]
        # every corner of the counter inside the circle the hex's six sides touch
        assert all(math.dist(c, (cx, cy)) <= geo.size * math.sqrt(3) / 2 for c in corners)
    counter = piece_for(game, "n1")
    assert first.items == counter.front  # the kit's own counter drawing
    assert on["on-0605-1"].items == piece_for(game, "s1").back  # the reduced side


def test_a_tall_stack_shows_its_top_counters_and_a_count(game):
    tall = [piece_for(game, "n1")] * 9
    page = position_page(game, "map", [("0504", tall)])
    assert len(stacked(page)) == 6
    counts = [t.text for t in walk(page.items) if getattr(t, "cls", None) == "stack-count"]
    assert counts == ["9"]


def test_the_svg_has_the_map_and_the_counters(game):
    svg = draw_map_with_pieces(game, "map", stacks(game), "svg").decode("utf-8")
    assert svg.startswith("<svg") and 'id="hex-0302"' in svg and 'id="on-0302-2"' in svg
    assert 'class="feature line road north-road"' in svg
    assert "map-legend" not in svg  # the picture of a position has no legend


def test_the_png_is_the_page_at_the_dpi_asked_and_the_same_every_time(game):
    png = draw_map_with_pieces(game, "map", stacks(game), "png", dpi=50)
    assert png == draw_map_with_pieces(game, "map", stacks(game), "png", dpi=50)
    page = position_page(game, "map", stacks(game))
    image = Image.open(io.BytesIO(png))
    assert image.size == (math.ceil(page.width / 25.4 * 50 - 1e-6),
                          math.ceil(page.height / 25.4 * 50 - 1e-6))
    empty = draw_map_with_pieces(game, "map", [], "png", dpi=50)
    assert empty != png  # the counters are in the picture


def test_an_empty_hex_list_draws_the_bare_map(game):
    page = position_page(game, "map", [("0302", [])])
    assert stacked(page) == []
    assert any(isinstance(i, Rect) and i.cls == "map-border" for i in walk(page.items))


@pytest.mark.parametrize(("call", "message"), [
    (lambda g: position_page(g, "map", [("9999", [piece_for(g, "n1")])]),
     "hex '9999' is not on map 'map' (0101..1008)"),
    (lambda g: position_page(g, "world", []), "map 'world' is no hex map of bfm (hex maps: map)"),
    (lambda g: piece_for(g, "nobody"), "counter 'nobody' is no unit or marker of bfm"),
    (lambda g: draw_map_with_pieces(g, "map", [], "gif"),
     "picture format 'gif' is not one of svg, png"),
    (lambda g: draw_map_with_pieces(g, "map", [], "png", dpi=5000),
     "dpi 5000 is not a whole number"),
])
def test_bad_input_is_one_line_quoting_it(game, call, message):
    with pytest.raises(BadInput, match=re.escape(message)):
        call(game)

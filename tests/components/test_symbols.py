"""Silhouettes tell apart the classes that differ in play, and the sides that meet in one
game (national markings); every one fits the box it is given, in SVG and PDF alike."""

from __future__ import annotations

import pytest
from warpress.components.pieces import unit_pieces
from warpress.components.primitives import Group, Page, Polygon, walk
from warpress.components.render_pdf import pdf_bytes
from warpress.components.render_svg import svg_text
from warpress.components.symbols import (
    AIRCRAFT,
    MARKED,
    chord_at,
    known_symbols,
    silhouette,
)
from warpress.engine.loader import builtin


def _points(group: Group) -> set:
    return {p for item in group.items for p in item.points}


@pytest.mark.parametrize("name", [*AIRCRAFT, *MARKED])
def test_every_aircraft_fits_its_box(name):
    group = silhouette(name, 2.0, 3.0, 10.0, 8.0, "#000000")
    xs = [x + group.dx for x, _ in _points(group)]
    ys = [y + group.dy for _, y in _points(group)]
    assert 2.0 - 1e-3 <= min(xs) and max(xs) <= 12.0 + 1e-3
    assert 3.0 - 1e-3 <= min(ys) and max(ys) <= 11.0 + 1e-3


def test_classes_that_differ_in_play_have_different_shapes():
    shapes = {name: _points(silhouette(name, 0, 0, 10, 10, "#000000"))
              for name in ("fighter", "dive-bomber", "torpedo-bomber",
                           "night-fighter-german", "night-fighter-allied", "twin-boom", "jet")}
    assert len({frozenset(s) for s in shapes.values()}) == len(shapes)


def test_markings_are_laid_in_the_ground_colour():
    group = silhouette("night-fighter-german", 0, 0, 10, 10, "#000000", "#c8d7f2")
    fills = [item.style.fill for item in group.items]
    assert fills.count("#c8d7f2") == 4  # a cross on each wing, two bars each
    allied = silhouette("night-fighter-allied", 0, 0, 10, 10, "#000000", "#c8d7f2")
    assert [i.style.fill for i in allied.items].count("#c8d7f2") == 2  # a ring on each wing
    assert set(MARKED) <= set(known_symbols("silhouette"))


def test_nightfighter_german_and_allied_night_fighters_look_apart():
    game = builtin("nightfighter")
    symbols = {}
    for unit_id in ("bf110g-4", "beaufighter-if", "he111", "wellington"):
        piece = unit_pieces(game, game.get("units", unit_id))[0]
        symbols[unit_id] = next(i.cls for i in walk(piece.front)
                                if isinstance(i, Group) and "unit-symbol" in (i.cls or ""))
    assert symbols["bf110g-4"] != symbols["beaufighter-if"]
    assert symbols["he111"] != symbols["wellington"]


def test_nightfighter_jets_are_drawn_as_jets_and_only_they():
    """A unit the data tags ``jet`` (the Me 262) gets the jet silhouette (swept wings, engine
    pods, no propellers), a propeller aircraft never does."""
    game = builtin("nightfighter")
    for unit in game.units:
        piece = unit_pieces(game, unit)[0]
        drawn = next(i.cls.split()[1] for i in walk(piece.front)
                     if isinstance(i, Group) and "unit-symbol" in (i.cls or ""))
        assert (MARKED.get(drawn, (drawn, ""))[0] == "jet") == ("jet" in unit.tags), unit.id
    assert any("jet" in unit.tags for unit in game.units)


def test_a_swept_wings_markings_lie_on_the_wing():
    """The crosses follow the chord of the wing where they are laid, swept back or not."""
    for name in ("jet-german", "night-fighter-german"):
        group = silhouette(name, 0, 0, 100, 100, "#000000", "#ffffff")
        wing = group.items[0].points
        for mark in (i for i in group.items if i.style.fill == "#ffffff"):
            for x, y in mark.points:
                front, back = chord_at(wing, x)
                assert front <= y <= back, (name, x, y)


def test_one_description_draws_to_svg_and_pdf():
    page = Page(20, 20, (silhouette("bomber-japanese", 1, 1, 18, 18, "#000000"),), id="s")
    svg = svg_text(page)
    assert svg.count("<polygon") == sum(1 for i in walk(page.items) if isinstance(i, Polygon))
    assert pdf_bytes([page], "s").startswith(b"%PDF")

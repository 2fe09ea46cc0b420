"""Every box where pieces are placed holds a counter with room to spare, and says so."""

from __future__ import annotations

import pytest
from warpress.components import holds
from warpress.components.kit import Options, kit_pages
from warpress.components.primitives import Rect, walk
from warpress.components.render_svg import svg_text
from warpress.engine.errors import BadInput
from warpress.engine.loader import builtin

#: The least number of boxes that hold pieces on each game's map part (boxes drawn today).
AT_LEAST = {"midway": 60, "nimitz": 20, "axis-allies": 100, "nightfighter": 30}
#: The parts that print a game's boxes where they are not all on the map: Nightfighter's turn
#: track and environment boxes are the player's display, printed with the set-up.
PARTS = {"nightfighter": ("map", "sheets")}


@pytest.fixture(scope="module", params=sorted(AT_LEAST))
def map_part(request):
    game = builtin(request.param)
    return game, kit_pages(game, Options(only=PARTS.get(game.id, ("map",))))


def holding(pages) -> list[Rect]:
    return [r for p in pages for r in walk(p.items)
            if isinstance(r, Rect) and holds.CLASS in (r.cls or "").split()]


def test_every_box_that_holds_pieces_takes_a_counter_plus_2_mm(map_part):
    game, pages = map_part
    boxes = holding(pages)
    assert len(boxes) >= AT_LEAST[game.id]
    least = holds.counter_mm(game) + 2.0
    small = [(r.id, round(r.w, 1), round(r.h, 1)) for r in boxes
             if r.w < least - 1e-6 or r.h < least - 1e-6]
    assert not small


def test_boxes_that_hold_pieces_carry_the_class_in_the_svg(map_part):
    _game, pages = map_part
    page = next(p for p in pages if holding([p]))
    assert 'class="holds' in svg_text(page)


def test_a_box_smaller_than_a_counter_stops_the_build():
    game = builtin("midway")
    holds.check(game, 17.875, 17.875, "a box")
    with pytest.raises(BadInput, match=r"midway: return box is 34.0x15.0 mm; a box that holds "
                                       r"pieces needs at least 17.9x17.9 mm"):
        holds.check(game, 34, 15, "return box")

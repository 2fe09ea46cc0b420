"""engine/looks.py: the words a style section may use are the ones the kit draws."""

from __future__ import annotations

import pytest
from warpress.components import hexmap, symbols
from warpress.components.primitives import walk
from warpress.engine.looks import (
    AIRCRAFT_SYMBOLS,
    ICON_SYMBOLS,
    MARKED_SYMBOLS,
    NATO_SYMBOLS,
    SHIP_SYMBOLS,
    SYMBOLS,
    TEXTURE_NAMES,
    colour,
)


def test_every_symbol_a_style_may_name_is_drawn_and_none_other():
    assert NATO_SYMBOLS == tuple(symbols.NATO_DOMAIN)
    assert SHIP_SYMBOLS == tuple(symbols.SHIPS)
    assert AIRCRAFT_SYMBOLS == tuple(symbols.AIRCRAFT)
    assert ICON_SYMBOLS == tuple(symbols.ICONS)
    assert MARKED_SYMBOLS == tuple(symbols.MARKED)
    for layout, names in SYMBOLS.items():
        assert set(names) == set(symbols.known_symbols(layout)), layout
    for layout, names in SYMBOLS.items():
        for name in names:  # an unknown name raises KeyError
            drawn = symbols.symbol(layout, name, 0, 0, 10, 10, "#000000")
            assert list(walk(drawn.items)), (layout, name)
    with pytest.raises(KeyError):
        symbols.symbol("nato", "zeppelin", 0, 0, 10, 10, "#000000")


def test_every_texture_a_style_may_name_is_drawn_and_none_other():
    assert TEXTURE_NAMES == tuple(hexmap.TEXTURES)


def test_a_colour_is_hex_or_a_colour_word():
    assert colour("#AA0000") == "#aa0000"
    assert colour(" Red ") == "#f2b8b8"
    assert colour("mauve") is None and colour(None) is None

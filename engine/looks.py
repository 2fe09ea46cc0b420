"""The words a game's ``style`` section may use and the floors it keeps: colours, font sizes,
counter symbols and corners, terrain textures; and ``style_problems``, the check of the
section against them, which every command runs when it loads a game (``engine.structure``).
The kit draws what these name: ``components/symbols.py`` a symbol of each name,
``components/hexmap.py`` a texture of each name (a test holds them equal)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from .model import FontStyle, Game, Item, TerrainStyle

#: The smallest text any page may print, in points (the build refuses less).
MIN_PT = 4.5
#: The smallest size of the factors on a counter, in points.
MIN_FACTORS_PT = 7.0
#: The counters' type scale, in points: every text on a counter or marker of every kit
#: prints at one of these sizes (a layout fits a text, the scale takes the step at or under
#: that size), in three roles: notes (names under a word, corners), values (factors and
#: figures), titles (a marker's word). The style's ``fonts`` sizes are steps of it.
TYPE_SCALE_PT = {"note": (MIN_PT, 5.0, 6.0), "value": (MIN_FACTORS_PT, 8.0, 9.0),
                 "title": (11.0, 14.0, 18.0, 24.0)}
TYPE_STEPS_PT = tuple(sorted(size for sizes in TYPE_SCALE_PT.values() for size in sizes))

#: print colours for the colour words game data uses (pale enough to print text on)
COLOUR_WORDS = {
    "red": "#f2b8b8", "blue": "#b8cdf2", "green": "#c4e6b4", "yellow": "#f6e7a1",
    "white": "#ffffff", "black": "#9a9a9a", "grey": "#d9d9d9", "gray": "#d9d9d9",
    "brown": "#dcc3a5", "orange": "#f6cfa0", "purple": "#dcc7ee", "khaki": "#e3dcb5",
    "tan": "#e8d8bc", "olive": "#d2d6a6", "navy": "#b9c2dc", "pink": "#f5c9d8",
}
_HEX = re.compile(r"#[0-9a-fA-F]{6}")


def colour(word: str | None) -> str | None:
    """A ``#rrggbb`` colour, or the print colour of a colour word; None if neither."""
    if not word:
        return None
    if _HEX.fullmatch(word):
        return word.lower()
    return COLOUR_WORDS.get(word.strip().lower())


#: The counter symbols each layout can draw (``style.counters.*.symbol``).
NATO_SYMBOLS = ("infantry", "armour", "mechanised", "motorised", "artillery", "anti-tank",
                "anti-aircraft", "recon", "airborne", "marines", "engineers", "headquarters",
                "supply", "fighter", "bomber", "carrier", "battleship", "cruiser", "destroyer",
                "transport", "submarine")
SHIP_SYMBOLS = ("carrier", "battleship", "cruiser", "destroyer", "submarine", "transport")
AIRCRAFT_SYMBOLS = ("fighter", "twin-engine", "bomber", "heavy-bomber", "dive-bomber",
                    "torpedo-bomber", "night-fighter-german", "night-fighter-allied", "twin-boom",
                    "jet")
ICON_SYMBOLS = ("factory", "star")
#: Silhouettes drawn with their national markings (components/symbols.py ``MARKED``).
MARKED_SYMBOLS = ("night-fighter-german", "night-fighter-allied", "bomber-german",
                  "bomber-allied", "bomber-japanese", "heavy-bomber-allied", "fighter-allied",
                  "twin-boom-allied", "jet-german")
SILHOUETTE_SYMBOLS = tuple(dict.fromkeys((*SHIP_SYMBOLS, *AIRCRAFT_SYMBOLS, *MARKED_SYMBOLS)))
SYMBOLS = {"nato": NATO_SYMBOLS, "silhouette": SILHOUETTE_SYMBOLS,
           "marker": (*SILHOUETTE_SYMBOLS, *ICON_SYMBOLS, "roundel")}

#: The terrain textures a map draws (``style.terrain.*.texture``); ``none``: a plain fill.
TEXTURE_NAMES = ("trees", "peaks", "dots", "reeds", "blocks", "waves")
NO_TEXTURE = "none"

CORNER_KEYS = ("top_left", "top_right", "bottom_left", "bottom_right")
#: What a corner may print besides a stat name.
CORNER_WORDS = ("id", "setup", "name_ja", "name", "size", "year")


def style_problems(game: Game) -> Iterator[tuple[Item, str, str]]:
    """(item, key path, message) for every style value the game cannot use."""
    style = game.style
    sides = {s.id for s in game.info.sides}
    for side, look in style.sides.items():
        if side not in sides:
            yield look, f"style.sides.{side}", (
                f"unknown side {side!r} (sides: {', '.join(sorted(sides)) or 'none'})")
        for key in ("fill", "ink"):
            value = getattr(look, key)
            if value and colour(value) is None:
                yield look, f"style.sides.{side}.{key}", _colour_message(value)
    yield from _font_problems(style.fonts)
    yield from _counter_problems(game)
    yield from _label_problems(game)
    for name, terrain in style.terrain.items():
        if terrain.fill and colour(terrain.fill) is None:
            yield terrain, f"style.terrain.{name}.fill", _colour_message(terrain.fill)
        yield from _texture_problems(name, terrain)


def _texture_problems(name: str, terrain: TerrainStyle) -> Iterator[tuple[Item, str, str]]:
    if terrain.texture is not None and terrain.texture not in (*TEXTURE_NAMES, NO_TEXTURE):
        yield terrain, f"style.terrain.{name}.texture", (
            f"texture {terrain.texture!r} is unknown (known: "
            f"{', '.join(sorted(TEXTURE_NAMES))}, or {NO_TEXTURE})")


def _colour_message(value: str) -> str:
    return (f"{value!r} is not a colour (#rrggbb or one of: "
            f"{', '.join(sorted(COLOUR_WORDS))})")


def _font_problems(font: FontStyle) -> Iterator[tuple[Item, str, str]]:
    floors = {"minimum": MIN_PT, "name": font.minimum, "corner": font.minimum,
              "word": font.minimum, "factors": max(MIN_FACTORS_PT, font.minimum)}
    for key, floor in floors.items():
        value = getattr(font, key)
        steps = [step for step in TYPE_STEPS_PT if step >= floor]
        if value not in steps:
            yield font, f"style.fonts.{key}", (
                f"{value:g} pt is not allowed (allowed: the counters' type scale from "
                f"{floor:g} pt: {', '.join(f'{step:g}' for step in steps)})")


def _counter_problems(game: Game) -> Iterator[tuple[Item, str, str]]:
    types = {u.type for u in game.units}
    ids = {u.id for u in game.units} | {m.id for m in game.markers}
    for key, layout in game.style.counters.items():
        path = f"style.counters.{key}"
        if key not in types and key not in ids:
            yield layout, path, (f"{key!r} is no unit type, unit id or marker id "
                                 f"(types: {', '.join(sorted(types)) or 'none'})")
        allowed = SYMBOLS[layout.layout]
        if layout.symbol and layout.symbol not in allowed:
            yield layout, f"{path}.symbol", (f"unknown {layout.layout} symbol "
                                             f"{layout.symbol!r} (allowed: {', '.join(allowed)})")
        specs: list[tuple[str, str | None, Item]] = [
            (f"{path}.factors[{i}]", spec, layout) for i, spec in enumerate(layout.factors or ())]
        if layout.corners is not None:
            specs += [(f"{path}.corners.{corner}", getattr(layout.corners, corner),
                       layout.corners) for corner in CORNER_KEYS]
        for where, spec, item in specs:
            if spec and not _spec_ok(game, key, spec):
                yield item, where, (f"{spec!r} is neither a stat of {key!r} (several joined "
                                    f"by |) nor one of: {', '.join(CORNER_WORDS)}")


def _spec_ok(game: Game, key: str, spec: str) -> bool:
    """A factor or corner spec: a word, or stats joined by ``|`` that the units have."""
    if spec in CORNER_WORDS:
        return True
    units = [u for u in game.units if key in (u.id, u.type)]
    return not units or all(any(part in u.stats for u in units) for part in spec.split("|"))


def printed_stats(game: Game) -> Iterator[tuple[str, str]]:
    """(key path, stat) of every stat a style's layout prints (factors and corners)."""
    for key, layout in game.style.counters.items():
        specs = [(f"style.counters.{key}.factors[{i}]", spec)
                 for i, spec in enumerate(layout.factors or ())]
        if layout.corners is not None:
            specs += [(f"style.counters.{key}.corners.{c}", getattr(layout.corners, c))
                      for c in CORNER_KEYS if getattr(layout.corners, c)]
        for where, spec in specs:
            for part in spec.split("|"):
                if part not in CORNER_WORDS:
                    yield where, part


def _label_problems(game: Game) -> Iterator[tuple[Item, str, str]]:
    """Every stat a layout prints has a label (the counter key names it); every label, and
    what a back means (``style.back``), has its provenance."""
    missing: set[str] = set()
    for where, stat in printed_stats(game):
        if stat not in game.style.stats and stat not in missing:
            missing.add(stat)
            yield game.style, where, (f"{stat!r} has no name in style.stats (the counter key "
                                      f"names every value a counter prints: "
                                      f"style.stats.{stat}: {{name: ..., rule: ...}})")
    named = [(f"style.stats.{key}", label) for key, label in game.style.stats.items()]
    if game.style.back is not None:
        named.append(("style.back", game.style.back))
    for path, label in named:
        if not (label.name or "").strip():
            yield label, f"{path}.name", "missing: the name a player calls the value"
        if not label.rule and not label.is_assumed:
            yield label, path, 'no provenance: give rule: "N.N" or source: assumed with a note'
        elif label.is_assumed and not label.note:
            yield label, path, "source: assumed needs a one-line note saying why"

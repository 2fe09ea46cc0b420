"""A game's look, resolved: its ``style`` section over the defaults.

The ``style`` mapping of a game's YAML (``engine/model.py`` ``GameStyle``) may
give side colours, font sizes, a counter layout per unit type (or per unit or
marker id) and terrain styles. Everything it leaves out comes from here, so a
game that declares no style still prints well: unit types are matched to a
layout and symbol by the words in ``DEFAULT_KINDS``, the factors are the unit's
numeric stats, and side colours come from ``game.sides``.

Font sizes are in points in the data and the defaults; components lay out in
millimetres (``mm``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from ..engine.errors import BadInput
from ..engine.looks import CORNER_KEYS, colour, style_problems
from ..engine.model import CounterLayout, FontStyle, Game, Marker, TerrainStyle, Unit

#: One point in millimetres.
PT = 25.4 / 72

#: Counter grounds when neither the style nor ``game.sides`` gives a colour.
SIDE_COLOURS = ("#f2c7c7", "#c7d7f2", "#d5ecc8", "#f2e3c0", "#e0cdef", "#d9d9d9")
NEUTRAL = "#ececec"

# --- counter layouts ----------------------------------------------------------------------

_NATO = "nato"
_SIL = "silhouette"

#: Unit type words -> (layout, symbol) for a game whose style does not name the type.
#: Words are compared lower-case with ``-``, ``_`` and spaces removed.
DEFAULT_KINDS: Mapping[str, tuple[str, str]] = {
    **{w: (_NATO, "infantry") for w in ("infantry", "inf", "rifle", "battalion", "regiment")},
    **{w: (_NATO, "armour") for w in ("armour", "armor", "tank", "panzer")},
    **{w: (_NATO, "mechanised") for w in ("mechanised", "mechanized", "mech",
                                            "panzergrenadier")},
    **{w: (_NATO, "motorised") for w in ("motorised", "motorized", "mot")},
    **{w: (_NATO, "artillery") for w in ("artillery", "art", "arty", "gun")},
    **{w: (_NATO, "anti-tank") for w in ("antitank", "at")},
    **{w: (_NATO, "anti-aircraft") for w in ("antiaircraft", "aa", "flak", "aaa")},
    **{w: (_NATO, "recon") for w in ("recon", "reconnaissance", "cavalry", "cav")},
    **{w: (_NATO, "airborne") for w in ("airborne", "parachute", "para")},
    **{w: (_NATO, "marines") for w in ("marines", "marine")},
    **{w: (_NATO, "engineers") for w in ("engineers", "engineer", "pioneer")},
    **{w: (_NATO, "headquarters") for w in ("headquarters", "hq")},
    **{w: (_NATO, "supply") for w in ("supply", "logistics")},
    **{w: (_SIL, "fighter") for w in ("fighter", "interceptor")},
    **{w: (_SIL, "twin-engine") for w in ("nightfighter", "intruder", "heavyfighter")},
    **{w: (_SIL, "bomber") for w in ("bomber", "mediumbomber")},
    **{w: (_SIL, "heavy-bomber") for w in ("heavybomber", "strategicbomber")},
    **{w: (_SIL, "dive-bomber") for w in ("divebomber",)},
    **{w: (_SIL, "torpedo-bomber") for w in ("torpedobomber", "attack")},
    **{w: (_SIL, "carrier") for w in ("carrier", "cv", "cvl", "cve", "fleet")},
    **{w: (_SIL, "battleship") for w in ("battleship", "bb", "battlecruiser", "bc")},
    **{w: (_SIL, "cruiser") for w in ("cruiser", "ca", "cl", "heavycruiser")},
    **{w: (_SIL, "destroyer") for w in ("destroyer", "dd", "escort", "de")},
    **{w: (_SIL, "submarine") for w in ("submarine", "ss", "sub", "uboat")},
    **{w: (_SIL, "transport") for w in ("transport", "ap", "ak", "cargo", "amphibious")},
}



def _word(text: str) -> str:
    return re.sub(r"[-_\s]", "", text.lower())


@dataclass(frozen=True)
class Look:
    """How one counter is drawn: its layout, symbol, factors and corners (all resolved)."""

    layout: str
    symbol: str | None
    factors: tuple[str, ...]
    corners: Mapping[str, str]
    reduced: str = "band"
    show_name: bool = True


def _numeric_stats(stats: Mapping[str, object]) -> tuple[str, ...]:
    return tuple(k for k, v in stats.items()
                 if isinstance(v, int | float | str) and not isinstance(v, bool)
                 and _is_factor(v))


def _is_factor(value: object) -> bool:
    return isinstance(value, int | float) or (isinstance(value, str) and len(value) <= 3)


def declared_layout(game: Game, record: Unit | Marker) -> CounterLayout | None:
    """The style's layout for a record: by its id first, then by its unit type (a marker
    takes only a ``marker`` layout by its id: a unit may share its id)."""
    counters = game.style.counters
    if record.id in counters:
        declared = counters[record.id]
        if not isinstance(record, Marker) or declared.layout == "marker":
            return declared
    kind = getattr(record, "type", None)
    return counters.get(kind) if kind else None


def look_of(game: Game, record: Unit | Marker) -> Look:
    """The resolved look of a unit or marker counter."""
    declared = declared_layout(game, record)
    if isinstance(record, Marker):
        layout, symbol = "marker", None
        factors: tuple[str, ...] = ()
    else:
        layout, symbol = DEFAULT_KINDS.get(_word(record.type), ("marker", None))
        factors = _numeric_stats(record.stats)[:4]
    corners: dict[str, str] = {}
    reduced = "band"
    if declared is not None:
        layout = declared.layout
        symbol = declared.symbol or (symbol if declared.layout != "marker" else None)
        if declared.factors is not None:
            factors = declared.factors
        if declared.corners is not None:
            corners = {k: getattr(declared.corners, k) for k in CORNER_KEYS
                       if getattr(declared.corners, k)}
        reduced = declared.reduced
    show_name = layout != _NATO
    if declared is not None and declared.name is not None:
        show_name = declared.name
    return Look(layout, symbol, factors, corners, reduced, show_name)


# --- colours and fonts --------------------------------------------------------------------


def side_colour(game: Game, side: str | None) -> str:
    """A side's counter ground: the style's, else the side's colour, else a default."""
    declared = game.style.sides.get(side) if side else None
    fill = colour(declared.fill) if declared is not None else None
    if fill:
        return fill
    sides = [s.id for s in game.info.sides]
    if side in sides:
        explicit = colour(game.info.sides[sides.index(side)].color)
        return explicit or SIDE_COLOURS[sides.index(side) % len(SIDE_COLOURS)]
    return NEUTRAL


def side_ink(game: Game, side: str | None, ground: str | None = None) -> str:
    """Text and symbol colour on a side's counters: the style's, else black or white,
    whichever reads better on ``ground`` (default: the side's colour)."""
    declared = game.style.sides.get(side) if side else None
    return (colour(declared.ink) if declared is not None else None) or ink_on(
        ground or side_colour(game, side))


def ink_on(ground: str) -> str:
    """Black or white, whichever reads better on ``ground``."""
    r, g, b = (int(ground[i:i + 2], 16) for i in (1, 3, 5))
    return "#ffffff" if 0.299 * r + 0.587 * g + 0.114 * b < 140 else "#000000"


def fonts(game: Game) -> FontStyle:
    return game.style.fonts


def mm(points: float) -> float:
    """Points -> millimetres."""
    return points * PT


def terrain_style(game: Game, terrain: str) -> TerrainStyle | None:
    """The style of a terrain by name, or None (g-maps' drawing gives the default)."""
    return game.style.terrain.get(terrain)


#: What the counter key calls the words a layout prints when ``style.stats`` names them not.
WORD_LABELS = {"name": "unit name", "name_ja": "Japanese name", "size": "unit size",
               "setup": "set-up hex", "id": "counter id", "year": "year",
               "symbol": "unit type", "word": "what it marks", "subtitle": "name"}


def stat_label(game: Game, key: str) -> str | None:
    """The player's name of a value a counter prints: ``style.stats``, else the word's
    default (``WORD_LABELS``), else None; stats joined by ``|`` read ``a / b``."""
    parts = [game.style.stats[k].name if k in game.style.stats else WORD_LABELS.get(k)
             for k in key.split("|")]
    named = [part for part in parts if part]
    if len(named) < len(parts):
        return None
    return " / ".join(dict.fromkeys(named))


def check_style(game: Game) -> None:
    """Stop the build on the first style value the game cannot use (file:line: key: why)."""
    for item, path, message in style_problems(game):
        origin = getattr(item, "origin", None)
        where = f"{origin}: " if origin and origin.file else ""
        raise BadInput(f"{where}{path}: {message}")

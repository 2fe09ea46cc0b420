"""Boxes where pieces are placed (map areas, display boxes, track boxes).

Each such box is at least one of the game's counters plus ``MARGIN`` mm in each
direction, so a counter can be put in and picked up without covering the box's
edge, and carries the SVG class ``holds`` so tests can find it.
"""

from __future__ import annotations

from ..engine.errors import BadInput
from ..engine.model import Game, Marker, Unit
from .counters import DEFAULT_COUNTER, counter_size

MARGIN = 2.0  # mm of room round a counter in a box that holds it
CLASS = "holds"


def counter_mm(game: Game) -> float:
    """The largest counter of the game (units and markers), in mm."""
    pieces: list[Unit | Marker] = [*game.units, *game.markers]
    sizes = [counter_size(game, r) for r in pieces]
    return max(sizes) if sizes else game.info.counter_mm or DEFAULT_COUNTER


def least(game: Game) -> float:
    """The smallest side a box that holds pieces may have: a counter plus the margin."""
    return counter_mm(game) + MARGIN


def cls(*words: str | None) -> str:
    """The classes of a box that holds pieces: ``holds`` plus ``words``."""
    return " ".join(dict.fromkeys([CLASS, *(w for w in words if w)]))


def check(game: Game, w: float, h: float, what: str) -> None:
    """Stop the build when a box meant to hold pieces is smaller than a counter plus the
    margin."""
    need = least(game)
    if w + 1e-6 < need or h + 1e-6 < need:
        raise BadInput(f"{game.id}: {what} is {w:.1f}x{h:.1f} mm; a box that holds pieces "
                       f"needs at least {need:.1f}x{need:.1f} mm (a {counter_mm(game):g} mm "
                       f"counter plus {MARGIN:g} mm)")

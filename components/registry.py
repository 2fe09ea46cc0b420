"""Kit extensions: a game's own pages beside (or instead of) the generic ones.

The generic kit draws every game from its data alone. A game whose kit needs
more (Midway's plan sheet with a small map per turn, Nightfighter's referee
map) has a ``kit.py`` in its folder that registers part builders on the folder's
``CODE`` (``engine.registry.GameCode``) with ``@CODE.kit_part("sheets")``.
``replaces=True`` drops the generic pages of that part for the game. A part belongs
to the folder that registered it, never to a game id; no ``if game == ...`` anywhere.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..engine.gamecode import game_code
from ..engine.model import Game
from ..engine.registry import KitPart, old_way
from .primitives import Primitive

#: How a game's kit draws one counter: ``fn(game, record, side, reduced)`` -> its
#: primitives, or None to leave it to the counter sheets' own drawing.
CounterFace = Callable[[Game, Any, "str | None", bool], "tuple[Primitive, ...] | None"]


def extensions(game: Game, part: str) -> list[KitPart]:
    """The builders of one part of ``game``'s kit, registered by the ``kit`` of its folder
    (imported once)."""
    return [p for p in game_code(game, "kit").kit_parts if p.part == part]


def __getattr__(name: str) -> Any:
    if name == "kit_part":
        raise old_way(__name__, name, '@CODE.kit_part("<part>")')
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: The part under which a game's ``kit.py`` registers how it draws one counter (never a
#: kit part that prints pages): ``@CODE.kit_part(COUNTER_FACE)``.
COUNTER_FACE = "counter face"


def counter_face(game: Game) -> CounterFace | None:
    """The function ``fn(game, record, side, reduced) -> primitives | None`` with which the
    ``kit`` of ``game``'s folder draws one counter (registered with
    ``@CODE.kit_part(COUNTER_FACE)``), else None: the charts that show counters (the set-up
    chart) draw them with it."""
    found = extensions(game, COUNTER_FACE)
    return found[0].build if found else None

"""Kit extensions: a game's own pages beside (or instead of) the generic ones.

The generic kit draws every game from its data alone. A game whose kit needs
more (Midway's plan sheet with a small map per turn, Nightfighter's referee
map) has a ``kit.py`` in its folder that registers part builders on the folder's
``CODE`` (``engine.registry.GameCode``) with ``@CODE.kit_part("sheets")``.
``replaces=True`` drops the generic pages of that part for the game. A part belongs
to the folder that registered it, never to a game id; no ``if game == ...`` anywhere.
"""

from __future__ import annotations

from typing import Any

from ..engine.gamecode import game_code
from ..engine.model import Game
from ..engine.registry import KitPart, old_way


def extensions(game: Game, part: str) -> list[KitPart]:
    """The builders of one part of ``game``'s kit, registered by the ``kit`` of its folder
    (imported once)."""
    return [p for p in game_code(game, "kit").kit_parts if p.part == part]


def __getattr__(name: str) -> Any:
    if name == "kit_part":
        raise old_way(__name__, name, '@CODE.kit_part("<part>")')
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

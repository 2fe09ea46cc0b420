"""Kit extensions: a game's own pages beside (or instead of) the generic ones.

The generic kit draws every game from its data alone. A game whose kit needs
more (Midway's plan sheet with a small map per turn, Nightfighter's referee
map) has a ``kit.py`` in its folder that registers part builders with
``@kit_part("sheets")``. ``replaces=True`` drops the generic pages of that part
for the game. A part belongs to the folder whose ``kit`` registered it
(``engine.gamecode``), never to a game id; no ``if game == ...`` anywhere.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..engine.model import Game

Builder = Callable[..., list]


@dataclass(frozen=True)
class KitPart:
    part: str
    build: Builder
    replaces: bool = False


_PARTS: list[KitPart] = []


def kit_part(*names: str, replaces: bool = False) -> Callable[[Builder], Builder]:
    """Decorator: register ``fn(game, options) -> list[KitPage]`` as the kit's ``part``
    (``@kit_part("sheets")``; a game id given first, ``@kit_part("midway", "sheets")``, is
    ignored: the part belongs to the folder of the module that registers it)."""
    if not 1 <= len(names) <= 2:
        raise TypeError("kit_part(part, *, replaces=False)")

    def register(fn: Builder) -> Builder:
        _PARTS.append(KitPart(names[-1], fn, replaces))
        return fn

    return register


def extensions(game: Game, part: str) -> list[KitPart]:
    """The builders of one part of ``game``'s kit, registered by the ``kit`` of its folder
    (imported once)."""
    # start-up: 24 more modules (tempfile), only when this runs
    from ..engine.gamecode import import_part, owns

    if import_part(game, "kit") is None:
        return []
    return [p for p in _PARTS if p.part == part and owns(game, p.build.__module__)]

"""Kit extensions: a game's own pages beside (or instead of) the generic ones.

The generic kit draws every game from its data alone. A game whose kit needs
more (Midway's plan sheet with a small map per turn, Nightfighter's referee
map) adds a module ``components/games/<game>.py`` that registers part
builders with ``@kit_part("midway", "sheets")``. ``replaces=True`` drops the
generic pages of that part for the game. No ``if game == ...`` anywhere.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

Builder = Callable[..., list]


@dataclass(frozen=True)
class KitPart:
    game: str
    part: str
    build: Builder
    replaces: bool = False


_PARTS: dict[str, list[KitPart]] = {}


def kit_part(game: str, part: str, *, replaces: bool = False) -> Callable[[Builder], Builder]:
    """Decorator: register ``fn(game, options) -> list[KitPage]`` for ``game``'s ``part``."""

    def register(fn: Builder) -> Builder:
        _PARTS.setdefault(game, []).append(KitPart(game, part, fn, replaces))
        return fn

    return register


def extensions(game_id: str, part: str) -> list[KitPart]:
    """The registered builders of one part of a game's kit (importing its module once)."""
    if game_id not in _PARTS:
        module = f"{__package__}.games.{game_id.replace('-', '_')}"
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
        _PARTS.setdefault(game_id, [])
    return [p for p in _PARTS[game_id] if p.part == part]

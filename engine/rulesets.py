"""Which rules play a game in a session: the game folder's own (``rules/session.py``
naming ``REFEREE``), or the data-driven rules of ``engine.play`` for a game with a
``play`` mapping (docs/playing.md)."""

from __future__ import annotations

from .errors import BadInput
from .gamecode import import_part, missing
from .loader import builtin_folder, builtin_games, load_cached
from .model import Game
from .play.game import HexRules
from .referee import Referee


def rules_for(game: Game) -> Referee:
    """The session rules of ``game``; BadInput naming the games that have some when it has
    none. The folder's ``rules/session.py`` is imported only here, so that a plain
    ``lookup`` does not pay for it."""
    module = import_part(game, "rules.session")
    if module is not None:
        rules = getattr(module, "REFEREE", None)
        if not isinstance(rules, type):
            raise missing(game, "rules.session", "REFEREE", "the class of the game's rules")
        return rules()
    if game.play is not None:
        return HexRules()
    have = ", ".join(playable_builtins()) or "none"
    raise BadInput(f"game {game.id!r} cannot be played in a session: it has no `play:` rules "
                   f"(docs/playing.md) and no rules/session.py (playable: {have})")


def playable_builtins() -> list[str]:
    """Built-in games a session can play: a ``rules/session.py`` in the folder, or a
    ``play:`` mapping in its data."""
    return [name for name in builtin_games()
            if (builtin_folder(name) / "rules" / "session.py").is_file()
            or load_cached(name).play is not None]

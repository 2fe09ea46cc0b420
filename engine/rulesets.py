"""Which rules play a game in a session: the game folder's own (``rules/session.py``,
``@CODE.session`` on their class: ``engine.registry.GameCode``), or the data-driven rules of
``engine.play`` for a game with a ``play`` mapping (docs/playing.md)."""

from __future__ import annotations

from .errors import BadInput
from .gamecode import game_code, missing
from .gamelist import builtin_folder, builtin_games
from .gameparts import has_part
from .loader import load_cached
from .model import Game
from .play.game import HexRules
from .referee import Referee


def rules_for(game: Game) -> Referee:
    """The session rules of ``game``; BadInput naming the games that have some when it has
    none. The folder's ``rules/session.py`` is imported only here, so that a plain
    ``lookup`` does not pay for it."""
    rules = game_code(game, "rules.session").session_rules
    if rules is not None:
        referee: Referee = rules()  # the class registered with @CODE.session
        return referee
    if has_part(game, "rules.session"):
        raise missing(game, "rules.session", "session rules",
                      "@CODE.session on the class of the game's rules")
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

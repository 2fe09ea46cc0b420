"""Every game a shared test runs over: the registered games (shipped and installed through
entry points), the starting game ``warpress new`` writes and each test fixture, so that a
game added to any of them is tested without a test naming it."""

from __future__ import annotations

from pathlib import Path

from warpress.engine.loader import builtin, builtin_games, entry_point_games, load_game
from warpress.engine.model import Game
from warpress.starter.new import new_game

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "games"


def every_game() -> list[str]:
    """The names of every registered game, ``starter`` and ``fixture/NAME`` for each fixture."""
    fixtures = sorted(f"fixture/{p.name}" for p in FIXTURES.iterdir()
                      if (p / "game.yaml").is_file())
    return [*builtin_games(), *entry_point_games(), "starter", *fixtures]


def starter_game(folder: Path) -> Game:
    """The starting game, written into ``folder`` (a new folder) and loaded."""
    return load_game(str(new_game(str(folder / "starter")).folder))


def game_named(name: str, starter: Game) -> Game:
    """The game ``name`` of :func:`every_game` (``starter``: the given starting game)."""
    if name == "starter":
        return starter
    if name.startswith("fixture/"):
        return load_game(str(FIXTURES / name.partition("/")[2]))
    return builtin(name)

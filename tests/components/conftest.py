"""Kits built once per test session: the midway kit into a temporary folder, and every
game's pages (the five built-in games and the starting game of ``warpress new``) on A4
and Letter, as a player prints them."""

from __future__ import annotations

import pytest
from warpress.components.kit import build_kit, kit_pages, parse_options
from warpress.engine.loader import builtin, builtin_games, load_game
from warpress.starter.new import new_game


@pytest.fixture(scope="session")
def midway_kit(tmp_path_factory):
    out = tmp_path_factory.mktemp("kits")
    return build_kit(builtin("midway"), out, parse_options("a4", "pdf,svg", "long", "0,0", None))


@pytest.fixture(scope="session")
def starter_game(tmp_path_factory):
    """The starting game ``warpress new`` writes, loaded."""
    return load_game(str(new_game(str(tmp_path_factory.mktemp("starter") / "starter")).folder))


@pytest.fixture(scope="session")
def player_kits(starter_game):
    """(game id, paper) -> (game, the kit's pages) for the five built-in games and the
    starting game ("starter") on A4 and Letter, as a player prints them (no proof)."""
    games = {g: builtin(g) for g in builtin_games()} | {"starter": starter_game}
    return {(g, paper): (games[g], kit_pages(games[g], parse_options(paper, "pdf", "long",
                                                                      "0,0", None)))
            for g in games for paper in ("a4", "letter")}


@pytest.fixture(scope="session")
def short_edge_kits(starter_game):
    """As ``player_kits``, printed duplex flipped on the short edge."""
    games = {g: builtin(g) for g in builtin_games()} | {"starter": starter_game}
    return {(g, paper): (games[g], kit_pages(games[g], parse_options(paper, "pdf", "short",
                                                                      "0,0", None)))
            for g in games for paper in ("a4", "letter")}

"""The picture of a session's position: the kit's map with every piece on the map drawn in
its hex, a reduced piece on its back, the title naming the turn and phase."""

from __future__ import annotations

from dataclasses import replace

import pytest
from warpress.components.session_map import draw_position, stacks_of, title_of
from warpress.engine.dice import GivenDice
from warpress.engine.loader import load_game
from warpress.engine.play.game import HexRules
from warpress.starter.new import new_game


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return load_game(str(new_game(str(tmp_path_factory.mktemp("map") / "pic")).folder))


@pytest.fixture(scope="module")
def position(game):
    return HexRules().new(game, None, GivenDice([2])).state


def test_every_piece_on_the_map_is_drawn_in_its_hex(game, position):
    stacks = dict(stacks_of(game, position, "map"))
    assert {h: len(s) for h, s in stacks.items()} == {
        "0206": 1, "0302": 2, "0503": 1, "0506": 1, "0603": 1, "0706": 1, "0807": 2}
    svg = draw_position(game, position, "svg").decode("utf-8")
    assert svg.startswith("<?xml") or "<svg" in svg[:200]
    assert svg.count("counter") >= 9 or svg.count("<g") > 9


def test_a_reduced_piece_shows_its_back(game, position):
    hurt = position.with_piece(replace(position.piece("n4"), step=1))
    front = dict(stacks_of(game, position, "map"))["0503"][0]
    back = dict(stacks_of(game, hurt, "map"))["0503"][0]
    assert front.front != back.front and back.front == front.back


def test_the_title_names_the_turn_and_phase(game, position):
    assert title_of(game, position) == "Pic · turn 1 · North movement"


def test_png_is_deterministic(game, position):
    first = draw_position(game, position, "png")
    assert first[:8] == b"\x89PNG\r\n\x1a\n" and first == draw_position(game, position, "png")

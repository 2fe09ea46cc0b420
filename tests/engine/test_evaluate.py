"""How good a position is for a side, from the data (engine/evaluate.py)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from warpress.engine.dice import GivenDice
from warpress.engine.evaluate import WIN, lead, objectives, score
from warpress.engine.loader import load_game
from warpress.engine.play.board import board_of
from warpress.engine.play.game import HexRules
from warpress.engine.position import Verdict

RIDGE = Path(__file__).resolve().parents[1] / "fixtures" / "games" / "ridge"
RULES = HexRules()


@pytest.fixture(scope="module")
def ridge():
    return load_game(str(RIDGE))


@pytest.fixture(scope="module")
def start(ridge):
    return RULES.new(ridge, None, GivenDice([])).state


def test_a_score_is_zero_sum_between_the_two_sides(ridge, start):
    assert score(ridge, start, "blue") == pytest.approx(-score(ridge, start, "red"))


def test_a_verdict_outweighs_everything(ridge, start):
    won = replace(start, verdict=Verdict("blue", "win", "blue holds cedar", ("10.1",)))
    assert score(ridge, won, "blue") == WIN and score(ridge, won, "red") == -WIN
    assert lead(ridge, won) == pytest.approx(score(ridge, start, "blue"))


def test_losing_a_step_a_town_or_supply_lowers_the_score(ridge, start):
    before = score(ridge, start, "red")
    piece = next(p for p in start.pieces if p.side == "red" and p.kind == "hex")
    weaker = start.with_piece(replace(piece, step=1))
    assert score(ridge, weaker, "red") < before
    lost_town = start.with_control({"0606": "blue"})
    assert score(ridge, lost_town, "red") < before
    cut_off = start.with_piece(piece.flagged("oos"))
    assert score(ridge, cut_off, "red") < before


def test_the_objectives_are_the_hexes_victory_names(ridge):
    hexes, far = objectives(ridge)
    names = {board_of(ridge).names[h] for h in hexes}
    assert names == {"0303", "0606", "1007"}  # the three towns (points) and cedar (hold)
    assert all(far[h] == 0 for h in hexes)

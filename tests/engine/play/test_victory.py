"""Victory decided from data: holding hexes, victory points with levels, elimination,
sudden death at the end of a turn, ``otherwise``, and the verdict citing its rule."""

from __future__ import annotations

from dataclasses import replace

from data_edits import edit
from warpress.engine.loader import load_game
from warpress.engine.model import FrozenDict
from warpress.engine.play.victory import check, points

from .conftest import act, place, start


def held(position, **control):
    return replace(position, control=FrozenDict(control))


def test_hold_at_the_end_and_otherwise(mini):
    p = held(start(mini), **{"0603": "blue"})
    assert check(mini, p, "turn-end") is None            # checked only at the end
    verdict = check(mini, p, "end", final=True)
    assert (verdict.winner, verdict.result, verdict.rule) == ("blue", "win", ("8.1",))
    assert "blue holds 0603" in verdict.reason
    nobody = check(mini, held(start(mini)), "end", final=True)
    assert (nobody.winner, nobody.result) == (None, "draw")


def test_sudden_death_at_the_end_of_a_turn(mini_dir):
    edit(mini_dir, "at: end, otherwise: draw,", "at: turn-end, side: red,", "play.yaml")
    game = load_game(str(mini_dir))
    p = held(start(game), **{"0603": "blue"})
    assert check(game, p, "turn-end") is None            # only red wins by it
    verdict = check(game, held(p, **{"0603": "red"}), "turn-end")
    assert verdict.winner == "red"


def test_the_game_ends_once_with_its_verdict(mini):
    p = start(mini)
    turns = 0
    while not p.over:
        p = act(mini, p, "end")
        turns += 1
        assert turns < 100
    assert p.turn == 4 and p.verdict.condition == "town"
    assert p.side is None and not p.pending


POINTS = """\
victory:
  - id: points
    check: points
    at: end
    points:
      - {vp: 3, features: [town]}
      - {vp: 1, eliminated: {}, per_step: true}
    levels: [{margin: 5, result: decisive}, {margin: 1, result: marginal}]
    otherwise: draw
    rule: "8.2"
"""


def test_victory_points_and_levels(mini_dir):
    text = (mini_dir / "play.yaml").read_text()
    start_at = text.index("victory:")
    end_at = text.index("tables:")
    (mini_dir / "play.yaml").write_text(text[:start_at] + POINTS + text[end_at:])
    game = load_game(str(mini_dir))
    condition = game.victory[0]
    p = held(start(game), **{"0603": "blue"})
    p = p.with_piece(replace(p.piece("r1"), step=1))      # red lost a step
    assert points(game, p, condition, "blue") == 4
    assert points(game, p, condition, "red") == 0
    verdict = check(game, p, "end", final=True)
    assert (verdict.winner, verdict.result) == ("blue", "marginal")
    p = place(p, r2="eliminated")
    p = p.with_piece(replace(p.piece("r2"), step=0))
    assert check(game, p, "end", final=True).result == "decisive"


def test_elimination(mini_dir):
    (mini_dir / "more.yaml").write_text(
        "victory:\n  - {id: rout, check: eliminate, at: phase-end, rule: \"8.3\"}\n")
    game = load_game(str(mini_dir))
    p = place(start(game), r1="eliminated", r2="eliminated")
    verdict = check(game, p, "phase-end")
    assert verdict.winner == "blue" and verdict.condition == "rout"

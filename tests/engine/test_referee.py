"""What every game's session rules share (engine/referee.py): the first checks of a command,
the refusal once the game is over, the position kept as its JSON."""

from __future__ import annotations

from dataclasses import replace

import pytest
from warpress.engine.errors import BadInput, RuleViolation
from warpress.engine.position import Piece, Position, Verdict
from warpress.engine.referee import OneScenario, PositionRules


class Rules(PositionRules):
    commands = ("move", "end")


def test_a_command_is_one_of_the_rules_and_its_arguments_an_object():
    assert Rules().checked("move", {"to": "0101"}) == {"to": "0101"}
    with pytest.raises(BadInput, match=r"unknown command 'fly' \(commands: move, end\)"):
        Rules().checked("fly", {})
    with pytest.raises(BadInput, match="move: arguments must be an object, got 'x'"):
        Rules().checked("move", "x")


def test_a_finished_game_refuses_every_command_citing_its_verdict():
    going = Position(game="g")
    Rules.refuse_when_over(going, "move", "4.0")  # nothing to refuse
    won = replace(going, verdict=Verdict("north", "win", "took both cities", ("12.1",)))
    with pytest.raises(RuleViolation, match=r"the game is over \(win\); move is refused") as e:
        Rules.refuse_when_over(won, "move", "4.0")
    assert e.value.rule == "12.1"
    bare = replace(won, verdict=Verdict("north", "win", "", ()))
    with pytest.raises(RuleViolation, match=r"the campaign is over \(north win\)") as e:
        Rules.refuse_when_over(bare, "end", "4.0", over=lambda v: f"{v.winner} win",
                               what="campaign")
    assert e.value.rule == "4.0"


def test_the_position_is_kept_as_its_json():
    position = Position(game="g", pieces=(Piece("a", "u", "north", "hex", "0101"),))
    rules = OneScenario()
    assert rules.load(None, rules.dump(position)) == position
    assert rules.load_scenario(None, None) == "standard"

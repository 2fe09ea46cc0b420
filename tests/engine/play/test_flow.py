"""The sequence of play from data: phase order, who acts, rolls and the conditions they
bring, phases that end by themselves, actions refused out of their phase, the turn track."""

from __future__ import annotations

import pytest
from data_edits import edit
from warpress.engine.errors import RuleViolation
from warpress.engine.loader import load_game
from warpress.engine.play.sequence import in_force

from .conftest import RULES, act, place, start


def test_phases_in_order_with_their_side(mini):
    p = place(start(mini), b1="0402", r1="0502")
    assert (p.phase, p.side) == ("blue-move", "blue")
    p = act(mini, p, "end")
    assert (p.phase, p.side) == ("blue-combat", "blue")   # an enemy is next to b1
    p = act(mini, p, "end")
    assert (p.phase, p.side) == ("red-move", "red")


def test_a_phase_with_nothing_to_do_ends_by_itself(mini):
    p = start(mini)                                       # nobody is next to an enemy
    step = RULES.apply(mini, p, "end", {}, None)
    assert step.state.phase == "red-move"
    assert any("Blue combat: nothing blue can do" in a.text for a in step.announcements)


def test_an_action_out_of_its_phase_is_refused(mini):
    with pytest.raises(RuleViolation, match=r"attack is not allowed in phase Blue movement "
                                            r"\(it allows: move, end\) \(rule 5.1\)"):
        act(mini, start(mini), "attack", hex="0801", units="b1")


def test_the_turn_track_moves(mini):
    p = start(mini)
    while p.turn == 1:
        p = act(mini, p, "end")
    assert p.turn == 2 and p.tracks["turn"] == 2


def test_a_roll_phase_brings_its_condition(mini_dir):
    edit(mini_dir, "  - {id: blue-move, order: 10,",
         "  - {id: weather, order: 5, name: Weather, who: both, do: roll, table: weather, "
         "rule: \"9.1\"}\n  - {id: blue-move, order: 10,", "play.yaml")
    (mini_dir / "weather.yaml").write_text(
        "tables:\n  - id: weather\n    dice: d6\n    rule: \"9.1\"\n"
        "    keys: [{id: roll, kind: roll, min: 1, max: 6}]\n    results: [weather]\n"
        "    rows: [{roll: \"1-3\", weather: dry}, {roll: \"4-6\", weather: rain}]\n"
        "conditions:\n  - {id: rain, table: weather, result: rain, movement: {minus: 2}, "
        "rule: \"9.1\"}\n", encoding="utf-8")
    game = load_game(str(mini_dir))
    wet = start(game, 5)
    assert wet.data["rolled"]["weather"] == "rain"
    assert [c.id for c in in_force(game, wet, "blue")] == ["rain"]
    dry = start(game, 2)
    assert in_force(game, dry, "blue") == []
    with pytest.raises(RuleViolation, match=r"needs 2 MP .* has 1 \(rain \[9.1\]\)"):
        act(game, place(wet, b1="0303"), "move", unit="b1", hex="0305")

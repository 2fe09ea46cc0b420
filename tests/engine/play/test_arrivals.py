"""Reinforcements and replacements from data: arrival turns, entry places and their
filters, pools, delays; replacement points, restore and rebuild with their places, the
one-phase rule, points kept or lost."""

from __future__ import annotations

from dataclasses import replace

import pytest
from data_edits import edit
from warpress.engine.errors import RuleViolation
from warpress.engine.loader import load_game
from warpress.engine.play.flow import settle

from .conftest import act, ctx, in_phase, place, start

REINFORCE = """\
reinforcements:
  - {id: red-column, turn: 2, units: [r3], at: [{edge: east, empty: true}], rule: "9.1"}
"""
PHASE = ("  - {id: red-reinforce, order: 25, name: Red reinforcements, who: red, "
         "do: reinforcements, rule: \"5.1\"}\n")


def with_reinforcements(mini_dir, record=REINFORCE):
    edit(mini_dir, "      - {unit: r3, where: reserve}\n", "", "units.yaml")
    (mini_dir / "arrivals.yaml").write_text(record, encoding="utf-8")
    edit(mini_dir, "  - {id: red-move, order: 30,", PHASE + "  - {id: red-move, order: 30,",
         "play.yaml")
    return load_game(str(mini_dir))


def test_reinforcements_wait_then_are_placed(mini_dir):
    game = with_reinforcements(mini_dir)
    p = start(game)
    assert p.piece("r3").kind == "pool" and p.piece("r3").place == "reinforcements"
    p = settle(ctx(game), in_phase(game, p, "red-reinforce"))   # turn 1: nothing arrives
    assert p.phase != "red-reinforce"
    turn2 = in_phase(game, replace(start(game), turn=2), "red-reinforce")
    with pytest.raises(RuleViolation, match=r"r3 may not enter at 0101.*rule 9.1"):
        act(game, turn2, "place", unit="r3", hex="0101")
    with pytest.raises(RuleViolation, match=r"r3 must enter.*rule 9.1"):
        act(game, turn2, "end")
    with pytest.raises(RuleViolation, match="may not enter at 0801"):   # r1 holds it
        act(game, turn2, "place", unit="r3", hex="0801")
    p = act(game, turn2, "place", unit="r3", hex="0804")
    assert p.piece("r3").place == "0804"


def test_reinforcements_into_a_pool(mini_dir):
    record = "reinforcements:\n  - {id: later, turn: 2, units: [r3], to: reserve, rule: \"9.2\"}\n"
    edit(mini_dir, "      - {unit: r3, where: reserve}\n", "", "units.yaml")
    (mini_dir / "arrivals.yaml").write_text(record, encoding="utf-8")
    game = load_game(str(mini_dir))
    p = start(game)
    assert p.piece("r3").place == "reinforcements"
    while p.turn < 2:
        p = act(game, p, "end")
    assert p.piece("r3").place == "reserve"


REPLACE = """\
replacements:
  - {id: red-points, side: red, points: 2, at: [{edge: east, empty: true}],
     restore_at: [{features: [town]}], rule: "10.1"}
"""


def with_replacements(mini_dir, record=REPLACE):
    (mini_dir / "replace.yaml").write_text(record, encoding="utf-8")
    edit(mini_dir, "  - {id: red-move, order: 30,",
         "  - {id: red-replace, order: 25, name: Red replacements, who: red, "
         "do: replacements, rule: \"5.1\"}\n  - {id: red-move, order: 3,", "play.yaml")
    return load_game(str(mini_dir))


def test_rebuild_and_restore(mini_dir):
    game = with_replacements(mini_dir)
    p = place(start(game), r1="0603", r2="0706")
    p = p.with_piece(replace(p.piece("r1"), step=1))
    p = in_phase(game, p, "red-replace")
    assert p.data["points"] == 2
    with pytest.raises(RuleViolation, match=r"may not be rebuilt in 0101.*rule 10.1"):
        act(game, p, "replace", unit="r3", hex="0101")
    p = act(game, p, "replace", unit="r3", hex="0805")    # from the reserve, east edge
    assert p.piece("r3").place == "0805" and p.piece("r3").step == 1
    p = act(game, p, "replace", unit="r1")                # restored in the town
    assert p.piece("r1").step == 2
    assert p.phase != "red-replace"                        # no point left: the phase ends


def test_restore_only_where_allowed(mini_dir):
    game = with_replacements(mini_dir)
    p = place(start(game), r1="0706", r2="0806")
    p = p.with_piece(replace(p.piece("r1"), step=1))
    p = in_phase(game, p, "red-replace")
    with pytest.raises(RuleViolation, match="r1 cannot be restored: it may not be restored "
                                            "where it is"):
        act(game, p, "replace", unit="r1")


def test_a_unit_rebuilt_is_not_restored_in_the_same_phase(mini_dir):
    game = with_replacements(mini_dir, REPLACE.replace("restore_at: [{features: [town]}], ",
                                                        ""))
    p = place(start(game), r1="0706", r2="eliminated")
    p = p.with_piece(replace(p.piece("r1"), step=1))      # something else to spend on
    p = in_phase(game, p, "red-replace")
    p = act(game, p, "replace", unit="r2", hex="0805")
    assert p.piece("r2").step == 1
    with pytest.raises(RuleViolation, match="r2 cannot be restored: it was rebuilt this "
                                            "phase"):
        act(game, p, "replace", unit="r2")


def test_points_are_lost_unless_kept(mini_dir):
    game = with_replacements(mini_dir)
    p = in_phase(game, place(start(game)), "red-replace")
    after = act(game, p, "end")
    assert after.data.get("kept", {}).get("red", 0) == 0
    assert after.phase != "red-replace"


def test_points_kept(mini_dir):
    game = with_replacements(mini_dir, REPLACE.replace("points: 2,", "points: 2, keep: true,"))
    p = in_phase(game, place(start(game)), "red-replace")
    assert act(game, p, "end").data["kept"]["red"] == 2

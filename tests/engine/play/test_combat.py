"""Combat played: declaring, the odds from the CRT form with terrain and conditions, each
result's effects, the decisions they leave (losses, retreats, advances) and their answers.
The dice are given, so every result is the one the test names."""

from __future__ import annotations

import pytest
from data_edits import edit
from warpress.engine.errors import RuleViolation
from warpress.engine.loader import load_game
from warpress.engine.play import combat

from .conftest import RULES, act, ctx, in_phase, place, start


def combat_phase(game, **where):
    return in_phase(game, place(start(game), **where), "blue-combat")


def odds(game, position, hex_id, *attackers):
    battle = {"hex": hex_id, "attackers": list(attackers),
              "from": {a: position.piece(a).place for a in attackers}}
    t, column, _extra = combat.odds_of(ctx(game), position, battle)
    return column, " ".join(t.lines + list(column.notes))


def test_odds_column_and_terrain(mini):
    p = combat_phase(mini, b1="0402", b3="0602", r1="0502", b2="0101")
    assert odds(mini, p, "0502", "b1")[0].index == 0           # 4:3 -> 1-1
    p = combat_phase(mini, b3="0602", r1="0603", b1="0101", b2="0102")
    column, text = odds(mini, p, "0603", "b3")                  # town: defence x2
    assert column.index == 0 and "x2 city" in text             # 9:6 -> 1-1


def test_a_terrain_effect_with_a_side_helps_only_that_side(mini):
    red = combat_phase(mini, b3="0602", r1="0702", b1="0101", b2="0102")
    column, text = odds(mini, red, "0702", "b3")               # 9:3, fort: -1 -> 2-1
    assert column.index == 1 and "fort" in text
    blue = in_phase(mini, place(start(mini), b1="0702", r1="0602", r2="0603"), "red-combat")
    column, text = odds(mini, blue, "0702", "r1", "r2")        # 6:4 -> 1-1, no fort shift
    assert column.index == 0 and "fort" not in text


def test_a_river_shifts_only_when_every_attacker_crosses_it(mini):
    p = combat_phase(mini, b1="0301", b2="0101", b3="0102", r1="0401")
    column, text = odds(mini, p, "0401", "b1")                 # across the creek: below 1-1
    assert column.result == "AR" and "river" in text
    p = place(p, b2="0501")
    assert odds(mini, p, "0401", "b1", "b2")[0].index == 1     # 8:3 -> 2-1, no shift


def test_declaring_is_checked(mini):
    p = combat_phase(mini, b1="0402", b2="0202", b3="0602", r1="0502", r2="0603")
    with pytest.raises(RuleViolation, match=r"b2 in 0202 is not next to 0502 \(rule 7.0\)"):
        act(mini, p, "attack", 1, hex="0502", units="b2")
    with pytest.raises(RuleViolation, match="holds no enemy unit"):
        act(mini, p, "attack", 1, hex="0503", units="b1")
    p = act(mini, p, "attack", 4, hex="0502", units="b1")      # 1-1, roll 4: AR
    p = act(mini, p, "retreat", unit="b1", path="0301")
    with pytest.raises(RuleViolation, match="has been attacked this phase"):
        act(mini, p, "attack", 1, hex="0502", units="b3")


def test_defender_retreat_is_the_owners_choice(mini):
    p = combat_phase(mini, b1="0402", b2="0101", b3="0102", r1="0502")
    p = act(mini, p, "attack", 1, hex="0502", units="b1")      # 1-1, roll 1: DR
    due = p.due
    assert due.kind == "retreat" and due.side == "red" and p.side == "red"
    with pytest.raises(RuleViolation, match=r"may not retreat along 0501.*rule 7.4"):
        act(mini, p, "retreat", unit="r1", path="0501")        # in b1's zone of control
    p = act(mini, p, "retreat", unit="r1", path="0602")
    assert p.piece("r1").place == "0602"
    assert p.due.kind == "advance" and p.due.side == "blue"    # the hex is empty
    p = act(mini, p, "advance", unit="b1")
    assert p.piece("b1").place == "0502" and not p.pending


def test_a_unit_that_cannot_retreat_is_eliminated(mini):
    p = combat_phase(mini, b1="0402", b2="0602", b3="0503", r1="0502", r2="0806")
    # every hex around r1 is a blue unit's or in a blue zone of control
    p = act(mini, p, "attack", 1, hex="0502", units="b1")
    assert p.piece("r1").kind == "eliminated"


def test_step_loss_then_retreat(mini):
    p = combat_phase(mini, b1="0402", b2="0501", b3="0101", r1="0502")
    p = act(mini, p, "attack", 1, hex="0502", units="b1,b2")   # 8:3 -> 2-1, roll 1: DRL
    assert p.piece("r1").step == 1
    assert p.due.kind == "retreat"


def test_defender_eliminated(mini):
    p = combat_phase(mini, b3="0402", b1="0101", b2="0102", r1="0502")
    p = act(mini, p, "attack", 1, hex="0502", units="b3")      # 9:3 -> 3-1, roll 1: DE
    assert p.piece("r1").kind == "eliminated"


def test_exchange_of_steps_with_the_attackers_choice(mini):
    p = combat_phase(mini, b1="0402", b2="0501", b3="0101", r1="0502")
    p = act(mini, p, "attack", 3, hex="0502", units="b1,b2")   # 2-1, roll 3: EX
    assert p.piece("r1").step == 1                              # one defender: no choice
    assert p.due.kind == "loss" and p.due.side == "blue"
    with pytest.raises(RuleViolation, match="not one of the units"):
        act(mini, p, "lose", unit="b3")
    p = act(mini, p, "lose", unit="b2")
    assert p.piece("b2").step == 1 and p.piece("b1").step == 2


def test_exchange_by_printed_strength(mini_dir):
    edit(mini_dir, "EX: [{exchange: steps}]", "EX: [{exchange: strength}]", "play.yaml")
    game = load_game(str(mini_dir))
    p = combat_phase(game, b1="0402", b3="0501", b2="0101", r1="0502")
    p = act(game, p, "attack", 4, hex="0502", units="b1,b3")   # 13:3 -> 3-1, roll 4: EX
    assert p.piece("r1").step == 1                              # lost 1 defence (3 -> 2)
    p = act(game, p, "lose", unit="b1")                         # 4 -> 2: lost 2 >= 1
    assert not p.pending and p.piece("b3").step == 2


def test_attacker_retreat(mini):
    p = combat_phase(mini, b1="0402", b2="0101", b3="0102", r1="0502")
    p = act(mini, p, "attack", 3, hex="0502", units="b1")      # 1-1, roll 3: AR
    assert p.due.kind == "retreat" and p.due.side == "blue"
    paths = {a.args["path"] for a in combat_decision(game=mini, position=p)}
    assert paths == {"0301", "0302", "0401"}


def combat_decision(game, position):
    return list(RULES.decision(game, position).actions())


def test_retreat_chosen_by_the_enemy(mini_dir):
    edit(mini_dir, "retreat: {chooser: owner", "retreat: {chooser: enemy", "play.yaml")
    game = load_game(str(mini_dir))
    p = combat_phase(game, b1="0402", b2="0101", b3="0102", r1="0502")
    p = act(game, p, "attack", 1, hex="0502", units="b1")
    assert p.due.kind == "retreat" and p.due.side == "blue"


def test_retreat_that_extends_to_a_hex_with_room(mini_dir):
    edit(mini_dir, "retreat: {chooser: owner", "retreat: {chooser: owner, overstack: extend",
         "play.yaml")
    edit(mini_dir, "limit: 2, of: units", "limit: 1, of: units", "map.yaml")
    game = load_game(str(mini_dir))
    p = combat_phase(game, b1="0402", b2="0101", b3="0102", r1="0502", r2="0602")
    p = act(game, p, "attack", 1, hex="0502", units="b1")
    paths = {a.args["path"] for a in combat_decision(game, p)}
    assert "0602" not in paths and "0503" in paths
    assert any(path.startswith("0602,") for path in paths)       # through r2, on


def test_retreat_into_an_overstack_is_refused_with_eliminate(mini_dir):
    edit(mini_dir, "retreat: {chooser: owner", "retreat: {chooser: owner, overstack: eliminate",
         "play.yaml")
    edit(mini_dir, "limit: 2, of: units", "limit: 1, of: units", "map.yaml")
    game = load_game(str(mini_dir))
    p = combat_phase(game, b1="0402", b2="0101", b3="0102", r1="0502", r2="0602")
    p = act(game, p, "attack", 1, hex="0502", units="b1")
    paths = {a.args["path"] for a in combat_decision(game, p)}
    assert paths == {"0503", "0603"}


def test_battles_declared_first(mini_dir):
    edit(mini_dir, "    table: crt\n", "    table: crt\n    declare: all\n", "play.yaml")
    game = load_game(str(mini_dir))
    p = combat_phase(game, b1="0402", b3="0602", b2="0101", r1="0502", r2="0603")
    p = act(game, p, "attack", hex="0502", units="b1")
    p = act(game, p, "attack", hex="0603", units="b3")
    assert p.piece("r1").place == "0502" and p.piece("r2").step == 2   # nothing rolled yet
    p = act(game, p, "end")
    assert p.data["step"] == "resolve"
    with pytest.raises(RuleViolation, match=r"it allows: resolve"):
        act(game, p, "end")
    p = act(game, p, "resolve", 1, hex="0603")                   # 9:6 -> 1-1, roll 1: DR
    assert p.piece("r2").place != "0603" or p.pending


def test_mandatory_attacks(mini_dir):
    edit(mini_dir, "    table: crt\n", "    table: crt\n    mandatory: true\n", "play.yaml")
    game = load_game(str(mini_dir))
    p = combat_phase(game, b1="0402", b2="0101", b3="0102", r1="0502")
    with pytest.raises(RuleViolation, match=r"attacks are mandatory: b1 in 0402 .*rule 7.0"):
        act(game, p, "end")
    p = act(game, p, "attack", 4, hex="0502", units="b1")
    assert not p.pending or p.due.kind == "retreat"

"""Movement from data: reachable hexes with cost and path, terrain, roads, rail, zones of
control as switches, stacking timing, conditions; refusals that name the rule. Each variant
is switched in the data and the test sees the difference."""

from __future__ import annotations

import pytest
from data_edits import edit
from warpress.engine.errors import RuleViolation
from warpress.engine.loader import load_game
from warpress.engine.play.board import board_of
from warpress.engine.play.movement import reach
from warpress.engine.play.sequence import phase

from .conftest import act, in_phase, place, start


def ends(game, position, piece_id, phase_id="blue-move", **kw) -> dict[str, int]:
    board = board_of(game)
    found = reach(game, position, position.piece(piece_id), phase(game, phase_id), **kw)
    return {board.names[h]: cost for h, (cost, _path) in found.ends.items()}


def test_costs_from_the_terrain_chart(mini):
    p = place(start(mini), b1="0303", b2="0101", b3="0102")
    found = ends(mini, p, "b1")
    assert found["0304"] == 1          # clear
    assert found["0404"] == 2          # forest costs 2 (6.1)
    assert found["0405"] == 2          # clear, clear
    assert found["0206"] == 3          # swamp takes all the MP left


def test_a_road_costs_its_own_mp_along_it(mini_dir):
    edit(mini_dir, 'terrain: clear\n', 'terrain: forest\n', "map.yaml")  # every hex forest
    edit(mini_dir, '  - {id: clear, movement: 1, rule: "6.1"}\n', "", "map.yaml")
    game = load_game(str(mini_dir))
    p = place(start(game), b1="0101", b2="0606", b3="0605")
    found = ends(game, p, "b1")
    assert found["0301"] == 2 and found["0401"] == 3    # along the road: 1 MP a hex
    assert found.get("0102") == 2                        # off the road: the forest's 2


def test_a_river_adds_its_cost(mini):
    p = place(start(mini), b1="0302", b2="0101", b3="0102")
    found = ends(mini, p, "b1")
    assert found["0402"] == 2           # across the creek: 1 + 1


def test_enemy_hexes_are_never_entered(mini):
    p = place(start(mini), b1="0303", r1="0304", r2="0806")
    assert "0304" not in ends(mini, p, "b1", zoc=False)


def test_stop_zone_of_control_stops_a_move(mini):
    p = place(start(mini), b1="0303", r1="0305", r2="0806")
    found = ends(mini, p, "b1")
    assert "0304" in found                      # it may enter the zone, and stops there:
    assert "0306" not in found and "0406" not in found   # beyond it
    assert "0204" in found                       # outside the zone it moves on


def test_no_zone_of_control(mini_dir):
    edit(mini_dir, "zoc: {kind: stop", "zoc: {kind: none", "play.yaml")
    game = load_game(str(mini_dir))
    p = place(start(game), b1="0303", r1="0305", r2="0806")
    assert ends(game, p, "b1")["0406"] == 3      # straight past r1


def test_locking_zone_of_control_holds_a_unit(mini_dir):
    edit(mini_dir, "zoc: {kind: stop", "zoc: {kind: locking", "play.yaml")
    game = load_game(str(mini_dir))
    p = place(start(game), b1="0303", r1="0304", r2="0806")
    assert ends(game, p, "b1") == {}
    with pytest.raises(RuleViolation, match=r"(enemy zone of control|may not move).*rule"):
        act(game, p, "move", unit="b1", hex="0302")


def test_stop_zone_lets_a_unit_leave(mini):
    p = place(start(mini), b1="0303", r1="0304", r2="0806")
    assert "0302" in ends(mini, p, "b1")


def test_leave_cost_and_zoc_to_zoc(mini_dir):
    edit(mini_dir, "zoc: {kind: stop", "zoc: {kind: stop, leave_cost: 1, zoc_to_zoc: false",
         "play.yaml")
    game = load_game(str(mini_dir))
    p = place(start(game), b1="0303", r1="0304", r2="0806")
    found = ends(game, p, "b1")
    assert found["0302"] == 2                    # 1 to enter + 1 to leave the zone
    assert "0404" not in found                   # from r1's zone straight into it again
    assert found["0204"] == 3                    # round about, out of the zone first


def test_zoc_does_not_cross_a_named_hexside(mini_dir):
    edit(mini_dir, "zoc: {kind: stop", "zoc: {kind: stop, hexsides: [river]", "play.yaml")
    game = load_game(str(mini_dir))
    p = place(start(game), b1="0301", r1="0401", r2="0806", b2="0101", b3="0103")
    # r1 in 0401 exerts no zone across the creek into 0301/0302: b1 moves on through 0302
    assert "0303" in ends(game, p, "b1")
    plain = load_game(str(mini_dir).replace("/mini", "/mini")) if False else None
    assert plain is None


def test_stacking_limit_at_the_end_of_a_move(mini):
    p = place(start(mini), b1="0303", b2="0304", b3="0304")
    assert "0304" not in ends(mini, p, "b1")    # 2 a hex already there
    assert "0305" in ends(mini, p, "b1")        # passing through is allowed


def test_stacking_during_movement(mini_dir):
    edit(mini_dir, "stacking: {when: end-of-move", "stacking: {when: move", "play.yaml")
    game = load_game(str(mini_dir))
    p = place(start(game), b1="0303", b2="0304", b3="0304", r1="0806", r2="0805")
    found = ends(game, p, "b1")
    assert "0304" not in found
    assert found["0305"] == 3                    # around, not through, the full hex


def test_stacking_at_the_end_of_the_phase(mini_dir):
    edit(mini_dir, "stacking: {when: end-of-move", "stacking: {when: end-of-phase", "play.yaml")
    game = load_game(str(mini_dir))
    p = place(start(game), b1="0303", b2="0304", b3="0304", r1="0806", r2="0805")
    assert "0304" in ends(game, p, "b1")         # may stop over the limit for now ...
    p = act(game, p, "move", unit="b1", hex="0304")
    with pytest.raises(RuleViolation, match=r"holds 3 units.*rule 6.3"):
        act(game, p, "end")                      # ... but not end the phase so
    p = act(game, p, "move", unit="b2", hex="0204")
    assert act(game, p, "end").phase != "blue-move"


def test_rail_moves_along_the_line_only(mini_dir):
    edit(mini_dir, "movement: {allowance: move, rule: \"6.1\"}",
         "movement: {allowance: move, rail: {kind: railway}, rule: \"6.1\"}", "play.yaml")
    edit(mini_dir, "  - {id: blue-move, order: 10,",
         "  - {id: blue-rail, order: 0, name: Blue rail, who: blue, do: rail, rule: \"5.1\"}\n"
         "  - {id: blue-move, order: 10,", "play.yaml")
    game = load_game(str(mini_dir))
    p = in_phase(game, place(start(game), b1="0205", b2="0101", b3="0102"), "blue-rail")
    found = ends(game, p, "b1", "blue-rail", rail=True)
    assert set(found) == {"0105", "0305", "0405", "0505"}   # 3 MP along the line
    with pytest.raises(RuleViolation, match="not on the railway|may not move"):
        act(game, p, "move", unit="b2", hex="0201")


def test_conditions_change_movement(mini_dir):
    game_text = "conditions:\n  - {id: mud, turns: [1], movement: {hexes: 1}, rule: \"9.1\"}\n"
    (mini_dir / "mud.yaml").write_text(game_text, encoding="utf-8")
    game = load_game(str(mini_dir))
    p = place(start(game), b1="0303", b2="0101", b3="0102")
    found = ends(game, p, "b1")
    assert found and all(len(path) == 1 for path in
                         (reach(game, p, p.piece("b1"), phase(game, "blue-move")).ends[h][1]
                          for h in reach(game, p, p.piece("b1"),
                                         phase(game, "blue-move")).ends))
    with pytest.raises(RuleViolation, match=r"at most 1 hex now \(mud \[9.1\]\)"):
        act(game, p, "move", unit="b1", hex="0305")


def test_refusals_name_the_rule(mini):
    p = place(start(mini), b1="0303", b2="0101", b3="0102")
    with pytest.raises(RuleViolation, match=r"needs \d+ MP to reach 0506 .* has 3 \(rule 6.1\)"):
        act(mini, p, "move", unit="b1", hex="0506")
    with pytest.raises(RuleViolation, match=r"red; blue acts now"):
        act(mini, p, "move", unit="r1", hex="0703")
    p = act(mini, p, "move", unit="b1", hex="0304")
    with pytest.raises(RuleViolation, match=r"b1 has moved this phase \(rule 6.1\)"):
        act(mini, p, "move", unit="b1", hex="0305")


def test_a_given_path_is_checked_step_by_step(mini):
    p = place(start(mini), b1="0303", r1="0305", r2="0806", b2="0101", b3="0102")
    with pytest.raises(RuleViolation, match=r"entered an enemy zone of control in 0304 and "
                                            r"must stop there \(rule 6.4\)"):
        act(mini, p, "move", unit="b1", hex="0204", path="0304,0204")
    moved = act(mini, p, "move", unit="b1", hex="0204", path="0203,0204")
    assert moved.piece("b1").place == "0204"


def test_no_stop_over_the_limit_where_no_unit_can_leave_this_phase(mini_dir):
    edit(mini_dir, "stacking: {when: end-of-move", "stacking: {when: end-of-phase", "play.yaml")
    edit(mini_dir, "who: blue, do: move, rule", "who: blue, do: move, units: {types: [armour]}, "
         "rule", "play.yaml")
    game = load_game(str(mini_dir))
    p = place(start(game), b1="0304", b2="0304", b3="0303", r1="0806", r2="0805")
    assert "0304" not in ends(game, p, "b3")    # b1 and b2 may not move in an armour phase
    with pytest.raises(RuleViolation, match=r"0304 is full and no unit there can still move "
                                            r"out this phase \(rule 6.3\)"):
        act(game, p, "move", unit="b3", hex="0304")

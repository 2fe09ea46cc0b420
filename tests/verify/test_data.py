"""verify/data.py: every broken-data case is reported with file, line and key."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from data_edits import edit as _edit
from data_edits import problems as _messages
from warpress.cli import main
from warpress.verify.data import check_folder


def test_the_fixture_is_clean(tiny_game):
    report = check_folder(str(tiny_game))
    assert report.ok, report.problems
    assert report.sourced > 0 and report.assumed == 5


def test_yaml_syntax_error_names_file_and_line(tiny_game):
    _edit(tiny_game, "  players: \"2\"", "  players: [\"2\"")
    (msg,) = _messages(tiny_game)
    assert msg.startswith(f"{tiny_game}/game.yaml:")
    assert "YAML syntax error" in msg


def test_file_that_is_not_yaml(tiny_game):
    (tiny_game / "units.yaml").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe")
    msgs = _messages(tiny_game)
    assert any("units.yaml" in m and "not a UTF-8 text file" in m for m in msgs), msgs


def test_file_that_is_yaml_but_not_a_mapping(tiny_game):
    (tiny_game / "units.yaml").write_text("- just\n- a list\n", encoding="utf-8")
    msgs = _messages(tiny_game)
    assert any("units.yaml:1" in m and "mapping of sections" in m for m in msgs), msgs


def test_wrong_type_names_line_and_key_path(tiny_game):
    _edit(tiny_game, "count: 4, steps: 2", "count: four, steps: 2")
    (msg,) = _messages(tiny_game)
    line = _line_of(tiny_game / "game.yaml", "id: tank")
    assert msg == (f"{tiny_game}/game.yaml:{line}: units[tank].count: "
                   "expected an integer, got str 'four'")


def test_duplicate_id(tiny_game):
    _edit(tiny_game, "  - {id: reach,", "  - {id: capacity,")
    msgs = _messages(tiny_game)
    assert any("constants[capacity]" in m and "duplicate id 'capacity'" in m for m in msgs), msgs


def test_duplicate_yaml_key(tiny_game):
    _edit(tiny_game, "  kind: hex\n", "  kind: hex\n  kind: cards\n")
    msgs = _messages(tiny_game)
    assert any("game.kind: duplicate key 'kind'" in m for m in msgs), msgs


def test_dangling_references(tiny_game):
    _edit(tiny_game, "side: red, type: armor", "side: green, type: armor")
    _edit(tiny_game, "errata: [E1]", "errata: [E9]")
    _edit(tiny_game, "hexes: [C-2]", "hexes: [Q-2]")
    msgs = _messages(tiny_game)
    assert any("units[tank].side: side 'green' does not exist (have: blue, red)" in m
               for m in msgs), msgs
    assert any("constants[capacity].errata: erratum 'E9' does not exist" in m for m in msgs)
    assert any("features[town].hexes: hex 'Q-2' is not on the map" in m for m in msgs)
    assert len(msgs) == 3


def test_table_gap(tiny_game):
    _edit(tiny_game, '{roll: "1-2", hits: 1}', '{roll: "1", hits: 1}')
    (msg,) = _messages(tiny_game)
    assert "tables[hit].rows: gap: no row for roll=2, armored=yes; roll=2, armored=no" in msg


def test_table_overlap(tiny_game):
    _edit(tiny_game, '{roll: "3-5", armored: yes', '{roll: "2-5", armored: yes')
    (msg,) = _messages(tiny_game)
    assert "overlap: rows[0] and rows[2] all match roll=2, armored=yes" in msg
    line = _line_of(tiny_game / "game.yaml", 'roll: "2-5"')
    assert f":{line}:" in msg


def test_unknown_key_lists_the_allowed_ones(tiny_game):
    _edit(tiny_game, "count: 4, steps: 2", "cuont: 4, steps: 2")
    (msg,) = _messages(tiny_game)
    assert "units[tank].cuont: unknown key 'cuont' (allowed:" in msg


def test_missing_provenance(tiny_game):
    _edit(tiny_game, ', rule: "5.1"}', "}")
    (msg,) = _messages(tiny_game)
    assert "tracks[turn]: no provenance" in msg


def test_assumed_without_note(tiny_game):
    _edit(tiny_game, "source: assumed, note: not in the text", "source: assumed")
    (msg,) = _messages(tiny_game)
    assert "constants[reach]: source: assumed needs a one-line note" in msg


def test_unquoted_rule_number(tiny_game):
    _edit(tiny_game, 'rule: "2.2"', "rule: 2.2")
    (msg,) = _messages(tiny_game)
    assert "units[tank].rule" in msg and "quoted" in msg


def test_track_start_out_of_range(tiny_game):
    _edit(tiny_game, "start: 1,", "start: 9,")
    (msg,) = _messages(tiny_game)
    assert "tracks[turn].start: start 9 is not a box of the track (1, 2, 3, 4)" in msg


def test_every_problem_is_reported_in_one_run(tiny_game):
    _edit(tiny_game, "count: 4, steps: 2", "count: four, steps: 2")
    _edit(tiny_game, '{roll: "1-2", hits: 1}', '{roll: "1", hits: 1}')
    _edit(tiny_game, "start: 1,", "start: 9,")
    assert len(_messages(tiny_game)) == 3


def test_cli_verify_reports_and_exits_2(tiny_game, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _edit(tiny_game, "count: 4, steps: 2", "count: four, steps: 2")
    result = CliRunner().invoke(main, ["verify", str(tiny_game), "--data"])
    assert result.exit_code == 2
    assert "units[tank].count: expected an integer" in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "output").exists()


def test_cli_verify_ok(tiny_game):
    result = CliRunner().invoke(main, ["verify", str(tiny_game), "--data"])
    assert result.exit_code == 0, result.output
    assert "tiny: data OK" in result.output


def test_cli_unknown_game_is_one_line_exit_2():
    result = CliRunner().invoke(main, ["verify", "no-such-game", "--data"])
    assert result.exit_code == 2
    assert result.output.strip().count("\n") == 0
    assert "unknown game 'no-such-game'" in result.output


def _line_of(path: Path, needle: str) -> int:
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if needle in line:
            return number
    raise AssertionError(needle)


def test_assumed_notes_are_not_references(tiny_game):
    _edit(tiny_game, 'assumed: {stats.move: "movement not printed"}',
          'assumed: {stats.move: "movement not printed", side: "colour only"}')
    assert _messages(tiny_game) == []


def test_a_bad_field_inside_a_table_row_is_reported_not_a_crash(tiny_game):
    _edit(tiny_game, '{roll: "1-2", hits: 1}', '{roll: "1-2", hits: 1, name: [a, b]}')
    msgs = _messages(tiny_game)
    assert any("tables[hit].rows[0].name: expected text, got a list" in m for m in msgs), msgs


def test_a_broken_referee_scenario_is_a_data_problem_with_file_and_line(tmp_path, monkeypatch):
    """`verify --data` loads the shipped scenarios of a game's automatic referee."""
    import shutil

    from warpress.engine.loader import builtin
    from warpress.games.nightfighter.rules import scenario
    from warpress.verify.data import check_referee_scenarios

    game = builtin("nightfighter")
    assert list(check_referee_scenarios(game)) == []
    folder = tmp_path / "scenarios"
    shutil.copytree(scenario.SCENARIO_DIR, folder)
    broken = folder / "kammhuber-line.yaml"
    broken.write_text(broken.read_text().replace("{unit: stirling,", "{unit: spitfire,"))
    monkeypatch.setattr(scenario, "SCENARIO_DIR", folder)
    problems = list(check_referee_scenarios(game))
    assert len(problems) == 1
    assert problems[0].file.endswith("kammhuber-line.yaml") and problems[0].line > 0
    assert "spitfire" in problems[0].message


def test_every_broken_referee_scenario_is_reported_with_its_key_path(tmp_path, monkeypatch):
    """Two broken shipped scenarios: the problems of both, each with its file, line and key."""
    import shutil

    from warpress.engine.errors import InputProblems
    from warpress.engine.loader import builtin
    from warpress.engine.rulesets import rules_for
    from warpress.games.nightfighter.rules import scenario
    from warpress.verify.data import check_referee_scenarios

    game = builtin("nightfighter")
    folder = tmp_path / "scenarios"
    shutil.copytree(scenario.SCENARIO_DIR, folder)
    kammhuber, boar = folder / "kammhuber-line.yaml", folder / "tame-boar.yaml"
    kammhuber.write_text(kammhuber.read_text().replace("{unit: stirling,", "{unit: spitfire,"))
    assert "difficulty: " in boar.read_text()
    boar.write_text(boar.read_text().replace("difficulty: ", "difficulty: easy # ", 1))
    monkeypatch.setattr(scenario, "SCENARIO_DIR", folder)
    problems = list(check_referee_scenarios(game))
    assert [p.file.rpartition("/")[2] for p in problems] == ["kammhuber-line.yaml",
                                                             "tame-boar.yaml"]
    assert all(p.line > 0 for p in problems)
    assert problems[0].path.startswith("scenario.attacking_force[")
    assert "spitfire" in problems[0].message
    assert problems[1].path == "scenario.difficulty" and "'easy'" in problems[1].message
    with pytest.raises(InputProblems) as caught:
        rules_for(game).scenarios(game)
    assert str(caught.value) == "\n".join(str(p) for p in problems)


def test_hexsides_must_join_two_neighbouring_hexes_of_the_map(tiny_game):
    _edit(tiny_game, "{id: town, kind: town, hexes: [C-2], rule: \"2.3\"}",
          "{id: town, kind: town, hexes: [C-2], rule: \"2.3\"}\n"
          "      - {id: brook, kind: river, hexsides: [C-2/C-3, A-1/E-4, C-2/Q-9, B-1], "
          "rule: \"2.4\"}")
    msgs = _messages(tiny_game)
    assert any("features[brook].hexsides: hexside 'A-1/E-4': A-1 and E-4 are not "
               "neighbours" in m for m in msgs), msgs
    assert any("hexside 'C-2/Q-9' is not two hexes of the map" in m for m in msgs), msgs
    assert any("hexside 'B-1' is not two hexes of the map" in m for m in msgs), msgs
    assert len(msgs) == 3, msgs


# --- typos that must not pass silently ----------------------------------------------------


def test_an_unknown_key_on_a_map_feature_is_refused_with_its_line(tiny_game):
    _edit(tiny_game, "hexes: [C-2], rule", 'hexs: ["9999"], rule')
    (msg,) = _messages(tiny_game)
    line = _line_of(tiny_game / "game.yaml", "hexs:")
    assert f"game.yaml:{line}: hex_maps[field].features[town].hexs: unknown key 'hexs'" in msg
    assert "hexes" in msg.split("allowed:")[1]


def test_the_keys_a_feature_may_have_still_load(tiny_game):
    _edit(tiny_game, "hexes: [C-2], rule", "hexes: [C-2], color: red, symbol: port, rule")
    assert _messages(tiny_game) == []


def test_a_feature_hex_not_on_the_map_is_refused_with_its_line(tiny_game):
    _edit(tiny_game, "hexes: [C-2]", 'hexes: ["9999"]')
    (msg,) = _messages(tiny_game)
    line = _line_of(tiny_game / "game.yaml", '"9999"')
    assert f"game.yaml:{line}: hex_maps[field].features[town].hexes: hex '9999' is not on" in msg


SETUP = """
setup:
  - id: red-start
    side: red
    rule: "6.1"
    place:
      - {unit: tank, count: 1, where: B-2, steps: STEPS}
"""


@pytest.mark.parametrize("steps, ok", [(1, True), (2, True), (3, False), (0, False)])
def test_a_placement_gives_a_unit_at_most_its_steps(tiny_game, steps, ok):
    with (tiny_game / "game.yaml").open("a", encoding="utf-8") as out:
        out.write(SETUP.replace("STEPS", str(steps)))
    msgs = _messages(tiny_game)
    if ok:
        assert msgs == []
        return
    (msg,) = msgs
    line = _line_of(tiny_game / "game.yaml", "{unit: tank")
    assert (f"game.yaml:{line}: setup[red-start].place[0].steps: steps {steps}: unit 'tank' "
            "has 2 steps (allowed: 1-2)") in msg


def test_a_unit_has_one_or_two_steps(tiny_game):
    _edit(tiny_game, "count: 4, steps: 2", "count: 4, steps: 3")
    (msg,) = _messages(tiny_game)
    line = _line_of(tiny_game / "game.yaml", "steps: 3")
    assert f"game.yaml:{line}: units[tank].steps: steps 3 (allowed: 1 or 2" in msg


VICTORY = """
victory:
  - {id: capital, when: end of turn 4, params: {city: CITY}, rule: "7.1"}
"""


def test_a_city_named_in_params_must_be_a_city_of_the_map(tiny_game):
    _edit(tiny_game, "{id: town, kind: town,", "{id: town, kind: city,")
    with (tiny_game / "game.yaml").open("a", encoding="utf-8") as out:
        out.write(VICTORY.replace("CITY", "moskva"))
    (msg,) = _messages(tiny_game)
    line = _line_of(tiny_game / "game.yaml", "moskva")
    assert f"game.yaml:{line}: victory[capital].params.city: city 'moskva' does not exist " \
           "(have: town)" in msg
    _edit(tiny_game, "city: moskva", "city: town")
    assert _messages(tiny_game) == []

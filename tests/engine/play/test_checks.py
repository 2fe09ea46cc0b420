"""verify --data over the play forms: each mistake a designer makes in them is one
``file:line: key: message`` problem."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml
from data_edits import edit, problems
from warpress.engine.schema import game_file_schema
from warpress.starter.new import new_game


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    return new_game(str(tmp_path / "g")).folder


def one(folder: Path, text: str) -> str:
    found = [p for p in problems(folder) if text in p]
    assert found, problems(folder)
    return found[0]


def test_the_starting_game_has_no_play_problem(copy):
    assert problems(copy) == []


def test_a_result_code_with_no_effect(copy):
    edit(copy, "      DE: [{eliminate: defender}]\n", "", "play.yaml")
    found = one(copy, "result code 'DE' of crt has no effect")
    assert found.startswith(f"{copy}/play.yaml:") and "play.combat.results" in found


def test_an_effect_of_two_kinds(copy):
    edit(copy, "DE: [{eliminate: defender}]", "DE: [{eliminate: defender, lose: attacker}]",
         "play.yaml")
    one(copy, "an effect is one of lose, eliminate, retreat, exchange, got eliminate, lose")


def test_a_victory_hex_not_on_the_map(copy):
    edit(copy, "features: [northtown, southport]", "hexes: [\"2020\"]", "play.yaml")
    one(copy, "victory[cities].hexes: '2020' is not a hex of a map")


def test_a_supply_source_off_the_map(copy):
    edit(copy, "  advance: {units: 1", "  supply: {sources: {north: [{hexes: [\"9999\"]}]}}\n"
         "  advance: {units: 1", "play.yaml")
    one(copy, "play.supply.sources.north[0].hexes: '9999' is not a hex of a map")


def test_a_roll_phase_without_its_table(copy):
    edit(copy, "do: roll, table: weather", "do: roll, table: wether", "play.yaml")
    one(copy, "sequence[weather].table: no table 'wether'")


def test_an_acting_phase_needs_a_side(copy):
    edit(copy, "who: north, do: move", "who: both, do: move", "play.yaml")
    one(copy, "sequence[north-move].who: who 'both' must be a side")


def test_a_turn_track_that_does_not_exist(copy):
    edit(copy, "turns: {track: turn,", "turns: {track: turns,", "play.yaml")
    one(copy, "play.turns.track: no track 'turns'")


def test_a_condition_on_a_result_the_table_does_not_give(copy):
    edit(copy, "result: rain, movement", "result: snow, movement", "play.yaml")
    one(copy, "conditions[rain].result: 'snow' is no result of weather")


def test_a_selector_naming_no_unit_type(copy):
    edit(copy, "who: north, do: move, rule", "who: north, do: move, units: {types: [tank]}, rule",
         "play.yaml")
    one(copy, "sequence[north-move].units.types: 'tank' is no unit's type")


def test_reinforcements_without_a_phase_to_place_them(copy):
    (copy / "more.yaml").write_text(
        "reinforcements:\n  - {id: late, turn: 3, units: [n1], at: [{edge: north}], "
        "rule: \"4.1\"}\n", encoding="utf-8")
    one(copy, "no do: reinforcements phase of north places them")


def test_a_set_up_beyond_a_units_count(copy):
    (copy / "more.yaml").write_text(
        "reinforcements:\n  - {id: again, turn: 2, units: [n1], to: reserve, rule: \"4.1\"}\n",
        encoding="utf-8")
    one(copy, "more counters of 'n1' placed than its count")


def test_the_play_forms_are_in_the_json_schema(copy):
    schema = json.loads(json.dumps(game_file_schema()))
    validator = jsonschema.Draft202012Validator(schema)
    ridge = Path(__file__).resolve().parents[1] / "fixtures" / "games" / "ridge"
    for path in [*sorted(copy.glob("*.yaml")), *sorted(ridge.glob("*.yaml"))]:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        errors = sorted(validator.iter_errors(data), key=str)
        assert not errors, f"{path.name}: {errors[0].message} at {list(errors[0].path)}"
    bad = {"play": {"turns": {"count": 3}, "zoc": {"kind": "sticky"}}}
    assert list(validator.iter_errors(bad))

"""engine/formchecks.py: the data forms checked with file and line (CRT, terrain effects chart,
stacking), on tests/fixtures/games/corps copied into tmp_path and broken one way each."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from data_edits import edit as _edit
from data_edits import problems as _messages
from warpress.cli import main
from warpress.verify.data import check_folder


def test_the_designer_game_is_clean(corps_game):
    report = check_folder(str(corps_game))
    assert report.ok, report.problems
    result = CliRunner().invoke(main, ["verify", str(corps_game), "--data"])
    assert result.exit_code == 0, result.output


BREAKS = [
    # (file, old, new, where the problem is reported, words of the message)
    ("combat.yaml", "defence: defence", "defence: defense", "combat.yaml:7",
     "stat 'defense' is in no unit's stats"),
    ("combat.yaml", "6: [AR, AR, AR, EX, EX, DR]", "6: [AR, AR, AR, EX, EX, XX]",
     "combat.yaml:7", "result 'XX' is not a code"),
    ("combat.yaml", "6: [AR, AR, AR, EX, EX, DR]", "6: [AR, AR, AR, EX, EX]",
     "combat.yaml:7", "5 results for 6 columns"),
    ("combat.yaml", "        6: [AR, AR, AR, EX, EX, DR]\n", "",
     "combat.yaml:2", "gap: no row for roll=6"),
    ("combat.yaml", '"3-1", "4-1"', '"4-1", "3-1"', "combat.yaml:7",
     "columns must rise left to right"),
    ("combat.yaml", '"5-1", "6-1"', '"5-1", "six"', "combat.yaml:7", "is not odds like"),
    ("combat.yaml", "below: AR", "below: AE", "combat.yaml:7",
     "'AE' is neither clamp nor a result code"),
    ("combat.yaml", "method: odds", "method: ratio", "combat.yaml:7",
     "'ratio' is not allowed (allowed: odds, differential)"),
    ("combat.yaml", "    crt:\n", "    crt:\n      colums: [1]\n", "combat.yaml:7",
     "unknown key 'colums'"),
    ("combat.yaml", "{id: forest, name: Forest", "{id: forrest, name: Forest",
     "combat.yaml:30", "'forrest' is no terrain, hexside or feature kind of the map"),
    ("combat.yaml", "{id: forest, name: Forest", "{id: forrest, name: Forest",
     "map.yaml:10", "terrain 'forest' has no entry in the terrain effects chart"),
    ("combat.yaml", "  - {id: river, name: River, movement: 1, shift: -1, rule: \"6.4\",\n"
     "     note: \"the shift when every attacker attacks across it\"}\n", "",
     "map.yaml:14", "hexside kind 'river' has no entry"),
    ("combat.yaml", "{id: city, name: City, movement: 1, defence: 2,",
     "{id: city, name: City, movement: 1, defence: 2, attack: 2,", "combat.yaml:31",
     "attack multiplies a unit attacking across a hexside"),
    ("combat.yaml", "shift: -1, rule: \"6.2\"", "shift: -1, rule: \"6.2\", speed: 2",
     "combat.yaml:30", "unknown key 'speed'"),
    ("combat.yaml", "terrain: [forest], limit: 1", "terrain: [swamp], limit: 1",
     "combat.yaml:38", "terrain 'swamp' is on no map"),
    ("units.yaml", '{unit: s3, hex: "0805"}', '{unit: s3, hex: "0504"}', "units.yaml:28",
     "hex 0504 holds 3 units at set-up (s1, s2, s3): stacking limit 2 (stacking[per-hex], "
     "rule 5.1)"),
    ("units.yaml", '{unit: g2, hex: "0405"}', '{unit: g2, hex: "0303"}', "units.yaml:21",
     "hex 0303 holds 2 units at set-up (g2, g3): stacking limit 1 (stacking[forest], "
     "rule 5.2)"),
    ("units.yaml", '{unit: g3, hex: "0303"}', '{unit: g3, hex: "9999"}', "units.yaml:21",
     "hex '9999' does not exist"),
    ("units.yaml", '{unit: g3, hex: "0303"}', '{unit: g4, hex: "0202"}', "units.yaml:21",
     "unit 'g4' does not exist"),
    ("units.yaml", '{unit: g3, hex: "0303"}', '{unit: g3, hex: "0303", steps: 3}',
     "units.yaml:21", "steps 3: unit 'g3' has 2 steps"),
]


@pytest.mark.parametrize(("name", "old", "new", "where", "words"), BREAKS,
                         ids=[b[4][:40] for b in BREAKS])
def test_each_break_is_refused_with_file_and_line(corps_game, name, old, new, where, words):
    _edit(corps_game, old, new, name)
    messages = _messages(corps_game)
    hits = [m for m in messages if words in m]
    assert hits, messages
    assert any(f"{corps_game}/{where}:" in m for m in hits), hits
    result = CliRunner().invoke(main, ["verify", str(corps_game), "--data"])
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_stacking_in_steps_counts_each_units_steps(corps_game):
    _edit(corps_game, "{id: per-hex, limit: 2, of: units", "{id: per-hex, limit: 3, of: steps",
          "combat.yaml")
    messages = _messages(corps_game)
    assert any("hex 0504 holds 4 steps at set-up (s1, s2): stacking limit 3" in m
               for m in messages), messages


def test_a_default_entry_serves_terrain_without_one(corps_game):
    _edit(corps_game, "  - {id: clear, name: Clear, movement: 1, rule: \"6.1\"}",
          "  - {id: other, name: Other terrain, movement: 1, default: yes, rule: \"6.1\"}",
          "combat.yaml")
    assert _messages(corps_game) == []


def test_the_designer_files_follow_the_schema(corps_game):
    """`warpress schema` knows the forms: each file of the designer game validates."""
    import json

    import jsonschema
    import yaml

    schema = json.loads(CliRunner().invoke(main, ["schema"]).output)
    validator = jsonschema.Draft202012Validator(schema)
    for path in sorted(corps_game.glob("*.yaml")):
        data = json.loads(json.dumps(yaml.safe_load(path.read_text(encoding="utf-8"))))
        errors = [e.message for e in validator.iter_errors(data)]
        assert not errors, (path.name, errors)
    broken = {"terrain": [{"id": "forest", "speed": 2}]}
    assert list(validator.iter_errors(broken))


def test_the_generic_odds_invariants_draw_the_crt(corps_game):
    """verify's probability invariants reach the CRT (its odds input has examples): a grid
    whose die lines do not cover the die would fail them, here they pass."""
    from warpress.engine.loader import load_game
    from warpress.verify.generic import odds_tables

    names = [t.name for t in odds_tables(load_game(corps_game))]
    assert "crt" in names
    result = CliRunner().invoke(main, ["verify", str(corps_game)])
    assert result.exit_code == 0, result.output
    assert "(0 examples)" not in result.output

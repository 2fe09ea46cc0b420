"""The scenario example of docs/data-format.md is a valid scenario file."""

from __future__ import annotations

from pathlib import Path

from warpress.games.nightfighter.rules.scenario import load_scenario

DOC = Path(__file__).resolve().parents[4] / "docs" / "data-format.md"


def test_nf_referee_the_documented_scenario_loads(game, tmp_path):
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("### Referee scenarios"):]
    example = section.split("```yaml\n", 1)[1].split("```", 1)[0]
    path = tmp_path / "documented.yaml"
    path.write_text(example, encoding="utf-8")
    scenario = load_scenario(game, str(path))
    assert scenario.turns == 26 and scenario.zones == ("A", "B", "D", "F")
    assert scenario.counter_ids() == ("freya", "wurzburg#1", "wurzburg#2")
    assert [level.name for level in scenario.victory] == ["normal", "decisive"]

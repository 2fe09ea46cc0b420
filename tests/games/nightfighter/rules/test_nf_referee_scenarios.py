"""Scenario files of the automatic referee: the shipped ones load, bad ones are reported as
``file:line: key: message`` (3.2 record; the scenario book is not in the text)."""

from __future__ import annotations

import re

import pytest
from warpress.engine.errors import BadInput
from warpress.games.nightfighter.rules.scenario import SHIPPED, load_scenario, shipped_path

GOOD = shipped_path("kammhuber-line").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", SHIPPED)
def test_nf_referee_shipped_scenario_loads_and_is_marked_assumed(game, name):
    sc = load_scenario(game, name)
    record = sc.data["scenario"]
    assert record["source"] == "assumed" and "scenario book is not in the text" in record["note"]
    assert sc.victory and sc.victory[0].name == "normal"
    assert sc.arrival and all(1 <= n <= 3 for _t, n in sc.arrival)
    assert sum(f.count for f in sc.attackers) >= sum(n for _t, n in sc.arrival) - 2


def test_nf_referee_the_three_kinds_of_night(game):
    cats, lights, boar = (load_scenario(game, n) for n in SHIPPED)
    assert not any(game.get("units", f.unit).stats.get("ai_radar") for f in cats.defenders)
    assert not cats.radars and not cats.zones
    assert lights.radars and lights.zones and lights.radar_guided and lights.flak
    assert any(game.get("units", f.unit).type == "intruder" for f in boar.attackers)
    assert boar.tail_warning_radar and all(game.get("units", f.unit).stats.get("ai_radar")
                                           for f in boar.defenders)


def write(tmp_path, text):
    path = tmp_path / "mine.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def problems(game, path):
    with pytest.raises(BadInput) as err:
        load_scenario(game, path)
    lines = str(err.value).splitlines()
    assert all(re.match(r"^.+mine\.yaml:\d+: scenario[\w.\[\]]*: .+", ln) for ln in lines), lines
    return lines


@pytest.mark.parametrize("old, new, key, needle", [
    ("unit: wellington", "unit: wellingtom", "attacking_force[0].unit", "'wellingtom'"),
    ('"0612"', '"0630"', "defending_force[0].deploy[0]", "'0630'"),
    ("zones: [A, B, D, F]", "zones: [A, Q]", "searchlights.zones[1]", "'Q'"),
    ("radar: freya", "radar: radar-x", "search_radars[0].radar", "'radar-x'"),
    ("difficulty: normal", "difficulty: easy", "difficulty", "'easy'"),
    ("experten: [\"201\"]", "experten: [\"299\"]", "switches.experten[0]", "'299'"),
    ("{turn: 1, entrants: 3}", "{turn: 1, entrants: 4}", "arrival[0].entrants", "8.1.3"),
    ("moon: random", "moon: blue", "environment.moon", "'blue'"),
    ("count: 3, deploy", "count: 3, counters: [\"201\", \"209\", \"203\"], deploy",
     "defending_force[0].counters", "'209' is no bf110g-4 counter"),
    ("count: 3, deploy", "count: 3, counters: [\"201\", \"201\", \"203\"], deploy",
     "defending_force[0].counters", "3 different counter ids"),
    ("unit: wellington", "unit: g4m", "attacking_force[0].unit", "naval operations (26)"),
])
def test_nf_referee_scenario_problem_reported_with_line(game, tmp_path, old, new, key,
                                                         needle):
    assert old in GOOD
    text = GOOD.replace(old, new, 1)
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if new in ln)
    lines = problems(game, write(tmp_path, text))
    hit = [ln for ln in lines if f": scenario.{key}: " in ln]
    assert hit and needle in hit[0] and f"mine.yaml:{line}:" in hit[0]


def test_nf_referee_every_problem_at_once(game, tmp_path):
    text = GOOD.replace("unit: wellington", "unit: x1").replace("moon: random", "moon: x2")
    lines = problems(game, write(tmp_path, text))
    assert len(lines) == 2


def test_nf_referee_scenario_is_safe_loaded(game, tmp_path):
    text = GOOD.replace("title: ", "title: !!python/object/apply:os.system ['true'] #", 1)
    with pytest.raises(BadInput, match="mine.yaml"):
        load_scenario(game, write(tmp_path, text))


def test_nf_referee_unsourced_scenario_refused(game, tmp_path):
    text = GOOD.replace("  source: assumed\n", "")
    lines = problems(game, write(tmp_path, text))
    assert any("scenario.rule" in ln and "assumed" in ln for ln in lines)


def test_nf_referee_a_flight_names_its_counters(game, tmp_path):
    text = GOOD.replace("count: 3, deploy", 'count: 3, counters: ["204", "202", "201"], deploy')
    sc = load_scenario(game, write(tmp_path, text))
    assert sc.fighter_ids == ("204", "202", "201")

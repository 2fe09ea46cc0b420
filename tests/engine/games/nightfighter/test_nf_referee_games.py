"""Full scripted games of the shipped scenarios through the Referee API (issue 6).

An *autopilot* (``nf_helpers.play``) flies the fighters as a player would, using only the
player view: toward its own sighting or AI-contact marker, ending in the marker's hex with the
marker's facing when it can (so that it can attack, 11.0); else toward the middle of the
stream. It sights every turn and attacks whenever it may. The assertions are rules-derived
facts, not snapshots.
"""

from __future__ import annotations

import json

import pytest
from nf_helpers import play
from warpress.engine.dice import SeededDice
from warpress.engine.errors import RuleViolation
from warpress.engine.games.nightfighter.scenario import SHIPPED


def check_markers(game, ref, state):
    """I38 and I2: the player map shows exactly one marker per fighter's sighting or AI contact
    and per searchlight capture of an attacker on the map, at its true hex and facing (7.0,
    10.1, 14.2); column-flying bombers face down their column."""
    truth = ref.referee_view(game, state)
    on_map = {b["id"]: b for b in truth["bombers"] if b["status"] == "on-map"}
    view = ref.player_view(game, state)
    for m in view["markers"]:
        assert (m["hex"], m["facing"]) in {(b["hex"], b["facing"]) for b in on_map.values()}
    assert all(b["facing"] == 3 for b in truth["bombers"] if b["kind"] == "bomber")
    expected = [(kind, on_map[target]["hex"], on_map[target]["facing"], s["fighter"], None)
                for s in truth["sightings"]
                for kind, target in (("sighting", s["bomber"]), ("ai-contact", s["ai_contact"]))
                if target in on_map]
    expected += [("captured", on_map[c["bomber"]]["hex"], on_map[c["bomber"]]["facing"], None,
                  c["zone"]) for c in truth["captures"] if c["bomber"] in on_map]
    shown = [(m["kind"], m["hex"], m["facing"], m["fighter"], m["zone"]) for m in view["markers"]]
    assert sorted(shown, key=repr) == sorted(expected, key=repr)


@pytest.fixture(scope="module", params=SHIPPED)
def finished(request, game, ref):
    return (request.param, *play(game, ref, request.param, seed=11, check=check_markers))


def test_nf_referee_scenarios_listed_default_first(game, ref):
    infos = ref.scenarios(game)
    assert [i.name for i in infos] == list(SHIPPED)
    assert infos[0].name == "cats-eye"
    assert all(i.title and i.path.endswith(".yaml") for i in infos)


def test_nf_referee_game_ends_by_41(game, ref, finished):
    name, state, said, views = finished
    sc = ref.load_scenario(game, name)
    summary = ref.summary(game, state)
    assert summary is not None
    night = state.night
    counts = (summary["shot_down"], summary["exited"])
    top = sc.victory[-1]
    ends = {   # the end conditions of 4.1 (and 3.2's game length)
        "turns": sc.turns is not None and night.turn > sc.turns,
        "bombers gone": sc.bombers_gone is not None and sum(counts) >= sc.bombers_gone,
        "attackers gone": all(b.status in ("exited", "destroyed") for b in night.bombers),
        "fighters gone": all(f.status in ("destroyed", "off-map") for f in night.fighters),
        "top level met": top.exited_at_most is None and counts[0] >= top.shot_down_at_least,
    }
    assert any(ends.values()), ends
    # the summary gives one reason per end condition met, then one line per victory level
    assert len(summary["reasons"]) == sum(ends.values()) + len(sc.victory)
    assert night.turn <= sc.turns + 1
    assert said[-1].text.startswith("Game over") and "4.1" in said[-1].rules


def test_nf_referee_summary_matches_victory_levels(game, ref, finished):
    name, state, said, _views = finished
    sc = ref.load_scenario(game, name)
    summary = ref.summary(game, state)
    bombers = [b for b in state.night.bombers if b.kind == "bomber"]
    shot = sum(b.status == "destroyed" for b in bombers)
    exited = sum(b.status == "exited" for b in bombers)
    assert (summary["shot_down"], summary["exited"]) == (shot, exited)
    met = [lv.name for lv in sc.victory
           if (lv.shot_down_at_least is None or shot >= lv.shot_down_at_least)
           and (lv.exited_at_most is None or exited <= lv.exited_at_most)]
    expected = {"normal": "victory", "decisive": "decisive victory"}.get(
        met[-1] if met else "", "defeat")
    assert summary["result"] == expected
    assert all(r["rules"] for r in summary["reasons"])
    destroyed_told = sum("the bomber is destroyed" in a.text or "the intruder is destroyed"
                         in a.text for a in said)
    attackers_destroyed = sum(b.status == "destroyed" for b in state.night.bombers)
    assert destroyed_told == attackers_destroyed
    assert attackers_destroyed == summary["shot_down"] + summary["intruders_shot_down"]


def test_nf_referee_after_the_end_commands_are_refused(game, ref, finished):
    _name, state, _said, _views = finished
    for command in ref.commands:
        with pytest.raises(RuleViolation) as err:
            ref.apply(game, state, command, {}, SeededDice(1))
        assert err.value.rule == "4.1"
    view = ref.player_view(game, state)
    assert view["over"] and view["awaiting"] == [] and "exited" in view["score"]


def test_nf_referee_views_never_name_a_bomber(game, ref, finished):
    _name, state, _said, views = finished
    ids = {b.id for b in state.night.bombers}
    for view in views:
        text = json.dumps(view)
        assert not any(f'"{i}"' in text for i in ids)
        assert "exited" not in view["score"]
        assert "bombers" not in view


def test_nf_referee_every_announcement_carries_rules(finished):
    _name, _state, said, _views = finished
    assert said and all(a.rules and a.text for a in said)

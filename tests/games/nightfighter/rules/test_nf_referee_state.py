"""dump/load of referee sessions: a JSON round trip over command sequences; bad data refused."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nf_helpers import next_command, start_state
from warpress.engine.dice import SeededDice
from warpress.engine.errors import BadInput, RuleViolation
from warpress.games.nightfighter.rules.scenario import SHIPPED

RANDOM_COMMANDS = [("end-turn", {}), ("sight", {}), ("attack", {"fighter": "201"}),
                   ("move", {"fighter": "205", "path": "F,F"}), ("evade", {"fighter": "206"}),
                   ("descend", {"fighter": "211"}), ("search", {"counter": "freya", "hex": "0910"})]


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(scenario=st.sampled_from(SHIPPED), seed=st.integers(0, 10_000),
       noise=st.lists(st.tuples(st.booleans(), st.integers(0, len(RANDOM_COMMANDS) - 1)),
                      min_size=1, max_size=40))
def test_nf_referee_dump_load_round_trip(game, ref, scenario, seed, noise):
    """Every state on the way (autopilot commands, some random ones) survives
    dump -> JSON text -> load unchanged, and the loaded state plays on identically."""
    state = start_state(game, ref, scenario, seed)
    for i, (random_one, pick) in enumerate(noise):
        text = json.dumps(ref.dump(state))
        back = ref.load(game, json.loads(text))
        assert back == state
        assert json.dumps(ref.dump(back)) == text
        if state.over:
            break
        view = ref.player_view(game, state)
        command, args = RANDOM_COMMANDS[pick] if random_one else next_command(game, view)
        try:
            step = ref.apply(game, state, command, args, SeededDice(seed + i))
        except (RuleViolation, BadInput):
            continue
        again = ref.apply(game, back, command, args, SeededDice(seed + i))
        assert again.state == step.state and again.announcements == step.announcements
        state = step.state


def piece(data, piece_id):
    return next(p for p in data["pieces"] if p["id"] == piece_id)


def bomber(data):
    return next(p for p in data["pieces"] if p["side"] == "attacker")


@pytest.mark.parametrize("edit, needle", [
    (lambda d: d["data"].pop("night"), "'night'"),
    (lambda d: d.__setitem__("turn", "three"), "turn"),
    (lambda d: d["data"]["night"]["env"].__setitem__("moon", 3), "data.night.env.moon"),
    (lambda d: d["data"]["night"].__setitem__("turn", 2), "'turn'"),
    (lambda d: piece(d, "201").__setitem__("step", True), "step"),
    (lambda d: piece(d, "201")["props"].__setitem__("dives_left", "two"),
     "pieces[201].props.dives_left"),
    (lambda d: bomber(d)["props"].__setitem__("wings", 2), "'wings'"),
    (lambda d: bomber(d)["props"].__setitem__("hits", "two"), ".props.hits"),
    (lambda d: bomber(d).__setitem__("step", 3), ".step: 3 is not 1"),
    (lambda d: bomber(d).__setitem__("flags", ["sighted"]), "'sighted'"),
    (lambda d: bomber(d).__setitem__("side", "umpire"), "'umpire'"),
    (lambda d: bomber(d).__setitem__("kind", "box"), "'pool'"),
    (lambda d: d.__setitem__("phase", "lunch"), "'lunch'"),
    (lambda d: bomber(d).update(kind="hex", place="0999"), "'0999'"),
    (lambda d: d["data"].__setitem__("announcements", "none"), "announcements"),
    (lambda d: d["data"]["announcements"][0].__setitem__("turn", "1"),
     "data.announcements[0].turn"),
    (lambda d: d["data"]["scenario"]["scenario"].__setitem__("difficulty", "easy"),
     "difficulty"),
    (lambda d: d["data"].__setitem__("umpire", {}), "'umpire'"),
    (lambda d: d["data"].__setitem__("placed", ["wurzburg#9"]), "'wurzburg#9'"),
    (lambda d: d.__setitem__("side", "attacker"), "side"),
    (lambda d: d.__setitem__("verdict", {"winner": "attacker", "result": "defeat",
                                         "reason": "", "rule": ["4.1"]}), "verdict"),
    (lambda d: d["pieces"].pop(0), "the night fighters"),
    (lambda d: d.__setitem__("game", "midway"), "'midway'"),
])
def test_nf_referee_load_rejects_bad_data(game, ref, edit, needle):
    state = start_state(game, ref, "kammhuber-line", 2)
    data = json.loads(json.dumps(ref.dump(state)))
    edit(data)
    with pytest.raises(BadInput) as err:
        ref.load(game, data)
    assert needle in str(err.value)

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


@pytest.mark.parametrize("edit, needle", [
    (lambda d: d.pop("night"), "'night'"),
    (lambda d: d["night"].__setitem__("turn", "three"), "night.turn"),
    (lambda d: d["night"]["fighters"][0].__setitem__("hits", True), "night.fighters[0].hits"),
    (lambda d: d["night"]["bombers"][0].__setitem__("wings", 2), "'wings'"),
    (lambda d: d.__setitem__("phase", "lunch"), "'lunch'"),
    (lambda d: d["night"]["bombers"][0].__setitem__("hex", "0999"), "'0999'"),
    (lambda d: d.__setitem__("announcements", "none"), "announcements"),
    (lambda d: d["scenario"]["scenario"].__setitem__("difficulty", "easy"), "difficulty"),
])
def test_nf_referee_load_rejects_bad_data(game, ref, edit, needle):
    state = start_state(game, ref, "kammhuber-line", 2)
    data = json.loads(json.dumps(ref.dump(state)))
    edit(data)
    with pytest.raises(BadInput) as err:
        ref.load(game, data)
    assert needle in str(err.value)

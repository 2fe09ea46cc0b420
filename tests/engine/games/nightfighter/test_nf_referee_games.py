"""Full scripted games of the shipped scenarios through the Referee API (issue 6).

An *autopilot* flies the fighters as a player would, using only the player view: toward its
own sighting or AI-contact marker, ending in the marker's hex with the marker's facing when it
can (so that it can attack, 11.0); else toward the middle of the stream. It sights every turn
and attacks whenever it may. The assertions are rules-derived facts, not snapshots.
"""

from __future__ import annotations

import json
from collections import deque

import pytest
from warpress.engine.dice import SeededDice
from warpress.engine.errors import RuleViolation
from warpress.engine.games.nightfighter.common import grid
from warpress.engine.games.nightfighter.scenario import SHIPPED
from warpress.engine.referee import referee_for

PATROL = "0913"


def plans(game, hex_id, facing, low, high, exact=False, straight=False):
    """Every legal move plan of ``low..high`` MP (exactly ``high`` when diving), by end state:
    {(hex, facing): plan} (9.1, 9.2; plans that leave the map are not listed)."""
    g = grid(game)
    found = {}
    queue = deque([(hex_id, facing, 0, False, "")])
    seen = set()
    while queue:
        here, face, spent, can_turn, plan = queue.popleft()
        if (here, face, spent, can_turn) in seen:
            continue
        seen.add((here, face, spent, can_turn))
        if (spent == high if exact else low <= spent <= high) and (here, face) not in found:
            found[(here, face)] = plan
        if spent < high:
            nxt = g.neighbour_in_direction(here, face)
            if nxt is not None:
                queue.append((nxt, face, spent + 1, True, plan + "F"))
        if can_turn and not straight:
            queue.append((here, (face + 1) % 6, spent, False, plan + "R"))
            queue.append((here, (face - 1) % 6, spent, False, plan + "L"))
    return found


def pick_move(game, view, fighter):
    """The autopilot's plan for one fighter: onto its marker with its facing, else nearest."""
    g = grid(game)
    mine = [m for m in view["markers"] if m["fighter"] == fighter["id"]]
    lit = [m for m in view["markers"] if m["kind"] == "captured"]
    target = (mine or lit or [None])[0]
    goal = target["hex"] if target else PATROL
    goal_facing = target["facing"] if target else 0
    dive = fighter["dives_left"] > 0
    high = fighter["mp_max"] + (1 if dive else 0)
    low = 5 if fighter["unit"].startswith("me262") else 2
    options = plans(game, fighter["hex"], fighter["facing"], low, high, exact=dive,
                    straight=fighter["dazzled"])
    if not options:  # flying straight off the edge (9.2.1: it leaves the game)
        here, steps = fighter["hex"], 0
        while here is not None and steps < high:
            here = g.neighbour_in_direction(here, fighter["facing"])
            steps += 1
        return "F" * steps, dive
    (end, face), plan = min(options.items(), key=lambda kv: (
        g.distance(kv[0][0], goal), kv[0][1] != goal_facing, kv[1]))
    return plan, dive


def check_markers(game, ref, state):
    """I38 and I2: every player-map marker sits at a known attacker's true hex and facing;
    column-flying bombers face down their column."""
    truth = ref.referee_view(game, state)
    on_map = {(b["hex"], b["facing"]) for b in truth["bombers"] if b["status"] == "on-map"}
    view = ref.player_view(game, state)
    for m in view["markers"]:
        assert (m["hex"], m["facing"]) in on_map
    assert all(b["facing"] == 3 for b in truth["bombers"] if b["kind"] == "bomber")
    known = {s["bomber"] for s in truth["sightings"]} | {s["ai_contact"] for s in
                                                          truth["sightings"]}
    known |= {c["bomber"] for c in truth["captures"]}
    assert len(view["markers"]) >= len(known - {None}) > -1


def play(game, ref, name, seed, limit=3000, check=None):
    """Play a scenario to the end; returns (final state, every announcement, views seen)."""
    step = ref.new(game, ref.load_scenario(game, name), SeededDice(seed))
    state, said, views = step.state, list(step.announcements), []
    n = 0
    while not state.over:
        n += 1
        assert n < limit, "the game did not end"
        view = ref.player_view(game, state)
        views.append(view)
        if check is not None:
            check(game, ref, state)
        command, args = next_command(game, view)
        step = ref.apply(game, state, command, args, SeededDice(seed * 7919 + n))
        state = step.state
        said.extend(step.announcements)
    return state, said, views


def next_command(game, view):
    aw = view["awaiting"]
    if view["phase"] == "fighter-movement" and "move" in aw:
        for f in view["fighters"]:
            if f["status"] == "on-map" and f["can_move"]:
                plan, dive = pick_move(game, view, f)
                if dive and "descend" in aw and "descend" not in f["declared"]:
                    return "descend", {"fighter": f["id"]}
                return "move", {"fighter": f["id"], "path": ",".join(plan),
                                "leave_map": True}
            if f["status"] == "beacon-box" and f["can_move"] and view["turn"] % 3 == 0:
                return "move", {"fighter": f["id"], "hex": "1824", "facing": 5, "path": "F"}
    if "search" in aw and len(view["counters"]) < len(view["search_counters"]):
        counter = view["search_counters"][len(view["counters"])]
        spots = [f["hex"] for f in view["fighters"] if f["hex"]] or [PATROL]
        return "search", {"counter": counter, "hex": spots[len(view["counters"]) % len(spots)]}
    if "sight" in aw:
        return "sight", {}
    if "attack" in aw:
        for f in view["fighters"]:
            mark = [m for m in view["markers"] if m["fighter"] == f["id"]
                    and m["kind"] == "sighting"]
            if (f["status"] == "on-map" and not f["attacked"] and mark
                    and mark[0]["hex"] == f["hex"] and mark[0]["facing"] == f["facing"]):
                return "attack", {"fighter": f["id"]}
    return "end-turn", {}


@pytest.fixture(scope="module")
def ref(game):
    return referee_for(game)


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
    assert summary is not None and state.over
    night = state.night
    gone = all(b.status in ("exited", "destroyed") for b in night.bombers)
    fighters_gone = all(f.status in ("destroyed", "off-map") for f in night.fighters)
    assert gone or fighters_gone or night.turn > sc.turns or summary["level"] is not None
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
    destroyed_told = sum("destroyed" in a.text for a in said if a.phase == "combat")
    attackers_destroyed = sum(b.status == "destroyed" for b in state.night.bombers)
    assert destroyed_told <= attackers_destroyed


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

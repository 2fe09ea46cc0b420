"""Helpers of the Nightfighter engine tests: builders of small nights, and the referee's
*autopilot* (a player flying the fighters from the player view only; see
``test_nf_referee_games``) with ``start_state`` for a new session's state."""

from __future__ import annotations

from collections import deque
from dataclasses import replace

from warpress.engine.dice import SeededDice
from warpress.games.nightfighter.rules.common import grid
from warpress.games.nightfighter.rules.position import as_position, night_session
from warpress.games.nightfighter.rules.state import Bomber, Environment, Fighter, Night

#: Where the autopilot flies when no marker shows a target: the middle of the stream.
PATROL = "0913"


def bomber(bomber_id: str = "102", hex_id: str = "0712", **kw) -> Bomber:
    """A Lancaster-like bomber on the map facing S (down its column)."""
    base = dict(unit="lancaster", hex=hex_id, facing=3, mp="2*", fp=2, damage=4,
                status="on-map")
    base.update(kw)
    return Bomber(bomber_id, **base)


def fighter(fighter_id: str = "204", hex_id: str = "0713", **kw) -> Fighter:
    """A Bf110G-4 night fighter on the map."""
    base = dict(unit="bf110g-4", hex=hex_id, facing=3, mp="3", fp=3, damage=2)
    base.update(kw)
    return Fighter(fighter_id, **base)


def night(bombers=(), fighters=(), **kw) -> Night:
    """A night with Average visibility and a New moon unless told."""
    kw.setdefault("env", Environment(moon="new", visibility="average", range=0, lit_range=3))
    return Night(bombers=tuple(bombers), fighters=tuple(fighters), **kw)


# --- the referee: a new session and the autopilot ----------------------------------------


def start_state(game, ref, name, seed):
    """The state of a new referee session of scenario ``name`` set up with dice ``seed``."""
    return ref.new(game, ref.load_scenario(game, name), SeededDice(seed)).state


def night_of(game, state):
    """The umpire's ``Night`` a referee position holds."""
    return night_session(game, state).night


def edited(game, state, **changes):
    """The position with fields of its session replaced (``night=``, ``phase=``, ``moved=``
    ...): a test's set-up."""
    return as_position(replace(night_session(game, state), **changes))


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


def next_command(game, view):
    """The autopilot's next command (name, args) from the player view alone."""
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


def play(game, ref, name, seed, limit=3000, check=None):
    """Play a scenario to the end; returns (final state, every announcement, views seen).
    ``check(game, ref, state)`` runs on every state the autopilot sees."""
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

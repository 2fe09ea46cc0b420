"""What the player of a refereed night may do: the actions the referee accepts (as the
command line offers them), which of them the current phase allows [4.0], and the decision
due with its legal answers.

The answers are listed from what the player may know (his fighters, his counters, the
markers the rules show him), so an agent choosing among them learns nothing the rules hide:

- Fighter Movement [9.0, 18.0, 23.0, 27.3.1]: for each fighter still to move, every distinct
  outcome of its move plans within its MP (hex, facing, MP spent, whether it turned; the
  shortest plan to each) and the shortest plan that flies off the map (``--leave-map``); a
  fighter in the radio beacon box that may leave it: every outcome from each hex beside the
  box and facing; a declared evasion or dive for a fighter that may make it;
- Radar Search [13.1]: each search counter not placed this phase, on every hex of the map;
- Sighting [10.1]: the sighting roll;
- Combat [11.0, 20.0, 17.4.3]: each fighter that may attack its sighted bomber, with and
  without following a corkscrew, with oblique guns where it has them;
- the end of the turn, once no fighter must still move.

From an earlier phase the later phases' answers are offered too where the phases between
cannot make them illegal (a search, the sighting roll, the end of the turn; an attack only in
Combat, where its target is known).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any

from warpress.engine.decisions import Action, ActionSpec, Arg, Decision, Opt, Option, command_line
from warpress.engine.errors import RuleViolation
from warpress.engine.model import Game

from . import combat, movement
from .common import FACINGS, const, facing_text
from .position import DEFENDER, NightSession
from .scenario import Scenario, phase_ids
from .state import Fighter, Night

#: What each argument of the commands is (help, and the message that says it is missing).
WANTED = {
    "fighter": "a night fighter's id, as status lists them",
    "path": "the steps F (forward 1 MP), L and R (turn 60 degrees), e.g. F,F,L,F",
    "hex": "a hex of the map, four digits such as 0710",
    "facing": "N, NE, SE, S, SW, NW or 0-5",
    "counter": "a search counter of the scenario, as status lists them",
}

#: The player's commands [4.0], as the command line offers them, in the order ``awaiting``
#: lists them.
ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec("move", "Move FIGHTER along PATH (e.g. F,F,L,F).",
               (Arg("fighter", WANTED["fighter"]), Arg("path", WANTED["path"])), (
        Opt("--leave-map", "leave_map", "Let the plan fly off the map: a fighter that leaves "
            "never returns (9.2.1); without it such a plan is refused.", flag=True),
        Opt("--enter", "hex", "Leaving the radio beacon box: the map hex it enters (23.0)."),
        Opt("--facing", "facing", "Leaving the radio beacon box: its facing, N|NE|SE|S|SW|NW "
            "or 0-5 (23.0)."),
    ), short_help="Move FIGHTER along PATH, e.g. F,F,L,F."),
    ActionSpec("evade", "Declare evasion for FIGHTER after a tail warning (27.3.1, +1 MP).",
               (Arg("fighter", WANTED["fighter"]),),
               short_help="Declare evasion for FIGHTER (27.3.1)."),
    ActionSpec("descend", "Dive FIGHTER with altitude advantage (18.0, +1 MP).",
               (Arg("fighter", WANTED["fighter"]),),
               short_help="Dive FIGHTER with altitude advantage (18.0)."),
    ActionSpec("search", "Place radar search COUNTER on HEX (13.1).",
               (Arg("counter", WANTED["counter"]), Arg("hex", WANTED["hex"]))),
    ActionSpec("sight", "Roll for sightings (10.1, 15.1)."),
    ActionSpec("attack", "Attack the sighted bomber in FIGHTER's hex (11.0).",
               (Arg("fighter", WANTED["fighter"]),), (
        Opt("--oblique", "oblique", "Fire the oblique guns (20.0).", flag=True),
        Opt("--no-follow", "follow", "Do not follow a corkscrew (17.4.3).", flag=True,
            value="none"),
    )),
    ActionSpec("end-turn", "End the turn; the referee's phases run to the next decision."),
)
SPECS = {spec.name: spec for spec in ACTIONS}

#: The phase each command belongs to [4.0].
COMMAND_PHASE = {"move": "fighter-movement", "evade": "fighter-movement",
                 "descend": "fighter-movement", "search": "radar-search", "sight": "sighting",
                 "attack": "combat", "end-turn": "end-of-turn"}
PHASE_COMMANDS = {phase: tuple(name for name, p in COMMAND_PHASE.items() if p == phase)
                  for phase in COMMAND_PHASE.values()}

#: What the player is asked in each phase he acts in.
PROMPTS = {
    "fighter-movement": "move every night fighter that must move (9.0); declare an evasion "
                        "or a dive before it moves",
    "radar-search": "place your search counters (13.1)",
    "sighting": "roll for sightings (10.1)",
    "combat": "attack a sighted bomber in a fighter's hex with its facing (11.0)",
    "end-of-turn": "end the turn",
}

FIGHTER_STATUS = {"destroyed": "shot-down"}


# --- what the phase allows -----------------------------------------------------------------


def fighter_status(f: Fighter) -> str:
    return FIGHTER_STATUS.get(f.status, f.status)


def may_move(s: NightSession, f: Fighter) -> bool:
    """A fighter that must move this phase [9.0]: on the map, not evaded last turn [17.3.1]."""
    night = s.night
    return (f.on_map and f.id not in s.moved
            and not (f.evaded_turn and f.evaded_turn == night.turn - 1))


def may_leave_box(game: Game, s: NightSession, f: Fighter) -> bool:
    """A fighter in the radio beacon box that may leave it now [23.0]."""
    left_now = sum(1 for m in s.moved if s.night.fighter(m).status != "beacon-box"
                   and m in boxed_at_start(s))
    return (f.status == "beacon-box" and f.id not in s.moved
            and movement.may_leave_beacon_box(game, s.night.turn, s.night.beacon_departure,
                                              left_now))


def boxed_at_start(s: NightSession) -> frozenset[str]:
    """The fighters in the radio beacon box when the phase began."""
    return frozenset(f for f, what in s.declared if what == "boxed")


def declared(s: NightSession, fighter_id: str) -> tuple[str, ...]:
    """What a fighter declared this phase: evade, descend (in that order) [27.3.1, 18.0]."""
    return tuple(what for what in ("evade", "descend") if (fighter_id, what) in s.declared)


def has_oblique(game: Game, f: Fighter) -> bool:
    """Whether the fighter's type has oblique guns [20.0]."""
    return bool(f.unit) and game.get("units", f.unit).stats.get("oblique_fp") is not None


def can_attack(game: Game, sc: Scenario, night: Night, f: Fighter) -> bool:
    """Whether the fighter may attack its sighted bomber now [11.0]."""
    if not f.on_map or f.sighting is None or f.attacked:
        return False
    try:
        combat.check_attack(game, night, f, night.bomber(f.sighting),
                            deconfliction=sc.deconfliction, dived=f.dived)
    except RuleViolation:
        return False
    return True


def active(sc: Scenario, phase: str) -> bool:
    """Whether a phase runs in this scenario [3.2: phases omitted]."""
    if phase in sc.phases_omitted:
        return False
    if phase == "radar-search":
        return bool(sc.radars)
    if phase == "searchlight":
        return bool(sc.zones)
    return True


def awaiting(game: Game, sc: Scenario, s: NightSession) -> list[str]:
    """Commands legal now: the current phase's, and later phases' unless leaving is refused."""
    if s.over:
        return []
    phases = phase_ids(game)
    here = phases.index(s.phase)
    out = list(PHASE_COMMANDS.get(s.phase, ()))
    if s.phase == "fighter-movement":
        if not any(f.id in s.warned and f.id not in s.moved for f in s.night.fighters):
            out.remove("evade")
        if not any(f.dives_left and f.id not in s.moved for f in s.night.fighters):
            out.remove("descend")
        if any(may_move(s, f) for f in s.night.fighters):
            return out
    for phase in phases[here + 1:]:
        if phase in PHASE_COMMANDS and (active(sc, phase) or phase == "end-of-turn"):
            out.extend(PHASE_COMMANDS[phase])
    return out


# --- the decision due ----------------------------------------------------------------------


def decision(game: Game, sc: Scenario, s: NightSession) -> Decision | None:
    """The player's decision now and its legal answers (None once the night is over)."""
    if s.over:
        return None
    phase = next(p for p in game.sequence if p.id == s.phase)
    options: list[Option] = []
    for command in awaiting(game, sc, s):
        options += OFFERS[command](game, sc, s)
    prompt = f"turn {s.night.turn}, {phase.name or phase.id}: {PROMPTS.get(s.phase, '')}"
    return Decision(DEFENDER, s.phase, prompt, tuple(phase.rule or ()), tuple(options))


def act(name: str, note: str = "", **args: Any) -> Action:
    """An answer, labelled as it is typed after ``warpress play``."""
    action = Action.of(name, note=note, **args)
    return replace(action, label=command_line(action, SPECS[name]))


def _moves(game: Game, sc: Scenario, s: NightSession) -> list[Option]:
    out = []
    for f in s.night.fighters:
        if may_move(s, f):
            out.append(Option(f"move {f.id}", partial(_plans, game, s, f)))
        elif may_leave_box(game, s, f):
            out.append(Option(f"move {f.id} out of the radio beacon box",
                              partial(_departures, game, s, f)))
    return out


def _plans(game: Game, s: NightSession, f: Fighter) -> tuple[Action, ...]:
    turn = s.night.turn
    dive, evade = "descend" in declared(s, f.id), "evade" in declared(s, f.id)
    ends = movement.fighter_plans(
        game, f.hex, f.facing,
        max_mp=movement.fighter_max_mp(game, f.mp, turn, dive=dive, evade=evade),
        min_mp=movement.fighter_min_mp(game, f.unit or None), dive=dive,
        dazzled=f.dazzled(turn), evading=evade)
    return tuple(_move(f, plan, end) for end, plan in ends.items())


def _departures(game: Game, s: NightSession, f: Fighter) -> tuple[Action, ...]:
    """Leaving the radio beacon box [23.0]: 1 MP into a hex beside it with any facing, then
    the rest of the move; each outcome once."""
    cost = const(game, "radio-beacon-exit-mp-cost")
    top = movement.fighter_max_mp(game, f.mp, s.night.turn) - cost
    low = max(0, movement.fighter_min_mp(game, f.unit or None) - cost)
    seen: set[movement.PlanEnd] = set()
    out = []
    for hex_id in game.hex_map().feature("radio-beacon-box").hexes:
        for facing in range(len(FACINGS)):
            ends = movement.fighter_plans(game, hex_id, facing, max_mp=top, min_mp=low)
            for end, plan in ends.items():
                if plan and end not in seen:
                    seen.add(end)
                    out.append(_move(f, plan, end, hex=hex_id, facing=FACINGS[facing]))
    return tuple(out)


def _move(f: Fighter, plan: str, end: movement.PlanEnd, **entry: Any) -> Action:
    if end is None:
        return act("move", "leaves the map (9.2.1)", fighter=f.id, path=plan, leave_map=True,
                   **entry)
    hex_id, facing, mp, _turned = end
    return act("move", f"{mp} MP to {hex_id} facing {facing_text(facing)}", fighter=f.id,
               path=plan, **entry)


def _declarations(what: str, ok: Callable[[NightSession, Fighter], bool]):
    def offers(game: Game, sc: Scenario, s: NightSession) -> list[Option]:
        return [Option.single(act(what, fighter=f.id)) for f in s.night.fighters
                if may_move(s, f) and (f.id, what) not in s.declared and ok(s, f)]
    return offers


def _searches(game: Game, sc: Scenario, s: NightSession) -> list[Option]:
    placed = set(s.placed) if s.phase == "radar-search" else set()
    return [Option(f"search {counter}", partial(_search_hexes, game, counter))
            for counter in sc.counter_ids() if counter not in placed]


def _search_hexes(game: Game, counter: str) -> tuple[Action, ...]:
    return tuple(act("search", counter=counter, hex=h) for h in sorted(game.hex_map().hex_ids))


def _attacks(game: Game, sc: Scenario, s: NightSession) -> list[Option]:
    if s.phase != "combat":
        return []  # its target is known only once the phases before Combat have run
    return [Option(f"attack {f.id}", partial(_attack_ways, f.id, has_oblique(game, f)))
            for f in s.night.fighters if can_attack(game, sc, s.night, f)]


def _attack_ways(fighter_id: str, oblique_guns: bool) -> tuple[Action, ...]:
    """With and without following a corkscrew [17.4.3]; with oblique guns too [20.0]."""
    guns = (None, True) if oblique_guns else (None,)
    return tuple(act("attack", fighter=fighter_id, oblique=oblique, follow=follow)
                 for oblique in guns for follow in (None, "none"))


def _single(name: str):
    return lambda game, sc, s: [Option.single(act(name))]


#: The answers each command offers now.
OFFERS: dict[str, Callable[[Game, Scenario, NightSession], list[Option]]] = {
    "move": _moves,
    "evade": _declarations("evade", lambda s, f: f.id in s.warned),
    "descend": _declarations("descend", lambda s, f: f.dives_left >= 1),
    "search": _searches,
    "sight": _single("sight"),
    "attack": _attacks,
    "end-turn": _single("end-turn"),
}

"""MIDWAY played in a session (``warpress play``), from the set-up to the verdict: the
solitaire game 「飛龍奮戦す」 (12.0, scenario ``solitaire``), the player commanding the
Japanese and the US run by its procedure (12.3), or the two-player game (scenario
``standard``), both sides people (or agents).

The position (``positions.py``) holds the fleets, every aircraft unit in its box or air
group, the damage markers, the tracks and the event cards; the rules are the folder's own
procedures (``search.py``, ``movement.py``, ``area.py``, ``combat.py``, ``night.py``,
``landing.py``, ``victory.py``, ``solitaire.py``). ``flow.py`` runs the sequence of play,
``strikes.py`` an air attack step by step, ``policy.py`` the solitaire US; this module
takes each command, checks it and hands over.

======================= ========= ========================================================
decision (``due``)      side      answers
======================= ========= ========================================================
setup (3.1, 3.2)        each      ``place UNIT BOX``; ``ready`` (two-player)
declare (6.4(1))        Japanese  ``declare yes|no``
plan (6.2(1), 3.2(1))   US        ``plan ROUTE`` (two-player; secret until executed)
movement (6.1, 6.3)     Japanese  ``sail FLEET PATH``; ``end-move``
base-op (6.4(3))        Japanese  as an air operation, against Midway only
air-op (8.2-8.5)        flying    ``move UNIT BOX``, ``launch UNIT GROUP|new``, ``fly GROUP
                                  HEX``, ``return GROUP DISPLAY``, ``reorganize UNIT
                                  OTHER``, ``take-card`` (solitaire, 12.3(7)), ``end-op``
night-op (10.2(2)d)     each      ``move UNIT BOX`` (hangar to deck or CAP); ``end-op``
target (9.1)            attacker  ``target DIVISION|invasion``
intercept (9.2)         defender  ``intercept UNIT``; ``pass``
lose (9.2(3), 9.3(3))   receiver  ``lose UNIT``
assign (9.4)            attacker  ``assign UNIT CARRIER``
runway (9.6(2))         US        ``runway BOX``
land (9.5(1))           defender  ``land UNIT BOX`` (solitaire US fighters: the player,
                                  12.3(4)a)
return (9.5(2))         attacker  ``return GROUP DISPLAY``
surface (10.1(2))       Japanese  ``hit CARRIER|invasion``
search-card (11.0(2))   each      ``play CARD``; ``pass``
scuttle (2.3, 4.2)      each      ``play 01``; ``pass``
======================= ========= ========================================================

In solitaire every US decision is answered by the procedure (``policy.py``) through the
same checks, and US movement, initiative and the night deployment follow 12.3. The
rulings the rules leave open are errata E29-E33 (``errata.yaml``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from warpress.engine.decisions import ActionSpec, Arg, Decision
from warpress.engine.dice import Dice
from warpress.engine.errors import BadInput, RuleViolation
from warpress.engine.inputs import quote
from warpress.engine.model import FrozenDict, Game
from warpress.engine.position import Position, freeze
from warpress.engine.referee import PositionRules, ScenarioInfo, Step

from .. import CODE
from . import flow, policy, strikes
from . import search as S
from .choices import OPTIONS, PLAYABLE, prompt
from .common import const, is_attack
from .moves import (
    KINDS,
    NEW,
    Run,
    awaiting,
    check_end_move,
    check_end_op,
    check_fly,
    check_launch,
    check_move,
    check_place,
    check_plan,
    check_reorganize,
    check_return,
    check_sail,
    check_take_card,
    parse,
)
from .positions import (
    DECK,
    ICHIKOKAN,
    REMOVED,
    hand,
    move_cards,
    moved_fleet,
    pile,
    solitaire_position,
    standard_position,
)
from .views import (
    PLAN_WRITTEN,
    determinise,
    draw_map,
    known_position,
    referee_view,
    summary_of,
    view,
    viewer_of,
)

SCENARIOS = {
    "standard": ScenarioInfo("standard", "The two-player game (3.0)", "",
                             "Japanese and US players; the Japanese enter on Turn 1, the US "
                             "fleet starts from a secret hex; 7 turns"),
    "solitaire": ScenarioInfo("solitaire", "「飛龍奮戦す」 Hiryu Fights On (12.0)", "",
                              "solitaire: the player commands the Japanese from Turn 3, "
                              "Hiryu alone against three US carriers; the US follows 12.3"),
}

ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec("place", "Set-up: put one of your aircraft units in another box of its "
                        "carrier or division (3.1(2), 3.2(2)(3)).",
               (Arg("unit", "the aircraft unit"), Arg("box", "DISPLAY/BOX or a carrier's "
                                                              "BOX"))),
    ActionSpec("ready", "Set-up: your aircraft are where you want them."),
    ActionSpec("declare", "Declare a base attack on Midway this turn, or not (6.4(1)).",
               (Arg("attack", "yes or no"),)),
    ActionSpec("plan", "US: write the fleet's plan, its hex first (on Turn 1 the start hex, "
                       "columns F-H) then each hex entered (6.2(1)); secret until executed.",
               (Arg("route", "hexes, comma-separated: F-4,E-3,D-3"),)),
    ActionSpec("sail", "Move a Japanese fleet: its hex first (entering: its entry hex) then "
                       "each hex entered (6.1, 6.3).",
               (Arg("fleet", "ichikokan or invasion-force"),
                Arg("path", "hexes, comma-separated: D-3,E-3"))),
    ActionSpec("end-move", "The Japanese movement is over (6.3)."),
    ActionSpec("move", "Move an aircraft unit one box along an arrow of its carrier area "
                       "(8.3; at night hangar to deck or CAP, 10.2(2)d).",
               (Arg("unit", "the aircraft unit"), Arg("box", "DISPLAY/BOX or a carrier's "
                                                              "BOX"))),
    ActionSpec("launch", "Launch a unit from the deck (or runway) into a group: 'new' or a "
                         "group launched in this air operation (8.4).",
               (Arg("unit", "the aircraft unit"), Arg("group", "a group id or new"))),
    ActionSpec("fly", "Fly a group: one launched now up to 2 hexes, one already in the "
                      "combat area up to its movement; into a target's hex it attacks "
                      "(8.4, 8.5, 9.0).", (Arg("group", "the group"), Arg("hex", "the hex"))),
    ActionSpec("return", "A group with no target in reach (8.5(3)), or after its attack "
                         "(9.5(2)), goes to an own division's, task force's or the base's "
                         "return box.", (Arg("group", "the group"),
                                         Arg("to", "a division, task force or midway-base"))),
    ActionSpec("reorganize", "Combine two 1-step units of one type in one box into a 2-step "
                             "unit (8.3(4)).",
               (Arg("unit", "the unit kept"), Arg("other", "the unit removed"))),
    ActionSpec("take-card", "Solitaire: once a game, spend this air operation's AOP on a "
                            "card from the deck instead (12.3(7))."),
    ActionSpec("end-op", "The air operation is over; Return boxes make their forced moves "
                         "(8.3(1))."),
    ActionSpec("target", "The division, task force or the Invasion Force a group attacks "
                         "(9.1).", (Arg("target", "a division or task force id, or "
                                                  "invasion"),)),
    ActionSpec("intercept", "A CAP fighter of the target intercepts (9.2).",
               (Arg("unit", "the CAP fighter"),)),
    ActionSpec("pass", "No more interceptors; no search card; no card 01."),
    ActionSpec("lose", "The unit that loses the next step (9.2(3), 9.3(3)).",
               (Arg("unit", "the aircraft unit"),)),
    ActionSpec("assign", "The carrier an attack aircraft attacks (9.4).",
               (Arg("unit", "the attack aircraft"), Arg("carrier", "a carrier of the "
                                                                   "target"))),
    ActionSpec("runway", "The runway box a base hit takes (9.6(2)).",
               (Arg("box", "midway-base/runway-N"),)),
    ActionSpec("land", "Where an interceptor lands (9.5(1); solitaire US: any US carrier's "
                       "deck, 12.3(4)a).", (Arg("unit", "the fighter"), Arg("box", "the box"))),
    ActionSpec("hit", "The carrier (or the Invasion Force) a surface-battle hit goes to "
                      "(10.1(2)).", (Arg("target", "a carrier or invasion"),)),
    ActionSpec("play", "Play an event card at its time: 02 or 07 in the search phase "
                       "(11.0(2)), 01 at the end of Turn 7.", (Arg("card", "the card"),)),
)

#: how ``play log`` prints arguments: the US plan is secret until executed (6.2)
ARG_TEXT: Mapping[str, Callable[[Any], str]] = {"route": lambda _v: PLAN_WRITTEN}
#: the arguments the session log keeps sealed: the US plan (6.2(1), 3.2(1): written in
#: secret, revealed only as it is executed, 6.2(2))
SEALED_ARGS: Mapping[str, tuple[str, ...]] = {"plan": ("route",)}


def awaiting_for(game: Game, position: Position, viewer: str | None) -> list[str]:
    """The actions of the decision due, by its kind and side only."""
    due = position.due
    return awaiting(due.kind, due.side, position.scenario == "solitaire")


# --- handlers: one per action ----------------------------------------------------------------


def _place(run: Run, a: Mapping[str, Any]) -> None:
    side = run.pos.due.side
    run.put(check_place(run, side, a["unit"], a["box"]))
    run.say(f"{a['unit']} is placed in {a['box']}", "3.1(2)" if side == "japan" else "3.2(2)")
    run.due("setup", side)


def _ready(run: Run, a: Mapping[str, Any]) -> None:
    side = run.pos.due.side
    run.set(ready=[*run.get("ready", []), side])
    run.say(f"{side} has placed its aircraft", "3.1(2)" if side == "japan" else "3.2(2)")
    run.done()


def _declare(run: Run, a: Mapping[str, Any]) -> None:
    if a["attack"] and not flow.can_declare(run):
        raise RuleViolation("6.4(3)", "no attack aircraft is on a Japanese deck: a base attack "
                                      "needs one")
    run.set(declared=a["attack"])
    run.say("japan declares a base attack on Midway" if a["attack"] else
            "japan declares no base attack", "6.4(1)")
    run.done()


def _plan(run: Run, a: Mapping[str, Any]) -> None:
    run.set(plan=check_plan(run, a["route"]))
    run.say("the US writes its movement plan", "6.2(1)")
    run.done()


def _sail(run: Run, a: Mapping[str, Any]) -> None:
    path = check_sail(run, a["fleet"], a["path"])
    run.pos = moved_fleet(run.pos, a["fleet"], path[-1])
    run.set(moved=[*run.get("moved", []), a["fleet"]])
    run.say(f"{a['fleet']}: {'→'.join(path)}", "6.1", "6.3")
    run.due("movement", "japan")


def _end_move(run: Run, a: Mapping[str, Any]) -> None:
    check_end_move(run)
    run.set(moves_done=True)
    if run.get("declared"):
        ops = flow.base_ops_for(run)
        run.set(base_ops=ops)
        run.say(f"the base attack: {ops} air operation(s) from "
                f"{run.pos.piece(ICHIKOKAN).place}", "6.4(3)")
    run.done()


def _op_moved(run: Run, *uids: str, flown: str | None = None) -> None:
    op = run.op
    op["moved"] = [*op["moved"], *uids]
    if flown:
        op["flown"] = [*op["flown"], flown]
        op["forming"].pop(flown, None)
    run.set(op=op)


def _move(run: Run, a: Mapping[str, Any]) -> None:
    before = run.area.unit(a["unit"])
    run.put(check_move(run, a["unit"], a["box"]))
    _op_moved(run, a["unit"])
    run.say(f"{a['unit']}: {before.box} -> {a['box'].split('/')[1]}", "8.3")
    run.done()


def _launch(run: Run, a: Mapping[str, Any]) -> None:
    new = a["group"] == NEW
    gid = f"g{run.get('groups', 0) + 1}" if new else a["group"]
    area, holder = check_launch(run, a["unit"], gid, new)
    run.put(area)
    op = run.op
    record = op["forming"].get(gid, {"holders": []})
    record["holders"] = sorted({*record["holders"], holder})
    op["forming"][gid] = record
    op["moved"] = [*op["moved"], a["unit"]]
    op["launched_from"] = sorted({*op.get("launched_from", []), holder})
    run.set(op=op)
    if new:
        run.set(groups=run.get("groups", 0) + 1)
    if op["kind"] == "base" and is_attack(run.game, run.area.unit(a["unit"]).type):
        run.set(base_attackers=run.get("base_attackers", 0) + 1)
    run.say(f"{a['unit']} launches from {holder} in group {gid}", "8.4(1)", "8.4(2)")
    run.done()


def _fly(run: Run, a: Mapping[str, Any]) -> None:
    gid = a["group"]
    start = run.area.group(gid)[0].box
    run.put(check_fly(run, gid, a["hex"]))
    _op_moved(run, *[u.uid for u in run.area.group(gid)], flown=gid)
    run.say(f"group {gid} flies {start} -> {a['hex']}", "8.4(1)", "8.5")
    run.done()
    strikes.begin(run, gid, a["hex"])


def _return(run: Run, a: Mapping[str, Any]) -> None:
    strike = run.strike
    due = run.pos.due
    if due.kind == "return":
        if a["group"] != strike["group"] or a["to"] not in due.data["displays"]:
            raise RuleViolation("9.5(2)", f"group {strike['group']} returns to "
                                          f"{', '.join(due.data['displays'])}")
        run.done()
        strikes.send_home(run, strike, a["to"])
        return
    units = [u.uid for u in run.area.group(a["group"])]
    run.put(check_return(run, a["group"], a["to"]))
    _op_moved(run, *units, flown=a["group"])
    run.say(f"group {a['group']} has no target in reach: it returns to {a['to']} return-2",
            "8.5(3)")
    run.done()


def _reorganize(run: Run, a: Mapping[str, Any]) -> None:
    run.put(check_reorganize(run, a["unit"], a["other"]))
    run.say(f"{a['other']} joins {a['unit']}: one 2-step unit", "8.3(4)")
    run.done()


def _take_card(run: Run, a: Mapping[str, Any]) -> None:
    check_take_card(run)
    card = pile(run.pos, DECK)[0]
    run.pos = move_cards(run.pos, [(card, DECK, hand("japan"))])
    run.set(card_taken=True, op=None)
    run.say("japan takes a card from the deck instead of an air operation", "12.3(7)")
    run.done()


def _end_op(run: Run, a: Mapping[str, Any]) -> None:
    check_end_op(run)
    side = run.op["side"]
    flow.end_op(run)
    run.say(f"{side} ends the air operation", "8.2")
    run.done()


def _target(run: Run, a: Mapping[str, Any]) -> None:
    strike = run.strike
    if a["target"] not in strike["targets"]:
        raise RuleViolation("9.1", f"group {strike['group']} attacks one of "
                                   f"{', '.join(strike['targets'])}")
    strike.update(target=a["target"], stage="intercept")
    run.set(strike=strike)
    run.say(f"group {strike['group']} attacks {a['target']}", "9.1")
    run.done()


def _intercept(run: Run, a: Mapping[str, Any]) -> None:
    strike = run.strike
    if a["unit"] not in [u.uid for u in strikes.cap_candidates(run, strike)]:
        raise RuleViolation("9.2", f"{a['unit']} is not a fighter in the CAP box of "
                                   f"{strike['target']} still free to intercept")
    strike["cap"] = [*strike["cap"], a["unit"]]
    run.set(strike=strike)
    run.say(f"{a['unit']} intercepts group {strike['group']}", "9.2")
    run.done()


def _pass(run: Run, a: Mapping[str, Any]) -> None:
    due = run.pos.due
    if due.kind == "intercept":
        strike = run.strike
        strike["cap_done"] = True
        run.set(strike=strike)
    elif due.kind == "search-card":
        search = run.get("search")
        search["asked"] = [*search["asked"], due.side]
        run.set(search=search)
    else:
        scuttle = run.get("scuttle")
        scuttle["asked"] = [*scuttle["asked"], due.side]
        run.set(scuttle=scuttle)
    run.done()


def _lose(run: Run, a: Mapping[str, Any]) -> None:
    strike = run.strike
    due = run.pos.due
    if a["unit"] not in due.data["units"]:
        raise RuleViolation(due.data["rule"], f"{a['unit']} cannot take this hit (units: "
                                              f"{', '.join(due.data['units'])})")
    run.done()
    strikes.take_step(run, strike, a["unit"])


def _assign(run: Run, a: Mapping[str, Any]) -> None:
    strike = run.strike
    due = run.pos.due
    if a["unit"] not in due.data["units"] or a["carrier"] not in due.data["carriers"]:
        raise RuleViolation("9.4", f"assign one of {', '.join(due.data['units'])} to one of "
                                   f"{', '.join(due.data['carriers'])}")
    strike["assign"] = {**strike["assign"], a["unit"]: a["carrier"]}
    run.set(strike=strike)
    run.say(f"{a['unit']} attacks {a['carrier']}", "9.4")
    run.done()


def _runway(run: Run, a: Mapping[str, Any]) -> None:
    strike = run.strike
    box = a["box"].split("/")[1]
    if box not in run.pos.due.data["boxes"]:
        raise RuleViolation("9.6(2)", f"the hit takes one of the intact runway boxes "
                                      f"({', '.join(run.pos.due.data['boxes'])})")
    strike["runway"] = [*strike["runway"], box]
    run.set(strike=strike)
    run.done()


def _land(run: Run, a: Mapping[str, Any]) -> None:
    due = run.pos.due
    if a["unit"] != due.data["unit"] or a["box"] not in due.data["boxes"]:
        raise RuleViolation("9.5(1)", f"{due.data['unit']} lands on one of "
                                      f"{', '.join(due.data['boxes'])}")
    run.done()
    strikes.land(run, run.strike, a["unit"], tuple(a["box"].split("/")))


def _hit(run: Run, a: Mapping[str, Any]) -> None:
    due = run.pos.due
    battle = run.get("surface")
    targets = flow.surface_targets(run, due.data["on"], battle["fleet"])
    if a["target"] not in targets:
        raise RuleViolation("10.1(2)", f"the hit goes to one of {', '.join(targets)}")
    run.done()
    flow.apply_surface_hit(run, due.data["on"], a["target"])


def _play(run: Run, a: Mapping[str, Any]) -> None:
    due = run.pos.due
    side, card = due.side, a["card"]
    if card not in run.hand(side):
        raise RuleViolation("11.0", f"card {card} is not in the {side} hand")
    if card not in PLAYABLE[due.kind][side]:
        rule = "11.0(2)" if due.kind == "search-card" else "2.3"
        raise RuleViolation(rule, f"card {card} is not one {side} plays now")
    name = run.game.get("cards", card).name
    if due.kind == "search-card":
        search = run.get("search")
        S.search_cards(run.game, [*search["played"], card])
        search["played"] = [*search["played"], card]
        search["asked"] = [*search["asked"], side]
        run.set(search=search)
    else:
        run.set(scuttle={**run.get("scuttle"), "by": side,
                         "asked": [*run.get("scuttle")["asked"], side]})
    run.pos = move_cards(run.pos, [(card, hand(side), REMOVED)])
    run.say(f"{side} plays card {card} ({name})", *KINDS[due.kind][1])
    run.done()


HANDLERS: dict[str, Callable[[Run, Mapping[str, Any]], None]] = {
    "place": _place, "ready": _ready, "declare": _declare, "plan": _plan, "sail": _sail,
    "end-move": _end_move, "move": _move, "launch": _launch, "fly": _fly,
    "return": _return, "reorganize": _reorganize, "take-card": _take_card,
    "end-op": _end_op, "target": _target, "intercept": _intercept, "pass": _pass,
    "lose": _lose, "assign": _assign, "runway": _runway, "land": _land, "hit": _hit,
    "play": _play,
}


def advance(run: Run) -> None:
    """Run the game to the next decision of a person: in solitaire the US procedure answers
    every US decision (12.3)."""
    for _ in range(100_000):
        flow.proceed(run)
        due = run.pos.due
        if run.pos.over or due is None or not (run.solitaire and due.side == "us"):
            return
        name, args = policy.choose(run)
        _check_due(run.pos, name)
        HANDLERS[name](run, parse(run, name, args))
    raise RuntimeError("the solitaire US made no progress")  # pragma: no cover


def _check_due(position: Position, command: str) -> None:
    due = position.due
    accepted = awaiting(due.kind, due.side, position.scenario == "solitaire")
    if command not in accepted:
        raise RuleViolation(due.rule[0] if due.rule else "5.0",
                            f"{prompt(due)}: {command} does not answer it "
                            f"({', '.join(accepted) or 'nothing'})")


# --- the rules a session calls ------------------------------------------------------------


@CODE.session
class MidwayRules(PositionRules):
    """The session rules of MIDWAY (see the module docstring)."""

    actions = ACTIONS
    hidden = True
    arg_text = ARG_TEXT
    sealed_args = SEALED_ARGS

    def scenarios(self, game: Game) -> tuple[ScenarioInfo, ...]:
        return tuple(SCENARIOS.values())

    def scenario_file(self, game: Game, name_or_path: str | None) -> None:
        self.load_scenario(game, name_or_path)
        return None

    def load_scenario(self, game: Game, name_or_path: str | None) -> str:
        if name_or_path is None:
            return next(iter(SCENARIOS))
        if name_or_path not in SCENARIOS:
            raise BadInput(f"scenario {quote(name_or_path)} is not one of {game.id}'s "
                           f"({', '.join(SCENARIOS)})")
        return name_or_path

    def new(self, game: Game, scenario: str, dice: Dice) -> Step:
        if scenario == "solitaire":
            position = solitaire_position(game, dice)
            run = Run(game, position, dice)
            run.say("「飛龍奮戦す」: Akagi, Kaga and Soryu are sunk; Hiryu, with the 1st Air "
                    "Fleet in D-3, faces the US fleet in F-3; the US follows its procedure",
                    "12.1", "12.2")
            run.set(revealed=True)
            flow.begin_turn(run, const(game, "solitaire-start-turn"))
        else:
            run = Run(game, standard_position(game, dice), dice)
            run.say("set-up: each side has drawn an event card; the aircraft are placed "
                    "(each side may rearrange them)", "3.1", "3.2")
        advance(run)
        return _step(run)

    def apply(self, game: Game, position: Position, command: str, args: Mapping[str, Any],
              dice: Dice) -> Step:
        run = Run(game, position, dice)
        parsed = parse(run, command, self.checked(command, args))
        self.refuse_when_over(position, command, "4.0")
        _check_due(position, command)
        HANDLERS[command](run, parsed)
        advance(run)
        return _step(run)

    def decision(self, game: Game, position: Position) -> Decision | None:
        if position.over or position.due is None:
            return None
        due = position.due
        run = Run(game, position)
        return Decision(due.side, due.kind, prompt(due), due.rule,
                        tuple(OPTIONS[due.kind](run, due)))

    def player_view(self, game: Game, position: Position, side: str | None = None
                    ) -> dict[str, Any]:
        return view(game, position, side, lambda p, s: awaiting_for(game, p, s))

    def referee_view(self, game: Game, position: Position) -> dict[str, Any]:
        return referee_view(game, position, lambda p, s: awaiting_for(game, p, s))

    def agent_view(self, game: Game, position: Position, side: str | None) -> Position:
        """What ``side`` knows, as a position (views.known_position): what an agent of the
        side searches from."""
        return known_position(position, viewer_of(position, side))

    def determinise(self, game: Game, known: Position, side: str, rng: random.Random
                    ) -> Position:
        return determinise(game, known, side, rng)

    def summary(self, game: Game, position: Position) -> dict[str, Any] | None:
        return summary_of(position)

    def render_player_map(self, game: Game, position: Position, fmt: str = "svg") -> bytes:
        return draw_map(game, position, fmt)

    render_referee_map = render_player_map


#: how many turns of events the position keeps (this turn's and the last's)
EVENT_TURNS = 2


def _step(run: Run) -> Step:
    """The new position with this command's events kept for the views, and the events as
    the step's announcements."""
    last = run.pos.turn - EVENT_TURNS + 1
    kept = tuple(e for e in run.pos.data.get("events") or () if e["turn"] >= last)
    events = kept + tuple(freeze(a.as_json()) for a in run.said)
    run.pos = replace(run.pos, data=FrozenDict({**run.pos.data, "events": events}))
    return Step(run.pos, tuple(run.said))


__all__ = ["MidwayRules"]

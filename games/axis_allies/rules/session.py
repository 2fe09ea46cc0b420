"""Axis & Allies played in a session (``warpress play``), from the set-up to the verdict,
by the five powers in turn order (USSR, Germany, UK, Japan, USA): people, agents, or some
of each. There is no hidden information: every power sees the whole board.

The position (``positions.py``) holds every unit on the board; the rules are the folder's
own procedures: ``moves.py`` (② and ④), ``battles.py`` (③, through ``battle.py``),
``orders.py`` (the other actions' checks), ``board.py`` (control, placement ⑤, income ⑥,
victory) and ``research.py`` (①). This module asks each decision of the power that makes
it, in the order of the rules, lists its legal answers (``choices.py``) and checks the one
given; ``views.py`` and ``mapview.py`` show the position, ``invariants.py`` checks a game
played.

======================= ========== =====================================================
decision (``due``)      power      answers
======================= ========== =====================================================
purchase (①)            turn       ``buy TYPE [COUNT]``; ``develop DICE`` (once a turn);
                                   ``end``
combat-move (②)         turn       ``move FROM TO UNIT [COUNT] [--via SPACES]``; ``end``
battle (③)              turn       ``fight SPACE``: the next battle (several left)
casualties (③)          the side   ``lose UNITS``; ``order TYPES`` (an order of loss for
                        hit        the rest of the battle)
withdraw (sea 7))       each side  ``withdraw COUNT [TO]``; ``stay``
retreat (land 6), E14)  attacker   ``press``; ``retreat [TO]``
non-combat-move (④)     turn       ``move FROM TO UNIT [COUNT] [--via SPACES]``; ``end``
place (⑤)               turn       ``place WHERE UNIT [COUNT]``; ``end`` (nothing more
                                   can be placed)
======================= ========== =====================================================

The dice of a battle, AA fire, the submarines' first strike, shore bombardment, captures,
aircraft without a landing place, income (⑥) and the victory check at the end of each
round follow by themselves.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from warpress.engine.decisions import ActionSpec, Arg, Decision, Opt
from warpress.engine.dice import Dice
from warpress.engine.errors import BadInput, RuleViolation
from warpress.engine.inputs import parse_int, quote
from warpress.engine.model import FrozenDict, Game
from warpress.engine.position import Position, Verdict, freeze, thaw
from warpress.engine.referee import OneScenario, ScenarioInfo, Step

from .. import CODE
from . import battles as bt
from . import invariants, research
from .board import board_victory, income, next_turn
from .choices import OPTIONS, placeable
from .common import const, domain, flag, unit_types, weapon_ids
from .mapview import draw
from .moves import (
    COMBAT,
    NONCOMBAT,
    Run,
    apply_move,
    count_arg,
    landing_spot,
    plan_move,
    sea,
    space_arg,
    type_arg,
    units_arg,
    units_text,
    via_arg,
)
from .orders import (
    KINDS,
    check_end_noncombat,
    check_place,
    check_rocket,
    prompt,
    unit_cost,
)
from .positions import (
    FIRST_PHASE,
    FLAGS,
    SCENARIO,
    TURN_PROPS,
    add_pieces,
    evolve_piece,
    factory_at,
    ipc,
    npl_of,
    powers,
    purchased,
    remove_pieces,
    season,
    start,
    weapons,
)
from .score import score as alliance_score
from .tables import MOST_DICE
from .views import summary_of, view

ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec("buy", "Buy units at their cost (① purchase): placed in ⑤.",
               (Arg("unit", "the unit type"), Arg("count", "how many (default 1)", False))),
    ActionSpec("develop", "Buy weapons-development dice at 5 IPC each and roll them (① "
                          "weapons development): each 6 develops a weapon.",
               (Arg("dice", "how many dice"),)),
    ActionSpec("move", "Move units from one space to another (② combat movement, ④ non-"
                       "combat movement): land units by land, onto a transport in a sea zone "
                       "next to them or off it; ships by sea; aircraft anywhere.",
               (Arg("from", "the territory or sea zone they stand in"),
                Arg("to", "where they go"),
                Arg("unit", "the unit type (or a piece id: usa.transport.1)"),
                Arg("count", "how many (default 1)", False)),
               (Opt("--via", "via", "the spaces in between, comma-separated (default: the "
                                    "shortest legal way)"),)),
    ActionSpec("rocket", "Fire a rocket from an AA gun at an enemy industrial complex within "
                         "3 spaces (the Rockets weapon, in ②): its owner loses a die of IPC.",
               (Arg("from", "the AA gun's territory"), Arg("target", "the factory's territory"))),
    ActionSpec("fight", "Fight the battle in a space next (③: the attacker chooses the order).",
               (Arg("space", "the battle's territory or sea zone"),)),
    ActionSpec("lose", "Take the hits of a battle round on these units (③: the side hit "
                       "chooses).",
               (Arg("units", "units, comma-separated: 2xinfantry,armor (or piece ids)"),)),
    ActionSpec("order", "Give an order of loss for the rest of this battle (③): unit types, "
                        "first lost first; the rest lowest cost first.",
               (Arg("types", "unit types, comma-separated"),)),
    ActionSpec("press", "Fight another round (land 6), sea 8))."),
    ActionSpec("retreat", "Retreat from the battle (land 6), sea 8), E14): land and sea units "
                          "to a space they came from; aircraft land in ④.",
               (Arg("to", "the space (none when only aircraft are left)", False),)),
    ActionSpec("withdraw", "Submarines leave the battle (sea 7)): the attacker's to the sea "
                           "zone each came from, the defender's to a sea zone next to it.",
               (Arg("count", "how many submarines"),
                Arg("to", "the defender's sea zone", False))),
    ActionSpec("stay", "The submarines stay in the battle (sea 7))."),
    ActionSpec("place", "Place units bought this turn (⑤): land units and aircraft at a "
                        "factory, ships in a sea zone next to one, a factory in a territory "
                        "held since the start of the turn.",
               (Arg("where", "the territory or sea zone"), Arg("unit", "the unit type"),
                Arg("count", "how many (default 1)", False))),
    ActionSpec("end", "End the action: purchase (①), combat movement (②), non-combat "
                      "movement (④), placement (⑤)."),
)

#: how many power turns of events the position keeps (this one and the one before)
EVENT_TURNS = 2
#: the most events kept (a bound on the position's size)
MOST_EVENTS = 400


# --- the flow ------------------------------------------------------------------------


def begin_turn(run: Run) -> None:
    """A power's turn begins: last turn's marks go, ① is due."""
    fresh = []
    for p in run.pos.pieces:
        if p.flags & set(FLAGS) or any(k in p.props for k in TURN_PROPS):
            fresh.append(evolve_piece(p, drop=FLAGS, props={k: None for k in TURN_PROPS}))
    run.put(fresh)
    run.set(developed=False, captured=[], placed={}, assaults={}, battles=[], battle=None,
            turn_key=int(run.data("turn_key") or 0) + 1)
    run.pos = replace(run.pos, phase=FIRST_PHASE)
    run.say(f"round {run.pos.turn} ({season(run.game, run.pos.turn)}): {run.power}'s turn, "
            f"{ipc(run.pos, run.power)} IPC", "sequence of play")
    run.due("purchase", run.power, KINDS["purchase"][1])


def begin_move(run: Run, phase: str) -> None:
    run.pos = replace(run.pos, phase=phase)
    kind = "combat-move" if phase == COMBAT else "non-combat-move"
    run.due(kind, run.power, KINDS[kind][1])


def begin_combat(run: Run, dice: Dice) -> None:
    """③: every space holding units of both sides is a battle."""
    run.pos = replace(run.pos, phase="combat")
    spaces = bt.battle_spaces(run)
    run.set(battles=spaces, battle=None)
    if not spaces:
        run.say(f"{run.power} fights no battle this turn", "③ combat")
    next_battle(run, dice)


def next_battle(run: Run, dice: Dice) -> None:
    """The battle going on runs to its next decision; then the next battle (the attacker
    chooses which when several are left, constant battle-order-chosen-by)."""
    while True:
        if run.data("battle"):
            if not bt.advance(run, dice):
                return
            continue
        left_over = list(run.data("battles") or ())
        if not left_over:
            return begin_move(run, NONCOMBAT)
        if len(left_over) > 1:
            run.due("battle", run.power, KINDS["battle"][1], spaces=left_over)
            return
        bt.open_battle(run, left_over[0])


def end_noncombat(run: Run) -> None:
    """After ④: aircraft not on a legal landing place are lost (constant
    aircraft-without-landing), then ⑤."""
    game = run.game
    lost = []
    for p in run.pos.pieces:
        if p.side != run.power or p.kind != "area" or domain(game, p.unit) != "air":
            continue
        if "fought" in p.flags and "moved-nc" not in p.flags:
            lost.append(p)
        elif sea(game, p.place):
            if not p.props.get("aboard"):
                lost.append(p)
        elif landing_spot(run, p, p.place) is not None:
            lost.append(p)
    lose_units(run, lost, "find no landing place", "aircraft-without-landing",
               "④ non-combat movement")
    begin_placement(run)


def lose_units(run: Run, lost: list, why: str, constant: str, rule: str) -> None:
    """Units of the power lost by a ruling (``constant``), announced with ``why``."""
    if lost:
        run.say(f"{units_text(p.unit for p in lost)} of {run.power} {why} and are lost "
                f"(constant {constant})", rule)
        run.pos = remove_pieces(run.pos, lost)


def begin_placement(run: Run) -> None:
    run.pos = replace(run.pos, phase="placement")
    if not purchased(run.pos, run.power):
        return collect_income(run)
    run.due("place", run.power, KINDS["place"][1])
    return None


def end_placement(run: Run) -> None:
    """Units that cannot be placed anywhere are lost (constant unplaced-units)."""
    lose_units(run, purchased(run.pos, run.power), "cannot be placed", "unplaced-units", "⑤")
    collect_income(run)


def collect_income(run: Run) -> None:
    """⑥: IPC equal to the NPL (E11); then the next power, or the end of the round."""
    run.pos = replace(run.pos, phase="income", pending=())
    level = npl_of(run.game, run.pos, run.power)
    got = income(run.game, level)
    money = dict(thaw(run.data("ipc")))
    money[run.power] += got
    run.set(ipc=money)
    run.say(f"{run.power} collects {got} IPC (NPL {level}); {money[run.power]} in hand",
            "⑥ income", "E11")
    power, round_number = next_turn(run.game, run.power, run.pos.turn)
    if round_number != run.pos.turn and round_end(run):
        return
    run.pos = replace(run.pos, side=power, turn=round_number)
    begin_turn(run)


def round_end(run: Run) -> bool:
    """The end of a round: the victory check (table victory, E10); True when decided."""
    out, rules, errata = board_victory(run.game, run.pos.control, True)
    run.say(f"end of round {run.pos.turn}: Axis NPL {out['axis_npl']}, Axis capitals lost "
            f"{out['axis_capitals_lost']}, Allied capitals lost {out['allied_capitals_lost']}",
            "victory conditions", *errata)
    if out["winner"] == "none":
        return False
    condition = ("allied-victory" if out["winner"] == "allies" else
                 "axis-military-victory" if out["allied_capitals_lost"] >= 2 else
                 "axis-economic-victory")
    record = run.game.get("victory", condition)
    verdict = Verdict(str(out["winner"]), "win", str(out["reason"]),
                      tuple(record.rule) + tuple(errata), condition)
    run.say(f"game over: the {out['winner']} win: {out['reason']}", *verdict.rule)
    run.pos = replace(run.pos, pending=(), verdict=verdict, phase="over")
    return True


# --- handlers ----------------------------------------------------------------------------


def _buy(run: Run, args: Mapping[str, Any], dice: Dice) -> None:
    unit_type, count = args["unit"], args["count"]
    cost = unit_cost(run.game, run.pos, run.power, unit_type) * count
    have = ipc(run.pos, run.power)
    if cost > have:
        raise RuleViolation("① purchase", f"{count} {unit_type} cost {cost} IPC; {run.power} "
                                          f"has {have} (constant ipc-may-go-negative: no)")
    run.pos = add_pieces(run.pos, run.power, unit_type, count)
    _pay(run, cost)
    run.say(f"{run.power} buys {count} {unit_type} for {cost} IPC ({have - cost} left)",
            "① purchase")


def _pay(run: Run, cost: int) -> None:
    money = dict(thaw(run.data("ipc")))
    money[run.power] -= cost
    run.set(ipc=money)


def _develop(run: Run, args: Mapping[str, Any], dice: Dice) -> None:
    n = args["dice"]
    if run.data("developed") and flag(run.game, "research-once-per-turn"):
        raise RuleViolation("① weapons development", f"{run.power} rolled development dice "
                                                     "this turn already (constant "
                                                     "research-once-per-turn, assumed)")
    owned = sorted(weapons(run.pos, run.power))
    if set(owned) >= set(weapon_ids(run.game)):
        raise RuleViolation("E12", f"{run.power} has developed every weapon")
    cost = research.dice_cost(run.game, n)
    have = ipc(run.pos, run.power)
    if cost > have:
        raise RuleViolation("① weapons development", f"{n} dice cost {cost} IPC; {run.power} "
                                                     f"has {have}")
    out = research.develop(run.game, n, owned, dice)
    _pay(run, cost)
    gained = [w for w in str(out["weapons"]).split(",") if w and w != "none"]
    got = dict(thaw(run.data("weapons")))
    got[run.power] = sorted({*owned, *gained})
    run.set(weapons=got, developed=True)
    run.say(f"{run.power} rolls {n} development dice ({cost} IPC): {out['sixes']} six(es)"
            + (f": {', '.join(gained)} developed, usable this turn" if gained else ""),
            "① weapons development", "E12")


def _end(run: Run, args: Mapping[str, Any], dice: Dice) -> None:
    kind = run.pos.due.kind
    if kind == "purchase":
        bought = purchased(run.pos, run.power)
        run.say(f"{run.power} ends its purchase: {units_text(p.unit for p in bought) or 'nothing'}",
                "① purchase")
        return begin_move(run, COMBAT)
    if kind == "combat-move":
        run.say(f"{run.power} ends its combat movement", "② combat movement")
        return begin_combat(run, dice)
    if kind == "non-combat-move":
        check_end_noncombat(run)
        run.say(f"{run.power} ends its non-combat movement", "④ non-combat movement")
        return end_noncombat(run)
    if placeable(run):
        raise RuleViolation("⑤", "units bought this turn can still be placed: place them")
    return end_placement(run)


def _move(run: Run, args: Mapping[str, Any], dice: Dice) -> None:
    phase = COMBAT if run.pos.due.kind == "combat-move" else NONCOMBAT
    plan = plan_move(run, args["from"], args["to"], args["unit"], args["count"], args["via"],
                     phase)
    apply_move(run, plan, phase)
    what = units_text(p.unit for p in plan.pieces)
    how = {"load": "loads", "unload": "unloads", "land": "moves", "sea": "moves",
           "air": "flies"}[plan.kind]
    run.say(f"{run.power} {how} {what} {plan.path[0]} -> {plan.end}"
            + (f" (via {','.join(plan.path[1:-1])})" if len(plan.path) > 2 else ""),
            "② combat movement" if phase == COMBAT else "④ non-combat movement")


def _rocket(run: Run, args: Mapping[str, Any], dice: Dice) -> None:
    gun = check_rocket(run, args["from"], args["target"])
    owner = str(factory_at(run.pos, args["target"]).side)
    rolled = [dice.roll("d6", "rocket_rolls")
              for _ in range(int(const(run.game, "rocket-damage-dice")))]
    money = dict(thaw(run.data("ipc")))
    lost = min(sum(rolled), money[owner])
    money[owner] -= lost
    run.set(ipc=money)
    run.put([evolve_piece(gun, add=["rocket", "moved"])])
    run.say(f"{run.power} fires a rocket from {args['from']} at {args['target']}: "
            f"{' '.join(map(str, rolled))}: {owner} loses {lost} IPC", "① weapons development",
            rolls=rolled)


def _fight(run: Run, args: Mapping[str, Any], dice: Dice) -> None:
    space = args["space"]
    spaces = list(run.data("battles") or ())
    if space not in spaces:
        raise RuleViolation("③ combat", f"no battle in {space} (battles: {', '.join(spaces)})")
    bt.open_battle(run, space)
    next_battle(run, dice)


def _lose(run: Run, args: Mapping[str, Any], dice: Dice) -> None:
    due = run.pos.due
    lost = bt.check_loss(run, args["units"])
    bt.take_losses(run, str(due.data["whose"]), lost, str(due.data["mode"]),
                   str(due.data["step"]))
    next_battle(run, dice)


def _order(run: Run, args: Mapping[str, Any], dice: Dice) -> None:
    bt.set_order(run, args["types"])
    due = run.pos.due
    b = bt.battle(run)
    units = bt.eligible(run, b, str(due.data["whose"]))
    types = bt._by_order(run.game, units, int(due.data["hits"]), args["types"])
    lost = bt.pick(run, units, list(types), str(due.side))
    bt.take_losses(run, str(due.data["whose"]), lost, str(due.data["mode"]),
                   str(due.data["step"]))
    next_battle(run, dice)


def _press(run: Run, args: Mapping[str, Any], dice: Dice) -> None:
    run.say(f"{run.power} fights on in {run.pos.due.data['space']}", "land 6)", "sea 8)")
    next_battle(run, dice)


def _retreat(run: Run, args: Mapping[str, Any], dice: Dice) -> None:
    bt.retreat(run, args["to"])
    next_battle(run, dice)


def _withdraw(run: Run, args: Mapping[str, Any], dice: Dice) -> None:
    bt.withdraw(run, args["count"], args["to"])
    next_battle(run, dice)


def _stay(run: Run, args: Mapping[str, Any], dice: Dice) -> None:
    next_battle(run, dice)


def _place(run: Run, args: Mapping[str, Any], dice: Dice) -> None:
    where, unit_type, count = args["where"], args["unit"], args["count"]
    pieces, site = check_place(run, where, unit_type, count)
    if unit_type != "factory":
        placed = dict(run.data("placed") or {})
        placed[site] = placed.get(site, 0) + count
        run.set(placed=placed)
    run.say(f"{run.power} places {count} {unit_type} in {where}", "⑤")
    run.put(pieces)
    if not purchased(run.pos, run.power):
        collect_income(run)


HANDLERS: dict[str, Callable[[Run, Mapping[str, Any], Dice], None]] = {
    "buy": _buy, "develop": _develop, "end": _end, "move": _move, "rocket": _rocket,
    "fight": _fight,
    "lose": _lose, "order": _order, "press": _press, "retreat": _retreat,
    "withdraw": _withdraw, "stay": _stay, "place": _place,
}


def parse(game: Game, command: str, args: Mapping[str, Any]) -> dict[str, Any]:
    """A command's arguments as the handlers take them; BadInput quoting a bad one."""
    if command in ("buy", "place"):
        out = {"unit": type_arg(game, args.get("unit")), "count": count_arg(args.get("count"))}
        if command == "place":
            out["where"] = space_arg(game, args.get("where"), "where")
        return out
    if command == "develop":
        return {"dice": parse_int(args.get("dice"), "dice", low=1, high=MOST_DICE)}
    if command == "move":
        unit = str(args.get("unit") or "").strip().lower()
        return {"from": space_arg(game, args.get("from"), "from"),
                "to": space_arg(game, args.get("to"), "to"),
                "unit": unit if unit.count(".") == 2 else type_arg(game, unit),
                "count": count_arg(args.get("count")), "via": via_arg(game, args.get("via"))}
    if command == "rocket":
        return {"from": space_arg(game, args.get("from"), "from"),
                "target": space_arg(game, args.get("target"), "target")}
    if command == "fight":
        return {"space": space_arg(game, args.get("space"), "space")}
    if command == "lose":
        return {"units": units_arg(game, args.get("units"))}
    if command == "order":
        types = [type_arg(game, t, "types") for t in str(args.get("types") or "").split(",")
                 if t.strip()]
        if not types:
            raise BadInput(f"types {quote(args.get('types'))}: name unit types "
                           f"({', '.join(unit_types(game))})")
        return {"types": types}
    if command == "retreat":
        to = args.get("to")
        return {"to": space_arg(game, to, "to") if to not in (None, "") else None}
    if command == "withdraw":
        to = args.get("to")
        return {"count": count_arg(args.get("count")),
                "to": space_arg(game, to, "to") if to not in (None, "") else None}
    return {}


# --- the rules a session calls -------------------------------------------------------------


@CODE.session
class AxisAlliesRules(OneScenario):
    """The session rules of Axis & Allies (see the module docstring)."""

    actions = ACTIONS
    scenario = SCENARIO
    hidden = False
    #: a unit destroyed leaves the position (restricted play takes one out so: balance)
    pieces_leave = True
    #: how far agents look ahead by default (engine.agents.lookahead): a battle step fights
    #: a whole round in milliseconds and a game runs to thousands of decisions, so greedy
    #: weighs 16 answers over at most 16 dice sequences (else 2 drawn), MCTS 24 steps 4
    #: deep; both list the answers of 8 options a decision (7 groups of units drawn, and
    #: ``end``), not of every group of a power's units
    lookahead = {"greedy": {"limit": 16, "rolls": 16, "options": 8},
                 "mcts": {"budget": 24, "depth": 4, "width": 8, "options": 8}}

    def scenarios(self, game: Game) -> tuple[ScenarioInfo, ...]:
        return (ScenarioInfo(SCENARIO, "Spring 1942: the Classic board", "",
                             "the five powers' starting forces, IPC and territories; the USSR "
                             "moves first"),)

    def new(self, game: Game, scenario: str, dice: Dice) -> Step:
        run = Run(game, start(game, scenario))
        run.say("set-up: the Classic board, Spring 1942; turn order "
                f"{', '.join(powers(game))}", "sequence of play")
        begin_turn(run)
        return _step(run)

    def apply(self, game: Game, position: Position, command: str, args: Mapping[str, Any],
              dice: Dice) -> Step:
        parsed = parse(game, command, self.checked(command, args))
        self.refuse_when_over(position, command, "victory conditions",
                              over=lambda v: f"{v.winner} win")
        due = position.due
        if command not in KINDS[due.kind][0]:
            raise RuleViolation(due.rule[0], f"{prompt(due)}: {command} does not answer it "
                                             f"({', '.join(KINDS[due.kind][0])})")
        run = Run(game, position)
        HANDLERS[command](run, parsed, dice)
        return _step(run)

    def decision(self, game: Game, position: Position) -> Decision | None:
        if position.over:
            return None
        due = position.due
        run = Run(game, position)
        return Decision(due.side, due.kind, prompt(due), due.rule,
                        tuple(OPTIONS[due.kind](run, due)))

    def player_view(self, game: Game, position: Position, side: str | None = None
                    ) -> dict[str, Any]:
        if side is not None and side not in powers(game):
            raise BadInput(f"side {quote(side)} is not one of {', '.join(powers(game))}")
        return view(game, position, side)

    def referee_view(self, game: Game, position: Position) -> dict[str, Any]:
        return view(game, position, None)

    def summary(self, game: Game, position: Position) -> dict[str, Any] | None:
        return summary_of(position)

    def score(self, game: Game, position: Position, side: str | None) -> float:
        """What agents maximise: the alliance's lead in IPC (``score.py``)."""
        return alliance_score(game, position, side)

    def broken(self, game: Game, before: Position | None,
               action: tuple[str, Mapping[str, Any]] | None, after: Position) -> list[str]:
        return invariants.broken(game, before, action, after)

    def render_player_map(self, game: Game, position: Position, fmt: str = "svg") -> bytes:
        return draw(game, position, fmt)

    render_referee_map = render_player_map


def _step(run: Run) -> Step:
    """The new position with this command's events kept for the views (this power turn's
    and the last's), and the events as the step's announcements."""
    key = int(run.pos.data.get("turn_key") or 0)
    kept = [e for e in run.pos.data.get("events") or () if e["key"] >= key - EVENT_TURNS + 1]
    events = tuple(kept) + tuple(freeze({**a.as_json(), "key": key}) for a in run.said)
    events = events[-MOST_EVENTS:]
    run.pos = replace(run.pos, data=FrozenDict({**run.pos.data, "events": events}))
    return Step(run.pos, tuple(run.said))


__all__ = ["AxisAlliesRules"]

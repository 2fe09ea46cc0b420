"""Nimitz played in a session (``warpress play``), solitaire: the rules, charts and dice run
the Japanese side, the player commands the US from the set-up to the end of a campaign.

The position is ``positions.py``'s; the Japanese procedures are ``japan.py`` (orders of
``orders.py``), the battles ``battle.py`` (procedures of ``combat.py``), the US checks
``moves.py``, the phases that run by themselves ``phases.py``. This module runs the
sequence of play (5.1) and asks each decision of the US player:

===================== ===============================================================
decision (``due``)    answers
===================== ===============================================================
supply (6.2, 6.3)     ``buy UNIT``; ``repair UNIT``; ``done``
recon (7.1)           ``recon POINT`` (1 SP, a point with Japanese units); ``done``
move (8.x, 12.2-12.3) ``move UNIT POINT``; ``raid UNIT`` (8.4); ``bomb UNIT`` (12.2);
                      ``invade UNIT`` (12.3); ``done``
bw-target (12.2)      ``target UNIT``: a Japanese unit in Japan, one per BW bombing
jp-order (9.0(4))     ``determine POINT``: the next point whose Japanese units are
                      determined (when several are left)
battle-order (10.0)   ``fight POINT`` (when several battles are left)
place (10.1.2)        ``place UNIT AREA``: a US ship's area; a submarine's (E22)
bonus (10.5)          ``bonus MARKER``; ``spend`` (1 SP: 3 BPP); ``done``
strike (10.5)         ``strike UNIT AREA`` (a US carrier's first strike); ``pass``
fly (10.8)            ``fly UNIT AREA``: each US aircraft, each round
hit (10.10.2, 1.3)    ``hit UNIT``: which of the units tied for a hit takes it
remove (10.20.4,      ``remove UNIT``: a US aircraft with no room to land
10.21.2)
pin (10.5)            ``pin longer|shorter``; ``pass``
===================== ===============================================================

Everything else follows by itself: the turn marker, the points, the Japanese recon and
movement determinations, the Japanese set-up and aircraft in battle, combat, the
reinforcement, repair, return-to-port, supply and defeat checks, and the verdict. The
scenarios are the four campaigns and ``linked`` (12.6: 1942 to 1945 in a row).
"""

from __future__ import annotations

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
from . import battle as bt
from . import fire
from . import japan as jp
from . import moves as mv
from . import phases as ph
from .choices import options, prompt_of
from .positions import (
    BOMBING,
    JAPAN,
    LINKED,
    TURN_TRACK,
    US,
    Run,
    assumed_setup,
    campaign,
    point_ids,
    point_name,
    setup_run,
    special,
    turn_values,
)
from .views import summary_of, view

CAMPAIGNS = ("1942", "1943", "1944", "1945")
SCENARIOS = (*CAMPAIGNS, LINKED)
#: each decision: the actions that answer it and the rules behind it
KINDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "supply": (("buy", "repair", "done"), ("6.2", "6.3")),
    "recon": (("recon", "done"), ("7.1",)),
    "move": (("move", "raid", "bomb", "invade", "done"), ("8.1", "8.4", "12.2", "12.3")),
    "bw-target": (("target",), ("12.2",)),
    "jp-order": (("determine",), ("9.0",)),
    "battle-order": (("fight",), ("10.0",)),
    "place": (("place",), ("10.1.2",)),
    "bonus": (("bonus", "spend", "done"), ("10.5",)),
    "strike": (("strike", "pass"), ("10.5",)),
    "fly": (("fly",), ("10.8",)),
    "hit": (("hit",), ("10.10.2", "1.3")),
    "remove": (("remove",), ("10.20.4", "10.21.2")),
    "pin": (("pin", "pass"), ("10.5",)),
}
UNIT = Arg("unit", "a unit's id (warpress play status lists them)")
POINT = Arg("point", "a point's id, e.g. midway")
AREA = Arg("area", "a battle area: japanese-sea, island, coastal or us-sea")

ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec("buy", "Buy a unit of the US reinforcement box for its cost, RP first (6.2).",
               (UNIT,)),
    ActionSpec("repair", "Repair a damaged US unit: half its cost in SP, at least 1 (6.3).",
               (UNIT,)),
    ActionSpec("recon", "Put a recon marker (1 SP) on a point with Japanese units: they are "
                        "determined before US movement (7.1).", (POINT,)),
    ActionSpec("move", "Move a US unit to a point, any distance, 1 SP; once a turn (8.1).",
               (UNIT, POINT)),
    ActionSpec("raid", "Send a US submarine commerce raiding, 1 SP: the Japanese "
                       "reinforcement roll -2 (8.4).", (UNIT,)),
    ActionSpec("bomb", "Send a BW from the Marianas to the strategic-bombing box, 1 SP "
                       "(12.2).", (UNIT,)),
    ActionSpec("invade", "Put a unit at Hawaii or the West Coast into the Japan-invasion box, "
                         "1 SP, at most 7 a phase (12.3).", (UNIT,)),
    ActionSpec("target", "Strategic bombing: a Japanese unit in Japan goes to the "
                         "reinforcement box (12.2).", (UNIT,)),
    ActionSpec("determine", "The point whose Japanese units are determined next (9.0(4)).",
               (POINT,)),
    ActionSpec("fight", "The point whose battle is fought next (10.0).", (POINT,)),
    ActionSpec("place", "A US ship's area in the battle: us-sea or coastal; a submarine's: an "
                        "area with Japanese ships (10.1.2).", (UNIT, AREA)),
    ActionSpec("bonus", "Buy a US battle-bonus marker with battle-plan points (10.5).",
               (Arg("marker", "the marker's id, e.g. melee"),)),
    ActionSpec("spend", "Spend 1 SP on the battle: 3 more battle-plan points (10.5)."),
    ActionSpec("strike", "First strike: a US carrier's aircraft attack an area (10.5).",
               (UNIT, AREA)),
    ActionSpec("fly", "Send a US aircraft to a battle area this round (10.8).", (UNIT, AREA)),
    ActionSpec("hit", "Which of the units tied for the next hit takes it (10.10.2, 1.3); the "
                      "airfields are us-airfield and japanese-airfield.", (UNIT,)),
    ActionSpec("remove", "A US aircraft removed: no room on its carrier or airfield "
                         "(10.20.4, 10.21.2).", (UNIT,)),
    ActionSpec("pin", "Pinning marker: the battle one round longer or shorter (10.5).",
               (Arg("way", "longer or shorter"),)),
    ActionSpec("pass", "No first strike now; or keep the pinning marker (10.5)."),
    ActionSpec("done", "Finish this phase's purchases, recon or moves, or the battle's "
                       "bonus markers."),
)

def ask(run: Run, kind_: str) -> None:
    """A campaign-phase decision due, with the points the player has left."""
    run.due(kind_, KINDS[kind_][1], rp=int(run.data.get("rp", 0)), sp=int(run.data.get("sp", 0)))


#: how many events the position keeps (this turn's and the last's)
EVENT_TURNS = 2


# --- the sequence of play (5.1) -----------------------------------------------------------------


def begin_campaign(run: Run, dice: Dice) -> None:
    """3.0-3.4 done (``setup_run``); say what is assumed, then the first turn."""
    camp = run.campaign
    assumed = assumed_setup(run.game, camp)
    run.say(f"{campaign(run.game, camp).label}: set up" + (
        f"; assumed where the rules give no set-up: {', '.join(assumed)} (source: assumed)"
        if assumed else ""), "3.0", "3.3", "3.4", assumed=assumed)
    begin_turn(run, dice)


def begin_turn(run: Run, dice: Dice) -> None:
    """5.1 the turn marker; 6.1 the points; then the purchases (6.2, 6.3)."""
    values = turn_values(run.game, run.campaign)
    turn = run.pos.turn + 1
    run.pos = replace(run.pos, turn=turn, tracks=FrozenDict({TURN_TRACK: values[turn - 1]}))
    for p in list(run.pieces.values()):
        if p.side == US and {"moved", "raider"} & p.flags:
            run.flag(p.id, drop=("moved", "raider"))
    run.data.update(recon=[], raiders=0, invaded=0)
    run.phase("advance-turn-marker", US)
    run.say(f"turn {turn} ({values[turn - 1]}): the turn marker advances", "5.1")
    run.phase("us-supply", US)
    ph.receive_points(run)
    ask(run, "supply")


def end_supply(run: Run, dice: Dice) -> None:
    run.phase("us-recon", US)
    ask(run, "recon")


def end_recon(run: Run, dice: Dice) -> None:
    """7.2: one determination per marker, its units marked moving; then US movement."""
    run.data["garrison_start"] = sorted(jp.garrisons(run))
    for point in run.data.get("recon", []):
        if jp.determine_at(run, point, dice, recon=True) is None:
            run.say(f"recon at {point_name(run.game, point)}: no Japanese unit left to "
                    "determine", "7.2")
    run.data.pop("garrison_start", None)
    run.data["recon"] = []
    run.phase("us-movement", US)
    view = jp.map_view(run)
    run.data["us_start"] = sorted(view.us_ground_or_air)
    ask(run, "move")


def end_movement(run: Run, dice: Dice) -> None:
    """9.0: the Japanese movement phase; 12.2 first, the BWs' removals chosen by the
    player."""
    run.phase("japanese-movement", JAPAN)
    bws = len(run.at(BOMBING, US, "box"))
    run.data["bw_due"] = bws if "12.2" in special(run.game, run.campaign) else 0
    next_bombing(run, dice)


def next_bombing(run: Run, dice: Dice) -> None:
    if int(run.data.get("bw_due", 0)) > 0 and jp.bombing_targets(run):
        run.due("bw-target", KINDS["bw-target"][1], left=int(run.data["bw_due"]))
        return
    run.data["bw_due"] = 0
    run.data["garrison_start"] = sorted(jp.garrisons(run))
    jp.freeze_at_start(run)
    next_point(run, dice)


def next_point(run: Run, dice: Dice) -> None:
    """9.0(4): point by point, every unit of a point determined before the next; the player
    picks the next point while several are left."""
    left = jp.undetermined(run)
    if len(left) > 1:
        run.due("jp-order", KINDS["jp-order"][1], points=left)
        return
    if left:
        determine_point(run, left[0], dice)
        return next_point(run, dice)
    jp.finish_phase(run, dice)
    begin_combat(run, dice)


def determine_point(run: Run, point: str, dice: Dice, limit: int = 50) -> None:
    """9.1: roll until every unit there has moved or been frozen."""
    for _ in range(limit):
        if jp.determine_at(run, point, dice) is None:
            return
    raise RuleViolation("9.1", f"more than {limit} determinations at {point!r}")


# --- 10.0: the combat phase --------------------------------------------------------------------


def battle_points(run: Run) -> list[str]:
    """Points with units of both sides, not fought yet this phase (10.0)."""
    fought = set(run.data.get("fought", []))
    us = {str(p.place) for p in run.of(US)}
    japan = {str(p.place) for p in run.of(JAPAN)}
    return [p for p in point_ids(run.game) if p in us & japan and p not in fought]


def begin_combat(run: Run, dice: Dice) -> None:
    run.phase("combat", US)
    run.data["fought"] = []
    next_battle(run, dice)


def next_battle(run: Run, dice: Dice) -> None:
    """10.0: a battle at every point with both sides' units, in the player's order; 11.5.2:
    Japanese units at Hawaii with no US unit to fight them lose the campaign."""
    if run.at("hawaiian-islands", JAPAN) and not run.at("hawaiian-islands", US):
        return lose(run, ph.hawaii_verdict(run, "Japanese units stand in the Hawaiian "
                                                "Islands and no battle removes them"))
    left = battle_points(run)
    if len(left) > 1:
        run.due("battle-order", KINDS["battle-order"][1], points=left)
        return
    if left:
        return start_battle(run, left[0], dice)
    after_combat(run, dice)


def start_battle(run: Run, point: str, dice: Dice) -> None:
    run.data["fought"] = [*run.data.get("fought", []), point]
    bt.begin(run, point)
    continue_battle(run, dice)


def continue_battle(run: Run, dice: Dice) -> None:
    bt.advance(run, dice)
    if run.data.get("hawaii_lost"):
        return lose(run, ph.hawaii_verdict(run, "Japanese units are left in the Hawaiian "
                                                "Islands after battle round 1"))
    if run.data.get("battle") is None:
        next_battle(run, dice)


def after_combat(run: Run, dice: Dice) -> None:
    """12.2 BWs back to the Marianas; 11.1-11.5 to the turn's end."""
    for p in run.at(BOMBING, US, "box"):
        run.place(p.id, "point", "mariana-islands")
        run.say(f"{p.unit} back to the Marianas", "12.2")
    for p in list(run.pieces.values()):
        if "transport" in p.flags:
            run.flag(p.id, drop=("transport",))
    run.phase("japanese-reinforcement", JAPAN)
    jp.reinforce(run, dice)
    run.phase("japanese-repair", JAPAN)
    jp.repair(run)
    run.phase("us-port-return", US)
    ph.return_to_port(run)
    run.phase("us-supply-check", US)
    ph.supply_check(run)
    run.phase("us-defeat-check", US)
    if ph.defeat_check(run):
        return lose(run, ph.dismissal_verdict(run))
    if run.pos.turn >= len(turn_values(run.game, run.campaign)):
        return end_campaign(run, dice)
    begin_turn(run, dice)


def lose(run: Run, verdict) -> None:
    """11.5: the campaign (a linked campaign too, 12.6) is lost at once."""
    finish(run, verdict)


def end_campaign(run: Run, dice: Dice) -> None:
    """5.0, 4.0: the victory level; in a linked campaign (12.6) the next year, or the total
    after 1945."""
    total, why = ph.final_count(run)
    verdict = ph.campaign_verdict(run, total, why)
    run.say(f"the {run.campaign} campaign ends: {verdict.reason}", *verdict.rule)
    if not run.data.get("linked"):
        return finish(run, verdict)
    results = [*run.data.get("results", []), {"campaign": run.campaign, "total": total,
                                               "level": verdict.result}]
    if run.campaign == CAMPAIGNS[-1]:
        run.data["results"] = results
        return finish(run, ph.linked_verdict(run, results))
    nxt = CAMPAIGNS[CAMPAIGNS.index(run.campaign) + 1]
    fresh = setup_run(run.game, nxt, dice, run.position())
    fresh.said = run.said
    fresh.data.update(linked=True, results=results, events=[])
    run.pos, run.pieces, run.data = fresh.pos, fresh.pieces, fresh.data
    begin_campaign(run, dice)


def finish(run: Run, verdict) -> None:
    run.say(f"game over: {verdict.result}: {verdict.reason}", *verdict.rule)
    run.pos = replace(run.pos, pending=(), verdict=verdict, phase="over", side=None)


# --- handlers: one per action ---------------------------------------------------------------------


def _buy(run: Run, args: Mapping[str, Any], dice: Dice) -> None:
    mv.buy(run, mv.us_piece(run, args.get("unit")))
    ask(run, "supply")


def _repair(run: Run, args: Mapping[str, Any], dice: Dice) -> None:
    mv.repair(run, mv.us_piece(run, args.get("unit")))
    ask(run, "supply")


def _recon(run: Run, args: Mapping[str, Any], dice: Dice) -> None:
    mv.recon(run, mv.point_arg(run, args.get("point")))
    ask(run, "recon")


def _move(run: Run, args: Mapping[str, Any], dice: Dice) -> None:
    mv.move(run, mv.us_piece(run, args.get("unit")), mv.point_arg(run, args.get("point")))
    ask(run, "move")


def _mission(action: Callable[[Run, Any], None]):
    def handler(run: Run, args: Mapping[str, Any], dice: Dice) -> None:
        action(run, mv.us_piece(run, args.get("unit")))
        ask(run, "move")
    return handler


def _done(run: Run, args: Mapping[str, Any], dice: Dice) -> None:
    due = run.pos.pending[0].kind
    run.clear_due()
    if due == "supply":
        end_supply(run, dice)
    elif due == "recon":
        end_recon(run, dice)
    elif due == "move":
        end_movement(run, dice)
    else:
        run.say(f"battle-plan points left unspent: {bt.state(run)['bpp']} (lost)", "10.5")
        bt.after_answer(run, "round-start")
        continue_battle(run, dice)


def _target(run: Run, args: Mapping[str, Any], dice: Dice) -> None:
    piece = mv.japanese_piece(run, args.get("unit"))
    if piece.id not in jp.bombing_targets(run):
        raise RuleViolation("12.2", f"{piece.id!r} is not a Japanese unit in Japan")
    run.clear_due()
    jp.bomb(run, piece.id)
    run.data["bw_due"] = int(run.data["bw_due"]) - 1
    next_bombing(run, dice)


def _determine(run: Run, args: Mapping[str, Any], dice: Dice) -> None:
    point = mv.point_arg(run, args.get("point"))
    if point not in run.pos.pending[0].data["points"]:
        raise RuleViolation("9.0", f"no Japanese unit to determine at "
                                   f"{point_name(run.game, point)}")
    run.clear_due()
    determine_point(run, point, dice)
    next_point(run, dice)


def _fight(run: Run, args: Mapping[str, Any], dice: Dice) -> None:
    point = mv.point_arg(run, args.get("point"))
    if point not in battle_points(run):
        raise RuleViolation("10.0", f"no battle to fight at {point_name(run.game, point)}")
    run.clear_due()
    start_battle(run, point, dice)


def _place(run: Run, args: Mapping[str, Any], dice: Dice) -> None:
    unit, area = str(args.get("unit")), str(args.get("area"))
    if unit in bt.unplaced_subs(run) and not bt.unplaced_us_ships(run):
        bt.place_sub(run, unit, area)
    else:
        bt.place_us_ship(run, unit, area)
    bt.after_answer(run)
    continue_battle(run, dice)


def _bonus(run: Run, args: Mapping[str, Any], dice: Dice) -> None:
    bt.buy_bonus(run, str(args.get("marker")))
    run.due("bonus", KINDS["bonus"][1], bpp=bt.state(run)["bpp"])


def _spend(run: Run, args: Mapping[str, Any], dice: Dice) -> None:
    bt.spend(run)
    run.due("bonus", KINDS["bonus"][1], bpp=bt.state(run)["bpp"])


def _strike(run: Run, args: Mapping[str, Any], dice: Dice) -> None:
    bt.strike(run, str(args.get("unit")), str(args.get("area")))
    bt.after_answer(run)
    continue_battle(run, dice)


def _pass(run: Run, args: Mapping[str, Any], dice: Dice) -> None:
    due = run.pos.pending[0].kind
    run.say("no first strike this round" if due == "strike" else "the pinning marker is kept",
            "10.5")
    bt.after_answer(run, "jp-strike" if due == "strike" else "next-round")
    continue_battle(run, dice)


def _fly(run: Run, args: Mapping[str, Any], dice: Dice) -> None:
    bt.fly(run, str(args.get("unit")), str(args.get("area")))
    bt.after_answer(run)
    continue_battle(run, dice)


def _hit(run: Run, args: Mapping[str, Any], dice: Dice) -> None:
    fire.take_hit(run, str(args.get("unit")))
    bt.after_answer(run)
    continue_battle(run, dice)


def _remove(run: Run, args: Mapping[str, Any], dice: Dice) -> None:
    bt.remove(run, str(args.get("unit")))
    continue_battle(run, dice)


def _pin(run: Run, args: Mapping[str, Any], dice: Dice) -> None:
    way = str(args.get("way"))
    if way not in ("longer", "shorter"):
        raise BadInput(f"pin {quote(way)}: longer or shorter")
    bt.pin(run, way)
    bt.after_answer(run, "next-round")
    continue_battle(run, dice)


HANDLERS: dict[str, Callable[[Run, Mapping[str, Any], Dice], None]] = {
    "buy": _buy, "repair": _repair, "recon": _recon, "move": _move,
    "raid": _mission(mv.raid), "bomb": _mission(mv.bomb), "invade": _mission(mv.invade),
    "target": _target, "determine": _determine, "fight": _fight, "place": _place,
    "bonus": _bonus, "spend": _spend, "strike": _strike, "pass": _pass, "fly": _fly,
    "hit": _hit, "remove": _remove, "pin": _pin, "done": _done,
}


# --- the rules a session calls -----------------------------------------------------------------


@CODE.session
class NimitzRules(PositionRules):
    """The session rules of Nimitz, solitaire (see the module docstring)."""

    actions = ACTIONS
    hidden = False

    def scenarios(self, game: Game) -> tuple[ScenarioInfo, ...]:
        out = []
        for camp_id in CAMPAIGNS:
            camp = campaign(game, camp_id)
            assumed = " (set-up assumed)" if _all_assumed(game, camp_id) else (
                " (set-up partly assumed)" if assumed_setup(game, camp_id) else "")
            out.append(ScenarioInfo(camp_id, f"{camp.label}{assumed}", "",
                                    f"{camp.get('turns')} turns, {len(camp.get('objectives'))} "
                                    f"objectives; special rules "
                                    f"{', '.join(special(game, camp_id)) or 'none'}"))
        out.append(ScenarioInfo(LINKED, "Linked campaign 1942-1945 (12.6)", "",
                                "the four campaigns in a row; the total decides"))
        return tuple(out)

    def scenario_file(self, game: Game, name_or_path: str | None) -> None:
        self.load_scenario(game, name_or_path)
        return None

    def load_scenario(self, game: Game, name_or_path: str | None) -> str:
        if name_or_path is None:
            return CAMPAIGNS[0]
        if name_or_path not in SCENARIOS:
            raise BadInput(f"scenario {quote(name_or_path)} is not one of {game.id}'s "
                           f"({', '.join(SCENARIOS)})")
        return name_or_path

    def new(self, game: Game, scenario: str, dice: Dice) -> Step:
        first = CAMPAIGNS[0] if scenario == LINKED else scenario
        base = Position(game=game.id, scenario=scenario)
        run = setup_run(game, first, dice, base)
        run.data["linked"] = scenario == LINKED
        begin_campaign(run, dice)
        return _step(run)

    def apply(self, game: Game, position: Position, command: str, args: Mapping[str, Any],
              dice: Dice) -> Step:
        self.checked(command, args)
        self.refuse_when_over(position, command, "4.0", what="campaign")
        due = position.due
        if command not in KINDS[due.kind][0]:
            raise RuleViolation(due.rule[0] if due.rule else "5.0",
                                f"{prompt(game, due)}: {command} does not answer it "
                                f"({', '.join(KINDS[due.kind][0])})")
        run = Run(game, position)
        HANDLERS[command](run, args, dice)
        return _step(run)

    def decision(self, game: Game, position: Position) -> Decision | None:
        if position.over or not position.pending:
            return None
        due = position.due
        run = Run(game, position)
        return Decision(due.side, due.kind, prompt(game, due), due.rule,
                        tuple(options(run, due)))

    def player_view(self, game: Game, position: Position, side: str | None = None
                    ) -> dict[str, Any]:
        if side is not None and side not in (US, JAPAN):
            raise BadInput(f"side {quote(side)} is not one of us, japan")
        return view(game, position, awaiting(position))

    def score(self, game: Game, position: Position, side: str) -> float:
        """What the looking-ahead agents maximise (engine/agents.py): the US score of
        phases.us_score, its negative for Japan."""
        us = ph.us_score(Run(game, position))
        return us if side == US else -us

    def referee_view(self, game: Game, position: Position) -> dict[str, Any]:
        return self.player_view(game, position)

    def summary(self, game: Game, position: Position) -> dict[str, Any] | None:
        return summary_of(position)

    def render_player_map(self, game: Game, position: Position, fmt: str = "svg") -> bytes:
        from .mapview import draw_position  # the kit's map (reportlab): only when one is drawn

        return draw_position(game, position, fmt)

    render_referee_map = render_player_map


def _all_assumed(game: Game, camp_id: str) -> bool:
    records = [r for r in game.setup if str(r.scenario) == camp_id]
    return bool(records) and all(r.is_assumed for r in records)


def awaiting(position: Position) -> list[str]:
    if position.over or not position.pending:
        return []
    return list(KINDS[position.due.kind][0])


def prompt(game: Game, due) -> str:
    return prompt_of(game, due)


def _step(run: Run) -> Step:
    """The position with this command's events kept for the views (this turn's and the
    last's), and the events as the step's announcements."""
    pos = run.position()
    last = pos.turn - EVENT_TURNS + 1
    kept = tuple(e for e in pos.data.get("events") or () if last <= e["turn"] <= pos.turn)
    events = kept + tuple(freeze(a.as_json()) for a in run.said)
    pos = replace(pos, data=FrozenDict({**pos.data, "events": events}))
    return Step(pos, tuple(run.said))


__all__ = ["NimitzRules"]

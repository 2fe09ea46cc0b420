"""The sequence of play of a Midway session (5.0; the night turn 10.0; the solitaire
changes 12.3): each phase either asks the decision due or does what follows by itself and
hands over to the next phase.

:func:`proceed` runs the phases from the position's ``phase`` up to the next decision (or
the verdict). The air attack going on (``strikes.py``) comes first; then the phase:

==================================  =========================================================
phase                               what happens
==================================  =========================================================
setup                               two-player: each side arranges its aircraft (3.1-3.2)
base-attack-declaration             the Japanese declare a base attack or not (6.4(1))
us-movement-planning                two-player: the US writes its plan (6.2(1))
japanese-movement                   the Japanese fleets move (6.3); a base attack's range
base-attack                         the declared base attack's air operations (6.4(3))
us-movement-execution               the plan revealed (6.2(2), 6.1(4)); solitaire: the card
                                    drawn (12.3(2)); a night surface battle (10.1(2))
search                              search cards (11.0(2)), the AOP (7.x; none at night)
air-operations                      initiative (8.1; solitaire 12.3(3)) and air operations
night-air-operations                each side's special night operation (10.2(2))
end-of-turn                         the landing (10.3), card 01 and victory (4.1-4.3)
==================================  =========================================================
"""

from __future__ import annotations

from dataclasses import replace

from warpress.engine.model import FrozenDict
from warpress.engine.position import Position, Verdict

from . import area as A
from . import combat as C
from . import landing as L
from . import movement as M
from . import night as N
from . import search as S
from . import solitaire as SOL
from . import strikes
from . import victory as V
from .common import carriers, const, distance, midway_hex
from .movement import us_final_hex
from .moves import (
    SIDES,
    Run,
    afloat,
    groups_in_air,
    return_displays,
    side_of,
)
from .positions import (
    AOP,
    DECK,
    DISCARD,
    ICHIKOKAN,
    INVASION,
    REMOVED,
    US_FLEET,
    fleet_hex,
    hand,
    japanese_hexes,
    move_cards,
    moved_fleet,
    number_of,
    pile,
    shuffled,
)

PROTOTYPE, MALFUNCTION, SCUTTLING = "02", "07", "01"
#: the phase after each (a day turn)
NEXT = {"base-attack-declaration": "us-movement-planning",
        "us-movement-planning": "japanese-movement", "japanese-movement": "base-attack",
        "base-attack": "us-movement-execution", "us-movement-execution": "search",
        "search": "air-operations", "air-operations": "end-of-turn",
        "night-air-operations": "end-of-turn"}
#: what a turn starts afresh
TURN_DATA = {"declared": None, "base_ops": 0, "base_ops_done": 0, "base_attackers": 0,
             "plan": None, "moved": [], "moves_done": False, "executed": False,
             "search": None, "op": None, "strike": None, "night_done": [],
             "surface": None, "landing": None, "scuttle": None, "initiative": None}


def proceed(run: Run) -> None:
    """Run the game up to the next decision or the verdict."""
    for _ in range(100_000):
        if run.pos.over or run.pos.pending:
            return
        if strikes.proceed(run):
            return
        if PHASES[run.pos.phase or "setup"](run):
            return
    raise RuntimeError("the Midway session made no progress")  # pragma: no cover


def go(run: Run, phase: str) -> bool:
    """Hand over to ``phase``; False: the loop goes on."""
    run.pos = replace(run.pos, phase=phase)
    return False


# --- set-up and the turn ------------------------------------------------------------------


def _setup(run: Run) -> bool:
    ready = run.get("ready", [])
    for side in SIDES:
        if side not in ready:
            run.due("setup", side)
            return True
    run.say("both sides are ready: turn 1 begins", "3.0", "5.0")
    return begin_turn(run, 1)


def begin_turn(run: Run, turn: int) -> bool:
    run.pos = replace(run.pos, turn=turn)
    run.set(**TURN_DATA)
    run.put(A.new_turn(run.area))
    for side in SIDES:
        run.pos = run.pos.with_track(AOP[side], const(run.game, "aop-start"))
    return go(run, "base-attack-declaration")


def _declaration(run: Run) -> bool:
    if run.night:
        run.set(declared=False)
        return go(run, NEXT["base-attack-declaration"])
    if run.get("declared") is None:
        run.due("declare", "japan")
        return True
    return go(run, NEXT["base-attack-declaration"])


def can_declare(run: Run) -> bool:
    """A base attack is possible: an attack aircraft is on a Japanese deck to launch (6.4(3))
    and the 1st Air Fleet can end its move within range of Midway (6.4(2))."""
    game, area = run.game, run.area
    if not any(A.attack_aircraft_on_deck(game, area, c) for c in afloat(area, game, "japan")):
        return False
    reach = const(game, "base-attack-range")
    allowance = M.allowance(game, "ichikokan", run.pos.turn)
    here = fleet_hex(run.pos, ICHIKOKAN)
    if here is None:
        starts = M.entry_hexes(game, ICHIKOKAN)
        allowance -= const(game, "entry-hex-cost")
    else:
        starts = (here,)
    return any(distance(game, h, midway_hex(game)) - allowance <= reach for h in starts)


def _planning(run: Run) -> bool:
    if run.solitaire or run.get("plan") is not None:
        return go(run, NEXT["us-movement-planning"])
    run.due("plan", "us")
    return True


def _movement(run: Run) -> bool:
    if run.get("moves_done"):
        return go(run, NEXT["japanese-movement"])
    run.due("movement", "japan")
    return True


def _base_attack(run: Run) -> bool:
    if not run.get("declared") or run.get("base_ops_done", 0) >= run.get("base_ops", 0):
        return go(run, NEXT["base-attack"])
    if run.op is None:
        start_op(run, "japan", "base")
    run.due("base-op", "japan", number=run.get("base_ops_done", 0) + 1,
            of=run.get("base_ops", 0))
    return True


# --- air operations -----------------------------------------------------------------------


def start_op(run: Run, side: str, kind: str) -> None:
    """An air operation begins (8.2): the units on deck now may launch (8.4(1)), the groups
    in the combat area now must move (8.5)."""
    game, area = run.game, run.area
    deck = [u.uid for c in afloat(area, game, side) + [A.base_holder(game)]
            for u in A.on_deck(game, area, c) if side_of(game, u) == side]
    due = [g for g, units in groups_in_air(area).items() if side_of(game, units[0]) == side]
    run.set(op={"side": side, "kind": kind, "deck": deck, "due": due, "moved": [],
                "forming": {}, "flown": []})


def op_decision(run: Run) -> bool:
    op = run.op
    kind = {"air": "air-op", "base": "base-op", "night": "night-op"}[op["kind"]]
    extra = {}
    if op["kind"] == "base":
        extra = {"number": run.get("base_ops_done", 0) + 1, "of": run.get("base_ops", 0)}
    run.due(kind, op["side"], **extra)
    return True


def end_op(run: Run) -> None:
    """The air operation ends: the units left in the Return boxes make their forced moves
    (8.3(1)(3)); a base-attack operation is counted (6.4(3))."""
    op = run.op
    before = {u.uid for u in run.area.units}
    if op["kind"] != "night":
        left = [u for u in run.area.units if u.uid not in op["moved"] and not u.airborne
                and A.box(run.game, u.display, u.box).kind == "return"
                and side_of(run.game, u) == op["side"]]
        where = {u.uid: u.box for u in left}
        run.put(A._forced(run.game, run.area, left, A.first_choice))
        moved = [f"{u.uid} {where[u.uid]} -> {u.box}" for u in run.area.units
                 if u.uid in where]
        if moved:
            run.say(f"forced moves: {', '.join(moved)}", "8.3(1)")
        lost = before - {u.uid for u in run.area.units}
        if lost:
            run.say(f"no carrier can take {', '.join(sorted(lost))} from Return 1: removed "
                    f"from the game", "8.3(3)")
    if op["kind"] == "base":
        run.set(base_ops_done=run.get("base_ops_done", 0) + 1)
    if op["kind"] == "night":
        run.set(night_done=[*run.get("night_done", []), op["side"]])
    run.set(op=None)


def _air_operations(run: Run) -> bool:
    if run.op is not None:
        return op_decision(run)
    japan, us = run.aop("japan"), run.aop("us")
    if japan <= 0 and us <= 0:
        return go(run, NEXT["air-operations"])
    winner = initiative(run, japan, us)
    run.pos = run.pos.with_track(AOP[winner], S.spend_aop(run.game, run.aop(winner)))
    start_op(run, winner, "air")
    return op_decision(run)


def initiative(run: Run, japan: int, us: int) -> str:
    """Who flies the next air operation: by the initiative roll (8.1), with the card of an
    unequal tie; in solitaire the side with more AOP, the US on a tie (12.3(3))."""
    game = run.game
    if run.solitaire:
        winner = S.solitaire_initiative(game, japan, us)
        run.say(f"{winner} flies an air operation (AOP japan {japan}, us {us}; no initiative "
                f"roll)", "12.3(3)")
        return winner
    deck = pile(run.pos, DECK)
    while True:
        result = S.roll_initiative(game, japan, us, len(deck), run.dice)
        if result.winner != "reroll":
            break
        run.say(f"initiative: {result.japan_total} to {result.us_total} with equal AOP: roll "
                "again", "8.1(2)")
    if result.japan_total is None:
        run.say(f"{result.winner} has the initiative (the other side has no AOP)", "8.1(3)")
    else:
        run.say(f"initiative: japan {result.japan_total}, us {result.us_total}: "
                f"{result.winner}", "8.1(1)", *(("8.1(2)",) if result.draws_card else ()))
    if result.draws_card and deck:
        run.pos = move_cards(run.pos, [(deck[0], DECK, hand(result.winner))])
        run.say(f"{result.winner} draws an event card (the tie went to the side with more "
                "AOP)", "8.1(2)")
    run.set(initiative={"winner": result.winner, "japan": result.japan_total,
                        "us": result.us_total})
    return result.winner


# --- US movement ------------------------------------------------------------------------


def _execution(run: Run) -> bool:
    if run.get("surface"):
        return surface_hits(run)
    if run.get("executed"):
        return go(run, NEXT["us-movement-execution"])
    run.set(executed=True)
    if run.solitaire:
        solitaire_move(run)
    else:
        reveal_plan(run)
    if run.night and not run.solitaire:
        return start_surface_battle(run)
    return False


def draw_move_card(run: Run) -> str | None:
    """The US movement card (12.3(2)): the deck's top card; #08 sends the discards and the
    deck (not #08) back to a shuffled deck and the US draws again (E21); an empty deck takes
    the discards shuffled (E31)."""
    game = run.game
    for _ in range(len(game.cards) + 1):
        deck = pile(run.pos, DECK)
        if not deck:
            discards = pile(run.pos, DISCARD)
            if not discards:
                return None
            run.pos = move_cards(run.pos, [(c, DISCARD, DECK) for c in discards])
            run.pos = _reorder(run.pos, DECK, shuffled(discards, run.dice))
            run.say("the deck is empty: the discards are shuffled into a new deck", "12.3(2)")
            continue
        card = deck[0]
        if SOL.move_card(game, number_of(game, card))["move"] == SOL.RESHUFFLE:
            run.pos = move_cards(run.pos, [(card, DECK, REMOVED)])
            back = pile(run.pos, DISCARD)
            run.pos = move_cards(run.pos, [(c, DISCARD, DECK) for c in back])
            run.pos = _reorder(run.pos, DECK, shuffled(pile(run.pos, DECK), run.dice))
            run.say(f"the US draws #{card}: the discards and the deck are shuffled together and "
                    "the US draws again", "12.3(2)")
            continue
        run.pos = move_cards(run.pos, [(card, DECK, DISCARD)])
        return card
    return None  # pragma: no cover


def _reorder(position: Position, name: str, cards: tuple[str, ...]) -> Position:
    return replace(position, cards=FrozenDict({**position.cards, name: cards}))


def solitaire_move(run: Run) -> None:
    """12.3(2): the card drawn moves the US fleet toward or away from the 1st Air Fleet."""
    game = run.game
    card = draw_move_card(run)
    start = fleet_hex(run.pos, US_FLEET)
    if card is None:
        run.say("no card is left: the US fleet does not move", "12.3(2)")
        return
    row = SOL.move_card(game, number_of(game, card))
    end = SOL.solitaire_move(game, start, fleet_hex(run.pos, ICHIKOKAN), number_of(game, card),
                             turn=run.pos.turn, japan_hexes=japanese_hexes(run.pos))
    run.pos = moved_fleet(run.pos, US_FLEET, end)
    how = (f"{row['hexes']} hex(es) {row['move']} the 1st Air Fleet, the more "
           f"{row['prefer']}erly hex on a tie" if row["hexes"] else str(row["move"]))
    run.say(f"the US draws #{card} ({how}): the US fleet {start} -> {end}", "12.3(2)",
            card=card, start=start, end=end)


def reveal_plan(run: Run) -> None:
    """6.2(2): the US plan revealed; by day the fleet stops short of a Japanese fleet
    (6.1(4), E28)."""
    game = run.game
    route = run.get("plan")
    end = us_final_hex(game, route, japanese_hexes(run.pos), run.pos.turn)
    run.pos = moved_fleet(run.pos, US_FLEET, end)
    run.set(revealed=True)
    text = "→".join(route)
    note = "" if end == route[-1] else f"; a Japanese fleet is in {route[-1]}: it stops in {end}"
    run.say(f"the US reveals its plan {text}: the US fleet ends in {end}{note}", "6.2(2)",
            *(("6.1(4)",) if note else ()), plan=list(route), end=end)


def start_surface_battle(run: Run) -> bool:
    """10.1(2): a Japanese fleet in the US fleet's hex at night: each side rolls."""
    game = run.game
    us_hex = fleet_hex(run.pos, US_FLEET)
    for fleet_id in (ICHIKOKAN, INVASION):
        if fleet_hex(run.pos, fleet_id) == us_hex:
            hits = N.surface_battle(game, run.dice)
            run.say(f"surface battle in {us_hex} with the {fleet_id}: {hits['hits_on_us']} "
                    f"hit(s) on the US fleet, {hits['hits_on_japan']} on the Japanese",
                    "10.1(2)")
            run.set(surface={"us": hits["hits_on_us"], "japan": hits["hits_on_japan"],
                             "fleet": fleet_id})
            return False
    return False


def surface_targets(run: Run, on: str, fleet_id: str) -> list[str]:
    area = run.area
    if on == "us":
        return afloat(area, run.game, "us")
    if fleet_id == INVASION:
        return ["invasion"] if area.invasion > 0 else []
    return afloat(area, run.game, "japan")


def surface_hits(run: Run) -> bool:
    """The Japanese allocate every surface-battle hit, on both fleets (10.1(2), E18)."""
    battle = run.get("surface")
    for on in ("us", "japan"):
        if battle[on] <= 0:
            continue
        targets = surface_targets(run, on, battle["fleet"])
        if not targets:
            battle[on] = 0
            continue
        if len(targets) == 1:
            apply_surface_hit(run, on, targets[0])
            return False
        run.due("surface", "japan", on=on, hits=battle[on], targets=targets)
        return True
    run.set(surface=None)
    return go(run, NEXT["us-movement-execution"])


def apply_surface_hit(run: Run, on: str, target: str) -> None:
    battle = run.get("surface")
    before = run.area
    run.put(N.apply_surface_hits(run.game, before, on, [target], 1, run.dice))
    after = run.area
    if target == "invasion":
        run.say(f"the Invasion Force loses a point ({before.invasion} -> "
                f"{after.invasion or 'X'})", "10.1(2)")
    elif target in after.sunk and target not in before.sunk:
        run.say(f"{target} is sunk in the surface battle", "10.1(2)", "9.4(2)")
    elif target not in before.sunk:
        run.say(f"{target} takes a surface-battle hit", "10.1(2)", "9.4(2)")
    battle[on] -= 1
    run.set(surface=battle)


# --- search -----------------------------------------------------------------------------


def search_card_holders(run: Run) -> list[str]:
    """Who is asked about search cards (11.0(2)), the Japanese first: both sides in the
    two-player game (so that whether a side holds one shows nowhere); in solitaire the
    Japanese while they hold a card they could play."""
    if not run.solitaire:
        return list(SIDES)
    return ["japan"] if PROTOTYPE in run.hand("japan") else []


def _search(run: Run) -> bool:
    game = run.game
    if run.night:
        for side in SIDES:
            run.pos = run.pos.with_track(AOP[side], const(game, "night-aop"))
        run.say("night: no search, no AOP", "10.2(1)")
        return go(run, "night-air-operations")
    search = run.get("search") or {"asked": [], "played": []}
    for side in search_card_holders(run):
        if side not in search["asked"]:
            run.set(search=search)
            run.due("search-card", side)
            return True
    aop = search_values(run, search["played"])
    for side in SIDES:
        run.pos = run.pos.with_track(AOP[side], aop[side])
    base_ops = run.get("base_ops", 0) if run.get("declared") else 0
    run.say(f"search: japan {aop['japan']} AOP, us {aop['us']} AOP"
            + (f" (japan -{base_ops} for the base attack)" if base_ops else ""),
            "7.2", "7.3", *(("7.4",) if base_ops else ()), japan=aop["japan"], us=aop["us"])
    run.set(search=None)
    return go(run, NEXT["search"])


def search_values(run: Run, played: list[str]) -> dict[str, int]:
    """Both sides' AOP (7.1-7.4) with the search cards that took effect (11.0(2))."""
    game = run.game
    main, us_hex = fleet_hex(run.pos, ICHIKOKAN), fleet_hex(run.pos, US_FLEET)
    where = S.Positions(main, us_hex, fleet_hex(run.pos, INVASION))
    base_ops = run.get("base_ops", 0) if run.get("declared") else 0
    aop = S.search_phase(game, where, turn=run.pos.turn,
                         base_destroyed=A.base_destroyed(game, run.area),
                         base_strikes=base_ops)
    effect = S.search_cards(game, played)
    bonus = (const(game, "card-prototype-scout-bonus") if PROTOTYPE in effect else 0) + (
        const(game, "card-scout-malfunction-penalty") if MALFUNCTION in effect else 0)
    if bonus:
        value = const(game, "search-capability-ichikokan") + bonus - distance(game, main,
                                                                               us_hex)
        result = S.clamp_result(game, value)
        aop["japan"] = max(const(game, "aop-min-after-base-attack"),
                           result - base_ops * const(game, "base-attack-aop-cost"))
    return aop


# --- night ------------------------------------------------------------------------------


def _night_operations(run: Run) -> bool:
    if run.op is not None:
        return op_decision(run)
    done = run.get("night_done", [])
    for side in SIDES:
        if side not in done:
            night_steps(run, side)
            if run.solitaire and side == "us":
                us_night_deploy(run)
                continue
            start_op(run, side, "night")
            return op_decision(run)
    return go(run, NEXT["night-air-operations"])


def us_night_deploy(run: Run) -> None:
    """12.3(4)g, the last step of the solitaire US night operation: on each carrier's deck a
    fighter and an attack aircraft; with two fighters or more, one more in CAP."""
    before = {u.uid: (u.display, u.box) for u in run.area.units}
    run.put(SOL.us_night_deploy(run.game, run.area))
    moved = sorted(f"{u.uid} -> {u.box}" for u in run.area.units
                   if before.get(u.uid) != (u.display, u.box))
    run.say("us night deployment: " + (", ".join(moved) or "nothing to place"), "12.3(4)g")
    run.set(night_done=[*run.get("night_done", []), "us"])


def night_steps(run: Run, side: str) -> None:
    """10.2(2) a-c for one side; a group still in the combat area lands first in Return 2 of
    an own division (E32)."""
    game = run.game
    for gid, units in groups_in_air(run.area).items():
        if side_of(game, units[0]) != side:
            continue
        to = return_displays(run, units, side)[0]
        box = A.return_box(game, to, 2)
        run.put(C.send_to_return(game, run.area, [u.uid for u in units], to, box))
        run.say(f"night: group {gid} lands from the combat area via {to} {box}", "10.2(2)a")
    before = {u.uid: u.steps for u in run.area.units if side_of(game, u) == side}
    run.put(N.night_operation(game, run.area, side, run.dice))
    after = {u.uid: u.steps for u in run.area.units}
    lost = [uid for uid, steps in before.items() if after.get(uid, 0) < steps]
    run.say(f"{side} night operation: everything lands in the hangars"
            + (f"; losses: {', '.join(sorted(lost))}" if lost else ""), "10.2(2)",
            "10.2(2)a", "10.2(2)b", "10.2(2)c")


# --- the end of a turn --------------------------------------------------------------------


def carriers_afloat(run: Run, side: str) -> int:
    return len([c for c in carriers(run.game, side) if c.id not in run.area.sunk])


def _end_of_turn(run: Run) -> bool:
    game = run.game
    last = const(game, "turns")
    if run.pos.turn == last and run.get("landing") is None:
        landing(run)
    japan, us = carriers_afloat(run, "japan"), carriers_afloat(run, "us")
    auto = V.automatic(japan, us)
    if auto is not None:
        return decide(run, auto, "automatic", ("4.3",), japan, us)
    if run.pos.turn == const(game, "day-1-last-turn"):
        winner = V.day_one(game, japan, us)
        if winner != "none":
            return decide(run, winner, "day-1", ("4.1",), japan, us)
    if run.pos.turn == last:
        return day_two(run, japan, us)
    run.say(f"end of turn {run.pos.turn}: carriers afloat japan {japan}, us {us}", "5.0")
    return begin_turn(run, run.pos.turn + 1)


def landing(run: Run) -> None:
    """10.3: the Invasion Force adjacent to Midway at the end of Turn 7 lands."""
    game = run.game
    where = fleet_hex(run.pos, INVASION)
    area = run.area
    if where is None or area.invasion < 1 or not L.landing_allowed(game, where):
        run.set(landing={"outcome": "none"})
        return
    result = L.landing(game, area.invasion, area.garrison, run.dice)
    garrison = result["garrison"] if result["garrison"] != "X" else 0
    invasion = result["invasion"] if result["invasion"] != "X" else 0
    run.put(replace(area, garrison=garrison, invasion=invasion))
    run.set(landing={"outcome": result["outcome"]})
    run.say(f"the landing on Midway: {result['outcome']} (Invasion Force "
            f"{result['invasion']}, Garrison {result['garrison']})", "10.3")


def scuttle_askers(run: Run) -> list[str]:
    """Who is asked about card 01 at the end of Turn 7: both sides in the two-player game,
    the solitaire Japanese while they hold it."""
    if not run.solitaire:
        return list(SIDES)
    return ["japan"] if SCUTTLING in run.hand("japan") else []


def day_two(run: Run, japan: int, us: int) -> bool:
    scuttle = run.get("scuttle") or {"asked": [], "by": None}
    for side in scuttle_askers(run):
        if side not in scuttle["asked"] and scuttle["by"] is None:
            run.set(scuttle=scuttle)
            run.due("scuttle", side)
            return True
    midway = V.CAPTURED if (run.get("landing") or {}).get("outcome") == "captured" else V.HELD
    result = V.victory(run.game, run.pos.turn, japan, us, midway, scuttle["by"])
    run.set(points={"japan": result["japan_points"], "us": result["us_points"]})
    winner = result["winner"]
    return decide(run, winner, "day-2", ("4.2",), japan, us,
                  f"points japan {result['japan_points']}, us {result['us_points']}; Midway "
                  f"{midway}")


def decide(run: Run, winner: str, condition: str, rules: tuple[str, ...], japan: int,
           us: int, detail: str = "") -> bool:
    record = run.game.get("victory", condition)
    who = None if winner == "draw" else winner
    reason = (f"{record.name} at the end of turn {run.pos.turn}: carriers afloat japan "
              f"{japan}, us {us}" + (f"; {detail}" if detail else ""))
    verdict = Verdict(who, "draw" if who is None else "win", reason, rules, condition)
    run.say(f"game over: {'a draw' if who is None else who + ' wins'}: {reason}", *rules)
    run.pos = replace(run.pos, pending=(), verdict=verdict, phase="over")
    return True


PHASES = {"setup": _setup, "base-attack-declaration": _declaration,
          "us-movement-planning": _planning, "japanese-movement": _movement,
          "base-attack": _base_attack, "us-movement-execution": _execution,
          "search": _search, "air-operations": _air_operations,
          "night-air-operations": _night_operations, "end-of-turn": _end_of_turn}


def base_ops_for(run: Run) -> int:
    """Air operations of the declared base attack from where the 1st Air Fleet ended
    (6.4(3))."""
    return S.base_attack_from(run.game, fleet_hex(run.pos, ICHIKOKAN))

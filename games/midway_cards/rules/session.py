"""The Fateful Midway Card Game played in a session (``warpress play``), from the set-up to
the verdict, by two players: people at one machine, agents, or one of each.

The position (``positions.py``) holds the decks, hands, discard piles and the cards on the
table; the rules are the folder's own procedures (``state.py``, ``attack.py``,
``combat.py``). This module asks each decision of the side that makes it, in the order of
the rules, lists its legal answers and checks the one given.

======================= ====== ========================================================
decision (``due``)      side   answers
======================= ====== ========================================================
opening (6)             each   ``keep``; ``redraw`` when the hand holds no attack card
attack (5-1, 7, 12)     turn   ``extra-draw`` (5-1: a hand of defense and tactics cards
                        player only, before anything else this turn); ``rearm CARD``
                               (12-2, Japanese); ``fly CARD F|A`` (starts an attack on
                               ship cards, 7-1-1); ``raid CARD`` (starts an attack on the
                               Midway base, 12-1); ``pass`` (no attack); the tactics cards
                               ``repair-aircraft CARD TAKE`` (10-1) and
                               ``emergency-repair CARD TARGET [deck|side]`` (10-2, US)
pairs (7-1-1)           turn   ``fly CARD F|A``; ``launch`` once a card flies A
cap (7-1-1, 4)          other  ``cap CARD``; ``pass`` (no more interception this attack)
raid (12-1)             Japan  ``raid CARD``; ``launch``
recover (7-1-2, 7-5)    each   ``recover [--discard CARDS]``: F cards that won go back to
                               the hand, the ones named to the discard pile
target (7-2, 12-3)      turn   ``target SHIP [CARD]`` (the US may split, 12-3)
defense (7-3, 12-4)     other  ``defend CARD DEFENSE``; ``pass``
rearm-discard (12-2)    Japan  ``discard CARD``: a turn with armament change only
exchange (8, 10)        turn   ``exchange [CARDS]`` (up to 3); the tactics cards
adjust (9)              each   ``discard CARDS``: a hand above the limit
======================= ====== ========================================================

The draw phase (5-1), air combat (7-1-2), damage (7-4), the return of the cards (7-5),
the refill of the hand adjustment (9), deck passes and the end of the game (11) follow by
themselves. The defender is asked for CAP and defense cards even when he holds none (his
only answer is then ``pass``), so that whether he holds one shows nowhere.

Rulings the rules leave open (constants and errata of the game data): the opening redraw
shuffles the hand back (6); the extra draw of 5-1 is the turn player's choice, taken before
anything else in his turn; tactics cards are played in the turn player's attack-phase and
hand-exchange decisions (10); a turn with armament change only discards the card drawn, or
a card of the player's choice when it is gone or none was drawn (12-2); the Japanese must
re-arm in an attack phase of the first deck when the deck holds no more cards than they
may draw before their next one (12-2, constant ``min-armament-changes-first-deck``);
discard piles are open to both players (8: cards are discarded onto the table).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from warpress.engine.decisions import ActionSpec, Arg, Decision, Opt
from warpress.engine.dice import Dice
from warpress.engine.errors import BadInput, RuleViolation
from warpress.engine.inputs import quote
from warpress.engine.model import FrozenDict, Game
from warpress.engine.position import Position, Verdict, freeze, thaw
from warpress.engine.referee import OneScenario, ScenarioInfo, Step

from .. import CODE
from . import attack as atk
from . import combat, information, moves
from . import state as st
from .choices import OPTIONS, prompt
from .common import (
    BASE_ID,
    JAPAN,
    SIDES,
    US,
    base_status,
    card,
    const,
    opponent,
    owner,
    stat,
)
from .moves import KINDS, Run, awaiting, parse, unanswered, untargeted
from .positions import move_cards, pile, start, to_state
from .views import referee_view, summary_of, view

SCENARIO = "standard"

ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec("keep", "Keep the opening hand (6)."),
    ActionSpec("redraw", "Redraw an opening hand that holds no attack card, once (6)."),
    ActionSpec("extra-draw", "Reveal a hand of only defense and tactics cards and draw one "
                             "more card (5-1), before anything else in your turn."),
    ActionSpec("rearm", "Armament change (12-2): a 99艦爆 / 97艦攻 card for a ground-attack "
                        "card.", (Arg("card", "the card re-armed"),)),
    ActionSpec("fly", "Play an aircraft card in an attack on ship cards, as F (escort) or A "
                      "(anti-ship) (7-1-1).",
               (Arg("card", "the aircraft card"), Arg("mission", "F or A"))),
    ActionSpec("raid", "Play a card in an attack on the Midway base: a re-armed card or a "
                       "零戦 (12-1).", (Arg("card", "the attacking card"),)),
    ActionSpec("launch", "No more cards: the attack goes in (7-1-1, 12-1)."),
    ActionSpec("cap", "Intercept the card just played with an F card (CAP, 7-1-1).",
               (Arg("card", "your F aircraft card"),)),
    ActionSpec("pass", "No attack this turn; no more CAP; or no more defense cards."),
    ActionSpec("recover", "Your F cards that won their air combat go back to your hand, "
                          "except those named (7-1-2, 7-5).",
               options=(Opt("--discard", "discard", "cards discarded instead "
                                                    "(comma-separated)"),)),
    ActionSpec("target", "The ship card the attack cards go for (7-2); the US may name one "
                         "card of several (12-3).",
               (Arg("ship", "the enemy ship card"),
                Arg("card", "one attacking card (US only; default: every one left)",
                    required=False))),
    ActionSpec("defend", "Play a defense card against an attacking card (7-3).",
               (Arg("card", "the attacking card"), Arg("defense", "your defense card"))),
    ActionSpec("exchange", "Discard up to 3 cards and draw as many (8); none keeps the "
                           "hand.", (Arg("cards", "cards, comma-separated", required=False),)),
    ActionSpec("discard", "Discard cards: down to the hand limit (9), or the card of a turn "
                          "with armament change only (12-2).",
               (Arg("cards", "cards, comma-separated"),)),
    ActionSpec("repair-aircraft", "損傷機修理: take an aircraft card from your discard pile "
                                  "into your hand (10-1).",
               (Arg("card", "the 損傷機修理 card"), Arg("take", "the aircraft card taken"))),
    ActionSpec("emergency-repair", "応急修理 (US): remove 1 damage from a damaged US ship card "
                                   "or the Midway base (10-2).",
               (Arg("card", "the 応急修理 card"), Arg("target", "the ship card or midway-base"),
                Arg("colour", "deck (red) or side (blue) damage, on a ship card",
                    required=False))),
)

#: how many events the position keeps (the turn going on and the one before, at most)
EVENT_TURNS = 2


def awaiting_for(game: Game, position: Position, viewer: str | None) -> list[str]:
    """The actions of the decision due: the legal ones for the side that makes it, the
    ones its kind accepts for anyone else (what his hand allows is his alone)."""
    due = position.due
    names = awaiting(due.kind, due.side)
    if viewer is None or viewer != due.side:
        return names
    legal = {a.name for a in MidwayCardsRules().decision(game, position).actions()}
    return [n for n in names if n in legal]


# --- the flow ---------------------------------------------------------------------------


def begin(run: Run) -> None:
    """Opening hands dealt: each side keeps or redraws (6), the Japanese first."""
    run.pos = replace(run.pos, phase="setup")
    run.due("opening", JAPAN)


def begin_turn(run: Run) -> None:
    """The draw phase (5-1; none on the game's first turn), then the attack phase."""
    state = run.state
    side = state.turn_player
    run.pos = replace(run.pos, phase="aircraft-attack")
    run.set(extra_open=False, attack=None, adjust={})
    if state.turn > 1 or const(run.game, "first-turn-draw"):
        after = st.draw_phase(state, run.game, extra=False)
        _drew(run, state, after, "draw phase", "5-1")
        run.put(after)
        run.set(extra_open=True)
    else:
        run.say(f"turn {state.turn}: the {side} attack on Midway, no draw phase", "12-1",
                "5-1")
    run.due("attack", side)


def _drew(run: Run, before: st.State, after: st.State, why: str, *rules: str,
          discarded: Mapping[str, int] | None = None) -> None:
    """Tell how many cards each side drew (never which), and deck passes (11);
    ``discarded``: cards each side put from its hand to its discard pile in the step."""
    for who in SIDES:
        old, new = before.player(who), after.player(who)
        drawn = len(new.hand) - len(old.hand) + (discarded or {}).get(who, 0)
        if drawn > 0:
            run.say(f"{who} draws {drawn} card(s) ({why})", *rules)
        if new.deck_number > old.deck_number:
            run.say(f"the {who} first deck is used up: the discard pile is shuffled into the "
                    "second deck", "11")
    if before.end_after_turn is None and after.end_after_turn is not None:
        run.say(f"a second deck is used up in the {before.turn_player} turn: the game ends "
                f"after turn {after.end_after_turn}", "11")


def end_attack_phase(run: Run) -> None:
    """After the attack phase: the discard of a turn with armament change only (12-2), then
    the hand exchange (8)."""
    state = run.state
    run.set(attack=None, extra_open=False)
    if state.over:
        return finish(run)
    if state.turn_player == JAPAN and state.rearmed_this_turn and not state.attacked_this_turn \
            and run.hand(JAPAN):
        run.due("rearm-discard", JAPAN)
        return None
    return begin_exchange(run)


def begin_exchange(run: Run) -> None:
    run.pos = replace(run.pos, phase="hand-exchange")
    run.due("exchange", run.state.turn_player)


def begin_adjustment(run: Run) -> None:
    """Hand adjustment (9): a player above the limit chooses his discards (the turn player
    first); then the refills and the discards, and the turn ends."""
    run.pos = replace(run.pos, phase="hand-adjustment")
    limit = int(const(run.game, "hand-limit"))
    chosen = dict(thaw(run.pos.data.get("adjust") or {}))
    turn_player = run.state.turn_player
    for side in (turn_player, opponent(turn_player)):
        excess = len(run.hand(side)) - limit
        if excess > 0 and side not in chosen:
            run.due("adjust", side, discard=excess)
            return
    before = run.state
    after = st.hand_adjustment(before, run.game, {s: tuple(c) for s, c in chosen.items()})
    for side, gone in chosen.items():
        run.say(f"{side} discards {', '.join(gone)} down to the hand limit", "9")
    _drew(run, before, after, "hand adjustment", "9",
          discarded={s: len(c) for s, c in chosen.items()})
    run.put(after)
    run.set(adjust={})
    end_turn(run)


def end_turn(run: Run) -> None:
    state = st.end_turn(run.state, run.game)
    run.put(state)
    if state.over:
        return finish(run)
    return begin_turn(run)


def finish(run: Run) -> None:
    """The verdict (11, 12-4): winner, why, the victory rule; nothing is due any more."""
    state = run.state
    result = st.final_result(state, run.game)
    condition = _condition(run.game, state, result)
    record = run.game.get("victory", condition)
    winner = None if result["winner"] == "draw" else result["winner"]
    reason = (f"{state.end_reason}: {result['reason']} (VP japan {result['japan_vp']}, us "
              f"{result['us_vp']})")
    verdict = Verdict(winner, "draw" if winner is None else "win", reason,
                      tuple(record.rule) or ("11",), condition)
    run.say(f"game over: {'draw' if winner is None else winner + ' wins'}: {reason}",
            *verdict.rule)
    run.pos = replace(run.pos, pending=(), verdict=verdict, phase="over")
    run.set(attack=None, vp={JAPAN: result["japan_vp"], US: result["us_vp"]})


def _condition(game: Game, state: st.State, result: Mapping[str, Any]) -> str:
    """The victory record (victory.yaml) behind a result."""
    japan_out = st.carriers_out(state, game, JAPAN)
    us_out = st.carriers_out(state, game, US)
    base_ok = st.base_heavy(state, game)
    if japan_out:
        return "japan-carriers-out"
    if us_out:
        return "us-carriers-out" if base_ok else "us-carriers-out-base-intact"
    if not base_ok:
        return "base-not-heavy"
    return "vp-tie" if result["winner"] == "draw" else "vp-comparison"


# --- handlers: one per action, by the decision it answers -----------------------------------


def _keep(run: Run, args: Mapping[str, Any]) -> None:
    side = run.pos.due.side
    run.say(f"{side} keeps the opening hand", "6")
    _next_opening(run, side)


def _redraw(run: Run, args: Mapping[str, Any]) -> None:
    side = run.pos.due.side
    before = run.state
    run.put(st.redraw_opening(before, run.game, side))
    run.say(f"{side} holds no attack card and redraws the opening hand", "6")
    _next_opening(run, side)


def _next_opening(run: Run, side: str) -> None:
    if side == SIDES[0]:
        run.due("opening", SIDES[1])
    else:
        begin_turn(run)


def _extra_draw(run: Run, args: Mapping[str, Any]) -> None:
    state = run.state
    side = state.turn_player
    if not run.pos.data.get("extra_open"):
        raise RuleViolation("5-1", "the extra draw belongs to the draw phase: it comes before "
                                   "anything else in the turn")
    hand = run.hand(side)
    after = st.extra_draw(state, run.game)
    run.say(f"{side} reveals the hand ({', '.join(hand) or 'no card'}): defense and tactics "
            "cards only", "5-1")
    _drew(run, state, after, "draw phase, extra card", "5-1")
    run.put(after)
    run.set(extra_open=False)


def _rearm(run: Run, args: Mapping[str, Any]) -> None:
    instance = args["card"]
    moves.check_rearm(run, instance)
    state = atk.rearm(run.state, run.game, [instance])
    taken = [c for c in state.japan.hand if c not in run.state.japan.hand]
    run.put(state)
    run.set(extra_open=False)
    run.say(f"japan re-arms {instance} for {', '.join(taken)}; 「兵装変更中」 is on the table "
            "(US cards +1 damage)", "12-2")


def _fly(run: Run, args: Mapping[str, Any]) -> None:
    instance, mission = args["card"], args["mission"]
    moves.check_fly(run, instance, mission)
    side = run.state.turn_player
    att = run.attack or {"kind": "ships", "attacker": side, "plays": [], "cap": [],
                         "cap_done": False, "survivors": [], "targets": {}, "defense": {},
                         "ditched": [], "recover": []}
    att["plays"].append([instance, mission])
    run.pos = move_cards(run.pos, [(instance, pile(side, "hand"), pile(side, "table"))])
    run.set(attack=att, extra_open=False)
    run.say(f"{side} flies {instance} ({card(run.game, instance).name}) as {mission}",
            "7-1-1")
    if att["cap_done"]:
        run.due("pairs", side)
    else:
        run.due("cap", opponent(side), card=instance, mission=mission)


def _cap(run: Run, args: Mapping[str, Any]) -> None:
    instance = args["card"]
    moves.check_cap(run, instance)
    side = opponent(run.state.turn_player)
    att = run.attack
    att["cap"].append(instance)
    run.pos = move_cards(run.pos, [(instance, pile(side, "hand"), pile(side, "table"))])
    run.set(attack=att)
    played = att["plays"][len(att["cap"]) - 1][0]
    run.say(f"{side} intercepts {played} with {instance} ({card(run.game, instance).name})",
            "7-1-1")
    run.due("pairs", run.state.turn_player)


def _pass(run: Run, args: Mapping[str, Any]) -> None:
    due = run.pos.due
    if due.kind == "attack":
        _pass_attack(run)
    elif due.kind == "cap":
        att = run.attack
        att["cap_done"] = True
        run.set(attack=att)
        run.say(f"{due.side} intercepts no more in this attack", "7-1-1")
        run.due("pairs", run.state.turn_player)
    else:
        run.say(f"{due.side} plays no more defense cards", "7-3")
        resolve(run)


def _pass_attack(run: Run) -> None:
    moves.check_pass(run)
    run.say(f"{run.state.turn_player} makes no attack this turn", "5-1")
    end_attack_phase(run)


def _raid(run: Run, args: Mapping[str, Any]) -> None:
    instance = args["card"]
    moves.check_raid(run, instance)
    side = run.state.turn_player
    att = run.attack or {"kind": "base", "attacker": side, "cards": [], "defense": {}}
    att["cards"].append(instance)
    run.pos = move_cards(run.pos, [(instance, pile(side, "hand"), pile(side, "table"))])
    run.set(attack=att, extra_open=False)
    run.say(f"{side} sends {instance} ({card(run.game, instance).name}) against the Midway "
            "base", "12-1")
    run.due("raid", side)


def _launch(run: Run, args: Mapping[str, Any]) -> None:
    att = run.attack
    if att["kind"] == "base":
        run.say(f"the attack on the Midway base goes in with {len(att['cards'])} card(s); "
                "the US may defend with AA cards only", "12-1", "12-4")
        run.due("defense", US, cards=att["cards"])
        return
    if not any(m == "A" for _, m in att["plays"]):
        raise RuleViolation("7-1-1", "an attack needs at least 1 card declared A")
    pairing = combat.air_combat(run.game, [tuple(p) for p in att["plays"]], att["cap"])
    for n, p in enumerate(pairing.pairs, 1):
        run.say(f"air combat {n}: {p.attacker} ({p.mission}) against {p.defender}: "
                f"{_removed_text(p)}", "7-1-2")
    att["survivors"] = list(pairing.attackers)
    att["winners"] = list(pairing.escorts_won)
    run.set(attack=att)
    if not pairing.attackers:
        run.say("every card declared A is removed: the attack phase ends", "7-1-2")
    next_recover(run)


def _removed_text(p: combat.Pair) -> str:
    return {"both": "mission complete (任務完了), both removed",
            "attacker": f"{p.attacker} removed", "defender": f"{p.defender} removed"}[p.removed]


def next_recover(run: Run) -> None:
    """7-1-2: each side whose F cards won chooses which go back to hand (attacker first)."""
    att = run.attack
    attacker = att["attacker"]
    for side in (attacker, opponent(attacker)):
        won = [c for c in att["winners"] if owner(run.game, c) == side]
        if won and side not in att["recover"]:
            run.due("recover", side, cards=won)
            return
    if att["survivors"]:
        run.due("target", attacker, cards=untargeted(att))
        return
    resolve(run)


def _recover(run: Run, args: Mapping[str, Any]) -> None:
    side = run.pos.due.side
    att = run.attack
    won = [c for c in att["winners"] if owner(run.game, c) == side]
    ditched = args["discard"]
    for c in ditched:
        if c not in won:
            raise RuleViolation("7-1-2", f"{c} is not a {side} F card that won its air combat")
    att["ditched"] = [*att["ditched"], *ditched]
    att["recover"] = [*att["recover"], side]
    run.set(attack=att)
    kept = [c for c in won if c not in ditched]
    run.say(f"{side} takes back {', '.join(kept) or 'no card'}"
            + (f" and discards {', '.join(ditched)}" if ditched else ""), "7-1-2", "7-5")
    next_recover(run)


def _target(run: Run, args: Mapping[str, Any]) -> None:
    ship_id, chosen = args["ship"], args["card"]
    moves.check_target(run, ship_id, chosen)
    att = run.attack
    named = chosen or untargeted(att)
    att["targets"] = {**att["targets"], **{c: ship_id for c in named}}
    run.set(attack=att)
    run.say(f"{att['attacker']} attacks {ship_id} with {', '.join(named)}", "7-2")
    left = untargeted(att)
    if left:
        run.due("target", att["attacker"], cards=left)
    else:
        run.due("defense", opponent(att["attacker"]), cards=unanswered(att))


def _defend(run: Run, args: Mapping[str, Any]) -> None:
    instance, defense = args["card"], args["defense"]
    moves.check_defend(run, instance, defense)
    att = run.attack
    side = opponent(att["attacker"])
    att["defense"] = {**att["defense"], instance: defense}
    run.pos = move_cards(run.pos, [(defense, pile(side, "hand"), pile(side, "table"))])
    run.set(attack=att)
    stopped = combat.stops(run.game, str(stat(run.game, defense, "level")),
                           str(stat(run.game, instance, "anti_ship")))
    run.say(f"{side} answers {instance} with {defense} ({card(run.game, defense).name}): "
            f"{'stopped' if stopped else 'not stopped'}", "7-3")
    if unanswered(att):
        run.due("defense", side, cards=unanswered(att))
    else:
        resolve(run)


def resolve(run: Run) -> None:
    """The attack goes in: the folder's procedure resolves it from the choices made (air
    combat, defense, secondary damage, sinking, return: 7-1-2 .. 7-5, 12-1)."""
    att = run.attack
    before = run.state
    if att["kind"] == "base":
        after, report = atk.base_attack(before, run.game, att["cards"], att["defense"])
    else:
        plan = atk.AttackPlan(plays=tuple(tuple(p) for p in att["plays"]),
                              cap=tuple(att["cap"]), target=dict(att["targets"]),
                              defense=dict(att["defense"]), ditched=tuple(att["ditched"]))
        after, report = atk.carrier_attack(before, run.game, plan)
    for h in report.hits:
        run.say(_hit_text(run.game, h), "7-4", *(("12-1",) if h.target == BASE_ID else ()))
    run.put(after)
    for target in dict.fromkeys(h.target for h in report.hits):
        rules = ("12-4",) if target == BASE_ID else ("7-4", "3-1")
        run.say(_status_text(run.game, after, target, target in report.sunk), *rules)
    if before.rearming and not after.rearming:
        run.say("no armament-change card is left in the Japanese hand: 「兵装変更中」 leaves "
                "the table", "12-2")
    end_attack_phase(run)


def _hit_text(game: Game, h: combat.Hit) -> str:
    result = game.table("secondary-damage")
    name = next((r for r in result.rows if r.get("result") == h.result), {}).get("name")
    return (f"{h.card} hits {h.target}: secondary damage {h.secondary} ({h.kind} result "
            f"{name or h.result}): {h.damage} damage" + (", 発着艦不能" if h.disabled else ""))


def _status_text(game: Game, state: st.State, target: str, sunk: bool) -> str:
    if target == BASE_ID:
        status = base_status(game, state.base_damage)
        return f"the Midway base: {state.base_damage} damage, {status['status']}"
    s = state.ship(target)
    if sunk:
        return f"{target} is sunk: the attacker takes the card and its VP"
    status = st.ship_status(game, s)
    return (f"{target}: deck damage {s.deck_damage}, side damage {s.side_damage}, "
            f"{status['status']}" + ("" if status["flight_ops"] else ", cannot launch"))


def _discard(run: Run, args: Mapping[str, Any]) -> None:
    due = run.pos.due
    chosen = args["cards"]
    if due.kind == "rearm-discard":
        moves.check_rearm_discard(run, chosen)
        run.put(st.discard_from_hand(run.state, run.game, JAPAN, chosen, "12-2"))
        run.say(f"japan discards {', '.join(chosen)}: a turn with armament change only",
                "12-2")
        return begin_exchange(run)
    moves.check_discard(run, due.side, chosen, int(due.data["discard"]), "9")
    run.set(adjust={**thaw(run.pos.data.get("adjust") or {}), due.side: chosen})
    return begin_adjustment(run)


def _exchange(run: Run, args: Mapping[str, Any]) -> None:
    chosen = args["cards"]
    moves.check_exchange(run, chosen)
    side = run.state.turn_player
    before = run.state
    after = st.hand_exchange(before, run.game, chosen)
    if chosen:
        run.say(f"{side} exchanges {', '.join(chosen)}", "8")
        _drew(run, before, after, "hand exchange", "8", discarded={side: len(chosen)})
    else:
        run.say(f"{side} keeps the hand", "8")
    run.put(after)
    begin_adjustment(run)


def _repair_aircraft(run: Run, args: Mapping[str, Any]) -> None:
    instance, take = args["card"], args["take"]
    run.put(moves.repair_aircraft(run, instance, take))
    run.set(extra_open=False)
    run.say(f"{run.state.turn_player} plays {instance} (損傷機修理) and takes {take} back from "
            "the discard pile", "10-1")


def _emergency_repair(run: Run, args: Mapping[str, Any]) -> None:
    instance, target, colour = args["card"], args["target"], args["colour"]
    run.put(moves.emergency_repair(run, instance, target, colour))
    run.set(extra_open=False)
    what = "" if target == BASE_ID else f" {colour}"
    run.say(f"us plays {instance} (応急修理): 1{what} damage removed from {target}", "10-2")


HANDLERS: dict[str, Callable[[Run, Mapping[str, Any]], None]] = {
    "keep": _keep, "redraw": _redraw, "extra-draw": _extra_draw, "rearm": _rearm,
    "fly": _fly, "raid": _raid, "launch": _launch, "cap": _cap, "pass": _pass,
    "recover": _recover, "target": _target, "defend": _defend, "exchange": _exchange,
    "discard": _discard, "repair-aircraft": _repair_aircraft,
    "emergency-repair": _emergency_repair,
}


# --- the rules a session calls ------------------------------------------------------------


@CODE.session
class MidwayCardsRules(OneScenario):
    """The session rules of the Fateful Midway Card Game (see the module docstring)."""

    actions = ACTIONS
    scenario = SCENARIO
    hidden = True

    def scenarios(self, game: Game) -> tuple[ScenarioInfo, ...]:
        return (ScenarioInfo(SCENARIO, "The strike phase after both fleets launched", "",
                             "Japanese 4 carriers, US 3 carriers and the Midway base; the "
                             "Japanese open with the attack on Midway (12-1)"),)

    def new(self, game: Game, scenario: str, dice: Dice) -> Step:
        seed = sum(dice.roll("d1000", "seed") * 1000 ** k for k in range(3))
        run = Run(game, start(game, st.new_game(game, seed), scenario))
        run.say(f"set-up: the decks are shuffled; japan draws "
                f"{const(game, 'opening-hand-japan')} cards, us "
                f"{const(game, 'opening-hand-us')}", "6")
        begin(run)
        return _step(run)

    def apply(self, game: Game, position: Position, command: str, args: Mapping[str, Any],
              dice: Dice) -> Step:
        parsed = parse(game, command, self.checked(command, args))
        self.refuse_when_over(position, command, "11")
        due = position.due
        if command not in KINDS[due.kind][0]:
            raise RuleViolation(due.rule[0], f"{prompt(due)}: {command} does not answer it "
                                             f"({', '.join(awaiting(due.kind, due.side))})")
        run = Run(game, position)
        HANDLERS[command](run, parsed)
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
        if side is not None and side not in SIDES:
            raise BadInput(f"side {quote(side)} is not one of {', '.join(SIDES)}")
        return view(game, position, side, lambda p, s: awaiting_for(game, p, s))

    def referee_view(self, game: Game, position: Position) -> dict[str, Any]:
        return referee_view(game, position, lambda p, s: awaiting_for(game, p, s))

    def agent_view(self, game: Game, position: Position, side: str) -> Position:
        """What ``side`` knows, as a position (information.py): what an agent of the side
        searches from."""
        return information.masked(game, position, side)

    def determinise(self, game: Game, view: Position, side: str, rng: random.Random
                    ) -> Position:
        return information.determinise(game, view, side, rng)

    def score(self, game: Game, position: Position, side: str) -> float:
        """How the game stands for ``side`` before its end (what agents that look ahead
        weigh): the lead in victory points as they stand (11), and, for the Japanese, the
        Midway base's damage toward 大破, without which they cannot win (12-4)."""
        state = to_state(game, position)
        vp = st.score(state, game)
        heavy = int(const(game, "base-heavy-damage"))
        japan = 4.0 * (vp[JAPAN] - vp[US]) + 40.0 * min(state.base_damage, heavy) / heavy
        return japan if side == JAPAN else -japan

    def summary(self, game: Game, position: Position) -> dict[str, Any] | None:
        return summary_of(position)

    def render_player_map(self, game: Game, position: Position, fmt: str = "svg") -> bytes:
        raise BadInput(f"{game.id} is a card game: it has no map to draw (--map)")

    render_referee_map = render_player_map


def _step(run: Run) -> Step:
    """The new position with this command's events kept for the views (this turn's and the
    last's), and the events as the step's announcements."""
    last = run.pos.turn - EVENT_TURNS + 1
    kept = tuple(e for e in run.pos.data.get("events") or () if e["turn"] >= last)
    events = kept + tuple(freeze(a.as_json()) for a in run.said)
    run.pos = replace(run.pos, data=FrozenDict({**run.pos.data, "events": events}))
    return Step(run.pos, tuple(run.said))


__all__ = ["MidwayCardsRules"]

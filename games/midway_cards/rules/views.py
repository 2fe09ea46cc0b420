"""What each side of a Fateful Midway Card Game session sees.

A side sees its own hand; of the other hand only its size; of every deck (the players'
decks, the secondary-damage deck, the armament-change pile) only its size, never its order;
every discard pile (cards are discarded face up onto the table, 8: constant
``discard-piles-open``); the cards on the
table, the ship cards with their damage, the 「兵装変更中」 card, the VP and the events of
this turn and the last, which tell public facts only (how many cards a player drew, never
which). ``referee_view`` shows everything (``warpress play reveal``, logged).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from warpress.engine.model import Game
from warpress.engine.position import Position, thaw

from . import state as st
from .common import (
    ARMAMENT_DECK,
    BASE_ID,
    SECONDARY_DECK,
    SIDES,
    base_status,
    card,
    const,
    kind,
    missions,
    opponent,
    owner,
    stat,
)
from .positions import REARMING, cards, pile, to_state

TITLE = "Fateful Midway Card Game (運命のミッドウェーカードゲーム)"
#: the phase ids a position takes and their names where the sequence data has none
PHASE_NAMES = {"setup": "Set-up: opening hands", "over": "Game over"}

#: the actions a decision due accepts, as ``side`` may know them: (position, side) -> names
Awaiting = Callable[[Position, str | None], list[str]]


def public_events(position: Position) -> list[dict[str, Any]]:
    """The events kept in the position (public facts only)."""
    return list(thaw(position.data.get("events") or []))


def phase_name(game: Game, phase: str | None) -> str | None:
    if phase is None or phase in PHASE_NAMES:
        return PHASE_NAMES.get(phase or "")
    return game.get("sequence", phase).name


def view(game: Game, position: Position, side: str | None, awaiting: Awaiting
         ) -> dict[str, Any]:
    """The position as ``side`` may know it (None: what both players see)."""
    state = to_state(game, position)
    due = position.due
    out: dict[str, Any] = {
        "game": game.id, "scenario": position.scenario, "title": TITLE,
        "turn": position.turn, "phase": position.phase,
        "phase_name": phase_name(game, position.phase),
        "acting": due.side if due and not position.over else position.side,
        "turn_of": position.side,
        "viewer": side, "over": position.over,
        "due": ({"kind": due.kind, "side": due.side, "rules": list(due.rule),
                 "data": thaw(due.data)} if due and not position.over else None),
        "awaiting": awaiting(position, side) if due and not position.over else [],
        "score": st.score(state, game),
        "rearming": state.rearming,
        "ships": ships_view(game, state),
        "decks": decks_view(game, position, state),
        "table": table_view(game, position),
        "hand": hand_view(game, cards(position, pile(side, "hand"))) if side else [],
        "discards": [{"id": s, "cards": list(cards(position, pile(s, "discard")))}
                     for s in SIDES] if const(game, "discard-piles-open") else [],
        "announcements": public_events(position),
    }
    if position.verdict is not None:
        out["summary"] = summary_of(position)
    return out


def referee_view(game: Game, position: Position, awaiting: Awaiting) -> dict[str, Any]:
    """Everything: both hands, every deck in order, the cards drawn this turn."""
    out = view(game, position, None, awaiting)
    out["hands"] = [{"id": s, "cards": list(cards(position, pile(s, "hand")))} for s in SIDES]
    out["deck_order"] = [{"id": s, "cards": list(cards(position, pile(s, "deck")))}
                         for s in SIDES]
    out["deck_order"].append({"id": SECONDARY_DECK,
                              "cards": list(cards(position, "secondary.deck"))})
    out["drawn"] = [{"id": s, "cards": list(position.data["players"][s]["drawn"])}
                    for s in SIDES]
    return out


def summary_of(position: Position) -> dict[str, Any] | None:
    verdict = position.verdict
    if verdict is None:
        return None
    return {"result": verdict.result, "winner": verdict.winner,
            "reasons": [{"text": verdict.reason, "rules": list(verdict.rule)}],
            "condition": verdict.condition, "vp": thaw(position.data.get("vp") or {})}


# --- parts ------------------------------------------------------------------------------


def ships_view(game: Game, state: st.State) -> list[dict[str, Any]]:
    """Every ship card and the base: damage against durability, status, aircraft (③)."""
    out = []
    for s in state.ships:
        side = owner(game, s.id)
        if s.sunk:
            out.append({"id": s.id, "fleet": side, "status": "sunk",
                        "held_by": opponent(side)})
            continue
        status = st.ship_status(game, s)
        out.append({
            "id": s.id, "fleet": side, "status": status["status"],
            "deck": f"{s.deck_damage}/{stat(game, s.id, 'deck_durability')}",
            "side": f"{s.side_damage}/{stat(game, s.id, 'side_durability')}",
            "aircraft": _aircraft(game, s.id) if status["flight_ops"] else "none (tapped)",
            "yellow": s.disabled,
            "vp": "/".join(str(stat(game, s.id, k)) for k in ("vp_sunk", "vp_heavy",
                                                              "vp_medium")),
        })
    base = base_status(game, state.base_damage)
    out.append({"id": BASE_ID, "fleet": owner(game, BASE_ID), "status": base["status"],
                "damage": f"{state.base_damage}/{stat(game, BASE_ID, 'durability')}"})
    return out


def _aircraft(game: Game, ship_id: str) -> str:
    return " ".join(f"{letter}{stat(game, ship_id, key, 0)}"
                    for letter, key in (("F", "aircraft_f"), ("B", "aircraft_b"),
                                        ("T", "aircraft_t")))


def decks_view(game: Game, position: Position, state: st.State) -> list[dict[str, Any]]:
    """The size of every pile, never the order of a deck."""
    out: list[dict[str, Any]] = []
    for side in SIDES:
        p = state.player(side)
        out.append({"id": side, "deck": len(p.deck), "pass": p.deck_number,
                    "hand": len(cards(position, pile(side, "hand"))), "discard": len(p.discard),
                    "table": len(cards(position, pile(side, "table"))),
                    "of": int(game.get("decks", f"{side}-action").count)})
    out.append({"id": SECONDARY_DECK, "deck": len(state.secondary_deck),
                "discard": len(state.secondary_discard)})
    out.append({"id": ARMAMENT_DECK, "pile": len(state.armament_pile)})
    return out


def table_view(game: Game, position: Position) -> list[dict[str, Any]]:
    """The cards on the table: the attack going on, and the 「兵装変更中」 card."""
    att = thaw(position.data.get("attack") or {})
    out = []
    if att.get("kind") == "ships":
        cap = att["cap"]
        for n, (c, mission) in enumerate(att["plays"]):
            out.append({"id": c, "side": owner(game, c), "as": mission,
                        "paired_with": cap[n] if n < len(cap) else None,
                        "target": att["targets"].get(c),
                        "defended_by": att["defense"].get(c)})
        out += [{"id": c, "side": owner(game, c), "as": "CAP"} for c in cap]
    elif att.get("kind") == "base":
        out += [{"id": c, "side": owner(game, c), "as": "raid", "target": BASE_ID,
                 "defended_by": att["defense"].get(c)} for c in att["cards"]]
    for c in att.get("defense", {}).values():
        out.append({"id": c, "side": owner(game, c), "as": "defense"})
    if position.piece(REARMING).kind == "play":
        out.append({"id": REARMING, "side": owner(game, REARMING),
                    "as": "兵装変更中: US cards +1 damage"})
    return out


def hand_view(game: Game, hand: tuple[str, ...]) -> list[dict[str, Any]]:
    return [{"id": c, "card": card(game, c).name, "text": card_text(game, c)} for c in hand]


def card_text(game: Game, instance: str) -> str:
    """A card's values as a player reads them off the card."""
    what = kind(game, instance)
    stats: Mapping[str, Any] = card(game, instance).stats
    if what == "defense":
        return f"{stats['defense_kind']} level {stats['level']}"
    if what == "tactics":
        record = card(game, instance)
        rule = next((r for r in record.rule if r.startswith("10-")), "10")
        return f"tactics {record.name_ja}: {record.timing or 'own turn'} (rule {rule})"
    parts = []
    if "F" in missions(game, instance):
        parts.append(f"F air {stats['air_combat_f']}")
    if "A" in missions(game, instance):
        parts.append(f"A air {stats['air_combat_a']} anti-ship {stats['anti_ship']} "
                     f"damage {stats['damage']} {stats['damage_kind']}")
    if "ground" in missions(game, instance):
        parts.append(f"ground (the base only) anti-ship {stats['anti_ship']} damage "
                     f"{stats['damage']} {stats['damage_kind']}")
    return f"{stats.get('aircraft_type', what)}: " + "; ".join(parts)

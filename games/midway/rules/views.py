"""What each side of a Midway session sees, and the map it is drawn on.

Both sides see the map (the fleets once placed, the air groups in flight), every carrier
area (its boxes and units, damage markers, sunk carriers), the tracks (turn, AOP, the
Invasion Force, the Midway Garrison), the base-attack declaration, the cards played and
discarded, the size of the deck and of each hand, and what happened this turn and the last.
Hidden: the order of the deck (from both), the other side's hand, and the US plan and, on
Turn 1, the US start hex until the plan is revealed (6.2, 3.2(1)). In solitaire the player
is the Japanese: the view without a side is theirs. ``referee_view`` shows everything
(``warpress play reveal``, logged).

What a side knows is also a position (:func:`known_position`: the cards it may not see
pooled with the deck in card order, an unrevealed plan only as written: the rules'
``agent_view``), from which :func:`determinise` draws positions that agree with it: what
agents that look ahead search (engine/agents.py).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from warpress.components.position_map import Stack, draw_map_with_pieces, piece_for
from warpress.engine.errors import BadInput
from warpress.engine.inputs import quote
from warpress.engine.model import FrozenDict, Game
from warpress.engine.position import Position, thaw

from . import area as A
from .choices import OPTIONS
from .common import air_displays, carrier, const, division_carriers, divisions
from .moves import SIDES, Run, groups_in_air, side_of
from .positions import (
    AOP,
    BASE_HITS,
    DECK,
    DISCARD,
    FLEETS,
    GARRISON,
    INVASION,
    INVASION_TRACK,
    REMOVED,
    US_FLEET,
    hand,
    pile,
    to_area,
    with_data,
)

TITLE = "Midway: Turning the Tide in the Pacific (ミッドウェイ海戦)"
PHASE_NAMES = {"setup": "Set-up (3.0)", "over": "Game over"}

#: what a view's position holds in place of a US plan its side may not read (6.2(1))
PLAN_WRITTEN = "(written plan)"

#: the actions a decision due accepts, as ``side`` may know them
Awaiting = Callable[[Position, str | None], list[str]]


def viewer_of(position: Position, side: str | None) -> str | None:
    """The side a view is for: in solitaire the view without a side is the player's."""
    if side is not None and side not in SIDES:
        raise BadInput(f"side {quote(side)} is not one of {', '.join(SIDES)}")
    if side is None and position.scenario == "solitaire":
        return "japan"
    return side


def phase_name(game: Game, position: Position) -> str | None:
    phase = position.phase
    if phase is None or phase in PHASE_NAMES:
        return PHASE_NAMES.get(phase or "")
    name = game.get("sequence", phase).name
    night = position.turn == const(game, "night-turn") and phase != "night-air-operations"
    return f"{name} (night)" if night else name


def view(game: Game, position: Position, side: str | None, awaiting: Awaiting
         ) -> dict[str, Any]:
    """The position as ``side`` may know it (None: what both players see; in solitaire,
    the Japanese player's)."""
    who = viewer_of(position, side)
    due = position.due
    area = to_area(game, position)
    out: dict[str, Any] = {
        "game": game.id, "scenario": position.scenario, "title": TITLE,
        "turn": position.turn, "turns": const(game, "turns"), "phase": position.phase,
        "phase_name": phase_name(game, position),
        "acting": due.side if due and not position.over else None,
        "viewer": who, "over": position.over,
        "due": ({"kind": due.kind, "side": due.side, "rules": list(due.rule),
                 "data": thaw(due.data)} if due and not position.over else None),
        "awaiting": awaiting(position, who) if due and not position.over else [],
        "tracks": {**tracks_view(game, position, area), **turn_view(game, position)},
        "fleets": fleets_view(game, position),
        "carriers": carriers_view(game, area),
        "boxes": boxes_view(game, area),
        "groups": groups_view(game, area),
        "cards": cards_view(game, position, who),
        "hand": list(pile(position, hand(who))) if who else [],
        "announcements": list(thaw(position.data.get("events") or [])),
    }
    if who == "us" and position.data.get("plan") and not position.data.get("executed"):
        out["tracks"]["your plan"] = "→".join(position.data["plan"])
    strike = position.data.get("strike")
    if strike:
        out["attack"] = strike_view(thaw(strike))
    if position.verdict is not None:
        out["summary"] = summary_of(position)
    return out


def _unseen(who: str | None) -> list[str]:
    """The sides whose hands ``who`` may not see (None: both)."""
    return [s for s in SIDES if s != who]


def _dealt(position: Position, unseen: list[str],
           order: Callable[[list[str]], list[str]]) -> Position:
    """``position`` with the deck and the hands of ``unseen`` pooled, put in ``order`` and
    dealt again: each hand as many cards as it held, the rest the deck."""
    pool = order([*pile(position, DECK),
                  *(c for side in unseen for c in pile(position, hand(side)))])
    cards = dict(position.cards)
    for side in unseen:
        size = len(pile(position, hand(side)))
        cards[hand(side)], pool = tuple(pool[:size]), pool[size:]
    cards[DECK] = tuple(pool)
    return replace(position, cards=FrozenDict(cards))


def known_position(position: Position, who: str | None) -> Position:
    """``position`` as ``who`` may know it (None: what both sides know): the deck and the
    hands ``who`` may not see pooled in card order and dealt again, each hand keeping its
    size (3.1(3), 3.2(4)); the US plan, unless ``who`` is the US or it is executed, only
    as PLAN_WRITTEN (6.2(1)). Positions that differ only in what ``who`` may not know give
    the same one."""
    known = _dealt(position, _unseen(who), sorted)
    data = position.data
    if who != "us" and data.get("plan") and not data.get("executed"):
        known = with_data(known, plan=PLAN_WRITTEN)
    return known


def determinise(game: Game, known: Position, side: str, rng: random.Random) -> Position:
    """A position drawn at random that ``side`` knows as ``known`` (its
    :func:`known_position`): the deck and the hands ``side`` may not see dealt again at
    random from their cards, and a plan written but unread drawn among the legal plans (its
    start hex too, on Turn 1)."""
    def shuffled(pool: list[str]) -> list[str]:
        rng.shuffle(pool)
        return pool

    position = _dealt(known, _unseen(side), shuffled)
    if position.data.get("plan") == PLAN_WRITTEN:
        position = with_data(position, plan=tuple(_any_plan(game, position, rng)))
    return position


def _any_plan(game: Game, position: Position, rng: random.Random) -> list[str]:
    """A legal US plan drawn at random, as the US answers the plan decision (6.2(1))."""
    options = list(OPTIONS["plan"](Run(game, position), position.due))
    rng.shuffle(options)
    for option in options:
        actions = option.actions
        if actions:
            return str(actions[rng.randrange(len(actions))].args["route"]).split(",")
    raise BadInput("no legal US plan agrees with the view")


def referee_view(game: Game, position: Position, awaiting: Awaiting) -> dict[str, Any]:
    """Everything: the deck in order, both hands, the US plan."""
    out = view(game, position, None, awaiting)
    out["deck_order"] = list(pile(position, DECK))
    out["hands"] = {s: list(pile(position, hand(s))) for s in SIDES}
    out["plan"] = "→".join(position.data.get("plan") or []) or None
    return out


def summary_of(position: Position) -> dict[str, Any] | None:
    verdict = position.verdict
    if verdict is None:
        return None
    return {"result": verdict.result, "winner": verdict.winner,
            "reasons": [{"text": verdict.reason, "rules": list(verdict.rule)}],
            "condition": verdict.condition,
            "points": thaw(position.data.get("points") or {})}


# --- parts ------------------------------------------------------------------------------


def tracks_view(game: Game, position: Position, area: A.CarrierArea) -> dict[str, Any]:
    tracks = position.tracks
    return {"aop japan": tracks[AOP["japan"]], "aop us": tracks[AOP["us"]],
            "invasion force": tracks[INVASION_TRACK] or "X",
            "garrison": tracks[GARRISON] or "X", "base hits": tracks[BASE_HITS],
            "base function": "destroyed" if A.base_destroyed(game, area) else "working"}


def turn_view(game: Game, position: Position) -> dict[str, Any]:
    data = position.data
    declared = data.get("declared")
    out: dict[str, Any] = {"base attack": {None: "not yet declared", True: "declared",
                                           False: "none"}[declared]}
    if declared:
        out["base-attack operations"] = f"{data.get('base_ops_done') or 0} of " \
                                        f"{data.get('base_ops') or '?'}"
    op = data.get("op")
    if op:
        out["air operation"] = f"{op['side']} ({op['kind']})"
    if data.get("card_taken"):
        out["card taken instead of an air operation"] = True
    return out


def _where(game: Game, position: Position, fleet_id: str) -> str:
    piece = position.piece(fleet_id)
    if piece.kind == "hex":
        return str(piece.place)
    if piece.kind == "eliminated":
        return "destroyed"
    if fleet_id == INVASION:
        return f"turn box {const(game, 'invasion-force-entry-turn')}, enters at A-4, A-5 or A-6"
    if fleet_id == US_FLEET:
        return "not yet revealed (its start hex is written down)"
    return "enters at A-1, A-2 or A-3"


def fleets_view(game: Game, position: Position) -> list[dict[str, Any]]:
    return [{"id": f, "side": position.piece(f).side, "where": _where(game, position, f)}
            for f in FLEETS]


def _units(units: list[A.Air]) -> str:
    return ", ".join(f"{u.uid} ({u.steps})" for u in units) or "empty"


def carriers_view(game: Game, area: A.CarrierArea) -> list[dict[str, Any]]:
    out = []
    for side in SIDES:
        for division in divisions(game, side):
            for c in division_carriers(game, division):
                status = A.status(game, area, c)
                record = {"id": c, "name": carrier(game, c).get("name"), "side": side,
                          "division": division, "status": status}
                if status != "sunk":
                    record["deck"] = "; ".join(
                        f"{b.id.rsplit('-', 1)[-1]} "
                        + ("damaged" if (d, b.id) in area.damage else
                           _units(list(area.in_box(d, b.id))))
                        for d, b in A.deck_boxes(game, c))
                    display_id, hangar = A.hangar_box(game, c)
                    record["hangar"] = _units(list(area.in_box(display_id, hangar.id)))
                out.append(record)
    base = A.base_holder(game)
    runway = "; ".join(f"{b.id} " + ("lost" if (d, b.id) in area.damage else
                                       _units(list(area.in_box(d, b.id))))
                       for d, b in A.deck_boxes(game, base))
    display_id, hangar = A.hangar_box(game, base)
    out.append({"id": "midway", "side": "us", "division": display_id,
                "status": "destroyed" if A.base_destroyed(game, area) else "working",
                "deck": runway, "hangar": _units(list(area.in_box(display_id, hangar.id)))})
    return out


def boxes_view(game: Game, area: A.CarrierArea) -> list[dict[str, Any]]:
    """Each display's CAP and Return boxes."""
    out = []
    for display in air_displays(game):
        record: dict[str, Any] = {"id": display.id, "side": display.side}
        for b in display.boxes:
            if b.kind in ("cap", "return"):
                record[b.id] = _units(list(area.in_box(display.id, b.id)))
        out.append(record)
    return out


def groups_view(game: Game, area: A.CarrierArea) -> list[dict[str, Any]]:
    return [{"id": gid, "side": side_of(game, units[0]), "hex": units[0].box,
             "units": _units(list(units)),
             "launched": "this operation" if units[0].launched else ""}
            for gid, units in groups_in_air(area).items()]


def cards_view(game: Game, position: Position, who: str | None) -> list[dict[str, Any]]:
    """The event cards: the deck's size, the discards and cards played (face up), each
    hand's size and the viewer's own cards."""
    def named(cards: tuple[str, ...]) -> str:
        return ", ".join(f"{c} {game.get('cards', c).name}" for c in cards) or "none"

    out: list[dict[str, Any]] = [
        {"id": "deck", "cards": len(pile(position, DECK))},
        {"id": "discards", "cards": named(pile(position, DISCARD))},
        {"id": "played", "cards": named(pile(position, REMOVED))}]
    for side in SIDES:
        held = pile(position, hand(side))
        out.append({"id": f"{side} hand", "cards": named(held) if side == who else len(held)})
    return out


def strike_view(strike: dict[str, Any]) -> dict[str, Any]:
    return {"group": strike["group"], "by": strike["side"], "hex": strike["hex"],
            "target": strike["target"], "stage": strike["stage"],
            "intercepting": strike["cap"], "assigned": strike["assign"]}


# --- the map ------------------------------------------------------------------------------


def map_stacks(game: Game, position: Position) -> list[Stack]:
    """The counters on the map as both sides see them: the fleets placed, the air groups
    in flight (each unit on its reduced side with one step left)."""
    stacks: dict[str, list] = {}
    for piece in position.pieces:
        if piece.kind != "hex":
            continue
        full = int(game.get("units", piece.unit).steps or 1)
        reduced = piece.unit not in FLEETS and piece.step < full
        stacks.setdefault(str(piece.place), []).append(piece_for(game, piece.unit, reduced))
    return sorted(stacks.items())


def draw_map(game: Game, position: Position, fmt: str) -> bytes:
    title = (f"{game.info.name} · turn {position.turn} · "
             f"{phase_name(game, position) or ''}")
    return draw_map_with_pieces(game, game.hex_maps[0].id, map_stacks(game, position), fmt,
                                title=title)

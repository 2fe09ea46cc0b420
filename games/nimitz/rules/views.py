"""What the player sees of a Nimitz session: the campaign (objectives held, the set-up that is
assumed), the points and their units, the boxes, the battle going on, the events of this
turn and the last, and at the end the verdict (``mapview.py`` draws the position on the
kit's campaign map). Nimitz is solitaire and open: the player sees every unit and stack order
(the dice, not a hidden hand, decide what the Japanese do)."""

from __future__ import annotations

from typing import Any

from warpress.engine.model import Game
from warpress.engine.position import Position, thaw

from . import battle as bt
from .phases import objectives_held
from .positions import (
    DAMAGED,
    JAPAN,
    US,
    Run,
    assumed_setup,
    campaign,
    name,
    point_ids,
    point_name,
    turn_values,
)

TITLE = "Nimitz (ニミッツの決断), solitaire: you command the US"
PHASE_NAMES = {"over": "Campaign over"}


def phase_name(game: Game, phase: str | None) -> str | None:
    if phase is None or phase in PHASE_NAMES:
        return PHASE_NAMES.get(phase or "")
    return game.get("sequence", phase).name


def _label(run: Run, piece) -> str:
    text = name(run.game, piece)
    marks = []
    if piece.step == DAMAGED:
        marks.append("damaged")
    marks += [f for f in ("moved", "transport", "complete", "moving") if f in piece.flags]
    return f"{text} [{piece.id}]" + (f" ({', '.join(marks)})" if marks else "")


def points_view(run: Run) -> list[dict[str, Any]]:
    """Each point with units: the US units, the Japanese stacks top first (3.3)."""
    out = []
    for point in point_ids(run.game):
        us, japan = run.at(point, US), run.at(point, JAPAN)
        if us or japan:
            out.append({"id": point, "name": point_name(run.game, point),
                        "us": [_label(run, p) for p in us],
                        "japan": [_label(run, p) for p in japan]})
    return out


def boxes_view(run: Run) -> list[dict[str, Any]]:
    places = sorted({str(p.place) for p in run.pieces.values() if p.kind == "box"})
    out = []
    for box in places:
        units = [p for p in run.pieces.values() if p.kind == "box" and p.place == box]
        side = units[0].side if units else None
        ordered = run.at(box, side, "box")
        out.append({"id": box, "units": [_label(run, p) for p in ordered]})
    return out


def campaign_view(run: Run) -> list[dict[str, Any]]:
    camp = campaign(run.game, run.campaign)
    held = objectives_held(run)
    assumed = assumed_setup(run.game, run.campaign)
    record = {"id": run.campaign, "name": camp.label,
              "objectives": [point_name(run.game, str(o)) for o in camp.get("objectives")],
              "held now": f"{len(held)}: {', '.join(point_name(run.game, p) for p in held)}",
              "held at turn ends": list(run.data.get("held", [])),
              "set-up": (f"assumed where the rules give none (source: assumed): "
                         f"{', '.join(assumed)}") if assumed else "from the rules",
              "special rules": ", ".join(str(r) for r in camp.get("special_rules") or ())}
    if run.data.get("linked"):
        record["linked results"] = [f"{r['campaign']}: {r['total']}"
                                    for r in run.data.get("results", [])]
    return [record]


def battle_view(run: Run) -> list[dict[str, Any]]:
    b = run.data.get("battle")
    if not b:
        return []
    rows = []
    for where in (*bt.AREAS, "position", "beach", "transport", "airfield", "carrier"):
        us = [p for p in bt.units(run, US, lambda s, w=where: s == w)]
        japan = [p for p in bt.units(run, JAPAN, lambda s, w=where: s == w)]
        if us or japan:
            rows.append({"id": where, "us": [_label(run, run.pieces[p]) for p in us],
                         "japan": [_label(run, run.pieces[p]) for p in japan]})
    rows.append({"id": "battle", "point": point_name(run.game, b["point"]),
                 "round": b["round"], "rounds left": b["marker"],
                 "airfield capacity": f"US {b['capacity'][US]}, Japan {b['capacity'][JAPAN]}",
                 "US markers": [m + (" (used)" if m in b["used"] else "")
                                for m in b["bought"]],
                 "Japanese markers": list(b["jp"]), "BPP": b["bpp"]})
    return rows


def view(game: Game, position: Position, awaiting: list[str]) -> dict[str, Any]:
    """The position as the player sees it."""
    run = Run(game, position)
    due = position.due
    values = turn_values(game, run.campaign)
    return {
        "game": game.id, "scenario": position.scenario, "title": TITLE,
        "turn": position.turn, "turns": len(values), "phase": position.phase,
        "phase_name": phase_name(game, position.phase),
        "acting": due.side if due and not position.over else position.side,
        "over": position.over,
        "due": ({"kind": due.kind, "side": due.side, "rules": list(due.rule),
                 "data": thaw(due.data)} if due and not position.over else None),
        "awaiting": awaiting,
        "points": {"RP": int(run.data.get("rp", 0)), "SP": int(run.data.get("sp", 0)),
                   "Japanese supply markers": int(run.data.get("jp_supply", 0))},
        "tracks": dict(position.tracks),
        "campaign": campaign_view(run),
        "pieces": points_view(run),
        "boxes": boxes_view(run),
        "battle": battle_view(run),
        "announcements": list(thaw(position.data.get("events") or [])),
        "summary": summary_of(position),
    }


def summary_of(position: Position) -> dict[str, Any] | None:
    """At the end: the level reached, why, the objectives held at each turn's end."""
    if position.verdict is None:
        return None
    v = position.verdict
    out: dict[str, Any] = {"result": v.result, "winner": v.winner,
                           "reasons": [{"text": v.reason, "rules": list(v.rule)}],
                           "condition": v.condition,
                           "objectives_held_by_turn": list(position.data.get("held") or [])}
    if position.data.get("results"):
        out["campaigns"] = [dict(r) for r in thaw(position.data["results"])]
    return out

"""What the players of an Axis & Allies session see: the whole board (the game hides
nothing), each power's IPC, NPL and weapons, the battle going on, the units bought and not
yet placed, and the events of this power's turn and the last; ``summary_of`` the verdict.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from warpress.engine.model import Game
from warpress.engine.position import Position, thaw

from .board import NEUTRAL, alliance, capitals, is_sea, points
from .moves import units_text
from .orders import awaiting
from .positions import at, ipc, npl_of, occupied_places, powers, purchased, season, weapons

TITLE = "Axis & Allies (Milton Bradley, 2nd edition)"
PHASE_NAMES = {"income": "⑥ Income", "over": "Game over"}


def phase_name(game: Game, phase: str | None) -> str | None:
    if phase is None or phase in PHASE_NAMES:
        return PHASE_NAMES.get(phase or "")
    return game.get("sequence", phase).name


def view(game: Game, position: Position, side: str | None) -> dict[str, Any]:
    """The position as every power sees it (``side`` changes nothing: nothing is hidden)."""
    due = position.due
    live = due is not None and not position.over
    out: dict[str, Any] = {
        "game": game.id, "scenario": position.scenario,
        "title": f"{TITLE}, {season(game, position.turn)}",
        "turn": position.turn, "season": season(game, position.turn),
        "phase": position.phase, "phase_name": phase_name(game, position.phase),
        "acting": due.side if live else position.side, "turn_of": position.side,
        "viewer": side, "over": position.over,
        "due": ({"kind": due.kind, "side": due.side, "rules": list(due.rule),
                 "data": thaw(due.data)} if live else None),
        "awaiting": awaiting(position) if live else [],
        "powers": powers_view(game, position),
        "battle": battle_view(position),
        "purchased": [{"power": p, "units": units_text(u.unit for u in purchased(position, p))}
                      for p in powers(game) if purchased(position, p)],
        "areas": areas_view(game, position),
        "announcements": [{k: v for k, v in e.items() if k != "key"}
                          for e in thaw(position.data.get("events") or [])],
    }
    if position.verdict is not None:
        out["summary"] = summary_of(position)
    return out


def powers_view(game: Game, position: Position) -> list[dict[str, Any]]:
    held = capitals(game)
    out = []
    for p in powers(game):
        capital = next((t for t, owner in held.items() if owner == p), None)
        out.append({"id": p, "alliance": alliance(game, p), "ipc": ipc(position, p),
                    "npl": npl_of(game, position, p),
                    "territories": sum(1 for who in position.control.values() if who == p),
                    "capital": f"{capital} (held by {position.control.get(capital)})",
                    "weapons": ",".join(sorted(weapons(position, p))) or "none",
                    "lost": sum(thaw(position.data["lost"]).get(p, {}).values())})
    return out


def battle_view(position: Position) -> list[dict[str, Any]]:
    b = position.data.get("battle")
    left = list(position.data.get("battles") or ())
    if not b and not left:
        return []
    out = []
    if b:
        ids = set(b["attackers"]) | set(b["defenders"])
        units = {p.id: p.unit for p in position.pieces if p.id in ids}
        out.append({"space": b["space"], "kind": b["kind"], "round": b["round"],
                    "attacker": units_text(units[i] for i in b["attackers"] if i in units),
                    "defender": units_text(units[i] for i in b["defenders"] if i in units),
                    "casualties": units_text(units[i] for i in b["casualties"] if i in units)
                    or "none"})
    out += [{"space": s, "kind": "to fight"} for s in left if not b or s != b["space"]]
    return out


def areas_view(game: Game, position: Position) -> list[dict[str, Any]]:
    """Every space holding units: who holds it and each power's units there (transports
    and carriers by id, with what is aboard)."""
    out = []
    for place in sorted(occupied_places(position)):
        pieces = at(position, place)
        record: dict[str, Any] = {"id": place}
        if not is_sea(points(game)[place]):
            record["held_by"] = position.control.get(place, NEUTRAL)
        for side in powers(game):
            mine = [p for p in pieces if p.side == side]
            if mine:
                record[side] = _units(mine)
        out.append(record)
    return out


def _units(pieces) -> str:
    counts = Counter(p.unit for p in pieces if not p.props.get("aboard")
                     and p.unit not in ("transport", "carrier"))
    parts = [f"{n} {t}" for t, n in counts.items()]
    for p in pieces:
        if p.unit in ("transport", "carrier"):
            cargo = [c.unit for c in pieces if c.props.get("aboard") == p.id]
            parts.append(p.id + (f" [{units_text(cargo)}]" if cargo else ""))
    aboard_others = [p for p in pieces if p.props.get("aboard")
                     and not any(h.id == p.props.get("aboard") for h in pieces)]
    parts += [f"{p.unit} aboard {p.props['aboard']}" for p in aboard_others]
    return ", ".join(parts)


def summary_of(position: Position) -> dict[str, Any] | None:
    verdict = position.verdict
    if verdict is None:
        return None
    return {"result": verdict.result, "winner": verdict.winner,
            "reasons": [{"text": verdict.reason, "rules": list(verdict.rule)}],
            "condition": verdict.condition, "round": position.turn}

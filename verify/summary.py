"""One line of facts per game for ``warpress games``."""

from __future__ import annotations

from typing import Any

from ..engine.loader import builtin
from .data import provenance_counts


def game_summary(name: str) -> dict[str, Any]:
    """Kind, component counts and the share of sourced vs assumed values."""
    game = builtin(name)
    sourced, assumed = provenance_counts(game)
    total = sourced + assumed
    hexes = sum(len(m.hex_ids) for m in game.hex_maps)
    points = sum(len(m.points) for m in game.point_maps)
    components = {
        "units": sum(u.count or 0 for u in game.units) or len(game.units),
        "unit types": len(game.units),
        "markers": sum(m.count or 0 for m in game.markers),
        "cards": sum(c.count for c in game.cards),
        "tracks": len(game.tracks),
        "tables": len(game.tables),
        "hexes": hexes,
        "points": points,
        "displays": len(game.displays),
        "sheets": len(game.sheets),
    }
    return {
        "id": game.id,
        "name": game.info.label,
        "kind": game.info.kind,
        "players": game.info.players,
        "components": components,
        "values": total,
        "sourced": sourced,
        "assumed": assumed,
        "sourced_pct": 100.0 * sourced / total if total else 0.0,
        "assumed_pct": 100.0 * assumed / total if total else 0.0,
        "errata": len(game.errata),
    }

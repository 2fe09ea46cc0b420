"""Builders of small nights for the Nightfighter engine tests."""

from __future__ import annotations

from warpress.engine.games.nightfighter.state import Bomber, Environment, Fighter, Night


def bomber(bomber_id: str = "102", hex_id: str = "0712", **kw) -> Bomber:
    """A Lancaster-like bomber on the map facing S (down its column)."""
    base = dict(unit="lancaster", hex=hex_id, facing=3, mp="2*", fp=2, damage=4,
                status="on-map")
    base.update(kw)
    return Bomber(bomber_id, **base)


def fighter(fighter_id: str = "204", hex_id: str = "0713", **kw) -> Fighter:
    """A Bf110G-4 night fighter on the map."""
    base = dict(unit="bf110g-4", hex=hex_id, facing=3, mp="3", fp=3, damage=2)
    base.update(kw)
    return Fighter(fighter_id, **base)


def night(bombers=(), fighters=(), **kw) -> Night:
    """A night with Average visibility and a New moon unless told."""
    kw.setdefault("env", Environment(moon="new", visibility="average", range=0, lit_range=3))
    return Night(bombers=tuple(bombers), fighters=tuple(fighters), **kw)

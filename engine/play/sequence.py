"""The sequence of play from data: turns, phases and the conditions in force.

A turn runs the ``sequence`` records that have ``do:`` in ``order`` (docs/playing.md,
"Sequence of play"); a phase whose ``turns`` leave out the turn is skipped. The game lasts
the values of the ``play.turns.track`` (or ``count`` turns). A ``conditions`` record is in
force on its ``turns``, or after the roll of its ``table`` gave its ``result`` this turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import floor

from ..errors import BadInput
from ..model import Condition, Game, MoveChange, Phase
from ..position import Position

_PHASES: dict[int, tuple[Game, tuple[Phase, ...]]] = {}


def phases(game: Game) -> tuple[Phase, ...]:
    """The phases a session runs, in order (the ``sequence`` records with ``do:``)."""
    hit = _PHASES.get(id(game))
    if hit is None or hit[0] is not game:
        ordered = sorted((p for p in game.sequence if p.do is not None),
                         key=lambda p: (p.order if p.order is not None else 10**6))
        hit = _PHASES[id(game)] = (game, tuple(ordered))
    return hit[1]


_BY_ID: dict[int, tuple[Game, dict[str, Phase]]] = {}


def phase(game: Game, phase_id: str | None) -> Phase:
    """The phase ``phase_id`` of the sequence; BadInput when there is none."""
    hit = _BY_ID.get(id(game))
    if hit is None or hit[0] is not game:
        hit = _BY_ID[id(game)] = (game, {p.id: p for p in phases(game)})
    found = hit[1].get(phase_id or "")
    if found is None:
        raise BadInput(f"{game.id}: no phase {phase_id!r} in the sequence of play")
    return found


def turns(game: Game) -> tuple[int, ...]:
    """The turns of the game: the turn track's values (whole numbers), or 1..count."""
    rules = game.play.turns if game.play else None
    if rules is None:
        return (1,)
    if rules.track:
        track = next((t for t in game.tracks if t.id == rules.track), None)
        if track is None:
            raise BadInput(f"{game.id}: play.turns.track {rules.track!r} is no track")
        values = tuple(v for v in track.values if isinstance(v, int) and not isinstance(v, bool))
        return values or (1,)
    return tuple(range(1, (rules.count or 1) + 1))


def plays_on(p: Phase, turn: int) -> bool:
    """Whether phase ``p`` happens on ``turn`` (its ``turns``: a list, a number, or none)."""
    if p.turns is None:
        return True
    if isinstance(p.turns, int) and not isinstance(p.turns, bool):
        return p.turns == turn
    if isinstance(p.turns, tuple | list):
        return turn in p.turns
    return True


def in_force(game: Game, position: Position, side: str | None = None) -> list[Condition]:
    """The conditions in force now for ``side``'s units (a condition with no side is for
    every unit)."""
    rolled = position.data.get("rolled") or {}
    out = []
    for c in game.conditions:
        if c.side is not None and side is not None and c.side != side:
            continue
        if c.turns and position.turn in c.turns:
            out.append(c)
        elif c.table is not None and c.table in rolled and rolled[c.table] == c.result:
            out.append(c)
    return out


def apply_change(mp: int, cap: int | None, change: MoveChange | None) -> tuple[int, int | None]:
    """MP and the hex cap after one ``MoveChange``: set, then multiply, then subtract."""
    if change is None:
        return mp, cap
    if change.allowance is not None:
        mp = change.allowance
    if change.times is not None:
        mp = floor(Fraction(mp) * Fraction(str(change.times)))
    mp = max(0, mp - change.minus)
    if change.hexes is not None:
        cap = change.hexes if cap is None else min(cap, change.hexes)
    return mp, cap


def multiplier(conditions: Sequence[Condition], what: str) -> Fraction:
    """The product of the conditions' ``attack`` or ``defence`` multipliers."""
    out = Fraction(1)
    for c in conditions:
        value = getattr(c, what)
        if value is not None:
            out *= Fraction(str(value))
    return out

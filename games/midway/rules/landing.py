"""The landing on Midway at the end of Turn 7 (10.3), with exact odds by dynamic programming."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from warpress.engine.dice import Dice, MissingRoll, weights
from warpress.engine.errors import BadInput
from warpress.engine.model import Game

from .common import DIE, check_hex, const, distance, track_values, violation

ROLLS = "rolls"


def check_values(game: Game, invasion: int, garrison: int) -> None:
    """Both tracks must stand on a numbered box (X means the side is gone)."""
    for name, value, track in (("invasion", invasion, "invasion-force"),
                               ("garrison", garrison, "garrison")):
        values = track_values(game, track)
        if value not in values:
            raise BadInput(f"input {name}={value} is not allowed "
                           f"(integer {min(values)}..{max(values)}, the {track} track)")


def landing_allowed(game: Game, invasion_hex: str) -> bool:
    """The Invasion Force lands only from a hex adjacent to Midway (10.3)."""
    check_hex(game, invasion_hex, "invasion_hex")
    return distance(game, invasion_hex, str(const(game, "midway-hex"))) <= const(
        game, "landing-distance")


def check_landing(game: Game, invasion_hex: str, turn: int) -> None:
    """RuleViolation unless the landing may happen now (end of Turn 7, adjacent to Midway)."""
    if turn != const(game, "turns"):
        raise violation("10.3", f"the landing happens at the end of Turn {const(game, 'turns')}, "
                                f"not Turn {turn}")
    if not landing_allowed(game, invasion_hex):
        raise violation("10.3", f"the Invasion Force in {invasion_hex} is not adjacent to Midway")


def landing(game: Game, invasion: int, garrison: int, dice: Dice) -> dict:
    """Alternate rolls, Japanese first, until one track reaches X (10.3).

    Japanese roll at or below the Invasion Force value: Garrison -1; US roll at or
    below the Garrison value: Invasion Force -1. With given rolls that run out
    before either reaches X the outcome is ``undecided``.
    """
    check_values(game, invasion, garrison)
    used = 0
    try:
        while True:
            roll = dice.roll(DIE, ROLLS)
            used += 1
            if roll <= invasion:
                garrison -= 1
                if garrison <= 0:
                    return _result("captured", invasion, garrison)
            roll = dice.roll(DIE, ROLLS)
            used += 1
            if roll <= garrison:
                invasion -= 1
                if invasion <= 0:
                    return _result("repulsed", invasion, garrison)
    except MissingRoll:
        if used == 0:
            raise
        return _result("undecided", invasion, garrison)


def _result(outcome: str, invasion: int, garrison: int) -> dict:
    """The landing's result fields, tracks as printed."""
    return {"outcome": outcome, "invasion": _track(invasion), "garrison": _track(garrison)}


def _track(value: int) -> int | str:
    """A track value as printed: X for 0."""
    return value if value > 0 else "X"


def p_at_most(value: int) -> Fraction:
    """P(d6 <= value)."""
    return sum((p for face, p in weights(DIE).items() if face <= value), Fraction(0))


@cache
def captured_probability(invasion: int, garrison: int) -> Fraction:
    """Exact P(captured) with the Japanese to roll, by DP over (invasion, garrison).

    One round (a Japanese then a US roll) either decides, moves to a state with
    a smaller track, or repeats the state (both miss); the repeat is summed as a
    geometric series: P = (sum over the other outcomes) / (1 - P(both miss)).
    """
    pj, pu = p_at_most(invasion), p_at_most(garrison)
    j_hit = pj if garrison - 1 > 0 else Fraction(0)
    win_now = pj if garrison - 1 <= 0 else Fraction(0)
    total = win_now
    if j_hit:
        pu_after = p_at_most(garrison - 1)
        total += j_hit * (1 - pu_after) * captured_probability(invasion, garrison - 1)
        if invasion - 1 > 0:
            total += j_hit * pu_after * captured_probability(invasion - 1, garrison - 1)
    if invasion - 1 > 0:
        total += (1 - pj) * pu * captured_probability(invasion - 1, garrison)
    return total / (1 - (1 - pj) * (1 - pu))


def landing_odds(game: Game, invasion: int, garrison: int) -> dict[str, Fraction]:
    """Exact distribution of the landing's outcome: captured / repulsed (10.3)."""
    check_values(game, invasion, garrison)
    captured = captured_probability(invasion, garrison)
    return {"captured": captured, "repulsed": 1 - captured}

"""Victory (4.1-4.3): Day 1 ratio, automatic victory and draw, Day 2 points."""

from __future__ import annotations

from warpress.engine.errors import BadInput
from warpress.engine.model import Game, VictoryCondition

from .common import carriers, const

CAPTURED, HELD = "captured", "held"


def fleet_size(game: Game, side: str) -> int:
    """Carriers a side starts with (the ``carriers`` records)."""
    return len(carriers(game, side))


def check_afloat(game: Game, japan: int, us: int) -> None:
    """BadInput unless each side's carriers afloat are 0..its fleet."""
    for name, value, side in (("japan_carriers", japan, "japan"), ("us_carriers", us, "us")):
        top = fleet_size(game, side)
        if not 0 <= value <= top:
            raise BadInput(f"input {name}={value} is not allowed (integer 0..{top})")


def victory_param(game: Game, record: str, name: str) -> int:
    """A parameter of a victory record (ratio, points)."""
    return int(game.record("victory", record, VictoryCondition).params[name])


def automatic(japan: int, us: int) -> str | None:
    """4.3: a side that has sunk every enemy carrier wins; both at once is a draw.

    Checked at the end of a turn, not the moment the last carrier sinks (E12).
    """
    if japan == 0 and us == 0:
        return "draw"
    if us == 0:
        return "japan"
    if japan == 0:
        return "us"
    return None


def day_one(game: Game, japan: int, us: int) -> str:
    """4.1: at the end of Turn 3 a side with at least 3x the enemy's carriers afloat wins."""
    ratio = victory_param(game, "day-1", "ratio")
    if japan >= ratio * us:
        return "japan"
    if us >= ratio * japan:
        return "us"
    return "none"


def points(game: Game, japan: int, us: int, midway: str,
           scuttling_cancelled: str | None = None) -> tuple[int, int]:
    """4.2: 1 point per enemy carrier sunk, 2 for Midway (captured: Japanese; held: US).

    ``scuttling_cancelled`` names the side that played card 01 (処分中止): its
    opponent does not score one of the carriers it sank (2.3, E3).
    """
    per = victory_param(game, "day-2", "points_per_carrier_sunk")
    base = victory_param(game, "day-2", "points_for_midway")
    japan_points = per * (fleet_size(game, "us") - us)
    us_points = per * (fleet_size(game, "japan") - japan)
    if scuttling_cancelled == "us" and japan_points:
        japan_points -= per
    if scuttling_cancelled == "japan" and us_points:
        us_points -= per
    if midway == CAPTURED:
        japan_points += base
    elif midway == HELD:
        us_points += base
    else:
        raise BadInput(f"input midway={midway!r} is not allowed (captured|held)")
    return japan_points, us_points


def victory(game: Game, turn: int, japan: int, us: int, midway: str | None = None,
            scuttling_cancelled: str | None = None) -> dict:
    """The result at the end of ``turn``: winner japan|us|draw|none and, on Turn 7, points.

    Automatic victory (4.3) is checked first at every turn end (the order of 4.3
    and 4.1 is not stated; it only matters when a side has no carrier left, and
    4.3 then decides, the both-zero draw included). Turn 3: 4.1. Turn 7: 4.2.
    """
    last = const(game, "turns")
    if not 1 <= turn <= last:
        raise BadInput(f"input turn={turn} is not allowed (integer 1..{last})")
    check_afloat(game, japan, us)
    result: dict = {"winner": "none", "japan_points": None, "us_points": None}
    if turn == last:
        if midway is None:
            raise BadInput("missing input 'midway' (captured|held) for the end of Turn "
                           f"{last}")
        result["japan_points"], result["us_points"] = points(game, japan, us, midway,
                                                             scuttling_cancelled)
    auto = automatic(japan, us)
    if auto is not None:
        result["winner"] = auto
    elif turn == const(game, "day-1-last-turn"):
        result["winner"] = day_one(game, japan, us)
    elif turn == last:
        jp, up = result["japan_points"], result["us_points"]
        result["winner"] = "japan" if jp > up else "us" if up > jp else "draw"
    return result


def rules_for(game: Game, turn: int, japan: int, us: int) -> tuple[str, ...]:
    """The rules a victory answer rests on."""
    rules = ["4.3"]
    if automatic(japan, us) is None:
        if turn == const(game, "day-1-last-turn"):
            rules.insert(0, "4.1")
        elif turn == const(game, "turns"):
            rules.insert(0, "4.2")
    return tuple(rules)

"""① Weapons development: dice cost, chance of success, and a development roll."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from warpress.engine.dice import Dice
from warpress.engine.errors import BadInput
from warpress.engine.model import Game
from warpress.engine.tables import lookup

from .common import DIE, const, faces, flag, weapon_ids


def dice_cost(game: Game, dice: int) -> int:
    """IPC for ``dice`` development dice (constant research-die-cost, I17)."""
    return dice * int(const(game, "research-die-cost"))


def die_succeeds(game: Game, roll: int) -> bool:
    """One development die: table research-die (a 6)."""
    return lookup(game.table("research-die"), roll=roll)["success"] is True


def p_success(game: Game, dice: int) -> Fraction:
    """P(at least one die succeeds) = 1 - (misses/6)**dice (I18)."""
    miss = Fraction(sum(1 for r in faces() if not die_succeeds(game, r)), len(faces()))
    return 1 - miss**dice


def chart_weapon(game: Game, roll: int) -> str:
    """The weapon a Weapons Development chart roll gives."""
    return str(lookup(game.table("weapons-development"), roll=roll)["weapon"])


def develop(game: Game, dice: int, developed: list[str], rolls: Dice) -> dict[str, Any]:
    """Roll ``dice`` development dice; one chart roll per success; re-roll owned weapons.

    A weapon already developed (before or earlier in this roll) is re-rolled (constant
    research-reroll-developed); once every weapon is developed a success is discarded
    (E12, constant research-all-developed).
    """
    known = weapon_ids(game)
    for item in developed:
        if item not in known:
            allowed = ", ".join(known)
            raise BadInput(f"input developed: {item!r} is not a weapon (weapons: {allowed})")
    sixes = sum(die_succeeds(game, rolls.roll(DIE, "rolls")) for _ in range(dice))
    owned = set(developed)
    gained: list[str] = []
    for _ in range(sixes):
        if owned >= set(known):
            break  # E12: nothing left to develop, the success is discarded
        weapon = chart_weapon(game, rolls.roll(DIE, "chart"))
        while weapon in owned and flag(game, "research-reroll-developed"):
            weapon = chart_weapon(game, rolls.roll(DIE, "chart"))
        owned.add(weapon)
        gained.append(weapon)
    return {"cost": dice_cost(game, dice), "sixes": sixes, "success": sixes > 0,
            "weapons": ",".join(gained) or "none"}


def purchase_cost(game: Game, units: dict[str, int], dice: int = 0) -> int:
    """IPC spent in ①: development dice plus the units' costs (I17)."""
    from .common import unit_row

    return dice_cost(game, dice) + sum(unit_row(game, t, "units")["cost"] * n
                                       for t, n in units.items())

"""Who and what is on a battle's sheet (10.1-10.2): the battle's state in the position
(``data.battle``, described in ``battle.py``), the units of each side by where they stand,
the markers in effect (10.5, 10.7), units leaving the battle (10.22.1) and the words for
areas and units."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .common import const
from .positions import BATTALION_BOX, FULL, JAPAN, US, Run, kind, name

AREAS = ("japanese-sea", "island", "coastal", "us-sea")

SEAS = ("japanese-sea", "coastal", "us-sea")
AIRFIELD = {US: "us-airfield", JAPAN: "japanese-airfield"}
ON_ISLAND = ("position", "beach")


def other(side: str) -> str:
    return JAPAN if side == US else US


def state(run: Run) -> dict[str, Any]:
    return run.data["battle"]


def units(run: Run, side: str, where: Callable[[str], bool] = lambda s: True) -> list[str]:
    """Pieces of ``side`` in the battle whose slot passes ``where``, in piece order."""
    b = state(run)
    return [pid for pid, slot in b["slot"].items() if slot != "out" and where(slot)
            and pid in run.pieces and run.pieces[pid].side == side]


def ships_in(run: Run, side: str, area: str, subs: bool | None = None) -> list[str]:
    return [pid for pid in units(run, side, lambda s: s == area)
            if kind(run.game, run.pieces[pid]).ship
            and (subs is None or kind(run.game, run.pieces[pid]).sub == subs)]


def flying(run: Run, side: str, area: str) -> list[str]:
    return [pid for pid in units(run, side, lambda s: s == area)
            if kind(run.game, run.pieces[pid]).aircraft]


def ground_on_island(run: Run, side: str) -> list[str]:
    return units(run, side, lambda s: s in ON_ISLAND)


def transported(run: Run, side: str) -> list[str]:
    return units(run, side, lambda s: s == "transport")


def land_air(run: Run, side: str) -> list[str]:
    return [pid for pid in units(run, side) if kind(run.game, run.pieces[pid]).land_air]


def carrier_air(run: Run, side: str) -> list[str]:
    return [pid for pid in units(run, side) if kind(run.game, run.pieces[pid]).carrier_air]


def marked(run: Run, marker: str) -> bool:
    """A Japanese marker drawn this round that takes effect (10.7; kamikaze void in 1942 and
    1943)."""
    b = state(run)
    if marker not in b["jp"]:
        return False
    if marker == "kamikaze":
        if run.campaign in const(run.game, "kamikaze-void-campaigns"):
            return False
        return any(kind(run.game, run.pieces[p]).ship for p in units(run, US))
    return True


def holds(run: Run, marker: str) -> bool:
    """A US marker bought for this battle and not used yet (10.5)."""
    b = state(run)
    return marker in b["bought"] and marker not in b["used"]


def use(run: Run, marker: str, text: str) -> None:
    state(run)["used"].append(marker)
    run.say(f"US {text}", "10.5")


def discard(run: Run, marker: str) -> None:
    if marker not in run.data["cup_used"]:
        run.data["cup_used"].append(marker)


def destroy(run: Run, pid: str) -> None:
    """A unit out of the battle: carrier aircraft vanish (10.22.1), Japanese battalions go
    back to the battalion box (2.8.4), every other unit leaves the game."""
    b = state(run)
    b["slot"].pop(pid, None)
    piece = run.pieces[pid]
    k = kind(run.game, piece)
    if k.carrier_air:
        run.remove(pid)
        b["home"].pop(pid, None)
    elif k.battalion and piece.side == JAPAN:
        run.place(pid, "box", BATTALION_BOX, transport=False)
        run.step_to(pid, FULL)
    else:
        run.place(pid, "eliminated", None, transport=False, moved=False)
        run.step_to(pid, 0)
    if pid in b.get("bombers", []):
        b["bombers"].remove(pid)


def sheet_count(run: Run, side: str) -> int:
    """Units on the sheet: ships, ground units (on transports too), land and carrier
    aircraft (E24: as the battle-duration marker counts them)."""
    return len(units(run, side))


def area_name(area: str) -> str:
    return {"japanese-sea": "Japanese sea area", "coastal": "coastal area",
            "us-sea": "US sea area", "island": "island"}.get(area, area)


def names(run: Run, ids) -> str:
    return ", ".join(name(run.game, run.pieces[p]) for p in ids if p in run.pieces)

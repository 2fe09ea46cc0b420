"""The checks of an Axis & Allies session's actions beyond movement (``moves.py``), each
naming its rule: the decisions and the actions that answer them, what a unit costs (①),
the end of non-combat movement (④: aircraft that fought leave), rockets (the Rockets
weapon), placement (⑤). The session (``session.py``) applies the actions; the listings
(``choices.py``) are made of the same checks."""

from __future__ import annotations

from warpress.engine.errors import RuleViolation
from warpress.engine.model import Game
from warpress.engine.position import Position

from .battles import RETREAT_RULES
from .board import check_placement
from .common import const, domain, has_tag, unit_row
from .moves import NONCOMBAT, Run, air_ends, air_reach, sea
from .positions import (
    at,
    captured,
    enemies,
    evolve_piece,
    factories,
    factory_at,
    has_enemy,
    left,
    purchased,
    weapons,
)

#: each decision: the actions that answer it and the rules behind it
KINDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "purchase": (("buy", "develop", "end"), ("① weapons development", "① purchase")),
    "combat-move": (("move", "rocket", "end"), ("② combat movement",)),
    "battle": (("fight",), ("③ combat",)),
    "casualties": (("lose", "order"), ("③ combat",)),
    "withdraw": (("withdraw", "stay"), ("sea 7)",)),
    "retreat": (("press", "retreat"), RETREAT_RULES),
    "non-combat-move": (("move", "end"), ("④ non-combat movement",)),
    "place": (("place", "end"), ("⑤",)),
}


def awaiting(position: Position) -> list[str]:
    """The actions the decision due accepts (``rocket`` only for a power with rockets)."""
    due = position.due
    names = list(KINDS[due.kind][0])
    if "rockets" not in weapons(position, str(due.side)):
        names = [n for n in names if n != "rocket"]
    return names


def prompt(due) -> str:
    """The question a decision asks."""
    data = due.data
    return {
        "purchase": f"{due.side}: buy units or development dice, then end (①)",
        "combat-move": f"{due.side}: combat movement, then end (②)",
        "battle": f"{due.side}: which battle next ({', '.join(data.get('spaces') or ())})",
        "casualties": f"{due.side}: {data.get('hits')} hit(s) on the {data.get('whose')} in "
                      f"{data.get('space')}: which units are lost",
        "withdraw": f"{due.side}: do the {data.get('whose')}'s submarines withdraw from "
                    f"{data.get('space')}",
        "retreat": f"{due.side}: press on or retreat from {data.get('space')}",
        "non-combat-move": f"{due.side}: non-combat movement and landing, then end (④)",
        "place": f"{due.side}: place the units bought (⑤)",
    }[due.kind]


def unit_cost(game: Game, position: Position, power: str, unit_type: str) -> int:
    """A unit's cost (the unit table), 1 IPC less with Industrial Technology."""
    cost = int(unit_row(game, unit_type)["cost"])
    if "industrial-technology" in weapons(position, power):
        cost -= int(const(game, "industrial-technology-discount"))
    return max(cost, 0)


def check_end_noncombat(run: Run) -> None:
    """④: aircraft that fought must leave the battle space at once (L99-100)."""
    for p in run.pos.pieces:
        if p.side == run.power and p.kind == "area" and "fought" in p.flags and \
                "moved-nc" not in p.flags and domain(run.game, p.unit) == "air" and \
                left(run.game, run.pos, p) > 0 and air_ends(run, p, p.place, NONCOMBAT):
            raise RuleViolation("④ non-combat movement",
                                f"{p.id} fought in {p.place} and must leave it (it can reach "
                                "a landing place): move it first")


def rocket_targets(run: Run, frm: str) -> list[str]:
    """The territories an AA gun of the power in ``frm`` may fire a rocket at: an enemy
    industrial complex within constant rocket-range spaces (weapon rockets)."""
    most = int(const(run.game, "rocket-range"))
    return sorted(t for t in air_reach(run, frm, most)
                  if (f := factory_at(run.pos, t)) is not None
                  and enemies(run.game, run.power, f.side))


def check_rocket(run: Run, frm: str, target: str):
    """The AA gun that fires (the Rockets weapon: once a turn each, ②)."""
    rule = "① weapons development"
    if "rockets" not in weapons(run.pos, run.power):
        raise RuleViolation(rule, f"{run.power} has not developed rockets (weapons section)")
    gun = next((p for p in at(run.pos, frm) if p.side == run.power and
                has_tag(run.game, p.unit, "aa-fire") and not p.props.get("aboard")
                and "rocket" not in p.flags), None)
    if gun is None:
        raise RuleViolation(rule, f"no AA gun of {run.power} in {frm} that has not fired a "
                                  "rocket this turn")
    if target not in rocket_targets(run, frm):
        raise RuleViolation(rule, f"{target} holds no enemy industrial complex within "
                                  f"{const(run.game, 'rocket-range')} spaces of {frm}")
    return gun


def check_place(run: Run, where: str, unit_type: str, count: int) -> tuple[list, str]:
    """The pieces placed and the factory that places them (⑤, I14-I16:
    board.check_placement); ships never in a sea zone holding enemy units (constant
    placement-at-sea, assumed)."""
    game, pos, power = run.game, run.pos, run.power
    waiting = [p for p in purchased(pos, power) if p.unit == unit_type]
    if len(waiting) < count:
        raise RuleViolation("⑤", f"{power} has {len(waiting)} {unit_type} to place, not "
                                 f"{count}")
    if sea(game, where) and has_enemy(game, pos, where, power):
        raise RuleViolation("⑤", f"{where} holds enemy units: no ship is placed there "
                                 "(constant placement-at-sea, assumed)")
    here = at(pos, where)
    built = [p.place for p in pos.pieces if p.unit == "factory" and "new" in p.flags]
    already = {"antiaircraft": sum(1 for p in here if p.unit == "antiaircraft"),
               "factory": sum(1 for p in here if p.unit == "factory")}
    placed = dict(run.data("placed") or {})
    out = check_placement(game, power, where, {unit_type: count}, pos.control,
                          factories=factories(pos), built_this_turn=built,
                          captured_this_turn=captured(pos), already=already, placed=placed)
    add = ["new"] if unit_type == "factory" else []
    return [evolve_piece(p, kind="area", place=where, add=add) for p in waiting[:count]], str(
        out["factory"])

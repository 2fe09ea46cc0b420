"""Shared pieces of the Axis & Allies engine: unit stats, force lists, casualty order.

Every number comes from the game's YAML (``games/axis-allies``): the unit table the
national reference charts print (table ``unit``), the combat tables (``combat-hit``,
``aa-fire``), constants by id and the weapons section. The rule text has no rule
numbers: rules are cited by the source's own section marks
("③ combat", "land 2)", "sea 7)", "⑤", "victory conditions").
"""

from __future__ import annotations

import re
from typing import Any

from warpress.engine.dice import faces as die_faces
from warpress.engine.errors import BadInput, RuleViolation
from warpress.engine.inputs import parse_int
from warpress.engine.model import Game, Unit
from warpress.engine.records import Frozen, frozen_record
from warpress.engine.tables import lookup

DIE = "d6"
ROLES = ("attack", "defense")


def const(game: Game, constant_id: str) -> Any:
    """The value of one constant of constants.yaml."""
    return game.constant(constant_id)


def flag(game: Game, constant_id: str) -> bool:
    """A yes/no constant as a bool (YAML ``yes`` loads as True)."""
    value = game.constant(constant_id)
    if isinstance(value, str):
        return value.strip().lower() in ("yes", "true")
    return bool(value)


def unit_types(game: Game) -> tuple[str, ...]:
    """The unit types of the unit table, in its printed order."""
    return tuple(str(v) for v in game.table("unit").key("type").values)


def unit_row(game: Game, unit_type: str, name: str = "type") -> dict[str, Any]:
    """The unit table's row of ``unit_type``; a type the game lacks is bad input."""
    types = unit_types(game)
    if unit_type not in types:
        raise BadInput(f"input {name}={unit_type!r} is not a unit type (types: {', '.join(types)})")
    return lookup(game.table("unit"), type=unit_type)


def unit_record(game: Game, unit_type: str) -> Unit:
    """The units.yaml record of a type (its domain and tags)."""
    for item in game.units:
        if item.type == unit_type:
            return item
    raise BadInput(f"no unit record of type {unit_type!r}")


def domain(game: Game, unit_type: str) -> str:
    """land, air, sea or facility (units.yaml ``stats.domain``)."""
    return str(unit_record(game, unit_type).stats.get("domain"))


def has_tag(game: Game, unit_type: str, tag: str) -> bool:
    """True when the unit type carries ``tag`` (aircraft, first-strike, aa-fire ...)."""
    return tag in unit_record(game, unit_type).tags


def weapon_ids(game: Game) -> tuple[str, ...]:
    """The weapons of the Weapons Development chart (weapons section)."""
    return tuple(r.id for r in game.section("weapons"))


# --------------------------------------------------------------------------- hits


_MEMO: dict[tuple, tuple[Game, Any]] = {}


def memo(game: Game, key: tuple, make) -> Any:
    """Cache ``make()`` per loaded game (games are not hashable: keyed by identity)."""
    hit = _MEMO.get((id(game), *key))
    if hit is not None and hit[0] is game:
        return hit[1]
    value = make()
    _MEMO[(id(game), *key)] = (game, value)
    return value


def faces(die: str = DIE) -> tuple[int, ...]:
    """The results of one die (a d6: 1-6)."""
    return die_faces(die)


def hit_faces(game: Game, value: int | None) -> int:
    """How many faces of a d6 hit at ``value`` (table combat-hit: a roll at or under)."""
    if value is None:
        return 0
    table = game.table("combat-hit")
    return memo(game, ("hit", int(value)), lambda: sum(
        1 for r in faces() if lookup(table, value=int(value), roll=r)["hit"] is True))


def is_hit(game: Game, value: int, roll: int) -> bool:
    """One combat die: table combat-hit (I2: a roll at or under the value hits)."""
    return lookup(game.table("combat-hit"), value=value, roll=roll)["hit"] is True


def aa_destroys(game: Game, roll: int) -> bool:
    """One AA die at one aircraft: table aa-fire."""
    return lookup(game.table("aa-fire"), roll=roll)["destroyed"] is True


def aa_faces(game: Game) -> int:
    """How many d6 faces destroy an aircraft in AA fire."""
    return memo(game, ("aa",), lambda: sum(1 for r in faces() if aa_destroys(game, r)))


# --------------------------------------------------------------------------- combat values


@frozen_record(kw_only=False)
class Shot(Frozen):
    """What one unit rolls in one role: ``dice`` dice, each hitting at ``value`` or under."""

    value: int | None
    dice: int

    @property
    def rolls(self) -> bool:
        return self.value is not None and self.dice > 0


def shot(game: Game, unit_type: str, role: str, weapons: frozenset[str] = frozenset()) -> Shot:
    """A unit's combat dice in ``role`` (attack/defense), with developed weapons applied.

    The AA gun never rolls as an ordinary defender (E3: its 1 is its step-2) shot);
    units with a '-' value never roll in that role (I3).
    """
    row = unit_row(game, unit_type)
    value = row[role]
    dice = 1
    if role == "defense" and has_tag(game, unit_type, "aa-fire") and not flag(
        game, "aa-rolls-as-defender"
    ):
        return Shot(None, 0)  # E3
    if value is None:
        return Shot(None, 0)
    if role == "defense" and unit_type == "fighter" and "jet-power" in weapons:
        value = const(game, "jet-fighter-defense")
    if role == "attack" and has_tag(game, unit_type, "first-strike") and (
        "super-submarines" in weapons
    ):
        value = const(game, "super-sub-attack")
    if role == "attack" and unit_type == "bomber" and "heavy-bombers" in weapons:
        dice = int(const(game, "heavy-bomber-dice"))
    return Shot(int(value), dice)


# --------------------------------------------------------------------------- force lists

_ITEM = re.compile(r"^(?:(\d+)\s*[x*]?\s*)?([a-z][a-z-]*?)(?:\s*[x*]\s*(\d+))?$")


def parse_force(game: Game, text: str, name: str, most: int | None = None) -> dict[str, int]:
    """``"6 infantry, 3 armor, 2 fighter"`` -> ``{"infantry": 6, ...}`` in listed order.

    Plurals (``fighters``) and ``infantry x6`` are accepted, and a type listed twice
    counts both (units joining from two territories: ``3 infantry, 1 armor, 2 infantry``
    is 5 infantry and 1 armor); an unknown type, a bad count or more than ``most`` units
    in all is bad input naming the input and what is allowed.
    """
    types = unit_types(game)
    out: dict[str, int] = {}
    for part in (p.strip().lower() for p in str(text).split(",")):
        if not part:
            continue
        match = _ITEM.match(part)
        if match is None:
            raise BadInput(f"input {name}: {part!r} is not 'N TYPE' (types: {', '.join(types)})")
        count = parse_int(match[1] or match[3] or "1", f"input {name}: count of {match[2]!r}",
                          low=1, high=most, allowed=None if most is None else
                          f"a whole number from 1 to {most}: a battle takes at most {most} "
                          "a side")
        word = match[2]
        if word not in types and word.endswith("s") and word[:-1] in types:
            word = word[:-1]
        if word not in types:
            raise BadInput(f"input {name}: {word!r} is not a unit type (types: {', '.join(types)})")
        out[word] = out.get(word, 0) + count
    if not out:
        raise BadInput(f"input {name}={text!r} lists no units (e.g. '6 infantry, 2 armor')")
    if most is not None and (units := sum(out.values())) > most:
        raise BadInput(f"input {name}={text!r}: {units} units; a battle takes at most {most} "
                       "a side")
    return out


def force_text(units: tuple[str, ...] | list[str]) -> str:
    """Unit types (one entry per unit) -> ``"2 infantry, 1 armor"`` (first-seen order)."""
    counts: dict[str, int] = {}
    for item in units:
        counts[item] = counts.get(item, 0) + 1
    return ", ".join(f"{n} {t}" for t, n in counts.items()) or "none"


def casualty_order(game: Game, counts: dict[str, int], order: list[str] | None,
                   name: str) -> tuple[str, ...]:
    """One entry per unit, first casualty first.

    ``order`` lists types to lose first, in that order; the rest follow the default
    (constant default-casualty-order: lowest cost first, ties in unit-table order).
    """
    types = unit_types(game)
    for item in order or ():
        if item not in types:
            raise BadInput(f"input {name}: {item!r} is not a unit type (types: {', '.join(types)})")
    default = const(game, "default-casualty-order")
    if default != "lowest-cost-first":
        raise BadInput(f"default casualty order {default!r} is not known to the engine")
    rest = sorted((t for t in counts if t not in (order or ())),
                  key=lambda t: (unit_row(game, t)["cost"], types.index(t)))
    ranked = [t for t in dict.fromkeys(order or ()) if t in counts] + rest
    return tuple(t for t in ranked for _ in range(counts[t]))


def check_battle_units(game: Game, counts: dict[str, int], kind: str, name: str) -> None:
    """Only land units and aircraft fight on land, sea units and aircraft at sea (③)."""
    allowed = {"land": ("land", "air"), "sea": ("sea", "air")}[kind]
    for unit_type in counts:
        where = domain(game, unit_type)
        if where == "facility":
            raise RuleViolation("unit table", f"{name}: an industrial complex never fights")
        if where not in allowed:
            raise RuleViolation(
                "③ combat",
                f"{name}: {unit_type} ({where}) cannot fight in a {kind} battle "
                f"(a {kind} battle takes {' and '.join(allowed)} units)",
            )

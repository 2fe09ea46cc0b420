"""Land and sea battles (③ combat): the dice procedure over a frozen battle state.

Land battle (land 1)-7)): AA fire once at the attacking aircraft (land 2), E3), then
rounds of attacker fire (hits go to CASUALTIES and still fire back, land 3)),
defender fire at defense (E1; the attacker's losses are removed at once, land 4)),
removal of the CASUALTIES (land 5)), until a side is eliminated (land 6); the
defender never retreats, odds assume no attacker retreat either).

Sea battle (sea 1)-8)): the attacking submarines strike first, once; their hits are
removed at once and never fire (sea 2)-3), I8); in round 1 the submarines do not fire
again (E4); then rounds as on land. No AA fire at sea (constant aa-at-sea).

Casualties are taken in a given order per side (first casualty first); each side's
default is lowest cost first (constant default-casualty-order).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from warpress.engine.dice import Dice, mark
from warpress.engine.errors import BadInput, RuleViolation
from warpress.engine.model import Game
from warpress.engine.records import Frozen, frozen_record

from .common import (
    DIE,
    aa_destroys,
    casualty_order,
    check_battle_units,
    const,
    domain,
    flag,
    force_text,
    has_tag,
    is_hit,
    parse_force,
    shot,
    weapon_ids,
)

LAND_RULES = ("③ combat", "land 2)", "land 3)", "land 4)", "land 5)", "land 6)")
SEA_RULES = ("③ combat", "sea 2)", "sea 3)", "sea 4)", "sea 5)", "sea 6)", "sea 8)")
OUTCOMES = ("attacker", "defender", "mutual", "retreat", "undecided")


@frozen_record(kw_only=False)
class BattleSpec(Frozen):
    """A battle as asked: the kind, each side's units in casualty order, weapons, cap."""

    kind: str
    attacker: tuple[str, ...]
    defender: tuple[str, ...]
    aircraft: tuple[str, ...] = ()  # attacking aircraft in listed order (AA targets)
    attacker_weapons: frozenset[str] = frozenset()
    defender_weapons: frozenset[str] = frozenset()
    rounds: int | None = None
    retreat_after: int | None = None  # the attacker retreats after this round (land 6))
    retreat_at: int | None = None  # ... or when a round leaves it this many units or fewer


@frozen_record(kw_only=False)
class BattleState(Frozen):
    """Survivors of each side (casualty order), rounds fought, one-time step results."""

    attacker: tuple[str, ...]
    defender: tuple[str, ...]
    round: int = 0
    aa_destroyed: tuple[str, ...] = ()
    sub_sunk: tuple[str, ...] = ()
    retreated: bool = False

    @property
    def over(self) -> bool:
        return not self.attacker or not self.defender or self.retreated


#: Units a side a battle takes (a tool limit: the rule text sets no limit on
#: pieces). It keeps a mistyped count from filling memory with unit lists.
MOST_UNITS = 1000


def make_spec(game: Game, args: dict[str, Any]) -> BattleSpec:
    """Parse the battle table's inputs into a spec; checks the rules on who may fight."""
    kind = args.get("kind") or "land"
    att = parse_force(game, args["attacker"], "attacker", MOST_UNITS)
    dfn = parse_force(game, args["defender"], "defender", MOST_UNITS)
    check_battle_units(game, att, kind, "attacker")
    check_battle_units(game, dfn, kind, "defender")
    check_aa_limit(game, dfn, kind)
    aircraft = tuple(t for t, n in att.items() if has_tag(game, t, "aircraft") for _ in range(n))
    return BattleSpec(
        kind=kind,
        attacker=casualty_order(game, att, args.get("attacker_order"), "attacker_order"),
        defender=casualty_order(game, dfn, args.get("defender_order"), "defender_order"),
        aircraft=aircraft,
        attacker_weapons=weapons(game, args.get("attacker_weapons"), "attacker_weapons"),
        defender_weapons=weapons(game, args.get("defender_weapons"), "defender_weapons"),
        rounds=args.get("rounds"),
        retreat_after=args.get("retreat_after"),
        retreat_at=args.get("retreat_at"),
    )


def check_aa_limit(game: Game, counts: dict[str, int], kind: str) -> None:
    """A territory holds at most one AA gun (⑤, constant max-aa-guns-per-territory)."""
    most = const(game, "max-aa-guns-per-territory")
    guns = sum(n for t, n in counts.items() if has_tag(game, t, "aa-fire"))
    if kind == "land" and guns > most:
        raise RuleViolation("⑤", f"defender: {guns} AA guns in one territory (at most {most})")


def weapons(game: Game, ids: list[str] | None, name: str) -> frozenset[str]:
    """Developed weapons named in an input (usable the turn they are developed, ①)."""
    known = weapon_ids(game)
    for item in ids or ():
        if item not in known:
            raise BadInput(f"input {name}: {item!r} is not a weapon (weapons: {', '.join(known)})")
    return frozenset(ids or ())


# --------------------------------------------------------------------------- steps


def has_aa(game: Game, spec: BattleSpec, state: BattleState) -> bool:
    """AA fire happens in land battles with a defending AA gun (land 2), aa-at-sea)."""
    if spec.kind == "sea" and not flag(game, "aa-at-sea"):
        return False
    return any(has_tag(game, t, "aa-fire") for t in state.defender) and bool(spec.aircraft)


def aa_fire(game: Game, spec: BattleSpec, state: BattleState, dice: Dice) -> BattleState:
    """land 2): one die per attacking aircraft (listed order); each 1 destroys it (I5)."""
    per = int(const(game, "aa-dice-per-aircraft"))
    lost: list[str] = []
    for plane in spec.aircraft:
        if any(aa_destroys(game, dice.roll(DIE, "aa_rolls")) for _ in range(per)):
            lost.append(plane)
    attacker = list(state.attacker)
    for plane in lost:
        attacker.reverse()  # identical units: drop the one last in casualty order
        attacker.remove(plane)
        attacker.reverse()
    return replace(state, attacker=tuple(attacker), aa_destroyed=tuple(lost))


def first_strikers(game: Game, units: tuple[str, ...]) -> tuple[str, ...]:
    """The attacking submarines (tag first-strike)."""
    return tuple(t for t in units if has_tag(game, t, "first-strike"))


def sub_strike(game: Game, spec: BattleSpec, state: BattleState, dice: Dice) -> BattleState:
    """sea 2)-3): the attacking submarines fire once; hits are removed at once (I8)."""
    subs = first_strikers(game, state.attacker)
    hits = fire(game, subs, "attack", spec.attacker_weapons, dice, "sub_rolls")
    sunk = state.defender[:hits]
    return replace(state, defender=state.defender[hits:], sub_sunk=sunk)


def fire(game: Game, units: tuple[str, ...], role: str, weapons: frozenset[str], dice: Dice,
         name: str) -> int:
    """Hits of one side's fire: one die per unit (more with heavy bombers), I2-I4."""
    hits = 0
    for unit_type in units:
        s = shot(game, unit_type, role, weapons)
        if s.rolls:
            hits += sum(is_hit(game, s.value, dice.roll(DIE, name)) for _ in range(s.dice))
    return hits


def round_firers(game: Game, spec: BattleSpec, state: BattleState) -> tuple[str, ...]:
    """Attackers that fire this round: in sea round 1 the submarines do not (E4)."""
    if spec.kind == "sea" and state.round == 0 and not flag(game, "subs-fire-again-round-one"):
        return tuple(t for t in state.attacker if not has_tag(game, t, "first-strike"))
    return state.attacker


def combat_round(game: Game, spec: BattleSpec, state: BattleState, dice: Dice) -> BattleState:
    """One round: attacker fires, defender fires (casualties too, I7), losses removed."""
    mark(dice, f"round {state.round + 1}")
    hits_on_defender = fire(game, round_firers(game, spec, state), "attack",
                            spec.attacker_weapons, dice, "attacker_rolls")
    hits_on_attacker = fire(game, state.defender, "defense", spec.defender_weapons, dice,
                            "defender_rolls")
    return replace(
        state,
        attacker=state.attacker[hits_on_attacker:],
        defender=state.defender[hits_on_defender:],
        round=state.round + 1,
    )


def can_hit(game: Game, units: tuple[str, ...], role: str, weapons: frozenset[str]) -> bool:
    """True when some unit of the side rolls in ``role``."""
    return any(shot(game, t, role, weapons).rolls for t in units)


def stalled(game: Game, spec: BattleSpec, state: BattleState) -> bool:
    """Neither side can ever hit: the battle cannot end by elimination."""
    return not can_hit(game, state.attacker, "attack", spec.attacker_weapons) and not can_hit(
        game, state.defender, "defense", spec.defender_weapons)


def opening(game: Game, spec: BattleSpec, dice: Dice) -> BattleState:
    """The one-time steps before the rounds: AA fire (land) or submarine first strike (sea)."""
    state = BattleState(spec.attacker, spec.defender)
    if has_aa(game, spec, state):
        mark(dice, "AA fire")
        state = aa_fire(game, spec, state, dice)
    if spec.kind == "sea" and first_strikers(game, state.attacker) and state.defender:
        mark(dice, "first strike")
        state = sub_strike(game, spec, state, dice)
    return state


def resolve(game: Game, spec: BattleSpec, dice: Dice) -> BattleState:
    """Fight the battle to its end, the rounds cap or the attacker's retreat (land 6),
    sea 8)): declared after a round, after ``retreat_after`` rounds or with
    ``retreat_at`` units or fewer left; the defender never retreats."""
    state = opening(game, spec, dice)
    while not state.over and not stalled(game, spec, state):
        if spec.rounds is not None and state.round >= spec.rounds:
            break
        state = _retreat_check(game, spec, combat_round(game, spec, state, dice))
    if not state.over and stalled(game, spec, state):
        state = _retreat_check(game, spec, state, stuck=True)
    return state


def _retreat_check(game: Game, spec: BattleSpec, state: BattleState,
                   stuck: bool = False) -> BattleState:
    """After a round: the attacker retreats if the spec says so (land 6), sea 8)). A
    battle ``stuck`` (nobody can hit) would reach any later round unchanged."""
    if not state.attacker or not state.defender:
        return state
    late = spec.retreat_after is not None and (state.round >= spec.retreat_after or stuck and (
        spec.rounds is None or spec.retreat_after <= spec.rounds))
    few = spec.retreat_at is not None and len(state.attacker) <= spec.retreat_at
    if (late or few) and flag(game, "attacker-may-retreat"):
        return replace(state, retreated=True)
    return state


def outcome(state: BattleState) -> str:
    """attacker | defender | mutual (both eliminated) | retreat (the attacker left) |
    undecided (both have units)."""
    if state.retreated:
        return "retreat"
    if not state.attacker and not state.defender:
        return "mutual"
    if not state.defender:
        return "attacker"
    if not state.attacker:
        return "defender"
    return "undecided"


def takes(game: Game, spec: BattleSpec, units: tuple[str, ...], won: bool) -> bool:
    """The attacker takes the space: on land it wins with a land unit left; at sea it wins."""
    if not won:
        return False
    if spec.kind == "sea":
        return True
    return any(domain(game, t) == "land" for t in units)


def result(game: Game, spec: BattleSpec, state: BattleState) -> dict[str, Any]:
    """The answer fields of a fought battle (lookup and roll)."""
    won = outcome(state)
    return {
        "winner": won,
        "attacker_takes": takes(game, spec, state.attacker, won == "attacker"),
        "attacker_left": force_text(state.attacker),
        "defender_left": force_text(state.defender),
        "rounds": state.round,
        "aa_destroyed": force_text(state.aa_destroyed),
        "sub_sunk": force_text(state.sub_sunk),
    }


def rules_of(spec: BattleSpec) -> tuple[str, ...]:
    """The battle steps a spec follows."""
    return LAND_RULES if spec.kind == "land" else SEA_RULES


def retreat(game: Game, side: str) -> None:
    """Declare a retreat: the attacker may (land 6), sea 8)); the defender never (I9, E5)."""
    constant = "attacker-may-retreat" if side == "attacker" else "defender-may-retreat"
    if not flag(game, constant):
        raise RuleViolation("land 6)", f"the {side} cannot retreat")

"""The aircraft attack (7) and the Midway base attack (12-1) as small pure procedures.

Pair creation (7-1-1), air combat (7-1-2), target (7-2, 12-3), defense (7-3, 12-4),
damage with secondary-damage cards (7-4, 12-1, 12-2) and return (7-5). The functions
take card instances (``j-zero#1``) and return plain frozen results; ``state.py`` applies
them to a game in progress.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from warpress.engine.errors import RuleViolation
from warpress.engine.model import Game
from warpress.engine.tables import lookup

from .common import BASE_ID, US, air_level, const, is_card, kind, missions, owner, rank, stat

MISSIONS = ("F", "A")


@dataclass(frozen=True)
class Pair:
    """One attacker card against one defender CAP card (組), with its outcome."""

    attacker: str
    mission: str
    defender: str
    removed: str = ""  # attacker | defender | both (7-1-2)


@dataclass(frozen=True)
class Pairing:
    """What pair creation and air combat leave: survivors, removals, returns."""

    pairs: tuple[Pair, ...]
    attackers: tuple[str, ...]  # A cards that go on to the target segment, in play order
    removed: tuple[str, ...]  # cards removed in air combat (to their owners' discard)
    returned: tuple[str, ...]  # F cards going back to hand (unpaired or winners)
    escorts_won: tuple[str, ...] = ()


# --- 7-1-1 pair creation --------------------------------------------------------------------


def check_play(game: Game, plays: Sequence[tuple[str, str]], instance: str,
               mission: str) -> None:
    """One more play of the attacker after ``plays``: an aircraft card, a mission it can
    fly, no F after an A (7-1-1)."""
    if mission not in MISSIONS:
        raise RuleViolation("7-1-1", f"mission {mission!r} of {instance!r} is not F or A")
    if kind(game, instance) != "aircraft":
        raise RuleViolation("7-1", f"{instance!r} is not an aircraft card")
    if mission not in missions(game, instance):
        raise RuleViolation("3-3", f"{instance!r} cannot fly mission {mission!r} "
                                   f"(missions: {', '.join(missions(game, instance))})")
    if mission == "F" and any(m == "A" for _, m in plays):
        raise RuleViolation("7-1-1", f"{instance!r} declared F after an A card")


def check_plays(game: Game, plays: Sequence[tuple[str, str]]) -> None:
    """The attacker's plays in order: known missions, F before A, at least 1 A (7-1-1)."""
    for n, (instance, mission) in enumerate(plays):
        check_play(game, plays[:n], instance, mission)
    need = int(const(game, "min-anti-ship-cards-per-attack"))
    if sum(1 for _, m in plays if m == "A") < need:
        raise RuleViolation("7-1-1", f"an attack needs at least {need} card(s) declared A")


def check_cap(game: Game, cap: Sequence[str]) -> None:
    """Every CAP card is an aircraft card able to fly F (4, 7-1-1)."""
    for instance in cap:
        if kind(game, instance) != "aircraft" or "F" not in missions(game, instance):
            raise RuleViolation("7-1-1", f"{instance!r} cannot fly CAP (no F mission)")


def make_pairs(game: Game, plays: Sequence[tuple[str, str]], cap: Sequence[str]) -> tuple[
        tuple[Pair, ...], tuple[tuple[str, str], ...]]:
    """Pair the attacker's plays with the defender's CAP cards, 1 vs 1, in order.

    The defender answers each play with the next CAP card; when his list ends he has
    passed, and a pass ends all interception for this attack (7-1-1). Returns the pairs
    and the plays left unpaired.
    """
    check_plays(game, plays)
    check_cap(game, cap)
    if len(cap) > len(plays):
        raise RuleViolation("7-1-1", f"{len(cap)} CAP cards but only {len(plays)} attacker "
                                     "cards: pairs are 1 vs 1")
    pairs = tuple(Pair(a, m, d) for (a, m), d in zip(plays, cap, strict=False))
    return pairs, tuple(plays[len(cap):])


# --- 7-1-2 air combat -------------------------------------------------------------------------


def air_combat_result(game: Game, attacker_level: str, defender_level: str) -> str:
    """Which card a pair loses: attacker | defender | both (the air-combat table)."""
    rank(game, "air-combat-levels", attacker_level, "attacker")
    rank(game, "air-combat-levels", defender_level, "defender")
    row = lookup(game.table("air-combat"), attacker=attacker_level, defender=defender_level)
    return str(row["removed"])


def fight(game: Game, pair: Pair) -> Pair:
    """Resolve one pair: the attacker's level for his mission against the CAP F level."""
    removed = air_combat_result(game, air_level(game, pair.attacker, pair.mission),
                                air_level(game, pair.defender, "F"))
    return Pair(pair.attacker, pair.mission, pair.defender, removed)


def air_combat(game: Game, plays: Sequence[tuple[str, str]], cap: Sequence[str],
               keep_winners: bool = True, cap_keep_winners: bool = True,
               ditched: Collection[str] = ()) -> Pairing:
    """Pair creation and air combat (7-1): who goes on to attack, who is removed.

    F cards that won their pair go back to hand when their player keeps them
    (``keep_winners`` for the attacker's escorts, ``cap_keep_winners`` for the CAP, 7-1-2,
    7-5) and they are not among the ``ditched`` cards; otherwise they are discarded.
    Unpaired F cards of the attacker go back to hand.
    """
    pairs, unpaired = make_pairs(game, plays, cap)
    fought = tuple(fight(game, p) for p in pairs)
    attackers: list[str] = []
    removed: list[str] = []
    returned: list[str] = []
    won: list[str] = []
    for pair in fought:
        if pair.removed in ("attacker", "both"):
            removed.append(pair.attacker)
        if pair.removed in ("defender", "both"):
            removed.append(pair.defender)
        if pair.removed == "attacker":
            won.append(pair.defender)
        if pair.removed == "defender":
            if pair.mission == "A":
                attackers.append(pair.attacker)
            else:
                won.append(pair.attacker)
    attackers.extend(a for a, m in unpaired if m == "A")
    returned.extend(a for a, m in unpaired if m == "F")
    for card_won in won:
        keep = cap_keep_winners if card_won in cap else keep_winners
        (returned if keep and card_won not in ditched else removed).append(card_won)
    return Pairing(fought, tuple(attackers), tuple(removed), tuple(returned), tuple(won))


# --- 7-2 target ---------------------------------------------------------------------------------


def assign_targets(game: Game, side: str, attackers: Sequence[str],
                   target: str | Mapping[str, str]) -> dict[str, str]:
    """Each attacking card -> its target (7-2; the US may split, 12-3).

    ``target`` is one ship card id (or the base) for all, or a mapping card -> target.
    """
    if isinstance(target, str):
        return {a: target for a in attackers}
    missing = [a for a in attackers if a not in target]
    if missing:
        raise RuleViolation("7-2", f"no target named for {missing[0]!r}")
    chosen = {target[a] for a in attackers}
    if len(chosen) > int(const(game, "targets-per-attack-japan")):
        split_ok = side == US and bool(const(game, "us-multiple-targets"))
        enough = len(attackers) >= int(const(game, "us-multiple-targets-min-cards"))
        if not (split_ok and enough):
            raise RuleViolation("7-2", f"{side} attack cards must all attack one ship card "
                                       f"(named: {', '.join(sorted(chosen))})")
    return {a: target[a] for a in attackers}


# --- 7-3 defense --------------------------------------------------------------------------------


def stops(game: Game, defense_level: str, attack_level: str) -> bool:
    """True when a defense card of ``defense_level`` stops an attack level (defense table)."""
    rank(game, "defense-levels", defense_level, "defense")
    rank(game, "defense-levels", attack_level, "attack")
    row = lookup(game.table("defense"), defense=defense_level, attack=attack_level)
    return bool(row["stopped"])


def check_defense_card(game: Game, defense_card: str, target: str) -> None:
    """A defense card may defend ``target``: the base takes AA only (12-4); a ship's ⑤
    level caps the level of the card when ``defense-limited-by-ship-level`` (assumed)."""
    if kind(game, defense_card) != "defense":
        raise RuleViolation("7-3", f"{defense_card!r} is not a defense card")
    defense_kind = str(stat(game, defense_card, "defense_kind"))
    if target == BASE_ID:
        allowed = tuple(str(k) for k in const(game, "base-defense-card-kinds"))
        if defense_kind not in allowed:
            raise RuleViolation("12-4", f"the Midway base may use {'/'.join(allowed)} cards "
                                        f"only, not {defense_card!r} ({defense_kind})")
    cap = stat(game, target, "defense_level")
    if cap is not None and const(game, "defense-limited-by-ship-level"):
        level = str(stat(game, defense_card, "level"))
        if rank(game, "defense-levels", level) > rank(game, "defense-levels", str(cap)):
            raise RuleViolation("3-1", f"{target!r} may use defense cards up to level {cap}, "
                                       f"not {defense_card!r} (level {level})")


def defend(game: Game, targets: Mapping[str, str], defense: Mapping[str, str]) -> tuple[
        tuple[str, ...], tuple[str, ...]]:
    """Play defense cards against attacking cards (7-3): (stopped cards, cards through).

    ``defense`` maps an attacking card to the one defense card played against it; each
    defense card answers one aircraft card. A card whose level does not reach the
    aircraft's anti-ship level is spent without effect.
    """
    if len(set(defense.values())) != len(defense):
        raise RuleViolation("7-3", "one defense card answers one aircraft card only")
    stopped: list[str] = []
    for attacker, defense_card in defense.items():
        if attacker not in targets:
            raise RuleViolation("7-3", f"{defense_card!r} answers {attacker!r}, which is not "
                                       "attacking")
        check_defense_card(game, defense_card, targets[attacker])
        level = str(stat(game, defense_card, "level"))
        if stops(game, level, str(stat(game, attacker, "anti_ship"))):
            stopped.append(attacker)
    through = tuple(a for a in targets if a not in stopped)
    return tuple(stopped), through


# --- 7-4 damage ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Hit:
    """One attacking card's damage after its secondary-damage card (7-4)."""

    card: str
    target: str
    kind: str  # bombing | torpedo
    secondary: str  # the secondary-damage card drawn
    result: str  # its result id (none, extra-1, dud, flight-deck, ...)
    damage: int
    disabled: bool


def secondary_result(game: Game, secondary: str, damage_kind: str) -> str:
    """The bombing or torpedo result printed on a secondary-damage card."""
    return str(stat(game, secondary, damage_kind))


def hit(game: Game, card: str, target: str, secondary: str, rearming: bool = False) -> Hit:
    """The damage one card that got through does (7-4; base: 12-1; US +1: 12-2)."""
    damage_kind = str(stat(game, card, "damage_kind"))
    is_base = target == BASE_ID
    if is_base:
        damage_kind = "bombing"  # 12-1 step 4: every card reads the bombing result
    result = secondary_result(game, secondary, damage_kind)
    row: dict[str, Any] = lookup(game.table("secondary-damage"), result=result,
                                 target="base" if is_base else "ship")
    base_damage = int(stat(game, card, "damage"))
    if rearming and owner(game, card) == US:
        base_damage += int(const(game, "rearming-us-damage-bonus"))
    damage = 0 if row["zero_damage"] else base_damage + int(row["extra_damage"])
    return Hit(card, target, damage_kind, secondary, result, damage, bool(row["disabled"]))


def damage_range(game: Game, card: str, rearming: bool = False) -> tuple[int, int]:
    """The smallest non-zero and the largest damage a card can do (for CI12)."""
    low = int(stat(game, card, "damage"))
    if rearming and owner(game, card) == US:
        low += int(const(game, "rearming-us-damage-bonus"))
    extras = [int(r["extra_damage"]) for r in (game.table("secondary-damage").result(row)
                                               for row in game.table("secondary-damage").rows)]
    return low, low + max(extras)


def check_enemy(game: Game, cards: Sequence[str], target: str) -> None:
    """The cards of one attack are one player's, against the other player's card: a player
    attacks enemy ships (7, 5-1(2)); the Midway base is a US card, attacked by the Japanese
    only (12-1). ``target`` may be a card id, or a word naming no card (``ship``)."""
    sides = sorted({owner(game, c) for c in cards})
    if len(sides) > 1:
        raise RuleViolation("7", f"the cards {', '.join(cards)} mix both players' cards: an "
                                 "attack is made by the turn player's cards only")
    if not sides or not is_card(game, target):
        return
    if owner(game, target) == sides[0]:
        if target == BASE_ID:
            raise RuleViolation("7", f"the Midway base is a US card: only the Japanese attack "
                                     f"it (12-1), not {', '.join(cards)}")
        raise RuleViolation("7", f"{target!r} is a {sides[0]} ship card: a player attacks "
                                 f"enemy ships only (5-1(2)), not with {', '.join(cards)}")


def check_attackers(game: Game, cards: Sequence[str], target: str) -> None:
    """Cards able to attack ``target``: the attacker's own against an enemy card (7);
    aircraft with an A mission vs ships; armament-change cards (ground mission) only vs the
    base, and aircraft vs the base only Zeros (12-1, 12-2)."""
    check_enemy(game, cards, target)
    for card in cards:
        what = kind(game, card)
        if target == BASE_ID:
            if what == "armament-change":
                continue
            if what == "aircraft" and stat(game, card, "aircraft_type") == "fighter":
                continue
            raise RuleViolation("12-2", f"{card!r} must be re-armed to attack the Midway base "
                                        "(only 零戦 cards attack it without armament change)")
        if what == "armament-change":
            raise RuleViolation("12-2", f"{card!r} attacks the Midway base only (ground "
                                        "mission)")
        if what != "aircraft" or "A" not in missions(game, card):
            raise RuleViolation("7-1-1", f"{card!r} cannot fly an anti-ship (A) mission")

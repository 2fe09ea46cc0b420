"""Axis & Allies rule invariants (digest 12) as hypothesis properties over the engine: combat.

Every property drives the engine's own procedures (``engine/games/axis_allies``) with the game it
is handed and checks what the rule says must hold afterwards. The rule text has no rule numbers:
each property is named after the digest's step label (③, land 2), sea 2)-3), ...) and carries
the digest's invariant id (I2 ...) in its summary. The numbers the rules print (the unit table,
AA hits on a 1) are written here as the rules' own; numbers the text leaves out (weapons) are read
from the game's data.

Battles are fought with dice hypothesis draws (``DrawnDice``): one step at a time through the
engine's ``opening`` and ``combat_round``, exactly as ``resolve`` takes them, then replayed through
``resolve`` itself, which must end in the same state. A counterexample is the forces and the rolls.

Covered: I2 and I3 (combat dice, E1, E3), I4 and I7 (dice per round), I5 (AA fire), I6
(casualties: the owner's order, never more than the hits or the units present), I8 (submarine
first strike, E4), I9 (how a battle ends; no defender retreat), I20 (victory, E10); plus unit
conservation in battle, expected hits never falling as a force grows, and exact battle odds.

Not covered, and why:

* Battleship two hits: neither the digest nor the engine has it (a battleship takes one hit).
* What submarines may hit (submarine-vs-aircraft restrictions): absent from the digest (digest 9);
  the engine lets the first strike hit any defending unit, so nothing is asserted beyond I8.
* I9's attacker retreat: the engine fights every battle to its end (``retreat`` only answers
  whether a side may declare one), so a retreat is checked as allowed or refused, not played.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from ...engine.dice import GivenDice, faces
from ...engine.errors import RuleViolation
from ...engine.games.axis_allies import battle as B
from ...engine.games.axis_allies import board
from ...engine.games.axis_allies.common import (
    aa_destroys,
    hit_faces,
    is_hit,
    shot,
    weapon_ids,
)
from ...engine.model import Game
from ..invariants import invariant

GAME = "axis-allies"

# --- the rules' own numbers (what the engine is held to) -----------------------------------------

#: the unit table (L36-51): cost, movement, attack, defense; None is the table's "-"
UNIT_TABLE = {
    "infantry": (3, 1, 1, 2), "armor": (5, 2, 3, 2), "fighter": (12, 4, 3, 4),
    "bomber": (15, 6, 4, 1), "antiaircraft": (5, 1, None, 1), "battleship": (24, 2, 4, 4),
    "carrier": (18, 2, 1, 3), "transport": (8, 2, None, 1), "submarine": (8, 2, 2, 2),
    "factory": (15, None, None, None),
}
AIRCRAFT = ("fighter", "bomber")  # 飛行機 (land 2), ④)
AA_HIT = 1  # land 2): each 1 destroys that aircraft
D6 = tuple(range(1, 7))

LAND_ATTACK = ("infantry", "armor", "fighter", "bomber", "antiaircraft")
LAND_DEFENSE = ("infantry", "armor", "fighter", "bomber")
SEA_SIDE = ("battleship", "carrier", "transport", "submarine", "fighter", "bomber")
MOST_UNITS = 6  # per side in the battles drawn


# --- dice and battles --------------------------------------------------------------------------


class DrawnDice:
    """Dice whose every result hypothesis draws: a counterexample shrinks to the rolls."""

    def __init__(self, data):
        self.data = data
        self.rolls: list[tuple[str, int]] = []

    def roll(self, die: str, name: str = "roll") -> int:
        value = self.data.draw(st.sampled_from(faces(die)), label=name)
        self.rolls.append((name, value))
        return value

    def replay(self) -> GivenDice:
        named: dict[str, list[int]] = {}
        for name, value in self.rolls:
            named.setdefault(name, []).append(value)
        return GivenDice(named)


def _force(counts: dict[str, int]) -> str:
    return ", ".join(f"{n} {t}" for t, n in counts.items() if n)


def _side(pool: tuple[str, ...], most: int = MOST_UNITS):
    return st.lists(st.sampled_from(pool), min_size=1, max_size=most).map(
        lambda units: dict(Counter(units)))


def battle_args(game: Game, kinds: tuple[str, ...] = ("land", "sea")):
    """The battle table's inputs: forces, each side's casualty order, developed weapons."""
    return _battle_args(weapon_ids(game), kinds)


@st.composite
def _battle_args(draw, weapons: tuple[str, ...], kinds: tuple[str, ...]) -> dict:
    kind = draw(st.sampled_from(kinds))
    attacker = draw(_side(LAND_ATTACK if kind == "land" else SEA_SIDE))
    defender = draw(_side(LAND_DEFENSE if kind == "land" else SEA_SIDE))
    if kind == "land" and draw(st.booleans()):
        defender["antiaircraft"] = 1  # ⑤: at most one AA gun in a territory
    pool = LAND_ATTACK if kind == "land" else SEA_SIDE
    arms = st.lists(st.sampled_from(weapons), unique=True, max_size=3)
    return {"kind": kind, "attacker": _force(attacker), "defender": _force(defender),
            "attacker_order": draw(st.none() | st.permutations(pool)),
            "defender_order": draw(st.none() | st.permutations(pool)),
            "attacker_weapons": draw(arms), "defender_weapons": draw(arms)}


@dataclass(frozen=True)
class Step:
    """One step of a battle: ``opening`` (AA fire, submarine first strike) or ``round``."""

    kind: str
    before: B.BattleState
    after: B.BattleState
    rolls: tuple[tuple[str, int], ...]

    def named(self, name: str) -> list[int]:
        return [v for n, v in self.rolls if n == name]


def fight(game: Game, spec: B.BattleSpec, dice: DrawnDice) -> list[Step]:
    """The battle through the engine's steps, as ``resolve`` takes them; ``resolve`` replays it."""
    start = B.BattleState(spec.attacker, spec.defender)
    state = B.opening(game, spec, dice)
    steps = [Step("opening", start, state, tuple(dice.rolls))]
    while not state.over and not B.stalled(game, spec, state):
        mark = len(dice.rolls)
        new = B.combat_round(game, spec, state, dice)
        steps.append(Step("round", state, new, tuple(dice.rolls[mark:])))
        state = new
    replayed = B.resolve(game, spec, dice.replay())
    assert replayed == state, f"resolve ends in {replayed}, the steps in {state}"
    return steps


def _fought(data, game: Game, kinds=("land", "sea")) -> tuple[B.BattleSpec, list[Step]]:
    spec = B.make_spec(game, data.draw(battle_args(game, kinds), label="battle"))
    return spec, fight(game, spec, DrawnDice(data))


def printed(unit_type: str, role: str) -> int | None:
    """The unit table's attack or defense value (None: '-')."""
    cost, move, attack, defense = UNIT_TABLE[unit_type]
    return attack if role == "attack" else defense


def dice_of(game: Game, unit_type: str, role: str, weapons: frozenset[str]) -> list[int]:
    """The values one unit rolls against in ``role``: one die (I4), E1 defense, E3 AA never a
    defender; the data's developed weapons change a value or the number of dice."""
    value = printed(unit_type, role)
    if value is None or (role == "defense" and unit_type == "antiaircraft"):
        return []
    if role == "defense" and unit_type == "fighter" and "jet-power" in weapons:
        value = int(game.constant("jet-fighter-defense"))
    if role == "attack" and unit_type == "submarine" and "super-submarines" in weapons:
        value = int(game.constant("super-sub-attack"))
    if role == "attack" and unit_type == "bomber" and "heavy-bombers" in weapons:
        return [value] * int(game.constant("heavy-bomber-dice"))
    return [value]


def side_dice(game, units, role, weapons) -> list[int]:
    return [v for t in units for v in dice_of(game, t, role, weapons)]


def hits(values: list[int], rolls: list[int]) -> int:
    """I2: a die hits iff it rolls at or under the value it rolls against."""
    assert len(values) == len(rolls), f"{len(rolls)} dice rolled for {len(values)} shots"
    return sum(roll <= value for value, roll in zip(values, rolls, strict=True))


def round_firers(spec: B.BattleSpec, state: B.BattleState) -> tuple[str, ...]:
    """E4: in round 1 of a sea battle the attacking submarines (who struck first) do not fire."""
    if spec.kind == "sea" and state.round == 0:
        return tuple(t for t in state.attacker if t != "submarine")
    return state.attacker


def lost(before: tuple[str, ...], after: tuple[str, ...]) -> Counter:
    gone = Counter(before) - Counter(after)
    added = Counter(after) - Counter(before)
    assert not added, f"units appear from nowhere: {dict(added)}"
    return gone


# --- ③ combat: dice -------------------------------------------------------------------------------


@invariant(GAME, "③ combat", "a combat die hits iff it rolls at or under the unit's attack, or "
           "its defense when defending (E1); AA guns, transports, factories never attack (I2, I3)")
def combat_dice(game: Game):
    types = tuple(UNIT_TABLE)

    @given(st.sampled_from(types), st.sampled_from(("attack", "defense")), st.sampled_from(D6),
           st.lists(st.sampled_from(weapon_ids(game)), unique=True).map(frozenset))
    def check(unit_type, role, roll, weapons):
        s = shot(game, unit_type, role, weapons)
        want = dice_of(game, unit_type, role, weapons)
        got = [s.value] * s.dice if s.rolls else []
        assert got == want, f"{unit_type} in {role} rolls {got}, the rules say {want}"
        if printed(unit_type, "attack") is None:  # I3, W07
            assert not shot(game, unit_type, "attack", weapons).rolls, f"{unit_type} attacks"
        if unit_type == "factory":
            assert not shot(game, unit_type, "defense", weapons).rolls, "a factory defends"
        for value in want:
            assert is_hit(game, value, roll) is (roll <= value), (
                f"roll {roll} at value {value}: hit is {is_hit(game, value, roll)}")
            assert hit_faces(game, value) == sum(r <= value for r in D6), f"value {value}"
        assert aa_destroys(game, roll) is (roll == AA_HIT), f"AA roll {roll}"

    return check


@invariant(GAME, "③ combat", "one more unit never means fewer expected hits; a side never "
           "expects more hits than it rolls dice (I2, I4)")
def expected_hits(game: Game):
    def expected(units, role, weapons) -> Fraction:
        total = Fraction(0)
        for t in units:
            s = shot(game, t, role, weapons)
            if s.rolls:
                total += Fraction(s.dice * hit_faces(game, s.value), len(D6))
        return total

    types = tuple(t for t in UNIT_TABLE if t != "factory")

    @given(st.lists(st.sampled_from(types), max_size=8), st.sampled_from(types),
           st.sampled_from(("attack", "defense")),
           st.lists(st.sampled_from(weapon_ids(game)), unique=True).map(frozenset))
    def check(units, extra, role, weapons):
        base = expected(units, role, weapons)
        more = expected([*units, extra], role, weapons)
        assert more >= base, f"adding 1 {extra} lowers expected {role} hits {base} -> {more}"
        dice = len(side_dice(game, units, role, weapons))
        assert 0 <= base <= dice, f"expected hits {base} with {dice} dice"

    return check


# --- ③ combat: battles ------------------------------------------------------------------------


@invariant(GAME, "land 3)-4)", "each round every attacker rolls once (heavy bombers: the "
           "weapon's dice), every defender once, including those just hit; no AA or submarine "
           "dice after the opening (I4, I7)")
def dice_per_round(game: Game):
    @given(st.data())
    def check(data):
        spec, steps = _fought(data, game)
        for n, step in enumerate(steps[1:], start=1):
            want_a = side_dice(game, round_firers(spec, step.before), "attack",
                               spec.attacker_weapons)
            want_d = side_dice(game, step.before.defender, "defense", spec.defender_weapons)
            got_a, got_d = step.named("attacker_rolls"), step.named("defender_rolls")
            assert len(got_a) == len(want_a), (
                f"round {n}: attacker rolls {len(got_a)} dice for {step.before.attacker}, "
                f"the rules give {len(want_a)}")
            assert len(got_d) == len(want_d), (
                f"round {n}: defender rolls {len(got_d)} dice for {step.before.defender} "
                f"(its casualties of this round included, I7), the rules give {len(want_d)}")
            other = {name for name, _ in step.rolls} - {"attacker_rolls", "defender_rolls"}
            assert not other, f"round {n} rolls {sorted(other)} (once per battle, I5, I8)"

    return check


@invariant(GAME, "land 3)-5)", "casualties: each side loses exactly min(hits scored on it, "
           "units present), the units its owner chose first; the opponent's order never changes "
           "them (I6)")
def casualties(game: Game):
    @given(st.data())
    def check(data):
        args = data.draw(battle_args(game), label="battle")
        spec = B.make_spec(game, args)
        other = B.make_spec(game, dict(args, attacker_order=list(reversed(
            args["attacker_order"] or LAND_ATTACK + SEA_SIDE))))
        assert other.defender == spec.defender, "the attacker's order moves the defender's"
        chosen = [t for t in args["defender_order"] or () if t in spec.defender]
        listed = list(dict.fromkeys(spec.defender))
        assert listed[:len(chosen)] == chosen, (
            f"defender lists {listed} first, it chose {chosen}")
        steps = fight(game, spec, DrawnDice(data))
        for n, step in enumerate(steps[1:], start=1):
            b, a = step.before, step.after
            on_d = hits(side_dice(game, round_firers(spec, b), "attack", spec.attacker_weapons),
                        step.named("attacker_rolls"))
            on_a = hits(side_dice(game, b.defender, "defense", spec.defender_weapons),
                        step.named("defender_rolls"))
            assert a.defender == b.defender[min(on_d, len(b.defender)):], (
                f"round {n}: {on_d} hits on {b.defender} leave {a.defender}")
            assert a.attacker == b.attacker[min(on_a, len(b.attacker)):], (
                f"round {n}: {on_a} hits on {b.attacker} leave {a.attacker}")
            assert a.round == b.round + 1, f"round counter {b.round} -> {a.round}"

    return check


@invariant(GAME, "land 2)", "AA fire: land battles with a defending AA gun only, once, one die "
           "per attacking aircraft in order, a 1 destroys that aircraft and nothing else (I5)")
def aa_fire(game: Game):
    @given(st.data())
    def check(data):
        spec, steps = _fought(data, game)
        opening = steps[0]
        planes = [t for t in spec.attacker if t in AIRCRAFT]
        assert sorted(spec.aircraft) == sorted(planes), f"AA targets {spec.aircraft}"
        gun = spec.kind == "land" and "antiaircraft" in spec.defender
        rolls = opening.named("aa_rolls")
        assert len(rolls) == (len(planes) if gun else 0), (
            f"{len(rolls)} AA dice for {len(planes)} aircraft (gun: {gun}, {spec.kind})")
        want = [plane for plane, roll in zip(spec.aircraft, rolls, strict=False) if roll == AA_HIT]
        assert list(opening.after.aa_destroyed) == want, (
            f"AA rolls {rolls} at {list(spec.aircraft)} destroy {opening.after.aa_destroyed}")
        gone = lost(opening.before.attacker, opening.after.attacker)
        assert gone == Counter(want), f"AA fire removes {dict(gone)}, it hit {want}"

    return check


@invariant(GAME, "sea 2)-3)", "submarine first strike: sea battles only, once, one die per "
           "attacking submarine; its hits are removed at once and never roll; in round 1 the "
           "submarines do not fire again (I8, E4)")
def sub_first_strike(game: Game):
    @given(st.data())
    def check(data):
        spec, steps = _fought(data, game, ("sea", "land"))
        opening = steps[0]
        subs = [t for t in spec.attacker if t == "submarine"]
        rolls = opening.named("sub_rolls")
        if spec.kind != "sea" or not subs:
            assert not rolls and not opening.after.sub_sunk, f"sub strike {rolls} ({spec.kind})"
            return
        values = side_dice(game, subs, "attack", spec.attacker_weapons)
        sunk = min(hits(values, rolls), len(spec.defender))
        assert opening.after.sub_sunk == spec.defender[:sunk], (
            f"sub rolls {rolls} sink {opening.after.sub_sunk}, the defender chose "
            f"{spec.defender[:sunk]}")
        assert opening.after.defender == spec.defender[sunk:], "sunk units are not removed"
        if len(steps) > 1:
            first = steps[1]
            want = side_dice(game, opening.after.defender, "defense", spec.defender_weapons)
            assert len(first.named("defender_rolls")) == len(want), "a sunk unit fires back"
            no_subs = [t for t in first.before.attacker if t != "submarine"]
            firing = side_dice(game, no_subs, "attack", spec.attacker_weapons)
            assert len(first.named("attacker_rolls")) == len(firing), (
                "the submarines fire again in round 1 (E4)")
        if len(steps) > 2 and "submarine" in steps[2].before.attacker:
            firing = side_dice(game, steps[2].before.attacker, "attack", spec.attacker_weapons)
            assert len(steps[2].named("attacker_rolls")) == len(firing), (
                "the submarines do not fire from round 2")

    return check


@invariant(GAME, "land 6)", "a battle ends only when a side is eliminated (or neither side can "
           "ever hit: the attacker must retreat); the defender may never retreat (I9, E5)")
def battle_end(game: Game):
    @given(st.data())
    def check(data):
        spec, steps = _fought(data, game)
        end = steps[-1].after
        if not end.over:
            a = side_dice(game, end.attacker, "attack", spec.attacker_weapons)
            d = side_dice(game, end.defender, "defense", spec.defender_weapons)
            assert not a and not d, f"the battle stops with {end.attacker} v {end.defender}"
            assert B.outcome(end) == "undecided", B.outcome(end)
        try:
            B.retreat(game, "defender")
        except RuleViolation:
            pass
        else:
            raise AssertionError("the defender may retreat")
        B.retreat(game, "attacker")  # the attacker may declare a retreat

    return check


@invariant(GAME, "③ combat", "units are never created or lost outside the dice: survivors are "
           "the starting units less one per hit, AA or submarine kill (conservation)")
def battle_conservation(game: Game):
    @given(st.data())
    def check(data):
        spec, steps = _fought(data, game)
        end = steps[-1].after
        gone_a = lost(spec.attacker, end.attacker)
        gone_d = lost(spec.defender, end.defender)
        kills_a = len(steps[0].after.aa_destroyed)
        kills_d = len(steps[0].after.sub_sunk)
        for step in steps[1:]:
            b = step.before
            kills_d += min(len(b.defender), hits(
                side_dice(game, round_firers(spec, b), "attack", spec.attacker_weapons),
                step.named("attacker_rolls")))
            kills_a += min(len(b.attacker), hits(
                side_dice(game, b.defender, "defense", spec.defender_weapons),
                step.named("defender_rolls")))
        assert sum(gone_a.values()) == kills_a, f"attacker lost {dict(gone_a)}, {kills_a} kills"
        assert sum(gone_d.values()) == kills_d, f"defender lost {dict(gone_d)}, {kills_d} kills"

    return check


# --- victory and battle odds ---------------------------------------------------------------------


@invariant(GAME, "victory conditions", "exactly one outcome for every end state: two Axis "
           "capitals for the Allies, two Allied capitals or NPL >= 84 for the Axis, all checked "
           "at round end (I20, E10)")
def victory_outcomes(game: Game):
    axis_needed = game.constant("axis-capitals-for-allied-win")
    allied_needed = game.constant("allied-capitals-for-axis-win")
    threshold = game.constant("axis-economic-victory-npl")
    top = game.table("victory").key("axis_npl").max
    axis_caps = game.constant("axis-capitals-for-allied-win")
    allied_caps = game.constant("allied-capitals")

    @given(st.integers(0, axis_caps), st.integers(0, allied_caps), st.integers(0, top),
           st.booleans())
    def check(axis_lost, allied_lost, npl, round_end):
        out, rules, _errata = board.victory_check(game, axis_lost, allied_lost, npl, round_end)
        winner = out["winner"]
        assert winner in ("axis", "allies", "none"), f"unknown outcome {winner!r}"
        assert rules, "a victory answer names its rule"
        if winner == "allies":
            assert axis_lost >= axis_needed, f"Allies win with {axis_lost} Axis capitals taken"
        if winner == "axis":
            economic = round_end and npl >= threshold
            assert allied_lost >= allied_needed or economic, (
                f"Axis win with {allied_lost} Allied capitals, NPL {npl}, round end {round_end}")
        if not round_end:  # E10: every condition is checked at the end of a round
            assert winner == "none", f"{winner!r} wins before the end of the round (E10)"
            return
        military = axis_lost >= axis_needed or allied_lost >= allied_needed
        if not military and npl < threshold:
            assert winner == "none", f"{winner!r} wins with no condition met"
        if not military and npl >= threshold:
            assert winner == "axis", f"NPL {npl} >= {threshold} at round end gives {winner!r}"
        if axis_lost >= axis_needed and allied_lost == 0:
            assert winner == "allies", "both Axis capitals taken, no Allied one lost"
        if allied_lost >= allied_needed and axis_lost == 0:
            assert winner == "axis", "two Allied capitals taken, no Axis one lost"

    return check


LAND_TYPES = ("infantry", "armor", "fighter", "bomber")


def _battle(game: Game, attacker: dict[str, int], defender: dict[str, int]) -> dict:
    from ...engine.query import run_odds
    from ...engine.registry import ref_table

    pairs = [f"attacker={_force(attacker)}", f"defender={_force(defender)}"]
    exact = run_odds(game, ref_table(game, "battle"), pairs)["result"]["exact"]
    return {k: Fraction(v) for k, v in exact.items()}


def _forces():
    counts = st.fixed_dictionaries({t: st.integers(0, 2) for t in LAND_TYPES})
    return counts.filter(lambda c: 0 < sum(c.values()) <= 4)


@invariant(GAME, "③ combat", "battle odds are exact: win, loss, mutual destruction (and "
           "undecided) sum to exactly 1; one more attacker never lowers the attacker's odds",
           max_examples=25)
def battle_odds(game: Game):
    @given(_forces(), _forces(), st.sampled_from(LAND_TYPES))
    def check(attacker, defender, extra):
        odds = _battle(game, attacker, defender)
        outcomes = ("attacker_wins", "defender_wins", "mutual_destruction", "undecided")
        total = sum(odds.get(k, 0) for k in outcomes)
        assert total == 1, f"outcomes sum to {total}"
        stronger = dict(attacker, **{extra: attacker[extra] + 1})
        better = _battle(game, stronger, defender)
        assert better["attacker_wins"] >= odds["attacker_wins"], (
            f"adding 1 {extra} lowers attacker_wins from {float(odds['attacker_wins']):.4f} "
            f"to {float(better['attacker_wins']):.4f}")

    return check

"""Axis & Allies rule invariants (I1-I21) as hypothesis properties over the engine.

Every property drives the engine's own procedures (``rules/``) with the game it
is handed and checks what the rule says must hold afterwards. The rule text has no rule numbers:
each property is named after the source's step label (① - ⑥, land 2), sea 7), ...) and carries
its invariant id (I1 ...) in its summary. The numbers the rules print (the unit table,
AA hits on a 1, 5 IPC a development die, success on a 6, the turn order) are written here as the
rules' own; numbers the text leaves out (weapons, the board) are read from the game's data.

Battles are fought with dice hypothesis draws (``DrawnDice``): one step at a time through the
engine's ``opening`` and ``combat_round``, exactly as ``resolve`` takes them, then replayed through
``resolve`` itself, which must end in the same state. A counterexample is the forces and the rolls.

Covered: I1 (turn order; the six actions in order), I2 and I3 (combat dice, E1, E3), I4 and I7
(dice per round), I5 (AA fire), I6 (casualties: the owner's order, never more than the hits or the
units present), I8 (submarine first strike, E4), I9 (how a battle ends; no defender retreat),
I10 (submarine withdrawal), I11-I13 (non-combat movement), I14-I16 (placement), I17 (the cost of
a purchase), I18 (weapons development, E12), I19 (income; a transferred territory moves exactly its
value), I20 (victory, E10), I21 (blitz); plus unit conservation in battle, expected hits never
falling as a force grows, and exact battle odds.

Not covered, and why:

* I1, "each turn runs ①-⑥ exactly once", and I17, "IPC never negative": these procedures
  answer one step at a time; the whole turn and the IPC in hand are the session's
  (``rules/session.py``), checked at every step of whole games played by agents
  (``rules/invariants.py``, tests/games/axis_allies/rules/test_aa_session.py).
* Battleship two hits: neither the rule text nor the engine has it (a battleship takes one hit).
* What submarines may hit (submarine-vs-aircraft restrictions): absent from the rule text;
  the engine lets the first strike hit any defending unit, so nothing is asserted beyond I8.
* Capital capture transferring IPC (IPC seizure): absent from the rule text and the engine;
  only the NPL change of a captured territory is checked (I19).
* Strategic bombing: absent from the rule text. The retreat destination (E14), transports and
  carrier capacity, absent too, are rulings the session takes and its tests check.
* I9's attacker retreat: the battle procedure here fights every battle to its end (``retreat``
  only answers whether a side may declare one), so a retreat is checked as allowed or refused;
  the session plays it (``rules/battles.py``).
* I11's "must leave the battle space" is checked for an aircraft that moved in combat movement
  (the engine's ``moved_in_combat``): the space it fought in is where its non-combat move starts.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st
from warpress.engine.catalogue import ref_table
from warpress.engine.errors import RuleViolation
from warpress.engine.model import Game
from warpress.engine.query import run_odds
from warpress.verify.invariants import DrawnDice, refusal

from . import CODE
from .rules import battle as B
from .rules import board, research
from .rules.common import (
    aa_destroys,
    hit_faces,
    is_hit,
    shot,
    weapon_ids,
)

# --- the rules' own numbers (what the engine is held to) -----------------------------------------

#: the unit table (L36-51): cost, movement, attack, defense; None is the table's "-"
UNIT_TABLE = {
    "infantry": (3, 1, 1, 2), "armor": (5, 2, 3, 2), "fighter": (12, 4, 3, 4),
    "bomber": (15, 6, 4, 1), "antiaircraft": (5, 1, None, 1), "battleship": (24, 2, 4, 4),
    "carrier": (18, 2, 1, 3), "transport": (8, 2, None, 1), "submarine": (8, 2, 2, 2),
    "factory": (15, None, None, None),
}
AIRCRAFT = ("fighter", "bomber")  # 飛行機 (land 2), ④)
TURN_ORDER = ("russia", "germany", "uk", "japan", "usa")  # L15-16: USSR first, USA last
ACTIONS = ("①", "②", "③", "④", "⑤", "⑥")  # L18-24, E9
ROUNDS_PER_YEAR, START_YEAR = 4, 1942  # L17, L119
AA_HIT = 1  # land 2): each 1 destroys that aircraft
DEV_DIE_COST, DEV_SUCCESS = 5, 6  # ①: 5 IPC a die; each 6 is a development
D6 = tuple(range(1, 7))

LAND_ATTACK = ("infantry", "armor", "fighter", "bomber", "antiaircraft")
LAND_DEFENSE = ("infantry", "armor", "fighter", "bomber")
SEA_SIDE = ("battleship", "carrier", "transport", "submarine", "fighter", "bomber")
MOST_UNITS = 6  # per side in the battles drawn


# --- dice and battles --------------------------------------------------------------------------


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
    """One step of a battle: the opening (AA fire, submarine first strike; ``steps[0]``) or a
    round."""

    before: B.BattleState
    after: B.BattleState
    rolls: tuple[tuple[str, str, int], ...]  # (name, die, value), as DrawnDice records them

    def named(self, name: str) -> list[int]:
        return [v for n, _die, v in self.rolls if n == name]


def fight(game: Game, spec: B.BattleSpec, dice: DrawnDice) -> list[Step]:
    """The battle through the engine's steps, as ``resolve`` takes them; ``resolve`` replays it."""
    start = B.BattleState(spec.attacker, spec.defender)
    state = B.opening(game, spec, dice)
    steps = [Step(start, state, tuple(dice.rolls))]
    while not state.over and not B.stalled(game, spec, state):
        mark = len(dice.rolls)
        new = B.combat_round(game, spec, state, dice)
        steps.append(Step(state, new, tuple(dice.rolls[mark:])))
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


def firing(game: Game, spec: B.BattleSpec, state: B.BattleState) -> tuple[list[int], list[int]]:
    """The values each side rolls against in a round fought from ``state``: the attacker's
    round firers (E4), every defender (I7)."""
    return (side_dice(game, round_firers(spec, state), "attack", spec.attacker_weapons),
            side_dice(game, state.defender, "defense", spec.defender_weapons))


def round_hits(game: Game, spec: B.BattleSpec, step: Step) -> tuple[int, int]:
    """The hits a round scores (I2): the attacker's on the defender, the defender's on the
    attacker."""
    attack, defense = firing(game, spec, step.before)
    return (hits(attack, step.named("attacker_rolls")),
            hits(defense, step.named("defender_rolls")))


def lost(before: tuple[str, ...], after: tuple[str, ...]) -> Counter:
    gone = Counter(before) - Counter(after)
    added = Counter(after) - Counter(before)
    assert not added, f"units appear from nowhere: {dict(added)}"
    return gone


# --- ③ combat: dice -------------------------------------------------------------------------------


@CODE.check("③ combat", "a combat die hits iff it rolls at or under the unit's attack, or its "
                       "defense when defending (E1); AA guns, transports, factories never attack")
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


@CODE.check("③ combat", "one more unit never means fewer expected hits; a side never expects "
                       "more hits than it rolls dice")
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


@CODE.check("land 3)-4)", "each round every attacker rolls once (heavy bombers: the weapon's "
                         "dice), but in round 1 of a sea battle not the submarines that struck "
                         "first (E4, from round 2 they do), every defender left after the "
                         "opening once, including those just hit; no AA or submarine dice after "
                         "the opening")
def dice_per_round(game: Game):
    @given(st.data())
    def check(data):
        spec, steps = _fought(data, game)
        for n, step in enumerate(steps[1:], start=1):
            assert step.before.round == n - 1, f"round {n} starts at count {step.before.round}"
            want_a, want_d = firing(game, spec, step.before)
            got_a, got_d = step.named("attacker_rolls"), step.named("defender_rolls")
            e4 = " (E4: the submarines sit out sea round 1)" if spec.kind == "sea" else ""
            assert len(got_a) == len(want_a), (
                f"round {n}: attacker rolls {len(got_a)} dice for {step.before.attacker}, "
                f"the rules give {len(want_a)}{e4}")
            assert len(got_d) == len(want_d), (
                f"round {n}: defender rolls {len(got_d)} dice for {step.before.defender} "
                f"(its casualties of this round included, I7), the rules give {len(want_d)}")
            other = {name for name, *_ in step.rolls} - {"attacker_rolls", "defender_rolls"}
            assert not other, f"round {n} rolls {sorted(other)} (once per battle, I5, I8)"

    return check


@CODE.check("land 3)-5)", "casualties: each side loses exactly min(hits scored on it, units "
                         "present), the units its owner chose first; the opponent's order never "
                         "changes them")
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
            on_d, on_a = round_hits(game, spec, step)
            assert a.defender == b.defender[min(on_d, len(b.defender)):], (
                f"round {n}: {on_d} hits on {b.defender} leave {a.defender}")
            assert a.attacker == b.attacker[min(on_a, len(b.attacker)):], (
                f"round {n}: {on_a} hits on {b.attacker} leave {a.attacker}")
            assert a.round == b.round + 1, f"round counter {b.round} -> {a.round}"

    return check


@CODE.check("land 2)", "AA fire: land battles with a defending AA gun only, once, one die per "
                      "attacking aircraft in order, a 1 destroys that aircraft and nothing else")
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


@CODE.check("sea 2)-3)", "submarine first strike: sea battles only, once, one die per "
           "attacking submarine; its hits are removed at once (that the submarines sit out "
           "round 1, E4, is held with each round's dice)")
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

    return check


@CODE.check("land 6)", "a battle ends only when a side is eliminated (or neither side can ever "
                      "hit: the attacker must retreat); the defender may never retreat (E5)")
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
        assert refusal(B.retreat, game, "defender") is not None, "the defender may retreat"
        B.retreat(game, "attacker")  # the attacker may declare a retreat

    return check


@CODE.check("③ combat", "units are never created or lost outside the dice: survivors are "
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
            on_d, on_a = round_hits(game, spec, step)
            kills_d += min(len(step.before.defender), on_d)
            kills_a += min(len(step.before.attacker), on_a)
        assert sum(gone_a.values()) == kills_a, f"attacker lost {dict(gone_a)}, {kills_a} kills"
        assert sum(gone_d.values()) == kills_d, f"defender lost {dict(gone_d)}, {kills_d} kills"

    return check


# --- the board: movement, withdrawal, placement, income --------------------------------------


def _land(game: Game) -> tuple[str, ...]:
    return tuple(sorted(p for p, rec in board.points(game).items() if not board.is_sea(rec)))


def _sea(game: Game) -> tuple[str, ...]:
    return tuple(sorted(p for p, rec in board.points(game).items() if board.is_sea(rec)))


def changes(game: Game):
    """Territories that changed hands since the start: ``(territory, new owner)`` pairs."""
    owners = st.sampled_from((*TURN_ORDER, board.NEUTRAL))
    return st.lists(st.tuples(st.sampled_from(_land(game)), owners), max_size=12)


def control_of(game: Game, moved: list[tuple[str, str]]) -> dict[str, str]:
    """The printed owners with ``moved`` applied."""
    control = board.start_control(game)
    control.update(moved)
    return control


def walks(game: Game, unit_type: str, most: int):
    """Paths of adjacent spaces along the unit's routes, 1 to ``most`` steps."""
    g = board.graph_for(game, unit_type)
    starts = sorted(n for n in g.nodes if g.neighbours(n))

    @st.composite
    def walk(draw) -> list[str]:
        path = [draw(st.sampled_from(starts))]
        for _ in range(draw(st.integers(1, most))):
            path.append(draw(st.sampled_from(sorted(g.neighbours(path[-1])))))
        return path

    return walk()


@CODE.check("sea 7)", "submarine withdrawal: an attacking sub only to the sea zone it entered "
                     "from, a defending sub only to an adjacent zone free of enemy units")
def sub_withdrawal(game: Game):
    g = board.graph(game, ("sea",))
    seas = tuple(z for z in _sea(game) if g.neighbours(z))

    @given(st.sampled_from(seas), st.data(), st.sampled_from(("attacker", "defender")))
    def check(zone, data, side):
        near = sorted(g.neighbours(zone))
        to = data.draw(st.sampled_from(near) | st.sampled_from(seas), label="to")
        came = data.draw(st.sampled_from(near), label="entered_from")
        enemy = data.draw(st.lists(st.sampled_from(near), unique=True), label="enemy_zones")
        refused = refusal(board.sub_withdrawal, game, side, zone, to, entered_from=came,
                          enemy_zones=enemy)
        legal = to == came if side == "attacker" else (to in near and to not in enemy)
        assert (refused is None) is legal, (
            f"{side} sub {zone} -> {to} (entered from {came}, enemy in {enemy}): "
            f"{'accepted' if refused is None else refused}")

    return check


MOVERS = tuple(t for t in UNIT_TABLE if UNIT_TABLE[t][1])


@CODE.check("④ non-combat movement", "no unit ends in an enemy-occupied, enemy-controlled or "
                                    "neutral space; units that moved in ② stay; aircraft leave "
                                    "the battle space and land in a friendly territory not "
                                    "taken this turn or (fighters) on a carrier, within their "
                                    "movement")
def noncombat_movement(game: Game):
    lands = frozenset(_land(game))

    @given(st.data(), st.sampled_from(MOVERS), st.sampled_from(TURN_ORDER), changes(game),
           st.booleans())
    def check(data, unit_type, power, moved_to, moved):
        control = control_of(game, moved_to)
        move = UNIT_TABLE[unit_type][1]
        aircraft = unit_type in AIRCRAFT
        path = data.draw(walks(game, unit_type, move + 1), label="path")
        used = data.draw(st.integers(0, move), label="used") if aircraft else 0
        enemy = data.draw(st.lists(st.sampled_from(path), unique=True), label="enemy_units")
        taken = data.draw(st.lists(st.sampled_from(path), unique=True), label="captured")
        carriers = data.draw(st.lists(st.sampled_from(path), unique=True), label="carriers")
        refused = refusal(board.noncombat_move, game, power, unit_type, path, control,
                          enemy_units=enemy, moved_in_combat=moved, used=used,
                          captured_this_turn=taken, carriers=carriers)
        end = path[-1]
        spaces = [end] if aircraft else path[1:]
        bad = [w for w in spaces if w in enemy or (w in lands and (
            control.get(w) == board.NEUTRAL or board.hostile(game, power, w, control)))]
        if aircraft:
            sea = board.is_sea(board.point(game, end))
            if sea and not (unit_type == "fighter" and end in carriers):
                bad.append(f"{end} (no carrier)")
            if not sea and end in taken:
                bad.append(f"{end} (captured this turn)")
            if moved and end == path[0]:
                bad.append(f"{end} (the battle space)")
        legal = not bad and used + len(path) - 1 <= move and not (moved and not aircraft)
        assert (refused is None) is legal, (
            f"{unit_type} of {power} {'(moved in ②) ' if moved else ''}along {path}, used "
            f"{used}; bad spaces {bad}: {'accepted' if refused is None else refused}")

    return check


@CODE.check("② combat movement", "blitz: only armor passes through enemy territory, only through "
                                "one without enemy units, and each such territory changes "
                                "control; nobody enters a neutral or passes enemy units")
def blitz(game: Game):
    land_movers = ("infantry", "armor", "antiaircraft", "fighter", "bomber")

    @given(st.data(), st.sampled_from(land_movers), st.sampled_from(TURN_ORDER), changes(game))
    def check(data, unit_type, power, moved_to):
        control = control_of(game, moved_to)
        move = UNIT_TABLE[unit_type][1]
        path = data.draw(walks(game, unit_type, move), label="path")
        enemy = data.draw(st.lists(st.sampled_from(path), unique=True), label="enemy_units")
        try:
            new, captured = board.combat_move(game, power, unit_type, path, control,
                                              enemy_units=enemy)
        except RuleViolation as exc:
            new, captured, refused = None, (), str(exc)
        else:
            refused = None
        middle = path[1:-1]
        neutral = [w for w in path[1:] if control.get(w) == board.NEUTRAL]
        blocked = [w for w in middle if w in enemy]
        hostile = [w for w in middle if board.hostile(game, power, w, control)]
        aircraft = unit_type in AIRCRAFT
        legal = not neutral and not blocked and (aircraft or not hostile or unit_type == "armor")
        assert (refused is None) is legal, (
            f"{unit_type} of {power} along {path} (enemy units in {enemy}): neutral {neutral}, "
            f"through enemy units {blocked}, through enemy territory {hostile}: "
            f"{'accepted' if refused is None else refused}")
        if refused is not None:
            return
        end = path[-1]
        takes_end = (not aircraft and board.hostile(game, power, end, control) and end not in enemy)
        want = ([] if aircraft else hostile) + ([end] if takes_end else [])
        assert list(captured) == want, f"{unit_type} along {path} captures {captured}"
        for where, owner in control.items():
            assert new[where] == (power if where in want else owner), (
                f"{where}: {owner} -> {new[where]}")

    return check


PLACEABLE = tuple(UNIT_TABLE)


def draw_placement(data, own: list[str], lands: tuple[str, ...], seas: tuple[str, ...],
                   coast) -> dict:
    """A placement in ⑤, each part its own draw: factories on the board's ``lands`` (mostly
    in ``own`` territories), where, what, and what this turn already saw."""
    kinds = st.sampled_from(("original", "built"))
    site = st.sampled_from(own) | st.sampled_from(lands) if own else st.sampled_from(lands)
    factories = data.draw(st.dictionaries(site, kinds, min_size=1, max_size=4),
                          label="factories")
    near = sorted({z for f in factories for z in coast.neighbours(f)}) or list(seas)
    where = data.draw(st.sampled_from(sorted(factories)) | st.sampled_from(near)
                      | st.sampled_from(lands), label="where")
    pool = PLACEABLE if where in lands else ("battleship", "carrier", "transport", "submarine",
                                             "infantry")
    units = dict(Counter(data.draw(st.lists(st.sampled_from(pool), min_size=1, max_size=14),
                                   label="units")))
    sites = sorted(factories)
    return {"factories": factories, "where": where, "units": units,
            "built": data.draw(st.lists(st.sampled_from(sites), unique=True), label="built"),
            "captured": data.draw(st.lists(st.sampled_from([*sites, where]), unique=True),
                                  label="captured"),
            "already": {"factory": int(where in factories),
                        "antiaircraft": data.draw(st.integers(0, 1), label="aa_standing")},
            "placed": data.draw(st.dictionaries(st.sampled_from(sites), st.integers(0, 4)),
                                label="placed")}


@CODE.check("⑤", "units are placed only at a factory held since the start of the turn and not "
                "bought this turn (ships next to it), at most the territory's income a turn at "
                "a factory built during the game; at most 1 factory and 1 AA gun a territory")
def placement(game: Game):
    coast = board.graph(game, ("coast",))
    lands, seas = _land(game), _sea(game)

    @given(st.sampled_from(TURN_ORDER), changes(game), st.data())
    def check(power, moved_to, data):
        control = control_of(game, moved_to)
        own = sorted(t for t, who in control.items() if who == power)
        case = draw_placement(data, own, lands, seas, coast)
        factories, where, units = case["factories"], case["where"], case["units"]
        built, captured, already, placed = (case["built"], case["captured"], case["already"],
                                            case["placed"])
        out: dict = {}

        def place():
            out.update(board.check_placement(
                game, power, where, units, control, factories=factories, built_this_turn=built,
                captured_this_turn=captured, already=already, placed=placed))

        refused = refusal(place)
        count = sum(n for t, n in units.items() if t != "factory")
        sea = where in seas
        ships = {"battleship", "carrier", "transport", "submarine"}
        candidates = ([s for s in sorted(factories) if coast.adjacent(where, s)] if sea
                      else [where] if where in factories else [])

        def usable(site: str) -> bool:  # I14
            return control.get(site) == power and site not in captured and site not in built

        def room(site: str) -> bool:  # I15
            return (factories[site] != "built"
                    or count + placed.get(site, 0) <= board.income_value(game, site))

        sites = [s for s in candidates if usable(s) and room(s)]
        problems = []
        if sea and not all(t in ships for t in units):
            problems.append("only ships in a sea zone")
        if not sea and any(t in ships for t in units):
            problems.append("ships go to a sea zone")
        if count and not sites:
            problems.append(f"no usable factory with room among {candidates}")
        if "factory" in units and (sea or control.get(where) != power or where in captured):
            problems.append(f"a new factory in {where}, held by {control.get(where)}")
        for kind in ("factory", "antiaircraft"):  # I16
            if units.get(kind, 0) + already.get(kind, 0) > 1:
                problems.append(f"a second {kind}")
        assert (refused is None) is (not problems), (
            f"{power} places {units} at {where}: {problems or 'legal'}, "
            f"engine: {'accepted' if refused is None else refused}")
        if refused is None and count:
            assert out["factory"] in sites, f"placed through {out['factory']}, usable {sites}"

    return check


@CODE.check("⑤", "placement limit: a factory there from the start places any number, one built "
                "during the game at most its territory's income value")
def placement_limit(game: Game):
    key = game.table("placement-limit").key("income")

    @given(st.sampled_from(("original", "built")), st.integers(key.min, key.max),
           st.integers(0, 20))
    def check(factory, income, place):
        limit = board.placement_limit(game, factory, income, None, None)
        if factory == "original":
            assert not isinstance(limit, int), f"an original factory is limited to {limit}"
        else:
            assert limit == income, f"a built factory in a territory of income {income}: {limit}"
        refused = refusal(board.placement_limit, game, factory, income, None, place)
        over = factory == "built" and place > income
        assert (refused is not None) is over, f"placing {place}: {refused or 'accepted'}"

    return check


@CODE.check("⑤", "at most one AA gun defends a territory: a land battle with two is refused")
def one_aa_gun(game: Game):
    @given(st.integers(0, 3), _side(LAND_DEFENSE))
    def check(guns, defender):
        args = {"kind": "land", "attacker": "1 infantry",
                "defender": _force({**defender, "antiaircraft": guns})}
        refused = refusal(B.make_spec, game, args)
        assert (refused is not None) is (guns > 1), f"{guns} AA guns: {refused or 'accepted'}"

    return check


@CODE.check("⑥ income", "income is the NPL, the sum of the income values of the territories "
                       "held; a territory changing hands moves exactly its value (E11)")
def income(game: Game):
    values = {t: board.income_value(game, t) for t in _land(game)}
    total = sum(values.values())

    @given(changes(game), st.sampled_from(tuple(values)), st.sampled_from(TURN_ORDER))
    def check(moved_to, territory, taker):
        control = control_of(game, moved_to)
        npls = {p: board.npl(game, p, control) for p in TURN_ORDER}
        for power, value in npls.items():
            want = sum(v for t, v in values.items() if control.get(t) == power)
            assert value == want, f"{power}: NPL {value}, its territories print {want}"
            assert board.income(game, value) == value, "income is not the NPL (E11)"
        neutral = sum(v for t, v in values.items() if control.get(t) == board.NEUTRAL)
        assert sum(npls.values()) + neutral == total, "NPL created or lost"
        giver = control[territory]
        after = dict(control, **{territory: taker})
        for power in TURN_ORDER:
            change = board.npl(game, power, after) - npls[power]
            want = (values[territory] * ((power == taker) - (power == giver))
                    if giver != taker else 0)
            assert change == want, f"{territory} {giver} -> {taker}: {power} NPL {change:+d}"
        axis = board.axis_npl(game, control)
        assert axis == npls["germany"] + npls["japan"], f"Axis NPL {axis}"

    return check


# --- ① weapons development and purchase; the sequence ------------------------------------------


@CODE.check("① purchase", "IPC spent in ① = 5 per development die + the printed cost of every "
                         "unit bought")
def purchase_cost(game: Game):
    @given(st.dictionaries(st.sampled_from(tuple(UNIT_TABLE)), st.integers(0, 5)),
           st.integers(0, 12))
    def check(units, dice):
        cost = research.purchase_cost(game, units, dice)
        want = DEV_DIE_COST * dice + sum(UNIT_TABLE[t][0] * n for t, n in units.items())
        assert cost == want, f"{units} and {dice} dice cost {cost}, the chart says {want}"
        assert research.dice_cost(game, dice) == DEV_DIE_COST * dice, f"{dice} dice"

    return check


@CODE.check("① weapons development", "success iff a die shows 6; one new weapon per 6, never one "
                                    "already owned, nothing once all are owned (E12); the "
                                    "chance of success is 1 - (5/6)^n and grows with n")
def weapons_development(game: Game):
    known = weapon_ids(game)

    @given(st.data(), st.integers(1, 6), st.lists(st.sampled_from(known), unique=True))
    def check(data, n, developed):
        dice = DrawnDice(data)
        out = research.develop(game, n, list(developed), dice)
        rolls = [v for name, _die, v in dice.rolls if name == "rolls"]
        sixes = rolls.count(DEV_SUCCESS)
        assert len(rolls) == n, f"{len(rolls)} development dice rolled for {n} bought"
        assert out["sixes"] == sixes and out["success"] is (sixes > 0), f"rolls {rolls}: {out}"
        assert out["cost"] == DEV_DIE_COST * n, f"{n} dice cost {out['cost']}"
        gained = [] if out["weapons"] == "none" else out["weapons"].split(",")
        assert len(set(gained)) == len(gained), f"the same weapon twice: {gained}"
        assert not set(gained) & set(developed), f"{gained} re-develops {developed}"
        assert set(gained) <= set(known), f"unknown weapons {gained}"
        want = min(sixes, len(known) - len(developed))
        assert len(gained) == want, f"{sixes} sixes, {len(developed)} owned give {gained}"
        p = research.p_success(game, n)
        assert p == 1 - Fraction(DEV_SUCCESS - 1, DEV_SUCCESS) ** n, f"P({n} dice) = {p}"
        assert research.p_success(game, n + 1) > p, f"one more die does not raise {p}"

    return check


@CODE.check("sequence of play", "turns run USSR, Germany, UK, Japan, USA, then a new round; 4 "
                               "rounds a year from 1942; the actions are ①-⑥ in order")
def turn_order(game: Game):
    @given(st.sampled_from(TURN_ORDER), st.integers(1, 60))
    def check(power, round_number):
        seen, p, r = [], power, round_number
        for _ in range(len(TURN_ORDER)):
            seen.append(p)
            p, r = board.next_turn(game, p, r)
        k = TURN_ORDER.index(power)
        assert seen == [*TURN_ORDER[k:], *TURN_ORDER[:k]], f"turns from {power}: {seen}"
        assert p == power and r == round_number + 1, f"five turns on: {p} in round {r}"
        nxt = board.next_turn(game, power, round_number)[1]
        assert nxt == round_number + (power == TURN_ORDER[-1]), "the round ends after the USA"
        year = board.year_of_round(game, round_number)
        assert year == START_YEAR + (round_number - 1) // ROUNDS_PER_YEAR, f"round {round_number}"
        steps = sorted(game.section("sequence"), key=lambda s: s.get("order"))
        marks = [str(s.name)[0] for s in steps[:len(ACTIONS)]]
        assert marks == list(ACTIONS), f"the actions run {marks}"

    return check


# --- victory and battle odds ---------------------------------------------------------------------


@CODE.check("victory conditions", "exactly one outcome for every end state: two Axis capitals "
                                 "for the Allies, two Allied capitals or NPL >= 84 for the "
                                 "Axis, all checked at round end (E10)")
def victory_outcomes(game: Game):
    axis_needed = game.constant("axis-capitals-for-allied-win")
    allied_needed = game.constant("allied-capitals-for-axis-win")
    threshold = game.constant("axis-economic-victory-npl")
    top = game.table("victory").key("axis_npl").max
    allied_caps = game.constant("allied-capitals")

    @given(st.integers(0, axis_needed), st.integers(0, allied_caps), st.integers(0, top),
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
    pairs = [f"attacker={_force(attacker)}", f"defender={_force(defender)}"]
    exact = run_odds(game, ref_table(game, "battle"), pairs, exact=True)["result"]["exact"]
    return {k: Fraction(v) for k, v in exact.items()}


def _forces():
    counts = st.fixed_dictionaries({t: st.integers(0, 2) for t in LAND_TYPES})
    return counts.filter(lambda c: 0 < sum(c.values()) <= 4)


@CODE.check("③ combat", "battle odds are exact: win, loss, mutual destruction (and "
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

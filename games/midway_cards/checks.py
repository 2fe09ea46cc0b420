"""Rule invariants of the Fateful Midway Card Game (midway-cards), run by ``warpress verify``.

The rule invariants CI1-CI28, as hypothesis properties
over the engine (``rules/``), each under its rule number:

* ``@given`` properties: air combat and defense answer every level pair as 7-1-2 and 7-3
  say (CI7, CI9); pair creation (CI3-CI6) and targets (CI8); ship status is monotone in
  damage, follows the half-durability rule and is sunk exactly at a durability (CI18); a
  大破 or sunk ship gives no aircraft (CI16); the base status follows its thresholds
  (CI19); every end state has exactly one outcome and the Japanese never win without the
  base 大破 (CI27); the base takes AA cards only (CI10), armament-change cards attack only
  the base (CI21), 応急修理 is US-only and tactics cards are played in the owner's turn
  (CI23, CI24); 「兵装変更中」 leaves with the last armament-change card (CI20);
* stateful properties (``GameMachine``): a ``RuleBasedStateMachine`` drives the engine's
  pure steps (draw, armament change, carrier and base attacks, tactics cards, hand
  exchange, hand adjustment, end of turn) through any sequence of legal moves and checks
  the hand limit (9, CI1), the exchange (8, CI2), card conservation (2, CI25), deck
  cycling and the two-deck end (11, C-E13, CI26), damage that only 応急修理 lowers and
  permanent sinking and 発着艦不能 (7-4, CI14, CI15, CI17), every attack (7: CI3, CI8,
  CI9, CI11-CI13) and the end state of played games (11, CI27).

Not checked: CI22 (the first-deck armament change is the Japanese player's obligation: the
pure steps only report it, ``rearm_obligation_met``; a session makes the Japanese re-arm
while the first deck lasts, ``rules/moves.rearm_due``, tested with the session) and CI28
(marker counts are a physical limit, not a rule).

Every number comes from the game data (``game.constant``, the card stats, the tables), so a
test can hand a factory a modified game, or monkeypatch one engine function, and see FAIL.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import replace
from fractions import Fraction

from hypothesis import given
from hypothesis import seed as fixed_seed
from hypothesis import stateful as hst
from hypothesis import strategies as hs
from warpress.engine.errors import RuleViolation
from warpress.engine.model import Game
from warpress.verify.invariants import SEED, refusal

from . import CODE
from .rules import attack as atk
from .rules import combat
from .rules import common as cm
from .rules import state as st

#: ship statuses from least to most damaged (the ship-damage-status table's values)
STATUS_ORDER = ("intact", "medium", "heavy", "sunk")
#: cap for the state machines (each example plays up to 40 steps)
MACHINE_EXAMPLES = 25
#: the machine's rules make their choices with ``random.Random(pick)``: a replayable number
#: (and no ``data()`` draws, whose explain phase would replay each failure hundreds of times)
PICK_MAX = 2**16 - 1


# --- data read by the properties ------------------------------------------------------------


def levels(game: Game, scale: str) -> tuple[str, ...]:
    """A level scale from the data, strongest first (A > B > C ...)."""
    return tuple(str(v) for v in game.constant(scale))


def strength(game: Game, scale: str, level: str) -> int:
    """Strength of a level on a scale: the strongest scores highest."""
    scale_levels = levels(game, scale)
    return len(scale_levels) - scale_levels.index(level)


def ship_ids(game: Game) -> tuple[str, ...]:
    """Every ship card id, Japanese then US."""
    return tuple(s.id for side in cm.SIDES for s in cm.ships(game, side))


def durabilities(game: Game, ship_id: str) -> tuple[int, int]:
    """(deck, side) durability of a ship card."""
    return int(cm.stat(game, ship_id, "deck_durability")), int(
        cm.stat(game, ship_id, "side_durability"))


def damages(game: Game):
    """Damage on one durability, from none to beyond the largest durability of the data."""
    most = max(d for ship in ship_ids(game) for d in durabilities(game, ship))
    return hs.integers(0, most + 2)


def reaches(game: Game, durability: int, damage: int) -> bool:
    """A durability is used up (C-E1, the constant sinking-threshold)."""
    if game.constant("sinking-threshold") == "reaches":
        return damage >= durability
    return damage > durability


def max_extra_damage(game: Game) -> int:
    """The largest extra damage of a secondary-damage result (7-4)."""
    table = game.table("secondary-damage")
    return max(int(table.result(row).get("extra_damage", 0)) for row in table.rows)


def deck_of(game: Game, instance: str) -> str:
    """The deck a card instance belongs to."""
    return cm.card(game, instance).deck


# --- tables: air combat and defense (7-1-2, 7-3) -------------------------------------------------


@CODE.check("7-1-2", "air combat answers every level pair: equal both removed, else the lower")
def air_combat_total(game: Game):
    """CI7 over the air-combat table: every (attacker, defender) level pair is answered."""
    scale = levels(game, "air-combat-levels")

    @given(attacker=hs.sampled_from(scale), defender=hs.sampled_from(scale))
    def check(attacker, defender):
        removed = combat.air_combat_result(game, attacker, defender)
        a, d = (strength(game, "air-combat-levels", x) for x in (attacker, defender))
        want = "both" if a == d else ("defender" if a > d else "attacker")
        assert removed == want, f"air combat {attacker} vs {defender}: {removed} removed, " \
                                f"7-1-2 removes {want}"

    return check


@CODE.check("7-3", "defense answers every level pair: stopped iff level >= anti-ship level")
def defense_total(game: Game):
    """CI9 over the defense table: a defense card stops exactly the attacks at or below it."""
    scale = levels(game, "defense-levels")

    @given(defense=hs.sampled_from(scale), attack=hs.sampled_from(scale))
    def check(defense, attack):
        stopped = combat.stops(game, defense, attack)
        want = strength(game, "defense-levels", defense) >= strength(game, "defense-levels",
                                                                     attack)
        assert stopped is want, f"defense {defense} vs anti-ship {attack}: stopped={stopped}, " \
                                f"7-3 (C-E2) says {want}"

    return check


# --- pair creation and targets (7-1-1, 7-2, 12-3) ------------------------------------------------


def _aircraft(game: Game, side: str, mission: str) -> list[str]:
    """A side's aircraft card instances able to fly ``mission``."""
    return [c for c in cm.instances(game, cm.ACTION_DECK[side])
            if cm.kind(game, c) == "aircraft" and mission in cm.missions(game, c)]


def _no_f_after_a(plays) -> bool:
    """No card declared F follows a card declared A (7-1-1)."""
    missions = [m for _, m in plays]
    return "F" not in missions[missions.index("A"):] if "A" in missions else True


@CODE.check("7-1-1", "pairs: F before A, at least one A, 1 vs 1 in order until the pass")
def pair_creation(game: Game):
    """CI3-CI6: the engine accepts exactly the plays with no F after an A and enough A
    cards; the defender's CAP cards pair 1 vs 1 with the first plays, in order; after his
    pass no play is paired."""
    japanese = [c for c in cm.instances(game, cm.ACTION_DECK[cm.JAPAN])
                if cm.kind(game, c) == "aircraft"]
    need = int(game.constant("min-anti-ship-cards-per-attack"))

    @given(plays=hs.lists(hs.tuples(hs.sampled_from(japanese), hs.sampled_from(("F", "A"))),
                          max_size=6, unique_by=lambda p: p[0]),
           cap=hs.lists(hs.sampled_from(_aircraft(game, cm.US, "F")), max_size=6, unique=True))
    def check(plays, cap):
        legal = (all(m in cm.missions(game, c) for c, m in plays) and _no_f_after_a(plays)
                 and sum(m == "A" for _, m in plays) >= need and len(cap) <= len(plays))
        try:
            pairs, unpaired = combat.make_pairs(game, plays, cap)
        except RuleViolation as exc:
            assert not legal, f"legal plays refused: {exc}"
            return
        assert legal, "plays accepted against 7-1-1"
        assert [(p.attacker, p.mission, p.defender) for p in pairs] == [
            (c, m, d) for (c, m), d in zip(plays, cap, strict=False)], "pairs not 1 vs 1 in order"
        assert list(unpaired) == list(plays[len(cap):]), "a play after the pass was paired"

    return check


@CODE.check("7-2", "a Japanese attack hits one ship card; the US may split (12-3)")
def one_target(game: Game):
    """CI8: attacking cards aimed at several ship cards are refused for the Japanese, and
    allowed for the US only with several attacking cards."""
    one = int(game.constant("targets-per-attack-japan"))
    us_split = bool(game.constant("us-multiple-targets"))
    us_min = int(game.constant("us-multiple-targets-min-cards"))

    @given(side=hs.sampled_from(cm.SIDES), n=hs.integers(1, 4), aims=hs.lists(
        hs.integers(0, 3), min_size=4, max_size=4))
    def check(side, n, aims):
        cards = _aircraft(game, side, "A")[:n]
        enemy = [s.id for s in cm.ships(game, cm.opponent(side))]
        target = {c: enemy[a % len(enemy)] for c, a in zip(cards, aims, strict=False)}
        split = len(set(target.values())) > one
        refused = refusal(combat.assign_targets, game, side, cards, target) is not None
        allowed = not split or (side == cm.US and us_split and len(cards) >= us_min)
        assert refused is not allowed, (
            f"{side} attack of {len(cards)} card(s) on {sorted(set(target.values()))}: "
            f"refused={refused}")

    return check


# --- ship and base status (3-1, 7-4, 12-4) ------------------------------------------------------


def _status(game: Game, ship_id: str, deck: int, side: int, disabled: bool) -> dict:
    """The engine's status of a ship card with this damage."""
    return cm.damage_status(game, *durabilities(game, ship_id), deck, side, disabled)


@CODE.check("3-1", "ship status is monotone in damage; 発着艦不能 is at least 大破")
def ship_status_monotone(game: Game):
    """CI18 (part): more damage (or a 発着艦不能 result) never gives a lesser status or
    gives back flight operations; a disabled ship is 大破 or sunk."""

    @given(ship=hs.sampled_from(ship_ids(game)), deck=damages(game),
           side=damages(game), more_deck=damages(game), more_side=damages(game),
           disabled=hs.booleans(), now_disabled=hs.booleans())
    def check(ship, deck, side, more_deck, more_side, disabled, now_disabled):
        before = _status(game, ship, deck, side, disabled)
        after = _status(game, ship, deck + more_deck, side + more_side, disabled or now_disabled)
        ranks = [STATUS_ORDER.index(s["status"]) for s in (before, after)]
        assert ranks[1] >= ranks[0], (
            f"{ship}: {before['status']} at deck {deck} side {side} but {after['status']} at "
            f"deck {deck + more_deck} side {side + more_side}")
        assert before["flight_ops"] or not after["flight_ops"], f"{ship} flies again"
        if disabled:
            assert before["status"] in ("heavy", "sunk"), \
                f"{ship} 発着艦不能 but {before['status']} (3-1: treated as 大破)"

    return check


def half_of(game: Game, durability: int) -> int:
    """'Half' a durability (3-1): the constant share, rounded as half-damage-rounding says."""
    exact = Fraction(str(game.constant("damage-status-fraction"))) * durability
    return math.ceil(exact) if game.constant("half-damage-rounding") == "up" else math.floor(exact)


@CODE.check("3-1", "大破 iff 発着艦不能 or both durabilities at half; 中破 iff exactly one")
def status_from_damage(game: Game):
    """CI18: a ship card afloat is 大破 (heavy) when disabled or both damages reach half their
    durability, 中破 (medium) when exactly one does, else intact."""

    @given(ship=hs.sampled_from(ship_ids(game)), deck=damages(game),
           side=damages(game), disabled=hs.booleans())
    def check(ship, deck, side, disabled):
        deck_max, side_max = durabilities(game, ship)
        if reaches(game, deck_max, deck) or reaches(game, side_max, side):
            return  # sunk: the 7-4 property
        at_half = (deck >= half_of(game, deck_max)) + (side >= half_of(game, side_max))
        want = "heavy" if disabled or at_half == 2 else ("medium" if at_half else "intact")
        got = _status(game, ship, deck, side, disabled)["status"]
        assert got == want, (f"{ship} (deck {deck_max}, side {side_max}) damage deck {deck} "
                             f"side {side} disabled={disabled}: {got}, 3-1 says {want}")

    return check


@CODE.check("7-4", "a tapped (大破) or sunk ship card gives no aircraft capacity")
def no_capacity_when_out(game: Game):
    """CI16: each ship card adds its ③ aircraft to its side's capacity while it can launch
    and recover (intact or 中破), and nothing once 大破 or sunk."""
    ships = ship_ids(game)
    damage = hs.tuples(damages(game), damages(game), hs.booleans())

    @given(damages=hs.lists(damage, min_size=len(ships), max_size=len(ships)))
    def check(damages):
        state = st.new_game(game, shuffle=False)
        for ship, (deck, side, disabled) in zip(ships, damages, strict=True):
            sunk = any(reaches(game, d, n) for d, n in zip(durabilities(game, ship), (deck, side),
                                                           strict=True))
            state = st.with_ship(state, st.ShipState(ship, deck, side, disabled, sunk))
        for ship in ships:
            side = cm.owner(game, ship)
            gone = st.with_ship(state, replace(state.ship(ship), sunk=True))
            adds = st.capacity(state, game, side) - st.capacity(gone, game, side)
            status = st.ship_status(game, state.ship(ship))["status"]
            want = Counter() if status in ("heavy", "sunk") else Counter({
                kind: int(cm.stat(game, ship, key, 0)) for key, kind in st.CAPACITY_STATS.items()
                if int(cm.stat(game, ship, key, 0))})
            assert adds == want, f"{ship} ({status}) adds {dict(adds)} aircraft, not {dict(want)}"

    return check


@CODE.check("7-4", "a ship is sunk exactly when a durability is reached (C-E1)")
def sunk_at_durability(game: Game):
    """CI18 (sunk): sunk iff deck or side damage reaches its durability."""

    @given(ship=hs.sampled_from(ship_ids(game)), deck=damages(game),
           side=damages(game), disabled=hs.booleans())
    def check(ship, deck, side, disabled):
        status = _status(game, ship, deck, side, disabled)["status"]
        deck_max, side_max = durabilities(game, ship)
        want = reaches(game, deck_max, deck) or reaches(game, side_max, side)
        assert (status == "sunk") is want, (
            f"{ship} (deck {deck_max}, side {side_max}) with damage deck {deck} side {side}: "
            f"{status}, sunk should be {want}")

    return check


@CODE.check("12-4", "base 大破 from base-heavy-damage, destroyed from base-destroyed-damage")
def base_status_thresholds(game: Game):
    """CI19: the base-status table agrees with the thresholds and VP constants."""
    heavy, destroyed = (int(game.constant(c)) for c in ("base-heavy-damage",
                                                        "base-destroyed-damage"))

    @given(damage=hs.integers(0, destroyed + 10))
    def check(damage):
        got = cm.base_status(game, damage)
        if damage >= destroyed:
            want = ("destroyed", int(game.constant("base-destroyed-vp")))
        elif damage >= heavy:
            want = ("heavy", int(game.constant("base-heavy-vp")))
        else:
            want = ("intact", 0)
        assert (got["status"], got["vp"]) == want, f"base damage {damage}: {got}, 12-4: {want}"

    return check


# --- victory (11) --------------------------------------------------------------------------


def japan_may_win(game: Game, base_damage: int) -> bool:
    """12-4 / 11: the Japanese win only with the base at least 大破 (the base-status table)."""
    return cm.base_status(game, base_damage)["status"] in ("heavy", "destroyed")


@CODE.check("11", "every end state has exactly one outcome; no Japanese win without base 大破")
def one_outcome(game: Game):
    """CI27 over the victory rule: one of japan / us / draw; the Japanese never win with the
    base below 大破; all Japanese carriers out is a US win regardless of VP."""
    most = int(game.constant("base-destroyed-damage")) + 10

    @given(out=hs.sampled_from([(False, False), (True, False), (False, True)]),
           base=hs.integers(0, most), japan_vp=hs.integers(0, 60), us_vp=hs.integers(0, 60))
    def check(out, base, japan_vp, us_vp):
        who, why = st.winner(game, *out, base, japan_vp, us_vp)
        assert who in (cm.JAPAN, cm.US, "draw") and why, f"outcome {who!r} ({why})"
        assert (who, why) == st.winner(game, *out, base, japan_vp, us_vp), "two outcomes"
        if who == cm.JAPAN:
            assert japan_may_win(game, base), \
                f"Japanese win with base damage {base} ({cm.base_status(game, base)['status']})"
        if out[0]:
            assert who == cm.US, f"all Japanese carriers out but {who} wins"

    return check


# --- who may play what (12-4, 12-2, 10-2) ---------------------------------------------------


@CODE.check("12-4", "the Midway base is defended by the base card's defense kinds only")
def base_defense_kinds(game: Game):
    """CI10: a defense card of a kind the base card does not list is refused against it."""
    allowed = tuple(str(k) for k in cm.stat(game, cm.BASE_ID, "defense_kinds"))
    defenders = [c for c in cm.instances(game, cm.ACTION_DECK[cm.US])
                 if cm.kind(game, c) == "defense"]
    attackers = [c for c in cm.instances(game, cm.ACTION_DECK[cm.JAPAN])
                 if cm.stat(game, c, "aircraft_type") == "fighter"]
    attackers += list(cm.instances(game, cm.ARMAMENT_DECK))

    @given(defense=hs.sampled_from(defenders), attacker=hs.sampled_from(attackers))
    def check(defense, attacker):
        refused = refusal(combat.defend, game, {attacker: cm.BASE_ID},
                          {attacker: defense}) is not None
        kind = str(cm.stat(game, defense, "defense_kind"))
        assert refused is (kind not in allowed), \
            f"{defense} ({kind}) against the base: refused={refused}, allowed {allowed}"

    return check


@CODE.check("12-2", "armament-change cards attack only the Midway base, never a ship")
def armament_change_base_only(game: Game):
    """CI21: an armament-change card is refused against a ship card, accepted against the
    base; US cards cannot be re-armed."""
    us_cards = cm.instances(game, cm.ACTION_DECK[cm.US])

    @given(card=hs.sampled_from(cm.instances(game, cm.ARMAMENT_DECK)),
           ship=hs.sampled_from(ship_ids(game)), us_card=hs.sampled_from(us_cards))
    def check(card, ship, us_card):
        assert refusal(combat.check_attackers, game, [card], ship) is not None, \
            f"{card} may attack ship card {ship}"
        assert refusal(combat.check_attackers, game, [card], cm.BASE_ID) is None, \
            f"{card} may not attack the base"
        japan_turn = st.new_game(game, shuffle=False)
        us_turn = replace(japan_turn, turn_player=cm.US, turn=2)
        for state in (japan_turn, us_turn):
            assert refusal(atk.rearm, state, game, [us_card]) is not None, \
                f"{us_card} re-armed in the {state.turn_player} turn"

    return check


@CODE.check("10-2", "応急修理 is never played by the Japanese nor outside the US turn")
def emergency_repair_us_only(game: Game):
    """CI23: the engine refuses 応急修理 in a Japanese turn, and a Japanese card as 応急修理."""
    repairs = [c for c in cm.instances(game, cm.ACTION_DECK[cm.US]) if _is_repair(game, c)]
    japanese = cm.instances(game, cm.ACTION_DECK[cm.JAPAN])
    if not repairs:
        return lambda: None

    @given(repair=hs.sampled_from(repairs), other=hs.sampled_from(japanese),
           ship=hs.sampled_from([s.id for s in cm.ships(game, cm.US)]))
    def check(repair, other, ship):
        state = st.new_game(game, shuffle=False)
        hurt = st.with_ship(state, replace(state.ship(ship), deck_damage=1))
        japan_turn = replace(hurt, us=replace(hurt.us, hand=hurt.us.hand + (repair,),
                                              deck=tuple(c for c in hurt.us.deck if c != repair)))
        assert refusal(atk.emergency_repair, japan_turn, game,
                       [(repair, ship, "deck")]) is not None, \
            "応急修理 played in a Japanese turn"
        us_turn = replace(japan_turn, turn_player=cm.US, turn=2)
        assert refusal(atk.emergency_repair, us_turn, game,
                       [(other, ship, "deck")]) is not None, \
            f"Japanese card {other} played as 応急修理"

    return check


@CODE.check("10", "tactics cards are played only in their owner's own turn")
def tactics_own_turn(game: Game):
    """CI24: 損傷機修理 in the opponent's turn is refused; in the owner's turn it takes one
    aircraft card from his discard pile into his hand."""
    spares = [c for side in cm.SIDES for c in cm.instances(game, cm.ACTION_DECK[side])
              if cm.card(game, c).name_ja == "損傷機修理"]
    if not spares:
        return lambda: None

    @given(spare=hs.sampled_from(spares), n=hs.integers(0, 40))
    def check(spare, n):
        side = cm.owner(game, spare)
        lost = _aircraft(game, side, "A") + _aircraft(game, side, "F")
        lost = lost[n % len(lost)]
        state = replace(st.new_game(game, shuffle=False), turn=2)
        p = state.player(side)
        rest = tuple(c for c in p.deck + p.hand if c not in (spare, lost))
        state = st.with_player(state, replace(p, deck=rest, hand=(spare,), discard=(lost,)))
        theirs = replace(state, turn_player=cm.opponent(side))
        assert refusal(atk.aircraft_repair, theirs, game, spare, lost) is not None, \
            f"{spare} played in the {cm.opponent(side)} turn"
        mine = atk.aircraft_repair(replace(state, turn_player=side), game, spare, lost)
        assert lost in mine.player(side).hand and spare in mine.player(side).discard

    return check


def _is_repair(game: Game, instance: str) -> bool:
    """The card is 応急修理."""
    return cm.card(game, instance).name_ja == "応急修理"


# --- the 「兵装変更中」 card (12-2) -------------------------------------------------------------


def rearming_problem(game: Game, state: st.State, after: str) -> str:
    """CI20: '' when 「兵装変更中」 is on the table only with an armament-change card in the
    Japanese hand, else what is wrong."""
    hand = state.japan.hand
    if state.rearming and not any(deck_of(game, c) == cm.ARMAMENT_DECK for c in hand):
        return (f"after {after}: 「兵装変更中」 on the table but no armament-change card in the "
                f"Japanese hand ({', '.join(hand)}); 12-2 removes it")
    return ""


def _masked(cards, mask: int) -> list[str]:
    """The cards whose bit is set in ``mask``."""
    return [c for n, c in enumerate(cards) if mask >> n & 1]


def rearm_cards(game: Game, state: st.State, mask: int) -> list[str]:
    """99艦爆 / 97艦攻 cards of the Japanese hand chosen by ``mask`` that the pile can re-arm."""
    pile = Counter(cm.stat(game, a, "replaces") for a in state.armament_pile)
    chosen = []
    for c in _masked(state.japan.hand, mask):
        if pile[cm.card_type(c)] > 0:
            pile[cm.card_type(c)] -= 1
            chosen.append(c)
    return chosen


def base_cards(game: Game, state: st.State, mask: int) -> list[str]:
    """Cards of the Japanese hand chosen by ``mask`` that may attack the base, within ③."""
    room = st.capacity(state, game, cm.JAPAN)
    chosen = []
    for c in _masked(state.japan.hand, mask):
        if refusal(combat.check_attackers, game, [c], cm.BASE_ID) is not None:
            continue
        flown = cm.flown_type(game, c, "A") if cm.kind(game, c) == "aircraft" else str(
            cm.stat(game, c, "aircraft_type"))
        if room[flown] > 0:
            room[flown] -= 1
            chosen.append(c)
    return chosen


@CODE.check("12-2", "「兵装変更中」 on the table only while the Japanese hold armament cards")
def rearming_card(game: Game):
    """CI20: after an armament change, a base attack, a hand exchange and the hand
    adjustment of the Japanese first turn, 「兵装変更中」 is on the table only while an
    armament-change card is in the Japanese hand."""

    @given(seed=hs.integers(0, 10_000), rearm=hs.integers(0, 255), attack=hs.integers(0, 255),
           exchange=hs.integers(0, 255), adjust=hs.booleans())
    def check(seed, rearm, attack, exchange, adjust):
        problem = first_turn_rearming(game, seed, rearm, attack, exchange, adjust)
        assert not problem, problem

    return check


def first_turn_rearming(game: Game, seed: int, rearm: int, attack: int, exchange: int,
                        adjust: bool) -> str:
    """Play the Japanese first turn (re-arm, attack the base, exchange, adjust: the cards
    chosen by the bit masks); the first CI20 problem met, or ''."""
    state = st.new_game(game, seed=seed)
    state = atk.rearm(state, game, rearm_cards(game, state, rearm))
    problem = rearming_problem(game, state, "the armament change")
    cards = base_cards(game, state, attack)
    if cards and not problem:
        state = atk.base_attack(state, game, cards)[0]
        problem = rearming_problem(game, state, f"a base attack with {', '.join(cards)}")
    swap = _masked(state.japan.hand, exchange)[:int(game.constant("hand-exchange-max"))]
    if not problem:
        state = st.hand_exchange(state, game, swap)
        problem = rearming_problem(game, state, f"a hand exchange of {', '.join(swap)}")
    if adjust and not problem:
        state = st.hand_adjustment(state, game)
        problem = rearming_problem(game, state, "the hand adjustment")
    return problem


# --- the state machine --------------------------------------------------------------------

#: what each registered machine checks (one rule number each)
CHECKS = ("hand-limit", "exchange", "census", "decks", "damage", "attack", "end")


def deck_map(game: Game) -> dict[str, str]:
    """Card instance -> its deck, for the decks the census counts."""
    return {c: deck for deck in (cm.ACTION_DECK[cm.JAPAN], cm.ACTION_DECK[cm.US],
                                 cm.ARMAMENT_DECK, cm.SECONDARY_DECK)
            for c in cm.instances(game, deck)}


def census_problem(state: st.State, game: Game, decks: dict[str, str] | None = None) -> str:
    """'' when every card is in exactly one place and each deck holds its manifest count
    (CI25), else what is wrong."""
    seen: Counter = Counter()
    for side in cm.SIDES:
        p = state.player(side)
        seen.update(p.deck + p.hand + p.discard)
    seen.update(state.armament_pile + state.secondary_deck + state.secondary_discard)
    doubled = sorted(c for c, n in seen.items() if n > 1)
    if doubled:
        return f"cards in two places: {', '.join(doubled)}"
    decks = decks or deck_map(game)
    held_by = Counter(decks.get(c) or deck_of(game, c) for c in seen)
    for deck in (cm.ACTION_DECK[cm.JAPAN], cm.ACTION_DECK[cm.US], cm.ARMAMENT_DECK,
                 cm.SECONDARY_DECK):
        held = held_by[deck]
        want = int(game.get("decks", deck).count)
        if held != want:
            return f"deck {deck} holds {held} cards, its manifest {want}"
    return ""


def out_of_cards(game: Game, player: st.Player) -> bool:
    """The player's last deck is exhausted (11): he cannot draw any more."""
    return not player.deck and player.deck_number >= int(game.constant("action-deck-passes"))


#: the machine's choice numbers, and the cards burnt at setup (none, into the first deck,
#: into the second, near its end)
PICK = hs.integers(0, PICK_MAX)
BURNS = hs.sampled_from((0, 10, 20, 30, 40, 45, 50, 55, 60))
STRIKES = hs.sampled_from((0, 4, 8, 16, 24, 32, 40))


class GameMachine(hst.RuleBasedStateMachine):
    """A game of midway-cards played through the engine's steps; ``phase`` walks draw ->
    attack -> exchange -> adjust -> end. Subclasses (``game_machine``) set ``game`` and
    ``check``, the group of checks asserted."""

    game: Game
    check: str = ""

    def __init__(self):
        super().__init__()
        self.state: st.State | None = None
        self.phase = "draw"
        self.repaired: Counter = Counter()  # (target, colour) -> damage removed this step
        self.before: st.State | None = None
        self.ran_out: tuple[int, str] | None = None  # (turn, turn player) of deck-out
        self.turns_seen: list[str] = []
        self.result: dict | None = None  # final_result, once the game is over
        self.limit = int(self.game.constant("hand-limit"))

    # --- setup ---------------------------------------------------------------------------

    @hst.initialize(seed=hs.integers(0, 10_000), burn_japan=BURNS, burn_us=BURNS,
                    strikes=STRIKES)
    def setup(self, seed, burn_japan, burn_us, strikes):
        """A new game (6), fast-forwarded through the engine as in earlier play: ``burn``
        cards drawn and discarded (so that the decks cycle within a short program) and
        ``strikes`` earlier hits on ship cards (so that ships are damaged, sunk, out)."""
        state = st.new_game(self.game, seed=seed)
        for side, burn in ((cm.JAPAN, burn_japan), (cm.US, burn_us)):
            state = burn_cards(self.game, state, side, burn)
        state = earlier_strikes(self.game, state, strikes, random.Random(seed))
        self._step(state)
        self.turns_seen = [state.turn_player]

    def _begin(self) -> None:
        """A step starts: the state now is the one the step checks compare with."""
        self.before = self.state
        self.repaired = Counter()

    def _step(self, new: st.State) -> None:
        """Record the state a step made."""
        self.state = new
        if self.ran_out is None and new.end_after_turn is not None:
            self.ran_out = (new.turn, new.turn_player)

    def live(self, phase: str) -> bool:
        """The game goes on and is in ``phase``."""
        return self.state is not None and not self.state.over and self.phase == phase

    # --- the turn ------------------------------------------------------------------------

    @hst.precondition(lambda self: self.live("draw"))
    @hst.rule()
    def draw_phase(self):
        """5-1: draw 1 (+1 if only defense / tactics cards); none on the first turn."""
        self._begin()
        self._step(st.draw_phase(self.state, self.game))
        self.phase = "attack"

    @hst.precondition(lambda self: self.live("attack") and self.state.turn > 1)
    @hst.rule(pick=PICK)
    def carrier_attack(self, pick):
        """7: a legal aircraft attack of the turn player, if he can make one."""
        self._begin()
        plan = draw_plan(random.Random(pick), self.state, self.game)
        self.phase = "exchange"
        if plan is not None:
            after, report = atk.carrier_attack(self.state, self.game, plan)
            self._step(after)
            if self.check == "attack":
                check_attack(self.game, self.before, after, plan, report)

    @hst.precondition(lambda self: self.live("attack") and self.state.turn_player == cm.JAPAN)
    @hst.rule(pick=PICK)
    def base_attack(self, pick):
        """12-1, 12-2: re-arm some bombers, attack the base (or re-arm only)."""
        self._begin()
        rng = random.Random(pick)
        state = atk.rearm(self.state, self.game, draw_rearm(rng, self.state, self.game))
        cards = draw_base_cards(rng, state, self.game)
        self.phase = "exchange"
        if not cards:
            self._step(rearm_only(self.game, state))
            return
        aa = [c for c in state.us.hand if usable_defense(self.game, c, cm.BASE_ID)]
        chosen = rng.sample(aa, rng.randint(0, min(len(aa), len(cards))))
        defense = dict(zip(cards, chosen, strict=False))
        after, report = atk.base_attack(state, self.game, cards, defense)
        self._step(after)
        if self.check == "attack":
            check_base_attack(self.game, state, after, cards, defense, report)

    @hst.precondition(lambda self: self.live("attack") or self.live("exchange"))
    @hst.rule(pick=PICK)
    def tactics(self, pick):
        """10: 応急修理 (US, on damaged cards) or 損傷機修理 in the owner's turn."""
        self._begin()
        game, state, rng = self.game, self.state, random.Random(pick)
        side = state.turn_player
        repairs = [c for c in state.player(side).hand if _is_repair(game, c)]
        targets = repair_targets(state, game) if side == cm.US else []
        if repairs and targets:
            target, colour = rng.choice(targets)
            self._step(atk.emergency_repair(state, game, [(repairs[0], target, colour)]))
            self.repaired[(target, colour)] += int(game.constant("emergency-repair-per-card"))
            return
        spares = [c for c in state.player(side).hand if cm.card(game, c).name_ja == "損傷機修理"]
        lost = [c for c in state.player(side).discard if cm.kind(game, c) == "aircraft"]
        if spares and lost and not (side == cm.US and st.carriers_out(state, game, cm.US)):
            self._step(atk.aircraft_repair(state, game, spares[0], rng.choice(lost)))

    @hst.precondition(lambda self: self.live("exchange"))
    @hst.rule(pick=PICK)
    def exchange(self, pick):
        """8: discard up to hand-exchange-max cards and draw as many; more is refused."""
        self._begin()
        most = int(self.game.constant("hand-exchange-max"))
        rng = random.Random(pick)
        hand = self.state.player(self.state.turn_player).hand
        cards = rng.sample(hand, rng.randint(0, len(hand)))
        if len(cards) > most:
            refused = refusal(st.hand_exchange, self.state, self.game, cards) is not None
            if self.check == "exchange":
                assert refused, f"hand exchange of {len(cards)} cards allowed (8: {most})"
            return
        self._step(st.hand_exchange(self.state, self.game, cards))
        self.phase = "adjust"
        if self.check == "exchange":
            check_exchange(self.game, self.before, self.state, cards)

    @hst.precondition(lambda self: self.live("adjust"))
    @hst.rule(pick=PICK)
    def adjust(self, pick):
        """9: refill to the hand limit, discard down to it (own choice of cards)."""
        self._begin()
        rng = random.Random(pick)
        choice = {}
        for side in cm.SIDES:
            hand = self.state.player(side).hand
            if len(hand) > self.limit:
                choice[side] = rng.sample(hand, len(hand) - self.limit)
        self._step(st.hand_adjustment(self.state, self.game, choice))
        self.phase = "end"
        if self.check == "hand-limit":
            check_hands(self.game, self.state, self.limit)

    @hst.precondition(lambda self: self.live("end"))
    @hst.rule()
    def end_turn(self):
        """Close the turn (11): the game may end; else the other side moves."""
        self._begin()
        self._step(st.end_turn(self.state, self.game))
        self.phase = "draw"
        if not self.state.over:
            self.turns_seen.append(self.state.turn_player)

    @hst.precondition(lambda self: self.state is not None and self.state.over)
    @hst.rule()
    def look(self):
        """The game is over: its result (a pure query)."""
        self._begin()
        if self.result is None:
            self.result = st.final_result(self.state, self.game)
            if self.check == "end":
                check_result(self.game, self.state, self.result)

    # --- invariants ----------------------------------------------------------------------

    @hst.invariant()
    def holds(self):
        """The checks of this machine's group that hold after every step."""
        game, state, check = self.game, self.state, self.check
        if state is None:
            return
        if check == "census":
            problem = census_problem(state, game, self.decks)
            assert not problem, f"card census (2): {problem}"
        elif check == "decks":
            check_decks(game, state, self.ran_out, self.turns_seen)
        elif check == "damage" and self.before is not None:
            check_damage(game, self.before, state, self.repaired)
        elif check == "end" and state.over and self.result is None:
            check_result(game, state, st.final_result(state, game))
        elif check == "hand-limit" and self.phase == "end":
            check_hands(game, state, self.limit)


def game_machine(game: Game, check: str) -> type[GameMachine]:
    """The machine for ``game`` asserting one group of ``CHECKS``, seeded for a
    reproducible run (run() seeds a wrapper that run_state_machine_as_test never sees;
    hypothesis reads the seed from the machine class)."""
    if check not in CHECKS:
        raise ValueError(f"no machine check {check!r} ({', '.join(CHECKS)})")
    name = f"MidwayCards_{check.replace('-', '_')}"
    machine = type(name, (GameMachine,), {"game": game, "check": check,
                                          "decks": deck_map(game), "__qualname__": name})
    return fixed_seed(SEED)(machine)


def burn_cards(game: Game, state: st.State, side: str, burn: int) -> st.State:
    """Draw and discard ``burn`` cards through the engine, all but the last card of a deck
    at a time (so that the deck running out reshuffles every card burnt before)."""
    while burn > 0:
        hand = state.player(side).hand
        state = st.draw(state, game, side, min(burn, max(1, len(state.player(side).deck) - 1)))
        new = state.player(side).hand[len(hand):]
        if not new:
            break
        state = st.discard_from_hand(state, game, side, new, "setup")
        burn -= len(new)
    return state


def rearm_only(game: Game, state: st.State) -> st.State:
    """A Japanese turn that re-armed without attacking discards the card drawn (12-2), or
    another card (not an armament-change one) when that is gone."""
    if not state.rearmed_this_turn:
        return state
    drawn = [c for c in state.japan.drawn if c in state.japan.hand]
    others = [c for c in state.japan.hand if deck_of(game, c) != cm.ARMAMENT_DECK]
    spare = None if drawn else (others or list(state.japan.hand))[0]
    return atk.finish_attack_phase(state, game, spare)


# --- moves the machine draws ------------------------------------------------------------------


def earlier_strikes(game: Game, state: st.State, strikes: int, rng: random.Random) -> st.State:
    """``strikes`` hits of earlier turns: an aircraft card of one side gets through to an
    enemy ship afloat (or an armament-change card to the base), with the engine's own
    secondary-damage draw and damage steps."""
    for _ in range(strikes):
        if state.over:
            break
        side = rng.choice(cm.SIDES)
        if side == cm.JAPAN and rng.random() < 0.4:
            striker = rng.choice(cm.instances(game, cm.ARMAMENT_DECK))
            state, hits = atk.resolve_hits(state, game, {striker: cm.BASE_ID}, [striker])
            state = replace(state, base_damage=state.base_damage + sum(h.damage for h in hits))
            state = st.check_game_end(state, game)
            continue
        afloat = [s.id for s in st.side_ships(state, game, cm.opponent(side)) if not s.sunk]
        strikers = [c for c in cm.instances(game, cm.ACTION_DECK[side])
                    if cm.kind(game, c) == "aircraft" and "A" in cm.missions(game, c)]
        if not afloat or not strikers:
            continue
        striker, target = rng.choice(strikers), rng.choice(afloat)
        state, hits = atk.resolve_hits(state, game, {striker: target}, [striker])
        state = atk.damage_ship(state, game, side, target, hits)[0]
        state = st.check_game_end(state, game)
    return state


def usable_defense(game: Game, instance: str, target: str) -> bool:
    """A defense card the defender may play for ``target`` (12-4 kinds, the ⑤ level cap)."""
    return cm.kind(game, instance) == "defense" and refusal(
        combat.check_defense_card, game, instance, target) is None


def _fit(rng: random.Random, cards, room: Counter, flown) -> list[str]:
    """A random subset of ``cards`` that fits the ③ capacity ``room`` (updated)."""
    chosen = []
    for c in cards:
        if room[flown(c)] > 0 and rng.random() < 0.6:
            room[flown(c)] -= 1
            chosen.append(c)
    return chosen


def draw_plan(rng: random.Random, state: st.State, game: Game) -> atk.AttackPlan | None:
    """A legal carrier-attack plan of the turn player, or None when he has none."""
    side = state.turn_player
    enemy = cm.opponent(side)
    if state.attacked_this_turn:
        return None
    targets = [s.id for s in st.side_ships(state, game, enemy) if not s.sunk]
    hand = [c for c in state.player(side).hand if cm.kind(game, c) == "aircraft"]
    room = st.capacity(state, game, side)
    escorts = _fit(rng, [c for c in hand if "F" in cm.missions(game, c)], room,
                   lambda c: cm.flown_type(game, c, "F"))
    strikers = _fit(rng, [c for c in hand if c not in escorts and "A" in cm.missions(game, c)],
                    room, lambda c: cm.flown_type(game, c, "A"))
    if not strikers or not targets:
        return None
    plays = tuple((c, "F") for c in escorts) + tuple((c, "A") for c in strikers)
    cap_room = st.capacity(state, game, enemy) if game.constant(
        "cap-limited-by-ship-aircraft") else Counter({"fighter": 99})
    enemy_hand = state.player(enemy).hand
    cap = _fit(rng, [c for c in enemy_hand if cm.kind(game, c) == "aircraft"
                     and "F" in cm.missions(game, c)], cap_room,
               lambda c: cm.flown_type(game, c, "F"))[:len(plays)]
    split = side == cm.US and rng.random() < 0.5
    aim = {c: rng.choice(targets) for c in strikers}
    target: str | dict[str, str] = aim if split else aim[strikers[0]]
    defense = {}
    spare = [c for c in enemy_hand if c not in cap]
    for c in strikers:
        usable = [d for d in spare if d not in defense.values()
                  and usable_defense(game, d, aim[c] if split else aim[strikers[0]])]
        if usable and rng.random() < 0.6:
            defense[c] = rng.choice(usable)
    return atk.AttackPlan(plays=plays, cap=tuple(cap), target=target, defense=defense,
                          keep_winners=rng.random() < 0.7, cap_keep_winners=rng.random() < 0.7)


def draw_rearm(rng: random.Random, state: st.State, game: Game) -> list[str]:
    """99艦爆 / 97艦攻 cards of the Japanese hand to re-arm (as many as the pile allows)."""
    pile = Counter(cm.stat(game, a, "replaces") for a in state.armament_pile)
    chosen = []
    for c in state.japan.hand:
        if pile[cm.card_type(c)] > 0 and rng.random() < 0.6:
            pile[cm.card_type(c)] -= 1
            chosen.append(c)
    return chosen


def draw_base_cards(rng: random.Random, state: st.State, game: Game) -> list[str]:
    """Armament-change and 零戦 cards of the Japanese hand for a base attack (③ capacity)."""
    if state.attacked_this_turn:
        return []
    ready = [c for c in state.japan.hand
             if refusal(combat.check_attackers, game, [c], cm.BASE_ID) is None]

    def flown(c: str) -> str:
        if cm.kind(game, c) == "aircraft":
            return cm.flown_type(game, c, "A")
        return str(cm.stat(game, c, "aircraft_type"))

    return _fit(rng, ready, st.capacity(state, game, cm.JAPAN), flown)


def repair_targets(state: st.State, game: Game) -> list[tuple[str, str]]:
    """(target, colour) pairs 応急修理 may repair: damaged US ships afloat, the base."""
    out = [(cm.BASE_ID, "deck")] if state.base_damage > 0 else []
    for s in st.side_ships(state, game, cm.US):
        if not s.sunk:
            out += [(s.id, colour) for colour, n in (("deck", s.deck_damage),
                                                     ("side", s.side_damage)) if n > 0]
    return out


# --- the machine's checks ---------------------------------------------------------------------


def check_hands(game: Game, state: st.State, limit: int) -> None:
    """CI1: after hand adjustment every hand <= the limit; the turn player and every card
    user hold exactly the limit unless their last deck is exhausted."""
    for side in cm.SIDES:
        p = state.player(side)
        assert len(p.hand) <= limit, f"{side} holds {len(p.hand)} cards after adjustment (9)"
        if side == state.turn_player or p.used:
            assert len(p.hand) == limit or out_of_cards(game, p), (
                f"{side} holds {len(p.hand)} cards after adjustment, the limit is {limit} "
                f"({len(p.deck)} left in deck {p.deck_number})")


def check_exchange(game: Game, before: st.State, after: st.State, cards) -> None:
    """CI2: as many cards drawn as discarded (unless the last deck ran dry)."""
    side = before.turn_player
    hand, new = before.player(side).hand, after.player(side).hand
    assert len(new) == len(hand) or out_of_cards(game, after.player(side)), \
        f"hand exchange of {len(cards)}: hand {len(hand)} -> {len(new)} (8)"


def check_decks(game: Game, state: st.State, ran_out, turns_seen) -> None:
    """11, C-E13: a first deck that runs out is reshuffled; the game ends after the next
    turn of the player in whose turn a second deck ran out (the opponent plays one turn)."""
    passes = int(game.constant("action-deck-passes"))
    for side in cm.SIDES:
        p = state.player(side)
        assert 1 <= p.deck_number <= passes, f"{side} on deck {p.deck_number} of {passes}"
        if p.deck_number < passes:
            assert p.deck, f"{side}'s deck {p.deck_number} ran out and was not reshuffled"
    exhausted = any(out_of_cards(game, state.player(s)) for s in cm.SIDES)
    assert (state.end_after_turn is not None) is exhausted, (
        f"end turn {state.end_after_turn} but a last deck exhausted: {exhausted}")
    if ran_out is None:
        return
    turn, player = ran_out
    next_own = turn + len(cm.SIDES)  # sides alternate (5): the player's next turn
    assert state.end_after_turn == next_own, (
        f"a second deck ran out in the {player} turn {turn}: the last turn is "
        f"{state.end_after_turn}, C-E13 reading A: the {player} turn {next_own} "
        f"(the {cm.opponent(player)} turn, then one more {player} turn)")
    assert state.over or state.turn <= state.end_after_turn, \
        f"turn {state.turn} played after the last turn {state.end_after_turn}"
    if state.over and "deck" in state.end_reason:
        after = list(turns_seen[turn:state.turn])
        assert after == [cm.opponent(player), player], (
            f"a second deck ran out in the {player} turn {turn}; the game ended after turn "
            f"{state.turn}: turns after it {after}, C-E13 reading A: "
            f"{[cm.opponent(player), player]}")


def check_damage(game: Game, before: st.State, after: st.State, repaired: Counter) -> None:
    """CI14, CI15, CI17: damage never decreases but by 応急修理 (-1 a card); 発着艦不能 and
    sunk are permanent; a sunk ship card is held by its attacker for good."""
    for old in before.ships:
        new = after.ship(old.id)
        for colour, field_name in (("deck", "deck_damage"), ("side", "side_damage")):
            drop = getattr(old, field_name) - getattr(new, field_name)
            assert drop <= repaired[(old.id, colour)], (
                f"{old.id} {colour} damage {getattr(old, field_name)} -> "
                f"{getattr(new, field_name)} without 応急修理")
        assert new.disabled or not old.disabled, f"{old.id} 発着艦不能 repaired"
        assert new.sunk or not old.sunk, f"{old.id} raised from the bottom"
        if new.sunk:
            holder = after.player(cm.opponent(cm.owner(game, new.id)))
            assert holder.captured.count(new.id) == 1, f"{new.id} sunk but not held once"
    drop = before.base_damage - after.base_damage
    assert drop <= repaired[(cm.BASE_ID, "deck")], \
        f"base damage {before.base_damage} -> {after.base_damage} without 応急修理"


def check_attack(game: Game, before: st.State, after: st.State, plan: atk.AttackPlan,
                 report: atk.AttackReport) -> None:
    """CI3, CI8, CI9, CI11-CI13 for one carrier attack, and the damage it adds."""
    side = before.turn_player
    pairs = report.pairing.pairs
    assert [(p.attacker, p.mission, p.defender) for p in pairs] == [
        (a, m, d) for (a, m), d in zip(plan.plays, plan.cap, strict=False)], \
        "pairs are not 1 vs 1 in play order (7-1-1)"
    survivors = report.pairing.attackers
    for c in report.stopped:
        level = str(cm.stat(game, plan.defense[c], "level"))
        assert strength(game, "defense-levels", level) >= strength(
            game, "defense-levels", str(cm.stat(game, c, "anti_ship"))), \
            f"{plan.defense[c]} stopped {c} below its anti-ship level (7-3)"
    through = [c for c in survivors if c not in report.stopped]
    check_hits(game, before, report.hits, through)
    if side == cm.JAPAN:
        assert len({h.target for h in report.hits}) <= 1, "a Japanese attack split (7-2)"
    for ship_id in {h.target for h in report.hits}:
        old, new = before.ship(ship_id), after.ship(ship_id)
        for kind, field_name in (("bombing", "deck_damage"), ("torpedo", "side_damage")):
            got = sum(h.damage for h in report.hits if h.target == ship_id and h.kind == kind)
            assert getattr(new, field_name) - getattr(old, field_name) == got, \
                f"{ship_id} {field_name} grew by other than its hits ({got})"
    for c, m in plan.plays:
        if m == "A":
            assert c not in after.player(side).hand, f"{c} attacked and is back in hand (7-5)"


def check_hits(game: Game, before: st.State, hits, through) -> None:
    """CI11, CI12: one secondary-damage card per card through; damage 0 or in range."""
    assert sorted(h.card for h in hits) == sorted(through), \
        f"hits {[h.card for h in hits]} for cards through {list(through)} (7-4)"
    assert len({h.secondary for h in hits}) == len(hits), "a secondary-damage card drawn twice"
    extra = max_extra_damage(game)
    for h in hits:
        low = int(cm.stat(game, h.card, "damage"))
        if before.rearming and cm.owner(game, h.card) == cm.US:
            low += int(game.constant("rearming-us-damage-bonus"))
        assert h.damage == 0 or low <= h.damage <= low + extra, \
            f"{h.card} did {h.damage} damage, not 0 or {low}..{low + extra} (7-4)"


def check_base_attack(game: Game, before: st.State, after: st.State, cards, defense,
                      report: atk.AttackReport) -> None:
    """12-1: AA only, every card reads the bombing result, base damage = the hits."""
    allowed = tuple(str(k) for k in cm.stat(game, cm.BASE_ID, "defense_kinds"))
    assert all(str(cm.stat(game, d, "defense_kind")) in allowed for d in defense.values())
    through = [c for c in cards if c not in report.stopped]
    check_hits(game, before, report.hits, through)
    assert all(h.kind == "bombing" and not h.disabled for h in report.hits), \
        "a base attack read a torpedo result or disabled the base (12-1)"
    assert after.base_damage - before.base_damage == sum(h.damage for h in report.hits), \
        "base damage grew by other than its hits"
    assert not set(cards) & set(after.japan.hand), "a base-attack card is back in hand (12-1)"


def check_result(game: Game, state: st.State, result: dict) -> None:
    """CI27: exactly one outcome; the Japanese never win with the base below 大破."""
    who = result["winner"]
    assert who in (cm.JAPAN, cm.US, "draw"), f"outcome {who!r}"
    if who == cm.JAPAN:
        assert japan_may_win(game, state.base_damage), (
            f"Japanese win ({result['reason']}) with base damage {state.base_damage}")


# --- registration of the machines ---------------------------------------------------------------


def _register(check: str, rule_number: str, summary: str) -> None:
    """Register the machine running one group of checks."""
    def factory(game: Game):
        return game_machine(game, check)

    factory.__name__ = f"machine_{check.replace('-', '_')}"
    CODE.check(rule_number, summary, max_examples=MACHINE_EXAMPLES)(factory)


_register("hand-limit", "9", "after hand adjustment hands <= limit; refilling players at the limit")
_register("exchange", "8", "hand exchange: at most hand-exchange-max cards, as many drawn back")
_register("census", "2", "no card lost or doubled: decks, hands, discards, piles hold 32/16/16")
_register("decks", "11", "a first deck reshuffles; the game ends the turn C-E13 says")
_register("damage", "7-4", "damage drops only by 応急修理; sunk and 発着艦不能 are for good")
_register("attack", "7", "every attack: 1 vs 1 pairs, F before A, one card one draw, bounded hits")
_register("end", "11", "every game ended has one outcome; no Japanese win without base 大破")

"""③ Combat in a session: the battles of a power's turn fought one space at a time through
the folder's battle procedure (``battle.py``: the dice of a side's fire, AA fire, the
submarines' first strike, E1, E3, E4), with each side's choices asked of the player who makes
them.

A battle is a stage machine kept in ``data.battle``; :func:`advance` runs it up to the next
decision or its end:

* ``open``: shore bombardment (the attacker's battleships in a sea zone its land units came
  ashore from this turn; constant shore-bombardment, assumed), then AA fire (land 2)) and
  the attacking submarines' first strike (sea 2)-3));
* ``round``: the attacker fires, the defender fires (its casualties of this round too,
  land 4)); the defender's hits go to CASUALTIES, the attacker's are removed at once;
  the CASUALTIES are removed (land 5), sea 6)); submarines may withdraw (sea 7)); the
  attacker presses on or retreats (land 6), sea 8), E14);
* ``end``: a land battle won with a land unit left takes the territory; defending fighters
  left without a carrier are lost (constant carrier-sunk-fighters, assumed).

Hits are taken as the side hit chooses (``lose``), or by an order of loss given for the rest
of the battle (``order``); a choice with one answer is made at once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from itertools import permutations
from typing import Any

from warpress.engine.dice import Dice
from warpress.engine.errors import BadInput, RuleViolation
from warpress.engine.model import Game
from warpress.engine.position import Piece, thaw

from .battle import fire
from .board import sub_withdrawal
from .common import (
    DIE,
    aa_destroys,
    casualty_order,
    const,
    domain,
    flag,
    has_tag,
    shot,
    unit_row,
    unit_types,
)
from .moves import Run, capture, coast_adj, is_piece_id, land_adj, sea, sea_adj, units_text
from .positions import (
    at,
    board_carriers,
    cargo_of,
    enemies,
    evolve_piece,
    friendly_land,
    has_enemy,
    powers,
    remove_pieces,
    weapons,
)

LAND_STEP = {"bombard": "② combat movement", "aa": "land 2)", "attacker": "land 3)",
             "defender": "land 4)", "remove": "land 5)", "retreat": "land 6)"}
SEA_STEP = {"strike": "sea 2)", "attacker": "sea 4)", "defender": "sea 5)", "remove": "sea 6)",
            "withdraw": "sea 7)", "retreat": "sea 8)"}
RETREAT_RULES = ("land 6)", "sea 8)", "E14")


def step_rule(kind: str, step: str) -> str:
    return (LAND_STEP if kind == "land" else SEA_STEP).get(step, "③ combat")


# --- who fights ----------------------------------------------------------------------------


def takes_part(game: Game, piece: Piece, power: str) -> bool:
    """A unit that fights in a battle in its space on the side of its alliance, ``power``
    being the attacker: not a factory, not a land unit aboard a transport, not an ally's
    fighter carried on the attacker's carrier (cargo)."""
    if piece.unit == "factory":
        return False
    if piece.props.get("aboard") is None:
        return True
    if domain(game, piece.unit) != "air":
        return False
    return piece.side == power or enemies(game, piece.side, power)


def battle_spaces(run: Run) -> list[str]:
    """Every space holding units of the power and of the other alliance (③)."""
    game, power = run.game, run.power
    out = set()
    for p in run.pos.pieces:
        if p.kind == "area" and p.side == power and takes_part(game, p, power) and has_enemy(
                game, run.pos, p.place, power):
            out.add(p.place)
    return sorted(out)


def defending_power(run: Run, space: str, defenders: list[Piece]) -> str:
    """Who chooses the defender's casualties and withdrawals: the power holding the
    territory when its units are there, else the power with most units (ties in turn
    order; constant defending-power, assumed)."""
    owner = run.pos.control.get(space)
    sides = Counter(p.side for p in defenders)
    if owner in sides:
        return str(owner)
    order = powers(run.game)
    return max(sides, key=lambda s: (sides[s], -order.index(s)))


def open_battle(run: Run, space: str) -> None:
    """Set up the battle board (land 1), sea 1)) and run it to its first decision."""
    game, power = run.game, run.power
    here = at(run.pos, space)
    attackers = [p for p in here if p.side == power and takes_part(game, p, power)]
    defenders = [p for p in here if enemies(game, p.side, power) and takes_part(game, p, power)]
    kind = "sea" if sea(game, space) else "land"
    run.put(evolve_piece(p, add=["fought"]) for p in attackers)
    run.set(battle={"space": space, "kind": kind, "round": 0, "stage": "open",
                    "attackers": [p.id for p in attackers],
                    "defenders": [p.id for p in defenders], "casualties": [],
                    "defender_power": defending_power(run, space, defenders), "orders": {},
                    "struck": False, "hits": {}, "retreated": False})
    run.say(f"battle in {space} ({kind}): {power} attacks with {_force(attackers)} against "
            f"{_force(defenders)}", "③ combat", "land 1)" if kind == "land" else "sea 1)")


def _force(pieces: Iterable[Piece]) -> str:
    counts: dict[str, Counter] = {}
    for p in pieces:
        counts.setdefault(str(p.side), Counter())[p.unit] += 1
    return "; ".join(f"{side} " + ", ".join(f"{n} {t}" for t, n in c.items())
                     for side, c in counts.items()) or "nothing"


# --- the battle as it stands ------------------------------------------------------------


def battle(run: Run) -> dict[str, Any]:
    return thaw(run.data("battle"))


def save(run: Run, b: dict[str, Any]) -> None:
    run.set(battle=b)


def pieces_of(run: Run, ids: Iterable[str]) -> list[Piece]:
    wanted = list(ids)
    found = {p.id: p for p in run.pos.pieces if p.id in set(wanted)}
    return [found[i] for i in wanted if i in found]


def attackers(run: Run, b: dict[str, Any]) -> list[Piece]:
    return pieces_of(run, b["attackers"])


def defenders(run: Run, b: dict[str, Any]) -> list[Piece]:
    return pieces_of(run, b["defenders"])


def _fire(run: Run, units: list[Piece], role: str, dice: Dice, name: str) -> tuple[int, list[int]]:
    """Hits of one side's fire (battle.fire, per power for its weapons) and the dice."""
    game = run.game
    start = len(getattr(dice, "rolls", []))
    hits = 0
    by_power: dict[str, list[str]] = {}
    for p in units:
        by_power.setdefault(str(p.side), []).append(p.unit)
    for side in sorted(by_power, key=lambda s: powers(game).index(s)):
        hits += fire(game, tuple(by_power[side]), role, weapons(run.pos, side), dice, name)
    rolled = [v for _n, _d, v in getattr(dice, "rolls", [])[start:]]
    return hits, rolled


# --- the stages -------------------------------------------------------------------------


def advance(run: Run, dice: Dice) -> bool:
    """Run the battle going on up to the next decision (False) or its end (True)."""
    while True:
        b = battle(run)
        stage = b["stage"]
        if stage == "open":
            _bombard(run, b, dice)
            b = battle(run)
            b["stage"] = "aa"
            save(run, b)
            if _ask_losses(run, "defender", b.get("hits", {}).get("bombard", 0), "casualty",
                           "bombard"):
                return False
        elif stage == "aa":
            _aa_fire(run, b, dice)
            b = battle(run)
            b["stage"] = "strike"
            save(run, b)
        elif stage == "strike":
            hits = _sub_strike(run, b, dice)
            b = battle(run)
            b["stage"] = "round"
            save(run, b)
            if _ask_losses(run, "defender", hits, "remove", "strike"):
                return False
        elif stage == "round":
            if _over(run, b):
                finish(run)
                return True
            hits_def, hits_att = _round_fire(run, b, dice)
            b = battle(run)
            b["stage"] = "attacker-losses"
            b["hits"] = {**b.get("hits", {}), "attacker": hits_att}
            save(run, b)
            if _ask_losses(run, "defender", hits_def, "casualty", "attacker"):
                return False
        elif stage == "attacker-losses":
            b["stage"] = "remove"
            save(run, b)
            if _ask_losses(run, "attacker", b["hits"].get("attacker", 0), "remove", "defender"):
                return False
        elif stage == "remove":
            _remove_casualties(run, b)
            b = battle(run)
            b["stage"] = "withdraw-attacker" if b["kind"] == "sea" else "retreat"
            save(run, b)
        elif stage == "withdraw-attacker":
            b["stage"] = "withdraw-defender"
            save(run, b)
            if _ask_withdraw(run, b, "attacker"):
                return False
        elif stage == "withdraw-defender":
            b["stage"] = "retreat"
            save(run, b)
            if _ask_withdraw(run, battle(run), "defender"):
                return False
        elif stage == "retreat":
            b["stage"] = "round"
            save(run, b)
            if not _over(run, b) and _ask_retreat(run, b):
                return False
        else:
            raise BadInput(f"battle stage {stage!r} is unknown")


def _over(run: Run, b: dict[str, Any]) -> bool:
    if b.get("retreated"):
        return True
    att, dfn = attackers(run, b), defenders(run, b)
    if not att or not dfn:
        return True
    return _stalled(run, att, dfn)


def _stalled(run: Run, att: list[Piece], dfn: list[Piece]) -> bool:
    """Neither side can ever hit (the battle cannot end by elimination)."""
    game = run.game

    def hits(units: list[Piece], role: str) -> bool:
        return any(shot(game, p.unit, role, weapons(run.pos, str(p.side))).rolls for p in units)

    return not hits(att, "attack") and not hits(dfn, "defense")


def _bombard(run: Run, b: dict[str, Any], dice: Dice) -> None:
    """Shore bombardment: before the first round of a land battle, the attacker's battleships
    in a sea zone its land units came ashore from this turn, not in a battle of their own,
    fire once each at their attack; the hits are the defender's casualties, which fire back
    in the first round (constant shore-bombardment, assumed)."""
    game = run.game
    if b["kind"] != "land" or not defenders(run, b):
        return
    zones = dict(run.data("assaults") or {}).get(b["space"]) or ()
    units = [p for z in zones for p in at(run.pos, z)
             if p.side == run.power and p.unit in const(game, "shore-bombardment")
             and not ({"fought", "bombarded"} & p.flags) and not has_enemy(game, run.pos, z,
                                                                          run.power)]
    if not units:
        return
    if hasattr(dice, "mark"):
        dice.mark("shore bombardment")
    hits, rolled = _fire(run, units, "attack", dice, "bombard_rolls")
    run.put(evolve_piece(p, add=["bombarded"]) for p in units)
    b = battle(run)
    b["hits"] = {**b.get("hits", {}), "bombard": hits}
    save(run, b)
    run.say(f"shore bombardment of {b['space']}: {len(units)} battleship(s) roll "
            f"{_dice(rolled)}: {hits} hit(s)", "② combat movement", rolls=rolled)


def _dice(rolled: list[int]) -> str:
    return " ".join(str(v) for v in rolled) or "nothing"


def _aa_fire(run: Run, b: dict[str, Any], dice: Dice) -> None:
    """land 2): one die per attacking aircraft, once; each 1 destroys that aircraft (I5)."""
    game = run.game
    if b["kind"] != "land" or b["round"] > 0:
        return
    if not any(has_tag(game, p.unit, "aa-fire") for p in defenders(run, b)):
        return
    planes = [p for p in attackers(run, b) if has_tag(game, p.unit, "aircraft")]
    if not planes:
        return
    per = int(const(game, "aa-dice-per-aircraft"))
    lost, rolled = [], []
    for plane in planes:
        rolls = [dice.roll(DIE, "aa_rolls") for _ in range(per)]
        rolled += rolls
        if any(aa_destroys(game, r) for r in rolls):
            lost.append(plane)
    run.say(f"AA fire in {b['space']}: {_dice(rolled)} at {len(planes)} aircraft: "
            f"{units_text(p.unit for p in lost) or 'none'} destroyed", "land 2)", "E3",
            rolls=rolled)
    _destroy(run, b, lost)


def _sub_strike(run: Run, b: dict[str, Any], dice: Dice) -> int:
    """sea 2): the attacking submarines fire once, first; their hits are removed at once."""
    game = run.game
    if b["kind"] != "sea" or b["round"] > 0 or b.get("struck"):
        return 0
    subs = [p for p in attackers(run, b) if has_tag(game, p.unit, "first-strike")]
    if not subs or not defenders(run, b):
        return 0
    hits, rolled = _fire(run, subs, "attack", dice, "sub_rolls")
    b = battle(run)
    b["struck"] = True
    save(run, b)
    run.say(f"first strike in {b['space']}: {len(subs)} submarine(s) roll {_dice(rolled)}: "
            f"{hits} hit(s)", "sea 2)", rolls=rolled)
    return hits


def _round_fire(run: Run, b: dict[str, Any], dice: Dice) -> tuple[int, int]:
    """One round's fire: the attacker (in sea round 1 not the submarines that struck
    first, E4), then the defender, casualties included (land 4), E1)."""
    game = run.game
    att = attackers(run, b)
    if b["kind"] == "sea" and b["round"] == 0 and b.get("struck") and not flag(
            game, "subs-fire-again-round-one"):
        att = [p for p in att if not has_tag(game, p.unit, "first-strike")]
    n = b["round"] + 1
    hits_def, rolled_a = _fire(run, att, "attack", dice, "attacker_rolls")
    hits_att, rolled_d = _fire(run, defenders(run, b), "defense", dice, "defender_rolls")
    b = battle(run)
    b["round"] = n
    save(run, b)
    run.say(f"round {n} in {b['space']}: {run.power} rolls {_dice(rolled_a)} ({hits_def} "
            f"hit(s)); the defender rolls {_dice(rolled_d)} ({hits_att} hit(s))",
            step_rule(b["kind"], "attacker"), step_rule(b["kind"], "defender"), "E1",
            attacker=rolled_a, defender=rolled_d)
    return hits_def, hits_att


# --- casualties --------------------------------------------------------------------------


def chooser(b: dict[str, Any], whose: str, attacker: str) -> str:
    return attacker if whose == "attacker" else str(b["defender_power"])


def eligible(run: Run, b: dict[str, Any], whose: str) -> list[Piece]:
    """The units a side may lose now: the attacker's left; the defender's not already in
    CASUALTIES."""
    if whose == "attacker":
        return attackers(run, b)
    gone = set(b["casualties"])
    return [p for p in defenders(run, b) if p.id not in gone]


def loss_sets(game: Game, units: list[Piece], n: int) -> list[tuple[str, ...]]:
    """The different losses of ``n`` units: one per order of the unit types present
    (casualty orders by type; the listing's bound), as unit types."""
    counts = Counter(p.unit for p in units)
    types = [t for t in unit_types(game) if t in counts]
    found: dict[tuple[str, ...], None] = {}
    for order in permutations(types):
        taken: list[str] = []
        for t in order:
            taken += [t] * min(counts[t], n - len(taken))
            if len(taken) == n:
                break
        found[tuple(sorted(taken, key=types.index))] = None
    return sorted(found, key=lambda s: [types.index(t) for t in s])


def _ask_losses(run: Run, whose: str, hits: int, mode: str, step: str) -> bool:
    """Ask the side hit which units it loses (True), or take them at once when there is one
    answer or an order of loss was given (False)."""
    b = battle(run)
    units = eligible(run, b, whose)
    n = min(hits, len(units))
    if n <= 0:
        return False
    side = chooser(b, whose, run.power)
    order = b["orders"].get(side)
    options = loss_sets(run.game, units, n)
    if order is not None or len(options) == 1:
        types = options[0] if order is None else _by_order(run.game, units, n, order)
        take_losses(run, whose, pick(run, units, list(types), side), mode, step)
        return False
    rule = step_rule(b["kind"], step)
    run.due("casualties", side, (rule, "③ combat"), space=b["space"], whose=whose, hits=n,
            mode=mode, step=step)
    return True


def _by_order(game: Game, units: list[Piece], n: int, order: list[str]) -> tuple[str, ...]:
    counts = dict(Counter(p.unit for p in units))
    return casualty_order(game, counts, order, "order")[:n]


def pick(run: Run, units: list[Piece], chosen: list[str], side: str) -> list[Piece]:
    """The pieces a loss names (types or piece ids): of a type, the chooser's own first,
    then those carrying least, then in id order."""
    pool = list(units)
    out: list[Piece] = []
    for item in chosen:
        if is_piece_id(item):
            found = next((p for p in pool if p.id == item), None)
        else:
            same = [p for p in pool if p.unit == item]
            same.sort(key=lambda p: (p.side != side, len(cargo_of(run.pos, p)), p.id))
            found = same[0] if same else None
        if found is None:
            raise RuleViolation("③ combat", f"{item} is not among the units that may be lost "
                                           f"({units_text(p.unit for p in pool) or 'none'})")
        pool.remove(found)
        out.append(found)
    return out


def check_loss(run: Run, chosen: list[str]) -> list[Piece]:
    """A ``lose`` answer: exactly as many units as the hits, of the side hit (I6)."""
    due = run.pos.due
    b = battle(run)
    units = eligible(run, b, str(due.data["whose"]))
    n = int(due.data["hits"])
    if len(chosen) != n:
        raise RuleViolation(due.rule[0], f"{n} hit(s): name exactly {n} unit(s), not "
                                         f"{len(chosen)}")
    return pick(run, units, chosen, str(due.side))


def take_losses(run: Run, whose: str, lost: list[Piece], mode: str, step: str) -> None:
    """The units hit: to CASUALTIES (the defender's, land 3)), or removed at once (the
    attacker's, land 4); the submarines' first strike, sea 3))."""
    b = battle(run)
    rule = step_rule(b["kind"], step)
    who = chooser(b, whose, run.power)
    what = units_text(p.unit for p in lost)
    if mode == "casualty":
        b["casualties"] = [*b["casualties"], *(p.id for p in lost)]
        save(run, b)
        run.say(f"{who} places {what} in CASUALTIES (they still fire this round)", rule)
        return
    run.say(f"{who} loses {what}", rule)
    _destroy(run, b, lost)


def _destroy(run: Run, b: dict[str, Any], lost: list[Piece]) -> None:
    """Units destroyed, with the cargo of a transport (and an ally's fighters carried on an
    attacking carrier) going down with it."""
    if not lost:
        return
    gone = list(lost)
    afloat = []
    for holder in lost:
        for c in cargo_of(run.pos, holder):
            if not takes_part(run.game, c, run.power) or domain(run.game, c.unit) == "land":
                gone.append(c)
            elif c not in lost:
                afloat.append(evolve_piece(c, props={"aboard": None}))  # a fighter in the air
    run.put(afloat)
    drowned = [p for p in gone if p not in lost]
    if drowned:
        run.say(f"{units_text(p.unit for p in drowned)} go down aboard", "③ combat")
    ids = {p.id for p in gone}
    b = battle(run)
    for key in ("attackers", "defenders", "casualties"):
        b[key] = [i for i in b[key] if i not in ids]
    save(run, b)
    run.pos = remove_pieces(run.pos, gone)


def _remove_casualties(run: Run, b: dict[str, Any]) -> None:
    """land 5), sea 6): the units in CASUALTIES are removed."""
    lost = pieces_of(run, b["casualties"])
    if lost:
        run.say(f"the casualties leave the board: {units_text(p.unit for p in lost)}",
                step_rule(b["kind"], "remove"))
    _destroy(run, b, lost)


def set_order(run: Run, order: list[str]) -> None:
    """An order of loss for the rest of the battle (the chooser's), applied at once."""
    due = run.pos.due
    b = battle(run)
    b["orders"] = {**b["orders"], str(due.side): order}
    save(run, b)
    run.say(f"{due.side} gives the order of loss {', '.join(order)} for this battle",
            due.rule[0])


# --- submarine withdrawal ------------------------------------------------------------------


def subs(run: Run, b: dict[str, Any], whose: str) -> list[Piece]:
    units = attackers(run, b) if whose == "attacker" else defenders(run, b)
    return [p for p in units if has_tag(run.game, p.unit, "first-strike")]


def withdraw_to(run: Run, b: dict[str, Any], whose: str) -> list[str]:
    """Where the side's submarines may go (sea 7), I10): the attacker's to the sea zone
    each entered from; the defender's to a next sea zone free of the attacker's units."""
    space = b["space"]
    if whose == "attacker":
        return sorted({str(p.props.get("from")) for p in subs(run, b, whose)
                       if p.props.get("from") in sea_adj(run.game)[space]
                       and not has_enemy(run.game, run.pos, str(p.props.get("from")),
                                         run.power)})
    out = []
    for zone in sea_adj(run.game)[space]:
        try:
            sub_withdrawal(run.game, "defender", space, zone,
                           enemy_zones=[zone] if _attacker_units_in(run, zone) else [])
        except RuleViolation:
            continue
        out.append(zone)
    return out


def _attacker_units_in(run: Run, zone: str) -> bool:
    return any(p.unit != "factory" and not enemies(run.game, p.side, run.power)
               for p in at(run.pos, zone))


def _ask_withdraw(run: Run, b: dict[str, Any], whose: str) -> bool:
    if not attackers(run, b) or not defenders(run, b):
        return False
    if not subs(run, b, whose) or not withdraw_to(run, b, whose):
        return False
    side = chooser(b, whose, run.power)
    run.due("withdraw", side, ("sea 7)",), space=b["space"], whose=whose)
    return True


def withdraw(run: Run, count: int, to: str | None) -> None:
    """``count`` submarines leave the battle (sea 7))."""
    due = run.pos.due
    b = battle(run)
    whose = str(due.data["whose"])
    mine = subs(run, b, whose)
    if count > len(mine):
        raise RuleViolation("sea 7)", f"{len(mine)} submarine(s) in the battle, not {count}")
    moved = []
    if whose == "attacker":
        if to is not None:
            raise BadInput("an attacking submarine goes back where it came from: give no zone")
        chosen = sorted(mine, key=lambda p: p.id)[:count]
        for p in chosen:
            zone = sub_withdrawal(run.game, "attacker", b["space"], str(p.props.get("from")),
                                  entered_from=str(p.props.get("from")))
            if has_enemy(run.game, run.pos, zone, run.power):
                raise RuleViolation("sea 7)", f"{zone} holds enemy units now")
            moved.append(evolve_piece(p, place=zone, add=["retreated"]))
    else:
        if to is None:
            raise BadInput("withdraw: give the sea zone the defending submarines go to")
        sub_withdrawal(run.game, "defender", b["space"], to,
                       enemy_zones=[to] if _attacker_units_in(run, to) else [])
        chosen = sorted(mine, key=lambda p: (p.side != due.side, p.id))[:count]
        moved = [evolve_piece(p, place=to) for p in chosen]
    ids = {p.id for p in moved}
    key = "attackers" if whose == "attacker" else "defenders"
    b[key] = [i for i in b[key] if i not in ids]
    save(run, b)
    run.put(moved)
    where = to or ", ".join(sorted({str(p.place) for p in moved}))
    run.say(f"{due.side}: {len(moved)} submarine(s) withdraw from {b['space']} to {where}",
            "sea 7)")


# --- retreat ---------------------------------------------------------------------------


def retreat_to(run: Run, b: dict[str, Any]) -> list[str] | None:
    """Where the attacker may retreat (E14): None when it may not; [] when only aircraft
    are left (they leave the battle and land in ④); else the adjacent spaces its land (or
    sea) units entered from, friendly and free of enemy units now."""
    game = run.game
    if not flag(game, "attacker-may-retreat"):
        return None
    moving = [p for p in attackers(run, b) if domain(game, p.unit) != "air"]
    if any("amphibious" in p.flags for p in moving):
        return None
    if not moving:
        return []
    space = b["space"]
    adj = land_adj(game)[space] if b["kind"] == "land" else sea_adj(game)[space]
    out = set()
    for p in moving:
        zone = p.props.get("from")
        if zone not in adj or has_enemy(game, run.pos, str(zone), run.power):
            continue
        if b["kind"] == "land" and not friendly_land(game, run.pos, str(zone), run.power):
            continue
        out.add(str(zone))
    return sorted(out) or None


def _ask_retreat(run: Run, b: dict[str, Any]) -> bool:
    run.due("retreat", run.power, RETREAT_RULES, space=b["space"])
    return True


def retreat(run: Run, to: str | None) -> None:
    """The attacker retreats (land 6), sea 8), E14): its land and sea units to ``to``, its
    aircraft out of the battle (they land in ④); the battle ends."""
    b = battle(run)
    where = retreat_to(run, b)
    if where is None:
        raise RuleViolation("E14", "the attacker cannot retreat from this battle: units that "
                                   "came ashore from transports cannot, and the others need a "
                                   "friendly space they entered from")
    if where and to not in where:
        raise RuleViolation("E14", f"retreat to one of {', '.join(where)} (a space the "
                                   f"attackers entered from), not {to}")
    if not where and to is not None:
        raise RuleViolation("E14", "only aircraft are left: they leave the battle and land in "
                                   "④; give no space")
    moved = []
    for p in attackers(run, b):
        if domain(run.game, p.unit) == "air":
            continue
        moved.append(evolve_piece(p, place=to, add=["retreated"]))
        moved += [evolve_piece(c, place=to) for c in cargo_of(run.pos, p)]
    run.put(moved)
    b["retreated"] = True
    save(run, b)
    run.say(f"{run.power} retreats from {b['space']}" + (f" to {to}" if to else "")
            + (": its aircraft leave the battle and land in ④" if any(
                domain(run.game, p.unit) == "air" for p in attackers(run, b)) else ""),
            *RETREAT_RULES)


# --- the end -------------------------------------------------------------------------------


def finish(run: Run) -> None:
    """The battle is over: who holds the field, the territory taken (a land unit left),
    defending fighters without a carrier lost (constant carrier-sunk-fighters)."""
    game = run.game
    b = battle(run)
    space = b["space"]
    att, dfn = attackers(run, b), defenders(run, b)
    if b.get("retreated"):
        result = "the attacker retreated"
    elif not att and not dfn:
        result = "both sides are destroyed"
    elif not dfn:
        result = f"{run.power} wins"
    elif not att:
        result = "the defender holds"
    else:
        result = "neither side can hit: the battle ends"
    run.say(f"battle in {space} over: {result}", "③ combat", step_rule(b["kind"], "retreat"))
    if b["kind"] == "land" and not dfn and not b.get("retreated") and any(
            domain(game, p.unit) == "land" for p in att):
        capture(run, space, "battle")
    if b["kind"] == "sea":
        run.pos = board_carriers(game, run.pos, [space])
        homeless = [p for p in at(run.pos, space) if domain(game, p.unit) == "air"
                    and enemies(game, p.side, run.power) and not p.props.get("aboard")]
        if homeless:
            run.say(f"{units_text(p.unit for p in homeless)} of the defender have no carrier "
                    "left and are lost (constant carrier-sunk-fighters, assumed)", "③ combat")
            run.pos = remove_pieces(run.pos, homeless)
    left_over = [s for s in run.data("battles") or () if s != space]
    run.set(battle=None, battles=left_over)


def cost(game: Game, unit_type: str) -> int:
    return int(unit_row(game, unit_type)["cost"])


def coast_of(game: Game, space: str) -> tuple[str, ...]:
    return coast_adj(game)[space]

"""Combat played, not only looked up (docs/playing.md, "Combat").

A battle is declared against one hex of enemy units by units of the acting side next to
it, each attacker and each defending hex once a phase. Its odds (or difference) come from
the CRT form of ``play.combat.table`` exactly as ``warpress lookup GAME combat`` works them
out (engine/combat.py), with the conditions in force and supply as multipliers and the
terrain effects that help only one side's defenders (``terrain[].side``). The die gives a
result code, and ``play.combat.results`` says what the code does, effect by effect: step
losses (the owner picks the unit), elimination, retreats (the path chosen by the owner, or
by the enemy, as ``play.retreat.chooser`` says; a unit that cannot retreat is
eliminated), exchanges (the attacker loses as many steps, or at least as much printed
strength, as the defender lost), then advance after combat into the emptied hex. Where a
player must choose, the position holds a :class:`~warpress.engine.position.Pending`
decision and the session lists its legal answers.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from itertools import combinations
from typing import Any

from ..combat import Column, Fighter, Tally, meaning, result_of, tally_column, tally_fighters
from ..errors import BadInput, RuleViolation
from ..model import CombatForm, CombatRules, FrozenDict, Game, PlayRules, ResultEffect, Table
from ..position import Pending, Piece, Position, thaw
from ..records import evolve
from .context import Context
from .control import take_control
from .pieces import (
    enemies,
    full_steps,
    printed_strength,
    reduced,
    room,
    unit_of,
)
from .sequence import in_force
from .supply import out_of_supply
from .zoc import enemy_hexes, enemy_zoc, friendly_hexes

#: how many hexes past its length a retreat may go to find room (``overstack: extend``)
EXTEND = 3
#: at most this many attacker groups are listed for one hex (an agent's choices)
MAX_GROUPS = 64


def play_of(game: Game) -> PlayRules:
    """The game's ``play`` rules (the hex-and-counter rules play only a game that has them)."""
    if game.play is None:
        raise BadInput(f"game {game.id!r} has no play rules")
    return game.play


def crt_of(table: Table) -> CombatForm:
    """The combat results table's grid of the game's ``play.combat`` table."""
    if table.crt is None:
        raise BadInput(f"table {table.id!r} is no combat results table (it has no crt)")
    return table.crt


def current_battle(position: Position) -> dict[str, Any]:
    """The battle whose loss, retreat or advance is due."""
    battle = battle_of(position)
    if battle is None:
        raise BadInput("no battle is being resolved")
    return battle


def rules_of(game: Game) -> CombatRules:
    combat = game.play.combat if game.play else None
    if combat is None:
        raise BadInput(f"game {game.id!r} has no play.combat rules")
    return combat


def combat_rule(game: Game) -> str:
    combat = rules_of(game)
    table = game.table(combat.table)
    rules = combat.rule or table.rule
    return rules[0] if rules else "combat"


def _retreat_rule(game: Game) -> str:
    rules = game.play.retreat.rule if game.play else ()
    return rules[0] if rules else combat_rule(game)


def _advance_rule(game: Game) -> str:
    advance = game.play.advance if game.play else None
    return advance.rule[0] if advance is not None and advance.rule else combat_rule(game)


# --- declaring -------------------------------------------------------------------------------


def attackable(ctx: Context, position: Position, side: str | None
               ) -> dict[str, list[Piece]]:
    """Enemy hexes not yet attacked this phase -> the acting side's pieces next to them that
    may still attack."""
    board, game = ctx.board, ctx.game
    done = set(position.data.get("attacked") or ())
    declared = {b["hex"] for b in position.data.get("battles") or ()}
    foes = enemies(game, side)
    targets: dict[str, list[Piece]] = {}
    for piece in position.pieces:
        if piece.side != side or piece.kind != "hex" or "attacked" in piece.flags:
            continue
        here = board.of(piece)
        for n in board.neighbours[here]:
            name = board.names[n]
            if name in done or name in declared:
                continue
            defenders = position.in_hex(name)
            if defenders and defenders[0].side in foes:
                targets.setdefault(name, []).append(piece)
    return dict(sorted(targets.items()))


def groups(attackers: list[Piece]) -> list[tuple[Piece, ...]]:
    """The attacker groups an agent may choose from for one hex: every non-empty subset,
    largest first, at most ``MAX_GROUPS``."""
    out: list[tuple[Piece, ...]] = []
    for size in range(len(attackers), 0, -1):
        for group in combinations(attackers, size):
            out.append(group)
            if len(out) >= MAX_GROUPS:
                return out
    return out


def declare(ctx: Context, position: Position, hex_id: str, unit_ids: list[str]) -> dict[str, Any]:
    """Check a battle's declaration; its record (``hex``, ``attackers``, ``from``)."""
    game, board = ctx.game, ctx.board
    rule = combat_rule(game)
    side = position.side
    target = board.hex(hex_id, "attack hex")
    defenders = position.in_hex(hex_id)
    if not defenders or defenders[0].side not in enemies(game, side):
        raise RuleViolation(rule, f"{hex_id} holds no enemy unit to attack")
    if hex_id in (position.data.get("attacked") or ()) or hex_id in {
            b["hex"] for b in position.data.get("battles") or ()}:
        raise RuleViolation(rule, f"{hex_id} has been attacked this phase: each defending "
                                  f"hex once")
    if not unit_ids:
        raise BadInput("attack names no attacking unit (piece ids, comma-separated)")
    attackers: list[Piece] = []
    for unit_id in unit_ids:
        piece = position.piece(unit_id)
        if piece.side != side:
            raise RuleViolation(rule, f"{unit_id} is not a unit of {side}, the side attacking")
        if piece.kind != "hex":
            raise RuleViolation(rule, f"{unit_id} is not on the map")
        if target not in board.neighbours[board.of(piece)]:
            raise RuleViolation(rule, f"{unit_id} in {piece.place} is not next to {hex_id}")
        if "attacked" in piece.flags or unit_id in {a for b in position.data.get("battles")
                                                    or () for a in b["attackers"]}:
            raise RuleViolation(rule, f"{unit_id} has attacked this phase: each attacker once")
        if unit_id in (p.id for p in attackers):
            raise BadInput(f"attacker {unit_id!r} is named twice")
        attackers.append(piece)
    return {"hex": hex_id, "attackers": [p.id for p in attackers],
            "from": {p.id: p.place for p in attackers}}


def mark_declared(position: Position, battle: dict[str, Any]) -> Position:
    """The attackers flagged as having attacked, the hex as attacked this phase."""
    changed = [position.piece(a).flagged("attacked") for a in battle["attackers"]]
    attacked = tuple(position.data.get("attacked") or ()) + (battle["hex"],)
    return position.with_pieces(changed).with_data(attacked=list(attacked))


# --- resolving ------------------------------------------------------------------------------


def _times(ctx: Context, position: Position, piece: Piece, what: str
           ) -> tuple[tuple[Fraction, str, tuple[str, ...]], ...]:
    """The multipliers on a piece's attack or defence: conditions in force, out of supply."""
    out = []
    for condition in in_force(ctx.game, position, piece.side):
        value = getattr(condition, what)
        if value is not None:
            out.append((Fraction(str(value)), condition.name or condition.id, condition.rule))
    supply = ctx.game.play.supply if ctx.game.play else None
    effect = getattr(supply.effects, what) if supply is not None else None
    if supply is not None and effect is not None and out_of_supply(ctx.game, position, piece):
        out.append((Fraction(str(effect)), "out of supply", supply.rule))
    return tuple(out)


def fighters(ctx: Context, position: Position, battle: dict[str, Any]) -> tuple[list[Fighter],
                                                                       list[Fighter]]:
    game = ctx.game
    attackers = [Fighter(unit_of(game, p), battle["from"].get(p.id, p.place), reduced(game, p),
                         p.id, _times(ctx, position, p, "attack"))
                 for p in (position.piece(a) for a in battle["attackers"])]
    defenders = [Fighter(unit_of(game, p), None, reduced(game, p), p.id,
                         _times(ctx, position, p, "defence"))
                 for p in position.in_hex(battle["hex"])]
    return attackers, defenders


def odds_of(ctx: Context, position: Position, battle: dict[str, Any]
            ) -> tuple[Tally, Column, dict[str, Any]]:
    """``(tally, column, extra)`` of a declared battle."""
    game = ctx.game
    table = game.table(rules_of(game).table)
    attackers, defenders = fighters(ctx, position, battle)
    return tally_column(crt_of(table), *tally_fighters(game, table, attackers, defenders,
                                                   battle["hex"]))


def resolve(ctx: Context, position: Position, battle: dict[str, Any]) -> Position:
    """Roll the battle and apply its result (effects that need a decision wait for it)."""
    game = ctx.game
    combat = rules_of(game)
    table = game.table(combat.table)
    t, column, _extra = odds_of(ctx, position, battle)
    code, roll = result_of(table, column, ctx.dice)
    lines = [*t.lines, *column.notes]
    if roll is not None:
        lines.append(f"roll {roll}: {code}")
    rules = tuple(dict.fromkeys(t.rules or ()))
    attackers = ", ".join(battle["attackers"])
    ctx.say(position, f"attack on {battle['hex']} by {attackers}: {code} "
                      f"({meaning(crt_of(table), code)}); " + "; ".join(lines), rules,
            result=code, roll=roll, hex=battle["hex"])
    defenders = position.in_hex(battle["hex"])
    effects = [_effect_json(e) for e in combat.results.get(code, ())]
    record = {**battle, "defenders": [p.id for p in defenders],
              "enemy": defenders[0].side if defenders else None, "code": code,
              "effects": effects,
              "lost": {"attacker": "0", "defender": "0"}, "retreated": [],
              "side": position.side, "advance": False}
    return carry_on(ctx, position.with_data(battle=record))


def _effect_json(effect: ResultEffect) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in ("lose", "eliminate", "retreat", "exchange"):
        value = getattr(effect, key)
        if value is not None:
            out[key] = value
    out.update(steps=effect.steps, each=effect.each, hexes=effect.hexes)
    return out


def battle_of(position: Position) -> dict[str, Any] | None:
    battle = position.data.get("battle")
    return thaw(battle) if battle else None


def _set(position: Position, battle: dict[str, Any] | None) -> Position:
    return position.with_data(battle=battle)


def carry_on(ctx: Context, position: Position) -> Position:
    """Apply the battle's remaining effects until one needs a decision or none is left;
    then advance after combat; then the battle is over."""
    while not position.pending:
        battle = battle_of(position)
        if battle is None:
            return position
        if battle["effects"]:
            effect, battle["effects"] = battle["effects"][0], battle["effects"][1:]
            position = _effect(ctx, _set(position, battle), battle, effect)
            continue
        if not battle["advance"]:
            battle["advance"] = True
            position = _offer_advance(ctx, _set(position, battle), battle)
            continue
        position = _set(position, None)
    return position


def _side_of(battle: dict[str, Any], role: str) -> str | None:
    return battle["side"] if role == "attacker" else battle.get("enemy")


def _alive(position: Position, ids: Iterable[str]) -> list[Piece]:
    return [p for p in (position.piece(i) for i in ids) if p.kind == "hex"]


def role_pieces(position: Position, battle: dict[str, Any], role: str) -> list[Piece]:
    return _alive(position, battle["attackers"] if role == "attacker" else battle["defenders"])


def _effect(ctx: Context, position: Position, battle: dict[str, Any],
            effect: dict[str, Any]) -> Position:
    if "eliminate" in effect:
        for piece in role_pieces(position, battle, effect["eliminate"]):
            position = eliminate(ctx, position, piece, combat_rule(ctx.game))
        return position
    if "lose" in effect:
        role = effect["lose"]
        if effect.get("each"):
            for piece in role_pieces(position, battle, role):
                for _ in range(effect["steps"]):
                    position = lose_step(ctx, position, position.piece(piece.id), battle, role)
            return position
        return ask_loss(ctx, position, battle, role, steps=effect["steps"])
    if "exchange" in effect:
        return _exchange(ctx, position, battle, effect)
    if "exchange_attacker" in effect:
        need = Fraction(battle["lost"]["defender"]) - Fraction(battle["lost"]["attacker"])
        if need > 0:
            return ask_loss(ctx, position, battle, "attacker", strength=need)
        return position
    if "retreat" in effect:
        return _retreats(ctx, position, battle, effect["retreat"], effect["hexes"])
    if "retreat_one" in effect:
        return retreat_one(ctx, position, battle, effect["retreat_one"], effect["hexes"],
                           effect["role"])
    return position


def _exchange(ctx: Context, position: Position, battle: dict[str, Any],
              effect: dict[str, Any]) -> Position:
    steps = effect["steps"]
    if effect["exchange"] == "steps":
        follow = [{"lose": "attacker", "steps": steps, "each": False, "hexes": 1}]
    else:
        follow = [{"exchange_attacker": True}]
    battle["effects"] = follow + battle["effects"]
    position = _set(position, battle)
    return ask_loss(ctx, position, battle, "defender", steps=steps)


def ask_loss(ctx: Context, position: Position, battle: dict[str, Any], role: str, steps: int = 0,
             strength: Fraction | None = None) -> Position:
    """Take ``steps`` losses (or at least ``strength`` printed strength) from the role's
    units: at once when there is no choice, else a decision for their owner."""
    while True:
        units = role_pieces(position, battle, role)
        if not units or (strength is None and steps <= 0) or (strength is not None
                                                              and strength <= 0):
            return position
        if len(units) > 1 and not _all_go(ctx.game, units, steps, strength, role):
            owner = units[0].side
            data = {"role": role, "units": [p.id for p in units], "steps": steps,
                    "strength": str(strength) if strength is not None else None}
            pending = Pending("loss", owner, (combat_rule(ctx.game),), FrozenDict(data))
            return evolve(position, pending=(pending, *position.pending), side=owner)
        piece = units[0]
        before = _strength_lost(ctx.game, piece, role)
        position = lose_step(ctx, position, piece, battle, role)
        if strength is not None:
            strength -= before
        else:
            steps -= 1
        battle = battle_of(position) or battle


def _all_go(game: Game, units: list[Piece], steps: int, strength: Fraction | None,
            role: str) -> bool:
    """Whether every step of every unit goes anyway (no choice to make)."""
    if strength is None:
        return sum(p.step for p in units) <= steps
    stat = _stat_name(game, role)
    return sum(printed_strength(game, p, stat) for p in units) <= strength


def _stat_name(game: Game, role: str) -> str:
    form = crt_of(game.table(rules_of(game).table))
    return form.attack if role == "attacker" else form.defence


def _strength_lost(game: Game, piece: Piece, role: str) -> Fraction:
    """Printed strength the piece loses with its next step."""
    stat = _stat_name(game, role)
    return printed_strength(game, piece, stat) - printed_strength(game, piece, stat,
                                                                  piece.step - 1)


def lose_step(ctx: Context, position: Position, piece: Piece, battle: dict[str, Any] | None,
              role: str | None) -> Position:
    """``piece`` loses one step (eliminated at none); the battle records the printed
    strength lost."""
    if battle is not None and role is not None:
        lost = _strength_lost(ctx.game, piece, role)
        battle = battle_of(position) or battle
        battle["lost"][role] = str(Fraction(battle["lost"][role]) + lost)
        position = _set(position, battle)
    if piece.step <= 1:
        return eliminate(ctx, position, piece, combat_rule(ctx.game))
    ctx.say(position, f"{piece.id} loses a step ({piece.step - 1} of "
                      f"{full_steps(unit_of(ctx.game, piece))} left)",
            (combat_rule(ctx.game),))
    return position.with_piece(evolve(piece, step=piece.step - 1))


def eliminate(ctx: Context, position: Position, piece: Piece, rule: str) -> Position:
    ctx.say(position, f"{piece.id} is eliminated", (rule,))
    gone = evolve(piece, kind="eliminated", place=None, step=0,
                   flags=frozenset(), props=FrozenDict())
    return position.with_piece(gone)


def answer_loss(ctx: Context, position: Position, unit_id: str) -> Position:
    """The owner's answer to a loss decision: ``unit_id`` loses a step."""
    due = position.pending[0]
    data = due.data
    if unit_id not in data["units"]:
        raise RuleViolation(combat_rule(ctx.game), f"{unit_id} is not one of the units that "
                                                   f"take the loss ({', '.join(data['units'])})")
    battle = current_battle(position)
    role = data["role"]
    piece = position.piece(unit_id)
    lost = _strength_lost(ctx.game, piece, role)
    position = evolve(position, pending=position.pending[1:])
    position = lose_step(ctx, position, piece, battle, role)
    battle = battle_of(position) or battle
    if data["strength"] is not None:
        return ask_loss(ctx, position, battle, role, strength=Fraction(data["strength"]) - lost)
    return ask_loss(ctx, position, battle, role, steps=data["steps"] - 1)


# --- retreat ---------------------------------------------------------------------------------


def _retreats(ctx: Context, position: Position, battle: dict[str, Any], role: str,
              hexes: int) -> Position:
    """Queue a retreat for every unit of the role still in the battle (one at a time)."""
    todo = [p.id for p in role_pieces(position, battle, role)
            if p.id not in battle["retreated"]]
    if not todo:
        return position
    battle["effects"] = [{"retreat_one": u, "hexes": hexes, "role": role} for u in todo[1:]] \
        + battle["effects"]
    return retreat_one(ctx, _set(position, battle), battle, todo[0], hexes, role)


def retreat_one(ctx: Context, position: Position, battle: dict[str, Any], unit_id: str, hexes: int,
                role: str) -> Position:
    piece = position.piece(unit_id)
    if piece.kind != "hex":
        return position
    paths = retreat_paths(ctx, position, piece, hexes)
    rule = _retreat_rule(ctx.game)
    if not paths:
        ctx.say(position, f"{unit_id} cannot retreat from {piece.place}", (rule,))
        return eliminate(ctx, position, piece, rule)
    if len(paths) == 1:
        return do_retreat(ctx, position, piece, paths[0], battle)
    chooser = piece.side
    if play_of(ctx.game).retreat.chooser == "enemy":
        chooser = battle["side"] if role == "defender" else battle.get("enemy")
    pending = Pending("retreat", chooser, (rule,), FrozenDict(
        {"unit": unit_id, "hexes": hexes, "role": role}))
    return evolve(position, pending=(pending, *position.pending), side=chooser)


def retreat_paths(ctx: Context, position: Position, piece: Piece,
                  hexes: int) -> list[tuple[int, ...]]:
    """Every legal retreat path of ``piece`` (hex numbers, its hex left out), each hex one
    farther from where it starts; in hex order."""
    game, board = ctx.game, ctx.board
    rules = play_of(game).retreat
    origin = board.of(piece)
    blocked: set[int] = set()
    if "enemy-units" in rules.blocked:
        blocked |= enemy_hexes(game, position, piece.side)
    if "enemy-zoc" in rules.blocked:
        zoc = enemy_zoc(game, position, piece.side)
        if rules.friendly_negates_zoc:
            zoc = zoc - friendly_hexes(game, position, piece.side)
        blocked |= zoc
    prohibited = "prohibited" in rules.blocked
    longest = hexes + (EXTEND if rules.overstack == "extend" else 0)
    out: list[tuple[int, ...]] = []

    def open_(a: int, b: int) -> bool:
        if b in blocked:
            return False
        return not prohibited or board.step_cost(a, b) is not None

    def walk(path: tuple[int, ...], here: int) -> None:
        for n in board.neighbours[here]:
            if board.distance(origin, n) != len(path) + 1 or not open_(here, n):
                continue
            step = (*path, n)
            if len(step) >= hexes:
                fits = room(board, position, n, piece)
                if fits or rules.overstack == "allowed":
                    out.append(step)
                    continue
                if rules.overstack == "eliminate" or len(step) >= longest:
                    continue
            walk(step, n)

    walk((), origin)
    return out


def do_retreat(ctx: Context, position: Position, piece: Piece, path: tuple[int, ...],
               battle: dict[str, Any] | None) -> Position:
    board = ctx.board
    names = [board.names[h] for h in path]
    ctx.say(position, f"{piece.id} retreats {piece.place} -> {' -> '.join(names)}",
            (_retreat_rule(ctx.game),))
    position = position.with_piece(piece.at("hex", names[-1]))
    position = take_control(ctx, position, piece.side, names)
    if battle is not None:
        battle = battle_of(position) or battle
        battle["retreated"] = [*battle["retreated"], piece.id]
        position = _set(position, battle)
    return position


def answer_retreat(ctx: Context, position: Position, unit_id: str, path_text: str) -> Position:
    due = position.pending[0]
    if unit_id != due.data["unit"]:
        raise RuleViolation(_retreat_rule(ctx.game), f"the retreat due is {due.data['unit']}'s, "
                                                     f"not {unit_id}'s")
    piece = position.piece(unit_id)
    paths = retreat_paths(ctx, position, piece, due.data["hexes"])
    wanted = [ctx.board.hex(h.strip(), "retreat path hex") for h in path_text.split(",")
              if h.strip()]
    if not wanted:
        raise BadInput("retreat names no hex (the path, comma-separated, or its last hex)")
    chosen = next((p for p in paths if list(p) == wanted), None)
    if chosen is None and len(wanted) == 1:
        chosen = next((p for p in paths if p[-1] == wanted[0]), None)
    if chosen is None:
        legal = "; ".join(",".join(ctx.board.names[h] for h in p) for p in paths[:8])
        raise RuleViolation(_retreat_rule(ctx.game), f"{unit_id} may not retreat along "
                                                     f"{path_text}: legal paths {legal}")
    position = evolve(position, pending=position.pending[1:])
    return do_retreat(ctx, position, piece, chosen, battle_of(position))


# --- advance after combat --------------------------------------------------------------------


def _offer_advance(ctx: Context, position: Position, battle: dict[str, Any]) -> Position:
    advance = play_of(ctx.game).advance
    if advance is None or position.in_hex(battle["hex"]):
        return position
    units = _advancers(ctx, position, battle)
    if not units:
        return position
    left = advance.units if advance.units is not None else len(units)
    pending = Pending("advance", battle["side"], (_advance_rule(ctx.game),), FrozenDict(
        {"hex": battle["hex"], "left": left, "hexes": advance.hexes}))
    return evolve(position, pending=(pending, *position.pending), side=battle["side"])


def _advancers(ctx: Context, position: Position, battle: dict[str, Any]) -> list[Piece]:
    target = ctx.board.index[battle["hex"]]
    out = []
    for piece in role_pieces(position, battle, "attacker"):
        if piece.id in battle["retreated"] or "advanced" in piece.flags:
            continue
        here = ctx.board.of(piece)
        if target in ctx.board.neighbours[here] and room(ctx.board, position, target, piece):
            out.append(piece)
    return out


def advance_options(ctx: Context, position: Position) -> list[Piece]:
    battle = battle_of(position)
    return _advancers(ctx, position, battle) if battle else []


def answer_advance(ctx: Context, position: Position, unit_id: str,
                   path_text: str | None) -> Position:
    due = position.pending[0]
    rule = _advance_rule(ctx.game)
    battle = current_battle(position)
    allowed = {p.id for p in _advancers(ctx, position, battle)}
    if unit_id not in allowed:
        raise RuleViolation(rule, f"{unit_id} may not advance into {due.data['hex']} (may: "
                                  f"{', '.join(sorted(allowed)) or 'none'})")
    board = ctx.board
    path = [due.data["hex"]]
    if path_text:
        path = [h.strip() for h in path_text.split(",") if h.strip()]
        if not path or path[0] != due.data["hex"]:
            raise RuleViolation(rule, f"an advance goes first into {due.data['hex']}, the "
                                      f"emptied hex")
        if len(path) > due.data["hexes"]:
            raise RuleViolation(rule, f"an advance goes at most {due.data['hexes']} hexes")
        foes = enemy_hexes(ctx.game, position, position.piece(unit_id).side)
        for a, b in zip(path, path[1:], strict=False):
            ia, ib = board.hex(a, "advance hex"), board.hex(b, "advance hex")
            if ib not in board.neighbours[ia] or ib in foes or board.step_cost(ia, ib) is None:
                raise RuleViolation(rule, f"{a} to {b} is no step an advance may take")
    piece = position.piece(unit_id)
    ctx.say(position, f"{unit_id} advances {piece.place} -> {' -> '.join(path)}", (rule,))
    position = position.with_piece(piece.at("hex", path[-1]).flagged("advanced"))
    position = take_control(ctx, position, piece.side, path)
    left = due.data["left"] - 1
    rest = position.pending[1:]
    if left > 0 and _advancers(ctx, position, battle):
        again = Pending("advance", due.side, due.rule, FrozenDict({**due.data, "left": left}))
        return evolve(position, pending=(again, *rest))
    return evolve(position, pending=rest)


def decline(position: Position) -> Position:
    """``pass`` on an advance: the attacker advances no (more) units."""
    return evolve(position, pending=position.pending[1:])

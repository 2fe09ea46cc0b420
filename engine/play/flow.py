"""The turn and phase machine: entering and ending phases, the automatic phases, the end
of the turn and of the game (docs/playing.md, "Sequence of play").

A phase is entered (its side acts; the flags of the last phase are cleared), its
automatic work is done (a ``roll`` phase rolls its table, a ``supply`` phase traces every
unit's supply, a ``replacements`` phase gives the points, a ``reinforcements`` phase
lists the arrivals) and, when the acting side has nothing it could do, it ends by itself.
Ending a phase checks stacking when ``play.stacking.when`` is ``end-of-phase``, and for
``do: combat`` with ``mandatory`` that every attack owed was made; then victory
(``at: phase-end``), and the next phase. After a turn's last phase: victory (``at:
turn-end``), the next turn (the turn track moves), or at the last the game's verdict.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..errors import RuleViolation
from ..model import FrozenDict, Game, Phase
from ..position import Pending, Piece, Position, Verdict
from ..records import evolve
from ..tables import lookup_row
from .arrivals import (
    arrive_in_pools,
    arriving,
    delay_rest,
    end_points,
    points_left,
    rebuildable,
    restorable,
    start_points,
    unplaced,
)
from .combat import attackable, combat_rule, eliminate, rules_of
from .context import Context
from .movement import reach
from .pieces import matches, overstacked, stacking_rule
from .sequence import phase, phases, plays_on, turns
from .supply import in_supply
from .victory import check
from .zoc import enemy_hexes, enemy_zoc

#: flags that last one phase
PHASE_FLAGS = frozenset({"moved", "attacked", "advanced", "rebuilt", "replaced"})


def current(ctx: Context, position: Position) -> Phase:
    return phase(ctx.game, position.phase)


def acting(ctx: Context, p: Phase) -> str | None:
    """The side acting in phase ``p`` (None: nobody, the phase runs by itself)."""
    sides = {s.id for s in ctx.game.info.sides}
    return p.who if p.who in sides else None


def start(ctx: Context, position: Position) -> Position:
    """The first phase of the first turn, settled."""
    position = arrive_in_pools(ctx, position)
    first = _next_on(ctx, position.turn, -1)
    if first is None:
        return _end_turn(ctx, position)
    return settle(ctx, enter(ctx, position, first))


def _next_on(ctx: Context, turn: int, after: int) -> Phase | None:
    """The first phase after index ``after`` that plays on ``turn``."""
    ordered = phases(ctx.game)
    for p in ordered[after + 1:]:
        if plays_on(p, turn):
            return p
    return None


def enter(ctx: Context, position: Position, p: Phase) -> Position:
    """Enter phase ``p``: its side acts, the last phase's flags go, its automatic work."""
    cleared = [pc for pc in position.pieces if pc.flags & PHASE_FLAGS]
    position = position.with_pieces(pc.flagged(drop=PHASE_FLAGS) for pc in cleared)
    data = {k: v for k, v in position.data.items()
            if k not in ("attacked", "battles", "step", "placed", "points")}
    position = evolve(position, phase=p.id, side=acting(ctx, p), data=FrozenDict(data))
    if p.do == "roll":
        return _roll(ctx, position, p)
    if p.do == "supply":
        return _supply(ctx, position, p)
    if p.do == "replacements":
        return start_points(ctx, position, position.side)
    if p.do == "combat" and rules_of(ctx.game).declare == "all":
        return position.with_data(step="declare")
    return position


def _roll(ctx: Context, position: Position, p: Phase) -> Position:
    table = ctx.game.table(p.table or "")
    roll = ctx.dice.roll(table.dice or "d6", "roll")
    row, result = lookup_row(table, roll=roll)
    value = next(iter(result.values()), None) if result else None
    rolled = dict(position.data.get("rolled") or {})
    rolled[table.id] = value
    label = table.labels.get(str(value), str(value)) if table.labels else str(value)
    ctx.say(position, f"{table.name or table.id}: rolled {roll}: {label}",
            tuple(table.rule) or p.rule, table=table.id, roll=roll, result=value)
    return position.with_data(rolled=rolled)


def _supply(ctx: Context, position: Position, p: Phase) -> Position:
    game = ctx.game
    supply = game.play.supply if game.play else None
    if supply is None:
        return position
    side = acting(ctx, p)
    rule = supply.rule or p.rule
    for piece in [pc for pc in position.pieces if pc.kind == "hex"
                  and (side is None or pc.side == side)]:
        piece = position.piece(piece.id)
        if in_supply(game, position, piece):
            if "oos" in piece.flags:
                ctx.say(position, f"{piece.id} is in supply again", rule)
            position = position.with_piece(evolve(piece.flagged(drop=("oos",)),
                                                   props=FrozenDict({k: v for k, v in
                                                                     piece.props.items()
                                                                     if k != "oos"})))
            continue
        count = int(piece.props.get("oos") or 0) + 1
        ctx.say(position, f"{piece.id} in {piece.place} is out of supply"
                          f"{f' ({count} in a row)' if count > 1 else ''}", rule)
        limit = supply.effects.eliminate_after
        if limit is not None and count >= limit:
            position = eliminate(ctx, position, piece, rule[0] if rule else "supply")
            continue
        position = position.with_piece(evolve(piece.flagged("oos"),
                                               props=FrozenDict({**piece.props, "oos": count})))
    return position


def automatic(p: Phase) -> bool:
    return p.do in ("roll", "supply", "none")


def idle(ctx: Context, position: Position, p: Phase) -> bool:
    """Whether the acting side has nothing it could do in the phase now (it ends)."""
    side = position.side
    if automatic(p) or side is None:
        return True
    if p.do in ("move", "rail"):
        return not any(movers(ctx, position, p))
    if p.do == "combat":
        if position.data.get("step") == "resolve":
            return not position.data.get("battles") and not position.data.get("battle")
        return (not attackable(ctx, position, side) and not position.data.get("battles")
                and not position.data.get("battle"))
    if p.do == "replacements":
        return points_left(position) <= 0 or not (restorable(ctx, position, side) or
                                                   rebuildable(ctx, position, side))
    if p.do == "reinforcements":
        return not arriving(ctx, position, side)
    return False


def movers(ctx: Context, position: Position, p: Phase) -> Iterator[Piece]:
    """The pieces that may still move in the phase (a unit a locking zone of control holds
    may not)."""
    board = ctx.board
    locking = ctx.game.play is not None and ctx.game.play.zoc.kind == "locking"
    for piece in position.pieces:
        if (piece.side == position.side and piece.kind == "hex" and "moved" not in piece.flags
                and matches(ctx.game, piece, p.units)):
            here = board.of(piece)
            if p.do == "rail" and (board.rail is None or here not in board.rail.hexes):
                continue
            if locking and here in enemy_zoc(ctx.game, position, piece.side):
                continue
            yield piece


def settle(ctx: Context, position: Position) -> Position:
    """Run on until a decision is due: forced phases end, the game may end."""
    for _ in range(10_000):
        if position.over or position.pending:
            return position
        p = current(ctx, position)
        if not idle(ctx, position, p):
            return position
        if not automatic(p) and position.side is not None:
            ctx.say(position, f"{p.name or p.id}: nothing {position.side} can do", p.rule)
        position = end_phase(ctx, position, forced=True)
    raise RuntimeError("the sequence of play did not come to a decision")


def end_refusal(ctx: Context, position: Position) -> RuleViolation | None:
    """Why the acting side may not ``end`` the phase now (None: it may)."""
    game = ctx.game
    p = current(ctx, position)
    if _stacked_phase(game, p):
        over = overstacked(ctx.board, position, position.side)
        stuck = [h for h, _ in over if not _can_leave(ctx, position, p, h)]
        if over and _overstacking(game) == "refuse" and len(stuck) < len(over):
            hex_id, what = next((h, w) for h, w in over if h not in stuck)
            return RuleViolation(stacking_rule(game), f"{what}: move units out of {hex_id} "
                                                      f"before the phase ends")
    if p.do == "combat":
        return _combat_refusal(ctx, position)
    if p.do == "reinforcements":
        left = unplaced(ctx, position)
        if left:
            rule = next((r.rule[0] for r in game.reinforcements if r.rule), "reinforcements")
            return RuleViolation(rule, f"{', '.join(x.id for x in left)} must enter: "
                                       f"reinforcements with a hex to enter are placed")
    return None


def _overstacking(game: Game) -> str | None:
    """What the stacking rules do with a hex over its limit at a phase's end."""
    stacking = game.play.stacking if game.play else None
    return stacking.overstack if stacking is not None else None


def _stacked_phase(game: Game, p: Phase) -> bool:
    stacking = game.play.stacking if game.play else None
    return (p.do in ("move", "rail", "reinforcements", "replacements") and stacking is not None
            and stacking.when == "end-of-phase")


def _can_leave(ctx: Context, position: Position, p: Phase, hex_id: str) -> bool:
    """Whether a unit in ``hex_id`` may still move out this phase."""
    if p.do not in ("move", "rail"):
        return False
    here = [pc for pc in movers(ctx, position, p) if pc.place == hex_id]
    return any(reach(ctx.game, position, pc, p, p.do == "rail", stacking=False).costs
               for pc in here)


def end_checks(ctx: Context, position: Position, p: Phase) -> Position:
    """What ending the phase requires (RuleViolation)."""
    refusal = end_refusal(ctx, position)
    if refusal is not None:
        raise refusal
    return position


def _overstack(ctx: Context, position: Position, p: Phase) -> Position:
    """An overstack left when the phase ends (no unit could still move out) is the owner's
    to remove, unit by unit."""
    if _stacked_phase(ctx.game, p):
        over = overstacked(ctx.board, position, position.side)
        if over:
            rule = stacking_rule(ctx.game)
            pending = tuple(Pending("overstack", position.side, (rule,),
                                    FrozenDict({"hex": h})) for h, _ in over)
            ctx.say(position, f"{'; '.join(w for _, w in over)}: the owner removes units "
                              f"until each hex fits", (rule,))
            return evolve(position, pending=pending)
    return position


def _combat_refusal(ctx: Context, position: Position) -> RuleViolation | None:
    rule = combat_rule(ctx.game)
    if position.data.get("step") == "resolve" and (position.data.get("battles")
                                                   or position.data.get("battle")):
        return RuleViolation(rule, "declared battles are still to be resolved (resolve HEX)")
    if rules_of(ctx.game).mandatory:
        owed = _owed(ctx, position, position.side)
        if owed:
            return RuleViolation(rule, f"attacks are mandatory: {owed}")
    return None


def _owed(ctx: Context, position: Position, side: str | None) -> str:
    """The first attack a mandatory combat still owes, as text ('' when none): a unit next
    to the enemy that has not attacked, an enemy next to a unit that was not attacked."""
    board = ctx.board
    foes = enemy_hexes(ctx.game, position, side)
    done = set(position.data.get("attacked") or ())
    for piece in position.pieces:
        if piece.side != side or piece.kind != "hex":
            continue
        near = [n for n in board.neighbours[board.of(piece)] if n in foes]
        if near and "attacked" not in piece.flags:
            return (f"{piece.id} in {piece.place} is next to the enemy in "
                    f"{board.names[near[0]]} and has not attacked")
        for n in near:
            if board.names[n] not in done:
                return f"the enemy in {board.names[n]} next to {piece.id} was not attacked"
    return ""


def end_phase(ctx: Context, position: Position, forced: bool = False) -> Position:
    """End the current phase (checks first), then victory, then the next phase or turn."""
    p = current(ctx, position)
    if not forced:
        position = end_checks(ctx, position, p)
    position = _overstack(ctx, position, p)
    if position.pending:
        return position
    if p.do == "combat" and position.data.get("step") == "declare":
        if position.data.get("battles"):
            return position.with_data(step="resolve")
    if p.do == "replacements":
        position = end_points(ctx, position, position.side)
    if p.do == "reinforcements":
        position = delay_rest(ctx, position)
    verdict = check(ctx.game, position, "phase-end")
    if verdict is not None:
        return _over(ctx, position, verdict)
    index = phases(ctx.game).index(p)
    following = _next_on(ctx, position.turn, index)
    if following is None:
        return _end_turn(ctx, position)
    return enter(ctx, position, following)


def _end_turn(ctx: Context, position: Position) -> Position:
    verdict = check(ctx.game, position, "turn-end")
    if verdict is not None:
        return _over(ctx, position, verdict)
    order = turns(ctx.game)
    later = [t for t in order if t > position.turn]
    if not later:
        return _over(ctx, position, check(ctx.game, position, "end", final=True))
    turn = later[0]
    data = {k: v for k, v in position.data.items() if k != "rolled"}
    position = evolve(position, turn=turn, phase=None, data=FrozenDict(data))
    track = ctx.game.play.turns.track if ctx.game.play else None
    if track:
        position = position.with_track(track, turn)
    ctx.say(position, f"turn {turn} begins", ctx.game.play.turns.rule if ctx.game.play else ())
    position = arrive_in_pools(ctx, position)
    first = _next_on(ctx, turn, -1)
    if first is None:
        return _end_turn(ctx, position)
    return enter(ctx, position, first)


def _over(ctx: Context, position: Position, verdict: Verdict) -> Position:
    ctx.say(position, f"game over: {verdict.result}"
                      f"{' for ' + verdict.winner if verdict.winner else ''}: {verdict.reason}",
            verdict.rule)
    return evolve(position, verdict=verdict, side=None, pending=())

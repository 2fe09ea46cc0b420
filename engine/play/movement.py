"""Movement from data: every hex a unit can reach, with its cost and path, and why a move
is refused (docs/playing.md, "Movement").

A unit has the MP of its ``play.movement.allowance`` stat, changed by the phase
(``sequence[].movement``), the conditions in force (mud: ``hexes: 1``; rain: ``minus:
1``) and being out of supply. Entering a hex costs what the terrain effects chart gives
(a feature in the hex replaces the terrain's cost, a hexside adds its own, moving along a
road costs the road's), ``prohibited`` terrain is never entered and ``all`` takes every
MP left. A unit never enters a hex an enemy unit holds; zones of control stop or lock it
as ``play.zoc`` says; stacking is checked as ``play.stacking.when`` says. In a ``do:
rail`` phase a unit that starts on the railway moves only along it.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field

from ..errors import RuleViolation
from ..model import Game, Phase
from ..position import Piece, Position
from .board import ALL_MP, Board, board_of
from .memo import memo_args
from .pieces import matches, room, stacking_rule, stat, unit_of
from .sequence import apply_change, in_force
from .supply import out_of_supply
from .zoc import enemy_hexes, enemy_zoc, friendly_hexes
from .zoc import rules as zoc_rules

#: how far a search may go in hexes when MP are free (a bound, not a rule)
MAX_STEPS = 10_000


@dataclass(frozen=True)
class Allowance:
    """What a unit may spend: ``mp``, at most ``hexes`` hexes (None: no cap), and why."""

    mp: int
    hexes: int | None
    notes: tuple[str, ...]


@dataclass(frozen=True)
class Reach:
    """Every hex a unit can end its move in: ``costs`` (hex number -> MP spent), and the
    cheapest path to each (:meth:`path`: hex numbers from the start, the start left out),
    worked out only when asked."""

    start: int
    allowance: Allowance
    costs: dict[int, int]
    states: dict[int, tuple[int, int]] = field(default_factory=dict, repr=False)
    came: dict[tuple[int, int], tuple[int, int] | None] = field(default_factory=dict,
                                                              repr=False)

    def path(self, hex_index: int) -> tuple[int, ...]:
        return _path(self.came, self.states[hex_index])

    @property
    def ends(self) -> dict[int, tuple[int, tuple[int, ...]]]:
        """Every end hex -> (MP spent, path)."""
        return {h: (cost, self.path(h)) for h, cost in self.costs.items()}


def movement_rule(game: Game) -> str:
    play = game.play
    rule = play.movement.rule if play else ()
    return rule[0] if rule else (play.rule[0] if play and play.rule else "movement")


def allowance(game: Game, position: Position, piece: Piece, phase: Phase | None,
              rail: bool = False) -> Allowance:
    """The MP and hex cap of ``piece`` now (see the module docstring)."""
    play = game.play
    assert play is not None
    notes = []
    rail_rules = play.movement.rail
    if rail and rail_rules is not None and rail_rules.allowance is not None:
        mp = rail_rules.allowance
    else:
        mp = int(stat(game, piece, play.movement.allowance))
    cap: int | None = None
    if phase is not None and phase.movement is not None:
        mp, cap = apply_change(mp, cap, phase.movement)
        notes.append(f"phase {phase.id}")
    for condition in in_force(game, position, piece.side):
        if condition.movement is not None and (not rail or condition.rail):
            mp, cap = apply_change(mp, cap, condition.movement)
            notes.append(f"{condition.name or condition.id}"
                         f"{_rule_text(condition.rule)}")
    supply = play.supply
    if (supply is not None and supply.effects.movement is not None
            and out_of_supply(game, position, piece)):
        mp, cap = apply_change(mp, cap, supply.effects.movement)
        notes.append("out of supply")
    return Allowance(mp, cap, tuple(notes))


def _rule_text(rules: tuple[str, ...]) -> str:
    return f" [{', '.join(rules)}]" if rules else ""


def reach(game: Game, position: Position, piece: Piece, phase: Phase | None,
          rail: bool = False, zoc: bool = True, stacking: bool = True,
          unlimited: bool = False) -> Reach:
    """Every hex ``piece`` can move to now (see :class:`Reach`); ``zoc`` and ``stacking``
    False leave those rules out, ``unlimited`` the MP (to explain a refusal)."""
    board = board_of(game)
    start = board.of(piece)
    allow = allowance(game, position, piece, phase, rail)
    if unlimited:
        allow = Allowance(10**9, None, allow.notes)
    key = (piece.id, phase.id if phase else None, rail, zoc, stacking, unlimited)
    return memo_args(position, "reach", key, lambda: _reach(game, board, position, piece,
                                                            allow, start, rail, zoc,
                                                            stacking, phase))


def _reach(game: Game, board: Board, position: Position, piece: Piece, allow: Allowance,
           start: int, rail: bool, zoc: bool, stacking: bool, phase: Phase | None) -> Reach:
    rules = zoc_rules(game)
    ezoc = enemy_zoc(game, position, piece.side) if zoc else frozenset()
    foes = enemy_hexes(game, position, piece.side)
    if zoc and rules.kind == "locking" and start in ezoc:
        return Reach(start, allow, {})
    when = game.play.stacking.when if game.play else "end-of-move"
    check_passing = stacking and when == "move"
    rail_line = board.rail if rail else None
    if rail and (rail_line is None or start not in rail_line.hexes):
        return Reach(start, allow, {})
    best: dict[tuple[int, int], int] = {}
    came: dict[tuple[int, int], tuple[int, int] | None] = {}
    stops: set[tuple[int, int]] = set()
    origin = (start, 0)
    best[origin], came[origin] = 0, None
    frontier = [(0, 0, start)]
    mp, cap = allow.mp, allow.hexes
    while frontier:
        cost, used, here = heapq.heappop(frontier)
        state = (here, used if cap is not None else 0)
        if best.get(state, -1) != cost or state in stops:
            continue
        if here != start and zoc and rules.kind != "none" and here in ezoc:
            continue  # entering an enemy zone of control ends the move
        if cap is not None and used >= cap or used >= MAX_STEPS:
            continue
        for n, step in board.steps[here]:
            if n in foes:
                continue
            if rail_line is not None:
                if (here, n) not in rail_line.pairs:
                    continue
                step = rail_line.cost
            elif step is None:
                continue
            if zoc and here in ezoc:
                if not rules.zoc_to_zoc and n in ezoc:
                    continue
                if step != ALL_MP:
                    step += rules.leave_cost
            stop = False
            if step == ALL_MP:
                if cost >= mp:
                    continue
                step, stop = mp - cost, True
            total = cost + step
            if total > mp:
                continue
            if check_passing and not room(board, position, n, piece):
                continue
            key = (n, used + 1 if cap is not None else 0)
            if total < best.get(key, mp + 1):
                best[key], came[key] = total, state
                if stop:
                    stops.add(key)
                else:
                    stops.discard(key)
                heapq.heappush(frontier, (total, used + 1, n))
    costs: dict[int, int] = {}
    states: dict[int, tuple[int, int]] = {}
    for state, cost in best.items():
        hex_index = state[0]
        if hex_index == start or hex_index in costs and costs[hex_index] <= cost:
            continue
        costs[hex_index], states[hex_index] = cost, state
    if stacking:
        friends = friendly_hexes(game, position, piece.side)
        costs = {h: c for h, c in costs.items()
                 if h not in friends or fits(game, board, position, h, piece, phase)}
    return Reach(start, allow, costs, states, came)


def fits(game: Game, board: Board, position: Position, hex_index: int, piece: Piece,
         phase: Phase | None) -> bool:
    """Whether a move of ``piece`` may end in the hex: within the stacking limit; or, where
    the limit holds at the end of the phase, over it while a unit there may still move out
    in this phase (one that has not moved, of the units the phase moves)."""
    if room(board, position, hex_index, piece):
        return True
    if game.play is None or game.play.stacking.when != "end-of-phase":
        return False
    units = phase.units if phase is not None else None
    return any(other.side == piece.side and other.id != piece.id and "moved" not in other.flags
               and matches(game, other, units)
               for other in position.in_hex(board.names[hex_index]))


def _path(came: dict[tuple[int, int], tuple[int, int] | None], state: tuple[int, int]
          ) -> tuple[int, ...]:
    out = []
    step: tuple[int, int] | None = state
    while step is not None and came[step] is not None:
        out.append(step[0])
        step = came[step]
    return tuple(reversed(out))


def check_path(game: Game, position: Position, piece: Piece, phase: Phase | None,
               path: tuple[int, ...], rail: bool = False) -> int:
    """The MP of moving ``piece`` along ``path`` (hex numbers, start left out); a
    RuleViolation naming the rule and the hex when a step is not allowed."""
    board = board_of(game)
    start = board.of(piece)
    allow = allowance(game, position, piece, phase, rail)
    rules = zoc_rules(game)
    ezoc = enemy_zoc(game, position, piece.side)
    foes = enemy_hexes(game, position, piece.side)
    rule = movement_rule(game)
    when = game.play.stacking.when if game.play else "end-of-move"
    here, cost = start, 0
    rail_line = board.rail if rail else None
    if rail and (rail_line is None or start not in rail_line.hexes):
        raise RuleViolation(_rail_rule(game), f"{piece.id} in {board.names[start]} is not on "
                                             f"the railway: rail movement starts on it")
    if rules.kind == "locking" and start in ezoc:
        raise RuleViolation(_zoc_rule(game), f"{piece.id} begins in an enemy zone of control "
                                            f"in {board.names[start]} and may not leave it")
    for count, n in enumerate(path, 1):
        name = board.names[n]
        if n not in board.neighbours[here]:
            raise RuleViolation(rule, f"{name} is not next to {board.names[here]}: a unit "
                                      f"moves hex by hex")
        if here != start and rules.kind != "none" and here in ezoc:
            raise RuleViolation(_zoc_rule(game), f"{piece.id} entered an enemy zone of control "
                                                 f"in {board.names[here]} and must stop there")
        if n in foes:
            raise RuleViolation(rule, f"{name} holds an enemy unit: a unit never enters it")
        if rail_line is not None:
            if (here, n) not in rail_line.pairs:
                raise RuleViolation(_rail_rule(game), f"{board.names[here]} to {name} is not "
                                                      f"along the railway")
            step = rail_line.cost
        else:
            entering = board.step_cost(here, n)
            if entering is None:
                raise RuleViolation(_terrain_rule(game, board, here, n),
                                    f"{name} cannot be entered from {board.names[here]} "
                                    f"(prohibited terrain)")
            step = entering
        if here in ezoc and rules.kind != "none":
            if not rules.zoc_to_zoc and n in ezoc:
                raise RuleViolation(_zoc_rule(game), f"{board.names[here]} to {name} goes "
                                                     f"from one enemy zone of control straight "
                                                     f"into another")
            if step != ALL_MP:
                step += rules.leave_cost
        if step == ALL_MP:
            if cost >= allow.mp:
                raise RuleViolation(rule, f"{name} takes all of a unit's MP and "
                                          f"{piece.id} has none left")
            step = allow.mp - cost
            if count != len(path):
                raise RuleViolation(rule, f"entering {name} takes every MP left: the move ends "
                                          f"there")
        cost += step
        if cost > allow.mp:
            raise RuleViolation(rule, f"{piece.id} needs {cost} MP to reach {name} and has "
                                      f"{allow.mp}{_notes(allow)}")
        if allow.hexes is not None and count > allow.hexes:
            raise RuleViolation(rule, f"{piece.id} may enter at most {allow.hexes} "
                                      f"hex{'es' if allow.hexes > 1 else ''} now"
                                      f"{_notes(allow)}")
        if when == "move" and not room(board, position, n, piece):
            raise RuleViolation(stacking_rule(game), f"{name} is full: the stacking limit "
                                                     f"holds during movement")
        here = n
    if not fits(game, board, position, here, piece, phase):
        why = (" and no unit there can still move out this phase" if when == "end-of-phase"
               else ": a move may not end past the stacking limit")
        raise RuleViolation(stacking_rule(game), f"{board.names[here]} is full{why}")
    return cost


def _notes(allow: Allowance) -> str:
    return f" ({'; '.join(allow.notes)})" if allow.notes else ""


def _zoc_rule(game: Game) -> str:
    rule = zoc_rules(game).rule
    return rule[0] if rule else movement_rule(game)


def _rail_rule(game: Game) -> str:
    rail = game.play.movement.rail if game.play else None
    return rail.rule[0] if rail is not None and rail.rule else movement_rule(game)


def _terrain_rule(game: Game, board: Board, a: int, b: int) -> str:
    chart = {e.id: e for e in game.terrain}
    entry = chart.get(board.terrain[b])
    if entry is not None and entry.rule:
        return entry.rule[0]
    return movement_rule(game)


def best_path(game: Game, position: Position, piece: Piece, phase: Phase | None,
              target: int, rail: bool = False) -> tuple[int, ...] | None:
    """The cheapest legal path to ``target``, or None."""
    found = reach(game, position, piece, phase, rail)
    return found.path(target) if target in found.costs else None


def unit_name(game: Game, piece: Piece) -> str:
    unit = unit_of(game, piece)
    return unit.name or unit.id

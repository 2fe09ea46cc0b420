"""Japanese movement (9.0-9.2.9): determinations on the order table.

A point's Japanese units that still have to be determined form a ``Stack``
(ships, ground units, land aircraft, each top first). ``determine`` makes one
roll for it: the order (table japanese-orders, section orders) says how many
units of each kind move where; an order that cannot be executed or moves
nothing is a Standby (9.1). ``determine_point`` rolls until the stack is done.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

from warpress.engine.dice import Dice, weights
from warpress.engine.errors import RuleViolation
from warpress.engine.model import Game

from .campaign import MapView
from .common import DIE, check_point, const, extra, graph, table_row


@dataclass(frozen=True)
class Stack:
    """Undetermined Japanese units at a point; ``staying`` counts ground/air that stay."""

    point: str
    ships: tuple[str, ...] = ()
    ground: tuple[str, ...] = ()
    land_air: tuple[str, ...] = ()
    staying: int = 0

    @property
    def empty(self) -> bool:
        """No unit left to determine."""
        return not (self.ships or self.ground or self.land_air)


@dataclass(frozen=True)
class Board:
    """The map at the start of the Japanese movement phase (what orders look at)."""

    view: MapView
    objectives: frozenset[str] = frozenset()
    garrisoned: frozenset[str] | None = None  # Japanese ground/air not on transports

    @property
    def japanese_garrison(self) -> frozenset[str]:
        """Points with garrisoned Japanese ground units or land aircraft (9.2.5 note)."""
        if self.garrisoned is not None:
            return self.garrisoned
        return self.view.japanese_ground_or_air

    @property
    def japanese_held(self) -> frozenset[str]:
        """Japanese ground/air there and no US ground/air (9.2.4; inferred, medium confidence)."""
        return self.view.japanese_ground_or_air - self.view.us_ground_or_air


@dataclass(frozen=True)
class Move:
    """The outcome of one determination."""

    roll: int
    order: str
    executed: str
    destination: str | None = None
    ships: tuple[str, ...] = ()
    ground: tuple[str, ...] = ()
    land_air: tuple[str, ...] = ()
    battalions: int = 0
    transport: bool = False
    supply_markers: int = 0
    reason: str = ""
    rules: tuple[str, ...] = field(default=("9.1",))


# --------------------------------------------------------------------------- choices


def random_choice(game: Game, options: Sequence[str], dice: Dice, name: str = "roll") -> str:
    """Split the die faces evenly among the options; leftover faces re-roll (1.3, 9.1)."""
    if not options:
        raise RuleViolation("1.3", "no option to choose from")
    if len(options) == 1:
        return options[0]
    faces = int(const(game, "die-faces"))
    per = faces // len(options)
    if per == 0:
        raise RuleViolation("1.3", f"{len(options)} options cannot share one d10")
    while True:
        roll = dice.roll(DIE, name)
        if roll <= per * len(options):
            return options[(roll - 1) // per]


def _points(game: Game) -> list[str]:
    return [p.id for p in game.get("point_maps", "campaign").points]


def _allowed(game: Game, points) -> list[str]:
    forbidden = set(const(game, "japanese-forbidden-points"))
    order = _points(game)
    return sorted((p for p in points if p not in forbidden), key=order.index)


def _nearest(game: Game, start: str, points) -> list[str]:
    dist = graph(game).distances_from(start)
    reach = [p for p in points if p in dist]
    if not reach:
        return []
    best = min(dist[p] for p in reach)
    return [p for p in reach if dist[p] == best]


def _toward(game: Game, start: str, goal: str, allowed) -> list[str]:
    """Adjacent points with a shorter route distance to ``goal``.

    Inferred from 9.2.3 and 9.2.4 (medium confidence).
    """
    g = graph(game)
    dist = g.distances_from(goal)
    here = dist.get(start)
    if here is None:
        return []
    return [p for p in g.neighbours(start) if dist.get(p, here) < here and p in allowed]


def candidates(game: Game, target: str, stack: Stack, board: Board) -> list[str]:
    """Points an order may send the stack to (9.2.2-9.2.8)."""
    view, here = board.view, stack.point
    everywhere = _points(game)
    if target == "none":
        return []
    if target == "japan":
        return [] if here == "japan" else ["japan"]
    if target == "toward-australia":
        if "australia" in graph(game).neighbours(here):
            return []
        return _allowed(game, _toward(game, here, "australia", everywhere))
    if target == "toward-hawaii-japanese-held":
        return _allowed(game, _toward(game, here, "hawaiian-islands", board.japanese_held))
    if target == "contested":
        return _allowed(game, view.us_any & view.japanese_any)
    if target == "nearest-us":
        return _nearest(game, here, _allowed(game, view.us_any))
    if target == "garrisoned-objective":
        return _allowed(game, board.objectives & board.japanese_garrison)
    if target == "nearest-us-objective":
        return _nearest(game, here, _allowed(game, board.objectives & view.us_any))
    raise RuleViolation("9.2", f"order target {target!r} is unknown")


# --------------------------------------------------------------------------- one roll


def standby(game: Game, roll: int, rolled: str, stack: Stack, reason: str) -> Move:
    """Standby (9.2.1): the top 6 ships, 2 infantry, 3 land aircraft stay; +1 supply."""
    rec = extra(game, "orders", "standby")
    ships, ground, air = (int(rec.get(k)) for k in ("ships", "infantry", "land_air"))
    return Move(roll, rolled, "standby", None, stack.ships[:ships], stack.ground[:ground],
                stack.land_air[:air],
                supply_markers=int(const(game, "standby-supply-markers")), reason=reason,
                rules=("9.2.1", "9.1"))


def _movable_ground_air(game: Game, stack: Stack, ground: int, air: int) -> tuple[int, int]:
    """Ground and land aircraft that may go without leaving the point empty (9.1, E26)."""
    if stack.point in const(game, "last-unit-exempt-points"):
        return ground, air
    keep = 1 if stack.staying == 0 else 0
    total = len(stack.ground) + len(stack.land_air)
    room = max(0, total - keep)
    ground = min(ground, room)
    return ground, min(air, room - ground)


def _battalions(game: Game, wanted: int, moving: int, available: int, blocked: bool) -> int:
    """Battalions from the box for infantry an order cannot bring (9.1, E6)."""
    missing = max(0, wanted - moving)
    if moving == 0 and available > 0 and blocked:
        if not const(game, "battalion-substitution-when-last-unit-stays"):
            return 0
    return missing * int(const(game, "battalions-per-missing-infantry"))


def determine(game: Game, stack: Stack, board: Board, dice: Dice) -> Move:
    """One determination for the stack at a point (9.1, 9.2)."""
    roll = dice.roll(DIE, "roll")
    return resolve_order(game, stack, board, roll,
                         lambda options: random_choice(game, options, dice))


def resolve_order(game: Game, stack: Stack, board: Board, roll: int, choose) -> Move:
    """The determination for an order roll; ``choose`` picks among destinations."""
    rolled = str(table_row(game, "japanese-orders", roll=roll)["order"])
    rec = extra(game, "orders", rolled)
    target = str(rec.get("target"))
    if target == "none":
        return standby(game, roll, rolled, stack, "standby order")
    options = candidates(game, target, stack, board)
    if not options:
        return standby(game, roll, rolled, stack, "the order cannot be executed")
    dest = choose(options)
    if dest == stack.point:
        return standby(game, roll, rolled, stack, "the destination is the own point")
    return _execute(game, roll, rolled, rec, stack, board, dest)


def outcome(move: Move) -> str:
    """A short name of a determination's outcome: ``standby`` or ``ORDER:DESTINATION``."""
    return "standby" if move.executed == "standby" else f"{move.executed}:{move.destination}"


def outcome_odds(game: Game, stack: Stack, board: Board) -> dict[str, Fraction]:
    """Exact odds of each outcome of one determination.

    Re-rolling the leftover faces makes every destination equally likely (1.3),
    so each of n candidates has probability 1/n whatever the die.
    """
    out: dict[str, Fraction] = {}
    for face, p in weights(DIE).items():
        rolled = str(table_row(game, "japanese-orders", roll=face)["order"])
        options = candidates(game, str(extra(game, "orders", rolled).get("target")), stack, board)
        picks = options or [None]
        for dest in picks:
            move = resolve_order(game, stack, board, face, lambda _o, d=dest: d)
            key = outcome(move)
            out[key] = out.get(key, Fraction(0)) + p / len(picks)
    return out


def _execute(game: Game, roll: int, rolled: str, rec, stack: Stack, board: Board,
             dest: str) -> Move:
    ships = stack.ships[: int(rec.get("ships"))]
    wanted_ground = int(rec.get("infantry"))
    condition = str(rec.get("land_air_condition"))
    air_ok = condition == "always" or (condition == "garrison"
                                       and dest in board.japanese_garrison)
    wanted_air = int(rec.get("land_air")) if air_ok else 0
    n_ground, n_air = _movable_ground_air(game, stack, min(wanted_ground, len(stack.ground)),
                                          min(wanted_air, len(stack.land_air)))
    ground, air = stack.ground[:n_ground], stack.land_air[:n_air]
    us_there = dest in board.view.us_any
    battalions = 0
    if us_there:
        blocked = n_ground < min(wanted_ground, len(stack.ground))
        battalions = _battalions(game, wanted_ground, n_ground, len(stack.ground), blocked)
    if not (ships or ground or air):
        return standby(game, roll, rolled, stack, "no unit would move")
    rules = tuple(dict.fromkeys((*rec.rule, "9.1")))
    return Move(roll, rolled, rolled, dest, ships, ground, air, battalions,
                transport=us_there and bool(ground or battalions), rules=rules)


def after(stack: Stack, move: Move) -> Stack:
    """The stack without the units the determination moved or froze."""
    ground_air_stay = len(move.ground) + len(move.land_air) if move.executed == "standby" else 0
    return replace(stack, ships=stack.ships[len(move.ships):],
                   ground=stack.ground[len(move.ground):],
                   land_air=stack.land_air[len(move.land_air):],
                   staying=stack.staying + ground_air_stay)


def determine_point(game: Game, stack: Stack, board: Board, dice: Dice,
                    limit: int = 50) -> tuple[Move, ...]:
    """Roll until every unit of the stack has moved or been frozen (9.1)."""
    check_point(game, stack.point, "point")
    moves = []
    while not stack.empty:
        if len(moves) >= limit:
            raise RuleViolation("9.1", f"more than {limit} determinations at {stack.point!r}")
        move = determine(game, stack, board, dice)
        moves.append(move)
        stack = after(stack, move)
    return tuple(moves)


# --------------------------------------------------------------------------- phase start


def phase_freeze(game: Game, stack: Stack, us_here: bool,
                 campaign: str = "1942") -> tuple[Stack, tuple[str, ...]]:
    """The units frozen before any roll and the rest to determine (9.0 steps 1 and 3, 12.4).

    Returns the stack left to determine and the ids of the units that get a move-complete
    marker now: in 1945 every Japanese unit at Okinawa and Iwo Jima, ships included (12.4);
    a point's single ground unit or land aircraft (9.0(1), not at Japan or East Asia); the
    ground units at a point with US units (9.0(3)).
    """
    exempt = set(const(game, "last-unit-exempt-points"))
    if stack.point in no_determination_points(game, campaign):
        frozen = stack.ships + stack.ground + stack.land_air
        return Stack(stack.point, staying=stack.staying + len(stack.ground)
                     + len(stack.land_air)), frozen
    single = not stack.ships and len(stack.ground) + len(stack.land_air) == 1
    if single and stack.staying == 0 and stack.point not in exempt:
        return Stack(stack.point, staying=1), stack.ground + stack.land_air
    if us_here and stack.ground:
        return (replace(stack, ground=(), staying=stack.staying + len(stack.ground)),
                stack.ground)
    return stack, ()


def phase_start(game: Game, stack: Stack, us_here: bool, campaign: str = "1942") -> Stack:
    """The units left to determine once the phase-start freezes are made (:func:`phase_freeze`)."""
    return phase_freeze(game, stack, us_here, campaign)[0]


def no_determination_points(game: Game, campaign: str) -> frozenset[str]:
    """Points whose Japanese units are never determined in ``campaign`` (12.4: Okinawa and
    Iwo Jima in 1945)."""
    special = extra(game, "campaigns", campaign).get("special_rules", ())
    if "12.4" not in special:
        return frozenset()
    return frozenset(const(game, "no-determination-points-1945"))


def check_determinable(game: Game, point: str, campaign: str) -> None:
    """RuleViolation when ``point``'s Japanese units are never determined (12.4)."""
    if point in no_determination_points(game, campaign):
        raise RuleViolation("12.4", f"no movement determination for the Japanese units at "
                                    f"{point!r} in the {campaign} campaign")

"""Bomber movement and entry [7, 8], fighter movement [9, 18, 23], turn track [2.1.5].

Bombers fly straight down their column (facing the next hex of higher row) and leave
the map from row 27 for one more MP. Entering bombers come in at row 01 of the column
a chit gives, the entry hex costing 1 MP. Fighters spend MP one hex at a time into the
hex they face and may turn 60 degrees only right after spending an MP.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from warpress.engine.dice import Dice
from warpress.engine.errors import BadInput, RuleViolation
from warpress.engine.model import Game
from warpress.engine.tables import lookup

from .common import (
    FRONT,
    MP,
    REAR_LEFT,
    REAR_RIGHT,
    check_hex,
    column_of,
    const,
    grid,
    hex_at,
    mp_for_turn,
    parse_mp,
    record,
    relative_hex,
    row_of,
)
from .state import ON_MAP, Bomber, Night

# --- bombers ------------------------------------------------------------------------------


def bomber_facing(game: Game) -> int:
    """The facing of every column-flying bomber: toward the next row [7.1]."""
    entry = const(game, "entry-row")
    first, second = hex_at(game, 1, entry), hex_at(game, 1, entry + 1)
    return grid(game).direction(first, second)


def new_bomber(game: Game, unit: Any, counter_id: str, equipment: Iterable[str] = ()) -> Bomber:
    """Counter ``counter_id`` of attacking ``unit`` in the pool, with the unit's standard
    equipment and ``equipment`` [3.4]."""
    std = {e["item"] for e in unit.stats.get("equipment") or () if e.get("class") == "Std"}
    return Bomber(counter_id, unit=unit.id, facing=bomber_facing(game),
                  mp=str(unit.stats["mp"]), fp=int(unit.stats.get("fp") or 0),
                  damage=int(unit.stats["damage"]),
                  kind="intruder" if unit.type == "intruder" else "bomber",
                  equipment=frozenset(std | set(equipment)))


def bomber_next_hex(game: Game, hex_id: str) -> str | None:
    """The hex a bomber at ``hex_id`` faces and enters next (None past the exit row) [7.1]."""
    return grid(game).neighbour_in_direction(check_hex(game, hex_id), bomber_facing(game))


@dataclass(frozen=True)
class BomberMove:
    """Hexes entered in order, and whether the bomber left the map at the exit edge."""

    path: tuple[str, ...]
    exited: bool

    @property
    def end(self) -> str | None:
        return self.path[-1] if self.path else None


def bomber_path(game: Game, hex_id: str, mp: int) -> BomberMove:
    """Move ``mp`` hexes straight down the column; from row 27 one more MP exits [7.2, 7.2.2]."""
    here = check_hex(game, hex_id)
    exit_row, exit_cost = const(game, "exit-row"), const(game, "exit-mp-cost")
    path: list[str] = []
    left = mp
    while left > 0:
        if row_of(game, here) == exit_row:
            if left >= exit_cost:
                return BomberMove(tuple(path), True)
            break
        here = bomber_next_hex(game, here)
        path.append(here)
        left -= 1
    return BomberMove(tuple(path), False)


def bomber_mp(game: Game, bomber: Bomber, turn: int, *, alert_rule: bool = False) -> int:
    """MP of a bomber this turn: chart MP with asterisk [7.2]; torpedo 2 until launched [26.3];
    the optional faster alert bombers of 28.2 when ``alert_rule``."""
    if bomber.kind == "torpedo" and not bomber.launched:
        return const(game, "torpedo-bomber-mp")
    mp = parse_mp(bomber.mp)
    if alert_rule and bomber.alert:
        mp = alert_mp(game, mp)
    return mp_for_turn(game, mp, turn)


def alert_mp(game: Game, mp: MP) -> MP:
    """Optional 28.2: the raised MP of an alert bomber (table alert-mp)."""
    try:
        row = lookup(game.table("alert-mp"), mp=str(mp))
    except BadInput:
        return mp
    return parse_mp(row["alert_mp"])


def remove_bomber(night: Night, bomber: Bomber, status: str) -> Night:
    """Take a bomber off the map (exited or destroyed): its markers go too [7.2.2, 11.0]."""
    night = night.with_bomber(replace(bomber, hex=None, status=status))
    fighters = tuple(
        replace(f, sighting=None if f.sighting == bomber.id else f.sighting,
                ai_contact=None if f.ai_contact == bomber.id else f.ai_contact)
        for f in night.fighters
    )
    captures = tuple(c for c in night.captures if c[1] != bomber.id)
    return replace(night, fighters=fighters, captures=captures)


# --- entry --------------------------------------------------------------------------------


def chit_numbers(game: Game, chit_id: str, face: str) -> tuple[int, ...]:
    """The three column numbers of a chit face, top to bottom [8.1.2]."""
    if face not in ("red", "yellow"):
        raise BadInput(f"input face={face!r} is not a chit face (red|yellow)")
    chit = record(game, "entry-chits", chit_id)
    return tuple(int(n) for n in chit.get(face))


def entry_columns(game: Game, numbers: tuple[int, ...], entrants: int) -> tuple[int, ...]:
    """Columns for ``entrants`` bombers from one chit (table entry-numbers) [8.1.3]."""
    row = lookup(game.table("entry-numbers"), entrants=entrants)
    index = {"top": 0, "middle": 1, "bottom": 2}
    return tuple(numbers[index[p]] for p in row["positions"])


def torpedo_column(game: Game, numbers: tuple[int, ...]) -> int | None:
    """The first number in the torpedo columns (07-12), or None: discard, draw again [26.3.1]."""
    lo, hi = const(game, "torpedo-columns")
    return next((n for n in numbers if lo <= n <= hi), None)


def entry_hex(game: Game, column: int) -> str:
    """The entry hex of a column: its row-01 hex [8.2]."""
    found = hex_at(game, column, const(game, "entry-row"))
    if found is None:
        raise BadInput(f"column {column!r} is not on the map (01-18)")
    return found


def entry_path(game: Game, column: int, mp_used: int, mp_max: int) -> BomberMove:
    """An entering bomber: the entry hex costs 1 MP, then down the column [8.2.1]."""
    low = const(game, "entry-mp-min")
    if not low <= mp_used <= mp_max:
        raise RuleViolation("8.2.1", f"an entering bomber uses {low} to {mp_max} MP, "
                                     f"not {mp_used}")
    first = entry_hex(game, column)
    rest = bomber_path(game, first, mp_used - const(game, "entry-hex-mp-cost"))
    return BomberMove((first, *rest.path), rest.exited)


def enter_bomber(game: Game, night: Night, bomber_id: str, column: int, mp_used: int) -> Night:
    """Place a bomber of the pool on the map in ``column`` using ``mp_used`` MP [8.2, 8.2.1]."""
    bomber = night.bomber(bomber_id)
    if bomber.status not in ("pool", "delayed"):
        raise RuleViolation("8.0", f"bomber {bomber_id!r} has already entered")
    move = entry_path(game, column, mp_used, bomber_mp(game, bomber, night.turn))
    taken = {b.hex for b in night.on_map_bombers()}
    if move.end in taken:
        raise RuleViolation("8.2.1", f"bomber {bomber_id!r} would end in {move.end}, which "
                                     "holds another bomber: end at least one hex back")
    return night.with_bomber(replace(bomber, hex=move.end, facing=bomber_facing(game),
                                     status=ON_MAP))


# --- displacement: corkscrew hexes, Serrate intruders -------------------------------------


def corkscrew_hex(game: Game, night: Night | None, bomber: Bomber, direction: str) -> str:
    """Where a corkscrew (or 16.0 displacement) puts a bomber [17.4.3, 26.3.2]:
    left/right = the rear-diagonal hex, forward = stays; off the map, into another
    bomber's hex, or (torpedo bombers) out of columns 07-12: stays."""
    if direction == "forward":
        return bomber.hex
    relative = {"left": REAR_LEFT, "right": REAR_RIGHT}[direction]
    target = relative_hex(game, bomber.hex, bomber.facing, relative)
    if target is None:
        return bomber.hex
    if night is not None and any(b.hex == target and b.id != bomber.id
                                 for b in night.on_map_bombers()):
        return bomber.hex
    if bomber.kind == "torpedo":
        lo, hi = const(game, "torpedo-columns")
        if not lo <= column_of(game, target) <= hi:
            return bomber.hex
    return target


def displace(game: Game, night: Night, bomber_id: str, dice: Dice) -> Night:
    """16.0: a bomber no longer sighted or acquired is displaced at once as if it corkscrewed
    (roll ``displacement`` on the corkscrew table); it stays put while still known."""
    bomber = night.bomber(bomber_id)
    if not bomber.on_map or night.known(bomber_id):
        return night
    roll = dice.roll("d6", "displacement")
    direction = lookup(game.table("corkscrew"), roll=roll)["direction"]
    return night.with_bomber(replace(bomber, hex=corkscrew_hex(game, night, bomber, direction)))


def displace_lost(game: Game, before: Night, after: Night, dice: Dice | None) -> Night:
    """Displace every bomber known in ``before`` and no longer known in ``after`` [16.0]."""
    if dice is None:
        return after
    for bomber in before.on_map_bombers():
        if before.known(bomber.id) and not after.known(bomber.id):
            after = displace(game, after, bomber.id, dice)
    return after


def serrate_path(game: Game, hex_id: str, facing: int, side: str, mp: int) -> BomberMove:
    """Serrate behaviour [27.2.2]: fighter ahead -> straight; left/right -> displace one hex
    toward it as for a corkscrew (no MP), then straight ahead with all MP."""
    displace = lookup(game.table("serrate-move"), fighter=side)["displace"]
    start = check_hex(game, hex_id)
    path: list[str] = []
    if displace in ("left", "right"):
        relative = REAR_LEFT if displace == "left" else REAR_RIGHT
        moved = relative_hex(game, start, facing, relative)
        if moved is not None:
            start = moved
            path.append(moved)
    here = start
    for _ in range(mp):
        nxt = relative_hex(game, here, facing, FRONT)
        if nxt is None:
            return BomberMove(tuple(path), True)
        path.append(nxt)
        here = nxt
    return BomberMove(tuple(path), False)


# --- fighters -----------------------------------------------------------------------------

MOVE, LEFT, RIGHT = "F", "L", "R"


@dataclass(frozen=True)
class FighterMove:
    """A legal fighter move: hexes entered, final facing, MP spent, turns, left the map."""

    path: tuple[str, ...]
    facing: int
    mp_spent: int
    turns: int
    left_map: bool
    max_mp: int


def parse_plan(plan: str) -> tuple[str, ...]:
    """``"F F R F"`` or ``"FFRF"`` -> steps; F = spend 1 MP forward, L/R = turn 60 degrees."""
    steps = tuple(ch for ch in plan.upper() if not ch.isspace() and ch not in ",;-")
    bad = [s for s in steps if s not in (MOVE, LEFT, RIGHT)]
    if bad:
        raise BadInput(f"path {plan!r}: step {bad[0]!r} is not F (forward 1 MP), "
                       "L or R (turn 60 degrees)")
    return steps


def fighter_max_mp(game: Game, mp: str, turn: int, *, dive: bool = False,
                   evade: bool = False) -> int:
    """Chart MP (+1 on even turns for N*), +1 diving, +1 evading; cumulative [9.1, 18.0, 27.3.1]."""
    total = mp_for_turn(game, parse_mp(mp), turn)
    if dive:
        total += const(game, "dive-bonus-mp")
    if evade:
        total += const(game, "evasion-bonus-mp")
    return total


def fighter_min_mp(game: Game, unit_id: str | None) -> int:
    """Fewest MP a fighter must spend: 2, or the unit's own minimum (Me262: 5) [9.1]."""
    low = const(game, "fighter-min-mp")
    if unit_id:
        stats = game.get("units", unit_id).stats
        if stats.get("min_mp") is not None:
            low = max(low, int(stats["min_mp"]))
    return low


def check_fighter_plan(
    game: Game,
    hex_id: str,
    facing: int,
    plan: str,
    *,
    max_mp: int,
    min_mp: int,
    dive: bool = False,
    dazzled: bool = False,
    evading: bool = False,
) -> FighterMove:
    """Validate and carry out a fighter's move plan [9.1, 9.2, 9.2.1, 17.3.2, 18.0]."""
    g = grid(game)
    here = check_hex(game, hex_id)
    steps = parse_plan(plan)
    path: list[str] = []
    spent = turns = 0
    can_turn = False
    left_map = False
    for n, step in enumerate(steps):
        if left_map:
            raise RuleViolation("9.2.1", f"plan {plan!r} goes on after its step {n} leaves the "
                                         "map; a fighter that has left the map never returns, "
                                         "so its plan ends there")
        if step == MOVE:
            spent += 1
            if spent > max_mp:
                raise RuleViolation("9.1", f"plan {plan!r} spends more than the {max_mp} MP "
                                           "allowed")
            nxt = g.neighbour_in_direction(here, facing)
            if nxt is None:
                left_map = True
            else:
                here = nxt
                path.append(here)
            can_turn = True
            continue
        if not can_turn:
            raise RuleViolation("9.2", f"plan {plan!r} turns before spending an MP: a turn "
                                       "comes only right after an MP, one 60-degree turn each")
        if dazzled and not evading:
            raise RuleViolation("17.3.2", "a dazzled fighter flies straight: no turns")
        facing = (facing + (1 if step == RIGHT else -1)) % 6
        turns += 1
        can_turn = False
    if dive and spent != max_mp and not left_map:
        raise RuleViolation("18.0", f"a diving fighter must spend its full {max_mp} MP, "
                                    f"not {spent}")
    if spent < min_mp and not left_map:
        raise RuleViolation("9.1", f"a fighter must spend at least {min_mp} MP, not {spent}")
    return FighterMove(tuple(path), facing, spent, turns, left_map, max_mp)


#: where a plan leaves a fighter: (hex, facing, MP spent, turned), or None off the map
PlanEnd = tuple[str, int, int, bool] | None


def fighter_plans(
    game: Game,
    hex_id: str,
    facing: int,
    *,
    max_mp: int,
    min_mp: int,
    dive: bool = False,
    dazzled: bool = False,
    evading: bool = False,
) -> dict[PlanEnd, str]:
    """Every distinct outcome of the plans :func:`check_fighter_plan` accepts with the same
    arguments -> the shortest plan reaching it (steps comma-separated, ``F,F,R,F``), in order
    of plan length: the hex, facing, MP spent and whether it turned (what a move changes),
    and ``None`` for the shortest plan that flies off the map [9.1, 9.2, 9.2.1, 17.3.2,
    18.0]."""
    g = grid(game)
    may_turn = not dazzled or evading
    found: dict[PlanEnd, str] = {}
    start = (check_hex(game, hex_id), facing, 0, False, False)
    queue, seen = [(start, ())], {start}
    for (here, face, spent, can_turn, turned), steps in queue:
        if spent >= min_mp and (not dive or spent == max_mp):
            found.setdefault((here, face, spent, turned), ",".join(steps))
        nexts = []
        if spent < max_mp:
            ahead = g.neighbour_in_direction(here, face)
            if ahead is None:
                found.setdefault(None, ",".join((*steps, MOVE)))
            else:
                nexts.append(((ahead, face, spent + 1, True, turned), MOVE))
        if can_turn and may_turn:
            nexts += [((here, (face + turn) % 6, spent, False, True), step)
                      for turn, step in ((-1, LEFT), (1, RIGHT))]
        for state, step in nexts:
            if state not in seen:
                seen.add(state)
                queue.append((state, (*steps, step)))
    return found


def move_fighter(game: Game, night: Night, fighter_id: str, plan: str, *, dives: int = 0,
                 evade: bool = False) -> Night:
    """Fighter Movement phase for one fighter: check the plan, then update the fighter.

    ``dives`` = dives used this turn (0: no dive; 1-3 at once still +1 MP) [18.0];
    ``evade`` = evasion on a tail warning (+1 MP, loses sighting and AI contact) [27.3.1].
    """
    fighter = night.fighter(fighter_id)
    if fighter.status != ON_MAP:
        raise RuleViolation("9.2.1", f"fighter {fighter_id!r} is not on the map "
                                     f"({fighter.status})")
    if fighter.evaded_turn and fighter.evaded_turn == night.turn - 1:
        raise RuleViolation("17.3.1", f"fighter {fighter_id!r} evaded last turn and does "
                                      "not move this turn")
    if dives and not 1 <= dives <= fighter.dives_left:
        raise RuleViolation("18.0", f"fighter {fighter_id!r} has {fighter.dives_left} dives "
                                    f"left, cannot use {dives}")
    move = check_fighter_plan(
        game, fighter.hex, fighter.facing, plan,
        max_mp=fighter_max_mp(game, fighter.mp, night.turn, dive=bool(dives), evade=evade),
        min_mp=fighter_min_mp(game, fighter.unit or None),
        dive=bool(dives), dazzled=fighter.dazzled(night.turn), evading=evade,
    )
    moved = replace(
        fighter,
        hex=None if move.left_map else (move.path[-1] if move.path else fighter.hex),
        status="off-map" if move.left_map else ON_MAP,
        facing=move.facing,
        mp_spent=move.mp_spent,
        turned=move.turns > 0,
        dives_left=fighter.dives_left - dives,
        dived=bool(dives),
        evading=evade,
        sighting=None if evade else fighter.sighting,
        ai_contact=None if evade else fighter.ai_contact,
    )
    return night.with_fighter(moved)


def may_leave_beacon_box(game: Game, turn: int, last_departure: int | None,
                         leaving_now: int = 0) -> bool:
    """Radio beacon box [23.0]: one fighter per phase, none right after a departure."""
    if leaving_now >= const(game, "radio-beacon-exits-per-phase"):
        return False
    if last_departure is None:
        return True
    return turn - last_departure > const(game, "radio-beacon-exit-gap-turns")


def leave_beacon_box(game: Game, night: Night, fighter_id: str, hex_id: str, facing: int,
                     plan: str = "") -> Night:
    """A fighter leaves the radio beacon box [23.0]: 1 MP into a hex next to the box, any
    facing, then the rest of its move by ``plan``; one per phase, none right after another."""
    fighter = night.fighter(fighter_id)
    if fighter.status != "beacon-box":
        raise RuleViolation("23.0", f"fighter {fighter_id!r} is not in the radio beacon box")
    if not may_leave_beacon_box(game, night.turn, night.beacon_departure):
        raise RuleViolation("23.0", "one fighter leaves the box per Fighter Movement phase, "
                                    "none if another left in the previous turn")
    exits = game.hex_map().feature("radio-beacon-box").hexes
    if check_hex(game, hex_id) not in exits:
        raise RuleViolation("23.0", f"hex {hex_id!r} is not next to the radio beacon box "
                                    f"({', '.join(exits)})")
    cost = const(game, "radio-beacon-exit-mp-cost")
    move = check_fighter_plan(
        game, hex_id, facing, plan,
        max_mp=fighter_max_mp(game, fighter.mp, night.turn) - cost,
        min_mp=max(0, fighter_min_mp(game, fighter.unit or None) - cost))
    moved = replace(fighter, status="off-map" if move.left_map else ON_MAP,
                    hex=None if move.left_map else (move.path[-1] if move.path else hex_id),
                    facing=move.facing, mp_spent=move.mp_spent + cost, turned=move.turns > 0)
    return replace(night.with_fighter(moved), beacon_departure=night.turn)


def turn_marker(game: Game, turn: int) -> tuple[int, bool]:
    """Where the Game Turn marker stands for ``turn``: (box, on its +20 side) [2.1.5, E35]."""
    spaces = len(game.get("tracks", "game-turn").values)
    if turn < 1:
        raise BadInput(f"input turn={turn!r} is not a game turn (1 or more)")
    return ((turn - 1) % spaces) + 1, turn > spaces


def fighter_chart_mp(game: Game, unit_id: str, radar: str | None = None) -> str:
    """A fighter type's chart MP; a Ju88G-6 with Berlin N1A or Bremen 0 has MP 4* [24.1.2]."""
    stats = game.get("units", unit_id).stats
    if radar in ("berlin-n1a", "bremen-0") and stats.get("mp_with_berlin_or_bremen"):
        return str(stats["mp_with_berlin_or_bremen"])
    return str(stats["mp"])


def chart_types(name: str) -> tuple[str, ...]:
    """The types one chart entry covers: ``"Ju88G-1/G-6"`` -> Ju88G-1 and Ju88G-6 [6.0]."""
    parts = [p.strip() for p in name.split("/") if p.strip()]
    if not parts:
        return ()
    head = parts[0]
    out = [head]
    for part in parts[1:]:
        out.append(head[: len(head) - len(part)] + part if len(part) < len(head) else part)
    return tuple(out)


# --- naval: flares [26.2.2] ---------------------------------------------------------------


def flare_counter(game: Game, turn: int, current: int | None) -> int:
    """A flare dropper ends its move in the Task Force box: the flare counter goes to
    turn + 3, or moves there if it is nearer [26.2.2]."""
    ahead = turn + const(game, "flare-duration-turns")
    return ahead if current is None else max(current, ahead)


def flare_lit(turn: int, counter: int | None) -> bool:
    """The task force is illuminated while the turn marker has not reached the counter."""
    return counter is not None and turn < counter

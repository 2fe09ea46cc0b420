"""What a power may do now in an Axis & Allies session: a command's working set
(:class:`Run`), the arguments it reads, and the checks of movement (② combat movement,
④ non-combat movement), each naming its rule. The session (``session.py``) applies the
commands; the listings of legal answers (``choices.py``) are made of the same searches and
checks, so that every answer listed is accepted.

A move takes units of one kind from one space to another: land units by land (armor may
blitz, ②), land units onto a transport in a sea zone next to them (loading) and off it onto
a territory next to the sea zone (unloading; an amphibious assault in ②), ships by sea
(a transport carries its cargo, a carrier the fighters aboard that have not moved),
aircraft by land and sea alike within their movement, with a landing planned in ② and
made in ④. Rulings the rule text leaves open are constants of the game data, each named
where it decides (``source: assumed``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from warpress.engine.errors import BadInput, RuleViolation
from warpress.engine.inputs import parse_int, quote
from warpress.engine.model import Game
from warpress.engine.position import Pending, Piece, Position, freeze
from warpress.engine.referee import Announcement

from .board import NEUTRAL, points, start_control, world
from .common import const, flag, has_tag, memo, unit_row, unit_types
from .positions import (
    at,
    board_carriers,
    captured,
    cargo_of,
    enemies,
    enemy_land,
    evolve_piece,
    factory_at,
    facts,
    friendly_land,
    has_enemy,
    left,
    room_on,
    slots,
)

COMBAT = "combat-movement"
NONCOMBAT = "non-combat-movement"
RULE = {COMBAT: "② combat movement", NONCOMBAT: "④ non-combat movement"}
#: the most units one argument names (a tool limit: the board holds fewer)
MOST = 500


# --- one command's working set --------------------------------------------------------


@dataclass
class Run:
    """A command's position as it changes, and what the players are told."""

    game: Game
    pos: Position
    said: list[Announcement] = field(default_factory=list)

    @property
    def power(self) -> str:
        return str(self.pos.side)

    def say(self, text: str, *rules: str, **data: Any) -> None:
        self.said.append(Announcement(self.pos.turn, self.pos.phase or "", text, rules,
                                      data))

    def due(self, kind: str, side: str | None, rules: tuple[str, ...], **data: Any) -> None:
        self.pos = replace(self.pos, pending=(Pending(kind, side, rules, freeze(data)),))

    def set(self, **values: Any) -> None:
        self.pos = self.pos.with_data(**values)

    def put(self, pieces: Iterable[Piece]) -> None:
        self.pos = self.pos.with_pieces(pieces)

    def data(self, key: str) -> Any:
        return self.pos.data.get(key)


# --- arguments ---------------------------------------------------------------------------


def space_arg(game: Game, text: Any, name: str) -> str:
    """A territory or sea zone id typed; BadInput quoting it otherwise."""
    value = str(text).strip() if text is not None else ""
    if value not in points(game):
        raise BadInput(f"{name} {quote(value)} is not a territory or sea zone of the board "
                       "(ids like 'germany', 'east-us', 'north-sea-zone')")
    return value


def type_arg(game: Game, text: Any, name: str = "unit") -> str:
    """A unit type (a plural is read as its type)."""
    value = str(text).strip().lower() if text is not None else ""
    types = unit_types(game)
    if value not in types and value.endswith("s") and value[:-1] in types:
        value = value[:-1]
    if value not in types:
        raise BadInput(f"{name} {quote(text)} is not a unit type ({', '.join(types)})")
    return value


def count_arg(text: Any, name: str = "count") -> int:
    if text is None or str(text).strip() == "":
        return 1
    return parse_int(text, name, low=1, high=MOST)


def is_piece_id(text: str) -> bool:
    return text.count(".") == 2


_ITEM = re.compile(r"^(?:(\d+)\s*[x*]?\s*)?([a-z][a-z-]*?)(?:\s*[x*]\s*(\d+))?$")


def units_arg(game: Game, text: Any, name: str = "units") -> list[str]:
    """Units typed comma-separated, each a type (``infantry``, ``2xinfantry``, ``2
    infantry``, ``infantry*2``) or a piece id (``usa.transport.1``): one entry per unit."""
    out: list[str] = []
    for part in (p.strip().lower() for p in str(text if text is not None else "").split(",")):
        if not part:
            continue
        if is_piece_id(part):
            out.append(part)
            continue
        match = _ITEM.match(part)
        if match is None:
            raise BadInput(f"{name}: {quote(part)} is not 'N TYPE', 'NxTYPE', a type or a piece "
                           "id")
        count = parse_int(match[1] or match[3] or "1", f"{name}: count of {match[2]!r}", low=1,
                          high=MOST)
        out += [type_arg(game, match[2], name)] * count
        if len(out) > MOST:
            raise BadInput(f"{name}: more than {MOST} units")
    if not out:
        raise BadInput(f"{name} {quote(text)} names no unit (e.g. 2xinfantry,armor)")
    return out


def units_text(types: Iterable[str]) -> str:
    """Unit types as typed in an answer: ``2xinfantry,armor`` (first-seen order)."""
    counts: dict[str, int] = {}
    for t in types:
        counts[t] = counts.get(t, 0) + 1
    return ",".join(t if n == 1 else f"{n}x{t}" for t, n in counts.items())


def via_arg(game: Game, text: Any) -> list[str]:
    if text is None or str(text).strip() == "":
        return []
    spaces = [space_arg(game, s, "--via") for s in str(text).split(",") if s.strip()]
    if len(spaces) > 12:
        raise BadInput(f"--via {quote(text)}: at most 12 spaces")
    return spaces


# --- the board as adjacency --------------------------------------------------------------


def adjacency(game: Game, kinds: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """Each space's neighbours by routes of ``kinds`` (land, sea, coast)."""

    def make() -> dict[str, tuple[str, ...]]:
        out: dict[str, list[str]] = {p.id: [] for p in world(game).points}
        for r in world(game).routes:
            if r.kind in kinds and r.b not in out[r.a]:
                out[r.a].append(r.b)
                out[r.b].append(r.a)
        return {k: tuple(sorted(v)) for k, v in out.items()}

    return memo(game, ("adjacency", kinds), make)


def land_adj(game: Game) -> dict[str, tuple[str, ...]]:
    return adjacency(game, ("land",))


def sea_adj(game: Game) -> dict[str, tuple[str, ...]]:
    return adjacency(game, ("sea",))


def coast_adj(game: Game) -> dict[str, tuple[str, ...]]:
    return adjacency(game, ("coast",))


def air_adj(game: Game) -> dict[str, tuple[str, ...]]:
    return adjacency(game, ("land", "sea", "coast"))


def neutral(game: Game, space: str) -> bool:
    """A neutral territory (the board's printed owner)."""
    return space in facts(game).neutrals


def sea(game: Game, space: str) -> bool:
    return space in facts(game).seas


def bfs(start: str, adj: Mapping[str, tuple[str, ...]], most: int, passable
        ) -> dict[str, list[str]]:
    """Shortest paths from ``start`` of at most ``most`` steps; only spaces ``passable``
    lets through are gone through (every space reached is listed)."""
    paths = {start: [start]}
    frontier = [start]
    for _ in range(most):
        nxt = []
        for a in frontier:
            if a != start and not passable(a):
                continue
            for b in adj[a]:
                if b not in paths:
                    paths[b] = paths[a] + [b]
                    nxt.append(b)
        frontier = nxt
    return paths


# --- what a unit is ------------------------------------------------------------------------


def kind_of(game: Game, unit_type: str) -> str:
    """land, sea, air or facility."""
    return facts(game).domain[unit_type]


def can_attack(game: Game, unit_type: str) -> bool:
    return facts(game).rows[unit_type]["attack"] is not None


# --- a move -------------------------------------------------------------------------------


@dataclass
class Plan:
    """A move checked: the pieces, their path, what it is (land, load, unload, sea, air),
    the territories an armor blitzes through and where it ends."""

    kind: str
    pieces: list[Piece]
    path: list[str]
    blitzed: list[str] = field(default_factory=list)
    holder: dict[str, str] = field(default_factory=dict)  # piece -> transport or carrier

    @property
    def end(self) -> str:
        return self.path[-1]


def movers(run: Run, frm: str, what: str, count: int, phase: str) -> list[Piece]:
    """``count`` of the power's units of type ``what`` (or the piece ``what``) in ``frm``
    that may still move: the least movement left first, ids in order."""
    here = [p for p in at(run.pos, frm) if p.side == run.power and p.unit != "factory"]
    if is_piece_id(what):
        found = [p for p in here if p.id == what]
        if not found:
            raise BadInput(f"no unit {quote(what)} of {run.power} in {frm}")
        if count != 1:
            raise BadInput(f"count {count}: a piece id names one unit")
        return found
    same = [p for p in here if p.unit == what]
    if not same:
        raise BadInput(f"no {what} of {run.power} in {frm}")
    able = [p for p in same if not _stopped(run, p, phase)]
    if len(able) < count:
        why = _stopped(run, same[0], phase) if not able else ""
        rule = RULE[phase] if phase in RULE else "unit table"
        raise RuleViolation(rule, f"{len(able)} of the {len(same)} {what} of {run.power} in "
                                  f"{frm} may move now, not {count}" + (f": {why}" if why else ""))
    able.sort(key=lambda p: (-int(p.props.get("used", 0)), p.id))
    return able


def take(run: Run, able: list[Piece], count: int, need: int) -> list[Piece]:
    """``count`` of the units ``able`` with ``need`` movement left, those with least left
    first; the unit table's refusal when too few have it."""
    fit = [p for p in able if left(run.game, run.pos, p) >= need]
    if len(fit) < count:
        p = next(p for p in able if p not in fit)
        raise RuleViolation("unit table", f"{p.id} has {left(run.game, run.pos, p)} movement "
                                          f"left; the path needs {need}")
    return fit[:count]


def _stopped(run: Run, piece: Piece, phase: str) -> str:
    """Why a unit may not move at all now ('' when it may)."""
    game = run.game
    k = kind_of(game, piece.unit)
    if k == "facility":
        return "an industrial complex never moves"
    if piece.props.get("aboard") and k == "land":
        if phase == NONCOMBAT and "moved" in piece.flags:
            return "it moved by sea in combat movement (④: only units that did not may move)"
        return ""
    if left(game, run.pos, piece) <= 0:
        return "no movement left"
    if "retreated" in piece.flags:
        return "it retreated this turn"
    if phase == COMBAT:
        if k == "land" and piece.props.get("aboard") is None and "moved" in piece.flags:
            return "it made its combat move"
        if k == "land" and not can_attack(game, piece.unit):
            return f"a {piece.unit} never attacks (unit table: attack -)"
        if k == "air" and "moved" in piece.flags:
            return "it made its combat move"
        if k == "sea" and ("unloaded" in piece.flags or "fought" in piece.flags):
            return "it unloaded or fought this turn"
        if piece.props.get("aboard") and k == "air" and piece.side != run.power:
            return "an ally's fighter moves in its own turn"
        return ""
    if "moved" in piece.flags and not (k == "air" and "moved-nc" not in piece.flags):
        return "it moved in combat movement (④: only units that did not may move)"
    if k == "air" and "moved-nc" in piece.flags:
        return "it has landed"
    if k == "sea" and "unloaded" in piece.flags:
        return "the transport unloaded this turn"
    return ""


def plan_move(run: Run, frm: str, to: str, what: str, count: int, via: list[str],
              phase: str) -> Plan:
    """Check a move (the rules of ② or ④); the plan to apply."""
    able = movers(run, frm, what, count, phase)
    first = able[0]
    k = kind_of(run.game, first.unit)
    if k == "land" and first.props.get("aboard"):
        return _unload(run, able[:count], frm, to, via, phase)
    if k == "land" and sea(run.game, to):
        return _load(run, able[:count], frm, to, via, phase)
    if k == "land":
        plan = _land(run, able, frm, to, via, phase)
    elif k == "sea":
        plan = _ship(run, able, frm, to, via, phase)
    else:
        plan = _air(run, able, frm, to, via, phase)
    plan.pieces = take(run, able, count, len(plan.path) - 1)
    if k == "air":
        _air_landing(run, plan, phase)
    if k == "land":
        _one_aa_gun(run, plan.pieces, to)
    return plan


def _typed_path(run: Run, adj, frm: str, to: str, via: list[str], rule: str) -> list[str]:
    path = [frm, *via, to]
    for a, b in zip(path, path[1:], strict=False):
        if b not in adj[a]:
            raise RuleViolation(rule, f"{a} and {b} are not next to each other for this move")
    return path


# --- land -------------------------------------------------------------------------------


def land_paths(run: Run, frm: str, most: int, unit_type: str, phase: str
               ) -> dict[str, list[list[str]]]:
    """Every end a land unit may reach from ``frm`` in at most ``most`` territories, with
    the paths that differ in what they blitz (②): the shortest of each, the one blitzing
    least first (the default way)."""
    game = run.game
    adj = land_adj(game)
    best: dict[tuple[str, tuple[str, ...]], list[str]] = {}

    def walk(path: list[str], blitzed: tuple[str, ...]) -> None:
        here = path[-1]
        if len(path) > 1:
            key = (here, blitzed)
            if _land_end(run, here, phase) is None and (
                    key not in best or len(path) < len(best[key])):
                best[key] = list(path)
            if len(path) - 1 >= most:
                return
            step = _land_pass(run, here, unit_type, phase)
            if step is None:
                return
            if step == "blitz":
                blitzed = (*blitzed, here)
        for nxt in adj[here]:
            if nxt not in path:
                walk([*path, nxt], blitzed)

    walk([frm], ())
    out: dict[str, list[list[str]]] = {}
    for (dest, _blitzed), path in sorted(best.items(), key=lambda kv: (
            len(kv[1]), len(kv[0][1]), kv[1])):
        out.setdefault(dest, []).append(path)
    return out


def _land_pass(run: Run, space: str, unit_type: str, phase: str) -> str | None:
    """How a land unit passes ``space``: 'pass', 'blitz' (②, armor through an empty enemy
    territory) or None (it cannot)."""
    game, pos, power = run.game, run.pos, run.power
    if neutral(game, space) or has_enemy(game, pos, space, power):
        return None
    if friendly_land(game, pos, space, power):
        return "pass"
    if phase == COMBAT and unit_type in const(game, "blitz-units"):
        return "blitz"
    return None


def _land_end(run: Run, space: str, phase: str) -> str | None:
    """Why a land unit may not end its move in ``space`` now (None: it may)."""
    game, pos, power = run.game, run.pos, run.power
    if neutral(game, space):
        return f"{space} is neutral (constant neutral-territories-closed)"
    enemy_here = has_enemy(game, pos, space, power)
    if phase == COMBAT:
        if enemy_here or enemy_land(game, pos, space, power):
            return None
        return (f"{space} holds no enemy and is not enemy-controlled: a move there is a "
                "non-combat move (④)")
    if enemy_here:
        return f"{space} holds enemy units"
    if enemy_land(game, pos, space, power):
        return f"{space} is enemy-controlled"
    return None


def _land(run: Run, pieces: list[Piece], frm: str, to: str, via: list[str], phase: str) -> Plan:
    game = run.game
    rule = RULE[phase]
    unit_type = pieces[0].unit
    if any(p.unit != unit_type for p in pieces):
        raise BadInput("a move takes units of one type")
    if via:
        path = _typed_path(run, land_adj(game), frm, to, via, rule)
        blitzed = []
        for space in path[1:-1]:
            step = _land_pass(run, space, unit_type, phase)
            if step is None:
                who = ", ".join(const(game, "blitz-units"))
                raise RuleViolation(rule, f"{unit_type} cannot pass {space} (enemy units, "
                                          f"neutral, or enemy-controlled: only {who} may blitz "
                                          "through an empty enemy territory in ②)")
            if step == "blitz":
                blitzed.append(space)
    else:
        options = land_paths(run, frm, max(left(game, run.pos, p) for p in pieces), unit_type,
                             phase).get(to)
        if not options:
            problem = _land_end(run, to, phase)
            if problem is not None:
                raise RuleViolation(rule, problem)
            raise RuleViolation(rule, f"no legal path for {unit_type} from {frm} to {to} within "
                                      "its movement")
        path = options[0]
        blitzed = [s for s in path[1:-1] if not friendly_land(game, run.pos, s, run.power)]
    problem = _land_end(run, to, phase)
    if problem is not None:
        raise RuleViolation(rule, problem)
    return Plan("land", pieces, path, blitzed)


def _one_aa_gun(run: Run, pieces: list[Piece], to: str) -> None:
    """At most one AA gun in a territory (⑤ L112, I16; constant max-aa-guns-per-territory)."""
    game = run.game
    guns = [p for p in pieces if has_tag(game, p.unit, "aa-fire")]
    if not guns:
        return
    there = sum(1 for p in at(run.pos, to) if has_tag(game, p.unit, "aa-fire"))
    most = int(const(game, "max-aa-guns-per-territory"))
    if there + len(guns) > most:
        raise RuleViolation("⑤", f"{to} would hold {there + len(guns)} AA guns: at most {most} "
                                 "a territory")


# --- transports --------------------------------------------------------------------------


def transports_with_room(run: Run, zone: str, need: int) -> list[Piece]:
    return [p for p in at(run.pos, zone) if p.unit == "transport" and p.side == run.power
            and room_on(run.game, run.pos, p) >= need]


def _load(run: Run, pieces: list[Piece], frm: str, to: str, via: list[str], phase: str) -> Plan:
    game = run.game
    rule = RULE[phase]
    if via or to not in coast_adj(game)[frm]:
        raise RuleViolation(rule, f"land units load onto a transport in a sea zone next to their "
                                  f"territory; {to} is not next to {frm}")
    if has_enemy(game, run.pos, to, run.power):
        raise RuleViolation(rule, f"{to} holds enemy units: no loading there (constant "
                                  "transport-loading, assumed)")
    moved = [p for p in pieces if int(p.props.get("used", 0)) > 0 or "moved" in p.flags]
    if moved:
        raise RuleViolation(rule, f"{moved[0].id} moved this turn: a land unit loads before it "
                                  "moves (constant transport-loading, assumed)")
    holder: dict[str, str] = {}
    room = {t.id: room_on(game, run.pos, t) for t in at(run.pos, to)
            if t.unit == "transport" and t.side == run.power and "unloaded" not in t.flags}
    for p in pieces:
        need = slots(game, p.unit)
        choice = next((t for t in sorted(room, key=lambda t: (-_load_of(room, t), t))
                       if room[t] >= need), None)
        if choice is None:
            cap = const(game, "transport-capacity")
            raise RuleViolation(rule, f"no transport of {run.power} in {to} has room for "
                                      f"{p.unit} (a transport holds {cap} slots: "
                                      f"{_slots_text(game)}; constant transport-capacity)")
        room[choice] -= need
        holder[p.id] = choice
    return Plan("load", pieces, [frm, to], holder=holder)


def _load_of(room: dict[str, int], t: str) -> int:
    return -room[t]


def _slots_text(game: Game) -> str:
    return ", ".join(f"{t} {n}" for t, n in dict(const(game, "transport-slots")).items())


def _unload(run: Run, pieces: list[Piece], frm: str, to: str, via: list[str], phase: str
            ) -> Plan:
    game, pos, power = run.game, run.pos, run.power
    rule = RULE[phase]
    if via or to not in coast_adj(game)[frm] or sea(game, to):
        raise RuleViolation(rule, f"cargo unloads onto a territory next to its sea zone; {to} "
                                  f"is not next to {frm}")
    if has_enemy(game, pos, frm, power):
        raise RuleViolation(rule, f"{frm} holds enemy units: a transport unloads only in a sea "
                                  "zone free of them (constant amphibious-assault, assumed)")
    for p in pieces:
        holder = next(t for t in at(pos, frm) if t.id == p.props.get("aboard"))
        if phase == NONCOMBAT and "moved" in p.flags:
            raise RuleViolation(rule, f"{p.id} moved by sea in combat movement and cannot move "
                                      "now (④: only units that did not may move)")
        if phase == NONCOMBAT and "moved" in holder.flags:
            raise RuleViolation(rule, f"{holder.id} moved in combat movement: its cargo stays "
                                      "aboard (④)")
    if neutral(game, to):
        raise RuleViolation(rule, f"{to} is neutral (constant neutral-territories-closed)")
    if phase == COMBAT and not (enemy_land(game, pos, to, power)
                                or has_enemy(game, pos, to, power)):
        raise RuleViolation(rule, f"{to} is friendly: unloading there is a non-combat move (④)")
    if phase == NONCOMBAT:
        problem = _land_end(run, to, phase)
        if problem:
            raise RuleViolation(rule, problem)
    _one_aa_gun(run, pieces, to)
    return Plan("unload", pieces, [frm, to])


# --- ships -------------------------------------------------------------------------------


def ship_paths(run: Run, piece: Piece, frm: str, phase: str) -> dict[str, list[str]]:
    """Every sea zone a ship may end its move in, with the shortest path."""
    game, pos, power = run.game, run.pos, run.power
    reach = bfs(frm, sea_adj(game), left(game, pos, piece),
                lambda z: not has_enemy(game, pos, z, power))
    return {z: path for z, path in reach.items()
            if z != frm and _ship_end(run, piece, z, phase) is None}


def _ship_end(run: Run, piece: Piece, zone: str, phase: str) -> str | None:
    game, pos, power = run.game, run.pos, run.power
    enemy_here = has_enemy(game, pos, zone, power)
    if phase == NONCOMBAT:
        return f"{zone} holds enemy units" if enemy_here else None
    if enemy_here:
        return None
    if piece.unit in const(game, "combat-move-to-clear-sea"):
        return None
    return (f"{zone} holds no enemy units: a {piece.unit} moves there in ④ (in ② only "
            f"{', '.join(const(game, 'combat-move-to-clear-sea'))} end in a sea zone free of "
            "enemies: constant combat-move-to-clear-sea, assumed)")


def _ship(run: Run, pieces: list[Piece], frm: str, to: str, via: list[str], phase: str) -> Plan:
    game, pos, power = run.game, run.pos, run.power
    rule = RULE[phase]
    if has_enemy(game, pos, frm, power):
        raise RuleViolation(rule, f"{frm} holds enemy units: its battle comes first (③)")
    if via:
        path = _typed_path(run, sea_adj(game), frm, to, via, rule)
        for z in path[1:-1]:
            if has_enemy(game, pos, z, power):
                raise RuleViolation(rule, f"ships cannot pass {z}: it holds enemy units")
    else:
        path = ship_paths(run, pieces[0], frm, phase).get(to) or []
        if not path:
            problem = _ship_end(run, pieces[0], to, phase) if sea(game, to) else (
                f"{to} is no sea zone")
            raise RuleViolation(rule, problem or f"no path by sea from {frm} to {to} within its "
                                                 "movement, clear of enemy units")
    problem = _ship_end(run, pieces[0], to, phase)
    if problem:
        raise RuleViolation(rule, problem)
    return Plan("sea", pieces, path)


# --- aircraft ------------------------------------------------------------------------------


def air_reach(run: Run, frm: str, most: int) -> dict[str, list[str]]:
    """Every space an aircraft reaches from ``frm`` in ``most`` spaces, over land and sea
    but not over a neutral territory (constant neutral-territories-closed)."""
    game = run.game
    reach = bfs(frm, air_adj(game), most, lambda s: not neutral(game, s))
    return {s: p for s, p in reach.items() if not neutral(game, s)}


def landing_spot(run: Run, piece: Piece, space: str, fought_in: str | None = None) -> str | None:
    """Why an aircraft may not land in ``space`` (None: it may): a friendly territory not
    captured this turn, or (fighters) a sea zone with a friendly carrier with room; never
    where enemy units are, nor where it fought (④, I11, E7)."""
    game, pos, power = run.game, run.pos, run.power
    if space == fought_in:
        return f"it fought in {space} and must leave it (④)"
    if has_enemy(game, pos, space, power):
        return f"{space} holds enemy units"
    if sea(game, space):
        if piece.unit not in const(game, "carrier-landing-units"):
            return f"a {piece.unit} cannot land at sea"
        room = sum(room_on(game, pos, c) for c in at(pos, space)
                   if c.unit == "carrier" and not enemies(game, power, c.side))
        mine = sum(1 for f in at(pos, space) if f.unit in const(game, "carrier-landing-units")
                   and not f.props.get("aboard") and f.side == power and f.id != piece.id)
        if room - mine <= 0:
            return f"no friendly carrier with room in {space}"
        return None
    if not friendly_land(game, pos, space, power):
        return f"{space} is not friendly"
    if space in captured(pos):
        return f"{space} was captured this turn (④: no landing there)"
    return None


def can_land_from(run: Run, piece: Piece, space: str, most: int) -> bool:
    """Whether an aircraft in ``space`` can reach a landing place within ``most``."""
    for spot in air_reach(run, space, most):
        if spot != space and landing_spot(run, piece, spot) is None:
            return True
    return False


def air_ends(run: Run, piece: Piece, frm: str, phase: str) -> dict[str, list[str]]:
    """Every space an aircraft may end its move in now, with the shortest path."""
    most = left(run.game, run.pos, piece)
    out = {}
    for space, path in air_reach(run, frm, most).items():
        if space == frm:
            continue
        if phase == COMBAT:
            if air_combat_problem(run, piece, space, len(path) - 1) is None:
                out[space] = path
        elif landing_spot(run, piece, space) is None:
            out[space] = path
    return out


def air_combat_problem(run: Run, piece: Piece, to: str, d: int) -> str | None:
    """Why an aircraft may not make a combat move of ``d`` spaces to ``to`` (None: it may):
    a battle there (constant air-combat-move-needs-enemy), and a landing place within the
    movement it would have left (constant air-landing-planned)."""
    game = run.game
    if flag(game, "air-combat-move-needs-enemy") and not has_enemy(game, run.pos, to,
                                                                   run.power):
        return (f"{to} holds no enemy units: aircraft make combat moves only into battles "
                "(constant air-combat-move-needs-enemy, assumed)")
    rest = left(game, run.pos, piece) - d
    if flag(game, "air-landing-planned") and not can_land_from(run, piece, to, rest):
        return (f"{piece.id} could not land after a battle in {to}: no friendly territory or "
                f"carrier within the {rest} movement it would have left (constant "
                "air-landing-planned, assumed)")
    return None


def _air(run: Run, pieces: list[Piece], frm: str, to: str, via: list[str], phase: str) -> Plan:
    game, pos = run.game, run.pos
    rule = RULE[phase]
    if via:
        path = _typed_path(run, air_adj(game), frm, to, via, rule)
        for s in path[1:]:
            if neutral(game, s):
                raise RuleViolation(rule, f"aircraft do not fly over {s}: it is neutral "
                                          "(constant neutral-territories-closed)")
    else:
        path = air_reach(run, frm, max(left(game, pos, p) for p in pieces)).get(to) or []
        if not path:
            raise RuleViolation("unit table", f"{to} is beyond the movement left of the "
                                              f"{pieces[0].unit}")
    return Plan("air", pieces, path)


def _air_landing(run: Run, plan: Plan, phase: str) -> None:
    """② a landing planned (constants air-combat-move-needs-enemy, air-landing-planned);
    ④ a landing place (I11)."""
    rule = RULE[phase]
    to, frm = plan.end, plan.path[0]
    d = len(plan.path) - 1
    for p in plan.pieces:
        if phase == COMBAT:
            problem = air_combat_problem(run, p, to, d)
            if problem:
                raise RuleViolation(rule, problem)
        else:
            fought = frm if "fought" in p.flags else None
            problem = landing_spot(run, p, to, fought)
            if problem:
                raise RuleViolation(rule, problem)


# --- applying a move ---------------------------------------------------------------------


def apply_move(run: Run, plan: Plan, phase: str) -> list[str]:
    """Carry out a checked move; the territories it took (a blitz, an empty enemy
    territory entered or stormed from the sea)."""
    took: list[str] = []
    flag = "moved" if phase == COMBAT else "moved-nc"
    d = len(plan.path) - 1
    changed: list[Piece] = []
    if plan.kind == "land":
        for p in plan.pieces:
            changed.append(evolve_piece(p, place=plan.end, add=[flag],
                                        props={"used": int(p.props.get("used", 0)) + d,
                                               "from": plan.path[-2]}))
        run.put(changed)
        for space in plan.blitzed:
            took += capture(run, space, "blitz")
        if phase == COMBAT and not has_enemy(run.game, run.pos, plan.end, run.power) and \
                enemy_land(run.game, run.pos, plan.end, run.power):
            took += capture(run, plan.end, "entered")
    elif plan.kind == "load":
        for p in plan.pieces:
            changed.append(evolve_piece(p, place=plan.end, add=[flag],
                                        props={"aboard": plan.holder[p.id]}))
        run.put(changed)
    elif plan.kind == "unload":
        took += _apply_unload(run, plan, phase)
    elif plan.kind == "sea":
        _apply_ship(run, plan, phase)
    else:
        for p in plan.pieces:
            changed.append(evolve_piece(p, place=plan.end, add=[flag],
                                        props={"used": int(p.props.get("used", 0)) + d,
                                               "from": plan.path[-2], "aboard": None}))
        run.put(changed)
        if phase == NONCOMBAT and sea(run.game, plan.end):
            run.pos = board_carriers(run.game, run.pos, [plan.end])
    return took


def _apply_unload(run: Run, plan: Plan, phase: str) -> list[str]:
    game = run.game
    zone, land = plan.path
    holders = {p.props.get("aboard") for p in plan.pieces}
    add = ["moved", "amphibious"] if phase == COMBAT else ["moved-nc"]
    changed = [evolve_piece(p, place=land, add=add,
                            props={"aboard": None, "from": zone,
                                   "used": int(unit_row(game, p.unit)["move"] or 0)})
               for p in plan.pieces]
    changed += [evolve_piece(t, add=["unloaded"]) for t in at(run.pos, zone) if t.id in holders]
    run.put(changed)
    if phase != COMBAT:
        return []
    if has_enemy(game, run.pos, land, run.power):
        assaults = {k: list(v) for k, v in (run.data("assaults") or {}).items()}
        if zone not in assaults.setdefault(land, []):
            assaults[land].append(zone)
        run.set(assaults=assaults)
        return []
    return capture(run, land, "stormed from the sea")


def _apply_ship(run: Run, plan: Plan, phase: str) -> None:
    d = len(plan.path) - 1
    flag = "moved" if phase == COMBAT else "moved-nc"
    changed = []
    for ship in plan.pieces:
        changed.append(evolve_piece(ship, place=plan.end, add=[flag],
                                    props={"used": int(ship.props.get("used", 0)) + d,
                                           "from": plan.path[-2]}))
        for c in cargo_of(run.pos, ship):
            # what is aboard goes along: land units, and the fighters on the deck (a fighter
            # that flew off is aboard nothing); the power's own are moved in this phase
            add = ["carried"] + ([flag] if c.side == run.power else [])
            changed.append(evolve_piece(c, place=plan.end, add=add,
                                        props={"from": plan.path[-2]}))
    run.put(changed)


def capture(run: Run, territory: str, how: str) -> list[str]:
    """The power takes ``territory``: control (an ally's own territory goes back to it,
    constant liberation), its factory, the list of territories captured this turn (no
    landing and no production there, ④ ⑤)."""
    game = run.game
    printed = start_control(game).get(territory)
    owner = run.power
    if printed not in (None, NEUTRAL, run.power) and not enemies(game, printed, run.power) \
            and const(game, "liberation") == "printed-owner":
        owner = printed
    before = run.pos.control.get(territory)
    run.pos = run.pos.with_control({territory: owner})
    factory = factory_at(run.pos, territory)
    if factory is not None:
        run.put([evolve_piece(factory, side=owner)])
    run.set(captured=[*captured(run.pos), territory])
    back = f" and gives it back to {owner}" if owner != run.power else ""
    run.say(f"{run.power} takes {territory} from {before} ({how}){back}",
            "② combat movement" if how != "battle" else "③ combat")
    return [territory]

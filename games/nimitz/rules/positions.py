"""Nimitz in the engine's :class:`~warpress.engine.position.Position`: where everything is,
the set-up of a campaign, and :class:`Run`, a command's working copy of a position.

Where everything is in a position:

* ``pieces``: every unit counter. On the campaign map: kind ``point``, place the point's id;
  in a box (the US and Japanese reinforcement boxes, the battalion box, the return-to-port
  boxes, the commerce-raiding, BW strategic-bombing and Japan-invasion boxes): kind ``box``,
  place the box's id (displays.yaml); removed from the game: kind ``eliminated``, step 0.
  ``step`` is 2 at full strength, 1 damaged (2.5.2). A Japanese counter's place in its
  stack is ``props.order`` (the top first, 3.3); the carrier aircraft of a battle are pieces
  of kind ``area`` (place ``battle``) that exist only while it lasts (2.7.1, 10.22.1).
* flags: ``moved`` (a US unit that moved this turn, 8.1), ``complete`` and ``moving`` (the
  Japanese move-complete and moving markers, 9.0, 7.2), ``transport`` (a ground unit that
  came by transport this turn, 8.3, 9.1), ``raider`` (a submarine sent raiding this turn,
  8.4).
* ``turn`` (1..the campaign's turns), ``phase`` (a sequence id), ``side`` (who acts),
  ``tracks`` (the campaign turn marker), ``pending`` (the US decision due).
* ``data``: the campaign, the US points (RP, SP), the Japanese supply markers, the bonus
  cup, the objectives held at each turn's end (the player log), the battle going on and
  the events of this turn and the last (what the player was told).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from warpress.engine.dice import Dice
from warpress.engine.errors import BadInput
from warpress.engine.inputs import quote
from warpress.engine.model import FrozenDict, Game, Unit
from warpress.engine.position import Pending, Piece, Position, freeze, thaw
from warpress.engine.referee import Announcement

from .common import campaign_map, const, extra, is_carrier, is_escort, table_row

US, JAPAN = "us", "japan"
SIDES = (US, JAPAN)
FULL, DAMAGED = 2, 1
#: the Japanese reinforcement box's stacks, by type (3.3, 11.1, 11.2)
JP_BOX = {"ship": "japanese-reinforcement-ships", "ground": "japanese-reinforcement-infantry",
          "air": "japanese-reinforcement-land-air"}
BATTALION_BOX = "battalion-box"
US_BOX = "us-reinforcements"
RAIDING, BOMBING, INVASION = "commerce-raiding", "bw-strategic-bombing", "japan-invasion"
#: the turn marker's track (tracks.yaml)
TURN_TRACK = "campaign-turn"
LINKED = "linked"


T = TypeVar("T")


def per_game(fn: Callable[..., T]) -> Callable[..., T]:
    """``fn(game, *args)`` worked out once per loaded game and arguments (a game is read
    only, and far too big to hash)."""
    cache: dict[tuple, tuple[Game, T]] = {}

    def cached(game: Game, *args: Any) -> T:
        key = (id(game), *args)
        hit = cache.get(key)
        if hit is None or hit[0] is not game:
            hit = cache[key] = (game, fn(game, *args))
        return hit[1]

    cached.__doc__ = fn.__doc__
    return cached


# --- what a unit is ------------------------------------------------------------------------


@dataclass(frozen=True)
class Kind:
    """What a unit is, as the rules sort units (2.6-2.8)."""

    unit: Unit
    ship: bool
    carrier: bool
    escort: bool
    sub: bool
    aircraft: bool
    bomber: bool
    land_air: bool
    carrier_air: bool
    ground: bool
    battalion: bool
    marine: bool
    australian: bool
    bw: bool

    @property
    def stack(self) -> str:
        """The type a Japanese stack sorts it by: ship, ground or air (3.3)."""
        return "ship" if self.ship else "ground" if self.ground else "air"

    def cost_hit(self, game: Game) -> int:
        """Hit-allocation cost: carriers 1 (2.6.3, 10.10.2)."""
        if self.carrier:
            return int(const(game, "carrier-hit-cost"))
        return int(self.unit.stats.get("cost_hit") or 0)

    @property
    def cost_buy(self) -> int:
        """Purchase and repair cost: a carrier's right value (2.6.3)."""
        return int(self.unit.stats.get("cost_buy") or 0)


@per_game
def _kinds(game: Game) -> dict[str, Kind]:
    out = {}
    for u in game.units:
        aircraft = u.type in ("fighter", "bomber")
        carrier_air = aircraft and "carrier-based" in u.tags
        ship = u.type in ("CV", "CVL", "CVE", "BB", "CA", "CL", "DD", "SS")
        out[u.id] = Kind(u, ship, is_carrier(u), is_escort(u), u.type == "SS", aircraft,
                         u.type == "bomber", aircraft and not carrier_air, carrier_air,
                         u.type in ("infantry", "battalion"), u.type == "battalion",
                         "marine" in u.tags, "australian" in u.tags,
                         "strategic-bomber" in u.tags)
    return out


def kind(game: Game, piece: Piece | str) -> Kind:
    """The kind of a piece's unit (or of a unit id)."""
    unit_id = piece if isinstance(piece, str) else piece.unit
    return _kinds(game)[unit_id]


def name(game: Game, piece: Piece) -> str:
    """A piece as the player reads it: its unit's name, and its number when there are
    several counters (``Japanese battalion #3``)."""
    label = kind(game, piece).unit.name or piece.unit
    carrier, colon, rest = piece.id.partition(":")
    if colon:
        ship = next((u.name for u in game.units if u.id == carrier), carrier)
        return f"{ship}'s {label} #{rest.partition('#')[2]}"
    _, sep, number = piece.id.partition("#")
    return f"{label} #{number}" if sep else label


@per_game
def point_ids(game: Game) -> tuple[str, ...]:
    """The campaign map's points, in map order."""
    return tuple(p.id for p in campaign_map(game).points)


@per_game
def _point_names(game: Game) -> dict[str, str]:
    return {p.id: p.name or p.id for p in campaign_map(game).points}


def point_name(game: Game, point: str) -> str:
    """A point's name (``Midway``); a box's id as it is."""
    return _point_names(game).get(point, point)


def campaign(game: Game, campaign_id: str):
    return extra(game, "campaigns", campaign_id)


def special(game: Game, campaign_id: str) -> tuple[str, ...]:
    """The special rules (12.x) of a campaign."""
    return tuple(str(r) for r in campaign(game, campaign_id).get("special_rules") or ())


def turn_values(game: Game, campaign_id: str) -> tuple[str, ...]:
    """The turn track's boxes a campaign plays, the Start box left out (5.0, 12.5)."""
    values = [str(v) for v in game.get("tracks", TURN_TRACK).values]
    last = str(campaign(game, campaign_id).get("last_turn"))
    return tuple(values[1: values.index(last) + 1])


# --- a command's working position -----------------------------------------------------------


@dataclass
class Run:
    """A position as a command changes it, and what the player is told."""

    game: Game
    pos: Position
    said: list[Announcement] = field(default_factory=list)
    pieces: dict[str, Piece] = field(default_factory=dict)
    data: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.pieces = {p.id: p for p in self.pos.pieces}
        self.data = thaw(self.pos.data)

    # -- reading

    def piece(self, piece_id: str) -> Piece:
        found = self.pieces.get(piece_id)
        if found is None:
            raise BadInput(f"no unit {quote(piece_id)} in this game (see `warpress play "
                           "status`)")
        return found

    def at(self, point: str, side: str | None = None, kind_: str = "point") -> list[Piece]:
        """The pieces at a point (or in a box, ``kind_="box"``), a Japanese stack's top first."""
        found = [p for p in self.pieces.values() if p.kind == kind_ and p.place == point
                 and (side is None or p.side == side)]
        if side != JAPAN:
            return found
        rank = {"ship": 0, "ground": 1, "air": 2}
        return sorted(found, key=lambda p: (rank[kind(self.game, p).stack],
                                            p.props.get("order", 0), p.id))

    def of(self, side: str, kind_: str = "point") -> list[Piece]:
        return [p for p in self.pieces.values() if p.side == side and p.kind == kind_]

    def points_with(self, side: str, test=lambda k: True) -> set[str]:
        """Points holding a piece of ``side`` whose kind passes ``test``."""
        return {str(p.place) for p in self.of(side) if test(kind(self.game, p))}

    @property
    def campaign(self) -> str:
        return str(self.data["campaign"])

    # -- changing

    def put(self, piece: Piece) -> None:
        self.pieces[piece.id] = piece

    def place(self, piece_id: str, kind_: str, place: str | None, order: int | None = None,
              **flags: bool) -> Piece:
        """Move a piece; ``flags`` set (True) or clear (False) flags on the way."""
        p = self.piece(piece_id)
        add = {f for f, on in flags.items() if on}
        drop = {f for f, on in flags.items() if not on}
        props = dict(p.props)
        if order is not None:
            props["order"] = order
        moved = replace(p, kind=kind_, place=place, flags=(p.flags | add) - drop,
                        props=FrozenDict(props))
        self.put(moved)
        return moved

    def flag(self, piece_id: str, *add: str, drop: Iterable[str] = ()) -> None:
        self.put(self.piece(piece_id).flagged(*add, drop=drop))

    def step_to(self, piece_id: str, step: int) -> None:
        self.put(replace(self.piece(piece_id), step=step))

    def remove(self, piece_id: str) -> None:
        del self.pieces[piece_id]

    def bottom(self, place: str, kind_: str = "point") -> int:
        """The order that puts a Japanese counter under every one at ``place``."""
        orders = [int(p.props.get("order", 0)) for p in self.at(place, JAPAN, kind_)]
        return max(orders, default=0) + 1

    def say(self, text: str, *rules: str, **data: Any) -> None:
        self.said.append(Announcement(self.pos.turn, self.pos.phase or "", text, rules,
                                      FrozenDict({k: freeze(v) for k, v in data.items()})))

    def due(self, kind_: str, rules: tuple[str, ...], **data: Any) -> None:
        self.pos = replace(self.pos, pending=(Pending(kind_, US, rules, freeze(data)),),
                           side=US)

    def clear_due(self) -> None:
        self.pos = replace(self.pos, pending=())

    def phase(self, phase_id: str, side: str | None = None) -> None:
        self.pos = replace(self.pos, phase=phase_id, side=side or self.pos.side)

    def position(self) -> Position:
        """The position as it stands: pieces in their first order, new ones after."""
        order = [p.id for p in self.pos.pieces if p.id in self.pieces]
        seen = set(order)
        order += [pid for pid in self.pieces if pid not in seen]
        return replace(self.pos, pieces=tuple(self.pieces[pid] for pid in order),
                       data=FrozenDict({k: freeze(v) for k, v in self.data.items()}))


# --- the set-up (3.0-3.4) ---------------------------------------------------------------------


def shuffled(items: list, dice: Dice, name: str = "shuffle") -> list:
    """``items`` in a random order (Fisher-Yates, one die per swap)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = dice.roll(f"d{i + 1}", name) - 1
        out[i], out[j] = out[j], out[i]
    return out


def restack(run: Run, place: str, dice: Dice, kind_: str = "point") -> None:
    """The Japanese units at ``place`` shuffled by type into new stacks (3.3, 10.22, 11.5)."""
    by_type: dict[str, list[str]] = {}
    for p in run.at(place, JAPAN, kind_):
        by_type.setdefault(kind(run.game, p).stack, []).append(p.id)
    for ids in by_type.values():
        for n, pid in enumerate(shuffled(sorted(ids), dice), 1):
            run.place(pid, kind_, place, order=n)


def placements(game: Game, campaign_id: str) -> list[tuple[str, str, int, str]]:
    """(setup record, unit, count, where) of a campaign's initial placement, in data order;
    carrier complements (``per``) left out."""
    out = []
    for record in game.setup:
        if str(record.scenario) != campaign_id:
            continue
        for p in record.place:
            if p.unit and not p.per:
                out.append((record.id, p.unit, int(p.count or 1), str(p.where)))
    return out


def complement(game: Game, campaign_id: str, carrier: str) -> list[tuple[str, int]]:
    """A carrier's aircraft by type (10.1.3, 10.2.5), from its campaign's set-up."""
    out = []
    for record in game.setup:
        if str(record.scenario) != campaign_id:
            continue
        out += [(p.unit, int(p.count or 1)) for p in record.place if p.per == carrier and p.unit]
    return out


def assumed_setup(game: Game, campaign_id: str) -> list[str]:
    """The set-up records of a campaign that the rule text does not give (source: assumed)."""
    return [r.id for r in game.setup if str(r.scenario) == campaign_id and r.is_assumed]


def _where(game: Game, where: str) -> tuple[str, str]:
    if where in point_ids(game):
        return "point", where
    return "box", where


def new_pieces(game: Game, campaign_id: str) -> list[Piece]:
    """Every counter of a campaign's set-up at its place, full strength (2.5.2); the
    Japanese battalions not placed in the battalion box (2.8.4, 3.3)."""
    numbered = {u.id: (u.count or 1) > 1 for u in game.units}
    used: dict[str, int] = {}
    out = []
    for _record, unit_id, count, where in placements(game, campaign_id):
        kind_, place = _where(game, where)
        side = kind(game, unit_id).unit.side
        for _ in range(count):
            used[unit_id] = used.get(unit_id, 0) + 1
            pid = f"{unit_id}#{used[unit_id]}" if numbered[unit_id] else unit_id
            out.append(Piece(pid, unit_id, side, kind_, place, FULL))
    for u in game.units:
        if kind(game, u.id).battalion and u.side == JAPAN:
            for n in range(used.get(u.id, 0) + 1, (u.count or 1) + 1):
                out.append(Piece(f"{u.id}#{n}", u.id, JAPAN, "box", BATTALION_BOX, FULL))
    return out


def setup_run(game: Game, campaign_id: str, dice: Dice, base: Position) -> Run:
    """A run holding ``campaign_id`` set up (3.1-3.4): its counters in place, the Japanese
    stacks shuffled by type, the bonus cup filled, the turn marker on Start."""
    pieces = new_pieces(game, campaign_id)
    pos = replace(base, pieces=tuple(pieces), turn=0, phase="advance-turn-marker", side=US,
                  tracks=FrozenDict({TURN_TRACK: "start"}), pending=())
    run = Run(game, pos)
    cup = marker_ids(game, JAPAN)
    run.data.update(campaign=campaign_id, rp=0, sp=0, jp_supply=0, held=[], cup=cup,
                    cup_used=[], battle=None, battles=[], recon=[], us_start=[],
                    raiders=0, invaded=0, events=run.data.get("events", []))
    places = {(p.kind, p.place) for p in run.pieces.values() if p.side == JAPAN}
    for kind_, place in sorted(places, key=str):
        restack(run, str(place), dice, kind_)
    return run


def marker_ids(game: Game, side: str) -> list[str]:
    """The bonus markers of a side, as the bonus-marker table names them (10.5, 10.7)."""
    table = game.table("bonus-marker")
    return [str(v) for v in table.key("bonus").values
            if _exists(game, side, str(v))]


@per_game
def _bonus_row(game: Game, side: str, bonus: str) -> Mapping[str, Any]:
    return table_row(game, "bonus-marker", side=side, bonus=bonus)


def bonus_row(game: Game, side: str, bonus: str) -> Mapping[str, Any]:
    """A bonus marker's row (cost, effect) of the bonus-marker table."""
    return _bonus_row(game, side, bonus)


def _exists(game: Game, side: str, bonus: str) -> bool:
    return bool(_bonus_row(game, side, bonus)["exists"])

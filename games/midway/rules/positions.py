"""Midway in the engine's :class:`~warpress.engine.position.Position`, and back to the
folder's own :class:`~.area.CarrierArea` its procedures work on.

Where everything is in a position:

* ``pieces``: every aircraft unit (its ``id`` the unit's, ``unit`` its type, ``step`` its
  steps): in a box of a carrier-area display (kind ``box``, place ``DISPLAY/BOX``), in the
  combat area (kind ``hex``, place the hex; ``props`` ``group`` and ``launched``, 8.4) or
  out of play (kind ``eliminated``, 0 steps); ``props`` ``home`` (``carrier`` or
  ``land``, 9.5(3)) and ``carrier`` (the carrier it starts on, 3.1(2), 3.2(2)); the three
  fleet units (kind ``hex``; the 1st Air Fleet ``off-map`` before it enters, the
  Invasion Force on the turn track (kind ``track``, place ``turn-4``) until it enters and
  ``eliminated`` once destroyed, the US fleet ``off-map`` until its start hex is
  revealed, 3.2(1)); the damage markers (kind ``box`` on a deck or runway box, flag
  ``sunk`` once flipped, ``props`` ``holder``; ``off-map`` until used, 2.2(5));
* ``tracks``: ``aop-japan``, ``aop-us`` (7.3), ``invasion-force`` (3.3(3)), ``garrison``
  (3.3(4)), ``base-hits`` and ``base-hits-turn`` (9.6(2)(3));
* ``cards`` (event card ids, a deck's top card first): ``deck``, ``discard``,
  ``japan.hand``, ``us.hand``, ``removed`` (played events, out of the game);
* ``data``: the turn's bookkeeping (the base-attack declaration, the US plan, the air
  operation and the air attack going on, ...; see ``moves.py``).

:func:`to_area` and :func:`with_area` convert; the conversion is exact, so every rule the
folder's procedures apply holds in a session.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from warpress.engine.dice import Dice
from warpress.engine.model import FrozenDict, Game
from warpress.engine.position import Piece, Position, freeze

from . import area as A
from .area import Air, CarrierArea
from .common import air_displays, const, unit
from .setup import standard_start
from .solitaire import solitaire_cards, solitaire_start

#: the fleet units (units.yaml), by role
ICHIKOKAN, INVASION, US_FLEET = "ichikokan", "invasion-force", "tf16-17"
FLEETS = (ICHIKOKAN, INVASION, US_FLEET)
#: card piles
DECK, DISCARD, REMOVED = "deck", "discard", "removed"
DAMAGE = "damage"
#: the tracks a position keeps beside the turn
AOP = {"japan": "aop-japan", "us": "aop-us"}
GARRISON, INVASION_TRACK = "garrison", "invasion-force"
BASE_HITS, BASE_HITS_TURN = "base-hits", "base-hits-turn"
#: where the Invasion Force waits (3.1(1): box 4 of the turn track)
WAITING = "turn-4"


def hand(side: str) -> str:
    """The name of a side's hand of event cards."""
    return f"{side}.hand"


def pile(position: Position, name: str) -> tuple[str, ...]:
    return tuple(position.cards.get(name, ()))



def aircraft(game: Game, position: Position) -> tuple[Piece, ...]:
    """The aircraft pieces, in and out of play."""
    return tuple(p for p in position.pieces if p.unit != DAMAGE and p.unit not in FLEETS)


# --- position -> area -------------------------------------------------------------------


def _air(piece: Piece) -> Air | None:
    """The carrier-area unit of an aircraft piece in play (None out of play)."""
    home = str(piece.props.get("home", "carrier"))
    if piece.kind == "box":
        display_id, _, box_id = str(piece.place).partition("/")
        return Air(piece.id, piece.unit, piece.step, display_id, box_id, home)
    if piece.kind == "hex":
        return Air(piece.id, piece.unit, piece.step, A.COMBAT_AREA, str(piece.place), home,
                   group=piece.props.get("group"), launched=bool(piece.props.get("launched")))
    return None


def to_area(game: Game, position: Position) -> CarrierArea:
    """The carrier area of a position (see the module docstring)."""
    units = tuple(u for u in (_air(p) for p in aircraft(game, position)) if u is not None)
    damage, sunk = set(), set()
    for marker in position.pieces:
        if marker.unit == DAMAGE and marker.kind == "box":
            display_id, _, box_id = str(marker.place).partition("/")
            damage.add((display_id, box_id))
            if "sunk" in marker.flags:
                sunk.add(str(marker.props["holder"]))
    tracks = position.tracks
    return CarrierArea(units=units, damage=frozenset(damage), sunk=frozenset(sunk),
                       garrison=int(tracks[GARRISON]), invasion=int(tracks[INVASION_TRACK]),
                       base_hits=int(tracks[BASE_HITS]),
                       base_hits_turn=int(tracks[BASE_HITS_TURN]))


# --- area -> position -------------------------------------------------------------------


def _aircraft_piece(piece: Piece, air: Air | None) -> Piece:
    """An aircraft piece moved to where ``air`` is (out of play when None)."""
    props = {k: v for k, v in piece.props.items() if k not in ("group", "launched")}
    if air is None:
        return replace(piece, kind="eliminated", place=None, step=0, props=FrozenDict(props))
    if air.airborne:
        props.update(group=air.group, launched=air.launched)
        return replace(piece, kind="hex", place=air.box, step=air.steps,
                       props=FrozenDict(props))
    return replace(piece, kind="box", place=f"{air.display}/{air.box}", step=air.steps,
                   props=FrozenDict(props))


def _markers(game: Game, position: Position, area: CarrierArea) -> dict[str, Piece]:
    """The damage markers where ``area`` has damage: a marker stays on its box, a new
    damage takes the first marker still off the map; flipped when its carrier is sunk."""
    markers = [p for p in position.pieces if p.unit == DAMAGE]
    wanted = {f"{d}/{b}" for d, b in area.damage}
    for holder in sorted(area.sunk):  # a carrier sunk at set-up shows its flipped marker
        boxes = [f"{d}/{b.id}" for d, b in A.deck_boxes(game, holder)]
        if not wanted & set(boxes):
            wanted.add(boxes[0])
    out: dict[str, Piece] = {}
    free = []
    for marker in markers:
        if marker.kind == "box" and marker.place in wanted:
            out[marker.id] = marker
            wanted.discard(str(marker.place))
        else:
            free.append(marker)
    for place, marker in zip(sorted(wanted), free, strict=False):
        out[marker.id] = replace(marker, kind="box", place=place)
    for marker in free[len(wanted):]:
        out[marker.id] = replace(marker, kind="off-map", place=None, flags=frozenset(),
                                 props=FrozenDict())
    for key, marker in list(out.items()):
        if marker.kind != "box":
            continue
        display_id, _, box_id = str(marker.place).partition("/")
        holder = A.box(game, display_id, box_id).holds
        flags = frozenset({"sunk"}) if holder in area.sunk else frozenset()
        out[key] = replace(marker, flags=flags, props=FrozenDict(holder=holder))
    return out


def with_area(game: Game, position: Position, area: CarrierArea) -> Position:
    """``position`` holding ``area``: its aircraft, damage markers and tracks."""
    units = {u.uid: u for u in area.units}
    markers = _markers(game, position, area)
    pieces = []
    for piece in position.pieces:
        if piece.unit == DAMAGE:
            pieces.append(markers[piece.id])
        elif piece.id == INVASION and area.invasion <= 0 and piece.kind != "eliminated":
            pieces.append(replace(piece, kind="eliminated", place=None, step=0))  # 6.1(3)
        elif piece.unit in FLEETS:
            pieces.append(piece)
        elif piece.kind == "eliminated":
            pieces.append(piece)
        else:
            pieces.append(_aircraft_piece(piece, units.get(piece.id)))
    tracks = {**position.tracks, GARRISON: area.garrison, INVASION_TRACK: area.invasion,
              BASE_HITS: area.base_hits, BASE_HITS_TURN: area.base_hits_turn}
    return replace(position, pieces=tuple(pieces), tracks=FrozenDict(tracks))


# --- fleets ------------------------------------------------------------------------------



def fleet_hex(position: Position, fleet_id: str) -> str | None:
    """The hex of a fleet on the map (None off it)."""
    return position.piece(fleet_id).hex


def japanese_hexes(position: Position) -> list[str]:
    """The hexes of the Japanese fleets on the map (7.2: the Invasion Force counts)."""
    return [h for h in (fleet_hex(position, ICHIKOKAN), fleet_hex(position, INVASION)) if h]


def moved_fleet(position: Position, fleet_id: str, hex_id: str | None,
                kind: str = "hex") -> Position:
    return position.with_piece(position.piece(fleet_id).at(kind, hex_id))


# --- cards -------------------------------------------------------------------------------


def card_ids(game: Game) -> list[str]:
    """Every event card id, in number order."""
    return [c.id for c in sorted(game.cards, key=lambda c: int(c.number))]


def card_of_number(game: Game, number: int) -> str:
    return next(c.id for c in game.cards if int(c.number) == number)


def number_of(game: Game, card_id: str) -> int:
    return int(game.get("cards", card_id).number)


def shuffled(cards: Sequence[str], dice: Dice) -> tuple[str, ...]:
    """``cards`` shuffled with the session's dice (Fisher-Yates, one die per card)."""
    out = list(cards)
    for i in range(len(out) - 1, 0, -1):
        j = dice.roll(f"d{i + 1}", "shuffle") - 1
        out[i], out[j] = out[j], out[i]
    return tuple(out)


def move_cards(position: Position, moves: Iterable[tuple[str, str, str]]) -> Position:
    """Cards from one pile to the end of another, ``(card, from, to)`` in order."""
    piles = {k: list(v) for k, v in position.cards.items()}
    for card_id, source, target in moves:
        piles[source].remove(card_id)
        piles.setdefault(target, []).append(card_id)
    return replace(position, cards=FrozenDict({k: tuple(v) for k, v in piles.items()}))


# --- set-up ------------------------------------------------------------------------------


def _aircraft_pieces(game: Game, area: CarrierArea) -> list[Piece]:
    """The pieces of the set-up's aircraft; a unit's id ``TYPE-CARRIER-N`` names the carrier
    (or ``midway``) it starts on (3.1(2), 3.2(2)(3))."""
    holders = {b.holds for d in air_displays(game) for b in d.boxes if b.holds}
    out = []
    for air in area.units:
        holder = air.uid.rsplit("-", 2)[-2] if air.uid.count("-") >= 2 else None
        props = {"home": air.home}
        if holder in holders:
            props["carrier"] = holder
        out.append(Piece(air.uid, air.type, unit(game, air.type).side, "box",
                         f"{air.display}/{air.box}", air.steps, props=FrozenDict(props)))
    return out


def _markers_at_start(count: int) -> list[Piece]:
    return [Piece(f"{DAMAGE}-{n}", DAMAGE, None, "off-map") for n in range(1, count + 1)]


def damage_markers(game: Game) -> int:
    """Damage markers in the game (3.3(5) setup record)."""
    for item in game.setup:
        for p in item.place:
            if p.marker == DAMAGE and item.scenario == "standard":
                return int(p.count)
    return 0


def _position(game: Game, scenario: str, turn: int, area: CarrierArea,
              fleets: Sequence[Piece], cards: dict[str, tuple[str, ...]]) -> Position:
    pieces = (*_aircraft_pieces(game, area), *fleets,
              *_markers_at_start(damage_markers(game)))
    tracks = {AOP["japan"]: const(game, "aop-start"), AOP["us"]: const(game, "aop-start"),
              GARRISON: area.garrison, INVASION_TRACK: area.invasion,
              BASE_HITS: area.base_hits, BASE_HITS_TURN: 0}
    position = Position(game=game.id, scenario=scenario, turn=turn, phase="setup",
                        pieces=tuple(pieces), tracks=FrozenDict(tracks),
                        cards=FrozenDict(cards))
    return with_area(game, position, area)


def solitaire_position(game: Game, dice: Dice) -> Position:
    """「飛龍奮戦す」 set up (12.2): Akagi, Kaga and Soryu sunk, Yorktown damaged, every unit
    at 1 step, the base with 2 hits, the fleets on D-3 and F-3, turn 3, the Japanese holding
    #04, #07 used, the other six cards shuffled into the deck."""
    area = solitaire_start(game)
    start = solitaire_cards(game)
    hexes = {p.unit: p.hex for item in game.setup if item.scenario == "solitaire"
             for p in item.place if p.unit in FLEETS and p.hex}
    fleets = [Piece(ICHIKOKAN, ICHIKOKAN, "japan", "hex", hexes[ICHIKOKAN]),
              Piece(INVASION, INVASION, "japan", "track", WAITING),
              Piece(US_FLEET, US_FLEET, "us", "hex", hexes[US_FLEET])]
    held = [card_of_number(game, n) for n in range(1, 9)
            if n not in start.deck and n not in start.discard]
    deck = shuffled([card_of_number(game, n) for n in start.deck], dice)
    cards = {DECK: deck, DISCARD: tuple(card_of_number(game, n) for n in start.discard),
             hand("japan"): tuple(held), hand("us"): (), REMOVED: ()}
    return _position(game, "solitaire", const(game, "solitaire-start-turn"), area, fleets,
                     cards)


def standard_position(game: Game, dice: Dice) -> Position:
    """The two-player game set up (3.0): every aircraft placed legally (attack aircraft
    on deck, a fighter of each division and the base's fighter in CAP, the rest in the
    hangars; each side may rearrange before it is ready), the 1st Air Fleet in hand, the
    Invasion Force on turn box 4, the US fleet's start hex still to be written, each side
    holding one event card, six in the deck."""
    area = standard_start(game, cap_fighters=1)
    fleets = [Piece(ICHIKOKAN, ICHIKOKAN, "japan", "off-map", "entry"),
              Piece(INVASION, INVASION, "japan", "track", WAITING),
              Piece(US_FLEET, US_FLEET, "us", "off-map", "start")]
    deck = shuffled(card_ids(game), dice)
    per = const(game, "starting-cards-per-side")
    cards = {hand("japan"): deck[:per], hand("us"): deck[per:2 * per], DECK: deck[2 * per:],
             DISCARD: (), REMOVED: ()}
    return _position(game, "standard", 1, area, fleets, cards)


def data(position: Position, key: str, default: Any = None) -> Any:
    value = position.data.get(key)
    return default if value is None else value


def with_data(position: Position, **values: Any) -> Position:
    return replace(position, data=FrozenDict({**position.data,
                                              **{k: freeze(v) for k, v in values.items()}}))

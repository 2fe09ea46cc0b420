"""The position: one typed, immutable game state for every game.

A :class:`Position` is what a session holds between commands, what agents search and what
the log's hashes are taken of. Every piece of the game (a unit's counter, a marker, a
card) is a :class:`Piece` with where it is (``kind`` and ``place``: a hex, an area, a box,
a track space, an off-map pool, eliminated), which face or step it shows and its flags
(moved, attacked, out of supply); beside the pieces the position holds the turn, phase
and acting side, the track markers, which side holds which hexes, the decks, hands and
discards of card games, the decisions owed (:class:`Pending`), a game's own values
(``data``) and, once decided, the :class:`Verdict`.

Positions are values: equal when their JSON is equal, serialised to JSON and back without
loss (:meth:`Position.to_json`, :meth:`Position.from_json`) and hashed as the SHA-256 of
that JSON's canonical form (:meth:`Position.digest`). Every change makes a new position
(``dataclasses.replace`` or the ``with_*`` helpers); nothing is mutated.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import field
from functools import cached_property
from typing import Any

from .errors import BadInput
from .model import EMPTY, FrozenDict
from .records import Frozen, evolve, frozen_record


def _empty() -> Mapping[str, Any]:
    return EMPTY


#: where a piece may be: ``place`` names the hex, area, box, track, pool or holder
KINDS = ("hex", "area", "point", "box", "track", "pool", "eliminated", "removed", "hand",
         "deck", "discard", "play", "off-map")
#: the kinds a piece is on the board in (it occupies its place)
ON_BOARD = frozenset({"hex", "area", "point", "box"})


def freeze(value: Any) -> Any:
    """JSON values as immutable ones: lists -> tuples, objects -> read-only dicts."""
    if isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    if isinstance(value, Mapping):
        return FrozenDict({str(k): freeze(v) for k, v in value.items()})
    return value


def thaw(value: Any) -> Any:
    """The inverse of :func:`freeze`: plain JSON values (lists, dicts)."""
    if isinstance(value, tuple | list):
        return [thaw(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): thaw(v) for k, v in value.items()}
    return value


def canonical(value: Any) -> bytes:
    """The canonical JSON bytes of ``value``: sorted keys, compact separators, UTF-8."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False).encode("utf-8")


@frozen_record(kw_only=False)
class Piece(Frozen):
    """One piece: ``id`` (unique in the position), the ``unit`` (or marker, card) record it
    is a counter of, its ``side``, where it is (``kind``, ``place``), the steps it has left
    (``step``: a full two-step unit has 2, its reduced face 1), ``flags`` and a game's own
    values (``props``)."""

    id: str
    unit: str
    side: str | None
    kind: str
    place: str | None = None
    step: int = 1
    flags: frozenset[str] = frozenset()
    props: Mapping[str, Any] = field(default_factory=_empty)

    @property
    def hex(self) -> str | None:
        """The hex it stands in, or None off the map."""
        return self.place if self.kind == "hex" else None

    @property
    def on_board(self) -> bool:
        return self.kind in ON_BOARD

    def at(self, kind: str, place: str | None = None) -> Piece:
        return evolve(self, kind=kind, place=place)

    def flagged(self, *add: str, drop: Iterable[str] = ()) -> Piece:
        return evolve(self, flags=(self.flags | set(add)) - set(drop))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "unit": self.unit, "side": self.side,
                               "kind": self.kind, "place": self.place, "step": self.step}
        if self.flags:
            out["flags"] = sorted(self.flags)
        if self.props:
            out["props"] = thaw(self.props)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Piece:
        _need(data, "piece", {"id": str, "unit": str, "kind": str, "step": int})
        kind = data["kind"]
        if kind not in KINDS:
            raise BadInput(f"piece {data['id']!r}: kind {kind!r} is not one of "
                           f"{', '.join(KINDS)}")
        flags = data.get("flags") or []
        if not isinstance(flags, list) or not all(isinstance(f, str) for f in flags):
            raise BadInput(f"piece {data['id']!r}: flags must be a list of words")
        return cls(data["id"], data["unit"], _opt_str(data, "side"), kind,
                   _opt_str(data, "place"), data["step"], frozenset(flags),
                   freeze(data.get("props") or {}))


@frozen_record(kw_only=False)
class Pending(Frozen):
    """A decision owed: its ``kind`` (loss, retreat, advance, place ...), the ``side`` that
    makes it, the rules behind it and what it is about (``data``: JSON values)."""

    kind: str
    side: str | None
    rule: tuple[str, ...] = ()
    data: Mapping[str, Any] = field(default_factory=_empty)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "side": self.side, "rule": list(self.rule),
                "data": thaw(self.data)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Pending:
        _need(data, "pending decision", {"kind": str, "rule": list, "data": dict})
        return cls(data["kind"], _opt_str(data, "side"), tuple(str(r) for r in data["rule"]),
                   freeze(data["data"]))


@frozen_record(kw_only=False)
class Verdict(Frozen):
    """How the game ended: the ``winner`` (None: a draw, or no winner), the ``result``
    (win, draw, a level), why, and the victory rule (``condition``: its record id)."""

    winner: str | None
    result: str
    reason: str
    rule: tuple[str, ...] = ()
    condition: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "result": self.result, "reason": self.reason,
                "rule": list(self.rule), "condition": self.condition}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Verdict:
        _need(data, "verdict", {"result": str, "reason": str, "rule": list})
        return cls(_opt_str(data, "winner"), data["result"], data["reason"],
                   tuple(str(r) for r in data["rule"]), _opt_str(data, "condition"))


@frozen_record
class Position(Frozen):
    """The whole state of one game at one moment (see the module docstring)."""

    game: str
    scenario: str | None = None
    turn: int = 1
    phase: str | None = None
    side: str | None = None
    pieces: tuple[Piece, ...] = ()
    tracks: Mapping[str, Any] = field(default_factory=_empty)
    control: Mapping[str, str] = field(default_factory=_empty)
    cards: Mapping[str, tuple[str, ...]] = field(default_factory=_empty)
    pending: tuple[Pending, ...] = ()
    data: Mapping[str, Any] = field(default_factory=_empty)
    verdict: Verdict | None = None

    # -- reading

    @cached_property
    def _by_id(self) -> dict[str, int]:
        return {p.id: i for i, p in enumerate(self.pieces)}

    @cached_property
    def _by_place(self) -> dict[tuple[str, str | None], tuple[Piece, ...]]:
        places: dict[tuple[str, str | None], list[Piece]] = {}
        for p in self.pieces:
            places.setdefault((p.kind, p.place), []).append(p)
        return {k: tuple(v) for k, v in places.items()}

    def piece(self, piece_id: str) -> Piece:
        """The piece ``piece_id``; BadInput listing a few ids when there is none."""
        index = self._by_id.get(piece_id)
        if index is None:
            ids = sorted(self._by_id)
            listed = ", ".join(ids[:12]) + (", ..." if len(ids) > 12 else "")
            raise BadInput(f"no piece {piece_id!r} (pieces: {listed})")
        return self.pieces[index]

    def has(self, piece_id: str) -> bool:
        return piece_id in self._by_id

    def at(self, kind: str, place: str | None) -> tuple[Piece, ...]:
        """The pieces in one place (``at("hex", "0504")``), in id order."""
        return self._by_place.get((kind, place), ())

    def in_hex(self, hex_id: str) -> tuple[Piece, ...]:
        return self._by_place.get(("hex", hex_id), ())

    @cached_property
    def occupied(self) -> dict[str, str | None]:
        """Every hex holding a piece -> the side of its pieces (the first piece's)."""
        return {place: pieces[0].side for (kind, place), pieces in self._by_place.items()
                if kind == "hex" and place is not None}

    def of_side(self, side: str | None) -> tuple[Piece, ...]:
        return tuple(p for p in self.pieces if p.side == side)

    @property
    def over(self) -> bool:
        return self.verdict is not None

    @property
    def due(self) -> Pending | None:
        """The decision owed now, if any."""
        return self.pending[0] if self.pending else None

    # -- changing

    def with_piece(self, piece: Piece) -> Position:
        """The position with ``piece`` in place of the piece of the same id."""
        index = self._by_id[piece.id]
        pieces = self.pieces[:index] + (piece,) + self.pieces[index + 1:]
        return evolve(self, pieces=pieces)

    def with_pieces(self, changed: Iterable[Piece]) -> Position:
        by_id = {p.id: p for p in changed}
        if not by_id:
            return self
        return evolve(self, pieces=tuple(by_id.get(p.id, p) for p in self.pieces))

    def with_track(self, track: str, value: Any) -> Position:
        return evolve(self, tracks=FrozenDict({**self.tracks, track: value}))

    def with_data(self, **values: Any) -> Position:
        return evolve(self, data=FrozenDict({**self.data, **{k: freeze(v)
                                                              for k, v in values.items()}}))

    def with_control(self, changes: Mapping[str, str]) -> Position:
        if all(self.control.get(h) == s for h, s in changes.items()):
            return self
        return evolve(self, control=FrozenDict({**self.control, **changes}))

    # -- JSON and hash

    def to_json(self) -> dict[str, Any]:
        """The position as JSON values; :meth:`from_json` gives it back equal."""
        return {
            "format": 1, "game": self.game, "scenario": self.scenario, "turn": self.turn,
            "phase": self.phase, "side": self.side,
            "pieces": [p.to_json() for p in self.pieces],
            "tracks": thaw(self.tracks), "control": dict(self.control),
            "cards": {k: list(v) for k, v in self.cards.items()},
            "pending": [p.to_json() for p in self.pending], "data": thaw(self.data),
            "verdict": self.verdict.to_json() if self.verdict else None,
        }

    @classmethod
    def from_json(cls, data: Any) -> Position:
        """A position from :meth:`to_json`'s values; BadInput naming the key that is wrong."""
        if not isinstance(data, Mapping):
            raise BadInput("a position is a JSON object")
        _need(data, "position", {"game": str, "turn": int, "pieces": list, "tracks": dict,
                                 "control": dict, "cards": dict, "pending": list,
                                 "data": dict})
        if data.get("format") != 1:
            raise BadInput(f"position format {data.get('format')!r} is not 1")
        pieces = tuple(Piece.from_json(_object(p, "pieces[]")) for p in data["pieces"])
        if len({p.id for p in pieces}) != len(pieces):
            raise BadInput("position: two pieces share an id")
        control = data["control"]
        if not all(isinstance(v, str) for v in control.values()):
            raise BadInput("position: control maps a hex to a side id")
        cards = {}
        for name, ids in data["cards"].items():
            if not isinstance(ids, list) or not all(isinstance(c, str) for c in ids):
                raise BadInput(f"position: cards.{name} must be a list of card ids")
            cards[name] = tuple(ids)
        verdict = data.get("verdict")
        return cls(game=data["game"], scenario=_opt_str(data, "scenario"), turn=data["turn"],
                   phase=_opt_str(data, "phase"), side=_opt_str(data, "side"),
                   pieces=pieces, tracks=freeze(data["tracks"]),
                   control=FrozenDict(control), cards=FrozenDict(cards),
                   pending=tuple(Pending.from_json(_object(p, "pending[]"))
                                 for p in data["pending"]),
                   data=freeze(data["data"]),
                   verdict=Verdict.from_json(_object(verdict, "verdict"))
                   if verdict is not None else None)

    def canonical(self) -> bytes:
        return canonical(self.to_json())

    def digest(self) -> str:
        """SHA-256 of the canonical JSON: what a session log records for each step."""
        return hashlib.sha256(self.canonical()).hexdigest()


def _need(data: Mapping[str, Any], what: str, kinds: Mapping[str, type]) -> None:
    for key, kind in kinds.items():
        value = data.get(key)
        if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
            raise BadInput(f"{what}: {key} must be {_KIND_WORD[kind]}, got {value!r:.40}")


_KIND_WORD = {str: "text", int: "an integer", list: "a list", dict: "an object"}


def _opt_str(data: Mapping[str, Any], key: str) -> str | None:
    value = data.get(key)
    if value is not None and not isinstance(value, str):
        raise BadInput(f"{key} must be text or null, got {value!r:.40}")
    return value


def _object(value: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise BadInput(f"position: {what} must be an object")
    return value

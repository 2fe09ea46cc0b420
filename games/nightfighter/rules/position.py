"""A refereed night as the engine's :class:`~warpress.engine.position.Position`, and back.

The referee works on a :class:`NightSession` (the umpire's ``Night`` and the session's own
records); a session stores, hashes and hands over the game-independent ``Position``.
:func:`as_position` and :func:`night_session` convert one into the other without loss
(``night_session(game, as_position(s)) == s``):

- every night fighter is a piece of side ``defender`` and every bomber or intruder a piece of
  side ``attacker`` (id: its counter id, unit: its unit record). On the map it is in kind
  ``hex`` at its hex; off the map its place is its status (``beacon-box``, ``off-map``,
  ``destroyed``, ``pool``, ``delayed``, ``exited``) in the kind of place that status is
  (:data:`STATUS_KIND`). Its step is 1 (0 once destroyed): an aircraft has one counter face,
  and the hits it took are a prop beside its ``damage``; its yes/no
  fields are flags (``attacked``, ``evading``, ``alert`` ...), and so are the session's own
  records of a fighter this phase or turn (:data:`SESSION_FLAGS`: ``moved``, ``tail-warning``,
  ``declared-evade``, ``declared-descend``, ``boxed-at-start``); its other fields are
  ``props`` (facing, MP, FP, damage, dives left, sighting, AI contact ...; a bomber's kind is
  ``type``, the MP it moved this turn ``mp_moved``);
- the turn, the phase, the acting side (``defender`` while the player is to act, none once the
  night is over) and the verdict (rule 4.1: who won, the result, why) are the position's own;
- the rest of the ``Night`` (environment, captures, search counters, entry chits, jamming,
  zones) and the session's records (the scenario it was set up from, this turn's
  announcements, delayed entrants, search markers, counters placed, the sighting roll made,
  the summary once over) are ``data``.

:func:`night_session` checks what it reads and refuses a bad position with BadInput naming
the key (``data.night.env.moon``, ``pieces[201].props.wings``).
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, is_dataclass, replace
from types import UnionType
from typing import Any

from warpress.engine.errors import BadInput
from warpress.engine.model import Game
from warpress.engine.position import Piece, Position, Verdict, freeze, thaw
from warpress.engine.referee import Announcement

from .common import check_hex
from .scenario import Scenario, from_data, phase_ids
from .state import ON_MAP, Bomber, Counter, Environment, Fighter, Night  # noqa: F401 (hints)

GAME = "nightfighter"
#: the side of each kind of aircraft
DEFENDER, ATTACKER = "defender", "attacker"
#: where an aircraft off the map is, by its status: the piece's kind (its place: the status)
STATUS_KIND = {"beacon-box": "box", "off-map": "off-map", "destroyed": "eliminated",
               "pool": "pool", "delayed": "pool", "exited": "removed"}
#: the aircraft's yes/no fields, kept as flags
FLAGS = {Fighter: ("dived", "evading", "corkscrewed", "expert", "green", "turned", "attacked"),
         Bomber: ("alert", "launched")}
#: the session's records of a fighter, as flags: flag -> (NightSession field, declared what)
SESSION_FLAGS = {"moved": ("moved", None), "tail-warning": ("warned", None),
                 "declared-evade": ("declared", "evade"),
                 "declared-descend": ("declared", "descend"),
                 "boxed-at-start": ("declared", "boxed")}
#: fields kept elsewhere than in props
NOT_PROPS = {"id", "unit", "hex", "status"}
#: props named otherwise than their field (a piece's ``kind`` is where it is; a bomber's MP
#: moved this turn is no flag ``moved``)
RENAMED = {"kind": "type", "moved": "mp_moved"}
#: the session records in ``data`` (besides ``night``)
DATA_KEYS = ("path", "scenario", "night", "announcements", "delayed", "searchlights",
             "placed", "sighted", "result")
#: what a won or lost night means for the sides (the player flies the defenders)
WINS = frozenset({"victory", "decisive victory"})


@dataclass(frozen=True)
class NightSession:
    """One refereed night: the umpire's ``Night`` and the session's own records."""

    scenario: Mapping[str, Any]
    name: str
    path: str
    night: Night
    phase: str
    announcements: tuple[Announcement, ...] = ()
    delayed: tuple[tuple[str, int, int], ...] = ()   # (bomber, column, entry turn) [8.1.4]
    searchlights: tuple[tuple[str, str], ...] = ()   # search markers (zone, hex) [14.2.1]
    placed: tuple[str, ...] = ()                     # counter ids placed, as night.counters
    moved: frozenset[str] = frozenset()              # fighters moved this phase
    declared: frozenset[tuple[str, str]] = frozenset()  # (fighter, evade|descend|boxed)
    warned: frozenset[str] = frozenset()             # tail warnings this turn [27.3]
    sighted: bool = False                            # sighting roll made this phase
    result: Mapping[str, Any] | None = field(default=None)

    def __post_init__(self) -> None:
        for name in ("moved", "declared", "warned"):
            object.__setattr__(self, name, frozenset(getattr(self, name)))

    @property
    def over(self) -> bool:
        """The night is over (4.1): its result is known."""
        return self.result is not None


# --- session -> position -------------------------------------------------------------------


def as_position(s: NightSession, game_id: str = GAME) -> Position:
    """The session as a position (see the module docstring); :func:`night_session` reads it
    back equal."""
    night = s.night
    pieces = tuple(_piece(f, DEFENDER, _session_flags(s, f.id)) for f in night.fighters)
    pieces += tuple(_piece(b, ATTACKER, frozenset()) for b in night.bombers)
    rest = {f.name: to_json(getattr(night, f.name)) for f in fields(night)
            if f.name not in ("turn", "fighters", "bombers")}
    data = {
        "path": s.path, "scenario": to_json(s.scenario), "night": rest,
        "announcements": [a.as_json() for a in s.announcements],
        "delayed": to_json(s.delayed), "searchlights": to_json(s.searchlights),
        "placed": list(s.placed), "sighted": s.sighted,
        "result": to_json(s.result) if s.result is not None else None,
    }
    return Position(game=game_id, scenario=s.name, turn=night.turn, phase=s.phase,
                    side=None if s.over else DEFENDER, pieces=pieces, data=freeze(data),
                    verdict=verdict_of(s.result))


def verdict_of(result: Mapping[str, Any] | None) -> Verdict | None:
    """The verdict of a night's summary [4.1]: the defender (the player) wins at a victory
    level, else the attacker; the condition is the level the night reached (``victory``,
    ``decisive-victory``, or ``no-victory-level``: the player's defeat); why: the summary's
    reasons."""
    if result is None:
        return None
    outcome = str(result.get("result"))
    reasons = [str(r.get("text")) if isinstance(r, Mapping) else str(r)
               for r in result.get("reasons") or ()]
    won = outcome in WINS
    return Verdict(DEFENDER if won else ATTACKER, "win", "; ".join(reasons), ("4.1",),
                   outcome.replace(" ", "-") if won else "no-victory-level")


def _session_flags(s: NightSession, fighter_id: str) -> frozenset[str]:
    out = set()
    for flag, (name, what) in SESSION_FLAGS.items():
        held = getattr(s, name)
        if (fighter_id, what) in held if what else fighter_id in held:
            out.add(flag)
    return frozenset(out)


def _piece(aircraft: Fighter | Bomber, side: str, extra: frozenset[str]) -> Piece:
    kind = type(aircraft)
    props = {RENAMED.get(f.name, f.name): to_json(getattr(aircraft, f.name))
             for f in fields(aircraft) if f.name not in NOT_PROPS and f.name not in FLAGS[kind]}
    if aircraft.status == ON_MAP:
        where, place = "hex", aircraft.hex
    else:
        where, place = STATUS_KIND.get(aircraft.status, "off-map"), aircraft.status
        if aircraft.hex is not None:
            props["hex"] = aircraft.hex
    flags = frozenset(name for name in FLAGS[kind] if getattr(aircraft, name)) | extra
    step = 0 if where == "eliminated" else 1  # one counter face; hits are markers (props)
    return Piece(aircraft.id, aircraft.unit, side, where, place, step, flags, freeze(props))


# --- position -> session -------------------------------------------------------------------


def night_session(game: Game, position: Position) -> NightSession:
    """The session a position holds, checked (BadInput naming the key that is wrong)."""
    return read(game, position)[0]


def read(game: Game, position: Position) -> tuple[NightSession, Scenario]:
    """:func:`night_session` and the scenario it was set up from (checked against the game)."""
    if not isinstance(position, Position):
        raise BadInput(f"not a position: {type(position).__name__}")
    if position.game != game.id:
        raise BadInput(f"position: game {position.game!r} is not {game.id!r}")
    data = thaw(position.data)
    unknown = sorted(set(data) - set(DATA_KEYS))
    if unknown:
        raise BadInput(f"position: data: unknown key {unknown[0]!r} (keys: "
                       f"{', '.join(DATA_KEYS)})")
    missing = [k for k in ("path", "scenario", "night") if k not in data]
    if missing:
        raise BadInput(f"position: data: missing key {missing[0]!r}")
    if position.turn < 1:
        raise BadInput(f"position: turn {position.turn!r} is not a game turn (1 or more)")
    if position.phase not in phase_ids(game):
        raise BadInput(f"position: phase: {position.phase!r} is not a phase "
                       f"({', '.join(phase_ids(game))})")
    s = _session(position, data)
    scenario = from_data(game, s.scenario, s.name, s.path)
    _check(game, position, s, scenario)
    return s, scenario


def _session(position: Position, data: Mapping[str, Any]) -> NightSession:
    if not isinstance(data["night"], Mapping):
        raise BadInput("position: data.night: expected an object")
    inside = sorted({"turn", "fighters", "bombers"} & set(data["night"]))
    if inside:
        raise BadInput(f"position: data.night: unknown key {inside[0]!r} (the turn and the "
                       "aircraft are the position's own)")
    night = from_json(Night, {**data["night"], "turn": position.turn}, "data.night")
    fighters, bombers, records = [], [], {name: set() for name in ("moved", "warned",
                                                                   "declared")}
    for piece in position.pieces:
        if piece.side == DEFENDER:
            fighters.append(_aircraft(Fighter, piece))
            for flag in piece.flags & SESSION_FLAGS.keys():
                name, what = SESSION_FLAGS[flag]
                records[name].add((piece.id, what) if what else piece.id)
        elif piece.side == ATTACKER:
            bombers.append(_aircraft(Bomber, piece))
        else:
            raise BadInput(f"position: pieces[{piece.id}].side: {piece.side!r} is not "
                           f"{DEFENDER} or {ATTACKER}")
    notes = data.get("announcements") or []
    if not isinstance(notes, list):
        raise BadInput("position: data.announcements: expected a list")
    result = data.get("result")
    if result is not None and not isinstance(result, Mapping):
        raise BadInput("position: data.result: expected an object or null")
    if not isinstance(data.get("scenario"), Mapping):
        raise BadInput("position: data.scenario: expected an object")
    if position.scenario is None:
        raise BadInput("position: scenario: the scenario's name is missing")
    return NightSession(
        scenario=data["scenario"], name=position.scenario,
        path=from_json(str, data["path"], "data.path"),
        night=replace(night, fighters=tuple(fighters), bombers=tuple(bombers)),
        phase=position.phase,
        announcements=tuple(_announcement(a, f"data.announcements[{i}]")
                            for i, a in enumerate(notes)),
        delayed=from_json(tuple[tuple[str, int, int], ...], data.get("delayed") or [],
                          "data.delayed"),
        searchlights=from_json(tuple[tuple[str, str], ...], data.get("searchlights") or [],
                               "data.searchlights"),
        placed=from_json(tuple[str, ...], data.get("placed") or [], "data.placed"),
        sighted=from_json(bool, data.get("sighted", False), "data.sighted"),
        result=result, **records)


def _aircraft(kind: type, piece: Piece) -> Any:
    where = f"pieces[{piece.id}]"
    readers = _prop_readers(kind)
    values: dict[str, Any] = {}
    for key, value in thaw(piece.props).items():
        if key == "hex" and piece.kind != "hex":
            values["hex"] = _text(value, f"{where}.props.hex")
            continue
        if key not in readers:
            raise BadInput(f"position: {where}.props: unknown key {key!r} (keys: "
                           f"{', '.join(readers)})")
        name, read = readers[key]
        values[name] = read(value, f"{where}.props.{key}")
    allowed = set(FLAGS[kind]) | (set(SESSION_FLAGS) if kind is Fighter else set())
    odd = sorted(piece.flags - allowed)
    if odd:
        raise BadInput(f"position: {where}.flags: {odd[0]!r} is not a flag of this piece "
                       f"({', '.join(sorted(allowed))})")
    if piece.kind == "hex":
        values.update(hex=piece.place, status=ON_MAP)
    else:
        status = piece.place
        if status is None or STATUS_KIND.get(status, "off-map") != piece.kind:
            raise BadInput(f"position: {where}.place: {status!r} is no status of an aircraft "
                           f"in kind {piece.kind!r} ({_statuses()})")
        values["status"] = status
    step = 0 if piece.kind == "eliminated" else 1
    if piece.step != step:
        raise BadInput(f"position: {where}.step: {piece.step!r} is not {step} (an aircraft "
                       f"has one face; its hits are props.hits)")
    return kind(id=piece.id, unit=piece.unit, **values,
                **{name: name in piece.flags for name in FLAGS[kind]})


_PROPS: dict[type, dict[str, tuple[str, Reader]]] = {}


def _prop_readers(kind: type) -> dict[str, tuple[str, Reader]]:
    """An aircraft's props: prop name -> (its field, the reader of its values)."""
    found = _PROPS.get(kind)
    if found is None:
        hints = typing.get_type_hints(kind, globals())
        found = _PROPS[kind] = {RENAMED.get(f.name, f.name): (f.name, reader(hints[f.name]))
                                for f in fields(kind)
                                if f.name not in NOT_PROPS and f.name not in FLAGS[kind]}
    return found


def _text(value: Any, where: str) -> str:
    return reader(str)(value, where)


def _statuses() -> str:
    return "; ".join(f"{kind}: {', '.join(s for s, k in STATUS_KIND.items() if k == kind)}"
                     for kind in dict.fromkeys(STATUS_KIND.values()))


def _check(game: Game, position: Position, s: NightSession, sc: Scenario) -> None:
    """What a session needs beyond the types: the scenario's fighters, hexes of the map, the
    records naming aircraft that are there, the side and verdict the night implies."""
    night = s.night
    ids = [f.id for f in night.fighters]
    if sorted(ids) != sorted(sc.fighter_ids):
        raise BadInput(f"position: pieces: the night fighters ({', '.join(ids)}) differ from "
                       f"the scenario's ({', '.join(sc.fighter_ids)})")
    for aircraft in (*night.fighters, *night.bombers):
        if aircraft.hex is not None:
            check_hex(game, aircraft.hex, f"pieces[{aircraft.id}].place")
    bombers = {b.id for b in night.bombers}
    for bomber, _column, _turn in s.delayed:
        if bomber not in bombers:
            raise BadInput(f"position: data.delayed: no bomber {bomber!r}")
    unknown = sorted(set(s.placed) - set(sc.counter_ids()))
    if unknown:
        raise BadInput(f"position: data.placed: {unknown[0]!r} is not a search counter of "
                       f"the scenario ({', '.join(sc.counter_ids()) or 'none'})")
    side = None if s.over else DEFENDER
    if position.side != side:
        raise BadInput(f"position: side: {position.side!r}, but the "
                       f"{'night is over' if s.over else 'player flies the defenders'}: "
                       f"{side!r}")
    if position.verdict != verdict_of(s.result):
        raise BadInput("position: verdict: it does not match data.result (the night's "
                       "summary, 4.1)")


# --- JSON values of the session's dataclasses ----------------------------------------------


def to_json(value: Any) -> Any:
    """Dataclasses, tuples and sets as JSON values (sets sorted)."""
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, frozenset | set):
        return sorted(to_json(v) for v in value)
    if isinstance(value, tuple | list):
        return [to_json(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): to_json(v) for k, v in value.items()}
    return value


def from_json(kind: Any, value: Any, where: str) -> Any:
    """``value`` read as ``kind`` (a dataclass, tuple, frozenset, mapping or plain type);
    BadInput naming ``where`` on a wrong type or an unknown key."""
    return reader(kind)(value, where)


Reader = Callable[[Any, str], Any]
_READERS: dict[Any, Reader] = {}


def reader(kind: Any) -> Reader:
    """The function that reads JSON values as ``kind`` (made once per type)."""
    found = _READERS.get(kind)
    if found is None:
        found = _READERS[kind] = _make_reader(kind)
    return found


def _make_reader(kind: Any) -> Reader:
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin in (typing.Union, UnionType):
        inner = reader(next(a for a in args if a is not type(None)))
        optional = type(None) in args
        return lambda value, where: (None if value is None and optional
                                     else inner(value, where))
    if isinstance(kind, type) and is_dataclass(kind):
        return _dataclass_reader(kind)
    if origin in (tuple, frozenset):
        return _sequence_reader(origin, args)
    if origin is not None and issubclass(origin, Mapping):
        return _plain(Mapping, "an object", dict)
    if kind in _WORDS:
        return _plain(kind, _WORDS[kind])
    return lambda value, where: value


_WORDS = {bool: "true or false", int: "a whole number", str: "a text"}


def _plain(kind: type, words: str, make: Callable[[Any], Any] | None = None) -> Reader:
    def read(value: Any, where: str) -> Any:
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise BadInput(f"position: {where}: expected {words}, got {value!r}")
        return make(value) if make else value
    return read


def _dataclass_reader(kind: type) -> Reader:
    hints = typing.get_type_hints(kind, globals())
    readers = {f.name: reader(hints[f.name]) for f in fields(kind)}

    def read(value: Any, where: str) -> Any:
        if not isinstance(value, Mapping):
            raise BadInput(f"position: {where}: expected an object, got {value!r}")
        unknown = [k for k in value if k not in readers]
        if unknown:
            raise BadInput(f"position: {where}: unknown key {sorted(unknown)[0]!r}")
        try:
            return kind(**{name: readers[name](v, f"{where}.{name}")
                           for name, v in value.items()})
        except TypeError as exc:
            raise BadInput(f"position: {where}: {exc}") from None
    return read


def _sequence_reader(origin: type, args: tuple) -> Reader:
    if origin is frozenset or (len(args) == 2 and args[1] is Ellipsis):
        each = reader(args[0])
        make = frozenset if origin is frozenset else tuple
        return lambda value, where: make(each(v, f"{where}[{i}]")
                                         for i, v in enumerate(_items(value, where)))
    readers = [reader(a) for a in args]

    def read(value: Any, where: str) -> tuple:
        if len(_items(value, where)) != len(readers):
            raise BadInput(f"position: {where}: expected {len(readers)} items, got {value!r}")
        return tuple(r(v, f"{where}[{i}]") for i, (r, v) in enumerate(zip(readers, value,
                                                                           strict=True)))
    return read


def _items(value: Any, where: str) -> Any:
    if not isinstance(value, list | tuple):
        raise BadInput(f"position: {where}: expected a list, got {value!r}")
    return value


def _announcement(value: Any, where: str) -> Announcement:
    if not isinstance(value, Mapping) or not {"turn", "phase", "text"} <= set(value):
        raise BadInput(f"position: {where}: expected an announcement (turn, phase, text, "
                       "rules)")
    return Announcement(from_json(int, value["turn"], f"{where}.turn"),
                        from_json(str, value["phase"], f"{where}.phase"),
                        from_json(str, value["text"], f"{where}.text"),
                        from_json(tuple[str, ...], value.get("rules") or [], f"{where}.rules"),
                        from_json(Mapping[str, Any], value.get("data") or {}, f"{where}.data"))

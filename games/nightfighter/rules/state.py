"""The frozen state of one night, and the player's view of it.

A ``Night`` holds the umpire's truth: every bomber (hidden positions included), every
night fighter, the searchlight captures and the player-map counters. Step functions in
the other modules take a ``Night`` and return a new one (``dataclasses.replace``); they
do no I/O and are deterministic given the dice. ``player_view`` is what the player may
see [1.2.2, 5.1]: his own fighters, his counters, and for bombers only the markers of
those sighted or acquired, with their true hex and facing (no ids).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from warpress.engine.errors import BadInput

from .common import sighting_number

ON_MAP = "on-map"


@dataclass(frozen=True)
class Environment:
    """Moon, visibility (with its ranges x and y) and clouds [3.3]; altitude [21]."""

    moon: str = "new"
    visibility: str = "average"
    range: int = 0
    lit_range: int = 3
    clouds: str = "clear"
    altitude: str = "normal"


@dataclass(frozen=True)
class Bomber:
    """An attacking aircraft on the umpire map (bomber, intruder, torpedo bomber)."""

    id: str
    unit: str = ""
    hex: str | None = None
    facing: int = 3
    mp: str = "2"
    fp: int = 0
    damage: int = 1
    hits: int = 0
    alert: bool = False
    kind: str = "bomber"
    status: str = "pool"
    launched: bool = False
    equipment: frozenset[str] = frozenset()
    moved: int = 0
    route: int | None = None

    @property
    def sighting(self) -> int:
        """Its sighting number (last digit of the id)."""
        return sighting_number(self.id)

    @property
    def on_map(self) -> bool:
        return self.status == ON_MAP


@dataclass(frozen=True)
class Fighter:
    """A night fighter of the player."""

    id: str
    unit: str = ""
    hex: str | None = None
    facing: int = 0
    status: str = ON_MAP
    mp: str = "3"
    fp: int = 0
    damage: int = 1
    hits: int = 0
    dives_left: int = 0
    dazzled_until: int = 0
    evaded_turn: int = 0
    dived: bool = False
    evading: bool = False
    corkscrewed: bool = False
    expert: bool = False
    green: bool = False
    sighting: str | None = None
    ai_contact: str | None = None
    mp_spent: int = 0
    turned: bool = False
    attacked: bool = False

    @property
    def sighting_number(self) -> int:
        return sighting_number(self.id)

    @property
    def on_map(self) -> bool:
        return self.status == ON_MAP

    def dazzled(self, turn: int) -> bool:
        """Dazzled on ``turn`` (Flash or Follow of an earlier turn) [17.3.2]."""
        return turn <= self.dazzled_until


@dataclass(frozen=True)
class Counter:
    """A radar search counter on the player map and its sweep counters [13.1]."""

    radar: str
    hex: str
    contact: bool = False
    sweeps: tuple[str, ...] = ()


@dataclass(frozen=True)
class Night:
    """The umpire's whole truth at one moment of a night."""

    turn: int = 1
    env: Environment = field(default_factory=Environment)
    bombers: tuple[Bomber, ...] = ()
    fighters: tuple[Fighter, ...] = ()
    captures: tuple[tuple[str, str], ...] = ()
    counters: tuple[Counter, ...] = ()
    chit_face: str = "red"
    chits_drawn: tuple[str, ...] = ()
    beacon_departure: int | None = None
    search_jamming: str = "none"
    ai_jamming: str = "none"
    jammed_bands: tuple[str, ...] = ()
    searchlight_jammed: bool = False
    flare_counter: int | None = None
    zones: tuple[str, ...] = ()
    flare_zones: tuple[str, ...] = ()
    radar_guided: bool = False
    flak: bool = False
    task_force: bool = False

    def bomber(self, bomber_id: str) -> Bomber:
        for b in self.bombers:
            if b.id == bomber_id:
                return b
        raise BadInput(f"no bomber {bomber_id!r} (have: {', '.join(b.id for b in self.bombers)})")

    def fighter(self, fighter_id: str) -> Fighter:
        for f in self.fighters:
            if f.id == fighter_id:
                return f
        ids = ", ".join(f.id for f in self.fighters)
        raise BadInput(f"no night fighter {fighter_id!r} (have: {ids})")

    def on_map_bombers(self) -> tuple[Bomber, ...]:
        return tuple(b for b in self.bombers if b.on_map)

    def with_bomber(self, bomber: Bomber) -> Night:
        return replace(self, bombers=tuple(bomber if b.id == bomber.id else b
                                           for b in self.bombers))

    def with_fighter(self, fighter: Fighter) -> Night:
        return replace(self, fighters=tuple(fighter if f.id == fighter.id else f
                                            for f in self.fighters))

    def captured(self, bomber_id: str) -> bool:
        return any(b == bomber_id for _, b in self.captures)

    def sighted(self, bomber_id: str) -> bool:
        return any(f.sighting == bomber_id for f in self.fighters)

    def ai_contacted(self, bomber_id: str) -> bool:
        return any(f.ai_contact == bomber_id for f in self.fighters)

    def known(self, bomber_id: str) -> bool:
        """Sighted or acquired (searchlight or AI): shown on the player map [5.1]."""
        return (self.sighted(bomber_id) or self.captured(bomber_id)
                or self.ai_contacted(bomber_id))


@dataclass(frozen=True)
class BomberMarker:
    """A marker on the player map at a known bomber's true hex and facing [5.1(c)]."""

    kind: str
    hex: str
    facing: int
    fighter: str | None = None


@dataclass(frozen=True)
class PlayerView:
    """What the player may see: a function of his own pieces and known bombers only.

    Bomber ids never appear (their last digit is the sighting number): a fighter's
    sighting or AI contact shows as a marker carrying the fighter's id."""

    turn: int
    env: Environment
    fighters: tuple[Fighter, ...]
    counters: tuple[Counter, ...]
    markers: tuple[BomberMarker, ...]


def player_view(night: Night) -> PlayerView:
    """The player's map [1.2.2, 5.1]: markers only for sighted or acquired bombers."""
    markers: list[BomberMarker] = []
    by_id = {b.id: b for b in night.on_map_bombers()}
    for f in night.fighters:
        for kind, target in (("sighting", f.sighting), ("ai-contact", f.ai_contact)):
            if target in by_id:
                b = by_id[target]
                markers.append(BomberMarker(kind, b.hex or "", b.facing, f.id))
    for zone, target in night.captures:
        if target in by_id:
            b = by_id[target]
            markers.append(BomberMarker(f"captured:{zone}", b.hex or "", b.facing))
    own = tuple(replace(f, sighting=None, ai_contact=None) for f in night.fighters)
    return PlayerView(night.turn, night.env, own, night.counters,
                      tuple(sorted(markers, key=lambda m: (m.kind, m.hex, m.fighter or ""))))

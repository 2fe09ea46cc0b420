"""Nightfighter scenarios for the automatic referee: YAML files in ``games/nightfighter/scenarios``.

A scenario file holds one mapping ``scenario:`` with the fields of the scenario record [3.2]
(the scenario book itself is not in the text, so every shipped scenario is marked
``source: assumed`` with a note, and single values carry ``assumed:`` notes where a rule
describes the kind of value but not the value). ``load_scenario`` reads a file with safe
loading only and reports every problem as ``file:line: key: message`` (unknown unit ids,
hexes, zones, radar ids, bad numbers) in one ``InputProblems`` (a ``BadInput``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from warpress.engine.errors import BadInput, InputProblems, Problem
from warpress.engine.inputs import check_path_name, quote
from warpress.engine.model import Game
from warpress.engine.yamlnodes import LList, LMap, read_yaml

from .detection import zone_letters

SCENARIO_DIR = Path(__file__).resolve().parents[3] / "games" / "nightfighter" / "scenarios"
#: The shipped scenarios, the default (the early cat's-eye night) first.
SHIPPED = ("cats-eye", "kammhuber-line", "tame-boar")
BEACON_BOX = "radio-beacon-box"
OMITTABLE = ("flak", "radar-search", "ai-search", "searchlight")
THEATRES = ("europe", "pacific", "other")
LEVELS = ("normal", "decisive")
#: unit tags of naval operations (26): refused rather than played as plain bombers
NAVAL_TAGS = frozenset({"torpedo", "flare-dropper"})
TOP_KEYS = {
    "title", "background", "difficulty", "game_length", "phases_omitted", "attacking_force",
    "arrival", "defending_force", "search_radars", "searchlights", "flak", "environment",
    "switches", "victory", "special_rules", "rule", "source", "note", "assumed",
}
SWITCH_KEYS = {"theatre", "date", "experten", "altitude_advantage", "tail_warning_radar",
               "deconfliction", "contrails", "jamming", "intruders"}


@dataclass(frozen=True)
class Force:
    """Attacking aircraft of one type: ``count`` counters drawn at random from the unit [3.4]."""

    unit: str
    count: int
    equipment: tuple[str, ...] = ()


@dataclass(frozen=True)
class Flight:
    """Night fighters of one type and where they start [3.2, 23.0]: one hex (or the radio
    beacon box) per fighter; ids are the unit's counter ids in order."""

    unit: str
    ids: tuple[str, ...]
    deploy: tuple[str, ...]
    facing: int


@dataclass(frozen=True)
class Level:
    """A victory level [4.1]: every given condition must hold."""

    name: str
    shot_down_at_least: int | None = None
    exited_at_most: int | None = None


@dataclass(frozen=True)
class Scenario:
    """One scenario record [3.2], checked against the game's data."""

    name: str
    title: str
    path: str
    background: str
    difficulty: str
    turns: int | None
    bombers_gone: int | None
    phases_omitted: tuple[str, ...]
    attackers: tuple[Force, ...]
    arrival: tuple[tuple[int, int], ...]
    defenders: tuple[Flight, ...]
    radars: tuple[tuple[str, int], ...]
    zones: tuple[str, ...]
    radar_guided: bool
    flak: bool
    moon: str
    visibility: str
    clouds: str
    altitude: str
    theatre: str
    date: str
    experten: tuple[str, ...]
    altitude_advantage: tuple[str, ...]
    tail_warning_radar: tuple[str, ...]
    deconfliction: bool
    contrails: bool
    victory: tuple[Level, ...]
    special_rules: tuple[str, ...]
    data: Mapping[str, Any]

    @property
    def fighter_ids(self) -> tuple[str, ...]:
        return tuple(i for f in self.defenders for i in f.ids)

    def counter_ids(self) -> tuple[str, ...]:
        """Search counter ids the player may place: ``freya``, or ``freya#2`` [13.1]."""
        out: list[str] = []
        for radar, count in self.radars:
            out.extend(radar if count == 1 else f"{radar}#{n}" for n in range(1, count + 1))
        return tuple(out)

    def summary(self) -> str:
        return f"{self.difficulty}; {self.turns or '-'} turns; " + ", ".join(
            f"{f.count} {f.unit}" for f in self.attackers)


# --- what the game's data allows ----------------------------------------------------------


def phase_ids(game: Game) -> tuple[str, ...]:
    """The phases of a turn in order: the ids of the game's sequence of play [4.0]."""
    return tuple(phase.id for phase in game.sequence)


def values(game: Game, section: str, field: str) -> tuple[str, ...]:
    """The values a scenario field or switch allows (``scenario-fields`` or
    ``scenario-switches`` of games/nightfighter/scenarios.yaml) [3.2]."""
    return tuple(game.get(section, field).get("values"))


# --- reading ------------------------------------------------------------------------------


def shipped_path(name: str) -> Path:
    return SCENARIO_DIR / f"{name}.yaml"


def resolve(name_or_path: str | None) -> tuple[Path, str]:
    """A shipped name or a YAML path -> (path, shown name); BadInput listing the choices."""
    text = SHIPPED[0] if name_or_path is None else str(name_or_path)
    if text in SHIPPED:
        return shipped_path(text), f"games/nightfighter/scenarios/{text}.yaml"
    path = Path(check_path_name(text, "--scenario"))
    # whatever is there (a link, a FIFO) is read_yaml's to refuse with its reason
    if path.suffix in (".yaml", ".yml") and os.path.lexists(path):
        return path, text
    raise BadInput(f"unknown scenario {quote(text)} (shipped: {', '.join(SHIPPED)}; or give the "
                   "path of a scenario .yaml file)")


def load_scenario(game: Game, name_or_path: str | None = None) -> Scenario:
    """Read and check a scenario; BadInput with one ``file:line: key: message`` per problem."""
    path, shown = resolve(name_or_path)
    data, problems = read_yaml(path, shown, root=path.parent)
    if problems:
        raise InputProblems(problems)
    return from_data(game, data, path.stem, shown)


def from_data(game: Game, data: Any, name: str, shown: str) -> Scenario:
    """Check a scenario mapping (``{"scenario": {...}}``) and build it; BadInput listing every
    problem. Plain dicts (from a session state) work too, with line 0."""
    checker = _Checker(game, shown)
    if not isinstance(data, Mapping) or not isinstance(data.get("scenario"), Mapping):
        checker.add(data, "scenario", "a scenario file is a mapping with one key 'scenario'")
        checker.raise_if_any()
    extra = set(data) - {"scenario"}
    for key in sorted(extra):
        checker.add(data, key, f"unknown key {key!r} (a scenario file holds only 'scenario')")
    scenario = checker.scenario(data["scenario"], name, shown)
    checker.raise_if_any()
    return scenario


def plain(value: Any) -> Any:
    """LMap/LList -> plain dicts and lists (JSON values)."""
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


class _Checker:
    """Collects problems while building a scenario."""

    def __init__(self, game: Game, shown: str):
        self.game = game
        self.shown = shown
        self.problems: list[Problem] = []

    def add(self, where: Any, key: str, message: str, path: str = "") -> None:
        line = where.line_of(key) if isinstance(where, LMap) else getattr(where, "line", 0)
        self.problems.append(Problem(self.shown, line, f"{path}.{key}" if path else key, message))

    def raise_if_any(self) -> None:
        if self.problems:
            raise InputProblems(sorted(set(self.problems)))

    # --- scalar helpers -------------------------------------------------------------------

    def text(self, m: Mapping, key: str, path: str, required: bool = True) -> str:
        value = m.get(key)
        if value is None and not required:
            return ""
        if not isinstance(value, str) or not value.strip():
            self.add(m, key, f"expected a text, got {value!r}", path)
            return ""
        return value

    def choice(self, m: Mapping, key: str, path: str, allowed: tuple[str, ...],
               default: str | None = None) -> str:
        value = m.get(key, default)
        if value not in allowed:
            self.add(m, key, f"{value!r} is not allowed ({'|'.join(allowed)})", path)
            return allowed[0]
        return value

    def listed(self, m: Mapping, key: str, path: str, section: str,
               default: str | None = None) -> str:
        """``choice`` among the values the game's data lists for ``key`` in ``section``."""
        return self.choice(m, key, path, values(self.game, section, key), default)

    def count(self, m: Mapping, key: str, path: str, low: int = 1,
              required: bool = True) -> int | None:
        value = m.get(key)
        if value is None and not required:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            self.add(m, key, f"expected a whole number >= {low}, got {value!r}", path)
            return None
        return value

    def flag(self, m: Mapping, key: str, path: str) -> bool:
        value = m.get(key, False)
        if not isinstance(value, bool):
            self.add(m, key, f"expected true or false, got {value!r}", path)
            return False
        return value

    def items(self, m: Mapping, key: str, path: str, required: bool = True) -> list:
        value = m.get(key)
        if value is None and not required:
            return []
        if not isinstance(value, list):
            self.add(m, key, f"expected a list, got {value!r}", path)
            return []
        return value

    def words(self, m: Mapping, key: str, path: str, allowed: tuple[str, ...],
              what: str) -> tuple[str, ...]:
        out = []
        for i, item in enumerate(self.items(m, key, path, required=False)):
            if str(item) not in allowed:
                where = m.get(key)
                line = where.line_of(i) if isinstance(where, LList) else 0
                self.problems.append(Problem(self.shown, line, f"{path}.{key}[{i}]",
                                             f"{item!r} is not {what} ({', '.join(allowed)})"))
                continue
            out.append(str(item))
        return tuple(out)

    # --- the record -----------------------------------------------------------------------

    def scenario(self, s: Mapping, name: str, shown: str) -> Scenario:
        p = "scenario"
        for key in sorted(set(s) - TOP_KEYS):
            self.add(s, key, f"unknown key {key!r} (allowed: {', '.join(sorted(TOP_KEYS))})", p)
        self._provenance(s, p)
        length = s.get("game_length")
        turns = gone = None
        if not isinstance(length, Mapping) or not ({"turns", "bombers_gone"} & set(length)):
            self.add(s, "game_length", "expected {turns: N} or {bombers_gone: N} [4.1]", p)
        else:
            turns = self.count(length, "turns", f"{p}.game_length", required=False)
            gone = self.count(length, "bombers_gone", f"{p}.game_length", required=False)
        attackers = self._attackers(s, p)
        defenders = self._defenders(s, p)
        fighter_ids = tuple(i for f in defenders for i in f.ids)
        lights = s.get("searchlights") or {}
        zones: tuple[str, ...] = ()
        radar_guided = False
        if not isinstance(lights, Mapping):
            self.add(s, "searchlights", "expected {zones: [...], radar_guided: yes/no}", p)
        else:
            zones = self.words(lights, "zones", f"{p}.searchlights", zone_letters(self.game),
                               "a searchlight zone")
            radar_guided = self.flag(lights, "radar_guided", f"{p}.searchlights")
        env = s.get("environment")
        if not isinstance(env, Mapping):
            self.add(s, "environment", "expected {moon, visibility, clouds}", p)
            env = {}
        sw = s.get("switches") or {}
        if not isinstance(sw, Mapping):
            self.add(s, "switches", "expected a mapping of switches", p)
            sw = {}
        for key in sorted(set(sw) - SWITCH_KEYS):
            self.add(sw, key, f"unknown switch {key!r} (allowed: {', '.join(sorted(SWITCH_KEYS))})",
                     f"{p}.switches")
        ps, pe = f"{p}.switches", f"{p}.environment"
        if sw.get("jamming", "none") != "none":
            self.add(sw, "jamming", f"{sw['jamming']!r}: jamming (24.5) is not played by the "
                                    "automatic referee yet; allowed: none", ps)
        return Scenario(
            name=name, title=self.text(s, "title", p), path=shown,
            background=self.text(s, "background", p),
            difficulty=self.listed(s, "difficulty", p, "scenario-fields"),
            turns=turns, bombers_gone=gone,
            phases_omitted=self.words(s, "phases_omitted", p, OMITTABLE, "an omittable phase"),
            attackers=attackers, arrival=self._arrival(s, p), defenders=defenders,
            radars=self._radars(s, p), zones=zones, radar_guided=radar_guided,
            flak=self.flag(s, "flak", p),
            moon=self.listed(env, "moon", pe, "scenario-fields"),
            visibility=self.listed(env, "visibility", pe, "scenario-fields"),
            clouds=self.listed(env, "clouds", pe, "scenario-fields"),
            altitude=self.listed(env, "altitude", pe, "scenario-switches", "normal"),
            theatre=self.choice(sw, "theatre", ps, THEATRES, "europe"),
            date=str(sw.get("date", "")),
            experten=self.words(sw, "experten", ps, fighter_ids, "a fighter id"),
            altitude_advantage=self.words(sw, "altitude_advantage", ps, fighter_ids,
                                          "a fighter id"),
            tail_warning_radar=self.words(sw, "tail_warning_radar", ps, fighter_ids,
                                          "a fighter id"),
            deconfliction=self.flag(sw, "deconfliction", ps),
            contrails=self.flag(sw, "contrails", ps),
            victory=self._victory(s, p),
            special_rules=tuple(str(r) for r in self.items(s, "special_rules", p, False)),
            data=plain({"scenario": s}),
        )

    def _provenance(self, s: Mapping, p: str) -> None:
        if s.get("source") == "assumed":
            if not s.get("note"):
                self.add(s, "source", "an assumed record needs a note (why these values)", p)
        elif not s.get("rule"):
            self.add(s, "rule", "every datum carries its rule number or source: assumed", p)
        assumed = s.get("assumed", {})
        if not isinstance(assumed, Mapping) or not all(
                isinstance(v, str) and v for v in assumed.values()):
            self.add(s, "assumed", "expected a mapping field -> one-line note", p)

    def _unit(self, m: Mapping, key: str, path: str, types: tuple[str, ...]) -> Any:
        unit_id = m.get(key)
        ids = [u.id for u in self.game.units if u.type in types]
        if unit_id not in ids:
            self.add(m, key, f"{unit_id!r} is not a unit id of type {'/'.join(types)} "
                             f"({', '.join(ids)})", path)
            return None
        return self.game.get("units", unit_id)

    def _attackers(self, s: Mapping, p: str) -> tuple[Force, ...]:
        out = []
        equipment = tuple(e.id for e in self.game.section("equipment"))
        for i, raw in enumerate(self.items(s, "attacking_force", p)):
            path = f"{p}.attacking_force[{i}]"
            if not isinstance(raw, Mapping):
                self.add(s, "attacking_force", "each entry is {unit, count}", p)
                continue
            unit = self._unit(raw, "unit", path, ("bomber", "intruder"))
            naval = sorted(set(getattr(unit, "tags", ())) & NAVAL_TAGS)
            if naval:
                self.add(raw, "unit", f"{unit.id!r} is a {' and '.join(naval)} of naval "
                                      "operations (26), which the automatic referee does not "
                                      "play", path)
                continue
            count = self.count(raw, "count", path)
            kit = self.words(raw, "equipment", path, equipment, "an equipment id")
            if unit is not None and count is not None:
                if count > len(unit.stats.get("counter_ids") or ()):
                    self.add(raw, "count", f"{count} is more than the {unit.id} counters "
                                           f"({len(unit.stats['counter_ids'])})", path)
                    continue
                out.append(Force(unit.id, count, kit))
        if not out and not any(pr.path.startswith(f"{p}.attacking_force") for pr in self.problems):
            self.add(s, "attacking_force", "at least one attacking aircraft", p)
        return tuple(out)

    def _arrival(self, s: Mapping, p: str) -> tuple[tuple[int, int], ...]:
        out: dict[int, int] = {}
        for i, raw in enumerate(self.items(s, "arrival", p)):
            path = f"{p}.arrival[{i}]"
            if not isinstance(raw, Mapping):
                self.add(s, "arrival", "each entry is {turn, entrants}", p)
                continue
            turn, n = self.count(raw, "turn", path), self.count(raw, "entrants", path)
            if turn is not None and n is not None:
                if n > 3:
                    self.add(raw, "entrants", f"{n}: a chit has 3 columns, at most 3 enter "
                                              "per turn [8.1.3]", path)
                if turn in out:
                    self.add(raw, "turn", f"turn {turn} is listed twice", path)
                out[turn] = n
        return tuple(sorted(out.items()))

    def _defenders(self, s: Mapping, p: str) -> tuple[Flight, ...]:
        out = []
        hexes = set(self.game.hex_map().hex_ids)
        for i, raw in enumerate(self.items(s, "defending_force", p)):
            path = f"{p}.defending_force[{i}]"
            if not isinstance(raw, Mapping):
                self.add(s, "defending_force", "each entry is {unit, count, deploy, facing; "
                                               "optionally counters}", p)
                continue
            unit = self._unit(raw, "unit", path, ("night-fighter",))
            count = self.count(raw, "count", path)
            deploy = self.items(raw, "deploy", path)
            facing = raw.get("facing", 0)
            if facing not in range(6) or isinstance(facing, bool):
                self.add(raw, "facing", f"{facing!r} is not a facing 0-5 (0 = N, clockwise)", path)
                facing = 0
            for j, where in enumerate(deploy):
                if str(where) not in hexes and where != BEACON_BOX:
                    line = deploy.line_of(j) if isinstance(deploy, LList) else 0
                    self.problems.append(Problem(
                        self.shown, line, f"{path}.deploy[{j}]",
                        f"{where!r} is not a hex on the map (CCRR, 0101-1827) or {BEACON_BOX}"))
            if unit is None or count is None:
                continue
            ids = tuple(unit.stats.get("counter_ids") or ())
            if count > len(ids):
                self.add(raw, "count", f"{count} is more than the {unit.id} counters "
                                       f"({len(ids)})", path)
                continue
            ids = self._counters(raw, path, unit.id, ids, count)
            if ids is None:
                continue
            if len(deploy) != count:
                self.add(raw, "deploy", f"{len(deploy)} places for {count} fighters", path)
                continue
            out.append(Flight(unit.id, ids[:count], tuple(str(d) for d in deploy), facing))
        return tuple(out)

    def _counters(self, raw: Mapping, path: str, unit: str, ids: tuple[str, ...],
                  count: int) -> tuple[str, ...] | None:
        """The counters a flight uses: ``counters`` (one per fighter, each one of the unit's
        counter ids), by default the unit's first ``count``."""
        chosen = raw.get("counters")
        if chosen is None:
            return ids
        if (not isinstance(chosen, list) or len(chosen) != count
                or len(set(map(str, chosen))) != count):
            self.add(raw, "counters", f"expected {count} different counter ids, one per "
                                      f"fighter (of {', '.join(ids)})", path)
            return None
        odd = [str(c) for c in chosen if str(c) not in ids]
        if odd:
            self.add(raw, "counters", f"{odd[0]!r} is no {unit} counter ({', '.join(ids)})",
                     path)
            return None
        return tuple(str(c) for c in chosen)

    def _radars(self, s: Mapping, p: str) -> tuple[tuple[str, int], ...]:
        ids = tuple(r.id for r in self.game.section("radars") if r.get("kind") in ("search",
                                                                                    "gci"))
        out = []
        for i, raw in enumerate(self.items(s, "search_radars", p, required=False)):
            path = f"{p}.search_radars[{i}]"
            if not isinstance(raw, Mapping):
                self.add(s, "search_radars", "each entry is {radar, count}", p)
                continue
            if raw.get("radar") not in ids:
                self.add(raw, "radar", f"{raw.get('radar')!r} is not a search radar id "
                                       f"({', '.join(ids)})", path)
                continue
            count = self.count(raw, "count", path)
            if count is not None:
                out.append((raw["radar"], count))
        return tuple(out)

    def _victory(self, s: Mapping, p: str) -> tuple[Level, ...]:
        v = s.get("victory")
        if not isinstance(v, Mapping) or "normal" not in v:
            self.add(s, "victory", "expected {normal: {...}, decisive: {...}} [4.1]", p)
            return ()
        out = []
        for level in LEVELS:
            cond = v.get(level)
            if cond is None:
                continue
            path = f"{p}.victory.{level}"
            if not isinstance(cond, Mapping) or not (
                    {"shot_down_at_least", "exited_at_most"} & set(cond)):
                self.add(v, level, "expected shot_down_at_least and/or exited_at_most", path)
                continue
            out.append(Level(level, self.count(cond, "shot_down_at_least", path, 0, False),
                             self.count(cond, "exited_at_most", path, 0, False)))
        for key in sorted(set(v) - set(LEVELS)):
            self.add(v, key, f"unknown victory level {key!r} ({', '.join(LEVELS)})", p)
        return tuple(out)

"""Data checks of the play forms (docs/playing.md, "What verify --data checks"): the
sequence's ``do:`` phases, the ``play`` mapping, conditions, reinforcements, replacements
and typed victory records, each problem located by file, line and key path."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..errors import BadInput, Problem
from ..model import Game, Item, Place, PlayRules, Selector
from .sequence import turns
from .setup import initial_position, scenario_names

#: phases a side acts in (``who`` must be a side)
INTERACTIVE = ("move", "rail", "combat", "replacements", "reinforcements")
EFFECT_KEYS = ("lose", "eliminate", "retreat", "exchange")


def _problem(item: Item, path: str, message: str) -> Problem:
    return Problem(item.origin.file, item.origin.line, path, message)


def _listed(names: Iterable[object]) -> str:
    ordered = sorted(str(n) for n in names)
    shown = ", ".join(ordered[:12]) + (", ..." if len(ordered) > 12 else "")
    return shown or "none"


class _Names:
    """What the game's data names: sides, units, unit types and tags, tables, tracks, map
    hexes, feature ids and kinds, terrains, hexside kinds, line kinds."""

    def __init__(self, game: Game):
        self.sides = {s.id for s in game.info.sides}
        self.units = {u.id for u in game.units}
        self.types = {u.type for u in game.units}
        self.tags = {t for u in game.units for t in u.tags}
        self.tables = {t.id: t for t in game.tables}
        self.hexes = {h for m in game.hex_maps for h in m.hex_set}
        self.features = {f.id for m in game.hex_maps for f in m.features if f.id}
        self.kinds = {f.kind for m in game.hex_maps for f in m.features}
        self.lines = {f.kind for m in game.hex_maps for f in m.features if f.get("path")}
        self.hexsides = {f.kind for m in game.hex_maps for f in m.features
                         if f.get("hexsides")}
        self.terrains = {t.id for t in game.terrain} | {m.terrain or "clear"
                                                        for m in game.hex_maps}


def check_play(game: Game) -> Iterator[Problem]:
    """Every play-form problem of ``game`` (none when it has no ``play`` and no ``do:``)."""
    names = _Names(game)
    yield from _check_sequence(game, names)
    if game.play is None:
        return
    yield from _check_rules(game, names)
    yield from _check_conditions(game, names)
    yield from _check_arrivals(game, names)
    yield from _check_victory(game, names)
    yield from _check_setup(game)


# --- sequence -------------------------------------------------------------------------------


def _check_sequence(game: Game, names: _Names) -> Iterator[Problem]:
    played = [p for p in game.sequence if p.do is not None]
    if game.play is not None and not played:
        yield _problem(game.play, "play", "a game with play rules needs phases to play: give "
                       "the sequence's phases a do: (move, combat, ...)")
    for p in played:
        path = f"sequence[{p.id}]"
        if p.do in INTERACTIVE and p.who not in names.sides:
            yield _problem(p, f"{path}.who", f"who {p.who!r} must be a side that acts in a "
                           f"do: {p.do} phase (sides: {_listed(names.sides)})")
        if p.do == "roll":
            if p.table is None:
                yield _problem(p, f"{path}.table", "a do: roll phase names the table it rolls")
            elif p.table not in names.tables:
                yield _problem(p, f"{path}.table", f"no table {p.table!r} (tables: "
                               f"{_listed(names.tables)})")
        if p.do == "combat" and (game.play is None or game.play.combat is None):
            yield _problem(p, f"{path}.do", "a do: combat phase needs play.combat (its table "
                           "and results)")
        if p.do == "rail" and (game.play is None or game.play.movement.rail is None):
            yield _problem(p, f"{path}.do", "a do: rail phase needs play.movement.rail")
        if p.units is not None:
            yield from _check_selector(p.units, f"{path}.units", names)
        if p.turns is not None and not isinstance(p.turns, int | tuple):
            yield _problem(p, f"{path}.turns", f"turns is a turn or a list of turns, got "
                           f"{p.turns!r}")


def _check_selector(selector: Selector, path: str, names: _Names) -> Iterator[Problem]:
    for key, known in (("types", names.types), ("tags", names.tags),
                       ("units", names.units)):
        for value in getattr(selector, key):
            if value not in known:
                yield _problem(selector, f"{path}.{key}", f"{value!r} is no unit's "
                               f"{key[:-1] if key != 'units' else 'id'} (have: "
                               f"{_listed(known)})")
    if selector.side is not None and selector.side not in names.sides:
        yield _problem(selector, f"{path}.side", f"{selector.side!r} is not a side "
                       f"({_listed(names.sides)})")


# --- the play mapping -----------------------------------------------------------------------


def _check_rules(game: Game, names: _Names) -> Iterator[Problem]:
    play = game.play
    assert play is not None
    yield from _check_turns(play, game)
    stat = play.movement.allowance
    for unit in game.units:
        if stat not in unit.stats:
            yield _problem(unit, f"units[{unit.id}].stats", f"no {stat!r}: play.movement."
                           f"allowance reads the unit's MP from it")
            break
    rail = play.movement.rail
    if rail is not None and rail.kind not in names.lines:
        yield _problem(rail, "play.movement.rail.kind", f"no map feature of kind {rail.kind!r} "
                       f"with a path (line kinds: {_listed(names.lines)})")
    zoc = play.zoc
    if zoc.units is not None:
        yield from _check_selector(zoc.units, "play.zoc.units", names)
    for kind in zoc.hexsides:
        if kind not in names.hexsides:
            yield _problem(zoc, "play.zoc.hexsides", f"{kind!r} is no hexside kind of a map "
                           f"({_listed(names.hexsides)})")
    for terrain in zoc.terrain:
        if terrain not in names.terrains:
            yield _problem(zoc, "play.zoc.terrain", f"{terrain!r} is no terrain "
                           f"({_listed(names.terrains)})")
    yield from _check_combat(play, names)
    if play.supply is not None:
        for side, places in play.supply.sources.items():
            if side not in names.sides:
                yield _problem(play.supply, "play.supply.sources", f"{side!r} is not a side "
                               f"({_listed(names.sides)})")
            for k, place in enumerate(places):
                yield from _check_place(place, f"play.supply.sources.{side}[{k}]", names)
    control = play.control
    yield from _check_place(Place(hexes=control.hexes, features=control.features,
                                  kinds=control.kinds, origin=control.origin),
                            "play.control", names)
    if control.initial is not None and control.initial not in names.sides:
        yield _problem(control, "play.control.initial", f"{control.initial!r} is not a side "
                       f"({_listed(names.sides)})")
    for entry in game.terrain:
        if entry.side is not None and entry.side not in names.sides:
            yield _problem(entry, f"terrain[{entry.id}].side", f"{entry.side!r} is not a side "
                           f"({_listed(names.sides)})")


def _check_turns(play: PlayRules, game: Game) -> Iterator[Problem]:
    rules = play.turns
    if (rules.track is None) == (rules.count is None):
        yield _problem(rules, "play.turns", "give the turn track (track: turn) or the number "
                       "of turns (count: 7), one of them")
        return
    if rules.count is not None and rules.count < 1:
        yield _problem(rules, "play.turns.count", f"count {rules.count} is not a number of "
                       f"turns (1 or more)")
    if rules.track is not None:
        track = next((t for t in game.tracks if t.id == rules.track), None)
        if track is None:
            yield _problem(rules, "play.turns.track", f"no track {rules.track!r} (tracks: "
                           f"{_listed(t.id for t in game.tracks)})")
        elif not any(isinstance(v, int) and not isinstance(v, bool) for v in track.values):
            yield _problem(track, f"tracks[{track.id}].values", "the turn track's values must "
                           "be whole numbers (the turns)")


def _check_combat(play: PlayRules, names: _Names) -> Iterator[Problem]:
    combat = play.combat
    if combat is None:
        return
    table = names.tables.get(combat.table)
    if table is None or table.crt is None:
        have = [t for t, r in names.tables.items() if r.crt is not None]
        yield _problem(combat, "play.combat.table", f"{combat.table!r} is no table with a "
                       f"crt: form (crts: {_listed(have)})")
        return
    form = table.crt
    codes = set(form.codes) | {c for row in form.grid.values() for c in row}
    codes |= {e for e in (form.below, form.above) if e != "clamp"}
    for code in sorted(codes - set(combat.results)):
        yield _problem(combat, "play.combat.results", f"result code {code!r} of "
                       f"{table.id} has no effect: give it one ({code}: [] for none)")
    for code, effects in combat.results.items():
        path = f"play.combat.results.{code}"
        if code not in codes:
            yield _problem(combat, path, f"{code!r} is no result code of {table.id} "
                           f"({_listed(codes)})")
        for k, effect in enumerate(effects):
            given = [key for key in EFFECT_KEYS if getattr(effect, key) is not None]
            if len(given) != 1:
                yield _problem(effect, f"{path}[{k}]", f"an effect is one of "
                               f"{', '.join(EFFECT_KEYS)}, got {_listed(given)}")
            if effect.steps < 1 or effect.hexes < 1:
                yield _problem(effect, f"{path}[{k}]", "steps and hexes are 1 or more")


def _check_place(place: Place, path: str, names: _Names) -> Iterator[Problem]:
    for hex_id in place.hexes:
        if hex_id not in names.hexes:
            yield _problem(place, f"{path}.hexes", f"{hex_id!r} is not a hex of a map")
    for fid in place.features:
        if fid not in names.features:
            yield _problem(place, f"{path}.features", f"{fid!r} is no map feature (features: "
                           f"{_listed(names.features)})")
    for kind in place.kinds:
        if kind not in names.kinds:
            yield _problem(place, f"{path}.kinds", f"{kind!r} is no feature kind of a map "
                           f"({_listed(names.kinds)})")


# --- conditions, reinforcements, replacements -----------------------------------------------


def _turns(game: Game) -> set[int] | None:
    """The game's turns, or None when its turn rules are broken (reported once)."""
    try:
        return set(turns(game))
    except BadInput:
        return None


def _check_conditions(game: Game, names: _Names) -> Iterator[Problem]:
    known = _turns(game)
    for c in game.conditions:
        path = f"conditions[{c.id}]"
        if not c.turns and c.table is None:
            yield _problem(c, path, "a condition holds on turns: [...] or after a table's "
                           "result (table: and result:)")
        for t in c.turns:
            if known is not None and t not in known:
                yield _problem(c, f"{path}.turns", f"turn {t} is not a turn of the game "
                               f"({_listed(known)})")
        if c.table is not None:
            table = names.tables.get(c.table)
            if table is None:
                yield _problem(c, f"{path}.table", f"no table {c.table!r}")
            else:
                results = {v for row in table.rows for v in table.result(row).values()}
                if c.result not in results:
                    yield _problem(c, f"{path}.result", f"{c.result!r} is no result of "
                                   f"{c.table} ({_listed(results)})")
            if not any(p.do == "roll" and p.table == c.table for p in game.sequence):
                yield _problem(c, f"{path}.table", f"no do: roll phase rolls {c.table!r}")
        if c.side is not None and c.side not in names.sides:
            yield _problem(c, f"{path}.side", f"{c.side!r} is not a side")


def _check_arrivals(game: Game, names: _Names) -> Iterator[Problem]:
    known = _turns(game)
    for r in game.reinforcements:
        path = f"reinforcements[{r.id}]"
        for unit in r.units:
            if unit not in names.units:
                yield _problem(r, f"{path}.units", f"{unit!r} is no unit")
        if known is not None and r.turn not in known:
            yield _problem(r, f"{path}.turn", f"turn {r.turn} is not a turn of the game "
                           f"({_listed(known)})")
        if (r.to is None) == (not r.at):
            yield _problem(r, path, "give where the units arrive: at: [places] (placed in a "
                           "do: reinforcements phase) or to: POOL")
        for k, place in enumerate(r.at):
            yield from _check_place(place, f"{path}.at[{k}]", names)
        sides = {u.side for u in game.units if u.id in r.units}
        for side in sides:
            if r.at and not any(p.do == "reinforcements" and p.who == side
                                for p in game.sequence):
                yield _problem(r, path, f"no do: reinforcements phase of {side} places them")
    for rep in game.replacements:
        path = f"replacements[{rep.id}]"
        if rep.side not in names.sides:
            yield _problem(rep, f"{path}.side", f"{rep.side!r} is not a side "
                           f"({_listed(names.sides)})")
        if rep.units is not None:
            yield from _check_selector(rep.units, f"{path}.units", names)
        for key in ("at", "restore_at"):
            for k, place in enumerate(getattr(rep, key)):
                yield from _check_place(place, f"{path}.{key}[{k}]", names)
        if not any(p.do == "replacements" and p.who == rep.side for p in game.sequence):
            yield _problem(rep, path, f"no do: replacements phase of {rep.side} spends them")


# --- victory and set-up ---------------------------------------------------------------------


def _check_victory(game: Game, names: _Names) -> Iterator[Problem]:
    for c in game.victory:
        if c.check is None:
            continue
        path = f"victory[{c.id}]"
        yield from _check_place(Place(hexes=c.hexes, features=c.features, kinds=c.kinds,
                                      origin=c.origin), path, names)
        if c.check == "hold" and not (c.hexes or c.features or c.kinds):
            yield _problem(c, path, "check: hold names the hexes held (hexes, features or "
                           "kinds)")
        if c.check == "points" and not c.points:
            yield _problem(c, f"{path}.points", "check: points needs its sources (points)")
        for k, source in enumerate(c.points):
            yield from _check_place(Place(hexes=source.hexes, features=source.features,
                                          kinds=source.kinds, origin=source.origin),
                                    f"{path}.points[{k}]", names)
            if source.eliminated is not None:
                yield from _check_selector(source.eliminated,
                                           f"{path}.points[{k}].eliminated", names)
        for key in ("side", "otherwise"):
            value = getattr(c, key)
            if value is not None and value not in names.sides and value != (
                    "draw" if key == "otherwise" else None):
                yield _problem(c, f"{path}.{key}", f"{value!r} is not a side"
                               f"{' or draw' if key == 'otherwise' else ''}")


def _check_setup(game: Game) -> Iterator[Problem]:
    """The first position of each scenario can be built (counts, units, hexes)."""
    if _turns(game) is None:
        return
    for name in scenario_names(game):
        try:
            initial_position(game, name)
        except BadInput as exc:
            yield Problem(f"{game.id} set-up", 0, f"scenario {name}", str(exc))

"""The Classic board (point map ``world``): control, NPL and income, victory, movement,
placement and submarine withdrawal.

Territories and sea zones are the map's points (``production``, ``owner``, ``capital``,
``flags``); routes are ``land``, ``sea`` or ``coast``. Control is a mapping territory ->
power that starts as the printed owners and changes by ``territory:power`` entries.
Distances use ``engine/graph.py``: land units by land routes, ships by sea routes,
aircraft by any route.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from warpress.engine.errors import BadInput, RuleViolation
from warpress.engine.graph import Graph
from warpress.engine.model import Game, Point, PointMap
from warpress.engine.tables import lookup

from .common import const, domain, flag, has_tag, memo, unit_row

Control = Mapping[str, str]
NEUTRAL = "neutral"


def world(game: Game) -> PointMap:
    """The board (the game's first point map)."""
    if not game.point_maps:
        raise BadInput(f"game {game.id!r} has no board")
    return game.point_maps[0]


def points(game: Game) -> dict[str, Point]:
    """Every territory and sea zone by id."""
    return memo(game, ("points",), lambda: {p.id: p for p in world(game).points})


def point(game: Game, point_id: str, name: str = "territory") -> Point:
    """A point of the board; an id not on the map is bad input naming the input."""
    found = points(game).get(str(point_id).strip())
    if found is None:
        raise BadInput(f"input {name}={point_id!r} is not a territory or sea zone of the board "
                       f"(ids like 'germany', 'east-us', 'japan-sea-zone')")
    return found


def is_sea(p: Point) -> bool:
    return p.kind == "sea"


def graph(game: Game, kinds: tuple[str, ...]) -> Graph:
    """The board as a graph over the routes of ``kinds`` (land, sea, coast)."""
    def make() -> Graph:
        wanted_sea = "sea" in kinds and "land" not in kinds
        wanted_land = "land" in kinds and "sea" not in kinds
        nodes = [p.id for p in world(game).points
                 if not (wanted_sea and not is_sea(p)) and not (wanted_land and is_sea(p))]
        edges = [(r.a, r.b) for r in world(game).routes if r.kind in kinds]
        return Graph(nodes, edges)

    return memo(game, ("graph", kinds), make)


def graph_for(game: Game, unit_type: str) -> Graph:
    """Land units move by land, ships by sea, aircraft over both (unit domains)."""
    where = domain(game, unit_type)
    if where == "sea":
        return graph(game, ("sea",))
    if where == "air":
        return graph(game, ("land", "sea", "coast"))
    return graph(game, ("land",))


def distance(game: Game, start: str, end: str, unit_type: str) -> int | None:
    """Spaces moved from ``start`` to ``end`` by ``unit_type`` (None: cannot get there)."""
    a, b = point(game, start, "start"), point(game, end, "end")
    g = graph_for(game, unit_type)
    if a.id not in g or b.id not in g:
        return None
    return g.distance(a.id, b.id)


# --------------------------------------------------------------------------- control


def start_control(game: Game) -> dict[str, str]:
    """Printed owners of the land territories (the setup's control markers)."""
    return {p.id: str(p.get("owner")) for p in world(game).points if not is_sea(p)}


def sides(game: Game) -> tuple[str, ...]:
    return tuple(s.id for s in game.info.sides)


def control_after(game: Game, changes: Iterable[str], name: str) -> dict[str, str]:
    """Start control with ``territory:power`` changes applied (bad entries are bad input)."""
    control = start_control(game)
    for entry in changes:
        where, sep, who = str(entry).partition(":")
        if not sep:
            raise BadInput(f"input {name}: {entry!r} is not territory:power")
        p = point(game, where, name)
        if is_sea(p):
            raise BadInput(f"input {name}: {p.id!r} is a sea zone; only territories are controlled")
        if who not in sides(game):
            raise BadInput(f"input {name}: {who!r} is not a power ({', '.join(sides(game))})")
        control[p.id] = who
    return control


def alliance(game: Game, power: str) -> str | None:
    """axis or allies (the alliances section)."""
    for record in game.section("alliances"):
        if power in record.get("members", ()):
            return record.id
    return None


def friendly(game: Game, power: str, other: str) -> bool:
    """Same power or same alliance."""
    return power == other or (alliance(game, power) is not None
                              and alliance(game, power) == alliance(game, other))


def territories_of(game: Game, power: str, control: Control) -> list[str]:
    return [t for t, who in control.items() if who == power]


def income_value(game: Game, territory: str) -> int:
    """The income value a territory prints (``production``; 0 when it prints none)."""
    return int(points(game)[territory].get("production") or 0)


def npl(game: Game, power: str, control: Control) -> int:
    """National Production Level: the income values of the territories held (⑥, I19)."""
    return sum(income_value(game, t) for t in territories_of(game, power, control))


def income(game: Game, npl_value: int) -> int:
    """IPC collected in ⑥: the NPL itself (constant income-is-npl, E11)."""
    if not flag(game, "income-is-npl"):
        raise BadInput("the data says income is not the NPL; the engine knows no other rule")
    return npl_value


def npl_of_values(values: Iterable[int]) -> int:
    """NPL of territories with these income values (W30)."""
    return sum(values)


# --------------------------------------------------------------------------- victory


def victory_check(game: Game, axis_lost: int, allied_lost: int, axis_npl: int,
                  round_end: bool) -> tuple[dict[str, Any], tuple[str, ...], tuple[str, ...]]:
    """Table victory (the play aid): winner and reason, with the row's rules and errata."""
    from warpress.engine.tables import lookup_row

    table = game.table("victory")
    row, out = lookup_row(table, round_end=round_end, axis_capitals_lost=axis_lost,
                          allied_capitals_lost=allied_lost, axis_npl=axis_npl)
    return (dict(out), tuple(row.rule or table.rule), tuple(row.errata or table.errata))


def capitals(game: Game) -> dict[str, str]:
    """Capital territory -> its power (points flagged capital)."""
    return {p.id: str(p.get("owner")) for p in world(game).points
            if p.get("capital") is True or "capital" in p.flags}


def capitals_lost(game: Game, side: str, control: Control) -> int:
    """Capitals of ``side``'s powers held by a power of another alliance."""
    return sum(1 for t, owner in capitals(game).items()
               if alliance(game, owner) == side and alliance(game, control[t]) != side)


def axis_npl(game: Game, control: Control) -> int:
    """Germany's NPL + Japan's NPL: every Axis power's (victory conditions, L13)."""
    members = next(r.get("members") for r in game.section("alliances") if r.id == "axis")
    return sum(npl(game, m, control) for m in members)


def board_victory(game: Game, control: Control, round_end: bool):
    """Victory check over the board: capitals lost and the Axis NPL, then table victory."""
    lost_axis = capitals_lost(game, "axis", control)
    lost_allied = capitals_lost(game, "allies", control)
    total = axis_npl(game, control)
    top = game.table("victory").key("axis_npl").max
    out, rules, errata = victory_check(game, lost_axis, lost_allied, min(total, top), round_end)
    out.update(axis_npl=total, axis_capitals_lost=lost_axis, allied_capitals_lost=lost_allied)
    return out, rules, errata


# --------------------------------------------------------------------------- placement


def placement_limit(game: Game, factory: str, territory_income: int | None,
                    territory: str | None, place: int | None) -> int | str:
    """Table placement-limit; ``place`` over the limit is a rule violation (⑤, I15).

    ``place`` counts every unit the factory places this turn (those placed already too).
    """
    where = "a territory"
    if territory is not None:
        p = point(game, territory, "territory")
        if is_sea(p):
            raise BadInput(f"input territory={territory!r} is a sea zone; factories stand on land")
        board_income = income_value(game, p.id)
        if territory_income is not None and territory_income != board_income:
            raise BadInput(f"input income={territory_income} but {p.id} prints {board_income}")
        territory_income = board_income
        where = p.id
    if territory_income is None:
        if factory != "original":
            key = game.table("placement-limit").key("income")
            raise BadInput(f"missing input 'income' (integer {key.min}..{key.max}) "
                           "for a factory built during the game")
        territory_income = game.table("placement-limit").key("income").min
    limit = lookup(game.table("placement-limit"), factory=factory, income=territory_income)["limit"]
    if place is not None and isinstance(limit, int) and place > limit:
        raise RuleViolation("⑤", f"{place} units this turn at a factory built during the game in "
                                 f"{where} (income {territory_income}): at most {limit}")
    return limit


def check_factory_kind(game: Game, territory: str, factory: str) -> None:
    """A territory with an industrial complex from the start of the game (flag
    original-factory) keeps it: no second one is built there (⑤ L112, I16); a factory there
    from the start stands only where the board prints one (the lookup's inputs)."""
    p = point(game, territory, "territory")
    original = "original-factory" in p.flags
    if factory == "built" and original:
        most = const(game, "max-factories-per-territory")
        raise RuleViolation("⑤", f"{p.id} has had an industrial complex since the start of the "
                                 f"game: at most {most} a territory, so none is built there")
    if factory == "original" and not original:
        raise BadInput(f"input factory=original: {p.id} had no industrial complex at the start "
                       "of the game (factory=built for one bought during it)")


def check_placement(game: Game, power: str, where: str, units: Mapping[str, int],
                    control: Control, *, factories: Mapping[str, str],
                    built_this_turn: Iterable[str] = (), captured_this_turn: Iterable[str] = (),
                    already: Mapping[str, int] | None = None,
                    placed: Mapping[str, int] | None = None) -> dict[str, Any]:
    """Check placing ``units`` at ``where`` in ⑤ (I14-I16); returns where they stand.

    Land units and aircraft go in the factory's territory; ships in a sea zone next to
    it. ``factories`` maps territory -> original|built; ``already`` counts the AA guns
    and factories standing in ``where``; ``placed`` the units each factory has placed
    this turn (a factory built during the game places at most its territory's income
    value a turn, I15). A new industrial complex goes to a territory held since the
    start of the turn; no unit is placed with it (it was bought this turn, I14).
    """
    p = point(game, where, "where")
    ships = [t for t in units if domain(game, t) == "sea"]
    count = sum(n for t, n in units.items() if t != "factory")
    if is_sea(p):
        if len(ships) != len(units):
            raise RuleViolation("⑤", f"only sea units are placed in a sea zone ({p.id})")
        sites = [t for t in graph(game, ("coast",)).neighbours(p.id) if t in factories]
    else:
        if ships:
            raise RuleViolation("⑤", f"sea units are placed in a sea zone next to the factory, "
                                     f"not in {p.id}")
        sites = [p.id] if p.id in factories else []
    usable = [s for s in sites if _factory_usable(game, power, s, control, built_this_turn,
                                                  captured_this_turn)]
    placing_factory = not is_sea(p) and "factory" in units
    if placing_factory and not _factory_usable(game, power, p.id, control, (),
                                               captured_this_turn):
        raise RuleViolation("⑤", f"a new industrial complex goes to a territory {power} has "
                                 f"held since the start of the turn, not {p.id}")
    if not usable and (count or not placing_factory):
        raise RuleViolation("⑤", f"no factory {power} may use for {p.id}: it must be held since "
                                 "the start of the turn and not bought this turn")
    if count:
        usable = _with_room(game, usable, factories, count, placed or {})
    _check_facility_limits(game, p.id, units, already or {})
    on_carrier = flag(game, "new-fighters-on-carriers")
    loaded = flag(game, "new-land-units-loaded")
    return {"where": p.id, "factory": usable[0] if usable else p.id,
            "fighters_on_carriers": on_carrier, "land_units_loaded": loaded}


def _with_room(game: Game, sites: list[str], factories: Mapping[str, str], count: int,
               placed: Mapping[str, int]) -> list[str]:
    """The sites whose factory may still place ``count`` units this turn (⑤, I15); when none
    may, the first one's refusal."""
    fits, refusals = [], []
    for site in sites:
        try:
            placement_limit(game, factories[site], None, site, count + placed.get(site, 0))
        except RuleViolation as exc:
            refusals.append(exc)
        else:
            fits.append(site)
    if not fits:
        raise refusals[0]
    return fits


def _factory_usable(game: Game, power: str, site: str, control: Control,
                    built: Iterable[str], captured: Iterable[str]) -> bool:
    """Held since the start of the turn and not bought this turn (⑤, I14)."""
    if control.get(site) != power or site in set(captured):
        return not flag(game, "placement-needs-control-since-turn-start") and (
            control.get(site) == power)
    return site not in set(built) or flag(game, "placement-at-new-factory-this-turn")


def _units(unit_type: str, n: int) -> str:
    """``factory``/``factories``, ``AA gun``/``AA guns``: a count's noun."""
    one, many = {"factory": ("factory", "factories"),
                 "antiaircraft": ("AA gun", "AA guns")}.get(unit_type, (unit_type, unit_type))
    return one if n == 1 else many


def _check_facility_limits(game: Game, where: str, units: Mapping[str, int],
                           already: Mapping[str, int]) -> None:
    """At most one factory and one AA gun per territory (⑤, I16)."""
    for unit_type, constant in (("factory", "max-factories-per-territory"),
                                ("antiaircraft", "max-aa-guns-per-territory")):
        most = int(const(game, constant))
        total = units.get(unit_type, 0) + already.get(unit_type, 0)
        if total > most:
            raise RuleViolation("⑤", f"{where} would hold {total} {_units(unit_type, total)}: "
                                     f"at most {most} a territory")


# --------------------------------------------------------------------------- movement


def hostile(game: Game, power: str, territory: str, control: Control) -> bool:
    """Held by a power of the other alliance (not neutral, not ``power``'s own side)."""
    owner = control.get(territory)
    return owner is not None and owner != NEUTRAL and not friendly(game, power, owner)


def combat_move(game: Game, power: str, unit_type: str, path: list[str], control: Control,
                enemy_units: Iterable[str] = ()) -> tuple[dict[str, str], tuple[str, ...]]:
    """② Combat movement along ``path`` (start first): returns new control, captured.

    Only armor may blitz (constant blitz-units): pass through an enemy-controlled
    territory with no enemy units, taking it (I21). Other units stop at the first
    enemy territory (aircraft fly over); nobody passes a space with enemy units or a
    neutral territory. A land unit ending in an empty enemy territory takes it.
    """
    occupied = set(enemy_units)
    _check_path(game, unit_type, path)
    new = dict(control)
    captured: list[str] = []
    for step, where in enumerate(path[1:], start=1):
        last = step == len(path) - 1
        if control.get(where) == NEUTRAL:
            raise RuleViolation("② combat movement", f"{where} is neutral")
        if last:
            break
        if where in occupied:
            raise RuleViolation("② combat movement", f"{unit_type} cannot move through {where}: "
                                                     "it holds enemy units")
        if hostile(game, power, where, control) and not has_tag(game, unit_type, "aircraft"):
            if unit_type not in const(game, "blitz-units"):
                who = ", ".join(const(game, "blitz-units"))
                raise RuleViolation("② combat movement", f"only {who} may blitz through {where}")
            new[where] = power
            captured.append(where)
    end = path[-1]
    if hostile(game, power, end, control) and end not in occupied and not is_sea(
            point(game, end)) and domain(game, unit_type) == "land":
        new[end] = power
        captured.append(end)
    return new, tuple(captured)


def _check_path(game: Game, unit_type: str, path: list[str], used: int = 0) -> None:
    """Adjacent steps by the unit's routes, within its movement (less movement used)."""
    if len(path) < 2:
        raise BadInput("input path: give the start and at least one more space")
    g = graph_for(game, unit_type)
    for a, b in zip(path, path[1:], strict=False):
        pa, pb = point(game, a, "path"), point(game, b, "path")
        if pa.id not in g or pb.id not in g or not g.adjacent(pa.id, pb.id):
            raise RuleViolation("unit table", f"{unit_type} cannot move from {a} to {b}")
    move = unit_row(game, unit_type)["move"] or 0
    if used + len(path) - 1 > move:
        raise RuleViolation("unit table", f"{unit_type} moves {move}; this path needs "
                                          f"{used + len(path) - 1}")


def noncombat_move(game: Game, power: str, unit_type: str, path: list[str], control: Control,
                   *, enemy_units: Iterable[str] = (), moved_in_combat: bool = False,
                   used: int = 0, captured_this_turn: Iterable[str] = (),
                   carriers: Iterable[str] = ()) -> str:
    """④ Non-combat movement along ``path``; returns where the unit ends.

    Land and sea units that moved in ② stay (I13) and never enter enemy-occupied,
    enemy-controlled or neutral spaces (I12, E6: sea zones are never neutral).
    Aircraft that fought (``moved_in_combat``: they start in the battle space) leave it,
    use only the movement left and land in a friendly territory not captured this turn,
    or (fighters) on an own or allied carrier, never where enemy units are (I11, E7).
    """
    occupied = set(enemy_units)
    aircraft = has_tag(game, unit_type, "aircraft")
    if moved_in_combat and not aircraft and flag(game, "noncombat-only-unmoved-units"):
        raise RuleViolation("④ non-combat movement",
                            f"{unit_type} moved in combat movement and cannot move now")
    _check_path(game, unit_type, path, used if aircraft else 0)
    spaces = path[-1:] if aircraft else path[1:]
    if aircraft and moved_in_combat and path[-1] == path[0] and flag(
            game, "aircraft-must-leave-battle"):
        raise RuleViolation("④ non-combat movement", f"{unit_type} fought in {path[0]} and "
                                                      "must leave it")
    for where in spaces:
        if where in occupied:
            raise RuleViolation("④ non-combat movement", f"{where} holds enemy units")
        if not is_sea(point(game, where)) and (
                control.get(where) == NEUTRAL or hostile(game, power, where, control)):
            what = "neutral" if control.get(where) == NEUTRAL else "enemy-controlled"
            raise RuleViolation("④ non-combat movement", f"{where} is {what}")
    if aircraft:
        _check_landing(game, power, unit_type, path[-1], control, captured_this_turn, carriers)
    return path[-1]


def _check_landing(game: Game, power: str, unit_type: str, where: str, control: Control,
                   captured: Iterable[str], carriers: Iterable[str]) -> None:
    if is_sea(point(game, where)):
        if unit_type in const(game, "carrier-landing-units") and where in set(carriers):
            return
        raise RuleViolation("④ non-combat movement", f"{unit_type} cannot land in {where} "
                                                      "(fighters only, on a friendly carrier)")
    if where in set(captured) and flag(game, "no-landing-where-captured-this-turn"):
        raise RuleViolation("④ non-combat movement", f"{where} was captured this turn")


def sub_withdrawal(game: Game, side: str, zone: str, to: str, *, entered_from: str | None = None,
                   enemy_zones: Iterable[str] = ()) -> str:
    """sea 7): the attacker's subs go back where they came from; the defender's to an
    adjacent sea zone that is friendly or free of enemy units (I10)."""
    if not flag(game, "subs-may-withdraw"):
        raise RuleViolation("sea 7)", "submarines may not withdraw")
    a, b = point(game, zone, "zone"), point(game, to, "to")
    if not is_sea(a) or not is_sea(b):
        raise BadInput(f"input to={to!r}: submarines withdraw between sea zones")
    if side == "attacker":
        if b.id != entered_from:
            raise RuleViolation("sea 7)", f"an attacking submarine withdraws to {entered_from}, "
                                          f"the sea zone it entered from, not {b.id}")
        return b.id
    if not graph(game, ("sea",)).adjacent(a.id, b.id):
        raise RuleViolation("sea 7)", f"{b.id} is not next to {a.id}")
    if b.id in set(enemy_zones):
        raise RuleViolation("sea 7)", f"{b.id} holds enemy units")
    return b.id


# --------------------------------------------------------------------------- sequence


def next_turn(game: Game, power: str, round_number: int) -> tuple[str, int]:
    """The power whose turn follows, and its round (constant turn-order, I1)."""
    order = list(const(game, "turn-order"))
    if power not in order:
        raise BadInput(f"input power={power!r} is not a power ({', '.join(order)})")
    k = order.index(power) + 1
    return (order[k], round_number) if k < len(order) else (order[0], round_number + 1)


def year_of_round(game: Game, round_number: int) -> int:
    """The year of a round: 4 rounds a year from 1942 (constants rounds-per-year, start-year)."""
    per_year = int(const(game, "rounds-per-year"))
    return int(const(game, "start-year")) + (round_number - 1) // per_year

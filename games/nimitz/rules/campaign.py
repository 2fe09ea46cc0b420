"""Campaign procedures: US supply and movement, supply tracing, post-battle phases, victory.

Rules 4.0-8.4 and 11.1-12.6. Points are the campaign map's ids; the map's routes
make a graph (engine/graph.py) for supply tracing and distances.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass

from warpress.engine.errors import BadInput, RuleViolation
from warpress.engine.model import Game

from .common import (
    const,
    extra,
    graph,
    is_carrier,
    is_ground,
    is_land_air,
    point_record,
    stat,
    table_row,
    unit,
)

# --------------------------------------------------------------------------- US supply phase


def unit_buy_cost(game: Game, unit_id: str) -> int:
    """Purchase / repair cost: a carrier's right (navy) value, else its one cost (2.6.3)."""
    return int(stat(unit(game, unit_id), "cost_buy"))


def unit_hit_cost(game: Game, unit_id: str) -> int:
    """Hit-allocation cost: every carrier 1 (2.6.3, 10.10.2)."""
    item = unit(game, unit_id)
    if is_carrier(item):
        return int(const(game, "carrier-hit-cost"))
    return int(stat(item, "cost_hit"))


def repair_supply(game: Game, cost: int) -> int:
    """SP to repair a unit of ``cost``: half rounded down, at least 1 (6.3)."""
    key = game.table("repair-cost").key("cost")
    if cost < (key.min or 0) or (key.max is not None and cost > key.max):
        raise BadInput(f"input cost={cost!r} is not allowed (integer {key.min}..{key.max})")
    return int(table_row(game, "repair-cost", cost=cost)["supply"])


def spend(available: int, cost: int, what: str) -> int:
    """Supply points left after paying ``cost``; SP never go negative (6.1)."""
    if cost > available:
        raise RuleViolation("6.1", f"{what} costs {cost} SP, only {available} left")
    return available - cost


def move_cost(game: Game, units: int) -> int:
    """SP to move US units: 1 per unit, any distance (8.1, 8.3)."""
    return units * int(const(game, "us-move-cost"))


def recon_cost(game: Game, markers: int) -> int:
    """SP for recon markers: 1 each (7.1)."""
    return markers * int(const(game, "recon-marker-cost"))


def raiding(game: Game, subs: int) -> tuple[int, int]:
    """Commerce raiding: (SP paid, reinforcement-roll change) for ``subs`` submarines (8.4)."""
    return (subs * int(const(game, "commerce-raiding-cost")),
            subs * int(const(game, "commerce-raiding-penalty")))


# --------------------------------------------------------------------------- US movement


@dataclass(frozen=True)
class MapView:
    """Who is where at the start of a phase: points with each kind of unit."""

    us_ground: frozenset[str] = frozenset()
    us_land_air: frozenset[str] = frozenset()
    us_ships: frozenset[str] = frozenset()
    japanese_ground: frozenset[str] = frozenset()
    japanese_land_air: frozenset[str] = frozenset()
    japanese_ships: frozenset[str] = frozenset()
    us_land_air_count: Mapping[str, int] | None = None

    @property
    def us_ground_or_air(self) -> frozenset[str]:
        """Points with US ground units or land aircraft."""
        return self.us_ground | self.us_land_air

    @property
    def japanese_ground_or_air(self) -> frozenset[str]:
        """Points with Japanese ground units or land aircraft."""
        return self.japanese_ground | self.japanese_land_air

    @property
    def us_any(self) -> frozenset[str]:
        """Points with any US unit."""
        return self.us_ground | self.us_land_air | self.us_ships

    @property
    def japanese_any(self) -> frozenset[str]:
        """Points with any Japanese unit."""
        return self.japanese_ground | self.japanese_land_air | self.japanese_ships


def check_us_move(game: Game, unit_id: str, start: str, dest: str, view: MapView) -> None:
    """Raise RuleViolation if a US unit may not move from ``start`` to ``dest`` (8.1-8.2.2)."""
    item = unit(game, unit_id)
    point = point_record(game, dest)
    point_record(game, start)
    if dest in const(game, "us-forbidden-points"):
        raise RuleViolation("8.2", f"US units may not enter {dest!r}")
    if "australian" in item.tags and "australia" not in point.flags:
        raise RuleViolation("8.2", f"Australian units enter only flagged points, not {dest!r}")
    if is_ground(item) and start in view.japanese_any:
        raise RuleViolation("8.2.2", f"US ground units at {start!r} share it with Japanese units")
    if is_land_air(item):
        check_land_air_move(game, dest, view)


def check_land_air_move(game: Game, dest: str, view: MapView) -> None:
    """US land aircraft need US ground/air there at phase start and room (8.2.1)."""
    if dest not in view.us_ground_or_air:
        raise RuleViolation("8.2.1", f"no US ground units or land aircraft at {dest!r} "
                                     "at the start of the movement phase")
    if dest in const(game, "unlimited-us-air-points"):
        return
    capacity = point_record(game, dest).capacity
    present = (view.us_land_air_count or {}).get(dest, 0)
    if capacity is not None and present + 1 > int(capacity):
        raise RuleViolation("8.2.1", f"{dest!r} holds at most {capacity} US land aircraft")


# --------------------------------------------------------------------------- supply (11.4)


def held_points(game: Game, view: MapView) -> frozenset[str]:
    """Points the US holds (4.1): its ground/air there, no Japanese ground/air, supplied.

    Holding needs supply and supply runs through held points; both grow together
    from the West Coast until nothing changes (inferred from 11.4, medium confidence).
    """
    candidates = view.us_ground_or_air - view.japanese_ground_or_air
    held: frozenset[str] = frozenset()
    while True:
        grown = frozenset(p for p in candidates if in_supply(game, p, held))
        if grown == held:
            return held
        held = grown


def in_supply(game: Game, point: str, held: Collection[str]) -> bool:
    """A route from the West Coast to ``point`` through US-held points only (11.4)."""
    source = const(game, "us-unit-arrival-point")
    if point == source:
        return True
    g = graph(game)
    return g.distance(source, point, passable=lambda p: p in held or p == point) is not None


def supply_check(game: Game, view: MapView) -> dict[str, bool]:
    """Each point with US ground units or land aircraft: in supply or not (11.4)."""
    held = held_points(game, view)
    return {p: in_supply(game, p, held) for p in sorted(view.us_ground_or_air)}


def supply_hits(game: Game, supplied: bool) -> int:
    """Hits each US ground unit and land aircraft at the point takes (11.4)."""
    return 0 if supplied else int(const(game, "supply-hits"))


# --------------------------------------------------------------------------- Japanese


def reinforcement_roll(game: Game, roll: int, supply_markers: int, damaged: int,
                       raiding_subs: int) -> int:
    """Modified reinforcement roll (11.1): + supply markers, - damaged, - 2 per raider.

    ``damaged`` counts damaged Japanese units on the map, not damaged infantry at
    points with US units.
    """
    return (roll + supply_markers * int(const(game, "reinforcement-supply-bonus"))
            + damaged * int(const(game, "reinforcement-damaged-penalty"))
            + raiding_subs * int(const(game, "commerce-raiding-penalty")))


@dataclass(frozen=True)
class Reinforcements:
    """Japanese units arriving in Japan in the reinforcement phase (11.1)."""

    ships: int
    infantry: int
    land_air: int
    battalions: int


def reinforcements(game: Game, modified: int, available: Mapping[str, int] | None = None,
                   campaign: str = "1942") -> Reinforcements:
    """Units arriving in Japan (11.1); 2 battalions per unit the box cannot supply (12.1)."""
    row = table_row(game, "japanese-reinforcement", roll=modified)
    want = {"ships": int(row["ships"]), "infantry": int(row["infantry"]),
            "land_air": int(row["land_air"])}
    if "12.1" in extra(game, "campaigns", campaign).get("special_rules", ()):
        want["infantry"] += int(const(game, "japanese-1944-extra-infantry"))
    have = dict(available) if available is not None else want
    got = {k: min(v, int(have.get(k, 0))) for k, v in want.items()}
    short = sum(want[k] - got[k] for k in want)
    per = int(const(game, "battalions-per-missing-reinforcement"))
    return Reinforcements(got["ships"], got["infantry"], got["land_air"], short * per)


def repairable(kind: str, with_us_units: bool, last_unit: bool) -> bool:
    """Whether a damaged Japanese unit goes back to the reinforcement box (11.2)."""
    if kind in ("infantry", "battalion", "ground") and with_us_units:
        return False
    return not (last_unit and kind in ("infantry", "battalion", "ground", "land_air"))


# --------------------------------------------------------------------------- port return


def port_return(game: Game, campaign: str, boxes: Mapping[str, Iterable[str]],
                arriving: Iterable[str]) -> tuple[dict[str, tuple[str, ...]], tuple[str, ...]]:
    """US return to port (11.3): boxes advance one step along the arrows, then arrivals.

    Returns the boxes after and the ships that reach the Hawaiian Islands.
    """
    row = table_row(game, "port-return", campaign=campaign)
    order = list(row["boxes"])
    unknown = set(boxes) - set(order)
    if unknown:
        raise RuleViolation("11.3", f"box {sorted(unknown)[0]!r} is not used in {campaign}")
    after: dict[str, tuple[str, ...]] = {b: () for b in order}
    home = tuple(boxes.get(order[-1], ()))
    for here, there in zip(order, order[1:], strict=False):
        after[there] = tuple(boxes.get(here, ()))
    after[row["arrival_box"]] = after[row["arrival_box"]] + tuple(arriving)
    return after, home


def must_return(game: Game, point: str, enemy_present: bool) -> bool:
    """A US ship returns to port unless at Hawaii / West Coast without enemies (11.3)."""
    return enemy_present or point not in const(game, "port-exempt-points")


# --------------------------------------------------------------------------- victory


def campaign_level(game: Game, campaign: str, objectives: int) -> dict:
    """Victory level for objectives held (4.0; dismissal 11.5.1)."""
    return table_row(game, "campaign-level", campaign=campaign, objectives=objectives)


def dismissed(game: Game, campaign: str, objectives: int) -> bool:
    """Immediate loss at a turn end: the dismissal level is reached (11.5.1)."""
    return campaign_level(game, campaign, objectives)["level"] == "dismissal"


def hawaii_lost(japanese_left_after_round: int, round_number: int, game: Game) -> bool:
    """Japanese units left at Hawaii after battle round 1 lose the campaign (11.5.2)."""
    return round_number >= int(const(game, "hawaii-clear-round")) and japanese_left_after_round > 0


def invasion_objectives(game: Game, cost: int) -> int:
    """Objectives gained by the Japan-invasion box's total cost (12.3)."""
    return int(table_row(game, "japan-invasion", cost=cost)["objectives"])


def check_invasion_moves(game: Game, units: int, start: str) -> None:
    """At most 7 units a phase, from Hawaii or the West Coast only (12.3)."""
    if start not in const(game, "japan-invasion-from"):
        raise RuleViolation("12.3", f"units enter the Japan-invasion box only from "
                                    f"{const(game, 'japan-invasion-from')}, not {start!r}")
    limit = int(const(game, "japan-invasion-max-units"))
    if units > limit:
        raise RuleViolation("12.3", f"{units} units into the Japan-invasion box; at most {limit}")


def linked_result(game: Game, total: int) -> dict:
    """Result of the linked campaign (12.6)."""
    return table_row(game, "linked-result", total=total)


def strategic_bombing(game: Game, bws: int) -> tuple[int, int]:
    """(SP paid, Japanese units removed from Japan) for BWs in the bombing box (12.2)."""
    return (bws * int(const(game, "bw-strategic-bombing-cost")),
            bws * int(const(game, "bw-removals-per-bw")))


def damaged_count(units: Iterable[tuple[str, bool, bool]]) -> int:
    """Damaged Japanese units for the reinforcement roll (11.1).

    ``units`` holds (kind, damaged, at a point with US units); damaged infantry at
    points with US units are not counted.
    """
    return sum(1 for kind, damaged, with_us in units
               if damaged and not (kind in ("infantry", "battalion") and with_us))

"""Fleet movement (6.1-6.4, 10.1): paths, allowances, Midway's hex, plans, day avoidance."""

from __future__ import annotations

from collections.abc import Sequence

from warpress.engine.errors import BadInput
from warpress.engine.model import Game

from .common import check_hex, const, distance, grid, midway_hex, violation

ARROW = "→"

FLEETS = {
    "ichikokan": ("move-ichikokan", "night-move-ichikokan"),
    "us-fleet": ("move-us-fleet", "night-move-us-fleet"),
    "invasion-force": ("move-invasion-force", "night-move-invasion-force"),
}
ENTRY = {"ichikokan": "ichikokan-entry", "invasion-force": "invasion-force-entry"}


def allowance(game: Game, fleet: str, turn: int) -> int:
    """Hexes a fleet may move this turn: day or night allowance (6.1(1), 10.1(1)).

    The night turn is Turn 4 (E1) and the Invasion Force enters on it (E2).
    """
    if fleet not in FLEETS:
        raise BadInput(f"fleet {fleet!r} is not allowed ({'|'.join(FLEETS)})")
    day, night = FLEETS[fleet]
    return const(game, night if turn == const(game, "night-turn") else day)


def plan_text(path: Sequence[str]) -> str:
    """A movement plan as written on the plan sheet: ``F-4→E-3→D-3`` (6.2(1))."""
    return ARROW.join(path)


def parse_plan(game: Game, text: str) -> list[str]:
    """Read a written plan back into hex ids (``->`` is accepted for the arrow)."""
    parts = [p.strip() for p in text.replace("->", ARROW).split(ARROW) if p.strip()]
    return [check_hex(game, p, "plan hex") for p in parts]


def entry_hexes(game: Game, fleet: str) -> tuple[str, ...]:
    """The entry hexes of a Japanese fleet (6.3(1))."""
    return game.hex_map().feature(ENTRY[fleet]).hexes


def check_path(game: Game, fleet: str, path: Sequence[str], turn: int, *,
               entering: bool = False) -> list[str]:
    """Check one fleet's move and return it (6.1, 6.3).

    ``path`` starts at the fleet's hex (or, when ``entering``, with the entry hex,
    which costs ``entry-hex-cost`` hexes). Every step goes to an adjacent hex on
    the map; no fleet enters or passes Midway's hex; the length is within the
    allowance.
    """
    hexes = [check_hex(game, h, "path hex") for h in path]
    if not hexes:
        raise BadInput("a path needs at least its start hex")
    if entering and hexes[0] not in entry_hexes(game, fleet):
        raise violation("6.3(1)", f"{fleet} enters at {', '.join(entry_hexes(game, fleet))}, "
                                  f"not {hexes[0]}")
    for a, b in zip(hexes, hexes[1:], strict=False):
        if distance(game, a, b) != 1:
            raise violation("6.1", f"{a} and {b} are not adjacent")
    if midway_hex(game) in hexes:
        raise violation("6.1(2)", f"no fleet may enter or pass through {midway_hex(game)} "
                                  "(Midway)")
    used = len(hexes) - 1 + (const(game, "entry-hex-cost") if entering else 0)
    limit = allowance(game, fleet, turn)
    if used > limit:
        raise violation("6.1(1)", f"{fleet} moves {used} hexes; at most {limit} on Turn {turn}")
    return hexes


def check_japanese_ends(ichikokan: str | None, invasion: str | None) -> None:
    """The two Japanese fleets may not end movement in one hex (6.1(2))."""
    if ichikokan is not None and ichikokan == invasion:
        raise violation("6.1(2)", f"the 1st Air Fleet and the Invasion Force both end in "
                                  f"{ichikokan}")


def us_final_hex(game: Game, path: Sequence[str], japan_hexes: Sequence[str], turn: int) -> str:
    """Where the US fleet ends (6.1(4), E13, E28): a day move into a Japanese fleet stops short.

    It goes back to the hex before; if a Japanese fleet is there too, further back
    along its path to the last hex without one (E28). On the night turn the fleets
    may meet (surface battle, 10.1(2)). A 0-hex move into a Japanese fleet's hex
    cannot happen (the Japanese cannot enter it either).
    """
    final = path[-1]
    if turn == const(game, "night-turn") or final not in japan_hexes:
        return final
    for hex_id in reversed(path[:-1]):
        if hex_id not in japan_hexes:
            return hex_id
    raise violation("6.1(4)", f"the US fleet cannot stop short of the Japanese fleet in "
                              f"{final}: every hex of its path {plan_text(path)} holds one")


def check_us_start(game: Game, hex_id: str) -> str:
    """The US start hex: columns F, G or H, not Midway (3.2(1))."""
    check_hex(game, hex_id, "start hex")
    column = grid(game).columns[grid(game).coords(hex_id)[0]]
    columns = const(game, "us-start-columns")
    if column not in columns or hex_id == midway_hex(game):
        raise violation("3.2(1)", f"the US fleet starts in column {', '.join(columns)} except "
                                  f"{midway_hex(game)}, not {hex_id}")
    return hex_id


def check_base_attack_end(game: Game, fleet_hex: str) -> int:
    """After a declared base attack the 1st Air Fleet ends within range (6.4(2)); its distance."""
    dist = distance(game, fleet_hex, midway_hex(game))
    reach = const(game, "base-attack-range")
    if dist > reach:
        raise violation("6.4(2)", f"a base attack was declared: the 1st Air Fleet must end "
                                  f"within {reach} hexes of Midway, not {dist} ({fleet_hex})")
    return dist

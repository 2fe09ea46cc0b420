"""What the US player may do in a session's campaign phases, each check naming the rule that
forbids: purchases and repairs (6.1-6.3), recon (7.1), movement (8.1-8.4), strategic bombing
(12.2) and the Japan-invasion box (12.3). The session (``session.py``) applies the actions;
the listings of legal answers (``choices.py``) are made of the same checks."""

from __future__ import annotations

from typing import Any

from warpress.engine.errors import BadInput, RuleViolation
from warpress.engine.inputs import quote
from warpress.engine.position import Piece

from .campaign import MapView, check_us_move, repair_supply
from .common import const
from .japan import map_view
from .orders import check_determinable
from .positions import (
    BOMBING,
    DAMAGED,
    INVASION,
    JAPAN,
    RAIDING,
    US,
    US_BOX,
    Run,
    kind,
    name,
    point_ids,
    point_name,
    special,
)

# --- arguments ----------------------------------------------------------------------------


def us_piece(run: Run, text: Any) -> Piece:
    """A US unit by its id (``lexington``, ``us-battalion#2``); BadInput quoting it."""
    piece = run.pieces.get(str(text).strip() if text is not None else "")
    if piece is None or piece.side != US:
        raise BadInput(f"{quote(text)} is not a US unit of this game (`warpress play status` "
                       "lists them)")
    return piece


def japanese_piece(run: Run, text: Any) -> Piece:
    piece = run.pieces.get(str(text).strip() if text is not None else "")
    if piece is None or piece.side != JAPAN:
        raise BadInput(f"{quote(text)} is not a Japanese unit of this game")
    return piece


def point_arg(run: Run, text: Any) -> str:
    value = str(text).strip() if text is not None else ""
    if value not in point_ids(run.game):
        raise BadInput(f"point {quote(text)} is not on the map "
                       f"({', '.join(point_ids(run.game))})")
    return value


# --- 6.1-6.3: the supply phase ------------------------------------------------------------------


def points_left(run: Run) -> tuple[int, int]:
    return int(run.data.get("rp", 0)), int(run.data.get("sp", 0))


def check_buy(run: Run, piece: Piece) -> int:
    """The unit's cost, if it may be bought now (6.2): in the US reinforcement box, paid with
    RP and SP."""
    if piece.kind != "box" or piece.place != US_BOX:
        raise RuleViolation("6.2", f"{name(run.game, piece)} is not in the US reinforcement box")
    cost = kind(run.game, piece).cost_buy
    rp, sp = points_left(run)
    if cost > rp + sp:
        raise RuleViolation("6.2", f"{name(run.game, piece)} costs {cost}; {rp} RP and {sp} SP "
                                   "are left")
    return cost


def buy(run: Run, piece: Piece) -> None:
    """6.2: pay with RP first (RP buy units only), then SP; the unit appears on the West
    Coast, an Australian unit in Australia."""
    cost = check_buy(run, piece)
    rp, sp = points_left(run)
    from_rp = min(rp, cost)
    run.data.update(rp=rp - from_rp, sp=sp - (cost - from_rp))
    where = str(const(run.game, "australian-unit-arrival-point" if kind(run.game, piece).australian
                      else "us-unit-arrival-point"))
    run.place(piece.id, "point", where)
    run.say(f"bought {name(run.game, piece)} for {cost} ({from_rp} RP, {cost - from_rp} SP): "
            f"it arrives at {point_name(run.game, where)}", "6.2")


def repair_cost(run: Run, piece: Piece) -> int:
    """SP to repair a damaged US unit (6.3): half its purchase cost, at least 1."""
    return repair_supply(run.game, kind(run.game, piece).cost_buy)


def check_repair(run: Run, piece: Piece) -> int:
    """6.3: a damaged US unit on the map (out of supply too) or in a return-to-port box."""
    in_port = piece.kind == "box" and str(piece.place).startswith("port-return")
    if piece.step != DAMAGED or not (piece.kind == "point" or in_port):
        raise RuleViolation("6.3", f"{name(run.game, piece)} is not a damaged US unit on the "
                                   "map or in a return-to-port box")
    cost = repair_cost(run, piece)
    if cost > points_left(run)[1]:
        raise RuleViolation("6.3", f"repairing {name(run.game, piece)} costs {cost} SP; "
                                   f"{points_left(run)[1]} are left")
    return cost


def repair(run: Run, piece: Piece) -> None:
    cost = check_repair(run, piece)
    run.data["sp"] = points_left(run)[1] - cost
    run.step_to(piece.id, 2)
    run.say(f"repaired {name(run.game, piece)} for {cost} SP", "6.3")


# --- 7.1: recon ----------------------------------------------------------------------------


def recon_limit(run: Run) -> int:
    """Recon markers in the counter mix (markers.yaml)."""
    return int(run.game.get("markers", "recon").count or 1)


def check_recon(run: Run, point: str) -> None:
    """7.1: 1 SP, on a point with Japanese units, at most the markers there are; none at
    Okinawa or Iwo Jima in 1945 (12.4: no determination there)."""
    if not run.at(point, JAPAN):
        raise RuleViolation("7.1", f"no Japanese unit at {point_name(run.game, point)} to "
                                   "reconnoitre")
    check_determinable(run.game, point, run.campaign)
    cost = int(const(run.game, "recon-marker-cost"))
    if points_left(run)[1] < cost:
        raise RuleViolation("7.1", f"a recon marker costs {cost} SP; none left")
    if len(run.data.get("recon", [])) >= recon_limit(run):
        raise RuleViolation("7.1", f"all {recon_limit(run)} recon markers are placed")


def recon(run: Run, point: str) -> None:
    check_recon(run, point)
    run.data["sp"] = points_left(run)[1] - int(const(run.game, "recon-marker-cost"))
    run.data["recon"] = [*run.data.get("recon", []), point]
    run.say(f"recon marker on {point_name(run.game, point)}", "7.1")


# --- 8.x, 12.2, 12.3: movement --------------------------------------------------------------


def _movable(run: Run, piece: Piece, rule: str) -> None:
    if piece.kind != "point":
        raise RuleViolation(rule, f"{name(run.game, piece)} is not on the map")
    if "moved" in piece.flags:
        raise RuleViolation("8.1", f"{name(run.game, piece)} has moved this turn (once per turn)")
    cost = int(const(run.game, "us-move-cost"))
    if points_left(run)[1] < cost:
        raise RuleViolation("8.1", "moving a unit costs 1 SP; none left")


def check_move(run: Run, piece: Piece, dest: str) -> None:
    """8.1-8.2.2: once a turn, 1 SP, any distance, not into Japan or East Asia; Australian
    units to flagged points; land aircraft where US ground or air units were at the start
    of the phase, within capacity; ground units not away from Japanese units."""
    _movable(run, piece, "8.1")
    if dest == piece.place:
        raise RuleViolation("8.1", f"{name(run.game, piece)} is already at "
                                   f"{point_name(run.game, dest)}")
    view = map_view(run)
    start = frozenset(run.data.get("us_start", []))
    check_us_move(run.game, piece.unit, str(piece.place), dest,
                  MapView(us_ground=start,
                          japanese_ground=view.japanese_ground,
                          japanese_land_air=view.japanese_land_air,
                          japanese_ships=view.japanese_ships,
                          us_land_air_count=view.us_land_air_count))


def move(run: Run, piece: Piece, dest: str) -> None:
    check_move(run, piece, dest)
    run.data["sp"] = points_left(run)[1] - int(const(run.game, "us-move-cost"))
    ground = kind(run.game, piece).ground
    run.place(piece.id, "point", dest, moved=True, transport=ground)
    by = " by transport" if ground else ""
    run.say(f"{name(run.game, piece)} moves {point_name(run.game, str(piece.place))} -> "
            f"{point_name(run.game, dest)}{by} (1 SP)", "8.1", *(("8.3",) if ground else ()))


def check_raid(run: Run, piece: Piece) -> None:
    """8.4: a US submarine on the map to the commerce-raiding box, 1 SP."""
    if not kind(run.game, piece).sub:
        raise RuleViolation("8.4", f"{name(run.game, piece)} is not a submarine")
    _movable(run, piece, "8.4")


def raid(run: Run, piece: Piece) -> None:
    check_raid(run, piece)
    run.data["sp"] = points_left(run)[1] - int(const(run.game, "commerce-raiding-cost"))
    run.data["raiders"] = int(run.data.get("raiders", 0)) + 1
    run.place(piece.id, "box", RAIDING, moved=True, raider=True)
    run.say(f"{name(run.game, piece)} goes commerce raiding: the Japanese reinforcement roll "
            "-2 (1 SP)", "8.4")


def check_bomb(run: Run, piece: Piece) -> None:
    """12.2: 1944 and 1945, a BW in the Marianas to the strategic-bombing box, 1 SP."""
    if "12.2" not in special(run.game, run.campaign):
        raise RuleViolation("12.2", f"no strategic bombing in the {run.campaign} campaign")
    if not kind(run.game, piece).bw:
        raise RuleViolation("12.2", f"{name(run.game, piece)} is not a BW")
    if piece.place != "mariana-islands":
        raise RuleViolation("12.2", "a BW bombs Japan from the Marianas only")
    _movable(run, piece, "12.2")


def bomb(run: Run, piece: Piece) -> None:
    check_bomb(run, piece)
    run.data["sp"] = points_left(run)[1] - int(const(run.game, "bw-strategic-bombing-cost"))
    run.place(piece.id, "box", BOMBING, moved=True)
    run.say(f"{name(run.game, piece)} to the BW strategic-bombing box (1 SP)", "12.2")


def check_invade(run: Run, piece: Piece) -> None:
    """12.3: 1945, a unit at Hawaii or the West Coast to the Japan-invasion box, 1 SP, at
    most 7 a movement phase; it never comes back."""
    if "12.3" not in special(run.game, run.campaign):
        raise RuleViolation("12.3", f"no Japan-invasion box in the {run.campaign} campaign")
    if piece.place not in const(run.game, "japan-invasion-from"):
        raise RuleViolation("12.3", "units enter the Japan-invasion box from the Hawaiian "
                                    "Islands and the West Coast only")
    limit = int(const(run.game, "japan-invasion-max-units"))
    if int(run.data.get("invaded", 0)) >= limit:
        raise RuleViolation("12.3", f"{limit} units have entered the box this phase (at most "
                                    f"{limit})")
    _movable(run, piece, "12.3")


def invade(run: Run, piece: Piece) -> None:
    check_invade(run, piece)
    run.data["sp"] = points_left(run)[1] - int(const(run.game, "japan-invasion-cost"))
    run.data["invaded"] = int(run.data.get("invaded", 0)) + 1
    run.place(piece.id, "box", INVASION, moved=True)
    run.say(f"{name(run.game, piece)} to the Japan-invasion box (1 SP)", "12.3")

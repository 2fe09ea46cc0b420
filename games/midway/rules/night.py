"""The night turn (10.1(2), 10.2): surface battle, night landings, everything to the hangars."""

from __future__ import annotations

from collections.abc import Sequence

from warpress.engine.dice import Dice
from warpress.engine.model import Game
from warpress.engine.tables import lookup

from . import area as A
from .area import CarrierArea
from .common import DIE, air_displays, division_carriers, divisions, violation

INVASION = "invasion"


# --------------------------------------------------------------------------- surface battle


def surface_battle(game: Game, dice: Dice) -> dict[str, int]:
    """Both sides roll 1d6: hits on the US = roll - 2, on the Japanese = roll - 4, min 0 (E19)."""
    return lookup(game.table("surface-battle"), japan_roll=dice.roll(DIE, "japan_roll"),
                  us_roll=dice.roll(DIE, "us_roll"))


def apply_surface_hits(game: Game, state: CarrierArea, side: str, targets: Sequence[str],
                       hits: int, dice: Dice) -> CarrierArea:
    """Hits on ``side``'s fleet, each on the carrier (or the Invasion Force) the Japanese name.

    The Japanese player always allocates (E18); a carrier hit is resolved as an
    air hit (9.4(2), inference); the Invasion Force loses 1 point per hit.
    Every hit must be allocated while a target is left.
    """
    allowed = [c for d in divisions(game, side) for c in division_carriers(game, d)]
    if side == "japan":
        allowed.append(INVASION)
    if len(targets) != hits and _targets_left(state, side, allowed):
        raise violation("10.1(2)", f"allocate each of the {hits} hits (got {len(targets)})")
    for target in targets:
        if target not in allowed:
            raise violation("10.1(2)", f"{target!r} is not a target of {side} "
                                       f"({', '.join(allowed)})")
        if target == INVASION:
            state = A.hit_invasion(state, 1)
        else:
            state = A.hit_carrier(game, state, target, dice)
    return state


def _targets_left(state: CarrierArea, side: str, allowed: Sequence[str]) -> bool:
    """Whether any of ``allowed`` can still take a hit."""
    return any(t not in state.sunk and (t != INVASION or state.invasion > 0) for t in allowed)


# --------------------------------------------------------------------------- night air op


def night_landing_lost(game: Game, side: str, roll: int) -> bool:
    """Is a step landing from Return 2 at night lost? (10.2(2)a)"""
    return bool(lookup(game.table("night-landing"), side=side, roll=roll)["lost"])


def night_operation(game: Game, state: CarrierArea, side: str, dice: Dice,
                    redeploy: Sequence[tuple[str, str]] = (),
                    choose: A.Chooser = A.first_choice) -> CarrierArea:
    """A side's one special night air operation (10.2(2) a-d).

    a. each step in Return 2 rolls (night-landing table); survivors go to Return 1;
    b. everything in Return 1 goes to a hangar of its division / task force (the
       other one's if it has no carrier left); a unit with no room is removed (8.3(3));
    c. everything on decks and in CAP boxes goes to a hangar (same rule for room);
    d. ``redeploy`` lists (unit, box) moves from a hangar to the same carrier's deck
       or the division's CAP (fighters only). There are no launches.
    """
    displays = [d.id for d in air_displays(game) if d.side == side]
    state = _night_landings(game, state, side, displays, dice)
    state = _returns_to_hangars(game, state, side, displays, choose)
    state = _stow(game, state, displays, choose)
    for uid, box_id in redeploy:
        state = A.move(game, state, uid, box_id, night=True)
    return state


def _night_landings(game: Game, state: CarrierArea, side: str, displays: Sequence[str],
                    dice: Dice) -> CarrierArea:
    """Step a: a die per step in Return 2; survivors to Return 1."""
    for display_id in displays:
        r1, r2 = A.return_box(game, display_id, 1), A.return_box(game, display_id, 2)
        for air in state.in_box(display_id, r2):
            lost = sum(night_landing_lost(game, side, dice.roll(DIE, "night_landing"))
                       for _ in range(air.steps))
            if lost:
                state = A.lose_steps(state, air.uid, lost)
            if any(u.uid == air.uid for u in state.units):
                state = A.place(game, state, air.uid, display_id, r1)
    return state


def _hangar_options(game: Game, state: CarrierArea, air: A.Air, displays: Sequence[str],
                    own: str) -> list[tuple[str, str]]:
    """Hangars of the unit's own display; of the side's other displays if it has no carrier."""
    own_options = A.legal_targets(game, state, air, [own], ["hangar"])
    carriers_left = [c for c in division_carriers(game, own) if c not in state.sunk]
    if own_options or carriers_left or own not in divisions(game, A.unit_side(game, air.type)):
        return own_options
    return A.legal_targets(game, state, air, [d for d in displays if d != own], ["hangar"])


def _returns_to_hangars(game: Game, state: CarrierArea, side: str, displays: Sequence[str],
                        choose: A.Chooser) -> CarrierArea:
    """Step b: Return 1 to the hangars (another division's if none is left)."""
    for display_id in displays:
        r1 = A.return_box(game, display_id, 1)
        for air in state.in_box(display_id, r1):
            options = _hangar_options(game, state, air, displays, display_id)
            state = (A.place(game, state, air.uid, *choose(air, options)) if options
                     else A.remove(state, [air.uid]))
    return state


def _stow(game: Game, state: CarrierArea, displays: Sequence[str],
          choose: A.Chooser) -> CarrierArea:
    """Step c: decks and CAP boxes to the hangars."""
    for display_id in displays:
        for b in A.display(game, display_id).boxes:
            if b.kind not in ("deck", "runway", "cap"):
                continue
            for air in state.in_box(display_id, b.id):
                if b.kind != "cap":
                    state = A.place(game, state, air.uid, display_id,
                                    A.hangar_box(game, b.holds)[1].id)
                    continue
                options = A.legal_targets(game, state, air, [display_id], ["hangar"])
                state = (A.place(game, state, air.uid, *choose(air, options)) if options
                         else A.remove(state, [air.uid]))
    return state

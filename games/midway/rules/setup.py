"""The carrier area at the start of the two-player game (3.1(2), 3.2(2)(3)), from the setup data.

The rules let each player place his aircraft freely on the deck, in the hangar
or in the CAP box; ``standard_start`` builds one legal placement (attack
aircraft on deck first, fighters in CAP when asked, the rest in the hangar) so
that a game, a test or a property can start from the data's counts.
"""

from __future__ import annotations

from dataclasses import replace

from warpress.engine.errors import RuleViolation
from warpress.engine.model import Game

from . import area as A
from .area import Air, CarrierArea
from .common import base_display, is_attack, is_fighter


def standard_start(game: Game, *, cap_fighters: int = 0) -> CarrierArea:
    """Every carrier's and the base's aircraft of the standard setup, placed legally.

    Per carrier (and the base): attack aircraft fill the deck (runway) boxes first;
    fighters go to the division's CAP box until it holds ``cap_fighters`` of them,
    the rest to the hangar (a land-based fighter always starts in the base CAP).
    Unit ids are ``<type>-<carrier>-<n>``.
    """
    state = A.new_area(game)
    for item in game.setup:
        if item.scenario != "standard":
            continue
        for p in item.place:
            display_id = p.get("display")
            if not p.unit or not display_id:
                continue
            for _ in range(p.count or 1):
                holder = p.per or A.base_holder(game)
                uid = f"{p.unit}-{holder}-{len(state.units) + 1}"
                air = A.make_unit(game, uid, p.unit, display_id, _first_box(game, display_id))
                state = _place_new(game, state, air, holder, cap_fighters)
    A.check_state(game, state)
    return state


def _first_box(game: Game, display_id: str) -> str:
    """A box any unit may stand in while it is being placed (the Return 2 box)."""
    return A.return_box(game, display_id, 2)


def _place_new(game: Game, state: CarrierArea, air: Air, holder: str,
               cap_fighters: int) -> CarrierArea:
    """Add ``air`` and put it in the first box the placement policy allows."""
    state = replace(state, units=state.units + (air,))
    for display_id, box_id in _preferences(game, state, air, holder, cap_fighters):
        try:
            return A.place(game, state, air.uid, display_id, box_id)
        except RuleViolation:
            continue
    raise RuleViolation("8.3(3)", f"no room for {air.uid} at setup")


def _preferences(game: Game, state: CarrierArea, air: Air, holder: str,
                 cap_fighters: int) -> list[tuple[str, str]]:
    """Boxes in the order the placement policy tries them."""
    decks = [(d, b.id) for d, b in A.deck_boxes(game, holder)]
    hangar = A.hangar_box(game, holder)
    cap = (air.display, next(b.id for b in A.display(game, air.display).boxes
                             if b.kind == "cap"))
    in_cap = sum(1 for u in state.in_box(*cap) if u.uid != air.uid)
    base = air.display == base_display(game).id
    if is_fighter(game, air.type) and (base or in_cap < cap_fighters):
        return [cap, (hangar[0], hangar[1].id), *decks]
    if is_attack(game, air.type):
        return [*decks, (hangar[0], hangar[1].id)]
    return [(hangar[0], hangar[1].id), *decks]

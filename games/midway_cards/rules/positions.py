"""The Fateful Midway Card Game in the engine's :class:`~warpress.engine.position.Position`,
and back to the folder's own :class:`~.state.State` its procedures work on.

Where everything is in a position:

* ``cards`` (piles of card instances, ``j-zero#3``; a deck's top card first): for each side
  ``SIDE.deck``, ``SIDE.hand``, ``SIDE.discard`` and ``SIDE.table`` (its cards on the table
  in the attack going on, 7-1-1); ``secondary.deck`` and ``secondary.discard`` (the shared
  secondary-damage cards, 7-4); ``armament.pile`` (the armament-change cards out of the
  Japanese hand, 12-2);
* ``pieces``: each ship card, in its fleet (kind ``area``, place ``SIDE-fleet``) or, once
  sunk, held by the player who sank it (kind ``pool``, place ``sunk-by-SIDE``, 7-4), with
  its red and blue damage (``props`` ``deck_damage``, ``side_damage``) and the yellow marker
  (flag ``disabled``); the Midway base with its damage (``props`` ``damage``); the
  「兵装変更中」 card, on the table (kind ``play``) or beside its pile (kind ``pool``, 12-2);
* ``turn``; ``side``, the turn player; ``phase``;
* ``data``: the players' bookkeeping (deck pass, cards drawn this turn, cards used this
  turn, opening redraws), the turn's flags (re-armed, attacked), the turn the game ends
  after (11), the seed of the reshuffles.

:func:`to_state` and :func:`with_state` convert; the conversion is exact, so every rule the
folder's procedures apply holds in a session.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from warpress.engine.model import FrozenDict, Game
from warpress.engine.position import Piece, Position, freeze

from .common import BASE_ID, SIDES, opponent, owner, ships
from .state import Player, ShipState, State

#: the 「兵装変更中」 card's piece (cards.yaml id)
REARMING = "rearming-in-progress"
#: the piles of one side, as ``cards`` names them
SIDE_PILES = ("deck", "hand", "discard", "table")
SECONDARY = ("secondary.deck", "secondary.discard")
ARMAMENT = "armament.pile"
#: the flags of a turn, kept in ``data``
TURN_FLAGS = ("rearmed_in_first_deck", "rearmed_this_turn", "attacked_this_turn")


def pile(side: str, what: str) -> str:
    """The name of one side's pile: ``japan.hand``."""
    return f"{side}.{what}"


def cards(position: Position, name: str) -> tuple[str, ...]:
    """The cards of one pile (none when it is absent)."""
    return tuple(position.cards.get(name, ()))


def fleet(side: str) -> str:
    """Where a side's ship cards lie."""
    return f"{side}-fleet"


def sunk_by(side: str) -> str:
    """Where the ship cards a side sank lie (7-4: the attacker keeps them)."""
    return f"sunk-by-{side}"


# --- position -> state --------------------------------------------------------------------


def _player(position: Position, side: str) -> Player:
    """One side's cards; the cards it has on the table are back in its hand (the folder's
    procedures take the cards of an attack from the hand)."""
    book = position.data["players"][side]
    return Player(side,
                  deck=cards(position, pile(side, "deck")),
                  hand=cards(position, pile(side, "hand")) + cards(position, pile(side, "table")),
                  discard=cards(position, pile(side, "discard")),
                  deck_number=int(book["deck_number"]), used=bool(book["used"]),
                  drawn=tuple(book["drawn"]), redraws=int(book["redraws"]),
                  captured=tuple(p.id for p in position.at("pool", sunk_by(side))))


def _ship(piece: Piece) -> ShipState:
    return ShipState(piece.id, int(piece.props.get("deck_damage", 0)),
                     int(piece.props.get("side_damage", 0)), "disabled" in piece.flags,
                     piece.kind == "pool")


def to_state(game: Game, position: Position) -> State:
    """The folder's state of a position (see the module docstring)."""
    data = position.data
    ship_ids = {s.id for side in SIDES for s in ships(game, side)}
    return State(
        japan=_player(position, SIDES[0]), us=_player(position, SIDES[1]),
        ships=tuple(_ship(p) for p in position.pieces if p.id in ship_ids),
        base_damage=int(position.piece(BASE_ID).props.get("damage", 0)),
        secondary_deck=cards(position, SECONDARY[0]),
        secondary_discard=cards(position, SECONDARY[1]),
        armament_pile=cards(position, ARMAMENT),
        rearming=position.piece(REARMING).kind == "play",
        turn=position.turn, turn_player=str(position.side),
        end_after_turn=data.get("end_after_turn"),
        over=bool(data.get("end_reason")), end_reason=str(data.get("end_reason") or ""),
        seed=int(data["seed"]), shuffles=int(data["shuffles"]),
        **{flag: bool(data.get(flag)) for flag in TURN_FLAGS})


# --- state -> position --------------------------------------------------------------------


def _ship_piece(game: Game, s: ShipState) -> Piece:
    side = owner(game, s.id)
    kind, place = ("pool", sunk_by(opponent(side))) if s.sunk else ("area", fleet(side))
    return Piece(s.id, s.id, side, kind, place,
                 flags=frozenset({"disabled"}) if s.disabled else frozenset(),
                 props=FrozenDict(deck_damage=s.deck_damage, side_damage=s.side_damage))


def _pieces(game: Game, state: State) -> tuple[Piece, ...]:
    ships_now = tuple(_ship_piece(game, s) for s in state.ships)
    base = Piece(BASE_ID, BASE_ID, owner(game, BASE_ID), "area", fleet(owner(game, BASE_ID)),
                 props=FrozenDict(damage=state.base_damage))
    rearming = (Piece(REARMING, REARMING, owner(game, REARMING), "play", "table")
                if state.rearming else
                Piece(REARMING, REARMING, owner(game, REARMING), "pool", ARMAMENT))
    return (*ships_now, base, rearming)


def _piles(state: State) -> dict[str, tuple[str, ...]]:
    out: dict[str, tuple[str, ...]] = {}
    for side in SIDES:
        p = state.player(side)
        out.update({pile(side, "deck"): p.deck, pile(side, "hand"): p.hand,
                    pile(side, "discard"): p.discard, pile(side, "table"): ()})
    out.update({SECONDARY[0]: state.secondary_deck, SECONDARY[1]: state.secondary_discard,
                ARMAMENT: state.armament_pile})
    return out


def _books(state: State) -> dict[str, Any]:
    return {side: {"deck_number": p.deck_number, "used": p.used, "drawn": list(p.drawn),
                   "redraws": p.redraws}
            for side, p in ((s, state.player(s)) for s in SIDES)}


def with_state(game: Game, position: Position, state: State) -> Position:
    """``position`` holding ``state``: its piles (nothing left on the table), pieces, turn,
    turn player and bookkeeping; the rest of ``data`` (the attack going on, the events)
    stays."""
    new = {"players": _books(state), "seed": state.seed, "shuffles": state.shuffles,
           "end_after_turn": state.end_after_turn, "end_reason": state.end_reason,
           **{flag: getattr(state, flag) for flag in TURN_FLAGS}}
    data = FrozenDict({**position.data, **{k: freeze(v) for k, v in new.items()}})
    return replace(position, turn=state.turn, side=state.turn_player,
                   cards=FrozenDict(_piles(state)), pieces=_pieces(game, state), data=data)


def start(game: Game, state: State, scenario: str) -> Position:
    """The position of a game set up (6): the state's cards and ships, before any decision."""
    position = Position(game=game.id, scenario=scenario, turn=state.turn,
                        side=state.turn_player, phase="setup")
    return with_state(game, position, state)


def move_cards(position: Position, moves: Sequence[tuple[str, str, str]]) -> Position:
    """Cards from one pile to the end of another, ``(card, from_pile, to_pile)`` in order;
    the order of the other cards stays."""
    piles = {k: list(v) for k, v in position.cards.items()}
    for card_id, source, target in moves:
        piles[source].remove(card_id)
        piles.setdefault(target, []).append(card_id)
    return replace(position, cards=FrozenDict({k: tuple(v) for k, v in piles.items()}))

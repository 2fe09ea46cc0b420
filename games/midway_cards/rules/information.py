"""What one player of the Fateful Midway Card Game knows, and positions drawn to agree with
it: the search space of an agent that looks ahead (engine/agents.py).

A player sees his own hand, the cards on the table, the ship cards and the base, the sizes
of every pile, the discard piles (face up, ``discard-piles-open``) and everything
announced. He does not see the order of any deck (his own included), the opponent's hand,
the cards the opponent drew this turn, nor the seed of the reshuffles to come.

:func:`masked` is that knowledge as a position: every order he cannot see sorted, the
opponent's action cards in his hand and deck pooled (sorted, then dealt back by the piles'
sizes: what card counting tells him, nothing more), the opponent's cards drawn this turn
and the seed blanked. Two positions that differ only in what he cannot see mask to the
same position.
:func:`determinise` draws a position that masks to the one given: the decks shuffled, the
opponent's pool dealt back into his hand and deck, the cards he drew this turn taken from
his hand, a fresh seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from warpress.engine.model import FrozenDict, Game
from warpress.engine.position import Position, freeze, thaw

from .common import ACTION_DECK, card, const, opponent
from .positions import ARMAMENT, SECONDARY, pile

#: a card of the opponent's drawn this turn, as the masked position lists it
UNSEEN = "?"
#: the shared piles whose order no player sees
SHUFFLED = (SECONDARY[0], ARMAMENT)


def _unseen_piles(game: Game, side: str) -> tuple[str, ...]:
    """The opponent's piles whose cards ``side`` cannot tell apart: his hand and deck (and
    his discard pile where discards are face down)."""
    other = opponent(side)
    kept = ("hand", "deck") if const(game, "discard-piles-open") else ("hand", "deck", "discard")
    return tuple(pile(other, what) for what in kept)


def _deal(game: Game, piles: dict[str, tuple[str, ...]], side: str,
          order: Callable[[list[str]], list[str]]) -> None:
    """The opponent's action cards of the piles ``side`` cannot see pooled, put in ``order``
    and dealt back into the places they came from; his other cards (the armament-change
    cards taken into his hand in the open, 12-2) stay where they are."""
    deck = ACTION_DECK[opponent(side)]
    unseen = _unseen_piles(game, side)
    slots = [(name, i) for name in unseen for i, c in enumerate(piles.get(name, ()))
             if card(game, c).deck == deck]
    pool = order([piles[name][i] for name, i in slots])
    dealt = {name: list(piles.get(name, ())) for name in unseen}
    for (name, i), c in zip(slots, pool, strict=True):
        dealt[name][i] = c
    piles.update({name: tuple(cs) for name, cs in dealt.items()})


def masked(game: Game, position: Position, side: str) -> Position:
    """What ``side`` knows of ``position`` (see the module docstring)."""
    piles = dict(position.cards)
    for name in (pile(side, "deck"), *SHUFFLED):
        piles[name] = tuple(sorted(piles.get(name, ())))
    _deal(game, piles, side, sorted)
    players = thaw(position.data["players"])
    other = opponent(side)
    players[other]["drawn"] = [UNSEEN] * len(players[other]["drawn"])
    data = {**position.data, "players": freeze(players), "seed": 0}
    return replace(position, cards=FrozenDict(piles), data=FrozenDict(data))


def determinise(game: Game, view: Position, side: str, rng: random.Random) -> Position:
    """A position drawn at random that masks to ``view`` (see the module docstring)."""
    piles = dict(view.cards)
    for name in (pile(side, "deck"), *SHUFFLED):
        cards = list(piles.get(name, ()))
        rng.shuffle(cards)
        piles[name] = tuple(cards)
    _deal(game, piles, side, lambda pool: rng.sample(pool, len(pool)))
    players: dict[str, Any] = thaw(view.data["players"])
    other = opponent(side)
    hand = list(piles[pile(other, "hand")])
    drawn = min(len(players[other]["drawn"]), len(hand))
    players[other]["drawn"] = rng.sample(hand, drawn)
    data = {**view.data, "players": freeze(players), "seed": rng.randrange(1 << 30)}
    return replace(view, cards=FrozenDict(piles), data=FrozenDict(data))


__all__ = ["UNSEEN", "determinise", "masked"]

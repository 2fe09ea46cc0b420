"""The whole-game invariants of engine/whole.py that every game shares: cards conserved
(each card in one pile, none gained or lost by a step); a piece on a point map stands at
one of its points."""

from __future__ import annotations

from dataclasses import replace

from warpress.engine.loader import builtin
from warpress.engine.model import FrozenDict
from warpress.engine.position import Piece, Position
from warpress.engine.whole import broken


class _NoGame:
    """A game with no pieces of its own, no map and no play forms."""

    play = None
    hex_maps = ()
    point_maps = ()
    units = ()


def _position(**piles) -> Position:
    return Position(game="cards", cards=FrozenDict({k: tuple(v) for k, v in piles.items()}))


def test_moving_cards_between_piles_breaks_nothing():
    before = _position(deck=["a", "b"], hand=["c"], discard=[])
    after = _position(deck=["b"], hand=["c", "a"], discard=[])
    assert broken(_NoGame(), before, ("draw", {}), after) == []


def test_a_card_in_two_piles_is_reported():
    after = _position(deck=["a", "b"], hand=["a"])
    assert broken(_NoGame(), None, None, after) == ["card a is in two places"]


def test_a_card_lost_or_gained_is_reported():
    before = _position(deck=["a", "b"], hand=[])
    lost = _position(deck=["b"], hand=[])
    gained = replace(before, cards=FrozenDict({"deck": ("a", "b"), "hand": ("z",)}))
    assert broken(_NoGame(), before, ("x", {}), lost) == ["card a was lost"]
    assert broken(_NoGame(), before, ("x", {}), gained) == ["card z appeared"]


def test_a_piece_at_no_point_of_the_map_is_reported():
    game = builtin("nimitz")
    at = Position(game="nimitz", pieces=(Piece("kaga", "kaga", "japan", "point", "midway", 2),))
    assert broken(game, None, None, at) == []
    off = Position(game="nimitz", pieces=(Piece("kaga", "kaga", "japan", "point", "atlantis",
                                                2),))
    assert broken(game, None, None, off) == ["kaga stands at atlantis, no point of the map"]

"""rules/positions.py: the game's state in a Position and back, without loss."""

from __future__ import annotations

from dataclasses import replace

from mc_helpers import state_with
from mc_session import RULES, play_watched
from warpress.games.midway_cards.rules import state as st
from warpress.games.midway_cards.rules.positions import start, to_state, with_state


def test_a_state_goes_into_a_position_and_back_unchanged(game):
    """Every field of the folder's state survives the trip, a sunk ship, damage, the yellow
    marker, 「兵装変更中」, the deck passes and the flags of the turn included."""
    state = state_with(game, ("j-zero#1", "ac-d3a#1"), ("us-f4f#1",), turn=7, base_damage=13,
                       rearming=True, rearmed_in_first_deck=True, end_after_turn=9)
    ships = tuple(replace(s, deck_damage=3, disabled=True) if s.id == "hornet" else
                  replace(s, side_damage=8, sunk=True) if s.id == "soryu" else s
                  for s in state.ships)
    state = replace(state, ships=ships, us=replace(state.us, deck_number=2, used=True,
                                                   captured=("soryu",)),
                    japan=replace(state.japan, drawn=("j-zero#1",)))
    position = start(game, state, "standard")
    assert to_state(game, position) == state
    assert position.piece("soryu").place == "sunk-by-us"
    assert position.piece("hornet").flags == {"disabled"}
    assert position.piece("rearming-in-progress").kind == "play"
    assert st.census_ok(to_state(game, position), game)


def test_cards_on_the_table_go_back_to_the_hand_for_the_rules(game):
    """The folder's procedures take the cards of an attack from the hand: a position's table
    cards are in the state's hand, and a state put back leaves the table empty."""
    state = state_with(game, ("j-zero#1", "j-d3a#1"), ("us-f4f#1",))
    position = start(game, state, "standard")
    piles = dict(position.cards)
    piles["japan.hand"], piles["japan.table"] = ("j-zero#1",), ("j-d3a#1",)
    moved = replace(position, cards=type(position.cards)(piles))
    assert set(to_state(game, moved).japan.hand) == {"j-zero#1", "j-d3a#1"}
    back = with_state(game, moved, to_state(game, moved))
    assert back.cards["japan.table"] == () and len(back.cards["japan.hand"]) == 2


def test_position_json_round_trip(game):
    _played, positions = play_watched(game, 1)
    for position in positions[::25]:
        again = RULES.load(game, RULES.dump(position))
        assert again == position and again.digest() == position.digest()

"""What one player knows (information.py): an agent of a side decides on it alone. Two
positions that differ only in what the side cannot see (the opponent's hand, the order of
the decks, the seed of the reshuffles) give the side the same view, the same legal answers
and the same choice of every agent; what the rules reveal does change a choice."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from mc_session import RULES, at_attack
from warpress.engine.agents import RandomAgent, Seen, make_agent, playout
from warpress.games.midway_cards.rules import information as info
from warpress.games.midway_cards.rules import state as st
from warpress.games.midway_cards.rules.positions import cards, pile, to_state

#: the random games whose positions are looked at (every tenth decision)
SEEDS = (1, 2, 3)


def _positions(game):
    seen = []

    def each(before, action, after):
        if RULES.decision(game, after) is not None:
            seen.append(after)

    for seed in SEEDS:
        playout(game, RULES, seed, RandomAgent(), each=each)
    return seen[::10]


@pytest.fixture(scope="module")
def positions(game):
    return _positions(game)


def _other_world(game, position, side, rng):
    """A position that differs from ``position`` only in what ``side`` cannot see."""
    return info.determinise(game, info.masked(game, position, side), side, rng)


def test_a_drawn_position_keeps_every_card_and_what_the_side_knows(game, positions):
    rng = random.Random(0)
    changed = 0
    for position in positions:
        for side in ("japan", "us"):
            other = _other_world(game, position, side, rng)
            assert st.census_ok(to_state(game, other), game)
            assert info.masked(game, other, side) == info.masked(game, position, side)
            assert RULES.player_view(game, other, side) == RULES.player_view(game, position,
                                                                              side)
            assert cards(other, pile(side, "hand")) == cards(position, pile(side, "hand"))
            foe = "us" if side == "japan" else "japan"
            assert (Counter(cards(other, pile(foe, "hand")) + cards(other, pile(foe, "deck")))
                    == Counter(cards(position, pile(foe, "hand"))
                               + cards(position, pile(foe, "deck"))))
            changed += other.cards != position.cards
    assert changed > len(positions)  # the hidden part did change: the test can fail


def test_what_a_side_cannot_see_changes_neither_its_answers_nor_its_choice(game, positions):
    rng = random.Random(1)
    agents = [make_agent("random"), make_agent("greedy"), make_agent("mcts:12")]
    for n, position in enumerate(positions[:24]):
        decision = RULES.decision(game, position)
        other = _other_world(game, position, decision.side, rng)
        assert RULES.decision(game, other) == decision, f"position {n}"
        handed = [Seen(game, RULES, p, decision) for p in (position, other)]
        assert vars(handed[0]) == vars(handed[1]), f"an agent is handed more ({n})"
        for agent in agents:
            choices = [agent.choose(Seen(game, RULES, p, RULES.decision(game, p)),
                                    random.Random(n))
                       for p in (position, other)]
            assert choices[0] == choices[1], f"{agent.name} chose by what it cannot see ({n})"


def test_the_mask_hides_the_opponents_hand_but_not_its_size(game):
    position = at_attack(game, japan_hand=("j-zero#1", "j-b5n#1"), us_hand=("us-sbd#1",))
    mask = info.masked(game, position, "japan")
    assert cards(mask, "japan.hand") == cards(position, "japan.hand")
    us_cards = cards(position, "us.hand") + cards(position, "us.deck")
    assert len(cards(mask, "us.hand")) == 1
    assert cards(mask, "us.hand") + cards(mask, "us.deck") == tuple(sorted(us_cards))
    assert mask.data["seed"] == 0


def test_what_the_rules_reveal_does_change_what_a_side_knows(game):
    """The opponent's discards are face up: a card moved from his hand to his discard pile
    is seen."""
    position = at_attack(game, japan_hand=("j-zero#1",), us_hand=("us-sbd#1", "us-tbd#1"))
    piles = dict(position.cards)
    piles["us.hand"] = ("us-sbd#1",)
    piles["us.discard"] = (*piles["us.discard"], "us-tbd#1")
    discarded = replace(position, cards=piles)
    assert info.masked(game, discarded, "japan") != info.masked(game, position, "japan")

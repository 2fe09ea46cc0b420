"""The legal answers of rules/choices.py: every answer listed is accepted, and what a
decision lists in chosen positions."""

from __future__ import annotations

from mc_session import RULES, apply, at_attack, legal, play_watched
from warpress.engine.dice import SeededDice


def test_every_listed_answer_is_accepted(game):
    """Each answer listed at a decision is accepted, not only the ones an agent picked."""
    _played, positions = play_watched(game, 6)
    checked = 0
    for position in positions[:: max(1, len(positions) // 40)]:
        if position.verdict is not None:
            continue
        for name, args in legal(game, position)[:60]:
            RULES.apply(game, position, name, args, SeededDice(1))
            checked += 1
    assert checked > 200


def test_a_defender_without_cards_is_asked_all_the_same(game):
    """CAP and defense are asked even of a hand that holds none: its only answer is pass,
    and whether it holds one shows nowhere (hidden hands)."""
    position = at_attack(game, ("j-b5n#1",), ("us-sbd#1",))
    position, _ = apply(game, position, ("fly", {"card": "j-b5n#1", "mission": "A"}))
    assert (position.due.kind, legal(game, position)) == ("cap", [("pass", {})])
    position, _ = apply(game, position, ("pass", {}), ("launch", {}),
                        ("target", {"ship": "hornet"}))
    assert (position.due.kind, legal(game, position)) == ("defense", [("pass", {})])


def test_the_us_lists_a_target_per_card(game):
    """12-3: with two attack cards the US may name a target for each."""
    position = at_attack(game, ("j-zero#1",), ("us-sbd#1", "us-tbd#1"), turn=4,
                         turn_player="us")
    position, _ = apply(game, position, ("fly", {"card": "us-sbd#1", "mission": "A"}),
                        ("pass", {}), ("fly", {"card": "us-tbd#1", "mission": "A"}),
                        ("launch", {}))
    answers = legal(game, position)
    assert ("target", {"ship": "akagi"}) in answers
    assert ("target", {"ship": "akagi", "card": "us-tbd#1"}) in answers
    assert len(answers) == 4 * 3


def test_the_hand_exchange_lists_every_choice(game):
    hand = ("j-zero#1", "j-d3a#1", "j-b5n#1", "j-evasion-a#1")
    position = at_attack(game, hand, ("us-f4f#1",))
    position, _ = apply(game, position, ("pass", {}))
    assert position.due.kind == "exchange"
    answers = [a for a in legal(game, position) if a[0] == "exchange"]
    assert len(answers) == 1 + 4 + 6 + 4, "none, or 1 to 3 cards of 4"


def test_recover_lists_each_set_of_winners_to_discard(game):
    position = at_attack(game, ("j-zero#1", "j-zero#2", "j-d3a#1"), ("us-sbd-escort#1",
                                                                     "us-sbd-escort#2"))
    position, _ = apply(game, position, ("fly", {"card": "j-zero#1", "mission": "F"}),
                        ("cap", {"card": "us-sbd-escort#1"}),
                        ("fly", {"card": "j-zero#2", "mission": "F"}),
                        ("cap", {"card": "us-sbd-escort#2"}),
                        ("fly", {"card": "j-d3a#1", "mission": "A"}), ("pass", {}),
                        ("launch", {}))
    assert (position.due.kind, position.due.side) == ("recover", "japan")
    assert legal(game, position) == [
        ("recover", {}), ("recover", {"discard": "j-zero#1"}),
        ("recover", {"discard": "j-zero#2"}), ("recover", {"discard": "j-zero#1,j-zero#2"})]

"""Solitaire 「飛龍奮戦す」: movement cards with the #08 reshuffle and the US air policy a-g."""

from __future__ import annotations

import pytest
from warpress.engine.dice import GivenDice, distribution
from warpress.engine.errors import RuleViolation
from warpress.games.midway.rules import area as A
from warpress.games.midway.rules import solitaire as SOL


@pytest.mark.parametrize(("card", "turn", "expected"), [
    (1, 3, "E-2"), (2, 3, "E-3"), (3, 3, "E-2"), (5, 3, "E-3"), (6, 3, "F-3"),
    (4, 3, "H-2"), (7, 3, "H-4"), (1, 4, "D-3"), (2, 4, "D-3"),
])
def test_card_moves_from_the_solitaire_start(game, card, turn, expected):
    assert SOL.solitaire_move(game, "F-3", "D-3", card, turn=turn) == expected


def test_toward_two_hexes_when_nothing_blocks(game):
    assert SOL.solitaire_move(game, "H-3", "D-3", 1, turn=3) == "F-2"
    assert SOL.solitaire_move(game, "H-3", "D-3", 2, turn=3) == "F-4"


def test_never_through_midway(game):
    for card in (1, 2, 3, 4, 5, 7):
        assert SOL.solitaire_move(game, "G-6", "D-6", card, turn=3) != "F-6"


def test_card_08_is_not_a_move(game):
    with pytest.raises(RuleViolation, match=r"12\.3\(2\)"):
        SOL.solitaire_move(game, "F-3", "D-3", 8, turn=3)


def test_draw_08_reshuffles_the_discards(game):
    cards = SOL.Cards(deck=(8,), discard=(1, 2))
    card, after = SOL.draw_move_card(game, cards, GivenDice({"card": [2]}))
    assert card == 2 and after == SOL.Cards(deck=(1,), discard=(2,))


def test_draw_is_uniform_over_the_deck(game):
    cards = SOL.Cards(deck=(1, 2, 3, 5, 6, 8))
    dist = distribution(lambda d: SOL.draw_move_card(game, cards, d)[0])
    assert set(dist) == {1, 2, 3, 5, 6}
    assert len(set(dist.values())) == 1 and sum(dist.values()) == 1


def test_drawing_from_an_empty_deck_is_forbidden(game):
    with pytest.raises(RuleViolation, match="empty"):
        SOL.draw_move_card(game, SOL.Cards(deck=()), GivenDice({}))


def test_solitaire_start(game):
    state = SOL.solitaire_start(game)
    assert A.status(game, state, "hiryu") == "intact"
    assert {u.type for u in state.units if u.display == "cardiv2"} == {"a6m", "b5n", "d3a"}
    assert all(u.steps == 1 for u in state.units)
    assert not [u for u in state.units if u.type == "tbd"]
    assert SOL.us_cap_fighters(game, state) == []
    assert state.base_hits == 2 and not A.base_destroyed(game, state)


def test_policy_b_c_first_operation(game):
    state = SOL.solitaire_start(game)
    step = SOL.us_air_operation(game, state, "F-3")
    after = step.state
    # b: no US fighter in CAP, so one deck fighter (the first carrier's, Yorktown) goes up;
    # no attack aircraft is on a deck yet, so nothing launches.
    assert step.to_cap == ("f4f-yorktown-14",) and step.launch == ()
    assert after.unit("f4f-yorktown-14").box == "cap"
    # c: attack aircraft first, then a fighter, where deck boxes are free.
    assert after.unit("sbd-yorktown-16").box == "yorktown-deck-front"
    assert after.unit("f4f-yorktown-15").box == "yorktown-hangar"  # the rear box is damaged
    assert after.unit("sbd-enterprise-8").box == "enterprise-deck-rear"
    assert after.unit("f4f-enterprise-7").box == "enterprise-hangar"
    assert after.unit("sbd-hornet-12").box == "hornet-deck-rear"
    A.check_state(game, after)


def test_policy_b_second_operation_launches_with_fighters(game):
    state = SOL.us_air_operation(game, SOL.solitaire_start(game), "F-3").state
    step = SOL.us_air_operation(game, state, "F-3")
    assert step.to_cap == ()
    assert set(step.launch) == {("sbd-yorktown-16",), ("f4f-enterprise-6", "sbd-enterprise-8"),
                                ("f4f-hornet-10", "sbd-hornet-12")}
    assert {u.group for u in step.state.units if u.airborne} == {
        "yorktown-strike", "enterprise-strike", "hornet-strike"}
    assert step.state.unit("f4f-yorktown-14").box == "cap"  # a: CAP never moves


def test_policy_d_returns_to_tf16(game):
    assert SOL.us_return_display(game) == "tf16"


def test_policy_g_night_deploy(game, build):
    rows = [("f1", "f4f", "tf16", "hornet-hangar", 1), ("f2", "f4f", "tf16", "hornet-hangar", 1),
            ("s1", "sbd", "tf16", "hornet-hangar", 1), ("s2", "sbd", "tf16", "hornet-hangar", 1)]
    state = SOL.us_night_deploy(game, build(rows))
    assert state.unit("f1").box == "hornet-deck-front"
    assert state.unit("s1").box == "hornet-deck-rear"
    assert state.unit("f2").box == "cap"
    assert state.unit("s2").box == "hornet-hangar"


def test_policy_a_cap_returns_to_a_us_deck(game, build):
    rows = [("c1", "f4f", "tf16", "cap", 1), ("c2", "f4f", "tf16", "cap", 1),
            ("x", "sbd", "tf17", "yorktown-deck-front", 1)]
    state = build(rows, damage=frozenset({("tf17", "yorktown-deck-rear")}))
    assert SOL.us_cap_return(game, state, ["c1", "c2"]) == {
        "c1": ("tf16", "enterprise-deck-front"), "c2": ("tf16", "enterprise-deck-rear")}


def test_policy_e_attack_if_in_reach(game, build):
    from warpress.games.midway.rules import combat as C

    state = build([("s", "sbd", "tf16", "enterprise-deck-front")])
    state = C.launch(game, state, ["s"], "F-3", "g")
    assert SOL.us_group_action(game, state, "g", "D-3") == "attack"
    assert SOL.us_group_action(game, state, "g", "A-3") == "return"


def test_solitaire_cards_at_the_start(game):
    assert SOL.solitaire_cards(game) == SOL.Cards(deck=(1, 2, 3, 5, 6, 8), discard=(7,))


def test_card_07_comes_back_only_through_08(game):
    """E22: #07 is a discard at the start; #08 shuffles it back into the deck."""
    cards = SOL.solitaire_cards(game)
    card, after = SOL.draw_move_card(game, cards, GivenDice({"card": [6, 6]}))
    # 1st draw: index 6 of (1, 2, 3, 5, 6, 8) is #08 -> pool (1, 2, 3, 5, 6, 7); index 6: #07.
    assert card == 7 and after == SOL.Cards(deck=(1, 2, 3, 5, 6), discard=(7,))
    assert SOL.solitaire_move(game, "F-3", "D-3", card, turn=3) == "H-4"


def test_card_instead_of_an_operation_once_per_game(game):
    assert SOL.take_card_instead_of_op(game, 0, 2) == 1
    with pytest.raises(RuleViolation, match=r"12\.3\(7\)"):
        SOL.take_card_instead_of_op(game, 1, 2)


def test_policy_f_the_us_never_reorganizes(game):
    state = SOL.solitaire_start(game)
    with pytest.raises(RuleViolation, match=r"12\.3\(4\)f"):
        SOL.solitaire_reorganize(game, state, "sbd-enterprise-8", "sbd-enterprise-9")
    state = A.place(game, state, "a6m-hiryu-1", "cardiv2", "hiryu-hangar")
    merged = SOL.solitaire_reorganize(game, state, "a6m-hiryu-1", "a6m-hiryu-4")
    assert merged.unit("a6m-hiryu-1").steps == 2

"""The checks of rules/moves.py: each action the rules forbid is refused naming its rule,
bad input is told as bad input (before any rule), the ③ capacity of the ship cards, the
escort rule, one attack a turn, the first turn, the US-only split of targets and the
first-deck armament change (12-2)."""

from __future__ import annotations

import pytest
from mc_session import RULES, apply, at_attack, legal, refusal, with_state
from warpress.engine.dice import SeededDice
from warpress.engine.errors import BadInput
from warpress.games.midway_cards.rules import state as st
from warpress.games.midway_cards.rules.common import BASE_ID
from warpress.games.midway_cards.rules.moves import Run
from warpress.games.midway_cards.rules.positions import cards, to_state

# --- refusals: each names its rule ------------------------------------------------------


J_ZERO, J_D3A, J_B5N = "j-zero#1", "j-d3a#1", "j-b5n#1"
US_F4F, US_SBD, US_AA = "us-f4f#1", "us-sbd#1", "us-aa-a#1"


@pytest.fixture
def japan_turn(game):
    return at_attack(game, (J_ZERO, "j-zero#2", J_D3A, "j-d3a#2", J_B5N, "j-evasion-c#1"),
                     (US_F4F, "us-f4f#2", US_SBD, US_AA, "us-evasion-c#1", "us-tbd#1"))


@pytest.mark.parametrize(("commands", "rule"), [
    ([("fly", {"card": J_D3A, "mission": "A"}), ("pass", {}),
      ("fly", {"card": J_ZERO, "mission": "F"})], "7-1-1"),      # F after A
    ([("fly", {"card": J_D3A, "mission": "F"})], "3-3"),           # a bomber cannot fly F
    ([("fly", {"card": "j-evasion-c#1", "mission": "A"})], "7-1"),  # not an aircraft card
    ([("fly", {"card": US_SBD, "mission": "A"})], "7-1-1"),        # the enemy's card
    ([("fly", {"card": J_ZERO, "mission": "F"}), ("pass", {}), ("launch", {})], "7-1-1"),
    ([("fly", {"card": J_D3A, "mission": "A"}), ("cap", {"card": US_SBD})], "7-1-1"),
    ([("fly", {"card": J_D3A, "mission": "A"}), ("cap", {"card": J_ZERO})], "7-1-1"),
    ([("fly", {"card": J_D3A, "mission": "A"}), ("pass", {}), ("launch", {}),
      ("target", {"ship": "akagi"})], "7-2"),                       # own ship
    ([("fly", {"card": J_D3A, "mission": "A"}), ("pass", {}), ("launch", {}),
      ("target", {"ship": BASE_ID})], "12-1"),
    ([("fly", {"card": J_D3A, "mission": "A"}), ("pass", {}), ("launch", {}),
      ("target", {"ship": "yorktown"}), ("defend", {"card": J_D3A, "defense": "us-tbd#1"})],
     "7-3"),
    ([("raid", {"card": J_D3A})], "12-2"),                          # not re-armed
    ([("rearm", {"card": J_ZERO})], "12-2"),                        # a Zero is not re-armed
    ([("raid", {"card": J_ZERO}), ("launch", {}), ("defend", {"card": J_ZERO,
                                                              "defense": "us-evasion-c#1"})],
     "12-4"),
    ([("pass", {}), ("exchange", {"cards": f"{J_ZERO},{J_D3A},{J_B5N},j-zero#2"})], "8"),
    ([("repair-aircraft", {"card": J_ZERO, "take": J_D3A})], "10-1"),  # not 損傷機修理
    ([("keep", {})], "5-1"),                                        # not this decision
    ([("fly", {"card": J_D3A, "mission": "A"}), ("pass", {}), ("launch", {}),
      ("target", {"ship": "yorktown"}), ("pass", {}),
      ("fly", {"card": J_B5N, "mission": "A"})], "8"),              # not the exchange's
])
def test_forbidden_actions_are_refused_with_their_rule(game, japan_turn, commands, rule):
    position, _ = apply(game, japan_turn, *commands[:-1])
    name, args = commands[-1]
    assert refusal(game, position, name, args).rule == rule


def _disabled(position, game, *ship_ids):
    state = to_state(game, position)
    ships = tuple(st.replace(s, disabled=True) if s.id in ship_ids else s for s in state.ships)
    return with_state(game, position, ships=ships)


def test_the_ship_cards_limit_the_aircraft_flown_at_once(game, japan_turn):
    """③ of the carriers still able to launch: with three Japanese carriers 発着艦不能 one
    bomber flies; with two US carriers 発着艦不能 one CAP card answers (7, 7-4)."""
    position = _disabled(japan_turn, game, "kaga", "hiryu", "soryu")
    position, _ = apply(game, position, ("fly", {"card": J_D3A, "mission": "A"}), ("pass", {}))
    assert refusal(game, position, "fly", {"card": "j-d3a#2", "mission": "A"}).rule == "7"
    assert refusal(game, position, "fly", {"card": J_ZERO, "mission": "A"}).rule == "7"
    assert ("fly", {"card": J_B5N, "mission": "A"}) in legal(game, position)
    us = _disabled(japan_turn, game, "hornet", "yorktown")
    us, _ = apply(game, us, ("fly", {"card": J_ZERO, "mission": "F"}), ("cap", {"card": US_F4F}),
                  ("fly", {"card": "j-zero#2", "mission": "F"}))
    assert refusal(game, us, "cap", {"card": "us-f4f#2"}).rule == "7-1"
    assert legal(game, us) == [("pass", {})]


def test_an_escort_flies_only_while_an_a_card_can_follow(game):
    """7-1-1: the attack needs an A card; F cards that would leave none are not flown."""
    position = at_attack(game, (J_ZERO, "j-evasion-c#1"), (US_F4F,))
    assert refusal(game, position, "fly", {"card": J_ZERO, "mission": "F"}).rule == "7-1-1"
    assert ("fly", {"card": J_ZERO, "mission": "A"}) in legal(game, position)
    two = at_attack(game, (J_ZERO, "j-zero#2"), (US_F4F,))
    assert ("fly", {"card": J_ZERO, "mission": "F"}) in legal(game, two)


def test_one_attack_a_turn(game, japan_turn):
    position, _ = apply(game, japan_turn, ("raid", {"card": J_ZERO}), ("launch", {}),
                        ("pass", {}))
    assert position.due.kind == "exchange"
    position = Run(game, position)
    position.due("attack", "japan")
    assert refusal(game, position.pos, "fly", {"card": "j-zero#2", "mission": "A"}).rule \
        == "5-1"


def test_the_first_turn_attacks_only_the_base(game):
    position = at_attack(game, (J_ZERO, J_D3A), (US_F4F,), turn=1)
    assert refusal(game, position, "fly", {"card": J_D3A, "mission": "A"}).rule == "12-1"
    assert {n for n, _ in legal(game, position)} == {"rearm", "raid", "pass"}


def test_the_us_cannot_raid_its_own_base(game):
    position = at_attack(game, (J_ZERO,), (US_SBD, US_F4F), turn=4, turn_player="us")
    error = refusal(game, position, "raid", {"card": US_SBD})
    assert error.rule == "7" and "only the Japanese attack it" in str(error)
    assert refusal(game, position, "rearm", {"card": US_SBD}).rule == "12-2"


def test_only_the_us_splits_its_targets(game, japan_turn):
    position, _ = apply(game, japan_turn, ("fly", {"card": J_D3A, "mission": "A"}),
                        ("pass", {}), ("fly", {"card": J_B5N, "mission": "A"}), ("launch", {}))
    assert refusal(game, position, "target", {"ship": "yorktown", "card": J_D3A}).rule == "7-2"
    us = at_attack(game, (J_ZERO,), (US_SBD, "us-tbd#1"), turn=4, turn_player="us")
    us, _ = apply(game, us, ("fly", {"card": US_SBD, "mission": "A"}), ("pass", {}),
                  ("fly", {"card": "us-tbd#1", "mission": "A"}), ("launch", {}),
                  ("target", {"ship": "akagi", "card": US_SBD}))
    assert (us.due.kind, list(us.due.data["cards"])) == ("target", ["us-tbd#1"])
    us, said = apply(game, us, ("target", {"ship": "kaga"}))
    assert us.due.kind == "defense" and any("attacks kaga with us-tbd#1" in s for s in said)


def test_bad_input_is_not_a_refusal(game, japan_turn):
    for name, args in [("fly", {"card": "tiger#1", "mission": "A"}),
                       ("fly", {"card": J_D3A, "mission": "Z"}),
                       ("fly", {"card": "j-zero#99", "mission": "F"}),
                       ("exchange", {"cards": f"{J_ZERO},{J_ZERO}"}),
                       ("nosuch", {})]:
        with pytest.raises(BadInput):
            RULES.apply(game, japan_turn, name, args, SeededDice(1))


# --- armament change (12-2) -------------------------------------------------------------


def test_the_first_deck_must_see_an_armament_change(game):
    """12-2: on the first deck, no armament change made, the deck holding no more cards
    than the Japanese may draw before their next attack phase: they re-arm now."""
    position = at_attack(game, (J_ZERO, J_D3A), (US_F4F,), turn=9)
    most = (game.constant("hand-exchange-max") + 2 * game.constant("hand-limit")
            + game.constant("draws-per-turn") + game.constant("extra-draw-no-aircraft"))
    state = to_state(game, position)
    low = with_state(game, position, japan=st.replace(state.japan,
                                                      deck=state.japan.deck[:most]))
    high = with_state(game, position, japan=st.replace(state.japan,
                                                       deck=state.japan.deck[:most + 1]))
    assert ("pass", {}) in legal(game, high)
    assert {n for n, _ in legal(game, low)} == {"rearm"}
    assert refusal(game, low, "pass").rule == "12-2"
    assert refusal(game, low, "raid", {"card": J_ZERO}).rule == "12-2"
    after, _ = apply(game, low, ("rearm", {"card": J_D3A}))
    assert ("pass", {}) in legal(game, after)
    done = with_state(game, low, rearmed_in_first_deck=True)
    assert ("pass", {}) in legal(game, done)


def test_rearming_puts_the_card_on_the_table_and_helps_the_us(game):
    position = at_attack(game, (J_D3A, J_B5N, J_ZERO), (US_F4F,))
    after, said = apply(game, position, ("rearm", {"card": J_D3A}))
    assert after.piece("rearming-in-progress").kind == "play"
    assert "ac-d3a#1" in cards(after, "japan.hand") and J_D3A in cards(after, "japan.discard")
    view = RULES.player_view(game, after, "us")
    assert view["rearming"] is True
    assert any(t["id"] == "rearming-in-progress" for t in view["table"])

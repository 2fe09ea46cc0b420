"""The catalogue tables of midway-cards at their edges, and the data they read."""

from __future__ import annotations

import pytest
from warpress.engine.errors import BadInput, RuleViolation
from warpress.games.midway_cards.rules import combat, referee
from warpress.games.midway_cards.rules.common import (
    SECONDARY_DECK,
    deck_count,
    half,
    rank,
)

# --- the data behind the tables ----------------------------------------------------------------


def test_level_choices_equal_the_data(game):
    assert referee.AIR_LEVELS == tuple(game.constant("air-combat-levels"))
    assert referee.DEFENSE_LEVELS == tuple(game.constant("defense-levels"))


def test_secondary_die_is_the_deck_size(game):
    assert referee.SECONDARY_DIE == f"d{deck_count(game, SECONDARY_DECK)}"
    numbers = sorted(c.number for c in game.cards if c.deck == SECONDARY_DECK)
    assert numbers == list(range(1, deck_count(game, SECONDARY_DECK) + 1))


def test_base_status_table_agrees_with_the_constants(game, lookup):
    heavy, gone = game.constant("base-heavy-damage"), game.constant("base-destroyed-damage")
    assert lookup("base-status", f"damage={heavy - 1}") == {"status": "intact", "vp": 0}
    assert lookup("base-status", f"damage={heavy}")["vp"] == game.constant("base-heavy-vp")
    assert lookup("base-status", f"damage={gone}")["vp"] == game.constant("base-destroyed-vp")


# --- air-combat (7-1-2) ------------------------------------------------------------------------


@pytest.mark.parametrize("attacker", ["A", "B", "C", "D"])
@pytest.mark.parametrize("defender", ["A", "B", "C", "D"])
def test_air_combat_lower_level_removed_equal_both(game, lookup, attacker, defender):
    """CI7: equal levels remove both cards, otherwise exactly the lower one."""
    removed = lookup("air-combat", f"attacker={attacker}", f"defender={defender}")["removed"]
    a = rank(game, "air-combat-levels", attacker)
    d = rank(game, "air-combat-levels", defender)
    assert removed == ("both" if a == d else "attacker" if a < d else "defender")


def test_air_combat_strongest_and_weakest(lookup):
    assert lookup("air-combat", "attacker=A", "defender=D") == {"removed": "defender"}
    assert lookup("air-combat", "attacker=D", "defender=A") == {"removed": "attacker"}


def test_air_combat_bad_level(lookup):
    with pytest.raises(BadInput, match="attacker='E'"):
        lookup("air-combat", "attacker=E", "defender=A")


# --- defense (7-3, C-E2) -------------------------------------------------------------------------


@pytest.mark.parametrize("defense", ["A", "B", "C"])
@pytest.mark.parametrize("attack", ["A", "B", "C"])
def test_defense_level_at_or_above_stops(game, lookup, defense, attack):
    """CI9 / C-E2: a defense card stops an attack when its level >= the anti-ship level."""
    stopped = lookup("defense", f"defense={defense}", f"attack={attack}")["stopped"]
    assert stopped == (rank(game, "defense-levels", defense)
                       >= rank(game, "defense-levels", attack))


def test_defense_edges_and_errata(payload, lookup):
    out = payload("lookup", "defense", "defense=C", "attack=C")
    assert out["result"] == {"stopped": True} and out["errata"] == ["C-E2"]
    assert lookup("defense", "defense=C", "attack=A") == {"stopped": False}


def test_defense_base_takes_aa_only(lookup):
    """CI10: the base uses AA cards only (12-4)."""
    assert lookup("defense", "defense=A", "attack=B", "kind=AA", "base=yes")["stopped"]
    with pytest.raises(RuleViolation, match="12-4"):
        lookup("defense", "defense=A", "attack=B", "kind=ES", "base=yes")
    assert lookup("defense", "defense=A", "attack=B", "kind=ES", "base=no")["stopped"]


# --- ship-status (3-1, 7-4, C-E1, C-E19) -------------------------------------------------------


def test_ship_status_intact(lookup):
    out = lookup("ship-status", "ship=yorktown")
    assert out == {"status": "intact", "flight_ops": True, "vp": 0, "vp_box": "none"}


@pytest.mark.parametrize(("deck_damage", "side_damage", "status"), [
    (3, 3, "intact"),      # just under half of 8
    (4, 0, "medium"),      # half of the deck
    (0, 4, "medium"),      # half of the side
    (4, 4, "heavy"),       # both half
    (7, 7, "heavy"),       # one short of the durability on both
    (8, 0, "sunk"),        # reaches the deck durability (C-E1)
    (0, 8, "sunk"),
    (20, 20, "sunk"),      # far beyond
])
def test_ship_status_thresholds_yorktown(lookup, deck_damage, side_damage, status):
    out = lookup("ship-status", "ship=yorktown", f"deck_damage={deck_damage}",
                 f"side_damage={side_damage}")
    assert out["status"] == status
    assert out["flight_ops"] == (status in ("intact", "medium"))


def test_ship_status_vp_from_the_ship_card(game, lookup):
    yorktown = game.get("cards", "yorktown").stats
    for damage, box in ((4, "medium"), (8, "sunk")):
        out = lookup("ship-status", "ship=yorktown", f"side_damage={damage}")
        assert out["vp"] == yorktown[f"vp_{box}"] and out["vp_box"] == box
    out = lookup("ship-status", "ship=yorktown", "side_damage=1", "disabled=yes")
    assert (out["status"], out["vp"]) == ("heavy", yorktown["vp_heavy"])


def test_ship_status_odd_durability_rounds_half_up(game, lookup):
    """C-E19: half of 7 is 4 (rounded up)."""
    assert half(game, 7) == 4 and half(game, 8) == 4 and half(game, 1) == 1
    assert lookup("ship-status", "deck=7", "side=7", "deck_damage=3")["status"] == "intact"
    assert lookup("ship-status", "deck=7", "side=7", "deck_damage=4")["status"] == "medium"
    out = lookup("ship-status", "deck=7", "side=7", "deck_damage=4")
    assert out["vp"] is None and out["vp_box"] == "medium"


def test_ship_status_smallest_durability(lookup):
    assert lookup("ship-status", "deck=1", "side=1")["status"] == "intact"
    assert lookup("ship-status", "deck=1", "side=1", "side_damage=1")["status"] == "sunk"


def test_ship_status_disabled_is_heavy_unless_sunk(lookup):
    assert lookup("ship-status", "deck=8", "side=8", "disabled=yes")["status"] == "heavy"
    assert lookup("ship-status", "deck=8", "side=8", "deck_damage=8",
                  "disabled=yes")["status"] == "sunk"


@pytest.mark.parametrize("inputs", [
    {"ship": "bismarck"},
    {"deck": 8},
    {"ship": "yorktown", "deck": 8, "side": 8},
    {"ship": "midway-base"},
])
def test_ship_status_bad_input(lookup, inputs):
    with pytest.raises(BadInput):
        lookup("ship-status", *(f"{k}={v}" for k, v in inputs.items()))


def test_ship_status_negative_damage_is_bad_input(lookup):
    with pytest.raises(BadInput, match="deck_damage"):
        lookup("ship-status", "ship=yorktown", "deck_damage=-1")


# --- base-status (12-4, 11) ----------------------------------------------------------------------


@pytest.mark.parametrize(("damage", "status", "vp"), [
    (0, "intact", 0), (19, "intact", 0), (20, "heavy", 10), (39, "heavy", 10),
    (40, "destroyed", 20), (55, "destroyed", 20),
])
def test_base_status_edges(lookup, damage, status, vp):
    assert lookup("base-status", f"damage={damage}") == {"status": status, "vp": vp}


def test_base_status_negative(lookup):
    with pytest.raises(BadInput, match="damage"):
        lookup("base-status", "damage=-1")


# --- hand (9, C-E14) ---------------------------------------------------------------------------


@pytest.mark.parametrize(("hand", "draw", "discard"), [
    (0, 6, 0), (1, 5, 0), (5, 1, 0), (6, 0, 0), (7, 0, 1), (12, 0, 6), (32, 0, 26),
])
def test_hand_to_the_limit(game, lookup, hand, draw, discard):
    out = lookup("hand", f"hand={hand}")
    assert (out["draw"], out["discard"]) == (draw, discard)
    assert out["hand_after"] == game.constant("hand-limit")


def test_hand_no_refill_only_discards(lookup):
    """C-E14: a player who neither moves nor used cards does not draw, but discards."""
    assert lookup("hand", "hand=2", "refill=no") == {"draw": 0, "discard": 0, "hand_after": 2}
    assert lookup("hand", "hand=8", "refill=no")["discard"] == 2


def test_hand_draw_capped_by_the_deck(lookup):
    assert lookup("hand", "hand=1", "deck_left=2") == {"draw": 2, "discard": 0, "hand_after": 3}
    assert lookup("hand", "hand=1", "deck_left=0")["draw"] == 0


def test_hand_bad_input(lookup):
    with pytest.raises(BadInput, match="hand"):
        lookup("hand", "hand=-1")
    with pytest.raises(BadInput, match=r"hand='33' is not allowed \(integer 0\.\.32"):
        lookup("hand", "hand=33")


# --- attack-damage, strike, victory ------------------------------------------------------------


def test_attack_damage_every_card_of_the_deck(game, lookup):
    """CI12: damage is 0 or between the card's damage and damage + 3 (+1 US while re-arming)."""
    for number in range(1, 17):
        for card, rearming in (("j-b5n", "no"), ("us-sbd", "yes"), ("j-d3a", "no")):
            out = lookup("attack-damage", f"card={card}", f"rearming={rearming}", f"draw={number}")
            low, high = combat.damage_range(game, card, rearming == "yes")
            assert out["damage"] == 0 or low <= out["damage"] <= high
            assert out["damage"] == 0 or out["damage"] >= 1


def test_attack_damage_us_bonus_while_rearming(game, lookup):
    plain = lookup("attack-damage", "card=us-tbd", "draw=2")
    bonus = lookup("attack-damage", "card=us-tbd", "draw=2", "rearming=yes")
    assert bonus["damage"] == plain["damage"] + game.constant("rearming-us-damage-bonus")
    japanese = lookup("attack-damage", "card=j-b5n", "draw=2", "rearming=yes")
    assert japanese["damage"] == plain["damage"]


def test_attack_damage_base_reads_bombing(lookup):
    """12-1: every card attacking the base reads the bombing result."""
    out = lookup("attack-damage", "card=ac-b5n", "target=base", "draw=3")
    assert out["kind"] == "bombing" and out["result"] == "none"


def test_attack_damage_bad_cards(lookup):
    with pytest.raises(BadInput, match="card='zz'"):
        lookup("attack-damage", "card=zz", "draw=1")
    with pytest.raises(BadInput, match="not an attacking card"):
        lookup("attack-damage", "card=us-aa-a", "draw=1")
    with pytest.raises(RuleViolation, match="12-2"):
        lookup("attack-damage", "card=ac-d3a", "target=ship", "draw=1")
    with pytest.raises(RuleViolation, match="12-2"):
        lookup("attack-damage", "card=j-d3a", "target=base", "draw=1")
    with pytest.raises(BadInput, match="d16"):
        lookup("attack-damage", "card=j-d3a", "draw=17")
    with pytest.raises(BadInput, match="d16"):
        lookup("attack-damage", "card=j-d3a", "draw=0")


def test_strike_sums_damage_and_sinks(lookup):
    out = lookup("strike", "target=soryu", "cards=us-tbd,us-tbd", "draws=11,2")
    assert out["side_damage"] == 8 and out["status"] == "sunk" and out["sunk"]
    out = lookup("strike", "target=midway-base", "cards=ac-b5n", "deck_damage=17", "draws=2")
    assert out["deck_damage"] == 20 and out["status"] == "heavy"


def test_strike_rejects_a_card_drawn_twice_or_used(lookup):
    with pytest.raises(BadInput, match="draws"):
        lookup("strike", "target=yorktown", "cards=j-b5n,j-b5n", "draws=3,3")
    with pytest.raises(BadInput, match="draws"):
        lookup("strike", "target=yorktown", "cards=j-b5n", "used=3", "draws=3")
    with pytest.raises(BadInput, match="used='99'"):
        lookup("strike", "target=yorktown", "cards=j-b5n", "used=99", "draws=3")


@pytest.mark.parametrize(("inputs", "named"), [
    (["target=akagi", "cards=j-b5n"], "'akagi' is a japan ship card"),
    (["target=yorktown", "cards=us-tbd,us-sbd"], "'yorktown' is a us ship card"),
    (["target=yorktown", "cards=j-b5n,us-tbd"], "mix both players' cards"),
    (["target=akagi", "cards=us-tbd,j-b5n"], "mix both players' cards"),
    (["target=midway-base", "cards=us-sbd"], "only the Japanese attack it"),
])
def test_strike_is_one_player_against_the_enemy(lookup, inputs, named):
    """Rule 7, 5-1(2): a player attacks enemy ships with his own cards; the Midway base is
    the US's own card (12-1): refused under rule 7, not as a missing armament change."""
    with pytest.raises(RuleViolation, match="rule 7\\)") as caught:
        lookup("strike", *inputs, "draws=1,2")
    assert named in str(caught.value) and caught.value.rule == "7"
    with pytest.raises(RuleViolation, match="only the Japanese attack it"):
        lookup("attack-damage", "card=us-sbd", "target=base", "draw=1")


def test_strike_odds_refuse_the_same(odds):
    with pytest.raises(RuleViolation, match="rule 7"):
        odds("strike", "target=hornet", "cards=us-tbd")


@pytest.mark.parametrize(("inputs", "winner"), [
    ({"japan_out": "yes", "us_out": "no", "base_damage": 0}, "us"),
    ({"japan_out": "no", "us_out": "yes", "base_damage": 20}, "japan"),
    ({"japan_out": "no", "us_out": "yes", "base_damage": 19}, "draw"),
    ({"japan_out": "no", "us_out": "no", "base_damage": 19, "japan_vp": 30}, "us"),
    ({"japan_out": "no", "us_out": "no", "base_damage": 20, "japan_vp": 11, "us_vp": 10},
     "japan"),
    ({"japan_out": "no", "us_out": "no", "base_damage": 40, "japan_vp": 20, "us_vp": 21}, "us"),
    ({"japan_out": "no", "us_out": "no", "base_damage": 20, "japan_vp": 10, "us_vp": 10},
     "draw"),
])
def test_victory(lookup, inputs, winner):
    assert lookup("victory", *(f"{k}={v}" for k, v in inputs.items()))["winner"] == winner


def test_data_tables_served_too(lookup):
    """The data's own tables answer as plain look-ups."""
    assert lookup("secondary-damage", "result=dud", "target=ship")["zero_damage"] is True

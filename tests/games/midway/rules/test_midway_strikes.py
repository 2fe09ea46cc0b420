"""rules/strikes.py: an air attack step by step in a session, each choice asked of the side
the rules give it to: the target (9.1), the interceptors (9.2), the losses (9.2(3),
9.3(3)), the carriers attacked (9.4), the landing of the interceptors (9.5(1), 12.3(4)a)
and the return (9.5(2))."""

from __future__ import annotations

from mw_session import apply, at_op, due, legal, refusal
from warpress.engine.dice import GivenDice
from warpress.games.midway.rules import area as A
from warpress.games.midway.rules.positions import to_area


def us_strike(game, **rolls):
    """A two-player US group (an F4F and an SBD from Enterprise's deck) flown at the 1st Air
    Fleet in the next hex; the Japanese choose their interceptors."""
    area = to_area(game, at_op(game, "standard", "us", {"ichikokan": "G-2",
                                                         "tf16-17": "H-3"}))
    area = A.place(game, area, "sbd-enterprise-20", "tf16", "enterprise-hangar")
    area = A.place(game, area, "f4f-enterprise-17", "tf16", "enterprise-deck-rear")
    position = at_op(game, "standard", "us", {"ichikokan": "G-2", "tf16-17": "H-3"},
                     area=area)
    position, _ = apply(game, position,
                        ("launch", {"unit": "sbd-enterprise-19", "group": "new"}),
                        ("launch", {"unit": "f4f-enterprise-17", "group": "g1"}),
                        ("fly", {"group": "g1", "hex": "G-2"}),
                        ("target", {"target": "cardiv1"}))
    return position


def test_the_defender_picks_its_interceptors_one_by_one(game):
    position = us_strike(game)
    assert due(position) == ("intercept", "japan")
    assert {a.get("unit") for n, a in legal(game, position)} == {"a6m-akagi-1", None}
    assert "9.2" in str(refusal(game, position, "intercept", {"unit": "a6m-hiryu-9"}))
    position, said = apply(game, position, ("intercept", {"unit": "a6m-akagi-1"}),
                           dice=GivenDice({"cap": [6, 6], "escort": [6, 6],
                                           "aa": [6] * 4}))
    assert "a6m-akagi-1 intercepts group g1" in said
    assert "CAP fire: 2 dice, 0 hit(s) on group g1" in said
    assert "escort fire: 2 dice, 0 hit(s) on the CAP" in said


def test_cap_hits_are_taken_by_the_attacker_as_he_chooses(game):
    """9.2(1)(3): the Zero (air 3, 2 steps) rolls 1 and 2: two hits on a group of an F4F and
    an SBD (2 steps each): the US chooses which unit loses each step."""
    position = us_strike(game)
    position, said = apply(game, position, ("intercept", {"unit": "a6m-akagi-1"}),
                           dice=GivenDice({"cap": [1, 2]}))
    assert "CAP fire: 2 dice, 2 hit(s) on group g1" in said
    assert due(position) == ("lose", "us")
    assert set(position.due.data["units"]) == {"f4f-enterprise-17", "sbd-enterprise-19"}
    assert "9.2(3)" in str(refusal(game, position, "lose", {"unit": "a6m-akagi-2"}))
    rolls = GivenDice({"escort": [6], "aa": [6, 6, 6, 6]})
    position, said = apply(game, position, ("lose", {"unit": "f4f-enterprise-17"}),
                           ("lose", {"unit": "f4f-enterprise-17"}), dice=rolls)
    area = to_area(game, position)
    assert "f4f-enterprise-17" not in {u.uid for u in area.units}
    assert "anti-aircraft fire: 4 dice hitting on 2 or less, 0 hit(s)" in said


def test_anti_aircraft_hits_fall_on_attack_aircraft_only(game):
    """9.3(2)(3): with the escort still there AA hits on a 1; hits take the SBD's steps."""
    position = us_strike(game)
    rolls = GivenDice({"aa": [1, 1, 6, 6], "attack": []})
    position, said = apply(game, position, ("pass", {}), dice=rolls)
    assert "anti-aircraft fire: 4 dice hitting on 1 or less, 2 hit(s)" in said
    area = to_area(game, position)
    assert area.unit("f4f-enterprise-17").steps == 2
    assert "sbd-enterprise-19" not in {u.uid for u in area.units}


def test_each_attack_aircraft_is_assigned_to_a_carrier(game):
    """9.4: against a division of two carriers the attacker assigns each attack aircraft
    before rolling."""
    position = us_strike(game)
    position, _ = apply(game, position, ("pass", {}), dice=GivenDice({"aa": [6] * 4}))
    assert due(position) == ("assign", "us")
    assert {a["carrier"] for _, a in legal(game, position)} == {"akagi", "kaga"}
    assert "9.4" in str(refusal(game, position, "assign", {"unit": "sbd-enterprise-19",
                                                          "carrier": "hiryu"}))
    position, said = apply(game, position, ("assign", {"unit": "sbd-enterprise-19",
                                                        "carrier": "kaga"}),
                           dice=GivenDice({"attack": [1, 6], "hit_location": [5]}))
    assert "kaga is hit: a damage marker on kaga-deck-rear" in said
    assert due(position) == ("return", "us")
    assert {a["to"] for _, a in legal(game, position)} == {"tf16", "tf17", "midway-base"}
    position, said = apply(game, position, ("return", {"group": "g1", "to": "tf17"}))
    area = to_area(game, position)
    assert area.unit("sbd-enterprise-19").box == "return-1"  # attacked right after launch
    assert area.unit("sbd-enterprise-19").display == "tf17"


def test_dive_bomber_bonus_and_the_b5n_with_a_d3a(game):
    """9.4(1): the D3A +1 with an attack aircraft on the carrier's deck; the B5N +1 beside a
    D3A on the same carrier; the dive bomber never takes the B5N's +1."""
    area = to_area(game, at_op(game, "standard", "japan", {"ichikokan": "G-2",
                                                            "tf16-17": "H-3"}))
    area = A.place(game, area, "a6m-hiryu-9", "cardiv2", "cap")
    position = at_op(game, "standard", "japan", {"ichikokan": "G-2", "tf16-17": "H-3"},
                     area=area)
    position, _ = apply(game, position,
                        ("launch", {"unit": "d3a-akagi-3", "group": "new"}),
                        ("launch", {"unit": "b5n-akagi-4", "group": "g1"}),
                        ("fly", {"group": "g1", "hex": "H-3"}),
                        ("target", {"target": "tf17"}))
    assert due(position) == ("intercept", "us")
    position, said = apply(game, position, ("pass", {}),
                           dice=GivenDice({"aa": [6, 6], "attack": [6, 6, 6, 6]}))
    assert "d3a-akagi-3 attacks yorktown: 2 dice hitting on 4 or less, 0 hit(s)" in said
    assert "b5n-akagi-4 attacks yorktown: 2 dice hitting on 4 or less, 0 hit(s)" in said


def solitaire_japanese_attack(game):
    """The solitaire Japanese B5N flies at TF17 (Yorktown's CAP holds an F4F)."""
    area = to_area(game, at_op(game, "solitaire", "japan", {"ichikokan": "E-3",
                                                             "tf16-17": "F-3"}, turn=3))
    area = A.move(game, area, "f4f-yorktown-14", "cap")
    position = at_op(game, "solitaire", "japan", {"ichikokan": "E-3", "tf16-17": "F-3"},
                     turn=3, area=area)
    return apply(game, position, ("launch", {"unit": "b5n-hiryu-3", "group": "new"}),
                 ("fly", {"group": "g1", "hex": "F-3"}), ("target", {"target": "tf17"}),
                 dice=GivenDice({"cap": [6], "aa": [6], "attack": [6]}))


def test_the_solitaire_us_intercepts_and_the_player_lands_it(game):
    """12.3(4)a, E33: the US CAP fighter intercepts; the player returns it to the deck of
    any US carrier with a free box."""
    position, said = solitaire_japanese_attack(game)
    assert "f4f-yorktown-14 intercepts group g1" in said
    assert due(position) == ("land", "japan")
    boxes = {a["box"] for _, a in legal(game, position)}
    assert boxes == {"tf16/enterprise-deck-rear", "tf16/hornet-deck-rear",
                     "tf17/yorktown-deck-front"}
    position, said = apply(game, position, ("land", {"unit": "f4f-yorktown-14",
                                                     "box": "tf16/hornet-deck-rear"}))
    assert to_area(game, position).unit("f4f-yorktown-14").box == "hornet-deck-rear"


def test_every_cap_fighter_is_lost_with_its_last_carrier(game):
    """9.5(1), E17: the division's last carrier sunk, its CAP fighters cannot land."""
    area = to_area(game, us_strike(game))
    area = A.sink(game, area, "akagi")
    area = A.hit_carrier(game, area, "kaga", GivenDice({"hit_location": [1]}))
    position = at_op(game, "standard", "us", {"ichikokan": "G-2", "tf16-17": "H-3"},
                     area=area)
    position, _ = apply(game, position, ("fly", {"group": "g1", "hex": "G-2"}),
                        ("target", {"target": "cardiv1"}))
    position, said = apply(game, position, ("pass", {}),
                           dice=GivenDice({"aa": [6], "attack": [1, 6]}))
    area = to_area(game, position)
    assert "kaga" in area.sunk and not area.in_box("cardiv1", "cap")
    assert "every carrier of cardiv1 is sunk: its CAP fighters are lost (a6m-akagi-1)" in said

"""Movement in an Axis & Allies session (rules/moves.py): combat movement (②) into enemy
spaces, blitz (W21, I21), transports loading and unloading (amphibious assault), aircraft
with a landing planned; non-combat movement (④: W22-W24, I11-I13) and aircraft landing;
each move the rules forbid refused with its rule."""

from __future__ import annotations

import pytest
from aa_session import RULES, apply, at, legal, refusal, units_in

COMBAT = "combat-move"
NONCOMBAT = "non-combat-move"


def move(frm, to, unit, count=None, via=None):
    args = {"from": frm, "to": to, "unit": unit}
    if count is not None:
        args["count"] = count
    if via is not None:
        args["via"] = via
    return ("move", args)


# --- ② land ---------------------------------------------------------------------------


def test_w21_armor_blitzes_an_empty_enemy_territory_and_moves_on(game):
    position = at(game, "germany", COMBAT,
                  [("germany", "armor", "east-europe", 1), ("russia", "infantry", "caucasus", 1),
                   ("russia", "infantry", "karelia-ssr", 1)])
    assert position.control["ukraine-ssr"] == "germany"
    position = at(game, "germany", COMBAT,
                  [("germany", "armor", "east-europe", 1), ("russia", "infantry", "caucasus", 1),
                   ("russia", "infantry", "karelia-ssr", 1)], control={"ukraine-ssr": "russia"})
    after, said = apply(game, position, move("east-europe", "caucasus", "armor",
                                             via="ukraine-ssr"))
    assert after.control["ukraine-ssr"] == "germany"  # the marker flipped (I21)
    assert units_in(after, "caucasus", "germany") == {"armor": 1}
    assert "ukraine-ssr" in after.data["captured"]
    assert any("blitz" in s for s in said)


def test_i21_only_armor_blitzes(game):
    position = at(game, "germany", COMBAT, [("germany", "infantry", "east-europe", 1)],
                  control={"ukraine-ssr": "russia", "caucasus": "russia"})
    caught = refusal(game, position, *move("east-europe", "caucasus", "infantry",
                                           via="ukraine-ssr"))
    assert caught.rule in ("unit table", "② combat movement")
    position = at(game, "japan", COMBAT, [("japan", "fighter", "manchuria", 1),
                                          ("russia", "infantry", "soviet-far-east", 1)],
                  control={"china": "usa"})
    after, _ = apply(game, position, move("manchuria", "soviet-far-east", "fighter"))
    assert after.control["china"] == "usa"  # aircraft fly over and take nothing


def test_a_combat_move_ends_where_the_enemy_is(game):
    position = at(game, "germany", COMBAT, [("germany", "infantry", "germany", 2)])
    caught = refusal(game, position, *move("germany", "east-europe", "infantry"))
    assert caught.rule == "② combat movement" and "non-combat" in str(caught)


def test_a_land_unit_entering_an_empty_enemy_territory_takes_it(game):
    position = at(game, "germany", COMBAT, [("germany", "infantry", "east-europe", 1)],
                  control={"ukraine-ssr": "russia"})
    after, _ = apply(game, position, move("east-europe", "ukraine-ssr", "infantry"))
    assert after.control["ukraine-ssr"] == "germany"


def test_an_ally_s_own_territory_goes_back_to_it(game):
    position = at(game, "uk", COMBAT, [("uk", "infantry", "persia", 1)],
                  control={"caucasus": "germany"})
    after, _ = apply(game, position, move("persia", "caucasus", "infantry"))
    assert after.control["caucasus"] == "russia"  # constant liberation


def test_neutral_territories_are_closed(game):
    position = at(game, "germany", COMBAT, [("germany", "infantry", "west-europe", 1),
                                            ("germany", "fighter", "west-europe", 1)])
    assert refusal(game, position, *move("west-europe", "spain", "infantry")).rule == \
        "② combat movement"
    position = at(game, "germany", NONCOMBAT, [("germany", "infantry", "west-europe", 1)])
    assert refusal(game, position, *move("west-europe", "spain", "infantry")).rule == \
        "④ non-combat movement"


def test_an_aa_gun_makes_no_combat_move(game):
    position = at(game, "germany", COMBAT, [("germany", "antiaircraft", "east-europe", 1),
                                            ("russia", "infantry", "karelia-ssr", 1)])
    caught = refusal(game, position, *move("east-europe", "karelia-ssr", "antiaircraft"))
    assert "never attacks" in str(caught)


# --- ② aircraft -------------------------------------------------------------------------


def test_aircraft_attack_only_where_enemy_units_are(game):
    position = at(game, "germany", COMBAT, [("germany", "fighter", "germany", 1)],
                  control={"ukraine-ssr": "russia"})
    caught = refusal(game, position, *move("germany", "ukraine-ssr", "fighter"))
    assert "air-combat-move-needs-enemy" in str(caught)


def test_aircraft_need_a_landing_within_the_movement_they_will_have_left(game):
    # 4 spaces out to the battle leaves nothing to come back with
    units = [("germany", "fighter", "germany", 1), ("russia", "infantry", "novosibirsk", 1)]
    position = at(game, "germany", COMBAT, units)
    caught = refusal(game, position, *move("germany", "novosibirsk", "fighter"))
    assert caught.rule == "② combat movement" and "air-landing-planned" in str(caught)
    # a bomber (6) gets there and back
    units = [("germany", "bomber", "germany", 1), ("russia", "infantry", "caucasus", 1)]
    after, _ = apply(game, at(game, "germany", COMBAT, units),
                     move("germany", "caucasus", "bomber"))
    assert units_in(after, "caucasus", "germany") == {"bomber": 1}


def test_long_range_aircraft_fly_2_more(game):
    units = [("germany", "fighter", "germany", 1), ("russia", "infantry", "novosibirsk", 1)]
    position = at(game, "germany", COMBAT, units, weapons={"germany": ["long-range-aircraft"]})
    after, _ = apply(game, position, move("germany", "novosibirsk", "fighter"))
    fighter = next(p for p in after.pieces if p.unit == "fighter")
    assert fighter.place == "novosibirsk" and fighter.props["used"] == 4


# --- ② and ④ transports ------------------------------------------------------------------


def test_an_amphibious_assault_loads_moves_and_storms_the_coast(game):
    units = [("uk", "infantry", "united-kingdom", 2), ("uk", "transport", "north-sea-zone", 1),
             ("germany", "infantry", "finland-norway", 1)]
    position = at(game, "uk", COMBAT, units)
    after, said = apply(game, position,
                        move("united-kingdom", "north-sea-zone", "infantry", 2),
                        move("north-sea-zone", "finland-norway", "infantry", 2))
    assert units_in(after, "finland-norway") == {"infantry": 3}
    assert all("amphibious" in p.flags for p in after.pieces
               if p.side == "uk" and p.unit == "infantry")
    assert "unloaded" in next(p for p in after.pieces if p.unit == "transport").flags
    assert after.data["assaults"] == {"finland-norway": ("north-sea-zone",)}


def test_a_transport_holds_2_infantry_or_1_armor(game):
    units = [("uk", "infantry", "united-kingdom", 3), ("uk", "armor", "united-kingdom", 1),
             ("uk", "transport", "north-sea-zone", 1)]
    position = at(game, "uk", NONCOMBAT, units)
    full, _ = apply(game, position, move("united-kingdom", "north-sea-zone", "infantry", 2))
    caught = refusal(game, full, *move("united-kingdom", "north-sea-zone", "infantry"))
    assert "transport-capacity" in str(caught)
    caught = refusal(game, full, *move("united-kingdom", "north-sea-zone", "armor"))
    assert "no transport" in str(caught)
    one, _ = apply(game, position, move("united-kingdom", "north-sea-zone", "armor"))
    assert refusal(game, one, *move("united-kingdom", "north-sea-zone", "infantry"))


def test_a_transport_unloads_only_in_a_sea_zone_free_of_enemies(game):
    units = [("uk", "infantry", "north-sea-zone", 1, {"aboard": "uk.transport.1"}),
             ("uk", "transport", "north-sea-zone", 1), ("uk", "battleship", "north-sea-zone", 1),
             ("germany", "submarine", "north-sea-zone", 1),
             ("germany", "infantry", "west-europe", 1)]
    caught = refusal(game, at(game, "uk", COMBAT, units),
                     *move("north-sea-zone", "west-europe", "infantry"))
    assert "amphibious-assault" in str(caught)


def test_cargo_moves_with_its_transport_and_a_carrier_takes_its_fighters(game):
    units = [("usa", "infantry", "east-us-sea-zone", 2, {"aboard": "usa.transport.1"}),
             ("usa", "transport", "east-us-sea-zone", 1), ("usa", "carrier", "east-us-sea-zone", 1),
             ("usa", "fighter", "east-us-sea-zone", 1), ("uk", "fighter", "east-us-sea-zone", 1)]
    position = at(game, "usa", NONCOMBAT, units)
    after, _ = apply(game, position, move("east-us-sea-zone", "north-atlantic-sea-zone",
                                          "usa.transport.1"),
                     move("east-us-sea-zone", "north-atlantic-sea-zone", "usa.carrier.1"))
    assert units_in(after, "north-atlantic-sea-zone") == {"infantry": 2, "transport": 1,
                                                          "carrier": 1, "fighter": 2}
    assert not units_in(after, "east-us-sea-zone")


# --- ④ -------------------------------------------------------------------------------


def test_w23_a_unit_that_moved_in_combat_does_not_move_now(game):
    units = [("germany", "armor", "east-europe", 1, {"used": 1}),
             ("germany", "armor", "east-europe", 1)]
    position = at(game, "germany", NONCOMBAT, units)
    moved = next(p for p in position.pieces if p.props.get("used"))
    position = position.with_pieces([moved.flagged("moved")])
    after, _ = apply(game, position, move("east-europe", "germany", "armor"))
    caught = refusal(game, after, *move("east-europe", "germany", "armor"))
    assert caught.rule == "④ non-combat movement" and "combat movement" in str(caught)


def test_w24_no_non_combat_move_into_an_enemy_or_neutral_territory(game):
    position = at(game, "germany", NONCOMBAT, [("germany", "infantry", "east-europe", 1)],
                  control={"ukraine-ssr": "russia"})
    assert "enemy-controlled" in str(refusal(game, position,
                                             *move("east-europe", "ukraine-ssr", "infantry")))
    position = at(game, "germany", NONCOMBAT, [("germany", "infantry", "east-europe", 1),
                                               ("russia", "infantry", "karelia-ssr", 1)],
                  control={"karelia-ssr": "germany"})
    assert "enemy units" in str(refusal(game, position,
                                        *move("east-europe", "karelia-ssr", "infantry")))


def test_w22_a_fighter_that_fought_leaves_with_what_it_has_left(game):
    """Used 3 of 4 in ②: 1 left; it must leave the battle; not where taken this turn."""
    units = [("germany", "fighter", "karelia-ssr", 1, {"used": 3}),
             ("germany", "infantry", "karelia-ssr", 1)]
    position = at(game, "germany", NONCOMBAT, units, control={"karelia-ssr": "germany"},
                  data={"captured": ["karelia-ssr"]})
    fighter = next(p for p in position.pieces if p.unit == "fighter")
    position = position.with_pieces([fighter.flagged("moved", "fought")])
    answers = [a for n, a in legal(game, position) if n == "move" and a["unit"] == "fighter"]
    # one space away, German and not taken this turn (no carrier in the Baltic)
    assert {a["to"] for a in answers} == {"east-europe", "ukraine-ssr", "finland-norway"}
    assert refusal(game, position, "end").rule == "④ non-combat movement"
    assert refusal(game, position, *move("karelia-ssr", "germany", "fighter",
                                         via="east-europe")).rule == "unit table"
    after, _ = apply(game, position, move("karelia-ssr", "east-europe", "fighter"), ("end", {}))
    assert units_in(after, "east-europe") == {"fighter": 1}


def test_no_landing_in_a_territory_captured_this_turn(game):
    units = [("germany", "fighter", "east-europe", 1)]
    position = at(game, "germany", NONCOMBAT, units, control={"ukraine-ssr": "germany"},
                  data={"captured": ["ukraine-ssr"]})
    caught = refusal(game, position, *move("east-europe", "ukraine-ssr", "fighter"))
    assert "captured this turn" in str(caught)


def test_e7_a_fighter_lands_on_an_allied_carrier_and_a_bomber_never_at_sea(game):
    units = [("uk", "fighter", "east-canada", 1), ("uk", "bomber", "east-canada", 1),
             ("usa", "carrier", "east-canada-sea-zone", 1)]
    position = at(game, "uk", NONCOMBAT, units)
    after, _ = apply(game, position, move("east-canada", "east-canada-sea-zone", "fighter"))
    fighter = next(p for p in after.pieces if p.unit == "fighter")
    assert fighter.props["aboard"] == "usa.carrier.1"
    assert "cannot land at sea" in str(refusal(game, position, *move(
        "east-canada", "east-canada-sea-zone", "bomber")))


def test_aircraft_without_a_landing_place_are_lost_at_the_end_of_non_combat_movement(game):
    units = [("germany", "fighter", "baltic-sea-zone", 1), ("germany", "infantry", "germany", 1)]
    position = at(game, "germany", NONCOMBAT, units)
    after, said = apply(game, position, ("end", {}))
    assert not any(p.unit == "fighter" for p in after.pieces)
    assert after.data["lost"]["germany"] == {"fighter": 1}
    assert any("aircraft-without-landing" in s for s in said)


def test_one_aa_gun_a_territory(game):
    units = [("germany", "antiaircraft", "east-europe", 1),
             ("germany", "antiaircraft", "germany", 1)]
    position = at(game, "germany", NONCOMBAT, units)
    assert refusal(game, position, *move("east-europe", "germany", "antiaircraft")).rule == "⑤"


@pytest.mark.parametrize("kind", [COMBAT, NONCOMBAT])
def test_every_move_listed_is_accepted(game, kind):
    units = [("uk", "infantry", "united-kingdom", 2), ("uk", "armor", "united-kingdom", 1),
             ("uk", "fighter", "united-kingdom", 2), ("uk", "transport", "north-sea-zone", 1),
             ("uk", "battleship", "north-sea-zone", 1), ("germany", "infantry", "west-europe", 2),
             ("germany", "submarine", "baltic-sea-zone", 1)]
    position = at(game, "uk", kind, units)
    answers = legal(game, position)
    assert ("end", {}) in answers and len(answers) > 5
    for name, args in answers:
        apply(game, position, (name, args))
    assert RULES.decision(game, position).side == "uk"

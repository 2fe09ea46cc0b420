"""Battles in an Axis & Allies session (rules/battles.py) with the dice given: AA fire (W08,
I5), CASUALTIES that fire back (W09, I7), the attacker's losses removed at once (W10), no
defender retreat (W11), the submarines' first strike (W12, I8, E4) and withdrawal (W13, W14,
I10), the attacker's retreat (E14), shore bombardment, captures, the side hit choosing its
losses (I6) or giving an order of loss."""

from __future__ import annotations

from aa_session import RULES, apply, at, legal, refusal, units_in
from warpress.engine.dice import SeededDice
from warpress.games.axis_allies.rules import battles as bt
from warpress.games.axis_allies.rules.moves import Run

COMBAT = "combat-move"


def attackers(power, unit, place, count, frm):
    """Units already moved in (the combat move made), entered from ``frm``."""
    return (power, unit, place, count, {"from": frm, "used": 1})


def battle_at(game, power, units, **kw):
    """The combat-move decision with the attack moved in (moved flags set)."""
    position = at(game, power, COMBAT, units, **kw)
    moved = [p.flagged("moved") for p in position.pieces if p.side == power and "from" in
             p.props]
    return position.with_pieces(moved)


def test_w08_aa_fire_destroys_the_aircraft_whose_die_is_1_once(game):
    units = [attackers("germany", "fighter", "karelia-ssr", 2, "east-europe"),
             attackers("germany", "bomber", "karelia-ssr", 1, "east-europe"),
             attackers("germany", "armor", "karelia-ssr", 1, "east-europe"),
             ("russia", "infantry", "karelia-ssr", 2), ("russia", "antiaircraft", "karelia-ssr", 1)]
    position = battle_at(game, "germany", units)
    after, said = apply(game, position, ("end", {}),
                        rolls={"aa_rolls": [1, 4, 1], "attacker_rolls": [6, 6],
                               "defender_rolls": [6, 6]})
    assert units_in(after, "karelia-ssr", "germany") == {"fighter": 1, "armor": 1}
    assert after.data["lost"]["germany"] == {"fighter": 1, "bomber": 1}
    # E3: the AA gun does not roll as a defender: 2 defender dice, the infantry's
    assert any("the defender rolls 6 6 (0 hit(s))" in s for s in said)
    assert after.due.kind == "retreat"
    later, said2 = apply(game, after, ("press", {}))
    assert not any(s.startswith("AA fire") for s in said2)  # once a battle (I5)


def test_w09_defenders_hit_still_fire_back_then_leave(game):
    units = [attackers("germany", "armor", "karelia-ssr", 3, "east-europe"),
             ("russia", "infantry", "karelia-ssr", 2)]
    position = battle_at(game, "germany", units)
    after, said = apply(game, position, ("end", {}),
                        rolls={"attacker_rolls": [1, 1, 6], "defender_rolls": [1, 2]})
    assert any("places 2xinfantry in CASUALTIES" in s for s in said)
    assert any("the defender rolls 1 2 (2 hit(s))" in s for s in said)  # both still fire
    assert units_in(after, "karelia-ssr") == {"armor": 1}
    assert after.control["karelia-ssr"] == "germany"  # taken by a land unit left (③)
    assert after.due.kind == "non-combat-move"


def test_w10_the_attacker_picks_its_loss_and_it_is_gone_at_once(game):
    units = [attackers("germany", "armor", "karelia-ssr", 1, "east-europe"),
             attackers("germany", "infantry", "karelia-ssr", 1, "east-europe"),
             ("russia", "infantry", "karelia-ssr", 2)]
    position = battle_at(game, "germany", units)
    due, _ = apply(game, position, ("end", {}),
                   rolls={"attacker_rolls": [6, 6], "defender_rolls": [1, 6]})
    assert (due.due.kind, due.due.side, due.due.data["whose"]) == ("casualties", "germany",
                                                                   "attacker")
    assert sorted(a["units"] for n, a in legal(game, due)) == ["armor", "infantry"]
    after, said = apply(game, due, ("lose", {"units": "armor"}))
    assert units_in(after, "karelia-ssr", "germany") == {"infantry": 1}
    assert refusal(game, due, "lose", {"units": "2xinfantry"}).rule == "land 4)"


def test_w11_the_defender_never_retreats(game):
    units = [attackers("germany", "armor", "karelia-ssr", 1, "east-europe"),
             ("russia", "infantry", "karelia-ssr", 2)]
    due, _ = apply(game, battle_at(game, "germany", units), ("end", {}),
                   rolls={"attacker_rolls": [6], "defender_rolls": [6, 6]})
    assert due.due.kind == "retreat" and due.due.side == "germany"  # the attacker's only
    assert "E14" in due.due.rule


def test_e14_the_attacker_retreats_to_a_space_it_came_from(game):
    units = [attackers("germany", "armor", "karelia-ssr", 1, "east-europe"),
             attackers("germany", "infantry", "karelia-ssr", 1, "ukraine-ssr"),
             attackers("germany", "fighter", "karelia-ssr", 1, "east-europe"),
             ("russia", "infantry", "karelia-ssr", 3)]
    due, _ = apply(game, battle_at(game, "germany", units), ("end", {}),
                   rolls={"attacker_rolls": [6, 6, 6], "defender_rolls": [6, 6, 6]})
    assert sorted(a.get("to") for n, a in legal(game, due) if n == "retreat") == [
        "east-europe", "ukraine-ssr"]
    assert refusal(game, due, "retreat", {"to": "caucasus"}).rule == "E14"
    after, said = apply(game, due, ("retreat", {"to": "east-europe"}))
    assert units_in(after, "east-europe") == {"armor": 1, "infantry": 1}
    assert units_in(after, "karelia-ssr", "germany") == {"fighter": 1}  # lands in ④
    assert after.control["karelia-ssr"] == "russia"
    assert after.due.kind == "non-combat-move"


def test_e14_units_come_ashore_from_transports_cannot_retreat(game):
    units = [("germany", "infantry", "karelia-ssr", 1, {"from": "baltic-sea-zone"}),
             ("russia", "infantry", "karelia-ssr", 2)]
    position = battle_at(game, "germany", units)
    landed = next(p for p in position.pieces if p.side == "germany")
    position = position.with_pieces([landed.flagged("amphibious")])
    due, _ = apply(game, position, ("end", {}),
                   rolls={"attacker_rolls": [6], "defender_rolls": [6, 6]})
    assert [n for n, _a in legal(game, due)] == ["press"]
    assert refusal(game, due, "retreat", {"to": "east-europe"}).rule == "E14"


def test_w12_a_submarine_s_first_strike_sinks_at_once_and_the_sunk_never_fire(game):
    units = [attackers("germany", "submarine", "north-sea-zone", 1, "baltic-sea-zone"),
             ("uk", "transport", "north-sea-zone", 1), ("uk", "battleship", "north-sea-zone", 1)]
    due, said = apply(game, battle_at(game, "germany", units), ("end", {}),
                      rolls={"sub_rolls": [2]})
    assert due.due.kind == "casualties" and due.due.side == "uk"
    after, said = apply(game, due, ("lose", {"units": "transport"}),
                        rolls={"defender_rolls": [5]})
    assert units_in(after, "north-sea-zone", "uk") == {"battleship": 1}
    # sea 4), E4: the submarine that struck does not fire again in round 1; the transport sunk
    # rolls nothing in sea 5): one defender die
    assert any("germany rolls nothing" in s and "defender rolls 5 (0" in s for s in said)


def test_w13_an_attacking_submarine_withdraws_where_it_came_from(game):
    units = [attackers("germany", "submarine", "north-sea-zone", 1, "baltic-sea-zone"),
             ("uk", "battleship", "north-sea-zone", 1)]
    due, _ = apply(game, battle_at(game, "germany", units), ("end", {}),
                   rolls={"sub_rolls": [6], "defender_rolls": [6]})
    assert (due.due.kind, due.due.side) == ("withdraw", "germany")
    assert refusal(game, due, "withdraw", {"count": 2}).rule == "sea 7)"
    after, _ = apply(game, due, ("withdraw", {"count": 1}))
    assert units_in(after, "baltic-sea-zone") == {"submarine": 1}
    assert after.due.kind == "non-combat-move"  # the battle ended: no attacker left


def test_w14_a_defending_submarine_withdraws_to_a_sea_zone_free_of_the_enemy(game):
    units = [attackers("germany", "battleship", "north-sea-zone", 1, "baltic-sea-zone"),
             ("germany", "transport", "west-spain-sea-zone", 1),
             ("germany", "transport", "baltic-sea-zone", 1),
             ("uk", "submarine", "north-sea-zone", 1)]
    due, _ = apply(game, battle_at(game, "germany", units), ("end", {}),
                   rolls={"attacker_rolls": [6], "defender_rolls": [6]})
    assert (due.due.kind, due.due.side) == ("withdraw", "uk")
    zones = {a["to"] for n, a in legal(game, due) if n == "withdraw"}
    assert zones == {"east-canada-sea-zone", "karelia-sea-zone"}  # not Baltic, not West Spain
    assert refusal(game, due, "withdraw", {"count": 1, "to": "west-spain-sea-zone"}).rule \
        == "sea 7)"
    after, _ = apply(game, due, ("withdraw", {"count": 1, "to": "karelia-sea-zone"}))
    assert units_in(after, "karelia-sea-zone") == {"submarine": 1}


def test_shore_bombardment_fires_once_before_the_first_round(game):
    units = [("uk", "infantry", "north-sea-zone", 1, {"aboard": "uk.transport.1"}),
             ("uk", "transport", "north-sea-zone", 1), ("uk", "battleship", "north-sea-zone", 1),
             ("germany", "infantry", "west-europe", 2)]
    position = at(game, "uk", COMBAT, units)
    after, said = apply(game, position,
                        ("move", {"from": "north-sea-zone", "to": "west-europe",
                                  "unit": "infantry"}),
                        ("end", {}),
                        rolls={"bombard_rolls": [4], "attacker_rolls": [6],
                               "defender_rolls": [6, 6]})
    assert any(s.startswith("shore bombardment of west-europe") and "1 hit" in s for s in said)
    assert any("2 hit" not in s and "defender rolls 6 6" in s for s in said)  # it fires back
    assert units_in(after, "west-europe", "germany") == {"infantry": 1}
    assert "bombarded" in next(p for p in after.pieces if p.unit == "battleship").flags


def test_aircraft_alone_take_no_territory(game):
    units = [attackers("germany", "bomber", "karelia-ssr", 1, "east-europe"),
             ("russia", "infantry", "karelia-ssr", 1)]
    after, _ = apply(game, battle_at(game, "germany", units), ("end", {}),
                     rolls={"attacker_rolls": [1], "defender_rolls": [6]})
    assert after.control["karelia-ssr"] == "russia"
    assert units_in(after, "karelia-ssr") == {"bomber": 1}  # it leaves in ④


def test_fighters_left_without_their_carrier_are_lost(game):
    units = [attackers("germany", "battleship", "north-sea-zone", 1, "baltic-sea-zone"),
             ("uk", "carrier", "north-sea-zone", 1), ("uk", "fighter", "north-sea-zone", 2)]
    due, _ = apply(game, battle_at(game, "germany", units), ("end", {}),
                   rolls={"attacker_rolls": [1], "defender_rolls": [6, 6, 6]})
    after, said = apply(game, due, ("lose", {"units": "carrier"}), ("retreat",
                                                                     {"to": "baltic-sea-zone"}))
    assert not units_in(after, "north-sea-zone")
    assert after.data["lost"]["uk"] == {"carrier": 1, "fighter": 2}
    assert any("carrier-sunk-fighters" in s for s in said)


def test_i6_the_side_hit_chooses_by_type_orders_or_gives_an_order_of_loss(game):
    units = [attackers("germany", "armor", "karelia-ssr", 4, "east-europe"),
             ("russia", "infantry", "karelia-ssr", 2), ("russia", "armor", "karelia-ssr", 1),
             ("russia", "fighter", "karelia-ssr", 1)]
    due, _ = apply(game, battle_at(game, "germany", units), ("end", {}),
                   rolls={"attacker_rolls": [1, 1, 6, 6], "defender_rolls": [6, 6, 6, 6]})
    assert (due.due.kind, due.due.side, due.due.data["hits"]) == ("casualties", "russia", 2)
    listed = sorted(a["units"] for n, a in legal(game, due))
    assert listed == sorted(["2xinfantry", "infantry,armor", "infantry,fighter",
                             "armor,fighter"])
    # an answer the listing leaves out is accepted too (the same loss another way)
    after, _ = apply(game, due, ("lose", {"units": "fighter,infantry"}))
    assert units_in(after, "karelia-ssr", "russia") == {"infantry": 1, "armor": 1}
    ordered, said = apply(game, due, ("order", {"types": "fighter,armor"}))
    assert any("order of loss fighter, armor" in s for s in said)
    assert ordered.data["lost"]["russia"] == {"fighter": 1, "armor": 1}
    assert bt.battle(Run(game, ordered))["orders"] == {"russia": ["fighter", "armor"]}
    # the order holds for the rest of the battle: the next hit is taken without asking
    after, _ = apply(game, ordered, ("press", {}),
                     rolls={"attacker_rolls": [1, 6, 6, 6], "defender_rolls": [6, 6]})
    assert after.due.kind == "retreat" and after.data["lost"]["russia"]["infantry"] == 1


def test_every_battle_answer_listed_is_accepted(game):
    units = [attackers("germany", "armor", "karelia-ssr", 3, "east-europe"),
             attackers("germany", "fighter", "karelia-ssr", 1, "east-europe"),
             ("russia", "infantry", "karelia-ssr", 2), ("russia", "armor", "karelia-ssr", 1)]
    position = battle_at(game, "germany", units)
    for seed in range(4):
        due = RULES.apply(game, position, "end", {}, SeededDice(seed)).state
        if due.due.kind in ("casualties", "retreat"):
            for name, args in legal(game, due):
                apply(game, due, (name, args))


def test_weapons_developed_count_in_battle(game):
    """Heavy Bombers: 3 attack dice; Jet Power: fighters defend at 5 (weapons section)."""
    units = [attackers("germany", "bomber", "karelia-ssr", 1, "east-europe"),
             ("russia", "fighter", "karelia-ssr", 1)]
    position = battle_at(game, "germany", units,
                         weapons={"germany": ["heavy-bombers"], "russia": ["jet-power"]})
    after, said = apply(game, position, ("end", {}),
                        rolls={"attacker_rolls": [6, 6, 6], "defender_rolls": [5]})
    assert any("germany rolls 6 6 6 (0 hit(s)); the defender rolls 5 (1 hit(s))" in s
               for s in said)
    assert after.data["lost"]["germany"] == {"bomber": 1}

"""Placement in an Axis & Allies session (⑤: W25-W29, I14-I16): at a factory held since the
start of the turn, not one bought this turn; within a bought factory's limit; one factory
and one AA gun a territory; new fighters not on carriers; what cannot be placed is lost."""

from __future__ import annotations

from aa_session import apply, at, legal, refusal, units_in

PLACE = "place"


def place(where, unit, count=None):
    args = {"where": where, "unit": unit}
    if count is not None:
        args["count"] = count
    return ("place", args)


def built(territory, power="germany"):
    return (power, "factory", territory, 1, {"factory": "built"})


def test_w25_a_factory_bought_during_the_game_places_its_income_value(game):
    units = [built("ukraine-ssr"), ("germany", "infantry", "purchased", 4)]
    position = at(game, "germany", PLACE, units)
    assert refusal(game, position, *place("ukraine-ssr", "infantry", 4)).rule == "⑤"
    after, _ = apply(game, position, place("ukraine-ssr", "infantry", 3))
    assert units_in(after, "ukraine-ssr") == {"factory": 1, "infantry": 3}
    caught = refusal(game, after, *place("ukraine-ssr", "infantry"))
    assert caught.rule == "⑤" and "at most 3" in str(caught)


def test_w26_a_factory_there_from_the_start_places_any_number(game):
    units = [("germany", "factory", "germany", 1), ("germany", "infantry", "purchased", 12)]
    after, _ = apply(game, at(game, "germany", PLACE, units), place("germany", "infantry", 12))
    assert units_in(after, "germany") == {"factory": 1, "infantry": 12}
    assert after.side == "uk"  # everything placed: income, and the next power


def test_w27_no_placement_at_a_factory_taken_or_bought_this_turn(game):
    units = [("germany", "factory", "karelia-ssr", 1), ("germany", "infantry", "purchased", 1),
             ("germany", "submarine", "purchased", 1)]
    position = at(game, "germany", PLACE, units, control={"karelia-ssr": "germany"},
                  data={"captured": ["karelia-ssr"]})
    assert refusal(game, position, *place("karelia-ssr", "infantry")).rule == "⑤"
    assert refusal(game, position, *place("karelia-sea-zone", "submarine")).rule == "⑤"
    units = [built("east-europe"), ("germany", "infantry", "purchased", 1)]
    position = at(game, "germany", PLACE, units)
    new = next(p for p in position.pieces if p.unit == "factory")
    position = position.with_pieces([new.flagged("new")])
    assert refusal(game, position, *place("east-europe", "infantry")).rule == "⑤"


def test_w28_one_factory_and_one_aa_gun_a_territory(game):
    units = [("germany", "factory", "germany", 1), ("germany", "antiaircraft", "germany", 1),
             ("germany", "antiaircraft", "purchased", 1), ("germany", "factory", "purchased", 1,
                                                           {"factory": "built"})]
    position = at(game, "germany", PLACE, units)
    assert "would hold 2 AA guns: at most 1" in str(
        refusal(game, position, *place("germany", "antiaircraft")))
    assert "would hold 2 factories: at most 1" in str(
        refusal(game, position, *place("germany", "factory")))
    after, _ = apply(game, position, place("east-europe", "factory"))
    assert units_in(after, "east-europe") == {"factory": 1}


def test_w29_a_fighter_placed_is_not_aboard_a_carrier(game):
    units = [("usa", "factory", "east-us", 1), ("usa", "carrier", "east-us-sea-zone", 1),
             ("usa", "fighter", "purchased", 1)]
    position = at(game, "usa", PLACE, units)
    assert refusal(game, position, *place("east-us-sea-zone", "fighter")).rule == "⑤"
    after, _ = apply(game, position, place("east-us", "fighter"))
    fighter = next(p for p in after.pieces if p.unit == "fighter")
    assert fighter.place == "east-us" and "aboard" not in fighter.props


def test_ships_go_to_a_sea_zone_next_to_the_factory_free_of_enemies(game):
    units = [("usa", "factory", "east-us", 1), ("usa", "battleship", "purchased", 1),
             ("germany", "submarine", "east-us-sea-zone", 1)]
    position = at(game, "usa", PLACE, units)
    caught = refusal(game, position, *place("east-us-sea-zone", "battleship"))
    assert "placement-at-sea" in str(caught)
    assert refusal(game, position, *place("east-us", "battleship")).rule == "⑤"


def test_units_that_cannot_be_placed_are_lost(game):
    units = [("uk", "factory", "united-kingdom", 1), ("uk", "antiaircraft", "united-kingdom", 1),
             ("uk", "antiaircraft", "purchased", 2), ("uk", "infantry", "purchased", 1)]
    position = at(game, "uk", PLACE, units)
    assert refusal(game, position, "end").rule == "⑤"
    assert [n for n, _a in legal(game, position)] == ["place"]
    placed, _ = apply(game, position, place("united-kingdom", "infantry"))
    assert [n for n, _a in legal(game, placed)] == ["end"]
    after, said = apply(game, placed, ("end", {}))
    assert after.data["lost"]["uk"] == {"antiaircraft": 2}
    assert any("unplaced-units" in s for s in said)

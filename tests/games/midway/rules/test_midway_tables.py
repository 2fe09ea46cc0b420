"""The catalogue tables of midway at their edges: clamps, caps, floors, smallest and largest die."""

from __future__ import annotations

from fractions import Fraction

import pytest
from warpress.engine.errors import BadInput

# --------------------------------------------------------------------------- search (7.x)


@pytest.mark.parametrize(("distance", "aop"), [(1, 4), (2, 4), (3, 3), (5, 1), (6, 1), (12, 1)])
def test_search_japan_clamped_to_1_4(lookup, distance, aop):
    assert lookup("search", "side=japan", f"distance={distance}") == {"aop": aop}


@pytest.mark.parametrize(("distance", "aop"), [(1, 4), (3, 4), (4, 3), (6, 1), (7, 1), (20, 1)])
def test_search_us_fleet_clamped_to_1_4(lookup, distance, aop):
    assert lookup("search", "side=us", f"distance={distance}") == {"aop": aop}


def test_search_us_base_takes_the_larger_result(lookup):
    assert lookup("search", "side=us", "distance=6", "base_distance=5") == {"aop": 3}
    assert lookup("search", "side=us", "distance=3", "base_distance=7") == {"aop": 4}
    assert lookup("search", "side=us", "distance=9", "base_distance=1") == {"aop": 4}


def test_search_base_destroyed_searches_with_0(lookup):
    assert lookup("search", "side=us", "distance=6", "base_distance=4",
                  "base_destroyed=yes") == {"aop": 1}


@pytest.mark.parametrize(("distance", "strikes", "aop"),
                         [(2, 0, 4), (2, 1, 3), (2, 2, 2), (5, 1, 0), (5, 2, 0), (4, 2, 0)])
def test_search_base_attack_reduction_floors_at_0(lookup, distance, strikes, aop):
    assert lookup("search", "side=japan", f"distance={distance}",
                  f"base_strikes={strikes}") == {"aop": aop}


def test_search_rules_name_7_4_only_after_a_base_attack(payload):
    assert payload("lookup", "search", "side=japan", "distance=3")["rules"] == ["7.1", "7.2", "7.3"]
    assert "7.4" in payload("lookup", "search", "side=japan", "distance=3",
                            "base_strikes=1")["rules"]


@pytest.mark.parametrize("pairs", [
    ("side=japan", "distance=3", "base_distance=2"),
    ("side=us", "distance=3", "base_strikes=1"),
    ("side=japan", "distance=3", "base_strikes=3"),
    ("side=japan", "distance=0"),
    ("side=both", "distance=3"),
    ("side=japan",),
])
def test_search_bad_input(lookup, pairs):
    with pytest.raises(BadInput):
        lookup("search", *pairs)


# --------------------------------------------------------------------------- base attack (6.4)


@pytest.mark.parametrize(("distance", "ops"), [(1, 1), (2, 1), (3, 2), (5, 2)])
def test_base_attack_operations(lookup, distance, ops):
    assert lookup("base-attack", f"distance={distance}") == {"operations": ops}


@pytest.mark.parametrize("distance", ["6", "0", "x"])
def test_base_attack_out_of_range_is_bad_input(lookup, distance):
    with pytest.raises(BadInput, match="distance"):
        lookup("base-attack", f"distance={distance}")


# --------------------------------------------------------------------------- initiative (8.1)


def test_initiative_higher_total_wins(lookup):
    assert lookup("initiative", "japan_roll=6", "us_roll=1", "japan_aop=1", "us_aop=4") == {
        "winner": "japan", "draws_card": False}
    assert lookup("initiative", "japan_roll=1", "us_roll=1", "japan_aop=1", "us_aop=4") == {
        "winner": "us", "draws_card": False}


def test_initiative_tie_with_equal_aop_rerolls(lookup):
    assert lookup("initiative", "japan_roll=3", "us_roll=3", "japan_aop=2", "us_aop=2") == {
        "winner": "reroll", "draws_card": False}


def test_initiative_tie_with_unequal_aop_draws_a_card(lookup):
    assert lookup("initiative", "japan_roll=2", "us_roll=3", "japan_aop=3", "us_aop=2") == {
        "winner": "japan", "draws_card": True}
    assert lookup("initiative", "japan_roll=6", "us_roll=3", "japan_aop=1", "us_aop=4",
                  "cards_left=0") == {"winner": "us", "draws_card": False}


def test_initiative_default_cards_left_is_the_deck(payload):
    out = payload("lookup", "initiative", "japan_roll=2", "us_roll=3", "japan_aop=3", "us_aop=2")
    assert out["inputs"]["cards_left"] == 8


def test_initiative_side_with_0_aop_does_not_roll(lookup):
    assert lookup("initiative", "japan_aop=0", "us_aop=1") == {"winner": "us",
                                                              "draws_card": False}
    assert lookup("initiative", "japan_aop=2", "us_aop=0") == {"winner": "japan",
                                                              "draws_card": False}


@pytest.mark.parametrize("pairs", [("japan_aop=0", "us_aop=0"), ("japan_aop=5", "us_aop=1"),
                                   ("japan_aop=1", "us_aop=1", "cards_left=9")])
def test_initiative_bad_input(lookup, pairs):
    with pytest.raises(BadInput):
        lookup("initiative", "japan_roll=1", "us_roll=1", *pairs)


def test_initiative_odds_are_exact(payload):
    out = payload("odds", "initiative", "japan_aop=2", "us_aop=2")
    exact = {k: Fraction(v) for k, v in out["result"]["exact"].items()}
    assert exact == {"japan": Fraction(15, 36), "us": Fraction(15, 36),
                     "reroll": Fraction(6, 36)}


# --------------------------------------------------------------------------- cap, AA, hit number


@pytest.mark.parametrize(("air", "escorted", "hit_on"),
                         [(2, "yes", 2), (2, "no", 3), (0, "yes", 0), (0, "no", 1),
                          (6, "no", 6), (5, "no", 6)])
def test_cap_hit_on(lookup, air, escorted, hit_on):
    assert lookup("cap", f"air={air}", f"escorted={escorted}") == {"hit_on": hit_on}


@pytest.mark.parametrize(("pairs", "dice"), [
    (("intact=2",), 4), (("intact=1", "damaged=1"), 3), (("damaged=2",), 2),
    (("damaged=1",), 1), (("intact=0", "damaged=0"), 0), (("track=6",), 6), (("track=1",), 1),
])
def test_anti_aircraft_dice(lookup, pairs, dice):
    assert lookup("anti-aircraft", *pairs, "escorted=yes") == {"dice": dice, "hit_on": 1}
    assert lookup("anti-aircraft", *pairs, "escorted=no")["hit_on"] == 2


@pytest.mark.parametrize("pairs", [(), ("intact=2", "track=3"), ("intact=3",),
                                   ("intact=2", "damaged=1"), ("track=7",)])
def test_anti_aircraft_bad_input(lookup, pairs):
    with pytest.raises(BadInput):
        lookup("anti-aircraft", *pairs, "escorted=yes")


@pytest.mark.parametrize(("pairs", "hit_on"), [
    (("target=carrier", "attack=3"), 3),
    (("target=carrier", "attack=3", "dive_bomber=yes"), 3),
    (("target=carrier", "attack=3", "dive_bomber=yes", "deck_loaded=yes"), 4),
    (("target=carrier", "attack=3", "deck_loaded=yes"), 3),
    (("target=carrier", "attack=3", "combined=yes"), 4),
    (("target=carrier", "attack=3", "combined=yes", "deck_loaded=yes"), 4),
    (("target=carrier", "attack=5", "dive_bomber=yes", "deck_loaded=yes", "combined=yes"), 6),
    (("target=carrier", "attack=6", "dive_bomber=yes", "deck_loaded=yes"), 6),
    (("target=base", "attack=3"), 2),
    (("target=base", "attack=3", "dive_bomber=yes", "deck_loaded=yes", "combined=yes"), 2),
    (("target=base", "attack=0"), 0),
    (("target=invasion", "attack=3", "dive_bomber=yes", "deck_loaded=yes"), 3),
])
def test_hit_number(lookup, pairs, hit_on):
    assert lookup("hit-number", *pairs) == {"hit_on": hit_on}


def test_hit_number_errata(payload):
    assert payload("lookup", "hit-number", "target=base", "attack=3")["errata"] == ["E7"]
    assert payload("lookup", "hit-number", "target=invasion", "attack=3")["errata"] == []


# --------------------------------------------------------------------------- damage


@pytest.mark.parametrize(("roll", "box"), [(1, "front"), (3, "front"), (4, "rear"), (6, "rear")])
def test_carrier_damage_box(lookup, roll, box):
    assert lookup("carrier-damage", "damaged=no", f"roll={roll}") == {"box": box, "sunk": False}


def test_carrier_damage_second_hit_sinks_without_a_roll(lookup):
    assert lookup("carrier-damage", "damaged=yes") == {"box": "none", "sunk": True}


def test_carrier_damage_odds(payload):
    assert payload("odds", "carrier-damage", "damaged=no")["result"]["exact"] == {
        "front": "1/2", "rear": "1/2"}


@pytest.mark.parametrize(("garrison", "this_turn", "hits", "expected"), [
    (6, 0, 3, (2, 1, 4, False)),
    (6, 0, 0, (0, 0, 6, False)),
    (6, 1, 2, (1, 1, 5, False)),
    (6, 2, 1, (0, 1, 6, False)),
    (4, 0, 1, (1, 0, 3, True)),
    (3, 0, 2, (1, 1, 2, True)),
    (2, 0, 2, (0, 2, 2, True)),
    (5, 0, 9, (2, 7, 3, True)),
])
def test_base_damage_cap_and_floor(lookup, garrison, this_turn, hits, expected):
    applied, ignored, after, destroyed = expected
    assert lookup("base-damage", f"garrison={garrison}", f"hits_this_turn={this_turn}",
                  f"hits={hits}") == {"applied": applied, "ignored": ignored,
                                      "garrison": after, "base_destroyed": destroyed}


@pytest.mark.parametrize("pairs", [("garrison=1", "hits=1"), ("garrison=7", "hits=1"),
                                   ("garrison=6", "hits_this_turn=3", "hits=1"),
                                   ("garrison=6", "hits=-1")])
def test_base_damage_bad_input(lookup, pairs):
    with pytest.raises(BadInput):
        lookup("base-damage", *pairs)


# --------------------------------------------------------------------------- night


@pytest.mark.parametrize(("japan", "us", "on_us", "on_japan"),
                         [(1, 1, 0, 0), (2, 4, 0, 0), (3, 5, 1, 1), (6, 6, 4, 2), (6, 1, 4, 0)])
def test_surface_battle(lookup, japan, us, on_us, on_japan):
    assert lookup("surface-battle", f"japan_roll={japan}", f"us_roll={us}") == {
        "hits_on_us": on_us, "hits_on_japan": on_japan}


def test_surface_battle_odds(payload):
    exact = payload("odds", "surface-battle")["result"]["exact"]
    assert exact["hits_on_us=0"] == "1/3" and exact["hits_on_us=4"] == "1/6"
    assert exact["hits_on_japan=0"] == "2/3" and exact["hits_on_japan=2"] == "1/6"


@pytest.mark.parametrize(("side", "roll", "lost"),
                         [("japan", 1, False), ("japan", 4, False), ("japan", 5, True),
                          ("japan", 6, True), ("us", 3, False), ("us", 4, True), ("us", 1, False),
                          ("us", 6, True)])
def test_night_landing(lookup, side, roll, lost):
    assert lookup("night-landing", f"side={side}", f"roll={roll}") == {"lost": lost}


def test_night_landing_odds(payload):
    assert payload("odds", "night-landing", "side=japan")["result"]["exact"] == {
        "no": "2/3", "yes": "1/3"}
    assert payload("odds", "night-landing", "side=us")["result"]["exact"] == {
        "no": "1/2", "yes": "1/2"}


# --------------------------------------------------------------------------- victory (4.x)


@pytest.mark.parametrize(("japan", "us", "winner"), [
    (4, 1, "japan"), (3, 1, "japan"), (2, 1, "none"), (1, 3, "us"), (1, 2, "none"),
    (4, 3, "none"), (4, 2, "none"), (0, 2, "us"), (2, 0, "japan"), (0, 0, "draw"),
])
def test_victory_end_of_day_1(lookup, japan, us, winner):
    out = lookup("victory", "turn=3", f"japan_carriers={japan}", f"us_carriers={us}")
    assert out == {"winner": winner, "japan_points": None, "us_points": None}


@pytest.mark.parametrize(("japan", "us", "midway", "expected"), [
    (4, 3, "held", ("us", 0, 2)),
    (4, 3, "captured", ("japan", 2, 0)),
    (2, 1, "held", ("us", 2, 4)),
    (4, 1, "held", ("draw", 2, 2)),
    (1, 2, "captured", ("draw", 3, 3)),
    (1, 1, "captured", ("japan", 4, 3)),
    (3, 2, "held", ("us", 1, 3)),
    (1, 0, "held", ("japan", 3, 5)),
    (0, 0, "captured", ("draw", 5, 4)),
])
def test_victory_end_of_day_2(lookup, japan, us, midway, expected):
    winner, jp, up = expected
    assert lookup("victory", "turn=7", f"japan_carriers={japan}", f"us_carriers={us}",
                  f"midway={midway}") == {"winner": winner, "japan_points": jp, "us_points": up}


def test_victory_other_turns_only_automatic(lookup):
    assert lookup("victory", "turn=5", "japan_carriers=1", "us_carriers=3")["winner"] == "none"
    assert lookup("victory", "turn=1", "japan_carriers=4", "us_carriers=0")["winner"] == "japan"


@pytest.mark.parametrize("pairs", [("turn=7", "japan_carriers=1", "us_carriers=1"),
                                   ("turn=8", "japan_carriers=1", "us_carriers=1"),
                                   ("turn=3", "japan_carriers=5", "us_carriers=1"),
                                   ("turn=3", "japan_carriers=1", "us_carriers=4"),
                                   ("turn=7", "japan_carriers=1", "us_carriers=1",
                                    "midway=lost")])
def test_victory_bad_input(lookup, pairs):
    with pytest.raises(BadInput):
        lookup("victory", *pairs)


# --------------------------------------------------------------------------- solitaire-move


@pytest.mark.parametrize(("card", "move", "hexes", "prefer"), [
    (1, "toward", 2, "north"), (2, "toward", 2, "south"), (3, "toward", 1, "north"),
    (4, "away", 2, "north"), (5, "toward", 1, "south"), (6, "stay", 0, "none"),
    (7, "away", 2, "south"), (8, "reshuffle", 0, "none"),
])
def test_solitaire_move(lookup, card, move, hexes, prefer):
    assert lookup("solitaire-move", f"card={card}") == {"move": move, "hexes": hexes,
                                                         "prefer": prefer}


@pytest.mark.parametrize("card", ["0", "9", "two"])
def test_solitaire_move_bad_card(lookup, card):
    with pytest.raises(BadInput, match="card"):
        lookup("solitaire-move", f"card={card}")


# --------------------------------------------------------------------------- audit rulings

#: inputs that make each table answer, every int input at a value inside its range
ANSWERING = {
    "search": ["side=japan", "distance=3", "base_strikes=0"],
    "base-attack": ["distance=3"],
    "initiative": ["japan_roll=3", "us_roll=4", "japan_aop=2", "us_aop=3", "cards_left=4"],
    "cap": ["air=3", "escorted=yes"],
    "anti-aircraft": ["intact=1", "damaged=1", "escorted=yes"],
    "hit-number": ["target=carrier", "attack=3"],
    "base-damage": ["garrison=5", "hits_this_turn=0", "hits=1"],
    "victory": ["turn=5", "japan_carriers=2", "us_carriers=2", "midway=held"],
    "solitaire-move": ["card=3"],
}


def _with(pairs, name, value):
    return [p for p in pairs if not p.startswith(f"{name}=")] + [f"{name}={value}"]


def test_every_stated_range_is_the_range_lookup_takes(game, lookup):
    """`warpress tables` states each number's range from the same source lookup checks:
    a closed range's ends are answered and the numbers past them refused naming the input;
    an open range takes any number past its low end (the procedure clamps it)."""
    from warpress.engine.catalogue import ref_tables

    tables = ref_tables(game)
    checked = 0
    for name, pairs in [*ANSWERING.items(),
                        ("search", ["side=us", "distance=3", "base_distance=4"])]:
        lookup(name, *pairs)
        for item in tables[name].inputs:
            if item.kind != "int" or not any(p.startswith(f"{item.name}=") for p in pairs):
                continue
            span = item.range_in(game)
            low = span[0] if span else item.min
            high = span[1] if span else item.max
            if high is None:
                lookup(name, *_with(pairs, item.name, (low or 0) + 40))
            else:
                with pytest.raises(BadInput, match=f"input {item.name}="):
                    lookup(name, *_with(pairs, item.name, high + 1))
                if name not in ("anti-aircraft",):  # the carriers of a division, together
                    lookup(name, *_with(pairs, item.name, high))
            with pytest.raises(BadInput, match=f"input {item.name}="):
                lookup(name, *_with(pairs, item.name, (low or 0) - 1))
            checked += 1
    assert checked >= 16


@pytest.mark.parametrize(("table", "name", "shown"), [
    ("victory", "turn", "integer 1..7"), ("victory", "japan_carriers", "integer 0..4"),
    ("victory", "us_carriers", "integer 0..3"), ("initiative", "japan_aop", "integer 0..4"),
    ("base-attack", "distance", "integer 1..5"), ("anti-aircraft", "intact", "integer 0..2"),
])
def test_the_audited_ranges_are_stated(game, table, name, shown):
    from warpress.engine.catalogue import ref_tables

    assert ref_tables(game)[table].input(name).allowed(game).startswith(shown)


def test_9_4_1_the_combined_plus_one_is_the_b5n_only(lookup):
    """9.4(1): 「D3AとB5Nが同時に同じ空母を攻撃する時、B5Nの攻撃力に1を加えます」: the
    combined-attack +1 goes to the B5N; a dive bomber gets only its own +1 (attack aircraft
    on the carrier's deck)."""
    for deck in ("yes", "no"):
        alone = lookup("hit-number", "target=carrier", "attack=3", "dive_bomber=yes",
                       f"deck_loaded={deck}", "combined=no")
        together = lookup("hit-number", "target=carrier", "attack=3", "dive_bomber=yes",
                          f"deck_loaded={deck}", "combined=yes")
        assert alone == together == {"hit_on": 4 if deck == "yes" else 3}
        assert lookup("attack-modifier", "target=carrier", "dive_bomber=yes",
                      f"deck_loaded={deck}", "combined=yes") == {
            "modifier": 1 if deck == "yes" else 0}
    assert lookup("hit-number", "target=carrier", "attack=3", "dive_bomber=no",
                  "combined=yes") == {"hit_on": 4}


def test_9_4_1_the_printed_table_matches(game):
    """The rows the play aid prints give no dive-bomber row a value that depends on the
    B5N's combined attack."""
    rows = [r for r in game.table("attack-modifier").rows if r.get("target") == "carrier"]
    for row in rows:
        if row.get("dive_bomber") in (True, "yes"):
            assert row.get("combined") is None
            assert row.get("modifier") == (1 if row.get("deck_loaded") in (True, "yes") else 0)


def test_initiative_in_solitaire_has_no_roll(payload):
    """12.3(3): no initiative roll, the side with more AOP flies, the US on a tie, no card."""
    tie = payload("lookup", "initiative", "japan_aop=2", "us_aop=2", "solitaire=yes")
    assert tie["result"] == {"winner": "us", "draws_card": False}
    assert tie["rules"] == ["12.3(3)"]
    more = payload("lookup", "initiative", "japan_aop=3", "us_aop=1", "solitaire=yes")
    assert more["result"]["winner"] == "japan"

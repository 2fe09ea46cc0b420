"""warpress lookup/roll/odds/tables midway through click's CliRunner: JSON shape, bad input."""

from __future__ import annotations

import json

import pytest

SHAPE = {"game", "table", "inputs", "result", "rules", "errata"}
CATALOGUE = ["search", "base-attack", "initiative", "cap", "anti-aircraft", "hit-number",
             "carrier-damage", "base-damage", "surface-battle", "night-landing", "landing",
             "victory", "solitaire-move"]


def test_every_catalogue_table_is_listed(cli):
    result = cli("tables", "midway", "--json")
    assert result.exit_code == 0, result.output
    tables = json.loads(result.output)["tables"]
    assert set(CATALOGUE) <= set(tables)
    assert list(tables["landing"]["inputs"]) == ["invasion", "garrison", "rolls"]
    assert tables["victory"]["results"] == ["winner", "japan_points", "us_points"]


@pytest.mark.parametrize("table,name,bad", [
    ("landing", "invasion", "invasion=0 garrison=3 rolls=1"),
    ("landing", "garrison", "invasion=4 garrison=7 rolls=1"),
    ("base-damage", "garrison", "garrison=1 hits=1"),
    ("base-damage", "hits_this_turn", "garrison=3 hits=1 hits_this_turn=3"),
    ("solitaire-move", "card", "card=99"),
    ("anti-aircraft", "track", "track=9 escorted=yes"),
    ("search", "base_strikes", "side=japan distance=3 base_strikes=5"),
    ("initiative", "cards_left", "japan_roll=1 us_roll=2 japan_aop=1 us_aop=1 cards_left=9"),
])
def test_an_input_range_from_the_data_is_the_one_tables_lists(cli, table, name, bad):
    """The tracks' boxes and the air-attack floor bound these inputs: ``tables`` states the
    range the lookup checks, both read from the game's data."""
    listed = json.loads(cli("tables", "midway", "--json").output)["tables"][table]["inputs"]
    result = cli("lookup", "midway", table, *bad.split())
    assert result.exit_code == 2
    assert f"is not allowed ({listed[name]})" in " ".join(result.output.split())
    assert listed[name].startswith("integer ") and ".." in listed[name]
    assert not listed[name].endswith("..")


def test_a_gap_in_rolls_and_a_number_past_18_digits_are_named(cli):
    gap = cli("lookup", "midway", "landing", "invasion=2", "garrison=3", "rolls=3,,4")
    assert gap.exit_code == 2 and "input rolls='3,,4': a roll is missing between commas" in \
        " ".join(gap.output.split())
    long = cli("lookup", "midway", "base-damage", "garrison=3", "hits=9999999999999999999")
    assert long.exit_code == 2 and "(a whole number of at most 18 digits)" in \
        " ".join(long.output.split())


@pytest.mark.parametrize("args", [
    ("search", "side=us", "distance=5", "base_distance=4"),
    ("base-attack", "distance=3"),
    ("initiative", "japan_roll=4", "us_roll=2", "japan_aop=2", "us_aop=3"),
    ("cap", "air=2", "escorted=no"),
    ("anti-aircraft", "track=6", "escorted=yes"),
    ("hit-number", "target=carrier", "attack=3", "dive_bomber=yes", "deck_loaded=yes"),
    ("carrier-damage", "damaged=no", "roll=2"),
    ("base-damage", "garrison=6", "hits_this_turn=0", "hits=3"),
    ("surface-battle", "japan_roll=5", "us_roll=6"),
    ("night-landing", "side=us", "roll=4"),
    ("landing", "invasion=4", "garrison=2", "rolls=1,6,2"),
    ("victory", "turn=7", "japan_carriers=2", "us_carriers=1", "midway=captured"),
    ("solitaire-move", "card=8"),
])
def test_lookup_json_shape(cli_json, args):
    out = cli_json("lookup", "midway", *args)
    assert set(out) == SHAPE
    assert out["game"] == "midway" and out["table"] == args[0]
    assert out["rules"] and all(isinstance(r, str) for r in out["rules"])
    assert isinstance(out["errata"], list)


def test_lookup_json_values(cli_json):
    out = cli_json("lookup", "midway", "base-damage", "garrison=6", "hits_this_turn=0", "hits=3")
    assert out["inputs"] == {"garrison": 6, "hits_this_turn": 0, "hits": 3}
    assert out["result"] == {"applied": 2, "ignored": 1, "garrison": 4, "base_destroyed": False}
    assert out["rules"] == ["9.6(2)", "9.6(3)"]
    assert out["errata"] == ["E8", "E23"]


def test_roll_adds_rolls_and_seed_and_replays(cli_json):
    out = cli_json("roll", "midway", "carrier-damage", "damaged=no", "--seed", "11")
    assert set(out) == SHAPE | {"rolls", "seed"}
    assert out["seed"] == 11
    (rolled,) = out["rolls"]
    assert rolled["input"] == "roll" and rolled["die"] == "d6"
    again = cli_json("lookup", "midway", "carrier-damage", "damaged=no",
                     f"roll={rolled['value']}")
    assert again["result"] == out["result"]


def test_roll_landing_until_decided(cli_json):
    out = cli_json("roll", "midway", "landing", "invasion=4", "garrison=6", "--seed", "5")
    assert out["result"]["outcome"] in ("captured", "repulsed")
    values = ",".join(str(r["value"]) for r in out["rolls"])
    again = cli_json("lookup", "midway", "landing", "invasion=4", "garrison=6", f"rolls={values}")
    assert again["result"] == out["result"]


def test_odds_json_shape(cli_json):
    out = cli_json("odds", "midway", "carrier-damage", "damaged=no")
    assert set(out) == SHAPE
    assert out["result"] == {"field": "box", "distribution": {"front": 0.5, "rear": 0.5},
                             "exact": {"front": "1/2", "rear": "1/2"}}


def test_odds_landing_named_probabilities(cli_json):
    out = cli_json("odds", "midway", "landing", "invasion=1", "garrison=1")
    assert set(out["result"]["exact"]) == {"captured", "repulsed"}
    assert out["result"]["exact"]["captured"] == "6/11"


def test_text_answer_names_the_rules(cli):
    result = cli("lookup", "midway", "hit-number", "target=base", "attack=3")
    assert result.exit_code == 0
    assert "hit_on: 2" in result.output and "9.6(2)" in result.output and "E7" in result.output


@pytest.mark.parametrize(("args", "named"), [
    (("lookup", "midway", "no-such-table"), "no-such-table"),
    (("lookup", "midway", "search", "side=us", "distance=3", "speed=2"), "speed"),
    (("lookup", "midway", "search", "side=us"), "distance"),
    (("lookup", "midway", "carrier-damage", "damaged=no", "roll=7"), "roll"),
    (("lookup", "midway", "carrier-damage", "damaged=no", "roll=0"), "roll"),
    (("lookup", "midway", "carrier-damage", "damaged=no"), "roll"),
    (("lookup", "midway", "carrier-damage", "damaged=maybe", "roll=2"), "damaged"),
    (("lookup", "midway", "base-attack", "distance=6"), "distance"),
    (("lookup", "midway", "landing", "invasion=5", "garrison=3", "rolls=1"), "invasion"),
    (("lookup", "midway", "landing", "invasion=4", "garrison=3", "rolls=1,9"), "rolls"),
    (("lookup", "midway", "landing", "invasion=4", "garrison=3"), "rolls"),
    (("lookup", "midway", "solitaire-move", "card=9"), "card"),
    (("lookup", "midway", "victory", "turn=7", "japan_carriers=1", "us_carriers=1"), "midway"),
    (("odds", "midway", "carrier-damage", "damaged=no", "roll=3"), "roll"),
    (("odds", "midway", "landing", "invasion=4", "garrison=0"), "garrison"),
])
def test_bad_input_exits_2_with_one_line(cli_refused, args, named):
    assert named in cli_refused(*args, "--json")


@pytest.mark.parametrize(("args", "words"), [
    (("search", "side=japan", "distance=3"), ["Japanese", "日本軍", "索敵", "3 AOP"]),
    (("surface-battle", "japan_roll=6", "us_roll=6"), ["水上戦", "4 hit(s) on the US"]),
    (("landing", "invasion=4", "garrison=1", "rolls=1"), ["上陸作戦", "captured"]),
    (("victory", "turn=3", "japan_carriers=0", "us_carriers=0"), ["自動的勝利", "a draw"]),
])
def test_text_answers_carry_the_japanese_terms(cli, args, words):
    result = cli("lookup", "midway", *args)
    assert result.exit_code == 0, result.output
    first = result.output.splitlines()[0]
    assert all(w in first for w in words), first

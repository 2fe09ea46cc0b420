"""The command line for Nightfighter: JSON shape of lookup/roll/odds, and bad input (exit 2)."""

from __future__ import annotations

import pytest

SHAPE = {"game", "table", "inputs", "result", "rules", "errata"}

LOOKUPS = [
    ("combat", ["roll=7", "fp=3"], {"hits": 1}),
    ("moon", ["roll=5"], {"moon": "half"}),
    ("visibility", ["roll=9", "pacific=yes"], {"visibility": "good", "range": 1,
                                               "lit_range": 5}),
    ("clouds", ["roll=3"], {"clouds": "overcast"}),
    ("sighting-dice", ["visibility=good", "moon=new"],
     {"dice": 3, "cloud_bonus": 0, "visibility_bonus": 0}),
    ("captured-sighting-dice", ["moon=new", "radar_modifier=-2"], {"dice": 1}),
    ("reaction", ["roll=5", "warning=yes"], {"reacts": True}),
    ("reaction-effect", ["roll=2", "oblique=yes"], {"effect": "return-fire"}),
    ("corkscrew", ["roll=1"], {"direction": "left"}),
    ("shootdown", ["roll=4"], {"effect": "follow"}),
    ("bomber-move", ["hex=0712", "mp=3", "turn=1"], {"path": ["0713", "0714", "0715"],
                                                     "exited": False}),
    ("flak", ["rolls=1,2,4,4", "sighting=4"], {"hits": 2}),
]


@pytest.mark.parametrize("table,pairs,result", LOOKUPS, ids=[t for t, _, _ in LOOKUPS])
def test_lookup_json_shape(cli_json, table, pairs, result):
    payload = cli_json("lookup", "nightfighter", table, *pairs)
    assert set(payload) == SHAPE
    assert payload["game"] == "nightfighter" and payload["table"] == table
    assert payload["result"] == result
    assert payload["rules"]
    for pair in pairs:
        name = pair.split("=")[0]
        assert name in payload["inputs"]


def test_lookup_text_names_rules(cli):
    out = cli("lookup", "nightfighter", "combat", "roll=7", "fp=3")
    assert out.exit_code == 0
    assert "hits: 1" in out.output and "11.0" in out.output


@pytest.mark.parametrize("table,pairs", [
    ("combat", ["fp=2"]), ("moon", []), ("reaction", ["alerted=yes"]),
    ("flak", ["sighting=2", "task_force=yes"]), ("shootdown", []),
])
def test_roll_json_adds_rolls_and_seed(cli_json, table, pairs):
    payload = cli_json("roll", "nightfighter", table, *pairs, "--seed", "5")
    assert set(payload) == SHAPE | {"rolls", "seed"}
    assert payload["seed"] == 5 and payload["rolls"]
    again = cli_json("roll", "nightfighter", table, *pairs, "--seed", "5")
    assert again == payload


def test_roll_flak_task_force_rolls_8_dice(cli_json):
    out = cli_json("roll", "nightfighter", "flak", "sighting=2", "task_force=yes")
    assert len(out["rolls"]) == 8


@pytest.mark.parametrize("table,pairs,field", [
    ("combat", ["fp=3"], "hits"), ("moon", [], "moon"), ("flak", ["sighting=1"], "hits"),
    ("reaction-effect", ["oblique=yes"], "effect"), ("bomber-move",
                                                     ["hex=0726", "mp=2", "turn=1"], "exited"),
])
def test_odds_json_shape(cli_json, table, pairs, field):
    payload = cli_json("odds", "nightfighter", table, *pairs)
    assert set(payload) == SHAPE
    result = payload["result"]
    assert result["field"] == field
    assert set(result["distribution"]) == set(result["exact"])
    assert abs(sum(result["distribution"].values()) - 1) < 1e-9


@pytest.mark.parametrize("args,word", [
    (["lookup", "nightfighter", "dogfight", "roll=3"], "dogfight"),
    (["lookup", "nightfighter", "combat", "roll=13", "fp=0"], "13"),
    (["lookup", "nightfighter", "combat", "roll=1", "fp=0"], "roll"),
    (["lookup", "nightfighter", "combat", "roll=7"], "fp"),
    (["lookup", "nightfighter", "combat", "fp=1"], "roll"),
    (["lookup", "nightfighter", "combat", "roll=7", "fp=1", "range=2"], "range"),
    (["lookup", "nightfighter", "moon", "roll=7", "europe_after_april_1942=maybe"], "maybe"),
    (["lookup", "nightfighter", "corkscrew", "roll=7"], "7"),
    (["lookup", "nightfighter", "bomber-move", "hex=1928", "mp=2", "turn=1"], "1928"),
    (["lookup", "nightfighter", "bomber-move", "hex=0712", "mp=two", "turn=1"], "two"),
    (["lookup", "nightfighter", "flak", "rolls=1,2,3", "sighting=2"], "rolls"),
    (["lookup", "nightfighter", "flak", "rolls=1,2,3,4", "sighting=9"], "sighting"),
    (["lookup", "nightfighter", "sighting-dice", "visibility=fog", "moon=new"], "fog"),
    (["lookup", "nightfighter", "aircraft", "unit=spitfire"], "spitfire"),
    (["odds", "nightfighter", "combat", "roll=7", "fp=1"], "roll"),
])
def test_bad_input_exit_2_one_line(cli_refused, args, word):
    assert word in cli_refused(*args)


def test_tables_lists_the_catalogue(cli):
    out = cli("tables", "nightfighter")
    assert out.exit_code == 0
    for name in ("combat", "moon", "visibility", "clouds", "sighting-dice",
                 "captured-sighting-dice", "reaction", "reaction-effect", "corkscrew",
                 "shootdown", "bomber-move", "flak"):
        assert f"\n{name}  " in "\n" + out.output

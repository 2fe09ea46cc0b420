"""The Nimitz tables through the command line: JSON shape and bad input."""

from __future__ import annotations

import pytest

KEYS = {"game", "table", "inputs", "result", "rules", "errata"}


@pytest.mark.parametrize(("table", "pairs", "field"), [
    ("attack", ["value=4/2", "roll=0"], "hits"),
    ("japanese-air", ["roll=6"], "area"),
    ("repair-cost", ["cost=5"], "supply"),
    ("battle-points", ["supply=2"], "bpp"),
    ("allocate-hits", ["units=a:0:full,b:1:damaged", "hits=3", "side=japan"], "unused"),
    ("linked-result", ["total=44"], "result"),
    ("bonus-marker", ["side=us", "name=melee"], "cost"),
])
def test_lookup_json_shape(cli_json, table, pairs, field):
    payload = cli_json("lookup", "nimitz", table, *pairs)
    assert set(payload) == KEYS
    assert payload["game"] == "nimitz" and payload["table"] == table
    assert field in payload["result"] and payload["rules"]


def test_roll_adds_rolls_and_seed(cli_json):
    payload = cli_json("roll", "nimitz", "attack", "value=4/2", "--seed", "7")
    assert set(payload) == KEYS | {"rolls", "seed"}
    assert payload["seed"] == 7 and payload["rolls"][0]["die"] == "d10"
    again = cli_json("roll", "nimitz", "attack", "value=4/2", "--seed", "7")
    assert again == payload


def test_odds_attack_json(cli_json):
    payload = cli_json("odds", "nimitz", "attack", "value=4/2")
    assert payload["result"]["field"] == "hits"
    assert payload["result"]["exact"] == {"0": "3/5", "1": "1/5", "2": "1/5"}


def test_odds_japanese_air_json(cli_json):
    payload = cli_json("odds", "nimitz", "japanese-air")
    assert payload["result"]["exact"] == {"coastal": "1/10", "island": "3/10",
                                          "japanese-sea": "1/5", "us-sea": "2/5"}


def test_text_answer_has_rules(cli):
    out = cli("lookup", "nimitz", "linked-result", "total=50")
    assert out.exit_code == 0 and "12.6" in out.output and "偉大な勝利" in out.output


def test_tables_lists_the_catalogue(cli):
    out = cli("tables", "nimitz")
    for name in ("attack", "japanese-air", "repair-cost", "battle-points", "allocate-hits",
                 "linked-result", "bonus-marker"):
        assert name in out.output


@pytest.mark.parametrize(("args", "word"), [
    (["lookup", "nimitz", "nosuch"], "nosuch"),
    (["lookup", "nimitz", "attack", "value=4", "roll=11"], "11"),
    (["lookup", "nimitz", "attack", "value=4"], "roll"),
    (["lookup", "nimitz", "attack", "roll=4"], "value"),
    (["lookup", "nimitz", "attack", "value=4", "roll=4", "colour=red"], "colour"),
    (["lookup", "nimitz", "attack", "value=4/9", "roll=4"], "4/9"),
    (["lookup", "nimitz", "bonus-marker", "side=us", "name=kamikaze"], "kamikaze"),
    (["lookup", "nimitz", "supply", "us=atlantis"], "atlantis"),
    (["lookup", "nimitz", "repair-cost", "unit=yamato"], "yamato"),
    (["lookup", "nimitz", "aa-fire", "ships=f4f", "aircraft=1", "rolls=1"], "f4f"),
    (["lookup", "nimitz", "linked-result", "total=99"], "99"),
    (["odds", "nimitz", "attack", "value=4", "roll=3"], "roll"),
    (["lookup", "nimitz", "carrier-return", "side=us", "complement=1", "damaged=no",
      "aircraft=a:1:destroyed"], "aircraft='a:1:destroyed'"),
])
def test_bad_input_exit_2_one_line(cli_refused, args, word):
    assert word in cli_refused(*args)

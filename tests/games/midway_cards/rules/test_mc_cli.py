"""The command line for midway-cards: JSON shape, roll, odds, bad input."""

from __future__ import annotations

import pytest

KEYS = {"game", "table", "inputs", "result", "rules", "errata"}


@pytest.mark.parametrize(("table", "pairs", "result"), [
    ("air-combat", ["attacker=B", "defender=C"], {"removed": "defender"}),
    ("defense", ["defense=A", "attack=A"], {"stopped": True}),
    ("ship-status", ["ship=yorktown", "side_damage=5", "disabled=yes"],
     {"status": "heavy", "flight_ops": False, "vp": 6, "vp_box": "heavy"}),
    ("base-status", ["damage=40"], {"status": "destroyed", "vp": 20}),
    ("hand", ["hand=1"], {"draw": 5, "discard": 0, "hand_after": 6}),
])
def test_lookup_json_shape(cli_json, table, pairs, result):
    out = cli_json("lookup", "midway-cards", table, *pairs)
    assert set(out) >= KEYS and out["game"] == "midway-cards" and out["table"] == table
    assert out["result"] == result
    assert out["rules"]


def test_lookup_normalises_inputs(cli_json):
    out = cli_json("lookup", "midway-cards", "defense", "defense=a", "attack=c")
    assert out["inputs"] == {"defense": "A", "attack": "C", "kind": "AA", "base": False}


def test_roll_adds_rolls_and_seed(cli_json):
    out = cli_json("roll", "midway-cards", "strike", "target=akagi", "cards=us-sbd,us-tbd",
                   "--seed", "5")
    assert set(out) >= KEYS | {"rolls", "seed"} and out["seed"] == 5
    numbers = [r["value"] for r in out["rolls"]]
    assert all(r["die"] == "d16" and r["input"] == "draws" for r in out["rolls"])
    assert len(numbers) >= 2 and len(out["result"]["hits"]) == 2
    drawn = [h["secondary"] for h in out["result"]["hits"]]
    assert len(set(drawn)) == 2  # without replacement
    again = cli_json("roll", "midway-cards", "strike", "target=akagi", "cards=us-sbd,us-tbd",
                     "--seed", "5")
    assert again == out


def test_roll_of_a_table_without_dice(cli_json):
    out = cli_json("roll", "midway-cards", "base-status", "damage=3", "--seed", "1")
    assert out["rolls"] == [] and out["result"]["status"] == "intact"


def test_odds_shape(cli_json):
    out = cli_json("odds", "midway-cards", "strike", "target=yorktown", "cards=j-b5n,j-d3a")
    result = out["result"]
    assert result["field"] == "status"
    assert set(result["distribution"]) == set(result["exact"])
    assert abs(sum(result["distribution"].values()) - 1) < 1e-9


def test_text_output_names_rules(cli):
    result = cli("lookup", "midway-cards", "air-combat", "attacker=A", "defender=A")
    assert result.exit_code == 0 and "任務完了" in result.stdout and "7-1-2" in result.stdout


def test_tables_lists_the_catalogue(cli):
    result = cli("tables", "midway-cards")
    assert result.exit_code == 0
    for name in ("air-combat", "defense", "ship-status", "base-status", "hand"):
        assert f"{name}  [" in result.stdout


@pytest.mark.parametrize(("args", "named"), [
    (["lookup", "midway-cards", "nosuch"], "nosuch"),
    (["lookup", "midway-cards", "air-combat", "attacker=E", "defender=A"], "attacker"),
    (["lookup", "midway-cards", "air-combat", "attacker=A"], "defender"),
    (["lookup", "midway-cards", "air-combat", "attacker=A", "defender=A", "x=1"], "x"),
    (["lookup", "midway-cards", "ship-status", "ship=bismarck"], "bismarck"),
    (["lookup", "midway-cards", "base-status", "damage=-3"], "damage"),
    (["lookup", "midway-cards", "base-status", "damage=lots"], "damage"),
    (["lookup", "midway-cards", "hand", "hand=99"], "hand"),
    (["lookup", "midway-cards", "attack-damage", "card=j-b5n", "draw=17"], "draw"),
    (["lookup", "midway-cards", "attack-damage", "card=j-b5n"], "draw"),
    (["lookup", "midway-cards", "attack-damage", "card=tiger", "draw=1"], "tiger"),
    (["lookup", "midway-cards", "strike", "target=yorktown", "cards=j-b5n",
      "draws=3,3"], "draws"),
    (["odds", "midway-cards", "attack-damage", "card=j-b5n", "draw=3"], "draw"),
])
def test_bad_input_exit_2_one_line(cli_refused, args, named):
    assert named in cli_refused(*args)


def test_rule_violation_exit_1(cli, cli_refused):
    args = ("lookup", "midway-cards", "defense", "defense=A", "attack=A", "kind=ES", "base=yes")
    line = cli_refused(*args, code=1)
    assert "12-4" in line
    assert cli(*args).stderr == line + "\n"      # on stderr, and nothing else there


def test_json_is_one_object(cli_json):
    assert cli_json("lookup", "midway-cards", "hand", "hand=8")["result"]["discard"] == 2

"""The command line: JSON shapes of lookup, roll and odds; bad input exits 2, no traceback."""

from __future__ import annotations

from fractions import Fraction

import pytest

KEYS = {"game", "table", "inputs", "result", "rules", "errata"}


def test_lookup_shape(cli_json):
    data = cli_json("lookup", "axis-allies", "unit", "type=fighter")
    assert set(data) == KEYS
    assert data["result"] == {"cost": 12, "move": 4, "attack": 3, "defense": 4}
    assert data["inputs"] == {"type": "fighter"} and data["rules"] == ["unit table"]


def test_roll_shape_and_replay(cli_json):
    args = ("roll", "axis-allies", "battle", "attacker=3 infantry, 1 armor, 1 fighter",
            "defender=3 infantry, 1 antiaircraft", "--seed", "11")
    data = cli_json(*args)
    assert set(data) == KEYS | {"rolls", "seed"} and data["seed"] == 11
    assert data["result"]["winner"] in ("attacker", "defender", "mutual")
    assert {r["input"] for r in data["rolls"]} <= {"aa_rolls", "attacker_rolls",
                                                   "defender_rolls"}
    assert all(r["die"] == "d6" and 1 <= r["value"] <= 6 for r in data["rolls"])
    assert cli_json(*args) == data  # the same seed, the same battle
    given = [f"{name}={','.join(str(r['value']) for r in data['rolls'] if r['input'] == name)}"
             for name in ("aa_rolls", "attacker_rolls", "defender_rolls")]
    again = cli_json("lookup", "axis-allies", "battle", *args[3:5], *given)
    assert again["result"] == data["result"]


def test_odds_shape(cli_json):
    data = cli_json("odds", "axis-allies", "battle", "attacker=2 infantry, 1 armor",
                    "defender=2 infantry", "--exact")
    assert set(data) == KEYS
    result = data["result"]
    for name in ("attacker_wins", "defender_wins", "mutual_destruction", "attacker_takes",
                 "attacker_survivors", "defender_survivors"):
        exact = Fraction(result["exact"][name])
        assert abs(float(exact) - result[name]) < 1e-12
    total = sum(Fraction(result["exact"][k]) for k in ("attacker_wins", "defender_wins",
                                                        "mutual_destruction", "undecided"))
    assert total == 1


def test_odds_sea_battle_text(cli):
    out = cli("odds", "axis-allies", "battle", "kind=sea", "attacker=2 submarine",
              "defender=1 transport, 1 carrier")
    assert out.exit_code == 0 and "attacker_wins" in out.output
    assert "rules ③ combat, sea 2" in out.output


@pytest.mark.parametrize("more, shown", [((), False), (("rounds=2",), True)])
def test_undecided_is_printed_only_when_a_battle_can_stop_short(cli, cli_json, more, shown):
    """Fought to the end, nothing is undecided: the text leaves the 0 out (the JSON keeps
    the field); cut off after 2 rounds, the undecided share is printed."""
    args = ("odds", "axis-allies", "battle", "attacker=6 infantry, 3 armor",
            "defender=8 infantry", *more)
    out = cli(*args)
    assert out.exit_code == 0 and "attacker_wins" in out.output
    assert ("undecided" in out.output) is shown
    assert (cli_json(*args)["result"]["undecided"] > 0) is shown


def test_json_rules_are_printed_as_the_text_prints_them(cli, cli_json):
    """The rule text's step numbers ("2)") carry no bracket it never opened, in the JSON of
    a query and of ``tables`` alike."""
    args = ("odds", "axis-allies", "battle", "attacker=2 infantry", "defender=1 infantry")
    rules = cli_json(*args)["rules"]
    assert "land 2" in rules and not [r for r in rules if r.endswith(")")]
    listed = cli_json("tables", "axis-allies")["tables"]["battle"]["rules"]
    assert "land 1-7" in listed and "sea 1-8" in listed


def test_research_shape(cli_json):
    data = cli_json("lookup", "axis-allies", "research", "dice=2")
    assert data["result"] == {"cost": 10, "p_success": "11/36"}


@pytest.mark.parametrize("args,needle", [
    (("lookup", "axis-allies", "nosuch"), "unknown table"),
    (("lookup", "axis-allies", "unit", "kind=armor"), "unknown input 'kind'"),
    (("lookup", "axis-allies", "unit"), "missing input 'type'"),
    (("lookup", "axis-allies", "unit", "type=tank"), "type='tank'"),
    (("lookup", "axis-allies", "combat-hit", "value=2", "roll=7"), "roll"),
    (("lookup", "axis-allies", "research", "dice=x"), "dice='x'"),
    (("lookup", "axis-allies", "victory", "axis_capitals_lost=0", "allied_capitals_lost=0",
      "axis_npl=10", "round_end=maybe"), "round_end='maybe'"),
    (("odds", "axis-allies", "battle", "attacker=3 tanks", "defender=1 infantry"), "tanks"),
    (("odds", "axis-allies", "battle", "attacker=1 infantry", "defender=1 infantry",
      "attacker_rolls=1"), "leave out"),
    (("odds", "axis-allies", "battle", "attacker=1 infantry"), "missing input 'defender'"),
    (("odds", "axis-allies", "battle", "attacker=1 infantry", "defender=1 infantry",
      "kind=air"), "kind='air'"),
    (("lookup", "axis-allies", "battle", "attacker=1 infantry", "defender=1 infantry"),
     "missing input 'attacker_rolls'"),
    (("lookup", "axis-allies", "battle", "attacker=3 infantry", "defender=2 infantry",
      "attacker_rolls=1", "defender_rolls=1,1"),
     "input attacker_rolls: all 1 roll(s) given were used and the procedure needs another"),
    (("lookup", "axis-allies", "distance", "start=atlantis", "end=germany"), "atlantis"),
    (("lookup", "axis-allies", "income", "power=italy"), "power='italy'"),
    (("roll", "axis-allies", "battle", "attacker=99999999999 infantry", "defender=1 infantry"),
     "at most 1000 a side"),
    (("odds", "axis-allies", "battle", "attacker=1 infantry", "defender=1 infantry",
      "rounds=101"), "rounds='101'"),
    (("odds", "axis-allies", "battle", "attacker=101 infantry", "defender=100 infantry",
      "--exact"), "(101 v 100 units) need 1.03 times the most this tool computes"),
    (("odds", "axis-allies", "battle", "attacker=100 infantry", "defender=100 infantry",
      "rounds=60", "--exact"), "(100 v 100 units, 60 rounds)"),
    (("odds", "axis-allies", "battle", "attacker=40 infantry, 20 fighter, 20 bomber",
      "defender=39 infantry, 1 antiaircraft", "--exact"), "(80 v 40 units, 441 AA results)"),
    (("odds", "axis-allies", "battle", "attacker=334 infantry, 333 fighter, 333 bomber",
      "defender=999 infantry, 1 antiaircraft"),
     "(1000 v 1000 units, 37,371,259 attacker states after AA fire) need"),
    (("odds", "axis-allies", "battle", "attacker=1 infantry", "defender=1 infantry",
      "retreat_at=0"), "retreat_at='0'"),
])
def test_bad_input_exits_2_without_traceback(cli_refused, args, needle):
    assert needle in cli_refused(*args)


@pytest.mark.parametrize("args,needle", [
    (("lookup", "axis-allies", "placement-limit", "factory=built", "income=3", "place=4"),
     "rule ⑤"),
    (("odds", "axis-allies", "battle", "attacker=1 battleship", "defender=1 infantry"),
     "rule ③ combat"),
])
def test_rule_violations_exit_1_naming_the_rule(cli, args, needle):
    out = cli(*args)
    assert out.exit_code == 1 and needle in out.output and "Traceback" not in out.output


def test_tables_lists_the_catalogue(cli):
    out = cli("tables", "axis-allies")
    assert out.exit_code == 0
    for name in ("unit", "research", "placement-limit", "victory", "battle"):
        assert f"\n{name}  " in "\n" + out.output


def test_fractions_of_thousands_of_digits_print_without_raising_the_int_limit(cli, cli_json):
    """22 infantry a side: exact fractions of about 10,000 digits, over CPython's 4300-digit
    limit for int <-> str; they print (JSON and text) and the process-wide limit is untouched."""
    import sys

    import gmpy2

    limit = sys.get_int_max_str_digits()
    args = ("odds", "axis-allies", "battle", "attacker=22 infantry", "defender=22 infantry",
            "--exact")
    data = cli_json(*args)
    text = data["result"]["exact"]["attacker_wins"]
    assert len(text) > 2 * 4300
    assert float(gmpy2.mpq(text)) == pytest.approx(data["result"]["attacker_wins"])
    out = cli(*args)
    assert out.exit_code == 0 and "digits)" in out.output
    assert out.output.count("attacker_wins") == 1
    assert sys.get_int_max_str_digits() == limit


@pytest.mark.parametrize("command,table", [("lookup", "research"), ("odds", "development")])
def test_development_dice_stop_at_a_thousand(cli_refused, cli_json, command, table):
    assert "integer 1..1000" in cli_refused(command, "axis-allies", table, "dice=10**12")
    assert "integer 1..1000" in cli_refused(command, "axis-allies", table,
                                            "dice=1000000000000")
    cli_json(command, "axis-allies", table, "dice=1000")

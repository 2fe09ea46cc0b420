"""The command line for midway-cards: JSON shape, roll, odds, bad input."""

from __future__ import annotations

import json

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


@pytest.mark.parametrize("args", [
    ("roll", "midway-cards", "strike", "target=akagi", "cards=j-b5n"),
    ("odds", "midway-cards", "strike", "target=yorktown", "cards=us-tbd,us-sbd"),
    ("lookup", "midway-cards", "strike", "target=akagi", "cards=us-tbd,j-b5n", "draws=1,2"),
    ("lookup", "midway-cards", "attack-damage", "card=us-sbd", "target=base", "draw=1"),
])
def test_a_strike_at_ones_own_cards_is_refused_with_rule_7(cli_refused, args):
    assert cli_refused(*args, code=1).endswith("(rule 7)")


# --- sessions: warpress play ---------------------------------------------------------------


@pytest.fixture
def table(tmp_path, cli):
    """A session of seed 7, both opening hands kept: the Japanese first turn is due."""
    where = str(tmp_path / "s")
    for args in (("new", "midway-cards", "--seed", "7"), ("keep",), ("keep",)):
        assert cli("play", *args, "--session", where).exit_code == 0
    return where


def test_play_new_shows_no_hand(tmp_path, cli):
    result = cli("play", "new", "midway-cards", "--seed", "7", "--session",
                 str(tmp_path / "s"))
    assert result.exit_code == 0
    assert "due: opening by japan" in result.stdout and "hand:" not in result.stdout


def test_status_by_side(cli, cli_json, table):
    japan = cli_json("play", "status", "--side", "japan", "--session", table)
    us = cli_json("play", "status", "--side", "us", "--session", table)
    public = cli_json("play", "status", "--session", table)
    assert len(japan["hand"]) == 7 and len(us["hand"]) == 6 and public["hand"] == []
    assert {c["id"] for c in japan["hand"]}.isdisjoint(json.dumps(us))
    assert "hand:" in cli("play", "status", "--side", "us", "--session", table).stdout


def test_a_side_that_is_not_the_games_is_bad_input(cli_refused, table):
    for command in ("status", "moves"):
        line = cli_refused("play", command, "--side", "germany", "--session", table)
        assert "--side 'germany'" in line and "japan, us" in line


def test_moves_by_side(cli, cli_json, table):
    japan = cli_json("play", "moves", "--side", "japan", "--session", table)
    assert japan["side"] == "japan" and japan["options"]
    us = cli_json("play", "moves", "--side", "us", "--session", table)
    assert us["options"] == [] and us["prompt"].endswith("(waiting for japan)")
    assert "waiting for japan" in cli("play", "moves", "--side", "us", "--session",
                                      table).stdout


def test_an_action_the_rules_forbid_exits_1_and_is_logged(cli, cli_refused, table):
    status = json.loads(cli("play", "status", "--side", "japan", "--json", "--session",
                            table).stdout)
    bomber = next(c["id"] for c in status["hand"] if c["id"].startswith("j-b5n"))
    line = cli_refused("play", "fly", bomber, "A", "--session", table, code=1)
    assert line.endswith("(rule 12-1)")
    assert "REFUSED" in cli("play", "log", "--session", table).stdout
    assert cli("play", "replay", "--session", table).exit_code == 0


@pytest.mark.parametrize(("args", "named"), [
    (("fly", "tiger#1", "A"), "'tiger#1'"),
    (("fly", "j-zero#1", "Q"), "mission 'Q'"),
    (("exchange", "j-zero#1,j-zero#1"), "twice"),
    (("target", "bismarck"), "'bismarck'"),
])
def test_bad_input_in_a_session_exits_2(cli_refused, table, args, named):
    assert named in cli_refused("play", *args, "--session", table)


def test_a_card_game_draws_no_map(cli_refused, table, tmp_path):
    line = cli_refused("play", "status", "--map", str(tmp_path / "m.svg"), "--session", table)
    assert "no map" in line


def test_the_actions_are_listed(cli):
    out = cli("play", "actions", "midway-cards").stdout
    for name in ("keep", "fly CARD MISSION", "cap CARD", "target SHIP [CARD]",
                 "defend CARD DEFENSE", "exchange [CARDS]", "emergency-repair CARD TARGET"):
        assert name in out


def test_the_agent_plays_one_side_until_the_other_is_due(tmp_path, cli, cli_json):
    where = str(tmp_path / "s")
    cli("play", "new", "midway-cards", "--seed", "7", "--session", where)
    idle = cli("play", "agent", "--side", "us", "--session", where)
    assert idle.exit_code == 0 and "no decision of its side is due" in idle.stdout
    cli("play", "keep", "--session", where)
    out = cli_json("play", "agent", "--side", "us", "--session", where)
    assert [a["command"] for a in out["actions"]] == ["keep"]
    assert out["view"]["due"]["side"] == "japan" and out["view"]["hand"] == []
    assert "japan (random): " in cli("play", "agent", "--session", where).stdout


def test_the_agent_plays_a_whole_game_that_replays(tmp_path, cli, cli_json):
    where = str(tmp_path / "s")
    cli("play", "new", "midway-cards", "--seed", "5", "--session", where)
    out = cli_json("play", "agent", "--side", "all", "--session", where)
    assert out["view"]["over"] and out["view"]["summary"]["result"] in ("win", "draw")
    assert len(out["actions"]) > 50
    assert cli("play", "replay", "--session", where).exit_code == 0
    log = cli("play", "log", "--session", where).stdout.splitlines()
    assert log[-1].startswith("log: ") and len(log) == len(out["actions"]) + 2


@pytest.mark.parametrize(("args", "named"), [
    (("--side", "germany"), "--side 'germany'"),
    (("--steps", "0"), "'0'"),
])
def test_the_agent_refuses_bad_input(tmp_path, cli, cli_refused, args, named):
    where = str(tmp_path / "s")
    cli("play", "new", "midway-cards", "--seed", "5", "--session", where)
    assert named in cli_refused("play", "agent", *args, "--session", where)

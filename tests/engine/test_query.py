"""engine/query.py and the lookup/roll/odds/tables commands, on the tiny fixture game."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from click.testing import CliRunner
from warpress.cli import main
from warpress.engine.catalogue import ref_table, ref_tables
from warpress.engine.errors import BadInput
from warpress.engine.loader import load_game
from warpress.engine.query import parse_pairs, run_lookup, run_odds, run_roll


@pytest.fixture
def tiny(tiny_game):
    return load_game(str(tiny_game))


def _cli(*args: str):
    return CliRunner().invoke(main, list(args))


def test_data_tables_are_served_with_their_keys_as_inputs(tiny):
    tables = ref_tables(tiny)
    assert list(tables) == ["hit"]
    hit = tables["hit"]
    assert [(i.name, i.kind) for i in hit.inputs] == [("roll", "roll"), ("armored", "bool")]
    assert hit.results == ("hits",)


def test_lookup_json_shape(tiny_game):
    result = _cli("lookup", str(tiny_game), "hit", "roll=6", "armored=yes", "--json")
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    assert payload == {"game": "tiny", "table": "hit", "inputs": {"armored": True, "roll": 6},
                       "result": {"hits": 2}, "rules": ["4.1"], "errata": []}


def test_roll_is_replayable_from_its_seed(tiny_game):
    first = json.loads(_cli("roll", str(tiny_game), "hit", "armored=no", "--seed", "7",
                            "--json").output)
    again = json.loads(_cli("roll", str(tiny_game), "hit", "armored=no", "--seed", "7",
                            "--json").output)
    assert first == again
    (rolled,) = first["rolls"]
    assert rolled["input"] == "roll" and rolled["die"] == "d6" and 1 <= rolled["value"] <= 6
    assert first["seed"] == 7
    replay = json.loads(_cli("lookup", str(tiny_game), "hit", "armored=no",
                             f"roll={rolled['value']}", "--json").output)
    assert replay["result"] == first["result"]


def test_roll_uses_a_given_roll(tiny):
    payload = run_roll(tiny, ref_table(tiny, "hit"), ["armored=yes", "roll=6"], seed=1)
    assert payload["result"] == {"hits": 2}
    assert payload["rolls"] == [{"input": "roll", "die": "d6", "value": 6}]


def test_odds_are_exact_and_sum_to_one(tiny):
    payload = run_odds(tiny, ref_table(tiny, "hit"), ["armored=yes"])
    exact = {k: Fraction(v) for k, v in payload["result"]["exact"].items()}
    assert exact == {"0": Fraction(1, 2), "1": Fraction(1, 3), "2": Fraction(1, 6)}
    assert sum(exact.values()) == 1
    assert payload["result"]["field"] == "hits"
    assert payload["result"]["distribution"]["2"] == pytest.approx(1 / 6)


def test_odds_refuses_a_roll_input(tiny):
    with pytest.raises(BadInput, match="leave out 'roll'"):
        run_odds(tiny, ref_table(tiny, "hit"), ["armored=yes", "roll=3"])


@pytest.mark.parametrize(
    ("pairs", "message"),
    [
        (["roll=7", "armored=yes"], "input roll='7' is not allowed (d6 result 1-6)"),
        (["roll=0", "armored=yes"], "input roll='0' is not allowed (d6 result 1-6)"),
        (["armored=yes"], "missing input 'roll' (d6 result 1-6)"),
        (["roll=3"], "missing input 'armored' (yes|no)"),
        (["roll=3", "armored=maybe"], "input armored='maybe' is not allowed (yes|no)"),
        (["roll=3", "armored=yes", "speed=2"], "unknown input 'speed' for table 'hit'"),
        (["roll=3", "roll=4", "armored=yes"], "input 'roll' given twice"),
        (["roll3"], "expected NAME=VALUE, got 'roll3'"),
    ],
)
def test_bad_input_names_the_input_and_what_is_allowed(tiny, pairs, message):
    with pytest.raises(BadInput, match=message.replace("(", r"\(").replace(")", r"\)")):
        run_lookup(tiny, ref_table(tiny, "hit"), pairs)


@pytest.mark.parametrize(
    "args",
    [
        ["lookup", "no-such-game", "hit", "roll=1"],
        ["lookup", "{game}", "no-such-table", "roll=1"],
        ["lookup", "{game}", "hit", "roll=9", "armored=no"],
        ["odds", "{game}", "hit"],
        ["roll", "{game}", "hit", "armored=perhaps", "--seed", "1"],
    ],
)
def test_cli_bad_input_is_one_line_and_exit_2(tiny_game, args):
    result = _cli(*[a.replace("{game}", str(tiny_game)) for a in args])
    assert result.exit_code == 2, result.output
    assert result.output.startswith("warpress: ")
    assert result.output.count("\n") == 1
    assert "Traceback" not in result.output


def test_tables_lists_inputs_and_rules(tiny_game):
    result = _cli("tables", str(tiny_game))
    assert result.exit_code == 0
    assert "hit  [4.1]  Hit table" in result.output
    assert "roll=d6 result 1-6" in result.output


def test_parse_pairs_applies_types(tiny):
    args, rolls = parse_pairs(ref_table(tiny, "hit"), ["armored=No", "roll=2"], tiny)
    assert args == {"armored": False} and rolls == {"roll": 2}


def test_unused_rolls_of_a_sequence_are_bad_input_not_dropped(tiny_game):
    from warpress.engine.registry import Answer, Input, RefTable

    def two_rolls(game, args, dice):
        return Answer({"sum": dice.roll("d6", "rolls") + dice.roll("d6", "rolls")})

    ref = RefTable("pair", "two rolls", ("1",), (Input("rolls", "rolls", die="d6"),), ("sum",),
                   two_rolls)
    tiny = load_game(str(tiny_game))
    assert run_lookup(tiny, ref, ["rolls=3,4"])["result"] == {"sum": 7}
    with pytest.raises(BadInput, match=r"input 'rolls': 1 roll\(s\) not used by the procedure"):
        run_lookup(tiny, ref, ["rolls=3,4,5"])

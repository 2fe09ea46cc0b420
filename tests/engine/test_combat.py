"""engine/combat.py: odds-ratio and differential CRTs from data, and the combat query.

The game is tests/fixtures/games/corps, copied into tmp_path (``corps_game``): an odds CRT
1-1..6-1 on a d6 (below 1-1: AR; beyond 6-1: clamped), forest -1 column, a city doubling
defence, a river -1 column when every attacker crosses it, a fortified line halving the
attack across it.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from warpress.cli import main
from warpress.engine.combat import column_value, find_column
from warpress.engine.loader import load_game
from warpress.engine.model import CombatForm


def _form(**kw) -> CombatForm:
    base = dict(method="odds", columns=("1-2", "1-1", "2-1", "3-1", "4-1", "5-1", "6-1"),
                grid={})
    return CombatForm(**{**base, **kw})


def _col(form: CombatForm, value, shift: int = 0):
    found = find_column(form, value, "x", shift)
    return form.columns[found.index] if found.index is not None else found.result


@pytest.mark.parametrize(("attack", "defence", "column"), [
    (7, 3, "2-1"),     # 2.33: the fraction dropped
    (6, 3, "2-1"),     # exact
    (5, 2, "2-1"),
    (11, 10, "1-1"),
    (2, 3, "1-2"),     # 0.67: down to 1-2
    (2, 5, "AE"),      # 1-3 (rounded against the attacker) is below 1-2
    (1, 2, "1-2"),
    (20, 3, "6-1"),    # 6.67 -> 6-1, not beyond
    (7, 1, "6-1"),     # beyond 6-1, clamped
    (100, 1, "6-1"),
])
def test_odds_round_in_the_defenders_favour_and_clamp(attack, defence, column):
    form = _form(below="AE")
    assert _col(form, Fraction(attack, defence)) == column


def test_attackers_favour_rounds_up():
    form = _form(round="attacker")
    assert _col(form, Fraction(7, 3)) == "3-1"
    assert _col(form, Fraction(2, 3)) == "1-1"
    assert _col(form, Fraction(6, 1)) == "6-1"


def test_declared_results_beyond_both_ends_and_shifts_back_into_the_table():
    form = _form(below="AE", above="DE")
    assert _col(form, Fraction(7, 1)) == "DE"
    assert _col(form, Fraction(7, 1), shift=-1) == "6-1"   # one column past the end, shifted
    assert _col(form, Fraction(1, 3)) == "AE"
    assert _col(form, Fraction(1, 3), shift=+1) == "1-2"
    assert _col(form, Fraction(1, 1), shift=-2) == "AE"
    assert _col(form, None) == "DE"                        # no defence: beyond the last


def test_clamp_first_then_shift():
    """``clamp``: odds beyond the table are treated as the end column, then shifted."""
    form = _form()
    assert _col(form, Fraction(9, 1), shift=-1) == "5-1"
    assert _col(form, Fraction(1, 4), shift=+1) == "1-1"
    assert _col(form, Fraction(3, 1), shift=+5) == "6-1"


def test_differential_columns():
    form = _form(method="differential", columns=("-2", "-1", "0", "+1", "+2", "+3"))
    assert _col(form, Fraction(1)) == "+1"
    assert _col(form, Fraction(7, 2)) == "+3"
    assert _col(form, Fraction(5, 2)) == "+2"      # 2.5: the fraction dropped
    assert _col(form, Fraction(-5, 2)) == "-2"     # -2.5 -> -3: below, clamped
    assert _col(form, Fraction(9)) == "+3"
    assert _col(form, Fraction(0), shift=-1) == "-1"


def test_column_values_accept_colon_and_dash():
    assert column_value("odds", "3:1") == column_value("odds", "3-1") == 3
    assert column_value("odds", "1-2") == Fraction(1, 2)
    assert column_value("differential", "+3") == 3
    with pytest.raises(ValueError):
        column_value("odds", "three to one")


def test_the_crt_grid_is_the_tables_rows(corps_game: Path):
    table = load_game(corps_game).table("crt")
    assert [k.id for k in table.keys] == ["roll", "odds"]
    assert len(table.rows) == 36
    assert table.results == ("result",)


# --- lookup crt --------------------------------------------------------------------------


def test_lookup_crt_clamps_7_1_to_6_1_and_says_so(cli, corps_game):
    result = cli("lookup", str(corps_game), "crt", "odds=7-1", "roll=4")
    assert result.exit_code == 0, result.output
    assert "beyond 6-1, the last column" in result.output
    assert "resolved at 6-1 (clamped)" in result.output
    assert "DRL (Defender retreats, loses a step)" in result.output
    assert "rules 7.3, 7.2" in result.output


def test_lookup_crt_takes_3_colon_1_and_any_odds(cli_json, corps_game):
    a = cli_json("lookup", str(corps_game), "crt", "odds=3:1", "roll=4")
    b = cli_json("lookup", str(corps_game), "crt", "odds=3-1", "roll=4")
    assert a["result"]["notes"] == ["3:1 -> 3-1 [7.2]"] and b["result"]["notes"] == []
    assert a["result"]["column"] == b["result"]["column"] == "3-1"
    assert a["result"]["result"] == "EX"
    odd = cli_json("lookup", str(corps_game), "crt", "odds=7:3", "roll=4")
    assert odd["result"]["column"] == "2-1"
    assert "fractions dropped in the defender's favour" in odd["result"]["notes"][0]
    low = cli_json("lookup", str(corps_game), "crt", "odds=1:2", "roll=6")
    assert low["result"]["column"] is None and low["result"]["result"] == "AR"
    nothing = cli_json("lookup", str(corps_game), "crt", "odds=3:0", "roll=4")
    assert nothing["result"]["column"] == "6-1"           # no defence: beyond 6-1, clamped
    shifted = cli_json("lookup", str(corps_game), "crt", "odds=4-1", "shift=-2", "roll=4")
    assert shifted["result"]["column"] == "2-1"


def test_odds_of_the_crt_column(cli_json, corps_game):
    out = cli_json("odds", str(corps_game), "crt", "odds=6-1")
    assert out["result"]["column"] == "6-1"
    assert out["result"]["exact"] == {"DE": "1/3", "DRL": "1/3", "DR": "1/3"}


def test_lookup_crt_refuses_words(cli_refused, corps_game):
    line = cli_refused("lookup", str(corps_game), "crt", "odds=lots", "roll=4")
    assert "odds='lots'" in line and "3-1 or 3:1" in line


# --- the combat query --------------------------------------------------------------------


def test_combat_across_a_river_into_a_city(cli, corps_game):
    """g1 (6) from 0404 and g2 (5) from 0405 attack s1 (3) and s2 (2) in Minsk 0504: the
    city doubles the defence to 10, 11:10 is 1-1, every attacker crosses the Dnieper: -1
    column, off the left end: AR."""
    result = cli("lookup", str(corps_game), "combat", "attacker=g1@0404,g2@0405",
                 "defender=s1,s2", "hex=0504", "roll=4")
    assert result.exit_code == 0, result.output
    text = result.output
    assert "attack 11: g1 6 + g2 5" in text
    assert "defence 5: s1 3 + s2 2, x2 city (Minsk) [6.3] = 10" in text
    assert "river: every attacker attacks across it -1 [6.4]" in text
    assert "odds 11:10 -> 1-1 (fractions dropped in the defender's favour) [7.2]" in text
    assert "below 1-1: result AR" in text
    assert "rules 7.3, 7.2, 6.3, 6.4" in text


def test_combat_json_names_column_shifts_and_rules(cli_json, corps_game):
    out = cli_json("lookup", str(corps_game), "combat", "attacker=g1@0404,g2@0503",
                   "defender=s1", "hex=0504", "roll=3")
    r = out["result"]
    assert (r["attack"], r["defence"], r["odds"]) == (11, 6, "11:6")
    assert r["shifts"] == []       # g2 attacks from 0503: not every attacker crosses the river
    assert r["column"] == "1-1" and r["result"] == "AR"
    assert out["rules"] == ["7.3", "7.2", "6.3"]


def test_combat_in_forest_and_halved_across_the_fortified_line(cli_json, corps_game):
    forest = cli_json("lookup", str(corps_game), "combat", "attacker=g1,g2,g3",
                      "defender=s3", "hex=0606", "roll=1")
    assert forest["result"]["odds"] == "14:2"          # beyond 6-1: clamped, then -1
    assert forest["result"]["column"] == "5-1"
    assert forest["result"]["shifts"] == [{"shift": -1, "from": "forest", "rules": ["6.2"]}]
    assert forest["result"]["result"] == "DRL"
    line = cli_json("lookup", str(corps_game), "combat", "attacker=g1@0704,g2@0705",
                    "defender=s3", "hex=0805", "roll=4")
    assert line["result"]["attack"] == 5.5              # (6 + 5) x 1/2
    assert line["result"]["column"] == "2-1"            # 5.5:2 = 2.75
    assert [m["unit"] for m in line["result"]["multipliers"]] == ["g1", "g2"]


def test_combat_given_shift_and_no_hexsides_without_hexes(cli, corps_game):
    result = cli("lookup", str(corps_game), "combat", "attacker=g1@0404,g2",
                 "defender=s1", "hex=0504", "shift=+2", "roll=2")
    assert result.exit_code == 0, result.output
    assert "hexsides not counted: no hex given for g2 (ID@HEX)" in result.output
    assert "given (shift=) +2" in result.output


def test_combat_roll_is_seeded_and_odds_sum_to_one(cli_json, corps_game):
    args = ("combat", "attacker=g1@0404,g2@0405,g3", "defender=s2", "hex=0504")
    a = cli_json("roll", str(corps_game), *args, "--seed", "7")
    b = cli_json("roll", str(corps_game), *args, "--seed", "7")
    assert a["result"] == b["result"] and a["rolls"] == b["rolls"]
    odds = cli_json("odds", str(corps_game), *args)
    # 14:4 = 3.5 -> 3-1; g3 gives no hex, so the river shift does not count
    assert odds["result"]["column"] == a["result"]["column"] == "3-1"
    total = sum(Fraction(v) for v in odds["result"]["exact"].values())
    assert total == 1


@pytest.mark.parametrize(("args", "quoted"), [
    (("attacker=g9", "defender=s1"), "'g9'"),
    (("attacker=g1", "defender=s1,g2"), "'g2'"),
    (("attacker=g1,s3", "defender=s1"), "more than one side"),
    (("attacker=g1@0808", "defender=s1"), "'g1@0808'"),
    (("attacker=g1@9999", "defender=s1"), "'9999'"),
    (("attacker=g1,g1", "defender=s1"), "'g1'"),
    (("attacker=g1", "defender=s1@0404"), "'s1@0404'"),
])
def test_combat_refuses_bad_units_and_hexes_in_one_line(cli_refused, corps_game, args, quoted):
    line = cli_refused("lookup", str(corps_game), "combat", *args, "hex=0504", "roll=1")
    assert quoted in line, line


def test_combat_refuses_a_hex_off_the_map(cli_refused, corps_game):
    line = cli_refused("lookup", str(corps_game), "combat", "attacker=g1", "defender=s1",
                       "hex=1111", "roll=1")
    assert "'1111'" in line and "0101..1008" in line


def test_tables_lists_crt_and_combat(cli, corps_game):
    result = cli("tables", str(corps_game))
    assert result.exit_code == 0, result.output
    assert "combat  [7.3]" in result.output and "crt  [7.3]" in result.output


def test_text_answer_is_the_explanation_json_has_no_text(cli, corps_game):
    result = cli("lookup", str(corps_game), "crt", "odds=2-1", "roll=1", "--json")
    assert "text" not in json.loads(result.output)


def _differential(folder: Path) -> None:
    """The designer's CRT as a differential table: attack - defence, -1..+4, written as
    plain numbers; beyond +4 a declared DE, below -1 clamped."""
    path = folder / "combat.yaml"
    text = path.read_text(encoding="utf-8")
    for old, new in (("method: odds", "method: differential"),
                     ('columns: ["1-1", "2-1", "3-1", "4-1", "5-1", "6-1"]',
                      "columns: [-1, 0, +1, +2, +3, +4]"),
                     ("below: AR", "below: clamp"), ("above: clamp", "above: DE")):
        assert old in text
        text = text.replace(old, new, 1)
    path.write_text(text, encoding="utf-8")


def test_differential_crt_end_to_end(cli, cli_json, corps_game):
    _differential(corps_game)
    verify = cli("verify", str(corps_game), "--data")
    assert verify.exit_code == 0, verify.output
    beyond = cli_json("lookup", str(corps_game), "crt", "difference=+7", "roll=4")
    assert beyond["result"]["column"] is None and beyond["result"]["result"] == "DE"
    assert cli_json("lookup", str(corps_game), "crt", "difference=+7", "shift=-1",
                    "roll=4")["result"]["column"] == "+4"
    low = cli_json("lookup", str(corps_game), "crt", "difference=-5", "roll=1")
    assert low["result"]["column"] == "-1" and "resolved at -1 (clamped)" in low["result"]["notes"]
    # g1 (6) against s3 (2) in clear 0805: +4; across the fortified line 6 x 1/2 = 3: +1
    plain = cli_json("lookup", str(corps_game), "combat", "attacker=g1", "defender=s3",
                     "hex=0805", "roll=2")
    assert (plain["result"]["difference"], plain["result"]["column"]) == ("+4", "+4")
    across = cli_json("lookup", str(corps_game), "combat", "attacker=g1@0704", "defender=s3",
                      "hex=0805", "roll=2")
    assert (across["result"]["difference"], across["result"]["column"]) == ("+1", "+1")
    assert across["result"]["result"] == "DR"


def test_differential_crt_prints_signed_columns(corps_game, tmp_path, cli):
    _differential(corps_game)
    result = cli("build", str(corps_game), "--out", str(tmp_path / "out"), "--format", "svg",
                 "--only", "sheets")
    assert result.exit_code == 0, result.output
    svg = "".join(p.read_text(encoding="utf-8")
                  for p in (tmp_path / "out" / "corps" / "svg").glob("*.svg"))
    for heading in (">−1<", ">0<", ">+1<", ">+4<", "Difference (attack - defence)"):
        assert heading in svg, heading  # a negative column with a minus sign
    assert "Below −1: as −1 · Beyond +4: result DE · then column shifts" in svg


# --- properties ---------------------------------------------------------------------------


def _rank(form: CombatForm, value, shift: int = 0) -> int:
    found = find_column(form, value, "x", shift)
    if found.index is not None:
        return found.index
    return -1 if found.result == form.below else len(form.columns)


_ratios = st.fractions(min_value=0, max_value=20, max_denominator=12)


@settings(max_examples=300, deadline=None)
@given(a=_ratios, b=_ratios, shift=st.integers(-3, 3),
       ends=st.sampled_from([("clamp", "clamp"), ("AE", "DE"), ("clamp", "DE")]),
       round_=st.sampled_from(["defender", "attacker"]))
def test_better_odds_never_give_a_lower_column(a, b, shift, ends, round_):
    form = _form(below=ends[0], above=ends[1], round=round_)
    low, high = sorted((a, b))
    assert _rank(form, low, shift) <= _rank(form, high, shift)
    assert _rank(form, low, shift) <= _rank(form, low, shift + 1)


@settings(max_examples=300, deadline=None)
@given(value=_ratios)
def test_defender_rounding_never_above_the_odds(value):
    """The column found in the defender's favour is never better than the odds; the
    attacker's never worse (both inside the table)."""
    cols = [column_value("odds", c) for c in _form().columns]
    down = find_column(_form(), value, "x")
    up = find_column(_form(round="attacker"), value, "x")
    if down.index is not None and cols[0] <= value <= cols[-1]:
        assert cols[down.index] <= value
    if up.index is not None and cols[0] <= value <= cols[-1]:
        assert cols[up.index] >= value


@settings(max_examples=60, deadline=None)
@given(attacker=st.text(alphabet="gs0123456789@,; x", max_size=14),
       defender=st.text(alphabet="gs0123456789@,; x", max_size=10),
       hex_=st.text(alphabet="0123456789x", max_size=5))
def test_the_combat_query_answers_or_refuses_in_one_line(attacker, defender, hex_):
    folder = Path(__file__).parent.parent / "fixtures" / "games" / "corps"
    result = CliRunner().invoke(main, ["lookup", str(folder), "combat", f"attacker={attacker}",
                                       f"defender={defender}", f"hex={hex_}", "roll=3"])
    assert result.exit_code in (0, 2), result.output
    assert "Traceback" not in result.output
    if result.exit_code == 2:
        assert len([line for line in result.output.splitlines() if line.strip()]) == 1


def test_reduced_units_fight_with_their_back(cli_json, cli_refused, corps_game):
    path = corps_game / "units.yaml"
    text = path.read_text(encoding="utf-8")
    old = "stats: {attack: 6, defence: 4, move: 6}, rule: \"3.1\"}"
    assert old in text
    path.write_text(text.replace(old, "stats: {attack: 6, defence: 4, move: 6},\n"
                                 "     back: {attack: 3, defence: 2}, rule: \"3.1\"}", 1),
                    encoding="utf-8")
    full = cli_json("lookup", str(corps_game), "combat", "attacker=g1,g2", "defender=s3",
                    "hex=0805", "roll=1")
    half = cli_json("lookup", str(corps_game), "combat", "attacker=g1,g2", "defender=s3",
                    "hex=0805", "reduced=g1", "roll=1")
    assert (full["result"]["attack"], half["result"]["attack"]) == (11, 8)
    assert half["result"]["column"] == "4-1"
    line = cli_refused("lookup", str(corps_game), "combat", "attacker=g2", "defender=s3",
                       "hex=0805", "reduced=g2", "roll=1")
    assert "reduced 'g2'" in line and "no reduced face" in line
    line = cli_refused("lookup", str(corps_game), "combat", "attacker=g1", "defender=s3",
                       "hex=0805", "reduced=s1", "roll=1")
    assert "reduced 's1' is neither an attacker nor a defender" in line

"""Declarative checks (``checks:``): each passes on the starting game and FAILs, naming the
check, the counterexample and the file:line at fault, when the data breaks it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from data_edits import loaded
from warpress.cli import main
from warpress.engine.loader import load_game
from warpress.starter.new import new_game
from warpress.verify.data import check_folder
from warpress.verify.declared import EXHAUSTIVE, declared_invariants
from warpress.verify.invariants import invariants_for, run


@pytest.fixture
def starter(tmp_path: Path) -> Path:
    return new_game(str(tmp_path / "bfm")).folder


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def outcomes(folder: Path) -> dict:
    game = loaded(folder)  # as the checks meet it, whatever the data checks say
    return {inv.name: run(inv, game) for inv in declared_invariants(game)}


def line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                if text in line)


NAMES = ["weather-covers-the-die", "more-attack-never-worse", "every-column-in-play"]


def test_the_starting_games_checks_all_pass(starter):
    found = outcomes(starter)
    assert list(found) == NAMES
    assert all(o.passed for o in found.values()), {k: o.counterexample for k, o in found.items()}


def test_verify_runs_them_beside_the_python_invariants(starter):
    game = load_game(str(starter))
    assert [inv.name for inv in invariants_for(game)][-3:] == NAMES
    result = CliRunner().invoke(main, ["verify", str(starter)])
    assert result.exit_code == 0, result.output
    assert re.search(r"PASS  7\.1, 7\.2 more-attack-never-worse: more attack never gives a "
                     r"worse result \(crt, odds\)", result.output)


def test_covers_dice_fails_when_a_face_of_the_die_has_no_row(starter):
    tables = starter / "tables.yaml"
    edit(tables, "kind: roll, min: 1, max: 6}", "kind: roll, min: 1, max: 5}")
    edit(tables, '{roll: "5-6", weather: rain}', "{roll: 5, weather: rain}")
    assert check_folder(str(starter)).ok  # the rows cover the key's 1-5: only the die is short
    outcome = outcomes(starter)["weather-covers-the-die"]
    assert not outcome.passed
    assert (f"check weather-covers-the-die ({starter}/checks.yaml:"
            f"{line_of(starter / 'checks.yaml', '- id: weather')}): table weather "
            f"({tables}:{line_of(tables, '- id: weather')}), every input: no row for d6 6 "
            "(chances total 5/6)") in outcome.counterexample


def test_covers_dice_fails_when_two_rows_match_a_face(starter):
    tables = starter / "tables.yaml"
    edit(tables, '{roll: "5-6", weather: rain}', '{roll: "5-6", weather: rain}\n'
                 '      - {roll: "6+", weather: rain}')
    outcome = outcomes(starter)["weather-covers-the-die"]
    assert not outcome.passed  # verify --data reports it too; the check names the rows
    rain, again = line_of(tables, '"5-6", weather'), line_of(tables, '"6+", weather')
    assert f"more than one row for 6 ({tables}:{rain}, {tables}:{again})" in \
        outcome.counterexample


def test_monotone_fails_when_a_stronger_column_is_worse(starter):
    tables = starter / "tables.yaml"
    edit(tables, "1: [EX, DR, DR, DRL, DRL, DE, DE]", "1: [EX, DR, DR, EX, DRL, DE, DE]")
    outcome = outcomes(starter)["more-attack-never-worse"]
    assert not outcome.passed
    crt = f"{tables}:{line_of(tables, '1: [EX, DR, DR, EX')}"  # a cell: its grid line
    assert (f"table crt, roll=1: odds=2-1 gives DR ({crt}) but the stronger odds=3-1 gives EX "
            f"({crt}), worse for the attacker (order, worst to best: AR, EX, DR, DRL, DE)"
            ) in outcome.counterexample
    assert "Failing explicit example" not in outcome.counterexample  # the message says it


def test_monotone_reads_the_order_as_declared(starter):
    """The same table against the reversed order: now every stronger column is worse."""
    edit(starter / "checks.yaml", "order: [AR, EX, DR, DRL, DE]", "order: [DE, DRL, DR, EX, AR]")
    assert not outcomes(starter)["more-attack-never-worse"].passed


def test_monotone_takes_a_plain_table_with_an_int_key(starter):
    (starter / "bombard.yaml").write_text("""
tables:
  - {id: bombard, rule: "7.1", dice: d6, results: [hits],
     keys: [{id: guns, kind: int, min: 1, max: 3}, {id: roll, kind: roll, min: 1, max: 6}],
     rows: [{guns: 1, roll: "1-6", hits: 0}, {guns: 2, roll: "1-6", hits: 1},
            {guns: 3, roll: "1-6", hits: 0}]}
checks:
  - {id: more-guns, kind: monotone, table: bombard, key: guns, order: [0, 1], rule: "7.1"}
""", encoding="utf-8")
    outcome = outcomes(starter)["more-guns"]
    assert not outcome.passed
    assert "guns=2 gives 1" in outcome.counterexample and "guns=3 gives 0" in \
        outcome.counterexample


def test_columns_reachable_fails_on_a_column_no_attack_reaches(starter):
    tables = starter / "tables.yaml"
    edit(tables, 'columns: ["1-2", "1-1", "2-1", "3-1", "4-1", "5-1", "6-1"]',
         'columns: ["1-2", "1-1", "2-1", "3-1", "4-1", "5-1", "6-1", "20-1"]')
    for n in range(1, 7):  # one more result a line for the new column
        text = (starter / "tables.yaml").read_text(encoding="utf-8")
        line = next(x for x in text.splitlines() if x.strip().startswith(f"{n}: ["))
        edit(tables, line, line.replace("]", ", DE]"))
    assert check_folder(str(starter)).ok
    outcome = outcomes(starter)["every-column-in-play"]
    assert not outcome.passed
    assert (f"table crt ({tables}:{line_of(tables, 'method: odds')}): column 20-1 is reached by no "
            "attack of the game's units (attack against defence, before shifts)"
            ) in outcome.counterexample
    assert "6-1 (" in outcome.counterexample  # what is reached is listed


def test_reachable_columns_hold_a_defending_hex_to_its_stacking_limit(starter):
    """With South's infantry at attack 4, South's weakest attack (4) against one North
    defender (4) is 1-1; only North's 4 against two South defenders (3 + 2, 3 + 3) is
    1-2: that column is reached while a hex holds 2 units, not when it holds 1."""
    from warpress.verify.declared import reachable_columns

    units = starter / "units.yaml"
    text = units.read_text(encoding="utf-8")
    units.write_text(text.replace("stats: {attack: 3, defence: 3", "stats: {attack: 4, "
                                  "defence: 3"), encoding="utf-8")
    game = loaded(starter)
    reached = reachable_columns(game, game.table("crt"))
    assert reached["1-2"] == ("4", "5")  # the first found: 4 against 3 + 2 (4:5)
    assert set(reached) == {"1-2", "1-1", "2-1", "3-1", "4-1", "5-1", "6-1"}
    edit(starter / "terrain.yaml", "limit: 2,", "limit: 1,")
    game = loaded(starter)
    assert set(reachable_columns(game, game.table("crt"))) == {
        "1-1", "2-1", "3-1", "4-1", "5-1", "6-1"}


def test_verify_exits_1_with_the_fail_line(starter):
    edit(starter / "checks.yaml", "order: [AR, EX, DR, DRL, DE]", "order: [DE, DRL, DR, EX, AR]")
    result = CliRunner().invoke(main, ["verify", str(starter)])
    assert result.exit_code == 1, result.output
    assert "FAIL  7.1, 7.2 more-attack-never-worse:" in result.output
    assert "4 PASS, 1 FAIL" in result.output


@pytest.mark.parametrize("old, new, message", [
    ("key: odds ", "key: column ", "checks[more-attack-never-worse]: key 'column' is not a key "
     "of table 'crt' (roll, odds)"),
    ("order: [AR, EX, DR, DRL, DE]", "order: [AR, EX, DR, DE]",
     "checks[more-attack-never-worse]: result 'DRL' ("),
    ("table: weather", "table: wether", "checks[weather-covers-the-die]: table 'wether' does "
     "not exist"),
    ("kind: columns-reachable\n    table: crt", "kind: columns-reachable\n    table: weather",
     "checks[every-column-in-play]: table 'weather' has no crt: form"),
    ("kind: covers-dice", "kind: covers-die", "checks[weather-covers-the-die].kind"),
    ("    order:", "    ordr:", "unknown key 'ordr'"),
])
def test_a_check_that_cannot_run_is_a_data_problem(starter, old, new, message):
    edit(starter / "checks.yaml", old, new)
    result = CliRunner().invoke(main, ["verify", str(starter), "--data"])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert re.search(rf"{re.escape(str(starter))}/checks\.yaml:\d+: ", result.output)


def test_a_small_domain_is_checked_case_by_case(starter):
    """Every (roll, column step) of the 6x7 CRT is an explicit example: a single bad cell is
    found whatever hypothesis draws, even with one example of budget."""
    tables = starter / "tables.yaml"
    edit(tables, "6: [AR, AR, AR, AR, AR, EX, DR]", "6: [AR, AR, AR, AR, AR, EX, AR]")
    game = load_game(str(starter))
    inv = next(i for i in declared_invariants(game) if i.name == "more-attack-never-worse")
    assert 6 * 6 <= EXHAUSTIVE
    outcome = run(inv, game, examples=1)
    assert not outcome.passed and "roll=6: odds=5-1 gives EX" in outcome.counterexample

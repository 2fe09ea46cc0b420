"""Declarative checks (``checks:``): each passes on the starting game and FAILs, naming the
check, the counterexample and the file:line at fault, when the data breaks it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
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
    game = load_game(str(folder))
    return {inv.name: run(inv, game) for inv in declared_invariants(game)}


def line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                if text in line)


def test_the_starting_games_checks_all_pass(starter):
    found = outcomes(starter)
    assert set(found) == {"stacking-at-setup", "crt-covers-the-die", "more-attack-never-worse"}
    assert all(o.passed for o in found.values()), {k: o.counterexample for k, o in found.items()}


def test_verify_runs_them_beside_the_python_invariants(starter):
    game = load_game(str(starter))
    names = [inv.name for inv in invariants_for(game)]
    assert names[-3:] == ["stacking-at-setup", "crt-covers-the-die", "more-attack-never-worse"]
    result = CliRunner().invoke(main, ["verify", str(starter)])
    assert result.exit_code == 0, result.output
    assert re.search(r"PASS  7\.1, 7\.2 more-attack-never-worse: more attack never gives a "
                     r"worse result \(crt, odds\)", result.output)


def test_stacking_fails_on_a_third_unit_in_a_hex(starter):
    edit(starter / "units.yaml", '{unit: n3, where: "0603"}', '{unit: n3, where: "0302"}')
    outcome = outcomes(starter)["stacking-at-setup"]
    assert not outcome.passed
    units = starter / "units.yaml"
    text = outcome.counterexample
    assert "('standard', '0302')" in text  # hypothesis' counterexample
    assert "check stacking-at-setup" in text and f"{starter}/checks.yaml:" in text
    assert "hex 0302 holds 3 units at set-up" in text
    assert f"n3 ({units}:{line_of(units, 'unit: n3')})" in text
    assert "the limit is 2 (constant stacking-limit)" in text


def test_stacking_counts_a_placements_count(starter):
    edit(starter / "units.yaml", '{unit: n4, where: "0503"}',
         '{unit: n4, where: "0503", count: 3}')
    edit(starter / "units.yaml", "count: 1, steps: 2,\n     stats: {attack: 6",
         "count: 3, steps: 2,\n     stats: {attack: 6")
    outcome = outcomes(starter)["stacking-at-setup"]
    assert not outcome.passed and "hex 0503 holds 3 units" in outcome.counterexample


def test_covers_dice_fails_when_a_face_of_the_die_has_no_row(starter):
    tables = starter / "tables.yaml"
    edit(tables, "kind: roll, min: 1, max: 6}", "kind: roll, min: 1, max: 5}")
    edit(tables, '{odds: "6-1", roll: "5-6", result: DR}', '{odds: "6-1", roll: 5, result: DR}')
    for row in ('{odds: "4-1", roll: 6, result: AR}\n', '{odds: "5-1", roll: 6, result: EX}\n'):
        edit(tables, "      - " + row, "")
    assert check_folder(str(starter)).ok  # the rows cover the key's 1-5: only the die is short
    outcome = outcomes(starter)["crt-covers-the-die"]
    assert not outcome.passed
    assert "{'odds': '4-1'}" in outcome.counterexample  # 1-2..3-1 end in open rows (5+)
    assert (f"table crt ({tables}:{line_of(tables, '- id: crt')}), odds=4-1: no row for d6 6 "
            "(chances total 5/6)") in outcome.counterexample


def test_monotone_fails_when_a_stronger_column_is_worse(starter):
    tables = starter / "tables.yaml"
    edit(tables, '{odds: "3-1", roll: 1, result: DRL}', '{odds: "3-1", roll: 1, result: EX}')
    outcome = outcomes(starter)["more-attack-never-worse"]
    assert not outcome.passed
    weak, strong = line_of(tables, '"2-1", roll: "1-2"'), line_of(tables, '"3-1", roll: 1,')
    assert (f"table crt, roll=1: odds=2-1 gives DR ({tables}:{weak}) but the stronger "
            f"odds=3-1 gives EX ({tables}:{strong}), worse for the attacker (order, worst to "
            "best: AR, EX, DR, DRL, DE)") in outcome.counterexample


def test_monotone_reads_the_order_as_declared(starter):
    """The same table against the reversed order: now every stronger column is worse."""
    edit(starter / "checks.yaml", "order: [AR, EX, DR, DRL, DE]", "order: [DE, DRL, DR, EX, AR]")
    assert not outcomes(starter)["more-attack-never-worse"].passed


def test_verify_exits_1_with_the_fail_line(starter):
    edit(starter / "units.yaml", '{unit: n3, where: "0603"}', '{unit: n3, where: "0302"}')
    result = CliRunner().invoke(main, ["verify", str(starter)])
    assert result.exit_code == 1, result.output
    assert "FAIL  4.1, 6.2 stacking-at-setup:" in result.output
    assert "hex 0302 holds 3 units" in result.output
    assert "4 PASS, 1 FAIL" in result.output


@pytest.mark.parametrize("old, new, message", [
    ("key: odds ", "key: column ", "checks[more-attack-never-worse]: key 'column' is not a key "
     "of table 'crt' (odds, roll)"),
    ("order: [AR, EX, DR, DRL, DE]", "order: [AR, EX, DR, DE]",
     "checks[more-attack-never-worse]: result 'DRL' ("),
    ("limit: stacking-limit", "limit: stack-limit", "checks[stacking-at-setup]: limit "
     "'stack-limit' is neither a number nor a constant id"),
    ("limit: stacking-limit", "limit: 0", "limit 0 is not a whole number of units"),
    ("table: crt\n    rule: \"7.2\"", "table: crtt\n    rule: \"7.2\"",
     "checks[crt-covers-the-die]: table 'crtt' does not exist"),
    ("kind: covers-dice", "kind: covers-die", "checks[crt-covers-the-die].kind"),
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
    edit(tables, '{odds: "6-1", roll: "5-6", result: DR}', '{odds: "6-1", roll: 5, result: DR}')
    edit(tables, '{odds: "5-1", roll: 6, result: EX}',
         '{odds: "5-1", roll: 6, result: EX}\n      - {odds: "6-1", roll: 6, result: AR}')
    game = load_game(str(starter))
    inv = next(i for i in declared_invariants(game) if i.name == "more-attack-never-worse")
    assert 6 * 6 <= EXHAUSTIVE
    outcome = run(inv, game, examples=1)
    assert not outcome.passed and "roll=6: odds=5-1 gives EX" in outcome.counterexample

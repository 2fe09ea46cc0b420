"""`warpress balance` on the command line: a report in text or JSON, progress on stderr,
bad input in one line with exit 2 before any game is played."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from warpress.balance import cluster
from warpress.cli import main
from warpress.games.nightfighter.rules.session import NightfighterReferee
from warpress.starter.new import new_game


@pytest.fixture(scope="module")
def starter(tmp_path_factory) -> str:
    return str(new_game(str(tmp_path_factory.mktemp("cli-balance") / "starter")).folder)


@pytest.fixture(autouse=True)
def _short_scheduler_wait(monkeypatch):
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 1)


def run(*args: str):
    return CliRunner().invoke(main, ["balance", *args])


def test_a_small_run_prints_the_report_and_writes_it_beside_its_results(starter, tmp_path):
    out = tmp_path / "out"
    result = run(starter, "--games", "6", "--seed", "3", "--jobs", "1", "--units", "0",
                 "--out", str(out), "--plots", str(tmp_path / "plots"))
    assert result.exit_code == 0, result.output
    assert "balance of starter (scenario standard): 6 games (seed 3 to 8)" in result.stdout
    assert "north wins" in result.stdout and "95 % Wilson intervals" in result.stdout
    assert "balance: 6/6 games" in result.stderr and "left" in result.stderr
    assert sorted(p.name for p in out.iterdir()) == ["report.json", "report.txt",
                                                     "results.jsonl"]
    assert (tmp_path / "plots" / "win-rates.png").exists()
    again = run(starter, "--games", "6", "--seed", "3", "--jobs", "1", "--units", "0",
                "--out", str(out), "--json")
    assert again.exit_code == 0
    assert "6 of 6 games already in" in again.stderr
    assert json.loads(again.stdout) == json.loads((out / "report.json").read_text())


@pytest.mark.parametrize("args, message", [
    (["--agents", "north=clever"], "unknown agent 'clever'"),
    (["--agents", "west=random"], "no side 'west'"),
    (["--vary", "unit.n4.speed=1..3"], "no stat 'speed'"),
    (["--vary", "unit.n4.attack=1...3"], "does not parse"),
    (["--vary", "nonsense"], "expected KEY=RANGE"),
    (["--games", "0"], "--games"),
    (["--max-turns", "0"], "--max-turns"),
    (["--units", "1", "--only-units", "zz9"], "--only-units 'zz9'"),
    (["--scheduler", "tcp://127.0.0.1:9"], "--scheduler 'tcp://127.0.0.1:9'"),
])
def test_bad_input_is_one_line_and_exit_2_before_any_game(starter, tmp_path, args, message):
    out = tmp_path / "out"
    result = run(starter, "--games", "3", "--out", str(out), *args)
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and message in lines[0], result.output
    assert "Traceback" not in result.output
    assert not out.exists()


def test_an_unknown_game_is_one_line(tmp_path):
    result = run(str(tmp_path / "no-such-game"), "--games", "2")
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1


def test_an_out_or_plots_folder_that_cannot_be_made_is_one_line(starter, tmp_path):
    a_file = tmp_path / "a-file"
    a_file.write_text("not a folder")
    for option in ("--out", "--plots"):
        result = run(starter, "--games", "2", "--out", str(tmp_path / "out"), option,
                     str(a_file))
        assert result.exit_code == 2, result.output
        assert f"{option} '{a_file}' cannot be made a folder" in result.output
        assert len(result.output.strip().splitlines()) == 1


def test_an_agent_that_looks_ahead_in_a_game_it_cannot_search_is_one_line(tmp_path,
                                                                          monkeypatch):
    """A game that hides part of the position and whose rules cannot draw it from what a
    side has seen (here Nightfighter's, its ``determinise`` taken away): only the random
    agent plays it, said before any game is played."""
    monkeypatch.setattr(NightfighterReferee, "determinise", None)
    out = tmp_path / "out"
    result = run("nightfighter", "--games", "2", "--out", str(out), "--agents",
                 "defender=greedy")
    assert result.exit_code == 2, result.output
    assert result.output.count("\n") == 1 and "only the random agent plays it" in result.output
    assert not out.exists()
    played = CliRunner().invoke(main, ["play", "new", "nightfighter", "--agent",
                                       "defender=mcts", "--session", str(tmp_path / "s")])
    assert played.exit_code == 2 and "only the random agent" in played.output
    assert not (tmp_path / "s").exists()

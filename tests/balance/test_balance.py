"""A balance run end to end (balance/balance.py with run.py and report.py): the same
report whatever the number of processes, a stopped run that goes on, rule holes reported
with a session that replays them, bad input before any game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from warpress.balance import run as runs
from warpress.balance.balance import Options, execute, finish, prepare
from warpress.balance.report import text
from warpress.engine import session as sessions
from warpress.engine.errors import BadInput
from warpress.engine.play.game import HexRules
from warpress.games.axis_allies.rules import invariants as aa_invariants
from warpress.starter.new import new_game


@pytest.fixture(scope="module")
def starter(tmp_path_factory) -> str:
    return str(new_game(str(tmp_path_factory.mktemp("balance") / "starter")).folder)


def report_of(options: Options) -> dict:
    plan = prepare(options)
    return finish(plan, execute(plan))


def test_the_report_is_the_same_on_one_process_or_two(starter, tmp_path):
    one = report_of(Options(starter, games=8, seed=5, jobs=1, units=1,
                            out=str(tmp_path / "one")))
    two = report_of(Options(starter, games=8, seed=5, jobs=2, units=1,
                            out=str(tmp_path / "two")))
    assert one == two
    assert (tmp_path / "one" / "report.json").read_bytes() == \
        (tmp_path / "two" / "report.json").read_bytes()
    assert one["games"] == 8 and set(one["outcome"]["wins"]) == {"north", "south"}
    counted = sum(r["count"] for r in one["outcome"]["wins"].values())
    assert counted + one["outcome"]["draws"]["count"] + one["outcome"]["undecided"]["count"] == 8
    assert len(one["units"]) == len(prepare(Options(starter, games=8, seed=5, units=1,
                                                    out=str(tmp_path / "one"))).run[
        "restricted"])
    assert one["notable"]["longest"][0]["replay"].startswith("warpress play new ")


def test_a_stopped_run_goes_on_from_its_results(starter, tmp_path):
    whole = report_of(Options(starter, games=10, seed=3, jobs=1, units=0,
                              out=str(tmp_path / "whole")))
    results = tmp_path / "part" / runs.RESULTS
    plan = prepare(Options(starter, games=10, seed=3, jobs=1, units=0, out=str(tmp_path / "part")))
    runs.append_results(results, [runs.play_one(plan.jobs[0][0], s) for s in (3, 4, 5, 6)])
    with results.open("a") as f:
        f.write('{"variant": "base", "seed": 7, "stop')  # a line cut off by the interruption
    again = prepare(Options(starter, games=10, seed=3, jobs=1, units=0,
                            out=str(tmp_path / "part")))
    assert len(again.done) == 4
    played = []
    records = execute(again, lambda done, total, fresh: played.append((done, total, fresh)))
    assert played[-1] == (10, 10, 6)
    assert finish(again, records) == whole
    with pytest.raises(BadInput, match="holds the results of another run"):
        prepare(Options(starter, games=11, seed=3, jobs=1, units=0, out=str(tmp_path / "part")))


def test_a_broken_invariant_is_reported_with_a_session_that_replays_it(starter, tmp_path,
                                                                      monkeypatch):
    def broken(game, before, action, after):
        return ["a test's broken rule"] if before is not None and before.turn == 2 else []

    monkeypatch.setattr(runs, "broken", broken)
    report = report_of(Options(starter, games=2, seed=1, jobs=1, units=0,
                               out=str(tmp_path / "out")))
    problem = report["problems"][0]
    assert problem["stopped"] == "broken" and problem["problem"] == "a test's broken rule"
    assert problem["rule"] and problem["phase"] and problem["turn"] == 2
    folder = Path(problem["session"])
    replayed = sessions.replay(folder)
    assert replayed.ok and replayed.n == problem["steps"]
    assert "a test's broken rule" in (tmp_path / "out" / "report.txt").read_text()


def test_an_exception_in_the_rules_is_a_problem_not_a_crash(starter, tmp_path, monkeypatch):
    real = HexRules.apply

    def apply(self, game, position, command, args, dice):
        if command == "end" and position.turn == 2:
            raise ZeroDivisionError("a hole in the rules of turn 2")
        return real(self, game, position, command, args, dice)

    monkeypatch.setattr(HexRules, "apply", apply)
    report = report_of(Options(starter, games=1, seed=1, jobs=1, units=0,
                               out=str(tmp_path / "out")))
    errors = [p for p in report["problems"] if p["stopped"] == "error"]
    assert errors and "ZeroDivisionError: a hole in the rules of turn 2" in errors[0]["problem"]
    assert errors[0]["turn"] == 2
    assert sessions.replay(Path(errors[0]["session"])).n == errors[0]["steps"]


@pytest.mark.parametrize("change, message", [
    ({"agents": ["north=clever"]}, "unknown agent 'clever'"),
    ({"agents": ["east=random"]}, "no side 'east'"),
    ({"vary": ["unit.n4.attack=9..1"]}, "is empty"),
    ({"vary": ["unit.n4.luck=1..2"]}, "no stat 'luck'"),
    ({"games": 0}, "--games 0"),
    ({"scenario": "winter"}, "scenario 'winter'"),
    ({"only_units": ["zz9"]}, "--only-units 'zz9': no piece"),
    ({"max_turns": 0}, "--max-turns 0"),
])
def test_bad_input_is_refused_before_any_game(starter, tmp_path, change, message):
    out = tmp_path / "out"
    with pytest.raises(BadInput, match=message):
        prepare(Options(starter, out=str(out), **change))
    assert not out.exists()


def test_a_sweep_gives_a_win_rate_at_each_value(starter, tmp_path):
    report = report_of(Options(starter, games=4, seed=1, jobs=1, units=0,
                               vary=["unit.n4.attack=2,8"], out=str(tmp_path / "out")))
    sweep = report["sweeps"][0]
    assert sweep["key"] == "unit.n4.attack" and [p["value"] for p in sweep["points"]] == [2, 8]
    assert all(sum(r["games"] for r in [p["draws"]]) == 4 for p in sweep["points"])
    saved = json.loads((tmp_path / "out" / "report.json").read_text())
    assert saved == report


def test_an_alliance_wins_as_one_and_the_rules_own_invariants_are_checked(tmp_path,
                                                                         monkeypatch):
    """Axis & Allies: its verdicts name an alliance, so the report counts the alliances'
    wins and the places each alliance held; a step that breaks the game's own invariants
    (rules.broken) is a problem like one that breaks the engine's."""
    plan = prepare(Options("axis-allies", games=1, seed=4, jobs=1, units=0,
                           out=str(tmp_path / "whole")))
    alliances = plan.run["sides"]
    assert sorted(alliances) == ["allies", "axis"]
    record = runs.play_one(plan.jobs[0][0], 4)
    assert set(record["control"]["1"].values()) <= {*alliances, "neutral"}
    report = finish(plan, [record])
    assert set(report["outcome"]["wins"]) == set(alliances)
    if record["winner"] is not None:
        assert report["outcome"]["wins"][record["winner"]]["count"] == 1

    def broken(game, before, action, after):
        return ["a test's broken rule"] if before is not None and before.turn == 2 else []

    monkeypatch.setattr(aa_invariants, "broken", broken)
    problem = report_of(Options("axis-allies", games=1, seed=4, jobs=1, units=0,
                                out=str(tmp_path / "broken")))["problems"][0]
    assert problem["stopped"] == "broken" and problem["problem"] == "a test's broken rule"
    assert problem["turn"] == 2


def test_a_replay_names_an_agent_only_for_the_sides_that_decide(tmp_path):
    report = report_of(Options("nimitz", games=1, seed=2, jobs=1, units=0,
                               out=str(tmp_path / "nimitz")))
    replay = report["notable"]["longest"][0]["replay"]
    assert "--agent us=random" in replay and "japan=" not in replay


def test_a_turn_cap_is_reported_and_restricted_play_may_take_a_few_units(starter, tmp_path):
    report = report_of(Options(starter, games=3, seed=1, jobs=1, units=2, only_units=["n4"],
                               max_turns=1, out=str(tmp_path / "out")))
    assert report["stopped"] == {"turn-cap": 3}
    assert report["outcome"]["undecided"]["count"] == 3
    assert "stopped early: turn cap 3" in text(report)
    variants = [u["variant"] for u in report["units"]]
    assert variants and all(v.endswith(" n4") for v in variants)

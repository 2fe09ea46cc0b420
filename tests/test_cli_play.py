"""``warpress play`` through click's CliRunner: a session of the starting game made, shown,
its legal moves listed, actions taken and refused with their exit codes, undone, logged and
replayed; the actions come from what the game declares."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from warpress.cli import main
from warpress.starter.new import new_game


def run(*args: str, env=None):
    return CliRunner().invoke(main, list(args), env=env)


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> str:
    return str(new_game(str(tmp_path_factory.mktemp("cli-play") / "starter")).folder)


@pytest.fixture
def session(game, tmp_path) -> str:
    folder = str(tmp_path / "s")
    result = run("play", "new", game, "--seed", "5", "--session", folder)
    assert result.exit_code == 0, result.output
    return folder


def status(session: str) -> dict:
    result = run("play", "status", "--json", "--session", session)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_new_shows_the_position(game, tmp_path):
    result = run("play", "new", game, "--seed", "5", "--session", str(tmp_path / "s"))
    assert result.exit_code == 0
    assert "seed 5" in result.output and "turn 1 of 7" in result.output
    assert "phase North movement (north acts)" in result.output
    assert "n1: side north, where 0302" in result.output


def test_moves_lists_legal_answers_as_commands(session):
    result = run("play", "moves", "n4", "--session", session)
    assert result.exit_code == 0
    assert "move n4 0504  (1 MP)" in result.output
    data = json.loads(run("play", "moves", "--json", "--session", session).output)
    actions = [a for o in data["options"] for a in o["actions"]]
    assert {"action": "end", "args": {}, "command": "end"} in actions
    assert all(a["command"].startswith(a["action"]) for a in actions)


def test_a_move_and_its_refusals(session):
    ok = run("play", "move", "n4", "0504", "--session", session)
    assert ok.exit_code == 0 and "n4 moves 0503 -> 0504 (1 MP)" in ok.output
    again = run("play", "move", "n4", "0505", "--session", session)
    assert again.exit_code == 1 and "n4 has moved this phase (rule 6.1)" in again.output
    far = run("play", "move", "n1", "0808", "--session", session)
    assert far.exit_code == 1 and "rule 6.1" in far.output
    off = run("play", "move", "n1", "9999", "--session", session)
    assert off.exit_code == 2 and "'9999' is not a hex of the map" in off.output
    wrong = run("play", "attack", "0506", "n4", "--session", session)
    assert wrong.exit_code == 1 and "not allowed in phase North movement" in wrong.output
    assert status(session)["pieces"][3]["where"] == "0504"


def test_undo_takes_back_the_last_action(session):
    run("play", "move", "n4", "0504", "--session", session)
    result = run("play", "undo", "--session", session)
    assert result.exit_code == 0 and "back to command 0" in result.output
    view = status(session)
    assert next(p for p in view["pieces"] if p["id"] == "n4")["where"] == "0503"
    nothing = run("play", "undo", "--session", session)
    assert nothing.exit_code == 2 and "nothing to undo" in nothing.output


def test_log_and_replay(session):
    run("play", "move", "n4", "0504", "--session", session)
    run("play", "move", "n4", "0505", "--session", session)        # refused, logged
    run("play", "undo", "--session", session)
    run("play", "move", "n2", "0402", "--session", session)
    log = run("play", "log", "--session", session).output.splitlines()
    assert "new " in log[0] and log[1].endswith("1 move n4 0504")
    assert "REFUSED: n4 has moved this phase (rule 6.1)" in log[2]
    assert "undo: back to command 0" in log[3]
    replay = run("play", "replay", "--session", session)
    assert replay.exit_code == 0 and "replayed 1 command(s): every state matches" in \
        replay.output


def test_actions_come_from_the_game(game, session):
    listed = run("play", "actions", game)
    assert listed.exit_code == 0 and "move UNIT HEX [PATH]" in listed.output
    unknown = run("play", "fly", "n1", "--session", session)
    assert unknown.exit_code == 2 and "unknown command 'fly' for starter (commands: move," in \
        unknown.output
    lost = run("play", "move", "n1", "0402")
    assert lost.exit_code == 2 and "--session DIR is required" in lost.output


def test_the_environment_names_the_session(session):
    result = run("play", "move", "n4", "0504", env={"WARPRESS_SESSION": session})
    assert result.exit_code == 0


def test_referee_is_the_same_command(session):
    result = run("referee", "status", "--session", session)
    assert result.exit_code == 0 and "North movement" in result.output


def test_json_of_an_action(session):
    result = run("play", "move", "n4", "0504", "--json", "--session", session)
    data = json.loads(result.output)
    assert data["command"] == "move" and data["args"] == {"unit": "n4", "hex": "0504"}
    assert data["announcements"][0]["rules"] == ["5.1"] or data["announcements"][0]["rules"]


def test_a_whole_game_through_the_command_line(game, tmp_path):
    folder = str(tmp_path / "whole")
    run("play", "new", game, "--seed", "11", "--session", folder)
    for _ in range(200):
        view = status(folder)
        if view["over"]:
            break
        moves = json.loads(run("play", "moves", "--json", "--session", folder).output)
        actions = [a for o in moves["options"] for a in o["actions"]]
        pick = next((a for a in actions if a["action"] != "end"), actions[-1]) \
            if len(actions) < 3 else actions[-1]
        result = run("play", *pick["command"].split(), "--session", folder)
        assert result.exit_code == 0, result.output
    assert status(folder)["over"]
    assert Path(folder, "log.jsonl").is_file()
    assert run("play", "replay", "--session", folder).exit_code == 0


def test_status_draws_the_map(session, tmp_path):
    picture = tmp_path / "now.png"
    result = run("play", "status", "--session", session, "--map", str(picture))
    assert result.exit_code == 0, result.output
    assert picture.read_bytes()[:4] == b"\x89PNG"
    bad = run("play", "status", "--session", session, "--map", str(tmp_path / "now.gif"))
    assert bad.exit_code == 2 and "must end in .svg or .png" in bad.output


# --- agents in a session ---------------------------------------------------------------------


def test_an_agent_plays_a_side_after_each_command(game, tmp_path):
    folder = str(tmp_path / "s")
    new = run("play", "new", game, "--seed", "5", "--agent", "south=greedy", "--session", folder)
    assert new.exit_code == 0, new.output
    assert status(folder)["acting"] == "north", "north is the person's: the agent waits"
    ended = run("play", "end", "--session", folder)
    assert ended.exit_code == 0, ended.output
    assert "south (greedy): " in ended.output
    log = run("play", "log", "--session", folder).output
    assert "--agent south=greedy" in log.splitlines()[0]
    assert "(agent greedy)" in log and "1 end  (agent" not in log
    assert run("play", "replay", "--session", folder).exit_code == 0


def test_finish_lets_agents_end_the_game(session):
    result = run("play", "finish", "--agent", "north=random", "--agent", "south=random",
                 "--session", session)
    assert result.exit_code == 0, result.output
    assert "north (random): " in result.output and "game over" in result.output
    assert status(session)["over"]
    log = run("play", "log", "--session", session).output
    assert log.count("(agent random)") == len(log.splitlines()) - 2   # the header, the head
    assert run("play", "replay", "--session", session).exit_code == 0


@pytest.mark.parametrize("args, message", [
    (["finish", "--agent", "south=random"], "north decides now and has no agent"),
    (["finish", "--agent", "north=wise"], "unknown agent 'wise'"),
    (["finish", "--agent", "east=random"], "no side 'east'"),
])
def test_finish_refuses_bad_agents_in_one_line(session, args, message):
    result = run("play", *args, "--session", session)
    assert result.exit_code == 2, result.output
    assert message in result.output and len(result.output.strip().splitlines()) == 1


def test_new_refuses_a_bad_agent_before_making_the_session(game, tmp_path):
    result = run("play", "new", game, "--agent", "south", "--session", str(tmp_path / "s"))
    assert result.exit_code == 2 and "expected SIDE=AGENT" in result.output
    assert not (tmp_path / "s").exists()

"""`warpress referee ...` on the Nightfighter referee, with CliRunner: a session played from
the command line, refusals, bad input, maps, reveal, replay and a hand-edited state."""

from __future__ import annotations

import base64
import json
import os
import re
from pathlib import Path

import pytest
from nf_helpers import next_command


def _argv(command: str, args: dict) -> list[str]:
    """The command line of a referee command given as the session args."""
    argv = [command]
    argv += [str(args[k]) for k in ("fighter", "counter") if k in args]
    argv += [str(args[k]) for k in ("path", "hex") if k in args and command != "move"]
    if command == "move":
        argv.append(args["path"])
        if "hex" in args:
            argv += ["--enter", args["hex"], "--facing", str(args["facing"])]
    if args.get("leave_map"):
        argv.append("--leave-map")
    return argv


def _log(where: Path) -> list[dict]:
    return [json.loads(x) for x in (where / "log.jsonl").read_text().splitlines()]


def _game_part(where: Path) -> dict:
    """The game state in state.json (not the log anchor, which every logged line moves)."""
    record = json.loads((where / "state.json").read_text())
    return {k: record[k] for k in ("n", "state", "state_sha256")}


@pytest.fixture
def where(cli, tmp_path: Path) -> Path:
    out = cli("referee", "new", "nightfighter", "--scenario", "kammhuber-line", "--seed", "11",
              "--session", str(tmp_path / "s"))
    assert out.exit_code == 0, out.output
    return tmp_path / "s"


@pytest.fixture
def play(game, cli, cli_json):
    """``play(where, n)``: the autopilot's next ``n`` commands typed at the command line."""

    def run(where: Path, commands: int) -> None:
        for _ in range(commands):
            view = cli_json("referee", "status", "--session", str(where))
            command, args = next_command(game, view)
            out = cli("referee", *_argv(command, args), "--session", str(where))
            assert out.exit_code == 0, (command, args, out.output)

    return run


def test_nf_referee_cli_new_shows_the_player_view_only(cli, tmp_path):
    out = cli("referee", "new", "nightfighter", "--seed", "4", "--session", str(tmp_path / "s"))
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert lines[0] == f"session {tmp_path / 's'}: nightfighter, scenario cats-eye, seed 4"
    assert "phase fighter-movement" in lines[1]
    assert "bombers" not in out.output and "he111" not in out.output


def test_nf_referee_cli_a_session_played_from_the_command_line_replays(cli, cli_json, play,
                                                                      where):
    play(where, 25)
    view = cli_json("referee", "status", "--session", str(where))
    assert view["turn"] >= 2
    before = (where / "state.json").read_bytes()
    out = cli("referee", "replay", "--session", str(where))
    assert out.exit_code == 0, out.output
    assert (where / "state.json").read_bytes() == before
    assert [r["type"] for r in _log(where)].count("command") >= 25


def test_nf_referee_cli_an_illegal_move_is_refused_with_its_rule_and_changes_nothing(cli,
                                                                                    where):
    state = _game_part(where)
    out = cli("referee", "move", "201", "L,F,F", "--session", str(where))
    assert out.exit_code == 1
    assert "rule 9.2" in out.output
    assert _game_part(where) == state
    last = _log(where)[-1]
    assert last["result"] == "refused" and last["rule"] == "9.2"


def test_nf_referee_cli_issue_14_repro_a_last_line_without_its_newline_is_kept(cli, where):
    """new, `move 231 F,F`, `move 232 F,F`, `truncate -s -1 log.jsonl`, `log`, `replay`: the
    log keeps 232's move (a complete record is never taken for a torn write)."""
    for fighter in ("231", "232"):
        cli("referee", "move", fighter, "F,F", "--session", str(where))
    log = where / "log.jsonl"
    whole = log.read_bytes()
    os.truncate(log, len(whole) - 1)
    out = cli("referee", "log", "--session", str(where))
    assert out.exit_code == 0, out.output
    assert "move 232 F,F" in out.output.splitlines()[-2]  # then the log's head
    out = cli("referee", "replay", "--session", str(where))
    assert out.exit_code == 0, out.output
    assert log.read_bytes() == whole[:-1]
    assert [r.get("args") for r in _log(where)][-2:] == [{"fighter": "231", "path": "F,F"},
                                                         {"fighter": "232", "path": "F,F"}]


def test_nf_referee_cli_searching_before_every_fighter_moved_is_refused(cli, where):
    out = cli("referee", "search", "freya", "0710", "--session", str(where))
    assert out.exit_code == 1 and "rule 9.0" in out.output


def test_nf_referee_cli_the_log_shows_a_facing_as_everywhere_else(cli, where):
    """The log keeps the facing as typed (``NW``) and prints it as every view does; a facing
    that is none (a refused command) is printed as it was typed."""
    out = cli("referee", "move", "203", "F", "--enter", "1824", "--facing", "nw",
              "--session", str(where))
    assert out.exit_code == 0, out.output
    assert "facing NW (5)" in out.output
    cli("referee", "move", "201", "F,F", "--enter", "1824", "--facing", "Q",
        "--session", str(where))
    lines = [line for line in cli("referee", "log", "--session", str(where)).output.splitlines()
             if " move " in line]
    assert [r.get("args", {}).get("facing") for r in _log(where)][1:] == ["nw", "Q"]
    assert lines[0].endswith("1 move 203 F --facing NW (5) --enter 1824")
    assert "move 201 F,F --facing Q --enter 1824" in lines[1] and "REFUSED" in lines[1]


@pytest.mark.parametrize(("args", "message"), [
    (("move", "999", "F,F"), "warpress: move: no night fighter '999' (have: 201, 202, 203)"),
    (("evade", "F1"), "warpress: evade: no night fighter 'F1' (have: 201, 202, 203)"),
])
def test_nf_referee_cli_bad_input_is_one_line_and_exit_2(cli, where, args, message):
    out = cli("referee", *args, "--session", str(where))
    assert out.exit_code == 2
    assert out.output == message + "\n"


def test_nf_referee_cli_an_unknown_session_is_exit_2(cli, cli_refused, tmp_path):
    args = ("referee", "status", "--session", str(tmp_path / "nowhere"))
    line = cli_refused(*args)
    assert line.startswith("warpress: no referee session in ")
    assert cli(*args).output == line + "\n"     # no blank lines either


def test_nf_referee_cli_maps_and_the_reveal_is_logged(cli, cli_json, where, tmp_path):
    out = cli("referee", "status", "--map", str(tmp_path / "player.svg"), "--session", str(where))
    assert out.exit_code == 0, out.output
    player = (tmp_path / "player.svg").read_text()
    truth = cli_json("referee", "reveal", "--session", str(where))
    assert _log(where)[-1]["type"] == "reveal"
    for bomber in truth["bombers"]:
        assert f'id="bomber-{bomber["id"]}"' not in player
    out = cli("referee", "reveal", "--map", str(tmp_path / "umpire.svg"), "--session", str(where))
    assert out.exit_code == 0, out.output
    umpire = (tmp_path / "umpire.svg").read_text()
    on_map = [b for b in truth["bombers"] if b["status"] == "on-map"]
    assert on_map and all(f'id="bomber-{b["id"]}"' in umpire for b in on_map)
    assert [r["type"] for r in _log(where)].count("reveal") == 2


def test_nf_referee_cli_player_map_as_png(cli, where, tmp_path):
    out = cli("referee", "status", "--map", str(tmp_path / "player.png"), "--session", str(where))
    assert out.exit_code == 0, out.output
    assert (tmp_path / "player.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_nf_referee_cli_a_hand_edited_state_is_detected_and_replay_restores_it(cli, where):
    path = where / "state.json"
    good = path.read_bytes()
    data = json.loads(good)
    blob = bytearray(base64.b64decode(data["state"]))
    blob[len(blob) // 2] ^= 0x01
    data["state"] = base64.b64encode(bytes(blob)).decode()
    path.write_text(json.dumps(data, indent=1))
    out = cli("referee", "status", "--session", str(where))
    assert out.exit_code == 2
    assert "checksum mismatch" in out.output and len(out.output.splitlines()) == 1
    out = cli("referee", "replay", "--session", str(where))
    assert out.exit_code == 0, out.output
    assert path.read_bytes() == good


def test_nf_referee_cli_the_state_file_does_not_show_hidden_positions(cli_json, play, where):
    """After 25 commands typed at the command line (moves, searches, sightings, turns), neither
    state.json nor the log names a bomber, its type, or the hex of an attacker the player has
    not been shown."""
    play(where, 25)
    view = cli_json("referee", "status", "--session", str(where))
    truth = cli_json("referee", "reveal", "--session", str(where))
    log = _log(where)
    assert [r["type"] for r in log].count("command") == 25
    shown = {m["hex"] for m in view["markers"]} | {f["hex"] for f in view["fighters"]}
    shown |= {c["hex"] for c in view["counters"]} | {h for c in view["counters"]
                                                      for h in c["sweeps"]}
    shown |= {s["hex"] for s in view["searchlights"]}
    typed = {r["args"].get("hex") for r in log if r["type"] == "command"}
    hidden = {b["hex"] for b in truth["bombers"] if b["status"] == "on-map"} - shown - typed
    assert hidden, "no attacker on the map is hidden: the hex check below would check nothing"
    text = (where / "state.json").read_text() + (where / "log.jsonl").read_text()
    for hex_id in hidden:   # as a word: quoted, or escaped inside an embedded JSON text
        assert not re.search(rf"\b{hex_id}\b", text), hex_id
    for bomber in truth["bombers"]:
        assert f'"{bomber["id"]}"' not in text
        assert bomber["unit"] not in text


def test_nf_referee_cli_status_json_gives_mp_as_numbers(cli, cli_json, where):
    """A fighter's chart MP is an integer beside this turn's ``mp_max``; the chart's N* (+1 MP
    on asterisked turns, 7.2) is ``mp_asterisk``."""
    for fighter in cli_json("referee", "status", "--session", str(where))["fighters"]:
        assert type(fighter["mp"]) is int and type(fighter["mp_max"]) is int
        assert type(fighter["mp_asterisk"]) is bool
        assert fighter["mp"] <= fighter["mp_max"] <= fighter["mp"] + fighter["mp_asterisk"]

"""`warpress referee ...` with CliRunner, against the hide-and-seek fake referee
(tests/engine/test_session_fake.py; its game folder names it in rules/session.py)."""

from __future__ import annotations

import importlib
import json
import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from warpress.cli import main
from warpress.engine import session

sys.path.insert(0, str(Path(__file__).parent / "engine"))
fake = importlib.import_module("test_session_fake")  # the same module pytest collects


@pytest.fixture
def game(tmp_path: Path) -> str:
    return str(fake.make_game(tmp_path / "games"))


@pytest.fixture
def where(tmp_path: Path) -> str:
    return str(tmp_path / "session")


def run(*args: str, env: dict | None = None):
    return CliRunner().invoke(main, ["referee", *args], env=env)


def _token(where: str) -> int:
    out = run("reveal", "--json", "--session", where)
    assert out.exit_code == 0, out.output
    return int(json.loads(out.output)["bombers"][0]["hex"])


def _lines(where: str) -> list[dict]:
    return [json.loads(x) for x in (Path(where) / "log.jsonl").read_text().splitlines()]


def _game_part(where: str) -> dict:
    """The game state in state.json (not the log anchor, which every logged line moves)."""
    record = json.loads((Path(where) / "state.json").read_text())
    return {k: record[k] for k in ("n", "state", "state_sha256")}


def test_new_prints_the_session_seed_and_the_player_view(game, where):
    out = run("new", game, "--seed", "17", "--session", where)
    assert out.exit_code == 0, out.output
    first = out.output.splitlines()
    assert first[0] == f"session {where}: hideseek, scenario dusk, seed 17"
    assert "hideseek: Dusk, turn 1 of 4, phase search" in first
    assert "you may: search, end-turn" in first
    assert "  turn 1 start: Something hides on the line.  [9.9]" in first
    assert "NIGHTJAR" not in out.output and "bombers" not in out.output


def test_new_with_a_named_scenario_and_json(game, where):
    out = run("new", game, "--scenario", "midnight", "--seed", "2", "--session", where,
              "--json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert (data["seed"], data["scenario"], data["view"]["turns"]) == (2, "midnight", 8)


def test_scenarios_lists_the_default_first(game):
    out = run("scenarios", game)
    assert out.exit_code == 0, out.output
    assert out.output.splitlines() == ["dusk  Dusk  (default)", "midnight  Midnight"]


def test_commands_print_their_announcements_and_the_next_choices(game, where):
    run("new", game, "--seed", "5", "--session", where)
    miss = f"{(_token(where) + 5) % 10:02d}"
    out = run("search", "eye", miss, "--session", where)
    assert out.exit_code == 0, out.output
    assert out.output.splitlines() == [f"turn 1 search: Nothing at {miss}.  [9.9]",
                                       "you may: sight, end-turn"]
    out = run("sight", "--session", where, "--json")
    data = json.loads(out.output)
    assert data["command"] == "sight" and data["announcements"][0]["text"] == "Cold."
    assert data["view"]["awaiting"] == ["end-turn"]


def test_the_session_comes_from_the_environment(game, where):
    run("new", game, "--seed", "5", "--session", where)
    out = run("end-turn", env={"WARPRESS_SESSION": where})
    assert out.exit_code == 0, out.output
    assert out.output.startswith("turn 2 start: Turn 2 begins.")


def test_finding_the_token_prints_the_summary(game, where):
    run("new", game, "--seed", "8", "--session", where)
    out = run("search", "eye", f"{_token(where):02d}", "--session", where)
    assert out.exit_code == 0, out.output
    assert "game over: won" in out.output.splitlines()
    assert "  found NIGHTJAR on turn 1" in out.output.splitlines()


def test_a_refused_command_exits_1_with_the_rule_and_changes_nothing(game, where):
    run("new", game, "--seed", "5", "--session", where)
    run("search", "eye", "00", "--session", where)
    state = _game_part(where)
    out = run("search", "eye", "01", "--session", where)
    assert out.exit_code == 1
    assert out.output.strip() == "warpress: one search per turn (rule 3.1)"
    assert _game_part(where) == state
    assert _lines(where)[-1]["result"] == "refused"


@pytest.mark.parametrize(("args", "message"), [
    (("search", "eye", "42"), "warpress: unknown hex '42' (hexes: 00-09)"),
    (("search", "ear", "04"), "warpress: unknown counter 'ear' (counters: eye)"),
    (("move", "F1", "F,F,L"), "warpress: unknown command 'move' for hideseek "
                              "(commands: search, sight, end-turn)"),
    (("attack", "F1", "--oblique"), "warpress: unknown command 'attack' for hideseek "
                                    "(commands: search, sight, end-turn)"),
    (("status", "--map", "map.pdf"), "warpress: --map 'map.pdf': the file must end in .svg "
                                     "or .png"),
])
def test_bad_input_exits_2_with_one_line(game, where, args, message):
    run("new", game, "--seed", "5", "--session", where)
    state = _game_part(where)
    out = run(*args, "--session", where)
    assert out.exit_code == 2
    assert out.output.splitlines() == [message]
    assert _game_part(where) == state


def test_an_unknown_session_exits_2(tmp_path):
    out = run("status", "--session", str(tmp_path / "none"))
    assert out.exit_code == 2
    assert out.output.splitlines() == [
        f"warpress: no referee session in {tmp_path / 'none'} (no log.jsonl); start one "
        f"with `warpress referee new GAME --session {tmp_path / 'none'}`"]


def test_a_missing_session_option_exits_2(monkeypatch):
    monkeypatch.delenv("WARPRESS_SESSION", raising=False)
    out = run("sight")
    assert out.exit_code == 2
    assert out.output.splitlines() == ["warpress: --session DIR is required (or set "
                                       "WARPRESS_SESSION)"]


def test_unknown_games_and_games_without_a_referee_exit_2(tmp_path, tiny_game):
    out = run("new", "no-such-game", "--session", str(tmp_path / "a"))
    assert out.exit_code == 2 and out.output.startswith("warpress: unknown game 'no-such-game'")
    out = run("new", str(tiny_game), "--session", str(tmp_path / "b"))
    assert out.exit_code == 2
    assert out.output.startswith("warpress: game 'tiny' cannot be played in a session: it has "
                                 "no `play:` rules")
    assert not (tmp_path / "b").exists()


def test_new_refuses_an_existing_session(game, where):
    run("new", game, "--seed", "5", "--session", where)
    out = run("new", game, "--session", where)
    assert out.exit_code == 2
    assert "already holds a referee session" in out.output


def test_status_writes_the_player_map_and_reveal_the_referee_map(game, where, tmp_path):
    run("new", game, "--seed", "5", "--session", where)
    player, umpire = tmp_path / "player.svg", tmp_path / "umpire.svg"
    out = run("status", "--session", where, "--map", str(player))
    assert out.exit_code == 0, out.output
    assert b'class="token"' not in player.read_bytes()
    assert [r["type"] for r in _lines(where)] == ["session"]
    out = run("reveal", "--session", where, "--map", str(umpire))
    assert out.exit_code == 0, out.output
    assert b'class="token"' in umpire.read_bytes() and "NIGHTJAR" in out.output
    assert _lines(where)[-1]["type"] == "reveal" and _lines(where)[-1]["map"] is True


def test_a_map_format_the_game_cannot_draw_is_refused_before_the_reveal(game, where,
                                                                        tmp_path):
    run("new", game, "--seed", "5", "--session", where)
    out = run("reveal", "--session", where, "--map", str(tmp_path / "m.png"))
    assert out.exit_code == 2
    assert out.output == "warpress: map format 'png': hideseek draws svg only\n"
    assert not (tmp_path / "m.png").exists()
    assert [r["type"] for r in _lines(where)] == ["session"]  # no reveal was shown


def test_status_json_is_the_player_view_only(game, where):
    run("new", game, "--seed", "5", "--session", where)
    out = run("status", "--json", "--session", where)
    view = json.loads(out.output)
    assert view["turn"] == 1 and "bombers" not in view and "NIGHTJAR" not in out.output


def test_log_lists_commands_refusals_and_reveals(game, where):
    run("new", game, "--seed", "5", "--session", where)
    run("search", "eye", "03", "--session", where)
    run("search", "eye", "04", "--session", where)
    run("reveal", "--session", where)
    out = run("log", "--session", where)
    assert out.exit_code == 0, out.output
    *records, head = out.output.splitlines()
    assert re.fullmatch(r"log: 4 lines, head [0-9a-f]{16}", head)
    lines = [line.split("  ", 1)[1] for line in records]
    assert lines[0].startswith(f"new hideseek (folder {Path(game).resolve()}) scenario dusk "
                               f"seed 5")
    assert lines[1].strip() == "1 search eye 03"
    assert lines[2].strip().endswith("REFUSED: one search per turn (rule 3.1)")
    assert lines[3] == "reveal after command 1"


def test_log_prints_a_sealed_argument_as_sealed(game, where, monkeypatch):
    monkeypatch.setattr(fake.HideSeekReferee, "sealed_args", {"search": ("hex",)},
                        raising=False)
    run("new", game, "--seed", "5", "--session", where)
    run("search", "eye", "03", "--session", where)
    out = run("log", "--session", where)
    assert out.exit_code == 0, out.output
    assert out.output.splitlines()[1].split("  ", 1)[1].strip() == "1 search eye (sealed)"
    assert _lines(where)[1]["args"]["hex"].startswith("sealed:")


def test_replay_restores_a_corrupted_state(game, where):
    run("new", game, "--seed", "5", "--session", where)
    run("end-turn", "--session", where)
    before = run("status", "--json", "--session", where).output
    (Path(where) / "state.json").write_text("{broken")
    out = run("status", "--session", where)
    assert out.exit_code == 2 and "state.json: not JSON" in out.output
    out = run("replay", "--session", where)
    assert out.exit_code == 0, out.output
    assert out.output.startswith("replayed 1 command(s): every state matches the log; "
                                 "state.json rewritten (it was: ")
    assert run("status", "--json", "--session", where).output == before


def test_replay_of_an_edited_log_exits_2_and_of_a_rechained_one_exits_1(game, where):
    run("new", game, "--seed", "5", "--session", where)
    run("search", "eye", "03", "--session", where)
    log = Path(where) / "log.jsonl"
    edited = log.read_text().replace('"hex": "03"', '"hex": "04"')
    log.write_text(edited)
    out = run("replay", "--session", where)
    assert out.exit_code == 2
    assert out.output == (f"warpress: {log}:2: not the line state.json was written after (the "
                          f"log was edited or cut here)\n")
    fake.rechain(Path(where), edited.splitlines())  # a forger's edit passes the chain...
    out = run("replay", "--session", where)
    assert out.exit_code == 2 and "differs at line 2, but this machine saw" in out.output
    session.anchor_file(where).unlink()  # ...and, from another machine, the anchor
    out = run("replay", "--session", where)
    assert out.exit_code == 1
    assert "command 1 (search)" in out.output
    assert out.output.splitlines()[-1] == "warpress: replay differs from the log (1 step(s))"


def test_a_map_is_written_for_reading_and_an_unwritable_one_is_one_line(game, where, tmp_path):
    import os
    import stat

    run("new", game, "--seed", "5", "--session", where)
    old = os.umask(0o022)
    try:
        out = run("status", "--session", where, "--map", str(tmp_path / "m.svg"))
    finally:
        os.umask(old)
    assert out.exit_code == 0, out.output
    assert stat.S_IMODE((tmp_path / "m.svg").stat().st_mode) == 0o644
    assert stat.S_IMODE((Path(where) / "state.json").stat().st_mode) == 0o600
    missing = tmp_path / "no-such-folder" / "m.svg"
    out = run("status", "--session", where, "--map", str(missing))
    assert out.exit_code == 2
    assert out.output == (f"warpress: --map {str(missing)!r} cannot be written: "
                          "No such file or directory\n")


def test_a_game_installed_through_an_entry_point_is_logged_by_its_id(tmp_path, monkeypatch):
    """The hideseek folder as the package an installed distribution names in the entry-point
    group warpress.games: the log names the id, so the session plays on from another folder."""
    site = tmp_path / "site"
    (site / "wp_hide_pkg").mkdir(parents=True)
    (site / "wp_hide_pkg" / "__init__.py").write_text("", encoding="utf-8")
    fake.make_game(site / "wp_hide_pkg")  # its __init__.py declares the folder's CODE
    info = site / "wp_hide_pkg-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: wp_hide_pkg\nVersion: 0.1\n",
                                   encoding="utf-8")
    (info / "entry_points.txt").write_text("[warpress.games]\nhideseek = wp_hide_pkg.hideseek\n",
                                           encoding="utf-8")
    monkeypatch.syspath_prepend(str(site))
    where = str(tmp_path / "session")
    try:
        out = run("new", "hideseek", "--seed", "17", "--session", where)
        assert out.exit_code == 0, out.output
        assert _lines(where)[0]["game"] == "hideseek"
        monkeypatch.chdir(site)
        status = run("status", "--session", where)
        assert status.exit_code == 0, status.output
        assert "hideseek: Dusk, turn 1 of 4, phase search" in status.output
    finally:
        for name in [m for m in sys.modules if m.startswith("wp_hide_pkg")]:
            del sys.modules[name]

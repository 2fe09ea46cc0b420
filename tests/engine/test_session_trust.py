"""engine/session.py, what a session folder someone hands over (a bug report, a turn by mail)
cannot do: choose the code that runs when it is opened (the log names a game folder; it is
opened only when the user names it or trusts it), or hide a rollback, a cut log or an erased
reveal from the machine that played it (the session's anchor in the state folder). Driven
through the CLI on the hide-and-seek fake referee."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_session_fake import make_game, rechain
from test_session_integrity import _ok, run
from warpress.cli import main
from warpress.engine import session
from warpress.starter.new import new_game

#: appended to a referee's rules/session.py: a marker file when the module is imported
MARKER = "\n(__import__('pathlib').Path(__file__).resolve().parents[2] / 'ran').touch()\n"


def _lines(where: Path) -> list[bytes]:
    return (where / "log.jsonl").read_bytes().splitlines()


@pytest.fixture
def game(tmp_path: Path) -> Path:
    return make_game(tmp_path / "games")


@pytest.fixture
def where(tmp_path: Path) -> Path:
    return tmp_path / "session"


# --------------------------------------------------------------------------- the game's code


@pytest.fixture
def handed_over(tmp_path: Path) -> tuple[Path, Path]:
    """A session (and its game folder, whose referee leaves a marker) as received from
    someone: the folder was never trusted on this machine."""
    folder = make_game(tmp_path / "received", trusted=False)
    where = tmp_path / "received" / "session"
    _ok("new", folder, "--seed", "3", "--session", where, "--trust")
    with (folder / "rules" / "session.py").open("a", encoding="utf-8") as handle:
        handle.write(MARKER)
    for name in [n for n in sys.modules if n.startswith("warpress_folder_")]:
        del sys.modules[name]  # as in the next command's process: nothing imported yet
    return folder, where


@pytest.mark.parametrize("command", [("status",), ("log",), ("replay",), ("reveal",),
                                     ("end-turn",)], ids=" ".join)
def test_opening_a_session_runs_no_code_the_log_names(handed_over, command):
    folder, where = handed_over
    out = run(*command, "--session", where)
    assert out.exit_code == 2, out.output
    assert out.output == (f"warpress: the session plays the game folder "
                          f"'{folder.resolve()}' (game 'hideseek'); name it to open the "
                          f"session: --game DIR (its Python runs once you trust it: warpress "
                          f"trust DIR)\n")
    assert not (folder.parent / "ran").exists()


def test_naming_the_folder_still_needs_it_trusted(handed_over):
    folder, where = handed_over
    out = run("status", "--session", where, "--game", folder)
    assert out.exit_code == 2 and "rules/session.py: not run: the folder is not trusted" in \
        out.output
    assert not (folder.parent / "ran").exists()
    assert _ok("status", "--session", where, "--game", folder, "--trust")
    assert (folder.parent / "ran").exists()


def test_a_trusted_folder_opens_without_being_named(handed_over):
    folder, where = handed_over
    CliRunner().invoke(main, ["trust", str(folder)])
    assert "hideseek: Dusk, turn 1" in _ok("status", "--session", where)


def test_a_session_from_another_machine_is_opened_with_its_folder_named(game, where, tmp_path):
    """The log names the game folder where it was on the sender's machine; here the same
    game is elsewhere."""
    _ok("new", game, "--seed", "3", "--session", where)
    moved = tmp_path / "elsewhere" / "hideseek"
    moved.parent.mkdir()
    game.rename(moved)
    out = run("status", "--session", where)
    assert out.exit_code == 2 and "name it to open the session: --game DIR" in out.output
    assert "hideseek: Dusk" in _ok("status", "--session", where, "--game", moved, "--trust")
    other = make_game(tmp_path / "third")
    text = (other / "game.yaml").read_text().replace("id: hideseek", "id: seekhide")
    (other.parent / "seekhide").mkdir()
    (other.parent / "seekhide" / "game.yaml").write_text(text)
    out = run("status", "--session", where, "--game", other.parent / "seekhide")
    assert out.exit_code == 2 and out.output.startswith(
        f"warpress: --game '{other.parent / 'seekhide'}' is the game 'seekhide'; the session "
        f"plays 'hideseek'")


def test_a_log_from_before_the_folder_field_is_held_to_the_same(handed_over):
    """An older log names the folder in ``game`` itself."""
    folder, where = handed_over
    header = json.loads(_lines(where)[0])
    del header["folder"], header["id"]
    header["game"] = str(folder.resolve())
    rechain(where, [json.dumps(header, sort_keys=True)])
    out = run("status", "--session", where)
    assert out.exit_code == 2 and "name it to open the session" in out.output
    assert not (folder.parent / "ran").exists()


# --------------------------------------------------------------------------- anchors


def test_rolling_back_both_files_is_refused_until_accepted_and_logged(game, where, tmp_path):
    """Retrying a step until the dice suit: copy the folder, play, put the copy back."""
    _ok("new", game, "--seed", "5", "--session", where)
    _ok("end-turn", "--session", where)
    saved = tmp_path / "saved"
    shutil.copytree(where, saved)
    _ok("search", "eye", "02", "--session", where)
    _ok("end-turn", "--session", where)
    head = session.sha256(_lines(where)[-1])
    shutil.rmtree(where)
    shutil.copytree(saved, where)
    when = json.loads(session.anchor_file(where).read_text())["time"]
    for command in (("status",), ("log",), ("end-turn",), ("reveal",), ("replay",)):
        out = run(*command, "--session", where)
        assert out.exit_code == 2, (command, out.output)
        assert out.output == (
            f"warpress: {where / 'log.jsonl'} ends at line 2, but this machine saw the session "
            f"at line 4 (head {head[:16]}, {when}): an older or cut copy of the session; to go "
            f"on from it, `warpress referee replay --session {where} --accept-rollback` "
            f"(logged)\n")
    out = _ok("replay", "--session", where, "--accept-rollback")
    assert out.startswith("note: accepted: the session goes on from line 2, behind the 4 "
                          "lines this machine saw (logged at line 3)")
    rollback = json.loads(_lines(where)[2])
    assert (rollback["type"], rollback["lines"], rollback["head"]) == ("rollback", 4, head)
    assert _ok("end-turn", "--session", where)
    assert "rollback accepted after command 1: this machine had seen 4 lines, head " \
        f"{head[:16]}" in _ok("log", "--session", where)


@pytest.mark.parametrize("cut", [1, 2], ids=["a reveal erased", "a command and a reveal"])
def test_a_cut_log_with_its_state_deleted_is_refused(game, where, cut):
    _ok("new", game, "--seed", "5", "--session", where)
    _ok("end-turn", "--session", where)
    _ok("reveal", "--session", where)
    lines = _lines(where)
    (where / "log.jsonl").write_bytes(b"".join(line + b"\n" for line in lines[:-cut]))
    (where / "state.json").unlink()
    out = run("status", "--session", where)
    assert out.exit_code == 2
    assert f"ends at line {3 - cut}, but this machine saw the session at line 3" in out.output


def test_a_session_played_on_elsewhere_goes_on(game, where, tmp_path):
    """A game by mail: the copy that comes back holds more than this machine saw."""
    _ok("new", game, "--seed", "5", "--session", where)
    away = tmp_path / "away"
    shutil.copytree(where, away)
    anchor = session.anchor_file(where)
    seen = anchor.read_bytes()
    _ok("end-turn", "--session", away)   # the opponent's machine: here, the same anchor
    anchor.write_bytes(seen)             # ...so this machine still knows line 1 only
    shutil.rmtree(where)
    shutil.copytree(away, where)
    assert _ok("end-turn", "--session", where)


@pytest.mark.parametrize("how", ["deleted", "emptied"])
def test_a_missing_log_beside_a_state_of_twelve_lines_is_not_no_session(game, where, how):
    _ok("new", game, "--seed", "5", "--session", where)
    for _ in range(11):
        _ok("end-turn", "--session", where) if "summary" not in _ok(
            "status", "--json", "--session", where) else _ok("reveal", "--session", where)
    assert len(_lines(where)) == 12
    if how == "deleted":
        (where / "log.jsonl").unlink()
    else:
        (where / "log.jsonl").write_bytes(b"")
    message = (f"warpress: {where / 'log.jsonl'}: missing or empty, but state.json was written "
               f"after line 12: the log was deleted or cut; restore it (a new session needs "
               f"another --session DIR)\n")
    for command in (("status",), ("end-turn",), ("replay",)):
        out = run(*command, "--session", where)
        assert (out.exit_code, out.output) == (2, message), command
    out = run("new", game, "--session", where)
    assert (out.exit_code, out.output) == (2, message)


def test_status_and_log_print_the_head_hash(game, where):
    _ok("new", game, "--seed", "5", "--session", where)
    _ok("end-turn", "--session", where)
    head = session.public_head([json.loads(line) for line in _lines(where)])[:16]
    assert _ok("status", "--session", where).splitlines()[-1] == f"log: 2 lines, head {head}"
    assert _ok("log", "--session", where).splitlines()[-1] == f"log: 2 lines, head {head}"


def test_a_rebuilt_state_file_is_said_on_stderr(game, where):
    _ok("new", game, "--seed", "5", "--session", where)
    _ok("end-turn", "--session", where)
    (where / "state.json").unlink()
    out = run("status", "--session", where)
    assert out.exit_code == 0
    assert out.stderr == (f"warpress: note: {where / 'state.json'}: missing; rebuilt from the "
                          f"log (1 command(s) replayed); state.json not written (opened "
                          f"read-only)\n")
    out = run("end-turn", "--session", where)
    assert out.exit_code == 0 and out.stderr == (
        f"warpress: note: {where / 'state.json'}: missing; rebuilt from the log (1 command(s) "
        f"replayed)\n")


def test_an_anchor_that_cannot_be_kept_is_a_note(game, where, tmp_path, monkeypatch):
    open_folder = tmp_path / "state"
    open_folder.mkdir(mode=0o777)
    open_folder.chmod(0o777)
    monkeypatch.setenv("WARPRESS_STATE", str(open_folder))  # what it says is not believed...
    assert run("new", game, "--session", where).output.startswith(
        f"warpress: {game}/rules/session.py: not run: the folder is not trusted")
    out = run("new", game, "--seed", "5", "--session", where, "--trust")  # ...nor written
    assert out.exit_code == 0
    assert out.stderr == (f"warpress: note: {open_folder / 'sessions'}/"
                          f"{session.anchor_file(where).name}: the session's anchor cannot be "
                          f"kept ({open_folder}: writable by others (mode 777); make it private "
                          f"(chmod 700) or remove it): a rollback of the session would not be "
                          f"noticed\n")



# --------------------------------------------------------------------------- play sessions
# The same holds for a session the play engine plays: the starting game (YAML alone, its
# rules engine.play's), through `warpress play`.

#: a module of a game folder that leaves a marker beside the folder when it is imported
PLAY_MARKER = "(__import__('pathlib').Path(__file__).resolve().parents[{up}] / 'ran').touch()\n"


def play(*args: str | Path):
    return CliRunner().invoke(main, ["play", *map(str, args)])


def _shown(out) -> str:
    """A command's output as one text: its wrapped lines joined."""
    return out.output.replace("\n    ", " ")


@pytest.fixture
def starter(tmp_path: Path) -> Path:
    return new_game(str(tmp_path / "games" / "starter")).folder


@pytest.fixture
def played(starter: Path, where: Path) -> Path:
    """A session of the starting game: set up, two moves (3 log lines)."""
    assert play("new", starter, "--seed", "5", "--session", where).exit_code == 0
    for args in (("move", "n4", "0504"), ("move", "n2", "0402")):
        out = play(*args, "--session", where)
        assert out.exit_code == 0, out.output
    return where


def _with_python(folder: Path) -> Path:
    """``folder`` given session rules, checks and kit parts that each leave a marker."""
    (folder / "rules").mkdir()
    for name, up in (("rules/__init__.py", 2), ("rules/session.py", 2), ("checks.py", 1),
                     ("kit.py", 1)):
        (folder / name).write_text(PLAY_MARKER.format(up=up), encoding="utf-8")
    return folder


@pytest.mark.parametrize("command", [("status",), ("moves",), ("log",), ("replay",),
                                     ("move", "n4", "0505"), ("undo",), ("reveal",),
                                     ("finish", "--agent", "north=random", "--agent",
                                      "south=random")], ids=lambda c: c[0])
def test_opening_a_play_session_runs_no_code_its_log_names(starter, played, tmp_path, command):
    """A play session handed over whose log names a game folder holding Python (edited to
    name one, or the sender's): nothing of it runs, named or not, until the user trusts it."""
    evil = _with_python(new_game(str(tmp_path / "evil" / "starter")).folder)
    records = [json.loads(line) for line in _lines(played)]
    records[0]["folder"] = str(evil)
    rechain(played, [json.dumps(record) for record in records])
    session.anchor_file(played).unlink()  # received: this machine never saw it
    out = play(*command, "--session", played)
    assert out.exit_code == 2, out.output
    assert _shown(out) == (f"warpress: the session plays the game folder '{evil}' (game "
                           f"'starter'); name it to open the session: --game DIR (its Python "
                           f"runs once you trust it: warpress trust DIR)\n")
    named = play(*command, "--session", played, "--game", evil)
    assert named.exit_code == 2, named.output
    assert "rules/session.py: not run: the folder is not trusted" in _shown(named)
    assert not (evil.parent / "ran").exists()
    assert play("status", "--session", played, "--game", starter).exit_code == 0


def test_a_rolled_back_play_session_is_refused_until_accepted_and_logged(starter, where,
                                                                          tmp_path):
    """Retrying a move until the dice suit: copy the session, play on, put the copy back."""
    saved = tmp_path / "saved"
    assert play("new", starter, "--seed", "5", "--session", where).exit_code == 0
    shutil.copytree(where, saved)
    for args in (("move", "n4", "0504"), ("move", "n2", "0402")):
        assert play(*args, "--session", where).exit_code == 0
    head = session.sha256(_lines(where)[-1])
    shutil.rmtree(where)
    shutil.copytree(saved, where)
    for command in (("status",), ("moves",), ("log",), ("move", "n4", "0504"), ("undo",),
                    ("reveal",), ("agent", "--side", "north"), ("replay",)):
        out = play(*command, "--session", where)
        assert out.exit_code == 2, (command, out.output)
        assert (f"ends at line 1, but this machine saw the session at line 3 (head "
                f"{head[:16]},") in _shown(out), command
    accepted = play("replay", "--session", where, "--accept-rollback")
    assert accepted.exit_code == 0, accepted.output
    assert ("accepted: the session goes on from line 1, behind the 3 lines this machine saw "
            "(logged at line 2)") in _shown(accepted)
    rollback = json.loads(_lines(where)[1])
    assert (rollback["type"], rollback["lines"], rollback["head"]) == ("rollback", 3, head)
    assert play("move", "n4", "0504", "--session", where).exit_code == 0
    assert f"this machine had seen 3 lines, head {head[:16]}" in _shown(
        play("log", "--session", where))


@pytest.mark.parametrize("cut", [1, 2], ids=["a reveal erased", "a move and a reveal"])
def test_a_cut_play_log_with_its_state_deleted_is_refused(played, cut):
    assert play("reveal", "--session", played).exit_code == 0
    lines = _lines(played)
    (played / "log.jsonl").write_bytes(b"".join(line + b"\n" for line in lines[:-cut]))
    (played / "state.json").unlink()
    for command in (("status",), ("move", "n1", "0402"), ("replay",)):
        out = play(*command, "--session", played)
        assert out.exit_code == 2, out.output
        assert (f"ends at line {4 - cut}, but this machine saw the session at line 4"
                in _shown(out)), command


@pytest.mark.parametrize("how", ["deleted", "emptied"])
def test_a_missing_play_log_beside_a_longer_state_is_not_no_session(starter, played, how):
    if how == "deleted":
        (played / "log.jsonl").unlink()
    else:
        (played / "log.jsonl").write_bytes(b"")
    for args in (("status", "--session", played), ("new", starter, "--session", played)):
        out = play(*args)
        assert out.exit_code == 2, out.output
        assert ("missing or empty, but state.json was written after line 3: the log was "
                "deleted or cut") in _shown(out), args[0]
    assert not (played / "log.jsonl").exists() or not _lines(played)


def test_play_status_and_log_end_with_the_head_hash(played):
    head = session.public_head([json.loads(line) for line in _lines(played)])[:16]
    for command in ("status", "log"):
        out = play(command, "--session", played)
        assert out.output.splitlines()[-1] == f"log: 3 lines, head {head}", command


def test_a_scenario_file_the_log_names_is_never_read_whole(tmp_path):
    """A log names its scenario file by path, and replay hashes it: a huge file there (named
    by a log handed over) is read no further than a game's file may be long."""
    import tracemalloc

    from warpress.engine import limits

    big = tmp_path / "big.yaml"
    big.write_bytes(b"#" * (8 * limits.FILE_BYTES))
    tracemalloc.start()
    try:
        digest = session._file_sha256(big)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2 * limits.FILE_BYTES
    assert digest == session.sha256(b"#" * (limits.FILE_BYTES + 1))


@pytest.mark.parametrize("name", ["log.jsonl", "state.json"])
def test_a_session_file_past_its_size_is_refused_before_it_is_read(played, name):
    """Every command reads the whole log: a session handed over with a log (or state) grown
    past the limit is refused in one line, not parsed for seconds."""
    limit = session.MAX_BYTES[name]
    with (played / name).open("ab") as handle:
        handle.truncate(limit + 1)
    for command in (("status",), ("log",), ("move", "n4", "0505"), ("replay",)):
        if (name, command) == ("state.json", ("replay",)):
            continue  # replay writes the state anew (below)
        out = play(*command, "--session", played)
        assert out.exit_code == 2, out.output
        assert _shown(out) == (f"warpress: {played / name}: larger than {limit:,} bytes, the "
                               f"most a session file may hold\n"), command
    if name == "state.json":
        assert play("replay", "--session", played).exit_code == 0
        assert play("status", "--session", played).exit_code == 0

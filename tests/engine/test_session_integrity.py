"""What a referee session's files must withstand: an edited, cut or reordered log,
torn writes, planted links, a read-only folder, a `new` killed half-way, folders in place of
files, sessions from before the hash chain, and a system without fcntl. Driven through the CLI
(`warpress referee ...`) on the hide-and-seek fake referee, as a player would meet them."""

from __future__ import annotations

import builtins
import errno
import io
import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_session_fake import make_game, rechain
from warpress.cli import main
from warpress.engine import session


@pytest.fixture
def game(tmp_path: Path) -> str:
    return str(make_game(tmp_path / "games"))


@pytest.fixture
def where(tmp_path: Path) -> Path:
    return tmp_path / "session"


def run(*args: str | Path):
    return CliRunner().invoke(main, ["referee", *map(str, args)])


def _ok(*args: str | Path) -> str:
    out = run(*args)
    assert out.exit_code == 0, out.output
    return out.output


def _token(where: Path) -> int:
    return int(json.loads(_ok("reveal", "--json", "--session", where))["bombers"][0]["hex"])


def _played(game: str, where: Path) -> list[bytes]:
    """A session of seven log lines: the header, search (ok), search (refused), reveal,
    end-turn (ok), search (ok), reveal; its lines."""
    _ok("new", game, "--seed", "5", "--session", where)
    miss = f"{(_token(where) + 5) % 10:02d}"   # line 2 is this reveal
    _ok("search", "eye", miss, "--session", where)
    assert run("search", "eye", miss, "--session", where).exit_code == 1
    _ok("end-turn", "--session", where)
    _ok("search", "eye", f"{(_token(where) + 5) % 10:02d}", "--session", where)
    lines = (where / "log.jsonl").read_bytes().splitlines()
    kinds = [(r["type"], r.get("result")) for r in map(json.loads, lines)]
    assert kinds == [("session", None), ("reveal", None), ("command", "ok"),
                     ("command", "refused"), ("command", "ok"), ("reveal", None),
                     ("command", "ok")]
    return lines


def _write(where: Path, lines: list[bytes]) -> None:
    (where / "log.jsonl").write_bytes(b"".join(line + b"\n" for line in lines))


EVERY_COMMAND = [("status",), ("log",), ("search", "eye", "05"), ("sight",), ("end-turn",),
                 ("reveal",), ("replay",)]


def _refused_by_every_command(where: Path, pattern: str) -> None:
    """Every command exits 2 with one line matching ``pattern``, and writes nothing."""
    files = {p.name: p.read_bytes() for p in where.iterdir() if p.is_file()}
    for command in EVERY_COMMAND:
        out = run(*command, "--session", where)
        assert out.exit_code == 2, (command, out.output)
        assert len(out.output.splitlines()) == 1, (command, out.output)
        assert re.match(f"warpress: {pattern}", out.output), (command, out.output)
    assert {p.name: p.read_bytes() for p in where.iterdir() if p.is_file()} == files


# --------------------------------------------------------------------------- the hash chain


def _edit(lines: list[bytes], number: int, **changes) -> list[bytes]:
    record = json.loads(lines[number - 1])
    record.update(changes)
    return lines[:number - 1] + [json.dumps(record, sort_keys=True).encode()] + lines[number:]


TAMPERING = {
    # name: (how the seven lines change, the line the message names)
    "header seed": (lambda ls: _edit(ls, 1, seed=6), r".*log.jsonl:2: hash chain broken"),
    "a reveal deleted": (lambda ls: ls[:1] + ls[2:], r".*log.jsonl:2: hash chain broken"),
    "a middle reveal deleted": (lambda ls: ls[:5] + ls[6:], r".*log.jsonl:6: hash chain broken"),
    "two lines swapped": (lambda ls: ls[:2] + [ls[3], ls[2]] + ls[4:],
                          r".*log.jsonl:3: hash chain broken"),
    "a past command's args": (lambda ls: _edit(ls, 3, args={"counter": "eye", "hex": "09"}),
                              r".*log.jsonl:4: hash chain broken"),
    "a line inserted": (lambda ls: ls[:3] + [ls[2]] + ls[3:], r".*log.jsonl:4: hash chain"),
    "the last line edited": (lambda ls: _edit(ls, 7, time="2020-01-01T00:00:00+00:00"),
                             r".*log.jsonl:7: not the line state.json was written after"),
    "the last line deleted": (lambda ls: ls[:6], r".*log.jsonl ends at line 6 but state.json "
                                                 r"was written after line 7: the log was "
                                                 r"truncated"),
    "three lines cut": (lambda ls: ls[:4], r".*log.jsonl ends at line 4 but state.json was "
                                           r"written after line 7: the log was truncated"),
    "a wrong-typed field": (lambda ls: _edit(ls, 3, args="F,F"),
                            r'.*log.jsonl:3: args: expected an object, got str "F,F"'),
    "n": (lambda ls: _edit(ls, 5, n=7), r".*log.jsonl:5: n is 7 where 2 was due"),
}


@pytest.mark.parametrize("tampering", TAMPERING, ids=list(TAMPERING))
def test_any_change_to_the_log_is_refused_by_every_command_naming_the_line(game, where,
                                                                          tampering):
    change, pattern = TAMPERING[tampering]
    _write(where, change(_played(game, where)))
    _refused_by_every_command(where, pattern)


def test_an_edited_header_is_caught_before_a_second_line_exists(game, where):
    _ok("new", game, "--seed", "5", "--session", where)
    _write(where, _edit((where / "log.jsonl").read_bytes().splitlines(), 1, seed=6))
    _refused_by_every_command(where, r".*log.jsonl:1: not the line state.json was written "
                                     r"after")


def test_a_wrong_typed_field_in_a_rechained_log_is_one_line(game, where):
    """A log whose chain is intact but whose field has the wrong type (a forger's edit, or a
    bug) is still one line naming the line and the field, no traceback."""
    lines = _played(game, where)
    rechain(where, [line.decode() for line in _edit(lines, 5, args="F,F")])
    _refused_by_every_command(where, r'.*log.jsonl:5: args: expected an object, got str "F,F"')
    rechain(where, [line.decode() for line in _edit(lines, 4, args={"hex": [1, 2]})])
    _refused_by_every_command(where, r".*log.jsonl:4: args.hex: expected a string, a number")
    rechain(where, [line.decode() for line in _edit(lines, 2, map="yes")])
    _refused_by_every_command(where, r'.*log.jsonl:2: map: expected true or false, got str')


def test_a_log_shorter_than_the_state_is_reported_as_truncated_not_as_a_checksum(game,
                                                                                where):
    lines = _played(game, where)
    _write(where, lines[:3])
    out = run("status", "--session", where)
    assert out.exit_code == 2 and "checksum" not in out.output
    assert out.output == (f"warpress: {where / 'log.jsonl'} ends at line 3 but state.json was "
                          f"written after line 7: the log was truncated (restore it; or delete "
                          f"state.json and replay --accept-rollback to go on from line 3)\n")
    (where / "state.json").unlink()   # what the message offers: go on from line 3
    out = run("replay", "--session", where)  # this machine saw 7 lines: behind its anchor
    assert out.exit_code == 2 and "ends at line 3, but this machine saw the session at " \
        "line 7" in out.output
    assert _ok("replay", "--session", where, "--accept-rollback").startswith(
        "note: accepted: the session goes on from line 3")
    lines = (where / "log.jsonl").read_bytes().splitlines()
    assert len(lines) == 4 and json.loads(lines[3])["type"] == "rollback"
    assert "rollback accepted after command 1" in _ok("log", "--session", where)


# --------------------------------------------------------------------------- torn writes


def test_issue_14_repro_a_last_line_without_its_newline_is_a_record_and_kept(game, where):
    """new, two commands, `truncate -s -1 log.jsonl`, `log`, `replay`: the last command
    stays (it used to be cut off as a torn write and replay rewrote the state without it)."""
    _ok("new", game, "--seed", "5", "--session", where)
    _ok("end-turn", "--session", where)
    _ok("end-turn", "--session", where)
    log = where / "log.jsonl"
    whole = log.read_bytes()
    os.truncate(log, len(whole) - 1)
    assert _ok("log", "--session", where).splitlines()[-2].split("  ", 1)[1].strip() == \
        "2 end-turn"
    assert _ok("replay", "--session", where).startswith("replayed 2 command(s)")
    assert log.read_bytes() == whole[:-1]
    assert json.loads(_ok("status", "--json", "--session", where))["turn"] == 3
    _ok("end-turn", "--session", where)   # the next append adds the missing newline first
    lines = log.read_bytes().splitlines()
    assert b"\n".join(lines[:3]) + b"\n" == whole and json.loads(lines[3])["n"] == 3
    assert log.read_bytes().endswith(b"\n")


def test_a_torn_last_line_is_ignored_until_the_next_append_cuts_it(game, where):
    _ok("new", game, "--seed", "5", "--session", where)
    _ok("end-turn", "--session", where)
    log = where / "log.jsonl"
    whole = log.read_bytes()
    log.write_bytes(whole + b'{"type": "command", "n": 2, "comm')
    for command in ("status", "log", "replay"):
        _ok(command, "--session", where)
        assert log.read_bytes().endswith(b'"comm')  # readers delete nothing
    _ok("end-turn", "--session", where)
    lines = log.read_bytes().splitlines()
    assert len(lines) == 3 and b"\n".join(lines[:2]) + b"\n" == whole
    assert json.loads(lines[2])["command"] == "end-turn"


# --------------------------------------------------------------------------- links, folders


NAMES = ("log.jsonl", ".lock", "state.json", "key")


@pytest.mark.parametrize("name", NAMES)
def test_new_refuses_a_planted_link_and_writes_nothing_through_it(game, where, tmp_path,
                                                                    name):
    where.mkdir()
    target = tmp_path / "elsewhere"
    (where / name).symlink_to(target)
    out = run("new", game, "--session", where)
    assert out.exit_code == 2
    assert out.output == (f"warpress: {where / name}: is a symbolic link; a session's files "
                          f"must be regular files in its folder (refused)\n")
    assert not target.exists()


@pytest.mark.parametrize("name", NAMES)
def test_a_linked_session_file_is_refused_by_every_command(game, where, tmp_path, name):
    _played(game, where)
    moved = tmp_path / f"moved-{name}"
    (where / name).rename(moved)
    (where / name).symlink_to(moved)
    before = moved.read_bytes()
    commands = EVERY_COMMAND if name != ".lock" else [("search", "eye", "05"), ("reveal",),
                                                      ("end-turn",)]
    for command in commands:
        out = run(*command, "--session", where)
        assert out.exit_code == 2, (command, out.output)
        assert out.output == (f"warpress: {where / name}: is a symbolic link; a session's "
                              f"files must be regular files in its folder (refused)\n")
    assert moved.read_bytes() == before


def test_links_are_refused_where_the_system_has_no_o_nofollow(game, where, monkeypatch):
    _played(game, where)
    (where / "state.json").rename(where / "real-state")
    (where / "state.json").symlink_to(where / "real-state")
    monkeypatch.setattr(session, "_NOFOLLOW", 0)   # as on Windows
    out = run("status", "--session", where)
    assert out.exit_code == 2 and "state.json: is a symbolic link" in out.output


@pytest.mark.parametrize("name", ["key", "state.json", "log.jsonl"])
def test_a_folder_in_place_of_a_session_file_is_one_line(game, where, name):
    _played(game, where)
    (where / name).unlink()
    (where / name).mkdir()
    for command in EVERY_COMMAND + [("new", game)]:
        out = run(*command, "--session", where)
        assert out.exit_code == 2, (command, out.output)
        assert out.output == (f"warpress: {where / name}: is a folder; a session's files "
                              f"must be regular files in its folder (refused)\n"), command


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_in_place_of_the_state_is_refused_without_hanging(game, where):
    _played(game, where)
    (where / "state.json").unlink()
    os.mkfifo(where / "state.json")

    def hung(*_args):
        raise TimeoutError("status waited 20 s on the FIFO")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(20)
    try:
        out = run("status", "--session", where)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert out.exit_code == 2 and "state.json: is not a file" in out.output


# --------------------------------------------------------------------------- read-only folder


@pytest.fixture
def read_only(monkeypatch):
    """``read_only(folder)``: the folder and its files lose their write bits and, because the
    superuser ignores those bits (CI runs as root), every open for writing, rename, link,
    unlink, mkdir and chmod under the folder fails with EACCES, as the system would for a
    user who cannot write there."""
    folders: list[Path] = []

    def inside(path) -> bool:
        if isinstance(path, int):
            return False
        target = Path(os.fsdecode(path)).absolute()
        return any(target == f or f in target.parents for f in folders)

    def deny(path):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fsdecode(path))

    writes = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
    real_open = os.open

    def guarded_open(path, flags, mode=0o777, *, dir_fd=None):
        if flags & writes and inside(path):
            deny(path)
        return real_open(path, flags, mode, dir_fd=dir_fd)

    real_io_open = io.open

    def guarded_io_open(file, mode="r", *args, **kwargs):
        if not isinstance(file, int) and set(mode) & set("wax+") and inside(file):
            deny(file)
        return real_io_open(file, mode, *args, **kwargs)

    monkeypatch.setattr(os, "open", guarded_open)
    monkeypatch.setattr(io, "open", guarded_io_open)
    monkeypatch.setattr(builtins, "open", guarded_io_open)
    for name in ("replace", "rename", "link", "unlink", "remove", "mkdir", "rmdir", "chmod",
                 "truncate", "symlink"):
        real = getattr(os, name)

        def guard(src, *args, _real=real, **kwargs):
            dst = args[0] if args and not isinstance(args[0], int) else None
            if inside(src) or (dst is not None and inside(dst)):
                deny(src)
            return _real(src, *args, **kwargs)

        monkeypatch.setattr(os, name, guard)

    def make(folder: Path) -> None:
        for path in folder.iterdir():
            path.chmod(0o444)
        folder.chmod(0o555)
        folders.append(folder.absolute())

    yield make
    monkeypatch.undo()
    for folder in folders:
        folder.chmod(0o755)
        for path in folder.iterdir():
            path.chmod(0o644)


def test_the_read_only_guard_stops_writes_even_for_root(tmp_path, read_only):
    folder = tmp_path / "ro"
    folder.mkdir()
    (folder / "f").write_text("x")
    read_only(folder)
    for write in (lambda: (folder / "f").write_text("y"), lambda: (folder / "g").touch(),
                  lambda: os.replace(folder / "f", folder / "h"),
                  lambda: (folder / "f").unlink(), lambda: open(folder / "f", "a")):
        with pytest.raises(PermissionError):
            write()
    assert (folder / "f").read_text() == "x"


def test_status_log_and_replay_work_in_a_folder_the_user_cannot_write(game, where, read_only):
    _played(game, where)
    status = _ok("status", "--session", where)
    log = _ok("log", "--session", where)
    read_only(where)
    assert _ok("status", "--session", where) == status
    assert _ok("log", "--session", where) == log
    assert _ok("replay", "--session", where) == (
        "replayed 3 command(s): every state matches the log; state.json already matches\n")


def test_a_crash_left_in_a_read_only_folder_is_caught_up_in_memory(game, where, read_only):
    _played(game, where)
    old = (where / "state.json").read_bytes()
    _ok("end-turn", "--session", where)
    status = _ok("status", "--session", where)
    (where / "state.json").write_bytes(old)   # as if the last rename never happened
    read_only(where)
    out = run("status", "--session", where)
    assert out.exit_code == 0 and out.stdout == status
    assert out.stderr == (f"warpress: note: {where / 'state.json'}: written after line 7 of "
                          f"the 8 of log.jsonl (a command was cut short); caught up from the "
                          f"log; state.json not written (opened read-only)\n")
    assert (where / "state.json").read_bytes() == old


def test_commands_that_write_say_so_in_one_line_in_a_read_only_folder(game, where, read_only):
    _played(game, where)
    (where / "state.json").unlink()
    read_only(where)
    for command in (("end-turn",), ("reveal",)):
        out = run(*command, "--session", where)
        assert out.exit_code == 2
        assert out.output == (f"warpress: {where / '.lock'}: cannot write: Permission denied "
                              f"(play commands, reveal and new write the session folder; "
                              f"status, log and replay of a healthy session only read it)\n")
    out = run("replay", "--session", where)
    assert out.exit_code == 2
    assert out.output == (f"warpress: {where}: replay matches the log, but state.json must be "
                          f"written and the folder cannot be written\n")


# --------------------------------------------------------------------------- a killed `new`

KILLABLE = ("open", "write", "fsync", "replace", "rename", "link", "mkdir", "ftruncate",
            "chmod")


class Killed(BaseException):
    """The process dies here."""


def _kill_at(monkeypatch, point: int) -> None:
    """Die at ``point``: before (odd) or just after (even) the ((point + 1) // 2)-th call of
    a file system function; every call after that dies too, so no clean-up runs."""
    calls = [0]

    def wrap(real):
        def call(*args, **kwargs):
            calls[0] += 1
            if calls[0] * 2 - 1 >= point:
                raise Killed
            result = real(*args, **kwargs)
            if calls[0] * 2 >= point:
                raise Killed
            return result
        return call

    for name in KILLABLE:
        monkeypatch.setattr(os, name, wrap(getattr(os, name)))
    monkeypatch.setattr(io, "open", wrap(io.open))
    monkeypatch.setattr(builtins, "open", wrap(builtins.open))


def test_a_new_killed_at_any_point_leaves_a_folder_new_can_use(game, tmp_path, monkeypatch):
    for point in range(1, 400):
        where = tmp_path / f"s{point}"
        with monkeypatch.context() as patch:
            _kill_at(patch, point)
            try:
                with session.create(where, game, None, 7):
                    finished = True
            except Killed:
                finished = False
        if finished:
            break
        out = run("status", "--session", where)
        if out.exit_code != 0:
            assert out.exit_code == 2 and out.output.startswith(
                f"warpress: no referee session in {where} ("), (point, out.output)
            assert _ok("new", game, "--seed", "7", "--session", where), point
        # the same game, but another session: only the log's head differs
        assert _ok("status", "--session", where).splitlines()[:-1] == _ok(
            "status", "--session", tmp_path / "s1").splitlines()[:-1], point
    else:
        pytest.fail("session.create never finished")
    assert point > 20, "too few points: the kill never reached the files"


def test_an_empty_log_left_by_an_older_warpress_is_no_session(game, where):
    where.mkdir()
    (where / "log.jsonl").write_bytes(b"")
    out = run("status", "--session", where)
    assert out.exit_code == 2
    assert out.output == (f"warpress: no referee session in {where} (log.jsonl is empty: a "
                          f"`referee new` that did not finish); start one with `warpress "
                          f"referee new GAME --session {where}`\n")
    _ok("new", game, "--session", where)
    _ok("status", "--session", where)


# --------------------------------------------------------------------------- format 1


def _as_format_1(where: Path) -> bytes:
    """Rewrite a fresh session as warpress wrote it before the hash chain: header format 1,
    no prev, state.json without the log anchor. The log's bytes."""
    records = [json.loads(line) for line in (where / "log.jsonl").read_bytes().splitlines()]
    records[0]["format"] = 1
    for record in records:
        record.pop("prev", None)
    old = b"".join(json.dumps(r, ensure_ascii=False, sort_keys=True).encode() + b"\n"
                   for r in records)
    (where / "log.jsonl").write_bytes(old)
    state = json.loads((where / "state.json").read_text())
    body = {"format": 1, **{k: state[k] for k in ("n", "state", "state_sha256")}}
    record = {**body, "checksum": session.sha256(session.canonical(body))}
    (where / "state.json").write_text(json.dumps(record, indent=1) + "\n")
    return old


def test_a_format_1_session_is_refused_with_the_fix_and_replay_upgrades_it(game, where):
    _played(game, where)
    status = _ok("status", "--session", where)
    old = _as_format_1(where)
    for command in ("status", "log", "end-turn", "reveal"):
        out = run(command, "--session", where)
        assert out.exit_code == 2
        assert out.output == (f"warpress: {where / 'log.jsonl'}: a session from before the "
                              f"hash chain (format 1); `warpress referee replay --session "
                              f"{where}` checks it and upgrades it\n")
    assert (where / "log.jsonl").read_bytes() == old
    out = _ok("replay", "--session", where)
    assert "note: log.jsonl upgraded to format 2 (a hash chain); the old log is kept as " \
           "log.format1.jsonl" in out
    assert (where / "log.format1.jsonl").read_bytes() == old
    assert _ok("status", "--session", where) == status
    upgraded = [json.loads(line) for line in (where / "log.jsonl").read_bytes().splitlines()]
    assert [{k: v for k, v in r.items() if k not in ("prev", "format")} for r in upgraded] == \
        [{k: v for k, v in json.loads(line).items() if k != "format"}
         for line in old.splitlines()]
    _ok("end-turn", "--session", where)


def test_a_format_1_log_that_does_not_replay_is_not_upgraded(game, where):
    _played(game, where)
    old = _as_format_1(where)
    lines = old.splitlines()
    edited = json.loads(lines[2])
    edited["args"]["hex"] = f"{(int(edited['args']['hex']) + 1) % 10:02d}"
    lines[2] = json.dumps(edited, sort_keys=True).encode()
    (where / "log.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    out = run("replay", "--session", where)
    assert out.exit_code == 1 and "command 1 (search)" in out.output
    assert not (where / "log.format1.jsonl").exists()
    assert json.loads((where / "log.jsonl").read_bytes().splitlines()[0])["format"] == 1


# --------------------------------------------------------------------------- no fcntl


def test_the_referee_imports_where_there_is_no_fcntl():
    """On Windows there is no fcntl: warpress locks through portalocker (which uses msvcrt
    there), so `warpress referee` imports; here fcntl is hidden and portalocker stubbed."""
    code = ("import sys, types\n"
            "sys.modules['fcntl'] = None\n"
            "sys.modules['portalocker'] = types.ModuleType('portalocker')\n"
            "import warpress.engine.session, warpress.cli\n"
            "from click.testing import CliRunner\n"
            "out = CliRunner().invoke(warpress.cli.main, ['referee', '--help'])\n"
            "print(out.exit_code)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (0, "0\n", "")


@pytest.mark.parametrize("command", EVERY_COMMAND, ids=" ".join)
def test_a_session_folder_the_system_will_not_search_is_one_line(command, tmp_path,
                                                                  monkeypatch):
    """A --session path the system refuses to look into (too long to search: ENAMETOOLONG;
    as a user without the right to search a parent folder would meet EACCES)."""
    monkeypatch.chdir(tmp_path)
    deep = "deep/" * 900 + "session"
    out = run(*command, "--session", deep)
    assert out.exit_code == 2 and "Traceback" not in out.output, out.output
    assert len(out.output.splitlines()) == 1 and "File name too long" in out.output


def test_a_session_folder_without_search_permission_is_one_line(tmp_path, monkeypatch):
    def refuse(self, *args, **kwargs):
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "is_symlink", refuse)
    out = run("status", "--session", tmp_path / "locked" / "session")
    assert (out.exit_code, out.output) == (
        2, f"warpress: --session '{tmp_path / 'locked' / 'session'}' cannot be read: "
           f"Permission denied\n")

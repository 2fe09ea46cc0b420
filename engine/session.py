"""Referee sessions as files: a command log, an atomically rewritten state, replay.

A session is a directory (``--session DIR``) holding

``log.jsonl``
    One JSON object per line, appended with flush + fsync and never rewritten. The first
    line (``"type": "session"``) records the game (built-in id or absolute folder path), the
    scenario (shipped name or absolute path) and the SHA-256 of the scenario file's bytes,
    the seed, the warpress version and the SHA-256 of the state after set-up (``n`` 0).
    Then one ``"type": "command"`` line per player command: ``n`` (the number of accepted
    commands after it), ``command``, ``args``, ``result`` (``"ok"`` or ``"refused"`` with
    ``message`` and, for a rule, ``rule``) and ``hash``, the SHA-256 of the state after it.
    ``"type": "reveal"`` lines record each look at the referee's map. The log holds only
    what the player typed and saw, never a hidden fact.
``state.json``
    Rewritten atomically (temporary file in DIR, fsync, ``os.replace``): ``n``, the
    referee's ``dump(state)`` obfuscated in ``state`` (see below), ``state_sha256`` (the
    SHA-256 of the dump's canonical JSON: sorted keys, compact separators; the same value
    the log records for step ``n``) and ``checksum``, the SHA-256 of the canonical JSON of
    every other field of the file.
``key``
    32 random bytes (hex), the per-session obfuscation key.
``.lock``
    Held with ``fcntl.flock`` (non-blocking) while a command runs: a second command on the
    same session at the same time is refused as busy.

Dice: step ``n`` (0 is the set-up) rolls with ``SeededDice(derived_seed(seed, n))``, a
SHA-256 of ``f"{seed}:{n}"``; replay is exact and independent of Python's hash
randomisation. A refused command rolls with the dice of the step it would have been and
is thrown away, so refusals never shift later rolls.

Commands: the state is loaded and verified, the referee applies the command, then the log
line is appended and only then the state file replaced. A command the rules forbid
(``RuleViolation``) or that names something that does not exist (``BadInput`` raised by the
referee: an unknown fighter, counter or hex) is logged as ``"refused"`` with its message
and re-raised; the state is untouched. A command name the game's referee does not accept
is rejected before anything is logged.

Crash safety: a process killed between the log append and the state rename leaves the log
ahead of the state; the next :func:`open` replays the missing commands (checking each hash
against the log) and rewrites the state. A torn last log line (no newline, not JSON) is a
write that never completed and is cut off. A missing state file is rebuilt from the log.

Integrity: a state file that is not JSON, whose checksum does not match its content or
whose state hash differs from the log's record for that step is reported
(:class:`SessionCorrupt`), never used. :meth:`Session.replay` rebuilds the state from the
log and scenario and reports any step whose replayed hash differs from the logged one (the
log or the scenario was edited, or the engine changed); then the state file is left alone.

Hidden state at rest: the dump holds what the player must not see (e.g. bomber positions).
``state.json`` stores it zlib-compressed and XORed with a keystream of SHA-256 blocks of the
``key`` file, base64-encoded, so opening the file does not show hidden positions at a
glance. This protects against an accidental glance only: whoever owns the files has the key,
and the log and seed replay the whole game anyway. It is not encryption against a
determined player.
"""

from __future__ import annotations

import base64
import builtins
import fcntl
import hashlib
import json
import os
import secrets
import tempfile
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .dice import SeededDice
from .errors import BadInput, RuleViolation
from .model import Game
from .referee import Referee, Step, referee_for

LOG = "log.jsonl"
STATE = "state.json"
KEY = "key"
LOCK = ".lock"
FORMAT = 1


class SessionCorrupt(BadInput):
    """A session file is damaged, edited or disagrees with the log; the message says which."""


# --------------------------------------------------------------------------- pure helpers


def canonical(value: Any) -> bytes:
    """The canonical JSON bytes of ``value``: sorted keys, compact separators, UTF-8."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False).encode("utf-8")


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def state_hash(dump: Mapping[str, Any]) -> str:
    """SHA-256 of a referee dump's canonical JSON (what the log records per step)."""
    return sha256(canonical(dump))


def derived_seed(seed: int, n: int) -> int:
    """The dice seed of step ``n``: a stable function of (seed, n)."""
    return int.from_bytes(hashlib.sha256(f"{seed}:{n}".encode()).digest()[:8], "big")


def _keystream(key: bytes, length: int) -> bytes:
    blocks = (hashlib.sha256(key + i.to_bytes(8, "big")).digest()
              for i in range((length + 31) // 32))
    return b"".join(blocks)[:length]


def _xor(data: bytes, key: bytes) -> bytes:
    stream = _keystream(key, len(data))
    return bytes(a ^ b for a, b in zip(data, stream, strict=True))


def obfuscate(dump: Mapping[str, Any], key: bytes) -> str:
    """zlib + XOR keystream + base64: hides a dump from a glance (not encryption)."""
    return base64.b64encode(_xor(zlib.compress(canonical(dump), 9), key)).decode("ascii")


def deobfuscate(text: str, key: bytes) -> Any:
    """The inverse of :func:`obfuscate`; ValueError when ``text`` does not decode."""
    try:
        raw = zlib.decompress(_xor(base64.b64decode(text.encode("ascii"), validate=True), key))
        return json.loads(raw.decode("utf-8"))
    except (zlib.error, UnicodeError, ValueError, TypeError) as exc:
        raise ValueError(str(exc)) from None


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("warpress")
    except PackageNotFoundError:
        return "unknown"


# --------------------------------------------------------------------------- file I/O


def _append(path: Path, record: Mapping[str, Any]) -> None:
    """Append one JSON line and force it to disk."""
    line = json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n"
    with builtins.open(path, "a", encoding="utf-8") as handle:
        handle.write(line)
        handle.flush()
        os.fsync(handle.fileno())


def write_atomically(path: Path, data: bytes, shared: bool = False) -> None:
    """Write ``data`` to a temporary file beside ``path``, fsync it, then rename it: a reader
    sees the old file or the new one, never half of one. The file is private to its owner
    (mode 0600) unless ``shared`` (then the usual umask applies, as for a map to print)."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}-", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if shared:
            umask = os.umask(0o022)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _state_record(n: int, dump: Mapping[str, Any], key: bytes) -> dict[str, Any]:
    body = {"format": FORMAT, "n": n, "state": obfuscate(dump, key),
            "state_sha256": state_hash(dump)}
    return {**body, "checksum": sha256(canonical(body))}


def write_state(directory: Path, n: int, dump: Mapping[str, Any], key: bytes) -> None:
    """Rewrite DIR/state.json atomically with step ``n``'s dump."""
    record = _state_record(n, dump, key)
    write_atomically(directory / STATE, (json.dumps(record, indent=1) + "\n").encode())


def read_state(directory: Path, key: bytes) -> tuple[int, dict[str, Any], str]:
    """``(n, dump, state_sha256)`` of DIR/state.json, verified; SessionCorrupt if not."""
    path = directory / STATE
    where = str(path)
    try:
        record = json.loads(path.read_bytes().decode("utf-8"))
    except (UnicodeError, ValueError):
        raise SessionCorrupt(f"{where}: not JSON; `warpress referee replay --session "
                             f"{directory}` rebuilds it from the log") from None
    fields = ("format", "n", "state", "state_sha256", "checksum")
    if not isinstance(record, dict) or any(name not in record for name in fields):
        raise SessionCorrupt(f"{where}: not a session state (expected the keys "
                             f"{', '.join(fields)})")
    body = {k: v for k, v in record.items() if k != "checksum"}
    if record["checksum"] != sha256(canonical(body)):
        raise SessionCorrupt(f"{where}: checksum mismatch (the file was edited or damaged); "
                             f"`warpress referee replay --session {directory}` rebuilds it")
    try:
        dump = deobfuscate(record["state"], key)
    except (ValueError, AttributeError):
        raise SessionCorrupt(f"{where}: checksum mismatch (the state does not decode with "
                             f"{directory / KEY})") from None
    digest = state_hash(dump)
    if digest != record["state_sha256"] or not isinstance(record["n"], int):
        raise SessionCorrupt(f"{where}: checksum mismatch (state_sha256 differs from the "
                             f"state it holds)")
    return record["n"], dump, digest


def read_log(directory: Path, *, repair: bool = False) -> list[dict[str, Any]]:
    """Every record of DIR/log.jsonl. A torn last line (no newline) is ignored, and cut off
    when ``repair``; any other line that is not a JSON object raises SessionCorrupt."""
    path = directory / LOG
    raw = path.read_bytes()
    lines = raw.split(b"\n")
    tail = lines.pop()  # b"" when the file ends with a newline
    if tail and repair:
        with builtins.open(path, "r+b") as handle:
            handle.truncate(len(raw) - len(tail))
            handle.flush()
            os.fsync(handle.fileno())
    records = []
    for number, line in enumerate(lines, 1):
        try:
            record = json.loads(line.decode("utf-8"))
        except (UnicodeError, ValueError):
            record = None
        if not isinstance(record, dict) or "type" not in record:
            raise SessionCorrupt(f"{path}:{number}: not JSON (a log line was damaged or "
                                 f"edited)")
        records.append(record)
    header = records[0] if records else {}
    if (header.get("type") != "session" or not isinstance(header.get("game"), str)
            or not isinstance(header.get("seed"), int)):
        raise SessionCorrupt(f"{path}:1: not a referee session log (expected a session "
                             f"header with game and seed)")
    return records


def _accepted(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The header and the accepted command lines, checked to count 0, 1, 2, ..."""
    steps = [records[0]] + [r for r in records[1:]
                            if r.get("type") == "command" and r.get("result") == "ok"]
    for expected, record in enumerate(steps):
        if record.get("n") != expected or not isinstance(record.get("hash"), str):
            raise SessionCorrupt(f"log.jsonl: accepted command {expected} is recorded as "
                                 f"n={record.get('n')!r}; the log was edited")
    return steps


# --------------------------------------------------------------------------- locking


class _Lock:
    """An exclusive, non-blocking flock on DIR/.lock, held until :meth:`release`."""

    def __init__(self, directory: Path):
        self.handle = builtins.open(directory / LOCK, "a+b")
        try:
            fcntl.flock(self.handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self.handle.close()
            raise BadInput(f"session {directory} is busy: another warpress referee command "
                           f"holds {directory / LOCK}; try again when it has finished") from None

    def release(self) -> None:
        if not self.handle.closed:
            fcntl.flock(self.handle.fileno(), fcntl.LOCK_UN)
            self.handle.close()


# --------------------------------------------------------------------------- scenario


def _game_ref(game: str) -> str:
    """How the log names a game: a built-in id as is, a folder as an absolute path."""
    from .loader import builtin_games

    return game if game in builtin_games() else str(Path(game).resolve())


def _scenario_file(referee: Referee, game: Game, scenario: str | None) -> tuple[str | None,
                                                                                Path | None]:
    """``(scenario as logged, its file)``: a shipped name, or an absolute path. Only finds the
    file (``referee.scenario_file``); reads no scenario."""
    try:
        path = referee.scenario_file(game, scenario)
    except BadInput:
        return scenario, None  # load_scenario says what is allowed
    if scenario is None:  # the default: logged by its shipped name (the file's stem)
        scenario = path.stem if _finds(referee, game, path.stem, path) else str(path.resolve())
    elif Path(scenario).is_file() and Path(scenario).resolve() == path.resolve():
        return str(path.resolve()), path.resolve()  # a file the user gave, not a name
    return scenario, path if path.is_file() else None


def _finds(referee: Referee, game: Game, name: str, path: Path) -> bool:
    """Whether the referee finds ``name`` as the file ``path``."""
    try:
        return referee.scenario_file(game, name).resolve() == path.resolve()
    except BadInput:
        return False


def _file_sha256(path: Path | None) -> str | None:
    return sha256(path.read_bytes()) if path is not None else None


# --------------------------------------------------------------------------- the session


@dataclass(frozen=True)
class ReplayReport:
    """What :meth:`Session.replay` found: the steps replayed and every difference."""

    n: int
    differences: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    state_file: str = "ok"  # how state.json was before: ok, missing, or the problem

    @property
    def ok(self) -> bool:
        return not self.differences


@dataclass
class Session:
    """An open, locked referee session. Use as a context manager, or call :meth:`close`."""

    directory: Path
    game: Game
    referee: Referee
    header: dict[str, Any]
    state: Any
    n: int
    key: bytes = field(repr=False)
    lock: _Lock | None = field(default=None, repr=False)

    # -- lifecycle

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self.lock is not None:
            self.lock.release()
            self.lock = None

    @property
    def seed(self) -> int:
        return self.header["seed"]

    @property
    def scenario(self) -> str | None:
        return self.header.get("scenario")

    # -- commands

    def command(self, name: str, args: Mapping[str, Any]) -> Step:
        """Apply one player command; log it; rewrite the state. Refusals change only the
        log (RuleViolation and the referee's BadInput are logged and re-raised)."""
        if name not in self.referee.commands:
            raise BadInput(f"unknown command {name!r} for {self.game.id} "
                           f"(commands: {', '.join(self.referee.commands)})")
        args = dict(args)
        dice = SeededDice(derived_seed(self.seed, self.n + 1))
        try:
            step = self.referee.apply(self.game, self.state, name, args, dice)
        except RuleViolation as exc:
            self._log_refusal(name, args, str(exc), exc.rule)
            raise
        except BadInput as exc:
            self._log_refusal(name, args, str(exc), None)
            raise
        dump = self.referee.dump(step.state)
        n = self.n + 1
        _append(self.directory / LOG, {"type": "command", "n": n, "command": name,
                                       "args": args, "result": "ok",
                                       "hash": state_hash(dump), "time": _now()})
        write_state(self.directory, n, dump, self.key)
        self.state, self.n = step.state, n
        return step

    def _log_refusal(self, name: str, args: dict[str, Any], message: str,
                     rule: str | None) -> None:
        """Log a refused command with the hash of the state it left unchanged (the referee's
        states are immutable, so it is hashed only here)."""
        digest = state_hash(self.referee.dump(self.state))
        _append(self.directory / LOG, {"type": "command", "n": self.n, "command": name,
                                       "args": args, "result": "refused", "message": message,
                                       "rule": rule, "hash": digest, "time": _now()})

    # -- views

    def player_view(self) -> dict[str, Any]:
        return self.referee.player_view(self.game, self.state)

    def referee_view(self) -> dict[str, Any]:
        """The whole truth; recorded in the log as a reveal."""
        return self.reveal()[0]

    def reveal(self, map_format: str | None = None) -> tuple[dict[str, Any], bytes | None]:
        """The referee's view and, when ``map_format`` ("svg", "png") is given, the umpire
        map; one reveal event in the log, written once both are drawn (a map that cannot be
        drawn shows nothing and logs nothing)."""
        view = self.referee.referee_view(self.game, self.state)
        drawn = (self.referee.render_referee_map(self.game, self.state, map_format)
                 if map_format else None)
        _append(self.directory / LOG, {"type": "reveal", "n": self.n,
                                       "map": map_format is not None, "time": _now()})
        return view, drawn

    def announcements(self) -> list[dict[str, Any]]:
        """This turn's announcements, as the player view holds them."""
        return list(self.player_view().get("announcements") or [])

    def summary(self) -> dict[str, Any] | None:
        return self.referee.summary(self.game, self.state)

    def render_player_map(self, fmt: str = "svg") -> bytes:
        return self.referee.render_player_map(self.game, self.state, fmt)

    def history(self) -> list[dict[str, Any]]:
        """Every log record, the session header first."""
        return read_log(self.directory)

    # -- replay

    def replay(self) -> ReplayReport:
        """Rebuild the state from the log and scenario, checking every logged hash (see
        :func:`replay`)."""
        report, state, n = _replay(self.directory, self.game, self.referee,
                                   read_log(self.directory), self.key)
        if report.ok:
            self.state, self.n = state, n
        return report


def _replay_steps(game: Game, referee: Referee, seed: int, state: Any,
                  steps: list[dict[str, Any]]) -> tuple[Any, list[str]]:
    """Apply logged accepted commands to ``state``; the differences from the logged hashes.
    Stops at the first command that is refused now."""
    differences = []
    for record in steps:
        n = record["n"]
        try:
            step = referee.apply(game, state, record.get("command"), dict(record.get("args")
                                                                          or {}),
                                 SeededDice(derived_seed(seed, n)))
        except (RuleViolation, BadInput) as exc:
            differences.append(f"command {n} ({record.get('command')}) is refused on replay: "
                               f"{exc}")
            break
        state = step.state
        if state_hash(referee.dump(state)) != record["hash"]:
            differences.append(f"command {n} ({record.get('command')}): the replayed state "
                               f"differs from the logged hash")
    return state, differences


def _rebuild(directory: Path, game: Game, referee: Referee,
             records: list[dict[str, Any]]) -> tuple[Any, int, list[str], list[str]]:
    """Replay a whole log from the scenario: (state, n, differences, notes)."""
    header = records[0]
    steps = _accepted(records)
    notes = []
    _name, path = _scenario_file(referee, game, header.get("scenario"))
    if header.get("scenario_sha256") != _file_sha256(path):
        notes.append(f"scenario {header.get('scenario')!r} changed since the session began")
    if header.get("warpress") != _version():
        notes.append(f"session began with warpress {header.get('warpress')}, "
                     f"replayed with {_version()}")
    scenario = referee.load_scenario(game, header.get("scenario"))
    state = referee.new(game, scenario, SeededDice(derived_seed(header["seed"], 0))).state
    differences = []
    if state_hash(referee.dump(state)) != header["hash"]:
        differences.append("set-up (n=0): the replayed state differs from the logged hash")
    state, more = _replay_steps(game, referee, header["seed"], state, steps[1:])
    differences += more
    if differences:
        differences.append("the log, the scenario or warpress changed; state.json was "
                           "left as it was")
    return state, steps[-1]["n"], differences, notes


# --------------------------------------------------------------------------- create / open


def create(directory: str | Path, game: str, scenario: str | None = None,
           seed: int | None = None) -> Session:
    """Start a session in ``directory`` (created if needed): set up the scenario, write the
    key, the state and the log header. BadInput if it already holds a session."""
    from .loader import load_cached

    directory = Path(directory)
    _refuse_existing(directory)
    data = load_cached(game)
    referee = referee_for(data)
    logged, path = _scenario_file(referee, data, scenario)
    loaded = referee.load_scenario(data, logged)
    seed = secrets.randbits(63) if seed is None else seed
    state = referee.new(data, loaded, SeededDice(derived_seed(seed, 0))).state
    dump = referee.dump(state)
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BadInput(f"session directory {str(directory)!r} cannot be created: "
                       f"{exc.strerror}") from None
    lock = _Lock(directory)
    try:
        _refuse_existing(directory)
        key = _new_key(directory)
        write_state(directory, 0, dump, key)
        header = {"type": "session", "format": FORMAT, "game": _game_ref(game),
                  "scenario": logged, "scenario_sha256": _file_sha256(path), "seed": seed,
                  "warpress": _version(), "n": 0, "hash": state_hash(dump), "time": _now()}
        _append(directory / LOG, header)
    except BaseException:
        lock.release()
        raise
    return Session(directory, data, referee, header, state, 0, key, lock)


def _refuse_existing(directory: Path) -> None:
    if directory.exists() and not directory.is_dir():
        raise BadInput(f"--session {str(directory)!r} is a file, not a directory")
    if (directory / LOG).exists():
        raise BadInput(f"{directory} already holds a referee session ({LOG}); choose another "
                       f"--session DIR")


def open(directory: str | Path) -> Session:  # shadows builtins.open on purpose: session.open
    """Open (and lock) the session in ``directory``, verifying the state against the log and
    replaying commands a crash left out of the state file."""
    from .loader import load_cached

    directory = _existing(directory)
    lock = _Lock(directory)
    try:
        records = read_log(directory, repair=True)
        header = records[0]
        data = load_cached(header["game"])
        referee = referee_for(data)
        key = _read_key(directory)
        state, n = _load_verified(directory, data, referee, records, key)
    except BaseException:
        lock.release()
        raise
    return Session(directory, data, referee, header, state, n, key, lock)


def replay(directory: str | Path) -> ReplayReport:
    """Rebuild DIR/state.json from the log and scenario, whatever state.json holds (also when
    it is missing, damaged or edited). When every replayed hash matches the log, the state is
    rewritten; otherwise it is left alone and the report lists the differences."""
    from .loader import load_cached

    directory = _existing(directory)
    lock = _Lock(directory)
    try:
        records = read_log(directory, repair=True)
        data = load_cached(records[0]["game"])
        referee = referee_for(data)
        try:
            key = _read_key(directory)
        except SessionCorrupt:
            key = _new_key(directory)
        return _replay(directory, data, referee, records, key)[0]
    finally:
        lock.release()


def _replay(directory: Path, game: Game, referee: Referee, records: list[dict[str, Any]],
            key: bytes) -> tuple[ReplayReport, Any, int]:
    try:
        read_state(directory, key)
        before = "ok"
    except FileNotFoundError:
        before = "missing"
    except SessionCorrupt as exc:
        before = str(exc)
    state, n, differences, notes = _rebuild(directory, game, referee, records)
    if not differences:
        write_state(directory, n, referee.dump(state), key)
    return ReplayReport(n, tuple(differences), tuple(notes), before), state, n


def _new_key(directory: Path) -> bytes:
    key = secrets.token_bytes(32)
    write_atomically(directory / KEY, key.hex().encode() + b"\n")
    os.chmod(directory / KEY, 0o600)
    return key


def _existing(directory: str | Path) -> Path:
    directory = Path(directory)
    if not (directory / LOG).is_file():
        raise BadInput(f"no referee session in {directory} (no {LOG}); start one with "
                       f"`warpress referee new GAME --session {directory}`")
    return directory


def _read_key(directory: Path) -> bytes:
    path = directory / KEY
    try:
        return bytes.fromhex(path.read_text(encoding="ascii").strip())
    except FileNotFoundError:
        raise SessionCorrupt(f"{path}: missing; the state cannot be read (`warpress referee "
                             f"replay --session {directory}` rebuilds it)") from None
    except (UnicodeError, ValueError):
        raise SessionCorrupt(f"{path}: not a session key (expected 64 hex digits)") from None


def _load_verified(directory: Path, game: Game, referee: Referee,
                   records: list[dict[str, Any]], key: bytes) -> tuple[Any, int]:
    """The verified state; replays the commands the log holds beyond it (crash recovery)."""
    steps = _accepted(records)
    try:
        n, dump, digest = read_state(directory, key)
    except FileNotFoundError:
        state, n, differences, _notes = _rebuild(directory, game, referee, records)
        if differences:
            raise SessionCorrupt(f"{directory / STATE}: missing, and the log does not replay: "
                                 f"{differences[0]}") from None
        write_state(directory, n, referee.dump(state), key)
        return state, n
    if n >= len(steps):
        raise SessionCorrupt(f"{directory / STATE}: checksum mismatch: the state is at command "
                             f"{n} but {LOG} records only {len(steps) - 1}")
    if steps[n]["hash"] != digest:
        raise SessionCorrupt(f"{directory / STATE}: checksum mismatch with {LOG} at command "
                             f"{n}; `warpress referee replay --session {directory}` rebuilds it")
    state = referee.load(game, dump)
    if n + 1 < len(steps):  # the log is ahead: a crash before the state was renamed
        state, differences = _replay_steps(game, referee, records[0]["seed"], state,
                                           steps[n + 1:])
        if differences:
            raise SessionCorrupt(f"{directory / LOG}: recovery failed: {differences[0]}")
        n = len(steps) - 1
        write_state(directory, n, referee.dump(state), key)
    return state, n

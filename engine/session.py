"""Referee sessions as files: a hash-chained command log, an atomically rewritten state, replay.

A session is a directory (``--session DIR``) holding

``log.jsonl``
    One JSON object per line, appended with flush + fsync and never rewritten (the one
    exception: ``replay`` upgrades a format-1 log, below). The first line (``"type":
    "session"``, ``"format": 2``) records the session's ``id`` (random), the game (its id;
    for a game folder also ``folder``, its absolute path, which is opened only when the user
    names it or trusts it: :func:`session_game`), the scenario (shipped name or absolute path)
    and the SHA-256 of the scenario file's bytes, the seed, the warpress version and the
    SHA-256 of the state after set-up (``n`` 0). Then one
    ``"type": "command"`` line per player command: ``n`` (the number of accepted commands
    after it), ``command``, ``args``, ``result`` (``"ok"`` or ``"refused"`` with ``message``
    and, for a rule, ``rule``) and ``hash``, the SHA-256 of the state after it. ``"type":
    "reveal"`` lines record each look at the referee's map, ``"type": "rollback"`` lines
    each time the user accepted a session behind its anchor (the ``lines`` and ``head`` it
    left). Every line after the first
    carries ``prev``, the SHA-256 of the bytes of the line before it (without its newline):
    the log is a hash chain. The log holds only what the player typed and saw, never a hidden
    fact: an argument the rules keep secret from the other side (``sealed_args``, e.g. a
    written plan) is logged sealed (``"sealed:NONCE:DATA"``, below), never as typed.
``state.json``
    Rewritten atomically (temporary file in DIR, fsync, ``os.replace``) after every line the
    log gains: ``n``, the referee's ``dump(state)`` obfuscated in ``state`` (see below),
    ``state_sha256`` (the SHA-256 of the dump's canonical JSON: sorted keys, compact
    separators; the value the log records for step ``n``), ``log_lines`` and ``log_sha256``
    (how many log lines it was written after, and the SHA-256 of the last of them: the anchor
    of the chain) and ``checksum``, the SHA-256 of the canonical JSON of every other field.
``key``
    32 random bytes (hex), the per-session obfuscation key.
``.lock``
    Locked exclusively (``flock``, non-blocking) by every command that writes: a second
    one on the same session at the same time is refused as busy. ``status`` and ``log`` take
    no lock and write nothing in the folder (only the session's anchor, outside it), so they
    work in a folder the user cannot write: they read
    ``state.json`` before ``log.jsonl``, and as a writer appends to the log before it replaces
    the state, what they read is always one consistent moment.

Every session file is opened without following a symbolic link (``O_NOFOLLOW``; where the
system has none, a link is refused before opening) and must be a regular file: a planted
link, a folder or a FIFO in its place is refused with one line. The log and the state may
hold at most 8 MiB each (``MAX_BYTES``).

Integrity: every command reads the whole log and checks it line by line: each line is a JSON
object with the fields of its type (a wrong type is named: ``log.jsonl:5: args: expected an
object``), ``prev`` is the hash of the line before (an edit of a line, a deletion, an
insertion or a reordering breaks the chain at the next line), ``n`` counts the accepted
commands. The last line the state was written after must be there, with the hash the state
recorded: a truncated log (``log.jsonl ends at line 3 but state.json was written after line
5``) or an edited last line is reported, never used. A torn write is only a last line that
is not a complete JSON record (no newline and not JSON): readers ignore it and the next
command that appends cuts it off. A complete last line without its newline is a record like
any other; the next append first adds the newline. No command deletes a complete record.

Anchors: outside the folder a player edits, in the state folder (``engine/places.py``),
every session keeps an anchor, the length of its log and the SHA-256 of its last line as
this machine last saw them, written after every line the log gains and whenever a command
reads a longer log. A log shorter than its anchor, or whose line at the anchor differs, is
refused by every command (:class:`SessionBehind`): both files rolled back to an older copy,
a cut log with its state deleted, a reveal erased. ``replay --accept-rollback`` goes on from
it and logs that. A missing or empty log beside a state written after more than the first
line is a deleted log, never "no session". A state file rebuilt or caught up from the log is
a note on stderr (``engine/notes.py``).

Dice: step ``n`` (0 is the set-up) rolls with ``SeededDice(derived_seed(seed, n))``, a
SHA-256 of ``f"{seed}:{n}"``; replay is exact and independent of Python's hash
randomisation. A refused command rolls with the dice of the step it would have been and
is thrown away, so refusals never shift later rolls.

Commands: the state is loaded and verified, the referee applies the command, then the log
line is appended and only then the state file replaced. A command the rules forbid
(``RuleViolation``) or that names something that does not exist (``BadInput`` raised by the
referee: an unknown fighter, counter or hex) is logged as ``"refused"`` with its message
and re-raised; the game state is untouched. A command name the game's referee does not
accept is rejected before anything is logged.

Crash safety: ``new`` writes the key and the state first and publishes the log last (its
header written to a temporary file, fsynced, then renamed to ``log.jsonl``): a kill at any
point leaves either a whole session or a folder without ``log.jsonl`` (or, from an older
warpress, an empty one) that ``new`` takes again and ``status`` reports as holding no
session. A process killed between a log append and the state rename leaves the log ahead of
the state; the next command replays the missing commands (checking each hash against the
log) and rewrites the state; ``status`` and ``log`` do the same in memory only. A missing
state file is rebuilt from the log.

State integrity: a state file that is not JSON, whose checksum does not match its content or
whose state hash differs from the log's record for that step is reported
(:class:`SessionCorrupt`), never used. :func:`replay` rebuilds the state from the log and
scenario and reports any step whose replayed hash differs from the logged one (the
scenario or the engine changed, or the log was edited and its chain recomputed); then the
state file is left alone. When everything matches it rewrites ``state.json`` only if it
differs (a healthy session in a read-only folder replays without writing).

Sessions from before the hash chain (format 1: no ``prev``) are refused by every command
with a line naming the fix, ``warpress referee replay``: replay checks such a log by
replaying every step, and only if every hash matches it keeps the old log as
``log.format1.jsonl`` and writes ``log.jsonl`` again in format 2 (the same records, each
with its ``prev``) and the state with its anchor.

Hidden state at rest: the dump holds what the player must not see (e.g. bomber positions).
``state.json`` stores it zlib-compressed and XORed with a keystream of SHA-256 blocks of the
``key`` file, base64-encoded, so opening the file does not show hidden positions at a
glance. This protects against an accidental glance only: whoever owns the files has the key,
and the log and seed replay the whole game anyway; for the same reason the hash chain
catches edits and accidents, not a determined forger who recomputes it (the anchor does, on
the machine that played). It is not encryption against a determined player.

Sealed arguments: a game's rules may name arguments of their commands that the other side
must not read (``Referee.sealed_args``: command -> argument names; Midway's US plan). The log
records such an argument as ``"sealed:NONCE:DATA"``: its JSON value, padded with spaces to a
multiple of 64 bytes (its length says nothing) and XORed with a keystream of the session key
and a random NONCE drawn for it (the same value sealed twice reads differently, and two
seals never share a keystream), base64-encoded. The chain covers the sealed text, and
replay, undo and recovery open it with the key. Like the state, this hides the value from a
glance at the folder (and from ``play log``, which prints it as sealed), not from whoever
reads the key.
"""

from __future__ import annotations

import base64
import errno
import hashlib
import json
import os
import secrets
import stat
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

try:  # an exclusive lock: the system's own on POSIX (no import cost), portalocker elsewhere
    import fcntl

    _FCNTL = True
    _BUSY: tuple[type[Exception], ...] = (BlockingIOError, PermissionError)
except ImportError:  # pragma: no cover - Windows
    _FCNTL = False
    import portalocker

    _BUSY = (getattr(portalocker, "LockException", OSError),)

from . import limits
from .decisions import Decision
from .dice import SeededDice, derived_seed
from .errors import BadInput, RuleViolation
from .inputs import quote
from .model import Game
from .notes import tell
from .places import write_atomically
from .position import Position
from .referee import Referee, Step
from .rulesets import rules_for

LOG = "log.jsonl"
STATE = "state.json"
KEY = "key"
LOCK = ".lock"
OLD_LOG = "log.format1.jsonl"  # where replay keeps a format-1 log it upgrades
FORMAT = 2
#: the most bytes of each session file: every command reads and checks the whole log, so
#: its size bounds every command's time, and a session folder handed over cannot stall one.
#: A whole game of Battle for Moscow (tests/fixtures/games/moscow) by random agents logs 360
#: lines, 111,539 bytes; its state is 1,242 bytes.
MAX_BYTES = {LOG: 8 * 2**20, STATE: 8 * 2**20, KEY: 1024}

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # a FIFO planted as a session file must not hang
_BINARY = getattr(os, "O_BINARY", 0)
_WRITES = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
_UNWRITABLE = {errno.EACCES, errno.EPERM, errno.EROFS}


class SessionCorrupt(BadInput):
    """A session file is damaged, edited or disagrees with the log; the message says which."""


class SessionOutdated(SessionCorrupt):
    """A session written before the hash chain (format 1); ``replay`` upgrades it."""


class NotAFile(SessionCorrupt):
    """A session file is a symbolic link, a folder or another kind of file (refused)."""


class SessionUnwritable(BadInput):
    """A command that writes found the session folder (or one of its files) not writable."""


# --------------------------------------------------------------------------- pure helpers


def canonical(value: Any) -> bytes:
    """The canonical JSON bytes of ``value``: sorted keys, compact separators, UTF-8."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False).encode("utf-8")


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def public_head(records: list[dict[str, Any]]) -> str:
    """A hash chained over the log's records without the position hashes they carry
    (``hash``, and ``prev``, which covers them): two copies of a session share it exactly
    when they hold the same lines, and it reveals nothing hidden in the position."""
    head = ""
    for record in records:
        public = {k: v for k, v in record.items() if k not in ("hash", "prev")}
        head = sha256(head.encode("ascii") + canonical(public))
    return head


def state_hash(dump: Mapping[str, Any]) -> str:
    """SHA-256 of a referee dump's canonical JSON (what the log records per step)."""
    return sha256(canonical(dump))


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


SEALED = "sealed:"
SEAL_BLOCK = 64  # a sealed value's JSON is padded to a multiple of this many bytes


def seal(value: Any, key: bytes) -> str:
    """``value`` as the log keeps a sealed argument: ``sealed:NONCE:DATA`` (see the module
    docstring); a fresh random nonce each time, the JSON padded with spaces to a multiple
    of SEAL_BLOCK bytes (a short plan and a long one read alike)."""
    nonce = secrets.token_bytes(16)
    data = canonical(value)
    data += b" " * (-len(data) % SEAL_BLOCK)
    return f"{SEALED}{nonce.hex()}:{base64.b64encode(_xor(data, key + nonce)).decode('ascii')}"


def unseal(text: str, key: bytes) -> Any:
    """The value :func:`seal` sealed in ``text``; ValueError when it does not open."""
    nonce, _, data = text.removeprefix(SEALED).partition(":")
    try:
        salt = bytes.fromhex(nonce)
        if not text.startswith(SEALED) or len(salt) != 16:
            raise ValueError("no nonce")
        raw = _xor(base64.b64decode(data.encode("ascii"), validate=True), key + salt)
        return json.loads(raw.decode("utf-8"))
    except (UnicodeError, ValueError, TypeError):
        raise ValueError(f"not a value sealed with this key: {text[:40]!r}") from None


def sealed_names(referee: Referee, command: str) -> tuple[str, ...]:
    """The arguments of ``command`` the log keeps sealed (``referee.sealed_args``)."""
    return tuple((getattr(referee, "sealed_args", None) or {}).get(command, ()))


def logged_args(referee: Referee, command: str, args: Mapping[str, Any],
                key: bytes) -> dict[str, Any]:
    """``args`` as the log records them: the sealed ones sealed."""
    hidden = sealed_names(referee, command)
    return {name: seal(value, key) if name in hidden else value
            for name, value in args.items()}


def opened_args(referee: Referee, record: Mapping[str, Any], key: bytes) -> dict[str, Any]:
    """A logged command's arguments as typed: the sealed ones opened with ``key``
    (ValueError when one does not open). A value logged before it was sealed is taken as
    it stands."""
    hidden = sealed_names(referee, record["command"])
    return {name: unseal(value, key) if name in hidden and isinstance(value, str)
            and value.startswith(SEALED) else value
            for name, value in record["args"].items()}


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("warpress")
    except PackageNotFoundError:
        return "unknown"


def _line(record: Mapping[str, Any]) -> bytes:
    """A log record as the bytes of its line (without the newline)."""
    return json.dumps(record, ensure_ascii=False, sort_keys=True).encode("utf-8")


# --------------------------------------------------------------------------- file I/O


def _open_file(path: Path, flags: int, mode: int = 0o600) -> int:
    """A descriptor of the regular file ``path`` opened without following a symbolic link.
    FileNotFoundError passes; a link, a folder or another kind of file is SessionCorrupt,
    any other failure BadInput (SessionUnwritable when writing is not allowed), one line."""
    if not _NOFOLLOW and path.is_symlink():  # a system without O_NOFOLLOW (Windows)
        raise _refused_kind(path, "a symbolic link")
    writing = bool(flags & _WRITES)
    try:
        fd = os.open(path, flags | _NOFOLLOW | _BINARY | (0 if writing else _NONBLOCK), mode)
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise _os_problem(path, exc, writing) from None
    try:
        kind = stat.S_IFMT(os.fstat(fd).st_mode)
        if kind != stat.S_IFREG:
            raise _refused_kind(path, "a folder" if kind == stat.S_IFDIR else "not a file")
    except BaseException:
        os.close(fd)
        raise
    return fd


def _refused_kind(path: Path, what: str) -> NotAFile:
    return NotAFile(f"{path}: is {what}; a session's files must be regular files in "
                          f"its folder (refused)")


def _os_problem(path: Path, exc: OSError, writing: bool) -> BadInput:
    """One line for an OSError on a session file."""
    if exc.errno in (errno.ELOOP, errno.EMLINK):  # O_NOFOLLOW met a link (EMLINK: BSD)
        return _refused_kind(path, "a symbolic link")
    if exc.errno == errno.EISDIR:
        return _refused_kind(path, "a folder")
    verb = "write" if writing else "read"
    if writing and exc.errno in _UNWRITABLE:
        return SessionUnwritable(f"{path}: cannot {verb}: {exc.strerror} (play commands, "
                                 f"reveal and new write the session folder; status, log and "
                                 f"replay of a healthy session only read it)")
    return BadInput(f"{path}: cannot {verb}: {exc.strerror or exc}")


def _read_file(path: Path) -> bytes:
    """The bytes of a session file (at most ``MAX_BYTES[name]``); FileNotFoundError passes."""
    fd = _open_file(path, os.O_RDONLY)
    limit = MAX_BYTES.get(path.name, MAX_BYTES[LOG])
    try:
        if os.fstat(fd).st_size > limit:
            raise SessionCorrupt(f"{path}: larger than {limit:,} bytes, the most a session "
                                 f"file may hold")
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
            size += len(chunk)
        raise SessionCorrupt(f"{path}: larger than {limit:,} bytes, the most a session "
                             f"file may hold")
    except OSError as exc:
        raise _os_problem(path, exc, False) from None
    finally:
        os.close(fd)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _write_session_file(path: Path, data: bytes) -> None:
    """:func:`write_atomically` for a session file: a folder in its place, or a folder that
    cannot be written, is one line."""
    try:
        if path.is_dir() and not path.is_symlink():
            raise _refused_kind(path, "a folder")
        write_atomically(path, data)
    except OSError as exc:
        raise _os_problem(path, exc, True) from None


def _clean_temporary_files(directory: Path) -> None:
    """Remove the temporary files a killed writer left (only under the exclusive lock)."""
    for name in (LOG, STATE, KEY, OLD_LOG):
        for leftover in directory.glob(f".{name}-*.tmp"):
            if leftover.is_file() and not leftover.is_symlink():
                leftover.unlink(missing_ok=True)


# --------------------------------------------------------------------------- state.json


@dataclass(frozen=True)
class StateFile:
    """A verified state.json: step ``n``'s dump and the log line it was written after."""

    n: int
    dump: dict[str, Any]
    digest: str
    log_lines: int
    log_sha256: str


_STATE_FIELDS = ("format", "n", "state", "state_sha256", "log_lines", "log_sha256", "checksum")


def _state_bytes(n: int, dump: Mapping[str, Any], key: bytes, log_lines: int,
                 log_sha256: str) -> bytes:
    body = {"format": FORMAT, "n": n, "state": obfuscate(dump, key),
            "state_sha256": state_hash(dump), "log_lines": log_lines, "log_sha256": log_sha256}
    record = {**body, "checksum": sha256(canonical(body))}
    return (json.dumps(record, indent=1) + "\n").encode()


def write_state(directory: Path, n: int, dump: Mapping[str, Any], key: bytes,
                log_lines: int, log_sha256: str) -> None:
    """Rewrite DIR/state.json atomically with step ``n``'s dump, written after log line
    ``log_lines`` whose SHA-256 is ``log_sha256``."""
    _write_session_file(directory / STATE,
                        _state_bytes(n, dump, key, log_lines, log_sha256))


def read_state(directory: Path, key: bytes) -> StateFile:
    """DIR/state.json, verified; SessionCorrupt if not, FileNotFoundError if missing."""
    path = directory / STATE
    rebuild = f"`warpress referee replay --session {directory}` rebuilds it"
    raw = _read_file(path)
    try:
        record = json.loads(raw.decode("utf-8"))
    except (UnicodeError, ValueError):
        raise SessionCorrupt(f"{path}: not JSON; {rebuild} from the log") from None
    if isinstance(record, dict) and record.get("format") == 1:
        raise SessionCorrupt(f"{path}: format 1, from before the hash chain; {rebuild}")
    if not isinstance(record, dict) or any(name not in record for name in _STATE_FIELDS):
        raise SessionCorrupt(f"{path}: not a session state (expected the keys "
                             f"{', '.join(_STATE_FIELDS)}); {rebuild}")
    body = {k: v for k, v in record.items() if k != "checksum"}
    if record["checksum"] != sha256(canonical(body)):
        raise SessionCorrupt(f"{path}: checksum mismatch (the file was edited or damaged); "
                             f"{rebuild}")
    try:
        dump = deobfuscate(record["state"], key)
    except (ValueError, AttributeError):
        raise SessionCorrupt(f"{path}: checksum mismatch (the state does not decode with "
                             f"{directory / KEY}); {rebuild}") from None
    digest = state_hash(dump)
    counts = (record["n"], record["log_lines"])
    if (digest != record["state_sha256"] or not all(type(c) is int and c >= 0 for c in counts)
            or not isinstance(record["log_sha256"], str) or not isinstance(dump, dict)):
        raise SessionCorrupt(f"{path}: checksum mismatch (state_sha256 differs from the "
                             f"state it holds); {rebuild}")
    return StateFile(record["n"], dump, digest, record["log_lines"], record["log_sha256"])


# --------------------------------------------------------------------------- log.jsonl

_SCHEMA: dict[str, dict[str, tuple[Any, ...]]] = {
    "session": {"format": (int,), "game": (str,), "scenario": (str, None),
                "scenario_sha256": (str, None), "seed": (int,), "warpress": (str,),
                "n": (int,), "hash": (str,), "time": (str,)},
    "command": {"n": (int,), "command": (str,), "args": (dict,), "result": (str,),
                "hash": (str,), "time": (str,)},
    "reveal": {"n": (int,), "map": (bool,), "time": (str,)},
    "rollback": {"n": (int,), "lines": (int,), "head": (str,), "time": (str,)},
    "undo": {"n": (int,), "hash": (str,), "time": (str,)},
}
_OPTIONAL: dict[str, dict[str, tuple[Any, ...]]] = {
    "session": {"id": (str,), "folder": (str,), "agents": (dict,)},
    "command": {"message": (str,), "rule": (str, None), "agent": (str,)},
}
_KIND_NAMES = {int: "an integer", str: "a string", bool: "true or false", dict: "an object",
               None: "null"}
_ARG_KINDS = (str, int, bool, None)


def _is(value: Any, kinds: tuple[Any, ...]) -> bool:
    """Whether ``value`` is one of the JSON ``kinds`` (an int is not a bool, nor the reverse)."""
    return any(value is None if kind is None else type(value) is kind for kind in kinds)


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return f"{type(value).__name__} {text if len(text) <= 40 else text[:37] + '...'}"


@dataclass
class _Log:
    """The complete records of log.jsonl, checked, and where its bytes end."""

    path: Path
    records: list[dict[str, Any]]
    lines: list[bytes]  # the bytes of each complete line, without its newline
    end: int  # the offset after the last complete line (and its newline, when it has one)
    newline: bool  # whether the last complete line ends with a newline
    size: int  # the file's size: more than ``end`` when a torn write follows
    steps: list[int] = field(default_factory=list)  # the lines of step 0 (the header), 1, ...

    @property
    def head(self) -> str:
        """The SHA-256 of the last line: the ``prev`` of the next."""
        return sha256(self.lines[-1])

    @property
    def format(self) -> int:
        return int(self.records[0]["format"])


def _split(raw: bytes) -> tuple[list[bytes], int, bool]:
    """``(complete lines, end, newline)``: the bytes after the last newline are a line only
    when they are a whole JSON object; otherwise they are a torn write, outside ``end``."""
    lines = raw.split(b"\n")
    tail = lines.pop()  # b"" when the file ends with a newline
    if tail and _is_object(tail):
        return lines + [tail], len(raw), False
    return lines, len(raw) - len(tail), True


def _is_object(line: bytes) -> bool:
    try:
        return isinstance(json.loads(line.decode("utf-8")), dict)
    except (UnicodeError, ValueError):
        return False


def _read_log(directory: Path, outdated_ok: bool = False) -> _Log:
    """DIR/log.jsonl with every line checked (see the module docstring); BadInput when the
    folder holds no session, SessionOutdated for a format-1 log (unless ``outdated_ok``: then
    it is checked without the chain), SessionCorrupt naming the first bad line otherwise."""
    path = directory / LOG
    try:
        raw = _read_file(path)
    except FileNotFoundError:
        raise _no_session(directory, f"no {LOG}") from None
    lines, end, newline = _split(raw)
    if not lines:
        _refuse_orphan_state(directory)
        raise _no_session(directory, f"{LOG} is empty: a `referee new` that did not finish")
    records = [_parse(path, number, line) for number, line in enumerate(lines, 1)]
    log = _Log(path, records, lines, end, newline, len(raw))
    _check_header(directory, log, outdated_ok)
    log.steps = _check_lines(log, chained=log.format == FORMAT)
    return log


def _no_session(directory: Path, why: str) -> BadInput:
    return BadInput(f"no referee session in {directory} ({why}); start one with "
                    f"`warpress referee new GAME --session {directory}`")


def _parse(path: Path, number: int, line: bytes) -> dict[str, Any]:
    try:
        record = json.loads(line.decode("utf-8"))
    except (UnicodeError, ValueError):
        record = None
    if not isinstance(record, dict):
        raise SessionCorrupt(f"{path}:{number}: not a JSON record (a log line was damaged or "
                             f"edited)")
    return record


def _check_header(directory: Path, log: _Log, outdated_ok: bool) -> None:
    header = log.records[0]
    if (header.get("type") != "session" or not isinstance(header.get("game"), str)
            or not _is(header.get("seed"), (int,))):
        raise SessionCorrupt(f"{log.path}:1: not a referee session log (expected a session "
                             f"header with game and seed)")
    if header.get("format") == 1 and not outdated_ok:
        raise SessionOutdated(f"{log.path}: a session from before the hash chain (format 1); "
                              f"`warpress referee replay --session {directory}` checks it and "
                              f"upgrades it")
    if header.get("format") not in (1, FORMAT):
        raise SessionCorrupt(f"{log.path}:1: format {header.get('format')!r} is not one this "
                             f"warpress reads ({FORMAT})")


def _check_lines(log: _Log, chained: bool = True) -> list[int]:
    """Check every record's fields, the hash chain (when ``chained``) and the count ``n``;
    the line numbers of the header and of each accepted command (step 0, 1, ...)."""
    steps: list[int] = []
    for number, record in enumerate(log.records, 1):
        _check_fields(log.path, number, record)
        if chained and number > 1 and record.get("prev") != sha256(log.lines[number - 2]):
            raise SessionCorrupt(f"{log.path}:{number}: hash chain broken: prev is not the "
                                 f"SHA-256 of line {number - 1} (a line was edited, deleted or "
                                 f"moved)")
        accepted = record["type"] == "session" or record.get("result") == "ok"
        if record["type"] == "undo":
            if len(steps) < 2:
                raise SessionCorrupt(f"{log.path}:{number}: an undo with no command to take "
                                     f"back")
            steps.pop()
        expected = len(steps) if accepted else len(steps) - 1
        if record["n"] != expected:
            raise SessionCorrupt(f"{log.path}:{number}: n is {record['n']} where {expected} "
                                 f"was due (lines were removed, added or edited)")
        if accepted:
            steps.append(number)
    return steps


def _check_fields(path: Path, number: int, record: dict[str, Any]) -> None:
    kind = record.get("type")
    if kind not in _SCHEMA or (number == 1) != (kind == "session"):
        allowed = "session" if number == 1 else "command, undo, reveal or rollback"
        raise SessionCorrupt(f"{path}:{number}: type: expected {allowed}, got "
                             f"{_shown(kind)}")
    fields = {**_SCHEMA[kind], **{k: v for k, v in _OPTIONAL.get(kind, {}).items()
                                  if k in record}}
    for name, kinds in fields.items():
        if name not in record or not _is(record[name], kinds):
            want = " or ".join(_KIND_NAMES[k] for k in kinds)
            got = _shown(record[name]) if name in record else "nothing"
            raise SessionCorrupt(f"{path}:{number}: {name}: expected {want}, got {got}")
    if kind == "command":
        _check_command(path, number, record)


def _check_command(path: Path, number: int, record: dict[str, Any]) -> None:
    if record["result"] not in ("ok", "refused"):
        raise SessionCorrupt(f"{path}:{number}: result: expected ok or refused, got "
                             f"{_shown(record['result'])}")
    if record["result"] == "refused" and not isinstance(record.get("message"), str):
        raise SessionCorrupt(f"{path}:{number}: message: a refused command needs its message")
    for name, value in record["args"].items():
        if not _is(value, _ARG_KINDS):
            raise SessionCorrupt(f"{path}:{number}: args.{name}: expected a string, a number, "
                                 f"true, false or null, got {_shown(value)}")


def _append(log: _Log, record: dict[str, Any]) -> None:
    """Append one record, chained to the last line, and force it to disk: a torn write after
    the last complete line is cut off first, and a last line without its newline gets it."""
    record = {**record, "prev": log.head}
    line = _line(record)
    data = (b"" if log.newline else b"\n") + line + b"\n"
    fd = _open_file(log.path, os.O_RDWR)
    try:
        if log.size != log.end:
            os.ftruncate(fd, log.end)
        os.lseek(fd, log.end, os.SEEK_SET)
        _write_all(fd, data)
        os.fsync(fd)
    except OSError as exc:
        raise _os_problem(log.path, exc, True) from None
    finally:
        os.close(fd)
    log.records.append(record)
    log.lines.append(line)
    log.end += len(data)
    log.size, log.newline = log.end, True


# --------------------------------------------------------------------------- locking


class _Lock:
    """An exclusive, non-blocking lock on DIR/.lock (``fcntl.flock`` on POSIX, portalocker
    elsewhere), held until :meth:`release`; BadInput "busy" when another command holds it,
    SessionUnwritable when the folder cannot be written. Commands that only read take
    none."""

    def __init__(self, directory: Path):
        path = directory / LOCK
        self.handle = os.fdopen(_open_file(path, os.O_RDWR | os.O_CREAT), "r+b")
        try:
            _lock(self.handle)
        except _BUSY:
            self.handle.close()
            raise BadInput(f"session {directory} is busy: another warpress play command "
                           f"holds {path}; try again when it has finished") from None

    def release(self) -> None:
        if not self.handle.closed:
            try:
                _unlock(self.handle)
            finally:
                self.handle.close()


def _lock(handle: IO[bytes]) -> None:
    if _FCNTL:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    else:  # pragma: no cover - Windows
        portalocker.lock(handle, portalocker.LockFlags.EXCLUSIVE
                         | portalocker.LockFlags.NON_BLOCKING)


def _unlock(handle: IO[bytes]) -> None:
    if _FCNTL:
        fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
    else:  # pragma: no cover - Windows
        portalocker.unlock(handle)


# --------------------------------------------------------------------------- scenario


def game_ref(game: str) -> str:
    """How a game is named to load it again in another process: a built-in or installed
    id as is, a game folder by its absolute path."""
    from .loader import builtin_games, entry_point_games

    if game in builtin_games() or game in entry_point_games():
        return game
    return str(Path(game).resolve())


def _game_fields(game: str, data: Game) -> dict[str, str]:
    """How the log names a game: ``game``, its id; for a game folder (neither shipped nor
    installed) also ``folder``, its absolute path, which is never opened on the log's word
    (:func:`session_game`)."""
    from .loader import builtin_games, entry_point_games

    if game in builtin_games() or game in entry_point_games():
        return {"game": game}
    return {"game": data.id, "folder": str(Path(game).resolve())}


def session_game(header: Mapping[str, Any], named: str | None = None) -> Game:
    """The game a session plays, from its log's header. A shipped or installed game is
    loaded by its id. A game folder is opened only when the user names it (``named``, the
    command's ``--game DIR``: it must hold the game the session plays) or when the folder
    the log names is trusted (``engine/trust.py``), or holds no Python at all (a game of
    YAML alone): a session folder handed over cannot choose the code that runs when it is
    opened."""
    from .loader import builtin_games, entry_point_games, load_cached
    from .trust import why_not

    game_id, folder = _header_game(header)
    if named is not None:
        data = load_cached(named)
        if data.id != game_id:
            raise BadInput(f"--game {quote(named, 400)} is the game {data.id!r}; the session plays "
                           f"{game_id!r}")
        return data
    if folder is None:
        if game_id not in builtin_games() and game_id not in entry_point_games():
            raise BadInput(f"the session plays the game {game_id!r}, which is neither "
                           f"shipped nor installed: name its folder with --game DIR")
        return load_cached(game_id)
    if why_not(Path(folder)) is not None and _has_python(Path(folder)):
        raise BadInput(f"the session plays the game folder {quote(folder, 400)} (game "
                       f"{game_id!r}); name it to open the session: --game DIR (its Python "
                       f"runs once you trust it: warpress trust DIR)")
    return load_cached(folder)


def _has_python(folder: Path) -> bool:
    """Whether a game folder holds Python (a folder of YAML alone runs no code when its
    session is opened, trusted or not)."""
    from .trust import python_files

    return not folder.is_dir() or bool(python_files(folder))


def _header_game(header: Mapping[str, Any]) -> tuple[str, str | None]:
    """``(game id, folder or None)`` of a log header; a log from before ``folder`` names a
    game folder by its absolute path in ``game``."""
    game = header["game"]
    if isinstance(header.get("folder"), str):
        return game, header["folder"]
    if "/" in game or os.sep in game:
        return Path(game).name, game
    return game, None


def _scenario_file(referee: Referee, game: Game, scenario: str | None) -> tuple[str | None,
                                                                                Path | None]:
    """``(scenario as logged, its file)``: a shipped name, or an absolute path. Only finds the
    file (``referee.scenario_file``); reads no scenario."""
    try:
        path = referee.scenario_file(game, scenario)
    except BadInput:
        return scenario, None  # load_scenario says what is allowed
    if path is None:  # the scenario is part of the game's data: logged by its name
        return (scenario if scenario is not None else referee.scenarios(game)[0].name), None
    if scenario is None:  # the default: logged by its shipped name (the file's stem)
        scenario = path.stem if _finds(referee, game, path.stem, path) else str(path.resolve())
    elif Path(scenario).is_file() and Path(scenario).resolve() == path.resolve():
        return str(path.resolve()), path.resolve()  # a file the user gave, not a name
    return scenario, path if path.is_file() else None


def _finds(referee: Referee, game: Game, name: str, path: Path) -> bool:
    """Whether the referee finds ``name`` as the file ``path``."""
    try:
        found = referee.scenario_file(game, name)
        return found is not None and found.resolve() == path.resolve()
    except BadInput:
        return False


def _file_sha256(path: Path | None) -> str | None:
    """The SHA-256 of a scenario file; of its first bytes past the most a game's file may
    hold (the log names the file: a huge one is not read whole, and the scenario's own
    reading refuses it)."""
    if path is None:
        return None
    with path.open("rb") as handle:
        return sha256(handle.read(limits.FILE_BYTES + 1))


# --------------------------------------------------------------------------- the session


@dataclass(frozen=True)
class ReplayReport:
    """What :func:`replay` found: the steps replayed and every difference."""

    n: int
    differences: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    state_file: str = "ok"  # how state.json was before: ok, missing, or the problem
    rewritten: bool = False  # whether state.json was written (it differed, or was missing)

    @property
    def ok(self) -> bool:
        return not self.differences


@dataclass
class Session:
    """An open referee session. Use as a context manager, or call :meth:`close`. Opened to
    write (locked), it runs commands and reveals; opened ``readonly`` it only reads."""

    directory: Path
    game: Game
    referee: Referee
    header: dict[str, Any]
    state: Any
    n: int
    key: bytes = field(repr=False)
    lock: _Lock | None = field(default=None, repr=False)
    log: _Log | None = field(default=None, repr=False)
    readonly: bool = False
    #: what the set-up announced (a session just created)
    started: tuple[Any, ...] = ()

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
        return int(self.header["seed"])

    @property
    def scenario(self) -> str | None:
        return self.header.get("scenario")

    @property
    def head(self) -> tuple[int, str]:
        """``(lines, head)`` of the log: where the session stands, for a player to note (and
        compare with an opponent's copy). The head is :func:`public_head`: it changes with
        every line but, unlike the chain's own hashes (which cover the whole position), says
        nothing of what a side may not see."""
        assert self.log is not None
        return len(self.log.lines), public_head(self.log.records)

    @property
    def agents(self) -> dict[str, str]:
        """The sides the session's agents play (``play new --agent SIDE=NAME``)."""
        return dict(self.header.get("agents") or {})

    # -- commands

    def command(self, name: str, args: Mapping[str, Any], agent: str | None = None) -> Step:
        """Apply one player command; log it (``agent``: the agent that chose it); rewrite
        the state. Refusals change only the log (RuleViolation and the referee's BadInput
        are logged and re-raised)."""
        if name not in self.referee.commands:
            raise BadInput(f"unknown command {name!r} for {self.game.id} "
                           f"(commands: {', '.join(self.referee.commands)})")
        self._check_writable()
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
        dump = step.state.to_json()
        n = self.n + 1
        record = {"type": "command", "n": n, "command": name,
                  "args": logged_args(self.referee, name, args, self.key), "result": "ok",
                  "hash": state_hash(dump), "time": _now()}
        if agent is not None:
            record["agent"] = agent
        self._record(record, n, dump)
        assert self.log is not None
        self.log.steps.append(len(self.log.lines))
        self.state, self.n = step.state, n
        return step

    def undo(self) -> Position:
        """Take back the last accepted command: the position before it is rebuilt from the
        log, and the undo is logged (its dice are the undone command's: a command made again
        in its place rolls the same)."""
        self._check_writable()
        assert self.log is not None
        if self.n == 0:
            raise BadInput(f"session {self.directory}: nothing to undo (no command accepted "
                           f"since the set-up)")
        standing = [self.log.records[number - 1] for number in self.log.steps[1:-1]]
        state = self.referee.new(self.game, self.referee.load_scenario(
            self.game, self.header["scenario"]), SeededDice(derived_seed(self.seed, 0))).state
        state, differences = _replay_steps(self.game, self.referee, self.seed, state, standing,
                                           self.key)
        if differences:
            raise SessionCorrupt(f"{self.log.path}: undo failed: {differences[0]}")
        dump = state.to_json()
        n = self.n - 1
        self._record({"type": "undo", "n": n, "hash": state_hash(dump), "time": _now()},
                     n, dump)
        self.log.steps.pop()
        self.state, self.n = state, n
        return state

    def _log_refusal(self, name: str, args: dict[str, Any], message: str,
                     rule: str | None) -> None:
        """Log a refused command with the hash of the state it left unchanged (the referee's
        states are immutable, so it is hashed only here)."""
        dump = self.state.to_json()
        self._record({"type": "command", "n": self.n, "command": name,
                      "args": logged_args(self.referee, name, args, self.key),
                      "result": "refused", "message": message, "rule": rule,
                      "hash": state_hash(dump), "time": _now()}, self.n, dump)

    def _record(self, record: dict[str, Any], n: int, dump: Mapping[str, Any]) -> None:
        """Append ``record`` to the log, then rewrite the state (step ``n``) anchored to it."""
        assert self.log is not None
        _append(self.log, record)
        write_state(self.directory, n, dump, self.key, len(self.log.lines), self.log.head)
        save_anchor(self.directory, self.log)

    def _check_writable(self) -> None:
        if self.readonly or self.log is None:
            raise BadInput(f"session {self.directory} was opened read-only")

    # -- views

    def player_view(self) -> dict[str, Any]:
        return self.referee.player_view(self.game, self.state)

    def referee_view(self) -> dict[str, Any]:
        """The whole truth; recorded in the log as a reveal."""
        return self.reveal()[0]

    def reveal(self, map_format: str | None = None,
               draw: Callable[[Session, str], bytes] | None = None
               ) -> tuple[dict[str, Any], bytes | None]:
        """The referee's view and, when ``map_format`` ("svg", "png") is given, the whole
        map (``draw(session, format)``, by default the rules' ``render_referee_map``); one
        reveal event in the log, written once both are drawn (a map that cannot be drawn
        shows nothing and logs nothing)."""
        self._check_writable()
        view = self.referee.referee_view(self.game, self.state)
        if draw is None:
            def draw(s: Session, fmt: str) -> bytes:
                return _map_drawing(s.referee, "render_referee_map")(s.game, s.state, fmt)
        drawn = draw(self, map_format) if map_format else None
        self._record({"type": "reveal", "n": self.n, "map": map_format is not None,
                      "time": _now()}, self.n, self.state.to_json())
        return view, drawn

    def announcements(self) -> list[dict[str, Any]]:
        """This turn's announcements, as the player view holds them."""
        return list(self.player_view().get("announcements") or [])

    def summary(self) -> dict[str, Any] | None:
        return self.referee.summary(self.game, self.state)

    def decision(self) -> Decision | None:
        """The decision due now and its legal answers (None once the game is over)."""
        return self.referee.decision(self.game, self.state)

    def render_player_map(self, fmt: str = "svg") -> bytes:
        return _map_drawing(self.referee, "render_player_map")(self.game, self.state, fmt)

    def history(self) -> list[dict[str, Any]]:
        """Every log record, the session header first (as checked when the session opened,
        with what it appended since)."""
        assert self.log is not None
        return [dict(record) for record in self.log.records]


def _map_drawing(referee: Referee, which: str) -> Callable[[Game, Position, str], bytes]:
    """The rules' optional ``render_player_map`` or ``render_referee_map`` (``which``):
    ``(game, position, format) -> bytes``; AttributeError when the rules draw no map."""
    draw: Callable[[Game, Position, str], bytes] = getattr(referee, which)
    return draw


def _replay_steps(game: Game, referee: Referee, seed: int, state: Position,
                  steps: list[dict[str, Any]], key: bytes) -> tuple[Position, list[str]]:
    """Apply logged accepted commands to ``state`` (their sealed arguments opened with
    ``key``); the differences from the logged hashes. Stops at the first command that is
    refused now or whose sealed arguments do not open."""
    differences = []
    for record in steps:
        n = record["n"]
        try:
            args = opened_args(referee, record, key)
        except ValueError:
            differences.append(f"command {n} ({record['command']}): its sealed arguments do "
                               f"not open with the session's {KEY}")
            break
        try:
            step = referee.apply(game, state, record["command"], args,
                                 SeededDice(derived_seed(seed, n)))
        except (RuleViolation, BadInput) as exc:
            differences.append(f"command {n} ({record['command']}) is refused on replay: "
                               f"{exc}")
            break
        state = step.state
        if state_hash(state.to_json()) != record["hash"]:
            differences.append(f"command {n} ({record['command']}): the replayed state "
                               f"differs from the logged hash")
    return state, differences


def _rebuild(game: Game, referee: Referee, log: _Log, steps: list[int],
             key: bytes) -> tuple[Any, int, list[str], list[str]]:
    """Replay a whole log from the scenario: (state, n, differences, notes)."""
    header = log.records[0]
    notes = []
    _name, path = _scenario_file(referee, game, header["scenario"])
    if header["scenario_sha256"] != _file_sha256(path):
        notes.append(f"scenario {header['scenario']!r} changed since the session began")
    if header["warpress"] != _version():
        notes.append(f"session began with warpress {header['warpress']}, "
                     f"replayed with {_version()}")
    scenario = referee.load_scenario(game, header["scenario"])
    state = referee.new(game, scenario, SeededDice(derived_seed(header["seed"], 0))).state
    differences = []
    if state_hash(state.to_json()) != header["hash"]:
        differences.append("set-up (n=0): the replayed state differs from the logged hash")
    accepted = [log.records[number - 1] for number in steps[1:]]
    state, more = _replay_steps(game, referee, header["seed"], state, accepted, key)
    differences += more
    last = log.records[-1]
    if last["type"] == "undo" and not more and state_hash(state.to_json()) != last["hash"]:
        differences.append(f"undo at line {len(log.records)}: the replayed state differs "
                           f"from the logged hash")
    return state, len(steps) - 1, differences, notes


# --------------------------------------------------------------------------- anchors

#: the folder of the session anchors, in the state folder (engine/places.py)
ANCHORS = "sessions"


class SessionBehind(SessionCorrupt):
    """A session's log is behind (or off) what this machine saw of it: its anchor."""


def session_id(log: _Log) -> str:
    """A session's id, the same in every copy of its folder: its header's ``id`` (random, drawn
    by ``new``), or for a log from before ids the SHA-256 of its first line."""
    given = log.records[0].get("id")
    return given if isinstance(given, str) and given.isalnum() else sha256(log.lines[0])


def anchor_file(directory: str | Path) -> Path:
    """The anchor file of the session in ``directory`` (which must hold a readable log)."""
    return _anchor_path(_read_log(Path(directory), outdated_ok=True))


def _anchor_path(log: _Log) -> Path:
    from .places import state_folder

    return state_folder() / ANCHORS / f"{session_id(log)[:32]}.json"


def _anchor_folder(path: Path) -> Path:
    """The anchors' folder, checked private from the state folder down."""
    from .places import private_place

    return private_place(path.parent.parent, ANCHORS)


def read_anchor(log: _Log) -> dict[str, Any] | None:
    """The anchor of ``log``'s session: ``{"lines", "head", "folder", "time"}``, how long the
    log was and the SHA-256 of its last line when this machine last saw it; None when it saw
    none (or the state folder is not private: nothing in it is believed)."""
    from .places import NotPrivate

    path = _anchor_path(log)
    try:
        _anchor_folder(path)
        anchor = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, NotPrivate):
        return None
    if (not isinstance(anchor, dict) or type(anchor.get("lines")) is not int
            or anchor["lines"] < 1 or not isinstance(anchor.get("head"), str)):
        return None
    return anchor


def check_anchor(directory: Path, log: _Log) -> None:
    """SessionBehind when ``log`` is shorter than its anchor or its line at the anchor's
    length is not the one this machine saw: an older copy restored (to play a step again),
    a cut log, or another history. A log that goes on past its anchor is fine (the session
    was played elsewhere: a game by mail)."""
    anchor = read_anchor(log)
    if anchor is None or log.format != FORMAT:
        return
    seen, head = anchor["lines"], anchor["head"]
    if len(log.lines) >= seen and sha256(log.lines[seen - 1]) == head:
        return
    where = (f"ends at line {len(log.lines)}" if len(log.lines) < seen
             else f"differs at line {seen}")
    raise SessionBehind(f"{log.path} {where}, but this machine saw the session at line {seen} "
                        f"(head {head[:16]}, {anchor.get('time', '?')}): an older or cut copy "
                        f"of the session; to go on from it, `warpress referee replay --session "
                        f"{directory} --accept-rollback` (logged)")


def save_anchor(directory: Path, log: _Log) -> None:
    """Record where ``log`` stands (its length and head) as its session's anchor, outside the
    session folder; a state folder that cannot take it is a note (a rollback would then go
    unseen)."""
    from .places import NotPrivate

    path = _anchor_path(log)
    anchor = read_anchor(log)
    if anchor is not None and (anchor["lines"], anchor["head"]) == (len(log.lines), log.head):
        return
    record = {"lines": len(log.lines), "head": log.head, "folder": str(directory.resolve()),
              "time": _now()}
    try:
        write_atomically(_anchor_folder(path) / path.name,
                         (json.dumps(record, indent=1) + "\n").encode())
    except (OSError, NotPrivate) as exc:
        why = exc.strerror if isinstance(exc, OSError) else str(exc)
        tell(f"{path}: the session's anchor cannot be kept ({why}): a rollback of the session "
             f"would not be noticed")


def _accept(log: _Log, n: int) -> str:
    """Log that the user accepted a session behind its anchor (``n``: the accepted commands);
    what it was, as a note."""
    anchor = read_anchor(log)
    assert anchor is not None  # the session was found behind it
    _append(log, {"type": "rollback", "n": n, "lines": anchor["lines"],
                  "head": anchor["head"], "time": _now()})
    return (f"accepted: the session goes on from line {len(log.lines) - 1}, behind the "
            f"{anchor['lines']} lines this machine saw (logged at line {len(log.lines)})")


# --------------------------------------------------------------------------- create / open


def create(directory: str | Path, game: str, scenario: str | None = None,
           seed: int | None = None, agents: Mapping[str, str] | None = None) -> Session:
    """Start a session in ``directory`` (created if needed): set up the scenario, write the
    key and the state, then publish the log (its header) by a rename. BadInput if it
    already holds a session; a ``new`` killed earlier leaves nothing that stops this one.
    ``agents`` (side -> agent name) are recorded in the header: they play those sides."""
    from .loader import load_cached

    directory = Path(directory)
    _refuse_existing(directory)
    data = load_cached(game)
    referee = rules_for(data)
    logged, path = _scenario_file(referee, data, scenario)
    loaded = referee.load_scenario(data, logged)
    seed = secrets.randbits(63) if seed is None else seed
    started = referee.new(data, loaded, SeededDice(derived_seed(seed, 0)))
    state = started.state
    dump = state.to_json()
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BadInput(f"session directory {str(directory)!r} cannot be created: "
                       f"{exc.strerror}") from None
    lock = _Lock(directory)
    try:
        _refuse_existing(directory)
        _clean_temporary_files(directory)
        key = _new_key(directory)
        header: dict[str, Any] = {"type": "session", "format": FORMAT, "id": secrets.token_hex(16),
                  **_game_fields(game, data),
                  "scenario": logged, "scenario_sha256": _file_sha256(path), "seed": seed,
                  "warpress": _version(), "n": 0, "hash": state_hash(dump), "time": _now()}
        if agents:
            header["agents"] = dict(agents)
        line = _line(header)
        write_state(directory, 0, dump, key, 1, sha256(line))
        _write_session_file(directory / LOG, line + b"\n")  # the session exists from here
        log = _Log(directory / LOG, [header], [line], len(line) + 1, True, len(line) + 1)
    except BaseException:
        lock.release()
        raise
    save_anchor(directory, log)
    return Session(directory, data, referee, header, state, 0, key, lock, log,
                   started=started.announcements)


def _refuse_existing(directory: Path) -> None:
    """BadInput unless ``directory`` can take a new session: absent, or a folder without a
    log (or with the empty log of a `new` that did not finish) whose session files, where
    present, are regular files."""
    if directory.exists() and not directory.is_dir():
        raise BadInput(f"--session {str(directory)!r} is a file, not a directory")
    for name in (LOG, STATE, KEY, LOCK):
        path = directory / name
        if path.is_symlink():
            raise _refused_kind(path, "a symbolic link")
        if path.exists() and not path.is_file():
            raise _refused_kind(path, "a folder" if path.is_dir() else "not a file")
    log = directory / LOG
    if log.exists() and _split(_read_file(log))[0]:
        raise BadInput(f"{directory} already holds a referee session ({LOG}); choose another "
                       f"--session DIR")
    _refuse_orphan_state(directory)


def _refuse_orphan_state(directory: Path) -> None:
    """SessionCorrupt when DIR has no log (or an empty one) but a state.json written after
    more than the log's first line: the log was deleted or cut, and the session is not to be
    taken for none (nor overwritten by a new one)."""
    try:
        record = json.loads(_read_file(directory / STATE).decode("utf-8"))
    except (FileNotFoundError, SessionCorrupt, UnicodeError, ValueError):
        return
    lines = record.get("log_lines") if isinstance(record, dict) else None
    if type(lines) is int and lines > 1:
        raise SessionCorrupt(f"{directory / LOG}: missing or empty, but {STATE} was written "
                             f"after line {lines}: the log was deleted or cut; restore it "
                             f"(a new session needs another --session DIR)")


def open(directory: str | Path, readonly: bool = False,  # shadows builtins.open
         game: str | None = None) -> Session:
    """Open the session in ``directory``, verifying the log, the log against its anchor
    (:func:`check_anchor`), and the state against the log. To write (the default) the session
    is locked, and commands a crash left out of the state file are replayed and the state
    rewritten; ``readonly`` takes no lock and writes nothing in the folder (what a crash left
    out is replayed in memory). ``game``: the game folder the user names (``--game DIR``;
    :func:`session_game`)."""
    directory = _existing(directory)
    if readonly:
        return _load(directory, None, game)
    lock = _Lock(directory)
    try:
        _clean_temporary_files(directory)
        return _load(directory, lock, game)
    except BaseException:
        lock.release()
        raise


def _load(directory: Path, lock: _Lock | None, game: str | None = None) -> Session:
    """Read key, state, then log (in that order: see the module docstring) and check them;
    a problem of the log (no session, format 1, a broken chain, behind its anchor) is the
    one reported first."""
    try:
        key = _read_key(directory)
        saved: StateFile | None = read_state(directory, key)
        problem = None
    except FileNotFoundError:
        saved = problem = None
    except SessionCorrupt as exc:
        saved, problem = None, exc
    log = _read_log(directory)
    if problem is not None:
        raise problem
    cut = _truncation(log, saved) if saved is not None else None
    if cut:  # what the state file knows is said first: it names the cut or edited line
        raise SessionCorrupt(cut)
    check_anchor(directory, log)
    data = session_game(log.records[0], game)
    referee = rules_for(data)
    state, n = _verified_state(directory, data, referee, log, key, saved, lock is not None)
    save_anchor(directory, log)
    return Session(directory, data, referee, log.records[0], state, n, key, lock, log,
                   readonly=lock is None)


def _existing(directory: str | Path) -> Path:
    directory = Path(directory)
    try:
        missing = not (directory / LOG).is_symlink() and not (directory / LOG).exists()
    except OSError as exc:  # a folder the user cannot search
        raise BadInput(f"--session {quote(str(directory), 400)} cannot be read: "
                       f"{exc.strerror}") from None
    if missing:
        _refuse_orphan_state(directory)
        raise _no_session(directory, f"no {LOG}")
    return directory


def _read_key(directory: Path) -> bytes:
    path = directory / KEY
    try:
        text = _read_file(path)
    except FileNotFoundError:
        raise SessionCorrupt(f"{path}: missing; the state cannot be read (`warpress referee "
                             f"replay --session {directory}` rebuilds it)") from None
    try:
        key = bytes.fromhex(text.decode("ascii").strip())
    except (UnicodeError, ValueError):
        key = b""
    if len(key) != 32:
        raise SessionCorrupt(f"{path}: not a session key (expected 64 hex digits)")
    return key


def _new_key(directory: Path) -> bytes:
    key = secrets.token_bytes(32)
    _write_session_file(directory / KEY, key.hex().encode() + b"\n")
    return key


def _truncation(log: _Log, saved: StateFile) -> str | None:
    """What is wrong with the log against the line state.json was written after, if any."""
    have = len(log.lines)
    if saved.log_lines > have:
        return (f"{log.path} ends at line {have} but {STATE} was written after line "
                f"{saved.log_lines}: the log was truncated (restore it; or delete {STATE} and "
                f"replay --accept-rollback to go on from line {have})")
    if saved.log_lines < 1 or sha256(log.lines[saved.log_lines - 1]) != saved.log_sha256:
        return (f"{log.path}:{saved.log_lines}: not the line {STATE} was written after (the "
                f"log was edited or cut here)")
    return None


def _verified_state(directory: Path, game: Game, referee: Referee, log: _Log, key: bytes,
                    saved: StateFile | None, write: bool) -> tuple[Any, int]:
    """The verified state; replays the commands the log holds beyond it (crash recovery),
    and when ``write`` rewrites the state so that it is anchored to the log's last line."""
    steps = log.steps
    kept = "" if write else f"; {STATE} not written (opened read-only)"
    if saved is None:  # state.json missing: rebuilt from the log
        state, n, differences, _notes = _rebuild(game, referee, log, steps, key)
        if differences:
            raise SessionCorrupt(f"{directory / STATE}: missing, and the log does not replay: "
                                 f"{differences[0]}")
        tell(f"{directory / STATE}: missing; rebuilt from the log ({n} command(s) "
             f"replayed){kept}")
    else:
        state, n = _caught_up(directory, game, referee, log, steps, saved, key)
        if (saved.log_lines, saved.log_sha256) == (len(log.lines), log.head):
            return state, n
        tell(f"{directory / STATE}: written after line {saved.log_lines} of the "
             f"{len(log.lines)} of {LOG} (a command was cut short); caught up from the "
             f"log{kept}")
    if write:
        write_state(directory, n, state.to_json(), key, len(log.lines), log.head)
    return state, n


def _caught_up(directory: Path, game: Game, referee: Referee, log: _Log, steps: list[int],
               saved: StateFile, key: bytes) -> tuple[Any, int]:
    """The saved state checked against the log, with the accepted commands after the line it
    was written after replayed."""
    problem = _truncation(log, saved)
    if problem:
        raise SessionCorrupt(problem)
    if any(r["type"] == "undo" for r in log.records[saved.log_lines:]):
        state, n, differences, _notes = _rebuild(game, referee, log, steps, key)
        if differences:  # an undo after the state was written: the log replays it
            raise SessionCorrupt(f"{log.path}: recovery failed: {differences[0]}")
        return state, n
    done = [number for number in steps if number <= saved.log_lines]
    if saved.n != len(done) - 1:
        raise SessionCorrupt(f"{directory / STATE}: checksum mismatch: the state is at "
                             f"command {saved.n} but {LOG} up to line {saved.log_lines} "
                             f"records {len(done) - 1}")
    if log.records[done[-1] - 1]["hash"] != saved.digest:
        raise SessionCorrupt(f"{directory / STATE}: checksum mismatch with {LOG} at command "
                             f"{saved.n}; `warpress referee replay --session {directory}` "
                             f"rebuilds it")
    state = Position.from_json(saved.dump)
    later = [log.records[number - 1] for number in steps[len(done):]]
    if later:  # the log is ahead: a crash before the state was renamed
        state, differences = _replay_steps(game, referee, log.records[0]["seed"], state,
                                           later, key)
        if differences:
            raise SessionCorrupt(f"{log.path}: recovery failed: {differences[0]}")
    return state, len(steps) - 1


# --------------------------------------------------------------------------- replay


def replay(directory: str | Path, game: str | None = None,
           accept_rollback: bool = False) -> ReplayReport:
    """Rebuild DIR/state.json from the log and scenario, whatever state.json holds (also when
    it is missing, damaged or edited). When every replayed hash matches the log, the state is
    rewritten if it differs; otherwise it is left alone and the report lists the differences.
    A format-1 log that replays is upgraded (see the module docstring). In a folder that
    cannot be written replay still checks, and fails only when it must write. A log behind
    its anchor (:func:`check_anchor`) is refused unless ``accept_rollback``: then, once it
    replays, the acceptance is logged (a ``rollback`` line naming the anchor it leaves)
    and the anchor moves to it. ``game``: as for :func:`open`."""
    directory = _existing(directory)
    try:
        lock: _Lock | None = _Lock(directory)
    except SessionUnwritable:
        lock = None
    try:
        if lock is not None:
            _clean_temporary_files(directory)
        return _replay(directory, lock, game, accept_rollback)
    finally:
        if lock is not None:
            lock.release()


def _replay(directory: Path, lock: _Lock | None, game: str | None,
            accept_rollback: bool) -> ReplayReport:
    log = _read_log(directory, outdated_ok=True)
    key, fresh, saved, before = _key_and_state(directory)
    problem = _truncation(log, saved) if saved is not None and log.format == FORMAT else None
    if problem:
        raise SessionCorrupt(problem)
    try:
        check_anchor(directory, log)
        behind = False
    except SessionBehind:
        if not accept_rollback:
            raise
        behind = True
    data = session_game(log.records[0], game)
    referee = rules_for(data)
    state, n, differences, notes = _rebuild(data, referee, log, log.steps, key)
    if differences:
        differences.append(f"the log, the scenario or warpress changed; {STATE} was left as "
                           f"it was")
        return ReplayReport(n, tuple(differences), tuple(notes), before)
    if log.format != FORMAT:
        log = _upgrade(directory, log, lock)
        notes.append(f"{LOG} upgraded to format {FORMAT} (a hash chain); the old log is kept "
                     f"as {OLD_LOG}")
    if behind:
        _need_lock(directory, lock, LOG)
        notes.append(_accept(log, n))
    elif accept_rollback:
        notes.append("--accept-rollback: nothing to accept, the session is not behind its "
                     "anchor")
    wanted = _state_bytes(n, state.to_json(), key, len(log.lines), log.head)
    try:
        rewritten = _read_file(directory / STATE) != wanted
    except NotAFile:
        raise
    except (FileNotFoundError, SessionCorrupt):  # missing, or past its size: written anew
        rewritten = True
    if rewritten:
        _need_lock(directory, lock, STATE)
        if fresh:  # the key was missing or damaged: a new one, written with the state
            _write_session_file(directory / KEY, key.hex().encode() + b"\n")
        _write_session_file(directory / STATE, wanted)
    save_anchor(directory, log)
    return ReplayReport(n, (), tuple(notes), before, rewritten)


def _key_and_state(directory: Path) -> tuple[bytes, bool, StateFile | None, str]:
    """``(key, whether it is new, verified state or None, how state.json was)`` for replay:
    a missing or damaged key is replaced by a new one (written with the state), a damaged
    state is described; a link or a folder in their place is refused."""
    try:
        key = _read_key(directory)
    except NotAFile:
        raise
    except SessionCorrupt as exc:
        return secrets.token_bytes(32), True, None, str(exc)
    try:
        return key, False, read_state(directory, key), "ok"
    except FileNotFoundError:
        return key, False, None, "missing"
    except NotAFile:
        raise
    except SessionCorrupt as exc:
        return key, False, None, str(exc)


def _need_lock(directory: Path, lock: _Lock | None, name: str) -> None:
    if lock is None:
        raise SessionUnwritable(f"{directory}: replay matches the log, but {name} must be "
                                f"written and the folder cannot be written")


def _upgrade(directory: Path, log: _Log, lock: _Lock | None) -> _Log:
    """Write a format-1 log again as a hash chain (the same records, each with ``prev``),
    keeping the old file as OLD_LOG."""
    _need_lock(directory, lock, LOG)
    header = {**log.records[0], "format": FORMAT}
    records, lines = [header], [_line(header)]
    for record in log.records[1:]:
        record = {**record, "prev": sha256(lines[-1])}
        records.append(record)
        lines.append(_line(record))
    old = _read_file(log.path)
    try:
        kept = _read_file(directory / OLD_LOG)
    except FileNotFoundError:
        kept = None
    if kept is not None and kept != old:
        raise BadInput(f"{directory / OLD_LOG} already exists and differs from {LOG}; move it "
                       f"away to upgrade the session")
    if kept is None:
        _write_session_file(directory / OLD_LOG, old)
    data = b"\n".join(lines) + b"\n"
    _write_session_file(log.path, data)
    return _Log(log.path, records, lines, len(data), True, len(data), log.steps)


def rules_of_session(directory: str | Path, game: str | None = None) -> tuple[Game, Referee]:
    """The game and rules of the session in ``directory`` (from its log's header; a game
    folder only as ``session_game`` opens one), read without opening the session: what the
    command line needs to offer the game's actions."""
    log = _read_log(_existing(Path(directory)), outdated_ok=True)
    data = session_game(log.records[0], game)
    return data, rules_for(data)

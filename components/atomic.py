"""Replace an output folder as a whole: the old one stays until the new one is complete.

``replace_folder(folder, write)`` has ``write(staging)`` fill a fresh folder beside
``folder`` (same parent, so renames stay within one file system), then swaps the two:

- where the system can exchange two paths in one step (Linux ``renameat2`` with
  ``RENAME_EXCHANGE``), ``folder`` always holds either the old or the new contents,
  whenever the process is killed;
- elsewhere the old folder is renamed aside and the new one renamed in; a kill between
  the two renames leaves the old one aside, and the next ``replace_folder`` puts it back
  before anything else.

Leftovers of killed runs (``.NAME.new-PID-TOKEN``, ``.NAME.old-PID-TOKEN``, and the
``.NAME-XXXXXXXX`` / ``.NAME-old-PID`` of warpress before 0.2) are removed by the next
run once their process is gone. New folders get the mode the umask gives (no 0700).
A plain file, a link or a read-only folder in the way is refused (BadInput) before
anything is written.
"""

from __future__ import annotations

import ctypes
import errno
import os
import re
import secrets
import shutil
import stat
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

from ..engine.errors import BadInput
from ..engine.inputs import quote


def replace_folder(folder: Path, write: Callable[[Path], None]) -> None:
    """Fill a staging folder with ``write(staging)`` and swap it in for ``folder``.

    :raises BadInput: the place cannot take a folder, or writing failed (an OSError);
        ``folder`` is then unchanged and the staging folder removed.
    """
    folder = Path(folder)
    check_place(folder)
    recover(folder)
    staging = _fresh(folder, "new")
    try:
        write(staging)
        _swap(staging, folder)
    except OSError as exc:
        shutil.rmtree(staging, ignore_errors=True)
        raise BadInput(f"output folder {str(folder)!r} cannot be written: {exc.strerror}"
                       ) from None
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def write_files(staging: Path, files: Mapping[str, bytes]) -> None:
    """Write ``files`` (relative name -> bytes) under ``staging``, making subfolders; a name
    that would lead out of ``staging`` is refused (BadInput) before anything is written."""
    root = staging.resolve()
    targets = [(root.joinpath(*entry_name(name).split("/")), data)
               for name, data in files.items()]
    for target, data in targets:
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.parent.resolve().is_relative_to(root):  # a link made on the way
            raise BadInput(f"output file {quote(str(target))} would be written outside "
                           f"{quote(str(root))} (refused; nothing was written)")
        target.write_bytes(data)


#: A character no output file name or zip entry may hold: a backslash or a drive colon
#: (a separator or a root elsewhere), and the C0 and C1 controls.
_UNSAFE_NAME = re.compile(r"[\\:\x00-\x1f\x7f-\x9f]")


def entry_name(name: str) -> str:
    """``name``, a file of an output folder or an entry of a zip (parts joined by ``/``),
    when it stays inside that folder: relative, without an empty, ``.`` or ``..`` part, a
    backslash, a colon or a control character; else BadInput quoting it."""
    parts = name.split("/")
    if (not name or _UNSAFE_NAME.search(name) or name.startswith("/")
            or any(part in ("", ".", "..") for part in parts)):
        raise BadInput(f"output file name {quote(name)} would lead outside its folder "
                       f"(refused; nothing was written)")
    return name


def check_place(folder: Path) -> None:
    """BadInput unless ``folder`` is missing or a folder that can be replaced: not a file,
    not a link, nothing in it read-only (it would be left behind half deleted)."""
    try:
        info = folder.lstat()
    except FileNotFoundError:
        return
    except OSError as exc:
        raise BadInput(f"output folder {str(folder)!r} cannot be written: {exc.strerror}"
                       ) from None
    if stat.S_ISLNK(info.st_mode) or not stat.S_ISDIR(info.st_mode):
        what = "a symbolic link" if stat.S_ISLNK(info.st_mode) else "a file"
        raise BadInput(f"{str(folder)!r} is {what}, not a kit folder: remove it or choose "
                       "another --out (nothing was written)")
    locked = _read_only(folder)
    if locked is not None:
        raise BadInput(f"kit folder {str(folder)!r} is read-only ({str(locked)!r}): make it "
                       "writable or remove it (nothing was written)")


def _read_only(folder: Path) -> Path | None:
    """The first folder in ``folder`` (itself included) whose owner may not write it."""
    for here, dirs, _files in os.walk(folder):
        mode = os.lstat(here).st_mode
        if not mode & stat.S_IWUSR or not os.access(here, os.W_OK | os.X_OK):
            return Path(here)
        dirs[:] = [d for d in dirs if not os.path.islink(os.path.join(here, d))]
    return None


# --- leftovers --------------------------------------------------------------------------


def _patterns(name: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """(staging and aside folders of this version, with their PID; of warpress < 0.2)."""
    quoted = re.escape(name)
    return (re.compile(rf"\.{quoted}\.(new|old)-(\d+)-[0-9a-f]+"),
            re.compile(rf"\.{quoted}-(?:old-\d+|[a-z0-9_]{{8}})"))


def recover(folder: Path) -> None:
    """Put back an old folder left aside by a killed swap when ``folder`` is missing, then
    remove the leftovers of runs whose process is gone."""
    current, legacy = _patterns(folder.name)
    try:
        siblings = sorted(folder.parent.iterdir()) if folder.parent.is_dir() else []
    except OSError:
        return
    if not os.path.lexists(folder):
        aside = [p for p in siblings if (m := current.fullmatch(p.name)) and m[1] == "old"
                 and not _alive(int(m[2]))]
        if aside:
            newest = max(aside, key=lambda p: p.stat().st_mtime_ns)
            os.rename(newest, folder)
            siblings.remove(newest)
    for path in siblings:
        match = current.fullmatch(path.name)
        stale = (match is not None and not _alive(int(match[2]))) or bool(
            legacy.fullmatch(path.name))
        if stale and path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)


def _alive(pid: int) -> bool:
    """Whether another process ``pid`` runs (ours is not: each run names its own folders)."""
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True
    return True


# --- the swap ---------------------------------------------------------------------------


def _sibling(folder: Path, kind: str) -> Path:
    """``.NAME.KIND-PID-TOKEN`` beside ``folder``: a name no other run uses."""
    return folder.with_name(f".{folder.name}.{kind}-{os.getpid()}-{secrets.token_hex(4)}")


def _fresh(folder: Path, kind: str) -> Path:
    """A new empty sibling folder (its mode from the umask, not mkdtemp's 0700)."""
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        path = _sibling(folder, kind)
        path.mkdir()
    except OSError as exc:
        raise BadInput(f"output folder {str(folder.parent)!r} cannot be written: "
                       f"{exc.strerror}") from None
    return path


def _swap(staging: Path, folder: Path) -> None:
    """Put ``staging`` in ``folder``'s place; the old contents are removed."""
    if not os.path.lexists(folder):
        os.rename(staging, folder)
        return
    if _exchange(staging, folder):
        shutil.rmtree(staging)  # now the old contents
        return
    aside = _sibling(folder, "old")
    os.rename(folder, aside)      # a kill from here ...
    os.rename(staging, folder)    # ... to here leaves the old kit aside: recover() restores it
    shutil.rmtree(aside)


_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one step (Linux renameat2); False where that is not available."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return False
    done = renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    if done == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False  # a file system or kernel without it
    raise OSError(code, os.strerror(code), str(b))

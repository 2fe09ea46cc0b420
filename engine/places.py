"""Where warpress keeps its own files, outside every game and session folder.

- The **state** folder (``$WARPRESS_STATE``, else the platform's user state folder:
  ``~/.local/state/warpress`` on Linux) holds what a user decided and saw: the folders they
  trust (``engine/trust.py``) and each referee session's anchor (``engine/session.py``).
- The **cache** folder (``$WARPRESS_CACHE``, else the platform's user cache folder:
  ``~/.cache/warpress`` on Linux) holds loaded games (``engine/loader.py``).

Both are private: created with mode 0700, and used only while they are owned by the user
and writable by nobody else (:func:`private_folder`), since what they hold decides what
warpress trusts and a cached game is unpickled. Their files are written atomically
(:func:`write_atomically`) with mode 0600.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from .errors import BadInput


class NotPrivate(BadInput):
    """A state or cache folder that others could write (or that is not a folder)."""


def state_folder() -> Path:
    """The state folder (see the module docstring); not created here."""
    return _folder("WARPRESS_STATE", "user_state_dir")


def cache_folder() -> Path:
    """The cache folder (see the module docstring); not created here."""
    return _folder("WARPRESS_CACHE", "user_cache_dir")


def _folder(variable: str, kind: str) -> Path:
    given = os.environ.get(variable)
    if given:
        return Path(given)
    import platformdirs  # only when no folder is given

    return Path(getattr(platformdirs, kind)("warpress"))


def private_place(root: Path, *parts: str) -> Path:
    """The folder ``root/parts...``, each folder from ``root`` down checked (and made when
    missing) by :func:`private_folder`."""
    folder = private_folder(root)
    for part in parts:
        folder = private_folder(folder / part)
    return folder


def private_folder(folder: Path) -> Path:
    """``folder``, created (mode 0700, parents as needed) when missing; NotPrivate when it is
    not a folder of this user that only they may write; OSError when it cannot be made."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    info = folder.lstat()
    if not stat.S_ISDIR(info.st_mode):
        raise NotPrivate(f"{folder}: not a folder (a link or a file is in its place)")
    owner = getattr(os, "getuid", None)
    if owner is not None and info.st_uid != owner():
        raise NotPrivate(f"{folder}: owned by another user (uid {info.st_uid}); warpress "
                         f"uses only a folder of your own")
    if info.st_mode & 0o022:
        raise NotPrivate(f"{folder}: writable by others (mode {stat.S_IMODE(info.st_mode):o});"
                         f" make it private (chmod 700) or remove it")
    return folder


def write_atomically(path: Path, data: bytes, shared: bool = False) -> None:
    """Write ``data`` to a temporary file beside ``path``, fsync it, then rename it: a reader
    sees the old file or the new one, never half of one. The file is private to its owner
    (mode 0600) unless ``shared`` (then the usual umask applies, as for a map to print).
    The rename replaces a symbolic link at ``path`` itself; it never writes through it."""
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
    fsync_folder(path.parent)


def fsync_folder(folder: Path) -> None:
    """Force a folder's entries (a rename) to disk, where the system allows it."""
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


def hypothesis_home() -> Path:
    """Where hypothesis keeps its files while ``verify`` runs (it would make ``.hypothesis/``
    in the user's current directory): ``$HYPOTHESIS_STORAGE_DIRECTORY`` when set, else
    ``hypothesis/`` in the cache folder (hypothesis makes it when it writes)."""
    given = os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY")
    return Path(given) if given else cache_folder() / "hypothesis"

"""Notes for the user that do not stop a command: a game folder's Python that was not run,
a session state file rebuilt from its log, a cache folder not used.

The library tells (:func:`tell`); the command line prints what was told on stderr, one line
each, after the command (``cli.friendly``), so that a note is never lost and never mixed
into the output a script reads. The same note is told once per command.
"""

from __future__ import annotations

_TOLD: list[str] = []


def tell(text: str) -> None:
    """Note ``text`` for the user (once)."""
    if text not in _TOLD:
        _TOLD.append(text)


def drain() -> list[str]:
    """Every note told since the last drain, in order; forgets them."""
    told = list(_TOLD)
    _TOLD.clear()
    return told

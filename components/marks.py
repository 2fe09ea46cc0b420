"""The one place the dagger of assumed values is made.

A value the rules do not give (``source: assumed``) is listed on the kit's
"Assumed values" page. On pieces, maps, cards and aids it is marked with a
dagger only in a designer proof (``warpress build --proof``): ``dagger``
returns the mark only while ``proof(True)`` is in force, so a player's kit
carries none.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

DAGGER = "†"
_PROOF: ContextVar[bool] = ContextVar("warpress_proof", default=False)


def dagger(assumed: bool) -> str:
    """The dagger for an assumed value in a designer proof, else nothing."""
    return DAGGER if assumed and _PROOF.get() else ""


def proofing() -> bool:
    """True while a designer proof is being laid out."""
    return _PROOF.get()


@contextmanager
def proof(on: bool) -> Iterator[None]:
    """Lay out with (``on``) or without daggers on the pieces, maps, cards and aids."""
    token = _PROOF.set(on)
    try:
        yield
    finally:
        _PROOF.reset(token)

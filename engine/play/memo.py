"""Values worked out once per position (zones of control, supply, occupied hexes).

A :class:`~warpress.engine.position.Position` is immutable, so what is derived from it
never changes: ``memo`` keeps it in the position's own ``__dict__`` (as
``functools.cached_property`` does), outside the fields that compare, hash and serialise.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from ..position import Position

T = TypeVar("T")


def memo(position: Position, key: str, make: Callable[[], T]) -> T:
    """``make()`` the first time ``key`` is asked of ``position``, the same value after."""
    store = position.__dict__
    name = f"_memo_{key}"
    if name in store:
        kept: T = store[name]  # what make() gave the first time
        return kept
    value = store[name] = make()
    return value


def memo_args(position: Position, key: str, args: Any, make: Callable[[], T]) -> T:
    """:func:`memo` keyed by ``(key, args)``."""
    store = position.__dict__.setdefault("_memo_args", {})
    full = (key, args)
    if full in store:
        kept: T = store[full]  # what make() gave the first time
        return kept
    value = store[full] = make()
    return value

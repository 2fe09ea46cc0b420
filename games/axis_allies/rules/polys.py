"""Integer polynomials of hit ways (``ways[x]``: the ways to score ``x`` hits): a convolution
with its top folded, the ways of ``x`` or more hits, and the columns of a side's
distributions; the exact chain (``odds.py``) and the capped rounds (``rounds.py``) share
them."""

from __future__ import annotations

from .opening import Poly


def conv_cap(vec: list[int], taps: Poly, cap: int) -> list[int]:
    """Convolve ``vec`` with ``taps``, folding indices beyond ``cap`` into ``cap``."""
    if len(taps) == 2:
        return _conv2(vec, taps[0], taps[1], cap)
    out = [0] * (cap + 1)
    tails = tails_of(taps)
    for i, v in enumerate(vec):
        if v:
            room = cap - i  # taps from ``room`` on all land on ``cap``
            for t in range(min(room, len(taps))):
                c = taps[t]
                if c:
                    out[i + t] += v * c
            if room < len(taps):
                out[cap] += v * tails[room]
    return out


def _conv2(vec: list[int], q: int, p: int, cap: int) -> list[int]:
    """``conv_cap`` for one die: ``out[i] = q*vec[i] + p*vec[i-1]``, the top folded.

    Ways of one normalised die are small ((2, 1), (5, 1), (1, 1)...): a factor 1 is
    skipped and a power of two is a shift.
    """
    mq, mp = _scaler(q), _scaler(p)
    out = [0] * (cap + 1)
    prev = 0
    for i in range(cap):
        v = vec[i]
        out[i] = (mq(v) if v else 0) + (mp(prev) if prev else 0)
        prev = v
    top = vec[cap]
    out[cap] = (top * (q + p) if top else 0) + (mp(prev) if prev else 0)
    return out


def _scaler(c: int):
    """``x -> c * x``, as cheap as ``c`` allows."""
    if c == 1:
        return lambda x: x
    if c & (c - 1) == 0:
        shift = c.bit_length() - 1
        return lambda x: x << shift
    return lambda x: x * c


def tails_of(p: Poly) -> Poly:
    """``out[x]`` = ways of ``x`` or more hits."""
    out = list(p)
    for k in range(len(out) - 2, -1, -1):
        out[k] += out[k + 1]
    return tuple(out)


def add_sources(R: list, w: list, col: tuple) -> bool:
    """``R[i] += w[i] * col[i]``: the outflows ``w`` of a source column times the ways of
    the attackers of each row to hit ``x`` defenders (``col``, ``coefficient_columns``)."""
    added = False
    for i, (v, c) in enumerate(zip(w, col, strict=False)):  # col: a prefix of the rows
        if v and c:
            R[i] += v * c
            added = True
    return added


def coefficient_columns(polys: list[Poly]) -> list[tuple[int, ...]]:
    """``out[x][i] = polys[i][x]``, rows while ``polys[i]`` reaches ``x`` (the attackers'
    suffix distributions shrink down the rows: a column is a prefix of the rows)."""
    out = []
    for x in range(max(len(p) for p in polys)):
        col = []
        for p in polys:
            if x >= len(p):
                break
            col.append(p[x])
        out.append(tuple(col))
    return out

"""The statistics of a balance report: proportions with 95 % Wilson score intervals, their
differences (Newcombe's hybrid score interval) and the spread of game lengths."""

from __future__ import annotations

import math
from collections.abc import Sequence

#: the normal quantile of a two-sided 95 % interval
Z95 = 1.959963984540054


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``k`` successes in ``n`` trials ((0, 1) when n is 0)."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    denominator = 1 + z * z / n
    return max(0.0, (centre - spread) / denominator), min(1.0, (centre + spread) / denominator)


def rate(k: int, n: int) -> dict[str, float | int]:
    """A proportion as the report shows it: count, games, rate and its 95 % interval."""
    low, high = wilson(k, n)
    return {"count": k, "games": n, "rate": round(k / n, 4) if n else 0.0,
            "low": round(low, 4), "high": round(high, 4)}


def difference(k1: int, n1: int, k2: int, n2: int) -> dict[str, float]:
    """``k1/n1 - k2/n2`` with Newcombe's hybrid score 95 % interval (method 10), built from
    the two Wilson intervals."""
    p1, p2 = (k1 / n1 if n1 else 0.0), (k2 / n2 if n2 else 0.0)
    l1, u1 = wilson(k1, n1)
    l2, u2 = wilson(k2, n2)
    d = p1 - p2
    low = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return {"effect": round(d, 4), "low": round(low, 4), "high": round(high, 4)}


def spread(values: Sequence[int | float]) -> dict[str, float]:
    """Mean, median and 95th percentile (nearest rank) of ``values``, and the extremes."""
    if not values:
        return {"mean": 0.0, "median": 0.0, "p95": 0.0, "min": 0.0, "max": 0.0}
    ordered = sorted(values)
    n = len(ordered)
    middle = n // 2
    median = ordered[middle] if n % 2 else (ordered[middle - 1] + ordered[middle]) / 2
    p95 = ordered[min(n - 1, max(0, math.ceil(0.95 * n) - 1))]
    return {"mean": round(sum(ordered) / n, 3), "median": median, "p95": p95,
            "min": ordered[0], "max": ordered[-1]}

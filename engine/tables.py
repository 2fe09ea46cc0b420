"""Die-range tables: parse row conditions and look a result up.

A row condition for a ``roll`` or ``int`` key is an integer, a range string
(``"2-4"``, ``"7+"``, ``"9-"``) or a ``[lo, hi]`` list with ``null`` for an
open end; for an ``enum`` key it is a value or a list of values. Open-ended
ranges also match values beyond the key's domain (modified rolls that run off
the table).
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeAlias

from .errors import BadInput
from .model import Table, TableKey, TableRow, Value

_RANGE = re.compile(r"^\s*(-?\d+)\s*(?:-|–|~)\s*(-?\d+)\s*$")
_PLUS = re.compile(r"^\s*(-?\d+)\s*\+\s*$")
_MINUS = re.compile(r"^\s*(-?\d+)\s*-\s*$")


@dataclass(frozen=True)
class Interval:
    """Integers from ``lo`` to ``hi`` inclusive; ``None`` is an open end."""

    lo: int | None
    hi: int | None

    def __contains__(self, value: object) -> bool:
        if not isinstance(value, int) or isinstance(value, bool):
            return False
        return (self.lo is None or value >= self.lo) and (self.hi is None or value <= self.hi)

    def __str__(self) -> str:
        if self.lo == self.hi:
            return str(self.lo)
        if self.lo is None:
            return f"{self.hi}-"
        if self.hi is None:
            return f"{self.lo}+"
        return f"{self.lo}-{self.hi}"


#: A row's condition on one key: a range of numbers, or the (normalised) values it takes.
Condition: TypeAlias = Interval | frozenset[Value]


def norm(value: Value) -> Value:
    """Normalise an enum value for comparison: yes/no words and bools alike."""
    if isinstance(value, str):
        low = value.strip().lower()
        if low in ("yes", "true"):
            return True
        if low in ("no", "false"):
            return False
        return value.strip()
    return value


def parse_condition(key: TableKey, raw: Value) -> Condition:
    """Parse one row condition; raise ValueError with a readable message."""
    if key.kind == "enum":
        items = raw if isinstance(raw, tuple | list) else (raw,)
        values = {norm(v) for v in key.values if _scalar(v)}
        bad = [v for v in items if not _scalar(v) or norm(v) not in values]
        if bad:
            allowed = ", ".join(str(v) for v in key.values)
            raise ValueError(f"{bad[0]!r} is not a value of key {key.id!r} (values: {allowed})")
        return frozenset(norm(v) for v in items)
    return parse_interval(raw)


def _scalar(value: Value) -> bool:
    """Whether ``value`` is one value (text, a number, yes/no, null), not a list or mapping."""
    return value is None or isinstance(value, str | int | float | bool)


def parse_interval(raw: Value) -> Interval:
    if isinstance(raw, bool):
        raise ValueError(f"{raw!r} is not a number or range")
    if isinstance(raw, int):
        return Interval(raw, raw)
    if isinstance(raw, tuple | list) and len(raw) == 2:
        lo, hi = raw
        if all(v is None or (isinstance(v, int) and not isinstance(v, bool)) for v in raw):
            if lo is not None and hi is not None and lo > hi:
                raise ValueError(f"range {list(raw)} runs backwards")
            return Interval(lo, hi)
    if isinstance(raw, str):
        text = raw.replace("≤", "").replace("≥", "")
        forms: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], Interval]], ...] = (
            (_RANGE, lambda m: Interval(int(m[1]), int(m[2]))),
            (_PLUS, lambda m: Interval(int(m[1]), None)),
            (_MINUS, lambda m: Interval(None, int(m[1]))),
        )
        for pattern, build in forms:
            match = pattern.match(text)
            if match:
                interval = build(match)
                lo, hi = interval.lo, interval.hi
                if lo is not None and hi is not None and lo > hi:
                    raise ValueError(f"range {raw!r} runs backwards")
                return interval
        if re.fullmatch(r"\s*-?\d+\s*", text):
            return Interval(int(text), int(text))
    raise ValueError(f"{raw!r} is not a number, a range like '2-4', '7+' or '9-', or [lo, hi]")


_COMPILED: dict[int, tuple[Table, tuple[tuple[TableRow, dict[str, Condition]], ...]]] = {}


def compiled(table: Table) -> tuple[tuple[TableRow, dict[str, Condition]], ...]:
    """Rows with parsed conditions (rows whose conditions do not parse are skipped)."""
    hit = _COMPILED.get(id(table))
    if hit is not None and hit[0] is table:
        return hit[1]
    out = []
    for row in table.rows:
        try:
            conds = {k: parse_condition(table.key(k), v) for k, v in table.conditions(row).items()}
        except ValueError:
            continue
        out.append((row, conds))
    _COMPILED[id(table)] = (table, tuple(out))
    return _COMPILED[id(table)][1]


def matches(conds: Mapping[str, Condition], inputs: Mapping[str, Value]) -> bool:
    for key, cond in conds.items():
        value = inputs[key]
        if isinstance(cond, Interval):
            if value not in cond:
                return False
        elif norm(value) not in cond:
            return False
    return True


def matching_rows(table: Table, inputs: dict[str, Value]) -> list[TableRow]:
    return [row for row, conds in compiled(table) if matches(conds, inputs)]


def lookup(table: Table, **inputs: Value) -> dict[str, Value]:
    """The result fields of the one row matching ``inputs`` (every key must be given)."""
    return lookup_row(table, **inputs)[1]


def lookup_row(table: Table, **inputs: Value) -> tuple[TableRow, dict[str, Value]]:
    missing = [k for k in table.key_ids if k not in inputs]
    if missing:
        raise BadInput(f"table {table.id!r} needs {', '.join(missing)}")
    unknown = [k for k in inputs if k not in table.key_ids]
    if unknown:
        raise BadInput(f"table {table.id!r} has no key {unknown[0]!r} "
                       f"(keys: {', '.join(table.key_ids)})")
    rows = matching_rows(table, inputs)
    if len(rows) != 1:
        shown = ", ".join(f"{k}={v}" for k, v in inputs.items())
        what = "no row" if not rows else f"{len(rows)} rows"
        raise BadInput(f"table {table.id!r}: {what} for {shown}")
    return rows[0], table.result(rows[0])


# --- rows indexed by the points they cover ----------------------------------------------------


@dataclass(frozen=True)
class Cover:
    """Which rows of a table match each point of a grid of key values: the product of
    ``domains`` (one per key of ``keys``), flattened row-major. ``first[p]`` is the index in
    ``compiled(table)`` of the first row matching point ``p`` (-1: none), ``count[p]`` how
    many rows match it (2 meaning two or more)."""

    keys: tuple[str, ...]
    domains: tuple[tuple[Value, ...], ...]
    first: array[int]
    count: bytearray

    def values(self, flat: int) -> dict[str, Value]:
        """The key values of point ``flat``."""
        out = {}
        for key, domain in zip(reversed(self.keys), reversed(self.domains), strict=True):
            flat, i = divmod(flat, len(domain))
            out[key] = domain[i]
        return dict(reversed(out.items()))

    def flat(self, values: Mapping[str, Value]) -> int:
        """The index of the point with these key values (each one of its domain)."""
        flat = 0
        for key, domain in zip(self.keys, self.domains, strict=True):
            flat = flat * len(domain) + domain.index(values[key])
        return flat


def cover(table: Table, domains: Mapping[str, Sequence[Value]],
          fixed: Mapping[str, Value] | None = None, most: int = 1_000_000) -> Cover | None:
    """Index the rows of ``table`` by the points of ``domains`` they match (the other keys
    held at ``fixed``): each row's matching values are found per key (an interval by
    arithmetic on a run of integers), so the work is the points the rows cover, not points
    times rows. None when the rows cover more than ``most`` (row, point) pairs in all."""
    keys = tuple(domains)
    values = tuple(tuple(domains[k]) for k in keys)
    size = 1
    for domain in values:
        size *= len(domain)
    first, count = array("i", [-1]) * size, bytearray(size)
    places = [_Places(domain) for domain in values]
    total = 0
    for index, (_row, conds) in enumerate(compiled(table)):
        if fixed and not matches({k: c for k, c in conds.items() if k in fixed}, fixed):
            continue
        picks = [place.matching(conds.get(key)) for key, place in zip(keys, places,
                                                                       strict=True)]
        covered = 1
        for pick in picks:
            covered *= len(pick)
        total += covered
        if total > most:
            return None
        flats = [0]
        for pick, domain in zip(picks, values, strict=True):
            flats = [f * len(domain) + i for f in flats for i in pick]
        for f in flats:
            if first[f] < 0:
                first[f] = index
            count[f] = min(count[f] + 1, 2)
    return Cover(keys, values, first, count)


class _Places:
    """The positions of a key's domain values: a row's condition -> the positions it
    matches."""

    def __init__(self, domain: Sequence[Value]):
        self.size = len(domain)
        ints = [v for v in domain if isinstance(v, int) and not isinstance(v, bool)]
        self.start = ints[0] if len(ints) == self.size and ints == list(
            range(ints[0], ints[0] + self.size)) else None
        self.domain = domain
        self.at = {norm(v): i for i, v in reversed(list(enumerate(domain)))}

    def matching(self, cond: Condition | None) -> Sequence[int]:
        if cond is None:
            return range(self.size)
        if isinstance(cond, Interval) and self.start is not None:
            lo = 0 if cond.lo is None else max(cond.lo - self.start, 0)
            hi = self.size - 1 if cond.hi is None else min(cond.hi - self.start, self.size - 1)
            return range(lo, hi + 1)
        if isinstance(cond, Interval):
            return [i for i, v in enumerate(self.domain) if v in cond]
        return sorted({self.at[v] for v in cond if v in self.at})

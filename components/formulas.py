"""Tables whose content is a rule, printed as the rule.

A table that only spells out arithmetic is hard to read as rows: "BPP: 0 -> 3, 1 -> 6,
2 -> 9 ..." is ``BPP = 3 + 3 × Supply points spent``. ``formula_lines`` looks at a
table's rows (through the engine's lookup, so the printed line is the table the engine
uses) and finds, when there is one, the line that says the same for every value of its
keys:

- a linear result: ``BPP = 3 + 3 × Supply points spent``; a constant or an identity
  collapses the same way (``Units placed = Territory income value``);
- a step: ``Supply points = Unit cost ÷ 2, rounded down, at least 1``;
- a roll against values: ``Hits = how many of these the die (d10) is at or under: Attack
  value, Superior value``; ``Hit: yes when the die (d6) is at or under the value``;
- a table with one enumerated key besides, each of whose columns is one of these:
  one line per column (``There at the start: Unlimited``).

Nothing here is written in the data: a table changed so that no line fits prints as rows
again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import product
from typing import Any

from ..engine.model import Table, TableKey, Value
from ..engine.tables import Cover, Interval, compiled, cover

#: The minus sign and the range dash of printed lines (``aids.MINUS``, ``aids.DASH``).
MINUS, DASH = "\u2212", "\u2013"
#: The widest span of key values a formula is checked over (every value is looked up).
SPAN = 60
#: The most lookups one table may cost.
LOOKUPS = 6000

#: how a key, a result and a key's value are named on the printed line
KeyName = Callable[[TableKey], str]
ResultName = Callable[[str], str]
ValueName = Callable[[TableKey, object], str]
#: a result by its keys' values (in the table's key order)
Grid = dict[tuple[Any, ...], Value]


def _values(key: TableKey) -> list[Value] | None:
    if key.kind == "enum":
        return list(key.values)
    if key.min is None or key.max is None or key.max - key.min > SPAN:
        return None
    return list(range(key.min, key.max + 1))


def _domain(key: TableKey) -> list[Value]:
    """``_values`` of a key ``formula_lines`` found bounded."""
    values = _values(key)
    assert values is not None, f"key {key.id} has no bounded values"
    return values


def _number(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.lstrip("-").isdigit():
        return int(value)
    return None


def _result(table: Table, inputs: dict[str, Value], result: str) -> Value:
    """The one row's ``result`` for ``inputs`` (every key); KeyError when no single row
    matches."""
    found = _indexed(table)
    flat = found.flat(inputs) if found is not None else None
    if found is None or flat is None or found.count[flat] != 1:
        raise KeyError(inputs)
    return table.result(compiled(table)[found.first[flat]][0]).get(result)


_INDEXED: dict[int, tuple[Table, Cover | None]] = {}


def _indexed(table: Table) -> Cover | None:
    """The rows of ``table`` by the points of its keys' values, once per table: a lookup is
    then one index, not a scan of every row (None: the rows overlap past any use)."""
    hit = _INDEXED.get(id(table))
    if hit is not None and hit[0] is table:
        return hit[1]
    found = cover(table, {k.id: _domain(k) for k in table.keys}, most=2 * LOOKUPS)
    _INDEXED[id(table)] = (table, found)
    return found




def formula_lines(table: Table, key_name: Callable[[TableKey], str],
                  result_name: Callable[[str], str],
                  value_name: Callable[[TableKey, object], str]) -> list[str] | None:
    """The lines that print ``table`` as its rule, or None when it is not one of the forms
    above (or a key has no bounded set of values)."""
    values = [_values(k) for k in table.keys]
    if not table.keys or any(v is None for v in values):
        return None
    total = 1
    for v in values:
        total *= len(v or ())
    if total > LOOKUPS:
        return None
    try:
        if len(table.results) > 1:
            return _separate_lines(table, key_name, result_name)
        return _lines(table, table.results[0], key_name, result_name, value_name)
    except KeyError:  # a combination no row (or two rows) answers: print the rows
        return None


def _separate_lines(table: Table, key_name: KeyName, result_name: ResultName
                    ) -> list[str] | None:
    """A table of several results each of which depends on one key only (Midway's surface
    battle: each side's die gives the hits on the other): one line per result."""
    keys = list(table.keys)
    combos = list(product(*(_domain(k) for k in keys)))
    lines = []
    for result in table.results:
        grid = {c: _result(table, dict(zip((k.id for k in keys), c, strict=True)), result)
                for c in combos}
        used = [i for i in range(len(keys)) if _depends(grid, i)]
        if len(used) != 1:
            return None
        i = used[0]
        if keys[i].kind == "enum":
            return None
        one = {(c[i],): v for c, v in grid.items()}
        line = _one_key_line(keys[i], dict(sorted(one.items())), result_name(result),
                             key_name, _open_top(table, keys[i], result))
        if line is None:
            return None
        lines.append(line)
    return lines


def _depends(grid: Grid, i: int) -> bool:
    """True when the results change with the ``i``-th key's value, the others fixed."""
    seen: dict[tuple[Any, ...], object] = {}
    for combo, value in grid.items():
        rest = combo[:i] + combo[i + 1:]
        if seen.setdefault(rest, value) != value:
            return True
    return False


def _lines(table: Table, result: str, key_name: KeyName, result_name: ResultName,
           value_name: ValueName) -> list[str] | None:
    keys = list(table.keys)
    enums = [k for k in keys if k.kind == "enum"]
    numeric = [k for k in keys if k.kind != "enum"]
    if len(enums) == 1 and len(keys) > 1:
        enum = enums[0]
        lines = []
        for value in enum.values:
            line = _numeric_line(table, result, numeric, {enum.id: value}, key_name,
                                 result_name)
            if line is None:
                return None
            named = value_name(enum, value)
            # a yes/no key reads with its name: "Alert bomber: yes: ..." not "yes: ..."
            lines.append(f"{key_name(enum)} — {named}: {line}" if isinstance(value, bool)
                         else f"{named}: {line}")
        return lines
    if enums:
        return None
    line = _numeric_line(table, result, numeric, {}, key_name, result_name)
    return None if line is None else [line]


def _numeric_line(table: Table, result: str, keys: list[TableKey], fixed: dict[str, Value],
                  key_name: KeyName, result_name: ResultName) -> str | None:
    grid = {combo: _result(table, {**fixed, **dict(zip((k.id for k in keys), combo,
                                                       strict=True))}, result)
            for combo in product(*(_domain(k) for k in keys))}
    name = result_name(result)
    shown = {_show(v) for v in grid.values()}
    if len(shown) == 1:
        return f"{next(iter(shown))}" if fixed else f"{name}: always {next(iter(shown))}"
    if len(keys) == 1:
        return _one_key_line(keys[0], grid, name, key_name,
                             _open_top(table, keys[0], table.results[0])) or _threshold(
            keys[0], grid, name, table)
    return _roll_line(keys, grid, name, key_name, table)


def _threshold(key: TableKey, grid: Grid, name: str, table: Table) -> str | None:
    """A roll that gives yes on one run of values, no on the rest: ``Aircraft destroyed: on
    a roll of 1 (d6)``."""
    if key.kind != "roll" or set(grid.values()) != {True, False}:
        return None
    yes = [c[0] for c, v in grid.items() if v is True]
    if yes != list(range(yes[0], yes[-1] + 1)) or _open_top(table, key, table.results[0]):
        return None
    span = str(yes[0]) if len(yes) == 1 else f"{yes[0]}{DASH}{yes[-1]}"
    dice = f" ({table.dice})" if table.dice and table.dice != "none" else ""
    return f"{name}: on a roll of {span}{dice}"


def _show(value: object) -> str:
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return str(value).capitalize() if isinstance(value, str) else str(value)


def _open_top(table: Table, key: TableKey, result: str) -> tuple[int, int] | None:
    """(first value, result) of a row that takes every value of ``key`` from there up
    (``13+``), if there is one: a formula holds there only with that result as its top."""
    for row, conds in compiled(table):
        cond = conds.get(key.id)
        if isinstance(cond, Interval) and cond.hi is None and cond.lo is not None:
            value = _number(table.result(row).get(result))
            return (cond.lo, value) if value is not None else None
    return None


def _one_key_line(key: TableKey, grid: Grid, name: str, key_name: KeyName,
                  top: tuple[int, int] | None = None) -> str | None:
    xs = [combo[0] for combo in grid]
    numbers = [_number(v) for v in grid.values()]
    ys = [y for y in numbers if y is not None]
    if len(xs) < 3 or len(ys) != len(numbers):
        return None
    ceiling = ""
    if top is not None and top[0] > xs[-1]:  # ``13+`` past the key's listed values
        if top[0] != xs[-1] + 1:
            return None
        xs, ys = [*xs, top[0]], [*ys, top[1]]
    if top is not None and ys[-1] != ys[-2]:  # what the open row gives is the most
        ceiling = f", at most {ys[-1]}"
    line = _linear(xs, ys, name, key_name(key)) or _step(xs, ys, name, key_name(key))
    return line + ceiling if line else None


def _linear(xs: Sequence[int], ys: Sequence[int], name: str, key: str) -> str | None:
    """``y = a + b x``, or ``max(least, a + b x)`` (``Hits = the die - 2, at least 0``)."""
    least = min(ys)
    above = [(x, y) for x, y in zip(xs, ys, strict=True) if y > least]
    if len(above) < 2:
        return None
    b = above[1][1] - above[0][1]
    if above[1][0] - above[0][0] != 1 or b == 0:
        return None
    a = above[0][1] - b * above[0][0]
    if any(y != max(least, a + b * x) for x, y in zip(xs, ys, strict=True)):
        return None
    floor = ", at least " + str(least) if any(a + b * x < least for x in xs) else ""
    term = key if b == 1 else f"{b} × {key}"
    if a == 0:
        return f"{name} = {term}{floor}"
    if b > 0:
        return f"{name} = {term} {'+' if a > 0 else MINUS} {abs(a)}{floor}" if b == 1 and a < 0 \
            else f"{name} = {a} + {term}{floor}"
    return f"{name} = {a} {MINUS} {abs(b)} × {key}{floor}"


def _step(xs: Sequence[int], ys: Sequence[int], name: str, key: str) -> str | None:
    """``y = max(least, (x + c) // d)``: a share of the key, rounded, with a floor."""
    for d in range(2, 7):
        for c in (0, d - 1):
            raw = [(x + c) // d for x in xs]
            least = min(ys)
            if all(y == max(least, r) for y, r in zip(ys, raw, strict=True)):
                rounded = "rounded down" if c == 0 else "rounded up"
                share = "half" if d == 2 else f"a {_ORDINAL.get(d, f'1/{d}')}"
                floor = f", at least {least}" if least > min(raw) else ""
                return f"{name} = {share} of the {key.lower()}, {rounded}{floor}"
    return None


_ORDINAL = {3: "third", 4: "quarter", 5: "fifth", 6: "sixth"}


def _roll_line(keys: list[TableKey], grid: Grid, name: str, key_name: KeyName, table: Table
               ) -> str | None:
    """A roll against the other keys' values: how many of them the roll is at or under."""
    rolls = [i for i, k in enumerate(keys) if k.kind == "roll"]
    if len(rolls) != 1:
        return None
    r = rolls[0]
    others = [i for i in range(len(keys)) if i != r]
    counts = {combo: sum(combo[r] <= combo[i] for i in others) for combo in grid}
    die = f"the die ({table.dice})" if table.dice and table.dice != "none" else "the roll"
    names = [key_name(keys[i]) for i in others]
    if all(_number(v) == counts[c] for c, v in grid.items()):
        if len(others) == 1:
            return f"{name} = 1 when {die} is at or under the {names[0].lower()}, else 0"
        return (f"{name} = how many of these {die} is at or under: "
                f"{_listed(names)}")
    if len(others) == 1 and all(v is (counts[c] == 1) for c, v in grid.items()):
        return f"{name}: yes when {die} is at or under the {names[0].lower()}"
    return _ranked(keys, grid, r, others, name, die, key_name)


def _ranked(keys: list[TableKey], grid: Grid, r: int, others: list[int], name: str, die: str,
            key_name: KeyName) -> str | None:
    """``n`` when the roll is at or under the ``n``-th key's value (the highest such ``n``),
    else 0: ``Hits: 2 when the die is at or under the superior value, else 1 when ...``."""
    for order in (others, others[::-1]):
        def ranked(combo: tuple[Any, ...], order: list[int] = order) -> int:
            return max([n for n, i in enumerate(order, 1) if combo[r] <= combo[i]] or [0])
        if all(_number(v) == ranked(c) for c, v in grid.items()):
            parts = [f"{n} when {die if n == len(order) else 'it'} is at or under the "
                     f"{key_name(keys[i]).lower()}" for n, i in reversed(list(enumerate(order,
                                                                                        1)))]
            return f"{name}: " + ", else ".join(parts) + ", else 0"
    return None


def _listed(names: Iterable[str]) -> str:
    return ", ".join(names)

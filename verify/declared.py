"""Declarative checks: what designers check most, declared in the game's YAML (``checks:``).

Each record of the ``checks`` section becomes an invariant that ``warpress verify`` runs
beside the Python ones (a PASS or FAIL line with its rule number). A check searches its
domain with hypothesis; where the domain is small (up to ``EXHAUSTIVE`` cases) every case is
also given as an explicit example, so a small table is checked case by case, not sampled.
A failure names the check (id and file:line), the counterexample and the file:line of the
data that breaks it. Kinds:

- ``covers-dice``: for every value of the table's other keys, each face of the table's die
  is matched by exactly one row, so the chances total exactly 1;
- ``monotone``: more attack never gives a worse result: along ``key`` (its values from the
  weakest to the strongest attack), with every other key held, the ``result`` never goes
  down in ``order`` (the results from worst to best for the attacker);
- ``columns-reachable``: every column of a ``crt:`` table is where the odds (or the
  difference) of some attack of the game's units land, before shifts: any set of one
  side's units against any set of the other side's that one hex may hold.

Stacking at set-up needs no check of its own: the ``stacking`` section's limits are held
against the set-up by ``verify --data`` (engine/formchecks.py).

``check_problems`` reports a check that cannot run (an unknown key, a result value missing
from ``order``, a table without a ``crt:`` form) as a data problem, file:line like the
others.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from typing import TypeVar

from ..engine.dice import faces
from ..engine.errors import Problem
from ..engine.model import Check, Game, Table, TableKey, TableRow, Value
from ..engine.tables import matching_rows, norm
from .invariant import Invariant

T = TypeVar("T")
#: a check's property: a hypothesis test, run with no arguments
Test = Callable[..., None]

#: A domain of at most this many cases is also run case by case (explicit examples).
EXHAUSTIVE = 2000
#: What each kind checks, as the PASS/FAIL line says it.
SUMMARY = {
    "covers-dice": "every die result is covered by exactly one row",
    "monotone": "more attack never gives a worse result",
    "columns-reachable": "every column of the CRT is reached by some attack",
}


def declared_invariants(game: Game) -> list[Invariant]:
    """One invariant per ``checks`` record of ``game`` (none for a check that cannot run:
    ``verify --data`` reports it)."""
    out = []
    for check in game.checks:
        if list(_problems_of(game, check)):
            continue
        rule = ", ".join(check.rule) if check.rule else "assumed"
        summary = f"{check.id}: {SUMMARY[check.kind]}{_subject(check)}"
        out.append(Invariant(game.id, rule, summary, _factory(check), name=check.id,
                             says_its_case=True))
    return out


def _subject(check: Check) -> str:
    if check.table is None:
        return ""
    return f" ({check.table}{', ' + check.key if check.key else ''})"


def _factory(check: Check) -> Callable[[Game], object]:
    def make(game: Game) -> object:
        current = next(c for c in game.checks if c.id == check.id)
        return KINDS[current.kind](game, current)

    return make


# --- data problems -------------------------------------------------------------------------


def check_problems(game: Game) -> Iterator[Problem]:
    """Every ``checks`` record that cannot run, as a data problem."""
    for check in game.checks:
        for message in _problems_of(game, check):
            yield Problem(check.origin.file, check.origin.line, f"checks[{check.id}]", message)


def _problems_of(game: Game, check: Check) -> Iterator[str]:
    table = _table(game, check)
    if table is None:
        yield (f"kind {check.kind} needs table: a table id" if check.table is None
               else f"table {check.table!r} does not exist")
        return
    yield from PROBLEMS[check.kind](table, check)


def _table(game: Game, check: Check) -> Table | None:
    return next((t for t in game.tables if t.id == check.table), None)


def _roll_key(table: Table) -> TableKey | None:
    return next((k for k in table.keys if k.kind == "roll"), None)


def _dice_problems(table: Table, check: Check) -> Iterator[str]:
    if table.dice in (None, "none") or _roll_key(table) is None:
        yield f"table {table.id!r} has no die (dice:) and roll key to cover"


def _monotone_problems(table: Table, check: Check) -> Iterator[str]:
    if check.key not in table.key_ids:
        yield f"key {check.key!r} is not a key of table {table.id!r} ({', '.join(table.key_ids)})"
        return
    field = _result_field(table, check)
    if field not in table.results:
        yield (f"result {check.result!r} is not a result of table {table.id!r} "
               f"({', '.join(table.results)})" if check.result else
               f"table {table.id!r} has several results: name one (result:)")
        return
    if not check.order:
        yield "a monotone check needs order: the results from worst to best for the attacker"
        return
    ranked = {norm(v) for v in check.order}
    for row in table.rows:
        value = table.result(row).get(field)
        if norm(value) not in ranked:
            yield (f"result {value!r} ({row.origin}) is not in order "
                   f"({', '.join(map(str, check.order))})")
            return


def _crt_problems(table: Table, check: Check) -> Iterator[str]:
    if table.crt is None:
        yield f"table {table.id!r} has no crt: form (odds or differential columns) to reach"


def _result_field(table: Table, check: Check) -> str | None:
    if check.result is not None:
        return check.result
    return table.results[0] if len(table.results) == 1 else None


# --- domains -------------------------------------------------------------------------------


def _values(key: TableKey) -> list[Value]:
    """Every value a key takes: an enum's values, the integers of a bounded key."""
    if key.kind == "enum":
        return list(key.values)
    return list(range(key.min, key.max + 1)) if key.min is not None and key.max is not None \
        else []


def _given(cases: Sequence[T], label: str, check_case: Callable[[T], None]) -> Test:
    """A hypothesis test drawing one case of ``cases``; every case is an explicit example
    when there are at most ``EXHAUSTIVE`` of them."""
    # start-up: 161 more modules (hypothesis, importlib.metadata), only when this runs
    from hypothesis import example, given
    from hypothesis import strategies as st

    @given(st.sampled_from(cases))
    def test(case: T) -> None:
        check_case(case)

    test.__name__ = label
    if len(cases) <= EXHAUSTIVE:
        for case in reversed(cases):
            test = example(case)(test)
    return test


def _nothing() -> Test:
    return lambda: None


# --- covers-dice ---------------------------------------------------------------------------


def _other_keys(table: Table, skip: str) -> list[TableKey]:
    return [k for k in table.keys if k.id != skip]


def _combinations(keys: list[TableKey]) -> list[dict[str, Value]]:
    return [dict(zip([k.id for k in keys], values, strict=True))
            for values in itertools.product(*(_values(k) for k in keys))]


def _ready(game: Game, check: Check) -> Table:
    """The table of a check that can run (``declared_invariants`` makes an invariant only
    of a check ``_problems_of`` finds no problem in)."""
    table = _table(game, check)
    assert table is not None, f"check {check.id}: no table {check.table!r}"
    return table


def covers_dice(game: Game, check: Check) -> Test:
    table = _ready(game, check)
    roll = _roll_key(table)
    assert roll is not None and table.dice is not None  # _dice_problems: none
    die_faces = faces(table.dice)
    cases = _combinations(_other_keys(table, roll.id))

    def case(inputs: dict[str, Value]) -> None:
        shown = " ".join(f"{k}={v}" for k, v in inputs.items()) or "every input"
        missing: list[str] = []
        doubled: list[str] = []
        for face in die_faces:
            rows = matching_rows(table, {**inputs, roll.id: face})
            if not rows:
                missing.append(str(face))
            elif len(rows) > 1:
                doubled.append(f"{face} ({', '.join(str(r.origin) for r in rows)})")
        covered = Fraction(len(die_faces) - len(missing), len(die_faces))
        assert not missing and not doubled, (
            f"check {check.id} ({check.origin}): table {table.id} ({table.origin}), {shown}: "
            + "; ".join(filter(None, [
                f"no row for {table.dice} {', '.join(missing)} (chances total {covered})"
                if missing else "",
                f"more than one row for {', '.join(doubled)}" if doubled else ""])))

    return _given(cases, f"{check.id}_covers_dice", case)


# --- monotone ------------------------------------------------------------------------------


def _cell(table: Table, inputs: dict[str, Value]) -> TableRow | None:
    rows = matching_rows(table, inputs)
    return rows[0] if len(rows) == 1 else None  # a gap or overlap is the coverage check's


def monotone(game: Game, check: Check) -> Test:
    table = _ready(game, check)
    field = _result_field(table, check)
    assert field is not None and check.key is not None  # _monotone_problems: none
    key = check.key
    rank = {norm(v): i for i, v in enumerate(check.order)}
    along = _values(table.key(key))
    steps = list(zip(along, along[1:], strict=False))
    cases = [(held, weaker, stronger)
             for held in _combinations(_other_keys(table, key))
             for weaker, stronger in steps]
    order = ", ".join(map(str, check.order))

    def case(drawn: tuple[dict[str, Value], Value, Value]) -> None:
        held, weaker, stronger = drawn
        low = _cell(table, {**held, key: weaker})
        high = _cell(table, {**held, key: stronger})
        if low is None or high is None:
            return
        a, b = table.result(low)[field], table.result(high)[field]
        shown = " ".join(f"{k}={v}" for k, v in held.items())
        assert rank[norm(b)] >= rank[norm(a)], (
            f"check {check.id} ({check.origin}): table {table.id}, {shown}: "
            f"{check.key}={weaker} gives {a} ({low.origin}) but the stronger "
            f"{check.key}={stronger} gives {b} ({high.origin}), worse for the attacker "
            f"(order, worst to best: {order})")

    if not cases:
        return _nothing()
    return _given(cases, f"{check.id}_monotone", case)


# --- columns-reachable ----------------------------------------------------------------------


def _sums(stats: list[tuple[Fraction, int]], most: int | None) -> set[Fraction]:
    """Every total of one to ``most`` units (None: any number), each unit type as often as
    it has counters."""
    counters = [value for value, count in stats for _ in range(count)]
    if most is None:
        totals: set[Fraction] = set()
        for value in counters:
            totals |= {value} | {t + value for t in totals}
        return totals
    by_size: list[set[Fraction]] = [{Fraction(0)}] + [set() for _ in range(most)]
    for value in counters:  # by_size[k]: the totals of exactly k of the counters seen
        for k in range(most, 0, -1):
            by_size[k] |= {t + value for t in by_size[k - 1]}
    return set().union(*by_size[1:])


def _strengths(game: Game, side: str, stat: str) -> list[tuple[Fraction, int]]:
    out: list[tuple[Fraction, int]] = []
    for unit in game.units:
        value = unit.stats.get(stat)
        if unit.side == side and isinstance(value, int | float) and not isinstance(value, bool):
            out.append((Fraction(str(value)), unit.count or 1))
    return out


def _hex_holds(game: Game, side: str) -> int | None:
    """The most units one hex may hold for ``side`` (the largest unit limit; None: none)."""
    limits = [s.limit for s in game.stacking if s.of == "units" and s.side in (None, side)]
    return max(limits) if limits else None


def reachable_columns(game: Game, table: Table) -> dict[str, tuple[str, str]]:
    """Each column some attack lands in -> (attack, defence) of one such attack."""
    # start-up: 10 more modules, only when this runs
    from ..engine.combat import find_column

    form = table.crt
    assert form is not None, f"table {table.id} has no crt: form"
    sides = [s.id for s in game.info.sides]
    found: dict[str, tuple[str, str]] = {}
    for attacker in sides:
        attacks = _sums(_strengths(game, attacker, form.attack), None)
        for defender in (s for s in sides if s != attacker):
            defences = _sums(_strengths(game, defender, form.defence),
                             _hex_holds(game, defender))
            for a in sorted(attacks):
                for d in sorted(defences):
                    value = (a - d if form.method == "differential"
                             else (a / d if d else None))
                    column = find_column(form, value, f"{a}:{d}")
                    if column.index is not None:
                        found.setdefault(str(form.columns[column.index]), (str(a), str(d)))
    return found


def columns_reachable(game: Game, check: Check) -> Test:
    table = _ready(game, check)
    crt = table.crt
    assert crt is not None  # _crt_problems: none
    reached = reachable_columns(game, table)
    columns = [str(c) for c in crt.columns]
    shown = ", ".join(f"{c} ({a} against {d})" for c, (a, d) in reached.items()) or "none"

    def case(column: str) -> None:
        assert column in reached, (
            f"check {check.id} ({check.origin}): table {table.id} ({crt.origin}): "
            f"column {column} is reached by no attack of the game's units ({crt.attack} "
            f"against {crt.defence}, before shifts); reached: {shown}")

    return _given(columns, f"{check.id}_columns_reachable", case)


KINDS: dict[str, Callable[[Game, Check], object]] = {
    "covers-dice": covers_dice,
    "monotone": monotone,
    "columns-reachable": columns_reachable,
}
PROBLEMS: dict[str, Callable[[Table, Check], Iterator[str]]] = {
    "covers-dice": _dice_problems,
    "monotone": _monotone_problems,
    "columns-reachable": _crt_problems,
}

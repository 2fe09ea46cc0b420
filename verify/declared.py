"""Declarative checks: what designers check most, declared in the game's YAML (``checks:``).

Each record of the ``checks`` section becomes an invariant that ``warpress verify`` runs
beside the Python ones (a PASS or FAIL line with its rule number). A check searches its
domain with hypothesis; where the domain is small (up to ``EXHAUSTIVE`` cases) every case is
also given as an explicit example, so a small table is checked case by case, not sampled.
A failure names the check (id and file:line), the counterexample and the file:line of the
data that breaks it. Kinds:

- ``stacking``: no hex holds more units at set-up than ``limit`` (a number or a constant id);
  the domain is every (scenario, hex) of the set-up;
- ``covers-dice``: for every value of the table's other keys, each face of the table's die
  is matched by exactly one row, so the chances total exactly 1;
- ``monotone``: more attack never gives a worse result: along ``key`` (its values from the
  weakest to the strongest attack), with every other key held, the ``result`` never goes
  down in ``order`` (the results from worst to best for the attacker);

``check_problems`` reports a check that cannot run (an unknown key, a result value missing
from ``order``, a limit that is not a number) as a data problem, file:line like the others.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from fractions import Fraction

from ..engine.dice import faces
from ..engine.errors import Problem
from ..engine.model import Check, Game, Table, TableKey, TableRow
from ..engine.tables import matching_rows, norm
from .invariants import Invariant

#: A domain of at most this many cases is also run case by case (explicit examples).
EXHAUSTIVE = 2000
#: What each kind checks, as the PASS/FAIL line says it.
SUMMARY = {
    "stacking": "no hex holds more units than the stacking limit at set-up",
    "covers-dice": "every die result is covered by exactly one row",
    "monotone": "more attack never gives a worse result",
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
        out.append(Invariant(game.id, rule, summary, _factory(check), name=check.id))
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
    if check.kind == "stacking":
        if check.limit is None:
            yield "a stacking check needs limit: (a number or a constant id)"
        elif isinstance(_limit(game, check), str):
            yield _limit(game, check)
        return
    table = _table(game, check)
    if table is None:
        yield (f"kind {check.kind} needs table: a table id" if check.table is None
               else f"table {check.table!r} does not exist")
        return
    if check.kind == "covers-dice":
        yield from _dice_problems(table)
    elif check.kind == "monotone":
        yield from _monotone_problems(table, check)


def _table(game: Game, check: Check) -> Table | None:
    return next((t for t in game.tables if t.id == check.table), None)


def _limit(game: Game, check: Check) -> int | str:
    """The stacking limit, or what is wrong with it."""
    value = check.limit
    if isinstance(value, str):
        constant = next((c for c in game.constants if c.id == value), None)
        if constant is None:
            return f"limit {value!r} is neither a number nor a constant id"
        value = constant.value
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        return f"limit {check.limit!r} is not a whole number of units (1 or more)"
    return value


def _roll_key(table: Table) -> TableKey | None:
    return next((k for k in table.keys if k.kind == "roll"), None)


def _dice_problems(table: Table) -> Iterator[str]:
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


def _result_field(table: Table, check: Check) -> str | None:
    if check.result is not None:
        return check.result
    return table.results[0] if len(table.results) == 1 else None


# --- domains -------------------------------------------------------------------------------


def _values(key: TableKey) -> list:
    """Every value a key takes: an enum's values, the integers of a bounded key."""
    if key.kind == "enum":
        return list(key.values)
    return list(range(key.min, key.max + 1)) if key.min is not None and key.max is not None \
        else []


def _given(cases: list, label: str, check_case: Callable[[object], None]):
    """A hypothesis test drawing one case of ``cases``; every case is an explicit example
    when there are at most ``EXHAUSTIVE`` of them."""
    from hypothesis import example, given
    from hypothesis import strategies as st

    @given(st.sampled_from(cases))
    def test(case):
        check_case(case)

    test.__name__ = label
    if len(cases) <= EXHAUSTIVE:
        for case in reversed(cases):
            test = example(case)(test)
    return test


def _nothing():
    return lambda: None


# --- stacking ------------------------------------------------------------------------------


def _stacks(game: Game) -> dict[tuple[str, str], list[tuple[str, int, str]]]:
    """(scenario, hex) -> [(unit id, counters, where written)] of the set-up's placements in
    hexes of the maps; a set-up without a scenario counts in every scenario."""
    hexes = frozenset().union(*(m.hex_set for m in game.hex_maps)) if game.hex_maps \
        else frozenset()
    scenarios = sorted({s.scenario for s in game.setup if s.scenario}) or ["standard"]
    stacks: dict[tuple[str, str], list] = {}
    for setup in game.setup:
        for place in setup.place:
            where = place.get("hex") or place.where
            if place.unit is None or not isinstance(where, str) or where not in hexes:
                continue
            for scenario in [setup.scenario] if setup.scenario else scenarios:
                stacks.setdefault((scenario, where), []).append(
                    (place.unit, place.count or 1, str(place.origin)))
    return stacks


def stacking(game: Game, check: Check):
    limit = _limit(game, check)
    stacks = _stacks(game)
    if not stacks:
        return _nothing()
    where_limit = (f"the limit is {limit} (constant {check.limit})" if isinstance(
        check.limit, str) else f"the limit is {limit}")

    def case(key):
        scenario, hex_id = key
        units = stacks[key]
        total = sum(n for _, n, _ in units)
        listed = ", ".join(f"{u}{f' x{n}' if n > 1 else ''} ({at})" for u, n, at in units)
        assert total <= limit, (
            f"check {check.id} ({check.origin}): hex {hex_id} holds {total} units at set-up "
            f"({scenario}): {listed}; {where_limit}")

    return _given(sorted(stacks), f"{check.id}_stacking", case)


# --- covers-dice ---------------------------------------------------------------------------


def _other_keys(table: Table, skip: str) -> list[TableKey]:
    return [k for k in table.keys if k.id != skip]


def _combinations(keys: list[TableKey]) -> list[dict]:
    return [dict(zip([k.id for k in keys], values, strict=True))
            for values in itertools.product(*(_values(k) for k in keys))]


def covers_dice(game: Game, check: Check):
    table = _table(game, check)
    roll = _roll_key(table)
    die_faces = faces(table.dice)
    cases = _combinations(_other_keys(table, roll.id))

    def case(inputs):
        shown = " ".join(f"{k}={v}" for k, v in inputs.items()) or "every input"
        missing, doubled = [], []
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


def _cell(table: Table, inputs: dict) -> TableRow | None:
    rows = matching_rows(table, inputs)
    return rows[0] if len(rows) == 1 else None  # a gap or overlap is the coverage check's


def monotone(game: Game, check: Check):
    table = _table(game, check)
    field = _result_field(table, check)
    rank = {norm(v): i for i, v in enumerate(check.order)}
    along = _values(table.key(check.key))
    steps = list(zip(along, along[1:], strict=False))
    cases = [(held, weaker, stronger)
             for held in _combinations(_other_keys(table, check.key))
             for weaker, stronger in steps]
    order = ", ".join(map(str, check.order))

    def case(drawn):
        held, weaker, stronger = drawn
        low = _cell(table, {**held, check.key: weaker})
        high = _cell(table, {**held, check.key: stronger})
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


KINDS: dict[str, Callable[[Game, Check], object]] = {
    "stacking": stacking,
    "covers-dice": covers_dice,
    "monotone": monotone,
}

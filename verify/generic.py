"""Invariants every game keeps, whatever its rules: probability is conserved.

For every referee table that answers ``odds``, over inputs hypothesis draws
from the table's declared inputs: the exact distribution sums to exactly 1,
and a seeded Monte Carlo of the same procedure (``roll``) agrees with it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..engine.catalogue import ref_tables
from ..engine.errors import BadInput, RuleViolation
from ..engine.model import Game
from ..engine.query import run_odds, run_roll, value_key
from ..engine.registry import GameCode, Input, RefTable

if TYPE_CHECKING:  # hypothesis is imported only when a check runs (start-up)
    from hypothesis.strategies import DataObject, SearchStrategy

#: the invariants of every game, registered the way a game folder's checks are
GENERIC = GameCode()

SAMPLED_KINDS = frozenset({"int", "enum", "bool"})
MONTE_CARLO_RUNS = 300


def odds_tables(game: Game) -> list[RefTable]:
    """Tables whose odds can be asked with inputs drawn from their declarations."""
    out = []
    for table in ref_tables(game).values():
        if table.odds is None and table.odds_field is None:
            continue
        if all(i.is_roll or _sampled(i) or not i.required for i in table.inputs):
            out.append(table)
    return out


def _sampled(item: Input) -> bool:
    """An input hypothesis can draw: a number, an enum, yes/no, or text with examples
    (``choices``: a CRT's odds, engine/combat.py)."""
    return item.kind in SAMPLED_KINDS or (item.kind == "text" and bool(item.choices))


def input_strategy(item: Input, game: Game | None = None) -> SearchStrategy[str]:
    """A hypothesis strategy for one input, as NAME=VALUE text (within its ``bounds`` in
    ``game`` when it has some)."""
    # start-up: 159 more modules (hypothesis, importlib.metadata), only when this runs
    from hypothesis import strategies as st

    span = item.range_in(game)
    if item.kind == "bool":
        values = st.sampled_from(["yes", "no"])
    elif item.kind in ("enum", "text"):
        values = st.sampled_from(list(item.choices))
    elif span is not None:
        values = st.integers(span[0], span[1]).map(str)
    else:
        lo = item.min if item.min is not None else 0
        hi = item.max if item.max is not None else lo + 12
        values = st.integers(lo, min(hi, lo + 40)).map(str)
    return values.map(lambda v: f"{item.name}={v}")


def pairs_strategy(table: RefTable, game: Game | None = None) -> SearchStrategy[list[str]]:
    # start-up: 159 more modules (hypothesis, importlib.metadata), only when this runs
    from hypothesis import strategies as st

    drawn = [input_strategy(i, game) for i in table.inputs if not i.is_roll and _sampled(i)]
    return st.tuples(*drawn).map(list) if drawn else st.just([])


def _odds(game: Game, table: RefTable, pairs: list[str]) -> dict[str, Any]:
    # start-up: 159 more modules (hypothesis, importlib.metadata), only when this runs
    from hypothesis import reject

    try:
        return run_odds(game, table, pairs)
    except (BadInput, RuleViolation):
        reject()


@GENERIC.check("odds", "every odds distribution sums to exactly 1")
def odds_sum_to_one(game: Game) -> Callable[..., None]:
    # start-up: 159 more modules (hypothesis, importlib.metadata), only when this runs
    from hypothesis import given
    from hypothesis import strategies as st

    tables = odds_tables(game)
    if not tables:
        return lambda: None

    @given(st.data())
    def check(data: DataObject) -> None:
        table = data.draw(st.sampled_from(tables), label="table")
        pairs = data.draw(pairs_strategy(table, game), label=f"{game.id} {table.name} inputs")
        payload = _odds(game, table, pairs)
        exact = payload["result"]["exact"]
        total = sum(Fraction(v) for v in exact.values())
        if "field" in payload["result"]:
            assert total == 1, f"odds {game.id} {table.name} {' '.join(pairs)} sum to {total}"
        else:
            assert all(0 <= Fraction(v) <= 1 for v in exact.values())

    return check


@GENERIC.check("odds", "exact odds agree with a seeded Monte Carlo of the same procedure",
           max_examples=8)
def odds_agree_with_monte_carlo(game: Game) -> Callable[..., None]:
    # start-up: 159 more modules (hypothesis, importlib.metadata), only when this runs
    from hypothesis import given
    from hypothesis import strategies as st

    tables = [t for t in odds_tables(game) if t.odds_field and t.lookup_allowed]
    if not tables:
        return lambda: None

    @given(st.data())
    def check(data: DataObject) -> None:
        table = data.draw(st.sampled_from(tables), label="table")
        pairs = data.draw(pairs_strategy(table, game), label=f"{game.id} {table.name} inputs")
        exact = {k: Fraction(v) for k, v in _odds(game, table, pairs)["result"]["exact"].items()}
        counts: dict[str, int] = {}
        for seed in range(MONTE_CARLO_RUNS):
            result = run_roll(game, table, pairs, seed)["result"][table.odds_field]
            key = value_key(result)
            counts[key] = counts.get(key, 0) + 1
        for key, p in exact.items():
            seen = counts.get(key, 0) / MONTE_CARLO_RUNS
            sigma = math.sqrt(float(p) * (1 - float(p)) / MONTE_CARLO_RUNS) or 1e-9
            assert abs(seen - float(p)) <= 5 * sigma + 1e-9, (
                f"{game.id} {table.name} {' '.join(pairs)}: {key} exact {float(p):.4f}, "
                f"Monte Carlo {seen:.4f} over {MONTE_CARLO_RUNS} seeded runs")
        assert set(counts) <= set(exact), f"Monte Carlo saw {set(counts) - set(exact)}"

    return check

"""Fixtures of the Midway engine tests: the game, table runners, small carrier areas."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from warpress.cli import main
from warpress.engine.games.midway import area as A
from warpress.engine.loader import builtin
from warpress.engine.query import run_lookup, run_odds, run_roll
from warpress.engine.registry import ref_table


@pytest.fixture(scope="session")
def game():
    return builtin("midway")


@pytest.fixture(scope="session")
def lookup(game):
    """``lookup(table, "a=1", ...)`` -> the result dict of ``warpress lookup``."""

    def run(table: str, *pairs: str) -> dict:
        return run_lookup(game, ref_table(game, table), list(pairs))["result"]

    return run


@pytest.fixture(scope="session")
def payload(game):
    """``payload(mode, table, "a=1", ...)`` -> the whole JSON object of a query."""

    def run(mode: str, table: str, *pairs: str, seed: int = 1) -> dict:
        ref = ref_table(game, table)
        if mode == "lookup":
            return run_lookup(game, ref, list(pairs))
        if mode == "roll":
            return run_roll(game, ref, list(pairs), seed)
        return run_odds(game, ref, list(pairs))

    return run


@pytest.fixture(scope="session")
def cli():
    """``cli("lookup", "midway", ...)`` -> click's Result."""

    def run(*args: str):
        return CliRunner().invoke(main, list(args))

    return run


@pytest.fixture(scope="session")
def cli_json(cli):
    def run(*args: str) -> dict:
        result = cli(*args, "--json")
        assert result.exit_code == 0, result.output
        return json.loads(result.output)

    return run


@pytest.fixture(scope="session")
def build(game):
    """``build([(uid, type, display, box[, steps]), ...], **fields)`` -> a checked CarrierArea."""

    def run(rows, **fields) -> A.CarrierArea:
        units = [A.make_unit(game, r[0], r[1], r[2], r[3], r[4] if len(r) > 4 else None)
                 for r in rows]
        return A.new_area(game, units, **fields)

    return run

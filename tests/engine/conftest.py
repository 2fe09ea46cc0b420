"""Fixtures shared by the engine tests of every game.

Each game's folder gives the ``game`` fixture (its built-in data); the table runners here
ask that game. They are module-scoped: a session-scoped runner would keep the first game
it was made for. ``cli``, ``cli_json`` and ``cli_refused`` run the command line.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from warpress.cli import main
from warpress.engine.query import run_query
from warpress.engine.registry import ref_table


@pytest.fixture(scope="module")
def payload(game):
    """``payload(mode, table, "a=1", ...)`` -> the whole JSON object of a query."""

    def run(mode: str, table: str, *pairs: str, seed: int = 1) -> dict:
        return run_query(mode, game, ref_table(game, table), list(pairs), seed)

    return run


@pytest.fixture(scope="module")
def lookup(payload):
    """``lookup(table, "a=1", ...)`` -> the result dict of ``warpress lookup``."""

    def run(table: str, *pairs: str) -> dict:
        return payload("lookup", table, *pairs)["result"]

    return run


@pytest.fixture(scope="module")
def odds(payload):
    """``odds(table, "a=1", ...)`` -> the result dict of ``warpress odds``."""

    def run(table: str, *pairs: str) -> dict:
        return payload("odds", table, *pairs)["result"]

    return run


@pytest.fixture(scope="session")
def cli():
    """``cli("lookup", "midway", ...)`` -> click's Result of ``warpress ARGS``."""

    def run(*args: str):
        return CliRunner().invoke(main, list(args))

    return run


@pytest.fixture(scope="session")
def cli_json(cli):
    """``cli_json("lookup", "midway", ...)`` -> the object ``warpress ARGS --json`` prints
    (exit 0 required)."""

    def run(*args: str) -> dict:
        result = cli(*args, "--json")
        assert result.exit_code == 0, result.output
        return json.loads(result.output)

    return run


@pytest.fixture(scope="session")
def cli_refused(cli):
    """``cli_refused("lookup", ...)`` -> the one line of a refusal: ``warpress ARGS`` exits
    ``code`` (2 unless given) without a traceback and prints one non-blank line."""

    def run(*args: str, code: int = 2) -> str:
        result = cli(*args)
        assert result.exit_code == code, result.output
        assert "Traceback" not in result.output
        lines = [line for line in result.output.splitlines() if line.strip()]
        assert len(lines) == 1, result.output
        return lines[0]

    return run

"""Shared fixtures: a small valid game folder that tests copy and break; the table runners
(``payload``, ``lookup``, ``odds``: they ask the ``game`` fixture of the test's folder or
module) and the command line (``cli``, ``cli_json``, ``cli_refused``).

The runners are module-scoped: a session-scoped runner would keep the first game it was made
for.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import settings
from warpress.cli import main
from warpress.engine.catalogue import ref_table
from warpress.engine.query import run_query

#: Property tests draw the same examples on every run ("same input, same output": a failure
#: in CI is a failure on every machine); HYPOTHESIS_PROFILE=explore draws new ones each run
#: to search further.
settings.register_profile("repeatable", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:  # the tests' own helper modules (data_edits) import by name
    sys.path.insert(0, HERE)

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(autouse=True)
def _wide_terminal(monkeypatch):
    """Text output is wrapped to $COLUMNS (warpress/output.py): tests that compare whole
    lines see them unwrapped; the tests of the wrapping (test_cli_output.py) set COLUMNS."""
    monkeypatch.setenv("COLUMNS", "10000")


@pytest.fixture
def tiny_game(tmp_path: Path) -> Path:
    """A copy of tests/fixtures/games/tiny that a test may edit."""
    target = tmp_path / "tiny"
    shutil.copytree(FIXTURES / "games" / "tiny", target)
    return target


@pytest.fixture
def corps_game(tmp_path: Path) -> Path:
    """A copy of tests/fixtures/games/corps (a designer's hex-and-counter game using the
    data forms: an odds-ratio CRT, a terrain effects chart, hexsides, stacking) that a test
    may edit."""
    target = tmp_path / "corps"
    shutil.copytree(FIXTURES / "games" / "corps", target)
    return target


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
    ``code`` (2 unless given) without a traceback and prints one non-blank line on stderr;
    on stdout nothing, or with ``--json`` the error as one JSON object."""

    def run(*args: str, code: int = 2) -> str:
        result = cli(*args)
        assert result.exit_code == code, result.output
        assert "Traceback" not in result.output
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        assert len(lines) == 1, result.output
        if "--json" in args:
            assert json.loads(result.stdout)["error"]["exit"] == code, result.output
        else:
            assert result.stdout == "", result.output
        return lines[0]

    return run


def pytest_addoption(parser):
    parser.addoption("--regen-golden", action="store_true", default=False,
                     help="record tests/golden/ again from the current code (test_golden.py)")


def pytest_configure(config):
    """The state folder (trusted folders, session anchors: engine/places.py) of this test run
    is a fresh private folder, never the user's; a test that needs its own sets
    $WARPRESS_STATE itself."""
    import os
    import tempfile

    os.environ["WARPRESS_STATE"] = tempfile.mkdtemp(prefix="warpress-state-")

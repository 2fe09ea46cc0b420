"""The designer's commands: ``games``, ``verify``, ``schema``, ``new``, ``docs``, ``errata``
and ``trust``."""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path

import click

from ..engine import trust
from ..engine.errors import BadInput, Untrusted, WarpressError
from ..engine.gamelist import builtin_games, entry_point_problems
from ..engine.loader import game_dir, load_game
from ..engine.model import Game
from ..manual import page, topics
from ..output import (
    errata_lines,
    game_lines,
    say,
    say_json,
    single_line,
    trusted_line,
    verify_summary,
    working,
)
from ..starter.new import new_game
from .base import WRITE_CODES, WholeNumber, epilogue, friendly, game_names, main, trust_option


@main.command(short_help="List every game, or GAME: kind, components, sources.",
              epilog=epilogue("0 listed; 2 an unknown game or broken game data", "games",
                             "games midway --json"))
@click.argument("game", required=False, default="all")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@friendly
def games(game: str, as_json: bool) -> None:
    """List GAME (a game or a folder; without it all games, shipped and installed through
    the warpress.games entry points): kind, component counts, sourced vs assumed values."""
    from ..verify.summary import game_summary  # on use (cli/__init__.py)

    rows = [game_summary(name) for name in game_names(game)]
    for problem in entry_point_problems().values():
        say(f"warpress: {problem}", err=True)
    if as_json:
        say_json({"games": rows}, indent=2)
        return
    for row in rows:
        for line in game_lines(row):
            say(line, hang=14)


@main.command(short_help="Check GAME (or all): the data, then the rule invariants.",
              epilog=epilogue("0 every check passes; 1 an invariant or check FAILs; 2 a data "
                             "problem or bad input", "verify midway",
                             "verify all --data", "verify ./my-game --thorough"))
@click.argument("game")
@click.option("--data", "data_only", is_flag=True, help="Run only the data checks.")
@click.option("--thorough", is_flag=True, help="Run the rule invariants with more examples.")
@trust_option
@friendly
def verify(game: str, data_only: bool, thorough: bool) -> None:
    """Check GAME (or all): data checks, then the rule invariants with a fixed seed.

    Data problems are printed as file:line: key: message (exit 2); each invariant
    is reported PASS or FAIL with its rule number and, for a FAIL, the shrunk
    counterexample (exit 1).
    """
    from ..verify.data import check_folder  # on use (cli/__init__.py)

    started, tally = time.perf_counter(), Counter[str]()
    for name in game_names(game):
        report = check_folder(name)
        for problem in report.problems:
            say(single_line(str(problem)), err=True)
        if not report.ok or report.game is None:
            tally["data problems"] += 1
            say(f"{name}: {len(report.problems)} data problem(s)", err=True)
            continue
        tally["data OK"] += 1
        total = report.sourced + report.assumed
        share = 100.0 * report.sourced / total if total else 0.0
        say(f"{report.game.id}: data OK: {total} values, {share:.1f}% sourced, "
            f"{report.assumed} assumed")
        if not data_only:
            _run_invariants(report.game, thorough, tally)
    say(verify_summary(tally, data_only, time.perf_counter() - started))
    if tally["data problems"]:
        sys.exit(2)
    if tally["FAIL"]:
        sys.exit(1)


def _run_invariants(game: Game, thorough: bool, tally: Counter[str]) -> None:
    """Print each invariant's PASS/FAIL and count it in ``tally`` (one that cannot run
    is a FAIL)."""
    from ..verify.invariants import QUICK, THOROUGH, invariants_for, run  # on use (cli/__init__.py)

    try:
        invariants = invariants_for(game)
    except Untrusted:
        raise
    except WarpressError as exc:
        say(f"  FAIL  {game.id}: invariants cannot run: {exc}")
        tally["FAIL"] += 1
        return
    for index, inv in enumerate(invariants, 1):
        working(f"  {index}/{len(invariants)} {inv.label}")  # on a terminal, while it runs
        try:
            outcome = run(inv, game, THOROUGH if thorough else QUICK)
        except WarpressError as exc:
            working("", done=True)
            say(f"  FAIL  {inv.label}: cannot run: {exc}")
            tally["FAIL"] += 1
            continue
        working("", done=True)
        tally[outcome.status] += 1
        say(f"  {outcome.status}  {inv.label} ({outcome.examples} examples)", hang=8)
        if not outcome.passed:
            detail = outcome.counterexample or outcome.error
            for line in detail.splitlines():
                say(f"        {line}")


@main.command(short_help="Print the JSON Schema of a game data file.",
              epilog=epilogue("0 printed; 2 bad input", "schema > warpress-game.schema.json"))
@click.option("--indent", default=2, show_default=True, type=WholeNumber(0, 16),
              help="JSON indentation (0-16).")
def schema(indent: int) -> None:
    """Print the JSON Schema of a game data file (for editors)."""
    from ..engine.schema import game_file_schema  # on use (cli/__init__.py)

    say_json(game_file_schema(), indent=indent)


@main.command(name="new", short_help="Write a small starting game into GAME_DIR.",
              epilog=epilogue(WRITE_CODES, "new bfm",
                             'new games/bfm --name "Battle for the Ford"'))
@click.argument("game_dir")
@click.option("--name", help="The game's name (default: from the folder's name).")
@friendly
def new(game_dir: str, name: str | None) -> None:
    """Write a small, valid, commented starting game into GAME_DIR (a new or empty folder):
    a hex map, two sides, NATO counters, a set-up, a CRT, a turn track, a play aid."""
    made = new_game(game_dir, name)
    shown = f"./{game_dir}" if game_dir in builtin_games() else game_dir
    say(f"{shown}: wrote the starting game {made.id!r} ({made.name}): "
        f"{', '.join(made.files)}")
    say(f"next: warpress verify {shown}; warpress build {shown} --out output; "
        f"warpress lookup {shown} crt odds=3-1 roll=4; then: warpress docs designing", hang=6)


@main.command(short_help="Print a documentation page (the data format, designing ...).",
              epilog=epilogue("0 printed; 2 an unknown page", "docs", "docs designing",
                             "docs data-format | less"))
@click.argument("topic", required=False)
@friendly
def docs(topic: str | None) -> None:
    """Print the documentation page TOPIC as it shipped with this warpress (Markdown), or
    without TOPIC list the pages."""
    if topic is None:
        for name, title in topics().items():
            say(f"{name:<13} {title}", hang=14)
        return
    click.echo(page(topic), nl=False)


@main.command(short_help="The rule texts' inconsistencies and the rulings taken.",
              epilog=epilogue("0 listed; 2 an unknown game or broken game data",
                             "errata midway", "errata all"))
@click.argument("game")
@friendly
def errata(game: str) -> None:
    """The inconsistencies of GAME's (or all games') rule text, both readings and the ruling
    taken."""
    names = game_names(game)
    for index, name in enumerate(names):
        data = load_game(name)
        if len(names) > 1:  # a heading per game, a blank line between games
            say(f"{data.id}: {len(data.errata)} errata" if index == 0 else
                f"\n{data.id}: {len(data.errata)} errata")
        for line in errata_lines(data):
            say(line)


@main.command(name="trust", short_help="Let a game folder's Python run (or list, or forget).",
              epilog=epilogue("0 done; 2 bad input (no such folder, a state folder others may "
                             "write)", "trust ./my-game", "trust --list",
                             "trust ./my-game --forget"))
@click.argument("folder", required=False)
@click.option("--list", "listing", is_flag=True, help="List the folders you trust.")
@click.option("--forget", is_flag=True, help="Trust FOLDER no longer.")
@friendly
def trust_command(folder: str | None, listing: bool, forget: bool) -> None:
    """Trust the game folder FOLDER: its Python (rules, referee, checks, kit) runs in every
    command from now on. Read it first, as you would any program. warpress records the folder
    and the SHA-256 of its Python (in the state folder, outside the game folder); once that
    Python changes, the folder is not trusted until you trust it again. Shipped and installed
    games need no trust; --trust trusts a folder for one command; $WARPRESS_TRUST lists
    folders trusted in CI."""
    if listing or not folder:
        if folder:
            raise BadInput("--list takes no FOLDER")
        for listed, record in trust.trusted_folders().items():
            say(trusted_line(listed, record, trust.why_not(Path(listed))))
        if not listing:
            raise BadInput("trust: give FOLDER (or --list)")
        return
    if forget:
        gone = trust.forget_folder(Path(folder))
        say(f"{Path(folder).resolve()}: {'no longer trusted' if gone else 'was not trusted'}")
        return
    path, _shown = game_dir(folder)
    if trust.always_trusted(path.resolve()):
        say(f"{folder}: a shipped or installed game: its Python always runs")
        return
    resolved, digest, files = trust.trust_folder(path)
    say(f"{resolved}: trusted ({files} Python file(s), sha256 {digest[:16]}); its Python "
        f"runs until it changes")

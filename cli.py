"""The ``warpress`` command line: parse, call, print, map errors to exit codes.

Bad input (an unknown game, table or input, broken game data) gives one clear
line per problem on stderr and exit code 2; never a traceback.
"""

from __future__ import annotations

import functools
import json
import sys

import click

from .engine.errors import BadInput, DataError, RuleViolation, WarpressError


class InputError(click.UsageError):
    """Exit 2 with one line; click's usage hint is not printed."""

    def show(self, file=None) -> None:  # noqa: D401 - click API
        click.echo(f"warpress: {self.format_message()}", err=True, file=file)


def friendly(fn):
    """Map domain errors to exit codes: bad input and bad data 2, rule violations 1."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except DataError as exc:
            for problem in exc.problems:
                click.echo(str(problem), err=True)
            sys.exit(2)
        except BadInput as exc:
            raise InputError(str(exc)) from None
        except RuleViolation as exc:
            raise click.ClickException(str(exc)) from None
        except WarpressError as exc:
            raise click.ClickException(str(exc)) from None

    return wrapper


def _game_names(game: str) -> list[str]:
    from .engine.loader import builtin_games

    return list(builtin_games()) if game == "all" else [game]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="warpress")
def main() -> None:
    """warpress: print-and-play kits and a reference rules engine for wargames.

    GAME is a built-in game (midway, midway-cards, nimitz, nightfighter,
    axis-allies) or the path of a game folder of your own.
    """


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@friendly
def games(as_json: bool) -> None:
    """List the games: kind, component counts, sourced vs assumed values."""
    from .engine.loader import builtin_games
    from .verify.summary import game_summary

    rows = [game_summary(name) for name in builtin_games()]
    if as_json:
        click.echo(json.dumps({"games": rows}, ensure_ascii=False, indent=2))
        return
    for row in rows:
        counts = ", ".join(f"{n} {k}" for k, n in row["components"].items() if n)
        click.echo(f"{row['id']:<13} {row['kind']:<15} {row['name']}")
        click.echo(f"{'':<13} {counts}")
        click.echo(f"{'':<13} {row['values']} values: {row['sourced_pct']:.1f}% sourced, "
                   f"{row['assumed_pct']:.1f}% assumed; {row['errata']} errata")


@main.command()
@click.argument("game")
@click.option("--data", "data_only", is_flag=True, help="Run only the data checks.")
@friendly
def verify(game: str, data_only: bool) -> None:
    """Check GAME (or all): the data checks, every problem as file:line: key: message."""
    from .verify.data import check_folder

    failed = False
    for name in _game_names(game):
        report = check_folder(name)
        for problem in report.problems:
            click.echo(str(problem), err=True)
        if report.ok:
            total = report.sourced + report.assumed
            share = 100.0 * report.sourced / total if total else 0.0
            click.echo(f"{report.game.id}: data OK: {total} values, {share:.1f}% sourced, "
                       f"{report.assumed} assumed")
        else:
            failed = True
            click.echo(f"{name}: {len(report.problems)} data problem(s)", err=True)
    if failed:
        sys.exit(2)


@main.command()
@click.option("--indent", default=2, show_default=True, help="JSON indentation.")
def schema(indent: int) -> None:
    """Print the JSON Schema of a game data file (for editors)."""
    from .engine.schema import game_file_schema

    click.echo(json.dumps(game_file_schema(), ensure_ascii=False, indent=indent))


@main.command()
@click.argument("game")
@friendly
def errata(game: str) -> None:
    """The inconsistencies of GAME's rule text, both readings and the ruling taken."""
    from .engine.loader import load_game

    data = load_game(game)
    for erratum in data.errata:
        click.echo(f"{erratum.id} [{', '.join(erratum.rules)}] {erratum.summary}")
        for reading in erratum.readings:
            click.echo(f"    reading: {reading}")
        click.echo(f"    ruling:  {erratum.ruling}")
        click.echo(f"    why:     {erratum.why}")

"""``balance``: play a game many times with agents and report its balance."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

import click

from ..engine.inputs import check_path_name
from ..output import duration_text, say, say_json
from .base import SEED, WholeNumber, check_text, friendly, main


@main.command(short_help="Play GAME many times with agents and report its balance.")
@click.argument("game")
@click.option("--games", default=100, show_default=True, type=WholeNumber(1),
              help="Games to play (seeds SEED, SEED+1, ...).")
@click.option("--seed", default=1, show_default=True, type=SEED, help="The first game's seed.")
@click.option("--jobs", default=None, type=WholeNumber(1),
              help="Local processes (default: every core).")
@click.option("--scenario", default=None, help="A scenario (default: the game's first).")
@click.option("--agents", "agents", multiple=True, metavar="SIDE=AGENT",
              help="The agent of SIDE: random (default), greedy, mcts, mcts:STEPS. Repeatable.")
@click.option("--vary", multiple=True, metavar="KEY=RANGE",
              help="Sweep a number of the data: constant.ID, unit.ID.STAT, table.ID.ROW.COL, "
                   "setup.UNIT, SECTION.ID.FIELD over A..B, A..B:STEP or a,b,c. Repeatable.")
@click.option("--units", default=50, show_default=True, type=WholeNumber(0),
              help="Games with each unit removed and weakened (restricted play; 0: none).")
@click.option("--only-units", "only_units", multiple=True, metavar="TEXT",
              help="Restricted play only for the pieces whose id holds TEXT (a unit type, "
                   "a side, germany.battleship). Repeatable.")
@click.option("--max-steps", default=5000, show_default=True, type=WholeNumber(1),
              help="Stop a game after this many decisions (counted as stopped by the cap).")
@click.option("--max-turns", default=None, type=WholeNumber(1),
              help="Stop a game undecided once it passes this turn (counted as stopped by "
                   "the turn cap; default: none).")
@click.option("--out", "out_dir", default=None,
              help="Where the results file, report.json and report.txt go (default: "
                   "output/balance/GAME); a run stopped early goes on from its results.")
@click.option("--plots", "plots_dir", default=None,
              help="Draw the plots (PNG and SVG) into this folder.")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Play on a Dask cluster (tcp://host:8786; needs warpress[cluster]).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as one JSON object.")
@friendly
def balance(game: str, games: int, seed: int, jobs: int | None, scenario: str | None,
            agents: tuple[str, ...], vary: tuple[str, ...], units: int,
            only_units: tuple[str, ...], max_steps: int, max_turns: int | None,
            out_dir: str | None, plots_dir: str | None, scheduler: str | None,
            as_json: bool) -> None:
    """Play GAME --games times with agents and report its balance: win rates and draws
    with 95 % intervals, why games end, how long they last, the most one-sided and longest
    games (each replayable as a session), units and hexes that matter, sweeps, rule holes
    found by play (docs/balance.md). Progress goes to stderr."""
    from ..balance.balance import Options, execute, finish, prepare  # on use (cli/__init__.py)
    from ..balance.report import text  # on use (cli/__init__.py)

    for path, what in ((out_dir, "--out"), (plots_dir, "--plots")):
        if path is not None:
            check_text([path])
            check_path_name(path, what)
    options = Options(game, games, seed, jobs, scenario, agents, vary, units,
                      out_dir, plots_dir, scheduler, max_steps, max_turns, only_units)
    plan = prepare(options)
    if plan.done:
        say(f"balance: {len(plan.done)} of {plan.total} games already in "
            f"{plan.out / 'results.jsonl'}: going on", err=True)
    records = execute(plan, _progress())
    report = finish(plan, records)
    if as_json:
        say_json(report)
    else:
        say(text(report).rstrip("\n"))
        say(f"\nreport: {plan.out / 'report.txt'} (JSON: report.json; results: results.jsonl)"
            + (f"; plots: {plots_dir}" if plots_dir else ""))


def _progress() -> Callable[[int, int, int], None]:
    """Progress on stderr: games done, rate, time left; on a terminal one line rewritten at
    most every half second, elsewhere (a log file) a line every ten seconds."""
    last = [0.0, time.monotonic()]
    every = 0.5 if sys.stderr.isatty() else 10.0

    def show(done: int, total: int, fresh: int) -> None:
        now = time.monotonic()
        if now - last[0] < every and done < total:
            return
        last[0] = now
        elapsed = now - last[1]
        speed = fresh / elapsed if elapsed > 0 else 0.0
        left = (total - done) / speed if speed > 0 else 0.0
        tty = sys.stderr.isatty()
        click.echo(f"{chr(13) if tty else ''}balance: {done}/{total} games, {speed:.0f} "
                   f"games/s, about {duration_text(left)} left  ", err=True,
                   nl=done >= total or not tty)

    return show

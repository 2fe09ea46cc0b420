"""The referee's table commands: ``lookup``, ``roll``, ``odds`` (one procedure, three
modes) and ``tables``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from ..engine.catalogue import ref_table, ref_tables
from ..engine.loader import load_cached
from ..engine.query import json_rules, render_text, run_query
from ..output import say, say_json, table_lines
from .base import QUERY_CODES, SEED, epilogue, friendly, main, trust_option

#: A click option, as its decorator.
Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]


def _query_command(name: str, help_text: str, mode: str,
                   options: tuple[Decorator, ...] = (), short_help: str | None = None,
                   examples: tuple[str, ...] = ()) -> click.Command:
    def command(game: str, table: str, pairs: tuple[str, ...], as_json: bool,
                **opts: Any) -> None:
        data = load_cached(game)
        payload = run_query(mode, data, ref_table(data, table), pairs, opts.get("seed"),
                            opts.get("exact", False))
        if as_json:
            shown = {k: v for k, v in payload.items()
                     if k not in ("text", "whole_text")}  # the catalogue's shape
            say_json(shown, default=str)
        else:
            say(render_text(payload))

    made = trust_option(friendly(command))
    for option in options:
        made = option(made)
    made = click.option("--json", "as_json", is_flag=True,
                        help="Print exactly one JSON object.")(made)
    made = click.argument("pairs", nargs=-1)(made)
    made = click.argument("table")(made)
    made = click.argument("game")(made)
    return main.command(name=name, help=help_text, short_help=short_help,
                        epilog=epilogue(QUERY_CODES, *examples))(made)


_query_command("lookup", "Resolve GAME's TABLE with the dice you rolled: NAME=VALUE ...", "lookup",
               examples=("lookup midway carrier-damage damaged=no roll=2",
                         "lookup nimitz attack value=6/3 roll=3 --json"))
_query_command("roll", "Resolve GAME's TABLE, rolling the dice you leave out (--seed N).", "roll",
               (click.option("--seed", type=SEED, default=None,
                             help="Seed for the dice (printed, so a roll can be replayed)."),),
               short_help="Resolve GAME's TABLE, rolling the dice left out.",
               examples=("roll midway landing invasion=4 garrison=2 --seed 7",
                         'roll axis-allies battle attacker="3 infantry" defender="2 infantry"'))
_query_command("odds", "The probability distribution of GAME's TABLE (exact with --exact).",
               "odds", (click.option("--exact", is_flag=True,
                                     help="Exact fractions where the answer is floating "
                                          "point by default (Axis & Allies battles)."),),
               short_help="The probabilities of GAME's TABLE over every roll.",
               examples=("odds midway landing invasion=4 garrison=2",
                         'odds axis-allies battle attacker="6 infantry" defender="5 infantry"',
                         "odds midway landing invasion=4 garrison=2 --exact"))


@main.command(epilog=epilogue("0 listed; 2 an unknown game or broken game data",
                             "tables midway", "tables axis-allies --json"))
@click.argument("game")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@trust_option
@friendly
def tables(game: str, as_json: bool) -> None:
    """List GAME's tables: their inputs, result fields and rules."""
    data = load_cached(game)
    listing = ref_tables(data)
    if as_json:
        out = {name: {"summary": t.summary, "rules": json_rules(t.rules),
                      "inputs": {i.name: i.allowed(data) for i in t.inputs},
                      "results": list(t.results)} for name, t in listing.items()}
        say_json({"game": data.id, "tables": out}, indent=2)
        return
    for name, t in listing.items():
        say("\n".join(table_lines(data, name, t)))

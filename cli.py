"""The ``warpress`` command line: parse, call, print, map errors to exit codes.

Bad input (an unknown game, table or input, broken game data) gives one clear
message per problem on stderr and exit code 2; never a traceback. A move the rules
refuse exits 1. Both are one message ``warpress: what was wrong`` on stderr (a data
problem is ``file:line: key: message``). Text for people, error messages included, is
wrapped to the terminal's width (``output.fit``: a long message goes on under a hanging
indent); JSON is printed as it is.
"""

from __future__ import annotations

import functools
import os
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

import click

from .engine.errors import (
    BadInput,
    DataError,
    InputProblems,
    RuleViolation,
    Untrusted,
    WarpressError,
)
from .engine.inputs import bounds_text, check_path_name, quote, read_int
from .engine.notes import drain
from .engine.text import plain_steps, rules_text
from .output import (
    announcement_line,
    decision_lines,
    fit,
    log_line,
    progress,
    say,
    say_json,
    single_line,
    summary_lines,
    view_lines,
    working,
)

#: Whether the command being run was given ``--json`` (before any ``--``): its refusal or bad
#: input is then also a JSON object on stdout (``json_error``). Set for each command line.
_ASKED = {"json": False}


def json_error(kind: str, code: int, message: str, **more) -> None:
    """With ``--json``: ``{"error": {"kind", "exit", "message", ...}}`` on stdout (the line on
    stderr stays), so a program reading the JSON learns why there is no answer. ``kind``:
    ``bad-input`` (exit 2), ``data`` (broken game data, exit 2), ``refused`` (exit 1)."""
    if _ASKED["json"]:
        say_json({"error": {"kind": kind, "exit": code, "message": message, **more}})


class InputError(click.UsageError):
    """Exit 2 with one message; click's usage hint is not printed."""

    def show(self, file=None) -> None:  # noqa: D401 - click API
        json_error("bad-input", self.exit_code, self.format_message())
        click.echo(fit(f"warpress: {self.format_message()}"), err=True, file=file)


class Refusal(click.ClickException):
    """Exit 1 (the rules refuse, or a replay differs) with the one prefix of every message;
    ``rule``: the rule that refuses, when one does."""

    def __init__(self, message: str, rule: str | None = None):
        super().__init__(message)
        self.rule = rule

    def show(self, file=None) -> None:  # noqa: D401 - click API
        more = {"rule": self.rule} if self.rule else {}
        json_error("refused", self.exit_code, self.format_message(), **more)
        click.echo(fit(f"warpress: {self.format_message()}"), err=True, file=file)


class OneLineGroup(click.Group):
    """Click's own usage errors (a missing argument, an unknown option or command) as one
    line like every other bad input: ``warpress: tables: Got unexpected extra argument
    (extra) (see 'warpress tables --help')``, exit 2."""

    def make_context(self, info_name, args, parent=None, **extra):
        if parent is None:
            words = list(args)
            _ASKED["json"] = "--json" in words[:words.index("--") if "--" in words else None]
            check_text(args)
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except _AS_CLICK_SHOWS:
            raise
        except click.UsageError as exc:
            raise _one_line(exc) from None

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except _AS_CLICK_SHOWS:
            raise
        except click.UsageError as exc:
            if exc.ctx is None and ctx.invoked_subcommand:  # an option's value: no context
                exc.ctx = click.Context(click.Command(ctx.invoked_subcommand), parent=ctx,
                                        info_name=ctx.invoked_subcommand)
            raise _one_line(exc) from None


#: Left as click shows them: our own one-line errors, and the help a bare group prints.
_AS_CLICK_SHOWS = (InputError, getattr(click.exceptions, "NoArgsIsHelpError", InputError))


def _one_line(exc: click.UsageError) -> InputError:
    path = exc.ctx.command_path if exc.ctx else "warpress"
    where = path.partition(" ")[2]
    return InputError(single_line(f"{where + ': ' if where else ''}{exc.format_message()} "
                                  f"(see '{path} --help')"))


class WholeNumber(click.ParamType):
    """An integer option read by the shared parser (``engine/inputs.py``): ASCII digits,
    bounded length, within ``low``-``high``; anything else one line, exit 2."""

    name = "integer"

    def __init__(self, low: int | None = None, high: int | None = None):
        self.low, self.high = low, high

    def convert(self, value, param, ctx):
        number = read_int(value)
        if number is None or (self.low is not None and number < self.low) or (
                self.high is not None and number > self.high):
            self.fail(f"{quote(value)} is not {bounds_text(self.low, self.high)}", param, ctx)
        return number


#: A seed: a whole number of at most 18 digits (a 64-bit integer).
SEED = WholeNumber(0)


def check_text(args) -> None:
    """InputError for an argument that is not text: a byte of the command line that is not
    UTF-8 reaches Python as a lone surrogate, which no file, log or JSON can hold."""
    for arg in args:
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            raise InputError(f"argument {ascii(arg)} is not UTF-8 text") from None


#: The most data problems a command other than ``verify --data`` prints.
MOST_PROBLEMS = 50


def friendly(fn):
    """Map domain errors to exit codes: bad input and bad data 2, rule violations 1."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except Untrusted as exc:
            drain()  # the error names what was not run
            raise InputError(single_line(str(exc))) from None
        except DataError as exc:
            lines = [single_line(str(problem)) for problem in exc.problems]
            json_error("data", 2, lines[0] if len(lines) == 1 else
                       f"{len(lines)} problems in the game's data", problems=lines)
            for line in lines[:MOST_PROBLEMS]:
                say(line, err=True)
            if len(lines) > MOST_PROBLEMS:
                say(f"and {len(lines) - MOST_PROBLEMS} more (warpress verify "
                    f"{single_line(exc.game or 'GAME')} --data lists them all)", err=True)
            sys.exit(2)
        except InputProblems as exc:  # a file's problems: one line each
            raise InputError("\n".join(single_line(str(p)) for p in exc.problems)) from None
        except BadInput as exc:
            raise InputError(single_line(str(exc))) from None
        except RuleViolation as exc:
            raise Refusal(single_line(str(exc)), exc.rule) from None
        except WarpressError as exc:
            raise Refusal(single_line(str(exc))) from None
        except BrokenPipeError:  # the reader stopped reading (`| head`): nothing to say
            _quiet_stdout()
            sys.exit(0)
        except Exception as exc:  # a designer's folder code raising: one line, not a traceback
            # start-up: 21 more modules (tempfile), only when this runs
            from .engine.gamecode import runtime_problem

            problem = runtime_problem(exc)
            if problem is not None:
                raise InputError(single_line(str(problem))) from None
            if isinstance(exc, OSError):  # a file or folder the system refuses: one line
                where = "" if exc.filename is None else f" {quote(str(exc.filename), 200)}"
                raise InputError(single_line(f"cannot read or write{where}: "
                                             f"{exc.strerror or exc}")) from None
            raise
        finally:
            for note in drain():
                say(f"warpress: note: {single_line(note)}", err=True)

    return wrapper


def _quiet_stdout() -> None:
    """Point stdout at the null device, so that the interpreter's last flush of what the
    closed pipe did not take raises nothing more."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # not a real file (a test's runner)
        pass


def _trust_option(fn):
    """``--trust``: run the Python of the game folder the command names (GAME, or --game of
    a session command) for this run only (engine/trust.py)."""

    @functools.wraps(fn)
    def wrapper(*args, trust_run: bool = False, **kwargs):
        named = kwargs.get("game") or kwargs.get("game_folder")
        if not trust_run or not named:
            return fn(*args, **kwargs)

        # start-up: 18 more modules (tempfile), only when this runs
        from .engine.trust import for_this_run

        with for_this_run(Path(named)):
            return fn(*args, **kwargs)

    return click.option("--trust", "trust_run", is_flag=True,
                        help="Run the named game folder's Python this once (see "
                             "'warpress trust').")(wrapper)


def _game_names(game: str) -> list[str]:
    """``all``: the shipped games, then those of installed packages (entry points)."""
    # start-up: 25 more modules (tempfile), only when this runs
    from .engine.loader import builtin_games, entry_point_games

    return [*builtin_games(), *entry_point_games()] if game == "all" else [game]


#: What each exit code means, for the commands' --help (``_epilog``).
QUERY_CODES = "0 answered; 1 the rules refuse (the rule is named); 2 bad input or game data"
WRITE_CODES = "0 written; 2 bad input, bad game data or a file in the way"


def _epilog(codes: str, *examples: str) -> str:
    """The end of a command's --help: examples that run as written, and the exit codes
    (``\b`` keeps click from rewrapping them)."""
    lines = "\n".join(f"  warpress {example}" for example in examples)
    meanings = "\n".join(f"  {code}" for code in codes.split("; "))
    return f"\b\nExamples:\n{lines}\n\n\b\nExit codes:\n{meanings}"


@click.group(cls=OneLineGroup, context_settings={"help_option_names": ["-h", "--help"]},
             epilog=_epilog("0 done; 1 the rules refuse (the rule is named) or a check FAILs; "
                            "2 bad input or game data", "build midway",
                            "lookup midway carrier-damage damaged=no roll=2", "docs designing"))
@click.version_option(package_name="warpress")
def main() -> None:
    """warpress: print-and-play kits and a reference rules engine for wargames.

    GAME is a built-in game (midway, midway-cards, nimitz, nightfighter,
    axis-allies) or the path of a game folder of your own. `warpress docs` lists
    the documentation pages; `warpress COMMAND --help` gives examples.
    """


@main.command(short_help="List every game, or GAME: kind, components, sources.",
              epilog=_epilog("0 listed; 2 an unknown game or broken game data", "games",
                             "games midway --json"))
@click.argument("game", required=False, default="all")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@friendly
def games(game: str, as_json: bool) -> None:
    """List GAME (a game or a folder; without it all games, shipped and installed through
    the warpress.games entry points): kind, component counts, sourced vs assumed values."""
    # start-up: 77 more modules (PyYAML, fractions), only when this runs
    from .engine.loader import entry_point_problems
    from .verify.summary import game_summary

    rows = [game_summary(name) for name in _game_names(game)]
    for problem in entry_point_problems().values():
        say(f"warpress: {problem}", err=True)
    if as_json:
        say_json({"games": rows}, indent=2)
        return
    for row in rows:
        counts = ", ".join(f"{n} {k[:-1] if n == 1 and k.endswith('s') else k}"
                           for k, n in row["components"].items() if n)
        say(f"{row['id']:<13} {row['kind']:<15} {row['name']}", hang=14)
        say(f"{'':<13} {counts}", hang=14)
        say(f"{'':<13} {row['values']} values: {row['sourced_pct']:.1f}% sourced, "
            f"{row['assumed_pct']:.1f}% assumed; {row['errata']} errata", hang=14)


@main.command(short_help="Check GAME (or all): the data, then the rule invariants.",
              epilog=_epilog("0 every check passes; 1 an invariant or check FAILs; 2 a data "
                             "problem or bad input", "verify midway",
                             "verify all --data", "verify ./my-game --thorough"))
@click.argument("game")
@click.option("--data", "data_only", is_flag=True, help="Run only the data checks.")
@click.option("--thorough", is_flag=True, help="Run the rule invariants with more examples.")
@_trust_option
@friendly
def verify(game: str, data_only: bool, thorough: bool) -> None:
    """Check GAME (or all): data checks, then the rule invariants with a fixed seed.

    Data problems are printed as file:line: key: message (exit 2); each invariant
    is reported PASS or FAIL with its rule number and, for a FAIL, the shrunk
    counterexample (exit 1).
    """
    # start-up: 76 more modules (PyYAML, fractions), only when this runs
    from .verify.data import check_folder

    started, tally = time.perf_counter(), Counter()
    for name in _game_names(game):
        report = check_folder(name)
        for problem in report.problems:
            say(single_line(str(problem)), err=True)
        if not report.ok:
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
    say(_verify_summary(tally, data_only, time.perf_counter() - started))
    if tally["data problems"]:
        sys.exit(2)
    if tally["FAIL"]:
        sys.exit(1)


def _verify_summary(tally, data_only: bool, seconds: float) -> str:
    """``verify: 21 PASS, 0 FAIL; data OK in 1 of 1 game(s); 4.9 s``."""
    games = tally["data OK"] + tally["data problems"]
    data = f"data OK in {tally['data OK']} of {games} game(s)"
    if data_only:
        return f"verify: {data}, invariants not run (--data); {seconds:.1f} s"
    return f"verify: {tally['PASS']} PASS, {tally['FAIL']} FAIL; {data}; {seconds:.1f} s"


def _run_invariants(game, thorough: bool, tally) -> None:
    """Print each invariant's PASS/FAIL and count it in ``tally`` (one that cannot run
    is a FAIL)."""
    # start-up: 23 more modules (tempfile), only when this runs
    from .verify.invariants import QUICK, THOROUGH, invariants_for, run

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
              epilog=_epilog("0 printed; 2 bad input", "schema > warpress-game.schema.json"))
@click.option("--indent", default=2, show_default=True, type=WholeNumber(0, 16),
              help="JSON indentation (0-16).")
def schema(indent: int) -> None:
    """Print the JSON Schema of a game data file (for editors)."""
    # start-up: 29 more modules (PyYAML), only when this runs
    from .engine.schema import game_file_schema

    say_json(game_file_schema(), indent=indent)


@main.command(name="new", short_help="Write a small starting game into GAME_DIR.",
              epilog=_epilog(WRITE_CODES, "new bfm",
                             'new games/bfm --name "Battle for the Ford"'))
@click.argument("game_dir")
@click.option("--name", help="The game's name (default: from the folder's name).")
@friendly
def new(game_dir: str, name: str | None) -> None:
    """Write a small, valid, commented starting game into GAME_DIR (a new or empty folder):
    a hex map, two sides, NATO counters, a set-up, a CRT, a turn track, a play aid."""
    # start-up: 28 more modules, only when this runs
    from .engine.loader import builtin_games
    from .starter.new import new_game

    made = new_game(game_dir, name)
    shown = f"./{game_dir}" if game_dir in builtin_games() else game_dir
    say(f"{shown}: wrote the starting game {made.id!r} ({made.name}): "
        f"{', '.join(made.files)}")
    say(f"next: warpress verify {shown}; warpress build {shown} --out output; "
        f"warpress lookup {shown} crt odds=3-1 roll=4; then: warpress docs designing", hang=6)


@main.command(short_help="Print a documentation page (the data format, designing ...).",
              epilog=_epilog("0 printed; 2 an unknown page", "docs", "docs designing",
                             "docs data-format | less"))
@click.argument("topic", required=False)
@friendly
def docs(topic: str | None) -> None:
    """Print the documentation page TOPIC as it shipped with this warpress (Markdown), or
    without TOPIC list the pages."""
    # start-up: 1 more module, only when this runs
    from .manual import page, topics

    if topic is None:
        for name, title in topics().items():
            say(f"{name:<13} {title}", hang=14)
        return
    click.echo(page(topic), nl=False)


@main.command(short_help="The rule texts' inconsistencies and the rulings taken.",
              epilog=_epilog("0 listed; 2 an unknown game or broken game data",
                             "errata midway", "errata all"))
@click.argument("game")
@friendly
def errata(game: str) -> None:
    """The inconsistencies of GAME's (or all games') rule text, both readings and the ruling
    taken."""
    # start-up: 25 more modules (tempfile), only when this runs
    from .engine.loader import load_game

    names = _game_names(game)
    for index, name in enumerate(names):
        data = load_game(name)
        if len(names) > 1:  # a heading per game, a blank line between games
            say(f"{data.id}: {len(data.errata)} errata" if index == 0 else
                f"\n{data.id}: {len(data.errata)} errata")
        _say_errata(data)


def _say_errata(data) -> None:
    for erratum in data.errata:  # step numbers cited as "land 4)" print as "land 4"
        say(f"{erratum.id} [{rules_text(erratum.rules)}] {plain_steps(erratum.summary)}")
        for reading in erratum.readings:
            say(f"    reading: {plain_steps(reading)}")
        say(f"    ruling:  {plain_steps(erratum.ruling)}")
        say(f"    why:     {plain_steps(erratum.why)}")


@main.command(name="trust", short_help="Let a game folder's Python run (or list, or forget).",
              epilog=_epilog("0 done; 2 bad input (no such folder, a state folder others may "
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
    # start-up: 25 more modules (tempfile), only when this runs
    from .engine import trust
    from .engine.loader import game_dir

    if listing or not folder:
        if folder:
            raise BadInput("--list takes no FOLDER")
        for path, record in trust.trusted_folders().items():
            current = trust.why_not(Path(path))
            state = "trusted" if current is None else f"not trusted: {current}"
            say(f"{path}  {record.get('files', '?')} Python file(s), "
                f"sha256 {str(record.get('python_sha256'))[:16]}, {record.get('time')}: "
                f"{state}")
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


def _query_command(name: str, help_text: str, mode: str, options=(),
                   short_help: str | None = None, examples: tuple[str, ...] = ()):
    def command(game: str, table: str, pairs: tuple[str, ...], as_json: bool, **opts):
        # start-up: 26 more modules (tempfile), only when this runs
        from .engine.loader import load_cached
        from .engine.query import render_text, run_query
        from .engine.registry import ref_table

        data = load_cached(game)
        payload = run_query(mode, data, ref_table(data, table), pairs, opts.get("seed"),
                            opts.get("exact", False))
        if as_json:
            shown = {k: v for k, v in payload.items()
                     if k not in ("text", "whole_text")}  # the catalogue's shape
            say_json(shown, default=str)
        else:
            say(render_text(payload))

    command = _trust_option(friendly(command))
    for option in options:
        command = option(command)
    command = click.option("--json", "as_json", is_flag=True,
                           help="Print exactly one JSON object.")(command)
    command = click.argument("pairs", nargs=-1)(command)
    command = click.argument("table")(command)
    command = click.argument("game")(command)
    return main.command(name=name, help=help_text, short_help=short_help,
                        epilog=_epilog(QUERY_CODES, *examples))(command)


_query_command("lookup", "Resolve GAME's TABLE with the dice you rolled: NAME=VALUE ...", "lookup",
               examples=("lookup midway carrier-damage damaged=no roll=2",
                         "lookup nimitz attack value=6/3 roll=3 --json"))
_query_command("roll", "Resolve GAME's TABLE, rolling the dice you leave out (--seed N).", "roll",
               [click.option("--seed", type=SEED, default=None,
                             help="Seed for the dice (printed, so a roll can be replayed).")],
               short_help="Resolve GAME's TABLE, rolling the dice left out.",
               examples=("roll midway landing invasion=4 garrison=2 --seed 7",
                         'roll axis-allies battle attacker="3 infantry" defender="2 infantry"'))
_query_command("odds", "The probability distribution of GAME's TABLE (exact with --exact).",
               "odds", [click.option("--exact", is_flag=True,
                                     help="Exact fractions where the answer is floating "
                                          "point by default (Axis & Allies battles).")],
               short_help="The probabilities of GAME's TABLE over every roll.",
               examples=("odds midway landing invasion=4 garrison=2",
                         'odds axis-allies battle attacker="6 infantry" defender="5 infantry"',
                         "odds midway landing invasion=4 garrison=2 --exact"))


@main.command(epilog=_epilog("0 listed; 2 an unknown game or broken game data",
                             "tables midway", "tables axis-allies --json"))
@click.argument("game")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@_trust_option
@friendly
def tables(game: str, as_json: bool) -> None:
    """List GAME's tables: their inputs, result fields and rules."""
    # start-up: 26 more modules (tempfile), only when this runs
    from .engine.loader import load_cached
    from .engine.query import json_rules
    from .engine.registry import ref_tables

    data = load_cached(game)
    listing = ref_tables(data)
    if as_json:
        out = {name: {"summary": t.summary, "rules": json_rules(t.rules),
                      "inputs": {i.name: i.allowed(data) for i in t.inputs},
                      "results": list(t.results)} for name, t in listing.items()}
        say_json({"game": data.id, "tables": out}, indent=2)
        return
    for name, t in listing.items():
        say(f"{name}  [{rules_text(t.rules)}]  {t.summary}")
        for item in t.inputs:
            optional = "" if item.required or item.is_roll else " (optional)"
            say(f"    {item.name}={item.allowed(data)}{optional}")
        if t.results:
            say(f"    -> {', '.join(t.results)}")


@main.command(epilog=_epilog(WRITE_CODES + "; 2 also when a format failed (named, "
                             "the others are written)", "build midway",
                             "build all --paper letter --out kits",
                             "build nimitz --only counters --format pdf,png --dpi 100"))
@click.argument("game")
@click.option("--paper", "paper_name", default="a4", show_default=True,
              help="a4, letter, a3 or tabloid.")
@click.option("--out", "out_dir", default="output", show_default=True,
              type=click.Path(file_okay=False), help="Folder for the kits.")
@click.option("--format", "formats", default="pdf,svg", show_default=True,
              help="Comma-separated: pdf, svg, png.")
@click.option("--dpi", default=150, show_default=True, type=WholeNumber(),
              help="Resolution of the PNG pages (10 to 600).")
@click.option("--duplex", default="long", show_default=True,
              type=click.Choice(["long", "short", "fold"]),
              help="How the printer flips the sheet; fold: no duplex, each back printed "
                   "beside its front, to fold and glue.")
@click.option("--back-offset", default="0,0", show_default=True,
              help="X,Y mm by which backs are moved (read it off the calibration page).")
@click.option("--only", default=None, help="Comma-separated parts: map, counters, cards, sheets.")
@click.option("--proof", is_flag=True,
              help="Designer proof, written as <game>-proof.pdf beside the kit: a dagger on "
                   "every assumed value, the assumed-values list, errata and source notes.")
@_trust_option
@friendly
def build(game: str, paper_name: str, out_dir: str, formats: str, dpi: int, duplex: str,
          back_offset: str, only: str | None, proof: bool = False) -> None:
    """Build GAME's (or all games') print-and-play kit into OUT/<game>/."""
    # start-up: 166 more modules (reportlab, Pillow), only when this runs
    from .components.atomic import check_place
    from .components.kit import build_kit, parse_options
    from .engine.loader import load_cached

    options = parse_options(paper_name, formats, duplex, back_offset, only, dpi, proof=proof)
    names = _game_names(game)
    games_data = [load_cached(name) for name in names]
    for data in games_data:  # a file or a read-only kit in the way: refused before any work
        check_place(Path(out_dir) / data.id)
    steps = len(games_data) * (len(options.only) + len(options.formats))
    results = []
    with progress(steps, "building") as bar:
        for data in games_data:
            results.append(build_kit(data, Path(out_dir), options,
                                     progress=lambda _stage: bar.update(1)))
    files, total = _say_results(results, lambda r: f"{r.pages} pages")
    say(f"built {len(results)} kit(s): {files} files, "
        f"{sum(r.pages for r in results)} pages in {total:.1f} s")


def _say_results(results, what) -> tuple[int, float]:
    """One line per game written by ``build`` or ``export`` (``what(result)`` says what it
    made); returns the files and seconds of all of them for the closing line."""
    for result in results:
        say(f"{result.game}: {what(result)}, {len(result.files)} files, "
            f"{result.seconds:.1f} s -> {result.folder}/")
    return sum(len(r.files) for r in results), sum(r.seconds for r in results)


# --------------------------------------------------------------------------- exports


@main.command(name="export", short_help="Export GAME's pieces, VASSAL module or TTS object.",
              epilog=_epilog(WRITE_CODES, "export midway --format vassal",
                             "export nightfighter --format pieces --dpi 150",
                             "export nimitz --format tts --base-url https://example.org/kit/"))
@click.argument("game")
@click.option("--format", "fmt", required=True,
              help="pieces (a PNG per face), vassal (GAME.vmod) or tts (Tabletop Simulator).")
@click.option("--out", "out_dir", default="output", show_default=True,
              type=click.Path(file_okay=False), help="Folder for OUT/<game>-<format>/.")
@click.option("--dpi", default=None, type=WholeNumber(),
              help="Resolution, 10 to 600 (default: pieces 300, vassal 100, tts 150).")
@click.option("--base-url", default="",
              help="tts: the address the images will be at (e.g. https://example.org/kit/).")
@_trust_option
@friendly
def export(game: str, fmt: str, out_dir: str, dpi: int | None, base_url: str) -> None:
    """Export GAME's (or all games') pieces, VASSAL module or Tabletop Simulator object."""
    # start-up: 168 more modules (reportlab, Pillow), only when this runs
    from .components.export import DEFAULT_DPI, check_base_url, export_game, parse_format
    from .components.render_pdf import check_dpi
    from .components.tts import base_url_warning
    from .engine.loader import load_cached

    fmt = parse_format(fmt)
    check_dpi(DEFAULT_DPI[fmt] if dpi is None else dpi)
    check_base_url(base_url)
    games_data = [load_cached(name) for name in _game_names(game)]
    if fmt == "tts" and (note := base_url_warning(base_url)):
        say(f"warpress: {note}", err=True)
    results = []
    with progress(2 * len(games_data), "exporting") as bar:
        for data in games_data:
            results.append(export_game(data, fmt, Path(out_dir), dpi, base_url,
                                       progress=lambda _stage: bar.update(1)))
    files, total = _say_results(results, lambda r: r.summary)
    say(f"exported {len(results)} game(s) as {fmt}: {files} files in {total:.1f} s")


# --------------------------------------------------------------------------- balance


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
@click.option("--max-steps", default=5000, show_default=True, type=WholeNumber(1),
              help="Stop a game after this many decisions (counted as stopped by the cap).")
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
            agents, vary, units: int, max_steps: int, out_dir: str | None,
            plots_dir: str | None, scheduler: str | None, as_json: bool) -> None:
    """Play GAME --games times with agents and report its balance: win rates and draws
    with 95 % intervals, why games end, how long they last, the most one-sided and longest
    games (each replayable as a session), units and hexes that matter, sweeps, rule holes
    found by play (docs/balance.md). Progress goes to stderr."""
    # start-up: 104 more modules (fractions, tempfile), only when this runs
    from .balance.balance import Options, execute, finish, prepare
    from .balance.report import text

    for path, what in ((out_dir, "--out"), (plots_dir, "--plots")):
        if path is not None:
            check_text([path])
            check_path_name(path, what)
    options = Options(game, games, seed, jobs, scenario, agents, vary, units,
                      out_dir, plots_dir, scheduler, max_steps)
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


def _progress():
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
                   f"games/s, about {_duration(left)} left  ", err=True,
                   nl=done >= total or not tty)

    return show


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


# --------------------------------------------------------------------------- sessions

#: the commands every session has; a game's own actions come from what it declares
SESSION_COMMANDS = ("new", "scenarios", "actions", "status", "moves", "agent", "finish",
                    "undo", "log", "replay", "reveal")
#: the most actions one ``play agent`` makes
AGENT_STEPS = 100_000


def _option_from_args(args, name: str) -> str | None:
    """The value an option ``name`` (``--session``) has on a command line not yet parsed."""
    for i, arg in enumerate(args):
        if arg == name and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith(f"{name}="):
            return arg.split("=", 1)[1]
    return None


def _session_from_args(args) -> str | None:
    """The --session a command line gives (or $WARPRESS_SESSION)."""
    return _option_from_args(args, "--session") or os.environ.get("WARPRESS_SESSION") or None


class PlayGroup(OneLineGroup):
    """``warpress play``: the session commands, then the actions the session's game declares
    (its rules' ``actions``), found from the --session the command line names."""

    def resolve_command(self, ctx, args):
        name = args[0] if args else None
        if name and name not in self.commands and not name.startswith("-"):
            ctx.meta["session_args"] = args[1:]
        return super().resolve_command(ctx, args)

    def get_command(self, ctx, name):
        command = super().get_command(ctx, name)
        if command is not None:
            return command
        spec = _action_spec(ctx, name)
        return _action_command(spec) if spec is not None else None

    def list_commands(self, ctx):
        return list(self.commands)


def _action_spec(ctx, name: str):
    """The ActionSpec ``name`` of the session the command line names; InputError saying what
    is missing or which actions the game has."""
    # start-up: 65 more modules (fractions, tempfile), only when this runs
    from .engine import session

    where = _session_from_args(ctx.meta.get("session_args") or [])
    if not where:
        raise InputError("--session DIR is required (or set WARPRESS_SESSION)")
    try:
        game, rules = session.rules_of_session(
            _session_path(where), _option_from_args(ctx.meta.get("session_args") or [],
                                                    "--game"))
    except BadInput as exc:
        raise InputError(single_line(str(exc))) from None
    for spec in rules.actions:
        if spec.name == name:
            return spec
    names = ", ".join(spec.name for spec in rules.actions)
    raise InputError(f"unknown command {quote(name)} for {game.id} (commands: {names})")


@main.group(cls=PlayGroup)
def play() -> None:
    """Play a game in a session: a folder holding the command log and the position.

    Start with `warpress play new GAME --session DIR`; every other command takes
    --session DIR (or $WARPRESS_SESSION). `status` shows the position as the player may
    see it, `moves` the legal answers of the decision due, and the game's own actions
    (move, attack, ... : `warpress play actions GAME` lists them) make them. Exit codes: 0
    done, 1 the rules refuse the action (the rule is named), 2 bad input.
    """


main.add_command(play, "referee")


def _session_option(fn):
    return click.option("--session", "session_dir", envvar="WARPRESS_SESSION", default=None,
                        help="The session folder (default: $WARPRESS_SESSION).")(fn)


def _game_folder_option(fn):
    """``--game DIR`` (and ``--trust``) of a command that opens a session: the game folder a
    session of a designer's game plays (the log names one, opened only if trusted)."""
    fn = click.option("--game", "game_folder", default=None,
                      help="For a session of a game folder: that folder (the folder the log "
                           "names is opened only when you trust it).")(_trust_option(fn))
    return fn


def _session_path(session_dir: str | None) -> str:
    if not session_dir:
        raise BadInput("--session DIR is required (or set WARPRESS_SESSION)")
    check_text([session_dir])
    return check_path_name(session_dir, "--session")


def _json_option(fn):
    return click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")(fn)


def _map_option(fn):
    return click.option("--map", "map_file", default=None,
                        help="Also write the map to FILE.svg (or FILE.png).")(fn)


def _show_view(view, as_json: bool, rules) -> None:
    if as_json:
        say_json(view)
    else:
        say("\n".join(view_lines(view, dict(getattr(rules, "field_text", None) or {}))))


def _check_map(path: str) -> str:
    """The map format --map names by its suffix; BadInput for another."""
    # start-up: 13 more modules, only when this runs
    from .engine.referee import MAP_FORMATS

    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix not in MAP_FORMATS:
        endings = " or ".join(f".{fmt}" for fmt in MAP_FORMATS)
        raise BadInput(f"--map {path!r}: the file must end in {endings}")
    return suffix


def _write_map(path: str, drawn: bytes) -> None:
    """Write the map (its name checked by _check_map) atomically: a temporary file beside it,
    then a rename."""
    # start-up: 65 more modules (fractions, tempfile), only when this runs
    from .engine.session import write_atomically

    try:
        write_atomically(Path(path), drawn, shared=True)
    except OSError as exc:
        raise BadInput(f"--map {path!r} cannot be written: {exc.strerror}") from None


def _draw(s, fmt: str, referee: bool = False) -> bytes:
    """The session's map: the game's own drawing if its rules have one, else the kit's map
    with the pieces in place."""
    own = getattr(s.referee, "render_referee_map" if referee else "render_player_map", None)
    if own is not None:
        return own(s.game, s.state, fmt)
    # start-up: 235 more modules (reportlab, Pillow), only when this runs
    from .components.session_map import draw_position

    return draw_position(s.game, s.state, fmt)


def _agent_option(help_text: str):
    def wrap(fn):
        return click.option("--agent", "agent_specs", multiple=True, metavar="SIDE=AGENT",
                            help=help_text)(fn)
    return wrap


def _session_agents(game: str, specs) -> dict[str, str]:
    """--agent SIDE=AGENT pairs checked against GAME's sides (BadInput before anything is
    written)."""
    # start-up: 59 more modules (fractions, tempfile), only when this runs
    from .engine.agents import parse_agents
    from .engine.loader import load_cached
    from .engine.rulesets import rules_for

    data = load_cached(game)
    sides = [s.id for s in data.info.sides]
    return parse_agents(specs, sides, rules=rules_for(data) if specs else None)


def _agent_lines(made, referee) -> list[str]:
    """What the agents did: each command as typed, with its announcements when the game
    hides nothing."""
    # start-up: 2 more modules, only when this runs
    from .engine.decisions import command_line

    specs = {spec.name: spec for spec in referee.actions}
    lines = []
    for side, name, action, step in made:
        lines.append(f"{side} ({name}): {command_line(action, specs.get(action.name))}")
        if not referee.hidden:
            lines += [f"  {announcement_line(a.as_json())}" for a in step.announcements]
    return lines


@play.command("new")
@click.argument("game")
@click.option("--scenario", default=None, help="A scenario's name or a YAML file "
              "(default: the game's first).")
@click.option("--seed", type=SEED, default=None, help="Seed for the session's dice (default: "
              "drawn at random and recorded).")
@_agent_option("An agent (random, greedy, mcts, mcts:STEPS) plays SIDE: after each of your "
               "commands it makes that side's decisions, logged as its commands. Repeatable.")
@_session_option
@_json_option
@_trust_option
@friendly
def play_new(game: str, scenario: str | None, seed: int | None, agent_specs,
             session_dir: str | None, as_json: bool) -> None:
    """Start a session of GAME in --session DIR."""
    # start-up: 65 more modules (fractions, tempfile), only when this runs
    from .engine import session
    from .engine.agents import play_session

    agents = _session_agents(game, agent_specs)
    with session.create(_session_path(session_dir), game, scenario, seed, agents) as s:
        notes = [a.as_json() for a in s.started]
        made = play_session(s, agents) if agents else []
        view = s.player_view()
    if as_json:
        say_json({"session": str(s.directory), "seed": s.seed, "scenario": s.scenario,
                  "announcements": notes, "agents": _agents_json(made), "view": view})
        return
    say(f"session {s.directory}: {s.game.id}, scenario {s.scenario}, seed {s.seed}")
    if not s.referee.hidden:
        say("\n".join(announcement_line(note) for note in notes))
    if made:
        say("\n".join(_agent_lines(made, s.referee)))
    say("\n".join(view_lines(view, dict(getattr(s.referee, "field_text", None) or {}))))


def _agents_json(made) -> list[dict]:
    return [{"side": side, "agent": name, **action.as_json()}
            for side, name, action, _step in made]


@play.command("finish", short_help="Let agents play the session to its end.")
@_agent_option("The agent of SIDE (random, greedy, mcts, mcts:STEPS); the sides the session's "
               "own agents play need none. Repeatable.")
@_session_option
@_json_option
@_game_folder_option
@friendly
def play_finish(agent_specs, session_dir: str | None, as_json: bool,
                game_folder: str | None) -> None:
    """Play the session to its end with agents, every side's decisions logged as its
    agent's commands."""
    # start-up: 65 more modules (fractions, tempfile), only when this runs
    from .engine import session
    from .engine.agents import parse_agents, play_session

    with session.open(_session_path(session_dir), game=game_folder) as s:
        sides = [x.id for x in s.game.info.sides]
        agents = {**s.agents, **parse_agents(agent_specs, sides, rules=s.referee)}
        due = s.decision()
        if due is not None and due.side not in agents:
            raise BadInput(f"{due.side} decides now and has no agent: --agent "
                           f"{due.side}=random|greedy|mcts")
        made = play_session(s, agents)
        view = s.player_view()
        due = s.decision()
    if as_json:
        say_json({"agents": _agents_json(made), "view": view})
        return
    lines = _agent_lines(made, s.referee) or ["finish: no decision was due"]
    if due is not None:
        lines.append(f"stopped: {due.side} decides now and has no agent")
    say("\n".join(lines + summary_lines(view.get("summary"))))


@play.command("scenarios")
@click.argument("game")
@_trust_option
@friendly
def play_scenarios(game: str) -> None:
    """List GAME's scenarios, the default first."""
    # start-up: 59 more modules (fractions, tempfile), only when this runs
    from .engine.loader import load_cached
    from .engine.rulesets import rules_for

    data = load_cached(game)
    for i, info in enumerate(rules_for(data).scenarios(data)):
        default = "  (default)" if i == 0 else ""
        say(f"{info.name}  {info.title}{default}")
        if info.summary:
            say(f"    {info.summary}")


@play.command("actions")
@click.argument("game")
@_trust_option
@friendly
def play_actions(game: str) -> None:
    """List the actions GAME accepts in a session, with their arguments."""
    # start-up: 59 more modules (fractions, tempfile), only when this runs
    from .engine.loader import load_cached
    from .engine.rulesets import rules_for

    data = load_cached(game)
    for spec in rules_for(data).actions:
        args = " ".join(a.name.upper() if a.required else f"[{a.name.upper()}]"
                        for a in spec.args)
        opts = " ".join(f"[{o.decl}]" for o in spec.options)
        say(f"{' '.join(x for x in (spec.name, args, opts) if x)}", hang=4)
        say(f"    {spec.help}")


def _act(name: str, args: dict, session_dir: str | None, as_json: bool,
         game_folder: str | None) -> None:
    """Run one action and print what it led to."""
    # start-up: 65 more modules (fractions, tempfile), only when this runs
    from .engine import session
    from .engine.agents import play_session

    with session.open(_session_path(session_dir), game=game_folder) as s:
        step = s.command(name, args)
        made = play_session(s, s.agents) if s.agents else []
        view = s.player_view()
    notes = [a.as_json() for a in step.announcements]
    if as_json:
        say_json({"command": name, "args": args, "announcements": notes,
                  "agents": _agents_json(made), "view": view})
        return
    lines = [announcement_line(note) for note in notes] or [f"{name}: done"]
    lines += _agent_lines(made, s.referee)
    if not view.get("over"):
        due = view.get("due")
        if due:
            lines.append(f"due: {due['kind']} by {due['side']}")
        if view.get("awaiting"):
            who = f"{view['acting']} " if view.get("acting") else "you "
            lines.append(f"{who}may: {', '.join(view['awaiting'])}")
    say("\n".join(lines + summary_lines(view.get("summary"))))


def _action_command(spec):
    """The click command of a game's action ``spec`` (engine.decisions.ActionSpec)."""

    def command(session_dir: str | None, as_json: bool, game_folder: str | None, **values):
        args = {a.name: values[a.name] for a in spec.args if values.get(a.name) is not None}
        for option in spec.options:
            given = values[option.key]
            if option.flag and given:
                args[option.key] = True if option.value is None else option.value
            elif not option.flag and given is not None:
                args[option.key] = given
        _act(spec.name, args, session_dir, as_json, game_folder)

    command = _game_folder_option(friendly(command))
    for option in reversed(spec.options):
        command = click.option(option.decl, option.key, is_flag=option.flag, default=None,
                               help=option.help)(command)
    command = _json_option(_session_option(command))
    for argument in reversed(spec.args):
        command = click.argument(argument.name, required=argument.required)(command)
    return click.command(name=spec.name, help=spec.help, short_help=spec.short_help)(command)


def _head_line(s) -> str:
    """``log: 14 lines, head 1a2b3c4d5e6f7081``: the SHA-256 of the log's last line, which
    two copies of a session share only when they hold the same history."""
    lines, head = s.head
    return f"log: {lines} lines, head {head[:16]}"


def _side_option(fn):
    return click.option("--side", "side", default=None,
                        help="The side whose view it is (a game with hidden hands: hot-seat "
                             "players switch views by side).")(fn)


def _check_side(s, side: str | None) -> None:
    """BadInput unless ``side`` is one of the session game's sides."""
    sides = [x.id for x in s.game.info.sides]
    if side is not None and side not in sides:
        raise BadInput(f"--side {quote(side)} is not a side of {s.game.id} "
                       f"({', '.join(sides)})")


def _view_of(s, side: str | None) -> dict:
    """The session's view for ``side`` (None: the player's view)."""
    if side is None:
        return s.player_view()
    return s.referee.player_view(s.game, s.state, side)


@play.command("status")
@_session_option
@_json_option
@_map_option
@_side_option
@_game_folder_option
@friendly
def play_status(session_dir: str | None, as_json: bool, map_file: str | None,
                side: str | None, game_folder: str | None) -> None:
    """The position as the player may know it: turn, phase, what is due, the pieces; and
    where the log stands (its lines and head hash, for an opponent to note).

    --side SIDE: as that side may know it (a game with hidden hands)."""
    # start-up: 65 more modules (fractions, tempfile), only when this runs
    from .engine import session

    fmt = _check_map(map_file) if map_file else None
    with session.open(_session_path(session_dir), readonly=True, game=game_folder) as s:
        _check_side(s, side)
        view = _view_of(s, side)
        if fmt:
            _write_map(map_file, _draw(s, fmt))
    _show_view(view, as_json, s.referee)
    if not as_json:
        say(_head_line(s))


@play.command("moves", short_help="The decision due and every legal answer.")
@click.argument("unit", required=False)
@_session_option
@_json_option
@_side_option
@_game_folder_option
@friendly
def play_moves(unit: str | None, session_dir: str | None, as_json: bool,
               side: str | None, game_folder: str | None) -> None:
    """The decision due and every legal answer.

    UNIT: only that piece's answers; --side SIDE: the answers only when SIDE makes the
    decision (else whose decision it is)."""
    # start-up: 65 more modules (fractions, tempfile), only when this runs
    from .engine import session
    from .engine.decisions import command_line

    with session.open(_session_path(session_dir), readonly=True, game=game_folder) as s:
        _check_side(s, side)
        decision = s.decision()
        specs = {spec.name: spec for spec in s.referee.actions}
    if decision is None:
        raise Refusal("the game is over: no decision is due (warpress play status shows the "
                      "verdict)")
    if side is not None and decision.side != side:
        decision = replace(decision, prompt=f"{decision.prompt} (waiting for "
                                            f"{decision.side})", options=())
    found = decision.as_json()
    for option, record in zip(decision.options, found["options"], strict=True):
        for action, shown in zip(option.actions, record["actions"], strict=True):
            shown["command"] = command_line(action, specs.get(action.name))
    if unit is not None:
        found["options"] = [o for o in found["options"]
                            if any(a["args"].get("unit") == unit or unit in
                                   str(a["args"].get("units", "")).split(",")
                                   for a in o["actions"])]
        if not found["options"]:
            raise BadInput(f"{quote(unit)} has nothing to do now ({decision.prompt})")
    if as_json:
        say_json(found)
    else:
        say("\n".join(decision_lines(found)))


@play.command("agent", short_help="Let an agent make a side's decisions now.")
@click.option("--side", "side", default=None,
              help="The side it plays (default: the side whose decision is due); 'all': "
                   "every side, to the end.")
@click.option("--agent", "agent_name", default="random", show_default=True,
              help="The agent: random, greedy, mcts or mcts:STEPS.")
@click.option("--steps", type=WholeNumber(1, AGENT_STEPS), default=AGENT_STEPS,
              help=f"At most this many actions (default and most: {AGENT_STEPS}).")
@_session_option
@_json_option
@_game_folder_option
@friendly
def play_agent(side: str | None, agent_name: str, steps: int, session_dir: str | None,
               as_json: bool, game_folder: str | None) -> None:
    """An agent answers the decisions of --side, one logged action after another, until
    another side's decision is due, the game ends or --steps actions are made: a person
    plays one side, the agent the other."""
    # start-up: 65 more modules (fractions, tempfile), only when this runs
    from .engine import session
    from .engine.agents import parse_agents, play_session
    from .engine.decisions import command_line

    with session.open(_session_path(session_dir), game=game_folder) as s:
        sides = [x.id for x in s.game.info.sides]
        if side != "all":
            _check_side(s, side)
        due = s.decision()
        chosen = sides if side == "all" else [side or (due.side if due else sides[0])]
        agents = parse_agents([f"{x}={agent_name}" for x in chosen if x], sides,
                              rules=s.referee)
        made = play_session(s, agents, max_steps=steps) if due is not None else []
        view = s.player_view()
        specs = {spec.name: spec for spec in s.referee.actions}
    if as_json:
        say_json({"actions": [{"side": x, "agent": name,
                               "command": command_line(action, specs.get(action.name)),
                               "announcements": [a.as_json() for a in step.announcements]}
                              for x, name, action, step in made], "view": view})
        return
    lines = _agent_lines(made, s.referee) or ["agent: no decision of its side is due"]
    if not view.get("over") and view.get("due"):
        lines.append(f"due: {view['due']['kind']} by {view['due']['side']}")
    say("\n".join(lines + summary_lines(view.get("summary"))))


@play.command("undo", short_help="Take back the last accepted action (logged).")
@_session_option
@_json_option
@_game_folder_option
@friendly
def play_undo(session_dir: str | None, as_json: bool, game_folder: str | None) -> None:
    """Take back the last accepted action (logged; the dice of that step stay the same)."""
    # start-up: 65 more modules (fractions, tempfile), only when this runs
    from .engine import session

    with session.open(_session_path(session_dir), game=game_folder) as s:
        s.undo()
        view = s.player_view()
    if as_json:
        say_json({"undone": True, "view": view})
        return
    say(f"undone: back to command {s.n}")
    say("\n".join(view_lines(view, dict(getattr(s.referee, "field_text", None) or {}))))


@play.command("reveal", short_help="Show the whole position (logged).")
@_session_option
@_json_option
@_map_option
@_game_folder_option
@friendly
def play_reveal(session_dir: str | None, as_json: bool, map_file: str | None,
                game_folder: str | None) -> None:
    """The whole position, hidden parts included; recorded in the session log."""
    # start-up: 65 more modules (fractions, tempfile), only when this runs
    from .engine import session

    with session.open(_session_path(session_dir), game=game_folder) as s:
        # refuse a bad file name before the reveal is logged
        fmt = _check_map(map_file) if map_file else None
        view, drawn = s.reveal(fmt, lambda session_, f: _draw(session_, f, referee=True))
        if fmt:
            _write_map(map_file, drawn)
    _show_view(view, as_json, s.referee)


@play.command("log", short_help="The session log: set-up, actions, reveals, undos.")
@_session_option
@_game_folder_option
@friendly
def play_log(session_dir: str | None, game_folder: str | None) -> None:
    """The session log: the set-up, every action (accepted or refused), reveals and undos;
    then the log's head hash."""
    # start-up: 65 more modules (fractions, tempfile), only when this runs
    from .engine import session
    from .engine.decisions import Action, command_line

    with session.open(_session_path(session_dir), readonly=True, game=game_folder) as s:
        records = s.history()
        shown = dict(getattr(s.referee, "arg_text", None) or {})
        for names in (getattr(s.referee, "sealed_args", None) or {}).values():
            shown.update({name: _sealed_text for name in names if name not in shown})
        specs = {spec.name: spec for spec in s.referee.actions}

    def typed(name, args):
        return command_line(Action(name, args), specs.get(name))

    for record in records:
        say(log_line(record, shown, typed))
    say(_head_line(s))


def _sealed_text(_value: object) -> str:
    """How ``play log`` prints an argument the log keeps sealed."""
    return "(sealed)"


@play.command("replay")
@_session_option
@click.option("--accept-rollback", is_flag=True,
              help="Go on from a session behind what this machine saw of it (an older copy "
                   "restored); the acceptance is logged.")
@_game_folder_option
@friendly
def play_replay(session_dir: str | None, accept_rollback: bool,
                game_folder: str | None) -> None:
    """Rebuild the position from the log; report any step that no longer replays the same."""
    # start-up: 65 more modules (fractions, tempfile), only when this runs
    from .engine import session

    report = session.replay(_session_path(session_dir), game_folder, accept_rollback)
    for note in report.notes:
        say(f"note: {note}")
    if not report.ok:
        for difference in report.differences:
            say(difference, err=True)
        raise Refusal(f"replay differs from the log ({len(report.differences) - 1}"
                      f" step(s))")
    was = "" if report.state_file == "ok" else f" (it was: {report.state_file})"
    done = "rewritten" if report.rewritten else "already matches"
    say(f"replayed {report.n} command(s): every state matches the log; "
        f"state.json {done}{was}")


if __name__ == "__main__":
    main()

"""What every command of the command line shares: the ``warpress`` group, one-line usage
errors, the JSON error object, the ``friendly`` wrapper that maps warpress's errors to exit
codes, whole-number options and the ``--trust`` option."""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, ParamSpec, TypeVar

import click

from ..engine.errors import (
    BadInput,
    DataError,
    InputProblems,
    RuleViolation,
    Untrusted,
    WarpressError,
)
from ..engine.gamecode import runtime_problem
from ..engine.gamelist import builtin_games, entry_point_games
from ..engine.inputs import bounds_text, did_you_mean, quote, read_int
from ..engine.notes import drain
from ..engine.trust import for_this_run
from ..output import fit, say, say_json, single_line

P = ParamSpec("P")
R = TypeVar("R")

if TYPE_CHECKING:  # click's types are generic for the type check (click 8.2 on), not at run
    _NumberType = click.ParamType[int]
    _ChoiceType = click.Choice[str]
else:
    _NumberType = click.ParamType
    _ChoiceType = click.Choice

#: Whether the command being run was given ``--json`` (before any ``--``): its refusal or bad
#: input is then also a JSON object on stdout (``json_error``). Set for each command line.
_ASKED = {"json": False}


def json_error(kind: str, code: int, message: str, **more: object) -> None:
    """With ``--json``: ``{"error": {"kind", "exit", "message", ...}}`` on stdout (the line on
    stderr stays), so a program reading the JSON learns why there is no answer. ``kind``:
    ``bad-input`` (exit 2), ``data`` (broken game data, exit 2), ``refused`` (exit 1)."""
    if _ASKED["json"]:
        say_json({"error": {"kind": kind, "exit": code, "message": message, **more}})


class InputError(click.UsageError):
    """Exit 2 with one message; click's usage hint is not printed."""

    def show(self, file: IO[Any] | None = None) -> None:  # noqa: D401 - click API
        json_error("bad-input", self.exit_code, self.format_message())
        click.echo(fit(f"warpress: {self.format_message()}"), err=True, file=file)


class Refusal(click.ClickException):
    """Exit 1 (the rules refuse, or a replay differs) with the one prefix of every message;
    ``rule``: the rule that refuses, when one does."""

    def __init__(self, message: str, rule: str | None = None):
        super().__init__(message)
        self.rule = rule

    def show(self, file: IO[Any] | None = None) -> None:  # noqa: D401 - click API
        more = {"rule": self.rule} if self.rule else {}
        json_error("refused", self.exit_code, self.format_message(), **more)
        click.echo(fit(f"warpress: {self.format_message()}"), err=True, file=file)


class OneLineGroup(click.Group):
    """Click's own usage errors (a missing argument, an unknown option or command) as one
    line like every other bad input: ``warpress: tables: Got unexpected extra argument
    (extra) (see 'warpress tables --help')``, exit 2."""

    def make_context(self, info_name: str | None, args: list[str],
                     parent: click.Context | None = None, **extra: Any) -> click.Context:
        if parent is None:  # a new command line: what was told before is not its to print
            drain()
            words = list(args)
            _ASKED["json"] = "--json" in words[:words.index("--") if "--" in words else None]
            check_text(args)
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except _AS_CLICK_SHOWS:
            raise
        except click.UsageError as exc:
            raise _one_line(exc) from None

    def invoke(self, ctx: click.Context) -> Any:
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


class WholeNumber(_NumberType):
    """An integer option read by the shared parser (``engine/inputs.py``): ASCII digits,
    bounded length, within ``low``-``high``; anything else one line, exit 2."""

    name = "integer"

    def __init__(self, low: int | None = None, high: int | None = None):
        self.low, self.high = low, high

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> int:
        number = read_int(value)
        if number is None or (self.low is not None and number < self.low) or (
                self.high is not None and number > self.high):
            self.fail(f"{quote(value)} is not {bounds_text(self.low, self.high)}", param, ctx)
        return number


#: A seed: a whole number of at most 18 digits (a 64-bit integer).
SEED = WholeNumber(0)


class Closed(_ChoiceType):
    """An option whose values are a closed list: the list shown in --help (``[a4|letter]``,
    ``[pdf|svg|png],...`` for a comma-separated ``many``), any case taken, and a value not on
    it refused while the command line is read, before any game is loaded, in one line naming
    the nearest value: ``unknown paper 'lettre': did you mean 'letter'? (allowed: ...)``.
    The value is passed on as typed (the part that takes it reads it again)."""

    def __init__(self, choices: Sequence[str], what: str, *, many: bool = False,
                 after: str = "") -> None:
        super().__init__(choices, case_sensitive=False)
        self.what, self.many, self.after = what, many, after

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return f"[{'|'.join(self.choices)}]{',...' if self.many else ''}"

    def convert(self, value: object, param: click.Parameter | None,
                ctx: click.Context | None) -> str:
        text = str(value)
        items = [item for item in text.split(",") if item.strip()] if self.many else [text]
        for item in items or [text]:
            if item.strip().lower() not in self.choices:
                raise InputError(single_line(
                    f"unknown {self.what} {quote(item)}{self.after}"
                    f"{did_you_mean(item, self.choices)} (allowed: {', '.join(self.choices)})"))
        return text


def check_text(args: Iterable[str]) -> None:
    """InputError for an argument that is not text: a byte of the command line that is not
    UTF-8 reaches Python as a lone surrogate, which no file, log or JSON can hold."""
    for arg in args:
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            raise InputError(f"argument {ascii(arg)} is not UTF-8 text") from None


#: The most data problems a command other than ``verify --data`` prints.
MOST_PROBLEMS = 50


def friendly(fn: Callable[P, R]) -> Callable[P, R]:
    """Map domain errors to exit codes: bad input and bad data 2, rule violations 1."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
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


def trust_option(fn: Callable[..., R]) -> Callable[..., R]:
    """``--trust``: run the Python of the game folder the command names (GAME, or --game of
    a session command) for this run only (engine/trust.py)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, trust_run: bool = False, **kwargs: Any) -> R:
        named = kwargs.get("game") or kwargs.get("game_folder")
        if not trust_run or not named:
            return fn(*args, **kwargs)
        with for_this_run(Path(named)):
            return fn(*args, **kwargs)

    return click.option("--trust", "trust_run", is_flag=True,
                        help="Run the named game folder's Python this once (see "
                             "'warpress trust').")(wrapper)


def game_names(game: str) -> list[str]:
    """``all``: the shipped games, then those of installed packages (entry points)."""
    return [*builtin_games(), *entry_point_games()] if game == "all" else [game]


#: What each exit code means, for the commands' --help (``epilogue``).
QUERY_CODES = "0 answered; 1 the rules refuse (the rule is named); 2 bad input or game data"
WRITE_CODES = "0 written; 2 bad input, bad game data or a file in the way"


def epilogue(codes: str, *examples: str) -> str:
    """The end of a command's --help: examples that run as written, and the exit codes
    (``\b`` keeps click from rewrapping them)."""
    lines = "\n".join(f"  warpress {example}" for example in examples)
    meanings = "\n".join(f"  {code}" for code in codes.split("; "))
    return f"\b\nExamples:\n{lines}\n\n\b\nExit codes:\n{meanings}"


@click.group(cls=OneLineGroup, context_settings={"help_option_names": ["-h", "--help"]},
             epilog=epilogue("0 done; 1 the rules refuse (the rule is named) or a check FAILs; "
                            "2 bad input or game data", "build midway",
                            "lookup midway carrier-damage damaged=no roll=2", "docs designing"))
@click.version_option(package_name="warpress")
def main() -> None:
    """warpress: print-and-play kits and a reference rules engine for wargames.

    GAME is a built-in game (midway, midway-cards, nimitz, nightfighter,
    axis-allies) or the path of a game folder of your own. `warpress docs` lists
    the documentation pages; `warpress COMMAND --help` gives examples.
    """

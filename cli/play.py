"""``warpress play`` (and ``referee``): the group, whose commands are the session commands
and the actions the session's game declares, and the options and views its commands share."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from ..engine.decisions import ActionSpec
from ..engine.errors import BadInput
from ..engine.inputs import check_path_name, quote
from ..engine.loader import load_cached
from ..engine.model import Game
from ..engine.places import write_atomically
from ..engine.referee import MAP_FORMATS, Referee
from ..output import Made, acted_lines, agent_lines, say, say_json, single_line, view_lines
from .base import InputError, OneLineGroup, check_text, friendly, main, trust_option

if TYPE_CHECKING:  # the session engine is imported on use (cli/__init__.py)
    from ..engine.session import Session

F = TypeVar("F", bound=Callable[..., Any])
R = TypeVar("R")

#: the commands every session has; a game's own actions come from what it declares
SESSION_COMMANDS = ("new", "scenarios", "actions", "status", "moves", "agent", "finish",
                    "undo", "log", "replay", "reveal")
#: the most actions one ``play agent`` makes
AGENT_STEPS = 100_000


def _option_from_args(args: Sequence[str], name: str) -> str | None:
    """The value an option ``name`` (``--session``) has on a command line not yet parsed."""
    for i, arg in enumerate(args):
        if arg == name and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith(f"{name}="):
            return arg.split("=", 1)[1]
    return None


def _session_from_args(args: Sequence[str]) -> str | None:
    """The --session a command line gives (or $WARPRESS_SESSION)."""
    return _option_from_args(args, "--session") or os.environ.get("WARPRESS_SESSION") or None


class PlayGroup(OneLineGroup):
    """``warpress play``: the session commands, then the actions the session's game declares
    (its rules' ``actions``), found from the --session the command line names."""

    def resolve_command(self, ctx: click.Context, args: list[str]
                        ) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0] if args else None
        if name and name not in self.commands and not name.startswith("-"):
            ctx.meta["session_args"] = args[1:]
        return super().resolve_command(ctx, args)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        command = super().get_command(ctx, name)
        if command is not None:
            return command
        spec = _action_spec(ctx, name)
        return _action_command(spec) if spec is not None else None

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(self.commands)


def _action_spec(ctx: click.Context, name: str) -> ActionSpec:
    """The ActionSpec ``name`` of the session the command line names; InputError saying what
    is missing or which actions the game has."""
    from ..engine import session  # on use (cli/__init__.py)

    where = _session_from_args(ctx.meta.get("session_args") or [])
    if not where:
        raise InputError("--session DIR is required (or set WARPRESS_SESSION)")
    try:
        game, rules = session.rules_of_session(
            session_path(where), _option_from_args(ctx.meta.get("session_args") or [],
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


def session_option(fn: F) -> F:
    return click.option("--session", "session_dir", envvar="WARPRESS_SESSION", default=None,
                        help="The session folder (default: $WARPRESS_SESSION).")(fn)


def game_folder_option(fn: Callable[..., R]) -> Callable[..., R]:
    """``--game DIR`` (and ``--trust``) of a command that opens a session: the game folder a
    session of a designer's game plays (the log names one, opened only if trusted)."""
    return click.option("--game", "game_folder", default=None,
                        help="For a session of a game folder: that folder (the folder the log "
                             "names is opened only when you trust it).")(trust_option(fn))


def session_path(session_dir: str | None) -> str:
    if not session_dir:
        raise BadInput("--session DIR is required (or set WARPRESS_SESSION)")
    check_text([session_dir])
    return check_path_name(session_dir, "--session")


def json_option(fn: F) -> F:
    return click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")(fn)


def map_option(fn: F) -> F:
    return click.option("--map", "map_file", default=None,
                        help="Also write the map to FILE.svg (or FILE.png).")(fn)


def show_view(view: dict[str, Any], as_json: bool, rules: Referee) -> None:
    if as_json:
        say_json(view)
    else:
        say("\n".join(view_lines(view, dict(getattr(rules, "field_text", None) or {}))))


def check_map(path: str) -> str:
    """The map format --map names by its suffix; BadInput for another."""
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix not in MAP_FORMATS:
        endings = " or ".join(f".{fmt}" for fmt in MAP_FORMATS)
        raise BadInput(f"--map {path!r}: the file must end in {endings}")
    return suffix


def write_map(path: str, drawn: bytes) -> None:
    """Write the map (its name checked by check_map) atomically: a temporary file beside it,
    then a rename."""
    try:
        write_atomically(Path(path), drawn, shared=True)
    except OSError as exc:
        raise BadInput(f"--map {path!r} cannot be written: {exc.strerror}") from None


def draw(s: Session, fmt: str, referee: bool = False) -> bytes:
    """The session's map: the game's own drawing if its rules have one, else the kit's map
    with the pieces in place."""
    own: Callable[[Game, Any, str], bytes] | None = getattr(
        s.referee, "render_referee_map" if referee else "render_player_map", None)
    if own is not None:
        return own(s.game, s.state, fmt)
    from ..components.session_map import draw_position  # on use (cli/__init__.py)

    return draw_position(s.game, s.state, fmt)


def agent_option(help_text: str) -> Callable[[F], F]:
    def wrap(fn: F) -> F:
        return click.option("--agent", "agent_specs", multiple=True, metavar="SIDE=AGENT",
                            help=help_text)(fn)
    return wrap


def session_agents(game: str, specs: Sequence[str]) -> dict[str, str]:
    """--agent SIDE=AGENT pairs checked against GAME's sides (BadInput before anything is
    written)."""
    from ..engine.agents import parse_agents  # on use (cli/__init__.py)
    from ..engine.rulesets import rules_for  # on use (cli/__init__.py)

    data = load_cached(game)
    sides = [s.id for s in data.info.sides]
    return parse_agents(specs, sides, rules=rules_for(data) if specs else None)


def agents_json(made: Sequence[Made]) -> list[dict[str, Any]]:
    return [{"side": side, "agent": name, **action.as_json()}
            for side, name, action, _step in made]


def _act(name: str, args: dict[str, Any], session_dir: str | None, as_json: bool,
         game_folder: str | None) -> None:
    """Run one action and print what it led to."""
    from ..engine import session  # on use (cli/__init__.py)
    from ..engine.agents import play_session  # on use (cli/__init__.py)

    with session.open(session_path(session_dir), game=game_folder) as s:
        step = s.command(name, args)
        made = play_session(s, s.agents) if s.agents else []
        view = s.player_view()
    notes = [a.as_json() for a in step.announcements]
    if as_json:
        say_json({"command": name, "args": args, "announcements": notes,
                  "agents": agents_json(made), "view": view})
        return
    say("\n".join(acted_lines(name, notes, agent_lines(made, s.referee), view)))


def _action_command(spec: ActionSpec) -> click.Command:
    """The click command of a game's action ``spec`` (engine.decisions.ActionSpec)."""

    def command(session_dir: str | None, as_json: bool, game_folder: str | None,
                **values: Any) -> None:
        args = {a.name: values[a.name] for a in spec.args if values.get(a.name) is not None}
        for option in spec.options:
            given = values[option.key]
            if option.flag and given:
                args[option.key] = True if option.value is None else option.value
            elif not option.flag and given is not None:
                args[option.key] = given
        _act(spec.name, args, session_dir, as_json, game_folder)

    made = game_folder_option(friendly(command))
    for option in reversed(spec.options):
        made = click.option(option.decl, option.key, is_flag=option.flag, default=None,
                            help=option.help)(made)
    made = json_option(session_option(made))
    for argument in reversed(spec.args):
        made = click.argument(argument.name, required=argument.required)(made)
    return click.command(name=spec.name, help=spec.help, short_help=spec.short_help)(made)


def side_option(fn: F) -> F:
    return click.option("--side", "side", default=None,
                        help="The side whose view it is (a game with hidden hands: hot-seat "
                             "players switch views by side).")(fn)


def check_side(s: Session, side: str | None) -> None:
    """BadInput unless ``side`` is one of the session game's sides."""
    sides = [x.id for x in s.game.info.sides]
    if side is not None and side not in sides:
        raise BadInput(f"--side {quote(side)} is not a side of {s.game.id} "
                       f"({', '.join(sides)})")


def view_of(s: Session, side: str | None) -> dict[str, Any]:
    """The session's view for ``side`` (None: the player's view)."""
    if side is None:
        return s.player_view()
    return s.referee.player_view(s.game, s.state, side)

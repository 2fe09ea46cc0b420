"""The session commands of ``warpress play``: ``new``, ``finish``, ``scenarios``,
``actions``, ``status``, ``moves``, ``agent``, ``undo``, ``reveal``, ``log`` and ``replay``."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import click

from ..engine.decisions import Action, command_line
from ..engine.errors import BadInput
from ..engine.inputs import quote
from ..engine.loader import load_cached
from ..output import (
    action_lines,
    agent_lines,
    announcement_line,
    decision_lines,
    head_line,
    log_line,
    say,
    say_json,
    scenario_lines,
    summary_lines,
    view_lines,
)
from .base import SEED, Refusal, WholeNumber, friendly, trust_option
from .play import (
    AGENT_STEPS,
    agent_option,
    agents_json,
    check_map,
    check_side,
    draw,
    game_folder_option,
    json_option,
    map_option,
    play,
    session_agents,
    session_option,
    session_path,
    show_view,
    side_option,
    view_of,
    write_map,
)


@play.command("new")
@click.argument("game")
@click.option("--scenario", default=None, help="A scenario's name or a YAML file "
              "(default: the game's first).")
@click.option("--seed", type=SEED, default=None, help="Seed for the session's dice (default: "
              "drawn at random and recorded).")
@agent_option("An agent (random, greedy, mcts, mcts:STEPS) plays SIDE: after each of your "
               "commands it makes that side's decisions, logged as its commands. Repeatable.")
@session_option
@json_option
@trust_option
@friendly
def play_new(game: str, scenario: str | None, seed: int | None, agent_specs: tuple[str, ...],
             session_dir: str | None, as_json: bool) -> None:
    """Start a session of GAME in --session DIR."""
    from ..engine import session  # on use (cli/__init__.py)
    from ..engine.agents import play_session  # on use (cli/__init__.py)

    agents = session_agents(game, agent_specs)
    with session.create(session_path(session_dir), game, scenario, seed, agents) as s:
        notes = [a.as_json() for a in s.started]
        made = play_session(s, agents) if agents else []
        view = s.player_view()
    if as_json:
        say_json({"session": str(s.directory), "seed": s.seed, "scenario": s.scenario,
                  "announcements": notes, "agents": agents_json(made), "view": view})
        return
    say(f"session {s.directory}: {s.game.id}, scenario {s.scenario}, seed {s.seed}")
    if not s.referee.hidden:
        say("\n".join(announcement_line(note) for note in notes))
    if made:
        say("\n".join(agent_lines(made, s.referee)))
    say("\n".join(view_lines(view, dict(getattr(s.referee, "field_text", None) or {}))))


@play.command("finish", short_help="Let agents play the session to its end.")
@agent_option("The agent of SIDE (random, greedy, mcts, mcts:STEPS); the sides the session's "
               "own agents play need none. Repeatable.")
@session_option
@json_option
@game_folder_option
@friendly
def play_finish(agent_specs: tuple[str, ...], session_dir: str | None, as_json: bool,
                game_folder: str | None) -> None:
    """Play the session to its end with agents, every side's decisions logged as its
    agent's commands."""
    from ..engine import session  # on use (cli/__init__.py)
    from ..engine.agents import parse_agents, play_session  # on use (cli/__init__.py)

    with session.open(session_path(session_dir), game=game_folder) as s:
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
        say_json({"agents": agents_json(made), "view": view})
        return
    lines = agent_lines(made, s.referee) or ["finish: no decision was due"]
    if due is not None:
        lines.append(f"stopped: {due.side} decides now and has no agent")
    say("\n".join(lines + summary_lines(view.get("summary"))))


@play.command("scenarios")
@click.argument("game")
@trust_option
@friendly
def play_scenarios(game: str) -> None:
    """List GAME's scenarios, the default first."""
    from ..engine.rulesets import rules_for  # on use (cli/__init__.py)

    data = load_cached(game)
    for i, info in enumerate(rules_for(data).scenarios(data)):
        say("\n".join(scenario_lines(info, default=i == 0)))


@play.command("actions")
@click.argument("game")
@trust_option
@friendly
def play_actions(game: str) -> None:
    """List the actions GAME accepts in a session, with their arguments."""
    from ..engine.rulesets import rules_for  # on use (cli/__init__.py)

    data = load_cached(game)
    for spec in rules_for(data).actions:
        usage, what = action_lines(spec)
        say(usage, hang=4)
        say(what)


@play.command("status")
@session_option
@json_option
@map_option
@side_option
@game_folder_option
@friendly
def play_status(session_dir: str | None, as_json: bool, map_file: str | None,
                side: str | None, game_folder: str | None) -> None:
    """The position as the player may know it: turn, phase, what is due, the pieces; and
    where the log stands (its lines and head hash, for an opponent to note).

    --side SIDE: as that side may know it (a game with hidden hands)."""
    from ..engine import session  # on use (cli/__init__.py)

    fmt = check_map(map_file) if map_file else None
    with session.open(session_path(session_dir), readonly=True, game=game_folder) as s:
        check_side(s, side)
        view = view_of(s, side)
        if fmt and map_file:
            write_map(map_file, draw(s, fmt))
    show_view(view, as_json, s.referee)
    if not as_json:
        say(head_line(*s.head))


@play.command("moves", short_help="The decision due and every legal answer.")
@click.argument("unit", required=False)
@session_option
@json_option
@side_option
@game_folder_option
@friendly
def play_moves(unit: str | None, session_dir: str | None, as_json: bool,
               side: str | None, game_folder: str | None) -> None:
    """The decision due and every legal answer.

    UNIT: only that piece's answers; --side SIDE: the answers only when SIDE makes the
    decision (else whose decision it is)."""
    from ..engine import session  # on use (cli/__init__.py)

    with session.open(session_path(session_dir), readonly=True, game=game_folder) as s:
        check_side(s, side)
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
@session_option
@json_option
@game_folder_option
@friendly
def play_agent(side: str | None, agent_name: str, steps: int, session_dir: str | None,
               as_json: bool, game_folder: str | None) -> None:
    """An agent answers the decisions of --side, one logged action after another, until
    another side's decision is due, the game ends or --steps actions are made: a person
    plays one side, the agent the other."""
    from ..engine import session  # on use (cli/__init__.py)
    from ..engine.agents import parse_agents, play_session  # on use (cli/__init__.py)

    with session.open(session_path(session_dir), game=game_folder) as s:
        sides = [x.id for x in s.game.info.sides]
        if side != "all":
            check_side(s, side)
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
    lines = agent_lines(made, s.referee) or ["agent: no decision of its side is due"]
    if not view.get("over") and view.get("due"):
        lines.append(f"due: {view['due']['kind']} by {view['due']['side']}")
    say("\n".join(lines + summary_lines(view.get("summary"))))


@play.command("undo", short_help="Take back the last accepted action (logged).")
@session_option
@json_option
@game_folder_option
@friendly
def play_undo(session_dir: str | None, as_json: bool, game_folder: str | None) -> None:
    """Take back the last accepted action (logged; the dice of that step stay the same)."""
    from ..engine import session  # on use (cli/__init__.py)

    with session.open(session_path(session_dir), game=game_folder) as s:
        s.undo()
        view = s.player_view()
    if as_json:
        say_json({"undone": True, "view": view})
        return
    say(f"undone: back to command {s.n}")
    say("\n".join(view_lines(view, dict(getattr(s.referee, "field_text", None) or {}))))


@play.command("reveal", short_help="Show the whole position (logged).")
@session_option
@json_option
@map_option
@game_folder_option
@friendly
def play_reveal(session_dir: str | None, as_json: bool, map_file: str | None,
                game_folder: str | None) -> None:
    """The whole position, hidden parts included; recorded in the session log."""
    from ..engine import session  # on use (cli/__init__.py)

    with session.open(session_path(session_dir), game=game_folder) as s:
        # refuse a bad file name before the reveal is logged
        fmt = check_map(map_file) if map_file else None
        view, drawn = s.reveal(fmt, lambda session_, f: draw(session_, f, referee=True))
        if fmt and map_file and drawn is not None:
            write_map(map_file, drawn)
    show_view(view, as_json, s.referee)


@play.command("log", short_help="The session log: set-up, actions, reveals, undos.")
@session_option
@game_folder_option
@friendly
def play_log(session_dir: str | None, game_folder: str | None) -> None:
    """The session log: the set-up, every action (accepted or refused), reveals and undos;
    then the log's head hash."""
    from ..engine import session  # on use (cli/__init__.py)

    with session.open(session_path(session_dir), readonly=True, game=game_folder) as s:
        records = s.history()
        shown = dict(getattr(s.referee, "arg_text", None) or {})
        for names in (getattr(s.referee, "sealed_args", None) or {}).values():
            shown.update({name: _sealed_text for name in names if name not in shown})
        specs = {spec.name: spec for spec in s.referee.actions}

    def typed(name: str, args: dict[str, Any]) -> str:
        return command_line(Action(name, args), specs.get(name))

    for record in records:
        say(log_line(record, shown, typed))
    say(head_line(*s.head))


def _sealed_text(_value: object) -> str:
    """How ``play log`` prints an argument the log keeps sealed."""
    return "(sealed)"


@play.command("replay")
@session_option
@click.option("--accept-rollback", is_flag=True,
              help="Go on from a session behind what this machine saw of it (an older copy "
                   "restored); the acceptance is logged.")
@game_folder_option
@friendly
def play_replay(session_dir: str | None, accept_rollback: bool,
                game_folder: str | None) -> None:
    """Rebuild the position from the log; report any step that no longer replays the same."""
    from ..engine import session  # on use (cli/__init__.py)

    report = session.replay(session_path(session_dir), game_folder, accept_rollback)
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

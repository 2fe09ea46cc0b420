"""``warpress balance``: plan a run (every input checked before a game is played), play
its games (resuming from the results file), and write the report, its plots and a session
for each rule hole found (docs/balance.md)."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engine import session as sessions
from ..engine.agents import AGENTS, make_agent, parse_agents, playout
from ..engine.dice import SeededDice, derived_seed
from ..engine.errors import BadInput, RuleViolation
from ..engine.loader import load_cached
from ..engine.places import write_atomically
from ..engine.play.pieces import parties, party
from ..engine.position import Position
from ..engine.rulesets import rules_for
from . import report as reports
from .cluster import run_cluster
from .run import (
    RESULTS,
    Job,
    append_results,
    fingerprint,
    game_of,
    open_results,
    run_local,
    tasks,
)
from .vary import Sweep, parse_vary, restricted_variants

#: bounds on a run, checked before it starts
MAX_GAMES = 1_000_000
MAX_JOBS = 256
#: sessions written for rule holes (the first ones found)
MAX_SESSIONS = 5


@dataclass
class Options:
    """A run as the command line gives it."""

    game: str
    games: int = 100
    seed: int = 1
    jobs: int | None = None
    scenario: str | None = None
    agents: Sequence[str] = ()
    vary: Sequence[str] = ()
    units: int = 50
    out: str | None = None
    plots: str | None = None
    scheduler: str | None = None
    max_steps: int = 5_000
    max_turns: int | None = None
    only_units: Sequence[str] = ()


@dataclass
class Plan:
    """A checked run: its jobs with their seeds, the run's description for the report,
    where results go, and the cluster client if any."""

    options: Options
    game_ref: str
    jobs: list[tuple[Job, list[int]]]
    run: dict[str, Any]
    out: Path
    config: dict[str, Any]
    client: Any = None
    done: list[dict[str, Any]] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(len(seeds) for _, seeds in self.jobs)


def prepare(options: Options) -> Plan:
    """Check every input and lay out the run (BadInput before any game is played)."""
    _bounds(options)
    game = load_cached(options.game)
    rules = rules_for(game)
    scenario = rules.load_scenario(game, options.scenario)
    sides = [s.id for s in game.info.sides]
    agents = {side: "random" for side in sides}
    agents.update(parse_agents(options.agents, sides, "--agents", rules))
    sweeps = [parse_vary(v, game) for v in options.vary]
    ref = _ref(options.game)
    agent_pairs = tuple(sorted(agents.items()))
    # the scenario by the name that loads it again (a game's rules may load an object)
    scenario_name = (scenario if isinstance(scenario, str)
                     else getattr(scenario, "name", None) or options.scenario)
    seeds = list(range(options.seed, options.seed + options.games))
    steps, turns = options.max_steps, options.max_turns
    base = Job(ref, scenario_name, agent_pairs, max_steps=steps, max_turns=turns)
    jobs: list[tuple[Job, list[int]]] = [(base, seeds)]
    restricted: dict[str, str | None] = {}
    units = min(options.units, options.games)
    start = rules.new(game, scenario, SeededDice(derived_seed(options.seed, 0))).state
    if not isinstance(start, Position):
        raise BadInput(f"game {game.id!r}: its session rules do not hold a position "
                       f"(engine/position.py) that agents can play")
    if units:  # a piece the set-up places the same way in every game it is taken out of
        starts = [start, *(rules.new(game, scenario, SeededDice(derived_seed(s, 0))).state
                           for s in seeds[1:units])]
        for kind, piece in _chosen(restricted_variants(game, starts), options.only_units):
            variant = f"{kind} {piece}"
            restricted[variant] = party(game, start.piece(piece).side)
            jobs.append((Job(ref, scenario_name, agent_pairs, variant, (), (kind, piece),
                             steps, turns), seeds[:units]))
    for sweep in sweeps:
        for key, value in sweep.edits():
            jobs.append((Job(ref, scenario_name, agent_pairs, reports.variant_of(key, value),
                             ((key, value),), None, steps, turns), seeds))
    run = {"game": game.id, "ref": options.game, "scenario": scenario_name, "seed": options.seed,
           "sides": list(parties(game)), "agents": agents, "restricted": restricted,
           "sweeps": [{"key": s.key, "values": list(s.values)} for s in sweeps]}
    config = {"game": ref, "data": fingerprint(ref), "scenario": scenario_name,
              "seed": options.seed, "games": options.games, "agents": agents,
              "units": units, "vary": [_sweep_json(s) for s in sweeps],
              "max_steps": options.max_steps,
              **({"max_turns": options.max_turns} if options.max_turns is not None else {}),
              **({"only_units": sorted(options.only_units)} if options.only_units else {})}
    out = Path(options.out or Path("output") / "balance" / game.id)
    client = _client(options.scheduler)
    for folder, what in ((out, "--out"), (options.plots, "--plots")):
        if folder is not None:
            _folder(Path(folder), what)
    plan = Plan(options, ref, jobs, run, out, config, client)
    try:
        plan.done = open_results(out / RESULTS, config)
    except OSError as exc:
        raise BadInput(f"--out {str(out)!r}: {out / RESULTS} cannot be written: "
                       f"{exc.strerror}") from None
    return plan


def _folder(folder: Path, what: str) -> None:
    """Make ``folder`` (BadInput in one line when it cannot be a folder we write in)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BadInput(f"{what} {str(folder)!r} cannot be made a folder: "
                       f"{exc.strerror}") from None
    if not os.access(folder, os.W_OK):
        raise BadInput(f"{what} {str(folder)!r}: the folder cannot be written")


def _bounds(options: Options) -> None:
    if not 1 <= options.games <= MAX_GAMES:
        raise BadInput(f"--games {options.games}: from 1 to {MAX_GAMES}")
    if options.jobs is not None and not 1 <= options.jobs <= MAX_JOBS:
        raise BadInput(f"--jobs {options.jobs}: from 1 to {MAX_JOBS}")
    if options.units < 0:
        raise BadInput(f"--units {options.units}: 0 or more")
    if not 1 <= options.max_steps <= 1_000_000:
        raise BadInput(f"--max-steps {options.max_steps}: from 1 to 1000000")
    if options.max_turns is not None and not 1 <= options.max_turns <= 1_000_000:
        raise BadInput(f"--max-turns {options.max_turns}: from 1 to 1000000")
    for spec in options.agents:
        name = spec.partition("=")[2].strip().partition(":")[0]
        if name and name not in AGENTS:
            raise BadInput(f"--agents {spec!r}: unknown agent {name!r} (agents: "
                           f"{', '.join(sorted(AGENTS))})")


def _chosen(variants: list[tuple[str, str]], only: Sequence[str]) -> list[tuple[str, str]]:
    """The restricted-play variants whose piece id holds one of ``only`` (all without it);
    BadInput quoting a text that names no piece."""
    if not only:
        return variants
    for text in only:
        if not any(text in piece for _kind, piece in variants):
            some = ", ".join(sorted({piece for _k, piece in variants})[:6])
            raise BadInput(f"--only-units {text!r}: no piece of the set-up has it in its id "
                           f"(ids such as {some})")
    return [(kind, piece) for kind, piece in variants if any(t in piece for t in only)]


def _ref(game: str) -> str:
    """The game as a worker loads it: a built-in or installed id, or an absolute folder."""
    return sessions.game_ref(game)


def _sweep_json(sweep: Sweep) -> dict[str, Any]:
    return {"key": sweep.key, "values": list(sweep.values)}


def _client(address: str | None) -> Any:
    """A Dask client (the optional extra, so typed Any here), or None."""
    if address is None:
        return None
    from .cluster import connect  # the optional extra: only when asked for

    return connect(address)


def execute(plan: Plan, progress: Callable[[int, int, int], None] | None = None
            ) -> list[dict[str, Any]]:
    """Play the games the results file does not hold yet; every record (old and new).
    ``progress(done, total, fresh)`` after each finished task."""
    done = {(r["variant"], r["seed"]) for r in plan.done}
    work = tasks(plan.jobs, done)
    records = list(plan.done)
    results = plan.out / RESULTS
    count = [len(records), 0]

    def each(batch: list[dict[str, Any]]) -> None:
        append_results(results, batch)
        records.extend(batch)
        count[0] += len(batch)
        count[1] += len(batch)
        if progress is not None:
            progress(count[0], plan.total, count[1])

    if plan.client is not None:
        try:
            run_cluster(plan.client, work, each)
        finally:
            plan.client.close()
    else:
        run_local(work, plan.options.jobs or os.cpu_count() or 1, each)
    return records


def finish(plan: Plan, records: list[dict[str, Any]]) -> dict[str, Any]:
    """The report: built, sessions written for rule holes, saved beside the results (JSON
    and text), plots drawn when asked."""
    report = reports.build(plan.run, records)
    for problem in report["problems"][:MAX_SESSIONS]:
        if problem["variant"] == "base":
            try:
                problem["session"] = str(problem_session(plan, problem))
            except Exception as exc:  # noqa: BLE001 - the report stands without the session
                problem["session_error"] = f"{type(exc).__name__}: {exc}"[:300]
    write_atomically(plan.out / "report.json",
                     (json.dumps(report, indent=1, sort_keys=True) + "\n").encode(), shared=True)
    write_atomically(plan.out / "report.txt", reports.text(report).encode(), shared=True)
    if plan.options.plots:
        from .plots import draw  # matplotlib: only when plots are asked for

        draw(report, Path(plan.options.plots))
    return report


def problem_session(plan: Plan, problem: dict[str, Any]) -> Path:
    """A session folder that replays the game of ``problem`` up to it: the commands before
    the step that raised or stalled, or up to the step that broke an invariant (the
    record's ``steps``)."""
    job = plan.jobs[0][0]
    game = game_of(job)
    rules = rules_for(game)
    agents = {side: make_agent(name) for side, name in job.agents}
    made: list[tuple[str, Mapping[str, Any]]] = []

    def each(before: Position | None, action: tuple[str, Mapping[str, Any]] | None,
             after: Position) -> None:
        if action is not None:
            made.append(action)
        if len(made) >= problem["steps"]:
            raise _Enough

    try:
        playout(game, rules, problem["seed"], agents, scenario=job.scenario,
                max_steps=job.max_steps, each=each, max_turns=job.max_turns)
    except _Enough:
        pass
    except Exception:  # noqa: BLE001, S110 - the problem itself: the session stops before it
        pass
    folder = plan.out / "problems" / f"seed-{problem['seed']}"
    if folder.exists():
        shutil.rmtree(folder)
    with sessions.create(folder, job.game, job.scenario, problem["seed"]) as s:
        for name, args in made[:problem["steps"]]:
            try:
                s.command(name, args)
            except (RuleViolation, BadInput):
                break
    return folder


class _Enough(Exception):
    """The playout has reached the problem's step."""

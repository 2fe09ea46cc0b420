"""Playing the games of a balance run: one seed per game, on local processes or a Dask
cluster, each game checked against the whole-game invariants (and the rules' own,
``rules.broken``, where they give them), the games finished kept in
a results file so that an interrupted run goes on where it stopped.

A run is a list of :class:`Job` s (the game as given, its edits, a restriction, the agents)
each played over seeds. A game's record holds only what the report needs: the verdict, how
it stopped (``over``, ``cap``, ``turn-cap``, ``stall``, ``error``, ``broken``), its length,
how one-sided it ended, the control of the places the game keeps at the end of each turn
(by who wins with their holder: a side, or its alliance), and for a problem the step, the
rule in force and what went wrong. A game depends only on its seed, so the records are the
same whatever runs them and in whatever order they finish; the report sorts them.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..engine import limits
from ..engine.agents import make_agent, playout
from ..engine.errors import BadInput
from ..engine.evaluate import lead
from ..engine.loader import game_dir, load_cached
from ..engine.model import Game
from ..engine.play.pieces import party
from ..engine.position import Position
from ..engine.rulesets import rules_for
from ..engine.trust import MOST_BYTES, source_files
from ..engine.whole import broken
from .vary import apply_edits, restrict

#: the results file a run keeps beside its report
RESULTS = "results.jsonl"
#: games a worker plays per task
CHUNK = 25


@dataclass(frozen=True)
class Job:
    """Games to play: the game (a built-in id or a folder), its scenario, the agent of each
    side, the data edits of a sweep, a restriction (``remove``/``weaken`` and a piece), the
    step cap, the turn cap (None: none), and the ``variant`` key the report files them
    under."""

    game: str
    scenario: str | None
    agents: tuple[tuple[str, str], ...]
    variant: str = "base"
    edits: tuple[tuple[str, Any], ...] = ()
    restriction: tuple[str, str] | None = None
    max_steps: int = 5_000
    max_turns: int | None = None


class _Failed(Exception):
    """A whole-game invariant broken by a step."""


_GAMES: dict[tuple[str, tuple[tuple[str, Any], ...]], Game] = {}


def game_of(job: Job) -> Game:
    """The job's game with its edits (loaded once per process)."""
    key = (job.game, job.edits)
    if key not in _GAMES:
        _GAMES[key] = apply_edits(load_cached(job.game), job.edits)
    return _GAMES[key]


def play_one(job: Job, seed: int) -> dict[str, Any]:
    """Play one game of ``job`` with ``seed``: its record (see the module docstring)."""
    game = game_of(job)
    rules = rules_for(game)
    agents = {side: make_agent(name) for side, name in job.agents}
    trail = _Trail(game, getattr(rules, "broken", None))
    start = (restrict(*job.restriction, leaves=bool(getattr(rules, "pieces_leave", False)),
                      set_aside=_set_aside(game, rules)) if job.restriction else None)
    try:
        played = playout(game, rules, seed, agents, scenario=job.scenario,
                         max_steps=job.max_steps, each=trail.step, start=start,
                         max_turns=job.max_turns)
    except _Failed as exc:
        return trail.record(job, seed, "broken", str(exc))
    except Exception as exc:  # noqa: BLE001 - a rule hole, reported with its seed
        return trail.record(job, seed, "error", f"{type(exc).__name__}: {exc}")
    record = trail.record(job, seed, played.stopped, played.stall or None)
    record["deciders"] = sorted(played.deciders)
    final = played.position
    if final.verdict is not None:
        record.update(winner=final.verdict.winner, result=final.verdict.result,
                      condition=final.verdict.condition, lead=round(float(lead(game, final)),
                                                                    3))
    return record


def _set_aside(game: Game, rules: Any) -> Callable[[Position, str], Position] | None:
    """The rules' own way of taking a piece out of the set-up (``set_aside``), if any."""
    own = getattr(rules, "set_aside", None)
    if own is None:
        return None
    return lambda position, piece_id: own(game, position, piece_id)


class _Trail:
    """What a playout leaves for the report, gathered step by step: the steps, the last
    position, the control at the end of each turn; and the invariants checked."""

    def __init__(self, game: Game, own: Callable[..., list[str]] | None = None):
        self.game = game
        self.own = own
        # a side's party is never None (the side is the game's)
        self.party = {s.id: p for s in game.info.sides if (p := party(game, s.id)) is not None}
        self.steps = 0
        self.last: Position | None = None
        self.control: dict[str, dict[str, str]] = {}

    def step(self, before: Position | None, action: tuple[str, Mapping[str, Any]] | None,
             after: Position) -> None:
        problems = broken(self.game, before, action, after)
        if self.own is not None:
            problems += self.own(self.game, before, action, after)
        self.last = after
        if before is not None:
            self.steps += 1
            if after.turn != before.turn or after.over:
                self.control[str(before.turn)] = {
                    where: self.party.get(holder, holder)
                    for where, holder in after.control.items()}
        if problems:
            raise _Failed("; ".join(problems))

    def record(self, job: Job, seed: int, stopped: str, problem: str | None) -> dict[str, Any]:
        last = self.last
        out: dict[str, Any] = {"variant": job.variant, "seed": seed, "stopped": stopped,
                               "steps": self.steps, "turn": last.turn if last else 0,
                               "winner": None, "result": None, "condition": None,
                               "lead": 0.0, "control": self.control}
        if problem is not None:
            out["problem"] = problem[:500]
            out["rule"] = _rule_in_force(self.game, last)
            out["phase"] = last.phase if last else None
        return out


def _rule_in_force(game: Game, position: Position | None) -> str | None:
    """The rule of the decision or phase in force at ``position``."""
    if position is None:
        return None
    if position.due is not None and position.due.rule:
        return position.due.rule[0]
    for p in game.sequence:
        if p.id == position.phase and p.rule:
            return p.rule[0]
    return None


def play_chunk(job: Job, seeds: list[int]) -> list[dict[str, Any]]:
    """The records of ``job`` over ``seeds`` (one worker task)."""
    return [play_one(job, seed) for seed in seeds]


# --- running ------------------------------------------------------------------------------


@dataclass
class Progress:
    """Games done out of the total, for the line on stderr."""

    total: int
    done: int = 0
    started: float = field(default_factory=time.monotonic)
    fresh: int = 0

    def eta(self) -> float | None:
        elapsed = time.monotonic() - self.started
        if self.fresh == 0 or elapsed <= 0:
            return None
        return (self.total - self.done) / (self.fresh / elapsed)


Tasks = list[tuple[Job, list[int]]]


def tasks(jobs: Iterable[tuple[Job, list[int]]], done: set[tuple[str, int]],
          chunk: int = CHUNK) -> Tasks:
    """The (job, seeds) tasks still to play, ``chunk`` seeds each."""
    out: Tasks = []
    for job, seeds in jobs:
        left = [s for s in seeds if (job.variant, s) not in done]
        out += [(job, left[i:i + chunk]) for i in range(0, len(left), chunk)]
    return out


def run_local(work: Tasks, jobs: int, each: Callable[[list[dict[str, Any]]], None]) -> None:
    """Play ``work`` on ``jobs`` local processes (1: in this process), handing each task's
    records to ``each`` as it finishes."""
    if jobs <= 1 or len(work) <= 1:
        for job, seeds in work:
            each(play_chunk(job, seeds))
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        _drain(pool.submit, work, each, jobs * 4)


def _drain(submit: Callable[..., Future[list[dict[str, Any]]]], work: Tasks,
           each: Callable[[list[dict[str, Any]]], None],
           window: int) -> None:
    """Submit ``work`` keeping at most ``window`` tasks in flight (bounded memory)."""
    queue = iter(work)
    pending = set()
    for job, seeds in _take(queue, window):
        pending.add(submit(play_chunk, job, seeds))
    while pending:
        finished, pending = wait(pending, return_when=FIRST_COMPLETED)
        for future in finished:
            each(future.result())
        for job, seeds in _take(queue, len(finished)):
            pending.add(submit(play_chunk, job, seeds))


def _take(queue: Iterator[tuple[Job, list[int]]], n: int) -> Tasks:
    out: Tasks = []
    for item in queue:
        out.append(item)
        if len(out) >= n:
            break
    return out


# --- the results file ---------------------------------------------------------------------


def fingerprint(game_ref: str) -> str:
    """SHA-256 of the game folder's data and Python files (a changed game starts over): only
    regular files, links not followed, their sizes bounded before one is read."""
    folder, _ = game_dir(game_ref)
    files = source_files(folder, (".yaml", ".yml", ".py"))
    most = limits.GAME_BYTES + MOST_BYTES
    if sum(files.values()) > most:
        raise BadInput(f"{folder}: {sum(files.values()):,} bytes of data and Python; a game "
                       f"folder holds at most {most:,}")
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.relative_to(folder).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def config_line(config: Mapping[str, Any]) -> dict[str, Any]:
    text = json.dumps(config, sort_keys=True, separators=(",", ":"))
    return {"type": "balance", "config": config,
            "config_sha256": hashlib.sha256(text.encode()).hexdigest()}


def open_results(path: Path, config: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The records a results file already holds for this run's ``config`` (none for a new
    file, which gets the header); BadInput when it holds another run. A last line cut off
    by an interruption is dropped."""
    header = config_line(config)
    if not path.exists() or path.stat().st_size == 0:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("w", encoding="utf-8") as f:
            f.write(json.dumps(header, sort_keys=True) + "\n")
        return []
    lines = path.read_bytes().split(b"\n")
    try:
        first = json.loads(lines[0])
    except ValueError:
        first = None
    if not isinstance(first, dict) or first.get("config_sha256") != header["config_sha256"]:
        raise BadInput(f"{path} holds the results of another run (other game, seed, agents or "
                       f"options): choose another --out or remove it")
    records, good = [], len(lines[0]) + 1
    for line in lines[1:]:
        try:
            record = json.loads(line)
        except ValueError:
            break
        if isinstance(record, dict) and "seed" in record and "variant" in record:
            records.append(record)
            good += len(line) + 1
    with path.open("r+b") as f:
        f.truncate(min(good, path.stat().st_size))
    return records


def append_results(path: Path, records: list[dict[str, Any]]) -> None:
    """Add finished games to the results file, flushed to disk."""
    with path.open("a", encoding="utf-8") as f:
        for record in records:
            f.write(json.dumps(record, sort_keys=True, separators=(",", ":")) + "\n")
        f.flush()
        os.fsync(f.fileno())


def job_json(job: Job) -> dict[str, Any]:
    return asdict(job)

"""A balance report from the records of a run's games (balance/run.py): JSON values, and
the same as text. Everything is counted from the records sorted by variant and seed, so the
report is the same whatever ran the games."""

from __future__ import annotations

import shlex
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from .stats import difference, rate, spread

#: notable games listed (most one-sided, longest), hexes listed, problems listed
NOTABLE = 3
HEXES = 12
PROBLEMS = 20
#: games needed on each side of a hex's split before its effect is ranked
MIN_SPLIT = 10
#: how the text report names the ways a game stops undecided
STOPPED = {"cap": "step cap", "turn-cap": "turn cap"}


def build(run: Mapping[str, Any], records: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """The report of ``run`` (its description: game, sides, agents, seeds, sweeps) from the
    games' records."""
    by_variant: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for record in sorted(records, key=lambda r: (r["variant"], r["seed"])):
        by_variant[record["variant"]].append(record)
    base = by_variant.get("base", [])
    sides = list(run["sides"])
    report: dict[str, Any] = {
        "game": run["game"], "scenario": run["scenario"], "seed": run["seed"],
        "games": len(base), "agents": dict(run["agents"]), "sides": sides,
        "outcome": outcome(base, sides),
        "reasons": reasons(base),
        "length": {"steps": spread([r["steps"] for r in base]),
                   "turns": spread([r["turn"] for r in base]),
                   "histogram": [list(kv) for kv in sorted(Counter(r["steps"]
                                                                   for r in base).items())]},
        "stopped": dict(sorted(Counter(r["stopped"] for r in base
                                       if r["stopped"] != "over").items())),
        "notable": notable(run, base),
        "problems": problems(by_variant),
        "units": units(run, by_variant, base),
        "hexes": hexes(base, sides),
        "sweeps": sweeps(run, by_variant, sides),
    }
    return report


def outcome(records: Sequence[dict[str, Any]], sides: Sequence[str]) -> dict[str, Any]:
    """Win rate of each side, draws and games not decided, each with its interval."""
    n = len(records)
    wins = Counter(r["winner"] for r in records if r["winner"] is not None)
    draws = sum(1 for r in records if r["stopped"] == "over" and r["winner"] is None)
    undecided = sum(1 for r in records if r["stopped"] != "over")
    return {"wins": {s: rate(wins[s], n) for s in sides}, "draws": rate(draws, n),
            "undecided": rate(undecided, n)}


def reasons(records: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The mix of victory reasons and levels: (condition, result, winner) by count."""
    n = len(records)
    found = Counter((r["condition"] or "", r["result"] or "", r["winner"] or "")
                    for r in records if r["stopped"] == "over")
    return [{"condition": c or None, "result": res or None, "winner": w or None,
             **rate(k, n)}
            for (c, res, w), k in sorted(found.items(), key=lambda kv: (-kv[1], kv[0]))]


def replay_command(run: Mapping[str, Any], seed: int, deciders: Sequence[str] | None = None
                   ) -> str:
    """The command that plays game ``seed`` again as a session, every side that decided
    (``deciders``; every side when not known) by its agent."""
    words = ["warpress", "play", "new", run.get("ref") or run["game"]]
    if run.get("scenario"):
        words += ["--scenario", run["scenario"]]
    words += ["--seed", str(seed), "--session", f"replay-{seed}"]
    for side, name in sorted(run["agents"].items()):
        if deciders is None or side in deciders:
            words += ["--agent", f"{side}={name}"]
    return shlex.join(words)


def notable(run: Mapping[str, Any], records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The most one-sided games (the winner's lead at the end) and the longest (steps)."""
    decided = [r for r in records if r["winner"] is not None]
    one_sided = sorted(decided, key=lambda r: (-r["lead"], r["seed"]))[:NOTABLE]
    longest = sorted(records, key=lambda r: (-r["steps"], r["seed"]))[:NOTABLE]

    def shown(r: dict[str, Any]) -> dict[str, Any]:
        return {"seed": r["seed"], "winner": r["winner"], "result": r["result"],
                "lead": r["lead"], "steps": r["steps"], "turn": r["turn"],
                "replay": replay_command(run, r["seed"], r.get("deciders"))}

    return {"one_sided": [shown(r) for r in one_sided], "longest": [shown(r) for r in longest]}


#: how a game stops when it found a rule hole that leaves it without a result
FAILED = ("error", "broken")


def problems(by_variant: Mapping[str, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """Games that stalled, raised or broke an invariant: seed, what, the rule in force."""
    out = []
    for variant, records in sorted(by_variant.items()):
        for r in records:
            if r["stopped"] in ("stall", *FAILED):
                out.append({"variant": variant, "seed": r["seed"], "stopped": r["stopped"],
                            "problem": r.get("problem"), "rule": r.get("rule"),
                            "phase": r.get("phase"), "turn": r["turn"], "steps": r["steps"]})
    return out[:PROBLEMS]


def units(run: Mapping[str, Any], by_variant: Mapping[str, list[dict[str, Any]]],
          base: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Restricted play: the owner's win rate with each unit removed or weakened, against
    the same seeds played in full, ranked by the size of the change."""
    base_by_seed = {r["seed"]: r for r in base if r["stopped"] not in FAILED}
    out = []
    for variant, owner in run.get("restricted", {}).items():
        played = by_variant.get(variant, [])
        # a game that raised or broke an invariant has no winner to count: it is a rule
        # hole (listed with its seed), left out of both rates with the seed it was played on
        games = [r for r in played if r["stopped"] not in FAILED and r["seed"] in base_by_seed]
        paired = [base_by_seed[r["seed"]] for r in games]
        if not games:
            continue
        k1 = sum(1 for r in games if r["winner"] == owner)
        k2 = sum(1 for r in paired if r["winner"] == owner)
        out.append({"variant": variant, "side": owner, "with": rate(k1, len(games)),
                    "full": rate(k2, len(paired)), "failed": len(played) - len(games),
                    **difference(k1, len(games), k2, len(paired))})
    return sorted(out, key=lambda u: (-abs(u["effect"]), u["variant"]))


def hexes(records: Sequence[dict[str, Any]], sides: Sequence[str]) -> list[dict[str, Any]]:
    """Hexes whose control at the end of a turn predicts the winner: for each turn, hex and
    side, the side's win rate when it held the hex against when it did not, ranked by the
    size of the difference (both groups at least ``MIN_SPLIT`` games)."""
    seen: dict[tuple[int, str], list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        for turn, control in r["control"].items():
            for hex_id in control:
                seen[(int(turn), hex_id)].append(r)
    out: list[dict[str, Any]] = []
    for (turn, hex_id), games in sorted(seen.items()):
        split: set[frozenset[int]] = set()  # a side's split that mirrors another's is told once
        for side in sides:
            held = [r for r in games if r["control"][str(turn)].get(hex_id) == side]
            other = [r for r in games if r["control"][str(turn)].get(hex_id) != side]
            if len(held) < MIN_SPLIT or len(other) < MIN_SPLIT:
                continue
            if frozenset(map(id, other)) in split:
                continue
            split.add(frozenset(map(id, held)))
            k1 = sum(1 for r in held if r["winner"] == side)
            k2 = sum(1 for r in other if r["winner"] == side)
            out.append({"hex": hex_id, "turn": turn, "side": side, "held": rate(k1, len(held)),
                        "not_held": rate(k2, len(other)),
                        **difference(k1, len(held), k2, len(other))})
    out.sort(key=lambda h: (-abs(h["effect"]), h["turn"], h["hex"], h["side"]))
    return out[:HEXES]


def sweeps(run: Mapping[str, Any], by_variant: Mapping[str, list[dict[str, Any]]],
           sides: Sequence[str]) -> list[dict[str, Any]]:
    """Each ``--vary``: the win rates and draws at each value."""
    out = []
    for sweep in run.get("sweeps", []):
        points = []
        for value in sweep["values"]:
            games = by_variant.get(variant_of(sweep["key"], value), [])
            points.append({"value": value, **outcome(games, sides)})
        out.append({"key": sweep["key"], "points": points})
    return out


def variant_of(key: str, value: Any) -> str:
    return f"{key}={value}"


# --- text ---------------------------------------------------------------------------------


def _pct(r: Mapping[str, Any]) -> str:
    return f"{100 * r['rate']:5.1f} % [{100 * r['low']:.1f}, {100 * r['high']:.1f}]"


def _signed(d: Mapping[str, Any]) -> str:
    return f"{100 * d['effect']:+.1f} pts [{100 * d['low']:+.1f}, {100 * d['high']:+.1f}]"


def text(report: Mapping[str, Any]) -> str:
    """The report as text for people (percentages with their 95 % intervals)."""
    agents = ", ".join(f"{s} {a}" for s, a in report["agents"].items())
    lines = [f"balance of {report['game']} (scenario {report['scenario']}): {report['games']} "
             f"games (seed {report['seed']} to {report['seed'] + report['games'] - 1}), "
             f"agents: {agents}", "", "outcome (95 % Wilson intervals):"]
    out = report["outcome"]
    for side, r in out["wins"].items():
        lines.append(f"  {side} wins  {_pct(r)}  ({r['count']})")
    lines.append(f"  draws  {_pct(out['draws'])}  ({out['draws']['count']})")
    if out["undecided"]["count"]:
        lines.append(f"  not decided  {_pct(out['undecided'])}  ({out['undecided']['count']})")
    lines += ["", "how games ended:"]
    for r in report["reasons"]:
        who = f"{r['result']} for {r['winner']}" if r["winner"] else r["result"]
        lines.append(f"  {who} by {r['condition']}: {r['count']} ({100 * r['rate']:.1f} %)")
    steps, turns = report["length"]["steps"], report["length"]["turns"]
    lines += ["", f"length: {steps['mean']:.1f} steps on average (median "
                  f"{steps['median']:g}, 95th percentile {steps['p95']:g}); turns: median "
                  f"{turns['median']:g}, 95th percentile {turns['p95']:g}"]
    stopped = report["stopped"]
    lines.append("stopped early: " + (", ".join(f"{STOPPED.get(k, k)} {v}"
                                                for k, v in stopped.items())
                                      if stopped else "none (no step or turn cap, stall or "
                                                      "error)"))
    lines += _notable_lines(report) + _problem_lines(report) + _unit_lines(report)
    lines += _hex_lines(report) + _sweep_lines(report)
    return "\n".join(lines) + "\n"


def _notable_lines(report: Mapping[str, Any]) -> list[str]:
    lines = ["", "most one-sided games (the winner's lead at the end):"]
    for g in report["notable"]["one_sided"] or []:
        lines.append(f"  seed {g['seed']}: {g['result']} for {g['winner']}, lead {g['lead']}, "
                     f"{g['steps']} steps; replay: {g['replay']}")
    if not report["notable"]["one_sided"]:
        lines.append("  none (no game was won)")
    lines.append("longest games:")
    for g in report["notable"]["longest"]:
        lines.append(f"  seed {g['seed']}: {g['steps']} steps, turn {g['turn']}; replay: "
                     f"{g['replay']}")
    return lines


def _problem_lines(report: Mapping[str, Any]) -> list[str]:
    if not report["problems"]:
        return ["", "rule holes: none (every game kept the whole-game invariants, no stall, "
                    "no error)"]
    lines = ["", "rule holes found by play:"]
    for p in report["problems"]:
        where = (f" (session: {p['session']})" if p.get("session") else
                 f" (no session: {p['session_error']})" if p.get("session_error") else "")
        lines.append(f"  {p['variant']} seed {p['seed']}: {p['stopped']} at step {p['steps']}, "
                     f"turn {p['turn']}, phase {p['phase']}, rule {p['rule']}: "
                     f"{p['problem']}{where}")
    return lines


def _unit_lines(report: Mapping[str, Any]) -> list[str]:
    return _compared("units that matter (restricted play: the owner's win rate, change "
                     "against the same games in full):", [], report["units"],
                     lambda u: f"{u['variant']} ({u['side']})" + (
                         f" [{u['failed']} failed, left out]" if u.get("failed") else ""),
                     "with", "full")


def _hex_lines(report: Mapping[str, Any]) -> list[str]:
    return _compared("hexes that predict the winner (side's win rate when it held the hex at "
                     "the end of the turn, and when not):",
                     ["", "hexes that predict the winner: none with enough games on both sides"],
                     report["hexes"], lambda h: f"{h['hex']} turn {h['turn']} {h['side']}",
                     "held", "not_held")


def _compared(title: str, empty: list[str], rows: Sequence[Mapping[str, Any]],
              label: Callable[[Mapping[str, Any]], str],
              first: str, second: str) -> list[str]:
    """Rows of two rates and their difference, under ``title`` (``empty`` when none)."""
    if not rows:
        return empty
    return ["", title, *(f"  {label(r)}: {_pct(r[first])} vs {_pct(r[second])}: {_signed(r)}"
                         for r in rows)]


def _sweep_lines(report: Mapping[str, Any]) -> list[str]:
    lines = []
    for sweep in report["sweeps"]:
        lines += ["", f"sweep {sweep['key']}:"]
        for point in sweep["points"]:
            wins = ", ".join(f"{s} {_pct(r)}" for s, r in point["wins"].items())
            lines.append(f"  {point['value']}: {wins}; draws {_pct(point['draws'])}")
    return lines

"""Benchmarks, run on demand (not part of the test suite).

    python benchmarks/bench.py            # everything
    python benchmarks/bench.py engine     # lookups from a cold start, battle odds
    python benchmarks/bench.py kits       # counters, cards, a tiled map, build all
    python benchmarks/bench.py play       # legal moves, random games, session commands
    python benchmarks/bench.py exports    # PNG pages, export all as pieces, vassal, tts
    python benchmarks/bench.py balance    # playouts a second, 1 and 2 processes, MCTS
    python benchmarks/bench.py shipped    # greedy and MCTS on Nightfighter, Axis & Allies

Prints the median wall time over several runs and the peak memory of each job,
with the target it is held to. Record the figures in BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: One cold-start lookup per game (a fresh process each run, as a referee types it).
LOOKUPS = {
    "midway": ["lookup", "midway", "carrier-damage", "damaged=no", "roll=2"],
    "midway-cards": ["lookup", "midway-cards", "air-combat", "attacker=A", "defender=B"],
    "nimitz": ["lookup", "nimitz", "attack", "value=6/3", "roll=3"],
    "nightfighter": ["lookup", "nightfighter", "combat", "roll=11", "fp=1"],
    "axis-allies": ["lookup", "axis-allies", "unit", "type=armor"],
}
#: Battle odds, each the whole ``warpress odds ... --json`` command (a fresh process):
#: (label, attacker, defender, kind, more inputs, target). Floating point (the default):
#: every battle of up to 40 units a side under 0.25 s; 100 a side under 1 s and 200 MB.
FORTY = "< 0.25 s"
HUNDRED = "< 1 s, < 200 MB"
BATTLES = [
    ("1 infantry v 1 infantry (the command's start-up: interpreter, imports, game)",
     "1 infantry", "1 infantry", "land", (), "—"),
    ("27 units (13 v 14), AA gun, 4 aircraft", "6 infantry, 3 armor, 2 fighter, 2 bomber",
     "8 infantry, 2 armor, 2 fighter, 1 antiaircraft, 1 bomber", "land", (), FORTY),
    ("40 v 40 mixed land, no AA gun", "20 infantry, 10 armor, 6 fighter, 4 bomber",
     "24 infantry, 8 armor, 7 fighter, 1 bomber", "land", (), FORTY),
    ("40 v 40 mixed land, cut off after 20 rounds", "20 infantry, 10 armor, 6 fighter, 4 bomber",
     "24 infantry, 8 armor, 7 fighter, 1 bomber", "land", ("rounds=20",), FORTY),
    ("40 infantry v 40 infantry", "40 infantry", "40 infantry", "land", (), FORTY),
    ("40 v 40 sea, attacking submarines", "10 submarine, 10 battleship, 10 carrier, 10 fighter",
     "10 transport, 10 submarine, 10 battleship, 10 fighter", "sea", (), FORTY),
    ("40 v 40 land, AA gun, 10 aircraft", "20 infantry, 10 armor, 6 fighter, 4 bomber",
     "24 infantry, 8 armor, 6 fighter, 1 antiaircraft, 1 bomber", "land", (), FORTY),
    ("40 v 40 land, AA gun, 40 aircraft alone", "20 fighter, 20 bomber",
     "39 infantry, 1 antiaircraft", "land", (), FORTY),
    ("40 v 40 land, AA gun, 39 aircraft behind 1 infantry", "1 infantry, 20 fighter, 19 bomber",
     "39 infantry, 1 antiaircraft", "land", (), FORTY),
    ("40 v 40 land, AA gun, 26 aircraft behind 14 infantry (most attacker states found)",
     "14 infantry, 13 fighter, 13 bomber", "39 infantry, 1 antiaircraft", "land", (), FORTY),
    ("40 v 40 land, retreat at 10 units", "20 infantry, 10 armor, 6 fighter, 4 bomber",
     "24 infantry, 8 armor, 7 fighter, 1 bomber", "land", ("retreat_at=10",), FORTY),
    ("100 infantry v 100 infantry", "100 infantry", "100 infantry", "land", (), HUNDRED),
    ("100 v 100 mixed land, no AA gun", "50 infantry, 25 armor, 15 fighter, 10 bomber",
     "60 infantry, 20 armor, 17 fighter, 3 bomber", "land", (), HUNDRED),
    ("100 v 100 land, AA gun, 25 aircraft", "50 infantry, 25 armor, 15 fighter, 10 bomber",
     "60 infantry, 20 armor, 16 fighter, 1 antiaircraft, 3 bomber", "land", (), HUNDRED),
    ("100 v 100 land, AA gun, 66 aircraft behind 34 infantry",
     "34 infantry, 33 fighter, 33 bomber", "99 infantry, 1 antiaircraft", "land", (), HUNDRED),
]
#: The exact odds (``--exact``) of the battles up to 40 a side (no target: recorded).
EXACT = [b for b in BATTLES[1:9]]
#: Float against exact on the big ones (every field within 1e-12).
CHECKED = [BATTLES[2], BATTLES[5], BATTLES[6], BATTLES[8]]


def warpress() -> list[str]:
    beside = Path(sys.executable).parent / "warpress"
    exe = str(beside) if beside.exists() else shutil.which("warpress")
    return [exe] if exe else [sys.executable, "-m", "warpress.cli"]


def timed_process(args: list[str], runs: int) -> tuple[float, float, str]:
    """(median seconds, peak RSS MiB of the child, last output line) over ``runs``; the
    median CPU seconds (user + system) of the child are in the note."""
    wall, cpu, peak, out = measured_process(args, runs)
    return wall, peak, f"cpu {cpu:.3f} s; {out}"


def measured_process(args: list[str], runs: int) -> tuple[float, float, float, str]:
    """(median wall seconds, median CPU seconds of the child, its peak RSS MiB, last output
    line) over ``runs``."""
    times, cpus = [], []
    out = ""
    peak = 0.0
    for _ in range(runs):
        start = time.perf_counter()
        child = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 text=True)
        stdout, stderr = child.stdout.read(), child.stderr.read()  # stderr: a line at most
        _, status, usage = os.wait4(child.pid, 0)  # this child's own CPU time and peak RSS
        child.returncode = os.waitstatus_to_exitcode(status)
        times.append(time.perf_counter() - start)
        cpus.append(usage.ru_utime + usage.ru_stime)
        peak = max(peak, usage.ru_maxrss / 1024)
        out = (stdout or stderr).strip().splitlines()[-1:] or [""]
        out = out[0] if child.returncode == 0 else f"exit {child.returncode}: {out[0]}"
    return statistics.median(times), statistics.median(cpus), peak, out


def timed_call(fn: Callable[[], object], runs: int) -> tuple[float, float]:
    """(median seconds over ``runs``, peak traced MiB of one more traced run) of ``fn``."""
    fn()  # warm-up: font registration and imports are not the job
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return statistics.median(times), peak / 2**20


def row(name: str, seconds: float, peak: float, target: str, note: str = "") -> None:
    print(f"| {name} | {seconds:.3f} s | {peak:.0f} MiB | {target} | {note} |", flush=True)


#: Square hex maps (hexes a side) for the tiling benchmark: the work should grow with the
#: hexes, not with hexes times tiles (issue: big maps in linear time).
HEX_MAPS = (20, 60, 120)


def hex_map_files(n: int) -> int:
    """An ``n`` x ``n`` hex map (19 mm hexes) tiled on A4: the PDF and every tile's SVG, as
    ``build --only map`` makes them; the bytes written."""
    from warpress.components.hexmap import hex_map_drawing
    from warpress.components.kit import parse_options, tiled_pages
    from warpress.components.render_pdf import pdf_bytes
    from warpress.components.render_svg import svg_text
    from warpress.engine.model import Axis, HexMap

    hex_map = HexMap(id=f"grid-{n}", name=f"{n} by {n}", columns=Axis(count=n, pad=3),
                     rows=Axis(count=n, pad=3), hex_size_mm=19)
    drawing, width, height = hex_map_drawing(hex_map)
    options = parse_options("a4", "pdf,svg", "long", "0,0", "map")
    pages = [p.page for p in tiled_pages(drawing, width, height, options, "map")]
    return len(pdf_bytes(pages, "bench")) + sum(len(svg_text(p)) for p in pages)


def bench_engine(runs: int) -> None:
    print("\n| engine job | median | peak memory | target | note |\n|---|---|---|---|---|")
    cache = tempfile.mkdtemp(prefix="warpress-cache-")
    # The commands run as an installed warpress does: from bytecode (``pip install .``
    # compiles it; the warm-up run writes it here). With PYTHONDONTWRITEBYTECODE=1 every
    # run would compile warpress's own modules again (about 0.05 s).
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    env_runs = max(runs, 5)
    for game, args in LOOKUPS.items():
        os.environ["WARPRESS_CACHE"] = cache
        subprocess.run([*warpress(), *args], capture_output=True, check=False)  # warm the cache
        seconds, peak, out = timed_process([*warpress(), *args], env_runs)
        row(f"lookup {game} (cold process)", seconds, peak, "< 0.3 s", out[:60])
    for label, attacker, defender, kind, more, target in BATTLES:
        subprocess.run(_odds(attacker, defender, kind, more), capture_output=True, check=False)
        seconds, peak, out = timed_process(_odds(attacker, defender, kind, more), runs)
        row(f"odds axis-allies battle {label}", seconds, peak, target, out[:40])
    for label, attacker, defender, kind, more, _ in EXACT:
        seconds, peak, out = timed_process(_odds(attacker, defender, kind, more, "--exact"),
                                           runs)
        row(f"odds --exact {label}", seconds, peak, "—", out[:40])
    for label, attacker, defender, kind, more, _ in CHECKED:
        print(f"float v exact, {label}: largest difference "
              f"{_largest_difference(attacker, defender, kind, more):.1e} (held to < 1e-12)")
    shutil.rmtree(cache, ignore_errors=True)


def _odds(attacker, defender, kind, more, *flags) -> list[str]:
    return [*warpress(), "odds", "axis-allies", "battle", f"attacker={attacker}",
            f"defender={defender}", f"kind={kind}", *more, "--json", *flags]


def _largest_difference(attacker, defender, kind, more) -> float:
    """The largest difference of a float field and its exact fraction, survivors too."""
    import json

    import gmpy2

    runs = [json.loads(subprocess.run(_odds(attacker, defender, kind, more, *flags),
                                      capture_output=True, text=True, check=True).stdout)
            for flags in ((), ("--exact",))]
    floats, exact = (r["result"] for r in runs)
    diffs = [abs(floats[k] - float(gmpy2.mpq(v))) for k, v in exact["exact"].items()]
    for side in ("attacker", "defender"):
        a, b = floats["survivors"][side], exact["survivors"][side]
        diffs += [abs(a.get(k, 0.0) - b.get(k, 0.0)) for k in set(a) | set(b)]
    return max(diffs)


def bench_kits(runs: int) -> None:
    from warpress.components.impose import Piece, impose
    from warpress.components.kit import build_kit, kit_pages, parse_options
    from warpress.components.page import paper
    from warpress.components.pieces import CARD_BLEED, card_back, unit_pieces
    from warpress.components.primitives import Page
    from warpress.components.render_pdf import pdf_bytes
    from warpress.engine.loader import builtin
    from warpress.games.midway_cards.kit import card_front as cards_front

    print("\n| kit job | median | peak memory | target | note |\n|---|---|---|---|---|")
    a4 = paper("a4")
    midway = builtin("midway")
    unit = next(u for u in midway.units if u.steps == 2)
    counter = unit_pieces(midway, unit)[0]
    counters = [Piece(f"c{i}", counter.w, counter.h, counter.front, counter.back)
                for i in range(200)]

    def imposed_pdf(pieces, bleed: float = 0.0) -> bytes:
        sheets = impose(pieces, a4, bleed=bleed)
        pages = [Page(s.paper.width, s.paper.height, part, id=f"p{i}")
                 for i, s in enumerate(sheets) for part in (s.front, s.back)]
        return pdf_bytes(pages, "bench")

    seconds, peak = timed_call(lambda: imposed_pdf(counters), runs)
    row("200 double-sided counters to PDF", seconds, peak, "< 1 s")

    cards_game = builtin("midway-cards")
    deck = cards_game.decks[0]
    card = next(c for c in cards_game.cards if c.deck == deck.id)
    # the card game's own card faces (the generic face does not fit its stats at 4.5 pt)
    front, back = cards_front(cards_game, card, deck), card_back(cards_game, deck)
    cards = [Piece(f"k{i}", 63, 88, front, back) for i in range(54)]

    seconds, peak = timed_call(lambda: imposed_pdf(cards, CARD_BLEED), runs)
    row("54 poker cards front and back to PDF", seconds, peak, "< 1 s")

    nightfighter = builtin("nightfighter")
    map_only = parse_options("a4", "pdf", "long", "0,0", "map")

    def nightfighter_maps() -> bytes:
        return pdf_bytes(kit_pages(nightfighter, map_only), "maps")

    seconds, peak = timed_call(nightfighter_maps, runs)
    pages = len(kit_pages(nightfighter, map_only))
    row("Nightfighter player and referee maps tiled on A4 to PDF", seconds, peak, "-",
        f"{pages} pages")

    for n in HEX_MAPS:
        seconds, peak = timed_call(lambda n=n: hex_map_files(n), max(1, runs // 2))
        row(f"{n}x{n} hex map tiled on A4, PDF + SVG ({n * n} hexes)", seconds, peak,
            "< 10 s" if n == 120 else "-", f"{hex_map_files(n)} bytes")

    out = Path(tempfile.mkdtemp(prefix="warpress-bench-"))
    seconds, peak, note = timed_process([*warpress(), "build", "all", "--out", str(out)],
                                        max(1, runs // 2))
    row("build all (5 kits, PDF + SVG, fresh process)", seconds, peak, "< 30 s", note[:60])
    shutil.rmtree(out, ignore_errors=True)
    opts = parse_options("a4", "pdf", "long", "0,0", None)
    seconds, peak = timed_call(lambda: build_kit(midway, out, opts), runs)
    row("build midway kit, PDF only (in process)", seconds, peak, "-")
    shutil.rmtree(out, ignore_errors=True)


#: Each export format of every game, as a fresh ``warpress export all`` process (no target).
EXPORT_FORMATS = ("pieces", "vassal", "tts")


def bench_exports(runs: int) -> None:
    from warpress.components.kit import kit_pages, parse_options
    from warpress.components.render_pdf import pdf_bytes, png_pages
    from warpress.engine.loader import builtin

    print("\n| export job | median | peak memory | target | note |\n|---|---|---|---|---|")
    pages = kit_pages(builtin("nightfighter"), parse_options("a4", "pdf", "long", "0,0", None))
    pdf = pdf_bytes(pages, "bench")
    for dpi in (50, 150):
        seconds, peak = timed_call(lambda dpi=dpi: png_pages(pdf, dpi), max(1, runs // 2))
        row(f"Nightfighter kit ({len(pages)} pages) to PNG at {dpi} dpi (in process)", seconds,
            peak, "-")
    for fmt in EXPORT_FORMATS:
        out = Path(tempfile.mkdtemp(prefix="warpress-bench-"))
        args = [*warpress(), "export", "all", "--format", fmt, "--out", str(out)]
        if fmt == "tts":
            args += ["--base-url", "https://example.org/kit/"]
        seconds, peak, note = timed_process(args, max(1, runs // 2))
        row(f"export all --format {fmt} (5 games, fresh process)", seconds, peak, "-", note[:70])
        shutil.rmtree(out, ignore_errors=True)


#: A 60 x 60 map of mixed terrain with one unit of 12 MP in the middle and enemies around:
#: the legal-moves job of the play engine (a unit's moves under 10 ms).
BIG_MAP = """\
game: {id: big, name: Big map, kind: hex, players: "2", dice: [d6], rule: "1",
       sides: [{id: a, name: A}, {id: b, name: B}]}
hex_maps:
  - {id: map, name: Map, columns: {count: 60, pad: 2}, rows: {count: 60, pad: 2},
     hex_id: "{col}{row}", terrain: clear, rule: "1",
     features: [FEATURES]}
terrain:
  - {id: clear, movement: 1, rule: "1"}
  - {id: forest, movement: 2, rule: "1"}
  - {id: rough, movement: 3, rule: "1"}
  - {id: river, movement: 1, rule: "1"}
units:
  - {id: mover, side: a, type: armour, stats: {attack: 6, defence: 4, move: 12}, rule: "1"}
  - {id: foe, side: b, type: infantry, count: 8, stats: {attack: 3, defence: 3, move: 3},
     rule: "1"}
setup:
  - {id: s, rule: "1", place: [{unit: mover, hex: "3030"}, FOES]}
tracks: [{id: turn, values: [1], start: 1, rule: "1"}]
sequence: [{id: move, order: 1, who: a, do: move, rule: "1"}]
play: {turns: {track: turn}, zoc: {kind: stop}}
"""


def big_map_game(folder: Path):
    """The 60 x 60 game of ``BIG_MAP``, written to ``folder`` and loaded: terrain drawn from
    a fixed seed, a river of 40 hexsides, eight enemies around the mover."""
    import random

    from warpress.engine.loader import load_game

    rng = random.Random(60)
    hexes = [f"{c:02d}{r:02d}" for c in range(1, 61) for r in range(1, 61)]
    forest = sorted(rng.sample(hexes, 900))
    rough = sorted(rng.sample(sorted(set(hexes) - set(forest)), 400))
    river = ", ".join(f'"{c:02d}{r:02d}/{c + 1:02d}{r:02d}"' for c, r in
                      ((20 + k // 2, 10 + k) for k in range(40)))
    features = (f"{{id: woods, kind: terrain, terrain: forest, rule: '1', hexes: {forest}}}, "
                f"{{id: hills, kind: terrain, terrain: rough, rule: '1', hexes: {rough}}}, "
                f"{{id: river, kind: river, rule: '1', hexsides: [{river}]}}")
    foes = ", ".join(f'{{unit: foe, hex: "{h}"}}' for h in
                     ("2425", "3624", "2636", "3537", "3022", "3038", "2230", "3830"))
    text = BIG_MAP.replace("FEATURES", features).replace("FOES", foes).replace("'", '"')
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    return load_game(str(folder / ""))


def bench_play(runs: int) -> None:
    from dataclasses import replace

    from warpress.engine.agents import RandomAgent, playout
    from warpress.engine.loader import load_game
    from warpress.engine.play.game import HexRules
    from warpress.engine.play.movement import reach
    from warpress.engine.play.sequence import phase
    from warpress.starter.new import new_game

    print("\n| play job | median | peak memory | target | note |\n|---|---|---|---|---|")
    work = Path(tempfile.mkdtemp(prefix="warpress-play-"))
    rules = HexRules()
    big = big_map_game(work / "big")
    start = rules.new(big, None, None).state
    piece, move = start.piece("mover"), phase(big, "move")

    def moves() -> int:
        return len(reach(big, replace(start), piece, move).costs)  # a fresh position: no memo

    seconds, peak = timed_call(moves, max(runs, 20))
    row("legal moves of a 12-MP unit, 60 x 60 map (in process)", seconds, peak, "< 10 ms",
        f"{seconds * 1000:.2f} ms; {moves()} hexes reached")
    starter = load_game(str(new_game(str(work / "starter")).folder))
    seeds = iter(range(10**6))

    def one_game() -> int:
        return len(playout(starter, rules, next(seeds), RandomAgent()).actions)

    seconds, peak = timed_call(one_game, max(runs, 20))
    row("one random game of the starting game (in process)", seconds, peak, "< 1 s",
        f"{one_game()} decisions")
    session = work / "session"
    subprocess.run([*warpress(), "play", "new", str(work / "starter"), "--seed", "5",
                    "--session", str(session)], capture_output=True, check=True)
    lookup = [*warpress(), *LOOKUPS["midway"]]
    subprocess.run(lookup, capture_output=True, check=False)
    base, base_cpu, _peak, _out = measured_process(lookup, max(runs, 5))
    for label, args in (("play status", ["play", "status"]),
                        ("play moves n4", ["play", "moves", "n4"]),
                        ("play move (refused: moved)", ["play", "move", "n4", "0504"])):
        seconds, cpu, peak, out = measured_process(
            [*warpress(), *args, "--session", str(session)], max(runs, 5))
        row(f"{label} (cold process)", seconds, peak,
            f"< 2x a cold lookup (wall {2 * base:.3f} s, cpu {2 * base_cpu:.3f} s)",
            f"cpu {cpu:.3f} s, x{cpu / base_cpu:.2f} a lookup's; {out[:32]}")
    shutil.rmtree(work, ignore_errors=True)


def cpu_rate(fn: Callable[[int], object], n: int, runs: int) -> tuple[float, float]:
    """(calls a second of CPU, calls a second of wall time), the best of ``runs`` rounds of
    ``n`` calls ``fn(i)``."""
    fn(0)
    cpu, wall = [], []
    for _ in range(runs):
        c, w = time.process_time(), time.perf_counter()
        for i in range(n):
            fn(i)
        cpu.append(n / (time.process_time() - c))
        wall.append(n / (time.perf_counter() - w))
    return max(cpu), max(wall)


def balance_process(game: Path, games: int, jobs: int, out: Path) -> tuple[float, float, str]:
    """(wall seconds, peak RSS MiB, a note with the CPU time) of ``warpress balance`` in a
    fresh process; the peak is the largest of the command and its worker processes, the CPU
    time theirs together (RUSAGE_CHILDREN)."""
    args = [*warpress(), "balance", str(game), "--games", str(games), "--units", "0",
            "--jobs", str(jobs), "--out", str(out), "--json"]
    shutil.rmtree(out, ignore_errors=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    child = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _stdout, stderr = child.communicate()
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    note = (f"CPU {cpu:.1f} s ({games / cpu:.0f} games a CPU second)" if child.returncode == 0
            else f"exit {child.returncode}: {stderr[-200:]}")
    return seconds, max(after.ru_maxrss, before.ru_maxrss) / 1024, note


def bench_balance(runs: int) -> None:
    import random as random_module

    from warpress.balance.run import Job, play_one
    from warpress.engine.agents import MctsAgent, Seen
    from warpress.engine.dice import GivenDice
    from warpress.engine.loader import load_game
    from warpress.engine.play.game import HexRules
    from warpress.starter.new import new_game

    load = os.getloadavg()[0]
    print("\n| balance job | rate | target | note |\n|---|---|---|---|")
    work = Path(tempfile.mkdtemp(prefix="warpress-balance-"))
    folder = new_game(str(work / "starter")).folder
    for agent, n, target in (("random", 200, ">= 100 games/s a core"), ("greedy", 4, "—")):
        job = Job(str(folder), None, (("north", agent), ("south", agent)))
        cpu, wall = cpu_rate(lambda i, job=job: play_one(job, i), n, max(1, runs // 2))
        print(f"| {agent} games of the starting game, one core, invariants checked (in "
              f"process) | {cpu:.1f} games/s CPU, {wall:.1f} wall | {target} | load "
              f"{load:.1f} |", flush=True)
    game = load_game(str(folder))
    rules = HexRules()
    position = rules.new(game, None, GivenDice([1])).state
    decision = rules.decision(game, position)
    agent = MctsAgent()
    cpu, wall = cpu_rate(lambda i: agent.choose(Seen(game, rules, position, decision),
                                                random_module.Random(i)), 3, max(1, runs // 2))
    print(f"| MCTS decisions (budget {agent.budget} steps, depth {agent.depth}), the starting "
          f"game's first | {cpu:.2f} decisions/s CPU, {wall:.2f} wall | — | |", flush=True)
    rates = {}
    for jobs in (1, 2):
        seconds, peak, note = balance_process(folder, 2000, jobs, work / f"out{jobs}")
        rates[jobs] = 2000 / seconds
        print(f"| `warpress balance --games 2000 --units 0 --jobs {jobs}` (fresh process) | "
              f"{rates[jobs]:.0f} games/s wall ({seconds:.1f} s) | — | {note}; peak RSS "
              f"{peak:.0f} MiB; load {os.getloadavg()[0]:.1f} |", flush=True)
    print(f"| scaling 1 -> 2 processes | x{rates[2] / rates[1]:.2f} | — | |")
    seconds, peak, note = balance_process(folder, 10_000, 2, work / "out10k")
    print(f"| `warpress balance --games 10000 --units 0 --jobs 2` (fresh process) | "
          f"{seconds:.1f} s, {peak:.0f} MiB peak RSS | < 120 s, < 500 MB | {note}; load "
          f"{os.getloadavg()[0]:.1f} |", flush=True)
    shutil.rmtree(work, ignore_errors=True)


#: games of the shipped games played by agents that look ahead (``bench.py shipped``):
#: (what, game, scenario, agents, games a round, turn cap)
ALLIES = ("russia", "uk", "usa")
SHIPPED_AGENTS = (
    ("Nightfighter (cats-eye), greedy night fighters", "nightfighter", "cats-eye",
     (("defender", "greedy"),), 2, None),
    ("Nightfighter (cats-eye), MCTS night fighters", "nightfighter", "cats-eye",
     (("defender", "mcts"),), 1, None),
    ("Axis & Allies, greedy Allies against random Axis, to the end of round 20",
     "axis-allies", None, tuple((p, "greedy") for p in ALLIES), 2, 20),
    ("Axis & Allies, MCTS Allies against random Axis, to the end of round 20",
     "axis-allies", None, tuple((p, "mcts") for p in ALLIES), 1, 20),
)


def bench_shipped(runs: int) -> None:
    """Whole games of the shipped games with agents that look ahead (their rules' own
    ``lookahead``), invariants checked (Axis & Allies' to the end of round 20, the turn
    cap of its balance runs), and Axis & Allies' decisions a second in its opening."""
    import random as random_module

    from warpress.balance.run import Job, play_one
    from warpress.engine.agents import Seen, agent_rng, make_agent
    from warpress.engine.dice import SeededDice, derived_seed
    from warpress.engine.loader import builtin
    from warpress.engine.rulesets import rules_for

    print("\n| shipped game, agents | rate | note |\n|---|---|---|")
    for what, game, scenario, agents, n, turns in SHIPPED_AGENTS:
        job = Job(game, scenario, agents, max_steps=20_000, max_turns=turns)
        cpu, wall = cpu_rate(lambda i, job=job: play_one(job, i + 1), n, max(1, runs // 2))
        print(f"| {what}: whole games, one core, invariants checked (in process) | "
              f"{1 / cpu:.1f} CPU s a game ({wall:.3f} games a wall second) | load "
              f"{os.getloadavg()[0]:.1f} |", flush=True)
    game = builtin("axis-allies")
    rules = rules_for(game)
    for name in ("greedy", "mcts"):
        agent, chance = make_agent(name), random_module.Random(0)
        position = rules.new(game, rules.load_scenario(game, None),
                             SeededDice(derived_seed(1, 0))).state
        decided, cpu = 0, time.process_time()
        for n in range(1, 201):
            decision = rules.decision(game, position)
            mover = agent if decision.side in ("russia", "uk", "usa") else None
            seen = Seen(game, rules, position, decision)
            action = (mover.choose(seen, agent_rng(1, n)) if mover is not None
                      else chance.choice([a for o in decision.options for a in o.actions]))
            decided += mover is not None
            position = rules.apply(game, position, action.name, dict(action.args),
                                   SeededDice(derived_seed(1, n))).state
        cpu = time.process_time() - cpu
        print(f"| Axis & Allies, {name} Allies against random Axis: the first 200 decisions "
              f"of seed 1 ({decided} the Allies') | {decided / cpu:.2f} Allied decisions a "
              f"CPU second | load {os.getloadavg()[0]:.1f} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", nargs="?", default="all",
                        choices=["all", "engine", "kits", "exports", "play", "balance",
                                 "shipped"])
    parser.add_argument("--runs", type=int, default=5, help="runs per job (median reported)")
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, runs={args.runs}")
    if args.what in ("all", "engine"):
        bench_engine(args.runs)
    if args.what in ("all", "kits"):
        bench_kits(args.runs)
    if args.what in ("all", "exports"):
        bench_exports(args.runs)
    if args.what in ("all", "play"):
        bench_play(args.runs)
    if args.what in ("all", "balance"):
        bench_balance(args.runs)
    if args.what in ("all", "shipped"):
        bench_shipped(args.runs)


if __name__ == "__main__":
    main()

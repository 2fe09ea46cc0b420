"""Golden transcripts: what each shipped game and the starting game answer, play and print,
recorded in tests/golden/ and compared on every run, so "the same input gives the same
bytes" and "this change is not meant to show" are checked by the suite.

For every game: each referee table rolled at fixed inputs and seeds (the first inputs of
their ranges the table accepts, else the refusal it gives); a game played by random agents
from fixed seeds (its decisions and the hash of every tenth position); and the SHA-256 of
every kit page's SVG on A4 and Letter. A change that is meant to show is recorded again
with ``python -m pytest tests/test_golden.py --regen-golden`` and reviewed in the diff of
tests/golden/."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from warpress.components.kit import kit_pages, parse_options
from warpress.components.render_svg import svg_text
from warpress.engine.agents import RandomAgent, playout
from warpress.engine.catalogue import ref_tables
from warpress.engine.errors import BadInput, RuleViolation
from warpress.engine.loader import builtin, builtin_games, load_game
from warpress.engine.query import run_roll
from warpress.engine.registry import RefTable
from warpress.engine.rulesets import playable_builtins, rules_for
from warpress.starter.new import new_game

GOLDEN = Path(__file__).parent / "golden"
#: the seeds of the rolls and of the games played
SEEDS = (1, 2)
PAPERS = ("a4", "letter")
#: the values tried for an input, in order, until the table accepts them all
TRIES = 4


@pytest.fixture(scope="module")
def games(tmp_path_factory) -> dict[str, Any]:
    starter = new_game(str(tmp_path_factory.mktemp("golden") / "starter")).folder
    return {**{g: builtin(g) for g in builtin_games()}, "starter": load_game(str(starter))}


def _candidates(item, game) -> list[str]:
    """The values tried for one input: its default, then the ends of its range or its first
    choices (a roll is left to the seeded dice)."""
    if item.kind == "enum":
        return list(item.choices[:TRIES])
    if item.kind == "bool":
        return ["no", "yes"]
    if item.kind == "int":
        span = item.range_in(game)
        low, high = (span[0], span[1]) if span else (item.min, item.max)
        low = 0 if low is None else low
        return [str(v) for v in dict.fromkeys([low, low + 1, high if high is not None
                                               else low + 2, 1])]
    return ["1"]


def _rolled(game, ref: RefTable, seed: int) -> dict[str, Any]:
    """The table rolled with the first inputs it accepts (tried input by input), or the
    refusal of the last try."""
    needed = [i for i in ref.inputs if i.required]
    pairs = [f"{i.name}={_candidates(i, game)[0]}" for i in needed]
    refusal = ""
    for n, item in enumerate(needed):
        for value in _candidates(item, game):
            pairs[n] = f"{item.name}={value}"
            try:
                return {"inputs": pairs, **_stable(run_roll(game, ref, pairs, seed))}
            except (BadInput, RuleViolation) as exc:
                refusal = str(exc)
    try:
        return {"inputs": pairs, **_stable(run_roll(game, ref, pairs, seed))}
    except (BadInput, RuleViolation) as exc:
        return {"inputs": pairs, "refused": refusal or str(exc)}


def _stable(payload: dict[str, Any]) -> dict[str, Any]:
    return json.loads(json.dumps(payload, sort_keys=True, default=str))


def tables_transcript(game) -> dict[str, Any]:
    return {name: [_rolled(game, ref, seed) for seed in SEEDS]
            for name, ref in sorted(ref_tables(game).items()) if ref.lookup_allowed}


#: the decisions a game's transcript keeps where its random games run to thousands (the
#: first ones; every kind of decision comes up in them)
TRANSCRIPT_STEPS = {"axis-allies": 600}


def session_transcript(game) -> dict[str, Any]:
    rules = rules_for(game)
    out = {}
    for seed in SEEDS:
        hashes: list[str] = []

        def each(before, action, after, hashes=hashes):
            hashes.append(after.digest())

        played = playout(game, rules, seed, RandomAgent(), each=each,
                         max_steps=TRANSCRIPT_STEPS.get(game.id, 5000))
        out[str(seed)] = {"decisions": [f"{name} {json.dumps(args, sort_keys=True)}"
                                        for name, args in played.actions],
                          "positions": hashes[::10] + hashes[-1:],
                          "verdict": played.position.verdict.to_json()
                          if played.position.verdict else None}
    return out


def kit_transcript(game) -> dict[str, Any]:
    out = {}
    for paper in PAPERS:
        for n, page in enumerate(kit_pages(game, parse_options(paper, "pdf", "long", "0,0",
                                                               None)), 1):
            svg = svg_text(page).encode("utf-8")
            out[f"{paper} {n:03d} {page.id}"] = hashlib.sha256(svg).hexdigest()
    return out


KINDS: dict[str, Callable[[Any], dict[str, Any]]] = {
    "tables": tables_transcript, "session": session_transcript, "kit": kit_transcript}


def _cases() -> list[tuple[str, str]]:
    names = [*builtin_games(), "starter"]
    playable = {*playable_builtins(), "starter"}
    return [(kind, name) for kind in KINDS for name in names
            if kind != "session" or name in playable]


@pytest.mark.parametrize("kind, name", _cases())
def test_the_transcript_is_as_recorded(kind, name, games, request):
    made = KINDS[kind](games[name])
    path = GOLDEN / f"{name}-{kind}.json"
    if request.config.getoption("--regen-golden"):
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(json.dumps(made, indent=1, sort_keys=True, ensure_ascii=False) + "\n",
                        encoding="utf-8")
        return
    assert path.is_file(), (f"no golden transcript {path.name}: record it with python -m "
                            f"pytest tests/test_golden.py --regen-golden")
    recorded = json.loads(path.read_text(encoding="utf-8"))
    changed = sorted(k for k in {*made, *recorded} if made.get(k) != recorded.get(k))
    assert not changed, (f"{name}'s {kind} changed: {', '.join(changed[:8])}; if the change "
                         f"is meant to show, record it again with python -m pytest "
                         f"tests/test_golden.py --regen-golden and review tests/golden/")

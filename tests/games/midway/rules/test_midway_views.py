"""rules/views.py: what each side sees. Nothing hidden leaks to a side: its view (text and
JSON), the decisions it is asked, the answers listed, its refusals, every command's
announcements, the map and the log depend only on what the rules let it know.

Midway's hidden elements: the order of the event deck (from both sides; in solitaire the
card the US draws next, 12.3(2)), the other side's hand (3.1(3), 3.2(4), 8.1(2)), the US
plan (6.2(1)) and on Turn 1 the US start hex (3.2(1)) until the plan is revealed (6.2(2)).
A twin of a position changes one of them and keeps everything public; the side's outputs
stay byte-identical until the rules speak (a card drawn or played, the plan revealed), and
the other side's outputs do not (the comparison can fail).
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from mw_session import RULES, play_watched, start
from warpress.cli import main
from warpress.engine.agents import Seen, make_agent
from warpress.engine.dice import SeededDice
from warpress.engine.errors import BadInput, RuleViolation
from warpress.engine.model import FrozenDict
from warpress.games.midway.rules import movement as M
from warpress.games.midway.rules.choices import paths_from
from warpress.games.midway.rules.moves import Run, check_plan
from warpress.games.midway.rules.positions import with_data
from warpress.output import decision_lines, view_lines

SIDES = ("japan", "us")


def outputs(game, position, side, with_map=False):
    """Everything a side's commands print about a position: the view (JSON and text), the
    decision (its answers when the side makes it; else only what is asked of whom)."""
    view = RULES.player_view(game, position, side)
    out = [json.dumps(view, ensure_ascii=False, sort_keys=True), "\n".join(view_lines(view)),
           RULES.agent_view(game, position, side).to_json()]
    decision = RULES.decision(game, position)
    if decision is not None:
        if decision.side != side:
            decision = replace(decision, options=())
        shown = decision.as_json()
        out += [json.dumps(shown, ensure_ascii=False), "\n".join(decision_lines(shown))]
    if with_map:
        out.append(RULES.render_player_map(game, position, "svg").decode("utf-8"))
    return out


def outcome(game, position, name, args, n):
    try:
        step = RULES.apply(game, position, name, dict(args), SeededDice(n))
    except (RuleViolation, BadInput) as exc:
        return position, ("refused", type(exc).__name__, str(exc))
    return step.state, [a.as_json() for a in step.announcements]


# --- twins -----------------------------------------------------------------------------------


def deck_twin(position, rng):
    """The deck in another order (None when it cannot differ)."""
    deck = list(position.cards["deck"])
    if len(set(deck)) < 2:
        return None
    other = deck[:]
    while other == deck:
        rng.shuffle(other)
    return replace(position, cards=FrozenDict({**position.cards, "deck": tuple(other)}))


def hand_twin(position, side, rng):
    """The hand of ``side``'s opponent swapped with cards of the deck (its size kept), the
    deck reshuffled (None when no card can change)."""
    other = "us" if side == "japan" else "japan"
    held = list(position.cards[f"{other}.hand"])
    pool = held + list(position.cards["deck"])
    if not held or len(pool) <= len(held):
        return None
    rng.shuffle(pool)
    piles = {**position.cards, f"{other}.hand": tuple(pool[:len(held)]),
             "deck": tuple(pool[len(held):])}
    return replace(position, cards=FrozenDict(piles))


def plan_twin(game, position, rng):
    """Another legal US plan (on Turn 1 from another start hex too), before it is revealed."""
    plan = position.data.get("plan")
    if not plan or position.data.get("executed"):
        return None
    run = Run(game, position)
    here = position.piece("tf16-17").hex
    starts = [here] if here else list(game.hex_map().feature("us-start").hexes)
    allowance = M.allowance(game, "us-fleet", position.turn)
    routes = [p for s in starts for p in paths_from(game, s, allowance).values()
              if p != list(plan)]
    rng.shuffle(routes)
    for route in routes:
        try:
            check_plan(run, route)
        except RuleViolation:
            continue
        return with_data(position, plan=route)
    return None


def decided(game, positions):
    """``(position, decision)`` for each of ``positions`` with a decision due."""
    for position in positions:
        decision = RULES.decision(game, position)
        if decision is not None:
            yield position, decision


def speaks(notes, rules) -> bool:
    """Whether a step's announcements hold one the rules let depend on the hidden element."""
    return isinstance(notes, list) and any(set(n["rules"]) & set(rules) for n in notes)


def play_on(game, a, b, side, rng, steps, speaking, parting_actions=()):
    """Play the same answers from twins ``a`` and ``b``; the side's outputs stay the same
    until a step the rules let speak (``speaking`` rules in its announcements, or an action
    of ``parting_actions``). Returns the steps made and whether the twins parted."""
    for n in range(steps):
        assert outputs(game, a, side) == outputs(game, b, side), n
        decision = RULES.decision(game, a)
        if decision is None:
            return n, False
        mine = [(x.name, dict(x.args)) for x in decision.actions()]
        if decision.side != side:
            theirs = {(x.name, json.dumps(dict(x.args), sort_keys=True))
                      for x in RULES.decision(game, b).actions()}
            mine = [(k, v) for k, v in mine if (k, json.dumps(v, sort_keys=True)) in theirs]
        if not mine:
            return n, True
        name, args = rng.choice(mine)
        a, said_a = outcome(game, a, name, args, n)
        b, said_b = outcome(game, b, name, args, n)
        if name in parting_actions or speaks(said_a, speaking) or speaks(said_b, speaking):
            return n, True
        assert said_a == said_b, (name, args)
    return steps, False


# --- solitaire: the deck ---------------------------------------------------------------------

DRAWS = ("12.3(2)",)


def test_solitaire_the_deck_order_never_reaches_the_player(game):
    rng = random.Random(3)
    compared = parted = 0
    for seed in (27, 47, 1):
        _, positions = play_watched(game, seed, "solitaire")
        for position in positions[::3]:
            if position.verdict is not None:
                continue
            twin = deck_twin(position, rng)
            if twin is None:
                continue
            assert outputs(game, position, "japan", with_map=compared < 5) == \
                outputs(game, twin, "japan", with_map=compared < 5)
            assert outputs(game, position, None) == outputs(game, twin, None)
            steps, split = play_on(game, position, twin, "japan", rng, 30, DRAWS,
                                   parting_actions=("take-card",))
            compared += 1
            parted += split
    assert compared > 15 and parted > 5


def test_solitaire_the_twins_part_at_a_draw(game):
    """The comparison can fail: twins whose deck differs show different US moves once the
    US draws its movement card (12.3(2))."""
    position = start(game, "solitaire")
    a = replace(position, cards=FrozenDict({**position.cards,
                                            "deck": ("01", "02", "03", "05", "06", "08")}))
    b = replace(position, cards=FrozenDict({**position.cards,
                                            "deck": ("06", "01", "02", "03", "05", "08")}))
    assert outputs(game, a, "japan") == outputs(game, b, "japan")
    for name, args in (("declare", {"attack": "no"}), ("end-move", {})):
        a, said_a = outcome(game, a, name, args, 1)
        b, said_b = outcome(game, b, name, args, 1)
    assert said_a != said_b and outputs(game, a, "japan") != outputs(game, b, "japan")


# --- two players: the plan, the hands, the deck -----------------------------------------------

PLAN_SPEAKS = ("6.2(2)",)
CARDS_SPEAK = ("11.0(2)", "2.3", "8.1(2)")


@pytest.fixture(scope="module")
def standard(game):
    """Every position of a two-player game of random agents."""
    _, positions = play_watched(game, 1, "standard")
    return positions


def test_the_us_plan_never_reaches_the_japanese(game, standard):
    rng = random.Random(7)
    compared = 0
    planned = [p for p in standard if p.data.get("plan")
               and not p.data.get("executed")]
    for position in planned[::8]:
        twin = plan_twin(game, position, rng)
        if twin is None:
            continue
        for side in ("japan", None):
            assert outputs(game, position, side) == outputs(game, twin, side)
        assert RULES.render_player_map(game, position, "svg") == \
            RULES.render_player_map(game, twin, "svg")
        assert outputs(game, position, "us") != outputs(game, twin, "us")
        play_on(game, position, twin, "japan", rng, 12, PLAN_SPEAKS)
        compared += 1
    assert compared >= 8


def test_the_turn_1_start_hex_is_secret(game):
    position = start(game, "standard")
    for answer in (("ready", {}), ("ready", {}), ("declare", {"attack": "no"}),
                   ("plan", {"route": "H-9,H-8,G-7"})):
        position = RULES.apply(game, position, answer[0], answer[1], SeededDice(1)).state
    view = RULES.player_view(game, position, "japan")
    assert "H-9" not in json.dumps(view) and "G-7" not in json.dumps(view)
    fleet = next(f for f in view["fleets"] if f["id"] == "tf16-17")
    assert fleet["where"].startswith("not yet revealed")
    assert RULES.player_view(game, position, "us")["tracks"]["your plan"] == "H-9→H-8→G-7"


def test_a_hand_never_reaches_the_other_side(game, standard):
    rng = random.Random(11)
    compared = changed = 0
    for k, position in enumerate(standard[::9]):
        if position.verdict is not None:
            continue
        for side in SIDES:
            twin = hand_twin(position, side, rng)
            if twin is None:
                continue
            assert outputs(game, position, side) == outputs(game, twin, side)
            if k % 4 == 0:
                play_on(game, position, twin, side, rng, 12, CARDS_SPEAK)
            compared += 1
            changed += outputs(game, position, "us" if side == "japan" else "japan") != \
                outputs(game, twin, "us" if side == "japan" else "japan")
    assert compared > 40 and changed > compared // 3


def test_refusals_name_no_hidden_fact(game, standard):
    """The refusals of the commands the side due might type are the same in twins that
    differ in what that side may not know (the other hand; for the Japanese, the US plan): a
    plan refused never quotes its route; a card is refused for the side's own hand only."""
    rng = random.Random(5)
    checked = 0
    for position, decision in decided(game, standard[::7]):
        side = decision.side
        twin = hand_twin(position, side, rng) or (
            plan_twin(game, position, rng) if side == "japan" else None)
        if twin is None:
            continue
        for name, args in (("play", {"card": "01"}), ("play", {"card": "07"}),
                           ("plan", {"route": "F-4,F-6"}), ("take-card", {}),
                           ("end-op", {}), ("pass", {})):
            a = outcome(game, position, name, args, 1)[1]
            b = outcome(game, twin, name, args, 1)[1]
            if isinstance(a, tuple):
                assert a == b, (name, a, b)
                assert "F-4" not in a[2]
                checked += 1
    assert checked > 20


# --- positions drawn to agree with a view (determinise) ----------------------------------------


def test_a_drawn_position_agrees_with_the_view_and_varies_what_it_hides(game, standard):
    """determinise: the view of a position drawn from a side's view is that view; the deck
    order, the other hand and an unread plan vary between draws."""
    rng = random.Random(9)
    varied = set()
    checked = 0
    for position, decision in decided(game, standard[::11]):
        side = decision.side
        seen = RULES.player_view(game, position, side)
        known = RULES.agent_view(game, position, side)
        drawn = [RULES.determinise(game, known, side, rng) for _ in range(4)]
        for sample in drawn:
            assert RULES.player_view(game, sample, side) == seen
            assert RULES.agent_view(game, sample, side) == known
            assert RULES.decision(game, sample).as_json() == decision.as_json()
        for part in ("deck", "us.hand", "japan.hand"):
            if len({sample.cards.get(part) for sample in drawn}) > 1:
                varied.add(part)
        if len({sample.data.get("plan") for sample in drawn}) > 1:
            varied.add("plan")
        checked += 1
    assert checked > 20 and varied == {"deck", "us.hand", "japan.hand", "plan"}


def test_a_drawn_position_keeps_what_the_side_knows(game, standard):
    """The side's own hand and the plan the US wrote are never drawn again."""
    rng = random.Random(4)
    position = next(p for p in standard if p.data.get("plan") and not p.data.get("executed")
                    and p.cards.get("us.hand"))
    known = RULES.agent_view(game, position, "us")
    for _ in range(4):
        sample = RULES.determinise(game, known, "us", rng)
        assert sample.data["plan"] == position.data["plan"]
        assert sample.cards["us.hand"] == position.cards["us.hand"]


@pytest.mark.parametrize("name", ["greedy", "mcts:40"])
def test_an_agent_that_looks_ahead_chooses_alike_in_twins(game, standard, name):
    """Two positions that differ only in what the Japanese may not see (the US plan, the US
    hand, the deck order): a looking-ahead Japanese agent makes the same choice."""
    rng = random.Random(2)
    compared = 0
    for position, decision in decided(game, standard[::29]):
        if decision.side != "japan" or len(list(decision.actions())) < 2:
            continue
        twin = plan_twin(game, position, rng) or hand_twin(position, "japan", rng)
        if twin is None:
            continue
        chosen = {str(make_agent(name).choose(Seen(game, RULES, p, RULES.decision(game, p)),
                                              random.Random(compared)))
                  for p in (position, twin)}
        assert len(chosen) == 1, (position.phase, chosen)
        compared += 1
    assert compared >= 3


# --- the command line: status, log, JSON -------------------------------------------------------


def run(runner, *words):
    result = runner.invoke(main, list(words))
    assert result.exit_code in (0, 1), result.output
    return result


def test_the_plan_stays_out_of_the_log_and_the_japanese_status(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    run(runner, "play", "new", "midway", "--seed", "4", "--session", "s")
    for words in (("ready",), ("ready",), ("declare", "no"), ("plan", "G-8,F-8,E-8")):
        assert run(runner, "play", *words, "--session", "s").exit_code == 0
    refused = run(runner, "play", "plan", "G-8,G-7,G-6,G-5", "--session", "s")
    for words in (("log",), ("status",), ("status", "--side", "japan"),
                  ("status", "--json"), ("status", "--side", "japan", "--json"),
                  ("moves", "--side", "japan")):
        shown = run(runner, "play", *words, "--session", "s").output
        assert "F-8" not in shown and "E-8" not in shown, words
    assert "(written plan)" in run(runner, "play", "log", "--session", "s").output
    assert "G-7" not in refused.output
    us = run(runner, "play", "status", "--side", "us", "--session", "s").output
    assert "G-8→F-8→E-8" in us


def _public(record):
    """A raw log record without what differs between any two sessions (time, random id,
    the position hashes of the chain) and with a sealed value's random text masked."""
    record = {k: v for k, v in record.items() if k not in ("time", "id", "hash", "prev")}
    args = record.get("args") or {}
    record["args"] = {k: "sealed" if str(v).startswith("sealed:") else v
                      for k, v in args.items()}
    return record


def _japanese_sees(runner, where):
    """Everything the Japanese player can read: his status (text and JSON), the public
    status, his answers, `play log` (times cut) and the raw log.jsonl (as _public). The log's
    head line is cut (its hash covers the times and the session's random id)."""
    shown = [[line for line in run(runner, "play", *words, "--session", where)
              .output.splitlines() if not line.startswith("log: ")]
             for words in (("status", "--side", "japan"), ("status", "--side", "japan",
                                                          "--json"),
                           ("status",), ("moves", "--side", "japan"), ("log",))]
    shown[-1] = [line.split("  ", 1)[-1] for line in shown[-1]]
    raw = (Path(where) / "log.jsonl").read_text().splitlines()
    return shown, [_public(json.loads(line)) for line in raw], "\n".join(raw)


def test_two_us_plans_look_the_same_to_the_japanese_until_revealed(tmp_path, monkeypatch):
    """Two sessions of one seed in which the US writes different plans (and has a different
    one refused): whatever the Japanese read, the session's raw log included, is the same
    until the plan is revealed (6.2(2)); the raw log holds no plan as typed (the session
    seals it, engine/session.py). Then the fleets part."""
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    plans = {"a": ("G-8,F-8,E-8", "G-8,G-7,G-6,G-5"), "b": ("H-9,H-8,G-7", "H-9,H-8,H-7,H-6")}
    seen, raw = {}, {}
    for where, (plan, too_long) in plans.items():
        run(runner, "play", "new", "midway", "--seed", "4", "--session", where)
        for words in (("ready",), ("ready",), ("declare", "no")):
            assert run(runner, "play", *words, "--session", where).exit_code == 0
        assert run(runner, "play", "plan", too_long, "--session", where).exit_code == 1
        assert run(runner, "play", "plan", plan, "--session", where).exit_code == 0
        seen[where], records, raw[where] = _japanese_sees(runner, where)
        seen[where].append(records)
        for hexes in (plan, too_long):
            assert f'"{hexes}"' not in raw[where] and "E-8" not in raw[where], hexes
    assert seen["a"] == seen["b"]
    us = [run(runner, "play", "status", "--side", "us", "--session", w).output for w in "ab"]
    assert "G-8→F-8→E-8" in us[0] and "H-9→H-8→G-7" in us[1]
    for where in "ab":
        for words in (("sail", "ichikokan", "A-2,B-2"), ("end-move",)):
            assert run(runner, "play", *words, "--session", where).exit_code == 0
    after = [_japanese_sees(runner, where)[0][0] for where in "ab"]
    assert after[0] != after[1]  # revealed: the comparison can fail


def test_the_map_draws_the_fleets_and_the_groups_in_flight(game):
    """status --map: the kit's map with a stack on each hex holding a fleet or an air group,
    the title naming the turn and the phase."""
    position = start(game, "solitaire")
    position = RULES.apply(game, position, "declare", {"attack": "no"}, SeededDice(1)).state
    drawn = RULES.render_player_map(game, position, "svg").decode("utf-8")
    assert 'id="stack-D-3"' in drawn and 'id="stack-F-3"' in drawn
    assert drawn.count('class="stack"') == 2
    assert "turn 3 · Japanese movement phase" in drawn
    png = RULES.render_player_map(game, position, "png")
    assert png.startswith(b"\x89PNG")
    for name, args in (("end-move", {}), ("launch", {"unit": "b5n-hiryu-3", "group": "new"})):
        position = RULES.apply(game, position, name, args, SeededDice(2)).state
    here = position.piece("ichikokan").place
    drawn = RULES.render_player_map(game, position, "svg").decode("utf-8")
    assert f'id="on-{here}-2"' in drawn  # the fleet and the group launched over it

"""The player's decision and its legal answers (rules/choices.py): an agent choosing at
random among them plays whole nights of every shipped scenario, and every answer listed is
one the referee accepts."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from nf_helpers import edited, night_of, start_state
from warpress.engine.decisions import command_line
from warpress.engine.dice import SeededDice
from warpress.games.nightfighter.rules.choices import ACTIONS, COMMAND_PHASE, awaiting
from warpress.games.nightfighter.rules.position import read
from warpress.games.nightfighter.rules.scenario import SHIPPED

SEEDS = (0, 1, 2)
SPECS = {spec.name: spec for spec in ACTIONS}


def random_night(game, ref, name, seed, check=None):
    """Play a night choosing at random among the decision's options, then among the
    option's answers; ``check(state, decision, n)`` sees each decision. Returns the final
    state and how often each command was played."""
    rng = random.Random(seed)
    state = start_state(game, ref, name, seed)
    played = Counter()
    for n in range(500):
        due = ref.decision(game, state)
        if due is None:
            return state, played
        if check is not None:
            check(state, due, n)
        answer = rng.choice(rng.choice(due.options).actions)
        played[answer.name] += 1
        state = ref.apply(game, state, answer.name, dict(answer.args),
                          SeededDice(seed * 1000 + n)).state
    raise AssertionError(f"{name} seed {seed}: the night did not end in 500 decisions")


@pytest.fixture(scope="module")
def nights(game, ref):
    """A random night of every shipped scenario from every seed of SEEDS, each decision
    checked on the way: its answers name only commands the phase allows, labelled as typed."""
    def check(state, due, n):
        s, sc = read(game, state)
        allowed = set(awaiting(game, sc, s))
        assert due.side == "defender" and due.kind == state.phase and due.options
        for option in due.options:
            for answer in option.actions:
                assert answer.name in allowed, (n, answer)
                assert answer.label == command_line(answer, SPECS[answer.name])

    return {(name, seed): random_night(game, ref, name, seed, check)
            for name in SHIPPED for seed in SEEDS}


def test_nf_choices_random_answers_play_whole_nights(game, ref, nights):
    """Every answer the agent picked was accepted (apply raises otherwise) and every night
    ended with a verdict (4.1)."""
    assert len(nights) == len(SHIPPED) * len(SEEDS)
    for (_name, _seed), (final, played) in nights.items():
        assert final.over and final.verdict is not None and final.side is None
        assert ref.summary(game, final)["result"] == final.verdict.result
        assert {"move", "sight", "end-turn"} <= set(played)


def test_nf_choices_the_random_nights_play_every_command(nights):
    played = sum((played for _final, played in nights.values()), Counter())
    assert set(played) == {spec.name for spec in ACTIONS}, played


def _accepts_all(game, ref, state, option, seed):
    for answer in option.actions:
        ref.apply(game, state, answer.name, dict(answer.args), SeededDice(seed))


@pytest.mark.parametrize("name", SHIPPED)
def test_nf_choices_every_answer_listed_is_accepted(game, ref, name):
    """For the first turns of a night, every answer of every option (but searches, below)
    is applied to the position it was listed for: none is refused."""
    def check(state, due, n):
        if state.turn > 3:
            return
        for option in due.options:
            if option.label.startswith("search"):
                continue
            _accepts_all(game, ref, state, option, n)

    random_night(game, ref, name, 5, check)


@pytest.mark.parametrize("name", [n for n in SHIPPED if n != "cats-eye"])
def test_nf_choices_a_search_counter_may_go_on_every_hex(game, ref, name):
    state = start_state(game, ref, name, 3)
    for f in night_of(game, state).fighters:
        if f.on_map:
            state = ref.apply(game, state, "move", {"fighter": f.id, "path": "F,F"},
                              SeededDice(1)).state
    due = ref.decision(game, state)
    searches = [o for o in due.options if o.label.startswith("search")]
    s, sc = read(game, state)
    assert [o.label for o in searches] == [f"search {c}" for c in sc.counter_ids()]
    assert len(searches[0].actions) == len(game.hex_map().hex_ids)
    _accepts_all(game, ref, state, searches[0], 1)


def test_nf_choices_a_fighter_that_must_move_holds_the_phase(game, ref):
    """While a fighter must still move (9.0) only moves and declarations are offered; then
    the later phases' answers, but an attack only in Combat (its target unknown before)."""
    state = start_state(game, ref, "cats-eye", 5)
    due = ref.decision(game, state)
    assert {o.label for o in due.options} == {"move 231", "move 232"}
    assert due.rules[:2] == ("4.0", "9.0")
    state = ref.apply(game, state, "move", {"fighter": "231", "path": "F,F"},
                      SeededDice(1)).state
    assert [o.label for o in ref.decision(game, state).options] == ["move 232"]
    state = ref.apply(game, state, "move", {"fighter": "232", "path": "F,F"},
                      SeededDice(1)).state
    labels = [o.label for o in ref.decision(game, state).options]
    assert state.phase == "sighting" and labels == ["sight", "end-turn"]


def test_nf_choices_declarations_change_the_plans(game, ref):
    """A dive must use the full MP (18.0): once declared, only plans of exactly that MP; an
    evasion adds 1 MP (27.3.1)."""
    state = start_state(game, ref, "tame-boar", 3)
    due = ref.decision(game, state)
    assert "descend 211" in {o.label for o in due.options}
    before = {a.note for o in due.options if o.label == "move 211" for a in o.actions}
    dived = ref.apply(game, state, "descend", {"fighter": "211"}, SeededDice(1)).state
    after = [a for o in ref.decision(game, dived).options if o.label == "move 211"
             for a in o.actions]
    mps = {a.note.split(" MP")[0] for a in after if "MP to" in a.note}
    assert len(mps) == 1 and int(mps.pop()) == max(
        int(n.split(" MP")[0]) for n in before if "MP to" in n) + 1
    assert "descend 211" not in {o.label for o in ref.decision(game, dived).options}
    warned = edited(game, state, warned={"205"})
    labels = {o.label for o in ref.decision(game, warned).options}
    assert "evade 205" in labels and "evade 206" not in labels


def test_nf_choices_attacks_offer_following_or_not(game, ref):
    """In Combat a fighter with a sighted bomber in its hex and facing may attack, following
    a corkscrew or not (17.4.3); the oblique guns only where fitted (20.0)."""
    state = start_state(game, ref, "cats-eye", 4)
    night = night_of(game, state)
    bomber = replace(night.bombers[0], hex="0706", status="on-map", facing=3)
    fighter = replace(night.fighter("231"), hex="0706", facing=3, sighting=bomber.id)
    combat = edited(game, state, phase="combat",
                    night=night.with_bomber(bomber).with_fighter(fighter))
    due = ref.decision(game, combat)
    attack = next(o for o in due.options if o.label == "attack 231")
    assert [a.label for a in attack.actions] == ["attack 231", "attack 231 --no-follow"]
    assert [o.label for o in due.options] == ["attack 231", "end-turn"]
    _accepts_all(game, ref, combat, attack, 2)


def test_nf_choices_every_command_belongs_to_a_phase(game):
    assert [spec.name for spec in ACTIONS] == list(COMMAND_PHASE)
    assert set(COMMAND_PHASE.values()) <= {p.id for p in game.sequence}

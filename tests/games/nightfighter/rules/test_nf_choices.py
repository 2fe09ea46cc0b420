"""The player's decision and its legal answers (rules/choices.py): the engine's random
agent, choosing among them, plays whole nights of every shipped scenario, and every answer
listed is one the referee accepts."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest
from nf_helpers import edited, next_command, night_of, play, start_state
from warpress.engine.agents import RandomAgent, playout
from warpress.engine.decisions import command_line
from warpress.engine.dice import SeededDice
from warpress.games.nightfighter.rules.choices import ACTIONS, COMMAND_PHASE, awaiting
from warpress.games.nightfighter.rules.position import read
from warpress.games.nightfighter.rules.scenario import SHIPPED

SEEDS = (0, 1, 2)
SPECS = {spec.name: spec for spec in ACTIONS}


def random_night(game, ref, name, seed, check=None):
    """A night played by the engine's random agent (an option at random, then one of its
    answers); ``check(position, decision)`` sees each decision due. Returns the playout
    and how often each command was played."""
    def each(_before, _action, after):
        due = ref.decision(game, after)
        if due is not None and check is not None:
            check(after, due)

    played = playout(game, ref, seed, RandomAgent(), scenario=name, max_steps=500, each=each)
    assert played.stopped == "over", f"{name} seed {seed}: the night did not end"
    return played, Counter(command for command, _args in played.actions)


@pytest.fixture(scope="module")
def nights(game, ref):
    """A random night of every shipped scenario from every seed of SEEDS, each decision
    checked on the way: its answers name only commands the phase allows, labelled as typed."""
    def check(state, due):
        s, sc = read(game, state)
        allowed = set(awaiting(game, sc, s))
        assert due.side == "defender" and due.kind == state.phase and due.options
        for option in due.options:
            for answer in option.actions:
                assert answer.name in allowed, (state.turn, answer)
                assert answer.label == command_line(answer, SPECS[answer.name])

    return {(name, seed): random_night(game, ref, name, seed, check)
            for name in SHIPPED for seed in SEEDS}


def test_nf_choices_random_answers_play_whole_nights(game, ref, nights):
    """Every answer the agent picked was accepted (apply raises otherwise) and every night
    ended with a verdict (4.1)."""
    assert len(nights) == len(SHIPPED) * len(SEEDS)
    for (_name, _seed), (night, played) in nights.items():
        final = night.position
        assert final.over and final.verdict is not None and final.side is None
        result = ref.summary(game, final)["result"]
        assert final.verdict.winner == ("attacker" if result == "defeat" else "defender")
        assert {"move", "sight", "end-turn"} <= set(played)


def test_nf_choices_the_random_nights_play_every_command_but_attacks(nights):
    """Random flying seldom ends in a sighted bomber's hex with its facing (11.0): attacks
    are offered and accepted in the Combat test below; every other command is played."""
    played = sum((played for _night, played in nights.values()), Counter())
    assert set(played) == {spec.name for spec in ACTIONS} - {"attack"}, played


def _accepts_all(game, ref, state, option, seed):
    for answer in option.actions:
        ref.apply(game, state, answer.name, dict(answer.args), SeededDice(seed))


@pytest.mark.parametrize("name", SHIPPED)
def test_nf_choices_every_answer_listed_is_accepted(game, ref, name):
    """For the first turns of a night, every answer of every option (but searches, below)
    is applied to the position it was listed for: none is refused."""
    def check(state, due):
        if state.turn > 3:
            return
        for option in due.options:
            if not option.label.startswith("search"):
                _accepts_all(game, ref, state, option, state.turn)

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


def test_nf_choices_the_autopilots_attacks_are_listed(game, ref):
    """The autopilot (nf_helpers) flies onto its sighting markers and attacks (11.0): each
    attack it makes in a whole night is one of the answers the decision lists."""
    attacks = []

    def check(game, ref, state):
        command, args = next_command(game, ref.player_view(game, state))
        if command == "attack":
            answers = [(a.name, dict(a.args)) for a in ref.decision(game, state).actions()]
            assert (command, args) in answers, answers
            attacks.append(args)

    play(game, ref, "cats-eye", 6, check=check)
    assert attacks


def test_nf_choices_every_command_belongs_to_a_phase(game):
    assert [spec.name for spec in ACTIONS] == list(COMMAND_PHASE)
    assert set(COMMAND_PHASE.values()) <= {p.id for p in game.sequence}

"""What the player of a night knows (information.py): an agent flying the night fighters
decides on it alone. Twin states that differ only in where unseen attackers are (the
referee's leak test's twins) give the same view, the same legal answers and the same choice
of every agent; a position drawn from the view masks to it and keeps every fact the turn
revealed; what the rules reveal (a sighting) does change the view."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from nf_helpers import edited, night_of, start_state
from test_nf_referee_leaks import SETTINGS, twin_states
from warpress.engine.agents import RandomAgent, Seen, make_agent, playout
from warpress.engine.dice import SeededDice
from warpress.engine.whole import broken
from warpress.games.nightfighter.rules import information as info
from warpress.games.nightfighter.rules.position import DEFENDER

#: the random nights whose positions are looked at (every fourth decision)
NIGHTS = (("cats-eye", 1), ("kammhuber-line", 2), ("tame-boar", 3))


@pytest.fixture(scope="module")
def positions(game, ref):
    seen = []

    def each(before, action, after):
        if ref.decision(game, after) is not None:
            seen.append(after)

    for name, seed in NIGHTS:
        playout(game, ref, seed, RandomAgent(), scenario=name, each=each)
    return seen[::4]


def _choices(game, ref, states, agents, seed):
    """Each agent's choice in each state, from the same randomness."""
    return [[agent.choose(Seen(game, ref, s, ref.decision(game, s)), random.Random(seed))
             for s in states] for agent in agents]


def test_nf_information_unseen_attackers_change_no_view_answer_or_choice(game, ref):
    agents = [make_agent("random"), make_agent("greedy"), make_agent("mcts:16")]

    @settings(SETTINGS, max_examples=10)
    @given(data=twin_states(game, ref))
    def check(data):
        a, b, seed = data
        assert ref.referee_view(game, a)["bombers"] != ref.referee_view(game, b)["bombers"]
        assert ref.agent_view(game, a, DEFENDER) == ref.agent_view(game, b, DEFENDER)
        decision = ref.decision(game, a)
        assert ref.decision(game, b) == decision
        handed = [Seen(game, ref, s, decision) for s in (a, b)]
        assert vars(handed[0]) == vars(handed[1]), "an agent is handed more"
        for agent, (one, two) in zip(agents, _choices(game, ref, (a, b), agents, seed),
                                     strict=True):
            assert one == two, f"{agent.name} chose by what it cannot see"

    check()


def test_nf_information_a_leaky_view_is_caught(game, ref, monkeypatch):
    """The comparison above can fail: handed the position itself, the twins' views part."""
    monkeypatch.setattr(type(ref), "agent_view", lambda self, game, state, side=None: state)

    @SETTINGS
    @given(data=twin_states(game, ref))
    def check(data):
        a, b, _seed = data
        assert ref.agent_view(game, a, DEFENDER) != ref.agent_view(game, b, DEFENDER)

    check()


def test_nf_information_a_drawn_position_keeps_what_the_player_knows(game, ref, positions):
    rng = random.Random(0)
    changed = with_facts = 0
    for n, position in enumerate(positions):
        view = info.masked(game, position, DEFENDER)
        found = info.facts(game, view)
        with_facts += bool(found)
        for _ in range(2):
            drawn = info.determinise(game, view, DEFENDER, rng)
            assert info.masked(game, drawn, DEFENDER) == view, n
            assert ref.player_view(game, drawn) == ref.player_view(game, position), n
            assert ref.decision(game, drawn) == ref.decision(game, position), n
            assert info.violated(game, view, drawn) == [], (n, [f.text for f in found])
            changed += ref.referee_view(game, drawn) != ref.referee_view(game, position)
    assert changed > len(positions)           # the hidden part was drawn anew
    assert with_facts > len(positions) // 4   # and facts were there to keep


def test_nf_information_a_drawn_night_plays_on(game, ref, positions):
    """A drawn position is one the referee plays: every legal answer applies."""
    rng = random.Random(1)
    for position in positions[::5]:
        drawn = info.determinise(game, info.masked(game, position, DEFENDER), DEFENDER, rng)
        action = RandomAgent().choose(Seen(game, ref, drawn, ref.decision(game, drawn)), rng)
        ref.apply(game, drawn, action.name, dict(action.args), SeededDice(7))


@pytest.fixture(scope="module")
def moved(game, ref):
    """Kammhuber line, turn 1, every attacker in the pool, both fighters moved: Radar
    Search is next."""
    state = start_state(game, ref, "kammhuber-line", 8)
    night = night_of(game, state)
    bombers = tuple(replace(b, hex=None, status="pool") for b in night.bombers)
    state = edited(game, state, night=replace(night, bombers=bombers, captures=(),
                                              env=replace(night.env, clouds="clear")))
    for fid in ("201", "202"):
        state = ref.apply(game, state, "move", {"fighter": fid, "path": "F,F"},
                          SeededDice(1)).state
    return state


@pytest.fixture(scope="module")
def searched(game, ref, moved):
    """The Freya placed at 0910, no attacker near it."""
    return ref.apply(game, moved, "search", {"counter": "freya", "hex": "0910"},
                     SeededDice(1)).state


def test_nf_information_a_fact_broken_is_told(game, ref, searched):
    """``violated`` can fail: a bomber put within the Freya's reach breaks its 'no
    contact' (13.1.1); the drawn positions never do."""
    view = info.masked(game, searched, DEFENDER)
    assert "freya at 0910: no contact (13.1.1)" in [f"{f.text} ({f.rule})"
                                                     for f in info.facts(game, view)]
    night = night_of(game, searched)
    near = edited(game, searched, night=night.with_bomber(replace(night.bombers[0],
                                                                  hex="0911",
                                                                  status="on-map")))
    assert "freya at 0910: no contact (13.1.1)" in info.violated(game, view, near)
    rng = random.Random(2)
    for _ in range(10):
        assert info.violated(game, view, info.determinise(game, view, DEFENDER, rng)) == []


def test_nf_information_a_contact_puts_an_attacker_in_reach(game, ref, moved):
    """A contact says an attacker is within the counter's reach: every drawn position has
    one there, though the true one may be anywhere in it."""
    night = night_of(game, moved)
    near = edited(game, moved, night=night.with_bomber(replace(night.bombers[0], hex="0911",
                                                               status="on-map")))
    state = ref.apply(game, near, "search", {"counter": "wurzburg#1", "hex": "0912"},
                      SeededDice(1)).state
    view = info.masked(game, state, DEFENDER)
    assert any(f.some and f.rule == "13.1.1" for f in info.facts(game, view))
    rng = random.Random(3)
    places = set()
    for _ in range(10):
        drawn = info.determinise(game, view, DEFENDER, rng)
        assert info.violated(game, view, drawn) == []
        places |= {b.hex for b in night_of(game, drawn).on_map_bombers()}
    assert len(places) > 1


def test_nf_information_what_the_rules_reveal_changes_the_view(game, ref):
    """A fighter's sighting shows the bomber's hex and facing (5.1): the views part."""
    state = start_state(game, ref, "cats-eye", 3)
    night = night_of(game, state)
    bomber = replace(night.bombers[0], hex="0706", status="on-map")
    unseen = edited(game, state, night=night.with_bomber(bomber))
    seen = edited(game, state, night=night.with_bomber(bomber).with_fighter(
        replace(night.fighter("231"), sighting=bomber.id)))
    view = info.masked(game, seen, DEFENDER)
    assert view != info.masked(game, unseen, DEFENDER)
    known = [b for b in night_of(game, view).bombers if b.status == "on-map"]
    assert [(b.id, b.hex, b.facing) for b in known] == [("known-1", "0706", bomber.facing)]
    assert night_of(game, view).fighter("231").sighting == "known-1"


@pytest.mark.parametrize(("agent", "seed"), [("greedy", 1), ("mcts:12", 2)])
def test_nf_information_agents_that_look_ahead_play_whole_nights(game, ref, agent, seed):
    """A night flown by an agent that searches drawn positions, the whole-game invariants
    held at every step, to its verdict (longer runs: docs/balance.md)."""
    steps = []

    def each(before, action, after):
        problems = broken(game, before, action, after)
        assert not problems, f"{agent} seed {seed} after {action}: {problems}"
        steps.append(action)

    played = playout(game, ref, seed, make_agent(agent), scenario="cats-eye", each=each)
    assert played.stopped == "over" and played.position.verdict is not None
    assert len(steps) == len(played.actions) + 1

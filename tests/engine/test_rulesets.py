"""Which rules play a game (engine/rulesets.py), and every game they play: each playable
shipped game and the starting game play whole random games from several seeds with the
whole-game invariants (engine/whole.py) held at every step, each to a verdict."""

from __future__ import annotations

from pathlib import Path

import pytest
from warpress.engine.agents import RandomAgent, playout
from warpress.engine.errors import BadInput
from warpress.engine.loader import builtin, load_game
from warpress.engine.play.game import HexRules
from warpress.engine.rulesets import playable_builtins, rules_for
from warpress.engine.whole import broken
from warpress.starter.new import new_game

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "games"
#: the seeds each game is played from
SEEDS = (1, 2, 3)
#: the most decisions a game may take to its verdict: random powers play Axis & Allies for
#: past 10,000 decisions (docs/axis-allies.md)
STEP_CAP = {"axis-allies": 20_000}


def _games() -> list[str]:
    return [*playable_builtins(), "starter"]


@pytest.fixture(scope="module")
def starter(tmp_path_factory):
    return load_game(str(new_game(str(tmp_path_factory.mktemp("new") / "starter")).folder))


@pytest.mark.parametrize("name", _games())
def test_every_playable_game_plays_whole_games_within_its_invariants(name, starter):
    game = starter if name == "starter" else builtin(name)
    rules = rules_for(game)
    for seed in SEEDS:
        seen = []

        def each(before, action, after, seed=seed, seen=seen):
            problems = broken(game, before, action, after)
            assert not problems, f"{name} seed {seed} after {action}: {problems}"
            seen.append(after)

        played = playout(game, rules, seed, RandomAgent(), each=each,
                         max_steps=STEP_CAP.get(name, 5000))
        assert played.stopped == "over", f"{name} seed {seed}: {played.stopped} {played.stall}"
        assert played.position.verdict is not None and len(seen) == len(played.actions) + 1


def test_a_game_with_a_play_mapping_is_played_by_the_hex_rules(starter):
    assert isinstance(rules_for(starter), HexRules)
    assert {"midway-cards", "nightfighter"} <= set(playable_builtins())


def test_a_game_with_no_session_rules_names_the_ones_that_have_some():
    tiny = load_game(str(FIXTURES / "tiny"))
    with pytest.raises(BadInput, match=r"cannot be played in a session.*\(playable: .*"
                                       r"nightfighter"):
        rules_for(tiny)

"""Which rules play a game (engine/rulesets.py), and every game they play: each playable
shipped game and the starting game play whole random games from several seeds with the
whole-game invariants (engine/whole.py) held at every step, each to a verdict.

The game contract (engine/gamecode.py, engine/registry.py ``GameCode``): every registered
game, the starting game and the test fixtures register their Python on the one ``CODE``
their folder declares, each part registering what it is for."""

from __future__ import annotations

import pytest
from every_game import FIXTURES, every_game, game_named, starter_game
from warpress.components.kit import PARTS as KIT_PARTS
from warpress.components.registry import COUNTER_FACE
from warpress.engine.agents import RandomAgent, playout
from warpress.engine.catalogue import ref_tables
from warpress.engine.errors import BadInput
from warpress.engine.gamecode import game_code
from warpress.engine.gameparts import INIT, PARTS, has_part
from warpress.engine.loader import builtin, builtin_games, load_game
from warpress.engine.play.game import HexRules
from warpress.engine.registry import GameCode
from warpress.engine.rulesets import playable_builtins, rules_for
from warpress.engine.whole import broken
from warpress.verify.invariants import invariants_for

#: the seeds each game is played from
SEEDS = (1, 2, 3)
#: the most decisions a game may take to its verdict: random powers play Axis & Allies for
#: past 10,000 decisions (docs/axis-allies.md)
STEP_CAP = {"axis-allies": 20_000}


def _games() -> list[str]:
    return [*playable_builtins(), "starter"]


@pytest.fixture(scope="module")
def starter(tmp_path_factory):
    return starter_game(tmp_path_factory.mktemp("new"))


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


# --- the game contract --------------------------------------------------------------------

#: the modules a folder may hold below its package, and what each registers on its CODE
REGISTERS = {"rules": "tables", "rules.session": "session_rules", "checks": "checks",
             "kit": "kit_parts"}


def test_the_contract_covers_every_part_a_folder_may_hold():
    assert set(PARTS) == {INIT, *REGISTERS}


@pytest.mark.parametrize("name", every_game())
def test_every_game_registers_its_python_on_the_one_code_its_folder_declares(name, starter):
    game = game_named(name, starter)
    code = game_code(game, *REGISTERS)
    assert isinstance(code, GameCode)
    held = {part for part in REGISTERS if has_part(game, part)}
    assert not held or has_part(game, INIT), f"{name}: its Python needs an __init__.py"
    for part, what in REGISTERS.items():  # a module is there iff it registered something
        assert bool(getattr(code, what)) == (part in held), f"{name}: {part} -> {what}"
    served = ref_tables(game)
    assert set(code.tables) <= set(served) and {t.id for t in game.tables} <= set(served)
    for table in code.tables.values():
        assert table.rules and table.summary, f"{name}: table {table.name}"
    own = [inv for inv in invariants_for(game) if inv.game == game.id]
    assert [inv.factory for inv in own][:len(code.checks)] == [c.factory for c in code.checks]
    assert all(c.rule and c.summary for c in code.checks), name
    assert {p.part for p in code.kit_parts} <= {*KIT_PARTS, COUNTER_FACE}, name


@pytest.mark.parametrize("name", every_game())
def test_every_game_is_played_by_the_rules_its_code_registers_or_its_data(name, starter):
    game = game_named(name, starter)
    registered = game_code(game, "rules.session").session_rules
    if registered is not None:
        assert type(rules_for(game)) is registered
    elif game.play is not None:
        assert isinstance(rules_for(game), HexRules)
    else:
        with pytest.raises(BadInput, match="cannot be played in a session"):
            rules_for(game)


def test_each_shipped_folder_registers_on_its_own_code():
    codes = [game_code(builtin(name), "rules") for name in builtin_games()]
    assert len({id(code) for code in codes}) == len(codes)
    tables = [id(table) for code in codes for table in code.tables.values()]
    assert len(set(tables)) == len(tables)

"""verify/invariants.py: properties pass on the rules and FAIL, with a counterexample,
when a rule is deliberately broken."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner
from data_edits import edit as _edit
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule
from warpress.cli import main
from warpress.engine.loader import builtin, builtin_games, load_game
from warpress.engine.tables import lookup
from warpress.verify.invariants import Invariant, invariants_for, run


def _hits_never_exceed_two(game):
    @given(st.integers(1, 6), st.booleans())
    def check(roll, armored):
        hits = lookup(game.table("hit"), roll=roll, armored=armored)["hits"]
        assert hits <= 2, f"{hits} hits"

    return check


def _box_capacity(game):
    capacity = game.constant("capacity")  # the engine's rule, read from the data

    class Box(RuleBasedStateMachine):
        def __init__(self):
            super().__init__()
            self.units = 0

        @rule()
        def add(self):
            if self.units < capacity:  # the procedure under test refuses a full box
                self.units += 1

        @rule()
        def remove(self):
            self.units = max(0, self.units - 1)

        @invariant()
        def at_most_five(self):
            assert self.units <= 5, f"box holds {self.units} units (rule 2.1: 5)"

    return Box


def test_a_property_passes_on_the_rules(tiny_game):
    game = load_game(str(tiny_game))
    outcome = run(Invariant("tiny", "4.1", "hits 0-2", _hits_never_exceed_two), game)
    assert outcome.passed and outcome.examples > 0


def test_a_broken_table_fails_with_the_shrunk_counterexample(tiny_game):
    _edit(tiny_game, "{roll: 6, armored: yes, hits: 2}", "{roll: 6, armored: yes, hits: 3}")
    game = load_game(str(tiny_game))
    outcome = run(Invariant("tiny", "4.1", "hits 0-2", _hits_never_exceed_two), game)
    assert not outcome.passed
    assert "check(" in outcome.counterexample
    assert "roll=6" in outcome.counterexample and "armored=True" in outcome.counterexample
    assert "3 hits" in outcome.counterexample


def test_a_state_machine_passes_with_the_rule_capacity(tiny_game):
    game = load_game(str(tiny_game))
    assert run(Invariant("tiny", "2.1", "capacity", _box_capacity), game).passed


def test_a_capacity_of_six_fails_with_a_replayable_program(tiny_game):
    _edit(tiny_game, "value: 5,", "value: 6,")
    outcome = run(Invariant("tiny", "2.1", "capacity", _box_capacity), load_game(str(tiny_game)))
    assert not outcome.passed
    assert "state = Box()" in outcome.counterexample
    assert outcome.counterexample.count("state.add()") == 6
    assert "box holds 6 units" in outcome.counterexample


INIT = "from warpress.engine.registry import GameCode\n\nCODE = GameCode()\n"
CHECKS = """\
from hypothesis import given
from hypothesis import strategies as st
from warpress.engine.tables import lookup

from . import CODE


@CODE.check("4.1", "hits 0-2")
def hits_never_exceed_two(game):
    @given(st.integers(1, 6), st.booleans())
    def check(roll, armored):
        hits = lookup(game.table("hit"), roll=roll, armored=armored)["hits"]
        assert hits <= 2, f"{hits} hits"

    return check
"""


def test_cli_verify_reports_fail_and_exits_1(tiny_game):
    (tiny_game / "__init__.py").write_text(INIT, encoding="utf-8")  # the folder's CODE
    (tiny_game / "checks.py").write_text(CHECKS, encoding="utf-8")  # its own check
    ok = CliRunner().invoke(main, ["verify", str(tiny_game), "--trust"])
    assert ok.exit_code == 0, ok.output
    assert "PASS  4.1 hits 0-2" in ok.output
    _edit(tiny_game, "{roll: 6, armored: yes, hits: 2}", "{roll: 6, armored: yes, hits: 3}")
    bad = CliRunner().invoke(main, ["verify", str(tiny_game), "--trust"])
    assert bad.exit_code == 1
    assert "FAIL  4.1 hits 0-2" in bad.output and "roll=6" in bad.output


@pytest.mark.parametrize("game", ["midway", "nightfighter", "nimitz", "axis-allies"])
def test_generic_probability_invariants_pass(game):
    from warpress.engine.loader import builtin
    from warpress.verify.invariants import invariants_for

    data = builtin(game)
    for inv in invariants_for(data):
        if inv.game == "*":
            outcome = run(inv, data, examples=10)
            assert outcome.passed, outcome.counterexample or outcome.error


# --- the codes a verify line prints are the game's own --------------------------------------

#: What reads as a code in a line verify prints: an erratum (E3, C-E13), an invariant the
#: game lists (Nightfighter's I60) or a leak check (L1).
CODE = re.compile(r"\b(?:C-E|CI|I|E|W|L)\d+\b")


def undefined_codes(game, invariants=None) -> list[str]:
    """The invariants whose printed label names a code no record of the game's folder has as
    its id (the errata, or any section such as Nightfighter's ``invariants``)."""
    ids = {record.id for _key, record in game._index.items()} | {e.id for e in game.errata}
    invariants = invariants_for(game) if invariants is None else invariants
    return [f"{inv.label}: {code}" for inv in invariants
            for code in CODE.findall(inv.label) if code not in ids]


@pytest.mark.parametrize("name", builtin_games())
def test_every_code_verify_prints_is_defined_in_the_game_folder(name):
    assert undefined_codes(builtin(name)) == []


def test_a_code_the_folder_does_not_define_is_caught():
    game = builtin("midway")
    cited = Invariant(game.id, "9.4(1)", "a check citing I99 and E1", lambda g: None)
    assert undefined_codes(game, [cited]) == ["9.4(1) a check citing I99 and E1: I99"]
    nightfighter = builtin("nightfighter")
    own = Invariant(nightfighter.id, "5.0", "the player learns nothing (I60)", lambda g: None)
    assert undefined_codes(nightfighter, [own]) == []

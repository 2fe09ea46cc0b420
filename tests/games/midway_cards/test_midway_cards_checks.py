"""games/midway_cards/checks.py: the midway-cards rule invariants pass on the shipped engine
and data, and FAIL with a counterexample when a rule is deliberately broken."""

from __future__ import annotations

import shutil
from dataclasses import replace

import pytest
from warpress.engine.loader import builtin, load_game
from warpress.engine.model import FrozenDict, Game
from warpress.engine.trust import trust_folder
from warpress.games.midway_cards.rules import state as mc_state
from warpress.verify.invariants import Invariant, invariants_for, run

GAME = "midway-cards"
#: the small budget of these tests (the CLI's quick run uses 60)
EXAMPLES = 15
def _own(game: Game) -> list[Invariant]:
    return [inv for inv in invariants_for(game) if inv.game == GAME]


def _named(game: Game, name: str) -> Invariant:
    return next(inv for inv in _own(game) if inv.name == name)


def _cases():
    out = []
    for inv in _own(builtin(GAME)):
        out.append(pytest.param(inv.name, id=f"{inv.rule} {inv.name}"))
    return out


@pytest.fixture
def quick_shrink(monkeypatch):
    """Skip hypothesis's line tracing of failing examples (the 'Explanation' note): it slows
    the shrinking of a state machine several times over; the shrunk program is the same."""
    from hypothesis import core

    monkeypatch.setattr(core.StateForActualGivenExecution, "_should_trace", lambda self: False,
                        raising=False)


@pytest.mark.parametrize("name", _cases())
def test_every_invariant_passes_on_the_shipped_rules(name):
    game = builtin(GAME)
    outcome = run(_named(game, name), game, examples=EXAMPLES)
    assert outcome.passed, outcome.counterexample or outcome.error
    assert outcome.examples > 0


def test_rearming_card_leaves_with_the_last_armament_change_card():
    """12-2, CI20: re-arm in the first turn, then exchange every armament-change card taken:
    none is left in the Japanese hand, so 「兵装変更中」 leaves the table."""
    from warpress.games.midway_cards.checks import rearm_cards, rearming_problem
    from warpress.games.midway_cards.rules import attack as mc_attack

    game = builtin(GAME)
    state = mc_state.new_game(game, seed=0)
    state = mc_attack.rearm(state, game, rearm_cards(game, state, 255)[:2])
    taken = [c for c in state.japan.hand if c.startswith("ac-")]
    assert state.rearming and 0 < len(taken) <= game.constant("hand-exchange-max")
    state = mc_state.hand_exchange(state, game, taken)
    assert not any(c.startswith("ac-") for c in state.japan.hand)
    assert rearming_problem(game, state, "the exchange") == ""


def test_invariants_carry_rule_numbers_and_one_line_summaries():
    invs = _own(builtin(GAME))
    rules = {inv.rule for inv in invs}
    assert {"9", "2", "11", "3-1", "7-4", "7-1-2", "7-3", "12-4", "12-2", "8", "7", "7-1-1", "7-2",
            "10", "10-2"} <= rules
    for inv in invs:
        assert inv.summary and "\n" not in inv.summary and len(inv.label) < 100


# --- broken rules fail ----------------------------------------------------------------------


def _with_rows(game: Game, table_id: str, change) -> Game:
    """``game`` with each row of one table passed through ``change(extra) -> extra``."""
    tables = []
    for table in game.tables:
        if table.id == table_id:
            rows = tuple(replace(r, extra=FrozenDict(change(dict(r.extra)))) for r in table.rows)
            table = replace(table, rows=rows)
        tables.append(table)
    return replace(game, tables=tuple(tables))


def _with_constant(game: Game, constant_id: str, value) -> Game:
    """``game`` with one constant's value replaced."""
    constants = tuple(replace(c, value=value) if c.id == constant_id else c
                      for c in game.constants)
    return replace(game, constants=constants)


def test_mission_complete_broken_fails_with_the_level_pair():
    """7-1-2: equal levels remove both cards; a table where B vs B removes the defender
    only is caught, shrunk to that pair."""

    def break_b_b(row):
        if row["attacker"] == row["defender"] == "B":
            row["removed"] = "defender"
        return row

    game = _with_rows(builtin(GAME), "air-combat", break_b_b)
    outcome = run(_named(game, "air_combat_total"), game, examples=EXAMPLES)
    assert not outcome.passed
    assert "attacker='B'" in outcome.counterexample and "defender='B'" in outcome.counterexample
    assert "defender removed, 7-1-2 removes both" in outcome.counterexample


def test_defense_at_equal_level_broken_fails(tmp_path):
    """7-3 (C-E2): a defense card stops an attack of its own level; the other reading,
    edited into a copy of the YAML, is caught."""
    folder = tmp_path / GAME
    shutil.copytree(builtin(GAME).path, folder)
    tables = folder / "tables.yaml"
    text = tables.read_text(encoding="utf-8")
    broken = text.replace("{defense: B, attack: B, stopped: yes}",
                          "{defense: B, attack: B, stopped: no}", 1)
    assert broken != text
    tables.write_text(broken, encoding="utf-8")
    trust_folder(folder)  # a copy of the shipped folder is a folder of the user's
    game = load_game(str(folder))
    outcome = run(_named(game, "defense_total"), game, examples=EXAMPLES)
    assert not outcome.passed
    assert "defense='B'" in outcome.counterexample and "attack='B'" in outcome.counterexample


def test_base_threshold_out_of_step_fails_the_victory_rule():
    """11 / 12-4: with the victory rule's threshold at 10 while the base-status table says
    大破 from 20, a Japanese win with the base intact is found."""
    game = _with_constant(builtin(GAME), "base-heavy-damage", 10)
    outcome = run(_named(game, "one_outcome"), game, examples=60)
    assert not outcome.passed
    assert "Japanese win with base damage 1" in outcome.counterexample
    assert "intact" in outcome.counterexample


def test_hand_adjustment_one_short_fails_with_a_replayable_program(monkeypatch, quick_shrink):
    """9: a hand adjustment that refills to one below the limit is caught by the state
    machine, with the program that shows it."""
    real = mc_state.adjustment

    def one_short(hand, limit, refill, deck_left=None):
        draw, discard = real(hand, limit, refill, deck_left)
        return max(0, draw - 1), discard

    monkeypatch.setattr(mc_state, "adjustment", one_short)
    game = builtin(GAME)
    outcome = run(_named(game, "machine_hand_limit"), game, examples=EXAMPLES)
    assert not outcome.passed
    assert "state = MidwayCards_hand_limit()" in outcome.counterexample
    assert "state.adjust(" in outcome.counterexample
    assert "cards after adjustment, the limit is 6" in outcome.counterexample


def test_game_end_one_turn_early_fails_the_c_e13_ruling(quick_shrink):
    """11 (C-E13 reading A): after a second deck runs out in P's turn the game ends after
    P's next turn; ending one turn earlier (reading B) is caught."""
    game = _with_constant(builtin(GAME), "turns-after-second-deck-out", 1)
    outcome = run(_named(game, "machine_decks"), game, examples=EXAMPLES)
    assert not outcome.passed
    assert "state = MidwayCards_decks()" in outcome.counterexample
    assert "C-E13 reading A" in outcome.counterexample

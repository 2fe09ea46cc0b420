"""games/nightfighter/checks.py: every invariant passes on the shipped engine and data, and a
deliberately broken rule (edited data or one monkeypatched engine function) makes ``run``
report FAIL with a shrunk counterexample."""

from __future__ import annotations

import shutil
from dataclasses import replace

import pytest
from data_edits import loaded
from hypothesis import Phase, settings
from warpress.engine.loader import builtin
from warpress.engine.trust import trust_folder
from warpress.games.nightfighter.rules import combat, movement, searchlights, state
from warpress.verify.invariants import invariants_for, run

EXAMPLES = 15  # per broken-rule proof
PASSING = 5  # per invariant, for every one that must pass


@pytest.fixture(scope="module")
def game():
    return builtin("nightfighter")


@pytest.fixture(autouse=True, scope="module")
def without_explain_phase():
    """Shrunk counterexamples without hypothesis' explain phase, which replays a failing state
    machine hundreds of times (seconds per proof); ``run`` inherits the loaded profile."""
    previous = settings.get_current_profile_name()
    settings.register_profile("nightfighter-invariant-tests",
                              phases=[p for p in Phase if p is not Phase.explain])
    settings.load_profile("nightfighter-invariant-tests")
    yield
    settings.load_profile(previous)


def find(game, rule: str, name: str):
    """The invariant registered under ``rule`` by the factory called ``name``."""
    found = [i for i in invariants_for(game) if i.rule == rule and i.name == name]
    assert len(found) == 1, [(i.rule, i.name) for i in invariants_for(game)]
    return found[0]


def broken_game(tmp_path, file: str, old: str, new: str):
    """A copy of the nightfighter data with one text edit in ``file``."""
    folder = tmp_path / "nightfighter"
    shutil.copytree(builtin("nightfighter").path, folder)
    path = folder / file
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {file}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    trust_folder(folder)  # a copy of the shipped folder is a folder of the user's
    return loaded(folder)  # as an invariant meets it, whatever the data checks say


def test_the_nightfighter_invariants_are_registered_with_rule_numbers(game):
    rules = {i.rule for i in invariants_for(game) if i.game == "nightfighter"}
    assert {"11.0", "7.2", "14.2.2", "9.2", "3.3", "19.1.1", "5.0"} <= rules
    assert all(i.summary for i in invariants_for(game))


def test_every_invariant_passes_on_the_shipped_engine_and_data(game):
    for inv in invariants_for(game):
        if inv.game != "nightfighter":
            continue
        outcome = run(inv, game, examples=PASSING)
        assert outcome.passed, f"{inv.label}\n{outcome.counterexample}\n{outcome.error}"


def test_a_combat_row_of_five_hits_fails_the_0_to_4_rule(game, tmp_path):
    bad = broken_game(tmp_path, "tables.yaml", '{roll: "13+", hits: 4}', '{roll: "13+", hits: 5}')
    outcome = run(find(game, "11.0", "hits_zero_to_four"), bad, examples=EXAMPLES)
    assert not outcome.passed
    assert "check(" in outcome.counterexample
    assert "5 hits (rule 11.0: 0-4)" in outcome.counterexample


def test_a_combat_table_that_drops_at_12_fails_monotonicity(game, tmp_path):
    bad = broken_game(tmp_path, "tables.yaml", "{roll: 12, hits: 3}", "{roll: 12, hits: 1}")
    outcome = run(find(game, "11.0", "hits_monotone_in_fp"), bad, examples=EXAMPLES)
    assert not outcome.passed
    assert "check(" in outcome.counterexample and "fp=" in outcome.counterexample
    assert "hits" in outcome.counterexample


def test_a_visibility_table_with_a_hole_fails_totality(game, tmp_path):
    bad = broken_game(tmp_path, "tables.yaml", '{roll: "10+", visibility: good',
                      '{roll: "10-11", visibility: good')
    outcome = run(find(game, "3.3", "environment_total"), bad, examples=EXAMPLES)
    assert not outcome.passed
    assert "vis=12" in outcome.counterexample


def test_a_dive_worth_two_mp_fails_the_fighter_mp_machine(game, tmp_path):
    bad = broken_game(tmp_path, "constants.yaml", "{id: dive-bonus-mp, name: Extra MP when "
                      "diving, name_ja: 降下, value: 1,", "{id: dive-bonus-mp, name: Extra MP "
                      "when diving, name_ja: 降下, value: 2,")
    outcome = run(find(game, "9.1", "fighter_mp"), bad, examples=EXAMPLES)
    assert not outcome.passed
    assert "state = Spend()" in outcome.counterexample
    assert "state.fly(" in outcome.counterexample
    assert "a diving" in outcome.counterexample or "spent" in outcome.counterexample


def test_turns_of_120_degrees_fail_the_turning_machine(game, monkeypatch):
    honest = movement.check_fighter_plan

    def sharp(game, hex_id, facing, plan, **kw):
        """The broken rule: every turn is 120 degrees."""
        move = honest(game, hex_id, facing, plan, **kw)
        spun = (move.facing - facing) % 6
        return replace(move, facing=(facing + 2 * spun) % 6)

    monkeypatch.setattr(movement, "check_fighter_plan", sharp)
    outcome = run(find(game, "9.2", "fighter_turns"), game, examples=EXAMPLES)
    assert not outcome.passed
    assert "state = Turns()" in outcome.counterexample
    assert "a 120 turn" in outcome.counterexample or "-120 turn" in outcome.counterexample


def test_a_corkscrew_two_columns_wide_fails_the_column_machine(game, monkeypatch):
    honest = movement.corkscrew_hex

    def wide(game, night, bomber, direction):
        """The broken rule: a corkscrew slides two hexes sideways."""
        first = honest(game, night, bomber, direction)
        if first == bomber.hex:
            return first
        return honest(game, night, replace(bomber, hex=first), direction)

    monkeypatch.setattr(movement, "corkscrew_hex", wide)
    monkeypatch.setattr(combat, "corkscrew_hex", wide)
    outcome = run(find(game, "7.2", "bomber_keeps_column"), game, examples=EXAMPLES)
    assert not outcome.passed
    assert "state = Column()" in outcome.counterexample
    assert "columns in one event" in outcome.counterexample


def test_a_view_that_shows_every_bomber_fails_blind_play(game, monkeypatch):
    honest = state.player_view

    def leaky(night):
        """The broken rule: every bomber on the map gets a marker."""
        view = honest(night)
        shown = tuple(state.BomberMarker("leak", b.hex, b.facing)
                      for b in night.on_map_bombers())
        return replace(view, markers=view.markers + shown)

    monkeypatch.setattr(state, "player_view", leaky)
    outcome = run(find(game, "5.0", "player_view_blind"), game, examples=EXAMPLES)
    assert not outcome.passed
    assert "hidden_a=" in outcome.counterexample
    assert "unfound bombers" in outcome.counterexample


def test_a_destroyed_bomber_left_on_the_map_fails_the_exchange(game, monkeypatch):
    monkeypatch.setattr(combat, "remove_bomber", lambda night, bomber, status: night)
    outcome = run(find(game, "11.0", "exchange_hits"), game, examples=EXAMPLES)
    assert not outcome.passed
    assert "Draw 1 (fighter)" in outcome.counterexample
    assert "after an exchange with destroyed=True" in outcome.counterexample


def test_searchlights_that_ignore_a_capture_fail_one_capture_per_zone(game, monkeypatch):
    honest = searchlights.search_dice_for_zone

    def careless(game, night, zone, **kw):
        """The broken rule: a zone searches again although it holds a capture."""
        return honest(game, replace(night, captures=()), zone, **kw)

    monkeypatch.setattr(searchlights, "search_dice_for_zone", careless)
    outcome = run(find(game, "14.2.2", "one_capture_per_zone"), game, examples=EXAMPLES)
    assert not outcome.passed
    assert "state = Captures()" in outcome.counterexample
    assert "state.turn(" in outcome.counterexample
    assert "after searchlight: captures" in outcome.counterexample

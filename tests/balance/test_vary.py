"""Parameter sweeps and restricted play (balance/vary.py)."""

from __future__ import annotations

import pytest
from warpress.balance.vary import apply_edit, parse_vary, restrict, restricted_variants
from warpress.engine.dice import GivenDice, SeededDice
from warpress.engine.errors import BadInput
from warpress.engine.loader import builtin, load_game
from warpress.engine.play.game import HexRules
from warpress.engine.rulesets import rules_for
from warpress.starter.new import new_game

RULES = HexRules()


@pytest.fixture(scope="module")
def starter(tmp_path_factory):
    return load_game(str(new_game(str(tmp_path_factory.mktemp("vary") / "starter")).folder))


def test_ranges_and_lists_parse(starter):
    assert parse_vary("unit.n4.attack=4..8:2", starter).values == (4, 6, 8)
    assert parse_vary("unit.n4.attack=3,5", starter).values == (3, 5)
    assert parse_vary("setup.n4=0503,0604", starter).values == ("0503", "0604")
    assert parse_vary("table.crt.3.2-1=EX,DR", starter).values == ("EX", "DR")
    assert parse_vary("stacking.per-hex.limit=1..3", starter).values == (1, 2, 3)


@pytest.mark.parametrize("text, message", [
    ("unit.n4.attack", "expected KEY=RANGE"),
    ("unit.n4.attack=8..4", "is empty"),
    ("unit.n4.attack=a..b", "does not parse"),
    ("unit.n4.attack=4,,5", "empty value"),
    ("unit.n4.attack=four", "'four' is not a number"),
    ("unit.n9.attack=1..2", "no units record 'n9'"),
    ("unit.n4.luck=1..2", "has no stat 'luck'"),
    ("table.crt.9.2-1=EX", "no row '9'"),
    ("table.crt.3.9-1=EX", "no column '9-1'"),
    ("table.crt.3.2-1=XX", "'XX' is no result code"),
    ("setup.n4=9999", "'9999' is no hex of the map"),
    ("setup.n4=0503..0604", "list the values"),
    ("weather.x=1", "expected constant.ID"),
    ("unit.n4.attack=1..100", "at most 50"),
])
def test_bad_sweeps_are_refused_quoting_the_input(starter, text, message):
    with pytest.raises(BadInput, match=message):
        parse_vary(text, starter)


def test_an_edit_changes_the_game_a_session_plays(starter):
    stronger = apply_edit(starter, "unit.n4.attack", 9)
    assert next(u for u in stronger.units if u.id == "n4").stats["attack"] == 9
    assert next(u for u in starter.units if u.id == "n4").stats["attack"] == 6
    moved = apply_edit(starter, "setup.n4", "0604")
    assert RULES.new(moved, None, GivenDice([1])).state.piece("n4").place == "0604"
    table = apply_edit(starter, "table.crt.1.1-2", "DE").table("crt")
    assert table.crt.grid["1"][0] == "DE"
    assert any(row for row in table.rows), "the CRT's rows follow its grid"


def test_restricted_play_removes_or_weakens_a_unit(starter):
    start = RULES.new(starter, None, GivenDice([1])).state
    variants = restricted_variants(starter, [start])
    assert ("remove", "n4") in variants and ("weaken", "n4") in variants
    assert ("weaken", "s5") not in variants, "a one-step unit has no step to lose"
    assert restrict("remove", "n4")(start).piece("n4").kind == "removed"
    assert restrict("weaken", "n4")(start).piece("n4").step == 1


def test_restricted_play_of_a_game_on_areas_whose_lost_units_leave():
    """Axis & Allies: its units stand in areas (one variant for pieces alike), and a unit
    removed leaves the position with what it carries, as a unit lost does: the game's own
    invariants hold at the restricted start."""
    game = builtin("axis-allies")
    rules = rules_for(game)
    start = rules.new(game, rules.load_scenario(game, None), SeededDice(1)).state
    variants = restricted_variants(game, [start])
    removed = {piece for kind, piece in variants if kind == "remove"}
    alike = [p.id for p in start.pieces if (p.unit, p.side, p.place) == ("infantry", "russia",
                                                                         "russia")]
    assert len(alike) > 1 and len(removed & set(alike)) == 1
    carrier = next(p for p in start.pieces if p.unit == "carrier" and any(
        q.props.get("aboard") == p.id for q in start.pieces))
    assert carrier.id in removed
    after = restrict("remove", carrier.id, leaves=rules.pieces_leave)(start)
    assert not after.has(carrier.id)
    assert not any(q.props.get("aboard") == carrier.id for q in after.pieces)
    assert rules.broken(game, None, None, after) == []
    assert rules.broken(game, None, None, restrict("remove", carrier.id)(start)) != []


def test_a_piece_the_set_up_draws_at_random_is_no_restricted_variant():
    """Nightfighter draws the bomber stream for each night: a bomber of one game's set-up
    is missing from the next, so only the pieces every set-up places alike are varied."""
    game = builtin("nightfighter")
    rules = rules_for(game)
    scenario = rules.load_scenario(game, None)
    starts = [rules.new(game, scenario, SeededDice(seed)).state for seed in (1, 2, 3)]
    drawn = {p.id for p in starts[0].pieces} ^ {p.id for s in starts[1:] for p in s.pieces}
    assert drawn, "the nights draw different bombers"
    varied = {piece for _kind, piece in restricted_variants(game, starts)}
    assert varied and not varied & drawn
    assert varied <= {p.id for p in starts[0].pieces if p.side == "defender"}

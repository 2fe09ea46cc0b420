"""games/axis_allies/checks.py: every invariant (I1-I21) passes; broken rules (an NPL win outside
the round end, a bigger attacker faring worse, an AA gun hitting a tank, casualties beyond the
hits, placement at a factory bought this turn) FAIL with a counterexample."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from warpress.engine.loader import builtin
from warpress.games.axis_allies.rules import board
from warpress.verify.invariants import invariants_for, run


def _victory(game):
    return next(i for i in invariants_for(game) if i.name == "victory_outcomes")


def test_victory_outcomes_pass():
    game = builtin("axis-allies")
    outcome = run(_victory(game), game, examples=80)
    assert outcome.passed, outcome.counterexample or outcome.error


def test_an_npl_victory_outside_the_round_end_fails(monkeypatch):
    game = builtin("axis-allies")
    real = board.victory_check

    def any_time(game, axis_lost, allied_lost, npl, round_end):
        return real(game, axis_lost, allied_lost, npl, True)

    monkeypatch.setattr(board, "victory_check", any_time)
    outcome = run(_victory(game), game, examples=200)
    assert not outcome.passed
    assert "round_end=False" in outcome.counterexample


def test_battle_odds_invariant_fails_when_a_bigger_attacker_fares_worse(monkeypatch):
    game = builtin("axis-allies")
    inv = next(i for i in invariants_for(game) if i.name == "battle_odds")
    assert run(inv, game, examples=10).passed

    from warpress.games.axis_allies import checks as va

    real = va._battle

    def broken(game, attacker, defender):  # a side gets worse the more it brings
        odds = real(game, attacker, defender)
        if sum(attacker.values()) > 2:
            odds = dict(odds, attacker_wins=odds["attacker_wins"] / 2,
                        defender_wins=odds["defender_wins"] + odds["attacker_wins"] / 2)
        return odds

    monkeypatch.setattr(va, "_battle", broken)
    outcome = run(inv, game, examples=60)
    assert not outcome.passed
    assert "lowers attacker_wins" in outcome.counterexample


# ------------------------------------------------------------------------ invariants I1-I21

NEW = ("combat_dice", "expected_hits", "dice_per_round", "casualties", "aa_fire",
       "sub_first_strike", "battle_end", "battle_conservation", "sub_withdrawal",
       "noncombat_movement", "blitz", "placement", "placement_limit", "one_aa_gun", "income",
       "purchase_cost", "weapons_development", "turn_order")


def _named(game, name):
    return next(i for i in invariants_for(game) if i.name == name)


def test_every_invariant_names_a_rule_and_no_code_the_folder_lacks():
    """Each is registered under its rule; its printed summary cites errata by id (E5) and
    no invariant code the game folder does not define."""
    game = builtin("axis-allies")
    for name in NEW:
        inv = _named(game, name)
        assert inv.rule and inv.summary, inv.label
        assert not re.search(r"\b(I|W)\d+\b", inv.summary), inv.label


@pytest.mark.parametrize("name", NEW)
def test_digest_invariant_passes(name):
    game = builtin("axis-allies")
    outcome = run(_named(game, name), game, examples=40)
    assert outcome.passed, outcome.counterexample or outcome.error


def test_an_aa_gun_that_can_hit_a_tank_fails(monkeypatch):
    game = builtin("axis-allies")
    from warpress.games.axis_allies.rules import battle as B

    real = B.aa_fire

    def hits_ground_units(game, spec, state, dice):  # each AA hit takes a land unit first
        out = real(game, spec, state, dice)
        attacker = list(state.attacker)
        for plane in out.aa_destroyed:
            ground = [t for t in attacker if t not in ("fighter", "bomber")]
            attacker.remove(ground[0] if ground else plane)
        return replace(out, attacker=tuple(attacker))

    monkeypatch.setattr(B, "aa_fire", hits_ground_units)
    outcome = run(_named(game, "aa_fire"), game, examples=200)
    assert not outcome.passed
    assert "AA fire removes" in outcome.counterexample
    assert "aa_rolls" in outcome.counterexample  # the shrunk rolls are shown


def test_casualties_beyond_the_hits_fail(monkeypatch):
    game = builtin("axis-allies")
    from warpress.games.axis_allies.rules import battle as B

    real = B.combat_round

    def one_too_many(game, spec, state, dice):  # the defender loses one unit more than hit
        out = real(game, spec, state, dice)
        return replace(out, defender=out.defender[1:])

    monkeypatch.setattr(B, "combat_round", one_too_many)
    outcome = run(_named(game, "casualties"), game, examples=60)
    assert not outcome.passed
    assert "hits on" in outcome.counterexample and "attacker_rolls" in outcome.counterexample


def test_placing_at_a_factory_bought_this_turn_fails(monkeypatch):
    game = builtin("axis-allies")
    real = board._factory_usable

    def ignores_new_factories(game, power, site, control, built, captured):
        return real(game, power, site, control, (), captured)

    monkeypatch.setattr(board, "_factory_usable", ignores_new_factories)
    outcome = run(_named(game, "placement"), game, examples=300)
    assert not outcome.passed
    assert "(built): ['" in outcome.counterexample  # the shrunk case: a factory bought this turn
    assert "engine: accepted" in outcome.counterexample

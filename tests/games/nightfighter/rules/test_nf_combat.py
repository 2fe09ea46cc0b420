"""Attacks, reactions, corkscrews with following, shoot-down effects, flak over a night."""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction

import pytest
from nf_helpers import bomber, fighter, night
from warpress.engine.dice import GivenDice, distribution, monte_carlo
from warpress.engine.errors import RuleViolation
from warpress.games.nightfighter.rules import combat, phases
from warpress.games.nightfighter.rules.common import grid


def duel(**kw):
    """Fighter 204 (Bf110G-4, FP 3) sighting Lancaster 102 in 0712, both facing S."""
    b = bomber("102", "0712", **kw.pop("b", {}))
    f = fighter("204", "0712", **{"sighting": "102", **kw.pop("f", {})})
    return night([b], [f], **kw)


def test_attack_without_reaction_then_second_chance_reaction(game):
    dice = GivenDice({"reaction": [1, 1], "roll": 8})
    after, report = combat.resolve_attack(game, duel(), "204", "102", dice)
    assert report.reaction == "none" and report.fp == 3 and report.hits == 2
    assert report.after == "none"
    b = after.bomber("102")
    assert b.hits == 2 and b.alert and not report.destroyed
    assert after.fighter("204").attacked


def test_reaction_after_the_attack_uses_the_alert_column(game):
    dice = GivenDice({"reaction": [1, 4], "reaction_effect": 3, "roll": 2,
                      "defensive_fire": 10})
    after, report = combat.resolve_attack(game, duel(), "204", "102", dice)
    assert report.after == "return-fire" and report.defensive_hits == 3
    assert after.fighter("204").status == "destroyed"


def test_defensive_fire_hit_aborts_the_attack(game):
    dice = GivenDice({"reaction": 6, "reaction_effect": 3, "defensive_fire": 8})
    after, report = combat.resolve_attack(game, duel(), "204", "102", dice)
    assert report.reaction == "return-fire" and report.defensive_hits == 1
    assert report.aborted and report.fp is None
    assert after.fighter("204").hits == 1 and after.bomber("102").alert


def test_defensive_fire_miss_then_attack(game):
    dice = GivenDice({"reaction": 6, "reaction_effect": 4, "defensive_fire": 2, "roll": 8})
    after, report = combat.resolve_attack(game, duel(), "204", "102", dice)
    assert not report.aborted and report.hits == 2 and report.after is None


def test_corkscrew_loses_the_bomber_for_everyone(game):
    n = duel(captures=(("B", "102"),))
    n = replace(n, fighters=(*n.fighters, fighter("205", "0714", ai_contact="102")))
    dice = GivenDice({"reaction": 6, "reaction_effect": 1, "defensive_fire": 2, "corkscrew": 5})
    after, report = combat.resolve_attack(game, n, "204", "102", dice)
    assert report.reaction == "corkscrew" and report.corkscrew == "right"
    assert report.fp is None
    assert after.captures == ()
    assert after.fighter("204").sighting is None and after.fighter("205").ai_contact is None
    moved = after.bomber("102").hex
    assert moved != "0712" and grid(game).distance(moved, "0712") == 1
    assert after.bomber("102").alert


def test_following_into_the_right_hex_attacks_at_fp_0(game):
    dice = GivenDice({"reaction": 6, "reaction_effect": 1, "defensive_fire": 2,
                      "corkscrew": 5, "roll": 9})
    probe = combat.resolve_attack(game, duel(), "204", "102", GivenDice(
        {"reaction": 6, "reaction_effect": 1, "defensive_fire": 2, "corkscrew": 5}))[0]
    target = probe.bomber("102").hex
    expert = duel(f={"expert": True})
    after, report = combat.resolve_attack(game, expert, "204", "102", dice, follow=target)
    assert after.fighter("204").hex == target
    assert report.fp == 2 and report.hits == 2
    assert after.fighter("204").sighting == "102" and after.fighter("204").attacked


def test_following_into_the_wrong_hex_no_attack(game):
    dice = GivenDice({"reaction": 6, "reaction_effect": 1, "defensive_fire": 2, "corkscrew": 3})
    wrong = combat.follow_hexes(game, duel().bomber("102"))[0]
    after, report = combat.resolve_attack(game, duel(), "204", "102", dice, follow=wrong)
    f = after.fighter("204")
    assert report.corkscrew == "forward" and after.bomber("102").hex == "0712"
    assert f.hex == wrong != "0712" and f.sighting is None and report.fp is None


def test_follow_hex_must_be_one_of_three(game):
    dice = GivenDice({"reaction": 6, "reaction_effect": 1, "defensive_fire": 2, "corkscrew": 3})
    with pytest.raises(RuleViolation, match="17.4.3"):
        combat.resolve_attack(game, duel(), "204", "102", dice, follow="0715")


def test_oblique_attack_corkscrew_means_no_attack(game):
    n = duel(f={"unit": "ju88g-1-g-6"})
    dice = GivenDice({"reaction": 6, "reaction_effect": 1, "defensive_fire": 2,
                      "corkscrew": 3})
    after, report = combat.resolve_attack(game, n, "204", "102", dice, oblique=True,
                                          illuminated=True, follow="0712")
    assert report.reaction == "corkscrew" and report.fp is None
    assert after.fighter("204").sighting is None
    dice = GivenDice({"reaction": 6, "reaction_effect": 1, "defensive_fire": 2, "roll": 7})
    after, report = combat.resolve_attack(game, n, "204", "102", dice, oblique=True)
    assert report.reaction == "return-fire" and report.fp == 3 and report.hits == 1


def test_oblique_guns_need_oblique_fp(game):
    with pytest.raises(RuleViolation, match="20.0"):
        combat.resolve_attack(game, duel(), "204", "102",
                              GivenDice({"reaction": 1}), oblique=True)


@pytest.mark.parametrize("change,rule", [
    ({"f": {"hex": "0713"}}, "11.0"),
    ({"f": {"facing": 0}}, "11.0"),
    ({"f": {"sighting": None}}, "11.0"),
    ({"f": {"attacked": True}}, "11.0"),
    ({"f": {"dives_left": 1}}, "18.0"),
])
def test_attack_requirements(game, change, rule):
    n = duel(**change)
    with pytest.raises(RuleViolation, match=rule.replace(".", r"\.")):
        combat.check_attack(game, n, n.fighter("204"), n.bomber("102"))


def test_reaction_needs_same_hex_and_facing(game):
    n = duel(f={"facing": 2})
    with pytest.raises(RuleViolation, match="17.4"):
        combat.resolve_attack(game, n, "204", "102", GivenDice({}), attack=False)


def test_reaction_without_attack_held_fire(game):
    dice = GivenDice({"reaction": 6, "reaction_effect": 2, "defensive_fire": 2})
    after, report = combat.resolve_attack(game, duel(), "204", "102", dice, attack=False)
    assert report.reaction == "return-fire" and report.fp is None


def test_flash_dazzles_for_the_rolled_turns(game):
    dice = GivenDice({"reaction": 1, "roll": 12, "shootdown": 2, "flash": 6})
    after, report = combat.resolve_attack(game, duel(b={"damage": 1}), "204", "102", dice)
    f = after.fighter("204")
    assert report.shootdown == "flash" and f.dazzled(7) and not f.dazzled(8)
    assert after.bomber("102").status == "destroyed"


def test_evade_moves_and_faces_away(game):
    dice = GivenDice({"reaction": 1, "roll": 12, "shootdown": 1, "evade": 3})
    after, report = combat.resolve_attack(game, duel(b={"damage": 1}), "204", "102", dice,
                                          )
    f = after.fighter("204")
    assert report.evade == "evade" and f.hex == "0713" and f.facing == 3
    assert f.evaded_turn == 1


def test_oblique_kill_never_evades(game):
    n = duel(b={"damage": 1}, f={"unit": "ju88g-1-g-6"})
    dice = GivenDice({"reaction": 1, "roll": 12, "shootdown": 1, "evade": 4})
    after, report = combat.resolve_attack(game, n, "204", "102", dice, oblique=True)
    assert report.evade == "none" and after.fighter("204").hex == "0712"
    dice = GivenDice({"reaction": 1, "roll": 12, "shootdown": 1, "evade": 1, "collision": 12})
    after, report = combat.resolve_attack(game, n, "204", "102", dice, oblique=True)
    assert report.collision_hits == 3


def test_attack_fp_modifiers(game):
    assert combat.attack_fp(game, 5, corkscrewed=True) == 0
    assert combat.attack_fp(game, 5, corkscrewed=True, green=True) == -1
    assert combat.attack_fp(game, 3, oblique=True, alert_target=True, alert_rule=True) == 0
    assert combat.attack_fp(game, 3, oblique=True, unfavourable=True) == -2
    assert combat.collision_fp(game) == 2 and combat.collision_fp(game, oblique=True) == 0


def test_boozer_warns_only_against_bc_and_sn2b(game):
    b = bomber(equipment=frozenset({"boozer"}))
    assert combat.has_warning(game, b, fighter(unit="ju88g-1-g-6"))
    assert not combat.has_warning(game, b, fighter(unit="he219a"))
    assert combat.has_warning(game, bomber(equipment=frozenset({"monica"})), fighter())


def test_hits_distribution_exact(game):
    dist = combat.hits_distribution(game, 3)
    assert sum(dist.values()) == 1 and dist[4] == Fraction(1, 6)


def test_reaction_chain_exact_against_monte_carlo(game):
    def chain(dice):
        return combat._reaction(game, dice, bomber(), fighter(), attack=True, oblique=False,
                                illuminated=False, alerted=True)

    exact = distribution(chain)
    assert exact["none"] == Fraction(1, 2) + Fraction(1, 2) * Fraction(1, 3)
    n = 20000
    seen = monte_carlo(chain, n, seed=3)
    for key, p in exact.items():
        se = math.sqrt(float(p) * (1 - float(p)) / n)
        assert abs(seen.get(key, 0.0) - float(p)) <= 4 * se


# --- flak over a night -----------------------------------------------------------------------


def test_flak_phase_hits_fighters_in_zones(game):
    n = night([bomber("102", "0305")],
              [fighter("204", "0305", damage=2), fighter("205", "1520")], zones=("A",),
              flak=True)
    after, report = phases.flak_phase(game, n, GivenDice({"check": 12, "rolls": [4, 4, 1, 2]}))
    assert report.hits == (("204", 2),) and report.rolls == (4, 4, 1, 2)
    assert after.fighter("204").status == "destroyed"
    assert after.bomber("102").hits == 0


def test_flak_phase_no_roll_without_exposed_fighters(game):
    n = night([], [fighter("204", "1520")], zones=("A",), flak=True)
    assert phases.flak_phase(game, n, GivenDice({}))[1].check is None
    assert phases.flak_phase(game, replace(n, flak=False), GivenDice({}))[1].check is None


def test_flak_phase_task_force_eight_dice(game):
    n = night([], [fighter("204", "0922")], zones=("N",), task_force=True)
    after, report = phases.flak_phase(game, n, GivenDice({"check": 12, "rolls": [4] * 8}))
    assert report.task_force_rolls == (4,) * 8 and report.rolls == ()
    assert report.hits == (("204", 8),)


def test_full_moon_or_flare_zone_lights_the_reaction(game):
    from warpress.games.nightfighter.rules.detection import environment

    n = duel()
    assert not combat.lit_for_reaction(game, n, n.bomber("102"))
    full = replace(n, env=environment(game, "full", "good"))
    assert combat.lit_for_reaction(game, full, full.bomber("102"))
    flare = replace(n, flare_zones=("B",), bombers=(replace(n.bomber("102"), hex="0905"),))
    assert combat.lit_for_reaction(game, flare, flare.bomber("102"))
    dice = GivenDice({"reaction": 6, "reaction_effect": 3, "defensive_fire": 2, "corkscrew": 3})
    moved = full.with_fighter(replace(full.fighter("204")))
    after, report = combat.resolve_attack(game, moved, "204", "102", dice)
    assert report.reaction == "corkscrew"

"""Whole turns of a night from seeded dice: the steps compose and the invariants hold."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st
from nf_helpers import bomber, fighter, night
from warpress.engine.dice import SeededDice
from warpress.engine.errors import RuleViolation
from warpress.engine.loader import builtin
from warpress.games.nightfighter.rules import (
    combat,
    detection,
    movement,
    phases,
    radars,
    searchlights,
)
from warpress.games.nightfighter.rules.common import grid
from warpress.games.nightfighter.rules.state import player_view

GAME = builtin("nightfighter")
PLANS = ("FF", "FFF", "FRF", "FLF", "FFR", "FFL")


def start_night() -> tuple:
    bombers = [bomber(i, None, status="pool", mp=mp, equipment=kit)
               for i, mp, kit in (("101", "2*", frozenset({"monica"})), ("112", "2", frozenset()),
                                  ("123", "3", frozenset()), ("134", "2*", frozenset()),
                                  ("145", "2", frozenset({"boozer"})), ("156", "3*", frozenset()))]
    fighters = [fighter("204", "0608", facing=3), fighter("215", "1108", facing=3),
                fighter("226", "0910", facing=3, expert=True)]
    env = detection.environment(GAME, "half", "good")
    return night(bombers, fighters, env=env, zones=("A", "B", "D", "F"), flak=True)


def check_invariants(n) -> None:
    g = grid(GAME)
    hexes = [b.hex for b in n.on_map_bombers()]
    assert all(h in g for h in hexes)
    assert all(b.facing == movement.bomber_facing(GAME) for b in n.on_map_bombers())
    zones = [z for z, _ in n.captures]
    assert len(zones) == len(set(zones))
    for f in n.fighters:
        if f.on_map:
            assert f.hex in g
        for target in (f.sighting, f.ai_contact):
            if target is not None:
                assert n.bomber(target).on_map
    view = player_view(n)
    for marker in view.markers:
        assert marker.hex in hexes


def play_turn(n, dice):
    n = phases.bomber_movement(GAME, n, dice, hand_offs=frozenset(b.id for b in n.bombers))
    check_invariants(n)
    n = phases.bomber_entry(GAME, n, dice, 1 if n.turn % 2 else 3)
    check_invariants(n)
    for f in n.fighters:
        if not f.on_map:
            continue
        for i in range(len(PLANS)):
            plan = PLANS[(dice.roll("d6", "plan") + i) % len(PLANS)]
            try:
                n = movement.move_fighter(GAME, n, f.id, plan)
                break
            except RuleViolation:
                continue
    check_invariants(n)
    n, _ = phases.flak_phase(GAME, n, dice)
    n = radars.radar_search(GAME, n, [("freya", "0912"), ("wurzburg", "0615")])
    n = radars.ai_search(GAME, n, dice=dice)
    check_invariants(n)
    for zone in n.zones:
        if any(z == zone for z, _ in n.captures):
            continue
        n = searchlights.searchlight_search(GAME, n, zone, dice)
    check_invariants(n)
    n = detection.maintain_sightings(GAME, n, dice)
    roll = detection.general_sighting(GAME, n, dice)
    keep = {}
    for bomber_id, keepers in roll.sighted:
        for f in keepers:
            if f not in keep and n.fighter(f).sighting is None:
                keep[f] = bomber_id
                break
    n = detection.keep_sightings(GAME, n, roll, keep, dice)
    check_invariants(n)
    for f in n.fighters:
        f = n.fighter(f.id)
        if f.on_map and f.sighting and n.bomber(f.sighting).on_map:
            b = n.bomber(f.sighting)
            if b.hex == f.hex and b.facing == f.facing:
                n, _ = combat.resolve_attack(GAME, n, f.id, b.id, dice)
                check_invariants(n)
    return phases.end_turn(n)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_a_night_of_six_turns_keeps_the_invariants(seed):
    dice = SeededDice(seed)
    n = start_night()
    for _ in range(6):
        n = play_turn(n, dice)
    assert n.turn == 7
    replay = start_night()
    again = SeededDice(seed)
    for _ in range(6):
        replay = play_turn(replay, again)
    assert replay == n


def test_alert_status_never_reverts():
    dice = SeededDice(5)
    n = start_night()
    alert = set()
    for _ in range(6):
        n = play_turn(n, dice)
        now = {b.id for b in n.bombers if b.alert}
        assert alert <= now
        alert = now


def test_fighter_that_left_never_returns():
    n = night(fighters=[fighter("204", "0101", facing=0)])
    n = movement.move_fighter(GAME, n, "204", "F")
    assert n.fighter("204").status == "off-map"
    n = phases.end_turn(n)
    assert replace(n).fighter("204").hex is None

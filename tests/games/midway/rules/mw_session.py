"""Helpers of the Midway session tests: commands applied as a session applies them, whole
games watched step by step with the whole-game invariants and Midway's own (the digest's
I1-I36 that a position can show)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import pytest
from warpress.engine.agents import RandomAgent, playout, random_answer
from warpress.engine.dice import SeededDice, derived_seed
from warpress.engine.errors import RuleViolation
from warpress.engine.model import FrozenDict
from warpress.engine.position import Position
from warpress.games.midway.rules import area as A
from warpress.games.midway.rules import flow
from warpress.games.midway.rules import session as ses
from warpress.games.midway.rules.common import const, midway_hex
from warpress.games.midway.rules.moves import Run, groups_in_air, side_of
from warpress.games.midway.rules.positions import (
    AOP,
    FLEETS,
    ICHIKOKAN,
    INVASION,
    US_FLEET,
    hand,
    moved_fleet,
    pile,
    to_area,
    with_area,
    with_data,
)
from warpress.verify.whole import broken

RULES = ses.MidwayRules()
SIDES = ("japan", "us")


def start(game, scenario, seed=1):
    """The position after set-up (and whatever follows by itself)."""
    return RULES.new(game, scenario, SeededDice(seed)).state


def apply(game, position, *commands, dice=None):
    """Each ``(name, args)`` in turn, as a session applies them; the last position and every
    announcement's text."""
    said = []
    for n, (name, args) in enumerate(commands, 1):
        step = RULES.apply(game, position, name, dict(args), dice or SeededDice(n))
        position = step.state
        said += [a.text for a in step.announcements]
    return position, said


def refusal(game, position, name, args=None, dice=None) -> RuleViolation:
    """The RuleViolation a command meets (the test fails if it is accepted)."""
    with pytest.raises(RuleViolation) as caught:
        RULES.apply(game, position, name, dict(args or {}), dice or SeededDice(1))
    return caught.value


def legal(game, position) -> list[tuple[str, dict]]:
    """Every answer the decision due lists."""
    return [(a.name, dict(a.args)) for a in RULES.decision(game, position).actions()]


def due(position) -> tuple[str, str]:
    return position.due.kind, position.due.side


def steps_of(area: A.CarrierArea, side_units) -> int:
    return sum(u.steps for u in side_units)


def midway_broken(game, before: Position | None, action, after: Position) -> list[str]:
    """What a step broke of the whole-game invariants and of Midway's (digest I1-I36)."""
    out = broken(game, before, action, after)
    area = to_area(game, after)
    landed = (after.data.get("landing") or {}).get("outcome") not in (None, "none")
    try:
        A.check_state(game, area)  # I1-I4, I8, I10, I11
    except RuleViolation as exc:
        if not landed:
            out.append(f"carrier area: {exc}")
    out += _fleets(game, after)
    out += _tracks(game, after, area)
    out += _groups(game, after, area)
    out += _cards(game, after)
    if before is not None:
        out += _step(game, before, action, after)
    return out


def _fleets(game, position) -> list[str]:
    out = []
    hexes = {f: position.piece(f).hex for f in FLEETS}
    if midway_hex(game) in hexes.values():
        out.append("a fleet is in Midway's hex (I14)")
    if hexes[ICHIKOKAN] and hexes[ICHIKOKAN] == hexes[INVASION]:
        out.append("the Japanese fleets share a hex (I15)")
    night = position.turn == const(game, "night-turn")
    shared = hexes[US_FLEET] and hexes[US_FLEET] in (hexes[ICHIKOKAN], hexes[INVASION])
    if shared and not night and position.phase not in BEFORE_MOVES:  # E30: moved out
        out.append(f"a day turn with the US and a Japanese fleet in {hexes[US_FLEET]} (I16)")
    out += _invasion(game, position)
    return out


#: the phases of a turn before the Japanese fleets have moved
BEFORE_MOVES = ("base-attack-declaration", "us-movement-planning", "japanese-movement")


def _invasion(game, position) -> list[str]:
    """I13: the Invasion Force is on the map iff its track is 1 or more and it has entered
    (Turn 4, 6.3(1))."""
    on_map = position.piece(INVASION).kind == "hex"
    track = position.tracks["invasion-force"]
    entry = const(game, "invasion-force-entry-turn")
    entered = position.turn > entry or (position.turn == entry
                                        and position.phase not in BEFORE_MOVES)
    if on_map and not (track >= 1 and position.turn >= entry):
        return [f"the Invasion Force is on the map with track {track}, turn {position.turn}"]
    if track >= 1 and entered and not on_map:
        return [f"the Invasion Force is off the map with track {track} (I13)"]
    return []


def _tracks(game, position, area) -> list[str]:
    out = []
    for side in SIDES:
        if not 0 <= position.tracks[AOP[side]] <= const(game, "search-result-max"):
            out.append(f"{side} AOP {position.tracks[AOP[side]]} (I21, I22)")
    lost = len(A.damaged_boxes(game, area, A.base_holder(game)))
    if lost != min(len(A.deck_boxes(game, A.base_holder(game))), area.base_hits):
        out.append(f"{lost} runway boxes lost after {area.base_hits} base hits (I12)")
    if not 1 <= position.turn <= const(game, "turns"):
        out.append(f"turn {position.turn} (I34)")
    return out


def _groups(game, position, area) -> list[str]:
    out = []
    for gid, units in groups_in_air(area).items():
        sides = {side_of(game, u) for u in units}
        size = len(units)
        most = const(game, "group-size-japan") if sides == {"japan"} else max(
            const(game, "group-size-us-base"), const(game, "group-size-us-carrier"))
        if len(sides) != 1 or size > most:
            out.append(f"group {gid}: {size} units of {sides} (I25)")
        op = position.data.get("op")
        if op and op["kind"] == "night" and sides == {op["side"]}:
            out.append(f"group {gid} in flight in its side's night operation (I31)")
    return out


def _cards(game, position) -> list[str]:
    total = sum(len(v) for v in position.cards.values())
    out = [] if total == len(game.cards) else [f"{total} event cards (I33)"]
    if position.scenario == "solitaire" and len(pile(position, hand("us"))):
        out.append("the solitaire US holds a card")
    return out


def _step(game, before, action, after) -> list[str]:
    out = []
    old, new = to_area(game, before), to_area(game, after)
    for side in SIDES:
        was = sum(u.steps for u in old.units if side_of(game, u) == side)
        now = sum(u.steps for u in new.units if side_of(game, u) == side)
        if now > was:
            out.append(f"{side} steps rose {was} -> {now} (I6)")
    if new.sunk < old.sunk:
        out.append("a carrier came back from the bottom (I8)")
    if after.scenario == "solitaire":
        if len(pile(after, hand("japan"))) > 2:
            out.append("the Japanese took more than one card (I36)")
        if any(u.steps > 1 for u in new.units if side_of(game, u) == "us"):
            out.append("the solitaire US reorganized (I36)")
    if before.verdict is None and after.verdict is not None and after.turn not in (
            const(game, "day-1-last-turn"), const(game, "turns")) and \
            after.verdict.condition != "automatic":
        out.append(f"verdict {after.verdict.condition} on turn {after.turn} (I34)")
    return out


def play_watched(game, seed, scenario, each=None):
    """A whole game of random agents; every invariant after every step; ``each`` is called
    too. Returns the playout and the positions, the set-up first."""
    positions = []

    def watch(before, action, after):
        problems = midway_broken(game, before, action, after)
        assert not problems, f"{scenario} seed {seed}, after {action}: {problems}"
        positions.append(after)
        if each is not None:
            each(before, action, after)

    played = playout(game, RULES, seed, RandomAgent(), scenario=scenario, each=watch)
    return played, positions


def run_at(game, position) -> Run:
    return Run(game, position)


def with_values(position, **values: Any) -> Position:
    return with_data(position, **values)


def with_tracks(position, tracks: Mapping[str, Any]) -> Position:
    return replace(position, tracks=FrozenDict({**position.tracks, **tracks}))


def at_phase(game, scenario, phase, turn, fleets=None, **values) -> Position:
    """A position of ``scenario`` at the start of ``phase`` of ``turn`` (nothing due yet),
    the fleets in the hexes given; ``values`` go to its data."""
    position = start(game, scenario)
    position = replace(position, pending=(), phase=phase, turn=turn)
    position = with_data(position, **{**flow.TURN_DATA, "revealed": True,
                                      "ready": list(SIDES), **values})
    for fleet_id, hex_id in (fleets or {}).items():
        position = moved_fleet(position, fleet_id, hex_id)
    return position


def proceeded(game, position, dice=None) -> tuple[Position, list[str]]:
    """The game run on from ``position`` to the next decision of a person."""
    run = Run(game, position, dice or SeededDice(1))
    ses.advance(run)
    return run.pos, [a.text for a in run.said]


def with_cards(position, **piles) -> Position:
    """``position`` with these piles (``japan_hand=("02",)``, ``deck=(...)``); the cards
    taken from wherever they were."""
    named = {k.replace("_", "."): tuple(v) for k, v in piles.items()}
    moving = {c for cards in named.values() for c in cards}
    kept = {k: tuple(c for c in v if c not in moving) for k, v in position.cards.items()}
    return replace(position, cards=FrozenDict({**kept, **named}))


def at_op(game, scenario, side, fleets, turn=2, area=None) -> Position:
    """The position of ``side``'s air operation (its decision due), the fleets placed and
    the carrier area ``area`` (default: the set-up's)."""
    position = at_phase(game, scenario, "air-operations", turn, fleets)
    if area is not None:
        position = with_area(game, position, area)
    run = Run(game, position, SeededDice(1))
    flow.start_op(run, side, "air")
    flow.op_decision(run)
    return run.pos


def play_from(game, position, seed, max_steps=5_000):
    """Random agents play on from ``position`` (each step's dice from ``seed``), every
    invariant checked after each step; the positions in order."""
    rng = random.Random(derived_seed(seed, "agents"))
    positions = [position]
    for n in range(1, max_steps):
        decision = RULES.decision(game, position)
        if decision is None:
            return positions
        action = random_answer(decision, rng)
        after = RULES.apply(game, position, action.name, dict(action.args),
                            SeededDice(derived_seed(seed, n))).state
        problems = midway_broken(game, position, (action.name, dict(action.args)), after)
        assert not problems, f"seed {seed}, after {action}: {problems}"
        positions.append(after)
        position = after
    raise AssertionError(f"seed {seed}: no verdict in {max_steps} steps")

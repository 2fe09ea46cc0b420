"""Helpers of the Axis & Allies session tests: positions at a chosen decision with exactly
the units a test names, commands applied as a session applies them (dice given by name),
refusals, the answers a decision lists, whole games watched step by step."""

from __future__ import annotations

from dataclasses import replace

import pytest
from warpress.engine.agents import RandomAgent, playout
from warpress.engine.dice import SeededDice, derived_seed
from warpress.engine.errors import RuleViolation
from warpress.engine.model import FrozenDict
from warpress.engine.position import Pending, Piece
from warpress.games.axis_allies.rules import session as ses
from warpress.games.axis_allies.rules.positions import board_carriers, piece_id, start
from warpress.verify.whole import broken as whole_broken

RULES = ses.AxisAlliesRules()
#: the most actions a watched game may take (the longest of the tests' seeds takes fewer)
MAX_STEPS = 50_000
PHASES = {"purchase": "weapons-development-purchase", "combat-move": "combat-movement",
          "non-combat-move": "non-combat-movement", "place": "placement"}


def at(game, power, kind, units, control=None, ipc=None, weapons=None, data=None):
    """The position of ``power``'s decision ``kind`` (purchase, combat-move,
    non-combat-move, place) holding only ``units``: ``(power, type, place, count)`` or
    ``(power, type, place, count, props)``; ``control`` changes who holds territories."""
    base = start(game, "standard")
    serial: dict[str, int] = {}
    pieces = []
    for item in units:
        side, unit, place, count = item[:4]
        props = item[4] if len(item) > 4 else {}
        for _ in range(count):
            key = f"{side}.{unit}"
            serial[key] = serial.get(key, 0) + 1
            kind_of = "pool" if place == "purchased" else "area"
            extra = {"factory": "original"} if unit == "factory" else {}
            pieces.append(Piece(piece_id(side, unit, serial[key]), unit, side, kind_of, place,
                                props=FrozenDict({**extra, **props})))
    position = replace(base, pieces=tuple(pieces), side=power, phase=PHASES[kind],
                       control=FrozenDict({**base.control, **(control or {})}))
    money = dict(base.data["ipc"])
    money.update(ipc or {})
    got = {p: [] for p in money}
    got.update(weapons or {})
    position = position.with_data(serial=serial, ipc=money, weapons=got, **(data or {}))
    seas = {p.place for p in pieces if p.kind == "area" and p.place.endswith("sea-zone")}
    position = board_carriers(game, position, seas)
    rules = ses.KINDS[kind][1]
    return replace(position, pending=(Pending(kind, power, rules),))


def apply(game, position, *commands, rolls=None):
    """Each ``(name, args)`` in turn, as a session applies them, the dice given by name
    (``{"attacker_rolls": [1, 2]}``) first; the last position and every announcement."""
    said = []
    for n, (name, args) in enumerate(commands, 1):
        dice = SeededDice(n, rolls)
        step = RULES.apply(game, position, name, dict(args), dice)
        position = step.state
        said += [a.text for a in step.announcements]
    return position, said


def refusal(game, position, name, args=None) -> RuleViolation:
    """The RuleViolation a command meets (the test fails when it is accepted)."""
    with pytest.raises(RuleViolation) as caught:
        RULES.apply(game, position, name, dict(args or {}), SeededDice(1))
    return caught.value


def legal(game, position) -> list[tuple[str, dict]]:
    """Every answer the decision due lists."""
    return [(a.name, dict(a.args)) for a in RULES.decision(game, position).actions()]


def units_in(position, place, side=None):
    """``{type: count}`` of the units in a space (of one power)."""
    out: dict[str, int] = {}
    for p in position.pieces:
        if p.kind == "area" and p.place == place and (side is None or p.side == side):
            out[p.unit] = out.get(p.unit, 0) + 1
    return out


def play_watched(game, seed, each=None):
    """A game of random agents from ``seed`` to its verdict, the whole-game invariants
    (the engine's and the game's own, ``RULES.broken``) after every step. Returns why it
    stopped (``over``, or the step cap), the positions after the set-up and after every
    action, and the actions."""
    positions = []
    actions = []

    def watch(before, action, after):
        problems = RULES.broken(game, before, action, after) + whole_broken(
            game, before, action, after)
        assert not problems, f"seed {seed}, after {action}: {problems}"
        positions.append(after)
        if action is not None:
            actions.append(action)
        if each is not None:
            each(before, action, after)

    played = playout(game, RULES, seed, RandomAgent(), each=watch, max_steps=MAX_STEPS)
    return played.stopped, positions, actions


def replayed(game, seed, actions):
    """The positions of ``actions`` applied from ``seed``'s set-up, as a session replays a
    log (the step's dice from the seed and its number)."""
    position = RULES.new(game, RULES.load_scenario(game, None),
                         SeededDice(derived_seed(seed, 0))).state
    out = [position]
    for n, (name, args) in enumerate(actions, 1):
        position = RULES.apply(game, position, name, dict(args),
                               SeededDice(derived_seed(seed, n))).state
        out.append(position)
    return out

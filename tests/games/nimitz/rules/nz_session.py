"""Helpers of the Nimitz session tests: positions set up with chosen units, commands applied
as a session applies them, whole campaigns watched step by step with the whole-game
invariants (verify/whole.py) and the Nimitz ones (the digest's I-list) after every step."""

from __future__ import annotations

from dataclasses import replace

import pytest
from warpress.engine.agents import RandomAgent, playout
from warpress.engine.dice import GivenDice, SeededDice
from warpress.engine.errors import RuleViolation
from warpress.engine.model import FrozenDict
from warpress.engine.position import Position
from warpress.games.nimitz.rules import session as ses
from warpress.games.nimitz.rules.battle import units as battle_units
from warpress.games.nimitz.rules.japan import map_view
from warpress.games.nimitz.rules.positions import (
    DAMAGED,
    INVASION,
    JAPAN,
    US,
    Run,
    kind,
    turn_values,
)
from warpress.verify.whole import broken

RULES = ses.NimitzRules()


def new(game, scenario="1942", seed=1) -> Position:
    return RULES.new(game, scenario, SeededDice(seed)).state


def apply(game, position, *commands, dice=None):
    """Each ``(name, args)`` in turn, as a session applies them (seeded dice per step, or
    the ``dice`` given); the last position and every announcement's text."""
    said = []
    for n, (name, args) in enumerate(commands, 1):
        step = RULES.apply(game, position, name, dict(args), dice or SeededDice(n))
        position = step.state
        said += [a.text for a in step.announcements]
    return position, said


def refusal(game, position, name, args=None) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        RULES.apply(game, position, name, dict(args or {}), SeededDice(1))
    return caught.value


def legal(game, position) -> list[tuple[str, dict]]:
    return [(a.name, dict(a.args)) for a in RULES.decision(game, position).actions()]


def given(*rolls):
    """Dice that give these results in order, whatever they are asked for."""
    return GivenDice(list(rolls))


def arrange(game, position, where: dict[str, tuple[str, str]], **data) -> Position:
    """``position`` with pieces moved (``{piece: (kind, place)}``) and ``data`` changed."""
    run = Run(game, position)
    for pid, (kind_, place) in where.items():
        run.place(pid, kind_, place)
    run.data.update(data)
    return run.position()


def nimitz_broken(game, before, action, after) -> list[str]:
    """The Nimitz invariants a step broke (I22-I39 of the digest)."""
    out: list[str] = []
    run = Run(game, after)
    rp, sp = int(run.data.get("rp", 0)), int(run.data.get("sp", 0))
    if rp < 0 or sp < 0:
        out.append(f"I24: RP {rp}, SP {sp}")
    for p in after.pieces:
        k = kind(game, p)
        if p.kind == "point" and p.side == US and p.place in ("japan", "east-asia"):
            out.append(f"I25: {p.id} in {p.place}")
        if p.kind == "point" and p.side == JAPAN and p.place in ("west-coast", "australia"):
            out.append(f"I25: {p.id} in {p.place}")
        if p.kind == "point" and k.australian and "australia" not in _flags(game, p.place):
            out.append(f"I25: Australian {p.id} at {p.place}")
        if k.battalion and p.side == JAPAN and p.kind == "eliminated":
            out.append(f"I22: {p.id} left the game")
    if after.turn > len(turn_values(game, run.campaign)):
        out.append(f"I38: turn {after.turn}")
    if run.data.get("battle"):
        for pid in battle_units(run, US):
            if kind(game, run.pieces[pid]).carrier and run.data["battle"]["slot"][pid] != "us-sea":
                out.append(f"I17: US carrier {pid} out of the US sea area")
    if before is not None:
        out += _moves(game, before, action, after)
    if after.due is not None and after.due.kind == "supply" and after.phase == "us-supply":
        out += _turn_start(game, run)
    return out


def _flags(game, point) -> tuple:
    for p in game.get("point_maps", "campaign").points:
        if p.id == point:
            return tuple(p.flags)
    return ()


def _moves(game, before, action, after) -> list[str]:
    out = []
    name, args = action
    if name == "move":
        piece = before.piece(args["unit"])
        if "moved" in piece.flags:
            out.append(f"I24: {piece.id} moved twice in a turn")
        if int(before.data["sp"]) - int(after.data["sp"]) != 1:
            out.append("I24: a move did not cost exactly 1 SP")
    inv_before = {p.id for p in before.pieces if p.kind == "box" and p.place == INVASION}
    inv_after = {p.id for p in after.pieces if p.kind == "box" and p.place == INVASION}
    if before.data.get("campaign") == after.data.get("campaign") and inv_before - inv_after:
        out.append("I39: a unit left the Japan-invasion box")
    if int(after.data.get("invaded", 0)) > game.constant("japan-invasion-max-units"):
        out.append("I39: more than 7 units into the invasion box in a phase")
    if before.phase == "us-movement" and after.phase != "us-movement":
        run = Run(game, before)
        view = map_view(run)
        for p in before.pieces:
            if p.side == JAPAN and p.kind == "point" and kind(game, p).ground \
                    and p.place in view.us_any:
                moved = after.piece(p.id) if after.has(p.id) else None
                if moved is not None and moved.kind == "point" and moved.place != p.place \
                        and after.data.get("campaign") == before.data.get("campaign"):
                    out.append(f"I28: {p.id} left {p.place}, where US units were")
    return out


def _turn_start(game, run: Run) -> list[str]:
    """At the start of a turn: no US ship on the map away from Hawaii and the West Coast
    (I34), no Japanese supply marker (I31), no damaged Japanese ship and no damaged
    Japanese land aircraft but a point's last ground or air unit (I33; a damaged ground unit
    may stay where US units were at the repair phase and left by return to port or supply
    hits since)."""
    out = []
    if run.pos.turn > 1:
        for p in run.of(US):
            if kind(game, p).ship and p.place not in ("hawaiian-islands", "west-coast"):
                out.append(f"I34: US ship {p.id} at {p.place} after return to port")
    if int(run.data.get("jp_supply", 0)) != 0:
        out.append(f"I31: {run.data.get('jp_supply')} Japanese supply markers at turn start")
    for p in run.of(JAPAN):
        k = kind(game, p)
        if p.step != DAMAGED:
            continue
        if k.ship:
            out.append(f"I33: damaged ship {p.id} not repaired")
        elif k.land_air:
            others = [q for q in run.at(str(p.place), JAPAN) if not kind(game, q).ship]
            if len(others) > 1:
                out.append(f"I33: damaged {p.id} at {p.place} not repaired")
    return out


def play_watched(game, seed, scenario="1942", each=None, agent=None, max_steps=20_000):
    """A whole campaign, the US by the random agent (or ``agent``); the whole-game and the
    Nimitz invariants after every step; ``each`` is called too. Returns the playout and the
    positions, the set-up first."""
    positions = []

    def watch(before, action, after):
        problems = broken(game, before, action, after) + nimitz_broken(game, before, action,
                                                                      after)
        assert not problems, (seed, action, problems)
        positions.append(after)
        if each is not None:
            each(before, action, after)

    played = playout(game, RULES, seed, agent or RandomAgent(), scenario, max_steps=max_steps,
                     each=watch)
    return played, positions


def with_data(position, **data) -> Position:
    return replace(position, data=FrozenDict({**position.data, **data}))


class GarrisonAgent(RandomAgent):
    """The random agent that keeps its garrisons: it never moves a US ground unit or land
    aircraft away from an objective of the campaign (it still buys, reconnoitres, sends
    ships, fights at random). It plays campaigns to their end more often than not."""

    name = "garrison"

    def choose(self, seen, rng):
        game, position, decision = seen.game, seen.sample(rng), seen.decision
        objectives = set(game.get("campaigns", position.data["campaign"]).get("objectives"))
        options = []
        for option in decision.options:
            kept = [a for a in option.actions if not self._leaves(game, position, a,
                                                                  objectives)]
            if kept:
                options.append(kept)
        actions = options[rng.randrange(len(options))]
        return actions[rng.randrange(len(actions))]

    @staticmethod
    def _leaves(game, position, action, objectives) -> bool:
        if action.name not in ("move", "invade"):
            return False
        piece = position.piece(action.args["unit"])
        k = kind(game, piece)
        return (k.ground or k.land_air) and piece.place in objectives


class Rolls:
    """Dice that give the rolls named (``{"roll": [4, 2]}``, in order) and seeded random
    rolls for everything else (stack shuffles, the rest)."""

    def __init__(self, named: dict, seed: int = 1):
        self.given = GivenDice(named)
        self.rest = SeededDice(seed)

    def roll(self, die: str, name: str = "roll") -> int:
        value = self.given.take(die, name)
        return value if value is not None else self.rest.roll(die, name)

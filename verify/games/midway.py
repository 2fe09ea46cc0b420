"""Midway rule invariants: the carrier area and the base, held through any legal play.

One state machine drives the engine's own transitions (``engine/games/midway/area.py``)
from the standard start: moves along the arrows, returns from a strike, the forced
Return moves, carrier hits and base hits, new turns. After every step it checks the
limits the rules set, reading each number from the game data:

- 8.3(3) / 9.6(1): a carrier or the base never holds more than its capacity (5);
- 8.3(5) / 9.4(2): a deck (runway) holds no more units than its undamaged boxes;
- 8.3(2): only fighters in a CAP box;
- 9.6(3): base hits per turn never exceed 2, and air attacks never take the
  Garrison below 2.
"""

from __future__ import annotations

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, rule
from hypothesis.stateful import invariant as holds

from ...engine.dice import GivenDice
from ...engine.errors import BadInput, RuleViolation
from ...engine.games.midway import area as A
from ...engine.games.midway.setup import standard_start
from ...engine.model import Game
from ..invariants import invariant

GAME = "midway"


def _holders(game: Game) -> list[str]:
    return [c.id for c in game.extra["carriers"]] + [A.base_holder(game)]


def _is_fighter(game: Game, type_id: str) -> bool:
    return game.get("units", type_id).type == "fighter"


def carrier_area_machine(game: Game):
    """The machine over the engine's carrier-area transitions."""
    holders = _holders(game)
    capacity = {h: game.constant("base-capacity" if A.is_base(game, h) else "carrier-capacity")
                for h in holders}
    deck = {h: game.constant("runway-capacity" if A.is_base(game, h) else "deck-capacity")
            for h in holders}
    per_turn = game.constant("base-hits-per-turn")
    floor = game.constant("garrison-air-attack-floor")

    class CarrierArea(RuleBasedStateMachine):
        """Legal play on the carrier areas; illegal attempts must change nothing."""

        @initialize()
        def start(self):
            self.state = standard_start(game)

        def _try(self, step):
            try:
                after = step(self.state)
            except (RuleViolation, BadInput):
                return  # refused by the rules: the state stays as it was
            self.state = after

        @rule(data=st.data())
        def move_along_an_arrow(self, data):
            units = [u for u in self.state.units if not u.airborne]
            if not units:
                return
            air = data.draw(st.sampled_from(units), label="unit")
            targets = [a.to for a in A.display(game, air.display).arrows if a.from_ == air.box]
            if targets:
                target = data.draw(st.sampled_from(targets), label="to")
                self._try(lambda s: A.move(game, s, air.uid, target))

        @rule(data=st.data())
        def return_from_a_strike(self, data):
            carried = [u for u in self.state.units if u.home == "carrier" and not u.airborne]
            if carried:
                air = data.draw(st.sampled_from(carried), label="unit")
                box = data.draw(st.sampled_from(["return-1", "return-2"]), label="box")
                self._try(lambda s: A.place(game, s, air.uid, air.display, box))

        @rule(data=st.data(), side=st.sampled_from(["japan", "us"]))
        def forced_return_moves(self, data, side):
            def choose(_air, options):
                return options[data.draw(st.integers(0, len(options) - 1), label="hangar")]

            self._try(lambda s: A.advance_returns(game, s, side, choose))

        @rule(carrier=st.sampled_from(holders[:-1]), roll=st.integers(1, 6))
        def hit_a_carrier(self, carrier, roll):
            self._try(lambda s: A.hit_carrier(game, s, carrier, GivenDice([roll])))

        @rule(hits=st.integers(1, 4))
        def hit_the_base(self, hits):
            self._try(lambda s: A.hit_base(game, s, hits)[0])

        @rule()
        def next_turn(self):
            self.state = A.new_turn(self.state)

        @holds()
        def capacities(self):
            for h in holders:
                if h in self.state.sunk:
                    continue
                aboard = A.aboard(game, self.state, h)
                assert len(aboard) <= capacity[h], (
                    f"{h} holds {len(aboard)} units (8.3(3)/9.6(1): {capacity[h]})")
                room = deck[h] - len(A.damaged_boxes(game, self.state, h))
                assert len(A.on_deck(game, self.state, h)) <= room, (
                    f"{h} has {len(A.on_deck(game, self.state, h))} units on a deck with "
                    f"{room} usable boxes (8.3(5), 9.4(2))")

        @holds()
        def fighters_only_in_cap(self):
            for u in self.state.units:
                if u.box == "cap":
                    assert _is_fighter(game, u.type), f"{u.uid} ({u.type}) in a CAP box (8.3(2))"

        @holds()
        def base_hit_cap_and_floor(self):
            assert self.state.base_hits_turn <= per_turn, (
                f"{self.state.base_hits_turn} base hits this turn (9.6(3): {per_turn})")
            assert self.state.garrison >= floor, (
                f"Garrison {self.state.garrison} after air attacks (9.6(3): floor {floor})")

    return CarrierArea


@invariant(GAME, "8.3(3)", "carriers and the base never exceed their capacity, decks their "
           "undamaged boxes, CAP holds only fighters, base hits <= 2 a turn, Garrison >= 2 "
           "(8.3(2)(5), 9.4(2), 9.6(1)(3))", max_examples=30)
def carrier_area(game: Game):
    return carrier_area_machine(game)


@invariant(GAME, "4.1-4.3", "exactly one outcome at every turn end: the 3x rule on Turn 3, "
           "automatic victory when a fleet is gone, a draw when both are, points on Turn 7")
def victory_outcomes(game: Game):
    from hypothesis import given

    from ...engine.games.midway import victory as V

    last = game.constant("turns")
    day_one = game.constant("day-1-last-turn")
    ratio = V.victory_param(game, "day-1", "ratio")
    fleets = {side: V.fleet_size(game, side) for side in ("japan", "us")}

    @given(st.integers(1, last), st.integers(0, fleets["japan"]), st.integers(0, fleets["us"]),
           st.sampled_from(["captured", "held"]))
    def check(turn, japan, us, midway):
        result = V.victory(game, turn, japan, us, midway if turn == last else None)
        winner = result["winner"]
        assert winner in ("japan", "us", "draw", "none"), f"unknown outcome {winner!r}"
        if japan == 0 and us == 0:
            assert winner == "draw", f"both fleets sunk gives {winner!r}, not a draw (4.3)"
        elif us == 0 or japan == 0:
            expected = "japan" if us == 0 else "us"
            assert winner == expected, f"automatic victory (4.3) gives {winner!r}"
        elif turn == day_one:
            expected = ("japan" if japan >= ratio * us else "us" if us >= ratio * japan
                        else "none")
            assert winner == expected, f"{japan} v {us} carriers: {winner!r} (4.1: {ratio}x)"
        elif turn == last:
            assert winner != "none", "the game is decided at the end of Turn 7 (4.2)"
        else:
            assert winner == "none", f"no victory check ends Turn {turn} ({winner!r})"

    return check

"""Midway rule invariants (I1-I36) as hypothesis properties over the engine.

Every property drives the engine's own procedures (``rules/``) and checks
what the rule says must hold afterwards. Numbers the rules set (capacities, allowances,
clamps, hit caps) are read from the game data, so a test can hand a factory a modified
game, or monkeypatch one engine function, and see the property FAIL. Dice are drawn by
hypothesis roll by roll (:class:`DrawnDice`), so a counterexample shows and shrinks them.

Covered:

- the carrier-area state machine (``CarrierArea``): moves along the arrows, launches
  (none at night), flights, strikes, no-target returns, air operations with their forced
  Return moves, night recovery, reorganization, carrier and base hits, new turns; after
  every step I1-I5 (capacities, decks, CAP fighters only, steps 1-2), I6 (steps never
  grow), I7 (reorganization), I8/I9 (damage 0/1/sunk, AA dice 2/1/0), I10-I12 (base
  hits, Garrison floor, runway boxes and search capability), I24 (one move per air
  operation, forced Return moves), I25 (group size and membership), I31 (no night launch);
- fleet movement I14-I17 (6.1, 6.3), the base-attack range and operations I18 (6.4);
- search and AOP with their clamps I21 (7.2-7.4, 10.2(1)); initiative and AOP spending
  I22/I23 (8.1, 8.2);
- whole air strikes (9.1-9.6): CAP and escort fire, AA only on attack aircraft (I27),
  the AA dice (I9), deck-box damage and sinking (I8), the other division untouched (I28),
  the return boxes (I30), base hits per turn <= 2 and Garrison >= 2 through whole strikes
  (I10-I12); refusals before any die (I19, I20, I26, I29); more firepower never fewer hits;
- surface battle I32 (10.1(2)); night recovery (10.2(2)); the landing (10.3);
- the event cards I33 (8.1(2), 11.0(2), 12.3(2)); the solitaire US movement and air policy
  (12.3(2)-(5), (7), I36); victory 4.1-4.3 and the Day-2 points I35 (4.2).

Not covered, because the engine has no procedure for them: I13 (the Invasion Force on the
map: the engine keeps no fleet positions from turn to turn), the turn loop of I22/I24/I34
(no air-operations phase or game loop: only its single steps, initiative, the AOP cost and
one air operation, are checked), I36's "no initiative roll" beyond the roll-free
``solitaire_initiative`` (no solitaire game loop), and the Japanese side of I33's two-player
hands (the engine deals no hands; only the initiative draw and the solitaire deck move cards).
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, precondition, rule
from hypothesis.stateful import invariant as holds
from warpress.engine.dice import GivenDice
from warpress.engine.errors import BadInput, RuleViolation
from warpress.engine.model import Game
from warpress.engine.tables import lookup
from warpress.verify.invariants import DrawnDice, refusal

from . import CODE
from .rules import area as A
from .rules import combat as C
from .rules import landing as L
from .rules import movement as M
from .rules import night as N
from .rules import search as S
from .rules import solitaire as So
from .rules import victory as V
from .rules.common import (
    SIDES,
    carriers,
    distance,
    division_carriers,
    divisions,
    grid,
    is_attack,
    is_fighter,
    midway_hex,
    other,
    track_start,
    track_values,
    unit_side,
    unit_stat,
)
from .rules.setup import standard_start

REFUSED = (RuleViolation, BadInput)


# --------------------------------------------------------------------------- helpers


def _holders(game: Game) -> list[str]:
    return [c.id for c in game.extra["carriers"]] + [A.base_holder(game)]


def _hexes(game: Game) -> list[str]:
    return list(grid(game).all_hexes())


def _fleet_hexes(game: Game) -> list[str]:
    """Every hex but Midway's (F-6), which no fleet enters (6.1(1))."""
    return [h for h in _hexes(game) if h != midway_hex(game)]


def _kind(game: Game, air: A.Air) -> str:
    """The kind of box a unit stands in (``airborne`` in the combat area)."""
    return "airborne" if air.airborne else A.box(game, air.display, air.box).kind


def _steps(state: A.CarrierArea, game: Game, side: str) -> int:
    return sum(u.steps for u in state.units if unit_side(game, u.type) == side)


def _aa_per_status(game: Game) -> dict[str, int]:
    """Anti-aircraft dice per carrier status, from the data (9.3)."""
    table = game.table("aa-dice")
    return {s: int(lookup(table, carrier=s)["dice"]) for s in ("intact", "damaged", "sunk")}


def _group_limit(game: Game, side: str, land: bool) -> int:
    """8.4(2)(3): Japanese 8, US base (``land``: with a land-based unit) 3, US carrier 2 (from
    the constants)."""
    if side == "japan":
        return game.constant("group-size-japan")
    return game.constant("group-size-us-base" if land else "group-size-us-carrier")


def _aircraft_types(game: Game, side: str, home: str) -> list[str]:
    tag = "land-based" if home == "land" else "carrier-based"
    return [u.id for u in game.units if u.side == side and tag in u.tags]


def _damage(game: Game, state: A.CarrierArea, data, dice) -> A.CarrierArea:
    """Earlier carrier hits (0, 1 or 2 per carrier) through the engine's own hit_carrier."""
    for c in carriers(game):
        for _ in range(data.draw(st.sampled_from([0, 0, 0, 1, 2]), label=f"hits_{c.id}")):
            state = A.hit_carrier(game, state, c.id, dice)
    return state


def _check_base(game: Game, s: A.CarrierArea) -> None:
    """9.6(2)(3), E23: at most 2 base hits a turn, the Garrison never below 2 from air attacks
    and its start less the base hits, one runway box lost per hit while any are left."""
    per_turn = game.constant("base-hits-per-turn")
    floor = game.constant("garrison-air-attack-floor")
    base = A.base_holder(game)
    runway = len(A.deck_boxes(game, base))
    assert s.base_hits_turn <= per_turn, (
        f"{s.base_hits_turn} base hits this turn (9.6(3): {per_turn})")
    assert s.garrison >= floor, f"Garrison {s.garrison} after air attacks (9.6(3): floor {floor})"
    assert s.garrison == track_start(game, "garrison") - s.base_hits, (
        f"Garrison {s.garrison} after {s.base_hits} base hits (9.6(2))")
    lost = len(A.damaged_boxes(game, s, base))
    assert lost == min(runway, s.base_hits), (
        f"{lost} runway boxes lost after {s.base_hits} base hits (9.6(2), E23)")


def _status_after(status: str, hits: int) -> str:
    """9.4(2): a carrier's status after ``hits`` more hits: the first damages, the second sinks."""
    order = ("intact", "damaged", "sunk")
    return order[min(2, order.index(status) + hits)]


# --------------------------------------------------------------------------- the carrier area


def _groups(state: A.CarrierArea) -> list[str]:
    """The air groups in the combat area."""
    return sorted({u.group for u in state.units if u.airborne})


def _flying(machine) -> bool:
    """A precondition: some air group is in the combat area."""
    return bool(_groups(machine.state))


def _chooser(data):
    """A hangar choice for the forced Return moves (8.3(1)), drawn by hypothesis."""
    def choose(_air, options):
        return options[data.draw(st.integers(0, len(options) - 1), label="hangar")]

    return choose


def carrier_area_machine(game: Game):
    """The machine over the engine's carrier-area transitions (8.3, 8.4, 9.x, 10.2)."""
    holders = _holders(game)
    capacity = {h: game.constant("base-capacity" if A.is_base(game, h) else "carrier-capacity")
                for h in holders}
    deck = {h: game.constant("runway-capacity" if A.is_base(game, h) else "deck-capacity")
            for h in holders}
    destroyed_at = game.constant("base-function-destroyed-hits")
    steps_max = game.constant("unit-steps-max")
    base_display = A.base_display(game).id
    base = A.base_holder(game)
    carrier_ids = [h for h in holders if h != base]
    hexes = _hexes(game)
    aa = _aa_per_status(game)
    all_places = {h: [(d, b.id) for d, b in A.holder_boxes(game, h)] for h in holders}
    deck_places = {h: [(d, b.id) for d, b in A.deck_boxes(game, h)] for h in holders}
    all_divisions = [d for side in SIDES for d in divisions(game, side)]

    class CarrierArea(RuleBasedStateMachine):
        """Legal play on the carrier areas; illegal attempts must change nothing."""

        @initialize()
        def start(self):
            self.state = standard_start(game)
            self.members: dict[str, frozenset[str]] = {}
            self.steps = {s: _steps(self.state, game, s) for s in SIDES}

        def _try(self, step):
            try:
                after = step(self.state)
            except REFUSED:
                return None  # refused by the rules: the state stays as it was
            self.state = after
            return after

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
            """9.5(2)(3): back to a Return box of any own division, task force or the base."""
            carried = [u for u in self.state.units if u.home == "carrier" and not u.airborne]
            if carried:
                air = data.draw(st.sampled_from(carried), label="unit")
                own = [d.id for d in A.air_displays(game)
                       if d.side == unit_side(game, air.type)]
                where = data.draw(st.sampled_from(own), label="display")
                box = data.draw(st.sampled_from(["return-1", "return-2"]), label="box")
                self._try(lambda s: A.place(game, s, air.uid, where, box))

        @rule(data=st.data(), side=st.sampled_from(SIDES))
        def forced_return_moves(self, data, side):
            self._try(lambda s: A.advance_returns(game, s, side, _chooser(data)))

        @rule(data=st.data(), side=st.sampled_from(SIDES))
        def air_operation(self, data, side):
            """8.2, 8.3(1) (I24): each unit moves at most once; Return units move one box."""
            own = [u for u in self.state.units if not u.airborne
                   and unit_side(game, u.type) == side]
            moves = []
            for air in data.draw(st.lists(st.sampled_from(own), max_size=3), label="movers") \
                    if own else []:
                targets = [a.to for a in A.display(game, air.display).arrows
                           if a.from_ == air.box
                           and A.box(game, air.display, a.to).kind != "launch"]
                if targets:
                    moves.append((air.uid, data.draw(st.sampled_from(targets), label="to")))
            before = self.state
            after = self._try(lambda s: A.operation_moves(game, s, side, moves, _chooser(data)))
            if after is None:
                return
            uids = [m[0] for m in moves]
            assert len(set(uids)) == len(uids), f"a unit moved twice in one air operation: {uids}"
            moved = set(uids)
            present = {u.uid: u for u in after.units}
            for air in before.units:
                now = present.get(air.uid)
                if unit_side(game, air.type) != side:
                    assert now == air, f"{air.uid} of the other side moved in a {side} operation"
                elif air.uid in moved or air.airborne:
                    continue
                elif air.box == "return-2":
                    assert now is not None and now.box == "return-1", (
                        f"{air.uid} in Return 2 did not move to Return 1 (8.3(1)): {now}")
                elif air.box == "return-1":
                    assert now is None or _kind(game, now) == "hangar", (
                        f"{air.uid} in Return 1 did not move to a hangar (8.3(1)(3)): {now}")
                else:
                    assert now == air, f"{air.uid} moved without being moved: {air} -> {now}"

        @rule(data=st.data(), night=st.booleans())
        def launch_a_group(self, data, night):
            self._launch(data, night)

        @rule(data=st.data())
        def strike_on_launch(self, data):
            """8.4(4): a group launched in this operation attacks at once."""
            gid = self._launch(data, False)
            if gid is not None:
                self._strike(data, gid)

        def _launch(self, data, night):
            decks = [u for u in self.state.units if not u.airborne
                     and _kind(game, u) in ("deck", "runway")]
            if not decks:
                return None
            by_holder: dict[str, list[A.Air]] = {}
            for u in decks:
                by_holder.setdefault(str(A.box(game, u.display, u.box).holds), []).append(u)
            holder = data.draw(st.sampled_from(sorted(by_holder)), label="from")
            pool = by_holder[holder]
            if unit_side(game, pool[0].type) == "japan" or data.draw(st.booleans(), label="any"):
                side = unit_side(game, pool[0].type)  # air rendezvous, or a mix to refuse
                pool = [u for u in decks if unit_side(game, u.type) == side] \
                    if data.draw(st.booleans(), label="one_side") else decks
            picked = data.draw(st.lists(st.sampled_from(pool), min_size=1, max_size=9,
                                        unique_by=lambda u: u.uid), label="group")
            where = data.draw(st.sampled_from(hexes), label="hex")
            gid = f"g{len(self.members) + 1}"
            uids = [u.uid for u in picked]
            after = self._try(lambda s: C.launch(game, s, uids, where, gid, night=night))
            if after is None:
                return None
            assert not night, f"a launch on the night turn was accepted (10.2(2)d): {uids}"
            self.members[gid] = frozenset(uids)
            return gid

        @precondition(_flying)
        @rule(data=st.data())
        def fly_a_group(self, data):
            gid = data.draw(st.sampled_from(_groups(self.state)), label="group")
            just = data.draw(st.booleans(), label="just_launched")
            to = data.draw(st.sampled_from(hexes), label="to")
            units = self.state.group(gid)
            after = self._try(lambda s: C.fly(game, s, gid, to, just_launched=just))
            if after is not None:
                reach = game.constant("launch-move") if just else min(
                    int(unit_stat(game, u.type, "move")) for u in units)
                moved = distance(game, units[0].box, to)
                assert moved <= reach, (
                    f"group {gid} flew {moved} hexes, allowance {reach} (8.4(1), 8.5(2))")

        @precondition(_flying)
        @rule(data=st.data())
        def no_target_return(self, data):
            gid = data.draw(st.sampled_from(_groups(self.state)), label="group")
            side = unit_side(game, self.state.group(gid)[0].type)
            own = [d.id for d in A.air_displays(game) if d.side == side]
            where = data.draw(st.sampled_from(own), label="display")
            uids = [u.uid for u in self.state.group(gid)]
            after = self._try(lambda s: C.no_target(game, s, gid, where))
            if after is not None:
                assert all(after.unit(u).box == "return-2" for u in uids), (
                    f"group {gid} with no target is not in Return 2 (8.5(3))")

        @precondition(_flying)
        @rule(data=st.data())
        def strike(self, data):
            self._strike(data, data.draw(st.sampled_from(_groups(self.state)), label="group"))

        def _strike(self, data, gid):
            units = self.state.group(gid)
            side = unit_side(game, units[0].type)
            enemy = other(side)
            targets = [*divisions(game, enemy), base_display if side == "japan" else C.INVASION]
            target = data.draw(st.sampled_from(targets), label="target")
            assign = {}
            if target in divisions(game, enemy):
                choices = division_carriers(game, target)
                assign = {u.uid: data.draw(st.sampled_from(choices), label=f"assign_{u.uid}")
                          for u in units if is_attack(game, u.type)}
            cap = [u.uid for u in self.state.units if u.display == target and u.box == "cap"]
            cap = data.draw(st.lists(st.sampled_from(cap), unique=True), label="cap") if cap else []
            strike = C.Strike(group=tuple(u.uid for u in units), target=target, assign=assign,
                              cap=tuple(cap), base_attack_phase=target == base_display)
            self._try(lambda s: C.air_strike(game, s, strike, DrawnDice(data))[0])

        @rule(data=st.data(), side=st.sampled_from(SIDES))
        def night_recovery(self, data, side):
            """10.2(2)a-c: then no unit of the side is in a Return box, on a deck or in CAP."""
            after = self._try(lambda s: N.night_operation(game, s, side, DrawnDice(data)))
            if after is None:
                return
            for u in after.units:
                if unit_side(game, u.type) == side and not u.airborne:
                    assert _kind(game, u) == "hangar", (
                        f"{u.uid} is in {u.display}/{u.box} after the night operation (10.2(2))")

        @rule(data=st.data())
        def reorganize(self, data):
            units = [u for u in self.state.units if not u.airborne]
            if len(units) < 2:
                return
            a = data.draw(st.sampled_from(units), label="keep")
            b = data.draw(st.sampled_from(units), label="merge")
            after = self._try(lambda s: A.reorganize(game, s, a.uid, b.uid))
            if after is not None:
                assert (a.uid != b.uid and a.type == b.type and a.home == b.home
                        and (a.display, a.box) == (b.display, b.box) and a.steps == b.steps == 1), (
                    f"8.3(4) merged {a} with {b}")
                assert after.unit(a.uid).steps == 2, f"{a.uid} merged into {after.unit(a.uid)}"

        @rule(carrier=st.sampled_from(carrier_ids), roll=st.integers(1, 6))
        def hit_a_carrier(self, carrier, roll):
            self._try(lambda s: A.hit_carrier(game, s, carrier, GivenDice([roll])))

        @rule(hits=st.integers(1, 4))
        def hit_the_base(self, hits):
            self._try(lambda s: A.hit_base(game, s, hits)[0])

        @rule()
        def next_turn(self):
            self.state = A.new_turn(self.state)

        def _places(self):
            """Per holder: units aboard, units on deck, damaged deck boxes (read off the state)."""
            where: dict[tuple[str, str], list[A.Air]] = {}
            for u in self.state.units:
                where.setdefault((u.display, u.box), []).append(u)
            counts = {}
            for h in holders:
                aboard = [u for p in all_places[h] for u in where.get(p, [])]
                on_deck = [u for p in deck_places[h] for u in where.get(p, [])]
                damaged = [p for p in deck_places[h] if p in self.state.damage]
                counts[h] = (aboard, on_deck, damaged)
            return counts

        @holds()
        def capacities(self):
            for h, (aboard, on_deck, damaged) in self._places().items():
                if h in self.state.sunk:
                    assert not aboard, f"sunk {h} holds {[u.uid for u in aboard]} (9.4(2))"
                    continue
                assert len(aboard) <= capacity[h], (
                    f"{h} holds {len(aboard)} units (8.3(3)/9.6(1): {capacity[h]})")
                room = deck[h] - len(damaged)
                assert len(on_deck) <= room, (
                    f"{h} has {len(on_deck)} units on a deck with {room} usable boxes "
                    f"(8.3(5), 9.4(2))")
                if h != base:
                    assert len(damaged) <= 1, f"{h} has two damage markers and is afloat (9.4(2))"
            status = {c: A.status(game, self.state, c) for c in carrier_ids}
            for d in all_divisions:
                want = sum(aa[status[c]] for c in division_carriers(game, d))
                got = C.aa_dice(game, self.state, d)
                assert got == want, f"{d} rolls {got} AA dice (9.3: {want}, 0 for a sunk carrier)"

        @holds()
        def fighters_only_in_cap(self):
            for u in self.state.units:
                if u.box == "cap":
                    assert is_fighter(game, u.type), f"{u.uid} ({u.type}) in a CAP box (8.3(2))"

        @holds()
        def steps_never_grow(self):
            for u in self.state.units:
                assert 1 <= u.steps <= steps_max, f"{u.uid} has {u.steps} steps (2.2(4))"
            for side in SIDES:
                now = _steps(self.state, game, side)
                assert now <= self.steps[side], (
                    f"{side} steps grew from {self.steps[side]} to {now} (2.2(4), 8.3(4))")
                self.steps[side] = now

        @holds()
        def land_based_at_the_base(self):
            for u in self.state.units:
                if u.home == "land" and not u.airborne:
                    assert u.display == base_display, f"land-based {u.uid} in {u.display} (9.5(3))"

        @holds()
        def groups_hold_together(self):
            for gid in _groups(self.state):
                units = self.state.group(gid)
                uids = {u.uid for u in units}
                assert uids <= self.members.get(gid, frozenset()), (
                    f"group {gid} gained units in flight: {sorted(uids)} (8.4(2))")
                land = any(u.home == "land" for u in units)
                limit = _group_limit(game, unit_side(game, units[0].type), land)
                assert len(units) <= limit, f"group {gid} has {len(units)} units (8.4(2)(3))"
                assert len({u.box for u in units}) == 1, f"group {gid} split over hexes"
                assert len({unit_side(game, u.type) for u in units}) == 1, f"{gid} mixes sides"

        @holds()
        def base_hit_cap_and_floor(self):
            s = self.state
            _check_base(game, s)
            searching = S.base_capability(game, A.base_destroyed(game, s))
            assert (searching == 0) == (s.base_hits >= destroyed_at), (
                f"base search capability {searching} after {s.base_hits} hits (9.6(2))")
            if s.base_hits >= destroyed_at:
                assert not A.aboard(game, s, base), "units at a destroyed base (9.6(2))"

    return CarrierArea


@CODE.check("8.3(3)", "carriers and the base never exceed their capacity, decks their undamaged "
                     "boxes, CAP holds only fighters, steps never grow, damage 0/1/sunk, base "
                     "hits <= 2 a turn, Garrison >= 2, groups hold together, through moves, "
                     "launches, strikes, returns, night recovery and damage", max_examples=60)
def carrier_area(game: Game):
    return carrier_area_machine(game)


# --------------------------------------------------------------------------- victory (4.x)


@CODE.check("4.1-4.3", "exactly one outcome at every turn end: the 3x rule on Turn 3, "
           "automatic victory when a fleet is gone, a draw when both are, points on Turn 7")
def victory_outcomes(game: Game):
    last = game.constant("turns")
    day_one = game.constant("day-1-last-turn")
    ratio = V.victory_param(game, "day-1", "ratio")
    fleets = {side: V.fleet_size(game, side) for side in SIDES}

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


@CODE.check("4.2", "a point per enemy carrier sunk (one fewer after 処分中止 played against you), "
                  "the base's 2 points to exactly one side")
def day_two_points(game: Game):
    per = V.victory_param(game, "day-2", "points_per_carrier_sunk")
    base = V.victory_param(game, "day-2", "points_for_midway")
    fleets = {side: V.fleet_size(game, side) for side in SIDES}

    @given(st.integers(0, fleets["japan"]), st.integers(0, fleets["us"]),
           st.sampled_from(["captured", "held"]), st.sampled_from([None, "japan", "us"]))
    def check(japan, us, midway, card):
        jp, up = V.points(game, japan, us, midway, card)
        plain_j, plain_u = V.points(game, japan, us, midway)
        sunk = {"japan": fleets["us"] - us, "us": fleets["japan"] - japan}
        got = {"japan": jp, "us": up}
        plain = {"japan": plain_j, "us": plain_u}
        for side in SIDES:
            bonus = base if (midway == "captured") == (side == "japan") else 0
            assert plain[side] == per * sunk[side] + bonus, (
                f"{side}: {plain[side]} points for {sunk[side]} carriers sunk + {bonus} (4.2)")
            cut = per if card is not None and card != side and sunk[side] else 0
            assert got[side] == plain[side] - cut, (
                f"{side}: {got[side]} points with 処分中止 played by {card} (2.3, 4.2)")
        assert (plain_j - per * sunk["japan"] > 0) != (plain_u - per * sunk["us"] > 0), (
            "the base's points go to exactly one side (4.2(2))")

    return check


# --------------------------------------------------------------------------- movement (6.x)


def _walk(game: Game, data, start: str, longest: int, label: str) -> list[str]:
    """A path from ``start``: mostly adjacent steps, now and then a jump (to be refused)."""
    path = [start]
    hexes = _hexes(game)
    for i in range(data.draw(st.integers(0, longest), label=f"{label}_length")):
        near = list(grid(game).neighbours(path[-1]))
        pool = st.one_of(st.sampled_from(near), st.sampled_from(hexes)) if i % 3 == 2 else \
            st.sampled_from(near)
        path.append(data.draw(pool, label=f"{label}_{i + 1}"))
    return path


@CODE.check("6.1(1)", "a fleet's path is accepted iff every step is adjacent, it never enters "
                     "F-6 and fits the allowance (2/4 hexes, Invasion Force 1/2, entry hex "
                     "counted)")
def fleet_paths(game: Game):
    night = game.constant("night-turn")
    last = game.constant("turns")
    allowances = {f: (game.constant(day), game.constant(dark))
                  for f, (day, dark) in M.FLEETS.items()}
    cost = game.constant("entry-hex-cost")
    midway = midway_hex(game)

    @given(st.data(), st.sampled_from(sorted(M.FLEETS)), st.integers(1, last))
    def check(data, fleet, turn):
        entering = fleet in M.ENTRY and data.draw(st.booleans(), label="entering")
        pool = M.entry_hexes(game, fleet) if entering else _hexes(game)
        start = data.draw(st.sampled_from(pool), label="start")
        path = _walk(game, data, start, 5, "hex")
        day, dark = allowances[fleet]
        assert dark >= day, f"{fleet}: night allowance {dark} below the day's {day} (10.1(1))"
        limit = dark if turn == night else day
        legal = (all(distance(game, a, b) == 1 for a, b in zip(path, path[1:], strict=False))
                 and midway not in path
                 and len(path) - 1 + (cost if entering else 0) <= limit)
        accepted = refusal(M.check_path, game, fleet, path, turn, entering=entering) is None
        assert accepted == legal, (
            f"{fleet} path {M.plan_text(path)} on Turn {turn} (entering={entering}): "
            f"{'accepted' if accepted else 'refused'}; 6.1(1)(2), 6.3(1) allow {limit} hexes")

    return check


@CODE.check("6.1(4)", "the Japanese fleets never end in one hex; by day the US fleet never ends "
                     "with a Japanese fleet (it stops short), at night it may")
def fleets_apart(game: Game):
    night = game.constant("night-turn")
    last = game.constant("turns")
    hexes = _fleet_hexes(game)

    @given(st.data(), st.integers(1, last))
    def check(data, turn):
        ichikokan = data.draw(st.sampled_from(hexes), label="ichikokan")
        invasion = data.draw(st.one_of(st.none(), st.sampled_from(hexes)), label="invasion")
        together = refusal(M.check_japanese_ends, ichikokan, invasion) is not None
        assert together == (ichikokan == invasion), (
            f"1st Air Fleet {ichikokan}, Invasion Force {invasion}: "
            f"{'refused' if together else 'accepted'} (6.1(2))")
        start = data.draw(st.sampled_from(hexes), label="us_start")
        path = [start]
        for i in range(data.draw(st.integers(0, 4), label="us_length")):
            near = [h for h in grid(game).neighbours(path[-1]) if h != midway_hex(game)]
            path.append(data.draw(st.sampled_from(near), label=f"us_{i + 1}"))
        # the Japanese fleets, now often on the US path (never on its start: the Japanese
        # cannot enter the hex of a US fleet that then stays put, E13)
        on_path = [h for h in path[1:] if h != start]
        pool = st.one_of(st.sampled_from(on_path), st.sampled_from(hexes)) if on_path else \
            st.sampled_from(hexes)
        japan = []
        for name in ("ichikokan_end", "invasion_end"):
            where = data.draw(st.one_of(st.none(), pool), label=name)
            if where is not None and where != start and where not in japan:
                japan.append(where)
        final = M.us_final_hex(game, path, japan, turn)
        assert final in path, f"US fleet ends in {final}, off its path {M.plan_text(path)}"
        if turn == night:
            assert final == path[-1], "at night the US fleet ends where planned (10.1(2))"
        else:
            assert final not in japan, (
                f"Turn {turn}: US path {M.plan_text(path)} ends in {final} with a Japanese "
                f"fleet ({', '.join(japan)}) (6.1(4))")

    return check


@CODE.check("6.4(2)", "a base attack needs the 1st Air Fleet within 5 hexes of Midway; 1 air "
                     "operation within 2 hexes, 2 at 3-5")
def base_attack_range(game: Game):
    reach = game.constant("base-attack-range")
    near = game.constant("base-attack-near-range")
    ops = (game.constant("base-attack-ops-near"), game.constant("base-attack-ops-far"))

    @given(st.sampled_from(_fleet_hexes(game)))
    def check(fleet_hex):
        dist = distance(game, fleet_hex, midway_hex(game))
        try:
            got = S.base_attack_from(game, fleet_hex)
        except RuleViolation:
            got = None
        ends_in_range = refusal(M.check_base_attack_end, game, fleet_hex) is None
        assert ends_in_range == (dist <= reach), f"{fleet_hex} at {dist}: end check (6.4(2))"
        if dist > reach:
            assert got is None, f"base attack from {fleet_hex}, {dist} hexes out (6.4(2))"
        else:
            want = ops[0] if dist <= near else ops[1]
            assert got == want, f"{fleet_hex} at {dist} hexes: {got} air ops, not {want} (6.4(3))"

    return check


# --------------------------------------------------------------------------- search (7.x)


@CODE.check("7.2", "AOP in [1, 4] (Japanese [0, 4] after a base attack), 0 on the night turn; "
                  "nearer never means fewer, a base attack never more")
def search_clamps(game: Game):
    lo, hi = game.constant("search-result-min"), game.constant("search-result-max")
    night = game.constant("night-turn")
    last = game.constant("turns")
    hexes = _fleet_hexes(game)
    strikes = max(game.constant("base-attack-ops-near"), game.constant("base-attack-ops-far"))
    night_aop = game.constant("night-aop")

    @given(st.sampled_from(hexes), st.sampled_from(hexes),
           st.one_of(st.none(), st.sampled_from(hexes)),
           st.integers(1, last), st.booleans(), st.integers(0, strikes))
    def check(ichikokan, us, invasion, turn, destroyed, base_strikes):
        where = S.Positions(ichikokan, us, invasion)
        aop = S.search_phase(game, where, turn=turn, base_destroyed=destroyed,
                             base_strikes=base_strikes)
        if turn == night:
            assert aop == {"japan": night_aop, "us": night_aop}, f"night turn AOP {aop} (10.2(1))"
            return
        j_lo = game.constant("aop-min-after-base-attack") if base_strikes else lo
        assert j_lo <= aop["japan"] <= hi, (
            f"Japanese AOP {aop['japan']} with {base_strikes} base-attack ops (7.2-7.4: "
            f"{j_lo}..{hi})")
        assert lo <= aop["us"] <= hi, f"US AOP {aop['us']} (7.2, 7.3: {lo}..{hi})"
        plain = S.search_phase(game, where, turn=turn, base_destroyed=destroyed)
        assert plain["japan"] - base_strikes <= aop["japan"] <= plain["japan"], (
            f"{base_strikes} base-attack ops take Japanese AOP {plain['japan']} to "
            f"{aop['japan']} (7.4)")
        intact = S.search_phase(game, where, turn=turn, base_destroyed=False)
        assert aop["us"] <= intact["us"], "a destroyed base raised the US AOP (9.6(2))"
        dist = distance(game, ichikokan, us)
        for d in (dist, dist + 1):
            assert S.japan_aop(game, d + 1) <= S.japan_aop(game, d), (
                f"Japanese AOP at {d + 1} hexes above that at {d} (7.2)")
            assert S.us_aop(game, d + 1) <= S.us_aop(game, d), (
                f"US AOP at {d + 1} hexes above that at {d} (7.2)")

    return check


# --------------------------------------------------------------------------- air operations (8.x)


@CODE.check("8.1", "a side with 0 AOP never rolls nor flies; the winner has AOP; a card only on "
                  "an unequal tie, from the deck; each operation costs exactly 1 AOP")
def initiative_and_aop(game: Game):
    aop_values = [v for v in game.get("tracks", "aop").values if isinstance(v, int)]
    cost = game.constant("aop-per-air-operation")
    cards = tuple(c.id for c in game.cards)

    @given(st.data(), st.sampled_from(aop_values), st.sampled_from(aop_values))
    def check(data, japan, us):
        deck = tuple(data.draw(st.lists(st.sampled_from(cards), unique=True), label="deck"))
        dice = DrawnDice(data)
        if japan == 0 and us == 0:
            assert refusal(S.initiative_with_draw, game, japan, us, deck, dice) is not None, (
                "an air operation with both sides at 0 AOP (8.2)")
            return
        result, card, rest = S.initiative_with_draw(game, japan, us, deck, dice)
        aop = {"japan": japan, "us": us}
        assert aop[result.winner] > 0, f"{result.winner} has the initiative with 0 AOP (8.1(3))"
        if 0 in (japan, us):
            assert not dice.rolls, f"a side with 0 AOP rolled: {dice.rolls} (8.1(3))"
        if card is None:
            assert rest == deck, "the deck changed without a draw"
        else:
            assert result.draws_card and japan != us and deck, f"card {card} drawn (8.1(2))"
            assert card in deck and sorted(rest + (card,)) == sorted(deck), (
                f"drew {card}: {deck} -> {rest} (2.3: cards are conserved)")
        if result.draws_card:
            assert card is not None, "a card draw with no card taken (8.1(2))"
        for side, value in aop.items():
            try:
                left = S.spend_aop(game, value)
            except RuleViolation:
                assert value < cost, f"{side} with {value} AOP may not fly (8.2)"
                continue
            assert left == value - cost and left >= 0, f"{value} AOP -> {left} (8.2)"
        if japan or us:
            first = S.solitaire_initiative(game, japan, us)
            assert aop[first] > 0, f"solitaire: {first} flies with 0 AOP (12.3(3))"
            if japan == us:
                assert first == game.constant("solitaire-tie-first"), "12.3(3): US first on a tie"

    return check


# --------------------------------------------------------------------------- air strikes (9.x)


def _strike_case(game: Game, data, dice, *, legal: bool = True):
    """A carrier area (standard start, earlier damage) and an airborne group with its strike."""
    state = standard_start(game, cap_fighters=data.draw(st.integers(0, 2), label="cap_fighters"))
    state = _damage(game, state, data, dice)
    for _ in range(data.draw(st.integers(0, 3), label="earlier_base_hits")):
        state = A.new_turn(A.hit_base(game, state, 1)[0])
    state = A.hit_base(game, state, data.draw(st.integers(0, 2), label="base_hits_turn"))[0]
    side = data.draw(st.sampled_from(SIDES), label="side")
    enemy = other(side)
    base = A.base_display(game).id
    targets = [d for d in divisions(game, enemy)
               if any(c not in state.sunk for c in division_carriers(game, d))]
    targets += [base] if side == "japan" else ([C.INVASION] if state.invasion else [])
    target = data.draw(st.sampled_from(targets), label="target")
    home = "land" if side == "us" and data.draw(st.booleans(), label="from_midway") else "carrier"
    types = _aircraft_types(game, side, home)
    limit = _group_limit(game, side, home == "land")
    kinds = data.draw(st.lists(st.sampled_from(types), min_size=1, max_size=limit), label="group")
    launched = data.draw(st.booleans(), label="launched")
    hex_id = data.draw(st.sampled_from(_hexes(game)), label="hex")
    group = []
    for i, type_id in enumerate(kinds):
        steps = data.draw(st.integers(1, game.constant("unit-steps-max")), label=f"steps_{i}")
        air = A.make_unit(game, f"x{i}-{type_id}", type_id, A.COMBAT_AREA, hex_id, steps)
        group.append(replace(air, group="x", launched=launched))
    state = replace(state, units=state.units + tuple(group))
    afloat = [c for c in division_carriers(game, target) if c not in state.sunk] \
        if target in divisions(game, enemy) else []
    assign = {}
    for air in group:
        if afloat and is_attack(game, air.type):
            pool = afloat if legal else [*afloat, "nowhere"]
            if not legal and data.draw(st.booleans(), label=f"skip_{air.uid}"):
                continue
            assign[air.uid] = data.draw(st.sampled_from(pool), label=f"assign_{air.uid}")
    cap = [u.uid for u in state.units if u.display == target and u.box == "cap"]
    cap = data.draw(st.lists(st.sampled_from(cap), unique=True), label="cap") if cap else []
    phase = target == base if legal or side == "us" else data.draw(st.booleans(),
                                                                   label="base_attack_phase")
    strike = C.Strike(group=tuple(u.uid for u in group), target=target, assign=assign,
                      cap=tuple(cap), base_attack_phase=phase)
    return state, strike


def _fighter_steps(game, units) -> int:
    return sum(u.steps for u in units if is_fighter(game, u.type))


def _attack_steps(game, units) -> int:
    return sum(u.steps for u in units if is_attack(game, u.type))


@CODE.check("9.2", "CAP and escort hits take 1 step each, escorts fire only after CAP losses; AA "
                  "dice 2/1/0 per carrier or the track, AA never hits fighters",
           max_examples=60)
def strike_fire(game: Game):
    aa = _aa_per_status(game)

    @given(st.data())
    def check(data):
        dice = DrawnDice(data)
        state, strike = _strike_case(game, data, dice)
        group = [state.unit(u) for u in strike.group]
        if not _attack_steps(game, group):
            return  # refused: see strike_refusals
        cap = [state.unit(u) for u in strike.cap]
        if strike.target == C.INVASION:
            want_aa = state.invasion
        elif strike.target == A.base_display(game).id:
            want_aa = state.garrison
        else:
            want_aa = sum(aa[A.status(game, state, c)]
                          for c in division_carriers(game, strike.target))
        after, report = C.air_strike(game, state, strike, dice)
        present = {u.uid: u for u in after.units}
        left = [present[u.uid] for u in group if u.uid in present]
        g_steps = sum(u.steps for u in group)
        assert report.cap_hits <= _fighter_steps(game, cap), (
            f"{report.cap_hits} CAP hits from {_fighter_steps(game, cap)} fighter steps (9.2(1))")
        fighters_lost = _fighter_steps(game, group) - _fighter_steps(game, left)
        assert fighters_lost <= report.cap_hits, (
            f"the group's fighters lost {fighters_lost} steps to {report.cap_hits} CAP hits: "
            f"AA hits fell on fighters (9.3(3))")
        lost = g_steps - sum(u.steps for u in left)
        by_cap = min(report.cap_hits, g_steps)
        assert by_cap <= lost <= by_cap + report.aa_hits, (
            f"the group lost {lost} steps to {report.cap_hits} CAP and {report.aa_hits} AA hits "
            f"(9.2(3), 9.3: 1 step per hit)")
        escorts = _fighter_steps(game, group)
        assert report.escort_hits <= escorts, (
            f"{report.escort_hits} escort hits from {escorts} fighter steps (9.2(2))")
        if not cap:
            assert report.cap_hits == report.escort_hits == 0, "fire without interceptors (9.2)"
        cap_lost = sum(u.steps for u in cap) - sum(present[u.uid].steps for u in cap
                                                    if u.uid in present)
        assert cap_lost >= min(report.escort_hits, sum(u.steps for u in cap)), (
            f"{report.escort_hits} escort hits but the CAP lost {cap_lost} steps (9.2(2)(3))")
        assert report.aa_dice == want_aa, (
            f"{report.aa_dice} AA dice, the rules give {want_aa} (9.3)")
        assert report.aa_hits <= report.aa_dice, f"{report.aa_hits} AA hits from {report.aa_dice}"
        attacking = _attack_steps(game, group)
        assert sum(report.attack_hits.values()) <= attacking, (
            f"{report.attack_hits} attack hits from {attacking} attack steps (9.4)")

    return check


@CODE.check("9.4(2)", "each hit marks a deck box (its unit lost), the second sinks the carrier "
                     "with all aboard; the other division is untouched; survivors go to Return "
                     "1 after a launch or the base, else Return 2", max_examples=60)
def strike_damage(game: Game):
    base = A.base_display(game).id
    per_turn = game.constant("base-hits-per-turn")
    floor = game.constant("garrison-air-attack-floor")

    @given(st.data())
    def check(data):
        dice = DrawnDice(data)
        state, strike = _strike_case(game, data, dice)
        group = [state.unit(u) for u in strike.group]
        if not _attack_steps(game, group):
            return
        after, report = C.air_strike(game, state, strike, dice)
        A.check_state(game, after)
        present = {u.uid: u for u in after.units}
        side = unit_side(game, group[0].type)
        if strike.target in divisions(game, "japan") + divisions(game, "us"):
            for c in division_carriers(game, strike.target):
                hits = report.attack_hits.get(c, 0)
                before = A.status(game, state, c)
                want = _status_after(before, hits)
                got = A.status(game, after, c)
                assert got == want, f"{c}: {before} + {hits} hit(s) = {got}, not {want} (9.4(2))"
                if got == "sunk" and before != "sunk":
                    kept = [u.uid for u in A.aboard(game, state, c) if u.uid in present]
                    assert not kept, f"{c} sank but {kept} stay in play (9.4(2))"
            for d, box_id in after.damage - state.damage:
                kept = [u.uid for u in state.in_box(d, box_id) if u.uid in present]
                assert not kept, f"{box_id} was hit but {kept} stay in play (9.4(2))"
            for c in carriers(game):
                if c.get("division") != strike.target:
                    assert A.status(game, after, c.id) == A.status(game, state, c.id), (
                        f"{c.id} outside the target {strike.target} was damaged (9.1)")
            if all(c in after.sunk for c in division_carriers(game, strike.target)):
                assert not after.in_box(strike.target, "cap"), (
                    "CAP fighters of an all-sunk division stay in play (9.5(1), E17)")
        elif strike.target == base:
            applied = report.base_hits_applied
            assert applied <= per_turn - state.base_hits_turn, (
                f"{applied} base hits applied after {state.base_hits_turn} this turn (9.6(3))")
            assert after.garrison == state.garrison - applied >= floor, (
                f"Garrison {state.garrison} -> {after.garrison} with {applied} hits (9.6(3))")
        else:
            hits = report.attack_hits.get(C.INVASION, 0)
            assert after.invasion == max(0, state.invasion - hits), (
                f"Invasion Force {state.invasion} -> {after.invasion} with {hits} hits (9.4(3))")
        untouched = [u for u in state.units if u.uid not in strike.group
                     and u.uid not in strike.cap and u.display != strike.target
                     and not u.airborne]
        for u in untouched:
            assert present.get(u.uid) == u, f"{u.uid} changed by a strike on {strike.target}"
        survivors = [present[u.uid] for u in group if u.uid in present]
        want_box = "return-1" if strike.target == base or group[0].launched else "return-2"
        for u in survivors:
            assert u.box == want_box and A.display(game, u.display).side == side, (
                f"{u.uid} returned to {u.display}/{u.box}, not an own {want_box} "
                f"(9.5(2), 9.6(5); launched={group[0].launched})")
        for uid in strike.cap:
            if uid in present:
                assert _kind(game, present[uid]) in ("deck", "runway", "hangar"), (
                    f"interceptor {uid} did not land: {present[uid].box} (9.5(1))")

    return check


@CODE.check("9.0", "a strike is refused, before any die is rolled, with no attack aircraft, an "
                  "unassigned attack unit, or a Japanese base attack outside the base-attack "
                  "phase", max_examples=60)
def strike_refusals(game: Game):
    base = A.base_display(game).id

    @given(st.data())
    def check(data):
        dice = DrawnDice(data)
        state, strike = _strike_case(game, data, dice, legal=False)
        dice.rolls.clear()
        group = [state.unit(u) for u in strike.group]
        attack = [u for u in group if is_attack(game, u.type)]
        afloat = [c for c in division_carriers(game, strike.target) if c not in state.sunk] \
            if strike.target not in (base, C.INVASION) else []
        wrong = (not attack
                 or (strike.target == base) != strike.base_attack_phase
                 or any(strike.assign.get(u.uid) not in afloat for u in attack if afloat))
        refused = refusal(C.air_strike, game, state, strike, dice) is not None
        if refused:
            assert not dice.rolls, f"dice rolled before the strike was refused: {dice.rolls}"
        assert refused == wrong, (
            f"strike {strike} {'refused' if refused else 'accepted'} (9.0, 9.4, 6.4)")

    return check


@CODE.check("9.6(3)", "through whole Japanese strikes over several turns base hits per turn <= "
                     "2, Garrison >= 2 and = 6 - hits, runway boxes lost = min(3, hits)",
           max_examples=40)
def base_strikes(game: Game):
    base = A.base_display(game).id
    attackers = [u for u in _aircraft_types(game, "japan", "carrier") if is_attack(game, u)]

    @given(st.data())
    def check(data):
        dice = DrawnDice(data)
        state = standard_start(game)
        for turn in range(data.draw(st.integers(1, 3), label="turns")):
            state = A.new_turn(state)
            for op in range(data.draw(st.integers(1, 2), label="operations")):
                n = data.draw(st.integers(1, 4), label="attack_units")
                group = tuple(replace(A.make_unit(game, f"t{turn}o{op}u{i}", attackers[i % 2],
                                                  A.COMBAT_AREA, midway_hex(game)),
                                      group=f"t{turn}o{op}", launched=True) for i in range(n))
                state = replace(state, units=state.units + group)
                strike = C.Strike(group=tuple(u.uid for u in group), target=base,
                                  base_attack_phase=True)
                state, report = C.air_strike(game, state, strike, dice)
                _check_base(game, state)
                assert report.base_hits_applied <= report.attack_hits.get("base", 0)

    return check


@CODE.check("9.4(1)", "more firepower never fewer hits: a modifier never lowers the hit "
           "number, another step or attack aircraft on the target deck never fewer hits for the "
           "same dice, the base (-1) never easier than the Invasion Force")
def attack_monotone(game: Game):
    attack_types = [u.id for u in game.units if "attack-aircraft" in u.tags]
    start = standard_start(game)
    base = A.base_display(game).id

    @given(st.sampled_from(attack_types), st.sampled_from(["carrier", "base", "invasion"]),
           st.booleans(), st.booleans(), st.lists(st.integers(1, 6), min_size=2, max_size=2))
    def check(type_id, kind, loaded, combined, rolls):
        side = unit_side(game, type_id)
        air = replace(A.make_unit(game, "a", type_id, A.COMBAT_AREA, "A-1", 1), group="x")
        low = C.attack_number(game, air, kind, False, False)
        high = C.attack_number(game, air, kind, loaded, combined)
        assert low <= high, (
            f"{type_id} vs {kind}: hit number {low} unmodified, {high} with deck_loaded="
            f"{loaded}, combined={combined} (9.4(1))")
        assert C.attack_number(game, air, "base", loaded, combined) <= C.attack_number(
            game, air, "invasion", False, False), f"{type_id}: the base hit more easily (9.6(2))"
        assert C.aa_hit_on(game, True) <= C.aa_hit_on(game, False), (
            "AA hits an escorted group more easily than an unescorted one (9.3(2))")
        enemy = other(side)
        if kind == "carrier":
            target = divisions(game, enemy)[0]
            carrier = division_carriers(game, target)[0]
        else:
            target, carrier = (base if side == "japan" else C.INVASION), None
        strike = C.Strike(group=("a",), target=target,
                          assign={"a": carrier} if carrier else {}, base_attack_phase=False)

        def hits(steps, state):
            state = replace(state, units=state.units + (replace(air, steps=steps),))
            dice = GivenDice({"attack": rolls, "hit_location": [1] * 4})
            return sum(C.attack(game, state, strike, side, dice)[1].values())

        one, two = hits(1, start), hits(2, start)
        assert one <= two, f"{type_id} vs {kind}, rolls {rolls}: 2 steps {two} < 1 step {one}"
        if carrier:
            cleared = A.remove(start, [u.uid for u in A.on_deck(game, start, carrier)])
            assert hits(2, cleared) <= two, (
                f"{type_id} vs {carrier}, rolls {rolls}: attack aircraft on its deck gave "
                f"fewer hits (9.4(1))")

    return check


# --------------------------------------------------------------------------- night (10.x)


@CODE.check("10.1(2)", "surface-battle hits are 0-4 on the US and 0-2 on the Japanese, rise with "
                      "the roll, and every hit is allocated (a carrier takes it as 9.4(2))")
def surface_battle(game: Game):
    @given(st.data(), st.integers(1, 6), st.integers(1, 6))
    def check(data, japan_roll, us_roll):
        hits = N.surface_battle(game, GivenDice({"japan_roll": japan_roll, "us_roll": us_roll}))
        assert 0 <= hits["hits_on_us"] <= 4, f"J roll {japan_roll}: {hits['hits_on_us']} (0-4)"
        assert 0 <= hits["hits_on_japan"] <= 2, f"US roll {us_roll}: {hits['hits_on_japan']} (0-2)"
        if japan_roll < 6:
            more = N.surface_battle(game, GivenDice({"japan_roll": japan_roll + 1,
                                                     "us_roll": us_roll}))
            assert more["hits_on_us"] >= hits["hits_on_us"], "a higher roll, fewer hits"
        if us_roll < 6:
            more = N.surface_battle(game, GivenDice({"japan_roll": japan_roll,
                                                     "us_roll": us_roll + 1}))
            assert more["hits_on_japan"] >= hits["hits_on_japan"], "a higher roll, fewer hits"
        dice = DrawnDice(data)
        state = _damage(game, standard_start(game), data, dice)
        side = data.draw(st.sampled_from(SIDES), label="hit_side")
        count = hits["hits_on_us" if side == "us" else "hits_on_japan"]
        pool = [c.id for c in carriers(game, side)] + ([N.INVASION] if side == "japan" else [])
        targets = data.draw(st.lists(st.sampled_from(pool), max_size=5), label="targets")
        try:
            after = N.apply_surface_hits(game, state, side, targets, count, dice)
        except RuleViolation:
            assert len(targets) != count, f"{count} hits allocated to {targets} was refused"
            return
        assert len(targets) == count or all(c in state.sunk for c in pool if c != N.INVASION), (
            f"{count} hits, {len(targets)} allocated (10.1(2))")
        for c in set(targets) - {N.INVASION}:
            want = _status_after(A.status(game, state, c), targets.count(c))
            assert A.status(game, after, c) == want, (
                f"{c}: {targets.count(c)} surface hits give {A.status(game, after, c)} (9.4(2))")
        assert after.invasion == max(0, state.invasion - targets.count(N.INVASION))
        A.check_state(game, after)

    return check


@CODE.check("10.2(2)", "night recovery: Return 2 steps roll (lost on 5-6 J / 4-6 US, more "
           "likely never less), everything ends in hangars, capacity holds, no step gained",
           max_examples=40)
def night_recovery(game: Game):
    @given(st.data(), st.sampled_from(SIDES))
    def check(data, side):
        dice = DrawnDice(data)
        state = _damage(game, standard_start(game, cap_fighters=1), data, dice)
        moved = []
        for air in state.units:
            where = data.draw(st.sampled_from(["stay", "stay", "return-1", "return-2"]),
                              label=f"where_{air.uid}") if air.home == "carrier" else "stay"
            moved.append(air if where == "stay" else replace(air, box=where))
        state = replace(state, units=tuple(moved))
        before = {u.uid: u for u in state.units}
        after = N.night_operation(game, state, side, dice)
        A.check_state(game, after)
        for u in after.units:
            old = before[u.uid]
            assert u.steps <= old.steps, f"{u.uid} gained a step at night"
            if unit_side(game, u.type) != side:
                assert u == old, f"{u.uid} of the other side moved in the {side} night op"
            else:
                assert _kind(game, u) == "hangar", f"{u.uid} ends the night op in {u.box} (10.2(2))"
                if old.box != "return-2":
                    assert u.steps == old.steps, f"{u.uid} lost a step without a night landing"
        for roll in range(1, 6):
            assert N.night_landing_lost(game, side, roll) <= N.night_landing_lost(
                game, side, roll + 1), f"{side}: a landing lost on {roll} but not {roll + 1}"

    return check


@CODE.check("10.3", "the landing ends when one track reaches X (captured iff the Garrison "
           "does), tracks only fall; the odds sum to 1, rise with the Invasion Force and fall "
           "with the Garrison")
def landing(game: Game):
    invasions = track_values(game, "invasion-force")
    garrisons = track_values(game, "garrison")

    @given(st.sampled_from(invasions), st.sampled_from(garrisons),
           st.lists(st.integers(1, 6), min_size=1, max_size=30))
    def check(invasion, garrison, rolls):
        result = L.landing(game, invasion, garrison, GivenDice({L.ROLLS: rolls}))
        j = 0 if result["invasion"] == "X" else result["invasion"]
        g = 0 if result["garrison"] == "X" else result["garrison"]
        assert 0 <= j <= invasion and 0 <= g <= garrison, f"tracks rose: {result}"
        assert (invasion - j) + (garrison - g) <= len(rolls), f"{len(rolls)} rolls, {result}"
        want = "captured" if g == 0 else "repulsed" if j == 0 else "undecided"
        assert result["outcome"] == want and not (g == 0 and j == 0), f"10.3: {result}"
        odds = L.landing_odds(game, invasion, garrison)
        assert sum(odds.values()) == 1, f"landing odds sum to {sum(odds.values())}"
        if invasion + 1 in invasions:
            assert L.landing_odds(game, invasion + 1, garrison)["captured"] >= odds["captured"]
        if garrison + 1 in garrisons:
            assert L.landing_odds(game, invasion, garrison + 1)["captured"] <= odds["captured"]

    return check


# --------------------------------------------------------------------------- cards (11.0, 12.3)


@CODE.check("11.0(2)", "the Prototype Scout never follows the Malfunction and never applies "
                      "beside it; the solitaire deck conserves its 8 cards and never draws from "
                      "nothing", max_examples=60)
def cards(game: Game):
    ids = [c.id for c in game.cards]
    prototype = S.card_id(game, S.PROTOTYPE_SCOUT)
    malfunction = S.card_id(game, S.SCOUT_MALFUNCTION)
    numbers = sorted(int(c.number) for c in game.cards)
    reshuffle = [int(r.extra["card"]) for r in game.table("solitaire-move").rows
                 if r.extra.get("move") == So.RESHUFFLE]

    @given(st.data(), st.permutations(ids), st.integers(0, 12))
    def check(data, order, draws):
        plays = order[:data.draw(st.integers(0, len(order)), label="played")]
        try:
            applied = S.search_cards(game, plays)
        except RuleViolation:
            assert prototype in plays and malfunction in plays and (
                plays.index(malfunction) < plays.index(prototype)), f"{plays} refused (11.0(2))"
        else:
            assert not (prototype in applied and malfunction in applied), (
                f"{applied}: the Prototype applies beside the Malfunction (11.0(2))")
        cards = So.solitaire_cards(game)
        hand = tuple(n for n in numbers if n not in cards.deck + cards.discard)
        dice = DrawnDice(data)
        for _ in range(draws):
            size = len(cards.deck)
            try:
                card, cards = So.draw_move_card(game, cards, dice)
            except RuleViolation:
                assert set(cards.deck) <= set(reshuffle), (
                    f"a draw from a deck of {size} cards {cards.deck} was refused (12.3(2))")
                break
            assert card not in reshuffle, f"card {card} was drawn as a move (12.3(2))"
            pile = cards.deck + cards.discard + hand
            assert len(set(pile)) == len(pile), f"a card is in two places: {pile} (2.3)"
            assert set(numbers) - set(pile) <= set(reshuffle), (
                f"cards {sorted(set(numbers) - set(pile))} lost after drawing {card}: the 8 "
                f"cards are not conserved (2.3, E21)")
            assert cards.discard[-1] == card, f"{card} not discarded (12.3(2))"

    return check


@CODE.check("12.3(2)", "solitaire: a card moves the US fleet at most its hexes toward or away "
                      "from the 1st Air Fleet, never into F-6, by day never into its hex")
def solitaire_moves(game: Game):
    hexes = _fleet_hexes(game)
    table = game.table("solitaire-move")
    moves = [int(r.extra["card"]) for r in table.rows if r.extra.get("move") != So.RESHUFFLE]
    night = game.constant("night-turn")

    @given(st.sampled_from(hexes), st.sampled_from(hexes), st.sampled_from(moves),
           st.integers(game.constant("solitaire-start-turn"), game.constant("turns")))
    def check(us, ichikokan, card, turn):
        if us == ichikokan:
            return
        row = So.move_card(game, card)
        to = So.solitaire_move(game, us, ichikokan, card, turn=turn)
        assert to != midway_hex(game), f"card {card}: the US fleet enters Midway (6.1(2))"
        if turn != night:
            assert to != ichikokan, f"card {card}, Turn {turn}: US ends on the 1st Air Fleet"
        assert distance(game, us, to) <= int(row["hexes"]), f"card {card}: {us} -> {to}"
        before, now = distance(game, us, ichikokan), distance(game, to, ichikokan)
        if row["move"] == "toward":
            assert now <= before, f"card {card} toward: {us} -> {to} farther (12.3(2))"
        elif row["move"] == "away":
            assert now >= before, f"card {card} away: {us} -> {to} nearer (12.3(2))"
        else:
            assert to == us, f"card {card} stays: {us} -> {to}"

    return check


@CODE.check("12.3(4)", "the solitaire US keeps CAP fighters, launches every deck attack "
                      "aircraft, moves one fighter to an empty CAP, never merges or loses a "
                      "step in its own operation; only the Japanese reorganize; one card "
                      "instead of an op",
           max_examples=40)
def solitaire_policy(game: Game):
    ichikokan_hex = "D-3"
    fleet_hex = "F-3"
    ret = So.us_return_display(game)
    per_cap = game.constant("solitaire-us-cap-fighters")
    once = game.constant("solitaire-card-instead-of-op")

    @given(st.data(), st.integers(1, 4))
    def check(data, operations):
        state = So.solitaire_start(game)
        for _ in range(operations):
            us_before = [u for u in state.units if unit_side(game, u.type) == "us"]
            cap_before = [u.uid for u in So.us_cap_fighters(game, state)]
            deck_attack = [u.uid for u in us_before if not u.airborne
                           and _kind(game, u) == "deck" and is_attack(game, u.type)]
            deck_fighters = [u.uid for u in us_before if not u.airborne
                             and _kind(game, u) == "deck" and is_fighter(game, u.type)]
            step = So.us_air_operation(game, state, fleet_hex)
            A.check_state(game, step.state)
            after = {u.uid: u for u in step.state.units}
            assert all(after[u].box == "cap" for u in cap_before), "CAP fighters moved (12.3(4)a)"
            assert all(after[u].airborne for u in deck_attack), (
                f"deck attack aircraft {deck_attack} did not all launch (12.3(4)b)")
            if not cap_before and deck_fighters:
                assert len(step.to_cap) == min(per_cap, len(deck_fighters)), (
                    f"{step.to_cap} to an empty CAP (12.3(4)b)")
            else:
                assert not step.to_cap, f"{step.to_cap} to CAP with fighters already there"
            for g in step.launch:
                units = [after[u] for u in g]
                assert any(is_attack(game, u.type) for u in units), f"group {g} cannot attack"
                land = any(u.home == "land" for u in units)
                assert len(units) <= _group_limit(game, "us", land), f"group {g} too large (8.4(2))"
            us_after = [u for u in step.state.units if unit_side(game, u.type) == "us"]
            assert sum(u.steps for u in us_after) == sum(u.steps for u in us_before) and len(
                us_after) <= len(us_before), "the solitaire US merged or lost steps (12.3(4)f)"
            state = step.state
            for gid in _groups(state):
                uids = [u.uid for u in state.group(gid)]
                if So.us_group_action(game, state, gid, ichikokan_hex) == "attack":
                    box = data.draw(st.sampled_from(["return-1", "return-2"]), label="box")
                    state = C.send_to_return(game, state, uids, ret, box)
                else:
                    state = C.no_target(game, state, gid, ret)
        us = [u for u in state.units if unit_side(game, u.type) == "us" and not u.airborne]
        japan = [u for u in state.units if unit_side(game, u.type) == "japan"]
        for a in us:
            for b in us:
                assert refusal(So.solitaire_reorganize, game, state, a.uid, b.uid) is not None, (
                    f"the solitaire US merged {a.uid} and {b.uid} (12.3(4)f)")
        pairs = [(a, b) for a in japan for b in japan if a.uid != b.uid and a.type == b.type
                 and (a.display, a.box) == (b.display, b.box) and a.steps == b.steps == 1]
        for a, b in pairs[:1]:
            merged = So.solitaire_reorganize(game, state, a.uid, b.uid)
            assert merged.unit(a.uid).steps == 2, "the Japanese may reorganize (12.3(7))"
        for used in range(once + 2):
            allowed = refusal(So.take_card_instead_of_op, game, used, 1) is None
            assert allowed == (used < once), f"card instead of an op, time {used + 1} (12.3(7))"

    return check

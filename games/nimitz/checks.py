"""Rule invariants of Nimitz (I1-I42) as hypothesis properties over the engine.

Every property drives the engine's own procedures (``rules/``) and
checks what the rule says must hold afterwards; numbers the rule leaves to the
game (capacities, costs, divisors, box orders) are read from the game's data, so
a test can hand in a modified game, or monkeypatch one engine function, and see
the property FAIL. The stateful ones are ``RuleBasedStateMachine`` classes that
play any sequence of legal moves through the engine's pure transitions.

Invariants with no engine procedure to drive are left out: I8 (target
eligibility by combat step), I11 (ground-combat positions), I16 (complement reset),
I17/I19/I22 (a whole battle loop: areas, battle-plan count, carrier aircraft kept),
I38 (the campaign turn loop) and I42 (recon placement). I9 and I21 are covered only
as far as the engine goes (air combat touches only the area's aircraft; every battle
has at least one round).
"""

from __future__ import annotations

import math
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, precondition, rule
from hypothesis.stateful import invariant as holds
from warpress.engine.catalogue import ref_table
from warpress.engine.dice import SeededDice, faces
from warpress.engine.errors import RuleViolation
from warpress.engine.model import Game
from warpress.engine.query import run_lookup

from . import CODE
from .rules import campaign as cp
from .rules import combat as cb
from .rules import orders as od
from .rules.common import (
    DIE,
    AttackValue,
    Piece,
    campaign_map,
    graph,
    is_carrier,
    is_escort,
    is_ground,
    is_land_air,
    is_ship,
    piece_cost,
    point_record,
    stat,
    table_row,
)

STATES = ("full", "damaged")
#: the campaign results, worst first (12.6, 4.0)
LINKED_ORDER = ("ignominious-defeat", "disappointing", "historical", "historic-triumph",
                "great-victory")
LEVEL_ORDER = ("dismissal", "worse-than-historical", "as-historical", "better-than-historical")


# --------------------------------------------------------------------------- helpers


def _int(game: Game, constant_id: str) -> int:
    """An integer constant of the game's data."""
    return int(game.constant(constant_id))


def _units(game: Game, test, side: str | None = None) -> list[str]:
    """Ids of the game's units passing ``test`` (of one side), in data order."""
    return [u.id for u in game.units if test(u) and (side is None or u.side == side)]


def _ids(pool: list[str], max_size: int):
    """Distinct unit ids from ``pool`` (shown by id in a counterexample)."""
    return st.lists(st.sampled_from(pool), unique=True, max_size=max_size)


def _get(game: Game, ids) -> list:
    """The units of ``ids``."""
    return [game.get("units", i) for i in ids]


def _points(game: Game) -> list[str]:
    """Campaign-map point ids in data order."""
    return [p.id for p in campaign_map(game).points]


def _pieces():
    """Hit targets: (cost, full|damaged) pairs."""
    return st.lists(st.tuples(st.integers(0, 6), st.sampled_from(STATES)),
                    min_size=1, max_size=7)


def _planes():
    """Returning aircraft: (cost, full|damaged) pairs."""
    return st.lists(st.tuples(st.integers(0, 5), st.sampled_from(STATES)), max_size=9)


def _make_planes(spec) -> list[cb.Plane]:
    return [cb.Plane(f"p{i}", cost, state) for i, (cost, state) in enumerate(spec)]


def _alive(piece: Piece) -> bool:
    """A piece that can still take a hit (an airfield with capacity left)."""
    if piece.is_airfield:
        return (piece.capacity or 0) > 0
    return piece.state != "destroyed"


def _rank(piece: Piece) -> tuple[int, bool]:
    """The 10.10.2 order: lower cost first, damaged before full at equal cost."""
    return (piece.cost, piece.state != "damaged")


def _removal_key(plane: cb.Plane) -> tuple[bool, int]:
    """Japanese excess aircraft go damaged first, then lowest cost (10.20.3, 10.21.1)."""
    return (plane.state != "damaged", plane.cost)


def _check_removal(side: str, landing: cb.Landing, planes: list[cb.Plane], room: int) -> None:
    """Landed + removed are the returning planes; no more land than fit; Japan's order."""
    assert Counter(landing.landed + landing.removed) == Counter(planes), "aircraft lost or added"
    assert len(landing.landed) == min(room, len(planes)), (
        f"{len(landing.landed)} landed with room for {room} of {len(planes)}")
    chosen = side == "us" and bool(landing.landed) and bool(landing.removed)
    assert landing.player_choice == chosen, (
        f"player_choice {landing.player_choice}: the US player chooses only when some "
        "aircraft land and some do not (10.20.4, 10.21.2)")
    if side == "japan" and landing.landed and landing.removed:
        kept = min(_removal_key(p) for p in landing.landed)
        worst = max(_removal_key(p) for p in landing.removed)
        assert worst <= kept, f"Japan removed {worst} but kept {kept} (damaged, cheapest first)"


# --------------------------------------------------------------------------- dice and hits


@CODE.check("2.4", "every die result is 1-10 (one d10, 0 reads 10)")
def die_results(game: Game):
    sides = _int(game, "die-faces")

    @given(st.integers(0, 10**6))
    def check(seed):
        dice = SeededDice(seed)
        rolls = [dice.roll(DIE) for _ in range(12)]
        assert set(faces(DIE)) == set(range(1, sides + 1))
        assert all(1 <= r <= sides for r in rolls), f"rolls {rolls}"

    return check


@CODE.check("2.6.4", "one attack die scores 0, 1 or 2 hits; 2 only on die <= superior")
def attack_die_hits(game: Game):
    most = _int(game, "max-hits-per-die")
    top = game.table("attack").key("value").max or 20
    rolls = faces(DIE)

    @given(st.integers(0, top).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n))),
           st.sampled_from(rolls))
    def check(value, roll):
        normal, superior = value
        hits = cb.attack_hits(game, AttackValue(normal, superior), roll)
        assert 0 <= hits <= most, f"{hits} hits from value {normal}/{superior}, die {roll}"
        assert (hits == 2) == (roll <= superior), (
            f"{hits} hits from value {normal}/{superior}, die {roll}")
        assert (hits >= 1) == (roll <= normal), (
            f"{hits} hits from value {normal}/{superior}, die {roll}")

    return check


@CODE.check("10.7", "kamikaze adds no hit in 1942/1943 and only to anti-ship attacks")
def kamikaze_void(game: Game):
    @given(st.sampled_from(("1942", "1943", "1944", "1945")),
           st.sampled_from(("anti_ship", "anti_ground", "air", "gunnery")))
    def check(campaign, stat_kind):
        extra = cb.kamikaze_hits(game, stat_kind, ["kamikaze"], campaign)
        if campaign in ("1942", "1943") or stat_kind != "anti_ship":
            assert extra == 0, f"kamikaze gave {extra} hits in {campaign} ({stat_kind})"
        else:
            assert extra == _int(game, "kamikaze-extra-hits")

    return check


@CODE.check("10.10.2", "hits go to the lowest-cost unit, damaged first; no unit takes more than "
                      "its steps; airfields lose capacity to 0", max_examples=40)
def hit_allocation(game: Game):
    steps = _int(game, "unit-steps")
    per_step = _int(game, "hits-per-step")
    field_cost = _int(game, "airfield-hit-cost")
    loss = _int(game, "airfield-capacity-loss-per-hit")

    class HitAllocation(RuleBasedStateMachine):
        """One area's targets taking single hits and volleys through ``allocate_hits``."""

        @initialize(units=_pieces(), airfield=st.none() | st.integers(0, 6))
        def setup(self, units, airfield):
            pieces = [Piece(f"u{i}", cost, state) for i, (cost, state) in enumerate(units)]
            if airfield is not None:
                pieces.append(Piece("airfield", field_cost, capacity=airfield))
            self.start = tuple(pieces)
            self.pieces = tuple(pieces)
            self.fired = 0
            self.unused = 0

        @rule()
        def one_hit(self):
            before = self.pieces
            done = cb.allocate_hits(game, before, 1)
            changed = [i for i, (a, b) in enumerate(zip(before, done.pieces, strict=True))
                       if a != b]
            alive = [p for p in before if _alive(p)]
            if not alive:
                assert done.unused == 1 and not changed, "a hit landed on no living target"
            else:
                assert len(changed) == 1 and done.unused == 0, f"one hit changed {changed}"
                hit = before[changed[0]]
                best = min(_rank(p) for p in alive)
                assert _rank(hit) == best, (
                    f"hit {hit.name} (cost {hit.cost}, {hit.state}) while a target of cost "
                    f"{best[0]}, {'full' if best[1] else 'damaged'} was alive")
            self._record(done, 1)

        @rule(hits=st.integers(0, 8))
        def volley(self, hits):
            done = cb.allocate_hits(game, self.pieces, hits)
            one_by_one, unused = self.pieces, 0
            for _ in range(hits):
                step = cb.allocate_hits(game, one_by_one, 1)
                one_by_one, unused = step.pieces, unused + step.unused
            assert done.pieces == one_by_one and done.unused == unused, (
                f"a volley of {hits} differs from {hits} single hits")
            self._record(done, hits)

        def _record(self, done: cb.Allocation, hits: int) -> None:
            self.pieces = done.pieces
            self.fired += hits
            self.unused += done.unused

        @holds()
        def steps_respected(self):
            for old, new in zip(self.start, self.pieces, strict=True):
                if new.is_airfield:
                    assert new.capacity is not None and new.capacity >= 0, (
                        f"airfield capacity {new.capacity}")
                    assert new.capacity == max(0, (old.capacity or 0) - loss * new.hits)
                    continue
                room = steps if old.state == "full" else steps - per_step
                assert new.state in ("full", "damaged", "destroyed")
                assert new.hits <= room, f"{new.name} ({old.state}) took {new.hits} hits"
                assert (new.state == "destroyed") == (new.hits == room), (
                    f"{new.name} ({old.state}) is {new.state} after {new.hits} hits")

        @holds()
        def hits_conserved(self):
            taken = sum(p.hits for p in self.pieces)
            assert taken + self.unused == self.fired, (
                f"{self.fired} hits fired, {taken} taken, {self.unused} lost")

    return HitAllocation


@CODE.check("10.10.2", "the US player's listing order only breaks ties: Japanese hits never "
                      "reach a higher-cost US unit first")
def listing_order_only_breaks_ties(game: Game):
    @given(_pieces().flatmap(lambda ps: st.tuples(st.just(ps), st.permutations(range(len(ps))))),
           st.integers(0, 12))
    def check(drawn, hits):
        spec, order = drawn
        pieces = [Piece(f"u{i}", cost, state) for i, (cost, state) in enumerate(spec)]
        listed = [pieces[i] for i in order]
        a = cb.allocate_hits(game, pieces, hits)
        b = cb.allocate_hits(game, listed, hits)
        outcome_a = Counter((o.cost, o.state, n.state) for o, n in zip(pieces, a.pieces,
                                                                       strict=True))
        outcome_b = Counter((o.cost, o.state, n.state) for o, n in zip(listed, b.pieces,
                                                                       strict=True))
        assert outcome_a == outcome_b, f"listing order changed who was hit: {hits} hits"
        assert a.unused == b.unused

    return check


@CODE.check("2.6.3", "hit cost: carriers 1, airfields 1, battalions 0; carriers buy/repair at "
                    "the right value")
def hit_costs(game: Game):
    @given(st.sampled_from([u.id for u in game.units]))
    def check(unit_id):
        item = game.get("units", unit_id)
        cost = piece_cost(game, item.id, "units")
        if is_carrier(item):
            assert cost == _int(game, "carrier-hit-cost") == 1, f"{item.id} hit cost {cost}"
        if item.type == "battalion":
            assert cost == _int(game, "battalion-cost") == 0, f"{item.id} hit cost {cost}"
        assert cp.unit_hit_cost(game, item.id) == cost
        assert cp.unit_buy_cost(game, item.id) == int(stat(item, "cost_buy"))
        assert piece_cost(game, "airfield", "units") == _int(game, "airfield-hit-cost") == 1

    return check


@CODE.check("10.10.2", "a transport never takes hits: the allocate-hits table refuses it")
def transports_never_hit(game: Game):
    table = ref_table(game, "allocate-hits")

    @given(_pieces(), st.integers(0, 6), st.sampled_from(("transport", "TR")))
    def check(spec, hits, name):
        units = [f"u{i}:{c}:{s}" for i, (c, s) in enumerate(spec)] + [f"{name}:0:full"]
        try:
            run_lookup(game, table, [f"units={','.join(units)}", f"hits={hits}", "side=japan"])
        except RuleViolation:
            return
        raise AssertionError(f"a {name} took part in hit allocation")

    return check


# --------------------------------------------------------------------------- AA, ASW, air


def _aa(item) -> tuple[int, int]:
    """A ship's printed AA value (normal, superior), read from its counter data."""
    return (int(stat(item, "aa") or 0), int(stat(item, "aa_sup") or 0))


@CODE.check("10.12.1", "AA: per row at most one ship per enemy aircraft, the highest AA fire; no "
                      "submarine fires")
def aa_rows(game: Game):
    per = _int(game, "aa-shots-per-aircraft-per-row")
    by_side = {side: _units(game, is_ship, side) for side in ("us", "japan")}

    @given(st.sampled_from(("us", "japan")).flatmap(lambda s: _ids(by_side[s], 9)),
           st.integers(0, 8))
    def check(ship_ids, aircraft):
        ships = _get(game, ship_ids)
        rows = cb.aa_rows(game, ships, aircraft)
        assert len(rows) == 2
        for row, member in zip(rows, (is_escort, is_carrier), strict=True):
            able = [s for s in ships if member(s) and stat(s, "aa") is not None]
            assert all(member(s) for s in row), f"{[s.id for s in row]} in the wrong row"
            assert len(row) == min(len(able), aircraft * per), (
                f"{len(row)} of {len(able)} ships fire at {aircraft} aircraft")
            idle = [s for s in able if s not in row]
            if row and idle:
                assert min(_aa(s) for s in row) >= max(_aa(s) for s in idle), (
                    "a lower-AA ship fired while a higher-AA ship did not")

    return check


@CODE.check("10.15", "ASW: at most one ship per enemy submarine, the highest ASW attack")
def asw_attackers(game: Game):
    per = _int(game, "asw-attacks-per-submarine")
    ships = _units(game, is_ship)

    @given(_ids(ships, 9), st.integers(0, 4))
    def check(pool_ids, subs):
        pool = _get(game, pool_ids)
        attackers = cb.asw_attackers(game, pool, subs)
        able = [s for s in pool if stat(s, "asw") is not None]
        assert len(attackers) == min(len(able), subs * per), (
            f"{len(attackers)} attackers for {subs} submarines")
        idle = [s for s in able if s not in attackers]
        if attackers and idle:
            assert min(stat(s, "asw") for s in attackers) >= max(stat(s, "asw") for s in idle)

    return check


@CODE.check("10.11", "air combat: both sides' hits are rolled before any is applied, and land on "
                    "aircraft of that area only")
def air_combat_simultaneous(game: Game):
    flyers = st.lists(st.tuples(st.integers(0, 4), st.sampled_from(STATES),
                                st.none() | st.integers(0, 8)), max_size=5)

    def make(spec, side):
        return [cb.Flyer(Piece(f"{side}{i}", c, s), None if a is None else AttackValue(a))
                for i, (c, s, a) in enumerate(spec)]

    @given(flyers, flyers, st.integers(0, 10**6))
    def check(us_spec, jp_spec, seed):
        us, japan = make(us_spec, "us"), make(jp_spec, "jp")
        dice = SeededDice(seed)
        us_after, jp_after = cb.air_combat(game, us, japan, dice)
        assert [p.name for p in us_after] == [f.piece.name for f in us]
        assert [p.name for p in jp_after] == [f.piece.name for f in japan]
        if not us or not japan:
            assert not dice.rolls and us_after == tuple(f.piece for f in us)
            return
        rolled = Counter(name for name, _die, _v in dice.rolls)
        assert rolled["us"] == sum(f.air is not None for f in us), "a US fighter did not fire"
        assert rolled["japan"] == sum(f.air is not None for f in japan), (
            "a Japanese fighter shot down first did not fire (fire is simultaneous)")

    return check


# --------------------------------------------------------------------------- aircraft return


@CODE.check("10.20.2", "a carrier takes back at most what it carried, a damaged one none; Japan "
                      "drops damaged, then cheapest first")
def carrier_return(game: Game):
    @given(st.sampled_from(("us", "japan")), st.integers(0, 6), st.booleans(), _planes())
    def check(side, complement, damaged, spec):
        planes = _make_planes(spec)
        landing = cb.carrier_return(game, side, complement, damaged, planes)
        if damaged:
            assert not landing.landed, f"a damaged carrier took back {len(landing.landed)}"
        room = 0 if damaged else complement
        _check_removal(side, landing, planes, room)

    return check


@CODE.check("10.21", "airfield capacity starts at the land aircraft, only falls, never below 0; "
                    "land aircraft after return <= capacity", max_examples=40)
def airfield_capacity(game: Game):
    field_cost = _int(game, "airfield-hit-cost")

    class Airfield(RuleBasedStateMachine):
        """One side's airfield: bombed, aircraft shot down, aircraft returning."""

        @initialize(side=st.sampled_from(("us", "japan")), spec=_planes())
        def setup(self, side, spec):
            self.side = side
            self.planes = _make_planes(spec)
            self.capacity = cb.airfield_capacity(len(self.planes))
            assert self.capacity == len(self.planes), "capacity is not the land aircraft"
            self.lowest = self.capacity

        @rule(hits=st.integers(1, 4))
        def bomb(self, hits):
            field = Piece("airfield", field_cost, capacity=self.capacity)
            self.capacity = cb.allocate_hits(game, [field], hits).pieces[0].capacity

        @precondition(lambda self: self.planes)
        @rule(which=st.integers(0, 8))
        def shot_down(self, which):
            index = which % len(self.planes)
            self.planes = self.planes[:index] + self.planes[index + 1:]

        @rule()
        def land(self):
            before = list(self.planes)
            landing = cb.airfield_landing(game, self.side, self.capacity, before)
            _check_removal(self.side, landing, before, self.capacity)
            self.planes = list(landing.landed)
            assert len(self.planes) <= self.capacity, (
                f"{len(self.planes)} land aircraft at an airfield of capacity {self.capacity}")

        @holds()
        def capacity_only_falls(self):
            assert self.capacity is not None and 0 <= self.capacity <= self.lowest, (
                f"capacity {self.capacity} after {self.lowest}")
            self.lowest = self.capacity

    return Airfield


# --------------------------------------------------------------------------- battle set-up


@CODE.check("10.2.1", "Japanese set-up: each ship in one area; landing with carriers alternates "
                     "escorts, min(carriers, ceil(escorts/2)) to the Japanese sea area (E30)")
def japanese_setup(game: Game):
    per = _int(game, "escorts-per-carrier-in-japanese-sea")
    carriers = _units(game, is_carrier, "japan")
    escorts = _units(game, is_escort, "japan")
    subs = _units(game, lambda u: u.type == "SS", "japan")

    @given(_ids(carriers, 5), _ids(escorts, 8), _ids(subs, 2), st.booleans(), st.booleans(),
           st.booleans())
    def check(carrier_ids, escort_ids, sub_ids, landing, us_carrier, us_coastal):
        fleet = _get(game, [*carrier_ids, *escort_ids, *sub_ids])
        areas = cb.place_japanese_ships(game, fleet, landing, us_carrier, us_coastal)
        placed = [s for area in areas.values() for s in area]
        assert Counter(s.id for s in placed) == Counter(s.id for s in fleet), "ship lost or doubled"
        carriers = [s for s in fleet if is_carrier(s)]
        escorts = [s for s in fleet if is_escort(s)]
        sea = [s for s in areas["japanese-sea"] if is_escort(s)]
        assert all(s in areas["japanese-sea"] for s in carriers), "a carrier left its sea area"
        if carriers and landing:
            # E30: steps 1 and 2 alternate until the count is reached or the escorts run out
            assert len(sea) == min(len(carriers) * per, math.ceil(len(escorts) / 2)), (
                f"{len(sea)} escorts with {len(carriers)} carriers in the Japanese sea area")
        elif carriers:
            assert len(sea) == len(escorts)
        else:
            assert not sea, "escorts in the Japanese sea area without carriers"

    return check


@CODE.check("10.5", "US BPP = 3 + 3 per SP; a purchase is refused only over budget or for a "
                   "repeated marker")
def battle_points(game: Game):
    free = _int(game, "free-battle-plan-points")
    per_sp = _int(game, "battle-plan-points-per-supply")
    uses = _int(game, "us-bonus-uses-per-battle")
    top = game.table("battle-points").key("supply").max or 40
    names = [n for n in game.table("bonus-marker").key("bonus").values
             if table_row(game, "bonus-marker", side="us", bonus=n)["exists"]]

    @given(st.integers(0, top), st.lists(st.sampled_from(names), max_size=8))
    def check(supply, markers):
        budget = cb.battle_points(game, supply)
        assert budget == free + per_sp * supply, f"{budget} BPP for {supply} SP"
        cost = sum(int(table_row(game, "bonus-marker", side="us", bonus=m)["cost"])
                   for m in markers)
        legal = cost <= budget and max(Counter(markers).values(), default=0) <= uses
        try:
            left = cb.check_purchase(game, markers, supply)
        except RuleViolation:
            assert not legal, f"a legal purchase of {markers} with {budget} BPP was refused"
            return
        assert legal and left == budget - cost >= 0, f"{markers} bought with {budget} BPP"

    return check


@CODE.check("10.3", "every battle lasts at least one round; the battle-plan count is "
           "at least 1")
def battle_rounds(game: Game):
    @given(st.sampled_from(faces(DIE)), st.integers(1, 30))
    def check(roll, units):
        assert cb.battle_rounds(game, roll) >= 1, f"die {roll}: no round"
        assert cb.battle_plan_draws(game, units) >= 1, f"{units} units: no draw"

    return check


@CODE.check("10.18.1", "enemy ground units on the island are hit only if the attacker has ground "
                      "units there")
def island_targets(game: Game):
    @given(st.booleans())
    def check(own_ground):
        if not own_ground:
            assert not cb.island_ground_targetable(game, own_ground)

    return check


# --------------------------------------------------------------------------- US phases


@CODE.check("6.3", "repair cost = max(1, cost // 2) SP")
def repair_cost(game: Game):
    divisor = _int(game, "repair-cost-divisor")
    minimum = _int(game, "repair-cost-minimum")
    key = game.table("repair-cost").key("cost")

    @given(st.integers(key.min or 0, key.max or 21))
    def check(cost):
        paid = cp.repair_supply(game, cost)
        assert paid == max(minimum, cost // divisor), f"repair of cost {cost}: {paid} SP"

    return check


@CODE.check("6.1", "supply points never go negative; a US move costs exactly 1 SP per unit",
           max_examples=40)
def supply_points(game: Game):
    buyable = [u.id for u in game.units if u.side == "us"]

    class SupplyPhase(RuleBasedStateMachine):
        """US spending through ``spend``: buys, repairs, moves, recon, raiding."""

        @initialize(sp=st.integers(0, 30))
        def setup(self, sp):
            self.sp = sp

        def _pay(self, cost: int, what: str) -> None:
            try:
                self.sp = cp.spend(self.sp, cost, what)
            except RuleViolation:
                assert cost > self.sp, f"{what} ({cost} SP) refused with {self.sp} SP"

        @rule(unit=st.sampled_from(buyable))
        def buy(self, unit):
            self._pay(cp.unit_buy_cost(game, unit), f"buying {unit}")

        @rule(unit=st.sampled_from(buyable))
        def repair(self, unit):
            self._pay(cp.repair_supply(game, cp.unit_buy_cost(game, unit)), f"repairing {unit}")

        @rule(units=st.integers(0, 8))
        def move(self, units):
            cost = cp.move_cost(game, units)
            assert cost == units, f"moving {units} units costs {cost} SP"
            self._pay(cost, f"moving {units} units")

        @rule(markers=st.integers(0, 4))
        def recon(self, markers):
            self._pay(cp.recon_cost(game, markers), f"{markers} recon markers")

        @rule(subs=st.integers(0, 3))
        def raid(self, subs):
            self._pay(cp.raiding(game, subs)[0], f"{subs} raiding submarines")

        @holds()
        def never_negative(self):
            assert self.sp >= 0, f"{self.sp} SP"

    return SupplyPhase


def _us_movers(game: Game) -> list:
    """US units that move on the map: ground units, land aircraft and ships."""
    return [u for u in game.units if u.side == "us"
            and (is_ground(u) or is_land_air(u) or is_ship(u))]


def _capacity(game: Game, point: str) -> int | None:
    """A point's US land-aircraft capacity (None: unlimited)."""
    if point in game.constant("unlimited-us-air-points"):
        return None
    capacity = point_record(game, point).capacity
    return None if capacity in (None, "unlimited") else int(capacity)


@CODE.check("8.2", "US movement: never into Japan/East Asia, Australians on flagged points, land "
                  "aircraft within capacity, pinned ground units stay", max_examples=30)
def us_movement(game: Game):
    movers = _us_movers(game)
    points = _points(game)
    open_points = [p for p in points if p not in game.constant("us-forbidden-points")]
    ids = sorted(u.id for u in movers)
    spot = st.integers(0, 1) | st.sampled_from(points)

    class USMovement(RuleBasedStateMachine):
        """One US movement phase: each unit moves at most once, through ``check_us_move``."""

        @initialize(theatre=st.lists(st.sampled_from(open_points), min_size=1, max_size=2,
                                     unique=True),
                    japanese=st.sets(spot, max_size=3),
                    units=st.dictionaries(st.sampled_from(ids), spot, min_size=1, max_size=12))
        def setup(self, theatre, japanese, units):
            # a small theatre of points keeps units together, so capacities and pins matter;
            # an int is a theatre point, a name any point of the map
            self.theatre = theatre
            self.japanese = frozenset(self._resolve(p) for p in japanese)
            self.where: dict[str, str] = {}
            self.units = {u.id: u for u in movers}
            for uid, spot_drawn in units.items():
                self._place(self.units[uid], self._resolve(spot_drawn))
            self.start = dict(self.where)
            self.view = self._view()
            self.moved: set[str] = set()

        def _resolve(self, spot_drawn: int | str) -> str:
            if isinstance(spot_drawn, int):
                return self.theatre[spot_drawn % len(self.theatre)]
            return spot_drawn

        def _place(self, item, point: str) -> None:
            """A legal start: no forbidden point, flagged points for Australians, land aircraft
            within capacity."""
            if point in game.constant("us-forbidden-points"):
                return
            if "australian" in item.tags and "australia" not in point_record(game, point).flags:
                return
            if is_land_air(item):
                cap = _capacity(game, point)
                present = sum(1 for uid, p in self.where.items() if p == point
                              and is_land_air(self.units[uid]))
                if cap is not None and present + 1 > cap:
                    return
            self.where[item.id] = point

        def _at(self, test) -> frozenset[str]:
            return frozenset(p for uid, p in self.where.items() if test(self.units[uid]))

        def _view(self) -> cp.MapView:
            air = Counter(p for uid, p in self.where.items() if is_land_air(self.units[uid]))
            return cp.MapView(us_ground=self._at(is_ground), us_land_air=self._at(is_land_air),
                              us_ships=self._at(is_ship), japanese_ground=self.japanese,
                              us_land_air_count=dict(air))

        @rule(which=st.integers(0, 11), spot_drawn=spot)
        def move(self, which, spot_drawn):
            waiting = sorted(set(self.where) - self.moved)
            if not waiting:
                return
            uid = waiting[which % len(waiting)]
            dest = self._resolve(spot_drawn)
            now = self._view()
            view = cp.MapView(self.view.us_ground, self.view.us_land_air, self.view.us_ships,
                              self.view.japanese_ground, us_land_air_count=now.us_land_air_count)
            try:
                cp.check_us_move(game, uid, self.where[uid], dest, view)
            except RuleViolation:
                return
            self.where[uid] = dest
            self.moved.add(uid)

        @holds()
        def legal_positions(self):
            for uid, point in self.where.items():
                item = self.units[uid]
                assert point not in game.constant("us-forbidden-points"), f"{uid} at {point}"
                if "australian" in item.tags:
                    assert "australia" in point_record(game, point).flags, f"{uid} at {point}"
                if is_ground(item) and self.start[uid] in self.japanese:
                    assert point == self.start[uid], f"pinned {uid} left {self.start[uid]}"
                if is_land_air(item) and uid in self.moved:
                    assert point in self.view.us_ground_or_air, (
                        f"{uid} flew to {point} with no US ground/air there at phase start")

        @holds()
        def air_capacity(self):
            air = Counter(p for uid, p in self.where.items() if is_land_air(self.units[uid]))
            for point, count in air.items():
                cap = _capacity(game, point)
                assert cap is None or count <= cap, (
                    f"{count} US land aircraft at {point} (capacity {cap})")

    return USMovement


# --------------------------------------------------------------------------- Japanese movement


def _order_limits(game: Game) -> dict[str, tuple[int, int, int]]:
    """Each order's (ships, infantry, land aircraft) maxima from the orders section."""
    out = {}
    for rec in game.section("orders"):
        out[rec.id] = tuple(int(rec.get(k)) for k in ("ships", "infantry", "land_air"))
    return out


@CODE.check("9.1", "Japanese movement: each unit determined once, order maxima, never into West "
                  "Coast/Australia, the last unit stays, Standby gives supply",
           max_examples=50)
def japanese_movement(game: Game):
    points = _points(game)
    forbidden = set(game.constant("japanese-forbidden-points"))
    exempt = set(game.constant("last-unit-exempt-points"))
    limits = _order_limits(game)
    marker = _int(game, "standby-supply-markers")
    allowed = [p for p in points if p not in forbidden]

    @given(st.sampled_from(allowed), st.integers(0, 7), st.integers(0, 4), st.integers(0, 4),
           st.integers(0, 1), st.sets(st.sampled_from(points), max_size=5),
           st.sets(st.sampled_from(allowed), max_size=5),
           st.sampled_from(("1942", "1943", "1944", "1945")), st.integers(0, 10**6))
    def check(point, ships, ground, air, staying, us, japan, campaign, seed):
        stack = od.Stack(point, tuple(f"s{i}" for i in range(ships)),
                         tuple(f"g{i}" for i in range(ground)),
                         tuple(f"a{i}" for i in range(air)), staying)
        us_here = point in us
        start = od.phase_start(game, stack, us_here, campaign)
        if us_here:
            assert not start.ground, "ground units at a point with US units were determined"
        objectives = frozenset(game.get("campaigns", campaign).get("objectives"))
        view = cp.MapView(us_ground=frozenset(us), japanese_ground=frozenset(japan | {point}))
        moves = od.determine_point(game, start, od.Board(view, objectives), SeededDice(seed))
        _check_moves(start, moves, view)
        gone = sum(len(m.ground) + len(m.land_air) for m in moves if m.executed != "standby")
        if point not in exempt and stack.staying == 0 and (ground or air):
            assert gone < ground + air, f"the last ground/air unit left {point}"

    def _check_moves(start: od.Stack, moves, view: cp.MapView) -> None:
        seen = Counter(u for m in moves for u in (*m.ships, *m.ground, *m.land_air))
        assert seen == Counter((*start.ships, *start.ground, *start.land_air)), (
            f"units determined other than once: {seen}")
        for m in moves:
            if m.executed == "standby":
                assert m.supply_markers == marker and m.destination is None
                continue
            assert m.supply_markers == 0
            most = limits[m.executed]
            assert all(n <= k for n, k in zip((len(m.ships), len(m.ground), len(m.land_air)),
                                              most, strict=True)), (
                f"{m.executed} moved {len(m.ships)}/{len(m.ground)}/{len(m.land_air)} > {most}")
            assert m.destination not in forbidden, f"Japanese units entered {m.destination}"
            assert m.destination != start.point
            if m.battalions:
                assert m.destination in view.us_any, "battalions substituted with no US units"
                assert len(m.ground) + m.battalions <= most[1]

    return check


# --------------------------------------------------------------------------- post-battle


@CODE.check("11.1", "reinforcement roll = die + supply - damaged - 2 per raider; damaged "
                   "infantry with US units not counted")
def reinforcement_modifier(game: Game):
    kinds = st.sampled_from(("ship", "infantry", "battalion", "land_air"))

    @given(st.sampled_from(faces(DIE)), st.integers(0, 8), st.integers(0, 3),
           st.lists(st.tuples(kinds, st.booleans(), st.booleans()), max_size=8))
    def check(roll, supply, raiders, units):
        damaged = cp.damaged_count(units)
        expected = sum(1 for kind, dmg, with_us in units
                       if dmg and not (with_us and kind in ("infantry", "battalion")))
        assert damaged == expected, f"{damaged} damaged counted, rule says {expected}"
        modified = cp.reinforcement_roll(game, roll, supply, damaged, raiders)
        assert modified == roll + supply - damaged - 2 * raiders, (
            f"die {roll}, {supply} supply, {damaged} damaged, {raiders} raiders -> {modified}")

    return check


@CODE.check("11.2", "repair: every damaged Japanese unit is repaired except ground units with US "
                   "units and a point's last ground/air unit")
def japanese_repair(game: Game):
    @given(st.sampled_from(("ship", "infantry", "battalion", "land_air")), st.booleans(),
           st.booleans())
    def check(kind, with_us, last):
        exception = ((kind in ("infantry", "battalion") and with_us)
                     or (last and kind in ("infantry", "battalion", "land_air")))
        assert cp.repairable(kind, with_us, last) == (not exception), (
            f"{kind} (with US {with_us}, last {last})")

    return check


@CODE.check("11.3", "return to port: only ships at Hawaii/West Coast without enemies stay")
def ships_return(game: Game):
    exempt = set(game.constant("port-exempt-points"))

    @given(st.sampled_from(_points(game)), st.booleans())
    def check(point, enemy):
        stays = not cp.must_return(game, point, enemy)
        assert stays == (point in exempt and not enemy), f"ship at {point} (enemy {enemy})"
        if stays:
            assert point in ("hawaiian-islands", "west-coast")

    return check


@CODE.check("11.3", "port boxes: ships move one box a phase and are back after the campaign's "
                   "turns away; none lost", max_examples=30)
def port_boxes(game: Game):
    class PortReturn(RuleBasedStateMachine):
        """Return-to-port phases through ``port_return``: ships sent, ships home."""

        @initialize(campaign=st.sampled_from(("1942", "1943", "1944", "1945")))
        def setup(self, campaign):
            self.campaign = campaign
            row = table_row(game, "port-return", campaign=campaign)
            self.order = list(row["boxes"])
            self.away = int(row["turns_away"])
            self.boxes: dict[str, tuple[str, ...]] = {b: () for b in self.order}
            self.sent: dict[str, int] = {}
            self.home: set[str] = set()
            self.phase = 0

        @rule(arriving=st.integers(0, 3))
        def return_phase(self, arriving):
            self.phase += 1
            new = tuple(f"ship-{self.phase}-{i}" for i in range(arriving))
            before = {s: self.order.index(b) for b, ships in self.boxes.items() for s in ships}
            after, home = cp.port_return(game, self.campaign, self.boxes, new)
            assert set(after) == set(self.order), f"boxes {sorted(after)} in {self.campaign}"
            for box, ships in after.items():
                for ship in ships:
                    if ship in before:
                        assert self.order.index(box) == before[ship] + 1, (
                            f"{ship} skipped a box")
            for ship in home:
                assert self.phase - self.sent[ship] == self.away, (
                    f"{ship} home after {self.phase - self.sent[ship]} phases, not {self.away}")
            self.sent.update({s: self.phase for s in new})
            self.boxes = after
            self.home |= set(home)

        @holds()
        def no_ship_lost(self):
            boxed = [s for ships in self.boxes.values() for s in ships]
            assert len(boxed) == len(set(boxed)), "a ship in two boxes"
            assert set(boxed) | self.home == set(self.sent), "a ship vanished"

    return PortReturn


def _supplied(game: Game, point: str, held: frozenset[str]) -> bool:
    """A route from the West Coast to ``point`` through held points (breadth-first)."""
    source = game.constant("us-unit-arrival-point")
    if point == source:
        return True
    g = graph(game)
    seen, frontier = {source}, [source]
    while frontier:
        here = frontier.pop()
        for nxt in g.neighbours(here):
            if nxt == point:
                return True
            if nxt in held and nxt not in seen:
                seen.add(nxt)
                frontier.append(nxt)
    return False


@CODE.check("11.4", "supply: out of supply iff no route from the West Coast through held points; "
                   "one hit each when out")
def supply_check(game: Game):
    points = _points(game)

    @given(st.sets(st.sampled_from(points), max_size=8), st.sets(st.sampled_from(points),
                                                                max_size=6))
    def check(us, japan):
        view = cp.MapView(us_ground=frozenset(us), japanese_ground=frozenset(japan))
        held = cp.held_points(game, view)
        checked = cp.supply_check(game, view)
        assert set(checked) == set(us)
        for point, ok in checked.items():
            assert ok == _supplied(game, point, held), f"{point} supplied={ok}, held {held}"
            hits = cp.supply_hits(game, ok)
            assert hits == (0 if ok else 1), f"{point} (supplied {ok}) takes {hits} hits"

    return check


@CODE.check("4.1", "held <=> US ground/air there, no Japanese ground/air, in supply; more US "
                  "presence never loses a point")
def held_objectives(game: Game):
    points = _points(game)

    @given(st.sets(st.sampled_from(points), max_size=8),
           st.sets(st.sampled_from(points), max_size=6), st.sampled_from(points))
    def check(us, japan, extra):
        view = cp.MapView(us_land_air=frozenset(us), japanese_land_air=frozenset(japan))
        held = cp.held_points(game, view)
        for point in points:
            want = point in us and point not in japan and _supplied(game, point, held)
            assert (point in held) == want, f"{point} held={point in held}"
        more = cp.MapView(us_land_air=frozenset(us | {extra}),
                          japanese_land_air=frozenset(japan))
        assert held <= cp.held_points(game, more), f"US units at {extra} lost a held point"

    return check


# --------------------------------------------------------------------------- victory


@CODE.check("12.6", "the linked-campaign result never gets worse with a higher total")
def linked_monotone(game: Game):
    key = game.table("linked-result").key("total")
    totals = st.integers(key.min or 0, key.max or 51)

    @given(totals, totals)
    def check(a, b):
        low, high = sorted((a, b))
        worse = cp.linked_result(game, low)["result"]
        better = cp.linked_result(game, high)["result"]
        assert LINKED_ORDER.index(worse) <= LINKED_ORDER.index(better), (
            f"total {low}: {worse}, total {high}: {better}")

    return check


@CODE.check("4.0", "a campaign's level never gets worse with more objectives; dismissal "
           "only at the bottom")
def level_monotone(game: Game):
    key = game.table("campaign-level").key("objectives")
    counts = st.integers(key.min or 0, key.max or 25)

    @given(st.sampled_from(("1942", "1943", "1944", "1945")), counts, counts)
    def check(campaign, a, b):
        low, high = sorted((a, b))
        worse = cp.campaign_level(game, campaign, low)["level"]
        better = cp.campaign_level(game, campaign, high)["level"]
        assert LEVEL_ORDER.index(worse) <= LEVEL_ORDER.index(better), (
            f"{campaign}: {low} objectives {worse}, {high} objectives {better}")
        assert cp.dismissed(game, campaign, high) <= cp.dismissed(game, campaign, low)

    return check


@CODE.check("12.3", "Japan invasion: at most 7 units a phase, only from Hawaii or the West Coast")
def invasion_moves(game: Game):
    sources = set(game.constant("japan-invasion-from"))
    limit = _int(game, "japan-invasion-max-units")

    @given(st.integers(0, 12), st.sampled_from(_points(game)))
    def check(units, start):
        try:
            cp.check_invasion_moves(game, units, start)
        except RuleViolation:
            assert units > limit or start not in sources, f"{units} from {start} refused"
            return
        assert units <= 7 and start in sources, f"{units} units from {start} accepted"

    return check

"""Rule invariants of Nightfighter (I1-I60), as hypothesis properties over the engine.

Every property drives the engine (``rules/``) with the game it is handed, so
the numbers under test come from that game's data: a test can hand the factory a game with a
broken table or constant (or monkeypatch one engine function) and see the property FAIL. The
bounds each property asserts are the rules' own, written here with their rule numbers.

Stateful properties are ``RuleBasedStateMachine`` classes over the engine's pure ``Night``
transitions, driven through any sequence of legal moves: the night machine plays whole game
turns in the sequence of play (bomber movement with hand-offs, entry, fighter movement, AI
search, searchlights, sighting, a corkscrew, end of turn), the fighter machine one fighter's
moves turn after turn; a plan the engine refuses (``RuleViolation``) changes nothing.
Machines carry ``@seed`` so that ``warpress verify`` is reproducible.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import product

from hypothesis import given, seed
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, rule
from hypothesis.stateful import invariant as state_invariant
from warpress.engine.dice import GivenDice, SeededDice, faces
from warpress.engine.errors import RuleViolation
from warpress.engine.model import Game
from warpress.verify.invariants import SEED as RUN_SEED

from . import CODE
from .rules import (
    combat,
    detection,
    movement,
    phases,
    radars,
    searchlights,
    state,
)
from .rules.common import grid

# --- the rules' own numbers (what the engine is held to) -----------------------------------

HITS = range(0, 5)  # 11.0: 0-4 hits per combat, defensive-fire or collision roll
TURN_SIXTHS = 1  # 9.2: one turn is 60 degrees (one sixth of a circle)
ASTERISK_BONUS = 1  # 7.2, 9.1: N* gives +1 MP on even turns
DIVE_BONUS = 1  # 18.0: a dive gives exactly +1 MP, whatever the dives spent
EVADE_BONUS = 1  # 27.3.1: evasion gives +1 MP
MAX_DIVES = 3  # 18.0
SEARCHLIGHT_DICE = range(1, 6)  # 14.2.1, 14.3: 1-5 dice before 28.3 halving
HAND_OFF_DICE = 4  # 14.2.4
MEW_SWEEPS = 5  # 25.2.1: up to 5 sweeps, one per bomber
TORPEDO_COLUMNS = (7, 12)  # 26.3.2: torpedo bombers stay in columns 07-12
MOONS = ("full", "half", "new")  # 3.3.1
VISIBILITIES = ("poor", "average", "good")  # 3.3.2
CLOUDS = ("clear", "overcast")  # 3.3.3
ALTITUDES = ("normal", "low", "high")  # 21
ARCS = ("narrow", "wide", "hemi")  # 19.1.1, narrowest first
SEED = st.integers(0, 2**16)
NIGHTS = 20  # examples of the night machine (each up to 40 whole turns)
#: fighter plans of the night machine: 2-3 MP, a turn or none after each (one draw each)
FLY_PLANS = st.sampled_from(tuple("".join(p) for n in (2, 3)
                                  for p in product(("F", "FL", "FR"), repeat=n)))
RAW_PLANS = st.lists(st.sampled_from("FLR"), max_size=9).map("".join)
BENDS = st.text(alphabet="-LR", min_size=1, max_size=8)


# --- data the strategies draw from ------------------------------------------------------------


def hexes(game: Game) -> tuple[str, ...]:
    """Every hex id of the map."""
    return tuple(game.hex_map().hex_ids)


def zone_letters(game: Game) -> tuple[str, ...]:
    """The letters of the searchlight zones on the map [2.1.3, 14.2]."""
    return tuple(f.label for f in game.hex_map().features if f.kind == "searchlight-zone")


def zone_cells(game: Game, letter: str) -> frozenset[str]:
    """The hexes of zone ``letter``, read from the map data (not through the engine)."""
    return frozenset(next(f.hexes for f in game.hex_map().features
                          if f.kind == "searchlight-zone" and f.label == letter))


def units_of(game: Game, kind: str) -> tuple[str, ...]:
    """Unit ids of one type (night-fighter, bomber, intruder)."""
    return tuple(u.id for u in game.units if u.get("type") == kind)


def radar_fighters(game: Game) -> tuple[str, ...]:
    """Night-fighter types that carry an AI radar."""
    return tuple(u for u in units_of(game, "night-fighter")
                 if game.get("units", u).stats.get("ai_radar"))


def col(game: Game, hex_id: str) -> int:
    """The printed column number of a hex (``"0712"`` -> 7)."""
    return int(grid(game).columns[grid(game).coords(hex_id)[0]])


def row(game: Game, hex_id: str) -> int:
    """The printed row number of a hex (``"0712"`` -> 12)."""
    return int(grid(game).rows[grid(game).coords(hex_id)[1]])


def rotation(before: int, after: int) -> int:
    """Signed turn from facing ``before`` to ``after`` in sixths (-2..3)."""
    step = (after - before) % 6
    return step - 6 if step > 3 else step


def bomber_id(index: int) -> str:
    """A 3-digit attacker id whose last digit (the sighting number) is 1-6."""
    return f"1{index // 6}{index % 6 + 1}"


def chart_mp(mp: str, turn: int) -> int:
    """The MP of a chart value on ``turn`` by 7.2 / 9.1: N, or N+1 for N* on even turns."""
    text = str(mp).strip()
    base = int(text.rstrip("*"))
    return base + (ASTERISK_BONUS if text.endswith("*") and turn % 2 == 0 else 0)


# --- combat [11.0] --------------------------------------------------------------------------


@CODE.check("11.0", "hits per attack, defensive-fire or collision roll are 0-4")
def hits_zero_to_four(game: Game):
    @given(fp=st.integers(-8, 12))
    def check(fp):
        for roll in faces("2d6"):
            hits = combat.attack_roll(game, GivenDice({"roll": roll}), fp)
            assert hits in HITS, f"2d6={roll} + FP {fp}: {hits} hits (rule 11.0: 0-4)"

    return check


@CODE.check("11.0", "more firepower never means fewer hits, per roll or expected")
def hits_monotone_in_fp(game: Game):
    @given(fp=st.integers(-8, 12))
    def check(fp):
        for roll in faces("2d6"):
            low = combat.attack_roll(game, GivenDice({"roll": roll}), fp)
            high = combat.attack_roll(game, GivenDice({"roll": roll}), fp + 1)
            assert low <= high, (
                f"2d6={roll}: FP {fp} gives {low} hits, FP {fp + 1} gives {high}")
        odds_low = combat.hits_distribution(game, fp)
        odds_high = combat.hits_distribution(game, fp + 1)
        assert sum(odds_low.values()) == 1, f"FP {fp}: hit odds sum to {sum(odds_low.values())}"
        mean_low = sum(h * p for h, p in odds_low.items())
        mean_high = sum(h * p for h, p in odds_high.items())
        assert mean_low <= mean_high, (
            f"expected hits FP {fp}: {mean_low}, FP {fp + 1}: {mean_high} (fewer)")

    return check


# --- environment [3.3] ----------------------------------------------------------------------


@CODE.check("3.3", "the environment tables answer every roll with a moon, visibility, cloud")
def environment_total(game: Game):
    d6, two = faces("d6"), faces("2d6")

    @given(moon=st.sampled_from(two), vis=st.sampled_from(two), clouds=st.sampled_from(d6),
           europe=st.booleans(), pacific=st.booleans())
    def check(moon, vis, clouds, europe, pacific):
        dice = GivenDice({"moon": moon, "visibility": vis, "clouds": clouds})
        env = detection.roll_environment(game, dice, europe_after_april_1942=europe,
                                         pacific=pacific)
        assert env.moon in MOONS, f"moon roll {moon}: {env.moon!r}"
        assert env.visibility in VISIBILITIES, f"visibility roll {vis}: {env.visibility!r}"
        assert env.clouds in CLOUDS, f"cloud roll {clouds}: {env.clouds!r}"
        assert 0 <= env.range <= env.lit_range, (
            f"visibility {env.visibility}: x={env.range} > y={env.lit_range} (3.3.2)")

    return check


# --- AI radar [19.1] ------------------------------------------------------------------------


@CODE.check("19.1.1", "AI radar arcs are nested: Narrow in Wide in Hemi; own hex in all")
def arcs_nested(game: Game):
    cells = hexes(game)

    @given(origin=st.sampled_from(cells), target=st.sampled_from(cells),
           facing=st.integers(0, 5), reach=st.integers(0, 6))
    def check(origin, target, facing, reach):
        g = grid(game)
        inside = [g.in_arc(origin, facing, target, arc, reach) for arc in ARCS]
        for i in range(len(ARCS) - 1):
            assert inside[i + 1] or not inside[i], (
                f"{target} in the {ARCS[i]} arc, not in the {ARCS[i + 1]}")
        assert all(g.in_arc(origin, facing, origin, arc, reach) for arc in ARCS), \
            "the own hex is outside an arc"
        if inside[-1]:
            assert g.in_arc(origin, facing, target, "hemi", reach + 1), "arc shrank with range"

    return check


@CODE.check("19.1.2", "an AI contact is the nearest bomber in the radar's arc and range")
def ai_contact_nearest(game: Game):
    cells = hexes(game)

    @given(unit=st.sampled_from(radar_fighters(game)), here=st.sampled_from(cells),
           facing=st.integers(0, 5), targets=st.lists(st.sampled_from(cells), unique=True,
                                                       max_size=6),
           altitude=st.sampled_from(ALTITUDES))
    def check(unit, here, facing, targets, altitude):
        bombers = tuple(state.Bomber(bomber_id(i), hex=h, status=state.ON_MAP)
                        for i, h in enumerate(targets))
        fighter = state.Fighter("201", unit=unit, hex=here, facing=facing)
        night = state.Night(bombers=bombers, fighters=(fighter,),
                            env=state.Environment(altitude=altitude))
        after = radars.ai_search(game, night).fighter("201")
        radar = radars.unit_radar(game, unit)
        reach = radars.ai_range(game, radar, altitude)
        g = grid(game)
        seen = [b for b in bombers if g.in_arc(here, facing, b.hex, radar.arc.lower(), reach)]
        if not seen:
            assert after.ai_contact is None, f"contact {after.ai_contact} outside arc and range"
            return
        assert after.ai_contact is not None, "a bomber in arc and range was not detected"
        best = min(g.distance(here, b.hex) for b in seen)
        got = night.bomber(after.ai_contact)
        assert got in seen, f"contact {got.hex} is outside the arc or range"
        assert g.distance(here, got.hex) == best, f"contact {got.hex} is not the nearest"
        if altitude == "low" and radar.band in ("P", "L"):
            assert got.hex == here, "21.1: P/L radars see only the own hex at low altitude"

    return check


# --- sighting dice, searchlight dice [15.1.1, 19.1.3, 14.2] ---------------------------------


@CODE.check("15.1.1", "acquired-target dice are at least 1; min-range ignored if captured")
def acquired_dice(game: Game):
    @given(moon=st.sampled_from(MOONS), expert=st.booleans(), green=st.booleans(),
           both=st.booleans(), mod=st.integers(-6, 4), rear=st.booleans())
    def check(moon, expert, green, both, mod, rear):
        def dice(radar_modifier: int, searchlight: bool) -> int:
            return detection.captured_sighting_dice(
                game, moon=moon, expert=expert, green=green, both=both,
                radar_modifier=radar_modifier, searchlight=searchlight, rear=rear)

        assert dice(mod, False) >= 1, f"{dice(mod, False)} dice (15.1.1: at least 1)"
        assert dice(mod, True) == dice(0, True), (
            f"searchlight-captured target: min-range modifier {mod} changed the dice (19.1.3)")

    return check


@CODE.check("14.2.1", "searchlight dice are 1-5 (before 28.3 halving); hand-off dice 4")
def searchlight_dice_range(game: Game):
    @given(moon=st.sampled_from(MOONS), vis=st.sampled_from(VISIBILITIES),
           clouds=st.sampled_from(CLOUDS),
           mode=st.sampled_from(("searchlight", "radar-guided", "flare")),
           flare_too=st.booleans(), jammed=st.booleans(), lights=st.booleans())
    def check(moon, vis, clouds, mode, flare_too, jammed, lights):
        env = detection.environment(game, moon, vis, clouds)
        count = searchlights.searchlight_dice(game, env, mode=mode, flare_too=flare_too,
                                              jammed=jammed, searchlights_too=lights)
        assert count in SEARCHLIGHT_DICE, f"{mode}: {count} dice (14.2.1: 1-5)"
        handoff = searchlights.searchlight_dice(game, env, mode="hand-off", confusion=True)
        assert handoff == HAND_OFF_DICE, f"hand-off: {handoff} dice (14.2.4: 4)"

    return check


# --- search radar [13.1, 25] ------------------------------------------------------------------


@CODE.check("13.1", "search contact iff a bomber is within the search value; else a sweep "
                         "next to the counter, toward the nearest bomber", max_examples=40)
def radar_search(game: Game):
    cells = hexes(game)
    values = {r: int(game.get("radars", r).get("search_value")) for r in ("freya", "wurzburg")}

    @given(radar=st.sampled_from(sorted(values)), here=st.sampled_from(cells),
           targets=st.lists(st.sampled_from(cells), unique=True, max_size=5))
    def check(radar, here, targets):
        bombers = tuple(state.Bomber(bomber_id(i), hex=h, status=state.ON_MAP)
                        for i, h in enumerate(targets))
        counter = radars.radar_search(game, state.Night(bombers=bombers),
                                      [(radar, here)]).counters[0]
        g = grid(game)
        near = min((g.distance(here, t) for t in targets), default=None)
        reached = near is not None and near <= values[radar]
        assert counter.contact == reached, (
            f"{radar} at {here}: contact {counter.contact}, nearest bomber at {near}")
        if reached:
            assert counter.sweeps == (), "a sweep counter although the radar made contact"
            return
        assert len(counter.sweeps) == 1, f"{len(counter.sweeps)} sweep counters (13.1.2: 1)"
        sweep = counter.sweeps[0]
        assert g.distance(here, sweep) == 1, f"sweep {sweep} not next to the counter {here}"
        if targets:
            gap = min(g.distance(sweep, t) for t in targets)
            assert all(min(g.distance(h, t) for t in targets) >= gap
                       for h in g.neighbours(here)), f"sweep {sweep} not toward the nearest"

    return check


@CODE.check("25.2.1", "MEW places min(5, bombers) sweeps, each within 1 of a bomber",
           max_examples=40)
def mew_sweeps(game: Game):
    cells = hexes(game)

    @given(here=st.sampled_from(cells),
           targets=st.lists(st.sampled_from(cells), unique=True, max_size=8))
    def check(here, targets):
        bombers = tuple(state.Bomber(bomber_id(i), hex=h, status=state.ON_MAP)
                        for i, h in enumerate(targets))
        counter = radars.radar_search(game, state.Night(bombers=bombers),
                                      [("mew", here)]).counters[0]
        assert len(counter.sweeps) == min(MEW_SWEEPS, len(targets)), (
            f"{len(counter.sweeps)} MEW sweeps for {len(targets)} bombers")
        g = grid(game)
        assert all(min(g.distance(s, t) for t in targets) <= 1 for s in counter.sweeps), (
            f"MEW sweeps {counter.sweeps} not within 1 of a bomber")

    return check


# --- corkscrew [17.4.3] -----------------------------------------------------------------------


@CODE.check("17.4.3", "a corkscrew ends rear-left, same or rear-right, on the map, on no "
                           "other bomber; every fighter loses the bomber")
def corkscrew_destination(game: Game):
    cells = hexes(game)

    @given(places=st.lists(st.sampled_from(cells), unique=True, min_size=1, max_size=6),
           roll=st.sampled_from(faces("d6")), torpedo=st.booleans())
    def check(places, roll, torpedo):
        down = movement.bomber_facing(game)
        bombers = tuple(state.Bomber(bomber_id(i), hex=h, facing=down, status=state.ON_MAP,
                                     kind="torpedo" if torpedo and i == 0 else "bomber")
                        for i, h in enumerate(places))
        fighters = (state.Fighter("201", hex=places[0], facing=down, sighting=bombers[0].id,
                                  ai_contact=bombers[0].id),)
        night = state.Night(bombers=bombers, fighters=fighters,
                            captures=(("A", bombers[0].id),))
        after, _ = combat.corkscrew(game, night, bombers[0].id, GivenDice({"corkscrew": roll}))
        start, end = places[0], after.bomber(bombers[0].id).hex
        g = grid(game)
        allowed = {start, *(g.neighbour_in_direction(start, (down + r) % 6) for r in (2, 4))}
        assert end in allowed, f"corkscrew from {start} ends in {end}"
        assert end not in places[1:], f"corkscrew into {end}, which holds another bomber"
        lo, hi = TORPEDO_COLUMNS
        if torpedo and lo <= col(game, start) <= hi:
            assert lo <= col(game, end) <= hi, f"torpedo bomber corkscrewed to column {end}"
        assert not after.known(bombers[0].id), "a fighter or zone still holds the bomber"

    return check


# --- flak [22.0] ----------------------------------------------------------------------------


@CODE.check("22.0", "flak hits a fighter once per announced die showing its sighting "
                         "number, and only on a 12")
def flak_hits(game: Game):
    @given(check=st.sampled_from(faces("2d6")), task_force=st.booleans(),
           rolls=st.lists(st.sampled_from(faces("d6")), min_size=8, max_size=8),
           sightings=st.lists(st.integers(1, 6), min_size=1, max_size=3))
    def prop(check, task_force, rolls, sightings):
        dice = GivenDice({"check": check, "rolls": rolls})
        shown, hits = combat.flak(game, dice, sightings, task_force)
        if check != 12:
            assert shown == () and all(h == 0 for h in hits), f"flak fired on a {check}"
            return
        assert len(shown) == (8 if task_force else 4), f"{len(shown)} flak dice (22.0: 4/8)"
        for number, h in zip(sightings, hits, strict=True):
            assert h == shown.count(number), f"sighting {number}: {h} hits from dice {shown}"

    return prop


# --- one combat exchange [11.0, 17.3, 17.4] -----------------------------------------------------


@dataclass(frozen=True)
class Exchange:
    """One fighter-bomber exchange of the Combat phase: the night before and after, the report."""

    before: state.Night
    after: state.Night
    report: combat.AttackReport
    oblique: bool


def exchange(game: Game, data) -> Exchange:
    """A combat exchange the engine runs on drawn inputs (hypothesis ``data``): a fighter in a
    sighted bomber's hex with its facing attacks (guns or oblique guns) or holds fire."""
    cells = tuple(h for h in hexes(game) if 3 <= col(game, h) <= 16 and 3 <= row(game, h) <= 25)
    unit = data.draw(st.sampled_from(units_of(game, "night-fighter")), label="fighter")
    guns = game.get("units", unit).stats
    oblique = guns.get("oblique_fp") is not None and data.draw(st.booleans(), label="oblique")
    damage = data.draw(st.integers(1, 4), label="damage")
    here, down = data.draw(st.sampled_from(cells), label="hex"), movement.bomber_facing(game)
    kit = st.sets(st.sampled_from(("monica", "village-inn", "boozer")))
    bomber = state.Bomber("101", unit="lancaster", hex=here, facing=down, status=state.ON_MAP,
                          fp=data.draw(st.integers(0, 3), label="bomber fp"), damage=damage,
                          hits=data.draw(st.integers(0, damage - 1), label="bomber hits"),
                          alert=data.draw(st.booleans(), label="alert"),
                          equipment=frozenset(data.draw(kit, label="equipment")))
    fighter = state.Fighter("201", unit=unit, hex=here, facing=down, sighting="101",
                            mp=str(guns["mp"]), fp=int(guns["fp"]), damage=int(guns["damage"]),
                            expert=data.draw(st.booleans(), label="expert"),
                            green=data.draw(st.booleans(), label="green"))
    moon = data.draw(st.sampled_from(MOONS), label="moon")
    night = state.Night(turn=data.draw(st.integers(1, 20), label="turn"), bombers=(bomber,),
                        fighters=(fighter,), env=state.Environment(moon=moon))
    attack = oblique or data.draw(st.booleans(), label="attack")
    follow = data.draw(st.one_of(st.none(), st.integers(0, 2)), label="follow hex")
    options = combat.follow_hexes(game, bomber)
    dice = SeededDice(data.draw(SEED, label="dice seed"))
    after, report = combat.resolve_attack(
        game, night, "201", "101", dice, attack=attack, oblique=oblique,
        follow=None if follow is None else options[follow % len(options)])
    return Exchange(night, after, report, oblique)


@CODE.check("11.0", "an exchange: every roll 0-4 hits; the bomber is destroyed iff its hits "
                         "reach its Damage, and only then is the shoot-down table rolled")
def exchange_hits(game: Game):
    @given(st.data())
    def check(data):
        x = exchange(game, data)
        r = x.report
        for name, hits in (("attack", r.hits), ("defensive fire", r.defensive_hits),
                           ("collision", r.collision_hits)):
            assert hits in HITS, f"{name}: {hits} hits (11.0: 0-4)"
        start, end = x.before.bomber("101"), x.after.bomber("101")
        total = start.hits + r.hits
        assert r.destroyed == (total >= start.damage), (
            f"{total} hits on Damage {start.damage}: destroyed={r.destroyed}")
        assert (end.status == "destroyed") == r.destroyed, (
            f"bomber {end.status} after an exchange with destroyed={r.destroyed}")
        if r.destroyed:
            assert end.hex is None and not x.after.known("101"), (
                f"a destroyed bomber stays in {end.hex} (11.0: removed)")
        assert (r.shootdown is not None) == r.destroyed, (
            f"shoot-down {r.shootdown!r} with destroyed={r.destroyed} (17.3)")
        if r.fp is not None or r.reaction != "none":
            assert end.alert, "17.4.1: an attacked or reacting bomber becomes alert"
        if r.fp is not None:
            assert x.after.fighter("201").attacked, "11.0: the attack is not recorded"

    return check


@CODE.check("17.3", "after a kill: oblique guns never Evade; Flash dazzles 1-6 turns, "
                         "Follow 1")
def exchange_shootdown(game: Game):
    @given(st.data())
    def check(data):
        x = exchange(game, data)
        r = x.report
        if x.oblique:
            assert r.evade != "evade", "17.3.1: an oblique attack Evaded"
        f, turn = x.after.fighter("201"), x.before.turn
        dazzled = f.dazzled_until - turn if f.dazzled_until else 0
        if r.shootdown == "flash":
            assert 1 <= dazzled <= 6, f"Flash: dazzled for {dazzled} turns (17.3.2: 1-6)"
        elif r.shootdown == "follow":
            assert dazzled == 1, f"Follow: dazzled for {dazzled} turns (17.3.2: 1)"
        else:
            assert dazzled == 0, f"dazzled for {dazzled} turns without Flash or Follow"

    return check


# --- sighting dice, reactions, GCI, blind fighters, the radio beacon box ----------------------

SIGHTING_DICE = {"poor": 1, "average": 2, "good": 3}  # 10.1, +1 for a Half or Full moon
REACTS_ON = {False: 6, True: 5}  # 17.4: first roll, Normal column 6, Alert column 5-6
ALERTED = 2  # 17.4.1: +2 to the first roll of an alert bomber


@CODE.check("10.1", "general sighting dice are 1/2/3 by visibility, +1 Half or Full moon; "
                         "the numbers announced are the distinct results")
def sighting_dice(game: Game):
    @given(vis=st.sampled_from(VISIBILITIES), moon=st.sampled_from(MOONS),
           rolls=st.lists(st.sampled_from(faces("d6")), max_size=6))
    def check(vis, moon, rolls):
        dice = detection.sighting_dice(game, vis, moon)
        want = SIGHTING_DICE[vis] + (moon != "new")
        assert dice == want, f"{vis} visibility, {moon} moon: {dice} dice, not {want}"
        said = detection.announce(rolls)
        assert sorted(said) == sorted(set(rolls)), f"rolled {rolls}, announced {said}"

    return check


@CODE.check("17.4", "the first reaction roll reacts on 6 (Normal) or 5-6 (Alert column), "
                         "+2 for an alert bomber")
def reaction_threshold(game: Game):
    @given(roll=st.sampled_from(faces("d6")), warning=st.booleans(), alerted=st.booleans())
    def check(roll, warning, alerted):
        got = combat.reacts(game, roll, warning=warning, alerted=alerted)
        want = roll + (ALERTED if alerted else 0) >= REACTS_ON[warning]
        assert got == want, (f"roll {roll}, warning {warning}, alert {alerted}: reacts={got} "
                             f"(17.4: {want})")

    return check


@CODE.check("25.1", "GCI: no bombers, no sweep; a bomber in its hex, a sweep there; no "
                         "contact, one sweep on or next to the nearest bomber", max_examples=40)
def gci_sweeps(game: Game):
    cells = hexes(game)
    value = int(game.get("radars", "gci").get("search_value"))

    @given(here=st.sampled_from(cells),
           targets=st.lists(st.sampled_from(cells), unique=True, max_size=4),
           on_top=st.booleans())
    def check(here, targets, on_top):
        if on_top:
            targets = [here, *[t for t in targets if t != here]]
        bombers = tuple(state.Bomber(bomber_id(i), hex=h, status=state.ON_MAP)
                        for i, h in enumerate(targets))
        counter = radars.radar_search(game, state.Night(bombers=bombers),
                                      [("gci", here)]).counters[0]
        g = grid(game)
        near = min((g.distance(here, t) for t in targets), default=None)
        assert counter.contact == (near is not None and near <= value), (
            f"GCI at {here}: contact {counter.contact}, nearest bomber at {near}")
        if not targets:
            assert counter.sweeps == (), "25.1: a GCI sweep with no bomber on the map"
        elif here in targets:
            assert counter.sweeps == (here,), f"25.1.1: same-hex sweep {counter.sweeps}"
        elif counter.contact:
            assert counter.sweeps == (), "a GCI sweep although the radar made contact"
        else:
            nearest = [t for t in targets if g.distance(here, t) == near]
            assert len(counter.sweeps) == 1 and min(
                g.distance(counter.sweeps[0], t) for t in nearest) <= 1, (
                f"GCI sweeps {counter.sweeps}, nearest bombers {nearest}")

    return check


@CODE.check("17.3.2", "dazzled, evading or corkscrewed fighters sight and detect nothing")
def blind_fighters(game: Game):
    cells = hexes(game)

    @given(unit=st.sampled_from(radar_fighters(game)), here=st.sampled_from(cells),
           facing=st.integers(0, 5), why=st.sampled_from(("dazzled", "evading", "corkscrewed")),
           near=st.lists(st.sampled_from(cells), max_size=4), seed=SEED)
    def check(unit, here, facing, why, near, seed):
        fighter = replace(state.Fighter("201", unit=unit, hex=here, facing=facing),
                          dazzled_until=3 if why == "dazzled" else 0,
                          evading=why == "evading", corkscrewed=why == "corkscrewed")
        targets = [here, *near]  # one bomber in the fighter's own hex
        bombers = tuple(state.Bomber(bomber_id(i), hex=h, status=state.ON_MAP)
                        for i, h in enumerate(targets))
        night = state.Night(turn=2, bombers=bombers, fighters=(fighter,),
                            env=detection.environment(game, "full", "good"))
        assert radars.ai_search(game, night).fighter("201").ai_contact is None, (
            f"a {why} fighter made an AI contact")
        roll = detection.general_sighting(game, night, SeededDice(seed))
        assert all("201" not in keepers for _, keepers in roll.sighted), (
            f"a {why} fighter may keep a sighting")

    return check


@CODE.check("23.0", "one fighter leaves the radio beacon box per phase, none in the turn "
                         "after a departure; the box never refills")
def beacon_box(game: Game):
    exits = tuple(game.hex_map().feature("radio-beacon-box").hexes)
    types = units_of(game, "night-fighter")

    @given(unit=st.sampled_from(types), waiting=st.integers(1, 4),
           tries=st.lists(st.tuples(st.integers(0, 2), st.sampled_from(exits),
                                    st.integers(0, 5)), min_size=1, max_size=8))
    def check(unit, waiting, tries):
        mp = movement.fighter_chart_mp(game, unit)
        boxed = tuple(state.Fighter(f"2{i}{i + 1}", unit=unit, mp=mp, status="beacon-box")
                      for i in range(waiting))
        night, left_on = state.Night(fighters=boxed), []
        plan = "F" * max(0, movement.fighter_min_mp(game, unit) - 1)
        for attempts, exit_hex, facing in tries:
            inside = [f.id for f in night.fighters if f.status == "beacon-box"]
            for fid in inside[:attempts]:
                try:
                    night = movement.leave_beacon_box(game, night, fid, exit_hex, facing, plan)
                    left_on.append(night.turn)
                except RuleViolation:
                    continue
            now = sum(f.status == "beacon-box" for f in night.fighters)
            assert now <= len(inside), "23.0: the radio beacon box refilled"
            night = phases.end_turn(night)
        assert len(left_on) == len(set(left_on)), f"two departures in one phase: {left_on}"
        assert all(b - a > 1 for a, b in zip(left_on, left_on[1:], strict=False)), (
            f"departures on turns {left_on}: one right after another (23.0)")

    return check


DECONFLICTION = 5  # 11.1: no attack with another friendly fighter within 5 hexes
FLARE_AHEAD = 3  # 26.2.2: the flare counter goes at most 3 turns ahead


@CODE.check("11.0", "an attack needs the bomber's hex and facing and a sighting; none with "
                         "altitude advantage, after an attack this turn, oblique in a dive, or "
                         "(11.1) another fighter within 5")
def attack_allowed(game: Game):
    cells = hexes(game)

    @given(here=st.sampled_from(cells), there=st.sampled_from(cells), facing=st.integers(0, 5),
           same_hex=st.booleans(), same_facing=st.booleans(), sighted=st.booleans(),
           attacked=st.booleans(), dives_left=st.integers(0, 1), oblique=st.booleans(),
           dived=st.booleans(), deconfliction=st.booleans())
    def check(here, there, facing, same_hex, same_facing, sighted, attacked, dives_left,
              oblique, dived, deconfliction):
        down = movement.bomber_facing(game)
        bomber = state.Bomber("101", hex=here, facing=down, status=state.ON_MAP)
        fighter = state.Fighter("201", hex=here if same_hex else there,
                                facing=down if same_facing else facing,
                                sighting="101" if sighted else None, attacked=attacked,
                                dives_left=dives_left)
        wing = state.Fighter("212", hex=there)
        night = state.Night(bombers=(bomber,), fighters=(fighter, wing))
        try:
            combat.check_attack(game, night, fighter, bomber, deconfliction=deconfliction,
                                oblique=oblique, dived=dived)
            allowed = True
        except RuleViolation:
            allowed = False
        near = grid(game).distance(there, fighter.hex) <= DECONFLICTION
        want = (fighter.hex == here and fighter.facing == down and sighted and not attacked
                and dives_left == 0 and not (oblique and dived)
                and not (deconfliction and near))
        assert allowed == want, f"attack allowed={allowed}, rules 11.0/11.1/18.0/20.0: {want}"

    return check


@CODE.check("26.2.2", "the flare counter stands at most 3 turns ahead and never moves back")
def flare_counter_ahead(game: Game):
    @given(turns=st.lists(st.tuples(st.integers(1, 3), st.booleans()), min_size=1,
                          max_size=10))
    def check(turns):
        turn, counter = 1, None
        for gap, dropped in turns:
            turn += gap
            if dropped:
                moved = movement.flare_counter(game, turn, counter)
                assert counter is None or moved >= counter, "the flare counter moved back"
                counter = moved
            assert counter is None or counter <= turn + FLARE_AHEAD, (
                f"turn {turn}: flare counter on {counter} (26.2.2: at most {FLARE_AHEAD} ahead)")

    return check


# --- the player's view [5.0] ------------------------------------------------------------------


@CODE.check("5.0", "the player's view does not depend on bombers he has not found")
def player_view_blind(game: Game):
    cells = hexes(game)

    @given(known=st.lists(st.sampled_from(cells), unique=True, min_size=0, max_size=3),
           hidden_a=st.lists(st.sampled_from(cells), max_size=4),
           hidden_b=st.lists(st.sampled_from(cells), max_size=4),
           how=st.lists(st.sampled_from(("sighting", "ai", "captured")), min_size=3,
                        max_size=3),
           seed=SEED)
    def check(known, hidden_a, hidden_b, how, seed):
        down = movement.bomber_facing(game)
        found = [state.Bomber(bomber_id(i), hex=h, facing=down, status=state.ON_MAP)
                 for i, h in enumerate(known)]
        fighters, captures = [], []
        for i, (b, kind) in enumerate(zip(found, how, strict=False)):
            f = state.Fighter(f"2{i}{i + 1}", hex=b.hex, facing=down)
            if kind == "sighting":
                f = replace(f, sighting=b.id)
            elif kind == "ai":
                f = replace(f, ai_contact=b.id)
            else:
                captures.append((zone_letters(game)[i], b.id))
            fighters.append(f)

        def night(hidden: list[str]) -> state.Night:
            unseen = [state.Bomber(bomber_id(len(found) + 6 + i), hex=h, facing=down,
                                   status=state.ON_MAP) for i, h in enumerate(hidden)]
            return state.Night(bombers=(*found, *unseen), fighters=tuple(fighters),
                               captures=tuple(captures), zones=zone_letters(game))

        a, b = night(hidden_a), night(hidden_b)
        assert state.player_view(a) == state.player_view(b), "the view shows unfound bombers"
        a = phases.end_turn(detection.maintain_sightings(game, a, SeededDice(seed)))
        b = phases.end_turn(detection.maintain_sightings(game, b, SeededDice(seed)))
        assert state.player_view(a) == state.player_view(b), (
            "after the sighting upkeep the view shows unfound bombers")

    return check


# --- a night of bombers, searchlights, fighters: the state machine --------------------------


@dataclass(frozen=True)
class Step:
    """One phase of a turn: its name, the night before and after it, and the ids it names
    (the corkscrewing bomber; the bombers a sighting roll showed)."""

    name: str
    before: state.Night
    after: state.Night
    subjects: frozenset[str] = frozenset()


def night_machine(game: Game) -> type[RuleBasedStateMachine]:
    """A state machine over a night, one game turn per step in the sequence of play [4.0]:
    bombers fly and enter, fighters fly, AI radar, searchlights and sighting find bombers, a
    bomber may corkscrew, the turn ends. Invariants read ``steps``, the phases of the last turn
    (Flak and Radar Search move nothing here and are left out).

    The classes built on it carry ``@seed``: ``run`` seeds @given tests only, and a state
    machine takes its seed from its class, so this keeps ``warpress verify`` reproducible."""
    cells = hexes(game)
    zones = zone_letters(game)
    fighter_units = radar_fighters(game)
    down = movement.bomber_facing(game)
    chart = ("2", "2*", "3", "3*")

    class NightMachine(RuleBasedStateMachine):
        def __init__(self):
            super().__init__()
            self.night = state.Night()
            self.steps: list[Step] = []

        @initialize(
            moon=st.sampled_from(MOONS), vis=st.sampled_from(VISIBILITIES),
            clouds=st.sampled_from(("clear",) * 3 + CLOUDS[1:]),  # mostly searchable nights
            altitude=st.sampled_from(("normal",) * 4 + ALTITUDES[1:]),
            placed=st.lists(st.tuples(st.sampled_from(cells), st.sampled_from(chart)),
                            unique_by=lambda t: t[0], min_size=2, max_size=8),
            pool=st.lists(st.sampled_from(chart), max_size=6),
            fighters=st.lists(st.tuples(st.sampled_from(cells), st.integers(0, 5),
                                        st.sampled_from(fighter_units),
                                        st.one_of(st.none(), st.integers(0, 9))), max_size=3),
            turn=st.integers(1, 4), radar_guided=st.booleans())
        def setup(self, moon, vis, clouds, altitude, placed, pool, fighters, turn,
                  radar_guided):
            """A night at the start of a turn: bombers on the map and in the pool, fighters
            (some behind a bomber, facing as it does)."""
            env = detection.environment(game, moon, vis, clouds, altitude)
            flying = [state.Bomber(bomber_id(i), unit="lancaster", hex=h, facing=down, mp=mp,
                                   status=state.ON_MAP) for i, (h, mp) in enumerate(placed)]
            waiting = [state.Bomber(bomber_id(len(placed) + i), unit="lancaster", mp=mp)
                       for i, mp in enumerate(pool)]
            own = []
            for i, (h, f, u, near) in enumerate(fighters):
                if near is not None:
                    h, f = placed[near % len(placed)][0], down
                own.append(state.Fighter(f"2{i}{i + 1}", unit=u, hex=h, facing=f,
                                         mp=movement.fighter_chart_mp(game, u)))
            self.night = state.Night(turn=turn, env=env, bombers=(*flying, *waiting),
                                     fighters=tuple(own), zones=zones,
                                     radar_guided=radar_guided)

        @rule(seed=SEED, hand_off=st.booleans(), entrants=st.integers(0, 3),
              plans=st.lists(FLY_PLANS, min_size=3, max_size=3),
              corkscrew=st.one_of(st.none(), st.integers(0, 20)))
        def turn(self, seed, hand_off, entrants, plans, corkscrew):
            """One game turn with dice seeded by ``seed``: the player tries hand-offs for
            every capture if ``hand_off``; ``entrants`` bombers enter; fighter i flies
            ``plans[i]``; bomber number ``corkscrew`` (None: none) corkscrews."""
            dice = SeededDice(seed)
            self.steps = []
            tries = frozenset(b.id for b in self.night.bombers) if hand_off else frozenset()
            self._did("move", phases.bomber_movement(game, self.night, dice, hand_offs=tries))
            self._did("enter", phases.bomber_entry(game, self.night, dice, entrants))
            self._did("fly", self._fly(plans))
            self._did("ai", radars.ai_search(game, self.night, dice=dice))
            self._did("searchlight", self._searchlights(dice))
            self._sighting(dice)
            self._corkscrew(dice, corkscrew)
            self._did("end", phases.end_turn(self.night))

        def _did(self, name: str, night: state.Night, subjects=()) -> None:
            self.steps.append(Step(name, self.night, night, frozenset(subjects)))
            self.night = night

        def _fly(self, plans: list[str]) -> state.Night:
            """Fighter Movement: every fighter flies its plan, else straight ahead for its
            least MP, else off the map edge; one the engine lets do none of these stays [9.1]."""
            night = self.night
            for f, plan in zip(night.fighters, plans, strict=False):
                if not f.on_map:
                    continue
                for tried in (plan, "F" * movement.fighter_min_mp(game, f.unit), "F"):
                    try:
                        night = movement.move_fighter(game, night, f.id, tried)
                        break
                    except RuleViolation:
                        continue
            return night

        def _searchlights(self, dice: SeededDice) -> state.Night:
            """The Searchlight phase: a roll in every zone that may search [14.2.1]."""
            night = self.night
            for zone in zones:
                try:
                    night = searchlights.searchlight_search(game, night, zone, dice)
                except RuleViolation:
                    continue  # a capture there already, cloud, high altitude: no roll
            return night

        def _sighting(self, dice: SeededDice) -> None:
            """The Sighting phase: upkeep, the general roll, one kept per free fighter [10]."""
            self._did("upkeep", detection.maintain_sightings(game, self.night, dice))
            roll = detection.general_sighting(game, self.night, dice)
            keep: dict[str, str] = {}
            for target, keepers in roll.sighted:
                free = [f for f in keepers if f not in keep
                        and self.night.fighter(f).sighting is None]
                if free:
                    keep[free[0]] = target
            self._did("sighting", detection.keep_sightings(game, self.night, roll, keep, dice),
                      [t for t, _ in roll.sighted])

        def _corkscrew(self, dice: SeededDice, pick: int | None) -> None:
            """Combat: a bomber reacting to a fighter may corkscrew (secret roll) [17.4.3]."""
            flying = self.night.on_map_bombers()
            if pick is None or not flying:
                return
            target = flying[pick % len(flying)].id
            after, _ = combat.corkscrew(game, self.night, target, dice)
            self._did("corkscrew", after, [target])

    return NightMachine


def _lost(step: Step, bomber: str) -> bool:
    """Known to the player before the step and not after it (16.0 displacement applies)."""
    return step.before.known(bomber) and not step.after.known(bomber)


@CODE.check("7.2", "a bomber leaves its column only by corkscrew or 16.0 displacement, "
                        "one column per event", max_examples=NIGHTS)
def bomber_keeps_column(game: Game):
    @seed(RUN_SEED)
    class Column(night_machine(game)):
        @state_invariant()
        def column_kept(self):
            for step in self.steps:
                for b in step.before.on_map_bombers():
                    after = step.after.bomber(b.id)
                    if not after.on_map or col(game, after.hex) == col(game, b.hex):
                        continue
                    shift = abs(col(game, after.hex) - col(game, b.hex))
                    displaced = b.id in step.subjects or _lost(step, b.id)
                    assert displaced, (f"bomber {b.id} went from {b.hex} to {after.hex} in the "
                                       f"{step.name} phase, neither corkscrew nor displacement")
                    assert shift <= 1, f"bomber {b.id} moved {shift} columns in one event"

    return Column


@CODE.check("7.2", "in Bomber Movement a bomber's row advances by exactly its MP, or it "
                        "exits past row 27; it always faces down its column", max_examples=NIGHTS)
def bomber_row_advance(game: Game):
    exit_row = max(row(game, h) for h in hexes(game))
    at = {(col(game, h), row(game, h)): h for h in hexes(game)}
    down = grid(game).direction(at[1, 1], at[1, 2])  # toward the next row [7.1]

    @seed(RUN_SEED)
    class Rows(night_machine(game)):
        @state_invariant()
        def rows_advance(self):
            for b in self.night.on_map_bombers():
                assert b.facing == down, f"bomber {b.id} in {b.hex} faces {b.facing} (7.1)"
            for step in self.steps[:1]:  # Bomber Movement
                for b in step.before.on_map_bombers():
                    after, mp = step.after.bomber(b.id), chart_mp(b.mp, step.before.turn)
                    goal = row(game, b.hex) + mp
                    if goal > exit_row:
                        assert after.status == "exited", (
                            f"bomber {b.id} from {b.hex} with {mp} MP did not exit")
                        continue
                    assert after.on_map, f"bomber {b.id} from {b.hex} with {mp} MP is gone"
                    got = row(game, after.hex)
                    slack = {0, -1} if _lost(step, b.id) else {0}  # 16.0: a rear diagonal
                    assert got - goal in slack, (
                        f"bomber {b.id} ({b.mp} MP, turn {step.before.turn}) from {b.hex} "
                        f"ended in {after.hex}, not row {goal}")

    return Rows


@CODE.check("14.2.2", "a searchlight zone holds at most one capture", max_examples=NIGHTS)
def one_capture_per_zone(game: Game):
    @seed(RUN_SEED)
    class Captures(night_machine(game)):
        @state_invariant()
        def one_per_zone(self):
            for step in self.steps:
                held = [z for z, _ in step.after.captures]
                assert len(held) == len(set(held)), (
                    f"after {step.name}: captures {step.after.captures}")

    return Captures


@CODE.check("14.2.3", "a captured bomber is inside its zone; no searchlight capture in "
                           "cloud or at high altitude", max_examples=NIGHTS)
def capture_inside_zone(game: Game):
    @seed(RUN_SEED)
    class Inside(night_machine(game)):
        @state_invariant()
        def inside(self):
            for step in self.steps:
                env = step.after.env
                for zone, target in step.after.captures:
                    b = step.after.bomber(target)
                    assert b.on_map and b.hex in zone_cells(game, zone), (
                        f"after {step.name}: bomber {target} in {b.hex} captured by {zone}")
                    assert env.clouds != "overcast" and env.altitude != "high", (
                        f"capture in zone {zone} in {env.clouds} at {env.altitude} altitude "
                        "(14.1, 21.2)")

    return Inside


@CODE.check("17.4.1", "an alert bomber stays alert; a corkscrewed one is lost to all",
           max_examples=NIGHTS)
def alert_and_lost(game: Game):
    @seed(RUN_SEED)
    class Alert(night_machine(game)):
        @state_invariant()
        def alert_kept(self):
            for step in self.steps:
                for b in step.before.bombers:
                    assert not b.alert or step.after.bomber(b.id).alert, (
                        f"{b.id} no longer alert after {step.name}")
                for target in step.subjects if step.name == "corkscrew" else ():
                    assert step.after.bomber(target).alert, "17.4.1: a corkscrew alerts"
                    assert not step.after.known(target), (
                        "17.4.3: the corkscrewed bomber is still held")

    return Alert


@CODE.check("8.2", "an entering bomber is in its chit's columns, row 1 to its MP; chits "
                        "drawn without replacement", max_examples=NIGHTS)
def entry_columns(game: Game):
    @seed(RUN_SEED)
    class Entry(night_machine(game)):
        @state_invariant()
        def entered(self):
            drawn = self.night.chits_drawn
            assert len(drawn) == len(set(drawn)), f"a chit drawn twice: {drawn}"
            for step in self.steps[1:2]:  # Bomber Entry
                fresh = [b for b in step.after.on_map_bombers()
                         if step.before.bomber(b.id).status in ("pool", "delayed")]
                if not fresh:
                    continue
                chit = game.get("entry-chits", step.after.chits_drawn[-1])
                columns = {int(n) for n in chit.get(step.after.chit_face)}
                for b in fresh:
                    assert col(game, b.hex) in columns, f"{b.id} entered {b.hex}, chit {columns}"
                    assert 1 <= row(game, b.hex) <= chart_mp(b.mp, step.before.turn), (
                        f"{b.id} entered at {b.hex} with {b.mp} MP")

    return Entry


@CODE.check("10.2", "a maintained sighting lies within the fighter's sighting range",
           max_examples=NIGHTS)
def sighting_in_range(game: Game):
    @seed(RUN_SEED)
    class Range(night_machine(game)):
        @state_invariant()
        def in_range(self):
            g = grid(game)
            for step in self.steps:
                if step.name != "sighting":
                    continue
                for f in step.after.fighters:
                    if f.sighting is None:
                        continue
                    b = step.after.bomber(f.sighting)
                    reach = detection.fighter_range_to(game, step.after, f, b)
                    assert b.on_map and g.distance(f.hex, b.hex) <= reach, (
                        f"fighter {f.id} in {f.hex} keeps {b.id} in {b.hex}, range {reach}")

    return Range


@CODE.check("5.1", "a bomber has markers on the player map iff it is sighted or acquired, "
                        "at its true hex and facing", max_examples=NIGHTS)
def markers_true(game: Game):
    @seed(RUN_SEED)
    class Markers(night_machine(game)):
        @state_invariant()
        def markers(self):
            for step in self.steps:
                shown = {(m.hex, m.facing) for m in state.player_view(step.after).markers}
                known = {(b.hex, b.facing) for b in step.after.on_map_bombers()
                         if step.after.known(b.id)}
                assert shown == known, (f"after {step.name}: markers at {sorted(shown)}, known "
                                        f"bombers at {sorted(known)}")

    return Markers


# --- fighter movement: the state machine --------------------------------------------------------


@dataclass(frozen=True)
class Flight:
    """One legal fighter move: the fighter before and after, and what was asked."""

    before: state.Fighter
    after: state.Fighter
    plan: str
    dives: int
    evade: bool
    turn: int


def fighter_machine(game: Game) -> type[RuleBasedStateMachine]:
    """A state machine over one night fighter's moves, turn after turn; the engine refuses
    illegal plans (and every plan once the fighter has left the map)."""
    cells = hexes(game)
    inner = tuple(h for h in cells if 5 <= col(game, h) <= 14 and 6 <= row(game, h) <= 22)
    types = units_of(game, "night-fighter")

    class FighterMachine(RuleBasedStateMachine):
        def __init__(self):
            super().__init__()
            self.night = state.Night()
            self.flight: Flight | None = None
            self.moved = False
            self.gone = False

        @initialize(unit=st.sampled_from(types),
                    here=st.one_of(st.sampled_from(inner), st.sampled_from(cells)),
                    facing=st.integers(0, 5), turn=st.integers(1, 4),
                    dives=st.one_of(st.just(MAX_DIVES), st.integers(0, MAX_DIVES)),
                    dazzle=st.one_of(st.just(0), st.integers(0, 3)))
        def setup(self, unit, here, facing, turn, dives, dazzle):
            f = state.Fighter("201", unit=unit, hex=here, facing=facing,
                              mp=movement.fighter_chart_mp(game, unit), dives_left=dives,
                              dazzled_until=turn + dazzle - 1 if dazzle else 0)
            self.night = state.Night(turn=turn, fighters=(f,))

        @rule(spare=st.one_of(st.just(1), st.integers(0, 3)),
              bends=st.one_of(st.just(""), BENDS),
              raw=st.one_of(st.none(), st.none(), st.none(), RAW_PLANS),
              dives=st.one_of(st.just(0), st.integers(1, MAX_DIVES)), evade=st.booleans())
        def fly(self, spare, bends, raw, dives, evade):
            """The fighter's move in Fighter Movement (after the End of Turn if it has moved
            this turn): a plan of about the MP the engine allows (``spare`` short of one more
            than that; after the i-th MP the i-th of ``bends``: L, R or - straight), or a
            ``raw`` string of steps. A refused plan changes nothing: the player tries again."""
            if self.moved:
                self.night, self.moved = phases.end_turn(self.night), False
            before = self.night.fighter("201")
            dives = min(dives, before.dives_left)
            plan = raw
            if plan is None:
                top = movement.fighter_max_mp(game, before.mp, self.night.turn,
                                              dive=bool(dives), evade=evade)
                plan = "".join("F" + (bends[i] if i < len(bends) else "").replace("-", "")
                               for i in range(top + 1 - spare))
            self.flight = None
            try:
                night = movement.move_fighter(game, self.night, "201", plan, dives=dives,
                                              evade=evade)
            except RuleViolation:
                return
            after = night.fighter("201")
            self.flight = Flight(before, after, plan, dives, evade, night.turn)
            self.night, self.moved = night, True
            self.gone = self.gone or not after.on_map

    return FighterMachine


def trace(game: Game, flight: Flight) -> list[movement.FighterMove]:
    """The flight step by step: each prefix of the plan through the engine's plan checker."""
    b = flight.before
    return [movement.check_fighter_plan(
        game, b.hex, b.facing, flight.plan[:k], max_mp=len(flight.plan), min_mp=0,
        dazzled=b.dazzled(flight.turn), evading=flight.evade)
        for k in range(len(flight.plan) + 1)]


@CODE.check("9.2", "a fighter turns at most 60 degrees per MP spent, never before its "
                        "first MP nor twice without an MP between", max_examples=40)
def fighter_turns(game: Game):
    @seed(RUN_SEED)
    class Turns(fighter_machine(game)):
        @state_invariant()
        def turns_per_mp(self):
            flight = self.flight
            if flight is None:
                return
            steps = trace(game, flight)
            turned_since_mp, total = True, 0
            for prev, nxt in zip(steps, steps[1:], strict=False):
                spun, spent = rotation(prev.facing, nxt.facing), nxt.mp_spent - prev.mp_spent
                assert abs(spun) <= TURN_SIXTHS, f"plan {flight.plan!r}: a {60 * spun} turn"
                assert spent in (0, 1), f"plan {flight.plan!r}: {spent} MP in one step"
                if spent:
                    turned_since_mp = False
                if spun:
                    assert not turned_since_mp, (
                        f"plan {flight.plan!r}: a turn before the first MP or right after "
                        "another turn")
                    turned_since_mp, total = True, total + 1
            assert total <= steps[-1].mp_spent, f"plan {flight.plan!r}: more turns than MP"
            after = flight.after
            if after.on_map:
                assert after.facing == steps[-1].facing, "the move and its trace disagree"
            assert abs(rotation(flight.before.facing, after.facing)) <= after.mp_spent, (
                f"plan {flight.plan!r}: facing {flight.before.facing} -> {after.facing} "
                f"with {after.mp_spent} MP")

    return Turns


@CODE.check("9.1", "a fighter spends 2 (or its minimum) to its MP, +1 diving (exactly "
                        "all), +1 evading", max_examples=40)
def fighter_mp(game: Game):
    @seed(RUN_SEED)
    class Spend(fighter_machine(game)):
        @state_invariant()
        def mp_spent(self):
            flight = self.flight
            if flight is None or not flight.after.on_map:
                return
            b, spent = flight.before, flight.after.mp_spent
            low = max(2, int(game.get("units", b.unit).stats.get("min_mp") or 2))
            high = (chart_mp(b.mp, flight.turn) + (DIVE_BONUS if flight.dives else 0)
                    + (EVADE_BONUS if flight.evade else 0))
            assert low <= spent <= high, (
                f"{b.unit} ({b.mp} MP, turn {flight.turn}, dive {flight.dives}, evade "
                f"{flight.evade}) spent {spent}, not {low}-{high}")
            if flight.dives:
                assert spent == high, f"a diving {b.unit} spent {spent} MP, not all {high}"

    return Spend


@CODE.check("18.0", "dives left never increase, never below 0, total 3", max_examples=40)
def fighter_dives(game: Game):
    @seed(RUN_SEED)
    class Dives(fighter_machine(game)):
        @state_invariant()
        def dives(self):
            f = self.night.fighters[0] if self.night.fighters else None
            if f is None:
                return
            assert 0 <= f.dives_left <= MAX_DIVES, f"{f.dives_left} dives left"
            if self.flight is not None:
                used = self.flight.before.dives_left - self.flight.after.dives_left
                assert used == self.flight.dives, f"{used} dives spent, {self.flight.dives} used"

    return Dives


@CODE.check("17.3.2", "a dazzled fighter that does not evade makes no turn",
           max_examples=40)
def dazzled_straight(game: Game):
    @seed(RUN_SEED)
    class Dazzled(fighter_machine(game)):
        @state_invariant()
        def straight(self):
            flight = self.flight
            if flight is None or flight.evade or not flight.before.dazzled(flight.turn):
                return
            assert not flight.after.turned and all(
                s.facing == flight.before.facing for s in trace(game, flight)), (
                f"a dazzled fighter flew {flight.plan!r}")

    return Dazzled


@CODE.check("9.2.1", "a fighter that has left the map never returns", max_examples=40)
def fighter_never_returns(game: Game):
    @seed(RUN_SEED)
    class Gone(fighter_machine(game)):
        @state_invariant()
        def stays_gone(self):
            f = self.night.fighters[0] if self.night.fighters else None
            if self.gone and f is not None:
                assert f.status == "off-map" and f.hex is None, f"fighter back in {f.hex}"

    return Gone

"""Combat results tables from data: odds-ratio and differential CRTs, and the combat query.

A table with a ``crt:`` form (docs/data-format.md, "Combat results tables") is one
description read three ways: its grid becomes the rows every table has (the data checks and
the play aid read them), ``warpress lookup GAME crt odds=7-1 roll=4`` looks a column up
(rounding, clamping, shifts), and ``warpress lookup GAME combat attacker=.. defender=..
hex=.. roll=..`` goes from the units and the hex to the result: it sums the factors the form
names, applies the terrain effects chart's multipliers, rounds the odds or difference,
clamps, shifts, and looks the result up, naming every rule it used.

Column arithmetic is exact (fractions): a defence doubled to 9 against an attack of 20 is
20:9, in the 2-1 column when fractions go in the defender's favour.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .dice import Dice, weights
from .errors import BadInput
from .inputs import quote
from .model import (
    COLUMN_KEY,
    COLUMN_NAME,
    RESULT,
    ROLL_KEY,
    CombatForm,
    Game,
    Table,
    Unit,
    column_label,
)
from .registry import REQUIRED, Answer, Input, OddsAnswer, RefTable
from .tables import lookup_row
from .terrain import (
    Effect,
    grid_of,
    hex_effects,
    hexside_effects,
    map_of,
    terrain_ref_table,
)

_ODDS = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*[-:–]\s*(\d+(?:\.\d+)?)\s*$")
_DIFF = re.compile(r"^\s*([+-]?\d+)\s*$")


def _col(form: CombatForm, index: int) -> str:
    return column_label(form.columns[index])


# --- columns ------------------------------------------------------------------------------


def column_value(method: str, text: object) -> Fraction:
    """A column heading or a typed column as a number: ``3-1`` / ``3:1`` -> 3, ``1-2`` ->
    1/2; ``+2`` -> 2. Raises ValueError naming what is allowed."""
    shown = str(text)
    if method == "odds":
        match = _ODDS.match(shown)
        if match:
            a, b = Fraction(match[1]), Fraction(match[2])
            if b > 0:
                return a / b
        raise ValueError(f"{shown!r} is not odds like 3-1, 3:1 or 1-2")
    match = _DIFF.match(shown)
    if match:
        return Fraction(int(match[1]))
    raise ValueError(f"{shown!r} is not a difference like -2, 0 or +3")


def column_values(form: CombatForm) -> list[Fraction]:
    return [column_value(form.method, c) for c in form.columns]


def _whole(form: CombatForm, value: Fraction) -> Fraction:
    """The value rounded to whole odds (N-1 or 1-N) or a whole difference, in the favour
    the form says: what decides whether it is beyond an end of the table."""
    down = form.round == "defender"
    if form.method == "differential":
        return Fraction(math.floor(value) if down else math.ceil(value))
    if value == 0:
        return value
    if value >= 1:
        return Fraction(math.floor(value) if down else math.ceil(value))
    return Fraction(1, math.ceil(1 / value) if down else math.floor(1 / value))


def favour(form: CombatForm) -> str:
    word = "dropped" if form.round == "defender" else "rounded up"
    return f"fractions {word} in the {form.round}'s favour"


@dataclass(frozen=True)
class Column:
    """Where a combat lands: a column (``index``), or an end's declared result."""

    index: int | None
    result: str | None
    notes: tuple[str, ...]


def _position(form: CombatForm, value: Fraction | None, shown: str) -> tuple[int, list[str]]:
    """The column index of ``value`` (None: no defence, infinitely high odds): -1 left of
    the table, len(columns) right of it."""
    rule = _bracket(list(form.rule))
    cols = column_values(form)
    n = len(cols)
    if value is None:
        return n, [f"{shown}: no defence, beyond {_col(form, -1)}{rule}"]
    whole = _whole(form, value)
    if whole < cols[0]:
        return -1, [f"{shown}: below {_col(form, 0)}, the first column{rule}"]
    if whole > cols[-1]:
        return n, [f"{shown}: beyond {_col(form, -1)}, the last column{rule}"]
    if form.round == "defender":
        index = max(i for i, c in enumerate(cols) if c <= value)
    else:
        index = min(i for i, c in enumerate(cols) if c >= value)
    if shown == str(_col(form, index)):
        return index, []
    how = "" if cols[index] == value else f" ({favour(form)})"
    return index, [f"{shown} -> {_col(form, index)}{how}{rule}"]


def _at_end(form: CombatForm, index: int, notes: list[str]) -> Column:
    """A position past an end: that end's result, or (``clamp``) the end column."""
    n = len(form.columns)
    if 0 <= index < n:
        return Column(index, None, tuple(notes))
    end, first = (form.below, 0) if index < 0 else (form.above, n - 1)
    if end == "clamp":
        return Column(first, None, (*notes, f"resolved at {_col(form, first)} (clamped)"))
    where = f"below {_col(form, 0)}" if index < 0 else f"beyond {_col(form, -1)}"
    return Column(None, str(end), (*notes, f"{where}: result {end}"))


def find_column(form: CombatForm, value: Fraction | None, shown: str,
                shift: int = 0) -> Column:
    """The column of ``value`` after ``shift`` columns (negative: to the defender's favour).
    A clamped end is resolved at the end column before the shift (``8-1`` treated as 6-1,
    then shifted); an end with a declared result counts as one column past the end, which a
    shift may bring back into the table."""
    index, notes = _position(form, value, shown)
    n = len(form.columns)
    if index < 0 and form.below == "clamp" or index >= n and form.above == "clamp":
        first = _at_end(form, index, notes)
        if first.index is not None:  # always: a clamped end is a column
            index, notes = first.index, list(first.notes)
    if shift:
        start = _col(form, index) if 0 <= index < n else "off the table"
        index += shift
        inside = _col(form, index) if 0 <= index < n else "off the table"
        notes.append(f"shifted {shift:+d} column{'s' if abs(shift) > 1 else ''}: "
                     f"{start} -> {inside}")
    return _at_end(form, index, notes)


def result_of(table: Table, column: Column, dice: Dice) -> tuple[str, int | None]:
    """The result code of a column (rolling the die), or the end's declared result."""
    form = table.crt
    assert form is not None
    if column.index is None:
        return str(column.result), None
    roll = dice.roll(table.dice or "d6", ROLL_KEY)
    _row, found = lookup_row(table, **{ROLL_KEY: roll,
                                       COLUMN_KEY[form.method]: _col(form, column.index)})
    return str(found[RESULT]), roll


def meaning(form: CombatForm, code: str) -> str:
    return str(form.codes.get(code, code))


def crt_notes(table: Table) -> list[str]:
    """How to read the CRT, as the play aid prints it under the grid: the codes, the
    rounding, the ends."""
    form = table.crt
    assert form is not None
    codes = "; ".join(f"{code}\u00a0=\u00a0{name}" for code, name in form.codes.items())
    how = ("Odds: attack strength : defence strength" if form.method == "odds"
           else "Difference: attack strength - defence strength")
    ends = []
    for end, word, col in ((form.below, "Below", _col(form, 0)),
                           (form.above, "Beyond", _col(form, -1))):
        ends.append(f"{word} {col}: " + (f"as {col}" if end == "clamp" else f"result {end}"))
    lines = [f"Results: {codes}" if codes else "", f"{how}, {favour(form)}.",
             " · ".join(ends) + " · then column shifts (negative: to the defender's favour)."]
    return [line for line in lines if line]


# --- the CRT as a referee table -------------------------------------------------------------


def crt_ref_table(table: Table) -> RefTable:
    """``lookup GAME crt odds=7-1 roll=4``: any odds (or difference), rounded and clamped as
    the form says; ``shift=N`` moves the column."""
    form = table.crt
    assert form is not None
    key = COLUMN_KEY[form.method]
    example = "3-1 or 3:1 (any odds, e.g. 7:3)" if form.method == "odds" else "-2, 0 or +3"
    inputs = (Input(key, "text", help=f"{COLUMN_NAME[form.method]}: {example}",
                    choices=examples(form)),  # what the generic invariants draw from
              Input("shift", "int", help="column shifts (negative: to the defender's favour)",
                    default=0),
              Input(ROLL_KEY, "roll", help="Die roll", die=table.dice or "d6"))

    def column(args: dict[str, Any]) -> Column:
        text = str(args[key])
        match = _ODDS.match(text) if form.method == "odds" else None
        if match and Fraction(match[2]) == 0 and Fraction(match[1]) > 0:
            return find_column(form, None, text, args["shift"])  # no defence: beyond the end
        try:
            value = column_value(form.method, text)
        except ValueError:
            raise BadInput(f"input {key}={quote(text)} is not allowed ({example})") from None
        return find_column(form, value, text, args["shift"])

    def resolve(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
        found = column(args)
        code, roll = result_of(table, found, dice)
        return _answer(table, found, code, roll, [], (*table.rule, *form.rule))

    def odds(game: Game, args: dict[str, Any]) -> OddsAnswer:
        return _odds_answer(table, column(args), [], (*table.rule, *form.rule))

    return RefTable(name=table.id, summary=table.label, rules=table.rule, inputs=inputs,
                    results=("column", RESULT, "meaning"), resolve=resolve, odds_field=RESULT,
                    odds=odds, errata=table.errata, whole_text=True)


def examples(form: CombatForm) -> tuple[str, ...]:
    """Column inputs to try: every column, and values past both ends and between columns."""
    cols = tuple(_col(form, i) for i in range(len(form.columns)))
    if form.method == "odds":
        return (*cols, "1:3", "2:3", "7:3", "5:4", "7-1", "20:1", "3:0")
    return (*cols, "-9", "+9", "0", "+1", "-1")


def _answer(table: Table, found: Column, code: str, roll: int | None, lines: list[str],
            rules: Sequence[str], extra: dict[str, Any] | None = None) -> Answer:
    form = table.crt
    assert form is not None
    label = None if found.index is None else _col(form, found.index)
    text_lines = [*lines, *found.notes]
    if roll is not None:
        text_lines.append(f"roll {roll} on {label}: {code}")
    result = {**(extra or {}), "column": label, RESULT: code, "meaning": meaning(form, code),
              "notes": list(found.notes)}
    text = f"{code} ({meaning(form, code)})" + "".join(f"\n  {line}" for line in text_lines)
    return Answer(result=result, rules=_unique(rules), errata=table.errata, text=text)


def _odds_answer(table: Table, found: Column, lines: list[str], rules: Sequence[str],
                 extra: dict[str, Any] | None = None) -> OddsAnswer:
    form = table.crt
    assert form is not None
    exact: dict[str, Fraction] = {}
    if found.index is None:
        exact[str(found.result)] = Fraction(1)
    else:
        column = _col(form, found.index)
        for roll, p in weights(table.dice or "d6").items():
            _row, res = lookup_row(table, **{ROLL_KEY: roll, COLUMN_KEY[form.method]: column})
            exact[str(res[RESULT])] = exact.get(str(res[RESULT]), Fraction(0)) + p
    label = None if found.index is None else _col(form, found.index)
    head = f"column {label}" if label else f"{found.result} beyond the table"
    text = head + "".join(f"\n  {line}" for line in [*lines, *found.notes])
    return OddsAnswer(result={**(extra or {}), "column": label, "field": RESULT},
                      exact=exact, rules=_unique(rules), errata=table.errata, text=text)


def _unique(rules: Sequence[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(rules))


# --- the combat query -----------------------------------------------------------------------


@dataclass(frozen=True)
class Fighter:
    """A unit in the combat, with the hex it attacks from (if given); a session's piece
    carries its own ``label`` (its piece id) and the multipliers that conditions and supply
    put on it (``times``: (by, why, rules))."""

    unit: Unit
    hex: str | None
    reduced: bool = False  # on its reduced face (``reduced=ID``): its ``back`` stats count
    label: str | None = None
    times: tuple[tuple[Fraction, str, tuple[str, ...]], ...] = ()

    @property
    def shown(self) -> str:
        name = self.label or self.unit.id
        return f"{name} (reduced)" if self.reduced else name


def _number(value: Any) -> Fraction | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return Fraction(str(value)) if isinstance(value, float) else Fraction(value)


def shown(value: Fraction) -> int | float:
    """A strength as JSON and people read it: 7, 3.5."""
    return int(value) if value.denominator == 1 else round(float(value), 3)


def _fighters(game: Game, role: str, ids: list[str], allow_hex: bool,
              reduced: frozenset[str] = frozenset()) -> list[Fighter]:
    units = {u.id: u for u in game.units}
    if not ids:
        raise BadInput(f"input {role}= names no unit (unit ids, comma-separated)")
    out = []
    for text in ids:
        unit_id, at, hex_id = text.partition("@")
        unit = units.get(unit_id.strip())
        if unit is None:
            listed = ", ".join(sorted(units)[:12]) + (", ..." if len(units) > 12 else "")
            raise BadInput(f"{role} {quote(unit_id)} is not a unit of {game.id} "
                           f"(units: {listed})")
        if at and not allow_hex:
            raise BadInput(f"{role} {quote(text)}: only attackers carry a hex (ID@HEX)")
        out.append(Fighter(unit, hex_id.strip() if at else None, unit.id in reduced))
    for unit_id in {f.unit.id for f in out}:
        given = sum(f.unit.id == unit_id for f in out)
        count = units[unit_id].count or 1
        if given > count:
            raise BadInput(f"{role} {quote(unit_id)} given {given} times: the game has "
                           f"{count} such counter{'s' if count > 1 else ''}")
    return out


def _sides(game: Game, attackers: list[Fighter], defenders: list[Fighter]) -> None:
    sides = {f.unit.side for f in attackers}
    if len(sides) > 1:
        listed = ", ".join(f"{f.unit.id} ({f.unit.side})" for f in attackers)
        raise BadInput(f"attackers {quote(listed)} are of more than one side")
    side = next(iter(sides))
    for f in defenders:
        if f.unit.side == side:
            raise BadInput(f"defender {quote(f.unit.id)} is a unit of {side}, the attacking "
                           f"side")
    for f in attackers:
        if f in defenders or f.unit.id in {d.unit.id for d in defenders}:
            raise BadInput(f"unit {quote(f.unit.id)} both attacks and defends")


def _strength(fighter: Fighter, stat: str, role: str) -> Fraction:
    """The stat the CRT sums, from the counter's front, or its back (``units.back``, a
    mapping of the stats the reduced face changes) when the unit is reduced."""
    unit = fighter.unit
    stats = unit.stats
    if fighter.reduced:
        if (unit.steps or 1) < 2 or not isinstance(unit.back, Mapping):
            raise BadInput(f"reduced {quote(unit.id)}: the unit has no reduced face with "
                           f"stats (steps: 2 and back: {{{stat}: ...}})")
        stats = {**unit.stats, **unit.back}
    value = _number(stats.get(stat))
    if value is None:
        have = ", ".join(stats) or "none"
        raise BadInput(f"{role} {quote(unit.id)} has no number {stat!r} in its stats "
                       f"(stats: {have}); the CRT sums {stat!r}")
    return value


def _reduced(args: dict[str, Any], attackers: list[str], defenders: list[str]) -> frozenset[str]:
    given = [r.strip() for r in args.get("reduced") or [] if r.strip()]
    named = {a.partition("@")[0].strip() for a in (*attackers, *defenders)}
    for unit_id in given:
        if unit_id not in named:
            raise BadInput(f"reduced {quote(unit_id)} is neither an attacker nor a defender")
    return frozenset(given)


def _rules_of(effect: Effect) -> list[str]:
    return list(effect.entry.rule) or ["assumed"]


def _bracket(rules: Sequence[str]) -> str:
    return f" [{', '.join(rules)}]" if rules else ""


@dataclass
class Tally:
    """What the combat query worked out, step by step."""

    attack: Fraction = Fraction(0)
    defence: Fraction = Fraction(0)
    shift: int = 0
    lines: list[str] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)
    shifts: list[dict[str, Any]] = field(default_factory=list)
    multipliers: list[dict[str, Any]] = field(default_factory=list)


def tally(game: Game, table: Table, args: dict[str, Any]) -> tuple[Tally, str]:
    """Sum, multiply and collect the shifts; the value shown for the column (``7:4``)."""
    reduced = _reduced(args, args["attacker"], args["defender"])
    attackers = _fighters(game, "attacker", args["attacker"], allow_hex=True, reduced=reduced)
    defenders = _fighters(game, "defender", args["defender"], allow_hex=False, reduced=reduced)
    _sides(game, attackers, defenders)
    return tally_fighters(game, table, attackers, defenders, args.get("hex"),
                          args.get("shift") or 0)


def _applies(effect: Effect, defenders: list[Fighter]) -> bool:
    """Whether a chart entry's combat effect counts: one with ``side`` helps only that
    side's defenders."""
    side = effect.entry.side
    return side is None or bool(defenders) and all(f.unit.side == side for f in defenders)


def _multiply(t: Tally, f: Fighter, of: str, strength: Fraction, part: str,
              times: tuple[Fraction, str, list[str]]) -> tuple[Fraction, str]:
    """One multiplier of a fighter's strength: applied, shown in its part and tallied."""
    by, why, rules = times
    t.rules.extend(rules)
    t.multipliers.append({"unit": f.label or f.unit.id, "of": of, "by": shown(by),
                          "from": why, "rules": rules})
    return strength * by, f"{part} x{shown(by)} ({why}{_bracket(rules)})"


def tally_fighters(game: Game, table: Table, attackers: list[Fighter],
                   defenders: list[Fighter], target: str | None,
                   extra_shift: int = 0) -> tuple[Tally, str]:
    """:func:`tally` over fighters given as they are (a session's pieces)."""
    form = table.crt
    assert form is not None
    t = Tally(rules=[*table.rule, *form.rule])
    hex_map = map_of(game, target, "hex") if target else None
    parts = []
    crossing: list[list[Effect]] = []
    for f in attackers:
        strength = _strength(f, form.attack, "attacker")
        side_effects: list[Effect] = []
        if f.hex is not None:
            if hex_map is None or target is None:
                raise BadInput(f"attacker {quote(f.unit.id + '@' + f.hex)}: give hex= (the "
                               "defenders' hex) to attack from a hex")
            if f.hex not in hex_map.hex_set:
                raise BadInput(f"attacker {quote(f.unit.id + '@' + f.hex)}: {quote(f.hex)} is "
                               f"not a hex of the map ({hex_map.hex_ids[0]}.."
                               f"{hex_map.hex_ids[-1]})")
            if grid_of(hex_map).distance(f.hex, target) != 1:
                raise BadInput(f"attacker {quote(f.unit.id + '@' + f.hex)} is not next to hex "
                               f"{quote(target)}")
            side_effects = [e for e in hexside_effects(game, hex_map, f.hex, target)
                            if _applies(e, defenders)]
        crossing.append(side_effects)
        part = f"{f.shown} {shown(strength)}"
        for by, why, rules in f.times:
            strength, part = _multiply(t, f, "attack", strength, part, (by, why, list(rules)))
        for effect in side_effects:
            if effect.entry.attack is not None:
                times = (Fraction(str(effect.entry.attack)), effect.why, _rules_of(effect))
                strength, part = _multiply(t, f, "attack", strength, part, times)
        t.attack += strength
        parts.append(part)
    t.lines.append(f"attack {shown(t.attack)}: {' + '.join(parts)}")
    here = ([e for e in hex_effects(game, hex_map, target) if _applies(e, defenders)]
            if hex_map is not None and target is not None else [])
    pieces = []
    for f in defenders:
        strength = _strength(f, form.defence, "defender")
        part = f"{f.shown} {shown(strength)}"
        for by, why, rules in f.times:
            strength, part = _multiply(t, f, "defence", strength, part, (by, why, list(rules)))
        t.defence += strength
        pieces.append(part)
    line = f"defence {shown(t.defence)}: " + " + ".join(pieces)
    for effect in here:
        if effect.entry.defence is not None:
            by = Fraction(str(effect.entry.defence))
            t.defence *= by
            line += f", x{shown(by)} {effect.why}{_bracket(_rules_of(effect))}"
            t.rules.extend(_rules_of(effect))
            t.multipliers.append({"of": "defence", "by": shown(by), "from": effect.why,
                                  "rules": _rules_of(effect)})
    if any(e.entry.defence is not None for e in here):
        line += f" = {shown(t.defence)}"
    t.lines.append(line)
    if hex_map is None:
        t.lines.append("no hex given: no terrain effects")
    _shifts(t, here, attackers, crossing, extra_shift, target)
    if form.method == "odds":
        return t, f"{shown(t.attack)}:{shown(t.defence)}"
    return t, f"{shown(t.attack - t.defence):+}"


def _shifts(t: Tally, here: list[Effect], attackers: list[Fighter],
            crossing: list[list[Effect]], extra: int, target: str | None) -> None:
    """The hex's shifts, and a hexside's when every attacker attacks across it."""
    found: list[tuple[int, str, list[str]]] = []
    for effect in here:
        if effect.entry.shift:
            found.append((effect.entry.shift, effect.why, _rules_of(effect)))
    kinds = [{e.entry.id: e for e in sides} for sides in crossing]
    every = set(kinds[0]).intersection(*kinds[1:]) if kinds else set()
    for kind in sorted(every):
        effect = kinds[0][kind]
        if effect.entry.shift:
            found.append((effect.entry.shift, f"{kind}: every attacker attacks across it",
                          _rules_of(effect)))
    missing = [f.unit.id for f in attackers if f.hex is None]
    if missing and target and any(sides for sides in crossing):
        t.lines.append(f"hexsides not counted: no hex given for {', '.join(missing)} (ID@HEX)")
    if extra:
        found.append((extra, "given (shift=)", []))
    for by, why, rules in found:
        t.shift += by
        t.rules.extend(rules)
        t.shifts.append({"shift": by, "from": why, "rules": rules})
    if found:
        t.lines.append(f"shifts {t.shift:+d}: " + "; ".join(
            f"{why} {by:+d}{_bracket(rules)}" for by, why, rules in found))


def combat_ref_table(game: Game, table: Table) -> RefTable:
    """``lookup GAME combat attacker=ID,ID@HEX defender=ID hex=HEX roll=N``."""
    form = table.crt
    assert form is not None
    inputs = (Input("attacker", "ids", help="attacking unit ids, each may carry the hex it "
                    "attacks from: g1@0503"),
              Input("defender", "ids", help="defending unit ids"),
              Input("hex", "text", help="the defenders' hex",
                    default=REQUIRED if game.hex_maps else None),
              Input("shift", "int", help="other column shifts the rules give", default=0),
              Input("reduced", "ids", help="units on their reduced face (back stats)",
                    default=None),
              Input(ROLL_KEY, "roll", help="Die roll", die=table.dice or "d6"))

    def work(args: dict[str, Any]) -> tuple[Tally, Column, dict[str, Any]]:
        return tally_column(form, *tally(game, table, args))

    def resolve(game_: Game, args: dict[str, Any], dice: Dice) -> Answer:
        t, found, extra = work(args)
        code, roll = result_of(table, found, dice)
        return _answer(table, found, code, roll, t.lines, t.rules, extra)

    def odds(game_: Game, args: dict[str, Any]) -> OddsAnswer:
        t, found, _extra = work(args)  # the steps are in the text; lookup --json has them
        return _odds_answer(table, found, t.lines, t.rules)

    return RefTable(name=combat_name(game, table), summary=f"Combat on the {table.label}",
                    rules=table.rule, inputs=inputs, results=("column", RESULT, "meaning"),
                    resolve=resolve, odds_field=RESULT, odds=odds, errata=table.errata,
                    whole_text=True)


def tally_column(form: CombatForm, t: Tally,
                 text: str) -> tuple[Tally, Column, dict[str, Any]]:
    """A tally's column and what the answer reports of it (attack, defence, odds or
    difference, shifts, multipliers)."""
    head = "odds" if form.method == "odds" else "difference"
    found = find_column(form, _combat_value(form, t), f"{head} {text}", t.shift)
    extra = {"attack": shown(t.attack), "defence": shown(t.defence), head: text,
             "shift": t.shift, "shifts": t.shifts, "multipliers": t.multipliers}
    return t, found, extra


def _combat_value(form: CombatForm, t: Tally) -> Fraction | None:
    if form.method == "differential":
        return t.attack - t.defence
    if t.defence == 0:
        return None
    return t.attack / t.defence


def crt_tables(game: Game) -> list[Table]:
    return [t for t in game.tables if t.crt is not None]


def combat_name(game: Game, table: Table) -> str:
    """``combat`` for a game's one CRT; ``combat-<table id>`` when it has several."""
    return "combat" if len(crt_tables(game)) == 1 else f"combat-{table.id}"


def form_tables(game: Game) -> dict[str, RefTable]:
    """The referee tables the data forms give: each CRT and its combat query, and the
    terrain effects of a hex (``terrain``)."""
    out: dict[str, RefTable] = {}
    for table in crt_tables(game):
        out[table.id] = crt_ref_table(table)
        out[combat_name(game, table)] = combat_ref_table(game, table)
    if game.terrain and game.hex_maps:
        out["terrain"] = terrain_ref_table(game)
    return out

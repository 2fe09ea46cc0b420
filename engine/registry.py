"""The game registry: what a game folder's Python registers, and the referee tables.

A game folder's ``__init__.py`` declares one :class:`GameCode`, ``CODE = GameCode()``, and
the folder's modules register on it: referee tables (``@CODE.table``), rule invariants
(``@CODE.check``), kit parts (``@CODE.kit_part``) and the session rules (``@CODE.session``).
``engine.gamecode.game_code`` finds it, bound to the folder, never to the id (no ``if game
== ...`` anywhere). Every die-range table of the game's YAML is also served as a plain
lookup (``data_ref_table``), so a designer's data-only game answers ``warpress lookup`` too
(``engine.catalogue``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from .dice import Dice, faces, range_text
from .errors import BadInput
from .model import Game, Table, TableKey
from .records import Frozen, frozen_record
from .tables import Interval, compiled, lookup_row

if TYPE_CHECKING:  # fractions are imported where an exact answer is made
    from fractions import Fraction

REQUIRED: Any = object()

#: an input's range from the game's data: ``game -> (low, high, what the range is)``
Bounds = Callable[[Game], tuple[int, int, str]]

InputKind = Literal["int", "enum", "bool", "roll", "rolls", "text", "ids"]


@frozen_record(kw_only=False)
class Input(Frozen):
    """One NAME=VALUE input of a referee table.

    ``roll`` is a die result the user rolled (``lookup`` needs it; ``roll``
    rolls it when missing; ``odds`` enumerates it). ``rolls`` is a
    comma-separated sequence of such results. ``ids`` is a comma-separated list
    of words. ``int`` may have ``min``/``max``, or ``bounds``: a function of the game
    giving ``(low, high, what they are)`` from its data (a track's boxes, a constant), so
    that ``warpress tables`` and the messages state the range the table checks; ``enum``
    has ``choices``.
    """

    name: str
    kind: InputKind
    help: str = ""
    choices: tuple[str, ...] = ()
    min: int | None = None
    max: int | None = None
    default: Any = REQUIRED
    die: str | None = None
    bounds: Bounds | None = None

    @property
    def required(self) -> bool:
        return self.default is REQUIRED and self.kind not in ("roll", "rolls")

    @property
    def is_roll(self) -> bool:
        return self.kind in ("roll", "rolls")

    @property
    def rolled(self) -> str:
        """The die of a ``roll`` or ``rolls`` input."""
        if self.die is None:
            raise TypeError(f"input {self.name!r} ({self.kind}) names no die")
        return self.die

    def range_in(self, game: Game | None) -> tuple[int, int, str] | None:
        """``bounds`` in ``game`` (None without either)."""
        return None if self.bounds is None or game is None else self.bounds(game)

    def allowed(self, game: Game | None = None) -> str:
        """What the input accepts, for messages and ``warpress tables`` (``bounds`` need
        the ``game``)."""
        span = self.range_in(game)
        if span is not None:
            low, high, what = span
            return f"integer {low}..{high}" + (f", {what}" if what else "")
        if self.kind == "enum":
            return "|".join(self.choices)
        if self.kind == "bool":
            return "yes|no"
        if self.is_roll:
            if self.kind == "roll":
                return f"{self.die} result {range_text(self.rolled)}"
            return f"comma-separated {self.die} results ({range_text(self.rolled)} each)"
        if self.kind == "int":
            lo = "" if self.min is None else str(self.min)
            hi = "" if self.max is None else str(self.max)
            return f"integer {lo}..{hi}" if (lo or hi) else "integer"
        if self.kind == "ids":
            return f"comma-separated list: {self.help}" if self.help else "comma-separated list"
        return self.help or "text"


def key_bounds(table_id: str, key_id: str, what: str = "") -> Bounds:
    """``bounds`` of an ``int`` input that a data table's key limits: the key's ``min`` and
    ``max`` (tables.yaml), so that ``warpress tables``, the input check and the table itself
    state one range from one place. ``what`` says what the range is (default: the key's
    name)."""

    def bounds(game: Game) -> tuple[int, int, str]:
        key = game.table(table_id).key(key_id)
        if key.min is None or key.max is None:
            raise BadInput(f"table {table_id!r} key {key_id!r} has no min and max to bound an "
                           "input with")
        return key.min, key.max, what or (key.name or "")

    return bounds


@frozen_record(kw_only=False)
class Answer(Frozen):
    """What a referee table answers: result fields, the rules and errata behind them."""

    result: Mapping[str, Any]
    rules: tuple[str, ...] = ()
    errata: tuple[str, ...] = ()
    text: str | None = None


Resolve = Callable[[Game, dict[str, Any], Dice], Answer]
Factory = Callable[[Game], object]
Builder = Callable[..., Any]  # a page part: -> its pages (components.kit.KitPage); the
# counter face part: -> one counter's primitives (components.registry.CounterFace)
Odds = Callable[..., "OddsAnswer"]  # fn(game, args), or fn(game, args, exact=) (float_odds)


@frozen_record(kw_only=False)
class OddsAnswer(Frozen):
    """An answer of ``odds``: named probabilities or a distribution of one field, exact
    (``exact``); or, from a ``float_odds`` table asked without ``--exact``, floating point
    in ``result`` alone (``exact`` empty), ``text`` then being the whole text answer."""

    result: Mapping[str, Any]
    exact: Mapping[str, Fraction]
    rules: tuple[str, ...] = ()
    errata: tuple[str, ...] = ()
    text: str | None = None


@frozen_record(kw_only=False)
class RefTable(Frozen):
    """A table a referee can query: its inputs, result fields and procedure."""

    name: str
    summary: str
    rules: tuple[str, ...]
    inputs: tuple[Input, ...]
    results: tuple[str, ...]
    resolve: Resolve
    odds_field: str | None = None
    odds: Odds | None = None
    errata: tuple[str, ...] = ()
    lookup_allowed: bool = True
    float_odds: bool = False  # ``odds(game, args, exact=bool)``: floats unless --exact
    whole_text: bool = False  # an answer's ``text`` is the whole text answer (engine/combat.py)

    def input(self, name: str) -> Input:
        for item in self.inputs:
            if item.name == name:
                return item
        names = ", ".join(i.name for i in self.inputs) or "none"
        raise BadInput(f"unknown input {name!r} for table {self.name!r} (inputs: {names})")


@dataclass(frozen=True)
class KitPart:
    """A page builder of a game's own kit: ``build(game, options) -> list[KitPage]`` for the
    kit's ``part`` (``sheets``, ``map``...); ``replaces`` drops the generic pages of the part."""

    part: str
    build: Builder
    replaces: bool = False


@dataclass(frozen=True)
class Check:
    """A rule invariant: ``factory(game)`` gives something hypothesis runs (a ``@given``
    function or a ``RuleBasedStateMachine`` class), held to ``rule`` (verify/invariants.py)."""

    rule: str
    summary: str
    factory: Callable[[Game], object]
    name: str
    max_examples: int | None = None


class GameCode:
    """Everything a game folder's Python adds to its data, registered on one object.

    The folder's ``__init__.py`` declares it once, ``CODE = GameCode()``; the folder's modules
    register on it (``from .. import CODE`` in ``rules/``, ``from . import CODE`` beside it):

    - ``@CODE.table(name, rules=..., inputs=...)`` on a referee table's procedure (``rules/``);
    - ``@CODE.check(rule, summary)`` on a rule invariant's factory (``checks.py``);
    - ``@CODE.kit_part(part, replaces=False)`` on a kit page builder (``kit.py``);
    - ``@CODE.session`` on the class of the session rules (``rules/session.py``).

    ``engine.gamecode.game_code`` finds it and imports only the module a command needs, so
    ``lookup`` never loads the session rules or the kit."""

    def __init__(self) -> None:
        self.tables: dict[str, RefTable] = {}
        self.checks: list[Check] = []
        self.kit_parts: list[KitPart] = []
        self.session_rules: type | None = None

    def table(
        self,
        name: str,
        *,
        rules: tuple[str, ...] | list[str],
        inputs: tuple[Input, ...] | list[Input] = (),
        results: tuple[str, ...] | list[str] = (),
        summary: str = "",
        odds_field: str | None = None,
        odds: Odds | None = None,
        errata: tuple[str, ...] | list[str] = (),
        lookup_allowed: bool = True,
        float_odds: bool = False,
    ) -> Callable[[Resolve], Resolve]:
        """Decorator: register ``fn(game, args, dice) -> Answer`` as table ``name``."""

        def register_fn(fn: Resolve) -> Resolve:
            self.tables[name] = RefTable(
                name=name,
                summary=summary or (fn.__doc__ or "").strip().splitlines()[0],
                rules=tuple(rules),
                inputs=tuple(inputs),
                results=tuple(results),
                resolve=fn,
                odds_field=odds_field,
                odds=odds,
                errata=tuple(errata),
                lookup_allowed=lookup_allowed,
                float_odds=float_odds,
            )
            return fn

        return register_fn

    def check(self, rule: str, summary: str, *,
              max_examples: int | None = None) -> Callable[[Factory], Factory]:
        """Decorator: register ``factory(game)`` as the invariant of ``rule`` (``summary``
        says what holds; ``max_examples`` caps a slow property's quick budget)."""

        def register_fn(factory: Factory) -> Factory:
            self.checks.append(Check(rule, summary, factory, factory.__name__, max_examples))
            return factory

        return register_fn

    def kit_part(self, part: str, *, replaces: bool = False) -> Callable[[Builder], Builder]:
        """Decorator: register ``fn(game, options) -> list[KitPage]`` as the kit's ``part``."""

        def register_fn(fn: Builder) -> Builder:
            self.kit_parts.append(KitPart(part, fn, replaces))
            return fn

        return register_fn

    def session(self, rules: type) -> type:
        """Class decorator: ``rules`` (an ``engine.referee.Referee``) plays the game in a
        session; one class a game."""
        if self.session_rules is not None and self.session_rules is not rules:
            raise TypeError(f"session rules registered twice: {self.session_rules.__name__} "
                            f"and {rules.__name__}")
        self.session_rules = rules
        return rules


#: the names of the registration this contract replaced -> what a folder writes instead
OLD_WAYS = {
    "register": "@CODE.table",
    "GameEngine": "@CODE.table",
}


def old_way(module: str, name: str, instead: str) -> BadInput:
    """The one line for a game folder that imports a registration this contract replaced."""
    return BadInput(f"{module}.{name} is gone: register with {instead} on the CODE = GameCode() "
                    f"of the folder's __init__.py (warpress docs engine)")


def __getattr__(name: str) -> Any:
    if name in OLD_WAYS:
        raise old_way(__name__, name, OLD_WAYS[name])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# --- data tables served as they are ------------------------------------------------


def data_ref_table(table: Table) -> RefTable:
    """A YAML die-range table as a referee table: its keys are the inputs."""
    inputs = tuple(_key_input(table, key) for key in table.keys)

    def resolve(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
        values = {}
        for item in inputs:
            values[item.name] = (dice.roll(item.rolled, item.name) if item.is_roll
                                 else args[item.name])
        row, result = lookup_row(table, **values)
        rules = row.rule or table.rule
        return Answer(result=result, rules=tuple(rules), errata=tuple(table.errata + row.errata))

    odds_field = table.results[0] if len(table.results) == 1 else None
    return RefTable(
        name=table.id,
        summary=table.label,
        rules=table.rule,
        inputs=inputs,
        results=table.results,
        resolve=resolve,
        odds_field=odds_field,
        errata=table.errata,
    )


def _key_input(table: Table, key: TableKey) -> Input:
    if key.kind == "roll" and table.dice and table.dice != "none":
        try:
            shown = faces(table.dice)
        except BadInput:
            shown = ()
        plain = (bool(shown) and key.min is not None and key.max is not None
                 and key.min >= shown[0] and key.max <= shown[-1])
        if plain:
            return Input(key.id, "roll", help=key.name or "", die=table.dice)
        # a modified roll (die plus modifiers) is typed as the number it came to
        return _int_input(table, key)
    if key.kind == "enum":
        bools = {str(v).lower() for v in key.values} <= {"true", "false", "yes", "no"}
        if bools:
            return Input(key.id, "bool", help=key.name or "")
        return Input(key.id, "enum", help=key.name or "", choices=tuple(map(str, key.values)))
    return _int_input(table, key)


def _int_input(table: Table, key: TableKey) -> Input:
    """An integer key's input: its ``min``/``max``, except that a row open at an end
    (``"7+"``, ``"9-"``) takes every value beyond it (docs/data-format.md, tables)."""
    ends = [cond for _row, conds in compiled(table)
            if isinstance(cond := conds.get(key.id), Interval)]
    low = None if any(end.lo is None for end in ends) else key.min
    high = None if any(end.hi is None for end in ends) else key.max
    return Input(key.id, "int", help=key.name or "", min=low, max=high)

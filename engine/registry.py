"""The game registry: which procedures serve a game, and its tables.

A game folder's ``rules`` package (``games/<game>/rules/``) or module (``rules.py``) creates
one ``GameEngine`` with ``ENGINE = register("<game>")`` and declares its referee tables with
the ``@ENGINE.table(...)`` decorator. ``engine_for(game)`` imports the ``rules`` of the
game's own folder and takes its ``ENGINE`` (``engine.gamecode``: bound to the folder, never
to the id; no ``if game == ...`` anywhere). Every die-range table of the game's YAML is also
served as a plain lookup, so a designer's data-only game answers ``warpress lookup`` too.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from .catalogue import builtin_games, entry_point_games
from .dice import Dice, faces, range_text
from .errors import BadInput, Untrusted
from .gamecode import import_part, missing
from .inputs import choices, did_you_mean, quote
from .model import Game, Table
from .records import Frozen, frozen_record
from .tables import Interval, compiled, lookup_row
from .trust import tell_not_run

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
                return f"{self.die} result {range_text(self.die)}"
            return f"comma-separated {self.die} results ({range_text(self.die)} each)"
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


@dataclass
class GameEngine:
    """The procedures of one game, registered by its module."""

    game_id: str
    tables: dict[str, RefTable] = field(default_factory=dict)

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


def register(game_id: str) -> GameEngine:
    """A new engine for ``game_id``; a game's ``rules`` keeps it as ``ENGINE`` (each folder
    its own, even when two folders share an id)."""
    return GameEngine(game_id)


def engine_for(game: Game) -> GameEngine:
    """The ``ENGINE`` of the ``rules`` in ``game``'s folder, or an empty one without rules;
    GameCodeError (one line) when they cannot be imported or define no engine."""
    module = import_part(game, "rules")
    if module is None:
        return GameEngine(game.id)
    engine = getattr(module, "ENGINE", None)
    if not isinstance(engine, GameEngine):
        raise missing(game, "rules", "ENGINE", "ENGINE = register(game id), from "
                      "warpress.engine.registry")
    return engine


def ref_tables(game: Game) -> dict[str, RefTable]:
    """Every table a referee can query: the engine's, then the data's die-range tables. For a
    folder that is not trusted (``engine/trust.py``) the data's tables only, with a note."""
    try:
        own = engine_for(game).tables
    except Untrusted:
        tell_not_run(game, "listed the data's tables only")
        own = {}
    return dict(sorted({**data_tables(game), **own}.items()))


def data_tables(game: Game) -> dict[str, RefTable]:
    """The tables the data gives without any Python: CRTs and their combat query (the data
    forms), then every die-range table, by name."""
    from .combat import form_tables  # CRTs and the combat query (the data forms)

    tables = dict(form_tables(game))
    for table in game.tables:
        tables.setdefault(table.id, data_ref_table(table))
    return tables


def ref_table(game: Game, name: str) -> RefTable:
    """The table ``name`` of ``ref_tables``: an engine's own table is found without the data
    forms (their module is 9 ms of a command's start-up). A data table of a folder that is
    not trusted is answered from the data, with a note; another is Untrusted."""
    try:
        own = engine_for(game).tables
    except Untrusted:
        if name not in data_tables(game):
            raise
        tell_not_run(game, f"answered {name!r} from the data")
        return data_tables(game)[name]
    if name in own:
        return own[name]
    tables = ref_tables(game)
    if name not in tables:
        see = f"warpress tables {_named(game)}"
        hint = did_you_mean(name, tables)
        if hint:
            raise BadInput(f"unknown table {quote(name)} for {game.id}{hint} ({see} lists "
                           f"them all)")
        raise BadInput(f"unknown table {quote(name)} for {game.id} (tables: "
                       f"{choices(tables, see=see)})")
    return tables[name]


def _named(game: Game) -> str:
    """How a command names ``game``: its id when shipped or installed, else its folder."""
    if game.id in builtin_games() or game.id in entry_point_games():
        return game.id
    return str(game.path)


# --- data tables served as they are ------------------------------------------------


def data_ref_table(table: Table) -> RefTable:
    """A YAML die-range table as a referee table: its keys are the inputs."""
    inputs = tuple(_key_input(table, key) for key in table.keys)

    def resolve(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
        values = {}
        for item in inputs:
            values[item.name] = dice.roll(item.die, item.name) if item.is_roll else args[item.name]
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


def _key_input(table: Table, key) -> Input:
    if key.kind == "roll" and table.dice and table.dice != "none":
        try:
            shown = faces(table.dice)
        except BadInput:
            shown = ()
        bounded = key.min is not None and key.max is not None
        plain = bool(shown) and bounded and key.min >= shown[0] and key.max <= shown[-1]
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


def _int_input(table: Table, key) -> Input:
    """An integer key's input: its ``min``/``max``, except that a row open at an end
    (``"7+"``, ``"9-"``) takes every value beyond it (docs/data-format.md, tables)."""
    ends = [conds[key.id] for _row, conds in compiled(table)
            if isinstance(conds.get(key.id), Interval)]
    low = None if any(end.lo is None for end in ends) else key.min
    high = None if any(end.hi is None for end in ends) else key.max
    return Input(key.id, "int", help=key.name or "", min=low, max=high)

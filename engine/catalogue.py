"""A game's referee tables, as ``tables``, ``lookup``, ``roll`` and ``odds`` serve them: those
its folder's Python registers (``@CODE.table``, ``engine.registry.GameCode``), then the
data's (the data forms' CRTs and combat query, every die-range table of its YAML)."""

from __future__ import annotations

from .errors import BadInput, Untrusted
from .gamecode import game_code
from .inputs import choices, did_you_mean, quote
from .loader import builtin_games, entry_point_games
from .model import Game
from .registry import RefTable, data_ref_table
from .trust import tell_not_run


def own_tables(game: Game) -> dict[str, RefTable]:
    """The tables the ``rules`` of ``game``'s folder register (none without rules);
    GameCodeError (one line) when they cannot be imported."""
    return game_code(game, "rules").tables


def ref_tables(game: Game) -> dict[str, RefTable]:
    """Every table a referee can query: the folder's own, then the data's die-range tables. For
    a folder that is not trusted (``engine/trust.py``) the data's tables only, with a note."""
    try:
        own = own_tables(game)
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
    """The table ``name`` of ``ref_tables``: a folder's own table is found without the data
    forms (their module is 9 ms of a command's start-up). A data table of a folder that is
    not trusted is answered from the data, with a note; another is Untrusted."""
    try:
        own = own_tables(game)
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

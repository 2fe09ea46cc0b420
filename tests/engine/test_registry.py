"""engine/registry.py: a die-range table served as a plain lookup takes the inputs its rows
promise; an open-ended row ("3+", "2-") takes every value beyond its end (docs/data-format.md,
tables), while a bounded end stays a bound."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from warpress.cli import main
from warpress.engine.catalogue import ref_tables
from warpress.engine.errors import BadInput, RuleViolation
from warpress.engine.loader import builtin, builtin_games
from warpress.engine.query import run_lookup
from warpress.engine.registry import Input, RefTable
from warpress.games.nimitz import CODE as NIMITZ

ASSAULT = """  - id: assault
    name: Assault table
    rule: "4.2"
    keys:
      - {id: attack, kind: int, min: 1, max: 6}
    results: [outcome]
    rows:
      - {attack: FIRST, outcome: repulsed}
      - {attack: "3+", outcome: taken}

tracks:
"""


def _with_assault(folder, first: str = '"1-2"'):
    path = folder / "game.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("\ntracks:\n", "\n" + ASSAULT.replace("FIRST", first), 1),
                    encoding="utf-8")
    return str(folder)


@pytest.mark.parametrize("attack, outcome", [("100", "taken"), ("6", "taken"), ("7", "taken"),
                                             ("1", "repulsed")])
def test_an_open_ended_row_takes_values_beyond_the_range(tiny_game, attack, outcome):
    folder = _with_assault(tiny_game)
    result = CliRunner().invoke(main, ["lookup", folder, "assault", f"attack={attack}",
                                       "--json"])
    assert result.exit_code == 0, result.output
    assert f'"outcome": "{outcome}"' in result.output


def test_a_closed_end_still_refuses_values_beyond_it(tiny_game):
    folder = _with_assault(tiny_game)
    result = CliRunner().invoke(main, ["lookup", folder, "assault", "attack=0"])
    assert result.exit_code == 2
    assert "attack='0' is not allowed (integer 1..)" in result.output


def test_a_row_open_below_takes_values_under_the_range(tiny_game):
    folder = _with_assault(tiny_game, '"2-"')
    result = CliRunner().invoke(main, ["lookup", folder, "assault", "attack=-5", "--json"])
    assert result.exit_code == 0, result.output
    assert '"outcome": "repulsed"' in result.output


def test_a_roll_input_states_every_result_its_die_reads():
    from warpress.engine.registry import Input

    assert Input("roll", "roll", die="d10").allowed() == "d10 result 1-10; 0 reads 10"
    assert Input("rolls", "rolls", die="d6").allowed() == "comma-separated d6 results (1-6 each)"


# --- one range per input: what `warpress tables` states is what `lookup` takes -------------

#: a number far past any open end of a stated range
FAR = 10**6


def _plain_value(item, game) -> str | None:
    """A value the input takes whatever else is given (None: leave it out if it may be)."""
    if item.kind == "enum":
        return item.choices[0]
    if item.kind == "bool":
        return "no"
    if item.kind == "int":
        low, _high = _stated(item, game)
        return str(low if low is not None else 0)
    if item.is_roll:
        return "1"
    return None


def _stated(item, game) -> tuple[int | None, int | None]:
    """The range ``warpress tables`` states for an int input (None: open at that end)."""
    span = item.range_in(game)
    return (span[0], span[1]) if span else (item.min, item.max)


def _range_refusals(name: str) -> list[str]:
    """Every int input of every table of game ``name`` whose stated ends (or a number far
    past an open end) the table refuses as out of range for that very input."""
    game = builtin(name)
    found = []
    for table_name, table in ref_tables(game).items():
        for item in (i for i in table.inputs if i.kind == "int"):
            low, high = _stated(item, game)
            for value in (high if high is not None else FAR, low if low is not None else -FAR):
                pairs = [f"{item.name}={value}"]
                for other in table.inputs:
                    plain = _plain_value(other, game)
                    if other is not item and plain is not None and (other.required
                                                                     or other.is_roll):
                        pairs.append(f"{other.name}={plain}")
                try:
                    run_lookup(game, table, pairs)
                except (BadInput, RuleViolation) as exc:
                    if f"input {item.name}={value} is not allowed" in str(exc) or \
                            f"input {item.name}='{value}' is not allowed" in str(exc):
                        found.append(f"{table_name} {item.name}={value} (stated "
                                     f"{item.allowed(game)}): {exc}")
    return found


@pytest.mark.parametrize("name", sorted(builtin_games()))
def test_every_stated_range_is_the_range_lookup_takes(name):
    """An int input's range is stated once (Input min/max or bounds, e.g. a data table's key
    by registry.key_bounds): at its ends, and far past an open end, no table refuses the
    value as out of range."""
    assert _range_refusals(name) == []


def test_a_range_stated_open_but_refused_is_found(monkeypatch):
    """The check above fails on a table that states an open range and refuses a value."""

    table = ref_tables(builtin("nimitz"))["battle-points"]
    opened = Input("supply", "int", "open", min=0)

    def refuse(game, args, dice):
        if args["supply"] > 40:
            raise BadInput(f"input supply={args['supply']} is not allowed (integer 0..40)")
        return table.resolve(game, args, dice)

    monkeypatch.setitem(NIMITZ.tables, "battle-points",
                        RefTable(name=table.name, summary=table.summary, rules=table.rules,
                                 inputs=(opened,), results=table.results, resolve=refuse))
    assert any("battle-points supply=1000000" in f for f in _range_refusals("nimitz"))

"""engine/registry.py: a die-range table served as a plain lookup takes the inputs its rows
promise; an open-ended row ("3+", "2-") takes every value beyond its end (docs/data-format.md,
tables), while a bounded end stays a bound."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from warpress.cli import main

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

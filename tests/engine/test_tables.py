"""engine/tables.py: ``cover`` indexes a table's rows by the points they match, so the checks
and the printed grids work in the points the rows cover, never points times rows; it
agrees with ``matching_rows`` at every point."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from warpress.engine import tables
from warpress.engine.model import Table, TableKey, TableRow
from warpress.engine.tables import cover, matching_rows

ROLL = TableKey(id="roll", kind="roll", min=1, max=6)
SIDE = TableKey(id="side", kind="enum", values=("red", "blue", "yes"))


def _table(rows: list[dict]) -> Table:
    return Table(id="t", keys=(ROLL, SIDE), results=("r",),
                 rows=tuple(TableRow(extra={**row, "r": i}) for i, row in enumerate(rows)))


CONDITIONS = st.fixed_dictionaries({}, optional={
    "roll": st.one_of(st.integers(0, 7), st.sampled_from(["1-3", "4+", "2-", "3-5", "9+"]),
                      st.tuples(st.one_of(st.none(), st.integers(0, 7)),
                                st.one_of(st.none(), st.integers(0, 7))).filter(
                          lambda t: None in t or t[0] <= t[1]).map(list)),
    "side": st.one_of(st.sampled_from(["red", "blue", "yes", "true"]),
                      st.lists(st.sampled_from(["red", "blue", "yes"]), min_size=1,
                               max_size=3)),
})


@settings(max_examples=200, deadline=None)
@given(st.lists(CONDITIONS, max_size=8), st.booleans())
def test_cover_agrees_with_matching_rows_at_every_point(rows, fix_side):
    table = _table(rows)
    domains = {"roll": list(range(1, 7)), "side": ["red", "blue", "yes"]}
    fixed = {"side": "blue"} if fix_side else None
    if fixed:
        domains = {"roll": domains["roll"]}
    found = cover(table, domains, fixed, most=10_000)
    compiled = [row for row, _conds in tables.compiled(table)]
    for flat in range(len(found.count)):
        point = found.values(flat)
        assert found.flat(point) == flat
        matched = matching_rows(table, {**point, **(fixed or {})})
        assert found.count[flat] == min(len(matched), 2)
        assert (compiled[found.first[flat]] if found.first[flat] >= 0 else None) == (
            matched[0] if matched else None)


def test_cover_gives_up_past_its_work_bound():
    rows = [{} for _ in range(10)]  # every row matches all 18 points: 180 pairs
    assert cover(_table(rows), {"roll": list(range(1, 7)), "side": ["red", "blue", "yes"]},
                 most=179) is None
    assert cover(_table(rows), {"roll": list(range(1, 7)), "side": ["red", "blue", "yes"]},
                 most=180) is not None


def test_coverage_of_a_long_table_matches_no_row_against_every_point(corps_game, monkeypatch):
    """1,700 rows over 1,700 values: the check used to match every row at every point
    (2.9 million calls); now only the rows of an overlap are matched, for its message."""
    from warpress.engine import structure
    from warpress.verify import data

    body = "".join(f"      - {{roll: {i}, hits: 1}}\n" for i in range(1, 1701))
    body += "      - {roll: 5, hits: 2}\n"  # one overlap
    (corps_game / "big.yaml").write_text(
        "tables:\n  - id: big\n    rule: '1'\n    dice: none\n    keys:\n"
        "      - {id: roll, kind: int, min: 1, max: 1700}\n    results: [hits]\n"
        f"    rows:\n{body}", encoding="utf-8")
    calls = []
    counted = structure.matches

    def counting(*args):
        calls.append(1)
        return counted(*args)

    monkeypatch.setattr(structure, "matches", counting)
    problems = [str(p) for p in data.check_folder(str(corps_game)).problems]
    assert any("tables[big].rows[1700]: overlap: rows[4] and rows[1700] all match roll=5"
               in p for p in problems), problems
    assert len(calls) <= 1701


@pytest.mark.parametrize("columns", [37, 70])
def test_a_crt_too_wide_for_any_page_is_refused_before_its_cells_are_filled(
        corps_game, monkeypatch, columns):
    from data_edits import edit
    from warpress.components import aids
    from warpress.components.kit import kit_pages, parse_options
    from warpress.engine.errors import BadInput
    from warpress.engine.loader import load_game

    heads = ", ".join(f'"{i + 1}-1"' for i in range(columns))
    edit(corps_game, 'columns: ["1-1", "2-1", "3-1", "4-1", "5-1", "6-1"]',
         f"columns: [{heads}]", "combat.yaml")
    text = (corps_game / "combat.yaml").read_text(encoding="utf-8")
    for roll in range(1, 7):
        start = text.index(f"        {roll}: [")
        end = text.index("]", start) + 1
        cells = ", ".join(("DR", "AR", "EX")[(roll + c) % 3] for c in range(columns))
        text = text[:start] + f"        {roll}: [{cells}]" + text[end:]
    (corps_game / "combat.yaml").write_text(text, encoding="utf-8")
    game = load_game(str(corps_game))
    monkeypatch.setattr(aids, "cover", lambda *a, **k: pytest.fail("cells filled"))
    with pytest.raises(BadInput, match=f"table 'crt': {columns} columns: a printed combat "
                                       f"results table holds at most 36"):
        kit_pages(game, parse_options("a3", "pdf", "long", "0,0", "sheets"))

"""components/formulas.py: a table that only spells out arithmetic prints as its rule, which
is checked against the engine's own lookups (a changed row prints as rows again)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from warpress.components import aids
from warpress.components.formulas import formula_lines
from warpress.engine.loader import builtin


def lines_of(table, game):
    names = aids.record_names(game)
    return formula_lines(table, lambda k: aids.key_name(table, k),
                         lambda r: aids.result_name(table, r),
                         lambda k, v: aids.value_text(table, v, names, k))


@pytest.mark.parametrize(("game_id", "table_id", "expected"), [
    ("nimitz", "battle-points", ["BPP 戦闘計画ポイント = 3 + 3 × Supply points spent "
                                 "補給ポイント"]),
    ("nimitz", "repair-cost", ["Supply points 補給ポイント = half of the unit cost コスト, "
                               "rounded down, at least 1"]),
    ("nimitz", "attack", ["Hits ヒット: 2 when the die (d10) is at or under the superior value "
                          "優勢, else 1 when it is at or under the attack value 通常, else 0"]),
    ("midway", "surface-battle", ["Hits on the US fleet = Japanese die 日本軍のダイス − 2, "
                                  "at least 0", "Hits on the Japanese fleet = US die 米軍のダイス "
                                  "− 4, at least 0"]),
    ("nightfighter", "combat", ["Hits ヒット = Two dice 2個のダイス − 9, at least 0, at most 4"]),
    ("nightfighter", "flash", ["Turns dazzled 眩惑 = Die ダイス"]),
    ("nightfighter", "schrage-musik", ["Fitted: on a roll of 1–3 (d6)"]),
    ("axis-allies", "aa-fire", ["Aircraft destroyed: on a roll of 1 (d6)"]),
    ("axis-allies", "combat-hit", ["Hit ヒット: yes when the die (d6) is at or under the attack "
                                   "or defense value 攻撃力・防御力"]),
    ("axis-allies", "placement-limit", ["There at the start: Unlimited", "Bought during the "
                                        "game: Units placed = Territory income value 収入"]),
])
def test_a_table_of_arithmetic_prints_as_its_rule(game_id, table_id, expected):
    game = builtin(game_id)
    assert lines_of(game.table(table_id), game) == expected


@pytest.mark.parametrize(("game_id", "table_id"), [
    ("nimitz", "battle-points"), ("nimitz", "repair-cost"), ("nimitz", "attack")])
def test_one_changed_row_prints_the_table_as_rows_again(game_id, table_id):
    game = builtin(game_id)
    table = game.table(table_id)
    row = table.rows[len(table.rows) // 2]
    result = table.results[0]
    changed = replace(row, extra={**row.extra, result: table.result(row)[result] + 1})
    rows = tuple(changed if r is row else r for r in table.rows)
    assert lines_of(replace(table, rows=rows), game) is None


def test_tables_that_are_no_arithmetic_keep_their_rows():
    game = builtin("nimitz")
    for table_id in ("japanese-orders", "battle-rounds", "japanese-air"):
        assert lines_of(game.table(table_id), game) is None, table_id


def test_the_play_aid_prints_the_rule_in_a_box_instead_of_the_rows():
    game = builtin("nimitz")
    block = aids.table_block(game.table("battle-points"), 190, game)
    texts = [t.text for t in block.items if hasattr(t, "text")] + [
        t.text for g in block.items if hasattr(g, "items") for t in g.items if hasattr(t, "text")]
    assert any("= 3 + 3 ×" in t for t in texts)
    assert not any(t == "40" for t in texts)  # no row for 40 supply points

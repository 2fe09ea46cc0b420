"""engine/text.py: the terminal's width, rule numbers as a list shows them."""

from __future__ import annotations

import pytest
from warpress.engine.text import plain_steps, rules_text, terminal_width


@pytest.mark.parametrize("columns,width", [("100", 100), ("20", 40), ("80", 80)])
def test_the_width_comes_from_columns(monkeypatch, columns, width):
    monkeypatch.setenv("COLUMNS", columns)
    assert terminal_width() == width


def test_a_step_number_of_the_axis_allies_text_loses_the_bracket_it_never_opened():
    assert plain_steps("land 4)") == "land 4"
    assert plain_steps("land 1)-7)") == "land 1-7"
    assert plain_steps("9.6(3)") == "9.6(3)"
    assert rules_text(["③ combat", "sea 2)-3)", "L65-66"]) == "③ combat, sea 2-3, L65-66"


@pytest.mark.parametrize("text,shown", [
    ("land 4), and sea 5) by 'same as land 4)': each",
     "land 4, and sea 5 by 'same as land 4': each"),
    ("(before the 3)-5) loop)", "(before the 3-5 loop)"),
    ("fires only in step 2) (one die, hit on 1), not in step 4)",
     "fires only in step 2 (one die, hit on 1), not in step 4"),
    ("(see rule 4)", "(see rule 4)"),
    ("rule 9.4(2) and (3)", "rule 9.4(2) and (3)"),
])
def test_prose_cites_step_numbers_without_the_bracket_they_never_opened(text, shown):
    assert plain_steps(text) == shown

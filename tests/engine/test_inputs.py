"""The shared integer parser and path-name check (engine/inputs.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from warpress.engine.errors import BadInput
from warpress.engine.inputs import (
    MAX_DIGITS,
    check_path_name,
    parse_int,
    quote,
    read_int,
)


@pytest.mark.parametrize("text,value", [
    ("0", 0), ("6", 6), (" 12 ", 12), ("+3", 3), ("-4", -4), (7, 7), ("9" * MAX_DIGITS,
                                                                     int("9" * MAX_DIGITS)),
])
def test_read_int_takes_ascii_digits(text, value):
    assert read_int(text) == value


@pytest.mark.parametrize("text", [
    "²", "٣", "３", "1_000", "", " ", "+", "-", "1.0", "0x10", "1e3", "9" * (MAX_DIGITS + 1),
    "9" * 4301, True, None, 3.0, 10 ** MAX_DIGITS,
])
def test_read_int_refuses_everything_else(text):
    assert read_int(text) is None


@given(st.text(max_size=30))
def test_read_int_agrees_with_an_ascii_grammar(text):
    body = text.strip()
    digits = body[1:] if body[:1] in "+-" else body
    ok = 0 < len(digits) <= MAX_DIGITS and all(c in "0123456789" for c in digits)
    assert read_int(text) == (int(body) if ok else None)


def test_parse_int_message_quotes_the_input_and_says_what_is_allowed():
    with pytest.raises(BadInput, match=r"^--count '²' is not allowed \(a whole number from 1 "
                                       r"to 6\)$"):
        parse_int("²", "--count", 1, 6)
    with pytest.raises(BadInput, match=r"\(5000 characters\)"):
        parse_int("7" * 5000, "--count")
    assert parse_int(" 6", "--count", 1, 6) == 6


def test_quote_cuts_long_inputs():
    assert quote("abc") == "'abc'"
    assert quote("x" * 100).endswith("... (100 characters)") and len(quote("x" * 100)) < 70


@pytest.mark.parametrize("name", ["x" * 256, "a/" + "é" * 128, "ok\0no"])
def test_check_path_name_refuses_what_no_file_system_takes(name):
    with pytest.raises(BadInput):
        check_path_name(name, "--session")


def test_check_path_name_takes_a_long_path_of_short_names():
    name = "/".join(["d" * 255] * 3)
    assert check_path_name(name, "--session") == name

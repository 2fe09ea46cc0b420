"""output.py: terminal widths (Japanese counts 2), wrapping with a hanging indent; the text
views of the commands."""

from __future__ import annotations

import io
from collections import Counter

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from warpress import output
from warpress.cli import main
from warpress.engine.catalogue import ref_tables
from warpress.engine.decisions import ActionSpec, Arg, Opt
from warpress.engine.loader import load_game
from warpress.output import (
    acted_lines,
    action_lines,
    duration_text,
    errata_lines,
    fit,
    game_lines,
    head_line,
    printable,
    say_json,
    single_line,
    summary_lines,
    table_lines,
    text_width,
    verify_summary,
    view_lines,
    wrap_line,
)


def test_japanese_characters_take_two_columns():
    assert text_width("Midway") == 6
    assert text_width("ミッドウェイ海戦") == 16
    assert text_width("対空砲 (AA)") == 11
    assert text_width("e\u0301") == 1          # a combining accent takes no column


def test_a_short_line_is_left_alone():
    assert wrap_line("  201: unit bf110g-4, hex 0612", 80) == ["  201: unit bf110g-4, hex 0612"]


def test_a_long_line_wraps_at_spaces_under_a_hanging_indent():
    line = "  201: unit bf110g-4, hex 0612, facing N (0), status on-map, hits 0, damage 2"
    assert wrap_line(line, 40) == ["  201: unit bf110g-4, hex 0612, facing",
                                   "      N (0), status on-map, hits 0,",
                                   "      damage 2"]


def test_a_bracketed_number_stays_with_the_word_it_annotates():
    line = ("turn 4 bomber-movement: Marker update: ai-contact of 202 now at 1510 facing S (3)"
            "  [7.0]")
    assert wrap_line(line, 80) == [
        "turn 4 bomber-movement: Marker update: ai-contact of 202 now at 1510 facing",
        "    S (3)  [7.0]"]
    assert wrap_line("the fighter now faces NW (5), and moves on", 28) == [
        "the fighter now faces", "    NW (5), and moves on"]


def test_japanese_text_wraps_by_columns_not_characters():
    line = "carrier-damage  [9.4(2)]  空母に対する損害の適用空母に対する損害の適用"
    out = wrap_line(line, 40)
    assert all(text_width(x) <= 40 for x in out), out
    assert len(out) == 2 and out[1].startswith("    ")
    assert "".join(x.strip() for x in out).replace(" ", "") == line.replace(" ", "")


def test_a_word_longer_than_the_line_is_cut_and_no_piece_starts_with_closing_punctuation():
    out = wrap_line("x " + "あ" * 17 + "。" + "い" * 20, 40)
    assert all(text_width(x) <= 40 for x in out), out
    assert not any(x.strip().startswith("。") for x in out)


@given(st.lists(st.one_of(st.text(alphabet="ab/,()", max_size=90),
                          st.text(alphabet="ab漢字。()「", max_size=40)), max_size=8),
       st.integers(min_value=40, max_value=120), st.integers(0, 12))
def test_fit_never_exceeds_the_width_and_keeps_every_character(parts, width, indent):
    text = " " * indent + " ".join(parts)
    out = fit(text, width)
    assert all(text_width(line) <= width for line in out.split("\n"))
    assert out.replace("\n", "").replace(" ", "") == text.replace(" ", "")


def test_a_word_just_short_of_the_width_stays_whole_on_the_first_line():
    assert wrap_line("x" * 38 + " tail", 40) == ["x" * 38, "    tail"]


def test_an_indented_word_longer_than_the_line_is_cut_to_the_width():
    out = wrap_line("    type=" + "|".join(["infantry"] * 12), 40)
    assert all(text_width(x) <= 40 for x in out) and out[0].startswith("    type="), out


def test_a_long_path_is_cut_after_a_slash():
    path = "/tmp/" + "/".join(f"folder{i:02d}" for i in range(12)) + "/midway/"
    out = wrap_line(f"midway: 7 pages -> {path}", 40)
    assert all(text_width(x) <= 40 for x in out), out
    assert len(out) > 2 and all(x.endswith("/") for x in out[:-1]), out
    assert "".join(x.lstrip() for x in out) == f"midway: 7 pages -> {path}"


#: What a game's text could hold to drive a terminal: clear the screen and home the cursor,
#: set the window title (OSC 0), write the clipboard (OSC 52), a C1 CSI, bidi overrides.
DRIVING = ("\x1b[2J\x1b[H", "\x1b]0;pwned\x07", "\x1b]52;c;ZWNobyBoaQ==\x07", "\x9b2J",
           "\u202eevil\u202c", "\u2066x\u2069", "\u200f", "\r", "\x7f")


@pytest.mark.parametrize("text", DRIVING)
def test_controls_are_shown_as_escapes(text):
    shown = printable(f"name {text} end")
    assert shown.isprintable() and shown.startswith("name \\") and shown.endswith(" end")
    assert fit(f"a\n{text}") == f"a\n{printable(text)}"


def test_newlines_are_kept_by_printable_and_escaped_by_single_line():
    assert printable("a\nb") == "a\nb"
    assert single_line("a\nb\x1b") == "a\\nb\\x1b"
    assert printable("赤城 Akagi (3)") == "赤城 Akagi (3)"


@given(st.text())
def test_printable_text_holds_no_control_but_newlines(text):
    import unicodedata

    bidi = set("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
    assert all(ch == "\n" or unicodedata.category(ch) not in ("Cc", "Zl", "Zp")
               and ch not in bidi for ch in printable(text))


@pytest.mark.parametrize("text", DRIVING)
def test_json_escapes_them_and_reads_back_the_same(capsys, text):
    import json

    say_json({"name": text, "id": "x"})
    out = capsys.readouterr().out
    assert out.isascii() and json.loads(out) == {"name": text, "id": "x"}


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("terminal", [False, True])
def test_progress_and_status_lines_are_drawn_only_on_a_terminal(monkeypatch, terminal):
    stream = _Terminal() if terminal else io.StringIO()
    monkeypatch.setattr(output.sys, "stderr", stream)
    with output.progress(3, "building") as bar:
        for _ in range(3):
            bar.update(1)
    output.working("  1/2 a check")
    output.working("", done=True)
    drawn = stream.getvalue()
    assert ("building" in drawn and "a check" in drawn) is terminal
    assert (drawn == "") is not terminal


def test_a_piped_build_prints_nothing_on_stderr(tiny_game, tmp_path):
    result = CliRunner().invoke(main, ["build", str(tiny_game), "--out", str(tmp_path / "out"),
                                       "--format", "svg"])
    assert result.exit_code == 0, result.output
    assert result.stderr == "" and "built 1 kit(s)" in result.stdout


def test_a_finished_games_view_names_no_side_that_acts():
    going = {"game": "g", "title": "T", "turn": 3, "phase": "move", "acting": "north",
             "over": False, "due": None, "awaiting": ["move"]}
    assert view_lines(going)[0] == "g: T, turn 3, phase move (north acts)"
    over = {**going, "phase": "Game over", "over": True}
    assert view_lines(over)[0] == "g: T, turn 3, phase Game over"


def test_a_summary_names_its_figures_in_words():
    lines = summary_lines({"result": "dismissal", "winner": "japan",
                           "objectives_held_by_turn": [5, 4, 3]})
    assert lines == ["game over: dismissal for japan", "  objectives held by turn: 5, 4, 3"]


# --- the text views of the commands ----------------------------------------------------


def test_a_games_row_names_its_counts_in_the_singular_for_one():
    row = {"id": "tiny", "kind": "hex", "name": "Tiny", "components": {"maps": 1, "units": 4,
                                                                         "cards": 0},
           "values": 20, "sourced_pct": 75.0, "assumed_pct": 25.0, "errata": 2}
    assert game_lines(row) == ["tiny          hex             Tiny",
                               "              1 map, 4 units",
                               "              20 values: 75.0% sourced, 25.0% assumed; 2 errata"]


def test_the_verify_summary_counts_pass_fail_and_the_games_with_good_data():
    tally = Counter({"PASS": 20, "FAIL": 1, "data OK": 1, "data problems": 1})
    assert verify_summary(tally, False, 4.94) == ("verify: 20 PASS, 1 FAIL; data OK in 1 of 2 "
                                                  "game(s); 4.9 s")
    assert verify_summary(tally, True, 0.25) == ("verify: data OK in 1 of 2 game(s), "
                                                 "invariants not run (--data); 0.2 s")


def test_each_erratum_gives_its_readings_ruling_and_why(tiny_game):
    game = load_game(str(tiny_game))
    lines = errata_lines(game)
    assert len([line for line in lines if line.startswith("    ruling:  ")]) == len(game.errata)
    assert lines[0].startswith(f"{game.errata[0].id} [")


def test_a_table_lists_its_inputs_and_results(tiny_game):
    game = load_game(str(tiny_game))
    table = ref_tables(game)["hit"]
    assert table_lines(game, "hit", table) == [
        "hit  [4.1]  Hit table", "    roll=d6 result 1-6", "    armored=yes|no",
        "    -> hits"]


def test_a_duration_is_in_seconds_minutes_or_hours():
    assert [duration_text(s) for s in (40, 720, 9000)] == ["40 s", "12 min", "2.5 h"]


def test_a_log_head_is_its_first_sixteen_hex_digits():
    assert head_line(14, "1a2b3c4d5e6f7081" + "f" * 48) == "log: 14 lines, head 1a2b3c4d5e6f7081"


def test_an_action_is_typed_with_its_arguments_and_options():
    spec = ActionSpec("move", "Move a unit.", args=(Arg("unit"), Arg("path", required=False)),
                      options=(Opt("--dive", "dive", "Dive."),))
    assert action_lines(spec) == ("move UNIT [PATH] [--dive]", "    Move a unit.")


def test_an_action_that_led_nowhere_says_done_and_what_is_due():
    view = {"due": {"kind": "move", "side": "red"}, "awaiting": ["move", "pass"]}
    assert acted_lines("move", [], [], view) == ["move: done", "due: move by red",
                                                 "you may: move, pass"]

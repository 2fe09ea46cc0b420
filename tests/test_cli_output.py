"""Output a person reads: every command's text fits the terminal width (80 columns when not a
terminal), `verify`'s summary line, `roll`'s seed and rounds, rule lists with balanced
brackets, one way of showing a facing, one prefix for refusals and bad input, and
`python -m warpress`."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from warpress.cli import main
from warpress.engine.loader import builtin_games
from warpress.engine.notes import tell
from warpress.output import text_width

#: A sample of every command, each game's tables, errata and lookup/roll/odds among them.
SAMPLE = [
    ("games",),
    ("--help",),
    ("referee", "--help"),
    ("build", "--help"),
    *[("tables", game) for game in builtin_games()],
    *[("errata", game) for game in builtin_games()],
    ("lookup", "midway", "carrier-damage", "damaged=no", "roll=2"),
    ("roll", "midway", "landing", "invasion=4", "garrison=2", "--seed", "3"),
    ("odds", "midway", "landing", "invasion=4", "garrison=2"),
    ("lookup", "midway-cards", "air-combat", "attacker=A", "defender=B"),
    ("roll", "midway-cards", "attack-damage", "card=j-b5n", "--seed", "3"),
    ("odds", "midway-cards", "attack-damage", "card=j-b5n"),
    ("lookup", "nimitz", "attack", "value=3/1", "roll=2"),
    ("roll", "nimitz", "attack", "value=3/1", "--seed", "2"),
    ("odds", "nimitz", "attack", "value=3/1"),
    ("lookup", "nightfighter", "combat", "roll=9", "fp=3"),
    ("roll", "nightfighter", "sighting-roll", "dice=3", "sighting=4", "--seed", "1"),
    ("odds", "nightfighter", "evade"),
    ("lookup", "axis-allies", "combat-hit", "value=3", "roll=2"),
    ("roll", "axis-allies", "battle", "attacker=6 infantry, 3 armor, 2 fighter",
     "defender=8 infantry, 1 antiaircraft", "--seed", "618336450"),
    ("odds", "axis-allies", "battle", "attacker=6 infantry, 3 armor, 1 fighter",
     "defender=8 infantry, 1 antiaircraft"),
    ("referee", "scenarios", "nightfighter"),
    ("verify", "all", "--data"),
]

#: A Nightfighter session's commands, after ``referee new``.
REFEREE = [("status",), ("move", "201", "F,F,L,F"), ("move", "202", "F,F"),
           ("move", "203", "F", "--enter", "1824", "--facing", "NW"),
           ("search", "freya", "0710"), ("sight",), ("end-turn",), ("status",), ("reveal",),
           ("log",), ("replay",)]


def invoke(args, columns: int | None = 80, **kwargs):
    env = {"COLUMNS": None if columns is None else str(columns)}
    return CliRunner().invoke(main, list(args), env=env, **kwargs)


def too_wide(text: str, width: int) -> list[str]:
    return [line for line in text.splitlines() if text_width(line) > width]


@pytest.mark.parametrize("game", builtin_games())
def test_every_erratum_reads_with_balanced_brackets(game):
    """An erratum cites the rule text's step numbers ("land 4)") in its prose; the text
    prints them as the rule lists do ("land 4"), so no bracket closes what never opened."""
    result = invoke(("errata", game), columns=10_000)
    assert result.exit_code == 0, result.output
    for line in result.stdout.splitlines():
        depth = 0
        for ch in line:
            depth += (ch == "(") - (ch == ")")
            assert depth >= 0, line
        assert depth == 0, line


@pytest.mark.parametrize("args", SAMPLE, ids=" ".join)
def test_every_command_fits_80_columns(args):
    result = invoke(args)
    assert result.exit_code == 0, result.output
    assert result.stdout.strip()
    assert too_wide(result.stdout, 80) == []


@pytest.mark.parametrize("args", [("tables", "midway"), ("errata", "nimitz")], ids=" ".join)
def test_the_width_follows_the_terminal(args):
    wide, narrow = invoke(args, columns=200).stdout, invoke(args, columns=50).stdout
    assert too_wide(narrow, 50) == [] and too_wide(wide, 80) != []
    assert "".join(narrow.split()) == "".join(wide.split())   # the same text, only wrapped


def test_a_wrapped_line_continues_under_a_hanging_indent():
    lines = invoke(("errata", "midway"), columns=60).stdout.splitlines()
    for before, line in zip(lines, lines[1:], strict=False):
        if before.startswith("    reading: ") and not line.lstrip().startswith(
                ("reading:", "ruling:", "why:")):
            assert line.startswith("        ") and line[8] != " ", (before, line)
            return
    pytest.fail("no wrapped reading in midway's errata at 60 columns")


def test_the_referee_commands_fit_80_columns(tmp_path):
    where = str(tmp_path / "night")
    out = invoke(("referee", "new", "nightfighter", "--scenario", "kammhuber-line", "--seed",
                  "7", "--session", where))
    assert out.exit_code == 0, out.output
    texts = [out.stdout]
    for args in REFEREE:
        out = invoke(("referee", *args, "--session", where))
        assert out.exit_code == 0, (args, out.output)
        texts.append(out.stdout)
    assert [too_wide(text, 80) for text in texts] == [[]] * len(texts)


@pytest.mark.parametrize("args", [
    ("build", "midway-cards", "--only", "sheets", "--format", "svg"),
    ("export", "midway", "--format", "vassal", "--dpi", "10"),
], ids=" ".join)
def test_build_and_export_fit_80_columns_even_with_a_long_folder(tmp_path, args):
    out_dir = tmp_path.joinpath(*(f"folder{i:02d}" for i in range(10)))
    result = invoke((*args, "--out", str(out_dir)))
    assert result.exit_code == 0, result.output
    assert "1 " in result.stdout.splitlines()[-1] and too_wide(result.stdout, 80) == []


def test_python_m_warpress_runs_and_fits_80_columns_when_not_a_terminal():
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    done = subprocess.run([sys.executable, "-m", "warpress", "errata", "nightfighter"],
                          capture_output=True, text=True, env=env, timeout=120,
                          cwd=Path(__file__).parent)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("E1 [") and too_wide(done.stdout, 80) == []
    usage = subprocess.run([sys.executable, "-m", "warpress", "lookup", "midway"],
                           capture_output=True, text=True, env=env, timeout=120)
    assert usage.returncode == 2
    assert usage.stderr.startswith("warpress: lookup: Missing argument 'TABLE'")
    assert usage.stderr.rstrip().endswith("(see 'warpress lookup --help')")


# --------------------------------------------------------------------------- verify


def test_verify_ends_with_a_summary_of_pass_and_fail_counts_and_seconds():
    out = invoke(("verify", "nimitz"))
    assert out.exit_code == 0, out.output
    lines = out.stdout.splitlines()
    passed = sum(line.startswith("  PASS  ") for line in lines)
    assert passed > 10
    assert re.fullmatch(rf"verify: {passed} PASS, 0 FAIL; data OK in 1 of 1 game\(s\); "
                        r"\d+\.\d s", lines[-1]), lines[-1]


def test_verify_data_only_says_so_in_its_summary():
    last = invoke(("verify", "all", "--data")).stdout.splitlines()[-1]
    assert re.fullmatch(r"verify: data OK in 5 of 5 game\(s\), invariants not run \(--data\); "
                        r"\d+\.\d s", last), last


def test_verify_counts_a_game_with_data_problems(tiny_game):
    data = tiny_game / "game.yaml"
    data.write_text(data.read_text(encoding="utf-8").replace("count: 4", "count: four", 1),
                    encoding="utf-8")
    out = invoke(("verify", str(tiny_game), "--data"))
    assert out.exit_code == 2
    assert out.stdout.splitlines()[-1].startswith("verify: data OK in 0 of 1 game(s)")


# --------------------------------------------------------------------------- roll


def test_roll_labels_the_seed():
    out = invoke(("roll", "midway", "carrier-damage", "damaged=no", "--seed", "618336450"))
    assert out.exit_code == 0, out.output
    assert re.search(r"^  rolled with seed 618336450: roll=[1-6]$", out.stdout, re.M), out.stdout


def test_roll_groups_a_battles_rolls_by_round():
    args = ("roll", "axis-allies", "battle", "attacker=6 infantry, 3 armor, 2 fighter",
            "defender=8 infantry, 1 antiaircraft", "--seed", "618336450")
    data = json.loads(invoke((*args, "--json")).stdout)
    rounds = data["result"]["rounds"]
    steps = [r.get("step") for r in data["rolls"]]
    assert steps[:2] == ["AA fire", "AA fire"] and steps[-1] == f"round {rounds}"
    text = invoke(args, columns=1000).stdout.splitlines()
    start = text.index("  rolled with seed 618336450:")
    shown = text[start + 1:start + 2 + rounds]
    assert [line.split(":")[0].strip() for line in shown] == \
        ["AA fire", *(f"round {n}" for n in range(1, rounds + 1))]
    for n, line in enumerate(shown[1:], start=1):
        attack = [r["value"] for r in data["rolls"]
                  if r.get("step") == f"round {n}" and r["input"] == "attacker_rolls"]
        assert f"attacker_rolls={', '.join(map(str, attack))};" in line


def test_the_round_steps_replay_as_lookup_rolls():
    args = ("axis-allies", "battle", "attacker=3 infantry, 1 armor", "defender=3 infantry")
    data = json.loads(invoke(("roll", *args, "--seed", "5", "--json")).stdout)
    given = {}
    for roll in data["rolls"]:
        given.setdefault(roll["input"], []).append(str(roll["value"]))
    pairs = [f"{name}={','.join(values)}" for name, values in given.items()]
    again = json.loads(invoke(("lookup", *args, *pairs, "--json")).stdout)
    assert again["result"] == data["result"]


# --------------------------------------------------------------------------- rule lists


def _balanced(text: str) -> bool:
    depth = 0
    for ch in text:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth < 0:
            return False
    return depth == 0


@pytest.mark.parametrize("game", builtin_games())
def test_rule_lists_have_balanced_brackets(game):
    tables = invoke(("tables", game), columns=1000).stdout
    listed = re.findall(r"^\S+  \[(.*?)\]  ", tables, re.M)
    errata = re.findall(r"^E\w+ \[(.*?)\] ", invoke(("errata", game), columns=1000).stdout,
                        re.M)
    assert listed and all(map(_balanced, listed + errata)), [x for x in listed + errata
                                                              if not _balanced(x)]


def test_a_battles_rule_tail_is_balanced():
    out = invoke(("lookup", "axis-allies", "battle", "attacker=1 infantry",
                  "defender=1 infantry", "attacker_rolls=1", "defender_rolls=6"))
    assert out.exit_code == 0, out.output
    tail = out.stdout.splitlines()[-1]
    assert tail.startswith("  (rules ③ combat, land 2, land 3, land 4") and _balanced(tail), tail


# --------------------------------------------------------------------------- facing


def test_a_facing_is_shown_as_compass_and_number_everywhere(tmp_path):
    where = str(tmp_path / "night")
    shown = [invoke(("referee", "new", "nightfighter", "--scenario", "kammhuber-line",
                     "--seed", "7", "--session", where)).stdout]
    for args in (("move", "201", "F,F,L,F"), ("status",), ("reveal",)):
        shown.append(invoke(("referee", *args, "--session", where), columns=1000).stdout)
    text = "\n".join(shown)
    facings = re.findall(r"facing (\S+(?: \(\d\))?)", text)
    assert "NW (5)" in facings and "N (0)" in facings and "S (3)" in facings
    assert all(re.fullmatch(r"(N|NE|SE|S|SW|NW) \([0-5]\),?", f) for f in facings), facings


# --------------------------------------------------------------------------- prefixes


def test_a_rule_refusal_and_bad_input_share_the_prefix_and_keep_their_exit_codes(tmp_path):
    where = str(tmp_path / "night")
    invoke(("referee", "new", "nightfighter", "--scenario", "kammhuber-line", "--seed", "7",
            "--session", where))
    refused = invoke(("referee", "search", "freya", "0710", "--session", where))
    bad = invoke(("referee", "move", "999", "F,F", "--session", where))
    lookup = invoke(("lookup", "midway", "carrier-damage", "damaged=maybe", "roll=2"))
    assert (refused.exit_code, bad.exit_code, lookup.exit_code) == (1, 2, 2)
    for result in (refused, bad, lookup):
        assert result.stdout == ""
        assert len(_messages(result.stderr)) == 1, result.stderr   # one message, wrapped
        assert result.stderr.startswith("warpress: "), result.stderr
    assert refused.stderr.rstrip().endswith("(rule 9.0)")


#: A long name a user might type: every refusal quotes its input, so its message is long.
LONG = "a-name-much-longer-than-any-game-table-or-unit-" * 2

#: A refusal of every command (exit 2 unless given), each message longer than 80 columns.
REFUSALS = [
    (("games", LONG), 2),
    (("verify", LONG), 2),
    (("errata", LONG), 2),
    (("schema", LONG), 2),
    (("tables", LONG), 2),
    (("lookup", "midway", "carrier-damage", f"damaged={LONG}", "roll=2"), 2),
    (("roll", "midway", LONG, "--seed", "3"), 2),
    (("odds", "midway", "landing", f"invasion={LONG}", "garrison=2"), 2),
    (("odds", "axis-allies", "battle", "attacker=900 infantry", "defender=900 infantry",
      "--exact"), 2),
    (("build", "midway", "--paper", LONG), 2),
    (("export", "midway", "--format", LONG), 2),
    (("referee", "scenarios", LONG), 2),
]


def _messages(stderr: str) -> list[str]:
    """The messages of a wrapped stderr: a line indented four spaces continues the last."""
    out: list[str] = []
    for line in stderr.splitlines():
        if line.startswith("    ") and out:
            out[-1] += " " + line.strip()
        else:
            out.append(line)
    return out


def _assert_wrapped_like_the_wide_one(args, code, **kwargs):
    wide, narrow = (invoke(args, columns=c, **kwargs) for c in (10_000, 80))
    assert wide.exit_code == narrow.exit_code == code, (wide.output, narrow.output)
    assert "Traceback" not in narrow.output and narrow.stdout == wide.stdout
    assert too_wide(wide.stderr, 80) != []              # the message needs wrapping,
    assert too_wide(narrow.stderr, 80) == [], narrow.stderr    # and is wrapped
    squeezed = ["".join(m.split()) for m in _messages(narrow.stderr)]
    assert squeezed == ["".join(m.split()) for m in wide.stderr.splitlines()], narrow.stderr
    return narrow.stderr.splitlines()


@pytest.mark.parametrize(("args", "code"), REFUSALS, ids=lambda a: " ".join(a)[:40]
                         if isinstance(a, tuple) else str(a))
def test_every_commands_refusal_is_wrapped_to_80_columns_under_its_prefix(args, code):
    lines = _assert_wrapped_like_the_wide_one(args, code)
    assert lines[0].startswith("warpress: ") and len(lines) > 1
    assert all(line.startswith("    ") and line[4] != " " for line in lines[1:]), lines


def test_a_referee_refusal_and_data_problems_are_wrapped_too(tmp_path, tiny_game):
    where = str(tmp_path / "a-session-folder-with-a-long-name" / "night")
    assert invoke(("referee", "new", "nightfighter", "--scenario", "kammhuber-line", "--seed",
                   "7", "--session", where)).exit_code == 0
    lines = _assert_wrapped_like_the_wide_one(
        ("referee", "search", "freya", "0710", "--session", where), 1)
    assert lines[0].startswith("warpress: ")
    data = tiny_game / "game.yaml"
    data.write_text(data.read_text(encoding="utf-8").replace("count: 4", "count: four", 1),
                    encoding="utf-8")
    for args in (("games", str(tiny_game)), ("verify", str(tiny_game), "--data")):
        lines = _assert_wrapped_like_the_wide_one(args, 2)
        assert lines[0].startswith(str(tiny_game)), lines


def test_game_text_cannot_drive_the_terminal(tiny_game):
    """Names and texts of a game folder holding escape sequences (clear the screen and print
    a fake 'data OK', set the window title, write the clipboard) and a bidi override are
    printed as escapes by every command, in text and in JSON."""
    from data_edits import edit

    edit(tiny_game, "name: Tiny test game", 'name: "\\e[2J\\e[Htiny: data OK \\e]0;pwned\\a'
         '\\e]52;c;ZWNobyBoaQ==\\a\\u202eevil"')
    edit(tiny_game, "summary: Capacity given twice", 'summary: "\\e[31mred\\x9b2J"')
    edit(tiny_game, "name: Hit table", 'name: "\\e[1mHit\\u2066"')
    folder = str(tiny_game)
    for args in (("games", folder), ("games", folder, "--json"), ("errata", folder),
                 ("tables", folder), ("tables", folder, "--json"),
                 ("verify", folder, "--data"),
                 ("lookup", folder, "hit", "roll=1", "armored=yes")):
        result = CliRunner().invoke(main, list(args))
        assert result.exit_code == 0, (args, result.output)
        for ch in ("\x1b", "\x07", "\x9b", "\u202e", "\u2066"):
            assert ch not in result.output, (args, result.output)
    shown = CliRunner().invoke(main, ["games", folder]).output
    assert "\\x1b[2J\\x1b[Htiny: data OK \\x1b]0;pwned\\x07" in shown


# --- with --json, a refusal is also a JSON object on stdout -----------------------------------

@pytest.mark.parametrize("args, kind, code, needle", [
    (("lookup", "midway", "carrier-damage", "roll=9"), "bad-input", 2, "roll='9'"),
    (("roll", "midway", "carrier-damage", "--seed", "x"), "bad-input", 2, "'--seed'"),
    (("lookup", "no-such-game", "crt"), "bad-input", 2, "unknown game 'no-such-game'"),
    (("lookup", "midway", "nope"), "bad-input", 2, "unknown table 'nope'"),
    (("lookup", "midway", "landing", "invasion=4", "garrison=2"), "bad-input", 2, "missing"),
])
def test_json_refusals_print_an_error_object_on_stdout(args, kind, code, needle):
    result = CliRunner().invoke(main, [*args, "--json"])
    assert result.exit_code == code
    error = json.loads(result.stdout)["error"]
    assert error["kind"] == kind and error["exit"] == code and needle in error["message"]
    assert result.stderr.startswith("warpress: ") and needle.split("'")[0] in result.stderr
    plain = CliRunner().invoke(main, list(args))  # without --json: stderr only
    assert plain.exit_code == code and plain.stdout == ""


def test_a_json_refusal_by_the_rules_names_its_rule(tmp_path):
    runner = CliRunner()
    session = str(tmp_path / "s")
    assert runner.invoke(main, ["referee", "new", "nightfighter", "--seed", "3",
                                "--session", session]).exit_code == 0
    fighter = json.loads(runner.invoke(main, ["referee", "status", "--session", session,
                                              "--json"]).stdout)["fighters"][0]["id"]
    result = runner.invoke(main, ["referee", "move", fighter, "F", "--session", session,
                                  "--json"])
    assert result.exit_code == 1
    error = json.loads(result.stdout)["error"]
    assert error["kind"] == "refused" and error["rule"] == "9.1" and "2 MP" in error["message"]


def test_broken_data_with_json_lists_every_problem(tiny_game):
    (tiny_game / "game.yaml").write_text(
        (tiny_game / "game.yaml").read_text(encoding="utf-8") + "\nbogus_section: 1\n",
        encoding="utf-8")
    result = CliRunner().invoke(main, ["tables", str(tiny_game), "--json"])
    assert result.exit_code == 2
    error = json.loads(result.stdout)["error"]
    assert error["kind"] == "data" and error["problems"]
    assert error["problems"][0] in result.stderr


def test_json_after_a_double_dash_is_an_argument_not_the_option():
    result = CliRunner().invoke(main, ["lookup", "midway", "carrier-damage", "--", "--json"])
    assert result.exit_code == 2 and result.stdout == ""


# --- every main command's --help: examples that run, and the exit codes -----------------------

MAIN_COMMANDS = ("games", "verify", "errata", "schema", "new", "docs", "tables", "lookup",
                 "roll", "odds", "build", "export", "trust")
#: Commands whose examples the test runs (the others write kits: their examples are parsed).
RUN = {"games", "errata", "docs", "tables", "lookup", "roll", "odds"}


def help_examples(name: str) -> list[list[str]]:
    """The example command lines of ``warpress NAME --help``, as words after ``warpress``."""
    text = CliRunner().invoke(main, [name, "--help"]).output
    block = text.split("Examples:\n", 1)[1].split("\n\n", 1)[0]
    words = [shlex.split(line.split("|")[0].split(">")[0]) for line in block.splitlines()]
    assert all(w[0] == "warpress" for w in words), block
    return [w[1:] for w in words]


@pytest.mark.parametrize("name", MAIN_COMMANDS)
def test_help_has_examples_and_exit_codes(name):
    text = CliRunner().invoke(main, [name, "--help"]).output
    assert "  Examples:\n" in text and "  Exit codes:\n" in text, text
    assert re.search(r"^ {4}0 ", text, re.M) and re.search(r"^ {4}2 ", text, re.M), text
    examples = help_examples(name)
    assert examples and all(words[0] == name for words in examples)
    for words in examples:  # every example parses: its options and values exist
        main.make_context("warpress", list(words))


@pytest.mark.parametrize("words", [w for name in sorted(RUN) for w in help_examples(name)],
                         ids=" ".join)
def test_help_examples_run_as_written(words):
    result = CliRunner().invoke(main, words)
    assert result.exit_code == 0, result.output


def test_an_unknown_table_is_one_short_message_naming_where_the_rest_are():
    out = CliRunner().invoke(main, ["lookup", "midway", "nosuch"], env={"COLUMNS": "80"})
    assert out.exit_code == 2
    assert out.output == ("warpress: unknown table 'nosuch' for midway (tables: aa-dice, "
                          "aa-hit,\n    anti-aircraft, attack-modifier, base-attack and 13 "
                          "more: warpress tables\n    midway)\n")


def test_a_long_value_is_quoted_short_with_its_length():
    out = CliRunner().invoke(main, ["lookup", "midway", "landing", "invasion=" + "x" * 500],
                             env={"COLUMNS": "80"})
    assert out.exit_code == 2 and len(out.output.splitlines()) <= 2
    assert "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'... (500 characters)" in out.output.replace(
        "\n    ", " ")


def test_data_problems_are_capped_at_fifty_lines_but_in_verify_data(tiny_game):
    (tiny_game / "zz.yaml").write_text("markers:\n" + "".join(
        f"  - {{id: m{i}, count: 1, bogus: {i}, source: assumed, note: x}}\n"
        for i in range(60)), encoding="utf-8")
    out = CliRunner().invoke(main, ["build", str(tiny_game), "--out", str(tiny_game.parent)])
    assert out.exit_code == 2
    lines = out.stderr.splitlines()
    assert len(lines) == 51 and all("unknown key 'bogus'" in line for line in lines[:50])
    assert lines[50] == f"and 10 more (warpress verify {tiny_game} --data lists them all)"
    full = CliRunner().invoke(main, ["verify", str(tiny_game), "--data"])
    assert len([x for x in full.stderr.splitlines() if "unknown key 'bogus'" in x]) == 60


def test_a_reader_that_stops_early_ends_the_command_quietly():
    """`warpress tables midway | head -1`: the reader has gone before the answer is written
    out; the command stops with nothing on stderr, exit 0, never 'Broken pipe'."""
    child = subprocess.Popen([sys.executable, "-m", "warpress", "tables", "midway"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             env={**os.environ, "COLUMNS": "80"})
    child.stdout.close()  # gone before the first line
    err = child.stderr.read()
    child.wait(timeout=120)
    assert (child.returncode, err) == (0, b"")


def test_a_note_told_before_a_command_line_is_not_printed_by_it(tiny_game, cli):
    """Notes belong to the command line that told them: one told before (a library call in
    the same process) does not end up in the next command's output."""
    tell("told before the command")
    result = cli("lookup", str(tiny_game), "hit", "roll=1", "armored=no", "--json")
    assert result.exit_code == 0, result.output
    assert "told before" not in result.output
    json.loads(result.output)

"""Bad command-line input: every integer a user types goes through the shared
parser (engine/inputs.py); names the file system refuses and unbounded options are one
line and exit 2, never a traceback."""

from __future__ import annotations

import pytest

HUGE = "1" * 4301          # past CPython's int() limit of 4,300 digits
LONG = "4" * 4300          # within it: int() takes it, str() of it did not


@pytest.mark.parametrize("args,needle", [
    (("lookup", "midway", "carrier-damage", "damaged=no", "roll=²"), "'²'"),
    (("lookup", "midway", "carrier-damage", "damaged=no", f"roll={HUGE}"), "4301 characters"),
    (("lookup", "midway", "carrier-damage", "damaged=no", "roll=٣"), "'٣'"),
    (("lookup", "nimitz", "attack", "value=²", "roll=3"), "value='²'"),
    (("lookup", "nimitz", "attack", f"value={HUGE}", "roll=3"), "value="),
    (("lookup", "nimitz", "attack", "value=4/²", "roll=3"), "value='4/²'"),
    (("lookup", "nightfighter", "alert-mp", "mp=²"), "mp='²'"),
    (("lookup", "nightfighter", "alert-mp", f"mp={HUGE}*"), "mp="),
    (("odds", "axis-allies", "battle", f"attacker={HUGE} infantry", "defender=1 infantry"),
     "4301 characters"),
    (("odds", "axis-allies", "battle", "attacker=٣ infantry", "defender=1 infantry"), "'٣'"),
    (("lookup", "midway", "anti-aircraft", f"intact={LONG}", "escorted=no"), "intact="),
    (("roll", "midway", "carrier-damage", "damaged=no", "--seed", "²"), "--seed"),
    (("roll", "midway", "carrier-damage", "damaged=no", "--seed", HUGE), "--seed"),
    (("schema", "--indent", "99999"), "--indent"),
    (("schema", "--indent", "-1"), "--indent"),
    (("build", "midway", "--dpi", "٣٠٠"), "--dpi"),
])
def test_unusual_integers_are_refused_in_one_line(cli_refused, args, needle):
    line = cli_refused(*args)
    assert needle in line
    assert len(line) < 400


def test_schema_indent_in_range_still_works(cli):
    assert cli("schema", "--indent", "4").output.startswith('{\n    "')


@pytest.mark.parametrize("args", [
    ("tables", "x" * 300),
    ("verify", "g" * 256, "--data"),
    ("referee", "status", "--session", "s" * 300),
    ("referee", "new", "nightfighter", "--session", "s" * 300),
    ("referee", "log", "--session", "ok/" + "s" * 256),
])
def test_names_too_long_for_the_file_system_are_one_line(cli_refused, tmp_path, monkeypatch,
                                                         args):
    monkeypatch.chdir(tmp_path)
    assert "at most 255 bytes" in cli_refused(*args)


@pytest.mark.parametrize("args", [
    ("referee", "status", "--session", "\r0\r"),
    ("referee", "log", "--session", "a\nb"),
    ("lookup", "midway", "carrier-damage", "roll=1\n2"),
    ("lookup", "midway", "x\u2028y"),
    ("nosuch\ncommand",),
])
def test_a_line_break_in_an_input_is_shown_escaped_on_the_one_line(cli_refused, tmp_path,
                                                                   monkeypatch, args):
    monkeypatch.chdir(tmp_path)
    line = cli_refused(*args)
    assert "\\r" in line or "\\n" in line or "\\u2028" in line


@pytest.mark.parametrize("args", [
    ("lookup", "midway", "carrier-damage", "roll=\udcff"),
    ("referee", "move", "231", "F", "--enter", "\udcff", "--session", "s"),
])
def test_an_argument_that_is_not_utf8_is_one_line(cli, cli_refused, tmp_path, monkeypatch,
                                                  args):
    monkeypatch.chdir(tmp_path)
    assert cli("referee", "new", "nightfighter", "--seed", "1", "--session", "s").exit_code == 0
    assert "is not UTF-8 text" in cli_refused(*args)


def test_a_session_from_the_environment_that_is_not_utf8_is_one_line(cli, tmp_path,
                                                                     monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("WARPRESS_SESSION", "s\udcff")
    result = cli("referee", "status")
    assert result.exit_code == 2 and "is not UTF-8 text" in result.output, result.output

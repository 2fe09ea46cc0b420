"""Hostile game data: the corpus under tests/fixtures/hostile/ and the special
files made here are each refused by `warpress verify --data` with one line naming the
file, exit code 2, no traceback, in well under a second of work; the same files as a
referee scenario (`referee new nightfighter --scenario FILE`) too."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from warpress.cli import main

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "hostile"
CASES = sorted(CORPUS.glob("*.yaml"))


def _expected(path: Path) -> str:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("# expect: "), f"{path.name} lacks its '# expect:' line"
    return first.removeprefix("# expect: ")


def _verify(folder: Path):
    return CliRunner().invoke(main, ["verify", str(folder), "--data"])


def _refused(result, needle: str, lines: int = 2) -> list[str]:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    shown = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(shown) <= lines, result.output
    assert len(result.stdout.splitlines()) <= 1, result.output   # verify's summary line
    assert any(needle in line for line in shown), result.output
    return shown


def test_the_corpus_is_there():
    assert len(CASES) >= 15


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_hostile_file_in_a_game_is_one_line(tiny_game, case):
    shutil.copy(case, tiny_game / "zz-hostile.yaml")
    _refused(_verify(tiny_game), _expected(case))


@pytest.mark.parametrize("case", [c for c in CASES if c.stem.startswith(("alias", "deep",
                                                                           "date", "python",
                                                                           "big-int"))],
                         ids=lambda c: c.stem)
def test_hostile_scenario_is_one_line(tmp_path, case):
    shutil.copy(case, tmp_path / "scenario.yaml")
    result = CliRunner().invoke(main, ["referee", "new", "nightfighter", "--scenario",
                                       str(tmp_path / "scenario.yaml"), "--session",
                                       str(tmp_path / "s")])
    _refused(result, _expected(case), lines=1)


posix = pytest.mark.skipif(sys.platform == "win32", reason="POSIX special files")


@posix
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_a_link_to_a_device_is_refused_unread(tiny_game, device):
    (tiny_game / "zz.yaml").symlink_to(device)
    _refused(_verify(tiny_game), f"a symbolic link to '{device}', outside the game folder")


@posix
def test_a_link_to_a_device_as_scenario_is_refused_unread(tmp_path):
    (tmp_path / "night.yaml").symlink_to("/dev/zero")
    result = CliRunner().invoke(main, ["referee", "new", "nightfighter", "--scenario",
                                       str(tmp_path / "night.yaml"), "--session",
                                       str(tmp_path / "s")])
    _refused(result, "outside the game folder", lines=1)


@posix
def test_a_fifo_is_refused_without_waiting_for_a_writer(tiny_game):
    os.mkfifo(tiny_game / "zz.yaml")
    _refused(_verify(tiny_game), "is a FIFO (named pipe), not a regular file")


def test_a_folder_named_yaml_is_refused(tiny_game):
    (tiny_game / "zz.yaml").mkdir()
    _refused(_verify(tiny_game), "is a folder, not a regular file")


def test_a_link_inside_the_folder_is_read(tiny_game):
    (tiny_game / "extra").mkdir()
    (tiny_game / "extra" / "more.yaml").write_text(
        "markers:\n  - {id: more, count: 1, source: assumed, note: x}\n", encoding="utf-8")
    (tiny_game / "zz.yaml").symlink_to(Path("extra") / "more.yaml")
    assert _verify(tiny_game).exit_code == 0


def test_a_link_leaving_the_folder_is_refused(tiny_game, tmp_path):
    outside = tmp_path / "outside.yaml"
    outside.write_text("markers: []\n", encoding="utf-8")
    (tiny_game / "zz.yaml").symlink_to(outside)
    _refused(_verify(tiny_game), "outside the game folder")


def test_a_50_mb_file_is_refused_before_it_is_read(tiny_game):
    with (tiny_game / "zz.yaml").open("wb") as handle:
        handle.truncate(50_000_000)  # sparse: nothing is written, nothing need be read
    _refused(_verify(tiny_game), "bytes of YAML: a game is at most 4,000,000")


def test_a_file_over_the_file_limit_is_refused(tiny_game):
    (tiny_game / "zz.yaml").write_text("# padding\n" * 260_000, encoding="utf-8")
    _refused(_verify(tiny_game), "2,600,000 bytes: a game file is at most 2,500,000 bytes")


def test_too_many_files_are_refused(tiny_game):
    for i in range(150):
        (tiny_game / f"part{i:03d}.yaml").write_text("{}\n", encoding="utf-8")
    _refused(_verify(tiny_game), "151 YAML files: a game folder holds at most 150")


def test_quoted_dates_and_plain_values_still_load(tiny_game):
    (tiny_game / "zz.yaml").write_text(
        "constants:\n  - {id: when, value: \"1942-09-01\", source: assumed, note: x}\n"
        "  - {id: list, value: [1, 2.5, yes, text, null], source: assumed, note: x}\n",
        encoding="utf-8")
    assert _verify(tiny_game).exit_code == 0


@posix
def test_a_fifo_as_scenario_is_refused_without_waiting(tmp_path):
    os.mkfifo(tmp_path / "night.yaml")
    result = CliRunner().invoke(main, ["referee", "new", "nightfighter", "--scenario",
                                       str(tmp_path / "night.yaml"), "--session",
                                       str(tmp_path / "s")])
    _refused(result, "is a FIFO (named pipe), not a regular file", lines=1)


def test_an_alias_bomb_before_the_other_files_is_reported_once(tiny_game):
    """The node budget is the game's: the files after the one that spent it are not read,
    so the overrun is one line, not one per file."""
    for name in ("units", "tables"):
        (tiny_game / f"{name}.yaml").write_text(f"{name}: []\n", encoding="utf-8")
    shutil.copy(CORPUS / "alias-bomb.yaml", tiny_game / "aa-hostile.yaml")
    shown = _refused(_verify(tiny_game), _expected(CORPUS / "alias-bomb.yaml"))
    assert sum("YAML nodes" in line for line in shown) == 1, shown

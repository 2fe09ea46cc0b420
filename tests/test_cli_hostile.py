"""Every command on every hostile game folder (tests/hostile_folders.py), as the installed
command would run it: each folder in a process of its own under ``prlimit`` (500 MB of
address space, which every command of the folder runs in, one after another: nothing a
command read may stay in memory for the next). Each command exits 0, 1 or 2 without a
traceback, takes under 5 seconds of CPU (measured by the process itself, so a busy machine
does not make it fail), prints no control a terminal would act on (escapes, bidi overrides),
runs none of the folder's Python and writes nothing outside ``--out``; a folder refused when
loaded is refused by each command that loads it.

Run as a script (``python tests/test_cli_hostile.py FOLDER``), this module is the driver:
it runs the commands in process and prints one JSON object per command.
"""

from __future__ import annotations

import json
import os
import re
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from hostile_folders import FOLDERS, MARKER, REFUSED  # noqa: E402

#: The bounds every command keeps on every hostile folder.
CPU_SECONDS = 5.0
ADDRESS_SPACE = 500_000_000

#: Every command that takes a game, as a player or designer would type it (G: the folder,
#: O: the output folder).
COMMANDS = [
    ("games", "G"), ("errata", "G"), ("tables", "G"), ("verify", "G", "--data"),
    ("verify", "G"), ("lookup", "G", "crt", "odds=3-1", "roll=3"), ("odds", "G", "crt",
                                                                       "odds=3-1"),
    ("build", "G", "--out", "O"), ("export", "G", "--format", "pieces", "--out", "O"),
    ("export", "G", "--format", "vassal", "--out", "O"),
    ("export", "G", "--format", "tts", "--out", "O"),
    ("roll", "G", "crt", "odds=3-1", "--seed", "1"),
    ("referee", "new", "G", "--session", "O/session"),
    ("play", "scenarios", "G"), ("play", "actions", "G"),
    ("play", "new", "G", "--session", "O/play"), ("play", "status", "--session", "O/play"),
    ("play", "moves", "--session", "O/play"), ("play", "move", "n4", "0504", "--session",
                                               "O/play"),
    ("play", "log", "--session", "O/play"),
    ("balance", "G", "--games", "2", "--out", "O/balance"),
]
#: Commands that make a session: a folder without rules to play may be refused for that
#: before its data is checked. (The commands after ``play new`` play the session it made:
#: of a folder that is refused, there is none, and they refuse that.)
SESSIONS = {"referee new G --session O/session", "play new G --session O/play"}
#: What a terminal acts on: C0 controls but tab and newline, DEL, C1 controls, bidi
#: embeddings, overrides and isolates, line and paragraph separators.
CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e"
                      "\u2066-\u2069\u2028\u2029]")


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def drive(folder: str, out: str) -> None:
    """Run every command on ``folder`` in this process; one JSON line per command."""
    from click.testing import CliRunner
    from warpress.cli import main

    for command in COMMANDS:
        args = [{"G": folder, "O": out}.get(a, a.replace("O/", f"{out}/")) for a in command]
        started = _cpu()
        result = CliRunner().invoke(main, args)
        seconds = _cpu() - started
        crashed = result.exception is not None and not isinstance(result.exception,
                                                                   SystemExit)
        print(json.dumps({"command": " ".join(command), "exit": result.exit_code,
                          "cpu": round(seconds, 2), "crashed": crashed,
                          "traceback": "Traceback" in result.output,
                          "controls": CONTROLS.findall(result.output),
                          "stderr_lines": len(result.stderr.splitlines()),
                          "output": result.output[-600:],
                          "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
                          // 1024}), flush=True)


needs_prlimit = pytest.mark.skipif(shutil.which("prlimit") is None or sys.platform == "win32",
                                   reason="prlimit (util-linux) bounds the process")


def _run(name: str, root: Path) -> tuple[Path, list[dict]]:
    games = root / "games"
    games.mkdir(parents=True)
    folder = FOLDERS[name](games)
    work = root / "work" / "a" / "b" / "c"  # escapes climb out of the working folder
    work.mkdir(parents=True)
    env = {**os.environ, "WARPRESS_CACHE": str(root / "cache"), "COLUMNS": "80"}
    env.pop("WARPRESS_TRUST", None)
    done = subprocess.run(["prlimit", f"--as={ADDRESS_SPACE}", "--cpu=300", sys.executable,
                           __file__, str(folder), "out"], cwd=work, env=env,
                          capture_output=True, text=True, timeout=900)
    records = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert len(records) == len(COMMANDS), (done.returncode, done.stdout[-2000:],
                                           done.stderr[-2000:])
    return folder, records


@needs_prlimit
@pytest.mark.parametrize("name", sorted(FOLDERS))
def test_every_command_is_bounded_and_runs_no_code_on_a_hostile_folder(name, tmp_path):
    folder, records = _run(name, tmp_path)
    for record in records:
        shown = f"{name}: {record['command']}: {record}"
        assert record["exit"] in (0, 1, 2) and not record["crashed"], shown
        assert not record["traceback"], shown
        assert not record["controls"], shown
        assert record["cpu"] < CPU_SECONDS, shown
        if name in REFUSED and record["command"] not in SESSIONS:
            assert record["exit"] == 2, shown
            assert record["stderr_lines"] <= 51, shown
    assert not (folder / MARKER).exists(), f"{name}: the folder's Python ran"
    out = tmp_path / "work" / "a" / "b" / "c" / "out"
    written = {p for p in tmp_path.rglob("*") if p.is_file()}
    allowed = {p for p in written if p.is_relative_to(out) or p.is_relative_to(folder)
               or p.is_relative_to(tmp_path / "cache")}
    assert written == allowed, f"{name}: written outside --out: {sorted(written - allowed)}"


if __name__ == "__main__":
    drive(sys.argv[1], sys.argv[2])

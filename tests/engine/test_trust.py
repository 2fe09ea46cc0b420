"""engine/trust.py: naming a game folder does not run its Python. Every module of the folder
below writes a marker file when it is imported; the marker must not appear unless the folder
is trusted (``warpress trust DIR``, ``--trust`` for one run, ``$WARPRESS_TRUST``), and a
folder whose Python changed asks again. Bytecode and extension modules planted in a trusted
folder are never loaded."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import os
import py_compile
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from warpress.cli import main
from warpress.engine import trust

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "games"

#: each part writes the marker (the path of the folder's ``ran`` file) when imported
MARK = "from pathlib import Path\n(Path(__file__).resolve().parent / 'ran').write_text('{part}')\n"
INIT = MARK.format(part="init") + '''
from warpress.engine.registry import GameCode

CODE = GameCode()
'''
RULES = MARK.format(part="rules") + '''
from warpress.engine.registry import Answer

from . import CODE


@CODE.table("double", rules=["9.1"], results=["value"], summary="always 2")
def double(game, args, dice):
    return Answer({"value": 2}, rules=("9.1",))
'''
CHECKS = MARK.format(part="checks")
KIT = MARK.format(part="kit")


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """The tiny game with __init__.py, rules.py, checks.py and kit.py that each leave a
    marker."""
    target = tmp_path / "received" / "tiny"
    shutil.copytree(FIXTURES / "tiny", target)
    (target / "__init__.py").write_text(INIT, encoding="utf-8")
    (target / "rules.py").write_text(RULES, encoding="utf-8")
    (target / "checks.py").write_text(CHECKS, encoding="utf-8")
    (target / "kit.py").write_text(KIT, encoding="utf-8")
    return target


def run(*args: str | Path, env: dict | None = None):
    return CliRunner().invoke(main, list(map(str, args)), env=env)


def ran(folder: Path) -> bool:
    return (folder / "ran").exists()


@pytest.mark.parametrize("args", [
    ("games", "{}"), ("games", "{}", "--json"), ("errata", "{}"), ("verify", "{}", "--data"),
    ("tables", "{}"), ("lookup", "{}", "hit", "roll=1", "armored=yes"),
    ("roll", "{}", "hit", "armored=no", "--seed", "1"), ("odds", "{}", "hit", "armored=no"),
], ids=" ".join)
def test_commands_that_need_no_code_never_run_it(folder, args):
    out = run(*(a.format(folder) for a in args))
    assert out.exit_code == 0, out.output
    assert not ran(folder)
    assert "Traceback" not in out.output


def test_verify_data_compiles_and_says_what_it_did_not_run(folder):
    out = run("verify", folder, "--data")
    assert out.exit_code == 0 and not ran(folder)
    notes = out.stderr.splitlines()
    assert len(notes) == 1, out.stderr
    assert notes[0].startswith(f"warpress: note: {folder}/__init__.py, {folder}/rules.py, "
                               f"{folder}/checks.py, "
                               f"{folder}/kit.py: not run (the folder is not trusted); "
                               f"compiled only, to check its syntax (trust it with "
                               f"`warpress trust {folder}`, or --trust for one run)")


def test_a_syntax_error_is_found_without_running_anything(folder):
    (folder / "helpers.py").write_text("x = 1\ndef broken(:\n", encoding="utf-8")
    out = run("verify", folder, "--data")
    assert out.exit_code == 2 and not ran(folder)
    assert f"{folder}/helpers.py:2: SyntaxError: invalid syntax" in out.stderr


def test_a_data_table_is_answered_from_the_data_with_a_note(folder):
    out = run("lookup", folder, "hit", "roll=1", "armored=yes", "--json")
    assert out.exit_code == 0 and json.loads(out.stdout)["result"] == {"hits": 1}
    assert "not run (the folder is not trusted); answered 'hit' from the data" in out.stderr
    assert not ran(folder)


@pytest.mark.parametrize("args", [
    ("lookup", "{}", "double"), ("verify", "{}"),
    ("build", "{}", "--out", "{}/../out", "--format", "svg", "--only", "sheets"),
    ("export", "{}", "--format", "pieces", "--out", "{}/../out"),
], ids=lambda a: a[0])
def test_a_command_that_needs_the_code_is_one_line_exit_2(folder, args):
    out = run(*(a.format(folder) for a in args))
    assert out.exit_code == 2, out.output
    lines = [line for line in out.output.splitlines() if line.startswith("warpress:")]
    assert len(lines) == 1 and "not run: the folder is not trusted (trust it with " \
        f"`warpress trust {folder}`, or --trust for one run)" in lines[0], out.output
    assert not ran(folder)
    assert not (folder.parent / "out").exists()


def test_trusting_a_folder_lets_its_code_run_until_it_changes(folder):
    out = run("trust", folder)
    assert out.exit_code == 0 and out.output.startswith(f"{folder.resolve()}: trusted (4 "
                                                        f"Python file(s), sha256 ")
    assert run("lookup", folder, "double", "--json").exit_code == 0
    assert (folder / "ran").read_text() == "rules"
    (folder / "ran").unlink()
    (folder / "kit.py").write_text(KIT + "# one more line\n", encoding="utf-8")
    trust._digest.cache_clear()  # a new command: a new process
    out = run("lookup", folder, "double")
    assert out.exit_code == 2 and "rules.py: not run: its Python changed since you " \
        "trusted it (" in out.output
    assert not ran(folder)
    listed = run("trust", "--list").output
    assert f"{folder.resolve()}  4 Python file(s)" in listed and "not trusted: its Python " \
        "changed" in listed
    assert run("trust", folder, "--forget").output == f"{folder.resolve()}: no longer trusted\n"
    assert str(folder.resolve()) not in run("trust", "--list").output


def test_trust_for_one_run(folder):
    assert run("lookup", folder, "double", "--trust").exit_code == 0 and ran(folder)
    (folder / "ran").unlink()
    assert run("lookup", folder, "double").exit_code == 2 and not ran(folder)


def test_trust_from_the_environment_for_ci(folder):
    out = run("lookup", folder, "double", env={"WARPRESS_TRUST": str(folder.parent)})
    assert out.exit_code == 0 and ran(folder)


def test_shipped_games_need_no_trust():
    out = run("lookup", "midway", "landing", "invasion=4", "garrison=2", "rolls=3")
    assert out.exit_code == 0, out.output
    assert run("trust", "midway").output == "midway: a shipped or installed game: its Python " \
                                            "always runs\n"


def test_trust_needs_a_game_folder(tmp_path):
    out = run("trust", tmp_path)
    assert out.exit_code == 2 and "has no .yaml files" in out.output
    assert run("trust").exit_code == 2


def test_planted_bytecode_and_extension_modules_are_never_loaded(folder, tmp_path):
    """A trusted folder whose rules import a helper: a .pyc in __pycache__ stamped with the
    helper source's time and size (what an archive keeps), and an extension module of the
    helper's name (which Python prefers to a source file) are ignored: the helper's source
    is what runs."""
    (folder / "checks.py").unlink()
    (folder / "kit.py").unlink()
    (folder / "helper.py").write_text("VALUE = 2\n", encoding="utf-8")
    (folder / "rules.py").write_text(RULES.replace('{"value": 2}', '{"value": VALUE}').replace(
        "from warpress.engine.registry", "from .helper import VALUE\nfrom warpress.engine."
        "registry"), encoding="utf-8")
    evil = tmp_path / "evil.py"
    evil.write_text("VALUE = 666\n" + MARK.format(part="evil").replace(
        "Path(__file__).resolve().parent", f"Path({str(folder)!r})"), encoding="utf-8")
    cached = Path(importlib.util.cache_from_source(str(folder / "helper.py")))
    cached.parent.mkdir()
    py_compile.compile(str(evil), cfile=str(cached))
    stamp = os.stat(folder / "helper.py")
    code = bytearray(cached.read_bytes())  # header: magic, flags, source mtime, source size
    code[8:16] = (int(stamp.st_mtime) & 0xFFFFFFFF).to_bytes(4, "little") + (
        stamp.st_size & 0xFFFFFFFF).to_bytes(4, "little")
    cached.write_bytes(bytes(code))
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    (folder / f"helper{suffix}").write_bytes(b"\x7fELF not a library")
    assert run("trust", folder).exit_code == 0
    out = run("lookup", folder, "double", "--json")
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["result"] == {"value": 2}
    assert (folder / "ran").read_text() == "rules"


def test_bytecode_stamped_like_the_source_is_what_python_alone_would_run(folder, tmp_path):
    """The planted .pyc above is one Python's own importer takes: the test plants what it
    claims to."""
    import subprocess
    import sys

    (folder / "helper.py").write_text("VALUE = 2\n", encoding="utf-8")
    evil = tmp_path / "evil.py"
    evil.write_text("VALUE = 666\n", encoding="utf-8")
    cached = Path(importlib.util.cache_from_source(str(folder / "helper.py")))
    cached.parent.mkdir()
    py_compile.compile(str(evil), cfile=str(cached))
    stamp = os.stat(folder / "helper.py")
    code = bytearray(cached.read_bytes())
    code[8:16] = (int(stamp.st_mtime) & 0xFFFFFFFF).to_bytes(4, "little") + (
        stamp.st_size & 0xFFFFFFFF).to_bytes(4, "little")
    cached.write_bytes(bytes(code))
    out = subprocess.run([sys.executable, "-c", "import helper; print(helper.VALUE)"],
                         cwd=folder, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "666"


@pytest.mark.parametrize("command", [("verify", "{}", "--data"), ("trust", "{}")],
                         ids=lambda c: c[0])
def test_a_fifo_named_like_a_module_is_refused_without_waiting(folder, command):
    os.mkfifo(folder / "helpers.py")
    out = run(*(a.format(folder) for a in command))
    assert out.exit_code == 2, out.output
    assert f"{folder}/helpers.py: not a regular file (a FIFO, a device or a socket)" in \
        out.output.replace("\n    ", " ")
    assert not ran(folder)


@pytest.mark.parametrize("files, size, where", [
    (1, trust.MOST_FILE_BYTES + 2, "helpers0.py: {size:,} bytes of Python; a game folder's "
                                   "file holds at most {most_file:,}"),
    (7, 2 * (trust.MOST_BYTES // 14 + 1), "tiny: {total:,} bytes of Python; a game folder holds at "
                                   "most {most:,}"),
], ids=["one file", "all files"])
def test_python_past_its_size_is_refused_before_it_is_compiled(folder, monkeypatch, files,
                                                               size, where):
    """Sizes are read before any file: Python too big is never compiled (which takes memory
    and time in proportion to its statements)."""
    from warpress.verify import data

    for name in ("__init__.py", "rules.py", "checks.py", "kit.py"):
        (folder / name).unlink()
    for i in range(files):
        (folder / f"helpers{i}.py").write_text("x\n" * (size // 2), encoding="utf-8")
    monkeypatch.setattr(data, "compile", lambda *a, **k: pytest.fail("compiled"),
                        raising=False)  # a module global shadows the builtin
    out = run("verify", folder, "--data")
    assert out.exit_code == 2, out.output
    assert where.format(size=size, total=size * files, most_file=trust.MOST_FILE_BYTES,
                        most=trust.MOST_BYTES) in out.output.replace("\n    ", " ")
    assert run("trust", folder).exit_code == 2


@pytest.mark.parametrize("link", ["helper.py", "lib"], ids=["a module", "a package"])
def test_a_linked_module_of_a_trusted_folder_is_never_imported(folder, tmp_path, link):
    """The trust covers the folder's own .py files (links are not followed): a module that is
    a link to code elsewhere, which could change without the folder's Python changing, is
    refused in one line, never imported."""
    (folder / "checks.py").unlink()
    (folder / "kit.py").unlink()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    code = "VALUE = 666\n" + MARK.format(part="linked").replace(
        "Path(__file__).resolve().parent", f"Path({str(folder)!r})")
    if link == "lib":
        (elsewhere / "__init__.py").write_text(code, encoding="utf-8")
        (folder / "lib").symlink_to(elsewhere)
    else:
        (elsewhere / "helper.py").write_text(code, encoding="utf-8")
        (folder / "helper.py").symlink_to(elsewhere / "helper.py")
    module = link.removesuffix(".py")
    (folder / "rules.py").write_text(RULES.replace('{"value": 2}', '{"value": VALUE}').replace(
        "from warpress.engine.registry", f"from .{module} import VALUE\nfrom warpress.engine."
        "registry"), encoding="utf-8")
    assert run("trust", folder).exit_code == 0
    out = run("lookup", folder, "double")
    assert out.exit_code == 2, out.output
    assert f"{folder / link} is a symbolic link (a game folder's modules are its own .py " \
           f"files, which its trust covers)" in out.output.replace("\n    ", " ")
    assert (folder / "ran").read_text() == "rules"

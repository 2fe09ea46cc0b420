"""components/atomic.py: an output folder is replaced as a whole. Kills are real
(SIGKILL in a child process at each step), so no clean-up code runs after them."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from warpress.components import atomic
from warpress.components.atomic import check_place, recover, replace_folder, write_files
from warpress.engine.errors import BadInput

OLD = {"kit.pdf": b"old pdf", "svg/page-1.svg": b"<svg>old</svg>"}
NEW = {"kit.pdf": b"new pdf", "svg/page-1.svg": b"<svg>new</svg>", "svg/page-2.svg": b"2"}
posix = pytest.mark.skipif(sys.platform == "win32", reason="POSIX kill and modes")


def _contents(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def _old_kit(tmp_path: Path) -> Path:
    kit = tmp_path / "out" / "midway"
    replace_folder(kit, lambda staging: write_files(staging, OLD))
    return kit


def _leftovers(kit: Path) -> list[str]:
    return sorted(p.name for p in kit.parent.iterdir() if p.name != kit.name)


def test_replace_writes_the_new_kit_and_leaves_nothing_beside_it(tmp_path):
    kit = _old_kit(tmp_path)
    replace_folder(kit, lambda staging: write_files(staging, NEW))
    assert _contents(kit) == NEW and _leftovers(kit) == []


def test_a_failing_writer_leaves_the_old_kit_and_no_staging(tmp_path):
    kit = _old_kit(tmp_path)

    def broken(staging: Path) -> None:
        write_files(staging, NEW)
        raise OSError(28, "No space left on device")

    with pytest.raises(BadInput, match="No space left on device"):
        replace_folder(kit, broken)
    assert _contents(kit) == OLD and _leftovers(kit) == []


#: The child: build the old kit, then replace it while a patched step kills the process.
CHILD = textwrap.dedent("""
    import os, signal, shutil, sys
    from pathlib import Path
    from warpress.components import atomic
    kit, where, exchange = Path(sys.argv[1]), sys.argv[2], sys.argv[3] == "yes"
    NEW = {NEW!r}

    def die(*args, **kwargs):
        os.kill(os.getpid(), signal.SIGKILL)

    def write(staging):
        for n, (name, data) in enumerate(NEW.items()):
            if where == "writing" and n == 1:
                die()
            atomic.write_files(staging, {{name: data}})

    if not exchange:
        atomic._exchange = lambda a, b: False
    if where == "swap":
        atomic._exchange = die
    renames = []
    real_rename = os.rename
    def rename(a, b):
        renames.append(b)
        if where == "between-renames" and len(renames) == 2:
            die()
        real_rename(a, b)
    os.rename = rename
    if where == "removing-old":
        atomic.shutil.rmtree = die
    atomic.replace_folder(kit, write)
""").format(NEW=NEW)


@posix
@pytest.mark.parametrize("where,exchange", [
    ("writing", "yes"), ("swap", "yes"), ("removing-old", "yes"),
    ("writing", "no"), ("between-renames", "no"), ("removing-old", "no"),
])
def test_a_kill_at_any_step_leaves_a_whole_kit_and_the_next_run_cleans_up(tmp_path, where,
                                                                         exchange):
    kit = _old_kit(tmp_path)
    child = subprocess.run([sys.executable, "-c", CHILD, str(kit), where, exchange],
                           capture_output=True, text=True, timeout=60)
    assert child.returncode == -9, child.stderr
    if where == "between-renames":  # only without an atomic exchange: the old kit is aside
        assert not kit.exists()
        recover(kit)
    assert _contents(kit) in (OLD, NEW)
    if exchange == "yes":
        assert _contents(kit) == (NEW if where == "removing-old" else OLD)
    replace_folder(kit, lambda staging: write_files(staging, NEW))
    assert _contents(kit) == NEW and _leftovers(kit) == []


def test_leftovers_of_older_versions_are_removed_and_a_stale_aside_is_no_obstacle(tmp_path):
    kit = _old_kit(tmp_path)
    for name in (".midway-abcd_123", f".midway-old-{os.getpid()}",
                 ".midway.new-999999999-0abc", ".midway.old-999999999-0abc"):
        (kit.parent / name / "svg").mkdir(parents=True)
        (kit.parent / name / "svg" / "x.svg").write_bytes(b"")
    (kit.parent / ".midway-cards.new-999999999-0abc").mkdir()  # another game's: kept
    replace_folder(kit, lambda staging: write_files(staging, NEW))
    assert _contents(kit) == NEW
    assert _leftovers(kit) == [".midway-cards.new-999999999-0abc"]


def test_a_running_builds_staging_is_left_alone(tmp_path):
    kit = _old_kit(tmp_path)
    busy = kit.parent / f".midway.new-{os.getppid()}-0abc"  # a live process: our parent
    busy.mkdir()
    replace_folder(kit, lambda staging: write_files(staging, NEW))
    assert busy.is_dir()


@posix
def test_the_kit_folder_follows_the_umask(tmp_path):
    previous = os.umask(0o022)
    try:
        kit = _old_kit(tmp_path)
    finally:
        os.umask(previous)
    assert stat.S_IMODE(kit.stat().st_mode) == 0o755
    assert stat.S_IMODE((kit / "svg").stat().st_mode) == 0o755
    assert stat.S_IMODE((kit / "kit.pdf").stat().st_mode) == 0o644


def test_a_file_in_the_kits_place_is_refused_and_kept(tmp_path):
    kit = tmp_path / "midway"
    kit.write_bytes(b"my notes")
    with pytest.raises(BadInput, match=r"is a file, not a kit folder"):
        replace_folder(kit, lambda staging: write_files(staging, NEW))
    assert kit.read_bytes() == b"my notes" and _leftovers(kit) == []


@posix
def test_a_read_only_kit_is_refused_and_kept(tmp_path):
    kit = _old_kit(tmp_path)
    (kit / "svg").chmod(0o555)
    try:
        with pytest.raises(BadInput, match=r"is read-only .*svg"):
            check_place(kit)
        with pytest.raises(BadInput, match=r"is read-only"):
            replace_folder(kit, lambda staging: write_files(staging, NEW))
        assert _contents(kit) == OLD and _leftovers(kit) == []
    finally:
        (kit / "svg").chmod(0o755)


def test_exchange_is_used_where_the_system_has_it(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    (a / "x").write_bytes(b"a")
    if atomic._exchange(a, b):
        assert (b / "x").read_bytes() == b"a" and not (a / "x").exists()
    else:
        assert not sys.platform.startswith("linux")


def _build(tiny_game: Path, out: Path):
    from click.testing import CliRunner
    from warpress.cli import main

    return CliRunner().invoke(main, ["build", str(tiny_game), "--out", str(out),
                                     "--format", "svg", "--only", "counters"])


def test_build_refuses_a_file_in_the_kits_place_in_one_line(tiny_game, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "tiny").write_bytes(b"my notes")
    result = _build(tiny_game, out)
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "is a file, not a kit folder" in lines[0], result.output
    assert sorted(p.name for p in out.iterdir()) == ["tiny"]
    assert (out / "tiny").read_bytes() == b"my notes"


@posix
def test_build_makes_the_kit_with_the_umask_and_cleans_old_leftovers(tiny_game, tmp_path):
    out = tmp_path / "out"
    (out / f".tiny-old-{os.getpid()}" / "svg").mkdir(parents=True)
    (out / ".tiny-k2j4_x9q").mkdir()
    (out / ".tiny-k2j4_x9q" / "tiny.pdf").write_bytes(b"")
    previous = os.umask(0o022)
    try:
        assert _build(tiny_game, out).exit_code == 0
        assert _build(tiny_game, out).exit_code == 0  # over an existing kit
    finally:
        os.umask(previous)
    assert sorted(p.name for p in out.iterdir()) == ["tiny"]
    assert stat.S_IMODE((out / "tiny").stat().st_mode) == 0o755


@pytest.mark.parametrize("name", ["../escaped.png", "images/../../x", "/etc/x", "a//b", "./a",
                                  "a\\..\\b", "C:x", "", "a/\x1b[2J"])
def test_a_name_leading_out_of_the_folder_is_refused_and_nothing_is_written(tmp_path, name):
    kit = tmp_path / "out" / "kit"
    with pytest.raises(BadInput, match="would lead outside its folder"):
        replace_folder(kit, lambda staging: write_files(staging, {"a.png": b"1", name: b"2"}))
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["out"]


def test_a_link_in_the_staging_folder_is_not_written_through(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()

    def write(staging: Path) -> None:
        (staging / "images").symlink_to(outside)
        write_files(staging, {"images/x.png": b"1"})

    with pytest.raises(BadInput, match="would be written outside"):
        replace_folder(tmp_path / "out" / "kit", write)
    assert not list(outside.iterdir())

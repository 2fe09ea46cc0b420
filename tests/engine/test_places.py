"""warpress's own files go to one cache folder by the platform's conventions, never to the
user's current directory: ``verify`` runs hypothesis, which would make ``.hypothesis/``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import warpress
from warpress.engine.places import cache_folder, hypothesis_home


def test_warpress_cache_replaces_the_platform_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("WARPRESS_CACHE", str(tmp_path / "c"))
    monkeypatch.delenv("HYPOTHESIS_STORAGE_DIRECTORY", raising=False)
    assert cache_folder() == tmp_path / "c"
    assert hypothesis_home() == tmp_path / "c" / "hypothesis"


def test_the_platform_folder_follows_xdg_on_linux(monkeypatch, tmp_path):
    if not sys.platform.startswith("linux"):
        return
    monkeypatch.delenv("WARPRESS_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_folder() == tmp_path / "xdg" / "warpress"


def test_verify_leaves_nothing_in_the_current_directory(tmp_path):
    """A fresh process, as a user runs it. Hypothesis keeps the constants it finds in source
    outside site-packages, so from a checkout Nimitz's invariants make it write files; an
    installed warpress gives it none to keep (the tiny fixture's make it write none either)."""
    cwd, cache = tmp_path / "here", tmp_path / "cache"
    cwd.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "HYPOTHESIS_STORAGE_DIRECTORY"}
    env["WARPRESS_CACHE"] = str(cache)
    done = subprocess.run([sys.executable, "-m", "warpress", "verify", "nimitz"], cwd=cwd,
                          env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert list(cwd.iterdir()) == []
    if "site-packages" not in Path(warpress.__file__).parts:
        assert (cache / "hypothesis").is_dir()

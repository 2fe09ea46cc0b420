"""Editing a copied game folder in a test, and reading its data problems: one place for the
tests of the loader, the data checks, the data forms, the invariants and the game code.
(tests/conftest.py puts this folder on ``sys.path``.)"""

from __future__ import annotations

from pathlib import Path


def edit(folder: Path, old: str, new: str, name: str = "game.yaml") -> None:
    """Replace the first ``old`` in ``folder/name`` by ``new``; ``old`` must be there, so a
    fixture that drifts fails the test instead of leaving it testing nothing."""
    path = folder / name
    text = path.read_text(encoding="utf-8")
    assert old in text, f"fixture lacks {old!r}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def loaded(folder: Path):
    """``folder``'s game as the loader reads it, before the data checks every command runs
    (``engine.structure.STRUCTURAL``): data a check refuses, for the invariant that must catch it
    too."""
    from warpress.engine.loader import load_game_collecting

    game, _problems = load_game_collecting(folder, str(folder))
    return game


def problems(folder: Path) -> list[str]:
    """Every data problem of ``folder`` as ``verify --data`` prints it."""
    from warpress.verify.data import check_folder

    return [str(p) for p in check_folder(str(folder)).problems]

"""The docs stand on their own: no file under docs/ nor README.md points at material that is
not in the repository (the design notes' folder, the rule digests, the seed rule texts); no
file of the repository names that folder, and no page of the five kits prints a pointer to
the encoders' digest of the rules or its inference codes."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from xml.etree import ElementTree

import pytest
from warpress.components.kit import build_kit, parse_options
from warpress.engine.loader import builtin, builtin_games

ROOT = Path(__file__).resolve().parents[1]
OUTSIDE = re.compile(r"shared/|digest|seeds", re.IGNORECASE)


def doc_files() -> list[Path]:
    docs = [p for p in sorted((ROOT / "docs").rglob("*"))
            if p.is_file() and p.suffix in {".md", ".txt", ".rst", ".yaml", ".svg", ".py"}]
    return [ROOT / "README.md", *docs]


def outside_references(path: Path, root: Path = ROOT) -> list[str]:
    return [f"{path.relative_to(root)}:{number}: {line.strip()}"
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if OUTSIDE.search(line)]


def test_docs_are_found():
    names = {p.name for p in doc_files()}
    assert {"README.md", "engine.md", "data-format.md"} <= names


def test_no_doc_names_a_file_outside_the_repository():
    found = [hit for path in doc_files() for hit in outside_references(path)]
    assert not found, "\n".join(found)


def test_a_pointer_outside_is_caught(tmp_path):
    doc = tmp_path / "x.md"
    doc.write_text("see the rule text\nsee `shared/design/x.md`\n", encoding="utf-8")
    assert [hit.split(":")[1] for hit in outside_references(doc, tmp_path)] == ["2"]



# --- the repository and the kits stand on their own ----------------------------------------

SHARED = re.compile(r"shared/")
#: What a printed page must not say: the encoders' digest of the rules, and its inference codes
#: ("[inf-H]", "(INF-M)") that mean nothing to a player.
PRINTED_POINTER = re.compile(r"digest|\[inf|\binf-[hml]\b", re.IGNORECASE)
KITS = tuple(builtin_games())


def tracked_files(root: Path = ROOT) -> list[Path]:
    """The repository's files (git's list when there is one), without tests/fixtures and
    without this file, which names what it looks for."""
    try:
        listed = subprocess.run(["git", "ls-files", "-z"], cwd=root, capture_output=True,
                                check=True).stdout.decode("utf-8").split("\0")
        files = [root / name for name in listed if name]
    except (OSError, subprocess.CalledProcessError):
        skip = {".git", "__pycache__", "output", "build", "dist", ".venv", "venv"}
        files = [p for p in root.rglob("*")
                 if p.is_file() and not skip & set(p.relative_to(root).parts)]
    fixtures = root / "tests" / "fixtures"
    return sorted(p for p in files
                  if p.is_file() and fixtures not in p.parents and p != Path(__file__).resolve())


def lines_where(paths: list[Path], found, root: Path = ROOT) -> list[str]:
    """``file:line: text`` of every line of the text files ``paths`` that ``found(line)``."""
    hits = []
    for path in paths:
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # fonts, images
        hits += [f"{path.relative_to(root)}:{number}: {line.strip()}"
                 for number, line in enumerate(text.splitlines(), 1) if found(line)]
    return hits


def shared_references(paths: list[Path], root: Path = ROOT) -> list[str]:
    return lines_where(paths, SHARED.search, root)


def test_tracked_files_are_found():
    names = {p.relative_to(ROOT).as_posix() for p in tracked_files()}
    assert {"README.md", "games/midway/game.yaml", "engine/model.py"} <= names


def test_no_tracked_file_names_the_shared_folder():
    found = shared_references(tracked_files())
    assert not found, "\n".join(found)


def test_a_shared_path_is_caught(tmp_path):
    (tmp_path / "game.yaml").write_text("# Source: shared/seeds/000.txt\ngame: {}\n",
                                        encoding="utf-8")
    assert [hit.split(":")[1] for hit in
            shared_references([tmp_path / "game.yaml"], tmp_path)] == ["1"]


def svg_texts(svg: Path) -> list[str]:
    """Every text a page prints: the content of each <text> element of the SVG."""
    tree = ElementTree.parse(svg)
    return ["".join(node.itertext()) for node in tree.iter() if node.tag.endswith("}text")]


def printed_pointers(folder: Path) -> list[str]:
    return [f"{svg.name}: {text}" for svg in sorted(folder.rglob("*.svg"))
            for text in svg_texts(svg) if PRINTED_POINTER.search(text)]


@pytest.fixture(scope="module")
def kits_svg(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("kits-svg")
    for game in KITS:
        build_kit(builtin(game), out, parse_options("a4", "svg", "long", "0,0", None))
    return out


def test_every_kit_is_built(kits_svg):
    built = {svg.parent.parent.name for svg in kits_svg.rglob("*.svg")}
    assert built == set(KITS)


def test_no_kit_page_prints_a_digest_pointer(kits_svg):
    found = printed_pointers(kits_svg)
    assert not found, f"{len(found)} printed pointers:\n" + "\n".join(found[:40])


def test_a_printed_pointer_is_caught(tmp_path):
    (tmp_path / "p.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg"><text>count: 40 (rule 2.2)</text>'
        '<text>counter mix absent (digest 1.7)</text><text>PE [inf-H]: 7</text>'
        '<text>a bomber (INF-H)</text><text>inferred, high confidence</text></svg>',
        encoding="utf-8")
    assert [hit.split(": ", 1)[1] for hit in printed_pointers(tmp_path)] == [
        "counter mix absent (digest 1.7)", "PE [inf-H]: 7", "a bomber (INF-H)"]


# --- the project speaks of itself only: no issue numbers, rounds or dated timings -------------

#: How the project must not speak of itself: an issue number, a development session or round
#: of work, a time of day a measurement was taken.
HISTORY = re.compile(r"\bissues? ?#?\d+|\bsession \d+\b"
                     r"|\b(development|review) (rounds?|sessions?)\b"
                     r"|\b\d\d:\d\d(-\d\d:\d\d)? UTC\b", re.IGNORECASE)
#: A date (the day a figure was measured) on a line that times something.
DATE = re.compile(r"\b20\d\d-\d\d-\d\d\b")
DURATION = re.compile(r"\b\d+(\.\d+)? ?(s|ms|min|seconds|minutes)\b")


def history_references(paths: list[Path], root: Path = ROOT) -> list[str]:
    return lines_where(paths, lambda line: bool(
        HISTORY.search(line) or (DATE.search(line) and DURATION.search(line))), root)


def test_no_file_names_an_issue_a_round_or_a_dated_timing():
    found = history_references(tracked_files())
    assert not found, f"{len(found)} lines:\n" + "\n".join(found[:40])


def test_history_in_a_file_is_caught(tmp_path):
    # the history-like lines are put together here, so that this file itself says none
    issue, session, review = "iss" + "ue", "ses" + "sion", "rev" + "iew"
    lines = [f"# fixed in {issue} #15", "a referee session's log (kept)",
             f"measured in {session} 9", "Measured on 2026-11-21: 0.12 s",
             "first edition 2023-05-13", "at 21:15 UTC", f"after the {review} round",
             "round 3 of a battle (kept)", f"{issue}s 3 and 4"]
    (tmp_path / "notes.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    hits = history_references([tmp_path / "notes.md"], tmp_path)
    assert [int(hit.split(":")[1]) for hit in hits] == [1, 3, 4, 6, 7, 9]

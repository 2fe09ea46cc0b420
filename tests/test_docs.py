"""The docs stand on their own: no file under docs/ nor README.md points at material that is
not in the repository (the design notes' folder, the rule digests, the seed rule texts)."""

from __future__ import annotations

import re
from pathlib import Path

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


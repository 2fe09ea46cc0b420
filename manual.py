"""The documentation pages that ship inside the package: ``warpress docs TOPIC`` prints one,
so a message that points at the docs points somewhere an installed warpress (a wheel, pipx)
can open, offline and for the version installed. The pages are ``docs/*.md`` of the source
tree, package data of ``warpress``."""

from __future__ import annotations

from pathlib import Path

from .engine.errors import BadInput
from .engine.inputs import quote

#: Where the pages are, in the source tree and in an installed package alike.
DOCS = Path(__file__).resolve().parent / "docs"


def topics() -> dict[str, str]:
    """topic -> the page's title (its first heading), in name order."""
    return {path.stem: _title(path) for path in sorted(DOCS.glob("*.md"))}


def page(topic: str) -> str:
    """The text of the page ``topic`` (``data-format`` or ``data-format.md``); BadInput
    naming the topics for another."""
    name = topic.removesuffix(".md").removeprefix("docs/")
    known = topics()
    if name not in known:
        raise BadInput(f"no documentation page {quote(topic)} (pages: {', '.join(known)})")
    return (DOCS / f"{name}.md").read_text(encoding="utf-8")


def _title(path: Path) -> str:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return path.stem

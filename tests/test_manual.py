"""`warpress docs`: the pages that ship with the package, listed and printed; messages point
at them by topic."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from warpress.cli import main
from warpress.manual import DOCS, page, topics

ROOT = Path(__file__).resolve().parents[1]


def test_every_page_of_docs_is_a_topic():
    """Installed or editable, the pages `warpress docs` prints are the checkout's docs/."""
    pages = {p.stem: p for p in (ROOT / "docs").glob("*.md")}
    assert set(topics()) == set(pages)
    for topic, path in pages.items():
        assert page(topic) == path.read_text(encoding="utf-8")
        assert (DOCS / path.name).read_text(encoding="utf-8") == path.read_text(encoding="utf-8")


def test_docs_lists_the_topics_with_their_titles():
    result = CliRunner().invoke(main, ["docs"])
    assert result.exit_code == 0
    assert "designing     Designing a game" in result.output


def test_docs_topic_prints_the_page_as_it_is():
    result = CliRunner().invoke(main, ["docs", "data-format"])
    assert result.exit_code == 0
    assert result.output == (ROOT / "docs" / "data-format.md").read_text(encoding="utf-8")
    assert page("docs/kits.md") == page("kits")


def test_an_unknown_page_is_one_line_naming_the_pages():
    result = CliRunner().invoke(main, ["docs", "nope"])
    assert result.exit_code == 2
    assert result.stderr.startswith("warpress: no documentation page 'nope' (pages: ")
    assert "designing" in result.stderr


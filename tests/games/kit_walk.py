"""Finding things on kit pages by id, for the tests of the games' kit extensions."""

from __future__ import annotations

from warpress.components.primitives import Group, texts, walk


def page_of(pages, page_id: str):
    """The page with id ``page_id``."""
    return next(p for p in pages if p.id == page_id)


def ids_on(page) -> set[str]:
    """Every id drawn on ``page``, inside groups too."""
    return {item.id for item in walk(page.items) if item.id}


def group_of(items, group_id: str) -> Group:
    """The group with id ``group_id`` among ``items`` (at any depth)."""
    return next(i for i in walk(items) if isinstance(i, Group) and i.id == group_id)


def texts_of(item) -> list[str]:
    """The words of every Text in ``item`` (a primitive or group), in drawing order."""
    return [t.text for t in texts([item])]

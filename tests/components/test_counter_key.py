"""The counter key: every kit that prints counters opens its play aid with one sample
counter, drawn by the counters' own code, each field named from the data."""

from __future__ import annotations

from warpress.components import counter_key
from warpress.components.clearance import counters
from warpress.components.primitives import Group, walk
from warpress.engine.loader import builtin


def _key(pages) -> Group | None:
    return next((g for p in pages for g in walk(p.items)
                 if isinstance(g, Group) and g.id == counter_key.KEY_ID), None)


def _labels(key: Group) -> list[str]:
    return [t.text for t in walk(key.items) if getattr(t, "cls", None) == "key-label"]


def test_every_kit_with_counters_has_a_counter_key(player_kits):
    for (game_id, paper), (_game, pages) in player_kits.items():
        has_counters = any(True for p in pages for _ in counters(p.items))
        key = _key(pages)
        assert has_counters == (key is not None), (game_id, paper)


def _top(item, dy: float = 0.0) -> float | None:
    """The y of the counter key's panel on the page, if ``item`` holds it."""
    if isinstance(item, Group):
        if item.id == counter_key.KEY_ID:
            return dy + item.dy
        found = [_top(i, dy + item.dy) for i in item.items]
        return next((f for f in found if f is not None), None)
    return None


#: What may share a sheet above the key: pieces, tracks, displays, the page's furniture.
SHARING = ("pieces", "counter", "track", "display", "footer", "scale")


def test_the_key_opens_the_play_aid(player_kits):
    """On the key's page nothing of the play aid or the set-up comes before it: only the
    pieces, tracks and displays that share the sheet (the key goes under the counters when
    that packs the kit best)."""
    for (game_id, paper), (_game, pages) in player_kits.items():
        page = next(p for p in pages if _key([p]) is not None)
        top = next(t for t in map(_top, page.items) if t is not None)
        groups = [item for item in page.items if isinstance(item, Group)]
        above = [item.cls for item in groups
                 if _top(item) is None and item.dy < top and (item.cls or "").split()[:1]
                 and not any(w in (item.cls or "") for w in SHARING)]
        assert not above, (game_id, paper, above)


def test_the_sample_is_a_printed_counter_scaled_up(player_kits):
    game, pages = player_kits[("axis-allies", "a4")]
    key = _key(pages)
    sample = next(g for g in walk(key.items) if isinstance(g, Group) and g.cls == "key-sample")
    printed = {tuple(g.items) for p in pages for g in counter_key.printed_counters(p.items)}
    assert tuple(sample.items) in printed
    assert sample.scale * sample.items[0].w == counter_key.KEY_SIDE


def test_the_fields_are_named_from_the_data(player_kits):
    game, pages = player_kits[("axis-allies", "a4")]
    labels = _labels(_key(pages))
    for stat in ("attack", "defense", "move"):
        named = game.style.stats[stat]
        assert f"{named.name} {named.name_ja}" in labels
    _game, pages = player_kits[("starter", "letter")]
    assert {"attack", "defence", "movement", "unit name"} <= set(_labels(_key(pages)))


def test_the_factor_line_is_split_at_its_dashes():
    game = builtin("nimitz")
    pieces = [g for p in _pages(game) for g in counter_key.printed_counters(p.items)]
    found = counter_key.sample(game, _pages(game))
    assert found is not None and pieces
    below = [f for f in counter_key.fields(game, found) if f.below]
    assert len(below) == len(counter_key.look_of(game, found.record).factors)
    assert [f.x for f in below] == sorted(f.x for f in below)


def _pages(game):
    from warpress.components.kit import kit_pages, parse_options

    return kit_pages(game, parse_options("a4", "pdf", "long", "0,0", "counters"))


def test_no_counters_no_key():
    game = builtin("midway")
    assert counter_key.key_block(game, [], 180.0) is None

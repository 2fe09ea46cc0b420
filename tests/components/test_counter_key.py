"""The counter key: every kit that prints counters opens its play aid with one sample
counter, drawn by the counters' own code, each field named from the data."""

from __future__ import annotations

from warpress.components import counter_key
from warpress.components.clearance import _walk, counters, ink_box
from warpress.components.kit import kit_pages, parse_options
from warpress.components.primitives import Group, Text, walk
from warpress.engine.loader import builtin
from warpress.engine.model import Unit


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


def _samples(key: Group) -> list[Group]:
    return [g for g in walk(key.items) if isinstance(g, Group)
            and (g.cls or "").split()[:1] == ["key-sample"]]


def test_the_samples_are_printed_counters_scaled_up(player_kits):
    game, pages = player_kits[("axis-allies", "a4")]
    printed = {tuple(g.items) for p in pages for g in counter_key.printed_counters(p.items)}
    samples = _samples(_key(pages))
    assert len(samples) >= 2
    for sample in samples:
        assert tuple(sample.items) in printed
        assert sample.scale * sample.items[0].w == counter_key.KEY_SIDE


def _shown(game, key: Group) -> list[counter_key.Sample]:
    """The key's counters (fronts), as samples."""
    records = {r.id: r for r in (*game.units, *game.markers)}
    return [counter_key.Sample(records[g.cls.split()[-1]], g.items[0].w, g.items, None)
            for g in _samples(key) if "back" not in g.cls.split()]


def _lines(key: Group) -> set[str]:
    return set(_labels(key))


def test_every_layout_the_sheets_print_is_read_in_the_key(player_kits):
    """For every kit: each unit counter the sheets print (each marker when there are no
    units) shows no field that one of the key's counters does not show and name, and every
    number a key's counter prints is a named field."""
    for (game_id, paper), (game, pages) in player_kits.items():
        key = _key(pages)
        shown = _shown(game, key)
        named = [{f.label.split(":")[0] for f in counter_key.fields(game, s)} for s in shown]
        printed = counter_key.printed_samples(game, pages)
        pool = [s for s in printed if isinstance(s.record, Unit)] or printed
        for found in pool:
            mine = {f.label.split(":")[0] for f in counter_key.fields(game, found)}
            assert any(mine <= n for n in named), (game_id, paper, found.record.id, mine)
        lines = _lines(key)
        for sample in shown:
            fields = counter_key.fields(game, sample)
            for f in fields:
                assert set(counter_key._lines(f.label)) <= lines or not f.value, (
                    game_id, paper, f.label)
            for text, dx, dy, owner in _walk(sample.front[1:]):
                if isinstance(text, Text) and owner < 0 and any(c.isdigit() for c in text.text):
                    box = ink_box(text).moved(dx, dy)
                    over = [f.box for f in fields if f.box.y0 < box.y1 and box.y0 < f.box.y1
                            and f.box.x0 < box.x1 and box.x0 < f.box.x1]
                    assert over and min(b.x0 for b in over) <= box.x0 + 0.5 and max(
                        b.x1 for b in over) >= box.x1 - 0.5, (
                        game_id, paper, sample.record.id, text.text)


def test_the_key_says_what_a_back_means(player_kits):
    for (game_id, paper), (game, pages) in player_kits.items():
        lines = " ".join(_labels(_key(pages)))
        meaning = game.style.back
        if meaning is not None and any(s.back for s in counter_key.printed_samples(game, pages)):
            assert meaning.name.split()[0] in lines, (game_id, paper)
            if meaning.name_ja:
                assert meaning.name_ja[:4] in lines, (game_id, paper)
    _game, pages = player_kits[("nimitz", "a4")]
    assert "damaged (one more hit destroys it)" in " ".join(_labels(_key(pages)))
    _game, pages = player_kits[("starter", "a4")]
    assert any("reduced" in line for line in _labels(_key(pages)))


def test_the_title_heads_the_panel(player_kits):
    for (game_id, paper), (_game, pages) in player_kits.items():
        key = _key(pages)
        title = next(t for t in walk(key.items) if getattr(t, "cls", None) == "key-title")
        tops = [g.dy for g in walk(key.items) if isinstance(g, Group) and g.cls == "key-cell"]
        assert title.x == 0 and all(title.y < top for top in tops), (game_id, paper)


def test_the_fields_are_named_from_the_data(player_kits):
    game, pages = player_kits[("axis-allies", "a4")]
    labels = _labels(_key(pages))
    for stat in ("attack", "defense", "move"):
        named = game.style.stats[stat]
        assert {named.name, named.name_ja} <= set(labels)
    _game, pages = player_kits[("starter", "letter")]
    assert {"attack", "defence", "movement", "unit name"} <= set(_labels(_key(pages)))


def test_a_bomber_s_attack_and_every_aircraft_s_cost_are_named(player_kits):
    _game, pages = player_kits[("midway", "a4")]
    assert {"attack", "air combat"} <= set(_labels(_key(pages)))
    for paper in ("a4", "letter"):  # a ship, a submarine, a land-based group, a ground unit
        game, pages = player_kits[("nimitz", paper)]
        shown = [s.record.id for s in _shown(game, _key(pages))]
        assert shown[:4] == ["lexington", "us-subdiv", "us-11bg", "us-battalion"], shown
        lines = _lines(_key(pages))
        assert {"anti-ship", "air-to-air /", "anti-ground", "torpedo", "cost (hits) /"} <= lines


def test_a_row_s_room_shows_one_more_layout():
    """Nimitz's carrier dive bomber ("4 3"), whose fields the land-based group shows all,
    fills the room the second row leaves."""
    game = builtin("nimitz")
    pages = _pages(game)
    assert [s.record.id for s in counter_key.more_samples(game, pages)][:1] == ["sbd"]
    key = counter_key.key_block(game, pages, _options().paper.content()[2])
    assert key is not None
    assert "sbd" in {g.cls.split()[-1] for g in _samples(key)}


def test_the_factor_line_is_split_at_its_dashes():
    game = builtin("nimitz")
    pieces = [g for p in _pages(game) for g in counter_key.printed_counters(p.items)]
    found = counter_key.sample(game, _pages(game))
    assert found is not None and pieces
    below = [f for f in counter_key.fields(game, found) if f.below]
    assert len(below) == len(counter_key.look_of(game, found.record).factors)
    assert [f.x for f in below] == sorted(f.x for f in below)


def _options():
    return parse_options("a4", "pdf", "long", "0,0", "counters")


def _pages(game):
    return kit_pages(game, _options())


def test_no_counters_no_key():
    game = builtin("midway")
    assert counter_key.key_block(game, [], 180.0) is None

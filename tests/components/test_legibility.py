"""The rules every kit keeps: legible text, no daggers for players, symbols on units.

Each built-in kit is laid out once (all parts, A4) and walked: no text under
4.5 pt on a counter or card page, factors at 7 pt or more, no dagger and none of the
"Assumed values" pages, which only a designer proof has, and every unit drawn
in the nato or silhouette layout carries its ``unit-symbol`` group.
"""

from __future__ import annotations

import pytest
from warpress.components import legibility
from warpress.components.kit import KitPage, kit_pages, parse_options
from warpress.components.legibility import ENFORCED, MIN_FACTORS_MM, MIN_MM, check_page, fit
from warpress.components.marks import DAGGER, dagger, proof
from warpress.components.pieces import unit_pieces
from warpress.components.primitives import Group, Page, Rect, Text, walk
from warpress.components.style import PT, look_of
from warpress.engine.errors import BadInput
from warpress.engine.loader import builtin, builtin_games, load_game

GAMES = builtin_games()


@pytest.fixture(scope="module")
def kits():
    """Every built-in game's kit, A4, all parts, as a player prints it."""
    return {g: kit_pages(builtin(g), parse_options("a4", "pdf", "long", "0,0", None))
            for g in GAMES}


def _texts(items, scale=1.0):
    for item in items:
        if isinstance(item, Text):
            yield item, scale
        elif isinstance(item, Group):  # map tiles' drawings included
            yield from _texts(item.items, scale * item.scale)


def _part(page) -> str:
    """The kit part of a finished page: its title is "<game name>: <part>"."""
    return page.title.rsplit(": ", 1)[-1]


@pytest.mark.parametrize("game", GAMES)
def test_no_text_under_the_minimum_on_counter_and_card_pages(kits, game):
    pages = [p for p in kits[game] if _part(p).split(" ")[0] in ENFORCED]
    assert pages, game
    sizes = [(t.size * scale, t) for p in pages for t, scale in _texts(p.items)
             if t.text.strip()]
    small = [t.text for size, t in sizes if size < MIN_MM - 1e-6]
    assert not small, small[:5]
    factors = [(size, t.text) for size, t in sizes if t.cls and "factors" in t.cls.split()]
    assert all(size >= MIN_FACTORS_MM - 1e-6 for size, _ in factors), factors[:5]


def test_the_rule_covers_counters_and_cards():
    assert set(ENFORCED) >= {"counters", "cards"}
    assert legibility.enforced("counters 15.875 mm") and legibility.enforced("cards 63 x 88 mm")


def test_a_small_text_on_a_counter_page_stops_the_build_naming_the_piece():
    piece = Group((Text(1, 1, "3-4", size=MIN_MM * 4 / 4.5),), id="counter-a6m-1")
    with pytest.raises(BadInput, match=r"counters \(page p\): piece 'counter-a6m-1': "
                                        r"text '3-4' is 4\.0 pt, under the 4\.5 pt"):
        check_page([Group((piece,), dx=10)], "counters (page p)")
    factors = Group((Text(1, 1, "3-4", size=MIN_MM, cls="factors"),), id="counter-b")
    with pytest.raises(BadInput, match=r"under the 7\.0 pt"):
        check_page([factors], "counters (page p)")
    check_page([Group((Text(1, 1, "3-4", size=MIN_FACTORS_MM, cls="factors"),))], "ok")


def test_text_that_cannot_fit_stops_the_build_instead_of_shrinking(tiny_game):
    assert fit("Tank", 3.0, 20.0, "x") == 3.0
    assert MIN_MM <= fit("Tank Tank Tank", 3.0, 12.0, "x") < 3.0  # shrinks down to the floor
    with pytest.raises(BadInput, match=r"counter-x: 'A very long name indeed' does not fit"):
        fit("A very long name indeed", 3.0, 5.0, "counter-x")
    path = tiny_game / "game.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace(
        "name: Tank,", "name: Tank of the Fourth Armoured Grenadier Regiment Reserve,"),
        encoding="utf-8")
    (tiny_game / "style.yaml").write_text("style: {counters: {armor: {layout: nato, name: yes}}}",
                                          encoding="utf-8")
    game = load_game(str(tiny_game))
    with pytest.raises(BadInput, match=r"counter counter-tank: 'Tank of the Fourth"):
        unit_pieces(game, game.get("units", "tank"))


@pytest.mark.parametrize("game", GAMES)
def test_no_dagger_and_no_assumed_values_page_without_proof(kits, game):
    marked = [(p.id, t.text) for p in kits[game] for t, _ in _texts(p.items) if DAGGER in t.text]
    assert not marked, marked[:5]
    assert not [p.id for p in kits[game] if _part(p) == "assumed values"]


@pytest.mark.parametrize("game", GAMES)
def test_no_word_of_assumed_values_on_player_pieces_without_proof(kits, game):
    """Not the dagger only: no 'assumed' note on a counter or card (midway-cards' ship cards
    said 'assumed: see Assumed values'); a designer proof keeps the note."""
    noted = [(p.id, t.text) for p in kits[game] if _part(p).split(" ")[0] in ("counters", "cards")
             for t, _ in _texts(p.items) if "assumed" in t.text.lower()]
    assert not noted, noted[:5]


def test_a_designer_proof_notes_assumed_cards():
    game = builtin("midway-cards")
    pages = kit_pages(game, parse_options("a4", "pdf", "long", "0,0", "cards", proof=True))
    assert any("see Assumed values" in t.text for p in pages for t, _ in _texts(p.items))


def test_a_designer_proof_marks_assumed_values_on_the_pieces():
    game = builtin("nimitz")
    pages = kit_pages(game, parse_options("a4", "pdf", "long", "0,0", "counters", proof=True))
    assert any(DAGGER in t.text for p in pages for t, _ in _texts(p.items))
    assert dagger(True) == ""  # the proof ends with the layout
    with proof(True):
        assert dagger(True) == DAGGER and dagger(False) == ""


@pytest.mark.parametrize("game", GAMES)
def test_every_nato_or_silhouette_unit_has_its_unit_symbol(kits, game):
    data = builtin(game)
    counters = [g for p in kits[game]  # a small counter sheet flows with the aids
                for g in walk(p.items) if isinstance(g, Group) and g.cls
                and g.cls.startswith("counter ") and "marker" not in g.cls.split()
                and not _plain_back(g)]  # a one-sided counter's back: its colour and name
    for unit in data.units:
        look = look_of(data, unit)
        if look.layout not in ("nato", "silhouette"):
            continue
        mine = [g for g in counters if unit.id in g.cls.split()]
        assert mine, unit.id
        for group in mine:
            classes = [i.cls for i in walk(group.items) if isinstance(i, Group) and i.cls]
            assert f"unit-symbol {look.symbol}" in classes, (unit.id, group.id)


def _plain_back(group: Group) -> bool:
    return any(i.cls and "plain-back" in i.cls.split() for i in walk(group.items)
               if isinstance(i, Rect))


def test_the_rule_covers_maps_tracks_and_displays():
    for part in ("map operations-area", "map world", "player map", "referee map",
                 "tracks and displays", "battle sheet", "battle board", "national production",
                 "weapons development"):
        assert legibility.enforced(part), part
    assert not legibility.enforced("play aid")
    with pytest.raises(BadInput, match=r"player map \(page p\): text 'Searchlight beacon' is "
                                        r"3\.6 pt"):
        legibility.check_pages([KitPage("player map", Page(100, 100, (
            Text(1, 1, "Searchlight beacon", size=3.6 * 25.4 / 72),), id="p"))])


# --- the counters' type scale -----------------------------------------------------------------


def test_every_counter_text_of_every_kit_is_a_step_of_the_type_scale(player_kits):
    """Every text on every counter and marker of the five kits and the starting game, A4 and
    Letter, prints at a size of the one type scale (engine.looks.TYPE_SCALE_PT)."""
    from warpress.components import clearance
    from warpress.engine.looks import TYPE_STEPS_PT

    steps = {round(step * PT, 4) for step in TYPE_STEPS_PT}
    used: dict[str, set[float]] = {}
    for (game_id, _paper), (_game, pages) in player_kits.items():
        for page in pages:
            for piece, _w, _h, items in clearance.counters(page.items):
                for item, *_ in clearance._walk(items[1:]):
                    if isinstance(item, Text) and item.text.strip():
                        assert round(item.size, 4) in steps, (game_id, piece, item.text,
                                                              item.size / PT)
                        used.setdefault(game_id, set()).add(round(item.size, 4))
    assert set(used) == {g for g, _paper in player_kits}  # every kit's counters were seen
    assert all(len(sizes) <= len(steps) for sizes in used.values())


def test_a_size_takes_the_step_at_or_under_it():
    assert legibility.on_scale(10.0 * PT) == round(9.0 * PT, 4)
    assert legibility.on_scale(9.0 * PT) == round(9.0 * PT, 4)
    assert legibility.on_scale(3.0 * PT) == round(MIN_MM, 4)  # never under the smallest
    for step in (4.5, 7.0, 11.0):  # a step stays put (7 pt rounds under its exact size)
        once = legibility.on_scale(step * PT)
        assert legibility.on_scale(once) == once == round(step * PT, 4)
    scaled = legibility.scaled((Group((Text(0, 0, "7", size=13.0 * PT),)),))
    assert scaled[0].items[0].size == round(11.0 * PT, 4)

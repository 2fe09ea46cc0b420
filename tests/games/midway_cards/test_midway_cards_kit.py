"""The card game's own kit pages: damage counters, card stat panels, procedure sheets."""

from __future__ import annotations

import pytest
from warpress.components.kit import kit_pages, parse_options
from warpress.components.primitives import Group, Rect, Text, walk
from warpress.engine.loader import builtin
from warpress.games.midway_cards.kit import COLOURS

GAME = builtin("midway-cards")


def _pages(part: str | None, paper: str = "a4"):
    return kit_pages(GAME, parse_options(paper, "pdf", "long", "0,0", part))


def _pieces(pages, prefix: str, side: str = "-front") -> dict[str, Group]:
    """The pieces on the fronts (a small sheet's flow with the aids) or on the backs."""
    def on_side(page_id: str) -> bool:
        return page_id.endswith("-back") == (side == "-back")

    return {g.id: g for p in pages if on_side(p.id) for g in walk(p.items)
            if isinstance(g, Group) and g.id and g.id.startswith(prefix)}


@pytest.fixture(scope="module")
def cards():
    return _pages("cards")


def test_damage_markers_are_counters_in_their_colours():
    pieces = _pieces(_pages("counters"), "counter-")
    expected = {"damage-red": 25, "damage-blue": 25, "disabled-yellow": 7, "base-green": 10,
                "base-white": 3}
    for marker in GAME.markers:
        mine = [g for k, g in pieces.items() if k.startswith(f"counter-{marker.id}-")]
        assert len(mine) == marker.count == expected[marker.id]
        ground = next(s for s in walk(mine[0].items) if isinstance(s, Rect))
        assert ground.style.fill == COLOURS[marker.color][0]
    assert len(pieces) == sum(expected.values())


def test_marker_values_are_printed_large():
    pieces = _pieces(_pages("counters"), "counter-base-white-1")
    texts = [t.text for t in walk(pieces["counter-base-white-1"].items) if isinstance(t, Text)]
    assert texts[0] == "10"


def test_ship_cards_show_durabilities_vp_and_defence_level(cards):
    fronts = _pieces(cards, "card-")
    for card in GAME.cards:
        if "deck_durability" not in card.stats:
            continue
        face = fronts[f"card-{card.deck}-{card.id}-1"]
        values = [t.text for t in walk(face.items) if isinstance(t, Text) and t.cls == "card-stat"]
        s = card.stats
        assert str(s["side_durability"]) in values[2] and str(s["deck_durability"]) in values[4]
        assert values[3].startswith(str(s["defense_level"]))
        assert values[0].startswith(f"{s['vp_sunk']}")
        assert all(t.size >= 3.0 for t in walk(face.items) if isinstance(t, Text)
                   and t.cls == "card-stat")


def test_aircraft_and_defence_cards_show_their_levels(cards):
    fronts = _pieces(cards, "card-")
    for card in GAME.cards:
        kind = card.stats.get("kind")
        if kind not in ("aircraft", "defense"):
            continue
        face = fronts[f"card-{card.deck}-{card.id}-1"]
        values = " ".join(t.text for t in walk(face.items) if isinstance(t, Text)
                          and t.cls == "card-stat")
        keys = ("level",) if kind == "defense" else ("air_combat_f", "air_combat_a", "anti_ship")
        for key in keys:
            if key in card.stats:
                assert str(card.stats[key]) in values, (card.id, key)


def test_secondary_damage_cards_make_the_results_their_headline(cards):
    """Each card's two results, named by the table, are its largest texts; the card's
    number is small, in its head line."""
    fronts = _pieces(cards, "card-secondary-damage-")
    table = GAME.table("secondary-damage")
    names = {r.name for r in table.rows}
    assert len(fronts) == 16
    for face in fronts.values():
        texts = [t for t in walk(face.items) if isinstance(t, Text)]
        titles = [t for t in texts if t.cls == "card-title"]
        assert len(titles) == 2 and all(t.text in names for t in titles)
        rest = [t.size for t in texts if t.cls not in ("card-title", "card-title-ja")]
        assert min(t.size for t in titles) > 1.3 * max(rest)
        head = next(t for t in texts if t.text.startswith("#"))
        assert head.size in rest


def test_a_result_says_what_it_does():
    from warpress.games.midway_cards.kit import _effect, _result_row

    table = GAME.table("secondary-damage")
    assert _effect(table, _result_row(table, "extra-2")) == ["+2 damage"]
    assert _effect(table, _result_row(table, "dud")) == ["The attack does 0 damage"]
    assert _effect(table, _result_row(table, "propulsion")) == [
        "+1 damage", "Yellow marker: cannot launch or recover"]
    assert _effect(table, _result_row(table, "none")) == []


def test_the_cannot_launch_marker_prints_english_and_japanese_at_the_title_ratio():
    from warpress.components.pieces import TITLE_JA
    from warpress.games.midway_cards.kit import marker_face

    marker = next(m for m in GAME.markers if m.id == "disabled-yellow")
    texts = [t for t in marker_face(GAME, marker) if isinstance(t, Text)]
    english = [t for t in texts if t.cls == "word"]
    japanese = [t for t in texts if t.cls == "word-ja"]
    assert " ".join(t.text for t in english) == "Cannot launch or recover"
    assert [t.text for t in japanese] == ["発着艦不能"]
    assert japanese[0].size == pytest.approx(english[0].size * TITLE_JA, abs=0.01)
    assert english[0].size > 2.5  # not a footnote under the Japanese


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_ship_damage_status_prints_once_as_one_row_per_status(paper):
    """The status table prints once in the kit, a row per status (Sunk, Heavy, Medium,
    Intact) with when it holds, its flight ops and VP: the values the engine reads."""
    from warpress.engine.tables import lookup

    pages = _pages(None, paper)
    charts = [g for p in pages for g in walk(p.items)
              if isinstance(g, Group) and g.id == "table-ship-damage-status"]
    assert len(charts) == 1
    cells = [t.text for t in walk(charts[0].items) if isinstance(t, Text)]
    statuses = ("Sunk 撃沈", "Heavy 大破", "Medium 中破", "Intact 無傷")
    assert sum(1 for c in cells if c in statuses) == 4
    assert len([r for r in walk(charts[0].items) if isinstance(r, Rect)]) == 5 * 4
    table = GAME.table("ship-damage-status")
    for status, deck, side, disabled in (("Heavy 大破", "half", "half", "no"),
                                         ("Medium 中破", "half", "below-half", "no"),
                                         ("Intact 無傷", "below-half", "below-half", "no")):
        found = lookup(table, deck_state=deck, side_state=side, disabled=disabled)
        row = cells[cells.index(status) + 2]  # status, when, flight ops
        assert row == {True: "yes", False: "no"}.get(found["flight_ops"], found["flight_ops"])


def test_every_deck_has_one_back(cards):
    for deck in GAME.decks:
        backs = _pieces(cards, f"card-{deck.id}-", "-back")
        assert len(backs) == sum(c.count for c in GAME.cards if c.deck == deck.id)
        assert len({b.items for b in backs.values()}) == 1


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_procedure_sheet_once_per_side_on_one_page(paper):
    pages = [p for p in _pages("sheets", paper) if p.id.startswith("procedure-sheet")]
    assert [p.id for p in pages] == ["procedure-sheet-japan-1", "procedure-sheet-us-1"]
    for page in pages:
        grids = {g.id: g for g in walk(page.items) if isinstance(g, Group) and g.id
                 and g.id.startswith("table-")}
        assert {"table-air-combat", "table-defense"} <= set(grids)
        cells = [r for r in walk(grids["table-air-combat"].items) if isinstance(r, Rect)]
        # a CRT: attacker rows by defender columns, the defender key spanning the headings
        assert len(cells) == 2 + (1 + 4) + 4 * (1 + 4)


def test_the_whole_kit_builds():
    pages = _pages(None)
    assert any(p.id.startswith("sheets-and-play-aids") for p in pages)


CALLOUTS = "①②③④⑤⑥⑦⑧⑨"


def test_each_callout_labels_one_field_once_and_each_stat_its_own_name():
    from warpress.games.midway_cards.kit import stat_rows

    for card in GAME.cards:
        labels = [label for label, _value, _ink in stat_rows(GAME, card)]
        marks = [label[0] for label in labels if label[:1] in CALLOUTS]
        assert len(marks) == len(set(marks)), (card.id, labels)  # was ①①③⑤⑤⑤⑥
        assert marks == sorted(marks), card.id
        for label in labels:
            assert "Damage to" not in label
            if "任務アイコン" in label:  # the field's name, only on a one-stat field
                assert not label.strip().startswith(("Anti-ship", "Damage")), label


def test_the_midway_base_card_names_its_defence_once():
    from warpress.games.midway_cards.kit import stat_rows

    base = next(c for c in GAME.cards if c.id == "midway-base")
    labels = [label for label, _value, _ink in stat_rows(GAME, base)]
    assert [label[0] for label in labels] == ["②", "③", "④"]  # ③ was printed twice

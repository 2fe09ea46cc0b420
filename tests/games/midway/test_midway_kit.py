"""Midway's own kit pages: plan sheet, carrier areas, card space, aid, reduced backs."""

from __future__ import annotations

import re

import pytest
from warpress.components.impose import MIN_TEXT
from warpress.components.kit import build_kit, kit_pages, parse_options
from warpress.components.primitives import Group, Rect, Text, walk
from warpress.engine.loader import builtin

GAME = builtin("midway")


def _pages(part: str, paper: str = "a4"):
    return kit_pages(GAME, parse_options(paper, "pdf", "long", "0,0", part))


def _groups(items, prefix: str) -> dict[str, Group]:
    return {g.id: g for g in walk(items) if isinstance(g, Group) and g.id
            and g.id.startswith(prefix)}


@pytest.fixture(scope="module")
def sheets():
    return _pages("sheets")


@pytest.fixture(scope="module")
def maps():
    return _pages("map")


def test_plan_sheet_has_seven_turns_each_with_a_whole_small_map(sheets):
    plan = next(p for p in sheets if p.id == "plan-sheet")
    turns = {k: g for k, g in _groups(plan.items, "plan-turn-").items()
             if k.count("-") == 2}
    assert sorted(turns) == [f"plan-turn-{t}" for t in range(1, 8)]
    hexes = set(GAME.hex_map().hex_ids)
    for t, block in turns.items():
        drawn = {s.id.removeprefix(f"{t}-hex-") for s in walk(block.items)
                 if s.id and s.id.startswith(f"{t}-hex-")}
        assert drawn == hexes
        edges = [x for x in walk(block.items) if isinstance(x, Text)
                 and x.cls in ("plan-col", "plan-row")]
        cols = [x.text for x in edges if x.cls == "plan-col"]
        rows = [x.text for x in edges if x.cls == "plan-row"]
        assert cols == list(GAME.hex_map().columns.all_labels())
        assert rows == list(GAME.hex_map().rows.all_labels())
        assert all(x.size >= MIN_TEXT for x in walk(block.items) if isinstance(x, Text))


def test_plan_sheet_marks_midway_and_entry_hexes_and_allowances(sheets):
    plan = next(p for p in sheets if p.id == "plan-sheet")
    shapes = {s.id: s for s in walk(plan.items) if s.id}
    assert "island" in shapes["plan-turn-1-hex-F-6"].cls
    for h in ("A-1", "A-2", "A-3", "A-4", "A-5", "A-6"):
        assert "entry" in shapes[f"plan-turn-5-hex-{h}"].cls
    paths = {t: next(x.text for x in walk(shapes[f"plan-turn-{t}"].items)
                     if isinstance(x, Text) and x.cls == "plan-path") for t in (1, 4)}
    assert paths[1].count("______") == GAME.constant("move-us-fleet") + 1
    assert paths[4].count("______") == GAME.constant("night-move-us-fleet") + 1


def test_plan_sheet_reminders_come_from_the_sheet_data(sheets):
    plan = next(p for p in sheets if p.id == "plan-sheet")
    text = " ".join(x.text for x in walk(plan.items) if isinstance(x, Text))
    assert "Surface battle 水上戦" in text and "米艦隊の移動" in text
    battle = GAME.table("surface-battle")
    hits = {str(battle.result(r)["hits_on_us"]) for r in battle.rows}
    cells = _groups(plan.items, "plan-surface-battle")["plan-surface-battle"]
    assert hits <= {x.text for x in walk(cells.items) if isinstance(x, Text)}


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_plan_sheet_fits_one_page(paper):
    plan = next(p for p in _pages("sheets", paper) if p.id == "plan-sheet")
    last = _groups(plan.items, "plan-turn-7")["plan-turn-7"]
    assert last.dy + 70 < plan.height


def test_generic_plan_sheet_is_replaced_and_the_aid_has_every_phase(sheets):
    ids = [p.id for p in sheets]
    assert not any(i.startswith("sheet-us-movement-plan") for i in ids)
    aid = [p for p in sheets if p.id.startswith("sheets-and-play-aids")]
    drawn = set()
    for page in aid:
        drawn |= set(_groups(page.items, "sop-"))
    assert drawn == {f"sop-{p.id}" for p in GAME.sequence}
    tables = set()
    for page in aid:
        tables |= set(_groups(page.items, "table-"))
    assert tables == {f"table-{t.id}" for t in GAME.tables}  # each table once, with the aids


def test_carrier_areas_draw_every_box_and_every_arrow(maps):
    items = [x for p in maps for x in p.items]
    shapes = {s.id: s for s in walk(items) if s.id}
    arrows = [g for g in walk(items) if isinstance(g, Group) and g.cls
              and g.cls.startswith("carrier-arrow")]
    drawn = {token for g in arrows for token in g.cls.split()[1:]}
    for display in GAME.displays:
        for box in display.boxes:
            assert f"box-{display.id}-{box.id}" in shapes
        if any(b.group for b in display.boxes):
            assert f"carrier-area-{display.id}" in shapes
            assert {f"{a.from_}--{a.to}" for a in display.arrows} <= drawn


def test_decks_have_two_boxes_and_the_base_runway_three(maps):
    items = [x for p in maps for x in p.items]
    rects = [s for s in walk(items) if isinstance(s, Rect) and s.cls
             and "carrier-box" in s.cls]
    decks = [r for r in rects if r.cls.endswith("deck")]
    runways = [r for r in rects if r.cls.endswith("runway")]
    carriers = GAME.extra["carriers"]
    assert len(decks) == 2 * len(carriers) and len(runways) == 3
    assert len([r for r in rects if r.cls.endswith("hangar")]) == len(carriers) + 1


def test_event_card_space_is_card_sized(maps):
    items = [x for p in maps for x in p.items]
    piles = [s for s in walk(items) if isinstance(s, Rect)
             and "card-space" in (s.cls or "").split()]
    assert len(piles) == 2
    assert all((r.w, r.h) == (63.0, 88.0) for r in piles)


def test_two_step_aircraft_show_the_reduced_side_on_the_back():
    pages = _pages("counters")
    backs = _groups([x for p in pages if p.id.endswith("-back") for x in p.items], "counter-")
    fronts = _groups([x for p in pages if not p.id.endswith("-back") for x in p.items],
                     "counter-")  # a small sheet flows with the aids, its backs after it
    expected = sum(u.count or 1 for u in GAME.units) + sum(m.count or 1 for m in GAME.markers)
    assert len(fronts) == expected
    for unit in GAME.units:
        back = backs.get(f"counter-{unit.id}-1-back")
        if unit.steps != 2:
            continue
        texts = [x.text for x in walk(back.items) if isinstance(x, Text)]
        assert any(s.cls == "counter-back reduced" for s in walk(back.items)), unit.id
        value = next(iter(v for v in unit.stats.values() if isinstance(v, int)
                          and not isinstance(v, bool)))
        assert any(str(value) in t for t in texts)
        assert any(s.cls == "reduced-band" for s in walk(back.items))


@pytest.mark.parametrize("paper", ["letter", "a3"])
def test_the_whole_kit_builds_on_other_papers(paper):
    pages = kit_pages(GAME, parse_options(paper, "pdf", "long", "0,0", None))
    assert any(p.id == "plan-sheet" for p in pages)


def test_built_svgs_have_unique_ids(tmp_path):
    kit = build_kit(GAME, tmp_path, parse_options("a4", "svg", "long", "0,0", None))
    for path in kit.files:
        ids = re.findall(r' id="([^"]+)"', path.read_text(encoding="utf-8"))
        assert len(ids) == len(set(ids)), path.name


def test_event_cards_say_what_the_rules_say_not_an_apology():
    for number in (5, 6, 8):
        card = next(c for c in GAME.cards if c.number == number)
        assert "not given in the rules" not in card.text
        assert "12.3(2)" in card.text and "12.3(2)" in card.rule
        move = next(r for r in GAME.table("solitaire-move").rows
                    if GAME.table("solitaire-move").conditions(r)["card"] == number)
        what = {"toward": "toward", "stay": "does not move", "reshuffle": "shuffle"}
        assert what[move.extra["move"]] in card.text

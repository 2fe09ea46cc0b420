"""The referee session maps (games/nightfighter/referee_view.py), from views built by hand
per the contract (engine/referee.py), without the referee rules module."""

from __future__ import annotations

import copy
import math
import struct
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from warpress.components.fonts import text_width
from warpress.components.primitives import Circle, Group, Polygon, Text, walk
from warpress.engine.errors import BadInput
from warpress.engine.loader import builtin
from warpress.games.nightfighter import referee_view as rv
from warpress.games.nightfighter.kit import radio_beacon_box
from warpress.games.nightfighter.rules.common import grid

SVG = "{http://www.w3.org/2000/svg}"
GAME = builtin("nightfighter")
HEXES = sorted(GAME.hex_map().hex_ids)


def fighter(ident, hex_id, facing=0, status="on-map", hits=0, damage=1, unit="bf110g-4"):
    return {"id": ident, "unit": unit, "hex": hex_id, "facing": facing, "status": status,
            "hits": hits, "damage": damage, "mp": 3, "dives_left": 0, "dazzled": False,
            "moved": False, "attacked": False}


def bomber(ident, hex_id, status="on-map", unit="lancaster", facing=3):
    return {"id": ident, "unit": unit, "kind": "bomber", "hex": hex_id, "facing": facing,
            "hits": 0, "damage": 3, "alert": False, "status": status}


def base_view(**changes) -> dict:
    view = {
        "game": "nightfighter", "scenario": "test-night", "title": "Test night テストの夜",
        "turn": 2, "turns": 12, "phase": "fighter-movement",
        "awaiting": ["move", "search", "end-turn"],
        "environment": {"moon": "half", "visibility": "average", "range": 1, "lit_range": 3,
                        "clouds": "clear", "altitude": "normal"},
        "fighters": [fighter("F1", "0912", 3), fighter("F2", "0912", 1, hits=1, damage=2),
                     fighter("F3", None, 0, status="beacon-box"),
                     fighter("F4", None, 0, status="shot-down")],
        "counters": [{"radar": "freya", "hex": "0710", "contact": True,
                      "sweeps": ["0811", "0611"]},
                     {"radar": "wurzburg", "hex": "1215", "contact": False, "sweeps": []}],
        "markers": [{"kind": "sighting", "hex": "0913", "facing": 3, "fighter": "F1",
                     "zone": None},
                    {"kind": "ai-contact", "hex": "0914", "facing": 2, "fighter": "F2",
                     "zone": None},
                    {"kind": "captured", "hex": "0915", "facing": 3, "fighter": None,
                     "zone": "C"}],
        "searchlights": [{"zone": "C", "hex": "0915", "kind": "capture"},
                         {"zone": "A", "hex": "0306", "kind": "search"}],
        "zones": ["A", "C"],
        "score": {"shot_down": 1, "exited": 0},
        "announcements": [{"turn": 2, "phase": "radar", "text": "Freya search at 0710: contact.",
                           "rules": ["13.1"], "data": {}}],
        "over": False, "summary": None,
    }
    view.update(changes)
    return view


def referee_view(**changes) -> dict:
    return base_view(bombers=[bomber("231", "0913"), bomber("244", "1404", unit="halifax"),
                              bomber("245", None, status="exited"),
                              bomber("246", None, status="shot-down"),
                              bomber("247", None, status="pool")],
                     chit_face="red", chits_drawn=["3"], **changes)


def pieces(svg: bytes) -> dict[str, ET.Element]:
    """Every drawn piece of the view by element id."""
    root = ET.fromstring(svg)
    return {e.get("id"): e for e in root.iter(f"{SVG}g")
            if "piece" in (e.get("class") or "").split()}


def texts(element: ET.Element) -> list[str]:
    return [t.text or "" for t in element.iter(f"{SVG}text")]


def expected_pieces(view: dict, referee: bool = False) -> dict[str, str]:
    """id -> where (hex or beacon-box) of what the view puts on the map."""
    out = {}
    for f in view["fighters"]:
        if f["status"] == "on-map":
            out[f"fighter-{f['id']}"] = f["hex"]
        elif f["status"] == "beacon-box":
            out[f"fighter-{f['id']}"] = "beacon-box"
    for i, c in enumerate(view["counters"], 1):
        out[f"counter-{i}-{c['radar']}"] = c["hex"]
        for j, h in enumerate(c["sweeps"], 1):
            out[f"sweep-{i}-{j}-{c['radar']}"] = h
    for i, m in enumerate(view["markers"], 1):
        out[f"marker-{i}-{m['kind']}"] = m["hex"]
    for i, s in enumerate(view["searchlights"], 1):
        out[f"searchlight-{i}-{s['zone']}"] = s["hex"]
    if referee:
        for b in view["bombers"]:
            if b["status"] == "on-map":
                out[f"bomber-{b['id']}"] = b["hex"]
    return out


def assert_drawn_exactly(view: dict, referee: bool = False) -> bytes:
    svg = rv.map_svg(GAME, view, referee)
    drawn = pieces(svg)
    expected = expected_pieces(view, referee)
    assert set(drawn) == set(expected)
    for ident, where in expected.items():
        assert f"at-{where}" in drawn[ident].get("class").split()
    return svg


# --- what is drawn -----------------------------------------------------------------------


def test_every_item_of_the_view_is_drawn_and_nothing_else():
    view = base_view()
    drawn = pieces(assert_drawn_exactly(view))
    assert "F1" in texts(drawn["fighter-F1"]) and "1/2" in texts(drawn["fighter-F2"])
    assert "Freya" in texts(drawn["counter-1-freya"])
    assert "Würzburg" in texts(drawn["counter-2-wurzburg"])
    assert "F1" in texts(drawn["marker-1-sighting"])
    assert "zone C" in texts(drawn["marker-3-captured"])
    assert "A" in texts(drawn["searchlight-2-A"])
    assert not [i for i in drawn if i.startswith("bomber-")]


def test_radar_contact_is_drawn_differently_from_no_contact():
    drawn = pieces(rv.map_svg(GAME, base_view()))
    yes, no = drawn["counter-1-freya"], drawn["counter-2-wurzburg"]
    assert "contact" in yes.get("class").split() and "no-contact" in no.get("class").split()
    assert "CONTACT" in texts(yes) and "no contact" in texts(no)
    frame_yes, frame_no = yes.find(f"{SVG}rect"), no.find(f"{SVG}rect")
    assert frame_yes.get("stroke") != frame_no.get("stroke")
    assert frame_no.get("stroke-dasharray") and not frame_yes.get("stroke-dasharray")


def test_off_map_and_shot_down_fighters_are_listed_not_drawn():
    view = base_view(fighters=[fighter("F7", None, status="off-map"),
                               fighter("F8", None, status="shot-down")])
    svg = assert_drawn_exactly(view)
    assert not [i for i in pieces(svg) if i.startswith("fighter-")]
    side = ET.fromstring(svg).find(f".//{SVG}g[@id='panel-fighters']")
    lines = " ".join(texts(side))
    assert "F7" in lines and "off-map" in lines and "F8" in lines and "shot-down" in lines


def test_beacon_box_fighters_are_drawn_inside_the_box():
    view = base_view(fighters=[fighter(f"F{i}", None, i % 6, status="beacon-box")
                               for i in range(1, 5)])
    page = rv.map_page(GAME, view)
    geo = rv.map_geometry(GAME, "player")[0]
    box = radio_beacon_box(geo)
    x, y, w, h = box.rect
    discs = [next(c for c in g.items if isinstance(c, Circle)) for g in walk(page.items)
             if isinstance(g, Group) and g.id and g.id.startswith("fighter-")]
    assert len(discs) == 4
    for disc in discs:
        assert x <= disc.cx - disc.r and disc.cx + disc.r <= x + w
        assert y <= disc.cy - disc.r and disc.cy + disc.r <= y + h
    for a in discs:
        for b in discs:
            assert a is b or math.dist((a.cx, a.cy), (b.cx, b.cy)) >= a.r + b.r
    captions = [t.text for t in walk(page.items)
                if isinstance(t, Text) and t.cls == "beacon-box-caption"]
    assert captions == [box.feature.name, box.feature.name_ja] == [
        "Radio beacon box", "無線ビーコンボックス"]


@pytest.mark.parametrize("facing", range(6))
def test_the_nose_points_to_the_neighbour_the_fighter_faces(facing):
    hexes = grid(GAME)
    view = base_view(fighters=[fighter("F1", "0812", facing)], counters=[], markers=[],
                     searchlights=[])
    page = rv.map_page(GAME, view)
    piece = next(g for g in walk(page.items) if isinstance(g, Group) and g.id == "fighter-F1")
    disc = next(c for c in piece.items if isinstance(c, Circle))
    tip = next(p for p in piece.items if isinstance(p, Polygon)).points[0]
    geo = rv.map_geometry(GAME, "player")[0]
    index = {h: (c, r) for h, c, r in geo.cells()}
    ax, ay = geo.centre(*index["0812"])
    bx, by = geo.centre(*index[hexes.neighbour_in_direction("0812", facing)])
    nose = (tip[0] - disc.cx, tip[1] - disc.cy)
    cos = (nose[0] * (bx - ax) + nose[1] * (by - ay)) / math.hypot(*nose) / math.hypot(bx - ax,
                                                                                        by - ay)
    assert cos > 0.999


@pytest.mark.parametrize("n", range(1, 10))
def test_stacked_pieces_in_one_hex_do_not_overlap(n):
    offsets, d = rv.slots(n, 10.0)
    assert d >= 3.5  # millimetres: still readable with nine in a hex
    for i, a in enumerate(offsets):
        assert math.hypot(*a) < 10.0  # inside the hex's circumcircle
        for b in offsets[i + 1:]:
            assert max(abs(a[0] - b[0]), abs(a[1] - b[1])) >= d


def test_a_crowded_hex_keeps_its_id_visible():
    view = base_view(fighters=[fighter(f"F{i}", "1010", i % 6) for i in range(1, 6)],
                     counters=[], markers=[], searchlights=[])
    svg = assert_drawn_exactly(view)
    tags = [g for g in ET.fromstring(svg).iter(f"{SVG}g")
            if "hex-tag" in (g.get("class") or "").split()]
    assert [texts(g) for g in tags] == [["1010"]]


def test_header_and_announcements():
    long = ("Zone C searchlights capture an aircraft in hex 0915; it is lit for the rest of the "
            "turn and every fighter within lit range may try to sight it. ") * 3
    view = base_view(announcements=[{"turn": 2, "phase": "searchlights", "text": long,
                                     "rules": ["14.3"], "data": {}}])
    page = rv.map_page(GAME, view)
    all_text = " ".join(t.text for t in walk(page.items) if isinstance(t, Text))
    assert "Test night テストの夜" in all_text and "Turn 2 of 12" in all_text
    assert "fighter-movement" in all_text and "moon half" in all_text
    side = next(g for g in walk(page.items) if isinstance(g, Group) and g.id == "map-side")
    panel_w = page.width - side.dx - rv.PAD
    lines = [t for t in walk(side.items) if isinstance(t, Text)
             and t.cls == "announcements-line"]
    assert len(lines) > 3
    assert all(text_width(t.text, t.size) <= panel_w for t in lines)
    joined = " ".join(t.text for t in lines)
    assert "within lit range" in joined and "[14.3]" in joined


# --- player map and referee map ------------------------------------------------------------


def test_player_map_ignores_bombers_even_when_the_view_has_them():
    with_bombers = referee_view()
    svg = rv.map_svg(GAME, with_bombers)
    assert svg == rv.map_svg(GAME, base_view())
    words = " ".join(texts(ET.fromstring(svg)))
    for word in ("231", "244", "Lancaster", "Halifax", "REFEREE", "chit"):
        assert word not in words
    assert "bomber" not in svg.decode()


def test_referee_map_shows_bombers_and_says_so():
    view = referee_view()
    svg = assert_drawn_exactly(view, referee=True)
    drawn = pieces(svg)
    assert "231" in texts(drawn["bomber-231"])
    for gone in ("245", "246", "247"):
        assert f"bomber-{gone}" not in drawn
    root = ET.fromstring(svg)
    title = root.find(f".//{SVG}text[@class='map-title']").text
    assert title.startswith("REFEREE MAP — do not show the player")
    listed = " ".join(texts(root.find(f".//{SVG}g[@id='panel-bombers']")))
    for line in ("245 Lancaster (bomber) exited", "246 Lancaster (bomber) shot-down",
                 "247 Lancaster (bomber) pool", "231 Lancaster (bomber) at 0913 facing S (3)",
                 "Entry chit face: red"):
        assert line in listed
    fighter_fill = drawn["fighter-F1"].find(f"{SVG}circle").get("fill")
    assert drawn["bomber-231"].find(f"{SVG}circle").get("fill") != fighter_fill


def test_referee_map_needs_the_bombers():
    with pytest.raises(BadInput, match="bombers"):
        rv.map_svg(GAME, base_view(), referee=True)


# --- output ------------------------------------------------------------------------------


def test_same_view_same_bytes():
    view = referee_view()
    assert rv.map_svg(GAME, view) == rv.map_svg(GAME, copy.deepcopy(view))
    assert rv.map_svg(GAME, view, True) == rv.map_svg(GAME, copy.deepcopy(view), True)


@pytest.mark.parametrize("referee", [False, True])
def test_png_signature_size_and_same_bytes(referee):
    view = referee_view()
    png = rv.map_png(GAME, view, referee, dpi=30)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    page = rv.map_page(GAME, view, referee)
    assert abs(width - page.width / 25.4 * 30) <= 1
    assert abs(height - page.height / 25.4 * 30) <= 1
    assert png == rv.map_png(GAME, copy.deepcopy(view), referee, dpi=30)


@pytest.mark.parametrize("dpi", [9, 601, 1.5])
def test_png_dpi_out_of_range_is_one_clear_line(dpi):
    with pytest.raises(BadInput, match=f"dpi {dpi!r} is not a whole number from 10 to 600"):
        rv.map_png(GAME, base_view(), dpi=dpi)


def test_png_dpi_is_checked():
    with pytest.raises(BadInput, match="dpi 0"):
        rv.map_png(GAME, base_view(), dpi=0)


# --- bad views ---------------------------------------------------------------------------


def _without(key):
    view = base_view()
    del view[key]
    return view


def _changed(path, value):
    view = base_view()
    record = view
    for step in path[:-1]:
        record = record[step]
    record[path[-1]] = value
    return view


@pytest.mark.parametrize("view, words", [
    (_without("fighters"), ["fighters", "missing"]),
    (_without("environment"), ["environment", "missing"]),
    (_changed(("fighters", 0, "hex"), "9999"), ["fighters[0].hex", "'9999'"]),
    (_changed(("fighters", 0, "hex"), None), ["fighters[0].hex", "None"]),
    (_changed(("fighters", 1, "facing"), 6), ["fighters[1].facing", "6"]),
    (_changed(("fighters", 0, "status"), "flying"), ["fighters[0].status", "'flying'"]),
    (_changed(("counters", 0, "hex"), "0100"), ["counters[0].hex", "'0100'"]),
    (_changed(("counters", 0, "sweeps"), ["0811", "1928"]), ["counters[0].sweeps[1]", "1928"]),
    (_changed(("counters", 1, "contact"), "yes"), ["counters[1].contact", "'yes'"]),
    (_changed(("markers", 2, "hex"), "0128"), ["markers[2].hex", "'0128'"]),
    (_changed(("markers", 0, "kind"), "bomber"), ["markers[0].kind", "'bomber'"]),
    (_changed(("searchlights", 0, "hex"), 915), ["searchlights[0].hex", "915"]),
    (_changed(("fighters",), "F1"), ["fighters", "list"]),
    (_changed(("announcements", 0, "text"), "smile \U0001F600"), ["smile", "font"]),
])
def test_bad_view_names_the_key_and_value(view, words):
    with pytest.raises(BadInput) as caught:
        rv.map_svg(GAME, view)
    message = str(caught.value)
    assert "\n" not in message
    for word in words:
        assert word in message


def test_not_a_view():
    with pytest.raises(BadInput, match="expected an object"):
        rv.map_svg(GAME, ["fighters"])


# --- generated views ---------------------------------------------------------------------

hex_ids = st.sampled_from(HEXES)
facings = st.integers(0, 5)


@st.composite
def views(draw, referee: bool = False):
    n_fighters = draw(st.integers(0, 6))
    fighters = [fighter(f"F{i + 1}", draw(hex_ids), draw(facings),
                        hits=draw(st.integers(0, 3)), damage=draw(st.integers(1, 3)))
                for i in range(n_fighters)]
    for f in fighters:
        status = draw(st.sampled_from(rv.FIGHTER_STATUSES))
        f["status"] = status
        if status != "on-map":
            f["hex"] = None
    counters = [{"radar": draw(st.sampled_from(["freya", "wurzburg", "gci", "mew"])),
                 "hex": draw(hex_ids), "contact": draw(st.booleans()),
                 "sweeps": draw(st.lists(hex_ids, max_size=3))}
                for _ in range(draw(st.integers(0, 3)))]
    markers = [{"kind": draw(st.sampled_from(sorted(rv.MARKER_STYLES))), "hex": draw(hex_ids),
                "facing": draw(st.one_of(st.none(), facings)),
                "fighter": draw(st.sampled_from([None, "F1", "F2"])),
                "zone": draw(st.sampled_from([None, "A", "C"]))}
               for _ in range(draw(st.integers(0, 4)))]
    lights = [{"zone": draw(st.sampled_from("ABCDEFN")), "hex": draw(hex_ids),
               "kind": draw(st.sampled_from(rv.SEARCHLIGHT_KINDS))}
              for _ in range(draw(st.integers(0, 3)))]
    view = base_view(fighters=fighters, counters=counters, markers=markers,
                     searchlights=lights)
    if referee:
        statuses = st.sampled_from(("on-map", "on-map", "pool", "exited", "shot-down"))
        bombers = []
        for i in range(draw(st.integers(0, 6))):
            status = draw(statuses)
            bombers.append(bomber(str(300 + i), draw(hex_ids) if status == "on-map" else None,
                                  status=status, facing=draw(facings)))
        view["bombers"] = bombers
    return view


@settings(max_examples=30, deadline=None)
@given(views())
def test_generated_player_views_draw_every_item_and_the_same_bytes(view):
    svg = assert_drawn_exactly(view)
    assert svg == rv.map_svg(GAME, copy.deepcopy(view))


@settings(max_examples=30, deadline=None)
@given(views(referee=True))
def test_generated_referee_views_draw_every_bomber_and_hide_them_from_the_player(view):
    svg = assert_drawn_exactly(view, referee=True)
    assert svg == rv.map_svg(GAME, copy.deepcopy(view), True)
    player = rv.map_svg(GAME, view)
    without = {k: v for k, v in view.items() if k != "bombers"}
    assert player == rv.map_svg(GAME, without)
    assert not [i for i in pieces(player) if i.startswith("bomber-")]


def test_pieces_are_not_drawn_outside_the_grid_group():
    page = rv.map_page(GAME, base_view())
    grid_group = next(g for g in page.items if isinstance(g, Group) and g.id == "player-map-grid")
    inside = {g.id for g in walk(grid_group.items) if isinstance(g, Group) and g.cls
              and "piece" in g.cls.split()}
    everywhere = {g.id for g in walk(page.items) if isinstance(g, Group) and g.cls
                  and "piece" in g.cls.split()}
    assert inside == everywhere == set(expected_pieces(base_view()))

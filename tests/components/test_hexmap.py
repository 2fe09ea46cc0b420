"""Hex maps: terrain, hexsides, point symbols and overlays drawn as the data declares them,
with a legend of everything drawn."""

from __future__ import annotations

import itertools
import math

import pytest
from warpress.components.hexmap import (
    COLOURS,
    TERRAIN,
    HexGeometry,
    TerrainStyle,
    hex_map_drawing,
)
from warpress.components.primitives import Circle, Group, Line, Polygon, Text, walk
from warpress.engine.errors import BadInput
from warpress.engine.loader import builtin
from warpress.engine.model import Axis, Feature, FrozenDict, HexMap

EXTRA = ("terrain", "hexsides", "symbol", "color", "line")


def feature(**kw) -> Feature:
    extra = {k: kw.pop(k) for k in list(kw) if k in EXTRA}
    return Feature(extra=FrozenDict(extra), **kw)


def field(*features: Feature, terrain: str | None = None) -> HexMap:
    return HexMap(id="field", name="Field", columns=Axis(count=5, labels="letters"),
                  rows=Axis(count=4), hex_id="{col}-{row}", hex_size_mm=20, terrain=terrain,
                  features=features)


WOODS = feature(id="forest", kind="terrain", terrain="woods", hexes=("B-2", "B-3"))
PEAKS = feature(id="alps", kind="terrain", terrain="mountains", hexes=("C-1",))


def drawn(hex_map: HexMap, **kw):
    items, _w, _h = hex_map_drawing(hex_map, **kw)
    return list(walk(items))


def by_id(items, prefix: str):
    return {i.id: i for i in items if i.id and i.id.startswith(prefix)}


def legend_text(items) -> str:
    legend = next(i for i in items if isinstance(i, Group) and i.cls == "map-legend")
    return " ".join(t.text for t in walk(legend.items) if isinstance(t, Text))


def test_terrain_fills_and_textures_every_hex_as_declared():
    items = drawn(field(WOODS, PEAKS))
    hexes = by_id(items, "hex-")
    assert len(hexes) == 20
    for hex_id, hex_ in hexes.items():
        name = {"hex-B-2": "woods", "hex-B-3": "woods", "hex-C-1": "mountains"}.get(hex_id,
                                                                                   "clear")
        assert hex_.style.fill == TERRAIN[name].fill, hex_id
        assert f"terrain-{name}" in hex_.cls.split()
    textures = [i for i in items if isinstance(i, Group) and (i.cls or "").startswith("texture")]
    assert sorted(t.cls for t in textures) == ["texture peaks", "texture trees", "texture trees"]
    legend = legend_text(items)
    for name in ("clear", "woods", "mountains"):
        assert TERRAIN[name].label in legend


def test_a_style_section_terrain_replaces_the_default_look():
    look = TerrainStyle("#00aa00", "dots", "Forest")
    items = drawn(field(WOODS), terrain={"woods": look})
    assert by_id(items, "hex-B-2")["hex-B-2"].style.fill == "#00aa00"
    assert "Forest" in legend_text(items)


def test_the_map_terrain_fills_hexes_no_feature_names():
    items = drawn(field(WOODS, terrain="sea"))
    assert by_id(items, "hex-A-1")["hex-A-1"].style.fill == TERRAIN["sea"].fill


def test_a_terrain_without_a_style_stops_the_build_naming_it():
    with pytest.raises(BadInput, match="terrain 'lava' has no style"):
        drawn(field(feature(id="x", kind="terrain", terrain="lava", hexes=("A-1",))))


def test_a_hexside_is_drawn_on_the_edge_its_two_hexes_share():
    hex_map = field(feature(id="brook", kind="river", hexsides=("B-2/B-3", "B-3/C-3")))
    items = drawn(hex_map)
    geo = HexGeometry.of(hex_map)
    index = geo.index()
    lines = [i for i in walk([by_id(items, "feature-brook")["feature-brook"]])
             if isinstance(i, Line)]
    assert len(lines) == 2
    for line, (a, b) in zip(lines, (("B-2", "B-3"), ("B-3", "C-3")), strict=True):
        shared = ({(round(x, 3), round(y, 3)) for x, y in geo.corners(*index[a])}
                  & {(round(x, 3), round(y, 3)) for x, y in geo.corners(*index[b])})
        ends = {(round(line.x1, 3), round(line.y1, 3)), (round(line.x2, 3), round(line.y2, 3))}
        assert ends == shared
    assert "river" in by_id(items, "feature-brook")["feature-brook"].cls.split()


def test_a_hexside_between_hexes_that_do_not_touch_stops_the_build():
    with pytest.raises(BadInput, match="hexside A-1/C-3: A-1 and C-3 are not neighbours"):
        drawn(field(feature(id="brook", kind="river", hexsides=("A-1/C-3",))))


def test_point_features_get_their_symbol_in_each_hex_and_a_legend_entry():
    items = drawn(field(feature(id="paris", kind="city", name="Paris", hexes=("C-2",)),
                        feature(id="brest", kind="port", name="Brest", hexes=("A-3", "A-4"))))
    symbols = by_id(items, "symbol-")
    assert set(symbols) == {"symbol-paris-C-2", "symbol-brest-A-3", "symbol-brest-A-4"}
    assert symbols["symbol-paris-C-2"].cls == "point-symbol city"
    assert symbols["symbol-brest-A-4"].cls == "point-symbol port"
    assert "Paris" in legend_text(items) and "Brest" in legend_text(items)
    labels = {t.text for t in items if isinstance(t, Text) and "feature-label" in (t.cls or "")}
    assert labels == {"Paris", "Brest"}


def test_features_of_one_kind_drawn_alike_share_one_legend_entry():
    """Two cities, each named on the map: the legend names the symbol once, by its kind."""
    items = drawn(field(feature(id="paris", kind="city", name="Paris", hexes=("C-2",)),
                        feature(id="lyon", kind="city", name="Lyon", hexes=("A-3",)),
                        feature(id="brest", kind="port", name="Brest", hexes=("A-4",))))
    legend = legend_text(items)
    assert "City" in legend and "Paris" not in legend and "Lyon" not in legend
    assert "Brest" in legend  # a kind drawn once keeps its feature's name


def test_an_unknown_colour_stops_the_build_naming_the_feature():
    with pytest.raises(BadInput, match="feature 'zone': color 'mauve'"):
        drawn(field(feature(id="zone", kind="zone", hexes=("A-1",), color="mauve")))


@pytest.fixture(scope="module")
def midway():
    hex_map = builtin("midway").hex_map()
    return hex_map, drawn(hex_map, game_id="midway")


def test_midway_entry_hexes_are_circled_in_the_colours_their_names_promise(midway):
    hex_map, items = midway
    features = by_id(items, "feature-")
    for feature_id, word in (("ichikokan-entry", "red"), ("invasion-force-entry", "white")):
        assert f"({word} circles)" in hex_map.feature(feature_id).name
        circles = [c for c in walk([features[f"feature-{feature_id}"]])
                   if isinstance(c, Circle) and c.style.stroke == COLOURS[word]]
        assert len(circles) == 3, feature_id


def test_midway_overlapping_areas_each_show_their_own_colour_and_line(midway):
    hex_map, items = midway
    features = by_id(items, "feature-")
    strokes = {}
    for f in hex_map.features:
        if f.kind in ("range", "zone", "start"):
            outline = [p for p in walk([features[f"feature-{f.id}"]])
                       if isinstance(p, Polygon) and p.style.stroke]
            assert outline, f.id
            strokes[f.id] = {p.style.stroke for p in outline}
    assert all(len(s) == 1 for s in strokes.values())
    assert len({next(iter(s)) for s in strokes.values()}) == len(strokes)
    dotted = features["feature-base-attack-range"]
    assert "dotted" in dotted.cls.split()
    assert strokes["base-attack-range"] == {COLOURS["red"]}


def test_midway_no_outline_runs_through_a_hex_id(midway):
    """Overlapping areas' outlines pass below the hex ids (an outline along a hex's upper
    edge is moved in past its id), so no id lies under a line."""
    from warpress.components.labels import text_box

    _hex_map, items = midway
    ids = [text_box(t) for t in items if isinstance(t, Text) and t.cls == "hex-id"]
    outlines = [p for f in by_id(items, "feature-").values() for p in walk([f])
                if isinstance(p, Polygon) and p.style.stroke and p.style.fill is None]
    assert len(ids) == 130 and len(outlines) >= 5
    crossed = set()
    for poly in outlines:
        points = (*poly.points, poly.points[0])
        for (x1, y1), (x2, y2) in itertools.pairwise(points):
            steps = max(1, int(math.dist((x1, y1), (x2, y2)) / 0.2))
            for k in range(steps + 1):
                x, y = x1 + (x2 - x1) * k / steps, y1 + (y2 - y1) * k / steps
                crossed |= {(b.x0, b.y0) for b in ids
                            if b.x0 < x < b.x1 and b.y0 < y < b.y1}
    assert not crossed


def test_midway_no_label_lies_on_an_outline(midway):
    """Feature labels keep off the areas' outlines as drawn: one that fits nowhere on one line
    breaks in two, beside the feature with a leader to it when it must."""
    from warpress.components.labels import segment_hits, text_box

    _hex_map, items = midway
    labels = [t for t in items if isinstance(t, Text) and "feature-label" in (t.cls or "")]
    outlines = [p for f in by_id(items, "feature-").values() for p in walk([f])
                if isinstance(p, Polygon) and p.style.stroke and p.style.fill is None]
    assert labels and outlines
    on = {t.text for t in labels for poly in outlines
          for a, b in itertools.pairwise((*poly.points, poly.points[0]))
          if segment_hits(text_box(t), a, b)}
    assert not on
    assert {"Midway", "ミッドウェイ"} <= {t.text for t in labels}  # the name, in two lines
    assert any(getattr(i, "cls", None) == "leader" for i in items)


def test_midway_has_a_legend_naming_every_feature(midway):
    hex_map, items = midway
    legend = legend_text(items)
    for f in hex_map.features:
        first_words = " ".join(f.name.split()[:3])
        assert first_words in legend, f.id


def test_the_games_style_section_gives_the_terrain_looks():
    from dataclasses import replace

    from warpress.components.hexmap import terrain_looks
    from warpress.engine import model

    declared = model.TerrainStyle(fill="#123456", label="Open sea 外洋")
    game = replace(builtin("midway"), style=model.GameStyle(terrain=FrozenDict(sea=declared)))
    looks = terrain_looks(game)
    assert looks["sea"] == TerrainStyle("#123456", TERRAIN["sea"].texture, "Open sea 外洋",
                                        TERRAIN["sea"].ink)
    items = drawn(game.hex_map(), terrain=looks)
    assert by_id(items, "hex-A-1")["hex-A-1"].style.fill == "#123456"
    assert "Open sea 外洋" in legend_text(items)
    assert terrain_looks(builtin("midway"))["sea"] == TERRAIN["sea"]


# --- line features (a path through hex centres) --------------------------------------------


def line_feature(**kw) -> Feature:
    path = kw.pop("path")
    base = feature(**kw)
    return Feature(id=base.id, kind=base.kind, name=base.name,
                   extra=FrozenDict({**base.extra, "path": path}))


def test_a_road_runs_through_the_centres_of_its_path_in_order():
    hex_map = field(line_feature(id="pike", kind="road", name="Pike",
                                 path=["A-1", "B-1", "C-1", "C-2"]))
    items = drawn(hex_map)
    geo = HexGeometry.of(hex_map)
    index = geo.index()
    road = by_id(items, "feature-pike")["feature-pike"]
    assert road.cls.split()[:3] == ["feature", "line", "road"]
    strokes = [i for i in walk([road]) if isinstance(i, Polygon)]
    centres = tuple(geo.centre(*index[h]) for h in ("A-1", "B-1", "C-1", "C-2"))
    assert [s.points for s in strokes] == [centres, centres]
    assert all(not s.closed and s.style.fill is None for s in strokes)
    assert {s.style.stroke for s in strokes} == {"#6e4a1e", "#d9a53f"}  # ochre on brown
    assert "Pike" in legend_text(items)


def test_a_railway_is_a_black_line_with_cross_ties_along_it():
    hex_map = field(line_feature(id="line", kind="railway", name="Railway",
                                 path=["A-2", "B-2", "C-2"]))
    items = drawn(hex_map)
    rail = by_id(items, "feature-line")["feature-line"]
    (track,) = [i for i in walk([rail]) if isinstance(i, Polygon)]
    assert track.style.stroke == "#111111"
    ties = [i for i in walk([rail]) if isinstance(i, Line)]
    length = sum(math.dist(a, b) for a, b in itertools.pairwise(track.points))
    assert len(ties) == round(length / 1.6)  # a tie every 1.6 mm
    for tie in ties:
        assert math.isclose(math.dist((tie.x1, tie.y1), (tie.x2, tie.y2)), 1.7)
    legend = next(i for i in items if isinstance(i, Group) and i.cls == "map-legend")
    swatches = [i for i in walk(legend.items) if isinstance(i, Group)
                and i.cls == "legend-swatch"]
    assert any(sum(isinstance(x, Line) for x in walk(s.items)) > 3 for s in swatches)


def test_a_line_features_declared_colour_and_line_are_drawn():
    items = drawn(field(line_feature(id="track", kind="trail", color="purple", line="dashed",
                                     path=["A-1", "A-2"])))
    (stroke,) = [i for i in walk([by_id(items, "feature-track")["feature-track"]])
                 if isinstance(i, Polygon)]
    assert stroke.style.stroke == COLOURS["purple"] and stroke.style.dash == (2.0, 1.2)


def test_a_path_hex_off_the_map_stops_the_build_naming_it():
    with pytest.raises(BadInput, match="feature 'pike': path hex 'Z-9' is not on the map"):
        drawn(field(line_feature(id="pike", kind="road", path=["A-1", "Z-9"])))

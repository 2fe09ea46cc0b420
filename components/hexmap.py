"""Hex map layout: every hex with its id, features drawn from the data.

Geometry follows the map's declared orientation and offset (Red Blob Games'
offset coordinates): flat-topped columns or pointy-topped rows, with the odd
or even ones shifted half a hex.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..engine.model import HexMap
from .primitives import Group, Polygon, Primitive, Rect, Style, Text

FEATURE_STYLES: dict[str, Style] = {
    "island": Style(fill="#9bc48a", stroke="#2f6b2f", width=0.5),
    "base": Style(fill="#9bc48a", stroke="#2f6b2f", width=0.5),
    "entry": Style(fill="#f3c1c1", stroke="#b02020", width=0.5),
    "exit": Style(fill="#d8d8f0", stroke="#303090", width=0.5),
    "range": Style(fill="#fff3c4", stroke="#c05050", width=0.3, dash=(1.5, 1.0)),
    "zone": Style(fill="#fff7d6", stroke="#a08020", width=0.4),
    "searchlight-zone": Style(fill="#fff7d6", stroke="#a08020", width=0.4),
    "start": Style(fill="#dde8f5", stroke="#204080", width=0.4),
}
DEFAULT_FEATURE = Style(fill="#eeeeee", stroke="#606060", width=0.4)
SEA = Style(fill="#f4f8fc", stroke="#5a7fa6", width=0.25)


@dataclass(frozen=True)
class HexGeometry:
    """Centres and corners of the hexes of a map, in mm from the drawing's top-left."""

    hex_map: HexMap
    size: float  # circumradius in mm

    @classmethod
    def of(cls, hex_map: HexMap, across_flats: float | None = None) -> HexGeometry:
        flats = across_flats or hex_map.hex_size_mm or 19.0
        return cls(hex_map, flats / math.sqrt(3))

    @property
    def flat(self) -> bool:
        return self.hex_map.orientation == "flat"

    def centre(self, col: int, row: int) -> tuple[float, float]:
        s, root3 = self.size, math.sqrt(3)
        shifted = (col if self.flat else row) % 2 == (0 if self.hex_map.offset.startswith("even")
                                                      else 1)
        if self.flat:
            x = s + col * 1.5 * s
            y = root3 * s / 2 + row * root3 * s + (root3 * s / 2 if shifted else 0)
        else:
            x = root3 * s / 2 + col * root3 * s + (root3 * s / 2 if shifted else 0)
            y = s + row * 1.5 * s
        return x, y

    def corners(self, col: int, row: int) -> tuple[tuple[float, float], ...]:
        cx, cy = self.centre(col, row)
        start = 0 if self.flat else 30
        return tuple((cx + self.size * math.cos(math.radians(start + 60 * i)),
                      cy + self.size * math.sin(math.radians(start + 60 * i))) for i in range(6))

    def extent(self) -> tuple[float, float]:
        """Width and height of the whole grid in mm."""
        s, root3 = self.size, math.sqrt(3)
        cols, rows = self.hex_map.columns.count, self.hex_map.rows.count
        if self.flat:
            return s * (1.5 * cols + 0.5), root3 * s * (rows + 0.5)
        return root3 * s * (cols + 0.5), s * (1.5 * rows + 0.5)

    def cells(self):
        """(hex id, col, row) for every hex, column by column."""
        cols = self.hex_map.columns.all_labels()
        rows = self.hex_map.rows.all_labels()
        for c, col_label in enumerate(cols):
            for r, row_label in enumerate(rows):
                yield self.hex_map.hex_id.format(col=col_label, row=row_label), c, r


def hex_map_drawing(hex_map: HexMap, across_flats: float | None = None,
                    game_id: str = "") -> tuple[tuple[Primitive, ...], float, float]:
    """(primitives, width, height) of the whole map at full size."""
    geo = HexGeometry.of(hex_map, across_flats)
    width, height = geo.extent()
    features_of = _features_by_hex(hex_map)
    hexes: list[Primitive] = []
    labels: list[Primitive] = []
    label_size = min(2.6, geo.size * 0.28)
    for hex_id, c, r in geo.cells():
        features = features_of.get(hex_id, [])
        style = _style_for(features)
        classes = " ".join(["hex", *(f.kind for f in features), *(f.id for f in features if f.id)])
        hexes.append(Polygon(geo.corners(c, r), style, id=f"hex-{hex_id}", cls=classes))
        cx, cy = geo.centre(c, r)
        labels.append(Text(cx, cy - geo.size * 0.55, hex_id, size=label_size, anchor="middle",
                           fill="#333333", cls="hex-id"))
    marks = list(_feature_labels(hex_map, geo))
    border = Rect(0, 0, width, height, Style(width=0.5), cls="map-border")
    return (Group(tuple(hexes), id=f"{hex_map.id}-hexes", cls=f"hexes {game_id}"),
            Group(tuple(labels), cls="hex-ids"), Group(tuple(marks), cls="features"),
            border), width, height


def _features_by_hex(hex_map: HexMap) -> dict[str, list]:
    out: dict[str, list] = {}
    for feature in hex_map.features:
        for h in feature.hexes:
            out.setdefault(h, []).append(feature)
    return out


def _style_for(features) -> Style:
    # The most specific feature (fewest hexes) gives the colour.
    if not features:
        return SEA
    feature = min(features, key=lambda f: len(f.hexes))
    return FEATURE_STYLES.get(feature.kind, DEFAULT_FEATURE)


def _feature_labels(hex_map: HexMap, geo: HexGeometry):
    index = {h: (c, r) for h, c, r in geo.cells()}
    for feature in hex_map.features:
        if not feature.hexes or len(feature.hexes) > 12:
            continue
        text = feature.label or feature.name or feature.id or feature.kind
        if feature.name_ja:
            text = f"{text} {feature.name_ja}"
        c, r = index[feature.hexes[0]]
        cx, cy = geo.centre(c, r)
        mark = "†" if feature.is_assumed else ""
        yield Text(cx, cy + geo.size * 0.2, text + mark, size=min(2.4, geo.size * 0.25),
                   anchor="middle", cls=f"feature-label {feature.kind}", bold=True)

"""Unit symbols as vector shapes: APP-6 frames with branch symbols, ship and aircraft
silhouettes, marker icons.

Everything is drawn from polygons, lines and circles (no bitmaps), so the SVG and
PDF backends draw the same shapes. ``symbol(layout, name, x, y, w, h, ink)`` returns
one group with class ``unit-symbol <name>`` fitted into the box (x, y, w, h) in mm.

- ``nato``: the APP-6 frame of the symbol's domain (land: rectangle; air: a dome;
  sea surface: a circle; subsurface: a bowl) with the branch symbol inside.
- ``silhouette``: a ship seen from the side (bow to the right) or an aircraft seen
  from above (nose up), drawn on a 100-unit grid and scaled to the box.
- ``marker``: an icon for a marker (any silhouette, or a factory, star, roundel).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from .primitives import Circle, Group, Line, Polygon, Primitive, Rect, Style, Text

Points = tuple[tuple[float, float], ...]

# --- APP-6 frames and branch symbols -------------------------------------------------------

#: Branch symbol -> domain of its frame.
NATO_DOMAIN = {
    **{name: "land" for name in (
        "infantry", "armour", "mechanised", "motorised", "artillery", "anti-tank",
        "anti-aircraft", "recon", "airborne", "marines", "engineers", "headquarters",
        "supply")},
    "fighter": "air", "bomber": "air",
    **{name: "sea" for name in ("carrier", "battleship", "cruiser", "destroyer", "transport")},
    "submarine": "subsurface",
}
#: The APP-6 letters inside air and sea frames.
NATO_LETTERS = {"fighter": "F", "bomber": "B", "carrier": "CV", "battleship": "BB",
                "cruiser": "CA", "destroyer": "DD", "transport": "AP", "submarine": "SS"}
#: Width / height of the land frame (APP-6 friendly unit).
LAND_RATIO = 1.5


def _ellipse(cx: float, cy: float, rx: float, ry: float, steps: int = 28,
             start: float = 0.0, end: float = 360.0) -> Points:
    out = []
    for i in range(steps + 1):
        a = math.radians(start + (end - start) * i / steps)
        out.append((round(cx + rx * math.cos(a), 4), round(cy + ry * math.sin(a), 4)))
    return tuple(out)


def _land_branch(name: str, w: float, h: float, pen: Style, fill: Style) -> list[Primitive]:
    """The branch symbol inside a w x h land frame whose top-left corner is (0, 0)."""
    cross: list[Primitive] = [Line(0, 0, w, h, pen), Line(0, h, w, 0, pen)]
    track = Polygon(_ellipse(w / 2, h / 2, w * 0.3, h * 0.24), pen)
    drawn: dict[str, Callable[[], list[Primitive]]] = {
        "infantry": lambda: cross,
        "armour": lambda: [track],
        "mechanised": lambda: [*cross, track],
        "motorised": lambda: [*cross, Line(w / 2, 0, w / 2, h, pen)],
        "artillery": lambda: [Circle(w / 2, h / 2, h * 0.16, fill)],
        "anti-tank": lambda: [Line(0, h, w / 2, 0, pen), Line(w / 2, 0, w, h, pen)],
        "anti-aircraft": lambda: [Polygon(_ellipse(w / 2, h, w * 0.42, h * 0.62, 20, 180, 360),
                                          pen, closed=False)],
        "recon": lambda: [Line(0, h, w, 0, pen)],
        "airborne": lambda: [*cross, *_wings(w / 2, h * 0.8, w * 0.16, h * 0.16, pen)],
        "marines": lambda: [*cross, *_anchor(w / 2, h / 2, h * 0.62, pen)],
        "engineers": lambda: _engineers(w, h, pen),
        "headquarters": lambda: [Text(w / 2, h * 0.7, "HQ", size=h * 0.55, anchor="middle",
                                      fill=pen.stroke or "#000000", bold=True)],
        "supply": lambda: [Line(0, h * 0.72, w, h * 0.72, pen)],
    }
    return drawn[name]()


def _wings(cx: float, cy: float, rx: float, ry: float, pen: Style) -> list[Primitive]:
    left = _ellipse(cx - rx, cy, rx, ry, 10, 180, 360)
    right = _ellipse(cx + rx, cy, rx, ry, 10, 180, 360)
    return [Polygon(left, pen, closed=False), Polygon(right, pen, closed=False)]


def _anchor(cx: float, cy: float, size: float, pen: Style) -> list[Primitive]:
    top, bottom = cy - size / 2, cy + size / 2
    return [Line(cx, top, cx, bottom, pen), Line(cx - size * 0.22, top + size * 0.2,
                                                 cx + size * 0.22, top + size * 0.2, pen),
            Polygon(_ellipse(cx, bottom - size * 0.3, size * 0.32, size * 0.3, 12, 0, 180),
                    pen, closed=False)]


def _engineers(w: float, h: float, pen: Style) -> list[Primitive]:
    x0, x1, y0, y1 = w * 0.25, w * 0.75, h * 0.34, h * 0.66
    return [Line(x0, y0, x1, y0, pen), Line(x0, y0, x0, y1, pen),
            Line(w / 2, y0, w / 2, y1, pen), Line(x1, y0, x1, y1, pen)]


def _frame(domain: str, w: float, h: float, pen: Style, ground: str | None) -> Primitive:
    face = Style(fill=ground, stroke=pen.stroke, width=pen.width)
    if domain == "land":
        return Rect(0, 0, w, h, face)
    if domain == "air":  # a dome: half ellipse on a straight base
        return Polygon(_ellipse(w / 2, h, w / 2, h, 24, 180, 360), face)
    if domain == "sea":
        return Circle(w / 2, h / 2, min(w, h) / 2, face)
    return Polygon(_ellipse(w / 2, 0, w / 2, h, 24, 0, 180), face)  # subsurface: a bowl


def nato_symbol(name: str, x: float, y: float, w: float, h: float, ink: str,
                ground: str | None = "#ffffff") -> Group:
    """An APP-6 symbol fitted in the box: its frame (by domain) and branch symbol."""
    domain = NATO_DOMAIN[name]
    fw, fh = _frame_size(domain, w, h)
    pen = Style(stroke=ink, width=max(0.2, fh * 0.05))
    fill = Style(fill=ink, stroke=None)
    items: list[Primitive] = [_frame(domain, fw, fh, pen, ground)]
    if domain == "land":
        items.extend(_land_branch(name, fw, fh, pen, fill))
    else:
        letters = NATO_LETTERS[name]
        size = fh * (0.5 if domain != "sea" else 0.42)
        base = fh * (0.78 if domain == "air" else 0.62 if domain == "sea" else 0.45)
        items.append(Text(fw / 2, base, letters, size=size, anchor="middle", fill=ink,
                          bold=True))
    return Group(tuple(items), dx=x + (w - fw) / 2, dy=y + (h - fh) / 2,
                 cls=f"unit-symbol {name}")


def _frame_size(domain: str, w: float, h: float) -> tuple[float, float]:
    if domain == "sea":
        side = min(w, h)
        return side, side
    ratio = LAND_RATIO if domain == "land" else 1.3
    fh = min(h, w / ratio)
    return fh * ratio, fh


# --- silhouettes ---------------------------------------------------------------------------
# Ships: side view on a 100 x 36 grid, bow to the right, waterline at y = 34.
# Aircraft: top view on a 100 x 100 grid, nose up.


def _rect(x0: float, y0: float, x1: float, y1: float) -> Points:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def _hull(top_stern: float, top_bow: float, bottom: float = 34.0) -> Points:
    return ((1.0, top_stern), (99.0, top_bow), (94.0, bottom), (5.0, bottom))


def _turret(x: float, deck: float, right: bool = True) -> list[Points]:
    barrel = (x + 4, deck - 3.2, x + 10, deck - 2.4) if right else (x - 10, deck - 3.2, x - 4,
                                                                       deck - 2.4)
    return [((x - 4, deck), (x - 3, deck - 4), (x + 3, deck - 4), (x + 4, deck)),
            _rect(*barrel)]


SHIPS: dict[str, list[Points]] = {
    "carrier": [_hull(22, 21), _rect(0, 17, 100, 21), _rect(66, 7, 74, 17), _rect(69, 1, 70.5, 7),
                _rect(75, 10, 79, 17)],
    "battleship": [_hull(25, 21), *_turret(76, 21), *_turret(66, 18), _rect(62, 17, 70, 21),
                   ((46, 3), (51, 3), (53, 10), (56, 10), (57, 21), (42, 21), (43, 10), (45, 10)),
                   _rect(35, 9, 40, 21), _rect(27, 13, 32, 22), *_turret(20, 23, right=False)],
    "cruiser": [_hull(25, 22), *_turret(78, 22), *_turret(70, 20), _rect(66, 19, 74, 22),
                _rect(52, 7, 58, 22), _rect(44, 11, 48, 22), _rect(37, 12, 41, 23),
                *_turret(22, 24, right=False)],
    "destroyer": [_hull(27, 24), *_turret(84, 24), _rect(64, 15, 72, 25), _rect(67, 8, 68.5, 15),
                  _rect(52, 17, 56, 26), _rect(44, 17, 48, 26), _rect(28, 22, 38, 26),
                  *_turret(14, 27, right=False)],
    "submarine": [((1, 29), (8, 25), (88, 25), (99, 28), (93, 32), (8, 32)),
                  ((42, 25), (44, 15), (56, 15), (60, 25)), _rect(49, 8, 50.5, 15)],
    "transport": [_hull(22, 20), _rect(28, 11, 52, 22), _rect(38, 4, 44, 11),
                  _rect(72, 5, 73.5, 21), _rect(14, 7, 15.5, 22),
                  ((73, 7), (86, 19), (85, 20), (72, 9))],
}
SHIP_BOX = (100.0, 34.0)


def _mirror(points: Points) -> Points:
    return tuple((100 - x, y) for x, y in reversed(points))


def _wing(y: float, chord: float, span: float, taper: float, sweep: float) -> Points:
    """The right half of a wing (x from 50 outwards), rounded tip, mirrored by the caller."""
    tip_x = 50 + span / 2
    tip_chord = chord * taper
    return ((50, y), (tip_x - 3, y + sweep), (tip_x, y + sweep + tip_chord * 0.3),
            (tip_x - 1, y + sweep + tip_chord), (50, y + chord))


def _both(half: Points) -> Points:
    """A shape symmetric about x = 50 from its right half (x >= 50)."""
    return half + _mirror(half)


def aircraft(*, length: float = 94, body: float = 9, wing_y: float = 30, chord: float = 15,
             span: float = 96, taper: float = 0.55, sweep: float = 3, engines: Sequence[float] = (),
             tail_span: float = 36, twin_tail: bool = False, gull: bool = False) -> list[Points]:
    """A top-view aircraft from a few proportions (all in the 100-unit grid)."""
    nose, end = (100 - length) / 2, (100 + length) / 2
    b = body / 2
    fuselage = _both(((50, nose), (50 + b * 0.6, nose + 1.5), (50 + b, nose + 9),
                      (50 + b, wing_y + chord), (50 + b * 0.35, end), (50, end)))
    wing = _both(_wing(wing_y, chord, span, taper, sweep)[1:-1] + ((50, wing_y + chord),))
    wing = ((50, wing_y), *wing)
    tail_y = end - 12
    tail = ((50, tail_y), *_both(_wing(tail_y, 8, tail_span, 0.6, 1.5)[1:-1]
                                 + ((50, tail_y + 8),)))
    shapes = [wing, fuselage, tail]
    for offset in engines:
        for x in (50 + offset, 50 - offset):
            shapes.append(_both_at(x, wing_y - 9, wing_y + chord + 3, 3.2))
    if twin_tail:
        for x in (50 + tail_span / 2 - 1, 50 - tail_span / 2 + 1):
            shapes.append(_rect(x - 1.0, tail_y - 1, x + 1.0, tail_y + 7))
    if gull:  # the cranked wing of a dive bomber: a darker crank line is not drawn; wider root
        shapes.append(_rect(50 - span * 0.18, wing_y, 50 + span * 0.18, wing_y + chord + 2))
    return shapes


def _both_at(x: float, y0: float, y1: float, half: float) -> Points:
    """An engine nacelle centred on x, rounded at the front."""
    return ((x, y0), (x + half * 0.8, y0 + 1.5), (x + half, y0 + 4), (x + half, y1),
            (x - half, y1), (x - half, y0 + 4), (x - half * 0.8, y0 + 1.5))


def _antlers(length: float) -> list[Points]:
    """The four prongs of a night fighter's nose radar (Lichtenstein), ahead of the nose."""
    nose = (100 - length) / 2
    return [_rect(x - 0.8, nose - 9, x + 0.8, nose + 1) for x in (45.5, 48.5, 51.5, 54.5)] + [
        _rect(44.5, nose - 2.2, 55.5, nose - 0.8)]


def _twin_boom() -> list[Points]:
    """A twin-boom night fighter seen from above (the P-61): a short nacelle for the crew,
    two booms running from the engines to a tailplane joining them."""
    wing = ((50, 36), *_both(_wing(36, 15, 98, 0.5, 2)[1:-1] + ((50, 51),)))
    nacelle = _both(((50, 18), (53, 20), (55, 28), (55, 62), (51, 66), (50, 66)))
    booms = [_rect(x - 2.4, 26, x + 2.4, 88) for x in (33, 67)]
    tail = _rect(30, 84, 70, 91)
    return [wing, nacelle, *booms, tail]


def _jet() -> list[Points]:
    """A twin-jet seen from above (the Me 262): no propellers, the wings swept back, an engine
    pod slung under each wing reaching well ahead of and behind it (a flat intake in front,
    tapering to the exhaust), a pointed nose and a swept tailplane."""
    wing = ((50, 36), *_both(_wing(36, 20, 96, 0.45, 14)[1:-1] + ((50, 56),)))
    fuselage = _both(((50, 7), (51.8, 10), (54, 20), (54.8, 36), (54.5, 56), (52, 84),
                      (51, 92), (50, 92)))
    pods = [((x - 3.4, 28), (x + 3.4, 28), (x + 4.4, 33), (x + 4.4, 58), (x + 2.2, 66),
             (x - 2.2, 66), (x - 4.4, 58), (x - 4.4, 33)) for x in (33, 67)]
    tail = ((50, 79), *_both(_wing(79, 9, 34, 0.55, 6)[1:-1] + ((50, 88),)))
    return [wing, fuselage, *pods, tail]


AIRCRAFT: dict[str, list[Points]] = {
    "fighter": aircraft(length=80, body=9, wing_y=30, chord=17, span=90, taper=0.55,
                        tail_span=32),
    "twin-engine": aircraft(length=88, body=8, wing_y=30, chord=14, span=96, taper=0.5,
                            engines=(18,), tail_span=34, twin_tail=True),
    "bomber": aircraft(length=92, body=10, wing_y=32, chord=15, span=98, taper=0.5,
                       engines=(19,), tail_span=38),
    "heavy-bomber": aircraft(length=90, body=10, wing_y=30, chord=14, span=100, taper=0.45,
                             engines=(15, 29), tail_span=36),
    "dive-bomber": aircraft(length=86, body=10, wing_y=30, chord=18, span=88, taper=0.6,
                            tail_span=34, gull=True),
    "torpedo-bomber": aircraft(length=92, body=10, wing_y=30, chord=16, span=94, taper=0.5,
                               tail_span=36) + [_rect(48.6, 22, 51.4, 56)],
    # German night fighters (Bf 110, He 219): twin fins and the nose radar's antlers
    "night-fighter-german": aircraft(length=80, body=8, wing_y=34, chord=14, span=96,
                                     taper=0.5, engines=(18,), tail_span=34, twin_tail=True)
    + _antlers(80),
    # Allied night fighters and intruders (Beaufighter, Mosquito): a short nose, the engines
    # reaching ahead of it, one fin
    "night-fighter-allied": aircraft(length=74, body=9, wing_y=30, chord=15, span=94,
                                     taper=0.55, tail_span=34)
    + [_both_at(x, 14, 47, 3.6) for x in (32, 68)],
    "twin-boom": _twin_boom(),
    "jet": _jet(),
}
#: National markings laid in the ground's colour over a silhouette (``MARKED``): a cross
#: (German), a ring (Allied roundel), a disc (Japanese hinomaru), one on each wing.
MARKINGS = ("cross", "ring", "disc")
#: Silhouettes with national markings: name -> (the silhouette, the marking).
MARKED: dict[str, tuple[str, str]] = {
    "night-fighter-german": ("night-fighter-german", "cross"),
    "night-fighter-allied": ("night-fighter-allied", "ring"),
    "bomber-german": ("bomber", "cross"),
    "bomber-allied": ("bomber", "ring"),
    "bomber-japanese": ("bomber", "disc"),
    "heavy-bomber-allied": ("heavy-bomber", "ring"),
    "fighter-allied": ("fighter", "ring"),
    "twin-boom-allied": ("twin-boom", "ring"),
    "jet-german": ("jet", "cross"),
}
AIRCRAFT_BOX = (100.0, 100.0)


def _extent(shapes: list[Points]) -> tuple[float, float, float, float]:
    xs = [x for s in shapes for x, _ in s]
    ys = [y for s in shapes for _, y in s]
    return min(xs), min(ys), max(xs), max(ys)


def silhouette(name: str, x: float, y: float, w: float, h: float, ink: str,
               ground: str = "#ffffff") -> Group:
    """A ship or aircraft silhouette, as large as fits the box, centred in it; a marked
    one (``MARKED``) with its national markings on the wings in ``ground``."""
    base, marking = MARKED.get(name, (name, ""))
    shapes = SHIPS.get(base) or AIRCRAFT[base]
    x0, y0, x1, y1 = _extent(shapes)
    scale = min(w / (x1 - x0), h / (y1 - y0))
    dx = x + (w - (x1 - x0) * scale) / 2 - x0 * scale
    dy = y + (h - (y1 - y0) * scale) / 2 - y0 * scale
    paint = Style(fill=ink, stroke=None)
    painted = [(s, paint) for s in shapes]
    if marking:
        painted += _markings(shapes[0], marking, ink, ground)
    items = tuple(Polygon(tuple((round(px * scale, 4), round(py * scale, 4)) for px, py in s),
                          style) for s, style in painted)
    return Group(items, dx=round(dx, 4), dy=round(dy, 4), cls=f"unit-symbol {name}")


def _markings(wing: Points, marking: str, ink: str, ground: str
              ) -> list[tuple[Points, Style]]:
    """A marking on each wing (the first shape of an aircraft), a third of the way out,
    centred on the wing's chord there (a swept wing's lies further back than its root's)."""
    xs = [px for px, _ in wing]
    span = max(xs) - min(xs)
    light, dark = Style(fill=ground, stroke=None), Style(fill=ink, stroke=None)
    out: list[tuple[Points, Style]] = []
    for cx in (50 - span * 0.33, 50 + span * 0.33):
        front, back = chord_at(wing, cx)
        cy = (front + back) / 2
        r = min((back - front) * 0.42, span * 0.07)
        if marking == "cross":
            arm = r * 0.36
            out += [(_rect(cx - r, cy - arm, cx + r, cy + arm), light),
                    (_rect(cx - arm, cy - r, cx + arm, cy + r), light)]
        else:
            out.append((_ellipse(cx, cy, r, r, 20), light))
            if marking == "ring":
                out.append((_ellipse(cx, cy, r * 0.45, r * 0.45, 16), dark))
    return out


def chord_at(wing: Points, x: float) -> tuple[float, float]:
    """Where the vertical line at ``x`` meets the wing outline: (leading, trailing) y."""
    ys = [y1 + (y2 - y1) * (x - x1) / (x2 - x1)
          for (x1, y1), (x2, y2) in zip(wing, (*wing[1:], wing[0]), strict=True)
          if x1 != x2 and min(x1, x2) <= x <= max(x1, x2)]
    return min(ys), max(ys)


# --- marker icons --------------------------------------------------------------------------


def _factory(w: float, h: float) -> list[Points]:
    base = h * 0.95
    saw = [(0.0, base), (0.0, h * 0.45)]
    for i in range(3):
        left = w * (0.0 + i * 0.22)
        saw += [(left + w * 0.22, h * 0.25), (left + w * 0.22, h * 0.45)]
    saw += [(w * 0.7, h * 0.05), (w * 0.82, h * 0.05), (w * 0.82, base)]
    return [tuple(saw)]


def _star(w: float, h: float) -> list[Points]:
    r = min(w, h) / 2
    pts = []
    for i in range(10):
        a = math.radians(-90 + 36 * i)
        rr = r if i % 2 == 0 else r * 0.4
        pts.append((round(w / 2 + rr * math.cos(a), 4), round(h / 2 + rr * math.sin(a), 4)))
    return [tuple(pts)]


ICONS: dict[str, Callable[[float, float], list[Points]]] = {"factory": _factory, "star": _star}


def marker_icon(name: str, x: float, y: float, w: float, h: float, ink: str) -> Group:
    """A marker's icon: a silhouette, a factory, a star or a roundel."""
    if name in SHIPS or name in AIRCRAFT or name in MARKED:
        return silhouette(name, x, y, w, h, ink)
    side = min(w, h)
    ox, oy = x + (w - side) / 2, y + (h - side) / 2
    if name == "roundel":
        items: tuple[Primitive, ...] = (
            Circle(side / 2, side / 2, side / 2, Style(fill=ink, stroke=None)),
            Circle(side / 2, side / 2, side * 0.3, Style(fill="#ffffff", stroke=None)))
    else:
        items = tuple(Polygon(s, Style(fill=ink, stroke=None)) for s in ICONS[name](side, side))
    return Group(items, dx=ox, dy=oy, cls=f"unit-symbol {name}")


def known_symbols(layout: str) -> tuple[str, ...]:
    """The symbol names a layout can draw."""
    if layout == "nato":
        return tuple(NATO_DOMAIN)
    if layout == "silhouette":
        return (*SHIPS, *AIRCRAFT, *MARKED)
    return (*SHIPS, *AIRCRAFT, *MARKED, *ICONS, "roundel")


def symbol(layout: str, name: str, x: float, y: float, w: float, h: float, ink: str,
           ground: str | None = "#ffffff") -> Group:
    """The symbol of ``layout`` named ``name`` fitted into the box (x, y, w, h)."""
    if layout == "nato":
        return nato_symbol(name, x, y, w, h, ink, ground)
    if layout == "silhouette":
        return silhouette(name, x, y, w, h, ink, ground or "#ffffff")
    return marker_icon(name, x, y, w, h, ink)

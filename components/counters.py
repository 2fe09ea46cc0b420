"""Counter faces in three layouts, after the conventions of hex-and-counter games.

- ``nato``: the echelon mark (``XX``) over an APP-6 frame with its branch symbol,
  small values in the top corners (set-up code, id), the factors on one line at the
  bottom in large bold figures (``4-4-6``).
- ``silhouette``: the name (and Japanese name) on top, a ship or aircraft silhouette,
  values in the corners and the factors between the bottom corners.
- ``marker``: a big word (and an icon when the style names one), the name under it.

A reduced side is the same layout with the reduced values on a paler ground and a
band (class ``reduced-band``) across the top edge. ``Face`` is what one side shows;
``draw`` lays it out. Every text is fitted with ``legibility.fit``: nothing is drawn
under the kit's minimum, and what cannot fit stops the build naming the piece.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ..engine.errors import BadInput
from ..engine.model import FontStyle, Game, Marker, Unit, Value
from .fonts import text_width
from .labels import text_box
from .legibility import MIN_FACTORS_MM, MIN_MM, fit, fit_lines, on_scale
from .marks import dagger, field_dagger
from .primitives import Primitive, Rect, Style, Text
from .style import Look, look_of, mm, side_colour, side_ink
from .symbols import SHIPS, symbol

#: A counter's side when neither the record nor the game gives one: 5/8 inch.
DEFAULT_COUNTER = 15.875
CORNERS = ("top_left", "top_right", "bottom_left", "bottom_right")
#: What a factor the unit lacks prints as among the others.
ABSENT = "0"
#: Share of the counter side kept clear at each edge ...
PAD = 0.055
#: ... and never less than this, in mm: a value a player reads survives a cut a little off
#: the line (``clearance.CUT_DIGITS_MM``).
LEAST_PAD = 1.0


def counter_size(game: Game, record: Unit | Marker) -> float:
    """The side of ``record``'s counter, mm: its own size, else the game's, else the default."""
    return record.size_mm or game.info.counter_mm or DEFAULT_COUNTER


def pad_of(size: float) -> float:
    """The room kept clear at each edge of a counter ``size`` mm wide."""
    return max(size * PAD, LEAST_PAD)


@dataclass(frozen=True)
class Face:
    """One side of a counter, resolved to texts and colours (sizes in mm)."""

    what: str
    size: float
    ground: str
    ink: str
    look: Look
    fonts: FontStyle
    name: str = ""
    subtitle: str = ""
    factors: str = ""
    corners: Mapping[str, str] = field(default_factory=dict)
    echelon: str = ""
    word: str = ""
    #: the size (mm) of the word of every marker of the family this one belongs to
    #: (``pieces.marker_word_size``, or ``family_word_size`` of faces a kit draws its own
    #: way); 0: the word as large as fits this counter
    word_size: float = 0.0
    reduced: bool = False
    cls: str = "counter-face"
    bottom_row: bool = False  # keep the bottom row free for the caller's own texts
    art_width: float = 1.0  # share of the width (from the left) a silhouette may take
    assumed: bool = False  # a printed value is assumed: a designer proof marks the counter


#: The height of a reduced side's band, as a share of the counter: a strip behind the name
#: (the texts stay readable on it) that tells the side at a glance across a table.
REDUCED_BAND = 0.18


def draw(face: Face) -> tuple[Primitive, ...]:
    """The primitives of one counter side, in the counter's own coordinates."""
    ground = _paler(face.ground) if face.reduced else face.ground
    items: list[Primitive] = [Rect(0, 0, face.size, face.size, Style(fill=ground, stroke=None),
                                   cls=face.cls)]
    if face.reduced and face.look.reduced == "band":  # under the texts, which stay readable
        items.append(Rect(0, 0, face.size, face.size * REDUCED_BAND,
                          Style(fill=face.ink, stroke=None, opacity=0.3), cls="reduced-band"))
    items.extend(LAYOUTS[face.look.layout](face))
    items.append(Rect(0.1, 0.1, face.size - 0.2, face.size - 0.2,
                      Style(fill=None, stroke=_darker(ground), width=0.2), cls="counter-edge"))
    mark = proof_mark(items, face.size, dagger(face.assumed))
    if mark is not None:  # one mark per counter: a factor line has no room for one per value
        items.append(mark)
    return tuple(items)


#: Where a designer proof's mark may go on a counter, in order: the top corners, the bottom left,
#: the middle of its sides, the bottom right (shares of its side: the mark's end and baseline).
MARK_SPOTS = ((1.0, 0.0), (0.0, 0.0), (0.0, 1.0), (1.0, 0.5), (0.0, 0.5), (1.0, 1.0))


def proof_mark(items: list[Primitive] | tuple[Primitive, ...], size: float, mark: str
               ) -> Text | None:
    """A designer proof's mark (``mark``, a dagger; None when it is empty) on a counter of
    ``size`` mm holding ``items``: in the first of ``MARK_SPOTS`` where it covers none of
    their texts, else the first."""
    if not mark:
        return None
    pad, em = pad_of(size), MIN_MM * 1.6
    wide = text_width(mark, em)
    taken = [text_box(t) for t in items if isinstance(t, Text)]
    spots = []
    for sx, sy in MARK_SPOTS:
        x = pad + wide if sx == 0.0 else size - pad if sx == 1.0 else size / 2
        y = em if sy == 0.0 else size - pad if sy == 1.0 else size / 2 + em * 0.4
        spots.append(Text(x, y, mark, size=em, anchor="end", bold=True, fill="#c00000",
                          cls="proof-mark"))
    return next((t for t in spots if not any(text_box(t).overlaps(b) for b in taken)),
                spots[0])


def _darker(colour: str, amount: float = 0.35) -> str:
    rgb = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(c * (1 - amount)):02x}" for c in rgb)


def _paler(colour: str, amount: float = 0.45) -> str:
    rgb = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(c + (255 - c) * amount):02x}" for c in rgb)


# --- pieces of a face ---------------------------------------------------------------------


def _line(face: Face, text: str, y: float, size_pt: float, width: float, *, bold: bool = False,
          cls: str | None = None, floor: float | None = None, x: float | None = None,
          anchor: str = "middle") -> tuple[Text, float]:
    """One fitted line with its baseline at ``y``; (text, size in mm)."""
    size = fit(text, mm(size_pt), width, f"counter {face.what}",
               floor if floor is not None else mm(face.fonts.minimum))
    x = face.size / 2 if x is None else x
    return Text(x, y, text, size=size, anchor=anchor, bold=bold, fill=face.ink, cls=cls), size


def _corner_items(face: Face, keys: tuple[str, ...], baseline: float, size_pt: float,
                  width: float, bold: bool = False) -> list[Primitive]:
    s, pad = face.size, pad_of(face.size)
    out: list[Primitive] = []
    for key in keys:
        text = face.corners.get(key)
        if not text:
            continue
        left = key.endswith("left")
        item, _ = _line(face, text, baseline, size_pt, width, bold=bold, cls=f"corner {key}",
                        x=pad if left else s - pad, anchor="start" if left else "end")
        out.append(item)
    return out


def _factors(face: Face, baseline: float, width: float) -> list[Primitive]:
    if not face.factors:
        return []
    size_pt = max(face.fonts.factors, face.size * 0.2 / mm(1))
    item, _ = _line(face, face.factors, baseline, size_pt, width, bold=True, cls="factors",
                    floor=max(MIN_FACTORS_MM, mm(face.fonts.factors)))
    return [item]


def _name_block(face: Face, top: float, width: float, lines: int = 2) -> tuple[list[Primitive],
                                                                                float]:
    """The name (bold, up to ``lines`` lines) and the subtitle under it; (items, bottom y)."""
    out: list[Primitive] = []
    y = top
    if face.name:
        broken, size = fit_lines(face.name, mm(face.fonts.name), width, lines,
                                 f"counter {face.what}", mm(face.fonts.minimum))
        for text in broken:
            y += size * 0.92
            out.append(Text(face.size / 2, y, text, size=size, anchor="middle", bold=True,
                            fill=face.ink, cls="name"))
            y += size * 0.12
    if face.subtitle:
        broken, size = _subtitle_lines(face, width)
        for text in broken:
            y += size * 0.95
            out.append(Text(face.size / 2, y, text, size=size, anchor="middle", fill=face.ink,
                            cls="subtitle"))
            y += size * 0.1
    return out, y


def _subtitle_lines(face: Face, width: float) -> tuple[list[str], float]:
    """The subtitle on one line, else broken after a slash (two ships' names: 長門／陸奥),
    else wrapped on two lines."""
    what, floor = f"counter {face.what}", mm(face.fonts.minimum)
    text = face.subtitle
    for slash in ("／", "/"):
        if slash in text and "\n" not in text and text_width(text, floor) > width:
            head, tail = text.split(slash, 1)
            lines = [head + slash, tail.strip()]
            size = min(fit(line, mm(face.fonts.corner), width, what, floor) for line in lines)
            return lines, size
    most = 2 + text.count("\n")  # a marker's subtitle may give its own lines
    return fit_lines(text, mm(face.fonts.corner), width, most, what, floor)


# --- the three layouts --------------------------------------------------------------------


def nato(face: Face) -> list[Primitive]:
    s, pad = face.size, pad_of(face.size)
    corner = mm(face.fonts.corner)
    items = _corner_items(face, ("top_left", "top_right"), pad + corner * 0.8,
                          face.fonts.corner, s * 0.3)
    top = pad + corner * 0.95
    if face.echelon:
        echelon, size = _line(face, face.echelon, top, face.fonts.corner, s * 0.36, bold=True,
                              cls="echelon")
        items.append(echelon)
    factor_size = max(mm(face.fonts.factors), s * 0.2)
    bottom = s - pad - factor_size * 0.9
    name_items: list[Primitive] = []
    if face.look.show_name and (face.name or face.subtitle):
        name_items, used = _name_block(replace(face, subtitle=""), 0.0, s - 2 * pad, lines=2)
        if len(name_items) == 1 and face.subtitle:  # the Japanese name where there is room
            name_items, used = _name_block(face, 0.0, s - 2 * pad, lines=1)
        shift = bottom - used
        name_items = [_moved(i, shift) for i in name_items]
        bottom -= used
    frame_top = top + s * 0.03
    height = max(bottom - frame_top - s * 0.03, s * 0.18)
    frame = "#ffffff" if face.ink == "#000000" else None  # light ink: the ground shows
    items.append(symbol("nato", face.look.symbol or "infantry", s * 0.2, frame_top, s * 0.6,
                        height, face.ink, frame))
    items.extend(name_items)
    items.extend(_corner_items(face, ("bottom_left", "bottom_right"), s - pad,
                               face.fonts.corner, s * 0.22))
    items.extend(_factors(face, s - pad - factor_size * 0.12, _factor_width(face)))
    return items


def _factor_width(face: Face) -> float:
    s, pad = face.size, pad_of(face.size)
    if face.corners.get("bottom_left") or face.corners.get("bottom_right"):
        return s * 0.5
    return s - 2 * pad


def _moved(item: Primitive, dy: float) -> Primitive:
    assert isinstance(item, Text | Rect), f"a name block holds texts and boxes, not {item!r}"
    return replace(item, y=item.y + dy)


def silhouette(face: Face) -> list[Primitive]:
    s, pad = face.size, pad_of(face.size)
    corner = mm(face.fonts.corner)
    has_top = bool(face.corners.get("top_left") or face.corners.get("top_right"))
    name_width = s - 2 * pad
    items, below = (_name_block(face, pad * 0.95, name_width) if face.look.show_name
                    else ([], pad))
    if has_top:  # over the stern of a ship (its low end), beside an aircraft's wings
        items.extend(_corner_items(face, ("top_left", "top_right"), below + corner,
                                   face.fonts.corner, s * 0.3, bold=True))
    value = max(mm(face.fonts.factors), s * 0.18)
    bottom_row = s - pad
    has_bottom = any(face.corners.get(k) for k in ("bottom_left", "bottom_right"))
    low = face.factors or has_bottom or face.bottom_row
    art_bottom = bottom_row - (value * 0.95 if low else 0) - s * 0.02
    art_top = below + s * 0.02
    name = face.look.symbol or "fighter"
    side = s * 0.26 if has_top and name not in SHIPS else pad
    items.append(symbol("silhouette", name, side, art_top,
                        s * face.art_width - 2 * side, max(art_bottom - art_top, s * 0.15),
                        face.ink, _paler(face.ground) if face.reduced else face.ground))
    items.extend(_corner_items(face, ("bottom_left", "bottom_right"), bottom_row,
                               max(face.fonts.factors, value / mm(1)), s * 0.4, bold=True))
    items.extend(_factors(face, bottom_row, _factor_width(face)))
    return items


def marker(face: Face) -> list[Primitive]:
    """The icon (if any), the word as large as fits, the subtitle under it, all between
    the corner rows; a block that does not fit even at the minimum stops the build."""
    s, pad = face.size, pad_of(face.size)
    width = s - 2 * pad
    corner = mm(face.fonts.corner) * 1.1
    items: list[Primitive] = []
    top = pad + (corner if face.corners.get("top_left") or face.corners.get("top_right")
                 else 0.0)
    bottom = s - pad - (corner if face.corners.get("bottom_left")
                        or face.corners.get("bottom_right") else 0.0)
    if face.look.symbol:
        icon_h = (bottom - top) * 0.45
        items.append(symbol("marker", face.look.symbol, pad, top, width, icon_h, face.ink))
        top += icon_h + s * 0.03
    under = face.subtitle or (face.name if face.word and face.name != face.word else "")
    under_lines, under_size = _subtitle_lines(replace(face, subtitle=under), width
                                              ) if under else ([], 0.0)
    lines, size = _word_lines(face, width, bottom - top - len(under_lines) * under_size * 1.1)
    block = len(lines) * size * 1.05 + len(under_lines) * under_size * 1.1
    y = top + max(0.0, (bottom - top - block) / 2)
    for text in lines:
        y += size * 0.95
        items.append(Text(s / 2, y, text, size=size, anchor="middle", bold=True, fill=face.ink,
                          cls="word"))
        y += size * 0.1
    for text in under_lines:
        y += under_size * 1.05
        items.append(Text(s / 2, y, text, size=under_size, anchor="middle", fill=face.ink,
                          cls="subtitle"))
    return items + _marker_corners(face)


def _word_lines(face: Face, width: float, height: float) -> tuple[list[str], float]:
    """A marker's word on one or two lines, at its family's size (``Face.word_size``) where
    that fits, else as large as fits ``width`` and ``height``."""
    word = face.word or face.name
    if not word:
        return [], 0.0
    what, floor = f"counter {face.what}", mm(face.fonts.minimum)
    if face.word_size:  # its family's size, on as many lines as that takes
        try:
            lines, size = fit_lines(word, face.word_size, width, 2, what, face.word_size)
        except BadInput:
            lines, size = [], 0.0
        if lines and len(lines) * size * 1.05 <= height + 1e-6:
            return lines, size
    wanted = max(mm(face.fonts.word), height * 0.5)  # a short word as large as fits
    while True:
        lines, size = fit_lines(word, wanted, width, 2, what, floor)
        if len(lines) * size * 1.05 <= height + 1e-6:
            return lines, size
        if size <= floor + 1e-6:
            raise BadInput(f"{what}: {word!r} and what is under it do not fit the counter "
                           f"even at the smallest size; shorten them in the data")
        wanted = max(floor, size * 0.92)


def family_word_size(faces: Iterable[Face]) -> float:
    """The size (mm, a step of the type scale) a family of markers prints its words at, so
    that the family reads at one size: the smallest any of them takes alone (the longest
    word's), every other word wrapped to it rather than printed larger."""
    return least_word_size(draw(face) for face in faces)


def least_word_size(drawn: Iterable[Iterable[Primitive]]) -> float:
    """The smallest step of the type scale the marker words of ``drawn`` counter sides take
    (0 when they have none): the size their family prints its words at."""
    sizes = [on_scale(item.size) for items in drawn for item in items
             if isinstance(item, Text) and item.cls == "word"]
    return min(sizes, default=0.0)


def _marker_corners(face: Face) -> list[Primitive]:
    """A marker's corners: a corner alone in its row may take the whole row."""
    s, pad = face.size, pad_of(face.size)
    corner = mm(face.fonts.corner)
    out: list[Primitive] = []
    for row, baseline in ((("top_left", "top_right"), pad + corner * 0.8),
                          (("bottom_left", "bottom_right"), s - pad)):
        alone = sum(1 for key in row if face.corners.get(key)) == 1
        out += _corner_items(face, row, baseline, face.fonts.corner,
                             s - 2 * pad if alone else s * 0.44)
    return out


LAYOUTS = {"nato": nato, "silhouette": silhouette, "marker": marker}


# --- faces from data ----------------------------------------------------------------------


#: How a counter prints the values a ``|`` spec joins (``aa|aa_sup`` -> ``4/2``): a stroke
#: that does not read as a 1, as a ``|`` would.
ALTERNATE = "/"


def value_text(record: Unit | Marker, spec: str, stats: Mapping[str, Value]) -> str:
    """What a factor or corner ``spec`` prints: ``aa|aa_sup`` -> ``4/2`` (absent parts and a
    part equal to the one before it left out: ``cost_hit|cost_buy`` -> ``3``), or a word:
    ``id``, ``setup``, ``name``, ``name_ja``, ``size``, ``year``."""
    words = {"id": record.id, "setup": getattr(record, "setup_code", None),
             "name": record.name, "name_ja": record.name_ja,
             "size": getattr(record, "size", None), "year": getattr(record, "year", None)}
    if spec in words:
        value = words[spec]
        return "" if value is None else str(value)
    shown: list[str] = []
    keys = spec.split("|")
    for key in keys:
        value = stats.get(key)
        if value is None or isinstance(value, bool | dict | list | tuple):
            continue
        if not shown or shown[-1] != _show(value):
            shown.append(_show(value))
    return ALTERNATE.join(shown)


def _show(value: object) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def counter_name(name: str, marker: bool = False) -> str:
    """A name as a counter prints it: without a parenthesised description at its end
    ('SBD Dauntless (Midway, no bomb icon)' -> 'SBD Dauntless'), and a marker's without
    the word marker ('Turn marker' -> 'Turn', 'ターン・マーカー' -> 'ターン')."""
    for opening, closing in (("(", ")"), ("（", "）")):
        if name.endswith(closing) and opening in name[1:]:
            name = name[:name.rindex(opening)].strip()
    if marker:
        for suffix in (" marker", " Marker", "・マーカー", "マーカー"):
            if name.endswith(suffix) and len(name) > len(suffix):
                return name[:-len(suffix)].strip()
    return name


def factors_text(record: Unit | Marker, look: Look, stats: Mapping[str, Value]) -> str:
    """The factors on one line, ``1-2-1``; an absent value among present ones is a dash
    (``0-1-1``: the anti-aircraft gun has no attack, printed as wargames print it, not as a
    dash that reads as a minus), all absent is no line."""
    values = [value_text(record, spec, stats) for spec in look.factors]
    if not any(values):
        return ""
    return "-".join(v or ABSENT for v in values)


def face_of(game: Game, record: Unit | Marker, *, stats: Mapping[str, Value] | None = None,
            reduced: bool = False, what: str | None = None, size: float | None = None,
            look: Look | None = None, ground: str | None = None, **texts: Any) -> Face:
    """The face of a unit or marker counter from its data and the game's style; ``stats``
    replaces the record's values (a reduced side), ``texts`` any other field of ``Face``."""
    look = look or look_of(game, record)
    values = record.stats if stats is None and isinstance(record, Unit) else (stats or {})
    corners = {k: value_text(record, spec, values) for k, spec in look.corners.items()}
    printed = [key for spec in (*look.factors, *look.corners.values())
               for key in spec.split("|") if key in values]
    fields: dict[str, Any] = {
        "name": counter_name(record.name or record.id, isinstance(record, Marker)),
        "subtitle": counter_name(record.name_ja or "", isinstance(record, Marker)),
        "factors": factors_text(record, look, values),
        "corners": {k: v for k, v in corners.items() if v},
        "echelon": getattr(record, "size", None) or "",
        "word": (record.text or "") if isinstance(record, Marker) else "",
        "assumed": bool(field_dagger(record, *(f"stats.{key}" for key in printed))),
    }
    side = getattr(record, "side", None)
    ground = ground or side_colour(game, side)
    fields.update(what=what or record.id, size=size or counter_size(game, record),
                  ground=ground, ink=side_ink(game, side, ground), look=look,
                  fonts=game.style.fonts, reduced=reduced,
                  cls="counter-back reduced" if reduced else "counter-face")
    fields.update(texts)
    return Face(**fields)

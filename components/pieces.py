"""Counters and cards as pieces: one description each, front and back.

A counter shows its name (English and Japanese), type and stats; a 2-step
unit's back shows its reduced side. A card shows deck, number, name, timing,
who plays it and its text; each deck has one common back. Assumed values get a
dagger.
"""

from __future__ import annotations

from ..engine.model import Card, Deck, Game, Marker, Unit
from .fonts import text_width, wrap
from .impose import Piece
from .primitives import Primitive, Rect, Style, Text

CARD_W, CARD_H, CARD_BLEED = 63.0, 88.0, 3.0
DEFAULT_COUNTER = 15.875  # 5/8 inch
SIDE_COLOURS = ["#f2c7c7", "#c7d7f2", "#d5ecc8", "#f2e3c0", "#e0cdef", "#d9d9d9"]
DAGGER = "†"


#: print colours for the colour words game data uses (pale enough to print text on)
COLOUR_WORDS = {
    "red": "#f2b8b8", "blue": "#b8cdf2", "green": "#c4e6b4", "yellow": "#f6e7a1",
    "white": "#ffffff", "black": "#9a9a9a", "grey": "#d9d9d9", "gray": "#d9d9d9",
    "brown": "#dcc3a5", "orange": "#f6cfa0", "purple": "#dcc7ee", "khaki": "#e3dcb5",
    "tan": "#e8d8bc", "olive": "#d2d6a6", "navy": "#b9c2dc", "pink": "#f5c9d8",
}


def colour(word: str | None) -> str | None:
    """A ``#rrggbb`` colour, or the print colour of a colour word; None if neither."""
    if not word:
        return None
    if word.startswith("#"):
        return word
    return COLOUR_WORDS.get(word.strip().lower())


def side_colour(game: Game, side: str | None) -> str:
    sides = [s.id for s in game.info.sides]
    if side in sides:
        explicit = colour(game.info.sides[sides.index(side)].color)
        return explicit or SIDE_COLOURS[sides.index(side) % len(SIDE_COLOURS)]
    return "#ececec"


def counter_size(game: Game, record: Unit | Marker) -> float:
    return record.size_mm or game.info.counter_mm or DEFAULT_COUNTER


def fit_text(text: str, size: float, width: float) -> float:
    """The largest size <= ``size`` at which ``text`` fits ``width`` mm (down to 40 %)."""
    current = size
    while current > size * 0.4 and text_width(text, current) > width:
        current *= 0.9
    return current


def centred(text: str, x: float, y: float, size: float, width: float, **kw) -> Text:
    """One line centred on ``x``, shrunk to fit ``width`` (``fit_text``)."""
    return Text(x, y, text, size=fit_text(text, size, width), anchor="middle", **kw)


def _stats_line(record: Unit | Marker, stats, prefix: str = "stats") -> str:
    parts = []
    for key, value in stats.items():
        if isinstance(value, dict | tuple | list):
            continue
        mark = DAGGER if record.field_assumed(f"{prefix}.{key}") else ""
        parts.append(f"{key} {_show(value)}{mark}")
    return " ".join(parts)


def _show(value) -> str:
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return str(value)


def counter_face(record: Unit | Marker, s: float, ground: str, lines: list[str],
                 cls: str) -> tuple[Primitive, ...]:
    """A square counter face: coloured ground, name, Japanese name, a stats line."""
    items: list[Primitive] = [Rect(0, 0, s, s, Style(fill=ground, stroke=None), cls=cls)]
    pad = s * 0.06
    usable = s - 2 * pad
    title = record.name or record.id
    items.append(centred(title, s / 2, s * 0.3, s * 0.16, usable, bold=True))
    if record.name_ja:
        items.append(centred(record.name_ja, s / 2, s * 0.52, s * 0.14, usable))
    y = s * 0.74
    for line in lines[:2]:
        if line:
            items.append(centred(line, s / 2, y, s * 0.11, usable))
            y += s * 0.16
    return tuple(items)


def unit_pieces(game: Game, unit: Unit) -> list[Piece]:
    s = counter_size(game, unit)
    ground = side_colour(game, unit.side)
    front_lines = [_type_line(unit), _stats_line(unit, unit.stats)]
    front = counter_face(unit, s, ground, front_lines, "counter-face")
    back = _unit_back(game, unit, s, ground)
    count = unit.count or 1
    return [Piece(f"counter-{unit.id}-{i + 1}", s, s, front, back, cls=f"counter unit {unit.id}")
            for i in range(count)]


def _type_line(unit: Unit) -> str:
    mark = DAGGER if unit.is_assumed else ""
    return f"{unit.type}{mark}"


def _unit_back(game: Game, unit: Unit, s: float, ground: str) -> tuple[Primitive, ...] | None:
    if isinstance(unit.back, dict):
        lines = ["reduced", _stats_line(unit, unit.back, "back")]
    elif unit.back:
        lines = [str(unit.back), ""]
    elif unit.steps == 2:
        lines = ["1 step", ""]
    else:
        return None  # a one-sided counter: no back page needed for it
    faded = Style(fill="#ffffff", stroke=None, opacity=0.45)
    return (*counter_face(unit, s, ground, lines, "counter-back"),
            Rect(0, s * 0.62, s, s * 0.38, faded, cls="reduced-band"))


def marker_pieces(game: Game, marker: Marker) -> list[Piece]:
    s = counter_size(game, marker)
    ground = colour(marker.color) or side_colour(game, marker.side)
    text = marker.text or ""
    front = counter_face(marker, s, ground, [text, ""], "counter-face marker")
    back = None  # one-sided unless the data gives a back
    if marker.back:
        back = counter_face(marker, s, ground, [str(marker.back), ""], "counter-back marker")
    count = marker.count or 1
    return [Piece(f"counter-marker-{marker.id}-{i + 1}", s, s, front, back,
                  cls=f"counter marker {marker.id}") for i in range(count)]


# --- cards -----------------------------------------------------------------------------


def card_front(game: Game, card: Card, deck: Deck | None) -> tuple[Primitive, ...]:
    w, h, b = CARD_W, CARD_H, CARD_BLEED
    ground = (colour(deck.color) if deck else None) or side_colour(
        game, card.side or (deck.side if deck else None))
    items: list[Primitive] = [Rect(-b, -b, w + 2 * b, h + 2 * b, Style(fill=ground, stroke=None),
                                   cls="card-bleed"),
                              Rect(3, 3, w - 6, h - 6, Style(fill="#ffffff", stroke="#555555",
                                                             width=0.3), r=2, cls="card-frame")]
    number = "" if card.number is None else f"#{card.number}  "
    deck_name = deck.label if deck else card.deck
    items.append(Text(6, 9, f"{number}{deck_name}", size=fit_text(number + deck_name, 2.6, 51),
                      fill="#444444"))
    items.append(centred(card.name or card.id, w / 2, 19, 5.0, w - 12, bold=True))
    if card.name_ja:
        items.append(centred(card.name_ja, w / 2, 27, 4.2, w - 12))
    y = 34.0
    for label, value in (("When", card.timing), ("Played by", card.playable_by)):
        if value:
            line = f"{label}: {value}"
            items.append(Text(6, y, line, size=fit_text(line, 2.8, w - 12)))
            y += 4.2
    stats = _stats_line(card, card.stats)
    if stats:
        items.append(Text(6, y, stats, size=fit_text(stats, 3.0, w - 12), bold=True))
        y += 4.6
    body = card.text or ""
    if card.is_assumed:
        body = (body + " " if body else "") + f"{DAGGER} assumed: {card.note or ''}"
    items.extend(_paragraph(body, 6, y + 1, w - 12, h - 10 - y, f"card {card.id}"))
    rules = ", ".join(card.rule)
    if rules:
        items.append(Text(w - 6, h - 6, f"rule {rules}", size=2.2, anchor="end", fill="#666666"))
    return tuple(items)


def _paragraph(text: str, x: float, y: float, width: float, height: float,
               what: str) -> list[Primitive]:
    """Wrapped text that must fit the box; it shrinks to 2.2 mm and then stops the build."""
    from ..engine.errors import BadInput

    size = 3.0
    while True:
        lines = wrap(text, size, width) if text else []
        if len(lines) * size * 1.25 <= height:
            break
        if size <= 2.2:
            raise BadInput(f"{what}: text does not fit the card ({len(lines)} lines at "
                           f"{size:.1f} mm): {text[:60]!r}...")
        size = round(size - 0.2, 2)
    return [Text(x, y + (i + 0.8) * size * 1.25, line, size=size, cls="card-text")
            for i, line in enumerate(lines)]


def card_back(game: Game, deck: Deck) -> tuple[Primitive, ...]:
    w, h, b = CARD_W, CARD_H, CARD_BLEED
    ground = colour(deck.color) or side_colour(game, deck.side)
    items: list[Primitive] = [
        Rect(-b, -b, w + 2 * b, h + 2 * b, Style(fill=ground, stroke=None), cls="card-back"),
        Rect(5, 5, w - 10, h - 10, Style(fill=None, stroke="#ffffff", width=0.8), r=3),
        centred(deck.back or deck.label, w / 2, h / 2 - 4, 5.0, w - 14, bold=True),
        centred(game.info.name, w / 2, h / 2 + 6, 3.0, w - 14),
    ]
    if deck.name_ja:
        items.append(centred(deck.name_ja, w / 2, h / 2 + 12, 3.6, w - 14))
    return tuple(items)


def card_pieces(game: Game, deck: Deck) -> list[Piece]:
    back = card_back(game, deck)
    pieces = []
    for card in game.cards:
        if card.deck != deck.id:
            continue
        front = card_front(game, card, deck)
        for copy in range(card.count):
            pieces.append(Piece(f"card-{deck.id}-{card.id}-{copy + 1}", CARD_W, CARD_H, front,
                                back, cls=f"card {deck.id}"))
    return pieces


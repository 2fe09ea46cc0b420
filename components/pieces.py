"""Counters and cards as pieces: one description each, front and back.

A counter is drawn in the layout the game's style gives its unit type
(``components/counters.py``: nato, silhouette or marker); a 2-step unit's back
is the same layout with its reduced values and a band. A card shows deck,
number, name, timing, who plays it and its text; each deck has one common back.
Assumed values are marked only in a designer proof (``components/marks.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from ..engine.errors import BadInput
from ..engine.looks import COLOUR_WORDS, TYPE_STEPS_PT, colour  # noqa: F401 (re-exported)
from ..engine.model import Card, Deck, Game, Item, Marker, Unit, Value
from .aids import once
from .counters import counter_name, draw, face_of, least_word_size
from .fonts import text_width, wrap
from .impose import Piece
from .legibility import MIN_MM, fit, fit_lines, on_scale, scaled
from .marks import dagger, field_dagger, rule_ref
from .primitives import Primitive, Rect, Style, Text
from .style import PT, SIDE_COLOURS, declared_layout, ink_on, side_colour  # noqa: F401 (re-exported)

CARD_W, CARD_H, CARD_BLEED = 63.0, 88.0, 3.0


def fit_text(text: str, size: float, width: float) -> float:
    """The largest size <= ``size`` at which ``text`` fits ``width`` mm (down to 40 %).

    Silent shrinking: kept for parts the legibility rule does not cover yet
    (``legibility.ENFORCED``); pieces use ``legibility.fit``, which stops the build."""
    current = size
    while current > size * 0.4 and text_width(text, current) > width:
        current *= 0.9
    return current


def centred(text: str, x: float, y: float, size: float, width: float, **kw: Any) -> Text:
    """One line centred on ``x``, shrunk to fit ``width`` (``fit_text``)."""
    return Text(x, y, text, size=fit_text(text, size, width), anchor="middle", **kw)


def _stats_line(record: Item, stats: Mapping[str, object], prefix: str = "stats") -> str:
    parts = []
    for key, value in stats.items():
        if isinstance(value, dict | tuple | list):
            continue
        mark = dagger(record.field_assumed(f"{prefix}.{key}"))
        parts.append(f"{key} {_show(value)}{mark}")
    return " ".join(parts)


def _show(value: object) -> str:
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return str(value)


def short_word(text: str) -> str:
    """What a counter prints of a descriptive word: up to the first ',', '(' or ';'."""
    for stop in (",", " (", ";", ":"):
        text = text.split(stop, 1)[0]
    return text.strip()


def unit_pieces(game: Game, unit: Unit) -> list[Piece]:
    """A unit's counters in its style's layout; the back is its reduced side, if any."""
    front = draw(face_of(game, unit, what=f"counter-{unit.id}"))
    back = unit_back(game, unit)
    count = unit.count or 1
    side = trim_side(front)
    plain = plain_back(counter_name(unit.name or unit.id), side_colour(game, unit.side), side,
                       counter_name(unit.name_ja or ""))
    return [Piece(f"counter-{unit.id}-{i + 1}", side, side, front, back,
                  cls=f"counter unit {unit.id}", plain_back=plain) for i in range(count)]


#: The name on a one-sided counter's plain back (mm), a step of the counters' type scale;
#: wrapped to lines, shrunk a step at a time (to the kit's least) only when the lines do not
#: fit; the Japanese name under it a step smaller.
PLAIN_NAME = 2.4
PLAIN_LINES = 3


def plain_back(name: str, ground: str, size: float, name_ja: str = "") -> tuple[Primitive, ...]:
    """A one-sided counter's back where its sheet prints backs: its colour edge to edge and
    its name (and Japanese name) across the middle; a name that cannot fit legibly is left
    out."""
    items: list[Primitive] = [Rect(0, 0, size, size, Style(fill=ground, stroke=None),
                                   cls="counter-ground plain-back")]
    room = size - 2.0
    lines, text = _plain_lines(name, room, size)
    if not lines:
        return tuple(items)
    ja = on_scale(text * 0.8) if name_ja else 0.0
    under = [name_ja] if ja and text_width(name_ja, ja) <= room else []
    block = len(lines) * text * 1.15 + len(under) * ja * 1.2
    y = (size - block) / 2
    for line in lines:
        y += text * 1.15
        items.append(Text(size / 2, y - text * 0.25, line, size=text, anchor="middle",
                          fill=ink_on(ground), cls="plain-back-name"))
    for line in under:
        y += ja * 1.2
        items.append(Text(size / 2, y - ja * 0.25, line, size=ja, anchor="middle",
                          fill=ink_on(ground), cls="plain-back-name ja"))
    return tuple(items)


def _plain_lines(name: str, room: float, size: float) -> tuple[list[str], float]:
    """``name`` wrapped to ``room`` at the largest step of the type scale from ``PLAIN_NAME``
    down at which it takes at most ``PLAIN_LINES`` lines in the counter's ``size``; none
    when no step legible enough does."""
    steps = sorted({on_scale(step * PT) for step in TYPE_STEPS_PT}, reverse=True)
    for text in (step for step in steps if MIN_MM <= step <= on_scale(PLAIN_NAME)):
        lines = wrap(name, text, room)
        if (len(lines) <= PLAIN_LINES and len(lines) * text * 1.15 <= size - 2.0
                and all(text_width(line, text) <= room for line in lines)):
            return lines, text
    return [], 0.0


def trim_side(drawn: tuple[Primitive, ...]) -> float:
    """The side of a drawn counter: its first primitive is its trim (``counters.draw``)."""
    trim = drawn[0]
    assert isinstance(trim, Rect), f"a counter opens with its trim, not {trim!r}"
    return trim.w


def unit_back(game: Game, unit: Unit, stats: Mapping[str, Value] | None = None, **face: Any
              ) -> tuple[Primitive, ...] | None:
    """The reduced side: the back's own values (a mapping), else the front's values for a
    2-step unit whose back is described in words; a one-sided counter has none. ``face``:
    other fields of the face (``ground``)."""
    what = f"counter-{unit.id} (back)"
    if isinstance(unit.back, dict):
        return draw(face_of(game, unit, stats=unit.back, reduced=True, what=what, **face))
    if unit.back or unit.steps == 2:
        return draw(face_of(game, unit, stats=stats, reduced=True, what=what, **face))
    return None


def counter_image(game: Game, record: Unit | Marker, *, side: str | None = None,
                  reduced: bool = False) -> tuple[Primitive, ...]:
    """One counter side as the counter sheets print it, at its own size: a unit's front (its
    reduced side when ``reduced`` and it has one), a marker's front (its back when
    ``reduced``); a unit of no side in ``side``'s colours. For the charts that show
    counters (the set-up chart)."""
    if isinstance(record, Marker):
        piece = marker_pieces(game, record)[0]
        return piece.back if reduced and piece.back else piece.front
    # a unit of no side in ``side``'s colours (None: its own)
    ground = None if record.side or side is None else side_colour(game, side)
    if reduced:
        back = unit_back(game, record, ground=ground)
        if back is not None:
            return scaled(back)
    face = face_of(game, record, what=f"counter-{record.id}", ground=ground)
    if face.look.layout == "marker" and not face.word:
        face = replace(face, word=marker_word(game, record))
    return scaled(draw(face))


def marker_pieces(game: Game, marker: Marker, word_size: float = 0.0) -> list[Piece]:
    """A marker's counters in the marker layout: its word (the style's, else its name), at
    ``word_size`` mm when given (its family's: ``marker_word_size``), else as large as fits."""
    ground = colour(marker.color) or side_colour(game, marker.side)
    front = draw(face_of(game, marker, ground=ground, what=f"counter-marker-{marker.id}",
                         word=marker_word(game, marker), word_size=word_size))
    back = None  # one-sided unless the data gives a back
    if marker.back:
        text = str(marker.back)  # 'Sunk (撃沈)': the word, and the bracket under it
        under = text.partition(" (")[2].rstrip(")") if text.endswith(")") else ""
        subtitle: dict[str, Any] = {"subtitle": under} if under else {}
        back = draw(face_of(game, marker, ground=ground, reduced=True, cls="counter-back marker",
                            what=f"counter-marker-{marker.id} (back)", word=short_word(text),
                            word_size=word_size, **subtitle))
    count = marker.count or 1
    side = trim_side(front)
    plain = plain_back(marker_word(game, marker), ground, side,
                       counter_name(marker.name_ja or "", marker=True))
    return [Piece(f"counter-marker-{marker.id}-{i + 1}", side, side, front, back,
                  cls=f"counter marker {marker.id}", plain_back=plain) for i in range(count)]


def markers_word_size(game: Game) -> float:
    """``marker_word_size`` of all of ``game``'s markers (one family), once per game."""
    return once("marker-word-size", game, lambda g: marker_word_size(g, g.markers))


def marker_word_size(game: Game, markers: Iterable[Marker]) -> float:
    """The one size (mm) at which the words of ``markers`` (a family: markers printed on one
    sheet side by side) print: the least of the sizes each fits its own counter at, front
    and back, so that no marker shouts over its neighbour."""
    return least_word_size(side for marker in markers for piece in _drawn(game, marker)
                           for side in (piece.front, piece.back or ()))


def _drawn(game: Game, marker: Marker) -> list[Piece]:
    """A marker's pieces in the shared marker layout; none for a marker that layout cannot
    draw (a game that draws such a marker draws it with its own code, outside the family)."""
    try:
        return marker_pieces(game, marker)[:1]
    except BadInput:
        return []


def marker_word(game: Game, marker: Unit | Marker) -> str:
    """The big word of a marker (or of a unit drawn as one): the style's ``word``, else the
    marker's name."""
    declared = declared_layout(game, marker)
    return (declared.word if declared is not None and declared.word else None) or (
        counter_name(marker.name or marker.id, marker=True))


# --- cards -----------------------------------------------------------------------------


#: A card's title (mm), at most: a deck's titles print at one size (``deck_title_size``).
CARD_TITLE = 5.0
#: The size (mm) of a card's "When" and "Played by" lines and of its text: one size on every
#: card of a deck, on more lines where a line is long (it shrinks only when the lines do not
#: fit).
CARD_LINE = 2.8


def deck_title_size(game: Game, deck: Deck) -> float:
    """The size every card title of ``deck`` prints at: the least of the sizes each title
    fits its card at, so that a long title is not the one set smaller."""
    sizes = [card_titles(c.name or c.id, c.name_ja, 0, 0, 0, CARD_TITLE, CARD_W - 12,
                         f"card {c.id}")[0].size for c in game.cards if c.deck == deck.id]
    return min(sizes, default=CARD_TITLE)


def _card_lines(text: str, width: float, what: str) -> tuple[list[str], float]:
    """A card's line at ``CARD_LINE`` on up to two lines, shrunk only when two do not hold it."""
    try:
        return fit_lines(text, CARD_LINE, width, 2, what, CARD_LINE)
    except BadInput:
        return fit_lines(text, CARD_LINE, width, 2, what)


def card_front(game: Game, card: Card, deck: Deck | None, title: float = CARD_TITLE
               ) -> tuple[Primitive, ...]:
    """A card's front; its title at most ``title`` mm (its deck's: ``deck_title_size``)."""
    w, h, b = CARD_W, CARD_H, CARD_BLEED
    ground = (colour(deck.color) if deck else None) or side_colour(
        game, card.side or (deck.side if deck else None))
    items: list[Primitive] = [Rect(-b, -b, w + 2 * b, h + 2 * b, Style(fill=ground, stroke=None),
                                   cls="card-bleed"),
                              Rect(3, 3, w - 6, h - 6, Style(fill="#ffffff", stroke="#555555",
                                                             width=0.3), r=2, cls="card-frame")]
    number = "" if card.number is None else f"#{card.number}  "
    deck_name = deck.label if deck else card.deck
    what = f"card {card.id}"
    items.append(Text(6, 9, f"{number}{deck_name}", size=fit(number + deck_name, 2.6, 51, what),
                      fill="#444444"))
    items.extend(card_titles(card.name or card.id, card.name_ja, w / 2, 19, 27, title, w - 12,
                             what))
    y = 31.0
    for label, value, key in (("When", card.timing, "timing"),
                              ("Played by", player_words(game, card.playable_by), "playable_by")):
        if value:
            lines, size = _card_lines(f"{label}: {value}{field_dagger(card, key)}", w - 12, what)
            for line in lines:
                y += size * 1.25
                items.append(Text(6, y, line, size=size))
            y += 1.0
    y += 1.2
    stats = _stats_line(card, card.stats)
    if stats:
        items.append(Text(6, y, stats, size=fit(stats, 3.0, w - 12, what), bold=True))
        y += 4.6
    body = (card.text or "") + field_dagger(card, "text")
    foot = h - 10
    if card.is_assumed:  # a placeholder says so, once, plainly; the proof says why
        note = f"{dagger(True)} assumed: {card.note or ''}" if dagger(True) else STANDS_IN
        lines, size = fit_lines(note, 2.4, w - 12, 3, what)
        foot -= len(lines) * size * 1.25 + 1.0
        items.extend(Text(6, foot + (i + 1) * size * 1.25, line, size=size, fill="#555555",
                          cls="card-placeholder") for i, line in enumerate(lines))
    items.extend(_paragraph(body, 6, y, w - 12, foot - y, f"card {card.id}"))
    rules = rule_ref(card.rule)[1:-1]
    if rules:
        items.append(Text(w - 6, h - 6, f"rule {rules}", size=2.2, anchor="end", fill="#666666"))
    return tuple(items)


#: A card's Japanese title at this share of its English title's size: kana and kanji fill
#: their em where Latin letters do not, so at this share the two titles read as one size.
TITLE_JA = 0.85


def card_titles(name: str, name_ja: str | None, x: float, y: float, y_ja: float, size: float,
                width: float, what: str) -> list[Text]:
    """A card's English title (bold, at most ``size``, fitted to ``width``) centred on ``x``
    at ``y``, and its Japanese title under it at ``y_ja``, ``TITLE_JA`` of the English size:
    when one of them must shrink to fit, the other shrinks with it (classes ``card-title``
    and ``card-title-ja``)."""
    english = fit(name, size, width, what)
    if name_ja:
        japanese = fit(name_ja, english * TITLE_JA, width, what)
        english = min(english, fit(name, japanese / TITLE_JA, width, what))
    items = [Text(x, y, name, size=english, anchor="middle", bold=True, cls="card-title")]
    if name_ja:
        items.append(Text(x, y_ja, name_ja, size=japanese, anchor="middle",
                          cls="card-title-ja"))
    return items


#: What a card the rules do not print says of itself on a player's card.
STANDS_IN = "This card stands in for one the rules give only by its number."


def player_words(game: Game, who: str | None) -> str:
    """Who may play a card, in words: a side's name (``japan`` -> ``Japanese only``),
    ``both`` -> ``Either side``; nothing when the data does not say."""
    if not who or who == "unknown":
        return ""
    if who == "both":
        return "Either side"
    side = next((s for s in game.info.sides if s.id == who), None)
    return f"{side.name} only" if side is not None and side.name else who


def _paragraph(text: str, x: float, y: float, width: float, height: float,
               what: str) -> list[Primitive]:
    """Wrapped text that must fit the box; it shrinks to 2.2 mm and then stops the build."""
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


def _centred_fit(text: str, x: float, y: float, size: float, width: float, what: str,
                 **kw: Any) -> Text:
    """One line centred on ``x``, fitted to ``width`` without going under the minimum."""
    return Text(x, y, text, size=fit(text, size, width, what), anchor="middle", **kw)


#: Card backs: the deck's title, on up to ``BACK_TITLE_LINES`` lines at up to
#: ``BACK_TITLE`` mm (a title in two languages: each on its own lines, at one size), over
#: the game's name in each of its languages at ``BACK_SUBTITLE`` mm: the title outranks them.
BACK_TITLE, BACK_TITLE_LINES, BACK_SUBTITLE = 5.0, 3, 3.2


def card_back(game: Game, deck: Deck) -> tuple[Primitive, ...]:
    w, h, b = CARD_W, CARD_H, CARD_BLEED
    what = f"card back of deck {deck.id}"
    ground = colour(deck.color) or side_colour(game, deck.side)
    title = deck.back or deck.label
    lines, size = (_language_lines(title, BACK_TITLE, BACK_SUBTITLE, w - 14)
                   or _word_lines(title, BACK_TITLE, BACK_SUBTITLE, w - 14, BACK_TITLE_LINES)
                   or fit_lines(title, BACK_TITLE, w - 14, BACK_TITLE_LINES, what))
    step = size * 1.25
    top = h / 2 - 2 - step * (len(lines) - 1)  # the last line's baseline above the middle
    items: list[Primitive] = [
        Rect(-b, -b, w + 2 * b, h + 2 * b, Style(fill=ground, stroke=None), cls="card-back"),
        Rect(5, 5, w - 10, h - 10, Style(fill=None, stroke="#ffffff", width=0.8), r=3),
        *(Text(w / 2, top + i * step, line, size=size, anchor="middle", bold=True,
               cls="card-back-title") for i, line in enumerate(lines)),
    ]
    names = [n for n in (game.info.name, game.info.name_ja) if n]
    for i, name in enumerate(names):
        items.append(_centred_fit(name, w / 2, h / 2 + 7 + i * 5, BACK_SUBTITLE, w - 14, what,
                                  cls="card-back-subtitle"))
    return tuple(items)


def _language_lines(text: str, size: float, least: float, width: float
                    ) -> tuple[list[str], float] | None:
    """A title in two languages (``日本軍アクションカード Japanese action card``) as one line
    each, at the largest size from ``size`` down to ``least`` at which both fit ``width``;
    None for a title in one language or one that does not fit so."""
    runs: list[list[str]] = []
    for word in text.split():
        cjk = any(ord(ch) > 0x2E80 for ch in word)
        if runs and (any(ord(ch) > 0x2E80 for ch in runs[-1][-1]) == cjk):
            runs[-1].append(word)
        else:
            runs.append([word])
    if len(runs) != 2:
        return None
    lines = [" ".join(run) for run in runs]
    while size >= least - 1e-9:
        if all(text_width(line, size) <= width for line in lines):
            return lines, round(size, 3)
        size -= 0.1
    return None


def _word_lines(text: str, size: float, least: float, width: float, most: int
                ) -> tuple[list[str], float] | None:
    """``text`` broken only between its words on at most ``most`` lines of ``width``, at
    the largest size from ``size`` down to ``least`` (0.1 mm steps); None below that."""
    words = text.split()
    while size >= least - 1e-9:
        lines: list[str] = []
        for word in words:
            joined = f"{lines[-1]} {word}" if lines else word
            if lines and text_width(joined, size) <= width:
                lines[-1] = joined
            else:
                lines.append(word)
        if len(lines) <= most and all(text_width(ln, size) <= width for ln in lines):
            return lines, round(size, 3)
        size -= 0.1
    return None


def card_pieces(game: Game, deck: Deck) -> list[Piece]:
    back = card_back(game, deck)
    title = deck_title_size(game, deck)
    pieces = []
    for card in game.cards:
        if card.deck != deck.id:
            continue
        front = card_front(game, card, deck, title)
        for copy in range(card.count):
            pieces.append(Piece(f"card-{deck.id}-{card.id}-{copy + 1}", CARD_W, CARD_H, front,
                                back, cls=f"card {deck.id}"))
    return pieces


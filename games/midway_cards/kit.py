"""The Fateful Midway Card Game's own kit pages: damage markers as counters in
their colours, card faces whose stats read as a panel (ranks, defence levels,
durabilities, VP) with a back per deck, and the turn-procedure sheet once per
side.

The stat panel follows the ``card-fields`` records (the callouts ① ② ... of
rules 3-1 to 3-3); the secondary-damage results are named by the
``secondary-damage`` table, the same rows the engine reads.
"""

from __future__ import annotations

import re
from contextlib import nullcontext
from dataclasses import replace

from warpress.components import aids, kit
from warpress.components.aids import Block, text_lines
from warpress.components.counters import counter_name, counter_size, draw, face_of, pad_of
from warpress.components.fonts import text_width, wrap
from warpress.components.impose import Piece
from warpress.components.kit import KitPage, Options
from warpress.components.legibility import MIN_MM, fit, fit_lines
from warpress.components.marks import dagger, proofing, rule_ref
from warpress.components.pieces import (
    CARD_BLEED,
    CARD_H,
    CARD_W,
    TITLE_JA,
    card_back,
    card_titles,
    fit_text,
    side_colour,
)
from warpress.components.primitives import Group, Primitive, Rect, Style, Text
from warpress.components.registry import COUNTER_FACE
from warpress.components.sheets import sheet_blocks
from warpress.engine.errors import BadInput
from warpress.engine.model import Card, Deck, Game, Marker
from warpress.games.midway.kit import SIDE_INK, counter_sheets, page_of

from . import CODE

#: Colour words of the data -> print colours (and the ink that reads on them): toned as
#: printed games tone them (brick red, slate blue, leaf green, ochre), not screen primaries.
COLOURS = {"red": ("#c04a42", "#ffffff"), "blue": ("#46679c", "#ffffff"),
           "yellow": ("#e6c453", "#000000"), "green": ("#4a7f42", "#ffffff"),
           "white": ("#ffffff", "#000000")}
DAMAGE_INK = {"bombing": "#b03f38", "torpedo": "#3b5b92"}
STAT_WORDS = {
    "missions": "Missions", "aircraft_type": "Aircraft type", "air_combat_f": "Air combat (F)",
    "air_combat_a": "Air combat (A)", "anti_ship": "Anti-ship level", "damage": "Damage",
    "defense_kind": "Defense type", "level": "Level", "vp_sunk": "VP sunk/heavy/medium",
    "vp_destroyed": "VP destroyed/heavy", "aircraft_f": "Aircraft",
    "side_durability": "Side durability", "deck_durability": "Deck durability",
    "defense_level": "Defense-card level", "defense_kinds": "Defense cards",
    "durability": "Durability", "kind": "Card kind", "damage_kind": "Damage to"}
TYPE_LETTER = {"fighter": "F", "bomber": "B", "torpedo-bomber": "T"}
FIELD_GROUP = {"aircraft": "aircraft-card", "armament-change": "armament-change-card",
               "defense": "defense-card", "tactics": "tactics-card"}


# --- damage markers ------------------------------------------------------------------------


def marker_colours(marker: Marker) -> tuple[str, str]:
    """(ground, ink) for a marker's colour word; a #rrggbb colour is used as it is."""
    colour = marker.color or ""
    if colour.startswith("#"):
        return colour, "#000000"
    return COLOURS.get(colour, ("#ececec", "#000000"))


def _big_and_small(marker: Marker) -> tuple[str, str]:
    """'1 bombing damage (deck durability)' -> ('1', 'bombing damage');
    '発着艦不能 - flight deck unusable / propulsion hit' -> ('発着艦不能', 'flight deck ...')."""
    text = marker.text or marker.name or marker.id
    number = re.match(r"(\d+)\s+(.*)", text)
    if number:
        return number.group(1), number.group(2).split("(")[0].strip()
    big, _, small = text.partition(" - ")
    return big.strip(), small.strip()


def marker_face(game: Game, marker: Marker) -> tuple[Primitive, ...]:
    """A damage marker in the marker layout: its colour, the value large, what it marks and
    the Japanese name under it (fitted to the chip, never over its neighbours)."""
    ground, ink = marker_colours(marker)
    big, small = _big_and_small(marker)
    if _japanese(big) and small:  # a word, not a value: its English and Japanese as titles
        return bilingual_marker(game, marker, ground, ink, small[:1].upper() + small[1:], big)
    # the Japanese name under the value
    ja = _ja_short(marker)
    under = "\n".join(t for t in (small, ja) if t)
    face = face_of(game, marker, ground=ground, ink=ink, word=big + dagger(
        marker.field_assumed("text")), subtitle=under, what=f"counter-{marker.id}",
                   cls=f"counter-face marker {marker.color}")
    return draw(face)


def _japanese(text: str) -> bool:
    return any(ord(ch) > 0x2E80 for ch in text)


def bilingual_marker(game: Game, marker: Marker, ground: str, ink: str, english: str,
                     japanese: str) -> tuple[Primitive, ...]:
    """A marker whose word is a term in two languages (``Cannot launch or recover``,
    ``発着艦不能``): the English in bold on up to ``ENGLISH_LINES`` lines over the Japanese at
    ``pieces.TITLE_JA`` of its size, the two as large as fit between the pads, centred."""
    s = counter_size(game, marker)
    pad, what = pad_of(s), f"counter {marker.id}"
    width, height = s - 2 * pad, s - 2 * pad
    size = height / 2
    while True:
        lines, size = fit_lines(english, size, width, ENGLISH_LINES, what)
        ja = fit(japanese, size * TITLE_JA, width, what)
        size = min(size, ja / TITLE_JA)
        block = len(lines) * size * LEADING + ja * LEADING
        if block <= height or size <= MIN_MM:
            break
        size *= 0.95
    face = face_of(game, marker, ground=ground, ink=ink, word="", subtitle="", name="",
                   what=f"counter-{marker.id}", cls=f"counter-face marker {marker.color}")
    items = list(draw(face))
    y = pad + (height - block) / 2
    for line in lines:
        y += size * LEADING
        items.insert(-1, Text(s / 2, y - size * 0.22, line, size=size, anchor="middle",
                              bold=True, fill=ink, cls="word"))
    y += ja * LEADING
    items.insert(-1, Text(s / 2, y - ja * 0.22, japanese + dagger(marker.field_assumed("text")),
                          size=ja, anchor="middle", fill=ink, cls="word-ja"))
    return tuple(items)


#: Line height of a marker's titles, as a share of their size.
LEADING = 1.1
#: The most lines a marker's English title takes.
ENGLISH_LINES = 3


def _ja_short(marker: Marker) -> str:
    """'ダメージ表示マーカー（赤）' -> 'ダメージ': the marker's Japanese name, short (its
    colour is the chip's)."""
    return counter_name((marker.name_ja or "").replace("表示マーカー", ""))


def marker_pieces(game: Game) -> list[Piece]:
    """Every marker as counters, a back in the same colour."""
    pieces = []
    for marker in game.markers:
        s = counter_size(game, marker)
        ground, _ink = marker_colours(marker)
        back = (Rect(0, 0, s, s, Style(fill=ground, stroke=None), cls="counter-back blank"),)
        front = marker_face(game, marker)
        pieces += [Piece(f"counter-{marker.id}-{i + 1}", s, s, front, back,
                         cls=f"counter marker {marker.id}") for i in range(marker.count or 1)]
    return pieces


@CODE.kit_part(COUNTER_FACE)
def counter_face(game: Game, record, _side: str | None, reduced: bool
                 ) -> tuple[Primitive, ...] | None:
    """A damage marker as the counter sheet prints it (its back: its colour), for the charts
    that show counters (the set-up chart)."""
    if not isinstance(record, Marker):
        return None
    s = counter_size(game, record)
    if reduced:
        return (Rect(0, 0, s, s, Style(fill=marker_colours(record)[0], stroke=None),
                     cls="counter-back blank"),)
    return marker_face(game, record)


@CODE.kit_part("counters", replaces=True)
def damage_counters(game: Game, options: Options) -> list[KitPage]:
    """The damage markers as counters in the colours their names give."""
    return counter_sheets(marker_pieces(game), options)


# --- card faces ----------------------------------------------------------------------------


def _fields(game: Game, group: str | None) -> list:
    for record in game.extra.get("card-fields", ()):
        if record.id == group:
            return list(record.extra.get("fields", ()))
    return []


def _field_group(card: Card) -> str | None:
    kind = card.stats.get("kind")
    if kind in FIELD_GROUP:
        return FIELD_GROUP[kind]
    if "deck_durability" in card.stats:
        return "ship-card"
    if "durability" in card.stats:
        return "base-card"
    return None


def _value(card: Card, key: str) -> str:
    value = card.stats.get(key)
    if isinstance(value, tuple | list):
        value = " ".join(str(v) for v in value)
    if key == "aircraft_type":
        value = f"{value} ({TYPE_LETTER.get(str(value), '?')})"
    # a wholly assumed card carries one dagger, on its name
    return f"{value}{dagger(not card.is_assumed and card.field_assumed(f'stats.{key}'))}"


def stat_rows(game: Game, card: Card) -> list[tuple[str, str, str]]:
    """(label, value, ink) per printed field of the card, in callout order: a field's
    callout (① ② ... of the rules' card diagrams) once, on its first row."""
    rows = []
    for field in _fields(game, _field_group(card)):
        keys = [k for k in field.get("stats", ()) if k in card.stats and k != "kind"]
        if not keys:
            continue
        rows.extend(_rows_for(card, keys, field))
    if not rows and {"bombing", "torpedo"} <= set(card.stats):
        rows = secondary_rows(game, card)
    return rows


def _stat_label(field, key: str) -> str:
    """A stat's printed name: the field's ``labels`` for it, else the stat word and, for a
    field of one stat, the field's Japanese name."""
    labels = field.get("labels") or {}
    if key in labels:
        return str(labels[key])
    name_ja = field.get("name_ja", "") if len(field.get("stats", ())) == 1 else ""
    return f"{STAT_WORDS.get(key, key)} {name_ja}".strip()


def _rows_for(card: Card, keys: list[str], field) -> list[tuple[str, str, str]]:
    callout = field["callout"]
    together = field.get("one_row") or keys[0].startswith(("aircraft_", "vp_"))
    if together and keys[0] != "aircraft_type":
        label = f"{callout} {field.get('label') or _stat_label(field, keys[0])}"
        if keys[0].startswith("aircraft_"):
            value = " ".join(f"{k[-1].upper()}{_value(card, k)}" for k in keys)
        else:
            value = " / ".join(_value(card, k) for k in keys)
        return [(label, value, "#000000")]
    out = []
    for i, key in enumerate(keys):
        ink = DAMAGE_INK.get(str(card.stats.get("damage_kind")), "#000000") if key in (
            "damage", "damage_kind") else "#000000"
        mark = f"{callout} " if i == 0 else "    "
        out.append((f"{mark}{_stat_label(field, key)}", _value(card, key), ink))
    return out


def secondary_rows(game: Game, card: Card) -> list[tuple[str, str, str]]:
    """A secondary-damage card: its bombing and torpedo results, named by the table."""
    table = game.table("secondary-damage")
    rows = []
    for key, label in (("bombing", "Bombing 爆撃 (red)"), ("torpedo", "Torpedo 雷撃 (blue)")):
        result = card.stats[key]
        row = next((r for r in table.rows if table.conditions(r).get("result") == result), None)
        name = f"{row.name} {row.name_ja or ''}".strip() if row else str(result)
        mark = dagger(not card.is_assumed and card.field_assumed(f"stats.{key}"))
        rows.append((label, name + mark, DAMAGE_INK[key]))
    return rows


#: A secondary-damage card's two results (bombing, then torpedo): the label over each, the
#: result as the card's headline (English at ``RESULT_MM`` at most, its Japanese name under
#: it at ``pieces.TITLE_JA`` of that), and what it does, each half ``RESULT_BAND`` mm tall.
RESULT_MM, RESULT_BAND = 5.0, 36.0
RESULT_SIDES = (("bombing", "Bombing 爆撃 · red marker, deck"),
                ("torpedo", "Torpedo 雷撃 · blue marker, side"))


def _card_ground(game: Game, card: Card, deck: Deck) -> tuple[Primitive, ...]:
    w, h, b = CARD_W, CARD_H, CARD_BLEED
    colour = side_colour(game, card.side or deck.side)
    return (Rect(-b, -b, w + 2 * b, h + 2 * b, Style(fill=colour, stroke=None), cls="card-bleed"),
            Rect(3, 3, w - 6, h - 6, Style(fill="#ffffff", stroke="#555555", width=0.3), r=2,
                 cls="card-frame"))


def _card_head(card: Card, deck: Deck) -> Text:
    number = "" if card.number is None else f"#{card.number}  "
    head = f"{number}{deck.label}"
    return Text(6, 8.5, head, size=fit_text(head, 2.4, CARD_W - 12), fill="#444444")


def secondary_front(game: Game, card: Card, deck: Deck) -> tuple[Primitive, ...]:
    """A secondary-damage card: its bombing and its torpedo result as the headlines a
    player reads (named by the ``secondary-damage`` table, in the colour of the marker they
    place), what each does under it; the card's number small in its head line."""
    table = game.table("secondary-damage")
    head = _card_head(card, deck)  # a wholly assumed card: one dagger (a proof), on its head
    head = replace(head, text=head.text + dagger(card.is_assumed))
    items: list[Primitive] = [*_card_ground(game, card, deck), head]
    w, what = CARD_W, f"card {card.id}"
    for i, (key, label) in enumerate(RESULT_SIDES):
        top, ink = 11.0 + i * RESULT_BAND, DAMAGE_INK[key]
        row = _result_row(table, card.stats[key])
        name = (row.name if row and row.name else str(card.stats[key])) + dagger(
            not card.is_assumed and card.field_assumed(f"stats.{key}"))
        items.append(Rect(5, top, w - 10, RESULT_BAND - 2, Style(fill=None, stroke=ink,
                                                                  width=0.5), r=1.5,
                          cls="card-result"))
        items.append(Text(w / 2, top + 4.6, label, size=fit_text(label, 2.6, w - 14),
                          anchor="middle", fill=ink, cls="card-result-label"))
        titles = card_titles(name, row.name_ja if row else None, w / 2, top + 14.0,
                             top + 21.0, RESULT_MM, w - 14, what)
        items += [replace(t, fill=ink) for t in titles]
        for n, line in enumerate(_effect(table, row)):
            items.append(Text(w / 2, top + 27.5 + n * 3.6, line, size=fit(line, 2.8, w - 14,
                                                                          what),
                              anchor="middle", cls="card-text"))
    rules = ", ".join(card.rule)
    if rules:
        items.append(Text(w - 6, CARD_H - 5.5, f"rule {rules}", size=2.0, anchor="end",
                          fill="#666666"))
    return tuple(items)


def _result_row(table, result):
    """The table's row of ``result`` against a ship (a base reads the bombing result only)."""
    rows = [r for r in table.rows if table.conditions(r).get("result") == result]
    return next((r for r in rows if table.conditions(r).get("target") in (None, "ship")),
                rows[0] if rows else None)


def _effect(table, row) -> list[str]:
    """What a secondary-damage result does, from its row, a line each: ``+2 damage``,
    ``The attack does 0 damage``, ``Yellow marker: cannot launch or recover``."""
    if row is None:
        return []
    result = table.result(row)
    lines = []
    if result.get("zero_damage") in (True, "yes"):
        lines.append("The attack does 0 damage")
    elif result.get("extra_damage"):
        lines.append(f"+{result['extra_damage']} damage")
    if result.get("yellow_marker") in (True, "yes"):
        lines.append("Yellow marker: cannot launch or recover")
    return lines


def card_front(game: Game, card: Card, deck: Deck) -> tuple[Primitive, ...]:
    """A card: deck and number, name (English and Japanese), the stat panel, its text; a
    secondary-damage card its two results (``secondary_front``)."""
    if not _field_group(card) and {"bombing", "torpedo"} <= set(card.stats):
        return secondary_front(game, card, deck)
    w, h = CARD_W, CARD_H
    items: list[Primitive] = [*_card_ground(game, card, deck), _card_head(card, deck)]
    name = (card.name or card.id) + dagger(card.is_assumed)
    items.extend(card_titles(name, card.name_ja, w / 2, 15.5, 22.5, 4.6, w - 12,
                             f"card {card.id}"))
    y = 24.5 if card.name_ja else 17.5
    panel, y = stat_panel(stat_rows(game, card), y)
    items += panel
    items += card_text(card, y + 1.5, h - 10 - y)
    rules = ", ".join(card.rule)
    if rules:
        items.append(Text(w - 6, h - 5.5, f"rule {rules}", size=2.0, anchor="end",
                          fill="#666666"))
    return tuple(items)


def stat_panel(rows: list[tuple[str, str, str]], y: float) -> tuple[list[Primitive], float]:
    """Rows of label (small, left) and value (large, bold, right) on a tinted band; a value
    too long for the right-hand side gets a line of its own under its label."""
    items: list[Primitive] = []
    if not rows:
        return items, y
    top = y + 1
    for label, value, ink in rows:
        row, top = _stat_row(label, value, ink, top)
        items += row
    band = Rect(5, y, CARD_W - 10, top - y + 0.6, Style(fill="#f1f1ec", stroke="#bbbbbb",
                                                          width=0.2), r=1, cls="card-stats")
    return [band, *items], top + 0.6


def _stat_row(label: str, value: str, ink: str, top: float) -> tuple[list[Primitive], float]:
    full = CARD_W - 13
    if text_width(value, 3.4) <= 26:
        size = 3.8 if text_width(value, 3.8) <= 26 else 3.4
        base = top + 4.4
        label_size = fit_text(label, 2.3, full - text_width(value, size) - 2)
        return [Text(6.5, base, label, size=label_size, fill="#333333", cls="card-stat-label"),
                Text(CARD_W - 6.5, base, value, size=size, anchor="end", bold=True, fill=ink,
                     cls="card-stat")], top + 6.2
    size = fit_text(value, 3.4, full)
    return [Text(6.5, top + 3.0, label, size=fit_text(label, 2.3, full), fill="#333333",
                 cls="card-stat-label"),
            Text(CARD_W - 6.5, top + 3.4 + size * 1.05, value, size=size, anchor="end",
                 bold=True, fill=ink, cls="card-stat")], top + 4.4 + size * 1.2


def card_text(card: Card, y: float, height: float) -> list[Primitive]:
    """The card's text, its Japanese text when there is room, and (in a designer proof
    only) a pointer to the assumed-values page, shrunk to fit; text that cannot fit stops
    the build."""
    body = card.text or ""
    if card.is_assumed and proofing():
        body = (body + "\n" if body else "") + f"{dagger(True)} assumed: see Assumed values"
    if card.text_ja:
        lines = _fitted(f"{body}\n{card.text_ja}", height, 2.4)
        if lines:
            return _text_items(*lines, y)
    lines = _fitted(body, height, 2.0)
    if lines is None:
        raise BadInput(f"card {card.id}: text does not fit under its stats")
    return _text_items(*lines, y)


def _fitted(body: str, height: float, smallest: float) -> tuple[list[str], float] | None:
    """(lines, size) of ``body`` wrapped to the card at the largest size that fits."""
    size = 3.0
    while size >= smallest - 1e-9:
        lines = wrap(body, size, CARD_W - 12) if body else []
        if len(lines) * size * 1.25 <= height:
            return lines, size
        size = round(size - 0.2, 2)
    return None


def _text_items(lines: list[str], size: float, y: float) -> list[Primitive]:
    return [Text(6, y + (i + 0.8) * size * 1.25, line, size=size, cls="card-text")
            for i, line in enumerate(lines)]


def card_pieces(game: Game, deck: Deck) -> list[Piece]:
    """A deck's cards with their stat panels; one back for the deck."""
    back = card_back(game, deck)
    pieces = []
    for card in game.cards:
        if card.deck == deck.id:
            front = card_front(game, card, deck)
            pieces += [Piece(f"card-{deck.id}-{card.id}-{i + 1}", CARD_W, CARD_H, front, back,
                             cls=f"card {deck.id}") for i in range(card.count)]
    return pieces


@CODE.kit_part("cards", replaces=True)
def cards(game: Game, options: Options) -> list[KitPage]:
    """Every deck, 9 up with crop marks, decks sharing sheets, each card's deck back on the
    following page."""
    pieces = [piece for deck in game.decks for piece in card_pieces(game, deck)]
    return kit.sized_sheet_pages(pieces, options, "card", bleed=CARD_BLEED)


# --- the turn-procedure sheet, once per side ------------------------------------------------


def procedure_blocks(game: Game, sheet, width: float) -> list[Block]:
    """A procedure sheet: its side's colour band, the steps, then its tables (grids where
    the table is a grid)."""
    ink = SIDE_INK.get(_sheet_side(game, sheet), "#444444")
    head = f"{sheet.label}{dagger(sheet.is_assumed)}  {rule_ref(sheet.rule)}".rstrip()
    blocks = [Block((Rect(0, 0, width, 8, Style(fill=ink, stroke=None)),
                     Text(2, 5.8, head, size=fit_text(head, 4.4, width - 4), bold=True,
                          fill="#ffffff")), 9, id=f"{sheet.id}-head", cls="sheet-head")]
    for section in sheet.sections:
        title = " ".join(t for t in (section.title, section.title_ja) if t)
        title += f"  {rule_ref(section.rule)}" if section.rule else ""
        blocks.append(section_block(title, section.lines, width))
    return blocks + [b for t in sheet.tables for b in aids.table_blocks(game.table(t), width, game)]


def section_block(title: str, lines, width: float, size: float = 2.5) -> Block:
    """A bold title and its lines, each wrapped, in one block."""
    items: list[Primitive] = [Text(0, 3.4, title, size=fit_text(title, 3.4, width), bold=True)]
    y = 5.0
    for line in lines:
        wrapped, h = text_lines(line, 0, y, size, width)
        items += wrapped
        y += h + 0.4
    return Block(tuple(items), y, cls="sheet-section")


#: The extra section that prints a table as a chart a player reads: one row per value of
#: the table's first result, saying when it holds, with the other results beside it.
STATUS_CHART = "status-chart"


def status_chart(game: Game, table_id: str, width: float) -> list[Block]:
    """``table_id`` as one row per status (its first result: Sunk, Heavy, Medium, Intact):
    the status, when it holds (the ``status-chart`` record of that id), and the other
    results, which every row of that status must share; nothing when the kit has printed
    the table already."""
    table = game.table(table_id)
    if not aids.first_print(table.id):
        return []
    by, *others = table.results
    shared: dict[str, dict] = {}
    for row in table.rows:
        result = table.result(row)
        rest = {k: result.get(k) for k in others}
        if shared.setdefault(str(result[by]), rest) != rest:
            raise BadInput(f"table {table.id!r}: rows of {by} {result[by]!r} differ in "
                           f"{sorted(k for k in rest if rest[k] != shared[str(result[by])][k])}"
                           "; the chart prints one row per status")
    when = {record.id: record for record in game.extra.get(STATUS_CHART, ())
            if record.get("table") == table.id}
    names = aids.record_names(game)
    rows = []
    for status, rest in shared.items():
        record = when.get(status)
        if record is None:
            raise BadInput(f"{STATUS_CHART}: no record {status!r} says when {table.id!r} "
                           f"gives {by} {status!r}")
        label = " ".join(t for t in (aids.result_text(table, status, names, by),
                                     record.name_ja) if t)
        rows.append([label, str(record.get("text")), *(aids.result_text(table, rest[k], names, k)
                                                for k in others)])
    header = [aids.result_name(table, by), "When", *(aids.result_name(table, k) for k in others)]
    grid = aids.grid_block([header], rows, width, f"table {table.id!r}")
    top = aids.heading(aids.table_title(table), width, 3.2)
    return [Block((*top.items, Group(grid.items, dy=top.height)), top.height + grid.height + 3.0,
                  id=f"table-{table.id}", cls="table", width=grid.width)]


def _sheet_side(game: Game, sheet) -> str | None:
    sides = [s.id for s in game.info.sides]
    return next((s for s in sides if sheet.id.endswith(f"-{s}")), None)


def is_procedure_sheet(sheet) -> bool:
    return sheet.kind == "play-aid" and sheet.id.startswith("procedure-sheet")


@CODE.kit_part("sheets", replaces=True)
def sheets(game: Game, options: Options) -> list[KitPage]:
    """The turn-procedure sheet once per side, then the generic sheets and play aid."""
    width = options.paper.content()[2]
    pages: list[KitPage] = []
    copies = 0
    for sheet in game.sheets:
        if is_procedure_sheet(sheet):
            with aids.another_copy() if copies else nullcontext():  # one sheet per side
                blocks = procedure_blocks(game, sheet, width)
            copies += 1
            flowed = aids.flow(blocks, options.paper.content())
            pages += [replace(page_of(f"sheet {sheet.id}", options, items, f"{sheet.id}-{i}"),
                              player=True) for i, items in enumerate(flowed, 1)]
    own = {s.id for s in game.sheets if is_procedure_sheet(s)}
    charted = {str(r.get("table")) for r in game.extra.get(STATUS_CHART, ())}
    lead: list[Block] = []
    for sheet in game.sheets:
        if sheet.id in own or not set(sheet.tables) & charted:
            continue
        own.add(sheet.id)  # its charted tables drawn here, the others as every sheet draws them
        blocks = list(sheet_blocks(game, replace(sheet, tables=()), width))
        blocks += [b for t in sheet.tables for b in (
            status_chart(game, t, width) if t in charted
            else aids.table_blocks(game.table(t), width, game))]
        lead += blocks
    return pages + kit.sheet_pages(game, options, lead=lead, own=own)

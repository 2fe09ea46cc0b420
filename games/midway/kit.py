"""Midway's own kit pages: the US movement plan sheet, the carrier areas, the
event card space, a sequence-of-play aid, and 2-step counters with their
reduced side on the back.

Everything is drawn from the game's YAML: the plan sheet's reminders are the
``us-movement-plan`` sheet's sections, its movement allowances the constants,
its small maps the operations-area hex map; the carrier areas are the
``displays`` with their boxes and arrows (8.3); the aid is the ``sequence``.
"""

from __future__ import annotations

import math
from dataclasses import replace

from warpress.components import aids, holds, kit
from warpress.components.aids import Block, text_lines
from warpress.components.fonts import text_width, wrap
from warpress.components.hexmap import HexGeometry
from warpress.components.impose import Piece
from warpress.components.kit import KitPage, Options
from warpress.components.marks import dagger, rule_ref
from warpress.components.pieces import (
    CARD_H,
    CARD_W,
    fit_text,
    marker_pieces,
    markers_word_size,
    side_colour,
    unit_pieces,
)
from warpress.components.primitives import Group, Page, Polygon, Primitive, Rect, Style, Text, arrow
from warpress.engine.model import Display, Game, Phase, Sheet, Table

from . import CODE

PLAN_SHEET = "us-movement-plan"
AID_SHEET = "sequence-of-play"
INK = "#222222"
GREY = "#666666"
SIDE_INK = {"japan": "#b02020", "us": "#1f4e9a", "both": "#555555", "player": "#555555"}


# --- shared helpers (also used by the midway-cards module) --------------------------------


#: the kit's own helpers, under the names this module and midway_cards use
sheet_pages = kit.imposed_pages
counter_sheets = kit.counter_sheet_pages


def page_of(part: str, options: Options, items, id: str) -> KitPage:
    p = options.paper
    return KitPage(part, Page(p.width, p.height, tuple(items), id=id))


# --- the US movement plan sheet ----------------------------------------------------------


def _turn_track(game: Game):
    return game.get("tracks", "turn")


def turn_moves(game: Game, turn: int) -> int:
    """The US fleet's movement allowance in hexes on ``turn`` (night turn: its own)."""
    if turn == game.constant("night-turn"):
        return int(game.constant("night-move-us-fleet"))
    return int(game.constant("move-us-fleet"))


def _plan_map_style(features) -> Style:
    kinds = {f.kind: f for f in features}
    if "island" in kinds:
        return Style(fill="#9bc48a", stroke="#2f6b2f", width=0.35)
    if "entry" in kinds:
        white = kinds["entry"].get("color") == "white"
        return Style(fill="#ffffff" if white else "#f3c1c1", stroke="#b02020", width=0.45)
    return Style(fill="#ffffff", stroke="#8aa2bd", width=0.15)


#: Column letters above and row numbers beside a plan map, at a legible size (mm).
EDGE_TEXT = 1.8
EDGE = 3.2  # room they take


def plan_map(game: Game, turn: int, width: float,
             max_height: float = 1e9) -> tuple[Group, float, float]:
    """A small copy of the hex map at most ``width`` x ``max_height`` mm: every hex, Midway
    and the entry hexes marked, column letters along the top and row numbers down the left
    (hex ids too small to read are not printed). Returns the group, its width and height."""
    hex_map = game.hex_map()
    probe_w, probe_h = HexGeometry.of(hex_map, 10.0).extent()
    geo = HexGeometry.of(hex_map, 10.0 * min((width - EDGE) / probe_w,
                                             (max_height - EDGE) / probe_h))
    grid_w, grid_h = geo.extent()
    features: dict[str, list] = {}
    for feature in hex_map.features:
        if feature.kind in ("island", "entry"):
            for h in feature.hexes:
                features.setdefault(h, []).append(feature)
    hexes: list[Primitive] = []
    for hex_id, c, r in geo.cells():
        marks = features.get(hex_id, [])
        cls = " ".join(["hex", "plan-hex", *(f.kind for f in marks)])
        hexes.append(Polygon(geo.corners(c, r), _plan_map_style(marks),
                             id=f"plan-turn-{turn}-hex-{hex_id}", cls=cls))
    edges: list[Primitive] = []
    for c, label in enumerate(hex_map.columns.all_labels()):
        x = geo.centre(c, 0)[0] + EDGE
        edges.append(Text(x, EDGE - 0.9, label, size=EDGE_TEXT, anchor="middle",
                          fill="#555555", cls="plan-col"))
    for r, label in enumerate(hex_map.rows.all_labels()):
        y = geo.centre(0, r)[1] + EDGE
        edges.append(Text(EDGE - 0.6, y + EDGE_TEXT * 0.35, label, size=EDGE_TEXT,
                          anchor="end", fill="#555555", cls="plan-row"))
    grid = Group((*hexes, Rect(0, 0, grid_w, grid_h, Style(width=0.3))), dx=EDGE, dy=EDGE)
    return Group((grid, *edges), id=f"plan-turn-{turn}-map", cls="plan-map"), \
        grid_w + EDGE, grid_h + EDGE


def turn_block(game: Game, turn: int, width: float, map_h: float) -> Block:
    """One turn of the plan: title, allowance, the small map and a path line."""
    track = _turn_track(game)
    day = track.labels.get(str(turn), "").split(" - ")[0]
    if turn == game.constant("night-turn"):
        day += " · Night 夜間"
    moves = turn_moves(game, turn)
    title = f"Turn {turn} ターン{turn}"
    items: list[Primitive] = [Text(0, 3.6, title, size=3.2, bold=True)]
    note = f"{day} · up to {moves} hexes ({moves}ヘクスまで)"
    x0 = text_width(title, 3.2) * 1.06 + 1.5
    items.append(Text(x0, 3.4, note, size=aids.legible(note, 2.4, width - x0,
                                                       f"plan sheet turn {turn}"), fill=GREY))
    group, w, h = plan_map(game, turn, width, map_h)
    items.append(replace(group, dy=5.0, dx=(width - w) / 2))
    y = 5.0 + h + 4.2
    path = "Path 経路: " + " → ".join(["______"] * (moves + 1))
    items.append(Text(0, y, path, size=fit_text(path, 2.6, width), cls="plan-path"))
    return Block(tuple(items), y + 1.5, id=f"plan-turn-{turn}", cls="plan-turn")


def _is_turn_section(section) -> bool:
    return any(line.startswith("Turn ") for line in section.lines)


def reminder_column(sections, width: float, size: float) -> tuple[list[Primitive], float]:
    """Sections as bold titles (English and Japanese) and bulleted lines."""
    items: list[Primitive] = []
    y = 0.0
    for section in sections:
        title = " ".join(t for t in (section.title, section.title_ja) if t)
        title += dagger(section.is_assumed)
        items.append(Text(0, y + size * 1.1, title, size=fit_text(title, size * 1.1, width),
                          bold=True))
        y += size * 1.6
        for line in section.lines:
            lines, h = text_lines(aids.bulleted(line), 0, y, size, width)
            items.extend(lines)
            y += h
        y += size * 0.6
    return items, y


def reminders_block(sheet: Sheet, width: float, budget: float) -> Block:
    """The sheet's movement and surface-battle reminders in two columns, shrunk to fit."""
    sections = [s for s in sheet.sections if not _is_turn_section(s)]
    col_w = (width - 5) / 2
    for size in (2.4, 2.2, 2.0, 1.9, 1.8, 1.7, 1.6):
        left, right = _split_columns(sections, col_w, size)
        a, ha = reminder_column(left, col_w, size)
        b, hb = reminder_column(right, col_w, size)
        if max(ha, hb) <= budget:
            break
    items = [Group(tuple(a), cls="plan-reminders"), Group(tuple(b), dx=col_w + 5,
                                                           cls="plan-reminders")]
    return Block(tuple(items), max(ha, hb), id="plan-reminders", cls="plan-reminders")


def _split_columns(sections, width: float, size: float):
    heights = [reminder_column([s], width, size)[1] for s in sections]
    total, run = sum(heights), 0.0
    for i, h in enumerate(heights):
        if run + h / 2 > total / 2 and i:
            return sections[:i], sections[i:]
        run += h
    return sections, []


def surface_battle_block(table: Table, width: float) -> Block:
    """The surface-battle table as two die-roll rows, one per side (10.1(2))."""
    rows = [("japan_roll", "hits_on_us", "Japanese die 日本軍のダイス → hits on the US fleet"),
            ("us_roll", "hits_on_japan", "US die 米軍のダイス → hits on the Japanese fleet")]
    title = f"{table.label} {rule_ref(table.rule)}".rstrip()
    items: list[Primitive] = [Text(0, 3.2, title, size=fit_text(title, 3.2, width), bold=True)]
    y = 5.0
    for key, result, caption in rows:
        pairs = _roll_results(table, key, result)
        items.append(Text(0, y + 2.6, caption, size=fit_text(caption, 2.4, width)))
        y += 3.6
        cell = min(14.0, width / (len(pairs) + 1))
        items.extend(_roll_row("roll", [p[0] for p in pairs], 0, y, cell))
        items.extend(_roll_row("hits", [p[1] for p in pairs], 0, y + 5, cell))
        y += 12
    return Block(tuple(items), y, id=f"plan-{table.id}", cls="plan-table")


def _roll_results(table: Table, key: str, result: str) -> list[tuple[str, str]]:
    out: dict[str, str] = {}
    for row in table.rows:
        roll = str(table.conditions(row)[key])
        out.setdefault(roll, str(table.result(row)[result]) + dagger(row.is_assumed))
    return sorted(out.items(), key=lambda p: int(p[0].split("-")[0]))


def _roll_row(head: str, cells: list[str], x: float, y: float, w: float) -> list[Primitive]:
    items: list[Primitive] = [Rect(x, y, w, 5, aids.HEAD), Text(x + 1, y + 3.7, head, size=2.6)]
    for i, text in enumerate(cells, 1):
        items.append(Rect(x + i * w, y, w, 5, aids.CELL))
        items.append(Text(x + i * w + w / 2, y + 3.7, text, size=fit_text(text, 2.8, w - 1),
                          anchor="middle", bold=True))
    return items


def plan_sheet_page(game: Game, options: Options) -> KitPage:
    """The plan sheet on one page: reminders, then the turns 3 across with a map each."""
    sheet = game.record("sheets", PLAN_SHEET, Sheet)
    x0, y0, width, height = options.paper.content()
    head = f"{sheet.label}{dagger(sheet.is_assumed)}  {rule_ref(sheet.rule)}".rstrip()
    items: list[Primitive] = [Text(x0, y0 + 5, head, size=fit_text(head, 5, width), bold=True)]
    y = y0 + 9
    reminders = reminders_block(sheet, width, height * 0.3)
    items.append(Group(reminders.items, dx=x0, dy=y, id=reminders.id, cls=reminders.cls))
    y += reminders.height + 3
    turns = [int(t) for t in _turn_track(game).values]
    cols, gap = 3, 4.0
    col_w = (width - (cols - 1) * gap) / cols
    rows = math.ceil(len(turns) / cols)
    block_h = (y0 + height - y) / rows
    map_h = block_h - 14
    for i, turn in enumerate(turns):
        r, c = divmod(i, cols)
        block = turn_block(game, turn, col_w, map_h)
        items.append(Group(block.items, dx=x0 + c * (col_w + gap), dy=y + r * block_h,
                           id=block.id, cls=block.cls))
    spare = rows * cols - len(turns)
    if spare and sheet.tables:
        c = cols - spare
        block = surface_battle_block(game.table(sheet.tables[0]), spare * col_w)
        items.append(Group(block.items, dx=x0 + c * (col_w + gap), dy=y + (rows - 1) * block_h,
                           id=block.id, cls=block.cls))
        items.extend(_legend(x0 + c * (col_w + gap), y + (rows - 1) * block_h + block.height + 2,
                             game))
    return KitPage(f"sheet {sheet.id}", Page(options.paper.width, options.paper.height,
                                             tuple(items), id="plan-sheet"))


def _legend(x: float, y: float, game: Game) -> list[Primitive]:
    hex_map = game.hex_map()
    items: list[Primitive] = []
    for feature in hex_map.features:
        if feature.kind not in ("island", "entry"):
            continue
        items.append(Rect(x, y, 4, 3, _plan_map_style([feature])))
        text = f"{feature.name} {feature.name_ja or ''}: {', '.join(feature.hexes)}"
        items.append(Text(x + 5.5, y + 2.5, text, size=fit_text(text, 2.3, 120)))
        y += 4.5
    return items


# --- sequence-of-play aid ----------------------------------------------------------------


def _phase_box(phase: Phase, width: float, size: float = 2.5) -> Block:
    """A phase: numbered title bar in its side's colour, its steps, the solitaire note."""
    ink = SIDE_INK.get(phase.who or "", "#555555")
    title = f"{phase.order}. {phase.label}" if phase.order else phase.label
    title += f"  {rule_ref(phase.rule)}".rstrip()
    items: list[Primitive] = [Rect(0, 0, width, 5.2, Style(fill=ink, stroke=None)),
                              Text(1.5, 3.8, title, size=fit_text(title, 3.0, width - 3),
                                   fill="#ffffff", bold=True)]
    y = 6.2
    for step in phase.steps:
        lines, h = text_lines(aids.bulleted(step), 2, y, size, width - 4)
        items.extend(lines)
        y += h
    solo = phase.extra.get("solitaire")
    if solo:
        lines, h = text_lines(f"Solitaire ソリティア: {solo}", 2, y, size * 0.92, width - 4,
                              fill=GREY)
        items.extend(lines)
        y += h
    if phase.note:
        lines, h = text_lines(f"{dagger(True)} {phase.note}".strip(), 2, y, size * 0.85, width - 4,
                              fill=GREY)
        items.extend(lines)
        y += h
    items.insert(0, Rect(0, 0, width, y + 1, Style(fill="#fbfbf7", stroke=ink, width=0.3)))
    return Block(tuple(items), y + 1, id=f"sop-{phase.id}", cls=f"sop-phase {phase.who or ''}")


def stacked(top: Block, below: Block) -> Block:
    """Two blocks as one, so a heading never ends a page alone."""
    return Block((*top.items, Group(below.items, dy=top.height, id=below.id, cls=below.cls)),
                 top.height + below.height, cls=below.cls)


def sequence_blocks(game: Game, width: float) -> list[Block]:
    """The sequence of play: the turn's phases in order, the night turn, solitaire, tables."""
    sheet = game.record("sheets", AID_SHEET, Sheet)
    title = f"{sheet.label}{dagger(sheet.is_assumed)}  {rule_ref(sheet.rule)}".rstrip()
    blocks = [aids.heading(title, width, 5.0)]
    day = sorted((p for p in game.sequence if not p.turns and not p.extra.get("scenario")
                  and p.order), key=lambda p: p.order)
    night = [p for p in game.sequence if p.turns]
    solo = [p for p in game.sequence if p.extra.get("scenario")]
    groups = [("Each turn 毎ターンの手順", day)]
    if night:
        turns = ", ".join(str(t) for t in night[0].turns)
        groups.append((f"Night turn (Turn {turns}) 夜間ターン: changes", night))
    if solo:
        groups.append(("Solitaire 飛龍奮戦す", solo))
    for title, phases in groups:
        boxes = [_phase_box(p, width) for p in phases]
        blocks += [stacked(aids.heading(title, width, 3.8), boxes[0]), *boxes[1:]]
    blocks += [b for t in sheet.tables for b in aids.table_blocks(game.table(t), width, game)]
    return blocks


@CODE.kit_part("sheets", replaces=True)
def midway_sheets(game: Game, options: Options) -> list[KitPage]:
    """Plan sheet, then the sequence-of-play aid flowed with the other sheets and the play
    aid of the tables no sheet prints."""
    lead = sequence_blocks(game, options.paper.content()[2])
    return [plan_sheet_page(game, options),
            *kit.sheet_pages(game, options, lead=lead, own=(PLAN_SHEET, AID_SHEET))]


# --- carrier areas and the event card space (2.1(2), 2.1(7), 8.3) -------------------------

DECK_BOX = 20.0  # a deck or runway box: one 15.875 mm counter with room to pick it up
CAP_W = 34.0
LANE = 14.0  # room between a carrier column and the CAP box for the arrows
ARROW_INK = "#b03030"
DECK_KINDS = ("deck", "runway")


def _short(text: str | None) -> str:
    """'Akagi flight deck (front)' -> 'front'; '赤城 飛行甲板(前)' -> '前'."""
    if not text:
        return ""
    if "(" in text and text.endswith(")"):
        return text[text.rindex("(") + 1:-1]
    return text.split()[-1]


def _carrier_name(game: Game, group: str, display: Display) -> str:
    for record in game.extra.get("carriers", ()):
        if record.id == group:
            return record.label + dagger(record.is_assumed)
    return display.label


def _box_rect(box, x, y, w, h, display: Display, fill: str = "#ffffff") -> Rect:
    words = ("box", "carrier-box", box.kind)
    return Rect(x, y, w, h, Style(fill=fill, stroke="#333333", width=0.35), r=1.0,
                id=f"box-{display.id}-{box.id}",
                cls=" ".join(w for w in words if w) if box.kind == "launch" else holds.cls(*words))


def _box_label(box, x, y, w, lines: list[str], size: float = 2.5) -> list[Primitive]:
    out: list[Primitive] = []
    for i, line in enumerate(line for line in lines if line):
        out.append(Text(x + 1.2, y + size + 0.8 + i * size * 1.25, line,
                        size=fit_text(line, size, w - 2.4), fill=INK if i == 0 else GREY,
                        bold=i == 0))
    return out


def _capacity(box, display: Display) -> str:
    if box.kind == "hangar":
        decks = {b.kind for b in display.boxes if b.group == box.group} & set(DECK_KINDS)
        where = "runway" if "runway" in decks else "deck"
        return f"{where} + hangar ≤ {box.capacity}" + dagger(box.field_assumed("capacity"))
    if box.kind == "cap":
        return f"{', '.join(box.accepts)} only" if box.accepts else ""
    if box.capacity is not None:
        return f"{box.capacity} unit" + dagger(box.field_assumed("capacity"))
    return ""


class CarrierLayout:
    """Where each box of a carrier-area display sits, in the block's own mm."""

    def __init__(self, game: Game, display: Display, width: float):
        self.game, self.display = game, display
        self.groups = list(dict.fromkeys(b.group for b in display.boxes if b.group))
        self.kind = {b.id: b.kind for b in display.boxes}
        self.boxes: dict[str, tuple[float, float, float, float]] = {}
        self.frames: dict[str, tuple[float, float, float, float]] = {}
        self._place(width)

    def decks(self, group: str):
        return [b for b in self.display.boxes if b.group == group and b.kind in DECK_KINDS]

    def _column_width(self, group: str) -> float:
        n = len(self.decks(group))
        return n * DECK_BOX + (n - 1) * 2 + 4

    def _place(self, width: float) -> None:
        widths = [self._column_width(g) for g in self.groups]
        total = sum(widths) + CAP_W + LANE * len(widths)
        x = max(0.0, (width - total) / 2)
        self.left = x
        self.launch_y, self.frame_y, self.hangar_y = 8.0, 25.0, 61.0
        self.corridor_y, self.return_y = 91.0, 97.0
        cap_after = 0 if len(self.groups) > 1 else len(self.groups) - 1
        for i, (group, w) in enumerate(zip(self.groups, widths, strict=True)):
            self._place_column(group, x, w)
            x += w + LANE
            if i == cap_after:
                cap_h = self.hangar_y + 24 - self.frame_y
                self._place_by_kind("cap", x, self.frame_y, CAP_W, cap_h)
                x += CAP_W + LANE
        self.right = x - LANE
        cap_x = self.boxes.get(self._first("cap"), (x, 0, CAP_W, 0))[0]
        returns = [b.id for b in self.display.boxes if b.kind == "return"]
        for i, box_id in enumerate(reversed(returns)):
            self.boxes[box_id] = (cap_x - i * (CAP_W + 10), self.return_y, CAP_W, 18.0)

    def _first(self, kind: str) -> str | None:
        return next((b.id for b in self.display.boxes if b.kind == kind), None)

    def _place_by_kind(self, kind: str, x, y, w, h) -> None:
        box_id = self._first(kind)
        if box_id:
            self.boxes[box_id] = (x, y, w, h)

    def _place_column(self, group: str, x: float, w: float) -> None:
        self.frames[group] = (x, self.frame_y, w, 27.0)
        for i, box in enumerate(self.decks(group)):
            self.boxes[box.id] = (x + 2 + i * (DECK_BOX + 2), self.frame_y + 5, DECK_BOX, DECK_BOX)
        for box in self.display.boxes:
            if box.group == group and box.kind == "hangar":
                self.boxes[box.id] = (x, self.hangar_y, w, 24.0)

    @property
    def height(self) -> float:
        has_returns = any(b.kind == "return" for b in self.display.boxes)
        return (self.return_y + 18 if has_returns else self.hangar_y + 24) + 2


def carrier_block(game: Game, display: Display, width: float) -> Block:
    """A carrier division, task force or the base as a display: launch strip, decks (or
    runway), hangars, the CAP box, Return 2 -> Return 1, and the arrows of 8.3."""
    lay = CarrierLayout(game, display, width)
    tint = side_colour(game, display.side)
    head = f"{display.label}{dagger(display.is_assumed)}  {rule_ref(display.rule)}".rstrip()
    items: list[Primitive] = [
        Rect(0, 0, width, lay.height, Style(fill=tint, stroke=None, opacity=0.35)),
        Text(2, 5, head, size=fit_text(head, 3.6, width - 4), bold=True)]
    items += _launch_strip(lay)
    for group in lay.groups:
        items += _deck_frame(game, lay, group)
    for box in display.boxes:
        if box.id in lay.boxes and box.kind not in DECK_KINDS:
            items += _plain_box(lay, box)
    items += carrier_arrows(lay)
    for box_id, (_x, _y, w, h) in lay.boxes.items():
        if lay.kind.get(box_id) != "launch":
            holds.check(game, w, h, f"{display.id} box {box_id}")
    return Block(tuple(items), lay.height, id=f"carrier-area-{display.id}", cls="carrier-area")


def _launch_strip(lay: CarrierLayout) -> list[Primitive]:
    box_id = lay._first("launch")
    if not box_id:
        return []
    box = lay.display.box(box_id)
    x, w = lay.left, lay.right - lay.left
    lay.boxes[box_id] = (x, lay.launch_y, w, 8.0)
    text = f"▲ {box.name} {box.name_ja or ''} ▲  {rule_ref(box.rule)}".rstrip()
    return [_box_rect(box, x, lay.launch_y, w, 8.0, lay.display, fill="#fff3c4"),
            Text(x + w / 2, lay.launch_y + 5.4, text, size=fit_text(text, 2.8, w - 4),
                 anchor="middle", bold=True)]


def _deck_frame(game: Game, lay: CarrierLayout, group: str) -> list[Primitive]:
    x, y, w, h = lay.frames[group]
    name = _carrier_name(game, group, lay.display)
    items: list[Primitive] = [
        Rect(x, y, w, h, Style(fill="#eef2f6", stroke="#333333", width=0.5), r=1.5,
             id=f"deck-{lay.display.id}-{group}", cls="flight-deck"),
        Text(x + 1.5, y + 3.6, name, size=fit_text(name, 2.8, w - 3), bold=True)]
    for box in lay.decks(group):
        bx, by, bw, bh = lay.boxes[box.id]
        items.append(_box_rect(box, bx, by, bw, bh, lay.display))
        label = " ".join(t for t in (_short(box.name), _short(box.name_ja)) if t)
        items += _box_label(box, bx, by, bw, [label], 2.2)
        cap = _capacity(box, lay.display)
        items.append(Text(bx + bw / 2, by + bh - 1.2, cap, size=fit_text(cap, 1.9, bw - 2),
                          anchor="middle", fill=GREY))
    return items


def _plain_box(lay: CarrierLayout, box) -> list[Primitive]:
    if box.kind == "launch":
        return []
    x, y, w, h = lay.boxes[box.id]
    items: list[Primitive] = [_box_rect(box, x, y, w, h, lay.display)]
    name = (box.name or box.id) + dagger(box.is_assumed)
    items += _box_label(box, x, y, w, [name, box.name_ja or ""], 2.6)
    cap = _capacity(box, lay.display)
    if cap:
        items.append(Text(x + 1.2, y + h - 1.5, cap, size=fit_text(cap, 2.2, w - 2.4),
                          fill=GREY))
    return items


# --- the arrows of 8.3 ---------------------------------------------------------------------


def _endpoint(lay: CarrierLayout, box_id: str) -> str:
    """A deck or runway box's arrows to and from the CAP box meet its whole flight deck."""
    box = lay.display.box(box_id)
    return f"{box.group}-deck" if box.kind in DECK_KINDS else box_id


def carrier_arrows(lay: CarrierLayout) -> list[Primitive]:
    """Every arrow of the display: one drawn connector per pair of boxes (deck boxes'
    CAP arrows bundled per flight deck); classes name the data arrows it stands for."""
    bundles: dict[tuple[str, str], list] = {}
    for a in lay.display.arrows:
        kinds = (lay.kind.get(a.from_), lay.kind.get(a.to))
        key = (a.from_, a.to)
        if "cap" in kinds:
            key = (_endpoint(lay, a.from_), _endpoint(lay, a.to))
        bundles.setdefault(key, []).append(a)
    items: list[Primitive] = []
    for (src, dst), members in bundles.items():
        points = _route(lay, members[0])
        if points is None:
            continue
        assumed = any(m.is_assumed for m in members)
        night = any("night" in (m.note or "") for m in members)
        style = Style(stroke=ARROW_INK, width=0.45,
                      dash=(1.2, 0.8) if assumed or night else ())
        cls = "carrier-arrow " + " ".join(f"{m.from_}--{m.to}" for m in members)
        items.append(arrow(points, style, id=f"arrow-{lay.display.id}-{src}-{dst}", cls=cls))
        items += _arrow_note(points, assumed, night)
    return items


def _arrow_note(points, assumed: bool, night: bool) -> list[Primitive]:
    if not (assumed or night):
        return []
    segments = list(zip(points, points[1:], strict=False))
    (x1, y1), (x2, y2) = max(segments, key=lambda s: math.dist(*s))
    text = ("night 夜間" if night else "") + dagger(assumed)
    return [Text((x1 + x2) / 2 + (1.5 if x1 == x2 else 0), (y1 + y2) / 2 + 2.6, text,
                 size=1.9, anchor="start" if x1 == x2 else "middle", fill=ARROW_INK)]


def _route(lay: CarrierLayout, a) -> list[tuple[float, float]] | None:
    """The polyline of an arrow, from the kinds of the boxes it joins."""
    src, dst = lay.kind.get(a.from_), lay.kind.get(a.to)
    if a.from_ not in lay.boxes or a.to not in lay.boxes:
        return None
    fx, fy, fw, fh = lay.boxes[a.from_]
    tx, ty, tw, th = lay.boxes[a.to]
    if src == "return" and dst == "return":
        return [(fx + fw, fy + fh / 2), (tx, ty + th / 2)]
    if src == "return":
        mid = fx + fw / 2
        end = tx + tw / 2
        return [(mid, fy), (mid, lay.corridor_y), (end, lay.corridor_y), (end, ty + th)]
    if dst == "launch":
        return [(fx + fw / 2, fy - 5), (fx + fw / 2, ty + th)]
    if dst in DECK_KINDS and src == "hangar":
        return [(tx + tw / 2, fy), (tx + tw / 2, ty + th + 2)]
    if "cap" in (src, dst):
        return _cap_route(lay, a, src == "cap")
    return [(fx + fw / 2, fy + fh / 2), (tx + tw / 2, ty + th / 2)]


def _cap_route(lay: CarrierLayout, a, from_cap: bool) -> list[tuple[float, float]]:
    """Horizontal, between the CAP box and a flight deck or hangar; the two directions
    run side by side (CAP -> box above, box -> CAP below)."""
    other = a.to if from_cap else a.from_
    box = lay.display.box(other)
    x, y, w, h = lay.frames[box.group] if box.kind in DECK_KINDS else lay.boxes[other]
    cx, _cy, cw, _ch = lay.boxes[a.from_ if from_cap else a.to]
    mid = y + h / 2 + (-1.6 if from_cap else 1.6)
    near_x, cap_x = (x + w, cx) if x < cx else (x, cx + cw)
    return [(cap_x, mid), (near_x, mid)] if from_cap else [(near_x, mid), (cap_x, mid)]


def event_space_block(display: Display, width: float) -> Block:
    """The event card space: one card-sized box per pile (2.1(7))."""
    head = f"{display.label}{dagger(display.is_assumed)}  {rule_ref(display.rule)}".rstrip()
    items: list[Primitive] = [Text(0, 4, head, size=fit_text(head, 3.6, width), bold=True)]
    for i, box in enumerate(display.boxes):
        x = i * (CARD_W + 10)
        items.append(Rect(x, 7, CARD_W, CARD_H, Style(fill="#fbfbf7", stroke="#333333",
                                                      width=0.4, dash=(2, 1)), r=3,
                          id=f"box-{display.id}-{box.id}", cls=holds.cls("box", "card-space")))
        name = (box.name or box.id) + dagger(box.is_assumed)
        for j, line in enumerate((name, box.name_ja or "", f"{box.capacity} cards"
                                  if box.capacity else "")):
            items.append(Text(x + CARD_W / 2, 7 + CARD_H / 2 - 4 + j * 5, line,
                              size=fit_text(line, 3.0, CARD_W - 6), anchor="middle",
                              fill=INK if j < 2 else GREY, bold=j == 0))
    return Block(tuple(items), CARD_H + 10, id=f"display-{display.id}", cls="display card-space")


def display_blocks(game: Game, width: float) -> list[Block]:
    """Each display as Midway's own layout: carrier areas, then the card space."""
    blocks = []
    for display in game.displays:
        if any(b.group for b in display.boxes):
            blocks.append(carrier_block(game, display, width))
        elif all(b.kind == "card-pile" for b in display.boxes):
            blocks.append(event_space_block(display, width))
        else:
            blocks.append(aids.display_block(display, width))
    return blocks


def track_block(game: Game, track, width: float) -> Block:
    """A track whose box labels are wrapped under the boxes (not shrunk to fit one line);
    the night turn's box is dark."""
    n = len(track.values)
    box, size = min(26.0, width / max(n, 1)), 2.3
    mark = dagger(track.field_assumed("values"))
    head = f"{track.label}{mark}  {rule_ref(track.rule)}".rstrip()
    if mark:
        head += f"  {dagger(True)} boxes assumed"
    items: list[Primitive] = [Text(0, 3.4, head, size=fit_text(head, 3.4, width), bold=True)]
    night = str(game.constant("night-turn")) if track.id == "turn" else None
    deepest = 0
    tall = math.ceil(holds.least(game))
    holds.check(game, box, tall, f"track {track.id} box")
    for i, value in enumerate(track.values):
        x, dark = i * box, str(value) == night
        fill = "#24324a" if dark else "#fff3c4" if str(value) == str(track.start) else "#ffffff"
        items.append(Rect(x, 5.5, box, tall, Style(fill=fill, stroke="#333333", width=0.3),
                          id=f"track-{track.id}-{value}", cls=holds.cls("track-box")))
        items.append(Text(x + box / 2, 5.5 + tall / 2 + 2.5, str(value),
                          size=7, anchor="middle", bold=True,
                          fill="#ffffff" if dark else INK))
        lines = wrap(track.labels.get(str(value), ""), size, box - 1.5)
        for j, line in enumerate(lines if lines != [""] else []):
            items.append(Text(x + box / 2, 5.5 + tall + size * 1.3 * (j + 1), line, size=size,
                              anchor="middle", fill=GREY, cls="track-label"))
        deepest = max(deepest, len(lines) if lines != [""] else 0)
    return Block(tuple(items), 8 + tall + deepest * size * 1.3, id=f"track-{track.id}",
                 cls="track")


@CODE.kit_part("map", replaces=True)
def midway_map(game: Game, options: Options) -> list[KitPage]:
    """The generic map tiles, then the tracks and Midway's own displays."""
    maps = kit.map_pages(replace(game, tracks=(), displays=()), options)
    width = options.paper.content()[2]
    blocks = [track_block(game, t, width) for t in game.tracks] + display_blocks(game, width)
    return maps + kit.flowed_pages(blocks, options.paper, "tracks and displays")


# --- counters: the reduced side of 2-step aircraft on the back (2.2(4)) --------------------


def unit_counter_pieces(game: Game) -> list[Piece]:
    """Every unit's counters in the layouts of the style (end of games/midway/game.yaml);
    a 2-step unit's back is its reduced side (the data: same values, 2.2(4))."""
    return [piece for unit in game.units for piece in unit_pieces(game, unit)]


@CODE.kit_part("counters", replaces=True)
def midway_counters(game: Game, options: Options) -> list[KitPage]:
    """Units (2-step aircraft with their reduced backs) and markers, imposed by size."""
    pieces = unit_counter_pieces(game)
    units = {u.id for u in game.units}
    word_size = markers_word_size(game)  # one family: one sheet's markers
    for marker in game.markers:
        made = marker_pieces(game, marker, word_size)
        if marker.id in units:  # a marker named like a unit: keep the SVG ids unique
            made = [replace(p, id=p.id.replace("counter-", "counter-marker-", 1)) for p in made]
        pieces.extend(made)
    return counter_sheets(pieces, options)

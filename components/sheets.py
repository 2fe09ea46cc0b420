"""A play-aid sheet of the kit (the ``sheets`` section): its heading, then its sections (as
bullets or write-in lines), the tables it lists (components/aids.py) and its charts
(components/charts.py)."""

from __future__ import annotations

from collections.abc import Iterator

from ..engine.model import Game, Sheet
from .aids import BESIDE, Block, bullets, constant_line, heading, table_blocks, write_in_block
from .charts import chart_blocks
from .marks import rule_ref


def sheet_blocks(game: Game, sheet: Sheet, width: float,
                 max_h: float | None = None) -> Iterator[Block]:
    """A sheet: its heading, sections, tables and charts; nothing when it has no section
    and every table it lists is printed already (``first_print``)."""
    body: list[Block] = []
    for section in sheet.sections:
        title = " ".join(t for t in (section.title, section.title_ja) if t)
        if title:
            body.append(heading(title, width, 3.6))
        cols = max(1, section.columns or 1)
        field_w = (width - (cols - 1) * BESIDE) / cols - (0.01 if cols > 1 else 0.0)
        if section.write_in:
            body.extend(write_in_block(line, field_w, section.write_in)
                        for line in section.lines)
        elif section.lines:
            body.append(bullets(section.lines, width))
        if section.constants:
            body.append(bullets([constant_line(game, c) for c in section.constants], width))
    for table_id in sheet.tables:
        body.extend(table_blocks(game.table(table_id), width, game, max_h))
    for chart in sheet.charts:  # the terrain effects chart, stacking limits
        body.extend(chart_blocks(game, chart, width))
    if body:
        yield heading(f"{sheet.label}  {rule_ref(sheet.rule)}".rstrip(), width, 5.0)
        yield from body

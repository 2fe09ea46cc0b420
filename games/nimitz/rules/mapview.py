"""A Nimitz session's position on the kit's campaign map (``warpress play status --map``):
the map as the kit draws it (coastlines, points, routes, boxes, the panel of tables), each
point's units as stacks of the kit's own counters (the US to the right of the point, the
Japanese to its left, a badge with the count of a taller stack, damaged units on their
back), and under the map what lies in the boxes."""

from __future__ import annotations

from warpress.components import labels
from warpress.components.collect import rasterise
from warpress.components.kit import check_glyphs, typeset
from warpress.components.position_map import piece_for
from warpress.components.primitives import Group, Line, Page, Primitive, Rect, Style, Text
from warpress.components.render_svg import svg_text
from warpress.engine.errors import BadInput
from warpress.engine.model import Game
from warpress.engine.position import Position

from .. import kit as nk
from .positions import DAMAGED, JAPAN, US, Run, campaign, point_name
from .views import phase_name

FORMATS = ("svg", "png")
MARGIN = 4.0
TITLE_H = 8.0
COUNTER = 10.0  # mm a counter is drawn on the map
RISE = 6.0  # mm from a point's centre to the foot of its stacks
SHIFT = 0.9  # mm each next counter of a stack moves up and right
SHOWN = 5  # counters drawn of a taller stack
LINE_H = 4.0
TEXT = 2.8  # mm (8 pt)
#: what the strip under the map lists, in this order
BOXES = ("us-reinforcements", "port-return-1944-45", "port-return-1943-45",
         "port-return-1942-45", "commerce-raiding", "bw-strategic-bombing", "japan-invasion",
         "japanese-reinforcement-ships", "japanese-reinforcement-infantry",
         "japanese-reinforcement-land-air", "battalion-box")


def title_of(game: Game, position: Position) -> str:
    run = Run(game, position)
    turn = position.tracks.get("campaign-turn", "")
    phase = phase_name(game, position.phase) or ""
    over = f" · {position.verdict.result}" if position.verdict else ""
    return (f"{game.info.name} · {campaign(game, run.campaign).label} · turn {position.turn} "
            f"({turn}) · {phase}{over}")


def stack(game: Game, pieces, x: float, y: float, ident: str) -> Group:
    """A stack of counters, bottom first, its first counter's top left at (x, y)."""
    shown = pieces[-SHOWN:]
    items: list[Primitive] = []
    for k, piece in enumerate(shown):
        face = piece_for(game, piece.unit, piece.step == DAMAGED)
        scale = COUNTER / max(face.w, face.h)
        items.append(Group(tuple(face.front), dx=x + k * SHIFT, dy=y - k * SHIFT, scale=scale,
                           clip=(0, 0, face.w, face.h), id=f"{ident}-{k + 1}",
                           cls=f"stacked {face.cls}"))
    if len(pieces) > len(shown):
        r = 2.0
        bx, by = x + (len(shown) - 1) * SHIFT + COUNTER, y - (len(shown) - 1) * SHIFT
        items += [Rect(bx - r, by - r, 2 * r, 2 * r, Style(fill="#ffffff", stroke="#222222",
                                                           width=0.3), r=r),
                  Text(bx, by + 0.8, str(len(pieces)), size=2.2, anchor="middle", bold=True,
                       cls="stack-count")]
    return Group(tuple(items), id=ident, cls="stack")


def stacks(game: Game, run: Run, positions: dict[str, tuple[float, float]],
           space: nk.MapSpace) -> list[Primitive]:
    """Each point's stacks beside its disc, the US first, where they cover no name, disc,
    box or other stack of the map (over it, else wherever there is room)."""
    out: list[Primitive] = []
    for point_id, (x, y) in positions.items():
        for side in (US, JAPAN):
            here = list(reversed(run.at(point_id, side)))
            if not here:
                continue
            rise = (min(len(here), SHOWN) - 1) * SHIFT
            badge = 2.0 if len(here) > SHOWN else 0.0
            w, h = COUNTER + rise + badge, COUNTER + rise + badge
            spots = nk.candidates(x, y, RISE, w, h, reach=24.0, steps=8)
            preferred = spots[1::8][:2] if side == US else spots[7::8][:2]
            try:
                left, top = space.first(preferred + spots, w, h, f"the {side} stack")
            except BadInput:
                left, top = x + RISE, y - RISE - h
            (x0, y0), (x1, y1) = nk._link(labels.Box(left, top, left + w, top + h), x, y,
                                          disc_r(run, point_id))
            out.append(Line(x0, y0, x1, y1, Style(stroke=nk.DEEP[side], width=0.35),
                            cls="stack-leader"))
            out.append(stack(game, here, left, top + h - COUNTER - badge / 2,
                             f"stack-{point_id}-{side}"))
    return out


def disc_r(run: Run, point_id: str) -> float:
    point = next(p for p in run.game.get("point_maps", nk.MAP_ID).points if p.id == point_id)
    return nk.disc_radius(point)


def box_lines(game: Game, run: Run) -> list[str]:
    lines = []
    for box in BOXES:
        here = [p for p in run.pieces.values() if p.kind == "box" and p.place == box]
        if here:
            names = ", ".join(sorted(p.id for p in here))
            lines.append(f"{point_name(game, box)}: {len(here)} — {names}")
    return lines


def position_page(game: Game, position: Position) -> Page:
    point_map = game.get("point_maps", nk.MAP_ID)
    drawing, width, height, space = nk.campaign_map_layout(game)
    run = Run(game, position)
    pos = nk.point_positions(game, point_map)
    lines = box_lines(game, run)
    strip = LINE_H * len(lines) + (LINE_H if lines else 0)
    body = Group((*drawing, Group(tuple(stacks(game, run, pos, space)), cls="stacks")),
                 dx=MARGIN, dy=MARGIN + TITLE_H, clip=(0, 0, width, height))
    title = title_of(game, position)
    texts = [Text(MARGIN, MARGIN + 5.5, title, size=4.2, bold=True, cls="position-title")]
    top = MARGIN + TITLE_H + height + LINE_H + 1
    texts += [Text(MARGIN, top + i * LINE_H, line, size=TEXT, cls="box-line")
              for i, line in enumerate(lines)]
    return Page(width + 2 * MARGIN, height + 2 * MARGIN + TITLE_H + strip, (body, *texts),
                id="position-campaign", title=title)


def draw_position(game: Game, position: Position, fmt: str, dpi: int = 100) -> bytes:
    """The position on the campaign map as SVG or PNG bytes; the same input, the same
    bytes."""
    if fmt not in FORMATS:
        raise BadInput(f"picture format {fmt!r} is not one of {', '.join(FORMATS)}")
    page = position_page(game, position)
    page = Page(page.width, page.height, typeset(page.items), id=page.id, title=page.title)
    check_glyphs([page])
    if fmt == "svg":
        return svg_text(page, page.title).encode("utf-8")
    return rasterise([page], dpi, page.title)[0]

"""What a player prints: every page of the five kits and the starting game's, on A4 and
Letter, holds only what a player needs (components/kit.py, components/marks.py)."""

from __future__ import annotations

import re

import pytest
from warpress.components import aids
from warpress.components.impose import (
    KEEP,
    SpatialIndex,
    recording,
    text_boxes,
    whole_boxes,
)
from warpress.components.kit import kit_pages, parse_options
from warpress.components.marks import DAGGER, plain, proof, rule_ref
from warpress.components.page import FOOTER, MARGIN
from warpress.components.primitives import Group, texts, walk
from warpress.components.style import look_of
from warpress.engine.loader import builtin, builtin_games

#: The five built-in kits and the starting game's, on A4 and Letter (conftest.player_kits).
KITS = [(g, p) for g in (*builtin_games(), "starter") for p in ("a4", "letter")]
#: Designer material a player's page never shows, by what it is.
DESIGNER = {
    "an erratum id": re.compile(r"\b(?:C-)?E\d{1,2}\b"),
    "a key path": re.compile(r"\b[\w-]+\.(?:stats|count|params|size_mm|condition|objectives)\b"),
    "a constant id": re.compile(r"\bconstants? [a-z]+-[a-z-]+"),
    "a source line": re.compile(r"\bL\d+(?:-\d+)?\b"),
    "a design note": re.compile(r"not given|not in the (?:rule )?(?:text|rules)|design note|"
                                r"inferred|confidence|assumed values?|source: assumed", re.I),
    "a source note": re.compile(r"\bPE\b|play example|campaigns section|not redrawn"),
}


@pytest.mark.parametrize(("game_id", "paper"), KITS)
def test_no_player_page_holds_designer_material(player_kits, game_id, paper):
    _game, pages = player_kits[game_id, paper]
    found = [(page.id, what, text.text) for page in pages for text in texts(page.items)
             for what, pattern in DESIGNER.items() if pattern.search(text.text)]
    assert not found, found[:8]


def test_plain_leaves_designer_items_out_of_brackets_and_keeps_the_rest():
    assert plain("back along its path (no day surface battle; E28)") == (
        "back along its path (no day surface battle)")
    assert plain("Your fighters defend at 5 (constant jet-fighter-defense).") == (
        "Your fighters defend at 5.")
    assert plain("(constants rocket-range, rocket-damage-dice)") == ""
    assert plain("re-roll (E12: a 6 is discarded once all are developed).") == (
        "re-roll (a 6 is discarded once all are developed).")
    assert plain("one roll (10.1; see E18 for 28.4); a bomber") == "one roll (10.1); a bomber"
    assert plain("never roll [sea 1, L85]") == "never roll [sea 1]"
    assert plain("a move (12.3(2)) as printed (end-of-turn)") == (
        "a move (12.3(2)) as printed (end-of-turn)")
    assert plain("Not in the text: the order. Taken: landing first.") == "Landing first."
    with proof(True):
        assert plain("x (E12)") == "x (E12)"


def test_a_player_heading_keeps_two_rule_numbers_the_proof_all():
    rules = ["2.1(3)", "3.3(1)", "4.1", "L12-14"]
    assert rule_ref(rules) == "[2.1(3), 3.3(1)]"
    assert rule_ref(["L62-64"]) == "" and rule_ref([]) == ""
    with proof(True):
        assert rule_ref(rules) == "[2.1(3), 3.3(1), 4.1, L12-14]"


@pytest.fixture(scope="module")
def proofs(starter_game):
    games = {g: builtin(g) for g in builtin_games()} | {"starter": starter_game}
    return {g: (game, kit_pages(game, parse_options("a4", "pdf", "long", "0,0", None,
                                                    proof=True)))
            for g, game in games.items()}


@pytest.mark.parametrize("game_id", [*builtin_games(), "starter"])
def test_the_proof_lists_and_marks_every_printed_assumed_counter_value(proofs, game_id):
    game, pages = proofs[game_id]
    assert any(p.id.startswith("assumed-values") for p in pages)
    counters = {g.id: g for p in pages for g in walk(p.items)
                if isinstance(g, Group) and g.id and g.id.startswith("counter-")}
    for unit in game.units:
        look = look_of(game, unit)
        printed = [k for spec in (*look.factors, *look.corners.values())
                   for k in spec.split("|") if k in unit.stats]
        if not (unit.is_assumed or any(unit.field_assumed(f"stats.{k}") for k in printed)):
            continue
        drawn = counters.get(f"counter-{unit.id}-1")
        if drawn is None or look.layout == "marker":
            continue  # a game that draws this unit its own way (Nightfighter's aircraft)
        assert any(DAGGER in t.text for t in texts(drawn.items)), unit.id


# --- sheets filled, nothing split -------------------------------------------------------------

#: A page is a quarter full at least (map tiles and backs aside).
QUARTER = 0.25


def fill(page) -> float:
    """The share of a page's content area its elements cover (the footer aside): the union
    of their boxes on a 1 mm grid."""
    items = [i for i in page.items if not (getattr(i, "cls", None) or "").startswith(
        ("footer", "scale"))]
    index = SpatialIndex(tuple(items))
    covered = set()
    bottom = page.height - MARGIN - FOOTER
    for item in items:
        box = index.box(item)
        if box is None:
            continue
        x0, y0, x1, y1 = (max(MARGIN, box[0]), max(MARGIN, box[1]),
                          min(page.width - MARGIN, box[2]), min(bottom, box[3]))
        covered.update((x, y) for x in range(int(x0), int(x1)) for y in range(int(y0), int(y1)))
    return len(covered) / ((page.width - 2 * MARGIN) * (bottom - MARGIN))


@pytest.mark.parametrize(("game_id", "paper"), KITS)
def test_no_sheet_is_under_a_quarter_full_but_a_map_tile_or_a_back(player_kits, game_id, paper):
    _game, pages = player_kits[game_id, paper]
    sparse = [(p.id, round(fill(p), 2)) for p in pages  # a blank page is a sheet's back
              if not p.id.endswith(("-back", "-blank")) and not p.id.startswith("map-")
              and "tile" not in p.id and fill(p) < QUARTER]
    assert not sparse


@pytest.mark.parametrize(("game_id", "paper"), KITS)
def test_the_duplex_calibration_prints_first(player_kits, game_id, paper):
    _game, pages = player_kits[game_id, paper]
    if any(p.id.endswith("-back") for p in pages):
        assert [p.id for p in pages[:2]] == ["calibration-front", "calibration-back"]


def test_the_starting_game_prints_on_three_sheets(player_kits):
    _game, pages = player_kits["starter", "a4"]
    # duplex: the calibration; the aids with the counters and their backs; the rest of the
    # aids with the set-up and, on its back, the map
    assert (len(pages) + 1) // 2 == 3


def backs_misplaced(pages) -> list[tuple[int, str, str]]:
    """(page number, id, the id of the page before) of every page of backs (its id ends
    ``-back``: the kit's own page list) that is not an even page right after its fronts."""
    wrong = []
    for number, page in enumerate(pages, 1):
        if page.id.endswith("-back"):
            before = pages[number - 2].id if number > 1 else ""
            front = page.id.removesuffix("-back")
            if number % 2 or before not in (front, f"{front}-front"):
                wrong.append((number, page.id, before))
    return wrong


@pytest.mark.parametrize(("game_id", "paper"), KITS)
@pytest.mark.parametrize("flip", ["long", "short"])
def test_every_page_of_backs_is_even_and_right_after_its_fronts(player_kits, short_edge_kits,
                                                                 game_id, paper, flip):
    kits = player_kits if flip == "long" else short_edge_kits
    _game, pages = kits[game_id, paper]
    assert not backs_misplaced(pages)


@pytest.mark.parametrize(("game_id", "paper"), KITS)
def test_the_calibration_page_says_which_pages_print_double_sided(player_kits, game_id, paper):
    """Map tiles must not back onto each other: the first page names the pages of fronts
    and backs (double-sided) and every other page (one-sided), each page once."""
    _game, pages = player_kits[game_id, paper]
    if not pages[0].id.startswith("calibration"):
        return  # a one-sided kit: nothing to say
    text = " ".join(t.text for t in texts(pages[0].items))
    plan = re.search(r"Double-sided: pages ([^.]*)\.(?: One-sided: pages ([^(]*) \()?", text)
    assert plan, text
    blank = re.search(r"Blank, to skip printing one-sided: pages? ([^.]*)\.", text)
    said = {"double": _numbers(plan.group(1)), "single": _numbers(plan.group(2) or ""),
            "blank": _numbers(blank.group(1) if blank else "")}
    assert not said["double"] & said["single"] and not said["blank"] & said["single"]
    assert said["double"] | said["single"] | said["blank"] == set(range(1, len(pages) + 1))
    for n in said["blank"] - said["double"]:  # nothing on it but its footer
        assert pages[n - 1].id.endswith("-blank")
        assert {t.cls for t in texts(pages[n - 1].items)} <= {"footer", "scale-label"}
    for n in said["double"]:
        page = pages[n - 1]
        partner = pages[n] if n % 2 else pages[n - 2]
        assert page.id.endswith("-back") or partner.id.endswith("-back"), (n, page.id)


def _numbers(runs: str) -> set[int]:
    out: set[int] = set()
    for run in filter(None, (r.strip() for r in runs.split(","))):
        a, _, b = run.partition("–")
        out.update(range(int(a), int(b or a) + 1))
    return out


def test_the_backs_test_finds_a_back_on_an_odd_page_or_parted_from_its_front():
    class P:
        def __init__(self, id_):
            self.id = id_

    kit = [P(i) for i in ("calibration-front", "calibration-back", "map", "c-1-front",
                          "c-1-back", "aids-1", "aids-1-back")]
    assert backs_misplaced(kit) == [(5, "c-1-back", "c-1-front"), (7, "aids-1-back", "aids-1")]
    assert not backs_misplaced(kit[:2] + kit[3:])
    kit[5], kit[6] = kit[6], kit[5]
    assert (6, "aids-1-back", "c-1-back") in backs_misplaced(kit)


def _crossed(boxes, at: float, axis: int, clear: float = -0.5) -> list:
    """The boxes a seam at ``at`` crosses, or passes nearer than ``clear`` mm."""
    return [b for b in boxes if b[axis] - clear < at < b[axis + 2] + clear]


@pytest.mark.parametrize("game_id", [*builtin_games(), "starter"])
@pytest.mark.parametrize("paper_name", ["a4", "letter"])
def test_no_box_table_title_or_caption_crosses_a_tile_seam(starter_game, game_id, paper_name):
    """Titles, captions, tables, legends and boxes that hold pieces: a map covered with
    boxes (the Axis & Allies world) keeps them out of the lanes where its tiles meet."""
    game = starter_game if game_id == "starter" else builtin(game_id)
    with recording() as seen:
        kit_pages(game, parse_options(paper_name, "pdf", "long", "0,0", "map"))
    assert seen.drawings or not (game.hex_maps or game.point_maps)
    for drawing in seen.drawings:
        whole = [box for box, weight in whole_boxes(drawing.items, SpatialIndex(drawing.items))
                 if weight >= KEEP]
        assert whole or drawing.name != "map world"
        for axis, cuts in ((0, drawing.seams_x), (1, drawing.seams_y)):
            for at in cuts:
                assert not _crossed(whole, at, axis), (drawing.name, axis, at,
                                                       _crossed(whole, at, axis)[:3])


#: Kits whose maps still print a text across a seam, with why (a strict xfail: the day the
#: map is fixed the mark goes).
TEXT_ACROSS: dict[str, str] = {}


@pytest.mark.parametrize("game_id", [
    pytest.param(g, marks=pytest.mark.xfail(reason=TEXT_ACROSS[g], strict=True))
    if g in TEXT_ACROSS else g for g in (*builtin_games(), "starter")])
@pytest.mark.parametrize("paper_name", ["a4", "letter"])
def test_no_text_crosses_a_tile_seam(starter_game, game_id, paper_name):
    """Labels, captions, headings, hex ids: no glyph is cut at a tile's trim (the overlap
    strip under the next tile prints it, but the trimmed tile shows none of it)."""
    game = starter_game if game_id == "starter" else builtin(game_id)
    with recording() as seen:
        kit_pages(game, parse_options(paper_name, "pdf", "long", "0,0", "map"))
    crossed = [(drawing.name, axis, at, text.text)
               for drawing in seen.drawings for box, text in text_boxes(drawing.items)
               for axis, cuts in ((0, drawing.seams_x), (1, drawing.seams_y))
               for at in cuts if box[axis] < at < box[axis + 2]]
    assert not crossed, crossed[:6]


# --- tables a player can read -----------------------------------------------------------------

#: A hyphen used as a minus sign: before a number that starts a word (``-1``).
HYPHEN_MINUS = re.compile(r"(?:^|[\s(\[=:,/])-\d")


def _tables_on(page, game) -> set[str]:
    ids = {f"table-{t.id}": t.id for t in game.tables} | {f"aid-table-{t.id}": t.id
                                                          for t in game.tables}
    return {ids[g.id] for g in walk(page.items) if isinstance(g, Group) and g.id in ids}


def _copies(game) -> list[set[str]]:
    """Sheets printed once per player (the same tables and sections under each side's
    name, as the game's box holds them): their pages may repeat each other's tables."""
    seen: dict[str, list[str]] = {}
    for sheet in game.sheets:
        what = repr((sheet.tables, [(s.title, s.lines) for s in sheet.sections]))
        seen.setdefault(what, []).append(sheet.id)
    return [set(ids) for ids in seen.values() if len(ids) > 1]


@pytest.mark.parametrize(("game_id", "paper"), KITS)
def test_no_table_is_printed_twice_in_a_kit(player_kits, game_id, paper):
    """A table prints once per kit (a map drawn over several tiles aside: its overlaps show
    the same drawing twice), but on the sheets the game gives each player."""
    game, pages = player_kits[game_id, paper]
    copies = _copies(game)
    where: dict[str, list[str]] = {}
    for page in pages:
        if page.id.startswith("map-") or "tile" in page.id:
            continue
        for table_id in _tables_on(page, game):
            where.setdefault(table_id, []).append(page.id)
    twice = {t: ps for t, ps in where.items() if len(ps) > 1
             and not any(all(any(p.startswith(s) for s in ids) for p in ps) for ids in copies)}
    assert not twice


@pytest.mark.parametrize("game_id", [*builtin_games(), "starter"])
def test_no_table_of_all_equal_results_prints_as_rows(starter_game, game_id):
    """A table whose every row gives the same result says so in a line (its formula)."""
    game = starter_game if game_id == "starter" else builtin(game_id)
    for table in game.tables:
        results = {repr(table.result(row)) for row in table.rows}
        if len(table.rows) > 1 and len(results) == 1:
            assert aids.table_formula(table, game), table.id


@pytest.mark.parametrize(("game_id", "paper"), KITS)
def test_no_hyphen_stands_for_a_minus_sign(player_kits, game_id, paper):
    _game, pages = player_kits[game_id, paper]
    found = [(p.id, t.text) for p in pages for t in texts(p.items) if HYPHEN_MINUS.search(t.text)]
    assert not found, found[:8]


@pytest.mark.parametrize(("table_id", "rows"), [
    ("battle-rounds", [["1–2", "1"], ["3–5", "2"], ["6–8", "3"], ["9–10", "4"]]),
    ("battle-plan-count", [["1–3", "1"], ["4–7", "2"], ["8–11", "3"], ["12+", "4"]]),
])
def test_runs_of_equal_results_print_as_one_row(table_id, rows):
    """Nimitz's battle rounds: die 3, 4 and 5 all give 2 rounds, printed as one row 3–5."""
    game = builtin("nimitz")
    block = aids.table_block(game.table(table_id), 190, game)
    cells = [t.text for t in texts(block.items)][-2 * len(rows):]
    assert cells == [c for row in rows for c in row]

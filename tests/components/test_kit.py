"""components/kit.py: structure of a built kit, not pixels."""

from __future__ import annotations

import re
import struct
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader
from warpress.cli import main
from warpress.components import aids
from warpress.components.impose import DUPLEX_MODES
from warpress.components.kit import (
    KitPage,
    _off_the_offcut,
    build_kit,
    fronts_on_odd_pages,
    kit_pages,
    parse_options,
)
from warpress.components.page import paper as paper_named
from warpress.components.primitives import Group, Page, Text, walk
from warpress.engine.errors import BadInput
from warpress.engine.loader import builtin, builtin_games

A4 = (210 * 72 / 25.4, 297 * 72 / 25.4)


def _svgs(kit, part: str) -> list[str]:
    return [p.read_text(encoding="utf-8") for p in kit.files
            if p.suffix == ".svg" and part in p.name]


def test_every_hex_of_the_midway_map_is_drawn_with_its_id(midway_kit):
    hex_map = builtin("midway").hex_map()
    drawn = set()
    for svg in _svgs(midway_kit, "map-operations-area"):
        drawn |= set(re.findall(r'id="hex-([A-Z]+-\d+)"', svg))
    assert drawn == set(hex_map.hex_ids)
    f6 = re.search(r'class="([^"]*)"[^>]*id="hex-F-6"', "".join(_svgs(midway_kit, "map-oper")))
    assert {"hex", "island", "midway"} <= set(f6.group(1).split())


def test_counter_and_card_counts_match_the_data(midway_kit):
    game = builtin("midway")
    fronts = "".join(_svgs(midway_kit, ""))  # a small sheet of counters flows with the aids
    counters = re.findall(r'<g class="counter (?![^"]*\bback\b)[^"]*" [^>]*id="counter-[^"]*"',
                          fronts)
    expected = sum(u.count or 1 for u in game.units) + sum(m.count or 1 for m in game.markers)
    assert len(counters) == expected
    cards = re.findall(r'id="card-event-[^"]*-\d+"', "".join(_svgs(midway_kit, "cards-63")))
    assert len(cards) == sum(c.count for c in game.cards) == 8


def test_pdf_pages_are_true_size_and_fonts_embedded(midway_kit):
    reader = PdfReader(midway_kit.folder / "midway.pdf")
    assert len(reader.pages) == midway_kit.pages
    for page in reader.pages:
        size = sorted((float(page.mediabox.width), float(page.mediabox.height)))
        assert size == pytest.approx(sorted(A4), abs=0.01)
        for font in (page.get("/Resources") or {}).get("/Font", {}).values():
            descriptor = font.get_object()
            if "/DescendantFonts" in descriptor:
                descriptor = descriptor["/DescendantFonts"][0].get_object()
            assert "/FontFile2" in descriptor["/FontDescriptor"], descriptor


def test_japanese_text_is_extractable(midway_kit):
    reader = PdfReader(midway_kit.folder / "midway.pdf")
    text = "".join(page.extract_text() for page in reader.pages)
    assert "赤城" in text or "ミッドウェイ" in text
    assert "page 1/" in text


def test_same_input_gives_byte_identical_files(midway_kit, tmp_path):
    again = build_kit(builtin("midway"), tmp_path, parse_options("a4", "pdf,svg", "long", "0,0",
                                                                 None))
    assert [p.name for p in again.files] == [p.name for p in midway_kit.files]
    for first, second in zip(midway_kit.files, again.files, strict=True):
        assert first.read_bytes() == second.read_bytes(), first.name


def _sheets(pages):
    """The pages after the duplex calibration, which prints first."""
    assert pages[0].id == "calibration-front" and pages[1].id == "calibration-back"
    return pages[2:]


def test_backs_are_mirrored_for_long_edge_duplex():
    game = builtin("midway")
    pages = _sheets(kit_pages(game, parse_options("a4", "pdf", "long", "0,0", "cards")))
    front, back = pages[0], pages[1]
    fronts = {g.id: g for g in walk(front.items) if isinstance(g, Group) and g.id
              and g.id.startswith("card-")}
    backs = {g.id[:-5]: g for g in walk(back.items) if isinstance(g, Group) and g.id
             and g.id.endswith("-back")}
    assert fronts.keys() == backs.keys()
    for key, g in fronts.items():
        assert backs[key].dx == pytest.approx(front.width - g.dx - 63.0)
        assert backs[key].dy == pytest.approx(g.dy)


def test_short_edge_duplex_and_back_offset_move_the_backs():
    game = builtin("midway")
    pages = _sheets(kit_pages(game, parse_options("a4", "pdf", "short", "1.5,-0.5", "cards")))
    front, back = pages[0], pages[1]
    first = next(g for g in walk(front.items) if isinstance(g, Group) and g.id
                 and g.id.startswith("card-"))
    its_back = next(g for g in walk(back.items) if isinstance(g, Group)
                    and g.id == f"{first.id}-back")
    assert its_back.dx == pytest.approx(first.dx + 1.5)
    assert its_back.dy == pytest.approx(front.height - first.dy - 88.0 - 0.5)


@pytest.mark.parametrize("game_id", ["midway", "midway-cards", "nightfighter"])
def test_a_fold_kit_prints_each_back_beside_its_front_on_one_side(game_id):
    pages = kit_pages(builtin(game_id), parse_options("a4", "pdf", "fold", "0,0", None))
    assert not [p.id for p in pages if p.id.endswith("-back") or "calibration" in p.id]
    backed = 0
    for page in pages:
        groups = {g.id for g in walk(page.items) if isinstance(g, Group) and g.id}
        backs = {i[:-len("-back")] for i in groups if i.endswith("-back")}
        assert backs <= groups, page.id  # every back on its front's page
        backed += len(backs)
    assert backed


def test_build_takes_every_duplex_mode():
    build = next(p for p in main.commands["build"].params if p.name == "duplex")
    assert tuple(build.type.choices) == DUPLEX_MODES


def test_cards_are_nine_up_with_crop_marks_on_a4_and_letter():
    game = builtin("midway")
    for paper in ("a4", "letter"):
        pages = _sheets(kit_pages(game, parse_options(paper, "pdf", "long", "0,0", "cards")))
        cards = [g for g in walk(pages[0].items) if isinstance(g, Group) and g.id
                 and g.id.startswith("card-")]
        assert len(cards) == 8  # the event deck has 8 cards: one sheet
        marks = [i for i in walk(pages[0].items) if getattr(i, "cls", None) == "crop-mark"]
        assert marks


def test_calibration_is_in_the_kit_and_assumed_values_only_in_the_proof(midway_kit):
    names = [p.name for p in midway_kit.files]
    assert any("calibration-front" in n for n in names)
    assert not any("assumed-values" in n for n in names)
    assert not any("map-operations-area-assembly" in n for n in names)  # on tile B1
    proof = kit_pages(builtin("midway"), parse_options("a4", "pdf", "long", "0,0", None,
                                                       proof=True))
    assert any(p.id.startswith("assumed-values") for p in proof)


def test_the_proof_is_its_own_file_beside_the_kit_and_neither_overwrites_the_other(tmp_path):
    def build(*extra: str) -> None:
        result = CliRunner().invoke(main, ["build", "midway", "--only", "cards", "--format",
                                           "pdf,svg", "--out", str(tmp_path), *extra])
        assert result.exit_code == 0, result.output

    folder = tmp_path / "midway"
    build()
    kit = (folder / "midway.pdf").read_bytes()
    build("--proof")
    assert (folder / "midway.pdf").read_bytes() == kit
    proof = (folder / "midway-proof.pdf").read_bytes()
    assert proof != kit and list((folder / "proof" / "svg").glob("*.svg"))
    build()
    assert (folder / "midway-proof.pdf").read_bytes() == proof
    assert (folder / "midway.pdf").read_bytes() == kit


def test_bad_options_are_refused():
    with pytest.raises(BadInput, match="unknown paper 'b5'"):
        parse_options("b5", "pdf", "long", "0,0", None)
    with pytest.raises(BadInput, match="unknown format 'gif'"):
        parse_options("a4", "pdf,gif", "long", "0,0", None)
    with pytest.raises(BadInput, match="unknown kit part 'dice'"):
        parse_options("a4", "pdf", "long", "0,0", "map,dice")
    with pytest.raises(BadInput, match="--back-offset 'x'"):
        parse_options("a4", "pdf", "long", "x", None)


@pytest.mark.parametrize("text", ["nan,0", "0,inf", "-1e9,0", "10.01,0", "0,-10.5"])
def test_back_offsets_beyond_ten_mm_or_not_numbers_are_refused(text):
    with pytest.raises(BadInput, match=r"X and Y are mm from -10 to 10"):
        parse_options("a4", "pdf", "long", text, None)


def test_back_offsets_up_to_ten_mm_are_taken():
    assert parse_options("a4", "pdf", "long", "10,-10", None).back_offset == (10.0, -10.0)


def test_cli_build_writes_nothing_when_the_output_cannot_be_written(tmp_path: Path):
    blocker = tmp_path / "output"
    blocker.write_text("a file where the folder should be", encoding="utf-8")
    result = CliRunner().invoke(main, ["build", "midway", "--out", str(blocker / "x")])
    assert result.exit_code == 2
    assert "cannot be written" in result.output
    assert "Traceback" not in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["output"]


def test_cli_build_unknown_paper_is_exit_2(tmp_path: Path):
    result = CliRunner().invoke(main, ["build", "midway", "--paper", "b5", "--out",
                                       str(tmp_path)])
    assert result.exit_code == 2
    assert "unknown paper 'b5' (allowed: a4, letter, a3, tabloid)" in result.output
    assert list(tmp_path.iterdir()) == []


def test_cli_build_only_cards_prints_a_summary(tmp_path: Path):
    result = CliRunner().invoke(main, ["build", "midway", "--only", "cards", "--format", "pdf",
                                       "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "midway: " in result.output and "built 1 kit(s)" in result.output
    assert (tmp_path / "midway" / "midway.pdf").is_file()


def test_cli_build_proof_marks_assumed_values_on_the_counters(tmp_path: Path):
    def daggers(*extra: str) -> int:
        out = tmp_path / ("proof" if extra else "player")
        result = CliRunner().invoke(main, ["build", "nimitz", "--only", "counters", "--format",
                                           "svg", "--out", str(out), *extra])
        assert result.exit_code == 0, result.output
        svgs = (out / "nimitz").glob("**/svg/*counters*.svg")
        return sum(p.read_text(encoding="utf-8").count("†") for p in svgs)

    assert daggers() == 0
    assert daggers("--proof") > 0


def test_png_pages_one_per_page_named_like_the_svgs_at_the_dpi(tmp_path):
    options = parse_options("a4", "pdf,svg,png", "long", "0,0", "cards", dpi=40)
    built = build_kit(builtin("midway-cards"), tmp_path, options)
    pdf = next(p for p in built.files if p.suffix == ".pdf")
    pages = len(PdfReader(pdf).pages)
    pngs = sorted(p.stem for p in built.files if p.suffix == ".png")
    assert len(pngs) == pages
    assert pngs == sorted(p.stem for p in built.files if p.suffix == ".svg")
    first = next(p for p in built.files if p.suffix == ".png").read_bytes()
    assert first.startswith(b"\x89PNG\r\n\x1a\n")
    assert struct.unpack(">II", first[16:24]) == (round(210 / 25.4 * 40 + 0.5),
                                                  round(297 / 25.4 * 40 + 0.5))


def test_a_failing_format_does_not_stop_the_others(tmp_path, monkeypatch):
    from warpress.components import kit

    def broken(*_args):
        raise RuntimeError("no rasteriser")

    monkeypatch.setitem(kit.FORMAT_WRITERS, "png", broken)
    options = parse_options("a4", "png,pdf", "long", "0,0", "cards")
    with pytest.raises(BadInput) as caught:
        build_kit(builtin("midway-cards"), tmp_path, options)
    assert str(caught.value) == ("midway-cards: --format png failed: no rasteriser (pdf written "
                                 f"to {tmp_path / 'midway-cards'})")
    assert [p.name for p in (tmp_path / "midway-cards").iterdir()] == ["midway-cards.pdf"]


@pytest.mark.parametrize("dpi", [0, 9, 601, True])
def test_a_dpi_out_of_range_is_refused_before_work(dpi):
    with pytest.raises(BadInput, match=f"--dpi {dpi!r} is not a whole number from 10 to 600"):
        parse_options("a4", "png", "long", "0,0", None, dpi=dpi)


@pytest.mark.parametrize("game_id", builtin_games())
def test_no_counter_or_card_sheet_is_nearly_empty(game_id):
    """A player should not print a whole sheet for a piece or two: the last sheet of each
    counter or card size holds at least a tenth of what a full one does (Nimitz once put
    its 205th counter alone on a second A4 sheet)."""
    pages = kit_pages(builtin(game_id), parse_options("a4", "pdf", "long", "0,0",
                                                      "counters,cards"))
    by_part: dict[str, list[int]] = {}
    for page in pages:
        if page.id.endswith("-front") and page.id.startswith(("counters-", "cards-")):
            pieces = sum(1 for i in page.items if isinstance(i, Group) and i.clip)
            by_part.setdefault(page.id.rsplit("-", 2)[0], []).append(pieces)
    assert by_part
    for part, counts in by_part.items():
        if len(counts) > 1:
            assert counts[-1] >= 0.1 * counts[0], (part, counts)


def test_the_page_limit_is_about_ten_times_the_largest_shipped_kit(player_kits):
    from warpress.engine.limits import KIT_PAGES

    most = max(len(pages) for (game, _paper), (_g, pages) in player_kits.items()
               if game != "starter")
    assert 10 * most <= KIT_PAGES <= 20 * most


def test_a_kit_past_the_page_limit_is_refused_before_a_page_is_drawn(tmp_path, monkeypatch):
    from warpress.components import kit

    laid_out = len(kit_pages(builtin("midway"), parse_options("a4", "pdf", "long", "0,0",
                                                              None)))
    assert laid_out > 5
    monkeypatch.setattr(kit, "KIT_PAGES", 5)
    monkeypatch.setattr(kit, "_finish", lambda *args: pytest.fail("pages were drawn"))
    out = CliRunner().invoke(main, ["build", "midway", "--out", str(tmp_path)])
    assert out.exit_code == 2
    assert out.output.splitlines()[-1] == (f"warpress: midway: the kit lays out as {laid_out} "
                                           "pages: at most 5 (limits in docs/data-format.md); "
                                           "nothing was drawn")
    assert list(tmp_path.iterdir()) == []


def _kit(*ids: str) -> list[KitPage]:
    """Kit pages by id; a page's part is its id up to the last ``-<number>`` (or all of it)."""
    def part(page_id: str) -> str:
        stem = page_id.removesuffix("-back").removesuffix("-front")
        return re.sub(r"-\d+$", "", stem)

    return [KitPage(part(i), Page(210.0, 297.0, (), id=i)) for i in ids]


def _ids(pages: list[KitPage]) -> list[str]:
    return [p.page.id for p in pages]


def test_a_front_that_would_print_on_a_sheets_back_takes_a_page_of_its_own_part_after_it():
    kit = _kit("aids-1", "cards-1-front", "cards-1-back", "cards-2-front", "cards-2-back",
               "procedure-japan", "procedure-us")
    assert _ids(fronts_on_odd_pages(kit)) == [
        "aids-1", "procedure-japan", "cards-1-front", "cards-1-back", "cards-2-front",
        "cards-2-back", "procedure-us"]


def test_a_page_alone_of_its_part_before_the_fronts_goes_after_their_part():
    kit = _kit("map", "aids-1", "aids-1-back", "aids-2")
    assert _ids(fronts_on_odd_pages(kit)) == ["aids-1", "aids-1-back", "aids-2", "map"]


def test_a_part_is_never_reordered_and_a_blank_back_comes_only_when_nothing_can_move():
    kit = _kit("aids-1", "aids-2", "aids-2-back", "aids-3")
    out = fronts_on_odd_pages(kit)
    assert _ids(out) == ["aids-1", "aids-1-blank", "aids-2", "aids-2-back", "aids-3"]
    assert out[1].page.items == () and out[1].part == "blank"
    kit = _kit("tile-1", "tile-2", "tile-3", "c-1-front", "c-1-back", "screen-1", "screen-2")
    assert _ids(fronts_on_odd_pages(kit)) == ["tile-1", "tile-2", "tile-3", "screen-1",
                                              "c-1-front", "c-1-back", "screen-2"]


def _footer(page: Page) -> str:
    return next(t.text for t in walk(page.items) if isinstance(t, Text) and t.cls == "footer")


@pytest.mark.parametrize("game_id, duplex", [("axis-allies", "long"), ("midway", "fold")])
def test_a_kit_without_backs_says_on_its_first_page_to_print_one_sided(game_id, duplex):
    """No calibration page tells a one-sided kit's player how to print: its first page does
    (tiles printed back to back could not be assembled), and no other page repeats it."""
    pages = kit_pages(builtin(game_id), parse_options("a4", "pdf", duplex, "0,0", None))
    assert not [p.id for p in pages if p.id.endswith("-back")]
    assert _footer(pages[0]).endswith("print every page one-sided, at 100 %")
    assert not [p.id for p in pages[1:] if "one-sided" in _footer(p)]


def test_a_two_sided_kit_prints_its_plan_on_the_calibration_page_not_in_a_footer():
    pages = kit_pages(builtin("midway"), parse_options("a4", "pdf", "long", "0,0", None))
    assert pages[0].id == "calibration-front"
    assert not [p.id for p in pages if "one-sided" in _footer(p)]
    assert any("One-sided: pages" in t.text for t in walk(pages[0].items)
               if isinstance(t, Text))


def _rows(n: int, tag: str) -> list[aids.Block]:
    return [aids.Block((Text(0, 4, f"{tag} {i}", size=3.0),), 20.0, id=f"{tag}-{i}")
            for i in range(n)]


def test_no_section_begun_on_a_sheet_of_pieces_runs_on_past_its_backs():
    content = paper_named("a4").portrait.content()
    pieces = aids.Block((Text(0, 4, "counters", size=3.0),), 150.0, id="pieces-sheet")
    steps = [aids.heading("Sequence of play", content[2]), *_rows(12, "step")]
    backs = {"pieces-sheet": ((Text(0, 4, "backs", size=3.0),), 0.0)}
    pages = _off_the_offcut([pieces, *steps], backs, content)
    first = [b.id for b, _x, _y in pages[0]]
    assert first == ["pieces-sheet"]  # the sequence starts the next page, whole there
    assert [b.id for b, _x, _y in pages[1]][1:] == [f"step-{i}" for i in range(12)]
    without = aids.flow_placed([pieces, *steps], content)  # plain flow: it would run on
    assert "step-0" in [b.id for b, _x, _y in without[0]] and len(without) == 2
    assert _off_the_offcut([pieces, *steps], {}, content) == without  # no backs: no cut


def test_a_sheet_of_pieces_names_their_size_as_a_player_reads_it():
    """Counters of a whole eighth of an inch in inches and rounded millimetres, cards in
    rounded millimetres: never the layout's "15.875 mm"."""
    counters = kit_pages(builtin("midway-cards"), parse_options("a4", "pdf", "long", "0,0",
                                                                "counters"))
    assert "Counters 5/8 in (15.9 mm)" in _footer(counters[2])
    cards = kit_pages(builtin("midway"), parse_options("a4", "pdf", "long", "0,0", "cards"))
    assert "Cards 63 x 88 mm" in _footer(cards[2])
    assert not [p.id for p in (*counters, *cards) if "15.875" in _footer(p)]

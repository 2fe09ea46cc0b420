"""components/export.py and `warpress export`: piece images from the kit's own pieces."""

from __future__ import annotations

import math

import pytest
from click.testing import CliRunner
from PIL import Image
from warpress.cli import main
from warpress.components.export import collect, export_game
from warpress.engine.errors import BadInput
from warpress.engine.loader import builtin, load_game


@pytest.fixture(scope="module")
def midway_pieces(tmp_path_factory):
    return export_game(builtin("midway"), "pieces", tmp_path_factory.mktemp("pieces"), dpi=100)


def test_a_png_per_face_of_every_piece_named_by_its_id(midway_pieces):
    pieces = collect(builtin("midway")).pieces
    want = {f"{p.id}-front.png" for p in pieces}
    want |= {f"{p.id}-back.png" for p in pieces if p.piece.back is not None}
    assert {f.name for f in midway_pieces.files} == want
    assert any(p.what == "card" for p in pieces) and any(p.what == "counter" for p in pieces)


def test_each_face_is_its_piece_at_the_dpi(midway_pieces):
    pieces = {p.id: p.piece for p in collect(builtin("midway")).pieces}
    for path in midway_pieces.files:
        piece = pieces[path.name.rsplit("-", 1)[0]]
        image = Image.open(path)
        assert image.size == (math.ceil(piece.w / 25.4 * 100 - 1e-6),
                              math.ceil(piece.h / 25.4 * 100 - 1e-6))
        assert image.info["dpi"] == pytest.approx((100, 100), abs=0.05)  # prints true to size


def test_front_and_back_differ_and_show_the_counters_colour(midway_pieces):
    by_name = {f.name: f for f in midway_pieces.files}
    front = Image.open(by_name["counter-a6m-1-front.png"]).convert("RGB")
    back = Image.open(by_name["counter-a6m-1-back.png"]).convert("RGB")
    assert front.tobytes() != back.tobytes()
    colours = front.getcolors(front.width * front.height)
    count, ground = max(colours)
    assert ground != (255, 255, 255) and count > front.width * front.height / 3


def test_pieces_are_grouped_by_side_and_kind():
    pieces = collect(builtin("nightfighter")).pieces
    sides = {p.side for p in pieces}
    assert {s.name for s in builtin("nightfighter").info.sides} <= sides
    assert {p.kind for p in pieces} == {"units", "markers"}


def test_same_data_same_bytes(tmp_path):
    one = export_game(builtin("midway-cards"), "pieces", tmp_path / "a", dpi=40)
    two = export_game(builtin("midway-cards"), "pieces", tmp_path / "b", dpi=40)
    assert [f.read_bytes() for f in one.files] == [f.read_bytes() for f in two.files]


def test_a_game_without_maps_or_cards_exports_what_it_has(tiny_game, tmp_path):
    path = tiny_game / "game.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text[:text.index("hex_maps:")], encoding="utf-8")
    game = load_game(str(tiny_game))
    assert not game.hex_maps and not game.decks
    for fmt in ("pieces", "vassal", "tts"):
        result = export_game(game, fmt, tmp_path, dpi=50)
        assert result.files and all(f.stat().st_size for f in result.files)


def test_a_failed_export_leaves_the_last_one_in_place(tmp_path, monkeypatch):
    from warpress.components import export

    first = export_game(builtin("midway"), "pieces", tmp_path, dpi=20)

    def broken(*_args):
        raise BadInput("broken on purpose")

    monkeypatch.setitem(export.EXPORTS, "pieces", broken)
    with pytest.raises(BadInput, match="broken on purpose"):
        export_game(builtin("midway"), "pieces", tmp_path, dpi=20)
    assert sorted(first.folder.iterdir()) == sorted(first.files)
    assert [p.name for p in tmp_path.iterdir()] == ["midway-pieces"]


def cli(*args: str):
    return CliRunner().invoke(main, list(args))


def test_cli_export_prints_a_summary(tmp_path):
    out = cli("export", "midway", "--format", "pieces", "--dpi", "20", "--out", str(tmp_path))
    assert out.exit_code == 0, out.output
    assert "midway: 62 pieces, 116 face images at 20 dpi" in out.output
    assert "exported 1 game(s) as pieces: 116 files" in out.output
    assert len(list((tmp_path / "midway-pieces").iterdir())) == 116


@pytest.mark.parametrize(("args", "message"), [
    (["--format", "gif"], "unknown export format 'gif' (allowed: pieces, vassal, tts)"),
    (["--format", "pieces", "--dpi", "601"], "--dpi 601 is not a whole number from 10 to 600"),
    (["--format", "tts", "--base-url", "ftp://x/"], "--base-url 'ftp://x/': an address "
     "starting with http://, https://, file:/// and ending in '/' (or none)"),
])
def test_cli_export_bad_input_is_one_line_and_writes_nothing(tmp_path, args, message):
    out = cli("export", "midway", *args, "--out", str(tmp_path))
    assert out.exit_code == 2
    assert [line for line in out.output.splitlines() if line.strip()] == [
        f"warpress: {message}"]
    assert list(tmp_path.iterdir()) == []


def test_a_file_in_the_way_is_refused_before_any_work(tmp_path, monkeypatch):
    from warpress.components import export

    (tmp_path / "midway-vassal").write_text("not a folder", encoding="utf-8")
    monkeypatch.setattr(export, "collect", lambda game: pytest.fail("laid out"))
    with pytest.raises(BadInput, match="midway-vassal"):
        export_game(builtin("midway"), "vassal", tmp_path)


@pytest.mark.parametrize("fmt", ["pieces", "tts", "vassal"])
def test_an_id_leading_out_of_the_folder_writes_nothing_anywhere(corps_game, tmp_path,
                                                                  monkeypatch, fmt):
    """A unit id ``s5/../../../../ESCAPED`` is refused when the game is loaded: no file
    appears outside --out (nor inside it), whatever the depth of the working folder."""
    from data_edits import edit

    for name in ("{id: s3,", "unit: s3,"):
        edit(corps_game, name, name.replace("s3", '"s5/../../../../ESCAPED"'),
             "units.yaml")
    work = tmp_path / "a" / "b" / "c" / "d"
    work.mkdir(parents=True)
    monkeypatch.chdir(work)
    out = cli("export", str(corps_game), "--format", fmt, "--dpi", "20", "--out", "out")
    assert out.exit_code == 2, out.output
    assert "units[5].id: id 's5/../../../../ESCAPED' is not allowed" in out.output
    assert [p for p in tmp_path.rglob("*") if "ESCAPED" in p.name] == []
    assert not (work / "out").exists()

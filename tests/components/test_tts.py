"""components/tts.py: the Tabletop Simulator saved object loads and names only images
it holds; decks sit on sheets TTS accepts."""

from __future__ import annotations

import io
import json
import math

import pytest
from click.testing import CliRunner
from PIL import Image
from warpress.cli import main
from warpress.components import tts
from warpress.components.export import Collected, collect, export_game
from warpress.components.impose import Drawing
from warpress.components.primitives import Rect
from warpress.engine.loader import builtin, builtin_games

GAMES = builtin_games()


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    out = tmp_path_factory.mktemp("tts")
    return {game: export_game(builtin(game), "tts", out, dpi=60) for game in GAMES}


def saved(result) -> dict:
    path = result.folder / f"{result.game}.json"
    return json.loads(path.read_text(encoding="utf-8"))


def objects(state: dict):
    for obj in state["ObjectStates"]:
        yield obj
        yield from obj.get("ContainedObjects", [])


def urls(state: dict) -> list[str]:
    out = []
    for obj in objects(state):
        for deck in obj.get("CustomDeck", {}).values():
            out += [deck["FaceURL"], deck["BackURL"]]
        image = obj.get("CustomImage", {})
        out += [u for u in (image.get("ImageURL"), image.get("ImageSecondaryURL")) if u]
    return out


@pytest.mark.parametrize("game", GAMES)
def test_the_json_loads_and_every_image_it_names_is_there(exported, game):
    result = exported[game]
    state = saved(result)
    named = urls(state)
    assert named
    assert all((result.folder / url).is_file() for url in named)
    written = {p.relative_to(result.folder).as_posix() for p in result.files}
    assert set(named) | {f"{game}.json"} == written  # nothing written that is not used


@pytest.mark.parametrize("game", GAMES)
def test_every_piece_of_the_kit_is_a_card_or_a_tile(exported, game):
    state = saved(exported[game])
    names = [o["Description"] for o in objects(state) if o["Name"] in ("Card", "Custom_Tile")]
    pieces = [p.id for p in collect(builtin(game)).pieces]
    assert set(pieces) <= set(names)
    assert len([n for n in names if n in set(pieces)]) == len(pieces)


def test_decks_on_sheets_of_at_most_10_by_7_within_4096_pixels(exported):
    result = exported["midway-cards"]
    state = saved(result)
    decks = [o for o in state["ObjectStates"] if o["Name"] == "DeckCustom"]
    assert len(decks) >= 6
    for deck in decks:
        assert deck["DeckIDs"] == [c["CardID"] for c in deck["ContainedObjects"]]
        for key, sheet in deck["CustomDeck"].items():
            assert sheet["BackIsHidden"] is True
            assert sheet["NumWidth"] <= 10 and sheet["NumHeight"] <= 7
            image = Image.open(result.folder / sheet["FaceURL"])
            assert max(image.size) <= 4096
            assert image.width % sheet["NumWidth"] == 0 and image.height % sheet["NumHeight"] == 0
            ids = [c["CardID"] for c in deck["ContainedObjects"]
                   if str(c["CardID"] // 100) == key]
            assert all(i % 100 < sheet["NumWidth"] * sheet["NumHeight"] for i in ids)


def test_a_big_deck_at_a_high_dpi_is_split_and_scaled_to_fit(tmp_path):
    assert tts.sheet_grid(70) == (10, 7) and tts.sheet_grid(23) == (10, 3)
    dpi = tts.sheet_dpi(63.0, 88.0, 10, 7, 600)
    assert 10 * math.ceil(63.0 / 25.4 * dpi) <= 4096 and 7 * math.ceil(88.0 / 25.4 * dpi) <= 4096
    assert tts.sheet_dpi(63.0, 88.0, 2, 1, 150) == 150


def test_base_url_prefixes_every_image(tmp_path):
    result = export_game(builtin("midway"), "tts", tmp_path, dpi=30,
                         base_url="https://example.org/kit/")
    named = urls(saved(result))
    assert named and all(u.startswith("https://example.org/kit/images/") for u in named)


def test_same_data_same_bytes(tmp_path):
    one = export_game(builtin("midway"), "tts", tmp_path / "a", dpi=30)
    two = export_game(builtin("midway"), "tts", tmp_path / "b", dpi=30)
    assert [f.read_bytes() for f in one.files] == [f.read_bytes() for f in two.files]


def tiles(state: dict) -> list[dict]:
    return [o for o in objects(state) if o["Name"] == "Custom_Tile"]


@pytest.mark.parametrize("game", GAMES)
def test_tiles_are_stretched_to_their_image_and_scaled_uniformly(exported, game):
    """The image gives a tile its aspect, once: ``Stretch`` with the same scale on x and z."""
    for tile in tiles(saved(exported[game])):
        assert tile["CustomImage"]["CustomTile"]["Stretch"] is True, tile["Nickname"]
        assert tile["Transform"]["scaleX"] == tile["Transform"]["scaleZ"], tile["Nickname"]


def test_a_maps_tile_is_as_wide_as_the_map_and_named_by_its_title(exported):
    state = saved(exported["axis-allies"])
    game = builtin("axis-allies")
    (tile,) = [t for t in tiles(state) if t["Locked"]]
    drawing = collect(game).drawings[0]
    assert tile["Transform"]["scaleX"] == round(drawing.width / tts.TTS_TILE_MM, 4)
    assert tile["Nickname"] == game.point_maps[0].name


def test_cards_go_to_hands_and_hide_their_faces_face_down(exported):
    state = saved(exported["midway-cards"])
    decks = [o for o in state["ObjectStates"] if o["Name"] in ("DeckCustom", "Card")]
    cards = [o for o in objects(state) if o["Name"] == "Card"]
    assert decks and cards
    assert all(o["Hands"] is True and o["HideWhenFaceDown"] is True for o in decks + cards)


def test_a_map_too_big_at_the_dpi_is_drawn_within_4096_pixels(tmp_path):
    """A 770 mm map (Axis & Allies') at 150 dpi would be 4,548 pixels wide."""
    wide = Drawing("map wide", (Rect(0, 0, 770, 100),), 770, 100)
    collected = Collected(builtin("midway"), (), (wide,), ())
    images: dict[str, bytes] = {}
    (tile,) = tts._maps(collected, 150, "", images)
    image = Image.open(io.BytesIO(images["map-map-wide.png"]))
    assert 4000 <= image.width <= 4096 and image.height == math.ceil(
        100 / 25.4 * tts.image_dpi(770, 100, 150))
    assert tts.image_dpi(63, 88, 150) == 150


def test_a_base_url_with_a_space_is_percent_encoded(tmp_path):
    result = export_game(builtin("nightfighter"), "tts", tmp_path, dpi=20,
                         base_url="file:///C:/Users/My Name/tts/")
    named = urls(saved(result))
    assert named and all(u.startswith("file:///C:/Users/My%20Name/tts/images/") for u in named)
    assert tts.image_url("https://x.org/a%20b/", "c d.png") == "https://x.org/a%20b/images/c%20d.png"


def test_a_tts_export_without_base_url_is_warned_about(tiny_game, tmp_path):
    runner = CliRunner()
    plain = runner.invoke(main, ["export", str(tiny_game), "--format", "tts", "--dpi", "20",
                                 "--out", str(tmp_path)])
    assert plain.exit_code == 0, plain.output
    assert "no --base-url" in plain.stderr and "Tabletop Simulator will not find" in plain.stderr
    given = runner.invoke(main, ["export", str(tiny_game), "--format", "tts", "--dpi", "20",
                                 "--out", str(tmp_path), "--base-url", "https://x.org/kit/"])
    assert given.exit_code == 0 and given.stderr == ""

"""A Tabletop Simulator saved object from the kit: decks of cards, counters, maps.

``GAME.json`` has the form of a file in TTS's ``Saves/Saved Objects`` folder: one
object per deck (``DeckCustom``, its cards on sheets of at most 10 x 7, each sheet image
at most 4096 px a side, one back image hidden behind them, ``BackIsHidden``), a bag of
counters (``Custom_Tile``, front and back image) per side and kind, and each map as a
tile. The images are beside it in ``images/``; TTS loads images from addresses, so every
URL is ``--base-url`` + ``images/NAME.png`` (the folder's ``file:///`` address, or where
the images were uploaded: docs/play-online.md), percent-encoded (a folder name with a space
is an address TTS can load).

Every tile (counter or map) is ``Stretch``ed to its image's aspect and scaled uniformly, so
its aspect comes from the image once; cards go to players' hands and hide their faces face
down (``Hands``, ``HideWhenFaceDown``); every image is at most ``SHEET_PX`` pixels a side (a
map too big at ``--dpi`` is drawn at the dpi that fits).
"""

from __future__ import annotations

import hashlib
import io
import json
import math
from typing import Any
from urllib.parse import quote

from PIL import Image

from .collect import Collected, ExportPiece, drawing_page, drawing_title, face_pages, rasterise
from .kit import safe_id

#: A deck sheet: at most 10 columns and 7 rows of cards, at most 4096 pixels a side.
SHEET_COLS, SHEET_ROWS, SHEET_PX = 10, 7, 4096
#: TTS's card at scale 1 is a poker card, 63.5 mm wide.
TTS_CARD_MM = 63.5
#: The size of a Custom_Tile at scale 1, in mm: assumed (2 TTS units of about an inch).
TTS_TILE_MM = 50.8
GREY = {"r": 0.713235259, "g": 0.713235259, "b": 0.713235259}


def tts_object(collected: Collected, dpi: int, base_url: str) -> tuple[dict[str, bytes], str]:
    """``{GAME.json, images/...}`` and a one-line summary."""
    game = collected.game
    images: dict[str, bytes] = {}
    objects: list[dict[str, Any]] = []
    cards = [p for p in collected.pieces if p.deck]
    counters = [p for p in collected.pieces if not p.deck]
    sheets = 0
    for deck in game.decks:
        deck_cards = [p for p in cards if p.deck == deck.id]
        if deck_cards:
            made, sheet_images = _deck(deck.label, deck_cards, dpi, base_url,
                                       first_key=sheets + 1, x=len(objects) * 3.0)
            objects.append(made)
            images.update(sheet_images)
            sheets += math.ceil(len(deck_cards) / (SHEET_COLS * SHEET_ROWS))
    counter_images = _counter_images(counters, dpi)
    images.update({name: png for name, png in counter_images.values()})
    groups: dict[tuple[str, str], list[ExportPiece]] = {}
    for entry in counters:
        groups.setdefault((entry.side, entry.kind), []).append(entry)
    for index, ((side, kind), entries) in enumerate(groups.items()):
        tiles = [_tile(e, counter_images, base_url) for e in entries]
        objects.append(_bag(f"{side}: {kind}", tiles, x=-4.0 - 3.0 * index))
    objects.extend(_maps(collected, dpi, base_url, images))
    save: dict[str, Any] = {
        "SaveName": game.info.name, "GameMode": game.info.name, "Date": "", "Table": "",
        "Sky": "", "Note": "Made by warpress from the game's data.", "Rules": "",
        "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "ObjectStates": objects,
        "TabStates": {}, "VersionNumber": ""}
    text = json.dumps(save, indent=2, ensure_ascii=False) + "\n"
    files = {f"{game.id}.json": text.encode()}
    files.update({f"images/{name}": images[name] for name in sorted(images)})
    summary = (f"{len(cards)} cards on {sheets} sheets, {len(counters)} counters in "
               f"{len(groups)} bags, {len(collected.drawings)} maps, {len(images)} images "
               f"at {dpi} dpi")
    return files, summary


def guid(key: str) -> str:
    """A stable six-hex-digit GUID for ``key``."""
    return hashlib.sha256(key.encode()).hexdigest()[:6]


def _transform(x: float = 0.0, z: float = 0.0, scale_x: float = 1.0, scale_z: float = 1.0,
               flipped: bool = False) -> dict[str, Any]:
    return {"posX": x, "posY": 1.0, "posZ": z, "rotX": 0.0, "rotY": 180.0,
            "rotZ": 180.0 if flipped else 0.0, "scaleX": round(scale_x, 4), "scaleY": 1.0,
            "scaleZ": round(scale_z, 4)}


def _common(name: str, key: str, transform: dict[str, Any]) -> dict[str, Any]:
    return {"GUID": guid(key), "Name": name, "Transform": transform, "Nickname": "",
            "Description": "", "ColorDiffuse": GREY, "Locked": False, "Grid": True,
            "Snap": True, "Autoraise": True, "Sticky": True, "Tooltip": True,
            "LuaScript": "", "LuaScriptState": "", "XmlUI": ""}


def sheet_grid(count: int) -> tuple[int, int]:
    """(columns, rows) of a sheet of ``count`` cards (at most 70)."""
    cols = min(SHEET_COLS, count)
    return cols, math.ceil(count / cols)


def sheet_dpi(w_mm: float, h_mm: float, cols: int, rows: int, dpi: int) -> int:
    """``dpi``, or less so that the sheet stays within ``SHEET_PX`` pixels a side."""
    fits = min(SHEET_PX * 25.4 / (cols * w_mm), SHEET_PX * 25.4 / (rows * h_mm))
    return max(10, min(dpi, math.floor(fits) - 1))


def _deck(label: str, entries: list[ExportPiece], dpi: int, base_url: str, first_key: int,
          x: float) -> tuple[dict[str, Any], dict[str, bytes]]:
    """A DeckCustom (a Card when there is one) with its sheets' images."""
    per_sheet = SHEET_COLS * SHEET_ROWS
    images: dict[str, bytes] = {}
    custom: dict[str, dict[str, Any]] = {}
    contained = []
    stem = safe_id(entries[0].deck or label)
    for sheet_index, start in enumerate(range(0, len(entries), per_sheet)):
        batch = entries[start:start + per_sheet]
        key = first_key + sheet_index
        cols, rows = sheet_grid(len(batch))
        piece = batch[0].piece
        at = sheet_dpi(piece.w, piece.h, cols, rows, dpi)
        faces = face_pages(batch)
        fronts = [page for name, page in faces if name.endswith("-front")]
        backs = [page for name, page in faces if name.endswith("-back")]
        unique = len(backs) == len(batch) and any(e.piece.back != piece.back for e in batch)
        pngs = rasterise(fronts + (backs if unique else backs[:1]), at, label)
        face_name = f"deck-{stem}-{sheet_index + 1}-faces.png"
        images[face_name] = _sheet(pngs[:len(fronts)], cols, rows)
        if unique:  # a back per card: a sheet of backs laid out like the faces
            back_name = f"deck-{stem}-{sheet_index + 1}-backs.png"
            images[back_name] = _sheet(pngs[len(fronts):], cols, rows)
        else:  # one back behind them all (a blank for one-sided cards)
            back_name = f"deck-{stem}-back.png"
            images[back_name] = pngs[-1] if backs else _blank(pngs[0])
        custom[str(key)] = {"FaceURL": image_url(base_url, face_name),
                            "BackURL": image_url(base_url, back_name),
                            "NumWidth": cols, "NumHeight": rows, "BackIsHidden": True,
                            "UniqueBack": unique, "Type": 0}
        for index, entry in enumerate(batch):
            card = _common("Card", entry.id, _transform(x, 0.0, piece.w / TTS_CARD_MM,
                                                         piece.w / TTS_CARD_MM, True))
            card.update({"Nickname": entry.label, "Description": entry.id,
                         "CardID": key * 100 + index, "SidewaysCard": False,
                         "Hands": True, "HideWhenFaceDown": True,
                         "CustomDeck": {str(key): custom[str(key)]}})
            contained.append(card)
    if len(contained) == 1:
        return contained[0], images
    scale = entries[0].piece.w / TTS_CARD_MM
    deck = _common("DeckCustom", f"deck-{stem}", _transform(x, 0.0, scale, scale, True))
    deck.update({"Nickname": label, "SidewaysCard": False, "Hands": True,
                 "HideWhenFaceDown": True,
                 "DeckIDs": [c["CardID"] for c in contained], "CustomDeck": custom,
                 "ContainedObjects": contained})
    return deck, images


def _sheet(pngs: list[bytes], cols: int, rows: int) -> bytes:
    cards = [Image.open(io.BytesIO(p)).convert("RGB") for p in pngs]
    w, h = cards[0].size
    sheet = Image.new("RGB", (cols * w, rows * h), "white")
    for index, card in enumerate(cards):
        row, col = divmod(index, cols)
        sheet.paste(card, (col * w, row * h))
    return _png(sheet)


def _blank(png: bytes) -> bytes:
    return _png(Image.new("RGB", Image.open(io.BytesIO(png)).size, "white"))


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def _counter_images(counters: list[ExportPiece], dpi: int) -> dict[str, tuple[str, bytes]]:
    """face stem -> (image name, PNG); faces drawn alike share the first one's image."""
    faces = face_pages(counters)
    pngs = rasterise([page for _stem, page in faces], dpi, "counters")
    first: dict[bytes, str] = {}
    out = {}
    for (stem, _page), png in zip(faces, pngs, strict=True):
        name = first.setdefault(png, f"{stem}.png")
        out[stem] = (name, png)
    return out


def _tile(entry: ExportPiece, images: dict[str, tuple[str, bytes]], base_url: str
          ) -> dict[str, Any]:
    piece = entry.piece
    front = images[f"{piece.id}-front"][0]
    back = images[f"{piece.id}-back"][0] if piece.back is not None else front
    scale = piece.w / TTS_TILE_MM  # uniform: the stretched tile takes the image's aspect
    tile = _common("Custom_Tile", entry.id, _transform(scale_x=scale, scale_z=scale))
    tile.update({"Nickname": entry.label, "Description": entry.id, "CustomImage": {
        "ImageURL": image_url(base_url, front),
        "ImageSecondaryURL": image_url(base_url, back), "ImageScalar": 1.0,
        "WidthScale": 0.0, "CustomTile": {"Type": 0, "Thickness": 0.1, "Stackable": True,
                                          "Stretch": True}}})
    return tile


def _bag(label: str, tiles: list[dict[str, Any]], x: float) -> dict[str, Any]:
    bag = _common("Bag", f"bag-{label}", _transform(x, 6.0))
    bag.update({"Nickname": label, "MaterialIndex": -1, "ContainedObjects": tiles})
    return bag


def _maps(collected: Collected, dpi: int, base_url: str, images: dict[str, bytes]
          ) -> list[dict[str, Any]]:
    """A locked tile per map, its image at ``dpi`` or at the dpi that keeps it within
    ``SHEET_PX`` pixels a side."""
    out = []
    for index, drawing in enumerate(collected.drawings):
        at = image_dpi(drawing.width, drawing.height, dpi)
        png = rasterise([drawing_page(drawing)], at, "maps")[0]
        name = f"map-{safe_id(drawing.name)}.png"
        images[name] = png
        scale = drawing.width / TTS_TILE_MM  # uniform: the stretched tile takes the aspect
        tile = _common("Custom_Tile", f"map-{drawing.name}", _transform(
            0.0, -20.0 - 25.0 * index, scale, scale))
        tile.update({"Nickname": drawing_title(collected.game, drawing.name), "Locked": True,
                     "CustomImage": {
                         "ImageURL": image_url(base_url, name), "ImageSecondaryURL": "",
                         "ImageScalar": 1.0, "WidthScale": 0.0,
                         "CustomTile": {"Type": 0, "Thickness": 0.1, "Stackable": False,
                                        "Stretch": True}}})
        out.append(tile)
    return out


def image_dpi(w_mm: float, h_mm: float, dpi: int) -> int:
    """``dpi``, or less so that an image of ``w_mm`` x ``h_mm`` stays within ``SHEET_PX``
    pixels a side (a side is rasterised to whole pixels, rounded up)."""
    return sheet_dpi(w_mm, h_mm, 1, 1, dpi)


def image_url(base_url: str, name: str) -> str:
    """The address of ``images/NAME``: ``base_url`` percent-encoded where it holds what an
    address cannot (a space, non-ASCII; an escape already there is kept), then the name."""
    return quote(base_url, safe=":/?#[]@!$&'()*+,;=%~") + "images/" + quote(name)


def base_url_warning(base_url: str) -> str | None:
    """What ``export --format tts`` says without ``--base-url``: TTS will not find the
    images until the export is made again with one."""
    if base_url:
        return None
    return ("note: no --base-url: the image addresses are relative (images/NAME.png) and "
            "Tabletop Simulator will not find them; export again with --base-url set to the "
            "images' address (warpress docs play-online)")

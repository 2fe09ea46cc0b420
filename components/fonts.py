"""The fonts every kit uses: IPAex Gothic, shipped with warpress and embedded.

One family covers English and Japanese. Text is measured with its metrics, and
a glyph the font lacks stops the build (no tofu, no silent fallback).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

FONT_FILE = Path(__file__).resolve().parent.parent / "fonts" / "ipaexg.ttf"
FAMILY = "IPAexGothic"
SVG_FAMILY = "'IPAexGothic', 'IPAexゴシック', 'IPAex Gothic', sans-serif"
PT_PER_MM = 72 / 25.4


@cache
def font():
    """The reportlab TTFont, registered once."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    ttf = TTFont(FAMILY, str(FONT_FILE))
    pdfmetrics.registerFont(ttf)
    return ttf


@cache
def _cmap() -> frozenset[int]:
    return frozenset(font().face.charToGlyph)


def missing_glyphs(text: str) -> str:
    """The characters of ``text`` the font cannot draw (whitespace aside)."""
    cmap = _cmap()
    return "".join(sorted({ch for ch in text if not ch.isspace() and ord(ch) not in cmap}))


def text_width(text: str, size: float) -> float:
    """Width in mm of ``text`` at em height ``size`` mm."""
    from reportlab.pdfbase import pdfmetrics

    font()
    return pdfmetrics.stringWidth(text, FAMILY, size)


def wrap(text: str, size: float, width: float) -> list[str]:
    """Break ``text`` into lines no wider than ``width`` mm (words, or characters for CJK)."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        lines.extend(_wrap_paragraph(paragraph, size, width))
    return lines


def _wrap_paragraph(paragraph: str, size: float, width: float) -> list[str]:
    lines: list[str] = []
    current = ""
    for token in _tokens(paragraph):
        trial = current + token
        if current and text_width(trial.rstrip(), size) > width:
            lines.append(current.rstrip())
            current = token.lstrip()
        else:
            current = trial
    if current.strip() or not lines:
        lines.append(current.rstrip())
    return lines


def _tokens(text: str) -> list[str]:
    """Words with their trailing space; each CJK character is a token of its own."""
    tokens: list[str] = []
    word = ""
    for ch in text:
        if ord(ch) > 0x2E80:
            if word:
                tokens.append(word)
                word = ""
            tokens.append(ch)
        elif ch == " ":
            tokens.append(word + " ")
            word = ""
        else:
            word += ch
    if word:
        tokens.append(word)
    return tokens

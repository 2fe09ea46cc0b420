"""The fonts every kit uses: IPAex Gothic, shipped with warpress and embedded.

One family covers English and Japanese. Text is measured with its metrics, and
a glyph the font lacks stops the build (no tofu, no silent fallback).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from reportlab.lib.textsplit import ALL_CANNOT_END, ALL_CANNOT_START
from reportlab.pdfbase import pdfmetrics

if TYPE_CHECKING:  # reportlab's TTFont is imported when a font is first needed (start-up)
    from reportlab.pdfbase.ttfonts import TTFont

from .marks import plain

FONT_FILE = Path(__file__).resolve().parent.parent / "fonts" / "ipaexg.ttf"
FAMILY = "IPAexGothic"
SVG_FAMILY = "'IPAexGothic', 'IPAexゴシック', 'IPAex Gothic', sans-serif"
PT_PER_MM = 72 / 25.4


@cache
def font() -> TTFont:
    """The reportlab TTFont, registered once."""
    # start-up: 4 more modules (reportlab), only when this runs
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
    """Width in mm of ``text`` at em height ``size`` mm.

    reportlab's own sum of the font's advance widths (``_py_instanceStringWidthTTF``),
    done here so the result is the same to the last bit with and without its C
    accelerator (rl_accel sums in another order), and so is every layout built on it.
    """
    face = font().face
    # reportlab's stubs leave these untyped: advance widths in 1/1000 em, by code point
    widths: dict[int, float] = face.charWidths
    default: float = face.defaultWidth
    return 0.001 * size * sum(widths.get(ord(ch), default) for ch in text)


def _kinsoku() -> tuple[str, str]:
    more_start = "！？：；，．…‥〜〟｣ゕゖㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ"
    more_end = "〝｢"
    return ALL_CANNOT_START + more_start, ALL_CANNOT_END + more_end


#: Characters a line may not start with (closing brackets, 。、, ー, small kana ...) and
#: may not end with (opening brackets): reportlab's kinsoku sets (``reportlab.lib.
#: textsplit``) and a few more full-width marks.
CANNOT_START, CANNOT_END = _kinsoku()


def wrap(text: str, size: float, width: float) -> list[str]:
    """Break ``text`` into lines no wider than ``width`` mm: between words, or between any
    two characters of Japanese, keeping the kinsoku rules (no line starts with
    ``CANNOT_START`` or ends with ``CANNOT_END``). The one line breaker of every kit; on a
    player's page it breaks the text without its designer notes (``marks.plain``)."""
    lines: list[str] = []
    for paragraph in plain(text).split("\n"):
        lines.extend(_wrap_paragraph(paragraph, size, width))
    return lines


def _wrap_paragraph(paragraph: str, size: float, width: float) -> list[str]:
    """The paragraph's lines, katakana words kept whole where the kinsoku rules allow (a
    word closed by a bracket that cannot start a line breaks as any Japanese)."""
    tokens = _whole_refs(_tokens(paragraph), size, width)
    lines = _filled(_kana_words(tokens, size, width), size, width)
    if any(line[:1] and line[:1] in CANNOT_START for line in lines[1:]) or any(
            line[-1:] and line[-1:] in CANNOT_END for line in lines[:-1]):
        return _filled(tokens, size, width)
    return lines


def _filled(tokens: list[str], size: float, width: float) -> list[str]:
    lines: list[str] = []
    current: list[str] = []
    for token in tokens:
        if current and text_width(("".join(current) + token).rstrip(), size) > width + 1e-9:
            keep = _legal_break(current, token)
            lines.append("".join(current[:keep]).rstrip())
            current = current[keep:]
            if current:
                current[0] = current[0].lstrip()
            else:
                token = token.lstrip()
        current.append(token)
    if "".join(current).strip() or not lines:
        lines.append("".join(current).rstrip())
    return _no_orphan(lines)


def _katakana(ch: str) -> bool:
    return "\u30a0" <= ch <= "\u30ff" or "\u31f0" <= ch <= "\u31ff"


#: Small kana that make a digraph with the kana before them (ファ, シュ, ヴェ): a loanword's
#: part often starts with one.
DIGRAPH_KANA = "ァィゥェォャュョヮ"


def _kanji(ch: str) -> bool:
    return "\u4e00" <= ch <= "\u9fff" or ch == "々"


#: The longest run of kanji after a space kept whole: a Japanese name in an English line
#: (進入端, 脱出端), not a sentence of Japanese.
KANJI_WORD = 4


def _kana_words(tokens: list[str], size: float, width: float) -> list[str]:
    """The tokens with each run of katakana (a loanword, a name: ヴェルツブルク) made one
    token, so that a line breaks before it rather than inside it; a run longer than a line
    in pieces broken where the word parts (``_kana_pieces``); and a short run of kanji
    after a space (a Japanese name in an English line: 脱出端) one token too."""
    out: list[str] = []
    run, kind, after_space = "", "", True

    def flush() -> None:
        if kind == "katakana":
            out.extend(_kana_pieces(run, size, width))
        elif kind == "kanji":
            whole = (after_space and len(run) <= KANJI_WORD
                     and text_width(run, size) <= width + 1e-9)
            out.extend([run] if whole else list(run))

    for token in tokens:
        now = ("katakana" if len(token) == 1 and _katakana(token) else
               "kanji" if len(token) == 1 and _kanji(token) else "")
        if now and now == kind:
            run += token
            continue
        flush()
        after_space = not out or out[-1].endswith(" ")
        run, kind = (token, now) if now else ("", "")
        if not now:
            out.append(token)
    flush()
    return out


def _kana_pieces(word: str, size: float, width: float) -> list[str]:
    """``word`` as pieces no wider than ``width``: whole when it fits; else, near its
    middle, after a middle dot or before a kana written with a small one, where a loanword's
    parts mostly meet (シュレーゲ・ / ムジーク, ボー / ファイター, メッサー / シュミット),
    leaving two kana before the cut and three after, else in the middle (ヴェルツ / ブルク,
    ビーコン / ボックス); never against the kinsoku rules."""
    if text_width(word, size) <= width + 1e-9 or len(word) < 4:
        return [word]
    legal = [i for i in range(1, len(word)) if text_width(word[:i], size) <= width + 1e-9
             and word[i] not in CANNOT_START and word[i - 1] not in CANNOT_END]
    if not legal:
        return list(word)
    middle = (len(word) + 1) // 2
    parts = [i for i in legal if abs(i - middle) <= 2 and i >= 2 and len(word) - i >= 3
             and (word[i - 1] == "・" or word[i + 1] in DIGRAPH_KANA)]
    cut = max(parts) if parts else min(legal, key=lambda i: (abs(i - middle), -i))
    return [word[:cut], *_kana_pieces(word[cut:], size, width)]


def _cjk(ch: str) -> bool:
    return ord(ch) > 0x2E80


def _no_orphan(lines: list[str]) -> list[str]:
    """No Japanese line of one character under a longer one ("ヴェルツブル / ク"): characters
    move down from the line above, legally (kinsoku), until the last line holds two
    ("ヴェルツブ / ルク")."""
    if len(lines) < 2 or not lines[-1] or not all(map(_cjk, lines[-1])):
        return lines
    head, tail = lines[-2], lines[-1]
    while len(tail) < 2 and len(head) > 2 and _cjk(head[-1]):
        moved = head[-1]
        if moved in CANNOT_START or head[-2] in CANNOT_END:
            break
        head, tail = head[:-1], moved + tail
    return [*lines[:-2], head, tail]


def _whole_refs(tokens: list[str], size: float, width: float) -> list[str]:
    """The tokens with each bracketed list of rule numbers (``[9.3, 9.3(2)]``) made one token
    when it fits a line, so that a line breaks before the reference, not inside it."""
    out: list[str] = []
    i = 0
    while i < len(tokens):
        end = i
        if tokens[i].startswith("["):
            while end < len(tokens) and "]" not in tokens[end] and not _cjk(tokens[end][:1]):
                end += 1
        ref = "".join(tokens[i:end + 1])
        if (end > i and end < len(tokens) and not any(map(_cjk, ref))
                and text_width(ref.rstrip(), size) <= width + 1e-9):
            out.append(ref)
            i = end + 1
        else:
            out.append(tokens[i])
            i += 1
    return out


def _legal_break(current: list[str], token: str) -> int:
    """How many tokens of ``current`` stay on the line when ``token`` does not fit: all of
    them unless that would start the next line with a ``CANNOT_START`` character or end
    this one with a ``CANNOT_END``; then as few moved down as make the break legal (all
    kept if none does: an unbreakable run longer than the line)."""
    for keep in range(len(current), 0, -1):
        head = "".join(current[:keep]).rstrip()
        tail = ("".join(current[keep:]) + token).lstrip()
        if head and tail[:1] not in CANNOT_START and head[-1] not in CANNOT_END:
            return keep
    return len(current)


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

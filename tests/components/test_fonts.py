"""components/fonts.py: text widths and the one line breaker (Japanese kinsoku rules)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from warpress.components.fonts import CANNOT_END, CANNOT_START, text_width, wrap
from warpress.engine.loader import builtin

#: Japanese running text with every kind of mark the rules forbid at a line start.
JAPANESE = ("各プレイヤーは、自分の番に「行動カード」を１枚プレイする。ミッドウェー島（基地）への"
            "攻撃は、空母の甲板が空いているときだけ行える。ダメージ・マーカーを置いたら、ターン・"
            "トラックのマーカーを１つ進める。シュレーゲ・ムジーク装備機は、ボーナスを得る（ただし、"
            "レーダーの探知は除く）。ショック！　ゲーム終了。「勝利」ー「敗北」っ。")


def _game_texts() -> list[str]:
    """Japanese sentences from the shipped data (card texts, sheet lines, notes)."""
    out = []
    for game_id in ("midway", "midway-cards", "nimitz"):
        game = builtin(game_id)
        for card in game.cards:
            if card.text and any(ord(c) > 0x3000 for c in card.text):
                out.append(card.text)
        for sheet in game.sheets:
            for section in sheet.sections:
                out.extend(line for line in section.lines if any(ord(c) > 0x3000 for c in line))
    return out


@pytest.mark.parametrize("size", [2.2, 2.8])
def test_no_line_starts_or_ends_with_a_forbidden_character_over_100_widths(size):
    texts = [JAPANESE, *_game_texts()[:20]]
    for width in [20 + i * 1.3 for i in range(100)]:
        for text in texts:
            lines = wrap(text, size, width)
            for i, line in enumerate(lines):
                if i:
                    assert line[:1] not in CANNOT_START, (width, line)
                if i < len(lines) - 1:
                    assert line[-1:] not in CANNOT_END, (width, line)
                assert text_width(line, size) <= width + 1e-9 or " " not in line.strip()


def test_the_kinsoku_sets_hold_the_marks_the_issue_names():
    for ch in "。、）」ーっゃゅょァィッャ！？":
        assert ch in CANNOT_START
    for ch in "（「『【":
        assert ch in CANNOT_END


@settings(max_examples=60, deadline=None)
@given(text=st.text(alphabet="あいうえおかきくけこ漢字。、）」ーっ（「 abc", min_size=1,
                    max_size=80), width=st.floats(4, 60))
def test_wrapping_keeps_every_character_in_order(text, width):
    lines = wrap(text, 2.8, width)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")


def test_english_breaks_between_words_within_the_width():
    lines = wrap("Each hit on a carrier places a damage marker on a deck box", 3.0, 40)
    assert len(lines) > 1
    assert all(text_width(line, 3.0) <= 40 for line in lines)
    assert " ".join(lines) == "Each hit on a carrier places a damage marker on a deck box"


def test_text_width_is_reportlabs_sum_of_advances():
    from reportlab.pdfbase.pdfmetrics import stringWidth
    from warpress.components.fonts import FAMILY, font

    font()
    for text in ("Akagi 赤城", JAPANESE[:30], "4-4-6"):
        assert text_width(text, 3.0) == pytest.approx(stringWidth(text, FAMILY, 3.0), rel=1e-12)


def test_no_japanese_line_of_one_character_under_a_longer_one():
    for name in ("ヴェルツブルク", "フレンスブルク", "汎用カウンター"):
        lines = wrap(name, 3.0, text_width(name[:-1], 3.0))
        assert len(lines) == 2 and len(lines[-1]) >= 2, lines
        assert "".join(lines) == name
    assert wrap("ヴェルツブルク", 3.0, 100) == ["ヴェルツブルク"]


@pytest.mark.parametrize(("name", "lines"), [
    ("ヴェルツブルク", ["ヴェルツ", "ブルク"]), ("フレンスブルク", ["フレンス", "ブルク"]),
    ("汎用カウンター", ["汎用", "カウンター"]), ("ボーファイター", ["ボー", "ファイター"]),
    ("メッサーシュミット", ["メッサー", "シュミット"]),
    ("無線ビーコンボックス", ["無線ビーコン", "ボックス"])])
def test_a_katakana_word_breaks_where_its_parts_meet(name, lines):
    """A loanword moves whole to the next line when it fits one; one longer than a line
    breaks near its middle, before a kana written with a small one where there is one."""
    assert wrap(name, 3.0, text_width(name[:6], 3.0)) == lines


def test_a_katakana_word_that_fits_a_line_is_not_broken():
    assert wrap("汎用カウンター", 3.0, text_width("汎用カウンタ", 3.0)) == ["汎用", "カウンター"]
    assert wrap("照射するサーチライト", 3.0, text_width("照射するサーチ", 3.0)) == [
        "照射する", "サーチライト"]


def test_a_short_japanese_name_in_an_english_line_is_not_broken():
    """進入端 after English words moves whole to the next line; a sentence of Japanese still
    breaks between any two characters."""
    lines = wrap("Exit edge, row 27 脱出端 [2.1.2, 7.2.2]", 2.6, text_width(
        "Exit edge, row 27 脱出", 2.6))
    assert lines[:2] == ["Exit edge, row 27", "脱出端 [2.1.2, 7.2.2]"]
    assert wrap("爆撃機進入フェイズは審判が行う", 2.6, 20)[0] == "爆撃機進入"


def test_a_rule_reference_moves_whole_to_the_next_line():
    """"Anti-aircraft hit number [9.3, 9.3(2)]" breaks before the reference, not inside it;
    a reference longer than a line still breaks between its numbers."""
    head = "Anti-aircraft hit number 対空射撃の命中"
    width = text_width(f"{head} [9.3, ", 3.5) + 0.5
    assert wrap(f"{head} [9.3, 9.3(2)]", 3.5, width) == [head, "[9.3, 9.3(2)]"]
    long_ref = "[1.1, 2.2, 3.3, 4.4, 5.5, 6.6]"
    assert wrap(long_ref, 3.5, 15) == ["[1.1, 2.2,", "3.3, 4.4,", "5.5, 6.6]"]

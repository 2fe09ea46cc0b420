"""Card and counter pieces (components/pieces.py)."""

from __future__ import annotations

import pytest
from warpress.components.fonts import text_width
from warpress.components.pieces import CARD_W, TITLE_JA, card_back, card_titles
from warpress.components.primitives import Group, Text, texts, walk
from warpress.engine.loader import builtin, builtin_games


@pytest.mark.parametrize("game_id", [g for g in builtin_games() if builtin(g).decks])
def test_a_card_back_title_outranks_its_subtitles_and_breaks_between_words(game_id):
    game = builtin(game_id)
    for deck in game.decks:
        items = list(texts(card_back(game, deck)))
        title = [t for t in items if t.cls == "card-back-title"]
        rest = [t for t in items if t.cls != "card-back-title"]
        assert title and rest, deck.id
        assert min(t.size for t in title) > max(t.size for t in rest), deck.id
        assert " ".join(t.text for t in title) == " ".join((deck.back or deck.label).split())
        assert all(text_width(t.text, t.size) <= CARD_W - 14 + 1e-6 for t in title)


@pytest.mark.parametrize("game_id", [g for g in builtin_games() if builtin(g).decks])
def test_a_card_back_in_two_languages_gives_each_a_line_at_one_size(game_id):
    """日本軍アクションカード over Japanese action card, equal in size; under them the game's
    name in each of its languages."""
    game = builtin(game_id)
    for deck in game.decks:
        items = list(texts(card_back(game, deck)))
        title = [t for t in items if t.cls == "card-back-title"]
        cjk = [any(ord(ch) > 0x2E80 for ch in t.text) for t in title]
        if any(cjk) and not all(cjk):
            assert len(title) == 2 and title[0].size == title[1].size, deck.id
        names = [t.text for t in items if t.cls == "card-back-subtitle"]
        assert names == [n for n in (game.info.name, game.info.name_ja) if n]


#: The share of the English title's size a Japanese title keeps on a card front, give or
#: take what fitting rounds.
JA_SHARE = (0.8, 0.9)


@pytest.mark.parametrize("game_id", ["midway", "midway-cards"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_english_and_japanese_card_titles_are_in_balanced_sizes(player_kits, game_id, paper):
    """On every card front of the kit, the Japanese title is TITLE_JA of the English one's
    size (within JA_SHARE): a long English title that shrinks to fit takes the Japanese
    with it, so neither outshouts the other."""
    _game, pages = player_kits[game_id, paper]
    pairs = []
    for page in pages:
        for group in walk(page.items):
            if not isinstance(group, Group):
                continue
            english = [t for t in group.items if isinstance(t, Text) and t.cls == "card-title"]
            japanese = [t for t in group.items if isinstance(t, Text)
                        and t.cls == "card-title-ja"]
            if english and japanese:
                pairs.append((english[0].text, japanese[0].size / english[0].size))
    assert len(pairs) >= 8, game_id
    off = [(name, round(share, 3)) for name, share in pairs
           if not JA_SHARE[0] <= share <= JA_SHARE[1]]
    assert not off, off[:5]


def test_card_titles_shrink_together_when_one_must_fit():
    titles = card_titles("Prototype High-Speed Scout and more words", "試作高速偵察機", 31, 19,
                         27, 5.0, 51, "card test")
    english, japanese = titles
    assert english.size < 5.0  # fitted to the card
    assert japanese.size == pytest.approx(english.size * TITLE_JA, abs=0.01)
    long_ja = card_titles("Reshuffle", "再シャッフル" * 4, 31, 19, 27, 5.0, 51, "card test")
    assert long_ja[1].size / long_ja[0].size == pytest.approx(TITLE_JA, abs=0.01)

"""Card and counter pieces (components/pieces.py)."""

from __future__ import annotations

import pytest
from warpress.components.fonts import text_width
from warpress.components.pieces import CARD_W, card_back
from warpress.components.primitives import texts
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

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

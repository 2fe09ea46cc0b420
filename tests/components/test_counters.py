"""components/counters.py: a family of markers prints its words at one size."""

from __future__ import annotations

from dataclasses import replace

from warpress.components.counters import counter_size, draw, face_of, family_word_size
from warpress.components.legibility import on_scale
from warpress.components.primitives import Text
from warpress.engine.loader import builtin


def _word_sizes(face) -> set[float]:
    """The sizes the face's word prints at, on the type scale (as every counter piece)."""
    return {on_scale(item.size) for item in draw(face)
            if isinstance(item, Text) and item.cls == "word"}


def test_a_family_of_markers_prints_its_words_at_the_longest_words_size():
    game = builtin("nimitz")
    markers = [m for m in game.markers if m.id in ("us-asw", "us-leathernecks", "us-siege")]
    faces = [face_of(game, m, word=(m.name or "").split(": ")[-1],
                     size=counter_size(game, m)) for m in markers]
    alone = {f.word: min(_word_sizes(f)) for f in faces}
    assert alone["ASW"] > alone["Leathernecks"]  # each as large as it fits: uneven
    size = family_word_size(faces)
    assert size == on_scale(alone["Leathernecks"])
    for face in faces:
        assert _word_sizes(replace(face, word_size=size)) == {size}


def test_a_family_size_wraps_a_long_name_rather_than_shrinking_it():
    game = builtin("nimitz")
    marker = next(m for m in game.markers if m.id == "japan-emergency-repair")
    face = face_of(game, marker, word="Emergency repair", size=counter_size(game, marker))
    size = family_word_size([face])
    words = [t for t in draw(replace(face, word_size=size))
             if isinstance(t, Text) and t.cls == "word"]
    assert [t.text for t in words] == ["Emergency", "repair"]
    assert {on_scale(t.size) for t in words} == {size}

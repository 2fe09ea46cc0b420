"""Who is at war with whom and who wins with whom (engine/play/pieces.py): sides alone, and
sides in alliances, whose verdicts name the alliance."""

from __future__ import annotations

import pytest
from warpress.engine.loader import builtin
from warpress.engine.play.pieces import enemies, members, parties, party


@pytest.fixture(scope="module")
def aa():
    return builtin("axis-allies")


def test_sides_without_an_alliance_win_alone(mini):
    game = mini
    assert parties(game) == ("blue", "red")
    assert party(game, "blue") == "blue" and members(game, "blue") == {"blue"}
    assert enemies(game, "blue") == {"red"}


def test_the_sides_of_an_alliance_win_together(aa):
    allies = {s.id for s in aa.info.sides if s.alliance == "allies"}
    axis = {s.id for s in aa.info.sides if s.alliance == "axis"}
    assert allies and axis and not allies & axis
    assert parties(aa) == tuple(dict.fromkeys(s.alliance for s in aa.info.sides))
    for side in allies:
        assert party(aa, side) == "allies"
        assert members(aa, side) == allies
        assert enemies(aa, side) == axis
    assert members(aa, "axis") == axis | {"axis"} and enemies(aa, "axis") == allies

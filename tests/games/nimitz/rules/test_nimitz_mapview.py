"""The position on the kit's campaign map (rules/mapview.py, ``status --map``): every point's
units drawn as stacks of the kit's counters, the same position the same bytes."""

from __future__ import annotations

import re

import pytest
from nz_session import RULES, new
from warpress.engine.errors import BadInput
from warpress.games.nimitz.rules.positions import Run, point_ids


def test_every_point_with_units_gets_its_stacks(game):
    position = new(game, "1942", 3)
    svg = RULES.render_player_map(game, position, "svg").decode("utf-8")
    run = Run(game, position)
    wanted = {f"stack-{pt}-{side}" for pt in point_ids(game) for side in ("us", "japan")
              if run.at(pt, side)}
    drawn = set(re.findall(r'id="(stack-[a-z-]+-(?:us|japan))"', svg))
    assert drawn == wanted and len(wanted) > 15
    assert "1942 campaign" in svg and "US supply phase" in svg
    assert RULES.render_player_map(game, position, "svg").decode("utf-8") == svg


def test_a_png_and_no_other_format(game):
    position = new(game)
    assert RULES.render_player_map(game, position, "png").startswith(b"\x89PNG")
    with pytest.raises(BadInput, match="'gif'"):
        RULES.render_player_map(game, position, "gif")

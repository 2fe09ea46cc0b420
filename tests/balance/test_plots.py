"""The plots of a balance report (balance/plots.py): PNG and SVG, modest, the same bytes
for the same report."""

from __future__ import annotations

import pytest
from warpress.balance.balance import Options, execute, finish, prepare
from warpress.balance.plots import draw
from warpress.starter.new import new_game


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    folder = tmp_path_factory.mktemp("plots")
    game = str(new_game(str(folder / "starter")).folder)
    plan = prepare(Options(game, games=4, seed=2, jobs=1, units=0, vary=["unit.n4.attack=3,9"],
                           out=str(folder / "out")))
    return finish(plan, execute(plan))


def test_every_plot_is_written_as_png_and_svg_the_same_bytes_each_time(report, tmp_path):
    written = draw(report, tmp_path / "a")
    names = sorted(p.name for p in written)
    assert names == ["lengths.png", "lengths.svg", "sweep-unit-n4-attack.png",
                     "sweep-unit-n4-attack.svg", "win-rates.png", "win-rates.svg"]
    for path in written:
        assert 1_000 < path.stat().st_size < 200_000
    assert written[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert b"<svg" in (tmp_path / "a" / "win-rates.svg").read_bytes()[:2000]
    assert "sweep of unit.n4.attack" in (tmp_path / "a" / "sweep-unit-n4-attack.svg").read_text()
    again = {p.name: p.read_bytes() for p in draw(report, tmp_path / "b")}
    assert again == {p.name: p.read_bytes() for p in written}


def test_games_not_decided_have_their_bar_beside_the_wins(report, tmp_path):
    capped = {**report, "outcome": {**report["outcome"],
                                    "undecided": {"count": 3, "games": 4, "rate": 0.75,
                                                  "low": 0.3, "high": 0.95}}}
    assert "not decided" not in (draw(report, tmp_path / "a")[-1].parent
                                 / "win-rates.svg").read_text()
    draw(capped, tmp_path / "b")
    assert "not decided" in (tmp_path / "b" / "win-rates.svg").read_text()

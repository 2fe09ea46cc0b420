"""components/charts.py and the CRT on play aids: the designer game's aid page shows the
CRT grid with its codes and rules, the terrain effects chart with each terrain's look (the
map legend's swatch), and the stacking limits."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner
from warpress.cli import main
from warpress.engine.loader import load_game


def _aid_svg(game: Path, out: Path) -> str:
    result = CliRunner().invoke(main, ["build", str(game), "--out", str(out), "--format",
                                       "svg", "--only", "sheets"])
    assert result.exit_code == 0, result.output
    pages = sorted((out / "corps" / "svg").glob("*sheets-and-play-aids*.svg"))
    assert pages, list((out / "corps").rglob("*"))
    return "".join(p.read_text(encoding="utf-8") for p in pages)


def _texts(svg: str) -> list[str]:
    return [re.sub(r"<[^>]+>", "", t) for t in re.findall(r"<text[^>]*>(.*?)</text>", svg)]


def test_the_crt_prints_as_a_grid_with_its_codes(corps_game, tmp_path):
    svg = _aid_svg(corps_game, tmp_path / "out")
    texts = _texts(svg)
    assert 'id="table-crt"' in svg
    for heading in ("1-1", "2-1", "3-1", "4-1", "5-1", "6-1", "Odds (attack : defence)"):
        assert heading in texts, heading
    form = load_game(corps_game).table("crt").crt
    cells = [t for roll, row in form.grid.items() for t in (str(roll), *row)]
    start = texts.index("6-1") + 1          # the die rows follow the column headings
    assert texts[start:start + len(cells)] == cells   # the grid the engine reads, cell by cell
    joined = " ".join(texts)
    assert "DR\u00a0=\u00a0Defender retreats; DRL\u00a0=\u00a0Defender retreats, loses a step" \
        in joined  # no line breaks inside a code and its meaning
    assert "Odds: attack strength : defence strength, fractions dropped in the defender's " \
        "favour." in texts
    assert "Below 1-1: result AR · Beyond 6-1: as 6-1 · then column shifts (negative: to the " \
        "defender's favour)." in texts


def test_the_terrain_chart_has_each_terrains_look_and_rule(corps_game, tmp_path):
    svg = _aid_svg(corps_game, tmp_path / "out")
    chart = svg[svg.index('id="chart-terrain"'):]
    chart = chart[:chart.index("</g>\n") if "</g>\n" in chart else None]
    assert svg.count('class="chart-swatch"') == 5
    assert "#cfe3b5" in chart            # the forest fill style.terrain gives, as on the map
    assert "#2f6fb0" in chart            # the river's line, as on the map
    texts = _texts(svg)
    for cell in ("Forest", "2 MP", "−1 column", "City (in the hex)", "defence x2",
                 "River (hexside)", "+1 MP to cross", "−1 column if every attacker attacks across",
                 "attack x1/2 for a unit attacking across", "6.5"):
        assert cell in texts, cell
    assert "At most 1 unit in forest hexes  [5.2]" in texts


def test_a_style_change_reaches_the_chart(corps_game, tmp_path):
    path = corps_game / "game.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("#cfe3b5", "#aabbcc"),
                    encoding="utf-8")
    svg = _aid_svg(corps_game, tmp_path / "out")
    assert "#aabbcc" in svg and "#cfe3b5" not in svg


def test_the_default_entry_says_what_it_serves(corps_game, tmp_path):
    path = corps_game / "combat.yaml"
    text = path.read_text(encoding="utf-8")
    old = '  - {id: clear, name: Clear, movement: 1, rule: "6.1"}'
    assert old in text
    path.write_text(text.replace(old, '  - {id: clear, name: Clear, movement: 1, default: yes, '
                                      'rule: "6.1"}'), encoding="utf-8")
    texts = _texts(_aid_svg(corps_game, tmp_path / "out"))
    assert "Clear (any terrain without a line)" in texts


def test_a_hexsides_declared_colour_is_drawn_on_the_map_its_legend_and_the_chart(
        corps_game, tmp_path):
    """The Stalin line declares ``color: purple``: the map's hexsides, the legend's swatch and
    the terrain chart's swatch are drawn in it (they were the kind's default grey)."""
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", str(corps_game), "--out", str(out),
                                       "--format", "svg", "--only", "map,sheets"])
    assert result.exit_code == 0, result.output
    purple = "#6a3d9a"
    maps = "".join(p.read_text(encoding="utf-8")
                   for p in sorted((out / "corps" / "svg").glob("*map*.svg")))
    line_group = re.search(r'<g class="feature hexside fortified-line stalin-line"[^>]*>(.*?)</g>',
                           maps, re.S)
    assert line_group and purple in line_group.group(1) and "#444444" not in line_group.group(1)
    legend = maps[maps.index("Stalin line") - 2000:maps.index("Stalin line")]
    assert purple in legend
    aid = _aid_svg(corps_game, tmp_path / "aid")
    chart = aid[aid.index("Terrain effects chart"):]
    assert purple in chart[:chart.index("Fortified line")]

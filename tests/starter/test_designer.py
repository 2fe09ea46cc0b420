"""End to end, as a designer works: ``warpress new`` into a temporary folder, then verify,
build, query; each typo a designer makes refused with its file and line; the walk-through in
docs/designing.md run as written."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner
from warpress.cli import main
from warpress.engine.loader import load_game
from warpress.starter.new import new_game

DESIGNING = Path(__file__).resolve().parents[2] / "docs" / "designing.md"
SVG = "{http://www.w3.org/2000/svg}"


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def answer(*args: str) -> dict:
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Path:
    return new_game(str(tmp_path_factory.mktemp("designer") / "bfm")).folder


@pytest.fixture(scope="module")
def kit(game: Path) -> Path:
    out = game.parent / "output"
    result = run("build", str(game), "--out", str(out))
    assert result.exit_code == 0, result.output
    return out / "bfm"


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """A fresh starting game a test may break."""
    return new_game(str(tmp_path / "bfm")).folder


def edit(path: Path, old: str, new: str) -> int:
    """Replace ``old`` once; the line number the edit is on."""
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return text[:text.index(old)].count("\n") + 1


# --- verify, build, query ------------------------------------------------------------------


def test_the_starting_game_verifies(game):
    result = run("verify", str(game))
    assert result.exit_code == 0, result.output
    assert "bfm: data OK" in result.output
    assert re.search(r"verify: [1-9]\d* PASS, 0 FAIL; data OK in 1 of 1 game", result.output)


def test_the_kit_has_a_pdf_and_an_svg_per_page(kit):
    from pypdf import PdfReader

    svgs = sorted((kit / "svg").glob("*.svg"))
    assert len(PdfReader(kit / "bfm.pdf").pages) == len(svgs) >= 4
    assert "assumed-values" not in " ".join(p.name for p in svgs)  # the proof's, not a player's
    names = " ".join(p.name for p in svgs)
    for part in ("calibration", "map", "sheets-and-play-aids", "back"):
        assert part in names
    # calibration (2), the map, the aids with the counters, their backs, the aids with the
    # set-up chart
    assert len(svgs) == 6


def _counter_page(kit: Path, back: bool) -> Path:
    """The SVG page with the counters' fronts (they share a sheet with the aids) or backs."""
    return next(p for p in sorted((kit / "svg").glob("*.svg"))
                if p.stem.endswith("-back") == back and "calibration" not in p.stem
                and 'class="counter unit' in p.read_text(encoding="utf-8"))


def _classes(path: Path) -> list[str]:
    """The classes on a page, the counter key's sample aside (a picture of a counter)."""
    out: list[str] = []

    def visit(element) -> None:
        if "counter-key" in element.get("class", "").split():
            return
        out.append(element.get("class", ""))
        for child in element:
            visit(child)

    visit(ET.parse(path).getroot())
    return out


def test_the_counters_are_nato_with_echelon_and_set_up_code(kit, game):
    front = _counter_page(kit, back=False)
    symbols = [c for c in _classes(front) if c.startswith("unit-symbol")]
    assert sorted(set(symbols)) == ["unit-symbol armour", "unit-symbol artillery",
                                    "unit-symbol infantry"]
    assert len(symbols) == 9
    texts = [e.text for e in ET.parse(front).iter(f"{SVG}text")]
    for code in ("0302", "0603", "0503", "0807", "0506", "0206", "0706"):
        assert code in texts
    assert {"XXX", "XX", "X"} <= set(texts) and "4-4-3" in texts and "6-4-5" in texts
    ids = {unit.id for unit in load_game(game).units}
    assert len(ids) == 9 and not ids & set(texts)  # names, not ids, as a player reads them
    assert {"1st Corps", "2nd Division", "Artillery Brigade"} <= set(texts)
    back = _counter_page(kit, back=True)
    assert "2-2-3" in [e.text for e in ET.parse(back).iter(f"{SVG}text")]


def test_the_map_draws_the_river_on_its_hexsides_and_the_terrain(kit, game):
    sheet = next((kit / "svg").glob("*map*.svg"))
    tree = ET.parse(sheet)
    river = next(e for e in tree.iter() if "hexside river" in e.get("class", ""))
    drawn = [e.get("class") for e in river.iter(f"{SVG}line")]
    declared = re.findall(r'"(\d{4}/\d{4})"', (game / "map.yaml").read_text(encoding="utf-8"))
    assert drawn == [f"hexside-{s.replace('/', '-')}" for s in declared] and len(drawn) == 13
    classes = _classes(sheet)
    for terrain in ("terrain-clear", "terrain-forest"):
        assert any(terrain in c.split() for c in classes), terrain
    assert classes.count("point-symbol city") == 2
    assert {"hex terrain-clear city northtown", "hex terrain-clear city southport"} <= set(classes)
    assert {"feature line road north-road", "feature line railway north-railway"} <= set(classes)


def test_the_play_aid_prints_the_crt_the_terrain_chart_and_the_stacking_limit(kit):
    texts = [e.text for aid in sorted((kit / "svg").glob("*sheets-and-play-aids*.svg"))
             for e in ET.parse(aid).iter(f"{SVG}text") if e.text]
    for word in ("Combat results table", "Terrain effects chart", "Weather", "Stacking",
                 "1-2", "6-1", "DRL", "Forest", "River (hexside)", "City (in the hex)",
                 "Road (line)", "Railway (line)", "1 MP a hex along it"):
        assert any(word in t for t in texts), word


def test_the_play_aid_states_the_turn_victory_zoc_and_retreat_from_the_data(kit, game):
    """What a session plays by (play.yaml): the same data prints on the play aid."""
    loaded = load_game(str(game))
    text = " ".join(e.text for aid in sorted((kit / "svg").glob("*sheets-and-play-aids*.svg"))
                    for e in ET.parse(aid).iter(f"{SVG}text") if e.text)
    last = loaded.get("tracks", "turn").values[-1]
    victory = loaded.victory[0]
    assert f"{victory.label} (Northtown, Southport), at the end of the game (turn {last})" in text
    assert victory.condition in text
    assert "stops there" in text and "[6.4]" in text  # zoc: stop, rule 6.4
    assert "Retreat: its owner picks the path" in text and "up to 1 attacking unit" in text
    assert " → ".join(p.label for p in loaded.sequence) in text


def test_the_map_legend_names_the_city_symbol_once(kit):
    """Two cities, each named on the map: the legend says what the symbol means, once."""
    page = next((kit / "svg").glob("*map*.svg"))
    legend = [e for e in ET.parse(page).iter(f"{SVG}g") if "map-legend" in (e.get("class") or "")
              or "legend" in (e.get("id") or "")]
    words = [t.text for g in legend for t in g.iter(f"{SVG}text") if t.text]
    assert words.count("City 都市") == 1 and "Northtown" not in words


def test_the_crt_answers_lookup_roll_and_odds(game):
    looked = answer("lookup", str(game), "crt", "odds=7:3", "roll=4")
    assert (looked["result"]["column"], looked["result"]["result"]) == ("2-1", "AR")
    assert looked["rules"] == ["7.1", "7.2"]
    rolled = answer("roll", str(game), "crt", "odds=6-1", "--seed", "7")
    face = rolled["rolls"][0]["value"]
    assert rolled["result"]["result"] == {1: "DE", 2: "DE", 3: "DRL", 4: "DRL"}.get(face, "DR")
    odds = answer("odds", str(game), "crt", "odds=1-2", "--exact")
    assert odds["result"]["exact"] == {"AR": "5/6", "EX": "1/6"}
    assert answer("lookup", str(game), "weather", "roll=5")["result"] == {"weather": "rain"}


COMBAT = ("attacker=n1@0604,n4@0604", "defender=s3", "hex=0605")


def test_the_combat_query_sums_shifts_and_names_every_rule(game):
    """4 + 6 against 3 is 10:3, the 3-1 column; a defender in forest and every attacker
    across the river: two columns left, 1-1; a 2 there is EX."""
    looked = answer("lookup", str(game), "combat", *COMBAT, "roll=2")
    result = looked["result"]
    assert (result["attack"], result["defence"], result["odds"]) == (10, 3, "10:3")
    assert (result["shift"], result["column"], result["result"]) == (-2, "1-1", "EX")
    assert [s["from"] for s in result["shifts"]] == [
        "forest", "river: every attacker attacks across it"]
    assert looked["rules"] == ["7.1", "7.2", "6.1", "7.3"]
    odds = answer("odds", str(game), "combat", *COMBAT, "--exact")
    assert odds["result"]["exact"] == {"DR": "1/6", "EX": "1/6", "AR": "2/3"}
    rolled = answer("roll", str(game), "combat", *COMBAT, "--seed", "7")
    face = rolled["rolls"][0]["value"]
    assert rolled["result"]["result"] == {1: "DR", 2: "EX"}.get(face, "AR")


def line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                if text in line)


# --- typos ---------------------------------------------------------------------------------


def refused(folder: Path) -> str:
    result = run("verify", str(folder), "--data")
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    return result.output


def test_hexs_on_a_feature_is_refused_with_its_line(copy):
    line = edit(copy / "map.yaml", 'hexes: ["0807"]', 'hexs: ["0807"]')
    output = refused(copy)
    assert (f"{copy}/map.yaml:{line}: hex_maps[map].features[southport].hexs: unknown key "
            "'hexs'" in output)
    # the one line: the map is still checked without the typo, so nothing that names its
    # hexes (the set-up, the terrain chart, the victory's cities) is reported as missing
    assert "bfm: 1 data problem(s)" in output, output


def test_an_unknown_map_feature_key_is_refused_with_its_line(copy):
    line = edit(copy / "map.yaml", "label: Northtown,", "label: Northtown, colour: red,")
    output = refused(copy)
    assert (f"{copy}/map.yaml:{line}: hex_maps[map].features[northtown].colour: unknown key "
            "'colour'" in output)
    assert "bfm: 1 data problem(s)" in output, output


def test_a_hexside_of_two_hexes_apart_is_refused(copy):
    edit(copy / "map.yaml", '"0704/0705"]', '"0704/0707"]')
    line = line_of(copy / "map.yaml", "- id: river")  # the feature's line
    assert (f"{copy}/map.yaml:{line}: hex_maps[map].features[river].hexsides: hexside "
            "'0704/0707': 0704 and 0707 are not neighbours" in refused(copy))


def test_a_road_step_between_hexes_that_do_not_touch_is_refused(copy):
    edit(copy / "map.yaml", '"0704", "0705", "0806"', '"0704", "0806"')
    line = line_of(copy / "map.yaml", "- {id: north-road,")
    assert (f"{copy}/map.yaml:{line}: hex_maps[map].features[north-road].path: path step "
            "0704 -> 0806: 0704 and 0806 are not neighbours" in refused(copy))


def test_a_railway_hex_off_the_map_is_refused(copy):
    edit(copy / "map.yaml", 'path: ["0101",', 'path: ["0100",')
    line = line_of(copy / "map.yaml", "- {id: north-railway,")
    assert (f"{copy}/map.yaml:{line}: hex_maps[map].features[north-railway].path: hex '0100' "
            "is not on the map (0101..1008)" in refused(copy))


def test_a_path_of_one_hex_is_refused(copy):
    edit(copy / "map.yaml", 'path: ["0101", "0201", "0301", "0302"]', 'path: "0101"')
    line = line_of(copy / "map.yaml", "- {id: north-railway,")
    assert (f"{copy}/map.yaml:{line}: hex_maps[map].features[north-railway].path: path '0101' "
            "is not a list of at least two hexes" in refused(copy))


def test_a_line_kind_without_a_terrain_chart_entry_is_refused(copy):
    line = edit(copy / "terrain.yaml", "  - {id: railway, name: Railway,",
                "  - {id: rail, name: Railway,")
    output = refused(copy)
    assert "line kind 'railway' has no entry in the terrain effects chart" in output
    assert f"{copy}/terrain.yaml:{line}: terrain[rail]: 'rail' is no terrain" in output


def test_three_steps_on_a_two_step_counter_are_refused(copy):
    edit(copy / "units.yaml", "count: 1, steps: 2,", "count: 1, steps: 3,")
    line = line_of(copy / "units.yaml", "- {id: n1,")  # the unit's line
    assert (f"{copy}/units.yaml:{line}: units[n1].steps: steps 3 (allowed: 1 or 2"
            in refused(copy))


def test_a_city_that_does_not_exist_is_refused(copy):
    edit(copy / "play.yaml", "features: [northtown, southport]", "features: [moskva]")
    line = line_of(copy / "play.yaml", "- id: cities")  # the condition's line
    assert (f"{copy}/play.yaml:{line}: victory[cities].features: 'moskva' is no map "
            "feature" in refused(copy))


def test_two_units_beyond_the_stacking_limit_are_refused(copy):
    line = edit(copy / "units.yaml", '{unit: n3, hex: "0603"}', '{unit: n3, hex: "0302"}')
    assert (f"{copy}/units.yaml:{line}: setup[north-setup].place[2]: hex 0302 holds 3 units "
            "at set-up (n1, n2, n3): stacking limit 2 (stacking[per-hex], rule 6.2)"
            in refused(copy))


def test_a_set_up_hex_off_the_map_is_refused(copy):
    line = edit(copy / "units.yaml", '{unit: s4, hex: "0206"}', '{unit: s4, hex: "9999"}')
    assert f"{copy}/units.yaml:{line}: setup[south-setup].place[3].hex: hex '9999'" in \
        refused(copy)


# --- the walk-through (its sh blocks run in tests/test_doc_examples.py) ---------------------


def test_the_swapped_crt_line_fails_as_the_walk_through_shows(tmp_path, monkeypatch):
    """docs/designing.md, "Add a check": the CRT line it quotes is the starting game's, and
    swapping two of its results fails with the FAIL lines it shows, pointing at that line."""
    text = DESIGNING.read_text(encoding="utf-8")
    before, after = re.search(r"so that\s+`(1: \[[^`]+\])` becomes `(1: \[[^`]+\])`",
                              text).groups()
    shown = re.search(r"terminal 90 columns wide\):\n\n```\n(.*?)\n```", text, re.S).group(1)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "90")
    folder = new_game("bfm").folder
    tables = folder / "tables.yaml"
    assert f"        {before}\n" in tables.read_text(encoding="utf-8")
    edit(tables, f"        {before}\n", f"        {after}\n")
    result = CliRunner().invoke(main, ["verify", "bfm"])
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("  FAIL"))
    end = next(i for i in range(start + 1, len(lines)) if not lines[i].startswith("      "))
    assert "\n".join(lines[start:end]) == shown
    assert f"bfm/tables.yaml:{line_of(tables, '        1: [')}" in shown

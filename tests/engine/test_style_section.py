"""The ``style`` section: loaded typed, defaults without one, unknown keys refused."""

from __future__ import annotations

import pytest
from warpress.components.style import check_style, look_of, side_colour
from warpress.engine.errors import BadInput, DataError
from warpress.engine.loader import load_game, load_game_collecting
from warpress.engine.model import GameStyle
from warpress.engine.schema import game_file_schema
from warpress.verify.data import check_folder

STYLE = """
style:
  sides:
    red: {fill: "#aa0000", ink: white}
  fonts: {factors: 8}
  counters:
    armor: {layout: nato, symbol: armour, factors: [attack, move],
            corners: {top_left: id, bottom_right: move}}
  stats:
    attack: {name: attack, rule: "1"}
    move: {name: movement, rule: "1"}
  terrain:
    forest: {fill: "#00aa00", texture: trees, label: Forest}
"""


def _with(tiny_game, text: str, name: str = "style.yaml"):
    (tiny_game / name).write_text(text, encoding="utf-8")
    return load_game(str(tiny_game))


def test_a_game_without_style_gets_the_defaults(tiny_game):
    game = load_game(str(tiny_game))
    assert game.style == GameStyle()
    look = look_of(game, game.get("units", "tank"))
    assert (look.layout, look.symbol, look.factors) == ("nato", "armour", ("attack", "move"))
    assert game.style.fonts.minimum == 4.5 and game.style.fonts.factors == 7


def test_style_is_loaded_typed(tiny_game):
    game = _with(tiny_game, STYLE)
    assert game.style.sides["red"].ink == "white"
    assert side_colour(game, "red") == "#aa0000"
    assert game.style.terrain["forest"].texture == "trees"
    look = look_of(game, game.get("units", "tank"))
    assert look.factors == ("attack", "move")
    assert look.corners == {"top_left": "id", "bottom_right": "move"}
    check_style(game)


def test_an_unknown_style_key_is_refused_with_file_and_line(tiny_game):
    with pytest.raises(DataError) as info:
        _with(tiny_game, STYLE.replace("texture: trees", "texture: trees, colour: red"))
    text = str(info.value)
    assert "style.yaml:13: style.terrain.forest.colour: unknown key 'colour'" in text


def test_a_bad_layout_word_names_the_allowed_ones(tiny_game):
    with pytest.raises(DataError, match=r"style.counters.armor.layout: 'hexagon' is not "
                                        r"allowed \(allowed: nato, silhouette, marker\)"):
        _with(tiny_game, STYLE.replace("layout: nato", "layout: hexagon"))


def test_style_may_appear_once(tiny_game):
    (tiny_game / "more.yaml").write_text("style: {fonts: {name: 7}}\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"'style' appears again"):
        _with(tiny_game, STYLE)


@pytest.mark.parametrize(("old", "new", "message"), [
    ("red: {fill", "green: {fill", r"style.sides.green: unknown side 'green'"),
    ('"#aa0000"', "mauve", r"style.sides.red.fill: 'mauve' is not a colour"),
    ("factors: 8}", "factors: 6}", r"style.fonts.factors: 6 pt is not allowed"),
    ("symbol: armour", "symbol: zeppelin", r"unknown nato symbol 'zeppelin'"),
    ("bottom_right: move", "bottom_right: fuel", r"'fuel' is neither a stat"),
    ("    armor:", "    jeep:", r"'jeep' is no unit type"),
    ("texture: trees", "texture: bricks", r"style.terrain.forest.texture: texture 'bricks' is "
                                          r"unknown \(known: blocks, .*, or none\)"),
])
def test_style_values_the_game_cannot_use_are_data_problems(tiny_game, old, new, message):
    """check_style refuses them; every command meets them when it loads the game, as
    verify --data does."""
    (tiny_game / "style.yaml").write_text(STYLE.replace(old, new), encoding="utf-8")
    game, _problems = load_game_collecting(tiny_game, str(tiny_game))
    with pytest.raises(BadInput, match=message):
        check_style(game)
    with pytest.raises(DataError, match=message):
        load_game(str(tiny_game))
    report = check_folder(str(tiny_game))
    assert any("style" in p.path for p in report.problems)


def test_the_schema_describes_style():
    schema = game_file_schema()
    assert schema["properties"]["style"] == {"$ref": "#/$defs/GameStyle"}
    layout = schema["$defs"]["CounterLayout"]
    assert layout["properties"]["layout"] == {"enum": ["nato", "silhouette", "marker"]}
    assert layout["additionalProperties"] is False


def test_a_nato_counter_prints_echelon_setup_code_and_factors(tiny_game):
    from warpress.components.pieces import unit_pieces
    from warpress.components.primitives import Text, walk

    path = tiny_game / "game.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace(
        "side: red, type: armor,", "side: red, type: armor, size: XX, setup_code: C-2,"),
        encoding="utf-8")
    _with(tiny_game, "style: {counters: {armor: {layout: nato, factors: [attack, move], "
                     "corners: {top_left: setup, top_right: id}}}, stats: {attack: {name: "
                     "attack, rule: '1'}, move: {name: movement, rule: '1'}}}")
    game = load_game(str(tiny_game))
    piece = unit_pieces(game, game.get("units", "tank"))[0]
    texts = {t.cls: t.text for t in walk(piece.front) if isinstance(t, Text)}
    assert texts["echelon"] == "XX" and texts["factors"] == "3-2"
    assert texts["corner top_left"] == "C-2" and texts["corner top_right"] == "tank"
    assert [i.cls for i in walk(piece.front) if i.cls and i.cls.startswith("unit-symbol")] == [
        "unit-symbol armour"]
    back = {t.cls for t in walk(piece.back) if isinstance(t, Text)}
    assert "factors" in back and any(i.cls == "reduced-band" for i in walk(piece.back))


def test_texture_none_draws_a_plain_fill(tiny_game):
    """docs/data-format.md: a texture may be none (it was refused by the map drawing)."""
    from warpress.components.hexmap import terrain_looks

    game = _with(tiny_game, STYLE.replace("texture: trees", "texture: none"))
    assert check_folder(str(tiny_game)).ok
    assert terrain_looks(game)["forest"].texture == ""

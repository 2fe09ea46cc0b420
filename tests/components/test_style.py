"""The names of the values counters print (``style.stats``): every printed stat has one,
with its provenance; the counter key reads them."""

from __future__ import annotations

from data_edits import edit, loaded
from warpress.components.style import stat_label, style_problems
from warpress.engine.loader import builtin
from warpress.starter.new import new_game


def _messages(game) -> list[str]:
    return [f"{path}: {message}" for _item, path, message in style_problems(game)]


def test_the_shipped_games_name_every_printed_value():
    for game_id in ("midway", "nimitz", "nightfighter", "axis-allies"):
        assert not _messages(builtin(game_id)), game_id
    for game_id in ("midway", "nimitz", "nightfighter"):  # their counters have backs
        assert builtin(game_id).style.back is not None, game_id


def test_a_printed_stat_without_a_name_is_a_data_problem(tmp_path):
    folder = new_game(str(tmp_path / "g")).folder
    edit(folder, '    move: {name: movement, rule: "3.1"}\n', "")
    messages = _messages(loaded(folder))
    assert any("style.counters.infantry.factors[2]: 'move' has no name in style.stats" in m
               for m in messages), messages


def test_a_name_needs_its_provenance(tmp_path):
    folder = new_game(str(tmp_path / "g")).folder
    edit(folder, '{name: movement, rule: "3.1"}', "{name: movement}")
    assert "style.stats.move: no provenance" in " ".join(_messages(loaded(folder)))


def test_a_back_s_meaning_needs_its_provenance(tmp_path):
    folder = new_game(str(tmp_path / "g")).folder
    edit(folder, '{name: "reduced (one step lost)", rule: "3.2"}', '{name: "reduced"}')
    assert "style.back: no provenance" in " ".join(_messages(loaded(folder)))
    edit(folder, '{name: "reduced"}', '{name: "reduced", source: assumed}')
    assert "style.back: source: assumed needs a one-line note" in " ".join(
        _messages(loaded(folder)))


def test_joined_stats_read_as_both_names():
    game = builtin("nimitz")
    assert stat_label(game, "aa|aa_sup") == "anti-air / anti-air superior"
    assert stat_label(game, "setup") == "set-up hex"
    assert stat_label(game, "no-such-stat") is None

"""engine/loader.py: frozen typed objects, the pickled cache, game resolution."""

from __future__ import annotations

import dataclasses
import os
import pickle
import shutil
from pathlib import Path

import pytest
import yaml
from warpress.engine.errors import BadInput, DataError
from warpress.engine.gamecode import package_of
from warpress.engine.gamelist import GAMES_DIR
from warpress.engine.inputs import quote
from warpress.engine.loader import (
    builtin_folder,
    builtin_games,
    game_dir,
    load_cached,
    load_game,
)
from warpress.engine.model import Constant, Unit


def test_records_are_typed_and_frozen(tiny_game):
    game = load_game(str(tiny_game))
    tank = game.get("units", "tank")
    assert isinstance(tank, Unit) and tank.stats["attack"] == 3
    with pytest.raises(dataclasses.FrozenInstanceError):
        tank.count = 5
    with pytest.raises(TypeError):
        tank.stats["attack"] = 9
    assert tank.field_assumed("stats.move") and not tank.field_assumed("stats.attack")
    assert tank.label == "Tank 戦車"
    assert tank.origin.file.endswith("game.yaml") and tank.origin.line > 0
    assert isinstance(game.get("constants", "capacity"), Constant)
    assert game.constant("capacity") == 5


def test_unknown_record_lists_the_ids(tiny_game):
    game = load_game(str(tiny_game))
    with pytest.raises(BadInput, match=r"no units record 'jeep' \(have: tank\)"):
        game.get("units", "jeep")


def test_a_record_of_the_kind_asked_or_bad_input(tiny_game):
    game = load_game(str(tiny_game))
    assert game.record("units", "tank", Unit) is game.get("units", "tank")
    with pytest.raises(BadInput, match=r"units record 'tank' is a Unit, not a Constant"):
        game.record("units", "tank", Constant)
    with pytest.raises(BadInput, match=r"no units record 'jeep'"):
        game.record("units", "jeep", Unit)


def test_hex_ids_follow_the_declared_notation(tiny_game):
    field = load_game(str(tiny_game)).hex_map("field")
    assert field.hex_ids[:3] == ("A-1", "A-2", "A-3") and len(field.hex_ids) == 20


def test_load_game_raises_every_problem(tiny_game):
    text = (tiny_game / "game.yaml").read_text(encoding="utf-8")
    text = text.replace("count: 4,", "count: x,").replace('players: "2"', "players: 2")
    (tiny_game / "game.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_game(str(tiny_game))
    assert len(info.value.problems) == 2


def test_cache_returns_an_equal_game_and_notices_edits(tiny_game, tmp_path, monkeypatch):
    monkeypatch.setenv("WARPRESS_CACHE", str(tmp_path / "cache"))
    first = load_cached(str(tiny_game))
    assert list((tmp_path / "cache").glob("*.pickle"))
    again = load_cached(str(tiny_game))
    assert again is first  # read once per process
    monkeypatch.setattr("warpress.engine.loader._LOADED", {})
    from_disk = load_cached(str(tiny_game))
    assert from_disk == first and from_disk is not first
    path = tiny_game / "game.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("value: 5,", "value: 6,"),
                    encoding="utf-8")
    assert load_cached(str(tiny_game)).constant("capacity") == 6


def test_two_folders_of_one_name_keep_a_cache_each(tiny_game, tmp_path, monkeypatch):
    """The cache is keyed by the folder's resolved path and its files' content: a copy of a
    game under the same folder name elsewhere, edited, is neither mistaken for the first nor
    evicts its cache; an edit that keeps each file's size and time is still noticed."""
    monkeypatch.setenv("WARPRESS_CACHE", str(tmp_path / "cache"))
    other = tmp_path / "elsewhere" / "tiny"
    shutil.copytree(tiny_game, other)
    path = other / "game.yaml"
    text, times = path.read_text(encoding="utf-8"), path.stat()
    path.write_text(text.replace("value: 5,", "value: 7,"), encoding="utf-8")
    os.utime(path, ns=(times.st_atime_ns, times.st_mtime_ns))  # same size, same time
    assert load_cached(str(tiny_game)).constant("capacity") == 5
    assert load_cached(str(other)).constant("capacity") == 7
    assert len(list((tmp_path / "cache").glob("tiny-*.pickle"))) == 2
    monkeypatch.setattr("warpress.engine.loader._LOADED", {})
    assert load_cached(str(tiny_game)).constant("capacity") == 5
    assert load_cached(str(other)).constant("capacity") == 7


def test_game_pickles(tiny_game):
    game = load_game(str(tiny_game))
    assert pickle.loads(pickle.dumps(game)) == game


def test_unknown_game_lists_choices():
    with pytest.raises(BadInput, match="unknown game 'zork'"):
        game_dir("zork")


def test_a_folder_without_yaml_is_bad_input(tmp_path):
    (tmp_path / "notes.txt").write_text("not a game", encoding="utf-8")
    with pytest.raises(BadInput, match=r"game folder .* has no \.yaml files"):
        game_dir(str(tmp_path))


def test_a_number_must_be_finite(tiny_game):
    text = (tiny_game / "game.yaml").read_text(encoding="utf-8")
    line = '    hex_id: "{col}-{row}"'
    text = text.replace(line, f"{line}\n    hex_size_mm: .inf")
    (tiny_game / "game.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_game(str(tiny_game))
    assert "hex_size_mm: expected a finite number, got inf" in str(info.value.problems[0])


@pytest.mark.parametrize("bad", ["s5/../../../../ESCAPED", "..", ".hidden", "a..b", "a b",
                                 "a\\b", "a:b", "x\x1b[2J", "\u202eevil", "赤城", "x" * 65])
def test_an_id_is_letters_digits_dot_underscore_and_hyphen(tiny_game, bad):
    from data_edits import edit

    edit(tiny_game, "{id: tank,", "{id: " + yaml_text(bad) + ",")
    with pytest.raises(DataError) as info:
        load_game(str(tiny_game))
    (problem,) = info.value.problems
    assert problem.path == "units[0].id" and problem.line > 0
    assert problem.message.startswith(f"id {quote(bad)} is ")


@pytest.mark.parametrize("good", ["tank", "F-6", "E7", "0712", "a.b", "_x", "x" * 64])
def test_ids_of_the_grammar_load(tiny_game, good):
    from data_edits import edit

    edit(tiny_game, "{id: tank,", "{id: " + yaml_text(good) + ",")
    assert load_game(str(tiny_game)).units[0].id == good


def yaml_text(text: str) -> str:
    """``text`` as a YAML double-quoted scalar."""
    import json

    return json.dumps(text)


def test_a_shipped_game_says_its_own_id():
    """A folder of another name (a copy) is loaded under that name; the shipped folders'
    ``game.yaml`` say theirs, the folder's name with ``_`` as ``-``."""
    for name in builtin_games():
        info = yaml.safe_load((builtin_folder(name) / "game.yaml").read_text(encoding="utf-8"))
        assert info["game"]["id"] == name == load_game(name).info.id


def test_a_shipped_folder_is_a_package_python_imports_under_the_folder_name():
    assert builtin_folder("midway-cards") == GAMES_DIR / "midway_cards"
    assert "midway-cards" in builtin_games() and "midway_cards" not in builtin_games()
    assert all(builtin_folder(name).name.isidentifier() for name in builtin_games())
    assert package_of(load_game("midway-cards")) == "warpress.games.midway_cards"


@pytest.mark.parametrize("what", [["a", "list"], {"not": "a game"}, 42])
def test_a_cache_file_holding_something_else_is_not_a_game(tiny_game, tmp_path, monkeypatch,
                                                             what):
    from warpress.engine import loader

    monkeypatch.setenv("WARPRESS_CACHE", str(tmp_path / "cache"))
    game = load_cached(str(tiny_game))
    (cached,) = (tmp_path / "cache").glob("*.pickle")
    cached.write_bytes(pickle.dumps(what))
    monkeypatch.setattr(loader, "_LOADED", {})
    assert load_cached(str(tiny_game)) == game


def test_the_cache_folder_is_private_and_one_others_may_write_is_not_used(
        tiny_game, tmp_path, monkeypatch):
    import stat

    from warpress.engine import loader
    from warpress.engine.notes import drain

    monkeypatch.setenv("WARPRESS_CACHE", str(tmp_path / "cache"))
    game = load_cached(str(tiny_game))
    assert stat.S_IMODE((tmp_path / "cache").stat().st_mode) == 0o700
    (cached,) = (tmp_path / "cache").glob("*.pickle")
    assert stat.S_IMODE(cached.stat().st_mode) == 0o600
    (tmp_path / "cache").chmod(0o777)
    cached.write_bytes(pickle.dumps("planted by another user"))
    monkeypatch.setattr(loader, "_LOADED", {})
    drain()
    assert load_cached(str(tiny_game)) == game
    assert drain() == [f"the cache is not used: {tmp_path / 'cache'}: writable by others "
                       f"(mode 777); make it private (chmod 700) or remove it"]


def test_a_map_without_columns_is_refused_at_load(tiny_game):
    from data_edits import edit

    edit(tiny_game, "columns: {count: 5, labels: letters}", "columns: {count: 0, labels: "
         "letters}")
    with pytest.raises(DataError) as info:
        load_game(str(tiny_game))
    assert [str(p) for p in info.value.problems] == [
        f"{tiny_game.name}/game.yaml:48: hex_maps[field].columns.count: count 0: a map has 1 "
        f"or more columns".replace(f"{tiny_game.name}/", f"{tiny_game}/")]


class _Touch:
    """A pickle that, when loaded, creates a marker file (any code could run there)."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (Path.touch, (self.marker,))


@pytest.mark.parametrize("how", ["folder open to others", "file open to others",
                                 "a link to a file"])
def test_a_planted_pickle_is_never_loaded(tiny_game, tmp_path, monkeypatch, how):
    """A cache file someone else could have written (in a folder or as a file others may
    write, or a link to one) is never unpickled: loading a pickle can run any code."""
    from warpress.engine import loader

    monkeypatch.setenv("WARPRESS_CACHE", str(tmp_path / "cache"))
    game = load_cached(str(tiny_game))
    (cached,) = (tmp_path / "cache").glob("*.pickle")
    planted = pickle.dumps(_Touch(tmp_path / "ran"))
    if how == "a link to a file":
        (tmp_path / "elsewhere.pickle").write_bytes(planted)
        cached.unlink()
        cached.symlink_to(tmp_path / "elsewhere.pickle")
    else:
        cached.write_bytes(planted)
        (tmp_path / "cache" if how == "folder open to others" else cached).chmod(0o777)
    monkeypatch.setattr(loader, "_LOADED", {})
    assert load_cached(str(tiny_game)) == game
    assert not (tmp_path / "ran").exists()
    pickle.loads(planted)  # the plant is real: loaded, it runs
    assert (tmp_path / "ran").exists()


@pytest.mark.parametrize("refused", [False, True], ids=["loaded", "refused"])
def test_no_yaml_node_outlives_the_read(tiny_game, refused):
    """The YAML nodes of a game's files are let go once the game is built (or refused): a
    process that reads several games (verify all, build all, the hostile corpus in one
    process) holds none of their files."""
    import gc

    from data_edits import edit

    def nodes() -> int:
        gc.collect()
        return sum(1 for o in gc.get_objects() if isinstance(o, yaml.Node))

    if refused:
        edit(tiny_game, "{id: tank,", "{id: '../tank',")
    before = nodes()
    try:
        load_game(str(tiny_game))
    except DataError:
        assert refused
    assert nodes() == before

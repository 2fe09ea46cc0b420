"""The referee session store (engine/session.py), driven by the hide-and-seek fake referee."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_session_fake import HideSeekReferee, make_game, rechain
from warpress.engine import session
from warpress.engine.errors import BadInput, RuleViolation


@pytest.fixture
def game(tmp_path: Path) -> str:
    return str(make_game(tmp_path / "games"))


@pytest.fixture
def where(tmp_path: Path) -> Path:
    return tmp_path / "night" / "one"


def _log(directory: Path) -> list[dict]:
    return [json.loads(line) for line in (directory / "log.jsonl").read_text().splitlines()]


def _token(s: session.Session) -> int:
    return int(s.state.piece("token").place)


def _miss(s: session.Session) -> str:
    return f"{(_token(s) + 5) % 10:02d}"


def _hash(s: session.Session) -> str:
    return session.state_hash(s.referee.dump(s.state))


def _game_part(directory: Path) -> dict:
    """The game state state.json holds (without the log anchor every logged line moves)."""
    record = json.loads((directory / "state.json").read_text())
    return {k: record[k] for k in ("n", "state", "state_sha256")}


# --------------------------------------------------------------------------- create / open


def test_create_writes_the_files_and_open_reads_them_back(game, where):
    with session.create(where, game, None, seed=42) as s:
        assert (s.n, s.seed, s.scenario) == (0, 42, "dusk")
        s.command("search", {"counter": "eye", "hex": _miss(s)})
        before = (_hash(s), s.player_view())
    assert sorted(p.name for p in where.iterdir()) == [".lock", "key", "log.jsonl",
                                                       "state.json"]
    with session.open(where) as s:
        assert (s.n, s.seed, s.game.id) == (1, 42, "hideseek")
        assert (_hash(s), s.player_view()) == before


def test_header_records_game_scenario_hash_seed_and_version(game, where, tmp_path):
    with session.create(where, game, "midnight", seed=7) as s:
        setup_hash = _hash(s)
    header = _log(where)[0]
    scenario_file = Path(game) / "scenarios" / "midnight.yaml"
    assert header["type"] == "session"
    assert (header["game"], header["folder"]) == ("hideseek", str(Path(game).resolve()))
    assert len(header["id"]) == 32 and header["id"].isalnum()
    assert header["scenario"] == "midnight"
    assert header["scenario_sha256"] == session.sha256(scenario_file.read_bytes())
    assert (header["seed"], header["n"], header["hash"]) == (7, 0, setup_hash)
    assert header["warpress"]


def test_a_scenario_given_as_a_file_is_logged_by_absolute_path(game, where, tmp_path):
    own = tmp_path / "own.yaml"
    own.write_text("title: Own\nturns: 2\ncodename: MOTH\n")
    with session.create(where, game, str(own), seed=1) as s:
        assert s.player_view()["turns"] == 2
    assert _log(where)[0]["scenario"] == str(own.resolve())


def test_seed_none_draws_and_records_a_seed(game, where):
    with session.create(where, game, None, None) as s:
        seed = s.seed
    assert isinstance(seed, int) and _log(where)[0]["seed"] == seed


def test_create_refuses_a_directory_holding_a_session(game, where):
    session.create(where, game, None, 1).close()
    log = (where / "log.jsonl").read_bytes()
    with pytest.raises(BadInput, match="already holds a referee session"):
        session.create(where, game, None, 2)
    assert (where / "log.jsonl").read_bytes() == log


def test_create_with_an_unknown_scenario_writes_nothing(game, where):
    with pytest.raises(BadInput, match="unknown scenario 'dawn'"):
        session.create(where, game, "dawn", 1)
    assert not where.exists()


def test_open_an_unknown_session_names_the_directory_and_the_fix(tmp_path):
    with pytest.raises(BadInput, match=r"no referee session in .*nowhere \(no log.jsonl\); "
                                       r"start one with `warpress referee new GAME"):
        session.open(tmp_path / "nowhere")


# --------------------------------------------------------------------------- commands


def test_log_shape_for_accepted_and_refused_commands(game, where):
    with session.create(where, game, None, 5) as s:
        s.command("search", {"counter": "eye", "hex": _miss(s)})
        after_search = _hash(s)
        with pytest.raises(RuleViolation, match="one search per turn"):
            s.command("search", {"counter": "eye", "hex": "00"})
        with pytest.raises(BadInput, match="unknown counter 'ear'"):
            s.command("search", {"counter": "ear", "hex": "00"})
        s.command("end-turn", {})
    lines = _log(where)
    assert [(r["n"], r["command"], r["result"]) for r in lines[1:]] == [
        (1, "search", "ok"), (1, "search", "refused"), (1, "search", "refused"),
        (2, "end-turn", "ok")]
    assert lines[1]["hash"] == lines[2]["hash"] == lines[3]["hash"] == after_search
    assert lines[2]["rule"] == "3.1" and "one search per turn" in lines[2]["message"]
    assert lines[3]["rule"] is None and "unknown counter" in lines[3]["message"]
    assert lines[4]["args"] == {} and lines[1]["args"]["counter"] == "eye"


def test_a_refused_command_changes_nothing_but_the_log(game, where):
    with session.create(where, game, None, 5) as s:
        s.command("search", {"counter": "eye", "hex": _miss(s)})
        game_part = _game_part(where)
        state, n, lines = s.state, s.n, len(_log(where))
        with pytest.raises(RuleViolation):
            s.command("search", {"counter": "eye", "hex": "01"})
        assert (s.state, s.n) == (state, n)
    assert _game_part(where) == game_part
    assert len(_log(where)) == lines + 1
    assert json.loads((where / "state.json").read_text())["log_lines"] == lines + 1


def test_an_unknown_command_name_is_rejected_before_logging(game, where):
    with session.create(where, game, None, 5) as s:
        with pytest.raises(BadInput, match=r"unknown command 'move' for hideseek "
                                           r"\(commands: search, sight, end-turn\)"):
            s.command("move", {"fighter": "F1", "path": "F"})
    assert len(_log(where)) == 1


def test_reveal_is_recorded_and_history_lists_the_log(game, where):
    with session.create(where, game, None, 3) as s:
        truth = s.referee_view()
        assert truth["bombers"][0]["hex"] == f"{_token(s):02d}"
        history = s.history()
    assert [r["type"] for r in history] == ["session", "reveal"]


def test_the_summary_appears_at_the_end(game, where):
    with session.create(where, game, None, 3) as s:
        assert s.summary() is None
        s.command("search", {"counter": "eye", "hex": f"{_token(s):02d}"})
        assert s.summary()["result"] == "won"
        assert "Found NIGHTJAR" in s.announcements()[-1]["text"]


# --------------------------------------------------------------------------- crash safety


def test_a_crash_between_log_and_state_is_recovered_on_open(game, where, monkeypatch):
    with session.create(where, game, None, 9) as s:
        s.command("search", {"counter": "eye", "hex": _miss(s)})

        def killed(*args):
            raise KeyboardInterrupt("killed")

        with monkeypatch.context() as patch, pytest.raises(KeyboardInterrupt):
            patch.setattr(session, "write_state", killed)
            s.command("end-turn", {})
    assert _log(where)[-1]["n"] == 2
    assert json.loads((where / "state.json").read_text())["n"] == 1
    with session.open(where) as s:
        assert s.n == 2 and _hash(s) == _log(where)[-1]["hash"]
    assert json.loads((where / "state.json").read_text())["n"] == 2


def test_a_state_file_left_behind_by_a_crash_is_caught_up(game, where):
    with session.create(where, game, None, 11) as s:
        s.command("search", {"counter": "eye", "hex": _miss(s)})
        s.command("sight", {})
        old = (where / "state.json").read_bytes()
        s.command("end-turn", {})
        s.command("search", {"counter": "eye", "hex": _miss(s)})
        final = _hash(s)
    (where / "state.json").write_bytes(old)  # as if the last two renames never happened
    with session.open(where) as s:
        assert (s.n, _hash(s)) == (4, final)


def test_a_failed_rename_leaves_the_old_state_whole(game, where, monkeypatch):
    with session.create(where, game, None, 11) as s:
        old = (where / "state.json").read_bytes()

        def refuse(src, dst):
            raise OSError(28, "No space left on device")

        with monkeypatch.context() as patch, pytest.raises(
                BadInput, match=r"state.json: cannot write: No space left on device"):
            patch.setattr(session.os, "replace", refuse)
            s.command("search", {"counter": "eye", "hex": _miss(s)})
    assert (where / "state.json").read_bytes() == old
    assert sorted(p.name for p in where.iterdir()) == [".lock", "key", "log.jsonl",
                                                       "state.json"]
    with session.open(where) as s:
        assert s.n == 1


def test_a_missing_state_file_is_rebuilt_from_the_log(game, where):
    with session.create(where, game, None, 13) as s:
        s.command("end-turn", {})
        final = _hash(s)
    (where / "state.json").unlink()
    with session.open(where) as s:
        assert (s.n, _hash(s)) == (1, final)


def test_a_torn_last_log_line_is_ignored_by_readers_and_cut_off_by_the_next_append(game,
                                                                                   where):
    with session.create(where, game, None, 13) as s:
        s.command("end-turn", {})
    whole = (where / "log.jsonl").read_bytes()
    (where / "log.jsonl").write_bytes(whole + b'{"type": "command", "n": 2, "comm')
    with session.open(where, readonly=True) as s:
        assert s.n == 1 and len(s.history()) == 2
    with session.open(where) as s:
        assert s.n == 1
        s.reveal()
    lines = (where / "log.jsonl").read_bytes().split(b"\n")
    assert b"\n".join(lines[:2]) + b"\n" == whole and json.loads(lines[2])["type"] == "reveal"
    assert lines[3:] == [b""]


# --------------------------------------------------------------------------- integrity


def _started(game: str, where: Path, seed: int = 21) -> str:
    with session.create(where, game, None, seed) as s:
        s.command("search", {"counter": "eye", "hex": _miss(s)})
        s.command("end-turn", {})
        return _hash(s)


def test_a_hand_edited_value_in_state_json_is_detected(game, where):
    _started(game, where)
    record = json.loads((where / "state.json").read_text())
    record["n"] = 1
    (where / "state.json").write_text(json.dumps(record))
    with pytest.raises(session.SessionCorrupt, match=r"state.json: checksum mismatch"):
        session.open(where)


def test_an_edited_state_blob_is_detected(game, where):
    _started(game, where)
    record = json.loads((where / "state.json").read_text())
    blob = record["state"]
    record["state"] = blob[:10] + ("A" if blob[10] != "A" else "B") + blob[11:]
    (where / "state.json").write_text(json.dumps(record))
    with pytest.raises(session.SessionCorrupt, match="checksum mismatch"):
        session.open(where)


def test_a_re_sealed_edit_is_caught_by_the_log_hash(game, where):
    _started(game, where)
    key = bytes.fromhex((where / "key").read_text())
    saved = session.read_state(where, key)
    dump = saved.dump
    token = dump["pieces"][0]
    token["place"] = f"{(int(token['place']) + 1) % 10:02d}"  # peek and move the token
    session.write_state(where, saved.n, dump, key, saved.log_lines,
                        saved.log_sha256)  # with a valid file checksum
    with pytest.raises(session.SessionCorrupt,
                       match=r"state.json: checksum mismatch with log.jsonl at command 2"):
        session.open(where)


def test_corrupt_bytes_are_reported_as_not_json(game, where):
    _started(game, where)
    data = bytearray((where / "state.json").read_bytes())
    data[0:4] = b"\x00\xff\x13Z"
    (where / "state.json").write_bytes(bytes(data))
    with pytest.raises(session.SessionCorrupt, match=r"state.json: not JSON"):
        session.open(where)


@pytest.mark.parametrize("damage", ["edit", "bytes", "delete"])
def test_replay_restores_a_damaged_state(game, where, damage):
    final = _started(game, where)
    path = where / "state.json"
    if damage == "edit":
        path.write_text(path.read_text().replace('"n": 2', '"n": 0'))
    elif damage == "bytes":
        path.write_bytes(b"\x00garbage")
    else:
        path.unlink()
    report = session.replay(where)
    assert report.ok and report.n == 2 and report.state_file != "ok"
    with session.open(where) as s:
        assert (s.n, _hash(s)) == (2, final)


def test_replay_of_a_healthy_session_reproduces_every_hash(game, where):
    final = _started(game, where)
    state = (where / "state.json").read_bytes()
    report = session.replay(where)
    assert (report.ok, report.n, report.state_file, report.notes) == (True, 2, "ok", ())
    assert not report.rewritten and (where / "state.json").read_bytes() == state
    with session.open(where) as s:
        assert _hash(s) == final


def test_replay_reports_a_tampered_log_and_leaves_the_state(game, where):
    """A log edited with its hash chain and anchor recomputed (what a forger would do) passes
    the chain; replay still finds the step that no longer replays."""
    _started(game, where)
    lines = (where / "log.jsonl").read_text().splitlines()
    first = json.loads(lines[1])
    first["args"]["hex"] = f"{(int(first['args']['hex']) + 1) % 10:02d}"
    lines[1] = json.dumps(first, sort_keys=True)
    rechain(where, lines)
    session.anchor_file(where).unlink()  # a session from another machine: no anchor here
    state = (where / "state.json").read_bytes()
    report = session.replay(where)
    assert not report.ok
    assert "command 1 (search)" in report.differences[0]
    assert (where / "state.json").read_bytes() == state


def test_replay_notes_a_changed_scenario(game, where):
    _started(game, where)
    scenario = Path(game) / "scenarios" / "dusk.yaml"
    scenario.write_text(scenario.read_text().replace("turns: 4", "turns: 5"))
    report = session.replay(where)
    assert any("scenario 'dusk' changed" in note for note in report.notes)


# --------------------------------------------------------------------------- hidden state


def test_the_hidden_facts_are_not_readable_in_the_files(game, where):
    with session.create(where, game, None, 4) as s:
        s.command("search", {"counter": "eye", "hex": _miss(s)})
        s.command("end-turn", {})
        key = s.key
    for name in ("state.json", "log.jsonl"):
        text = (where / name).read_text()
        assert "NIGHTJAR" not in text and '"pieces"' not in text, name
    assert (where / "key").stat().st_mode & 0o077 == 0
    # the obfuscation is reversible with the key
    assert session.read_state(where, key).dump["data"]["codename"] == "NIGHTJAR"


def test_obfuscation_round_trips_and_depends_on_the_key():
    dump = {"bombers": [{"id": "231", "hex": "0913"}]}
    text = session.obfuscate(dump, b"k" * 32)
    assert "0913" not in text
    assert session.deobfuscate(text, b"k" * 32) == dump
    with pytest.raises(ValueError):
        session.deobfuscate(text, b"j" * 32)


# --------------------------------------------------------------------------- sealed arguments


@pytest.fixture
def sealing(monkeypatch):
    """The fake's searched hex as an argument its rules keep sealed."""
    monkeypatch.setattr(HideSeekReferee, "sealed_args", {"search": ("hex",)}, raising=False)


def _sealed_session(game: str, where: Path) -> tuple[str, bytes, list[str]]:
    """Searches (one refused) and a turn's end; (final hash, key, the hexes typed)."""
    with session.create(where, game, None, 31) as s:
        typed = [_miss(s)]
        s.command("search", {"counter": "eye", "hex": typed[0]})
        with pytest.raises(RuleViolation, match="one search per turn"):
            s.command("search", {"counter": "eye", "hex": typed[0]})
        s.command("end-turn", {})
        typed.append(_miss(s))
        s.command("search", {"counter": "eye", "hex": typed[1]})
        return _hash(s), s.key, typed


def test_a_sealed_argument_is_logged_sealed_never_as_typed(game, where, sealing):
    _final, key, typed = _sealed_session(game, where)
    searches = [r for r in _log(where) if r.get("command") == "search"]
    assert [r["result"] for r in searches] == ["ok", "refused", "ok"]
    sealed = [r["args"]["hex"] for r in searches]
    assert all(text.startswith("sealed:") for text in sealed)
    assert [session.unseal(text, key) for text in sealed] == [typed[0], typed[0], typed[1]]
    assert sealed[0] != sealed[1]  # the same plan sealed twice reads differently
    assert all(r["args"]["counter"] == "eye" for r in searches)  # the others as typed
    text = (where / "log.jsonl").read_text()
    assert f'"{typed[0]}"' not in text and f'"{typed[1]}"' not in text
    with pytest.raises(ValueError):
        session.unseal(sealed[0], b"j" * 32)


def test_a_seal_says_nothing_of_its_value_s_length():
    key = b"k" * 32
    short, long = session.seal("G-8", key), session.seal("H-9,H-8,G-7,F-7,E-7,D-7", key)
    assert len(short) == len(long)
    assert session.unseal(long, key) == "H-9,H-8,G-7,F-7,E-7,D-7"
    for broken in ("sealed:zz:AAAA", "G-8", short[:-1]):
        with pytest.raises(ValueError):
            session.unseal(broken, key)


@pytest.mark.parametrize("how", ["replay", "rebuild", "undo", "catch-up"])
def test_a_session_with_sealed_arguments_replays(game, where, sealing, how, monkeypatch):
    final, _key, _typed = _sealed_session(game, where)
    if how == "replay":
        report = session.replay(where)
        assert (report.ok, report.n, report.rewritten) == (True, 3, False)
    elif how == "rebuild":
        (where / "state.json").unlink()
    elif how == "undo":
        with session.open(where) as s:
            s.command("end-turn", {})
            s.undo()
            assert _hash(s) == final
    else:
        def killed(*args):
            raise KeyboardInterrupt("killed")

        with session.open(where) as s, monkeypatch.context() as patch, \
                pytest.raises(KeyboardInterrupt):
            s.command("end-turn", {})
            patch.setattr(session, "write_state", killed)  # killed before the state is
            s.command("search", {"counter": "eye", "hex": _miss(s)})  # written: caught up
        assert _log(where)[-1]["args"]["hex"].startswith("sealed:")
        final = _log(where)[-1]["hash"]
    with session.open(where) as s:
        assert _hash(s) == final


def test_sealed_arguments_do_not_open_with_another_key(game, where, sealing):
    _sealed_session(game, where)
    (where / "key").write_text("ab" * 32 + "\n")
    report = session.replay(where)
    assert not report.ok
    assert report.differences[0] == ("command 1 (search): its sealed arguments do not open "
                                     "with the session's key")


# --------------------------------------------------------------------------- locking


def test_a_second_command_on_a_busy_session_is_refused(game, where):
    first = session.create(where, game, None, 4)
    try:
        with pytest.raises(BadInput, match="session .* is busy"):
            session.open(where)
        with pytest.raises(BadInput, match="is busy"):
            session.replay(where)
    finally:
        first.close()
    with session.open(where) as s:
        assert s.n == 0


# --------------------------------------------------------------------------- replay property

COMMANDS = st.one_of(
    st.tuples(st.just("search"), st.fixed_dictionaries(
        {"counter": st.sampled_from(["eye", "eye", "ear"]),
         "hex": st.sampled_from([f"{c:02d}" for c in range(10)] + ["10"])})),
    st.tuples(st.just("sight"), st.just({})),
    st.tuples(st.just("end-turn"), st.just({})),
)


def _run(directory: Path, game: str, seed: int, commands) -> str:
    with session.create(directory, game, "midnight", seed) as s:
        for name, args in commands:
            try:
                s.command(name, args)
            except (RuleViolation, BadInput):
                pass
        return _hash(s)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**63), commands=st.lists(COMMANDS,
                                                                           max_size=12))
def test_replaying_any_command_sequence_gives_the_same_state(seed, commands):
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        game = str(make_game(root / "games"))
        final = _run(root / "a", game, seed, commands)
        assert _run(root / "b", game, seed, commands) == final  # same seed, same game
        (root / "a" / "state.json").unlink()
        report = session.replay(root / "a")
        assert report.ok, report.differences
        with session.open(root / "a") as s:
            assert _hash(s) == final
            accepted = [r for r in s.history() if r.get("result") == "ok"]
            assert s.n == len(accepted)


def test_the_public_head_covers_the_lines_not_the_positions():
    """The head hash status and log print changes with every line and with what a line
    says, never with the position hashes the lines carry (which cover hidden facts)."""
    records = [{"type": "session", "n": 0, "hash": "a" * 64, "time": "T"},
               {"type": "command", "n": 1, "command": "end", "args": {}, "result": "ok",
                "hash": "b" * 64, "prev": "c" * 64, "time": "T"}]
    other = [dict(r, hash="f" * 64, prev="e" * 64) for r in records]
    assert session.public_head(records) == session.public_head(other)
    assert session.public_head(records) != session.public_head(records[:1])
    changed = [records[0], dict(records[1], command="move")]
    assert session.public_head(records) != session.public_head(changed)

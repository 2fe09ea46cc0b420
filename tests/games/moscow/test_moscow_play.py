"""Battle for Moscow (tests/fixtures/games/moscow) played in sessions through the command
line (`warpress play`, docs/playing.md): whole games from several seeds by a player that
chooses at random among the answers `moves --json` lists, with the position checked at
every step, and targeted games for the rules the data forms carry (retreats, mud,
fortifications, replacements).

The targeted tests play a copy of the game with a set-up scenario of their own (and, where
a test needs one result, a combat results table that gives only that result).
"""

from __future__ import annotations

import json
import random
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from warpress.cli import main

GAME = Path(__file__).resolve().parents[2] / "fixtures" / "games" / "moscow"
MOSCOW = "1205"
PIECES = 39          # 22 German corps and 17 Soviet armies (rule 3.3)
MUD_TURNS = (3, 4)   # rule 8.1
MOVE_PHASES = ("panzer-movement", "german-movement", "soviet-movement")
ACTION_CAP = 4000    # a random game that has not ended after this many actions is stuck


class Session:
    """One `warpress play` session in a folder, driven through click's CliRunner."""

    def __init__(self, folder: Path):
        self.folder = str(folder)
        self.runner = CliRunner()

    def run(self, *args: str):
        return self.runner.invoke(main, ["play", *args, "--session", self.folder])

    def ok(self, *args: str) -> str:
        result = self.run(*args)
        assert result.exit_code == 0, (args, result.output)
        return result.output

    def json(self, *args: str) -> dict:
        return json.loads(self.ok(*args, "--json"))

    def status(self) -> dict:
        return self.json("status")

    def moves(self) -> dict:
        return self.json("moves")

    def actions(self) -> list[dict]:
        return [a for option in self.moves()["options"] for a in option["actions"]]


def new_session(tmp_path: Path, game: Path, seed: int, scenario: str | None = None) -> Session:
    session = Session(tmp_path / f"session-{seed}-{scenario or 'standard'}")
    args = ["new", str(game), "--seed", str(seed)]
    if scenario:
        args += ["--scenario", scenario]
    session.ok(*args)
    return session


# -- the map's geometry (map.yaml: flat hexes, `offset: even-q`; verify --data accepts
# 0104/0205 and refuses 0204/0105 as neighbours: the odd columns stand half a hex lower)

def neighbours(hex_id: str) -> set[str]:
    col, row = int(hex_id[:2]), int(hex_id[2:])
    rows = (row, row + 1) if col % 2 else (row - 1, row)
    near = {(col, row - 1), (col, row + 1)} | {(col + d, r) for d in (-1, 1) for r in rows}
    return {f"{c:02d}{r:02d}" for c, r in near if 1 <= c <= 14 and 1 <= r <= 10}


def cube(hex_id: str) -> tuple[int, int, int]:
    q, r = int(hex_id[:2]) - 1, int(hex_id[2:])
    z = r - (q + (q & 1)) // 2
    return q, -q - z, z


def hex_distance(a: str, b: str) -> int:
    return max(abs(i - j) for i, j in zip(cube(a), cube(b), strict=True))


def on_map(where: str) -> bool:
    return bool(re.fullmatch(r"\d{4}", where))


def steps(piece: dict) -> tuple[int, int]:
    have, of = piece["steps"].split("/")
    return int(have), int(of)


# -- what holds at every step of a game

def check_position(view: dict) -> Counter:
    """No piece in two places, steps within 0..2, no hex held by both sides; returns the
    number of units in each hex."""
    ids = [p["id"] for p in view["pieces"]]
    assert len(ids) == len(set(ids)) == PIECES, Counter(ids).most_common(3)
    per_hex: Counter = Counter()
    sides: dict[str, set] = {}
    for piece in view["pieces"]:
        have, of = steps(piece)
        assert of == 2 and 0 <= have <= 2, piece
        assert (have == 0) == (piece["where"] == "eliminated"), piece
        if on_map(piece["where"]):
            per_hex[piece["where"]] += 1
            sides.setdefault(piece["where"], set()).add(piece["side"])
    assert all(len(s) == 1 for s in sides.values()), sides
    return per_hex


def check_stacking(per_hex: Counter, view: dict) -> None:
    """One unit a hex at the end of every phase (rule 6.3)."""
    over = {h: n for h, n in per_hex.items() if n > 1}
    assert not over, (view["turn"], view["phase"], over)


def check_mud(view: dict, actions: list[dict]) -> None:
    """On a mud turn every move of a movement phase goes one hex (rule 8.2)."""
    if view["turn"] not in MUD_TURNS or view["phase"] not in MOVE_PHASES:
        return
    where = {p["id"]: p["where"] for p in view["pieces"]}
    for a in actions:
        if a["action"] == "move":
            assert a["args"]["hex"] in neighbours(where[a["args"]["unit"]]), a


# -- the random player

def choose(rng: random.Random, view: dict, actions: list[dict], lean: float) -> dict:
    """A random answer among those listed. The player ends a phase now and then; it never
    moves into a hex a unit holds (one unit a hex at the end of the phase, rule 6.3: a
    random player cannot plan to move the other unit out); in a share `lean` of its
    choices the German player takes the answers that bring it nearest Moscow, so that
    games are fought for it."""
    occupied = {p["where"] for p in view["pieces"]}
    ends = [a for a in actions if a["action"] == "end"]
    rest = [a for a in actions
            if a["action"] != "end"
            and not (a["action"] == "move" and a["args"]["hex"] in occupied)]
    if not rest or (ends and rng.random() < 0.15):
        return ends[0]
    if view["acting"] == "germany" and rng.random() < lean:
        rest = towards_moscow(rest)
    return rng.choice(rest)


def towards_moscow(answers: list[dict]) -> list[dict]:
    """The answers that take the Germans nearest Moscow: moves ending nearest it, attacks
    on the hex nearest it, every advance."""
    def distance(a: dict) -> int:
        where = a["args"].get("hex") or a["args"].get("path", "").split(",")[-1]
        return hex_distance(where, MOSCOW) if on_map(where or "") else 99
    aimed = [a for a in answers if a["action"] in ("move", "attack", "advance")]
    if not aimed:
        return answers
    if any(a["action"] == "advance" for a in aimed):
        return [a for a in aimed if a["action"] == "advance"]
    best = min(distance(a) for a in aimed)
    return [a for a in aimed if distance(a) == best]


def play_to_the_end(session: Session, seed: int, lean: float) -> tuple[dict, int]:
    """Play a whole game; check the position at every step. Returns the last view and the
    number of actions taken."""
    rng = random.Random(seed)
    view = session.status()
    check_stacking(check_position(view), view)
    phase = (view["turn"], view["phase"])
    taken = 0
    while not view["over"]:
        assert taken < ACTION_CAP, ("stuck", view["turn"], view["phase"], view["due"])
        actions = session.actions()
        check_mud(view, actions)
        answer = choose(rng, view, actions, lean)
        result = session.run(*answer["command"].split(), "--json")
        taken += 1
        assert result.exit_code == 0, (answer["command"], result.output)
        view = json.loads(result.output)["view"]
        per_hex = check_position(view)
        if (view["turn"], view["phase"]) != phase or view["over"]:
            check_stacking(per_hex, view)
            phase = (view["turn"], view["phase"])
    return view, taken


@pytest.mark.parametrize("seed", [1])
def test_random_games_reach_a_verdict(tmp_path, seed):
    session = new_session(tmp_path, GAME, seed)
    view, _ = play_to_the_end(session, seed, lean=0.4)
    # the game ends after the last phase of the last turn (rule 4.1), decided by Moscow
    assert view["turn"] == 7 and view["phase"] == "soviet-movement"
    summary = view["summary"]
    assert summary["result"] == "win"
    holder = view["control"][MOSCOW]
    assert summary["winner"] == holder
    assert [r["rules"] for r in summary["reasons"]] == [["12.1"]]
    assert f"{holder} holds {MOSCOW}" in summary["reasons"][0]["text"]
    # exactly once: the game is over and stays over, nothing more is accepted
    for command in (["end"], ["moves"], ["move", "g-v", "0101"]):
        refused = session.run(*command)
        assert refused.exit_code == 1, (command, refused.output)
        assert "game is over" in refused.output
    again = session.status()
    assert again["over"] and again["summary"] == summary
    assert session.ok("status").count("game over:") == 1
    assert "every state matches the log" in session.ok("replay")


# -- targeted games: a copy of the game with scenarios of its own

SCENARIOS = """
setup:
  - id: retreat-test
    scenario: retreat
    source: assumed
    note: "a German infantry corps against a Soviet army on the east edge"
    place:
      - {unit: g-v, hex: "1302"}
      - {unit: s-3, hex: "1403", steps: 1}
      - {unit: s-5, hex: "1405", steps: 1}
      - {unit: s-13, hex: "1304", steps: 1}
      - {unit: g-vi, hex: "1301"}
      - {unit: s-16, hex: "1401", steps: 1}
  - id: mud-test
    scenario: mud
    source: assumed
    note: "the two sides far apart: nothing but movement"
    place:
      - {unit: g-v, hex: "0101"}
      - {unit: g-xlvi, hex: "0108"}
      - {unit: s-3, hex: "0805"}
  - id: fort-test
    scenario: fort
    source: assumed
    note: "each side defends a fortification hex"
    place:
      - {unit: g-v, hex: "0904"}
      - {unit: g-xl, hex: "0903"}
      - {unit: s-3, hex: "1004"}
      - {unit: g-vii, hex: "1006"}
      - {unit: s-5, hex: "1106"}
      - {unit: s-13, hex: "1105"}
  - id: stacking-test
    scenario: stacking
    source: assumed
    note: "three German corps side by side, the Soviets far away"
    place:
      - {unit: g-xlvi, hex: "0108"}
      - {unit: g-v, hex: "0107"}
      - {unit: g-vi, hex: "0106"}
      - {unit: s-3, hex: "1205"}
  - id: cut-off-test
    scenario: cut-off
    source: assumed
    note: "German corps cut Moscow and Tula off from the east edge"
    place:
      - {unit: g-v, hex: "1105"}
      - {unit: g-vi, hex: "1304"}
      - {unit: g-vii, hex: "1010"}
      - {unit: g-viii, hex: "1209"}
      - {unit: s-3, hex: "1205", steps: 1}
      - {unit: s-5, hex: "1109", steps: 1}
      - {unit: s-13, hex: "0805", steps: 1}
      - {unit: s-43, where: reserve}
"""


def game_copy(tmp_path: Path, only: str | None = None) -> Path:
    """A copy of the game with the test scenarios; `only`: a CRT giving only that code."""
    copy = tmp_path / "moscow"
    shutil.copytree(GAME, copy)
    (copy / "test-scenarios.yaml").write_text(SCENARIOS, encoding="utf-8")
    if only:
        tables = copy / "tables.yaml"
        text = re.sub(r"(\n        [1-6]: )\[[^\]]*\]", rf"\1[{', '.join([only] * 6)}]",
                      tables.read_text(encoding="utf-8"))
        tables.write_text(text, encoding="utf-8")
    return copy


def end_until(session: Session, turn: int, phase: str) -> dict:
    """`end` phases until the given one is due."""
    for _ in range(80):
        view = session.status()
        if (view["turn"], view["phase"]) == (turn, phase):
            return view
        session.ok("end")
    raise AssertionError(f"never reached turn {turn} {phase}")


def piece(view: dict, pid: str) -> dict:
    return next(p for p in view["pieces"] if p["id"] == pid)


def test_dr_extends_past_occupied_hexes_to_an_empty_one(tmp_path):
    """Rule 7.7: the retreat ends two hexes away, in an empty hex, going further if it
    must. Both hexes two away from 1403 that the retreat may reach (1405, 1304) hold Soviet
    units, so every path the attacker may choose is three hexes long."""
    session = new_session(tmp_path, game_copy(tmp_path, only="DR"), 5, "retreat")
    end_until(session, 1, "german-combat")
    session.ok("attack", "1403", "g-v")
    session.ok("end")
    session.ok("resolve", "1403")
    due = session.moves()
    assert due["side"] == "germany"   # the attacker moves the defender (7.6)
    paths = [a["args"]["path"] for a in session.actions() if a["action"] == "retreat"]
    assert paths
    view = session.status()
    held = {p["where"] for p in view["pieces"]}
    for path in paths:
        hexes = path.split(",")
        assert len(hexes) == 3 and hexes[-1] not in held, path
        assert all(hex_distance("1403", h) == i + 1 for i, h in enumerate(hexes)), path
    session.ok("retreat", "s-3", paths[0])
    after = piece(session.status(), "s-3")
    assert after["where"] == paths[0].split(",")[-1]
    assert hex_distance("1403", after["where"]) == 3


def test_a_unit_that_cannot_retreat_is_eliminated(tmp_path):
    """Rule 7.7: 1401's only way out, 1402, is in the German zone of control."""
    session = new_session(tmp_path, game_copy(tmp_path, only="DR"), 5, "retreat")
    end_until(session, 1, "german-combat")
    session.ok("attack", "1401", "g-vi")
    session.ok("end")
    out = session.ok("resolve", "1401")
    assert "s-16 cannot retreat from 1401" in out
    gone = piece(session.status(), "s-16")
    assert gone["where"] == "eliminated" and steps(gone) == (0, 2)


def reach(session: Session, unit: str) -> set[str]:
    return {a["args"]["hex"] for a in session.actions()
            if a["action"] == "move" and a["args"]["unit"] == unit}


def test_mud_limits_a_move_to_one_hex_but_not_rail(tmp_path):
    """Rule 8.2: on turns 3 and 4 a unit moves one hex a phase, a forest hex too; Soviet
    rail movement is not slowed."""
    session = new_session(tmp_path, game_copy(tmp_path), 5, "mud")
    # turn 2, dry: the panzer corps goes 6 hexes, the army 4
    end_until(session, 2, "panzer-movement")
    assert any(hex_distance("0108", h) > 1 for h in reach(session, "g-xlvi"))
    end_until(session, 2, "soviet-movement")
    dry = reach(session, "s-3")
    assert any(hex_distance("0805", h) > 1 for h in dry)
    # turn 3, mud
    end_until(session, 3, "panzer-movement")
    assert reach(session, "g-xlvi") == neighbours("0108")
    end_until(session, 3, "german-movement")
    assert reach(session, "g-v") == neighbours("0101")
    end_until(session, 3, "soviet-rail")
    rail = reach(session, "s-3")
    assert "1205" in rail and hex_distance("0805", "1205") == 4
    end_until(session, 3, "soviet-movement")
    # every neighbour of 0805, the forests 0806 and 0904 too, and nothing farther
    assert reach(session, "s-3") == neighbours("0805")


def battle_text(session: Session, hexid: str, units: str) -> str:
    session.ok("attack", hexid, units)
    session.ok("end")
    return session.json("resolve", hexid)["announcements"][0]["text"]


def test_mud_halves_the_attack_not_the_defence(tmp_path):
    """Rule 8.3: the same German attack (7 + 9 against 8) on turn 1 and on turn 3."""
    session = new_session(tmp_path, game_copy(tmp_path, only="NE"), 5, "fort")
    end_until(session, 1, "german-combat")
    dry = battle_text(session, "1004", "g-v,g-xl")
    assert "attack 16:" in dry and "defence 8:" in dry and "odds 16:8 -> 2-1" in dry, dry
    end_until(session, 3, "german-combat")
    mud = battle_text(session, "1004", "g-v,g-xl")
    assert "attack 8:" in mud and "x0.5 (Mud" in mud and "defence 8:" in mud, mud


def test_fortification_helps_only_a_soviet_defender(tmp_path):
    """Rule 7.4: 16 against 8 is 2-1; in a fortification hex a Soviet defender shifts it
    to 1-1; 16 against 7 is 2-1, and a German defender in a fortification hex gains
    nothing."""
    session = new_session(tmp_path, game_copy(tmp_path, only="NE"), 5, "fort")
    end_until(session, 1, "german-combat")
    german = battle_text(session, "1004", "g-v,g-xl")
    assert "odds 16:8 -> 2-1" in german and "fortification -1" in german, german
    assert "-> 1-1" in german.split("fortification -1", 1)[1], german
    end_until(session, 1, "soviet-combat")
    soviet = battle_text(session, "1006", "s-5,s-13")
    assert "odds 16:7 -> 2-1" in soviet and "fortification" not in soviet, soviet


def test_replacements_in_moscow_need_no_communication(tmp_path):
    """Rules 10.4, 10.5, 10.7: Moscow (1205) and Tula (1109) are both cut off from the east
    edge by German zones of control; the army in Moscow may be restored, the one in Tula
    may not; one in open country with a way east may."""
    session = new_session(tmp_path, game_copy(tmp_path), 5, "cut-off")
    end_until(session, 1, "soviet-replacements")
    restore = {a["args"]["unit"] for a in session.actions()
               if a["action"] == "replace" and not a["args"].get("hex")}
    assert restore == {"s-3", "s-13"}
    session.ok("replace", "s-3")
    assert steps(piece(session.status(), "s-3")) == (2, 2)
    refused = session.run("replace", "s-5")
    assert refused.exit_code == 1 and "rule 10." in refused.output, refused.output


def test_a_new_unit_may_enter_moscow_cut_off_but_no_other_cut_off_city(tmp_path):
    """Rules 10.3, 10.5: with Moscow emptied, a rebuilt army may be placed in it though it
    is cut off; not in cut-off Tula; on any empty hex of the east edge."""
    session = new_session(tmp_path, game_copy(tmp_path), 5, "cut-off")
    end_until(session, 1, "soviet-rail")
    session.ok("move", "s-3", "1206")     # Moscow left empty (still Soviet: 10.8)
    session.ok("end")
    end_until(session, 2, "soviet-replacements")
    places = {a["args"]["hex"] for a in session.actions()
              if a["action"] == "replace" and a["args"].get("unit") == "s-43"}
    assert MOSCOW in places and "1109" not in places
    assert {f"14{r:02d}" for r in range(1, 11)} <= places
    session.ok("replace", "s-43", MOSCOW)
    rebuilt = piece(session.status(), "s-43")
    assert rebuilt["where"] == MOSCOW and steps(rebuilt) == (1, 2)


def test_a_phase_cannot_end_with_two_units_in_a_hex(tmp_path):
    """Rule 6.3: units may pass and stop on each other during the phase; `end` is refused
    while a hex holds two, and accepted once one has moved on."""
    session = new_session(tmp_path, game_copy(tmp_path), 5, "stacking")
    end_until(session, 1, "german-movement")
    session.ok("move", "g-vi", "0107")
    refused = session.run("end")
    assert refused.exit_code == 1 and "rule 6.3" in refused.output, refused.output
    assert session.status()["phase"] == "german-movement"
    session.ok("move", "g-v", "0207")
    session.ok("end")
    assert session.status()["phase"] != "german-movement"


def test_a_panzer_may_not_stop_on_a_unit_that_cannot_move_this_phase(tmp_path):
    """Rule 6.3: the only panzer corps may not stop on an infantry corps (which may not
    move in the panzer movement phase): the phase could not end with both in 0107."""
    session = new_session(tmp_path, game_copy(tmp_path), 5, "stacking")
    assert session.status()["phase"] == "panzer-movement"
    refused = session.run("move", "g-xlvi", "0107")
    assert refused.exit_code == 1, refused.output
    assert "0107 is full and no unit there can still move out this phase (rule 6.3)" in \
        " ".join(refused.output.split())
    assert all(a["args"].get("hex") != "0107" for a in session.actions()
               if a["args"].get("unit") == "g-xlvi")


def test_the_1st_shock_army_joins_the_reserve_on_turn_4(tmp_path):
    """Rules 9.1, 11.1: the 1st Shock Army is not on the map and cannot be rebuilt before
    turn 4; on turn 4 a replacement brings it in at half strength."""
    session = new_session(tmp_path, game_copy(tmp_path), 5, "cut-off")

    def rebuildable() -> set[str]:
        return {a["args"]["unit"] for a in session.actions()
                if a["action"] == "replace" and a["args"].get("hex")}

    for turn in (1, 2, 3):
        end_until(session, turn, "soviet-replacements")
        assert rebuildable() == {"s-43"}
        assert piece(session.status(), "s-1shock")["where"] == "pool reinforcements"
    end_until(session, 4, "soviet-replacements")
    assert rebuildable() == {"s-43", "s-1shock"}
    session.ok("replace", "s-1shock", "1410")
    shock = piece(session.status(), "s-1shock")
    assert shock["where"] == "1410" and steps(shock) == (1, 2)
    assert shock["stats"]["strength"] == 5

"""A tiny hidden-information game with a referee, for testing the session store and CLI.

*Hide and seek*: a token hides on a line of cells 00..09 (set-up rolls a d10). Each turn
the player may ``search COUNTER HEX`` once (counter ``eye``; finding the token ends the
game), then ``sight`` (is the token within one cell of the searched cell?), then
``end-turn``: the token moves one cell left (d6 1-3) or right (4-6). After the scenario's
turns, the token escapes. The token's codename (from the scenario) is a hidden fact the
player learns only by finding it: the tests look for it in files and views.

The referee works on a private :class:`HideState` and takes and returns the engine's
``Position``: the token is its one piece (in kind ``point``, its cell the place), the rest
is ``data``; the verdict is set when the game ends.

:func:`make_game` writes that game's folder (with two scenarios) where a test wants it,
with a ``rules/session.py`` registering :class:`HideSeekReferee` on the folder's ``CODE``
(the referee belongs to that folder alone, as a game's own Python does). The module also holds the
fake's own tests.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
import yaml
from warpress.engine.decisions import Action, ActionSpec, Arg, Decision, Option
from warpress.engine.errors import BadInput, RuleViolation
from warpress.engine.position import Piece, Position, Verdict, freeze
from warpress.engine.referee import Announcement, ScenarioInfo, Step
from warpress.engine.trust import trust_folder

GAME_YAML = """\
game:
  id: hideseek
  name: Hide and seek (session test game)
  kind: hex
  players: "1"
  dice: [d6, d10]
  sides:
    - {id: seeker, name: Seeker}
  rule: "1.0"
"""

SCENARIOS = {
    "dusk": "title: Dusk\nturns: 4\ncodename: NIGHTJAR\n",
    "midnight": "title: Midnight\nturns: 8\ncodename: TAWNYOWL\n",
}
CELLS = 10


def make_game(root: Path, trusted: bool = True) -> Path:
    """Write the hideseek game folder (game.yaml, scenarios/, and rules/session.py naming
    this module's HideSeekReferee) under ``root``; trusted (engine/trust.py) unless not
    ``trusted``."""
    folder = root / "hideseek"
    (folder / "scenarios").mkdir(parents=True, exist_ok=True)
    (folder / "rules").mkdir(exist_ok=True)
    (folder / "game.yaml").write_text(GAME_YAML, encoding="utf-8")
    (folder / "rules" / "__init__.py").write_text("", encoding="utf-8")
    (folder / "rules" / "session.py").write_text(
        f"import sys\n\nfrom .. import CODE\n\n"
        f"CODE.session(sys.modules[{__name__!r}].HideSeekReferee)\n", encoding="utf-8")
    (folder / "__init__.py").write_text(
        "from warpress.engine.registry import GameCode\n\nCODE = GameCode()\n", encoding="utf-8")
    for name, text in SCENARIOS.items():
        (folder / "scenarios" / f"{name}.yaml").write_text(text, encoding="utf-8")
    if trusted:
        trust_folder(folder)  # the user trusts the folder they wrote
    return folder


@dataclass(frozen=True)
class HideState:
    scenario: str
    title: str
    turns: int
    codename: str
    turn: int
    token: int
    searched: int | None = None  # this turn's searched cell
    sighted: bool = False
    found: bool = False
    escaped: bool = False
    misses: tuple[int, ...] = ()  # cells searched in vain, all turns
    said: tuple[tuple[int, str, str], ...] = ()  # (turn, phase, text)

    @property
    def over(self) -> bool:
        return self.found or self.escaped


#: the HideState fields kept in the position's data (the token's cell is its piece's place,
#: the turn the position's)
DATA = ("title", "turns", "codename", "searched", "sighted", "found", "escaped", "misses",
        "said")


def as_position(state: HideState) -> Position:
    token = Piece("token", "token", None, "point", f"{state.token:02d}")
    verdict = None
    if state.over:
        verdict = Verdict("seeker" if state.found else None,
                          "won" if state.found else "lost",
                          f"found {state.codename}" if state.found
                          else f"{state.codename} escaped", ("9.9",))
    return Position(game="hideseek", scenario=state.scenario, turn=state.turn,
                    phase="over" if state.over else "search",
                    side=None if state.over else "seeker", pieces=(token,),
                    data=freeze({name: getattr(state, name) for name in DATA}),
                    verdict=verdict)


def hide_state(position: Position) -> HideState:
    if not isinstance(position, Position) or not position.has("token"):
        raise BadInput(f"not a hideseek position: {type(position).__name__}")
    data = position.data
    try:
        return HideState(position.scenario, data["title"], data["turns"], data["codename"],
                         position.turn, int(position.piece("token").place), data["searched"],
                         data["sighted"], data["found"], data["escaped"],
                         tuple(data["misses"]), tuple(tuple(s) for s in data["said"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise BadInput(f"not a hideseek position: {exc}") from None


def _say(state: HideState, phase: str, text: str) -> tuple[HideState, Announcement]:
    note = Announcement(state.turn, phase, text, ("9.9",))
    return replace(state, said=state.said + ((state.turn, phase, text),)), note


class HideSeekReferee:
    game_id = "hideseek"
    actions = (ActionSpec("search", "Search HEX with COUNTER.", (Arg("counter"), Arg("hex"))),
               ActionSpec("sight", "Is the token within one cell of the searched one?"),
               ActionSpec("end-turn", "End the turn: the token drifts."))
    commands = tuple(a.name for a in actions)
    hidden = True

    def scenarios(self, game) -> tuple[ScenarioInfo, ...]:
        folder = Path(game.path) / "scenarios"
        return tuple(ScenarioInfo(name, name.title(), str(folder / f"{name}.yaml"))
                     for name in SCENARIOS)

    def scenario_file(self, game, name_or_path: str | None) -> Path:
        infos = {i.name: i.path for i in self.scenarios(game)}
        name = name_or_path or next(iter(infos))
        path = Path(infos.get(name, name))
        if not path.is_file():
            raise BadInput(f"unknown scenario {name!r} (shipped: {', '.join(infos)}; or a "
                           f"YAML file)")
        return path

    def load_scenario(self, game, name_or_path: str | None) -> dict[str, Any]:
        path = self.scenario_file(game, name_or_path)
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or not isinstance(data.get("turns"), int):
            raise BadInput(f"{path}: turns: expected an integer")
        return {"name": path.stem, **data}

    def new(self, game, scenario: Mapping[str, Any], dice) -> Step:
        state = HideState(scenario["name"], scenario.get("title", ""), scenario["turns"],
                          str(scenario.get("codename", "TOKEN")), 1,
                          dice.roll("d10", "hide") - 1)
        state, note = _say(state, "start", "Something hides on the line.")
        return Step(as_position(state), (note,))

    def apply(self, game, position: Position, command: str, args: Mapping[str, Any],
              dice) -> Step:
        state = hide_state(position)
        if state.over:
            raise RuleViolation("4.1", "the game is over")
        handler = {"search": self._search, "sight": self._sight, "end-turn": self._end}
        step = handler[command](state, args, dice)
        return Step(as_position(step.state), step.announcements)

    def decision(self, game, position: Position) -> Decision | None:
        state = hide_state(position)
        if state.over:
            return None
        options = [Option.single(Action.of(name)) for name in self._awaiting(state)
                   if name != "search"]
        if state.searched is None:
            options.insert(0, Option("search", lambda: tuple(
                Action.of("search", counter="eye", hex=f"{c:02d}") for c in range(CELLS))))
        return Decision("seeker", "search", "search, sight or end the turn", ("9.9",),
                        tuple(options))

    @staticmethod
    def _awaiting(state: HideState) -> list[str]:
        return [] if state.over else (
            ["search", "end-turn"] if state.searched is None
            else ["end-turn"] if state.sighted else ["sight", "end-turn"])

    def _search(self, state: HideState, args, dice) -> Step:
        if args.get("counter") != "eye":
            raise BadInput(f"unknown counter {args.get('counter')!r} (counters: eye)")
        cell = str(args.get("hex", ""))
        if not (cell.isdigit() and int(cell) < CELLS):
            raise BadInput(f"unknown hex {cell!r} (hexes: 00-{CELLS - 1:02d})")
        if state.searched is not None:
            raise RuleViolation("3.1", "one search per turn")
        where = int(cell)
        if where == state.token:
            state = replace(state, searched=where, found=True)
            state, note = _say(state, "search", f"Found {state.codename} at {where:02d}!")
        else:
            state = replace(state, searched=where, misses=state.misses + (where,))
            state, note = _say(state, "search", f"Nothing at {where:02d}.")
        return Step(state, (note,))

    def _sight(self, state: HideState, args, dice) -> Step:
        if state.searched is None:
            raise RuleViolation("3.2", "sight needs a search this turn")
        if state.sighted:
            raise RuleViolation("3.2", "one sighting per turn")
        near = abs(state.token - state.searched) <= 1
        state = replace(state, sighted=True)
        state, note = _say(state, "sight", "Warm." if near else "Cold.")
        return Step(state, (note,))

    def _end(self, state: HideState, args, dice) -> Step:
        step = -1 if dice.roll("d6", "drift") <= 3 else 1
        token = min(CELLS - 1, max(0, state.token + step))
        if state.turn >= state.turns:
            state = replace(state, token=token, escaped=True)
            state, note = _say(state, "end", "The night is over.")
            return Step(state, (note,))
        state = replace(state, token=token, turn=state.turn + 1, searched=None, sighted=False)
        state, note = _say(state, "start", f"Turn {state.turn} begins.")
        return Step(state, (note,))

    def player_view(self, game, position: Position, side: str | None = None) -> dict[str, Any]:
        state = hide_state(position)
        markers = [{"kind": "miss", "hex": f"{c:02d}"} for c in state.misses]
        if state.found:
            markers.append({"kind": "found", "hex": f"{state.token:02d}",
                            "name": state.codename})
        awaiting = self._awaiting(state)
        return {"game": "hideseek", "scenario": state.scenario, "title": state.title,
                "turn": state.turn, "turns": state.turns,
                "phase": "over" if state.over else "search",
                "awaiting": awaiting, "fighters": [],
                "counters": [{"radar": "eye", "hex": (None if state.searched is None
                                                      else f"{state.searched:02d}")}],
                "markers": markers,
                "announcements": [Announcement(t, p, x, ("9.9",)).as_json()
                                  for t, p, x in state.said if t == state.turn],
                "over": state.over, "summary": self.summary(game, position)}

    def referee_view(self, game, position: Position) -> dict[str, Any]:
        state = hide_state(position)
        view = self.player_view(game, position)
        view["bombers"] = [{"id": state.codename, "hex": f"{state.token:02d}"}]
        return view

    def summary(self, game, position: Position) -> dict[str, Any] | None:
        state = hide_state(position)
        if not state.over:
            return None
        if state.found:
            return {"result": "won", "reasons": [f"found {state.codename} on turn {state.turn}"]}
        return {"result": "lost", "reasons": [f"{state.codename} escaped"]}

    def dump(self, position: Position) -> dict[str, Any]:
        return position.to_json()

    def load(self, game, data: Mapping[str, Any]) -> Position:
        position = Position.from_json(data)
        hide_state(position)
        return position

    def render_player_map(self, game, position: Position, fmt: str = "svg") -> bytes:
        self._check_format(fmt)
        return self._svg(self.player_view(game, position)["markers"], None)

    def render_referee_map(self, game, position: Position, fmt: str = "svg") -> bytes:
        self._check_format(fmt)
        return self._svg(self.player_view(game, position)["markers"],
                         hide_state(position).token)

    @staticmethod
    def _check_format(fmt: str) -> None:
        if fmt != "svg":
            raise BadInput(f"map format {fmt!r}: hideseek draws svg only")

    @staticmethod
    def _svg(markers, token: int | None) -> bytes:
        shapes = [f'<rect x="{int(m["hex"]) * 10}" y="0" width="10" height="10" '
                  f'class="{m["kind"]}"/>' for m in markers]
        if token is not None:
            shapes.append(f'<circle cx="{token * 10 + 5}" cy="5" r="4" class="token"/>')
        return ('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="10">'
                + "".join(shapes) + "</svg>").encode()


def rechain(directory: Path, lines: list[str]) -> None:
    """Write ``lines`` as DIR/log.jsonl with the hash chain recomputed (each line's ``prev``)
    and state.json re-anchored to the last line: the edit of a forger who knows the format."""
    from warpress.engine import session

    out: list[bytes] = []
    for text in lines:
        record = json.loads(text)
        if out:
            record["prev"] = session.sha256(out[-1])
        out.append(json.dumps(record, ensure_ascii=False, sort_keys=True).encode())
    (directory / "log.jsonl").write_bytes(b"\n".join(out) + b"\n")
    state = json.loads((directory / "state.json").read_text())
    body = {k: v for k, v in state.items() if k != "checksum"}
    body.update(log_lines=len(out), log_sha256=session.sha256(out[-1]))
    state = {**body, "checksum": session.sha256(session.canonical(body))}
    (directory / "state.json").write_text(json.dumps(state, indent=1) + "\n")


# --------------------------------------------------------------------------- the fake's tests


class _Fixed:
    def __init__(self, *values: int):
        self.values = list(values)

    def roll(self, die: str, name: str = "roll") -> int:
        return self.values.pop(0)


@pytest.fixture
def hide_game(tmp_path):
    from warpress.engine.loader import load_game

    return load_game(make_game(tmp_path))


def test_fake_player_view_hides_the_token_until_found(hide_game):
    ref = HideSeekReferee()
    state = ref.new(hide_game, ref.load_scenario(hide_game, None), _Fixed(4)).state
    assert state.piece("token").place == "03" and hide_state(state).token == 3
    missed = ref.apply(hide_game, state, "search", {"counter": "eye", "hex": "07"},
                       _Fixed()).state
    assert "NIGHTJAR" not in repr(ref.player_view(hide_game, missed))
    found = ref.apply(hide_game, state, "search", {"counter": "eye", "hex": "03"},
                      _Fixed()).state
    assert "NIGHTJAR" in repr(ref.player_view(hide_game, found))
    assert ref.summary(hide_game, found)["result"] == "won"


def test_fake_dump_load_round_trip_and_refusals(hide_game):
    ref = HideSeekReferee()
    state = ref.new(hide_game, ref.load_scenario(hide_game, "midnight"), _Fixed(1)).state
    state = ref.apply(hide_game, state, "search", {"counter": "eye", "hex": "05"}, _Fixed()).state
    assert ref.load(hide_game, ref.dump(state)) == state
    assert as_position(hide_state(state)) == state
    with pytest.raises(RuleViolation, match="3.1"):
        ref.apply(hide_game, state, "search", {"counter": "eye", "hex": "04"}, _Fixed())
    with pytest.raises(BadInput, match="unknown hex"):
        ref.apply(hide_game, state, "search", {"counter": "eye", "hex": "12"}, _Fixed())


def test_fake_a_random_seeker_plays_to_the_end_by_the_decisions_answers(hide_game):
    ref = HideSeekReferee()
    rng = random.Random(7)
    state = ref.new(hide_game, ref.load_scenario(hide_game, "midnight"), _Fixed(6)).state
    rolls = 0
    while (due := ref.decision(hide_game, state)) is not None:
        answer = rng.choice(list(due.actions()))
        rolls += 1
        state = ref.apply(hide_game, state, answer.name, dict(answer.args),
                          _Fixed(rng.randint(1, 6))).state
    assert state.over and state.verdict.result in ("won", "lost") and rolls <= 3 * 8

"""A hex-and-counter game played from its data alone: the session rules every game with a
``play`` mapping gets (docs/playing.md).

:class:`HexRules` is what a session calls: ``new`` sets the scenario up and runs to the
first decision, ``apply`` checks one action against the play forms and applies it,
``decision`` lists the legal answers of the side whose decision is due, ``view`` shows a
side what it may see (everything: a hex-and-counter game hides nothing).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from ..decisions import Action, ActionSpec, Arg, Decision, Option
from ..dice import Dice
from ..errors import BadInput, RuleViolation
from ..model import FrozenDict, Game, Phase, Selector
from ..position import Pending, Piece, Position, thaw
from ..records import evolve
from ..referee import ScenarioInfo, Step
from . import arrivals, combat, flow, movement
from .context import Context
from .control import initial_control, take_control
from .pieces import full_steps, overstacked, stats, unit_of
from .sequence import phase, turns
from .setup import initial_position, scenario_names
from .zoc import enemy_hexes

#: the actions of a hex-and-counter session, as the command line offers them
ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec("move", "Move UNIT to HEX (the cheapest legal path, or --path).",
               (Arg("unit", "the piece id"), Arg("hex", "the hex it ends in"),
                Arg("path", "the hexes it passes, comma-separated (default: the cheapest)",
                    required=False))),
    ActionSpec("attack", "Attack the enemy in HEX with UNITS (comma-separated).",
               (Arg("hex", "the defenders' hex"), Arg("units", "attacking piece ids, "
                                                               "comma-separated"))),
    ActionSpec("resolve", "Resolve a declared battle (default: the next one declared).",
               (Arg("hex", "the battle's hex", required=False),)),
    ActionSpec("lose", "Take a step loss from UNIT (a loss you must choose).",
               (Arg("unit", "the piece id"),)),
    ActionSpec("retreat", "Retreat UNIT along PATH (hexes, comma-separated, or the last).",
               (Arg("unit", "the piece id"), Arg("path", "the hexes of the retreat"))),
    ActionSpec("advance", "Advance UNIT into the emptied hex after combat.",
               (Arg("unit", "the piece id"), Arg("path", "hexes, when it may go farther",
                                                 required=False))),
    ActionSpec("remove", "Eliminate UNIT from an overstacked hex.", (Arg("unit", "the piece id"),)),
    ActionSpec("replace", "Spend a replacement point on UNIT (HEX: where it is rebuilt).",
               (Arg("unit", "the piece id"), Arg("hex", "where an eliminated unit comes back",
                                                 required=False))),
    ActionSpec("place", "Place the reinforcement UNIT in HEX.",
               (Arg("unit", "the piece id"), Arg("hex", "the hex it enters"))),
    ActionSpec("pass", "Decline an optional decision (an advance after combat)."),
    ActionSpec("end", "End the phase (or the declaration of battles)."),
)

#: the actions each kind of phase allows besides ``end``
PHASE_ACTIONS = {"move": ("move",), "rail": ("move",), "combat": ("attack", "resolve"),
                 "replacements": ("replace",), "reinforcements": ("place",)}
#: the actions that answer each kind of pending decision
ANSWERS = {"loss": ("lose",), "retreat": ("retreat",), "advance": ("advance", "pass"),
           "overstack": ("remove",)}


class HexRules:
    """The session rules of a game with a ``play`` mapping (see the module docstring)."""

    commands = tuple(a.name for a in ACTIONS)
    actions = ACTIONS
    hidden = False
    field_text: Mapping[str, Callable[[Any], str]] = {}
    arg_text: Mapping[str, Callable[[Any], str]] = {}
    sealed_args: Mapping[str, tuple[str, ...]] = {}  # nothing a side writes is secret

    # -- scenarios

    def scenarios(self, game: Game) -> tuple[ScenarioInfo, ...]:
        return tuple(ScenarioInfo(name, name.replace("-", " ").capitalize(), "", "")
                     for name in scenario_names(game))

    def scenario_file(self, game: Game, name_or_path: str | None) -> Path | None:
        return None

    def load_scenario(self, game: Game, name_or_path: str | None) -> str:
        names = scenario_names(game)
        if name_or_path is None:
            return names[0]
        if name_or_path not in names:
            raise BadInput(f"scenario {name_or_path!r} is not one of {game.id}'s "
                           f"({', '.join(names)})")
        return name_or_path

    # -- play

    def new(self, game: Game, scenario: str, dice: Dice) -> Step:
        _need_play(game)
        ctx = Context(game, dice)
        position = initial_control(game, initial_position(game, scenario))
        position = flow.start(ctx, position)
        return Step(position, tuple(ctx.events))

    def apply(self, game: Game, position: Position, command: str, args: Mapping[str, Any],
              dice: Dice) -> Step:
        _need_play(game)
        ctx = Context(game, dice)
        verdict = position.verdict
        if position.over and verdict is not None:
            raise RuleViolation(verdict.rule[0] if verdict.rule else "victory",
                                f"the game is over ({verdict.result}"
                                f"{' for ' + verdict.winner if verdict.winner else ''})")
        _allowed(ctx, position, command)
        position = HANDLERS[command](ctx, position, dict(args))
        if not position.pending:
            position = combat.carry_on(ctx, position)
        if not position.pending and not position.data.get("battle"):
            position = _restore_side(ctx, position)
        position = flow.settle(ctx, position)
        return Step(position, tuple(ctx.events))

    def decision(self, game: Game, position: Position) -> Decision | None:
        """The decision due now and its legal answers (None once the game is over)."""
        if position.over:
            return None
        return decision_of(Context(game, _NO_DICE), position)

    # -- views

    def player_view(self, game: Game, position: Position, side: str | None = None
                    ) -> dict[str, Any]:
        return view(game, position)

    def referee_view(self, game: Game, position: Position) -> dict[str, Any]:
        return view(game, position)

    def summary(self, game: Game, position: Position) -> dict[str, Any] | None:
        verdict = position.verdict
        if verdict is None:
            return None
        return {"result": verdict.result, "winner": verdict.winner,
                "reasons": [{"text": verdict.reason, "rules": list(verdict.rule)}]}

    def dump(self, position: Position) -> dict[str, Any]:
        return position.to_json()

    def load(self, game: Game, data: Mapping[str, Any]) -> Position:
        return Position.from_json(data)


class _NoDice:
    """Listing decisions rolls nothing."""

    def roll(self, die: str, name: str = "roll") -> int:
        raise RuntimeError("listing the legal answers rolls no die")


_NO_DICE = _NoDice()


def _need_play(game: Game) -> None:
    if game.play is None:
        raise BadInput(f"game {game.id!r} has no play rules (a `play:` mapping): it cannot be "
                       f"played in a session")


def _allowed(ctx: Context, position: Position, command: str) -> None:
    """RuleViolation unless ``command`` answers the decision due, or the phase allows it."""
    due = position.due
    if due is not None:
        if command not in ANSWERS.get(due.kind, ()):
            what = _due_text(due)
            raise RuleViolation(due.rule[0] if due.rule else "combat",
                                f"{what} is due first ({' or '.join(ANSWERS[due.kind])})")
        return
    p = flow.current(ctx, position)
    allowed = phase_actions(ctx.game, position, p)
    if command not in allowed:
        raise RuleViolation(p.rule[0] if p.rule else "sequence",
                            f"{command} is not allowed in phase {p.name or p.id} (it allows: "
                            f"{', '.join(allowed)})")


def phase_actions(game: Game, position: Position, p: Phase) -> tuple[str, ...]:
    """The actions the phase allows now: its kind's, ``end``; in a combat phase whose
    battles are declared first, ``attack`` while declaring and ``resolve`` after."""
    actions = PHASE_ACTIONS.get(p.do or "", ())
    if p.do == "combat":
        rules = game.play.combat if game.play is not None else None
        declare_all = rules is not None and rules.declare == "all"
        step = position.data.get("step")
        actions = ("resolve",) if step == "resolve" else ("attack",)
        if step == "resolve" or not declare_all:
            return actions if step == "resolve" else ("attack", "end")
    return (*actions, "end")


def _due_text(due: Pending) -> str:
    data = due.data
    if due.kind == "loss":
        return f"{due.side}'s choice of a step loss among {', '.join(data['units'])}"
    if due.kind == "retreat":
        return f"{due.side}'s choice of {data['unit']}'s retreat"
    if due.kind == "advance":
        return f"{due.side}'s advance into {data['hex']}"
    if due.kind == "overstack":
        return f"{due.side}'s choice of a unit to remove from {data['hex']}"
    return str(due.kind)


def _restore_side(ctx: Context, position: Position) -> Position:
    """After the decisions of a battle, the phase's side acts again."""
    if position.phase is None:
        return position
    return evolve(position, side=flow.acting(ctx, phase(ctx.game, position.phase)))


# --- handlers --------------------------------------------------------------------------------


def _text(args: Mapping[str, Any], key: str, what: str) -> str:
    value = args.get(key)
    if value is None or str(value).strip() == "":
        raise BadInput(f"{what} is missing ({key})")
    return str(value).strip()


def _own(ctx: Context, position: Position, unit_id: str) -> Any:
    piece = position.piece(unit_id)
    if piece.side != position.side:
        p = flow.current(ctx, position)
        raise RuleViolation(p.rule[0] if p.rule else "sequence",
                            f"{unit_id} is a unit of {piece.side}; {position.side} acts now")
    return piece


def _move(ctx: Context, position: Position, args: dict[str, Any]) -> Position:
    p = flow.current(ctx, position)
    unit_id = _text(args, "unit", "the unit to move")
    target = ctx.board.hex(_text(args, "hex", "the hex to move to"), "move to hex")
    piece = _own(ctx, position, unit_id)
    rule = p.rule[0] if p.rule else movement.movement_rule(ctx.game)
    if piece.kind != "hex":
        raise RuleViolation(rule, f"{unit_id} is not on the map")
    if "moved" in piece.flags:
        raise RuleViolation(movement.movement_rule(ctx.game), f"{unit_id} has moved this "
                                                              f"phase")
    if piece not in list(flow.movers(ctx, position, p)):
        why = ("it does not start on the railway" if p.do == "rail" else
               f"only {_selector_text(p.units)} move in this phase")
        raise RuleViolation(rule, f"{unit_id} may not move in {p.name or p.id}: {why}")
    rail = p.do == "rail"
    if args.get("path"):
        path = tuple(ctx.board.hex(h.strip(), "path hex") for h in str(args["path"]).split(",")
                     if h.strip())
        if not path or path[-1] != target:
            raise BadInput(f"path {args['path']!r} must end in {args['hex']!r}")
        cost = movement.check_path(ctx.game, position, piece, p, path, rail)
    else:
        found = movement.reach(ctx.game, position, piece, p, rail)
        if target not in found.costs:
            _refuse_move(ctx, position, piece, p, target, rail)
        cost, path = found.costs[target], found.path(target)
    names = [ctx.board.names[h] for h in path]
    ctx.say(position, f"{unit_id} moves {piece.place} -> {' -> '.join(names)} ({cost} MP)",
            (rule,))
    position = position.with_piece(piece.at("hex", names[-1]).flagged("moved"))
    return take_control(ctx, position, piece.side, names)


def _selector_text(selector: Selector | None) -> str:
    if selector is None:
        return "every unit"
    bits = [*selector.types, *selector.tags, *selector.units]
    return ", ".join(bits) or "some units"


def _refuse_move(ctx: Context, position: Position, piece: Piece, p: Phase, target: int,
                 rail: bool) -> None:
    """Why ``piece`` cannot reach ``target``: the first rule its cheapest path breaks."""
    game, board = ctx.game, ctx.board
    rule = movement.movement_rule(game)
    name = board.names[target]
    for zoc, stacking in ((False, False), (True, False), (False, True)):
        loose = movement.reach(game, position, piece, p, rail, zoc=zoc, stacking=stacking)
        if target in loose.ends:
            movement.check_path(game, position, piece, p, loose.ends[target][1], rail)
    free = movement.reach(game, position, piece, p, rail, zoc=False, stacking=False,
                          unlimited=True).ends.get(target)
    if free is not None:
        allow = movement.allowance(game, position, piece, p, rail)
        notes = f" ({'; '.join(allow.notes)})" if allow.notes else ""
        if allow.hexes is not None and len(free[1]) > allow.hexes:
            raise RuleViolation(rule, f"{piece.id} may enter at most {allow.hexes} "
                                      f"hex{'es' if allow.hexes > 1 else ''} now{notes}: "
                                      f"{name} is {len(free[1])} away")
        raise RuleViolation(rule, f"{piece.id} needs {free[0]} MP to reach {name} (via "
                                  f"{','.join(board.names[h] for h in free[1])}) and has "
                                  f"{allow.mp}{notes}")
    if target in enemy_hexes(game, position, piece.side):
        raise RuleViolation(rule, f"{name} holds an enemy unit: a unit never enters it")
    raise RuleViolation(rule, f"no path leads {piece.id} from {piece.place} to {name} "
                              f"(prohibited terrain or enemy units in the way)")


def _attack(ctx: Context, position: Position, args: dict[str, Any]) -> Position:
    hex_id = _text(args, "hex", "the hex attacked")
    units = [u.strip() for u in _text(args, "units", "the attacking units").split(",")
             if u.strip()]
    if position.data.get("step") == "resolve":
        raise RuleViolation(combat.combat_rule(ctx.game), "battles are declared: resolve them "
                                                          "(resolve HEX)")
    battle = combat.declare(ctx, position, hex_id, units)
    position = combat.mark_declared(position, battle)
    if combat.rules_of(ctx.game).declare == "all":
        ctx.say(position, f"{', '.join(battle['attackers'])} will attack {hex_id}",
                (combat.combat_rule(ctx.game),))
        battles = [*(position.data.get("battles") or ()), battle]
        return position.with_data(battles=battles)
    return combat.resolve(ctx, position, battle)


def _resolve(ctx: Context, position: Position, args: dict[str, Any]) -> Position:
    rule = combat.combat_rule(ctx.game)
    battles = [dict(b) for b in thaw(position.data.get("battles") or [])]
    if position.data.get("step") != "resolve" or not battles:
        raise RuleViolation(rule, "no declared battle to resolve (declare with attack, then "
                                  "end the declarations)")
    wanted = args.get("hex")
    chosen = next((b for b in battles if wanted in (None, "", b["hex"])), None)
    if chosen is None:
        listed = ", ".join(b["hex"] for b in battles)
        raise RuleViolation(rule, f"no battle declared against {wanted} (declared: {listed})")
    battles.remove(chosen)
    position = position.with_data(battles=battles)
    return combat.resolve(ctx, position, chosen)


def _lose(ctx: Context, position: Position, args: dict[str, Any]) -> Position:
    return combat.answer_loss(ctx, position, _text(args, "unit", "the unit that loses a step"))


def _retreat(ctx: Context, position: Position, args: dict[str, Any]) -> Position:
    return combat.answer_retreat(ctx, position, _text(args, "unit", "the retreating unit"),
                                 _text(args, "path", "the retreat path"))


def _advance(ctx: Context, position: Position, args: dict[str, Any]) -> Position:
    return combat.answer_advance(ctx, position, _text(args, "unit", "the advancing unit"),
                                 args.get("path"))


def _pass(ctx: Context, position: Position, args: dict[str, Any]) -> Position:
    return combat.decline(position)


def _remove(ctx: Context, position: Position, args: dict[str, Any]) -> Position:
    due = position.pending[0]
    unit_id = _text(args, "unit", "the unit to remove")
    piece = position.piece(unit_id)
    if piece.place != due.data["hex"] or piece.side != due.side:
        raise RuleViolation(due.rule[0], f"{unit_id} is not a unit of {due.side} in "
                                         f"{due.data['hex']}")
    position = combat.eliminate(ctx, evolve(position, pending=position.pending[1:]), piece,
                                due.rule[0])
    still = [h for h, _ in overstacked(ctx.board, position, due.side) if h == due.data["hex"]]
    if still:
        return evolve(position, pending=(due, *position.pending))
    if not position.pending:
        return flow.end_phase(ctx, position, forced=True)
    return position


def _replace(ctx: Context, position: Position, args: dict[str, Any]) -> Position:
    hex_id = args.get("hex")
    return arrivals.replace_unit(ctx, position, _text(args, "unit", "the unit replaced"),
                                 str(hex_id).strip() if hex_id else None)


def _place(ctx: Context, position: Position, args: dict[str, Any]) -> Position:
    return arrivals.place(ctx, position, _text(args, "unit", "the reinforcement"),
                          _text(args, "hex", "the hex it enters"))


def _end(ctx: Context, position: Position, args: dict[str, Any]) -> Position:
    p = flow.current(ctx, position)
    declaring = p.do == "combat" and position.data.get("step") == "declare" and \
        position.data.get("battles")
    ctx.say(position, f"{p.name or p.id}: {'battles declared' if declaring else 'ends'}",
            p.rule)
    return flow.end_phase(ctx, position)


HANDLERS: dict[str, Callable[[Context, Position, dict[str, Any]], Position]] = {
    "move": _move, "attack": _attack, "resolve": _resolve, "lose": _lose, "retreat": _retreat,
    "advance": _advance, "pass": _pass, "remove": _remove, "replace": _replace,
    "place": _place, "end": _end,
}


# --- decisions -------------------------------------------------------------------------------


def decision_of(ctx: Context, position: Position) -> Decision:
    """The decision due and its legal answers, grouped (see engine/decisions.py)."""
    due = position.due
    if due is not None:
        return _pending_decision(ctx, position, due)
    p = flow.current(ctx, position)
    side = position.side
    end: tuple[Option, ...] = (Option.single(Action.of("end", label="end the phase")),)
    if flow.end_refusal(ctx, position) is not None:
        end = ()
    rules = tuple(p.rule)
    if p.do in ("move", "rail"):
        options = [Option(f"move {piece.id}", _moves_of(ctx, position, piece, p))
                   for piece in flow.movers(ctx, position, p)]
        return Decision(side, "move", f"{side}: move units or end {p.name or p.id}", rules,
                        (*options, *end))
    if p.do == "combat":
        if position.data.get("step") == "resolve":
            battles = thaw(position.data.get("battles") or [])
            return Decision(side, "resolve", f"{side}: resolve a declared battle", rules,
                            tuple(Option.single(Action.of("resolve", hex=b["hex"]))
                                  for b in battles))
        targets = combat.attackable(ctx, position, side)
        options = [Option(f"attack {h}", _attacks_of(h, pieces)) for h, pieces in
                   targets.items()]
        return Decision(side, "combat", f"{side}: attack or end {p.name or p.id}", rules,
                        (*options, *end))
    if p.do == "replacements":
        options = [Option.single(Action.of("replace", unit=piece.id, note="restore a step"))
                   for piece in arrivals.restorable(ctx, position, side)]
        options += [Option(f"rebuild {piece.id}", _rebuilds_of(ctx, position, piece))
                    for piece in arrivals.rebuildable(ctx, position, side)]
        left = arrivals.points_left(position)
        return Decision(side, "replacements", f"{side}: {left} replacement point"
                                              f"{'s' if left != 1 else ''} to spend", rules,
                        (*options, *end))
    if p.do == "reinforcements":
        options = [Option(f"place {piece.id}", _entries_of(ctx, position, piece))
                   for piece in arrivals.arriving(ctx, position, side)]
        return Decision(side, "reinforcements", f"{side}: place the reinforcements", rules,
                        (*options, *end))
    return Decision(side, p.do or "none", f"{p.name or p.id}", rules, end)


def _moves_of(ctx: Context, position: Position, piece: Piece, p: Phase
              ) -> Callable[[], tuple[Action, ...]]:
    def make() -> tuple[Action, ...]:
        found = movement.reach(ctx.game, position, piece, p, p.do == "rail").costs
        names = ctx.board.names
        unit = piece.id
        return tuple(Action("move", FrozenDict(unit=unit, hex=names[h]),
                            f"move {unit} {names[h]}", f"{found[h]} MP")
                     for h in sorted(found, key=names.__getitem__))
    return make


def _attacks_of(hex_id: str, pieces: list[Piece]) -> Callable[[], tuple[Action, ...]]:
    def make() -> tuple[Action, ...]:
        return tuple(Action.of("attack", hex=hex_id, units=",".join(p.id for p in group))
                     for group in combat.groups(list(pieces)))
    return make


def _rebuilds_of(ctx: Context, position: Position, piece: Piece
                 ) -> Callable[[], tuple[Action, ...]]:
    def make() -> tuple[Action, ...]:
        return tuple(Action.of("replace", unit=piece.id, hex=ctx.board.names[h])
                     for h in arrivals.rebuild_hexes(ctx, position, piece))
    return make


def _entries_of(ctx: Context, position: Position, piece: Piece
                ) -> Callable[[], tuple[Action, ...]]:
    def make() -> tuple[Action, ...]:
        return tuple(Action.of("place", unit=piece.id, hex=ctx.board.names[h])
                     for h in arrivals.entry_hexes(ctx, position, piece))
    return make


def _pending_decision(ctx: Context, position: Position, due: Pending) -> Decision:
    data = due.data
    rules = tuple(due.rule)
    if due.kind == "loss":
        options = tuple(Option.single(Action.of("lose", unit=u)) for u in data["units"]
                        if position.piece(u).kind == "hex")
        return Decision(due.side, "loss", _due_text(due), rules, options)
    if due.kind == "retreat":
        piece = position.piece(data["unit"])
        names = ctx.board.names
        paths = combat.retreat_paths(ctx, position, piece, data["hexes"])
        return Decision(due.side, "retreat", _due_text(due), rules, tuple(
            Option.single(Action.of("retreat", unit=piece.id,
                                    path=",".join(names[h] for h in path)))
            for path in paths))
    if due.kind == "advance":
        advances = [Option.single(Action.of("advance", unit=p.id))
                    for p in combat.advance_options(ctx, position)]
        return Decision(due.side, "advance", _due_text(due), rules,
                        (*advances, Option.single(Action.of("pass", label="advance no more"))))
    if due.kind == "overstack":
        return Decision(due.side, "overstack", _due_text(due), rules, tuple(
            Option.single(Action.of("remove", unit=p.id))
            for p in position.in_hex(data["hex"]) if p.side == due.side))
    return Decision(due.side, due.kind, due.kind, rules, ())


# --- views -----------------------------------------------------------------------------------


def view(game: Game, position: Position) -> dict[str, Any]:
    """The position as a person reads it (JSON values): turn, phase, who acts, the decision
    due, every piece with its place and face, hexes held, the verdict."""
    p = phase(game, position.phase) if position.phase else None
    turns_text = _turns(game)
    pieces = []
    for piece in position.pieces:
        unit = unit_of(game, piece)
        record: dict[str, Any] = {"id": piece.id, "side": piece.side,
                                  "where": piece.place if piece.kind == "hex" else piece.kind
                                  if piece.kind != "pool" else f"pool {piece.place}"}
        if full_steps(unit) > 1:
            record["steps"] = f"{piece.step}/{full_steps(unit)}"
        shown = {k: v for k, v in stats(game, piece).items() if isinstance(v, int | float)}
        if shown and piece.kind == "hex":
            record["stats"] = shown
        if piece.flags:
            record["flags"] = sorted(piece.flags)
        pieces.append(record)
    due = position.due
    out: dict[str, Any] = {
        "game": game.id, "scenario": position.scenario, "turn": position.turn,
        "turns": turns_text, "phase": position.phase, "phase_name": p.name if p else None,
        "acting": position.side, "over": position.over,
        "awaiting": _awaiting(game, position, p),
        "due": {"kind": due.kind, "side": due.side, "rules": list(due.rule),
                "data": dict(due.data)} if due else None,
        "pieces": pieces, "control": dict(sorted(position.control.items())),
        "tracks": dict(position.tracks),
    }
    rolled = position.data.get("rolled")
    if rolled:
        out["rolled"] = dict(rolled)
    if position.data.get("points"):
        out["points"] = position.data.get("points")
    if position.verdict:
        out["summary"] = {"result": position.verdict.result, "winner": position.verdict.winner,
                          "reasons": [{"text": position.verdict.reason,
                                       "rules": list(position.verdict.rule)}]}
    return out


def _turns(game: Game) -> int:
    return len(turns(game))


def _awaiting(game: Game, position: Position, p: Phase | None) -> list[str]:
    if position.over:
        return []
    due = position.due
    if due is not None:
        return list(ANSWERS.get(due.kind, ()))
    if p is None:
        return []
    return list(phase_actions(game, position, p))

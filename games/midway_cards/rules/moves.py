"""What a player of the Fateful Midway Card Game may do now: the decisions a session asks,
a command's working set (:class:`Run`), the arguments it reads and the checks that refuse
what the rules forbid, each naming its rule. The session (``session.py``) applies the
commands; the listings of legal answers (``choices.py``) are made of the same checks, so
that every answer listed is accepted.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from warpress.engine.errors import BadInput, RuleViolation
from warpress.engine.inputs import quote
from warpress.engine.model import Game
from warpress.engine.position import Pending, Position, freeze, thaw
from warpress.engine.referee import Announcement

from . import attack as atk
from . import combat
from . import state as st
from .common import (
    BASE_ID,
    JAPAN,
    SIDES,
    US,
    card,
    card_type,
    const,
    flown_type,
    is_card,
    kind,
    missions,
    opponent,
    owner,
    ships,
    stat,
)
from .positions import cards, pile, to_state, with_state

TACTICS = ("repair-aircraft", "emergency-repair")
#: each decision: the actions that answer it and the rules behind it
KINDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "opening": (("keep", "redraw"), ("6",)),
    "attack": (("extra-draw", "rearm", "fly", "raid", "pass", *TACTICS),
               ("5-1", "7", "12-1", "12-2", "10")),
    "pairs": (("fly", "launch"), ("7-1-1",)),
    "cap": (("cap", "pass"), ("7-1-1", "4")),
    "raid": (("raid", "launch"), ("12-1",)),
    "recover": (("recover",), ("7-1-2", "7-5")),
    "target": (("target",), ("7-2", "12-3")),
    "defense": (("defend", "pass"), ("7-3", "12-4")),
    "rearm-discard": (("discard",), ("12-2",)),
    "exchange": (("exchange", *TACTICS), ("8", "10")),
    "adjust": (("discard",), ("9",)),
}
#: actions of one side only
ONLY = {"rearm": JAPAN, "raid": JAPAN, "emergency-repair": US}




def awaiting(kind_of: str, side: str | None) -> list[str]:
    """The actions a decision accepts, by its kind and side only (never by a hand)."""
    return [a for a in KINDS[kind_of][0] if ONLY.get(a, side) == side]




# --- one command's working set ---------------------------------------------------------


@dataclass
class Run:
    """A command's position as it changes, and what the players are told."""

    game: Game
    pos: Position
    said: list[Announcement] = field(default_factory=list)

    _cache: tuple[Position, st.State] | None = field(default=None, repr=False)
    _worked: dict[tuple[str, str], tuple[st.State, Any]] = field(default_factory=dict,
                                                                  repr=False)

    @property
    def state(self) -> st.State:
        """The folder's state of the position now (made again once the position changed)."""
        if self._cache is None or self._cache[0] is not self.pos:
            self._cache = (self.pos, to_state(self.game, self.pos))
        return self._cache[1]

    def _per_state(self, work: Callable[[st.State, Game, str], Any], side: str) -> Any:
        """``work(state, game, side)`` worked out once per state."""
        state = self.state
        key = (work.__name__, side)
        held = self._worked.get(key)
        if held is None or held[0] is not state:
            held = self._worked[key] = (state, work(state, self.game, side))
        return held[1]

    def room(self, side: str) -> Counter:
        """The side's ③ capacity now (7)."""
        return self._per_state(st.capacity, side)

    def out(self, side: str) -> bool:
        """Every carrier of the side is out of action (11)."""
        return self._per_state(st.carriers_out, side)

    def put(self, state: st.State) -> None:
        self.pos = with_state(self.game, self.pos, state)

    def set(self, **values: Any) -> None:
        self.pos = self.pos.with_data(**values)

    @property
    def attack(self) -> dict[str, Any] | None:
        found = self.pos.data.get("attack")
        return thaw(found) if found else None

    def say(self, text: str, *rules: str) -> None:
        self.said.append(Announcement(self.pos.turn, self.pos.phase or "", text, rules))

    def due(self, kind_of: str, side: str, **data: Any) -> None:
        self.pos = replace(self.pos, pending=(Pending(kind_of, side, KINDS[kind_of][1],
                                                     freeze(data)),))

    def hand(self, side: str) -> tuple[str, ...]:
        return cards(self.pos, pile(side, "hand"))


# --- arguments ------------------------------------------------------------------------


def _card_arg(game: Game, text: Any, what: str) -> str:
    """A card instance typed (``j-zero#3``); BadInput quoting it otherwise."""
    value = str(text).strip() if text is not None else ""
    base, _, number = value.partition("#")
    if not is_card(game, base) or not number.isdigit() or not 1 <= int(number) <= card(
            game, base).count:
        raise BadInput(f"{what} {quote(value)} is not a card (an instance like j-zero#1: a "
                       f"card id, '#', its copy number)")
    return value


def _card_list(game: Game, text: Any, what: str) -> list[str]:
    """Cards typed comma-separated (none when empty); BadInput on a repeat."""
    if text is None or str(text).strip() == "":
        return []
    out = [_card_arg(game, part, what) for part in str(text).split(",")]
    if len(set(out)) != len(out):
        raise BadInput(f"{what} {quote(str(text))} names a card twice")
    return out


def _word(args: Mapping[str, Any], key: str, allowed: Sequence[str], what: str) -> str:
    value = str(args.get(key) or "").strip()
    if value not in allowed:
        raise BadInput(f"{what} {quote(value)} is not one of {', '.join(allowed)}")
    return value


def _ship_arg(game: Game, text: Any, what: str) -> str:
    value = str(text).strip() if text is not None else ""
    allowed = [s.id for side in SIDES for s in ships(game, side)] + [BASE_ID]
    if value not in allowed:
        raise BadInput(f"{what} {quote(value)} is not a ship card or the base "
                       f"({', '.join(allowed)})")
    return value


#: each action's arguments: a card instance, cards (comma-separated, may be empty), a ship
#: card, or one of some words (None: may be left out)
ARGS: dict[str, dict[str, Any]] = {
    "rearm": {"card": "card"}, "fly": {"card": "card", "mission": ("F", "A")},
    "raid": {"card": "card"}, "cap": {"card": "card"}, "recover": {"discard": "cards"},
    "target": {"ship": "ship", "card": "cards"},
    "defend": {"card": "card", "defense": "card"}, "exchange": {"cards": "cards"},
    "discard": {"cards": "cards"}, "repair-aircraft": {"card": "card", "take": "card"},
    "emergency-repair": {"card": "card", "target": "ship", "colour": ("deck", "side", None)},
}


def parse(game: Game, command: str, args: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments of ``command`` read (BadInput names the one that is wrong): bad input
    is told before any rule, whatever the decision due."""
    kinds = ARGS.get(command, {})
    unknown = sorted(set(args) - set(kinds))
    if unknown:
        raise BadInput(f"{command}: no argument {quote(unknown[0])} "
                       f"(arguments: {', '.join(kinds) or 'none'})")
    out: dict[str, Any] = {}
    for key, what in kinds.items():
        value = args.get(key)
        if what == "card":
            out[key] = _card_arg(game, value, key)
        elif what == "cards":
            out[key] = _card_list(game, value, key)
        elif what == "ship":
            out[key] = _ship_arg(game, value, key)
        elif value is None and None in what:
            out[key] = None
        else:
            out[key] = _word(args, key, [w for w in what if w], key)
    return out


def _own(run: Run, instance: str, side: str, rule: str) -> None:
    """``instance`` is one of ``side``'s cards and in its hand, else RuleViolation(rule)."""
    if owner(run.game, instance) != side:
        raise RuleViolation(rule, f"{instance} is a {owner(run.game, instance)} card: {side} "
                                  "plays its own cards")
    if instance not in run.hand(side):
        raise RuleViolation(rule, f"{instance} is not in the {side} hand")


# --- checks: each raises RuleViolation naming the rule, the listings use them -------------


def _starting(run: Run, rule: str) -> None:
    """An attack may start now: none made this turn (5-1, C-E12), the US with a carrier in
    action (11), the Japanese first-deck armament change not left undone (12-2)."""
    state = run.state
    if state.attacked_this_turn:
        raise RuleViolation("5-1", "this turn's aircraft attack has been made already")
    if state.turn_player == US and run.out(US):
        raise RuleViolation("11", "every US carrier is out of action: the US plays only "
                                  "defense cards and 応急修理")
    if rearm_due(state, run.game):
        raise RuleViolation("12-2", "the Japanese first deck is running out and no armament "
                                    "change has been made: re-arm first (rearm CARD)")


def rearm_due(state: st.State, game: Game) -> bool:
    """12-2: the Japanese must re-arm now: no armament change yet, on the first deck, which
    holds no more cards than they may draw before their next attack phase (a hand exchange,
    two refills to the hand limit, the draw phase and its extra card), and they can."""
    japan = state.japan
    if (state.turn_player != JAPAN or state.rearmed_in_first_deck or japan.deck_number > 1
            or not int(const(game, "min-armament-changes-first-deck"))):
        return False
    most = (int(const(game, "hand-exchange-max")) + 2 * int(const(game, "hand-limit"))
            + int(const(game, "draws-per-turn")) + int(const(game, "extra-draw-no-aircraft")))
    return len(japan.deck) <= most and any(_rearmable(state, game, c) for c in japan.hand)


def _rearmable(state: st.State, game: Game, instance: str) -> bool:
    return any(stat(game, a, "replaces") == card_type(instance) for a in state.armament_pile)


def _flown(game: Game, plays: Iterable[Sequence[str]]) -> list[str]:
    return [flown_type(game, c, m) for c, m in plays]


def check_fly(run: Run, instance: str, mission: str) -> None:
    """One more card of an attack on ship cards (7-1-1), within the ③ capacity (7)."""
    game, state = run.game, run.state
    side = state.turn_player
    _own(run, instance, side, "7-1-1")
    att = run.attack
    plays = [tuple(p) for p in att["plays"]] if att else []
    if att is None:
        _starting(run, "7")
        if state.turn == 1:
            raise RuleViolation("12-1", "the game's first turn is the Japanese attack on "
                                        "Midway: no attack on ship cards")
        if not any(not s.sunk for s in st.side_ships(state, game, opponent(side))):
            raise RuleViolation("7-2", "no enemy ship card is afloat")
    combat.check_play(game, plays, instance, mission)
    flown = _flown(game, [*plays, (instance, mission)])
    st.check_capacity(state, game, side, flown, "7", run.room(side))
    if mission == "F" and not _anti_ship_left(run, side, flown, instance):
        raise RuleViolation("7-1-1", f"with {instance} flying F no card of the hand is left "
                                     "to fly A within the ship cards' ③: an attack needs at "
                                     "least one A card")


def _anti_ship_left(run: Run, side: str, flown: list[str], playing: str) -> bool:
    """A card of the hand besides ``playing`` may still fly A within the capacity."""
    game = run.game
    room = run.room(side)
    for c in run.hand(side):
        if c == playing or kind(game, c) != "aircraft" or "A" not in missions(game, c):
            continue
        if flown.count(flown_type(game, c, "A")) < room[flown_type(game, c, "A")]:
            return True
    return False


def check_raid(run: Run, instance: str) -> None:
    """One more card of an attack on the Midway base (12-1, 12-2), within ③."""
    game, state = run.game, run.state
    side = state.turn_player
    _own(run, instance, side, "12-1")
    combat.check_attackers(game, [instance], BASE_ID)
    att = run.attack
    played = list(att["cards"]) if att else []
    if att is None:
        _starting(run, "12-1")
    flown = [_raid_type(game, c) for c in [*played, instance]]
    st.check_capacity(state, game, side, flown, "12-1", run.room(side))


def _raid_type(game: Game, instance: str) -> str:
    if kind(game, instance) == "aircraft":
        return flown_type(game, instance, "A")
    return str(stat(game, instance, "aircraft_type"))


def check_cap(run: Run, instance: str) -> None:
    """A CAP card answering the card just played (7-1-1), within ③ (assumed)."""
    game, state = run.game, run.state
    side = opponent(state.turn_player)
    _own(run, instance, side, "7-1-1")
    combat.check_cap(game, [instance])
    if side == US and run.out(US):
        raise RuleViolation("11", "every US carrier is out of action: the US plays only "
                                  "defense cards and 応急修理")
    if const(game, "cap-limited-by-ship-aircraft"):
        flown = ["fighter"] * (len(run.attack["cap"]) + 1)
        st.check_capacity(state, game, side, flown, "7-1", run.room(side))


def check_target(run: Run, ship_id: str, chosen: list[str]) -> None:
    """Targets for attacking cards (7-2; the US may split, 12-3)."""
    game, state = run.game, run.state
    att = run.attack
    side = state.turn_player
    left = untargeted(att)
    if not is_card(game, ship_id):
        raise BadInput(f"ship {quote(ship_id)} is not a ship card "
                       f"({', '.join(s.id for x in SIDES for s in ships(game, x))})")
    for c in chosen:
        if c not in left:
            raise RuleViolation("7-2", f"{c} is not an attacking card waiting for its target")
    named = chosen or left
    if set(named) != set(left):
        split = side == US and bool(const(game, "us-multiple-targets"))
        if not (split and len(att["survivors"]) >= int(
                const(game, "us-multiple-targets-min-cards"))):
            raise RuleViolation("7-2", f"every {side} attacking card attacks the one ship "
                                       "card: name no card")
    atk.check_targets(state, game, side, {c: ship_id for c in named})


def untargeted(att: Mapping[str, Any]) -> list[str]:
    return [c for c in att["survivors"] if c not in att["targets"]]


def check_defend(run: Run, instance: str, defense: str) -> None:
    """A defense card against one attacking card (7-3; the base: AA only, 12-4)."""
    att = run.attack
    side = opponent(run.state.turn_player)
    if instance not in unanswered(att):
        raise RuleViolation("7-3", f"{instance} is not an attacking card waiting for a "
                                   "defense card")
    _own(run, defense, side, "7-3")
    combat.check_defense_card(run.game, defense, _target_of(att, instance))


def _attackers(att: Mapping[str, Any]) -> list[str]:
    return list(att["cards"]) if att["kind"] == "base" else list(att["survivors"])


def unanswered(att: Mapping[str, Any]) -> list[str]:
    return [c for c in _attackers(att) if c not in att["defense"]]


def _target_of(att: Mapping[str, Any], instance: str) -> str:
    return BASE_ID if att["kind"] == "base" else att["targets"][instance]


def check_rearm(run: Run, instance: str) -> None:
    """12-2: a 99艦爆 / 97艦攻 of the Japanese hand, before the attack; a card of its type
    left in the armament-change pile."""
    state = run.state
    if state.turn_player != JAPAN:
        raise RuleViolation("12-2", "armament change is made by the Japanese, in their turn")
    _own(run, instance, JAPAN, "12-2")
    if state.attacked_this_turn:
        raise RuleViolation("12-2", "the armament change comes before this turn's attack")
    if not _rearmable(state, run.game, instance):
        raise RuleViolation("12-2", f"{instance} cannot be re-armed (not a 99艦爆 / 97艦攻 "
                                    "card, or no armament-change card of its type left)")


def check_discard(run: Run, side: str, chosen: list[str], need: int, rule: str) -> None:
    """Exactly ``need`` cards of the hand."""
    for c in chosen:
        _own(run, c, side, rule)
    if len(chosen) != need:
        raise RuleViolation(rule, f"discard exactly {need} card(s), not {len(chosen)}")


def check_rearm_discard(run: Run, chosen: list[str]) -> None:
    """12-2: the card drawn this turn, or one of choice when it is gone or none was drawn."""
    check_discard(run, JAPAN, chosen, int(const(run.game, "rearm-only-turn-discard")),
                  "12-2")
    drawn = [c for c in run.state.japan.drawn if c in run.hand(JAPAN)]
    if drawn and not set(chosen) <= set(drawn):
        raise RuleViolation("12-2", "a turn with armament change only discards the card "
                                    "drawn this turn")


def check_exchange(run: Run, chosen: list[str]) -> None:
    """8: at most 3 cards of the turn player's hand."""
    side = run.state.turn_player
    most = int(const(run.game, "hand-exchange-max"))
    if len(chosen) > most:
        raise RuleViolation("8", f"a hand exchange takes at most {most} cards, not "
                                 f"{len(chosen)}")
    for c in chosen:
        _own(run, c, side, "8")


def repair_aircraft(run: Run, instance: str, take: str) -> st.State:
    """10-1 applied: the folder's procedure checks the rest (own turn, the discard pile)."""
    _own(run, instance, run.state.turn_player, "10-1")
    return atk.aircraft_repair(run.state, run.game, instance, take)


def emergency_repair(run: Run, instance: str, target: str, colour: str | None) -> st.State:
    """10-2 applied by the folder's procedure (US turn, a damaged US card)."""
    if run.state.turn_player != US:
        raise RuleViolation("10-2", "応急修理 is played by the US, in the US turn")
    if target != BASE_ID and colour is None:
        raise BadInput("colour is missing: deck or side, the damage removed from a ship card")
    _own(run, instance, US, "10-2")
    return atk.emergency_repair(run.state, run.game, [(instance, target, colour or "deck")])


def check_pass(run: Run) -> None:
    """No attack: refused while the Japanese must re-arm (12-2)."""
    if rearm_due(run.state, run.game):
        raise RuleViolation("12-2", "the Japanese first deck is running out and no armament "
                                    "change has been made: re-arm first (rearm CARD)")

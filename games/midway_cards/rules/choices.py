"""The legal answers of each decision of a Fateful Midway Card Game session, grouped into
options (one per card played, per target, per number of cards exchanged ...), made of the
checks of ``moves.py``; the prompt of a decision, from public facts only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import combinations
from typing import Any

from warpress.engine.decisions import Action, Option
from warpress.engine.errors import RuleViolation
from warpress.engine.position import Pending

from . import state as st
from .common import (
    BASE_ID,
    JAPAN,
    card,
    const,
    kind,
    missions,
    opponent,
)
from .moves import (
    Run,
    check_cap,
    check_defend,
    check_fly,
    check_pass,
    check_raid,
    check_rearm,
    check_rearm_discard,
    check_target,
    emergency_repair,
    repair_aircraft,
    unanswered,
    untargeted,
)
from .positions import cards, pile

# --- legal answers ---------------------------------------------------------------------


def _legal(check: Callable[[], Any]) -> bool:
    try:
        check()
    except RuleViolation:
        return False
    return True


def _lazy(label: str, make: Callable[[], Iterable[Action]]) -> Option:
    """An option listed when asked (many answers: subsets of a hand)."""
    return Option(label, lambda: tuple(make()))


def _group(label: str, actions: Iterable[Action]) -> list[Option]:
    """An option of the answers found now; none when there is none."""
    found = tuple(actions)
    return [Option(label, lambda: found)] if found else []


def _opening_options(run: Run, due: Pending) -> list[Option]:
    side = due.side
    out = [Option.single(Action.of("keep"))]
    if _legal(lambda: st.redraw_opening(run.state, run.game, side)):
        out.append(Option.single(Action.of("redraw")))
    return out


def _attack_options(run: Run, due: Pending) -> list[Option]:
    side = due.side
    hand = run.hand(side)
    out = []
    if run.pos.data.get("extra_open") and st.extra_draw_allowed(run.state, run.game):
        out.append(Option.single(Action.of("extra-draw")))
    if side == JAPAN:
        out += [Option.single(Action.of("rearm", card=c)) for c in hand
                if _legal(lambda c=c: check_rearm(run, c))]
        out += _raid_options(run, hand)
    out += _fly_options(run, hand)
    if _legal(lambda: check_pass(run)):
        out.append(Option.single(Action.of("pass", label="pass (no attack)")))
    return out + _tactics_options(run, side, hand)


def _fly_options(run: Run, hand: Sequence[str]) -> list[Option]:
    game = run.game
    return [option for c in hand if kind(game, c) == "aircraft"
            for option in _group(f"fly {c}", (
                Action.of("fly", card=c, mission=m) for m in ("F", "A")
                if m in missions(game, c) and _legal(lambda c=c, m=m: check_fly(run, c, m))))]


def _raid_options(run: Run, hand: Sequence[str]) -> list[Option]:
    return [Option.single(Action.of("raid", card=c)) for c in hand
            if _legal(lambda c=c: check_raid(run, c))]


def _tactics_options(run: Run, side: str, hand: Sequence[str]) -> list[Option]:
    game = run.game
    out = []
    for c in hand:
        if kind(game, c) != "tactics":
            continue
        if card(game, c).name_ja == "損傷機修理":
            out += _group(f"repair-aircraft {c}", (
                Action.of("repair-aircraft", card=c, take=t)
                for t in cards(run.pos, pile(side, "discard"))
                if _legal(lambda t=t, c=c: repair_aircraft(run, c, t))))
        elif card(game, c).name_ja == "応急修理":
            out += _group(f"emergency-repair {c}", _repairs(run, c))
    return out


def _repairs(run: Run, instance: str) -> Iterable[Action]:
    targets = [(s.id, colour) for s in run.state.ships for colour in ("deck", "side")]
    for target, colour in [(BASE_ID, None), *targets]:
        if _legal(lambda t=target, k=colour: emergency_repair(run, instance, t, k)):
            yield Action.of("emergency-repair", card=instance, target=target, colour=colour)


def _pairs_options(run: Run, due: Pending) -> list[Option]:
    out = _fly_options(run, run.hand(due.side))
    if any(m == "A" for _, m in run.attack["plays"]):
        out.append(Option.single(Action.of("launch")))
    return out


def _cap_options(run: Run, due: Pending) -> list[Option]:
    out = [Option.single(Action.of("cap", card=c)) for c in run.hand(due.side)
           if kind(run.game, c) == "aircraft" and _legal(lambda c=c: check_cap(run, c))]
    return [*out, Option.single(Action.of("pass", label="pass (no more CAP)"))]


def _raid_more_options(run: Run, due: Pending) -> list[Option]:
    return [*_raid_options(run, run.hand(due.side)), Option.single(Action.of("launch"))]


def _recover_options(run: Run, due: Pending) -> list[Option]:
    won = list(due.data["cards"])
    return [_lazy("recover", lambda: (
        Action.of("recover", discard=",".join(chosen) or None,
                  label="recover" + (f" --discard {','.join(chosen)}" if chosen else ""))
        for n in range(len(won) + 1) for chosen in combinations(won, n)))]


def _target_options(run: Run, due: Pending) -> list[Option]:
    att = run.attack
    enemy = opponent(att["attacker"])
    afloat = [s.id for s in st.side_ships(run.state, run.game, enemy) if not s.sunk]
    left = untargeted(att)

    def of(ship_id: str) -> Iterable[Action]:
        if _legal(lambda: check_target(run, ship_id, [])):
            yield Action.of("target", ship=ship_id)
        if len(left) > 1:
            for c in left:
                if _legal(lambda c=c: check_target(run, ship_id, [c])):
                    yield Action.of("target", ship=ship_id, card=c)

    return [option for s in afloat for option in _group(f"target {s}", of(s))]


def _defense_options(run: Run, due: Pending) -> list[Option]:
    hand = [c for c in run.hand(due.side) if kind(run.game, c) == "defense"]
    out = [option for a in unanswered(run.attack) for option in _group(f"defend {a}", (
        Action.of("defend", card=a, defense=d) for d in hand
        if _legal(lambda d=d, a=a: check_defend(run, a, d))))]
    return [*out, Option.single(Action.of("pass", label="pass (no more defense cards)"))]


def _rearm_discard_options(run: Run, due: Pending) -> list[Option]:
    return [Option.single(Action.of("discard", cards=c)) for c in run.hand(JAPAN)
            if _legal(lambda c=c: check_rearm_discard(run, [c]))]


def _exchange_options(run: Run, due: Pending) -> list[Option]:
    hand = run.hand(due.side)
    most = min(int(const(run.game, "hand-exchange-max")), len(hand))
    out = [Option.single(Action.of("exchange", label="exchange (keep the hand)"))]
    out += [_lazy(f"exchange {n} card(s)", lambda n=n: (
        Action.of("exchange", cards=",".join(chosen)) for chosen in combinations(hand, n)))
        for n in range(1, most + 1)]
    return out + _tactics_options(run, due.side, hand)


def _adjust_options(run: Run, due: Pending) -> list[Option]:
    hand = run.hand(due.side)
    need = int(due.data["discard"])
    return [_lazy(f"discard {need} card(s)", lambda: (
        Action.of("discard", cards=",".join(chosen)) for chosen in combinations(hand, need)))]


OPTIONS: dict[str, Callable[[Run, Pending], list[Option]]] = {
    "opening": _opening_options, "attack": _attack_options, "pairs": _pairs_options,
    "cap": _cap_options, "raid": _raid_more_options, "recover": _recover_options,
    "target": _target_options, "defense": _defense_options,
    "rearm-discard": _rearm_discard_options, "exchange": _exchange_options,
    "adjust": _adjust_options,
}


def prompt(due: Pending) -> str:
    """What the decision asks, from public facts only."""
    data = due.data
    texts = {
        "opening": "keep the opening hand, or redraw one without an attack card",
        "attack": ("re-arm, attack US ship cards (fly) or the Midway base (raid), play a "
                   "tactics card, or pass" if due.side == JAPAN else
                   "attack Japanese ship cards (fly), play a tactics card, or pass"),
        "pairs": "fly another card, or launch the attack",
        "cap": f"intercept {data.get('card')} ({data.get('mission')}) with a CAP card, or "
               "pass",
        "raid": "send another card against the Midway base, or launch",
        "recover": f"take back the F cards that won ({', '.join(data.get('cards', ()))}), "
                   "or discard some",
        "target": f"name the ship card {', '.join(data.get('cards', ()))} attack",
        "defense": f"defense cards against {', '.join(data.get('cards', ()))}, or pass",
        "rearm-discard": "discard a card: a turn with armament change only",
        "exchange": "exchange up to 3 cards, or keep the hand; or play a tactics card",
        "adjust": f"discard {data.get('discard')} card(s) down to the hand limit",
    }
    return f"{due.side}: {texts[due.kind]}"



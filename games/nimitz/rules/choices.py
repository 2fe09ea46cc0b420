"""The legal answers of each decision of a Nimitz session, grouped into options (one per unit
to move, per aircraft to send, per marker to buy ...), made of the checks of ``moves.py``
and ``battle.py`` so that every answer listed is accepted; and the prompt of a decision."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from warpress.engine.decisions import Action, Option
from warpress.engine.errors import RuleViolation
from warpress.engine.model import Game
from warpress.engine.position import Pending

from . import battle as bt
from . import fire
from . import japan as jp
from . import moves as mv
from .positions import US, US_BOX, Run, kind, marker_ids, name, point_ids, point_name


def _legal(check: Callable[[], Any]) -> bool:
    try:
        check()
    except RuleViolation:
        return False
    return True


def _single(action: Action) -> Option:
    return Option.single(action)


def _group(label: str, make: Callable[[], Iterable[Action]]) -> Option:
    """An option listed when asked (a unit's destinations)."""
    return Option(label, lambda: tuple(make()))


def _done() -> Option:
    return _single(Action.of("done"))


# --- campaign phases -------------------------------------------------------------------------


def _supply(run: Run, due: Pending) -> list[Option]:
    out = [_single(Action.of("buy", note=f"cost {kind(run.game, p).cost_buy}", unit=p.id))
           for p in run.at(US_BOX, US, "box") if _legal(lambda p=p: mv.check_buy(run, p))]
    out += [_single(Action.of("repair", note=f"{mv.repair_cost(run, p)} SP", unit=p.id))
            for p in run.pieces.values()
            if p.side == US and _legal(lambda p=p: mv.check_repair(run, p))]
    return out + [_done()]


def _recon(run: Run, due: Pending) -> list[Option]:
    out = [_single(Action.of("recon", point=pt)) for pt in point_ids(run.game)
           if _legal(lambda pt=pt: mv.check_recon(run, pt))]
    return out + [_done()]


def _unit_moves(run: Run, piece) -> list[Action]:
    out = [Action.of("move", unit=piece.id, point=pt) for pt in point_ids(run.game)
           if _legal(lambda pt=pt: mv.check_move(run, piece, pt))]
    for action, check in (("raid", mv.check_raid), ("bomb", mv.check_bomb),
                          ("invade", mv.check_invade)):
        if _legal(lambda check=check: check(run, piece)):
            out.append(Action.of(action, unit=piece.id))
    return out


def _move(run: Run, due: Pending) -> list[Option]:
    out = []
    for piece in run.of(US):
        if "moved" in piece.flags or int(run.data.get("sp", 0)) < 1:
            continue
        found = _unit_moves(run, piece)
        if found:
            where = point_name(run.game, str(piece.place))
            out.append(Option(f"{name(run.game, piece)} at {where}",
                              lambda found=tuple(found): found))
    return out + [_done()]


def _bw_target(run: Run, due: Pending) -> list[Option]:
    return [_single(Action.of("target", unit=pid)) for pid in jp.bombing_targets(run)]


def _jp_order(run: Run, due: Pending) -> list[Option]:
    return [_single(Action.of("determine", point=pt)) for pt in due.data["points"]]


def _battle_order(run: Run, due: Pending) -> list[Option]:
    return [_single(Action.of("fight", point=pt)) for pt in due.data["points"]]


# --- battle ----------------------------------------------------------------------------------


def _place(run: Run, due: Pending) -> list[Option]:
    if bt.unplaced_us_ships(run):
        return [Option(name(run.game, run.pieces[pid]),
                       lambda pid=pid: tuple(Action.of("place", unit=pid, area=a)
                                             for a in ("us-sea", "coastal")))
                for pid in bt.unplaced_us_ships(run)]
    return [Option(name(run.game, run.pieces[pid]),
                   lambda pid=pid: tuple(Action.of("place", unit=pid, area=a)
                                         for a in bt.sub_areas(run)))
            for pid in bt.unplaced_subs(run)]


def _bonus(run: Run, due: Pending) -> list[Option]:
    out = [_single(Action.of("bonus", note=f"{bt.marker_cost(run, m)} BPP", marker=m))
           for m in marker_ids(run.game, US) if _legal(lambda m=m: bt.check_bonus(run, m))]
    if _legal(lambda: bt.check_spend(run)):
        out.append(_single(Action.of("spend", note="1 SP: +3 BPP")))
    return out + [_done()]


def _strike(run: Run, due: Pending) -> list[Option]:
    out = [Option(name(run.game, run.pieces[c]),
                  lambda c=c: tuple(Action.of("strike", unit=c, area=a)
                                    for a in bt.strike_areas(run)))
           for c in due.data["carriers"]]
    return out + [_single(Action.of("pass"))]


def _fly(run: Run, due: Pending) -> list[Option]:
    return [Option(name(run.game, run.pieces[pid]),
                   lambda pid=pid: tuple(Action.of("fly", unit=pid, area=a)
                                         for a in bt.fly_areas(run)))
            for pid in bt.waiting_aircraft(run)]


def _hit(run: Run, due: Pending) -> list[Option]:
    return [_single(Action.of("hit", label=f"hit {fire.target_name(run, pid)}", unit=pid))
            for pid in fire.candidates(run)]


def _remove(run: Run, due: Pending) -> list[Option]:
    return [_single(Action.of("remove", unit=pid)) for pid in bt.removable(run)]


def _pin(run: Run, due: Pending) -> list[Option]:
    return [_single(Action.of("pin", way="longer")), _single(Action.of("pin", way="shorter")),
            _single(Action.of("pass"))]


OPTIONS: dict[str, Callable[[Run, Pending], list[Option]]] = {
    "supply": _supply, "recon": _recon, "move": _move, "bw-target": _bw_target,
    "jp-order": _jp_order, "battle-order": _battle_order, "place": _place, "bonus": _bonus,
    "strike": _strike, "fly": _fly, "hit": _hit, "remove": _remove, "pin": _pin,
}


def options(run: Run, due: Pending) -> list[Option]:
    return OPTIONS[due.kind](run, due)


# --- prompts ---------------------------------------------------------------------------------

PROMPTS = {
    "supply": "US supply phase: buy and repair units ({rp} RP, {sp} SP), then done",
    "recon": "US recon phase: place recon markers (1 SP each, {sp} SP), then done",
    "move": "US movement phase: move units (1 SP each, {sp} SP), then done",
    "bw-target": "strategic bombing: pick a Japanese unit in Japan ({left} to pick)",
    "jp-order": "Japanese movement: the point to determine next",
    "battle-order": "combat phase: the battle to fight next",
    "place": "battle: the area of a US ship",
    "bonus": "battle: buy US bonus markers ({bpp} BPP; spend SP for more), then done",
    "strike": "battle: the US first strike (a carrier and an area), or pass",
    "fly": "battle round: send each US aircraft to an area",
    "hit": "battle: {hits} hit(s) on {side} in the {area}: which unit takes the next",
    "remove": "battle: {excess} US aircraft have no room: remove one",
    "pin": "battle round end: the pinning marker (longer, shorter) or pass",
}


def prompt_of(game: Game, due: Pending) -> str:
    """What the decision due asks (public facts only)."""
    return PROMPTS[due.kind].format(**{"rp": "?", "sp": "?", **due.data})

"""A battle's answer from the totals of its end table: the chances of how it ends and of
the forces left on each side. The plain chains (``plain.py``) and numpy's tables
(``floats.py``) each sum their end table into :class:`Totals`; :func:`battle_totals`
reads the answer from them."""

from __future__ import annotations

from typing import Any

from warpress.engine.model import Game
from warpress.engine.records import Frozen, frozen_record

from .battle import BattleSpec
from .common import domain, force_text
from .opening import FIELDS


@frozen_record
class Totals(Frozen):
    """A battle's end table ``E[j][s]`` summed the ways its answer reads it (plain floats):
    the chance of ending in each attacker state (``per_state``, the dead state last) and
    with each count of defenders lost (``per_col``); in each live state with the defender
    eliminated (``wins``) or not (``live``: a retreat, or still fighting); both sides
    eliminated (``mutual``)."""

    per_state: list[float]
    per_col: list[float]
    wins: list[float]
    live: list[float]
    mutual: float

    @classmethod
    def of_rows(cls, E: list[list[float]]) -> Totals:
        """The totals of an end table in plain lists (``settle``)."""
        nd, S = len(E) - 1, len(E[0]) - 1
        by_state = list(zip(*E, strict=True))
        return cls(per_state=[sum(c) for c in by_state], per_col=[sum(r) for r in E],
                   wins=E[nd][:S], live=[sum(c[:nd]) for c in by_state[:S]],
                   mutual=E[nd][S])


def land_blocks(game: Game, blocks: list[tuple[str, int]]) -> list[int]:
    """The blocks of land units (``blocks``: type and size): a land battle is taken by an
    attacker left with one of them (land 7)."""
    return [k for k, (t, _) in enumerate(blocks) if domain(game, t) == "land"]


def battle_totals(game: Game, spec: BattleSpec, totals: Totals,
                  counts: list[tuple[int, ...]], blocks: list[tuple[str, int]],
                  level: list[int], taking: list[bool], retreats: list[bool],
                  least: float):
    """``(fields, survivors)`` of a battle from its ``totals`` (``floats``' table or this
    module's); for each live state ``s``: ``counts[s]``, its units left in each block
    (``blocks``: type and size, in casualty order), ``level[s]`` in all; ``taking[s]``,
    whether winning there takes the territory (``land_blocks``); ``retreats[s]``, whether
    ending there with defenders left is a retreat (else still fighting: undecided).
    Survivors under ``least`` are left out."""
    nd, S = len(spec.defender), len(counts)
    per_state, wins, live = totals.per_state, totals.wins, totals.live
    out = {
        "attacker_wins": sum(wins),
        "defender_wins": per_state[S] - totals.mutual,
        "mutual_destruction": totals.mutual,
        "undecided": sum(m for m, r in zip(live, retreats, strict=True) if not r),
        "attacker_retreats": sum(m for m, r in zip(live, retreats, strict=True) if r),
        "attacker_takes": sum(w for w, t in zip(wins, taking, strict=True) if t),
        "attacker_survivors": sum(p * n for p, n in zip(per_state[:S], level, strict=True)),
        "defender_survivors": sum(p * (nd - j) for j, p in enumerate(totals.per_col)),
    }
    parts = [[f"{c} {t}" for c in range(n + 1)] for t, n in blocks]
    attacker: dict[str, float] = {"none": per_state[S]}
    for s, p in enumerate(per_state[:S]):
        if p and p >= least:
            attacker[", ".join([part[c] for part, c in zip(parts, counts[s], strict=True)
                                if c])] = p
    defender: dict[str, float] = {}
    for j, p in enumerate(totals.per_col):
        if p:
            defender[force_text(spec.defender[j:])] = p
    fields: dict[str, Any] = {k: float(out[k]) for k in FIELDS}
    return fields, (attacker, defender)

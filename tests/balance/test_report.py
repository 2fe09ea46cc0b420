"""balance/report.py: the parts of a report computed from game records."""

from __future__ import annotations

from warpress.balance.report import MIN_SPLIT, hexes


def record(seed: int, holder: str, winner: str) -> dict:
    return {"seed": seed, "winner": winner, "control": {"1": {"0101": holder, "0202": "north"}}}


def test_a_hex_held_by_one_of_two_sides_is_told_once_not_mirrored():
    records = ([record(s, "north", "north") for s in range(MIN_SPLIT)]
               + [record(MIN_SPLIT + s, "south", "south") for s in range(MIN_SPLIT)])
    found = hexes(records, ["north", "south"])
    assert [(h["hex"], h["side"]) for h in found] == [("0101", "north")]
    assert found[0]["held"]["rate"] == 1.0 and found[0]["not_held"]["rate"] == 0.0


def test_a_third_holder_keeps_each_sides_own_split():
    records = ([record(s, "north", "north") for s in range(MIN_SPLIT)]
               + [record(MIN_SPLIT + s, "south", "south") for s in range(MIN_SPLIT)]
               + [record(2 * MIN_SPLIT + s, "neutral", "north") for s in range(MIN_SPLIT)])
    found = hexes(records, ["north", "south"])
    assert sorted(h["side"] for h in found) == ["north", "south"]

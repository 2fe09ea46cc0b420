"""balance/report.py: the parts of a report computed from game records."""

from __future__ import annotations

from warpress.balance.report import MIN_SPLIT, hexes, units


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


def played(seed: int, winner: str | None, stopped: str = "over", variant: str = "base") -> dict:
    return {"seed": seed, "winner": winner, "stopped": stopped, "variant": variant}


def test_restricted_play_leaves_games_that_failed_out_of_both_rates():
    """A restricted game that raised (a rule hole, listed with its seed) has no winner: it
    counts neither as the owner's loss nor, for its seed, in the full games' rate."""
    run = {"restricted": {"remove n1": "north"}}
    base = [played(1, "north"), played(2, "north"), played(3, "south")]
    variant = [played(1, "north", variant="remove n1"),
               played(2, None, "error", variant="remove n1"),
               played(3, "south", variant="remove n1")]
    (row,) = units(run, {"remove n1": variant}, base)
    assert row["failed"] == 1
    assert (row["with"]["games"], row["full"]["games"]) == (2, 2)
    assert row["with"]["rate"] == row["full"]["rate"] == 0.5


def test_a_restricted_variant_whose_every_game_failed_is_not_ranked():
    run = {"restricted": {"remove n1": "north"}}
    base = [played(1, "north")]
    assert units(run, {"remove n1": [played(1, None, "broken", "remove n1")]}, base) == []

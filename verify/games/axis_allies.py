"""Axis & Allies rule invariants: the victory conditions hold for every end state.

The victory conditions (source lines 9-13): the Allies win by capturing both Axis
capitals; the Axis win by capturing 2 of the 3 Allied capitals, or with a combined
German and Japanese NPL of at least 84 at the end of a round. Every number comes
from the game data; the engine's check is ``board.victory_check``.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ...engine.games.axis_allies import board
from ...engine.model import Game
from ..invariants import invariant

GAME = "axis-allies"


@invariant(GAME, "victory conditions", "exactly one outcome for every end state: two Axis "
           "capitals for the Allies, two Allied capitals or NPL >= 84 for the Axis, all checked "
           "at round end (E10)")
def victory_outcomes(game: Game):
    axis_needed = game.constant("axis-capitals-for-allied-win")
    allied_needed = game.constant("allied-capitals-for-axis-win")
    threshold = game.constant("axis-economic-victory-npl")
    top = game.table("victory").key("axis_npl").max
    axis_caps = game.constant("axis-capitals-for-allied-win")
    allied_caps = game.constant("allied-capitals")

    @given(st.integers(0, axis_caps), st.integers(0, allied_caps), st.integers(0, top),
           st.booleans())
    def check(axis_lost, allied_lost, npl, round_end):
        out, rules, _errata = board.victory_check(game, axis_lost, allied_lost, npl, round_end)
        winner = out["winner"]
        assert winner in ("axis", "allies", "none"), f"unknown outcome {winner!r}"
        assert rules, "a victory answer names its rule"
        if winner == "allies":
            assert axis_lost >= axis_needed, f"Allies win with {axis_lost} Axis capitals taken"
        if winner == "axis":
            economic = round_end and npl >= threshold
            assert allied_lost >= allied_needed or economic, (
                f"Axis win with {allied_lost} Allied capitals, NPL {npl}, round end {round_end}")
        if not round_end:  # E10: every condition is checked at the end of a round
            assert winner == "none", f"{winner!r} wins before the end of the round (E10)"
            return
        military = axis_lost >= axis_needed or allied_lost >= allied_needed
        if not military and npl < threshold:
            assert winner == "none", f"{winner!r} wins with no condition met"
        if not military and npl >= threshold:
            assert winner == "axis", f"NPL {npl} >= {threshold} at round end gives {winner!r}"
        if axis_lost >= axis_needed and allied_lost == 0:
            assert winner == "allies", "both Axis capitals taken, no Allied one lost"
        if allied_lost >= allied_needed and axis_lost == 0:
            assert winner == "axis", "two Allied capitals taken, no Axis one lost"

    return check


LAND_TYPES = ("infantry", "armor", "fighter", "bomber")


def _force(counts: dict[str, int]) -> str:
    return ", ".join(f"{n} {t}" for t, n in counts.items() if n)


def _battle(game: Game, attacker: dict[str, int], defender: dict[str, int]) -> dict:
    from fractions import Fraction

    from ...engine.query import run_odds
    from ...engine.registry import ref_table

    pairs = [f"attacker={_force(attacker)}", f"defender={_force(defender)}"]
    exact = run_odds(game, ref_table(game, "battle"), pairs)["result"]["exact"]
    return {k: Fraction(v) for k, v in exact.items()}


def _forces():
    counts = st.fixed_dictionaries({t: st.integers(0, 2) for t in LAND_TYPES})
    return counts.filter(lambda c: 0 < sum(c.values()) <= 4)


@invariant(GAME, "③ combat", "battle odds are exact: win, loss, mutual destruction (and "
           "undecided) sum to exactly 1; one more attacker never lowers the attacker's odds",
           max_examples=25)
def battle_odds(game: Game):
    @given(_forces(), _forces(), st.sampled_from(LAND_TYPES))
    def check(attacker, defender, extra):
        odds = _battle(game, attacker, defender)
        outcomes = ("attacker_wins", "defender_wins", "mutual_destruction", "undecided")
        total = sum(odds.get(k, 0) for k in outcomes)
        assert total == 1, f"outcomes sum to {total}"
        stronger = dict(attacker, **{extra: attacker[extra] + 1})
        better = _battle(game, stronger, defender)
        assert better["attacker_wins"] >= odds["attacker_wins"], (
            f"adding 1 {extra} lowers attacker_wins from {float(odds['attacker_wins']):.4f} "
            f"to {float(better['attacker_wins']):.4f}")

    return check

"""Property tests of the rule invariants (I1-I42) on the Nimitz procedures."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from warpress.games.nimitz.rules import combat as cb
from warpress.games.nimitz.rules.common import Piece

PIECES = st.lists(st.tuples(st.integers(0, 5), st.sampled_from(["full", "damaged"])),
                  min_size=1, max_size=6)


@settings(max_examples=80, deadline=None)
@given(pieces=PIECES, hits=st.integers(0, 14))
def test_i2_i4_allocation(game, pieces, hits):
    before = [Piece(f"u{i}", c, s) for i, (c, s) in enumerate(pieces)]
    done = cb.allocate_hits(game, before, hits)
    capacity = sum(2 if p.state == "full" else 1 for p in before)
    assert sum(p.hits for p in done.pieces) == min(hits, capacity)
    assert done.unused == max(0, hits - capacity)
    for old, new in zip(before, done.pieces, strict=True):
        assert new.hits <= (2 if old.state == "full" else 1)
    # I4: a unit is hit only when every cheaper unit is already destroyed
    for new in done.pieces:
        if new.hits:
            assert all(o.state == "destroyed" for o in done.pieces if o.cost < new.cost)


@settings(max_examples=40, deadline=None)
@given(capacity=st.integers(0, 8), hits=st.integers(0, 12))
def test_i14_airfield_capacity_never_below_zero(game, capacity, hits):
    done = cb.allocate_hits(game, [Piece("airfield", 1, capacity=capacity)], hits)
    assert done.pieces[0].capacity == max(0, capacity - hits)
    assert done.unused == max(0, hits - capacity)


PLANES = st.lists(st.tuples(st.integers(1, 4), st.sampled_from(["full", "damaged"])),
                  max_size=8)


@settings(max_examples=60, deadline=None)
@given(planes=PLANES, complement=st.integers(0, 6), damaged=st.booleans(),
       side=st.sampled_from(["us", "japan"]))
def test_i15_carriers_recover_no_more_than_they_carried(game, planes, complement, damaged,
                                                        side):
    items = [cb.Plane(f"p{i}", c, s) for i, (c, s) in enumerate(planes)]
    done = cb.carrier_return(game, side, complement, damaged, items)
    assert len(done.landed) <= (0 if damaged else complement)
    assert len(done.landed) + len(done.removed) == len(items)
    if side == "japan" and done.removed and done.landed:
        worst_kept = min((p.state != "damaged", p.cost) for p in done.landed)
        assert all((p.state != "damaged", p.cost) <= worst_kept for p in done.removed)


@settings(max_examples=40, deadline=None)
@given(ships=st.integers(0, 8), aircraft=st.integers(0, 8))
def test_i12_aa_rows(game, ships, aircraft):
    pool = [game.get("units", u) for u in ("nagato-mutsu", "hiei-kirishima", "tone-chikuma",
                                           "jp-desron-1", "kaga", "akagi", "shoho",
                                           "jp-1st-sub-flotilla")][:ships]
    escorts, carriers = cb.aa_rows(game, pool, aircraft)
    assert len(escorts) <= aircraft and len(carriers) <= aircraft
    assert all(cb.is_escort(s) for s in escorts) and all(cb.is_carrier(s) for s in carriers)
    left = [s for s in pool if cb.is_escort(s) and s not in escorts]
    if not escorts:
        assert aircraft == 0 or not left
        return
    assert all(cb.aa_value(s).normal <= min(cb.aa_value(e).normal for e in escorts)
               for s in left)

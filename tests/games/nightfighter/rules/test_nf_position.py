"""A refereed night as the engine's Position and back (rules/position.py): pieces for the
aircraft, the rest in data, lossless both ways, checked when read."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nf_helpers import edited, next_command, night_of, start_state
from warpress.engine.dice import SeededDice
from warpress.engine.errors import BadInput
from warpress.engine.position import Position
from warpress.games.nightfighter.rules.position import (
    STATUS_KIND,
    as_position,
    night_session,
    verdict_of,
)
from warpress.games.nightfighter.rules.scenario import SHIPPED

FIGHTER_STATUSES = ("on-map", "beacon-box", "off-map", "destroyed")
BOMBER_STATUSES = ("on-map", "pool", "delayed", "exited", "destroyed")
HEXES = st.one_of(st.none(), st.sampled_from(["0101", "0712", "1824", "0927"]))


def test_nf_position_pieces_are_the_aircraft(game, ref):
    state = start_state(game, ref, "kammhuber-line", 2)
    night = night_of(game, state)
    assert [p.id for p in state.of_side("defender")] == [f.id for f in night.fighters]
    assert [p.id for p in state.of_side("attacker")] == [b.id for b in night.bombers]
    for f in night.fighters:
        piece = state.piece(f.id)
        assert piece.unit == f.unit and piece.props["hits"] == f.hits
        assert piece.step == (0 if f.status == "destroyed" else 1)
        assert piece.props["facing"] == f.facing and piece.props["mp"] == f.mp
        if f.status == "on-map":
            assert (piece.kind, piece.place, piece.hex) == ("hex", f.hex, f.hex)
        else:
            assert (piece.kind, piece.place) == (STATUS_KIND[f.status], f.status)
    boxed = state.piece("203")      # kammhuber-line's third fighter waits in the beacon box
    assert (boxed.kind, boxed.place, boxed.on_board) == ("box", "beacon-box", True)
    assert "boxed-at-start" in boxed.flags
    pooled = [p for p in state.of_side("attacker") if p.kind == "pool"]
    assert pooled and all(p.place == "pool" and "hex" not in p.props for p in pooled)
    assert (state.turn, state.phase, state.side, state.verdict) == (
        1, "fighter-movement", "defender", None)
    assert set(state.data) == {"path", "scenario", "night", "announcements", "delayed",
                               "searchlights", "placed", "sighted", "result"}
    assert "bombers" not in state.data["night"] and "fighters" not in state.data["night"]


@st.composite
def sessions(draw, game, ref):
    """Sessions with every aircraft field and session record drawn at random."""
    state = start_state(game, ref, draw(st.sampled_from(SHIPPED)), draw(st.integers(0, 99)))
    s = night_session(game, state)
    fighters = tuple(replace(
        f, status=draw(st.sampled_from(FIGHTER_STATUSES)), hex=draw(HEXES),
        hits=draw(st.integers(0, 5)), attacked=draw(st.booleans()),
        evading=draw(st.booleans()), sighting=draw(st.sampled_from([None, "101", "x"])),
        mp_spent=draw(st.integers(0, 6)), turned=draw(st.booleans()))
        for f in s.night.fighters)
    bombers = tuple(replace(
        b, status=draw(st.sampled_from(BOMBER_STATUSES)), hex=draw(HEXES),
        hits=draw(st.integers(0, 6)), alert=draw(st.booleans()), moved=draw(st.integers(0, 4)),
        equipment=frozenset(draw(st.lists(st.sampled_from(["h2s", "monica"])))))
        for b in s.night.bombers)
    ids = [f.id for f in fighters]
    some = st.lists(st.sampled_from(ids), unique=True)
    return replace(
        s, night=replace(s.night, fighters=fighters, bombers=bombers,
                         turn=draw(st.integers(1, 20))),
        phase=draw(st.sampled_from(["fighter-movement", "radar-search", "combat"])),
        moved=draw(some), warned=draw(some),
        declared={(f, what) for f in draw(some) for what in draw(st.lists(
            st.sampled_from(["evade", "descend", "boxed"]), unique=True))},
        sighted=draw(st.booleans()))


def test_nf_position_round_trip_is_lossless(game, ref):
    @settings(max_examples=40, deadline=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(s=sessions(game, ref))
    def check(s):
        position = as_position(s)
        assert night_session(game, position) == s
        text = json.dumps(position.to_json())
        back = Position.from_json(json.loads(text))
        assert back == position and back.digest() == position.digest()
        assert night_session(game, back) == s

    check()


@pytest.mark.parametrize("name", SHIPPED)
def test_nf_position_every_state_of_a_night_reads_back_equal(game, ref, name):
    state = start_state(game, ref, name, 17)
    for n in range(60):
        s = night_session(game, state)
        assert as_position(s) == state and night_session(game, as_position(s)) == s
        if state.over:
            assert state.side is None and state.verdict == verdict_of(s.result)
            break
        assert state.side == "defender" and state.verdict is None
        command, args = next_command(game, ref.player_view(game, state))
        state = ref.apply(game, state, command, args, SeededDice(n)).state
    assert state.turn > 1


def test_nf_position_a_fighter_off_the_map_keeps_a_hex_it_still_has(game, ref):
    state = start_state(game, ref, "cats-eye", 1)
    night = night_of(game, state)
    odd = replace(night.fighters[0], status="off-map", hex="0701")
    position = edited(game, state, night=night.with_fighter(odd))
    piece = position.piece(odd.id)
    assert (piece.kind, piece.place, piece.props["hex"]) == ("off-map", "off-map", "0701")
    assert night_of(game, position).fighter(odd.id) == odd


def test_nf_position_refuses_what_is_not_a_nightfighter_position(game, ref):
    state = start_state(game, ref, "cats-eye", 1)
    with pytest.raises(BadInput, match="not a position"):
        night_session(game, {"turn": 1})
    on_map = state.pieces[0]
    with pytest.raises(BadInput, match=r"pieces\[231\].props: unknown key 'hex'"):
        night_session(game, state.with_piece(replace(on_map, props={**on_map.props,
                                                                    "hex": "0101"})))
    with pytest.raises(BadInput, match="'moved' is not a flag of this piece"):
        night_session(game, state.with_piece(state.of_side("attacker")[0].flagged("moved")))


@pytest.mark.parametrize("name", SHIPPED)
def test_nf_a_night_fighter_set_aside_leaves_a_night_one_fighter_fewer(game, ref, name):
    """Restricted play (balance): the scenario's force one fighter fewer, the others keep
    their counters and hexes, and the night reads and plays on."""
    state = start_state(game, ref, name, 3)
    fighters = night_of(game, state).fighters
    first, *rest = fighters
    aside = ref.set_aside(game, state, first.id)
    assert [(f.id, f.hex, f.status) for f in night_of(game, aside).fighters] == [
        (f.id, f.hex, f.status) for f in rest]
    assert not aside.has(first.id)
    assert ref.decision(game, aside) is not None
    bomber = next(p.id for p in state.pieces if p.side == "attacker")
    with pytest.raises(BadInput, match="only night fighters are set aside"):
        ref.set_aside(game, state, bomber)

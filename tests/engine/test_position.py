"""The position: one immutable state for every game, JSON without loss, hashed."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from warpress.engine.errors import BadInput
from warpress.engine.model import FrozenDict
from warpress.engine.position import Pending, Piece, Position, Verdict, freeze

WORDS = st.text(alphabet="abcdefghij-0123456789", min_size=1, max_size=6)
JSON = st.recursive(st.none() | st.booleans() | st.integers(-10**6, 10**6) | WORDS,
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(WORDS, inner, max_size=3), max_leaves=8).map(freeze)


@st.composite
def positions(draw) -> Position:
    ids = draw(st.lists(WORDS, min_size=0, max_size=6, unique=True))
    pieces = tuple(Piece(i, draw(WORDS), draw(st.none() | WORDS),
                         draw(st.sampled_from(["hex", "pool", "eliminated", "box"])),
                         draw(st.none() | WORDS), draw(st.integers(0, 4)),
                         frozenset(draw(st.lists(WORDS, max_size=2))),
                         FrozenDict(draw(st.dictionaries(WORDS, JSON, max_size=2))))
                   for i in ids)
    pending = tuple(Pending(draw(WORDS), draw(st.none() | WORDS),
                            tuple(draw(st.lists(WORDS, max_size=2))),
                            FrozenDict(draw(st.dictionaries(WORDS, JSON, max_size=2))))
                    for _ in range(draw(st.integers(0, 2))))
    verdict = draw(st.none() | st.builds(Verdict, st.none() | WORDS, WORDS, WORDS,
                                         st.lists(WORDS, max_size=2).map(tuple),
                                         st.none() | WORDS))
    return Position(game=draw(WORDS), scenario=draw(st.none() | WORDS),
                    turn=draw(st.integers(0, 50)), phase=draw(st.none() | WORDS),
                    side=draw(st.none() | WORDS), pieces=pieces,
                    tracks=FrozenDict(draw(st.dictionaries(WORDS, JSON, max_size=2))),
                    control=FrozenDict(draw(st.dictionaries(WORDS, WORDS, max_size=3))),
                    cards=FrozenDict({k: tuple(v) for k, v in draw(st.dictionaries(
                        WORDS, st.lists(WORDS, max_size=3), max_size=2)).items()}),
                    pending=pending,
                    data=FrozenDict(draw(st.dictionaries(WORDS, JSON, max_size=3))),
                    verdict=verdict)


@given(positions())
def test_json_round_trip_is_lossless(position):
    text = json.dumps(position.to_json())
    back = Position.from_json(json.loads(text))
    assert back == position
    assert back.to_json() == position.to_json()
    assert back.digest() == position.digest()


@given(positions())
def test_digest_is_of_the_canonical_json(position):
    import hashlib

    from warpress.engine.position import canonical

    assert position.digest() == hashlib.sha256(canonical(position.to_json())).hexdigest()


def test_a_change_changes_the_digest():
    p = Position(game="g", pieces=(Piece("a", "u", "x", "hex", "0101", 2),))
    moved = p.with_piece(p.piece("a").at("hex", "0102"))
    assert moved.digest() != p.digest()
    assert p.piece("a").place == "0101"  # the old position is untouched


def test_pieces_by_place_and_side():
    p = Position(game="g", pieces=(Piece("a", "u", "x", "hex", "0101"),
                                   Piece("b", "u", "y", "hex", "0101"),
                                   Piece("c", "u", "x", "pool", "reserve")))
    assert [q.id for q in p.in_hex("0101")] == ["a", "b"]
    assert [q.id for q in p.at("pool", "reserve")] == ["c"]
    assert [q.id for q in p.of_side("x")] == ["a", "c"]
    assert p.piece("c").on_board is False


def test_unknown_piece_lists_some():
    p = Position(game="g", pieces=(Piece("a", "u", "x", "hex", "0101"),))
    with pytest.raises(BadInput, match="no piece 'zz' .*pieces: a"):
        p.piece("zz")


@pytest.mark.parametrize("change, message", [
    (lambda d: d.pop("pieces"), "pieces must be a list"),
    (lambda d: d.update(turn="3"), "turn must be an integer"),
    (lambda d: d.update(format=9), "format 9"),
    (lambda d: d["pieces"].append(dict(d["pieces"][0])), "share an id"),
    (lambda d: d["pieces"][0].update(kind="attic"), "kind 'attic' is not one of"),
    (lambda d: d["control"].update({"0101": 3}), "control maps a hex to a side"),
])
def test_from_json_names_what_is_wrong(change, message):
    data = Position(game="g", pieces=(Piece("a", "u", "x", "hex", "0101"),)).to_json()
    change(data)
    with pytest.raises(BadInput, match=message):
        Position.from_json(data)

"""Tests of point-to-point graphs."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from warpress.engine.errors import BadInput
from warpress.engine.graph import Graph, GraphError

#   A - B - C - D      E - F    (G alone)
CHAIN = Graph("ABCDEFG", [("A", "B"), ("B", "C"), ("C", "D"), ("E", "F")])

#   A --1-- B --1-- C
#    \              |
#     ------5------ D ,  C-D 1
WEIGHTED = Graph("ABCD", [("A", "B", 1), ("B", "C", 1), ("C", "D", 1), ("A", "D", 5)])


def test_neighbours_and_adjacency():
    assert CHAIN.neighbours("B") == ["A", "C"]
    assert CHAIN.adjacent("A", "B") and CHAIN.adjacent("B", "A")
    assert not CHAIN.adjacent("A", "C")
    assert CHAIN.neighbours("G") == []
    assert "A" in CHAIN and "Z" not in CHAIN and ["x"] not in CHAIN
    assert len(CHAIN) == 7


def test_unknown_node_is_named():
    with pytest.raises(GraphError, match="node 'Z' is not on the map"):
        CHAIN.neighbours("Z")
    with pytest.raises(GraphError, match="'Q'"):
        Graph("AB", [("A", "Q")])
    assert issubclass(GraphError, BadInput) and issubclass(GraphError, ValueError)


@pytest.mark.parametrize(
    "edges, message",
    [
        ([("A", "A")], "to itself"),
        ([("A",)], "must be"),
        (["AB"], "must be"),
        ([("A", "B", -1)], "weight -1"),
        ([("A", "B", "x")], "weight 'x'"),
        ([("A", "B", 1), ("B", "A", 2)], "another weight"),
    ],
)
def test_bad_edges(edges, message):
    with pytest.raises(GraphError, match=message):
        Graph("AB", edges)


def test_duplicate_nodes_and_repeated_edges():
    with pytest.raises(GraphError, match="listed twice"):
        Graph("ABA", [])
    g = Graph("AB", [("A", "B"), ("B", "A")])
    assert g.edges() == [("A", "B", 1)]


def test_unweighted_shortest_path_and_distance():
    assert CHAIN.shortest_path("A", "D") == ["A", "B", "C", "D"]
    assert CHAIN.shortest_path("A", "A") == ["A"]
    assert CHAIN.shortest_path("A", "E") is None
    assert CHAIN.distance("A", "D") == 3
    assert CHAIN.distance("A", "F") is None
    assert CHAIN.distances_from("B") == {"B": 0, "A": 1, "C": 1, "D": 2}


def test_weighted_shortest_path_prefers_light_edges():
    assert WEIGHTED.weighted
    assert WEIGHTED.shortest_path("A", "D") == ["A", "B", "C", "D"]
    assert WEIGHTED.distance("A", "D") == 3
    heavy = Graph("ABCD", [("A", "B", 2), ("B", "C", 2), ("C", "D", 2), ("A", "D", 5)])
    assert heavy.shortest_path("A", "D") == ["A", "D"]
    assert heavy.distances_from("A") == {"A": 0, "B": 2, "C": 4, "D": 5}


def test_passable_filters_entered_nodes_not_the_start():
    ring = Graph("ABCDE", [("A", "B"), ("B", "C"), ("A", "D"), ("D", "E"), ("E", "C")])
    enemy = {"B"}
    path = ring.shortest_path("A", "C", passable=lambda n: n not in enemy)
    assert path == ["A", "D", "E", "C"]
    # The start may be impassable, the destination may not.
    assert ring.shortest_path("B", "C", passable=lambda n: n != "B") == ["B", "C"]
    assert ring.shortest_path("A", "B", passable=lambda n: n != "B") is None
    assert ring.distance("A", "C", passable=lambda n: n in "AC") is None


def test_reachable_counts_steps_or_weight():
    assert CHAIN.reachable("A", 0) == {"A"}
    assert CHAIN.reachable("A", 2) == {"A", "B", "C"}
    assert CHAIN.reachable("A", 2, passable=lambda n: n != "B") == {"A"}
    assert WEIGHTED.reachable("A", 2) == {"A", "B", "C"}
    assert WEIGHTED.reachable("D", 1.5) == {"D", "C"}
    with pytest.raises(GraphError):
        CHAIN.reachable("A", -1)


def test_connected_components():
    assert CHAIN.connected_components() == [["A", "B", "C", "D"], ["E", "F"], ["G"]]
    cut = CHAIN.connected_components(passable=lambda n: n != "B")
    assert cut == [["A"], ["C", "D"], ["E", "F"], ["G"]]


def test_weight_and_edges():
    assert WEIGHTED.weight("A", "D") == 5
    with pytest.raises(GraphError, match="no edge joins 'A' and 'C'"):
        WEIGHTED.weight("A", "C")
    assert len(WEIGHTED.edges()) == 4


def test_non_string_nodes():
    g = Graph([1, 2, 3], [(1, 2), (2, 3)])
    assert g.shortest_path(1, 3) == [1, 2, 3]


@st.composite
def random_graphs(draw):
    n = draw(st.integers(1, 8))
    pairs = [(a, b) for a in range(n) for b in range(a + 1, n)]
    chosen = draw(st.lists(st.sampled_from(pairs), unique=True)) if pairs else []
    ws = draw(st.lists(st.integers(1, 5), min_size=len(chosen), max_size=len(chosen)))
    return Graph(range(n), [(a, b, w) for (a, b), w in zip(chosen, ws, strict=True)])


@settings(max_examples=100, deadline=None)
@given(random_graphs(), st.data())
def test_paths_are_valid_and_symmetric(g, data):
    a = data.draw(st.sampled_from(g.nodes))
    b = data.draw(st.sampled_from(g.nodes))
    path = g.shortest_path(a, b)
    assert g.distance(a, b) == g.distance(b, a)
    if path is None:
        assert g.distance(a, b) is None
        assert not any(a in c and b in c for c in g.connected_components())
    else:
        assert path[0] == a and path[-1] == b
        assert sum(g.weight(x, y) for x, y in zip(path, path[1:], strict=False)) == g.distance(a, b)
        for c in g.nodes:
            dac, dcb = g.distance(a, c), g.distance(c, b)
            if dac is not None and dcb is not None:
                assert g.distance(a, b) <= dac + dcb

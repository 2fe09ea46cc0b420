"""Point-to-point maps: undirected graphs of named points.

Edges are ``(a, b)`` (length 1) or ``(a, b, weight)``. Shortest paths use breadth-first
search when every edge has length 1 and Dijkstra's algorithm otherwise. Ties are broken
by the order in which nodes and edges were given, so results are deterministic.

``passable(node)`` filters the nodes a path may **enter**: it is asked about every node
of a path except the start (so the destination must be passable too). Use it for supply
traced through friendly points, or movement that may not enter enemy-held points.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from numbers import Real
from typing import Any

from .errors import BadInput

Node = Hashable
Passable = Callable[[Node], bool] | None
Weight = float  # an edge's weight, a distance: an int or a float
_NO_GOAL = object()


class GraphError(BadInput):
    """A node, an edge or a graph definition is not allowed; the message names it."""


class Graph:
    """An undirected graph with optional non-negative edge weights."""

    def __init__(self, nodes: Iterable[Node], edges: Iterable[Sequence[Any]]):
        self._adj: dict[Node, dict[Node, Weight]] = {}
        for node in nodes:
            if node in self._adj:
                raise GraphError(f"node {node!r} is listed twice")
            self._adj[node] = {}
        self._order = {node: i for i, node in enumerate(self._adj)}
        self.weighted = False
        for edge in edges:
            self._add_edge(edge)

    def _add_edge(self, edge: Sequence[Any]) -> None:
        """Add one ``(a, b)`` or ``(a, b, weight)`` edge, checking it."""
        if isinstance(edge, str | bytes) or len(edge) not in (2, 3):
            raise GraphError(f"edge {edge!r} must be (a, b) or (a, b, weight)")
        a, b = self._check(edge[0]), self._check(edge[1])
        weight: Weight = edge[2] if len(edge) == 3 else 1
        if isinstance(weight, bool) or not isinstance(weight, Real) or weight < 0:
            raise GraphError(f"edge {edge!r}: weight {weight!r} must be a number >= 0")
        if a == b:
            raise GraphError(f"edge {edge!r} joins node {a!r} to itself")
        old = self._adj[a].get(b)
        if old is not None and old != weight:
            raise GraphError(f"edge {edge!r} repeats {a!r}-{b!r} with another weight ({old})")
        self._adj[a][b] = weight
        self._adj[b][a] = weight
        if weight != 1:
            self.weighted = True

    def _check(self, node: Node) -> Node:
        """Return ``node`` if it is in the graph, else raise :class:`GraphError` naming it."""
        try:
            if node in self._adj:
                return node
        except TypeError:
            pass
        raise GraphError(f"node {node!r} is not on the map")

    # ----------------------------------------------------------------- basics

    def __repr__(self) -> str:
        return f"Graph({len(self._adj)} nodes, {len(self.edges())} edges)"

    def __contains__(self, node: object) -> bool:
        try:
            return node in self._adj
        except TypeError:
            return False

    def __len__(self) -> int:
        return len(self._adj)

    def __iter__(self) -> Iterator[Node]:
        return iter(self._adj)

    @property
    def nodes(self) -> list[Node]:
        """Return the nodes in the order given."""
        return list(self._adj)

    def edges(self) -> list[tuple[Node, Node, Weight]]:
        """Return each edge once as ``(a, b, weight)``, ``a`` given before ``b``."""
        return [
            (a, b, w)
            for a, nbrs in self._adj.items()
            for b, w in nbrs.items()
            if self._order[a] < self._order[b]
        ]

    def neighbours(self, node: Node) -> list[Node]:
        """Return the nodes joined to ``node``, in the order the edges were given."""
        return list(self._adj[self._check(node)])

    def adjacent(self, a: Node, b: Node) -> bool:
        """Return whether an edge joins ``a`` and ``b``."""
        return self._check(b) in self._adj[self._check(a)]

    def weight(self, a: Node, b: Node) -> Weight:
        """Return the weight of the edge ``a``-``b``."""
        try:
            return self._adj[self._check(a)][self._check(b)]
        except KeyError:
            raise GraphError(f"no edge joins {a!r} and {b!r}") from None

    # ----------------------------------------------------------------- searches

    def _search(
        self, start: Node, passable: Passable, limit: Weight | None = None, goal: Node = _NO_GOAL
    ) -> tuple[dict[Node, Weight], dict[Node, Node]]:
        """Return distances and predecessors from ``start`` (stopping early at ``goal``)."""
        if self.weighted:
            return self._dijkstra(start, passable, limit, goal)
        return self._bfs(start, passable, limit, goal)

    def _bfs(
        self, start: Node, passable: Passable, limit: Weight | None, goal: Node
    ) -> tuple[dict[Node, Weight], dict[Node, Node]]:
        """Breadth-first search for unit-length edges."""
        dist: dict[Node, Weight] = {start: 0}
        prev: dict[Node, Node] = {}
        queue = deque([start])
        while queue:
            node = queue.popleft()
            if node == goal:
                break
            step = dist[node] + 1
            if limit is not None and step > limit:
                continue
            for nbr in self._adj[node]:
                if nbr not in dist and (passable is None or passable(nbr)):
                    dist[nbr] = step
                    prev[nbr] = node
                    queue.append(nbr)
        return dist, prev

    def _dijkstra(
        self, start: Node, passable: Passable, limit: Weight | None, goal: Node
    ) -> tuple[dict[Node, Weight], dict[Node, Node]]:
        """Dijkstra's algorithm; heap entries carry the node's given order for ties."""
        best: dict[Node, Weight] = {start: 0}
        prev: dict[Node, Node] = {}
        done: dict[Node, Weight] = {}
        heap: list[tuple[Weight, int, Node]] = [(0, self._order[start], start)]
        while heap:
            d, _, node = heapq.heappop(heap)
            if node in done:
                continue
            done[node] = d
            if node == goal:
                break
            for nbr, w in self._adj[node].items():
                nd = d + w
                if nbr in done or (limit is not None and nd > limit):
                    continue
                if (nbr not in best or nd < best[nbr]) and (passable is None or passable(nbr)):
                    best[nbr] = nd
                    prev[nbr] = node
                    heapq.heappush(heap, (nd, self._order[nbr], nbr))
        return done, prev

    def shortest_path(self, a: Node, b: Node, passable: Passable = None) -> list[Node] | None:
        """Return a shortest path ``[a, ..., b]``, or None if ``b`` cannot be reached."""
        self._check(a)
        self._check(b)
        if a == b:
            return [a]
        dist, prev = self._search(a, passable, goal=b)
        if b not in dist:
            return None
        path = [b]
        while path[-1] != a:
            path.append(prev[path[-1]])
        return path[::-1]

    def distance(self, a: Node, b: Node, passable: Passable = None) -> Weight | None:
        """Return the length of a shortest path (edges or total weight), or None."""
        self._check(b)
        dist, _ = self._search(self._check(a), passable, goal=b)
        return dist.get(b)

    def distances_from(self, a: Node, passable: Passable = None) -> dict[Node, Weight]:
        """Return the distance from ``a`` to every node it can reach (``a`` itself: 0)."""
        return self._search(self._check(a), passable)[0]

    def reachable(self, a: Node, max_steps: Weight, passable: Passable = None) -> set[Node]:
        """Return the nodes within ``max_steps`` (edges, or total weight) of ``a``, ``a`` too."""
        if max_steps < 0:
            raise GraphError(f"max_steps must be >= 0, not {max_steps!r}")
        return set(self._search(self._check(a), passable, limit=max_steps)[0])

    def connected_components(self, passable: Passable = None) -> list[list[Node]]:
        """Return the groups of mutually reachable nodes, each in given order.

        Groups are ordered by their first node. With ``passable``, impassable nodes are
        left out entirely.
        """
        seen: set[Node] = set()
        groups = []
        for node in self._adj:
            if node in seen or (passable is not None and not passable(node)):
                continue
            reach = self._bfs(node, passable, None, _NO_GOAL)[0]
            group = sorted(reach, key=self._order.__getitem__)
            seen.update(group)
            groups.append(group)
        return groups

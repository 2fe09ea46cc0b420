"""``opening.shared_chains`` (openings whose army is the tail of a bigger one join its chain)
against the plain definition written in the test: each opening, longest first, joins the
first chain with the same denominator whose army ends with its own."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st
from warpress.games.axis_allies.rules import opening as O


def pairwise_chains(ops):
    """The definition, army against army: each opening joins the first chain (longest
    first) whose army ends with its own, its states shifted by the units it lacks."""
    hosts: list = []
    members: list[list] = []
    for op in sorted(ops, key=lambda o: -len(o.attacker)):
        k = next((k for k, host in enumerate(hosts) if host.den == op.den
                  and host.attacker[len(host.attacker) - len(op.attacker):] == op.attacker),
                 None)
        if k is None:
            hosts.append(op)
            members.append([(op, 0)])
        else:
            members[k].append((op, len(hosts[k].attacker) - len(op.attacker)))
    return [O.Opening(host.attacker, shifted_starts(joined), host.den)
            for host, joined in zip(hosts, members, strict=True)]


def shifted_starts(joined) -> dict:
    total: Counter = Counter()
    for op, shift in joined:
        total.update({(i + shift, j): n for (i, j), n in op.start.items()})
    return dict(total)


armies = st.lists(st.sampled_from(["infantry", "armor", "fighter", "bomber"]), max_size=7)
starts = st.dictionaries(st.tuples(st.integers(0, 3), st.integers(0, 3)), st.integers(1, 9),
                         min_size=1, max_size=3)
openings = st.lists(st.builds(O.Opening, armies.map(tuple), starts, st.sampled_from([6, 36])),
                    max_size=12)


@settings(max_examples=300, deadline=None)
@given(openings)
def test_shared_chains_match_the_pairwise_definition(ops):
    assert O.shared_chains(ops) == pairwise_chains(ops)


def test_a_type_in_two_runs_is_a_tail_only_where_its_runs_match():
    a = O.Opening(("fighter", "bomber", "fighter", "fighter"), {(0, 0): 1}, 6)
    tail = O.Opening(("bomber", "fighter", "fighter"), {(0, 0): 2}, 6)
    cut = O.Opening(("fighter", "fighter", "fighter"), {(0, 0): 3}, 6)  # not a tail of a
    part = O.Opening(("fighter",), {(0, 0): 4}, 6)
    chains = O.shared_chains([cut, part, tail, a])
    assert [c.attacker for c in chains] == [a.attacker, cut.attacker]
    assert chains[0].start == {(0, 0): 1, (1, 0): 2, (3, 0): 4}
    assert chains == pairwise_chains([cut, part, tail, a])

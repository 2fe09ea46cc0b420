"""Every worked example of the rules (ids M-EX1 ...), by id."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from warpress.engine.dice import GivenDice
from warpress.engine.errors import RuleViolation
from warpress.games.midway.rules import area as A
from warpress.games.midway.rules import combat as C
from warpress.games.midway.rules import movement as M
from warpress.games.midway.rules import search as S
from warpress.games.midway.rules import solitaire as SOL
from warpress.games.midway.rules import victory as V


def test_m_ex1_us_start_memo_f4(game):
    assert M.check_us_start(game, "F-4") == "F-4"
    assert M.check_path(game, "us-fleet", ["F-4", "E-3", "D-3"], turn=1) == ["F-4", "E-3", "D-3"]
    with pytest.raises(RuleViolation, match=r"3\.2\(1\)"):
        M.check_us_start(game, "F-6")
    with pytest.raises(RuleViolation, match=r"3\.2\(1\)"):
        M.check_us_start(game, "E-4")


def test_m_ex2_end_of_turn_3_us_sank_3(lookup):
    assert lookup("victory", "turn=3", "japan_carriers=1", "us_carriers=3")["winner"] == "us"


def test_m_ex3_movement_plan_string(game):
    path = M.check_path(game, "us-fleet", ["F-4", "E-3", "D-3"], turn=1)
    assert M.plan_text(path) == "F-4→E-3→D-3"
    assert M.parse_plan(game, "F-4→E-3→D-3") == path
    assert M.parse_plan(game, "F-4 -> E-3 -> D-3") == path


def test_m_ex4_search_at_distance_5(lookup):
    assert lookup("search", "side=us", "distance=5") == {"aop": 2}
    assert lookup("search", "side=japan", "distance=5") == {"aop": 1}


def test_m_ex5_base_search_beats_the_fleet(lookup):
    assert lookup("search", "side=us", "distance=5", "base_distance=4") == {"aop": 4}
    assert lookup("search", "side=japan", "distance=5") == {"aop": 1}


def test_m_ex6_invasion_force_is_a_target(game, lookup):
    assert lookup("search", "side=us", "distance=3") == {"aop": 4}
    assert lookup("search", "side=japan", "distance=4") == {"aop": 2}
    # The same from the map: the US fleet 4 from the 1st Air Fleet, 3 from the Invasion Force.
    where = S.Positions(ichikokan="B-3", us_fleet="F-3", invasion_force="C-4")
    assert S.nearest(game, "F-3", ["B-3", "C-4"]) == 3
    assert S.search_phase(game, where, turn=5)["japan"] == 2


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 30), st.one_of(st.none(), st.integers(1, 30)), st.booleans())
def test_m_ex7_results_clamped_to_1_4(game, dist, base_dist, destroyed):
    assert 1 <= S.japan_aop(game, dist) <= 4
    assert 1 <= S.us_aop(game, dist, base_dist, destroyed) <= 4


def test_m_ex8_base_attack_costs_aop_down_to_0(lookup):
    assert lookup("search", "side=japan", "distance=5", "base_strikes=2") == {"aop": 0}


def test_m_ex9_air_rendezvous_groups(game, build):
    rows = [(f"{c}{i}", "a6m" if i == 0 else "d3a", A.display(game, d).id, f"{c}-deck-{b}")
            for d, carriers in (("cardiv1", ("akagi", "kaga")), ("cardiv2", ("hiryu", "soryu")))
            for c in carriers for i, b in enumerate(("front", "rear"))]
    state = build(rows)
    uids = [r[0] for r in rows]
    two = C.launch(game, C.launch(game, state, uids[:4], "B-3", "g1"), uids[4:], "B-3", "g2")
    assert len(two.group("g1")) == len(two.group("g2")) == 4
    one = C.launch(game, state, uids, "B-3", "g")
    assert len(one.group("g")) == 8


def test_m_ex10_sbd_with_tbd_moves_2(game, build):
    state = build([("s", "sbd", "tf16", "enterprise-deck-front"),
                   ("t", "tbd", "tf16", "enterprise-deck-rear")])
    state = C.launch(game, state, ["s", "t"], "F-3", "g")
    assert C.group_move(game, state.group("g")) == 2


def test_m_ex11_d3a_and_b5n_cannot_combine(game, build):
    state = build([("v", "d3a", "cardiv1", "akagi-hangar", 1),
                   ("k", "b5n", "cardiv1", "akagi-hangar", 1)])
    with pytest.raises(RuleViolation, match=r"8\.3\(4\)"):
        A.reorganize(game, state, "v", "k")


def test_m_ex12_us_strike_chooses_one_division(game, build):
    rows = [("s", "sbd", "tf16", "enterprise-deck-front"),
            ("a", "a6m", "cardiv1", "akagi-hangar"), ("h", "a6m", "cardiv2", "hiryu-hangar")]
    state = C.launch(game, build(rows), ["s"], "C-3", "g")
    with pytest.raises(RuleViolation, match=r"9\.1"):
        C.air_strike(game, state, C.Strike(("s",), "ichikokan"), GivenDice({}))
    strike = C.Strike(("s",), "cardiv2", {"s": "hiryu"})
    after, report = C.air_strike(game, state, strike,
                                 GivenDice({"aa": [6] * 4, "attack": [1, 1], "hit_location": 1}))
    assert report.attack_hits == {"hiryu": 2} and after.sunk == frozenset({"hiryu"})
    assert after.unit("a") == state.unit("a") and A.status(game, after, "akagi") == "intact"


def test_m_ex13_base_attack_example(game, build):
    """6 attack steps at 3 - 1 = 2; three dice <= 2; 2 hits applied; SB2U's box lost."""
    rows = [("v1", "d3a", "cardiv1", "akagi-deck-front"),
            ("k1", "b5n", "cardiv1", "akagi-deck-rear"),
            ("v2", "d3a", "cardiv1", "kaga-deck-front"), ("z1", "a6m", "cardiv1", "kaga-deck-rear"),
            ("sb2u", "sb2u", "midway-base", "runway-2"), ("f2a", "f2a", "midway-base", "runway-3")]
    state = C.launch(game, build(rows), ["v1", "k1", "v2", "z1"], "F-6", "g")
    assert S.base_attack_operations(game, 4) == 2
    strike = C.Strike(("v1", "k1", "v2", "z1"), "midway-base", base_attack_phase=True,
                      runway_boxes=("runway-1", "runway-2"))
    dice = GivenDice({"aa": [6] * 6, "attack": [1, 2, 2, 3, 5, 6]})
    state, report = C.air_strike(game, state, strike, dice)
    assert report.aa_dice == 6 and report.attack_hits == {"base": 3}
    assert report.base_hits_applied == 2
    assert state.garrison == 4 and state.base_hits_turn == 2
    assert {b for d, b in state.damage if d == "midway-base"} == {"runway-1", "runway-2"}
    assert "sb2u" in report.removed and "f2a" in [u.uid for u in state.units]
    assert not A.base_destroyed(game, state)
    assert {state.unit(u).box for u in ("v1", "k1", "v2", "z1")} == {"return-1"}
    later, applied = A.hit_base(game, A.new_turn(state), 1)
    assert applied == 1 and A.base_destroyed(game, later)


def test_m_ex13_base_attack_example_as_tables(lookup):
    assert lookup("hit-number", "target=base", "attack=3") == {"hit_on": 2}
    assert lookup("base-damage", "garrison=6", "hits_this_turn=0", "hits=3") == {
        "applied": 2, "ignored": 1, "garrison": 4, "base_destroyed": False}
    assert lookup("base-damage", "garrison=4", "hits_this_turn=0", "hits=1")["base_destroyed"]


def test_m_ex14_first_hit_front_box(game, build, lookup):
    state = build([("z", "a6m", "cardiv1", "akagi-deck-front"),
                   ("k", "b5n", "cardiv1", "akagi-hangar")])
    state = A.hit_carrier(game, state, "akagi", GivenDice({"hit_location": 2}))
    assert ("cardiv1", "akagi-deck-front") in state.damage and "z" in [u.uid for u in state.removed]
    assert lookup("carrier-damage", "damaged=no", "roll=2") == {"box": "front", "sunk": False}


def test_m_ex15_second_hit_sinks(game, build, lookup):
    state = build([("z", "a6m", "cardiv1", "akagi-deck-rear"),
                   ("k", "b5n", "cardiv1", "akagi-hangar")],
                  damage=frozenset({("cardiv1", "akagi-deck-front")}))
    state = A.hit_carrier(game, state, "akagi", GivenDice({}))
    assert "akagi" in state.sunk and A.aboard(game, state, "akagi") == ()
    assert {u.uid for u in state.removed} == {"z", "k"}
    assert lookup("carrier-damage", "damaged=yes") == {"box": "none", "sunk": True}


def test_m_ex16_malfunction_cancels_the_prototype_scout(game):
    prototype = S.card_id(game, S.PROTOTYPE_SCOUT)
    malfunction = S.card_id(game, S.SCOUT_MALFUNCTION)
    assert S.search_cards(game, [prototype, malfunction]) == (malfunction,)


def test_m_ex17_prototype_not_after_malfunction(game):
    prototype = S.card_id(game, S.PROTOTYPE_SCOUT)
    malfunction = S.card_id(game, S.SCOUT_MALFUNCTION)
    with pytest.raises(RuleViolation, match=r"11\.0\(2\)"):
        S.search_cards(game, [malfunction, prototype])


def test_m_ex18_solitaire_turn_3_no_us_carrier_sunk(game, lookup):
    assert lookup("victory", "turn=3", "japan_carriers=1", "us_carriers=3")["winner"] == "us"
    assert V.victory(game, 3, 1, 3)["winner"] == "us"


def test_m_ex19_solitaire_turn_3_one_us_carrier_sunk(lookup):
    assert lookup("victory", "turn=3", "japan_carriers=1", "us_carriers=2")["winner"] == "none"


def test_m_ex20_solitaire_card_06_stays(game, lookup):
    assert lookup("solitaire-move", "card=6") == {"move": "stay", "hexes": 0, "prefer": "none"}
    assert SOL.solitaire_move(game, "F-3", "D-3", 6, turn=3) == "F-3"


def test_m_ex21_solitaire_start_search(game):
    assert S.search_phase(game, S.Positions("D-3", "F-3"), turn=3) == {"japan": 4, "us": 4}
    start = SOL.solitaire_start(game)
    assert start.sunk == frozenset({"akagi", "kaga", "soryu"})
    assert start.garrison == 4 and A.status(game, start, "yorktown") == "damaged"

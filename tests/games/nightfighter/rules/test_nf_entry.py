"""Bomber entry (chits, pool draws, torpedo columns) and intruders (Serrate, Chase)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from nf_helpers import bomber, fighter, night
from warpress.engine.dice import GivenDice
from warpress.engine.errors import RuleViolation
from warpress.games.nightfighter.rules import intruders, movement, phases


def pool(*ids, kind="bomber", mp="2"):
    return [bomber(i, None, status="pool", kind=kind, mp=mp) for i in ids]


def test_chits_drawn_without_replacement_then_refilled(game):
    total = len(game.section("entry-chits"))
    n = night()
    seen = []
    for _ in range(total):
        n, chit = phases.draw_chit(game, n, GivenDice({"chit": 1}))
        seen.append(chit)
    assert len(set(seen)) == total
    n, chit = phases.draw_chit(game, n, GivenDice({"chit": 1}))
    assert n.chits_drawn == (chit,)


def test_three_bombers_enter_the_three_columns(game):
    n = night(pool("101", "102", "103"), chit_face="red")
    after = phases.bomber_entry(game, n, GivenDice({"pool": [1, 1], "chit": 1}), 3,
                                mps=(1, 2, 1))
    numbers = movement.chit_numbers(game, "01", "red")
    hexes = sorted(after.bomber(b).hex for b in ("101", "102", "103"))
    expected = sorted([f"{numbers[0]:02d}01", f"{numbers[1]:02d}02", f"{numbers[2]:02d}01"])
    assert hexes == expected


def test_one_bomber_uses_the_top_number_on_the_secret_face(game):
    n = night(pool("101"), chit_face="yellow")
    after = phases.bomber_entry(game, n, GivenDice({"chit": 2}), 1)
    top = movement.chit_numbers(game, "02", "yellow")[0]
    assert after.bomber("101").hex == f"{top:02d}02"


def test_torpedo_bomber_enters_columns_07_12(game):
    n = night(pool("361", kind="torpedo"))
    after = phases.bomber_entry(game, n, GivenDice({"chit": 1}), 1, mps=(2,))
    column = int(after.bomber("361").hex[:2])
    assert 7 <= column <= 12


def test_only_one_intruder_per_draw(game):
    n = night(pool("501", "502", kind="intruder", mp="5") + pool("101"))
    after = phases.bomber_entry(game, n, GivenDice({"pool": [1, 1], "chit": 1}), 2,
                                mps=(1, 1))
    entered = [b for b in after.bombers if b.on_map]
    assert sorted(b.kind for b in entered) == ["bomber", "intruder"]
    top = movement.chit_numbers(game, "01", "red")[0]
    assert next(b for b in entered if b.kind == "intruder").hex == f"{top:02d}01"


def test_empty_pool_no_entry(game):
    n = night([bomber("101", "0712")])
    assert phases.bomber_entry(game, n, GivenDice({}), 3) == n


# --- intruders ---------------------------------------------------------------------------------


def mosquito(hex_id="0905", **kw):
    return bomber("501", hex_id, unit="mosquito-intruder", kind="intruder", mp="5", **kw)


def test_intruder_without_fighters_flies_like_a_bomber(game):
    n = night([mosquito()], [fighter("204", "0101", facing=0)])
    after, kind = intruders.move_intruder(game, n, "501")
    assert kind == "bomber" and after.bomber("501").hex == "0910"


def test_t39_serrate_toward_the_nearest_fighter_column(game):
    n = night([mosquito()], [fighter("204", "1215", facing=0)])
    assert intruders.behaviour(game, n, n.bomber("501")) == "serrate"
    side = intruders.serrate_side(game, n, n.bomber("501"))
    after, kind = intruders.move_intruder(game, n, "501")
    end = after.bomber("501").hex
    assert kind == "serrate" and end[:2] == "10" and side in ("left", "right")


def test_serrate_stops_on_the_target_hex(game):
    n = night([mosquito()], [fighter("204", "0908", facing=0)])
    after, kind = intruders.move_intruder(game, n, "501")
    assert kind == "serrate" and after.bomber("501").hex == "0908"
    assert after.bomber("501").moved == 3


def test_chase_needs_a_plan_and_stops_on_the_target(game):
    n = night([mosquito()], [fighter("204", "0907", facing=0)])
    n = n.with_bomber(replace(n.bomber("501"), hex="0905"))
    assert intruders.ai_target(game, n, n.bomber("501")) == "204"
    assert intruders.behaviour(game, n, n.bomber("501")) == "chase"
    with pytest.raises(RuleViolation, match="27.2.3"):
        intruders.move_intruder(game, n, "501")
    after, kind = intruders.move_intruder(game, n, "501", plan="FFFRF")
    assert kind == "chase" and after.bomber("501").hex == "0907"


def test_slower_intruder_uses_one_mp_less(game):
    n = night([mosquito()], [fighter("204", "0101", facing=0)])
    after, _ = intruders.move_intruder(game, n, "501", slower=True)
    assert after.bomber("501").hex == "0909"


def test_only_intruders_move_as_intruders(game):
    n = night([bomber("101", "0712")])
    with pytest.raises(RuleViolation, match="27.2"):
        intruders.move_intruder(game, n, "101")

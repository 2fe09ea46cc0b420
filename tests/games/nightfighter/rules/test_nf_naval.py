"""Naval operations: flare droppers on their arrow paths, torpedo launch, the flare counter."""

from __future__ import annotations

from dataclasses import replace

import pytest
from nf_helpers import bomber, night
from warpress.engine.dice import GivenDice
from warpress.engine.errors import BadInput, RuleViolation
from warpress.games.nightfighter.rules import combat, naval, phases, searchlights
from warpress.games.nightfighter.rules.detection import environment


def test_flare_dropper_enters_and_follows_its_path(game):
    route = naval.flare_route(game, 9)
    n = night([bomber("361", None, status="pool", kind="flare-dropper", mp="3")])
    n = naval.enter_flare_dropper(game, n, "361", 9, 2)
    b = n.bomber("361")
    assert b.hex == route[1] and b.route == 9
    after = phases.bomber_movement(game, n, GivenDice({}))
    assert after.bomber("361").hex == route[4]


def test_flare_dropper_leaves_past_the_end_of_its_path(game):
    route = naval.flare_route(game, 9)
    n = night([bomber("361", route[-1], kind="flare-dropper", mp="3", route=9)])
    assert phases.bomber_movement(game, n, GivenDice({})).bomber("361").status == "exited"


def test_flare_route_bad_number_and_off_path(game):
    with pytest.raises(BadInput, match="19"):
        naval.flare_route(game, 19)
    with pytest.raises(RuleViolation, match="26.2.1"):
        naval.route_move(game, naval.flare_route(game, 1), "1827", 2, 2)


def test_flare_dropper_enters_from_the_chit_top_number(game):
    n = night([bomber("361", None, status="pool", kind="flare-dropper", mp="3")])
    after = phases.bomber_entry(game, n, GivenDice({"chit": 1}), 1, mps=(1,))
    top = int(game.get("entry-chits", "01").get("red")[0])
    assert after.bomber("361").hex == naval.flare_route(game, top)[0]


def test_t37_t38_flare_counter_over_a_night(game):
    route = naval.flare_route(game, 9)
    box = [h for h in route if naval.in_task_force_box(game, night(task_force=True), h)]
    start = route[route.index(box[0]) - 1]
    n = night([bomber("361", start, kind="flare-dropper", mp="1", route=9)], turn=4,
              zones=("N",), task_force=True)
    n = phases.bomber_movement(game, n, GivenDice({}))
    assert n.flare_counter == 7 and naval.task_force_lit(n)
    for turn in (5, 6):
        n = phases.end_turn(replace(n, bombers=()))
        assert n.turn == turn and naval.task_force_lit(n)
    n = phases.end_turn(n)
    assert n.turn == 7 and n.flare_counter is None and not naval.task_force_lit(n)


def test_torpedo_bomber_launches_in_the_box(game):
    n = night([bomber("371", "0919", kind="torpedo", mp="3")], zones=("N",), task_force=True)
    after = phases.bomber_movement(game, n, GivenDice({}))
    b = after.bomber("371")
    assert b.hex == "0921" and b.launched


def test_lit_task_force_box_flare_roll_and_reaction(game):
    env = environment(game, "half", "good")
    n = night([bomber("371", "0922")], zones=("N",), task_force=True, flare_counter=5,
              env=env, turn=3)
    assert searchlights.search_dice_for_zone(game, n, "N") == 2
    assert combat.lit_for_reaction(game, n, n.bomber("371"))
    dark = replace(n, flare_counter=None)
    assert not combat.lit_for_reaction(game, dark, dark.bomber("371"))
    with pytest.raises(RuleViolation, match="26.1"):
        searchlights.search_dice_for_zone(game, dark, "N")

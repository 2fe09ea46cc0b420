"""Battles (10.0-10.22) as a session fights them: the set-up, the rounds, the markers, the
combat steps, hits, landing and the round's end, with the US decisions asked; each test is
named after the digest's worked example it plays (T50-T101) or the rule it checks."""

from __future__ import annotations

import pytest
from nz_session import RULES, Rolls, apply, new
from warpress.engine.dice import SeededDice
from warpress.engine.errors import RuleViolation
from warpress.games.nimitz.rules import battle as bt
from warpress.games.nimitz.rules import fire
from warpress.games.nimitz.rules.positions import BATTALION_BOX, DAMAGED, JAPAN, US, Run

POINT = "samoa"


def battle_at(game, us=(), japan=(), campaign="1942", point=POINT, transport=()):
    """A run with only ``us`` and ``japan`` at ``point`` (every other unit there moved
    away), the battle begun; ``transport``: ground units that came by transport."""
    run = Run(game, new(game, campaign))
    for p in run.at(point):
        run.place(p.id, "point", "west-coast" if p.side == US else "japan")
    for pid in (*us, *japan):
        run.place(pid, "point", point, order=1, transport=pid in transport)
    run.clear_due()
    run.phase("combat")
    run.data["fought"] = [point]
    bt.begin(run, point)
    return run


def advance(run, dice=None):
    bt.advance(run, dice or SeededDice(3))
    return run


def answer(game, run, name, args, dice=None):
    """Answer the battle's decision as the session does; a new run of the result."""
    step = RULES.apply(game, run.position(), name, args, dice or SeededDice(9))
    return Run(game, step.state), [a.text for a in step.announcements]


def slots(run):
    return dict(bt.state(run)["slot"])


# --- set-up ----------------------------------------------------------------------------------


def test_us_ships_are_placed_by_the_player_carriers_go_to_the_us_sea(game):
    """10.1.2: carriers to the US sea area; the player places the other ships."""
    run = advance(battle_at(game, us=("lexington", "chester-louisville"),
                            japan=("jp-desron-1",)))
    assert run.pos.due.kind == "place" and run.pos.due.data["ships"] == ("chester-louisville",)
    run, _ = answer(game, run, "place", {"unit": "chester-louisville", "area": "coastal"})
    assert slots(run)["lexington"] == "us-sea" and slots(run)["chester-louisville"] == "coastal"
    with pytest.raises(RuleViolation, match="10.1.2"):
        bt.place_us_ship(run, "lexington", "coastal")


def test_t50_t51_the_airfield_and_the_complement(game):
    """T50 (10.1.2): US airfield capacity = its land aircraft; T51 (10.1.3): Lexington
    fights with F4F x1, SBD x2, TBD x1, a new set every battle."""
    run = advance(battle_at(game, us=("lexington", "us-11bg", "us-18fg", "us-battalion#9"),
                            japan=("jp-desron-1",)))
    b = bt.state(run)
    assert b["capacity"][US] == 2
    planes = sorted(run.pieces[p].unit for p, h in b["home"].items() if h == "lexington")
    assert planes == ["f4f", "sbd", "sbd", "tbd"]


def test_t52_three_carriers_eight_escorts_landing(game):
    """T52 (10.2.1): carriers and a landing force: as many escorts in the Japanese sea area
    as there are carriers, the rest coastal (E30)."""
    carriers = ("kaga", "akagi", "soryu")
    escorts = ("nagato-mutsu", "hiei-kirishima", "tone-chikuma", "myoko-haguro",
               "ashigara-nachi", "aoba-kinugasa", "jp-desron-1", "jp-desron-4")
    run = advance(battle_at(game, us=("us-battalion#9",),
                            japan=(*carriers, *escorts, "jp-battalion#1"),
                            transport=("jp-battalion#1",)))
    s = slots(run)
    assert all(s[c] == "japanese-sea" for c in carriers)
    assert sum(s[e] == "japanese-sea" for e in escorts) == 3
    assert sum(s[e] == "coastal" for e in escorts) == 5
    assert s["jp-battalion#1"] == "transport"


def test_t53_carriers_only_all_ships_to_the_japanese_sea(game):
    run = advance(battle_at(game, us=("lexington",), japan=("kaga", "jp-desron-1")))
    assert slots(run)["kaga"] == slots(run)["jp-desron-1"] == "japanese-sea"


def test_t54_no_carrier_all_ships_coastal(game):
    run = advance(battle_at(game, us=("us-battalion#9",),
                            japan=("nagato-mutsu", "jp-desron-1")))
    assert slots(run)["nagato-mutsu"] == slots(run)["jp-desron-1"] == "coastal"


def test_t55_japanese_submarines_go_for_the_us_carriers(game):
    run = advance(battle_at(game, us=("lexington",), japan=("jp-1st-sub-flotilla",)))
    assert slots(run)["jp-1st-sub-flotilla"] == "us-sea"


def test_us_submarines_join_the_japanese_ships_or_stay_out(game):
    """10.1.2, E22: a US submarine goes where the Japanese ships are; with none, it stays
    out of the battle."""
    run = advance(battle_at(game, us=("us-subdiv#1",), japan=("jp-desron-1",)))
    assert slots(run)["us-subdiv#1"] == "coastal"
    run = advance(battle_at(game, us=("us-subdiv#1", "us-battalion#9"),
                            japan=("jp-battalion#1",)))
    assert slots(run)["us-subdiv#1"] == "out"


def test_t57_t58_rounds_and_the_battle_plan_count(game):
    """T57 (10.3): die 9 -> 4 rounds; T58 (10.4): ships, ground units (on transports too)
    and land aircraft count, carrier aircraft and transports do not: 6 units -> 2."""
    japan = ("kaga", "nagato-mutsu", "jp-desron-1", "jp-battalion#1", "jp-16th-division",
             "jp-14th-sentai")
    run = advance(battle_at(game, us=("us-battalion#9",), japan=japan,
                            transport=("jp-battalion#1",)), Rolls({"rounds": [9]}))
    b = bt.state(run)
    assert (b["marker"], b["plan"]) == (4, 2)
    assert run.pos.due.kind == "bonus" and run.pos.due.data["bpp"] == 3


def test_t59_battle_plan_points(game):
    """T59 (10.5): 3 BPP free, 3 more per SP spent; each marker once a battle, within the
    BPP (E5: the air-defense system costs 2)."""
    run = advance(battle_at(game, us=("us-battalion#9",), japan=("jp-battalion#1",)))
    sp = run.data["sp"]
    for _ in range(2):
        run, _said = answer(game, run, "spend", {})
    assert bt.state(run)["bpp"] == 9 and run.data["sp"] == sp - 2
    run, _said = answer(game, run, "bonus", {"marker": "air-defense-system"})
    assert bt.state(run)["bpp"] == 7
    with pytest.raises(RuleViolation, match="10.5"):
        RULES.apply(game, run.position(), "bonus", {"marker": "air-defense-system"},
                    SeededDice(1))


# --- the round ------------------------------------------------------------------------------


def _to_round(game, run, dice=None):
    advance(run, dice)
    while run.pos.due is not None and run.pos.due.kind in ("place", "bonus"):
        run, _ = answer(game, run, "done" if run.pos.due.kind == "bonus" else "place",
                        {} if run.pos.due.kind == "bonus" else {
                            "unit": run.pos.due.data["ships"][0], "area": "us-sea"})
    return run


def _at_round(game, run):
    """The battle set up and its markers bought (none): the first round about to start."""
    advance(run)
    while run.pos.due is not None and run.pos.due.kind == "place":
        run, _ = answer(game, run, "place", {"unit": run.pos.due.data["ships"][0],
                                              "area": "us-sea"})
    assert run.pos.due.kind == "bonus"
    run.clear_due()
    bt.state(run)["stage"] = "round-start"
    bt.state(run)["round"] = 1
    return run


def test_each_us_aircraft_is_sent_by_the_player_10_8(game):
    run = _to_round(game, battle_at(game, us=("lexington",), japan=("kaga",)))
    assert run.pos.due.kind == "fly"
    waiting = list(run.pos.due.data["aircraft"])
    assert len(waiting) == 4 and all(p.startswith("lexington:") for p in waiting)
    run, said = answer(game, run, "fly", {"unit": waiting[0], "area": "japanese-sea"})
    assert bt.state(run)["slot"][waiting[0]] == "japanese-sea"


def test_search_failure_keeps_us_aircraft_out_of_the_japanese_sea(game):
    """10.7 索敵失敗: no US aircraft to the Japanese sea area this round."""
    run = _to_round(game, battle_at(game, us=("lexington",), japan=("kaga",)))
    bt.state(run)["jp"] = ["search-failure"]
    pid = run.pos.due.data["aircraft"][0]
    with pytest.raises(RuleViolation, match="10.7"):
        bt.fly(run, pid, "japanese-sea")
    assert "japanese-sea" not in bt.fly_areas(run)


def test_hits_go_lowest_cost_first_ties_are_the_players_choice(game):
    """T07/T68 (10.10.2, 1.3): hits on the lowest cost first, damaged first at equal cost;
    when different units tie the player picks (a ``hit`` decision listing only them)."""
    run = _at_round(game, battle_at(game, us=("us-battalion#9",),
                                    japan=("kaga", "jp-desron-1", "jp-desron-4")))
    b = bt.state(run)
    b["queue"] = [{"to": JAPAN, "area": "japanese-sea", "hits": 3, "what": "bomb",
                   "source": "c", "by": US}]
    assert fire.candidates(run) == ["kaga"]
    fire.take_hit(run, "kaga")
    fire.take_hit(run, "kaga")
    assert run.pieces["kaga"].kind == "eliminated"
    assert sorted(fire.candidates(run)) == ["jp-desron-1", "jp-desron-4"]
    assert not fire.process_queue(run) and run.pos.due.kind == "hit"
    with pytest.raises(RuleViolation, match="10.10.2"):
        fire.take_hit(run, "kaga")
    fire.take_hit(run, "jp-desron-4")
    assert run.pieces["jp-desron-4"].step == DAMAGED and not b["queue"]


def test_t69_transport_hits_fall_on_the_units_aboard(game):
    """T69 (10.10.2, E9): bombing in the coastal area with only a transport there: the
    hits go to the ground units aboard, the transport itself is never hit."""
    run = _at_round(game, battle_at(game, us=("us-battalion#9",),
                                    japan=("jp-16th-division", "jp-snlf", "jp-6th-base-force"),
                                    transport=("jp-16th-division", "jp-snlf",
                                               "jp-6th-base-force")))
    assert set(fire.targets(run, JAPAN, "coastal", "bomb", US)) == {
        "jp-16th-division", "jp-snlf", "jp-6th-base-force"}


def test_t70_surplus_air_combat_hits_are_lost(game):
    run = _to_round(game, battle_at(game, us=("lexington",), japan=("kaga",)))
    b = bt.state(run)
    a6m = next(p for p, h in b["home"].items() if h == "kaga" and p.endswith("a6m#1"))
    b["slot"][a6m] = "island"
    b["queue"] = [{"to": JAPAN, "area": "island", "hits": 4, "what": "aircraft",
                   "source": "a", "by": US}]
    assert fire.process_queue(run)
    assert a6m not in run.pieces and not b["queue"]


def test_t77_island_ground_units_need_own_ground_units_there(game):
    """T77/T78 (10.18.1): US bombs may hit the Japanese ground units on the island only with
    US ground units on the island; the airfield always."""
    run = _at_round(game, battle_at(game, us=("us-battalion#9",),
                                    japan=("jp-16th-division", "jp-14th-sentai"),
                                    transport=("us-battalion#9",)))
    assert fire.targets(run, JAPAN, "island", "bomb", US) == ["japanese-airfield"]
    bt.state(run)["slot"]["us-battalion#9"] = "beach"
    assert set(fire.targets(run, JAPAN, "island", "bomb", US)) == {"jp-16th-division",
                                                                   "japanese-airfield"}


def test_t79_three_airfield_hits_take_three_capacity(game):
    """T79 (10.18.2): a US airfield of capacity 5 takes 3 hits: capacity 2."""
    run = _at_round(game, battle_at(game, us=("us-11bg", "us-18fg", "us-28bg", "mag21",
                                              "raaf-bg2"), japan=("jp-battalion#1",)))
    b = bt.state(run)
    assert b["capacity"][US] == 5
    b["queue"] = [{"to": US, "area": "island", "hits": 3, "what": "ground", "source": "g",
                   "by": JAPAN}]
    assert fire.process_queue(run)
    assert b["capacity"][US] == 2


def test_t80_ground_units_move_beach_then_position_marines_straight_in(game):
    run = _at_round(game, battle_at(game, us=("us-battalion#9", "us-1st-marine-division"),
                                    japan=("jp-battalion#1",),
                                    transport=("us-battalion#9", "us-1st-marine-division")))
    bt._ground_move(run, SeededDice(1))
    s = slots(run)
    assert s["us-battalion#9"] == "beach" and s["us-1st-marine-division"] == "position"
    bt._ground_move(run, SeededDice(1))
    assert slots(run)["us-battalion#9"] == "position"


def test_t81_a_damaged_us_carrier_loses_its_aircraft_without_a_decision(game):
    """T81 (10.20.2): a damaged carrier takes none back; with no room for any, the player
    has no choice to make: every aircraft is removed, no ``remove`` decision."""
    run = _to_round(game, battle_at(game, us=("lexington",), japan=("kaga",)))
    run.step_to("lexington", DAMAGED)
    b = bt.state(run)
    for p in list(b["home"]):
        if b["home"][p] == "lexington":
            b["slot"][p] = "us-sea"
    run.clear_due()
    b["stage"] = "return"
    bt._return(run, SeededDice(1))
    assert run.pos.due is None
    assert not [p for p, h in b["home"].items() if h == "lexington"]


def test_t82_japanese_excess_damaged_first_then_cheapest(game):
    run = _to_round(game, battle_at(game, us=("lexington",), japan=("kaga",)))
    b = bt.state(run)
    kaga = [p for p, h in b["home"].items() if h == "kaga"]
    b["complement"]["kaga"] = 2
    run.step_to(kaga[2], DAMAGED)
    bt._return(run, SeededDice(1))
    assert kaga[2] not in run.pieces and len([p for p in kaga if p in run.pieces]) == 2


def test_us_excess_is_the_players_choice_10_20_4(game):
    run = _to_round(game, battle_at(game, us=("lexington",), japan=("kaga",)))
    b = bt.state(run)
    b["complement"]["lexington"] = 2
    run.clear_due()
    b["stage"] = "return"
    bt._return(run, SeededDice(1))
    assert run.pos.due.kind == "remove" and run.pos.due.data["excess"] == 2
    pick = run.pos.due.data["aircraft"][0]
    bt.remove(run, pick)
    assert pick not in run.pieces


def test_t83_airfield_damage_removes_the_excess_land_aircraft(game):
    """T83 (10.21.1): Japanese land aircraft above the capacity go, damaged lowest cost
    first."""
    run = _at_round(game, battle_at(game, us=("us-battalion#9",),
                                    japan=("jp-14th-sentai", "jp-3rd-kokutai",
                                           "jp-tainan-kokutai", "jp-battalion#1")))
    b = bt.state(run)
    b["capacity"][JAPAN] = 1
    run.step_to("jp-3rd-kokutai", DAMAGED)
    b["stage"] = "airfield"
    bt._airfield(run, SeededDice(1))
    left = [p for p in ("jp-14th-sentai", "jp-3rd-kokutai", "jp-tainan-kokutai")
            if run.pieces[p].kind == "point"]
    assert len(left) == 1 and "jp-3rd-kokutai" not in left


def test_t100_battle_duration(game):
    """T100 (10.7 戦闘期間, E24): more Japanese units on the sheet: one round longer."""
    run = _at_round(game, battle_at(game, us=("us-battalion#9",),
                                    japan=("jp-battalion#1", "jp-battalion#2")))
    b = bt.state(run)
    b["jp"], marker = ["battle-duration"], b["marker"]
    run.clear_due()
    bt._round_end(run, SeededDice(1))
    assert b["marker"] == marker + 1


def test_t101_escort_fleet_cancels_the_first_hit_on_a_carrier(game):
    run = _to_round(game, battle_at(game, us=("lexington",), japan=("kaga", "jp-desron-1")))
    b = bt.state(run)
    b["escort"] = True
    b["queue"] = [{"to": JAPAN, "area": "japanese-sea", "hits": 2, "what": "bomb",
                   "source": "c", "by": US}]
    fire.take_hit(run, "kaga")
    assert run.pieces["kaga"].step == 2 and not b["escort"]
    fire.take_hit(run, "kaga")
    assert run.pieces["kaga"].step == DAMAGED


def test_t98_both_first_strikes_cancel(game):
    run = _to_round(game, battle_at(game, us=("lexington",), japan=("kaga",)))
    b = bt.state(run)
    b["bought"], b["jp"] = ["first-strike"], ["first-strike"]
    bt._first_strike(run, SeededDice(1))
    assert "first-strike" in b["used"] and "first-strike" not in b["jp"]


def test_t97_us_first_strike_on_seven_or_more(game):
    """T97 (10.5): die 6 keeps the marker; die 7 launches one carrier's strike (the player
    picks the carrier and the area)."""
    run = _to_round(game, battle_at(game, us=("lexington",), japan=("kaga",)))
    b = bt.state(run)
    b["bought"], b["jp"] = ["first-strike"], []
    run.clear_due()
    bt._first_strike(run, Rolls({"first-strike": [6]}))
    assert "first-strike" not in b["used"] and run.pos.due is None
    bt._first_strike(run, Rolls({"first-strike": [7]}))
    assert run.pos.due.kind == "strike" and "lexington" in run.pos.due.data["carriers"]
    assert "japanese-sea" in run.pos.due.data["areas"]
    run, said = answer(game, run, "strike", {"unit": "lexington", "area": "japanese-sea"})
    b = bt.state(run)
    assert "first-strike" in b["used"] and any("first strike" in s for s in said)
    struck = [p for p, h in b["home"].items() if h == "lexington" and p in b["struck"]]
    assert struck and all(b["slot"][p] == "carrier" for p in struck)
    assert not set(struck) & set(bt.waiting_aircraft(run))


def test_jp_battalions_go_back_to_the_box_when_destroyed(game):
    """10.22.1, 2.8.4: an eliminated Japanese battalion returns to the battalion box."""
    run = _at_round(game, battle_at(game, us=("us-battalion#9",), japan=("jp-battalion#1",)))
    b = bt.state(run)
    b["queue"] = [{"to": JAPAN, "area": "island", "hits": 2, "what": "ground", "source": "g",
                   "by": US}]
    fire.process_queue(run)
    assert run.pieces["jp-battalion#1"].place == BATTALION_BOX
    assert run.pieces["jp-battalion#1"].step == 2


def test_a_whole_battle_ends_and_clears_the_sheet(game):
    """A battle fought to its end from the combat phase: the carrier aircraft leave, the
    survivors stay at the point, the battle record is gone."""
    position = new(game)
    run = Run(game, position)
    run.place("kaga", "point", POINT)
    run.place("jp-battalion#1", "point", POINT)
    from warpress.games.nimitz.rules import session as ses

    ses.begin_combat(run, SeededDice(2))
    position = run.position()
    for _ in range(300):
        if position.due is None or position.due.kind not in ("place", "bonus", "fly", "hit",
                                                             "remove", "pin", "strike"):
            break
        name, args = next((a.name, dict(a.args)) for a in RULES.decision(
            game, position).actions())
        position, _ = apply(game, position, (name, args))
    assert position.data["battle"] is None or position.over
    assert not any(":" in p.id for p in position.pieces)


def test_t120_japanese_units_left_in_hawaii_after_round_1_lose_the_campaign(game):
    """T120 (11.5.2): a battle in the Hawaiian Islands is fought as usual, but Japanese units
    still on the sheet when round 1 ends lose the campaign at once."""
    from warpress.games.nimitz.rules import session as ses

    run = battle_at(game, us=("us-battalion#4",), japan=("jp-battalion#1", "jp-battalion#2"),
                    point="hawaiian-islands")
    run = _at_round(game, run)
    bt.state(run)["stage"] = "next-round"
    bt.state(run)["round"] = 1
    ses.continue_battle(run, SeededDice(1))
    assert run.pos.verdict is not None and run.pos.verdict.condition == "hawaii"

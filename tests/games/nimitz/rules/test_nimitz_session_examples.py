"""The rulebook's worked examples played in a session, named after their ids in the rules
digest (T-numbers; PE the 1942 play example): the procedures as the session runs them over
a position, the US decisions asked and checked."""

from __future__ import annotations

from dataclasses import replace

import pytest
from nz_session import RULES, Rolls, apply, arrange, new, refusal
from warpress.engine.dice import SeededDice
from warpress.games.nimitz.rules import japan as jp
from warpress.games.nimitz.rules import phases as ph
from warpress.games.nimitz.rules import session as ses
from warpress.games.nimitz.rules.positions import (
    BOMBING,
    DAMAGED,
    JAPAN,
    US,
    Run,
)

#: the 1942 Japanese stacks in the play example's order (the top first)
PE_JAPAN = ("soryu", "shoho", "nagato-mutsu", "tone-chikuma", "jp-desron-1",
            "jp-1st-sub-flotilla", "kaga", "akagi", "hiei-kirishima")
PE_PHILIPPINES = ("myoko-haguro", "ashigara-nachi", "jp-desron-6")


def _pe_start(game):
    """The 1942 set-up with the Japanese stacks of Japan and the Philippines in the PE's
    order (3.3 shuffles them; the PE shows the order it got)."""
    run = Run(game, new(game, "1942", 7))
    for place, ships in (("japan", PE_JAPAN), ("philippines", PE_PHILIPPINES)):
        for n, pid in enumerate(ships, 1):
            run.place(pid, "point", place, order=n)
    run.place("jp-16th-division", "point", "philippines", order=0)
    return run.position()


def test_pe_turn_1_supply_recon_and_us_movement(game):
    """PE turn 1: +7 RP, +20 SP; Hornet, the 1st Marine Division and RAAF BG2 bought (SP
    18); 3 recon markers (SP 15) whose determinations are the PE's: the Philippines die 4
    South advance to Borneo with both land aircraft; Japan die 2 Standby (top 6 ships and 2
    battalions, +1 supply marker), die 10 Sortie, die 2 Midway with a battalion from the
    box on a transport; then the PE's 13 moves leave 2 SP."""
    position = _pe_start(game)
    assert (position.data["rp"], position.data["sp"]) == (7, 20)
    position, said = apply(game, position, ("buy", {"unit": "hornet"}),
                           ("buy", {"unit": "us-1st-marine-division"}),
                           ("buy", {"unit": "raaf-bg2"}), ("done", {}))
    assert (position.data["rp"], position.data["sp"]) == (0, 18)
    assert position.piece("raaf-bg2").place == "australia"
    assert position.piece("hornet").place == "west-coast"
    position, _ = apply(game, position, ("recon", {"point": "philippines"}),
                        ("recon", {"point": "japan"}), ("recon", {"point": "japan"}))
    assert position.data["sp"] == 15
    position, said = apply(game, position, ("done", {}),
                           dice=Rolls({"roll": [4, 2, 10, 2]}))
    run = Run(game, position)
    borneo = {p.id for p in run.at("borneo", JAPAN)}
    assert set(PE_PHILIPPINES) | {"jp-16th-division", "jp-14th-sentai",
                                  "jp-3rd-kokutai"} <= borneo
    assert all("moving" in position.piece(pid).flags
               for pid in (*PE_PHILIPPINES, "jp-14th-sentai"))
    assert "transport" in position.piece("jp-16th-division").flags  # US units at Borneo
    assert all("moving" in position.piece(pid).flags for pid in PE_JAPAN[:6])
    assert {p.id for p in run.at("midway", JAPAN)} >= {"kaga", "akagi", "hiei-kirishima"}
    drawn = [p for p in run.at("midway", JAPAN) if p.unit == "jp-battalion"]
    assert len(drawn) == 1 and "transport" in drawn[0].flags
    assert position.data["jp_supply"] == 1
    assert any("Sortie" in s and "Midway" in s for s in said)
    moves = [("move", {"unit": u, "point": "midway"})
             for u in ("lexington", "chester-louisville", "us-desron-1", "us-11bg",
                       "us-battalion#1", "us-battalion#2")]
    moves += [("move", {"unit": u, "point": "solomon-islands"})
              for u in ("enterprise", "chicago-northampton", "us-desron-2", "us-18fg",
                        "us-28bg")]
    moves += [("move", {"unit": u, "point": "borneo"}) for u in ("mag21", "raaf-bg2")]
    position, _ = apply(game, position, *moves)
    assert position.data["sp"] == 2
    assert all("transport" in position.piece(f"us-battalion#{n}").flags for n in (1, 2))


def test_pe_turn_1_japanese_movement_freezes_the_single_units(game):
    """PE turn 1, Japanese movement: the moving markers become move-complete and the single
    units at Okinawa, Iwo Jima, the Marianas, the Gilberts and Wake are marked without a
    roll (9.0(1), T43)."""
    position = _pe_start(game)
    position, _ = apply(game, position, ("done", {}), ("recon", {"point": "philippines"}))
    position, _ = apply(game, position, ("done", {}), dice=Rolls({"roll": [4]}))
    run = Run(game, position)
    ses.end_movement(run, SeededDice(3))
    frozen = [a.text for a in run.said if a.rules == ("9.0(1)",)]
    assert {text.split(":")[0] for text in frozen} == {"Okinawa", "Iwo Jima",
                                                       "Mariana Islands", "Gilbert Islands",
                                                       "Wake Island"}
    assert all(text.endswith(" stays") for text in frozen), frozen


def test_t30_ground_units_with_us_units_stay_ships_are_determined(game):
    """T30 (9.0(3)): at a point with US units the Japanese ground units stay; the ships
    there are determined."""
    position = arrange(game, new(game), {"us-battalion#7": ("point", "philippines")})
    run = Run(game, position)
    run.data["garrison_start"] = sorted(jp.garrisons(run))
    jp.freeze_at_start(run)
    ground = [p for p in run.at("philippines", JAPAN) if p.unit in ("jp-16th-division",
                                                                    "jp-battalion")]
    assert ground and all("complete" in p.flags for p in ground)
    assert jp.stack_at(run, "philippines").ships == tuple(
        p.id for p in run.at("philippines", JAPAN) if p.unit in PE_PHILIPPINES)


def test_12_4_okinawa_and_iwo_jima_are_never_determined_in_1945(game):
    """12.4: in 1945 every Japanese unit at Okinawa and Iwo Jima gets a move-complete marker
    before any roll, ships included, and stays where it is through the phase."""
    position = arrange(game, new(game, "1945"), {"kongo-haruna": ("point", "okinawa")})
    run = Run(game, position)
    run.data["garrison_start"] = []
    jp.freeze_at_start(run)
    for point in ("okinawa", "iwo-jima"):
        assert run.at(point, JAPAN)
        assert all("complete" in p.flags for p in run.at(point, JAPAN))
        assert point not in jp.undetermined(run)
    assert any(a.rules == ("12.4",) and "Kongo" in a.text for a in run.said)


def test_t19_the_seventh_land_aircraft_into_the_solomons_is_refused(game):
    """T19 (8.2.1): the Solomons hold at most 6 US land aircraft; Hawaii has no limit."""
    six = ("us-11bg", "us-28bg", "raaf-bg2", "us-bw#1", "us-bw#2")
    position = arrange(game, new(game, "1944"), {u: ("point", "solomon-islands") for u in six})
    position = arrange(game, position, {"us-bw#3": ("point", "hawaiian-islands")})
    position, _ = apply(game, position, ("done", {}), ("done", {}))
    land_air = [p for p in Run(game, position).at("solomon-islands", US)
                if p.unit != "us-battalion"]
    assert len(land_air) == 6
    assert "8.2.1" in str(refusal(game, position, "move", {"unit": "us-18fg",
                                                             "point": "solomon-islands"}))
    position, _ = apply(game, position, ("move", {"unit": "us-11bg",
                                                  "point": "hawaiian-islands"}),
                        ("move", {"unit": "us-18fg", "point": "solomon-islands"}))
    assert position.piece("us-18fg").place == "solomon-islands"


def test_t20_us_ground_units_sharing_a_point_with_japanese_units_stay(game):
    """T20 (8.2.2): at Borneo with a Japanese battalion the US battalion cannot leave."""
    position, _ = apply(game, new(game), ("done", {}), ("done", {}))
    borneo = [p.id for p in Run(game, position).at("borneo", US)]
    assert "8.2.2" in str(refusal(game, position, "move", {"unit": borneo[0],
                                                             "point": "samoa"}))


def test_t21_recon_markers_cost_1_sp_each(game):
    position, _ = apply(game, new(game), ("done", {}))
    position, _ = apply(game, position, *[("recon", {"point": "japan"})] * 3)
    assert position.data["sp"] == 17 and list(position.data["recon"]) == ["japan"] * 3


def test_t22_commerce_raiding_costs_1_sp_and_takes_2_off_the_roll(game):
    """T22 (8.4, 11.1): a raiding submarine, 1 SP; the reinforcement roll -2 each."""
    position, _ = apply(game, new(game), ("buy", {"unit": "us-subdiv#1"}), ("done", {}),
                        ("done", {}))
    position, _ = apply(game, position, ("raid", {"unit": "us-subdiv#1"}))
    assert position.piece("us-subdiv#1").place == "commerce-raiding"
    assert position.data["raiders"] == 1
    run = Run(game, position)
    jp.reinforce(run, Rolls({"reinforcement": [9]}))
    assert "- 2 (raiding) = 7" in run.said[-1].text


def test_t110_reinforcement_nine_and_t111_battalions_for_what_the_box_lacks(game):
    """T110/T111 (11.1): die 7 + 6 supply markers - 2 x 2 raiders = 9: 2 ships, 2
    infantry, 1 land aircraft from the box tops to Japan; a unit the box lacks brings 2
    battalions; the supply markers are spent."""
    run = Run(game, new(game))
    run.data.update(jp_supply=6, raiders=2)
    before = len(run.at("japan", JAPAN))
    jp.reinforce(run, Rolls({"reinforcement": [7]}))
    assert len(run.at("japan", JAPAN)) == before + 5 and run.data["jp_supply"] == 0
    run = Run(game, new(game))
    for p in run.at("japanese-reinforcement-land-air", JAPAN, "box"):
        run.place(p.id, "eliminated", None)
        run.step_to(p.id, 0)
    run.data.update(jp_supply=6, raiders=2)
    box = len(run.at("battalion-box", JAPAN, "box"))
    jp.reinforce(run, Rolls({"reinforcement": [7]}))
    assert len(run.at("battalion-box", JAPAN, "box")) == box - 2


def test_t112_damaged_ground_units_with_us_units_do_not_count(game):
    run = Run(game, new(game))
    run.step_to("jp-battalion#9", DAMAGED)  # Borneo, with a US battalion
    run.step_to("jp-16th-division", DAMAGED)  # the Philippines, no US unit
    assert jp.damaged_for_roll(run) == 1


def test_t113_t114_repair(game):
    """T113/T114 (11.2): a damaged ship to the bottom of the ship stack at full strength; a
    damaged ground unit with US units, and a point's last ground or air unit, stay."""
    run = Run(game, new(game))
    for pid in ("kaga", "jp-battalion#9", "jp-6th-base-force"):
        run.step_to(pid, DAMAGED)
    jp.repair(run)
    assert run.pieces["kaga"].kind == "box" and run.pieces["kaga"].step == 2
    assert run.at("japanese-reinforcement-ships", JAPAN, "box")[-1].id == "kaga"
    assert run.pieces["jp-battalion#9"].step == DAMAGED  # Borneo, US units there
    assert run.pieces["jp-6th-base-force"].step == DAMAGED  # Wake's last unit


def test_t115_port_return_in_1943(game):
    """T115 (11.3): 1942-45 box -> Hawaii, 1943-45 -> 1942-45, map ships -> 1943-45."""
    run = Run(game, new(game, "1943"))
    run.place("enterprise", "box", "port-return-1942-45")
    run.place("colorado-maryland", "box", "port-return-1943-45")
    run.place("chester-louisville", "point", "wake")
    ph.return_to_port(run)
    assert run.pieces["enterprise"].place == "hawaiian-islands"
    assert run.pieces["colorado-maryland"].place == "port-return-1942-45"
    assert run.pieces["chester-louisville"].place == "port-return-1943-45"


def test_t116_australia_is_not_exempt(game):
    run = Run(game, new(game))
    run.place("lexington", "point", "australia")
    ph.return_to_port(run)
    assert run.pieces["lexington"].place == "port-return-1942-45"


def test_t117_the_marianas_out_of_supply_take_a_hit_each(game):
    """T117 (11.4): Wake contested, the Marianas reached only through Wake: every US ground
    unit and land aircraft there takes a hit."""
    position = arrange(game, new(game, "1943"),
                       {"us-battalion#1": ("point", "mariana-islands"),
                        "us-28bg": ("point", "mariana-islands"),
                        "us-battalion#2": ("point", "wake")})
    run = Run(game, position)
    ph.supply_check(run)
    assert run.pieces["us-battalion#1"].step == DAMAGED
    assert run.pieces["us-28bg"].step == DAMAGED
    assert run.pieces["us-battalion#2"].step == 2


def test_t118_three_or_fewer_objectives_dismiss_the_admiral(game):
    """T118 (11.5.1): the 1942 turn ends with 3 objectives held: the campaign is lost."""
    run = Run(game, new(game))
    for pid in ("us-battalion#8", "us-battalion#9", "us-battalion#10", "us-battalion#6"):
        run.place(pid, "point", "west-coast")
    assert ph.defeat_check(run)
    verdict = ph.dismissal_verdict(run)
    assert verdict.result == "dismissal" and verdict.rule == ("11.5.1",)


def test_t119_seven_held_at_the_end_of_1942_is_better_than_historical(game):
    run = Run(game, new(game))
    assert ph.campaign_verdict(run, 7, "7 held").result == "better-than-historical"


def test_t120_japanese_units_in_hawaii_lose_the_campaign(game):
    """T120 (11.5.2): Japanese units in the Hawaiian Islands with no battle to clear them
    in round 1: the campaign is lost at once."""
    run = Run(game, new(game))
    for p in run.at("hawaiian-islands", US):
        run.place(p.id, "point", "west-coast")
    run.place("kaga", "point", "hawaiian-islands")
    ses.begin_combat(run, SeededDice(1))
    assert run.pos.verdict.result == "hawaii" and run.pos.verdict.rule == ("11.5.2",)


def test_t121_strategic_bombing(game):
    """T121 (12.2): 3 BWs to the bombing box (3 SP); at the start of the Japanese movement
    the player sends 3 Japanese units from Japan to the reinforcement box (a battalion to
    the battalion box); after the combat phase the BWs are back in the Marianas."""
    position = arrange(game, new(game, "1944"),
                       {"us-bw#1": ("point", "mariana-islands"),
                        "us-bw#2": ("point", "mariana-islands"),
                        "us-bw#3": ("point", "mariana-islands"),
                        "us-battalion#1": ("point", "mariana-islands")})
    position, _ = apply(game, position, ("done", {}), ("done", {}))
    sp = position.data["sp"]
    position, _ = apply(game, position, *[("bomb", {"unit": f"us-bw#{n}"}) for n in (1, 2, 3)])
    assert position.data["sp"] == sp - 3
    position, _ = apply(game, position, ("done", {}))
    assert position.due.kind == "bw-target" and position.due.data["left"] == 3
    battalion = next(p.id for p in Run(game, position).at("japan", JAPAN)
                     if p.unit == "jp-battalion")
    position, _ = apply(game, position, ("target", {"unit": "zuikaku"}),
                        ("target", {"unit": battalion}), ("target", {"unit": "shokaku"}))
    assert position.piece("zuikaku").place == "japanese-reinforcement-ships"
    assert position.piece(battalion).place == "battalion-box"
    assert position.due.kind != "bw-target"
    assert all(position.piece(f"us-bw#{n}").place == BOMBING for n in (1, 2, 3))
    run = Run(game, position)
    run.data["battle"] = None
    ses.after_combat(run, SeededDice(2))
    assert all(run.pieces[f"us-bw#{n}"].place == "mariana-islands" for n in (1, 2, 3))


def test_t122_an_eighth_unit_into_the_invasion_box_is_refused(game):
    """T122 (12.3): at most 7 units a movement phase enter the Japan-invasion box."""
    position, _ = apply(game, new(game, "1945"), ("done", {}), ("done", {}))
    units = [p.id for p in Run(game, position).at("hawaiian-islands", US)]
    assert len(units) >= 8
    position, _ = apply(game, position, *[("invade", {"unit": u}) for u in units[:7]])
    assert "12.3" in str(refusal(game, position, "invade", {"unit": units[7]}))


def test_t123_the_invasion_box_adds_objectives_in_1945(game):
    """T123 (12.3): the box's total cost read on the invasion table, added to the map
    objectives held."""
    run = Run(game, new(game, "1945"))
    for pid in ("enterprise", "hornet", "lexington"):
        run.place(pid, "box", "japan-invasion")
    cost, extra = ph.invasion_total(run)
    assert (cost, extra) == (15, 0)
    for pid in ("colorado-maryland", "chester-louisville", "us-desron-1", "us-desron-2"):
        run.place(pid, "box", "japan-invasion")
    cost, extra = ph.invasion_total(run)
    assert (cost, extra) == (15 + 4 + 3 + 2 + 2, 0)
    total, why = ph.final_count(run)
    assert f"Japan-invasion box (cost {cost})" in why and total == len(ph.objectives_held(run))


def test_t124_the_linked_campaign_goes_on_to_the_next_year(game):
    """12.6: a linked campaign's 1942 end records its result and sets up 1943."""
    run = Run(game, replace(new(game, "linked"), turn=6))
    ses.end_campaign(run, SeededDice(4))
    assert run.data["campaign"] == "1943" and run.data["results"][0]["campaign"] == "1942"
    assert run.pos.turn == 1 and run.pos.due.kind == "supply"


@pytest.mark.parametrize("total, result", [(51, "great-victory"), (45, "historic-triumph"),
                                           (35, "historical"), (26, "disappointing"),
                                           (25, "ignominious-defeat")])
def test_t124_linked_totals(game, total, result):
    run = Run(game, new(game, "linked"))
    results = [{"campaign": "1942", "total": total, "level": "x"}]
    assert ph.linked_verdict(run, results).result == result


def test_a_status_names_the_assumed_set_up(game):
    view = RULES.player_view(game, new(game, "1944"))
    assert "source: assumed" in view["campaign"][0]["set-up"]
    assert "1944-us-hawaiian-islands" in view["campaign"][0]["set-up"]

"""Nimitz in a session (rules/session.py): whole campaigns with the US played by agents from
several seeds to a verdict, the whole-game and the Nimitz invariants at every step, the same
seed replaying the same campaign byte for byte, every decision of the rules met, and each
action the rules forbid refused with its rule."""

from __future__ import annotations

from collections import Counter

import pytest
from nz_session import (
    RULES,
    GarrisonAgent,
    apply,
    arrange,
    legal,
    new,
    play_watched,
    refusal,
)
from warpress.engine.dice import SeededDice, derived_seed
from warpress.engine.errors import BadInput
from warpress.games.nimitz.rules import session as ses
from warpress.games.nimitz.rules.phases import AIMS
from warpress.games.nimitz.rules.positions import Run

#: (scenario, seed) played by the random agent: each ends in a verdict
RANDOM = [("1942", 0), ("1942", 1), ("1942", 2), ("1943", 4), ("1944", 1), ("1945", 3),
          ("linked", 2)]


@pytest.mark.parametrize("scenario, seed", RANDOM)
def test_random_agent_plays_a_campaign_to_a_verdict(game, scenario, seed):
    played, positions = play_watched(game, seed, scenario)
    assert played.stopped == "over"
    verdict = played.position.verdict
    assert verdict.condition in {v.id for v in game.victory}
    assert verdict.rule and verdict.reason
    assert all(p.verdict in (None, verdict) for p in positions)
    assert RULES.decision(game, played.position) is None
    summary = RULES.summary(game, played.position)
    assert summary["result"] == verdict.result and summary["objectives_held_by_turn"]


def test_a_campaign_played_to_its_end_gets_a_victory_level(game):
    """1945 by the garrison agent (seed 1): four turns (12.5), then the level of the
    objectives held plus the invasion box's (4.0, 12.3)."""
    played, positions = play_watched(game, 1, "1945", agent=GarrisonAgent())
    verdict = played.position.verdict
    assert verdict.condition == "campaign-end" and "12.5" in verdict.rule
    assert len(played.position.data["held"]) == 4
    table = game.table("campaign-level")
    levels = {table.result(r)["level"] for r in table.rows}
    assert verdict.result in levels and verdict.result != "dismissal"


def test_every_decision_and_action_is_met(game):
    """Across these two campaigns the agents meet every decision kind and make every action
    but a first strike, which they declined here (it is played in the battle tests)."""
    kinds, actions = Counter(), Counter()

    def each(before, action, after):
        if before is not None:
            kinds[before.due.kind] += 1
            actions[action[0]] += 1

    for scenario, seed, agent in (("1944", 3, None), ("1945", 13, GarrisonAgent())):
        play_watched(game, seed, scenario, each, agent=agent)
    assert set(kinds) == set(ses.KINDS)
    assert set(actions) == set(ses.HANDLERS) - {"strike"}


@pytest.mark.parametrize("scenario, seed", [("1945", 3)])
def test_the_same_seed_plays_the_same_campaign(game, scenario, seed):
    trails = []
    for _ in range(2):
        played, positions = play_watched(game, seed, scenario)
        trails.append([p.digest() for p in positions])
    assert trails[0] == trails[1] and len(trails[0]) > 20


def test_a_playout_replays_step_by_step_byte_for_byte(game):
    played, positions = play_watched(game, 2, "1942")
    position = RULES.new(game, "1942", SeededDice(derived_seed(2, 0))).state
    assert position.canonical() == positions[0].canonical()
    for n, (name, args) in enumerate(played.actions, 1):
        position = RULES.apply(game, position, name, args, SeededDice(derived_seed(2, n))).state
        assert position.canonical() == positions[n].canonical()


def test_every_listed_answer_is_accepted(game):
    """The answers ``moves`` lists are the ones the rules accept (a sample of each)."""
    seen = set()

    def each(before, action, after):
        if before is None or before.due.kind in seen:
            return
        seen.add(before.due.kind)
        for name, args in legal(game, before)[:6]:
            RULES.apply(game, before, name, args, SeededDice(5))

    play_watched(game, 0, "1944", each)
    assert len(seen) >= 8


# --- set-up and scenarios --------------------------------------------------------------------


@pytest.mark.parametrize("scenario", ["1942", "1943", "1944", "1945", "linked"])
def test_every_campaign_starts_and_says_what_is_assumed(game, scenario):
    """All four campaigns start; the set-up the rule text does not give is marked
    source: assumed in the data and named in the session's status."""
    position = new(game, scenario)
    assert position.due.kind == "supply" and position.turn == 1
    view = RULES.player_view(game, position)
    setup = view["campaign"][0]["set-up"]
    assert "source: assumed" in setup
    if scenario in ("1943", "1944", "1945"):
        assert all(r.is_assumed for r in game.setup if str(r.scenario) == scenario)


def test_scenarios_list_the_four_campaigns_and_the_linked_one(game):
    names = [s.name for s in RULES.scenarios(game)]
    assert names == ["1942", "1943", "1944", "1945", "linked"]
    with pytest.raises(BadInput, match="'1946'"):
        RULES.load_scenario(game, "1946")


def test_set_up_places_every_counter_once_and_shuffles_the_japanese_stacks(game):
    """3.3: the Japanese units are stacked randomly by type; two seeds, two stack orders."""
    a, b = new(game, "1942", 1), new(game, "1942", 2)
    assert sorted(p.id for p in a.pieces) == sorted(p.id for p in b.pieces)
    order = [[p.id for p in Run(game, pos).at("japan", "japan")] for pos in (a, b)]
    assert sorted(order[0]) == sorted(order[1]) and order[0] != order[1]


# --- refusals --------------------------------------------------------------------------------


def test_a_command_that_does_not_answer_the_decision_is_refused(game):
    position = new(game)
    assert "6.2" in str(refusal(game, position, "move", {"unit": "lexington",
                                                          "point": "midway"}))


def test_buying_beyond_the_points_is_refused_6_2(game):
    position = arrange(game, new(game), {}, rp=0, sp=1)
    assert "6.2" in str(refusal(game, position, "buy", {"unit": "hornet"}))


def test_repairing_a_full_strength_unit_is_refused_6_3(game):
    assert "6.3" in str(refusal(game, new(game), "repair", {"unit": "lexington"}))


def test_a_unit_not_in_the_game_is_bad_input(game):
    with pytest.raises(BadInput, match="'yamato'"):
        RULES.apply(game, new(game), "buy", {"unit": "yamato"}, SeededDice(1))


def _at_movement(game, seed=1):
    position, _ = apply(game, new(game, seed=seed), ("done", {}), ("done", {}))
    assert position.due.kind == "move"
    return position


def test_the_agents_score_counts_objectives_and_hawaii(game):
    """What greedy and MCTS maximise (rules.score): an objective given up costs the US what
    it counts for the level (4.1: Alaska's only ground unit leaves it), Japan gains as much;
    a Japanese unit in the Hawaiian Islands weighs against the US (11.5.2; a ship: no point
    changes hands)."""
    position = _at_movement(game)
    before = RULES.score(game, position, "us")
    assert RULES.score(game, position, "japan") == -before
    left, _ = apply(game, position, ("move", {"unit": "us-battalion#8", "point": "australia"}))
    assert RULES.score(game, left, "us") == before - AIMS["objective"]
    landed = arrange(game, position, {"jp-desron-1": ("point", "hawaiian-islands")})
    assert RULES.score(game, landed, "us") == before - AIMS["hawaii"]


def test_a_us_unit_moves_once_a_turn_8_1(game):
    position, _ = apply(game, _at_movement(game), ("move", {"unit": "lexington",
                                                            "point": "midway"}))
    assert "8.1" in str(refusal(game, position, "move", {"unit": "lexington",
                                                           "point": "samoa"}))


def test_no_us_unit_enters_japan_or_east_asia_8_2(game):
    for point in ("japan", "east-asia"):
        assert "8.2" in str(refusal(game, _at_movement(game), "move",
                                    {"unit": "lexington", "point": point}))


def test_land_aircraft_need_us_units_there_at_the_start_8_2_1(game):
    """T17: no US ground unit or land aircraft at Iwo Jima at the start of the phase."""
    assert "8.2.1" in str(refusal(game, _at_movement(game), "move",
                                  {"unit": "us-11bg", "point": "iwo-jima"}))


def test_recon_at_okinawa_in_1945_is_refused_12_4(game):
    position, _ = apply(game, new(game, "1945"), ("done", {}))
    assert position.due.kind == "recon"
    assert "12.4" in str(refusal(game, position, "recon", {"point": "okinawa"}))
    assert "12.4" in str(refusal(game, position, "recon", {"point": "iwo-jima"}))


def test_bombing_outside_1944_and_1945_is_refused_12_2(game):
    assert "12.2" in str(refusal(game, _at_movement(game), "bomb", {"unit": "us-11bg"}))


def test_the_invasion_box_is_for_1945_only_12_3(game):
    assert "12.3" in str(refusal(game, _at_movement(game), "invade", {"unit": "lexington"}))


def test_a_finished_campaign_refuses_every_command(game):
    played, _ = play_watched(game, 0, "1942")
    violation = refusal(game, played.position, "done")
    assert "is over" in str(violation)

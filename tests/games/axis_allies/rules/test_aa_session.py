"""Axis & Allies in a session (rules/session.py): whole games by random agents from several
seeds to their verdicts with the invariants at every step, the same seed and actions
replaying a whole game byte for byte, the sequence of play (W35), purchase and development
(W15-W20), income (W30), victory (W31-W34), and actions out of turn refused with the rule."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from aa_session import RULES, apply, at, legal, play_watched, refusal, replayed, units_in
from warpress.engine.errors import BadInput
from warpress.engine.position import Position
from warpress.games.axis_allies.rules.board import board_victory, npl
from warpress.games.axis_allies.rules.positions import powers

#: the seeds of the whole games the tests play (docs/axis-allies.md names them)
SEEDS = (0, 2, 4)


@pytest.fixture(scope="module")
def games(game):
    return {seed: play_watched(game, seed) for seed in SEEDS}


@pytest.mark.parametrize("seed", SEEDS)
def test_random_agents_play_to_a_verdict(game, games, seed):
    stopped, positions, actions = games[seed]
    last = positions[-1]
    assert stopped == "over"
    out, _rules, _errata = board_victory(game, last.control, True)
    assert last.verdict.winner == out["winner"] != "none"
    assert [p.verdict for p in positions].count(None) == len(positions) - 1
    assert RULES.decision(game, last) is None


@pytest.mark.parametrize("seed", SEEDS)
def test_w35_every_power_plays_its_actions_in_turn_order(game, games, seed):
    """I1, W35: USSR, Germany, UK, Japan, USA, then a new round; ① to ⑤ in order."""
    _stopped, positions, _actions = games[seed]
    order = powers(game)
    turns = [(p.turn, p.side) for p in positions]
    starts = [t for i, t in enumerate(turns) if i == 0 or t != turns[i - 1]]
    assert starts == [(1 + k // 5, order[k % 5]) for k in range(len(starts))]
    phases = ["weapons-development-purchase", "combat-movement", "combat",
              "non-combat-movement", "placement", "income"]
    for (_t, _s), seq in _phases_by_turn(positions).items():
        ranks = [phases.index(ph) for ph in seq if ph in phases]
        assert ranks == sorted(ranks)


def _phases_by_turn(positions):
    out: dict = {}
    for p in positions:
        seq = out.setdefault((p.turn, p.side), [])
        if not seq or seq[-1] != p.phase:
            seq.append(p.phase)
    return out


def test_a_whole_game_replays_byte_for_byte(game, games):
    seed = min(SEEDS, key=lambda s: len(games[s][2]))
    _stopped, positions, actions = games[seed]
    again = replayed(game, seed, actions)
    assert [p.digest() for p in again] == [p.digest() for p in positions]
    assert again[-1].verdict == positions[-1].verdict is not None
    last = positions[-1]
    assert Position.from_json(json.loads(json.dumps(last.to_json()))) == last


def test_every_kind_of_decision_comes_up(games):
    kinds = Counter(p.due.kind for _s, (_st, positions, _a) in games.items()
                    for p in positions if p.due is not None)
    assert {"purchase", "combat-move", "battle", "casualties", "retreat",
            "non-combat-move", "place"} <= set(kinds)


def test_every_answer_listed_is_accepted(game, games):
    """Each decision's listing holds only answers the rules accept (a sample of decisions
    of every kind from one game, every answer of each)."""
    _stopped, positions, _actions = games[SEEDS[0]]
    seen: Counter = Counter()
    for position in positions:
        if position.due is None or seen[position.due.kind] >= 3:
            continue
        seen[position.due.kind] += 1
        answers = legal(game, position)
        assert answers, position.due
        for name, args in answers[:40]:
            apply(game, position, (name, args))


# --- ① -----------------------------------------------------------------------------------


def test_w19_w20_purchases_cost_the_unit_table(game):
    position = at(game, "germany", "purchase", [], ipc={"germany": 53})
    after, _ = apply(game, position, ("buy", {"unit": "infantry", "count": 2}),
                     ("buy", {"unit": "armor"}))
    assert after.data["ipc"]["germany"] == 53 - 11  # W19
    position = at(game, "usa", "purchase", [], ipc={"usa": 42})
    after, _ = apply(game, position, ("buy", {"unit": "battleship"}),
                     ("buy", {"unit": "carrier"}))
    assert after.data["ipc"]["usa"] == 0  # W20: 42 IPC
    assert Counter(p.unit for p in after.pieces if p.kind == "pool") == {"battleship": 1,
                                                                         "carrier": 1}


def test_i17_a_purchase_beyond_the_ipc_in_hand_is_refused(game):
    position = at(game, "russia", "purchase", [], ipc={"russia": 10})
    assert refusal(game, position, "buy", {"unit": "fighter"}).rule == "① purchase"


def test_w15_w16_development_dice_cost_5_and_each_6_develops_a_weapon(game):
    position = at(game, "uk", "purchase", [], ipc={"uk": 30})
    after, said = apply(game, position, ("develop", {"dice": 3}),
                        rolls={"rolls": [6, 6, 2], "chart": [1, 1, 4]})
    assert after.data["ipc"]["uk"] == 15  # W15
    # W16: two 6s, two chart rolls; the repeated Jet Power is rolled again (E12)
    assert sorted(after.data["weapons"]["uk"]) == ["jet-power", "long-range-aircraft"]
    assert refusal(game, after, "develop", {"dice": 1}).rule == "① weapons development"


def test_w17_development_dice_without_a_6_are_spent(game):
    position = at(game, "uk", "purchase", [], ipc={"uk": 30})
    after, _ = apply(game, position, ("develop", {"dice": 3}), rolls={"rolls": [1, 3, 5]})
    assert after.data["ipc"]["uk"] == 15 and after.data["weapons"]["uk"] == ()


def test_w18_a_weapon_developed_is_used_in_the_same_turn_s_combat(game):
    units = [("germany", "bomber", "germany", 1), ("russia", "infantry", "karelia-ssr", 1)]
    position = at(game, "germany", "purchase", units, ipc={"germany": 5})
    after, said = apply(game, position, ("develop", {"dice": 1}), ("end", {}),
                        ("move", {"from": "germany", "to": "karelia-ssr", "unit": "bomber"}),
                        ("end", {}),
                        rolls={"rolls": [6], "chart": [6], "attacker_rolls": [5, 5, 1],
                               "defender_rolls": [6]})
    assert after.data["weapons"]["germany"] == ("heavy-bombers",)
    assert any("germany rolls 5 5 1 (1 hit(s))" in s for s in said)  # 3 dice this turn


def test_industrial_technology_makes_every_unit_1_ipc_cheaper(game):
    position = at(game, "uk", "purchase", [], ipc={"uk": 10},
                  weapons={"uk": ["industrial-technology"]})
    after, _ = apply(game, position, ("buy", {"unit": "infantry", "count": 5}))
    assert after.data["ipc"]["uk"] == 0


# --- ⑥ and victory -------------------------------------------------------------------------


def test_w30_income_is_the_npl_of_the_territories_held(game):
    position = at(game, "japan", "place", [("japan", "infantry", "japan", 1)],
                  control={"india": "japan"}, ipc={"japan": 4})
    held = npl(game, "japan", position.control)
    assert held == 25 + 3  # the board's Japan plus India
    after, said = apply(game, position, ("end", {}))
    assert after.data["ipc"]["japan"] == 4 + held
    assert after.side == "usa" and after.due.kind == "purchase"  # W35


GERMANY_50 = {t: "germany" for t in ("caucasus", "karelia-ssr", "east-canada", "kazakh-ssr",
                                      "anglo-sudan-egypt", "novosibirsk",
                                      "evenki-national-okrug", "syria-jordan")}
JAPAN_34 = {t: "japan" for t in ("india", "australia", "alaska", "china")}
JAPAN_33 = {t: "japan" for t in ("india", "australia", "alaska", "hawaiian-islands")}


@pytest.mark.parametrize("japan, won", [(JAPAN_34, True), (JAPAN_33, False)],
                         ids=["W31", "W32"])
def test_w31_w32_the_axis_economic_victory_at_the_end_of_a_round(game, japan, won):
    position = at(game, "usa", "place", [("usa", "infantry", "east-us", 1)],
                  control={**GERMANY_50, **japan})
    assert npl(game, "germany", position.control) == 50
    assert npl(game, "japan", position.control) == (34 if won else 33)
    after, _ = apply(game, position, ("end", {}))
    if won:
        assert after.verdict.condition == "axis-economic-victory"
        assert after.verdict.winner == "axis" and "L13" in after.verdict.rule
    else:
        assert after.verdict is None and (after.side, after.turn) == ("russia", 2)


def test_w33_the_axis_win_holding_two_allied_capitals(game):
    position = at(game, "usa", "place", [("usa", "infantry", "east-us", 1)],
                  control={"russia": "germany", "united-kingdom": "germany"})
    after, _ = apply(game, position, ("end", {}))
    assert after.verdict.winner == "axis"
    assert after.verdict.condition == "axis-military-victory"


def test_w34_the_allies_win_holding_both_axis_capitals(game):
    position = at(game, "usa", "place", [("usa", "infantry", "east-us", 1)],
                  control={"germany": "russia", "japan": "usa"})
    after, _ = apply(game, position, ("end", {}))
    assert after.verdict.winner == "allies" and after.verdict.condition == "allied-victory"
    assert "L10" in after.verdict.rule
    assert RULES.decision(game, after) is None
    assert refusal(game, after, "end").rule == after.verdict.rule[0]


def test_e10_victory_is_checked_only_at_the_end_of_a_round(game):
    position = at(game, "japan", "place", [("japan", "infantry", "japan", 1)],
                  control={"germany": "russia", "japan": "usa"})
    after, _ = apply(game, position, ("end", {}))
    assert after.verdict is None and after.side == "usa"


# --- the session's contract ----------------------------------------------------------------


def test_an_action_that_does_not_answer_the_decision_is_refused_with_its_rule(game):
    position = at(game, "germany", "purchase", [("germany", "infantry", "germany", 1)])
    caught = refusal(game, position, "move", {"from": "germany", "to": "east-europe",
                                              "unit": "infantry"})
    assert caught.rule == "① weapons development"
    with pytest.raises(BadInput):
        RULES.apply(game, position, "fly", {}, None)
    with pytest.raises(BadInput):
        RULES.apply(game, position, "buy", {"unit": "zeppelin"}, None)


def test_nothing_is_hidden(game):
    position = at(game, "germany", "purchase", [("germany", "infantry", "germany", 2)])
    assert RULES.hidden is False
    assert RULES.player_view(game, position, "usa")["areas"] == RULES.player_view(
        game, position, "germany")["areas"]
    assert units_in(position, "germany") == {"infantry": 2}


def test_a_rocket_costs_the_factory_s_owner_a_die_of_ipc(game):
    units = [("germany", "antiaircraft", "germany", 1), ("uk", "factory", "united-kingdom", 1)]
    position = at(game, "germany", "combat-move", units, ipc={"uk": 3},
                  weapons={"germany": ["rockets"]})
    assert ("rocket", {"from": "germany", "target": "united-kingdom"}) in legal(game, position)
    after, said = apply(game, position, ("rocket", {"from": "germany",
                                                    "target": "united-kingdom"}),
                        rolls={"rocket_rolls": [5]})
    assert after.data["ipc"]["uk"] == 0  # 5 rolled, 3 in hand: never below 0 (I17)
    caught = refusal(game, after, "rocket", {"from": "germany", "target": "united-kingdom"})
    assert caught.rule == "① weapons development"
    without = at(game, "germany", "combat-move", units)
    assert "rockets" in str(refusal(game, without, "rocket", {"from": "germany",
                                                               "target": "united-kingdom"}))
    assert not any(n == "rocket" for n, _a in legal(game, without))

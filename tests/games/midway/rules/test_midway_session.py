"""MIDWAY in a session (rules/session.py): whole solitaire games (12.x) and two-player games
by random agents from several seeds to a verdict, the invariants at every step, the solitaire
US answering only with legal actions, replays byte-identical, and each action the rules
forbid refused with its rule."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from mw_session import (
    RULES,
    apply,
    at_phase,
    due,
    legal,
    play_from,
    play_watched,
    proceeded,
    refusal,
    start,
)
from warpress.engine import session as store
from warpress.engine.dice import SeededDice
from warpress.games.midway.rules import area as A
from warpress.games.midway.rules import flow
from warpress.games.midway.rules import session as ses
from warpress.games.midway.rules.common import distance
from warpress.games.midway.rules.moves import Run
from warpress.games.midway.rules.positions import (
    moved_fleet,
    to_area,
    with_area,
    with_data,
)

#: solitaire seeds: a random Japanese player mostly loses at the end of Turn 3 (12.3(6):
#: Hiryu alone seldom sinks a carrier first); 27 and 47 play on to Turn 7
SOLITAIRE_SEEDS = (0, 1, 2, 3, 4, 5, 27, 47)
STANDARD_SEEDS = (1, 8)


@pytest.mark.parametrize("seed", SOLITAIRE_SEEDS)
def test_solitaire_random_japanese_plays_to_a_verdict(game, seed):
    played, positions = play_watched(game, seed, "solitaire")
    assert played.stopped == "over"
    verdict = played.position.verdict
    assert verdict.condition in {v.id for v in game.victory}
    assert verdict.rule and verdict.reason
    assert RULES.decision(game, played.position) is None
    assert all(p.due is None or p.due.side == "japan" for p in positions)


def test_from_one_us_carrier_sunk_random_play_reaches_day_2(game):
    """From the end of Turn 3 with Yorktown sunk (M-EX19) random Japanese play goes through
    the night turn (10.x) into Day 2, and some games to the points of the end of Turn 7
    (4.2), the invariants holding at every step."""
    position = at_phase(game, "solitaire", "end-of-turn", 3)
    area = A.sink(game, to_area(game, position), "yorktown")
    position, _ = proceeded(game, with_area(game, position, area))
    verdicts = []
    for seed in range(8):
        positions = play_from(game, position, seed)
        assert {4, 5} <= {p.turn for p in positions}
        verdicts.append(positions[-1].verdict)
    assert any(v.condition == "day-2" and v.rule == ("4.2",) for v in verdicts)
    assert all(v.condition in ("automatic", "day-2") for v in verdicts)


@pytest.mark.parametrize("seed", STANDARD_SEEDS)
def test_two_player_random_agents_play_to_a_verdict(game, seed):
    played, positions = play_watched(game, seed, "standard")
    assert played.stopped == "over"
    assert {p.due.side for p in positions if p.due} == {"japan", "us"}
    kinds = {p.due.kind for p in positions if p.due}
    assert {"setup", "declare", "plan", "movement", "air-op", "night-op", "search-card",
            "scuttle"} <= kinds


def test_the_solitaire_us_answers_only_with_listed_actions(game, monkeypatch):
    """12.3(4): every answer of the US procedure is one of the legal answers listed."""
    original = ses.policy.choose
    checked = []

    def checked_choose(run: Run):
        name, args = original(run)
        listed = {(a.name, tuple(sorted((k, str(v)) for k, v in a.args.items())))
                  for a in RULES.decision(run.game, run.pos).actions()}
        assert (name, tuple(sorted((k, str(v)) for k, v in args.items()))) in listed, (
            run.pos.due.kind, name, args)
        checked.append(name)
        return name, args

    monkeypatch.setattr(ses.policy, "choose", checked_choose)
    for seed in (1, 27, 47):
        play_watched(game, seed, "solitaire")
    assert {"move", "launch", "fly", "end-op", "intercept"} <= set(checked)


def test_a_session_replays_byte_identical(game, tmp_path):
    """The actions of a playout made in a session store give the same positions, and the
    replay of its log confirms every step."""
    played, _ = play_watched(game, 47, "solitaire")
    with store.create(tmp_path / "s", "midway", "solitaire", 47) as s:
        for name, args in played.actions:
            s.command(name, args)
        final = s.state
    assert final.canonical() == played.position.canonical()
    report = store.replay(tmp_path / "s")
    assert report.ok


def test_the_same_seed_and_commands_give_the_same_game(game):
    a, _ = play_watched(game, 27, "solitaire")
    b, _ = play_watched(game, 27, "solitaire")
    assert a.actions == b.actions and a.position.digest() == b.position.digest()


def test_a_position_survives_json(game):
    _, positions = play_watched(game, 27, "solitaire")
    for position in positions[::7]:
        again = type(position).from_json(json.loads(json.dumps(position.to_json())))
        assert again == position and again.digest() == position.digest()


# --- refusals, each with its rule -----------------------------------------------------------


def solitaire_movement(game):
    position = start(game, "solitaire")
    position, _ = apply(game, position, ("declare", {"attack": "no"}))
    assert due(position) == ("movement", "japan")
    return position


def test_fleet_moves_within_the_allowance_and_around_midway(game):
    position = solitaire_movement(game)
    assert "6.1(1)" in str(refusal(game, position, "sail",
                                   {"fleet": "ichikokan", "path": "D-3,E-3,F-4,G-4"}))
    assert "6.1" in str(refusal(game, position, "sail",
                                {"fleet": "ichikokan", "path": "D-3,F-4"}))
    assert "6.3(1)" in str(refusal(game, position, "sail",
                                   {"fleet": "invasion-force", "path": "A-4,B-5"}))


def test_no_day_move_into_the_us_fleet(game):
    """E30 (6.1(4)): by day a Japanese fleet does not end in the US fleet's hex."""
    position = solitaire_movement(game)
    assert "6.1(4)" in str(refusal(game, position, "sail",
                                   {"fleet": "ichikokan", "path": "D-3,E-3,F-3"}))


def test_a_declared_base_attack_binds_the_fleet(game):
    """6.4(2): after a declaration the 1st Air Fleet ends within 5 hexes of Midway."""
    position = start(game, "solitaire")
    position, _ = apply(game, position, ("declare", {"attack": "yes"}))
    assert "6.4(2)" in str(refusal(game, position, "sail", {"fleet": "ichikokan",
                                                            "path": "D-3,D-2,D-1"}))
    ends = [a["path"].split(",")[-1] for n, a in legal(game, position) if n == "sail"]
    assert ends and all(distance(game, h, "F-6") <= 5 for h in ends)
    assert "D-1" not in ends


def test_a_base_attack_needs_an_attack_aircraft_on_deck(game):
    """6.4(3), E34: with no attack aircraft on a deck no base attack is declared."""
    position = start(game, "solitaire")
    area = to_area(game, position)
    area = A.place(game, area, "b5n-hiryu-3", "cardiv2", "hiryu-hangar")
    position = with_area(game, position, area)
    assert "6.4(3)" in str(refusal(game, position, "declare", {"attack": "yes"}))
    assert [a for a, _ in legal(game, position)] == ["declare"]


def japanese_air_op(game, seed=1):
    """The solitaire Japanese at their first air operation of Turn 3 (the US flew first)."""
    position = solitaire_movement(game)
    position, _ = apply(game, position, ("end-move", {}))
    for _ in range(20):
        if due(position) == ("air-op", "japan"):
            return position
        name, args = legal(game, position)[-1]
        position, _ = apply(game, position, (name, args))
    raise AssertionError("no Japanese air operation")


def test_air_operation_refusals(game):
    position = japanese_air_op(game)
    assert "8.4(1)" in str(refusal(game, position, "launch",
                                   {"unit": "d3a-hiryu-5", "group": "new"}))
    assert "9.0" in str(refusal(game, position, "launch",
                                {"unit": "a6m-hiryu-2", "group": "new"}))
    moved, _ = apply(game, position, ("move", {"unit": "a6m-hiryu-1",
                                               "box": "cardiv2/hiryu-hangar"}))
    assert "8.2" in str(refusal(game, moved, "move", {"unit": "a6m-hiryu-1",
                                                      "box": "cardiv2/cap"}))
    assert "8.3" in str(refusal(game, position, "move", {"unit": "a6m-hiryu-4",
                                                         "box": "cardiv2/cap"}))
    launched, _ = apply(game, position, ("launch", {"unit": "b5n-hiryu-3", "group": "new"}))
    assert "8.5" in str(refusal(game, launched, "end-op"))
    assert "12.3(7)" in str(refusal(game, launched, "take-card"))


def test_a_launched_group_flies_at_a_target_in_reach(game):
    """8.4(4): with the US fleet within 2 hexes the group must attack it."""
    position = japanese_air_op(game)
    us_hex = position.piece("tf16-17").place
    position, _ = apply(game, position, ("launch", {"unit": "b5n-hiryu-3", "group": "new"}))
    gid = next(p.props["group"] for p in position.pieces if p.kind == "hex"
               and p.id == "b5n-hiryu-3")
    elsewhere = next(h for h in ("C-3", "D-2", "D-4") if h != us_hex)
    assert "8.4(4)" in str(refusal(game, position, "fly", {"group": gid, "hex": elsewhere}))
    assert [a["hex"] for n, a in legal(game, position) if n == "fly"] == [us_hex]


def test_the_card_instead_of_an_operation_once(game):
    """12.3(7): once a game, before anything moves in the operation."""
    position = japanese_air_op(game)
    deck = len(position.cards["deck"])
    after, said = apply(game, position, ("take-card", {}))
    assert len(after.cards["deck"]) < deck and len(after.cards["japan.hand"]) == 2
    assert after.data["card_taken"] is True
    run = Run(game, with_data(after, op=None))
    flow.start_op(run, "japan", "air")
    run.pos = replace(run.pos, pending=())
    flow.op_decision(run)
    assert "12.3(7)" in str(refusal(game, run.pos, "take-card"))


def test_the_us_launches_one_group_per_carrier(game):
    """8.4(2), E35: the units a US carrier launches in one operation form one group."""
    position = start(game, "standard")
    area = to_area(game, position)
    sbds = [u.uid for u in area.units if u.uid.startswith("sbd-enterprise")]
    run = Run(game, with_data(position, revealed=True))
    run.pos = replace(run.pos, pending=(), phase="air-operations", turn=2)
    run.pos = moved_fleet(run.pos, "tf16-17", "H-3")
    run.pos = moved_fleet(run.pos, "ichikokan", "B-3")
    flow.start_op(run, "us", "air")
    flow.op_decision(run)
    deck = [u for u in sbds if to_area(game, run.pos).unit(u).box.endswith("deck-front")
            or to_area(game, run.pos).unit(u).box.endswith("deck-rear")]
    assert len(deck) == 2
    first, _ = apply(game, run.pos, ("launch", {"unit": deck[0], "group": "new"}))
    assert "8.4(2)" in str(refusal(game, first, "launch", {"unit": deck[1], "group": "new"}))
    both, _ = apply(game, first, ("launch", {"unit": deck[1], "group": "g1"}))
    assert len(to_area(game, both).group("g1")) == 2


def test_bad_input_is_told_before_any_rule(game):
    from warpress.engine.errors import BadInput

    position = start(game, "solitaire")
    for name, args in (("sail", {"fleet": "yamato", "path": "D-3"}),
                       ("move", {"unit": "zero-1", "box": "cardiv2/cap"}),
                       ("fly", {"group": "g9", "hex": "Z-99"}),
                       ("declare", {"attack": "maybe"}), ("nuke", {})):
        with pytest.raises(BadInput):
            RULES.apply(game, position, name, args, SeededDice(1))
    with pytest.raises(BadInput):
        RULES.load_scenario(game, "campaign")

"""The agents (engine/agents.py): random, greedy and MCTS over the decisions a person makes;
what they may see of a game that hides part of its position; agents in a session."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from warpress.engine import session as sessions
from warpress.engine.agents import (
    MOST_STEPS,
    GreedyAgent,
    MctsAgent,
    RandomAgent,
    Seen,
    agent_rng,
    candidates,
    make_agent,
    parse_agents,
    play_session,
    playout,
    position_score,
)
from warpress.engine.decisions import Action, Decision, Option
from warpress.engine.dice import GivenDice, SeededDice
from warpress.engine.errors import BadInput
from warpress.engine.evaluate import score
from warpress.engine.loader import builtin, load_game
from warpress.engine.play.context import Context
from warpress.engine.play.flow import enter
from warpress.engine.play.game import HexRules
from warpress.engine.play.sequence import phase
from warpress.engine.position import Piece, Position, Verdict
from warpress.engine.referee import Step
from warpress.engine.rulesets import rules_for
from warpress.starter.new import new_game

RULES = HexRules()
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "games"


@pytest.fixture(scope="module")
def starter_dir(tmp_path_factory) -> Path:
    return new_game(str(tmp_path_factory.mktemp("agents") / "starter")).folder


@pytest.fixture(scope="module")
def starter(starter_dir):
    return load_game(str(starter_dir))


def _attack_position(game) -> Position:
    """North's combat phase with n3 and n4 (attack 4 + 6) next to s3 reduced (defence 2) in
    clear terrain: 5-1, where every roll but one hurts the defender."""
    position = RULES.new(game, None, GivenDice([1])).state
    n3, n4, s3 = (position.piece(p) for p in ("n3", "n4", "s3"))
    position = position.with_pieces([n3.at("hex", "0505"), n4.at("hex", "0505"),
                                     replace(s3.at("hex", "0506"), step=1)])
    return enter(Context(game, GivenDice([])), position, phase(game, "north-attack"))


# --- random and the choice of agents -------------------------------------------------------


def test_the_random_agent_picks_an_option_then_one_of_its_actions():
    expanded = []

    def option(label, *names):
        def make():
            expanded.append(label)
            return tuple(Action.of(n) for n in names)
        return Option(label, make)

    decision = Decision("a", "move", "a moves", (), (option("x", "x1", "x2"), option("y", "y1")))
    chosen = RandomAgent().choose(Seen(None, RULES, Position(game="g"), decision),
                                  random.Random(0))
    assert chosen.name in ("x1", "x2", "y1")
    assert len(expanded) == 1, "one option expanded, not every one"


def test_agents_by_name_and_bad_names_quote_the_input():
    assert make_agent("greedy").name == "greedy"
    assert make_agent("mcts:50").budget == 50
    with pytest.raises(BadInput, match="unknown agent 'clever'"):
        make_agent("clever")
    with pytest.raises(BadInput, match="only mcts takes a budget"):
        make_agent("greedy:5")
    assert make_agent(f"mcts:{MOST_STEPS}").budget == MOST_STEPS
    with pytest.raises(BadInput, match=f"from 1 to {MOST_STEPS}"):  # a session names its
        make_agent(f"mcts:{MOST_STEPS + 1}")  # agents: none may stall a command
    assert parse_agents(["north=greedy"], ["north", "south"]) == {"north": "greedy"}
    with pytest.raises(BadInput, match="no side 'east'"):
        parse_agents(["east=random"], ["north", "south"])
    with pytest.raises(BadInput, match="expected SIDE=AGENT"):
        parse_agents(["north"], ["north", "south"])


# --- greedy ---------------------------------------------------------------------------------


def test_greedy_values_a_rolled_step_as_its_expected_score_over_the_die(starter):
    position = _attack_position(starter)
    decision = RULES.decision(starter, position)
    seen = Seen(starter, RULES, position, decision)
    attack = next(a for a in decision.actions() if a.name == "attack")
    by_hand = []
    for roll in range(1, 7):
        after = RULES.apply(starter, position, attack.name, dict(attack.args),
                            GivenDice([roll])).state
        by_hand.append(Fraction(round(score(starter, after, "north"), 9)))
    assert GreedyAgent().value(seen, position, attack, random.Random(0)) == pytest.approx(
        float(sum(by_hand) / 6))


def test_greedy_attacks_at_good_odds_instead_of_ending_the_phase(starter):
    position = _attack_position(starter)
    decision = RULES.decision(starter, position)
    chosen = GreedyAgent().choose(Seen(starter, RULES, position, decision), random.Random(3))
    assert chosen.name == "attack" and chosen.args["hex"] == "0506"
    assert set(chosen.args["units"].split(",")) == {"n3", "n4"}


def test_greedy_beats_random_on_the_starting_game(starter):
    wins = 0
    for seed in range(4):
        played = playout(starter, RULES, seed, {"north": GreedyAgent(), "south": RandomAgent()})
        wins += played.position.verdict.winner == "north"
    assert wins >= 3, "a one-step look-ahead should take the cities from a random player"


class _PrefersEnding(HexRules):
    """The starting game's rules with their own score: ending the phase (the position
    before any attack) is worth most to north."""

    def __init__(self, before: Position):
        self.before = before

    def score(self, game, position, side):
        return 100.0 if position.pieces == self.before.pieces else 0.0


def test_the_rules_own_score_is_what_greedy_maximises(starter):
    position = _attack_position(starter)
    rules = _PrefersEnding(position)
    decision = rules.decision(starter, position)
    chosen = GreedyAgent().choose(Seen(starter, rules, position, decision), random.Random(3))
    assert chosen.name != "attack"
    assert position_score(rules, starter, position, "north") == 100.0
    assert position_score(RULES, starter, position, "north") == score(starter, position,
                                                                      "north")
    won = replace(position, verdict=Verdict("south", "held", "both cities", ("1",), "cities"))
    assert position_score(rules, starter, won, "north") == score(starter, won, "north") < 0


# --- MCTS -----------------------------------------------------------------------------------


class _Counting(HexRules):
    def __init__(self):
        self.applied = 0

    def apply(self, game, position, command, args, dice):
        self.applied += 1
        return super().apply(game, position, command, args, dice)


def test_mcts_keeps_to_its_budget_and_is_deterministic_from_its_seed(starter):
    rules = _Counting()
    position = RULES.new(starter, None, GivenDice([1])).state
    decision = rules.decision(starter, position)
    agent = MctsAgent(budget=60, depth=8)
    first = agent.choose(Seen(starter, rules, position, decision), random.Random(5))
    spent = rules.applied
    assert 60 <= spent <= 60 + agent.depth
    again = agent.choose(Seen(starter, rules, position, decision), random.Random(5))
    assert first == again


class _Frugal(_Counting):
    """Rules that name how far their agents look ahead (rules.lookahead)."""

    lookahead = {"mcts": {"budget": 20, "depth": 3}, "greedy": {"limit": 2}}


def test_a_games_lookahead_sets_what_an_agent_was_not_told(starter):
    rules = _Frugal()
    position = RULES.new(starter, None, GivenDice([1])).state
    decision = rules.decision(starter, position)
    MctsAgent().choose(Seen(starter, rules, position, decision), random.Random(5))
    assert 20 <= rules.applied <= 20 + 3
    rules.applied = 0
    MctsAgent(budget=40).choose(Seen(starter, rules, position, decision), random.Random(5))
    assert 40 <= rules.applied <= 40 + 3           # told: its own budget, the game's depth
    assert GreedyAgent().settings(rules) == {"limit": 2, "rolls": 216, "samples": 4,
                                             "options": 0}
    assert GreedyAgent(limit=9).settings(rules)["limit"] == 9
    assert GreedyAgent().settings(RULES) == GreedyAgent.DEFAULTS


def test_mcts_takes_the_attack_a_search_finds_good(starter):
    position = _attack_position(starter)
    decision = RULES.decision(starter, position)
    chosen = MctsAgent(budget=120, depth=4).choose(Seen(starter, RULES, position, decision),
                                                   random.Random(1))
    assert chosen.name == "attack"


# --- hidden information ---------------------------------------------------------------------


class ShellRules:
    """A game that hides something: a prize under one of three shells (A, B, C); the seeker
    lifts one shell a turn and is told only whether the prize was under it; two misses and
    the hider wins. The view shows the shells lifted, never where the prize is."""

    hidden = True
    actions = ()
    commands = ("lift",)

    def decision(self, game, position):
        if position.over:
            return None
        lifted = set(position.data.get("lifted", ()))
        options = tuple(Option.single(Action.of("lift", shell=s)) for s in "ABC"
                        if s not in lifted)
        return Decision("seeker", "lift", "lift a shell", ("1.0",), options)

    def apply(self, game, position, command, args, dice):
        shell = args["shell"]
        lifted = (*position.data.get("lifted", ()), shell)
        found = position.piece("prize").place == shell
        position = position.with_data(lifted=list(lifted))
        if found:
            position = _over(position, "seeker")
        elif len(lifted) >= 2:
            position = _over(position, "hider")
        return Step(position)

    def player_view(self, game, position, side=None):
        return {"lifted": list(position.data.get("lifted", ())), "over": position.over}

    def determinise(self, game, view, side, rng):
        free = [s for s in "ABC" if s not in view["lifted"]]
        return shell_position(free[rng.randrange(len(free))], view["lifted"])


def _over(position, winner):
    return replace(position, verdict=Verdict(winner, "win", f"{winner} wins", ("1.0",)))


def shell_position(prize: str, lifted=()) -> Position:
    piece = Piece("prize", "prize", "hider", "box", prize)
    position = Position(game="shell", pieces=(piece,))
    return position.with_data(lifted=list(lifted)) if lifted else position


@pytest.fixture(scope="module")
def any_game():
    return load_game(str(FIXTURES / "ridge"))


@pytest.mark.parametrize("name", ["random", "greedy", "mcts:40"])
def test_where_the_prize_hides_does_not_change_a_choice(any_game, name):
    """Two positions that differ only in what the seeker may not see, the same view: the
    same choice, for every seed tried."""
    rules = ShellRules()
    for seed in range(6):
        chosen = set()
        for prize in ("B", "C"):
            position = shell_position(prize, ["A"])
            seen = Seen(any_game, rules, position, rules.decision(any_game, position))
            action = make_agent(name).choose(seen, random.Random(seed))
            chosen.add((action.name, tuple(sorted(action.args.items()))))
        assert len(chosen) == 1, f"{name} with seed {seed} chose by the hidden prize"


def test_what_the_rules_reveal_does_change_a_choice(any_game):
    rules = ShellRules()
    for lifted in ("A", "B"):
        position = shell_position("C", [lifted])
        seen = Seen(any_game, rules, position, rules.decision(any_game, position))
        chosen = GreedyAgent().choose(seen, random.Random(0))
        assert chosen.args["shell"] != lifted


def test_a_hidden_game_is_searched_from_positions_drawn_from_the_view(any_game):
    rules = ShellRules()
    position = shell_position("B")
    seen = Seen(any_game, rules, position, rules.decision(any_game, position))
    assert seen.view == {"lifted": [], "over": False}
    drawn = {seen.sample(random.Random(s)).piece("prize").place for s in range(30)}
    assert drawn == {"A", "B", "C"}
    blind = BlindShellRules()
    with pytest.raises(BadInput, match="only the random agent plays it"):
        Seen(any_game, blind, position, blind.decision(any_game, position)).sample(
            random.Random(0))


class BlindShellRules(ShellRules):
    """Rules that hide the prize and cannot draw a position from a view."""

    determinise = None


# --- sessions -------------------------------------------------------------------------------


def test_a_session_played_by_agents_is_the_playout_of_its_seed(starter, starter_dir, tmp_path):
    agents = {"north": "random", "south": "mcts:8"}
    played = playout(starter, RULES, 9, {s: make_agent(n) for s, n in agents.items()})
    with sessions.create(tmp_path / "s", str(starter_dir), None, 9, agents) as s:
        made = play_session(s, s.agents)
        assert s.state == played.position
    assert [(a.name, dict(a.args)) for _side, _name, a, _step in made] == played.actions
    records = sessions.open(tmp_path / "s", readonly=True).history()
    assert records[0]["agents"] == agents
    assert {r.get("agent") for r in records[1:]} == {"mcts:8", "random"}
    assert sessions.replay(tmp_path / "s").ok


def test_an_agent_answers_each_command_of_a_person(starter_dir, tmp_path):
    with sessions.create(tmp_path / "s", str(starter_dir), None, 4, {"south": "random"}) as s:
        assert s.decision().side == "north"
        s.command("end", {})
        made = play_session(s, s.agents)
        assert made and all(side == "south" for side, *_ in made)
        assert s.decision().side == "north" or s.state.over
    assert agent_rng(4, 2).random() == agent_rng(4, 2).random()


def test_a_search_values_its_alliance_s_win_as_its_own():
    """Axis & Allies' verdicts name an alliance: MCTS counts the axis' win as Germany's and
    Japan's, a loss for each Allied power."""
    aa = builtin("axis-allies")
    rules = rules_for(aa)
    begun = rules.new(aa, rules.load_scenario(aa, None), SeededDice(1)).state
    won = replace(begun, verdict=Verdict("axis", "win", "axis economic victory", ("L13",)))
    for side in ("germany", "russia"):
        decision = replace(rules.decision(aa, begun), side=side)
        value = MctsAgent()._value(Seen(aa, rules, begun, decision), won)
        assert value == (1.0 if side == "germany" else 0.0)


# --- budgets: the options listed, the turn cap -------------------------------------------


def _listed(label: str, asked: list[str], n: int) -> Option:
    def expand() -> tuple[Action, ...]:
        asked.append(label)
        return tuple(Action.of("move", unit=label, to=str(i)) for i in range(n))
    return Option(label, expand)


def test_candidates_list_the_answers_of_a_few_options_and_always_the_last():
    asked: list[str] = []
    options = tuple(_listed(f"group {i}", asked, 3) for i in range(20))
    decision = Decision("north", "move", "move", (), options + (Option.single(Action.of("end")),))
    weighed = candidates(decision, random.Random(3), 16, options=5)
    assert len(asked) == 4 and Action.of("end") in weighed  # 4 groups drawn, and the end
    assert {a.args["unit"] for a in weighed if a.name == "move"} == set(asked)
    again: list[str] = []
    decision = Decision("north", "move", "move", (), tuple(_listed(f"group {i}", again, 3)
                                                           for i in range(20)))
    candidates(decision, random.Random(3), 16)
    assert len(again) == 20  # without the setting, every option is listed


def test_a_turn_cap_stops_a_game_undecided(starter):
    played = playout(starter, RULES, 1, RandomAgent(), max_turns=1)
    assert played.stopped == "turn-cap" and played.position.turn == 2
    assert played.position.verdict is None


def test_candidates_list_every_option_when_those_drawn_have_no_answer():
    asked: list[str] = []
    empty = tuple(_listed(f"stuck {i}", asked, 0) for i in range(9))
    decision = Decision("north", "move", "move", (), empty[:4] + (_listed("free", asked, 2),)
                        + empty[4:])
    weighed = candidates(decision, random.Random(0), 16, options=2)
    assert [a.args["unit"] for a in weighed] == ["free", "free"]


def test_answers_several_options_list_alike_are_weighed_once_past_the_limit():
    same = tuple(Option(f"group {i}", lambda: tuple(Action.of("move", to=str(k))
                                                     for k in range(3))) for i in range(4))
    for seed in range(20):  # never more drawn than are left
        weighed = candidates(Decision("north", "move", "move", (), same), random.Random(seed),
                             8)
        assert 3 <= len(weighed) <= 8 and all(a.name == "move" for a in weighed)

"""rules/views.py: what each side sees. Nothing hidden leaks to a side: its view, the
decisions it is asked, the answers listed, its refusals and every command's output depend
only on what the rules let it know.

The hidden elements of the Fateful Midway Card Game: the other player's hand (its size is
known), the order of every deck (each player's own deck too, and the secondary-damage
deck). A twin of a position changes them all and keeps everything public (cards on the
table, discard piles, damage, the armament-change cards the Japanese took openly, every
pile's size); the side's outputs must stay byte-identical, and the other side's must not
(the comparison can fail).
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace

import pytest
from mc_session import RULES, apply, at_attack, play_watched
from warpress import cli
from warpress.engine.dice import SeededDice, derived_seed
from warpress.engine.errors import BadInput, RuleViolation
from warpress.engine.model import FrozenDict
from warpress.games.midway_cards.rules import state as st
from warpress.games.midway_cards.rules.common import ARMAMENT_DECK, card, instances, opponent
from warpress.games.midway_cards.rules.positions import cards, pile
from warpress.output import decision_lines, view_lines

SIDES = ("japan", "us")
#: answers that lead a side out of a decision whatever its hand
QUIET = ("pass", "keep", "launch", "exchange", "recover")


def twin(game, position, side, rng, own_decks=True):
    """``position`` with what ``side`` may not know changed: the other hand's action cards
    swapped with cards of the other deck (the hand's size kept, the armament-change cards
    the Japanese took openly kept), and, with ``own_decks``, the order of the side's own
    deck and of the secondary-damage deck."""
    other = opponent(side)
    hand = list(cards(position, pile(other, "hand")))
    kept = [c for c in hand if card(game, c).deck == ARMAMENT_DECK]
    pool = [c for c in hand if c not in kept] + list(cards(position, pile(other, "deck")))
    rng.shuffle(pool)
    size = len(hand) - len(kept)
    piles = dict(position.cards)
    piles[pile(other, "hand")] = tuple(kept + pool[:size])
    piles[pile(other, "deck")] = tuple(pool[size:])
    if own_decks:
        for name in (pile(side, "deck"), "secondary.deck"):
            shuffled = list(piles[name])
            rng.shuffle(shuffled)
            piles[name] = tuple(shuffled)
    books = {s: dict(b) for s, b in position.data["players"].items()}
    books[other]["drawn"] = [c for c in books[other]["drawn"] if c in piles[pile(other, "hand")]]
    data = FrozenDict({**position.data, "players": FrozenDict(
        {s: FrozenDict(b) for s, b in books.items()})})
    return replace(position, cards=FrozenDict(piles), data=data)


def outputs(game, position, side):
    """Everything a side's commands print about a position: the view (JSON and text) and the
    decision (its answers when the side makes it; else only what is asked of whom)."""
    view = RULES.player_view(game, position, side)
    out = [json.dumps(view, ensure_ascii=False, sort_keys=True), "\n".join(view_lines(view))]
    decision = RULES.decision(game, position)
    if decision is not None:
        if decision.side != side:
            decision = replace(decision, options=())
        shown = decision.as_json()
        out += [json.dumps(shown, ensure_ascii=False), "\n".join(decision_lines(shown))]
    return out


def sample(game, seeds, every):
    """Positions from random games, ``every``-th step."""
    for seed in seeds:
        _played, positions = play_watched(game, seed)
        yield from positions[::every]


def test_no_hidden_element_reaches_a_side(game):
    rng = random.Random(5)
    compared = changed = 0
    for position in sample(game, range(5), 6):
        for side in SIDES:
            other = twin(game, position, side, rng)
            assert outputs(game, position, side) == outputs(game, other, side)
            assert outputs(game, position, None) == outputs(game, other, None)
            compared += 1
            changed += cards(position, pile(opponent(side), "hand")) != cards(
                other, pile(opponent(side), "hand"))
    assert compared > 200 and changed > compared // 2


def test_the_comparison_sees_a_hand(game):
    """The other side's outputs change with its own hand: the comparison above can fail."""
    rng = random.Random(2)
    differs = 0
    for position in sample(game, range(2), 9):
        for side in SIDES:
            other = twin(game, position, side, rng)
            if cards(position, pile(opponent(side), "hand")) != cards(
                    other, pile(opponent(side), "hand")):
                differs += outputs(game, position, opponent(side)) != outputs(
                    game, other, opponent(side))
    assert differs > 20


def outcome(game, position, name, args, n):
    try:
        step = RULES.apply(game, position, name, args, SeededDice(n))
    except (RuleViolation, BadInput) as exc:
        return position, ("refused", type(exc).__name__, str(exc))
    return step.state, [a.as_json() for a in step.announcements]


def probes(game, side, rng):
    """Commands a side might type that name cards at random (most refused)."""
    every = [c for s in SIDES for c in instances(game, f"{s}-action")]
    picks = rng.sample(every, 4)
    return [("fly", {"card": picks[0], "mission": "A"}), ("cap", {"card": picks[1]}),
            ("defend", {"card": picks[2], "defense": picks[3]}),
            ("exchange", {"cards": picks[0]}), ("discard", {"cards": picks[1]}),
            ("target", {"ship": rng.choice(["akagi", "yorktown"])}), ("pass", {})]


@pytest.mark.parametrize("seed", [1, 8])
def test_playing_on_from_twins_tells_a_side_the_same(game, seed):
    """From a position and its twin (the other hand and deck changed), the side plays its
    own answers and the other side answers that are legal in both: after every step the
    side's outputs, the announcements and the refusals of the commands it might type are
    the same."""
    rng = random.Random(seed)
    _played, positions = play_watched(game, seed)
    steps = 0
    for start in positions[5::23]:
        if start.verdict is not None:
            continue
        side = start.side
        a, b = start, twin(game, start, side, rng, own_decks=False)
        for n in range(25):
            assert outputs(game, a, side) == outputs(game, b, side)
            decision = RULES.decision(game, a)
            if decision is None:
                break
            if decision.side == side:
                for name, args in probes(game, side, rng):
                    assert outcome(game, a, name, args, n)[1] == outcome(game, b, name, args,
                                                                          n)[1]
                actions = [(x.name, dict(x.args)) for x in decision.actions()]
            else:
                other = {(x.name, tuple(sorted(x.args.items())))
                         for x in RULES.decision(game, b).actions()}
                actions = [(x.name, dict(x.args)) for x in decision.actions()
                           if (x.name, tuple(sorted(x.args.items()))) in other]
            if not actions:
                break
            name, args = rng.choice(actions)
            a, said_a = outcome(game, a, name, args, n)
            b, said_b = outcome(game, b, name, args, n)
            assert said_a == said_b, (name, args)
            steps += 1
    assert steps > 40


def test_the_events_tell_counts_not_cards(game):
    """Announcements say how many cards a side drew, never which: a card named is on the
    table or in a discard pile before or after the step (played, discarded face up, taken
    back), re-armed openly, or in a hand shown by 5-1."""
    played, positions = play_watched(game, 3)
    for n, (name, args) in enumerate(played.actions, 1):
        before = positions[n - 1]
        step = RULES.apply(game, before, name, args, SeededDice(derived_seed(3, n)))
        public = set()
        for position in (before, step.state):
            for s in SIDES:
                public |= set(cards(position, pile(s, "discard")))
                public |= set(cards(position, pile(s, "table")))
        for s in SIDES:  # played or discarded face up in this step
            public |= set(cards(before, pile(s, "hand"))) - set(cards(step.state,
                                                                       pile(s, "hand")))
        for note in step.announcements:
            if "reveals the hand" in note.text or "re-arms" in note.text:
                continue
            named = {w.strip(",():") for w in note.text.split() if "#" in w}
            named = {c for c in named if card(game, c).deck.endswith("-action")}
            assert named <= public, note.text


def test_a_side_sees_its_hand_and_the_size_of_the_other(game):
    position = at_attack(game, ("j-zero#1", "j-d3a#1"), ("us-f4f#1", "us-aa-a#1",
                                                        "us-emergency-repair#1"))
    japan = RULES.player_view(game, position, "japan")
    assert [h["id"] for h in japan["hand"]] == ["j-zero#1", "j-d3a#1"]
    assert japan["hand"][0]["text"] == "fighter: F air A; A air C anti-ship C damage 1 bombing"
    sizes = {d["id"]: d for d in japan["decks"]}
    assert (sizes["us"]["hand"], sizes["japan"]["hand"]) == (3, 2)
    assert sizes["us"]["deck"] + 3 == sizes["us"]["of"]
    us = RULES.player_view(game, position, "us")
    assert us["hand"][2]["text"] == "tactics 応急修理: Any time during the US turn (rule 10-2)"
    assert "j-zero#1" not in json.dumps(us)
    with pytest.raises(BadInput, match="side 'germany'"):
        RULES.player_view(game, position, "germany")


def test_the_table_shows_the_attack_going_on(game):
    position = at_attack(game, ("j-zero#1", "j-d3a#1"), ("us-f4f#1", "us-aa-a#1"))
    position, _ = apply(game, position, ("fly", {"card": "j-zero#1", "mission": "F"}),
                        ("cap", {"card": "us-f4f#1"}),
                        ("fly", {"card": "j-d3a#1", "mission": "A"}))
    table = RULES.player_view(game, position, "us")["table"]
    assert table == [
        {"id": "j-zero#1", "side": "japan", "as": "F", "paired_with": "us-f4f#1",
         "target": None, "defended_by": None},
        {"id": "j-d3a#1", "side": "japan", "as": "A", "paired_with": None, "target": None,
         "defended_by": None},
        {"id": "us-f4f#1", "side": "us", "as": "CAP"}]
    due = RULES.player_view(game, position, "japan")
    assert due["acting"] == "us" and due["turn_of"] == "japan"
    assert due["due"]["data"] == {"card": "j-d3a#1", "mission": "A"}
    assert due["awaiting"] == ["cap", "pass"]
    assert RULES.player_view(game, position, "us")["awaiting"] == ["pass"]


def test_the_public_view_holds_no_hand(game):
    _played, positions = play_watched(game, 5)
    for position in positions[::17]:
        view = RULES.player_view(game, position)
        assert view["hand"] == [] and view["viewer"] is None
        text = json.dumps(view)
        for s in SIDES:
            for c in cards(position, pile(s, "hand")):
                if card(game, c).deck != ARMAMENT_DECK:
                    assert f'"{c}"' not in text or c in json.dumps(view["announcements"])


# --- the command line: two sessions, the other side dealt differently ----------------------


@pytest.fixture
def sessions(tmp_path, monkeypatch):
    """Two sessions of one seed; in the second the Japanese deck is dealt in another order
    (their opening hand differs); the log's clock stands still."""
    monkeypatch.setattr("warpress.engine.session._now", lambda: "T")
    run = cli.main
    from click.testing import CliRunner

    runner = CliRunner()

    def invoke(*args):
        """A command's exit code and output; the log's head hash masked: it differs between
        two sessions by their random ids whatever their hands (it covers no position hash:
        tests/engine/test_session.py)."""
        result = runner.invoke(run, list(args))
        return (result.exit_code, re.sub(r"head [0-9a-f]{16}", "head H", result.stdout),
                result.stderr)

    a, b = str(tmp_path / "a"), str(tmp_path / "b")
    assert invoke("play", "new", "midway-cards", "--seed", "21", "--session", a)[0] == 0
    original = st.new_game

    def dealt_otherwise(game, seed=0, shuffle=True):
        """Two cards of the Japanese opening hand swapped with two of the deck, whose order
        changes too."""
        state = original(game, seed, shuffle)
        hand, deck = list(state.japan.hand), list(state.japan.deck)
        shuffle_ = random.Random(99)
        shuffle_.shuffle(deck)
        hand[0], deck[0] = deck[0], hand[0]
        hand[3], deck[1] = deck[1], hand[3]
        shuffle_.shuffle(deck)
        return replace(state, japan=replace(state.japan, hand=tuple(hand), deck=tuple(deck)))

    with monkeypatch.context() as patch:
        patch.setattr(st, "new_game", dealt_otherwise)
        assert invoke("play", "new", "midway-cards", "--seed", "21", "--session", b)[0] == 0
    return invoke, a, b


def test_the_command_line_shows_the_us_player_the_same(sessions):
    """status, moves, log, the actions' output, refusals, in text and JSON: byte-identical
    for the US while the Japanese hand and deck differ; the Japanese outputs differ."""
    invoke, a, b = sessions
    rng = random.Random(4)

    def both(*args):
        return (invoke("play", *args, "--session", a), invoke("play", *args, "--session", b))

    def same(*args):
        one, two = both(*args)
        assert one == two, args
        return one

    assert both("status", "--side", "japan")[0] != both("status", "--side", "japan")[1]
    played = 0
    for n in range(40):
        for args in (("status", "--side", "us", "--json"), ("moves", "--side", "us"),
                     ("log",)):
            same(*args)
        if n % 4 == 0:
            for args in (("status", "--side", "us"), ("moves", "--side", "us", "--json"),
                         ("status",), ("status", "--json")):
                same(*args)
        code, out, _ = invoke("play", "moves", "--json", "--session", a)
        if code != 0:
            break
        decision = json.loads(out)
        listed = [x["command"] for o in decision["options"] for x in o["actions"]]
        if decision["side"] == "us":
            same(*"fly j-zero#1 A".split())
            same(*"cap us-f4f#9".split())
            same(*"discard us-aa-a#1".split())
        else:
            other = json.loads(invoke("play", "moves", "--json", "--session", b)[1])
            common = {x["command"] for o in other["options"] for x in o["actions"]}
            # the Japanese fly no escort: an escort's A card to follow may be in one hand only
            listed = [c for c in listed if c in common and not c.endswith(" F")]
            quiet = [c for c in listed if c.split()[0] in QUIET]
            listed = quiet if quiet and rng.random() < 0.7 else listed
        if not listed:
            break
        same(*rng.choice(listed).split())
        played += 1
    assert played > 30

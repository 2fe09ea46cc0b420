"""Fateful Midway Card Game (運命のミッドウェーカードゲーム) data: manifests and key facts.

Facts from the rule text:
the component list (2), hands (5-1, 6, 9), the air-combat and defense comparisons (7-1-2, 7-3),
the combat example (13) and the Midway base (12-4, 11).
"""

from __future__ import annotations

from collections import Counter
from itertools import product

import pytest
from warpress.engine.loader import load_game
from warpress.engine.tables import lookup, matching_rows
from warpress.verify.data import check_folder

DECKS = {  # rule 2 (+ 3-2 and 12-2 for the two cards the list forgets, C-E4)
    "japan-action": 32,
    "us-action": 32,
    "armament-change": 16,
    "secondary-damage": 16,
    "japan-ships": 4,
    "us-ships": 3,
    "midway-base": 1,
    "rearming": 1,
}
MARKERS = {"damage-red": 25, "damage-blue": 25, "disabled-yellow": 7, "base-green": 10,
           "base-white": 3}
RANKS = ["A", "B", "C", "D"]
DEFENSE_RANKS = ["A", "B", "C"]


@pytest.fixture(scope="module")
def game():
    return load_game("midway-cards")


def test_data_checks_pass():
    report = check_folder("midway-cards")
    assert report.ok, "\n".join(map(str, report.problems))
    assert report.sourced > report.assumed > 0


def test_game_info(game):
    assert game.info.kind == "cards" and game.info.players == "2"
    assert [s.id for s in game.info.sides] == ["japan", "us"]
    assert game.info.name_ja == "運命のミッドウェーカードゲーム"
    assert game.info.dice == ()


def test_deck_manifests(game):
    assert {d.id: d.count for d in game.decks} == DECKS
    per_deck = Counter()
    for card in game.cards:
        per_deck[card.deck] += card.count
    assert dict(per_deck) == DECKS
    for deck in game.decks:
        assert deck.name_ja, deck.id


def test_action_decks_hold_three_kinds(game):
    for deck, side in (("japan-action", "japan"), ("us-action", "us")):
        cards = [c for c in game.cards if c.deck == deck]
        assert {c.stats["kind"] for c in cards} == {"aircraft", "defense", "tactics"}  # C-E5
        assert all(c.playable_by == side and c.name_ja for c in cards)
    emergency = game.get("cards", "us-emergency-repair")
    assert emergency.deck == "us-action" and emergency.name_ja == "応急修理"  # US only, 10-2
    assert not [c for c in game.cards if c.name_ja == "応急修理" and c.deck != "us-action"]


def test_hands(game):
    assert game.constant("hand-limit") == 6
    assert game.constant("opening-hand-japan") == 7
    assert game.constant("opening-hand-us") == 6
    assert game.constant("hand-exchange-max") == 3
    assert game.constant("draws-per-turn") == 1
    assert game.constant("first-turn-draw") is False
    assert game.get("constants", "hand-limit").rule == ("5-1", "9")


def test_yorktown(game):
    yorktown = game.get("cards", "yorktown")
    assert yorktown.name_ja == "ヨークタウン" and yorktown.deck == "us-ships"
    assert yorktown.stats["deck_durability"] == 8 and yorktown.stats["side_durability"] == 8
    assert not yorktown.field_assumed("stats.deck_durability")  # example 13
    assert not yorktown.field_assumed("stats.side_durability")
    assert yorktown.field_assumed("stats.vp_sunk")  # not in the text
    assert "C-E8" in yorktown.errata


def test_other_ships_are_assumed(game):
    ships = [c for c in game.cards if c.deck in ("japan-ships", "us-ships")]
    assert len(ships) == 7
    for ship in ships:
        for stat in ("vp_sunk", "vp_heavy", "vp_medium", "deck_durability", "side_durability",
                     "aircraft_f", "aircraft_b", "aircraft_t", "defense_level"):
            assert stat in ship.stats, (ship.id, stat)
        assert ship.stats["vp_sunk"] > ship.stats["vp_heavy"] > ship.stats["vp_medium"] > 0
        if ship.id != "yorktown":
            assert ship.is_assumed and ship.note


def test_air_combat_covers_every_rank_pair(game):
    table = game.table("air-combat")
    assert table.rule[0] == "7-1-2"
    for attacker, defender in product(RANKS, RANKS):
        assert len(matching_rows(table, {"attacker": attacker, "defender": defender})) == 1
        removed = lookup(table, attacker=attacker, defender=defender)["removed"]
        a, d = RANKS.index(attacker), RANKS.index(defender)  # lower index = stronger
        assert removed == ("both" if a == d else "defender" if a < d else "attacker")


def test_defense_table(game):
    table = game.table("defense")
    assert "C-E2" in table.errata
    for defense, attack in product(DEFENSE_RANKS, DEFENSE_RANKS):
        stopped = lookup(table, defense=defense, attack=attack)["stopped"]
        assert stopped is (DEFENSE_RANKS.index(defense) <= DEFENSE_RANKS.index(attack))


def test_secondary_damage(game):
    table = game.table("secondary-damage")
    results = next(k for k in table.keys if k.id == "result").values
    cards = [c for c in game.cards if c.deck == "secondary-damage"]
    assert len(cards) == 16 and all(c.count == 1 for c in cards)
    for card in cards:
        assert card.stats["bombing"] in results and card.stats["torpedo"] in results
    assert lookup(table, result="dud", target="ship")["zero_damage"] is True
    assert lookup(table, result="extra-3", target="ship")["extra_damage"] == 3
    propulsion = lookup(table, result="propulsion", target="ship")  # example 13
    assert propulsion["extra_damage"] == 1 and propulsion["disabled"] is True
    on_base = lookup(table, result="flight-deck", target="base")  # 12-1 step 5
    assert on_base["extra_damage"] == 1 and on_base["disabled"] is False


def test_ship_damage_status(game):
    table = game.table("ship-damage-status")
    states = ["below-half", "half", "sunk"]
    for deck, side, disabled in product(states, states, [True, False]):
        rows = matching_rows(table, {"deck_state": deck, "side_state": side, "disabled": disabled})
        assert len(rows) == 1
    assert lookup(table, deck_state="below-half", side_state="half", disabled="no")["status"] \
        == "medium"
    assert lookup(table, deck_state="half", side_state="half", disabled="no")["status"] == "heavy"
    assert lookup(table, deck_state="below-half", side_state="half", disabled="yes")["status"] \
        == "heavy"  # Yorktown in example 13: side 5 of 8 plus 推進機被弾


def test_midway_base(game):
    assert game.constant("base-heavy-damage") == 20
    assert game.constant("base-destroyed-damage") == 40
    assert game.constant("base-heavy-vp") == 10
    assert game.constant("base-destroyed-vp") == 20
    table = game.table("base-status")
    assert lookup(table, damage=19) == {"status": "intact", "vp": 0}
    assert lookup(table, damage=game.constant("base-heavy-damage")) == {
        "status": "heavy", "vp": game.constant("base-heavy-vp")}
    assert lookup(table, damage=game.constant("base-destroyed-damage")) == {
        "status": "destroyed", "vp": game.constant("base-destroyed-vp")}
    base = game.get("cards", "midway-base")
    assert base.name_ja == "ミッドウェー基地"
    assert base.stats["vp_destroyed"] == game.constant("base-destroyed-vp")
    assert base.stats["vp_heavy"] == game.constant("base-heavy-vp")
    assert base.stats["durability"] == game.constant("base-destroyed-damage")
    assert game.constant("base-defense-card-kinds") == ("AA",)


def test_markers(game):
    assert {m.id: m.count for m in game.markers} == MARKERS
    assert {m.color for m in game.markers} == {"red", "blue", "yellow", "green", "white"}


def test_two_deck_end(game):
    assert game.constant("action-deck-passes") == 2
    end = game.get("victory", "second-deck-out")
    assert "C-E13" in end.errata and "action-deck-passes" in end.params["constants"]
    ids = {v.id for v in game.victory}
    assert {"all-carriers-out", "japan-carriers-out", "us-carriers-out",
            "us-carriers-out-base-intact", "base-not-heavy", "vp-comparison"} <= ids


def test_errata(game):
    assert [e.id for e in game.errata] == [f"C-E{i}" for i in range(1, 24)]
    for erratum in game.errata:
        assert len(erratum.readings) >= 2 and erratum.ruling and erratum.why
    assert game.get("constants", "sinking-threshold").value == "reaches"


def test_sequence_and_sheets(game):
    orders = [p.order for p in game.sequence]
    assert orders == sorted(orders) and len(set(orders)) == len(orders)
    assert game.get("sequence", "draw").name_ja == "ドローフェイズ"
    assert [s.id for s in game.sheets if s.id.startswith("procedure-sheet")] == [
        "procedure-sheet-japan", "procedure-sheet-us"]
    table_ids = {t.id for t in game.tables}
    for sheet in game.sheets:
        assert set(sheet.tables) <= table_ids and sheet.sections


def test_combat_example_cards(game):
    example = game.get("examples", "C-EX1")
    card_ids = {c.id for c in game.cards}
    assert len(example.get("japan_hand")) == game.constant("opening-hand-japan")
    assert len(example.get("us_hand")) == game.constant("opening-hand-us")
    assert set(example.get("japan_hand")) | set(example.get("us_hand")) <= card_ids
    t = game.get("cards", "j-b5n").stats
    b = game.get("cards", "j-d3a").stats
    assert (t["air_combat_a"], t["anti_ship"], t["damage"]) == ("D", "C", 4)
    assert (b["air_combat_a"], b["anti_ship"], b["damage"]) == ("D", "A", 2)
    assert game.get("cards", "j-zero").stats["air_combat_f"] == "A"
    assert game.get("cards", "us-f4f").stats["air_combat_f"] == "A"
    us_t = game.get("cards", "us-tbd").stats
    assert (us_t["air_combat_a"], us_t["anti_ship"], us_t["damage"]) == ("D", "C", 4)
    for pair in example.get("pairs"):
        got = lookup(game.table("air-combat"), attacker=pair["attacker_level"],
                     defender=pair["defender_level"])
        assert got["removed"] == pair["removed"]
    for play in example.get("defense_plays"):
        got = lookup(game.table("defense"), defense=play["defense_level"],
                     attack=play["attack_level"])
        assert got["stopped"] is play["stopped"]
    hit = example.get("hits")[0]
    extra = lookup(game.table("secondary-damage"), result=hit["secondary_result"], target="ship")
    assert hit["card_damage"] + extra["extra_damage"] == hit["damage"] == 5
    assert example.get("expect")["yorktown"]["side_damage"] == 5


def test_examples_with_lookups(game):
    checked = 0
    for example in game.extra["examples"]:
        lookup_spec = example.get("lookup")
        if not lookup_spec:
            continue
        got = lookup(game.table(lookup_spec["table"]), **lookup_spec["inputs"])
        for key, want in example.get("expect").items():
            if key in got:
                assert got[key] == want, (example.id, key)
                checked += 1
    assert checked >= 8

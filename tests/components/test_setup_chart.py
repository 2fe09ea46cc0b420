"""The set-up chart (components/setup_chart.py): each scenario's order of battle as counter
images by place and turn of arrival, drawn by the counter sheets' own code."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from data_edits import edit, loaded
from warpress.components import setup_chart as sc
from warpress.components.pieces import counter_image
from warpress.components.primitives import Group, Rect, Text, texts, walk
from warpress.components.registry import counter_face
from warpress.engine.loader import builtin

MOSCOW = Path(__file__).resolve().parents[1] / "fixtures" / "games" / "moscow"


def _spot(order: sc.Order, side, turn, place: str) -> sc.Spot:
    arrival = next(a for a in order.arrivals if (a.side, a.turn) == (side, turn))
    return next(s for s in arrival.spots if s.place == place)


def _counts(spot: sc.Spot) -> dict[str, int]:
    return {e.record.id: e.count for e in spot.entries}


def test_midway_standard_game_by_side_and_turn_with_alike_counters_counted():
    game = builtin("midway")
    order = next(o for o in sc.orders(game) if o.scenario == "standard")
    groups = [(a.side, a.turn) for a in order.arrivals]
    assert groups == [(None, None), ("japan", None), ("us", None), ("japan", 4)]
    assert _counts(_spot(order, "japan", None, "Akagi")) == {"a6m": 2, "d3a": 1, "b5n": 1}
    assert _counts(_spot(order, "us", None, "Yorktown")) == {"f4f": 2, "sbd": 2, "tbd": 1}
    # the Invasion Force waits on box 4 of the turn track: it arrives on Turn 4
    assert _counts(_spot(order, "japan", 4, "Enters A-4, A-5 or A-6")) == {
        "invasion-force": 1}
    assert _counts(_spot(order, None, None, "Turn record track: 1")) == {"turn": 1}
    # what no counter shows (the event cards) is said under the chart, once
    assert any("draws 1" in note for note in order.notes)


def test_a_cell_draws_alike_counters_once_with_their_count_and_its_place_under_them():
    game = builtin("midway")
    order = next(o for o in sc.orders(game) if o.scenario == "standard")
    blocks = sc.order_blocks(game, order, 180.0)
    cells = [i for b in blocks for i in walk(b.items) if isinstance(i, Group)
             and i.cls == "setup-cell"]
    akagi = next(c for c in cells if "Akagi" in [t.text for t in texts([c])])
    counters = [i for i in akagi.items if isinstance(i, Group) and i.cls == "setup-counter"]
    assert len(counters) == 3
    assert [t.text for t in akagi.items if isinstance(t, Text) and t.cls == "setup-count"] == [
        "×2"]
    place = next(t for t in akagi.items if isinstance(t, Text) and t.cls == "setup-place")
    assert place.y > max(counter_image(game, game.get("units", "a6m"))[0].h, 0)


def test_the_chart_draws_each_counter_as_the_counter_sheets_do():
    game = builtin("midway")
    a6m = game.get("units", "a6m")
    drawn = sc.drawer_of(game)(sc.Entry(a6m))
    assert drawn == counter_image(game, a6m)
    # a reduced placement (steps: 1 of 2) shows the counter's reduced side
    reduced = sc.drawer_of(game)(sc.Entry(a6m, reduced=True))
    assert reduced != drawn and any(i.cls == "reduced-band" for i in walk(reduced))


def test_a_game_that_draws_its_own_counters_draws_them_in_the_chart_too():
    """Axis & Allies draws a power's infantry in the power's colour; so does its chart."""
    game = builtin("axis-allies")
    assert counter_face(game) is not None
    order = sc.orders(game)[0]
    infantry = next(e for s in _arrival(order, "germany").spots for e in s.entries
                    if e.record.id == "infantry")
    ground = next(i for i in sc.drawer_of(game)(infantry) if isinstance(i, Rect))
    germany = next(s for s in game.info.sides if s.id == "germany")
    assert ground.style.fill == germany.color


def _arrival(order, side):
    return next(a for a in order.arrivals if a.side == side and a.turn is None)


def test_the_data_forms_hex_pool_track_and_reinforcements_by_turn(tmp_path):
    """A designer's game: units set up with ``hex:``, in a pool (``where: reserve``), on the
    turn track (``track: turn, where: "5"``: they arrive on Turn 5), and ``reinforcements``
    that arrive on a turn into a pool (``to:``) or at places (``at:``)."""
    folder = tmp_path / "moscow"
    shutil.copytree(MOSCOW, folder)
    edit(folder, "      - {unit: s-50, where: reserve}\n", "", "units.yaml")
    edit(folder, "      - {unit: s-49, where: reserve}\n",
         "      - {unit: s-49, track: turn, where: \"5\"}\n", "units.yaml")
    edit(folder, "reinforcements:\n", "reinforcements:\n"
         "  - {id: siberians, turn: 3, units: [s-50], at: [{edge: east, empty: true}], "
         "rule: \"9.1\"}\n", "play.yaml")
    game = loaded(folder)
    order = sc.orders(game)[0]
    assert order.title == "Set-up and reinforcements"
    assert _counts(_spot(order, "germany", None, "0303")) == {"g-xlvi": 1}
    reduced = next(e for e in _spot(order, "soviet", None, "0502").entries)
    assert reduced.reduced  # set up on its reduced side (steps: 1)
    assert _counts(_spot(order, "soviet", None, "Reserve")) == {"s-43": 1}
    assert _counts(_spot(order, "soviet", 3, "East edge, empty")) == {"s-50": 1}
    assert _counts(_spot(order, "soviet", 4, "Reserve")) == {"s-1shock": 1}
    assert _counts(_spot(order, "soviet", 5, "Turn: 5")) == {"s-49": 1}
    assert [a.turn for a in order.arrivals] == [None, None, None, 3, 4, 5]
    headings = [t.text for b in sc.order_blocks(game, order, 180.0) for t in texts(b.items)
                if t.cls == "setup-group"]
    assert headings[-3:] == ["Soviet · Turn 3", "Soviet · Turn 4", "Soviet · Turn 5"]


def test_place_names_read_as_a_player_reads_them():
    nimitz = builtin("nimitz")
    assert sc.place_name(nimitz, "us-reinforcements").startswith("US reinforcement box")
    assert sc.place_name(nimitz, "hawaiian-islands") == "Hawaiian Islands ハワイ諸島"
    aa = builtin("axis-allies")
    assert sc.place_name(aa, "karelia-ssr") == "Karelia S.S.R."
    assert sc.place_name(aa, "eliminated") == "Eliminated"
    assert sc.place_name(aa, "off-map") == "Off the map"


@pytest.mark.parametrize("game_id", ["midway", "axis-allies", "nimitz", "nightfighter",
                                     "midway-cards", "starter"])
def test_every_kit_whose_set_up_places_counters_prints_its_chart(player_kits, game_id):
    game, pages = player_kits[game_id, "a4"]
    assert sc.orders(game), game_id
    panels = [i for p in pages for i in walk(p.items) if isinstance(i, Group)
              and i.cls == "setup-chart"]
    assert panels, game_id
    counters = [i for g in panels for i in walk(g.items) if isinstance(i, Group)
                and i.cls == "setup-counter"]
    assert counters and all(c.scale == 1.0 for c in counters)  # at the sheets' own size


def test_nimitz_setup_sheets_print_the_chart_instead_of_the_placement_list(player_kits):
    _game, pages = player_kits["nimitz", "a4"]
    sheet = [i for p in pages if p.id.startswith("setup-1942-") for i in p.items]
    words = [t.text for t in texts(sheet)]
    assert not any(w.startswith("• Hawaiian Islands") for w in words)  # no text list
    assert "Lexington" in words and "Hawaiian Islands ハワイ諸島" in words
    assert "Carrier aircraft" not in words  # the chart says it: "Lexington (beside carrier)"
    assert "Lexington (beside carrier)" in words


def test_nightfighter_prints_each_shipped_scenarios_forces(player_kits):
    from warpress.games.nightfighter.rules.scenario import SHIPPED

    _game, pages = player_kits["nightfighter", "a4"]
    ids = {i.id for p in pages for i in walk(p.items) if i.id}
    for name in SHIPPED:
        assert f"setup-scenario-{name}-defender-start-1" in ids
        assert f"setup-scenario-{name}-attacker-start-1" in ids
    words = [t.text for p in pages for t in texts(p.items)]
    assert "0708" in words and "Radio beacon box" in words


def test_a_cell_of_more_counters_than_the_width_holds_goes_on_in_lines():
    """Nimitz's sixteen US battle-bonus markers beside the battle sheet: never past the
    page's content width."""
    game = builtin("nimitz")
    order = next(o for o in sc.orders(game) if o.scenario == sc.EVERY)
    width = 180.0
    for block in sc.order_blocks(game, order, width):
        for cell in (i for i in block.items if isinstance(i, Group) and i.cls == "setup-cell"):
            for counter in (i for i in cell.items if isinstance(i, Group)):
                right = cell.dx + counter.dx + counter.items[0].w
                assert right <= width + 1e-6, block.id

"""The phases that run by themselves between the US player's decisions: points received
(6.1), return to port (11.3), the supply check (11.4), objectives held (4.1), the defeat
check (11.5.1) and the campaign's end (4.0, 5.0, 12.3, 12.5, 12.6)."""

from __future__ import annotations

from warpress.engine.position import Verdict

from .campaign import held_points, in_supply, invasion_objectives, must_return, port_return
from .common import table_row
from .japan import map_view, objectives
from .positions import (
    DAMAGED,
    INVASION,
    JAPAN,
    RAIDING,
    US,
    Run,
    campaign,
    kind,
    name,
    point_ids,
    point_name,
)

# --- 6.1 --------------------------------------------------------------------------------


def receive_points(run: Run) -> None:
    """6.1: the campaign's RP and SP for the turn; unused points carry over."""
    camp = campaign(run.game, run.campaign)
    rp, sp = int(camp.get("us_rp_per_turn")), int(camp.get("us_sp_per_turn"))
    run.data["rp"] = int(run.data.get("rp", 0)) + rp
    run.data["sp"] = int(run.data.get("sp", 0)) + sp
    run.say(f"US supply: +{rp} RP, +{sp} SP (now {run.data['rp']} RP, {run.data['sp']} SP)",
            "6.1")


# --- 11.3 --------------------------------------------------------------------------------


def return_to_port(run: Run) -> None:
    """11.3: the boxes move one step along the arrows (the 1942-45 box to the Hawaiian
    Islands), then ships away from Hawaii and the West Coast, ships sharing a point with
    Japanese units and the raiding submarines go to the last box in use."""
    row = table_row(run.game, "port-return", campaign=run.campaign)
    boxes = {b: [p.id for p in run.at(b, US, "box")] for b in row["boxes"]}
    japanese = {str(p.place) for p in run.of(JAPAN)}
    arriving = [p.id for p in run.of(US) if kind(run.game, p).ship
                and must_return(run.game, str(p.place), str(p.place) in japanese)]
    arriving += [p.id for p in run.at(RAIDING, US, "box")]
    after, home = port_return(run.game, run.campaign, boxes, arriving)
    for pid in home:
        run.place(pid, "point", "hawaiian-islands")
    for box, ids in after.items():
        for pid in ids:
            run.place(pid, "box", box, raider=False)
    if home:
        run.say(f"back at the Hawaiian Islands: {_names(run, home)}", "11.3")
    if arriving:
        run.say(f"return to port ({row['arrival_box']}): {_names(run, arriving)}", "11.3")
    run.data["raiders"] = 0


# --- 4.1, 11.4 ----------------------------------------------------------------------------


def held(run: Run) -> frozenset[str]:
    """Points the US holds (4.1): its ground units or land aircraft there, no Japanese ones,
    in supply."""
    return held_points(run.game, map_view(run))


def supply_check(run: Run) -> None:
    """11.4: every US ground unit and land aircraft at a point no route of US-held points
    reaches from the West Coast takes 1 hit."""
    view = map_view(run)
    holding = held_points(run.game, view)
    for point in sorted(view.us_ground_or_air, key=point_ids(run.game).index):
        if in_supply(run.game, point, holding):
            continue
        hit = [p for p in run.at(point, US) if not kind(run.game, p).ship]
        for p in hit:
            if p.step == DAMAGED:
                run.place(p.id, "eliminated", None)
                run.step_to(p.id, 0)
            else:
                run.step_to(p.id, DAMAGED)
        hit_names = _names(run, [p.id for p in hit])
        run.say(f"{point_name(run.game, point)} is out of supply: {hit_names} take 1 hit each",
                "11.4")


def objectives_held(run: Run) -> list[str]:
    mine = held(run)
    return [p for p in point_ids(run.game) if p in objectives(run) and p in mine]


# --- 11.5, 4.0, 12.3, 12.6 ---------------------------------------------------------------


def level(run: Run, total: int) -> dict:
    return table_row(run.game, "campaign-level", campaign=run.campaign, objectives=total)


def defeat_check(run: Run) -> bool:
    """11.5.1: the objectives held at the turn's end, recorded in the player log; True when
    they have reached the dismissal level (the campaign is lost)."""
    held_now = objectives_held(run)
    run.data["held"] = [*run.data.get("held", []), len(held_now)]
    row = level(run, len(held_now))
    run.say(f"end of turn {run.pos.turn}: the US holds {len(held_now)} objective(s): "
            f"{', '.join(point_name(run.game, p) for p in held_now) or 'none'}", "4.1",
            "11.5", held=len(held_now))
    return row["level"] == "dismissal"


def invasion_total(run: Run) -> tuple[int, int]:
    """12.3: the cost of the units in the Japan-invasion box (carriers: purchase cost) and
    the objectives it is worth."""
    cost = sum(kind(run.game, p).cost_buy for p in run.at(INVASION, US, "box"))
    return cost, invasion_objectives(run.game, cost) if cost else 0


def final_count(run: Run) -> tuple[int, str]:
    """The campaign's result: objectives held (12.3: plus the invasion box's) and why."""
    held_now = len(objectives_held(run))
    if "12.3" in (campaign(run.game, run.campaign).get("special_rules") or ()):
        cost, extra = invasion_total(run)
        return held_now + extra, (f"{held_now} objectives held + {extra} for the Japan-invasion"
                                  f" box (cost {cost})")
    return held_now, f"{held_now} objectives held"


WINS = ("as-historical", "better-than-historical")

#: what an agent's score weighs (not rules: how a looking-ahead agent reads a position): an
#: objective counted for the level, Japanese units standing in the Hawaiian Islands, a step
#: of strength on the map
AIMS = {"objective": 10.0, "hawaii": 40.0, "step": 1.0}


def us_score(run: Run) -> float:
    """How good the position is for the US before the end: the objectives the level would
    count now (4.0, 12.3), Japanese units in the Hawaiian Islands against it (11.5.2), and
    each side's steps on the map (a damaged unit one, a full one two)."""
    total = AIMS["objective"] * final_count(run)[0]
    if run.at("hawaiian-islands", JAPAN):
        total -= AIMS["hawaii"]
    for side, sign in ((US, 1.0), (JAPAN, -1.0)):
        total += sign * AIMS["step"] * sum(p.step for p in run.of(side))
    return total


def campaign_verdict(run: Run, total: int, why: str) -> Verdict:
    """4.0: the victory level of the objectives held at the campaign's end."""
    row = level(run, total)
    winner = US if row["level"] in WINS else JAPAN
    rules = ("4.0", "5.0") + (("12.3", "12.5") if run.campaign == "1945" else ())
    return Verdict(winner, str(row["level"]), f"{run.campaign} campaign: {why}: "
                   f"{row['label_ja']}", rules, "campaign-end")


def dismissal_verdict(run: Run) -> Verdict:
    held_now = run.data["held"][-1]
    return Verdict(JAPAN, "dismissal", f"{run.campaign} campaign, turn {run.pos.turn}: the US "
                   f"holds {held_now} objective(s), the dismissal level (解任)",
                   ("11.5.1",), "dismissal")


def hawaii_verdict(run: Run, why: str) -> Verdict:
    return Verdict(JAPAN, "hawaii", f"{run.campaign} campaign: {why} (11.5.2)",
                   ("11.5.2",), "hawaii")


def linked_verdict(run: Run, results: list[dict]) -> Verdict:
    """12.6: the four campaigns' objectives added up."""
    total = sum(int(r["total"]) for r in results)
    row = table_row(run.game, "linked-result", total=total)
    winner = US if row["result"] in ("great-victory", "historic-triumph", "historical") else JAPAN
    parts = ", ".join(f"{r['campaign']} {r['total']}" for r in results)
    return Verdict(winner, str(row["result"]), f"linked campaign: {parts} = {total}: "
                   f"{row['label_ja']}", ("12.6",), "linked-campaign")


def _names(run: Run, ids) -> str:
    return ", ".join(name(run.game, run.piece(pid)) for pid in ids)

"""The answer of ``odds axis-allies battle``: the probabilities, what survives, the expected
IPC losses, as JSON fields and as text made for the width the command line prints at
(``engine.text.terminal_width``: 80 columns when not a terminal).

Both number types give the same answer shape: floating point (``floats.float_battle``) by
default, exact fractions (``odds.exact_battle``) with ``--exact``. With ``--exact`` the
survivors' chances are floats from the exact numerators; asked with ``survivors=exact``
they are fractions too (``result.exact_survivors``, every force, adding up to 1 exactly;
``result.survivors`` holds them as floats) unless that work passes
``odds.MOST_SURVIVOR_WORK`` (big battles against an AA gun: floats then, from the exact
numerators). The IPC losses are floats either way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from warpress.engine.model import Game
from warpress.engine.query import fraction_text
from warpress.engine.registry import OddsAnswer
from warpress.engine.text import terminal_width

from .battle import BattleSpec, rules_of
from .common import unit_row
from .opening import FIELDS

if TYPE_CHECKING:
    from fractions import Fraction

#: Columns of the text answer when no width is given (the width of a terminal that is not
#: asked).
WIDTH = 80
#: How many of each side's likeliest surviving forces the text shows.
SHOWN = 5
#: Characters of the longest histogram bar (fewer on a narrow terminal, down to ``LEAST_BAR``).
BAR = 20
LEAST_BAR = 5
#: Columns a histogram line keeps for the force's name before its bar is shortened: room for
#: the longest fraction ``_short`` writes, in brackets.
NAME_ROOM = 26

LABELS = {
    "attacker_wins": "attacker_wins", "defender_wins": "defender_wins",
    "mutual_destruction": "mutual_destruction", "undecided": "undecided",
    "attacker_retreats": "attacker_retreats", "attacker_takes": "attacker_takes",
}


def battle_answer(game: Game, spec: BattleSpec, exact: bool, errata: tuple[str, ...],
                  survivors_asked: str = "float", width: int | None = None) -> OddsAnswer:
    """The battle's odds as an ``OddsAnswer``: floats in ``result``, fractions in
    ``exact`` when asked, and the whole text answer. ``survivors_asked``: the input
    ``survivors`` (``exact`` only with ``exact``: the survivors' fractions). ``width``: the
    text's columns, by default the terminal's as the command line finds it
    (``engine.text.terminal_width``), so that its wrapping leaves the histogram's lines whole."""
    if width is None:
        width = terminal_width()
    exact_survivors = None
    if exact:
        # start-up: 52 more modules (fractions, importlib.metadata), only when this runs
        from fractions import Fraction

        from .odds import exact_battle  # gmpy2 and the exact chains: only with --exact

        fractions, survivors = exact_battle(game, spec, survivors=survivors_asked)
        values: dict[str, Any] = {k: float(fractions[k]) for k in FIELDS}
        if survivors_asked == "exact" and all(
                isinstance(p, Fraction) for side in survivors for p in side.values()):
            exact_survivors = survivors  # else floats: exact ones would cost too much
        attacker, defender = ({k: float(p) for k, p in side.items()} for side in survivors)
    else:
        from .plain import float_battle  # numpy's tables (``floats``) when needed

        fractions = None
        values, survivors = float_battle(game, spec, LEAST_SHOWN)
        attacker, defender = (_sorted(side) for side in survivors)
    names = shown_fields(spec, values)
    result: dict[str, Any] = {k: values[k] for k in names}
    result["survivors"] = {"attacker": attacker, "defender": defender}
    costs = {t: unit_row(game, t)["cost"] for t in {*spec.attacker, *spec.defender}}
    result["expected_ipc_loss"] = {
        "attacker": force_cost(costs, spec.attacker) - _expected_cost(costs, attacker),
        "defender": force_cost(costs, spec.defender) - _expected_cost(costs, defender)}
    exact_part: dict[str, Any] = {}
    if fractions is not None:
        exact_part = {k: fractions[k] for k in names}
        if exact_survivors is not None:
            result["exact_survivors"] = {
                side: {force: fraction_text(p) for force, p in chances.items()}
                for side, chances in zip(("attacker", "defender"), exact_survivors,
                                         strict=True)}
        elif survivors_asked == "exact":  # asked, past MOST_SURVIVOR_WORK: said, not silent
            result["exact_survivors"] = None
    return OddsAnswer(result=result, exact=exact_part, rules=rules_of(spec), errata=errata,
                      text=answer_text(result, exact_part, exact_survivors,
                                       survivors_asked == "exact", width,
                                       cut_off=spec.rounds is not None))


def shown_fields(spec: BattleSpec, values: dict[str, float]) -> list[str]:
    """The fields a battle answers: ``attacker_retreats`` only when a retreat was asked."""
    asked = spec.retreat_after is not None or spec.retreat_at is not None
    return [k for k in FIELDS if k != "attacker_retreats" or asked]


def force_cost(costs: dict[str, int], units) -> int:
    """IPC of a force (one entry per unit); ``costs``: the unit table's, by type."""
    return sum(costs[t] for t in units)


def _expected_cost(costs: dict[str, int], chances: dict[str, float]) -> float:
    return sum(p * _text_cost(costs, force) for force, p in chances.items())


def _text_cost(costs: dict[str, int], force: str) -> int:
    """IPC of a force written by ``force_text`` ("2 infantry, 1 armor", "none")."""
    if force == "none":
        return 0
    total = 0
    for part in force.split(", "):
        count, unit = part.split(" ", 1)
        total += int(count) * costs[unit]
    return total


#: Surviving forces less likely than this are left out of the answer (a 40-a-side battle
#: against an AA gun has thousands, most under 1e-30); together they stay under 1e-13.
LEAST_SHOWN = 1e-18


def _sorted(chances: dict[str, float]) -> dict[str, float]:
    """Likeliest first (ties by name), those under ``LEAST_SHOWN`` left out."""
    return dict(sorted(((k, p) for k, p in chances.items() if p >= LEAST_SHOWN),
                       key=lambda kv: (-kv[1], kv[0])))


# --------------------------------------------------------------------------- text


def answer_text(result: dict[str, Any], exact: dict[str, Fraction],
                exact_survivors: tuple[dict[str, Fraction], dict[str, Fraction]] | None = None,
                survivors_asked: bool = False, width: int = WIDTH, cut_off: bool = False) -> str:
    """The text answer (the command's head ``axis-allies battle: `` goes before it);
    ``survivors_asked``: the survivors' fractions were asked (``survivors=exact``);
    ``width``: the histogram's columns (the other lines are the command line's to wrap);
    ``cut_off``: a round cap was asked (else a battle fought to the end leaves nothing
    undecided, and the line is left out; the JSON keeps the field)."""
    lines = ["exact fractions" if exact else
             "floating point (exact fractions with --exact)"]
    for key in (k for k in LABELS if k in result):
        if key == "undecided" and not cut_off and not result[key]:
            continue
        lines.append(f"  {key:<20} {100 * result[key]:9.4f}%" + _fraction_note(exact, key))
    lines.append(f"  {'expected survivors':<20} attacker {result['attacker_survivors']:.2f}, "
                 f"defender {result['defender_survivors']:.2f} units"
                 + _fraction_note(exact, "attacker_survivors", "defender_survivors"))
    ipc = result["expected_ipc_loss"]
    lines.append(f"  {'expected IPC lost':<20} attacker {ipc['attacker']:.2f}, "
                 f"defender {ipc['defender']:.2f}")
    for k, side in enumerate(("attacker", "defender")):
        lines.extend(histogram(side, result["survivors"][side],
                               exact_survivors[k] if exact_survivors else None, width=width))
    if exact and survivors_asked and not exact_survivors:
        lines.append("  (the survivors' chances in floating point: this battle has too many "
                     "forces with too long fractions to give them exactly)")
    elif exact and not exact_survivors:
        lines.append("  (the survivors' chances in floating point from the exact numerators; "
                     "survivors=exact gives their fractions)")
    return "\n".join(lines)


def _fraction_note(exact: dict[str, Fraction], *keys: str) -> str:
    if not exact:
        return ""
    return f"  ({', '.join(_short(exact[key]) for key in keys)})"


def _short(p: Fraction) -> str:
    """``a/b`` when it has at most 24 characters, else how many digits it has."""
    text = f"{p.numerator}/{p.denominator}" if max(
        p.numerator.bit_length(), p.denominator.bit_length()) < 100 else ""
    return text if text and len(text) <= 24 else f"{_digits(p)} digits"


def _digits(p: Fraction) -> int:
    """Characters of ``a/b`` as ``fraction_text`` writes it (it keeps what it wrote: the
    JSON answer gives the same fractions)."""
    return len(fraction_text(p))


def histogram(side: str, chances: dict[str, float], exact: dict[str, Fraction] | None = None,
              shown: int = SHOWN, width: int = WIDTH) -> list[str]:
    """The likeliest surviving forces of a side as bars (likeliest first), each line at most
    ``width`` columns; with ``exact``, each force's fraction (or its digits) after it.

    A force's name that does not fit goes on under its own first column, broken after a
    comma ("1 infantry," / "1 armor"), and its fraction stays whole behind it, or on the
    next line under the name when it does not fit there."""
    items = list(chances.items())
    top = items[0][1] if items else 1.0
    lines = [f"  {side} left, likeliest first:"]
    bar_room = min(BAR, max(LEAST_BAR, width - len(_bar_head(0.0, "", 0)) - NAME_ROOM))
    for force, p in items[:shown]:
        shown_zero = f"{100 * p:.2f}" == "0.00"  # no mark where the chance reads 0.00%
        bar = "#" * max(0 if shown_zero else 1, round(bar_room * p / top))
        head = _bar_head(p, bar, bar_room)
        note = None if exact is None else f"({_short(exact[force])})"
        lines.extend(_name_lines(head, force, note, width))
    rest = items[shown:]
    if rest:
        lines.append(f"    ... {len(rest)} more, {100 * sum(p for _, p in rest):.2f}% "
                     "in all (every force is in --json)")
    return lines


def _bar_head(p: float, bar: str, bar_room: int) -> str:
    """A histogram line up to the force's name: the chance and the bar."""
    return f"    {100 * p:6.2f}%  {bar:<{bar_room}}  "


def _name_lines(head: str, force: str, note: str | None, width: int) -> list[str]:
    """``head`` and the force's name in lines of at most ``width`` columns where the words
    allow: the name broken only after its commas and continued under its first column,
    ``note`` two spaces after it or, when that is too long, on a line of its own under the
    name (or right-aligned to ``width`` if even that is too narrow)."""
    lead = len(head)
    room = max(width - lead, 1)
    parts = force.split(", ")
    words = [part + "," for part in parts[:-1]] + parts[-1:]
    rows = [words[0]]
    for word in words[1:]:
        if len(rows[-1]) + 1 + len(word) <= room:
            rows[-1] += " " + word
        else:
            rows.append(word)
    pads = [head] + [" " * lead] * (len(rows) - 1)
    if note is not None:
        if len(rows[-1]) + 2 + len(note) <= room:
            rows[-1] += "  " + note
        else:
            rows.append(note)
            pads.append(" " * (lead if len(note) <= room else max(width - len(note), 4)))
    return [pad + row for pad, row in zip(pads, rows, strict=True)]

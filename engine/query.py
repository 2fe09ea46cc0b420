"""Run a referee table in one of three modes: lookup, roll, odds.

The same procedure answers all three: with the rolls the user typed
(``lookup``), with seeded random dice for the rolls left out (``roll``), and
exactly, as a probability distribution over every roll (``odds``). The result
is one JSON object: {"game", "table", "inputs", "result", "rules", "errata"}.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from itertools import groupby
from typing import TYPE_CHECKING, Any

from ..output import plain_steps, rules_text
from .dice import GivenDice, MissingRoll, SeededDice, distribution, read_roll
from .errors import BadInput
from .inputs import MAX_DIGITS, quote, read_int, too_many_digits
from .model import Game
from .registry import REQUIRED, Input, OddsAnswer, RefTable

if TYPE_CHECKING:  # fractions are imported where an exact answer is made
    from fractions import Fraction

YES = frozenset({"yes", "true"})
NO = frozenset({"no", "false"})


def parse_pairs(ref: RefTable, pairs: Sequence[str],
                game: Game) -> tuple[dict[str, Any], dict[str, Any]]:
    """``NAME=VALUE`` words -> (args, given rolls); every value checked against its input
    (``bounds`` read from ``game``), so a table's procedure gets only values it takes."""
    args: dict[str, Any] = {}
    rolls: dict[str, Any] = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        if not sep or not name:
            raise BadInput(f"expected NAME=VALUE, got {pair!r}")
        item = ref.input(name.strip())
        if item.name in args or item.name in rolls:
            raise BadInput(f"input {item.name!r} given twice")
        target = rolls if item.is_roll else args
        target[item.name] = parse_value(item, text.strip(), game)
    for item in ref.inputs:
        if item.is_roll or item.name in args:
            continue
        if item.required:
            raise BadInput(f"missing input {item.name!r} ({item.allowed(game)})")
        args[item.name] = item.default
    return args, rolls


def parse_value(item: Input, text: str, game: Game | None = None) -> Any:
    """One input's text -> its value; bad text raises BadInput naming input and allowed."""
    def bad() -> BadInput:
        return BadInput(f"input {item.name}={quote(text)} is not allowed "
                        f"({item.allowed(game)})")

    if item.kind == "bool":
        low = text.lower()
        if low in YES | NO:
            return low in YES
        raise bad()
    if item.kind == "enum":
        if text in item.choices:
            return text
        lowered = {c.lower(): c for c in item.choices}
        if text.lower() in lowered:
            return lowered[text.lower()]
        raise bad()
    if item.kind == "int":
        value = read_int(text)
        if value is None and too_many_digits(text):
            raise BadInput(f"input {item.name}={quote(text)} is not allowed (a whole number "
                           f"of at most {MAX_DIGITS} digits)")
        if value is None:
            raise bad()
        too_low = item.min is not None and value < item.min
        if too_low or (item.max is not None and value > item.max):
            raise bad()
        span = item.range_in(game)
        if span is not None and not span[0] <= value <= span[1]:
            raise bad()
        return value
    if item.kind == "roll":
        return read_roll(item.rolled, text, item.name)
    if item.kind == "rolls":
        parts = text.replace(" ", "").split(",")
        if not any(parts):
            raise bad()
        if not all(parts):
            raise BadInput(f"input {item.name}={quote(text)}: a roll is missing between "
                           f"commas ({item.allowed(game)})")
        return [read_roll(item.rolled, p, item.name) for p in parts]
    if item.kind == "ids":
        return [p.strip() for p in text.split(",") if p.strip()]
    return text


def _base(game: Game, ref: RefTable, args: dict[str, Any], rolls: dict[str, Any]
          ) -> dict[str, Any]:
    shown = {k: v for k, v in args.items() if v is not REQUIRED and v is not None}
    shown.update(rolls)
    return {"game": game.id, "table": ref.name, "inputs": shown}


def run_lookup(game: Game, ref: RefTable, pairs: Sequence[str]) -> dict[str, Any]:
    """Resolve with the rolls the user gave; a missing roll is bad input."""
    if not ref.lookup_allowed:
        raise BadInput(f"table {ref.name!r} answers only 'odds'")
    args, rolls = parse_pairs(ref, pairs, game)
    dice = GivenDice(rolls)
    try:
        answer = ref.resolve(game, args, dice)
    except MissingRoll as exc:
        item = next((i for i in ref.inputs if i.name == exc.name), None)
        allowed = item.allowed() if item else f"{exc.die} result"
        if exc.used:
            raise BadInput(f"input {exc.name}: all {exc.used} roll(s) given were used and "
                           f"the procedure needs another ({allowed})") from None
        raise BadInput(f"missing input {exc.name!r} ({allowed})") from None
    _check_sequences_used(ref, dice)
    out = _base(game, ref, args, rolls)
    out.update(result=dict(answer.result), rules=json_rules(answer.rules or ref.rules),
               errata=list(answer.errata or ref.errata))
    if answer.text:
        out["text"] = answer.text
        if ref.whole_text:
            out[WHOLE_TEXT] = True
    return out


def _check_sequences_used(ref: RefTable, dice: GivenDice) -> None:
    """A sequence of rolls the procedure did not use up is bad input, not silently dropped."""
    for name, rest in dice.remaining().items():
        item = next((i for i in ref.inputs if i.name == name), None)
        if item is not None and item.kind == "rolls":
            shown = ",".join(str(v) for v in rest)
            raise BadInput(f"input {name!r}: {len(rest)} roll(s) not used by the procedure "
                           f"({shown})")


def run_roll(game: Game, ref: RefTable, pairs: Sequence[str], seed: int | None) -> dict[str, Any]:
    """Roll the dice the user left out, with a seed that makes the run replayable."""
    if not ref.lookup_allowed:
        raise BadInput(f"table {ref.name!r} answers only 'odds'")
    args, rolls = parse_pairs(ref, pairs, game)
    if seed is None:
        import secrets  # only for a roll without --seed

        seed = secrets.randbelow(2**31)
    dice = SeededDice(seed, rolls)
    answer = ref.resolve(game, args, dice)
    out = _base(game, ref, args, {})
    out.update(result=dict(answer.result), rules=json_rules(answer.rules or ref.rules),
               errata=list(answer.errata or ref.errata))
    out["rolls"] = [{"input": name, "die": die, "value": value, **({"step": step} if step else {})}
                    for (name, die, value), step in zip(dice.rolls, dice.steps(), strict=True)]
    out["seed"] = seed
    if answer.text:
        out["text"] = answer.text
        if ref.whole_text:
            out[WHOLE_TEXT] = True
    return out


def run_odds(game: Game, ref: RefTable, pairs: Sequence[str],
             exact: bool = False) -> dict[str, Any]:
    """The distribution of the table's result over every roll: exact, or in floating point
    for a ``float_odds`` table unless ``exact``."""
    args, rolls = parse_pairs(ref, pairs, game)
    if rolls:
        name = next(iter(rolls))
        raise BadInput(f"odds enumerates every roll: leave out {name!r}")
    if ref.odds is not None:
        answer = ref.odds(game, args, exact=exact) if ref.float_odds else ref.odds(game, args)
        return _odds_payload(game, ref, args, answer)
    if ref.odds_field is None:
        raise BadInput(f"table {ref.name!r} has no single result to give odds for")
    field = ref.odds_field
    dist = distribution(lambda dice: ref.resolve(game, args, dice).result[field])
    chances = {value_key(v): p for v, p in sorted(dist.items(), key=lambda kv: _order(kv[0]))}
    answer = OddsAnswer(result={"field": field}, exact=chances)
    return _odds_payload(game, ref, args, answer)


#: The three ways a table is asked, as the command line names them.
MODES = ("lookup", "roll", "odds")


def run_query(mode: str, game: Game, ref: RefTable, pairs: Sequence[str],
              seed: int | None = None, exact: bool = False) -> dict[str, Any]:
    """``run_lookup``, ``run_roll`` (with ``seed``) or ``run_odds`` (``exact``) by its name
    in MODES."""
    if mode == "lookup":
        return run_lookup(game, ref, pairs)
    if mode == "roll":
        return run_roll(game, ref, pairs, seed)
    if mode == "odds":
        return run_odds(game, ref, pairs, exact)
    raise ValueError(f"query mode {mode!r} is not one of {', '.join(MODES)}")


def _odds_payload(game: Game, ref: RefTable, args: dict[str, Any], answer: OddsAnswer
                  ) -> dict[str, Any]:
    out = _base(game, ref, args, {})
    result = dict(answer.result)
    if "field" in result:
        result["distribution"] = {k: float(p) for k, p in answer.exact.items()}
        result["exact"] = {k: fraction_text(p) for k, p in answer.exact.items()}
    elif answer.exact or not ref.float_odds:
        result["exact"] = {k: fraction_text(p) for k, p in answer.exact.items()}
    out.update(result=result, rules=json_rules(answer.rules or ref.rules),
               errata=list(answer.errata or ref.errata))
    if answer.text:
        out["text"] = answer.text
    if ref.float_odds:
        out[WHOLE_TEXT] = True  # its text is the whole answer (not in the JSON)
    return out


def json_rules(rules: Sequence[str]) -> list[str]:
    """Rule numbers as the JSON gives them: as the text prints them, a step number without
    the bracket the rule text never opened (``land 2)`` -> ``land 2``)."""
    return [plain_steps(rule) for rule in rules]


#: A payload key (left out of the JSON, like ``text``) saying ``text`` is the whole answer.
WHOLE_TEXT = "whole_text"


def value_key(value: Any) -> str:
    """A result value as a JSON object key: yes/no for booleans."""
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return str(value)


def _order(value: Any) -> tuple[int, Any, str]:
    return (0, value, "") if isinstance(value, int | float) and not isinstance(value, bool) \
        else (1, 0, str(value))


@lru_cache(maxsize=512)
def fraction_text(p: Fraction) -> str:
    """``a/b`` exactly, however many digits (exact battle odds run to 500,000 bits: GMP
    writes them in milliseconds where CPython's ``str`` takes seconds and refuses past
    4300 digits). Kept for the next ask: a text answer counts the digits the JSON
    writes."""
    if max(p.numerator.bit_length(), p.denominator.bit_length()) < 4096:
        return f"{p.numerator}/{p.denominator}"
    import gmpy2

    return f"{gmpy2.mpz(p.numerator).digits()}/{gmpy2.mpz(p.denominator).digits()}"


# --- text answers ---------------------------------------------------------------------


def render_text(payload: Mapping[str, Any]) -> str:
    """A short human answer with the rule numbers."""
    lines = []
    head = f"{payload['game']} {payload['table']}"
    if payload.get("text"):
        lines.append(f"{head}: {payload['text']}")
    else:
        lines.append(head)
    result = payload["result"]
    if payload.get(WHOLE_TEXT):
        pass
    elif "exact" in result:
        lines.extend(_odds_lines(result))
    else:
        lines.extend(f"  {k}: {show_value(v)}" for k, v in result.items())
    if payload.get("rolls"):
        lines.extend(_rolled_lines(payload["rolls"], payload["seed"]))
    rules = rules_text(payload.get("rules") or [])
    errata = ", ".join(payload.get("errata") or [])
    tail = f"rules {rules}" if rules else ""
    if errata:
        tail += f"; errata {errata}"
    if tail:
        lines.append(f"  ({tail})")
    return "\n".join(lines)


def _rolled_lines(rolls: Sequence[Mapping[str, Any]], seed: int) -> list[str]:
    """``rolled with seed N: roll=4``; rolls marked with steps (a battle's rounds) one line a
    step: ``round 1: attacker_rolls=5, 3; defender_rolls=6``."""
    steps = [(step, list(group)) for step, group in groupby(rolls, key=lambda r: r.get("step"))]
    if len(steps) == 1 and steps[0][0] is None:
        return [f"  rolled with seed {seed}: {_runs_text(rolls)}"]
    return [f"  rolled with seed {seed}:",
            *(f"    {step or 'rolls'}: {_runs_text(group)}" for step, group in steps)]


def _runs_text(rolls: Sequence[Mapping[str, Any]]) -> str:
    """Consecutive rolls of one input as ``name=a, b, c``; runs joined by ``; ``."""
    return "; ".join(f"{name}={', '.join(str(r['value']) for r in run)}"
                     for name, run in ((n, list(g)) for n, g in groupby(rolls, key=_input)))


def _input(roll: Mapping[str, Any]) -> str:
    return str(roll["input"])


def _odds_lines(result: Mapping[str, Any]) -> list[str]:
    lines = []
    if "field" in result:
        lines.append(f"  {result['field']}:")
    # named probabilities (a battle's attacker_wins ...) are printed once, with their fractions
    extra = {k: v for k, v in result.items()
             if k not in ("field", "distribution", "exact", *result["exact"])}
    for key, value in extra.items():
        lines.append(f"  {key}: {show_value(value)}")
    # the floats are in the result already: a field's under "distribution", named ones
    # (a battle's) under their keys; only a table that gives neither has its fractions read
    floats = result.get("distribution", result)
    width = max(map(len, result["exact"]), default=0)
    for key, text in result["exact"].items():
        value = floats[key] if isinstance(floats.get(key), float) else float(_fraction(text))
        shown = f"{value:9.4f}  " if _is_count(key, value) else f"{100 * value:8.4f}%"
        exact = text if len(text) <= 40 else f"{len(text)} digits"
        lines.append(f"    {key:>{width}}  {shown}  ({exact})")
    return lines


def _fraction(text: str) -> Fraction:
    from fractions import Fraction  # only a table without floats of its own reads one

    return Fraction(text)


def _is_count(key: str, value: float) -> bool:
    """Expected counts (survivors) are printed as numbers, probabilities as percentages."""
    return value > 1 or "survivors" in key or key.startswith("expected")


def show_value(value: Any, none: str = "None") -> str:
    """A value as people read it: yes/no, lists joined by commas, mappings as ``key value;``
    and ``none`` for None (table printouts pass what an empty cell means there)."""
    if value is None:
        return none
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if isinstance(value, list | tuple):
        return ", ".join(show_value(v, none) for v in value)
    if isinstance(value, dict):
        return "; ".join(f"{k} {show_value(v, none)}" for k, v in value.items())
    return str(value)

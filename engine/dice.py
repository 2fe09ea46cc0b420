"""One dice model for every game, used in three modes.

Game procedures are written once against the :class:`Dice` protocol::

    def japan_search(fleet: str, dice: Dice) -> bool:
        return dice.roll("d6", "japan_roll") >= 4

and then run with

* :class:`GivenDice` -- the rolls a referee typed (``warpress lookup``);
* :class:`SeededDice` -- pseudo-random, reproducible rolls (``warpress roll``);
* :func:`distribution` -- every possible roll sequence, for exact odds (``warpress odds``).

Dice are named by strings: ``"d6"``, ``"d10"`` (a read 0 means 10), ``"2d6"`` (one
roll returning the total, 2..12) and generally ``"NdM"`` (N dice of M faces, summed).

Exact enumeration replays the procedure once per sequence of results, so it is meant
for small procedures (a few dice; 8 d6 rolls already make 1.7 million sequences).
Game modules compute bigger distributions by dynamic programming over
:func:`weights`.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections import Counter
from collections.abc import Callable, Hashable, Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from .errors import BadInput
from .inputs import quote, read_int

if TYPE_CHECKING:
    from fractions import Fraction

T = TypeVar("T", bound=Hashable)

#: Value a caller may pass for one named roll: one int, or ints consumed in order.
RollValues = int | Sequence[int]

_DIE_RE = re.compile(r"^([1-9][0-9]*)?d([1-9][0-9]*)$")
_MAX_COUNT = 100
_MAX_SIDES = 1000
_ALLOWED = "'d6', 'd10', '2d6' or 'NdM' (N dice of M faces, e.g. '3d6')"


class DiceError(BadInput):
    """A die, a roll or a dice procedure is not allowed; the message says why."""


class BadRoll(DiceError):
    """A given roll is a value the die cannot show."""

    def __init__(self, value: object, name: str, die: str):
        self.value = value
        self.name = name
        self.die = die
        super().__init__(f"input {name}={quote(value)} is not allowed ({die} result "
                         f"{range_text(die)})")


class MissingRoll(DiceError):
    """A procedure asked for a roll that the given rolls do not supply."""

    def __init__(self, name: str, die: str, used: int = 0):
        self.name = name
        self.die = die
        self.used = used
        if used:
            message = f"need another {die} roll for {name!r}; all {used} given were used"
        else:
            message = f"no {die} roll given for {name!r}"
        super().__init__(message)


# --------------------------------------------------------------------------- dice kinds


def parse_die(die: str) -> tuple[int, int]:
    """Return ``(count, sides)`` of a die name such as ``"2d6"``."""
    match = _DIE_RE.match(die) if isinstance(die, str) else None
    if match is None:
        raise DiceError(f"unknown die {die!r}; allowed: {_ALLOWED}")
    count = int(match.group(1) or 1)
    sides = int(match.group(2))
    if sides < 2 or count > _MAX_COUNT or sides > _MAX_SIDES:
        raise DiceError(
            f"unknown die {die!r}; allowed: {_ALLOWED} "
            f"with 1 <= N <= {_MAX_COUNT} and 2 <= M <= {_MAX_SIDES}"
        )
    return count, sides


@lru_cache(maxsize=256)
def _face_weights(die: str) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """Return ``(faces, integer weights, total weight)`` of a die, by convolution."""
    count, sides = parse_die(die)
    ways = {0: 1}
    for _ in range(count):
        nxt: dict[int, int] = {}
        for total, n in ways.items():
            for face in range(1, sides + 1):
                nxt[total + face] = nxt.get(total + face, 0) + n
        ways = nxt
    faces = tuple(sorted(ways))
    return faces, tuple(ways[f] for f in faces), sides**count


def faces(die: str) -> tuple[int, ...]:
    """Return the results a die can show, lowest first: ``faces("2d6") == (2, ..., 12)``."""
    return _face_weights(die)[0]


def weights(die: str) -> dict[int, Fraction]:
    """Return the probability of each result: ``weights("2d6")[7] == Fraction(1, 6)``."""
    from fractions import Fraction  # exact odds only: a lookup or roll needs none

    values, ways, total = _face_weights(die)
    return {v: Fraction(n, total) for v, n in zip(values, ways, strict=True)}


def range_text(die: str) -> str:
    """Describe the results of a die for messages and ``warpress tables``: ``"1-6"``,
    ``"1-10; 0 reads 10"``."""
    try:
        values = faces(die)
    except DiceError:
        return "unknown die"
    text = f"{values[0]}-{values[-1]}"
    return text + "; 0 reads 10" if die == "d10" else text


def read_roll(die: str, value: object, name: str = "roll") -> int:
    """Check a roll someone read off a real die and return it as a result of ``die``.

    Accepts ints and strings of ASCII digits (``read_int``); a d10 read as 0 is 10. Anything
    else raises :class:`BadRoll`, quoting the value, the roll's name and the die.
    """
    values = faces(die)
    number = read_int(value)
    if number == 0 and die == "d10":
        number = 10
    if number is None or not values[0] <= number <= values[-1]:
        raise BadRoll(value, name, die)
    return number


# --------------------------------------------------------------------------- protocol


class Dice(Protocol):
    """Whatever a procedure rolls with: given, seeded or enumerated dice."""

    def roll(self, die: str, name: str = "roll") -> int:
        """Return one result of ``die`` (e.g. ``"d6"``) for the roll called ``name``."""
        ...


class GivenDice:
    """The rolls a user typed.

    ``values`` is either a mapping ``name -> int | sequence of ints`` (a sequence is
    consumed in order by repeated rolls of that name; a single int serves exactly one
    roll), or a plain sequence of ints consumed in order whatever the roll's name.
    Every value is checked against the die when it is used (d10: 0 reads 10).

    ``used`` lists ``(name, die, value)`` for each roll served, in order.
    """

    def __init__(self, values: Mapping[str, RollValues] | Sequence[int]):
        self._named: dict[str, list[object]] | None
        self._plain: list[object] | None
        if isinstance(values, Mapping):
            self._named = {str(k): _as_list(v, str(k)) for k, v in values.items()}
            self._plain = None
        elif isinstance(values, Sequence) and not isinstance(values, str):
            self._named = None
            self._plain = list(values)
        else:
            raise DiceError(f"given rolls {values!r} must be a mapping or a sequence of ints")
        self._next: dict[str, int] = {}
        self.used: list[tuple[str, str, int]] = []

    def roll(self, die: str, name: str = "roll") -> int:
        """Return the next given value for ``name`` (or the next plain value)."""
        value = self.take(die, name)
        if value is None:
            raise MissingRoll(name, die, self._next.get(name if self._plain is None else "", 0))
        return value

    def take(self, die: str, name: str) -> int | None:
        """Consume and return the next given roll for ``name``, or None if there is none."""
        faces(die)  # reject unknown dice even when no value is left
        key = "" if self._plain is not None else name
        pool = self._plain if self._plain is not None else (self._named or {}).get(name)
        index = self._next.get(key, 0)
        if pool is None or index >= len(pool):
            return None
        value = read_roll(die, pool[index], name)
        self._next[key] = index + 1
        self.used.append((name, die, value))
        return value

    def remaining(self) -> dict[str, list[object]]:
        """Return the given values not used yet, by name (key ``""`` for a plain sequence)."""
        if self._plain is not None:
            rest = self._plain[self._next.get("", 0) :]
            return {"": rest} if rest else {}
        named = self._named or {}
        return {k: v[self._next.get(k, 0) :] for k, v in named.items() if v[self._next.get(k, 0) :]}

    def check_all_used(self) -> None:
        """Raise :class:`DiceError` if some given roll was never asked for."""
        rest = self.remaining()
        if rest:
            listed = ", ".join(f"{k or 'roll'}={v}" for k, v in rest.items())
            raise DiceError(f"given rolls not used by the procedure: {listed}")


def _as_list(value: object, name: str) -> list[object]:
    """Turn one mapping value (an int or a sequence of ints) into a list of values."""
    if isinstance(value, Sequence) and not isinstance(value, str):
        return list(value)
    return [value]


class SeededDice:
    """Pseudo-random dice from ``random.Random(seed)``; the same seed gives the same rolls.

    Named rolls in ``given`` (same format as :class:`GivenDice`) are used first;
    when they run out, the dice roll at random. ``rolls`` records every
    ``(name, die, value)`` served, so :meth:`replay` can reproduce a run exactly.
    """

    def __init__(self, seed: int, given: Mapping[str, RollValues] | None = None):
        self.seed = seed
        self._rng = random.Random(seed)
        self._given = GivenDice(given) if given else None
        self.rolls: list[tuple[str, str, int]] = []
        #: ``(index into rolls, label)``: where each step named with :meth:`mark` begins
        self.marks: list[tuple[int, str]] = []

    def mark(self, label: str) -> None:
        """The rolls from here on belong to the step ``label`` (e.g. ``round 2``)."""
        self.marks.append((len(self.rolls), label))

    def steps(self) -> list[str | None]:
        """The step label of each roll made so far (None before the first mark)."""
        labels: list[str | None] = [None] * len(self.rolls)
        for start, label in self.marks:
            labels[start:] = [label] * (len(self.rolls) - start)
        return labels

    def roll(self, die: str, name: str = "roll") -> int:
        """Return a given value for ``name`` if one is left, else a random result."""
        value = self._given.take(die, name) if self._given is not None else None
        if value is None:
            value = _random_roll(self._rng, die)
        self.rolls.append((name, die, value))
        return value

    def replay(self) -> GivenDice:
        """Return :class:`GivenDice` that serve exactly the rolls made so far."""
        named: dict[str, list[int]] = {}
        for name, _die, value in self.rolls:
            named.setdefault(name, []).append(value)
        return GivenDice(named)


def mark(dice: Dice, label: str) -> None:
    """Tell ``dice`` that the rolls from here on belong to the step ``label`` (a battle's
    ``round 2``), so a ``roll`` answer can group them; dice that do not record rolls ignore
    it."""
    marker = getattr(dice, "mark", None)
    if marker is not None:
        marker(label)


def _random_roll(rng: random.Random, die: str) -> int:
    """Roll ``die`` with ``rng``: N independent dice of M faces, summed."""
    count, sides = parse_die(die)
    return sum(rng.randint(1, sides) for _ in range(count))


# --------------------------------------------------------------------------- exact odds


class _ReplayDice:
    """Dice that replay a prefix of face choices, then choose the first face.

    ``path`` holds, per roll, ``[die, face index]``; the enumerator advances it like an
    odometer (depth-first), so every sequence of results is visited exactly once.
    """

    __slots__ = ("path", "depth", "num", "den", "max_rolls", "given", "_given_dice")

    def __init__(self, max_rolls: int, given: Mapping[str, RollValues] | None):
        self.path: list[list[Any]] = []  # [die, face index] per roll
        self.depth = 0
        self.num = 1
        self.den = 1
        self.max_rolls = max_rolls
        self.given = given
        self._given_dice: GivenDice | None = None

    def restart(self) -> None:
        """Prepare to run the procedure again along the current path."""
        self.depth = 0
        self.num = 1
        self.den = 1
        self._given_dice = GivenDice(self.given) if self.given else None

    def roll(self, die: str, name: str = "roll") -> int:
        """Return the face the current path chooses for this roll, and weight it."""
        if self._given_dice is not None:
            value = self._given_dice.take(die, name)
            if value is not None:
                return value
        values, ways, total = _face_weights(die)
        depth = self.depth
        if depth < len(self.path):
            step = self.path[depth]
            if step[0] != die:
                raise DiceError(
                    f"procedure is not deterministic: roll {depth + 1} ({name!r}) was a "
                    f"{step[0]}, now a {die}"
                )
            index: int = step[1]
        else:
            if depth >= self.max_rolls:
                raise DiceError(
                    f"procedure rolled more than {self.max_rolls} times; "
                    "raise max_rolls or compute the odds another way"
                )
            index = 0
            self.path.append([die, 0])
        self.depth = depth + 1
        self.num *= ways[index]
        self.den *= total
        return values[index]

    def advance(self) -> bool:
        """Move the path to the next sequence of results; False when all are done."""
        path = self.path
        del path[self.depth :]
        while path:
            step = path[-1]
            if step[1] + 1 < len(_face_weights(step[0])[0]):
                step[1] += 1
                return True
            path.pop()
        return False


def distribution(
    procedure: Callable[[Dice], T],
    *,
    max_rolls: int = 64,
    max_sequences: int | None = 2_000_000,
    given: Mapping[str, RollValues] | None = None,
) -> dict[T, Fraction]:
    """Return the exact probability of every result of ``procedure(dice)``.

    The procedure is run once per possible sequence of roll results (depth-first
    prefix replay), each weighted by the product of its faces' probabilities;
    identical results are merged. Results must be hashable. The procedure must be
    deterministic given its rolls. Rolls named in ``given`` are fixed, not enumerated.

    Meant for small procedures: more than ``max_rolls`` rolls in one run, or more than
    ``max_sequences`` runs, raises :class:`DiceError` (use dynamic programming instead).
    """
    from fractions import Fraction

    dice = _ReplayDice(max_rolls, given)
    sums: dict[T, dict[int, int]] = {}
    runs = 0
    while True:
        runs += 1
        if max_sequences is not None and runs > max_sequences:
            raise DiceError(
                f"procedure has more than {max_sequences} roll sequences; "
                "too many to enumerate, compute the odds another way"
            )
        dice.restart()
        result = procedure(dice)
        try:
            by_den = sums.setdefault(result, {})
        except TypeError:
            raise DiceError(f"procedure result {result!r} is not hashable") from None
        by_den[dice.den] = by_den.get(dice.den, 0) + dice.num
        if not dice.advance():
            break
    dist = {
        r: sum((Fraction(n, d) for d, n in by_den.items()), Fraction(0))
        for r, by_den in sums.items()
    }
    assert sum(dist.values()) == 1, f"probabilities sum to {sum(dist.values())}, not 1"
    return dist


def expected(
    dist: Mapping[T, Fraction], key: Callable[[T], Fraction | int | float] | None = None
) -> Fraction | float:
    """Return the mean of ``key(result)`` (default: the result itself) over ``dist``."""
    from fractions import Fraction

    fn = key if key is not None else (lambda r: r)
    return sum((p * fn(r) for r, p in dist.items()), Fraction(0))


def probability(dist: Mapping[T, Fraction], predicate: Callable[[T], bool]) -> Fraction:
    """Return the total probability of the results for which ``predicate`` is true."""
    from fractions import Fraction

    return sum((p for r, p in dist.items() if predicate(r)), Fraction(0))


def monte_carlo(procedure: Callable[[Dice], T], n: int, seed: int = 0) -> dict[T, float]:
    """Run ``procedure`` ``n`` times with seeded random dice; return result frequencies."""
    if n <= 0:
        raise DiceError(f"monte_carlo needs n >= 1 runs, not {n!r}")
    dice = _RandomDice(seed)
    counts = Counter(procedure(dice) for _ in range(n))
    return {r: c / n for r, c in counts.items()}


class _RandomDice:
    """Seeded random dice that keep no record (for long Monte Carlo runs)."""

    def __init__(self, seed: int):
        self._rng = random.Random(seed)

    def roll(self, die: str, name: str = "roll") -> int:
        """Return a random result of ``die``."""
        return _random_roll(self._rng, die)


def derived_seed(seed: int, n: int | str) -> int:
    """The seed of step ``n`` of a game played from ``seed`` (0 is the set-up): a SHA-256
    of ``f"{seed}:{n}"``, so a session replays exactly, independent of Python's hash
    randomisation."""
    return int.from_bytes(hashlib.sha256(f"{seed}:{n}".encode()).digest()[:8], "big")

"""Rule invariants as hypothesis properties, run by ``warpress verify``.

An invariant is registered, in the ``checks.py`` of a game's folder, on the folder's
``CODE`` (``engine.registry.GameCode``) with the rule number it holds the engine to::

    from . import CODE

    @CODE.check("8.3(3)", "a carrier never holds more than 5 aircraft units")
    def carrier_capacity(game):
        return CarrierMachine.TestCase          # or a function decorated with @given

It belongs to the folder whose ``checks`` registered it (``engine.gamecode``), never to a
game id: a folder that reuses a shipped game's id runs none of that game's checks. The
invariants of ``verify/generic.py`` (registered on its own ``GENERIC``) hold for every game.

The function receives the loaded ``Game`` (so a test can swap in a broken rule
by handing it a modified game) and returns something hypothesis can run: a
``@given`` test function, or a ``RuleBasedStateMachine`` class. ``run`` runs it
with a fixed seed and a bounded budget and returns PASS, or FAIL with the
shrunk counterexample hypothesis printed (a replayable call or state-machine
program).
"""

from __future__ import annotations

import io
import traceback
from collections.abc import Callable
from contextlib import redirect_stdout
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..engine.dice import SeededDice, faces
from ..engine.errors import RuleViolation
from ..engine.gamecode import game_code
from ..engine.model import Game
from ..engine.places import hypothesis_home
from ..engine.registry import Check, GameCode, old_way
from .declared import declared_invariants
from .generic import GENERIC
from .invariant import Invariant

if TYPE_CHECKING:  # hypothesis is imported only when a check runs (start-up)
    from hypothesis.strategies import DataObject

#: budgets (examples per property) for the quick and the thorough run
QUICK = 60
THOROUGH = 1000
SEED = 20261121


@dataclass(frozen=True)
class Outcome:
    invariant: Invariant
    passed: bool
    counterexample: str = ""
    examples: int = 0
    error: str = ""

    @property
    def status(self) -> str:
        return "PASS" if self.passed else "FAIL"


class DrawnDice:
    """Dice whose every result hypothesis draws (from ``st.data()``), labelled with the roll's
    name: a counterexample lists the rolls and shrinks them.

    ``rolls`` records ``(name, die, value)`` for each roll, like ``SeededDice.rolls``, and
    ``replay()`` is SeededDice's: GivenDice serving exactly those rolls again.
    """

    def __init__(self, data: DataObject) -> None:
        self.data = data
        self.rolls: list[tuple[str, str, int]] = []

    def roll(self, die: str, name: str = "roll") -> int:
        from hypothesis import strategies as st  # start-up: only when an invariant runs

        value: int = self.data.draw(st.sampled_from(faces(die)), label=name)
        self.rolls.append((name, die, value))
        return value

    #: GivenDice serving exactly the rolls made so far (the same record as SeededDice's)
    replay = SeededDice.replay


def refusal(call: Callable[..., object], *args: Any, **kwargs: Any) -> str | None:
    """None when the engine accepts ``call(*args, **kwargs)``; the RuleViolation's text (the
    rule it cites) when it refuses."""
    try:
        call(*args, **kwargs)
    except RuleViolation as exc:
        return str(exc)
    return None


def invariants_for(game: Game) -> list[Invariant]:
    """The generic invariants, those the ``checks`` of the game's own folder register and the
    game's declarative checks (its ``checks`` section, verify/declared.py)."""
    own = game_code(game, "checks")  # shown under the id of the game checked
    return [*_invariants(GENERIC, "*"), *_invariants(own, game.id),
            *declared_invariants(game)]


def _invariants(code: GameCode, game: str) -> list[Invariant]:
    return [_invariant(check, game) for check in code.checks]


def _invariant(check: Check, game: str) -> Invariant:
    return Invariant(game, check.rule, check.summary, check.factory, check.name,
                     check.max_examples)


def __getattr__(name: str) -> Any:
    if name == "invariant":
        raise old_way(__name__, name, '@CODE.check("<rule>", "<summary>")')
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def run(inv: Invariant, game: Game, examples: int = QUICK, seed: int = SEED) -> Outcome:
    """Run one invariant with a fixed seed and budget; collect the counterexample."""
    # start-up: hypothesis (about 170 modules), only when an invariant runs
    from hypothesis import HealthCheck, Phase, settings
    from hypothesis import seed as fixed_seed
    from hypothesis.configuration import set_hypothesis_home_dir
    from hypothesis.stateful import RuleBasedStateMachine, run_state_machine_as_test

    set_hypothesis_home_dir(hypothesis_home())  # not .hypothesis/ in the user's directory
    if inv.max_examples is not None:  # a cap for the quick budget, scaled for --thorough
        examples = min(examples, inv.max_examples * max(1, examples // QUICK))
    # explain traces every line while shrinking (slow); one bug is reported, with its example
    phases = [p for p in Phase if p is not Phase.explain]
    config = settings(max_examples=examples, deadline=None, database=None, derandomize=False,
                      print_blob=False, stateful_step_count=40, phases=phases,
                      report_multiple_bugs=False, suppress_health_check=list(HealthCheck))
    target = inv.factory(game)
    if not hasattr(target, "hypothesis") and not isinstance(target, type):
        return Outcome(inv, True, examples=0)  # nothing to check for this game
    report = io.StringIO()
    try:
        with redirect_stdout(report):
            if isinstance(target, type) and issubclass(target, RuleBasedStateMachine):
                # a machine is seeded through its TestCase; derandomize fixes its examples
                machine_config = settings(config, derandomize=True)
                run_state_machine_as_test(target, settings=machine_config)
            else:
                assert callable(target)  # a hypothesis test: it has .hypothesis
                test = config(target)
                fixed_seed(seed)(test)()
    except AssertionError as exc:
        printed = "" if inv.says_its_case else report.getvalue()
        return Outcome(inv, False, _counterexample(printed, exc, inv.says_its_case), examples)
    except Exception as exc:  # noqa: BLE001 - an engine crash is a failed invariant too
        detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
        return Outcome(inv, False, _counterexample(report.getvalue(), exc), examples, detail)
    return Outcome(inv, True, examples=examples)


def _counterexample(printed: str, exc: BaseException, message_only: bool = False) -> str:
    notes = [] if message_only else getattr(exc, "__notes__", []) or []
    lines = [*notes, *printed.splitlines()]
    kept = [line for line in lines if line.strip() and "Trying example" not in line]
    message = str(exc).strip()
    if message and message not in kept:
        kept.append(message)
    return "\n".join(kept)


@dataclass
class GameReport:
    game: str
    outcomes: list[Outcome] = field(default_factory=list)

    @property
    def failed(self) -> list[Outcome]:
        return [o for o in self.outcomes if not o.passed]


def verify_game(game: Game, thorough: bool = False) -> GameReport:
    """Run every invariant of ``game`` with the quick or the thorough budget."""
    examples = THOROUGH if thorough else QUICK
    report = GameReport(game.id)
    for inv in invariants_for(game):
        report.outcomes.append(run(inv, game, examples))
    return report

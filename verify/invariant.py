"""One invariant ``warpress verify`` runs: the rule it holds, what it says and the factory of
its property. The generic invariants, a game's own (its ``checks`` module) and its declared
checks (verify/declared.py) are each made into one; verify/invariants.py runs them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..engine.model import Game
from ..engine.text import plain_steps

#: ``factory(game)``: the property to run (a hypothesis test or a state machine class)
Factory = Callable[[Game], object]


@dataclass(frozen=True)
class Invariant:
    game: str  # "*" (generic); from invariants_for: the id of the game it is for
    rule: str
    summary: str
    factory: Factory
    name: str = ""
    max_examples: int | None = None  # a cap for slow properties
    says_its_case: bool = False  # its failure message names the case (a declared check):
    # hypothesis's own lines about the example are left out of the counterexample

    @property
    def label(self) -> str:
        return f"{plain_steps(self.rule)} {self.summary}"

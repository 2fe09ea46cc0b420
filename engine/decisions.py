"""Decisions: what a side may do now, as people and agents see it.

Every game a session plays declares the actions it accepts (:class:`ActionSpec`: a name,
its arguments and options; the command line is made from them) and, for any position,
the :class:`Decision` due: which side decides, what about, under which rule, and its legal
answers grouped into :class:`Option` s (one per unit to move, one per hex to attack, ...;
an option lists its actions only when asked, so that an agent choosing at random pays
for one unit's moves, not every unit's). An :class:`Action` is what a person types: a
name and its arguments as text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from .model import EMPTY, FrozenDict


@dataclass(frozen=True)
class Action:
    """One legal answer: the action's ``name`` and its ``args`` (as a person types them),
    with a short ``label`` for listings and what it costs or leads to (``note``)."""

    name: str
    args: Mapping[str, Any] = field(default_factory=lambda: EMPTY)
    label: str = ""
    note: str = ""

    @classmethod
    def of(cls, name: str, label: str = "", note: str = "", **args: Any) -> Action:
        return cls(name, FrozenDict({k: v for k, v in args.items() if v is not None}),
                   label or " ".join([name, *(str(v) for v in args.values() if v is not None)]),
                   note)

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"action": self.name, "args": dict(self.args)}
        if self.note:
            out["note"] = self.note
        return out


@dataclass(frozen=True)
class Option:
    """A group of actions: one unit's moves, one hex's attacks, or a single action; its
    actions are listed when first asked (``expand``)."""

    label: str
    expand: Callable[[], tuple[Action, ...]] = field(compare=False, repr=False)

    @property
    def actions(self) -> tuple[Action, ...]:
        return self.expand()

    @classmethod
    def single(cls, action: Action) -> Option:
        return cls(action.label, lambda: (action,))


@dataclass(frozen=True)
class Decision:
    """The decision due now: the ``side`` making it, its ``kind`` (move, combat, loss,
    retreat, advance, replacements, place ...), a ``prompt``, the rules behind it and the
    legal answers grouped into ``options``."""

    side: str | None
    kind: str
    prompt: str
    rules: tuple[str, ...] = ()
    options: tuple[Option, ...] = ()

    def actions(self) -> Iterator[Action]:
        """Every legal answer."""
        for option in self.options:
            yield from option.actions

    def as_json(self, expand: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {"side": self.side, "kind": self.kind, "prompt": self.prompt,
                               "rules": list(self.rules)}
        out["options"] = [{"label": o.label,
                           **({"actions": [a.as_json() for a in o.actions]} if expand else {})}
                          for o in self.options]
        return out


@dataclass(frozen=True)
class Arg:
    """A positional argument of an action: the ``args`` key it fills, its help, and whether
    it may be left out."""

    name: str
    help: str = ""
    required: bool = True


@dataclass(frozen=True)
class Opt:
    """An option of an action (``--leave-map``): the ``args`` key it fills (only when
    given, so the log keeps what was typed); a ``flag`` sets ``value`` (default true)."""

    decl: str
    key: str
    help: str = ""
    flag: bool = False
    value: object = None


@dataclass(frozen=True)
class ActionSpec:
    """An action a game accepts in a session, as the command line offers it."""

    name: str
    help: str
    args: tuple[Arg, ...] = ()
    options: tuple[Opt, ...] = ()
    short_help: str | None = None


def command_line(action: Action, spec: ActionSpec | None) -> str:
    """The action as typed after ``warpress play``: its positional arguments in order, the
    others as options."""
    positional = [a.name for a in spec.args] if spec else []
    parts = [action.name, *(str(action.args[n]) for n in positional if n in action.args)]
    by_key = {o.key: o for o in spec.options} if spec else {}
    for key, value in action.args.items():
        if key in positional:
            continue
        option = by_key.get(key)
        decl = option.decl if option else f"--{key.replace('_', '-')}"
        parts.append(decl if option is not None and option.flag else f"{decl} {value}")
    return " ".join(parts)

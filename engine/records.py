"""``frozen_record``: a frozen dataclass whose methods are shared instead of generated per class.

``dataclasses.dataclass(frozen=True)`` writes and compiles six functions for every class
(``__init__``, ``__repr__``, ``__eq__``, ``__hash__``, ``__setattr__``, ``__delattr__``);
on Python 3.11 that is most of a command's ``engine.model`` import (44 classes: 72 ms
against 4 ms for the fields alone, measured). A ``frozen_record`` keeps the dataclass's fields
(``fields``, ``replace``, ``asdict`` and ``is_dataclass`` work as before) and takes the
six methods from ``Frozen``, which reads each class's fields once, when it is decorated.

The behaviour is a frozen dataclass's: keyword (and, without ``kw_only``, positional)
arguments, defaults and default factories, ``__post_init__``; equality and hash over the
fields that compare, of the same class only; ``Name(field=value, ...)`` over the fields
that show; ``FrozenInstanceError`` on assignment. A record's class must not define those
methods itself, and every class of a record's hierarchy is a record.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import MISSING, FrozenInstanceError
from operator import attrgetter
from reprlib import recursive_repr
from typing import Any, TypeVar, dataclass_transform, overload

T = TypeVar("T")
R = TypeVar("R", bound="Frozen")

_set = object.__setattr__


class _Plan:
    """What the shared methods need of one record class, read from its fields."""

    __slots__ = ("fields", "positional", "post_init", "key", "shown", "name")

    def __init__(self, cls: type) -> None:
        every = dataclasses.fields(cls)
        init = [f for f in every if f.init]
        # (name, default, default factory): a value, a callable, or MISSING for either
        self.fields: tuple[tuple[str, Any, Any], ...] = tuple(
            (f.name, f.default, f.default_factory) for f in init)
        self.positional = tuple(f.name for f in init if not f.kw_only)
        self.post_init: Callable[[Any], None] | None = getattr(cls, "__post_init__", None)
        compared = [f.name for f in every if f.compare]
        self.key = _getter(compared)
        self.shown = tuple(f.name for f in every if f.repr)
        self.name = cls.__name__


def _getter(names: list[str]) -> Callable[[Any], tuple[Any, ...]]:
    """The fields ``names`` of an object as a tuple (``attrgetter`` gives a bare value for
    one name)."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        name = names[0]
        return lambda obj: (getattr(obj, name),)
    return lambda obj: ()


class Frozen:
    """The methods of every ``frozen_record`` class (see the module's docstring)."""

    __slots__ = ()
    __record_plan__: _Plan

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        plan = type(self).__record_plan__
        if args:
            _bind(plan, args, kwargs)
        for name, default, factory in plan.fields:
            value = kwargs.pop(name, MISSING)
            if value is MISSING:
                if factory is not MISSING:
                    value = factory()
                elif default is not MISSING:
                    value = default
                else:
                    raise TypeError(f"{plan.name}.__init__() missing 1 required argument: "
                                    f"{name!r}")
            _set(self, name, value)
        if kwargs:
            raise TypeError(f"{plan.name}.__init__() got an unexpected keyword argument "
                            f"{next(iter(kwargs))!r}")
        if plan.post_init is not None:
            plan.post_init(self)

    @recursive_repr()
    def __repr__(self) -> str:
        plan = type(self).__record_plan__
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in plan.shown)
        return f"{type(self).__qualname__}({shown})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        key = type(self).__record_plan__.key
        return key(self) == key(other)

    def __hash__(self) -> int:
        return hash(type(self).__record_plan__.key(self))

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")


def _bind(plan: _Plan, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """Put positional ``args`` into ``kwargs`` by the record's positional fields."""
    if len(args) > len(plan.positional):
        raise TypeError(f"{plan.name}.__init__() takes {len(plan.positional)} positional "
                        f"arguments but {len(args)} were given")
    for name, value in zip(plan.positional, args, strict=False):
        if name in kwargs:
            raise TypeError(f"{plan.name}.__init__() got multiple values for argument "
                            f"{name!r}")
        kwargs[name] = value


@overload
def frozen_record(cls: type[R], /) -> type[R]: ...


@overload
def frozen_record(*, kw_only: bool = True) -> Callable[[type[R]], type[R]]: ...


@dataclass_transform(eq_default=True, kw_only_default=True, frozen_default=True,
                     field_specifiers=(dataclasses.field, dataclasses.Field))
def frozen_record(cls: type[R] | None = None, /, *, kw_only: bool = True
                  ) -> type[R] | Callable[[type[R]], type[R]]:
    """Make ``cls`` (a subclass of ``Frozen``) a frozen dataclass with ``Frozen``'s methods:
    ``@frozen_record`` (keyword arguments only) or ``@frozen_record(kw_only=False)``.
    Declared a dataclass transform, so a type checker reads a record's fields as a frozen
    dataclass's."""

    def wrap(cls: type[R]) -> type[R]:
        if not issubclass(cls, Frozen):
            raise TypeError(f"record {cls.__name__} must derive from Frozen")
        own = {"__init__", "__repr__", "__eq__", "__hash__", "__setattr__",
               "__delattr__"} & cls.__dict__.keys()
        if own:
            raise TypeError(f"record {cls.__name__} defines {', '.join(sorted(own))}")
        cls = dataclasses.dataclass(cls, init=False, repr=False, eq=False, kw_only=kw_only)
        type.__setattr__(cls, "__record_plan__", _Plan(cls))
        return cls

    return wrap if cls is None else wrap(cls)


def evolve(record: R, **changes: Any) -> R:
    """``dataclasses.replace`` for a record, without going through ``__init__``: the fields
    copied, ``changes`` put in, ``__post_init__`` run if the class has one. Values derived
    and cached on the old record (``cached_property``) are not copied."""
    cls = type(record)
    plan = cls.__record_plan__
    new = object.__new__(cls)
    for name, _default, _factory in plan.fields:
        _set(new, name, changes.pop(name) if name in changes else getattr(record, name))
    if changes:
        raise TypeError(f"{plan.name} has no field {next(iter(changes))!r}")
    if plan.post_init is not None:
        plan.post_init(new)
    return new

"""``frozen_record`` behaves as ``dataclass(frozen=True)`` does, with shared methods."""

from __future__ import annotations

import dataclasses
import pickle
from dataclasses import FrozenInstanceError, dataclass, field

import pytest
from hypothesis import given
from hypothesis import strategies as st
from warpress.engine.records import Frozen, frozen_record


def _tags() -> tuple[str, ...]:
    return ("a",)


@frozen_record
class Base(Frozen):
    id: str
    size: int = 1
    tags: tuple[str, ...] = field(default_factory=_tags)
    hidden: str = field(default="h", compare=False, repr=False)


@frozen_record
class Child(Base):
    extra: int = 0

    def __post_init__(self) -> None:
        if self.extra < 0:
            raise ValueError("extra must not be negative")


@frozen_record(kw_only=False)
class Point(Frozen):
    x: int = 0
    y: int = 0


# The same classes as plain frozen dataclasses, to compare with.
@dataclass(frozen=True, kw_only=True)
class DBase:
    id: str
    size: int = 1
    tags: tuple[str, ...] = field(default_factory=_tags)
    hidden: str = field(default="h", compare=False, repr=False)


@dataclass(frozen=True)
class DPoint:
    x: int = 0
    y: int = 0


def test_defaults_factories_and_fields():
    made = Base(id="u")
    assert (made.id, made.size, made.tags, made.hidden) == ("u", 1, ("a",), "h")
    assert [f.name for f in dataclasses.fields(Child)] == ["id", "size", "tags", "hidden",
                                                          "extra"]
    assert dataclasses.is_dataclass(made)
    assert dataclasses.replace(made, size=3) == Base(id="u", size=3)
    assert dataclasses.asdict(Child(id="c", extra=2))["extra"] == 2


@given(st.text(max_size=5), st.integers(), st.text(max_size=3), st.text(max_size=3))
def test_eq_hash_repr_as_a_dataclass(ident, size, hidden, other_hidden):
    ours, theirs = Base(id=ident, size=size, hidden=hidden), DBase(id=ident, size=size,
                                                                  hidden=hidden)
    assert repr(ours) == repr(theirs).replace("DBase", "Base")
    assert hash(ours) == hash(theirs)
    assert ours == Base(id=ident, size=size, hidden=other_hidden)  # hidden: compare=False
    assert ours != Base(id=ident, size=size + 1)
    assert Base(id=ident) != Child(id=ident)  # another class is never equal
    assert (ours == theirs) is False


def test_positional_only_without_kw_only():
    assert Point(1, 2) == Point(x=1, y=2)
    assert repr(Point(1)) == repr(DPoint(1)).replace("DPoint", "Point")
    with pytest.raises(TypeError, match="takes 2 positional arguments but 3"):
        Point(1, 2, 3)
    with pytest.raises(TypeError, match="multiple values for argument 'x'"):
        Point(1, x=2)
    with pytest.raises(TypeError, match="positional"):
        Base("u")


def test_bad_arguments_are_type_errors():
    with pytest.raises(TypeError, match="missing 1 required argument: 'id'"):
        Base()
    with pytest.raises(TypeError, match="unexpected keyword argument 'colour'"):
        Base(id="u", colour="red")


def test_post_init_runs():
    with pytest.raises(ValueError, match="negative"):
        Child(id="c", extra=-1)


def test_frozen_and_picklable():
    made = Child(id="c", extra=1)
    with pytest.raises(FrozenInstanceError):
        made.size = 2
    with pytest.raises(FrozenInstanceError):
        del made.size
    assert pickle.loads(pickle.dumps(made)) == made


def test_a_record_keeps_its_methods_shared():
    with pytest.raises(TypeError, match="must derive from Frozen"):
        frozen_record(type("Loose", (), {"__annotations__": {"a": "int"}}))
    with pytest.raises(TypeError, match="defines __eq__"):
        frozen_record(type("Own", (Frozen,), {"__eq__": lambda self, other: True}))


def test_the_model_is_made_of_records():
    from warpress.engine import model

    classes = [c for c in vars(model).values()
               if isinstance(c, type) and dataclasses.is_dataclass(c)]
    assert len(classes) > 40
    assert all(issubclass(c, Frozen) and "__record_plan__" in vars(c) for c in classes)


def test_a_type_checker_reads_records_as_frozen_keyword_dataclasses():
    declared = frozen_record.__dataclass_transform__  # set by typing.dataclass_transform
    frozen = declared.get("frozen_default", declared.get("kwargs", {}).get("frozen_default"))
    assert frozen is True  # a keyword of its own from Python 3.12, in kwargs before
    assert declared["kw_only_default"] is True
    assert dataclasses.field in declared["field_specifiers"]

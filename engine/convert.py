"""YAML data -> frozen dataclasses, driven by the dataclasses' type hints.

One description, two uses: ``to_type`` converts located YAML data into the
records of ``engine/model.py`` and reports every mismatch with file, line and
key path; ``json_schema`` derives a JSON Schema from the same type hints.
"""

from __future__ import annotations

import dataclasses
import math
import re
import types
import typing
from collections.abc import Mapping
from functools import cache
from typing import Any, Literal, Union

from .errors import Problem
from .inputs import choices, likely_first, quote
from .model import FrozenDict, Item, Where
from .yamlnodes import LList, LMap


class Context:
    """Collects problems for one file."""

    def __init__(self, shown: str):
        self.shown = shown
        self.problems: list[Problem] = []

    def problem(self, line: int, path: str, message: str) -> None:
        self.problems.append(Problem(self.shown, line, path, message))


_INVALID = object()

#: An id: ASCII letters, digits, ``.``, ``_`` and ``-``, not starting with ``.``, without
#: ``..``. Ids become file names (piece images, kit pages, export folders) and are printed
#: in a terminal, so a separator, a control character or a path step is refused.
ID_PATTERN = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]*")
#: The longest id (the longest shipped is 43 characters; a piece's file name adds about 30).
ID_MOST = 64


def id_problem(text: str) -> str | None:
    """Why ``text`` is not an id (docs/data-format.md, "Records: the common keys"), or None."""
    if len(text) > ID_MOST:
        return f"id {quote(text)} is longer than {ID_MOST} characters"
    if not ID_PATTERN.fullmatch(text) or ".." in text:
        return (f"id {quote(text)} is not allowed (letters, digits, '.', '_' and '-', not "
                f"starting with '.', without '..')")
    return None


def freeze(value: Any) -> Any:
    """Plain YAML data as immutable values: lists -> tuples, mappings -> read-only."""
    if isinstance(value, list):
        return tuple(freeze(v) for v in value)
    if isinstance(value, dict):
        return FrozenDict({k: freeze(v) for k, v in value.items()})
    return value


@cache
def hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def yaml_key(f: dataclasses.Field[Any]) -> str:
    return str(f.metadata.get("key", f.name))


@cache
def fields_of(cls: type) -> tuple[dataclasses.Field[Any], ...]:
    return tuple(f for f in dataclasses.fields(cls) if not f.metadata.get("internal"))


def _required(f: dataclasses.Field[Any]) -> bool:
    return f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING


def to_type(raw: Any, tp: Any, ctx: Context, path: str, line: int) -> Any:
    """Convert ``raw`` to type ``tp``; on a mismatch record a problem, return _INVALID."""
    line = getattr(raw, "line", 0) or line
    if tp is Any:
        return freeze(raw)
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        return _union(raw, tp, ctx, path, line)
    if origin is Literal:
        allowed = typing.get_args(tp)
        if raw in allowed:
            return raw
        choices = ", ".join(str(a) for a in allowed)
        return _bad(ctx, line, path, f"{raw!r} is not allowed (allowed: {choices})")
    if origin is tuple:
        return _tuple(raw, typing.get_args(tp)[0], ctx, path, line)
    if origin in (Mapping, dict) or tp is Mapping:
        return _mapping(raw, typing.get_args(tp)[1], ctx, path, line)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return to_record(raw, tp, ctx, path, line)
    return _scalar(raw, tp, ctx, path, line)


def _bad(ctx: Context, line: int, path: str, message: str) -> object:
    ctx.problem(line, path, message)
    return _INVALID


def _union(raw: Any, tp: Any, ctx: Context, path: str, line: int) -> Any:
    options = typing.get_args(tp)
    if raw is None and type(None) in options:
        return None
    non_none = [o for o in options if o is not type(None)]
    if len(non_none) == 1:
        return to_type(raw, non_none[0], ctx, path, line)
    for option in non_none:
        trial = Context(ctx.shown)
        value = to_type(raw, option, trial, path, line)
        if not trial.problems:
            return value
    names = " or ".join(_type_name(o) for o in non_none)
    return _bad(ctx, line, path, f"{raw!r} is not {names}")


def _tuple(raw: Any, item_tp: Any, ctx: Context, path: str, line: int) -> Any:
    if isinstance(raw, str | int | float) and item_tp is str and not isinstance(raw, bool):
        raw = [raw]
        if not isinstance(raw[0], str):
            return _bad(ctx, line, path, f"{raw[0]!r} must be quoted text (rule numbers, ids)")
    if not isinstance(raw, list):
        return _bad(ctx, line, path, f"expected a list, got {_describe(raw)}")
    out = []
    for i, item in enumerate(raw):
        item_line = raw.line_of(i) if isinstance(raw, LList) else line
        out.append(to_type(item, item_tp, ctx, f"{path}[{item_name(item, i)}]", item_line))
    return _INVALID if any(v is _INVALID for v in out) else tuple(out)


def shown_key(key: Any) -> str:
    """A mapping key as a key path shows it: cut to ``QUOTE_CHARS`` when longer."""
    text = str(key)
    return text if len(text) <= 40 else f"{text[:40]}..."


def item_name(item: Any, index: int) -> str:
    """How a key path names a list item: its id, or its index when it has no id or one that
    is no id (too long to print, or holding characters a path must not show)."""
    ident = item.get("id") if isinstance(item, dict) else None
    if isinstance(ident, str) and not id_problem(ident):
        return ident
    return str(index)


def _mapping(raw: Any, value_tp: Any, ctx: Context, path: str, line: int) -> Any:
    if not isinstance(raw, dict):
        return _bad(ctx, line, path, f"expected a mapping, got {_describe(raw)}")
    out = {}
    for key, value in raw.items():
        key_line = raw.line_of(key) if isinstance(raw, LMap) else line
        out[key] = to_type(value, value_tp, ctx, f"{path}.{key}", key_line)
    return _INVALID if any(v is _INVALID for v in out.values()) else FrozenDict(out)


def _scalar(raw: Any, tp: Any, ctx: Context, path: str, line: int) -> Any:
    if tp is float and isinstance(raw, int | float) and not isinstance(raw, bool):
        if not math.isfinite(raw):
            return _bad(ctx, line, path, f"expected a finite number, got {raw}")
        return float(raw)
    if tp is int and isinstance(raw, int) and not isinstance(raw, bool):
        return raw
    if tp is bool and isinstance(raw, bool):
        return raw
    if tp is str and isinstance(raw, str):
        return raw
    hint = " (quote it)" if tp is str and raw is not None else ""
    return _bad(ctx, line, path, f"expected {_type_name(tp)}, got {_describe(raw)}{hint}")


def to_record(raw: Any, cls: type, ctx: Context, path: str, line: int) -> Any:
    """Convert a mapping to the dataclass ``cls``; unknown keys are problems unless OPEN."""
    if not isinstance(raw, dict):
        return _bad(ctx, line, path, f"expected a mapping, got {_describe(raw)}")
    line = getattr(raw, "line", 0) or line
    kwargs: dict[str, Any] = {}
    ok = True
    known = set()
    for f in fields_of(cls):
        key = yaml_key(f)
        known.add(key)
        if key not in raw:
            if _required(f):
                ctx.problem(line, path, f"missing required key {key!r}")
                ok = False
            continue
        key_line = raw.line_of(key) if isinstance(raw, LMap) else line
        value = to_type(raw[key], hints(cls)[f.name], ctx, f"{path}.{key}", key_line)
        if value is _INVALID:
            ok = False
        else:
            kwargs[f.name] = value
    unknown = [k for k in raw if k not in known]
    extra_keys = getattr(cls, "EXTRA_KEYS", None)  # an OPEN class's other keys, if it lists them
    if unknown and getattr(cls, "OPEN", False):
        kwargs["extra"] = freeze({k: raw[k] for k in unknown})
        unknown = [k for k in unknown if extra_keys is not None and k not in extra_keys]
    if unknown:  # reported; the record is still built without them, so that the checks
        # after the loader see it and do not report what names it as missing (a typo'd key
        # on a map feature would otherwise take the whole map, and every hex, with it)
        keys = sorted(known | (extra_keys or frozenset()))
        for key in unknown:
            key_line = raw.line_of(key) if isinstance(raw, LMap) else line
            allowed = choices(likely_first(str(key), keys), "docs/data-format.md")
            ctx.problem(key_line, f"{path}.{shown_key(key)}", f"unknown key {quote(key)} "
                        f"(allowed: {allowed})")
        if "extra" in kwargs:
            kwargs["extra"] = freeze({k: v for k, v in kwargs["extra"].items()
                                      if k not in unknown})
    if isinstance(kwargs.get("id"), str) and issubclass(cls, Item):
        bad_id = id_problem(kwargs["id"])
        if bad_id:
            ctx.problem(raw.line_of("id") if isinstance(raw, LMap) else line, f"{path}.id",
                        bad_id)
            ok = False
    if not ok:
        return _INVALID
    if issubclass(cls, Item):
        kwargs["origin"] = Where(ctx.shown, line)
    for name in getattr(cls, "LINES", ()):  # each entry's own line (a CRT's grid lines)
        entries = raw.get(name)
        if isinstance(entries, LMap):
            kwargs[f"{name}_lines"] = freeze({str(k): entries.line_of(k) for k in entries})
    return cls(**kwargs)


def _describe(raw: Any) -> str:
    if raw is None:
        return "nothing (null)"
    if isinstance(raw, bool):
        return f"yes/no ({'yes' if raw else 'no'})"
    if isinstance(raw, dict):
        return "a mapping"
    if isinstance(raw, list):
        return "a list"
    return f"{type(raw).__name__} {raw!r}"


def _type_name(tp: Any) -> str:
    names = {str: "text", int: "an integer", float: "a number", bool: "yes/no"}
    if tp in names:
        return names[tp]
    if dataclasses.is_dataclass(tp):
        return "a mapping"
    origin = typing.get_origin(tp)
    if origin is tuple:
        return "a list"
    if origin is Literal:
        return "one of " + ", ".join(map(str, typing.get_args(tp)))
    return str(tp)


# --- JSON Schema ------------------------------------------------------------


def json_schema_of(tp: Any) -> dict[str, Any]:
    """The JSON Schema of a type used in ``engine/model.py``."""
    if tp is Any:
        return {}
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        options = [json_schema_of(o) for o in typing.get_args(tp)]
        return {"anyOf": options}
    if tp is type(None):
        return {"type": "null"}
    if origin is Literal:
        return {"enum": list(typing.get_args(tp))}
    if origin is tuple:
        item = typing.get_args(tp)[0]
        schema = {"type": "array", "items": json_schema_of(item)}
        if item is str:
            return {"anyOf": [{"type": "string"}, schema]}
        return schema
    if origin in (Mapping, dict):
        return {"type": "object", "additionalProperties": json_schema_of(typing.get_args(tp)[1])}
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return {"$ref": f"#/$defs/{tp.__name__}"}
    return {
        str: {"type": "string"},
        int: {"type": "integer"},
        float: {"type": "number"},
        bool: {"type": "boolean"},
    }[tp]


def record_schema(cls: type, defs: dict[str, Any]) -> None:
    """Add the schema of dataclass ``cls`` (and those it uses) to ``defs``."""
    if cls.__name__ in defs:
        return
    defs[cls.__name__] = {}
    props: dict[str, Any] = {}
    required = []
    for f in fields_of(cls):
        tp = hints(cls)[f.name]
        props[yaml_key(f)] = json_schema_of(tp)
        if _required(f):
            required.append(yaml_key(f))
        for inner in _dataclasses_in(tp):
            record_schema(inner, defs)
    doc = (cls.__doc__ or "").strip().splitlines()
    schema: dict[str, Any] = {"type": "object", "properties": props}
    if doc and not doc[0].startswith(cls.__name__ + "("):
        schema["description"] = doc[0]
    if required:
        schema["required"] = required
    extra_keys = getattr(cls, "EXTRA_KEYS", None)
    for key in sorted(extra_keys or ()):
        props.setdefault(key, {})
    schema["additionalProperties"] = bool(getattr(cls, "OPEN", False)) and extra_keys is None
    defs[cls.__name__] = schema


def _dataclasses_in(tp: Any) -> list[type]:
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return [tp]
    return [c for arg in typing.get_args(tp) for c in _dataclasses_in(arg)]

"""Safe YAML reading that keeps the line of every key and item.

Only safe loading is used (``yaml.compose`` with the safe loader): nothing in a
file is ever evaluated. The result is plain Python data whose mappings and
lists remember where they came from, so that every later problem can be
reported as ``file:line``.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from .errors import Problem

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_SCALARS = yaml.constructor.SafeConstructor()


class LMap(dict):
    """A mapping read from YAML: ``line`` of the mapping, ``key_lines`` per key."""

    line: int = 0
    key_lines: dict

    def line_of(self, key: str) -> int:
        return self.key_lines.get(key, self.line)


class LList(list):
    """A list read from YAML: ``line`` of the list, ``item_lines`` per item."""

    line: int = 0
    item_lines: list

    def line_of(self, index: int) -> int:
        return self.item_lines[index] if index < len(self.item_lines) else self.line


def line_of(value: object, default: int = 0) -> int:
    """The line a located value starts on, or ``default``."""
    return getattr(value, "line", default) or default


def read_yaml(path: Path, shown: str) -> tuple[object, list[Problem]]:
    """Read one YAML file; return (data, problems). ``shown`` names the file in messages."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return None, [Problem(shown, 0, "", "not a UTF-8 text file, so not YAML")]
    except OSError as exc:
        return None, [Problem(shown, 0, "", f"cannot be read: {exc.strerror}")]
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 0
        what = exc.problem or exc.context or "syntax error"
        return None, [Problem(shown, line, "", f"YAML syntax error: {what}")]
    except yaml.YAMLError as exc:
        return None, [Problem(shown, 0, "", f"YAML error: {exc}")]
    problems: list[Problem] = []
    if node is None:
        return LMap(), problems
    return _build(node, shown, "", problems), problems


def _build(node: yaml.Node, shown: str, path: str, problems: list[Problem]) -> object:
    line = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        return _build_map(node, shown, path, problems, line)
    if isinstance(node, yaml.SequenceNode):
        items = enumerate(node.value)
        out = LList(_build(item, shown, f"{path}[{i}]", problems) for i, item in items)
        out.line = line
        out.item_lines = [item.start_mark.line + 1 for item in node.value]
        return out
    try:
        return _SCALARS.construct_object(node, deep=True)
    except yaml.YAMLError as exc:
        problems.append(Problem(shown, line, path, f"bad scalar: {exc}"))
        return None


def _build_map(node, shown, path, problems, line) -> LMap:
    out = LMap()
    out.line = line
    out.key_lines = {}
    for key_node, value_node in node.value:
        key_line = key_node.start_mark.line + 1
        key = _build(key_node, shown, path, problems)
        if not isinstance(key, str | int | bool) or key == "<<":
            problems.append(Problem(shown, key_line, path, f"key {key!r} is not a plain word"))
            continue
        key = ("yes" if key else "no") if isinstance(key, bool) else str(key)
        sub = f"{path}.{key}" if path else key
        if key in out:
            problems.append(Problem(shown, key_line, sub, f"duplicate key {key!r}"))
            continue
        out[key] = _build(value_node, shown, sub, problems)
        out.key_lines[key] = key_line
    return out

"""Safe YAML reading that keeps the line of every key and item.

Only safe loading is used (``yaml.compose`` with the safe loader): nothing in a
file is ever evaluated. The result is plain Python data whose mappings and
lists remember where they came from, so that every later problem can be
reported as ``file:line``.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import yaml

from . import limits
from .errors import Problem
from .inputs import quote

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_SCALARS = yaml.constructor.SafeConstructor()


class LMap(dict[str, Any]):
    """A mapping read from YAML: ``line`` of the mapping, ``key_lines`` per key."""

    line: int = 0
    key_lines: dict[str, int]

    def line_of(self, key: str) -> int:
        return self.key_lines.get(key, self.line)


class LList(list[Any]):
    """A list read from YAML: ``line`` of the list, ``item_lines`` per item."""

    line: int = 0
    item_lines: list[int]

    def line_of(self, index: int) -> int:
        return self.item_lines[index] if index < len(self.item_lines) else self.line


def line_of(value: object, default: int = 0) -> int:
    """The line a located value starts on, or ``default``."""
    return getattr(value, "line", default) or default


def read_yaml(path: Path, shown: str, root: Path | None = None,
              budget: Budget | None = None) -> tuple[object, list[Problem]]:
    """Read one YAML file; return (data, problems). ``shown`` names the file in messages.

    Only a regular file of at most ``limits.FILE_BYTES`` is read; with ``root`` (the game
    folder) a symbolic link leading out of it is refused. The structure is checked before it
    is built: nesting depth, and the nodes it holds once every alias is expanded, counted
    against ``budget`` (shared by the files of one game).
    """
    text, problem = read_text(path, shown, root)
    if problem is not None:
        return None, [problem]
    budget = budget if budget is not None else Budget()
    try:
        problem = check_structure(text, shown, budget)
        if problem is not None:
            return None, [problem]
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 0
        what = _one_line(exc.problem or exc.context or "syntax error")
        return None, [Problem(shown, line, "", f"YAML syntax error: {what}")]
    except yaml.YAMLError as exc:
        return None, [Problem(shown, 0, "", f"YAML error: {_one_line(str(exc))}")]
    problems: list[Problem] = []
    if node is None:
        return LMap(), problems
    return _build(node, shown, "", problems), problems


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def read_text(path: Path, shown: str, root: Path | None = None) -> tuple[str, Problem | None]:
    """The text of a regular UTF-8 file of at most ``limits.FILE_BYTES``; ("", problem)
    for a link leaving ``root``, a FIFO, a device, a folder, a bigger or unreadable file."""
    if root is not None and path.is_symlink():
        target = os.path.realpath(path)
        if not Path(target).is_relative_to(os.path.realpath(root)):
            return "", Problem(shown, 0, "", f"a symbolic link to {target!r}, outside the game "
                                             "folder: only files inside it are read")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)  # O_NONBLOCK: opening a FIFO does not wait for a writer
    except OSError as exc:
        return "", Problem(shown, 0, "", f"cannot be read: {exc.strerror}")
    try:
        data, problem = _read_regular(fd, shown)
    finally:
        os.close(fd)
    if problem is not None:
        return "", problem
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError:
        return "", Problem(shown, 0, "", "not a UTF-8 text file, so not YAML")


def _read_regular(fd: int, shown: str) -> tuple[bytes, Problem | None]:
    """The bytes of an open regular file of at most ``limits.FILE_BYTES``."""
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        return b"", Problem(shown, 0, "", f"is {_file_kind(info.st_mode)}, not a regular file: "
                                          "only regular files are read")
    if info.st_size > limits.FILE_BYTES:
        return b"", _too_big(shown, info.st_size)
    chunks, size = [], 0
    try:
        while size <= limits.FILE_BYTES:  # a file that grew since fstat stops here too
            chunk = os.read(fd, limits.FILE_BYTES + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        return b"", Problem(shown, 0, "", f"cannot be read: {exc.strerror}")
    if size > limits.FILE_BYTES:
        return b"", _too_big(shown, size)
    return b"".join(chunks), None


def _too_big(shown: str, size: int) -> Problem:
    return Problem(shown, 0, "", f"{size:,} bytes: a game file is at most "
                                 f"{limits.FILE_BYTES:,} bytes (limits: warpress docs data-format)")


def _file_kind(mode: int) -> str:
    kinds = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
             (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
             (stat.S_ISSOCK, "a socket"))
    return next((name for test, name in kinds if test(mode)), "a special file")


class Budget:
    """The YAML nodes a game's files may still hold, aliases expanded (``limits.NODES``)."""

    def __init__(self, nodes: int | None = None):
        self.most = limits.NODES if nodes is None else nodes
        self.used = 0

    @property
    def spent(self) -> bool:
        """Past its nodes: the game's files after the one that passed it are not read (the
        overrun is the game's, reported once)."""
        return self.used > self.most


def check_structure(text: str, shown: str, budget: Budget) -> Problem | None:
    """Walk the parser's events (no tree is built): refuse a nesting deeper than
    ``limits.DEPTH``, an alias inside its own anchor (a recursive structure), and more
    nodes than ``budget`` allows once every alias is expanded (an "alias bomb")."""
    sizes: dict[str, int] = {}          # anchor -> nodes it expands to
    stack: list[tuple[str | None, int]] = []   # open collections: (anchor, nodes used before)
    for event in yaml.parse(text, Loader=_Loader):
        line = event.start_mark.line + 1 if event.start_mark is not None else 0
        if isinstance(event, yaml.AliasEvent):
            if any(anchor == event.anchor for anchor, _ in stack):
                return Problem(shown, line, "", f"alias *{event.anchor} is inside its own "
                                                f"anchor &{event.anchor}: recursive data is "
                                                "not allowed")
            budget.used += sizes.get(event.anchor or "", 1)  # an alias names its anchor
        elif isinstance(event, yaml.ScalarEvent):
            budget.used += 1
            if event.anchor is not None:
                sizes[event.anchor] = 1
        elif isinstance(event, yaml.CollectionStartEvent):
            stack.append((event.anchor, budget.used))
            budget.used += 1
            if len(stack) > limits.DEPTH:
                return Problem(shown, line, "", f"nested more than {limits.DEPTH} levels deep "
                                                "(limits: warpress docs data-format)")
        elif isinstance(event, yaml.CollectionEndEvent):
            anchor, before = stack.pop()
            if anchor is not None:
                sizes[anchor] = budget.used - before
        if budget.used > budget.most:
            return Problem(shown, line, "", f"more than {budget.most:,} YAML nodes in the game "
                                            "once aliases are expanded (limits: "
                                            "warpress docs data-format)")
    return None


_TAG = "tag:yaml.org,2002:"
#: The tags game data may carry (all implied by plain YAML): text, numbers, yes/no, null,
#: lists and mappings. Dates, bytes, sets, ordered maps and any other tag are refused.
ALLOWED_TAGS = frozenset(f"{_TAG}{name}" for name in
                         ("str", "int", "float", "bool", "null", "seq", "map"))


def _build(node: yaml.Node, shown: str, path: str, problems: list[Problem]) -> object:
    line = node.start_mark.line + 1
    refused = _refused(node)
    if refused:
        problems.append(Problem(shown, line, path, refused))
        if isinstance(node, yaml.ScalarNode):
            return None
        # a tagged list or mapping is read as plain: its contents are reported as usual
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
    except (yaml.YAMLError, ValueError, OverflowError) as exc:
        problems.append(Problem(shown, line, path, f"bad scalar: {_one_line(str(exc))}"))
        return None
    finally:  # the constructor remembers every node it built: a game's file would stay
        _SCALARS.constructed_objects.clear()  # in memory as long as the process


def _refused(node: yaml.Node) -> str | None:
    """Why a node is not game data (a date, a tag, an integer too long), or None."""
    tag = node.tag or ""
    if tag == f"{_TAG}timestamp":
        return (f"{node.value!r} reads as a date, which game data does not use: quote it "
                f"(\"{node.value}\") to make it text")
    if tag not in ALLOWED_TAGS:
        shown = "!!" + tag[len(_TAG):] if tag.startswith(_TAG) else tag
        return (f"the tag {_one_line(shown)[:80]} is not allowed: game data is text, numbers, "
                "yes/no, lists and mappings")
    if tag == f"{_TAG}int":
        digits = sum(ch.isalnum() for ch in node.value)
        if digits > limits.INT_DIGITS:
            return (f"an integer of {digits:,} digits: at most {limits.INT_DIGITS} (limits: "
                    "warpress docs data-format)")
    return None


def _build_map(node: yaml.MappingNode, shown: str, path: str, problems: list[Problem],
               line: int) -> LMap:
    out = LMap()
    out.line = line
    out.key_lines = {}
    for key_node, value_node in node.value:
        key_line = key_node.start_mark.line + 1
        before = len(problems)
        key = _build(key_node, shown, path, problems)
        if len(problems) > before:
            continue  # the key itself was refused (a date, a tag)
        if not isinstance(key, str | int | bool) or key == "<<":
            problems.append(Problem(shown, key_line, path,
                                    f"key {quote(repr(key))} is not a plain word"))
            continue
        key = ("yes" if key else "no") if isinstance(key, bool) else str(key)
        sub = f"{path}.{key}" if path else key
        if key in out:
            problems.append(Problem(shown, key_line, sub, f"duplicate key {key!r}"))
            continue
        out[key] = _build(value_node, shown, sub, problems)
        out.key_lines[key] = key_line
    return out

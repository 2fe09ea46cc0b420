"""The package's imports: a module's header shows what it depends on, and no modules import
each other round a circle. An import inside a function is kept only with its reason written
beside it (a comment on its line or on the line above; a run of imports shares the comment
of its first): start-up time (a heavy library only one command uses) or the one place an
optional library is needed."""

from __future__ import annotations

import ast
import io
import tokenize
from pathlib import Path

import grimp
import warpress

PACKAGE = Path(warpress.__file__).resolve().parent
#: folders of the checkout that are not the package's code
NOT_CODE = {"tests", "tools", "benchmarks", "docs", "build", "output"}


def _modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py")
                  if not NOT_CODE & set(p.relative_to(PACKAGE).parts[:-1]))


def _commented(source: str) -> set[int]:
    """The lines that carry a comment."""
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    return {tok.start[0] for tok in tokens if tok.type == tokenize.COMMENT}


def unexplained_imports(source: str) -> list[int]:
    """The lines of the imports inside functions of ``source`` that give no reason."""
    tree = ast.parse(source)
    comments = _commented(source)
    found: set[ast.AST] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found.update(n for n in ast.walk(node) if isinstance(n, (ast.Import, ast.ImportFrom)))
    lines = []
    for node in found:
        first = node.lineno
        while first - 1 not in comments and _an_import_ends_at(tree, first - 1):
            first = _import_ending_at(tree, first - 1).lineno  # the run's first import
        if not {first, first - 1} & comments:
            lines.append(node.lineno)
    return sorted(lines)


def _import_ending_at(tree: ast.AST, line: int) -> ast.AST:
    return next(n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))
                and n.end_lineno == line)


def _an_import_ends_at(tree: ast.AST, line: int) -> bool:
    return any(isinstance(n, (ast.Import, ast.ImportFrom)) and n.end_lineno == line
               for n in ast.walk(tree))


def test_every_import_inside_a_function_says_why():
    unexplained = [f"{path.relative_to(PACKAGE)}:{line}" for path in _modules()
                   for line in unexplained_imports(path.read_text(encoding="utf-8"))]
    assert not unexplained, ("imports inside functions without a reason (move them to the "
                             f"module's header, or say why on the line): {unexplained}")


def test_the_check_finds_an_unexplained_import_and_accepts_a_reason():
    source = ("def a():\n    import os\n    return os\n\n"
              "def b():\n    # start-up: only when b runs\n    import json\n    import re\n"
              "    return json, re\n\n"
              "def c():\n    import csv  # on use\n    return csv\n")
    assert unexplained_imports(source) == [2]
    assert _modules() and all(p.suffix == ".py" for p in _modules())


def import_circles(graph: grimp.ImportGraph) -> list[frozenset[str]]:
    """The sets of modules that import each other round a circle (strongly connected
    components of more than one module), imports inside functions included."""
    modules = sorted(graph.modules)
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[frozenset[str]] = []

    def visit(module: str) -> None:  # Tarjan's algorithm
        order[module] = low[module] = len(order)
        stack.append(module)
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            if imported not in order:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in stack:
                low[module] = min(low[module], order[imported])
        if low[module] == order[module]:
            circle = []
            while True:
                member = stack.pop()
                circle.append(member)
                if member == module:
                    break
            if len(circle) > 1:
                found.append(frozenset(circle))

    for module in modules:
        if module not in order:
            visit(module)
    return found


def test_no_modules_import_each_other_round_a_circle():
    """At run time: an import only for the type check (``if TYPE_CHECKING:``) runs nothing."""
    graph = grimp.build_graph("warpress", exclude_type_checking_imports=True, cache_dir=None)
    assert import_circles(graph) == []


def test_the_circle_finder_finds_a_circle():
    graph = grimp.ImportGraph()
    for module in ("a", "a.b", "a.c", "a.d"):
        graph.add_module(module)
    graph.add_import(importer="a.b", imported="a.c")
    graph.add_import(importer="a.c", imported="a.b")
    graph.add_import(importer="a.d", imported="a.b")
    assert import_circles(graph) == [frozenset({"a.b", "a.c"})]

"""The shape of the house (issue 26), read from the source of common/, wf/ and ws/: no file
over MAX_FILE_LINES lines, no function over MAX_FUNCTION_LINES, no circle of imports
between files, and no name with a leading underscore used from another module.

Each rule has an allowlist of today's offenders, in files other work still has open. The
test fails on any offender not listed, and on a listed one that no longer offends: a list
can only shrink. Nothing here runs the code; it reads it (ast).
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

from tests.helpers import ROOT

PACKAGES = ("common", "wf", "ws")
MAX_FILE_LINES = 500
MAX_FUNCTION_LINES = 80

# Files still over MAX_FILE_LINES: each is being split by the work that owns it.
LONG_FILES: set[str] = set()

# Functions still over MAX_FUNCTION_LINES (file:qualified name).
LONG_FUNCTIONS: set[str] = set()

# Circles of imports (the files of each, sorted), function-local imports included: a
# lazy import ties two files as surely as one at the top.
CIRCLES: set[tuple[str, ...]] = set()

# Names with a leading underscore used from another module: "user -> module.name".
PRIVATE_USES: set[str] = set()


def _modules() -> dict[str, Path]:
    """Dotted module name -> its file, for every module of the three packages."""
    out = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


@cache
def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _functions(node: ast.AST, prefix: str = "") -> Iterator[tuple[str, ast.AST]]:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            name = f"{prefix}{child.name}"
            if not isinstance(child, ast.ClassDef):
                yield name, child
            yield from _functions(child, name + ".")
        else:
            yield from _functions(child, prefix)


def _is_package(module: str, modules: dict[str, Path]) -> bool:
    return modules[module].name == "__init__.py"


def _imports(module: str, modules: dict[str, Path]) -> Iterator[tuple[str, str | None]]:
    """(imported module, name taken from it or None) for each import of a project module
    in ``module``, at any depth (function-local and TYPE_CHECKING imports too)."""
    for node in ast.walk(_tree(modules[module])):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in modules:
                    yield alias.name, None
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: resolved against this module's package
                here = module if _is_package(module, modules) else module.rpartition(".")[0]
                for _ in range(node.level - 1):
                    here = here.rpartition(".")[0]
                base = f"{here}.{base}" if base else here
            for alias in node.names:
                if f"{base}.{alias.name}" in modules:
                    yield f"{base}.{alias.name}", None  # a submodule, taken whole
                elif base in modules:
                    yield base, alias.name


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def long_files() -> set[str]:
    return {
        _rel(path)
        for path in _modules().values()
        if len(path.read_text(encoding="utf-8").splitlines()) > MAX_FILE_LINES
    }


def long_functions() -> set[str]:
    out = set()
    for path in _modules().values():
        for name, node in _functions(_tree(path)):
            assert isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            end = node.end_lineno or node.lineno
            if end - node.lineno + 1 > MAX_FUNCTION_LINES:
                out.add(f"{_rel(path)}:{name}")
    return out


def circles() -> set[tuple[str, ...]]:
    """The strongly connected parts of the import graph with more than one file (Tarjan)."""
    modules = _modules()
    edges = {m: {target for target, _ in _imports(m, modules) if target != m} for m in modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: set[tuple[str, ...]] = set()

    def visit(m: str) -> None:
        index[m] = low[m] = len(index)
        stack.append(m)
        on_stack.add(m)
        for t in sorted(edges[m]):
            if t not in index:
                visit(t)
                low[m] = min(low[m], low[t])
            elif t in on_stack:
                low[m] = min(low[m], index[t])
        if low[m] == index[m]:
            part = []
            while True:
                t = stack.pop()
                on_stack.discard(t)
                part.append(t)
                if t == m:
                    break
            if len(part) > 1:
                found.add(tuple(sorted(_rel(modules[p]) for p in part)))

    for m in sorted(modules):
        if m not in index:
            visit(m)
    return found


def private_uses() -> set[str]:
    """``from m import _x`` and ``m._x`` (m a project module bound by an import) in
    another module of the project."""
    modules = _modules()
    out = set()
    for module, path in modules.items():
        bound: dict[str, str] = {}  # a local name -> the project module it is
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in modules and alias.asname:
                        bound[alias.asname] = alias.name
                    elif alias.name in modules:
                        bound[alias.name] = alias.name
        for target, name in _imports(module, modules):
            if name is not None and _private(name) and target != module:
                out.add(f"{_rel(path)} -> {target}.{name}")
            elif name is None:
                bound.setdefault(target.rpartition(".")[2], target)
        for node in ast.walk(_tree(path)):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in bound
                and _private(node.attr)
                and bound[node.value.id] != module
            ):
                out.add(f"{_rel(path)} -> {bound[node.value.id]}.{node.attr}")
    return out


def _check(found: set[Any], allowed: set[Any]) -> None:
    new = sorted(map(str, found - allowed))
    gone = sorted(map(str, allowed - found))
    assert not new, f"new offenders (fix them; the lists only shrink): {new}"
    assert not gone, f"no longer offenders: take them off the list in tests/test_house.py: {gone}"


def test_no_file_is_over_500_lines():
    _check(long_files(), LONG_FILES)


def test_no_function_is_over_80_lines():
    _check(long_functions(), LONG_FUNCTIONS)


def test_no_circle_of_imports_between_files():
    _check(circles(), CIRCLES)


def test_no_private_name_is_used_from_another_module():
    _check(private_uses(), PRIVATE_USES)


def test_the_checks_find_each_kind_of_offender(tmp_path, monkeypatch):
    # A house of three small modules with one offender of each kind: the checks above
    # pass only because they see none in the real one.
    (tmp_path / "common").mkdir()
    for package in PACKAGES[1:]:
        (tmp_path / package).mkdir()
    body = "\n".join(f"    x = {n}" for n in range(80))
    (tmp_path / "common" / "a.py").write_text(
        "from common.b import _hidden\nimport common.b as other\n\n\n"
        f"def long():\n{body}\n    return other._also\n" + "\n" * MAX_FILE_LINES
    )
    (tmp_path / "common" / "b.py").write_text("def f():\n    from common import a\n")
    (tmp_path / "wf" / "c.py").write_text("from common import b\nb._inner()\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    _tree.cache_clear()
    try:
        assert long_files() == {"common/a.py"}
        assert long_functions() == {"common/a.py:long"}
        assert circles() == {("common/a.py", "common/b.py")}
        assert private_uses() == {
            "common/a.py -> common.b._hidden",
            "common/a.py -> common.b._also",
            "wf/c.py -> common.b._inner",
        }
    finally:
        _tree.cache_clear()

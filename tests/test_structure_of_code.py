"""The shape of hooks/atlas: no import cycle between its modules, and no module too long to read.

A cycle means two modules cannot be understood (or tested, or moved) one without the other;
the graph is read from the source with `ast`, function-local imports included, since a lazy
import that closes a circle couples the modules just the same.
"""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "hooks" / "atlas"
MAX_LINES = 420


def modules(package: Path) -> dict[str, Path]:
    """Each module of `package` by its dotted name inside it ('data' for data/__init__.py)."""
    found = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imports(package: Path) -> dict[str, set[str]]:
    """The modules of `package` that each of its modules imports (`from . import x`,
    `from .x import y`, `from .x.y import z`, `from .. import x`, or the same spelled from the
    package's own name)."""
    known = modules(package)
    graph: dict[str, set[str]] = {}
    for name, path in known.items():
        is_package = path.name == "__init__.py"
        here = name.split(".") if name else []
        base = here if is_package else here[:-1]   # what `from .` names
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.ImportFrom):
                module = node.module.split(".") if node.module else []
                if node.level:
                    if node.level - 1 > len(base):
                        continue   # above the package: not ours
                    start = base[: len(base) - (node.level - 1)]
                elif module[:1] == [package.name]:
                    start, module = [], module[1:]
                else:
                    continue
                targets |= _resolve(known, start + module, node.names)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    parts = alias.name.split(".")
                    if parts[0] == package.name:
                        targets |= _resolve(known, parts[1:], [])
        targets.discard(name)
        graph[name] = targets
    return graph


def _resolve(known: dict[str, Path], module: list[str], names: list[ast.alias]) -> set[str]:
    """The modules one import statement reaches: each imported name that is a submodule, else
    the module it is imported from."""
    found = set()
    for alias in names:
        sub = ".".join([*module, alias.name])
        if sub in known:
            found.add(sub)
        elif ".".join(module) in known:
            found.add(".".join(module))
    if not names and ".".join(module) in known:
        found.add(".".join(module))
    return found


def cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of `graph` as a path that ends where it starts, or None."""
    state: dict[str, int] = {}   # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_the_core_has_no_import_cycle():
    graph = imports(PACKAGE)
    assert {"data", "markers", "sanitize", "tables"} <= set(graph)
    assert "data" in graph["tables"] and "tables" in graph["markers"]   # the graph is read, not empty
    found = cycle(graph)
    assert found is None, "import cycle in hooks/atlas: " + " -> ".join(found)


def test_data_checks_and_the_page_policy_share_url_rules_from_below():
    """The circle this test was written for: data -> sanitize -> markers -> tables -> data."""
    graph = imports(PACKAGE)
    data_imports = set().union(*(graph[m] for m in graph if m == "data" or m.startswith("data.")))
    assert "urls" in data_imports and "sanitize" not in data_imports
    assert "urls" in graph["sanitize"] and "markers" not in graph["sanitize"]
    assert graph["urls"] <= {"invisible"} and graph["invisible"] == set()   # below both, leaves only


def test_no_module_is_too_long_to_read():
    long = {name or "__init__": n for name, path in modules(PACKAGE).items()
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not long, f"modules over {MAX_LINES} lines (split them along their concerns): {long}"


def test_the_cycle_check_finds_a_cycle_through_every_kind_of_import(tmp_path):
    """The checks above could pass by reading nothing: a package with a cycle through each import
    form must fail them."""
    pkg = tmp_path / "atlas"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from . import b\n")
    (pkg / "b.py").write_text("from .sub.c import thing\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "c.py").write_text("def thing():\n    from ..d import x\n")
    (pkg / "d.py").write_text("from atlas.a import y\n")
    graph = imports(pkg)
    assert graph["a"] == {"b"} and graph["b"] == {"sub.c"} and graph["sub.c"] == {"d"} and graph["d"] == {"a"}
    assert cycle(graph) == ["a", "b", "sub.c", "d", "a"]
    (pkg / "d.py").write_text("x = 1\n")
    assert cycle(imports(pkg)) is None

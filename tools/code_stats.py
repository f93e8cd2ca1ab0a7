"""Figures of the source tree's shape: modules, import cycles, longest functions, widest signatures.

Run ``python tools/code_stats.py [src/twentyone] [--json]``. It reads the files with ``ast`` only
(nothing is imported), so it measures any checkout. Imports under ``if TYPE_CHECKING:`` are left
out, as import-linter leaves them out; imports inside functions count (they still tie modules
together).
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from pathlib import Path


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If):
            test = node.test
            name = getattr(test, "id", None) or getattr(test, "attr", None)
            if name == "TYPE_CHECKING":
                for sub in node.body:
                    for inner in ast.walk(sub):
                        skip.add(id(inner))
    return skip


def imports_of(name: str, is_package: bool, tree: ast.AST, modules: set[str]) -> set[str]:
    skip = _type_checking_nodes(tree)
    found: set[str] = set()
    package = name if is_package else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                for alias in node.names
            ]
        for target in targets:
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = 0
    sys.setrecursionlimit(10000)

    def visit(v: str) -> None:
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(out, key=len, reverse=True)


def measure(root: Path) -> dict[str, object]:
    files = sorted(root.rglob("*.py"))
    trees = {module_name(root, f): (f, ast.parse(f.read_text(), str(f))) for f in files}
    modules = set(trees)
    # A package's own __init__ re-exports are not a cycle with its children: import-linter
    # counts them, so we do too.
    graph = {
        name: imports_of(name, f.name == "__init__.py", tree, modules)
        for name, (f, tree) in trees.items()
    }
    functions: list[tuple[int, str]] = []
    params: list[tuple[int, str]] = []
    lines = 0
    for name, (f, tree) in trees.items():
        lines += len(f.read_text().splitlines())
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                functions.append((length, f"{name}.{node.name}"))
                a = node.args
                count = len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs)
                count -= 1 if a.args and a.args[0].arg in {"self", "cls"} else 0
                params.append((count, f"{name}.{node.name}"))
    cycles = strongly_connected(graph)
    functions.sort(reverse=True)
    params.sort(reverse=True)
    return {
        "modules": len(modules),
        "lines": lines,
        "import_edges": sum(len(v) for v in graph.values()),
        "cycles": len(cycles),
        "modules_in_cycles": sum(len(c) for c in cycles),
        "cycle_members": cycles,
        "longest_functions": [{"lines": n, "name": s} for n, s in functions[:10]],
        "widest_signatures": [{"params": n, "name": s} for n, s in params[:10]],
        "functions_over_8_params": sum(1 for n, _ in params if n > 8),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", nargs="?", default="src/twentyone")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = measure(Path(args.root).resolve())
    if args.json:
        print(json.dumps(result, indent=2))
        return
    for key in ("modules", "lines", "import_edges", "cycles", "modules_in_cycles"):
        print(f"{key}: {result[key]}")
    print(f"functions_over_8_params: {result['functions_over_8_params']}")
    for cycle in result["cycle_members"]:  # type: ignore[attr-defined]
        print("cycle:", " ".join(cycle))
    for row in result["longest_functions"]:  # type: ignore[attr-defined]
        print(f"long: {row['lines']:4d} {row['name']}")
    for row in result["widest_signatures"]:  # type: ignore[attr-defined]
        print(f"wide: {row['params']:4d} {row['name']}")


if __name__ == "__main__":
    main()

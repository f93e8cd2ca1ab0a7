"""The layout's habits (issue 26 item 2): no module imports another module's private names
(gettext's ``_``, ``_n`` and ``_p`` aside: the terminal's translation functions), and no kernel
or helper compiled with numba takes more than eight parameters (item 3). The layers and the
absence of import cycles are import-linter's contracts (pyproject.toml), run by CI."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "twentyone"
GETTEXT = {"_", "_n", "_p"}


def _modules() -> list[tuple[Path, ast.Module]]:
    return [(p, ast.parse(p.read_text("utf-8"))) for p in sorted(SRC.rglob("*.py"))]


def test_no_module_imports_another_modules_private_names() -> None:
    found = []
    for path, tree in _modules():
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("twentyone"):
                for alias in node.names:
                    if alias.name.startswith("_") and alias.name not in GETTEXT:
                        found.append(f"{path.relative_to(SRC)}: {node.module}.{alias.name}")
    assert found == []


def test_no_compiled_kernel_takes_more_than_eight_parameters() -> None:
    wide = []
    kernels = 0
    for path, tree in _modules():
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef):
                continue
            names = {ast.unparse(d).split("(")[0] for d in node.decorator_list}
            if not names & {"njit", "fast"}:
                continue
            kernels += 1
            a = node.args
            count = len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs)
            if count > 8:
                wide.append(f"{path.relative_to(SRC)}: {node.name} ({count})")
    assert kernels > 50  # the scan sees the kernels
    assert wide == []

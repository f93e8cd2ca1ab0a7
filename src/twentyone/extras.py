"""The optional parts of ``pip install twentyone``, and what a command says when one is missing.

``pip install twentyone`` is the engine, replay, the provably fair shoe's check, the rule
cards and the terminal game (``rich`` and ``babel`` beside the standard library). The rest
comes with an extra (pyproject.toml's ``[project.optional-dependencies]``):

- ``analysis``: numpy and numba, the exact analysis (``edge``, ``advise``, ``eor``, ``par``,
  ``strategy``, ``indices``, ``audit``), the simulator (``simulate``), the drills (``train``)
  and ``play --hints``;
- ``web``: the web table (``serve``), with the analysis for its hints;
- ``rl``: the gymnasium and PettingZoo environments (``twentyone.gym``), with the analysis;
- ``cluster``: Ray for ``simulate --address``, with the analysis;
- ``png``: matplotlib for ``strategy --format png``;
- ``all``: every one of them; ``test``: ``all`` and the test tools.

A command that needs a missing one says which, in one line (exit status 2):

>>> exc = ModuleNotFoundError("No module named 'numba'", name="numba")
>>> needs_extra(exc, "edge")
"edge needs the 'analysis' extra (numba is not installed): pip install 'twentyone[analysis]'"
>>> needs_extra(ModuleNotFoundError("No module named 'yaml'", name="yaml"), "edge") is None
True

This module imports nothing outside the standard library: it is what a base install reads.
"""

from __future__ import annotations

import importlib.util

#: The extra that installs each optional top-level module the package imports.
EXTRA_OF: dict[str, str] = {
    "numpy": "analysis",
    "numba": "analysis",
    "llvmlite": "analysis",
    "fastapi": "web",
    "starlette": "web",
    "pydantic": "web",
    "uvicorn": "web",
    "sqlalchemy": "web",
    "alembic": "web",
    "argon2": "web",
    "psycopg": "web",
    "orjson": "web",
    "limits": "web",
    "prometheus_client": "web",
    "gymnasium": "rl",
    "pettingzoo": "rl",
    "ray": "cluster",
    "matplotlib": "png",
}

#: The extras beside ``all`` and ``test`` (``all`` is every one of them).
EXTRAS = ("analysis", "web", "rl", "cluster", "png")


class MissingExtra(ModuleNotFoundError):
    """An optional module is not installed; ``what`` (a command, ``play --hints``) needs it."""

    def __init__(self, module: str, what: str) -> None:
        super().__init__(f"No module named {module!r}", name=module)
        self.what = what


def message(extra: str, what: str, module: str) -> str:
    """The one line that says ``what`` needs ``extra`` (``module`` is the one missing).

    >>> message("web", "serve", "uvicorn")
    "serve needs the 'web' extra (uvicorn is not installed): pip install 'twentyone[web]'"
    """
    return (
        f"{what} needs the {extra!r} extra ({module} is not installed): "
        f"pip install 'twentyone[{extra}]'"
    )


def _absent(top: str) -> bool:
    """Whether the top-level module ``top`` is not installed at all (not merely broken)."""
    try:
        return importlib.util.find_spec(top) is None
    except (ImportError, ValueError):
        return True


def needs_extra(exc: ModuleNotFoundError, what: str | None) -> str | None:
    """The one line for ``exc`` raised by ``what`` (the command), or None where the missing
    module is none of an extra's (or is only a broken part of an installed one)."""
    name = exc.name or ""
    top = name.partition(".")[0]
    extra = EXTRA_OF.get(top)
    if extra is None or (name != top and not _absent(top)):
        return None
    return message(extra, getattr(exc, "what", None) or what or "this command", top)


def require(extra: str, what: str) -> None:
    """Raise :class:`MissingExtra` now, before any work, when a module of ``extra`` is not
    installed (found, not imported: numba takes a third of a second to import)."""
    for module, its in EXTRA_OF.items():
        if its == extra and _absent(module):
            raise MissingExtra(module, what)

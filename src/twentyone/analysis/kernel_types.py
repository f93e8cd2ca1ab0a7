"""The argument types the analysis calls each of its numba kernels with, as numba's types:
what :func:`twentyone.analysis.warmup.compile_first_run` compiles a first run's kernels for,
partly in a second process (numba compiles a kernel for each new set of argument types, so
they must be exactly the ones the analysis will ask for).

>>> len(EXPORTS) == len(set(EXPORTS))
True
"""

from __future__ import annotations

import importlib
from typing import Any

#: A named tuple's code: the class (``module:name``) and its fields' codes.
Code = str | tuple[str, tuple[str, ...]]

#: twentyone.analysis.shoe_counts.HandTable: counts, total, soft, ncards, child, order, bounds
HAND_TABLE: Code = (
    "twentyone.analysis.shoe_counts:HandTable",
    ("ai2", "ai", "ab", "ai", "ai2", "ai", "ai"),
)
#: twentyone.analysis.player.StandValues: nb, pbj, push
STAND_VALUES: Code = ("twentyone.analysis.player:StandValues", ("af", "af", "af"))
_SOLVE: tuple[Code, ...] = (
    "ai",
    HAND_TABLE,
    "ab",
    STAND_VALUES,
    (
        "twentyone.analysis.player:PlayRules",
        ("i", "b", "f", "f", "i", "b", "i", "b", "f", "i", "b", "b", "i", "b", "b", "af"),
    ),
    ("twentyone.analysis.player:PlayMode", ("i", "ai", "ai", "ai", "ai")),
)
#: The kernels Python calls (module, name), in the module's order, each with the argument
#: types the analysis calls it with: ``i`` int64, ``b`` boolean, ``f`` float64, and arrays
#: ``a`` + the element (``i``, ``b``, ``f``, ``i32``) + ``2`` or ``3`` for two or three
#: dimensions, all C-contiguous; a named tuple of those (:data:`Code`).
#: ``tests/test_warmup.py`` checks them against the calls an analysis makes.
EXPORTS: tuple[tuple[str, str, tuple[Code, ...]], ...] = (
    ("twentyone.analysis.dealer", "dealer_dists", ("ai", "ai2", "ai", "ai", "af", "ai")),
    ("twentyone.analysis.player", "bonus_need", ("ai",)),
    ("twentyone.analysis.player", "solve", _SOLVE),
    ("twentyone.analysis.standing", "stand_rows", ("ai", "ai2", "i", "ab", "ai", "ab")),
    ("twentyone.analysis.standing", "gather_stand", ("af2", "ab", "ai", "ai", "ab", "b")),
    ("twentyone.analysis.standing", "stand_needed", ("i", "ai2", "ai", "ai", "ai", "ai", "b")),
    (
        "twentyone.analysis.variance",
        "moments",
        (
            "ai",
            HAND_TABLE,
            "ab",
            STAND_VALUES,
            ("twentyone.analysis.variance:MomentRules", ("i", "b", "f", "f", "f", "b")),
            "ai",
        ),
    ),
    (
        "twentyone.analysis.outcomes",
        "hand_distributions",
        (
            "ai",
            HAND_TABLE,
            "ab",
            STAND_VALUES,
            ("twentyone.analysis.outcomes:DistRules", ("i", "b", "f", "f", "b")),
            "ai",
            "i",
            "i",
        ),
    ),
    (
        "twentyone.analysis.split_joint",
        "atom_weights_kernel",
        ("i", "i", HAND_TABLE, "ai", "ai", "b", "b", "b"),
    ),
    ("twentyone.analysis.split_joint", "pair_rows_kernel", ("ai2", "ai", "ai", "ai", "i")),
    ("twentyone.analysis.split_joint", "accumulate_kernel", ("ai", "ai2", "af2", "ai32", "af2")),
    (
        "twentyone.analysis.resplit",
        "state_joint",
        (
            "ai",
            HAND_TABLE,
            "ab",
            ("twentyone.analysis.resplit:DealerOutcomes", ("af2", "ai", "af")),
            "ai",
            "i",
            "b",
            "b",
        ),
    ),
    ("twentyone.analysis.split_joint", "key_rows_kernel", ("ai", "ai", "ai", "i")),
    (
        "twentyone.analysis.split_moments",
        "weighted_rows",
        ("ai", "ai2", "i", "ai", "ai", "af", "ai", "af3"),
    ),
    ("twentyone.analysis.split_moments", "chances_kernel", ("ai", "ai2", "ai32", "b")),
    ("twentyone.analysis.split_moments", "singles_kernel", ("af", "ai32", "af3", "af3", "i")),
    ("twentyone.analysis.split_moments", "pairs_kernel", ("af", "ai32", "af3", "af3", "i")),
)


def array_code(code: str) -> tuple[str, int]:
    """An array's element code and number of dimensions from its code in :data:`EXPORTS`.

    >>> array_code("ai32"), array_code("af3"), array_code("ai2"), array_code("ab")
    (('i32', 1), ('f', 3), ('i', 2), ('b', 1))
    """
    if code == "ai32":
        return "i32", 1
    if code[-1] in "23":
        return code[1:-1], int(code[-1])
    return code[1:], 1


def sample(code: Code) -> Any:
    """A value of the type ``code`` names (arrays of one element a dimension).

    >>> sample("ai2").shape, sample("f"), sample(STAND_VALUES).nb.dtype.name
    ((1, 1), 0.0, 'float64')
    """
    import numpy as np

    if isinstance(code, tuple):
        where, fields = code
        module, name = where.split(":")
        cls = getattr(importlib.import_module(module), name)
        return cls(*(sample(c) for c in fields))
    if not code.startswith("a"):
        return {"i": 0, "b": False, "f": 0.0}[code]
    element, ndim = array_code(code)
    dtypes = {"i": np.int64, "b": np.bool_, "f": np.float64, "i32": np.int32}
    return np.zeros((1,) * ndim, dtype=dtypes[element])


def signatures() -> list[tuple[Any, tuple[Any, ...]]]:
    """Each kernel of :data:`EXPORTS` with its argument types as numba's types (this imports
    numba): the types numba gives a :func:`sample` of each."""
    from numba import typeof

    def numba_type(code: Code) -> Any:
        return typeof(sample(code))  # type: ignore[no-untyped-call]

    return [
        (getattr(importlib.import_module(m), n), tuple(numba_type(c) for c in codes))
        for m, n, codes in EXPORTS
    ]

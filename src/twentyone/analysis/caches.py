"""The analysis's in-memory caches, kept apart from the values they hold: each is an
``lru_cache`` made by :func:`memo`, which registers it, so :func:`clear` empties them all
without naming any module's private functions. The figures never depend on them (a cleared
cache recomputes the same arrays); they only save time within a process.

>>> @memo(2)
... def square(x: int) -> int:
...     return x * x
>>> square(3), square.cache_info().currsize
(9, 1)
>>> clear()
>>> square.cache_info().currsize
0

A call that leaves a default out and one that spells it out are one entry (``lru_cache``
alone keys them apart, and computes the value twice):

>>> @memo(4)
... def scaled(x: int, by: int = 1) -> int:
...     return x * by
>>> scaled(3), scaled(3, 1), scaled(3, by=1), scaled.cache_info().currsize
(3, 3, 3, 1)
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from functools import _lru_cache_wrapper

T = TypeVar("T")

#: The caches of results for a shoe (emptied by every :func:`clear`).
_RESULTS: list[Any] = []
#: The caches of tables that depend only on the decks or an up card (emptied with
#: ``tables=True``: rebuilding them is most of a new process's first analysis).
_TABLES: list[Any] = []


def memo(
    maxsize: int, *, table: bool = False
) -> Callable[[Callable[..., T]], _lru_cache_wrapper[T]]:
    """``functools.lru_cache(maxsize)``, registered for :func:`clear` (``table``: a cache of
    tables, emptied only with ``tables=True``)."""

    def wrap(func: Callable[..., T]) -> _lru_cache_wrapper[T]:
        cached = lru_cache(maxsize=maxsize)(func)
        (_TABLES if table else _RESULTS).append(cached)
        defaults = func.__defaults__
        if not defaults:
            return cached
        return _with_defaults(func, cached, defaults)

    return wrap


def _with_defaults(
    func: Callable[..., T], cached: _lru_cache_wrapper[T], defaults: tuple[Any, ...]
) -> _lru_cache_wrapper[T]:
    """``cached`` called with every positional argument spelled out (the defaults filled in,
    keywords bound to their places), so that one value has one entry."""
    sig = inspect.signature(func)
    count = func.__code__.co_argcount
    first = count - len(defaults)

    @functools.wraps(func)
    def keyed(*args: Any, **kwargs: Any) -> T:
        if kwargs:
            bound = sig.bind(*args, **kwargs)
            bound.apply_defaults()
            return cached(*bound.args)
        if len(args) < count:
            args += defaults[len(args) - first :]
        return cached(*args)

    keyed.cache_info = cached.cache_info  # type: ignore[attr-defined]
    keyed.cache_clear = cached.cache_clear  # type: ignore[attr-defined]
    return keyed  # type: ignore[return-value]


def clear(tables: bool = False) -> None:
    """Empty every registered cache of results (and of tables with ``tables``)."""
    for cache in _RESULTS + (_TABLES if tables else []):
        cache.cache_clear()

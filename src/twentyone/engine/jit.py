"""numba's ``njit``, imported only when a kernel needs it.

Importing numba costs a new process about 0.2 s, which a process that never runs a kernel
(an ``edge`` answered from the result cache, a game whose hints are off) need not pay. So
the kernels are declared with this module's :func:`njit`, which returns a :class:`Kernel`: a
stand-in for numba's dispatcher, made (and numba imported) on first need by
:func:`materialize`. The code run is numba's, compiled and cached by numba
(``cache=True``) as any ``numba.njit`` kernel.

When numba is materialized every stand-in is replaced by its dispatcher in the modules that
hold it (numba compiles a kernel calling another only when that name is a dispatcher), and
later :func:`njit` calls return dispatchers directly. Code that compiles its own kernels with
numba (the simulator: :func:`twentyone.sim.rng.fast`) calls :func:`materialize` first and
declares them with this :func:`njit` too.

Before numba makes the dispatchers of a module's cached kernels, the module's cache files that
an edit to another module made stale are removed
(:func:`twentyone.engine.kernel_cache.forget_stale`: numba checks only the kernel's own file).

>>> @njit(cache=False)
... def twice(x):
...     return 2 * x
>>> twice(21)
42
>>> twice.py_func(4)
8
"""

from __future__ import annotations

import functools
import sys
import threading
from collections.abc import Callable
from typing import Any, TypeVar, overload

F = TypeVar("F", bound=Callable[..., Any])

#: Every stand-in made before numba was materialized.
_KERNELS: list[Kernel] = []
#: Whether numba is imported and every stand-in has its dispatcher.
_MATERIALIZED = [False]
_LOCK = threading.RLock()
#: A stand-in's own attributes.
_OWN = frozenset({"_dispatcher", "py_func", "options"})


class Kernel:
    """A kernel declared with :func:`njit` before numba was needed: ``py_func`` is the
    Python function. Attributes it does not have (``signatures``, ``overloads``,
    ``compile`` ...) are the dispatcher's."""

    def __init__(self, func: Callable[..., Any], options: dict[str, Any]) -> None:
        self.py_func = func
        self.options = options
        self._dispatcher: Any = None
        functools.update_wrapper(self, func)

    def __repr__(self) -> str:
        return (
            f"<twentyone.engine.jit.Kernel {self.py_func.__module__}.{self.py_func.__qualname__}>"
        )

    def __call__(self, *args: Any) -> Any:
        return self.dispatcher(*args)

    @property
    def dispatcher(self) -> Any:
        """numba's dispatcher of this kernel (numba imported now if it was not)."""
        if self._dispatcher is None:
            materialize()
        return self._dispatcher

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name in _OWN:  # not set yet: not the dispatcher's
            raise AttributeError(name)
        return getattr(self.dispatcher, name)


@overload
def njit(func: F, /) -> F: ...
@overload
def njit(**options: Any) -> Callable[[F], F]: ...
def njit(func: Any = None, /, **options: Any) -> Any:
    """``numba.njit(**options)``, deferred (see the module's docstring)."""

    def wrap(f: Any) -> Any:
        if _MATERIALIZED[0]:
            import numba

            from twentyone.engine.kernel_cache import forget_stale

            if options.get("cache"):
                forget_stale(f.__code__.co_filename, f.__module__)
            return numba.njit(**options)(f)
        kernel = Kernel(f, options)
        _KERNELS.append(kernel)
        return kernel

    return wrap if func is None else wrap(func)


def materialized() -> bool:
    """Whether numba is in use (imported, every kernel given its dispatcher)."""
    return _MATERIALIZED[0]


def materialize() -> None:
    """Import numba, give every stand-in its dispatcher and put the dispatchers in place of
    the stand-ins in the package's modules (and in any other module that imported one)."""
    if _MATERIALIZED[0]:
        return
    with _LOCK:  # one set of dispatchers, whichever thread asks first
        if _MATERIALIZED[0]:
            return
        import numba

        from twentyone.engine.kernel_cache import forget_stale

        for source, name in {
            (k.py_func.__code__.co_filename, k.py_func.__module__)
            for k in _KERNELS
            if k.options.get("cache")
        }:
            forget_stale(source, name)
        for kernel in _KERNELS:
            kernel._dispatcher = numba.njit(**kernel.options)(kernel.py_func)
        _MATERIALIZED[0] = True
        for module in list(sys.modules.values()):
            names = getattr(module, "__dict__", None)
            if not isinstance(names, dict):
                continue
            for name, value in list(names.items()):
                if type(value) is Kernel:
                    names[name] = value._dispatcher

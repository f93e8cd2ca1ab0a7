"""numba's ``njit``, imported only when a kernel needs it.

Importing numba costs a new process about 0.2 s, and loading its cached kernels 0.1 s more:
a third of a never-asked ``twentyone edge``. The analysis's kernels can instead run from
their machine code saved ahead of time (:mod:`twentyone.analysis.aot`), which loads without
numba. So the kernels are declared with this module's :func:`njit`, which returns a
:class:`Kernel`: a stand-in that calls the saved code when it has some, else numba's
dispatcher, made (and numba imported) on first need by :func:`materialize`. The figures
cannot differ: both are the code numba compiled (``tests/test_aot.py`` compares them).

When numba is materialized every stand-in is replaced by its dispatcher in the modules that
hold it (numba compiles a kernel calling another only when that name is a dispatcher), and
later :func:`njit` calls return dispatchers directly. Code that compiles its own kernels with
numba (the simulator: :func:`twentyone.sim.rng.fast`) calls :func:`materialize` first.

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
_OWN = frozenset({"_dispatcher", "aot", "aot_accepts", "py_func", "options"})


class Kernel:
    """A kernel declared with :func:`njit` before numba was needed: ``py_func`` is the
    Python function, ``aot`` its saved code (None: none loaded), called only with
    arguments ``aot_accepts`` (that code reads them as declared, unchecked). Attributes it
    does not have (``signatures``, ``overloads``, ``compile`` ...) are the dispatcher's."""

    def __init__(self, func: Callable[..., Any], options: dict[str, Any]) -> None:
        self.py_func = func
        self.options = options
        self.aot: Callable[..., Any] | None = None
        self.aot_accepts: Callable[[tuple[Any, ...]], bool] = lambda args: False
        self._dispatcher: Any = None
        functools.update_wrapper(self, func)

    def __repr__(self) -> str:
        return (
            f"<twentyone.engine.jit.Kernel {self.py_func.__module__}.{self.py_func.__qualname__}>"
        )

    def __call__(self, *args: Any) -> Any:
        if self.aot is not None and self.aot_accepts(args):  # the types it was compiled for
            return self.aot(*args)
        return self.dispatcher(*args)  # any others: numba's, which checks and specialises

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

"""numba's machine code for the analysis's kernels, kept in one file and run without numba.

numba keeps the code it compiles for a kernel (``cache=True``) as the kernel's object code:
machine code for this CPU, with a wrapper taking Python's arguments. Importing numba and
loading those entries through it costs a new process about 0.35 s, half of a never-asked
``twentyone edge``, although the code itself needs only what numba's three C extension modules
provide (its memory manager, its helpers, the function object) and LLVM's loader, llvmlite,
which numba runs on. So :func:`collect` (run where numba is imported) reads each kernel's
entry from numba's cache into plain data (:class:`Code`), and :func:`load` (in a new process,
numba never imported) loads those object files into an llvmlite execution engine with the
symbols numba gives them, and makes the same Python functions numba's dispatcher calls:

- the three extension modules are loaded from numba's folder by file, so that numba's
  package (0.2 s of imports) is not run; they are the same files numba loads (registered
  under the same names, so a later ``import numba`` uses them as they are);
- the symbols are numba's: its helpers as ``numba_*``, its memory manager as ``NRT_*``,
  Python's exceptions as ``PyExc_*`` and ``_Py_NoneStruct``; except ``numba_unpickle``
  (the constants the code unpickles, such as the array type it returns), which numba's
  helper reads through ``numba.core.serialize``: here a function with the same contract
  (the constant unpickled once, a new reference returned);
- each kernel's environment (the constants its wrapper returns arrays with) is made and its
  address written where the code reads it, as numba does.

The code run is the code numba compiled and cached, byte for byte: the figures are the same
to the bit (``tests/test_aot.py``). What is read from numba is an internal format; anything
unexpected raises (:class:`MachineCodeError`) and the caller falls back to numba.

>>> Code(module="m", name="k", qualname="k", wrapper="w", env="e", consts=(), objects=b"")
Code(module='m', name='k', qualname='k', wrapper='w', env='e', consts=(), objects=b'')
"""

from __future__ import annotations

import builtins
import ctypes
import functools
import importlib
import importlib.machinery
import importlib.util
import pickle
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: numba's C extension modules the code needs: (name, file stem within numba's folder).
EXTENSIONS = (
    ("numba._helperlib", "_helperlib"),
    ("numba._dynfunc", "_dynfunc"),
    ("numba.core.runtime._nrt_python", "core/runtime/_nrt_python"),
)


class MachineCodeError(RuntimeError):
    """numba's cache or modules are not what this module reads (another numba, no entry)."""


@dataclass(frozen=True, kw_only=True)
class Code:
    """One kernel's machine code: where its Python function lives (``module``, ``name``),
    numba's names for its wrapper and environment, the environment's constants and the
    object file."""

    module: str
    name: str
    qualname: str
    wrapper: str
    env: str
    consts: tuple[Any, ...]
    objects: bytes


def package_folder(name: str) -> Path:
    """An installed package's folder (``numba``, ``llvmlite``), found without importing it."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise MachineCodeError(f"{name} is not installed")
    return Path(next(iter(spec.submodule_search_locations)))


@functools.cache
def extension_files() -> tuple[Path, ...]:
    """The files of :data:`EXTENSIONS` (their sizes and times key the saved code; looked up
    once a process)."""
    folder, files = package_folder("numba"), []
    for _, stem in EXTENSIONS:
        found = sorted(folder.glob(f"{stem}.*"))
        found = [f for f in found if f.suffix in (".so", ".pyd")]
        if not found:
            raise MachineCodeError(f"numba's extension {stem} was not found in {folder}")
        files.append(found[0])
    return tuple(files)


def collect(kernel: Any, args: tuple[Any, ...], module: str, name: str) -> Code:
    """``kernel`` (numba's dispatcher) for the argument types ``args``, read from numba's
    cache (compiled and saved there first when it has no entry)."""
    kernel.compile(args)
    cache = getattr(kernel, "_cache", None)
    if cache is None or not hasattr(cache, "_cache_file"):
        raise MachineCodeError(f"{module}.{name} has no numba cache")
    key = cache._index_key(args, kernel.targetctx.codegen())
    data = cache._cache_file.load(key)
    if data is None:
        raise MachineCodeError(f"{module}.{name}{args} has no entry in numba's cache")
    library, fndesc, env, _, objectmode, _, _, reload_init, _ = data
    _, kind, payload = library
    if kind != "object" or objectmode or reload_init:
        raise MachineCodeError(f"{module}.{name}'s cache entry is not plain object code")
    return Code(
        module=module,
        name=name,
        qualname=fndesc.qualname,
        wrapper=fndesc.llvm_cpython_wrapper_name,
        env=env.env_name,
        consts=tuple(env.consts),
        objects=bytes(payload[0]),
    )


def save(codes: list[Code], path: Path) -> None:
    """Write ``codes`` to ``path`` (pickled plain data: names, bytes and numpy's dtypes)."""
    path.write_bytes(pickle.dumps([vars(c) for c in codes], protocol=pickle.HIGHEST_PROTOCOL))


def read(path: Path) -> list[Code]:
    """The codes :func:`save` wrote."""
    return [Code(**fields) for fields in pickle.loads(path.read_bytes())]


#: Constants unpickled for the loaded code, by their address in it (see the module's doc).
_UNPICKLED: dict[int, Any] = {}
#: What must live as long as the loaded code: the engine, the callback, the environments.
_KEEP: list[Any] = []


def _unpickle(data: int, size: int, hashed: int) -> Any:
    """numba's ``numba_unpickle`` contract: the constant at ``data`` (``size`` bytes), the
    same object every time (ctypes returns it as a new reference)."""
    obj = _UNPICKLED.get(data)
    if obj is None:
        obj = _UNPICKLED[data] = pickle.loads(ctypes.string_at(data, size))
    return obj


def _extensions() -> list[Any]:
    """numba's extension modules, loaded by file (see the module's doc)."""
    loaded = []
    for (name, _), path in zip(EXTENSIONS, extension_files(), strict=True):
        loader = importlib.machinery.ExtensionFileLoader(name, str(path))
        spec = importlib.util.spec_from_file_location(name, path, loader=loader)
        if spec is None:
            raise MachineCodeError(f"cannot load {path}")
        loaded.append(importlib.util.module_from_spec(spec))
    return loaded


def load(codes: list[Code]) -> dict[tuple[str, str], Any]:
    """Load ``codes`` into a new execution engine; returns each kernel's Python function
    by (module, name). Call only while numba is not imported (its symbols would be doubled)."""
    import llvmlite.binding as ll

    ll.initialize_native_target()
    ll.initialize_native_asmprinter()
    helperlib, dynfunc, nrt = _extensions()
    ll.add_symbol("_Py_NoneStruct", id(None))
    for helpers in (helperlib.c_helpers, dynfunc.c_helpers):
        for py_name, address in helpers.items():
            ll.add_symbol("numba_" + py_name, address)
    for py_name, address in nrt.c_helpers.items():
        ll.add_symbol(py_name if py_name.startswith("_") else "NRT_" + py_name, address)
    for obj in vars(builtins).values():
        if isinstance(obj, type) and issubclass(obj, BaseException):
            ll.add_symbol("PyExc_" + obj.__name__, id(obj))
    proto = ctypes.CFUNCTYPE(ctypes.py_object, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p)
    unpickle = proto(_unpickle)
    ll.add_symbol("numba_unpickle", ctypes.cast(unpickle, ctypes.c_void_p).value or 0)

    target = ll.Target.from_triple(ll.get_process_triple())
    arch = ll.Target.from_default_triple().name
    options = dict(  # numba's JIT target machine, for which its code was made
        cpu=ll.get_host_cpu_name(),
        features=ll.get_host_cpu_features().flatten(),
        reloc="static"
        if arch.startswith("x86")
        else "pic"
        if arch.startswith("ppc")
        else "default",
        codemodel="jitdefault",
    )
    try:
        machine = target.create_target_machine(**options, jit=True)
    except TypeError:  # an llvmlite without the flag
        machine = target.create_target_machine(**options)
    engine = ll.create_mcjit_compiler(ll.parse_assembly(""), machine)
    for code in codes:
        engine.add_object_file(ll.ObjectFileRef.from_data(code.objects))
    engine.finalize_object()
    made: dict[tuple[str, str], Any] = {}
    envs = []
    for code in codes:
        module = importlib.import_module(code.module)
        env = dynfunc.Environment(vars(module))
        env.consts[:] = list(code.consts)
        wrapper = engine.get_function_address(code.wrapper)
        slot = engine.get_global_value_address(code.env)
        if not wrapper or not slot:
            raise MachineCodeError(f"{code.module}.{code.name} is not in its object code")
        doc = f"compiled wrapper for {code.qualname!r}"
        short = code.qualname.split(".")[-1]
        made[code.module, code.name] = dynfunc.make_function(
            module, short, doc, wrapper, env, (engine,)
        )
        (ctypes.c_void_p * 1).from_address(slot)[0] = id(env)
        envs.append(env)
    _KEEP.append((engine, unpickle, envs))
    return made

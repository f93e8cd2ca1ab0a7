"""numba's cache files of a module's kernels: where they are, and those made stale by an edit
to another module removed before numba looks.

numba keys a cached kernel by its own file's content alone, and freezes the globals a kernel
reads (constants, other kernels it calls) into the machine code it caches. A kernel whose file
did not change but which reads a constant of another module (the ``P_`` indices of
:mod:`twentyone.engine.compiled`), or calls a kernel of another module, keeps the old code after
that module changes (numba treats globals as compile-time constants; tracking other files was
proposed upstream, numba pull requests 8396 and 9563, and not merged: 0.68 hashes the kernel's
own file alone). So each module declaring cached kernels has a *stamp* beside numba's files
(``<module>.deps-stamp``, one line): a hash of the bytes of its own source and of every module
of its package it imports at its top level, followed transitively (a constant re-exported by a
module in between, or a kernel calling a kernel calling another, is a dependency too). When the
stamp differs from the sources (or is missing), the module's ``.nbi`` and ``.nbc`` files are
removed and the new stamp written, before numba creates the module's dispatchers
(:func:`twentyone.engine.jit.materialize`) and before :mod:`twentyone.analysis.warmup` counts
the cached kernels; only the modules whose sources changed recompile. A directory that cannot
be written is left alone (numba does not cache there either); no failure here stops a kernel
from running.

numba's own alternative, a cache locator class (``NUMBA_CACHE_LOCATOR_CLASSES``) whose source
stamp covers the dependencies, is process-wide (it would replace the locators of every numba
user in the process) and hides the staleness inside numba's pickled index, where the warm-up's
count of cached kernels cannot see it without unpickling every index.

>>> import twentyone.engine.compiled as compiled
>>> len(fingerprint(compiled.__file__, "twentyone.engine.compiled"))
40
>>> os.path.join("engine", "__pycache__") in cache_dirs(compiled.__file__)[-2]
True
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import sys

#: A top-level import statement's words: ``from X import names`` (names up to the line's end,
#: or within parentheses) or ``import X, Y``; indented imports (inside functions,
#: ``if TYPE_CHECKING:``) give a kernel no global, so they are no dependencies.
_STARTS = (b"\nfrom ", b"\nimport ")
_FROM = re.compile(rb"from\s+(\.*)([\w.]*)\s+import\s+(.*)", re.S)
#: The stamp file's suffix (after the module's name, as numba's files are named).
STAMP = ".deps-stamp"

#: Per process: each file's hash and dependencies, each module's fingerprint, the (stamp file,
#: fingerprint) pairs already checked, and the (source, cache settings) already seen to.
_FILES: dict[str, tuple[bytes, tuple[str, ...]]] = {}
_MODULES: dict[tuple[str, tuple[str, ...]], str | None] = {}
_PRINTS: dict[str, str] = {}
_CHECKED: set[tuple[str, str]] = set()
_DONE: set[tuple[str, str, str | None]] = set()


def _user_dir() -> str:
    """numba's ``NUMBA_CACHE_DIR`` (numba reads the variable again before each compile), else
    ``numba.config.CACHE_DIR`` where numba is imported and it was set there, or ``""``."""
    if "NUMBA_CACHE_DIR" in os.environ:
        return os.environ["NUMBA_CACHE_DIR"]
    config = sys.modules.get("numba.core.config")
    return str(getattr(config, "CACHE_DIR", "") or "")


def _user_wide_dir() -> str:
    """numba's user-wide cache directory (``appdirs.user_cache_dir("numba")``)."""
    if sys.platform == "win32":  # pragma: no cover - the project's machines are POSIX
        base = os.environ.get("LOCALAPPDATA", os.path.expanduser("~"))
        return os.path.join(base, "numba", "Cache")
    if sys.platform == "darwin":  # pragma: no cover
        return os.path.expanduser("~/Library/Caches/numba")
    base = os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache"))
    return os.path.join(base, "numba")


def _subpath(source: str) -> str:
    """The directory under a cache root numba gives the kernels of ``source``
    (``_CacheLocator.get_suitable_cache_subpath``)."""
    folder = os.path.dirname(os.path.abspath(source))
    return f"{os.path.basename(folder)}_{hashlib.sha1(folder.encode()).hexdigest()}"


def cache_dirs(source: str) -> list[str]:
    """The directories numba may cache the kernels of the file ``source`` in, in the order
    its locators try them: ``NUMBA_CACHE_DIR``'s (when set), the file's ``__pycache__``, the
    user-wide cache; numba takes the first it can write to."""
    dirs = [os.path.join(os.path.dirname(source), "__pycache__")]
    user = _user_dir()
    if user:
        dirs.insert(0, os.path.join(user, _subpath(source)))
    return [*dirs, os.path.join(_user_wide_dir(), _subpath(source))]


def _writable(folder: str, make: bool) -> bool:
    """Whether numba can cache in ``folder`` (made first when ``make``)."""
    try:
        if make:
            os.makedirs(folder, exist_ok=True)
        return os.path.isdir(folder) and os.access(folder, os.W_OK | os.X_OK)
    except OSError:
        return False


def cache_dir(source: str) -> str | None:
    """The directory numba caches the kernels of ``source`` in (None: none can be written)."""
    return next((d for d in cache_dirs(source) if _writable(d, make=True)), None)


def _module_file(root: str, parts: tuple[str, ...]) -> str | None:
    """The file of the package's module ``parts`` (below the package's folder ``root``)."""
    key = (root, parts)
    if key not in _MODULES:
        base = os.path.join(root, *parts)
        found = [p for p in (base + ".py", os.path.join(base, "__init__.py")) if os.path.isfile(p)]
        _MODULES[key] = found[0] if found else None
    return _MODULES[key]


def _statements(data: bytes) -> list[bytes]:
    """The top-level import statements of a module's source ``data``."""
    data = b"\n" + data
    found = []
    for start in _STARTS:
        at = data.find(start)
        while at != -1:
            end = data.find(b"\n", at + 1)
            line = data[at + 1 : end if end != -1 else len(data)]
            if b"(" in line and b")" not in line:  # names in parentheses, over lines
                close = data.find(b")", at)
                line = data[at + 1 : close + 1 if close != -1 else len(data)]
            found.append(line)
            at = data.find(start, at + 1)
    return found


def _scan(path: str, module: str, root: str) -> tuple[bytes, tuple[str, ...]]:
    """The hash of ``path``'s bytes and the files of its package's modules it imports at its
    top level (``module``: its dotted name; ``root``: its package's folder)."""
    if path in _FILES:
        return _FILES[path]
    with open(path, "rb") as fh:
        data = fh.read()
    names = module.split(".")
    top = names[0]
    package = names if path.endswith("__init__.py") else names[:-1]
    files = set()
    for statement in _statements(data):
        text = statement.split(b"#")[0] if b"(" not in statement else statement
        match = _FROM.match(text)
        if match is None:  # import X, Y as Z
            for item in text[len(b"import") :].split(b","):
                words = item.split()
                parts = words[0].decode().split(".") if words else []
                if parts and parts[0] == top:
                    files.add(_module_file(root, tuple(parts[1:])))
            continue
        dots, base, what = match.groups()
        if dots:  # relative: from the module's package, one level up per further dot
            keep = max(len(package) - (len(dots) - 1), 0)
            parts = package[:keep] + [p for p in base.decode().split(".") if p]
        else:
            parts = base.decode().split(".")
        if not parts or parts[0] != top:
            continue
        here = _module_file(root, tuple(parts[1:]))
        files.add(here)
        if here is None or not here.endswith("__init__.py"):
            continue  # names of a package may be its modules
        for item in re.sub(rb"#[^\n]*", b"", what).strip(b"() \n").split(b","):
            words = item.split()
            if words and words[0].decode().isidentifier():
                files.add(_module_file(root, (*parts[1:], words[0].decode())))
    result = (hashlib.sha1(data).digest(), tuple(sorted(f for f in files if f and f != path)))
    _FILES[path] = result
    return result


def fingerprint(source: str, module: str) -> str:
    """A hash of the file ``source`` (the module ``module``) and of every module of its
    package it imports at top level, transitively (hex, 40 characters)."""
    key = os.path.abspath(source)
    if key in _PRINTS:
        return _PRINTS[key]
    top = module.split(".")[0]
    root = key
    for _ in range(module.count(".") + 1 + key.endswith("__init__.py")):
        root = os.path.dirname(root)
    root = os.path.join(root, top)
    cut = len(root) + 1
    seen: dict[str, bytes] = {}
    todo = [key]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        name = ".".join([top, *path[cut:-3].split(os.sep)]).removesuffix(".__init__")
        digest, deps = _scan(path, name, root)
        seen[path] = digest
        todo.extend(deps)
    total = hashlib.sha1()
    for path in sorted(seen):
        total.update(path[cut:].encode() + b"\0" + seen[path])
    _PRINTS[key] = total.hexdigest()
    return _PRINTS[key]


def forget_stale(source: str, module: str) -> None:
    """Remove numba's cache files of the kernels of ``source`` (the module ``module``) made
    before a change to it or to a module it depends on (see the module's docstring), in every
    cache directory numba may use for it, and stamp each with the current fingerprint. Once
    per directory and fingerprint in a process; never raises."""
    done = (source, _user_dir(), os.environ.get("XDG_CACHE_HOME"))
    if done in _DONE:  # each of a module's kernels asks
        return
    try:
        if not os.path.isfile(source):
            return
        mark = fingerprint(source, module)
        primary = cache_dir(source)
        stem = os.path.splitext(os.path.basename(source))[0]
        for folder in cache_dirs(source):
            stamp = os.path.join(folder, stem + STAMP)
            if (stamp, mark) in _CHECKED:
                continue
            if folder != primary and not _writable(folder, make=False):
                continue
            _CHECKED.add((stamp, mark))
            _restamp(folder, stem, stamp, mark)
        _DONE.add(done)
    except Exception:  # a cache numba cannot use is numba's to skip; a kernel still runs
        return


def _restamp(folder: str, stem: str, stamp: str, mark: str) -> None:
    """When ``stamp`` does not hold ``mark``: remove ``stem``'s numba files in ``folder`` and
    write ``mark`` (atomically: two processes may do it at once)."""
    import glob  # here: a match (every run but the first after a change) needs neither
    import tempfile

    try:
        with open(stamp, encoding="ascii") as fh:
            if fh.read().strip() == mark:
                return
    except (OSError, ValueError):
        pass
    for pattern in (f"{stem}.*.nbi", f"{stem}.*.nbc"):
        for path in glob.glob(os.path.join(glob.escape(folder), pattern)):
            with contextlib.suppress(OSError):
                os.remove(path)
    try:
        fd, temp = tempfile.mkstemp(dir=folder, prefix=stem, suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(fd, "w", encoding="ascii") as fh:
            fh.write(mark + "\n")
        os.replace(temp, stamp)
    except OSError:
        with contextlib.suppress(OSError):
            os.remove(temp)

"""numba's disk cache of searchlab's ``cache=True`` functions, keyed on their callees' sources too.

numba keys a cached function on the modification time and size of the one file that defines
it (its documented limit): a ``cache=True`` function that calls a jitted function of another
file -- Connect Four's primitives calling ``winning_cells`` in games/connect4_kernel.py, every
tree's primitives calling ``mix64`` -- kept its compiled code, with the old callee inlined,
after that other file was edited. This module closes that hole for every function defined in
the searchlab package: importing it (``searchlab/__init__.py`` does so first, before any
jitted function is defined) puts ``DependencyLocator`` at the front of numba's cache locators.
For a function whose file is in the package it delegates everything to the locator numba
would have chosen (the same cache directory and file names) but its source stamp, which it
extends with ``dependency_digest`` of the function: a SHA-256 over the text of every file
defining a jitted function reachable from it (following the globals each one names), the
files of searchlab modules it uses as namespaces, and the values of the other globals it
names (numba freezes them as constants: arrays by dtype, shape and bytes; numbers, strings
and tuples by repr). An edit anywhere in that closure changes the stamp, so numba finds its
index stale and compiles afresh. The digest is computed at the first load or save of the
function's cache (the module is complete by then), once per function and process.

The per-game engine copies (searchlab.algorithms.compiled.specialise) use the same digest in
their file names; their files are outside the package, so numba's own locators serve them.
Under ``NUMBA_CACHE_LOCATOR_CLASSES`` (a numba setting that replaces the locator list) this
module's locator is not consulted.

A read-only cache. numba gives up ("no locator available", at import) when none of its cache
directories can be written: NUMBA_CACHE_DIR, the package's ``__pycache__`` and the user-wide
cache all read-only (a shared installation, a read-only mount). Then DependencyLocator reads the
directory numba would have used first (NUMBA_CACHE_DIR when set, else the package's
``__pycache__``): a function found there with the current stamp is loaded, any other is
compiled in memory, and nothing is written (one warning line per process, ``warn_read_only``).
"""

from __future__ import annotations

import hashlib
import inspect
import sys
import types
from pathlib import Path
from typing import Any, Iterable

import numpy as np
from numba.core import caching, config

PACKAGE_DIR = Path(__file__).resolve().parent
#: numba's cache implementation base class, whose locator list this module extends
#: (``CacheImpl`` in numba >= 0.60, ``_CacheImpl`` before)
_IMPL = getattr(caching, "CacheImpl", None) or caching._CacheImpl
_texts: dict[tuple[str, int, int], bytes] = {}
_warned_read_only: list[str] = []


def _text(path: str) -> bytes:
    """The bytes of a file, read once per process and version (path, mtime, size)."""
    st = Path(path).stat()
    key = (path, st.st_mtime_ns, st.st_size)
    out = _texts.get(key)
    if out is None:
        out = _texts[key] = Path(path).read_bytes()
    return out


def _names(code: types.CodeType) -> set[str]:
    out = set(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            out |= _names(c)
    return out


def _py(f: Any) -> Any:
    """The Python function of a numba dispatcher (itself under NUMBA_DISABLE_JIT)."""
    return getattr(f, "py_func", f)


def dependency_digest(funcs: Iterable[Any]) -> bytes:
    """SHA-256 of what the compiled code of ``funcs`` (jitted functions or their Python
    functions) depends on: the module docstring's closure of files and global values."""
    h = hashlib.sha256()
    files: set[str] = set()
    seen: set[int] = set()
    todo = [_py(f) for f in funcs]

    def add_file(path: str) -> None:
        if path not in files:                   # the text, not the path: checkouts share
            files.add(path)
            h.update(_text(path))

    while todo:
        fn = todo.pop()
        if id(fn) in seen:
            continue
        seen.add(id(fn))
        add_file(inspect.getsourcefile(fn))
        glob = fn.__globals__
        for n in sorted(_names(fn.__code__)):
            if n not in glob:
                continue
            v = glob[n]
            h.update(f"{fn.__module__}.{fn.__qualname__}:{n}=".encode())
            if callable(getattr(v, "py_func", None)):
                todo.append(v.py_func)
            elif inspect.isfunction(v):
                todo.append(v)
            elif inspect.ismodule(v):
                if v.__name__.split(".")[0] == "searchlab":
                    add_file(v.__file__)
            elif isinstance(v, np.ndarray):
                h.update(f"{v.dtype.str}{v.shape}".encode() + v.tobytes())
            elif isinstance(v, (int, float, str, bytes, tuple, np.generic)) or v is None:
                h.update(repr(v).encode())
            else:                               # e.g. a class: no repr with an address
                h.update(f"{type(v).__module__}.{type(v).__qualname__}".encode())
    return h.digest()


class _Stamp:
    """numba's source stamp of one function: (the stamp of numba's own locator, the hex
    dependency digest), computed at its first comparison or pickling. numba compares it with
    the stamp unpickled from the index (a plain tuple) and pickles it into the index; both
    see the tuple."""

    def __init__(self, inner: Any, py_func: Any) -> None:
        self._inner, self._py_func, self._value = inner, py_func, None

    def value(self) -> tuple:
        if self._value is None:
            self._value = (self._inner, dependency_digest((self._py_func,)).hex())
        return self._value

    def __eq__(self, other: object) -> bool:
        return self.value() == (other.value() if isinstance(other, _Stamp) else other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self.value())

    def __reduce__(self):
        return (tuple, (self.value(),))


def warn_read_only(directory: Any) -> None:
    """One warning line per process (the first read-only cache directory met names it): the
    directory is read-only, its verified files are used, the rest is compiled in memory."""
    if not _warned_read_only:
        _warned_read_only.append(str(directory))
        print(f"searchlab: warning: the compiled-code cache {directory} is read-only: its "
              f"verified files are used and nothing is written there; what it lacks is "
              f"compiled in memory for this process only", file=sys.stderr)


class DependencyLocator(caching._CacheLocator):
    """numba's locator for a function defined in the searchlab package: numba's own choice of
    directory and names, with the source stamp extended by the dependency digest.
    ``read_only``: no directory could be written; the inner locator's is only read (the
    module docstring, "A read-only cache")."""

    def __init__(self, inner: caching._CacheLocator, py_func: Any, read_only: bool = False) -> None:
        self._inner, self._py_func, self.read_only = inner, py_func, read_only
        self._py_file = getattr(inner, "_py_file", inspect.getfile(py_func))

    def ensure_cache_path(self) -> None:
        if not self.read_only:
            self._inner.ensure_cache_path()

    def get_cache_path(self) -> str:
        return self._inner.get_cache_path()

    def get_source_stamp(self) -> _Stamp:
        return _Stamp(self._inner.get_source_stamp(), self._py_func)

    def get_disambiguator(self) -> str:
        return self._inner.get_disambiguator()

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> DependencyLocator | None:
        try:
            inside = Path(py_file).resolve().is_relative_to(PACKAGE_DIR)
        except (OSError, ValueError):
            inside = False
        if not inside:
            return None
        for other in _IMPL._locator_classes:
            if other is cls:
                continue
            inner = other.from_function(py_func, py_file)
            if inner is not None:
                return cls(inner, py_func)
        # no directory can be written: read numba's first choice, compile the rest in memory
        first = _USER_PROVIDED if config.CACHE_DIR else _IN_TREE
        inner = first(py_func, py_file)
        warn_read_only(config.CACHE_DIR or Path(inner.get_cache_path()))
        return cls(inner, py_func, read_only=True)


#: numba's locators of NUMBA_CACHE_DIR and of the package's __pycache__ (renamed in numba 0.60)
_USER_PROVIDED = getattr(caching, "UserProvidedCacheLocator", None) or caching._UserProvidedCacheLocator
_IN_TREE = getattr(caching, "InTreeCacheLocator", None) or caching._InTreeCacheLocator
_numba_save_overload = caching.Cache._save_overload


def _save_overload(self: caching.Cache, sig: Any, data: Any) -> None:
    """numba's Cache._save_overload, skipped for a read-only DependencyLocator (numba would
    raise writing its files)."""
    if not getattr(self._impl.locator, "read_only", False):
        _numba_save_overload(self, sig, data)


def install() -> None:
    """Put DependencyLocator first in numba's locator list, and let a read-only one skip
    numba's save (idempotent)."""
    classes = _IMPL._locator_classes
    if DependencyLocator not in classes:
        classes.insert(0, DependencyLocator)
    caching.Cache._save_overload = _save_overload


def locator_of(dispatcher: Any) -> Any:
    """The cache locator of a jitted function (None when it does not cache to disk)."""
    impl = getattr(getattr(dispatcher, "_cache", None), "_impl", None)
    return None if impl is None else impl.locator


install()

"""The compiled engine specialised per game, cached on disk across processes.

``engine(prims)`` returns a module holding the engine's functions (``search`` and the rest of
``_engine.py``) with this game's primitives as globals. ``_engine.py`` is the one written
search, a template: its marker block binds the primitives' names to nothing. The module is a
copy of that file whose marker block imports the game's primitives under those names, written
into a cache directory and imported from there. Every function in it is ``cache=True``, so the
first process compiles it (tens of seconds) and every later process, joblib workers included,
loads the compiled code from numba's cache (about a second).

Why a generated file: numba caches a function by its source file, and treats the globals it
calls as constants of that file; it does not reuse compiled code for a function that takes
dispatchers as arguments or closes over them (the dispatchers, pickled with a per-process id,
enter its cache key). A module per game whose globals are the primitives is the form numba
caches, and the search is still written once.

Invalidation. numba notices edits to the file that defines a function, not to the functions it
calls in other files (its documented limit). So the copy's file name carries a SHA-256 over
everything its compiled code depends on: the template's text, the primitives' import lines,
and, for every jitted function reachable from a primitive (following the globals each one
names), the text of the file that defines it and the value of every other global it names
(arrays by dtype, shape and bytes; numbers and tuples by repr; searchlab modules used as
namespaces by their file): ``searchlab.numba_cache.dependency_digest``, which also keys numba's
own cache of every ``cache=True`` function of the package. An edit to the engine or to a game's primitives gives a new name, so
a new module that numba compiles afresh.

Stale copies. Each load sets its copy's access time (never its modification time, which
numba's cache index keys on); whenever a process writes a new copy (after an edit, or on a
new version), ``prune`` deletes the copies no process has loaded for ``IDLE_DAYS`` days, with
numba's compiled files of them, so that the directory does not grow with every version.

Where. ``$NUMBA_CACHE_DIR/searchlab_engine`` when NUMBA_CACHE_DIR is set (numba then keeps the
compiled code under NUMBA_CACHE_DIR too), else ``$XDG_CACHE_HOME/searchlab/engine`` (default
``~/.cache``); never inside the installed package, which may be read-only. When that directory
exists but cannot be written (a shared cache built beforehand, on a read-only mount), it is used
read-only: its copies and their compiled files are read and checked as below, nothing is written
there, and what it lacks (a copy, a code object, numba's files of a function) is compiled in
memory for this process only, with one warning line per process. When it cannot be created
(a file in the way, a parent that cannot be written), ``searchlab-engine-<uid>`` in the
temporary directory is used instead.

Several processes at once. A copy is written to a temporary file and hard-linked to its final
name, which fails if another process got there first: a copy, once there, never changes, so
numba's cache index (keyed on the file's modification time and size) stays valid. numba itself
writes its cache files through a temporary file and an atomic rename, so two processes
compiling the same copy at once each write a whole, equal result.

Plain kernels (``cached``). The same copy, name and cache serve a set of jitted functions
that are not written ``cache=True`` because they call functions of other files (the chess
kernel): ``cached(funcs)`` imports a generated module holding, per function, a ``cache=True``
function of the same name and parameters that calls it. numba compiles each callee into its
caller's cached code, and the module's name hashes the callees' sources as above, so a warm
process loads them from disk instead of compiling them.

The copy's Python code. The copy is imported from a code object compiled once and kept as
``__pycache__/<name>.<cache tag>.code`` beside it (``_code``; pruned with the copy), so a warm
process does not compile the 40 kB source again, whatever PYTHONDONTWRITEBYTECODE says.

Proof of what runs. Every file that decides what a copy does is checked against the digest
that names it before use: the source against its text (``heal``), the code object by a SHA-256
seal over the digest and its bytes (``_code``), numba's index by the same seal and each data
file by the SHA-256 the index records for it (``VerifiedCacheFile``, which every cached function
of a copy reads and writes through). A mismatch sets the copy's compiled files aside into
``damaged/`` with one warning line (``set_aside``) and numba compiles afresh. Nothing records a
location: the code object is stored under the copy's bare name and given its present path when
loaded, numba's files of a copy go to ``__pycache__`` beside it (``CopyLocator``, stamped with
the digest instead of numba's path-derived directory and modification time), so a cache can be
moved or copied and a process reads only the cache it is configured for.

Under NUMBA_DISABLE_JIT=1 the copy is imported the same way and runs as plain Python.
"""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import io
import marshal
import os
import pickle
import sys
import tempfile
import threading
import time
import types
from pathlib import Path
from typing import Any

import numba
from numba.core import caching

from searchlab.contracts.compiled import Primitives
from searchlab.algorithms.kernels.hashing_compiled import mix64
from searchlab.errors import UnsupportedError
from searchlab import numba_cache
from searchlab.numba_cache import dependency_digest

_TEMPLATE = Path(__file__).with_name("_engine.py")
_PREFIX = "searchlab_engine_"
IDLE_DAYS = 30
_BEGIN, _END = "# <primitives>\n", "# </primitives>\n"
_loaded: dict[tuple, types.ModuleType] = {}
_lock = threading.Lock()


def engine(prims: Primitives) -> types.ModuleType:
    """The engine module for these primitives (written and imported once per process)."""
    key = tuple(prims)
    mod = _loaded.get(key)
    if mod is None:
        with _lock:
            mod = _loaded.get(key)
            if mod is None:
                mod = _loaded[key] = _load(prims)
    return mod


def cache_dir() -> Path:
    """The directory the per-game copies are read from (the module docstring, "Where"): the
    configured one when it can be written, or when it exists and can only be read (a shared,
    read-only cache: ``read_only`` says so), else the temporary directory's fallback."""
    numba_dir = os.environ.get("NUMBA_CACHE_DIR")
    if numba_dir:
        candidates = [Path(numba_dir) / "searchlab_engine"]
    else:
        home = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
        candidates = [Path(home) / "searchlab" / "engine"]
    candidates.append(Path(tempfile.gettempdir()) / f"searchlab-engine-{os.getuid()}")
    for d in candidates:
        try:
            d.mkdir(parents=True, exist_ok=True)
        except OSError:
            continue
        if not read_only(d) or os.access(d, os.R_OK | os.X_OK):
            return d
    raise OSError(f"no usable directory for the compiled engine's cache among {candidates}")


def read_only(directory: Path) -> bool:
    """Whether this process cannot write ``directory`` (a read-only mount, another owner)."""
    return not os.access(directory, os.W_OK)


def source(prims: Primitives) -> tuple[str, str]:
    """(the copy's text, its SHA-256 key) for these primitives."""
    template = _TEMPLATE.read_text()
    head, rest = template.split(_BEGIN, 1)
    _, tail = rest.split(_END, 1)
    lines = [_import_line(name, f) for name, f in zip(Primitives._fields, prims)]
    text = head + _BEGIN + "".join(lines) + _END + tail
    h = hashlib.sha256(text.encode())
    h.update(_dependencies(tuple(prims) + (mix64,)))      # mix64: the template's own import
    return text, h.hexdigest()


def _load(prims: Primitives) -> types.ModuleType:
    return load_copy(*source(prims))


def cached(funcs: tuple[Any, ...]) -> types.ModuleType:
    """A module with one ``cache=True`` function per jitted function of ``funcs`` (same name
    and parameters) that calls it, loaded from the on-disk cache (the module docstring, "Plain
    kernels"); written and imported once per process. Raises UnsupportedError when a function
    is not a module-level jitted function, or two share a name."""
    key = ("cached", tuple(funcs))
    mod = _loaded.get(key)
    if mod is None:
        with _lock:
            mod = _loaded.get(key)
            if mod is None:
                mod = _loaded[key] = load_copy(*cached_source(funcs))
    return mod


def cached_source(funcs: tuple[Any, ...]) -> tuple[str, str]:
    """(the text of ``cached(funcs)``'s module, its SHA-256 key)."""
    head = ['"""Cached entry points (generated by searchlab.algorithms.compiled.specialise.cached)."""\n',
            "from numba import njit\n"]
    body: list[str] = []
    names: set[str] = set()
    for f in funcs:
        fn = _py(f)
        name = fn.__name__
        if name in names:
            raise UnsupportedError(f"cached: two functions named {name!r}")
        names.add(name)
        head.append(_import_line(f"_{name}", f))
        params = ", ".join(inspect.signature(fn).parameters)
        body.append(f"\n\n@njit(cache=True)\ndef {name}({params}):\n    return _{name}({params})\n")
    text = "".join(head + body)
    h = hashlib.sha256(text.encode())
    h.update(_dependencies(tuple(funcs)))
    return text, h.hexdigest()


def load_copy(text: str, digest: str) -> types.ModuleType:
    """Import the engine copy whose source is ``text`` (``digest``: its content hash, which
    names it) from the on-disk cache, writing it there first when it is missing, healing a
    damaged copy and numba's files beside it. Every compiled family's loader goes through it."""
    name = f"{_PREFIX}{digest[:24]}"
    directory = cache_dir()
    fixed = read_only(directory)
    if fixed:
        numba_cache.warn_read_only(directory)
    path = directory / f"{name}.py"
    for attempt in range(2):        # another process's prune may remove it in between
        if not fixed:               # read-only: the copy runs from ``text``, its file is not needed
            heal(path, text)
            if not path.exists():
                _write(path, text)
                prune(path.parent)
            _mark_used(path)
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        # CopyLocator serves this file's functions: numba's files beside it, stamped with digest
        _COPIES[str(path)] = digest
        try:
            exec(_code(path, text, digest, fixed), mod.__dict__)
        except FileNotFoundError:
            del sys.modules[name]
            if attempt:
                raise
            continue
        # numba loads its files at a function's first call: before it, every cached function
        # of the copy reads and writes them through VerifiedCacheFile
        _verify_numba(path, mod, digest, fixed)
        return mod
    raise AssertionError("unreachable")


def _code(path: Path, text: str, digest: str, fixed: bool = False) -> types.CodeType:
    """The copy's code object, compiled from ``text`` once and kept as marshal data in
    ``__pycache__`` beside the copy (``<name>.<cache tag>.code``), headed by Python's bytecode
    magic number, the copy's digest and a SHA-256 over the digest and the marshal data (the
    seal): a file of another Python is compiled afresh; one whose digest or seal does not match
    (damaged or edited) sets the copy's compiled files aside with one warning and is compiled
    afresh. The code object records no location (its file name is the copy's bare name, set to
    the copy's present path when loaded), so the cache can be moved or copied. Python's own
    .pyc would record the path and not be written under PYTHONDONTWRITEBYTECODE, and
    compiling the 40 kB copy costs 10-20 ms of every warm process's first search. ``fixed``:
    the cache is read-only, a code object compiled here is not saved."""
    magic, key = importlib.util.MAGIC_NUMBER, bytes.fromhex(digest)
    where = _code_path(path)
    try:
        raw = where.read_bytes()
    except OSError:
        raw = None
    if raw is not None and raw.startswith(magic):
        body = raw[len(magic) + len(key) + 32:]
        seal = raw[len(magic) + len(key):len(magic) + len(key) + 32]
        code = None
        if raw[len(magic):len(magic) + len(key)] == key and seal == _seal(digest, body):
            try:
                code = marshal.loads(body)
            except (ValueError, EOFError, TypeError):
                code = None
        if isinstance(code, types.CodeType):
            return _relocate(code, str(path))
        set_aside(path, f"its code object {where.name} does not match the content hash")
    code = compile(text, path.name, "exec", dont_inherit=True)
    if fixed:
        return _relocate(code, str(path))
    try:
        where.parent.mkdir(exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=where.parent, prefix=f".{path.stem}.", suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            body = marshal.dumps(code)
            f.write(magic + key + _seal(digest, body) + body)
        os.replace(tmp, where)
    except OSError:
        pass                            # a read-only cache: compiled again next time
    return _relocate(code, str(path))


def _code_path(path: Path) -> Path:
    return path.parent / "__pycache__" / f"{path.stem}.{sys.implementation.cache_tag}.code"


def _seal(digest: str, body: bytes) -> bytes:
    """SHA-256 of a cached file's bytes under the copy's content hash: what ties the file to
    the copy that names it."""
    return hashlib.sha256(digest.encode() + b"\0" + body).digest()


def _relocate(code: types.CodeType, filename: str) -> types.CodeType:
    """code (and the code objects inside it) with co_filename set to the copy's present path:
    numba locates a function's cache files by it, tracebacks name it."""
    consts = tuple(_relocate(c, filename) if isinstance(c, types.CodeType) else c
                   for c in code.co_consts)
    return code.replace(co_filename=filename, co_consts=consts)


# --- numba's files of a copy: located beside it, stamped and sealed with its content hash ----
_COPIES: dict[str, str] = {}        # a loaded copy's path -> its digest (CopyLocator's)
_warned: set[str] = set()
#: the first pickle of a copy's index file: another numba version, or an index written before
#: the seal, is stale (numba compiles afresh and writes it anew), not damaged
_INDEX_VERSION = ("searchlab-sealed-index", 1, numba.__version__)


class CopyLocator(caching._CacheLocator):
    """numba's locator for the functions of a loaded engine copy: its files go to
    ``__pycache__`` beside the copy (in the cache this process is configured for, never a
    location recorded elsewhere, nor numba's user-wide fallback when that directory cannot be
    written), and the source stamp is the copy's content hash (not its modification time,
    which a copy of the cache changes)."""

    def __init__(self, py_func: Any, py_file: str) -> None:
        self._py_file, self._digest = py_file, _COPIES[py_file]
        self._lineno = py_func.__code__.co_firstlineno

    def ensure_cache_path(self) -> None:
        if read_only(Path(self._py_file).parent):
            return                      # a read-only cache: VerifiedCacheFile does not save
        try:
            os.makedirs(self.get_cache_path(), exist_ok=True)
        except OSError:
            pass

    def get_cache_path(self) -> str:
        return str(Path(self._py_file).parent / "__pycache__")

    def get_source_stamp(self) -> tuple:
        return ("searchlab-copy", self._digest)

    def get_disambiguator(self) -> str:
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> CopyLocator | None:
        return cls(py_func, py_file) if py_file in _COPIES else None


def _install_locator() -> None:
    impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl
    if CopyLocator not in impl._locator_classes:
        impl._locator_classes.insert(0, CopyLocator)


_install_locator()


class VerifiedCacheFile(caching.IndexDataCacheFile):
    """numba's index and data files of one function of a copy, checked before use: the index
    is sealed with the copy's content hash (``_seal``) and records the SHA-256 of every data
    file; a file that does not match is set aside with one warning (``set_aside``) and numba
    compiles afresh. Nothing in them records a location. ``fixed``: the cache is read-only,
    nothing is written (what numba compiles stays in memory)."""

    def __init__(self, cache_path: str, filename_base: str, copy: Path, digest: str,
                 fixed: bool = False) -> None:
        super().__init__(cache_path, filename_base, ("searchlab-copy", digest))
        self._copy, self._digest, self._fixed = copy, digest, fixed

    def _load_index(self) -> dict:
        try:
            raw = Path(self._index_path).read_bytes()
        except OSError:
            return {}
        stream = io.BytesIO(raw)
        try:
            version = pickle.load(stream)
        except Exception:  # noqa: BLE001 -- any unpickling error is damage
            version = None
        if version is not None and version != _INDEX_VERSION:
            return {}                   # another numba, or the unsealed format: stale
        rest = raw[stream.tell():]
        body, seal = rest[:-32], rest[-32:]
        overloads = None
        if version is not None and seal == _seal(self._digest, body):
            try:
                stamp, overloads = pickle.loads(body)
            except Exception:  # noqa: BLE001
                stamp = None
            if stamp != self._source_stamp or not isinstance(overloads, dict):
                overloads = None
        if overloads is None:
            set_aside(self._copy, f"numba's index {self._index_name} does not match the content hash")
            return {}
        return overloads

    def _save_index(self, overloads: dict) -> None:
        body = self._dump((self._source_stamp, overloads))
        with self._open_for_write(self._index_path) as f:
            pickle.dump(_INDEX_VERSION, f, protocol=-1)
            f.write(body + _seal(self._digest, body))

    def save(self, key: Any, data: Any) -> None:
        if self._fixed:
            return
        payload = self._dump(data)
        try:
            overloads = self._load_index()
            entry = overloads.get(key)
            if entry is None:
                used = {e[0] for e in overloads.values()}
                name = next(n for i in range(1, len(used) + 2)
                            if (n := self._data_name(i)) not in used)
            else:
                name = entry[0]
            with self._open_for_write(self._data_path(name)) as f:
                f.write(payload)
            overloads[key] = (name, hashlib.sha256(payload).hexdigest())
            self._save_index(overloads)
        except OSError:
            pass                        # a read-only cache: used as it is

    def load(self, key: Any) -> Any:
        entry = self._load_index().get(key)
        if entry is None:
            return None
        name, want = entry
        try:
            raw = Path(self._data_path(name)).read_bytes()
        except OSError:
            return None
        if hashlib.sha256(raw).hexdigest() != want:
            set_aside(self._copy, f"numba's data file {name} does not match its index")
            return None
        return pickle.loads(raw)


def _verify_numba(path: Path, mod: types.ModuleType, digest: str, fixed: bool = False) -> None:
    """Give every cached function of the imported copy a VerifiedCacheFile (before its first
    call, when numba first reads its files); ``fixed``: the cache is read-only."""
    for v in list(vars(mod).values()):
        cache = getattr(v, "_cache", None)
        if getattr(getattr(v, "py_func", None), "__module__", None) != mod.__name__ \
                or not isinstance(cache, caching.Cache):
            continue
        cf = cache._cache_file
        cache._cache_file = VerifiedCacheFile(cache._cache_path, cf._index_name[:-len(".nbi")],
                                              path, digest, fixed)


def set_aside(path: Path, why: str) -> list[Path]:
    """Move the compiled files of the copy at path (its code object, numba's index and data
    files) into ``damaged/`` beside the copies, with one warning line per copy and process,
    so that they are rebuilt; returns the files moved. A file already gone (another process
    set it aside) is skipped. In a read-only cache nothing is moved: the files are not used
    and what they held is compiled in memory."""
    aside_dir = path.parent / "damaged"
    fixed = read_only(path.parent)
    moved = [] if fixed else _move_aside([_code_path(path), *_numba_files(path)], aside_dir)
    if str(path) not in _warned:
        _warned.add(str(path))
        done = ("not used (the cache is read-only) and compiled in memory" if fixed
                else f"its compiled files moved aside to {aside_dir} and rebuilt")
        _warn(f"the compiled engine's cached copy {path.name}: {why} (damaged or edited); {done}")
    return moved


def _move_aside(files: list[Path], aside_dir: Path) -> list[Path]:
    """Rename each of ``files`` into ``aside_dir`` under its name and a time-and-process stamp;
    returns the new paths (a file already gone, set aside by another process, is skipped)."""
    stamp = f"{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}"
    moved: list[Path] = []
    for f in files:
        target = aside_dir / f"{f.name}.{stamp}"
        try:
            aside_dir.mkdir(exist_ok=True)
            os.rename(f, target)
            moved.append(target)
        except OSError:
            continue
    return moved


def _numba_files(path: Path) -> list[Path]:
    """numba's cache files of the copy at path: its index (.nbi) and data (.nbc) files in
    ``__pycache__`` beside it, or anywhere under NUMBA_CACHE_DIR."""
    numba_dir = os.environ.get("NUMBA_CACHE_DIR")
    roots = [path.parent / "__pycache__"] + ([Path(numba_dir)] if numba_dir else [])
    out: list[Path] = []
    for root in roots:
        if root.is_dir():
            out += [f for f in root.rglob(f"{path.stem}.*") if f.suffix in (".nbi", ".nbc")]
    return sorted(set(out))


def heal(path: Path, text: str) -> list[Path]:
    """Verify the copy at path against its text (the content its hash names); move a damaged
    or edited copy aside (into ``damaged/`` beside the copies), with numba's cache files of it,
    with one warning line on stderr, so that the caller rebuilds it. Returns the files moved aside. Concurrent processes stay correct: a file is
    renamed atomically before it is judged, and a good copy renamed by mistake (another
    process replaced the damaged one in between) is linked back."""
    moved: list[Path] = []
    try:
        damaged = path.exists() and path.read_bytes() != text.encode()
    except OSError:
        damaged = False
    aside_dir = path.parent / "damaged"
    stamp = f"{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}"
    if damaged:
        aside = aside_dir / f"{path.name}.{stamp}"
        try:
            aside_dir.mkdir(exist_ok=True)
            os.rename(path, aside)
        except OSError:
            aside = None                # gone already (another process set it aside)
        if aside is not None:
            if aside.read_bytes() == text.encode():     # a good copy written meanwhile: keep it
                try:
                    os.link(aside, path)
                except FileExistsError:
                    pass
                aside.unlink()
            else:
                moved.append(aside)
                # numba's files of the damaged copy describe other code: rebuild them too
                moved += _move_aside(_numba_files(path), aside_dir)
                _warn(f"the compiled engine's cached copy {path} does not match its content "
                      f"hash (damaged or edited); moved aside to {aside} and rebuilt")
    return moved


def _warn(msg: str) -> None:
    print(f"searchlab: warning: {msg}", file=sys.stderr)


def _write(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        try:
            os.link(tmp, path)              # atomic, and never replaces another process's copy
        except FileExistsError:
            pass
    finally:
        os.unlink(tmp)


def _mark_used(path: Path) -> None:
    """Set the copy's access time to now, keeping its modification time (numba's cache index
    keys on it); a read-only directory is left as it is."""
    try:
        os.utime(path, ns=(time.time_ns(), path.stat().st_mtime_ns))
    except OSError:
        pass


def prune(directory: Path | None = None, idle_days: float = IDLE_DAYS) -> list[Path]:
    """Delete the engine copies in ``directory`` (default: cache_dir()) that no process has
    loaded for ``idle_days`` days, and numba's compiled files of them (``__pycache__`` beside
    them, or anywhere under NUMBA_CACHE_DIR); returns the copies deleted. A copy in use is
    never idle: every load marks it."""
    directory = cache_dir() if directory is None else Path(directory)
    cutoff = time.time() - idle_days * 86400
    stale = []
    for path in directory.glob(f"{_PREFIX}*.py"):
        try:
            if path.stat().st_atime < cutoff:
                path.unlink()
                stale.append(path)
        except OSError:
            continue                        # gone already, or not ours to delete
    if stale:
        numba_dir = os.environ.get("NUMBA_CACHE_DIR")
        roots = [directory / "__pycache__"] + ([Path(numba_dir)] if numba_dir else [])
        for root in roots:
            for path in stale:
                for f in root.rglob(f"{path.stem}.*"):
                    try:
                        f.unlink()
                    except OSError:
                        pass
    return stale


def _py(f: Any) -> Any:
    """The Python function of a numba dispatcher (itself under NUMBA_DISABLE_JIT)."""
    return getattr(f, "py_func", f)


def _import_line(name: str, f: Any) -> str:
    fn = _py(f)
    mod, attr = fn.__module__, fn.__name__
    if getattr(sys.modules.get(mod), attr, None) is not f:
        raise UnsupportedError(
            f"primitive {name}: {mod}.{attr} is not a module-level jitted function, which the "
            f"compiled engine needs to import it")
    return f"from {mod} import {attr} as {name}\n"


def _dependencies(prims: Primitives) -> bytes:
    """What the primitives' compiled code depends on (the module docstring, "Invalidation")."""
    return dependency_digest(prims)

"""A family's compiled search specialised per game, cached on disk across processes.

The chance family (``_chance_engine.py``) and the n-player family (``_nplayer_engine.py``) are
each one numba search written once, a *template* like the two-player engine's ``_engine.py``:
its marker block (``# <primitives>`` ... ``# </primitives>``) binds the primitives' names to
nothing, and ``engine(template, fields, prims)`` imports a copy whose marker block imports the
game's primitives under those names. The copy's name, its cache directory, its content check
and the pruning of stale copies are specialise.py's (its docstring says why a generated file
is the form numba caches and how the name keys on every source the compiled code depends on);
this module only generalises the template and the field names.
"""

from __future__ import annotations

import hashlib
import threading
import types
from pathlib import Path
from typing import Any

from searchlab.algorithms.compiled.specialise import (_dependencies, _import_line, load_copy)

_BEGIN, _END = "# <primitives>\n", "# </primitives>\n"
_loaded: dict[tuple, types.ModuleType] = {}
_lock = threading.Lock()


def engine(template: Path, fields: tuple[str, ...], prims: tuple) -> types.ModuleType:
    """The module of ``template`` with ``prims`` (one per name of ``fields``) as its marker
    block's globals; written and imported once per process. Raises UnsupportedError when a
    primitive is not a module-level jitted function (specialise._import_line)."""
    key = (str(template), tuple(prims))
    mod = _loaded.get(key)
    if mod is None:
        with _lock:
            mod = _loaded.get(key)
            if mod is None:
                mod = _loaded[key] = _load(template, fields, prims)
    return mod


def source(template: Path, fields: tuple[str, ...], prims: tuple) -> tuple[str, str]:
    """(the copy's text, its SHA-256 key)."""
    text = Path(template).read_text()
    head, rest = text.split(_BEGIN, 1)
    _, tail = rest.split(_END, 1)
    lines = [_import_line(name, f) for name, f in zip(fields, prims)]
    copy = head + _BEGIN + "".join(lines) + _END + tail
    h = hashlib.sha256(copy.encode())
    h.update(_dependencies(prims))
    return copy, h.hexdigest()


def _load(template: Path, fields: tuple[str, ...], prims: tuple) -> types.ModuleType:
    return load_copy(*source(template, fields, prims))


def loaded(template: Path) -> list[Any]:
    """The modules of ``template`` loaded in this process (tests: the cache's hits)."""
    return [m for (t, _), m in _loaded.items() if t == str(template)]

"""numba's disk cache of the package's ``cache=True`` functions follows their callees' sources
(searchlab.numba_cache): an edit of a callee in another file is never answered from a stale cache."""

from __future__ import annotations

import importlib
import os
import pkgutil
import shutil
import subprocess
import sys
from pathlib import Path

import searchlab
from searchlab import numba_cache
from searchlab.games import connect4_compiled
from searchlab.numba_cache import DependencyLocator, locator_of

PACKAGE = Path(searchlab.__file__).resolve().parent


def _cached_functions() -> dict[str, object]:
    """Every jitted function defined in the package that caches to disk, by qualified name."""
    for m in pkgutil.walk_packages(searchlab.__path__, "searchlab."):
        if not m.name.endswith(("__main__", "lab.workers")):
            importlib.import_module(m.name)
    out = {}
    for mod in list(sys.modules.values()):
        name = getattr(mod, "__name__", "")
        if name.split(".")[0] != "searchlab":
            continue
        for k, v in vars(mod).items():
            if getattr(getattr(v, "py_func", None), "__module__", None) == name and locator_of(v):
                out[f"{name}.{k}"] = v
    return out


def test_every_cached_function_of_the_package_keys_on_its_callees():
    funcs = _cached_functions()
    assert len(funcs) > 100          # the games', trees' and kernels' primitives
    assert "searchlab.games.connect4_compiled.evaluate" in funcs
    wrong = [n for n, f in funcs.items() if not isinstance(locator_of(f), DependencyLocator)]
    assert wrong == []


def test_the_stamp_changes_when_a_callee_in_another_file_changes(monkeypatch):
    # Connect Four's evaluate calls winning_cells (connect4_kernel.py) and popcount
    # (othello_kernel.py); neither is in connect4_compiled.py
    stamp = locator_of(connect4_compiled.evaluate).get_source_stamp().value()
    real = numba_cache._text
    kernel = str(PACKAGE / "games" / "connect4_kernel.py")
    monkeypatch.setattr(numba_cache, "_text", lambda p: real(p) + (b"\n# edited" if p == kernel else b""))
    edited = locator_of(connect4_compiled.evaluate).get_source_stamp().value()
    assert edited[0] == stamp[0] and edited[1] != stamp[1]
    # a file it does not depend on leaves it alone
    monkeypatch.setattr(numba_cache, "_text", lambda p: real(p) + (b"\n# edited" if p.endswith("hex_compiled.py")
                                                                   else b""))
    assert locator_of(connect4_compiled.evaluate).get_source_stamp().value() == stamp


PROBE = ("from searchlab.games.connect4_compiled import _count\n"
         "print(_count(7), sum(_count.stats.cache_hits.values()), sum(_count.stats.cache_misses.values()))\n")


def test_an_edited_callee_in_another_file_is_compiled_again_not_loaded_stale(tmp_path):
    # a copy of the package: _count (connect4_compiled.py) calls popcount (othello_kernel.py)
    pkg = tmp_path / "src" / "searchlab"
    shutil.copytree(PACKAGE, pkg, ignore=shutil.ignore_patterns("__pycache__"))
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=str(tmp_path / "src"),
               XDG_CACHE_HOME=str(tmp_path / "cache"))
    env.pop("NUMBA_DISABLE_JIT", None)

    def probe() -> list[str]:
        out = subprocess.run([sys.executable, "-c", PROBE], env=env, cwd=tmp_path, capture_output=True,
                             text=True, timeout=300)
        assert out.returncode == 0, out.stderr
        return out.stdout.split()

    assert probe()[0] == "3"                                  # compiled and cached
    assert probe() == ["3", "1", "0"]                          # loaded from the cache
    kernel = pkg / "games" / "othello_kernel.py"
    text = kernel.read_text()
    assert "    return np.int64((x * _H01) >> _S56)\n" in text
    kernel.write_text(text.replace("    return np.int64((x * _H01) >> _S56)\n",
                                   "    return np.int64((x * _H01) >> _S56) + 40\n"))
    assert probe()[0] == "43"                                 # numba's own key (its file) alone: 3

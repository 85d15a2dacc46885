"""A cache that proves what it runs (searchlab.algorithms.compiled.specialise): every file that
decides what an engine copy does -- its source, its code object, numba's index and data files --
is checked against the content hash that names the copy before use; a mismatch sets the copy's
compiled files aside with one warning and numba compiles afresh; the cache records no location,
so it can be moved or copied, and a process uses only the cache it is configured for. Each case runs in fresh processes on a small copy (one cached function, about a
second to compile); the Connect Four engine itself is the slow test at the end."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from searchlab import search
from searchlab.games.connect4 import ConnectFour
from searchlab.games.tictactoe import TicTacToe

ROOT = Path(__file__).resolve().parents[2]
TEXT = "from numba import njit\n\n\n@njit(cache=True)\ndef f(x):\n    return x * 1000 + 4038\n"
DIGEST = hashlib.sha256(TEXT.encode()).hexdigest()
RUN = f"""
import sys
from searchlab.algorithms.compiled import specialise
mod = specialise.load_copy({TEXT!r}, {DIGEST!r})
print(mod.f(2), len(mod.f.stats.cache_hits), len(mod.f.stats.cache_misses), mod.f.__code__.co_filename)
"""


def _run(cache: Path) -> tuple[list[str], list[str]]:
    """(the words printed: f(2), cache hits, misses, the function's file; the warning lines)."""
    env = dict(os.environ, XDG_CACHE_HOME=str(cache),
               PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("NUMBA_DISABLE_JIT", None)
    env.pop("NUMBA_CACHE_DIR", None)
    out = subprocess.run([sys.executable, "-c", RUN], env=env, cwd=ROOT, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout.split(), [ln for ln in out.stderr.splitlines() if "searchlab: warning" in ln]


def _engine(cache: Path) -> Path:
    return cache / "searchlab" / "engine"


def _files(cache: Path) -> dict[str, Path]:
    d = _engine(cache)
    pyc = d / "__pycache__"
    return {"source": d / f"searchlab_engine_{DIGEST[:24]}.py",
            "code": next(pyc.glob("*.code")), "index": next(pyc.glob("*.nbi")),
            "data": next(pyc.glob("*.nbc"))}


def _one_token(raw: bytes, kind: str) -> bytes:
    """One token changed: the constant 4038 (in the source text, in the marshalled code object,
    as a little-endian int), or one byte inside numba's pickled index / compiled data."""
    if kind == "source":
        return raw.replace(b"4038", b"6557")
    if kind == "code":
        old, new = (4038).to_bytes(4, "little"), (6557).to_bytes(4, "little")
        assert raw.count(old) == 1
        return raw.replace(old, new)
    b = bytearray(raw)
    b[len(b) // 2] ^= 0x01
    return bytes(b)


@pytest.fixture(scope="module")
def warm(tmp_path_factory) -> Path:
    cache = tmp_path_factory.mktemp("warm")
    words, warnings = _run(cache)
    assert words[:3] == ["6038", "0", "1"] and not warnings         # compiled and saved
    words, warnings = _run(cache)
    assert words[:3] == ["6038", "1", "0"] and not warnings         # loaded from disk
    return cache


@pytest.mark.parametrize("kind", ["source", "code", "index", "data"])
def test_one_edited_token_in_any_file_is_set_aside_with_one_warning(kind, warm, tmp_path):
    cache = tmp_path / "c"
    shutil.copytree(warm, cache)
    f = _files(cache)[kind]
    f.write_bytes(_one_token(f.read_bytes(), kind))
    words, warnings = _run(cache)
    assert words[0] == "6038", f"{kind}: a wrong answer from an edited {kind} file"
    assert len(warnings) == 1 and "moved aside" in warnings[0], warnings
    assert any((_engine(cache) / "damaged").iterdir())                 # kept for inspection
    words, warnings = _run(cache)                                      # rebuilt: loads, no word
    assert words[:3] == ["6038", "1", "0"] and not warnings, (kind, words, warnings)


def test_a_moved_or_copied_cache_reads_only_itself(warm, tmp_path):
    """The copy's code records no location: a cache copied (with new modification times) or
    moved elsewhere loads its compiled code from itself, and still works once the original is
    gone; the original is never read or written."""
    copied, moved = tmp_path / "copied", tmp_path / "moved"
    shutil.copytree(warm, copied, copy_function=shutil.copy)          # new mtimes
    shutil.copytree(warm, tmp_path / "orig")
    before = {p: p.stat().st_mtime_ns for p in (tmp_path / "orig").rglob("*")}
    shutil.move(tmp_path / "orig", moved)
    for cache in (copied, moved):
        words, warnings = _run(cache)
        assert words[:3] == ["6038", "1", "0"] and not warnings, (cache, words, warnings)
        assert words[3] == str(_files(cache)["source"])
    assert not (tmp_path / "orig").exists()
    after = {p.relative_to(moved) for p in moved.rglob("*")}
    assert after == {p.relative_to(tmp_path / "orig") for p in before}   # nothing written


C4_RUN = """
from searchlab import search
from searchlab.games.connect4 import ConnectFour
r = search(ConnectFour("4455"), "alphabeta", "natural", depth=6, engine="compiled")
print(r.nodes, r.value)
"""


@pytest.mark.slow
def test_the_connect_four_engine_after_an_edit_of_its_code_object(tmp_path):
    """The issue's case: one token of the Connect Four copy's code object edited; the count is
    the reference engine's, with one warning."""
    ref = search(ConnectFour("4455"), "alphabeta", "natural", depth=6, engine="reference")
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path),
               PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("NUMBA_DISABLE_JIT", None)
    env.pop("NUMBA_CACHE_DIR", None)

    def run():
        out = subprocess.run([sys.executable, "-c", C4_RUN], env=env, cwd=ROOT,
                             capture_output=True, text=True, timeout=900)
        assert out.returncode == 0, out.stderr
        return out.stdout.split(), [ln for ln in out.stderr.splitlines() if "warning" in ln]
    assert run()[0] == [str(ref.nodes), str(ref.value)]
    [code] = (tmp_path / "searchlab" / "engine" / "__pycache__").glob("*.code")
    raw = bytearray(code.read_bytes())
    raw[len(raw) // 2] ^= 0x01
    code.write_bytes(bytes(raw))
    words, warnings = run()
    assert words == [str(ref.nodes), str(ref.value)] and len(warnings) == 1
    assert run() == ([str(ref.nodes), str(ref.value)], [])


# --- a read-only shared cache (a teacher's pre-built cache on a read-only mount) --------------
def _read_only_run(code: str, env: dict, read_only: list[Path]) -> subprocess.CompletedProcess:
    """Run ``python -c code`` with the directories ``read_only`` mounted read-only: as root (which
    ignores permissions) in a private mount namespace (``unshare -m``, bind mounts remounted
    read-only: what a shared read-only mount gives), else with their write permission removed."""
    py = [sys.executable, "-c", code]
    if os.geteuid() != 0:
        for d in read_only:
            for p in [d, *d.rglob("*")]:
                p.chmod(p.stat().st_mode & ~0o222)
        try:
            return subprocess.run(py, env=env, cwd=ROOT, capture_output=True, text=True, timeout=600)
        finally:
            for d in read_only:
                for p in [d, *d.rglob("*")]:
                    p.chmod(p.stat().st_mode | 0o200)
    if shutil.which("unshare") is None:
        pytest.skip("read-only mounts need unshare(1) when the tests run as root")
    script = ('py=$1; code=$2; shift 2; for d; do mount --bind "$d" "$d" && '
              'mount -o remount,bind,ro "$d" "$d" || exit 97; done; exec "$py" -c "$code"')
    out = subprocess.run(["unshare", "-m", "sh", "-c", script, "sh", sys.executable, code,
                          *map(str, read_only)], env=env, cwd=ROOT, capture_output=True,
                         text=True, timeout=600)
    if out.returncode == 97:
        pytest.skip(f"cannot mount read-only here: {out.stderr.strip()}")
    return out


def _state(d: Path) -> dict:
    """Every file and directory under d with its modification time and size (what a write changes)."""
    return {p.relative_to(d): (p.stat().st_mtime_ns, p.stat().st_size) for p in d.rglob("*")}


OTHER = TEXT.replace("4038", "4039")
RUN_BOTH = RUN + f"""
other = specialise.load_copy({OTHER!r}, {hashlib.sha256(OTHER.encode()).hexdigest()!r})
print(other.f(2), len(other.f.stats.cache_hits), len(other.f.stats.cache_misses))
"""


def test_a_read_only_cache_is_used_and_never_written(warm, tmp_path):
    """A warm cache on a read-only mount: its sealed copy is loaded from disk (a cache hit, no
    compile); a copy it lacks is compiled in memory; one warning line says so; nothing there
    changes. A damaged file in it is not used (a second line) and the answer stays right."""
    cache = tmp_path / "shared"
    shutil.copytree(warm, cache)
    env = dict(os.environ, XDG_CACHE_HOME=str(cache),
               PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("NUMBA_DISABLE_JIT", None)
    env.pop("NUMBA_CACHE_DIR", None)
    before = _state(cache)
    out = _read_only_run(RUN_BOTH, env, [cache])
    assert out.returncode == 0, out.stderr
    words = out.stdout.split()
    assert words[:3] == ["6038", "1", "0"]                  # the shared copy: loaded, not compiled
    assert words[3] == str(_files(cache)["source"])
    assert words[4:] == ["6039", "0", "1"]                  # missing there: compiled in memory
    warnings = [ln for ln in out.stderr.splitlines() if "searchlab: warning" in ln]
    assert len(warnings) == 1 and "read-only" in warnings[0] and "in memory" in warnings[0], warnings
    assert _state(cache) == before
    data = _files(cache)["data"]
    data.write_bytes(_one_token(data.read_bytes(), "data"))
    before = _state(cache)
    out = _read_only_run(RUN, env, [cache])
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[:3] == ["6038", "0", "1"]     # the damaged file not used
    warnings = [ln for ln in out.stderr.splitlines() if "searchlab: warning" in ln]
    assert len(warnings) == 2 and "not used (the cache is read-only)" in warnings[1], warnings
    assert _state(cache) == before


PACKAGE_RUN = """
import numpy as np
from searchlab import search
from searchlab.games.tictactoe import TicTacToe
from searchlab.trees import iid_compiled
s = np.array([7, 0, 2, 3, 0, 0, 0], dtype=np.uint64)
r = search(TicTacToe(), "alphabeta", "natural", depth=4, engine="reference")
print(int(iid_compiled.is_terminal(s)), r.nodes, r.value, len(iid_compiled.is_terminal.stats.cache_hits))
"""


def test_the_package_imports_and_runs_when_no_cache_directory_can_be_written(tmp_path):
    """NUMBA_CACHE_DIR, the user-wide cache and the package's own directory all read-only:
    numba found no locator for the package's cache=True functions and import raised; now what
    NUMBA_CACHE_DIR holds is read (a cache hit once it was filled) and the rest compiled in
    memory, with one warning line, and the counts are the usual ones."""
    ref = search(TicTacToe(), "alphabeta", "natural", depth=4, engine="reference")
    numba_dir, home = tmp_path / "nb", tmp_path / "home"
    numba_dir.mkdir()
    home.mkdir()
    env = dict(os.environ, NUMBA_CACHE_DIR=str(numba_dir), XDG_CACHE_HOME=str(home), HOME=str(home),
               PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("NUMBA_DISABLE_JIT", None)
    out = _read_only_run(PACKAGE_RUN, env, [numba_dir, home, ROOT / "searchlab"])
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["0", str(ref.nodes), str(ref.value), "0"]    # compiled
    warnings = [ln for ln in out.stderr.splitlines() if "searchlab: warning" in ln]
    assert len(warnings) == 1 and str(numba_dir) in warnings[0] and "read-only" in warnings[0], warnings
    assert not any(numba_dir.iterdir()) and not any(home.iterdir())
    filled = subprocess.run([sys.executable, "-c", PACKAGE_RUN], env=env, cwd=ROOT,
                            capture_output=True, text=True, timeout=600)     # writable: saved
    assert filled.returncode == 0, filled.stderr
    before = _state(numba_dir)
    out = _read_only_run(PACKAGE_RUN, env, [numba_dir, home, ROOT / "searchlab"])
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["0", str(ref.nodes), str(ref.value), "1"]    # read from it
    assert _state(numba_dir) == before


ENGINE_RUN = """
from searchlab import search
from searchlab.games.connect4 import ConnectFour
r = search(ConnectFour("4455"), "alphabeta", "id+tt+killer+history", depth=5, engine="compiled")
print(r.nodes, r.value)
"""


@pytest.mark.slow
def test_the_compiled_engine_runs_where_nothing_can_be_written(tmp_path):
    """Every cache directory read-only and empty (NUMBA_CACHE_DIR, the user's, the package's):
    the Connect Four engine is compiled in memory and counts what the reference counts, with
    one warning line and nothing written."""
    ref = search(ConnectFour("4455"), "alphabeta", "id+tt+killer+history", depth=5,
                 engine="reference")
    numba_dir, home = tmp_path / "nb", tmp_path / "home"
    (numba_dir / "searchlab_engine").mkdir(parents=True)
    home.mkdir()
    env = dict(os.environ, NUMBA_CACHE_DIR=str(numba_dir), XDG_CACHE_HOME=str(home), HOME=str(home),
               PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("NUMBA_DISABLE_JIT", None)
    before = _state(numba_dir)
    out = _read_only_run(ENGINE_RUN, env, [numba_dir, home, ROOT / "searchlab"])
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == [str(ref.nodes), str(ref.value)]
    warnings = [ln for ln in out.stderr.splitlines() if "searchlab: warning" in ln]
    assert len(warnings) == 1 and "read-only" in warnings[0], warnings
    assert _state(numba_dir) == before and not any(home.iterdir())

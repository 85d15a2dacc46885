"""The compiled engine's per-game copies (searchlab.algorithms.compiled.specialise): their key
follows every source the compiled code depends on, the directory honours NUMBA_CACHE_DIR and
falls back when it cannot be written, and processes load the compiled engine from disk (two
compiling at once on an empty cache: slow), and threads search at once."""

from __future__ import annotations

import ast
import importlib
import os
import subprocess
import sys
import textwrap
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from numba import njit

from searchlab import search
from searchlab.contracts.compiled import Primitives
from searchlab.algorithms.compiled import specialise
from searchlab.errors import UnsupportedError
from searchlab.games.connect4_compiled import PRIMITIVES as C4
from searchlab.games.tictactoe_compiled import PRIMITIVES as TTT
from tests.algorithms.compiled_cases import positions

ROOT = Path(__file__).resolve().parents[2]
HELPER = """
import numpy as np
from numba import njit
TABLE = np.array([1, 2, 3], dtype=np.int64)
@njit(cache=True)
def helper(x):
    return x + 1
"""
GAME = """
from numba import njit
from {pkg}.helper import TABLE, helper
OFFSET = 3
@njit(cache=True)
def evaluate(s):
    return float(helper(s[0]) + TABLE[0] + OFFSET)
"""


def _fake_game(tmp_path, monkeypatch, helper=HELPER, game=GAME):
    """Primitives whose ``evaluate`` comes from the package ``fakegame`` under tmp_path, written
    with these sources and imported afresh (the rest from Connect Four)."""
    d = tmp_path / "fakegame"
    d.mkdir(exist_ok=True)
    (d / "__init__.py").write_text("")
    (d / "helper.py").write_text(textwrap.dedent(helper))
    (d / "game.py").write_text(textwrap.dedent(game.format(pkg="fakegame")))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(sys, "dont_write_bytecode", True)   # no stale .pyc within a second
    for name in [m for m in sys.modules if m.split(".")[0] == "fakegame"]:
        monkeypatch.delitem(sys.modules, name)
    importlib.invalidate_caches()
    mod = importlib.import_module("fakegame.game")
    return C4._replace(evaluate=mod.evaluate)


def test_the_key_follows_every_source_the_compiled_code_depends_on(tmp_path, monkeypatch):
    def key(**sources):
        return specialise.source(_fake_game(tmp_path, monkeypatch, **sources))[1]
    base = key()
    assert key() == base                                        # the same sources
    keys = {key(game=GAME.replace("OFFSET = 3", "OFFSET = 4")),
            # a called function in another file: the edit numba's own cache does not notice
            key(helper=HELPER.replace("x + 1", "x + 2")),
            key(helper=HELPER.replace("[1, 2, 3]", "[1, 2, 4]"))}
    assert base not in keys and len(keys) == 3
    # games differ, the template is the same: the copies differ only in their import block
    (t1, k1), (t2, k2) = specialise.source(C4), specialise.source(TTT)
    assert k1 != k2 and "from searchlab.games.connect4_compiled import play as play" in t1
    assert t1.split("# <primitives>")[0] == t2.split("# <primitives>")[0]


def test_a_primitive_must_be_importable_by_name():
    def make():                                    # a closure-made dispatcher, not importable
        @njit
        def evaluate(s):
            return 0.0
        return evaluate
    with pytest.raises(UnsupportedError, match="primitive evaluate"):
        specialise.source(C4._replace(evaluate=make()))
    assert Primitives._fields[5] == "evaluate"


def test_cache_dir_honours_numba_cache_dir_and_falls_back(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "nb"))
    assert specialise.cache_dir() == tmp_path / "nb" / "searchlab_engine"
    blocked = tmp_path / "file"
    blocked.write_text("not a directory")
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    got = specialise.cache_dir()
    assert got.name.startswith("searchlab-engine-") and got.is_dir()


def test_the_template_has_no_recursive_function():
    """numba crashed loading a recursive function from its on-disk cache (numba #6061, #6713:
    the chess engine, whose quiescence recursed, segfaulted in every warm process)."""
    tree = ast.parse(specialise._TEMPLATE.read_text())
    for fn in [n for n in tree.body if isinstance(n, ast.FunctionDef)]:
        called = {c.func.id for c in ast.walk(fn)
                  if isinstance(c, ast.Call) and isinstance(c.func, ast.Name)}
        assert fn.name not in called, fn.name


_RUN = """
import sys
from searchlab import search
from searchlab.algorithms.compiled.specialise import engine
from searchlab.games.tictactoe import TicTacToe
from searchlab.games.tictactoe_compiled import PRIMITIVES
from searchlab.algorithms.pruning import Pruning, Quiescence
from searchlab.games.chess_game import Chess
from searchlab.games.chess_compiled import PRIMITIVES as CHESS
r = search(TicTacToe(), "alphabeta", "id+tt+killer+history", depth=9, engine="compiled")
q = search(Chess("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"),
           "alphabeta", "captures", depth=2, engine="compiled",
           pruning=Pruning(quiescence=Quiescence(4)))
# every dispatcher of each engine copy: the searches enter through search or, under iterative
# deepening without aspiration, deepen (its callees' code is inside the caller's)
stats = [[getattr(m, n).stats for n in dir(m) if hasattr(getattr(m, n), "stats")]
         for m in (engine(p) for p in (PRIMITIVES, CHESS))]
print(r.value, r.nodes, r.tt_hits, q.nodes, q.q_nodes,
      sum(any(s.cache_hits for s in e) for e in stats),
      sum(len(s.cache_misses) for e in stats for s in e))
"""


@pytest.mark.slow
def test_two_processes_compile_at_once_and_a_third_loads_from_disk(tmp_path):
    """Tic-tac-toe and chess with quiescence (the engine's every function in use)."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path),
               PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("NUMBA_DISABLE_JIT", None)
    cmd = [sys.executable, "-c", _RUN]
    both = [subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=subprocess.PIPE, text=True)
            for _ in range(2)]
    outs = [p.communicate(timeout=900)[0].split() for p in both]
    assert all(p.returncode == 0 for p in both)
    third = subprocess.run(cmd, env=env, cwd=ROOT, stdout=subprocess.PIPE, text=True,
                           timeout=900, check=True).stdout.split()
    assert outs[0][:5] == outs[1][:5] == third[:5] and int(third[4]) > 0
    # both engines loaded from disk (a cache hit in each), nothing compiled
    assert third[5:] == ["2", "0"]
    assert len(list((tmp_path / "searchlab_engine").glob("searchlab_engine_*.py"))) == 2


_CACHED = """
import numpy as np
from fakegame.game import evaluate
from searchlab.algorithms.compiled import specialise
f = specialise.cached((evaluate,)).evaluate
print(f(np.array([5], dtype=np.uint64)), len(f.stats.cache_hits), len(f.stats.cache_misses))
"""


def test_cached_functions_load_from_disk_and_follow_their_callees_sources(tmp_path, monkeypatch):
    """specialise.cached (the chess kernel's entry points): a plain function calling a function
    of another file is compiled once, loaded from disk by the next process, and compiled afresh
    after an edit to the called file (which numba's own cache would not notice)."""
    plain = HELPER.replace("@njit(cache=True)", "@njit")       # as the chess kernel's modules
    fake = _fake_game(tmp_path, monkeypatch, helper=plain,
                      game=GAME.replace("@njit(cache=True)", "@njit")).evaluate
    text, key = specialise.cached_source((fake,))
    assert "@njit(cache=True)\ndef evaluate(s):\n    return _evaluate(s)" in text
    assert specialise.cached_source((fake,))[1] == key
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "nb"), PYTHONPATH=os.pathsep.join(
        [str(tmp_path), str(ROOT), os.environ.get("PYTHONPATH", "")]), PYTHONDONTWRITEBYTECODE="1")
    env.pop("NUMBA_DISABLE_JIT", None)

    def run():
        return subprocess.run([sys.executable, "-c", _CACHED], env=env, cwd=ROOT, text=True,
                              stdout=subprocess.PIPE, timeout=300, check=True).stdout.split()
    assert run() == ["10.0", "0", "1"]                          # compiled
    assert run() == ["10.0", "1", "0"]                          # loaded from disk
    (tmp_path / "fakegame" / "helper.py").write_text(textwrap.dedent(plain.replace("x + 1", "x + 20")))
    assert run() == ["29.0", "0", "1"]                          # the edit: compiled afresh
    with pytest.raises(UnsupportedError, match="two functions named"):
        specialise.cached_source((fake, fake))


def test_threads_search_at_once_with_their_own_buffers():
    """The search runs without the GIL and each thread keeps its own buffers and table: two
    threads searching different games at once get the counts of one thread alone."""
    jobs = [(g, "id+tt+killer+history+centre", 6) for g in positions("connect4", 3, seed=8)]
    jobs += [(g, "tt+history+corners", 3) for g in positions("othello", 3, seed=8)]

    def run(job):
        g, ordering, depth = job
        return search(g, "pvs", ordering, depth=depth, engine="compiled").counts()
    alone = [run(j) for j in jobs]
    with ThreadPoolExecutor(2) as pool:
        together = list(pool.map(run, jobs * 2))
    assert together == alone * 2


def test_prune_deletes_idle_copies_and_their_compiled_files(tmp_path):
    """Copies nobody loaded for IDLE_DAYS go, with numba's files of them; a copy loaded since
    stays, whatever its age (its modification time, which numba keys on, never changes)."""
    old = time.time() - (specialise.IDLE_DAYS + 1) * 86400
    (tmp_path / "__pycache__").mkdir()
    for stem in ("searchlab_engine_idle", "searchlab_engine_used"):
        copy = tmp_path / f"{stem}.py"
        copy.write_text("x = 1\n")
        os.utime(copy, (old, old))
        (tmp_path / "__pycache__" / f"{stem}.search-556.py311.nbi").write_text("")
        (tmp_path / "__pycache__" / f"{stem}.search-556.py311.1.nbc").write_text("")
    specialise._mark_used(tmp_path / "searchlab_engine_used.py")
    assert (tmp_path / "searchlab_engine_used.py").stat().st_mtime == pytest.approx(old)
    other = tmp_path / "notes.py"
    other.write_text("")
    os.utime(other, (old, old))
    assert specialise.prune(tmp_path) == [tmp_path / "searchlab_engine_idle.py"]
    left = sorted(p.name for p in tmp_path.rglob("*") if p.is_file())
    assert left == ["notes.py", "searchlab_engine_used.py",
                    "searchlab_engine_used.search-556.py311.1.nbc",
                    "searchlab_engine_used.search-556.py311.nbi"]


def test_a_new_copy_prunes_idle_ones(tmp_path, monkeypatch):
    """Writing a copy (what an edit of the engine or a primitive causes) prunes the directory;
    the loaded copy is marked used."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    d = specialise.cache_dir()
    idle = d / "searchlab_engine_000000000000000000000000.py"
    idle.write_text("x = 1\n")
    old = time.time() - (specialise.IDLE_DAYS + 1) * 86400
    os.utime(idle, (old, old))
    name = "searchlab_engine_" + specialise.source(TTT)[1][:24]
    monkeypatch.setitem(sys.modules, name, sys.modules.get(name))   # restored afterwards
    mod = specialise._load(TTT)
    assert not idle.exists()
    assert Path(mod.__file__).stat().st_atime > old + 86400


# --- a self-healing cache: every load verifies the copy against its content hash
# and numba's files by numba's own checks; what is damaged is moved aside and rebuilt ---------
def _one_token_edit(text: str) -> str:
    """The copy with one token changed: the first integer literal after the import block."""
    head, tail = text.split(specialise._END, 1)
    import re
    m = re.search(r"(?<![\w.])(\d+)(?![\w.])", tail)
    return head + specialise._END + tail[:m.start()] + str(int(m[1]) + 1) + tail[m.end():]


@pytest.mark.parametrize("damage", ["truncated", "random bytes", "one-token edit"])
def test_a_damaged_or_edited_copy_is_moved_aside_and_rebuilt(damage, tmp_path, monkeypatch, capfd):
    monkeypatch.setattr(specialise, "cache_dir", lambda: tmp_path)
    # the damage check also looks for the copy's numba files anywhere under NUMBA_CACHE_DIR:
    # with it set, this copy's name would reach the real cache's files of the same copy
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    text, digest = specialise.source(TTT)
    path = tmp_path / f"{specialise._PREFIX}{digest[:24]}.py"
    specialise._load(TTT)                                    # written and imported: no compile
    assert path.read_text() == text
    bad = {"truncated": text.encode()[:len(text) // 3],
           "random bytes": os.urandom(len(text)),
           "one-token edit": _one_token_edit(text).encode()}[damage]
    assert bad != text.encode()
    path.write_bytes(bad)
    capfd.readouterr()
    mod = specialise._load(TTT)
    err = capfd.readouterr().err
    assert err.count("\n") == 1 and "searchlab: warning: the compiled engine's cached copy" in err
    assert "does not match its content hash" in err and "moved aside" in err
    assert path.read_text() == text and mod.__file__ == str(path)   # rebuilt from the template
    aside = list((tmp_path / "damaged").iterdir())
    assert len(aside) == 1 and aside[0].read_bytes() == bad         # kept for inspection
    capfd.readouterr()
    specialise._load(TTT)                                           # a good copy: no word
    assert capfd.readouterr().err == ""


def test_a_good_copy_renamed_by_a_concurrent_healer_is_linked_back(tmp_path):
    """Two processes judging one copy: the second renames the good copy the first rewrote;
    it is linked back, not lost, and nothing is reported."""
    text, digest = specialise.source(TTT)
    path = tmp_path / f"{specialise._PREFIX}{digest[:24]}.py"
    path.write_text(text)
    assert specialise.heal(path, text) == [] and path.read_text() == text
    assert not (tmp_path / "damaged").exists() or not list((tmp_path / "damaged").iterdir())


_HEAL_RUN = """
from searchlab import search
from searchlab.algorithms.compiled.specialise import engine
from searchlab.games.tictactoe import TicTacToe
from searchlab.games.tictactoe_compiled import PRIMITIVES
r = search(TicTacToe(), "alphabeta", "id+tt+killer+history", depth=9, engine="compiled")
print(r.value, r.nodes, r.tt_hits)
mod = engine(PRIMITIVES)
print(*sorted(v._cache._cache_file._index_name for v in vars(mod).values()
              if getattr(getattr(v, "py_func", None), "__module__", None) == mod.__name__
              and v.stats.cache_hits))
"""


def _damage(kind: str, f: Path) -> None:
    raw = f.read_bytes()
    if kind == "truncated":
        f.write_bytes(raw[:len(raw) // 2])
    elif kind == "random bytes":
        f.write_bytes(os.urandom(len(raw)))
    else:                                       # one byte edited: the pickle's end
        b = bytearray(raw)
        b[-2] ^= 0xFF
        f.write_bytes(bytes(b))


@pytest.mark.slow
def test_damaged_numba_files_are_moved_aside_and_recompiled(tmp_path):
    """numba's own index (.nbi) and data (.nbc) files of a copy: truncated, random bytes, a
    one-byte edit inside the pickle. numba itself raises on them in every later process; the
    engine's seal check (specialise.VerifiedCacheFile) moves the copy's compiled files aside with
    one warning line and numba compiles again (same counts). Only the files of the functions
    Python calls are read (the callees' code is inside theirs): the warm process names them, and
    each round damages every one of them, indexes or data files, in one way."""
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path),
               PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("NUMBA_DISABLE_JIT", None)
    env.pop("NUMBA_CACHE_DIR", None)
    cmd = [sys.executable, "-c", _HEAL_RUN]

    def run() -> tuple[list[str], list[str]]:
        out = subprocess.run(cmd, env=env, cwd=ROOT, capture_output=True, text=True, timeout=900)
        assert out.returncode == 0, out.stderr
        return out.stdout.splitlines(), [ln for ln in out.stderr.splitlines() if "warning" in ln]
    first, warnings = run()
    assert not warnings, warnings
    warm, warnings = run()                                    # loaded from disk: what is read
    assert warm[0] == first[0] and not warnings and warm[1], (warm, warnings)
    cache = tmp_path / "searchlab" / "engine" / "__pycache__"
    indexes = [cache / name for name in warm[1].split()]
    for kind, suffix in [("truncated", ".nbi"), ("random bytes", ".nbc"), ("one byte", ".nbi")]:
        files = indexes if suffix == ".nbi" else [f for i in indexes
                                                  for f in cache.glob(f"{i.stem}.*.nbc")]
        assert files and all(f.exists() for f in files), (kind, files)
        for f in files:
            _damage(kind, f)
        again, lines = run()
        assert again[0] == first[0], (kind, again)
        assert len(lines) == 1 and "cached copy searchlab_engine_" in lines[0], (kind, lines)
        assert "moved aside" in lines[0]
        third, lines = run()                                  # rebuilt: loaded, no word
        assert third == warm and not lines, (kind, third, lines)


_LOAD_RUN = """
import sys
from searchlab.algorithms.compiled import specialise
from searchlab.games.tictactoe_compiled import PRIMITIVES
sys.stdin.readline()                        # start together: both wait for the go line
mod = specialise._load(PRIMITIVES)
print(mod.__file__)
"""


@pytest.mark.parametrize("round_", range(3))
def test_two_processes_heal_one_damaged_copy_at_once(round_, tmp_path):
    """Two processes find the same edited copy at the same moment: both end with the good
    text imported, the copy on disk is the good text, and the damaged bytes are kept aside
    (never the good copy: a rename of the rewritten copy by the other healer is linked back)."""
    text, digest = specialise.source(TTT)
    engine_dir = tmp_path / "searchlab" / "engine"
    engine_dir.mkdir(parents=True)
    path = engine_dir / f"{specialise._PREFIX}{digest[:24]}.py"
    bad = _one_token_edit(text).encode()
    path.write_bytes(bad)
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path), NUMBA_DISABLE_JIT="1",
               PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("NUMBA_CACHE_DIR", None)
    procs = [subprocess.Popen([sys.executable, "-c", _LOAD_RUN], env=env, cwd=ROOT, text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for _ in range(2)]
    time.sleep(3)                                            # both imported and waiting
    for p in procs:
        p.stdin.write("go\n")
        p.stdin.flush()
    outs = [p.communicate(timeout=300) for p in procs]
    assert all(p.returncode == 0 for p in procs), [o[1] for o in outs]
    assert all(o[0].strip() == str(path) for o in outs)
    assert path.read_text() == text
    aside = list((engine_dir / "damaged").iterdir())
    assert aside and all(f.read_bytes() == bad for f in aside)
    warnings = sum(o[1].count("searchlab: warning") for o in outs)
    assert 1 <= warnings <= 2                                # one line from each healer at most


def test_the_copy_code_is_compiled_once_and_a_damaged_code_file_is_compiled_again(tmp_path, monkeypatch):
    """The copy's code object is kept beside it (whatever PYTHONDONTWRITEBYTECODE says) and
    reused by the next load; a damaged or foreign code file is compiled afresh."""
    import hashlib
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    text = "X = 41 + 1\n"
    digest = hashlib.sha256(text.encode()).hexdigest()
    compiles = []
    real = compile
    monkeypatch.setattr("builtins.compile", lambda *a, **k: compiles.append(1) or real(*a, **k))
    assert specialise.load_copy(text, digest).X == 42 and len(compiles) == 1
    [code] = (tmp_path / "searchlab_engine" / "__pycache__").glob(f"*{digest[:24]}.*.code")
    assert specialise.load_copy(text, digest).X == 42 and len(compiles) == 1      # reused
    code.write_bytes(code.read_bytes()[:-3])                                     # truncated
    assert specialise.load_copy(text, digest).X == 42 and len(compiles) == 2
    code.write_bytes(b"\0" * 4 + code.read_bytes()[4:])                          # another Python
    assert specialise.load_copy(text, digest).X == 42 and len(compiles) == 3
    assert specialise.load_copy(text, digest).X == 42 and len(compiles) == 3

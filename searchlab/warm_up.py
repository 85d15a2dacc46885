"""One first search per compiled engine, and ``searchlab-warm-up``, which runs them onto the disk cache.

    searchlab-warm-up                      every engine, two processes at a time
    searchlab-warm-up chess othello --jobs 1

A fresh machine compiles each game's engine at its first compiled search (12-32 s of CPU per
game, docs/compile-time.md); every later process loads it from the disk cache in well under a
second. :func:`engines` is the one list of what a fresh checkout compiles: per engine, the imports
and one small search (depth 1-2: the time is compilation, not search) that compiles everything
the engine's searches run (the per-game engine copy, the chess kernel, the synthetic-tree
kernel). The test suite's start (tests/conftest.py), the compile-time benchmark
(benchmarks/compile_time.py) and the lab's start (searchlab.lab.compiling) run these snippets.

The engines compile in child Python processes (``jobs`` at once), never in the caller's: each
child takes the next engine when it is done with one, so that the imports and numba's start-up
are paid once per child (its first engine's figures include them), and the caller (pytest, the
lab's server) holds none of the compiled code. The snippets are plain text. The registered
games' engines, and the games the compiled MCTS and the parallel simulator are warmed up on,
come from the game registry (games.registry, each game's GameEntry: whether it has compiled
primitives, its cold compile): this module sits above the games (docs/architecture.md) and reads
the registry when the list is first asked for (:func:`engines`), so a game, a plug-in too, is
warmed up without being named here.

A child reports per engine its CPU seconds (``time.process_time``: the engine's imports, and
the compile or the cache load) and how many functions numba compiled (numba's
``numba:compile`` events; a dispatcher that loads its code from the disk cache fires none): an
engine with no compiled function was already cached.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from tqdm import tqdm

from searchlab.compile_costs import COLD_SECONDS
from searchlab.errors import InvalidParameterError
from searchlab.games.registry import registry

_SEARCH = "from searchlab import search\n"
_CHANCE = "from searchlab.algorithms.chance_search import search_chance\n"
_NPLAYER = "from searchlab.algorithms.multiplayer import search_multiplayer\n"

#: name: (imports, the first searches: one line): the engines that are not a registered game's
#: (synthetic trees, chance and n-player games, the kernels); the registered games' engines are
#: added by :func:`engines` (GAME_SNIPPET). A game on the two-player engine searches twice, in
#: natural order and with iterative deepening: the engine copy's two entry points (``search``
#: and ``deepen``), each compiled at its first call (the lab's default ordering deepens; warming
#: ``search`` alone left its first request compiling ``deepen``). The names are the command's.
ENGINES: dict[str, tuple[str, str]] = {
    "iid": (_SEARCH + "from searchlab.trees.iid import IIDTree",
            "search(IIDTree(4, 4, seed=1), 'alphabeta', 'natural', engine='compiled')"),
    "pig": (_CHANCE + "from searchlab.games.pig import Pig",
            "search_chance(Pig(winscore=20), 'star2', 'static', depth=2, engine='compiled')"),
    "dice_race": (_CHANCE + "from searchlab.games.dice_race import DiceRace",
                  "search_chance(DiceRace(length=8), 'star2', 'static', depth=2, engine='compiled')"),
    "perft": ("from searchlab.games.chesskernel import perft",
              "assert perft('startpos', 3) == 8902"),
    "tree_kernel": ("from searchlab.algorithms.kernels import warm_up", "warm_up()"),
    "rolit": (_NPLAYER + "from searchlab.games.rolit import Rolit",
              "search_multiplayer(Rolit.random(3, 20, 1), 'brs', depth=2, engine='compiled')"),
    "harvest": (_NPLAYER + "from searchlab.games.harvest import Harvest",
                "search_multiplayer(Harvest(3, (3, 4, 5)), 'brs', depth=2, engine='compiled')"),
    # the compiled MCTS: one copy per registered game with two-player compiled primitives (the
    # registry's GameEntry.compiled; Hex's copy serves every size) and per tree model
    "mcts": (_SEARCH + "from searchlab.games.registry import registry\n"
             "from searchlab.trees import IIDTree, IncrementalTree",
             "games = [e.start() for e in registry().values() if e.compiled()]\n"
             "for g in games + [IIDTree(3, 3, seed=1), IncrementalTree(3, 3, seed=1)]:\n"
             "    search(g, 'mcts', max_nodes=200, seed=1, engine='compiled')"),
    # the parallel simulator's kernel: one copy per tree model and per game it simulates
    "parallel_trees": ("from searchlab.parallel import simulate\n"
                       "from searchlab.trees import IIDTree, OrderedTree, IncrementalTree",
                       "for t in (IIDTree(2, 2), OrderedTree(2, 2), IncrementalTree(2, 2)): simulate(t, 'ybwc', 2)"),
    # the parallel simulator's games (registered games with GameEntry.at_state): one copy per game
    "parallel_games": ("from searchlab.parallel import simulate\nfrom searchlab.games.registry import registry",
                       "for e in registry().values():\n"
                       "    if e.at_state is not None: simulate(e.start(), 'ybwc', 2, depth=2)"),
}

#: A registered game's engine (games.registry, the game's own GameEntry, plug-ins included):
#: its start position searched in natural order and with iterative deepening
GAME_SNIPPET = (_SEARCH + "from searchlab.games.registry import entry",
                "g = entry({name!r}).start(); "
                "search(g, 'alphabeta', 'natural', depth=2, engine='compiled'); "
                "search(g, 'alphabeta', 'id+tt+killer+history', depth=2, engine='compiled')")
_FILLED = False


def engines() -> dict[str, tuple[str, str]]:
    """Every engine (``ENGINES``, completed in place on the first call): the registered games
    with compiled primitives (GAME_SNIPPET) and the other engines, the largest cold compile
    first (a game's GameEntry.cold_seconds, the others' COLD_SECONDS; unmeasured ones last, in
    declaration order), so that a parallel run ends sooner."""
    global _FILLED
    if not _FILLED:
        games, cost = {}, dict(COLD_SECONDS)
        for name, e in registry().items():
            try:
                compiled = e.compiled()
            except Exception:  # noqa: BLE001 -- a broken plug-in's first search reports it
                compiled = False
            if compiled:
                games[name] = (GAME_SNIPPET[0], GAME_SNIPPET[1].format(name=name))
                cost[name] = e.cold_seconds()
        merged = {**games, **ENGINES}
        order = sorted(merged, key=lambda n: -(cost.get(n) or -1.0))
        ENGINES.clear()
        ENGINES.update({n: merged[n] for n in order})
        _FILLED = True
    return ENGINES


#: what a warm-up process runs: engine names in on stdin, one marked JSON line out per engine
_CHILD = """\
import contextlib, json, sys, time, traceback
from numba.core import event


class _Count(event.Listener):
    n = 0

    def on_start(self, ev):
        _Count.n += 1

    def on_end(self, ev):
        pass


event.register("numba:compile", _Count())
engines = json.loads(sys.argv[1])
for line in sys.stdin:
    name = line.strip()
    n0, t0 = _Count.n, time.process_time()
    try:
        with contextlib.redirect_stdout(sys.stderr):
            exec(compile("\\n".join(engines[name]), "<warm-up " + name + ">", "exec"), {})
        out = {"name": name, "cpu": time.process_time() - t0, "compiled": _Count.n - n0}
    except BaseException as e:
        out = {"name": name, "error": traceback.format_exception_only(type(e), e)[-1].strip()[:300]}
    print(%r + json.dumps(out), flush=True)
"""
_MARK = "@searchlab-warm-up "
_CHILD = _CHILD % _MARK


@dataclass(frozen=True)
class Outcome:
    """One engine's warm-up: ``cpu`` seconds of its process spent on it, ``compiled``
    functions numba compiled for it (0: it was cached already), ``error`` the one-line error
    (None when it ran)."""

    name: str
    cpu: float
    compiled: int
    error: str | None = None

    @property
    def cached(self) -> bool:
        return self.error is None and self.compiled == 0

    def line(self) -> str:
        if self.error is not None:
            return f"{self.name:12s} FAILED: {self.error}"
        how = "already cached" if self.cached else f"compiled ({self.compiled} functions)"
        return f"{self.name:12s} {self.cpu:6.1f} s CPU  {how}"


def check_names(names: Iterable[str] | None) -> list[str]:
    """The engines named, each once (None: all of them, in :func:`engines`' order; empty: none).
    InvalidParameterError naming the allowed names for an unknown one."""
    known = engines()
    if names is None:
        return list(known)
    out: list[str] = []
    for n in names:
        if n not in known:
            raise InvalidParameterError(f"engine must be one of {', '.join(known)}; got {n!r}")
        if n not in out:
            out.append(n)
    return out


def snippet(name: str) -> str:
    """The Python code of engine ``name``'s first search (imports, then the search)."""
    imports, statement = engines()[check_names([name])[0]]
    return f"{imports}\n{statement}\n"


class _Process:
    """One warm-up process: it runs the engines it is sent, one after the other."""

    def __init__(self, env: dict[str, str] | None) -> None:
        self.p = subprocess.Popen([sys.executable, "-c", _CHILD, json.dumps(engines())], env=env,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True)

    def run(self, name: str) -> Outcome | None:
        """The engine's outcome; None when the process ended first (it is reaped)."""
        try:
            self.p.stdin.write(name + "\n")
            self.p.stdin.flush()
            for line in self.p.stdout:
                if line.startswith(_MARK):
                    r = json.loads(line[len(_MARK):])
                    if "error" in r:
                        return Outcome(name, float("nan"), 0, r["error"])
                    return Outcome(name, float(r["cpu"]), int(r["compiled"]))
        except (BrokenPipeError, OSError):
            pass
        self.p.wait()
        return None

    def close(self) -> None:
        try:
            self.p.stdin.close()
        except OSError:
            pass
        self.p.wait()

    def kill(self) -> None:
        self.p.kill()
        self.p.wait()


def warm_up(names: Iterable[str] | None = None, jobs: int = 2,
            on_done: Callable[[Outcome], None] | None = None,
            env: dict[str, str] | None = None, stop: threading.Event | None = None) -> list[Outcome]:
    """Compile the engines ``names`` (None: all; empty: none) onto the disk cache in ``jobs`` Python
    processes at once, each taking the next engine when it is done with one (so that the
    imports and numba's start-up are paid once per process, not per engine); ``on_done`` is
    called with each outcome as it ends (from the thread that waited for it). Returns the
    outcomes in the order asked. A failed engine is reported (Outcome.error), never raised:
    the first search of that engine compiles it, and reports the error itself. ``stop``, when
    set, ends the processes at once (the engines not done are not reported). InvalidParameterError,
    before any process starts, for an unknown name or ``jobs`` < 1."""
    chosen = check_names(list(names) if names is not None else None)
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise InvalidParameterError(f"jobs must be an integer >= 1; got {jobs!r}")
    todo = list(reversed(chosen))
    done: dict[str, Outcome] = {}
    live: list[_Process] = []
    lock = threading.Lock()
    stop = stop or threading.Event()
    finished = threading.Event()

    def work() -> None:
        proc: _Process | None = None
        while not stop.is_set():
            with lock:
                if not todo:
                    break
                name = todo.pop()
                if proc is None:
                    proc = _Process(env)
                    live.append(proc)
            o = proc.run(name)
            if o is None:
                if stop.is_set():
                    return
                o, proc = Outcome(name, float("nan"), 0,
                                  f"its process ended (exit status {proc.p.returncode})"), None
            with lock:
                done[name] = o
            if on_done is not None:
                on_done(o)
        if proc is not None:
            proc.close()

    def watch() -> None:                # ends the processes at once when ``stop`` is set
        while not finished.wait(0.1):
            if stop.is_set():
                with lock:
                    for q in live:
                        if q.p.poll() is None:
                            q.kill()
                return

    threads = [threading.Thread(target=work, daemon=True) for _ in range(min(jobs, len(chosen)))]
    watcher = threading.Thread(target=watch, daemon=True)
    for t in threads + [watcher]:
        t.start()
    for t in threads:
        t.join()
    finished.set()
    watcher.join()
    return [done[n] for n in chosen if n in done]


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="searchlab-warm-up",
        description="Compile searchlab's numba engines onto the disk cache (in parallel processes), "
                    "so that the first compiled search of a game loads them instead of compiling "
                    "(docs/compile-time.md).")
    p.add_argument("engines", nargs="*", metavar="ENGINE",
                   help=f"engines to compile (default all): {', '.join(engines())}")
    p.add_argument("--jobs", "-j", type=int, default=2,
                   help="processes at a time (default 2; each compiles one engine, single-threaded)")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """``searchlab-warm-up [ENGINE ...] [--jobs N]``: exit status 0, 1 when an engine failed, 2
    for bad arguments."""
    args = _parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    try:
        names = check_names(args.engines or None)
        if args.jobs < 1:
            raise InvalidParameterError(f"--jobs must be an integer >= 1; got {args.jobs}")
    except InvalidParameterError as e:
        print(f"searchlab-warm-up: error: {e}", file=sys.stderr)
        return 2
    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        print("searchlab-warm-up: NUMBA_DISABLE_JIT=1: nothing is compiled, nothing to do")
        return 0
    bar = tqdm(total=len(names), desc="compiling", unit="engine", file=sys.stderr)

    def done(o: Outcome) -> None:
        bar.write(o.line())
        bar.update(1)

    outcomes = warm_up(names, args.jobs, on_done=done)
    bar.close()
    failed = [o.name for o in outcomes if o.error is not None]
    total = sum(o.cpu for o in outcomes if o.error is None)
    print(f"{len(outcomes) - len(failed)} of {len(outcomes)} engines ready ({total:.1f} s CPU in all)"
          + (f"; failed: {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

"""Real parallel alpha-beta on games: Lazy SMP, ABDADA and YBWC in numba nogil threads.

Every worker is a Python thread; the node search runs in the simulator's kernel (the game's
copy of _sim_kernel.run in MODE_THREAD, compiled with ``nogil=True``, so threads run truly at
once) over the game's compiled primitives, with the simulator's policy (Policy: the compiled
engine's ordering, each worker's own killers and history) and one shared transposition table in
numpy memory (lockless-hashing check words: a torn entry reads as a miss).

- **Lazy SMP / ABDADA**: every worker searches the root (the simulator's rules: Lazy SMP's
  helpers order all but the first move by their own hash; ABDADA defers nodes another worker is
  searching); the first to complete it stops the others.
- **YBWC**: the plies above ``split_plies`` are searched by a coordinator in Python, the same
  alpha-beta node for node (table probe and store, the policy's order, killers and history):
  a node becomes a split point once its eldest child is searched without a cutoff; its owner
  and every idle worker then take its remaining children one at a time (an idle worker the
  split point nearest the root); a cutoff stops every job under the split point (their numba
  searches poll a stop flag). At and below ``split_plies`` a job is one sequential numba search.
  With one worker this is the sequential search, node for node.

Real runs are not deterministic: timing decides who searches what, so node counts vary from run
to run; the value never does (it is the sequential search's, tests/parallel/test_games.py).
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from searchlab.errors import InvalidParameterError
from searchlab.parallel import _events as K
from searchlab.parallel import game_simulation as GS
from searchlab.parallel.real import run_threads
from searchlab.parallel.simulate import ALGORITHMS, Costs, _check_int

REAL_ALGORITHMS = ("lazy-smp", "abdada", "ybwc")
MAX_WORKERS = 64


@dataclass(frozen=True)
class RealGameResult:
    """One real parallel search: ``value`` (MAX's view) and ``best_move`` (the game's move),
    every worker's node visits (``per_worker_nodes``, summed in ``nodes``; aborted work
    included), ``splits`` (YBWC), the wall-clock seconds from starting the workers to joining
    them, and the process CPU seconds over that span (``cpu_time / wall_time`` near the number
    of workers: they really ran at once; near 1: the machine gave them one core)."""

    algorithm: str
    workers: int
    game: str
    depth: int
    ordering: str
    value: float
    best_move: Any
    nodes: int
    per_worker_nodes: tuple[int, ...]
    tt_cutoffs: int
    splits: int
    wall_time: float
    cpu_time: float


@dataclass(eq=False)                   # compared by identity
class _SplitPoint:
    """A YBWC split point: the children after the eldest, taken one at a time."""

    row: np.ndarray
    ply: int
    moves: list
    alpha: float
    beta: float
    maxing: bool
    value: float
    best: int
    owner: int
    next: int = 0
    active: int = 0
    cut: bool = False
    dead: bool = False                 # an enclosing split point was cut: discard everything
    stops: dict = field(default_factory=dict)      # id -> a running job's stop flag
    inner: list = field(default_factory=list)


class _YBWC:
    """The coordinator of one real YBWC search (see the module docstring)."""

    def __init__(self, game, cg, workers, depth, pol, split_plies, tt_bits):
        self.cg, self.G, self.workers, self.depth = cg, cg.prims, workers, depth
        self.kern = GS.kernel(cg)           # the game's copy of the simulator kernel
        self.pol, self.split_plies = pol, split_plies
        self.a = GS.allocate(cg, workers, depth, tt_bits if pol.table else 0)
        self.cv = threading.Condition()
        self.open: list[_SplitPoint] = []
        self.finished = False
        self.splits = 0
        self.best = -1                 # the root's best move id, once the root is done
        self.root = cg.encode(game.initial_state())

    # --- a job: one sequential numba search -------------------------------------------------
    def job(self, w: int, row: np.ndarray, ply: int, alpha: float, beta: float,
            ctx: _SplitPoint | None) -> float | None:
        stop = np.zeros(1, np.int64)
        with self.cv:
            if ctx is not None:
                if ctx.cut or ctx.dead:
                    return None
                ctx.stops[id(stop)] = stop
        self.a["S"][w, ply] = row
        res = np.zeros(K.NR, np.float64)
        GS.call_run(self.cg, K.MODE_THREAD, w, K.ALG_YBWC, self.workers, self.depth, ply, alpha,
                    beta, self.pol, 0, Costs(), 1, 0, 2**62, self.a, stop, res)
        if ctx is not None:
            with self.cv:
                del ctx.stops[id(stop)]
        return float(res[K.R_VALUE]) if res[K.R_STATUS] == 0 else None

    def kill(self, sp: _SplitPoint) -> None:
        """Stop every job under split point sp (its value is final, or it is dead); lock held."""
        for stop in sp.stops.values():
            stop[0] = 1
        for inner in sp.inner:
            inner.dead = True
            self.kill(inner)

    # --- a coordinator node -----------------------------------------------------------------
    def search(self, w: int, row: np.ndarray, ply: int, alpha: float, beta: float,
               ctx: _SplitPoint | None) -> float | None:
        G, a, ip, kern = self.G, self.a, self.pol.ip, self.kern
        if ply >= self.split_plies or ply >= self.depth or G.is_terminal(row):
            return self.job(w, row, ply, alpha, beta, ctx)
        cnt = a["cnt"]
        cnt[w, K.C_NODES] += 1
        key = np.uint64(0)
        if self.pol.table:
            key = np.uint64(G.hash_key(row))
            if ply > 0:
                cnt[w, K.C_TT_PROBES] += 1
                found, sd, bound, tv, _m = kern.tt_read(a["t_chk"], a["t_vb"], a["t_vf"],
                                                      a["t_meta"], key)
                if found:
                    cnt[w, K.C_TT_HITS] += 1
                    if sd >= self.depth - ply and (
                            bound == K.EXACT or (bound == K.LOWER and tv >= beta)
                            or (bound == K.UPPER and tv <= alpha)):
                        cnt[w, K.C_TT_CUTOFFS] += 1
                        return tv
        maxing = bool(G.max_to_move(row))
        moves = np.zeros(self.cg.max_moves, np.int64)
        scratch = np.zeros(self.cg.state_size, np.uint64)
        with np.errstate(over="ignore"):
            n = kern.order_node(row, scratch, moves, a["KF"][w, ply], a["KU"][w, ply], ip,
                              np.uint64(self.pol.order_salt), a["killers"][w, ply], a["hist"][w],
                              a["t_chk"], a["t_vb"], a["t_vf"], a["t_meta"], key, maxing)
        alpha0, beta0 = alpha, beta
        child = np.zeros(self.cg.state_size, np.uint64)
        G.play(row, moves[0], child)
        c = self.search(w, child, ply + 1, alpha, beta, ctx)
        if c is None:
            return None
        v, best = c, int(moves[0])
        if (v >= beta) if maxing else (v <= alpha):
            kern.learn(ip, a["killers"][w, ply], a["hist"][w], maxing, best, self.depth - ply)
            return self.store(key, ply, v, alpha0, beta0, best)
        if n == 1:
            return self.store(key, ply, v, alpha0, beta0, best)
        if maxing:
            alpha = max(alpha, v)
        else:
            beta = min(beta, v)
        sp = _SplitPoint(row.copy(), ply, [int(m) for m in moves[1:n]], alpha, beta, maxing, v,
                         best, w)
        with self.cv:
            if ctx is not None:
                if ctx.cut or ctx.dead:
                    return None
                ctx.inner.append(sp)
            self.open.append(sp)
            self.splits += 1
            self.cv.notify_all()
        while self.work_on(w, sp):            # the owner works on its own split point too
            pass
        with self.cv:
            if sp in self.open:
                self.open.remove(sp)
            while sp.active > 0:
                self.cv.wait()
            if ctx is not None:
                ctx.inner.remove(sp)
            if sp.dead:
                return None
        return self.store(key, ply, sp.value, alpha0, beta0, sp.best)

    def store(self, key, ply, v, alpha0, beta0, best) -> float:
        if ply == 0:
            self.best = best
        if self.pol.table:
            a = self.a
            self.kern.tt_write(a["t_chk"], a["t_vb"], a["t_vf"], a["t_meta"], key,
                               self.depth - ply, v, alpha0, beta0, best)
        return v

    def work_on(self, w: int, sp: _SplitPoint) -> bool:
        """Take sp's next child, search it, fold its value in; False when there was none."""
        with self.cv:
            if sp.cut or sp.dead or sp.next >= len(sp.moves):
                if sp in self.open:
                    self.open.remove(sp)
                return False
            m = sp.moves[sp.next]
            sp.next += 1
            sp.active += 1
            alpha, beta = sp.alpha, sp.beta
        child = np.zeros(self.cg.state_size, np.uint64)
        self.G.play(sp.row, m, child)
        c = self.search(w, child, sp.ply + 1, alpha, beta, sp)
        with self.cv:
            sp.active -= 1
            if c is not None and not sp.cut and not sp.dead:
                if (c > sp.value) if sp.maxing else (c < sp.value):
                    sp.value, sp.best = c, m
                if (sp.value >= sp.beta) if sp.maxing else (sp.value <= sp.alpha):
                    sp.cut = True
                    self.kern.learn(self.pol.ip, self.a["killers"][sp.owner, sp.ply],
                             self.a["hist"][sp.owner], sp.maxing, m, self.depth - sp.ply)
                    self.kill(sp)
                elif sp.maxing:
                    sp.alpha = max(sp.alpha, sp.value)
                else:
                    sp.beta = min(sp.beta, sp.value)
            self.cv.notify_all()
        return True

    def helper(self, w: int) -> None:
        """An idle worker: the open split point nearest the root with a child left, until the
        search is over."""
        while True:
            with self.cv:
                while True:
                    if self.finished:
                        return
                    avail = [sp for sp in self.open
                             if not (sp.cut or sp.dead) and sp.next < len(sp.moves)]
                    if avail:
                        sp = min(avail, key=lambda s: s.ply)
                        break
                    self.cv.wait()
            self.work_on(w, sp)

    def run(self) -> tuple[float, int]:
        out: list = [None]
        errors: list = []

        def main() -> None:
            try:
                out[0] = self.search(0, self.root, 0, -math.inf, math.inf, None)
            except BaseException as e:  # noqa: BLE001 -- re-raised in the calling thread
                errors.append(e)
            with self.cv:
                self.finished = True
                self.cv.notify_all()

        threads = [threading.Thread(target=main)] + [
            threading.Thread(target=self.helper, args=(w,)) for w in range(1, self.workers)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        if errors:
            raise errors[0]
        return out[0], self.splits


def parallel_search(game: Any, algorithm: str, workers: int, *, depth: int,
                    ordering: str = "tt", split_plies: int = 4, tt_bits: int = 20,
                    seed: int = 0, ordering_seed: int = 0) -> RealGameResult:
    """Search ``game`` with ``workers`` real threads of ``algorithm`` ("lazy-smp", "abdada",
    "ybwc"; module docstring) to ``depth`` plies under ``ordering`` (games.policy; tt needed by
    Lazy SMP and ABDADA). ``split_plies``: YBWC's split points are the plies below it.
    InvalidParameterError / UnsupportedError (naming the parameter) before any work."""
    if algorithm not in REAL_ALGORITHMS:
        raise InvalidParameterError(f"algorithm must be one of {', '.join(REAL_ALGORITHMS)}; "
                                    f"got {algorithm!r}")
    workers = _check_int("workers", workers, 1, MAX_WORKERS)
    tt_bits = _check_int("tt_bits", tt_bits, 1, 30)
    cg = GS.compiled_or_refuse(game)
    depth = GS.game_depth(game, cg, depth)
    split_plies = _check_int("split_plies", split_plies, 1, depth)
    pol = GS.policy(game, cg, ordering, algorithm, ordering_seed)
    _warm(game, cg, pol)
    t0, c0 = time.perf_counter(), time.process_time()
    if algorithm == "ybwc":
        co = _YBWC(game, cg, workers, depth, pol, split_plies, tt_bits)
        value, splits = co.run()
        a = co.a
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        if value is None:
            raise RuntimeError("real YBWC: the root search was aborted")
        best_move = cg.move_of(co.best) if co.best >= 0 else None
    else:
        a = GS.allocate(cg, workers, depth, tt_bits)
        a["S"][:, 0, :] = cg.encode(game.initial_state())
        results, wall, cpu, w = run_threads(
            GS.call_run, lambda q: (cg, K.MODE_THREAD, q, ALGORITHMS[algorithm], workers, depth, 0,
                                    -math.inf, math.inf, pol, seed, Costs(), 1, 0, 2**62, a),
            workers, f"real {algorithm}")
        value, best, splits = float(results[w][K.R_VALUE]), int(results[w][K.R_BEST]), 0
        best_move = cg.move_of(best) if best >= 0 else None
    cnt = a["cnt"]
    return RealGameResult(
        algorithm=algorithm, workers=workers, game=game.name, depth=depth, ordering=ordering,
        value=float(value), best_move=best_move, nodes=int(cnt[:, K.C_NODES].sum()),
        per_worker_nodes=tuple(int(x) for x in cnt[:, K.C_NODES]),
        tt_cutoffs=int(cnt[:, K.C_TT_CUTOFFS].sum()), splits=splits, wall_time=wall,
        cpu_time=cpu)


_warmed: set = set()


def _warm(game, cg, pol) -> None:
    """Compile (or load) the kernel for this game before the clock starts (a depth-1 search)."""
    if id(cg.prims) in _warmed:
        return
    a = GS.allocate(cg, 1, 1, 1)
    a["S"][:, 0, :] = cg.encode(game.initial_state())
    GS.call_run(cg, K.MODE_THREAD, 0, K.ALG_YBWC, 1, 1, 0, -math.inf, math.inf, pol, 0, Costs(),
                1, 0, 2**62, a, np.zeros(1, np.int64), np.zeros(K.NR))
    GS.kernel(cg).order_node(a["S"][0, 0], a["S"][0, 1], a["MV"][0, 0], a["KF"][0, 0],
                  a["KU"][0, 0], pol.ip, np.uint64(0), a["killers"][0, 0], a["hist"][0],
                  a["t_chk"], a["t_vb"], a["t_vf"], a["t_meta"], np.uint64(0), True)
    _warmed.add(id(cg.prims))

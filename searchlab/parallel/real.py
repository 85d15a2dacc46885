"""A real parallel search on this machine's cores: Lazy SMP with numba nogil threads.

Each worker is a Python thread running the simulator's own step code (the tree's copy of
_sim_kernel.run in MODE_THREAD, compiled with ``nogil=True``, so the threads run truly in
parallel) on one shared transposition table (the simulator's plain table) in numpy memory; entries carry a lockless-hashing check word, so a
torn entry written by a racing thread reads as a miss. Worker 0 searches in natural order,
worker k > 0 keeps the first move first and orders the rest by its own hash (the simulator's
Lazy SMP). The first worker to complete the root stops the others. Unlike the simulator, a real
run is not deterministic: which worker wins and the node counts vary from run to run.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from searchlab.contracts.compiled import compiled_game
from searchlab.parallel import _events as K
from searchlab.parallel import game_simulation as GS
from searchlab.parallel.simulate import Costs, _check_int, _tree_params


@dataclass(frozen=True)
class RealResult:
    """One real Lazy SMP search: ``value`` (MAX's view) and ``best_move`` of the worker that
    completed the root first (``winner``), every worker's node visits (``per_worker_nodes``,
    summed in ``nodes``), the wall-clock seconds from starting the threads to joining them, and
    the process CPU seconds over the same span (``cpu_time / wall_time`` near the number of
    workers means the threads really ran at once; near 1, the machine gave them one core)."""

    workers: int
    tree: str
    depth: int
    value: float
    best_move: int | None
    winner: int
    nodes: int
    per_worker_nodes: tuple[int, ...]
    tt_cutoffs: int
    wall_time: float
    cpu_time: float


def run_threads(target: Any, lead_args: Any, workers: int, what: str
                ) -> tuple[list[np.ndarray], float, float, int]:
    """Run ``workers`` threads of ``target(*lead_args(q), stop, results[q])`` (a nogil kernel in
    MODE_THREAD sharing ``stop``, the flag the first worker to finish the root sets) and wait
    for them: (results, wall seconds, this process's CPU seconds, the first worker that
    completed the root). Raises RuntimeError naming ``what`` when none did."""
    stop = np.zeros(1, np.int64)
    results = [np.zeros(K.NR, np.float64) for _ in range(workers)]
    threads = [threading.Thread(target=target, args=(*lead_args(q), stop, results[q]))
               for q in range(workers)]
    t0, c0 = time.perf_counter(), time.process_time()
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    winners = [q for q in range(workers) if results[q][K.R_STATUS] == 0]
    if not winners:
        raise RuntimeError(f"{what}: no worker completed the root")
    return results, wall, cpu, winners[0]


def lazy_smp_threads(tree: Any, workers: int, *, depth: int | None = None, tt_bits: int = 20,
                     seed: int = 0) -> RealResult:
    """Search ``tree`` with ``workers`` real threads of Lazy SMP (see the module docstring).

    With one worker it is sequential fail-soft alpha-beta in natural order (its node count is
    the simulator's ``seq_nodes``). Raises InvalidParameterError / UnsupportedError before any
    work, as ``simulate`` does.
    """
    workers = _check_int("workers", workers, 1, 64)
    tt_bits = _check_int("tt_bits", tt_bits, 1, 30)
    depth = _tree_params(tree, depth)[1]
    cg = compiled_game(tree)
    arrays = GS.allocate(cg, workers, depth, tt_bits)
    arrays["S"][:, 0, :] = cg.encode(tree.initial_state())
    pol = GS.plain_policy("lazy-smp")
    results, wall, cpu, w = run_threads(
        GS.call_run, lambda q: (cg, K.MODE_THREAD, q, K.ALG_LAZY, workers, depth, 0, -np.inf,
                                np.inf, pol, seed, Costs(), 1, depth + 1, 2**62, arrays),
        workers, "lazy_smp_threads")
    cnt = arrays["cnt"]
    best = int(results[w][K.R_BEST])
    return RealResult(workers=workers, tree=tree.name, depth=depth,
                      value=float(results[w][K.R_VALUE]), best_move=best if best >= 0 else None,
                      winner=w, nodes=int(cnt[:, K.C_NODES].sum()),
                      per_worker_nodes=tuple(int(x) for x in cnt[:, K.C_NODES]),
                      tt_cutoffs=int(cnt[:, K.C_TT_CUTOFFS].sum()), wall_time=wall,
                      cpu_time=cpu)

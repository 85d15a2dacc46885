"""Simulated parallel alpha-beta: ``simulate(tree, algorithm, p)`` and its result record.

Two engines give the same numbers on the synthetic trees in natural order: the readable
simulator (reference_simulator.py, the specification) and the compiled one (_sim_kernel.py over
the tree's compiled primitives, for speed; its wrapper game_simulation.py).

A deterministic discrete-event simulation of p virtual processors (1..256) searching a
synthetic tree (IIDTree, OrderedTree, IncrementalTree) in natural move order, or any game with
compiled primitives (Connect Four, Othello, ...) or synthetic tree under a move-ordering policy,
with PV-splitting, YBWC, ABDADA or Lazy SMP (rules: docs/parallel.md; code: _sim_kernel.py and
_events.py, one kernel for trees and games). The clock counts
node visits: every visit costs ``Costs.node``; a split, a message and a transposition-table
access cost what ``Costs`` says. Same inputs, same numbers, bit for bit.

The sequential reference is fail-soft alpha-beta with the same ordering (searchlab.search(tree,
"alphabeta", ordering), with a transposition table when the ordering names tt): its node count
is ``seq_nodes`` and its time ``seq_nodes * node``.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from numbers import Integral, Real
from typing import Any

import numpy as np

from searchlab.contracts.compiled import compiled_game
from searchlab.algorithms.kernels import _model_of, _params
from searchlab.algorithms.kernels._alphabeta import MODEL_INCREMENTAL
from searchlab.errors import InvalidParameterError, UnsupportedError
from searchlab.hashing import MASK64, mix64
from searchlab.parallel import _events as K
from searchlab.parallel import game_simulation as GS
from searchlab.parallel.reference_simulator import COUNTERS, Simulation

ALGORITHMS = {"pv-split": K.ALG_PVSPLIT, "ybwc": K.ALG_YBWC, "abdada": K.ALG_ABDADA,
              "lazy-smp": K.ALG_LAZY}
MAX_PROCESSORS = 256
_HELPER_SALT = 0x8CB92BA72F3D8DD7


@dataclass(frozen=True)
class Costs:
    """Costs in node-visit units. A split (copying a position and publishing a split point)
    costs ``split``; a message (a helper joining a split point or reporting its result, an
    owner woken) ``message``; one probe or store of the shared table ``tt``."""

    node: float = 1.0
    split: float = 8.0
    message: float = 2.0
    tt: float = 0.25

    def __post_init__(self) -> None:
        for name in ("node", "split", "message", "tt"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, Real) or not math.isfinite(v) or v < 0 \
                    or (name == "node" and v <= 0):
                allowed = "> 0" if name == "node" else ">= 0"
                raise InvalidParameterError(f"costs.{name} must be a finite number {allowed}; got {v!r}")


@dataclass(frozen=True)
class SimResult:
    """One simulated parallel search.

    ``value`` is the root's minimax value (MAX's view) as the search proved it, ``best_move``
    the root move that proved it. ``nodes`` counts every node visit of every processor (the
    aborted jobs' and the deferred ABDADA answers' included), ``seq_nodes`` the sequential
    alpha-beta's; ``search_overhead = nodes / seq_nodes - 1``. ``time`` is the simulated time at
    which the root's value was known, ``seq_time`` the sequential search's (``seq_nodes *
    costs.node``; under a policy with tt plus its table accesses), ``speedup =
    seq_time / time``; ``idle`` sums the processors' idle time (no work, or an owner waiting for
    its split point) up to ``time``, ``idle_fraction = idle / (p * time)``.
    ``status`` is "ok" or "aborted" (``max_nodes`` exhausted; value None). ``best_move`` is the
    game's move (an int on synthetic trees), ``ordering`` the move-ordering policy.
    """

    algorithm: str
    p: int
    tree: str
    depth: int
    value: float | None
    best_move: Any
    nodes: int
    leaves: int
    seq_nodes: int
    time: float
    seq_time: float
    speedup: float
    search_overhead: float
    idle: float
    idle_fraction: float
    splits: int
    jobs: int
    messages: int
    aborts: int
    tt_probes: int
    tt_hits: int
    tt_cutoffs: int
    deferred: int
    per_processor_nodes: tuple[int, ...]
    status: str
    costs: Costs
    wall_time: float = field(default=0.0, compare=False)
    ordering: str = "natural"

    def row(self) -> dict[str, Any]:
        """The record as a flat dict (one table row; costs spread into cost_* columns)."""
        d = {k: getattr(self, k) for k in self.__dataclass_fields__
             if k not in ("costs", "per_processor_nodes")}
        d.update({f"cost_{k}": getattr(self.costs, k) for k in ("node", "split", "message", "tt")})
        return d


def _check_int(name: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, Integral) or not low <= value <= high:
        raise InvalidParameterError(f"{name} must be an integer in [{low}, {high}]; got {value!r}")
    return int(value)


def _tree_params(tree: Any, depth: int | None):
    model = _model_of(tree)
    if model is None:
        raise UnsupportedError(
            f"the parallel simulator runs on the synthetic tree models (iid, ordered, incremental); "
            f"got {getattr(tree, 'name', type(tree).__name__)} (games are not simulated yet)")
    prm = _params(tree, model)
    if depth is None:
        depth = prm.d
    depth = _check_int("depth", depth, 0, prm.d)
    if depth < prm.d and model != MODEL_INCREMENTAL:
        raise UnsupportedError(
            f"depth={depth} is below the tree's depth {prm.d}, but {tree.name} has no static values: "
            "use depth=None, or the incremental tree model")
    return prm, depth


def _run(tree: Any, depth: int, algorithm: str, p: int, costs: Costs, min_split: int,
         tt_bits: int, seed: int, max_nodes: int):
    """The kernel on a synthetic tree in natural order (the readable simulator's search)."""
    return GS.run_simulation(tree, compiled_game(tree), ALGORITHMS[algorithm], p, depth,
                             GS.plain_policy(algorithm), costs, min_split, depth + 1, tt_bits,
                             seed, max_nodes)


def _run_reference(tree: Any, depth: int, algorithm: str, p: int, costs: Costs, min_split: int,
                   tt_bits: int, seed: int, max_nodes: int):
    """The readable simulator's outcome in the compiled one's shapes."""
    sim = Simulation(tree, algorithm, p, depth, costs, min_split, tt_bits,
                     mix64((int(seed) & MASK64) ^ _HELPER_SALT), max_nodes)
    status, value, best, ptime, winner = sim.run()
    cnt = np.array([[q.count[k] for k in COUNTERS] for q in sim.procs], np.int64)
    idle = np.array([q.idle for q in sim.procs], np.float64)
    code = {"ok": 0, "aborted": 1}.get(status, 2)
    return (code, value if value is not None else 0.0, best, ptime, winner), cnt, idle


def sequential_nodes(tree: Any, depth: int | None = None) -> int:
    """Nodes of sequential fail-soft alpha-beta in natural order (the simulator at p = 1 with
    YBWC, which never splits); equal to searchlab.search(tree, "alphabeta").nodes."""
    depth = _tree_params(tree, depth)[1]
    _, cnt, _ = _run(tree, depth, "ybwc", 1, Costs(), 2, 1, 0, 2**62)
    return int(cnt[:, K.C_NODES].sum())


def simulate(tree: Any, algorithm: str, p: int, *, depth: int | None = None,
             costs: Costs = Costs(), min_split: int = 2, tt_bits: int = 20, seed: int = 0,
             max_nodes: int | None = None, seq_nodes: int | None = None,
             engine: str = "kernel", ordering: str = "natural", split_plies: int | None = None,
             ordering_seed: int = 0, seq_time: float | None = None) -> SimResult:
    """Simulate ``algorithm`` ("pv-split", "ybwc", "abdada", "lazy-smp") with ``p`` processors.

    - depth: the horizon (default the tree's d; below d only on the incremental tree).
    - costs: a Costs record (node-visit units).
    - min_split: PV-split/YBWC split only at nodes at least this many plies above the horizon.
    - tt_bits: the shared table (ABDADA, Lazy SMP) has 2^tt_bits slots.
    - seed: seeds Lazy SMP's helper orders.
    - max_nodes: a safety budget on the total node visits (status "aborted" beyond it).
    - seq_nodes: the sequential alpha-beta's node count if already known (else computed).
    - seq_time: under a policy (games; trees under another ordering than natural or with
      split_plies), the sequential search's simulated time (its node visits and,
      with tt, its table accesses) if already known; else computed with seq_nodes, or
      ``seq_nodes * costs.node`` when only seq_nodes is given. On trees in natural order it is
      always ``seq_nodes * costs.node`` (the sequential search has no table).
    - engine: "kernel" (compiled, _sim_kernel.py) or "reference" (the readable simulator,
      reference_simulator.py: the same numbers, slowly; its seq_nodes comes from the reference too;
      synthetic trees in natural order only).
    - ordering: the move-ordering policy (default natural): a base order (natural, random,
      static, or the game's own, e.g. centre, corners) and the dynamic components tt (a shared
      transposition table of 2^tt_bits slots, its move first), killer and history (each
      processor's own), e.g. "centre+tt+killer+history". ABDADA and Lazy SMP need tt on games
      and under any ordering but natural (on trees in natural order they use the readable
      simulator's own table).
    - split_plies: PV-split/YBWC split only at plies below it (default: anywhere; games only).
    - ordering_seed: seeds the random base order.

    Raises InvalidParameterError / UnsupportedError (naming the parameter) before any work.
    """
    if algorithm not in ALGORITHMS:
        raise InvalidParameterError(f"algorithm must be one of {', '.join(ALGORITHMS)}; got {algorithm!r}")
    p = _check_int("p", p, 1, MAX_PROCESSORS)
    if not isinstance(costs, Costs):
        raise InvalidParameterError(f"costs must be a searchlab.parallel.Costs; got {costs!r}")
    min_split = _check_int("min_split", min_split, 1, 10**6)
    tt_bits = _check_int("tt_bits", tt_bits, 1, 30)
    if isinstance(seed, bool) or not isinstance(seed, Integral) or seed < 0:
        raise InvalidParameterError(f"seed must be an integer >= 0; got {seed!r}")
    budget = 2**62 if max_nodes is None else _check_int("max_nodes", max_nodes, 1, 2**62)
    if seq_nodes is not None:        # a speedup's denominator: a count of nodes, >= 1
        seq_nodes = _check_int("seq_nodes", seq_nodes, 1, 2**62)
    if seq_time is not None and not (isinstance(seq_time, (int, float)) and not isinstance(
            seq_time, bool) and 0 < seq_time < math.inf):
        raise InvalidParameterError(f"seq_time must be a finite number > 0 (or None: computed); "
                                    f"got {seq_time!r}")
    if engine not in ("kernel", "reference"):
        raise InvalidParameterError(f"engine must be kernel or reference; got {engine!r}")
    on_games = _model_of(tree) is None or ordering != "natural" or split_plies is not None
    if on_games:
        if engine != "kernel":
            raise UnsupportedError("engine='reference' simulates the synthetic trees in natural "
                                   "order only; use engine='kernel'")
        cg = GS.compiled_or_refuse(tree)
        depth = GS.game_depth(tree, cg, depth)
        pol = GS.policy(tree, cg, ordering, algorithm, ordering_seed)
        sp = depth + 1 if split_plies is None else _check_int("split_plies", split_plies, 1, depth)
        if seq_nodes is None:
            # the same search on one processor (YBWC never splits at p = 1), with these costs
            out1, cnt1, _ = GS.run_simulation(tree, cg, K.ALG_YBWC, 1, depth, pol, costs, 2, sp,
                                              tt_bits, 0, 2**62)
            seq_nodes = int(cnt1[:, K.C_NODES].sum())
            seq_time = out1[3] if seq_time is None else seq_time
        t0 = time.perf_counter()
        (status, value, best, ptime, _winner), cnt, idle = GS.run_simulation(
            tree, cg, ALGORITHMS[algorithm], p, depth, pol, costs, min_split, sp, tt_bits, seed,
            budget)
        if status == 0 and best >= 0:
            best = cg.move_of(best)
    elif engine == "reference":
        depth = _tree_params(tree, depth)[1]
        if seq_nodes is None:
            _, cnt1, _ = _run_reference(tree, depth, "ybwc", 1, Costs(), 2, 1, 0, 2**62)
            seq_nodes = int(cnt1[:, K.C_NODES].sum())
        t0 = time.perf_counter()
        (status, value, best, ptime, _winner), cnt, idle = _run_reference(
            tree, depth, algorithm, p, costs, min_split, tt_bits, seed, budget)
    else:
        depth = _tree_params(tree, depth)[1]
        if seq_nodes is None:
            seq_nodes = sequential_nodes(tree, depth)
        t0 = time.perf_counter()
        (status, value, best, ptime, _winner), cnt, idle = _run(
            tree, depth, algorithm, p, costs, min_split, tt_bits, seed, budget)
    wall = time.perf_counter() - t0
    if status == 2:
        raise RuntimeError("parallel simulator: the event queue ran dry before the root returned")
    tot = cnt.sum(axis=0)
    nodes = int(tot[K.C_NODES])
    ok = status == 0
    if seq_time is None or not on_games:
        seq_time = seq_nodes * costs.node
    idle_sum = float(idle.sum())
    return SimResult(
        algorithm=algorithm, p=p, tree=tree.name, depth=depth,
        value=float(value) if ok else None,
        best_move=(best if on_games else int(best)) if ok and best is not None and best != -1 else None,
        nodes=nodes, leaves=int(tot[K.C_LEAVES]), seq_nodes=int(seq_nodes), time=float(ptime),
        seq_time=float(seq_time), speedup=seq_time / ptime if ok and ptime > 0 else math.nan,
        search_overhead=nodes / seq_nodes - 1.0, idle=idle_sum,
        idle_fraction=idle_sum / (p * ptime) if ptime > 0 else 0.0,
        splits=int(tot[K.C_SPLITS]), jobs=int(tot[K.C_JOBS]), messages=int(tot[K.C_MESSAGES]),
        aborts=int(tot[K.C_ABORTS]), tt_probes=int(tot[K.C_TT_PROBES]),
        tt_hits=int(tot[K.C_TT_HITS]), tt_cutoffs=int(tot[K.C_TT_CUTOFFS]),
        deferred=int(tot[K.C_DEFERRED]),
        per_processor_nodes=tuple(int(x) for x in cnt[:, K.C_NODES]),
        status="ok" if ok else "aborted", costs=costs, wall_time=wall, ordering=ordering)

"""Compiled (numba) search kernels for the synthetic tree models: the fast engine.

Public entry points, used by ``searchlab.algorithms.search_api.search(..., engine="kernel"|"auto")``:

- ``kernel_supports(tree, algorithm, ordering)``: whether a kernel exists for the combination;
- ``run_kernel(tree, algorithm, ordering, depth, ordering_seed, max_nodes)``: the search, as a
  ``SearchResult`` with ``engine="kernel"``, equal node for node to the reference engine.

The kernels cover IIDTree (continuous, discrete and win/loss with ``win_prob``), OrderedTree and IncrementalTree; the
algorithms minimax, alphabeta (fail-soft, textbook) and alphabeta-failhard; the orderings
natural, random, perfect, worst, and static (IncrementalTree only). Trees are recognised by
duck typing (their ``model`` attribute or class name and the attributes of docs/trees.md).
Perfect/worst ordering on IIDTree/IncrementalTree uses an exact-value oracle limited to 2^26
leaves (TreeTooLargeError beyond); on OrderedTree they need no oracle at any size.

Counts (nodes, leaves, cutoffs, per_ply, fail_highs, first_move_fail_highs), values (bit for
bit), best moves and the node-budget abort follow the reference exactly (tests/algorithms/
test_kernels.py compares them on many random trees). ``wall_time`` includes the oracle's pass
(also reported alone as ``extra["oracle_time"]``); the oracle's own nodes are not counted. The
oracle's table (8 bytes per interior node, up to 512 MB at 2^26 leaves with b = 2) is kept
with the tree object for its last depth, so perfect then worst order on one tree pay once.

The first call of a process compiles the kernel (several seconds) or loads it from numba's
on-disk cache (``cache=True``, under searchlab/algorithms/kernels/__pycache__); ``warm_up()`` does
this explicitly. ``NUMBA_DISABLE_JIT=1`` runs the very same code as plain Python (slowly).
"""

from __future__ import annotations

import time
import weakref
from typing import Any

import numpy as np

from searchlab.algorithms.kernels import _alphabeta as _ab
from searchlab.algorithms.kernels.hashing_compiled import mix64 as _mix
from searchlab.algorithms.kernels._oracle import ORACLE_MAX_LEAVES, check_oracle_size, oracle_offsets
from searchlab.contracts.result import SearchResult
from searchlab.errors import InvalidParameterError, UnsupportedError
from searchlab.contracts.protocol import Capabilities

__all__ = ["kernel_supports", "run_kernel", "warm_up", "ORACLE_MAX_LEAVES", "ALGORITHMS",
           "ORDERINGS"]

ALGORITHMS = {
    "minimax": _ab.ALG_MINIMAX,
    "alphabeta": _ab.ALG_ALPHABETA,
    "alphabeta-failhard": _ab.ALG_FAILHARD,
}
ORDERINGS = {
    "natural": _ab.ORD_NATURAL,
    "random": _ab.ORD_RANDOM,
    "perfect": _ab.ORD_PERFECT,
    "worst": _ab.ORD_WORST,
    "static": _ab.ORD_STATIC,
}

_MASK64 = (1 << 64) - 1
_RANDOM_ORDER_SALT = 0x5851F42D4C957F2D
_NO_LIMIT = np.int64(2**62)


# --- recognising trees ---------------------------------------------------------------------
_MODELS = {"iid": _ab.MODEL_IID, "ordered": _ab.MODEL_ORDERED,
           "incremental": _ab.MODEL_INCREMENTAL}


def _model_of(tree: Any) -> int | None:
    """The kernel model code of a tree (its ``capabilities.kernel_model``); None if no kernel
    handles it."""
    return _MODELS.get(tree.capabilities.kernel_model)


class _Params:
    """A tree's parameters as the kernel takes them (numpy arrays, explicit dtypes)."""

    __slots__ = ("model", "b", "d", "root_key", "levels", "w_best", "w_random", "scale", "good",
                 "a_coef", "c_coef", "oracle_cache")

    def __init__(self, tree: Any, model: int) -> None:
        self.model = model
        self.b = int(tree.b)
        self.d = int(tree.d)
        self.root_key = np.uint64(int(tree.root_key) & _MASK64)
        self.levels = np.int64(int(getattr(tree, "levels", 0) or 0))
        threshold = getattr(tree, "win_threshold", None)
        if threshold is not None:       # win/loss leaves: the kernel's levels code -(T + 1)
            self.levels = np.int64(-int(threshold) - 1)
        self.w_best, self.w_random = 0.0, 0.0
        self.scale = np.zeros(1, np.float64)
        self.good = np.zeros((1, 1), np.float64)
        self.a_coef, self.c_coef = 0.0, 0.0
        if model == _ab.MODEL_ORDERED:
            self.w_best, self.w_random = _mixture_weights(self.b, float(tree.p))
        elif model == _ab.MODEL_INCREMENTAL:
            self.scale = np.asarray(tree.scale, dtype=np.float64).reshape(-1)
            good = np.asarray(tree.good, dtype=np.float64)
            self.good = good.reshape(self.d, self.b) if self.d > 0 else np.zeros((1, 1))
            self.a_coef, self.c_coef = float(tree.a_coef), float(tree.c_coef)
            if self.scale.shape[0] != self.d + 1:
                raise InvalidParameterError(
                    f"incremental tree: scale must hold d+1 = {self.d + 1} floats")
        self.oracle_cache: dict[int, tuple[np.ndarray, np.ndarray]] = {}


def _mixture_weights(b: int, p: float) -> tuple[float, float]:
    """(w_best, w_random) of the ordered tree (docs/trees.md), same float operations."""
    if p <= 1.0 / b:
        return 0.0, p * b
    w_best = (p * b - 1.0) / (b - 1.0)
    return w_best, 1.0 - w_best


_params_cache: "weakref.WeakKeyDictionary[Any, _Params]" = weakref.WeakKeyDictionary()


def _params(tree: Any, model: int) -> _Params:
    try:
        prm = _params_cache.get(tree)
    except TypeError:           # not weak-referenceable / not hashable: no caching
        return _Params(tree, model)
    if prm is None:
        prm = _Params(tree, model)
        try:
            _params_cache[tree] = prm
        except TypeError:
            pass
    return prm


def kernel_supports(tree: Any, algorithm: str, ordering: str) -> bool:
    """True when a compiled kernel runs this algorithm with this ordering on this tree."""
    model = _model_of(tree)
    if model is None or algorithm not in ALGORITHMS or ordering not in ORDERINGS:
        return False
    if ordering == "static" and model != _ab.MODEL_INCREMENTAL:
        return False
    return True


# --- running -------------------------------------------------------------------------------
def _call(prm: _Params, depth: int, algo: int, ordering: int, salt: np.uint64,
          oracle: np.ndarray, off: np.ndarray, oracle_mode: int, max_nodes: np.int64,
          counters: np.ndarray, per_ply: np.ndarray, root_vals: np.ndarray):
    with np.errstate(over="ignore"):     # uint64 wrap-around under NUMBA_DISABLE_JIT
        return _ab.search_kernel(
            np.int64(prm.model), np.int64(prm.b), np.int64(depth), prm.root_key, prm.levels,
            np.float64(prm.w_best), np.float64(prm.w_random), prm.scale, prm.good,
            np.float64(prm.a_coef), np.float64(prm.c_coef), np.int64(algo), np.int64(ordering),
            salt, oracle, off, np.int64(oracle_mode), max_nodes, counters, per_ply, root_vals)


def _oracle(prm: _Params, depth: int) -> tuple[np.ndarray, np.ndarray]:
    """The exact-value tables of the tree to this depth (one minimax pass; cached per tree,
    the last depth only)."""
    got = prm.oracle_cache.get(depth)
    if got is not None:
        return got
    prm.oracle_cache.clear()
    off = oracle_offsets(prm.b, depth)
    table = np.empty(max(int(off[depth]), 1), np.float64)
    counters = np.zeros(5, np.int64)
    per_ply = np.zeros(depth + 1, np.int64)
    root_vals = np.zeros(max(prm.b, 1), np.float64)
    _call(prm, depth, _ab.ALG_MINIMAX, _ab.ORD_NATURAL, np.uint64(0), table, off,
          _ab.ORACLE_BUILD, _NO_LIMIT, counters, per_ply, root_vals)
    prm.oracle_cache[depth] = (table, off)
    return table, off


_DUMMY_ORACLE = np.zeros(1, np.float64)
_DUMMY_OFF = np.zeros(1, np.int64)


def run_kernel(tree: Any, algorithm: str, ordering: str = "natural", depth: int | None = None,
               ordering_seed: int = 0, max_nodes: int | None = None) -> SearchResult:
    """Search ``tree`` with the compiled kernel; the result equals the reference engine's.

    Raises UnsupportedError for a combination ``kernel_supports`` rejects, or a depth below
    d on a tree without static values; TreeTooLargeError (before any work) when perfect/worst
    ordering needs an oracle over more than 2^26 leaves.
    """
    if not kernel_supports(tree, algorithm, ordering):
        raise UnsupportedError(
            f"no compiled kernel for algorithm {algorithm!r} with ordering {ordering!r} on "
            f"{getattr(tree, 'name', type(tree).__name__)}")
    model = _model_of(tree)
    prm = _params(tree, model)
    d = prm.d
    depth = d if depth is None else int(depth)
    if depth < 0:
        raise InvalidParameterError(f"depth must be an integer >= 0; got {depth}")
    if depth < d and model != _ab.MODEL_INCREMENTAL:
        raise UnsupportedError(
            f"the {getattr(tree, 'model', 'synthetic')} tree has no static values at interior "
            f"nodes: search it to its full depth d={d}, or use the incremental tree model")
    horizon = min(depth, d)          # past d the tree ends: its leaves are at ply d
    algo = ALGORITHMS[algorithm]
    ocode = ORDERINGS[ordering]
    oracle, off, oracle_mode = _DUMMY_ORACLE, _DUMMY_OFF, _ab.ORACLE_NONE
    needs_oracle = ocode in (_ab.ORD_PERFECT, _ab.ORD_WORST) and model != _ab.MODEL_ORDERED
    if needs_oracle:
        check_oracle_size(prm.b, d, horizon, ordering)
    salt = np.uint64(0)
    if ocode == _ab.ORD_RANDOM:
        with np.errstate(over="ignore"):
            salt = np.uint64(_mix(np.uint64((int(ordering_seed) & _MASK64)
                                            ^ _RANDOM_ORDER_SALT)))
    limit = _NO_LIMIT if max_nodes is None else np.int64(min(int(max_nodes), 2**62))

    t0 = time.perf_counter()
    oracle_time = 0.0
    if needs_oracle:
        oracle, off = _oracle(prm, horizon)
        oracle_mode = _ab.ORACLE_LOOKUP
        oracle_time = time.perf_counter() - t0
    counters = np.zeros(5, np.int64)
    per_ply = np.zeros(horizon + 1, np.int64)
    root_vals = np.zeros(max(prm.b, 1), np.float64)
    status, value, best = _call(prm, horizon, algo, ocode, salt, oracle, off, oracle_mode,
                                limit, counters, per_ply, root_vals)
    wall = time.perf_counter() - t0

    nodes, leaves, cutoffs, fail_highs, first_fail_highs = (int(x) for x in counters)
    fh = dict(fail_highs=fail_highs, first_move_fail_highs=first_fail_highs)
    per = tuple(int(x) for x in per_ply) + (0,) * (depth - horizon)
    extra: dict[str, Any] = {}
    if needs_oracle:
        extra["oracle_time"] = oracle_time
    if status == _ab.STATUS_ABORTED:
        return SearchResult(
            value=None, best_move=None, best_moves=(), best_moves_complete=False,
            nodes=nodes, leaves=leaves, interior=nodes - leaves, cutoffs=cutoffs,
            per_ply=per, iterations=(nodes,), wall_time=wall, algorithm=algorithm,
            ordering=ordering, engine="kernel", depth=depth, status="aborted", extra=extra, **fh)
    value = float(value)
    best_move = int(best) if best >= 0 else None
    if algo == _ab.ALG_MINIMAX:
        has_moves = horizon > 0 and prm.b > 0
        best_moves = tuple(i for i in range(prm.b) if has_moves and root_vals[i] == value)
        complete = has_moves
    else:
        best_moves = (best_move,) if best_move is not None else ()
        complete = False
    return SearchResult(
        value=value, best_move=best_move, best_moves=best_moves, best_moves_complete=complete,
        nodes=nodes, leaves=leaves, interior=nodes - leaves, cutoffs=cutoffs, per_ply=per,
        iterations=(nodes,), wall_time=wall, algorithm=algorithm, ordering=ordering,
        engine="kernel", depth=depth, status="ok", extra=extra, **fh)


def warm_up() -> float:
    """Compile (or load from numba's cache) every kernel specialisation; returns seconds."""
    t0 = time.perf_counter()

    class _T:  # a tiny i.i.d. stand-in
        model, b, d, seed, levels = "iid", 2, 2, 0, 0
        root_key = 0x1234
        capabilities = Capabilities(node_ids=True, kernel_model="iid")

    run_kernel(_T(), "alphabeta", "random", 2, 0, None)
    run_kernel(_T(), "alphabeta", "perfect", 2, 0, None)
    return time.perf_counter() - t0

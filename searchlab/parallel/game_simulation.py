"""The simulator kernel's wrapper: its per-game copy, its policy, its arrays, one call.

``simulate(game, ...)`` (simulate.py) runs every simulation here, on any game with compiled
primitives (searchlab.algorithms.compiled: Connect Four, Othello, tic-tac-toe, Hex, ...) and on
the synthetic trees (their primitives: searchlab/trees/*_compiled.py). Under a policy (base
order natural, random, static or the game's own, plus tt, killer, history; not id, perfect,
worst) the searches are the compiled engine's alpha-beta with the same ordering, split into p
processors by the rules of docs/parallel.md: at p = 1 every algorithm is ``searchlab.search(game,
"alphabeta", ordering, depth=depth, engine="compiled", tt_size=2**tt_bits)`` node for node. On
the synthetic trees in natural order (``plain_policy``) they are the readable simulator's
(reference_simulator.py), with its own table.

``kernel(cg)`` is _sim_kernel.py specialised for one game: a copy of that template with the
game's primitives as globals, written to and loaded from the compiled engine's cache directory
(searchlab/algorithms/compiled/specialise.py), so numba compiles it once per game and machine,
not once per process.
"""

from __future__ import annotations

import hashlib
import threading
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from searchlab.contracts.compiled import CompiledGame, compiled_game
from searchlab.algorithms.compiled._engine import _sort
from searchlab.algorithms.compiled.family import source as template_source
from searchlab.algorithms.compiled.specialise import _dependencies, load_copy
from searchlab.algorithms.kernels.hashing_compiled import mix64 as mix64_compiled
from searchlab.algorithms.ordering_registry import ordering_of
from searchlab.errors import InvalidParameterError, UnsupportedError
from searchlab.hashing import MASK64, mix64, random_order_salt
from searchlab.parallel import _events as EV
from searchlab.parallel import _sim_kernel as SK

_BASES = {"natural": SK.B_NATURAL, "random": SK.B_RANDOM, "static": SK.B_STATIC}
_DYNAMIC = {"tt": SK.D_TABLE, "killer": SK.D_KILLER, "history": SK.D_HISTORY}
HELPER_SALT = 0x8CB92BA72F3D8DD7          # Lazy SMP's helper orders
TABLE_ALGORITHMS = ("abdada", "lazy-smp")
_TEMPLATE = Path(SK.__file__)
# what the template's compiled code calls besides the primitives (their files key the copy)
_TEMPLATE_CALLS = (EV.heap_push, _sort, mix64_compiled)
_kernels: dict[tuple, types.ModuleType] = {}
_lock = threading.Lock()


def kernel(cg: CompiledGame) -> types.ModuleType:
    """_sim_kernel.py with ``cg``'s primitives as its globals (the module docstring), written
    and imported once per process; its name keys on the template, the primitives' sources and
    the sources the template calls (_events.py, the engine's ``_sort``, ``mix64``)."""
    prims = tuple(getattr(cg.prims, n) for n in SK.PRIMITIVE_NAMES)
    mod = _kernels.get(prims)
    if mod is None:
        with _lock:
            mod = _kernels.get(prims)
            if mod is None:
                text, digest = template_source(_TEMPLATE, SK.PRIMITIVE_NAMES, prims)
                h = hashlib.sha256(digest.encode())
                h.update(_dependencies(_TEMPLATE_CALLS))
                mod = _kernels[prims] = load_copy(text, h.hexdigest())
    return mod


@dataclass(frozen=True)
class Policy:
    """A move-ordering policy as the kernel takes it (``ip``), its salt and its spec."""

    ordering: str
    ip: np.ndarray
    order_salt: int
    table: bool


def plain_policy(algorithm: str) -> Policy:
    """Natural order on a synthetic tree, the readable simulator's search: no killers, no
    history, and for ABDADA and Lazy SMP the simulator's plain table (TABLE_PLAIN)."""
    ip = np.zeros(SK.NQ, np.int64)
    table = algorithm in TABLE_ALGORITHMS
    ip[SK.Q_TABLE] = SK.TABLE_PLAIN if table else SK.TABLE_NONE
    return Policy("natural", ip, 0, table)


def policy(game: Any, cg: CompiledGame, ordering: str, algorithm: str,
           ordering_seed: int = 0) -> Policy:
    """Parse ``ordering`` for the kernel; InvalidParameterError / UnsupportedError (naming
    the parameter) for what it does not run."""
    value = ordering_of(ordering, game)
    ip = np.zeros(SK.NQ, np.int64)
    base = value.base
    if base is not None and base in cg.orderings:
        ip[SK.Q_BASE], ip[SK.Q_OWN] = SK.B_OWN, cg.orderings[base]
    elif base is not None:
        if base not in _BASES:
            raise UnsupportedError(f"ordering {base!r} is not simulated in parallel (allowed "
                                   f"bases: {', '.join(list(_BASES) + list(cg.orderings))})")
        ip[SK.Q_BASE] = _BASES[base]
        if base == "static" and not game.capabilities.static_values:
            raise UnsupportedError(f"ordering 'static' needs static values; {game.name} has none")
    dyn = value.dynamic
    if "tactical" in dyn:
        raise UnsupportedError(f"ordering {ordering!r}: the 'tactical' stage is not simulated in "
                               "parallel; allowed dynamic components: tt, killer, history")
    if "id" in dyn:
        raise UnsupportedError("ordering 'id' (iterative deepening) is not simulated in parallel; "
                               "allowed dynamic components: tt, killer, history")
    ip[SK.Q_NDYN] = len(dyn)
    for j, x in enumerate(dyn):
        ip[SK.Q_DYN0 + j] = _DYNAMIC[x]
    ip[SK.Q_TABLE] = SK.TABLE_ENGINE if "tt" in dyn else SK.TABLE_NONE
    ip[SK.Q_KILLER] = "killer" in dyn
    ip[SK.Q_HISTORY] = "history" in dyn
    if algorithm in TABLE_ALGORITHMS and "tt" not in dyn:
        raise InvalidParameterError(f"ordering must include tt for {algorithm} (its processors "
                                    f"share the transposition table); got {ordering!r}")
    return Policy(ordering, ip, random_order_salt(ordering_seed), "tt" in dyn)


def game_depth(game: Any, cg: CompiledGame, depth: Any) -> int:
    """The horizon: an integer in [1, the game's max_plies]; required on games (a synthetic
    tree's default is its depth d)."""
    if depth is None:
        depth = getattr(game, "d", None)
    if isinstance(depth, bool) or not isinstance(depth, (int, np.integer)) \
            or not 1 <= depth <= cg.max_plies:
        raise InvalidParameterError(f"depth must be an integer in [1, {cg.max_plies}] on "
                                    f"{game.name}; got {depth!r}")
    return int(depth)


def compiled_or_refuse(game: Any) -> CompiledGame:
    cg = compiled_game(game)
    if cg is None:
        raise UnsupportedError(f"the parallel simulator runs on games with compiled primitives "
                               f"and the synthetic trees; got {getattr(game, 'name', game)!r}")
    return cg


def allocate(cg: CompiledGame, p: int, depth: int, tt_bits: int) -> dict[str, np.ndarray]:
    """The kernel's state arrays for p processors (the table: 2^tt_bits slots)."""
    d2, m, n = depth + 2, cg.max_moves, 1 << tt_bits
    t_vb = np.zeros(n, np.uint64)
    return dict(
        S=np.zeros((p, d2, cg.state_size), np.uint64), MV=np.zeros((p, d2, m), np.int64),
        KF=np.zeros((p, d2, m), np.float64), KU=np.zeros((p, d2, m), np.uint64),
        fr_key=np.zeros((p, d2), np.uint64), fr_f=np.zeros((p, d2, EV.NFF), np.float64),
        fr_i=np.zeros((p, d2, EV.NFI), np.int64), deferred=np.zeros((p, d2, m), np.int8),
        killers=np.full((p, d2, 2), -1, np.int64),
        hist=np.zeros((p, 2, cg.n_move_ids), np.int64), pr_i=np.zeros((p, EV.NPI), np.int64),
        pr_f=np.zeros((p, EV.NPF), np.float64), cnt=np.zeros((p, EV.NC), np.int64),
        t_chk=np.zeros(n, np.uint64), t_vb=t_vb, t_vf=t_vb.view(np.float64),
        t_meta=np.zeros(n, np.uint64), np_key=np.zeros(n, np.uint64),
        np_cnt=np.zeros(n, np.int64))


def call_run(cg: CompiledGame, mode: int, q: int, alg: int, p: int, depth: int, root_ply: int,
             alpha: float, beta: float, pol: Policy, seed: int, costs: Any, min_split: int,
             split_plies: int, max_nodes: int, a: dict, stop: np.ndarray,
             res: np.ndarray) -> None:
    """One call of the game's ``kernel(cg).run`` (explicit dtypes: one numba specialisation)."""
    salt = np.uint64(mix64((int(seed) & MASK64) ^ HELPER_SALT))
    with np.errstate(over="ignore"):        # uint64 wrap-around under NUMBA_DISABLE_JIT
        run = kernel(cg).run
        run(np.int64(mode), np.int64(q), np.int64(alg), np.int64(p), np.int64(depth),
            np.int64(root_ply), np.float64(alpha), np.float64(beta), pol.ip,
            salt, np.uint64(pol.order_salt), np.float64(costs.node), np.float64(costs.split),
            np.float64(costs.message), np.float64(costs.tt), np.int64(min_split),
            np.int64(split_plies), np.int64(max_nodes), a["S"], a["MV"], a["KF"], a["KU"],
            a["fr_key"], a["fr_f"], a["fr_i"], a["deferred"], a["killers"], a["hist"],
            a["pr_i"], a["pr_f"], a["cnt"], a["t_chk"], a["t_vb"], a["t_vf"], a["t_meta"],
            a["np_key"], a["np_cnt"], np.zeros((4, max(p * (depth + 1), p + 1)), np.int64),
            np.zeros(3, np.int64), np.zeros(p + 1, np.float64), np.zeros(1, np.uint64),
            stop, res)


def run_simulation(game: Any, cg: CompiledGame, alg: int, p: int, depth: int, pol: Policy,
                   costs: Any, min_split: int, split_plies: int, tt_bits: int, seed: int,
                   max_nodes: int):
    """(status, value, best move id, time, winner), counters, idle times of one simulation."""
    a = allocate(cg, p, depth, tt_bits if pol.table else 0)
    root = cg.encode(game.initial_state())
    a["S"][:, 0, :] = root
    res = np.zeros(EV.NR, np.float64)
    call_run(cg, EV.MODE_SIM, 0, alg, p, depth, 0, -np.inf, np.inf, pol, seed, costs, min_split,
             split_plies, max_nodes, a, np.zeros(1, np.int64), res)
    out = (int(res[EV.R_STATUS]), float(res[EV.R_VALUE]), int(res[EV.R_BEST]), float(res[EV.R_TIME]),
           int(res[EV.R_WINNER]))
    return out, a["cnt"], a["pr_f"][:, EV.F_IDLE]

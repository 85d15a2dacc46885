"""The compiled engine's public side: what it supports, and running a search on it.

``supports(game, algorithm, ordering, pruning, depth)`` is True when the game supplies compiled
primitives (searchlab.algorithms.compiled: Connect Four, Othello, tic-tac-toe, Hex, the i.i.d.,
ordered and incremental trees; any game with ``Capabilities(compiled=True)``) and the
combination is covered:

- algorithms: minimax, alphabeta, alphabeta-failhard, pvs, mtdf;
- orderings: the base orders natural, random (the reference's seeded order), static and the
  game's own, with any of the dynamic components id, tt, killer, history, tactical (chess's
  captures stage; ``staged`` = tt+tactical+killer+history), in any priority order; perfect and worst (exact-value oracles) are not compiled;
- iterative deepening with aspiration windows, MTD(f), node budgets ("aborted");
- the Pruning record (null move with adaptive R and verification, LMR constant/log with
  re-searches, futility and razoring, beam, ProbCut, quiescence) at a finite horizon;
  quiescence's delta pruning only for a game whose primitives include its own
  ``capture_gain`` (chess), not the stub; not a plug-in pruning family (``Pruning.plugin``:
  a Python hook, reference engine only).

The first search of a process on a game imports the engine specialised for the game's
primitives (searchlab.algorithms.compiled.specialise): compiled once (tens of seconds) and then
loaded from numba's on-disk cache by every later process (about a second).

``run`` returns the reference engine's SearchResult, node for node (``engine="compiled"``):
the drivers (iterative deepening, aspiration, MTD(f)) are drivers.py's, line for line, in
Python around the compiled root search. Arguments are validated by api.search before.
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass
from typing import Any

import numba
import numpy as np

from searchlab.contracts.compiled import CompiledGame, compiled_game
from searchlab.algorithms.compiled import _engine as K
from searchlab.algorithms.compiled.specialise import engine
from searchlab.contracts.compiled_stubs import no_capture_gain
from searchlab.algorithms.ordering import base_order
from searchlab.algorithms.ordering_registry import Ordering, ordering_of
from searchlab.contracts.result import SearchResult
from searchlab.hashing import random_order_salt

ALGORITHMS = {"minimax": K.MINIMAX, "alphabeta": K.ALPHABETA, "alphabeta-failhard": K.FAILHARD,
              "pvs": K.PVS, "mtdf": K.ALPHABETA}
_NO_LIMIT = 2**62
_PLAIN_PYTHON = bool(numba.config.DISABLE_JIT)


def supports(game: Any, algorithm: str, ordering: str, pruning: Any = None,
             depth: float = math.inf) -> bool:
    """True when the compiled engine runs this combination (the module docstring)."""
    return _plan(game, algorithm, ordering, pruning, math.isfinite(depth)) is not None


@dataclass(frozen=True)
class _Plan:
    """What a search on the compiled engine needs beyond its root, its depth and its budget,
    the same for every search of one game, algorithm, ordering and pruning record: built once
    and kept (``_plan``), because building it (parsing the ordering, filling the parameter
    arrays, finding the engine module) cost as much as a small search."""

    cg: CompiledGame
    parts: tuple[str, ...]
    table: int                  # K.TABLE_NONE, TABLE_MOVES or TABLE_VALUES
    ip: np.ndarray              # templates, copied per search (the engine writes into them)
    fp: np.ndarray
    widths: np.ndarray
    qmax: int                   # quiescence's extra plies (0 without)
    module: Any                 # the engine specialised for cg.prims
    static: bool                # the base order is "static" (checked per search, as the reference)


_plans: dict[tuple, tuple[CompiledGame, _Plan | None]] = {}


def _plan(game: Any, algorithm: str, ordering: str, pruning: Any,
          finite: bool) -> _Plan | None:
    """The plan of a combination the compiled engine runs, else None; kept per key. The key
    holds the CompiledGame's id and the entry the object itself, checked: a game whose
    ``compiled_primitives`` builds a new one per call (the trade-off study's domains) may get
    the id of a collected one, and must not get its plan. Raises what ordering_of raises."""
    cg = compiled_game(game)
    if cg is None:
        return None
    if getattr(pruning, "plugin", None) is not None:
        return None             # a plug-in pruning family's hook is Python: reference engine only
    key = (id(cg), algorithm, ordering, pruning, finite)
    entry = _plans.get(key)
    if entry is not None and entry[0] is cg:
        return entry[1]
    plan = _build_plan(cg, game, algorithm, ordering, pruning, finite)
    if len(_plans) > 4096:          # synthetic trees give a CompiledGame per tree
        _plans.clear()
    _plans[key] = (cg, plan)
    return plan


def _build_plan(cg: CompiledGame, game: Any, algorithm: str, ordering: str, pruning: Any,
                finite: bool) -> _Plan | None:
    if algorithm not in ALGORITHMS or cg.n_move_ids >= 1 << K.MOVE_BITS:
        return None             # (the table packs a move id + 1 into MOVE_BITS bits)
    value = ordering_of(ordering, game)
    if not value.supports("compiled", cg.orderings):
        return None
    parts = value.parts
    if pruning is not None and pruning.active() and not finite:
        return None
    q = None if pruning is None else pruning.quiescence
    if q is not None and q.delta is not None and cg.prims.capture_gain is no_capture_gain:
        return None
    if "tt" in parts or algorithm == "mtdf":
        table = K.TABLE_VALUES
    elif "id" in parts:
        table = K.TABLE_MOVES
    else:
        table = K.TABLE_NONE
    ip, fp, widths = _params(cg, game, algorithm, value, pruning, table)
    return _Plan(cg, parts, table, ip, fp, widths, int(ip[K.P_QMAX]) if ip[K.P_Q] else 0,
                 engine(cg.prims), "static" in parts)


def _params(cg: CompiledGame, game: Any, algorithm: str, value: Ordering,
            pruning: Any, table: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The engine's integer and float parameters and beam widths (P_MAXNODES, P_AGE0 and
    F_DEPTH are set per search)."""
    ip = np.zeros(K.N_IPARAMS, np.int64)
    fp = np.zeros(K.N_FPARAMS, np.float64)
    ip[K.P_ALG] = ALGORITHMS[algorithm]
    base, dyn_codes = value.compiled_codes         # the registry's names of K's constants
    if base is not None:
        ip[K.P_BASE] = getattr(K, base)
        if value.base in value.own:
            ip[K.P_OWN] = cg.orderings[value.base]
    dyn = value.dynamic
    ip[K.P_NDYN] = len(dyn)
    for j, code in enumerate(dyn_codes):
        ip[K.P_DYN0 + j] = getattr(K, code)
    ip[K.P_TABLE] = table
    ip[K.P_KILLER] = "killer" in dyn
    ip[K.P_HISTORY] = "history" in dyn
    ip[K.P_TACTICAL] = "tactical" in dyn
    widths = np.zeros(1, np.int64)
    if pruning is not None and pruning.active():
        ip[K.P_PRUNED] = 1
        ip[K.P_NOISY] = game.capabilities.noisy_test
        nm, lmr, fu, beam, pc, q = (pruning.null_move, pruning.lmr, pruning.futility,
                                    pruning.beam, pruning.probcut, pruning.quiescence)
        if nm is not None:
            ip[K.P_NM], ip[K.P_NM_R] = 1, nm.reduction
            ip[K.P_NM_ADAPT] = -1 if nm.adaptive_depth is None else nm.adaptive_depth
            ip[K.P_NM_VERIFY] = bool(nm.verify)
        if lmr is not None:
            ip[K.P_LMR], ip[K.P_LMR_AFTER], ip[K.P_LMR_MIN] = 1, lmr.after, lmr.min_depth
            ip[K.P_LMR_RED], ip[K.P_LMR_LOG] = lmr.reduction, lmr.schedule == "log"
        if fu is not None:
            ip[K.P_FUT], fp[K.F_FUT_MARGIN] = 1, fu.margin
            if fu.razor_margin is not None:
                ip[K.P_RAZOR], ip[K.P_RAZOR_DEPTH] = 1, fu.razor_depth
                fp[K.F_RAZOR_MARGIN] = fu.razor_margin
        if beam is not None:
            ip[K.P_BEAM], ip[K.P_BEAM_WIDTH], ip[K.P_NWIDTHS] = 1, beam.width, len(beam.widths)
            if beam.widths:
                widths = np.array(beam.widths, np.int64)
        if pc is not None:
            ip[K.P_PC], ip[K.P_PC_SHALLOW], ip[K.P_PC_DEEP] = 1, pc.shallow, pc.deep
            fp[K.F_PC_SLOPE], fp[K.F_PC_INTERCEPT] = pc.slope, pc.intercept
            fp[K.F_PC_SIGMA], fp[K.F_PC_THRESHOLD] = pc.sigma, pc.threshold
        if q is not None:
            ip[K.P_Q], ip[K.P_QMAX] = 1, q.max_depth
            if q.delta is not None:
                ip[K.P_DELTA], fp[K.F_DELTA] = 1, q.delta
    return ip, fp, widths


def run(game: Any, algorithm: str, ordering: str, horizon: float, ordering_seed: int = 0,
        max_nodes: int | None = None, aspiration: float | None = None, tt_size: int = 1 << 16,
        pruning: Any = None) -> SearchResult:
    """The search of api.search on the compiled engine (arguments already validated)."""
    plan = _plan(game, algorithm, ordering, pruning, math.isfinite(horizon))
    cg, parts, table, compiled = plan.cg, plan.parts, plan.table, plan.module
    if plan.static:                 # the reference's own check (static needs static values)
        base_order("static", game, horizon, ordering_seed)
    ip, fp, widths = plan.ip.copy(), plan.fp.copy(), plan.widths
    ip[K.P_MAXNODES] = _NO_LIMIT if max_nodes is None else min(int(max_nodes), _NO_LIMIT)
    plies = min(horizon, cg.max_plies) if math.isfinite(horizon) else cg.max_plies
    root = game.initial_state()
    # one age per iteration of iterative deepening (depth 0: its one search)
    ages = max(int(horizon), 1) if "id" in parts and table != K.TABLE_NONE else 0
    E = _workspace(cg, int(plies) + plan.qmax + 2, tt_size if table != K.TABLE_NONE else None,
                   ages, ip, fp, widths, random_order_salt(ordering_seed))
    E[0][0] = cg.encode(root)
    search = compiled.search
    cnt = E[4]
    cnt[K.C_BEST] = -1                  # ctx.best_move starts as None
    cnt[K.C_AGE] = ip[K.P_AGE0]
    iterations: list[int] = []
    best: int | None = None

    def root_search(alpha: float, beta: float) -> float:
        if _PLAIN_PYTHON:                   # wrapping uint64 arithmetic under NUMBA_DISABLE_JIT
            with np.errstate(over="ignore"):
                return float(search(E, alpha, beta))
        return float(search(E, alpha, beta))

    def search_once(alpha=-math.inf, beta=math.inf, first_guess=0.0) -> float:
        nonlocal best
        if algorithm != "mtdf":
            v = root_search(alpha, beta)
            best = int(cnt[K.C_BEST])
            return v
        g, lower, upper = first_guess, -math.inf, math.inf          # drivers.mtdf
        mbest, passes = None, 0
        while lower < upper:
            b = math.nextafter(g, math.inf) if g == lower else g
            g = root_search(math.nextafter(b, -math.inf), b)
            if cnt[K.C_ABORT]:
                return g
            passes += 1
            if g < b:
                upper = g
            else:
                lower, mbest = g, int(cnt[K.C_BEST])
        cnt[K.C_RE] += passes - 1
        best = mbest
        return g

    t0 = time.perf_counter()
    value: float | None = None
    if "id" in parts and int(horizon) == 0:     # drivers.iterative_deepening's depth 0: one search
        fp[K.F_DEPTH] = 0
        if table != K.TABLE_NONE:
            cnt[K.C_AGE] += 1
        value = search_once()
        if not cnt[K.C_ABORT]:
            iterations.append(int(cnt[K.C_NODES]))
    elif "id" in parts and aspiration is None and algorithm != "mtdf":   # the same, in numba
        done = np.zeros(int(horizon), np.int64)
        if _PLAIN_PYTHON:
            with np.errstate(over="ignore"):
                value, n = compiled.deepen(E, int(horizon), table != K.TABLE_NONE, done)
        else:
            value, n = compiled.deepen(E, int(horizon), table != K.TABLE_NONE, done)
        value = float(value)
        best = int(cnt[K.C_BEST])
        iterations = done[:n].tolist()
    elif "id" in parts:                                                 # drivers.iterative_deepening
        v = 0.0
        for k in range(1, int(horizon) + 1):
            fp[K.F_DEPTH] = k
            if table != K.TABLE_NONE:
                cnt[K.C_AGE] += 1
            start = int(cnt[K.C_NODES])
            if aspiration is not None and k > 1 and algorithm not in ("mtdf", "minimax"):
                a, b = v - aspiration, v + aspiration
                r = search_once(a, b)
                if not cnt[K.C_ABORT] and (r <= a or r >= b):
                    cnt[K.C_RE] += 1
                    r = search_once()
            else:
                r = search_once(first_guess=v)
            if cnt[K.C_ABORT]:
                break
            v = r
            iterations.append(int(cnt[K.C_NODES]) - start)
        value = v
    else:
        fp[K.F_DEPTH] = horizon
        value = search_once()
    wall = time.perf_counter() - t0
    status = "aborted" if cnt[K.C_ABORT] else "ok"
    return _result(game, cg, E, root, value, best, status, wall, algorithm, ordering, horizon,
                   iterations, table, pruning)


_local = threading.local()


def _workspace(cg: CompiledGame, rows: int, tt_size: int | None, ages: int, ip: np.ndarray,
               fp: np.ndarray, widths: np.ndarray, salt: int) -> tuple:
    """The engine's environment tuple ``E`` (its layout: _engine.py), from arrays this thread
    keeps between searches: allocating and clearing a 64k-entry table per search cost more than
    a small search. The buffers are keyed by their shapes, the rows rounded up; the table (the
    last size asked for; any for a search without one) is never cleared: ip[P_AGE0] is set
    above every age it holds, which empties it for the engine, and the ``ages`` this search may
    use (one per iteration of iterative deepening) are reserved before it starts, so that even
    an interrupted search leaves the next one a fresh table. Everything else a search reads
    before writing is reset here."""
    rows = -(-rows // 16) * 16
    key = (cg.state_size, cg.max_moves, cg.n_move_ids, rows)
    bufs = getattr(_local, "bufs", None)
    if bufs is None or len(bufs) > 16:
        bufs = _local.bufs = {}
    b = bufs.get(key)
    if b is None:
        frames = 2 * rows + 2       # at most a node and its move loop (verification, ProbCut)
        b = bufs[key] = (
            np.zeros((rows, cg.state_size), np.uint64), np.zeros((rows, cg.max_moves), np.int64),
            np.zeros((rows, cg.max_moves)), np.zeros((rows, cg.max_moves), np.uint64),
            np.zeros(K.N_COUNTERS, np.int64), np.zeros(rows, np.int64),
            np.full((rows, 2), -1, np.int64), np.zeros((2, cg.n_move_ids), np.int64),
            np.zeros(cg.n_move_ids), np.zeros((frames, K.N_FI), np.int64),
            np.zeros((frames, K.N_FF)), np.zeros(frames, np.uint64))
    else:
        for a in b[4:]:
            a.fill(0)
        b[6].fill(-1)
    tt = getattr(_local, "tt", None)
    if tt is None or (tt_size is not None and tt[0].shape[0] != tt_size):
        _local.tt = tt = _table(tt_size or 1)
        _local.tt_age = 0
    ip[K.P_AGE0] = _local.tt_age
    _local.tt_age += ages + 1
    S, MV, KF, KU, cnt, per_ply, killers, history, root_vals, FI, FF, FK = b
    return (S, MV, KF, KU, cnt, per_ply, ip, fp, np.array([salt], np.uint64), *tt, killers,
            history, root_vals, widths, FI, FF, FK)


def owned_workspace(game: Any, algorithm: str, ordering: str, pruning: Any, rows: int,
                    tt_size: int, ordering_seed: int = 0) -> tuple[Any, tuple]:
    """(the engine module, a fresh environment tuple ``E``) whose arrays belong to the caller
    alone, not to this thread's shared buffers: an engine session (engine_session.py) keeps
    its transposition table, killers and history in them from one search to the next. The
    table starts empty with P_AGE0 = 0 (the caller ages it through cnt[C_AGE] and empties it
    by setting ip[P_AGE0] above every age used); ``rows`` plies of state stack (quiescence's
    extra plies added here). Raises ValueError when the compiled engine does not run the
    combination at a finite horizon (``supports`` says so first)."""
    plan = _plan(game, algorithm, ordering, pruning, True)
    if plan is None:
        raise ValueError(f"no compiled engine for {algorithm}/{ordering} on {game.name}")
    if plan.static:
        base_order("static", game, rows, ordering_seed)
    cg = plan.cg
    rows = rows + plan.qmax + 2
    frames = 2 * rows + 2
    ip, fp = plan.ip.copy(), plan.fp.copy()
    ip[K.P_AGE0] = 0
    tt = _table(tt_size)
    killers = np.full((rows, 2), -1, np.int64)
    E = (np.zeros((rows, cg.state_size), np.uint64), np.zeros((rows, cg.max_moves), np.int64),
         np.zeros((rows, cg.max_moves)), np.zeros((rows, cg.max_moves), np.uint64),
         np.zeros(K.N_COUNTERS, np.int64), np.zeros(rows, np.int64), ip, fp,
         np.array([random_order_salt(ordering_seed)], np.uint64), *tt, killers,
         np.zeros((2, cg.n_move_ids), np.int64), np.zeros(cg.n_move_ids), plan.widths,
         np.zeros((frames, K.N_FI), np.int64), np.zeros((frames, K.N_FF)),
         np.zeros(frames, np.uint64))
    return plan.module, E


def root_search(module: Any, E: tuple, alpha: float, beta: float) -> float:
    """One compiled search of E's root (row 0) to fp[F_DEPTH], the window (alpha, beta)."""
    if _PLAIN_PYTHON:                   # wrapping uint64 arithmetic under NUMBA_DISABLE_JIT
        with np.errstate(over="ignore"):
            return float(module.search(E, alpha, beta))
    return float(module.search(E, alpha, beta))


def _table(size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A transposition table of ``size`` entries (_engine.py: T_KEY ...), rows aligned to 64
    bytes (two to a cache line), as uint64, float64 and int64 views; every entry empty (-1)."""
    words = K.T_WORDS
    raw = np.zeros(size * words + 8, np.uint64)             # 8 words of slack to align
    skip = (-raw.ctypes.data % 64) // 8
    u = raw[skip:skip + size * words].reshape(size, words)
    i = u.view(np.int64)
    i[:, K.T_META] = -1
    return u, u.view(np.float64), i


def _result(game, cg, E, root, value, best, status, wall, algorithm, ordering, horizon,
            iterations, table, pruning) -> SearchResult:
    """api.package for the compiled engine's counters."""
    cnt, per = E[4].tolist(), E[5].tolist()
    nodes = cnt[K.C_NODES]
    if status == "aborted":
        value = None
    best_move = cg.move_of(best) if status == "ok" and best is not None and best >= 0 else None
    if status == "ok" and algorithm == "minimax" and len(per) > 1 and per[1]:
        root_vals = E[14]
        best_moves = tuple(m for m in game.legal_moves(root) if root_vals[cg.id_of(m)] == value)
        complete = True
    else:
        best_moves = (best_move,) if best_move is not None else ()
        complete = False
    finite = math.isfinite(horizon)
    top = 0 if finite else max((k for k, n in enumerate(per) if n), default=0)
    length = int(horizon) + 1 if finite else top + 1
    per_ply = tuple(per[:length]) + (0,) * max(0, length - len(per))
    pruned = pruning is not None and pruning.active()
    extra = {}
    if pruned:
        extra["pruned"] = {name: cnt[i] for name, i in K.FIRED.items() if cnt[i]}
        tried = {name: int(cnt[i]) for name, i in K.TRIED.items() if cnt[i]}
        if tried:
            extra["tried"] = tried
    return SearchResult(
        value=value, best_move=best_move, best_moves=best_moves, best_moves_complete=complete,
        nodes=nodes, leaves=cnt[K.C_LEAVES], interior=nodes - cnt[K.C_LEAVES],
        cutoffs=cnt[K.C_CUTOFFS], per_ply=per_ply,
        iterations=tuple(iterations) or (nodes,), wall_time=wall, algorithm=algorithm,
        ordering=ordering, engine="compiled",
        depth=int(horizon) if finite else top, status=status,
        fail_highs=cnt[K.C_FH], first_move_fail_highs=cnt[K.C_FFH], re_searches=cnt[K.C_RE],
        tt_probes=cnt[K.C_PROBES] if table != K.TABLE_NONE else 0,
        tt_hits=cnt[K.C_HITS] if table != K.TABLE_NONE else 0,
        tt_cutoffs=cnt[K.C_TTCUT] if table != K.TABLE_NONE else 0,
        q_nodes=cnt[K.C_QNODES] if pruned else 0, extra=extra)

"""The parallel simulator's one kernel, in numba (private; see simulate.py and game_simulation.py).

It simulates p processors searching a game or a synthetic tree through its compiled primitives
(the contract: searchlab.algorithms.compiled; trees: searchlab/trees/*_compiled.py) by the event
rules of docs/parallel.md, whose machinery (the event queue, split points, aborts, jobs, the
fields' names) lives in _events.py. What a search adds:

- states are rows of ``S[q, ply]`` built by the game's ``play`` (a helper's job builds its root
  from the split point owner's row, which stays put while the split point is active);
- each node's moves are ordered by a *policy* (``ip``): a base order (natural, random, static or
  the game's own ``order_key``) and the dynamic components tt, killer and history in priority
  order, exactly as the compiled engine's ``order_moves`` (searchlab/algorithms/compiled/_engine.py,
  whose stable sort ``_sort`` this kernel calls) does; killers and history are each
  processor's own (a real engine's per-thread tables);
- MAX/MIN comes from ``max_to_move``;
- the shared table, one of two kinds (``ip[Q_TABLE]``), every entry with a lockless-hashing
  check word:
  - TABLE_ENGINE, the compiled engine's (tt.py: probe below the root, depth-preferred
    replacement, the best move stored and searched first), used when the policy names ``tt``;
    ABDADA's "being searched" counts live in separate arrays (``np_key``, ``np_cnt``), so they
    never evict a stored value;
  - TABLE_PLAIN, the simulator's own table of the readable simulator (reference_simulator.py),
    used by ABDADA and Lazy SMP in natural order on synthetic trees: probed and stored below the
    root only, an entry replaced unless it is being searched, no move stored, ABDADA's count
    (``np_cnt``) kept with the entry and an in-progress marker (no value) installed in a free
    slot.

So with p = 1 every algorithm is the compiled engine's alpha-beta with the same ordering, node
for node (tests/parallel/test_games.py), and on the synthetic trees in natural order the
readable simulator's numbers, field for field (tests/parallel/test_simulate.py). MODE_THREAD runs
one real thread: processor ``qt`` from the node at ``root_ply`` (its row preset in
``S[qt, root_ply]``) with the window (root_alpha, root_beta), until ``stop[0]`` is set; it never
splits (real YBWC splits in real_games.py).

This file is a template, as the compiled engine's: game_simulation.kernel writes, per game, a
copy whose marker block imports the game's primitives under the names below (the form numba
caches on disk; searchlab/algorithms/compiled/specialise.py says why), so the simulator is
written once and a warm process loads its compiled code instead of compiling it. Compiled
without reference counting (``_nrt=False``, as the engine): it allocates nothing and takes only
views of the caller's arrays.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from searchlab.algorithms.compiled._engine import _sort, _to_front
from searchlab.algorithms.kernels.hashing_compiled import mix64
from searchlab.parallel._events import (A0, A_, ALG_ABDADA, ALG_LAZY, ALG_PVSPLIT, ALG_YBWC, B0,
                                        B_, C_CUTOFFS, C_DEFERRED, C_LEAVES, C_MESSAGES,
                                        C_NODES, C_SPLITS, C_TT_CUTOFFS, C_TT_HITS, C_TT_PROBES,
                                        EXACT, F_IDLE, F_IDLE_SINCE, F_RES, I_BEST, I_CUR, I_ITER,
                                        I_MAX, I_N, I_NDEF, I_POS, I_PV, I_SLOT, I_SP, IDLE,
                                        LOWER, MODE_SIM, P_ABORTED, P_BASE, P_HASRES, P_HMOVE,
                                        P_ONEVAL, P_PEND, P_STATE, P_TOP, P_WORKS, PEND_JOB,
                                        PEND_NONE, PEND_ROOT, R_BEST, R_STATUS, R_TIME, R_VALUE,
                                        R_WINNER, RUNNING, UPPER, V_, WAITING, abort_helpers,
                                        close_sp, fold, heap_pop, heap_push, sp_remove, start_job)

# --- the game's primitives ----------------------------------------------------------------------
# The per-game copy replaces the lines between the markers with imports of the game's primitives
# under these names (the contract: searchlab.contracts.compiled). The template binds nothing.
# <primitives>
max_to_move = gen_moves = play = is_terminal = utility = evaluate = hash_key = order_key = None
# </primitives>
PRIMITIVE_NAMES = ("max_to_move", "gen_moves", "play", "is_terminal", "utility", "evaluate",
                   "hash_key", "order_key")

INF = np.inf
# policy (ip): base order, the game's own order code, dynamic components in priority order
Q_BASE = 0
Q_OWN = 1
Q_NDYN = 2
Q_DYN0 = 3              # .. Q_DYN0 + 2
Q_TABLE = 6             # the shared table: TABLE_NONE, TABLE_ENGINE or TABLE_PLAIN
Q_KILLER = 7
Q_HISTORY = 8
NQ = 9
B_NATURAL, B_RANDOM, B_STATIC, B_OWN = 0, 1, 2, 3
D_TABLE, D_KILLER, D_HISTORY = 1, 2, 3
TABLE_NONE, TABLE_ENGINE, TABLE_PLAIN = 0, 1, 2
_MOVE_BITS = np.uint64(0xFFFFFF)


# --- the shared table: chk = key ^ vbits ^ meta, meta = (depth + 1) << 32 | bound << 24 | move + 1
@njit(cache=True, nogil=True)
def tt_read(t_chk, t_vb, t_vf, t_meta, key):
    """(found, depth, bound, value, move) of the entry for ``key`` (a torn entry: not found)."""
    slot = np.int64(key & np.uint64(t_chk.shape[0] - 1))
    vb = t_vb[slot]
    mt = t_meta[slot]
    if mt == 0 or (t_chk[slot] ^ vb ^ mt) != key:
        return False, 0, 0, 0.0, -1
    return (True, np.int64(mt >> np.uint64(32)) - 1, np.int64((mt >> np.uint64(24)) & np.uint64(3)),
            t_vf[slot], np.int64(mt & _MOVE_BITS) - 1)


@njit(cache=True, nogil=True)
def tt_write(t_chk, t_vb, t_vf, t_meta, key, depth, value, alpha0, beta0, move):
    """tt.py's store: the bound from the node's entry window, depth-preferred replacement."""
    bound = UPPER if value <= alpha0 else (LOWER if value >= beta0 else EXACT)
    slot = np.int64(key & np.uint64(t_chk.shape[0] - 1))
    mt = t_meta[slot]
    same = mt != 0 and (t_chk[slot] ^ t_vb[slot] ^ mt) == key
    if mt == 0 or same or depth >= np.int64(mt >> np.uint64(32)) - 1:
        t_vf[slot] = value
        meta = (np.uint64(depth + 1) << np.uint64(32)) | (np.uint64(bound) << np.uint64(24)) \
            | np.uint64(move + 1)
        t_meta[slot] = meta
        t_chk[slot] = key ^ t_vb[slot] ^ meta


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def order_node(s, child, moves, kf, ku, ip, salt, killers, hist, t_chk, t_vb, t_vf, t_meta,
               key, maxing):
    """The node's legal moves into ``moves`` in the policy's order; returns their number
    (the compiled engine's order_moves; ``child`` is a scratch row, ``key`` the node's hash)."""
    n = gen_moves(s, moves)
    base = ip[Q_BASE]
    if base == B_RANDOM:
        for i in range(n):
            play(s, moves[i], child)
            ku[i] = mix64(hash_key(child) ^ salt)
        _sort(moves, ku, n, False)
    elif base == B_STATIC:
        for i in range(n):
            play(s, moves[i], child)
            kf[i] = utility(child) if is_terminal(child) else evaluate(child)
        _sort(moves, kf, n, maxing)
    elif base == B_OWN:
        for i in range(n):
            kf[i] = order_key(s, moves[i], ip[Q_OWN])
        _sort(moves, kf, n, False)
    for j in range(ip[Q_NDYN] - 1, -1, -1):           # lowest priority first; sorts are stable
        part = ip[Q_DYN0 + j]
        if part == D_HISTORY:
            side = 1 if maxing else 0
            for i in range(n):
                kf[i] = -float(hist[side, moves[i]])
            _sort(moves, kf, n, False)
        elif part == D_KILLER:
            for k in (1, 0):
                if killers[k] >= 0:
                    _to_front(moves, n, killers[k])
        elif part == D_TABLE and ip[Q_TABLE] == TABLE_ENGINE:
            found, _d, _b, _v, m = tt_read(t_chk, t_vb, t_vf, t_meta, key)
            if found and m >= 0:
                _to_front(moves, n, m)
    return n


@njit(cache=True, nogil=True)
def learn(ip, killers, hist, maxing, m, depth_left):
    """A cut by move m: the killers (two slots, most recent first) and history (+depth_left^2)."""
    if ip[Q_KILLER]:
        if killers[0] != m and killers[1] != m:
            killers[1] = killers[0]
            killers[0] = m
    if ip[Q_HISTORY]:
        hist[1 if maxing else 0, m] += depth_left * depth_left


@njit(cache=True, nogil=True)
def store_frame(q, t, depth, fr_key, fr_f, fr_i, t_chk, t_vb, t_vf, t_meta, np_key, np_cnt):
    """Frame (q, t) is finished: release its ABDADA mark, store its value and best move."""
    key = fr_key[q, t]
    slot = fr_i[q, t, I_SLOT]
    if slot >= 0 and np_key[slot] == key and np_cnt[slot] > 0:
        np_cnt[slot] -= 1
    fr_i[q, t, I_SLOT] = -1
    tt_write(t_chk, t_vb, t_vf, t_meta, key, depth - t, fr_f[q, t, V_], fr_f[q, t, A0],
             fr_f[q, t, B0], fr_i[q, t, I_BEST])


@njit(cache=True, nogil=True, inline="always")
def plain_probe(q, t, depth, key, alpha, beta, ex, abdada, t_chk, t_vb, t_meta, np_cnt, fr_i,
                pr_f, cnt, sc):
    """TABLE_PLAIN's probe of the node (q, t) with this key and window: 1 a cutoff (its value in
    pr_f[q, F_RES]), 2 ABDADA's "on evaluation" (exclusive ``ex`` and being searched), else 0
    (expand it; ABDADA: counted as searched in the entry, or in a marker put in a free slot).
    An entry is (chk = key ^ vbits ^ meta, vbits, meta = (depth + 1) * 4 + bound; meta 0: a
    marker without a value); ``sc`` is a one-word scratch to read vbits as a float."""
    slot = np.int64(key & np.uint64(t_chk.shape[0] - 1))
    vb = t_vb[slot]
    mt = t_meta[slot]
    ok = (t_chk[slot] ^ vb ^ mt) == key
    if ok:
        cnt[q, C_TT_HITS] += 1
        sd = np.int64(mt >> np.uint64(2)) - 1
        bound = np.int64(mt & np.uint64(3))
        if sd >= depth - t:
            sc[0] = vb
            tv = sc.view(np.float64)[0]
            if bound == EXACT or (bound == LOWER and tv >= beta) or \
                    (bound == UPPER and tv <= alpha):
                cnt[q, C_TT_CUTOFFS] += 1
                pr_f[q, F_RES] = tv
                return 1
    if abdada:
        if ok and ex and np_cnt[slot] > 0:
            cnt[q, C_DEFERRED] += 1
            return 2
        elif ok:
            np_cnt[slot] += 1
            fr_i[q, t, I_SLOT] = slot
        elif np_cnt[slot] == 0:
            t_vb[slot] = np.uint64(0)
            t_meta[slot] = np.uint64(0)
            t_chk[slot] = key
            np_cnt[slot] = 1
            fr_i[q, t, I_SLOT] = slot
    return 0


@njit(cache=True, nogil=True)
def plain_store(q, t, depth, fr_key, fr_f, fr_i, t_chk, t_vb, t_vf, t_meta, np_cnt):
    """TABLE_PLAIN's store of the finished frame (q, t): release its ABDADA count; replace the
    slot's entry when it is this node's or nobody is searching it (the bound from the node's
    entry window)."""
    key = fr_key[q, t]
    slot = np.int64(key & np.uint64(t_chk.shape[0] - 1))
    vb = t_vb[slot]
    mt = t_meta[slot]
    ok = (t_chk[slot] ^ vb ^ mt) == key
    if fr_i[q, t, I_SLOT] == slot and ok:
        np_cnt[slot] -= 1
    if ok or np_cnt[slot] == 0:
        v = fr_f[q, t, V_]
        bound = UPPER if v <= fr_f[q, t, A0] else (LOWER if v >= fr_f[q, t, B0] else EXACT)
        if not ok:
            np_cnt[slot] = 0
        t_vf[slot] = v
        mt = np.uint64((depth - t + 1) * 4 + bound)
        t_meta[slot] = mt
        t_chk[slot] = key ^ t_vb[slot] ^ mt


@njit(cache=True, nogil=True, _nrt=False)
def run(mode, qt, alg, p, depth, root_ply, root_alpha, root_beta, ip, seed_salt, order_salt,
        node_cost, split_cost, msg_cost, tt_cost, min_split, split_plies, max_nodes, S, MV, KF,
        KU, fr_key, fr_f, fr_i, deferred, killers, hist, pr_i, pr_f, cnt, t_chk, t_vb, t_vf,
        t_meta, np_key, np_cnt, ws_i, ws_n, ws_f, ws_u, stop, res):
    """Simulate (MODE_SIM: processors 0..p-1, every starter's root row preset in S[q, 0]) or run
    one real thread (MODE_THREAD: processor ``qt``). Splits only at plies < ``split_plies`` and
    at least ``min_split`` plies above the horizon. Results in ``res``, counters in ``cnt``.
    ``ws_i`` (4 rows of p * (depth + 1) int64), ``ws_n`` (3 int64), ``ws_f`` (p + 1 float64):
    the scheduler's work space, zeroed by the caller; ``ws_u`` (1 uint64) a scratch word. The
    table's kind is ``ip[Q_TABLE]`` (the module docstring); TABLE_PLAIN stores below the root
    only. Compiled without reference counting
    (``_nrt=False``, as the compiled engine): it allocates nothing and takes only views of the
    caller's arrays, and the counting of every view cost more than the search itself."""
    d1 = depth + 1
    use_tt = ip[Q_TABLE] != TABLE_NONE
    plain = ip[Q_TABLE] == TABLE_PLAIN
    # the scheduler's arrays (zeroed by the caller): split points' helper counts, the active
    # split points, counters, the event heap
    sp_help, sp_list, work, hq = ws_i[0], ws_i[1], ws_i[2], ws_i[3]
    sp_n, n_idle, hn = ws_n[0:1], ws_n[1:2], ws_n[2:3]
    ht = ws_f
    if mode == MODE_SIM:
        starters = p if (alg == ALG_ABDADA or alg == ALG_LAZY) else 1
        for q in range(p):
            pr_i[q, P_WORKS] = -1
            pr_i[q, P_BASE] = root_ply
            if q < starters:
                pr_i[q, P_PEND] = PEND_ROOT
                heap_push(ht, hq, hn, 0.0, q)
            else:
                pr_i[q, P_STATE] = IDLE
                n_idle[0] += 1
    else:
        pr_i[qt, P_WORKS] = -1
        pr_i[qt, P_BASE] = root_ply
        pr_i[qt, P_STATE] = RUNNING
        pr_i[qt, P_HASRES] = 0
        pr_i[qt, P_ONEVAL] = 0
        pr_i[qt, P_ABORTED] = 0
        pr_i[qt, P_PEND] = PEND_ROOT
    status = 2
    value = 0.0
    now = 0.0
    winner = -1
    total = 0
    k = 0
    while True:
        if mode == MODE_SIM:
            if hn[0] == 0:
                break
            now, q = heap_pop(ht, hq, hn)
        else:
            q = qt
            k += 1
            if (k & 255) == 0 and stop[0] != 0:
                status = 3
                break
        cost = 0.0
        src = -1          # the visit: the child at position i of frame (src, pf); -2 the root
        pf = -1
        i = -1
        ex = False
        pv = 0
        parked = False
        done = False
        pend = pr_i[q, P_PEND]
        if pend == PEND_ROOT:
            pr_i[q, P_PEND] = PEND_NONE
            src = -2
        elif pend == PEND_JOB:
            pr_i[q, P_PEND] = PEND_NONE
            s = pr_i[q, P_WORKS]
            src = s // d1
            pf = s % d1
            i = pr_i[q, P_HMOVE]
        elif pr_i[q, P_ABORTED] == 1:
            pr_i[q, P_ABORTED] = 0
            pr_i[q, P_HASRES] = 0
        else:
            hasres = pr_i[q, P_HASRES]
            fresh = hasres == 0
            c = pr_f[q, F_RES]
            onev = pr_i[q, P_ONEVAL] == 1
            t = pr_i[q, P_TOP] + 1 if fresh else pr_i[q, P_TOP]
            if hasres == 2:                       # a closed split point's frame: store it first
                pr_i[q, P_HASRES] = 1
                if use_tt and (not plain or t > 0):
                    cost += tt_cost
                    if plain:
                        plain_store(q, t, depth, fr_key, fr_f, fr_i, t_chk, t_vb, t_vf, t_meta,
                                    np_cnt)
                    else:
                        store_frame(q, t, depth, fr_key, fr_f, fr_i, t_chk, t_vb, t_vf, t_meta,
                                    np_key, np_cnt)
            while True:
                if not fresh and t == pr_i[q, P_BASE]:
                    s = pr_i[q, P_WORKS]
                    if s < 0:                        # the root of the search
                        value = c
                        done = True
                        break
                    # a helper's job is done: report to its split point, then find work
                    o = s // d1
                    ts = s % d1
                    cost += msg_cost
                    cnt[q, C_MESSAGES] += 1
                    sp_help[s] -= 1
                    pr_i[q, P_WORKS] = -1
                    mv = MV[o, ts, pr_i[q, P_HMOVE]]
                    if fold(fr_f, fr_i, o, ts, c, mv):
                        if fr_i[o, ts, I_POS] < fr_i[o, ts, I_N]:
                            cnt[q, C_CUTOFFS] += 1
                        learn(ip, killers[o, ts], hist[o], fr_i[o, ts, I_MAX] == 1, mv, depth - ts)
                        close_sp(o, ts, now, now + cost, p, d1, pr_i, pr_f, fr_f, fr_i, cnt,
                                 sp_help, sp_list, sp_n, work, ht, hq, hn)
                    elif fr_i[o, ts, I_POS] >= fr_i[o, ts, I_N] and sp_help[s] == 0 \
                            and pr_i[o, P_STATE] == WAITING and pr_i[o, P_TOP] == ts:
                        close_sp(o, ts, now, now + cost, p, d1, pr_i, pr_f, fr_f, fr_i, cnt,
                                 sp_help, sp_list, sp_n, work, ht, hq, hn)
                    break
                pt = t - 1
                is_sp = fr_i[q, pt, I_SP] == 1
                nm = fr_i[q, pt, I_N]
                cut = False
                if fresh:
                    fresh = False
                elif onev:
                    deferred[q, pt, fr_i[q, pt, I_CUR]] = 1
                    fr_i[q, pt, I_NDEF] += 1
                    onev = False
                else:
                    mv = MV[q, pt, fr_i[q, pt, I_CUR]]
                    cut = fold(fr_f, fr_i, q, pt, c, mv)
                    if cut:
                        if fr_i[q, pt, I_POS] < nm:
                            cnt[q, C_CUTOFFS] += 1
                        learn(ip, killers[q, pt], hist[q], fr_i[q, pt, I_MAX] == 1, mv, depth - pt)
                if not cut:
                    # the next child of frame pt; ABDADA's second pass takes the deferred ones
                    while True:
                        pos = fr_i[q, pt, I_POS]
                        if pos < nm:
                            fr_i[q, pt, I_POS] = pos + 1
                            if fr_i[q, pt, I_ITER] == 1:
                                if deferred[q, pt, pos] == 0:
                                    continue
                                deferred[q, pt, pos] = 0
                                ex = False
                            else:
                                ex = alg == ALG_ABDADA and pos > 0
                            i = pos
                            break
                        if alg == ALG_ABDADA and fr_i[q, pt, I_ITER] == 0 \
                                and fr_i[q, pt, I_NDEF] > 0:
                            fr_i[q, pt, I_ITER] = 1
                            fr_i[q, pt, I_POS] = 0
                            continue
                        i = -1
                        break
                    if i >= 0:
                        src = q
                        pf = pt
                        if fr_i[q, pt, I_POS] == 1:
                            pv = fr_i[q, pt, I_PV]
                        if not is_sp and (alg == ALG_YBWC or alg == ALG_PVSPLIT) \
                                and fr_i[q, pt, I_POS] == 2 and n_idle[0] > 0 \
                                and depth - pt >= min_split and pt < split_plies \
                                and (alg == ALG_YBWC or fr_i[q, pt, I_PV] == 1):
                            s = q * d1 + pt
                            fr_i[q, pt, I_SP] = 1
                            sp_list[sp_n[0]] = s
                            sp_n[0] += 1
                            sp_help[s] = 0
                            cost += split_cost
                            cnt[q, C_SPLITS] += 1
                            for r in range(p):
                                if fr_i[q, pt, I_POS] >= nm:
                                    break
                                if pr_i[r, P_STATE] == IDLE:
                                    start_job(r, q, pt, now + cost, msg_cost, d1, pr_i, pr_f,
                                              fr_i, cnt, sp_help, n_idle, ht, hq, hn)
                        break
                    if is_sp:
                        s = q * d1 + pt
                        if sp_help[s] > 0:           # wait for the helpers' jobs
                            pr_i[q, P_TOP] = pt
                            pr_i[q, P_STATE] = WAITING
                            pr_f[q, F_IDLE_SINCE] = now + cost
                            parked = True
                            break
                if is_sp:
                    s = q * d1 + pt
                    if cut:
                        abort_helpers(s, now, p, d1, pr_i, pr_f, fr_i, cnt, sp_help, sp_list,
                                      sp_n, work, ht, hq, hn)
                    fr_i[q, pt, I_SP] = 0
                    sp_remove(s, sp_list, sp_n)
                # frame pt is finished: store it in the table, return its value
                if use_tt and (not plain or pt > 0):
                    cost += tt_cost
                    if plain:
                        plain_store(q, pt, depth, fr_key, fr_f, fr_i, t_chk, t_vb, t_vf, t_meta,
                                    np_cnt)
                    else:
                        store_frame(q, pt, depth, fr_key, fr_f, fr_i, t_chk, t_vb, t_vf, t_meta,
                                    np_key, np_cnt)
                t = pt
                c = fr_f[q, pt, V_]

        if done:
            winner = q
            status = 0
            break
        if src != -1:
            # ============ the visit ============
            if src == -2:
                t = root_ply
                alpha = root_alpha
                beta = root_beta
                pv = 1
            else:
                t = pf + 1
                alpha = fr_f[src, pf, A_]
                beta = fr_f[src, pf, B_]
                play(S[src, pf], MV[src, pf, i], S[q, t])
                if src == q:
                    fr_i[q, pf, I_CUR] = i
                else:                                  # a helper's job: its own root
                    pv = 0
            st = S[q, t]
            cost += node_cost
            pr_i[q, P_TOP] = t
            cnt[q, C_NODES] += 1
            total += 1
            pr_i[q, P_HASRES] = 1
            pr_i[q, P_ONEVAL] = 0
            expand_it = True
            key = np.uint64(0)
            if is_terminal(st):
                cnt[q, C_LEAVES] += 1
                pr_f[q, F_RES] = utility(st)
                expand_it = False
            elif t >= depth:
                cnt[q, C_LEAVES] += 1
                pr_f[q, F_RES] = evaluate(st)
                expand_it = False
            else:
                fr_i[q, t, I_SLOT] = -1
                if use_tt:
                    key = hash_key(st)
                    fr_key[q, t] = key
                    if t > 0 and plain:
                        cost += tt_cost
                        cnt[q, C_TT_PROBES] += 1
                        got = plain_probe(q, t, depth, key, alpha, beta, ex, alg == ALG_ABDADA,
                                          t_chk, t_vb, t_meta, np_cnt, fr_i, pr_f, cnt, ws_u)
                        if got == 2:
                            pr_i[q, P_ONEVAL] = 1
                        expand_it = got == 0
                    elif t > 0:
                        cost += tt_cost
                        cnt[q, C_TT_PROBES] += 1
                        found, sd, bound, tv, _m = tt_read(t_chk, t_vb, t_vf, t_meta, key)
                        if found:
                            cnt[q, C_TT_HITS] += 1
                            if sd >= depth - t and (bound == EXACT or (bound == LOWER and tv >= beta)
                                                    or (bound == UPPER and tv <= alpha)):
                                cnt[q, C_TT_CUTOFFS] += 1
                                pr_f[q, F_RES] = tv
                                expand_it = False
                        if expand_it and alg == ALG_ABDADA:
                            slot = np.int64(key & np.uint64(np_key.shape[0] - 1))
                            busy = np_cnt[slot] > 0 and np_key[slot] == key
                            if ex and busy:
                                cnt[q, C_DEFERRED] += 1
                                pr_i[q, P_ONEVAL] = 1
                                expand_it = False
                            elif busy:
                                np_cnt[slot] += 1
                                fr_i[q, t, I_SLOT] = slot
                            elif np_cnt[slot] <= 0:
                                np_key[slot] = key
                                np_cnt[slot] = 1
                                fr_i[q, t, I_SLOT] = slot
            if expand_it:
                # an interior node: its frame and its moves in the policy's order
                pr_i[q, P_HASRES] = 0
                maxing = max_to_move(st)
                fr_f[q, t, A_] = alpha
                fr_f[q, t, B_] = beta
                fr_f[q, t, A0] = alpha
                fr_f[q, t, B0] = beta
                fr_f[q, t, V_] = -INF if maxing else INF
                fr_i[q, t, I_MAX] = 1 if maxing else 0
                fr_i[q, t, I_POS] = 0
                fr_i[q, t, I_BEST] = -1
                fr_i[q, t, I_ITER] = 0
                fr_i[q, t, I_NDEF] = 0
                fr_i[q, t, I_PV] = pv
                fr_i[q, t, I_SP] = 0
                moves = MV[q, t]
                n = order_node(st, S[q, t + 1], moves, KF[q, t], KU[q, t], ip, order_salt,
                               killers[q, t], hist[q], t_chk, t_vb, t_vf, t_meta, key, maxing)
                fr_i[q, t, I_N] = n
                if alg == ALG_ABDADA:
                    for j in range(n):
                        deferred[q, t, j] = 0
                if alg == ALG_LAZY and q > 0 and n > 2:
                    # a helper keeps the first move first, the rest in the order of its hash
                    salt = mix64(seed_salt ^ np.uint64(q))
                    ku = KU[q, t]
                    for j in range(1, n):
                        play(st, moves[j], S[q, t + 1])
                        ku[j] = mix64(hash_key(S[q, t + 1]) ^ salt)
                    _sort(moves[1:], ku[1:], n - 1, False)
        elif not parked:
            # q's job is over (done, or aborted): a child of the split point nearest the root
            best_s = -1
            for kk in range(sp_n[0]):
                s = sp_list[kk]
                if fr_i[s // d1, s % d1, I_POS] < fr_i[s // d1, s % d1, I_N] and (
                        best_s < 0 or s % d1 < best_s % d1
                        or (s % d1 == best_s % d1 and s // d1 < best_s // d1)):
                    best_s = s
            pr_i[q, P_STATE] = IDLE
            pr_f[q, F_IDLE_SINCE] = now + cost
            n_idle[0] += 1
            parked = True
            if best_s >= 0:
                start_job(q, best_s // d1, best_s % d1, now + cost, msg_cost, d1, pr_i, pr_f,
                          fr_i, cnt, sp_help, n_idle, ht, hq, hn)
        if mode == MODE_SIM and not parked:
            heap_push(ht, hq, hn, now + cost, q)
        if total > max_nodes:
            status = 1
            break

    if mode != MODE_SIM:
        if status == 0:
            stop[0] = 1
        res[R_STATUS] = status
        res[R_VALUE] = value
        res[R_BEST] = fr_i[qt, root_ply, I_BEST] if status == 0 else -1
        return
    for q in range(p):
        if pr_i[q, P_STATE] != RUNNING:
            pr_f[q, F_IDLE] += max(0.0, now - pr_f[q, F_IDLE_SINCE])
    res[R_STATUS] = status
    res[R_VALUE] = value
    res[R_BEST] = fr_i[winner, root_ply, I_BEST] if winner >= 0 else -1
    res[R_TIME] = now
    res[R_WINNER] = winner

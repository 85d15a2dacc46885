"""The discrete-event simulator of parallel alpha-beta, in numba (private; see simulate.py).

Its specification is the readable simulator, reference_simulator.py: tests/parallel compares the two
field for field, and this code run as plain Python (NUMBA_DISABLE_JIT=1) with itself compiled.
The rules (docs/parallel.md), in short:

- p virtual processors, each running a *job*: a sequential fail-soft alpha-beta (the textbook
  form of searchlab/algorithms/reference.py, natural move order) of one subtree with one window,
  on an explicit stack of frames indexed by absolute ply.
- A processor's *step* first finishes what its previous visit started (a leaf's or a table
  hit's value travels up through every frame it completes; table stores, split-point reports and
  splits happen here) and then visits exactly one node (counted; a table probe at an interior
  node below the root). The step costs ``node_cost`` plus the split, message and table costs of
  what it did. The clock is in node-visit units; steps run in order of (time, processor id).
- PV-split and YBWC share split points: a node that has searched its first child without a
  cutoff, and has a second to search, becomes a split point when a processor is idle (PV-split:
  only on the leftmost path of the root job; both: at least ``min_split`` plies above the
  horizon). Idle processors take its remaining children one at a time as jobs (a message, then
  the visit); a cutoff aborts the other children's jobs (and, recursively, the split points
  inside them); the owner waits (idle) until its split point's last job has reported. p = 1
  never splits: it is sequential alpha-beta, node for node.
- ABDADA and Lazy SMP start every processor on the root with one shared transposition table.
  ABDADA searches every child but the first *exclusively* (a node that another processor is
  searching answers "on evaluation" and is deferred to a second, non-exclusive pass); Lazy SMP's
  helpers (processor > 0) keep the first move first and order the others by a per-processor
  hash. The search ends when the first processor completes the root.

Speed: the whole step lives in one function (``run``) over arrays bound once, because numba
reference-counts every array handed to a call; only rare events (a split point closing, a job
starting) are separate functions. Every jitted function lives in this one file (numba's on-disk
cache only notices edits to the file defining a cached function); the tree primitives come from
the synthetic-tree kernel.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from searchlab.algorithms.kernels._alphabeta import (MODEL_INCREMENTAL, MODEL_ORDERED,
                                                     argsort_stable, child_key, leaf_value, mix64,
                                                     noise, ordered_layout)

INF = np.inf

# algorithms
ALG_PVSPLIT = 0
ALG_YBWC = 1
ALG_ABDADA = 2
ALG_LAZY = 3

# run modes
MODE_SIM = 0            # all p processors, simulated, in one call
MODE_THREAD = 1         # one real thread: processor q only, until ``stop`` is set

# processor states
RUNNING = 0
IDLE = 1
WAITING = 2             # an owner blocked until its split point's jobs have reported

# pr_i fields (per processor, int64)
P_TOP = 0               # ply of the top frame
P_BASE = 1              # ply of the job's root frame
P_STATE = 2
P_HASRES = 3            # 1: the node at P_TOP has returned the value in F_RES
P_ONEVAL = 4            # ... and that value is ABDADA's "on evaluation"
P_WORKS = 5             # split point id (owner * (depth + 1) + ply) of a helper's job, else -1
P_HMOVE = 6             # the split point's child this helper searches
P_ABORTED = 7
P_PEND = 8              # a visit due at the next step: PEND_ROOT or PEND_JOB
NPI = 9
PEND_NONE = 0
PEND_ROOT = 1
PEND_JOB = 2
# pr_f fields (per processor, float64)
F_RES = 0
F_IDLE_SINCE = 1
F_IDLE = 2
NPF = 3

# fr_i fields (per processor, per ply)
I_POS = 0               # children taken so far in the current pass
I_CUR = 1               # natural index of the child being searched
I_BEST = 2
I_ITER = 3              # ABDADA pass (0 exclusive, 1 the deferred children)
I_NDEF = 4
I_PV = 5
I_SP = 6                # 1: this frame is an active split point
I_SLOT = 7              # ABDADA: table slot whose in-progress count this frame holds, else -1
NFI = 8
# fr_f fields
A_ = 0
B_ = 1
A0 = 2
B0 = 3
V_ = 4
NFF = 5

# counters (per processor)
C_NODES = 0
C_LEAVES = 1
C_TT_PROBES = 2
C_TT_HITS = 3
C_TT_CUTOFFS = 4
C_DEFERRED = 5          # ABDADA "on evaluation" answers
C_SPLITS = 6
C_JOBS = 7              # helper jobs started
C_MESSAGES = 8
C_ABORTS = 9            # jobs aborted by a cutoff at their split point
C_CUTOFFS = 10          # cut events with children not yet taken
NC = 11

# run() results
R_STATUS = 0            # 0 ok, 1 node budget exhausted, 2 no event left (a bug), 3 stopped
R_VALUE = 1
R_BEST = 2
R_TIME = 3
R_WINNER = 4
NR = 5

EXACT = 0
LOWER = 1
UPPER = 2


# --- the event queue: a binary heap on (time, processor) ---------------------------------
@njit(cache=True)
def heap_push(ht, hq, hn, t, q):
    i = hn[0]
    hn[0] = i + 1
    ht[i] = t
    hq[i] = q
    while i > 0:
        par = (i - 1) // 2
        if ht[par] < ht[i] or (ht[par] == ht[i] and hq[par] < hq[i]):
            break
        ht[par], ht[i] = ht[i], ht[par]
        hq[par], hq[i] = hq[i], hq[par]
        i = par


@njit(cache=True)
def heap_pop(ht, hq, hn):
    t = ht[0]
    q = hq[0]
    n = hn[0] - 1
    hn[0] = n
    ht[0] = ht[n]
    hq[0] = hq[n]
    i = 0
    while True:
        m = 2 * i + 1
        if m >= n:
            break
        if m + 1 < n and (ht[m + 1] < ht[m] or (ht[m + 1] == ht[m] and hq[m + 1] < hq[m])):
            m += 1
        if ht[i] < ht[m] or (ht[i] == ht[m] and hq[i] < hq[m]):
            break
        ht[m], ht[i] = ht[i], ht[m]
        hq[m], hq[i] = hq[i], hq[m]
        i = m
    return t, q


@njit(cache=True, inline="always")
def fold(fr_f, fr_i, o, t, c, move):
    """Fold child ``move``'s value c into frame (o, t) (fail-soft alpha-beta, MAX at even
    plies); True on a cutoff."""
    if (t & 1) == 0:
        if c > fr_f[o, t, V_]:
            fr_f[o, t, V_] = c
            fr_i[o, t, I_BEST] = move
        if fr_f[o, t, V_] >= fr_f[o, t, B_]:
            return True
        if fr_f[o, t, V_] > fr_f[o, t, A_]:
            fr_f[o, t, A_] = fr_f[o, t, V_]
    else:
        if c < fr_f[o, t, V_]:
            fr_f[o, t, V_] = c
            fr_i[o, t, I_BEST] = move
        if fr_f[o, t, V_] <= fr_f[o, t, A_]:
            return True
        if fr_f[o, t, V_] < fr_f[o, t, B_]:
            fr_f[o, t, B_] = fr_f[o, t, V_]
    return False


# --- rare events: split points closing, jobs starting -------------------------------------
@njit(cache=True)
def sp_remove(s, sp_list, sp_n):
    for k in range(sp_n[0]):
        if sp_list[k] == s:
            sp_n[0] -= 1
            sp_list[k] = sp_list[sp_n[0]]
            return


@njit(cache=True)
def abort_helpers(s, now, p, d1, pr_i, pr_f, fr_i, cnt, sp_help, sp_list, sp_n, work, ht, hq,
                  hn):
    """Abort every job working for split point s and, recursively, the split points inside
    them. An aborted processor notices at its next event (a waiting one is woken now)."""
    n = 0
    for h in range(p):
        if pr_i[h, P_WORKS] == s:
            work[n] = h
            n += 1
    sp_help[s] = 0
    while n > 0:
        n -= 1
        h = work[n]
        for t in range(pr_i[h, P_BASE], pr_i[h, P_TOP] + 1):
            if fr_i[h, t, I_SP] == 1:
                s2 = h * d1 + t
                fr_i[h, t, I_SP] = 0
                sp_remove(s2, sp_list, sp_n)
                sp_help[s2] = 0
                for h2 in range(p):
                    if pr_i[h2, P_WORKS] == s2:
                        work[n] = h2
                        n += 1
        pr_i[h, P_WORKS] = -1
        pr_i[h, P_ABORTED] = 1
        pr_i[h, P_PEND] = PEND_NONE
        cnt[h, C_ABORTS] += 1
        if pr_i[h, P_STATE] == WAITING:
            pr_i[h, P_STATE] = RUNNING
            pr_f[h, F_IDLE] += now - pr_f[h, F_IDLE_SINCE]
            heap_push(ht, hq, hn, now, h)


@njit(cache=True)
def close_sp(o, t, now, wake_at, p, d1, pr_i, pr_f, fr_f, fr_i, cnt, sp_help, sp_list, sp_n,
             work, ht, hq, hn):
    """Split point (o, t) is finished (cut, or its last job reported): abort what still works
    for it, deactivate it and make its owner return the frame's value; a waiting owner is woken
    at ``wake_at``; an owner still searching a child of t (running, or waiting at a split point
    inside that child) drops it."""
    abort_helpers(o * d1 + t, now, p, d1, pr_i, pr_f, fr_i, cnt, sp_help, sp_list, sp_n, work,
                  ht, hq, hn)
    fr_i[o, t, I_SP] = 0
    sp_remove(o * d1 + t, sp_list, sp_n)
    if pr_i[o, P_STATE] == WAITING:
        pr_i[o, P_STATE] = RUNNING
        pr_f[o, F_IDLE] += wake_at - pr_f[o, F_IDLE_SINCE]
        heap_push(ht, hq, hn, wake_at, o)
    for u in range(t + 1, pr_i[o, P_TOP] + 1):
        if fr_i[o, u, I_SP] == 1:
            abort_helpers(o * d1 + u, now, p, d1, pr_i, pr_f, fr_i, cnt, sp_help, sp_list, sp_n,
                          work, ht, hq, hn)
            fr_i[o, u, I_SP] = 0
            sp_remove(o * d1 + u, sp_list, sp_n)
    pr_i[o, P_TOP] = t
    pr_i[o, P_HASRES] = 1
    pr_i[o, P_ONEVAL] = 0
    pr_f[o, F_RES] = fr_f[o, t, V_]


@njit(cache=True)
def start_job(r, o, ts, at, msg_cost, d1, pr_i, pr_f, fr_i, cnt, sp_help, n_idle, ht, hq, hn):
    """Idle processor r takes the next child of split point (o, ts) at time ``at``: it visits
    the child at its next step, after a message (PV-split and YBWC only: a single pass)."""
    pos = fr_i[o, ts, I_POS]
    fr_i[o, ts, I_POS] = pos + 1
    pr_f[r, F_IDLE] += at - pr_f[r, F_IDLE_SINCE]
    pr_i[r, P_STATE] = RUNNING
    n_idle[0] -= 1
    pr_i[r, P_WORKS] = o * d1 + ts
    pr_i[r, P_HMOVE] = pos                     # PV-split and YBWC search in natural order
    pr_i[r, P_BASE] = ts + 1
    pr_i[r, P_ABORTED] = 0
    pr_i[r, P_PEND] = PEND_JOB
    sp_help[o * d1 + ts] += 1
    cnt[r, C_JOBS] += 1
    cnt[r, C_MESSAGES] += 1
    heap_push(ht, hq, hn, at + msg_cost, r)


# --- the run ---------------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def run(mode, qt, alg, p, depth, b, model, root_key, levels, w_best, w_random, scale, good,
        a_coef, c_coef, seed_salt, node_cost, split_cost, msg_cost, tt_cost, min_split,
        max_nodes, fr_key, fr_f, fr_i, ch_key, ch_st, perm, deferred, pr_i, pr_f, cnt, tt_chk,
        tt_vb, tt_vf, tt_meta, tt_np, stop, res):
    """Run the simulation (MODE_SIM: processors 0..p-1) or one real thread (MODE_THREAD:
    processor ``qt`` only, Lazy SMP, until ``stop[0]`` is set by whichever thread completes the
    root first). Results in ``res`` (R_* fields), counters in ``cnt``, idle times in
    ``pr_f[:, F_IDLE]`` (closed at the end).

    The table (tt_* arrays, a power-of-two number of slots) holds per slot chk = key ^ vbits ^
    meta (lockless hashing: a torn write by a racing thread fails the check), vbits (the value's
    bits; tt_vf is the same memory as float64), meta = (depth + 1) * 4 + bound (0: an
    in-progress marker without a value) and ABDADA's in-progress count tt_np.
    """
    d1 = depth + 1
    bb = max(b, 1)
    use_tt = alg == ALG_ABDADA or alg == ALG_LAZY
    tt_mask = np.uint64(tt_chk.shape[0] - 1)
    rank = np.zeros(bb, np.int64)
    inv = np.zeros(bb, np.int64)
    draws = np.zeros(bb, np.float64)
    deltas = np.zeros(bb, np.float64)
    ubuf = np.zeros(bb, np.uint64)
    sc_u = np.zeros(1, np.uint64)
    sc_f = sc_u.view(np.float64)
    sp_help = np.zeros(p * d1, np.int64)
    sp_list = np.zeros(p * d1, np.int64)
    sp_n = np.zeros(1, np.int64)
    n_idle = np.zeros(1, np.int64)
    work = np.zeros(p + 1, np.int64)
    ht = np.zeros(p + 1, np.float64)
    hq = np.zeros(p + 1, np.int64)
    hn = np.zeros(1, np.int64)

    if mode == MODE_SIM:
        starters = p if use_tt else 1
        for q in range(p):
            pr_i[q, P_WORKS] = -1
            if q < starters:
                pr_i[q, P_PEND] = PEND_ROOT
                heap_push(ht, hq, hn, 0.0, q)
            else:
                pr_i[q, P_STATE] = IDLE
                n_idle[0] += 1
    else:
        pr_i[qt, P_WORKS] = -1
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
            if (k & 1023) == 0 and stop[0] != 0:
                status = 3
                break
        # ============ processor q's step at time now ============
        cost = 0.0
        src = -1          # the visit: child i of frame (src, pf), or the root if src == -2
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
            fresh = pr_i[q, P_HASRES] == 0      # a freshly expanded node: its first child
            c = pr_f[q, F_RES]
            onev = pr_i[q, P_ONEVAL] == 1
            t = pr_i[q, P_TOP] + 1 if fresh else pr_i[q, P_TOP]
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
                    if fold(fr_f, fr_i, o, ts, c, pr_i[q, P_HMOVE]):
                        if fr_i[o, ts, I_POS] < b:
                            cnt[q, C_CUTOFFS] += 1
                        close_sp(o, ts, now, now + cost, p, d1, pr_i, pr_f, fr_f, fr_i, cnt,
                                 sp_help, sp_list, sp_n, work, ht, hq, hn)
                    elif fr_i[o, ts, I_POS] >= b and sp_help[s] == 0 \
                            and pr_i[o, P_STATE] == WAITING and pr_i[o, P_TOP] == ts:
                        close_sp(o, ts, now, now + cost, p, d1, pr_i, pr_f, fr_f, fr_i, cnt,
                                 sp_help, sp_list, sp_n, work, ht, hq, hn)
                    break
                pt = t - 1
                is_sp = fr_i[q, pt, I_SP] == 1
                cut = False
                if fresh:
                    fresh = False
                elif onev:
                    deferred[q, pt, fr_i[q, pt, I_CUR]] = 1
                    fr_i[q, pt, I_NDEF] += 1
                    onev = False
                else:
                    cut = fold(fr_f, fr_i, q, pt, c, fr_i[q, pt, I_CUR])
                    if cut and fr_i[q, pt, I_POS] < b:
                        cnt[q, C_CUTOFFS] += 1
                if not cut:
                    # the next child of frame pt; ABDADA's second pass takes the deferred ones
                    while True:
                        pos = fr_i[q, pt, I_POS]
                        if pos < b:
                            fr_i[q, pt, I_POS] = pos + 1
                            j = perm[q, pt, pos]
                            if fr_i[q, pt, I_ITER] == 1:
                                if deferred[q, pt, j] == 0:
                                    continue
                                deferred[q, pt, j] = 0
                                i = j
                                ex = False
                            else:
                                i = j
                                ex = alg == ALG_ABDADA and pos > 0
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
                                and depth - pt >= min_split \
                                and (alg == ALG_YBWC or fr_i[q, pt, I_PV] == 1):
                            # a split point: the owner has taken the second child, idle
                            # processors take the rest (lowest id first)
                            s = q * d1 + pt
                            fr_i[q, pt, I_SP] = 1
                            sp_list[sp_n[0]] = s
                            sp_n[0] += 1
                            sp_help[s] = 0
                            cost += split_cost
                            cnt[q, C_SPLITS] += 1
                            for r in range(p):
                                if fr_i[q, pt, I_POS] >= b:
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
                v = fr_f[q, pt, V_]
                if use_tt and pt > 0:
                    key = fr_key[q, pt]
                    slot = np.int64(key & tt_mask)
                    cost += tt_cost
                    vb = tt_vb[slot]
                    mt = tt_meta[slot]
                    ok = (tt_chk[slot] ^ vb ^ mt) == key
                    if fr_i[q, pt, I_SLOT] == slot and ok:
                        tt_np[slot] -= 1
                    if ok or tt_np[slot] == 0:
                        bound = UPPER if v <= fr_f[q, pt, A0] else (
                            LOWER if v >= fr_f[q, pt, B0] else EXACT)
                        if not ok:
                            tt_np[slot] = 0
                        tt_vf[slot] = v
                        mt = np.uint64((depth - pt + 1) * 4 + bound)
                        tt_meta[slot] = mt
                        tt_chk[slot] = key ^ tt_vb[slot] ^ mt
                t = pt
                c = v

        if done:
            winner = q
            status = 0
            break
        if src != -1:
            # ============ the visit ============
            if src == -2:
                t = 0
                key = root_key
                st = 0.0
                alpha = -INF
                beta = INF
                pv = 1
            else:
                t = pf + 1
                key = ch_key[src, pf, i]
                st = ch_st[src, pf, i]
                alpha = fr_f[src, pf, A_]
                beta = fr_f[src, pf, B_]
                if src == q:
                    fr_i[q, pf, I_CUR] = i
                else:                                  # a helper's job: its own root
                    pv = 0
            cost += node_cost
            pr_i[q, P_TOP] = t
            cnt[q, C_NODES] += 1
            total += 1
            fr_key[q, t] = key
            pr_i[q, P_HASRES] = 1
            pr_i[q, P_ONEVAL] = 0
            expand_it = True
            if t >= depth:
                cnt[q, C_LEAVES] += 1
                pr_f[q, F_RES] = leaf_value(model, key, st, levels)
                expand_it = False
            else:
                fr_i[q, t, I_SLOT] = -1
                if use_tt and t > 0:
                    cost += tt_cost
                    cnt[q, C_TT_PROBES] += 1
                    slot = np.int64(key & tt_mask)
                    vb = tt_vb[slot]
                    mt = tt_meta[slot]
                    ok = (tt_chk[slot] ^ vb ^ mt) == key
                    if ok:
                        cnt[q, C_TT_HITS] += 1
                        sd = np.int64(mt >> np.uint64(2)) - 1
                        bound = np.int64(mt & np.uint64(3))
                        if sd >= depth - t:
                            sc_u[0] = vb
                            tv = sc_f[0]
                            if bound == EXACT or (bound == LOWER and tv >= beta) or \
                                    (bound == UPPER and tv <= alpha):
                                cnt[q, C_TT_CUTOFFS] += 1
                                pr_f[q, F_RES] = tv
                                expand_it = False
                    if expand_it and alg == ALG_ABDADA:
                        if ok and ex and tt_np[slot] > 0:
                            cnt[q, C_DEFERRED] += 1
                            pr_i[q, P_ONEVAL] = 1
                            expand_it = False
                        elif ok:
                            tt_np[slot] += 1
                            fr_i[q, t, I_SLOT] = slot
                        elif tt_np[slot] == 0:
                            tt_vb[slot] = np.uint64(0)
                            tt_meta[slot] = np.uint64(0)
                            tt_chk[slot] = key
                            tt_np[slot] = 1
                            fr_i[q, t, I_SLOT] = slot
            if expand_it:
                # an interior node: its frame, its children and their search order
                pr_i[q, P_HASRES] = 0
                fr_f[q, t, A_] = alpha
                fr_f[q, t, B_] = beta
                fr_f[q, t, A0] = alpha
                fr_f[q, t, B0] = beta
                is_max = (t & 1) == 0
                fr_f[q, t, V_] = -INF if is_max else INF
                fr_i[q, t, I_POS] = 0
                fr_i[q, t, I_BEST] = -1
                fr_i[q, t, I_ITER] = 0
                fr_i[q, t, I_NDEF] = 0
                fr_i[q, t, I_PV] = pv
                fr_i[q, t, I_SP] = 0
                for j in range(b):
                    ch_key[q, t, j] = child_key(key, j)
                if alg == ALG_ABDADA:
                    for j in range(b):
                        deferred[q, t, j] = 0
                if model == MODEL_ORDERED:
                    ordered_layout(key, b, w_best, w_random, rank, inv, draws, deltas)
                    for j in range(b):
                        ch_st[q, t, j] = st - deltas[rank[j]] if is_max else st + deltas[rank[j]]
                elif model == MODEL_INCREMENTAL:
                    sign = 1.0 if is_max else -1.0
                    for j in range(b):
                        ch_st[q, t, j] = st + sign * scale[t] * (
                            a_coef * good[t, j] + c_coef * noise(ch_key[q, t, j]))
                if alg == ALG_LAZY and q > 0 and b > 2:
                    # a helper keeps the first move first, the rest in the order of its hash
                    salt = mix64(seed_salt ^ np.uint64(q))
                    for j in range(b - 1):
                        ubuf[j] = mix64(ch_key[q, t, j + 1] ^ salt)
                    argsort_stable(ubuf, inv, b - 1, False)
                    perm[q, t, 0] = 0
                    for j in range(b - 1):
                        perm[q, t, j + 1] = inv[j] + 1
                else:
                    for j in range(b):
                        perm[q, t, j] = j
        elif not parked:
            # q's job is over (done, or aborted): a child of the split point nearest the root
            best_s = -1
            for kk in range(sp_n[0]):
                s = sp_list[kk]
                if fr_i[s // d1, s % d1, I_POS] < b and (
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

    if mode == MODE_THREAD:
        if status == 0:
            stop[0] = 1
        res[R_STATUS] = status
        res[R_VALUE] = value
        res[R_BEST] = fr_i[qt, 0, I_BEST] if status == 0 else -1
        return
    for q in range(p):
        if pr_i[q, P_STATE] != RUNNING:
            pr_f[q, F_IDLE] += max(0.0, now - pr_f[q, F_IDLE_SINCE])
    res[R_STATUS] = status
    res[R_VALUE] = value
    res[R_BEST] = fr_i[winner, 0, I_BEST] if winner >= 0 else -1
    res[R_TIME] = now
    res[R_WINNER] = winner

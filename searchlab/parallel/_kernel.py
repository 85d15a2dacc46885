"""The discrete-event simulator of parallel alpha-beta, in numba (private; see simulate.py).

One code path, compiled by numba or run as plain Python under NUMBA_DISABLE_JIT=1 (the tests
compare the two). The rules it implements are stated in docs/parallel.md; in short:

- p virtual processors, each running a *job*: a sequential fail-soft alpha-beta (the textbook
  form of searchlab/algorithms/reference.py, natural move order) of one subtree with one window,
  on an explicit stack of frames indexed by absolute ply.
- A processor's *step* first finishes what its previous visit started (a leaf's or a table
  hit's value travels up through every frame it completes; table stores, split-point reports,
  splits happen here) and then visits exactly one node (counted; a table probe at an interior
  node below the root). The step costs ``node_cost`` plus the split, message and table costs of
  what it did. The clock is in node-visit units; steps run in order of (time, processor id).
- PV-split and YBWC share split points: a node that has searched its first child without a
  cutoff becomes a split point when a processor is idle (PV-split: only on the leftmost path of
  the root job; both: at least ``min_split`` plies above the horizon); idle processors take its
  remaining children one at a time as jobs; a cutoff aborts the other children's jobs (and,
  recursively, the split points inside them); the owner waits (idle) until its split point's
  last job returns. p = 1 never splits: it is sequential alpha-beta, node for node.
- ABDADA and Lazy SMP start every processor on the root with one shared transposition table.
  ABDADA searches every child but the first *exclusively* (a node that another processor is
  searching answers "on evaluation" and is deferred to a second pass); Lazy SMP's helpers
  (processor > 0) keep the first move first and order the others by a per-processor hash. The
  search ends when the first processor completes the root.

Every jitted function lives in this one file (numba's on-disk cache only notices edits to the
file defining a cached function). The tree primitives come from the synthetic-tree kernel.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from searchlab.algorithms.kernels._alphabeta import (MODEL_INCREMENTAL, MODEL_ORDERED,
                                                     child_key, leaf_value, mix64, noise,
                                                     ordered_layout, argsort_stable)

INF = np.inf

# algorithms
ALG_PVSPLIT = 0
ALG_YBWC = 1
ALG_ABDADA = 2
ALG_LAZY = 3

# processor states
RUNNING = 0
IDLE = 1
WAITING = 2             # an owner blocked until its split point's jobs return

# step outcomes
STEP_CONTINUE = 0       # reschedule at now + cost
STEP_PARKED = 1         # idle or waiting: not rescheduled until woken
STEP_DONE = 2           # the root's value is known

# pr_i fields (per processor, int64)
P_TOP = 0               # ply of the top frame
P_BASE = 1              # ply of the job's root frame
P_STATE = 2
P_HASRES = 3            # 1: the node at P_TOP has returned the value in F_RES
P_ONEVAL = 4            # ... and that value is ABDADA's "on evaluation"
P_WORKS = 5             # split point id the job works for (helpers), -1 otherwise
P_HMOVE = 6             # the split point's child this helper searches
P_ABORTED = 7
NPI = 8
# pr_f fields (per processor, float64)
F_RES = 0
F_IDLE_SINCE = 1
F_IDLE = 2
NPF = 3

# fr_i fields (per processor, per ply)
I_POS = 0               # children taken so far in the current pass
I_CUR = 1               # natural index of the child being searched
I_BEST = 2
I_ITER = 3              # ABDADA pass (0 exclusive, 1 deferred children)
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
ST = 5                  # assigned (ordered) / static (incremental) value of the node
NFF = 6

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
C_CUTOFFS = 10
NC = 11

EXACT = 0
LOWER = 1
UPPER = 2


# --- the event queue: a binary heap on (time, processor) ---------------------------------
@njit(cache=True)
def _before(ht, hq, i, j):
    return ht[i] < ht[j] or (ht[i] == ht[j] and hq[i] < hq[j])


@njit(cache=True)
def heap_push(ht, hq, hn, t, q):
    i = hn[0]
    hn[0] = i + 1
    ht[i] = t
    hq[i] = q
    while i > 0:
        par = (i - 1) // 2
        if _before(ht, hq, par, i):
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
        left = 2 * i + 1
        if left >= n:
            break
        m = left
        if left + 1 < n and _before(ht, hq, left + 1, left):
            m = left + 1
        if _before(ht, hq, i, m):
            break
        ht[m], ht[i] = ht[i], ht[m]
        hq[m], hq[i] = hq[i], hq[m]
        i = m
    return t, q


# --- the shared transposition table -----------------------------------------------------
# A slot holds chk = key ^ vbits ^ meta (lockless hashing: a torn write by a racing thread
# fails the check), vbits = the value's bits, meta = (depth + 1) * 4 + bound (meta 0: an
# in-progress marker without a value), and ABDADA's in-progress count.
@njit(cache=True)
def tt_match(tt_chk, tt_vb, tt_meta, slot, key):
    vb = tt_vb[slot]
    mt = tt_meta[slot]
    return (tt_chk[slot] ^ vb ^ mt) == key, vb, mt


@njit(cache=True)
def tt_write(tt_chk, tt_vb, tt_vf, tt_meta, slot, key, value, depth, bound):
    tt_vf[slot] = value
    mt = np.uint64((depth + 1) * 4 + bound)
    tt_meta[slot] = mt
    tt_chk[slot] = key ^ tt_vb[slot] ^ mt


# --- one processor's frames ---------------------------------------------------------------
@njit(cache=True)
def expand(q, t, key, st, helper_salt, alg, b, model, w_best, w_random, scale, good, a_coef,
           c_coef, ch_key, ch_st, perm, wk_i, wk_f, wk_u):
    """Children of the interior node (q, t): keys, assigned/static values, search order."""
    is_max = (t & 1) == 0
    for i in range(b):
        ch_key[q, t, i] = child_key(key, i)
    if model == MODEL_ORDERED:
        ordered_layout(key, b, w_best, w_random, wk_i[q, 0], wk_i[q, 1], wk_f[q, 0], wk_f[q, 1])
        for i in range(b):
            d = wk_f[q, 1, wk_i[q, 0, i]]
            ch_st[q, t, i] = st - d if is_max else st + d
    elif model == MODEL_INCREMENTAL:
        sign = 1.0 if is_max else -1.0
        for i in range(b):
            ch_st[q, t, i] = st + sign * scale[t] * (a_coef * good[t, i]
                                                     + c_coef * noise(ch_key[q, t, i]))
    if alg == ALG_LAZY and q > 0 and b > 2:
        # a helper keeps the first move first and orders the rest by its own hash
        for i in range(b - 1):
            wk_u[q, i] = mix64(ch_key[q, t, i + 1] ^ helper_salt)
        argsort_stable(wk_u[q], wk_i[q, 0], b - 1, False)
        perm[q, t, 0] = 0
        for r in range(b - 1):
            perm[q, t, r + 1] = wk_i[q, 0, r] + 1
    else:
        for i in range(b):
            perm[q, t, i] = i


@njit(cache=True)
def enter(q, t, key, st, alpha, beta, excl, pv, alg, depth, b, model, levels, w_best, w_random,
          scale, good, a_coef, c_coef, helper_salt, use_tt, tt_mask, tt_cost, fr_key, fr_f,
          fr_i, ch_key, ch_st, perm, wk_i, wk_f, wk_u, pr_i, pr_f, cnt, tt_chk, tt_vb, tt_vf,
          tt_meta, tt_np, scratch_u, scratch_f):
    """Visit node (key, st) at ply t as processor q's new top frame; returns the visit's cost
    beyond node_cost (table accesses). A leaf, a table cutoff or an "on evaluation" answer
    leaves its value pending (P_HASRES); an interior node is expanded."""
    pr_i[q, P_TOP] = t
    cnt[q, C_NODES] += 1
    fr_key[q, t] = key
    if t >= depth:
        cnt[q, C_LEAVES] += 1
        pr_i[q, P_HASRES] = 1
        pr_i[q, P_ONEVAL] = 0
        pr_f[q, F_RES] = leaf_value(model, key, st, levels)
        return 0.0
    cost = 0.0
    fr_i[q, t, I_SLOT] = -1
    if use_tt and t > 0:
        cost += tt_cost
        cnt[q, C_TT_PROBES] += 1
        slot = np.int64(key & tt_mask)
        ok, vb, mt = tt_match(tt_chk, tt_vb, tt_meta, slot, key)
        if ok:
            cnt[q, C_TT_HITS] += 1
            sd = np.int64(mt >> np.uint64(2)) - 1
            bound = np.int64(mt & np.uint64(3))
            if sd >= depth - t:
                scratch_u[q] = vb
                v = scratch_f[q]
                if bound == EXACT or (bound == LOWER and v >= beta) or \
                        (bound == UPPER and v <= alpha):
                    cnt[q, C_TT_CUTOFFS] += 1
                    pr_i[q, P_HASRES] = 1
                    pr_i[q, P_ONEVAL] = 0
                    pr_f[q, F_RES] = v
                    return cost
        if alg == ALG_ABDADA:
            if ok and excl and tt_np[slot] > 0:
                cnt[q, C_DEFERRED] += 1
                pr_i[q, P_HASRES] = 1
                pr_i[q, P_ONEVAL] = 1
                return cost
            if ok:
                tt_np[slot] += 1
                fr_i[q, t, I_SLOT] = slot
            elif tt_np[slot] == 0:
                tt_vb[slot] = np.uint64(0)
                tt_meta[slot] = np.uint64(0)
                tt_chk[slot] = key
                tt_np[slot] = 1
                fr_i[q, t, I_SLOT] = slot
    pr_i[q, P_HASRES] = 0
    fr_f[q, t, A_] = alpha
    fr_f[q, t, B_] = beta
    fr_f[q, t, A0] = alpha
    fr_f[q, t, B0] = beta
    fr_f[q, t, V_] = -INF if (t & 1) == 0 else INF
    fr_f[q, t, ST] = st
    fr_i[q, t, I_POS] = 0
    fr_i[q, t, I_BEST] = -1
    fr_i[q, t, I_ITER] = 0
    fr_i[q, t, I_NDEF] = 0
    fr_i[q, t, I_PV] = pv
    fr_i[q, t, I_SP] = 0
    expand(q, t, key, st, helper_salt, alg, b, model, w_best, w_random, scale, good, a_coef,
           c_coef, ch_key, ch_st, perm, wk_i, wk_f, wk_u)
    return cost


@njit(cache=True)
def apply_child(o, t, c, i, b, fr_f, fr_i, cnt, q):
    """Fold child i's value c into frame (o, t) (fail-soft alpha-beta); True on a cut. ``q`` is
    the processor doing it (for the counter)."""
    if (t & 1) == 0:
        if c > fr_f[o, t, V_]:
            fr_f[o, t, V_] = c
            fr_i[o, t, I_BEST] = i
        if fr_f[o, t, V_] >= fr_f[o, t, B_]:
            if fr_i[o, t, I_POS] < b:
                cnt[q, C_CUTOFFS] += 1
            return True
        if fr_f[o, t, V_] > fr_f[o, t, A_]:
            fr_f[o, t, A_] = fr_f[o, t, V_]
    else:
        if c < fr_f[o, t, V_]:
            fr_f[o, t, V_] = c
            fr_i[o, t, I_BEST] = i
        if fr_f[o, t, V_] <= fr_f[o, t, A_]:
            if fr_i[o, t, I_POS] < b:
                cnt[q, C_CUTOFFS] += 1
            return True
        if fr_f[o, t, V_] < fr_f[o, t, B_]:
            fr_f[o, t, B_] = fr_f[o, t, V_]
    return False


@njit(cache=True)
def next_child(o, t, alg, b, fr_i, perm, deferred):
    """(natural index, exclusive) of frame (o, t)'s next child to search, or (-1, False).

    Only ABDADA has a second pass: the children deferred in the first (exclusive) pass, searched
    non-exclusively."""
    while True:
        pos = fr_i[o, t, I_POS]
        if pos < b:
            fr_i[o, t, I_POS] = pos + 1
            i = perm[o, t, pos]
            if fr_i[o, t, I_ITER] == 1:
                if deferred[o, t, i] == 0:
                    continue
                deferred[o, t, i] = 0
                return i, False
            return i, alg == ALG_ABDADA and pos > 0
        if alg == ALG_ABDADA and fr_i[o, t, I_ITER] == 0 and fr_i[o, t, I_NDEF] > 0:
            fr_i[o, t, I_ITER] = 1
            fr_i[o, t, I_POS] = 0
            continue
        return -1, False


# --- split points (PV-split, YBWC) --------------------------------------------------------
@njit(cache=True)
def sp_remove(s, sp_list, sp_n):
    for k in range(sp_n[0]):
        if sp_list[k] == s:
            sp_n[0] -= 1
            sp_list[k] = sp_list[sp_n[0]]
            return


@njit(cache=True)
def abort_helpers(s, now, p, d1, pr_i, pr_f, fr_i, sp_help, sp_list, sp_n, cnt, work, ht, hq, hn):
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
        cnt[h, C_ABORTS] += 1
        if pr_i[h, P_STATE] == WAITING:
            pr_i[h, P_STATE] = RUNNING
            pr_f[h, F_IDLE] += now - pr_f[h, F_IDLE_SINCE]
            heap_push(ht, hq, hn, now, h)


@njit(cache=True)
def close_sp(o, t, now, wake_at, p, d1, pr_i, pr_f, fr_f, fr_i, sp_help, sp_list, sp_n, cnt,
             work, ht, hq, hn):
    """Split point (o, t) is finished (cut, or its last job returned): abort what still works
    for it, deactivate it and make its owner return the frame's value; a waiting owner is woken
    at ``wake_at``; an owner still searching a child of t (running, or waiting at a split point
    inside that child) drops it."""
    s = o * d1 + t
    abort_helpers(s, now, p, d1, pr_i, pr_f, fr_i, sp_help, sp_list, sp_n, cnt, work, ht, hq, hn)
    fr_i[o, t, I_SP] = 0
    sp_remove(s, sp_list, sp_n)
    if pr_i[o, P_STATE] == WAITING:
        pr_i[o, P_STATE] = RUNNING
        pr_f[o, F_IDLE] += wake_at - pr_f[o, F_IDLE_SINCE]
        heap_push(ht, hq, hn, wake_at, o)
    for u in range(t + 1, pr_i[o, P_TOP] + 1):     # the owner's child of t, if any, is dropped
        if fr_i[o, u, I_SP] == 1:
            s2 = o * d1 + u
            abort_helpers(s2, now, p, d1, pr_i, pr_f, fr_i, sp_help, sp_list, sp_n, cnt,
                          work, ht, hq, hn)
            fr_i[o, u, I_SP] = 0
            sp_remove(s2, sp_list, sp_n)
    pr_i[o, P_TOP] = t
    pr_i[o, P_HASRES] = 1
    pr_i[o, P_ONEVAL] = 0
    pr_f[o, F_RES] = fr_f[o, t, V_]


# --- one step of one processor -------------------------------------------------------------
@njit(cache=True)
def step(q, now, alg, p, depth, b, model, levels, w_best, w_random, scale, good, a_coef, c_coef,
         helper_salt, use_tt, tt_mask, node_cost, split_cost, msg_cost, tt_cost, min_split,
         fr_key, fr_f, fr_i, ch_key, ch_st, perm, deferred, wk_i, wk_f, wk_u, pr_i, pr_f, cnt,
         tt_chk, tt_vb, tt_vf, tt_meta, tt_np, scratch_u, scratch_f,
         sp_help, sp_list, sp_n, n_idle, work, ht, hq, hn):
    """Processor q's step at time ``now``: (cost, outcome). See the module docstring."""
    d1 = depth + 1
    cost = 0.0
    if pr_i[q, P_ABORTED] == 1:
        pr_i[q, P_ABORTED] = 0
        pr_i[q, P_HASRES] = 0
    elif pr_i[q, P_HASRES] == 0:
        # a freshly expanded interior node: search its first child
        t = pr_i[q, P_TOP]
        i, ex = next_child(q, t, alg, b, fr_i, perm, deferred)
        fr_i[q, t, I_CUR] = i
        pv = 1 if (fr_i[q, t, I_PV] == 1 and fr_i[q, t, I_POS] == 1) else 0
        cost += node_cost + enter(
            q, t + 1, ch_key[q, t, i], ch_st[q, t, i], fr_f[q, t, A_], fr_f[q, t, B_], ex, pv,
            alg, depth, b, model, levels, w_best, w_random, scale, good, a_coef, c_coef,
            helper_salt, use_tt, tt_mask, tt_cost, fr_key, fr_f, fr_i, ch_key, ch_st, perm,
            wk_i, wk_f, wk_u, pr_i, pr_f, cnt, tt_chk, tt_vb, tt_vf, tt_meta, tt_np, scratch_u,
            scratch_f)
        return cost, STEP_CONTINUE
    else:
        # propagate the value of the node at the top through every frame it completes
        c = pr_f[q, F_RES]
        onev = pr_i[q, P_ONEVAL] == 1
        t = pr_i[q, P_TOP]
        while True:
            if t == pr_i[q, P_BASE]:
                s = pr_i[q, P_WORKS]
                if s < 0:                        # the root of the search
                    pr_f[q, F_RES] = c
                    return cost, STEP_DONE
                # a helper's job is done: report to its split point
                o = s // d1
                ts = s % d1
                cost += msg_cost
                cnt[q, C_MESSAGES] += 1
                sp_help[s] -= 1
                pr_i[q, P_WORKS] = -1
                if apply_child(o, ts, c, pr_i[q, P_HMOVE], b, fr_f, fr_i, cnt, q):
                    close_sp(o, ts, now, now + cost, p, d1, pr_i, pr_f, fr_f, fr_i, sp_help,
                             sp_list, sp_n, cnt, work, ht, hq, hn)
                elif fr_i[o, ts, I_POS] >= b and sp_help[s] == 0 \
                        and pr_i[o, P_STATE] == WAITING and pr_i[o, P_TOP] == ts:
                    close_sp(o, ts, now, now + cost, p, d1, pr_i, pr_f, fr_f, fr_i, sp_help,
                             sp_list, sp_n, cnt, work, ht, hq, hn)
                break                            # look for work below
            pt = t - 1
            if fr_i[q, pt, I_SP] == 1:           # the owner's own child of its split point
                s = q * d1 + pt
                if apply_child(q, pt, c, fr_i[q, pt, I_CUR], b, fr_f, fr_i, cnt, q):
                    abort_helpers(s, now, p, d1, pr_i, pr_f, fr_i, sp_help, sp_list, sp_n, cnt,
                                  work, ht, hq, hn)
                    fr_i[q, pt, I_SP] = 0
                    sp_remove(s, sp_list, sp_n)
                    t = pt
                    c = fr_f[q, pt, V_]
                    continue
                i, ex = next_child(q, pt, alg, b, fr_i, perm, deferred)
                if i >= 0:
                    fr_i[q, pt, I_CUR] = i
                    cost += node_cost + enter(
                        q, t, ch_key[q, pt, i], ch_st[q, pt, i], fr_f[q, pt, A_],
                        fr_f[q, pt, B_], False, 0, alg, depth, b, model, levels, w_best,
                        w_random, scale, good, a_coef, c_coef, helper_salt, use_tt, tt_mask,
                        tt_cost, fr_key, fr_f, fr_i, ch_key, ch_st, perm, wk_i, wk_f, wk_u, pr_i,
                        pr_f, cnt, tt_chk, tt_vb, tt_vf, tt_meta, tt_np, scratch_u, scratch_f)
                    return cost, STEP_CONTINUE
                if sp_help[s] > 0:               # wait for the helpers' jobs
                    pr_i[q, P_TOP] = pt
                    pr_i[q, P_STATE] = WAITING
                    pr_f[q, F_IDLE_SINCE] = now + cost
                    return cost, STEP_PARKED
                fr_i[q, pt, I_SP] = 0
                sp_remove(s, sp_list, sp_n)
                t = pt
                c = fr_f[q, pt, V_]
                continue
            cut = False
            if onev:
                deferred[q, pt, fr_i[q, pt, I_CUR]] = 1
                fr_i[q, pt, I_NDEF] += 1
            else:
                cut = apply_child(q, pt, c, fr_i[q, pt, I_CUR], b, fr_f, fr_i, cnt, q)
            onev = False
            if not cut:
                if (alg == ALG_YBWC or alg == ALG_PVSPLIT) and fr_i[q, pt, I_POS] == 1 \
                        and b > 1 and n_idle[0] > 0 and depth - pt >= min_split \
                        and (alg == ALG_YBWC or fr_i[q, pt, I_PV] == 1):
                    # a split point: the owner takes the next child, idle processors the rest
                    s = q * d1 + pt
                    fr_i[q, pt, I_SP] = 1
                    sp_list[sp_n[0]] = s
                    sp_n[0] += 1
                    sp_help[s] = 0
                    cost += split_cost
                    cnt[q, C_SPLITS] += 1
                    i, ex = next_child(q, pt, alg, b, fr_i, perm, deferred)
                    fr_i[q, pt, I_CUR] = i
                    cost += node_cost + enter(
                        q, t, ch_key[q, pt, i], ch_st[q, pt, i], fr_f[q, pt, A_],
                        fr_f[q, pt, B_], False, 0, alg, depth, b, model, levels, w_best,
                        w_random, scale, good, a_coef, c_coef, helper_salt, use_tt, tt_mask,
                        tt_cost, fr_key, fr_f, fr_i, ch_key, ch_st, perm, wk_i, wk_f, wk_u, pr_i,
                        pr_f, cnt, tt_chk, tt_vb, tt_vf, tt_meta, tt_np, scratch_u, scratch_f)
                    for r in range(p):
                        if fr_i[q, pt, I_POS] >= b:
                            break
                        if pr_i[r, P_STATE] == IDLE:
                            start_job(r, q, pt, now + cost, alg, p, depth, b, model, levels,
                                      w_best, w_random, scale, good, a_coef, c_coef, helper_salt,
                                      use_tt, tt_mask, node_cost, msg_cost, tt_cost, fr_key,
                                      fr_f, fr_i, ch_key, ch_st, perm, deferred, wk_i, wk_f,
                                      wk_u, pr_i, pr_f, cnt, tt_chk, tt_vb, tt_vf, tt_meta, tt_np,
                                      scratch_u, scratch_f, sp_help, n_idle, ht, hq, hn)
                    return cost, STEP_CONTINUE
                i, ex = next_child(q, pt, alg, b, fr_i, perm, deferred)
                if i >= 0:
                    fr_i[q, pt, I_CUR] = i
                    cost += node_cost + enter(
                        q, t, ch_key[q, pt, i], ch_st[q, pt, i], fr_f[q, pt, A_],
                        fr_f[q, pt, B_], ex, 0, alg, depth, b, model, levels, w_best, w_random,
                        scale, good, a_coef, c_coef, helper_salt, use_tt, tt_mask, tt_cost,
                        fr_key, fr_f, fr_i, ch_key, ch_st, perm, wk_i, wk_f, wk_u, pr_i, pr_f,
                        cnt, tt_chk, tt_vb, tt_vf, tt_meta, tt_np, scratch_u, scratch_f)
                    return cost, STEP_CONTINUE
            # frame pt is finished: store it, return its value
            v = fr_f[q, pt, V_]
            if use_tt and pt > 0:
                slot = np.int64(fr_key[q, pt] & tt_mask)
                key = fr_key[q, pt]
                cost += tt_cost
                ok, vb, mt = tt_match(tt_chk, tt_vb, tt_meta, slot, key)
                if fr_i[q, pt, I_SLOT] == slot and ok:
                    tt_np[slot] -= 1
                if ok or tt_np[slot] == 0:
                    bound = UPPER if v <= fr_f[q, pt, A0] else (
                        LOWER if v >= fr_f[q, pt, B0] else EXACT)
                    if not ok:
                        tt_np[slot] = 0
                    tt_write(tt_chk, tt_vb, tt_vf, tt_meta, slot, key, v, depth - pt, bound)
            t = pt
            c = v
    # q's job is over (done, or aborted): take a child of the split point nearest the root
    best_s = -1
    for k in range(sp_n[0]):
        s = sp_list[k]
        o = s // d1
        ts = s % d1
        if fr_i[o, ts, I_POS] < b and (best_s < 0 or ts < best_s % d1
                                      or (ts == best_s % d1 and o < best_s // d1)):
            best_s = s
    if best_s < 0:
        pr_i[q, P_STATE] = IDLE
        pr_f[q, F_IDLE_SINCE] = now + cost
        n_idle[0] += 1
        return cost, STEP_PARKED
    n_idle[0] += 1        # start_job counts q out of the idle pool again
    pr_i[q, P_STATE] = IDLE
    pr_f[q, F_IDLE_SINCE] = now + cost
    start_job(q, best_s // d1, best_s % d1, now + cost, alg, p, depth, b, model, levels,
              w_best, w_random, scale, good, a_coef, c_coef, helper_salt, use_tt, tt_mask,
              node_cost, msg_cost, tt_cost, fr_key, fr_f, fr_i, ch_key, ch_st, perm, deferred,
              wk_i, wk_f, wk_u, pr_i, pr_f, cnt, tt_chk, tt_vb, tt_vf, tt_meta, tt_np, scratch_u,
              scratch_f, sp_help, n_idle, ht, hq, hn)
    return cost, STEP_PARKED


@njit(cache=True)
def start_job(r, o, ts, at, alg, p, depth, b, model, levels, w_best, w_random, scale, good,
              a_coef, c_coef, helper_salt, use_tt, tt_mask, node_cost, msg_cost, tt_cost,
              fr_key, fr_f, fr_i, ch_key, ch_st, perm, deferred, wk_i, wk_f, wk_u, pr_i, pr_f,
              cnt, tt_chk, tt_vb, tt_vf, tt_meta, tt_np, scratch_u, scratch_f, sp_help, n_idle,
              ht, hq, hn):
    """Idle processor r takes the next child of split point (o, ts) at time ``at``: a message,
    then the visit of the child; r is scheduled after both."""
    d1 = depth + 1
    s = o * d1 + ts
    i, ex = next_child(o, ts, alg, b, fr_i, perm, deferred)
    pr_f[r, F_IDLE] += at - pr_f[r, F_IDLE_SINCE]
    pr_i[r, P_STATE] = RUNNING
    n_idle[0] -= 1
    pr_i[r, P_WORKS] = s
    pr_i[r, P_HMOVE] = i
    pr_i[r, P_BASE] = ts + 1
    pr_i[r, P_ABORTED] = 0
    sp_help[s] += 1
    cnt[r, C_JOBS] += 1
    cnt[r, C_MESSAGES] += 1
    cost = msg_cost + node_cost + enter(
        r, ts + 1, ch_key[o, ts, i], ch_st[o, ts, i], fr_f[o, ts, A_], fr_f[o, ts, B_], False, 0,
        alg, depth, b, model, levels, w_best, w_random, scale, good, a_coef, c_coef, helper_salt,
        use_tt, tt_mask, tt_cost, fr_key, fr_f, fr_i, ch_key, ch_st, perm, wk_i, wk_f, wk_u,
        pr_i, pr_f, cnt, tt_chk, tt_vb, tt_vf, tt_meta, tt_np, scratch_u, scratch_f)
    heap_push(ht, hq, hn, at + cost, r)


# --- the simulation -----------------------------------------------------------------------
@njit(cache=True)
def simulate(alg, p, depth, b, model, root_key, levels, w_best, w_random, scale, good, a_coef,
             c_coef, seed_salt, tt_bits, node_cost, split_cost, msg_cost, tt_cost, min_split,
             max_nodes, cnt, pr_f_out):
    """Run one simulated parallel search; returns (status, value, best move, parallel time,
    the processor that completed the root). Per-processor counters go to ``cnt`` (p x NC) and
    idle times to ``pr_f_out[:, 0]``. status 0 ok, 1 node budget exhausted."""
    d1 = depth + 1
    bb = max(b, 1)
    fr_key = np.zeros((p, d1), np.uint64)
    fr_f = np.zeros((p, d1, NFF), np.float64)
    fr_i = np.zeros((p, d1, NFI), np.int64)
    ch_key = np.zeros((p, d1, bb), np.uint64)
    ch_st = np.zeros((p, d1, bb), np.float64)
    perm = np.zeros((p, d1, bb), np.int64)
    deferred = np.zeros((p, d1, bb), np.int8)
    wk_i = np.zeros((p, 2, bb), np.int64)
    wk_f = np.zeros((p, 2, bb), np.float64)
    wk_u = np.zeros((p, bb), np.uint64)
    pr_i = np.zeros((p, NPI), np.int64)
    pr_f = np.zeros((p, NPF), np.float64)
    use_tt = alg == ALG_ABDADA or alg == ALG_LAZY
    nslots = (1 << tt_bits) if use_tt else 1
    tt_mask = np.uint64(nslots - 1)
    tt_chk = np.zeros(nslots, np.uint64)
    tt_vb = np.zeros(nslots, np.uint64)
    tt_vf = tt_vb.view(np.float64)
    tt_meta = np.zeros(nslots, np.uint64)
    tt_np = np.zeros(nslots, np.int64)
    scratch_u = np.zeros(p, np.uint64)
    scratch_f = scratch_u.view(np.float64)
    sp_help = np.zeros(p * d1, np.int64)
    sp_list = np.zeros(p * d1, np.int64)
    sp_n = np.zeros(1, np.int64)
    n_idle = np.zeros(1, np.int64)
    work = np.zeros(p + 1, np.int64)
    ht = np.zeros(p + 1, np.float64)
    hq = np.zeros(p + 1, np.int64)
    hn = np.zeros(1, np.int64)
    for q in range(p):
        pr_i[q, P_WORKS] = -1
    starters = p if use_tt else 1
    for q in range(p):
        if q < starters:
            salt = mix64(seed_salt ^ np.uint64(q))
            cost = node_cost + enter(
                q, 0, root_key, 0.0, -INF, INF, False, 1, alg, depth, b, model, levels, w_best,
                w_random, scale, good, a_coef, c_coef, salt, use_tt, tt_mask, tt_cost, fr_key,
                fr_f, fr_i, ch_key, ch_st, perm, wk_i, wk_f, wk_u, pr_i, pr_f, cnt, tt_chk,
                tt_vb, tt_vf, tt_meta, tt_np, scratch_u, scratch_f)
            heap_push(ht, hq, hn, cost, q)
        else:
            pr_i[q, P_STATE] = IDLE
            n_idle[0] += 1
    value = 0.0
    now = 0.0
    winner = -1
    total = np.int64(starters)
    status = 2                                        # stays 2 if the events run out: a bug
    while hn[0] > 0:
        now, q = heap_pop(ht, hq, hn)
        salt = mix64(seed_salt ^ np.uint64(q))
        before = cnt[q, C_NODES]
        cost, outcome = step(
            q, now, alg, p, depth, b, model, levels, w_best, w_random, scale, good, a_coef,
            c_coef, salt, use_tt, tt_mask, node_cost, split_cost, msg_cost, tt_cost, min_split,
            fr_key, fr_f, fr_i, ch_key, ch_st, perm, deferred, wk_i, wk_f, wk_u, pr_i, pr_f, cnt,
            tt_chk, tt_vb, tt_vf, tt_meta, tt_np, scratch_u, scratch_f,
            sp_help, sp_list, sp_n, n_idle, work, ht, hq, hn)
        if outcome == STEP_DONE:
            value = pr_f[q, F_RES]
            winner = q
            status = 0
            break
        if outcome == STEP_CONTINUE:
            heap_push(ht, hq, hn, now + cost, q)
        total += cnt[q, C_NODES] - before
        if total > max_nodes:
            status = 1
            break
    best = fr_i[winner, 0, I_BEST] if winner >= 0 else -1
    for q in range(p):
        idle = pr_f[q, F_IDLE]
        if pr_i[q, P_STATE] != RUNNING:
            idle += max(0.0, now - pr_f[q, F_IDLE_SINCE])
        pr_f_out[q, 0] = idle
    return status, value, best, now, winner


@njit(cache=True, nogil=True)
def lazy_thread(q, depth, b, model, root_key, levels, w_best, w_random, scale, good, a_coef,
                c_coef, seed_salt, tt_mask, fr_key, fr_f, fr_i, ch_key, ch_st, perm, deferred,
                wk_i, wk_f, wk_u, pr_i, pr_f, cnt, tt_chk, tt_vb, tt_vf, tt_meta, tt_np,
                scratch_u, scratch_f, stop, result):
    """One real Lazy SMP thread (numba releases the GIL): processor q's steps, on the shared
    table, until some thread completes the root (``stop[0]`` set; value in ``result[q]``)."""
    dummy_i = np.zeros(1, np.int64)
    dummy_f = np.zeros(1, np.float64)
    salt = mix64(seed_salt ^ np.uint64(q))
    enter(q, 0, root_key, 0.0, -INF, INF, False, 1, ALG_LAZY, depth, b, model, levels, w_best,
          w_random, scale, good, a_coef, c_coef, salt, True, tt_mask, 0.0, fr_key, fr_f, fr_i,
          ch_key, ch_st, perm, wk_i, wk_f, wk_u, pr_i, pr_f, cnt, tt_chk, tt_vb, tt_vf, tt_meta,
          tt_np, scratch_u, scratch_f)
    k = 0
    while True:
        k += 1
        if (k & 1023) == 0 and stop[0] != 0:
            return False
        cost, outcome = step(
            q, 0.0, ALG_LAZY, 1, depth, b, model, levels, w_best, w_random, scale, good, a_coef,
            c_coef, salt, True, tt_mask, 1.0, 0.0, 0.0, 0.0, depth + 1,
            fr_key, fr_f, fr_i, ch_key, ch_st, perm, deferred, wk_i, wk_f, wk_u, pr_i, pr_f, cnt,
            tt_chk, tt_vb, tt_vf, tt_meta, tt_np, scratch_u, scratch_f,
            dummy_i, dummy_i, dummy_i, dummy_i, dummy_i, dummy_f, dummy_i, dummy_i)
        if outcome == STEP_DONE:
            result[q] = pr_f[q, F_RES]
            stop[0] = 1
            return True

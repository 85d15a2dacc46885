"""The parallel simulator's event machinery (private; see simulate.py and _sim_kernel.py).

The simulated machine of docs/parallel.md, independent of what is searched: the constants that
name the processors', frames' and counters' fields, the event queue (a binary heap on (time,
processor id)), fail-soft alpha-beta's fold of a child's value into a frame, and the rare
events of PV-split and YBWC (a split point closing, its jobs aborted, an idle processor starting
a job). The one simulator kernel, _sim_kernel.py, calls them; real_games.py's coordinator uses
the constants. Every function is ``cache=True``: _sim_kernel's per-game copies compile them in.
"""

from __future__ import annotations

import numpy as np
from numba import njit

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
I_CUR = 1               # position (in the frame's move order) of the child being searched
I_BEST = 2
I_ITER = 3              # ABDADA pass (0 exclusive, 1 the deferred children)
I_NDEF = 4
I_PV = 5
I_SP = 6                # 1: this frame is an active split point
I_SLOT = 7              # ABDADA: table slot whose in-progress count this frame holds, else -1
I_N = 8                 # number of moves
I_MAX = 9               # 1: MAX to move
NFI = 10
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
@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True, inline="always")
def fold(fr_f, fr_i, o, t, c, move):
    """Fold child ``move``'s value c into frame (o, t) (fail-soft alpha-beta; the frame's side
    to move in I_MAX); True on a cutoff."""
    if fr_i[o, t, I_MAX] == 1:
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
@njit(cache=True, nogil=True)
def sp_remove(s, sp_list, sp_n):
    for k in range(sp_n[0]):
        if sp_list[k] == s:
            sp_n[0] -= 1
            sp_list[k] = sp_list[sp_n[0]]
            return


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
def close_sp(o, t, now, wake_at, p, d1, pr_i, pr_f, fr_f, fr_i, cnt, sp_help, sp_list, sp_n,
             work, ht, hq, hn):
    """Split point (o, t) is finished (cut, or its last job reported): abort what still works
    for it, deactivate it and make its owner return the frame's value (P_HASRES = 2: with a
    table, the owner stores the frame at its next step); a waiting owner is woken at
    ``wake_at``; an owner still searching a child of t (running, or waiting at a split point
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
    pr_i[o, P_HASRES] = 2
    pr_i[o, P_ONEVAL] = 0
    pr_f[o, F_RES] = fr_f[o, t, V_]


@njit(cache=True, nogil=True)
def start_job(r, o, ts, at, msg_cost, d1, pr_i, pr_f, fr_i, cnt, sp_help, n_idle, ht, hq, hn):
    """Idle processor r takes the next child of split point (o, ts) at time ``at``: it visits
    the child at its next step, after a message (PV-split and YBWC only: a single pass)."""
    pos = fr_i[o, ts, I_POS]
    fr_i[o, ts, I_POS] = pos + 1
    pr_f[r, F_IDLE] += at - pr_f[r, F_IDLE_SINCE]
    pr_i[r, P_STATE] = RUNNING
    n_idle[0] -= 1
    pr_i[r, P_WORKS] = o * d1 + ts
    pr_i[r, P_HMOVE] = pos                     # the position in the owner's order
    pr_i[r, P_BASE] = ts + 1
    pr_i[r, P_ABORTED] = 0
    pr_i[r, P_PEND] = PEND_JOB
    sp_help[o * d1 + ts] += 1
    cnt[r, C_JOBS] += 1
    cnt[r, C_MESSAGES] += 1
    heap_push(ht, hq, hn, at + msg_cost, r)

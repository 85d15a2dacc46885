"""The compiled node search (private): searchlab/algorithms/reference.py, pruning.py,
ordering.py, tt.py and context.py, repeated line for line in numba over a game's primitives.

One function ``search`` serves every algorithm (minimax, alpha-beta fail-soft and fail-hard,
PVS, the pruned alpha-beta of pruning.py) as a state machine over an explicit stack of frames;
a frame in mode 1 runs only a node's move loop (pruning.py's ``pruned_alphabeta_children``:
null-move verification, ProbCut's shallow search). Why not recursion: numba's type inference
of a self-recursive function of this size took minutes (it re-infers the function at every
recursive call site), the state machine compiles in seconds; quiescence, small, loops too (a
recursive function crashed on reload from numba's cache).
The game's primitives are this module's globals (the block between the markers below), called
directly, so the search is written once and every call is a direct, inlinable call. This file is
a *template*: ``searchlab.algorithms.compiled.specialise`` writes, per game, a copy of it whose
marker block imports that game's primitives under these names, into a cache directory, and
imports that copy; every function here is ``cache=True``, so numba keeps the copy's compiled
code on disk and a later process loads it in about a second instead of compiling (10-40 s).
Why not the obvious ways: numba cannot cache a function that takes the primitives as arguments
(a namedtuple of dispatchers: the cache key would hold the dispatchers' identity), and a closure
made per game (a factory) is never cached either; a module whose globals are the primitives is
the one form numba caches. How the copy's name keys on the sources, and what makes it safe with
several processes: specialise.py's docstring.

Speed: every function here is compiled with numba's ``_nrt=False`` (no reference counting):
the search only takes views of arrays the caller owns and allocates nothing, and the
incref/decref calls that array views otherwise cost made it five times slower.

Everything a search counts or consults lives in arrays the Python side allocates (``E``, the
environment tuple: 0 state rows, 1 move buffers, 2-3 sort keys (float, uint64), 4 counters, 5
nodes per ply, 6-7 integer and float parameters, 8 the random order's salt, 9-11 the
transposition table (three views of one buffer), 12 killers, 13 history, 14 the root's child
values, 15 beam widths per ply, 16-18 the frames); the node budget sets ``cnt[ABORT]`` and every
caller returns at once, which is the reference's SearchAborted. Values are float64 from MAX's
point of view.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from searchlab.algorithms.kernels.hashing_compiled import mix64


# --- the game's primitives ----------------------------------------------------------------------
# The per-game copy replaces the lines between the markers with imports of the game's primitives
# under these names (the contract: searchlab.contracts.compiled). The template binds nothing.
# <primitives>
max_to_move = gen_moves = play = is_terminal = utility = evaluate = hash_key = None
order_key = is_noisy = null_move = null_move_allowed = noisy_moves = capture_gain = None
# </primitives>

INF = np.inf
# algorithms
MINIMAX, ALPHABETA, FAILHARD, PVS = 0, 1, 2, 3
# base orders
B_NATURAL, B_RANDOM, B_STATIC, B_OWN = 0, 1, 2, 3
# dynamic components (tt and id act alike in the order: the table's move first; D_TACTICAL:
# the moves noisy_moves lists first, in its order)
D_TABLE, D_KILLER, D_HISTORY, D_TACTICAL = 1, 2, 3, 4
# transposition-table bounds (tt.py)
EXACT, LOWER, UPPER = 0, 1, 2
# A table entry is one row of 4 words, two to a cache line (a probe and a store touch one line,
# not one per field, and the table is half the size: it is read at random, so its misses are
# the search's main memory cost): the table is one (size, 4) buffer seen as uint64 (E[9]),
# float64 (E[10]) and int64 (E[11]); these are the columns. T_META packs the age (the high
# bits), the bound and the move + 1 (MOVE_BITS bits), so move ids stay below 2**MOVE_BITS - 1.
T_KEY, T_VALUE, T_DEPTH, T_META = range(4)
T_WORDS = 4
MOVE_BITS = 22
_MOVE_MASK = (1 << MOVE_BITS) - 1

# counters (cnt)
(C_NODES, C_LEAVES, C_CUTOFFS, C_FH, C_FFH, C_RE, C_PROBES, C_HITS, C_TTCUT, C_STORES,
 C_QNODES, C_ABORT, C_BEST, C_AGE, C_PARENT_NULL, C_NULL, C_RAZOR, C_PROBCUT, C_BEAM,
 C_FUTILITY, C_LMR, C_DELTA, C_NULL_TRIED) = range(23)
N_COUNTERS = 23
FIRED = {"null_move": C_NULL, "razoring": C_RAZOR, "probcut": C_PROBCUT, "beam": C_BEAM,
         "futility": C_FUTILITY, "lmr": C_LMR, "delta": C_DELTA}
#: searches a technique started, fired or not (the null move's cut-success rate is
#: FIRED["null_move"] over TRIED["null_move"]); extra["tried"] of a SearchResult
TRIED = {"null_move": C_NULL_TRIED}

# integer parameters (ip)
(P_ALG, P_BASE, P_OWN, P_NDYN, P_DYN0, P_DYN1, P_DYN2, P_DYN3, P_DYN4, P_TABLE, P_KILLER, P_HISTORY,
 P_MAXNODES, P_PRUNED, P_NM, P_NM_R, P_NM_ADAPT, P_NM_VERIFY, P_LMR, P_LMR_AFTER,
 P_LMR_MIN, P_LMR_RED, P_LMR_LOG, P_FUT, P_RAZOR, P_RAZOR_DEPTH, P_BEAM, P_BEAM_WIDTH,
 P_NWIDTHS, P_PC, P_PC_SHALLOW, P_PC_DEEP, P_Q, P_QMAX, P_NOISY, P_AGE0, P_DELTA,
 P_TACTICAL) = range(38)
N_IPARAMS = 38
# P_DYN0 ..: one slot per dynamic component (five at most: id, tt, tactical, killer, history)
# The table's arrays outlive a search (compiled_engine reuses them): a slot whose age is below
# ip[P_AGE0], the age the search started at, is empty, so no search has to clear the table.
# float parameters (fp); fp[F_DEPTH] is the horizon, moved by reductions
(F_DEPTH, F_FUT_MARGIN, F_RAZOR_MARGIN, F_PC_SLOPE, F_PC_INTERCEPT, F_PC_SIGMA,
 F_PC_THRESHOLD, F_DELTA) = range(8)
N_FPARAMS = 8
# table presence (ip[P_TABLE])
TABLE_NONE, TABLE_MOVES, TABLE_VALUES = 0, 1, 2


@njit(cache=True, _nrt=False)
def _sort(moves, keys, n, descending):
    """Stable insertion sort of moves[:n] by keys[:n] (ascending, or descending)."""
    for i in range(1, n):
        m, k = moves[i], keys[i]
        j = i - 1
        while j >= 0 and ((keys[j] < k) if descending else (keys[j] > k)):
            moves[j + 1] = moves[j]
            keys[j + 1] = keys[j]
            j -= 1
        moves[j + 1] = m
        keys[j + 1] = k


@njit(cache=True, _nrt=False)
def _sort_by_history(moves, hist, keys, n, descending):
    """Stable insertion sort of moves[:n] by history (hist, uint64) descending, ties by keys
    ascending (or descending): _sort by keys, then _sort by -history, in one pass."""
    for i in range(1, n):
        m, h, k = moves[i], hist[i], keys[i]
        j = i - 1
        while j >= 0 and (hist[j] < h or (hist[j] == h and ((keys[j] < k) if descending
                                                             else (keys[j] > k)))):
            moves[j + 1] = moves[j]
            hist[j + 1] = hist[j]
            keys[j + 1] = keys[j]
            j -= 1
        moves[j + 1] = m
        hist[j + 1] = h
        keys[j + 1] = k


@njit(cache=True, _nrt=False)
def _to_front(moves, n, m):
    """Move m to the front of moves[:n] if present (the rest keep their order)."""
    for i in range(n):
        if moves[i] == m:
            for j in range(i, 0, -1):
                moves[j] = moves[j - 1]
            moves[0] = m
            return


@njit(cache=True, _nrt=False)
def _to_front3(moves, hist, keys, n, m):
    """_to_front on moves[:n] carrying hist and keys along; returns m's old index, or -1."""
    for i in range(n):
        if moves[i] == m:
            h, k = hist[i], keys[i]
            for j in range(i, 0, -1):
                moves[j] = moves[j - 1]
                hist[j] = hist[j - 1]
                keys[j] = keys[j - 1]
            moves[0], hist[0], keys[0] = m, h, k
            return i
    return -1


# inlined: called per move searched
@njit(cache=True, _nrt=False, inline='always')
def _select(moves, hist, keys, i, n, descending):
    """One step of the lazy order (order_moves): bring to position i the first of
    moves[i:n] by history (descending), then keys (ascending, or descending), the rest keeping
    their order; what _sort_by_history places at i when moves[i:n] is what it left there."""
    b = i
    hb, kb = hist[i], keys[i]
    for j in range(i + 1, n):
        h, k = hist[j], keys[j]
        if h > hb or (h == hb and ((k > kb) if descending else (k < kb))):
            b, hb, kb = j, h, k
    if b != i:
        m = moves[b]
        for j in range(b, i, -1):
            moves[j] = moves[j - 1]
            hist[j] = hist[j - 1]
            keys[j] = keys[j - 1]
        moves[i], hist[i], keys[i] = m, hb, kb


# The lazy order selects this many moves behind the front ones one at a time, then sorts the
# rest at once: a node still searching by then is most likely one that searches every move,
# and selecting each of n moves in turn costs n^2/2 comparisons and shifts (Hex 7x7, ~44
# moves a node, id+tt+killer+history+adjacent: 12.7 -> 17.0 M nodes/s at depth 3, 12.6 -> 16.9
# at depth 6; Othello and Connect Four, under LAZY_SORT_MIN moves, select as before)
LAZY_STEPS = 2
LAZY_SORT_MIN = 8           # fewer moves left: selecting them stays cheaper than a sort


@njit(cache=True, _nrt=False, inline='always')
def _next(E, ply, i, n, front, maxing):
    """The lazy order's step before the i-th move is searched (order_moves): when i is the
    first move behind the front ones, the base keys of moves[front:n] (functions of the position
    and the move alone, so the keys order_moves would have computed); then _select, or, from
    the LAZY_STEPS-th move behind the front ones on, a stable sort of moves[i:n] (the order
    _select would give them one by one). Returns the node's new front: -1 once sorted."""
    S, moves, hist, keys, ip = E[0], E[1][ply], E[3][ply], E[2][ply], E[6]
    static = ip[P_BASE] == B_STATIC
    if i == front:
        s = S[ply]
        if static:
            for j in range(front, n):
                play(s, moves[j], S[ply + 1])
                keys[j] = _static_of(S[ply + 1])
        else:
            code = ip[P_OWN]
            for j in range(front, n):
                keys[j] = order_key(s, moves[j], code)
    if i - front >= LAZY_STEPS and n - i > LAZY_SORT_MIN:
        _sort_by_history(moves[i:], hist[i:], keys[i:], n - i, static and maxing)
        return -1
    _select(moves, hist, keys, i, n, static and maxing)
    return front


@njit(cache=True, _nrt=False)
def tt_probe(E, key, depth, alpha, beta):
    """TranspositionTable.probe: (True, value) when the entry settles the window."""
    cnt, ip, tu, tf, ti = E[4], E[6], E[9], E[10], E[11]
    cnt[C_PROBES] += 1
    i = key & np.uint64(tu.shape[0] - 1)
    meta = ti[i, T_META]
    if (meta >> (MOVE_BITS + 2)) < ip[P_AGE0] or tu[i, T_KEY] != key:
        return False, 0.0
    cnt[C_HITS] += 1
    if ip[P_TABLE] != TABLE_VALUES or tf[i, T_DEPTH] < depth:
        return False, 0.0
    b, v = (meta >> MOVE_BITS) & 3, tf[i, T_VALUE]
    if b == EXACT or (b == LOWER and v >= beta) or (b == UPPER and v <= alpha):
        cnt[C_TTCUT] += 1
        return True, v
    return False, 0.0


@njit(cache=True, _nrt=False)
def tt_store(E, key, depth, value, alpha, beta, move):
    """TranspositionTable.store: depth-preferred, aged replacement."""
    cnt, tu, tf, ti = E[4], E[9], E[10], E[11]
    bound = UPPER if value <= alpha else (LOWER if value >= beta else EXACT)
    i = key & np.uint64(tu.shape[0] - 1)
    age = cnt[C_AGE]
    old = ti[i, T_META] >> (MOVE_BITS + 2)
    if old < E[6][P_AGE0] or tu[i, T_KEY] == key or depth >= tf[i, T_DEPTH] or old != age:
        tu[i, T_KEY] = key
        tf[i, T_DEPTH] = depth
        tf[i, T_VALUE] = value
        ti[i, T_META] = (age << (MOVE_BITS + 2)) | (bound << MOVE_BITS) | (move + 1)
        cnt[C_STORES] += 1


@njit(cache=True, _nrt=False)
def _static_of(s):
    return utility(s) if is_terminal(s) else evaluate(s)


# inlined by numba: LLVM left this call in place, and a call passes every array of E as
# separate arguments (inlining made the search ~10 % faster on Connect Four)
@njit(cache=True, _nrt=False, inline='always')
def order_moves(E, ply, key, has_key, lazy):
    """ctx.moves: the legal moves into MV[ply] in the policy's order; returns (their number,
    -1). ``key`` is the node's hash key when ``has_key`` (the table probe computed it).

    Lazy (when ``lazy`` and the order is history merged with a float-keyed base, then table
    and killer moves in front): the front moves are placed and the rest left in natural order
    with their history (KU[ply], read now: the search below changes it); returns (n, the
    number of front moves), and the caller brings each later move into place with _next just
    before it is searched, which computes the base keys (KF[ply]) when the first of them is
    reached. Same order, but a node cut off by its first moves pays for those alone, not for
    the base keys and a sort of all n (most nodes of a well-ordered search)."""
    S, MV, KF, KU, ip = E[0], E[1], E[2], E[3], E[6]
    s = S[ply]
    moves = MV[ply]
    n = gen_moves(s, moves)
    if ip[P_TACTICAL]:          # the lazy order's front is table and killer moves alone
        lazy = False
    base = ip[P_BASE]
    ndyn = ip[P_NDYN]
    # History applied right after a float-keyed base order (the usual "...+history+centre"):
    # one stable sort by (history, base key) gives what the two stable sorts give, in one pass.
    merged = ndyn > 0 and ip[P_DYN0 + ndyn - 1] == D_HISTORY and base != B_NATURAL \
        and base != B_RANDOM
    if base == B_RANDOM:
        salt = E[8][0]
        keys = KU[ply]
        for i in range(n):
            play(s, moves[i], S[ply + 1])
            keys[i] = mix64(hash_key(S[ply + 1]) ^ salt)
        _sort(moves, keys, n, False)
    elif base == B_STATIC and not (merged and lazy):    # lazy: the keys come later (_next)
        keys = KF[ply]
        for i in range(n):
            play(s, moves[i], S[ply + 1])
            keys[i] = _static_of(S[ply + 1])
        if not merged:
            _sort(moves, keys, n, max_to_move(s))
    elif base == B_OWN and not (merged and lazy):
        keys = KF[ply]
        code = ip[P_OWN]
        for i in range(n):
            keys[i] = order_key(s, moves[i], code)
        if not merged:
            _sort(moves, keys, n, False)
    if merged:
        hist, hkeys = E[13], KU[ply]
        side = 1 if max_to_move(s) else 0
        for i in range(n):
            hkeys[i] = hist[side, moves[i]]
        ndyn -= 1
        if lazy:                # (the other parts are table and killer: no part comes twice)
            return n, _front_lazy(E, ply, key, has_key, n, ndyn)
        _sort_by_history(moves, hkeys, KF[ply], n, base == B_STATIC and max_to_move(s))
    for j in range(ndyn - 1, -1, -1):                # lowest priority first; sorts are stable
        part = ip[P_DYN0 + j]
        if part == D_HISTORY:
            hist = E[13]
            side = 1 if max_to_move(s) else 0
            keys = KF[ply]
            for i in range(n):
                keys[i] = -float(hist[side, moves[i]])
            _sort(moves, keys, n, False)
        elif part == D_TACTICAL:
            # rank = position in noisy_moves' list (the next ply's move row is free until the
            # first child generates its moves), the other moves after them: a stable sort
            buf = MV[ply + 1]
            k = noisy_moves(s, buf)
            keys = KF[ply]
            for i in range(n):
                m = moves[i]
                r = k
                for t in range(k):
                    if buf[t] == m:
                        r = t
                        break
                keys[i] = float(r)
            _sort(moves, keys, n, False)
        elif part == D_KILLER:
            killers = E[12]
            # the slots present, in slot order, go first: place the second, then the first
            for k in (1, 0):
                m = killers[ply, k]
                if m >= 0:
                    _to_front(moves, n, m)
        elif part == D_TABLE and ip[P_TABLE] != TABLE_NONE:
            tu, ti = E[9], E[11]
            if not has_key:
                key = hash_key(s)
            i = key & np.uint64(tu.shape[0] - 1)
            meta = ti[i, T_META]
            if (meta >> (MOVE_BITS + 2)) >= ip[P_AGE0] and tu[i, T_KEY] == key \
                    and meta & _MOVE_MASK:
                _to_front(moves, n, (meta & _MOVE_MASK) - 1)
    return n, -1


@njit(cache=True, _nrt=False, inline='always')
def _front_lazy(E, ply, key, has_key, n, ndyn):
    """order_moves' killer and table parts (ip[P_DYN0:][:ndyn]) on unsorted moves, carrying
    their keys: returns the number of moves now in front."""
    S, MV, KF, KU, ip = E[0], E[1], E[2], E[3], E[6]
    moves, hkeys, keys = MV[ply], KU[ply], KF[ply]
    front = 0
    for j in range(ndyn - 1, -1, -1):
        part = ip[P_DYN0 + j]
        if part == D_KILLER:
            killers = E[12]
            for k in (1, 0):
                m = killers[ply, k]
                if m >= 0 and _to_front3(moves, hkeys, keys, n, m) >= front:
                    front += 1
            continue
        if part == D_TABLE and ip[P_TABLE] != TABLE_NONE:
            tu, ti = E[9], E[11]
            if not has_key:
                key = hash_key(S[ply])
            i = key & np.uint64(tu.shape[0] - 1)
            meta = ti[i, T_META]
            if (meta >> (MOVE_BITS + 2)) >= ip[P_AGE0] and tu[i, T_KEY] == key \
                    and meta & _MOVE_MASK:
                if _to_front3(moves, hkeys, keys, n, (meta & _MOVE_MASK) - 1) >= front:
                    front += 1
    return front


@njit(cache=True, _nrt=False)
def cut(E, s, ply, n, i, m):
    """ctx.cut: count a cut event made by the i-th of n moves; killers and history learn."""
    cnt, ip, fp = E[4], E[6], E[7]
    cnt[C_FH] += 1
    if i == 0:
        cnt[C_FFH] += 1
    if i < n - 1:
        cnt[C_CUTOFFS] += 1
    if ip[P_KILLER]:
        killers = E[12]
        if killers[ply, 0] != m and killers[ply, 1] != m:
            killers[ply, 1] = killers[ply, 0]
            killers[ply, 0] = m
    if ip[P_HISTORY]:
        d = fp[F_DEPTH] - ply
        if d == INF:
            d = 1.0
        side = 1 if max_to_move(s) else 0
        E[13][side, m] += np.int64(d) ** 2


# Frame fields: integers FI[f, .], floats FF[f, .], the table key FK[f].
# FI_FRONT: the lazy order's front moves (order_moves), -1 when the moves are in order
FI_PLY, FI_MODE, FI_PHASE, FI_I, FI_N, FI_BEST, FI_MAXING, FI_HAS_STATIC, FI_FUTILE, FI_FRONT = \
    range(10)
N_FI = 10
FF_ALPHA, FF_BETA, FF_ALPHA0, FF_BETA0, FF_V, FF_STATIC, FF_DL, FF_R, FF_BOUND, FF_C = range(10)
N_FF = 10


@njit(cache=True, _nrt=False)
def quiesce(E, base, ply0, alpha, beta, stand_pat):
    """pruning.quiescence: fail-soft, noisy moves only, counted in q_nodes, with delta pruning
    where ip[P_DELTA] (margin fp[F_DELTA], skips counted in cnt[C_DELTA]); from the node at
    ``ply0`` with its static value ``stand_pat``. Iterative, not recursive: numba's on-disk
    cache crashed reloading the recursive form (numba issues #6061, #6713); quiescence level q
    keeps its window, value, stand-pat (FF_STATIC) and move loop in frame ``base + q`` (frames
    above the search's top are free). Returns 0.0 when the node budget ran out (cnt[C_ABORT]
    set)."""
    S, MV, cnt, ip, fp, FI, FF = E[0], E[1], E[4], E[6], E[7], E[16], E[17]
    q = 0
    FF[base, FF_ALPHA] = alpha
    FF[base, FF_BETA] = beta
    FF[base, FF_V] = stand_pat
    c = 0.0
    enter = True
    while True:
        f, ply = base + q, ply0 + q
        s = S[ply]
        if enter:                           # a node's entry: stand pat, depth bound, its moves
            maxing = max_to_move(s)
            v, alpha, beta = FF[f, FF_V], FF[f, FF_ALPHA], FF[f, FF_BETA]
            if ((v >= beta) if maxing else (v <= alpha)) or q >= ip[P_QMAX]:
                if q == 0:
                    return v
                q, c, enter = q - 1, v, False
                continue
            if maxing:
                FF[f, FF_ALPHA] = max(alpha, v)
            else:
                FF[f, FF_BETA] = min(beta, v)
            FF[f, FF_STATIC] = v
            FI[f, FI_MAXING] = maxing
            FI[f, FI_N] = noisy_moves(s, MV[ply])
            FI[f, FI_I] = 0
        else:                               # the last move's child returned c
            v = FF[f, FF_V]
            if FI[f, FI_MAXING]:
                v = max(v, c)
                FF[f, FF_V] = v
                if v >= FF[f, FF_BETA]:
                    if q == 0:
                        return v
                    q, c = q - 1, v
                    continue
                FF[f, FF_ALPHA] = max(FF[f, FF_ALPHA], v)
            else:
                v = min(v, c)
                FF[f, FF_V] = v
                if v <= FF[f, FF_ALPHA]:
                    if q == 0:
                        return v
                    q, c = q - 1, v
                    continue
                FF[f, FF_BETA] = min(FF[f, FF_BETA], v)
            FI[f, FI_I] += 1
        i = FI[f, FI_I]
        if ip[P_DELTA]:                     # delta pruning: skip moves that cannot reach the window
            n, sp, delta = FI[f, FI_N], FF[f, FF_STATIC], fp[F_DELTA]
            while i < n:
                if FI[f, FI_MAXING]:
                    bound = sp + capture_gain(s, MV[ply, i]) + delta
                    if bound > FF[f, FF_ALPHA]:
                        break
                    if bound > FF[f, FF_V]:
                        FF[f, FF_V] = bound
                else:
                    bound = sp - capture_gain(s, MV[ply, i]) - delta
                    if bound < FF[f, FF_BETA]:
                        break
                    if bound < FF[f, FF_V]:
                        FF[f, FF_V] = bound
                cnt[C_DELTA] += 1
                i += 1
            FI[f, FI_I] = i
        if i >= FI[f, FI_N]:
            v = FF[f, FF_V]
            if q == 0:
                return v
            q, c, enter = q - 1, v, False
            continue
        play(s, MV[ply, i], S[ply + 1])
        cnt[C_QNODES] += 1
        if cnt[C_NODES] + cnt[C_QNODES] > ip[P_MAXNODES]:
            cnt[C_ABORT] = 1
            return 0.0
        child = S[ply + 1]
        if is_terminal(child):
            c, enter = utility(child), False
            continue
        FF[f + 1, FF_ALPHA] = FF[f, FF_ALPHA]
        FF[f + 1, FF_BETA] = FF[f, FF_BETA]
        FF[f + 1, FF_V] = evaluate(child)
        q, enter = q + 1, True


# --- the search: an explicit stack of frames --------------------------------------------------
# Phases: where a frame resumes (R_*: after a child search returned its value in ``ret``).
(ENTER, R_NM, R_NM_VERIFY, RAZOR, PROBCUT, R_PC, LOOP_START, LOOP_NEXT, R_CHILD, R_PVS, R_LMR,
 LOOP_END, MM_NEXT, R_MM, PROCESS, EARLY) = range(16)


# inlined: called per child, in the search's loop and in its loop over horizon children
@njit(cache=True, _nrt=False, inline='always')
def _process(E, f, s, ply, maxing, alg, c, n, i, m):
    """The i-th of n moves, m, returned c: the node's value, window and best move take it in
    (reference.py's alpha-beta, fail-soft or fail-hard); True when it cuts the node off."""
    FI, FF = E[16], E[17]
    alpha, beta = FF[f, FF_ALPHA], FF[f, FF_BETA]
    if alg == FAILHARD:
        if maxing:
            if c >= beta:
                cut(E, s, ply, n, i, m)
                FF[f, FF_ALPHA] = beta
                FI[f, FI_BEST] = m
                return True
            if c > alpha:
                FF[f, FF_ALPHA] = c
                FI[f, FI_BEST] = m
        else:
            if c <= alpha:
                cut(E, s, ply, n, i, m)
                FF[f, FF_BETA] = alpha
                FI[f, FI_BEST] = m
                return True
            if c < beta:
                FF[f, FF_BETA] = c
                FI[f, FI_BEST] = m
        return False
    v = FF[f, FF_V]
    cutoff = False
    if maxing:
        if c > v:
            v = c
            FI[f, FI_BEST] = m
        if v >= beta:
            cut(E, s, ply, n, i, m)
            cutoff = True
        elif v > alpha:
            FF[f, FF_ALPHA] = v
    else:
        if c < v:
            v = c
            FI[f, FI_BEST] = m
        if v <= alpha:
            cut(E, s, ply, n, i, m)
            cutoff = True
        elif v < beta:
            FF[f, FF_BETA] = v
    FF[f, FF_V] = v
    return cutoff


# inlined: called per leaf
@njit(cache=True, _nrt=False, inline='always')
def _leaf(E, ply, s):
    """ENTER's visit of the node ``s`` at ``ply`` on the horizon, done without a frame (it is
    counted, and has no moves to search): its static value, its utility when terminal. Sets
    cnt[C_ABORT] (and returns 0.0) when the node budget runs out."""
    cnt = E[4]
    cnt[C_PARENT_NULL] = 0
    cnt[C_NODES] += 1
    if cnt[C_NODES] > E[6][P_MAXNODES]:
        cnt[C_ABORT] = 1
        return 0.0
    E[5][ply] += 1
    cnt[C_LEAVES] += 1
    return utility(s) if is_terminal(s) else evaluate(s)


@njit(cache=True, _nrt=False)
def _push(E, f, resume, ply, alpha, beta, mode):
    """Suspend frame f at ``resume`` and open frame f + 1: a search of ``ply`` with the window
    (alpha, beta) (mode 1: the move loop alone). Returns the new top."""
    FI, FF = E[16], E[17]
    FI[f, FI_PHASE] = resume
    g = f + 1
    FI[g, FI_PLY] = ply
    FI[g, FI_MODE] = mode
    FI[g, FI_PHASE] = ENTER
    FF[g, FF_ALPHA] = alpha
    FF[g, FF_BETA] = beta
    return g


@njit(cache=True, _nrt=False, nogil=True)
def search(E, root_alpha, root_beta):
    """The root's search to the horizon fp[F_DEPTH]: reference.py's algorithms (and
    pruning.py's pruned alpha-beta) as a state machine over an explicit stack of frames, so
    that numba compiles it in seconds (type inference of a self-recursive function this size
    takes minutes). Each phase below is the stretch of the reference between two recursive
    calls. Returns the root value (MAX's view); 0.0 when the node budget ran out."""
    S, MV, cnt, per_ply, ip, fp = E[0], E[1], E[4], E[5], E[6], E[7]
    FI, FF, FK = E[16], E[17], E[18]
    alg = ip[P_ALG]
    pruned = ip[P_PRUNED] != 0
    has_table = ip[P_TABLE] != TABLE_NONE and alg != MINIMAX
    FI[0, FI_PLY] = 0
    FI[0, FI_MODE] = 0
    FI[0, FI_PHASE] = ENTER
    FF[0, FF_ALPHA] = root_alpha
    FF[0, FF_BETA] = root_beta
    top = 0
    ret = 0.0
    while top >= 0:
        f = top
        ply = FI[f, FI_PLY]
        s = S[ply]
        phase = FI[f, FI_PHASE]
        if phase == ENTER:
            alpha, beta = FF[f, FF_ALPHA], FF[f, FF_BETA]
            FF[f, FF_ALPHA0] = alpha
            FF[f, FF_BETA0] = beta
            maxing = max_to_move(s)
            FI[f, FI_MAXING] = maxing
            FI[f, FI_HAS_STATIC] = 0
            if FI[f, FI_MODE] == 1:
                phase = LOOP_START
            else:
                parent_null = cnt[C_PARENT_NULL] != 0
                cnt[C_PARENT_NULL] = 0
                # ctx.visit
                cnt[C_NODES] += 1
                if cnt[C_NODES] > ip[P_MAXNODES]:
                    cnt[C_ABORT] = 1
                    return 0.0
                per_ply[ply] += 1
                if is_terminal(s):
                    cnt[C_LEAVES] += 1
                    ret = utility(s)
                    top -= 1
                    continue
                if ply >= fp[F_DEPTH]:
                    cnt[C_LEAVES] += 1
                    ret = evaluate(s)
                    if pruned and ip[P_Q]:
                        ret = quiesce(E, top + 1, ply, alpha, beta, ret)
                        if cnt[C_ABORT]:
                            return 0.0
                    top -= 1
                    continue
                if has_table:
                    key = hash_key(s)
                    FK[f] = key
                    if ply > 0:
                        hit, hv = tt_probe(E, key, fp[F_DEPTH] - ply, alpha, beta)
                        if hit:
                            ret = min(max(hv, alpha), beta) if alg == FAILHARD else hv
                            top -= 1
                            continue
                if alg == MINIMAX:
                    FI[f, FI_N] = order_moves(E, ply, np.uint64(0), False, False)[0]
                    FI[f, FI_I] = 0
                    FI[f, FI_BEST] = -1
                    FF[f, FF_V] = -INF if maxing else INF
                    FI[f, FI_PHASE] = MM_NEXT
                    continue
                if not pruned:
                    phase = LOOP_START
                else:
                    # pruned alpha-beta: node-level pruning first (null move, razoring, ProbCut)
                    depth_left = fp[F_DEPTH] - ply
                    FF[f, FF_DL] = depth_left
                    if ip[P_NM] or ip[P_FUT] or ip[P_PC]:
                        FF[f, FF_STATIC] = evaluate(s)
                        FI[f, FI_HAS_STATIC] = 1
                    FI[f, FI_PHASE] = RAZOR
                    if ip[P_NM] and ply > 0 and not parent_null and null_move_allowed(s):
                        r = ip[P_NM_R]
                        if ip[P_NM_ADAPT] >= 0 and depth_left > ip[P_NM_ADAPT]:
                            r += 1
                        if depth_left > r and ((beta < INF) if maxing else (alpha > -INF)):
                            null_move(s, S[ply + 1])
                            cnt[C_NULL_TRIED] += 1
                            cnt[C_PARENT_NULL] = 1
                            FF[f, FF_R] = r
                            fp[F_DEPTH] -= r
                            if maxing:
                                top = _push(E, f, R_NM, ply + 1, np.nextafter(beta, -INF),
                                            beta, 0)
                            else:
                                top = _push(E, f, R_NM, ply + 1, alpha,
                                            np.nextafter(alpha, INF), 0)
                    continue
        maxing = FI[f, FI_MAXING] != 0
        alpha, beta = FF[f, FF_ALPHA], FF[f, FF_BETA]
        # The phases a plain alpha-beta node passes through run in one pass of this loop where
        # they can (ENTER -> LOOP_START -> LOOP_NEXT -> the child's push; the child's return ->
        # PROCESS -> LOOP_NEXT -> the next push or LOOP_END): each pass costs a dispatch on the
        # phase, a branch the processor mispredicts, so ``phase`` falls through the blocks
        # below, and FI[f, FI_PHASE] is written only where the loop leaves the frame.
        if phase == LOOP_START:
            n, front = order_moves(E, ply, FK[f], has_table and FI[f, FI_MODE] == 0, not pruned)
            FI[f, FI_FRONT] = front
            FI[f, FI_BEST] = -1
            FI[f, FI_I] = 0
            FF[f, FF_V] = -INF if maxing else INF
            FI[f, FI_FUTILE] = 0
            if pruned:
                depth_left = fp[F_DEPTH] - ply
                FF[f, FF_DL] = depth_left
                if ip[P_BEAM]:
                    nw = ip[P_NWIDTHS]
                    width = E[15][min(ply, nw - 1)] if nw else ip[P_BEAM_WIDTH]
                    if n > width:
                        cnt[C_BEAM] += 1
                        keys = E[2][ply]
                        for i in range(n):
                            play(s, MV[ply, i], S[ply + 1])
                            keys[i] = _static_of(S[ply + 1])
                        _sort(MV[ply], keys, n, maxing)
                        n = width
                if ip[P_FUT] and depth_left == 1 and ply > 0 and FI[f, FI_HAS_STATIC]:
                    static, margin = FF[f, FF_STATIC], fp[F_FUT_MARGIN]
                    FI[f, FI_FUTILE] = (static + margin <= alpha) if maxing else \
                        (static - margin >= beta)
            FI[f, FI_N] = n
            phase = LOOP_NEXT
        elif phase == R_CHILD or phase == PROCESS:
            c = ret if phase == R_CHILD else FF[f, FF_C]
            i = FI[f, FI_I]
            FI[f, FI_I] = i + 1
            cutoff = _process(E, f, s, ply, maxing, alg, c, FI[f, FI_N], i, MV[ply, i])
            phase = LOOP_END if cutoff else LOOP_NEXT
        elif phase == R_PVS:
            c = ret
            if alpha < c < beta:
                cnt[C_RE] += 1
                top = _push(E, f, R_CHILD, ply + 1, alpha, beta, 0)
                continue
            FF[f, FF_C] = c
            FI[f, FI_PHASE] = PROCESS
        elif phase == R_NM:
            c = ret
            r = FF[f, FF_R]
            fp[F_DEPTH] += r
            cnt[C_PARENT_NULL] = 0
            FI[f, FI_PHASE] = RAZOR
            if (c >= beta) if maxing else (c <= alpha):
                if ip[P_NM_VERIFY]:
                    fp[F_DEPTH] -= r
                    top = _push(E, f, R_NM_VERIFY, ply, alpha, beta, 1)
                else:
                    cnt[C_NULL] += 1
                    FF[f, FF_C] = c
                    FI[f, FI_PHASE] = EARLY
        elif phase == R_NM_VERIFY:
            c = ret
            fp[F_DEPTH] += FF[f, FF_R]
            FI[f, FI_PHASE] = RAZOR
            if (c >= beta) if maxing else (c <= alpha):
                cnt[C_NULL] += 1
                FF[f, FF_C] = c
                FI[f, FI_PHASE] = EARLY
        elif phase == RAZOR:
            FI[f, FI_PHASE] = PROBCUT
            static = FF[f, FF_STATIC]
            if ip[P_FUT] and ip[P_RAZOR] and ply > 0 and FF[f, FF_DL] <= ip[P_RAZOR_DEPTH]:
                rm = fp[F_RAZOR_MARGIN]
                if (static + rm <= alpha) if maxing else (static - rm >= beta):
                    q = static
                    if ip[P_Q]:
                        q = quiesce(E, top + 1, ply, alpha, beta, static)
                        if cnt[C_ABORT]:
                            return 0.0
                    if (q <= alpha) if maxing else (q >= beta):
                        cnt[C_RAZOR] += 1
                        FF[f, FF_C] = q
                        FI[f, FI_PHASE] = EARLY
        elif phase == PROBCUT:
            FI[f, FI_PHASE] = LOOP_START
            if ip[P_PC] and ply > 0 and FF[f, FF_DL] == ip[P_PC_DEEP]:
                r = ip[P_PC_DEEP] - ip[P_PC_SHALLOW]
                slope, icpt = fp[F_PC_SLOPE], fp[F_PC_INTERCEPT]
                spare = fp[F_PC_THRESHOLD] * fp[F_PC_SIGMA]
                if maxing and beta < INF:
                    bound = (beta + spare - icpt) / slope
                    FF[f, FF_BOUND] = bound
                    FF[f, FF_R] = r
                    fp[F_DEPTH] -= r
                    top = _push(E, f, R_PC, ply, np.nextafter(bound, -INF), bound, 1)
                elif not maxing and alpha > -INF:
                    bound = (alpha - spare - icpt) / slope
                    FF[f, FF_BOUND] = bound
                    FF[f, FF_R] = r
                    fp[F_DEPTH] -= r
                    top = _push(E, f, R_PC, ply, bound, np.nextafter(bound, INF), 1)
        elif phase == R_PC:
            c = ret
            fp[F_DEPTH] += FF[f, FF_R]
            bound = FF[f, FF_BOUND]
            FI[f, FI_PHASE] = LOOP_START
            if (c >= bound) if maxing else (c <= bound):
                cnt[C_PROBCUT] += 1
                FF[f, FF_C] = beta if maxing else alpha
                FI[f, FI_PHASE] = EARLY
        elif phase == EARLY:
            early = FF[f, FF_C]
            if has_table:
                tt_store(E, FK[f], FF[f, FF_DL], early, FF[f, FF_ALPHA0], FF[f, FF_BETA0], -1)
            ret = early
            top -= 1
        elif phase == MM_NEXT:
            i = FI[f, FI_I]
            if i >= FI[f, FI_N]:
                if ply == 0:
                    cnt[C_BEST] = FI[f, FI_BEST]
                ret = FF[f, FF_V]
                top -= 1
                continue
            play(s, MV[ply, i], S[ply + 1])
            top = _push(E, f, R_MM, ply + 1, alpha, beta, 0)
        elif phase == R_MM:
            c = ret
            i = FI[f, FI_I]
            m = MV[ply, i]
            if ply == 0:
                E[14][m] = c
            if (c > FF[f, FF_V]) if maxing else (c < FF[f, FF_V]):
                FF[f, FF_V] = c
                FI[f, FI_BEST] = m
            FI[f, FI_I] = i + 1
            FI[f, FI_PHASE] = MM_NEXT
        elif phase == R_LMR:
            c = ret
            fp[F_DEPTH] += FF[f, FF_R]
            cnt[C_LMR] += 1
            if (c > alpha) if maxing else (c < beta):
                cnt[C_RE] += 1
                top = _push(E, f, R_CHILD, ply + 1, alpha, beta, 0)
                continue
            FF[f, FF_C] = c
            FI[f, FI_PHASE] = PROCESS
        if phase == LOOP_NEXT:
            alpha, beta = FF[f, FF_ALPHA], FF[f, FF_BETA]
            i = FI[f, FI_I]
            n = FI[f, FI_N]
            if i >= n:
                phase = LOOP_END
            elif not pruned and alg != PVS and ply + 1 >= fp[F_DEPTH]:
                # every child is at the horizon: ENTER's visit of a leaf and PROCESS, done in a
                # loop here without frames
                child = S[ply + 1]
                front = FI[f, FI_FRONT]
                while i < n:
                    if front >= 0 and i >= front:
                        front = _next(E, ply, i, n, front, maxing)
                    m = MV[ply, i]
                    play(s, m, child)
                    c = _leaf(E, ply + 1, child)
                    if cnt[C_ABORT]:
                        return 0.0
                    i += 1
                    if _process(E, f, s, ply, maxing, alg, c, n, i - 1, m):
                        break
                FI[f, FI_I] = i
                phase = LOOP_END
            elif not pruned:
                front = FI[f, FI_FRONT]
                if front >= 0 and i >= front:
                    FI[f, FI_FRONT] = _next(E, ply, i, n, front, maxing)
                m = MV[ply, i]
                child = S[ply + 1]
                play(s, m, child)
                if alg == PVS and i > 0:
                    if maxing:
                        top = _push(E, f, R_PVS, ply + 1, alpha, np.nextafter(alpha, INF), 0)
                    else:
                        top = _push(E, f, R_PVS, ply + 1, np.nextafter(beta, -INF), beta, 0)
                elif ply + 1 >= fp[F_DEPTH]:
                    # PVS's first child at the horizon
                    FF[f, FF_C] = _leaf(E, ply + 1, child)
                    if cnt[C_ABORT]:
                        return 0.0
                    FI[f, FI_PHASE] = PROCESS
                else:
                    top = _push(E, f, R_CHILD, ply + 1, alpha, beta, 0)
                continue
            else:
                m = MV[ply, i]
                quiet = ip[P_NOISY] == 0 or not is_noisy(s, m)
                if FI[f, FI_FUTILE] and quiet and i > 0:
                    cnt[C_FUTILITY] += 1
                    margin = fp[F_FUT_MARGIN]
                    bound = FF[f, FF_STATIC] + margin if maxing else FF[f, FF_STATIC] - margin
                    if (bound > FF[f, FF_V]) if maxing else (bound < FF[f, FF_V]):
                        FF[f, FF_V] = bound
                    FI[f, FI_I] = i + 1
                    FI[f, FI_PHASE] = LOOP_NEXT
                    continue
                play(s, m, S[ply + 1])
                depth_left = FF[f, FF_DL]
                if ip[P_LMR] and i >= ip[P_LMR_AFTER] and depth_left >= ip[P_LMR_MIN] and quiet:
                    if ip[P_LMR_LOG]:
                        r = float(max(1, int(math.log(depth_left) * math.log(i + 1) / 2)))
                    else:
                        r = float(ip[P_LMR_RED])
                    r = min(r, depth_left - 1)
                    FF[f, FF_R] = r
                    fp[F_DEPTH] -= r
                    if maxing:
                        top = _push(E, f, R_LMR, ply + 1, alpha, np.nextafter(alpha, INF), 0)
                    else:
                        top = _push(E, f, R_LMR, ply + 1, np.nextafter(beta, -INF), beta, 0)
                else:
                    top = _push(E, f, R_CHILD, ply + 1, alpha, beta, 0)
                continue
        if phase == LOOP_END:
            if alg == FAILHARD:
                v = FF[f, FF_ALPHA] if maxing else FF[f, FF_BETA]
            else:
                v = FF[f, FF_V]
            top -= 1
            ret = v
            if FI[f, FI_MODE] == 1:
                continue
            if ply == 0:
                cnt[C_BEST] = FI[f, FI_BEST]
            if has_table:
                tt_store(E, FK[f], fp[F_DEPTH] - ply, v, FF[f, FF_ALPHA0], FF[f, FF_BETA0],
                         FI[f, FI_BEST])
    return ret


@njit(cache=True, _nrt=False, nogil=True)
def deepen(E, horizon, aged, iterations):
    """drivers.iterative_deepening without aspiration windows, in numba (a Python loop cost a
    few microseconds an iteration, a tenth of a small search): ``search(E, -inf, inf)`` to
    horizons 1 .. ``horizon``, a new table age each (``aged``), until the node budget runs
    out. Writes each finished iteration's nodes into ``iterations``; returns (the last
    finished iteration's value, 0.0 when none finished, and how many finished)."""
    cnt, fp = E[4], E[7]
    v = 0.0
    done = 0
    for k in range(1, horizon + 1):
        fp[F_DEPTH] = k
        if aged:
            cnt[C_AGE] += 1
        start = cnt[C_NODES]
        r = search(E, -INF, INF)
        if cnt[C_ABORT]:
            break
        v = r
        iterations[done] = cnt[C_NODES] - start
        done += 1
    return v, done

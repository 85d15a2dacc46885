"""Connect Four's numba code: the bitboard rules (``winning_cells``, which the compiled game's
primitives in connect4_compiled.py use too), Pons' tutorial solvers and the real solver (with
Pons' tutorial table, his current one, or searchlab's "dual" table).

The solvers are called through ``searchlab.games.connect4`` (``pons_tutorial``, ``solve``),
which validate the position and return plain results. Definitions: docs/games.md, "Connect Four".

Bitboards in Pascal Pons' layout, held in int64 (49 bits used, so never negative): column c
(0 = leftmost) is bits 7c .. 7c+5 from the bottom up, bit 7c+6 a sentinel that stays empty.
A position is ``cur`` (stones of the side to move), ``mask`` (all stones) and ``n`` (stones
played). Playing the stone ``m`` (one bit) gives ``(cur ^ mask, mask | m, n + 1)``.
Scores follow the benchmark files (searchlab/data/README.md): relative to the side to move, a win with
one's k-th stone scores 22 - k.

Integer division: every ``//`` below has a non-negative numerator, except where ``_div2``
(C's truncating division by 2, used by Pons) is called explicitly.

Recursive kernels carry explicit signatures: numba's on-disk cache of a recursive function
whose call sites are typed differently segfaults on reload (numba issues #6061, #6713).
Everything also runs (slowly) under NUMBA_DISABLE_JIT=1.
"""

from __future__ import annotations

from numba import njit

WIDTH = 7
HEIGHT = 6
CELLS = WIDTH * HEIGHT                       # 42
BOTTOM = sum(1 << (7 * c) for c in range(WIDTH))   # one bit at the bottom of each column
BOARD = BOTTOM * ((1 << HEIGHT) - 1)         # every playable cell
COLUMN = (1 << HEIGHT) - 1                   # column 0's cells; column c: COLUMN << 7c

# Tutorial variant codes: 0 plain negamax; alpha-beta 1/2 columns left to right, 3/4 centre
# first; 1/3 strong (root window [-21, 21]), 2/4 weak ([-1, 1]).
VARIANTS = {
    "negamax": 0,
    "alphabeta-lr-strong": 1,
    "alphabeta-lr-weak": 2,
    "alphabeta-centre-strong": 3,
    "alphabeta-centre-weak": 4,
}

# The solver's transposition table (docs/games.md): Pons' size, a prime just below 2^23.
TT_SIZE = 8388593
VALUE_OFFSET = 22                             # a bound b in [-21, 21] is stored as b + 22 (1..43)
KEY_BITS = 49
KEY_MASK = (1 << KEY_BITS) - 1
VALUE_SHIFT = 49                              # 6 bits: stored value 1..43
EPOCH_SHIFT = 55                              # 8 bits: epoch 1..255 (0 = never written)
MAX_EPOCH = 255


@njit(cache=True, inline="always")
def winning_cells(pos, mask):
    """Empty cells where ``pos``'s owner would complete four in a row (Pons'
    compute_winning_position). Left shifts may drop bits beyond 63; only ``pos`` (< 2^49)
    is ever shifted and the result is masked to the board, so that is harmless."""
    # vertical
    r = (pos << 1) & (pos << 2) & (pos << 3)
    # horizontal (shift 7 = HEIGHT + 1)
    p = (pos << 7) & (pos << 14)
    r |= p & (pos << 21)
    r |= p & (pos >> 7)
    p = (pos >> 7) & (pos >> 14)
    r |= p & (pos << 7)
    r |= p & (pos >> 21)
    # diagonal / (shift 8 = HEIGHT + 2)
    p = (pos << 8) & (pos << 16)
    r |= p & (pos << 24)
    r |= p & (pos >> 8)
    p = (pos >> 8) & (pos >> 16)
    r |= p & (pos << 8)
    r |= p & (pos >> 24)
    # diagonal \ (shift 6 = HEIGHT)
    p = (pos << 6) & (pos << 12)
    r |= p & (pos << 18)
    r |= p & (pos >> 6)
    p = (pos >> 6) & (pos >> 12)
    r |= p & (pos << 6)
    r |= p & (pos >> 18)
    return r & (BOARD ^ mask)


@njit(cache=True, inline="always")
def _popcount(x):
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


@njit(cache=True, inline="always")
def _div2(x):
    """C's x / 2 (truncates towards zero), as in Pons' C++."""
    if x < 0:
        return -((-x) // 2)
    return x // 2


# --------------------------------------------------------------------------------------------
# Pons' tutorial solvers, exactly as Pons' tutorial spells them out.
# Each call returns (score, nodes in its subtree): every call counts, the root included.
# The column order is packed in an int, 4 bits per slot (slot i holds the i-th column).

ORDER_LR = 0x6543210                          # 0, 1, 2, 3, 4, 5, 6
ORDER_CENTRE = 0x6051423                      # 3, 2, 4, 1, 5, 0, 6


@njit("UniTuple(int64, 2)(int64, int64, int64)", cache=True)
def _tutorial_negamax(cur, mask, n):
    nodes = 1
    if n == CELLS:
        return 0, nodes
    possible = (mask + BOTTOM) & BOARD
    if winning_cells(cur, mask) & possible:
        return (43 - n) // 2, nodes
    best = -42
    for c in range(WIDTH):
        m = possible & (COLUMN << (7 * c))
        if m:
            s, k = _tutorial_negamax(cur ^ mask, mask | m, n + 1)
            nodes += k
            if -s > best:
                best = -s
    return best, nodes


@njit("UniTuple(int64, 2)(int64, int64, int64, int64, int64, int64)", cache=True)
def _tutorial_alphabeta(cur, mask, n, alpha, beta, order):
    nodes = 1
    if n == CELLS:
        return 0, nodes
    possible = (mask + BOTTOM) & BOARD
    if winning_cells(cur, mask) & possible:
        return (43 - n) // 2, nodes
    mx = (41 - n) // 2
    if beta > mx:
        beta = mx
        if alpha >= beta:
            return beta, nodes
    for i in range(WIDTH):
        m = possible & (COLUMN << (7 * ((order >> (4 * i)) & 15)))
        if m:
            s, k = _tutorial_alphabeta(cur ^ mask, mask | m, n + 1, -beta, -alpha, order)
            nodes += k
            score = -s
            if score >= beta:
                return score, nodes
            if score > alpha:
                alpha = score
    return alpha, nodes


@njit(cache=True)
def _tutorial_many(curs, masks, ns, variant, scores, nodes):
    """Run one tutorial variant (VARIANTS) on every position; fills scores[i], nodes[i]."""
    order = ORDER_LR if variant <= 2 else ORDER_CENTRE
    window = 21 if variant == 1 or variant == 3 else 1
    for i in range(curs.shape[0]):
        if variant == 0:
            s, k = _tutorial_negamax(curs[i], masks[i], ns[i])
        else:
            s, k = _tutorial_alphabeta(curs[i], masks[i], ns[i], -window, window, order)
        scores[i] = s
        nodes[i] = k


# --------------------------------------------------------------------------------------------
# The solver: Pons' parts 7-10 (bitboard, null-window iterative narrowing, anticipation of
# direct threats, threat-count move ordering, upper-bound transposition table).
#
# tt: int64[TT_SIZE + 1]. Slot key % TT_SIZE holds key | value << 49 | epoch << 55 (always
# replace); tt[TT_SIZE] holds the current epoch. An entry of another epoch reads as empty, so
# every solve starts from an empty table without clearing it. buf: int64[43, >= 16] scratch, row
# n = ply n's move list (columns 0..7: moves, 8..15: their scores); rows along one recursion
# path never overlap. Each negamax call returns (score, calls in its subtree).

@njit(cache=True, inline="always")
def _non_losing_moves(cur, mask):
    """Pons' possibleNonLosingMoves: playable cells that do not hand the opponent an
    immediate win (0 when every move loses, e.g. two opponent threats to block)."""
    possible = (mask + BOTTOM) & BOARD
    opp_win = winning_cells(cur ^ mask, mask)
    forced = possible & opp_win
    if forced:
        if forced & (forced - 1):
            return 0
        possible = forced
    return possible & ~(opp_win >> 1)


@njit("UniTuple(int64, 2)(int64, int64, int64, int64, int64, int64, int64[::1], int64[:, ::1])",
      cache=True)
def _solver_negamax(cur, mask, n, alpha, beta, epoch, tt, buf):
    """Pons' negamax; requires that the side to move cannot win at once."""
    nodes = 1
    nxt = _non_losing_moves(cur, mask)
    if nxt == 0:
        return -((CELLS - n) // 2), nodes
    if n >= CELLS - 2:
        return 0, nodes
    lo = -((CELLS - 2 - n) // 2)
    if alpha < lo:
        alpha = lo
        if alpha >= beta:
            return alpha, nodes
    hi = (CELLS - 1 - n) // 2
    key = cur + mask
    slot = key % TT_SIZE
    e = tt[slot]
    if (e >> EPOCH_SHIFT) == epoch and (e & KEY_MASK) == key:
        hi = ((e >> VALUE_SHIFT) & 63) - VALUE_OFFSET
    if beta > hi:
        beta = hi
        if alpha >= beta:
            return beta, nodes
    # Pons' MoveSorter: add in reverse centre-first order, insertion-sorted by score
    # ascending; take from the end. Highest threat count first, ties centre first.
    size = 0
    for i in range(WIDTH - 1, -1, -1):
        m = nxt & (COLUMN << (7 * ((ORDER_CENTRE >> (4 * i)) & 15)))
        if m:
            sc = _popcount(winning_cells(cur | m, mask))
            pos = size
            while pos > 0 and buf[n, 8 + pos - 1] > sc:
                buf[n, pos] = buf[n, pos - 1]
                buf[n, 8 + pos] = buf[n, 8 + pos - 1]
                pos -= 1
            buf[n, pos] = m
            buf[n, 8 + pos] = sc
            size += 1
    while size > 0:
        size -= 1
        m = buf[n, size]
        s, k = _solver_negamax(cur ^ mask, mask | m, n + 1, -beta, -alpha, epoch, tt, buf)
        nodes += k
        score = -s
        if score >= beta:
            return score, nodes
        if score > alpha:
            alpha = score
    tt[slot] = key | ((alpha + VALUE_OFFSET) << VALUE_SHIFT) | (epoch << EPOCH_SHIFT)
    return alpha, nodes


@njit(cache=True)
def _new_epoch(tt, size, max_epoch):
    """Start a solve with an (effectively) empty table of ``size`` slots (the epoch kept in
    slot ``size``): bump the epoch, clearing the table when it passes ``max_epoch``. Both the
    upper-bound and the bounds table use it."""
    epoch = tt[size] + 1
    if epoch > max_epoch:
        tt[:] = 0
        epoch = 1
    tt[size] = epoch
    return epoch


@njit(cache=True)
def _solve(cur, mask, n, weak, tt, buf):
    """(score, nodes) of a non-terminal position (weak: the score's sign); Pons' solve().

    Null-window searches narrow [lo, hi] around the score, probing first at 0 and then
    halfway (biased towards the bound nearer 0, as Pons does). nodes sums the negamax calls
    of every probe; a position won at once counts as one node.
    """
    epoch = _new_epoch(tt, TT_SIZE, MAX_EPOCH)
    if winning_cells(cur, mask) & ((mask + BOTTOM) & BOARD):
        return (1 if weak else (CELLS + 1 - n) // 2), 1
    lo = -((CELLS - n) // 2)
    hi = (CELLS + 1 - n) // 2
    if weak:
        lo = -1
        hi = 1
    nodes = 0
    while lo < hi:
        med = lo + (hi - lo) // 2
        if med <= 0 and _div2(lo) < med:
            med = _div2(lo)
        elif med >= 0 and _div2(hi) > med:
            med = _div2(hi)
        r, k = _solver_negamax(cur, mask, n, med, med + 1, epoch, tt, buf)
        nodes += k
        if r <= med:
            hi = r
        else:
            lo = r
    if weak:        # a fail-soft probe may return beyond the [-1, 1] window
        return max(-1, min(1, lo)), nodes
    return lo, nodes


@njit(cache=True)
def _solve_many(curs, masks, ns, weak, tt, buf, out_scores, out_nodes):
    """_solve on every position (a fresh table epoch for each)."""
    for i in range(curs.shape[0]):
        s, k = _solve(curs[i], masks[i], ns[i], weak, tt, buf)
        out_scores[i] = s
        out_nodes[i] = k


# --------------------------------------------------------------------------------------------
# The bounds solver: Pons' current solver (after the tutorial) without its opening book. It
# differs from the solver above only in its transposition table: 16,777,259 slots (the first
# prime above 2^24), and a cut-off (score >= beta) stores the score as a lower bound, probed
# like the upper bound (it raises alpha). Everything else (non-losing moves, ordering, the
# probes of _solve) is the same. With ``extra`` = 1 (searchlab's additions, not Pons'): a
# store into the slot of the same position keeps the bound of the other kind (an entry holds
# a lower and an upper bound), and an entry keeps the move that cut off, which is searched
# first when the position is met again (the others follow in threat-count order).
#
# buf: int64[43, 24] scratch as for the solver above, plus columns 16..23: the opponent's
# winning cells after each move (passed to the child). tt: int64[BTT_SIZE + 1]. Slot key % BTT_SIZE holds key // BTT_SIZE (25 bits; with the slot
# it determines the key, as in Pons' truncated keys) | lower << 25 | upper << 31 | move << 37
# | epoch << 40, where lower and upper are bound + 22 (1..43; 0: no such bound), move is
# 1 + the column of the cut-off move (0: none), and tt[BTT_SIZE] holds the current epoch
# (1 .. 2^23 - 1; the table is cleared when it wraps). Without ``extra`` an entry holds one
# bound and no move (Pons' table). Always replace.

BTT_SIZE = 16777259
BTT_LOWER_SHIFT = 25                          # 2^49 / BTT_SIZE < 2^25
BTT_UPPER_SHIFT = 31
BTT_MOVE_SHIFT = 37
BTT_EPOCH_SHIFT = 40
BTT_MAX_EPOCH = (1 << 23) - 1
BTT_DATA = ((1 << 15) - 1) << BTT_LOWER_SHIFT   # lower, upper, move


@njit(cache=True, inline="always")
def _column_of(m):
    """Column of a one-bit move."""
    c = 0
    while m >= 128:
        m >>= 7
        c += 1
    return c


@njit("UniTuple(int64, 2)(int64, int64, int64, int64, int64, int64, int64, int64, int64[::1], "
      "int64[:, ::1])", cache=True)
def _bounds_negamax(cur, mask, n, alpha, beta, opp_win, epoch, extra, tt, buf):
    """Pons' current negamax (no book; ``extra``: searchlab's additions); requires that the
    side to move cannot win at once. ``opp_win``: the opponent's winning cells
    (winning_cells(cur ^ mask, mask)), which the parent already computed to order its moves;
    -1: not known, compute them."""
    nodes = 1
    if opp_win < 0:
        opp_win = winning_cells(cur ^ mask, mask)
    possible = (mask + BOTTOM) & BOARD
    forced = possible & opp_win
    if forced:
        if forced & (forced - 1):
            possible = 0
        else:
            possible = forced
    nxt = possible & ~(opp_win >> 1)       # Pons' possibleNonLosingMoves, as _non_losing_moves
    if nxt == 0:
        return -((CELLS - n) // 2), nodes
    if n >= CELLS - 2:
        return 0, nodes
    lo = -((CELLS - 2 - n) // 2)
    if alpha < lo:
        alpha = lo
        if alpha >= beta:
            return alpha, nodes
    hi = (CELLS - 1 - n) // 2
    if beta > hi:
        beta = hi
        if alpha >= beta:
            return beta, nodes
    key = cur + mask
    slot = key % BTT_SIZE
    tag = key // BTT_SIZE | (epoch << BTT_EPOCH_SHIFT)
    e = tt[slot]
    first = 0
    kept = 0                      # the entry's data to keep on a store (extra only)
    if (e & ~BTT_DATA) == tag:
        code = (e >> BTT_LOWER_SHIFT) & 63
        if code:
            lo = code - VALUE_OFFSET
            if alpha < lo:
                alpha = lo
                if alpha >= beta:
                    return alpha, nodes
        code = (e >> BTT_UPPER_SHIFT) & 63
        if code:
            hi = code - VALUE_OFFSET
            if beta > hi:
                beta = hi
                if alpha >= beta:
                    return beta, nodes
        c = (e >> BTT_MOVE_SHIFT) & 7
        if c:
            first = nxt & (COLUMN << (7 * (c - 1)))
        if extra:
            kept = e & BTT_DATA
    size = 0
    for i in range(WIDTH - 1, -1, -1):
        m = nxt & (COLUMN << (7 * ((ORDER_CENTRE >> (4 * i)) & 15)))
        if m and m != first:
            w = winning_cells(cur | m, mask)
            sc = _popcount(w)
            pos = size
            while pos > 0 and buf[n, 8 + pos - 1] > sc:
                buf[n, pos] = buf[n, pos - 1]
                buf[n, 8 + pos] = buf[n, 8 + pos - 1]
                buf[n, 16 + pos] = buf[n, 16 + pos - 1]
                pos -= 1
            buf[n, pos] = m
            buf[n, 8 + pos] = sc
            buf[n, 16 + pos] = w & ~m
            size += 1
    if first:
        buf[n, size] = first
        buf[n, 16 + size] = winning_cells(cur | first, mask) & ~first
        size += 1
    while size > 0:
        size -= 1
        m = buf[n, size]
        s, k = _bounds_negamax(cur ^ mask, mask | m, n + 1, -beta, -alpha, buf[n, 16 + size],
                               epoch, extra, tt, buf)
        nodes += k
        score = -s
        if score >= beta:
            data = (score + VALUE_OFFSET) << BTT_LOWER_SHIFT
            if extra:
                data |= (kept & (63 << BTT_UPPER_SHIFT)) | (
                    (_column_of(m) + 1) << BTT_MOVE_SHIFT)
            tt[slot] = tag | data
            return score, nodes
        if score > alpha:
            alpha = score
    tt[slot] = tag | ((alpha + VALUE_OFFSET) << BTT_UPPER_SHIFT) | (
        kept & ((63 << BTT_LOWER_SHIFT) | (7 << BTT_MOVE_SHIFT)))
    return alpha, nodes


@njit(cache=True)
def _bounds_solve(cur, mask, n, weak, extra, tt, buf):
    """_solve with the bounds table: (score, nodes) of a non-terminal position."""
    epoch = _new_epoch(tt, BTT_SIZE, BTT_MAX_EPOCH)
    if winning_cells(cur, mask) & ((mask + BOTTOM) & BOARD):
        return (1 if weak else (CELLS + 1 - n) // 2), 1
    lo = -((CELLS - n) // 2)
    hi = (CELLS + 1 - n) // 2
    if weak:
        lo = -1
        hi = 1
    nodes = 0
    while lo < hi:
        med = lo + (hi - lo) // 2
        if med <= 0 and _div2(lo) < med:
            med = _div2(lo)
        elif med >= 0 and _div2(hi) > med:
            med = _div2(hi)
        r, k = _bounds_negamax(cur, mask, n, med, med + 1, -1, epoch, extra, tt, buf)
        nodes += k
        if r <= med:
            hi = r
        else:
            lo = r
    if weak:
        return max(-1, min(1, lo)), nodes
    return lo, nodes


@njit(cache=True)
def _bounds_solve_many(curs, masks, ns, weak, extra, tt, buf, out_scores, out_nodes):
    """_bounds_solve on every position (a fresh table epoch for each)."""
    for i in range(curs.shape[0]):
        s, k = _bounds_solve(curs[i], masks[i], ns[i], weak, extra, tt, buf)
        out_scores[i] = s
        out_nodes[i] = k

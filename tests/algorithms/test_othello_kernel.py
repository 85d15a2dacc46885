"""Othello's compiled move generation (searchlab/games/othello_kernel.py) against the
Python game's bitboard functions (searchlab.games.othello.legal_squares and flips), on random
boards of every density (not only positions of real games: discs anywhere, any empty square
tried), compiled and as plain Python (NUMBA_DISABLE_JIT=1); the bit helpers it uses."""

from __future__ import annotations

import random

import numpy as np
from numba import njit

from searchlab.games import othello_kernel as K
from searchlab.algorithms.kernels.bits import lsb, msb
from searchlab.games.othello import flips, legal_squares
from tests.nojit import run_without_jit


def boards(n: int, seed: int) -> list[tuple[int, int]]:
    """n random (p, o) pairs of disjoint bitboards, from nearly empty to nearly full."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        fill = rng.random()
        occ = sum(1 << i for i in range(64) if rng.random() < fill)
        p = occ & rng.getrandbits(64)
        out.append((p, occ & ~p))
    return out


@njit
def _kernel_sets(ps, os):
    """Each board's legal moves of both sides (legal_moves twice, legal_moves_both) and the
    flips of every empty square for the side to move: the compiled kernel's answers."""
    n = ps.shape[0]
    moves = np.empty((n, 4), dtype=np.uint64)
    fl = np.zeros((n, 64), dtype=np.uint64)
    for i in range(n):
        p, o = ps[i], os[i]
        moves[i, 0] = K.legal_moves(p, o)
        moves[i, 1] = K.legal_moves(o, p)
        moves[i, 2], moves[i, 3] = K.legal_moves_both(p, o)
        empty = ~(p | o)
        for sq in range(64):
            if empty >> np.uint64(sq) & np.uint64(1):
                fl[i, sq] = K.flips(p, o, sq)
    return moves, fl


def test_compiled_move_generation_equals_the_python_game():
    pairs = boards(3000, 1)
    ps = np.array([p for p, _ in pairs], dtype=np.uint64)
    os = np.array([o for _, o in pairs], dtype=np.uint64)
    moves, fl = _kernel_sets(ps, os)
    flipping = 0
    for i, (p, o) in enumerate(pairs):
        mp, mo = legal_squares(p, o), legal_squares(o, p)
        assert [int(x) for x in moves[i]] == [mp, mo, mp, mo], (hex(p), hex(o))
        for sq in range(64):
            if not (p | o) >> sq & 1:
                f = flips(p, o, sq)
                assert int(fl[i, sq]) == f, (hex(p), hex(o), sq)
                flipping += f != 0
    assert flipping > 10000                     # the boards exercise real captures


def test_bit_helpers():
    for x in [1, 2, 1 << 63, (1 << 64) - 1, 0x8100, 6] + [random.Random(3).getrandbits(64) | 1]:
        assert lsb(np.uint64(x)) == (x & -x).bit_length() - 1
        assert msb(np.uint64(x)) == x.bit_length() - 1
    assert _scan(np.uint64(0x0100_0000_0000_8000)) == (15, 56)


@njit
def _scan(x):
    return lsb(x), msb(x)


def test_plain_python_run_equals_the_python_game():
    """The kernel's functions uncompiled (legal_moves_both's two calls, msb/lsb in Python)."""
    code = (
        "import numpy as np\n"
        "from searchlab.games import othello_kernel as K\n"
        "from searchlab.games.othello import flips, legal_squares\n"
        "from tests.algorithms.test_othello_kernel import boards\n"
        "n = 0\n"
        "with np.errstate(over='ignore'):\n"
        "    for p, o in boards(60, 2):\n"
        "        P, O = np.uint64(p), np.uint64(o)\n"
        "        assert int(K.legal_moves(P, O)) == legal_squares(p, o)\n"
        "        assert tuple(map(int, K.legal_moves_both(P, O))) == (legal_squares(p, o),\n"
        "                                                           legal_squares(o, p))\n"
        "        for sq in range(64):\n"
        "            if not (p | o) >> sq & 1:\n"
        "                assert int(K.flips(P, O, sq)) == flips(p, o, sq), (p, o, sq)\n"
        "                n += 1\n"
        "print(n)\n")
    assert int(run_without_jit(code, timeout=300).strip()) > 1000

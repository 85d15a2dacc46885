"""Perft kernels: counts of legal move paths, compiled.

``perft_kernel(stack, ply, depth, moves)`` counts the legal move paths of exactly ``depth``
plies from row ``ply`` of ``stack`` with *bulk counting*: at the last ply it counts the legal
moves (count.py) without listing or making them; ``moves`` is an int64 scratch array of shape
(>= ply + depth, MAX_MOVES). Checkmate or stalemate before full depth adds nothing (the standard
definition, as in the published perft tables). Moves are made with position.make_board (no
keys: the rows above ``ply`` hold stale key words).
"""

from __future__ import annotations

from numba import njit

from searchlab.games.chesskernel.count import count_moves
from searchlab.games.chesskernel.movegen import generate
from searchlab.games.chesskernel.position_row import make_board


@njit
def perft_kernel(stack, ply, depth, moves):
    if depth == 0:
        return 1
    if depth == 1:
        return count_moves(stack[ply])
    n = generate(stack[ply], moves[ply])
    total = 0
    if depth == 2:                   # the last two plies in one loop (no call per node)
        for i in range(n):
            make_board(stack[ply], stack[ply + 1], moves[ply, i])
            total += count_moves(stack[ply + 1])
        return total
    for i in range(n):
        make_board(stack[ply], stack[ply + 1], moves[ply, i])
        total += perft_kernel(stack, ply + 1, depth - 1, moves)
    return total


@njit
def divide_kernel(stack, ply, depth, moves, counts):
    """Perft below each legal move (python-chess's order) into ``counts``; returns the number
    of moves. depth >= 1."""
    n = generate(stack[ply], moves[ply])
    for i in range(n):
        make_board(stack[ply], stack[ply + 1], moves[ply, i])
        counts[i] = perft_kernel(stack, ply + 1, depth - 1, moves)
    return n

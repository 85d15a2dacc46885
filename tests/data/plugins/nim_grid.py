"""Nim drawn by the lab (docs/extending.md): the same game as nim_game.Nim, declared with a
``LabBoard`` that gives only the board's cells (a heap per row, an object per stone) and the
cell each move takes from; positions and move names stay the generic view's. Registered from
Python: ``searchlab lab --plugin nim_grid`` (the folder on PYTHONPATH) imports it."""

from __future__ import annotations

from nim_game import Nim, move_text

from searchlab.games.registry import GameEntry, LabBoard

HEAPS = (1, 2, 3)


def cells(state: tuple) -> list[list[int]]:
    """A row per heap, its objects as the first player's stones (1), then empty cells."""
    width = max(HEAPS)
    return [[1] * h + [0] * (width - h) for h in state[0]]


def move_cell(game: Nim, move: tuple[int, int]) -> list[int]:
    """Taking k from a heap of h: the cell of its (h - k + 1)-th object (click it to take from
    there to the end of the row)."""
    heap, take = move
    return [heap, game.initial_state()[0][heap] - take]


GAME = GameEntry(name="nimgrid", make=lambda: Nim(HEAPS), nominal_b=3, label="Nim (grid)",
                 format_move=move_text, order=61,
                 lab_board=LabBoard(cells=cells, move_cell=move_cell, pieces=("First", "Second")))

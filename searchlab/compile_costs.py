"""What each compiled engine costs to compile the first time, as plain numbers: read by the dry run
(``searchlab --plan``) and the run's compile announcements without loading numba
(benchmarks/startup.py)."""

from __future__ import annotations

#: Each engine's cold compile, CPU seconds of its process from an empty cache (imports and
#: the compile; docs/compile-time.md, "What was tried", the warm-up row, 2026-12-02): what a
#: dry run (searchlab --plan) and a run's compile announcement quote.
COLD_SECONDS: dict[str, float] = {
    "chess": 37, "othello": 28, "connect4": 27, "hex": 23, "tictactoe": 23, "iid": 21,
    "pig": 16, "dice_race": 12, "perft": 11, "tree_kernel": 7, "rolit": 4, "harvest": 3}


__all__ = ["COLD_SECONDS"]

"""What each compiled engine costs to compile the first time, as plain numbers: read by the dry run
(``searchlab --plan``) and the run's compile announcements without loading numba
(benchmarks/startup.py). A registered game's two-player engine declares its own figure beside
the game (``GameEntry.compile_seconds``, searchlab.games.registry, read through
``registry.cold_seconds``); this table holds the engines that are no registered game's."""

from __future__ import annotations

#: The cold compile of each engine that is not a registered game's, CPU seconds of its process
#: from an empty cache (imports and the compile; docs/compile-time.md, "What was tried", the
#: warm-up row, 2026-12-02): what a dry run (searchlab --plan) and a run's compile announcement
#: quote.
COLD_SECONDS: dict[str, float] = {
    "iid": 21, "pig": 16, "dice_race": 12, "perft": 11, "tree_kernel": 7, "rolit": 4, "harvest": 3}

#: A registered game with compiled primitives that declares no figure of its own (a plug-in):
#: about what the built-in games' two-player engines take (their GameEntry.compile_seconds).
DEFAULT_GAME_SECONDS: float = 30.0


__all__ = ["COLD_SECONDS", "DEFAULT_GAME_SECONDS"]

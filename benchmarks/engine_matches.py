"""Connect Four matches: null move (R=2, zugzwang guard) against plain alpha-beta, played
fresh-per-depth and engine-grade, at an equal node budget per move.

    .venv/bin/python benchmarks/engine_matches.py [--openings 200] [--budget 10000]
                                                  [--modes fresh-per-depth,engine] [--seed 1]
                                                  [--cpu-seconds S] [--clock-noise]

Per play mode one row: each of ``--openings`` seeded random 4-ply openings played twice with
colours swapped (play/match.py), both sides ordering "static" (engine play adds table, killers
and history: "tt+killer+history+static"); the guarded game is
searchlab.games.null_move.connect_four_with_null_move (no null move with fewer than 3 safe
moves). Columns: mean depth reached per move by the null-move side (A) and by alpha-beta (B),
the node ratio (A's mean nodes per move over B's), the pentanomial Elo of A with its 95 % CI
(searchlab.analysis.stats), the GSPRT state for H0: Elo = 0 against H1: Elo = +20 (alpha =
beta = 0.05, exact pentanomial LLR) and the wall seconds of the row. ``--cpu-seconds S`` adds
an engine row with S seconds of thread CPU time per move instead of nodes (time-equalised; not
reproducible). ``--clock-noise`` prints the spread of time.thread_time() over 30 repeats of
one identical 10^4-node search (the time mode's clock noise).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from searchlab.algorithms.engine_session import EngineSession, SessionConfig
from searchlab.algorithms.pruning import NullMove, Pruning
from searchlab.analysis.stats import gsprt, pentanomial_from_pairs
from searchlab.games.null_move import connect_four_with_null_move
from searchlab.play.match import Player, run_match
from searchlab.play.openings import random_openings


def clock_noise(game, repeats: int = 30) -> str:
    """Thread CPU seconds of one identical 10^4-node engine search, repeated."""
    state = game.initial_state()
    times = []
    for _ in range(repeats + 1):
        s = EngineSession(game, SessionConfig(ordering="static", nodes=10_000), "auto")
        t0 = time.thread_time()
        s.choose(state)
        times.append(time.thread_time() - t0)
    t = np.array(times[1:])                 # the first may include loading the engine
    return (f"thread_time of one 10^4-node search, {repeats} repeats: median {np.median(t)*1e3:.2f}"
            f" ms, IQR/median {(np.percentile(t, 75) - np.percentile(t, 25)) / np.median(t):.2f},"
            f" max/min {t.max() / t.min():.2f}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--openings", type=int, default=200)
    ap.add_argument("--budget", type=int, default=10_000)
    ap.add_argument("--modes", default="fresh-per-depth,engine")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cpu-seconds", type=float, default=None)
    ap.add_argument("--clock-noise", action="store_true")
    a = ap.parse_args(argv)
    game = connect_four_with_null_move("", guard=True)
    openings = [o.state for o in random_openings(game, 4, a.openings, a.seed)]
    null = Pruning(null_move=NullMove(reduction=2))
    runs = [(m, "nodes") for m in a.modes.split(",")]
    if a.cpu_seconds is not None:
        runs.append(("engine", "cpu"))
    if a.clock_noise:
        print(clock_noise(game))
    print(f"Connect Four, null move R=2 (guard: >= 3 safe moves) vs alpha-beta, "
          f"{len(openings)} openings x 2 colours, ordering static")
    print(f"{'play':<34} {'depth A':>7} {'depth B':>7} {'nodes A/B':>9} {'Elo A [95% CI]':>20} "
          f"{'GSPRT(0,+20)':>22} {'wall s':>7}")
    for mode, budget_mode in runs:
        kw = dict(play=mode)
        if budget_mode == "cpu":
            kw.update(budget_mode="cpu", cpu_seconds=a.cpu_seconds)
            budget = 10**9
        else:
            budget = a.budget
        pa = Player("null R=2", "alphabeta", "static", null, budget, **kw)
        pb = Player("alpha-beta", "alphabeta", "static", None, budget, **kw)
        t0 = time.perf_counter()
        r = run_match(game, pa, pb, openings)
        wall = time.perf_counter() - t0
        p = pentanomial_from_pairs(r.pairs)
        sp = gsprt(p.counts, 0.0, 20.0)
        elo = f"{p.elo:+.0f} [{p.elo_low:+.0f},{p.elo_high:+.0f}]"
        print(f"{pa.describe():<34} {r.a_mean_depth:7.2f} {r.b_mean_depth:7.2f} "
              f"{r.a_mean_nodes / r.b_mean_nodes:9.2f} {elo:>20} "
              f"{sp.state + f' LLR {sp.llr:+.2f}':>22} {wall:7.0f}")
        print(f"    pairs {p.counts} (A's points 0..2), score {p.score:.3f}, "
              f"LLR bounds [{sp.lower:.2f}, {sp.upper:.2f}]")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

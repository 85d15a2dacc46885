"""Reference versus compiled search with chance nodes and with three or more players: nodes per
second, every game of the two family engines in one run.

    .venv/bin/python benchmarks/chance_multiplayer_kernels.py

The chance engine (searchlab/algorithms/chance_compiled.py, one numba search specialised per
game) on ChanceTree(b=3, n=3, d=5, seed=1), Pig (winscore 20, static order, depth 8) and the
dice race (length 8, 10 random plies, seed 1, static order, depth 4); the n-player engine
(searchlab/algorithms/multiplayer_compiled.py) on NPlayerTree(3, b=4, d=8, seed=1,
constant-sum), Rolit (3 players, 20 random plies, seed 1, depth 5) and Harvest (3 players,
piles 3 4 5, depth 6). Per game, first the seconds of one warm-up search (a compile in a fresh
cache, a load from numba's on-disk cache afterwards), then per algorithm the nodes, the seconds
of the reference and of the compiled search and their ratio measured in this one run. The
counts of both engines are asserted equal.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from searchlab.algorithms.chance_search import search_chance  # noqa: E402
from searchlab.algorithms.multiplayer import search_multiplayer  # noqa: E402
from searchlab.games.dice_race import DiceRace  # noqa: E402
from searchlab.games.harvest import Harvest  # noqa: E402
from searchlab.games.pig import Pig  # noqa: E402
from searchlab.games.rolit import Rolit  # noqa: E402
from searchlab.trees.chance_tree import ChanceTree  # noqa: E402
from searchlab.trees.nplayer_tree import NPlayerTree  # noqa: E402


def _line(name: str, alg: str, ref, t_ref: float, com, t_com: float) -> str:
    assert com.counts() == ref.counts()
    return (f"{name:12s} {alg:16s} nodes {ref.nodes:>9,}  reference {t_ref:7.2f} s ({ref.nodes / t_ref:>10,.0f} "
            f"nodes/s)  compiled {t_com:7.3f} s ({com.nodes / t_com:>12,.0f} nodes/s)  ratio {t_ref / t_com:6.0f}x")


def _timed(fn):
    t0 = time.perf_counter()
    r = fn()
    return r, time.perf_counter() - t0


def _chance(name: str, game, engine: str, warm: dict, **kw) -> None:
    _, t = _timed(lambda: search_chance(game, "star2", engine=engine, **{**kw, **warm}))
    print(f"{name}: warm-up search (compile or cache load) {t:.1f} s")
    for alg in ("expectiminimax", "star1", "star2"):
        ref, t_ref = _timed(lambda: search_chance(game, alg, engine="reference", **kw))
        com, t_com = _timed(lambda: search_chance(game, alg, engine=engine, **kw))
        print(_line(name, alg, ref, t_ref, com, t_com))


def _multi(name: str, game, engine: str, warm: dict, **kw) -> None:
    _, t = _timed(lambda: search_multiplayer(game, "brs", engine=engine, **{**kw, **warm}))
    print(f"{name}: warm-up search (compile or cache load) {t:.1f} s")
    for alg in ("maxn", "maxn-shallow", "paranoid", "brs"):
        ref, t_ref = _timed(lambda: search_multiplayer(game, alg, engine="reference", **kw))
        com, t_com = _timed(lambda: search_multiplayer(game, alg, engine=engine, **kw))
        print(_line(name, alg, ref, t_ref, com, t_com))


def main() -> None:
    _chance("ChanceTree", ChanceTree(3, 3, 5, seed=1), "kernel", {})
    _chance("Pig", Pig(winscore=20), "compiled", {"depth": 1}, ordering="static", depth=8)
    _chance("DiceRace", DiceRace(length=8).random_root(10, 1), "compiled", {"depth": 1}, ordering="static",
            depth=4)
    _multi("NPlayerTree", NPlayerTree(3, 4, 8, seed=1, values="constsum"), "kernel", {})
    _multi("Rolit", Rolit.random(3, 20, 1), "compiled", {"depth": 1}, depth=5)
    _multi("Harvest", Harvest(3, (3, 4, 5)), "compiled", {"depth": 1}, depth=6)


if __name__ == "__main__":
    main()

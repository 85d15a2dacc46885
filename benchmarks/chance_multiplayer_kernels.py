"""Reference versus compiled search with chance nodes and with three players: nodes per second.

    .venv/bin/python benchmarks/chance_multiplayer_kernels.py

Prints, per algorithm, the nodes of one search of ChanceTree(b=3, n=3, d=5, seed=1), of
NPlayerTree(3, b=4, d=8, seed=1, constant-sum) and of Rolit (3 players, 20 random plies, seed 1,
depth 5; the compiled engine of searchlab/algorithms/multiplayer_compiled.py) and of Pig
(winscore 20, static order, depth 8; searchlab/algorithms/chance_compiled.py), the seconds of
the reference and of the compiled search (after warm-up searches that compile the kernels or
load them from numba's disk cache, timed on the first lines), and their ratio measured in this
one run. The counts of both engines are asserted equal.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from searchlab.algorithms.chance import search_chance  # noqa: E402
from searchlab.algorithms.multiplayer import search_multiplayer  # noqa: E402
from searchlab.games.pig import Pig  # noqa: E402
from searchlab.games.rolit import Rolit  # noqa: E402
from searchlab.trees.chance import ChanceTree  # noqa: E402
from searchlab.trees.nplayer import NPlayerTree  # noqa: E402


def _line(alg: str, ref, t_ref: float, ker, t_ker: float) -> str:
    assert ker.counts() == ref.counts()
    return (f"{alg:16s} nodes {ref.nodes:>9,}  reference {t_ref:7.2f} s ({ref.nodes / t_ref:>10,.0f} nodes/s)  "
            f"kernel {t_ker:7.3f} s ({ker.nodes / t_ker:>12,.0f} nodes/s)  ratio {t_ref / t_ker:6.0f}x")


def _timed(fn):
    t0 = time.perf_counter()
    r = fn()
    return r, time.perf_counter() - t0


def main() -> None:
    _, t = _timed(lambda: search_chance(ChanceTree(2, 2, 1), "star2", engine="kernel"))
    print(f"chance kernel compile (one warm-up search): {t:.1f} s")
    _, t = _timed(lambda: search_multiplayer(NPlayerTree(3, 2, 2, values="constsum"), "brs", engine="kernel"))
    print(f"n-player kernel compile (one warm-up search): {t:.1f} s")
    rolit = Rolit.random(3, 20, 1)
    _, t = _timed(lambda: search_multiplayer(rolit, "brs", depth=1, engine="compiled"))
    print(f"Rolit compiled engine compile (one warm-up search): {t:.1f} s")
    tree = ChanceTree(3, 3, 5, seed=1)
    for alg in ("expectiminimax", "star1", "star2"):
        ref, t_ref = _timed(lambda: search_chance(tree, alg, engine="reference"))
        ker, t_ker = _timed(lambda: search_chance(tree, alg, engine="kernel"))
        print(_line(alg, ref, t_ref, ker, t_ker))
    pig = Pig(winscore=20)
    _, t = _timed(lambda: search_chance(pig, "star2", depth=1, engine="compiled"))
    print(f"Pig compiled engine compile (one warm-up search): {t:.1f} s")
    for alg in ("expectiminimax", "star1", "star2"):
        ref, t_ref = _timed(lambda: search_chance(pig, alg, "static", depth=8, engine="reference"))
        com, t_com = _timed(lambda: search_chance(pig, alg, "static", depth=8, engine="compiled"))
        print("Pig   " + _line(alg, ref, t_ref, com, t_com))
    multi = NPlayerTree(3, 4, 8, seed=1, values="constsum")
    for alg in ("maxn", "maxn-shallow", "paranoid", "brs"):
        ref, t_ref = _timed(lambda: search_multiplayer(multi, alg, engine="reference"))
        ker, t_ker = _timed(lambda: search_multiplayer(multi, alg, engine="kernel"))
        print(_line(alg, ref, t_ref, ker, t_ker))
    for alg in ("maxn", "maxn-shallow", "paranoid", "brs"):
        ref, t_ref = _timed(lambda: search_multiplayer(rolit, alg, depth=5, engine="reference"))
        com, t_com = _timed(lambda: search_multiplayer(rolit, alg, depth=5, engine="compiled"))
        print("Rolit " + _line(alg, ref, t_ref, com, t_com))


if __name__ == "__main__":
    main()

"""Studies of search with chance nodes (claims 003-i, 003-c, 003-j).

- ``growth_table`` / ``fit_growth``: leaves (and nodes) of expectiminimax, alpha-beta without
  Star pruning, Star1 and Star2 versus the number of decision plies d on synthetic chance
  trees, over b, n and the tightness of the bounds [L, U] (``spread`` = (U - L) / (value
  range); leaf values lie in [0, 1), the bounds are centred on it); the growth per decision ply
  fitted with the project's estimator (estimators.fit_with_ci), also as an exponent
  alpha = log(growth) / log(b·n) (1 = the full tree, expectiminimax's O((b·n)^d)).
- ``relabel_experiment``: over many random chance trees, how often an order-preserving
  relabelling of the leaves changes expectiminimax's move, and that a positive affine map never
  does; minimax on deterministic trees of the same values as the control.
- ``ludo``: the background's example through the engine.

Every function takes plain values and one seed; randomness comes from numpy Generators seeded
from it. Values are exact in the relabelling experiment: probabilities and maps are dyadic or
integral, so every sum is computed without rounding and a change of move is never an artefact.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable

import numpy as np
import pandas as pd
from scipy import stats

from searchlab.analysis import estimators as E
from searchlab.algorithms.api import search
from searchlab.algorithms.chance import search_chance
from searchlab.trees.chance import ChanceTree, ExplicitChanceTree, ludo_example
from searchlab.trees.iid import IIDTree

GROWTH_ALGORITHMS = ("expectiminimax", "alphabeta-emm", "star1", "star2")


def growth_table(bs: Iterable[int], ns: Iterable[int], ds: Iterable[int], spreads: Iterable[float],
                 instances: int, seed: int = 0, max_leaves: int = 10**5,
                 algorithms: Iterable[str] = GROWTH_ALGORITHMS) -> pd.DataFrame:
    """One row per (b, n, spread, d, instance, algorithm): nodes, leaves, chance_nodes, value.
    Instance k uses tree seed ``seed * 1000 + k``; values in [0, 1) (continuous); depths whose
    full tree has more than ``max_leaves`` leaves are skipped. Searched by the compiled kernel
    (engine "auto"; the same counts as the reference, tests/algorithms/test_chance_kernel.py)."""
    rows = []
    for b in bs:
        for n in ns:
            for d in (d for d in ds if (b * n) ** d <= max_leaves):
                for k in range(instances):
                    tree = ChanceTree(b, n, d, seed=seed * 1000 + k)
                    for s in spreads:
                        half = (float(s) - 1.0) / 2.0
                        for alg in algorithms:
                            if s != 1.0 and alg in ("expectiminimax", "alphabeta-emm"):
                                continue          # bounds do not matter to them
                            r = search_chance(tree, alg, bounds=(-half, 1.0 + half), engine="auto")
                            rows.append(dict(b=b, n=n, d=d, spread=float(s), instance=k, algorithm=alg,
                                             nodes=r.nodes, leaves=r.leaves, chance_nodes=r.chance_nodes,
                                             value=r.value))
    return pd.DataFrame(rows)


@dataclass(frozen=True)
class GrowthFit:
    b: int
    n: int
    spread: float
    algorithm: str
    growth: float            # count (leaves or nodes) per decision ply, fitted
    lo: float                # 95 % bootstrap CI
    hi: float
    alpha: float             # log(growth) / log(b·n)
    alpha_lo: float
    alpha_hi: float
    d_min: int
    d_max: int
    instances: int


def fit_growth(df: pd.DataFrame, seed: int = 0, resamples: int = 999,
               count: str = "leaves") -> list[GrowthFit]:
    """Growth per decision ply of ``count`` ("leaves", default: expectiminimax's are exactly
    (b·n)^d, or "nodes") per (b, n, spread, algorithm): estimators.fit_with_ci (least squares
    of log mean count on d with a parity term, CI by bootstrapping instances), alpha against
    b·n."""
    out = []
    for (b, n, s, alg), g in df.groupby(["b", "n", "spread", "algorithm"]):
        ds, _, mat = E.count_matrix(g, count)
        if len(ds) < 2:
            continue
        be, al, _ = E.fit_with_ci(ds, mat, b * n, n_resamples=resamples, seed=seed)
        out.append(GrowthFit(int(b), int(n), float(s), alg, be.value, be.low, be.high, al.value, al.low,
                             al.high, int(ds.min()), int(ds.max()), mat.shape[0]))
    return out


def growth_frame(fits: list[GrowthFit]) -> pd.DataFrame:
    return pd.DataFrame([f.__dict__ for f in fits])


# --------------------------------------------------------------------------- 003-c

class Relabelled:
    """A game whose leaf values pass through ``f`` (the rest delegates to ``game``)."""

    def __init__(self, game: Any, f: Callable[[float], float], bounds: tuple[float, float] | None = None):
        self._game, self._f = game, f
        if bounds is not None:
            self.value_bounds = bounds

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def utility(self, state: Any) -> float:
        return self._f(self._game.utility(state))


RELABEL = {0.0: 1.0, 1.0: 20.0, 2.0: 30.0, 3.0: 400.0}      # background/003's map on values 1..4


def relabel_experiment(trials: int, b: int = 3, n: int = 2, d: int = 2, seed: int = 0,
                       probs: tuple[float, ...] | None = None) -> dict[str, Any]:
    """On ``trials`` random chance trees ChanceTree(b, n, d, levels=4, low=0, high=3) (leaf
    values 0..3 standing for the background's 1..4) count the trees whose expectiminimax move
    changes under (a) the background's map 1→1, 2→20, 3→30, 4→400, (b) a random strictly
    increasing integer map, (c) a random positive affine map (dyadic slope and offset); and
    the same for minimax on i.i.d. trees with values 0..3 (b, 2d plies).

    A move *changes* when no move is optimal both before and after (the sets of optimal root
    moves, exact, are disjoint). Returns counts and 95 % Clopper-Pearson CIs."""
    rng = np.random.default_rng(seed)
    kinds = ("background map", "random increasing map", "positive affine map")
    changed = {("expectiminimax", k): 0 for k in kinds} | {("minimax", k): 0 for k in kinds}
    for t in range(trials):
        inc = np.sort(rng.choice(np.arange(1, 1001), size=4, replace=False)).astype(float)
        a, c = float(rng.choice([0.25, 0.5, 2.0, 3.0, 8.0])), float(rng.integers(-50, 50)) / 4
        maps = {"background map": RELABEL.__getitem__,
                "random increasing map": lambda v, inc=inc: float(inc[int(v)]),
                "positive affine map": lambda v, a=a, c=c: a * v + c}
        tree = ChanceTree(b, n, d, seed=seed * 100000 + t, levels=4, low=0.0, high=3.0, probs=probs)
        base = set(search_chance(tree, "expectiminimax").best_moves)
        det = IIDTree(b, 2 * d, seed=seed * 100000 + t, levels=4)
        dbase = set(search(det, "minimax", engine="reference").best_moves)
        for k, f in maps.items():
            lo, hi = sorted((f(0.0), f(3.0)))
            r = search_chance(Relabelled(tree, f, (lo, hi)), "expectiminimax")
            changed[("expectiminimax", k)] += not (base & set(r.best_moves))
            m = search(Relabelled(det, f), "minimax", engine="reference")
            changed[("minimax", k)] += not (dbase & set(m.best_moves))
    rows = []
    for (alg, k), c in changed.items():
        ci = stats.binomtest(c, trials).proportion_ci(confidence_level=0.95, method="exact")
        rows.append(dict(algorithm=alg, relabelling=k, trials=trials, changed=c, share=c / trials,
                         lo=float(ci.low), hi=float(ci.high)))
    return dict(b=b, n=n, d=d, seed=seed, probs=probs or "uniform", table=pd.DataFrame(rows))


def ludo() -> dict[str, Any]:
    """The Ludo example through the engine: each move's value, the best move, and the nodes."""
    g = ludo_example()
    r = search_chance(g, "expectiminimax")
    values = {}
    for m, name in enumerate(g.move_names):
        values[name] = search_chance(ExplicitChanceTree(("max", [g.spec[1][m]])), "expectiminimax").value
    return dict(values=values, best=g.move_names[r.best_move], value=r.value, nodes=r.nodes,
                leaves=r.leaves, chance_nodes=r.chance_nodes)

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
- ``order_tree_rows`` / ``order_pig_rows`` / ``order_ratios`` / ``order_fits``: Star1 and Star2
  against expectiminimax under several move orderings (natural, random, static where the game
  has static values, perfect by exact value): on synthetic chance trees over d and on sampled
  Pig positions (``pig_position``: explicit seeds from the study seed); node ratios with
  paired bootstrap CIs over trees / positions (analysis.stats.paired_ratio), and every search
  checked to return expectiminimax's value.
- ``chance_steps(size, seed)`` / ``summarise(tables, size, seed)``: the whole study (SIZES) as steps
  whose rows form the tables ``growth``, ``relabel``, ``pig``, ``ludo`` (studies/claim_study/claim_steps.py),
  and its results from those tables: run in-process by studies/chance/chance_verdicts.py, or as the engine's
  preset ``searchlab experiment=chance`` (studies/claim_study/claim_study.py).

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
from searchlab.analysis.stats import paired_ratio
from searchlab.algorithms.search_api import search
from searchlab.algorithms.chance_search import search_chance
from searchlab.studies.claim_study.claim_steps import Step
from searchlab.games.pig import Pig, PigState
from searchlab.trees.chance_tree import ChanceTree, ExplicitChanceTree, ludo_example
from searchlab.trees.iid import IIDTree

GROWTH_ALGORITHMS = ("expectiminimax", "alphabeta-emm", "star1", "star2")


def growth_rows(b: int, n: int, d: int, instance: int, spreads: Iterable[float], seed: int = 0,
                algorithms: Iterable[str] = GROWTH_ALGORITHMS) -> list[dict]:
    """The rows of one tree of growth_table: ChanceTree(b, n, d, seed=seed*1000+instance)
    searched by every algorithm at every spread."""
    rows = []
    tree = ChanceTree(b, n, d, seed=seed * 1000 + instance)
    for s in spreads:
        half = (float(s) - 1.0) / 2.0
        for alg in algorithms:
            if s != 1.0 and alg in ("expectiminimax", "alphabeta-emm"):
                continue          # bounds do not matter to them
            r = search_chance(tree, alg, bounds=(-half, 1.0 + half), engine="auto")
            rows.append(dict(b=b, n=n, d=d, spread=float(s), instance=instance, algorithm=alg,
                             nodes=r.nodes, leaves=r.leaves, chance_nodes=r.chance_nodes, value=r.value))
    return rows


def growth_points(bs: Iterable[int], ns: Iterable[int], ds: Iterable[int], instances: int,
                  max_leaves: int) -> list[tuple[int, int, int, int]]:
    """The (b, n, d, instance) trees of growth_table: depths whose full tree has more than
    ``max_leaves`` leaves are skipped."""
    return [(b, n, d, k) for b in bs for n in ns for d in ds if (b * n) ** d <= max_leaves
            for k in range(instances)]


def growth_table(bs: Iterable[int], ns: Iterable[int], ds: Iterable[int], spreads: Iterable[float],
                 instances: int, seed: int = 0, max_leaves: int = 10**5,
                 algorithms: Iterable[str] = GROWTH_ALGORITHMS) -> pd.DataFrame:
    """One row per (b, n, spread, d, instance, algorithm): nodes, leaves, chance_nodes, value.
    Instance k uses tree seed ``seed * 1000 + k``; values in [0, 1) (continuous); depths whose
    full tree has more than ``max_leaves`` leaves are skipped. Searched by the compiled kernel
    (engine "auto"; the same counts as the reference, tests/algorithms/test_chance_kernel.py)."""
    spreads = tuple(spreads)
    return pd.DataFrame([r for b, n, d, k in growth_points(bs, ns, ds, instances, max_leaves)
                         for r in growth_rows(b, n, d, k, spreads, seed, algorithms)])


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


RELABEL = {0.0: 1.0, 1.0: 20.0, 2.0: 30.0, 3.0: 400.0}      # note 003's map on values 1..4 (claim 003-c)


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


# --------------------------------------------------------------------------- 003-i: orderings

#: orderings of the ordering study: the synthetic trees have no static values; on them natural
#: order is itself a random order (i.i.d. leaves), "random" a second, independent one
TREE_ORDERINGS = ("natural", "random", "perfect")
PIG_ORDERINGS = ("natural", "random", "static", "perfect")
STAR = ("star1", "star2")
#: below this many trees / positions a ratio's CI is not used for a verdict ("not shown")
MIN_UNITS = 20


def _order_rows(game: Any, orderings: Iterable[str], depth: int | None, order_seed: int,
                ident: dict) -> list[dict]:
    """Star1 and Star2 under each ordering against expectiminimax (its nodes, the same under
    every ordering): one row per (ordering, algorithm) with ``emm_nodes`` and ``same_value``
    (the search returned expectiminimax's value exactly)."""
    emm = search_chance(game, "expectiminimax", depth=depth, engine="auto")
    rows = []
    for o in orderings:
        for alg in STAR:
            r = search_chance(game, alg, o, depth=depth, engine="auto", order_seed=order_seed)
            rows.append(dict(ident, ordering=o, algorithm=alg, nodes=r.nodes, leaves=r.leaves,
                             emm_nodes=emm.nodes, emm_leaves=emm.leaves,
                             same_value=int(r.value == emm.value)))
    return rows


def order_tree_rows(b: int, n: int, d: int, instance: int, seed: int = 0) -> list[dict]:
    """One synthetic tree ChanceTree(b, n, d, seed=seed*1000+instance) (growth_table's trees),
    bounds [0, 1]: Star1 and Star2 under TREE_ORDERINGS (random: order_seed = the tree's
    seed) against expectiminimax."""
    ts = seed * 1000 + instance
    return _order_rows(ChanceTree(b, n, d, seed=ts), TREE_ORDERINGS, None, ts,
                       dict(domain="tree", b=b, n=n, d=d, instance=instance, position=f"seed {ts}"))


def pig_position(k: int, seed: int, winscore: int = 20) -> PigState:
    """Pig position k of the study: a decision node with scores, mover and turn total drawn
    from numpy's default_rng(seed * 1000 + k): each score uniform in [0, winscore - 1], the
    turn total uniform in [0, winscore - 1 - the mover's score] (so rolling is legal)."""
    rng = np.random.default_rng(seed * 1000 + k)
    s0, s1 = (int(x) for x in rng.integers(0, winscore, size=2))
    mover = int(rng.integers(0, 2))
    tt = int(rng.integers(0, winscore - (s0, s1)[mover]))
    return PigState((s0, s1), tt, mover, False, 0)


def order_pig_rows(k: int, depth: int, seed: int = 0) -> list[dict]:
    """Pig position ``pig_position(k, seed)`` (winscore 20) at ``depth`` decision plies: Star1
    and Star2 under PIG_ORDERINGS (random: order_seed = seed * 1000 + k) against
    expectiminimax."""
    st = pig_position(k, seed)
    return _order_rows(Pig(winscore=PIG_WINSCORE, root=st), PIG_ORDERINGS, depth, seed * 1000 + k,
                       dict(domain="pig", b=2, n=6, d=depth, instance=k,
                            position=f"scores {st.scores[0]}-{st.scores[1]}, turn total "
                                     f"{st.turn_total}, player {st.mover} to move"))


def order_ratios(df: pd.DataFrame, seed: int = 0, resamples: int = 999) -> pd.DataFrame:
    """Per (domain, b, n, d, ordering, algorithm): n (trees or positions), the ratio of mean
    nodes to expectiminimax's mean nodes with a 95 % paired bootstrap CI over the units
    (analysis.stats.paired_ratio; nan for n < 2), the same for leaves, and how many searches
    returned expectiminimax's value."""
    out = []
    for (dom, b, n, d, o, alg), g in df.groupby(["domain", "b", "n", "d", "ordering", "algorithm"], sort=True):
        g = g.sort_values("instance")
        row = dict(domain=dom, b=int(b), n=int(n), d=int(d), ordering=o, algorithm=alg, units=len(g),
                   same_value=int(g["same_value"].sum()))
        for count, base in (("nodes", "emm_nodes"), ("leaves", "emm_leaves")):
            a, e = g[count].to_numpy(float), g[base].to_numpy(float)
            if len(g) >= 2 and np.ptp(a / e) > 0:
                est = paired_ratio(a, e, n_resamples=resamples, seed=seed)
                row.update({f"{count}_ratio": est.value, f"{count}_lo": est.low, f"{count}_hi": est.high})
            else:
                v = float(a.sum() / e.sum())
                lo = v if len(g) >= 2 else float("nan")
                row.update({f"{count}_ratio": v, f"{count}_lo": lo, f"{count}_hi": lo})
        out.append(row)
    return pd.DataFrame(out)


def order_fits(df: pd.DataFrame, seed: int = 0, resamples: int = 999) -> pd.DataFrame:
    """Growth of Star1's and Star2's nodes per decision ply on the synthetic trees, per
    ordering: fit_growth's fit (CI by bootstrapping trees) with an ``ordering`` column."""
    trees = df[df["domain"] == "tree"]
    frames = []
    for o, g in trees.groupby("ordering", sort=True):
        f = growth_frame(fit_growth(g.assign(spread=1.0), seed=seed, resamples=resamples, count="nodes"))
        frames.append(f.assign(ordering=o))
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


# --------------------------------------------------------------------------- the study as steps

#: (bs, ns, decision depths, trees per point, max leaves, relabelling trials, Pig depths) by size
SIZES = {
    "full": ((2, 3), (2, 3, 6), range(1, 8), 10, 20000, 2000, (2, 4, 6, 8)),
    "small": ((2, 3), (2, 3), range(1, 5), 5, 3000, 300, (2, 4)),
    "tiny": ((2,), (2,), range(1, 4), 3, 100, 40, (2,)),
}
SPREADS = (1.0, 2.0, 4.0)
KINDS = ("growth", "relabel", "pig", "ludo", "orders")
#: the ordering study by size: (max leaves of a tree, trees per (b, n, d), Pig positions,
#: Pig depths); the trees' b and n are SIZES' and d runs over SIZES' depths
ORDER_SIZES = {
    "full": (8000, 30, 24, (4, 5)),
    "small": (600, 8, 8, (3, 4)),
    "tiny": (40, 3, 3, (2,)),
}
PIG_WINSCORE = 20


def relabel_rows(variant: str, trials: int, seed: int, n: int = 2, d: int = 2,
                 probs: tuple[float, ...] | None = None) -> list[dict]:
    """relabel_experiment's table as rows tagged with ``variant`` and their position."""
    t = relabel_experiment(trials, n=n, d=d, seed=seed, probs=probs)["table"]
    return [dict(r, variant=variant, position=i) for i, r in enumerate(t.to_dict("records"))]


def pig_rows(depth: int) -> list[dict]:
    """Nodes of expectiminimax, Star1 and Star2 on Pig (winscore 20, static order) at ``depth``
    decision plies, and the value (the same for all three). The compiled engine searches
    (engine "auto": algorithms/chance_compiled.py, the reference's counts)."""
    row: dict[str, Any] = {"depth": depth}
    for alg in ("expectiminimax", "star1", "star2"):
        r = search_chance(Pig(winscore=PIG_WINSCORE), alg, "static", depth=depth, engine="auto")
        row[alg] = r.nodes
        row["value"] = r.value
    return [row]


def ludo_rows() -> list[dict]:
    """``ludo()`` as one row per move."""
    lu = ludo()
    return [dict(move=m, move_value=v, best=lu["best"], value=lu["value"], nodes=lu["nodes"],
                 leaves=lu["leaves"], chance_nodes=lu["chance_nodes"]) for m, v in lu["values"].items()]


def chance_steps(size: str = "full", seed: int = 15) -> list[Step]:
    """The chance-node study at ``size`` (SIZES, ORDER_SIZES) as steps: one per growth tree,
    the two relabelling experiments, one per Pig depth, the Ludo example, one per tree and per
    (Pig position, depth) of the ordering study (n <= 3 outcomes)."""
    bs, ns, ds, inst, maxl, trials, pig_depths = SIZES[size]
    steps = [Step("growth", (b, n, d, k), growth_rows, dict(b=b, n=n, d=d, instance=k, spreads=SPREADS,
                                                           seed=seed), (b * n) ** d)
             for b, n, d, k in growth_points(bs, ns, ds, inst, maxl)]
    steps.append(Step("relabel", ("uniform",), relabel_rows,
                      dict(variant="uniform", trials=trials, seed=seed), 100 * trials))
    steps.append(Step("relabel", ("dyadic",), relabel_rows,
                      dict(variant="dyadic", trials=trials // 2, seed=seed + 1, probs=(0.75, 0.25)), 50 * trials))
    steps += [Step("pig", (depth,), pig_rows, dict(depth=depth), 10 ** depth) for depth in pig_depths]
    steps.append(Step("ludo", (), ludo_rows, {}))
    omax, otrees, opos, odepths = ORDER_SIZES[size]
    steps += [Step("orders", ("tree", b, n, d, k), order_tree_rows, dict(b=b, n=n, d=d, instance=k, seed=seed),
                   4 * (b * n) ** d)
              for b, n, d, k in growth_points(bs, tuple(x for x in ns if x <= 3), ds, otrees, omax)]
    steps += [Step("orders", ("pig", k, depth), order_pig_rows, dict(k=k, depth=depth, seed=seed), 8 * 6 ** depth)
              for depth in odepths for k in range(opos)]
    return steps


def summarise(tables: dict[str, pd.DataFrame], size: str, seed: int = 15) -> dict[str, Any]:
    """The study's results from its tables (any row order): growth fits (leaves and nodes),
    both relabelling tables, the Ludo example, Pig; what studies/chance/chance_verdicts.py's verdicts read."""
    growth = tables["growth"]
    rel = tables["relabel"].sort_values(["variant", "position"])
    cols = ["algorithm", "relabelling", "trials", "changed", "share", "lo", "hi"]
    lu = tables["ludo"]
    pig = tables["pig"].sort_values("depth")
    orders = tables["orders"]
    return dict(
        size=size, seed=seed, instances=SIZES[size][3],
        growth=growth_frame(fit_growth(growth, seed=seed)),
        node_growth=growth_frame(fit_growth(growth, seed=seed, count="nodes")),
        relabel=dict(table=rel[rel["variant"] == "uniform"][cols].reset_index(drop=True)),
        relabel_dyadic=dict(table=rel[rel["variant"] == "dyadic"][cols].reset_index(drop=True)),
        ludo=dict(values=dict(zip(lu["move"], (float(v) for v in lu["move_value"]))), best=lu["best"].iloc[0],
                  value=float(lu["value"].iloc[0]), nodes=int(lu["nodes"].iloc[0]),
                  leaves=int(lu["leaves"].iloc[0]), chance_nodes=int(lu["chance_nodes"].iloc[0])),
        pig=[{"depth": int(r.depth), "expectiminimax": int(r.expectiminimax), "value": float(r.value),
              "star1": int(r.star1), "star2": int(r.star2)} for r in pig.itertuples()],
        orders=order_ratios(orders, seed=seed), order_growth=order_fits(orders, seed=seed),
        order_sizes=dict(zip(("max_leaves", "trees", "pig_positions", "pig_depths"), ORDER_SIZES[size])),
        rows=len(growth))

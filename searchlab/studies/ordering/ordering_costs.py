"""Cost accounting for move-ordering policies: what a policy spends besides the nodes it visits.

A node count hides work: static ordering evaluates every child of every interior node it
orders, a transposition table is probed at every node, aspiration windows and PVS search some
nodes again, and "perfect" order needs an exact-value oracle (a full minimax pass). Here every
policy is run on the reference engine over a game wrapped in ``CountingGame``, which counts
every static evaluation (``evaluate`` and ``utility`` calls: the leaves, the ordering's
evaluations, the oracle's), and reported with:

- nodes (all iterative-deepening iterations), leaves, evaluations, ordering evaluations
  (evaluations - leaves), TT probes, re-searches;
- **cost** = nodes + ordering evaluations (a node and a static evaluation one unit each; TT
  probes and re-searches are shown, not priced: re-searched nodes are already in ``nodes``);
- per policy, cost / natural order's cost as a paired ratio over the same trees (bootstrap CI,
  searchlab.analysis.stats.paired_ratio) and a paired t-test of log(cost ratio) = 0 whose
  p-values are Holm-adjusted over the policies of a domain.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import stats as sst

from searchlab import data
from searchlab.algorithms.search_api import search
from searchlab.games.connect4 import ConnectFour, load_benchmark
from searchlab.games.othello import Othello, random_position
from searchlab.trees import IncrementalTree

from searchlab.analysis.estimators import Estimate
from searchlab.analysis.stats import holm, paired_ratio
from searchlab.analysis.markdown_tables import md_table

__all__ = ["CountingGame", "PolicyCost", "measure_costs", "POLICIES", "study", "section",
           "COST_DEFINITION", "cost_domains", "cost_rows", "costs_from"]

POLICIES = ["natural", "static", "killer", "history", "killer+history", "id", "id+killer",
            "id+tt", "id+tt+killer+history+static", "perfect"]
COST_DEFINITION = ("cost = nodes (all ID iterations) + ordering evaluations (static evaluations "
                   "beyond the leaves: static ordering's children, the perfect order's oracle)")


class CountingGame:
    """A game (or synthetic tree) whose static evaluations are counted; everything else is
    delegated unchanged. Use it with engine="reference" (the kernels do not see the wrapper)."""

    def __init__(self, game: Any) -> None:
        self._game = game
        self.evaluations = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def evaluate(self, state: Any) -> float:
        self.evaluations += 1
        return self._game.evaluate(state)

    def utility(self, state: Any) -> float:
        self.evaluations += 1
        return self._game.utility(state)


def measure_costs(game: Any, policy: str, depth: int | None = None) -> dict[str, float]:
    """One search of ``game`` under ``policy`` (alpha-beta, reference engine): its counts."""

    g = CountingGame(game)
    r = search(g, "alphabeta", policy, depth=depth, engine="reference")
    ordering_evals = g.evaluations - r.leaves
    return dict(nodes=r.nodes, leaves=r.leaves, evaluations=g.evaluations,
                ordering_evaluations=ordering_evals, tt_probes=r.tt_probes,
                re_searches=r.re_searches, cost=r.nodes + ordering_evals, value=r.value)


@dataclass(frozen=True)
class PolicyCost:
    """Means over the domain's n trees, and cost / natural cost (paired) with its Holm-adjusted
    p-value (the hypothesis: the policy costs the same as natural order)."""

    domain: str
    policy: str
    n: int
    means: dict[str, float]
    cost_ratio: Estimate
    node_ratio: Estimate
    p_holm: float
    same_value: int
    p_raw: float = float("nan")


def _domain(label: str, trees: list, depth: int, policies: list[str], n_resamples: int) -> list[PolicyCost]:
    per = {p: [measure_costs(t, p, depth) for t in trees] for p in policies}
    return _domain_from(label, len(trees), per, policies, n_resamples)


def _domain_from(label: str, n: int, per: dict[str, list[dict]], policies: list[str],
                 n_resamples: int) -> list[PolicyCost]:
    """The PolicyCosts of one domain from each policy's measure_costs per tree (in tree order)."""
    nat = per["natural"]
    out, pvals = [], []
    for p in policies:
        cost = np.array([r["cost"] for r in per[p]], float)
        base = np.array([r["cost"] for r in nat], float)
        lr = np.log(cost / base)
        pv = 1.0 if np.ptp(lr) == 0 and lr[0] == 0 else (
            0.0 if np.ptp(lr) == 0 else float(sst.ttest_1samp(lr, 0.0).pvalue))
        pvals.append(pv)
        out.append((p, cost, base))
    adj = holm(pvals[1:]) if len(pvals) > 1 else []
    res = []
    for k, (p, cost, base) in enumerate(out):
        means = {key: float(np.mean([r[key] for r in per[p]])) for key in
                 ("nodes", "leaves", "evaluations", "ordering_evaluations", "tt_probes", "re_searches", "cost")}
        nodes = [r["nodes"] for r in per[p]]
        res.append(PolicyCost(label, p, n, means,
                              paired_ratio(cost, base, n_resamples=n_resamples),
                              paired_ratio(nodes, [r["nodes"] for r in nat], n_resamples=n_resamples),
                              float(adj[k - 1]) if k else math.nan,
                              sum(a["value"] == b["value"] for a, b in zip(per[p], nat)), pvals[k]))
    return res


#: the game domains' policies: the perfect order's oracle is out of reach in games, the
#: game's own order ({own}) takes the static order's place in the composed policy
GAME_POLICIES = ["natural", "static", "{own}", "killer", "history", "killer+history", "id",
                 "id+tt", "id+tt+killer+history+{own}"]
#: the benchmark file whose first lines are the Connect Four positions
C4_BENCHMARK = "Test_L2_R1"


def game_positions(small: bool = False) -> list[tuple[str, list, int, str]]:
    """The game domains as (label naming the exact positions, games rooted there, depth, own
    order): Connect Four, the first 8 lines of Pons' Test_L2_R1 (small: 3) at depth 6 (small: 5);
    Othello, random_position(12, seed) for seeds 0..7 (small: 0..2) at depth 4 (small: 3)."""
    n = 3 if small else 8
    lines = load_benchmark(data.path("connect4", C4_BENCHMARK))[:n]
    c4 = [ConnectFour(moves) for moves, _ in lines]
    ot = [Othello(random_position(12, s)) for s in range(n)]
    dc, do = (5, 3) if small else (6, 4)
    return [(f"Connect Four d={dc} ({C4_BENCHMARK} lines 1-{n})", c4, dc, "centre"),
            (f"Othello d={do} (random_position(12, seed) seeds 0-{n - 1})", ot, do, "corners")]


#: the incremental domains' sibling correlations
CORRELATIONS = (0.0, 0.5, 1.0)


def _incremental_size(small: bool) -> tuple[int, int, int]:
    """(n, b, d) of the incremental domains."""
    return (3, 5, 6) if small else (12, 6, 7)


def cost_domains(small: bool = False) -> list[tuple[str, int, list[str]]]:
    """(label, trees, policies) of every domain of ``study``, in its order: the incremental
    trees at each of CORRELATIONS, then the game domains of ``game_positions``."""
    n, b, d = _incremental_size(small)
    out = [(f"incremental b={b} d={d} corr {corr}", n, list(POLICIES)) for corr in CORRELATIONS]
    return out + [(label, len(games), [p.format(own=own) for p in GAME_POLICIES])
                  for label, games, _, own in game_positions(small)]


def _domain_trees(small: bool, k: int) -> tuple[list, int]:
    """The trees (or games) of domain ``k`` of cost_domains(small) and their search depth."""
    n, b, d = _incremental_size(small)
    if k < len(CORRELATIONS):
        return [IncrementalTree(b, d, s, decay=0.9, correlation=CORRELATIONS[k]) for s in range(n)], d
    _, games, depth, _ = game_positions(small)[k - len(CORRELATIONS)]
    return games, depth


def cost_rows(small: bool, domain: int, policy: str) -> list[dict]:
    """Rows of the ``policy_costs`` table: measure_costs of every tree of domain ``domain`` of
    cost_domains(small) under ``policy``, one per tree (its index in the domain)."""
    trees, depth = _domain_trees(small, domain)
    return [dict(domain=domain, policy=policy, tree=i, **{k: (float(v) if k == "value" else int(v))
                                                          for k, v in measure_costs(t, policy, depth).items()})
            for i, t in enumerate(trees)]


def costs_from(table: Any, small: bool = False, n_resamples: int = 999) -> list[PolicyCost]:
    """The PolicyCosts of every domain from the ``policy_costs`` table (a DataFrame of cost_rows'
    rows); ValueError when a (domain, policy) lacks trees."""
    out = []
    for k, (label, n, policies) in enumerate(cost_domains(small)):
        per = {}
        for p in policies:
            sub = table[(table["domain"] == k) & (table["policy"] == p)].sort_values("tree")
            if sub["tree"].tolist() != list(range(n)):
                raise ValueError(f"policy costs {label}, {p}: {len(sub)} of {n} trees (an incomplete run)")
            per[p] = [{c: (float(r[c]) if c == "value" else int(r[c])) for c in _COST_KEYS}
                      for r in sub.to_dict("records")]
        out += _domain_from(label, n, per, policies, n_resamples)
    return out


#: the counts measure_costs returns
_COST_KEYS = ("nodes", "leaves", "evaluations", "ordering_evaluations", "tt_probes", "re_searches", "cost", "value")


def study(small: bool = False, n_resamples: int = 999) -> list[PolicyCost]:
    """Incremental trees (b = 6, d = 7, decay 0.9, n = 12; small: b = 5, d = 6, n = 3) at
    sibling correlation 0, 0.5 and 1, every policy of POLICIES; then the game domains of
    ``game_positions``, every policy of GAME_POLICIES (reference engine: the evaluations are
    counted through CountingGame); in this process (the engine runs ``cost_rows`` as tasks:
    studies.rigor.rigor_study)."""

    n, b, d = _incremental_size(small)
    out = []
    for corr in CORRELATIONS:
        trees = [IncrementalTree(b, d, s, decay=0.9, correlation=corr) for s in range(n)]
        out += _domain(f"incremental b={b} d={d} corr {corr}", trees, d, POLICIES, n_resamples)
    for label, games, depth, own in game_positions(small):
        pols = [p.format(own=own) for p in GAME_POLICIES]
        out += _domain(label, games, depth, pols, n_resamples)
    return out


def section(costs: list[PolicyCost]) -> str:

    parts = [f"Every policy on the reference engine with its static evaluations counted; {COST_DEFINITION}. "
             "Ratios are paired over the same trees or positions (95 % bootstrap CI); p: paired t-test of log(cost "
             "ratio) = 0 against natural order, Holm-adjusted over the policies of the domain."]
    for dom in dict.fromkeys(c.domain for c in costs):
        rows = []
        for c in (x for x in costs if x.domain == dom):
            m = c.means
            rows.append([c.policy, f"{m['nodes']:,.0f}", f"{m['leaves']:,.0f}", f"{m['ordering_evaluations']:,.0f}",
                         f"{m['tt_probes']:,.0f}", f"{m['re_searches']:,.1f}", f"{m['cost']:,.0f}",
                         c.node_ratio.fmt(3), c.cost_ratio.fmt(3),
                         "n/a" if math.isnan(c.p_holm) else f"{c.p_holm:.3g}", f"{c.same_value}/{c.n}"])
        n = next(c.n for c in costs if c.domain == dom)
        parts.append(f"### {dom} (n = {n} {'trees' if dom.startswith('incremental') else 'positions'})\n\n" + md_table(
            ["policy", "nodes", "leaves", "ordering evaluations", "TT probes", "re-searches", "cost",
             "nodes / natural", "cost / natural", "p (Holm)", "same value"], rows))
    return "\n\n".join(parts)


def best_by_cost(costs: list[PolicyCost], domain: str, exclude: tuple[str, ...] = ("perfect",)
                 ) -> PolicyCost:
    """The policy of ``domain`` with the lowest mean cost (the oracle excluded)."""
    cands = [c for c in costs if c.domain == domain and c.policy not in exclude]
    return min(cands, key=lambda c: c.means["cost"])

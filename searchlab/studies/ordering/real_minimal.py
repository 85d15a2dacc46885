"""Real-game node counts against each position's own minimal tree, policy by policy.

``real_minimal(positions, depth, policies, pruning=...)`` searches every position (a Game rooted
at it: ``Chess(fen)``, ``FromState(game, state)``) with every ordering policy (search(...,
"alphabeta", policy, pruning=pruning)) and computes the position's minimal tree
(searchlab.algorithms.minimal_tree) under *that policy's* settings (policy_settings: a
transposition table when the policy has ``tt``, the same quiescence), at every depth 1..depth.
It returns

- ``table``: one row per position, policy and depth: ``nodes`` and ``q_nodes`` (the policy's
  SearchResult; with ``id`` every iteration counted, ``last_nodes`` the last one's),
  ``minimal_nodes`` / ``minimal_q_nodes`` (the minimal tree's), ``ratio`` = nodes /
  minimal_nodes (the search's own count, quiescence apart, on both sides), ``tt``, ``status``;
- ``summary``: per policy at ``depth``, the geometric mean of the ratios over positions with a
  paired bootstrap CI (searchlab.analysis.stats.paired_ratio, percentile/BCa over positions),
  and ``alpha``: the policy's growth exponent measured against the minimal tree's, from the
  depths at which every policy finished on every position (``fit_depths``): b_eff of a policy
  and of its minimal tree are exp(slope) of least-squares lines of log(geometric-mean nodes) on
  depth with an odd/even intercept, and alpha = log b_eff(policy) / (2 log b_eff(minimal)),
  1/2 when the policy grows as its minimal tree does (which grows as b^(d/2)).

A ratio below 1 is possible: the minimal tree is the *perfectly ordered* search, ties broken in
natural order, and where values tie another best child can have a smaller subtree
(searchlab.algorithms.proof_tree gives the smallest over all orders, without a table); with a
table, an order that steers into transpositions (or iterative deepening's earlier iterations
filling the table) can cut more. ``id`` policies' nodes include every iteration.
Searches over ``max_nodes`` are "aborted": their rows have no ratio and their depths leave the
fit; the summary counts them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np
import pandas as pd

from searchlab.algorithms.search_api import DEFAULT_TT_SIZE, search
from searchlab.algorithms.minimal_tree import minimal_tree, policy_settings
from searchlab.algorithms.pruning import Pruning
from searchlab.analysis.stats import paired_ratio
from searchlab.errors import InvalidParameterError
from searchlab.limits import excerpt


@dataclass(frozen=True)
class RealMinimal:
    """The tidy table and the per-policy summary (the module docstring)."""

    table: pd.DataFrame
    summary: pd.DataFrame
    fit_depths: tuple[int, ...]


def real_minimal(positions: Sequence[Any], depth: int, policies: Sequence[str], *,
                 pruning: Pruning | None = None, tt_size: int = DEFAULT_TT_SIZE,
                 names: Sequence[str] | None = None, max_nodes: int | None = None,
                 min_depth: int = 1, n_resamples: int = 999, seed: int = 0) -> RealMinimal:
    """Policies' nodes over each position's own minimal tree at depths ``min_depth``..``depth``
    (the module docstring). ``names`` label the positions (default their index). Raises
    InvalidParameterError for no positions or policies, a depth below ``min_depth`` or names of
    another length; UnsupportedError (policy_settings) for pruning beyond quiescence; what
    search() raises for a bad policy."""
    positions, policies = list(positions), list(policies)
    if not positions or not policies:
        raise InvalidParameterError("positions and policies must each hold at least one entry")
    if isinstance(min_depth, bool) or not isinstance(min_depth, int) or min_depth < 1:
        raise InvalidParameterError(f"min_depth must be an integer >= 1; got {excerpt(min_depth)}")
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < min_depth:
        raise InvalidParameterError(f"depth must be an integer >= min_depth ({min_depth}); "
                                    f"got {excerpt(depth)}")
    names = [str(i) for i in range(len(positions))] if names is None else list(names)
    if len(names) != len(positions):
        raise InvalidParameterError(f"names must have one entry per position ({len(positions)}); "
                                    f"got {len(names)}")
    settings = {p: policy_settings(positions[0], p, pruning) for p in policies}
    rows = []
    for name, game in zip(names, positions):
        for d in range(min_depth, depth + 1):
            minimal: dict[bool, Any] = {}
            for p in policies:
                s = settings[p]
                if s["tt"] not in minimal:
                    minimal[s["tt"]] = minimal_tree(game, d, tt=s["tt"], tt_size=tt_size,
                                                    quiescence=s["quiescence"])
                m = minimal[s["tt"]]
                r = search(game, "alphabeta", p, depth=d, pruning=pruning, tt_size=tt_size,
                           max_nodes=max_nodes)
                ok = r.status == "ok"
                rows.append({"position": name, "policy": p, "depth": d, "status": r.status,
                             "nodes": r.nodes, "last_nodes": r.iterations[-1],
                             "q_nodes": r.q_nodes, "minimal_nodes": m.nodes,
                             "minimal_q_nodes": m.q_nodes, "tt": s["tt"],
                             "ratio": r.nodes / m.nodes if ok else math.nan})
    table = pd.DataFrame(rows)
    complete = table.groupby("depth")["status"].apply(lambda s: bool((s == "ok").all()))
    fit_depths = tuple(int(d) for d, ok in complete.items() if ok)
    summary = pd.DataFrame([_summary(table, p, depth, fit_depths, n_resamples, seed)
                            for p in policies])
    return RealMinimal(table=table, summary=summary, fit_depths=fit_depths)


def _summary(table: pd.DataFrame, policy: str, depth: int, fit_depths: tuple[int, ...],
             n_resamples: int, seed: int) -> dict:
    at = table[(table.policy == policy) & (table.depth == depth)]
    ok = at[at.status == "ok"]
    out = {"policy": policy, "depth": depth, "positions": len(at), "aborted": len(at) - len(ok),
           "tt": bool(at.tt.iloc[0]), "gmean_ratio": math.nan, "ci_low": math.nan,
           "ci_high": math.nan, "beff": math.nan, "beff_minimal": math.nan, "alpha": math.nan,
           "fit_depths": ",".join(map(str, fit_depths))}
    if len(ok):
        est = paired_ratio(ok.nodes.to_numpy(float), ok.minimal_nodes.to_numpy(float),
                           kind="geometric", n_resamples=n_resamples, seed=seed)
        out.update(gmean_ratio=est.value, ci_low=est.low, ci_high=est.high)
    if len(fit_depths) >= 2:
        sub = table[(table.policy == policy) & table.depth.isin(fit_depths)]
        g = sub.groupby("depth")[["nodes", "minimal_nodes"]].agg(
            lambda x: float(np.exp(np.log(x.to_numpy(float)).mean())))
        d = g.index.to_numpy(float)
        bp, bm = _beff(d, g.nodes.to_numpy()), _beff(d, g.minimal_nodes.to_numpy())
        out.update(beff=bp, beff_minimal=bm,
                   alpha=math.log(bp) / (2 * math.log(bm)) if bm > 1 else math.nan)
    return out


def _beff(d: np.ndarray, n: np.ndarray) -> float:
    """exp(slope) of log n on d, with an odd/even intercept where both parities and three
    depths are present."""
    parity = (d % 2 == 1).astype(float)
    cols = [np.ones_like(d), d]
    if 0 < parity.sum() < len(d) and len(d) >= 3:
        cols.append(parity)
    coef, *_ = np.linalg.lstsq(np.column_stack(cols), np.log(n), rcond=None)
    return float(math.exp(coef[1]))

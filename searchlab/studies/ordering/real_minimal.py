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
  the summary gives the same ratio and alpha on *work* = nodes + q_nodes (both sides; the
  convention of studies/ordering/chess_deep.py) as ``work_*``, and the quiescence share of work
  (``q_share``, ``q_share_minimal``);
- ``summary``: per policy at ``depth``, the geometric mean of the ratios over positions with a
  paired bootstrap CI (searchlab.analysis.stats.paired_ratio, percentile/BCa over positions),
  and ``alpha``: the policy's growth exponent measured against the minimal tree's, from the
  depths at which every policy finished on every position (``fit_depths``): b_eff of a policy
  and of its minimal tree are exp(slope) of least-squares lines of log(geometric-mean nodes) on
  depth with an odd/even intercept, and alpha = log b_eff(policy) / (2 log b_eff(minimal)),
  1/2 when the policy grows as its minimal tree does (which grows as b^(d/2)), with a
  percentile bootstrap CI over positions (``alpha_low``, ``alpha_high``: positions resampled,
  both fits redone).

``position_rows`` (one position's rows) and ``summarise`` (a table's summary) are the two
halves, so that a study can run positions as separate tasks (studies/ordering/minimal_trees_study.py).

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
from searchlab.analysis.estimators import bootstrap_ci
from searchlab.analysis.stats import paired_ratio
from searchlab.errors import InvalidParameterError
from searchlab.limits import excerpt


@dataclass(frozen=True)
class RealMinimal:
    """The tidy table and the per-policy summary (the module docstring)."""

    table: pd.DataFrame
    summary: pd.DataFrame
    fit_depths: tuple[int, ...]
    #: one policy's summary row at each depth d, alpha from the fit depths up to d (the
    #: minimal-trees study's judged chess policy; None when not computed)
    by_depth: pd.DataFrame | None = None


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
    rows = []
    for name, game in zip(names, positions):
        rows += position_rows(game, name, range(min_depth, depth + 1), policies, pruning=pruning,
                              tt_size=tt_size, max_nodes=max_nodes)
    return summarise(pd.DataFrame(rows), policies, depth, n_resamples=n_resamples, seed=seed)


def position_rows(game: Any, name: str, depths: Sequence[int], policies: Sequence[str], *,
                  pruning: Pruning | None = None, tt_size: int = DEFAULT_TT_SIZE,
                  max_nodes: int | None = None) -> list[dict]:
    """The table's rows of one position (a Game rooted at it, labelled ``name``): every policy
    at every depth of ``depths``, each beside the minimal tree under that policy's table and
    quiescence settings (computed once per setting and depth). ``max_nodes`` caps every search,
    the minimal tree's too (SearchAborted when the minimal tree or one of its exact-value
    searches is over it)."""
    settings = {p: policy_settings(game, p, pruning) for p in policies}
    rows = []
    for d in depths:
        minimal: dict[bool, Any] = {}
        for p in policies:
            s = settings[p]
            if s["tt"] not in minimal:
                # the policies' node cap bounds the minimal tree and its oracle too
                minimal[s["tt"]] = minimal_tree(game, d, tt=s["tt"], tt_size=tt_size,
                                                quiescence=s["quiescence"], max_nodes=max_nodes)
            m = minimal[s["tt"]]
            r = search(game, "alphabeta", p, depth=d, pruning=pruning, tt_size=tt_size,
                       max_nodes=max_nodes)
            ok = r.status == "ok"
            rows.append({"position": str(name), "policy": p, "depth": int(d), "status": r.status,
                         "nodes": int(r.nodes), "last_nodes": int(r.iterations[-1]),
                         "q_nodes": int(r.q_nodes), "minimal_nodes": int(m.nodes),
                         "minimal_q_nodes": int(m.q_nodes), "tt": bool(s["tt"]),
                         "ratio": r.nodes / m.nodes if ok else math.nan})
    return rows


def summarise(table: pd.DataFrame, policies: Sequence[str], depth: int, *, n_resamples: int = 999,
              seed: int = 0) -> RealMinimal:
    """The per-policy summary of a table of ``position_rows`` (one game): the ratio at
    ``depth`` and alpha from the depths at which every policy finished on every position
    (a function of the table only)."""
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
           "alpha_low": math.nan, "alpha_high": math.nan,
           "fit_depths": ",".join(map(str, fit_depths))}
    # the same on work = nodes + quiescence nodes (both sides): the report's one convention
    # (chess_deep's), the nodes-only figures beside it; q_share: quiescence nodes / work
    out.update({f"work_{k}": math.nan for k in ("ratio", "ci_low", "ci_high", "alpha", "alpha_low",
                                                 "alpha_high", "beff", "beff_minimal")},
               q_share=math.nan, q_share_minimal=math.nan)
    if len(ok):
        est = paired_ratio(ok.nodes.to_numpy(float), ok.minimal_nodes.to_numpy(float),
                           kind="geometric", n_resamples=n_resamples, seed=seed)
        out.update(gmean_ratio=est.value, ci_low=est.low, ci_high=est.high)
        work, mwork = _work(ok), _work(ok, "minimal_")
        est = paired_ratio(work, mwork, kind="geometric", n_resamples=n_resamples, seed=seed)
        out.update(work_ratio=est.value, work_ci_low=est.low, work_ci_high=est.high,
                   q_share=float(ok.q_nodes.sum() / work.sum()),
                   q_share_minimal=float(ok.minimal_q_nodes.sum() / mwork.sum()))
    if len(fit_depths) >= 2:
        sub = table[(table.policy == policy) & table.depth.isin(fit_depths)].assign(
            work=lambda t: _work(t), minimal_work=lambda t: _work(t, "minimal_"))
        d = np.asarray(fit_depths, dtype=float)
        for prefix, pcol, mcol in (("", "nodes", "minimal_nodes"), ("work_", "work", "minimal_work")):
            # log counts [position, depth] of the policy and of its minimal trees
            lp = np.log(sub.pivot(index="position", columns="depth", values=pcol).to_numpy(float))
            lm = np.log(sub.pivot(index="position", columns="depth", values=mcol).to_numpy(float))

            def alpha(idx: np.ndarray, lp=lp, lm=lm) -> float:
                bm = _beff(d, np.exp(lm[idx].mean(axis=0)))
                bp = _beff(d, np.exp(lp[idx].mean(axis=0)))
                return math.log(bp) / (2 * math.log(bm)) if bm > 1 else math.nan

            idx = np.arange(len(lp))
            est = bootstrap_ci(len(lp), alpha, n_resamples=n_resamples, seed=seed,
                               method="percentile")
            out.update({f"{prefix}beff": _beff(d, np.exp(lp.mean(axis=0))),
                        f"{prefix}beff_minimal": _beff(d, np.exp(lm.mean(axis=0))),
                        f"{prefix}alpha": alpha(idx), f"{prefix}alpha_low": est.low,
                        f"{prefix}alpha_high": est.high})
    return out


def _work(t: pd.DataFrame, prefix: str = "") -> np.ndarray:
    """nodes + quiescence nodes (chess_deep's work) of the policy (prefix "") or of its minimal
    tree ("minimal_"), per row."""
    return t[f"{prefix}nodes"].to_numpy(float) + t[f"{prefix}q_nodes"].to_numpy(float)


def _beff(d: np.ndarray, n: np.ndarray) -> float:
    """exp(slope) of log n on d, with an odd/even intercept where both parities and three
    depths are present."""
    parity = (d % 2 == 1).astype(float)
    cols = [np.ones_like(d), d]
    if 0 < parity.sum() < len(d) and len(d) >= 3:
        cols.append(parity)
    coef, *_ = np.linalg.lstsq(np.column_stack(cols), np.log(n), rcond=None)
    return float(math.exp(coef[1]))

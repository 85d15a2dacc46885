"""The shallow ordering measurements of ordering_checks.py as a study of the engine
(``searchlab experiment=ordering_checks``, the claim-study family ``ordering_checks``).

Every unit of ``ordering_checks()`` is one step of the engine's runner, its rows in one table:

- ``ordering_search``: one position or tree under every policy of its domain (incremental trees
  at three correlations, Connect Four, Othello, chess): nodes, leaves, last iteration's nodes,
  fail-high-first rate, cutoffs, table hit rate, value, and the root's branching;
- ``ordering_aspiration``: one incremental tree under id+tt with each aspiration width;
- ``ordering_table``: tic-tac-toe's whole tree with and without a table, and each tree of the
  value-only table demonstration (ordering_checks.tt_mistake_demo's rows);
- ``ordering_quiescence``: one WAC position's swing between depths with and without quiescence.

``summarise`` rebuilds ordering_checks()'s dictionary from the tables (units in their order,
so every mean is summed in the same order and the numbers are identical); ``ordering_checks()``
is these steps run in one process.
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np
import pandas as pd

from searchlab import data as shipped
from searchlab.algorithms import drivers, reference
from searchlab.algorithms.calibration import sample_states
from searchlab.algorithms.context import SearchContext
from searchlab.algorithms.ordering import make_ordering
from searchlab.algorithms.pruning import Pruning, Quiescence
from searchlab.algorithms.search_api import search
from searchlab.algorithms.tt import TranspositionTable
from searchlab.games.chess_game import Chess
from searchlab.games.connect4 import ConnectFour
from searchlab.games.epd import load_epd
from searchlab.games.othello import Othello, random_position
from searchlab.games.tictactoe import TicTacToe
from searchlab.analysis.stats import paired_ratio
from searchlab.studies.claim_study.claim_steps import Step
from searchlab.trees import IncrementalTree

__all__ = ["KINDS", "SIZES", "POLICIES_TREE", "POLICIES_C4", "POLICIES_OTHELLO", "POLICIES_CHESS",
           "policy_counts", "aggregate", "quiescence_swing", "quiescence_swings", "tt_mistake_wrong",
           "ordering_steps", "summarise"]

KINDS = ("ordering_search", "ordering_aspiration", "ordering_table", "ordering_quiescence")
#: size -> incremental trees (n, b, d), Connect Four (positions, depth), Othello (positions,
#: depth), chess (WAC positions, depth), quiescence positions, value-only table trees
SIZES = {
    "full": dict(tree=(12, 6, 7), connect4=(16, 6), othello=(10, 4), chess=(8, 3), quiescence=30, tt_mistake=20),
    "small": dict(tree=(3, 5, 6), connect4=(8, 5), othello=(4, 3), chess=(3, 2), quiescence=3, tt_mistake=6),
}
CORRELATIONS = (0.0, 0.5, 1.0)
ASPIRATION = (None, 0.05, 0.3)
_METRICS = ("nodes", "leaves", "last", "fhf", "cutoffs", "tt_hit")


POLICIES_TREE = ["natural", "static", "killer", "history", "killer+history", "id", "id+killer",
                 "id+tt+killer+history+static", "perfect"]


POLICIES_C4 = ["natural", "centre", "static", "killer", "history", "tt", "id", "id+tt",
               "id+tt+killer+centre", "perfect"]


POLICIES_OTHELLO = ["natural", "corners", "static", "killer", "history", "id+tt", "id+tt+killer+corners",
                    "perfect"]


POLICIES_CHESS = ["natural", "captures", "killer+captures", "id+tt+killer+history+captures"]


def policy_counts(game, policies, depth, **kw) -> dict[str, dict[str, float]]:
    """Search one position under each policy; returns policy -> counts."""
    out = {}
    for p in policies:
        r = search(game, "alphabeta", p, depth=depth, **kw)
        out[p] = dict(nodes=r.nodes, leaves=r.leaves, last=r.last_iteration_nodes,
                      value=r.value, fhf=r.fail_high_first_rate if r.fail_high_first_rate is not None else math.nan,
                      cutoffs=r.cutoffs, tt_hit=r.tt_hit_rate if r.tt_hit_rate is not None else math.nan,
                      move=r.best_move)
    return out


def aggregate(per_position: list[dict], policies: list[str]) -> dict[str, dict[str, float]]:
    agg = {}
    for p in policies:
        rows = [pp[p] for pp in per_position]
        agg[p] = {k: float(np.nanmean([r[k] for r in rows])) if not all(
            isinstance(r[k], float) and math.isnan(r[k]) for r in rows) else math.nan
            for k in ("nodes", "leaves", "last", "fhf", "cutoffs", "tt_hit")}
        agg[p]["n"] = len(rows)
        agg[p]["same_value"] = sum(pp[p]["value"] == pp["natural"]["value"] for pp in per_position)
    return agg



def quiescence_swing(pos: Any, depth: int) -> dict[str, tuple[float, bool]]:
    """001-m's measurement on one EPD position: name -> (|value(depth) − value(depth − 1)|
    (centipawns, alpha-beta, captures first), whether the depth-``depth`` move is the suite's
    best move), without ("plain") and with quiescence (Quiescence(max_depth=6))."""
    q = Pruning(quiescence=Quiescence(max_depth=6))
    g = Chess(pos.fen)
    out = {}
    for name, pr in (("plain", None), ("quiescence", q)):
        v1 = search(g, "alphabeta", "captures", depth=depth - 1, pruning=pr).value
        r2 = search(g, "alphabeta", "captures", depth=depth, pruning=pr)
        out[name] = (float(abs(r2.value - v1)), bool(pos.is_solution(r2.best_move)))
    return out


class _ValueOnlyTable(TranspositionTable):
    """The classic mistake: a table that answers with any stored value, whatever its depth
    and bound type."""

    def probe(self, key, depth, alpha, beta):
        self.probes += 1
        e = self.entry(key)
        if e is None:
            return None
        self.hits += 1
        self.cutoffs += 1
        return e.value


def tt_mistake_wrong(seed: int) -> dict[str, bool]:
    """What goes wrong with a table that keeps only values (no depth, no bound type), on one
    incremental tree (b 4, d 6, seed ``seed``): the same iterative-deepening search with the
    right table and with the naive one; name -> whether its value differs from plain
    alpha-beta's exact value."""
    t = IncrementalTree(4, 6, seed, decay=1.0, correlation=0.3)
    exact = search(t, "alphabeta").value
    wrong = {}
    for name, table in (("right", TranspositionTable()), ("value-only", _ValueOnlyTable())):
        ctx = SearchContext(game=t, depth=6, child=reference.alphabeta, tt=table)
        order = make_ordering("id+tt", t, 6, table=table)
        ctx.order, ctx.on_cut = order.order, order.on_cut
        wrong[name] = drivers.iterative_deepening(t.initial_state(), ctx, "alphabeta", 6) != exact
    return wrong


def quiescence_swings(positions: list, depth: int) -> dict[str, Any]:
    """001-m's measurement over EPD positions (quiescence_swing on each): the per-position
    swings, their medians and means, the solved counts and n."""
    swings: dict[str, list[float]] = {"plain": [], "quiescence": []}
    solved = {"plain": 0, "quiescence": 0}
    for pos in positions:
        for name, (swing, ok) in quiescence_swing(pos, depth).items():
            swings[name].append(swing)
            solved[name] += ok
    return dict(depth=depth, n=len(positions), swings=swings,
                swing={k: float(np.median(v)) for k, v in swings.items()},
                swing_mean={k: float(np.mean(v)) for k, v in swings.items()},
                solved=solved)


def _policies() -> dict[str, list[str]]:
    return {"tree": POLICIES_TREE, "connect4": POLICIES_C4, "othello": POLICIES_OTHELLO, "chess": POLICIES_CHESS}


def _game(domain: str, unit: int, size: str) -> tuple[Any, int, float]:
    """(the game or tree of one unit, its search depth, its root's branching)."""
    s = SIZES[size]
    if domain.startswith("tree"):
        n, b, d = s["tree"]
        corr = float(domain.split(" ")[1])
        return IncrementalTree(b, d, unit, decay=0.9, correlation=corr), d, math.nan
    if domain == "connect4":
        c4 = ConnectFour()
        states = [x for x in sample_states(c4, ply=10, n=s["connect4"][0], seed=11) if not c4.is_terminal(x)]
        return ConnectFour(states[unit]), s["connect4"][1], float(len(list(c4.legal_moves(states[unit]))))
    if domain == "othello":
        st = random_position(20, unit)
        return Othello(st), s["othello"][1], float(len(list(Othello().legal_moves(st))))
    pos = load_epd(shipped.path("chess", "wac.epd"))[unit]
    g = Chess(pos.fen)
    return g, s["chess"][1], float(len(list(Chess().legal_moves(g.initial_state()))))


def search_rows(domain: str, unit: int, size: str) -> list[dict]:
    """One unit under every policy of its domain (policy_counts)."""
    game, depth, branching = _game(domain, unit, size)
    key = "tree" if domain.startswith("tree") else domain
    c0 = time.process_time()
    per = policy_counts(game, _policies()[key], depth)
    secs = time.process_time() - c0
    return [dict(domain=domain, unit=unit, policy=p, value=math.nan if r["value"] is None else float(r["value"]),
                 branching=branching, cpu_seconds=secs, **{k: float(r[k]) for k in _METRICS})
            for p, r in per.items()]


def aspiration_rows(unit: int, size: str) -> list[dict]:
    """One incremental tree (correlation 0.5) under id+tt with each aspiration width."""
    n, b, d = SIZES[size]["tree"]
    out = []
    for delta in ASPIRATION:
        r = search(IncrementalTree(b, d, unit, decay=0.9, correlation=0.5), "alphabeta", "id+tt",
                   aspiration=delta)
        out.append(dict(unit=unit, width="none" if delta is None else str(delta), nodes=int(r.nodes),
                        cutoffs=int(r.cutoffs), re_searches=int(r.re_searches)))
    return out


def table_rows(unit: int, size: str) -> list[dict]:
    """unit -1: tic-tac-toe's whole tree, natural and with a table; unit >= 0: one tree of the
    value-only table demonstration (1 when the table's answer was wrong)."""
    if unit < 0:
        return [dict(unit=unit, name=p, count=int(search(TicTacToe(), "alphabeta", p).nodes))
                for p in ("natural", "tt")]
    return [dict(unit=unit, name=name, count=int(w)) for name, w in tt_mistake_wrong(unit).items()]


def quiescence_rows(unit: int, size: str) -> list[dict]:
    """One WAC position's swing with and without quiescence (ordering_checks.quiescence_swing)."""
    pos = load_epd(shipped.path("chess", "wac.epd"))[unit]
    return [dict(unit=unit, name=name, swing=swing, solved=int(solved))
            for name, (swing, solved) in quiescence_swing(pos, SIZES[size]["chess"][1]).items()]


def ordering_steps(size: str = "full", seed: int = 0) -> list[Step]:
    """Every unit as a step (``seed`` unused: the units are the fixed positions and tree seeds
    ordering_checks() has always used)."""
    s = SIZES[size]
    steps = []
    for corr in CORRELATIONS:
        steps += [Step("ordering_search", (f"tree {corr}", i), search_rows,
                       dict(domain=f"tree {corr}", unit=i, size=size)) for i in range(s["tree"][0])]
    steps += [Step("ordering_aspiration", (i,), aspiration_rows, dict(unit=i, size=size)) for i in range(s["tree"][0])]
    c4 = ConnectFour()
    n_c4 = sum(not c4.is_terminal(x) for x in sample_states(c4, ply=10, n=s["connect4"][0], seed=11))
    for domain, n in (("connect4", n_c4), ("othello", s["othello"][0]), ("chess", s["chess"][0])):
        steps += [Step("ordering_search", (domain, i), search_rows, dict(domain=domain, unit=i, size=size))
                  for i in range(n)]
    steps += [Step("ordering_table", (i,), table_rows, dict(unit=i, size=size)) for i in range(-1, s["tt_mistake"])]
    steps += [Step("ordering_quiescence", (i,), quiescence_rows, dict(unit=i, size=size))
              for i in range(s["quiescence"])]
    return steps


def _aggregate(t: pd.DataFrame, policies: list[str]) -> dict[str, dict[str, float]]:
    """``aggregate`` over a domain's rows (units in order)."""
    per = []
    for _, g in t.sort_values("unit").groupby("unit", sort=True):
        per.append({r.policy: {**{k: getattr(r, k) for k in _METRICS},
                               "value": None if math.isnan(r.value) else r.value} for r in g.itertuples()})
    return aggregate(per, policies)


def tree_ratio_cis(t: pd.DataFrame, policies: list[str]) -> dict[float, dict[str, Any]]:
    """Per correlation of the incremental trees: each policy's nodes over natural order's as a
    paired ratio of means over the same trees with a 95 % bootstrap CI (stats.paired_ratio,
    seeded by the correlation); the incremental rows of 000-l."""
    out = {}
    for c in CORRELATIONS:
        tc = t[t.domain == f"tree {c}"].pivot(index="unit", columns="policy", values="nodes").sort_index()
        if tc.empty:
            continue
        out[c] = {p: paired_ratio(tc[p].to_numpy(float), tc["natural"].to_numpy(float), seed=int(round(100 * c)))
                  for p in policies if p != "natural" and p in tc.columns}
    return out


def summarise(tables: dict[str, pd.DataFrame], size: str = "full", seed: int = 0) -> dict[str, Any]:
    """ordering_checks()'s dictionary from the tables ("seconds": the searches' CPU seconds)."""
    s = SIZES[size]
    pol = _policies()
    t = tables["ordering_search"]
    n, b, d = s["tree"]
    by_corr = {c: _aggregate(t[t.domain == f"tree {c}"], pol["tree"]) for c in CORRELATIONS}
    a = tables["ordering_aspiration"].sort_values("unit")
    asp = {}
    for delta in ASPIRATION:
        w = a[a.width == ("none" if delta is None else str(delta))]
        asp["none" if delta is None else delta] = dict(nodes=float(np.mean(w.nodes)), cutoffs=float(np.mean(w.cutoffs)),
                                                       re_searches=float(np.mean(w.re_searches)))
    ratio_ci = tree_ratio_cis(t, pol["tree"])
    out: dict[str, Any] = {"small": size == "small",
                           "tree": dict(b=b, d=d, n=n, decay=0.9, by_corr=by_corr, aspiration=asp,
                                        ratio_ci=ratio_ci)}

    def game(domain: str, depth: int) -> dict:
        g = t[t.domain == domain]
        units = g.drop_duplicates("unit").sort_values("unit")
        return dict(depth=depth, n=len(units), b_bar=float(np.mean(units.branching.to_numpy())),
                    agg=_aggregate(g, pol[domain]))

    out["connect4"] = game("connect4", s["connect4"][1])
    tb = tables["ordering_table"]
    out["tictactoe"] = {r.name: int(r.count) for r in tb[tb.unit < 0].itertuples()}
    demo = tb[tb.unit >= 0]
    out["tt_mistake"] = dict(n=int(demo.unit.nunique()),
                             wrong={k: int(demo[demo.name == k]["count"].sum()) for k in ("right", "value-only")})
    out["othello"] = game("othello", s["othello"][1])
    ch = game("chess", s["chess"][1])
    out["chess"] = dict(depth=ch["depth"], n=ch["n"], b_bar=ch["b_bar"], agg=ch["agg"])
    q = tables["ordering_quiescence"].sort_values("unit")
    swings = {k: [float(x) for x in q[q.name == k].swing] for k in ("plain", "quiescence")}
    out["quiescence"] = dict(depth=s["chess"][1], n=int(q.unit.nunique()), swings=swings,
                             swing={k: float(np.median(v)) for k, v in swings.items()},
                             swing_mean={k: float(np.mean(v)) for k, v in swings.items()},
                             solved={k: int(q[q.name == k].solved.sum()) for k in ("plain", "quiescence")})
    out["seconds"] = float(t.drop_duplicates(["domain", "unit"]).cpu_seconds.sum())
    return out

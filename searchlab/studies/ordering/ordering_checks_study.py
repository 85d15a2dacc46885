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
from searchlab.algorithms.calibration import sample_states
from searchlab.algorithms.search_api import search
from searchlab.games.chess_game import Chess
from searchlab.games.connect4 import ConnectFour
from searchlab.games.epd import load_epd
from searchlab.games.othello import Othello, random_position
from searchlab.games.tictactoe import TicTacToe
from searchlab.studies.claim_study.claim_steps import Step
from searchlab.trees import IncrementalTree

__all__ = ["KINDS", "SIZES", "ordering_steps", "summarise"]

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


def _policies() -> dict[str, list[str]]:
    # imported here: ordering_checks imports this module for its in-process run
    from searchlab.studies.ordering import ordering_checks as OC
    return {"tree": OC.POLICIES_TREE, "connect4": OC.POLICIES_C4, "othello": OC.POLICIES_OTHELLO,
            "chess": OC.POLICIES_CHESS}


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
    """One unit under every policy of its domain (ordering_checks._run's counts)."""
    from searchlab.studies.ordering import ordering_checks as OC
    game, depth, branching = _game(domain, unit, size)
    key = "tree" if domain.startswith("tree") else domain
    c0 = time.process_time()
    per = OC._run(game, _policies()[key], depth)
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
    from searchlab.studies.ordering import ordering_checks as OC
    if unit < 0:
        return [dict(unit=unit, name=p, count=int(search(TicTacToe(), "alphabeta", p).nodes))
                for p in ("natural", "tt")]
    return [dict(unit=unit, name=name, count=int(w)) for name, w in OC.tt_mistake_wrong(unit).items()]


def quiescence_rows(unit: int, size: str) -> list[dict]:
    """One WAC position's swing with and without quiescence (ordering_checks.quiescence_swing)."""
    from searchlab.studies.ordering import ordering_checks as OC
    pos = load_epd(shipped.path("chess", "wac.epd"))[unit]
    return [dict(unit=unit, name=name, swing=swing, solved=int(solved))
            for name, (swing, solved) in OC.quiescence_swing(pos, SIZES[size]["chess"][1]).items()]


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
    """ordering_checks._aggregate over a domain's rows (units in order)."""
    from searchlab.studies.ordering import ordering_checks as OC
    per = []
    for _, g in t.sort_values("unit").groupby("unit", sort=True):
        per.append({r.policy: {**{k: getattr(r, k) for k in _METRICS},
                               "value": None if math.isnan(r.value) else r.value} for r in g.itertuples()})
    return OC._aggregate(per, policies)


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
    out: dict[str, Any] = {"small": size == "small",
                           "tree": dict(b=b, d=d, n=n, decay=0.9, by_corr=by_corr, aspiration=asp)}

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

"""searchlab.claims.chess_deep: solved share by depth and by node budget (aborted searches
unsolved, restarts summed for policies without id, censoring), paired ratios, the minimal-tree
comparison and the verdict, on a hand-made table whose answers are known."""

from __future__ import annotations

import pandas as pd
import pytest

from searchlab.claims import chess_deep as CD
from searchlab.claims.verdict import Context


def _row(pos, policy, d, work, ok=True, solved=False, horizon=None, b=4.0):
    per_ply = [1] * d + [horizon if horizon is not None else 4 ** d]
    return dict(game="chess", positions="wac", position=pos, ordering=policy, d=d,
                nodes=work, q_nodes=0, status="ok" if ok else "aborted",
                solved=(solved if ok else None), per_ply=per_ply, branching=b, wall_seconds=0.1)


def _table() -> pd.DataFrame:
    rows = []
    for pos in ("A", "B", "C"):
        # natural: depth 1 then 2; 100 + 300 nodes; solves only at depth 2 on A
        rows += [_row(pos, "natural", 1, 100), _row(pos, "natural", 2, 300, solved=pos == "A")]
        # id+...: the row counts every iteration; depth 3 aborted on C
        best = "id+tt+killer+history+captures"
        rows += [_row(pos, best, 1, 50, solved=True, horizon=4),
                 _row(pos, best, 2, 150, solved=True, horizon=7),
                 _row(pos, best, 3, 250, ok=pos != "C", solved=True, horizon=20)]
        rows += [_row(pos, "captures", d, 40 * d, solved=pos != "B") for d in (1, 2)]
    return pd.DataFrame(rows)


def test_solved_share_by_depth_and_budget():
    df = CD._frame(_table())
    bd = CD.solved_by_depth(df).set_index(["ordering", "d"])
    assert bd.loc[("natural", 2), "solved"] == 1 and bd.loc[("natural", 1), "solved"] == 0
    best = "id+tt+killer+history+captures"
    assert bd.loc[(best, 3), "aborted"] == 1 and bd.loc[(best, 3), "solved"] == 2
    bb = CD.solved_by_budget(df, budgets=(200, 400, 1000)).set_index(["ordering", "budget"])
    # natural restarts: depth 2 costs 100 + 300 = 400
    assert bb.loc[("natural", 200), "mean_depth"] == 1 and bb.loc[("natural", 200), "solved"] == 0
    assert bb.loc[("natural", 400), "mean_depth"] == 2 and bb.loc[("natural", 400), "solved"] == 1
    assert bb.loc[("natural", 400), "censored"] == 3      # its deepest run fit: might go deeper
    # id: the depth-3 row (250) already counts every iteration; C's aborted row never fits
    assert bb.loc[(best, 200), "mean_depth"] == 2
    assert bb.loc[(best, 1000), "mean_depth"] == pytest.approx(8 / 3)
    assert bb.loc[(best, 1000), "censored"] == 2


def test_measure_section_and_verdicts():
    d = CD.measure(_table(), n_resamples=99)
    assert d["aborted"] == 1 and d["n"] == {"wac": 3}
    (cap,) = [r for r in d["captures"] if r["b"] == "natural"]
    assert cap["d"] == 2 and cap["ratio"] == pytest.approx(80 / 300)    # the same on every position
    # minimal tree at d=3, b=4: 4^2 + 4 - 1 = 19 leaves; horizon 20 on A and B
    m3 = [m for m in d["minimal"] if m["d"] == 3][0]
    assert m3["n"] == 2 and m3["ratio"] == pytest.approx(20 / 19)
    # alpha over 1 -> 3: ln(20 / 4) / (2 ln 4)
    assert m3["alpha"] == pytest.approx(0.5805, abs=1e-3)
    text = CD.section(d)
    assert "Solved share by depth, wac" in text and "captures / natural" in text
    ctx = Context(df=pd.DataFrame(), summary=pd.DataFrame(), exact={"chess_deep": d})
    v = CD.close_to_minimal_tree(ctx)
    assert v.category in ("holds", "not shown at this power", "does not hold")
    assert "growth exponent" in v.measured

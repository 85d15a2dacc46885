"""Claim 002-b gets a verdict computed from the parallel study's rows (the task bodies of
experiment=parallel), and its section."""

from __future__ import annotations

import pandas as pd
import pytest

from searchlab.studies.parallel import parallel_verdicts as PC
from searchlab.studies.claims import registry as C
from searchlab.studies.claims.verdict import Context
from searchlab.parallel import ALGORITHMS, Costs
from searchlab.studies.parallel.parallel_tasks import game_rows, tree_rows


def _tree(table, model, b, d, op, ps):
    return [dict(r, table=table) for seed in range(2)
            for r in tree_rows(model, b, d, seed, op, tuple(ALGORITHMS), ps, Costs(), 2, 12)]


@pytest.fixture(scope="module")
def data():
    rows = (_tree("speedup", "ordered", 4, 6, 0.9, (1, 2, 4, 8, 16))
            + _tree("speedup", "iid", 4, 5, None, (1, 2, 4, 8, 16))
            + [r for op in (0.25, 0.5, 1.0) for r in _tree("ordering", "ordered", 4, 6, op, (4, 16))]
            + [r for d in (4, 6) for r in _tree("depth", "ordered", 4, d, 0.9, (16,))]
            + [dict(r, table="games") for o in ("centre", "centre+tt+killer+history")
               for r in game_rows("connect4", 0, 0, 5, o, tuple(ALGORITHMS), (1, 2, 4),
                                  Costs(), 2, 12, 0)])
    return PC.summarise(pd.DataFrame(rows), 0.0, command="searchlab experiment=test")


def _verdict(data):
    ctx = Context(df=pd.DataFrame(), summary=pd.DataFrame(), exact={"parallel": data})
    return dict((c.ids, v) for c, v in C.evaluate_all(ctx))[("002-b",)]


def test_verdict_from_the_simulations(data):
    v = _verdict(data)
    assert v.category in ("holds", "holds only under conditions", "does not hold")
    assert "p=16" in v.measured and "ybwc" in v.measured.lower()
    assert v.command == "searchlab experiment=test"
    assert "games: connect4 depth 5, p = 4" in v.measured


def test_verdict_follows_the_efficiency(data):
    fast = dict(data)
    s = data["speedup"].copy()
    s["speedup"] = s["p"] * 0.9                   # near-ideal: never below 50 % efficiency
    s["efficiency"] = 0.9
    fast["speedup"] = s
    assert _verdict(fast).category == "does not hold"
    slow = dict(data)
    s = data["speedup"].copy()
    s["speedup"] = 1.5                             # 37.5 % efficiency already at p = 4
    s["efficiency"] = 1.5 / s["p"]
    slow["speedup"] = s
    assert _verdict(slow).category == "holds"


def test_without_simulations_the_verdict_says_so():
    ctx = Context(df=pd.DataFrame(), summary=pd.DataFrame(), exact={})
    assert PC.parallel_verdict(ctx).category == "no data"


def test_section(data, tmp_path):
    ok, n = data["same_value"]
    # trees: seeds x algorithms x (trees x p); games: 2 algorithms need tt (one policy lacks it)
    assert ok == n == 2 * 4 * (2 * 5 + 3 * 2 + 2 * 1) + 3 * (2 + 4)
    text = PC.parallel_section(data, tmp_path)
    assert f"{n:,} of the {n:,} simulated searches" in text
    for f in ("parallel_speedup_ordered_d6.png", "parallel_speedup_iid_d5.png",
              "parallel_overhead_p16.png", "parallel_speedup_connect4_d5.png",
              "parallel_policies_connect4_d5.png"):
        assert (tmp_path / f).exists(), f
    for line in text.splitlines():
        if line.startswith("|"):
            assert "| |" not in line and ("n/a" not in line or "needs tt" in line)


def test_section_figures_in_the_format_asked_with_cis_and_linked_as_written(data, tmp_path, monkeypatch):
    """Every figure of the section is written as the format asked and linked by that name; the
    overhead and policy figures carry the CI of the mean over trees or positions, and the
    policies (categories) are points, not a line joining unrelated policies."""
    import matplotlib.pyplot as plt
    from matplotlib.container import ErrorbarContainer

    from searchlab.studies.parallel import parallel_tasks as PS
    text = PC.parallel_section(data, tmp_path, "svg")
    linked = [ln.split("](figures/")[1].split(")")[0] for ln in text.split("![")[1:]]
    assert linked and all(name.endswith(".svg") and (tmp_path / name).exists() for name in linked)
    assert not list(tmp_path.glob("*.png"))
    drawn = []
    real_finish = PS._finish
    monkeypatch.setattr(PS, "_finish", lambda fig, ax, path, title: drawn.append(ax)
                        or real_finish(fig, ax, path, title))
    (tmp_path / "png").mkdir()
    PC.parallel_section(data, tmp_path / "png")
    pol = [ax for ax in drawn if "policy" in ax.get_xlabel()]
    over = [ax for ax in drawn if "ordering quality" in ax.get_xlabel()]
    assert pol and over
    for ax in pol + over:
        bars = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
        assert bars and all(c.has_yerr for c in bars)
    for ax in pol:
        assert all(ln.get_linestyle() == "None" for c in ax.containers for ln in c.lines[:1] if ln)
    plt.close("all")
    with pytest.raises(ValueError, match="fmt must be png, pdf or svg"):
        PC.parallel_section(data, tmp_path, "jpg")

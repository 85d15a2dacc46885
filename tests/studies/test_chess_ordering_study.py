"""The chess ordering study (experiment=chess_ordering) through the engine: its rows are
search()'s, the paired ratios follow from them, aspiration keeps the full window's value, and
001-k's verdict and 000-l's chess domain reach each branch."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from searchlab import search
from searchlab.algorithms.pruning import Pruning, Quiescence
from searchlab.experiment import api
from searchlab.experiment.games import GameSpec, make_game, select_positions
from searchlab.studies.claim_study.claim_study import load_tables
from searchlab.studies.claim_study.claim_study_report import results
from searchlab.studies.claims.verdict import Context, Verdict
from searchlab.studies.ordering import chess_ordering_study as COS

QUIET = ["runner.n_jobs=1", "runner.progress=false", "claim_study.size=tiny"]


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return api.run_study("chess_ordering", QUIET, output_dir=tmp_path_factory.mktemp("co") / "run",
                         progress=False)


def test_rows_are_the_searches(run):
    t = load_tables(run)["chess_order"]
    assert len(t) == 2 * (len(COS.POLICIES) + len(COS.ASPIRATION))        # one position per suite, depth 2
    spec = GameSpec("chess", "bk", sample=1)
    pos = select_positions(spec, 25, 0)[0]                                 # the preset's seed
    row = t[(t.source == "bk") & (t.variant == "id+staged asp 50")].iloc[0]
    r = search(make_game(spec, pos), "alphabeta", "id+staged", depth=2, aspiration=50.0,
               pruning=Pruning(quiescence=Quiescence(max_depth=COS.QUIESCENCE)))
    assert (row.position, row.nodes, row.q_nodes, row.re_searches, row.value) == \
        (pos.id, r.nodes, r.q_nodes, r.re_searches, r.value)
    assert (t.status == "ok").all()


def test_ratios_follow_from_the_rows(run):
    res = results(run)["chess_ordering"]
    t = load_tables(run)["chess_order"].set_index(["source", "variant"]).nodes
    assert res["value_mismatches"] == 0 and res["positions"] == 2 and res["depth"] == 2
    for c in res["comparisons"]:
        want = math.exp(sum(math.log(t[(s, c.a)] / t[(s, c.b)]) for s in ("wac", "bk")) / 2)
        assert c.n == 2 and c.censored == 0 and c.ratio == pytest.approx(want)
    text = (run / "report.md").read_text()
    assert "001-k in chess" in text and "id+staged / id+tt+tactical" in text


def _cmp(claim, label, lo, hi, n=100):
    return COS.Comparison(label, "A", "B", claim, n, 0, (lo + hi) / 2, lo, hi)


def _ctx(cap, *asp, killer=(0.8, 0.9)):
    comps = [_cmp("000-l", "killers", *killer), _cmp("001-k", "captures", *cap)]
    comps += [_cmp("001-k", f"aspiration {w}", *a) for w, a in zip(COS.ASPIRATION, asp)]
    return Context(df=pd.DataFrame(), summary=pd.DataFrame(),
                   exact={"chess_ordering": {"comparisons": comps, "positions": 100, "depth": 5,
                                             "value_mismatches": 0}})


FEWER, MORE, SAME = (0.8, 0.9), (1.05, 1.2), (0.95, 1.05)


@pytest.mark.parametrize("cap, asp, category", [
    (FEWER, (MORE, FEWER, SAME), "holds"),
    (MORE, (MORE, MORE, MORE), "does not hold"),
    (FEWER, (MORE, MORE, MORE), "holds only under conditions"),
    (SAME, (FEWER, FEWER, FEWER), "not shown at this power"),
    (FEWER, (SAME, SAME, MORE), "not shown at this power"),
])
def test_001k_verdict_branches(cap, asp, category):
    v = COS.captures_aspiration_verdict(_ctx(cap, *asp))
    assert v.category == category
    assert v.measured.count("(n = 100, 0 censored)") == 1 + len(COS.ASPIRATION)


def test_001k_without_the_study():
    ctx = Context(df=pd.DataFrame(), summary=pd.DataFrame(), exact={})
    assert COS.captures_aspiration_verdict(ctx).category == "no data"
    other = Verdict("holds", "x", "m", "t")
    assert COS.captures_aspiration_verdict(ctx, fallback=lambda c: other) is other
    assert COS.killer_history_comparison(ctx) is None
    assert COS.killer_history_comparison(_ctx(FEWER, FEWER, FEWER, FEWER)).label == "killers"


def test_000l_counts_chess_as_a_domain():
    from searchlab.studies.ordering import ordering_checks as O
    from tests.studies.test_deep_ordering import BASE, _checks, _shallow

    good = _checks({**BASE, "killer": 0.5, "history": 0.5, "id+tt+killer+history": 0.7})
    for killer, counted in (((0.8, 0.9), True), ((0.95, 1.05), False)):
        ctx = _ctx(FEWER, FEWER, FEWER, FEWER, killer=killer)
        ctx.exact.update({"ordering": _shallow(), "deep_ordering": good})
        kh = O.killer_and_history(ctx)
        assert "chess: killers: nodes A / B" in kh.measured
        assert ("chess (staged order)" in kh.detail.split("; not in")[0]) is counted


def test_001k_is_conditional_when_windows_cost_nodes_on_the_incremental_trees():
    """Windows that save in chess but cost nodes on the ordering study's incremental trees make
    001-k conditional, with the re-searches that explain the cost (the window missed the next
    iteration's value at most iterations, each miss a second, full-window search)."""
    ctx = _ctx(FEWER, FEWER, FEWER, FEWER)
    asp = {"none": dict(nodes=5760.0, cutoffs=1291.0, re_searches=0.0),
           0.05: dict(nodes=6860.0, cutoffs=1455.0, re_searches=5.83),
           0.3: dict(nodes=5877.0, cutoffs=1288.0, re_searches=4.58)}
    ctx.exact["ordering"] = dict(tree=dict(b=6, d=7, n=12, aspiration=asp))
    v = COS.captures_aspiration_verdict(ctx)
    assert v.category == "holds only under conditions"
    assert "±0.05: +19%, the window missed at 5.83 of 6 iterations" in v.detail and "cost nodes elsewhere" in v.detail
    assert "±0.3: +2%, the window missed at 4.58 of 6 iterations" in v.detail
    assert "aspiration windows on incremental trees (b = 6, d = 7" in v.measured and "cutoffs +164" in v.measured
    # windows that save on the trees too: the chess verdict stands
    cheap = {k: dict(r, nodes=5000.0) if k != "none" else r for k, r in asp.items()}
    ctx.exact["ordering"] = dict(tree=dict(b=6, d=7, n=12, aspiration=cheap))
    assert COS.captures_aspiration_verdict(ctx).category == "holds"

"""The deep real-game ordering studies: the presets (run small, end to end), the per-position
paired comparisons of searchlab.studies.ordering.deep_ordering, and the verdicts that rest on them."""

import math

import numpy as np
import pandas as pd
import pytest

from searchlab.studies.ordering import deep_ordering as DO
from searchlab.studies.ordering import ordering_checks as O
from searchlab.studies.ordering import deep_ordering_verdicts as OD
from searchlab.studies.claims.verdict import Context
from searchlab.errors import InvalidParameterError
from searchlab.experiment import api, grid
from searchlab.experiment.api import run_study
from searchlab.experiment.store import load
from searchlab.studies.sweep.sweep_report import build_report

POLICIES = ["natural", "centre", "id", "tt", "killer", "history", "id+tt", "tt+killer+history",
            "id+tt+killer+history", "id+tt+killer+history+centre"]


def table(factor: dict[str, float], *, n: int = 12, depths=range(1, 7), game: str = "connect4",
          noise: float = 0.05, aborted: dict | None = None, seed: int = 0) -> pd.DataFrame:
    """A synthetic study table: nodes(policy, position, d) = factor[policy] * 3^d * a position
    effect * lognormal noise; ``aborted``: {(policy, d): number of positions aborted there}."""
    rng = np.random.default_rng(seed)
    pos_effect = rng.lognormal(0, 0.5, n)
    rows = []
    order = DO.GAME_ORDER[game]
    for pol, f in factor.items():
        pol = pol.replace("centre", order)
        for d in depths:
            for i in range(n):
                st = "aborted" if aborted and i < aborted.get((pol, d), 0) else "ok"
                rows.append(dict(experiment="t", game=game, positions="Test_L1_R1" if game == "connect4" else "7x7",
                                 position=f"ply4#{i}" if game != "connect4" else f"4{i}", instance=i,
                                 algorithm="alphabeta", ordering=pol, d=d, status=st, engine="compiled",
                                 nodes=int(max(1, f * 3.0 ** d * pos_effect[i] * rng.lognormal(0, noise))),
                                 branching=7.0))
    return pd.DataFrame(rows)


def test_paired_comparison_is_the_geometric_mean_of_per_position_ratios():
    t = table({"natural": 1.0, "centre": 0.25}, noise=0.0)
    c = DO.paired_comparison(t, "connect4 Test_L1_R1", "centre", "natural", n_resamples=99)
    assert (c.d, c.n) == (6, 12)
    assert c.ratio.value == pytest.approx(0.25, rel=0.02) and c.ratio.low <= c.ratio.value <= c.ratio.high
    d3 = DO.paired_comparison(t, "connect4 Test_L1_R1", "centre", "natural", d=3, n_resamples=99)
    assert d3.d == 3 and d3.p_raw < 1e-6
    with pytest.raises(InvalidParameterError, match="setting 'go' is not in the table"):
        DO.paired_comparison(t, "go", "centre", "natural")
    with pytest.raises(InvalidParameterError, match="policy 'killer' has no rows"):
        DO.paired_comparison(t, "connect4 Test_L1_R1", "killer", "natural")


def test_a_depth_with_an_aborted_search_is_not_complete():
    """natural aborted on one position at d = 6 and five at d = 5 (5 is then complete for no
    one ...): the comparison falls back to d = 4, the deepest depth complete for both."""
    t = table({"natural": 1.0, "centre": 0.5}, aborted={("natural", 6): 1, ("natural", 5): 5})
    c = DO.paired_comparison(t, "connect4 Test_L1_R1", "centre", "natural", n_resamples=99)
    assert (c.d, c.n) == (4, 12)
    assert DO.paired_comparison(t, "connect4 Test_L1_R1", "centre", "natural", d=5) is None
    dep = DO.complete_depths(t).set_index("policy")
    assert dep.loc["natural", "deepest_complete"] == 4 and dep.loc["natural", "first_incomplete"] == 5
    assert dep.loc["natural", "aborted"] == 6 and dep.loc["centre", "deepest_complete"] == 6


def test_ebf_at_depth_is_the_square_root_of_the_two_ply_growth():
    t = table({"natural": 1.0, "id": 0.3}, noise=0.0)
    e = DO.ebf_at_depth(t, n_resamples=99).set_index("policy")
    assert e.loc["natural", "d"] == 6 and e.loc["natural", "ebf"] == pytest.approx(3.0, rel=0.01)
    assert e.loc["natural", "alpha"] == pytest.approx(math.log(3) / math.log(7), rel=0.01)


def _checks(factor, **kw):
    frames = [table(factor, game=g, seed=k, **kw) for k, g in enumerate(("connect4", "othello", "hex"))]
    for f in frames[1:]:
        f["position"] = [p.replace("ply4", "ply20") if g == "othello" else p
                         for p, g in zip(f["position"], f["game"])]
    return DO.deep_checks(pd.concat(frames, ignore_index=True), n_resamples=199)


BASE = {p: 1.0 for p in POLICIES}


def test_deep_checks_holm_and_kinds():
    data = _checks({**BASE, "centre": 0.3, "id+tt+killer+history+centre": 0.8})
    assert set(data["settings"]) == {"connect4 Test_L1_R1", "othello ply 20", "hex 7x7 ply 4"}
    order = data["families"]["game order"]
    assert len(order) == 6 and all(c.kind == "shown" for c in order)
    assert all(c.p_holm >= c.p_raw for c in order)
    assert {c.policy for c in order} >= {"centre", "corners", "adjacent"}
    md = DO.deep_section(data)
    assert "Pons' Test_L1_R1" in md and "| game order | hex 7x7 ply 4 | adjacent / natural | 6 | 12 |" in md


def test_game_order_verdict_can_hold_fail_or_be_unshown():
    holds = OD.game_order_verdict(_checks({**BASE, "centre": 0.3, "id+tt+killer+history+centre": 0.8}))
    assert holds.category == "holds" and "3/3 games" in holds.detail and "n = 12" in holds.measured
    worse = OD.game_order_verdict(_checks({**BASE, "centre": 1.6, "id+tt+killer+history+centre": 1.3}))
    assert worse.category == "does not hold"
    same = OD.game_order_verdict(_checks(dict(BASE), noise=0.3))
    assert same.category == "not shown at this power"
    cond = OD.game_order_verdict(_checks({**BASE, "centre": 0.3, "id+tt+killer+history+centre": 1.3}))
    assert cond.category == "holds only under conditions" and "costs more in" in cond.detail


def _shallow(killer_tree: float = 0.5) -> dict:
    """A minimal ordering_checks() result: the synthetic-tree part the verdicts combine with."""
    def agg(**r):
        return {p: dict(nodes=v, leaves=v, last=v, fhf=0.5, cutoffs=1.0, tt_hit=0.0, n=3, same_value=3)
                for p, v in r.items()}
    trees = {c: agg(natural=100.0, killer=100.0 * (killer_tree if c else 1.0),
                    history=100.0 * (killer_tree if c else 1.0), id=80.0) for c in (0.0, 0.5, 1.0)}
    games = agg(natural=100.0, killer=50.0, history=50.0, tt=50.0, id=60.0, centre=40.0, corners=40.0,
                perfect=10.0, **{"id+tt": 30.0})
    return dict(tree=dict(b=5, d=6, n=3, decay=0.9, by_corr=trees, aspiration={}),
                connect4=dict(depth=5, n=3, agg=games), othello=dict(depth=3, n=3, agg=games),
                tictactoe=dict(natural=18297, tt=4882), tt_mistake=dict(n=6, wrong={"right": 0, "value-only": 6}))


def test_killer_history_and_tt_verdicts_use_the_deep_games():
    good = _checks({**BASE, "killer": 0.5, "history": 0.5, "id+tt+killer+history": 0.7, "tt": 0.4, "id+tt": 0.6})
    ctx = Context(df=pd.DataFrame(), summary=pd.DataFrame(), exact={"ordering": _shallow(), "deep_ordering": good})
    kh = O.killer_and_history(ctx)
    assert kh.category == "holds only under conditions" and "incremental corr 0.0" in kh.detail
    assert "hex 7x7 ply 4" in kh.detail and "killer / natural" in kh.measured
    assert O.transposition_tables(ctx).category == "holds"
    bad = _checks({**BASE, "killer": 1.5, "history": 0.5, "tt": 1.4, "id+tt": 1.2})
    ctx = Context(df=pd.DataFrame(), summary=pd.DataFrame(), exact={"ordering": _shallow(), "deep_ordering": bad})
    kh = O.killer_and_history(ctx)
    assert "connect4 Test_L1_R1" not in kh.detail.split("; not in")[0]
    tt = O.transposition_tables(ctx)
    assert tt.category == "holds only under conditions" and "contradicted" in tt.detail
    # without the deep studies, the shallow figures decide (and say Hex is not measured)
    ctx = Context(df=pd.DataFrame(), summary=pd.DataFrame(), exact={"ordering": _shallow()})
    assert "Hex is not implemented" in O.game_specific_order(ctx).measured


def test_combine_kinds():
    assert OD.combine(["shown", "shown"]) == "holds"
    assert OD.combine(["shown", "contradicted"]) == "holds only under conditions"
    assert OD.combine(["contradicted", "not shown at this power"]) == "does not hold"
    assert OD.combine(["not shown at this power"]) == "not shown at this power"
    with pytest.raises(ValueError):
        OD.combine([])


@pytest.mark.parametrize("preset,size", [("ordering_connect4_deep", 17_300), ("ordering_othello_deep", 13_000),
                                         ("ordering_hex_deep", 8_700)])
def test_deep_presets_reach_the_issue_depths_on_the_compiled_engine(preset, size):
    study = api.validate(api.compose(preset))
    plan = grid.plan(study)
    assert len(plan.tasks) == size
    need = {"ordering_connect4_deep": 12, "ordering_othello_deep": 9, "ordering_hex_deep": 6}[preset]
    deepest = {}
    for t in plan.tasks:
        deepest[t.ordering] = max(deepest.get(t.ordering, 0), t.d)
    n_pos = len({t.position.id for t in plan.tasks})
    assert n_pos >= 100
    for pol, d in deepest.items():
        if pol != "perfect" and pol != "natural":
            assert d >= need, (pol, d)
    assert study.task_max_nodes <= 20_000_000


def test_small_deep_study_end_to_end(tmp_path):
    """A small Connect Four deep study (3 positions, depths 1..4, a 700-node budget): every
    policy but perfect runs on the compiled engine, natural order hits the budget, and the
    analysis and verdict run on its table."""
    out = run_study("ordering_connect4_deep",
                    ["game.sample=3", "sweep.d=1..4", "sweep.d_by_ordering={natural: 1..4, perfect: 1..2}",
                     "search.max_nodes=700", "runner.n_jobs=1", "runner.progress=false", "runner.report=false"],
                    output_dir=tmp_path / "run", progress=False)
    df = load(out)
    assert len(df) == 3 * (14 * 4 + 2)
    eng = df.groupby("ordering")["engine"].agg(set)
    assert eng["perfect"] == {"reference"}
    assert all(e == {"compiled"} for p, e in eng.items() if p != "perfect"), eng.to_dict()
    assert (df.loc[df["status"] == "aborted", "ordering"] == "natural").all()
    assert (df["status"] == "aborted").sum() >= 1
    data = DO.deep_checks(df, n_resamples=99)
    dep = data["depths"].set_index("policy")
    assert dep.loc["natural", "deepest_complete"] == 3 and dep.loc["id+tt+killer+history+centre", "deepest_complete"] == 4
    v = OD.game_order_verdict(data)
    assert v.category in ("holds", "holds only under conditions", "does not hold", "not shown at this power")
    assert "Connect Four, 3 positions of Pons' Test_L1_R1" in v.measured
    # the run's own report carries the section and bases 002-a on it
    md = build_report(df, tmp_path / "rep", title="t", source="s", command="c", exact=False,
                      n_resamples=49).read_text()
    assert "## Ordering in real games, searched deep (paired per position)" in md
    assert "| 002-a |" in md and "Connect Four, 3 positions of Pons' Test_L1_R1" in md.split("| 002-a |")[1]


def test_ebf_compares_policies_at_one_common_depth():
    """natural aborts on one position at d = 6: its own deepest EBF depth is 5 (5 and 3
    complete), and the common depth of every policy is 5 too; centre's own is 6."""
    t = table({"natural": 1.0, "centre": 0.25}, noise=0.0, aborted={("natural", 6): 1})
    setting = "connect4 Test_L1_R1"
    assert DO.common_depths(t) == {setting: 5}
    own = DO.ebf_at_depth(t, n_resamples=99).set_index("policy")
    assert own.loc["centre", "d"] == 6 and own.loc["natural", "d"] == 5
    common = DO.ebf_at_depth(t, at=DO.common_depths(t), n_resamples=99)
    assert set(common.d) == {5} and len(common) == 2
    assert common.ebf.to_numpy() == pytest.approx([3.0, 3.0], rel=0.05)   # 3x a ply (counts truncated)
    md = DO.deep_section(DO.deep_checks(t, n_resamples=99))
    assert "EBF at the common depth (d = 5; 95 % CI)" in md


def test_000l_incremental_rows_carry_paired_cis():
    """The incremental-tree rows of 000-l print killer / natural and history / natural with the
    paired CI over trees when the run has them, and a CI reaching 1 keeps the row out of
    "improve"."""
    from searchlab.analysis.estimators import Estimate
    good = _checks({**BASE, "killer": 0.5, "history": 0.5, "id+tt+killer+history": 0.7, "tt": 0.4, "id+tt": 0.6})
    sh = _shallow()
    ci = {c: {"killer": Estimate(0.5, 0.45, 0.55, 3, 0.95, "bca"), "history": Estimate(0.5, 0.44, 0.56, 3, 0.95, "bca")}
          for c in (0.0, 0.5, 1.0)}
    ci[1.0]["history"] = Estimate(0.5, 0.2, 1.1, 3, 0.95, "bca")
    sh["tree"]["ratio_ci"] = ci
    kh = O.killer_and_history(Context(df=pd.DataFrame(), summary=pd.DataFrame(),
                                      exact={"ordering": sh, "deep_ordering": good}))
    assert "paired 95 % bootstrap CI over n = 3 trees" in kh.measured
    assert "incremental corr 0.5: 0.5 [0.45, 0.55] / 0.5 [0.44, 0.56]" in kh.measured
    assert "incremental corr 1.0" in kh.detail.split("; not in")[1]


def test_tree_ratio_cis_are_paired_ratios_of_means():
    from searchlab.studies.ordering.ordering_checks_study import tree_ratio_cis
    rows = [dict(domain="tree 0.5", unit=u, policy=p, nodes=n)
            for u, (nat, kil) in enumerate([(100, 40), (200, 90), (300, 150), (400, 170)])
            for p, n in (("natural", nat), ("killer", kil))]
    got = tree_ratio_cis(pd.DataFrame(rows), ["natural", "killer", "history"])
    e = got[0.5]["killer"]
    assert set(got) == {0.5} and set(got[0.5]) == {"killer"}
    assert e.value == pytest.approx(450 / 1000) and e.low <= e.value <= e.high < 0.55

"""003-i's ordering evidence: the node ratios' paired bootstrap CIs, the Pig positions, and the
verdict on constructed measurements (it can come out each way)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from searchlab.studies.chance import chance_study as CS
from searchlab.studies.chance import chance_verdicts as CH
from searchlab.studies.claims.verdict import Context


def test_pig_positions_are_seeded_and_legal():
    ps = [CS.pig_position(k, 15) for k in range(40)]
    assert ps == [CS.pig_position(k, 15) for k in range(40)]
    assert ps != [CS.pig_position(k, 16) for k in range(40)]
    assert len(set(ps)) > 30
    for s in ps:
        assert 0 <= min(s.scores) and max(s.scores) < CS.PIG_WINSCORE
        assert s.scores[s.mover] + s.turn_total < CS.PIG_WINSCORE and not s.rolling


def _orders(ratios: dict[str, float], units: int, noise: float = 0.05, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = []
    for o, q in ratios.items():
        for k in range(units):
            emm = int(rng.integers(900, 1100))
            for alg in CS.STAR:
                nodes = int(round(emm * q * (1 + noise * rng.standard_normal())))
                rows.append(dict(domain="pig", b=2, n=6, d=4, instance=k, position="p", ordering=o, algorithm=alg,
                                 nodes=nodes, leaves=nodes // 2, emm_nodes=emm, emm_leaves=emm // 2, same_value=1))
    return pd.DataFrame(rows)


def test_order_ratios_ci_covers_the_constructed_ratio_and_narrows_with_n():
    small = CS.order_ratios(_orders({"natural": 0.6}, 8), seed=1)
    big = CS.order_ratios(_orders({"natural": 0.6}, 200), seed=1)
    for t in (small, big):
        for r in t.itertuples():
            assert r.nodes_lo <= 0.6 <= r.nodes_hi or abs(r.nodes_ratio - 0.6) < 0.02
            assert r.nodes_lo <= r.nodes_ratio <= r.nodes_hi
    assert (big["nodes_hi"] - big["nodes_lo"]).max() < (small["nodes_hi"] - small["nodes_lo"]).min()
    assert (big["units"] == 200).all() and (big["same_value"] == 200).all()
    one = CS.order_ratios(_orders({"natural": 0.5}, 1), seed=1)
    assert one["nodes_lo"].isna().all() and not one["nodes_ratio"].isna().any()


def _growth(alpha: float) -> pd.DataFrame:
    return pd.DataFrame([dict(b=2, n=2, spread=1.0, algorithm=a, growth=4 ** al, lo=4 ** al, hi=4 ** al, alpha=al,
                              alpha_lo=al - 0.01, alpha_hi=al + 0.01, d_min=1, d_max=6, instances=30)
                         for a, al in (("expectiminimax", 1.0), ("alphabeta-emm", 1.0), ("star1", alpha),
                                       ("star2", alpha))])


def _measured(alphas: dict[str, float], trees: int = 30, pig_units: int = 24, same: bool = True) -> dict:
    og = []
    for o, al in alphas.items():
        g = _growth(al)
        g = g[g["algorithm"].isin(CS.STAR)].assign(ordering=o, instances=trees)
        og.append(g)
    orders = _orders({o: 0.7 for o in alphas}, pig_units)
    if not same:
        orders.loc[0, "same_value"] = 0
    c = dict(growth=_growth(0.97), order_growth=pd.concat(og, ignore_index=True),
             orders=CS.order_ratios(orders, seed=0), instances=30)
    return {"chance": c, "relabel": {"trials": 1, "same_moves": 1}}


def _verdict(exact):
    return CH.expectiminimax_cost_and_weak_pruning(Context(df=pd.DataFrame(), summary=pd.DataFrame(), exact=exact))


def test_verdict_holds_when_every_ordering_keeps_the_exponent_high():
    v = _verdict(_measured({"natural": 0.97, "random": 0.96, "perfect": 0.85}))
    assert v.category == "holds"
    assert "under every ordering measured" in v.detail and "perfect: lowest α 0.85" in v.detail
    assert "24 Pig positions at depth 4 they visit star1" in v.detail and "24 positions" in v.measured


def test_verdict_turns_conditional_when_a_good_ordering_prunes_strongly():
    v = _verdict(_measured({"natural": 0.97, "random": 0.96, "perfect": 0.6}))
    assert v.category == "holds only under conditions"
    assert "under perfect ordering the exponent falls to 0.6" in v.detail


def test_verdict_says_not_shown_when_n_is_small_or_the_ci_straddles():
    v = _verdict(_measured({"natural": 0.97, "perfect": 0.6}, trees=5, pig_units=5))
    assert v.category == "holds"                 # the natural-order exponents decide; perfect not shown
    assert "under natural, perfect ordering not shown" in v.detail
    assert "on Pig not shown (5 positions" in v.detail and "n < 20" in v.measured
    v = _verdict(_measured({"natural": 0.97, "perfect": CH.WEAK_ALPHA}))
    assert "under perfect ordering not shown" in v.detail and "CI across" in v.measured


def test_verdict_fails_when_a_star_search_returns_another_value():
    v = _verdict(_measured({"natural": 0.97}, same=False))
    assert v.category == "does not hold" and "returned a value other than expectiminimax's" in v.detail


@pytest.mark.parametrize("size", ["tiny"])
def test_the_study_plans_orders_steps_with_explicit_seeds(size):
    steps = [s for s in CS.chance_steps(size, 15) if s.kind == "orders"]
    _, trees, positions, depths = CS.ORDER_SIZES[size]
    pig = [s for s in steps if s.key[0] == "pig"]
    assert len(pig) == positions * len(depths)
    assert {s.kwargs["seed"] for s in steps} == {15}
    assert all(math.isfinite(s.work) for s in steps)


def test_003i_quotes_every_pig_depth_and_where_star_costs_more():
    """003-i quoted d = 5 only; at d = 4 Star2 (random order) cost more than expectiminimax. Every
    depth is quoted now, and a cell whose CI lies above 1 is named."""
    m = _measured({"natural": 0.97, "random": 0.96, "perfect": 0.85})
    o4 = _orders({"natural": 0.7, "random": 1.2, "perfect": 0.7}, 24)
    o5 = _orders({"natural": 0.6, "random": 0.9, "perfect": 0.6}, 24, seed=1).assign(d=5)
    m["chance"]["orders"] = CS.order_ratios(pd.concat([o4, o5], ignore_index=True), seed=0)
    v = _verdict(m)
    assert "24 Pig positions at depth 4 they visit" in v.detail and "24 Pig positions at depth 5 they visit" in v.detail
    d4 = v.detail.split("at depth 4")[1].split("at depth 5")[0]
    assert "star1 (random), star2 (random): more nodes than expectiminimax, the CI above 1" in d4
    assert "more nodes than expectiminimax" not in v.detail.split("at depth 5")[1]

"""Verdicts of 003-i, 003-c, 003-j and 000-q from real (tiny) measurements."""

from __future__ import annotations

import pandas as pd
import pytest

from searchlab.studies.chance import chance_verdicts as CH
from searchlab.studies.multiplayer import multiplayer_verdicts as MP
from searchlab.studies.claims import registry
from searchlab.studies.claims.verdict import Context


@pytest.fixture(scope="module")
def measured():
    return {"chance": CH.chance_checks("tiny"), "multiplayer": MP.multiplayer_checks("tiny"),
            "relabel": {"trials": 5, "same_moves": 5}}


def _ctx(exact):
    return Context(df=pd.DataFrame(), summary=pd.DataFrame(), exact=exact)


def test_chance_verdicts(measured):
    ctx = _ctx(measured)
    v = CH.expectiminimax_cost_and_weak_pruning(ctx)
    g = measured["chance"]["growth"]
    assert (g[g["algorithm"] == "expectiminimax"]["alpha"].round(9) == 1.0).all()
    assert v.category in ("holds", "holds only under conditions") and "α" in v.measured
    r = CH.relabelling_under_chance(ctx)
    t = measured["chance"]["relabel"]["table"]
    assert t[t["relabelling"] == "positive affine map"]["changed"].sum() == 0
    assert t[t["algorithm"] == "minimax"]["changed"].sum() == 0
    assert r.category == ("holds" if t[(t["algorithm"] == "expectiminimax") &
                                       (t["relabelling"] == "background map")]["changed"].iloc[0] else "does not hold")
    lu = CH.ludo_example(ctx)
    assert lu.category == "holds" and "safe" in lu.detail
    assert "| star1 |" in CH.chance_section(measured["chance"])


def test_multiplayer_verdict(measured):
    v = MP.pruning_with_many_players(_ctx(measured))
    f = measured["multiplayer"]["fits"]
    assert (f[f["algorithm"] == "maxn"]["alpha"].round(9) == 1.0).all()
    assert v.category in ("holds only under conditions", "does not hold") and "Rolit" in v.measured
    assert "win share" in MP.multiplayer_section(measured["multiplayer"])


def test_registry_uses_them_and_reports_missing_data(measured):
    res = {c.key: v for c, v in registry.evaluate_all(_ctx(measured))}
    for cid in ("003-i", "003-c", "003-j", "000-q"):
        assert res[cid].category not in ("pending", "no data"), cid
    bare = {c.key: v for c, v in registry.evaluate_all(_ctx({"relabel": measured["relabel"]}))}
    assert all(bare[c].category == "no data" for c in ("003-i", "003-c", "003-j", "000-q"))


def test_paranoid_against_its_exact_finite_depth_best_case(measured):
    from searchlab.studies.multiplayer import multiplayer_study as MS

    assert [MS.paranoid_best_leaves(2, d, 3) for d in (2, 3, 4, 5, 6)] == [3, 5, 7, 11, 19]
    assert MS.paranoid_best_leaves(3, 4, 2) == 3 ** 2 + 3 ** 2 - 1          # n = 2: Knuth–Moore
    pb = measured["multiplayer"]["paranoid_best"]
    perf = pb[pb["algorithm"] == "paranoid-perfect"]
    assert len(perf) and (perf["equal"] == perf["trees"]).all()           # perfect order attains it
    v = MP.pruning_with_many_players(_ctx(measured))
    assert "perfect order equals it in" in v.measured and "exact best case b^⌈d/n⌉" in v.detail
    # the wording follows the data: a perfect-order search above the best case drops the claim
    broken = dict(measured["multiplayer"], paranoid_best=pb.assign(
        equal=pb["equal"].where(pb["algorithm"] != "paranoid-perfect", 0)))
    v2 = MP.pruning_with_many_players(_ctx(dict(measured, multiplayer=broken)))
    assert "exact best case b^⌈d/n⌉" not in v2.detail and "perfect order equals it in 0/" in v2.measured
    table = MP.multiplayer_section(measured["multiplayer"])
    assert "leaves / best" in table

"""searchlab.studies.ordering.real_minimal at small size: every row's minimal tree is minimal_tree under the
policy's own settings, ratios and the summary follow from the rows, bad input is refused."""

from __future__ import annotations

import math

import numpy as np
import pytest

from searchlab import search
from searchlab.algorithms.minimal_tree import minimal_tree
from searchlab.algorithms.proof_tree import smallest_tree
from searchlab.studies.ordering.real_minimal import real_minimal
from searchlab.errors import InvalidParameterError, UnsupportedError
from searchlab.algorithms.pruning import NullMove, Pruning
from tests.algorithms.compiled_cases import positions

POLICIES = ["centre", "tt+centre", "id+tt+killer+history+centre"]


def test_table_and_summary_on_connect_four():
    games = positions("connect4", 4, seed=11)
    res = real_minimal(games, 5, POLICIES, n_resamples=199)
    t = res.table
    assert len(t) == 4 * 5 * len(POLICIES) and (t.status == "ok").all()
    row = t[(t.position == "2") & (t.policy == "tt+centre") & (t.depth == 5)].iloc[0]
    assert row.tt and row.minimal_nodes == minimal_tree(games[2], 5, tt=True).nodes
    assert row.nodes == search(games[2], "alphabeta", "tt+centre", depth=5).nodes
    plain = t[(t.policy == "centre") & (t.depth == 5)]
    assert not plain.tt.any()
    assert list(plain.minimal_nodes) == [minimal_tree(g, 5).nodes for g in games]
    # without a table no order beats the smallest tree over all orders (the perfect order's
    # can be beaten where values tie)
    at4 = t[(t.policy == "centre") & (t.depth == 4)]
    assert (at4.nodes.to_numpy() >= [smallest_tree(g, 4).nodes for g in games]).all()
    s = res.summary.set_index("policy")
    assert res.fit_depths == (1, 2, 3, 4, 5)
    for p in POLICIES:
        r = t[(t.policy == p) & (t.depth == 5)].ratio
        g = math.exp(np.log(r).mean())
        assert s.loc[p, "gmean_ratio"] == pytest.approx(g)
        assert s.loc[p, "ci_low"] <= g <= s.loc[p, "ci_high"]
        assert 0 < s.loc[p, "alpha"] < 1.5


def test_aborted_searches_leave_the_fit():
    games = positions("connect4", 2, seed=11)
    res = real_minimal(games, 4, ["natural"], max_nodes=300, n_resamples=99)
    t = res.table
    assert (t[t.status == "aborted"].ratio.isna()).all() and (t.status == "aborted").any()
    assert max(res.fit_depths, default=0) < 4
    assert res.summary.iloc[0].aborted == (t[t.depth == 4].status == "aborted").sum()


def test_bad_input():
    games = positions("connect4", 1, seed=1)
    with pytest.raises(InvalidParameterError, match="positions"):
        real_minimal([], 3, POLICIES)
    with pytest.raises(InvalidParameterError, match="depth"):
        real_minimal(games, 0, POLICIES)
    with pytest.raises(InvalidParameterError, match="names"):
        real_minimal(games, 2, POLICIES, names=["a", "b"])
    with pytest.raises(UnsupportedError, match="sound"):
        real_minimal(games, 2, POLICIES, pruning=Pruning(null_move=NullMove()))

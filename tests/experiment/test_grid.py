"""Grid expansion, seeds, budget estimates, batching (no runs, except tiny in-process ones)."""

from __future__ import annotations

import pytest

from searchlab.algorithms.search_api import search
from searchlab.experiment import api, budget, grid
from searchlab.experiment.runner import make_batches
from searchlab.experiment.schema import ConfigError
from searchlab.experiment.store import load
from searchlab.experiment.validation import parse_int_list, validate
from searchlab.trees import make_tree


def _plan(*overrides, experiment="quick"):   # the one-tree grid of config.yaml
    return grid.plan(validate(api.compose(experiment, list(overrides))))


def test_ranges():
    assert parse_int_list("k", "2..5", 1) == (2, 3, 4, 5)
    assert parse_int_list("k", "2..9:3", 1) == (2, 5, 8)
    assert parse_int_list("k", [8, 2, 2], 1) == (2, 8)
    assert parse_int_list("k", 4, 1) == (4,)
    for bad in ("2...5", "x", [], "5..2", [1.5]):
        with pytest.raises(ConfigError):
            parse_int_list("k", bad, 1)


def test_seeds_derive_from_identity_not_order():
    p = _plan("sweep.b=[2,3]", "sweep.d=[3,4]", "sweep.instances=3", "sweep.d_budget=null")
    q = _plan("sweep.b=[3]", "sweep.d=[4]", "sweep.instances=3", "sweep.ordering=[perfect]",
              "sweep.d_budget=null")
    same = {(t.b, t.d, t.instance, t.ordering): (t.seed, t.ordering_seed, t.task_id) for t in p.tasks}
    for t in q.tasks:
        assert same[(t.b, t.d, t.instance, t.ordering)] == (t.seed, t.ordering_seed, t.task_id)
    # one tree seed per tree instance, shared by every ordering; distinct across instances
    seeds = {}
    for t in p.tasks:
        seeds.setdefault((t.b, t.d, t.instance), set()).add(t.seed)
    assert all(len(s) == 1 for s in seeds.values())
    assert len({next(iter(s)) for s in seeds.values()}) == len(seeds)
    # the ordering seed differs between orderings of one instance
    assert len({t.ordering_seed for t in p.tasks if (t.b, t.d, t.instance) == (2, 3, 0)}) == 3
    # another experiment seed gives other trees
    r = _plan("seed=1", "sweep.b=[2,3]", "sweep.d=[3,4]", "sweep.instances=3", "sweep.d_budget=null")
    assert {t.seed for t in r.tasks}.isdisjoint({t.seed for t in p.tasks})
    assert all(0 <= t.seed < 2**64 for t in p.tasks)


@pytest.mark.parametrize("b, d", [(2, 10), (3, 5), (8, 5), (5, 4), (1, 6)])
def test_knuth_moore_estimate_is_exact_and_others_bound(b, d):
    for seed in range(3):
        tree = make_tree("iid", b=b, d=d, seed=seed)
        r = search(tree, "alphabeta", "perfect")
        assert r.nodes == budget.knuth_moore_nodes(b, d)
        assert r.leaves == budget.knuth_moore_leaves(b, d)
        assert search(tree, "minimax", "natural").nodes == budget.full_tree_nodes(b, d)
        assert search(tree, "alphabeta", "worst").nodes <= budget.full_tree_nodes(b, d)
        assert search(tree, "alphabeta", "random", ordering_seed=seed).nodes <= \
            budget.random_order_bound(b, d)


def test_pearl_branching_factor():
    assert budget.pearl_branching_factor(2) == pytest.approx(1.618, abs=1e-3)
    assert budget.pearl_branching_factor(1) == 1.0
    assert budget.pearl_branching_factor(32) < 32 ** 0.8


def test_d_budget_trims_per_b():
    p = _plan("sweep.b=[2,8]", "sweep.d=1..12", "sweep.d_budget=100000", "sweep.ordering=[random]")
    deepest = {b: max(t.d for t in p.tasks if t.b == b) for b in (2, 8)}
    assert deepest[2] == 12 and deepest[8] < 12
    assert all(t.est_work <= 100000 for t in p.tasks) and p.trimmed


def test_batches_group_tiny_tasks_and_keep_every_task():
    p = _plan("sweep.b=[2]", "sweep.d=[4]", "sweep.instances=500", "sweep.d_budget=null")
    batches = make_batches(p.tasks, 2, 2_000_000, 2000)
    assert 4 <= len(batches) <= 16
    assert sorted(t.index for b in batches for t in b) == list(range(len(p.tasks)))
    big = _plan("sweep.b=[8]", "sweep.d=[6]", "sweep.instances=4", "sweep.d_budget=null")
    assert all(len(b) == 1 for b in make_batches(big.tasks, 2, 10_000, 2000))


def test_several_tree_models_and_explicit_tree(tmp_path):
    out = api.run_study("knuth_moore", ["sweep.b=[2,3]", "sweep.d=1..4", "sweep.instances=2",
                                        "runner.n_jobs=1", "runner.report=false"],
                        output_dir=tmp_path / "km", progress=False)
    df = load(out)
    assert set(df.tree) == {"iid", "ordered"}
    assert df[df.tree == "ordered"].p.eq(1.0).all() and df[df.tree == "iid"].p.isna().all()
    piv = df.pivot_table(index=["tree", "b", "d", "instance"], columns="algorithm", values="value")
    assert (piv.alphabeta == piv.minimax).all()                 # alpha-beta is exact
    ab = df[df.algorithm == "alphabeta"]
    assert (ab.leaves == ab.b ** ((ab.d + 1) // 2) + ab.b ** (ab.d // 2) - 1).all()

    out = api.run_study("quick", ["tree=explicit", "sweep.ordering=[natural,perfect]",
                                  "sweep.instances=1", "runner.n_jobs=1", "runner.report=false"],
                        output_dir=tmp_path / "explicit", progress=False)
    df = load(out).set_index("ordering")
    assert df.loc["natural", "value"] == 3 and df.loc["natural", "best_move"] == "0"   # a string column (game moves)
    assert df.loc["natural", "leaves"] == 7 and df.loc["natural", "b"] == 3


def test_static_ordering_on_incremental_trees(tmp_path):
    out = api.run_study("quick", ["tree=incremental", "sweep.ordering=[static,random]",
                                  "sweep.b=[3]", "sweep.d=[4]", "sweep.instances=3",
                                  "runner.n_jobs=1", "runner.report=false"],
                        output_dir=tmp_path / "inc", progress=False)
    df = load(out)
    assert len(df) == 6 and (df.status == "ok").all() and df.decay.eq(0.8).all()

"""The budget guard's estimate is a true upper bound of the nodes searched, it is computed in
log space (no overflow, no hang for absurd depths), and the plan's printed counts add up."""

from __future__ import annotations

import re
import time

import pytest

from searchlab.algorithms.search_api import search
from searchlab.experiment import api, budget, grid
from searchlab.experiment.validation import validate
from searchlab.limits import MAX_COUNT, MAX_DEPTH
from searchlab.trees import make_tree

TREES = [("iid", {"levels": 0}, ("random", "natural")), ("iid", {"levels": 3}, ("natural",)),
         ("incremental", {"decay": 0.8, "correlation": 0.5}, ("natural", "static", "random")),
         ("ordered", None, ("natural", "random"))]


def _grid():
    for b in (2, 3, 5, 8, 16, 32, 100, 1000, 10_000):
        for d in range(1, 40):
            if budget.full_tree_nodes(b, d) > 3 * 10**5:
                break
            yield b, d


@pytest.mark.parametrize("model,params,orderings", TREES)
def test_estimate_bounds_alphabeta_nodes_over_a_grid_up_to_b_10000(model, params, orderings):
    for b, d in _grid():
        params_b = params if params is not None else {"p": 1.0 / b}   # ordered: as bad as random
        for o in orderings:
            est, _ = budget.estimate(model, b, d, "alphabeta", o, params_b.get("p"))
            for seed in range(3):
                r = search(make_tree(model, b=b, d=d, seed=seed, **params_b), "alphabeta", o,
                           ordering_seed=seed + 11)
                assert r.nodes <= est, (model, params_b, o, b, d, seed, r.nodes, est)


def test_issue_case_b1000_d1_and_worst_first_ordered_trees():
    assert budget.estimate("iid", 1000, 1, "alphabeta", "random")[0] >= 1001
    # p = 0 puts the worst move first: alpha-beta searches the whole tree
    t = make_tree("ordered", b=4, d=5, seed=0, p=0.0)
    assert search(t, "alphabeta", "natural").nodes <= budget.estimate("ordered", 4, 5, "alphabeta",
                                                                      "natural", 0.0)[0]
    assert budget.estimate("ordered", 4, 5, "alphabeta", "natural", 0.0)[0] == \
        budget.full_tree_nodes(4, 5)


def test_estimates_saturate_in_log_space_without_overflow_or_hang():
    t0 = time.monotonic()
    for b in (2, 65536):
        for o in ("random", "perfect", "worst"):
            nodes, work = budget.estimate("iid", b, MAX_DEPTH, "alphabeta", o)
            assert nodes == work == MAX_COUNT
    assert budget.full_tree_nodes(2, 61) == 2**62 - 1 and budget.full_tree_nodes(2, 62) == MAX_COUNT
    assert budget.human(MAX_COUNT) == ">4.6e18"
    assert time.monotonic() - t0 < 1.0


def test_plan_summary_counts_add_up():
    study = validate(api.compose(None, ["sweep.b=[2,8]", "sweep.d=1..6", "sweep.instances=10",
                                        "sweep.ordering=[random,perfect]", "sweep.d_budget=3000"]))
    p = grid.plan(study)
    line = grid.summary(p, study)
    m = re.match(r"tour: (\d+) tasks \((\d+) grid points x (\d+) instances; (\d+) more points "
                 r"over sweep.d_budget left out\)", line)
    assert m, line
    tasks, points, inst, left = map(int, m.groups())
    assert left > 0 and tasks == len(p.tasks) == points * inst and points + left == p.points


def test_game_plan_summary_counts_add_up():
    study = validate(api.compose(None, ["game=connect4", "game.sample=3", "sweep.d=[1,2]",
                                        "sweep.ordering=[natural,centre]"]))
    p = grid.plan(study)
    line = grid.summary(p, study)
    # without a preset or name=, a game run is named after its game
    m = re.match(r"connect4: (\d+) tasks \((\d+) grid points x (\d+) connect4 positions\)", line)
    assert m, line
    tasks, points, positions = map(int, m.groups())
    assert tasks == len(p.tasks) == points * positions == 2 * 2 * 3

"""The progress bar's total and the plan's "estimated work N nodes" line are one estimate
(budget.task_work) for the same run."""

from __future__ import annotations

import json
import re

import searchlab
from searchlab.experiment import api, budget, grid
from searchlab.experiment.runner import progress_total
from searchlab.experiment.validation import validate

SMALL = ["sweep.b=[2,4]", "sweep.d=1..4", "sweep.instances=2", "runner.n_jobs=1"]
SCALE = {"": 1.0, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}


def test_the_bar_total_is_the_plans_estimated_work():
    study = validate(api.compose(None, []))          # the default study: oracles and searches
    p = grid.plan(study)
    _, initial, total = progress_total(p.tasks)
    assert initial == 0 and total == p.total_work == budget.total_work(p.tasks)
    assert f"estimated work {budget.human(total)} nodes" in grid.summary(p, study)
    # oracle work counts: perfect/worst order on iid trees weigh more than their search nodes
    assert total > sum(t.est_nodes for t in p.tasks)
    # a resumed run: what was done counts at the mean weight, the total stays the plan's size
    _, initial, total = progress_total(p.tasks[10:], already_done=10, total=len(p.tasks))
    assert initial > 0 and abs(total - (initial + budget.total_work(p.tasks[10:]))) < 1e-6


def test_what_the_command_prints_agrees(tmp_path, capsys):
    study = validate(api.compose(None, SMALL))
    p = grid.plan(study)
    api.run_study(None, SMALL, output_dir=tmp_path / "run", progress=True)
    out, err = capsys.readouterr()
    line = re.search(r"estimated work (\S+) nodes", out + err)[1]
    assert line == budget.human(p.total_work)
    n, unit = re.findall(r"/([\d.]+)([kMGT]?) est\. nodes", err)[-1]
    assert abs(float(n) * SCALE[unit] - p.total_work) <= 0.05 * p.total_work


def test_warm_up_is_the_cheapest_task_per_model_and_its_rows_are_the_runs(tmp_path, capsys, monkeypatch):
    """The tasks searched in the main process before the bar starts: one per tree model, the
    cheapest by estimated work; the run's table is the same as one run without a warm-up (an
    injected fault, here a no-op sleep, turns it off), and the bar starts with their work done."""
    from searchlab.experiment.runner import warm_up_tasks
    study = validate(api.compose(None, SMALL))           # tour: two tree models
    p = grid.plan(study)
    warm = warm_up_tasks(p.tasks)
    models = {t.model for t in p.tasks}
    assert len(models) == 2 and sorted(t.model for t in warm) == sorted(models)
    for w in warm:
        same = [t for t in p.tasks if t.model == w.model]
        assert budget.task_work(w) == min(budget.task_work(t) for t in same)
    a = api.run_study(None, SMALL, output_dir=tmp_path / "warm", progress=True)
    err = capsys.readouterr().err
    first = re.findall(r"([\d.]+)([kMGT]?)/[\d.]+[kMGT]? est\. nodes", err)[0]
    assert float(first[0]) * SCALE[first[1]] >= sum(budget.task_work(t) for t in warm) * 0.95
    from searchlab.experiment.runner import FAULT_ENV
    monkeypatch.setenv(FAULT_ENV, json.dumps({"mode": "sleep", "index": [0], "seconds": 0}))
    b = api.run_study(None, SMALL, output_dir=tmp_path / "cold", progress=False)
    cols = ["task_id", "value", "nodes", "leaves", "cutoffs", "status"]
    ta = searchlab.load(a)[cols].sort_values("task_id").reset_index(drop=True)
    tb = searchlab.load(b)[cols].sort_values("task_id").reset_index(drop=True)
    assert ta.equals(tb) and len(ta) == len(p.tasks)

"""The dry run: ``searchlab ... --plan`` (and the plan ``--cfg job`` prints on stderr) answers
"what will this run do and how long will it take?" without running anything: its tasks, their
estimated nodes and time, and the compiled engines it needs with their first-use compile cost.

A sweep's figures are computed from its grid's sizes (experiment.grid_size: points x instances
x pruning techniques, each point's estimate standing for its tasks), without building a task,
a position or the engine: 10^6 instances plan at once, and the plan of the default study loads
neither numba, scipy, pandas nor the study families (benchmarks/startup.py). Another kind's
come from the plan its run would make (its planner, without side effects: the trade-off
study's ProbCut fits are not made). Both use the estimates of the progress bar and the budget
guard (``budget.task_work``), so a plan and its run agree.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from searchlab.experiment.budget import human, total_work
from searchlab.experiment.grid_size import plan_size, size_summary
from searchlab.experiment.study import Study
from searchlab.games.registry import cold_seconds

#: The nodes per second one worker searches, for the time estimate: the compiled engine on
#: Connect Four, the games' fastest (docs/running.md, the deep ordering studies: 2.44e9 nodes
#: in 279 s of search; Othello 4.9e6/s, Hex 2.9e6/s; the synthetic-tree kernel 2.6e7/s). The
#: estimated nodes are upper bounds, so the estimate is a rough ceiling, not a promise.
NODES_PER_SECOND = 5e6
#: What a task costs beyond its nodes (the runner's bookkeeping, Parquet; benchmarks/
#: engine_overhead.py: 10,000 tiny tasks in 2.3 s of running)
SECONDS_PER_TASK = 0.00025


@dataclass(frozen=True)
class KindName:
    """A study kind the plan needs by its name only: the sweep, planned from its grid's sizes
    (the command passes it without importing experiment.api and every study family)."""

    name: str


SWEEP = KindName("sweep")


def _counts(kind: Any, cfg: Any, study: Study) -> tuple[int, int, str, list]:
    """(the tasks the run would plan, their estimated work in nodes, the line the run would
    start with, the tasks themselves: [] for a sweep, counted from its grid's sizes)."""
    if kind.name == "sweep":
        size = plan_size(study)
        return size.tasks, size.work, size_summary(size, study), []
    if getattr(kind, "plan", None) is not None:       # the kind's own dry planner
        tasks, line = kind.plan(cfg, study)
        return len(tasks), total_work(tasks), line, tasks
    with tempfile.TemporaryDirectory(prefix="searchlab-plan-") as d:   # a planner may write files
        session = kind.session(cfg, study)
        tasks = session.plan(Path(d), lambda line: None)
    line = session.summary(tasks) if session.summary else \
        f"{session.name}: {len(tasks)} tasks; estimated work {human(total_work(tasks))} nodes"
    return len(tasks), total_work(tasks), line, tasks


def engines(kind: Any, cfg: Any, study: Study, tasks: list) -> Optional[list[str]]:
    """The compiled engines the run needs (warm_up.engines()' names): a sweep's from its
    games and trees, another kind's from its record (StudyKind.engines); None when the kind
    does not say (claim studies: each family's own)."""
    if kind.name == "sweep":
        return [g.name for g in study.games] + (["tree_kernel"] if study.trees else [])
    if getattr(kind, "engines", None) is not None:
        return list(kind.engines(cfg, study, tasks))
    return None


def workers(n_jobs: int) -> int:
    cores = os.cpu_count() or 1
    return max(1, min(cores, n_jobs) if n_jobs > 0 else cores)


def plan_lines(kind: Any, cfg: Any, study: Study, dry: bool = True) -> list[str]:
    """The dry run's lines for a composed, validated config: ``kind`` its StudyKind
    (experiment.api.kind_of; a sweep: SWEEP will do); ``dry``: end with the line saying
    nothing ran."""
    count, nodes, first, tasks = _counts(kind, cfg, study)
    n = workers(study.runner.n_jobs)
    search_s = (nodes / NODES_PER_SECOND + count * SECONDS_PER_TASK) / n
    names = engines(kind, cfg, study, tasks)
    lines = [f"plan ({kind.name}): {first}"]
    if names is None:
        lines.append("engines: the family's own (compiled at first use, 3-40 s of CPU each; "
                     "docs/compile-time.md)")
        compile_s = 0.0
    else:
        names = list(dict.fromkeys(names))
        costs = [(e, cold_seconds(e)) for e in names]
        compile_s = sum(c or 0 for _, c in costs)
        listed = ", ".join(f"{e} (~{c:.0f} s)" if c else f"{e} (not measured)" for e, c in costs)
        lines.append(f"engines: {listed or 'none'}: each compiled once per machine at its first "
                     "use (CPU s, docs/compile-time.md), then loaded from numba's cache in < 1 s")
    lines.append(f"time: ~{_seconds(search_s)} of searching on {n} worker(s) (rough: the estimated "
                 f"nodes at {NODES_PER_SECOND:.0e} nodes/s per worker, on an idle machine)"
                 + (f" + up to ~{_seconds(compile_s)} compiling the engines not yet in numba's cache"
                    if compile_s else "") + " + the report")
    if kind.name != "sweep":
        lines.append(f"counted: the {kind.name} study's planner built its {count} tasks (a sweep "
                     "is counted from its grid's sizes without building them)")
    if dry:
        lines.append("nothing was run (--plan)")
    return lines


def _seconds(s: float) -> str:
    if s < 60:
        return f"{s:.1f} s" if s < 10 else f"{s:.0f} s"
    if s < 3600:
        return f"{s / 60:.1f} min"
    return f"{s / 3600:.1f} h"


__all__ = ["plan_lines", "engines", "NODES_PER_SECOND", "SWEEP", "KindName"]

"""The sweep as a study kind: a validated Study's grid of searches (grid.plan) as one session of
the skeleton (session.py). Rows: one per search, into ``table/`` (store.SCHEMA)."""

from __future__ import annotations

from pathlib import Path

from searchlab.experiment import grid
from searchlab.experiment.session import SearchRows, Session, dump_yaml
from searchlab.experiment.study import Study


def sweep_session(study: Study) -> Session:
    """The sweep's session: its tasks planned now (grid.plan: a ConfigError for an empty grid),
    the budget guard on their estimates, the points the planner trimmed in the final manifest.
    The guard is first asked of the grid's points (grid.check_points), before the instances are
    expanded into tasks."""
    grid.check_points(study, study.runner.max_nodes)
    p = grid.plan(study)
    trimmed = [{("tree" if study.game is None else "game"):
                t[0].model if study.game is None else t[0].name,
                "b": t[1], "d": t[2], "algorithm": t[3], "ordering": t[4], "est_work": t[5]}
               for t in p.trimmed]

    def tasks(run_dir: Path, log) -> list:
        return p.tasks

    return Session(
        kind="sweep", name=study.name, config_hash=study.config_hash,
        config_yaml=dump_yaml(study.config), plan=tasks, rows=SearchRows(),
        settings={"engine": study.engine, "depth": study.depth,
                  "task_max_nodes": study.task_max_nodes, "aspiration": study.aspiration,
                  "tt_size": study.tt_size, "prunings": dict(study.prunings),
                  "plugins": study.plugins},
        guard=lambda max_nodes: grid.check_budget(p, max_nodes),
        summary=lambda _: grid.summary(p, study), final={"trimmed_points": trimmed})


__all__ = ["sweep_session"]

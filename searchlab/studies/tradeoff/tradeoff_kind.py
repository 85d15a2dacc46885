"""The trade-off study's kind record (experiment/study_kind.py), selected by a config's
``tradeoff`` section: its pre-run budget check, session, report, tables."""

from __future__ import annotations

from typing import Any

from searchlab.compile_costs import COLD_SECONDS
from searchlab.experiment.study import Study
from searchlab.experiment.study_kind import StudyKind
from searchlab.games.registry import game_names
from searchlab.studies.tradeoff.tradeoff_config import from_engine, selected_domains
from searchlab.studies.tradeoff.tradeoff_estimate import check_budget
from searchlab.studies.tradeoff.tradeoff_report import tradeoff_tables, write_tradeoff_report
from searchlab.studies.tradeoff.tradeoff_schemas import TABLE_KINDS
from searchlab.studies.tradeoff.tradeoff_tasks import (is_tradeoff_run, plan_line,
                                                        plan_tradeoff_tasks, tradeoff_session)


def dry_plan(cfg: Any, study: Study) -> tuple[list, str]:
    """The dry run's tasks and line: the run's tasks without the ProbCut fits (the fits change
    no task, and making them would write probcut.json)."""
    tc = from_engine(cfg)
    tasks = plan_tradeoff_tasks(tc, {})
    return tasks, plan_line(tc, tasks)


def engines(cfg: Any, study: Study, tasks: list) -> list[str]:
    """The compiled engines of the selected domains (a synthetic domain: the tree kernel)."""
    return [d if d in COLD_SECONDS or d in game_names() else "tree_kernel"
            for d in selected_domains(from_engine(cfg))]


KIND = StudyKind(
    "tradeoff", "tradeoff",
    lambda cfg, study, run=True: check_budget(from_engine(cfg), study.runner.max_nodes),
    lambda cfg, study: tradeoff_session(from_engine(cfg)),
    write_tradeoff_report, is_tradeoff_run, tables=tradeoff_tables, config=from_engine,
    table_kinds=TABLE_KINDS, plan=dry_plan, engines=engines)

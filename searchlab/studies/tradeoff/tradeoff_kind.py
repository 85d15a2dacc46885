"""The trade-off study's kind record (experiment/study_kind.py), selected by a config's
``tradeoff`` section: its pre-run budget check, session, report, tables."""

from __future__ import annotations

from searchlab.experiment.study_kind import StudyKind
from searchlab.studies.tradeoff.tradeoff_config import from_engine
from searchlab.studies.tradeoff.tradeoff_estimate import check_budget
from searchlab.studies.tradeoff.tradeoff_report import tradeoff_tables, write_tradeoff_report
from searchlab.studies.tradeoff.tradeoff_schemas import TABLE_KINDS
from searchlab.studies.tradeoff.tradeoff_tasks import is_tradeoff_run, tradeoff_session

KIND = StudyKind(
    "tradeoff", "tradeoff",
    lambda cfg, study, run=True: check_budget(from_engine(cfg), study.runner.max_nodes),
    lambda cfg, study: tradeoff_session(from_engine(cfg)),
    write_tradeoff_report, is_tradeoff_run, tables=tradeoff_tables, config=from_engine,
    table_kinds=TABLE_KINDS)

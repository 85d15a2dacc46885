"""The parallel study's kind record (experiment/study_kind.py), selected by a config's
``parallel`` section."""

from __future__ import annotations

from searchlab.experiment.study_kind import StudyKind
from searchlab.studies.parallel.parallel_report import write_parallel_report
from searchlab.studies.parallel.parallel_schema import TABLE_KINDS
from searchlab.studies.parallel.parallel_study import from_engine, parallel_session


def engines(cfg: object, study: object, tasks: list) -> list[str]:
    """The simulators the planned tasks need (games' and synthetic trees')."""
    return sorted({f"parallel_{'games' if getattr(t, 'kind', '') == 'game' else 'trees'}"
                   for t in tasks})


KIND = StudyKind("parallel", "parallel", lambda cfg, study, run=True: from_engine(cfg),
                 lambda cfg, study: parallel_session(from_engine(cfg)),
                 write_parallel_report, lambda run_dir: False, config=from_engine,
                 table_kinds=TABLE_KINDS, engines=engines)

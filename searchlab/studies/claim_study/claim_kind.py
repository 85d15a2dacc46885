"""The claim study's kind record (experiment/study_kind.py), selected by a config's
``claim_study`` section; the families it runs are in studies/claim_study/families.py."""

from __future__ import annotations

from searchlab.experiment.study_kind import StudyKind
from searchlab.studies.claim_study.claim_study import (claim_session, from_engine,
                                                       is_claim_study_run, load_tables)
from searchlab.studies.claim_study.claim_study_report import write_claim_study_report

KIND = StudyKind("claim_study", "claim_study", lambda cfg, study, run=True: from_engine(cfg),
                 lambda cfg, study: claim_session(from_engine(cfg)),
                 write_claim_study_report, is_claim_study_run, tables=load_tables,
                 config=from_engine)

"""The sweep's kind record (experiment/study_kind.py): the default kind (no section of its
own), its pre-run checks over the grid, its session, report and policies section."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from searchlab.algorithms.ordering_registry import describe
from searchlab.errors import SearchlabError
from searchlab.experiment import grid
from searchlab.experiment.session import unwritten_report
from searchlab.experiment.store import load
from searchlab.experiment.study import Study
from searchlab.experiment.study_kind import StudyKind
from searchlab.studies.sweep.policies import policies_section
from searchlab.studies.sweep.sweep_export import write_tables
from searchlab.studies.sweep.sweep_report import write_report
from searchlab.studies.sweep.sweep_session import sweep_session


def check(cfg: Any, study: Study, run: bool = True) -> None:
    """The grid's points first: a refusal in time proportional to the grid, not the instances;
    --cfg (run=False) stops there: it prints the config and plans no task."""
    grid.check_points(study, study.runner.max_nodes)
    if run:
        grid.check_budget(grid.plan(study), study.runner.max_nodes)


#: Ordering components that make a study a move-ordering study (policies.md is written).
POLICY_PARTS = {"id", "tt", "killer", "history", "centre", "corners", "captures", "adjacent"}


def policies_report(run_dir: Path, log: Callable[[str], None]) -> None:
    """policies.md: searchlab.studies.sweep.policies' section, for game studies and studies of
    dynamic / game orderings, unless report.md already carries that section."""
    try:
        df = load(run_dir)
        if df.empty or not (df["game"].notna().any() or any(
                POLICY_PARTS & set(describe(o).parts) for o in df["ordering"].unique())):
            return
        report = Path(run_dir) / "report.md"
        if report.exists() and "## Move-ordering policies" in report.read_text():
            return
        text = policies_section(df, Path(run_dir) / "figures", rel_to=Path(run_dir), level=1)
        if text:
            out = Path(run_dir) / "policies.md"
            out.write_text(text.replace("# Move-ordering policies",
                                        f"# {df['experiment'].iloc[0]}: move-ordering policies", 1))
            log(f"report:  {out}")
    except Exception as e:  # noqa: BLE001 -- the table is saved; the report is a bonus
        if isinstance(e, OSError) and not isinstance(e, SearchlabError):   # not written
            raise unwritten_report(run_dir, e) from None
        first = str(e).splitlines()[0] if str(e) else ""
        log(f"report:  policies section failed ({type(e).__name__}: {first})")


KIND = StudyKind("sweep", None, check, lambda cfg, study: sweep_session(study), write_report,
                 lambda run_dir: False, after=policies_report, write_tables=write_tables)

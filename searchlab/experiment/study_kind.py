"""The record of one study kind (sweep, trade-off, parallel, claim study, a plug-in's), as the
CLI, the Python API and searchlab-report see it. Each kind declares its record beside its code
(``searchlab/studies/<family>/*_kind.py``: ``KIND``); the registry
(experiment/kind_registry.py) finds it by name, so the engine imports no study family."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Optional

from searchlab.experiment.schema import ConfigError
from searchlab.experiment.session import Session, report_or_log, run_session
from searchlab.experiment.study import Study
from searchlab.experiment.validation import plain_config, structured


@dataclass(frozen=True)
class StudyKind:
    """One kind of study.

    ``section``: the config section that selects the kind (None: the sweep, the default);
    ``check(cfg, study, run=True)``: the pre-run check (ConfigError, nothing created; ``run=False``:
    the job only prints its config, so nothing is probed or compiled); ``session(cfg, study)``:
    the kind's Session for the skeleton (session.run_session); ``report(run_dir, fig_format="png")``:
    its report writer (report.md, its figures as png, pdf or svg; returns report.md's path);
    ``is_run(run_dir)``: whether a run directory written before manifest.json recorded the kind
    holds a run of this kind (the fallback of experiment.api.kind_of_run); ``after(run_dir, log)``:
    a further report section."""

    name: str
    section: Optional[str]
    check: Callable[..., object]
    session: Callable[[Any, Study], Session]
    report: Callable[..., Path]
    is_run: Callable[[Path], bool]
    after: Optional[Callable[[Path, Callable[[str], None]], None]] = None
    #: the kind's tables for ``searchlab-report --tables`` (name -> DataFrame); None: the
    #: sweep's summary tables of its rows (searchlab.export.summary_tables)
    tables: Optional[Callable[[Path], dict]] = None
    #: the kind's plain config of a composed config (e.g. the trade-off study's TradeoffConfig;
    #: ConfigError naming the key); None: the kind reads the validated Study
    config: Optional[Callable[[Any], Any]] = None
    #: the Parquet tables the kind writes that ``searchlab.load`` reads beside the search rows:
    #: name -> (schema, key columns) (experiment/table_kinds.py kind_of)
    table_kinds: Mapping[str, tuple] = field(default_factory=dict)
    #: ``searchlab-report --tables``' writer (the sweep's: studies/sweep/sweep_export.py
    #: write_tables); None: the sweep kind's
    write_tables: Optional[Callable[..., list]] = None
    #: the structured schema of the kind's section (a dataclass): validation merges the section
    #: onto it before any work (defaults filled; an unknown key or a wrong type is a
    #: ConfigError naming ``section.key``; its ``__post_init__`` may refuse values with a
    #: ConfigError); :meth:`section_of` returns it. None: the kind reads its section itself
    #: (``check``, ``config``)
    schema: Optional[type] = None
    #: the dry run's tasks and first line, ``plan(cfg, study) -> (tasks, line)``, where the
    #: session's planner would have side effects (the trade-off study's ProbCut fits); None:
    #: the session's planner in a temporary directory, and its ``summary`` line
    plan: Optional[Callable[[Any, Study], tuple[list, str]]] = None
    #: the compiled engines a run needs (warm_up's names: ``engines(cfg, study, tasks)``), for
    #: the dry run's compile estimate; None: the kind does not say (each claim family's own)
    engines: Optional[Callable[[Any, Study, list], list[str]]] = None

    def section_of(self, cfg: Any) -> Any:
        """The kind's section of a composed config (DictConfig or mapping): an instance of
        ``schema`` when declared, else its plain containers. Raises ConfigError naming the
        section (missing, not a mapping, an unknown key, a wrong type, a refused value)."""
        if self.section is None:
            raise ConfigError(f"study kind {self.name!r} has no config section")
        value = plain_config(cfg).get(self.section)
        if not isinstance(value, dict):
            raise ConfigError(f"{self.section}: the study's section must be a mapping of its keys; "
                              f"got {value!r}")
        if self.schema is None:
            return value
        allowed = [f.name for f in dataclasses.fields(self.schema)]
        unknown = sorted(k for k in value if k not in allowed)
        if unknown:
            raise ConfigError(f"unknown config key '{self.section}.{unknown[0]}'; allowed keys in "
                              f"{self.section}: {', '.join(allowed)}")
        try:
            return structured(self.schema, value, self.section)
        except (TypeError, ValueError) as e:
            if isinstance(e, ConfigError):
                raise
            raise ConfigError(f"{self.section}: {str(e).splitlines()[0]}") from None

    def run(self, cfg: Any, study: Study, run_dir: Path, progress: bool = True,
            report: Optional[bool] = None, log: Callable[[str], None] = print) -> Path:
        """Run (or resume) the study of a composed config into run_dir with the engine's runner
        (``study.runner``), then its report (``report``: None = ``runner.report``). Raises
        ConfigError (nothing is created) / RunError."""
        write = study.runner.report if report is None else report
        session = self.session(cfg, study)
        if study.plugins:          # every kind's workers import them before their first task
            session = dataclasses.replace(session, settings={**session.settings,
                                                             "plugins": study.plugins})
        return run_session(session, study.runner, Path(run_dir),
                           progress=progress,
                           report=(lambda d, lg: report_or_log(d, self.report, lg, self.after))
                           if write else None, log=log)


__all__ = ["StudyKind"]

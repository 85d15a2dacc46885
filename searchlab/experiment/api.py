"""The experiment engine's entry points: compose a config, run a study into a run directory.

- :func:`run_study` composes ``experiment`` with Hydra's compose API (the same schema and
  validation as the ``searchlab`` command), runs it and returns the run directory (a
  :class:`~searchlab.experiment.run_dir.RunDir`: a Path that shows itself in a notebook).
- :func:`run` runs an already validated Study into a given directory (used by the CLI too).
- :func:`compose` returns the composed DictConfig (for inspection and tests).
"""

from __future__ import annotations

import math
import re
import shlex
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, Optional, Sequence

from hydra import compose as hydra_compose
from hydra import initialize_config_dir
from hydra.core.global_hydra import GlobalHydra
import yaml
from omegaconf import OmegaConf

from searchlab.algorithms.ordering_registry import describe
from searchlab.errors import SearchlabError
from searchlab.studies.sweep.policies import policies_section
from searchlab.experiment import grid as _grid
from searchlab.studies.claim_study.claim_study import claim_session, is_claim_study_run
from searchlab.studies.claim_study.claim_study import from_engine as claim_from_engine
from searchlab.experiment.composition import (available_options, axis_overrides, check_deletions,
                                              config_error_message, register_configs)
from searchlab.studies.parallel.parallel_study import from_engine as parallel_from_engine
from searchlab.studies.parallel.parallel_study import parallel_session
from searchlab.experiment.lock import claim_new
from searchlab.experiment.schema import CONF_DIR, ConfigError
from searchlab.experiment.session import (RunError, Session, recorded_kind, report_or_log,
                                          run_session, unwritten_report)
from searchlab.experiment.store import load  # re-exported (__all__)
from searchlab.experiment import provenance
from searchlab.experiment.run_dir import RunDir
from searchlab.experiment.study import Study
from searchlab.studies.sweep.sweep_session import sweep_session
from searchlab.studies.tradeoff.tradeoff_config import from_engine as tradeoff_from_engine
from searchlab.studies.tradeoff.tradeoff_estimate import check_budget as check_tradeoff_budget
from searchlab.studies.tradeoff.tradeoff_tasks import is_tradeoff_run, tradeoff_session
from searchlab.experiment.validation import validate
# the report writers are handed to the kinds here, at the entry layer: report/ reads tables
# and never dispatches between kinds
from searchlab.studies.sweep.sweep_report import write_report as write_sweep_report
from searchlab.studies.claim_study.claim_study_report import write_claim_study_report
from searchlab.studies.parallel.parallel_report import write_parallel_report
from searchlab.studies.tradeoff.tradeoff_report import tradeoff_tables, write_tradeoff_report
from searchlab.studies.sweep.sweep_export import write_tables
from searchlab.studies.claim_study.claim_study import load_tables as load_claim_tables


def compose(experiment: Optional[str] = None, overrides: Sequence[str] = ()) -> Any:
    """The composed config (DictConfig) of ``experiment`` (None = the defaults) + overrides."""
    register_configs()
    check_deletions(overrides)
    ov = axis_overrides(list(overrides), experiment)
    if experiment:
        ov = [f"experiment={experiment}"] + ov
    try:
        return _compose(ov)
    except AssertionError as e:        # OmegaConf.update below a null node: no key named
        if "Unexpected type for root" not in str(e):
            raise
        raise ConfigError(_below_null(ov)) from None


def _compose(ov: list[str]) -> Any:
    if GlobalHydra.instance().is_initialized():
        GlobalHydra.instance().clear()
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        return hydra_compose(config_name="config", overrides=ov)


def _options_setting(group: str, key: str) -> list[str]:
    """The options of config group ``group`` whose file sets ``key`` (``lmr`` -> lmr_log, ...)."""
    out = []
    for opt in available_options(group):
        try:
            data = yaml.safe_load((CONF_DIR / group / f"{opt}.yaml").read_text())
        except (OSError, yaml.YAMLError):
            continue
        if isinstance(data, dict) and data.get(key) is not None:
            out.append(f"{group}={opt}")
    return out


def _below_null(ov: list[str]) -> str:
    """The message for an override of a key below a null node (``pruning.lmr.after=3`` on a
    config whose pruning option sets no ``lmr``): the override and the null node named."""
    base = _compose([o for o in ov if "." not in o.split("=", 1)[0]])   # the groups chosen
    for o in ov:
        key = o.split("=", 1)[0].lstrip("+")
        steps = key.split(".")
        for i in range(1, len(steps)):
            parent = ".".join(steps[:i])
            if OmegaConf.select(base, parent, default="?") is None:
                opts = _options_setting(steps[0], steps[1]) if i == 2 else []
                hint = f" (options that set it: {', '.join(opts)})" if opts else ""
                return (f"{o}: {parent} is null in this config, so it has no key "
                        f"{steps[i]!r}; choose an option that sets {parent} first{hint}, or "
                        f"give {parent} whole ({parent}={{...}})")
    return "an override sets a key below a null node of the config; choose its option first"


def new_run_dir(study: Study) -> Path:
    """``<results_dir>/<name>/<timestamp>``, claimed (created empty) for this run: unique even
    when two runs start in the same second (lock.claim_new); RunError when it cannot be made."""
    base = Path(study.results_dir) / study.name / time.strftime("%Y-%m-%d_%H-%M-%S")
    try:
        return claim_new(base)
    except OSError as e:
        raise RunError(f"cannot write to output directory {base}: {e.strerror or e}") from None


_PLAIN = re.compile(r"[A-Za-z0-9_./:+*\-]+")


def override_value(value: Any) -> str:
    """A Python value as a Hydra override's value: ``[2, 4]`` -> ``[2,4]``, True -> ``true``,
    None -> ``null``, a dict -> ``{k:v}``, a string as is when plain (``1..5``, ``id+killer``),
    else quoted. Raises ValueError for what an override cannot say (NaN, other types)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"an override value must be finite; got {value!r}")
        return repr(value)
    if isinstance(value, str):
        if _PLAIN.fullmatch(value):
            return value
        return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(override_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ",".join(f"{k}:{override_value(v)}" for k, v in value.items()) + "}"
    raise ValueError(f"an override value must be a number, string, bool, None, list or dict; "
                     f"got {type(value).__name__}")


def override_list(overrides: Sequence[str] | Mapping[str, Any] = (), **kwargs: Any) -> list[str]:
    """Overrides as Hydra strings from a list of ``key=value`` strings, a dict ``{key: value}``
    (dotted keys: ``{"sweep.b": [2, 4]}``) and keyword arguments (``__`` for a dot:
    ``sweep__b=[2, 4]``); values through :func:`override_value`."""
    if isinstance(overrides, str):
        raise ValueError(f"overrides must be a list of key=value strings or a dict, not one string; "
                         f"got {overrides!r} (write [{overrides!r}])")
    if isinstance(overrides, Mapping):
        out = [f"{k}={override_value(v)}" for k, v in overrides.items()]
    else:
        out = [str(o) for o in overrides]
    out += [f"{k.replace('__', '.')}={override_value(v)}" for k, v in kwargs.items()]
    return out


def run_study(experiment: str, overrides: Sequence[str] | Mapping[str, Any] = (),
              output_dir: str | Path | None = None, progress: bool = True, **kwargs: Any) -> RunDir:
    """Compose ``experiment`` (+ overrides), validate, run; return the run dir.

    ``overrides``: Hydra-style ``["sweep.b=[2,4]", "sweep.d=1..5"]``, or a dict
    ``{"sweep.b": [2, 4], "sweep.d": "1..5"}``; keyword arguments add more, ``__`` standing
    for a dot (``sweep__instances=4``, ``runner__n_jobs=1``). ``output_dir``: the run directory
    (created; if it already holds a run of the same config, the run is resumed). None:
    ``<results_dir>/<name>/<timestamp>/`` (or ``runner.resume``). The run's provenance.json
    records the equivalent ``searchlab experiment=... key=value`` command line and the seed.
    Returns a :class:`~searchlab.experiment.run_dir.RunDir` (a Path with a notebook repr).
    Raises ConfigError for a bad config, RunError when the output cannot be written.
    """
    try:
        ov = override_list(overrides, **kwargs)
    except ValueError as e:
        raise ConfigError(str(e)) from None
    try:
        cfg = compose(experiment, ov)
    except Exception as e:  # noqa: BLE001 -- composition errors become one-line ConfigErrors

        raise ConfigError(config_error_message(e)) from None
    study = validate(cfg)
    claimed = output_dir is None and not study.runner.resume
    if output_dir is None:
        output_dir = study.runner.resume or new_run_dir(study)
    line = shlex.join(["searchlab", f"experiment={experiment}", *ov])
    try:
        with provenance.command_line(line):
            return RunDir(kind_of(cfg).run(cfg, study, Path(output_dir), progress=progress))
    except BaseException:
        if claimed:                # a refused run leaves no empty directory behind
            for d in (Path(output_dir), Path(output_dir).parent):
                try:
                    d.rmdir()
                except OSError:
                    break
        raise


@dataclass(frozen=True)
class StudyKind:
    """One kind of study, as the CLI, the Python API and searchlab-report see it.

    ``section``: the config section that selects the kind (None: the sweep, the default);
    ``check(cfg, study, run=True)``: the pre-run check (ConfigError, nothing created; ``run=False``:
    the job only prints its config, so nothing is probed or compiled); ``session(cfg, study)``:
    the kind's Session for the skeleton (session.run_session); ``report(run_dir, fig_format="png")``:
    its report writer (report.md, its figures as png, pdf or svg; returns report.md's path); ``after(run_dir, log)``: a further report section;
    ``is_run(run_dir)``: whether a run directory written before manifest.json recorded the kind
    holds a run of this kind (the fallback of :func:`kind_of_run`)."""

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

    def run(self, cfg: Any, study: Study, run_dir: Path, progress: bool = True,
            report: Optional[bool] = None, log: Callable[[str], None] = print) -> Path:
        """Run (or resume) the study of a composed config into run_dir with the engine's runner
        (``study.runner``), then its report (``report``: None = ``runner.report``). Raises
        ConfigError (nothing is created) / RunError."""
        write = study.runner.report if report is None else report
        return run_session(self.session(cfg, study), study.runner, Path(run_dir),
                           progress=progress,
                           report=(lambda d, lg: report_or_log(d, self.report, lg, self.after))
                           if write else None, log=log)


def _check_sweep(cfg: Any, study: Study, run: bool = True) -> None:
    # the grid's points first: a refusal in time proportional to the grid, not the instances;
    # --cfg (run=False) stops there: it prints the config and plans no task
    _grid.check_points(study, study.runner.max_nodes)
    if run:
        _grid.check_budget(_grid.plan(study), study.runner.max_nodes)


#: The trade-off study's plain config of a composed config (ConfigError naming the key)
tradeoff_config = tradeoff_from_engine


#: The registry: every kind of study, the sweep last (it has no section of its own). A new
#: kind is one entry here; nothing else dispatches between kinds.
KINDS: tuple[StudyKind, ...] = (
    StudyKind("tradeoff", "tradeoff",
              lambda cfg, study, run=True: check_tradeoff_budget(tradeoff_config(cfg),
                                                                 study.runner.max_nodes),
              lambda cfg, study: tradeoff_session(tradeoff_config(cfg)),
              write_tradeoff_report, is_tradeoff_run, tables=tradeoff_tables),
    StudyKind("parallel", "parallel", lambda cfg, study, run=True: parallel_from_engine(cfg),
              lambda cfg, study: parallel_session(parallel_from_engine(cfg)),
              write_parallel_report, lambda run_dir: False),
    StudyKind("claim_study", "claim_study", lambda cfg, study, run=True: claim_from_engine(cfg),
              lambda cfg, study: claim_session(claim_from_engine(cfg)),
              write_claim_study_report, is_claim_study_run, tables=load_claim_tables),
    StudyKind("sweep", None, _check_sweep, lambda cfg, study: sweep_session(study),
              write_sweep_report, lambda run_dir: False,
              after=lambda run_dir, log: _policies_report(run_dir, log)),
)


def kind_of(cfg: Any) -> StudyKind:
    """The kind of a composed config: the first whose section is set, else the sweep."""
    return next(k for k in KINDS if k.section is None or cfg.get(k.section) is not None)


def kind_of_run(run_dir: str | Path) -> StudyKind:
    """The kind of the run stored in run_dir: the one its manifest.json records; for a run
    written before the kind was recorded, the first kind whose ``is_run`` claims it, else the
    sweep."""
    recorded = recorded_kind(run_dir)
    for k in KINDS:
        if k.name == recorded:
            return k
    return next(k for k in KINDS if k.section is None or k.is_run(Path(run_dir)))


def write_run_report(run_dir: str | Path, **sweep_options: Any) -> Path:
    """report.md of any run, by its kind's writer (searchlab-report); ``sweep_options`` (fmt,
    exact, n_resamples, partial) apply to a sweep's report only."""
    kind = kind_of_run(run_dir)
    if kind.section is None:
        return write_sweep_report(Path(run_dir), **sweep_options)
    return kind.report(Path(run_dir), fig_format=sweep_options.get("fmt", "png"))


def run(study: Study, run_dir: Path, progress: bool = True, report: Optional[bool] = None,
        log: Callable[[str], None] = print) -> Path:
    """Run a validated sweep into run_dir (resuming what is there); write report.md at the end
    (``report``: None = ``runner.report``). The process owns run_dir for the whole run
    (searchlab.experiment.lock): RunError when another live process does."""
    return KINDS[-1].run(None, study, Path(run_dir), progress=progress, report=report, log=log)


def write_run_tables(run_dir: str | Path, formats: Any, n_resamples: int = 999,
                     partial: bool = False, **choices: Any) -> list[Path]:
    """``searchlab-report --tables``: the run's tables (its kind's, StudyKind.tables) written to
    ``RUN/tables/`` in ``formats``; a partial run's rows are accepted with ``partial``;
    ``choices``: write_tables' estimators, columns, digits and fit_depths."""
    kind = kind_of_run(run_dir)
    tables = kind.tables(Path(run_dir)) if kind.tables is not None else None
    return write_tables(run_dir, formats=formats, n_resamples=n_resamples, tables=tables,
                        partial=partial, **choices)


def node_caps(run_dir: str | Path) -> dict[str, int]:
    """Each swept ordering's per-search node budget in a run (``Study.max_nodes_for``: its
    ``sweep.max_nodes_by_ordering`` entry, else ``search.max_nodes``), from the run's stored
    config (``<run_dir>/config.yaml``, validated again): how an analysis learns which cap each
    row's search had. Raises FileNotFoundError when the run has no config, ConfigError when it
    no longer validates."""
    study = validate(OmegaConf.load(Path(run_dir) / "config.yaml"))
    return {o: study.max_nodes_for(o) for o in study.orderings}


#: Ordering components that make a study a move-ordering study (policies.md is written).
_POLICY_PARTS = {"id", "tt", "killer", "history", "centre", "corners", "captures", "adjacent"}


def _policies_report(run_dir: Path, log: Callable[[str], None]) -> None:
    """policies.md: searchlab.studies.sweep.policies' section, for game studies and studies of
    dynamic / game orderings, unless report.md already carries that section."""
    try:
        df = load(run_dir)
        if df.empty or not (df["game"].notna().any() or any(
                _POLICY_PARTS & set(describe(o).parts) for o in df["ordering"].unique())):
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


__all__ = ["compose", "run_study", "run", "StudyKind", "KINDS", "kind_of", "kind_of_run",
           "write_run_report", "write_run_tables", "node_caps", "tradeoff_config", "load", "ConfigError", "RunError",
           "RunDir", "override_list", "override_value"]

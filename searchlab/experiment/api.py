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
from pathlib import Path
from typing import Any, Callable, Mapping, Optional, Sequence

from omegaconf import OmegaConf

from searchlab.experiment.composition import compose, config_error_message
from searchlab.experiment import kind_registry
from searchlab.experiment.lock import claim_new
from searchlab.experiment.schema import ConfigError
from searchlab.experiment.session import RunError, recorded_kind
from searchlab.experiment.store import load  # re-exported (__all__)
from searchlab.experiment import provenance
from searchlab.experiment.run_dir import RunDir
from searchlab.experiment.study import Study
from searchlab.experiment.study_kind import StudyKind  # re-exported (__all__)
from searchlab.experiment.validation import validate


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


def tradeoff_config(cfg: Any) -> Any:
    """The trade-off study's plain config of a composed config (ConfigError naming the key)."""
    return kind_registry.study_kind("tradeoff").config(cfg)


def __getattr__(name: str) -> Any:
    # KINDS: every registered kind, the sweep last (experiment/kind_registry.py); imported on
    # first use, so importing this module imports no study family
    if name == "KINDS":
        return kind_registry.study_kinds()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def kind_of(cfg: Any) -> StudyKind:
    """The kind of a composed config: the first whose section is set, else the sweep (the
    registry imports that kind only)."""
    return kind_registry.section_kind(cfg)


def kind_of_run(run_dir: str | Path) -> StudyKind:
    """The kind of the run stored in run_dir: the one its manifest.json records; for a run
    written before the kind was recorded, the first kind whose ``is_run`` claims it, else the
    sweep."""
    recorded = recorded_kind(run_dir)
    for r in kind_registry.kind_refs():
        if r.name == recorded:
            return kind_registry.load_kind(r)
    return next(k for k in kind_registry.study_kinds()
                if k.section is None or k.is_run(Path(run_dir)))


def write_run_report(run_dir: str | Path, **sweep_options: Any) -> Path:
    """report.md of any run, by its kind's writer (searchlab-report); ``sweep_options`` (fmt,
    exact, n_resamples, partial) apply to a sweep's report only."""
    kind = kind_of_run(run_dir)
    if kind.section is None:
        return kind.report(Path(run_dir), **sweep_options)
    return kind.report(Path(run_dir), fig_format=sweep_options.get("fmt", "png"))


def run(study: Study, run_dir: Path, progress: bool = True, report: Optional[bool] = None,
        log: Callable[[str], None] = print) -> Path:
    """Run a validated sweep into run_dir (resuming what is there); write report.md at the end
    (``report``: None = ``runner.report``). The process owns run_dir for the whole run
    (searchlab.experiment.lock): RunError when another live process does."""
    return kind_registry.study_kind("sweep").run(None, study, Path(run_dir), progress=progress,
                                                 report=report, log=log)


def write_run_tables(run_dir: str | Path, formats: Any, n_resamples: int = 999,
                     partial: bool = False, **choices: Any) -> list[Path]:
    """``searchlab-report --tables``: the run's tables (its kind's, StudyKind.tables) written to
    ``RUN/tables/`` in ``formats``; a partial run's rows are accepted with ``partial``;
    ``choices``: write_tables' estimators, columns, digits and fit_depths."""
    kind = kind_of_run(run_dir)
    tables = kind.tables(Path(run_dir)) if kind.tables is not None else None
    write_tables = kind.write_tables or kind_registry.study_kind("sweep").write_tables
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


__all__ = ["compose", "run_study", "run", "StudyKind", "kind_of", "kind_of_run",
           "write_run_report", "write_run_tables", "node_caps", "tradeoff_config", "load", "ConfigError", "RunError",
           "RunDir", "override_list", "override_value"]

"""The experiment engine's entry points: compose a config, run a study into a run directory.

- :func:`run_study` composes ``experiment`` with Hydra's compose API (the same schema and
  validation as the ``searchlab`` command), runs it and returns the run directory.
- :func:`run` runs an already validated Study into a given directory (used by the CLI too).
- :func:`compose` returns the composed DictConfig (for inspection and tests).
"""

from __future__ import annotations

import json
import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

from hydra import compose as hydra_compose
from hydra import initialize_config_dir
from hydra.core.global_hydra import GlobalHydra
from omegaconf import OmegaConf

from searchlab.analysis.policies import policies_section
from searchlab.experiment import grid as _grid
from searchlab.experiment import lock, provenance, store
from searchlab.experiment import parallel_study
from searchlab.experiment.composition import axis_overrides, config_error_message, register_configs
from searchlab.experiment.run_status import check_not_all_failed
from searchlab.experiment.runner import FAULT_ENV, INFLIGHT_DIR, RunSettings, execute
from searchlab.experiment.schema import CONF_DIR, ConfigError
from searchlab.experiment.store import load  # re-exported (__all__)
from searchlab.experiment.study import Study
from searchlab.experiment.claimstudy import ClaimStudyRunError, is_claim_study_run
from searchlab.experiment.claimstudy import from_engine as claim_study_config
from searchlab.experiment.claimstudy import run_claim_study as _run_claim_study
from searchlab.experiment.tradeoff.config import from_engine as tradeoff_config
from searchlab.experiment.tradeoff.estimate import check_budget as check_tradeoff_budget
from searchlab.experiment.tradeoff.tasks import TradeoffRunError, is_tradeoff_run
from searchlab.experiment.tradeoff.tasks import run_tradeoff as _run_tradeoff
from searchlab.experiment.validation import validate
from searchlab.report.build import write_report


class RunError(RuntimeError):
    """A run could not complete for a reason outside the config (output directory, resume)."""


def compose(experiment: Optional[str] = None, overrides: Sequence[str] = ()) -> Any:
    """The composed config (DictConfig) of ``experiment`` (None = the defaults) + overrides."""
    register_configs()
    ov = axis_overrides(list(overrides), experiment)
    if experiment:
        ov = [f"experiment={experiment}"] + ov
    if GlobalHydra.instance().is_initialized():
        GlobalHydra.instance().clear()
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        return hydra_compose(config_name="config", overrides=ov)


def new_run_dir(study: Study) -> Path:
    stamp = time.strftime("%Y-%m-%d_%H-%M-%S")
    base = Path(study.results_dir) / study.name / stamp
    path, k = base, 1
    while path.exists():
        path = base.with_name(f"{stamp}_{k}")
        k += 1
    return path


def run_study(experiment: str, overrides: Sequence[str] = (), output_dir: str | Path | None = None,
              progress: bool = True) -> Path:
    """Compose ``experiment`` (+ Hydra-style overrides), validate, run; return the run dir.

    ``output_dir``: the run directory (created; if it already holds a run of the same config,
    the run is resumed). None: ``<results_dir>/<name>/<timestamp>/`` (or ``runner.resume``).
    Raises ConfigError for a bad config, RunError when the output cannot be written.
    """
    try:
        cfg = compose(experiment, overrides)
    except Exception as e:  # noqa: BLE001 -- composition errors become one-line ConfigErrors

        raise ConfigError(config_error_message(e)) from None
    study = validate(cfg)
    if output_dir is None:
        output_dir = study.runner.resume or new_run_dir(study)
    return kind_of(cfg).run(cfg, study, Path(output_dir), progress=progress)


is_parallel = parallel_study.is_parallel
parallel_config = parallel_study.from_engine


def run_parallel(cfg: Any, study: Study, run_dir: Path, progress: bool = True,
                 log: Callable[[str], None] = print) -> Path:
    """Run (or resume) the parallel-search study of a composed config into run_dir with the
    engine's runner (``study.runner``), then its report. Raises ConfigError / RunError."""
    pc = parallel_config(cfg)
    try:
        owned = lock.acquire(Path(run_dir))        # the same ownership rule as a sweep's run
    except lock.RunLockedError as e:
        raise RunError(str(e)) from None
    try:
        parallel_study.run_parallel(pc, study.runner, Path(run_dir),
                                    progress=progress and study.runner.progress,
                                    fault=os.environ.get(FAULT_ENV) or None, log=log)
    except parallel_study.ParallelRunError as e:
        raise RunError(str(e)) from None
    finally:
        owned.release()
    if study.runner.report:
        _report(run_dir, log)
    log(f"table:   {Path(run_dir) / 'table'}  (searchlab.load({str(run_dir)!r}))")
    return Path(run_dir)


def is_tradeoff(cfg: Any) -> bool:
    """Whether a composed config is the trade-off study's (it has a ``tradeoff`` section)."""
    return cfg.get("tradeoff") is not None


def is_claim_study(cfg: Any) -> bool:
    """Whether a composed config is a claim family's study (it has a ``claim_study`` section)."""
    return cfg.get("claim_study") is not None


def _run_locked_study(run_dir: Path, body: Callable[..., Any], config: Any, study: Study, progress: bool,
                     log: Callable[[str], None], errors: tuple[type[Exception], ...]) -> None:
    """``body(config, runner, run_dir, progress=, fault=, log=)`` (a study that is not a sweep)
    while this process owns run_dir (the same rule as a sweep's run), its ``errors`` turned into
    RunError; then the report."""
    try:
        owned = lock.acquire(Path(run_dir))
    except lock.RunLockedError as e:
        raise RunError(str(e)) from None
    try:
        body(config, study.runner, Path(run_dir), progress=progress and study.runner.progress,
             fault=os.environ.get(FAULT_ENV) or None, log=log)
    except errors as e:
        raise RunError(str(e)) from None
    finally:
        owned.release()
    if study.runner.report:
        _report(run_dir, log)


def run_claim_study(cfg: Any, study: Study, run_dir: Path, progress: bool = True,
                    log: Callable[[str], None] = print) -> Path:
    """Run (or resume) the claim study of a composed config (experiment=chance|multiplayer)
    into run_dir with the engine's runner (``study.runner``), then its report. Raises
    ConfigError (a bad ``claim_study`` section: nothing is created) / RunError."""
    _run_locked_study(run_dir, _run_claim_study, claim_study_config(cfg), study, progress, log, (ClaimStudyRunError,))
    return Path(run_dir)


def run_tradeoff(cfg: Any, study: Study, run_dir: Path, progress: bool = True,
                 log: Callable[[str], None] = print) -> Path:
    """Run (or resume) the trade-off study of a composed config into run_dir with the engine's
    runner (``study.runner``), then its report. Raises ConfigError (a bad config, or a task
    estimated above ``runner.max_nodes``: nothing is created) / RunError."""
    tc = tradeoff_config(cfg)
    check_tradeoff_budget(tc, study.runner.max_nodes)
    _run_locked_study(run_dir, _run_tradeoff, tc, study, progress, log, (TradeoffRunError,))
    log(f"tables:  {Path(run_dir) / 'table'}, {Path(run_dir) / 'games'}  "
        f"(searchlab.load({str(run_dir)!r}))")
    return Path(run_dir)


@dataclass(frozen=True)
class StudyKind:
    """One kind of study, as the CLI, the Python API and the report see it.

    ``section``: the config section that selects the kind (None: the sweep, the default);
    ``check(cfg, study, run=True)``: the pre-run check (ConfigError, nothing created; its return
    value is unused; ``run=False``: the job only prints its config, so nothing is probed or
    compiled); ``run(cfg, study,
    run_dir, progress=)``: run or resume into run_dir, then its report; ``is_run(run_dir)``:
    whether a run directory holds a run of this kind (its report then is not the sweep's
    policies section)."""

    name: str
    section: Optional[str]
    check: Callable[..., object]
    run: Callable[..., Path]
    is_run: Callable[[Path], bool]


def _check_sweep(cfg: Any, study: Study, run: bool = True) -> None:
    _grid.check_budget(_grid.plan(study, check_support=run), study.runner.max_nodes)


def _run_sweep(cfg: Any, study: Study, run_dir: Path, progress: bool = True) -> Path:
    return run(study, run_dir, progress=progress)


#: The registry: every kind of study, the sweep last (it has no section of its own). A new
#: kind is one entry here; nothing else dispatches between kinds.
KINDS: tuple[StudyKind, ...] = (
    StudyKind("tradeoff", "tradeoff",
              lambda cfg, study, run=True: check_tradeoff_budget(tradeoff_config(cfg), study.runner.max_nodes),
              lambda cfg, study, run_dir, progress=True: run_tradeoff(cfg, study, run_dir, progress=progress),
              is_tradeoff_run),
    StudyKind("parallel", "parallel",
              lambda cfg, study, run=True: parallel_config(cfg),
              lambda cfg, study, run_dir, progress=True: run_parallel(cfg, study, run_dir, progress=progress),
              parallel_study.is_parallel_run),
    StudyKind("claim_study", "claim_study",
              lambda cfg, study, run=True: claim_study_config(cfg),
              lambda cfg, study, run_dir, progress=True: run_claim_study(cfg, study, run_dir, progress=progress),
              is_claim_study_run),
    StudyKind("sweep", None, _check_sweep, _run_sweep, lambda run_dir: False),
)


def kind_of(cfg: Any) -> StudyKind:
    """The kind of a composed config: the first whose section is set, else the sweep."""
    return next(k for k in KINDS if k.section is None or cfg.get(k.section) is not None)


def kind_of_run(run_dir: str | Path) -> StudyKind:
    """The kind of the run stored in run_dir (the sweep when no other kind claims it)."""
    return next(k for k in KINDS if k.section is None or k.is_run(Path(run_dir)))


def _dump_config(study: Study) -> str:
    return OmegaConf.to_yaml(OmegaConf.create(study.config))


def node_caps(run_dir: str | Path) -> dict[str, int]:
    """Each swept ordering's per-search node budget in a run (``Study.max_nodes_for``: its
    ``sweep.max_nodes_by_ordering`` entry, else ``search.max_nodes``), from the run's stored
    config (``<run_dir>/config.yaml``, validated again): how an analysis learns which cap each
    row's search had. Raises FileNotFoundError when the run has no config, ConfigError when it
    no longer validates."""
    study = validate(OmegaConf.load(Path(run_dir) / "config.yaml"))
    return {o: study.max_nodes_for(o) for o in study.orderings}


def prepare(study: Study, run_dir: Path, log: Callable[[str], None] = print):
    """Plan and guard the study; lock and check the run directory. Returns (plan, resumed,
    the held lock); RunError (the lock released) when the directory cannot be used."""
    p = _grid.plan(study)
    _grid.check_budget(p, study.runner.max_nodes)
    run_dir = Path(run_dir)
    if run_dir.exists() and not run_dir.is_dir():
        raise RunError(f"cannot write to output directory {run_dir}: it is a file")
    created = not run_dir.exists()
    try:
        owned = lock.acquire(run_dir)
    except lock.RunLockedError as e:
        raise RunError(str(e)) from None
    except OSError as e:
        raise RunError(f"cannot write to output directory {run_dir}: {e.strerror or e}") from None
    if owned.previous:
        log(f"resume: took over the lock of {lock.describe(owned.previous)}, which is no longer "
            "running")
    try:
        return p, _check_run_dir(study, run_dir), owned
    except BaseException:
        owned.release()
        if created:                       # leave nothing behind for a run that did not start
            shutil.rmtree(run_dir, ignore_errors=True)
        raise


def _check_run_dir(study: Study, run_dir: Path) -> bool:
    """Whether run_dir already holds a run (resumed); RunError if it cannot be used."""
    prov = run_dir / "provenance.json"
    resumed = prov.exists() or bool(store.list_parts(run_dir))
    if study.runner.resume and not resumed:
        raise RunError(f"runner.resume: {run_dir} holds no searchlab run (no provenance.json "
                       "and no table parts)")
    if resumed:
        try:
            old = json.loads(prov.read_text()).get("config_hash") if prov.exists() else None
        except (OSError, ValueError):
            old = None
        if old is not None and old != study.config_hash:
            raise RunError(
                f"{run_dir} holds a run of a different config (hash {old}, this config "
                f"{study.config_hash}); resume it with its own config, or choose a new directory")
    try:
        store.check_writable(run_dir)
    except store.StoreError as e:
        raise RunError(str(e)) from None
    return resumed


def run(study: Study, run_dir: Path, progress: bool = True, report: Optional[bool] = None,
        log: Callable[[str], None] = print) -> Path:
    """Run a validated study into run_dir (resuming what is there); write report.md at the end.
    The process owns run_dir for the whole run (searchlab.experiment.lock): RunError when
    another live process does."""
    run_dir = Path(run_dir)
    p, resumed, owned = prepare(study, run_dir, log)
    try:
        return _run_owned(study, run_dir, p, resumed, progress, report, log)
    finally:
        owned.release()


def _run_owned(study: Study, run_dir: Path, p: Any, resumed: bool, progress: bool,
               report: Optional[bool], log: Callable[[str], None]) -> Path:
    r = study.runner
    existing, msgs = store.recover(run_dir) if resumed else (None, [])
    for m in msgs:
        log(f"resume: {m}")
    done = store.done_ids(existing)
    planned = {t.task_id for t in p.tasks}
    todo = [t for t in p.tasks if t.task_id not in done]
    if resumed:
        log(f"resume: {len(done & planned)} of {len(p.tasks)} tasks already in {run_dir}; "
            f"running the {len(todo)} missing")
    else:
        log(_grid.summary(p, study))
    try:
        (run_dir / "config.yaml").write_text(_dump_config(study))
        head, dirty = provenance.git_state()
        provenance.add_session(run_dir, study.config_hash, provenance.session_record(
            r.n_jobs, r.backend, len(todo), resumed))
        # the starting manifest: a run killed from here on is known to be incomplete
        provenance.write_json_atomic(run_dir / "manifest.json", {
            "experiment": study.name, "config_hash": study.config_hash, "tasks": len(p.tasks),
            "rows": len(done & planned), "complete": not todo, "running": True})
    except OSError as e:
        raise RunError(f"cannot write to output directory {run_dir}: {e.strerror or e}") from None
    settings = RunSettings(
        experiment=study.name, engine=study.engine, depth=study.depth,
        task_max_nodes=study.task_max_nodes, config_hash=study.config_hash,
        version=provenance.version(), commit=provenance.commit_label(),
        marker_dir=str(run_dir / INFLIGHT_DIR), fault=os.environ.get(FAULT_ENV) or None,
        aspiration=study.aspiration, tt_size=study.tt_size, prunings=dict(study.prunings),
        parent_pid=os.getpid() if r.backend == "loky" else None)
    writer = store.PartWriter(run_dir)
    try:
        outcome = execute(todo, settings, r, writer, progress=progress and r.progress,
                          already_done=len(p.tasks) - len(todo), total=len(p.tasks), log=log)
    except store.StoreError as e:
        raise RunError(f"{e}; the parts written so far are kept: resume with "
                       f"runner.resume={run_dir}") from None
    except KeyboardInterrupt:
        log(f"interrupted: the parts written so far are kept; resume with runner.resume={run_dir}")
        raise
    shutil.rmtree(run_dir / INFLIGHT_DIR, ignore_errors=True)
    final, _ = store.recover(run_dir, quarantine=False)
    n_rows = 0 if final is None else final.num_rows
    status_counts: dict[str, int] = {}
    if final is not None:
        for s in final.column("status").to_pylist():
            status_counts[s] = status_counts.get(s, 0) + 1
    manifest = {
        "experiment": study.name, "config_hash": study.config_hash, "tasks": len(p.tasks),
        "rows": n_rows, "status": status_counts, "complete": n_rows >= len(p.tasks),
        "trimmed_points": [
            {("tree" if study.game is None else "game"):
                 t[0].model if study.game is None else t[0].name,
             "b": t[1], "d": t[2], "algorithm": t[3], "ordering": t[4],
             "est_work": t[5]} for t in p.trimmed],
        "session_seconds": round(outcome.seconds, 3), "worker_crashes": outcome.crashes,
    }
    provenance.write_json_atomic(run_dir / "manifest.json", manifest)
    provenance.finish_session(run_dir, {"finished": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
                                        "seconds": round(outcome.seconds, 3),
                                        "ran": outcome.ran, "crashes": outcome.crashes})
    log(f"{study.name}: {n_rows} rows ({', '.join(f'{k} {v}' for k, v in sorted(status_counts.items()))}) "
        f"in {outcome.seconds:.1f} s")
    if final is not None and todo:
        ran = {t.task_id for t in todo}
        failed = [{"task_id": tid, "error": err, "label": f"task {tid}"} for tid, st, err in zip(
            final.column("task_id").to_pylist(), final.column("status").to_pylist(),
            final.column("error").to_pylist()) if tid in ran and st == "failed"]
        check_not_all_failed(failed, len(todo), run_dir, RunError)
    if report if report is not None else r.report:
        _report(run_dir, log)
    log(f"table:   {store.table_dir(run_dir)}  (searchlab.load({str(run_dir)!r}))")
    return run_dir


#: Ordering components that make a study a move-ordering study (policies.md is written).
_POLICY_PARTS = {"id", "tt", "killer", "history", "centre", "corners", "captures", "adjacent"}


def _policies_report(run_dir: Path, log: Callable[[str], None]) -> None:
    """policies.md: searchlab.analysis.policies' section, for game studies and studies of
    dynamic / game orderings, unless report.md already carries that section."""
    try:
        df = load(run_dir)
        if df.empty or not (df["game"].notna().any() or any(
                _POLICY_PARTS & set(str(o).split("+")) for o in df["ordering"].unique())):
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
        first = str(e).splitlines()[0] if str(e) else ""
        log(f"report:  policies section failed ({type(e).__name__}: {first})")


def _report(run_dir: Path, log: Callable[[str], None]) -> None:
    # the policies section is for sweeps only
    tradeoff = kind_of_run(run_dir).section is not None
    try:
        path = write_report(run_dir)
    except Exception as e:  # noqa: BLE001 -- the table is saved; the report is a bonus
        first = str(e).splitlines()[0] if str(e) else ""
        log(f"report:  failed ({type(e).__name__}: {first}); the table is complete")
        if not tradeoff:
            _policies_report(run_dir, log)
        return
    log(f"report:  {path}")
    if not tradeoff:
        _policies_report(run_dir, log)
    figs = sorted(Path(run_dir).glob("*.png")) + sorted(Path(run_dir).glob("figures/*"))
    if figs:
        log(f"figures: {figs[0].parent}")


__all__ = ["compose", "run_study", "run", "StudyKind", "KINDS", "kind_of", "kind_of_run", "run_tradeoff", "is_tradeoff", "run_claim_study",
           "is_claim_study", "run_parallel", "is_parallel", "load", "ConfigError",
           "RunError"]

"""One session of a study, for every kind: the skeleton written once.

A study kind (the sweep, the trade-off study, the parallel study, a claim family's study) hands
:func:`run_session` a :class:`Session` built from its plain config: its name, config hash and
config text, its planner (the tasks, a function of the config and its seed only), the RunSettings
fields of its tasks and how its rows are stored (:class:`SearchRows` for search tasks,
:class:`EnvelopeRows` for tasks that bring their own ``run``/``failed``). The skeleton does the
rest, the same way for every kind:

- budget guard (``Session.guard``, before anything is created);
- lock: the process owns the run directory for the whole session (lock.py); a directory that
  cannot be used raises RunError and a directory created for a run that did not start is removed;
- resume: a directory holding a run of another config is refused; the tasks whose rows are
  stored are not run again;
- manifest.json: written when the session starts (``running``) and when it ends; it records the
  run's kind (``kind``), which :func:`recorded_kind` reads back;
- config.yaml, provenance.json (one session record per session);
- runner (runner.execute) and store (store.PartWriter parts, one folder per row kind);
- a session whose every task failed raises RunError; then the report writer, if one is given.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Optional

import pyarrow as pa
import pyarrow.parquet as pq
import yaml

from searchlab.errors import SearchlabError
from searchlab.experiment import lock, provenance, store
from searchlab.experiment.run_status import MANIFEST, check_not_all_failed, part_names
from searchlab.experiment.runner import FAULT_ENV, INFLIGHT_DIR, RunSettings, execute

Log = Callable[[str], None]


class RunError(RuntimeError):
    """A run could not complete for a reason outside the config (output directory, resume)."""


def dump_yaml(data: dict) -> str:
    """The text of config.yaml beside a run's tables: ``data``'s plain values (tuples as lists),
    keys in their order."""
    return yaml.safe_dump(json.loads(json.dumps(data)), sort_keys=False, default_flow_style=False, allow_unicode=True)


class SearchRows:
    """The rows of search tasks (grid.Task): the runner's rows go to ``table/`` as they are; a
    resumed run's damaged parts are set aside first (store.recover)."""

    folders = (store.TABLE_DIR,)

    def done(self, run_dir: Path, resumed: bool, log: Log) -> set[str]:
        existing, msgs = store.recover(run_dir) if resumed else (None, [])
        for m in msgs:
            log(f"resume: {m}")
        return set() if existing is None else set(existing.column("task_id").to_pylist())

    def writer(self, run_dir: Path) -> store.PartWriter:
        return store.PartWriter(run_dir)

    def outcome(self, run_dir: Path, writer: Any, tasks: list, todo: list,
                name: str, seconds: float) -> tuple[dict, list[dict], list[str]]:
        """(manifest entries, failures of this session's tasks, log lines) from the table."""
        final, _ = store.recover(run_dir, quarantine=False)
        n_rows = 0 if final is None else final.num_rows
        # complete: every planned task has a row (resume refused parts of other runs first)
        stored = set() if final is None else set(final.column("task_id").to_pylist())
        counts: dict[str, int] = {}
        failed: list[dict] = []
        if final is not None:
            ran = {t.task_id for t in todo}
            for tid, st, err in zip(final.column("task_id").to_pylist(),
                                    final.column("status").to_pylist(),
                                    final.column("error").to_pylist()):
                counts[st] = counts.get(st, 0) + 1
                if tid in ran and st == "failed":
                    failed.append({"task_id": tid, "error": err, "label": f"task {tid}"})
        line = (f"{name}: {n_rows} rows ({', '.join(f'{k} {v}' for k, v in sorted(counts.items()))}) "
                f"in {seconds:.1f} s")
        return ({"rows": n_rows, "status": counts,
                 "complete": all(t.task_id in stored for t in tasks)}, failed,
                [line])

    def cpu(self, writer: Any) -> Optional[tuple[float, dict]]:
        return None


class EnvelopeWriter:
    """The runner's writer for envelopes (dicts with ``task_id``, ``status``, ``rows``, and
    optionally ``kind`` and ``cpu_key``): each row kind's rows through its own store.PartWriter
    (its folder and schema, made at the kind's first rows); failures and CPU seconds kept."""

    def __init__(self, run_dir: Path, folders: Mapping[Optional[str], tuple[str, pa.Schema]]) -> None:
        self.run_dir, self.folders = Path(run_dir), folders
        self.parts: dict[Optional[str], store.PartWriter] = {}
        self.failed: list[dict] = []
        self.cpu = 0.0
        self.cpu_by: dict[str, float] = {}
        self.rows = 0

    def write(self, envelopes: list[dict]) -> None:
        rows: dict[Optional[str], list[dict]] = {}
        for e in envelopes:
            if e["status"] != "ok":
                self.failed.append({k: e.get(k) for k in ("task_id", "label", "error", "attempts")})
                continue
            rows.setdefault(e.get("kind"), []).extend(e["rows"])
            self.cpu += e["cpu"]
            if e.get("cpu_key"):
                self.cpu_by[e["cpu_key"]] = self.cpu_by.get(e["cpu_key"], 0.0) + e["cpu"]
        for kind, rs in rows.items():
            self.rows += len(rs)
            if rs:
                if kind not in self.parts:
                    self.parts[kind] = store.PartWriter(self.run_dir, *self.folders[kind])
                self.parts[kind].write(rs)


@dataclass(frozen=True)
class EnvelopeRows:
    """The rows of tasks with their own ``run``/``failed`` (envelopes): ``folders`` maps an
    envelope's ``kind`` (None: an envelope without one) to the (folder, schema) of its rows."""

    folders_by_kind: Mapping[Optional[str], tuple[str, pa.Schema]]

    @property
    def folders(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(f for f, _ in self.folders_by_kind.values()))

    def done(self, run_dir: Path, resumed: bool, log: Log) -> set[str]:
        """The ids of the tasks whose rows are stored in the kind's folders (resume)."""
        ids: set[str] = set()
        for folder in self.folders if resumed else ():
            for p in sorted((Path(run_dir) / folder).glob("part-*.parquet")):
                if "task_id" in pq.read_schema(p).names:
                    ids.update(x for x in pq.read_table(p, columns=["task_id"])
                               .column("task_id").to_pylist() if x)
        return ids

    def writer(self, run_dir: Path) -> EnvelopeWriter:
        return EnvelopeWriter(run_dir, self.folders_by_kind)

    def outcome(self, run_dir: Path, writer: EnvelopeWriter, tasks: list, todo: list,
                name: str, seconds: float) -> tuple[dict, list[dict], list[str]]:
        done = f"{len(todo) - len(writer.failed)} of {len(todo)} tasks"
        return ({"failed": writer.failed, "complete": not writer.failed}, writer.failed,
                [f"failed: {f['label']}: {f['error']}" for f in writer.failed]
                + [f"{name}: {writer.rows} rows ({done}) in {seconds:.1f} s"])

    def cpu(self, writer: EnvelopeWriter) -> Optional[tuple[float, dict]]:
        return writer.cpu, writer.cpu_by


def _no_guard(max_nodes: int) -> None:
    return None


@dataclass(frozen=True)
class Session:
    """What a study kind hands the skeleton for one run.

    ``kind``: recorded in manifest.json (``sweep``, ``tradeoff``, ``parallel``,
    ``claim_study:<family>``); ``plan(run_dir, log)``: the tasks (it may write the kind's own
    files first, e.g. the trade-off study's probcut.json); ``settings``: the RunSettings fields
    of the kind's tasks beyond the skeleton's; ``rows``: SearchRows or EnvelopeRows;
    ``guard(max_nodes)``: the budget guard (ConfigError, before anything is created);
    ``counts(tasks)``: the manifest's task counts (default ``{"tasks": len(tasks)}``: the tasks
    whose rows searchlab.load() counts); ``summary(tasks)``: the line a new run starts with;
    ``final``: further entries of the final manifest; ``finish(record, todo)``: further entries
    of the session's provenance record; ``reader``: the function that reads the run's tables
    back (named in the session's last line)."""

    kind: str
    name: str
    config_hash: str
    config_yaml: str
    plan: Callable[[Path, Log], list]
    rows: Any
    settings: Mapping[str, Any] = field(default_factory=dict)
    guard: Callable[[int], None] = _no_guard
    counts: Optional[Callable[[list], dict]] = None
    summary: Optional[Callable[[list], str]] = None
    final: Mapping[str, Any] = field(default_factory=dict)
    finish: Optional[Callable[[dict, list], dict]] = None
    reader: str = "searchlab.load"


def recorded_kind(run_dir: str | Path) -> Optional[str]:
    """The kind manifest.json records for the run (``claim_study:chance`` -> ``claim_study``);
    None for a run written before the kind was recorded (or no manifest)."""
    try:
        kind = json.loads((Path(run_dir) / MANIFEST).read_text()).get("kind")
    except (OSError, ValueError, AttributeError):
        return None
    return kind.split(":", 1)[0] if isinstance(kind, str) and kind else None


def _check_run_dir(run_dir: Path, config_hash: str, must_resume: bool) -> bool:
    """Whether run_dir already holds a run (resumed); RunError if it cannot be used."""
    prov = run_dir / "provenance.json"
    resumed = prov.exists() or bool(store.list_parts(run_dir))
    if must_resume and not resumed:
        raise RunError(f"runner.resume: {run_dir} holds no searchlab run (no provenance.json "
                       "and no table parts)")
    if resumed:
        try:
            old = json.loads(prov.read_text()).get("config_hash") if prov.exists() else None
        except (OSError, ValueError):
            old = None
        if old not in (None, "", config_hash):
            raise RunError(
                f"{run_dir} holds a run of a different config (hash {old}, this config "
                f"{config_hash}); resume it with its own config, or choose a new directory")
    try:
        store.check_writable(run_dir)
    except store.StoreError as e:
        raise RunError(str(e)) from None
    return resumed


def open_run_dir(run_dir: Path, config_hash: str, must_resume: bool,
                 log: Log = print) -> tuple[bool, lock.RunLock]:
    """Lock and check the run directory: (resumed, the held lock). RunError (the lock released,
    a directory made for this run removed) when the directory cannot be used."""
    run_dir = Path(run_dir)
    if run_dir.exists() and not run_dir.is_dir():
        raise RunError(f"cannot write to output directory {run_dir}: it is a file")
    # an empty directory is one claimed for this run (api.new_run_dir, hydra.run.dir)
    created = not run_dir.exists() or not any(run_dir.iterdir())
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
        return _check_run_dir(run_dir, config_hash, must_resume), owned
    except BaseException:
        owned.release()
        if created:                       # leave nothing behind for a run that did not start
            shutil.rmtree(run_dir, ignore_errors=True)
        raise


def unwritten_report(run_dir: Path, e: OSError) -> RunError:
    """The RunError of a report that could not be written (the table is complete)."""
    return RunError(f"the report of {run_dir} could not be written ({e.strerror or e}); the "
                    f"table is complete: write the report again with searchlab-report {run_dir}")
def _seed(config_yaml: str) -> int | None:
    """The root seed of a run's config (None when it has none)."""
    try:
        cfg = yaml.safe_load(config_yaml)
    except yaml.YAMLError:
        return None
    seed = cfg.get("seed") if isinstance(cfg, dict) else None
    return seed if isinstance(seed, int) and not isinstance(seed, bool) else None


def report_or_log(run_dir: Path, writer: Callable[[Path], Path], log: Log,
                 after: Optional[Callable[[Path, Log], None]] = None) -> None:
    """The run's report by ``writer(run_dir)``; a failure is one log line (the tables are
    saved; the report is a bonus), then ``after`` (a further section of the kind). A report
    that could not be written (an OSError: disk full, permissions) raises RunError: the
    command must not exit 0 without the report it promised."""
    try:
        path = writer(run_dir)
    except Exception as e:  # noqa: BLE001 -- the table is saved; the report is a bonus
        if isinstance(e, OSError) and not isinstance(e, SearchlabError):   # not written
            raise unwritten_report(run_dir, e) from None
        first = str(e).splitlines()[0] if str(e) else ""
        log(f"report:  failed ({type(e).__name__}: {first}); the table is complete")
        if after:
            after(run_dir, log)
        return
    log(f"report:  {path}")
    if after:
        after(run_dir, log)
    figs = sorted(Path(run_dir).glob("*.png")) + sorted(Path(run_dir).glob("figures/*"))
    if figs:
        log(f"figures: {figs[0].parent}")


def run_session(s: Session, runner: Any, run_dir: Path, *, progress: bool = True,
                report: Optional[Callable[[Path, Log], None]] = None, log: Log = print) -> Path:
    """Run (or resume) the session's study into run_dir with the engine's runner settings
    ``runner`` (a validated RunnerConfig: backend, n_jobs, retries, batching, resume); then
    ``report(run_dir, log)`` if given. Raises ConfigError (the guard: nothing is created) or
    RunError (the directory cannot be used or written, every task of the session failed)."""
    s.guard(runner.max_nodes)
    run_dir = Path(run_dir)
    resumed, owned = open_run_dir(run_dir, s.config_hash, bool(runner.resume), log)
    try:
        foreign = store.foreign_parts(run_dir, s.rows.folders) if resumed else []
        if foreign:
            raise RunError(f"{run_dir} holds {len(foreign)} part(s) of another run, e.g. "
                           f"{foreign[0]}; move them out before resuming (their rows are not "
                           "this run's)")
        _run_owned(s, runner, run_dir, resumed, progress, log)
        if report is not None:
            report(run_dir, log)
    finally:
        owned.release()
    folders = [str(run_dir / f) for f in s.rows.folders]
    read = f"{s.reader}({str(run_dir)!r})"
    log(f"table:   {folders[0]}  ({read})" if len(folders) == 1 else
        f"tables:  {', '.join(folders)}  ({read})")
    return run_dir


def _run_owned(s: Session, runner: Any, run_dir: Path, resumed: bool, progress: bool,
               log: Log) -> None:
    t0 = time.perf_counter()
    try:
        tasks = s.plan(run_dir, log)
    except SearchlabError as e:   # a plan the config allows but the data cannot give (openings)
        first = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise RunError(f"{s.name}: cannot plan the study: {first}") from None
    done = s.rows.done(run_dir, resumed, log)
    todo = [t for t in tasks if t.task_id not in done]
    if resumed:
        log(f"resume: {len(tasks) - len(todo)} of {len(tasks)} tasks already in {run_dir}; "
            f"running the {len(todo)} missing")
    elif s.summary is not None:
        log(s.summary(tasks))
    manifest = {"experiment": s.name, "kind": s.kind, "config_hash": s.config_hash,
                **(s.counts(tasks) if s.counts else {"tasks": len(tasks)})}
    try:
        (run_dir / "config.yaml").write_text(s.config_yaml)
        provenance.add_session(run_dir, s.config_hash, provenance.session_record(
            runner.n_jobs, runner.backend, len(todo), resumed, seed=_seed(s.config_yaml)))
        # the starting manifest: a run killed from here on is known to be incomplete
        provenance.write_json_atomic(run_dir / MANIFEST,
                                     {**manifest, "complete": not todo, "running": True,
                                      "parts": part_names(run_dir, s.rows.folders)})
    except OSError as e:
        raise RunError(f"cannot write to output directory {run_dir}: {e.strerror or e}") from None
    settings = RunSettings(
        experiment=s.name, config_hash=s.config_hash, version=provenance.version(),
        commit=provenance.commit_label(), marker_dir=str(run_dir / INFLIGHT_DIR),
        fault=os.environ.get(FAULT_ENV) or None,
        parent_pid=os.getpid() if runner.backend == "loky" else None,
        **{"engine": "auto", "depth": None, "task_max_nodes": 0, **s.settings})
    writer = s.rows.writer(run_dir)
    try:
        outcome = execute(todo, settings, runner, writer, progress=progress and runner.progress,
                          already_done=len(tasks) - len(todo), total=len(tasks), log=log)
    except store.StoreError as e:
        raise RunError(f"{e}; the parts written so far are kept: resume with "
                       f"runner.resume={run_dir}") from None
    except KeyboardInterrupt:
        log(f"interrupted: the parts written so far are kept; resume with runner.resume={run_dir}")
        raise
    shutil.rmtree(run_dir / INFLIGHT_DIR, ignore_errors=True)
    entries, failed, lines = s.rows.outcome(run_dir, writer, tasks, todo, s.name, outcome.seconds)
    provenance.write_json_atomic(run_dir / MANIFEST, {
        **manifest, **entries, **s.final, "session_seconds": round(outcome.seconds, 3),
        "worker_crashes": outcome.crashes, "parts": part_names(run_dir, s.rows.folders)})
    record = {"finished": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
              "seconds": round(time.perf_counter() - t0, 3), "ran": outcome.ran,
              "crashes": outcome.crashes, "tasks": len(todo)}
    cpu = s.rows.cpu(writer)
    if cpu is not None:
        record["cpu_seconds"] = cpu[0]
        if cpu[1]:
            record["task_cpu_seconds"] = cpu[1]
    if s.finish is not None:
        record.update(s.finish(record, todo))
    provenance.finish_session(run_dir, record)
    for line in lines:
        log(line)
    check_not_all_failed(failed, len(todo), run_dir, RunError)


__all__ = ["Session", "dump_yaml", "SearchRows", "EnvelopeRows", "EnvelopeWriter", "run_session",
           "open_run_dir", "report_or_log", "unwritten_report", "recorded_kind", "RunError"]

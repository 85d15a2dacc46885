"""The trade-off study's task kinds, run by the engine's runner (experiment/runner.py).

- ``position``: one position of a domain; the task body is measure.run_position (the exact
  truth, then every applicable technique): rows of kind ``tradeoff`` into ``table/``;
- ``match``: one technique against sound alpha-beta in one domain over a chunk of the opening
  set, each opening a colour-swapped game pair (measure.run_match_task): one row per game, of
  kind ``match_game``, into ``games/`` (the per-pairing summary is computed from them:
  tables.load_table(run, "matches")).

The runner calls ``task.run(settings)`` / ``task.failed(error, attempts)`` for a task that is
not a search task; each returns one *envelope* (a dict with ``task_id`` and ``status``, as the
runner's sink expects) carrying the task's rows; ``KindWriter`` writes the rows of each kind
through the engine store's writer (store.PartWriter: atomic parts with unique names, one folder
per kind). So the study has the engine's batching, in-worker
retry, crash retry, progress bar, provenance and resume (a task whose rows are in the run
directory is not run again).

Seeds: every position, tree, opening and match seed is ``seeds.tradeoff_seed(root seed,
identity)``, the derivation the study used before it became part of the engine (kept so that
its published numbers stay the same); ``task_id`` is a digest of the task's identity.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import pyarrow.parquet as pq
from omegaconf import OmegaConf

from searchlab.experiment import provenance, store
from searchlab.experiment.runner import INFLIGHT_DIR, RunSettings, execute
from searchlab.experiment.run_status import check_same_config, check_not_all_failed
from searchlab.experiment.table_kinds import MATCH_GAME_SCHEMA, TRADEOFF_SCHEMA
from searchlab.experiment.tradeoff import domains as dom
from searchlab.experiment.tradeoff.config import TradeoffConfig, selected_domains
from searchlab.experiment.tradeoff.estimate import match_work, position_work
from searchlab.experiment.tradeoff.measure import (fit_models, match_openings, run_match_task,
                                                   run_position)

#: task kind -> (row folder, row schema)
FOLDERS = {"position": ("table", TRADEOFF_SCHEMA), "match": ("games", MATCH_GAME_SCHEMA)}


class TradeoffRunError(RuntimeError):
    """The run directory holds a run of a different config."""


@dataclass(frozen=True)
class TradeoffTask:
    """One task of the study: ``kind`` position or match; ``args`` the body's arguments."""

    index: int
    task_id: str
    kind: str
    label: str                  # for messages: "connect4/line12/...", "match connect4 null R=2"
    args: tuple
    est_work: int = 1           # estimate.py: an upper bound of the task's nodes
    est_nodes: int = 1

    def run(self, settings: RunSettings) -> dict:
        """Run the task body; an envelope with its rows (the body's exceptions propagate)."""
        c0 = time.process_time()
        rows = run_position(*self.args) if self.kind == "position" else run_match_task(*self.args)
        for r in rows:
            r["task_id"] = self.task_id
        return {"task_id": self.task_id, "status": "ok", "kind": self.kind, "rows": rows,
                "label": self.label, "cpu": time.process_time() - c0}

    def failed(self, error: str, attempts: int) -> dict:
        """The envelope of a task that failed every attempt: no rows, the error recorded."""
        return {"task_id": self.task_id, "status": "failed", "kind": self.kind, "rows": [],
                "label": self.label, "error": error[:2000], "attempts": attempts, "cpu": 0.0}


def is_tradeoff_run(run_dir: str | Path) -> bool:
    """Whether run_dir holds a trade-off run (its probcut.json is written before any task)."""
    return (Path(run_dir) / "probcut.json").exists()


def _task_id(*identity: Any) -> str:
    return hashlib.blake2b(repr(identity).encode(), digest_size=8).hexdigest()


def plan(cfg: TradeoffConfig, models: dict) -> list[TradeoffTask]:
    """The study's tasks: the matches first (the long tasks, for load balance), then one task
    per position. A function of the config and its seed only."""
    names = selected_domains(cfg)
    by_label = {t.label: t for t in cfg.techniques}
    matches = [(n, by_label[lab]) for n in names if getattr(cfg.domains, n).match.enabled
               and cfg.tasks != "positions" for lab in getattr(cfg.domains, n).match.techniques]
    openings = {n: match_openings(n, getattr(cfg.domains, n), cfg.seed)
                for n in sorted({m[0] for m in matches})}
    tasks: list[TradeoffTask] = []
    # chunk by chunk across the pairings, so that a run stopped early has the same openings
    # played in every pairing (the task ids do not depend on the order: resume is unaffected)
    chunks = sorted(((first, k, n, t) for k, (n, t) in enumerate(matches)
                     for first in range(0, len(openings[n]),
                                        getattr(cfg.domains, n).match.pairs_per_task
                                        or len(openings[n]))), key=lambda x: (x[0], x[1]))
    for first, _, n, t in chunks:
        d = getattr(cfg.domains, n)
        ops = openings[n]
        step = d.match.pairs_per_task or len(ops)
        chunk = ops[first:first + step]
        w = match_work(n, d, len(chunk))
        ident = ("match", n, t.label) if step == len(ops) else ("match", n, t.label, first)
        tasks.append(TradeoffTask(
            len(tasks), _task_id(*ident), "match",
            f"match {n} {t.label} pairs {first}-{first + len(chunk) - 1}",
            (n, d, t, models, chunk, first, cfg.study,
             dom.seed_for(cfg.seed, n, "match", t.label)), w, w))
    for n in names if cfg.tasks != "matches" else []:
        w = position_work(n, getattr(cfg.domains, n), cfg.techniques)
        for p in dom.positions(n, getattr(cfg.domains, n), cfg.seed):
            tasks.append(TradeoffTask(
                len(tasks), _task_id("position", p.domain, p.variant, p.pid), "position",
                f"{p.domain}/{p.variant}/{p.pid}",
                (p, getattr(cfg.domains, n), cfg.techniques, models, cfg.study), w, w))
    return tasks


class KindWriter:
    """The runner's writer for trade-off envelopes: each kind's rows through its own
    store.PartWriter (its folder and schema); failures and CPU seconds kept for the manifest
    and provenance."""

    def __init__(self, run_dir: Path) -> None:
        self.run_dir = Path(run_dir)
        self.parts: dict[str, store.PartWriter] = {}   # made at a kind's first rows
        self.failed: list[dict] = []
        self.cpu: dict[str, float] = {}

    def write(self, envelopes: list[dict]) -> None:
        rows: dict[str, list[dict]] = {k: [] for k in FOLDERS}
        for e in envelopes:
            if e["status"] != "ok":
                self.failed.append({k: e.get(k) for k in ("task_id", "label", "error", "attempts")})
                continue
            rows[e["kind"]].extend(e["rows"])
            if e["rows"]:
                key = e["rows"][0]["domain"] if e["kind"] == "position" \
                    else f"match:{e['rows'][0]['domain']}"
                self.cpu[key] = self.cpu.get(key, 0.0) + e["cpu"]
        for kind, rs in rows.items():
            if rs:
                if kind not in self.parts:
                    self.parts[kind] = store.PartWriter(self.run_dir, *FOLDERS[kind])
                self.parts[kind].write(rs)


def done_ids(run_dir: Path) -> set[str]:
    """The ids of the tasks whose rows are already in run_dir (resume)."""
    ids: set[str] = set()
    for folder, _ in FOLDERS.values():
        for p in sorted((Path(run_dir) / folder).glob("part-*.parquet")):
            t = pq.read_table(p, columns=None)
            if "task_id" in t.column_names:
                ids.update(x for x in t.column("task_id").to_pylist() if x)
    return ids


def config_hash(cfg: TradeoffConfig) -> str:
    """A digest of everything that changes the study's numbers (not workers or progress)."""
    d = dataclasses.asdict(cfg)
    for k in ("n_jobs", "progress", "results_dir", "description"):
        d.pop(k)
    return hashlib.sha256(json.dumps(d, sort_keys=True, default=str).encode()).hexdigest()[:16]


def run_tradeoff(cfg: TradeoffConfig, runner: Any, run_dir: Path, *, progress: bool = True,
                 fault: str | None = None, log: Callable[[str], None] = print) -> Path:
    """Run (or resume) the study into run_dir with the engine's runner settings ``runner``
    (a validated RunnerConfig record: backend, n_jobs, retries, batching). Writes table/,
    matches/, probcut.json, config.yaml, provenance.json and manifest.json (not the report:
    report/tradeoff.py). Raises TradeoffRunError for a directory holding another config."""
    run_dir = Path(run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    h = config_hash(cfg)
    resumed = check_same_config(run_dir, h, TradeoffRunError)
    (run_dir / "config.yaml").write_text(OmegaConf.to_yaml(OmegaConf.structured(cfg)))
    t_start = time.perf_counter()
    names = selected_domains(cfg)
    t0 = time.perf_counter()
    models, fit_info = fit_models(cfg, names)
    fit_info["_seconds"] = time.perf_counter() - t0
    provenance.write_json_atomic(run_dir / "probcut.json", fit_info)
    tasks = plan(cfg, models)
    done = done_ids(run_dir) if resumed else set()
    todo = [t for t in tasks if t.task_id not in done]
    if resumed:
        log(f"resume: {len(tasks) - len(todo)} of {len(tasks)} tasks already in {run_dir}; "
            f"running the {len(todo)} missing")
    provenance.add_session(run_dir, h, provenance.session_record(
        runner.n_jobs, runner.backend, len(todo), resumed))
    settings = RunSettings(experiment=cfg.study, engine="reference", depth=None,
                           task_max_nodes=0, config_hash=h, version=provenance.version(),
                           commit=provenance.commit_label(),
                           marker_dir=str(run_dir / INFLIGHT_DIR), fault=fault)
    n_positions = sum(1 for t in tasks if t.kind == "position")
    # manifest.json as the engine's runs have it (run_status.py): written when the session
    # starts and when it ends; "tasks" are the tasks whose rows are in table/ (the positions),
    # so searchlab.load() knows whether a run is complete; "matches" the match tasks.
    manifest = {"experiment": cfg.study, "kind": "tradeoff", "config_hash": h,
                "tasks": n_positions, "matches": len(tasks) - n_positions, "complete": False}
    provenance.write_json_atomic(run_dir / "manifest.json", manifest)
    writer = KindWriter(run_dir)
    outcome = execute(todo, settings, runner, writer, progress=progress,
                      already_done=len(tasks) - len(todo), total=len(tasks), log=log)
    elapsed = time.perf_counter() - t_start
    n_pos = sum(1 for t in todo if t.kind == "position")
    manifest.update({"failed": writer.failed, "complete": not writer.failed,
                     "session_seconds": round(outcome.seconds, 3),
                     "worker_crashes": outcome.crashes})
    provenance.write_json_atomic(run_dir / "manifest.json", manifest)
    provenance.finish_session(run_dir, {"finished": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
                                        "seconds": elapsed, "positions": n_pos,
                                        "matches": len(todo) - n_pos,
                                        "task_cpu_seconds": writer.cpu,
                                        "cpu_seconds": sum(writer.cpu.values())
                                        + fit_info["_seconds"]})
    for f in writer.failed:
        log(f"failed: {f['label']}: {f['error']}")
    check_not_all_failed(writer.failed, len(todo), run_dir, TradeoffRunError)
    return run_dir


__all__ = ["TradeoffTask", "plan", "run_tradeoff", "KindWriter", "is_tradeoff_run"]

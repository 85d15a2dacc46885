"""The chance-node and n-player studies as presets of the engine (docs/chance-and-multiplayer.md):
``searchlab experiment=chance`` and ``searchlab experiment=multiplayer``.

A preset with a ``claim_study`` section (docs/chance-and-multiplayer.md) runs one family's steps
(searchlab.analysis.chance_study.plan / multiplayer_study.plan: one step per synthetic tree,
relabelling experiment, Pig depth or Rolit game) as tasks of the engine's runner, which calls
``task.run(settings)`` / ``task.failed(error, attempts)`` for tasks that are not searches
(the contract of experiment/runner.py): batching, retries, crash handling, progress. Rows go
through store.PartWriter into one folder per table kind (``growth/``, ``relabel/``, ``pig/``,
``ludo/``; ``leaves/``, ``games/``, ``cc/``); a resumed run skips the tasks whose rows are stored.
The report (searchlab/report/claimstudy.py) summarises the tables with the same functions as
``python -m searchlab.claims.chance|multiplayer``, so both give the same numbers.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Optional

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from omegaconf import OmegaConf

from searchlab.analysis import chance_study as CS
from searchlab.analysis import multiplayer_study as MS
from searchlab.analysis.steps import Step
from searchlab.experiment import provenance, store
from searchlab.experiment.run_status import check_not_all_failed
from searchlab.experiment.runner import INFLIGHT_DIR, RunSettings, execute
from searchlab.experiment.schema import ConfigError
from searchlab.limits import MAX_COUNT, excerpt

MARKER = "claim_study.json"
#: family -> (plan(size, seed, ...), table kinds, sizes)
FAMILIES = {"chance": (CS.plan, CS.KINDS, CS.SIZES), "multiplayer": (MS.plan, MS.KINDS, MS.SIZES)}
_I, _F, _S = pa.int64(), pa.float64(), pa.string()
SCHEMAS = {
    "growth": pa.schema([("b", _I), ("n", _I), ("d", _I), ("spread", _F), ("instance", _I), ("algorithm", _S),
                         ("nodes", _I), ("leaves", _I), ("chance_nodes", _I), ("value", _F)]),
    "relabel": pa.schema([("variant", _S), ("position", _I), ("algorithm", _S), ("relabelling", _S),
                          ("trials", _I), ("changed", _I), ("share", _F), ("lo", _F), ("hi", _F)]),
    "pig": pa.schema([("depth", _I), ("value", _F), ("expectiminimax", _I), ("star1", _I), ("star2", _I)]),
    "orders": pa.schema([("domain", _S), ("b", _I), ("n", _I), ("d", _I), ("instance", _I), ("position", _S),
                         ("ordering", _S), ("algorithm", _S), ("nodes", _I), ("leaves", _I), ("emm_nodes", _I),
                         ("emm_leaves", _I), ("same_value", _I)]),
    "ludo": pa.schema([("move", _S), ("move_value", _F), ("best", _S), ("value", _F), ("nodes", _I),
                       ("leaves", _I), ("chance_nodes", _I)]),
    "leaves": pa.schema([("players", _I), ("b", _I), ("d", _I), ("instance", _I), ("algorithm", _S),
                         ("leaves", _I), ("nodes", _I), ("cutoffs", _I)]),
    "games": pa.schema([("opening", _I), ("seats", _S), ("player", _I), ("algorithm", _S), ("share", _F),
                        ("discs", _I), ("depth", _F)]),
    "cc": pa.schema([("players", _I), ("position", _I), ("algorithm", _S), ("d", _I), ("leaves", _I),
                     ("nodes", _I), ("cutoffs", _I), ("branching", _I), ("keeps_turn", _I)]),
}
SCHEMAS = {k: s.append(pa.field("task_id", _S)) for k, s in SCHEMAS.items()}


#: Most Rolit openings of a multiplayer claim study (6 games each: 600,000 match tasks).
MAX_OPENINGS = 100_000


class ClaimStudyRunError(RuntimeError):
    """The run directory holds a run of a different config."""


@dataclass(frozen=True)
class ClaimStudyConfig:
    """A validated ``claim_study`` section with the run's name and seed (plain values)."""

    study: str
    description: str
    family: str                    # chance | multiplayer
    size: str                      # full | small | tiny
    seed: int
    openings: Optional[int] = None     # multiplayer: Rolit openings (each played in 6 seatings)
    budget: Optional[int] = None       # multiplayer: nodes per move in the Rolit games


def from_engine(cfg: Any) -> ClaimStudyConfig:
    """The claim study of a composed engine config (DictConfig or dict) that has a
    ``claim_study`` section. Unknown keys and bad values raise ConfigError naming the key."""
    data = OmegaConf.to_container(cfg, resolve=True) if OmegaConf.is_config(cfg) else dict(cfg)
    sec = data.get("claim_study")
    if not isinstance(sec, dict):
        raise ConfigError(f"claim_study must be a mapping (the study's section); got {sec!r}")
    allowed = {"family", "size", "openings", "budget"}
    if (extra := sorted(set(sec) - allowed)):
        raise ConfigError(f"claim_study.{extra[0]}: unknown key; allowed: {', '.join(sorted(allowed))}")
    family = sec.get("family")
    if family not in FAMILIES:
        raise ConfigError(f"claim_study.family must be one of {', '.join(FAMILIES)}; got {family!r}")
    sizes = FAMILIES[family][2]
    size = sec.get("size", "full")
    if size not in sizes:
        raise ConfigError(f"claim_study.size must be one of {', '.join(sizes)}; got {size!r}")
    # upper bounds from the sizes, before any step is planned: the match plans 6 games per
    # opening, each game up to ~60 moves of ``budget`` nodes
    for key, low, high in (("openings", 1, MAX_OPENINGS), ("budget", 10, MAX_COUNT // 60)):
        v = sec.get(key)
        if v is None:
            continue
        if family != "multiplayer":
            raise ConfigError(f"claim_study.{key} applies to family multiplayer only (the Rolit match); "
                              f"got {v!r} for family {family}")
        if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
            raise ConfigError(f"claim_study.{key} must be null or an integer in [{low}, {high}]; "
                              f"got {excerpt(v)}")
    seed = data.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ConfigError(f"seed must be an integer >= 0; got {seed!r}")
    return ClaimStudyConfig(study=str(data.get("name")), description=data.get("description") or "",
                            family=family, size=size, seed=seed, openings=sec.get("openings"),
                            budget=sec.get("budget"))


def steps(cfg: ClaimStudyConfig) -> list[Step]:
    """The family's steps for this config (a function of the config only)."""
    plan = FAMILIES[cfg.family][0]
    if cfg.family == "multiplayer":
        return plan(cfg.size, cfg.seed, openings=cfg.openings, budget=cfg.budget)
    return plan(cfg.size, cfg.seed)


@dataclass(frozen=True)
class ClaimTask:
    """One step as a task of the runner (its run/failed contract)."""

    index: int
    task_id: str
    step: Step
    est_work: int = 1
    est_nodes: int = 1

    @property
    def label(self) -> str:
        return self.step.label

    def run(self, settings: RunSettings) -> dict:
        """Run the step; an envelope with its rows (the step's exceptions propagate)."""
        c0 = time.process_time()
        rows = [dict(r, task_id=self.task_id) for r in self.step.run()]
        return {"task_id": self.task_id, "status": "ok", "kind": self.step.kind, "rows": rows,
                "label": self.label, "cpu": time.process_time() - c0}

    def failed(self, error: str, attempts: int) -> dict:
        """The envelope of a task that failed every attempt: no rows, the error recorded."""
        return {"task_id": self.task_id, "status": "failed", "kind": self.step.kind, "rows": [],
                "label": self.label, "error": error[:2000], "attempts": attempts, "cpu": 0.0}


def tasks(cfg: ClaimStudyConfig) -> list[ClaimTask]:
    out = []
    for i, s in enumerate(steps(cfg)):
        tid = hashlib.blake2b(repr((cfg.family, s.kind, s.key)).encode(), digest_size=8).hexdigest()
        out.append(ClaimTask(i, tid, s, s.work, s.work))
    return out


class KindWriter:
    """The runner's writer: each table kind's rows through its own store.PartWriter."""

    def __init__(self, run_dir: Path) -> None:
        self.run_dir = Path(run_dir)
        self.parts: dict[str, store.PartWriter] = {}
        self.failed: list[dict] = []
        self.cpu = 0.0

    def write(self, envelopes: list[dict]) -> None:
        rows: dict[str, list[dict]] = {}
        for e in envelopes:
            if e["status"] != "ok":
                self.failed.append({k: e.get(k) for k in ("task_id", "label", "error", "attempts")})
                continue
            rows.setdefault(e["kind"], []).extend(e["rows"])
            self.cpu += e["cpu"]
        for kind, rs in rows.items():
            if kind not in self.parts:
                self.parts[kind] = store.PartWriter(self.run_dir, kind, SCHEMAS[kind])
            self.parts[kind].write(rs)


def _parts(run_dir: Path, kind: str) -> list[Path]:
    return sorted((Path(run_dir) / kind).glob("part-*.parquet"))


def load_tables(run_dir: str | Path) -> dict[str, pd.DataFrame]:
    """A claim-study run's tables: kind -> DataFrame (every kind of its family; rows of all
    sessions, without the task_id column)."""
    family = json.loads((Path(run_dir) / MARKER).read_text())["family"]
    out = {}
    for kind in FAMILIES[family][1]:
        ps = _parts(Path(run_dir), kind)
        t = pa.concat_tables([pq.read_table(p) for p in ps]) if ps else SCHEMAS[kind].empty_table()
        out[kind] = t.drop(["task_id"]).to_pandas()
    return out


def done_ids(run_dir: Path, family: str) -> set[str]:
    """The ids of the tasks whose rows are already in run_dir (resume)."""
    ids: set[str] = set()
    for kind in FAMILIES[family][1]:
        for p in _parts(run_dir, kind):
            ids.update(pq.read_table(p, columns=["task_id"]).column("task_id").to_pylist())
    return ids


def is_claim_study_run(run_dir: str | Path) -> bool:
    return (Path(run_dir) / MARKER).exists()


def run_config(run_dir: str | Path) -> ClaimStudyConfig:
    """The config a claim-study run was made with (its marker file)."""
    return ClaimStudyConfig(**json.loads((Path(run_dir) / MARKER).read_text())["config"])


def config_hash(cfg: ClaimStudyConfig) -> str:
    """A digest of everything that changes the study's numbers (not its name or description)."""
    d = dataclasses.asdict(cfg)
    for k in ("study", "description"):
        d.pop(k)
    return hashlib.sha256(json.dumps(d, sort_keys=True).encode()).hexdigest()[:16]


def run_claim_study(cfg: ClaimStudyConfig, runner: Any, run_dir: Path, *, progress: bool = True,
                    fault: str | None = None, log: Callable[[str], None] = print) -> Path:
    """Run (or resume) the study into run_dir with the engine's runner settings ``runner``.
    Writes the tables, claim_study.json, provenance.json and manifest.json (not the report:
    report/claimstudy.py). Raises ClaimStudyRunError for a directory holding another config."""
    run_dir = Path(run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    h = config_hash(cfg)
    marker = run_dir / MARKER
    resumed = marker.exists()
    if resumed and json.loads(marker.read_text()).get("config_hash") != h:
        raise ClaimStudyRunError(f"{run_dir} holds a claim study of a different config; choose a new directory")
    provenance.write_json_atomic(marker, {"family": cfg.family, "config_hash": h,
                                          "config": dataclasses.asdict(cfg)})
    t_start = time.perf_counter()
    for note in (MS.skipped() if cfg.family == "multiplayer" else []):
        log(f"skipped: {note}")
    todo_all = tasks(cfg)
    done = done_ids(run_dir, cfg.family) if resumed else set()
    todo = [t for t in todo_all if t.task_id not in done]
    if resumed:
        log(f"resume: {len(todo_all) - len(todo)} of {len(todo_all)} tasks already in {run_dir}; "
            f"running the {len(todo)} missing")
    provenance.add_session(run_dir, h, provenance.session_record(runner.n_jobs, runner.backend, len(todo), resumed))
    settings = RunSettings(experiment=cfg.study, engine="auto", depth=None, task_max_nodes=0, config_hash=h,
                           version=provenance.version(), commit=provenance.commit_label(),
                           marker_dir=str(run_dir / INFLIGHT_DIR), fault=fault,
                           parent_pid=os.getpid() if runner.backend == "loky" else None)
    manifest = {"experiment": cfg.study, "kind": f"claim_study:{cfg.family}", "config_hash": h,
                "tasks": len(todo_all), "complete": False}
    provenance.write_json_atomic(run_dir / "manifest.json", manifest)
    writer = KindWriter(run_dir)
    outcome = execute(todo, settings, runner, writer, progress=progress,
                      already_done=len(todo_all) - len(todo), total=len(todo_all), log=log)
    manifest.update({"failed": writer.failed, "complete": not writer.failed,
                     "session_seconds": round(outcome.seconds, 3), "worker_crashes": outcome.crashes})
    provenance.write_json_atomic(run_dir / "manifest.json", manifest)
    provenance.finish_session(run_dir, {"finished": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
                                        "seconds": time.perf_counter() - t_start, "tasks": len(todo),
                                        "cpu_seconds": writer.cpu})
    for f in writer.failed:
        log(f"failed: {f['label']}: {f['error']}")
    check_not_all_failed(writer.failed, len(todo), run_dir, ClaimStudyRunError)
    return run_dir


__all__ = ["ClaimStudyConfig", "from_engine", "run_claim_study", "load_tables", "is_claim_study_run",
           "run_config", "ClaimStudyRunError"]

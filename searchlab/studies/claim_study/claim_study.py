"""The chance-node and n-player studies as presets of the engine (docs/chance-and-multiplayer.md):
``searchlab experiment=chance`` and ``searchlab experiment=multiplayer``.

A preset with a ``claim_study`` section (docs/chance-and-multiplayer.md) runs one family's steps
(searchlab.studies.chance.chance_study.chance_steps / multiplayer_study.multiplayer_steps: one step per synthetic tree,
relabelling experiment, Pig depth or Rolit game) as tasks of the engine's runner, which calls
``task.run(settings)`` / ``task.failed(error, attempts)`` for tasks that are not searches
(the contract of experiment/runner.py): batching, retries, crash handling, progress. Rows go
through store.PartWriter into one folder per table kind (``growth/``, ``relabel/``, ``pig/``,
``ludo/``; ``leaves/``, ``games/``, ``cc/``); a resumed run skips the tasks whose rows are stored.
The report (searchlab/studies/claim_study/claim_study_report.py) summarises the tables with the same functions as
``python -m searchlab.studies.chance.chance_verdicts|multiplayer``, so both give the same numbers.
"""

from __future__ import annotations

import dataclasses
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from searchlab.studies.claim_study.claim_steps import Step
from searchlab.studies.claim_study.families import family, family_names
from searchlab.studies.claim_study.family import ClaimStudyConfig  # re-exported (__all__)
from searchlab.experiment import provenance
from searchlab.experiment.runner import RunSettings
from searchlab.experiment.schema import ConfigError
from searchlab.experiment.seeds import config_digest, task_digest
from searchlab.experiment.session import EnvelopeRows, Session, dump_yaml
from searchlab.experiment.validation import plain_config
from searchlab.limits import MAX_COUNT, excerpt

MARKER = "claim_study.json"
#: Most Rolit openings of a multiplayer claim study (6 games each: 600,000 match tasks).
MAX_OPENINGS = 100_000


def from_engine(cfg: Any) -> ClaimStudyConfig:
    """The claim study of a composed engine config (DictConfig or dict) that has a
    ``claim_study`` section. Unknown keys and bad values raise ConfigError naming the key."""
    data = plain_config(cfg)
    sec = data.get("claim_study")
    if not isinstance(sec, dict):
        raise ConfigError(f"claim_study must be a mapping (the study's section); got {sec!r}")
    allowed = {"family", "size", "openings", "budget"}
    if (extra := sorted(set(sec) - allowed)):
        raise ConfigError(f"claim_study.{extra[0]}: unknown key; allowed: {', '.join(sorted(allowed))}")
    name = sec.get("family")
    if name not in family_names():
        raise ConfigError(f"claim_study.family must be one of {', '.join(family_names())}; got {name!r}")
    fam = family(name)
    sizes = fam.sizes
    size = sec.get("size", "full")
    if size not in sizes:
        raise ConfigError(f"claim_study.size must be one of {', '.join(sizes)}; got {size!r}")
    # upper bounds from the sizes, before any step is planned: the match plans 6 games per
    # opening, each game up to ~60 moves of ``budget`` nodes
    for key, low, high in (("openings", 1, MAX_OPENINGS), ("budget", 10, MAX_COUNT // 60)):
        v = sec.get(key)
        if v is None:
            continue
        if key not in fam.options:
            takes = [n for n in family_names() if key in family(n).options]
            raise ConfigError(f"claim_study.{key} applies to family {', '.join(takes)} only "
                              f"(the Rolit match); got {v!r} for family {name}")
        if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
            raise ConfigError(f"claim_study.{key} must be null or an integer in [{low}, {high}]; "
                              f"got {excerpt(v)}")
    seed = data.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ConfigError(f"seed must be an integer >= 0; got {seed!r}")
    return ClaimStudyConfig(study=str(data.get("name")), description=data.get("description") or "",
                            family=name, size=size, seed=seed, openings=sec.get("openings"),
                            budget=sec.get("budget"))


def steps(cfg: ClaimStudyConfig) -> list[Step]:
    """The family's steps for this config (a function of the config only)."""
    return family(cfg.family).plan(cfg)


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


def claim_tasks(cfg: ClaimStudyConfig) -> list[ClaimTask]:
    """The family's steps as tasks; a task id is a digest of (family, table kind, step key)."""
    out = []
    for i, s in enumerate(steps(cfg)):
        tid = task_digest(repr((cfg.family, s.kind, s.key)))
        out.append(ClaimTask(i, tid, s, s.work, s.work))
    return out


def _parts(run_dir: Path, kind: str) -> list[Path]:
    return sorted((Path(run_dir) / kind).glob("part-*.parquet"))


def load_tables(run_dir: str | Path) -> dict[str, pd.DataFrame]:
    """A claim-study run's tables: kind -> DataFrame (every kind of its family; rows of all
    sessions, without the task_id column)."""
    fam = family(json.loads((Path(run_dir) / MARKER).read_text())["family"])
    out = {}
    for kind in fam.tables:
        ps = _parts(Path(run_dir), kind)
        t = pa.concat_tables([pq.read_table(p) for p in ps]) if ps else fam.schema(kind).empty_table()
        out[kind] = t.drop(["task_id"]).to_pandas()
    return out


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
    return config_digest(d)


def claim_session(cfg: ClaimStudyConfig) -> Session:
    """The study as a session of the engine's skeleton (session.py): each table kind's rows
    into its own folder; claim_study.json (the family and the config, which the report reads)
    written before any task (the report: studies/claim_study/claim_study_report.py)."""
    h = config_hash(cfg)
    fam = family(cfg.family)

    def plan(run_dir: Path, log: Callable[[str], None]) -> list[ClaimTask]:
        provenance.write_json_atomic(Path(run_dir) / MARKER, {
            "family": cfg.family, "config_hash": h, "config": dataclasses.asdict(cfg)})
        for note in (fam.skipped() if fam.skipped is not None else []):
            log(f"skipped: {note}")
        return claim_tasks(cfg)

    sec = {k: v for k, v in (("family", cfg.family), ("size", cfg.size),
                             ("openings", cfg.openings), ("budget", cfg.budget)) if v is not None}
    return Session(
        kind=f"claim_study:{cfg.family}", name=cfg.study, config_hash=h,
        config_yaml=dump_yaml({"name": cfg.study, "seed": cfg.seed, "claim_study": sec}),
        plan=plan, rows=EnvelopeRows({k: (k, fam.schema(k)) for k in fam.tables}),
        reader="searchlab.studies.claim_study.claim_study.load_tables")


__all__ = ["ClaimStudyConfig", "from_engine", "claim_session", "load_tables", "is_claim_study_run",
           "run_config"]

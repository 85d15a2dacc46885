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
from typing import Any, Callable, Optional

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from searchlab.studies.chance import chance_study as CS
from searchlab.studies.rigor import convergence as CV
from searchlab.studies.rigor import exact_counts as EC
from searchlab.studies.rigor import rigor_study as RS
from searchlab.studies.mcts import mcts_study as MC
from searchlab.studies.multiplayer import multiplayer_study as MS
from searchlab.studies.ordering import aspiration_study as AS
from searchlab.studies.ordering import chess_ordering_study as COS
from searchlab.studies.ordering import minimal_trees_study as MT
from searchlab.studies.ordering import ordering_checks_study as OCS
from searchlab.studies.claim_study.claim_steps import Step
from searchlab.experiment import provenance
from searchlab.experiment.runner import RunSettings
from searchlab.experiment.schema import ConfigError
from searchlab.experiment.seeds import config_digest, task_digest
from searchlab.experiment.session import EnvelopeRows, Session, dump_yaml
from searchlab.experiment.validation import plain_config
from searchlab.limits import MAX_COUNT, excerpt

MARKER = "claim_study.json"
#: family -> (plan(size, seed, ...), table kinds, sizes)
FAMILIES = {"chance": (CS.chance_steps, CS.KINDS, CS.SIZES), "multiplayer": (MS.multiplayer_steps, MS.KINDS, MS.SIZES),
            "convergence": (CV.convergence_steps, CV.KINDS, CV.SIZES),
            "minimal_trees": (MT.minimal_steps, MT.KINDS, MT.SIZES),
            "chess_ordering": (COS.chess_order_steps, COS.KINDS, COS.SIZES),
            "ordering_checks": (OCS.ordering_steps, OCS.KINDS, OCS.SIZES),
            "exact_counts": (EC.exact_counts_steps, EC.KINDS, EC.SIZES),
            "rigor": (RS.rigor_steps, RS.KINDS, RS.SIZES),
            "aspiration": (AS.aspiration_steps, AS.KINDS, AS.SIZES),
            "mcts": (MC.mcts_steps, MC.KINDS, MC.SIZES)}
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
    "paired_leaves": pa.schema([("b", _I), ("tree", _I), ("d", _I), ("leaves", _I)]),
    "minimal": pa.schema([("game", _S), ("instance", _I), ("position", _S), ("policy", _S), ("depth", _I),
                          ("status", _S), ("nodes", _I), ("last_nodes", _I), ("q_nodes", _I),
                          ("minimal_nodes", _I), ("minimal_q_nodes", _I), ("tt", pa.bool_()), ("ratio", _F)]),
    "chess_order": pa.schema([("source", _S), ("instance", _I), ("position", _S), ("variant", _S), ("ordering", _S),
                              ("aspiration", _F), ("depth", _I), ("status", _S), ("nodes", _I), ("q_nodes", _I),
                              ("cutoffs", _I), ("re_searches", _I), ("value", _F)]),
    "exact_bounds": pa.schema([("b", _I), ("algorithm", _S), ("per_height", _I), ("d", _I), ("low_nodes", _F),
                               ("low_leaves", _F), ("high_nodes", _F), ("high_leaves", _F), ("cells_even", _I),
                               ("cells_odd", _I), ("seconds", _F)]),
    "exact_crossover": pa.schema([("b", _I), ("K", _I), ("d", _I), ("growth", _F), ("seconds", _F)]),
    "exact_critical": pa.schema([("b", _I), ("w", _F), ("d", _I), ("leaves", _F), ("growth", _F), ("seconds", _F)]),
    "exact_check": pa.schema([("cell", _I), ("b", _I), ("d", _I), ("model", _S), ("tree", _I), ("nodes", _I),
                              ("leaves", _I), ("seconds", _F)]),
    "worst_case": pa.schema([("b", _I), ("d", _I), ("method", _S), ("tree", _I), ("worst_first", _I),
                             ("maximum", _I)]),
    "worst_attained": pa.schema([("b", _I), ("d", _I), ("algorithm", _S), ("leaves", _I), ("nodes", _I),
                                 ("cutoffs", _I), ("value", _F), ("minimax_value", _F)]),
    "node_types": pa.schema([("b", _I), ("d", _I), ("ordering", _S), ("n", _I), ("type", _S), ("ply", _I),
                             ("nodes", _F), ("minimal", _I), ("cut_rate", _F), ("first_move_share", _F),
                             ("children_per_node", _F)]),
    "critical_leaves": pa.schema([("b", _I), ("w_index", _I), ("tree", _I), ("d", _I), ("leaves", _I)]),
    "cut_rule": pa.schema([("b", _I), ("d", _I), ("model", _S), ("tree", _I), ("leaves_ties_cut", _I),
                           ("leaves_strict", _I), ("tie_cuts", _I), ("cut_events", _I)]),
    "policy_costs": pa.schema([("domain", _I), ("policy", _S), ("tree", _I), ("nodes", _I), ("leaves", _I),
                               ("evaluations", _I), ("ordering_evaluations", _I), ("tt_probes", _I),
                               ("re_searches", _I), ("cost", _I), ("value", _F)]),
    "ordering_search": pa.schema([("domain", _S), ("unit", _I), ("policy", _S), ("value", _F), ("branching", _F),
                                  ("cpu_seconds", _F), ("nodes", _F), ("leaves", _F), ("last", _F), ("fhf", _F),
                                  ("cutoffs", _F), ("tt_hit", _F)]),
    "ordering_aspiration": pa.schema([("unit", _I), ("width", _S), ("nodes", _I), ("cutoffs", _I),
                                      ("re_searches", _I)]),
    "ordering_table": pa.schema([("unit", _I), ("name", _S), ("count", _I)]),
    "ordering_quiescence": pa.schema([("unit", _I), ("name", _S), ("swing", _F), ("solved", _I)]),
    "aspiration": pa.schema([("game", _S), ("instance", _I), ("position", _S), ("depth", _I), ("width", _F),
                             ("status", _S), ("nodes", _I), ("q_nodes", _I), ("cutoffs", _I), ("re_searches", _I),
                             ("value", _F)]),
    "cc": pa.schema([("players", _I), ("position", _I), ("algorithm", _S), ("d", _I), ("leaves", _I),
                     ("nodes", _I), ("cutoffs", _I), ("branching", _I), ("keeps_turn", _I)]),
}
SCHEMAS.update({
    "mcts_games": pa.schema([("study", _S), ("domain", _S), ("technique", _S), ("family", _S), ("opponent", _S),
                             ("ordering", _S), ("budget", _I), ("pair", _I), ("opening", _S),
                             ("a_is_max", pa.bool_()), ("result", _F), ("ending", _S), ("plies", _I),
                             ("a_mean_depth", _F), ("b_mean_depth", _F), ("a_mean_nodes", _F), ("b_mean_nodes", _F),
                             ("wall_seconds", _F), ("play", _S), ("persist_across_moves", pa.bool_()),
                             ("budget_mode", _S), ("cpu_seconds", _F), ("a_cv_nodes", _F), ("b_cv_nodes", _F)]),
    "mcts_traps": pa.schema([("model", _S), ("b", _I), ("d", _I), ("budget", _I), ("family", _S), ("trials", _I),
                             ("found", _I), ("rate", _F)]),
})
SCHEMAS = {k: s.append(pa.field("task_id", _S)) for k, s in SCHEMAS.items()}


#: Most Rolit openings of a multiplayer claim study (6 games each: 600,000 match tasks).
MAX_OPENINGS = 100_000


@dataclass(frozen=True)
class ClaimStudyConfig:
    """A validated ``claim_study`` section with the run's name and seed (plain values)."""

    study: str
    description: str
    family: str                    # chance | multiplayer | convergence | exact_counts | rigor | minimal_trees | chess_ordering | ordering_checks | aspiration | mcts
    size: str                      # full | small | tiny
    seed: int
    openings: Optional[int] = None     # multiplayer: Rolit openings (each played in 6 seatings)
    budget: Optional[int] = None       # multiplayer: nodes per move in the Rolit games


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
    family = json.loads((Path(run_dir) / MARKER).read_text())["family"]
    out = {}
    for kind in FAMILIES[family][1]:
        ps = _parts(Path(run_dir), kind)
        t = pa.concat_tables([pq.read_table(p) for p in ps]) if ps else SCHEMAS[kind].empty_table()
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

    def plan(run_dir: Path, log: Callable[[str], None]) -> list[ClaimTask]:
        provenance.write_json_atomic(Path(run_dir) / MARKER, {
            "family": cfg.family, "config_hash": h, "config": dataclasses.asdict(cfg)})
        for note in (MS.skipped() if cfg.family == "multiplayer" else []):
            log(f"skipped: {note}")
        return claim_tasks(cfg)

    sec = {k: v for k, v in (("family", cfg.family), ("size", cfg.size),
                             ("openings", cfg.openings), ("budget", cfg.budget)) if v is not None}
    return Session(
        kind=f"claim_study:{cfg.family}", name=cfg.study, config_hash=h,
        config_yaml=dump_yaml({"name": cfg.study, "seed": cfg.seed, "claim_study": sec}),
        plan=plan, rows=EnvelopeRows({k: (k, SCHEMAS[k]) for k in FAMILIES[cfg.family][1]}),
        reader="searchlab.studies.claim_study.claim_study.load_tables")


__all__ = ["ClaimStudyConfig", "from_engine", "claim_session", "load_tables", "is_claim_study_run",
           "run_config"]

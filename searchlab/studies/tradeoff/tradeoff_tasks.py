"""The trade-off study's task kinds, run by the engine's runner (experiment/runner.py).

- ``position``: one position of a domain; the task body is measure.run_position (the exact
  truth, then every applicable technique): rows of kind ``tradeoff`` into ``table/``;
- ``match``: one technique against sound alpha-beta in one domain over a chunk of the opening
  set, each opening a colour-swapped game pair (measure.run_match_task): one row per game, of
  kind ``match_game``, into ``games/`` (the per-pairing summary is computed from them:
  tables.load_table(run, "matches")); with ``tasks: tuning`` the match tasks are the tuning
  study's (tuning_study.py: every grid setting, or the chosen ones in the confirm stage).

The runner calls ``task.run(settings)`` / ``task.failed(error, attempts)`` for a task that is
not a search task; each returns one *envelope* (a dict with ``task_id`` and ``status``, as the
runner's sink expects) carrying the task's rows and its ``kind``; the session skeleton
(session.py, ``tradeoff_session``) writes each kind's rows into its folder (``FOLDERS``) through
the engine store's writer. So the study has the engine's batching, in-worker retry, crash retry,
progress bar, provenance and resume (a task whose rows are in the run directory is not run
again).

Seeds: every position, tree, opening and match seed is ``seeds.tradeoff_seed(root seed,
identity)``, the derivation the study used before it became part of the engine (kept so that
its published numbers stay the same); ``task_id`` is a digest of the task's identity.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable


from searchlab.experiment import provenance
from searchlab.experiment.runner import RunSettings
from searchlab.experiment.budget import human, total_work
from searchlab.experiment.seeds import config_digest, task_digest
from searchlab.experiment.session import EnvelopeRows, Session, dump_yaml
from searchlab.studies.tradeoff.tradeoff_schemas import MATCH_GAME_SCHEMA, TRADEOFF_SCHEMA
from searchlab.studies.tradeoff import domains as dom
from searchlab.studies.tradeoff.tradeoff_config import (TradeoffConfig, null_move_guarded,
                                                        selected_domains)
from searchlab.studies.tradeoff.tradeoff_estimate import check_budget, match_work, position_work
from searchlab.studies.tradeoff.tradeoff_measure import (fit_models, match_openings, run_match_task,
                                                   run_position)
from searchlab.studies.tradeoff.tuning_study import (chosen_from_run, grid_technique, tune_config,
                                                     tuning_matches)

#: task kind -> (row folder, row schema)
FOLDERS = {"position": ("table", TRADEOFF_SCHEMA), "match": ("games", MATCH_GAME_SCHEMA)}


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

    @property
    def domain(self) -> str:
        """The domain it searches (the runner warms one task per kind and domain up first)."""
        return str(self.args[0])

    def run(self, settings: RunSettings) -> dict:
        """Run the task body; an envelope with its rows (the body's exceptions propagate)."""
        c0 = time.process_time()
        rows = run_position(*self.args) if self.kind == "position" else run_match_task(*self.args)
        for r in rows:
            r["task_id"] = self.task_id
        # CPU seconds are summed per domain (positions) and per domain's matches
        key = None if not rows else rows[0]["domain"] if self.kind == "position" \
            else f"match:{rows[0]['domain']}"
        return {"task_id": self.task_id, "status": "ok", "kind": self.kind, "rows": rows,
                "label": self.label, "cpu": time.process_time() - c0, "cpu_key": key}

    def failed(self, error: str, attempts: int) -> dict:
        """The envelope of a task that failed every attempt: no rows, the error recorded."""
        return {"task_id": self.task_id, "status": "failed", "kind": self.kind, "rows": [],
                "label": self.label, "error": error[:2000], "attempts": attempts, "cpu": 0.0}


def is_tradeoff_run(run_dir: str | Path) -> bool:
    """Whether run_dir holds a trade-off run (its probcut.json is written before any task)."""
    return (Path(run_dir) / "probcut.json").exists()


def _task_id(*identity: Any) -> str:
    return task_digest(repr(identity))


def plan_tradeoff_tasks(cfg: TradeoffConfig, models: dict, chosen: dict | None = None
                        ) -> list[TradeoffTask]:
    """The study's tasks: the matches first (the long tasks, for load balance), then one task
    per position. A function of the config and its seed only (``tasks: tuning``: the tuning
    study's match tasks, _tuning_tasks; its confirm stage also of ``chosen``)."""
    if cfg.tasks == "tuning":
        return _tuning_tasks(cfg, models, chosen)
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


def _tuning_tasks(cfg: TradeoffConfig, models: dict, chosen: dict | None) -> list[TradeoffTask]:
    """The tuning study's tasks (tuning_study.py): per stage pairing, chunks of
    ``match.pairs_per_task`` openings, interleaved across the pairings as the matches are;
    task ids from (tuning, stage, domain, setting, budget, first pair id)."""
    stage = cfg.tuning.stage
    chunks = []
    for k, (n, d, t, ops, first_pair) in enumerate(tuning_matches(cfg, models, chosen)):
        step = d.match.pairs_per_task or len(ops)
        chunks += [(first, k, n, d, t, ops[first:first + step], first_pair + first)
                   for first in range(0, len(ops), step)]
    tasks: list[TradeoffTask] = []
    for first, _, n, d, t, chunk, pair0 in sorted(chunks, key=lambda x: (x[0], x[1])):
        w = match_work(n, d, len(chunk))
        tasks.append(TradeoffTask(
            len(tasks), _task_id("tuning", stage, n, t.label, d.match.budget, pair0), "match",
            f"tuning {stage} {n} {t.label} pairs {pair0}-{pair0 + len(chunk) - 1}",
            (n, d, t, models, chunk, pair0, cfg.study,
             dom.seed_for(cfg.seed, n, "tuning", stage, t.label)), w, w))
    return tasks


def plain(cfg: TradeoffConfig) -> dict:
    """The config as plain values: the techniques as their records' ``science()``."""
    d = dataclasses.asdict(cfg)
    d["techniques"] = [t.science() for t in cfg.techniques]
    return d


def config_hash(cfg: TradeoffConfig) -> str:
    """A digest of everything that changes the study's numbers (not workers or progress).

    The play mode (``match.play``, ``match.persist_across_moves``) and ``null_move_guard``
    enter it wherever they differ from how the study played before these keys existed
    (matches fresh-per-depth; Connect Four's and Othello's null move unguarded, chess's through
    its own guard): a config that plays as before keeps its earlier hash, so its earlier run
    directories still resume, and one that plays otherwise gets a new one. Likewise the
    ``tuning`` section enters only with ``tasks: tuning`` (without ``tuned_run``: the confirm
    stage's session hashes the settings it chose instead), and ``match.budget_mode`` /
    ``match.cpu_seconds`` only under a time control. Each technique enters as its record's
    ``science()`` (the form hashed before the record existed)."""
    d = plain(cfg)
    for k in ("n_jobs", "progress", "results_dir", "description"):
        d.pop(k)
    if cfg.tasks != "tuning":           # keys added later enter only where they are used
        d.pop("tuning")
    else:                               # where the tune run lies is not a number: the confirm
        d["tuning"].pop("tuned_run")    # stage's hash takes the settings it chose instead
    for name, dom_d in d["domains"].items():
        dconf = getattr(cfg.domains, name)
        m = dom_d["match"]
        if dconf.match.budget_mode == "nodes" and dconf.match.cpu_seconds is None:
            m.pop("budget_mode")
            m.pop("cpu_seconds")
        if not dconf.match.enabled or dconf.match.play == "fresh-per-depth":
            m.pop("play")
            m.pop("persist_across_moves")
        if null_move_guarded(name, dconf) == (name == "chess"):
            dom_d.pop("null_move_guard")
    return config_digest(d)


def tradeoff_session(cfg: TradeoffConfig) -> Session:
    """The study as a session of the engine's skeleton (session.py): the guard on the tasks'
    estimated nodes; ProbCut's models fitted first (probcut.json, written before any task);
    positions' rows into table/, the games' into games/ (the report: studies/tradeoff/tradeoff_report.py).
    The manifest's ``tasks`` are the positions (the tasks whose rows are in table/, so
    searchlab.load() knows whether a run is complete), ``matches`` the match tasks."""
    fitted: dict = {}
    digest, chosen = config_hash(cfg), None
    if cfg.tasks == "tuning" and cfg.tuning.stage == "confirm":
        # the confirmation is a function of the config and the tune run's games: both hashed
        chosen = chosen_from_run(cfg, config_hash(tune_config(cfg)))
        digest = config_digest({"config": digest, "chosen": sorted(map(list, chosen.items()))})
    fit_cfg = cfg if cfg.tasks != "tuning" else dataclasses.replace(
        cfg, techniques=[grid_technique(n) for n in cfg.tuning.settings])

    def plan(run_dir: Path, log: Callable[[str], None]) -> list[TradeoffTask]:
        t0 = time.perf_counter()
        models, fit_info = fit_models(fit_cfg, selected_domains(cfg))
        fitted["seconds"] = fit_info["_seconds"] = time.perf_counter() - t0
        provenance.write_json_atomic(Path(run_dir) / "probcut.json", fit_info)
        return plan_tradeoff_tasks(cfg, models, chosen)

    def counts(tasks: list) -> dict:
        n = sum(1 for t in tasks if t.kind == "position")
        return {"tasks": n, "matches": len(tasks) - n}

    def summary(tasks: list) -> str:
        return plan_line(cfg, tasks)

    def finish(record: dict, todo: list) -> dict:
        n = sum(1 for t in todo if t.kind == "position")
        return {"positions": n, "matches": len(todo) - n,
                "task_cpu_seconds": record.get("task_cpu_seconds", {}),
                "cpu_seconds": sum(record.get("task_cpu_seconds", {}).values()) + fitted["seconds"]}

    return Session(
        kind="tradeoff", name=cfg.study, config_hash=digest,
        config_yaml=dump_yaml(plain(cfg)), plan=plan,
        rows=EnvelopeRows(FOLDERS), settings={"engine": "reference"},
        guard=lambda max_nodes: check_budget(cfg, max_nodes), counts=counts, finish=finish,
        summary=summary)


def plan_line(cfg: TradeoffConfig, tasks: list) -> str:
    """The line a trade-off run starts with (as the sweep's grid.summary): its tasks by kind
    and domain, and their estimated work."""
    by: dict[str, int] = {}
    for t in tasks:
        by[t.kind] = by.get(t.kind, 0) + 1
    kinds = " + ".join(f"{n} {k} tasks" for k, n in by.items())
    return (f"{cfg.study}: {len(tasks)} tasks ({kinds or 'none'}; domains "
            f"{', '.join(selected_domains(cfg))}); estimated work {human(total_work(tasks))} nodes")


__all__ = ["TradeoffTask", "plan_tradeoff_tasks", "tradeoff_session", "is_tradeoff_run"]

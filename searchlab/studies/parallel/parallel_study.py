"""The parallel-search study as a task kind of the engine: ``searchlab experiment=parallel``.

A preset with a ``parallel`` section (schema: ``ParallelSection`` below; docs/config.md,
docs/parallel.md) runs this study instead of a sweep: one task per synthetic tree (a block of
``parallel.trees``: model, b, depth, ordering quality order_p, tree seed) and per game position
(a block of ``parallel.games``: game, depth, ordering policy, position), each simulating every
algorithm at every p (searchlab/studies/parallel/parallel_tasks.py: ``tree_rows``, ``game_rows``). The rows (one
per simulation, columns: studies/parallel/parallel_schema.py ``PARALLEL_SCHEMA``) go to ``table/``
through the engine's runner: batching, retries, crash retry, progress, provenance, resume
(a task whose rows are in the run directory is not run again), the run lock (api.py).

Cost sensitivity: a tree block with ``sensitivity: true`` is simulated again under each cost
of ``parallel.sensitivity.costs`` scaled by each of ``parallel.sensitivity.factors`` (one cost at
a time, the others at ``parallel.costs``), on the same trees; those rows carry table
"sensitivity" and their costs in the cost_* columns (studies/parallel/parallel_verdicts.py reads the grid back).

Seeds: tree seeds and position seeds are ``seeds.derive_seed(seed, identity)``; Lazy SMP's
helper orders use ``seed``. Every user error is one ConfigError naming the key.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field
from typing import Any


from searchlab.contracts.compiled import compiled_game
from searchlab.experiment import store
from searchlab.experiment.runner import RunSettings
from searchlab.experiment.schema import ConfigError
from searchlab.experiment.seeds import config_digest, derive_seed, task_digest
from searchlab.experiment.session import EnvelopeRows, Session, dump_yaml
from searchlab.experiment.validation import plain_config, structured
from searchlab.studies.parallel.parallel_schema import PARALLEL_SCHEMA
from searchlab.parallel import ALGORITHMS, Costs
from searchlab.parallel.game_simulation import policy
from searchlab.parallel.simulate import MAX_PROCESSORS
from searchlab.studies.parallel.parallel_tasks import GAMES, game_rows, tree_rows

MODELS = ("iid", "ordered", "incremental")
#: the costs a sensitivity grid may vary (node is the clock's unit)
SENSITIVE_COSTS = ("split", "message", "tt")


@dataclass
class CostsConf:
    node: float = 1.0
    split: float = 8.0
    message: float = 2.0
    tt: float = 0.25


@dataclass
class TreeBlock:
    """Synthetic trees in natural order: ``trees`` trees per (d, order_p), every p."""

    table: str = "speedup"          # a label the summaries select by (speedup, ordering, depth)
    model: str = "ordered"
    b: int = 8
    d: list[int] = field(default_factory=lambda: [9])
    order_p: list[float] = field(default_factory=lambda: [0.9])    # ordered trees only
    trees: int = 4
    p: list[int] = field(default_factory=lambda: [1, 2, 4, 8, 16, 32, 64, 128, 256])
    sensitivity: bool = False       # also simulate under parallel.sensitivity's cost grid


@dataclass
class SensitivityConf:
    """The cost grid of the sensitivity analysis: each cost of ``costs`` scaled by each of
    ``factors``, one at a time (empty: no sensitivity runs)."""

    costs: list[str] = field(default_factory=list)
    factors: list[float] = field(default_factory=list)


@dataclass
class GameBlock:
    """Game positions under ordering policies: ``positions`` positions (the first is the
    start, the others ``opening_ply`` random moves in) per (depth, ordering), every p."""

    table: str = "games"
    game: str = "connect4"
    depth: list[int] = field(default_factory=lambda: [8])
    orderings: list[str] = field(default_factory=lambda: ["centre+tt+killer+history"])
    positions: int = 2
    opening_ply: int = 4
    p: list[int] = field(default_factory=lambda: [1, 2, 4, 8, 16, 32, 64])


@dataclass
class ParallelSection:
    algorithms: list[str] = field(default_factory=lambda: list(ALGORITHMS))
    costs: CostsConf = field(default_factory=CostsConf)
    min_split: int = 2
    tt_bits: int = 20
    size: str = "full"
    sensitivity: SensitivityConf = field(default_factory=SensitivityConf)
    trees: list[TreeBlock] = field(default_factory=list)
    games: list[GameBlock] = field(default_factory=list)


@dataclass(frozen=True)
class ParallelConfig:
    study: str
    seed: int
    section: ParallelSection


def _fail(msg: str) -> None:
    raise ConfigError(msg)


def from_engine(cfg: Any) -> ParallelConfig:
    """The study of a composed engine config with a ``parallel`` section, validated: unknown
    keys, wrong types and out-of-range values raise ConfigError naming the key."""
    data = plain_config(cfg)
    section = data.get("parallel")
    if not isinstance(section, dict):
        _fail(f"parallel must be a mapping (the study's section); got {section!r}")
    blocks = {}
    for k, cls in (("trees", TreeBlock), ("games", GameBlock)):
        blocks[k] = []
        for i, b in enumerate(section.pop(k, None) or []):
            blocks[k].append(structured(cls, b, f"parallel.{k}[{i}]"))
    sec = structured(ParallelSection, section, "parallel")
    sec.trees, sec.games = blocks["trees"], blocks["games"]
    validate(sec)
    return ParallelConfig(data.get("name"), data.get("seed"), sec)


def _ints(key: str, xs: list, low: int, high: int) -> None:
    if not xs or any(isinstance(x, bool) or not isinstance(x, int) or not low <= x <= high
                     for x in xs):
        _fail(f"{key} must be a non-empty list of integers in [{low}, {high}]; got {xs!r}")


def validate(sec: ParallelSection) -> None:
    """Ranges and combinations of the section (ConfigError naming the key)."""
    bad = [a for a in sec.algorithms if a not in ALGORITHMS]
    if not sec.algorithms or bad:
        _fail(f"parallel.algorithms must be a non-empty list of {', '.join(ALGORITHMS)}; "
              f"got {sec.algorithms!r}")
    try:
        Costs(**dataclasses.asdict(sec.costs))
    except Exception as e:  # noqa: BLE001 -- Costs names the field
        _fail(f"parallel.{e}")
    if not 1 <= sec.min_split <= 64:
        _fail(f"parallel.min_split must be in [1, 64]; got {sec.min_split}")
    if not 1 <= sec.tt_bits <= 26:
        _fail(f"parallel.tt_bits must be in [1, 26]; got {sec.tt_bits}")
    if not sec.trees and not sec.games:
        _fail("parallel.trees and parallel.games are both empty: nothing to simulate")
    sens = sec.sensitivity
    bad = [c for c in sens.costs if c not in SENSITIVE_COSTS]
    if bad or len(set(sens.costs)) != len(sens.costs):
        _fail(f"parallel.sensitivity.costs must be distinct names of {', '.join(SENSITIVE_COSTS)}; "
              f"got {sens.costs!r}")
    if any(not 0.0 < f <= 100.0 or f == 1.0 for f in sens.factors) or \
            len(set(sens.factors)) != len(sens.factors):
        _fail("parallel.sensitivity.factors must be distinct numbers in (0, 100] other than 1 "
              f"(1 is parallel.costs itself); got {sens.factors!r}")
    marked = [i for i, b in enumerate(sec.trees) if b.sensitivity]
    if marked and not (sens.costs and sens.factors):
        _fail(f"parallel.trees[{marked[0]}].sensitivity is true but parallel.sensitivity has no "
              "costs or no factors: give both, e.g. {costs: [split, message, tt], factors: [0.5, 2.0]}")
    if (sens.costs or sens.factors) and not marked:
        _fail("parallel.sensitivity is set but no parallel.trees block has sensitivity: true")
    for i, b in enumerate(sec.trees):
        k = f"parallel.trees[{i}]"
        if b.model not in MODELS:
            _fail(f"{k}.model must be one of {', '.join(MODELS)}; got {b.model!r}")
        _ints(f"{k}.b", [b.b], 2, 64)
        _ints(f"{k}.d", b.d, 1, 24)
        _ints(f"{k}.trees", [b.trees], 1, 10_000)
        _ints(f"{k}.p", b.p, 1, MAX_PROCESSORS)
        if b.model == "ordered" and (not b.order_p or any(not 0.0 <= x <= 1.0 for x in b.order_p)):
            _fail(f"{k}.order_p must be a non-empty list of probabilities in [0, 1]; "
                  f"got {b.order_p!r}")
        if float(b.b) ** max(b.d) > 4e10:
            _fail(f"{k}: b^d = {b.b}^{max(b.d)} is beyond the simulator's study size (4e10 "
                  "leaves); lower d")
    for i, g in enumerate(sec.games):
        k = f"parallel.games[{i}]"
        if g.game not in GAMES:
            _fail(f"{k}.game must be one of {', '.join(GAMES)}; got {g.game!r}")
        _ints(f"{k}.depth", g.depth, 1, 20)
        _ints(f"{k}.positions", [g.positions], 1, 1000)
        _ints(f"{k}.opening_ply", [g.opening_ply], 0, 30)
        _ints(f"{k}.p", g.p, 1, MAX_PROCESSORS)
        if not g.orderings:
            _fail(f"{k}.orderings must be a non-empty list")
        from_game = GAMES[g.game].start()
        for o in g.orderings:
            try:
                _check_ordering(from_game, o)
            except Exception as e:  # noqa: BLE001 -- the library's one-line message
                _fail(f"{k}.orderings: {e}")


def _check_ordering(game: Any, ordering: str) -> None:
    policy(game, compiled_game(game), ordering, "ybwc")


@dataclass(frozen=True)
class ParallelTask:
    """One task: a tree (``kind`` tree) or a game position (game) under one configuration."""

    index: int
    task_id: str
    label: str
    kind: str
    args: tuple
    est_work: int = 1
    est_nodes: int = 1

    def run(self, settings: RunSettings) -> dict:
        c0 = time.process_time()
        rows = tree_rows(*self.args[1:]) if self.kind == "tree" else game_rows(*self.args[1:])
        for r in rows:
            r.update(study=settings.experiment, table=self.args[0], task_id=self.task_id,
                     task_index=self.index)
        return {"task_id": self.task_id, "status": "ok", "rows": rows, "label": self.label,
                "cpu": time.process_time() - c0}

    def failed(self, error: str, attempts: int) -> dict:
        return {"task_id": self.task_id, "status": "failed", "rows": [], "label": self.label,
                "error": error[:2000], "attempts": attempts, "cpu": 0.0}


def _task_id(*identity: Any) -> str:
    return task_digest(repr(identity))


def plan_parallel_tasks(pc: ParallelConfig) -> list[ParallelTask]:
    """The tasks, in config order: a function of the config and its seed only. ``est_work``:
    the sequential search's leaves times the number of simulations (a batching weight)."""
    sec, tasks = pc.section, []
    costs = Costs(**dataclasses.asdict(sec.costs))
    algs = tuple(sec.algorithms)
    grid = [(c, f) for c in sec.sensitivity.costs for f in sec.sensitivity.factors]
    for b in sec.trees:
        variants = [(b.table, costs, "")] + [
            ("sensitivity", dataclasses.replace(costs, **{c: getattr(costs, c) * f}), f" {c}x{f:g}")
            for c, f in (grid if b.sensitivity else [])]
        for table, cs, tag in variants:
            for d in b.d:
                for op in (b.order_p if b.model == "ordered" else [None]):
                    for k in range(b.trees):
                        ts = derive_seed(pc.seed, f"parallel/tree/{b.model}/{b.b}/{d}/{op}/{k}") \
                            & 0x7FFFFFFF        # the same trees under every cost variant
                        ident = ("tree", b.table, b.model, b.b, d, op, ts, algs, tuple(b.p)) + \
                            ((table, dataclasses.astuple(cs)) if tag else ())
                        w = int(b.b ** (0.75 * d)) * len(algs) * len(b.p)
                        tasks.append(ParallelTask(
                            len(tasks), _task_id(*ident), f"{table}/{b.model} b={b.b} d={d} "
                            f"order_p={op}{tag} #{k}", "tree",
                            (table, b.model, b.b, d, ts, op, algs, tuple(b.p), cs, sec.min_split,
                             sec.tt_bits), w, w))
    for g in sec.games:
        for d in g.depth:
            for o in g.orderings:
                for k in range(g.positions):
                    ply = 0 if k == 0 else g.opening_ply
                    ps = derive_seed(pc.seed, f"parallel/game/{g.game}/{ply}/{k}") & 0x7FFFFFFF
                    ident = ("game", g.table, g.game, ply, ps, d, o, algs, tuple(g.p))
                    w = int(6 ** (0.75 * d)) * len(algs) * len(g.p)
                    tasks.append(ParallelTask(
                        len(tasks), _task_id(*ident), f"{g.table}/{g.game} d={d} {o} #{k}",
                        "game", (g.table, g.game, ply, ps, d, o, algs, tuple(g.p), costs,
                                 sec.min_split, sec.tt_bits, pc.seed), w, w))
    return tasks


def config_hash(pc: ParallelConfig) -> str:
    d = {"study": pc.study, "seed": pc.seed, "section": dataclasses.asdict(pc.section)}
    d["section"].pop("size")
    return config_digest(d)


def parallel_session(pc: ParallelConfig) -> Session:
    """The study as a session of the engine's skeleton (session.py): rows into table/
    (the report: studies/parallel/parallel_report.py)."""
    return Session(
        kind="parallel", name=pc.study, config_hash=config_hash(pc),
        config_yaml=dump_yaml({"name": pc.study, "seed": pc.seed,
                               "parallel": dataclasses.asdict(pc.section)}),
        plan=lambda run_dir, log: plan_parallel_tasks(pc),
        rows=EnvelopeRows({None: (store.TABLE_DIR, PARALLEL_SCHEMA)}),
        settings={"engine": "kernel"})

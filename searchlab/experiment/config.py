"""The experiment schema: structured-config dataclasses, and the validation run before any work.

Hydra composes ``searchlab/conf/config.yaml`` + ``searchlab/conf/experiment/<study>.yaml`` + command-line overrides into
a config typed by :class:`ExperimentConfig` (OmegaConf checks every value's *type* while
composing). :func:`validate` then checks every value's *range* and every name, and returns a
:class:`Study`: plain Python values that the grid, the budget guard and the runner consume. Only
this module, ``api.py`` and ``searchlab/cli.py`` see Hydra or OmegaConf objects.

Every user error raises :class:`ConfigError` (a ``ValueError``) whose message is one line naming
the config key, the bad value and what is allowed; the command line prints it without a
traceback. ``docs/config.md`` is the reference of every option; keep it in step with the
docstrings below.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional

from searchlab.errors import SearchlabError

#: The config directory shipped inside the package (groups, and the presets in experiment/).
CONF_DIR = Path(__file__).resolve().parents[1] / "conf"
EXPERIMENTS_DIR = CONF_DIR / "experiment"

TREE_PARAMS = {
    "iid": ("levels",),
    "ordered": ("p",),
    "incremental": ("decay", "correlation"),
    "explicit": ("values",),
}
TREE_DEFAULTS = {"levels": 0, "p": 1.0, "decay": 0.8, "correlation": 0.5}
BACKENDS = ("loky", "dask", "threading", "sequential")
#: Largest oracle the compiled kernel / the reference builds (perfect and worst order on trees
#: without known values need the exact value of every node: b^d leaf evaluations).
KERNEL_ORACLE_MAX_LEAVES = 2**26
REFERENCE_ORACLE_MAX_LEAVES = 2**20


class ConfigError(SearchlabError, ValueError):
    """A user error in the configuration; the message is one line naming the key."""


# --------------------------------------------------------------------------------------------
# The schema
# --------------------------------------------------------------------------------------------

@dataclass
class TreeConfig:
    """The synthetic tree model (config group ``tree``: iid, ordered, incremental, explicit).

    Attributes:
        model: the tree model: ``iid`` (i.i.d. leaf values), ``ordered`` (values known by
            construction, ordering quality ``p``), ``incremental`` (correlated, static values at
            every node) or ``explicit`` (a literal nested list). null = no tree (the study
            searches a ``game``; the default config selects ``tree: iid``).
        levels: iid only. 0 = continuous leaf values in [0, 1); K >= 1 = integer values
            ``key mod K`` (few levels = many ties).
        p: ordered only, in [0, 1]: probability that natural order puts the best move first
            (1 = perfectly ordered, 1/b = random, 0 = worst-first).
        decay: incremental only, in (0, 1]: edge values at ply t are scaled by decay^t.
        correlation: incremental only, in [0, 1]: how much a move index's quality is shared by
            all nodes of a ply.
        values: explicit only: the tree as nested lists of leaf values (MAX at the root), e.g.
            ``[[3,12,8],[2,4,6],[14,5,2]]``; ``sweep.b`` and ``sweep.d`` are then ignored.
    Parameters that do not belong to the chosen model must stay null.
    """

    model: Optional[str] = None
    levels: Optional[int] = None
    p: Optional[float] = None
    decay: Optional[float] = None
    correlation: Optional[float] = None
    values: Optional[Any] = None


@dataclass
class SearchConfig:
    """The search algorithm and its parameters (config group ``search``).

    Attributes:
        algorithm: ``minimax``, ``alphabeta`` (fail-soft) or ``alphabeta-failhard``. The default
            of ``sweep.algorithm``.
        engine: ``auto`` (the numba kernel where one exists), ``kernel`` or ``reference``.
        depth: search horizon in plies; null = the tree's full depth d. A horizon below d needs
            static values (incremental trees).
        max_nodes: per-task node budget: a search that visits more nodes is stopped and its row
            recorded with status ``aborted`` (never dropped). null = ``runner.max_nodes``.
        aspiration: half-width of the aspiration window around the previous iteration's value
            (> 0); needs iterative deepening: every swept ordering must include ``id``.
            null = full window.
        tt_size: entries of the transposition table (``tt``, ``id``, ``mtdf``): a power of two.
    """

    algorithm: str = "alphabeta"
    engine: str = "auto"
    depth: Optional[int] = None
    max_nodes: Optional[int] = None
    aspiration: Optional[float] = None
    tt_size: int = 65536


@dataclass
class OrderingConfig:
    """The move-ordering policy (config group ``ordering``).

    Attributes:
        name: ``natural``, ``random`` (seeded per task), ``perfect``, ``worst`` or ``static``
            (static values: incremental trees and games), a game's own order (``centre``
            Connect Four, ``corners`` Othello, ``captures`` chess), possibly composed with the
            dynamic components ``id``, ``tt``, ``killer``, ``history`` in priority order, e.g.
            ``tt+killer+history+static`` (searchlab/algorithms/ordering.py). The default of
            ``sweep.ordering``.
    """

    name: str = "natural"


@dataclass
class GameConfig:
    """A real game instead of a synthetic tree (config group ``game``: tictactoe, connect4,
    othello, chess, hex). A study searches a tree or a game, never both.

    Attributes:
        name: ``tictactoe``, ``connect4``, ``othello``, ``chess``, ``hex``; null = no game (a
            tree study).
        positions: where the positions come from: tictactoe ``start``; connect4 a Pons
            benchmark file shipped in searchlab/data/connect4 (``Test_L1_R1``, ``Test_L2_R1``,
            ``Test_L3_R1``); othello ``random`` (seeded random positions at ``ply``, one per
            ``sweep.instances``); chess an EPD suite shipped in searchlab/data/chess (``wac``,
            ``bk``); hex the board size ``NxN`` (``1x1`` .. ``11x11``; seeded random positions
            at ``ply``, as othello).
        sample: file sources (connect4, chess): n positions drawn by a seeded permutation of the
            file (the first n of it: a smaller sample is a prefix of a larger one); null or
            ``all`` = every position, in file order.
        ply: othello and hex only: random moves played from the start (othello 0..120, hex
            0..n*n-1).
        d: search depths for this game (same forms as ``sweep.d``), replacing ``sweep.d`` for
            it; mostly for ``sweep.games`` entries (chess is far slower than Othello). null =
            ``sweep.d``.
    The instances of a game study are its positions; ``sweep.d`` is the search depth.
    """

    name: Optional[str] = None
    positions: Optional[str] = None
    sample: Optional[Any] = None
    ply: Optional[int] = None
    d: Optional[Any] = None


@dataclass
class SweepConfig:
    """The grid of one study: every combination becomes tasks (one tree instance x one search).

    Attributes:
        b: branching factors: a list (``[2,4,8]``), one integer, or an inclusive range string
            ``"2..32"`` / ``"2..32:2"`` (step). Each b >= 1.
        d: depths (plies), same forms as ``b``; each d >= 0.
        d_by_b: depths for particular b, overriding ``d`` for those b: ``{2: "1..20", 32: [1,2]}``.
        d_budget: when set, grid points whose estimated work per task (search nodes, plus the
            perfect/worst oracle's b^d leaves) exceeds it are left out of the grid (listed in
            the plan), so each b gets the depths "as far as the budget allows". null = keep all.
        algorithm: search algorithms to sweep (default: ``[${search.algorithm}]``).
        ordering: ordering policies to sweep (default: ``[${ordering.name}]``).
        instances: tree instances per grid point (>= 1); instance i is the same tree for every
            algorithm and ordering (paired comparisons). Othello: the number of random positions;
            other games take their positions from ``game.sample``.
        trees: several tree models in one study: a list of tree configs (same keys as ``tree``,
            e.g. ``[{model: iid}, {model: ordered, p: 1.0}]``); empty = just ``tree``.
        games: several games in one study: a list of game configs (same keys as ``game``, e.g.
            ``[{name: othello, ply: 20}, {name: chess, positions: wac, sample: 10}]``); an
            ordering that names a game's own order (centre, corners, captures) runs on the games
            that have it. Empty = just ``game``.
        d_by_ordering: depths for particular orderings, restricting ``d`` for them, e.g.
            ``{perfect: "1..3"}`` (the exact-value oracle is affordable only at small depths).
        decay, correlation: sweep the incremental tree's parameters: every listed value becomes
            one tree (with the other parameter of ``tree`` / each ``sweep.trees`` entry);
            empty = the tree's own value.
    """

    b: Any = field(default_factory=lambda: [2, 4, 8])
    d: Any = "1..6"
    d_by_b: Dict[int, Any] = field(default_factory=dict)
    d_budget: Optional[int] = None
    algorithm: List[str] = field(default_factory=lambda: ["${search.algorithm}"])
    ordering: List[str] = field(default_factory=lambda: ["${ordering.name}"])
    instances: int = 10
    trees: List[TreeConfig] = field(default_factory=list)
    d_by_ordering: Dict[str, Any] = field(default_factory=dict)
    games: List[GameConfig] = field(default_factory=list)
    decay: List[float] = field(default_factory=list)
    correlation: List[float] = field(default_factory=list)


@dataclass
class RunnerConfig:
    """How the tasks run (config group ``runner``: local, dask).

    Attributes:
        backend: ``loky`` (worker processes, the default), ``dask`` (a Dask distributed
            cluster through joblib's dask backend), ``threading`` or ``sequential``.
        n_jobs: parallel workers; -1 = all cores; 1 = in this process (no worker crash
            protection). For dask: joblib's n_jobs (-1 = all the cluster's workers).
        max_nodes: the budget guard: tasks whose estimated work exceeds it are refused before
            any work (the message lists them); raise it to run them anyway. Also the default
            per-task node budget (``search.max_nodes``).
        batch_nodes: estimated work (nodes) per dispatched batch: tiny tasks are grouped so
            dispatch cost does not dominate; a batch never exceeds ``max_batch_tasks`` tasks.
        max_batch_tasks: upper bound on tasks per batch.
        flush_rows: rows buffered before a Parquet part file is written (atomically).
        flush_seconds: a part is also written when this many seconds passed since the last.
        retries: times a task is retried after its worker crashed (or it raised) before its
            row is recorded with status ``failed``.
        resume: a run directory to complete: finished tasks (read from its Parquet parts) are
            skipped, missing ones run; the config must be the one of that run (same hash).
        progress: show a tqdm progress bar (tasks done, rate, ETA) on stderr.
        report: write report.md and figures with searchlab.analysis at the end of the run.
        address: dask only: the scheduler, e.g. ``tcp://host:8786``; null = start a
            LocalCluster for the run.
        n_workers: dask LocalCluster only: worker count (null = n_jobs if > 0, else all cores).
        processes: dask LocalCluster only: workers are processes (true) or threads (false).
    """

    backend: str = "loky"
    n_jobs: int = -1
    max_nodes: int = 100_000_000
    batch_nodes: int = 2_000_000
    max_batch_tasks: int = 2000
    flush_rows: int = 5000
    flush_seconds: float = 30.0
    retries: int = 1
    resume: Optional[str] = None
    progress: bool = True
    report: bool = True
    address: Optional[str] = None
    n_workers: Optional[int] = None
    processes: bool = True


@dataclass
class ExperimentConfig:
    """The whole configuration of one run (= one study).

    Attributes:
        name: the experiment's name: the ``experiment`` column and the results folder
            ``<results_dir>/<name>/<timestamp>/``. Each preset sets it.
        description: one line saying what the study is for (copied into provenance).
        seed: the experiment's root seed; every task's tree seed and ordering seed derive from
            it and the task's identity (numpy SeedSequence), never from execution order.
        results_dir: where run directories are created (relative to the working directory).
        tree, game, search, ordering, sweep, runner: see their classes (exactly one of tree
            and game is used).
    """

    name: str = "quick"
    description: str = ""
    seed: int = 0
    results_dir: str = "results"
    tree: TreeConfig = field(default_factory=TreeConfig)
    game: GameConfig = field(default_factory=GameConfig)
    search: SearchConfig = field(default_factory=SearchConfig)
    ordering: OrderingConfig = field(default_factory=OrderingConfig)
    sweep: SweepConfig = field(default_factory=SweepConfig)
    runner: RunnerConfig = field(default_factory=RunnerConfig)


# --------------------------------------------------------------------------------------------
# Registration with Hydra
# --------------------------------------------------------------------------------------------

_REGISTERED = False


def register_configs() -> None:
    """Store the schema and the experiment presets in Hydra's ConfigStore (idempotent).

    The presets are files of the ``experiment`` group in ``searchlab/conf/experiment/`` (each
    headed ``# @package _global_``), so ``experiment=NAME`` works from any working directory.
    """
    global _REGISTERED
    if _REGISTERED:
        return
    from hydra.core.config_store import ConfigStore

    cs = ConfigStore.instance()
    cs.store(name="searchlab_schema", node=ExperimentConfig, provider="searchlab")
    _register_resolvers()
    _REGISTERED = True


def _register_resolvers() -> None:
    from omegaconf import OmegaConf

    if not OmegaConf.has_resolver("searchlab_run_dir"):
        # hydra.run.dir: the resumed run's directory when runner.resume is set.
        OmegaConf.register_new_resolver(
            "searchlab_run_dir", lambda resume, fresh: fresh if resume in (None, "", "None") else resume)


# --------------------------------------------------------------------------------------------
# Validation: config -> Study
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class TreeSpec:
    """One tree model with all its parameters filled in (plain values)."""

    model: str
    levels: Optional[int] = None
    p: Optional[float] = None
    decay: Optional[float] = None
    correlation: Optional[float] = None
    values: Optional[Any] = None

    def params(self) -> dict[str, Any]:
        """The make_tree keyword parameters specific to the model."""
        if self.model == "explicit":
            return {"nested": self.values}
        return {k: getattr(self, k) for k in TREE_PARAMS[self.model]}

    def identity(self) -> dict[str, Any]:
        d = {"model": self.model}
        for k in TREE_PARAMS[self.model]:
            d[k] = getattr(self, k)
        return d


@dataclass(frozen=True)
class Study:
    """A validated experiment: plain values, no OmegaConf."""

    name: str
    description: str
    seed: int
    results_dir: str
    trees: tuple[TreeSpec, ...]
    b: tuple[int, ...]
    d: tuple[int, ...]
    d_by_b: dict
    d_budget: Optional[int]
    algorithms: tuple[str, ...]
    orderings: tuple[str, ...]
    instances: int
    engine: str
    depth: Optional[int]
    task_max_nodes: int
    runner: RunnerConfig
    config: dict  # the resolved config as plain containers (written beside the table)
    games: tuple = ()                        # games.GameSpec of a game study (trees = ())
    positions: dict = field(default_factory=dict)   # GameSpec -> its games.Position tuple
    game_orderings: dict = field(default_factory=dict)  # GameSpec -> orderings it can run
    d_by_ordering: dict = field(default_factory=dict)
    aspiration: Optional[float] = None
    tt_size: int = 65536

    @property
    def game(self) -> Optional[Any]:
        """The (first) game of a game study; None for a tree study."""
        return self.games[0] if self.games else None

    def depths_for(self, b: int) -> tuple[int, ...]:
        return tuple(self.d_by_b.get(b, self.d))

    def keeps(self, ordering: str, d: int) -> bool:
        """False when sweep.d_by_ordering restricts this ordering's depths and d is not one."""
        allowed = self.d_by_ordering.get(ordering)
        return allowed is None or d in allowed

    def science(self) -> dict:
        """Everything that determines the table's content (the runner excluded). Keys added
        for games and dynamic policies appear only when used, so the hash of a tree study
        written before them is unchanged."""
        out = {
            "name": self.name, "seed": self.seed,
            "trees": [t.identity() for t in self.trees],
            "b": list(self.b), "d": list(self.d),
            "d_by_b": {str(k): list(v) for k, v in sorted(self.d_by_b.items())},
            "d_budget": self.d_budget, "algorithms": list(self.algorithms),
            "orderings": list(self.orderings), "instances": self.instances,
            "engine": self.engine, "depth": self.depth, "task_max_nodes": self.task_max_nodes,
        }
        if self.games:
            out["games"] = [{**g.identity(), "sample": g.sample,
                             **({"d": list(g.depths)} if g.depths is not None else {}),
                             "positions": [p.id for p in self.positions[g]],
                             "orderings": list(self.game_orderings[g])} for g in self.games]
        if self.d_by_ordering:
            out["d_by_ordering"] = {k: list(v) for k, v in sorted(self.d_by_ordering.items())}
        if self.aspiration is not None:
            out["aspiration"] = self.aspiration
        if self.tt_size != 65536:
            out["tt_size"] = self.tt_size
        return out

    @property
    def config_hash(self) -> str:
        blob = json.dumps(self.science(), sort_keys=True, default=str).encode()
        return hashlib.sha256(blob).hexdigest()[:16]


_RANGE = re.compile(r"^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*(?::\s*(-?\d+)\s*)?$")


def parse_int_list(key: str, value: Any, minimum: int) -> tuple[int, ...]:
    """A list of ints from a list, an int, or an inclusive range string "lo..hi[:step]"."""
    if isinstance(value, bool):
        raise ConfigError(f"{key}: expected a list of integers or a range 'lo..hi'; got {value!r}")
    if isinstance(value, int):
        out = [value]
    elif isinstance(value, str):
        m = _RANGE.match(value)
        if m is None:
            try:
                out = [int(value)]
            except ValueError:
                raise ConfigError(
                    f"{key}: expected a list of integers or a range 'lo..hi' or 'lo..hi:step'; "
                    f"got {value!r}") from None
        else:
            lo, hi, step = int(m[1]), int(m[2]), int(m[3] or 1)
            if step < 1:
                raise ConfigError(f"{key}: range step must be >= 1; got {value!r}")
            out = list(range(lo, hi + 1, step))
    elif isinstance(value, (list, tuple)):
        out = []
        for v in value:
            if isinstance(v, bool) or not isinstance(v, int):
                if isinstance(v, str):
                    out.extend(parse_int_list(key, v, minimum))
                    continue
                raise ConfigError(f"{key}: every entry must be an integer; got {v!r}")
            out.append(v)
    else:
        raise ConfigError(f"{key}: expected a list of integers or a range 'lo..hi'; got {value!r}")
    if not out:
        raise ConfigError(f"{key}: the grid is empty ({value!r} gives no values)")
    for v in out:
        if v < minimum:
            raise ConfigError(f"{key}: every value must be >= {minimum}; got {v}")
    return tuple(sorted(set(out)))


def core_names() -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """(algorithms, ordering policies, engines) known to searchlab.algorithms."""
    from searchlab.algorithms import api

    algorithms = tuple(getattr(api, "ALGORITHMS"))
    orderings = getattr(api, "ORDERINGS", None)
    if orderings is None:
        from searchlab.algorithms.ordering import ORDERINGS as orderings
    engines = tuple(getattr(api, "ENGINES", ("auto", "reference", "kernel")))
    return algorithms, tuple(orderings), engines


def _ordering(key: str, value: Any, game: Any = None) -> str:
    """An ordering spec: base orders (the game's own included) and dynamic components composed
    with '+' in priority order (e.g. tt+killer+history+static), checked by the core's
    parse_ordering (``game`` None = a synthetic tree)."""
    from searchlab.algorithms.ordering import parse_ordering

    try:
        parse_ordering(value, game)
    except ValueError as e:
        first = str(e).splitlines()[0] if str(e) else type(e).__name__
        where = f" (game {game.name})" if game is not None else ""
        raise ConfigError(f"{key}: {first}{where}") from None
    return value


def _choice(key: str, value: Any, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise ConfigError(f"{key}: unknown value {value!r}; allowed: {', '.join(allowed)}")
    return value


def _tree_spec(key: str, t: Any) -> TreeSpec:
    from searchlab.trees import TREE_MODELS

    get = (lambda k: t.get(k)) if isinstance(t, dict) else (lambda k: getattr(t, k))
    model = get("model")
    if model is None and key != "tree":
        model = "iid"                      # a sweep.trees entry without a model: the default
    model = _choice(f"{key}.model", model, tuple(TREE_MODELS))
    vals: dict[str, Any] = {}
    for param in ("levels", "p", "decay", "correlation", "values"):
        v = get(param)
        if param in TREE_PARAMS[model]:
            if v is None:
                v = TREE_DEFAULTS.get(param)
            vals[param] = v
        elif v is not None:
            raise ConfigError(
                f"{key}.{param} is not a parameter of tree model {model!r} "
                f"(its parameters: {', '.join(TREE_PARAMS[model])}); leave it null")
    if model == "iid":
        lv = vals["levels"]
        if isinstance(lv, bool) or not isinstance(lv, int) or lv < 0:
            raise ConfigError(f"{key}.levels must be an integer >= 0 (0 = continuous); got {lv!r}")
    elif model == "ordered":
        if not 0.0 <= float(vals["p"]) <= 1.0:
            raise ConfigError(f"{key}.p must be in [0, 1]; got {vals['p']!r}")
        vals["p"] = float(vals["p"])
    elif model == "incremental":
        if not 0.0 < float(vals["decay"]) <= 1.0:
            raise ConfigError(f"{key}.decay must be in (0, 1]; got {vals['decay']!r}")
        if not 0.0 <= float(vals["correlation"]) <= 1.0:
            raise ConfigError(f"{key}.correlation must be in [0, 1]; got {vals['correlation']!r}")
        vals["decay"], vals["correlation"] = float(vals["decay"]), float(vals["correlation"])
    elif model == "explicit":
        if vals["values"] is None:
            raise ConfigError(f"{key}.values: an explicit tree needs its nested list of leaf values")
        vals["values"] = _freeze(vals["values"])
        try:
            from searchlab.trees import make_tree
            make_tree("explicit", nested=_thaw(vals["values"]))
        except ValueError as e:
            raise ConfigError(f"{key}.values: {e}") from None
    return TreeSpec(model=model, **vals)


def _freeze(v: Any) -> Any:
    if isinstance(v, (list, tuple)):
        return tuple(_freeze(x) for x in v)
    return v


def _thaw(v: Any) -> Any:
    if isinstance(v, tuple):
        return [_thaw(x) for x in v]
    return v


def _check_int(key: str, v: Any, minimum: int, allow_none: bool = False) -> Optional[int]:
    if v is None and allow_none:
        return None
    if isinstance(v, bool) or not isinstance(v, int) or v < minimum:
        raise ConfigError(f"{key} must be an integer >= {minimum}{' or null' if allow_none else ''}; got {v!r}")
    return v


def validate(cfg: Any) -> Study:
    """Check every value of a composed config (DictConfig, ExperimentConfig or dict).

    Raises ConfigError (one line, naming the key) on the first problem found. Checks that need
    the grid (budget, oracle size, empty grid after trimming) are in grid.plan().
    """
    from omegaconf import DictConfig, OmegaConf

    if isinstance(cfg, DictConfig):
        plain = OmegaConf.to_container(cfg, resolve=True)
    elif isinstance(cfg, ExperimentConfig):
        plain = OmegaConf.to_container(OmegaConf.structured(cfg), resolve=True)
    else:
        plain = OmegaConf.to_container(OmegaConf.merge(OmegaConf.structured(ExperimentConfig), cfg),
                                       resolve=True)
    plain.pop("experiment", None)
    from dataclasses import fields as _fields

    known = {f.name for f in _fields(ExperimentConfig)}
    unknown = sorted(k for k in plain if k not in known)
    if unknown:
        raise ConfigError(f"unknown config key {unknown[0]!r}; allowed top-level keys: "
                          f"{', '.join(sorted(known))}")
    ALGORITHMS, ORDERINGS, ENGINES = core_names()

    name = plain["name"]
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9_.+-]+", name or ""):
        raise ConfigError(f"name must be a non-empty word (letters, digits, _ . + -); got {name!r}")
    seed = _check_int("seed", plain["seed"], 0)
    sweep, search, runner = plain["sweep"], plain["search"], plain["runner"]

    game_cfg = plain.get("game") or {}
    game_cfgs = [(f"sweep.games[{i}]", g) for i, g in enumerate(sweep.get("games") or [])] \
        or ([("game", game_cfg)] if game_cfg.get("name") is not None else [])
    tree_model = (plain.get("tree") or {}).get("model")
    if game_cfgs:
        if sweep["trees"] or tree_model is not None:
            what = "sweep.trees" if sweep["trees"] else f"tree={tree_model}"
            names = ",".join(str(g.get("name")) for _, g in game_cfgs)
            raise ConfigError(
                f"a study searches a tree or a game, not both: {what} and game={names}; drop "
                f"the tree (~tree on the command line) or the game (~game)")
        trees: tuple[TreeSpec, ...] = ()
    elif sweep["trees"]:
        trees = tuple(_tree_spec(f"sweep.trees[{i}]", t) for i, t in enumerate(sweep["trees"]))
    elif tree_model is None:
        raise ConfigError("a study searches a tree or a game: none is chosen (select one, e.g. "
                          "tree=iid or game=connect4)")
    else:
        trees = (_tree_spec("tree", plain["tree"]),)
    trees = _sweep_tree_params(trees, sweep)
    if len(set(trees)) != len(trees):
        raise ConfigError("sweep.trees: the same tree model and parameters are listed twice")

    b = parse_int_list("sweep.b", sweep["b"], 1)
    d = parse_int_list("sweep.d", sweep["d"], 0)
    d_by_b = {}
    for k, v in (sweep["d_by_b"] or {}).items():
        kb = int(k)
        if kb not in b:
            raise ConfigError(f"sweep.d_by_b: b={kb} is not in sweep.b {list(b)}")
        d_by_b[kb] = parse_int_list(f"sweep.d_by_b[{kb}]", v, 0)
    d_budget = _check_int("sweep.d_budget", sweep["d_budget"], 1, allow_none=True)
    _choice("search.algorithm", search["algorithm"], tuple(ALGORITHMS))
    instances = _check_int("sweep.instances", sweep["instances"], 1)
    games = tuple(_game_spec(key, g) for key, g in game_cfgs)
    if len(set(games)) != len(games):
        raise ConfigError("sweep.games: the same game and positions are listed twice")
    from searchlab.experiment.games import sample_game as _sample

    samples = {g: _sample(g.name) for g in games}
    if not sweep["algorithm"]:
        raise ConfigError("sweep.algorithm: the grid is empty (no algorithm listed)")
    if not sweep["ordering"]:
        raise ConfigError("sweep.ordering: the grid is empty (no ordering listed)")
    algorithms = tuple(dict.fromkeys(_choice("sweep.algorithm", a, tuple(ALGORITHMS))
                                     for a in sweep["algorithm"]))
    game_orderings: dict = {}
    if len(games) <= 1:
        sample_game = samples[games[0]] if games else None
        _ordering("ordering.name", plain["ordering"]["name"], sample_game)
        orderings = tuple(dict.fromkeys(_ordering("sweep.ordering", o, sample_game)
                                        for o in sweep["ordering"]))
        if games:
            game_orderings[games[0]] = orderings
    else:
        # several games: an ordering naming a game's own order (centre, corners, captures)
        # runs on the games that have it; every ordering must fit at least one game
        orderings = tuple(dict.fromkeys(sweep["ordering"]))
        for g in games:
            game_orderings[g] = tuple(o for o in orderings if _fits(o, samples[g]))
        for o in orderings:
            if not any(o in v for v in game_orderings.values()):
                _ordering("sweep.ordering", o, samples[games[0]])   # raises, naming what is allowed
    d_by_ordering = {}
    for k, v in (sweep.get("d_by_ordering") or {}).items():
        if k not in orderings:
            raise ConfigError(f"sweep.d_by_ordering: ordering {k!r} is not in sweep.ordering "
                              f"{list(orderings)}")
        d_by_ordering[k] = parse_int_list(f"sweep.d_by_ordering[{k}]", v, 0)
    engine = _choice("search.engine", search["engine"], tuple(ENGINES))
    depth = _check_int("search.depth", search["depth"], 0, allow_none=True)
    if games and depth is not None:
        raise ConfigError("search.depth is for trees; a game study's search depths are sweep.d "
                          "(leave search.depth null)")
    tt_size = search.get("tt_size", 65536)
    if isinstance(tt_size, bool) or not isinstance(tt_size, int) or tt_size < 1 \
            or tt_size & (tt_size - 1):
        raise ConfigError(f"search.tt_size must be a power of two >= 1; got {tt_size!r}")
    aspiration = search.get("aspiration")
    if aspiration is not None:
        if isinstance(aspiration, bool) or not float(aspiration) > 0 \
                or float(aspiration) == float("inf"):
            raise ConfigError(f"search.aspiration must be a number > 0 or null; got {aspiration!r}")
        aspiration = float(aspiration)
        lacking = [o for o in orderings if "id" not in o.split("+")]
        if lacking:
            raise ConfigError(
                f"search.aspiration works on top of iterative deepening: every ordering needs "
                f"'id'; these lack it: {', '.join(lacking)}")
    positions: dict = {}
    for g in games:
        from searchlab.experiment.games import select_positions

        try:
            positions[g] = select_positions(g, seed, instances)
        except (OSError, ValueError) as e:
            first = str(e).splitlines()[0] if str(e) else type(e).__name__
            raise ConfigError(f"game.positions={g.positions!r}: {first}") from None
        if not positions[g]:
            raise ConfigError(f"game.positions={g.positions!r}: no position")

    _choice("runner.backend", runner["backend"], BACKENDS)
    nj = runner["n_jobs"]
    if isinstance(nj, bool) or not isinstance(nj, int) or nj == 0 or nj < -1:
        raise ConfigError(f"runner.n_jobs must be -1 (all cores) or an integer >= 1; got {nj!r}")
    _check_int("runner.max_nodes", runner["max_nodes"], 1)
    _check_int("runner.batch_nodes", runner["batch_nodes"], 1)
    _check_int("runner.max_batch_tasks", runner["max_batch_tasks"], 1)
    _check_int("runner.flush_rows", runner["flush_rows"], 1)
    _check_int("runner.retries", runner["retries"], 0)
    if not runner["flush_seconds"] > 0:
        raise ConfigError(f"runner.flush_seconds must be > 0; got {runner['flush_seconds']!r}")
    _check_int("runner.n_workers", runner["n_workers"], 1, allow_none=True)
    if runner["address"] is not None and runner["backend"] != "dask":
        raise ConfigError("runner.address is only used by runner=dask (backend dask)")
    task_max = _check_int("search.max_nodes", search["max_nodes"], 1, allow_none=True)
    if task_max is None:
        task_max = runner["max_nodes"]

    if not isinstance(plain["results_dir"], str) or not plain["results_dir"]:
        raise ConfigError(f"results_dir must be a non-empty path; got {plain['results_dir']!r}")

    return Study(
        name=name, description=str(plain.get("description") or ""), seed=seed,
        results_dir=plain["results_dir"], trees=trees, b=b, d=d, d_by_b=d_by_b,
        d_budget=d_budget, algorithms=algorithms, orderings=orderings, instances=instances,
        engine=engine, depth=depth, task_max_nodes=task_max,
        runner=RunnerConfig(**runner), config=plain, games=games, positions=positions,
        game_orderings=game_orderings,
        d_by_ordering=d_by_ordering, aspiration=aspiration, tt_size=tt_size)


def _sweep_tree_params(trees: tuple[TreeSpec, ...], sweep: dict) -> tuple[TreeSpec, ...]:
    """Expand sweep.decay / sweep.correlation: one incremental tree per listed value."""
    import dataclasses

    out = list(trees)
    for param in ("decay", "correlation"):
        values = sweep.get(param) or []
        if not values:
            continue
        if not any(t.model == "incremental" for t in out):
            models = ", ".join(sorted({t.model for t in out})) or "none (a game study)"
            raise ConfigError(f"sweep.{param} sweeps the incremental tree's {param}; the study's "
                              f"tree is {models}")
        expanded = []
        for t in out:
            if t.model != "incremental":
                expanded.append(t)
                continue
            for v in values:
                spec = dataclasses.replace(t, **{param: float(v)})
                expanded.append(_tree_spec(f"sweep.{param}", dataclasses.asdict(spec)))
        out = list(dict.fromkeys(expanded))
    return tuple(out)


def _fits(ordering: str, game: Any) -> bool:
    from searchlab.algorithms.ordering import parse_ordering

    try:
        parse_ordering(ordering, game)
    except ValueError:
        return False
    return True


def _game_spec(key: str, g: dict) -> Any:
    """The validated GameSpec of config ``game`` (or a sweep.games entry)."""
    from searchlab.experiment.games import GAMES, SOURCES, GameSpec

    name = _choice(f"{key}.name", g.get("name"), GAMES)
    positions = g.get("positions")
    if positions is None:
        positions = SOURCES[name][0] if len(SOURCES[name]) == 1 else None
    if positions not in SOURCES[name]:
        raise ConfigError(f"{key}.positions: unknown position source {positions!r} for {name}; "
                          f"allowed: {', '.join(SOURCES[name])}")
    sample = g.get("sample")
    if sample == "all":
        sample = None
    if sample is not None:
        if name not in ("connect4", "chess"):
            raise ConfigError(f"{key}.sample draws positions from a file (connect4, chess); {name} "
                              "has none: leave it null" + (f" ({name}: sweep.instances positions)"
                                                           if name in ("othello", "hex") else ""))
        if isinstance(sample, bool) or not isinstance(sample, int) or sample < 1:
            raise ConfigError(f"{key}.sample must be an integer >= 1, 'all' or null; got {sample!r}")
    ply = g.get("ply")
    if name in ("othello", "hex"):
        top = 120 if name == "othello" else int(positions.split("x")[0]) ** 2 - 1
        if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= top:
            raise ConfigError(f"{key}.ply must be an integer in 0..{top} (random moves from the "
                              f"start{'' if name == 'othello' else ' of the ' + positions + ' board'}); "
                              f"got {ply!r}")
    elif ply is not None:
        raise ConfigError(f"{key}.ply is a parameter of othello's and hex's random positions; "
                          f"{name} has none: leave it null")
    depths = None if g.get("d") is None else parse_int_list(f"{key}.d", g.get("d"), 0)
    return GameSpec(name=name, positions=positions, sample=sample, ply=ply, depths=depths)


def config_error_message(exc: BaseException) -> str:
    """One line for a Hydra/OmegaConf composition error: which key or option, what is allowed."""
    chain = []
    e: Optional[BaseException] = exc
    while e is not None and e not in chain:
        chain.append(e)
        e = e.__cause__ or e.__context__
    text = "\n".join(str(x) for x in chain)
    # unknown option of a config group
    m = re.search(r"Could not find '([^']+)/([^']+)'", text) or \
        re.search(r"Could not load '([^']+)/([^']+)'", text)
    if m:
        group, option = m[1], m[2]
        opts = available_options(group)
        allowed = f"; allowed: {', '.join(opts)}" if opts else ""
        return f"unknown option {option!r} for config group {group!r}{allowed}"
    append = re.search(r"To append to your config use (\+\S.*)", text)
    for x in chain:
        full_key = getattr(x, "full_key", None)
        if full_key:
            msg = getattr(x, "msg", str(x)).splitlines()[0]
            if "not in" in msg or "Key '" in msg and "not" in msg:
                obj = getattr(x, "object_type", None)
                from dataclasses import fields, is_dataclass

                if obj is not None and is_dataclass(obj):
                    keys = [f.name for f in fields(obj)]
                    where = f" (a {obj.__name__})"
                else:
                    parent = full_key.rsplit(".", 1)[0] if "." in full_key else ""
                    keys = _keys_of(parent)
                    where = f" in {parent}" if parent else ""
                allowed = f"; allowed keys{where}: {', '.join(keys)}" if keys else ""
                hint = (f"; to add a new key write {append[1].strip()}"
                        if append and not keys else "")
                return f"unknown config key {full_key!r}{allowed}{hint}"
            return f"{full_key}: {msg}"
    m = re.search(r"Could not override '([^']+)'", text)
    if m:
        lines = [ln for ln in text.splitlines() if ln.strip() and not ln.startswith("To ")]
        detail = lines[-1].strip() if lines else ""
        return f"could not override {m[1]!r}: {detail}"
    first = str(exc).strip().splitlines()
    return " ".join(ln.strip() for ln in first[:2]) if first else type(exc).__name__


def available_options(group: str) -> list[str]:
    """Options of a config group (files in conf/<group>/, presets for 'experiment')."""
    if group == "experiment":
        return sorted(p.stem for p in EXPERIMENTS_DIR.glob("*.yaml"))
    d = CONF_DIR / group
    return sorted(p.stem for p in d.glob("*.yaml")) if d.is_dir() else []


def _keys_of(path: str) -> list[str]:
    from dataclasses import fields

    cls: Any = ExperimentConfig
    for part in [p for p in path.split(".") if p]:
        part = re.sub(r"\[\d+\]$", "", part)
        f = {x.name: x for x in fields(cls)}.get(part)
        if f is None:
            return []
        t = f.type if not isinstance(f.type, str) else f.type
        cls = {"TreeConfig": TreeConfig, "SearchConfig": SearchConfig,
               "OrderingConfig": OrderingConfig, "SweepConfig": SweepConfig, "GameConfig": GameConfig,
               "RunnerConfig": RunnerConfig, "List[TreeConfig]": TreeConfig}.get(str(t).replace("typing.", ""))
        if cls is None:
            return []
    return [x.name for x in fields(cls)]

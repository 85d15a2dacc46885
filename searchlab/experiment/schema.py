"""The experiment schema: the structured-config dataclasses Hydra composes a run's config into.

Hydra composes ``conf/config.yaml`` + ``experiments/<study>.yaml`` +
command-line overrides into a config typed by :class:`ExperimentConfig` (OmegaConf checks every
value's *type* while composing); ``validation.validate`` then checks every value's *range* and
every name and returns a ``study.Study`` of plain values. ``docs/config.md`` is the reference of
every option; keep it in step with the docstrings below.

Every user error raises :class:`ConfigError` (a ``ValueError``) whose message is one line naming
the config key, the bad value and what is allowed; the command line prints it without a
traceback.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, make_dataclass
from typing import Any, Dict, List, Optional

from searchlab.contracts.pruning import Technique
from searchlab.config_dirs import CONF_DIR, EXPERIMENTS_DIR  # noqa: F401  (re-exported: the engine's names for them)
from searchlab.errors import SearchlabError



TREE_PARAMS = {
    "iid": ("levels", "win_prob"),
    "ordered": ("p",),
    "incremental": ("decay", "correlation"),
    "explicit": ("values",),
}
TREE_DEFAULTS = {"levels": 0, "p": 1.0, "decay": 0.8, "correlation": 0.5}
#: the tree models with static values at interior nodes (``Capabilities.static_values``; iterative
#: deepening and the ``static`` order need them): the models' own declaration, restated here so
#: that validation and the dry run need not import the trees' compiled code
#: (tests/experiment/test_dry_run.py checks it against the models)
TREE_STATIC_VALUES = ("incremental",)
#: parameters left out of a tree's identity (task ids, seeds) and make_tree call while unset
#: (null), so that every study that does not use them keeps its seeds and numbers
OPTIONAL_TREE_PARAMS = ("win_prob",)
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
        win_prob: iid only, with levels 0: a number q in [0, 1] makes every leaf a win (1) for
            MAX with probability q, else a loss (0): Pearl's win/loss trees (docs/trees.md);
            null = the continuous or discrete values of ``levels``.
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
    win_prob: Optional[float] = None
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
        plugins: modules imported before the config is validated, in the main process and in
            every worker of a sweep: each registers ordering components (or games) from
            Python (docs/extending.md). Installed entry points need no entry here.
    """

    algorithm: str = "alphabeta"
    engine: str = "auto"
    depth: Optional[int] = None
    max_nodes: Optional[int] = None
    aspiration: Optional[float] = None
    tt_size: int = 65536
    plugins: List[str] = field(default_factory=list)


#: the technique record's fields a ``pruning`` group option does not set: an option's label
#: is its name (validation's ``_label`` says which overrides changed it)
NOT_OPTION_KEYS = ("label",)


def technique_node() -> type:
    """The ``pruning`` group's node (one technique per option, conf/pruning/NAME.yaml: none,
    null_r2, lmr_log, futility_03, beam_3, quiescence_4, ...; its parameters are overrides,
    e.g. ``pruning=null_r2 pruning.null_move.reduction=3``), generated from the technique
    record's own fields (searchlab.contracts.pruning.Technique), so that the record is the
    one declaration: a field added there is a key here. Hydra checks the keys while
    composing; ``Technique.from_config`` reads the node and checks every parameter (the
    trade-off study's techniques and the tuning grid are the same record).

    Keys: ``name`` (the ``pruning`` column; ``none`` = plain alpha-beta), ``family`` (null =
    the one the field set says; a plug-in family's registered name or ``module:ATTR``), the
    technique fields (``null_move``, ``lmr``, ``futility``, ``beam``, ``probcut``,
    ``quiescence``: a mapping of the record's parameters, null = off; margins in the searched
    game's static-value units) and ``params`` (a plug-in family's parameters)."""
    kinds = {"name": (str, "none"), "family": (Optional[str], None)}
    spec = [(f.name, *kinds.get(f.name, (Optional[Dict[str, Any]], None)))
            for f in fields(Technique) if f.name not in NOT_OPTION_KEYS]
    node = make_dataclass("TechniqueNode", [(n, t, field(default=d)) for n, t, d in spec],
                          namespace={"__doc__": technique_node.__doc__})
    node.__module__ = __name__
    return node


TechniqueNode = technique_node()


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
            ``bk``); hex the board size ``NxN`` (``1x1`` .. ``11x11``; seeded random positions at
            ``ply``, as othello).
        sample: file sources (connect4, chess): n positions drawn by a seeded permutation of the
            file (the first n of it: a smaller sample is a prefix of a larger one); null or
            ``all`` = every position, in file order.
        ply: othello and hex only: random moves played from the start (othello 0..61, hex
            0..n*n-1).
        d: search depths for this game (same forms as ``sweep.d``), replacing ``sweep.d`` for
            it; mostly for ``sweep.games`` entries (chess is far slower than Othello). null =
            ``sweep.d``.
        _target_: a game of the user's own (Hydra's convention): the dotted path of its class
            or factory, e.g. ``mypkg.games.Nim``, importable by the run (on PYTHONPATH or
            installed); ``name`` is then the game's name in the run's tables and ``positions``
            ``start`` (the game as built) or ``random`` (``ply`` seeded random moves from it).
            null = a registered game (docs/extending.md).
        params: keyword arguments of the ``_target_`` (e.g. ``{heaps: [3, 4, 5]}``; on the
            command line ``+game.params.heaps=[3,4,5]``); empty = none.
    The instances of a game study are its positions; ``sweep.d`` is the search depth. The
    registered games (built-in and installed plug-ins) are searchlab.games.registry's.
    """

    name: Optional[str] = None
    positions: Optional[str] = None
    sample: Optional[Any] = None
    ply: Optional[int] = None
    d: Optional[Any] = None
    _target_: Optional[str] = None
    params: Optional[Dict[str, Any]] = field(default_factory=dict)


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
        ordering: ordering policies to sweep: a list, or one policy (default: ``${ordering}``,
            the top-level ``ordering``). Any spec ``searchlab.search()`` takes, composed
            policies included (``id+tt+killer+history+centre``).
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
        max_nodes_by_ordering: the per-search node budget of particular orderings, overriding
            ``search.max_nodes`` for their tasks at every depth, e.g. ``{natural: 1000000}``
            (a weak policy's deep searches mostly hit the cap: a lower one costs less). It
            bounds the task's estimated work (budget guard, ``d_budget``, batching); a search
            over it is recorded with status ``aborted``. Empty = ``search.max_nodes`` for all.
        pruning: pruning techniques to sweep: names of the ``pruning`` group's options (a list
            or one name; default ``${pruning.name}``); the chosen ``pruning`` option's overrides
            apply to its own entry. ``none`` = plain alpha-beta.
        decay, correlation: sweep the incremental tree's parameters: every listed value becomes
            one tree (with the other parameter of ``tree`` / each ``sweep.trees`` entry);
            empty = the tree's own value.
    """

    b: Any = field(default_factory=lambda: [2, 4, 8])
    d: Any = "1..6"
    d_by_b: Dict[int, Any] = field(default_factory=dict)
    d_budget: Optional[int] = None
    algorithm: List[str] = field(default_factory=lambda: ["${search.algorithm}"])
    ordering: Any = "${ordering}"
    pruning: Any = "${pruning.name}"
    instances: int = 10
    trees: List[TreeConfig] = field(default_factory=list)
    d_by_ordering: Dict[str, Any] = field(default_factory=dict)
    max_nodes_by_ordering: Dict[str, Any] = field(default_factory=dict)
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
        fit_depths: the fit window of the report's and tables' EBF fits: the deepest this many
            depths measured of each configuration (an integer >= 2), or null for every depth.
            Reporting only: it changes no task, seed or config hash.
        ordering: the move-ordering policy, or a list of them: ``natural``, ``random`` (seeded
            per task), ``perfect``, ``worst``, ``static`` (static values: incremental trees and
            games), a game's own order (``centre`` Connect Four, ``corners`` Othello,
            ``captures`` chess), possibly composed with the dynamic components ``id``, ``tt``,
            ``killer``, ``history`` in priority order, e.g. ``tt+killer+history+static``
            (searchlab/algorithms/ordering.py). The default of ``sweep.ordering``.
        tree, game, search, pruning, sweep, runner: see their classes (exactly one of tree and game is
            used).
        tradeoff: the trade-off study's section (``experiment=unsound_tradeoff``; schema
            studies/tradeoff/tradeoff_config.py TradeoffSection, docs/tradeoff.md); when set, the run's
            tasks are that study's (positions and matches), not a sweep. null = a sweep.
        parallel: the parallel-search study's section (``experiment=parallel``; schema
            studies/parallel/parallel_study.py ParallelSection, docs/parallel.md); when set, the run's
            tasks are simulations of parallel alpha-beta, not a sweep. null = a sweep.
        claim_study: a claim family's study (``experiment=chance``, ``multiplayer``, ``convergence``;
            keys family, size, openings, budget: studies/claim_study/claim_study.py, docs/chance-and-multiplayer.md);
            when set, the run's tasks are that family's steps, not a sweep. null = a sweep.
    """

    name: str = "quick"
    description: str = ""
    seed: int = 0
    results_dir: str = "results"
    fit_depths: Optional[int] = 8
    tree: TreeConfig = field(default_factory=TreeConfig)
    game: GameConfig = field(default_factory=GameConfig)
    search: SearchConfig = field(default_factory=SearchConfig)
    ordering: Any = "natural"
    pruning: TechniqueNode = field(default_factory=TechniqueNode)  # type: ignore[valid-type]
    sweep: SweepConfig = field(default_factory=SweepConfig)
    runner: RunnerConfig = field(default_factory=RunnerConfig)
    tradeoff: Optional[Any] = None
    parallel: Optional[Any] = None
    claim_study: Optional[Any] = None


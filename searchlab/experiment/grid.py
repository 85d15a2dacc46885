"""The grid: a validated Study expanded into tasks (one tree instance x one search configuration).

Task identity and seeds (DESIGN.md, "Seeds"):

- a *tree instance* is (tree model and its parameters, b, d, instance number); its ``seed`` is
  derived from the experiment's root seed and that identity only, through numpy's
  SeedSequence (``entropy = root seed``, ``spawn_key`` = 32-bit words of a BLAKE2b digest of the
  identity), as one uint64. Every algorithm and ordering therefore searches the very same tree
  instance i: comparisons are paired.
- ``ordering_seed`` (used by random order) is derived the same way from the tree instance's
  identity plus the ordering policy's name (not the algorithm: alpha-beta fail-soft and
  fail-hard see the same random order, so their counts can be compared node for node).
- ``task_id`` is a 16-hex-digit digest of the full identity (tree instance, algorithm,
  ordering); resume skips tasks by it. Nothing depends on execution order or on n_jobs.
- Game studies: an instance is a *position* (searchlab/experiment/games.py): its ``seed`` derives
  from (game, position source, Othello ply, instance), the same at every depth; the task's
  identity adds the search depth d, and ``ordering_seed`` derives from that plus the ordering.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
from dataclasses import dataclass
from typing import Any, Optional

from searchlab.algorithms.search_api import search
from searchlab.algorithms.ordering import REFERENCE_ORACLE_MAX_LEAVES as GAME_ORACLE
from searchlab.algorithms.ordering_registry import describe
from searchlab.experiment import budget
from searchlab.experiment.games import make_game, position_identity
from searchlab.experiment.schema import KERNEL_ORACLE_MAX_LEAVES, REFERENCE_ORACLE_MAX_LEAVES, ConfigError
from searchlab.experiment.seeds import derive_seed, task_digest
from searchlab.experiment.study import Study, TreeSpec, thaw
from searchlab.limits import MAX_GRID_POINTS, MAX_TASKS
from searchlab.trees import make_tree


@dataclass(frozen=True, slots=True)
class Task:
    """One tree instance x one search configuration, with its derived seeds and estimates."""

    index: int
    task_id: str
    tree: TreeSpec
    b: int
    d: int
    algorithm: str
    ordering: str
    instance: int
    seed: int
    ordering_seed: int
    est_nodes: int
    est_work: int
    game: Any = None            # games.GameSpec (game studies; tree is None, b is None)
    position: Any = None        # games.Position
    pruning: str = "none"       # the pruning technique's name (study.prunings)
    #: the ordering's own per-search cap (sweep.max_nodes_by_ordering); None = the study's
    #: search.max_nodes (RunSettings.task_max_nodes)
    max_nodes: Optional[int] = None

    def tree_key(self) -> tuple:
        if self.game is not None:
            return (self.game, self.position.instance, self.position.seed)
        return (self.tree, self.b, self.d, self.seed)

    @property
    def model(self) -> str:
        """The tree model or the game's name (for messages and summaries)."""
        return self.game.name if self.game is not None else self.tree.model


def tree_identity(tree: TreeSpec, b: int, d: int, instance: int) -> str:
    return json.dumps({**tree.identity(), "b": b, "d": d, "instance": instance},
                      sort_keys=True, default=list)


def explicit_shape(values: Any) -> tuple[int, int]:
    """(largest branching, depth) of a nested-list tree."""
    if not isinstance(values, (list, tuple)):
        return 0, 0
    bs, ds = zip(*(explicit_shape(v) for v in values)) if values else ((0,), (0,))
    return max(len(values), *bs), 1 + max(ds)


@dataclass
class Plan:
    """The tasks of a study, plus what the planner left out and why."""

    tasks: list[Task]
    trimmed: list[tuple]        # (tree, b, d, algorithm, ordering, est_work) left out by d_budget
    points: int                 # grid points before trimming

    @property
    def total_work(self) -> int:
        return budget.total_work(self.tasks)


def grid_points(study: Study):
    """(tree, b, d) combinations, in grid order."""
    for tree in study.trees:
        if tree.model == "explicit":
            b, d = explicit_shape(thaw(tree.values))
            yield tree, b, d
            continue
        for b in study.b:
            for d in study.depths_for(b):
                yield tree, b, d


def _game_points(study: Study) -> tuple[list[tuple], list[tuple], int]:
    """A game study's points, without their positions: (kept points as (game, d, algorithm,
    ordering, nodes, work, cap), points trimmed by sweep.d_budget, the number of points);
    ConfigError for an oracle over its limit or an empty grid."""
    kept: list[tuple] = []
    trimmed: list[tuple] = []
    points = 0
    too_big: list[str] = []
    for g, d in ((g, d) for g in study.games for d in (g.depths or study.d)):
        nb = g.entry().nominal_b
        for algorithm in study.algorithms:
            for ordering in study.game_orderings[g]:
                if not study.keeps(ordering, d):
                    continue
                points += 1
                cap = study.max_nodes_by_ordering.get(ordering)
                nodes, work = budget.capped(*budget.estimate_game(nb, d, algorithm, ordering), cap)
                if study.d_budget is not None and work > study.d_budget:
                    trimmed.append((g, None, d, algorithm, ordering, work))
                    continue
                if budget.oracle_game_leaves(nb, d, ordering) > GAME_ORACLE:
                    too_big.append(f"{g.name} {ordering} at d={d} (~{budget.human(nb ** d)} "
                                   f"leaves at b~{nb})")
                kept.append((g, d, algorithm, ordering, nodes, work, cap))
    if too_big:
        raise ConfigError(
            f"perfect/worst order on a game needs an exact-value oracle over the whole tree, "
            f"limited to {budget.human(GAME_ORACLE)} leaves; over it: {'; '.join(too_big[:6])} "
            f"— restrict its depths with sweep.d_by_ordering (e.g. {{perfect: 1..3}})")
    if not kept:
        raise ConfigError(_empty_reason(study, points, trimmed))
    return kept, trimmed, points


def _plan_game(study: Study, check_support: bool = True) -> Plan:
    """The tasks of a game study: depth x algorithm x ordering x position."""
    kept, trimmed, points = _game_points(study)
    if check_support:
        probe(study)
    tasks: list[Task] = []
    for g, d, algorithm, ordering, nodes, work, cap in kept:
        for pos in study.positions[g]:
            ident = position_identity(g, pos.instance) + f"|d={d}"
            oseed = derive_seed(study.seed, ident + "|ordering=" + ordering)
            full = ident + f"|algorithm={algorithm}|ordering={ordering}"
            tid = task_digest(full)
            tasks.append(Task(len(tasks), tid, None, None, d, algorithm, ordering,
                              pos.instance, pos.seed, oseed, nodes, work, g, pos,
                              max_nodes=cap))
    return Plan(tasks, trimmed, points)


def with_pruning(p: Plan, study: Study) -> Plan:
    """Every task once per pruning technique of ``study.prunings``, the techniques of one
    search next to each other (paired comparisons share a batch). The task of ``none`` keeps
    its identity (and task_id) as before the pruning axis; another technique adds
    ``|pruning=NAME`` to it. Seeds are the same for every technique."""
    names = [name for name, _ in study.prunings]
    if names == ["none"]:
        return p
    tasks = []
    for t in p.tasks:
        for name in names:
            tid = t.task_id if name == "none" else \
                task_digest(f"{t.task_id}|pruning={name}")
            tasks.append(dataclasses.replace(t, index=len(tasks), task_id=tid, pruning=name))
    return Plan(tasks, p.trimmed, p.points)


def plan(study: Study, check_support: bool = True) -> Plan:
    """The study's tasks (every grid point x instance x pruning technique), or ConfigError.
    ``check_support=False`` skips the probe (a depth-1 search per combination, which may
    compile an engine): for ``--cfg``, which prints the config and runs nothing."""
    return with_pruning(_plan(study, check_support), study)


def _has_static(tree: TreeSpec) -> bool:
    if tree.model == "explicit":
        return False
    return bool(make_tree(tree.model, b=2, d=2, seed=1, **tree.params()).capabilities.static_values)


def static_only(study: Study) -> set[tuple[int, str]]:
    """(index into study.trees, ordering) pairs the grid leaves out: in a study of several tree
    models, an ordering that needs static values at interior nodes (iterative deepening
    evaluates shallower horizons) runs on the trees that have them (incremental) and not on
    those that draw leaf values only (iid, ordered; experiment=tour). Empty when every tree or
    none has them: then probe() reports an unsupported combination as an error, as for a
    single tree."""
    if len(study.trees) < 2:
        return set()
    has = [_has_static(t) for t in study.trees]
    if all(has) or not any(has):
        return set()
    # what an ordering needs is declared in the ordering registry (static, id: static values)
    needs_static = [o for o in study.orderings if "static_values" in describe(o).needs]
    return {(i, o) for i in range(len(study.trees)) if not has[i] for o in needs_static}


def _points(study: Study) -> tuple[list[tuple], list[tuple], int, list[str]]:
    """The tree grid's points, without their instances: (kept points as (tree, b, d,
    algorithm, ordering, nodes, work, cap), points trimmed by sweep.d_budget, the number of
    points, the oracles over the engine's limit). ConfigError when the grid is over its limits.
    Its cost is the grid's, not the instances' (check_points)."""
    points = len(study.trees) * sum(len(study.depths_for(b)) for b in study.b) \
        * len(study.algorithms) * len(study.orderings) * len(study.prunings)
    if points > MAX_GRID_POINTS:
        raise ConfigError(f"the grid has up to {points} points (trees x b x d x algorithms x "
                          f"orderings x pruning techniques), over the limit of {MAX_GRID_POINTS} "
                          "per study (searchlab.limits.MAX_GRID_POINTS): shrink sweep.b or "
                          "sweep.d, or split the study")
    upper = points * study.instances
    if upper > MAX_TASKS:
        raise ConfigError(f"the grid has up to {upper} tasks, over the limit of {MAX_TASKS} per "
                          "study (searchlab.limits.MAX_TASKS): shrink sweep.b, sweep.d or "
                          "sweep.instances, or split the study")
    kept: list[tuple] = []
    trimmed: list[tuple] = []
    points = 0
    oracle_limit = REFERENCE_ORACLE_MAX_LEAVES if study.engine == "reference" else KERNEL_ORACLE_MAX_LEAVES
    too_big: list[str] = []
    skip = static_only(study)
    index = {id(t): i for i, t in enumerate(study.trees)}
    for tree, b, d in grid_points(study):
        horizon = d if study.depth is None else min(d, study.depth)
        for algorithm in study.algorithms:
            for ordering in study.orderings:
                if not study.keeps(ordering, d) or (index.get(id(tree)), ordering) in skip:
                    continue
                points += 1
                cap = study.max_nodes_by_ordering.get(ordering)
                nodes, work = budget.capped(
                    *budget.estimate(tree.model, b, horizon, algorithm, ordering, tree.p), cap)
                if study.d_budget is not None and work > study.d_budget:
                    trimmed.append((tree, b, d, algorithm, ordering, work))
                    continue
                leaves = budget.oracle_leaves(tree.model, b, horizon, ordering)
                if leaves > oracle_limit:
                    too_big.append(f"{tree.model} b={b} d={d} {ordering} ({budget.human(leaves)} leaves)")
                kept.append((tree, b, d, algorithm, ordering, nodes, work, cap))
    if too_big:
        raise ConfigError(
            f"perfect/worst order needs an exact-value oracle of b^d leaves, limited to "
            f"{budget.human(oracle_limit)} (engine {study.engine}); over it: "
            f"{'; '.join(too_big[:6])}{' ...' if len(too_big) > 6 else ''} — shrink sweep.d "
            f"(or set sweep.d_budget), or use the ordered tree model")
    if not kept:
        raise ConfigError(_empty_reason(study, points, trimmed))
    return kept, trimmed, points, too_big


def check_points(study: Study, max_nodes: int) -> None:
    """The planner's refusals (grid limits, oracle sizes, an empty grid) and the budget guard
    (runner.max_nodes) from the grid's points alone, each point's estimate standing for its
    sweep.instances tasks (a game's point: its positions): ConfigError with the messages of
    plan() and check_budget(), in time proportional to the grid, not to the instances (10^6
    instances answer at once)."""
    over: dict[tuple, int] = {}
    counts: dict[tuple, int] = {}
    techniques = len(study.prunings)
    if study.game is not None:
        for g, d, algorithm, ordering, _, work, _ in _game_points(study)[0]:
            if work > max_nodes:
                key = (g.name, None, d, algorithm, ordering)
                over[key] = work
                counts[key] = counts.get(key, 0) + len(study.positions[g]) * techniques
        _refuse_over(over, counts, max_nodes)
        return
    kept, _, _, _ = _points(study)
    per_point = study.instances * techniques
    for tree, b, d, algorithm, ordering, _, work, _ in kept:
        if work > max_nodes:
            key = (tree.model, b, d, algorithm, ordering)
            over[key] = work
            counts[key] = counts.get(key, 0) + per_point
    _refuse_over(over, counts, max_nodes)


def _plan(study: Study, check_support: bool = True) -> Plan:
    """Expand the grid into tasks; trim by sweep.d_budget; check oracle sizes.

    Raises ConfigError when the grid is empty or an oracle would be over the engine's limit.
    The budget guard (runner.max_nodes) is a separate step: check_budget().
    """
    if study.game is not None:
        return _plan_game(study, check_support)
    kept, trimmed, points, _ = _points(study)
    if check_support:
        probe(study)
    tasks: list[Task] = []
    for tree, b, d, algorithm, ordering, nodes, work, cap in kept:
        for instance in range(study.instances):
            ident = tree_identity(tree, b, d, instance)
            seed = 0 if tree.model == "explicit" else derive_seed(study.seed, ident)
            oseed = derive_seed(study.seed, ident + "|ordering=" + ordering)
            full = ident + f"|algorithm={algorithm}|ordering={ordering}"
            tid = task_digest(full)
            tasks.append(Task(len(tasks), tid, tree, b, d, algorithm, ordering, instance,
                              seed, oseed, nodes, work, max_nodes=cap))
    return Plan(tasks, trimmed, points)


def _empty_reason(study: Study, points: int, trimmed: list[tuple]) -> str:
    """Why a plan has no task, in one line."""
    if trimmed:
        least = min(trimmed, key=lambda t: t[-1])
        return (f"the grid is empty: all {points} grid points exceed sweep.d_budget="
                f"{study.d_budget} nodes of estimated work per task (the smallest, "
                f"{least[0].model if study.game is None else least[0].name} d={least[2]} "
                f"{least[3]}/{least[4]}, needs ~{budget.human(least[-1])}): raise "
                f"sweep.d_budget, or lower sweep.d")
    if points == 0 and study.d_by_ordering:
        return ("the grid is empty: sweep.d_by_ordering keeps none of the depths of sweep.d "
                f"{list(study.d)} for the orderings swept")
    return ("the grid is empty: sweep.b, sweep.d, sweep.algorithm and sweep.ordering give no "
            "task")


def probe(study: Study) -> None:
    """Ask the core whether every (tree model, algorithm, ordering) combination is supported,
    with a tiny tree of the same model and parameters (b = 2), before any real work.
    The core's InvalidParameterError / UnsupportedError become one-line ConfigErrors."""
    if study.games:
        for g in study.games:
            game = make_game(g, study.positions[g][0])
            for algorithm in study.algorithms:
                for ordering, (name, pruning) in itertools.product(study.game_orderings[g],
                                                                    study.prunings):
                    try:
                        search(game, algorithm=algorithm, ordering=ordering, depth=1,
                               ordering_seed=1, engine=study.engine, max_nodes=None,
                               aspiration=study.aspiration, tt_size=study.tt_size,
                               pruning=pruning)
                    except ValueError as e:
                        first = str(e).splitlines()[0] if str(e) else type(e).__name__
                        raise ConfigError(f"game {g.name}, algorithm {algorithm}, ordering "
                                          f"{ordering}, engine {study.engine}"
                                          f"{_pruning_label(name)}: {first}") from None
        return
    skip = static_only(study)
    for i, tree in enumerate(study.trees):
        for algorithm in study.algorithms:
            for ordering, (name, pruning) in itertools.product(study.orderings, study.prunings):
                if (i, ordering) in skip:
                    continue
                try:
                    if tree.model == "explicit":
                        t = make_tree("explicit", **tree.params())
                    else:
                        d = max(2, study.depth or 0)
                        if study.depth is not None and any(
                                dd > study.depth for b in study.b for dd in study.depths_for(b)):
                            d = study.depth + 1      # a horizon below the tree's depth
                        t = make_tree(tree.model, b=2, d=d, seed=1, **tree.params())
                    search(t, algorithm=algorithm, ordering=ordering, depth=study.depth,
                           ordering_seed=1, engine=study.engine, max_nodes=None,
                           aspiration=study.aspiration, tt_size=study.tt_size, pruning=pruning)
                except ValueError as e:
                    first = str(e).splitlines()[0] if str(e) else type(e).__name__
                    raise ConfigError(f"tree {tree.model}, algorithm {algorithm}, ordering "
                                      f"{ordering}, engine {study.engine}{_pruning_label(name)}"
                                      f"{'' if study.depth is None else f', depth {study.depth}'}: "
                                      f"{first}") from None


def _pruning_label(name: str) -> str:
    return "" if name == "none" else f", pruning {name}"


def check_budget(p: Plan, max_nodes: int) -> None:
    """The budget guard: refuse (ConfigError) when any task's estimated work exceeds max_nodes."""
    over: dict[tuple, int] = {}
    counts: dict[tuple, int] = {}
    for t in p.tasks:
        if t.est_work > max_nodes:
            key = (t.model, t.b, t.d, t.algorithm, t.ordering)
            over[key] = t.est_work
            counts[key] = counts.get(key, 0) + 1
    _refuse_over(over, counts, max_nodes)


def _refuse_over(over: dict[tuple, int], counts: dict[tuple, int], max_nodes: int) -> None:
    """The budget guard's ConfigError for the tasks over max_nodes (none: nothing)."""
    if over:
        items = sorted(over.items(), key=lambda kv: -kv[1])
        listed = "; ".join(f"{m}{'' if b is None else f' b={b}'} d={d} {a}/{o}: ~{budget.human(w)} nodes x{counts[(m, b, d, a, o)]}"
                           for (m, b, d, a, o), w in items[:8])
        more = f" (and {len(items) - 8} more)" if len(items) > 8 else ""
        raise ConfigError(
            f"{sum(counts.values())} tasks are estimated above runner.max_nodes={max_nodes}: "
            f"{listed}{more} — raise runner.max_nodes, or shrink the sweep / set sweep.d_budget")


def summary(p: Plan, study: Study) -> str:
    """One line describing the plan; its counts add up (tasks = kept grid points x instances,
    or the sum over games of points x positions)."""
    n = len(p.tasks)
    kept = p.points - len(p.trimmed)
    techniques = f" x {len(study.prunings)} pruning techniques" if len(study.prunings) > 1 else ""
    if study.games:
        points = {g: len({(t.d, t.algorithm, t.ordering) for t in p.tasks if t.game == g})
                  for g in study.games}
        per = " + ".join(f"{points[g]} grid points x {len(study.positions[g])} "
                         f"{g.name} positions{techniques}" for g in study.games)
    else:
        per = f"{kept} grid points x {study.instances} instances{techniques}"
    left = f"; {len(p.trimmed)} more points over sweep.d_budget left out" if p.trimmed else ""
    line = (f"{study.name}: {n} tasks ({per}{left}); "
            f"estimated work {budget.human(p.total_work)} nodes")
    # a game without the compiled engine's primitives runs on the reference engine: said once
    slow = [g.name for g in study.games if not g.entry().compiled()]
    if slow and study.engine == "auto":
        line += (f"\n{', '.join(dict.fromkeys(slow))}: no compiled primitives; "
                 "searched on the reference engine (node for node the same counts, slower)")
    return line

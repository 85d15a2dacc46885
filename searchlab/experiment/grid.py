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
from searchlab.experiment import budget
from searchlab.experiment.games import make_game, position_identity
from searchlab.experiment.grid_size import (PlanSize, check_points, explicit_shape, game_points,
                                            grid_points, plan_size, refuse_over, size_summary,
                                            static_only, tree_points)
from searchlab.experiment.schema import ConfigError
from searchlab.experiment.seeds import derive_seed, task_digest
from searchlab.experiment.study import Study, TreeSpec
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


@dataclass
class Plan:
    """The tasks of a study, plus what the planner left out and why."""

    tasks: list[Task]
    trimmed: list[tuple]        # (tree, b, d, algorithm, ordering, est_work) left out by d_budget
    points: int                 # grid points before trimming

    @property
    def total_work(self) -> int:
        return budget.total_work(self.tasks)


def _plan_game(study: Study, check_support: bool = True) -> Plan:
    """The tasks of a game study: depth x algorithm x ordering x position."""
    kept, trimmed, points = game_points(study)
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


def _plan(study: Study, check_support: bool = True) -> Plan:
    """Expand the grid into tasks; trim by sweep.d_budget; check oracle sizes.

    Raises ConfigError when the grid is empty or an oracle would be over the engine's limit.
    The budget guard (runner.max_nodes) is a separate step: check_budget().
    """
    if study.game is not None:
        return _plan_game(study, check_support)
    kept, trimmed, points, _ = tree_points(study)
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
    refuse_over(over, counts, max_nodes)


def summary(p: Plan, study: Study) -> str:
    """One line describing the plan; its counts add up (tasks = kept grid points x instances,
    or the sum over games of points x positions). The words are size_summary's: the dry run
    (--plan, from the grid's sizes) and the run print the same line."""
    points = {g: len({(t.d, t.algorithm, t.ordering) for t in p.tasks if t.game == g})
              for g in study.games}
    return size_summary(PlanSize(len(p.tasks), p.total_work, p.points, len(p.trimmed), points),
                        study)


# the grid's sizes, refusals and guard (grid_size.py), under their names here as before
__all__ = ["Task", "Plan", "PlanSize", "plan", "plan_size", "probe", "check_budget",
           "check_points", "summary", "size_summary", "static_only", "grid_points",
           "explicit_shape", "tree_identity", "with_pruning", "ConfigError"]

"""The grid from its sizes: a validated Study's grid points, its refusals (grid limits, oracle
sizes, an empty grid, the budget guard) and its plan's counts (tasks, estimated work), without
building a task or a position and without the search engine.

Each point (tree, b, d, algorithm, ordering) of a tree study stands for its ``sweep.instances``
tasks x pruning techniques, a game's point for its positions x techniques; so the dry run
(``--plan``, ``--cfg job``) and the guard answer in time proportional to the grid, not to the
instances (10^6 instances at once), and load neither numba nor the trees' or games' code:
experiment/grid.py expands the same points into tasks for a run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator

from searchlab.algorithms.ordering import REFERENCE_ORACLE_MAX_LEAVES as GAME_ORACLE
from searchlab.algorithms.ordering_registry import describe
from searchlab.experiment import budget
from searchlab.experiment.schema import (KERNEL_ORACLE_MAX_LEAVES, REFERENCE_ORACLE_MAX_LEAVES,
                                         TREE_STATIC_VALUES, ConfigError)
from searchlab.experiment.study import Study, TreeSpec, thaw
from searchlab.limits import MAX_GRID_POINTS, MAX_TASKS

def explicit_shape(values: Any) -> tuple[int, int]:
    """(largest branching, depth) of a nested-list tree."""
    if not isinstance(values, (list, tuple)):
        return 0, 0
    bs, ds = zip(*(explicit_shape(v) for v in values)) if values else ((0,), (0,))
    return max(len(values), *bs), 1 + max(ds)


def grid_points(study: Study) -> Iterator[tuple[TreeSpec, int, int]]:
    """(tree, b, d) combinations, in grid order."""
    for tree in study.trees:
        if tree.model == "explicit":
            b, d = explicit_shape(thaw(tree.values))
            yield tree, b, d
            continue
        for b in study.b:
            for d in study.depths_for(b):
                yield tree, b, d


def has_static(tree: TreeSpec) -> bool:
    """Whether the tree model has static values at interior nodes (schema.TREE_STATIC_VALUES)."""
    return tree.model in TREE_STATIC_VALUES


def static_only(study: Study) -> set[tuple[int, str]]:
    """(index into study.trees, ordering) pairs the grid leaves out: in a study of several tree
    models, an ordering that needs static values at interior nodes (iterative deepening
    evaluates shallower horizons; the static order) runs on the trees that have them
    (incremental) and not on those that draw leaf values only (iid, ordered; experiment=tour).
    Empty when every tree or none has them: then the probe (grid.probe) reports an unsupported
    combination as an error, as for a single tree."""
    if len(study.trees) < 2:
        return set()
    has = [has_static(t) for t in study.trees]
    if all(has) or not any(has):
        return set()
    # what an ordering needs is declared in the ordering registry (static, id: static values)
    needs_static = [o for o in study.orderings if "static_values" in describe(o).needs]
    return {(i, o) for i in range(len(study.trees)) if not has[i] for o in needs_static}


def _check_tasks(upper: int, shrink: str) -> None:
    """ConfigError when the grid's upper bound on tasks is over MAX_TASKS, naming what to shrink."""
    if upper > MAX_TASKS:
        raise ConfigError(f"the grid has up to {upper} tasks, over the limit of {MAX_TASKS} per "
                          f"study (searchlab.limits.MAX_TASKS): shrink {shrink}, or split the study")


def game_points(study: Study) -> tuple[list[tuple], list[tuple], int]:
    """A game study's points, without their positions: (kept points as (game, d, algorithm,
    ordering, nodes, work, cap), points trimmed by sweep.d_budget, the number of points);
    ConfigError for a grid over MAX_TASKS, an oracle over its limit or an empty grid."""
    upper = sum(len(g.depths or study.d) * len(study.algorithms) * len(study.game_orderings[g])
                * len(study.positions[g]) for g in study.games) * len(study.prunings)
    _check_tasks(upper, "sweep.d, sweep.ordering or sweep.instances (game.sample)")
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
        raise ConfigError(empty_reason(study, points, trimmed))
    return kept, trimmed, points


def tree_points(study: Study) -> tuple[list[tuple], list[tuple], int, list[str]]:
    """The tree grid's points, without their instances: (kept points as (tree, b, d,
    algorithm, ordering, nodes, work, cap), points trimmed by sweep.d_budget, the number of
    points, the oracles over the engine's limit). ConfigError when the grid is over its limits.
    Its cost is the grid's, not the instances'."""
    points = len(study.trees) * sum(len(study.depths_for(b)) for b in study.b) \
        * len(study.algorithms) * len(study.orderings) * len(study.prunings)
    if points > MAX_GRID_POINTS:
        raise ConfigError(f"the grid has up to {points} points (trees x b x d x algorithms x "
                          f"orderings x pruning techniques), over the limit of {MAX_GRID_POINTS} "
                          "per study (searchlab.limits.MAX_GRID_POINTS): shrink sweep.b or "
                          "sweep.d, or split the study")
    upper = points * study.instances
    _check_tasks(upper, "sweep.b, sweep.d or sweep.instances")
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
        raise ConfigError(empty_reason(study, points, trimmed))
    return kept, trimmed, points, too_big


def check_points(study: Study, max_nodes: int) -> None:
    """The planner's refusals (grid limits, oracle sizes, an empty grid) and the budget guard
    (runner.max_nodes) from the grid's points alone, each point's estimate standing for its
    sweep.instances tasks (a game's point: its positions): ConfigError with the messages of
    grid.plan() and grid.check_budget(), in time proportional to the grid, not to the
    instances (10^6 instances answer at once)."""
    over: dict[tuple, int] = {}
    counts: dict[tuple, int] = {}
    techniques = len(study.prunings)
    if study.game is not None:
        for g, d, algorithm, ordering, _, work, _ in game_points(study)[0]:
            if work > max_nodes:
                key = (g.name, None, d, algorithm, ordering)
                over[key] = work
                counts[key] = counts.get(key, 0) + len(study.positions[g]) * techniques
        refuse_over(over, counts, max_nodes)
        return
    kept, _, _, _ = tree_points(study)
    per_point = study.instances * techniques
    for tree, b, d, algorithm, ordering, _, work, _ in kept:
        if work > max_nodes:
            key = (tree.model, b, d, algorithm, ordering)
            over[key] = work
            counts[key] = counts.get(key, 0) + per_point
    refuse_over(over, counts, max_nodes)


def refuse_over(over: dict[tuple, int], counts: dict[tuple, int], max_nodes: int) -> None:
    """The budget guard's ConfigError for the tasks over max_nodes (none: nothing)."""
    if over:
        items = sorted(over.items(), key=lambda kv: -kv[1])
        listed = "; ".join(f"{m}{'' if b is None else f' b={b}'} d={d} {a}/{o}: ~{budget.human(w)} nodes x{counts[(m, b, d, a, o)]}"
                           for (m, b, d, a, o), w in items[:8])
        more = f" (and {len(items) - 8} more)" if len(items) > 8 else ""
        raise ConfigError(
            f"{sum(counts.values())} tasks are estimated above runner.max_nodes={max_nodes}: "
            f"{listed}{more} — raise runner.max_nodes, or shrink the sweep / set sweep.d_budget")


def empty_reason(study: Study, points: int, trimmed: list[tuple]) -> str:
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


@dataclass(frozen=True)
class PlanSize:
    """The counts of the plan grid.plan() would make: ``tasks`` (kept points x instances or
    positions x pruning techniques), their estimated ``work`` in nodes (the sum of
    budget.task_work over those tasks), the grid's ``points`` before trimming, the points
    ``trimmed`` by sweep.d_budget, and each game's kept points (``game_points``)."""

    tasks: int
    work: int
    points: int
    trimmed: int
    game_points: dict = field(default_factory=dict)


def plan_size(study: Study) -> PlanSize:
    """The plan's counts from the grid's sizes (ConfigError as grid.plan raises it, the probe
    aside): no task, no position, no search."""
    techniques = len(study.prunings)
    if study.game is not None:
        kept, trimmed, points = game_points(study)
        tasks = work = 0
        per_game: dict = {}
        for g, _, _, _, _, w, _ in kept:
            n = len(study.positions[g]) * techniques
            tasks += n
            work += max(1, w) * n
            per_game[g] = per_game.get(g, 0) + 1
        return PlanSize(tasks, work, points, len(trimmed), per_game)
    kept, trimmed, points, _ = tree_points(study)
    n = study.instances * techniques
    return PlanSize(len(kept) * n, sum(max(1, p[6]) for p in kept) * n, points, len(trimmed))


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def size_summary(size: PlanSize, study: Study) -> str:
    """grid.summary's line from the plan's counts (the same words and numbers)."""
    techniques = f" x {len(study.prunings)} pruning techniques" if len(study.prunings) > 1 else ""
    if study.games:
        per = " + ".join(f"{_count(size.game_points.get(g, 0), 'grid point')} x "
                         f"{len(study.positions[g])} {g.name} positions{techniques}" for g in study.games)
    else:
        per = f"{_count(size.points - size.trimmed, 'grid point')} x {study.instances} instances{techniques}"
    left = f"; {size.trimmed} more points over sweep.d_budget left out" if size.trimmed else ""
    line = (f"{study.name}: {size.tasks} tasks ({per}{left}); "
            f"estimated work {budget.human(size.work)} nodes")
    return line + slow_games_line(study)


def slow_games_line(study: Study) -> str:
    """A game without the compiled engine's primitives, an ordering with a plug-in component
    (no compiled twin) or a plug-in pruning family (a Python hook the compiled engine declines)
    runs on the reference engine: said once each (a new line), or ''."""
    if study.engine != "auto":
        return ""
    out = ""
    slow = [g.name for g in study.games if not g.entry().compiled()]
    if slow:
        out += (f"\n{', '.join(dict.fromkeys(slow))}: no compiled primitives; "
                "searched on the reference engine (node for node the same counts, slower)")
    plugins = [p for o in study.orderings for p in describe(o).plugins]
    if plugins:
        out += (f"\nordering components {', '.join(dict.fromkeys(plugins))} (plug-ins): no "
                "compiled twin; searched on the reference engine")
    families = [f"{name} ({p.plugin.family.name})" for name, p in study.prunings
                if p is not None and p.plugin is not None]
    if families:
        out += (f"\npruning {', '.join(families)}: a plug-in family; searched on the reference "
                "engine (the compiled engine runs the built-in families)")
    return out

"""The budget guard's estimates: how many nodes a task will visit, before running it.

Estimates, per task (b = branching factor, d = search depth):

- minimax: the full tree, sum_{k=0..d} b^k = (b^(d+1) - 1) / (b - 1) nodes (exact).
- alpha-beta, perfect order: the Knuth–Moore minimal tree (exact for distinct values):
  b^ceil(k/2) + b^floor(k/2) - 1 nodes at ply k, summed over k = 0..d.
- alpha-beta, worst order: bounded by the full tree (worst-first still cuts a little).
- alpha-beta, random / natural / static order: an *empirical* upper bound,
  ``min(full tree, RANDOM_FACTOR * (1 + b * sum_{k=0..d-1} g^k))`` with g = max(b^(3/4), R_b)
  (Pearl's asymptotic branching factor R_b, which outgrows b^(3/4) for large b): the root is
  always expanded in full (b children: at d = 1 alpha-beta visits the whole tree), and each
  further ply multiplies the count by at most about g. Calibrated with the kernel over b = 2..3000
  and b = 10^4 at d = 1 (plus one instance at b = 10^4, d = 2: 1.19*10^7 nodes, estimate
  5.5*10^7), 6 instances per point, up to 2*10^7 nodes, on continuous and discrete iid trees,
  incremental trees (natural, static, random order) and ordered trees with p >= 1/b: the
  largest observed node count / (1 + b sum g^k) was 2.1; tests/experiment/test_budget_bound.py
  checks the bound over such a grid. An ordered tree with p < 1/b is ordered
  worse than random (p = 0: worst first): its bound is the full tree.
- Oracle: perfect and worst order on trees whose values are not known by construction (iid,
  incremental, explicit) first compute every node's exact value: one full minimax pass,
  b^d leaf evaluations (the full tree's nodes are counted as its work). The kernel refuses
  oracles above 2^26 leaves, the reference engine above 2^20 (TreeTooLargeError): the grid
  planner reports those at validation time. Ordered trees need no oracle.

- Games (searchlab/experiment/games.py): the same formulas with the game's nominal branching
  factor (chess 35, Othello 10, Connect Four 7, tic-tac-toe 5) and d = the search depth;
  dynamic policies (id, tt, killer, history) count as random order (iterative deepening's
  earlier iterations are a geometric tail: within the factor 4). The perfect/worst oracle of a
  game is a full minimax pass (nominal b^d leaves), refused above 2^20 leaves.

The *work* of a task (what the guard ``runner.max_nodes`` and ``sweep.d_budget`` compare with)
is its estimated search nodes plus its oracle's nodes; an ordering with its own per-search cap
(``sweep.max_nodes_by_ordering``) counts at most the cap of search nodes (``capped``).
"""

from __future__ import annotations

import math

from searchlab.algorithms.ordering_registry import describe
from searchlab.limits import MAX_COUNT, saturate

#: Largest observed (nodes / (1 + b sum_k g^k)) for random order was 2.1; rounded up.
RANDOM_FACTOR = 4.0

ORACLE_MODELS = ("iid", "incremental", "explicit")
_LOG_MAX = math.log(MAX_COUNT)


def _power(b: int, k: int) -> int:
    """b^k, saturated at MAX_COUNT (decided in log space: no huge integer is built)."""
    if b <= 1 or k == 0:
        return 1
    return min(b ** k, MAX_COUNT) if k * math.log(b) < _LOG_MAX + 1 else MAX_COUNT


def _log_geometric(log_r: float, n: int) -> float:
    """log(sum_{k=0..n-1} r^k) for r = exp(log_r) >= 1, without overflow."""
    if n <= 0:
        return -math.inf
    if log_r <= 0.0:
        return math.log(n)
    x = n * log_r
    # log((r^n - 1) / (r - 1)) = x + log1p(-e^-x) - log(r - 1)
    return x + math.log1p(-math.exp(-x)) - math.log(math.expm1(log_r))


def full_tree_nodes(b: int, d: int) -> int:
    """Nodes of the uniform tree of branching b and depth d, the root and the leaves included
    (saturated at searchlab.limits.MAX_COUNT)."""
    if b == 1:
        return min(d + 1, MAX_COUNT)
    if (d + 1) * math.log(b) >= _LOG_MAX + 1:
        return MAX_COUNT
    return min((b ** (d + 1) - 1) // (b - 1), MAX_COUNT)


def knuth_moore_leaves(b: int, d: int) -> int:
    """Leaves of the minimal tree (perfect ordering): b^ceil(d/2) + b^floor(d/2) - 1."""
    return min(MAX_COUNT, _power(b, (d + 1) // 2) + _power(b, d // 2) - 1)


def knuth_moore_nodes(b: int, d: int) -> int:
    """Nodes of the minimal tree: the Knuth–Moore count at every ply 0..d, summed."""
    if b > 1 and (d + 1) / 2 * math.log(b) >= _LOG_MAX:
        return MAX_COUNT
    return min(MAX_COUNT, sum(knuth_moore_leaves(b, k) for k in range(d + 1)))


def random_order_bound(b: int, d: int) -> int:
    """Empirical upper bound of alpha-beta's nodes under random order (see the module doc)."""
    if b == 1 or d == 0:
        return d + 1
    log_g = max(0.75 * math.log(b), math.log(pearl_branching_factor(b)))
    t = math.log(b) + _log_geometric(log_g, d)            # log(b * sum_{k<d} g^k)
    log_est = math.log(RANDOM_FACTOR) + t + math.log1p(math.exp(-t))
    return min(full_tree_nodes(b, d), saturate(log_est))


def pearl_branching_factor(b: int) -> float:
    """Pearl's asymptotic branching factor of alpha-beta on continuous iid trees:
    xi / (1 - xi) where xi is the positive root of x^b + x - 1 = 0."""
    if b == 1:
        return 1.0
    xi = _root(b)
    return xi / (1 - xi)


def _root(b: int) -> float:
    """The root in (0, 1) of x^b + x - 1 (increasing in x), by bisection to the last float:
    plain Python, so that the budget guard and the dry run do not load scipy (start-up,
    benchmarks/startup.py)."""
    lo, hi = 0.0, 1.0
    while True:
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            break
        if mid ** b + mid - 1 < 0:
            lo = mid
        else:
            hi = mid
    return min((lo, hi), key=lambda x: abs(x ** b + x - 1))


def search_nodes(b: int, d: int, algorithm: str, ordering: str, p: float | None = None) -> int:
    """Estimated (upper bound of) nodes a search visits; ``p``: the ordered tree's ordering
    quality (natural order on an ordered tree with p < 1/b is worse than random)."""
    if algorithm == "minimax":
        return full_tree_nodes(b, d)
    if ordering == "perfect":
        return knuth_moore_nodes(b, d)
    if ordering == "worst" or (p is not None and ordering == "natural" and p < 1.0 / b):
        return full_tree_nodes(b, d)
    return random_order_bound(b, d)


def needs_oracle(model: str, ordering: str) -> bool:
    return describe(ordering).oracle and model in ORACLE_MODELS


def oracle_leaves(model: str, b: int, d: int, ordering: str) -> int:
    """Leaf evaluations of the exact-value oracle (0 when none is needed)."""
    return _power(b, d) if needs_oracle(model, ordering) else 0


def estimate(model: str, b: int, d: int, algorithm: str, ordering: str,
             p: float | None = None) -> tuple[int, int]:
    """(estimated search nodes, estimated work = search nodes + oracle nodes) of one task,
    each saturated at searchlab.limits.MAX_COUNT."""
    nodes = search_nodes(b, d, algorithm, ordering, p)
    work = nodes + (full_tree_nodes(b, d) if needs_oracle(model, ordering) else 0)
    return nodes, min(work, MAX_COUNT)


def capped(nodes: int, work: int, cap: int | None) -> tuple[int, int]:
    """(nodes, work) of an estimate (``estimate``/``estimate_game``) whose search is stopped
    at ``cap`` nodes (None: not capped): the estimated nodes, kept as they are (a row's
    ``est_nodes``), and the work with at most ``cap`` search nodes (the oracle is not capped)."""
    if cap is None or nodes <= cap:
        return nodes, work
    return nodes, work - nodes + cap


def task_work(task) -> int:
    """A task's estimated work in nodes: its ``est_work`` (search nodes plus its oracle's, every
    task kind has it), at least 1. The one estimate behind the plan's line ("estimated work N
    nodes", grid.summary), the progress bar's total (runner.progress_total) and the budget
    guard, so that they agree for the same run."""
    return max(1, int(getattr(task, "est_work", 1) or 1))


def total_work(tasks) -> int:
    """The estimated work of ``tasks`` in nodes: the sum of ``task_work``."""
    return sum(task_work(t) for t in tasks)


def human(n: float) -> str:
    """1234567 -> '1.2e6'; MAX_COUNT (a saturated estimate) -> '>4.6e18'."""
    if n >= MAX_COUNT:
        return ">" + human(MAX_COUNT - 1)
    if n < 10_000:
        return str(int(n))
    return f"{n:.1e}".replace("e+0", "e").replace("e+", "e")


def estimate_game(nominal_b: int, d: int, algorithm: str, ordering: str) -> tuple[int, int]:
    """(estimated search nodes, work) of a game task at search depth d (nominal branching)."""
    base = describe(ordering).base
    order = base if base in ("perfect", "worst") else "random"
    nodes = search_nodes(nominal_b, d, "minimax" if algorithm == "minimax" else "alphabeta", order)
    work = nodes + (full_tree_nodes(nominal_b, d) if order in ("perfect", "worst") else 0)
    return nodes, min(work, MAX_COUNT)


def oracle_game_leaves(nominal_b: int, d: int, ordering: str) -> int:
    """Leaves of a game's exact-value oracle at depth d (0 when the ordering needs none)."""
    return _power(nominal_b, d) if describe(ordering).oracle else 0

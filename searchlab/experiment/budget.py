"""The budget guard's estimates: how many nodes a task will visit, before running it.

Estimates, per task (b = branching factor, d = search depth):

- minimax: the full tree, sum_{k=0..d} b^k = (b^(d+1) - 1) / (b - 1) nodes (exact).
- alpha-beta, perfect order: the Knuth–Moore minimal tree (exact for distinct values):
  b^ceil(k/2) + b^floor(k/2) - 1 nodes at ply k, summed over k = 0..d.
- alpha-beta, worst order: bounded by the full tree (worst-first still cuts a little).
- alpha-beta, random / natural / static order: an *empirical* bound,
  ``min(full tree, RANDOM_FACTOR * sum_{k=0..d} b^(3k/4))`` — the b^(3/4) rule of thumb with a
  factor calibrated on the i.i.d. continuous model with the kernel (8 instances per point, b = 2..32,
  up to ~10^7 nodes: the largest observed node count / sum b^(3k/4) was 3.2, the mean about 2).
  Natural order on an i.i.d. tree is a random order; static order is at least as good on the
  models that have static values; discrete values (ties cut) prune more, so the bound holds.
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
is its estimated search nodes plus its oracle's nodes.
"""

from __future__ import annotations

import math

#: Largest observed (nodes / sum_k b^(3k/4)) for random order on iid trees was 3.2; rounded up.
RANDOM_FACTOR = 4.0

ORACLE_MODELS = ("iid", "incremental", "explicit")


def full_tree_nodes(b: int, d: int) -> int:
    """Nodes of the uniform tree of branching b and depth d, the root and the leaves included."""
    if b == 1:
        return d + 1
    return (b ** (d + 1) - 1) // (b - 1)


def knuth_moore_leaves(b: int, d: int) -> int:
    """Leaves of the minimal tree (perfect ordering): b^ceil(d/2) + b^floor(d/2) - 1."""
    return b ** ((d + 1) // 2) + b ** (d // 2) - 1


def knuth_moore_nodes(b: int, d: int) -> int:
    """Nodes of the minimal tree: the Knuth–Moore count at every ply 0..d, summed."""
    return sum(knuth_moore_leaves(b, k) for k in range(d + 1))


def random_order_bound(b: int, d: int) -> int:
    """Empirical upper bound of alpha-beta's nodes under random order (see the module doc)."""
    if b == 1:
        return d + 1
    r = b ** 0.75
    est = RANDOM_FACTOR * (r ** (d + 1) - 1) / (r - 1)
    return int(min(full_tree_nodes(b, d), math.ceil(est)))


def pearl_branching_factor(b: int) -> float:
    """Pearl's asymptotic branching factor of alpha-beta on continuous iid trees:
    xi / (1 - xi) where xi is the positive root of x^b + x - 1 = 0."""
    if b == 1:
        return 1.0
    lo, hi = 0.0, 1.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if mid**b + mid - 1 > 0:
            hi = mid
        else:
            lo = mid
    xi = (lo + hi) / 2
    return xi / (1 - xi)


def search_nodes(b: int, d: int, algorithm: str, ordering: str) -> int:
    """Estimated (upper bound of) nodes a search visits."""
    if algorithm == "minimax":
        return full_tree_nodes(b, d)
    if ordering == "perfect":
        return knuth_moore_nodes(b, d)
    if ordering == "worst":
        return full_tree_nodes(b, d)
    return random_order_bound(b, d)


def needs_oracle(model: str, ordering: str) -> bool:
    parts = ordering.split("+")
    return ("perfect" in parts or "worst" in parts) and model in ORACLE_MODELS


def oracle_leaves(model: str, b: int, d: int, ordering: str) -> int:
    """Leaf evaluations of the exact-value oracle (0 when none is needed)."""
    return b ** d if needs_oracle(model, ordering) else 0


def estimate(model: str, b: int, d: int, algorithm: str, ordering: str) -> tuple[int, int]:
    """(estimated search nodes, estimated work = search nodes + oracle nodes) of one task."""
    nodes = search_nodes(b, d, algorithm, ordering)
    work = nodes + (full_tree_nodes(b, d) if needs_oracle(model, ordering) else 0)
    return nodes, work


def human(n: float) -> str:
    """1234567 -> '1.2e6'."""
    if n < 10_000:
        return str(int(n))
    return f"{n:.1e}".replace("e+0", "e").replace("e+", "e")


def estimate_game(nominal_b: int, d: int, algorithm: str, ordering: str) -> tuple[int, int]:
    """(estimated search nodes, work) of a game task at search depth d (nominal branching)."""
    base = ordering.split("+")
    order = "perfect" if "perfect" in base else "worst" if "worst" in base else "random"
    nodes = search_nodes(nominal_b, d, "minimax" if algorithm == "minimax" else "alphabeta", order)
    work = nodes + (full_tree_nodes(nominal_b, d) if order in ("perfect", "worst") else 0)
    return nodes, work


def oracle_game_leaves(nominal_b: int, d: int, ordering: str) -> int:
    """Leaves of a game's exact-value oracle at depth d (0 when the ordering needs none)."""
    parts = ordering.split("+")
    return nominal_b ** d if ("perfect" in parts or "worst" in parts) else 0

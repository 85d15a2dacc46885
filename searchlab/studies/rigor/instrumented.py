"""An instrumented alpha-beta for analysis: node types, the cut rule, ties, any fixed ordering.

``instrumented_alphabeta`` is the spec's textbook alpha-beta (reference.alphabeta, fail-soft,
MAX's view) with what the analyses need and the search engines do not count:

- ``cut_rule``: ">=" (the spec: a MAX node returns when v >= beta, a MIN node when v <= alpha;
  ties cut) or ">" (only strict improvements cut: v > beta, v < alpha), and how many cut events
  were *ties* (v == beta at MAX, v == alpha at MIN), which the strict rule would not make;
- Knuth & Moore's node types, assigned top-down by position in the search: the root is PV; a
  PV node's first searched child is PV, its later children CUT; every searched child of a CUT
  node is ALL, every child of an ALL node CUT. Per ply and type it counts the nodes visited,
  and per type the interior nodes where a cutoff happened and where the first move made it;
- ``order(state, moves, ply)``: any order function (searchlab.algorithms.ordering.base_order
  gives natural/random/perfect/worst), or None for natural order.

With ``cut_rule=">="`` its node, leaf and cutoff counts equal ``searchlab.search(...,
engine="reference")`` node for node (tests/studies/test_instrumented.py checks it). It is
plain Python: use it on trees of up to about 10^6 nodes.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable

from searchlab.errors import InvalidParameterError

__all__ = ["PV", "CUT", "ALL", "TYPES", "Instrumented", "instrumented_alphabeta",
           "minimal_tree_types"]

PV, CUT, ALL = "PV", "CUT", "ALL"
TYPES = (PV, CUT, ALL)
INF = math.inf


@dataclass
class Instrumented:
    """Counts of one instrumented search (leaves = static evaluations; a *cutoff* is a return
    with moves left unsearched; a *tie cut* a cut event with v equal to the bound)."""

    value: float = math.nan
    nodes: int = 0
    leaves: int = 0
    cutoffs: int = 0
    cut_events: int = 0
    tie_cuts: int = 0
    by_ply_type: Counter = field(default_factory=Counter)       # (ply, type) -> nodes
    interior: Counter = field(default_factory=Counter)          # type -> interior nodes
    cut_nodes: Counter = field(default_factory=Counter)         # type -> nodes with a cutoff
    first_move_cuts: Counter = field(default_factory=Counter)   # type -> ... made by move 0
    children_searched: Counter = field(default_factory=Counter)  # type -> children searched

    def per_ply(self, kind: str, depth: int) -> list[int]:
        return [self.by_ply_type[(k, kind)] for k in range(depth + 1)]


def instrumented_alphabeta(game: Any, *, order: Callable | None = None, cut_rule: str = ">=",
                           depth: int | None = None) -> Instrumented:
    """Search ``game`` from its initial state to ``depth`` (default: its default_depth) with
    the textbook fail-soft alpha-beta; see the module docstring for what is counted.
    Raises InvalidParameterError for a cut rule other than ">=" or ">"."""
    if cut_rule not in (">=", ">"):
        raise InvalidParameterError(f"cut_rule must be '>=' or '>'; got {cut_rule!r}")
    strict = cut_rule == ">"
    horizon = game.default_depth if depth is None else depth
    out = Instrumented()

    def search(state, ply: int, alpha: float, beta: float, kind: str) -> float:
        out.nodes += 1
        out.by_ply_type[(ply, kind)] += 1
        if game.is_terminal(state) or ply >= horizon:
            out.leaves += 1
            return game.utility(state) if game.is_terminal(state) else game.evaluate(state)
        out.interior[kind] += 1
        moves = list(game.legal_moves(state))
        if order is not None:
            moves = order(state, moves, ply)
        maximizing = game.max_to_move(state)
        v = -INF if maximizing else INF
        for i, m in enumerate(moves):
            child_kind = (PV if i == 0 else CUT) if kind == PV else (ALL if kind == CUT else CUT)
            out.children_searched[kind] += 1
            c = search(game.play(state, m), ply + 1, alpha, beta, child_kind)
            if maximizing:
                v = max(v, c)
                bound = beta
                cut = v > beta if strict else v >= beta
            else:
                v = min(v, c)
                bound = alpha
                cut = v < alpha if strict else v <= alpha
            if cut:
                out.cut_events += 1
                out.tie_cuts += v == bound
                if i < len(moves) - 1:
                    out.cutoffs += 1
                    out.cut_nodes[kind] += 1
                    out.first_move_cuts[kind] += i == 0
                return v
            if maximizing:
                alpha = max(alpha, v)
            else:
                beta = min(beta, v)
        return v

    out.value = search(game.initial_state(), 0, -INF, INF, PV)
    return out


def minimal_tree_types(b: int, d: int) -> dict[str, list[int]]:
    """Nodes per ply and type of Knuth & Moore's minimal tree of a uniform (b, d) tree: a PV
    node has one PV and b-1 CUT children, a CUT node one ALL child, an ALL node b CUT children.
    Their sum at ply k is b^ceil(k/2) + b^floor(k/2) - 1."""
    pv, cut, all_ = [1], [0], [0]
    for _ in range(d):
        pv, cut, all_ = (pv + [pv[-1]], cut + [(b - 1) * pv[-1] + b * all_[-1]], all_ + [cut[-1]])
    return {PV: pv, CUT: cut, ALL: all_}

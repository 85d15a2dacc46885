"""Knuth–Moore node types measured: PV/CUT/ALL nodes per ply against the minimal tree, and how
often a CUT node is refuted by its first move.

The types are assigned top-down by position in the search (searchlab.studies.rigor.instrumented):
with perfect order every CUT node cuts on its first move and no ALL node cuts, so the counts per
ply and type are exactly the minimal tree's. With worse orders a CUT node may need several moves
(or none cuts: it was really an ALL node) and an ALL node may cut; ``study`` measures both on
continuous i.i.d. trees with the reference-speed instrumented search (small trees only).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from searchlab.algorithms.ordering import base_order
from searchlab.trees import IIDTree

from searchlab.studies.rigor.instrumented import ALL, CUT, PV, TYPES, instrumented_alphabeta, minimal_tree_types
from searchlab.analysis.markdown_tables import md_table

__all__ = ["NodeTypeCell", "study", "CELLS", "SMALL_CELLS", "node_type_plan", "node_type_rows", "node_types_from"]

#: (b, d) measured, per ordering
CELLS = [(2, 12), (4, 7), (8, 5)]
SMALL_CELLS = [(2, 8), (4, 5)]
ORDERINGS = ("perfect", "random", "worst")


@dataclass(frozen=True)
class NodeTypeCell:
    """Means over ``n`` trees of one (b, d, ordering): nodes per ply and type, the share of CUT
    nodes that cut at all and of those cuts made by the first move, the share of ALL nodes that
    cut, and the mean children searched per CUT node; ``minimal`` is Knuth–Moore's count."""

    b: int
    d: int
    ordering: str
    n: int
    per_ply: dict[str, tuple[float, ...]]
    minimal: dict[str, tuple[int, ...]]
    cut_rate: dict[str, float]
    first_move_share: dict[str, float]
    children_per_node: dict[str, float]


def _cell(b: int, d: int, ordering: str, n: int, seed: int) -> NodeTypeCell:

    per = {t: np.zeros(d + 1) for t in TYPES}
    interior = {t: 0 for t in TYPES}
    cuts = {t: 0 for t in TYPES}
    first = {t: 0 for t in TYPES}
    kids = {t: 0 for t in TYPES}
    for i in range(n):
        tree = IIDTree(b, d, seed * 10_000 + i)
        r = instrumented_alphabeta(tree, order=base_order(ordering, tree, d, seed * 10_000 + i))
        for t in TYPES:
            per[t] += np.array(r.per_ply(t, d), dtype=float)
            interior[t] += r.interior[t]
            cuts[t] += r.cut_nodes[t]
            first[t] += r.first_move_cuts[t]
            kids[t] += r.children_searched[t]
    km = minimal_tree_types(b, d)
    return NodeTypeCell(
        b, d, ordering, n, {t: tuple(per[t] / n) for t in TYPES}, {t: tuple(km[t]) for t in TYPES},
        {t: cuts[t] / interior[t] if interior[t] else float("nan") for t in TYPES},
        {t: first[t] / cuts[t] if cuts[t] else float("nan") for t in TYPES},
        {t: kids[t] / interior[t] if interior[t] else float("nan") for t in TYPES})


def node_type_rows(b: int, d: int, ordering: str, n: int, seed: int) -> list[dict]:
    """Rows of the ``node_types`` table for one (b, d, ordering) over its ``n`` trees
    (IIDTree(b, d, seed·10^4 + i)): one per (type, ply) with the mean nodes, the minimal tree's
    count and the type's cut rate, first-move share and children per node (repeated per ply)."""
    c = _cell(b, d, ordering, n, seed)
    return [{"b": b, "d": d, "ordering": ordering, "n": n, "type": t, "ply": k, "nodes": float(c.per_ply[t][k]),
             "minimal": int(c.minimal[t][k]), "cut_rate": float(c.cut_rate[t]),
             "first_move_share": float(c.first_move_share[t]), "children_per_node": float(c.children_per_node[t])}
            for t in TYPES for k in range(d + 1)]


def node_types_from(table: pd.DataFrame, plan) -> list[NodeTypeCell]:
    """The NodeTypeCells of ``plan`` ((b, d, ordering, n) in order) from the ``node_types`` table;
    ValueError when a cell has no rows."""
    out = []
    for b, d, o, n in plan:
        sub = table[(table["b"] == b) & (table["d"] == d) & (table["ordering"] == o)]
        if len(sub) != len(TYPES) * (d + 1):
            raise ValueError(f"node types b={b}, d={d}, {o}: {len(sub)} rows (an incomplete run)")
        by = {t: sub[sub["type"] == t].sort_values("ply") for t in TYPES}
        out.append(NodeTypeCell(
            b, d, o, n, {t: tuple(float(x) for x in by[t]["nodes"]) for t in TYPES},
            {t: tuple(int(x) for x in by[t]["minimal"]) for t in TYPES},
            {t: float(by[t]["cut_rate"].iloc[0]) for t in TYPES},
            {t: float(by[t]["first_move_share"].iloc[0]) for t in TYPES},
            {t: float(by[t]["children_per_node"].iloc[0]) for t in TYPES}))
    return out


def node_type_plan(small: bool = False) -> list[tuple[int, int, str, int]]:
    """(b, d, ordering, trees): every (b, d) of CELLS (SMALL_CELLS) under ORDERINGS, 20 (small: 4) trees."""
    n = 4 if small else 20
    return [(b, d, o, n) for b, d in (SMALL_CELLS if small else CELLS) for o in ORDERINGS]


def study(small: bool = False, seed: int = 14) -> list[NodeTypeCell]:
    """Every (b, d) of CELLS (SMALL_CELLS) under perfect, random and worst-first order, over
    20 (small: 4) seeded continuous i.i.d. trees, in this process (the engine runs
    ``node_type_rows`` as tasks: studies.rigor.rigor_study)."""
    plan = node_type_plan(small)
    return node_types_from(pd.DataFrame([r for b, d, o, n in plan for r in node_type_rows(b, d, o, n, seed)]), plan)


def section(cells: list[NodeTypeCell]) -> str:
    """The report's table: at the deepest ply, nodes per type against the minimal tree; the
    CUT nodes' cut rate and first-move share; ALL nodes that cut."""

    rows = []
    for c in cells:
        at = [f"{c.per_ply[t][-1]:,.1f} ({c.per_ply[t][-1] / c.minimal[t][-1]:.2f}×)" if c.minimal[t][-1]
              else f"{c.per_ply[t][-1]:,.1f}" for t in (PV, CUT, ALL)]
        rows.append([c.b, c.d, c.ordering, c.n, *at,
                     f"{c.cut_rate[CUT]:.3f}", f"{c.first_move_share[CUT]:.3f}",
                     f"{c.children_per_node[CUT]:.2f}", f"{c.cut_rate[ALL]:.3f}"])
    return ("Knuth & Moore's node types, assigned top-down by search position (root PV; a PV node's "
            "first child PV, its others CUT; a CUT node's children ALL; an ALL node's children CUT), "
            "measured with `searchlab.studies.rigor.instrumented` (equal to the reference engine node for "
            "node) on continuous i.i.d. trees, mean over n trees. Nodes at ply d per type, in "
            "brackets × the minimal tree's count of that type; a CUT node *cuts* when it returns "
            "with moves left.\n\n"
            + md_table(["b", "d", "ordering", "n", "PV at ply d", "CUT at ply d (× minimal)",
                        "ALL at ply d (× minimal)", "CUT nodes that cut", "… on the first move",
                        "moves searched per CUT node", "ALL nodes that cut"], rows)
            + ("\n\nAt b = 2 a cutoff can only come from the first move (after the second nothing is left to "
               "cut), so the first-move share is 1 there by definition." if any(c.b == 2 for c in cells) else "")
            + "\n\n" + _conclusion(cells))


def _conclusion(cells: list[NodeTypeCell]) -> str:
    """Sentences checked against the cells: perfect order equals the minimal tree type by type;
    elsewhere, where the excess over it comes from."""
    perfect = [c for c in cells if c.ordering == "perfect"]
    exact = all(c.per_ply[t] == tuple(float(x) for x in c.minimal[t]) for c in perfect for t in TYPES)
    refuted = all(c.cut_rate[CUT] == 1.0 and c.first_move_share[CUT] == 1.0 and c.cut_rate[ALL] == 0.0
                  for c in perfect)
    out = [("Perfect order reproduces the minimal tree type by type"
            + (" (every CUT node refuted by its first move, no ALL node cutting)." if refuted else ".")) if exact
           else "Perfect order does not reproduce the minimal tree type by type in every cell."]
    other = [c for c in cells if c.ordering != "perfect"]
    if other:
        lo = min(c.cut_rate[CUT] for c in other)
        hi = max(c.cut_rate[CUT] for c in other)
        out.append(f"Under random and worst-first order only {lo:.0%}–{hi:.0%} of the CUT nodes cut at all and "
                   f"{min(c.cut_rate[ALL] for c in other):.0%}–{max(c.cut_rate[ALL] for c in other):.0%} of the ALL "
                   "nodes do: the expected types are mispredicted, which is where the excess over the minimal tree "
                   "comes from.")
    return " ".join(out)

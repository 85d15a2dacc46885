"""Explicit trees for the trace player: presets, random trees, typed trees, and their traces.

A tree spec (the ``tree`` object of a request) is one of
    {"kind": "preset", "name": "textbook"}                     (``PRESETS``)
    {"kind": "nested", "text": "[[3, 12, 8], [2, 4, 6], [14, 5, 2]]"}
    {"kind": "random", "b": 3, "d": 3, "lo": 0, "hi": 20, "seed": 1}
    {"kind": "mannheim", "b": 3, "d": 2, "values": "3 12 8 2 4 6 14 5 2", "branches": ""}
The Mannheim form is the "Game Visualization" applet's input: depth d, branching b (or, in
``branches``, every interior node's number of children, breadth first), and the leaf values
left to right. Every spec is validated against the caps in searchlab.lab.requests.

``trace_payload`` runs searchlab's own traced search (searchlab.algorithms.trace.run_trace, the
reference engine) and returns its events as JSON-ready dicts with running counts, the reason
of every cutoff, and the principal variation: the page only draws them. Besides the built-in
``TRACE_ALGORITHMS`` it traces every registered plug-in algorithm (``trace_algorithms``): a
plug-in's node code searches its children through ``ctx.child`` and reports cutoffs through
``ctx.cut``, which the recorder wraps, so its trace is the very same search, node for node.
"""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np

from searchlab.algorithms.algorithm_registry import plugin_algorithm, plugin_names
from searchlab.algorithms.trace import run_trace
from searchlab.studies.claims.exact_trees import HOMEWORK, TEXTBOOK, TEXTBOOK_C_FIRST
from searchlab.errors import SearchlabError
from searchlab.lab.requests import (MAX_TREE_BRANCHING, MAX_TREE_DEPTH, MAX_TREE_LEAVES,
                                    MAX_TREE_VALUE, LabError, choice, integer, number, text)
from searchlab.limits import excerpt
from searchlab.trees import ExplicitTree

TRACE_ALGORITHMS = ("minimax", "alphabeta", "pvs")
TRACE_ORDERINGS = ("natural", "perfect", "worst", "random")
TREE_KINDS = ("preset", "nested", "random", "mannheim")


def trace_algorithms() -> tuple[str, ...]:
    """The algorithms the trace player offers: ``TRACE_ALGORITHMS`` (the page has their
    pseudo-code), then the registered plug-in algorithms in registration order."""
    return TRACE_ALGORITHMS + plugin_names()


def _value(nested: Any, ply: int = 0) -> float:
    if not isinstance(nested, list):
        return nested
    vals = [_value(c, ply + 1) for c in nested]
    return max(vals) if ply % 2 == 0 else min(vals)


def reorder(nested: Any, best_first: bool, ply: int = 0) -> Any:
    """The same tree with every node's children sorted by their minimax value, best for the
    side to move first (``best_first``) or worst first: the textbook's reordered trees."""
    if not isinstance(nested, list):
        return nested
    kids = [reorder(c, best_first, ply + 1) for c in nested]
    maximise = (ply % 2 == 0) == best_first
    return sorted(kids, key=lambda c: _value(c, ply + 1), reverse=maximise)


#: name -> (label, nested lists)
PRESETS: dict[str, tuple[str, Any]] = {
    "textbook": ("textbook tree (R&N fig. 5.2): A 3 12 8, B 2 4 6, C 14 5 2", TEXTBOOK),
    "textbook-c-first": ("textbook tree, C first with leaves 2 5 14", TEXTBOOK_C_FIRST),
    "textbook-best-first": ("textbook tree reordered best first", reorder(TEXTBOOK, True)),
    "textbook-worst-first": ("textbook tree reordered worst first", reorder(TEXTBOOK, False)),
    "homework": ("homework tree: 3 2 1, 4 8 9, 5 6 7", HOMEWORK),
    "homework-best-first": ("homework tree reordered best first", reorder(HOMEWORK, True)),
    "homework-worst-first": ("homework tree reordered worst first", reorder(HOMEWORK, False)),
}


def _check_nested(nested: Any) -> Any:
    """Validate a typed tree against the caps (ExplicitTree validates the rest)."""
    stack, leaves = [(nested, 0)], 0
    while stack:
        node, depth = stack.pop()
        if isinstance(node, list):
            if depth >= MAX_TREE_DEPTH:
                raise LabError(f"tree: deeper than {MAX_TREE_DEPTH} levels (the lab's cap)")
            if not 1 <= len(node) <= MAX_TREE_BRANCHING:
                raise LabError(f"tree: a node has {len(node)} children; allowed 1..{MAX_TREE_BRANCHING}")
            stack.extend((c, depth + 1) for c in node)
        else:
            number(node, "tree: a leaf value")
            leaves += 1
            if leaves > MAX_TREE_LEAVES:
                raise LabError(f"tree: more than {MAX_TREE_LEAVES} leaves (the lab's cap)")
    if not isinstance(nested, list):
        raise LabError("tree: the root must be a list of children, e.g. [[3, 12, 8], [2, 4, 6]]")
    return nested


def _numbers(s: str, name: str) -> list:
    tokens = [t for t in s.replace(",", " ").replace(";", " ").split() if t]
    out = []
    for t in tokens:
        try:
            v = float(t)
        except ValueError:
            raise LabError(f"{name}: {t[:20]!r} is not a number") from None
        out.append(int(v) if v.is_integer() else v)
    return out


def _mannheim(b: int | None, d: int, values: list, branches: list) -> list:
    """Nested lists from depth, branching (or per-node branches, breadth first) and leaves."""
    if branches:
        if any(not float(x).is_integer() or not 1 <= x <= MAX_TREE_BRANCHING for x in branches):
            raise LabError(f"branches: every entry must be an integer in 1..{MAX_TREE_BRANCHING}")
        branches = [int(x) for x in branches]
    root: list = []
    level, k = [root], 0
    for depth in range(d):
        nxt = []
        for node in level:
            if branches:
                if k >= len(branches):
                    raise LabError(f"branches: {len(branches)} entries, but the interior nodes of "
                                   f"depth < {d} need more")
                n = branches[k]
                k += 1
            else:
                n = b
            kids: list = [[] for _ in range(n)] if depth < d - 1 else [None] * n
            node.extend(kids)
            nxt.extend(kids)
        level = nxt
        if sum(1 for _ in level) > MAX_TREE_LEAVES:
            raise LabError(f"tree: more than {MAX_TREE_LEAVES} leaves (the lab's cap)")
    if branches and k != len(branches):
        raise LabError(f"branches: {len(branches)} entries, but the tree has {k} interior nodes")
    if len(values) != len(level):
        raise LabError(f"values: {len(values)} given, but the tree has {len(level)} leaves")
    it = iter(values)

    def fill(node):
        return [fill(c) if isinstance(c, list) else next(it) for c in node]
    return fill(root)


def parse_tree(spec: Any) -> tuple[str, Any]:
    """(label, nested lists) of a tree spec (module docstring); LabError on bad input."""
    if not isinstance(spec, dict):
        raise LabError("tree must be an object with a kind: preset, nested, random or mannheim")
    kind = choice({"tree.kind": spec.get("kind")}, "tree.kind", TREE_KINDS)
    if kind == "preset":
        name = choice({"tree.name": spec.get("name")}, "tree.name", tuple(PRESETS))
        return PRESETS[name]
    if kind == "nested":
        raw = spec.get("text")
        if isinstance(raw, str):
            if len(raw) > 100_000:
                raise LabError("tree.text: longer than 100000 characters")
            try:
                raw = json.loads(raw)
            except ValueError as e:
                raise LabError(f"tree.text is not nested lists of numbers like [[3, 12, 8], [2, 4, 6]]: "
                               f"{e.msg} at character {e.pos}") from None
        nested = _check_nested(raw)
        return "typed tree", nested
    if kind == "random":
        b = integer(spec, "b", 1, MAX_TREE_BRANCHING, 3)
        d = integer(spec, "d", 1, MAX_TREE_DEPTH, 3)
        lo = integer(spec, "lo", -MAX_TREE_VALUE, MAX_TREE_VALUE, 0)
        hi = integer(spec, "hi", -MAX_TREE_VALUE, MAX_TREE_VALUE, 20)
        seed = integer(spec, "seed", 0, 2**63 - 1, 0)
        if lo > hi:
            raise LabError(f"lo must be <= hi; got lo={lo}, hi={hi}")
        if b ** d > MAX_TREE_LEAVES:
            raise LabError(f"b^d = {b}^{d} = {b ** d} leaves; the lab's cap is {MAX_TREE_LEAVES}")
        rng = np.random.default_rng(seed)
        leaves = iter(rng.integers(lo, hi, size=b ** d, endpoint=True).tolist())

        def build(depth):
            return next(leaves) if depth == d else [build(depth + 1) for _ in range(b)]
        return f"random tree b={b} d={d} values {lo}..{hi} seed {seed}", build(0)
    # mannheim
    d = integer(spec, "d", 1, MAX_TREE_DEPTH, 2)
    branches = _numbers(text(spec, "branches", "", 20_000), "branches")
    b = None if branches else integer(spec, "b", 1, MAX_TREE_BRANCHING, 3)
    if b is not None and b ** d > MAX_TREE_LEAVES:
        raise LabError(f"b^d = {b}^{d} = {b ** d} leaves; the lab's cap is {MAX_TREE_LEAVES}")
    values = [number(v, "values: a leaf value") for v in _numbers(text(spec, "values", "", 100_000),
                                                                  "values")]
    return "tree from b/d/values", _mannheim(b, d, values, branches)


def jnum(x: Any) -> Any:
    """A value for JSON: +-inf as the strings "inf"/"-inf", integral floats as ints."""
    if x is None:
        return None
    if isinstance(x, float):
        if math.isinf(x):
            return "inf" if x > 0 else "-inf"
        if x.is_integer():
            return int(x)
    return x


def trace_payload(nested: Any, algorithm: str = "alphabeta", ordering: str = "natural",
                  seed: int = 0) -> dict:
    """The traced search of ``nested`` by searchlab's reference engine, ready for the page.

    ``algorithm``: one of ``trace_algorithms()``; ``description`` is a plug-in's own line
    (None for a built-in). ``result`` holds search()'s SearchResult figures (value, best move,
    nodes, leaves, cutoffs). Each event has kind ``k`` (enter/leaf/return/cutoff), path ``p``,
    entry window ``w`` ([alpha, beta], None for minimax), value ``v`` and bound ``b`` (exact/upper/lower),
    the pruned leaves ``pr`` of a cutoff with ``ab``, the node's (alpha, beta) when it cut
    (alpha >= beta), and the running counts after it: nodes ``n``, leaves evaluated ``l``,
    leaves pruned ``pl``, cutoffs ``c``. ``pv`` lists the principal variation's paths.
    """
    allowed = trace_algorithms()
    if algorithm not in allowed:
        raise LabError(f"algorithm must be one of {', '.join(allowed)}; got {excerpt(algorithm)}")
    plugin = plugin_algorithm(algorithm)
    if ordering not in TRACE_ORDERINGS:
        raise LabError(f"ordering must be one of {', '.join(TRACE_ORDERINGS)}; got {ordering!r}")
    try:
        tree = ExplicitTree(nested)
        result, events = run_trace(tree, algorithm, ordering, ordering_seed=seed)
    except SearchlabError as e:
        raise LabError(str(e).splitlines()[0]) from None
    out, n = [], [0, 0, 0, 0]
    entry: dict[tuple, tuple] = {}
    best: dict[tuple, float] = {}
    last: dict[tuple, Any] = {}
    for e in events:
        rec: dict[str, Any] = {"k": e.kind, "p": list(e.path)}
        if e.kind == "enter":
            n[0] += 1
            entry[e.path] = e.window
            best.pop(e.path, None)
        elif e.kind in ("leaf", "return"):
            n[1] += e.kind == "leaf"
            last[e.path] = e.value
            if e.path:
                parent = e.path[:-1]
                maximise = len(parent) % 2 == 0
                old = best.get(parent)
                best[parent] = e.value if old is None else (max(old, e.value) if maximise
                                                            else min(old, e.value))
        elif e.kind == "cutoff":
            n[2] += len(e.pruned)
            n[3] += 1
            a, b = entry[e.path] or (-math.inf, math.inf)
            v = best[e.path]
            a, b = (max(a, v), b) if len(e.path) % 2 == 0 else (a, min(b, v))
            rec["ab"] = [jnum(a), jnum(b)]
            rec["pr"] = [[list(p), jnum(v)] for p, v in e.pruned]
        if e.window is not None:
            rec["w"] = [jnum(e.window[0]), jnum(e.window[1])]
        if e.value is not None:
            rec["v"] = jnum(e.value)
        if e.bound is not None:
            rec["b"] = e.bound
        rec.update(n=n[0], l=n[1], pl=n[2], c=n[3])
        out.append(rec)
    pv, node = [()], ()
    if result.best_move is not None:
        node = (result.best_move,)
        pv.append(node)
        sub = nested[result.best_move]
        while isinstance(sub, list):
            kids = [node + (m,) for m in range(len(sub))]
            # the first child in search order whose returned value equals the node's value
            order = [tuple(x["p"]) for x in out if x["k"] == "enter" and tuple(x["p"]) in kids]
            nxt = next((c for c in dict.fromkeys(order) if last.get(c) == last.get(node)), None)
            if nxt is None:
                break
            pv.append(nxt)
            node, sub = nxt, sub[nxt[-1]]
    return {"tree": nested, "depth": tree.d, "n_leaves": tree.n_leaves,
            "algorithm": algorithm, "ordering": ordering, "seed": seed,
            "description": plugin.description if plugin else None,
            "result": {"value": jnum(result.value), "best_move": result.best_move,
                       "nodes": result.nodes, "leaves": result.leaves,
                       "cutoffs": result.cutoffs, "interior": result.interior},
            "events": out, "pv": [list(p) for p in pv]}


def check_algorithms(algorithms: Any) -> list[str]:
    """``algorithms`` (a list or tuple) as a list of 1 to 3 different names from
    ``trace_algorithms()``, the panels side by side. Raises LabError naming the allowed."""
    allowed = trace_algorithms()
    if not isinstance(algorithms, (list, tuple)) or not 1 <= len(algorithms) <= 3 \
            or len(set(map(str, algorithms))) != len(algorithms):
        raise LabError(f"algorithms must be a list of 1 to 3 different names from "
                       f"{', '.join(allowed)}; got {excerpt(algorithms)}")
    for a in algorithms:
        choice({"algorithms": a}, "algorithms", allowed)
    return list(algorithms)


def trace_request(body: dict) -> dict:
    """/api/trace: the traced searches of one tree by each requested algorithm (same ordering
    and seed): {"label", "tree", "traces": [trace_payload(...), ...]}. Raises LabError."""
    label, nested = parse_tree(body.get("tree"))
    algorithms = check_algorithms(body.get("algorithms", ["alphabeta"]))
    ordering = choice(body, "ordering", TRACE_ORDERINGS, "natural")
    seed = integer(body, "seed", 0, 2**63 - 1, 0)
    return {"label": label, "tree": nested,
            "traces": [trace_payload(nested, a, ordering, seed) for a in algorithms]}

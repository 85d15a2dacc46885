"""Step-by-step traces of a search on an ExplicitTree: as text, and as a figure of the tree.

The trace records every node visited with its [alpha, beta] window on entry, the value it
returns (and whether that value is exact or only a bound), each cutoff and the leaves it prunes.
It wraps the reference algorithm's recursive call (``ctx.child``), so the traced search is the
very same search, node for node.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import matplotlib
import matplotlib.pyplot as plt

from searchlab.algorithms.search_api import search
from searchlab.contracts.result import SearchResult
from searchlab.errors import UnsupportedError


@dataclass(frozen=True)
class TraceEvent:
    """One step: kind is "enter", "leaf", "return" or "cutoff".

    ``path`` is the tuple of moves from the root; ``window`` the (alpha, beta) on entry (None
    for minimax); ``value`` the leaf value or returned value; ``bound`` for a return: "exact",
    "upper" (true value <= value) or "lower" (true value >= value); ``pruned`` for a cutoff:
    (path, value) of every leaf below the unsearched moves.
    """

    kind: str
    path: tuple[int, ...]
    ply: int
    window: tuple[float, float] | None = None
    value: float | None = None
    bound: str | None = None
    pruned: tuple = ()


@dataclass
class TraceRecorder:
    """Collects TraceEvents; pass one to ``search(..., trace=recorder, engine="reference")``."""

    events: list[TraceEvent] = field(default_factory=list)
    game: Any = None

    def attach(self, ctx, algo) -> None:
        """Route the search's recursive calls through a recording wrapper."""
        if not ctx.game.capabilities.leaves_below:
            raise UnsupportedError("traces are available for ExplicitTree only")
        self.game = ctx.game
        events = self.events

        def traced(state, ply, *args):
            window = (args[0], args[1]) if len(args) == 3 else None
            path = state[2]
            events.append(TraceEvent("enter", path, ply, window))
            value = algo(state, ply, *args)
            if ctx.game.is_terminal(state):
                events.append(TraceEvent("leaf", path, ply, window, value, "exact"))
            else:
                bound = "exact"
                if window is not None and value <= window[0]:
                    bound = "upper"
                elif window is not None and value >= window[1]:
                    bound = "lower"
                events.append(TraceEvent("return", path, ply, window, value, bound))
            return value

        ctx.child = traced

    def cutoff(self, state, ply: int, pruned_moves) -> None:
        pruned = []
        for m in pruned_moves:
            pruned.extend(self.game.leaves_below(self.game.play(state, m)))
        self.events.append(TraceEvent("cutoff", state[2], ply, pruned=tuple(pruned)))


def run_trace(tree, algorithm: str = "alphabeta", ordering: str = "natural",
              **kwargs) -> tuple[SearchResult, list[TraceEvent]]:
    """Search ``tree`` (an ExplicitTree) with the reference engine and record the trace."""
    recorder = TraceRecorder()
    result = search(tree, algorithm, ordering, engine="reference", trace=recorder, **kwargs)
    return result, recorder.events


def _fmt(x: float) -> str:
    if x == math.inf:
        return "+inf"
    if x == -math.inf:
        return "-inf"
    return f"{x:g}"


def _name(path: tuple[int, ...]) -> str:
    return "root" if not path else "root." + ".".join(map(str, path))


def trace_text(tree, algorithm: str = "alphabeta", ordering: str = "natural", **kwargs) -> str:
    """The step-by-step log of a search on an ExplicitTree, one line per event."""
    result, events = run_trace(tree, algorithm, ordering, **kwargs)
    lines = [f"{algorithm}, {ordering} order, on {tree.name}"]
    for e in events:
        pad = "  " * e.ply
        side = "MAX" if e.ply % 2 == 0 else "MIN"
        win = "" if e.window is None else f" window [{_fmt(e.window[0])}, {_fmt(e.window[1])}]"
        if e.kind == "enter" and not tree.is_terminal(_state_at(tree, e.path)):
            lines.append(f"{pad}enter {_name(e.path)} ({side}){win}")
        elif e.kind == "leaf":
            lines.append(f"{pad}leaf {_name(e.path)} = {_fmt(e.value)}{win}")
        elif e.kind == "return":
            meaning = {"exact": "exact",
                       "upper": f"an upper bound: true value <= {_fmt(e.value)}",
                       "lower": f"a lower bound: true value >= {_fmt(e.value)}"}[e.bound]
            lines.append(f"{pad}{_name(e.path)} returns {_fmt(e.value)} ({meaning})")
        elif e.kind == "cutoff":
            pruned = ", ".join(f"{_name(p)}={_fmt(v)}" for p, v in e.pruned)
            lines.append(f"{pad}  cutoff at {_name(e.path)}: pruned leaves {pruned}")
    lines.append(f"value {_fmt(result.value)}, best move {result.best_move}, "
                 f"{result.leaves} of {tree.n_leaves} leaves examined, {result.nodes} nodes, "
                 f"{result.cutoffs} cutoffs")
    return "\n".join(lines)


def _state_at(tree, path):
    state = tree.initial_state()
    for m in path:
        state = tree.play(state, m)
    return state


def trace_figure(tree, algorithm: str = "alphabeta", ordering: str = "natural", *,
                 path: str | None = None, title: str | None = None, **kwargs):
    """A matplotlib figure of the tree: visited nodes solid, pruned branches greyed out,
    each visited interior node annotated with its entry window and returned value.

    Returns the Figure; saves it to ``path`` (format from its suffix) when given.
    """
    matplotlib.use("Agg", force=False)

    result, events = run_trace(tree, algorithm, ordering, **kwargs)
    visited = {e.path for e in events if e.kind == "enter"}
    info = {e.path: e for e in events if e.kind in ("return", "leaf")}
    pos: dict[tuple, tuple[float, float]] = {}
    counter = [0]

    def layout(state):
        p = state[2]
        if tree.is_terminal(state):
            pos[p] = (counter[0], -len(p))
            counter[0] += 1
        else:
            xs = []
            for m in tree.legal_moves(state):
                layout(tree.play(state, m))
                xs.append(pos[p + (m,)][0])
            pos[p] = (sum(xs) / len(xs), -len(p))

    layout(tree.initial_state())
    fig, ax = plt.subplots(figsize=(max(6.0, 0.7 * counter[0] + 2), 1.6 * (tree.d + 1) + 0.8))
    grey, ink, accent = "#BBBBBB", "#222222", "#0072B2"
    for p, (x, y) in pos.items():
        if p:
            px, py = pos[p[:-1]]
            seen = p in visited
            ax.plot([px, x], [py, y], color=ink if seen else grey, lw=1.5 if seen else 1.0,
                    ls="-" if seen else "--", zorder=1)
    for p, (x, y) in pos.items():
        seen = p in visited
        state = _state_at(tree, p)
        if tree.is_terminal(state):
            ax.scatter([x], [y], marker="s", s=420, color="white",
                       edgecolors=ink if seen else grey, zorder=2)
            ax.text(x, y, _fmt(state[0]), ha="center", va="center", fontsize=9,
                    color=ink if seen else grey, zorder=3)
            continue
        marker = "^" if len(p) % 2 == 0 else "v"
        ax.scatter([x], [y], marker=marker, s=520, color=accent if seen else "white",
                   edgecolors=ink if seen else grey, zorder=2)
        e = info.get(p)
        if e is not None:
            label = _fmt(e.value) if e.bound == "exact" else (
                ("≤ " if e.bound == "upper" else "≥ ") + _fmt(e.value))
            ax.text(x, y + 0.15, label, ha="center", va="bottom", fontsize=9, color=ink)
            if e.window is not None:
                ax.text(x + 0.25, y - 0.05, f"[{_fmt(e.window[0])}, {_fmt(e.window[1])}]",
                        ha="left", va="top", fontsize=7, color="#555555")
    ax.set_ylim(-tree.d - 0.5, 0.7)        # room above the root for its value label
    ax.set_axis_off()
    ax.set_title(title or f"{algorithm}, {ordering} order: value {_fmt(result.value)}, "
                 f"{result.leaves}/{tree.n_leaves} leaves (grey dashed: pruned)", fontsize=10)
    fig.tight_layout()
    if path is not None:
        fig.savefig(path)
    return fig

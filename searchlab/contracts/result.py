"""SearchResult: what every search returns, whatever the engine; MultiResult, its sibling for n players."""

from __future__ import annotations

import html
from dataclasses import dataclass, field, fields
from typing import Any, Hashable


@dataclass(frozen=True)
class SearchResult:
    """The outcome and the counts of one search.

    Values are from MAX's point of view. Counting (docs/iid-tree-spec.md, "Counting"):
    a *node* is one call of the search on a position, the root and the leaves included; a
    *leaf* is one static evaluation (a terminal position or a position at the horizon);
    ``interior = nodes - leaves``; a *cutoff* is a return before all children were searched.
    ``per_ply[k]`` is the number of nodes at ply k (the root is ply 0).

    ``best_move`` is the root move whose value the search proved equal to the root value (the
    first such in search order). ``best_moves`` lists every root move whose exact value equals
    the root value when ``best_moves_complete`` is True (minimax proves every root move's value);
    alpha-beta proves only the value of the move it returns, so there
    ``best_moves == (best_move,)`` and ``best_moves_complete`` is False.

    ``iterations`` holds the nodes of each iterative-deepening iteration (one entry for a
    single search); ``nodes`` is their total and ``last_iteration_nodes`` the last one's.
    ``status`` is "ok", or "aborted" when the node budget ran out (counts are then partial and
    value/best_move are None).

    Ordering-quality and enhancement counters: ``fail_highs`` counts cut events (a node whose
    value reached beta at MAX or alpha at MIN, whether or not children remained; None where an
    engine does not count them) and ``first_move_fail_highs`` those made by the first move
    searched; ``re_searches`` counts PVS re-searches, aspiration re-searches and extra MTD(f)
    passes; ``tt_probes``/``tt_hits``/``tt_cutoffs`` the transposition table's work;
    ``q_nodes`` the quiescence search's nodes (beyond the horizon, not in ``nodes``);
    ``chance_nodes`` the calls on chance nodes (searchlab/algorithms/chance_search.py; they are
    counted in ``nodes`` and ``interior`` too, 0 in games without chance); with
    pruning techniques on, ``extra["pruned"]`` counts how often each one fired and
    ``extra["tried"]`` how often one was tried where that differs (``null_move``: the null-move
    searches made; ``pruned["null_move"] / tried["null_move"]`` is its cut-success rate; LMR's
    re-search rate is ``re_searches / pruned["lmr"]`` for alpha-beta).

    Monte Carlo tree search (algorithm "mcts", searchlab/algorithms/mcts.py, docs/mcts.md)
    fills ``root_moves`` (the root's moves in natural order), ``root_visits`` and
    ``root_values`` (each move's visits and mean reward from MAX's point of view, nan when
    unvisited) and ``simulations``; the other searches leave them empty (0).
    """

    value: float | None
    best_move: Hashable | None
    best_moves: tuple
    best_moves_complete: bool
    nodes: int
    leaves: int
    interior: int
    cutoffs: int
    per_ply: tuple[int, ...]
    iterations: tuple[int, ...]
    wall_time: float
    algorithm: str
    ordering: str
    engine: str
    depth: int
    status: str = "ok"
    fail_highs: int | None = None
    first_move_fail_highs: int | None = None
    re_searches: int = 0
    tt_probes: int = 0
    tt_hits: int = 0
    tt_cutoffs: int = 0
    q_nodes: int = 0
    chance_nodes: int = 0
    extra: dict[str, Any] = field(default_factory=dict, compare=False)
    root_moves: tuple = ()
    root_visits: tuple[int, ...] = ()
    root_values: tuple[float, ...] = ()
    simulations: int = 0

    @property
    def last_iteration_nodes(self) -> int:
        return self.iterations[-1] if self.iterations else self.nodes

    @property
    def fail_high_first_rate(self) -> float | None:
        """Share of cut events (v >= beta at MAX, v <= alpha at MIN, the last child included)
        made by the first move searched; None when not measured or when nothing cut."""
        if not self.fail_highs or self.first_move_fail_highs is None:
            return None
        return self.first_move_fail_highs / self.fail_highs

    @property
    def tt_hit_rate(self) -> float | None:
        """Share of transposition-table probes that found an entry (None without a table)."""
        return self.tt_hits / self.tt_probes if self.tt_probes else None

    def __repr__(self) -> str:
        """One line: what was searched, the answer and the counts (``to_dict()`` has every field)."""
        ans = ("aborted (node budget)" if self.status != "ok" else
               f"value {_short(self.value)}, move {_short(self.best_move)}")
        extra = f", {self.tt_hits:,} TT hits" if self.tt_probes else ""
        return (f"SearchResult({self.algorithm}/{self.ordering} d={self.depth}: {ans}; "
                f"{self.nodes:,} nodes, {self.leaves:,} leaves, {self.cutoffs:,} cutoffs{extra}; "
                f"{_seconds(self.wall_time)}, {self.engine})")

    def _repr_html_(self) -> str:
        """A small table for notebooks: the answer, the counts, the rates, the engine."""
        rows = [("search", f"{self.algorithm}, ordering {self.ordering}, depth {self.depth}"),
                ("status", self.status)]
        if self.status == "ok":
            rows += [("value", _short(self.value)), ("best move", _short(self.best_move))]
        rows += [("nodes", f"{self.nodes:,}"), ("leaves", f"{self.leaves:,}"),
                 ("interior", f"{self.interior:,}"), ("cutoffs", f"{self.cutoffs:,}"),
                 ("nodes per ply", ", ".join(f"{n:,}" for n in self.per_ply))]
        if len(self.iterations) > 1:
            rows.append(("iterations", ", ".join(f"{n:,}" for n in self.iterations)))
        if self.fail_high_first_rate is not None:
            rows.append(("fail-high first", f"{100 * self.fail_high_first_rate:.1f} %"))
        if self.tt_hit_rate is not None:
            rows.append(("TT hit rate", f"{100 * self.tt_hit_rate:.1f} % of {self.tt_probes:,} probes"))
        for name in ("re_searches", "q_nodes", "chance_nodes"):
            if getattr(self, name):
                rows.append((name.replace("_", " "), f"{getattr(self, name):,}"))
        if self.extra.get("pruned"):
            rows.append(("pruned", ", ".join(f"{k} {v:,}" for k, v in self.extra["pruned"].items())))
        rows.append(("time", f"{_seconds(self.wall_time)} ({self.engine})"))
        body = "".join(f"<tr><th style='text-align:left'>{html.escape(k)}</th><td>{html.escape(str(v))}</td></tr>"
                       for k, v in rows)
        return f"<table><caption>SearchResult</caption>{body}</table>"

    def to_dict(self) -> dict[str, Any]:
        """Every field as plain Python (tuples as lists, the extra dict copied) plus the derived
        ``last_iteration_nodes``, ``fail_high_first_rate`` and ``tt_hit_rate``: a JSON- and
        ``pandas.DataFrame``-ready record (``pd.DataFrame([r.to_dict() for r in results])``)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            out[f.name] = _plain(getattr(self, f.name))
        out.update(last_iteration_nodes=self.last_iteration_nodes,
                   fail_high_first_rate=self.fail_high_first_rate, tt_hit_rate=self.tt_hit_rate)
        return out

    def counts(self) -> dict[str, Any]:
        """The deterministic part (everything but timing and engine), for comparisons."""
        return {
            "value": self.value, "best_move": self.best_move, "best_moves": self.best_moves,
            "nodes": self.nodes, "leaves": self.leaves, "interior": self.interior,
            "cutoffs": self.cutoffs, "per_ply": self.per_ply, "iterations": self.iterations,
            "status": self.status, "re_searches": self.re_searches, "tt_probes": self.tt_probes,
            "tt_hits": self.tt_hits, "tt_cutoffs": self.tt_cutoffs,
            "chance_nodes": self.chance_nodes,
        }


def _plain(v: Any) -> Any:
    """Tuples to lists and dicts copied, recursively; numpy scalars to Python numbers."""
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    if hasattr(v, "item") and callable(v.item) and getattr(v, "shape", None) == ():
        return v.item()
    return v


def _short(v: Any) -> str:
    """A value or move for a one-line repr: floats to 6 significant figures, text cut at 40."""
    if isinstance(v, float):
        return f"{v:.6g}"
    text = str(v)
    return text if len(text) <= 40 else text[:37] + "..."


def _seconds(t: float) -> str:
    return f"{t * 1e3:.3g} ms" if t < 1 else f"{t:.3g} s"


@dataclass(frozen=True)
class MultiResult:
    """The outcome and counts of one n-player search (sibling of SearchResult).

    ``values``: the root's value vector, player 0 first (max^n: the max^n vector; paranoid and
    BRS: the leaf vector at the end of the principal variation, whose root-player component is
    ``value``). ``value``: the root player's payoff under the algorithm's model.
    Counts as in SearchResult (nodes, leaves, interior, cutoffs, per_ply by ply).
    """

    values: tuple[float, ...] | None
    value: float | None
    best_move: Hashable | None
    nodes: int
    leaves: int
    interior: int
    cutoffs: int
    per_ply: tuple[int, ...]
    algorithm: str
    n_players: int
    root_player: int
    depth: int
    wall_time: float
    status: str = "ok"
    engine: str = "reference"

    def counts(self) -> dict[str, Any]:
        return {"values": self.values, "value": self.value, "best_move": self.best_move,
                "nodes": self.nodes, "leaves": self.leaves, "cutoffs": self.cutoffs,
                "per_ply": self.per_ply, "status": self.status}

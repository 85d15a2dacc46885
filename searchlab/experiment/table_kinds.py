"""The kinds of table a run can hold, one schema per task kind, and recognising a part's kind.

``searchlab.load`` reads a part only when its columns are those of a known kind (an older
part may lack columns added since: they become nulls); anything else is refused with an error
naming the file, never read back as mostly empty rows.

- ``search``: one row per search task (experiment/store.py SCHEMA; results/README.md);
- ``tradeoff``: one row per (position, pruning technique) of the trade-off study
  (studies/tradeoff/tradeoff_measure.py; docs/tradeoff.md);
- ``match``: one row per match of the trade-off study (studies/tradeoff/tradeoff_measure.py);
- ``parallel``: one row per simulated parallel search of the parallel study
  (studies/parallel/parallel_study.py; docs/parallel.md).
"""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa

from searchlab.errors import SearchlabError


#: The trade-off study's rows: one per (position, technique) (docs/tradeoff.md).
TRADEOFF_SCHEMA = pa.schema([
    ("study", pa.string()), ("domain", pa.string()), ("variant", pa.string()),
    ("position", pa.string()), ("position_seed", pa.uint64()),
    ("technique", pa.string()), ("family", pa.string()), ("params", pa.string()),
    ("depth", pa.int64()), ("ordering", pa.string()), ("budget", pa.int64()),
    ("nodes", pa.int64()), ("q_nodes", pa.int64()), ("nodes_total", pa.int64()),
    ("ref_nodes", pa.int64()), ("node_ratio", pa.float64()),
    ("wall_seconds", pa.float64()), ("ref_wall_seconds", pa.float64()),
    ("time_ratio", pa.float64()), ("fired", pa.int64()),
    ("value", pa.float64()), ("exact_value", pa.float64()), ("value_error", pa.float64()),
    ("best_move", pa.string()), ("exact_best_moves", pa.string()),
    ("decision_error", pa.int64()),
    ("budget_depth", pa.int64()), ("ref_budget_depth", pa.int64()),
    ("budget_nodes", pa.int64()), ("budget_move", pa.string()),
    ("budget_decision_error", pa.int64()),
    # connect4: the game-theoretic check (-1 elsewhere)
    ("exact_score", pa.int64()), ("result_change", pa.int64()),
    ("budget_result_change", pa.int64()),
    # chess: the EPD check (-1 elsewhere)
    ("solved", pa.int64()), ("budget_solved", pa.int64()),
    ("task_id", pa.string()),       # the position task's id (resume)
    ("null_move_guard", pa.bool_()),    # null move went through the game's zugzwang guard
])
#: The trade-off study's matches: one row per (domain, technique).
MATCH_SCHEMA = pa.schema([
    ("study", pa.string()), ("domain", pa.string()), ("technique", pa.string()),
    ("family", pa.string()), ("opponent", pa.string()), ("ordering", pa.string()),
    ("budget", pa.int64()), ("openings", pa.int64()), ("games", pa.int64()),
    ("a_wins", pa.int64()), ("draws", pa.int64()), ("b_wins", pa.int64()),
    ("score", pa.float64()), ("elo", pa.float64()), ("elo_lo", pa.float64()),
    ("elo_hi", pa.float64()), ("a_mean_depth", pa.float64()), ("b_mean_depth", pa.float64()),
    ("seed", pa.uint64()), ("wall_seconds", pa.float64()),
    ("task_id", pa.string()),       # the match task's id (resume)
])
#: one row per game of a trade-off match (games/): ``pair`` the opening's index (the two games
#: of an opening form a pair), ``opening`` its moves, ``a_color`` the side A played,
#: ``result`` A's score (1, 0.5, 0), ``ending`` terminal / repetition / max_plies.
MATCH_GAME_SCHEMA = pa.schema([
    ("study", pa.string()), ("domain", pa.string()), ("technique", pa.string()),
    ("family", pa.string()), ("opponent", pa.string()), ("ordering", pa.string()),
    ("budget", pa.int64()), ("pair", pa.int64()), ("opening", pa.string()),
    ("a_color", pa.string()), ("a_is_max", pa.bool_()), ("result", pa.float64()),
    ("ending", pa.string()), ("plies", pa.int64()),
    ("a_mean_depth", pa.float64()), ("b_mean_depth", pa.float64()),
    ("a_mean_nodes", pa.float64()), ("b_mean_nodes", pa.float64()),
    ("seed", pa.uint64()), ("wall_seconds", pa.float64()),
    ("task_id", pa.string()),
    # how both sides played (studies/tradeoff/tradeoff_config.py MatchConf: play,
    # persist_across_moves) and whether null move went through the game's zugzwang guard
    ("play", pa.string()), ("persist_across_moves", pa.bool_()),
    ("null_move_guard", pa.bool_()),
    # the budget per move: "nodes" (``budget`` nodes) or "cpu" (``cpu_seconds`` of thread CPU
    # time, ``budget`` a node cap; ``clock`` names the clock and its resolution); the spread of
    # each side's nodes per move in the game (standard deviation / mean, ddof 0)
    ("budget_mode", pa.string()), ("cpu_seconds", pa.float64()), ("clock", pa.string()),
    ("a_cv_nodes", pa.float64()), ("b_cv_nodes", pa.float64()),
    # measured while the game was played (rows from before them: absent): each side's nodes per
    # CPU second over its moves (thread time), the machine's 1-minute load average at the
    # game's start, and under a CPU-time budget the clock probe: the sound player's search of
    # the opening repeated at the game's CPU time per move in fresh sessions, the coefficient
    # of variation (ddof 0) and mean of the nodes it reached (play/clock_noise.py; NaN under a
    # node budget, where the repeats are identical)
    ("a_nps", pa.float64()), ("b_nps", pa.float64()), ("load_avg", pa.float64()),
    ("probe_cv", pa.float64()), ("probe_nodes", pa.float64()),
])
#: The parallel study's rows: one per (tree or game position, algorithm, p) (docs/parallel.md;
#: the measurements are searchlab.parallel.SimResult's fields).
PARALLEL_SCHEMA = pa.schema([
    ("study", pa.string()), ("table", pa.string()), ("domain", pa.string()),
    ("b", pa.int64()), ("d", pa.int64()), ("instance", pa.string()), ("order_p", pa.float64()),
    ("ordering", pa.string()), ("algorithm", pa.string()), ("p", pa.int64()),
    ("tree", pa.string()), ("depth", pa.int64()), ("value", pa.float64()),
    ("best_move", pa.string()), ("nodes", pa.int64()), ("leaves", pa.int64()),
    ("seq_nodes", pa.int64()), ("time", pa.float64()), ("seq_time", pa.float64()),
    ("speedup", pa.float64()), ("search_overhead", pa.float64()), ("idle", pa.float64()),
    ("idle_fraction", pa.float64()), ("splits", pa.int64()), ("jobs", pa.int64()),
    ("messages", pa.int64()), ("aborts", pa.int64()), ("tt_probes", pa.int64()),
    ("tt_hits", pa.int64()), ("tt_cutoffs", pa.int64()), ("deferred", pa.int64()),
    ("status", pa.string()), ("same_value", pa.bool_()),
    ("cost_node", pa.float64()), ("cost_split", pa.float64()), ("cost_message", pa.float64()),
    ("cost_tt", pa.float64()), ("wall_time", pa.float64()),
    ("task_id", pa.string()), ("task_index", pa.int64()),
])
#: name -> (schema, key columns) of the trade-off study's tables.
TRADEOFF_KINDS = {
    "match_game": (MATCH_GAME_SCHEMA, frozenset({"study", "domain", "technique", "pair",
                                                 "result"})),
    "tradeoff": (TRADEOFF_SCHEMA, frozenset({"study", "domain", "technique", "node_ratio"})),
    "match": (MATCH_SCHEMA, frozenset({"study", "domain", "technique", "elo"})),
}
#: the parallel study's table
PARALLEL_KINDS = {
    "parallel": (PARALLEL_SCHEMA, frozenset({"study", "algorithm", "p", "speedup"})),
}


class UnknownTableError(SearchlabError, ValueError):
    """A Parquet file whose columns are not those of any table searchlab writes."""


def kind_of(schema: pa.Schema, path: Path, kinds: dict[str, tuple[pa.Schema, frozenset]]) -> str:
    """The kind of a part with this ``schema``: its columns all belong to the kind's schema and
    include the kind's key columns. ``kinds``: name -> (schema, key columns).

    Raises UnknownTableError naming ``path`` when no kind fits."""
    names = set(schema.names)
    for kind, (full, keys) in kinds.items():
        if keys <= names and names <= set(full.names):
            return kind
    shown = ", ".join(sorted(names)[:8]) + (" ..." if len(names) > 8 else "")
    raise UnknownTableError(
        f"searchlab.load: {path} is not a table searchlab writes (columns {shown}); known "
        f"kinds: {', '.join(kinds)}")

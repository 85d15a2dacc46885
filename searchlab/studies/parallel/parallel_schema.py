"""The parallel study's table (docs/parallel.md): one row per simulated parallel search;
``TABLE_KINDS``: what ``searchlab.load`` reads (the kind's record, studies/parallel/parallel_kind.py)."""

from __future__ import annotations

import pyarrow as pa


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
#: the parallel study's table
TABLE_KINDS = {
    "parallel": (PARALLEL_SCHEMA, frozenset({"study", "algorithm", "p", "speedup"})),
}

"""The trade-off study's tables: their Arrow schemas, atomic part files, and reading them back."""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

ROW_SCHEMA = pa.schema([
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
])
MATCH_SCHEMA = pa.schema([
    ("study", pa.string()), ("domain", pa.string()), ("technique", pa.string()),
    ("family", pa.string()), ("opponent", pa.string()), ("ordering", pa.string()),
    ("budget", pa.int64()), ("openings", pa.int64()), ("games", pa.int64()),
    ("a_wins", pa.int64()), ("draws", pa.int64()), ("b_wins", pa.int64()),
    ("score", pa.float64()), ("elo", pa.float64()), ("elo_lo", pa.float64()),
    ("elo_hi", pa.float64()), ("a_mean_depth", pa.float64()), ("b_mean_depth", pa.float64()),
    ("seed", pa.uint64()), ("wall_seconds", pa.float64()),
])
NONDETERMINISTIC = ("wall_seconds", "ref_wall_seconds", "time_ratio")



# --- storage --------------------------------------------------------------------------------
def write_part(folder: Path, index: int, rows: list[dict], schema: pa.Schema) -> Path:
    """Write rows as ``part-<index>.parquet`` atomically (temp file, fsync, rename)."""
    folder.mkdir(parents=True, exist_ok=True)
    final = folder / f"part-{index:05d}.parquet"
    tmp = folder / f".part-{index:05d}.parquet.tmp"
    table = pa.Table.from_pylist(rows, schema=schema)
    with open(tmp, "wb") as fh:
        pq.write_table(table, fh)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, final)
    return final


def load_table(run_dir: str | Path, which: str = "table"):
    """The rows of a run (``which`` = "table" or "matches") as a pandas DataFrame, sorted by
    identity (so the order of completion does not matter)."""
    folder = Path(run_dir) / which
    parts = sorted(folder.glob("part-*.parquet")) if folder.is_dir() else []
    schema = ROW_SCHEMA if which == "table" else MATCH_SCHEMA
    if not parts:
        return schema.empty_table().to_pandas()
    df = pd.concat([pq.read_table(p).to_pandas() for p in parts], ignore_index=True)
    keys = ["domain", "variant", "position", "technique"] if which == "table" else \
        ["domain", "technique"]
    return df.sort_values(keys, kind="stable").reset_index(drop=True)



"""The trade-off study's tables: their Arrow schemas, atomic part files, and reading them back."""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from searchlab.experiment.table_kinds import MATCH_SCHEMA, TRADEOFF_SCHEMA as ROW_SCHEMA  # noqa: F401

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



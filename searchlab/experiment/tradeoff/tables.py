"""Reading the trade-off study's tables back (schemas in experiment/table_kinds.py; written by
the engine store's PartWriter: ``table/`` rows, ``matches/``)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq

from searchlab.experiment.table_kinds import MATCH_SCHEMA, TRADEOFF_SCHEMA as ROW_SCHEMA  # noqa: F401

NONDETERMINISTIC = ("wall_seconds", "ref_wall_seconds", "time_ratio")


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

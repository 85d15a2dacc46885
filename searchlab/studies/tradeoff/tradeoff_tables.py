"""Reading the trade-off study's tables back (schemas in experiment/table_kinds.py; written by
the engine store's PartWriter: ``table/`` rows, ``games/`` (one row per match game; runs from
before the game pairs have ``matches/``, one row per match))."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq

from searchlab.studies.tradeoff.matches import summarize_games
from searchlab.experiment.table_kinds import (MATCH_GAME_SCHEMA, MATCH_SCHEMA,
                                             TRADEOFF_SCHEMA as ROW_SCHEMA)

#: columns that differ between identical runs: times, and what the match games measure of the
#: machine while they run (nodes per CPU second, load, the clock probe)
NONDETERMINISTIC = ("wall_seconds", "ref_wall_seconds", "time_ratio", "a_nps", "b_nps",
                    "load_avg", "probe_cv", "probe_nodes")


#: folder and sort keys of each table
_TABLES = {"table": (ROW_SCHEMA, ["domain", "variant", "position", "technique"]),
           "matches": (MATCH_SCHEMA, ["domain", "technique"]),
           "games": (MATCH_GAME_SCHEMA, ["domain", "technique", "budget", "pair", "a_is_max"])}


def load_table(run_dir: str | Path, which: str = "table"):
    """The rows of a run (``which`` = "table", "games" or "matches") as a pandas DataFrame,
    sorted by identity (so the order of completion does not matter). A run whose matches were
    played in stored game pairs (``games/``) has no ``matches/`` folder: "matches" is then
    computed from its games (studies/tradeoff/matches.py: one row per pairing with the pentanomial
    statistics); a run of the older layout reads its ``matches/`` rows as they are."""
    if which == "matches" and not _parts(run_dir, "matches") and _parts(run_dir, "games"):
        return summarize_games(load_table(run_dir, "games"))
    schema, keys = _TABLES[which]
    parts = _parts(run_dir, which)
    if not parts:
        return schema.empty_table().to_pandas()
    df = pd.concat([pq.read_table(p).to_pandas() for p in parts], ignore_index=True)
    return df.sort_values(keys, kind="stable").reset_index(drop=True)


def _parts(run_dir: str | Path, which: str) -> list[Path]:
    folder = Path(run_dir) / which
    return sorted(folder.glob("part-*.parquet")) if folder.is_dir() else []

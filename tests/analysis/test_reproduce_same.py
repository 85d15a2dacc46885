"""analysis/reproduce.py --small gives the same numbers before and after a re-layout.

``tests/data/reproduce_small_digests.json`` holds, per table of the reproduction at --small size
(every study's ``table/``, the matches' ``games/``, the chance and n-player studies' tables), a
digest of its deterministic columns computed from the code before the change (commit f7adbf8,
before the layout of top-level conf/ and experiments/ and the study-kind registry; the parallel
study's table and the chance study's orderings table are from the code after those two studies
were changed on purpose: 30 trees per cell, Star1/Star2 under three orderings; the matches'
games, unsound_matches_small/games and chess_matches_small/games, are from the code after those
presets were switched on purpose to engine-grade play with Connect Four's null-move guard; the minimal-tree, chess-ordering and shallow ordering
studies' tables were added with those studies): timings,
versions, run directories and the columns that differ between two identical runs (the real
threads of the parallel study) are left out; rows sorted by every kept column. The test runs
the same studies with today's code and compares. Slow (about six minutes on 2 cores):
``pytest -m slow tests/analysis/test_reproduce_same.py``; ``python
tests/analysis/test_reproduce_same.py RUNS_DIR`` prints the digests of a --small run's tables.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

ROOT = Path(__file__).resolve().parents[2]
DIGESTS = ROOT / "tests" / "data" / "reproduce_small_digests.json"
#: columns that differ between identical runs, or that the re-layout added (pruning: "none")
LEAVE_OUT = {"wall_seconds", "ref_wall_seconds", "time_ratio", "version", "commit", "engine",
             "run_dir", "pruning", "config_hash", "wall_time", "cpu_seconds",
             # measured of the machine while a match game runs (tradeoff_tables.NONDETERMINISTIC)
             "a_nps", "b_nps", "load_avg", "probe_cv", "probe_nodes"}


def table_digest(folder: Path, cols: list[str] | None = None) -> dict:
    """{rows, columns, sha256} of the Parquet parts under ``folder``: the given columns (default:
    every deterministic one), rows sorted by all of them."""
    parts = sorted(folder.glob("part-*.parquet"))
    df = pd.concat([pq.read_table(p).to_pandas() for p in parts], ignore_index=True)
    missing = sorted(set(cols or ()) - set(df.columns))
    assert not missing, f"{folder}: columns lost {missing}"
    cols = cols or sorted(c for c in df.columns if c not in LEAVE_OUT)
    df = df[cols].astype(str).sort_values(cols, kind="stable").reset_index(drop=True)
    blob = df.to_csv(index=False).encode()
    return {"rows": len(df), "columns": cols, "sha256": hashlib.sha256(blob).hexdigest()}


def digests(runs: Path, columns: dict | None = None) -> dict:
    """Digest of every table under ``runs``: each {study}/{folder} holding Parquet parts."""
    out = {}
    for folder in sorted(p for p in runs.glob("*/*") if p.is_dir()):
        if any(folder.glob("part-*.parquet")):
            key = f"{folder.parent.name}/{folder.name}"
            out[key] = table_digest(folder, (columns or {}).get(key))
    return out


@pytest.mark.slow
def test_small_reproduction_tables_are_unchanged(tmp_path):
    sys.path.insert(0, str(ROOT / "analysis"))
    import reproduce

    runs = tmp_path / "small"
    runs.mkdir()

    def quiet(*_):
        return None

    reproduce.run_studies(True, 2, runs, False, log=quiet, studies=reproduce.STUDIES + [reproduce.CHESS_DEEP])
    for preset in ("unsound_tradeoff", "parallel"):
        reproduce.run_preset(preset, True, 2, runs, False, log=quiet)
    reproduce.run_matches(True, 2, runs, False, False, log=quiet)
    reproduce.run_claim_studies(True, 2, runs, False, log=quiet)
    expected = json.loads(DIGESTS.read_text())
    got = digests(runs, {k: v["columns"] for k, v in expected.items()})
    assert set(got) == set(expected)
    for key in expected:
        assert got[key] == expected[key], key


if __name__ == "__main__":
    print(json.dumps(digests(Path(sys.argv[1])), indent=1, sort_keys=True))

"""analysis/reproduce.py --small gives the same numbers as before issue 10's re-layout.

``tests/data/reproduce_small_digests.json`` holds, per study of the reproduction at --small
size, a digest of its table computed from the code before the change (commit dc4513d): every
deterministic column (timings, versions and the run directory left out), rows in task order.
The trade-off study's matches are digested as their games (``games/``, since its matches are
played in stored game pairs from distinct openings: new games by design, digest recorded by
match14 from the small run); its ``table/`` digest is still dc4513d's.
The test runs the same studies with today's code and compares. Slow (the studies take minutes):
``pytest -m slow tests/analysis/test_reproduce_same.py``.
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
             "run_dir", "pruning", "config_hash"}


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
    """Digest of every study's tables under ``runs`` ({study}/table, {study}/games)."""
    out = {}
    for study in sorted(p for p in runs.iterdir() if p.is_dir()):
        for sub in ("table", "games"):
            key = f"{study.name}/{sub}"
            if (study / sub).is_dir():
                out[key] = table_digest(study / sub, (columns or {}).get(key))
    return out


@pytest.mark.slow
def test_small_reproduction_tables_are_unchanged(tmp_path):
    sys.path.insert(0, str(ROOT / "analysis"))
    import reproduce

    runs = tmp_path / "small"
    runs.mkdir()
    reproduce.run_studies(True, 2, runs, False, log=lambda *_: None)
    reproduce.run_preset("unsound_tradeoff", True, 2, runs, False, log=lambda *_: None)
    expected = json.loads(DIGESTS.read_text())
    got = digests(runs, {k: v["columns"] for k, v in expected.items()})
    assert set(got) == set(expected)
    for key in expected:
        assert got[key] == expected[key], key

"""Which (configuration, depth) cells of a table are complete: every instance finished.

A search stopped by its node budget (status ``aborted``) or a failed task leaves its instance
out of the ok rows; the instances that survive a budget are the easy ones, so a mean over them
is biased low. The fits therefore use only the depths of a configuration where every instance
has an ok row, and the tables say how many instances each depth has and which depths were left
out (n ok / n total).
"""

from __future__ import annotations

import math
from typing import Any

import pandas as pd


def norm_key(v: Any) -> Any:
    """A group-key value comparable across groupbys (NaN and NA -> None, numpy -> Python)."""
    if v is None or v is pd.NA or (isinstance(v, float) and math.isnan(v)):
        return None
    return v.item() if hasattr(v, "item") else v


def depth_cells(df: pd.DataFrame, keys: list[str]) -> dict[tuple, dict[int, tuple[int, int]]]:
    """configuration key (the ``keys`` values, normalised) -> {d: (n ok, n total)} over every
    status. n total is the number of instances of the configuration (at its best-covered
    depth), so a depth whose tasks never ran (a killed run) counts as incomplete too."""
    out: dict[tuple, dict[int, tuple[int, int]]] = {}
    if df.empty or "d" not in df.columns or "instance" not in df.columns:
        return out
    ok = df["status"].astype(str) == "ok" if "status" in df.columns else pd.Series(True, df.index)
    for gkey, g in df.groupby(keys, dropna=False, sort=False):
        gkey = gkey if isinstance(gkey, tuple) else (gkey,)
        total = g.groupby("d")["instance"].nunique()
        good = g[ok.loc[g.index]].groupby("d")["instance"].nunique()
        n = int(total.max())
        out[tuple(norm_key(v) for v in gkey)] = {int(d): (int(good.get(d, 0)), n) for d in total.index}
    return out


def complete_depths(cells: dict[int, tuple[int, int]]) -> set[int]:
    return {d for d, (ok, total) in cells.items() if ok == total}


def n_per_depth(cells: dict[int, tuple[int, int]]) -> str:
    """e.g. '10 at d=1..4; d=5: 7/10 ok, left out; d=6..8: 0/10 ok, left out'."""
    kept = sorted(complete_depths(cells))
    parts = []
    if kept:
        n = cells[kept[0]][1]
        span = f"d={kept[0]}..{kept[-1]}" if len(kept) > 1 else f"d={kept[0]}"
        gaps = len(kept) != kept[-1] - kept[0] + 1
        parts.append(f"{n} at {'d=' + ','.join(map(str, kept)) if gaps else span}")
    runs: list[list[int]] = []          # consecutive left-out depths with the same counts
    for d in sorted(set(cells) - set(kept)):
        if runs and d == runs[-1][-1] + 1 and cells[d] == cells[runs[-1][0]]:
            runs[-1].append(d)
        else:
            runs.append([d])
    for r in runs:
        ok, total = cells[r[0]]
        span = f"d={r[0]}..{r[-1]}" if len(r) > 1 else f"d={r[0]}"
        parts.append(f"{span}: {ok}/{total} ok, left out")
    return "; ".join(parts) if parts else "no depth"

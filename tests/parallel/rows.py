"""Parallel simulations as plain rows, for comparing the compiled kernels with themselves run
as plain Python (tests/nojit.py): wall time, the one field that differs run to run, dropped."""

from __future__ import annotations


def plain_row(result) -> dict:
    """``result.row()`` without its wall time, with the per-processor node counts as a list."""
    d = result.row()
    d.pop("wall_time")
    d["per"] = list(result.per_processor_nodes)
    return d

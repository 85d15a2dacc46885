"""Shared fixtures: synthetic result tables shaped like the engine's Parquet output (one row per task)."""

from __future__ import annotations

import os

import numpy as np
import pandas as pd
import pytest

from searchlab.warm_up import warm_up
from searchlab.analysis import theory as T
from searchlab.experiment import composition

COLUMNS = ["experiment", "tree", "b", "d", "levels", "p", "decay", "correlation", "algorithm", "ordering",
           "instance", "seed", "ordering_seed", "value", "best_move", "nodes", "leaves", "interior", "cutoffs",
           "per_ply", "wall_seconds", "status", "config_hash", "version", "commit"]



@pytest.fixture(autouse=True)
def _user_config_dirs_are_per_test():
    """cli.main() records the command line's config directories in composition.USER_DIRS (a
    process-wide list other modules hold by name): restored in place after every test, so a
    test calling the command in-process leaves no user options behind for the next one."""
    saved = list(composition.USER_DIRS)
    yield
    composition.USER_DIRS[:] = saved
def synthetic_table(bs=(2, 4, 8), depths=range(1, 7), instances=8, seed=0, abort_rate=0.02,
                    orderings=("perfect", "worst", "random"), with_minimax=True) -> pd.DataFrame:
    """Perfect = Knuth–Moore exactly, worst = 0.9·b^d, random = (b^(3/4))^d × lognormal noise."""
    rng = np.random.default_rng(seed)
    rows = []

    def row(b, d, i, algorithm, ordering, leaves, status="ok"):
        nodes = int(leaves * 1.3) + 1
        return dict(experiment="synthetic", tree="iid", b=b, d=d, levels=0, p=np.nan, decay=np.nan,
                    correlation=np.nan, algorithm=algorithm, ordering=ordering, instance=i, seed=1000 * b + i,
                    ordering_seed=0, value=0.5, best_move=0, nodes=nodes, leaves=int(leaves),
                    interior=nodes - int(leaves), cutoffs=3, per_ply=[1] * (d + 1), wall_seconds=0.001,
                    status=status, config_hash="cafe", version="0.1.0", commit="0" * 40)

    for b in bs:
        for d in depths:
            for i in range(instances):
                for o in orderings:
                    if o == "perfect":
                        lv = T.knuth_moore_leaves(b, d)
                    elif o == "worst":
                        lv = max(1, int(0.9 * b ** d))
                    else:
                        lv = max(1, int((b ** 0.75) ** d * rng.lognormal(0, 0.2)))
                    st = "aborted" if rng.random() < abort_rate else "ok"
                    rows.append(row(b, d, i, "alphabeta", o, lv, st))
                if with_minimax:
                    rows.append(row(b, d, i, "minimax", "natural", b ** d))
    return pd.DataFrame(rows, columns=COLUMNS)


@pytest.fixture
def table() -> pd.DataFrame:
    return synthetic_table()


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session):
    """Before the whole suite's test processes start (not for a chosen file, not in an xdist
    worker, not under NUMBA_DISABLE_JIT): compile every engine once onto the disk cache, two
    processes at a time (searchlab.warm_up). Without it each test process compiled what its tests met first, and
    two processes often compiled the same engine at once."""
    config = session.config
    # "not for a chosen file": the tests come from testpaths (options such as -q -x, which
    # invocation_params.args also holds, do not count)
    if (hasattr(config, "workerinput") or config.args_source != pytest.Config.ArgsSource.TESTPATHS
            or os.environ.get("NUMBA_DISABLE_JIT") == "1"):
        return
    # the package's one list of first searches (searchlab-warm-up), two processes at a time; a
    # failed engine only leaves the tests to compile it (and to report any error themselves)
    warm_up(jobs=2)

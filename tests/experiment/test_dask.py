"""runner=dask: the same tasks on a Dask LocalCluster (threads, to keep the test light) give the
same table as loky."""

from __future__ import annotations

import pandas as pd
import pytest

pytest.importorskip("distributed")

from searchlab.experiment.api import compose, run_study  # noqa: E402
from searchlab.experiment.store import load  # noqa: E402
from searchlab.experiment.validation import validate  # noqa: E402

from .experiment_helpers import SMALL, det_frame  # noqa: E402


def test_runner_dask_group_composes():
    study = validate(compose(None, ["runner=dask", "runner.address=tcp://127.0.0.1:8786"]))
    assert study.runner.backend == "dask" and study.runner.address == "tcp://127.0.0.1:8786"


def test_dask_localcluster_matches_loky(tmp_path):
    small = SMALL + ["sweep.b=[2,3]"]
    loky = run_study("quick", small + ["runner.n_jobs=2"], output_dir=tmp_path / "loky",
                     progress=False)
    dask = run_study("quick", small + ["runner=dask", "runner.n_workers=2",
                                       "runner.processes=false", "runner.batch_nodes=500"],
                     output_dir=tmp_path / "dask", progress=False)
    a, b = load(loky), load(dask)
    assert len(a) == 2 * 4 * 3 * 6
    pd.testing.assert_frame_equal(det_frame(a), det_frame(b))

"""runner=dask: the same tasks on a Dask LocalCluster (threads, to keep the test light) give the
same table as loky."""

from __future__ import annotations

import logging

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


def test_dask_localcluster_matches_loky(tmp_path, caplog):
    small = SMALL + ["sweep.b=[2,3]"]
    loky = run_study("quick", small + ["runner.n_jobs=2"], output_dir=tmp_path / "loky",
                     progress=False)
    caplog.set_level(logging.INFO)          # as Hydra's job logging does: INFO reaches the root
    dask = run_study("quick", small + ["runner=dask", "runner.n_workers=2",
                                       "runner.processes=false", "runner.batch_nodes=500"],
                     output_dir=tmp_path / "dask", progress=False)
    # distributed's ~40 INFO lines per cluster start and stop are silenced; warnings would show
    chatter = [r for r in caplog.records if r.name.startswith("distributed") and r.levelno < logging.WARNING]
    assert chatter == [], [r.getMessage() for r in chatter[:3]]
    a, b = load(loky), load(dask)
    assert len(a) == 2 * 4 * 3 * 6
    pd.testing.assert_frame_equal(det_frame(a), det_frame(b))

"""Shared fixtures: one tiny study run, reused by the end-to-end tests."""

from __future__ import annotations

import pytest

from searchlab.tradeoff.config import load


@pytest.fixture(scope="session")
def tiny_run(tmp_path_factory):
    from searchlab.tradeoff.study import run_study
    cfg = load(["tradeoff_size=tiny", "n_jobs=1", "progress=false"])
    return run_study(cfg, tmp_path_factory.mktemp("tiny") / "run", progress=False)

"""Under Hydra's joblib launcher each job's runner pool is nested in the launcher's pool:
runner.n_jobs=-1 is divided among the launcher's jobs, an oversubscribed product is warned
about in one line, and outside that launcher nothing changes (docs/running.md)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from hydra.core.hydra_config import HydraConfig
from omegaconf import OmegaConf

from searchlab import cli

JOBLIB = "hydra_plugins.hydra_joblib_launcher.joblib_launcher.JoblibLauncher"


def _run(monkeypatch, launcher: dict | None, n_jobs: int, cores: int = 8):
    if launcher is None:
        def get():
            raise ValueError("HydraConfig was not set")
    else:
        def get():
            return SimpleNamespace(launcher=OmegaConf.create(launcher))
    monkeypatch.setattr(HydraConfig, "get", staticmethod(get))   # cli imports it when it runs
    monkeypatch.setattr(cli.os, "cpu_count", lambda: cores)
    cfg = OmegaConf.create({"runner": {"n_jobs": n_jobs}})
    cli._nested_jobs(cfg)
    return cfg.runner.n_jobs


@pytest.mark.parametrize("outer,expected", [(2, 4), (4, 2), (8, 1), (16, 1), (-1, 1)])
def test_all_cores_are_divided_among_the_launchers_jobs(monkeypatch, capsys, outer, expected):
    assert _run(monkeypatch, {"_target_": JOBLIB, "n_jobs": outer}, -1) == expected
    err = capsys.readouterr().err
    assert f"runner.n_jobs=-1 becomes {expected} per job (8 cores)" in err


def test_an_oversubscribed_product_is_warned_about_and_kept(monkeypatch, capsys):
    assert _run(monkeypatch, {"_target_": JOBLIB, "n_jobs": 4}, 3) == 3
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "hydra.launcher.n_jobs=4 x runner.n_jobs=3 = 12 worker processes on 8 cores" in err[0]


def test_a_product_within_the_cores_is_silent(monkeypatch, capsys):
    assert _run(monkeypatch, {"_target_": JOBLIB, "n_jobs": 2}, 4) == 4
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("launcher", [None, {"_target_": "hydra._internal.core_plugins.basic_launcher.BasicLauncher"}])
def test_other_launchers_leave_n_jobs_alone(monkeypatch, capsys, launcher):
    assert _run(monkeypatch, launcher, -1) == -1
    assert capsys.readouterr().err == ""

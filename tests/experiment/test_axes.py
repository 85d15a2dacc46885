"""Every axis sweeps the same way: one precedence rule (composition.axis_overrides), checked
through the composed config and through ``searchlab --cfg job``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from omegaconf import OmegaConf

from searchlab.experiment import api
from searchlab.experiment.composition import axis_overrides
from searchlab.experiment.schema import ConfigError

ROOT = Path(__file__).resolve().parents[2]


def _sweep(experiment, *overrides):
    cfg = api.compose(experiment, list(overrides))
    return OmegaConf.to_container(cfg, resolve=True)["sweep"]


def test_choosing_an_axis_replaces_the_presets_list():
    assert _sweep(None)["ordering"] == ["worst", "random", "perfect", "id", "killer"]  # tour's
    assert _sweep("quick")["ordering"] == ["worst", "random", "perfect"]     # config.yaml's
    assert _sweep(None, "ordering=static")["ordering"] == "static"
    assert _sweep("ordering_connect4", "ordering=id+tt+killer+history+centre")["ordering"] == \
        "id+tt+killer+history+centre"
    assert _sweep("knuth_moore", "search=pvs")["algorithm"] == ["pvs"]
    assert _sweep("knuth_moore", "search.algorithm=mtdf")["algorithm"] == ["mtdf"]
    games = _sweep("ordering_games", "game=connect4")
    assert games["games"] == [] and games["trees"] == []


def test_an_explicit_sweep_list_wins_over_the_axis_choice():
    s = _sweep(None, "ordering=static", "sweep.ordering=[natural,id+killer]")
    assert s["ordering"] == ["natural", "id+killer"]
    assert axis_overrides(["ordering=static", "sweep.ordering=[natural]"]) == \
        ["ordering=static", "sweep.ordering=[natural]"]


def test_the_readme_example_validates_as_a_connect4_study():
    study = api.validate(api.compose(None, ["game=connect4", "ordering=id+killer"]))
    assert [g.name for g in study.games] == ["connect4"] and study.trees == ()
    assert study.orderings == ("id+killer",)


def test_a_presets_depth_restriction_of_an_ordering_left_out_does_not_apply():
    study = api.validate(api.compose("ordering_connect4", ["ordering=id+tt+killer+history+centre"]))
    assert study.orderings == ("id+tt+killer+history+centre",) and study.d_by_ordering == {}
    with pytest.raises(ConfigError, match="'perfct' is not an ordering policy"):
        api.validate(api.compose("ordering_connect4", ["+sweep.d_by_ordering.perfct=1..2"]))


def test_cfg_job_shows_the_rule(tmp_path):
    """The command line's own path (sys.argv rewritten before Hydra parses it)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    args = ["experiment=ordering_incremental", "ordering=id+tt+killer+history+static",
            "search=pvs"]
    out = subprocess.run([sys.executable, "-m", "searchlab.cli", *args, "--cfg", "job"],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    job = yaml.safe_load(out.stdout)
    assert job["ordering"] == "id+tt+killer+history+static"
    assert job["sweep"]["ordering"] == "${ordering}"
    assert job["sweep"]["algorithm"] == ["${search.algorithm}"] and job["search"]["algorithm"] == "pvs"

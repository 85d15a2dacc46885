"""Pruning techniques are a config group and a sweep axis of the one engine."""

from __future__ import annotations

import pytest

from searchlab.algorithms.pruning import NullMove
from searchlab.experiment import api, grid
from searchlab.experiment.schema import ConfigError
from searchlab.experiment.store import load

TINY = ["tree=incremental", "ordering=static", "sweep.b=[3]", "sweep.d=2..4",
        "sweep.instances=2", "runner.n_jobs=1", "runner.progress=false", "runner.report=false"]


def _study(*overrides):
    return api.validate(api.compose(None, [*TINY, *overrides]))


def test_the_chosen_techniques_parameters_are_overrides():
    s = _study("pruning=null_r2", "pruning.null_move.reduction=3")
    # the label says what ran: the option's name and the parameter its override changed
    assert s.prunings == (("null_r2(null_move.reduction=3)", s.prunings[0][1]),)
    assert s.prunings[0][1].null_move == NullMove(reduction=3)
    listed = _study("sweep.pruning=[none,null_r2,beam_3]", "pruning=beam_3", "pruning.beam.width=2")
    names = [n for n, _ in listed.prunings]
    assert names[:2] == ["none", "null_r2"] and listed.prunings[0][1] is None
    assert listed.prunings[1][1].null_move == NullMove(reduction=2)      # from its file
    assert listed.prunings[2][1].beam.width == 2                          # the override
    assert names[2] == "beam_3(beam.width=2)"


@pytest.mark.parametrize("overrides, match", [
    (["sweep.pruning=[none,nul_r2]"], "unknown technique 'nul_r2'; allowed: beam_2"),
    (["pruning=null_r2", "+pruning.null_move.depth=3"], "pruning null_r2.null_move: unknown parameter"),
    (["pruning=null_r2", "search.engine=kernel"], "pruning null_r2: pruning techniques run on"),
    (["sweep.pruning=[]"], "sweep.pruning: the grid is empty"),
])
def test_bad_pruning_is_one_line_naming_it(overrides, match):
    with pytest.raises(ConfigError, match=match):
        grid.plan(_study(*overrides))


def test_a_sweep_over_techniques_pairs_every_search(tmp_path):
    plain = api.run_study("quick", TINY, output_dir=tmp_path / "plain", progress=False)
    swept = api.run_study("quick", [*TINY, "sweep.pruning=[none,null_r2,futility_03]"],
                          output_dir=tmp_path / "swept", progress=False)
    a, b = load(plain), load(swept)
    assert len(b) == 3 * len(a) and set(b["pruning"]) == {"none", "null_r2", "futility_03"}
    none = b[b["pruning"] == "none"].sort_values("task_id")
    base = a.sort_values("task_id")
    # the technique-free searches keep their identity and counts: the axis adds, never shifts
    assert list(none["task_id"]) == list(base["task_id"])
    assert list(none["nodes"]) == list(base["nodes"]) and list(none["seed"]) == list(base["seed"])
    for name in ("null_r2", "futility_03"):
        rows = b[b["pruning"] == name]
        assert rows["nodes"].sum() < none["nodes"].sum(), name         # they do prune
        assert set(rows["seed"]) == set(none["seed"])                   # the same trees

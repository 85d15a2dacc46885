"""Configuration: composition, presets, and one-line errors for bad input."""

from __future__ import annotations

import pytest

from searchlab import cli as cli_mod
from searchlab.experiment import api, grid
from searchlab.experiment.composition import available_options
from searchlab.experiment.schema import ConfigError
from searchlab.experiment.validation import validate

from .experiment_helpers import cli


def _precheck_error(capsys, *argv: str) -> str:
    with pytest.raises(SystemExit) as ex:
        cli_mod.precheck(list(argv))
    assert ex.value.code == 2
    err = capsys.readouterr().err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1, err                    # one clear line, no traceback
    assert lines[0].startswith("searchlab: error: ")
    return lines[0]


def test_default_config_is_tour_and_valid():
    study = validate(api.compose())
    assert study.name == "tour"
    assert list(study.orderings) == ["worst", "random", "perfect", "id", "killer"]
    assert [t.model for t in study.trees] == ["iid", "incremental"]
    p = grid.plan(study)
    grid.check_budget(p, study.runner.max_nodes)
    assert study.b == (2, 4, 8) and study.instances == 10
    # experiment=quick is still config.yaml's grid alone
    quick = validate(api.compose("quick"))
    assert quick.name == "quick" and list(quick.orderings) == ["worst", "random", "perfect"]
    assert [t.model for t in quick.trees] == ["iid"]


def _trees(*overrides):
    study = validate(api.compose(None, list(overrides)))
    return study, [(t.model, t.params()) for t in study.trees]


def test_tree_choice_replaces_the_default_studys_two_models():
    study, trees = _trees("tree=incremental", "tree.decay=0.3")
    assert trees == [("incremental", {"decay": 0.3, "correlation": 0.5})]
    assert list(study.orderings) == ["worst", "random", "perfect", "id", "killer"]
    # a model without static values keeps the default orderings it can run (id left out)
    study, trees = _trees("tree=ordered", "tree.p=0.5")
    assert trees == [("ordered", {"p": 0.5})] and study.name == "ordered_tree"
    assert list(study.orderings) == ["worst", "random", "perfect", "killer"]
    study, trees = _trees("tree=iid")
    assert trees == [("iid", {"levels": 0})] and "id" not in study.orderings
    # ... but an ordering the user names is refused there, as for any single tree
    with pytest.raises(Exception, match="static values"):
        grid.plan(validate(api.compose(None, ["tree=iid", "ordering=id"])))


def test_tree_parameter_sets_the_default_studys_model_that_has_it():
    study, trees = _trees("tree.decay=0.3")
    assert trees == [("iid", {"levels": 0}), ("incremental", {"decay": 0.3, "correlation": 0.5})]
    _, trees = _trees("tree.levels=4", "tree.correlation=1.0")
    assert trees == [("iid", {"levels": 4}), ("incremental", {"decay": 0.8, "correlation": 1.0})]
    # a preset's own list too: the command line wins over its entry
    _, trees = _trees("experiment=knuth_moore", "tree.p=0.5")
    assert trees == [("iid", {"levels": 0}), ("ordered", {"p": 0.5})]
    with pytest.raises(ConfigError, match=r"tree.p is not a parameter of the study's tree models "
                                          r"\(iid, incremental; sweep.trees\).*tree=ordered"):
        _trees("tree.p=0.5")


def test_tour_runs_id_on_the_trees_with_static_values_only():
    study = validate(api.compose("tour"))
    assert list(study.orderings) == ["worst", "random", "perfect", "id", "killer"]
    assert sorted({t.model for t in study.trees}) == ["iid", "incremental"]
    pairs = {(t.tree.model, t.ordering) for t in grid.plan(study).tasks}
    assert {("incremental", "id"), ("iid", "killer"), ("incremental", "killer")} <= pairs
    assert ("iid", "id") not in pairs
    # alone, id on a tree without static values is still refused before any work
    with pytest.raises(Exception, match="static values"):
        grid.plan(validate(api.compose("quick", ["sweep.ordering=[id]"])))


# every preset composing, validating and fitting its budget: tests/experiment/test_preset_identity.py


def test_presets_required_by_the_issue_exist():
    assert {"quick", "ordering_ebf", "knuth_moore", "pearl", "discrete_values"} <= set(
        available_options("experiment"))


def test_overrides_and_ranges():
    study = validate(api.compose("ordering_ebf", ["sweep.b=[2,4,8]", "runner.n_jobs=2",
                                                  "sweep.d=2..10:2", "+sweep.d_by_b={2: 1..3}"]))
    assert study.b == (2, 4, 8) and study.d == (2, 4, 6, 8, 10)
    assert study.depths_for(2) == (1, 2, 3) and study.depths_for(4) == study.d
    assert study.runner.n_jobs == 2


def test_ordering_ebf_depths_grow_as_b_shrinks():
    p = grid.plan(validate(api.compose("ordering_ebf")))
    deepest = {}
    for t in p.tasks:
        if t.ordering == "random":
            deepest[t.b] = max(deepest.get(t.b, 0), t.d)
    assert deepest[2] > deepest[8] > deepest[32] >= 2


def test_unknown_group_option(capsys):
    line = _precheck_error(capsys, "tree=iidd")
    assert "'iidd'" in line and "tree" in line and "iid" in line and "ordered" in line


def test_unknown_experiment(capsys):
    line = _precheck_error(capsys, "experiment=nope")
    assert "nope" in line and "ordering_ebf" in line


def test_unknown_key(capsys):
    line = _precheck_error(capsys, "sweep.bb=[2]")
    assert "sweep.bb" in line and "instances" in line     # names the key and what is allowed


def test_wrong_type(capsys):
    line = _precheck_error(capsys, "sweep.instances=ten")
    assert "sweep.instances" in line and "ten" in line


def test_wrong_type_in_list(capsys):
    line = _precheck_error(capsys, "sweep.b=[2,x]")
    assert "sweep.b" in line and "'x'" in line


@pytest.mark.parametrize("override, key", [
    ("sweep.b=[0,2]", "sweep.b"), ("sweep.d=-1..3", "sweep.d"), ("sweep.instances=0", "sweep.instances"),
    ("runner.n_jobs=0", "runner.n_jobs"), ("tree=ordered", None), ("tree.p=1.5", "tree.p"),
    ("sweep.ordering=[random,best]", "sweep.ordering"), ("search.algorithm=negamax", "search.algorithm"),
    ("tree.levels=-2", "tree.levels"), ("runner.max_nodes=0", "runner.max_nodes"),
])
def test_out_of_range(capsys, override, key):
    if key is None:          # a valid override: no error, and the study is what it says
        cli_mod.precheck([override, "tree.p=0.5"])
        assert capsys.readouterr().err == ""
        study = api.validate(api.compose(None, [override, "tree.p=0.5"]))
        assert [(t.model, t.p) for t in study.trees] == [("ordered", 0.5)]
        return
    line = _precheck_error(capsys, override)
    assert key in line


def test_parameter_of_another_model(capsys):
    line = _precheck_error(capsys, "tree.p=0.5")
    assert "tree.p" in line and "iid" in line


def test_empty_grid(capsys):
    line = _precheck_error(capsys, "sweep.ordering=[]")
    assert "empty" in line
    line = _precheck_error(capsys, "sweep.b=5..2")
    assert "empty" in line and "sweep.b" in line
    line = _precheck_error(capsys, "sweep.d_budget=1")
    assert "empty" in line


def test_budget_guard_lists_the_tasks(capsys):
    line = _precheck_error(capsys, "sweep.b=[2,16]", "sweep.d=[2,7]", "sweep.d_budget=null",
                           "sweep.ordering=[random]",
                           "runner.max_nodes=1000000")
    assert "runner.max_nodes=1000000" in line and "b=16 d=7" in line
    assert "b=2 d=2" not in line


def test_oracle_limit_is_caught_at_validation(capsys):
    line = _precheck_error(capsys, "sweep.b=[16]", "sweep.d=[7]", "sweep.d_budget=null",
                           "sweep.ordering=[perfect]", "runner.max_nodes=1000000000000")
    assert "oracle" in line and "b=16 d=7" in line


def test_unsupported_combination(capsys):
    line = _precheck_error(capsys, "tree=iid", "sweep.ordering=[static]")
    assert "static" in line


def test_study_validate_raises_configerror():
    with pytest.raises(ConfigError, match="sweep.instances"):
        validate(api.compose(None, ["sweep.instances=0"]))


def test_cli_one_line_error_and_cfg_job_and_help(tmp_path):
    rc, out, err = cli("sweep.b=[2,x]", cwd=tmp_path)
    assert rc == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "results").exists()                 # nothing created before a check
    rc, out, err = cli("experiment=knuth_moore", "--cfg", "job", cwd=tmp_path)
    assert rc == 0 and "name: knuth_moore" in out and "model: ordered" in out
    rc, out, err = cli("--help", cwd=tmp_path)
    assert rc == 0 and "tree: " in out and "runner: dask, local" in out and "experiment:" in out


def test_cli_unwritable_output_is_one_line(tmp_path):
    (tmp_path / "file").write_text("x")
    for arg in ("hydra.run.dir=/proc/searchlab-run", f"results_dir={tmp_path / 'file' / 'r'}"):
        rc, out, err = cli(arg, "sweep.b=[2]", "sweep.d=[2]", "sweep.instances=1", cwd=tmp_path)
        assert rc == 2 and len(err.strip().splitlines()) == 1, err
        assert "cannot write to output directory" in err


@pytest.mark.parametrize("argv, expect", [
    (["+foo=1"], "unknown config key 'foo'"),
    (["sweep.d_by_b={9: 1..3}"], "+sweep.d_by_b"),
    (["sweep.trees=[{model: ordered, q: 1}]"], "allowed keys (a TreeConfig): model"),
    (["search.depth=2"], "no static values"),
    (["runner.resume=/nonexistent/searchlab-run"], "holds no searchlab run"),
    (["runner.progress=maybe"], "runner.progress"),
])
def test_more_one_line_errors(capsys, argv, expect):
    assert expect in _precheck_error(capsys, *argv)

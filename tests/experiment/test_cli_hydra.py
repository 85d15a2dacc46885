"""The searchlab command keeps Hydra's conventions: -m over config groups and comma lists with
each job getting the single run's rules, ``tree.model=`` as ``tree=``, ``--config-dir=DIR``,
the user's presets in --help and the "allowed" lists, job folders named by the swept keys and
values (jobs.tsv beside them), a missing launcher named with the extra that brings it, and no
Hydra warning when the presets are files of the config directory (a wheel install)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest
from hydra import compose as hydra_compose
from hydra import initialize_config_dir
from hydra._internal.utils import get_args_parser
from hydra.core.global_hydra import GlobalHydra
from omegaconf import OmegaConf

from searchlab import cli
from searchlab.experiment import api, composition
from searchlab.experiment.composition import apply_axis_rules, axis_overrides, job_dir, register_configs
from searchlab.experiment.schema import CONF_DIR

from .conftest import run_main as _main
from .experiment_helpers import ROOT, cli as run_cli

TINY = ["sweep.instances=1", "sweep.b=[2]", "sweep.d=[2]", "runner.n_jobs=1",
        "runner.progress=false", "runner.report=false"]


@pytest.fixture(autouse=True)
def _no_user_dirs():
    yield
    composition.set_search_dirs([])


@pytest.mark.parametrize("argv", [
    ["-m", "experiment=quick", "tree=iid,ordered"],
    ["-m", "game=connect4,othello"],
    ["tree=iid", "--cfg", "job"],
    ["--config-dir=/tmp", "-m", "tree=iid,ordered", "sweep.instances=1,2"],
])
def test_hydra_parses_the_command_line_the_cli_hands_it(argv):
    """The overrides the CLI adds (the axes' resets) go after the flags: argparse takes its
    positional overrides in one run, so an override before -m made the rest 'unrecognized'."""
    flags, ov = cli.split_argv(argv)
    ov = ov if "-m" in flags else axis_overrides(ov)
    args = get_args_parser().parse_args(flags + ov)
    assert args.overrides == ov
    assert ("--config-dir=/tmp" not in argv) or args.config_dir == "/tmp"
    assert args.multirun == ("-m" in argv)


def _raw(job: list[str]):
    """A job's config as Hydra composes it in a multirun: its overrides, no axis rules."""
    register_configs()
    GlobalHydra.instance().clear()
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        return hydra_compose(config_name="config", overrides=job)


@pytest.mark.parametrize("job", [["tree=iid"], ["tree=ordered"], ["experiment=quick", "tree=iid"],
                                 ["game=connect4"], ["experiment=ordering_connect4", "ordering=centre"]])
def test_a_multirun_job_gets_the_single_runs_rules(job):
    cfg = _raw(job)
    added = apply_axis_rules(cfg, job)
    assert added, "the job's rules changed nothing: the test compares nothing"
    single = api.compose(None, job)
    assert OmegaConf.to_container(cfg, resolve=True) == OmegaConf.to_container(single, resolve=True)
    if job == ["tree=iid"]:     # the default study's id needs static values: dropped on iid
        assert "id" not in list(cfg.sweep.ordering) and cfg.name == "iid_tree"


def test_tree_model_is_the_tree_group():
    for model in ("ordered", "incremental", "iid"):
        a = OmegaConf.to_container(api.compose(None, [f"tree.model={model}"]), resolve=True)
        b = OmegaConf.to_container(api.compose(None, [f"tree={model}"]), resolve=True)
        assert a == b and a["tree"]["model"] == model
    assert api.compose(None, ["tree.model=ordered"]).tree.get("levels") is None


def test_multirun_over_a_group_runs_each_job_with_its_rules(tmp_path):
    """`-m tree=iid,ordered` on the default study: id dropped on both (as in the single runs),
    folders named by the swept key and value, jobs.tsv listing them."""
    code, out, err = run_cli("-m", "tree=iid,ordered", *TINY, cwd=tmp_path, timeout=600)
    assert code == 0, err[-2000:]
    (sweep,) = (tmp_path / "results" / "multirun").iterdir()
    assert sorted(p.name for p in sweep.iterdir() if p.is_dir()) == ["0_tree=iid", "1_tree=ordered"]
    index = (sweep / "jobs.tsv").read_text().splitlines()
    assert [line.split("\t")[:2] for line in index] == [["0", "0_tree=iid"], ["1", "1_tree=ordered"]]
    import searchlab
    for folder, name in (("0_tree=iid", "iid_tree"), ("1_tree=ordered", "ordered_tree")):
        df = searchlab.load(sweep / folder)
        assert set(df["ordering"]) == {"worst", "random", "perfect", "killer"}
        assert set(df["experiment"]) == {name}


def test_multirun_over_tree_model_is_over_the_tree_group(monkeypatch, capsys):
    code, out, err = _main(monkeypatch, capsys, "-m", "tree.model=iid,ordered", "--plan")
    assert code == 0, err
    assert "multirun job #1 (tree=ordered)" in out and "plan (sweep): ordered_tree: " in out


def test_multirun_over_games_plans_each_job(monkeypatch, capsys):
    code, out, err = _main(monkeypatch, capsys, "-m", "game=connect4,othello", "--plan")
    assert code == 0, err
    assert "multirun job #0 (game=connect4)" in out and "multirun job #1 (game=othello)" in out
    assert "engines: connect4" in out and "engines: othello" in out


def test_user_presets_from_config_dir(monkeypatch, capsys, tmp_path):
    (tmp_path / "experiment").mkdir()
    (tmp_path / "experiment" / "mine.yaml").write_text(textwrap.dedent("""\
        # @package _global_
        name: mine
        sweep:
          b: [2]
          d: "1..3"
          instances: 2
        """))
    code, out, err = _main(monkeypatch, capsys, f"--config-dir={tmp_path}", "experiment=mine", "--plan")
    assert code == 0, err
    assert "mine: 18 tasks (9 grid points x 2 instances)" in out
    code, out, err = _main(monkeypatch, capsys, "--config-dir", str(tmp_path), "--help")
    line = next(ln for ln in out.splitlines() if ln.strip().startswith("experiment:"))
    assert "mine" in line.split(", ") + [line.split(": ")[1].split(", ")[0]]
    code, out, err = _main(monkeypatch, capsys, f"hydra.searchpath=[file://{tmp_path}]",
                           "experiment=minee", "--plan")
    assert code == 2 and "unknown option 'minee' for config group 'experiment'" in err
    assert ", mine, " in err


def test_completion_lists_the_users_presets(tmp_path):
    (tmp_path / "experiment").mkdir()
    (tmp_path / "experiment" / "mine_own.yaml").write_text("# @package _global_\nname: mine_own\n")
    line = f"searchlab -cd {tmp_path} experiment=mine_"
    code, out, err = run_cli("-sc", "query=bash", cwd=tmp_path,
                             env={"COMP_LINE": line, "COMP_POINT": str(len(line))})
    assert code == 0, err
    assert out.split() == ["experiment=mine_own"]


@pytest.mark.parametrize("launcher, extra", [("joblib", "joblib"), ("submitit_slurm", "slurm"),
                                             ("submitit_local", "slurm")])
def test_a_missing_launcher_names_its_extra(monkeypatch, capsys, launcher, extra):
    monkeypatch.setattr(cli, "_installed", lambda module: False)
    code, out, err = _main(monkeypatch, capsys, "-m", f"hydra/launcher={launcher}",
                           "sweep.instances=1,2")
    assert code == 2
    assert f"hydra/launcher={launcher}: its Hydra plug-in" in err
    assert f"pip install 'searchlab[{extra}]'" in err


def test_an_unknown_launcher_lists_the_launchers(monkeypatch, capsys):
    code, out, err = _main(monkeypatch, capsys, "-m", "hydra/launcher=foo", "sweep.instances=1,2")
    assert code == 2
    assert "hydra/launcher: unknown launcher 'foo'; allowed: basic, joblib (pip install " \
           "'searchlab[joblib]'), submitit_local" in err


def test_job_folders_keep_whole_keys_and_values():
    assert job_dir(0, "tree=iid") == "0_tree=iid"
    assert job_dir(1, "experiment=quick,tree=ordered") == "1_experiment=quick_tree=ordered"
    long = ",".join(f"sweep.key{i}=value{i}" for i in range(12))
    assert job_dir(7, long) == "7"                  # never cut mid-word: the number alone
    assert job_dir(2, "sweep.b=[2],sweep.ordering=${ordering}") == "2_sweep.b=[2]"


def test_only_the_swept_keys_name_the_folders():
    assert cli._dirname_excludes(["tree=iid,ordered", "sweep.instances=1", "+runner.n_jobs=1"]) == \
        ["hydra.job.config.override_dirname.exclude_keys=['runner.n_jobs','sweep.instances']"]
    assert cli._dirname_excludes(["tree=iid,ordered"]) == []


def test_no_hydra_warning_when_the_presets_are_files_of_the_config_dir(tmp_path):
    """A wheel ships the presets as conf/experiment/*.yaml: they are not stored in the
    ConfigStore as well (Hydra warned "validated against ConfigStore schema with the same
    name" for each, twice per command)."""
    import shutil
    conf = tmp_path / "conf"
    shutil.copytree(ROOT / "conf", conf)
    shutil.copytree(ROOT / "experiments", conf / "experiment")
    script = textwrap.dedent(f"""
        import warnings
        warnings.simplefilter("error")
        from pathlib import Path
        import searchlab.config_dirs as c
        c.CONF_DIR, c.EXPERIMENTS_DIR = Path({str(conf)!r}), Path({str(conf / 'experiment')!r})
        from searchlab.experiment import api
        cfg = api.compose(None, [])
        assert cfg.name == "tour", cfg.name
        assert api.compose("knuth_moore", []).name == "knuth_moore"
        print("ok")
    """)
    p = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300,
                       cwd=tmp_path)
    assert p.returncode == 0 and p.stdout.strip() == "ok", p.stderr[-2000:]
    assert "ConfigStore schema" not in p.stderr

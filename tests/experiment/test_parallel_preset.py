"""The parallel study as a preset of the engine (experiment=parallel_tiny): its rows through the
runner and the store, read back by searchlab.load, its report with claim 002-b's verdict,
resume, determinism, and one-line config errors naming the key."""

from __future__ import annotations

import json

import pytest

from searchlab.experiment import api
from searchlab.studies.parallel.parallel_study import from_engine
from searchlab.studies.parallel.parallel_study import plan_parallel_tasks as plan
from searchlab.experiment.session import RunError, open_run_dir
from searchlab.experiment.schema import ConfigError

QUIET = ["runner.n_jobs=1", "runner.progress=false"]


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("parallel") / "run"
    return api.run_study("parallel_tiny", QUIET, output_dir=out, progress=False)


def test_tiny_study_end_to_end(tiny_run):
    df = api.load(tiny_run)
    pc = from_engine(api.compose("parallel_tiny", QUIET))
    tasks = plan(pc)
    assert df["task_id"].nunique() == len(tasks) == 10
    # trees: every algorithm at every p; games: ABDADA and Lazy SMP only under "...+tt..."
    assert len(df) == 2 * 4 * 4 + 2 * 4 * 1 + 2 * 4 * 1 + 2 * (2 * 3 + 4 * 3)
    assert df["same_value"].all() and (df["status"] == "ok").all()
    assert set(df["table"]) == {"speedup", "ordering", "depth", "games"}
    p1 = df[df["p"] == 1]
    assert (p1["nodes"] == p1["seq_nodes"]).all() and (p1["splits"] == 0).all()
    games = df[df["domain"] == "connect4"]
    assert set(games["ordering"]) == {"centre", "centre+tt+killer+history"}
    assert set(games[games["ordering"] == "centre"]["algorithm"]) == {"pv-split", "ybwc"}
    m = json.loads((tiny_run / "manifest.json").read_text())
    assert m["kind"] == "parallel" and m["complete"] and m["tasks"] == 10
    report = (tiny_run / "report.md").read_text()
    assert "Claim 002-b" in report and "Verdict: **" in report
    assert "connect4, depth 5" in report
    assert (tiny_run / "figures" / "parallel_speedup_ordered_d5.png").exists()
    assert (tiny_run / "figures" / "parallel_policies_connect4_d5.png").exists()


@pytest.mark.slow
def test_resume_runs_nothing_again_and_numbers_are_reproducible(tiny_run, tmp_path):
    parts = sorted((tiny_run / "table").glob("part-*.parquet"))
    api.run_study("parallel_tiny", QUIET, output_dir=tiny_run, progress=False)
    assert sorted((tiny_run / "table").glob("part-*.parquet")) == parts
    again = api.run_study("parallel_tiny", QUIET, output_dir=tmp_path / "again", progress=False)
    a = api.load(tiny_run).drop(columns=["run_dir", "wall_time"])
    b = api.load(again).drop(columns=["run_dir", "wall_time"])
    assert a.equals(b)


@pytest.mark.parametrize("override,needle", [
    ("parallel.algorithms=[dts]", "parallel.algorithms"),
    ("+parallel.foo=1", "parallel.foo"),
    ("parallel.min_split=0", "parallel.min_split"),
    ("parallel.costs.split=-1", "costs.split"),
    ("parallel.trees=[]", None),
])
def test_config_errors_name_the_key(override, needle):
    cfg = api.compose("parallel_tiny", [override])
    if needle is None:               # trees empty but games left: valid, and only games run
        section = from_engine(cfg).section
        assert section.trees == [] and len(section.games) >= 1
        return
    with pytest.raises(ConfigError, match=needle.replace(".", r"\.")):
        from_engine(cfg)


def test_block_errors_name_the_block():
    cfg = api.compose("parallel_tiny", [])
    cfg.parallel.games[0].orderings = ["corners"]
    with pytest.raises(ConfigError, match=r"parallel\.games\[0\]\.orderings"):
        from_engine(cfg)
    cfg = api.compose("parallel_tiny", [])
    cfg.parallel.trees[0].model = "hex"
    with pytest.raises(ConfigError, match=r"parallel\.trees\[0\]\.model"):
        from_engine(cfg)
    cfg = api.compose("parallel_tiny", [])
    cfg.parallel.trees[1].d = "deep"
    with pytest.raises(ConfigError, match=r"parallel\.trees\[1\]\.d"):
        from_engine(cfg)
    cfg = api.compose("parallel_tiny", ["parallel.games=[]", "parallel.trees=[]"])
    with pytest.raises(ConfigError, match="nothing to simulate"):
        from_engine(cfg)


def test_a_run_directory_of_another_config_is_refused(tmp_path):
    run = tmp_path / "run"
    resumed, owned = open_run_dir(run, "abc", False)                    # nothing there yet
    owned.release()
    assert resumed is False
    (run / "provenance.json").write_text('{"config_hash": "abc"}')
    resumed, owned = open_run_dir(run, "abc", False)                    # the same run resumes
    owned.release()
    assert resumed is True
    with pytest.raises(RunError, match="holds a run of a different config .hash abc, this config xyz"):
        open_run_dir(run, "xyz", False)

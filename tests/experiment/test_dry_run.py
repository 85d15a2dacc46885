"""The dry run (``--plan``, and the plan ``--cfg job`` prints on stderr) for every study kind,
and the compiles around a run: announced when numba compiles, kept out of the rows' timings
(a warm-up task that compiled is searched again; a match task warms its players' engines
before its first game's clock starts); a trade-off run's plan and closing lines."""

from __future__ import annotations

import tempfile
from pathlib import Path

import numba
import pytest
import yaml

from searchlab.experiment import api, grid
from searchlab.experiment.budget import human, total_work
from searchlab.experiment.runner import warm_rows_of
from searchlab.experiment.session import EnvelopeRows, EnvelopeWriter
from searchlab.studies.tradeoff import tradeoff_measure
from searchlab.studies.tradeoff.tradeoff_tasks import FOLDERS, plan_line, plan_tradeoff_tasks

from .conftest import run_main as _main


def _planned(experiment: str) -> list:
    """The tasks the run of ``experiment`` plans (its kind's own planner)."""
    cfg = api.compose(experiment, [])
    study = api.validate(cfg)
    kind = api.kind_of(cfg)
    if kind.name == "sweep":
        return grid.plan(study, check_support=False).tasks
    if kind.name == "tradeoff":
        return plan_tradeoff_tasks(api.tradeoff_config(cfg), {})
    with tempfile.TemporaryDirectory() as d:
        return kind.session(cfg, study).plan(Path(d), lambda line: None)


@pytest.mark.parametrize("experiment, kind, engines", [
    ("quick", "sweep", "tree_kernel (~7 s)"),
    ("ordering_connect4", "sweep", "connect4 (~27 s)"),
    ("unsound_tradeoff_tiny", "tradeoff", "connect4 (~27 s), othello (~28 s), chess (~37 s)"),
    ("parallel_tiny", "parallel", "parallel_"),
    ("chance", "claim_study", "the family's own"),
])
def test_plan_of_every_kind(monkeypatch, capsys, tmp_path, experiment, kind, engines):
    monkeypatch.chdir(tmp_path)
    code, out, err = _main(monkeypatch, capsys, f"experiment={experiment}", "--plan")
    assert code == 0, err
    tasks = _planned(experiment)
    lines = out.splitlines()
    assert lines[0].startswith(f"plan ({kind}): ")
    assert f"{len(tasks)} tasks" in lines[0]
    assert f"estimated work {human(total_work(tasks))} nodes" in lines[0]
    assert lines[1].startswith("engines: ") and engines in lines[1]
    assert lines[2].startswith("time: ~") and "worker(s)" in lines[2]
    # a sweep is counted from its grid's sizes; another kind says its planner built the tasks
    assert (kind != "sweep") == (lines[3] == f"counted: the {kind} study's planner built its "
                                 f"{len(tasks)} tasks (a sweep is counted from its grid's "
                                 "sizes without building them)")
    assert lines[-1] == "nothing was run (--plan)"
    assert not (tmp_path / "results").exists()          # nothing created


def test_plan_counts_the_compiles_in_the_time():
    cfg = api.compose("ordering_connect4", [])
    study = api.validate(cfg)
    from searchlab.cli_plan import plan_lines
    time_line = plan_lines(api.kind_of(cfg), cfg, study)[2]
    assert "+ up to ~27 s compiling the engines not yet in numba's cache" in time_line


def test_cfg_job_prints_the_config_on_stdout_and_the_plan_on_stderr(monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(tmp_path)
    code, out, err = _main(monkeypatch, capsys, "experiment=quick", "--cfg", "job")
    assert code == 0, err
    assert yaml.safe_load(out)["name"] == "quick"
    assert "plan (sweep): quick: " in err and "nothing was run" not in err


class _Compiling:
    """A task kind whose body calls a jitted function: numba compiles it at the first call."""

    label = "fake task"

    def __init__(self, fn) -> None:
        self.fn, self.calls, self.task_id, self.index, self.est_work = fn, 0, "t0", 0, 1

    def run(self, settings):
        self.calls += 1
        return {"task_id": self.task_id, "status": "ok", "rows": [], "value": int(self.fn(3)),
                "call": self.calls, "cpu": 0.0}


def test_a_warm_up_compile_is_announced_and_kept_out_of_the_row():
    @numba.njit(cache=False)
    def double(x):
        return 2 * x

    task, lines = _Compiling(double), []
    settings = type("S", (), {"fault": None, "in_worker_retries": 0})()
    rows = warm_rows_of([task], settings, lines.append)
    assert lines[0].startswith("compiling the engine of fake task (first use")
    assert lines[1].startswith("compiled the engine of fake task in ")
    assert task.calls == 2 and [r["call"] for r in rows] == [2] and rows[0]["value"] == 6
    lines.clear()
    rows = warm_rows_of([task], settings, lines.append)          # compiled now: no announcement
    assert lines == [] and task.calls == 3


def test_a_match_task_warms_the_engines_before_its_first_game(monkeypatch):
    calls = []
    real = tradeoff_measure.play_game

    def recording(game, opening, a, b, a_is_max, max_plies=400, engine="auto", pair=0):
        calls.append((max_plies, pair, a.budget))
        return real(game, opening, a, b, a_is_max, max_plies, engine, pair)

    monkeypatch.setattr(tradeoff_measure, "play_game", recording)
    tc = api.tradeoff_config(api.compose("unsound_tradeoff_tiny", []))
    task = next(t for t in plan_tradeoff_tasks(tc, {}) if t.kind == "match"
                and "probcut" not in t.label.lower())
    env = task.run(None)
    games = env["rows"]
    assert calls[0][:2] == (2, -1) and calls[0][2] <= tradeoff_measure.WARM_UP_BUDGET
    assert len(calls) == 1 + len(games) and all(c[1] >= 0 for c in calls[1:])


def test_tradeoff_plan_and_closing_lines(tmp_path):
    tc = api.tradeoff_config(api.compose("unsound_tradeoff_tiny", []))
    tasks = plan_tradeoff_tasks(tc, {})
    line = plan_line(tc, tasks)
    assert line.startswith(f"{tc.study}: {len(tasks)} tasks (")
    assert f"estimated work {human(total_work(tasks))} nodes" in line
    rows = EnvelopeRows(FOLDERS)
    writer = EnvelopeWriter(tmp_path, FOLDERS)
    writer.rows = 42
    _, failed, lines = rows.outcome(tmp_path, writer, tasks, tasks[:3], "unsound_tradeoff", 12.34)
    assert lines[-1] == "unsound_tradeoff: 42 rows (3 of 3 tasks) in 12.3 s" and not failed


def test_a_trade_off_run_warms_up_one_task_per_kind_and_domain():
    """Each domain's engine compiles before the progress bar, not silently inside a worker's
    first match game (one warm-up task for the whole study did so before)."""
    from searchlab.experiment.runner import warm_up_tasks
    tasks = plan_tradeoff_tasks(api.tradeoff_config(api.compose("unsound_tradeoff_tiny", [])), {})
    warm = warm_up_tasks(tasks)
    assert sorted((t.kind, t.domain) for t in warm) == sorted({(t.kind, t.domain) for t in tasks})
    assert len({t.domain for t in warm if t.kind == "match"}) >= 1


@pytest.mark.parametrize("experiment, overrides", [
    ("quick", []),
    ("tour", []),                                                   # static_only: id on incremental only
    ("quick", ["sweep.d_budget=2000", "sweep.instances=3"]),        # points trimmed by d_budget
    ("quick", ["sweep.b=[2,3]", "sweep.d=1..3", "sweep.pruning=[none,null_r2]", "tree=incremental",
               "+sweep.max_nodes_by_ordering={random:20}"]),
    ("ordering_connect4", []),
    ("quick", ["game=othello", "sweep.d=1..3", "sweep.instances=4", "+sweep.d_by_ordering={perfect:[1]}"]),
])
def test_the_plan_from_sizes_counts_what_the_planner_builds(experiment, overrides):
    """grid_size.plan_size (no task built) and grid.plan (the tasks the run makes) agree on the
    number of tasks, their estimated work and the plan's line."""
    from searchlab.experiment.grid_size import plan_size, size_summary

    study = api.validate(api.compose(experiment, overrides))
    p = grid.plan(study, check_support=False)
    size = plan_size(study)
    assert (size.tasks, size.work) == (len(p.tasks), total_work(p.tasks))
    assert size_summary(size, study) == grid.summary(p, study)


def test_the_schema_declares_the_tree_models_static_values():
    from searchlab.experiment.schema import TREE_PARAMS, TREE_STATIC_VALUES
    from searchlab.trees import TREE_MODELS

    assert tuple(TREE_PARAMS) == tuple(TREE_MODELS)
    assert set(TREE_STATIC_VALUES) == {m for m, cls in TREE_MODELS.items()
                                       if cls.capabilities.static_values}


def test_random_positions_are_the_same_read_lazily():
    from searchlab.experiment.games import GameSpec, Position, position_identity, select_positions
    from searchlab.experiment.seeds import derive_seed

    spec = GameSpec("othello", "random", ply=6)
    lazy = select_positions(spec, 11, 5)
    eager = tuple(Position(i, f"ply6#{i}", derive_seed(11, position_identity(spec, i)))
                  for i in range(5))
    assert len(lazy) == 5 and tuple(lazy) == eager and lazy == eager
    assert lazy[-1] == eager[-1] and lazy[1:3] == eager[1:3]
    assert select_positions(spec, 11, 10 ** 6)[999_999].id == "ply6#999999"
    with pytest.raises(IndexError):
        lazy[5]


@pytest.mark.parametrize("overrides", [[], ["experiment=quick", "sweep.b=[2,3]"], ["game=othello"],
                                       ["experiment=chess_matches_small"]])
def test_cfg_job_prints_what_hydra_prints(monkeypatch, capsys, tmp_path, overrides):
    """--cfg job prints the config the pre-run check composed, without Hydra composing it
    again: the same text as Hydra's own --cfg job (reached here through --package _global_)."""
    monkeypatch.chdir(tmp_path)
    code, ours, err = _main(monkeypatch, capsys, *overrides, "--cfg", "job")
    assert code == 0, err
    code, hydras, err = _main(monkeypatch, capsys, *overrides, "--cfg", "job", "--package",
                              "_global_")
    assert code == 0, err
    assert ours == hydras and yaml.safe_load(ours)["name"]

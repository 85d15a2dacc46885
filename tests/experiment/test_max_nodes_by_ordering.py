"""sweep.max_nodes_by_ordering: a per-ordering search cap that overrides search.max_nodes for
those orderings' tasks (runner), bounds their estimated work (budget guard), is read back from
a run's config (api.node_caps), is refused with one line when wrong, and leaves every study
that does not set it as it was (task ids, seeds, config hash)."""

from __future__ import annotations

import pytest

from searchlab.experiment import api, budget, grid
from searchlab.experiment.api import node_caps, run_study
from searchlab.experiment.schema import ConfigError
from searchlab.experiment.store import load
from searchlab.experiment.validation import validate
from searchlab.limits import MAX_COUNT

QUIET = ["runner.n_jobs=1", "runner.progress=false", "runner.report=false"]
TREE = ["tree=iid", "sweep.b=[4]", "sweep.d=[4]", "sweep.instances=2",
        "sweep.ordering=[natural,random]", "search.max_nodes=100000"]


def _study(preset, overrides):
    return validate(api.compose(preset, overrides))


def _plan_identity(study):
    return [(t.task_id, t.seed, t.ordering_seed, t.est_nodes, t.est_work)
            for t in grid.plan(study).tasks]


@pytest.mark.parametrize("preset, overrides", [
    ("quick", []),
    ("ordering_connect4", ["game.sample=2", "sweep.d=1..2"]),
    ("chess_suites", ["sweep.games=[{name: chess, positions: bk, sample: 2}]", "sweep.d=1..2"]),
])
def test_an_empty_or_inapplicable_map_changes_no_task_id_seed_or_hash(preset, overrides):
    plain = _study(preset, overrides)
    assert plain.max_nodes_by_ordering == {}
    assert "max_nodes_by_ordering" not in plain.science()    # the hash of a study without it
    assert all(t.max_nodes is None for t in grid.plan(plain).tasks)
    # an ordering the study does not sweep is dropped, as by sweep.d_by_ordering
    for extra in ("+sweep.max_nodes_by_ordering={}", "+sweep.max_nodes_by_ordering={id+tt+history: 5}"):
        other = _study(preset, overrides + [extra])
        assert other.config_hash == plain.config_hash
        assert _plan_identity(other) == _plan_identity(plain)


def test_a_cap_keeps_task_ids_and_seeds_bounds_the_work_and_enters_the_hash():
    plain = _study("quick", TREE)
    capped = _study("quick", TREE + ["+sweep.max_nodes_by_ordering={natural: 10}"])
    assert capped.config_hash != plain.config_hash
    assert capped.science()["max_nodes_by_ordering"] == {"natural": 10}
    assert capped.max_nodes_for("natural") == 10 and capped.max_nodes_for("random") == 100000
    a, b = grid.plan(plain).tasks, grid.plan(capped).tasks
    assert [(t.task_id, t.seed, t.ordering_seed, t.est_nodes) for t in a] == \
        [(t.task_id, t.seed, t.ordering_seed, t.est_nodes) for t in b]
    for before, after in zip(a, b):
        if before.ordering == "natural":
            assert after.max_nodes == 10 and after.est_work == 10 < before.est_work
        else:
            assert after.max_nodes is None and after.est_work == before.est_work


def test_the_capped_work_keeps_the_oracle():
    assert budget.capped(500, 800, 100) == (500, 400)      # 300 oracle nodes + the cap
    assert budget.capped(500, 800, 600) == (500, 800)
    assert budget.capped(500, 800, None) == (500, 800)


def test_the_budget_guard_uses_the_cap_of_a_capped_ordering_only():
    chess = ["game=chess", "game.positions=bk", "game.sample=1", "sweep.d=[5]",
             "sweep.ordering=[natural,captures]", "runner.max_nodes=1000000",
             "sweep.d_budget=null"]
    study = _study(None, chess + ["+sweep.max_nodes_by_ordering={natural: 1000}"])
    p = grid.plan(study)
    est = {t.ordering: t.est_work for t in p.tasks}
    assert est["natural"] == 1000 and est["captures"] > 1_000_000
    with pytest.raises(ConfigError, match="captures") as e:
        grid.check_budget(p, study.runner.max_nodes)
    assert "natural" not in str(e.value)
    both = _study(None, chess + ["+sweep.max_nodes_by_ordering={natural: 1000, captures: 1000}"])
    grid.check_budget(grid.plan(both), both.runner.max_nodes)     # passes: both are capped
    # sweep.d_budget (by default runner.max_nodes) compares the capped work too
    trimmed = grid.plan(_study(None, chess[:-1] + ["+sweep.max_nodes_by_ordering={natural: 1000}"]))
    assert [t.ordering for t in trimmed.tasks] == ["natural"]
    assert [x[4] for x in trimmed.trimmed] == ["captures"]


def test_the_runner_stops_each_ordering_at_its_own_cap(tmp_path):
    out = run_study("quick", TREE + ["+sweep.max_nodes_by_ordering={natural: 10}", *QUIET],
                    output_dir=tmp_path / "run", progress=False)
    df = load(out)
    nat, rnd = df[df.ordering == "natural"], df[df.ordering == "random"]
    assert len(nat) == len(rnd) == 2
    assert (nat.status == "aborted").all() and (nat.nodes <= 11).all()
    assert (rnd.status == "ok").all() and (rnd.nodes > 10).all()
    assert node_caps(out) == {"natural": 10, "random": 100000}


@pytest.mark.parametrize("override, expected", [
    ("+sweep.max_nodes_by_ordering={statik: 10}",
     "sweep.max_nodes_by_ordering: 'statik' is not an ordering policy"),
    ("+sweep.max_nodes_by_ordering={natural: 0}",
     f"sweep.max_nodes_by_ordering[natural] must be an integer in [1, {MAX_COUNT}]; got 0"),
    ("+sweep.max_nodes_by_ordering={natural: -5}", "sweep.max_nodes_by_ordering[natural] must be"),
    ("+sweep.max_nodes_by_ordering={natural: 1e6}", "sweep.max_nodes_by_ordering[natural] must be"),
    ("+sweep.max_nodes_by_ordering={natural: true}", "sweep.max_nodes_by_ordering[natural] must be"),
    (f"+sweep.max_nodes_by_ordering={{natural: {MAX_COUNT + 1}}}",
     "sweep.max_nodes_by_ordering[natural] must be"),
])
def test_bad_caps_are_one_line_errors_naming_the_entry(override, expected):
    with pytest.raises(ConfigError) as e:
        _study("quick", TREE + [override])
    assert expected in str(e.value) and "\n" not in str(e.value)


"""A row's algorithm and ordering columns are what its search ran: every row of a study that
sweeps both axes is reproduced exactly by searchlab.search called with the row's own labels,
tree and seeds (the pruning label's own checks are in test_pruning_axis.py)."""

from __future__ import annotations

import pytest

from searchlab import IIDTree, search
from searchlab.experiment.api import run_study
from searchlab.experiment.store import load

ALGORITHMS = ["minimax", "alphabeta", "pvs"]
ORDERINGS = ["worst", "random", "perfect"]


@pytest.fixture(scope="module")
def rows(tmp_path_factory):
    out = tmp_path_factory.mktemp("labels") / "run"
    run_study("quick", ["sweep.b=[2,3]", "sweep.d=1..4", f"sweep.algorithm=[{','.join(ALGORITHMS)}]",
                        f"sweep.ordering=[{','.join(ORDERINGS)}]", "sweep.instances=2",
                        "sweep.d_budget=null", "runner.n_jobs=1", "runner.progress=false",
                        "runner.report=false"], output_dir=out, progress=False)
    return load(out)


def test_every_swept_label_appears(rows):
    assert set(rows.algorithm) == set(ALGORITHMS) and set(rows.ordering) == set(ORDERINGS)
    assert (rows.status == "ok").all()


def test_each_row_is_what_search_returns_for_its_labels(rows):
    for r in rows.itertuples():
        got = search(IIDTree(b=int(r.b), d=int(r.d), seed=int(r.seed)), algorithm=r.algorithm,
                     ordering=r.ordering, ordering_seed=int(r.ordering_seed))
        assert (got.nodes, got.leaves, got.value) == (r.nodes, r.leaves, r.value), r


def test_labels_tell_the_searches_apart(rows):
    # minimax's counts differ from alpha-beta's wherever alpha-beta can cut (b, d >= 2), so a
    # swapped algorithm label would not pass the test above
    deep = rows[(rows.d >= 2)]
    mm = deep[deep.algorithm == "minimax"].set_index(["b", "d", "instance", "ordering"]).nodes
    ab = deep[deep.algorithm == "alphabeta"].set_index(["b", "d", "instance", "ordering"]).nodes
    assert (mm.loc[ab.index] > ab).any()

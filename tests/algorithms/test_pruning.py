"""Unsound pruning: off = plain alpha-beta exactly; on = fewer nodes, errors counted."""

from __future__ import annotations

import functools

import pytest

from searchlab import IIDTree, IncrementalTree, InvalidParameterError, UnsupportedError, search
from searchlab.algorithms.ground_truth import exact_best_moves, root_move_values
from searchlab.algorithms.pruning import (Beam, Futility, LateMoveReductions, NullMove, ProbCut,
                                          Pruning, Quiescence)
from searchlab.games.position import FromState

TECHNIQUES = {
    "null_move R=2": Pruning(null_move=NullMove(2)),
    "null_move R=3 verified": Pruning(null_move=NullMove(3, verify=True)),
    "null_move adaptive": Pruning(null_move=NullMove(2, adaptive_depth=4)),
    "lmr": Pruning(lmr=LateMoveReductions(after=2)),
    "lmr log": Pruning(lmr=LateMoveReductions(after=1, schedule="log")),
    "futility+razoring": Pruning(futility=Futility(0.2, razor_margin=0.5)),
    "beam 3": Pruning(beam=Beam(3)),
    "beam per ply": Pruning(beam=Beam(widths=(6, 4, 3, 2))),
    "probcut": Pruning(probcut=ProbCut(1, 3, 1.0, 0.0, 0.3, 1.0)),
}
TEST_SET = [IncrementalTree(5, 6, s, decay=0.9, correlation=0.5) for s in range(12)]


@pytest.mark.parametrize("ordering", ["natural", "static", "random", "tt+killer+history+static",
                                      "id+tt"])
def test_everything_off_is_plain_alphabeta(ordering):
    for t in TEST_SET[:6]:
        plain = search(t, "alphabeta", ordering, ordering_seed=3, engine="reference")
        off = search(t, "alphabeta", ordering, ordering_seed=3, engine="reference",
                     pruning=Pruning())
        assert off.counts() == plain.counts()


@functools.lru_cache(maxsize=None)
def _root_values(seed: int) -> dict:
    """Exact minimax value of every root move of TEST_SET[seed] (computed once per tree)."""
    return root_move_values(TEST_SET[seed])


@pytest.mark.parametrize("name", list(TECHNIQUES))
def test_each_technique_saves_nodes_and_errors_are_counted(name):
    cfg = TECHNIQUES[name]
    nodes_on = nodes_off = 0
    for t in TEST_SET:
        ref = search(t, "alphabeta", "static", engine="reference")
        r = search(t, "alphabeta", "static", engine="reference", pruning=cfg)
        exact = search(t, "minimax", engine="reference")
        nodes_on, nodes_off = nodes_on + r.nodes, nodes_off + ref.nodes
        wrong = r.best_move not in exact.best_moves
        assert sum(r.extra["pruned"].values()) > 0 or name.startswith("futility")
        # a decision error is counted exactly when the chosen move loses value against the
        # exact minimax value of every root move (an independent full search per move)
        loss = exact.value - _root_values(t.seed)[r.best_move]
        assert loss >= 0 and (loss > 0) == wrong, (t.seed, loss, wrong)
    assert nodes_on < nodes_off


def test_null_move_error_is_detected():
    """Passing is never illegal on the incremental tree, so some positions are zugzwang-like:
    passing looks better than every real move, null move prunes, and the decision goes wrong.
    The exact reference catches it."""
    errors = 0
    for s in range(40):
        t = IncrementalTree(5, 6, s, decay=0.9, correlation=0.5)
        exact_value, best = exact_best_moves(t)
        r = search(t, "alphabeta", "static", engine="reference",
                   pruning=Pruning(null_move=NullMove(2)))
        errors += r.best_move not in best
    assert errors > 0


def test_exact_best_moves_agree_with_minimax():
    for s in range(5):
        t = IncrementalTree(4, 5, s)
        mm = search(t, "minimax", engine="reference")
        v, best = exact_best_moves(t)
        assert v == mm.value and best == mm.best_moves
        vals = root_move_values(t, depth=3)
        assert max(vals.values()) == search(t, "minimax", depth=3, engine="reference").value


def test_search_from_a_position():
    t = IncrementalTree(3, 5, 2)
    child = t.play(t.initial_state(), 1)
    for engine in ("auto", "reference"):
        sub = search(FromState(t, child), "minimax", engine=engine)
        # auto: the kernel searches trees from their root only; the compiled engine any state
        assert sub.engine == ("compiled" if engine == "auto" else "reference")
        assert sub.per_ply == (1, 3, 9, 27, 81)
        assert sub.value == root_move_values(t)[1]
    assert search(t, "minimax").value == max(root_move_values(t).values())


@pytest.mark.parametrize("cfg,exc,match", [
    (Pruning(null_move=NullMove(0)), InvalidParameterError, "null_move.reduction must be"),
    (Pruning(lmr=LateMoveReductions(schedule="fast")), InvalidParameterError, "lmr.schedule"),
    (Pruning(beam=Beam(0)), InvalidParameterError, "beam.width must be"),
    (Pruning(probcut=ProbCut(3, 2)), InvalidParameterError, "probcut.deep must be"),
    (Pruning(futility=Futility(-1.0)), InvalidParameterError, "futility.margin must be"),
    (Pruning(quiescence=Quiescence()), UnsupportedError, "noisy_moves"),
])
def test_bad_pruning_parameters(cfg, exc, match):
    with pytest.raises(exc, match=match):
        search(IncrementalTree(3, 4, 1), "alphabeta", engine="reference", pruning=cfg)


def test_pruning_needs_static_values_and_alphabeta():
    with pytest.raises(UnsupportedError, match="need static values"):
        search(IIDTree(3, 4, 1), "alphabeta", pruning=Pruning(null_move=NullMove()))
    with pytest.raises(UnsupportedError, match="run on algorithm 'alphabeta'"):
        search(IncrementalTree(3, 4, 1), "pvs", pruning=Pruning(lmr=LateMoveReductions()))


def test_probcut_fit_recovers_a_usable_model():
    from searchlab.algorithms.calibration import fit_probcut, sample_states
    t = IncrementalTree(4, 8, 1, decay=0.8, correlation=0.4)
    states = sample_states(t, ply=2, n=30, seed=7)
    pc = fit_probcut(t, states, shallow=1, deep=3, threshold=1.0)
    assert 0.3 < pc.slope < 2.0 and pc.sigma > 0
    ref = search(t, "alphabeta", "static", engine="reference")
    r = search(t, "alphabeta", "static", engine="reference", pruning=Pruning(probcut=pc))
    assert r.nodes < ref.nodes
    with pytest.raises(InvalidParameterError, match="at least 3 positions"):
        fit_probcut(t, states[:2], 1, 3)

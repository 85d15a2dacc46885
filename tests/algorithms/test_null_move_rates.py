"""Null move's cut-success rate and LMR's re-search rate: the null-window searches tried are
counted by the reference and the compiled engine alike (extra["tried"]), node for node."""

from __future__ import annotations

from searchlab.algorithms.pruning import LateMoveReductions, NullMove, Pruning
from searchlab.algorithms.search_api import search
from searchlab.trees import IncrementalTree
from tests.nojit import run_without_jit


def test_null_move_tries_and_cuts_agree_between_engines():
    tried = cuts = 0
    for seed in (0, 1, 2):
        t = IncrementalTree(5, 6, seed, decay=0.9, correlation=0.5)
        for cfg in (Pruning(null_move=NullMove(2)), Pruning(null_move=NullMove(3, verify=True))):
            ref = search(t, "alphabeta", "static", engine="reference", pruning=cfg)
            com = search(t, "alphabeta", "static", engine="compiled", pruning=cfg)
            assert (ref.nodes, ref.extra) == (com.nodes, com.extra)
            n_try, n_cut = ref.extra["tried"]["null_move"], ref.extra["pruned"].get("null_move", 0)
            assert 0 <= n_cut <= n_try
            tried, cuts = tried + n_try, cuts + n_cut
    assert tried > cuts > 0                 # some null moves cut, some do not


def test_lmr_alone_reports_no_tries_and_its_re_searches():
    t = IncrementalTree(5, 6, 3, decay=0.9, correlation=0.5)
    cfg = Pruning(lmr=LateMoveReductions(after=1, schedule="log"))
    ref = search(t, "alphabeta", "static", engine="reference", pruning=cfg)
    com = search(t, "alphabeta", "static", engine="compiled", pruning=cfg)
    assert "tried" not in ref.extra and ref.extra == com.extra
    assert ref.re_searches == com.re_searches <= ref.extra["pruned"]["lmr"]


def test_null_move_tries_agree_without_jit():
    """The compiled engine's tries counter as plain Python (NUMBA_DISABLE_JIT=1), node for node."""
    script = (
        "from searchlab.algorithms.pruning import NullMove, Pruning\n"
        "from searchlab.algorithms.search_api import search\n"
        "from searchlab.trees import IncrementalTree\n"
        "t = IncrementalTree(4, 5, 1, decay=0.9, correlation=0.5)\n"
        "cfg = Pruning(null_move=NullMove(2))\n"
        "ref = search(t, 'alphabeta', 'static', engine='reference', pruning=cfg)\n"
        "com = search(t, 'alphabeta', 'static', engine='compiled', pruning=cfg)\n"
        "assert (ref.nodes, ref.extra) == (com.nodes, com.extra), (ref.extra, com.extra)\n"
        "assert ref.extra['tried']['null_move'] > 0\n"
        "print('ok')\n")
    assert run_without_jit(script).strip() == "ok"

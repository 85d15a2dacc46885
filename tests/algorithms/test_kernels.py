"""The compiled kernels (searchlab/algorithms/kernels): exact agreement with the spec, theory and
the reference engine, node for node; the pure-Python run of the same kernel code
(NUMBA_DISABLE_JIT=1) agrees with the compiled one."""

from __future__ import annotations

import json
import math
import random
import time
from pathlib import Path

import numpy as np
import pytest

from searchlab.algorithms.kernels import kernel_supports, run_kernel
from searchlab.errors import TreeTooLargeError, UnsupportedError
from searchlab.hashing import mix64
from searchlab.trees import ExplicitTree, IIDTree, IncrementalTree, OrderedTree
from tests.nojit import run_without_jit

ROOT = Path(__file__).resolve().parents[2]
ALGORITHMS = ("minimax", "alphabeta", "alphabeta-failhard")
ORDERINGS = ("natural", "random", "perfect", "worst")

# docs/iid-tree-spec.md, "Reference numbers": b, d, seed, root value, order, leaves, nodes
SPEC_TABLE = [
    (2, 10, 1, 0.36296098068608473, "natural", 368, 876),
    (2, 10, 1, 0.36296098068608473, "worst", 818, 1709),
    (2, 10, 1, 0.36296098068608473, "perfect", 63, 208),
    (8, 5, 1, 0.82032289361769672, "natural", 4309, 5382),
    (8, 5, 1, 0.82032289361769672, "worst", 29188, 33628),
    (8, 5, 1, 0.82032289361769672, "perfect", 575, 797),
]


def km_leaves(b: int, d: int) -> int:
    return b ** math.ceil(d / 2) + b ** (d // 2) - 1


def reference(tree, algorithm, ordering, depth=None, ordering_seed=0, max_nodes=None):
    from searchlab.algorithms.search_api import search
    return search(tree, algorithm, ordering, depth=depth, ordering_seed=ordering_seed,
                  engine="reference", max_nodes=max_nodes)


def same(k, r) -> None:
    """Kernel result k equals reference result r in everything deterministic."""
    assert k.engine == "kernel"
    assert k.counts() == r.counts()
    if k.value is not None:   # bit for bit, not just ==
        assert float(k.value).hex() == float(r.value).hex()
    assert (k.depth, k.best_moves_complete, k.algorithm, k.ordering) == \
        (r.depth, r.best_moves_complete, r.algorithm, r.ordering)
    assert len(k.per_ply) == k.depth + 1
    assert (k.fail_highs, k.first_move_fail_highs) == (r.fail_highs, r.first_move_fail_highs)


# --- the spec ----------------------------------------------------------------------------
@pytest.mark.parametrize("b, d, seed, value, order, leaves, nodes", SPEC_TABLE)
@pytest.mark.parametrize("algorithm", ["alphabeta", "alphabeta-failhard"])
def test_spec_reference_table(b, d, seed, value, order, leaves, nodes, algorithm):
    r = run_kernel(IIDTree(b, d, seed), algorithm, order, None, 0, None)
    assert r.value == value and float(r.value).hex() == float(value).hex()
    assert (r.leaves, r.nodes, r.status, r.engine) == (leaves, nodes, "ok", "kernel")
    assert sum(r.per_ply) == nodes and r.per_ply[-1] == leaves


def test_mix64_matches_python():
    from searchlab.algorithms.kernels.hashing_compiled import mix64 as kmix
    rng = random.Random(5)
    zs = [0, 1, (1 << 64) - 1, 0x9E3779B97F4A7C15] + [rng.getrandbits(64) for _ in range(200)]
    for z in zs:
        assert int(kmix(np.uint64(z))) == mix64(z)


# --- theory ------------------------------------------------------------------------------
@pytest.mark.parametrize("levels", [0, 3])
def test_knuth_moore_perfect_order_iid(levels):
    for b in (1, 2, 3, 5, 8):
        for d in range(0, 7):
            if b**d > 300_000:
                continue
            for seed in (1, 2, 3):
                t = IIDTree(b, d, seed, levels=levels)
                for algorithm in ("alphabeta", "alphabeta-failhard"):
                    r = run_kernel(t, algorithm, "perfect", None, 0, None)
                    assert r.leaves == km_leaves(b, d), (b, d, seed, levels, algorithm)
                mm = run_kernel(t, "minimax", "natural", None, 0, None)
                assert r.value == mm.value and mm.leaves == b**d


def test_knuth_moore_perfect_order_incremental():
    for b, d in ((2, 9), (3, 6), (4, 5)):
        for depth in (d - 2, d):
            r = run_kernel(IncrementalTree(b, d, 7, 0.9, 0.3), "alphabeta", "perfect", depth, 0,
                           None)
            assert r.leaves == km_leaves(b, depth)


@pytest.mark.parametrize("b, d", [(30, 8), (2, 40), (7, 9), (3, 15), (1, 50)])
def test_knuth_moore_ordered_tree_beyond_the_oracle(b, d):
    t = OrderedTree(b, d, 3, p=1.0)
    r = run_kernel(t, "alphabeta", "natural", None, 0, None)       # p = 1: natural is perfect
    assert r.leaves == km_leaves(b, d) and r.value == 0.0 and r.best_move == 0
    r = run_kernel(OrderedTree(b, d, 4, p=0.5), "alphabeta", "perfect", None, 0, None)
    assert r.leaves == km_leaves(b, d) and r.value == 0.0


def test_ordered_tree_values_by_construction():
    for p in (0.0, 0.2, 0.5, 1.0):
        t = OrderedTree(4, 6, 11, p=p)
        mm = run_kernel(t, "minimax", "random", None, 3, None)
        assert mm.value == 0.0 and mm.leaves == 4**6
        worst = run_kernel(t, "alphabeta", "worst", None, 0, None)
        assert worst.value == 0.0 and worst.best_move == mm.best_move


def test_minimax_best_moves_and_per_ply():
    t = IIDTree(3, 4, 9, levels=2)        # many ties at the root
    r = run_kernel(t, "minimax", "natural", None, 0, None)
    assert r.per_ply == (1, 3, 9, 27, 81) and r.cutoffs == 0 and r.best_moves_complete
    assert r.best_move == r.best_moves[0] and len(r.best_moves) >= 1
    ab = run_kernel(t, "alphabeta", "natural", None, 0, None)
    assert ab.best_moves == (ab.best_move,) and not ab.best_moves_complete


# --- kernel == reference -------------------------------------------------------------------
def _random_cases(n: int, rng: random.Random):
    for _ in range(n):
        b = rng.randint(1, 4)
        d = rng.randint(0, 6 if b <= 3 else 5)
        seed = rng.getrandbits(64) if rng.random() < 0.3 else rng.randint(0, 50)
        kind = rng.choice(("iid", "iid_discrete", "ordered", "incremental"))
        depth = None
        if kind == "iid":
            tree = IIDTree(b, d, seed)
            if rng.random() < 0.15:
                depth = d + rng.randint(1, 2)       # past the end of the tree
        elif kind == "iid_discrete":
            tree = IIDTree(b, d, seed, levels=rng.choice((1, 2, 3, 5)))
        elif kind == "ordered":
            tree = OrderedTree(b, d, seed, p=rng.choice((0.0, 0.1, 1.0 / b, 0.5, 0.8, 1.0,
                                                         rng.random())))
        else:
            tree = IncrementalTree(b, d, seed, decay=rng.choice((1.0, 0.9, 0.5, rng.random())),
                                   correlation=rng.choice((0.0, 0.5, 1.0, rng.random())))
            if d and rng.random() < 0.5:
                depth = rng.randint(0, d)
        orderings = ORDERINGS + (("static",) if kind == "incremental" else ())
        yield tree, depth, orderings


def test_kernel_equals_reference_on_random_trees():
    rng = random.Random(20261129)
    n = 0
    for tree, depth, orderings in _random_cases(120, rng):
        for algorithm in ALGORITHMS:
            for ordering in orderings:
                oseed = rng.randint(0, 2**64 - 1)
                assert kernel_supports(tree, algorithm, ordering)
                k = run_kernel(tree, algorithm, ordering, depth, oseed, None)
                r = reference(tree, algorithm, ordering, depth=depth, ordering_seed=oseed)
                same(k, r)
                n += 1
    assert n > 1000


def test_kernel_equals_reference_on_bigger_trees():
    cases = [IIDTree(5, 5, 3), IIDTree(6, 4, 8, levels=4), OrderedTree(5, 5, 2, p=0.4),
             IncrementalTree(4, 6, 5, 0.8, 0.5)]
    for tree in cases:
        for algorithm in ("alphabeta", "alphabeta-failhard"):
            for ordering in ORDERINGS + (("static",) if tree.capabilities.static_values else ()):
                same(run_kernel(tree, algorithm, ordering, None, 1, None),
                     reference(tree, algorithm, ordering, ordering_seed=1))


def test_kernel_equals_reference_on_win_loss_trees():
    """IIDTree(win_prob=q): win/loss leaves (docs/trees.md), kernel == reference at q = 0, 1,
    Pearl's critical xi_b and others; every ordering, every algorithm."""
    from searchlab.analysis.theory import pearl_xi
    rng = random.Random(14)
    n = 0
    for b in (2, 3, 4):
        for d in range(0, 6 if b < 4 else 5):
            for q in (0.0, 1.0, 0.5, pearl_xi(b), 1 - pearl_xi(b), rng.random()):
                tree = IIDTree(b, d, rng.randint(0, 2**64 - 1), win_prob=q)
                for algorithm in ALGORITHMS:
                    for ordering in ORDERINGS:
                        oseed = rng.randint(0, 2**64 - 1)
                        same(run_kernel(tree, algorithm, ordering, None, oseed, None),
                             reference(tree, algorithm, ordering, ordering_seed=oseed))
                        n += 1
    assert n > 1000


def test_node_budget_aborts_like_the_reference():
    rng = random.Random(3)
    for tree in (IIDTree(3, 5, 1), OrderedTree(3, 5, 1, 0.3), IncrementalTree(3, 5, 1)):
        full = run_kernel(tree, "alphabeta", "natural", None, 0, None).nodes
        for budget in (1, 2, 5, rng.randint(3, full - 1), full - 1, full):
            for ordering in ("natural", "perfect", "random"):
                k = run_kernel(tree, "alphabeta", ordering, None, 0, budget)
                r = reference(tree, "alphabeta", ordering, max_nodes=budget)
                same(k, r)
                if ordering == "natural":
                    assert k.status == ("ok" if budget >= full else "aborted")
                if k.status == "aborted":
                    assert k.value is None and k.best_move is None and k.nodes == budget + 1


def test_search_api_dispatches_to_the_kernel():
    from searchlab.algorithms.search_api import search
    t = IIDTree(8, 5, 1)
    r = search(t, "alphabeta", "natural", engine="kernel")
    assert r.engine == "kernel" and (r.leaves, r.nodes) == (4309, 5382)
    assert search(t, "alphabeta", "worst", engine="auto").engine == "kernel"


# --- what the kernels refuse ---------------------------------------------------------------
def test_kernel_supports():
    iid, inc = IIDTree(2, 3, 1), IncrementalTree(2, 3, 1)
    assert kernel_supports(iid, "alphabeta", "perfect")
    assert not kernel_supports(iid, "alphabeta", "static")
    assert not kernel_supports(OrderedTree(2, 3, 1), "minimax", "static")
    assert kernel_supports(inc, "alphabeta-failhard", "static")
    assert not kernel_supports(iid, "negamax", "natural")
    assert not kernel_supports(iid, "alphabeta", "killer")
    assert not kernel_supports(ExplicitTree([[1, 2], [3, 4]]), "alphabeta", "natural")
    with pytest.raises(UnsupportedError):
        run_kernel(iid, "alphabeta", "static", None, 0, None)
    with pytest.raises(UnsupportedError):
        run_kernel(iid, "alphabeta", "natural", 2, 0, None)     # no static values


def test_oracle_refused_above_its_limit_before_any_work():
    for tree, depth in ((IIDTree(2, 27, 1), None), (IIDTree(8, 9, 1), None),
                        (IncrementalTree(3, 30, 1), 17)):
        for ordering in ("perfect", "worst"):
            t0 = time.perf_counter()
            with pytest.raises(TreeTooLargeError) as err:
                run_kernel(tree, "alphabeta", ordering, depth, 0, None)
            assert time.perf_counter() - t0 < 0.5
            msg = str(err.value)
            leaves = tree.b ** (tree.d if depth is None else depth)
            assert f"{leaves:,}" in msg and f"b={tree.b}" in msg and "67,108,864" in msg
    # the ordered tree needs no oracle at any size
    assert run_kernel(OrderedTree(2, 27, 1, 0.3), "alphabeta", "perfect", None, 0,
                      None).leaves == km_leaves(2, 27)


# --- the same kernel code, interpreted -------------------------------------------------------
_NOJIT_CASES = [
    ("iid", dict(b=3, d=4, seed=1), "alphabeta", "natural", None),
    ("iid", dict(b=2, d=5, seed=2**64 - 1, levels=3), "minimax", "random", None),
    ("iid", dict(b=3, d=3, seed=5), "alphabeta-failhard", "perfect", None),
    ("iid", dict(b=2, d=4, seed=5), "alphabeta", "worst", None),
    ("ordered", dict(b=3, d=4, seed=7, p=0.4), "alphabeta", "random", None),
    ("ordered", dict(b=3, d=4, seed=7, p=0.4), "alphabeta-failhard", "worst", None),
    ("incremental", dict(b=3, d=4, seed=3, decay=0.7, correlation=0.4), "alphabeta", "static",
     None),
    ("incremental", dict(b=3, d=4, seed=3, decay=0.7, correlation=0.4), "minimax", "perfect", 3),
    ("iid", dict(b=3, d=4, seed=1), "alphabeta", "natural", 20),
    ("iid", dict(b=3, d=4, seed=2, win_prob=0.6823278038280193), "alphabeta", "random", None),
    ("iid", dict(b=2, d=5, seed=3, win_prob=0.3), "alphabeta", "perfect", None),
]


def _nojit_results(cases):
    from searchlab.trees import make_tree
    out = []
    for model, params, algorithm, ordering, max_nodes in cases:
        r = run_kernel(make_tree(model, **params), algorithm, ordering, None, 12345, max_nodes)
        c = r.counts()
        c["value"] = None if r.value is None else float(r.value).hex()
        c["best_moves"], c["per_ply"] = list(c["best_moves"]), list(c["per_ply"])
        c["iterations"] = list(c["iterations"])
        out.append(c)
    return out


def test_disable_jit_gives_the_same_results():
    code = ("import json, sys, warnings; warnings.simplefilter('error'); "
            "from tests.algorithms.test_kernels import _nojit_results, _NOJIT_CASES; "
            "print(json.dumps(_nojit_results(_NOJIT_CASES)))")
    interpreted = json.loads(run_without_jit(code, timeout=120))
    compiled = json.loads(json.dumps(_nojit_results(_NOJIT_CASES)))
    assert interpreted == compiled
    assert any(c["status"] == "aborted" for c in compiled)

"""The compiled chance engine on the synthetic chance tree (engine "kernel") against the
reference, node for node (and without JIT)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from searchlab.algorithms.chance_search import search_chance
from searchlab.algorithms.multiplayer import search_multiplayer
from searchlab.errors import InvalidParameterError, UnsupportedError
from searchlab.games.pig import Pig
from searchlab.trees.chance_tree import ChanceTree
from searchlab.trees.nplayer_tree import NPlayerTree
from tests.nojit import run_without_jit

ROOT = Path(__file__).resolve().parents[2]
ALGS = ("expectiminimax", "alphabeta-emm", "star1", "star2")


def _same(tree, alg, **kw):
    ref = search_chance(tree, alg, engine="reference", **kw)
    ker = search_chance(tree, alg, engine="kernel", **kw)
    assert ker.engine == "kernel"
    assert ker.counts() == ref.counts(), (tree, alg, kw)
    assert (ker.best_moves_complete, ker.status) == (ref.best_moves_complete, ref.status)
    for k in ("chance_cutoffs", "probes", "probe_cutoffs", "probe_reuses", "bounds"):
        assert ker.extra[k] == ref.extra[k], k
    return ker


@pytest.mark.parametrize("b,n,d,levels,probs", [
    (2, 2, 3, 0, None), (3, 3, 2, 0, None), (3, 2, 3, 3, None), (2, 3, 2, 2, (0.5, 0.3, 0.2)),
    (4, 2, 2, 0, (0.9, 0.1)),
])
def test_kernel_equals_reference_node_for_node(b, n, d, levels, probs):
    for seed in range(6):
        t = ChanceTree(b, n, d, seed=seed, levels=levels, probs=probs, low=-1.0 if seed % 2 else 0.0)
        for alg in ALGS:
            for oo in ("natural", "probability"):
                _same(t, alg, outcome_order=oo)
            _same(t, alg, bounds=(-3.0, 4.0))
        _same(t, "star2", max_nodes=17)


def test_kernel_with_a_horizon_past_the_leaves():
    t = ChanceTree(3, 2, 3, seed=5, levels=4)
    for alg in ALGS:
        ker = _same(t, alg, depth=5)
        assert ker.depth == 5


def test_kernel_refusals():
    with pytest.raises(UnsupportedError, match="no compiled chance kernel"):
        search_chance(Pig(winscore=10), "star1", depth=2, engine="kernel")
    with pytest.raises(InvalidParameterError, match="outside"):
        search_chance(ChanceTree(2, 2, 2, seed=1), "star1", bounds=(0.0, 0.01), engine="kernel")
    assert search_chance(Pig(winscore=10), "star1", depth=2, engine="auto").engine == "compiled"   # Pig's engine


def test_kernels_without_jit_in_a_subprocess():
    """The chance and the n-player kernel run as plain Python (NUMBA_DISABLE_JIT=1) give the
    reference's counts."""
    code = ("from searchlab.algorithms.chance_search import search_chance as s\n"
            "from searchlab.algorithms.multiplayer import search_multiplayer as m\n"
            "from searchlab.trees.chance_tree import ChanceTree\n"
            "from searchlab.trees.nplayer_tree import NPlayerTree\n"
            "t = ChanceTree(2, 3, 2, seed=4, levels=3)\n"
            "for a in ('expectiminimax', 'star1', 'star2'):\n"
            "    assert s(t, a, engine='kernel').counts() == s(t, a).counts(), a\n"
            "u = NPlayerTree(3, 2, 4, seed=2, values='constsum')\n"
            "for a in ('maxn', 'maxn-shallow', 'paranoid', 'brs'):\n"
            "    assert m(u, a, engine='kernel').counts() == m(u, a).counts(), a\n"
            "print('ok')\n")
    assert run_without_jit(code, timeout=300).strip() == "ok"


def test_recursive_kernels_load_from_numba_disk_cache():
    """The family engines' self-recursive searches (explicit signatures), specialised for the
    trees, are stored by numba's on-disk cache and a fresh process loads them instead of
    compiling (a load of a type-inferred recursive function would crash the process: numba
    issues #6061/#6713)."""
    search_chance(ChanceTree(2, 2, 2, seed=1), "star2", engine="kernel")     # writes the caches here
    search_multiplayer(NPlayerTree(3, 2, 2, seed=1), "maxn", engine="kernel")
    code = ("from searchlab.algorithms.chance_search import search_chance as s\n"
            "from searchlab.algorithms.multiplayer import search_multiplayer as m\n"
            "from searchlab.algorithms import chance_compiled as cc, multiplayer_compiled as mc\n"
            "from searchlab.trees.chance_tree import ChanceTree\n"
            "from searchlab.trees.nplayer_tree import NPlayerTree\n"
            "t, u = ChanceTree(2, 2, 3, seed=3), NPlayerTree(3, 2, 3, seed=1)\n"
            "assert s(t, 'star2', engine='kernel').nodes > 0\n"
            "assert m(u, 'paranoid', engine='kernel').nodes > 0\n"
            "c, n = cc.module(t.family_primitives())._rec, mc.module(u.family_primitives())._rec\n"
            "print(sum(c.stats.cache_hits.values()), sum(n.stats.cache_hits.values()),\n"
            "      sum(c.stats.cache_misses.values()))\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("NUMBA_DISABLE_JIT", None)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["1", "1", "0"]

"""The compiled n-player kernel against the reference, node for node (without JIT:
test_chance_kernel.py runs both kernels in one subprocess)."""

from __future__ import annotations

import pytest

from searchlab.algorithms.multiplayer import search_multiplayer
from searchlab.errors import UnsupportedError
from searchlab.games.rolit import Rolit
from searchlab.trees.nplayer_tree import NPlayerTree

ALGS = ("maxn", "maxn-shallow", "paranoid", "paranoid-minimax", "brs")


@pytest.mark.parametrize("n", [3, 4])
def test_kernel_equals_reference_node_for_node(n):
    for b, d in ((2, 5), (3, 4)):
        for seed in range(4):
            for values, levels in (("constsum", 0), ("iid", 0), ("iid", 3)):
                t = NPlayerTree(n, b, d, seed=seed, values=values, levels=levels, total=5 + seed)
                for alg in ALGS:
                    if alg == "maxn-shallow" and values != "constsum":
                        continue
                    ref = search_multiplayer(t, alg)
                    ker = search_multiplayer(t, alg, engine="kernel")
                    assert ker.engine == "kernel" and ker.counts() == ref.counts(), (t, alg)
                    assert ker.interior == ref.interior
            cut = search_multiplayer(t, "paranoid", max_nodes=9, engine="kernel")
            assert cut.counts() == search_multiplayer(t, "paranoid", max_nodes=9).counts()


def test_kernel_refusals():
    with pytest.raises(UnsupportedError, match="no compiled n-player kernel"):
        search_multiplayer(Rolit(3), "maxn", depth=1, engine="kernel")
    with pytest.raises(UnsupportedError):
        search_multiplayer(NPlayerTree(3, 2, 3), "paranoid", ordering="perfect", engine="kernel")
    assert search_multiplayer(Rolit(3), "maxn", depth=1, engine="auto").engine == "compiled"   # Rolit's engine


def test_kernel_from_any_root_and_beyond_the_leaves():
    """The one n-player engine searches the tree from an inner node, and with a horizon past
    its leaves, node for node as the reference; a horizon above the leaves (no static values)
    stays the reference's."""
    t = NPlayerTree(3, 3, 5, seed=7, values="constsum", total=9)
    inner = t.play(t.play(t.initial_state(), 2), 0)
    for alg in ALGS:
        for kw in ({"root": inner}, {"depth": 7}):
            ref = search_multiplayer(t, alg, **kw)
            ker = search_multiplayer(t, alg, engine="kernel", **kw)
            assert ker.counts() == ref.counts() and ker.root_player == ref.root_player == kw.get("root", (0, 0, 0))[2]
    with pytest.raises(UnsupportedError, match="no compiled n-player kernel"):
        search_multiplayer(t, "maxn", depth=3, engine="kernel")

"""A search algorithm from outside the package (docs/extending.md, "A search algorithm"):
tests/data/plugins/f1_alphabeta.py registers Knuth and Moore's F1 (alpha-beta without deep
cutoffs) as ``alphabeta-f1``. Its counts equal the exact dynamic programme of
searchlab.theory.exact over every tree of a small i.i.d. model; the registry refuses what it
cannot run; the battery holds a plug-in to its declaration; the kernels and the compiled
engine decline it; a sweep names it from config."""

from __future__ import annotations

import importlib
import itertools
import os
import shlex
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pandas as pd
import pytest

from searchlab import ExplicitTree
from searchlab import plugin_entry_points
from searchlab.algorithms import algorithm_registry as R
from searchlab.algorithms.algorithm_registry import Algorithm, register_algorithm
from searchlab.algorithms.search_api import search
from searchlab.errors import InvalidParameterError, UnsupportedError
from searchlab.experiment import api
from searchlab.games.connect4 import ConnectFour
from searchlab.games.tictactoe import TicTacToe
from searchlab.testing import ConformanceError, check_algorithm
from searchlab.theory.exact import expected_counts, expected_counts_no_deep_cutoffs

ROOT = Path(__file__).resolve().parents[2]
PLUGINS = ROOT / "tests" / "data" / "plugins"
F1 = "alphabeta-f1"


@pytest.fixture(autouse=True)
def f1_alphabeta(monkeypatch):
    """The plug-in module imported afresh (which registers alphabeta-f1) into a copy of the
    registry: other tests' "allowed" lists stay the built-ins'."""
    monkeypatch.syspath_prepend(str(PLUGINS))
    monkeypatch.setattr(R, "_PLUGINS", dict(R._PLUGINS))
    sys.modules.pop("f1_alphabeta", None)
    yield importlib.import_module("f1_alphabeta")
    sys.modules.pop("f1_alphabeta", None)


def _nested(leaves: tuple, b: int, d: int):
    if d == 0:
        return leaves[0]
    step = b ** (d - 1)
    return [_nested(leaves[i * step:(i + 1) * step], b, d - 1) for i in range(b)]


@pytest.mark.parametrize("b, d", [(2, 3), (3, 2),
                                  pytest.param(2, 4, marks=pytest.mark.slow)])   # 65,536 trees
def test_f1_counts_are_the_exact_dps_over_every_tree(b, d):
    """Over all 2^(b^d) trees with leaves 0/1 (each equally likely), the mean nodes and leaves
    of the plug-in equal expected_counts_no_deep_cutoffs exactly, as plain alpha-beta's equal
    expected_counts (the harness counts as the DP does); on every tree it returns minimax's
    value and examines at least the nodes alpha-beta examines. (Deep cutoffs first occur at
    depth 4: below it the two counts are equal.)"""
    pmf = [Fraction(1, 2), Fraction(1, 2)]
    sums = {"alphabeta": [0, 0], F1: [0, 0]}
    trees = list(itertools.product((0, 1), repeat=b ** d))
    for leaves in trees:
        tree = ExplicitTree(_nested(leaves, b, d))
        mm = search(tree, "minimax", "natural", engine="reference")
        ab = search(tree, "alphabeta", "natural", engine="reference")
        f1 = search(tree, F1, "natural", engine="reference")
        assert f1.value == ab.value == mm.value and f1.nodes >= ab.nodes
        for name, r in (("alphabeta", ab), (F1, f1)):
            sums[name][0] += r.nodes
            sums[name][1] += r.leaves
    n = len(trees)
    for name, dp in (("alphabeta", expected_counts(b, d, pmf, exact=True)),
                     (F1, expected_counts_no_deep_cutoffs(b, d, pmf, exact=True))):
        assert (Fraction(sums[name][0], n), Fraction(sums[name][1], n)) == (dp.nodes[d], dp.leaves[d])
    assert (sums[F1][0] > sums["alphabeta"][0]) == (d >= 4)


def test_a_deep_cutoff_is_what_f1_does_without():
    """The MIN nodes at ply 3 under the second subtree's first MAX node see 3 and 4, both <=
    the root's 5: alpha-beta cuts each one's second leaf (deep cutoffs: the bound comes from
    the root, not from their parent, whose value so far is -inf and then 3); F1 searches both.
    Same value, two leaves more."""
    tree = ExplicitTree([[[[5, 5], [5, 5]], [[5, 5], [5, 5]]], [[[3, 9], [4, 4]], [[6, 6], [6, 6]]]])
    ab = search(tree, "alphabeta", "natural", engine="reference")
    f1 = search(tree, F1, "natural", engine="reference")
    assert f1.value == ab.value == 5
    assert (f1.leaves, f1.nodes) == (ab.leaves + 2, ab.nodes + 2)


def test_the_registry_refuses_what_it_cannot_run(monkeypatch, f1_alphabeta):
    node = f1_alphabeta.alphabeta_f1
    assert register_algorithm(f1_alphabeta.F1) is f1_alphabeta.F1     # again: a no-op
    for bad, match in ((Algorithm("alphabeta", node), "registered already"),
                       (Algorithm("mcts", node), "registered already"),
                       (Algorithm(F1, node), "registered already"),
                       (Algorithm("2fast", node), "must be a word"),
                       (Algorithm("x", "node"), "node must be callable"),
                       (Algorithm("y", node, sound="yes"), "sound must be true or false"),
                       ("alphabeta", "takes a searchlab Algorithm record")):
        with pytest.raises(InvalidParameterError, match=match):
            register_algorithm(bad)
    assert F1 in R.algorithm_names() and R.algorithm_names()[:2] == ("minimax", "alphabeta")
    with pytest.raises(InvalidParameterError, match=f"algorithm must be one of .*{F1}"):
        search(TicTacToe(), "alphabeta-f2", depth=2)

    class EP:               # an installed plug-in, and a broken one, by entry point
        def __init__(self, name, obj):
            self.name, self.obj = name, obj

        def load(self):
            if isinstance(self.obj, Exception):
                raise self.obj
            return self.obj

    monkeypatch.setattr(R, "_PLUGINS", {})
    monkeypatch.setattr(R, "_PLUGIN_ERRORS", {})
    monkeypatch.setattr(R, "_LOADED", False)
    monkeypatch.setattr(plugin_entry_points.metadata, "entry_points", lambda group: [
        EP("f1", f1_alphabeta.F1), EP("broken", ImportError("no module named nope"))]
        if group == R.ENTRY_POINT_GROUP else [])
    assert R.algorithm_names()[-1] == F1 and R.plugin_algorithm(F1) is f1_alphabeta.F1
    assert R.plugin_errors() == {"broken": "ImportError: no module named nope"}


def test_the_battery_holds_a_plugin_to_its_declaration(monkeypatch):
    games = [TicTacToe(), ConnectFour("4455"), ExplicitTree([[3, 5], [2, 9], [1, 4]])]
    rep = check_algorithm(F1, games)
    assert rep.counts["searches"] == 2 * (2 * 3 + 2)    # id+tt+natural needs a finite depth

    def first_child_only(state, ply, alpha, beta, ctx):
        """Wrong on purpose: the value of the first child alone."""
        v = ctx.visit(state, ply)
        if v is not None:
            return v
        m = ctx.moves(state, ply)[0]
        if ply == 0:
            ctx.best_move = m
        return ctx.child(ctx.game.play(state, m), ply + 1, alpha, beta, ctx)

    monkeypatch.setattr(R, "_PLUGINS", dict(R._PLUGINS))
    register_algorithm(Algorithm("first-child", first_child_only, sound=True))
    with pytest.raises(ConformanceError, match="algorithm first-child: (value|best move): "):
        check_algorithm("first-child", games)
    R._PLUGINS["first-child"] = Algorithm("first-child", first_child_only, sound=False)
    check_algorithm("first-child", games)                     # unsound: only run
    with pytest.raises(ConformanceError, match="registered"):
        check_algorithm("no-such", games)


def test_the_kernels_and_the_compiled_engine_decline_it_and_auto_runs_the_reference():
    from searchlab import IncrementalTree
    tree = IncrementalTree(b=3, d=4, seed=1)
    with pytest.raises(UnsupportedError, match=f"no compiled kernel for {F1}"):
        search(tree, F1, "natural", engine="kernel")
    with pytest.raises(UnsupportedError, match=f"no compiled engine for {F1}"):
        search(ConnectFour("4455"), F1, "centre", depth=4, engine="compiled")
    ref = search(tree, F1, "random", engine="reference", ordering_seed=3)
    auto = search(tree, F1, "random", engine="auto", ordering_seed=3)
    assert (auto.value, auto.nodes, auto.leaves) == (ref.value, ref.nodes, ref.leaves)


def test_the_documented_sweep_names_the_plugin_from_config(tmp_path):
    """docs/extending.md's command, run as written (results under tmp_path): search.plugins
    imports the module in the workers too; sweep.algorithm names the plug-in beside alpha-beta;
    every instance has the same value under both, and F1 never examines fewer nodes."""
    line = next(ln for ln in (ROOT / "docs" / "extending.md").read_text().splitlines()
                if ln.strip().startswith("PYTHONPATH=tests/data/plugins searchlab ") and F1 in ln)
    env_word, prog, *args = shlex.split(line)
    assert env_word == "PYTHONPATH=tests/data/plugins" and prog == "searchlab"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(PLUGINS), str(ROOT)]))
    out = subprocess.run([str(Path(sys.executable).parent / "searchlab"), *args,
                          f"results_dir={tmp_path}", "runner.progress=false"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    (run,) = list((tmp_path / "f1_vs_alphabeta").iterdir())
    t = pd.read_parquet(run / "table")
    wide = t.pivot_table(index=["tree", "b", "d", "instance"], columns="algorithm",
                         values=["value", "nodes"])
    assert len(wide) == 4 * 4 * len(set(t.tree)) and (t.status == "ok").all()
    assert (wide["value"]["alphabeta"] == wide["value"][F1]).all()
    assert (wide["nodes"][F1] >= wide["nodes"]["alphabeta"]).all()
    assert (wide["nodes"][F1] > wide["nodes"]["alphabeta"]).any()


def test_an_unknown_algorithm_in_a_config_lists_the_registered_ones():
    with pytest.raises(Exception, match=f"sweep.algorithm.*alphabeta-f2.*{F1}"):
        api.validate(api.compose(None, ["sweep.algorithm=[alphabeta,alphabeta-f2]"]))

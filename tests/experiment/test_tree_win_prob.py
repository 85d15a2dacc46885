"""tree.win_prob: Pearl's win/loss trees from the Hydra config (schema, validation, rows), and
the identities of every study without it unchanged."""

from __future__ import annotations

import pytest

from searchlab.experiment import api
from searchlab.experiment.grid import plan
from searchlab.experiment.schema import ConfigError
from searchlab.experiment.validation import validate
from searchlab.trees import IIDTree


def study(*overrides: str):
    return validate(api.compose("quick", ["sweep.b=[2]", "sweep.d=[3]", *overrides]))


def test_win_prob_reaches_the_tree_and_only_then_the_identity():
    plain, q = study(), study("tree.win_prob=0.38")
    assert plain.trees[0].win_prob is None and "win_prob" not in plain.trees[0].identity()
    assert plain.trees[0].params() == {"levels": 0}          # seeds of every existing study kept
    assert q.trees[0].identity() == {"model": "iid", "levels": 0, "win_prob": 0.38}
    assert q.trees[0].params() == {"levels": 0, "win_prob": 0.38}
    ids_plain = {t.task_id for t in plan(plain).tasks}
    ids_q = {t.task_id for t in plan(q).tasks}
    assert ids_plain.isdisjoint(ids_q)
    t = IIDTree(2, 3, 0, **q.trees[0].params())
    leaves = {t.utility(s) for s in _leaves(t)}
    assert leaves <= {0.0, 1.0}


def _leaves(t):
    stack = [t.initial_state()]
    while stack:
        s = stack.pop()
        if t.is_terminal(s):
            yield s
        else:
            stack += [t.play(s, m) for m in t.legal_moves(s)]


def test_a_win_prob_outside_0_1_is_refused():
    with pytest.raises(ConfigError, match="tree.win_prob must be a number in \\[0, 1\\]"):
        study("tree.win_prob=1.5")


def test_win_prob_needs_continuous_levels_and_the_iid_model():
    with pytest.raises(ConfigError, match="use it with levels=0; got levels=3"):
        study("tree.win_prob=0.3", "tree.levels=3")
    with pytest.raises(ConfigError, match="not a parameter of tree model 'ordered'"):
        study("tree=ordered", "tree.win_prob=0.3")

"""The compiled engine's per-combination plan (compiled_engine._plan): kept between searches,
never handed to another CompiledGame, and never changed by a search."""

from __future__ import annotations

import dataclasses

from searchlab import search
from searchlab.algorithms import compiled_engine as ce
from searchlab.games.connect4 import ConnectFour
from tests.algorithms.compiled_cases import fingerprint, positions

POLICY = "id+tt+killer+history+centre"


def test_plan_kept_and_checked_against_its_compiled_game():
    game = ConnectFour()
    plan = ce._plan(game, "alphabeta", POLICY, None, True)
    assert ce._plan(game, "alphabeta", POLICY, None, True) is plan
    fresh = dataclasses.replace(plan.cg)        # equal, but another object

    class Fresh(ConnectFour):
        def compiled_primitives(self):
            return fresh

    # an entry left under this id by another CompiledGame (ids are reused after collection)
    ce._plans[(id(fresh), "alphabeta", POLICY, None, True)] = (plan.cg, None)
    got = ce._plan(Fresh(), "alphabeta", POLICY, None, True)
    assert got is not None and got.cg is fresh


def test_searches_do_not_change_the_plan():
    """Budgets and depths vary per search on one plan; each result equals the reference's."""
    for view in positions("connect4", 2, seed=11):
        plan = ce._plan(view, "pvs", POLICY, None, True)
        ip, fp = plan.ip.copy(), plan.fp.copy()
        for depth, budget in ((5, 40), (4, None), (5, None), (3, 9)):
            ref = search(view, "pvs", POLICY, depth=depth, max_nodes=budget, engine="reference")
            com = search(view, "pvs", POLICY, depth=depth, max_nodes=budget, engine="compiled")
            assert fingerprint(com) == fingerprint(ref)
        assert (plan.ip == ip).all() and (plan.fp == fp).all()

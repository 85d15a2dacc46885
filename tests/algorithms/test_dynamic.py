"""Dynamic ordering (id, tt, killer, history) and the sound variants (PVS, aspiration, MTD(f)):
same value as minimax, and the transposition table's classic mistakes would be caught."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from searchlab import ExplicitTree, IIDTree, IncrementalTree, search
from searchlab.algorithms.tt import EXACT, LOWER, UPPER, TranspositionTable
from searchlab.games.protocol import CLASSICAL

DYNAMIC = ["id", "tt", "killer", "history", "killer+history", "id+killer", "id+tt",
           "tt+killer+history+static", "id+tt+killer+history+static", "history+random"]
VARIANTS = ["alphabeta", "alphabeta-failhard", "pvs", "mtdf"]


@pytest.mark.parametrize("ordering", DYNAMIC)
def test_dynamic_orderings_are_sound_on_incremental_trees(ordering):
    for seed in range(8):
        t = IncrementalTree(4, 5, seed, decay=0.8, correlation=(seed % 3) / 2)
        for depth in (3, 5):
            mm = search(t, "minimax", depth=depth, engine="reference")
            for algorithm in VARIANTS:
                r = search(t, algorithm, ordering, depth=depth, ordering_seed=seed,
                           engine="reference")
                assert r.value == mm.value, (algorithm, ordering, depth)
                assert r.best_move in mm.best_moves, (algorithm, ordering, depth)


@settings(max_examples=300, deadline=None)
@given(st.recursive(st.integers(0, 4), lambda c: st.lists(c, min_size=1, max_size=4),
                    max_leaves=40),
       st.sampled_from(VARIANTS), st.sampled_from(["natural", "tt", "killer+history", "tt+history"]))
def test_sound_variants_on_ragged_trees_with_ties(nested, algorithm, ordering):
    t = ExplicitTree(nested)
    mm = search(t, "minimax", engine="reference")
    r = search(t, algorithm, ordering, engine="reference")
    assert r.value == mm.value
    assert r.best_move in mm.best_moves or mm.best_move is None


def test_aspiration_returns_the_value_and_counts_re_searches():
    re_searches = 0
    for seed in range(10):
        t = IncrementalTree(5, 6, seed, decay=0.9, correlation=0.5)
        exact = search(t, "alphabeta", engine="reference").value
        for delta in (0.01, 0.2, 5.0):
            r = search(t, "alphabeta", "id+tt", aspiration=delta, engine="reference")
            assert r.value == exact
            re_searches += r.re_searches
    assert re_searches > 0


def test_iterations_are_recorded():
    t = IncrementalTree(3, 6, 1)
    r = search(t, "alphabeta", "id", engine="reference")
    assert len(r.iterations) == 6 and sum(r.iterations) == r.nodes
    assert r.last_iteration_nodes == r.iterations[-1]
    assert r.iterations[0] == 1 + 3                    # depth 1: root and its 3 children


def test_pvs_and_mtdf_count_re_searches():
    t = IIDTree(6, 6, 3)
    assert search(t, "pvs", engine="reference").re_searches > 0
    assert search(t, "mtdf", engine="reference").re_searches > 0


def test_fail_high_first_rate():
    t = IIDTree(8, 5, 1)
    perfect = search(t, "alphabeta", "perfect", engine="reference")
    worst = search(t, "alphabeta", "worst", engine="reference")
    assert perfect.fail_high_first_rate == 1.0
    assert worst.fail_high_first_rate < 0.5
    assert perfect.fail_highs >= perfect.cutoffs


def test_killers_help_when_moves_correlate_and_not_otherwise():
    """correlation 1: the same move index is best at every node of a ply."""
    def mean_leaves(ordering, corr):
        return sum(search(IncrementalTree(6, 6, s, decay=1.0, correlation=corr), "alphabeta",
                          ordering, engine="reference").leaves for s in range(6)) / 6
    assert mean_leaves("killer", 1.0) < 0.6 * mean_leaves("natural", 1.0)
    assert mean_leaves("killer", 0.0) > 0.8 * mean_leaves("natural", 0.0)


# --- the transposition table's classic mistakes ------------------------------------------

def test_entry_from_a_shallower_search_is_not_used_for_a_cut():
    tt = TranspositionTable(16)
    tt.store(5, depth=2, value=0.7, alpha=-1, beta=1, move=0)
    assert tt.probe(5, depth=3, alpha=-1, beta=1) is None       # searched too shallow
    assert tt.probe(5, depth=2, alpha=-1, beta=1) == 0.7


def test_bounds_are_not_treated_as_exact():
    tt = TranspositionTable(16)
    tt.store(1, depth=4, value=0.3, alpha=0.3, beta=0.9, move=None)   # failed low: <= 0.3
    assert tt.entry(1).bound == UPPER
    assert tt.probe(1, 4, alpha=0.0, beta=0.9) is None          # <= 0.3 settles nothing here
    assert tt.probe(1, 4, alpha=0.3, beta=0.9) == 0.3           # but fails low against 0.3
    tt.store(2, depth=4, value=0.9, alpha=0.3, beta=0.9, move=1)      # failed high: >= 0.9
    assert tt.entry(2).bound == LOWER
    assert tt.probe(2, 4, alpha=0.0, beta=1.0) is None
    tt.store(3, depth=4, value=0.5, alpha=0.3, beta=0.9, move=1)
    assert tt.entry(3).bound == EXACT


def test_depth_limited_id_with_tt_matches_plain_search():
    """ID re-searches every node one ply deeper: reusing the shallower entry would change
    the value (checked on trees where it does)."""
    for seed in range(15):
        t = IncrementalTree(4, 7, seed, decay=1.0, correlation=0.3)
        for depth in (4, 5):
            plain = search(t, "alphabeta", depth=depth, engine="reference")
            for algorithm in ("alphabeta", "mtdf", "pvs"):
                r = search(t, algorithm, "id+tt", depth=depth, engine="reference")
                assert r.value == plain.value


@dataclass(frozen=True)
class Nim:
    """Take 1 or 2 from a pile; taking the last stone wins, the sooner the better: the value
    depends on the moves played (part of the state), and positions transpose."""

    pile: int = 7
    name: str = "nim"
    capabilities = CLASSICAL
    default_depth = None
    solvable = True          # a few dozen positions: searched to the end without a budget

    def initial_state(self):
        return (self.pile, 0)

    def max_to_move(self, s):
        return s[1] % 2 == 0

    def legal_moves(self, s):
        return [m for m in (1, 2) if m <= s[0]]

    def play(self, s, m):
        return (s[0] - m, s[1] + 1)

    def is_terminal(self, s):
        return s[0] == 0

    def utility(self, s):
        # the player who just moved (not the one to move) took the last stone
        return (100 - s[1]) * (-1 if s[1] % 2 == 0 else 1)

    def evaluate(self, s):
        return 0.0

    def hash_key(self, s):
        return s[0] * 1000 + s[1]


def test_win_scores_through_transpositions():
    """Win-sooner scores are functions of the position (its move count), stored as such:
    a transposition reached at another ply gets the same, right score."""
    for pile in range(1, 12):
        mm = search(Nim(pile), "minimax", engine="reference")
        for algorithm in VARIANTS:
            r = search(Nim(pile), algorithm, "tt+killer", engine="reference")
            assert r.value == mm.value and r.best_move in mm.best_moves
        assert search(Nim(pile), "alphabeta", "tt", engine="reference").tt_hits > 0 or pile < 4

"""Connect Four: the Game protocol, Pons' tutorial node counts, and the exact solver.

Known answers: Pascal Pons' benchmark sets (searchlab/data/connect4/, package data copied
unchanged from his published benchmark; searchlab/data/README.md gives the score convention,
the tutorial algorithm and the published mean node counts on Test_L3_R1).
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from searchlab.errors import InvalidParameterError
from searchlab.games.connect4 import (TUTORIAL_VARIANTS, ConnectFour, ConnectFourState,
                                      load_benchmark, parse_moves, pons_tutorial,
                                      pons_tutorial_many, solve, solve_many)
from searchlab.games.protocol import Game
from searchlab.algorithms import search_api

DATA = Path(__file__).resolve().parents[2] / "searchlab" / "data" / "connect4"

# Pons' published mean nodes per position on Test_L3_R1 (one decimal).
PUBLISHED_MEANS = {
    "negamax": 11024.5,
    "alphabeta-lr-strong": 283.6,
    "alphabeta-lr-weak": 222.9,
    "alphabeta-centre-strong": 139.7,
    "alphabeta-centre-weak": 107.1,
}


def benchmark(name: str) -> list[tuple[str, int]]:
    path = DATA / name
    # shipped package data: a missing file is a packaging defect, so the test fails (no skip)
    assert path.exists(), f"Connect Four benchmark file {path} is missing from the package"
    data = load_benchmark(path)
    assert len(data) == 1000
    return data


# --- the Game protocol ------------------------------------------------------------------

def test_protocol_conformance():
    g = ConnectFour()
    assert isinstance(g, Game)
    g.capabilities.require_classical("test")
    assert g.capabilities.static_values and g.default_depth is None
    s = g.initial_state()
    assert s == ConnectFourState(0, 0, 0) and g.max_to_move(s)
    assert g.legal_moves(s) == list(range(7))
    assert not g.is_terminal(s)


def test_play_returns_new_state_and_does_not_mutate():
    g = ConnectFour()
    s = g.initial_state()
    c = g.play(s, 3)
    assert s == ConnectFourState(0, 0, 0)
    assert c == parse_moves("4") and c.mask == 1 << 21 and c.current == 0 and c.plies == 1
    assert not g.max_to_move(c) and g.max_to_move(g.play(c, 3))
    full = parse_moves("111111")
    assert g.legal_moves(full) == [1, 2, 3, 4, 5, 6]
    with pytest.raises(InvalidParameterError):
        g.play(full, 0)
    with pytest.raises(InvalidParameterError):
        g.play(s, 7)


def test_play_accepts_numpy_columns_and_refuses_bools_and_finished_games():
    g = ConnectFour()
    s = g.initial_state()
    assert g.play(s, np.int64(3)) == g.play(s, 3) and type(g.play(s, np.int8(3)).plies) is int
    for bad in (True, 3.0, "3", None, np.int64(7), -1):
        with pytest.raises(InvalidParameterError, match="column 0..6"):
            g.play(s, bad)
    won = parse_moves("1212121")
    with pytest.raises(InvalidParameterError, match="not playable"):
        g.play(won, 3)                       # column 4 is empty, but the game is over


def test_legal_moves_are_a_fresh_list_each_call():
    g = ConnectFour()
    s = parse_moves("111111")
    moves = g.legal_moves(s)
    moves.reverse()                          # an ordering may reorder the list it is given
    assert g.legal_moves(s) == [1, 2, 3, 4, 5, 6]


def test_terminal_and_utility_follow_pons_scores():
    # First player wins vertically with its 4th stone (ply 7): worth 22 - 4 = 18 to them.
    won = parse_moves("1212121")
    assert ConnectFour().is_terminal(won) and ConnectFour().legal_moves(won) == []
    assert ConnectFour().utility(won) == 18.0        # MAX = first player
    assert ConnectFour("1").utility(won) == -18.0    # MAX = second player
    # Second player wins with its 4th stone (ply 8).
    won2 = parse_moves("71212121")
    assert ConnectFour().utility(won2) == -18.0 and ConnectFour("7").utility(won2) == 18.0
    # A drawn full board: 0.
    draw = parse_moves("121212343434565656777777212121434343656565")
    assert draw.plies == 42 and not draw.won_by_last_mover()
    assert ConnectFour().is_terminal(draw) and ConnectFour().utility(draw) == 0.0
    assert solve(draw).score == 0 and solve(won).score == -18     # relative to side to move
    with pytest.raises(InvalidParameterError):
        ConnectFour().utility(parse_moves("44"))


@pytest.mark.parametrize("text, error", [
    ("4485", "move 3 is '8'"), ("44a", "move 3 is 'a'"), ("40", "'0'"),
    ("1111111", "column 1 is full"), ("12121212", "already over"), ("4 4", "' '"),
])
def test_from_text_errors_name_the_bad_move(text, error):
    with pytest.raises(ValueError, match=error):
        ConnectFour.from_text(text)


def test_from_text_and_state_roots():
    g = ConnectFour.from_text("4455")
    s = g.initial_state()
    assert s.plies == 4 and g.max_to_move(s) and g.moves == "4455"
    assert ConnectFour(s).initial_state() == s
    with pytest.raises(InvalidParameterError):
        ConnectFour(ConnectFourState(1, 0, 0))       # a stone outside the mask
    with pytest.raises(InvalidParameterError):
        ConnectFour(ConnectFourState(0, 2, 1))       # a floating stone
    assert ConnectFour().render(parse_moves("44")).splitlines()[-2:] == ["...O...", "...X..."]


def test_hash_key_and_evaluate():
    data = benchmark("Test_L3_R1")
    g = ConnectFour()
    states = [parse_moves(m) for m, _ in data]
    keys = {g.hash_key(s) for s in states}
    assert len(keys) == len({(s.current, s.mask) for s in states})
    for s in states[:200]:
        assert -1 < g.evaluate(s) < 1
        other_max = ConnectFour(g.play(s, g.legal_moves(s)[0]))   # the other side is MAX
        assert ConnectFour(s).evaluate(s) == -other_max.evaluate(s)
    assert g.evaluate(g.initial_state()) == 0.0
    # the first player's open three d1-e1-f1 (two threats) outweighs the rest
    assert g.evaluate(parse_moves("44556")) > 0
    assert ConnectFour("4").evaluate(parse_moves("44556")) < 0


# --- Pons' tutorial solvers: the published node counts ------------------------------------

def test_tutorial_node_counts_match_published_means():
    data = benchmark("Test_L3_R1")
    moves = [m for m, _ in data]
    truth = np.array([s for _, s in data])
    for variant in TUTORIAL_VARIANTS:
        scores, nodes = pons_tutorial_many(moves, variant)
        assert round(nodes.mean(), 1) == PUBLISHED_MEANS[variant], variant
        if variant.endswith("weak"):
            assert (np.sign(scores) == np.sign(truth)).all(), variant
        else:
            assert (scores == truth).all(), variant


def test_tutorial_single_position_and_errors():
    m, score = benchmark("Test_L3_R1")[0]
    assert pons_tutorial(m, "alphabeta-centre-strong")[0] == score
    with pytest.raises(InvalidParameterError, match="variant"):
        pons_tutorial(m, "alphabeta")
    with pytest.raises(InvalidParameterError, match="not over"):
        pons_tutorial("1212121", "negamax")


# --- the solver -------------------------------------------------------------------------

def test_solver_worked_examples():
    assert solve("4455").score == 18
    assert solve("44455554221").score == -15
    r = solve(ConnectFour("4455"))
    assert r.nodes > 0 and r.seconds >= 0


def test_solver_exact_on_all_of_L3():
    data = benchmark("Test_L3_R1")
    scores, nodes = solve_many([m for m, _ in data])
    assert (scores == np.array([s for _, s in data])).all()
    assert (nodes >= 1).all()


@pytest.mark.parametrize("name", ["Test_L2_R1", "Test_L1_R1"])
def test_solver_exact_on_seeded_samples(name):
    data = random.Random(20240611).sample(benchmark(name), 50)
    for m, score in data:
        assert solve(m).score == score, m


def test_solver_weak_and_repeatable():
    data = benchmark("Test_L3_R1")[:200]
    scores, _ = solve_many([m for m, _ in data], weak=True)
    assert (scores == np.sign([s for _, s in data])).all()
    m = data[0][0]
    assert solve(m).nodes == solve(m).nodes          # a fresh table every call


def test_reference_search_agrees_with_file_scores():
    """The Game implementation through the lead's reference alpha-beta, on small L3 cases."""
    data = benchmark("Test_L3_R1")
    _, nodes = pons_tutorial_many([m for m, _ in data], "alphabeta-lr-weak")
    small = [data[i] for i in np.argsort(nodes, kind="stable")[:15]]
    for m, score in small:
        r = search_api.search(ConnectFour(m), algorithm="alphabeta", engine="reference",
                       max_nodes=200_000)
        assert r.status == "ok" and r.value == score, m


def naive_four(board, who):
    """Four in a row for ``who`` on a 7x6 list-of-columns board, checked cell by cell."""
    for c in range(7):
        for r in range(6):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(c + k * dc, r + k * dr) for k in range(4)]
                if all(0 <= x < 7 and 0 <= y < 6 and len(board[x]) > y and board[x][y] == who
                       for x, y in cells):
                    return True
    return False


def test_bitboards_agree_with_a_naive_board_on_random_games():
    rng = random.Random(7)
    g = ConnectFour()
    for _ in range(40):
        s, board, text = g.initial_state(), [[] for _ in range(7)], ""
        while True:
            legal = [c for c in range(7) if len(board[c]) < 6]
            over = naive_four(board, 0) or naive_four(board, 1) or not legal
            assert g.is_terminal(s) == over
            assert g.legal_moves(s) == ([] if over else legal)
            if over:
                break
            c = rng.choice(legal)
            board[c].append(s.plies % 2)
            s = g.play(s, c)
            text += str(c + 1)
        assert parse_moves(text) == s
        if s.won_by_last_mover():
            k = (s.plies + 1) // 2
            assert g.utility(s) == (22 - k if s.plies % 2 == 1 else -(22 - k))


def test_centre_ordering_and_oracle_orderings_through_the_reference():
    from searchlab import search
    from searchlab.games.connect4 import ConnectFour
    g = ConnectFour("44455554221")
    assert g.move_orderings()["centre"](g.initial_state(), [0, 1, 2, 3, 4, 5, 6]) == [3, 2, 4, 1, 5, 0, 6]
    base = search(g, "alphabeta", depth=6, engine="reference")
    for ordering in ("centre", "perfect", "worst", "static", "id+tt+killer+centre"):
        r = search(g, "alphabeta", ordering, depth=6, engine="reference")
        assert r.value == base.value
    perfect = search(g, "alphabeta", "perfect", depth=6, engine="reference")
    worst = search(g, "alphabeta", "worst", depth=6, engine="reference")
    assert perfect.nodes < base.nodes < worst.nodes

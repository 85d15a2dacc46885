"""Hex: the board geometry, win detection, the shortest-path evaluation, Zobrist keys, text,
one-line errors, search (sound algorithms against minimax, every ordering against alpha-beta),
exact solving of the small boards, the compiled primitives against the Python class, and Hex
in studies.

Known answers: every empty n x n board is a first-player win (Nash's strategy-stealing
argument; e.g. HexWiki, "Small boards", for the solved sizes); on 2x2 the winning first moves
are the two obtuse corners b1 and a2 (by hand: each touches both cells of the other row).
"""

from __future__ import annotations

import heapq
from collections import deque

import numpy as np
import pytest

from searchlab import search
from searchlab.algorithms.ground_truth import root_move_values
from searchlab.errors import InvalidParameterError, SearchlabError
from searchlab.experiment import api
from searchlab.experiment.api import run_study
from searchlab.experiment.schema import ConfigError
from searchlab.experiment.store import load
from searchlab.experiment.validation import validate
from searchlab.games import hex_compiled as hc
from searchlab.games.hex import (Hex, HexState, adjacent_first, adjacent_key, cell_name,
                                 parse_cell, parse_text, random_position, solve, to_text)
from searchlab.games.hex_board import ZOBRIST, connected, distance, masks, neighbours, zobrist
from searchlab.games.protocol import Game
from tests.nojit import run_without_jit

SOUND = ("alphabeta", "alphabeta-failhard", "pvs", "mtdf")


def cells(n: int, names: str) -> int:
    return sum(1 << parse_cell(t, n) for t in names.split())


def rc_neighbours(n: int, cell: int) -> set[int]:
    """The six hex directions on (row, column): the rules, written independently."""
    r, c = divmod(cell, n)
    out = set()
    for dr, dc in ((0, -1), (0, 1), (-1, 0), (-1, 1), (1, -1), (1, 0)):
        if 0 <= r + dr < n and 0 <= c + dc < n:
            out.add((r + dr) * n + c + dc)
    return out


def bfs_connected(stones: int, n: int, vertical: bool) -> bool:
    """An independent win test: breadth-first search over (row, column) cells."""
    own = {i for i in range(n * n) if stones >> i & 1}
    start = [i for i in own if (i // n == 0 if vertical else i % n == 0)]
    seen, todo = set(start), deque(start)
    while todo:
        i = todo.popleft()
        if (i // n == n - 1) if vertical else (i % n == n - 1):
            return True
        for j in rc_neighbours(n, i) & own - seen:
            seen.add(j)
            todo.append(j)
    return False


def dijkstra_distance(own: int, opp: int, n: int, vertical: bool) -> int:
    """An independent shortest path: Dijkstra over cells, cost 0 own stone, 1 empty."""
    cost = {i: 0 if own >> i & 1 else 1 for i in range(n * n) if not opp >> i & 1}
    first = [i for i in cost if (i // n == 0 if vertical else i % n == 0)]
    best = {i: cost[i] for i in first}
    heap = [(cost[i], i) for i in first]
    heapq.heapify(heap)
    while heap:
        d, i = heapq.heappop(heap)
        if d > best[i]:
            continue
        if (i // n == n - 1) if vertical else (i % n == n - 1):
            return d
        for j in rc_neighbours(n, i):
            if j in cost and d + cost[j] < best.get(j, 10**9):
                best[j] = d + cost[j]
                heapq.heappush(heap, (best[j], j))
    return n * n


def random_stones(rng, n: int) -> tuple[int, int]:
    """Two disjoint random cell sets (not necessarily a reachable position)."""
    colour = rng.integers(0, 3, size=n * n)
    x = sum(1 << i for i in range(n * n) if colour[i] == 1)
    o = sum(1 << i for i in range(n * n) if colour[i] == 2)
    return x, o


# --- the board and the rules ----------------------------------------------------------------
def test_protocol_and_empty_board():
    g = Hex(5)
    assert isinstance(g, Game)
    g.capabilities.require_classical("test")
    assert g.capabilities.static_values and g.capabilities.own_orderings
    assert g.default_depth is None and g.name == "hex5"
    s = g.initial_state()
    assert s == HexState(0, 0, 5) and s.x_to_move and g.max_to_move(s)
    assert g.legal_moves(s) == tuple(range(25))
    assert not g.is_terminal(s)
    assert set(g.move_orderings()) == {"adjacent"}


def test_cell_names():
    assert [cell_name(i, 5) for i in (0, 1, 4, 5, 24)] == ["a1", "b1", "e1", "a2", "e5"]
    assert all(parse_cell(cell_name(i, 11), 11) == i for i in range(121))
    assert parse_cell("C3", 5) == 12


@pytest.mark.parametrize("n", range(1, 12))
def test_neighbours_are_the_six_hex_directions(n):
    m = masks(n)
    for i in range(n * n):
        got = neighbours(1 << i, m)
        assert got == sum(1 << j for j in rc_neighbours(n, i)), (n, cell_name(i, n))
    if n >= 2:
        # a1 and the bottom-right corner are acute (2 neighbours), the other two obtuse (3)
        degree = [neighbours(1 << i, m).bit_count() for i in (0, n - 1, n * (n - 1), n * n - 1)]
        assert degree == [2, 3, 3, 2]


def test_play_does_not_mutate_and_alternates():
    g = Hex(3)
    s = g.initial_state()
    t = g.play(s, 4)
    assert s == HexState(0, 0, 3)
    assert t == HexState(1 << 4, 0, 3) and not t.x_to_move and not g.max_to_move(t)
    u = g.play(t, 0)
    assert u == HexState(1 << 4, 1, 3) and u.x_to_move
    assert g.legal_moves(u) == (1, 2, 3, 5, 6, 7, 8)


@pytest.mark.parametrize("n, x, o, x_wins, o_wins", [
    (3, "a1 a2 a3", "", True, False),                 # straight column
    (3, "c1 b2 a3", "", True, False),                 # the short diagonal touches
    (3, "a1 b2 c3", "", False, False),                # the long diagonal does not
    (3, "", "a1 b1 c1", False, True),                 # O along X's edge still joins left-right
    (3, "a1 b1 c1", "", False, False),                # X along its own edge does not
    (4, "b1 b2 a3 a4", "", True, False),              # zigzag through (r+1, c-1)
    (4, "a1 a2 a3", "", False, False),                # one short of the bottom
    (1, "a1", "", True, False),
    (1, "", "a1", False, True),
])
def test_win_detection(n, x, o, x_wins, o_wins):
    xs, os_ = cells(n, x) if x else 0, cells(n, o) if o else 0
    assert connected(xs, n, True) == x_wins
    assert connected(os_, n, False) == o_wins


def test_win_detection_agrees_with_a_bfs_on_random_sets():
    rng = np.random.default_rng(12)
    for _ in range(400):
        n = int(rng.integers(1, 12))
        x, o = random_stones(rng, n)
        assert connected(x, n, True) == bfs_connected(x, n, True)
        assert connected(o, n, False) == bfs_connected(o, n, False)


def test_full_board_has_exactly_one_winner():
    # the Hex theorem, on random fillings
    rng = np.random.default_rng(5)
    for _ in range(200):
        n = int(rng.integers(1, 12))
        x = sum(1 << i for i in range(n * n) if rng.integers(2))
        o = masks(n).board & ~x
        assert connected(x, n, True) != connected(o, n, False)


def test_terminal_and_utility_are_from_max_view():
    g = Hex(2)
    s = g.play(g.play(g.initial_state(), 1), 3)          # X b1, O b2
    assert not g.is_terminal(s)
    won = g.play(s, 2)                                     # X a2: b1-a2 joins top and bottom
    assert g.is_terminal(won) and won.winner() == "X" and g.utility(won) == 1.0
    assert g.legal_moves(won) == ()
    h = Hex.from_text("2 b1")                              # MAX = O
    assert h.max_to_move(h.initial_state()) and not h.initial_state().x_to_move
    assert h.utility(won) == -1.0
    with pytest.raises(InvalidParameterError, match="non-terminal"):
        g.utility(s)
    assert Hex(1).utility(Hex(1).play(HexState(0, 0, 1), 0)) == 1.0


# --- evaluation, keys, ordering -------------------------------------------------------------
def test_distance_agrees_with_dijkstra():
    rng = np.random.default_rng(3)
    for _ in range(300):
        n = int(rng.integers(1, 12))
        x, o = random_stones(rng, n)
        assert distance(x, o, n, True) == dijkstra_distance(x, o, n, True)
        assert distance(o, x, n, False) == dijkstra_distance(o, x, n, False)


def test_evaluation_values():
    g = Hex(3, "b2")                     # X holds the centre; O to move is MAX
    s = g.initial_state()
    # X needs b1 and b3 (2); O must go round: e.g. a2 b1 c1 (3)
    assert distance(s.x, s.o, 3, True) == 2 and distance(s.o, s.x, 3, False) == 3
    assert g.evaluate(s) == pytest.approx(-(3 - 2) / 10)
    assert Hex(3).evaluate(Hex(3).initial_state()) == 0.0
    rng = np.random.default_rng(9)
    for seed in range(60):
        n = int(rng.integers(2, 12))
        h = Hex.random(n, int(rng.integers(0, n * n // 2)), seed)
        assert -1 < h.evaluate(h.initial_state()) < 1


def test_zobrist_is_the_xor_of_cell_keys_and_collision_free_on_3x3():
    rng = np.random.default_rng(1)
    for _ in range(100):
        n = int(rng.integers(1, 12))
        x, o = random_stones(rng, n)
        want = 0
        for i in range(n * n):
            if x >> i & 1:
                want ^= ZOBRIST[i]
            if o >> i & 1:
                want ^= ZOBRIST[121 + i]
        assert zobrist(HexState(x, o, n)) == want
    # every position reachable on 3x3
    g, seen, todo = Hex(3), {}, [HexState(0, 0, 3)]
    while todo:
        s = todo.pop()
        if s in seen:
            continue
        seen[s] = g.hash_key(s)
        todo.extend(g.play(s, m) for m in g.legal_moves(s))
    assert len(seen) > 3000 and len(set(seen.values())) == len(seen)


def test_adjacent_order():
    g = Hex(4, "b2 c2")                  # X b2, O c2
    s = g.initial_state()
    order = adjacent_first(s, list(g.legal_moves(s)))
    touching = {m: (neighbours(1 << m, masks(4)) & (s.x | s.o)).bit_count()
                for m in g.legal_moves(s)}
    # cells touching two stones, then one, then none; natural order inside each class
    assert order == sorted(g.legal_moves(s), key=lambda m: (-touching[m] if touching[m] else 1, m))
    assert [cell_name(m, 4) for m in order[:2]] == ["c1", "b3"]       # each touches both stones
    assert adjacent_key(s, 1) == 5 and adjacent_key(s, 15) == 6
    empty = Hex(4).initial_state()
    assert adjacent_first(empty, list(range(16))) == list(range(16))


# --- text and bad input ---------------------------------------------------------------------
def test_text_round_trip():
    g = Hex.from_text("4 b2, c2 A1")
    s = g.initial_state()
    assert s == HexState(cells(4, "b2 a1"), cells(4, "c2"), 4)
    assert to_text(s) == "X.../.XO./..../...."
    assert parse_text(to_text(s)) == s and Hex.from_text(to_text(s)).initial_state() == s
    assert Hex(4, [5, 6, 0]).initial_state() == s == Hex(4, "b2 c2 a1").initial_state()
    assert Hex.from_text("7").initial_state() == HexState(0, 0, 7)
    assert not g.max_to_move(HexState(s.x, s.o | 1 << 15, 4))
    rng = np.random.default_rng(4)
    for seed in range(30):
        st = random_position(int(rng.integers(1, 12)), 0, seed)
        assert parse_text(to_text(st)) == st


def test_random_positions_are_reproducible_and_open():
    a, b = random_position(7, 10, 42), random_position(7, 10, 42)
    assert a == b and a.plies == 10 and not a.winner()
    assert random_position(7, 10, 43) != a
    assert all(not random_position(3, 5, s).winner() for s in range(30))


@pytest.mark.parametrize("call, match", [
    (lambda: Hex(0), "size n must be an integer in 1..11; got 0"),
    (lambda: Hex(12), "1..11; got 12"),
    (lambda: Hex(True), "1..11; got True"),
    (lambda: Hex(3.0), "1..11; got 3.0"),
    (lambda: Hex(3, "a1 d1"), "move 2: .*'d1' is not on the 3x3 board"),
    (lambda: Hex(3, "a1 zz"), "move 2: .*'zz'"),
    (lambda: Hex(3, "a1 a1"), "move 2 \\(a1\\): the cell is already taken"),
    (lambda: Hex(2, "b1 b2 a2 a1"), "move 4 \\(a1\\): the game is already over \\(X"),
    (lambda: Hex(3, [9]), "move 1 is 9"),
    (lambda: Hex.from_text("x a1"), "a diagram like"),
    (lambda: Hex.from_text(""), "a diagram like"),
    (lambda: Hex.from_text("12 a1"), "1..11; got 12"),
    (lambda: Hex.from_text("..X/.O/..."), "row 2 is '.O'"),
    (lambda: Hex.from_text("..X/.O."), "row 1 is '..X'"),
    (lambda: Hex.from_text("..X/.Q./..."), "row 2 is '.Q.'"),
    (lambda: Hex.from_text("XX./.../..."), "2 X and 0 O stones"),
    (lambda: Hex.from_text("O../.../..."), "0 X and 1 O"),
    (lambda: Hex.from_text("XOOX/XOOX/XOOX/XO.X"), "already won before the last stone"),
    (lambda: Hex.from_text("XOO/XO./X.."), "the player to move has already connected"),
    (lambda: Hex.from_state(HexState(1 << 9, 0, 3)), "outside the board"),
    (lambda: Hex.from_state(HexState(1, 1, 3)), "both colours"),
    (lambda: Hex.from_state((0, 0, 3)), "not a HexState"),
    (lambda: random_position(3, 9, 0), "ply must be an integer in 0..8"),
    (lambda: random_position(3, 2, -1), "seed must be an integer >= 0"),
    (lambda: solve("X.X/OXO/OX."), "not over"),
])
def test_bad_input_one_line_errors(call, match):
    with pytest.raises(SearchlabError, match=match) as e:
        call()
    assert isinstance(e.value, InvalidParameterError) and "\n" not in str(e.value)


@pytest.mark.parametrize("move, match", [(0, "a1 is already taken"), (9, "0..8; got 9"),
                                         (-1, "0..8; got -1"), ("b1", "got 'b1'"),
                                         (True, "got True")])
def test_illegal_moves(move, match):
    g = Hex(3, "a1")
    with pytest.raises(InvalidParameterError, match=match):
        g.play(g.initial_state(), move)


def test_no_move_after_the_end_and_no_foreign_state():
    g = Hex(2)
    won = HexState(cells(2, "b1 a2"), cells(2, "b2"), 2)
    with pytest.raises(InvalidParameterError, match="game is over"):
        g.play(won, 0)
    with pytest.raises(InvalidParameterError, match="3x3 state is not a position of hex2"):
        g.play(HexState(0, 0, 3), 0)


# --- search ---------------------------------------------------------------------------------
def small_positions():
    """3x3 positions after 2 or 3 moves and 4x4 positions after 9 or 10: full minimax is cheap."""
    out = [Hex.random(3, 2 + s % 2, s) for s in range(6)]
    out += [Hex.random(4, 9 + s % 2, s) for s in range(4)]
    return out


@pytest.mark.parametrize("algorithm", SOUND)
def test_sound_algorithms_agree_with_minimax_to_the_end(algorithm):
    for g in small_positions():
        want = search(g, "minimax").value
        for ordering in ("natural", "adjacent", "static", "tt+killer+history+adjacent"):
            r = search(g, algorithm, ordering)
            assert r.value == want, (g.name, algorithm, ordering)
            assert r.value in (1.0, -1.0)


def test_every_ordering_returns_alpha_betas_value_at_a_horizon():
    orderings = ("natural", "random", "static", "adjacent", "tt", "killer", "history",
                 "tt+killer+history+adjacent", "id+tt+killer+history+adjacent",
                 "id+tt+static", "perfect", "worst")
    for seed in range(3):
        g = Hex.random(5, 3 + seed, seed)
        for depth in (1, 2, 3):
            want = search(g, "minimax", depth=depth).value
            for ordering in orderings:
                for algorithm in ("alphabeta", "pvs"):
                    r = search(g, algorithm, ordering, depth=depth, ordering_seed=seed)
                    assert r.value == want, (g.name, depth, ordering, algorithm)


def test_adjacent_order_cuts_more_than_natural_on_7x7():
    # not a claim of the study: a sanity check that the order is wired in
    total = {o: 0 for o in ("natural", "adjacent")}
    for seed in range(3):
        g = Hex.random(7, 6, seed)
        for o in total:
            total[o] += search(g, "alphabeta", o, depth=2).nodes
    assert total["adjacent"] < total["natural"]


# --- exact solving --------------------------------------------------------------------------
@pytest.mark.parametrize("n", [1, 2, 3])
def test_empty_board_is_a_first_player_win_by_reference_alpha_beta(n):
    r = search(Hex(n), "alphabeta", "tt+adjacent", tt_size=1 << 16)
    assert r.value == 1.0


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_empty_board_is_a_first_player_win_by_the_solver(n):
    assert solve(Hex(n)).mover_wins


def test_winning_first_moves_on_2x2_and_3x3_two_ways():
    assert solve(Hex(2), all_moves=True).winning_moves == (1, 2)          # b1, a2 (by hand)
    for n in (2, 3):
        values = root_move_values(Hex(n), ordering="tt+adjacent")
        by_search = tuple(m for m, v in values.items() if v == 1.0)
        assert solve(Hex(n), all_moves=True).winning_moves == by_search
    names = [cell_name(m, 3) for m in solve(Hex(3), all_moves=True).winning_moves]
    assert names == ["c1", "a2", "b2", "c2", "a3"]                        # the centre wins


def test_solver_agrees_with_minimax_on_small_positions():
    for g in small_positions():
        s = g.initial_state()
        value = search(g, "minimax").value          # MAX = the side to move
        assert solve(s).mover_wins == (value == 1.0)


@pytest.mark.slow
def test_4x4_winning_first_moves_are_the_short_diagonal():
    names = [cell_name(m, 4) for m in solve(Hex(4), all_moves=True).winning_moves]
    assert names == ["d1", "c2", "b3", "a4"]


@pytest.mark.slow
def test_4x4_is_a_first_player_win_by_reference_alpha_beta():
    # ~3.4e5 nodes, ~30 s on the reference engine; depth 16 (the board's cells) is the whole
    # game, which search() wants stated for a board of more than 12 empty cells
    r = search(Hex(4), "alphabeta", "tt+static", depth=16, tt_size=1 << 20)
    assert r.value == 1.0


# --- compiled primitives --------------------------------------------------------------------
def check_primitives_on_random_games(games: int, seed: int) -> int:
    """Walk random games on every size, comparing each primitive with the Python class."""
    rng = np.random.default_rng(seed)
    states = 0
    for n in range(1, 12):
        for _ in range(games):
            g = Hex.random(n, int(rng.integers(0, n * n)), int(rng.integers(1 << 30)))
            s = g.initial_state()
            max_is_x = s.x_to_move                      # MAX = the root's side to move
            row = hc.encode(s, max_is_x)
            buf = np.zeros(n * n, dtype=np.int64)
            out = np.zeros(hc.STATE_SIZE, dtype=np.uint64)
            while True:
                states += 1
                assert bool(hc.is_terminal(row)) == g.is_terminal(s)
                assert bool(hc.max_to_move(row)) == g.max_to_move(s)
                assert int(hc.hash_key(row)) == g.hash_key(s)
                if g.is_terminal(s):
                    assert hc.utility(row) == g.utility(s)
                    break
                e, want = hc.evaluate(row), g.evaluate(s)
                assert e == want and np.signbit(e) == np.signbit(want)      # bit for bit
                k = hc.gen_moves(row, buf)
                moves = g.legal_moves(s)
                assert tuple(int(v) for v in buf[:k]) == moves
                assert [hc.order_key(row, m, hc.ORDER_ADJACENT) for m in moves] == \
                    [float(adjacent_key(s, m)) for m in moves]
                m = moves[int(rng.integers(len(moves)))]
                hc.play(row, m, out)
                s = g.play(s, m)
                row = out.copy()
                assert (row == hc.encode(s, max_is_x)).all()
    return states


def test_compiled_primitives_match_the_python_class():
    assert check_primitives_on_random_games(games=6, seed=12) > 1000


def test_compiled_evaluate_matches_distance_on_random_stone_sets():
    """evaluate's distances (computed otherwise than hex_board.distance: module docstring of
    hex_compiled) on stone sets of every density, reachable or not, one-word (n <= 8) and
    two-word boards, both sides walled off now and then (distance n*n)."""
    rng = np.random.default_rng(12)
    walled = 0
    for n in range(1, 12):
        for _ in range(150):
            p, (px, po) = rng.random(n * n), rng.random(2) * 0.6
            x = sum(1 << i for i in range(n * n) if p[i] < px)
            o = sum(1 << i for i in range(n * n) if px <= p[i] < px + po)
            dx, do = distance(x, o, n, True), distance(o, x, n, False)
            walled += n * n in (dx, do)
            for max_is_x in (True, False):
                row = np.array([x & (1 << 64) - 1, x >> 64, o & (1 << 64) - 1, o >> 64, n, 0,
                                int(max_is_x), 0, 0], dtype=np.uint64)
                want = (do - dx) / (n * n + 1) * (1 if max_is_x else -1)
                e = hc.evaluate(row)
                assert e == want and np.signbit(e) == np.signbit(want), (n, x, o)
    assert walled > 100


def test_compiled_primitives_match_without_jit():
    code = ("from tests.games.test_hex import check_primitives_on_random_games as c; "
            "print(c(games=1, seed=7))")
    assert int(run_without_jit(code, timeout=300).split()[-1]) > 100


# --- Hex in studies -------------------------------------------------------------------------
def test_hex_study_runs_paired_positions(tmp_path):
    out = run_study("quick", ["game=hex", "game.positions=5x5", "game.ply=3", "sweep.instances=2",
                              "sweep.d=1..2", "sweep.ordering=[natural,adjacent,tt+killer+adjacent]",
                              "runner.n_jobs=1", "runner.progress=false", "runner.report=false"],
                    output_dir=tmp_path / "hex", progress=False)
    df = load(out)
    assert len(df) == 12 and (df.status == "ok").all() and set(df.game) == {"hex"}
    assert set(df.positions) == {"5x5"} and set(df.position) == {"ply3#0", "ply3#1"}
    # every ordering searches the same positions, so finds the same value
    assert (df.groupby(["position", "d"]).value.nunique() == 1).all()


def test_ordering_hex_preset_composes_and_runs_tiny(tmp_path):
    from searchlab.experiment import grid

    study = validate(api.compose("ordering_hex"))
    assert study.name == "ordering_hex" and "adjacent" in study.orderings and grid.plan(study).tasks
    out = run_study("ordering_hex", ["sweep.instances=1", "sweep.d=1..2", "game.positions=5x5",
                                     "runner.n_jobs=1", "runner.progress=false",
                                     "runner.report=false"],
                    output_dir=tmp_path / "preset", progress=False)
    df = load(out)
    assert (df.status == "ok").all() and set(df.ordering) == set(study.orderings)
    assert (df.groupby("d").value.nunique() == 1).all()


@pytest.mark.parametrize("override, match", [
    ("game.ply=25", "game.ply must be an integer in 0..24"),
    ("game.positions=12x12", "unknown position source '12x12' for hex"),
    ("game.sample=3", "game.sample draws positions from a file"),
])
def test_hex_study_config_errors(override, match):
    with pytest.raises(ConfigError, match=match):
        validate(api.compose(None, ["game=hex", "game.positions=5x5", override]))

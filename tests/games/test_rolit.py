"""Rolit (searchlab/games/rolit.py): rules, payoffs, constant sum."""

from __future__ import annotations

import numpy as np
import pytest

from searchlab.errors import InvalidParameterError
from searchlab.games.othello import parse_square
from searchlab.games.rolit import Rolit


def test_start_and_first_moves():
    g = Rolit(4)
    s = g.initial_state()
    # colour 0 on d4, 1 on e4, 2 on e5, 3 on d5; player 0 captures along the column d or the
    # diagonal? Only lines ending in its own disc capture: d4 is alone, so f4 (d4 e4 f4) and
    # d6? (d4 d5 d6) and f6 (d4 e5 f6) capture.
    assert [s.discs[i] >> sq & 1 for i, sq in enumerate((27, 28, 36, 35))] == [1, 1, 1, 1]
    assert g.legal_moves(s) == sorted(parse_square(x) for x in ("f4", "d6", "f6"))
    t = g.play(s, parse_square("f6"))
    assert t.mover == 1 and t.discs[0] >> 36 & 1 and not t.discs[2] >> 36 & 1   # e5 flipped


def test_without_a_capture_any_square_next_to_a_disc():
    g = Rolit(3)
    s = g.initial_state()
    only = g.with_mover(s, 0)._replace(discs=(1 << 27, 0, 0, 1 << 28))
    moves = g.legal_moves(only)     # d4 own, e4 neutral: f4 captures
    assert moves == [parse_square("f4")]
    lone = only._replace(discs=(0, 1 << 0, 0, 0))     # player 0 has no disc: no capture possible
    assert g.legal_moves(lone) == [1, 8, 9]


@pytest.mark.parametrize("n", [3, 4])
def test_random_games_last_60_plies_with_constant_sum(n):
    g = Rolit(n)
    rng = np.random.default_rng(n)
    s, plies = g.initial_state(), 0
    while not g.is_terminal(s):
        ev = g.evaluate_vector(s)
        assert min(ev) >= 0 and sum(ev) == g.leaf_total(s, 0)
        moves = g.legal_moves(s)
        assert moves
        s = g.play(s, moves[int(rng.integers(len(moves)))])
        plies += 1
    assert plies == 60
    u = g.utility_vector(s)
    assert sum(u) == 64 * n == g.leaf_total(s, 5) and min(u) >= 0
    counts = [s.discs[i].bit_count() for i in range(n)]
    assert g.winners(s) == [i for i, c in enumerate(counts) if c == max(counts)]


def test_bad_input():
    with pytest.raises(InvalidParameterError, match="players must be 3 or 4"):
        Rolit(2)
    with pytest.raises(InvalidParameterError, match="plies"):
        Rolit.random(3, 60, 1)

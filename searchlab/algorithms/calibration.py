"""Calibrating pruning models by searching sample positions: ``sample_states`` (seeded random
play from the start) and ``fit_probcut`` (ProbCut's linear model, fitted with scipy)."""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy.stats import linregress

from searchlab.algorithms.search_api import search
from searchlab.algorithms.pruning import ProbCut
from searchlab.errors import InvalidParameterError
from searchlab.contracts.position import FromState


def fit_probcut(game: Any, states: list, shallow: int, deep: int,
                threshold: float = 1.5, proven_bound: float | None = None) -> ProbCut:
    """Fit ProbCut's linear model v_deep = slope * v_shallow + intercept on sample positions.

    Each state is searched exactly (plain alpha-beta, static order where the game has it) to
    ``shallow`` and to ``deep`` plies; scipy's ``linregress`` gives slope and intercept, and
    ``sigma`` is the residuals' standard deviation. Raises InvalidParameterError with fewer
    than 3 positions or no variation in the shallow values.
    """
    if len(states) < 3:
        raise InvalidParameterError(f"fit_probcut needs at least 3 positions; got {len(states)}")
    ordering = "static" if game.capabilities.static_values else "natural"
    xs, ys = [], []
    for s in states:
        view = FromState(game, s)
        xs.append(search(view, "alphabeta", ordering, depth=shallow, engine="reference").value)
        ys.append(search(view, "alphabeta", ordering, depth=deep, engine="reference").value)
    x, y = np.asarray(xs, float), np.asarray(ys, float)
    if proven_bound is not None:
        keep = (np.abs(x) < proven_bound) & (np.abs(y) < proven_bound)
        x, y = x[keep], y[keep]
        if len(x) < 3:
            raise InvalidParameterError(
                f"fit_probcut: fewer than 3 positions with values below proven_bound={proven_bound}")
    if np.ptp(x) == 0:
        raise InvalidParameterError("fit_probcut: the shallow values do not vary; sample more positions")
    fit = linregress(x, y)
    sigma = float(np.std(y - (fit.slope * x + fit.intercept), ddof=2)) if len(x) > 2 else 0.0
    return ProbCut(shallow=shallow, deep=deep, slope=float(fit.slope),
                   intercept=float(fit.intercept), sigma=sigma, threshold=threshold)


def sample_states(game: Any, ply: int, n: int, seed: int) -> list:
    """``n`` positions reached by uniformly random play of ``ply`` moves from the start
    (fewer where the game ends first), reproducible from ``seed`` (numpy Generator)."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        s = game.initial_state()
        for _ in range(ply):
            moves = list(game.legal_moves(s))
            if not moves or game.is_terminal(s):
                break
            s = game.play(s, moves[int(rng.integers(len(moves)))])
        out.append(s)
    return out

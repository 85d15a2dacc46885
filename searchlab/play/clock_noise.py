"""The noise of a CPU-time budget: how many nodes the same search reaches in the same CPU time.

``clock_noise(game, states, config, repeats)`` searches each state ``repeats`` times, every
time in a new engine session (empty table, killers and history: the searches are identical
but for the clock) under ``config`` (``budget_mode="cpu"``), and returns per state the nodes
of each repeat. Their coefficient of variation (SD / mean, ddof 0) is the clock's noise alone:
the position, the configuration and the engine are the same, only how much work fits in
``cpu_seconds`` of ``time.thread_time()`` varies (caches, frequency scaling, other jobs on the
cores, the clock's resolution). Under a node budget the same searches are identical node for
node (CV 0).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from searchlab.algorithms.engine_session import EngineSession, SessionConfig
from searchlab.errors import InvalidParameterError


@dataclass(frozen=True)
class ClockNoise:
    """Per state the nodes of each repeat; ``cvs`` their coefficient of variation per state."""

    nodes: tuple[tuple[int, ...], ...]

    @property
    def cvs(self) -> tuple[float, ...]:
        return tuple(float(np.std(x) / np.mean(x)) if np.mean(x) > 0 else float("nan")
                     for x in self.nodes)


def clock_noise(game: Any, states: Sequence[Any], config: SessionConfig, repeats: int = 20,
                engine: str = "auto") -> ClockNoise:
    """Nodes searched per repeat of each state's search under ``config`` (the module
    docstring). One untimed search first loads (compiles) the engine. Raises
    InvalidParameterError for no states, ``repeats`` < 2, or a config whose budget is not CPU
    time."""
    if not states:
        raise InvalidParameterError("states must hold at least one position")
    if isinstance(repeats, bool) or not isinstance(repeats, int) or repeats < 2:
        raise InvalidParameterError(f"repeats must be an integer >= 2; got {repeats!r}")
    if config.budget_mode != "cpu":
        raise InvalidParameterError(f"config.budget_mode must be 'cpu' (a node budget has no "
                                    f"clock noise); got {config.budget_mode!r}")
    EngineSession(game, config, engine).choose(states[0])          # load the engine
    out = []
    for s in states:
        out.append(tuple(EngineSession(game, config, engine).choose(s).nodes
                         for _ in range(repeats)))
    return ClockNoise(tuple(out))

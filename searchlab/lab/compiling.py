"""The lab's compiled engines, compiled in the background when the lab starts.

On a machine whose disk cache holds no compiled engine for a game, the game's first compiled
search compiles it (tens of seconds of CPU, docs/compile-time.md). Inside a request that
compile ran under the request's wall-clock cap, which killed it, and an interrupted compile is
never cached: the game answered 503 at every request. So the lab, when it starts, runs
``searchlab-warm-up``'s first search of each of its games (searchlab.warm_up) in background processes, outside any request's limit; each game's engine is then on
the disk cache, where the lab's worker processes load it in about a second.

``EngineCompiler`` tracks each game: "compiling" from ``start()`` until its warm-up process
is done with it, then "ready" (or "failed": the game's requests then run as before, compiling
in the request). A request for a game still compiling waits for it (``wait``) outside the
wall-clock cap, up to a limit of its own; past that limit the app answers 503 saying that the
engine is being compiled (the page shows that message; the request can be repeated).
"""

from __future__ import annotations

import os
import threading
import time
from typing import Callable

from searchlab.warm_up import Outcome, check_names, engines, warm_up
from searchlab.games.registry import registry as game_registry

#: the lab's game -> the warm-up engine that compiles what its searches run (the two-player
#: engine's copy for the game: search, compare and the minimal tree all run on it; the games
#: the game registry marks as drawn by the lab, each warmed up under its own name, a plug-in
#: with compiled primitives too (warm_up.engines); a game without them has no warm-up engine)
LAB_ENGINES = {name: name for name, e in game_registry().items() if e.lab and name in engines()}
#: how long a request waits for its game's engine to finish compiling (seconds)
COMPILE_WAIT = 90.0


class EngineCompiler:
    """Each game's engine compiled in the background, ``jobs`` processes at a time (module
    docstring). Thread-safe; before ``start()`` every game counts as ready (nothing is being
    compiled: a request compiles what it needs itself, as without the compiler)."""

    def __init__(self, engines: dict[str, str] | None = None, jobs: int = 2,
                 on_done: Callable[[str, Outcome], None] | None = None) -> None:
        self.engines = dict(LAB_ENGINES if engines is None else engines)
        check_names(self.engines.values())
        self.jobs = jobs
        self.outcomes: dict[str, Outcome] = {}
        self._state = {g: "ready" for g in self.engines}
        self._since: float | None = None
        self._on_done = on_done
        self._cond = threading.Condition()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Start compiling every game's engine in the background (once; not under
        NUMBA_DISABLE_JIT=1, where nothing is compiled)."""
        with self._cond:
            if self._thread is not None or not self.engines or os.environ.get("NUMBA_DISABLE_JIT") == "1":
                return
            self._state = {g: "compiling" for g in self.engines}
            self._since = time.monotonic()
            self._thread = threading.Thread(target=self._run, name="searchlab-lab-compile", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        by_engine: dict[str, list[str]] = {}
        for g, e in self.engines.items():
            by_engine.setdefault(e, []).append(g)

        def done(o: Outcome) -> None:
            with self._cond:
                for g in by_engine[o.name]:
                    self._state[g] = "failed" if o.error is not None else "ready"
                    self.outcomes[g] = o
                self._cond.notify_all()
            if self._on_done is not None:
                for g in by_engine[o.name]:
                    self._on_done(g, o)

        try:
            warm_up(list(by_engine), self.jobs, on_done=done, stop=self._stop)
        finally:
            with self._cond:            # stopped, or a process lost: nobody waits forever
                for g, s in self._state.items():
                    if s == "compiling":
                        self._state[g] = "failed"
                self._cond.notify_all()

    def state(self, game: str) -> str:
        """"compiling", "ready" or "failed" (a game the compiler does not know: "ready")."""
        with self._cond:
            return self._state.get(game, "ready")

    def compiling(self) -> list[str]:
        """The games whose engines are still being compiled."""
        with self._cond:
            return [g for g, s in self._state.items() if s == "compiling"]

    def seconds(self) -> float:
        """Seconds since compiling started (0 before)."""
        return 0.0 if self._since is None else time.monotonic() - self._since

    def wait(self, game: str, timeout: float) -> bool:
        """Block until ``game``'s engine is no longer compiling, at most ``timeout`` seconds;
        True when it is no longer compiling."""
        with self._cond:
            return self._cond.wait_for(lambda: self._state.get(game, "ready") != "compiling", timeout)

    def close(self) -> None:
        """Stop compiling (its processes are killed) and wait for the background thread."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(30)

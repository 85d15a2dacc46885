"""The lab's searches in worker processes, so that a request past the wall-clock cap really stops.

A thread cannot be stopped from outside, and a compiled (numba) search does not look at a
flag while it runs: the only honest way to end a search that has run past its cap, for the
Python engine and the compiled one alike, is to end the process it runs in. So every
searching request (``JOBS``: trace, export, search, compare, minimal) runs in one of at most
``size`` worker processes (``python -m searchlab.lab.workers FD``: a fresh interpreter that
does not re-import the server's main module, talking over a socket pair; started on first use
and kept, so that their imports and the engine's compiled code stay warm between requests).
The pool's contract:

- at most ``size`` jobs run at once; a job that finds every worker busy is refused at once
  (``Busy``: the app's 429), never queued;
- a job not answered within its ``timeout`` seconds has its worker process killed (SIGKILL)
  and reaped before ``CapExceeded`` (the app's 503) is raised: after that no process of the
  job exists, so it uses no CPU; a fresh worker takes its place on the next job;
- a fresh worker's start-up (its interpreter and imports: seconds, more on a loaded machine) is
  not counted in ``timeout``: the job waits up to ``STARTUP_WAIT`` seconds for the worker to
  be ready, and only then does its search's ``timeout`` begin; a worker not ready by then is
  killed and reaped the same way (``CapExceeded``);
- a job whose ``cancel`` event is set while it runs (the app sets it when the client that asked
  has disconnected) has its worker process killed and reaped the same way, within
  ``CANCEL_POLL`` seconds, before ``Cancelled`` is raised: a dropped connection frees its worker;
- a job's LabError comes back as the same LabError (message and status); any other exception
  in a worker comes back as ``WorkerError`` with its one-line message (the app's 500), and the
  worker stays up.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field
from typing import Any, Callable

from multiprocessing.connection import Connection

from searchlab.lab import play_games, trace_player_export, trees
from searchlab.lab.plugins import PLUGINS_ENV, load_plugins, plugins_from_env
from searchlab.lab.requests import LabError


def _jobs() -> dict[str, Callable[[dict], Any]]:
    # called in the worker only: the server process never runs a search
    return {"trace": trees.trace_request, "export": trace_player_export.export_request,
            "search": play_games.engine_move, "compare": play_games.compare,
            "minimal": play_games.minimal_row}


JOBS = ("trace", "export", "search", "compare", "minimal")


class Busy(Exception):
    """Every worker is running a job."""


class CapExceeded(Exception):
    """The job ran past its timeout; its worker process has been killed and reaped."""


class Cancelled(Exception):
    """The job was cancelled (its client went away); its worker process has been killed and
    reaped."""


#: how often a running job looks at its cancel event (seconds)
CANCEL_POLL = 0.05

#: how long a job waits for a fresh worker to start up (seconds), outside its search's timeout:
#: a cold worker's imports took over 20 s on a loaded 2-core machine, and would otherwise be
#: charged to the first request's wall-clock cap
STARTUP_WAIT = 120.0


class WorkerError(Exception):
    """A job failed in its worker with an exception that is not a LabError."""


def _serve(conn) -> None:
    """A worker's loop: (name, body) in, ("ok", result) / ("lab", message, status) /
    ("error", line) out, until the pipe closes."""
    jobs = _jobs()
    conn.send(("ready",))
    while True:
        try:
            name, body = conn.recv()
        except (EOFError, OSError):
            return
        try:
            conn.send(("ok", jobs[name](body)))
        except LabError as e:
            conn.send(("lab", str(e), e.status))
        except Exception as e:  # noqa: BLE001 - any failure is reported; the worker lives on
            line = (traceback.format_exception_only(type(e), e)[-1].strip())[:300]
            conn.send(("error", line))


@dataclass
class _Worker:
    process: Any
    conn: Any
    ready: bool = False


@dataclass
class WorkerPool:
    """At most ``size`` worker processes, each running one job at a time (module docstring)."""

    size: int
    #: the worker's command line without its socket's fd (tests start a slow worker with it)
    command: tuple = (sys.executable, "-m", "searchlab.lab.workers")
    _idle: list = field(default_factory=list)
    _count: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)
    killed: list = field(default_factory=list)      # pids of workers killed at the cap
    cancelled: list = field(default_factory=list)   # pids of workers killed on cancel
    closed: bool = False
    plugins: tuple = ()                             # plug-in modules (searchlab.lab.plugins)

    def __post_init__(self) -> None:
        if isinstance(self.size, bool) or not isinstance(self.size, int) or self.size < 1:
            raise ValueError(f"size must be an integer >= 1; got {self.size!r}")

    def _start(self) -> _Worker:
        ours, theirs = socket.socketpair()
        try:
            # the plug-in modules the server was given: the worker imports them too
            env = {**os.environ, PLUGINS_ENV: ",".join(self.plugins)} if self.plugins else None
            p = subprocess.Popen([*self.command, str(theirs.fileno())], pass_fds=(theirs.fileno(),),
                                 stdin=subprocess.DEVNULL, env=env)
        finally:
            theirs.close()
        return _Worker(p, Connection(ours.detach()))

    def _take(self) -> _Worker:
        with self._lock:
            if self.closed:
                raise Busy("the lab is shutting down")
            if self._idle:
                return self._idle.pop()
            if self._count >= self.size:
                raise Busy(f"busy: {self.size} searches are running; try again shortly")
            self._count += 1
        try:
            return self._start()
        except BaseException:
            with self._lock:
                self._count -= 1
            raise

    def _give_back(self, w: _Worker) -> None:
        with self._lock:
            self._idle.append(w)

    def _drop(self, w: _Worker, killed: bool, cancelled: bool = False) -> None:
        if w.process.poll() is None:
            w.process.kill()
        w.process.wait(5)               # reaped: no zombie, no process left
        w.conn.close()
        with self._lock:
            self._count -= 1
            if killed:
                self.killed.append(w.process.pid)
            if cancelled:
                self.cancelled.append(w.process.pid)
        self.start()                    # its replacement warms up before the next request

    def start(self) -> None:
        """Start workers up to ``size`` (idle, warming up): the app calls it at startup so
        that the first search does not wait for a worker's imports."""
        while True:
            with self._lock:
                if self.closed or self._count >= self.size:
                    return
                self._count += 1
            try:
                w = self._start()
            except BaseException:
                with self._lock:
                    self._count -= 1
                raise
            self._give_back(w)

    def run(self, name: str, body: dict, timeout: float,
            cancel: threading.Event | None = None) -> Any:
        """Run job ``name`` on ``body`` in a worker; blocking (the app calls it in a thread).
        Raises Busy, CapExceeded, Cancelled (``cancel`` set meanwhile), LabError or
        WorkerError (module docstring)."""
        if name not in JOBS:
            raise ValueError(f"name must be one of {', '.join(JOBS)}; got {name!r}")
        w = self._take()
        try:
            if not w.ready:                 # a fresh worker: its start-up is not the search's
                try:
                    self._wait(w, time.monotonic() + STARTUP_WAIT, cancel)
                except CapExceeded:
                    raise CapExceeded(f"the search's worker process did not start within "
                                      f"{STARTUP_WAIT:g} s (STARTUP_WAIT)") from None
                w.conn.recv()
                w.ready = True
            deadline = time.monotonic() + timeout
            w.conn.send((name, body))
            self._wait(w, deadline, cancel)
            reply = w.conn.recv()
        except CapExceeded:
            self._drop(w, killed=True)
            raise
        except Cancelled:
            self._drop(w, killed=False, cancelled=True)
            raise
        except (EOFError, OSError) as e:    # the worker died (e.g. out of memory)
            self._drop(w, killed=False)
            raise WorkerError(f"the search's worker process ended unexpectedly ({e!r})") from None
        self._give_back(w)
        if reply[0] == "ok":
            return reply[1]
        if reply[0] == "lab":
            raise LabError(reply[1], reply[2])
        raise WorkerError(reply[1])

    @staticmethod
    def _wait(w: _Worker, deadline: float, cancel: threading.Event | None) -> None:
        """Until the worker has something to say; CapExceeded past ``deadline``, Cancelled
        once ``cancel`` is set (looked at every CANCEL_POLL seconds)."""
        while True:
            if cancel is not None and cancel.is_set():
                raise Cancelled
            left = max(0.0, deadline - time.monotonic())
            if w.conn.poll(min(left, CANCEL_POLL) if cancel is not None else left):
                return
            if time.monotonic() >= deadline:
                raise CapExceeded

    def pids(self) -> list[int]:
        """The pids of the idle workers (the running ones are not listed)."""
        with self._lock:
            return [w.process.pid for w in self._idle]

    def close(self) -> None:
        """End every idle worker (running jobs end with their requests)."""
        with self._lock:
            idle, self._idle, self.closed = self._idle, [], True
        for w in idle:
            w.conn.close()              # the worker's recv() sees EOF and returns
            try:
                w.process.wait(2)
            except subprocess.TimeoutExpired:
                w.process.kill()
                w.process.wait(2)
            with self._lock:
                self._count -= 1


if __name__ == "__main__":          # a worker: python -m searchlab.lab.workers FD
    signal.signal(signal.SIGINT, signal.SIG_IGN)    # Ctrl-C is the server's; it closes the pipe
    load_plugins(plugins_from_env())
    _serve(Connection(int(sys.argv[1])))
    os._exit(0)

"""One process owns a run directory: an exclusive lock on ``<run_dir>/.lock``.

The lock is an ``fcntl.flock`` on the file (released by the kernel when its process dies, even
by SIGKILL), and the file records the owner's PID, host and start time. A second process on the
same run directory is refused with one line naming the owner. A lock file left by a dead
process is not a lock (the kernel released it): the next run on the directory, a resume, takes
it over and says so. The file itself is kept (emptied on release): removing it would let two
processes lock two different files of the same name.
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from searchlab.errors import SearchlabError

LOCK_NAME = ".lock"


class RunLockedError(SearchlabError):
    """The run directory is owned by another live process."""


@dataclass
class RunLock:
    """A held lock; ``previous`` is the record of a dead owner that was taken over (or None)."""

    path: Path
    fd: int
    previous: Optional[dict] = None

    def release(self) -> None:
        """Empty the record and release the lock (idempotent)."""
        if self.fd < 0:
            return
        try:
            os.ftruncate(self.fd, 0)
        except OSError:
            pass
        os.close(self.fd)            # closing the descriptor releases the flock
        self.fd = -1

    def __enter__(self) -> "RunLock":
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def claim_new(base: Path) -> Path:
    """A new, empty directory ``base`` (or ``base_1``, ``base_2``, ... when that one exists),
    created with ``os.mkdir``, which is atomic: two runs started in the same second (their
    timestamps equal) get two directories, never one shared. OSError when the parent cannot be
    created."""
    base = Path(base)
    base.parent.mkdir(parents=True, exist_ok=True)
    k = 0
    while True:
        path = base if k == 0 else base.with_name(f"{base.name}_{k}")
        try:
            path.mkdir()
            return path
        except FileExistsError:
            k += 1


def _record(fd: int) -> Optional[dict]:
    try:
        data = os.pread(fd, 4096, 0)
        return json.loads(data) if data.strip() else None
    except (OSError, ValueError):
        return None


def record(run_dir: Path) -> Optional[dict]:
    """The owner record in run_dir's lock file (None if there is none)."""
    try:
        fd = os.open(Path(run_dir) / LOCK_NAME, os.O_RDONLY)
    except OSError:
        return None
    try:
        return _record(fd)
    finally:
        os.close(fd)


def describe(rec: Optional[dict]) -> str:
    if not rec:
        return "another process"
    return (f"process {rec.get('pid')} on {rec.get('host')} (since {rec.get('started')})")


def acquire(run_dir: Path) -> RunLock:
    """Lock run_dir (created if missing) for this process; RunLockedError when another live
    process holds it. Raises OSError when the directory cannot be written."""
    run_dir = Path(run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    path = run_dir / LOCK_NAME
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        rec = _record(fd)
        os.close(fd)
        raise RunLockedError(
            f"{run_dir} is in use by {describe(rec)}: two processes must not write one run; "
            f"wait for it to finish (then resume with runner.resume={run_dir}) or choose "
            "another directory") from None
    previous = _record(fd)
    mine = {"pid": os.getpid(), "host": socket.gethostname(),
            "started": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
    blob = json.dumps(mine).encode()
    os.ftruncate(fd, 0)
    os.pwrite(fd, blob, 0)
    os.fsync(fd)
    return RunLock(path, fd, previous)


def pid_alive(pid: object) -> bool:
    """Whether a process of this id runs on this host."""
    if not isinstance(pid, int) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def owner(run_dir: Path) -> Optional[str]:
    """Who holds run_dir's lock right now (a description), or None if nobody does. Creates
    nothing: a missing directory or lock file, or the record of a dead process on this host,
    means no owner (the lock is probed only when its recorded owner may be alive, so the probe
    cannot get in the way of a run starting)."""
    path = Path(run_dir) / LOCK_NAME
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        rec = _record(fd)
        if not rec or (rec.get("host") == socket.gethostname() and not pid_alive(rec.get("pid"))):
            return None
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return describe(rec)
        except OSError:
            return None
        return None
    finally:
        os.close(fd)

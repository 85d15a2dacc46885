"""Provenance written beside every table: package version, git commit and dirty flag, a hash of
the package's installed sources, library versions, machine; one entry per session (a resumed
run has several). The source hash identifies the code where git cannot: a run from an
installed wheel records ``commit: "unknown"``, but its ``version`` and ``source_hash`` name
exactly the code that ran."""

from __future__ import annotations

import hashlib
import json
import os
import platform
import shlex
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Any, Iterator

#: Where the package was imported from; its git checkout (if any) gives the commit.
ROOT = Path(__file__).resolve().parents[2]

LIBRARIES = ("searchlab", "numpy", "numba", "pandas", "pyarrow", "joblib", "hydra-core",
             "omegaconf", "dask", "distributed", "tqdm", "scipy")


@lru_cache(maxsize=1)
def version() -> str:
    try:
        return metadata.version("searchlab")
    except metadata.PackageNotFoundError:
        return "unknown"


#: the package folder whose sources source_hash covers
PACKAGE = Path(__file__).resolve().parents[1]


@lru_cache(maxsize=1)
def source_hash() -> str:
    """``sha256:`` + the first 16 hex digits of SHA-256 over the package's source files
    (``*.py`` and ``*.yaml`` under the imported searchlab folder, in sorted relative-path order,
    each as its path and its bytes): equal for the same code whether run from a checkout or
    an installed wheel; caches and compiled files do not enter."""
    h = hashlib.sha256()
    files = sorted(p for ext in ("*.py", "*.yaml") for p in PACKAGE.rglob(ext)
                   if "__pycache__" not in p.parts)
    for p in files:
        h.update(p.relative_to(PACKAGE).as_posix().encode() + b"\0")
        h.update(p.read_bytes() + b"\0")
    return "sha256:" + h.hexdigest()[:16]


def _git(*args: str) -> str | None:
    try:
        out = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True,
                             timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() if out.returncode == 0 else None


@lru_cache(maxsize=1)
def git_state() -> tuple[str, bool]:
    """(commit, dirty): the checkout's HEAD ("none" before the first commit, "unknown" outside
    git) and whether tracked or untracked files differ from it."""
    if _git("rev-parse", "--is-inside-work-tree") != "true":
        return "unknown", False
    head = _git("rev-parse", "HEAD") or "none"
    status = _git("status", "--porcelain", "--untracked-files=normal", "--", "searchlab",
                  "pyproject.toml")
    return head, bool(status)


def commit_label() -> str:
    """The ``commit`` column: the commit hash, with "+dirty" when the checkout differs."""
    head, dirty = git_state()
    return head + ("+dirty" if dirty else "")


def libraries() -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    for lib in LIBRARIES:
        try:
            out[lib] = metadata.version(lib)
        except metadata.PackageNotFoundError:
            out[lib] = None
    return out


def machine() -> dict[str, Any]:
    return {
        "hostname": socket.gethostname(), "platform": platform.platform(),
        "machine": platform.machine(), "processor": platform.processor(),
        "cpu_count": os.cpu_count(),
        "affinity": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None,
        "python": sys.version.split()[0],
    }


_COMMAND: ContextVar[str | None] = ContextVar("searchlab_command", default=None)


@contextmanager
def command_line(command: str) -> Iterator[None]:
    """Within the block, runs record ``command`` as the command line that started them (the
    Python API's equivalent ``searchlab experiment=... key=value`` line, say)."""
    token = _COMMAND.set(command)
    try:
        yield
    finally:
        _COMMAND.reset(token)


def command() -> str:
    """The command line that started this run: the one set by :func:`command_line`, else this
    process's (``searchlab experiment=quick sweep.b=[2,4]``), shell-quoted."""
    given = _COMMAND.get()
    if given:
        return given
    argv = list(sys.argv) or [""]
    return shlex.join([Path(argv[0]).name, *argv[1:]])


def session_record(n_jobs: Any, backend: str, tasks_to_run: int, resumed: bool,
                   seed: int | None = None) -> dict[str, Any]:
    """One session's provenance: when, which code (version, commit, source hash), the root
    ``seed``, the ``command`` line that started it, the runner, libraries and machine."""
    head, dirty = git_state()
    return {
        "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "version": version(), "commit": head,
        "dirty": dirty, "source_hash": source_hash(), "seed": seed, "command": command(),
        "backend": backend, "n_jobs": n_jobs, "tasks_to_run": tasks_to_run,
        "resumed": resumed, "libraries": libraries(), "machine": machine(),
        "argv": sys.argv,
    }


def run_header(run_dir: Path) -> str:
    """The line a run's report opens with: the root seed and the command line of its first
    session, and of the last when it was resumed with another (from provenance.json); '' when
    the run records neither (runs from before they were recorded)."""
    try:
        data = json.loads((Path(run_dir) / "provenance.json").read_text())
    except (OSError, ValueError):
        return ""
    sessions = [x for x in data.get("sessions", []) if isinstance(x, dict)]
    if not sessions or not any("command" in x or "seed" in x for x in sessions):
        return ""
    first, last = sessions[0], sessions[-1]
    seed = first.get("seed")
    text = f"Seed {seed}" if seed is not None else "Seed not recorded"
    if first.get("command"):
        text += f"; run by `{first['command']}`"
    if len(sessions) > 1 and last.get("command") and last.get("command") != first.get("command"):
        text += f"; resumed by `{last['command']}`"
    return text + " (provenance.json)."


def write_json_atomic(path: Path, data: Any) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "w") as f:
        json.dump(data, f, indent=2, sort_keys=False, default=str)
        f.write("\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def new_run_id(config_hash: str) -> str:
    """A new run's id: unique per creation (time, process, 8 random bytes), not a seed of any
    measurement (every measurement's randomness derives from the config's seed)."""
    raw = f"{config_hash}|{time.time_ns()}|{os.getpid()}|{os.urandom(8).hex()}"
    return hashlib.blake2b(raw.encode(), digest_size=8).hexdigest()


def run_identity(run_dir: Path) -> dict[str, str] | None:
    """{"config_hash", "run_id"} of the run in run_dir (its provenance.json), None if it has
    none (an older run, or not a run)."""
    try:
        data = json.loads((Path(run_dir) / "provenance.json").read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or not data.get("run_id"):
        return None
    return {"config_hash": str(data.get("config_hash")), "run_id": str(data["run_id"])}


def add_session(run_dir: Path, config_hash: str, session: dict[str, Any]) -> None:
    path = Path(run_dir) / "provenance.json"
    data: dict[str, Any] = {}
    if path.exists():
        try:
            data = json.loads(path.read_text())
        except (OSError, ValueError):
            data = {}
    data.setdefault("config_hash", config_hash)
    # the run's identity, fixed when the run is created and kept by every resume: each part
    # carries it (store.PartWriter), so load() can tell a part of another run from this run's
    data.setdefault("run_id", new_run_id(config_hash))
    data["version"], data["commit"] = session["version"], session["commit"]
    data["source_hash"] = session.get("source_hash")
    data["dirty"] = session["dirty"]
    # the seed and the command line that created the run (each session keeps its own too)
    data.setdefault("seed", session.get("seed"))
    data.setdefault("command", session.get("command"))
    data["libraries"], data["machine"] = session["libraries"], session["machine"]
    data.setdefault("sessions", []).append(session)
    write_json_atomic(path, data)


def finish_session(run_dir: Path, info: dict[str, Any]) -> None:
    path = Path(run_dir) / "provenance.json"
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return
    if data.get("sessions"):
        data["sessions"][-1].update(info)
    write_json_atomic(path, data)

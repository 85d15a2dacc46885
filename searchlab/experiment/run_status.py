"""Is a directory a run, and is the run complete and undamaged?

A *run directory* holds ``table/`` (the Parquet parts) and, from its first session on,
``manifest.json``: written when a session starts (tasks planned, ``complete: false``) and again
when it ends (rows, status counts, ``complete``). A run killed midway keeps the starting
manifest, so its tasks done / planned are known. Runs written before the starting manifest
existed have none until a session ends: their completeness is unknown (``planned`` None).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

import pyarrow.parquet as pq

from searchlab.errors import SearchlabError

MANIFEST = "manifest.json"
TABLE_DIR = "table"


class NotARunError(SearchlabError, FileNotFoundError):
    """The path is not a run directory (nor a folder of runs, where those are accepted)."""


class IncompleteRunError(SearchlabError):
    """The run is incomplete (tasks missing) or damaged (a part cannot be read); the message
    says which, and how to accept the partial data explicitly."""


@dataclass
class RunStatus:
    """What a run holds against what it planned."""

    run_dir: Path
    planned: Optional[int]               # tasks planned (None: no manifest, unknown)
    done: int                            # distinct tasks with a row in a readable part
    damaged: list[str] = field(default_factory=list)   # unreadable part names
    recorded_complete: bool = False      # manifest.json says the run finished all its tasks
    missing: list[str] = field(default_factory=list)   # parts manifest.json lists that are gone

    @property
    def complete(self) -> bool:
        return not self.damaged and not self.missing and (self.planned is None
                                                          or self.done >= self.planned)

    def problem(self) -> Optional[str]:
        """One line saying what is missing or damaged; None for a complete run."""
        parts = []
        if self.planned is not None and self.done < self.planned and self.recorded_complete:
            parts.append(f"missing parts: its manifest.json records a complete run of "
                         f"{self.planned} tasks, but {self.run_dir / TABLE_DIR} holds rows of "
                         f"{self.done} (table files deleted or moved)")
        elif self.planned is not None and self.done < self.planned:
            parts.append(f"incomplete: {self.done} of {self.planned} tasks done (killed, or "
                         "still running)")
        if self.missing:
            parts.append(f"missing {len(self.missing)} part(s) its manifest.json lists "
                         f"({', '.join(self.missing[:3])}{' ...' if len(self.missing) > 3 else ''}: "
                         "deleted or moved)")
        if self.damaged:
            parts.append(f"damaged: {len(self.damaged)} part(s) cannot be read "
                         f"({', '.join(self.damaged[:3])}{' ...' if len(self.damaged) > 3 else ''})")
        return f"run {self.run_dir} is " + "; ".join(parts) if parts else None


def is_run(path: Path) -> bool:
    """Whether path is a run directory (it holds table/)."""
    return (Path(path) / TABLE_DIR).is_dir()


def runs_below(path: Path) -> list[Path]:
    """The run directories at or below path, sorted."""
    return sorted(t.parent for t in Path(path).rglob(TABLE_DIR) if t.is_dir())


def damaged_parts(run_dir: Path) -> list[str]:
    """Names of the run's parts whose Parquet footer cannot be read (truncated, corrupt)."""
    bad = []
    for p in sorted((Path(run_dir) / TABLE_DIR).glob("part-*.parquet")):
        try:
            pq.read_metadata(p)
        except Exception:  # noqa: BLE001 -- any decoding error: damaged
            bad.append(p.name)
    return bad


def planned_tasks(run_dir: Path) -> Optional[int]:
    """Tasks the run planned (from manifest.json), or None when unknown."""
    try:
        value = json.loads((Path(run_dir) / MANIFEST).read_text()).get("tasks")
    except (OSError, ValueError, AttributeError):
        return None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def recorded_parts(run_dir: Path) -> dict[str, list[str]]:
    """The parts manifest.json lists, by folder (``{"table": [names]}``): the parts the run held
    when its last session started or ended; {} for a run written before manifests listed them."""
    try:
        parts = json.loads((Path(run_dir) / MANIFEST).read_text()).get("parts")
    except (OSError, ValueError, AttributeError):
        return {}
    if not isinstance(parts, dict):
        return {}
    return {str(k): [str(n) for n in v] for k, v in parts.items() if isinstance(v, list)}


def part_names(run_dir: Path, folders: "tuple[str, ...] | list[str]") -> dict[str, list[str]]:
    """The part files in each of the run's ``folders`` (manifest.json's ``parts``)."""
    out = {}
    for f in folders:
        d = Path(run_dir) / f
        out[f] = sorted(p.name for p in d.glob("part-*.parquet")) if d.is_dir() else []
    return out


def recorded_complete(run_dir: Path) -> bool:
    """Whether the run's manifest.json says it finished (``complete: true``)."""
    try:
        return json.loads((Path(run_dir) / MANIFEST).read_text()).get("complete") is True
    except (OSError, ValueError, AttributeError):
        return False


def check_not_all_failed(failed: list[dict], ran: int, run_dir: Path,
                         error: type[Exception]) -> None:
    """Raise ``error`` (its message the first failure's) when every one of the ``ran`` tasks of
    a session failed (``failed``: the failures' records, each with ``label``/``task_id`` and
    ``error``): a run whose every task failed measured nothing and must not exit 0. Some
    failures among successes are recorded in the table and the manifest, and the run goes on."""
    if ran <= 0 or len(failed) < ran:
        return
    first = failed[0]
    what = first.get("label") or first.get("task_id") or "the first task"
    # a row's error is "Type: message | traceback" (runner.py); the message is the first part
    msg = str(first.get("error") or "unknown error").split(" | ")[0].strip().splitlines()
    raise error(f"every task failed ({len(failed)} of {ran}); the first, {what}: "
                f"{msg[0] if msg else 'unknown error'} (the failures are listed in "
                f"{Path(run_dir) / MANIFEST})")


def refusal(status: RunStatus, how: str) -> str:
    """The one-line error for an incomplete or damaged run; ``how`` names the opt-in."""
    return (f"{status.problem()}; resume it with runner.resume={status.run_dir}, or accept the "
            f"partial data with {how}")

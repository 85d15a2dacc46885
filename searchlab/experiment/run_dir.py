"""What :func:`searchlab.experiment.api.run_study` returns: the run directory as a ``Path``
(every path operation, ``searchlab.load(run)``) that shows itself in a notebook.

``repr(run)`` is one line (the folder, the study, its kind, rows and whether it is complete,
from manifest.json); ``run._repr_html_()`` a small table with the seed and the command line
from provenance.json and a link to report.md. A path derived from it (``run / "report.md"``)
shows as a plain path.
"""

from __future__ import annotations

import html
import json
from pathlib import Path, PosixPath, WindowsPath
from typing import Any

__all__ = ["RunDir"]

_Base = WindowsPath if isinstance(Path(), WindowsPath) else PosixPath


def _json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


class RunDir(_Base):
    """A run directory (a ``pathlib.Path``) with a short repr and an HTML repr."""

    def manifest(self) -> dict[str, Any]:
        """The run's manifest.json ({} when it has none)."""
        return _json(Path(self) / "manifest.json")

    def provenance(self) -> dict[str, Any]:
        """The run's provenance.json ({} when it has none)."""
        return _json(Path(self) / "provenance.json")

    def _facts(self) -> dict[str, Any] | None:
        m = self.manifest()
        if not m:
            return None
        p = self.provenance()
        rows = m.get("rows", m.get("tasks_done", m.get("tasks")))
        return {"experiment": m.get("experiment"), "kind": m.get("kind", "sweep"), "rows": rows,
                "complete": m.get("complete"), "seed": p.get("seed"), "command": p.get("command"),
                "seconds": m.get("session_seconds")}

    def __repr__(self) -> str:
        f = self._facts()
        if f is None:                      # a path inside a run, or not a run (yet)
            return f"{_Base.__name__}({str(self)!r})"
        rows = f"{f['rows']:,} rows" if isinstance(f["rows"], int) else "rows unknown"
        state = "complete" if f["complete"] else "incomplete" if f["complete"] is False else "state unknown"
        return f"RunDir({str(self)!r}: {f['kind']} {f['experiment']}, {rows}, {state})"

    def _repr_html_(self) -> str:
        f = self._facts()
        if f is None:
            return f"<code>{html.escape(str(self))}</code>"
        cells = [("run", str(self)), ("study", f"{f['experiment']} ({f['kind']})"),
                 ("rows", f"{f['rows']:,}" if isinstance(f["rows"], int) else "unknown"),
                 ("complete", {True: "yes", False: "no"}.get(f["complete"], "unknown")),
                 ("seed", "not recorded" if f["seed"] is None else str(f["seed"])),
                 ("command", f["command"] or "not recorded")]
        if isinstance(f["seconds"], (int, float)):
            cells.append(("seconds", f"{f['seconds']:.1f}"))
        body = "".join(f"<tr><th style='text-align:left'>{k}</th><td><code>{html.escape(v)}</code></td></tr>"
                       for k, v in cells)
        report = Path(self) / "report.md"
        link = (f"<a href='{html.escape(report.as_posix())}'>report.md</a>" if report.exists()
                else "no report.md yet")
        return f"<table>{body}</table><p>{link}</p>"

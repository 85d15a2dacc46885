"""Reading an entry-point group of installed plug-ins, the one way every eager registry does it
(games, ordering components, pruning families, search algorithms)."""

from __future__ import annotations

from importlib import metadata
from typing import Any, Callable


def load_entry_points(group: str, add: Callable[[Any, Any], None], errors: dict[str, str]) -> None:
    """Hand every entry point of ``group`` and the object it loads to ``add(entry_point,
    obj)``. An entry point that fails to load, or that ``add`` refuses (any exception: a name
    taken, an object of the wrong kind), is recorded in ``errors`` under its name as
    ``"ExceptionType: message"`` and skipped: a broken plug-in must not hide the others."""
    for ep in metadata.entry_points(group=group):
        try:
            add(ep, ep.load())
        except Exception as exc:  # noqa: BLE001 -- recorded, reported by plugin_errors()
            errors[ep.name] = f"{type(exc).__name__}: {exc}"


__all__ = ["load_entry_points"]

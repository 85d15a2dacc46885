"""The registry of study kinds, by name: which config section selects a kind and where its
record (a :class:`~searchlab.experiment.study_kind.StudyKind`) is declared.

The engine imports no study family: a kind is named here by a ``module:attribute`` string and
imported the first time it is asked for, so choosing the kind of a config (``--cfg``,
``--plan``) imports that kind only, and ``searchlab.load`` imports the kinds only for a part
that is not a search row. The built-in kinds and the plug-ins (entry points of the group
``searchlab.studies``: ``NAME = "mypkg.mystudy:KIND"``, selected by a config section named
``NAME``) go through the same loader.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from importlib import metadata
from typing import Any, Mapping, Optional

from searchlab.errors import InvalidParameterError

#: the entry-point group of plug-in study kinds
ENTRY_POINT_GROUP = "searchlab.studies"


@dataclass(frozen=True)
class KindRef:
    """A study kind before it is imported: ``name``; ``section``, the config section that
    selects it (None: the sweep, the default); ``target``, ``module:attribute`` of its
    StudyKind record."""

    name: str
    section: Optional[str]
    target: str


#: The built-in kinds, in dispatch order (the sweep last: it has no section of its own).
BUILT_IN: tuple[KindRef, ...] = (
    KindRef("tradeoff", "tradeoff", "searchlab.studies.tradeoff.tradeoff_kind:KIND"),
    KindRef("parallel", "parallel", "searchlab.studies.parallel.parallel_kind:KIND"),
    KindRef("claim_study", "claim_study", "searchlab.studies.claim_study.claim_kind:KIND"),
    KindRef("sweep", None, "searchlab.studies.sweep.sweep_kind:KIND"),
)

_LOADED: dict[str, Any] = {}


def kind_refs() -> tuple[KindRef, ...]:
    """Every kind, not imported: the built-ins' sectioned kinds, then the plug-ins (section =
    the entry point's name), the sweep last."""
    names = {r.name for r in BUILT_IN}
    plugins = tuple(KindRef(ep.name, ep.name, ep.value)
                    for ep in metadata.entry_points(group=ENTRY_POINT_GROUP)
                    if ep.name not in names)
    return BUILT_IN[:-1] + plugins + BUILT_IN[-1:]


def resolve(target: str) -> Any:
    """The object a ``module:attribute`` string names (imported on first use)."""
    module, _, attr = target.partition(":")
    obj = importlib.import_module(module)
    for part in filter(None, attr.split(".")):
        obj = getattr(obj, part)
    return obj


def load_kind(ref: KindRef) -> Any:
    """The StudyKind record ``ref`` names (imported once)."""
    if ref.name not in _LOADED:
        kind = resolve(ref.target)
        if getattr(kind, "name", None) != ref.name:
            raise InvalidParameterError(f"study kind {ref.name!r}: {ref.target} is not a StudyKind "
                                        f"named {ref.name!r}")
        _LOADED[ref.name] = kind
    return _LOADED[ref.name]


def study_kind(name: str) -> Any:
    """The kind called ``name`` (InvalidParameterError naming the registered kinds)."""
    refs = kind_refs()
    for r in refs:
        if r.name == name:
            return load_kind(r)
    raise InvalidParameterError(f"study kind must be one of {', '.join(r.name for r in refs)}; "
                                f"got {name!r}")


def study_kinds() -> tuple[Any, ...]:
    """Every kind's record, in dispatch order (imports them all)."""
    return tuple(load_kind(r) for r in kind_refs())


def section_kind(cfg: Mapping[str, Any]) -> Any:
    """The kind of a composed config: the first whose section is set, else the sweep; only
    that kind is imported."""
    ref = next(r for r in kind_refs() if r.section is None or cfg.get(r.section) is not None)
    return load_kind(ref)


def study_table_kinds() -> dict[str, tuple]:
    """The tables the study kinds write beside the search rows, for ``searchlab.load``:
    name -> (schema, key columns) of every kind's ``table_kinds``."""
    out: dict[str, tuple] = {}
    for kind in study_kinds():
        out.update(getattr(kind, "table_kinds", None) or {})
    return out


__all__ = ["ENTRY_POINT_GROUP", "KindRef", "BUILT_IN", "kind_refs", "resolve", "load_kind",
           "study_kind", "study_kinds", "section_kind", "study_table_kinds"]

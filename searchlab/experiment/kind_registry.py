"""The registry of study kinds, by name: which config section selects a kind and where its
record (a :class:`~searchlab.experiment.study_kind.StudyKind`) is declared.

The engine imports no study family: a kind is named here by a ``module:attribute`` string and
imported the first time it is asked for, so choosing the kind of a config (``--cfg``,
``--plan``) imports that kind only, and ``searchlab.load`` imports the kinds only for a part
that is not a search row. The built-in kinds and the plug-ins (entry points of the group
``searchlab.studies``: ``NAME = "mypkg.mystudy:KIND"``, selected by a config section named
``NAME``) go through the same loader.

The config schema's study sections are read here too (:func:`sections`,
:func:`config_schema`): a plug-in kind's section is a key of the schema Hydra composes against,
as the built-ins' are, so a YAML in the user's own config directory selects it.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
from dataclasses import dataclass
from importlib import metadata
from typing import Any, Mapping, Optional

from searchlab.errors import InvalidParameterError
from searchlab.experiment.schema import ExperimentConfig

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


#: the schema's own keys (name, seed, sweep, game, ...): a plug-in named like one of them would
#: shadow it, so such an entry point is left out (plugin_errors() says why)
_SCHEMA_KEYS = frozenset(f.name for f in dataclasses.fields(ExperimentConfig))


def _plugin_entry_points() -> list[Any]:
    return list(metadata.entry_points(group=ENTRY_POINT_GROUP))


def kind_refs() -> tuple[KindRef, ...]:
    """Every kind, not imported: the built-ins' sectioned kinds, then the plug-ins (section =
    the entry point's name), the sweep last. An entry point named like a built-in kind or a
    key of the schema is left out (:func:`plugin_errors`)."""
    names = {r.name for r in BUILT_IN}
    plugins = tuple(KindRef(ep.name, ep.name, ep.value) for ep in _plugin_entry_points()
                    if ep.name not in names and ep.name not in _SCHEMA_KEYS)
    return BUILT_IN[:-1] + plugins + BUILT_IN[-1:]


def plugin_errors() -> dict[str, str]:
    """The entry points of ``searchlab.studies`` left out, by name, with the reason."""
    names = {r.name for r in BUILT_IN}
    return {ep.name: (f"{ep.value}: {ep.name!r} is a built-in study kind or a key of the "
                      f"config schema; name the entry point otherwise")
            for ep in _plugin_entry_points() if ep.name in names or ep.name in _SCHEMA_KEYS}


def sections() -> tuple[str, ...]:
    """The config sections that select a study kind (built-in and plug-in, in dispatch order;
    nothing imported). The sweep's is ``sweep``, always present, so it is not among them."""
    return tuple(r.section for r in kind_refs() if r.section is not None)


def config_schema() -> type:
    """The structured config Hydra composes against: ExperimentConfig itself while only the
    built-in kinds are registered, else a subclass with one optional section (``Any``, null
    by default) per plug-in kind, which the kind checks itself (StudyKind.schema, check)."""
    return _schema_with(tuple(s for s in sections() if s not in _SCHEMA_KEYS))


@functools.lru_cache(maxsize=None)
def _schema_with(extra: tuple[str, ...]) -> type:
    if not extra:
        return ExperimentConfig
    return dataclasses.make_dataclass(
        "ExperimentConfig", [(s, Optional[Any], dataclasses.field(default=None)) for s in extra],
        bases=(ExperimentConfig,), namespace={"__doc__": ExperimentConfig.__doc__,
                                             "__module__": ExperimentConfig.__module__})


def resolve(target: str) -> Any:
    """The object a ``module:attribute`` string names (imported on first use)."""
    module, _, attr = target.partition(":")
    obj = importlib.import_module(module)
    for part in filter(None, attr.split(".")):
        obj = getattr(obj, part)
    return obj


def load_kind(ref: KindRef) -> Any:
    """The StudyKind record ``ref`` names (imported once); InvalidParameterError naming the
    kind and its target when it cannot be imported or is not a StudyKind of that name."""
    if ref.name not in _LOADED:
        try:
            kind = resolve(ref.target)
        except (ImportError, AttributeError) as e:   # a plug-in that is not (or no longer) there
            raise InvalidParameterError(f"study kind {ref.name!r}: cannot import {ref.target} "
                                        f"({type(e).__name__}: {e})") from None
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


def section_ref(cfg: Mapping[str, Any]) -> KindRef:
    """The kind of a composed config, not imported: the first whose section is set, else
    the sweep."""
    return next(r for r in kind_refs() if r.section is None or cfg.get(r.section) is not None)


def section_kind(cfg: Mapping[str, Any]) -> Any:
    """The kind of a composed config: the first whose section is set, else the sweep; only
    that kind is imported."""
    return load_kind(section_ref(cfg))


def study_table_kinds() -> dict[str, tuple]:
    """The tables the study kinds write beside the search rows, for ``searchlab.load``:
    name -> (schema, key columns) of every kind's ``table_kinds``."""
    out: dict[str, tuple] = {}
    for kind in study_kinds():
        out.update(getattr(kind, "table_kinds", None) or {})
    return out


__all__ = ["ENTRY_POINT_GROUP", "KindRef", "BUILT_IN", "kind_refs", "plugin_errors", "sections",
           "config_schema", "resolve", "load_kind", "study_kind", "study_kinds", "section_ref",
           "section_kind", "study_table_kinds"]

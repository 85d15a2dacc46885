"""The registry of claim-study families: ``claim_study.family`` value -> where its record
(studies/claim_study/family.py StudyFamily) is declared.

A family is named by a ``module:attribute`` string and imported the first time it is asked
for, so validating one family's config imports that family only. The built-ins and the
plug-ins (entry points of the group ``searchlab.study_families``:
``NAME = "mypkg.mystudy:FAMILY"``) go through the same loader.
"""

from __future__ import annotations

from importlib import metadata

from searchlab.errors import InvalidParameterError
from searchlab.experiment.kind_registry import resolve
from searchlab.studies.claim_study.family import StudyFamily

#: the entry-point group of plug-in claim-study families
ENTRY_POINT_GROUP = "searchlab.study_families"

#: The built-in families: name -> ``module:attribute`` of its record, in the order
#: ``--help`` and the error messages list them.
BUILT_IN: dict[str, str] = {
    "chance": "searchlab.studies.chance.chance_family:FAMILY",
    "multiplayer": "searchlab.studies.multiplayer.multiplayer_family:FAMILY",
    "convergence": "searchlab.studies.rigor.rigor_families:CONVERGENCE",
    "minimal_trees": "searchlab.studies.ordering.ordering_families:MINIMAL_TREES",
    "chess_ordering": "searchlab.studies.ordering.ordering_families:CHESS_ORDERING",
    "ordering_checks": "searchlab.studies.ordering.ordering_families:ORDERING_CHECKS",
    "exact_counts": "searchlab.studies.rigor.rigor_families:EXACT_COUNTS",
    "rigor": "searchlab.studies.rigor.rigor_families:RIGOR",
    "aspiration": "searchlab.studies.ordering.ordering_families:ASPIRATION",
    "mcts": "searchlab.studies.mcts.mcts_family:FAMILY",
}

_LOADED: dict[str, StudyFamily] = {}


def family_targets() -> dict[str, str]:
    """Every family's name -> ``module:attribute``, not imported: the built-ins, then the
    plug-ins' entry points."""
    out = dict(BUILT_IN)
    for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
        out.setdefault(ep.name, ep.value)
    return out


def family_names() -> tuple[str, ...]:
    """The allowed values of ``claim_study.family`` (nothing imported)."""
    return tuple(family_targets())


def family(name: str) -> StudyFamily:
    """The record of family ``name`` (imported once); InvalidParameterError naming the
    registered families."""
    if name not in _LOADED:
        targets = family_targets()
        if name not in targets:
            raise InvalidParameterError(f"claim_study.family must be one of {', '.join(targets)}; "
                                        f"got {name!r}")
        rec = resolve(targets[name])
        if not isinstance(rec, StudyFamily) or rec.name != name:
            raise InvalidParameterError(f"study family {name!r}: {targets[name]} is not a "
                                        f"StudyFamily named {name!r}")
        _LOADED[name] = rec
    return _LOADED[name]


__all__ = ["ENTRY_POINT_GROUP", "BUILT_IN", "family_targets", "family_names", "family"]

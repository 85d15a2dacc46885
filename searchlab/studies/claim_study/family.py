"""A claim-study family as one record, declared in its own folder (``FAMILY`` beside its
steps: studies/chance/chance_family.py, studies/rigor/rigor_families.py, ...) and found by the
registry (studies/claim_study/families.py). The claim study (claim_study.py) plans, stores and
loads a run through the record; its report (claim_study_report.py) summarises and judges
through it. Nothing else names a family."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Optional

import pandas as pd
import pyarrow as pa

from searchlab.studies.claim_study.claim_steps import Step


@dataclass(frozen=True)
class ClaimStudyConfig:
    """A validated ``claim_study`` section with the run's name and seed (plain values)."""

    study: str
    description: str
    family: str                    # a registered family (studies/claim_study/families.py)
    size: str                      # one of the family's sizes (full | small | tiny, ...)
    seed: int
    openings: Optional[int] = None     # multiplayer: Rolit openings (each played in 6 seatings)
    budget: Optional[int] = None       # multiplayer: nodes per move in the Rolit games


@dataclass(frozen=True)
class StudyFamily:
    """One family of the claim study.

    ``name``: its ``claim_study.family`` value; ``title``: its report's heading;
    ``plan(cfg)``: its steps for a ClaimStudyConfig (a function of the config only);
    ``tables``: table kind -> Arrow schema of its rows (without ``task_id``, which the store
    adds), in the order its report lists them; ``sizes``: its allowed ``claim_study.size``
    values; ``summarise(tables, cfg)``: its results from its tables; ``verdicts``: its verdict
    functions (each takes a studies.claims.verdict.Context); ``entries(results)``: the
    ``exact`` entries the verdicts and the section read; ``section(entries, fig_dir, fmt)``:
    its report section (markdown); ``options``: the ``claim_study`` keys beyond family and size
    it takes (ClaimStudyConfig fields); ``skipped()``: notes the plan logs (what a missing
    optional dependency leaves out)."""

    name: str
    title: str
    plan: Callable[[ClaimStudyConfig], list[Step]]
    tables: Mapping[str, pa.Schema]
    sizes: tuple[str, ...]
    summarise: Callable[[dict[str, pd.DataFrame], ClaimStudyConfig], Any]
    verdicts: tuple[Callable[..., Any], ...]
    entries: Callable[[Any], dict]
    section: Callable[[dict, Path, str], str]
    options: frozenset[str] = field(default_factory=frozenset)
    skipped: Optional[Callable[[], list[str]]] = None

    def schema(self, kind: str) -> pa.Schema:
        """The stored schema of table ``kind``: its columns and the task's id."""
        return self.tables[kind].append(pa.field("task_id", pa.string()))


def sized(plan: Callable[..., list[Step]]) -> Callable[[ClaimStudyConfig], list[Step]]:
    """``plan(size, seed)`` as a record's ``plan(cfg)`` (a family without options)."""
    def by_config(cfg: ClaimStudyConfig) -> list[Step]:
        return plan(cfg.size, cfg.seed)
    by_config.__doc__ = plan.__doc__
    return by_config


def summarised(summarise: Callable[..., Any]) -> Callable[[dict, ClaimStudyConfig], Any]:
    """``summarise(tables, size, seed)`` as a record's ``summarise(tables, cfg)``."""
    def by_config(tables: dict, cfg: ClaimStudyConfig) -> Any:
        return summarise(tables, cfg.size, cfg.seed)
    return by_config


def entries_under(name: str) -> Callable[[Any], dict]:
    """A family whose results are its one ``exact`` entry, under its name."""
    def entries(res: Any) -> dict:
        return {name: res}
    return entries


I, F, S, B = pa.int64(), pa.float64(), pa.string(), pa.bool_()

__all__ = ["ClaimStudyConfig", "StudyFamily", "sized", "summarised", "entries_under",
           "I", "F", "S", "B"]

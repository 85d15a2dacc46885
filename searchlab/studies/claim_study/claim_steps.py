"""A study as independent steps whose rows form tables: what the claim-study presets
(studies/claim_study/claim_study.py) run as engine tasks, and what ``run_steps`` runs in-process.

A ``Step`` is one unit of work: ``fn(**kwargs)`` returns a list of row dicts of table
``kind``; ``key`` identifies it within its study (it names the task, so a resumed run skips
the steps whose rows are stored). A study's summary is a function of its tables only, so the
numbers are the same however the steps ran (in order, in parallel, across resumed sessions).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import pandas as pd


@dataclass(frozen=True)
class Step:
    kind: str                         # the table the rows go to
    key: tuple                        # the step's identity within the study
    fn: Callable[..., list[dict]]     # a module-level function (picklable for the workers)
    kwargs: dict[str, Any]
    work: int = 1                     # relative cost, for the runner's batching

    @property
    def label(self) -> str:
        return f"{self.kind} " + " ".join(str(k) for k in self.key)

    def run(self) -> list[dict]:
        return self.fn(**self.kwargs)


def run_steps(steps: list[Step], kinds: tuple[str, ...]) -> dict[str, pd.DataFrame]:
    """Every step in order, in this process: table kind -> DataFrame of its rows (every kind
    of ``kinds`` present, empty if no step wrote to it)."""
    rows: dict[str, list[dict]] = {k: [] for k in kinds}
    for s in steps:
        rows[s.kind].extend(s.run())
    return {k: pd.DataFrame(v) for k, v in rows.items()}

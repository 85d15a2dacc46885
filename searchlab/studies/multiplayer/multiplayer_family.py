"""The n-player family of the claim study (``searchlab experiment=multiplayer``; docs/chance-and-
multiplayer.md): its record (studies/claim_study/family.py), found by studies/claim_study/families.py."""

from __future__ import annotations

import pyarrow as pa

from searchlab.studies.claim_study.family import F, I, S, ClaimStudyConfig, StudyFamily
from searchlab.studies.multiplayer import multiplayer_study as MS
from searchlab.studies.multiplayer import multiplayer_verdicts as MP


def _plan(cfg: ClaimStudyConfig) -> list:
    """The steps: trees, then the Rolit match (``openings``, ``budget``: the config's options)."""
    return MS.multiplayer_steps(cfg.size, cfg.seed, openings=cfg.openings, budget=cfg.budget)


FAMILY = StudyFamily(
    name="multiplayer", title="three or more players: max^n, paranoid, best-reply search",
    plan=_plan,
    tables={
        "leaves": pa.schema([("players", I), ("b", I), ("d", I), ("instance", I), ("algorithm", S),
                             ("leaves", I), ("nodes", I), ("cutoffs", I)]),
        "games": pa.schema([("opening", I), ("seats", S), ("player", I), ("algorithm", S), ("share", F),
                            ("discs", I), ("depth", F)]),
        "cc": pa.schema([("players", I), ("position", I), ("algorithm", S), ("d", I), ("leaves", I),
                         ("nodes", I), ("cutoffs", I), ("branching", I), ("keeps_turn", I)]),
    },
    sizes=tuple(MS.SIZES),
    summarise=lambda t, c: MS.summarise(t, c.size, c.seed, budget=c.budget),
    verdicts=MP.VERDICTS, entries=MP.exact_entries,
    section=lambda e, fig_dir, fmt: MP.multiplayer_section(e["multiplayer"]),
    options=frozenset({"openings", "budget"}), skipped=MS.skipped)

"""The chance-node family of the claim study (``searchlab experiment=chance``; docs/chance-and-
multiplayer.md): its record (studies/claim_study/family.py), found by studies/claim_study/families.py."""

from __future__ import annotations

import pyarrow as pa

from searchlab.studies.chance import chance_study as CS
from searchlab.studies.chance import chance_verdicts as CH
from searchlab.studies.claim_study.family import F, I, S, StudyFamily, sized


FAMILY = StudyFamily(
    name="chance", title="chance nodes: expectiminimax, Star1, Star2",
    plan=sized(CS.chance_steps),
    tables={
        "growth": pa.schema([("b", I), ("n", I), ("d", I), ("spread", F), ("instance", I), ("algorithm", S),
                             ("nodes", I), ("leaves", I), ("chance_nodes", I), ("value", F)]),
        "relabel": pa.schema([("variant", S), ("position", I), ("algorithm", S), ("relabelling", S),
                              ("trials", I), ("changed", I), ("share", F), ("lo", F), ("hi", F)]),
        "pig": pa.schema([("depth", I), ("value", F), ("expectiminimax", I), ("star1", I), ("star2", I)]),
        "ludo": pa.schema([("move", S), ("move_value", F), ("best", S), ("value", F), ("nodes", I),
                           ("leaves", I), ("chance_nodes", I)]),
        "orders": pa.schema([("domain", S), ("b", I), ("n", I), ("d", I), ("instance", I), ("position", S),
                             ("ordering", S), ("algorithm", S), ("nodes", I), ("leaves", I), ("emm_nodes", I),
                             ("emm_leaves", I), ("same_value", I)]),
    },
    sizes=tuple(CS.SIZES),
    summarise=lambda t, c: CS.summarise(t, c.size, c.seed),
    verdicts=CH.VERDICTS, entries=CH.exact_entries,
    section=lambda e, fig_dir, fmt: CH.chance_section(e["chance"]))

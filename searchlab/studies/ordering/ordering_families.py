"""The ordering folder's families of the claim study (``experiment=minimal_trees``,
``chess_ordering``, ``ordering_checks``, ``aspiration``): their records
(studies/claim_study/family.py), found by studies/claim_study/families.py."""

from __future__ import annotations

import pyarrow as pa

from searchlab.studies.claim_study.family import (B, F, I, S, StudyFamily, entries_under, sized,
                                                    summarised)
from searchlab.studies.ordering import aspiration_study as AS
from searchlab.studies.ordering import chess_ordering_study as COS
from searchlab.studies.ordering import minimal_trees_study as MT
from searchlab.studies.ordering import ordering_checks as OC
from searchlab.studies.ordering import ordering_checks_study as OCS


MINIMAL_TREES = StudyFamily(
    name="minimal_trees", title="real games against each position's own minimal tree",
    plan=sized(MT.minimal_steps),
    tables={
        "minimal": pa.schema([("game", S), ("instance", I), ("position", S), ("policy", S), ("depth", I),
                              ("status", S), ("nodes", I), ("last_nodes", I), ("q_nodes", I),
                              ("minimal_nodes", I), ("minimal_q_nodes", I), ("tt", B), ("ratio", F)]),
    },
    sizes=tuple(MT.SIZES), summarise=summarised(MT.summarise),
    verdicts=(MT.close_to_own_minimal_tree,), entries=entries_under("minimal_trees"),
    section=lambda e, fig_dir, fmt: MT.section(e["minimal_trees"], fig_dir, fmt))

CHESS_ORDERING = StudyFamily(
    name="chess_ordering", title="chess ordering as engines compose it, and aspiration windows",
    plan=sized(COS.chess_order_steps),
    tables={
        "chess_order": pa.schema([("source", S), ("instance", I), ("position", S), ("variant", S), ("ordering", S),
                                  ("aspiration", F), ("depth", I), ("status", S), ("nodes", I), ("q_nodes", I),
                                  ("cutoffs", I), ("re_searches", I), ("value", F)]),
    },
    sizes=tuple(COS.SIZES), summarise=summarised(COS.summarise),
    verdicts=(COS.captures_aspiration_verdict,), entries=entries_under("chess_ordering"),
    section=lambda e, fig_dir, fmt: COS.section(e["chess_ordering"]))

ORDERING_CHECKS = StudyFamily(
    name="ordering_checks", title="ordering techniques on incremental trees and shallow real games",
    plan=sized(OCS.ordering_steps),
    tables={
        "ordering_search": pa.schema([("domain", S), ("unit", I), ("policy", S), ("value", F), ("branching", F),
                                      ("cpu_seconds", F), ("nodes", F), ("leaves", F), ("last", F), ("fhf", F),
                                      ("cutoffs", F), ("tt_hit", F)]),
        "ordering_aspiration": pa.schema([("unit", I), ("width", S), ("nodes", I), ("cutoffs", I),
                                          ("re_searches", I)]),
        "ordering_table": pa.schema([("unit", I), ("name", S), ("count", I)]),
        "ordering_quiescence": pa.schema([("unit", I), ("name", S), ("swing", F), ("solved", I)]),
    },
    sizes=tuple(OCS.SIZES), summarise=summarised(OCS.summarise), verdicts=(),
    entries=entries_under("ordering_checks"),
    section=lambda e, fig_dir, fmt: OC.ordering_section(e["ordering_checks"]))

ASPIRATION = StudyFamily(
    name="aspiration", title="aspiration windows at several depths in chess, Connect Four and Othello",
    plan=sized(AS.aspiration_steps),
    tables={
        "aspiration": pa.schema([("game", S), ("instance", I), ("position", S), ("depth", I), ("width", F),
                                 ("status", S), ("nodes", I), ("q_nodes", I), ("cutoffs", I), ("re_searches", I),
                                 ("value", F)]),
    },
    sizes=tuple(AS.SIZES), summarise=summarised(AS.summarise),
    verdicts=(COS.captures_aspiration_verdict,), entries=entries_under("aspiration"),
    section=lambda e, fig_dir, fmt: AS.section(e["aspiration"]))

"""The rigor folder's families of the claim study (``experiment=convergence``, ``exact_counts``,
``rigor``): their records (studies/claim_study/family.py), found by studies/claim_study/families.py."""

from __future__ import annotations

import pyarrow as pa

from searchlab.studies.claim_study.family import (F, I, S, StudyFamily, entries_under, sized,
                                                    summarised)
from searchlab.studies.claims import complexity as X
from searchlab.studies.rigor import convergence as CV
from searchlab.studies.rigor import exact_counts as EC
from searchlab.studies.rigor import rigor_study as RS


#: no verdict of its own: it checks the exact expectations 000-f is judged on (analysis/REPORT.md)
CONVERGENCE = StudyFamily(
    name="convergence", title="random-order alpha-beta's finite-depth convergence towards Pearl's R_b",
    plan=sized(CV.convergence_steps),
    tables={
        "paired_leaves": pa.schema([("b", I), ("tree", I), ("d", I), ("leaves", I)]),
    },
    sizes=tuple(CV.SIZES), summarise=summarised(CV.summarise), verdicts=(),
    entries=entries_under("convergence"),
    section=lambda e, fig_dir, fmt: CV.section(e["convergence"], fig_dir, fmt))

EXACT_COUNTS = StudyFamily(
    name="exact_counts",
    title="random-order alpha-beta on i.i.d. trees from exact expectations (DP over the search window)",
    plan=sized(EC.exact_counts_steps),
    tables={
        "exact_bounds": pa.schema([("b", I), ("algorithm", S), ("per_height", I), ("d", I), ("low_nodes", F),
                                   ("low_leaves", F), ("high_nodes", F), ("high_leaves", F), ("cells_even", I),
                                   ("cells_odd", I), ("seconds", F)]),
        "exact_crossover": pa.schema([("b", I), ("K", I), ("d", I), ("growth", F), ("seconds", F)]),
        "exact_critical": pa.schema([("b", I), ("w", F), ("d", I), ("leaves", F), ("growth", F), ("seconds", F)]),
        "exact_check": pa.schema([("cell", I), ("b", I), ("d", I), ("model", S), ("tree", I), ("nodes", I),
                                  ("leaves", I), ("seconds", F)]),
    },
    sizes=tuple(EC.SIZES), summarise=summarised(EC.summarise),
    verdicts=(X.random_order_three_quarters,), entries=entries_under("exact_counts"),
    section=lambda e, fig_dir, fmt: EC.section(e["exact_counts"], fig_dir, fmt=fmt))

RIGOR = StudyFamily(
    name="rigor",
    title="the worst case over all orderings, node types, Pearl's critical case, ties and the cut rule",
    plan=sized(RS.rigor_steps),
    tables={
        "worst_case": pa.schema([("b", I), ("d", I), ("method", S), ("tree", I), ("worst_first", I),
                                 ("maximum", I)]),
        "worst_attained": pa.schema([("b", I), ("d", I), ("algorithm", S), ("leaves", I), ("nodes", I),
                                     ("cutoffs", I), ("value", F), ("minimax_value", F)]),
        "node_types": pa.schema([("b", I), ("d", I), ("ordering", S), ("n", I), ("type", S), ("ply", I),
                                 ("nodes", F), ("minimal", I), ("cut_rate", F), ("first_move_share", F),
                                 ("children_per_node", F)]),
        "critical_leaves": pa.schema([("b", I), ("w_index", I), ("tree", I), ("d", I), ("leaves", I)]),
        "cut_rule": pa.schema([("b", I), ("d", I), ("model", S), ("tree", I), ("leaves_ties_cut", I),
                               ("leaves_strict", I), ("tie_cuts", I), ("cut_events", I)]),
        "policy_costs": pa.schema([("domain", I), ("policy", S), ("tree", I), ("nodes", I), ("leaves", I),
                                   ("evaluations", I), ("ordering_evaluations", I), ("tt_probes", I),
                                   ("re_searches", I), ("cost", I), ("value", F)]),
    },
    sizes=tuple(RS.SIZES), summarise=summarised(RS.summarise), verdicts=(),
    entries=entries_under("rigor"), section=lambda e, fig_dir, fmt: RS.section(e["rigor"]))

"""The MCTS family of the claim study (``searchlab experiment=mcts``): its record
(studies/claim_study/family.py), found by studies/claim_study/families.py."""

from __future__ import annotations

import pyarrow as pa

from searchlab.studies.claim_study.family import B, F, I, S, StudyFamily, sized, summarised
from searchlab.studies.mcts import mcts_study as MC


FAMILY = StudyFamily(
    name="mcts", title="alpha-beta against Monte Carlo tree search as b grows, and search traps",
    plan=sized(MC.mcts_steps),
    tables={
        "mcts_games": pa.schema([("study", S), ("domain", S), ("technique", S), ("family", S), ("opponent", S),
                                 ("ordering", S), ("budget", I), ("pair", I), ("opening", S),
                                 ("a_is_max", B), ("result", F), ("ending", S), ("plies", I),
                                 ("a_mean_depth", F), ("b_mean_depth", F), ("a_mean_nodes", F), ("b_mean_nodes", F),
                                 ("wall_seconds", F), ("play", S), ("persist_across_moves", B),
                                 ("budget_mode", S), ("cpu_seconds", F), ("a_cv_nodes", F), ("b_cv_nodes", F)]),
        "mcts_traps": pa.schema([("model", S), ("b", I), ("d", I), ("budget", I), ("family", S), ("trials", I),
                                 ("found", I), ("rate", F)]),
    },
    sizes=tuple(MC.SIZES), summarise=summarised(MC.summarise),
    verdicts=MC.VERDICTS, entries=MC.exact_entries,
    section=lambda e, fig_dir, fmt: MC.section(e, fig_dir, fmt))

"""The report of a claim-study run (``searchlab experiment=chance|multiplayer``): its tables
summarised (studies.chance.chance_study / multiplayer_study.summarise), the family's verdicts
(studies/chance/chance_verdicts.py, studies/multiplayer/multiplayer_verdicts.py) and its report section, into run_dir/report.md.
The same functions make ``python -m searchlab.studies.chance.chance_verdicts|multiplayer``'s output and the
sections of analysis/REPORT.md, so the numbers agree."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from searchlab.studies.chance import chance_study as CS
from searchlab.studies.rigor import convergence as CV
from searchlab.studies.rigor import exact_counts as EC
from searchlab.studies.rigor import rigor_study as RS
from searchlab.studies.mcts import mcts_study as MC
from searchlab.studies.multiplayer import multiplayer_study as MS
from searchlab.studies.ordering import aspiration_study as AS
from searchlab.studies.ordering import chess_ordering_study as COS
from searchlab.studies.ordering import minimal_trees_study as MT
from searchlab.studies.ordering import ordering_checks as OC
from searchlab.studies.ordering import ordering_checks_study as OCS
from searchlab.studies.chance import chance_verdicts as CH
from searchlab.studies.multiplayer import multiplayer_verdicts as MP
from searchlab.studies.claims import complexity as X
from searchlab.studies.claims.verdict import Context
from searchlab.studies.claim_study.claim_study import load_tables, run_config

#: family -> (title, results from the tables, the verdicts, their exact entries, the section
#: (of the entries, the run's figures folder and the figures' format))
FAMILIES = {
    "chance": ("chance nodes: expectiminimax, Star1, Star2",
               lambda t, c: CS.summarise(t, c.size, c.seed), CH.VERDICTS, CH.exact_entries,
               lambda e, fig_dir, fmt: CH.chance_section(e["chance"])),
    "multiplayer": ("three or more players: max^n, paranoid, best-reply search",
                    lambda t, c: MS.summarise(t, c.size, c.seed, budget=c.budget), MP.VERDICTS,
                    MP.exact_entries, lambda e, fig_dir, fmt: MP.multiplayer_section(e["multiplayer"])),
    "convergence": ("random-order alpha-beta's finite-depth convergence towards Pearl's R_b",
                    lambda t, c: CV.summarise(t, c.size, c.seed),
                    (), lambda res: {"convergence": res},
                    lambda e, fig_dir, fmt: CV.section(e["convergence"], fig_dir, fmt)),
    "exact_counts": ("random-order alpha-beta on i.i.d. trees from exact expectations (DP over the search window)",
                     lambda t, c: EC.summarise(t, c.size, c.seed),
                     (X.random_order_three_quarters,), lambda res: {"exact_counts": res},
                     lambda e, fig_dir, fmt: EC.section(e["exact_counts"], fig_dir, fmt=fmt)),
    "rigor": ("the worst case over all orderings, node types, Pearl's critical case, ties and the cut rule",
              lambda t, c: RS.summarise(t, c.size, c.seed), (), lambda res: {"rigor": res},
              lambda e, fig_dir, fmt: RS.section(e["rigor"])),
    "minimal_trees": ("real games against each position's own minimal tree",
                      lambda t, c: MT.summarise(t, c.size, c.seed), (MT.close_to_own_minimal_tree,),
                      lambda res: {"minimal_trees": res},
                      lambda e, fig_dir, fmt: MT.section(e["minimal_trees"], fig_dir, fmt)),
    "chess_ordering": ("chess ordering as engines compose it, and aspiration windows",
                       lambda t, c: COS.summarise(t, c.size, c.seed),
                       (COS.captures_aspiration_verdict,),
                       lambda res: {"chess_ordering": res},
                       lambda e, fig_dir, fmt: COS.section(e["chess_ordering"])),
    "aspiration": ("aspiration windows at several depths in chess, Connect Four and Othello",
                   lambda t, c: AS.summarise(t, c.size, c.seed), (COS.captures_aspiration_verdict,),
                   lambda res: {"aspiration": res}, lambda e, fig_dir, fmt: AS.section(e["aspiration"])),
    "ordering_checks": ("ordering techniques on incremental trees and shallow real games",
                        lambda t, c: OCS.summarise(t, c.size, c.seed), (),
                        lambda res: {"ordering_checks": res},
                        lambda e, fig_dir, fmt: OC.ordering_section(e["ordering_checks"])),
    "mcts": ("alpha-beta against Monte Carlo tree search as b grows, and search traps",
             lambda t, c: MC.summarise(t, c.size, c.seed), MC.VERDICTS, MC.exact_entries,
             lambda e, fig_dir, fmt: MC.section(e, fig_dir, fmt)),
}


def results(run_dir: str | Path) -> dict:
    """The ``exact`` entries of a claim-study run, computed from its tables."""
    cfg = run_config(run_dir)
    _, summarise, _, entries, _ = FAMILIES[cfg.family]
    return entries(summarise(load_tables(run_dir), cfg))


def write_claim_study_report(run_dir: str | Path, fig_format: str = "png") -> Path:
    """Write run_dir/report.md (verdicts with their measurements, then the section's tables
    and figures, as ``fig_format``: png, pdf or svg); returns its path. A run with failed tasks
    gets a note at the top."""
    run_dir = Path(run_dir)
    cfg = run_config(run_dir)
    title, _, verdicts, _, section = FAMILIES[cfg.family]
    exact = results(run_dir)
    manifest = json.loads((run_dir / "manifest.json").read_text())
    out = [f"# {cfg.study}: {title}", "",
           f"Family `{cfg.family}`, size `{cfg.size}`, seed {cfg.seed}; {manifest['tasks']} tasks; "
           f"tables in {', '.join(f'`{k}/`' for k in load_tables(run_dir))}.", ""]
    if not manifest.get("complete"):
        out += [f"**Incomplete run**: {len(manifest.get('failed') or [])} tasks failed; the figures below "
                "lack their rows.", ""]
    ctx = Context(df=pd.DataFrame(), summary=pd.DataFrame(), exact=exact)
    # the convergence study has no verdict of its own: it checks the exact expectations 000-f
    # is judged on (analysis/REPORT.md)
    out += ["## Verdicts", ""] if verdicts else []
    for fn in verdicts:
        v = fn(ctx)
        out += [f"### {fn.__doc__.strip().splitlines()[0]}", "", v.cell(), "",
                f"Measured: {v.measured}", "", f"Theory: {v.theory}", ""]
    fig_dir = run_dir / "figures"
    fig_dir.mkdir(exist_ok=True)
    out += ["## Results", "", section(exact, fig_dir, fig_format), ""]
    path = run_dir / "report.md"
    path.write_text("\n".join(out))
    return path

"""Run the MCTS study family: ``python -m searchlab.studies.mcts --size tiny --out DIR``.

``--part study`` (alpha-beta against MCTS by b: games.csv, summary.csv, elo_by_b.png and the
sign changes in summary.md), ``--part traps`` (traps.csv) or ``--part all``; ``--size`` one of
mcts_study.SIZES: ``tiny`` (seconds), ``small``, ``medium`` (analysis/reproduce.py's part mcts) or
``full`` (the sizes of vs_alphabeta.StudyConfig and traps.TrapsConfig; docs/mcts.md states the
measured cost). ``--seed`` and ``--n-jobs`` override the configs'.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

from searchlab.analysis.markdown_tables import md_table
from searchlab.studies.mcts import traps, vs_alphabeta
from searchlab.studies.mcts.mcts_study import SIZES


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m searchlab.studies.mcts", description=__doc__.splitlines()[0])
    ap.add_argument("--size", choices=tuple(SIZES), default="tiny")
    ap.add_argument("--part", choices=("study", "traps", "all"), default="all")
    ap.add_argument("--out", required=True, help="output directory (created)")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--n-jobs", type=int, default=None)
    ap.add_argument("--no-progress", action="store_true")
    a = ap.parse_args(argv)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    progress = not a.no_progress
    lines = []
    if a.part in ("study", "all"):
        cfg = SIZES[a.size][0]
        cfg = dataclasses.replace(cfg, **({"seed": a.seed} if a.seed is not None else {}),
                                  **({"n_jobs": a.n_jobs} if a.n_jobs is not None else {}))
        games, summary = vs_alphabeta.run(cfg, progress)
        games.to_csv(out / "games.csv", index=False)
        summary.to_csv(out / "summary.csv", index=False)
        vs_alphabeta.figure(summary, out / "elo_by_b.png")
        lines.append("# Alpha-beta against MCTS by b\n")
        cols = ["domain", "b", "budget_label", "pairs", "score", "elo", "elo_lo", "elo_hi", "p_holm",
                "verdict", "gsprt_state", "a_mean_depth", "b_mean_depth"]
        lines.append(md_table(cols, summary[cols].itertuples(index=False)))
        changes = vs_alphabeta.sign_changes(summary)
        lines.append("\nSign changes of Elo(alpha-beta - MCTS) along b: " +
                     ("; ".join(f"{c['budget']}: between {c['from_domain']} (b={c['b_low']:.1f}) and "
                                f"{c['to_domain']} (b={c['b_high']:.1f}), "
                                f"{'both CIs exclude 0' if c['shown'] else 'not shown (a CI contains 0)'}"
                                for c in changes) or "none") + "\n")
    if a.part in ("traps", "all"):
        tcfg = SIZES[a.size][1]
        if a.seed is not None:
            tcfg = dataclasses.replace(tcfg, seed=a.seed)
        df = traps.run(tcfg, progress)
        df.to_csv(out / "traps.csv", index=False)
        lines.append("# Search traps: the minimax move found at equal nodes\n")
        lines.append(md_table(list(df.columns), df.itertuples(index=False)) + "\n")
    (out / "summary.md").write_text("\n".join(lines))
    print(f"wrote {out / 'summary.md'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

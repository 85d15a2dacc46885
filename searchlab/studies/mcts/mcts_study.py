"""The MCTS study family as a claim-study preset (``searchlab experiment=mcts_vs_alphabeta``):
alpha-beta against MCTS by b (vs_alphabeta) and the search traps (traps) as steps of the
engine's runner (studies/claim_study), one step per pairing's chunk of game pairs and per
traps cell; tables ``mcts_games`` (one row per game) and ``mcts_traps`` (one row per cell,
budget and family). The summary is a function of the tables only, so a resumed or parallel
run gives the same numbers as ``python -m searchlab.studies.mcts``.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pandas as pd

from searchlab.analysis.markdown_tables import md_table
from searchlab.studies.claim_study.claim_steps import Step
from searchlab.studies.mcts import traps as T
from searchlab.studies.mcts import vs_alphabeta as V
from searchlab.studies.mcts.mcts_verdict import KEY, MCTS_NODES, go_second_half, judged, sign_change_text

KINDS = ("mcts_games", "mcts_traps")
SMALL = (dataclasses.replace(V.StudyConfig(), hex_sizes=(3, 5, 7, 9, 11), node_budgets=(1_000, 10_000),
                             cpu_seconds=(), openings=20, b_games=50),
         dataclasses.replace(T.TrapsConfig(), bs=(2, 4, 8), ds=(4, 6), trees=10, hex_sizes=(5, 7), hex_positions=5))
#: analysis/reproduce.py's part mcts at full size (the full study is about 2 CPU hours, docs/mcts.md):
#: every second Hex size, both kinds of budget (10^5 nodes left out: Othello's games dominate it),
#: 40 openings per domain; the traps on trees up to depth 8 and Hex 5..9
MEDIUM = (dataclasses.replace(V.StudyConfig(), hex_sizes=(3, 5, 7, 9, 11), node_budgets=(1_000, 10_000),
                              cpu_seconds=(0.05,), openings=40, b_games=100),
          dataclasses.replace(T.TrapsConfig(), ds=(4, 6, 8), trees=20, hex_positions=10))
SIZES: dict[str, tuple[V.StudyConfig, T.TrapsConfig]] = {
    "full": (V.StudyConfig(), T.TrapsConfig()), "medium": MEDIUM, "small": SMALL, "tiny": (V.TINY, T.TINY)}
VERDICTS = (go_second_half,)


def configs(size: str, seed: int) -> tuple[V.StudyConfig, T.TrapsConfig]:
    study, traps = SIZES[size]
    return dataclasses.replace(study, seed=seed), dataclasses.replace(traps, seed=seed)


def game_rows(task: tuple, cfg: V.StudyConfig) -> list[dict]:
    return V.run_task(task, cfg)


def trap_rows(cfg: T.TrapsConfig, model: str, b: int, d: int) -> list[dict]:
    return T.hex_cell_rows(cfg, b) if model == "hex" else T.cell_rows(cfg, model, b, d)


def mcts_steps(size: str = "full", seed: int = 39) -> list[Step]:
    """The study at ``size`` (SIZES) as steps."""
    study, traps = configs(size, seed)
    V.validate(study)
    T.validate(traps)
    steps = [Step("mcts_games", (t[0], t[1], t[2], t[3]), game_rows, dict(task=t, cfg=study),
                  len(t[4]) * 2 * (int(t[2]) if t[1] == "nodes" else 10**5))
             for t in V.tasks(study)]
    steps += [Step("mcts_traps", (m, b, d), trap_rows, dict(cfg=traps, model=m, b=b, d=d), traps.trees * b ** d)
              for m, b, d in T.tree_cells(traps)]
    steps += [Step("mcts_traps", ("hex", n), trap_rows, dict(cfg=traps, model="hex", b=n, d=3),
                   traps.hex_positions * max(traps.budgets))
              for n in traps.hex_sizes]
    return steps


def summarise(tables: dict[str, pd.DataFrame], size: str, seed: int) -> dict[str, Any]:
    """The pairings' summary (vs_alphabeta.summarize), its sign changes and the traps table."""
    study, _ = configs(size, seed)
    games = tables["mcts_games"]
    summary = V.summarize(games, study) if len(games) else pd.DataFrame()
    return {"summary": summary, "changes": V.sign_changes(summary) if len(summary) else [],
            "traps": tables["mcts_traps"]}


def exact_entries(res: dict[str, Any]) -> dict[str, Any]:
    return {KEY: res["summary"], "mcts": res}


COLUMNS = ["domain", "b", "budget_label", "pairs", "score", "elo", "elo_lo", "elo_hi", "p_holm", "verdict",
           "gsprt_state", "a_mean_depth", "b_mean_depth"]


def section(e: dict[str, Any], fig_dir: Path, fmt: str = "png") -> str:
    """The report section: the pairings table, the figure, the sign changes, the traps table."""
    res = e["mcts"]
    s, out = res["summary"], []
    if len(s):
        path = V.figure(s, Path(fig_dir) / f"elo_by_b.{fmt}")
        out += ["Alpha-beta (A) against MCTS (B) per domain and budget: the pentanomial Elo of A minus B "
                "with its 95 % CI, the Holm-adjusted p-value and verdict over every pairing, the GSPRT "
                "(studies/tradeoff/matches.py).", "", md_table(COLUMNS, s[COLUMNS].itertuples(index=False)), "",
                f"![Elo(alpha-beta − MCTS) against b]({Path(path).parent.name}/{Path(path).name})", ""]
        sweeps = judged(s)
        sweeps = sweeps[sweeps["by"] == "sign test"]
        if len(sweeps):
            out += ["Pairings whose Elo CI is open-ended (a clean sweep, or every pair split 1-1: the pentanomial "
                    "has no variance) are judged by an exact sign test on game pairs, Holm over them "
                    "(vs_alphabeta.sign_test_sweeps):", "",
                    md_table(["domain", "b", "budget_label", "pairs", "won", "lost", "p_holm_sign", "reading"],
                             sweeps[["domain", "b", "budget_label", "pairs", "won", "lost", "p_holm_sign",
                                     "reading"]].itertuples(index=False)), ""]
        out += [f"{sign_change_text(s)[:1].upper()}{sign_change_text(s)[1:]}.", "",
                f"Equal nodes: {MCTS_NODES}.", ""]
    t = res["traps"]
    if len(t):
        out += ["Search traps: how often each family plays a minimax move at equal nodes "
                "(studies/mcts/traps.py).", "", md_table(list(t.columns), t.itertuples(index=False)), ""]
    return "\n".join(out)

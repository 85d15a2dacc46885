"""The clock and the machine as the match rows recorded them while the games were played.

Every game row (experiment/table_kinds.py MATCH_GAME_SCHEMA) written since 2026-12-05 holds, measured
during the game: each side's nodes per CPU second over its moves (``a_nps``, ``b_nps``: thread
CPU time), the machine's 1-minute load average at the game's start (``load_avg``) and, under a
CPU-time budget, the clock probe (``probe_cv``, ``probe_nodes``: the sound player's search of
the opening repeated at the game's CPU time per move in fresh sessions; play/clock_noise.py).
Rows from before lack them; their games count as "not recorded".

- ``noise_summary(games)``: per domain and CPU time per move of the CPU-time games, the load
  at the games' start, the probe's CV (the clock's noise alone) and the within-game CV of
  each side's nodes per move (the clock's noise mixed with the positions' own speed);
- ``nps_summary(games)``: per domain, budget condition (equal nodes or equal CPU time per
  move) and technique, the nodes per CPU second of the technique (A) and of sound alpha-beta
  (B) in the same games, and A / B per game;
- ``noise_table`` / ``nps_table``: their markdown.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from searchlab.studies.tradeoff.matches import condition

#: columns measured during the game (absent in older rows)
RUN_COLUMNS = ("a_nps", "b_nps", "load_avg", "probe_cv", "probe_nodes")


def _with_run_columns(games: pd.DataFrame) -> pd.DataFrame:
    g = games.copy()
    for c in RUN_COLUMNS:
        g[c] = g[c].astype(float) if c in g.columns else math.nan
    if "budget_mode" not in g.columns:
        g["budget_mode"] = "nodes"
    g["budget_mode"] = g["budget_mode"].fillna("nodes")
    g["cpu_seconds"] = g["cpu_seconds"].astype(float) if "cpu_seconds" in g.columns else math.nan
    return g


def _quartiles(x: pd.Series) -> tuple[float, float, float]:
    x = x.dropna()
    if not len(x):
        return math.nan, math.nan, math.nan
    q = x.quantile([0.25, 0.5, 0.75]).to_numpy(float)
    return float(q[0]), float(q[1]), float(q[2])


def noise_summary(games: pd.DataFrame) -> pd.DataFrame:
    """One row per (domain, cpu_seconds) of the CPU-time games in ``games`` (game rows):
    games; recorded (games with a load and a probe); load_median, load_min, load_max (1-minute
    load average at the games' start); probe_q1, probe_median, probe_q3 (quartiles over the
    games of the probe's CV of nodes); probe_nodes (mean nodes the probe reached);
    a_cv_nodes, b_cv_nodes (mean over the games of each side's within-game CV of nodes per
    move). Empty (those columns) without CPU-time games."""
    cols = ["domain", "cpu_seconds", "games", "recorded", "load_median", "load_min", "load_max",
            "probe_q1", "probe_median", "probe_q3", "probe_nodes", "a_cv_nodes", "b_cv_nodes"]
    g = _with_run_columns(games)
    g = g[g["budget_mode"] == "cpu"]
    rows = []
    for (dom, secs), part in g.groupby(["domain", "cpu_seconds"], sort=True):
        load = part["load_avg"].dropna()
        q1, med, q3 = _quartiles(part["probe_cv"])
        rows.append(dict(
            domain=dom, cpu_seconds=float(secs), games=len(part),
            recorded=int((part["load_avg"].notna() & part["probe_cv"].notna()).sum()),
            load_median=float(load.median()) if len(load) else math.nan,
            load_min=float(load.min()) if len(load) else math.nan,
            load_max=float(load.max()) if len(load) else math.nan,
            probe_q1=q1, probe_median=med, probe_q3=q3,
            probe_nodes=float(part["probe_nodes"].mean()),
            a_cv_nodes=float(part["a_cv_nodes"].astype(float).mean()),
            b_cv_nodes=float(part["b_cv_nodes"].astype(float).mean())))
    return pd.DataFrame(rows, columns=cols)


def _x(v: float, fmt: str) -> str:
    return format(v, fmt) if math.isfinite(v) else "not recorded"


def noise_table(summary: pd.DataFrame) -> str:
    """Markdown of ``noise_summary``: one line per domain and CPU time per move."""
    lines = ["| domain | CPU s / move | games (recorded) | load at game start: median [min, max] "
             "| clock probe: CV of nodes, quartiles over games | probe's mean nodes | "
             "within-game CV of nodes / move, B / A |", "|---|---|---|---|---|---|---|"]
    for _, r in summary.iterrows():
        load = ("not recorded" if not math.isfinite(r["load_median"]) else
                f"{r['load_median']:.2f} [{r['load_min']:.2f}, {r['load_max']:.2f}]")
        probe = ("not recorded" if not math.isfinite(r["probe_median"]) else
                 f"{r['probe_q1']:.3f} / {r['probe_median']:.3f} / {r['probe_q3']:.3f}")
        lines.append(f"| {r['domain']} | {r['cpu_seconds']:g} | {int(r['games'])} "
                     f"({int(r['recorded'])}) | {load} | {probe} | "
                     f"{_x(r['probe_nodes'], ',.0f')} | {_x(r['b_cv_nodes'], '.3f')} / "
                     f"{_x(r['a_cv_nodes'], '.3f')} |")
    return "\n".join(lines)


def nps_summary(games: pd.DataFrame) -> pd.DataFrame:
    """One row per (domain, condition kind, budget, technique) of ``games`` (game rows):
    kind and budget (matches.condition), games, recorded (games with both sides' nodes per
    CPU second), a_nps and b_nps (median over the recorded games of the technique's and of
    sound alpha-beta's nodes per CPU second in those games), ratio (median over them of
    a_nps / b_nps per game). Sorted by domain, condition and technique."""
    cols = ["domain", "kind", "budget", "technique", "games", "recorded", "a_nps", "b_nps",
            "ratio"]
    g = _with_run_columns(games)
    if not len(g):
        return pd.DataFrame(columns=cols)
    cond = [condition(m, b, c) for m, b, c in zip(g["budget_mode"], g["budget"], g["cpu_seconds"])]
    g["kind"] = [k for k, _ in cond]
    g["budget_text"] = [b for _, b in cond]
    # equal nodes before equal CPU time, then by the budget's size
    g["_rank"] = (g["budget_mode"] == "cpu").astype(int)
    g["_order"] = np.where(g["budget_mode"] == "cpu", g["cpu_seconds"], g["budget"].astype(float))
    rows = []
    for (dom, _, _, kind, budget, tech), part in g.groupby(
            ["domain", "_rank", "_order", "kind", "budget_text", "technique"], sort=True):
        ok = part[part["a_nps"].notna() & part["b_nps"].notna() & (part["b_nps"] > 0)]
        rows.append(dict(domain=dom, kind=kind, budget=budget, technique=tech,
                         games=len(part), recorded=len(ok),
                         a_nps=float(ok["a_nps"].median()) if len(ok) else math.nan,
                         b_nps=float(ok["b_nps"].median()) if len(ok) else math.nan,
                         ratio=float((ok["a_nps"] / ok["b_nps"]).median()) if len(ok)
                         else math.nan))
    return pd.DataFrame(rows, columns=cols)


def nps_table(summary: pd.DataFrame) -> str:
    """Markdown of ``nps_summary``: one line per domain, condition and technique."""
    lines = ["| domain | condition | budget | technique (A) | games (recorded) | A: nodes / CPU s "
             "(median) | sound alpha-beta (B) in the same games | A / B per game (median) |",
             "|---|---|---|---|---|---|---|---|"]
    for _, r in summary.iterrows():
        lines.append(f"| {r['domain']} | {r['kind']} | {r['budget']} | {r['technique']} | "
                     f"{int(r['games'])} ({int(r['recorded'])}) | {_x(r['a_nps'], ',.0f')} | "
                     f"{_x(r['b_nps'], ',.0f')} | {_x(r['ratio'], '.3f')} |")
    return "\n".join(lines)

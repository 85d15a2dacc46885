"""The tuning study's report (tuning_study.py) and the time-control matches' statement of the
clock and its noise: markdown computed from the runs' ``games/`` tables only.

- ``tuning_section(tune_dir, confirm_dir)``: per domain and technique family every grid
  setting's tuning match (pairs, pentanomial counts, score, Elo with its 95 % CI, depth
  bought, node ratio), the setting chosen (highest score, ties: the first of the grid order:
  tuning_study.chosen_settings) and its confirmation match at the longer budget on the
  disjoint openings: Elo with its CI, Holm over the confirmation pairings, the GSPRT (H0 0 /
  H1 +20 Elo) and the verdict words of match_words.pairing_words. The tuning matches' Elo is
  biased upwards by the choice (a winner's curse): only the confirmation is judged.
- ``time_control_section(run_dir)``: a CPU-time run's clock (from the rows' ``clock``), the
  time per move, each side's spread of nodes per move (coefficient of variation per game,
  mean and quartiles over the games) beside the mean nodes per move, the clock's noise alone
  and the machine's load as the rows recorded them during the games (clock_rows.py), the
  pairings and their verdicts, and the statement that such runs are not reproducible row for
  row.
"""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import yaml

from searchlab.studies.tradeoff.clock_rows import noise_summary, noise_table
from searchlab.studies.tradeoff.match_words import MARGIN
from searchlab.studies.tradeoff.matches import ALPHA, judge_pairings
from searchlab.studies.tradeoff.matches_report import (GSPRT_TEXT, has_games, opening_sets,
                                                       pairing_table)
from searchlab.studies.tradeoff.tradeoff_tables import load_table
from searchlab.studies.tradeoff.tuning_study import chosen_settings


def run_config(run_dir: str | Path) -> dict:
    """The run's config.yaml as a dict ({} when absent or unreadable)."""
    try:
        return yaml.safe_load((Path(run_dir) / "config.yaml").read_text()) or {}
    except (OSError, yaml.YAMLError):
        return {}


def is_tuning_run(run_dir: str | Path) -> bool:
    """Whether ``run_dir`` holds a run of the tuning study (``tasks: tuning``)."""
    return run_config(run_dir).get("tasks") == "tuning"


def _elo(x: float) -> str:
    x = float(x)
    if math.isinf(x):
        return "∞" if x > 0 else "−∞"
    return f"{x:.0f}" if math.isfinite(x) else "-"


def _ci(r) -> str:
    return f"{_elo(r['elo'])} [{_elo(r['elo_lo'])}, {_elo(r['elo_hi'])}]"


def _depth(r) -> str:
    if not math.isfinite(r["depth_bought"]):
        return "-"
    if not math.isfinite(r["depth_lo"]):
        return f"{r['depth_bought']:+.2f}"
    return f"{r['depth_bought']:+.2f} [{r['depth_lo']:+.2f}, {r['depth_hi']:+.2f}]"


def tuning_table(summary: pd.DataFrame, order: list[str]) -> tuple[str, dict]:
    """Markdown of every tuning pairing, grouped by domain and family in grid order, the
    chosen setting marked; and the chosen settings ({(domain, family): name})."""
    chosen = chosen_settings(summary, order)
    rank = {n: i for i, n in enumerate(order)}
    rows = summary.assign(_r=summary["technique"].map(lambda n: rank.get(n, len(rank))))
    lines = ["| domain | family | setting | nodes / move | pairs | pentanomial 0-½-1-1½-2 | "
             "A's score | Elo (A − B) [95 % CI] | depth bought A − B [95 % CI] | node ratio | "
             "chosen |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for _, r in rows.sort_values(["domain", "family", "_r"], kind="stable").iterrows():
        pent = "-".join(str(int(r[f"p{k}"])) for k in range(5))
        mark = "**chosen**" if chosen.get((r["domain"], r["family"])) == r["technique"] else ""
        ratio = f"{r['node_ratio']:.3f}" if math.isfinite(r["node_ratio"]) else "-"
        lines.append(f"| {r['domain']} | {r['family']} | {r['technique']} | "
                     f"{int(r['budget']):,} | {int(r['pairs'])} | {pent} | {r['score']:.3f} | "
                     f"{_ci(r)} | {_depth(r)} | {ratio} | {mark} |")
    return "\n".join(lines), chosen


def tuning_section(tune_dir: str | Path, confirm_dir: str | Path | None = None) -> str:
    """Markdown: the tuning study's two stages (the module docstring); the confirmation part
    says so where ``confirm_dir`` is None or holds no games."""
    tune_dir = Path(tune_dir)
    conf = run_config(tune_dir)
    t = conf.get("tuning") or {}
    order = list(t.get("settings") or [])
    summary = load_table(tune_dir, "matches")
    table, chosen = tuning_table(summary, order)
    out = [f"Grid (play/tuning.py GRID): {', '.join(order)}; every setting (A) plays sound "
           f"alpha-beta (B), engine-grade play, colour-swapped game pairs. Stage tune: "
           f"{t.get('tune_budget', 0):,} nodes per move on openings 0-"
           f"{int(t.get('tune_openings', 0)) - 1} of each domain's seeded set; the best setting "
           f"per domain and family by pentanomial score (A's mean score over the pairs; ties: "
           f"the first in grid order) is confirmed at {t.get('confirm_budget', 0):,} nodes per "
           f"move on openings {t.get('tune_openings', 0)}-"
           f"{int(t.get('tune_openings', 0)) + int(t.get('confirm_openings', 0)) - 1}, disjoint "
           f"from the tuning ones (checked by position). The tuning Elo is biased upwards by the "
           f"choice (a winner's curse); only the confirmation is judged.", "",
           f"Tuning ({len(summary)} pairings, run `{tune_dir}`):", "", table, ""]
    if confirm_dir is None or not has_games(confirm_dir):
        out += ["Confirmation: not run (stage confirm: `tradeoff.tuning.stage=confirm "
                "tradeoff.tuning.tuned_run=RUN_DIR`)."]
        return "\n".join(out) + "\n"
    cs = load_table(confirm_dir, "matches")
    played = {(str(r["domain"]), str(r["family"])): str(r["technique"]) for _, r in cs.iterrows()}
    verdicts = judge_pairings(cs, ALPHA, MARGIN)
    words = {}
    for v in verdicts:
        words[v.words] = words.get(v.words, 0) + 1
    out += [f"Confirmation ({len(cs)} pairings, run `{confirm_dir}`; Holm's correction over "
            f"them at level {ALPHA}; {GSPRT_TEXT}):", "", pairing_table(cs, verdicts), "",
            "Verdict words over the confirmed settings: "
            + (", ".join(f"{k} {n}" for k, n in sorted(words.items())) or "none") + "."]
    if played != chosen:
        out += ["", f"Note: the confirmation run played {sorted(played.items())}, not the "
                f"settings this tuning run chooses ({sorted(chosen.items())}): it was confirmed "
                f"from another tune run."]
    out += ["", "Openings:", ""] + [f"- {x}" for x in opening_sets([tune_dir, confirm_dir])]
    return "\n".join(out) + "\n"


def time_control_section(run_dir: str | Path) -> str:
    """Markdown: a CPU-time match run's clock, time per move and noise, and its pairings with
    verdicts (the module docstring); the clock's noise alone and the machine's load as the rows
    recorded them during the games (clock_rows.noise_summary). ValueError when the run holds
    no CPU-time games."""
    run_dir = Path(run_dir)
    g = load_table(run_dir, "games")
    if "budget_mode" not in g.columns or not (g["budget_mode"] == "cpu").any():
        raise ValueError(f"{run_dir}: no CPU-time games (match.budget_mode: cpu)")
    g = g[g["budget_mode"] == "cpu"]
    clocks = sorted(set(g["clock"]))
    secs = sorted(set(g["cpu_seconds"].astype(float)))
    lines = ["| domain | CPU s / move | games | side | mean nodes / move | CV of nodes / move "
             "(mean over games) | CV quartiles over games |", "|---|---|---|---|---|---|---|"]
    for (dom, s), part in g.groupby(["domain", "cpu_seconds"], sort=True):
        for side, name in (("b", "sound alpha-beta (B)"), ("a", "techniques (A), pooled")):
            cv = part[f"{side}_cv_nodes"].astype(float).dropna()
            q = cv.quantile([0.25, 0.5, 0.75]).to_numpy() if len(cv) else [math.nan] * 3
            lines.append(f"| {dom} | {s:g} | {len(part)} | {name} | "
                         f"{part[f'{side}_mean_nodes'].mean():,.0f} | {cv.mean():.3f} | "
                         f"{q[0]:.3f} / {q[1]:.3f} / {q[2]:.3f} |")
    summary = load_table(run_dir, "matches")
    summary = summary[summary["budget_mode"] == "cpu"]
    verdicts = judge_pairings(summary, ALPHA, MARGIN)
    out = [f"Time control: both sides get {', '.join(f'{x:g}' for x in secs)} s of CPU time per "
           f"move (engine-grade play, a node cap of {int(g['budget'].max()):,} nodes). Clock: "
           f"{'; '.join(clocks)}: the searching thread's CPU time, not stretched by other "
           f"processes, but caches, frequency scaling and other jobs on shared cores change the "
           f"nodes that fit in it. These games are **not reproducible row for row** (a rerun "
           f"plays other games; only the statistics compare) and are kept out of the "
           f"reproduction's digest test.", "",
           "Noise: the coefficient of variation (SD / mean) of one side's nodes per move within "
           "a game, over its games. It mixes the clock's noise with the positions' own speed "
           "(nodes per second differ between positions, and a search that ends early, at a "
           "decided position, uses less than its time).", "", "\n".join(lines), ""]
    out += ["The clock's noise alone, measured during the run: before each game the sound "
            "player's search of the opening, repeated at the game's CPU time per move in fresh "
            "engine sessions (identical searches but for the clock; under a node budget the "
            "repeats are identical, CV 0), and the machine's 1-minute load average as the game "
            "started; quartiles over the games (\"recorded\": games whose rows hold them; rows "
            "written before 2026-12-05 do not):", "", noise_table(noise_summary(g)), ""]
    out += [f"Pairings (Holm over them at level {ALPHA}; {GSPRT_TEXT}):", "",
            pairing_table(summary, verdicts)]
    return "\n".join(out) + "\n"


def write_tuning_report(run_dir: str | Path) -> Path:
    """report.md of a tuning run: stage tune, the tuning table and the chosen settings; stage
    confirm, the whole section over its tune run (config ``tuning.tuned_run``) and itself."""
    run_dir = Path(run_dir)
    t = run_config(run_dir).get("tuning") or {}
    if t.get("stage") == "confirm":
        text = tuning_section(t.get("tuned_run"), run_dir)
    else:
        text = tuning_section(run_dir, None)
    path = run_dir / "report.md"
    path.write_text(f"# {run_dir.name}: unsound techniques tuned, then confirmed "
                    f"(stage {t.get('stage', '?')})\n\n" + text)
    return path

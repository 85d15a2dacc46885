"""report.md of a trade-off run: Pareto figures, the trade-off table, matches, the verdict.

``write_tradeoff_report(run_dir)`` writes ``report.md`` and ``figures/pareto_<domain>.png`` into the run
directory; ``tradeoff_section(run_dir)`` returns the part the project's top-level report
includes (verdict, headline table, matches). Every number is computed from the run's tables.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import yaml
from scipy.stats import binomtest

from searchlab.analysis.figures import figsize, given_axes, in_paper_style
from searchlab.analysis.figures import save as save_figure
from searchlab.analysis.labels import place_labels
from searchlab.analysis.palette import TECHNIQUE_COLOURS
from searchlab.studies.tradeoff.tradeoff_config import DOMAINS, FAMILIES
from searchlab.games.registry import entry as game_entry
from searchlab.games.registry import game_names
from searchlab.studies.tradeoff.tradeoff_tables import load_table
from searchlab.studies.tradeoff.tuning_report import (is_tuning_run, time_control_section,
                                                     write_tuning_report)
from searchlab.studies.tradeoff.clock_rows import nps_summary, nps_table
from searchlab.studies.tradeoff.match_words import NO_DEPTH, NOT_SHOWN, STRONGER, WEAKER
from searchlab.studies.tradeoff.matches_report import (RULES_FIXED, conditions_text, has_games,
                                                       match_verdict, opening_sets, pairing_table,
                                                       pairings, write_matches_report)

# one colour per technique family, the project's palette (searchlab.analysis.palette: the same
# colour as the family's in a sweep's pruning figures), one marker per family
PALETTE = {fam: TECHNIQUE_COLOURS[key] for fam, key in (
    ("sound", "none"), ("null_move", "null"), ("lmr", "lmr"), ("futility", "futility"),
    ("razoring", "razor"), ("beam", "beam"), ("probcut", "probcut"), ("quiescence", "quiescence"))}
#: bootstrap resamples of the Pareto figure's CIs (percentile, over positions)
PARETO_RESAMPLES = 999
MARKERS = {"sound": "*", "null_move": "o", "lmr": "s", "futility": "^", "razoring": "v",
           "beam": "D", "probcut": "P", "quiescence": "X"}
#: a family's name in a legend
FAMILY_LABEL = {"sound": "sound alpha-beta", "null_move": "null move", "lmr": "late move reductions",
                "futility": "futility", "razoring": "razoring", "beam": "beam", "probcut": "ProbCut",
                "quiescence": "quiescence"}
#: a domain's title: a game's own label (GameEntry.display), the tree's and the chess suite's
_OWN_TITLE = {"incremental": "Incremental tree", "chess": "Chess (Bratko-Kopec)"}
DOMAIN_TITLE = {n: _OWN_TITLE.get(n) or game_entry(n).display for n in DOMAINS
                if n in _OWN_TITLE or n in game_names()}
CLAIM = ("“These are all unsound: they can prune the best move, and are used anyway because "
         "the depth bought is worth more than the occasional error.”")


def fmt(x, nd: int = 3) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    if isinstance(x, (float, np.floating)):
        if math.isinf(x):
            return "+∞" if x > 0 else "−∞"
        return f"{x + 0.0:.{nd}f}".replace("-0." + "0" * nd, "0." + "0" * nd) if nd else \
            f"{round(x) + 0:d}"
    return str(x)


def pct(x) -> str:
    return f"{100 * x:.1f} %"


def summarise(df: pd.DataFrame) -> pd.DataFrame:
    """One row per (domain, variant, technique): means over positions."""
    g = df.groupby(["domain", "variant", "technique", "family", "params"], sort=False)
    s = g.agg(positions=("position", "nunique"), node_ratio=("node_ratio", "mean"),
              time_ratio=("time_ratio", "mean"), decision_error=("decision_error", "mean"),
              value_error_mean=("value_error", "mean"), value_error_max=("value_error", "max"),
              fired=("fired", "mean"), budget_depth=("budget_depth", "mean"),
              ref_budget_depth=("ref_budget_depth", "mean"),
              budget_error=("budget_decision_error", "mean"),
              result_change=("result_change", "mean"),
              budget_result_change=("budget_result_change", "mean"),
              solved=("solved", "mean"), budget_solved=("budget_solved", "mean")).reset_index()
    s["savings"] = 1.0 - s["node_ratio"]
    # 95 % CIs of the two Pareto coordinates: the decision error is a count of positions out
    # of n, so its interval is Clopper–Pearson's exact binomial one (0 of 12 is [0, 26.5 %],
    # not the zero-width interval a bootstrap gives); the savings, a mean ratio, a percentile
    # bootstrap over positions (each group's resamples seeded by its rank: the same table gives
    # the same intervals)
    cis = {k: [] for k in ("decision_error_lo", "decision_error_hi", "savings_lo", "savings_hi",
                           "decision_errors", "decision_n")}
    for k, (_, grp) in enumerate(g):
        err = grp["decision_error"].dropna().to_numpy(dtype=int)
        lo, hi = clopper_pearson(int(err.sum()), len(err))
        cis["decision_error_lo"].append(lo)
        cis["decision_error_hi"].append(hi)
        cis["decision_errors"].append(int(err.sum()))
        cis["decision_n"].append(len(err))
        lo, hi = _mean_ci(grp["node_ratio"].to_numpy(dtype=float), k)
        cis["savings_lo"].append(1.0 - hi)
        cis["savings_hi"].append(1.0 - lo)
    return s.assign(**cis)


def clopper_pearson(k: int, n: int, level: float = 0.95) -> tuple[float, float]:
    """Clopper–Pearson's exact interval of a binomial proportion k / n (scipy.stats.binomtest);
    (nan, nan) when n is 0."""
    if n == 0:
        return math.nan, math.nan
    ci = binomtest(k, n).proportion_ci(confidence_level=level, method="exact")
    return float(ci.low), float(ci.high)


def _mean_ci(values: np.ndarray, seed: int, level: float = 0.95) -> tuple[float, float]:
    """Percentile bootstrap CI of the mean of ``values`` (NaNs dropped); (nan, nan) if empty."""
    v = values[~np.isnan(values)]
    if v.size == 0:
        return math.nan, math.nan
    idx = np.random.default_rng(seed).integers(0, v.size, size=(PARETO_RESAMPLES, v.size))
    means = v[idx].mean(axis=1)
    return (float(np.quantile(means, (1 - level) / 2)), float(np.quantile(means, (1 + level) / 2)))


def _order(df: pd.DataFrame) -> pd.DataFrame:
    rank = {f: i for i, f in enumerate(FAMILIES)}
    drank = {d: i for i, d in enumerate(DOMAINS)}
    return df.assign(_r=df["family"].map(rank), _d=df["domain"].map(drank).fillna(99)).sort_values(
        ["_d", "variant", "_r"], kind="stable").drop(columns=["_r", "_d"])


def pareto_figure(summary: pd.DataFrame, domain: str, out: Path | None = None, *,
                  fig_format: str = "png", ax=None) -> Path:
    """Node savings (y) against decision error (x), one point per technique+parameter, with
    95 % bootstrap CIs over positions on both (``summarise``'s ``*_lo``/``*_hi`` columns, when
    present); one panel per variant (the incremental tree's correlations). Labels are placed
    by searchlab.analysis.labels (no overlaps, inside the panel); a label with no free place
    is listed in the panel's title instead. Writes ``out`` and returns it; with ``out=None``
    returns the matplotlib Figure (searchlab.plot.pareto). ``fig_format``: png, pdf or svg (``out``'s
    suffix is replaced), saved by searchlab.analysis.figures.save like every report figure.
    ``ax``: the caller's Axes, one per variant (then those are returned, or saved unclosed)."""
    matplotlib.use("Agg")

    sub = summary[summary["domain"] == domain]
    vs = list(dict.fromkeys(sub["variant"]))
    given = given_axes(ax, len(vs), "one panel per variant: " + ", ".join(map(str, vs)))
    if given is None:
        fig, axes = plt.subplots(1, len(vs), figsize=figsize(6.4 * len(vs), 5.4), squeeze=False)
    else:
        fig, axes = given[0].figure, [given]
    for ax, v in zip(axes[0], vs):
        part = sub[sub["variant"] == v]
        x, y = 100 * part["decision_error"], 100 * part["savings"]
        if {"decision_error_lo", "savings_lo"} <= set(part.columns):
            xerr = np.vstack([x - 100 * part["decision_error_lo"], 100 * part["decision_error_hi"] - x])
            yerr = np.vstack([y - 100 * part["savings_lo"], 100 * part["savings_hi"] - y])
            ax.errorbar(x, y, xerr=np.clip(xerr, 0, None), yerr=np.clip(yerr, 0, None), fmt="none",
                        ecolor="0.55", elinewidth=0.7, capsize=1.5, zorder=2,
                        label="_95 % CI (bootstrap over positions)")
        for fam, grp in part.groupby("family", sort=False):
            ax.scatter(100 * grp["decision_error"], 100 * grp["savings"], s=60 if fam != "sound"
                       else 160, c=PALETTE.get(fam, "#999999"), marker=MARKERS.get(fam, "o"),
                       edgecolors="black", linewidths=0.5, label=FAMILY_LABEL.get(fam, fam), zorder=3,
                       clip_on=False)
        ax.axhline(0, color="grey", lw=0.8, ls=":", zorder=1)
        # an error is a share: the axis starts at 0 (not at a negative margin when every
        # technique's error is 0) and spans at least 1 %; room to the right for labels
        top = part["decision_error_hi"] if "decision_error_hi" in part.columns else part["decision_error"]
        # ... and ends at 100 % (an interval reaching 100 % must not make room for 125 %)
        ax.set_xlim(0, min(100.0, max(1.0, 1.25 * 100 * float(top.max())))
                    if top.notna().any() else 1.0)
        lo_y = min(0.0, float(np.nanmin(part.get("savings_lo", part["savings"])))) * 100
        hi_y = max(0.0, float(np.nanmax(part.get("savings_hi", part["savings"])))) * 100
        pad = 0.12 * max(hi_y - lo_y, 1.0)
        ax.set_ylim(lo_y - pad, hi_y + pad)
        ax.set_xlabel("decision error (% of positions whose move is not an exact best move)")
        ax.set_ylabel("node savings vs sound alpha-beta (%)")
        ax.set_title(f"{DOMAIN_TITLE.get(domain, domain)}" + (f", {v}" if v != domain else ""))
        ax.grid(alpha=0.3)
    handles, labels = axes[0][0].get_legend_handles_labels()
    if given is None:
        ncol = min(len(labels), 4 * len(vs))
        legend = fig.legend(handles, labels, loc="lower center", ncol=ncol,
                            fontsize=None if in_paper_style() else 8, frameon=False)
        # the panels sit just above the legend: its measured height, not a guess per row count
        height = legend.get_window_extent(fig.canvas.get_renderer()).height / fig.bbox.height
        fig.tight_layout(rect=(0, height + 0.01, 1, 1))
    else:
        axes[0][-1].legend(fontsize=6)
    for ax, v in zip(axes[0], vs):              # after the layout: boxes in final positions
        part = sub[sub["variant"] == v]
        dropped = place_labels(ax, list(100 * part["decision_error"]), list(100 * part["savings"]),
                               list(part["technique"]), fontsize=6)
        if dropped:
            ax.set_title(f"{ax.get_title()} (unlabelled: {', '.join(dropped)})", fontsize=8)
    if out is None:
        return fig if given is None else (given[0] if len(given) == 1 else given)
    return save_figure(fig, out, fig_format, close=given is None)


def _error_cell(r) -> str:
    """A decision error with its Clopper–Pearson 95 % CI and the count: "8.3 % [0.2, 38.5] (1/12)"."""
    if "decision_n" not in r or not r["decision_n"]:
        return pct(r["decision_error"])
    return (f"{pct(r['decision_error'])} [{100 * r['decision_error_lo']:.1f}, {100 * r['decision_error_hi']:.1f}] "
            f"({int(r['decision_errors'])}/{int(r['decision_n'])})")


def tradeoff_table(summary: pd.DataFrame) -> str:
    head = ("| domain | variant | technique | parameters | positions | node ratio | time ratio "
            "| fired / search | decision error [95 % CI, Clopper–Pearson] (errors/positions) | mean abs value error | max abs value error "
            "| depth at budget (technique / sound) | budget-move error (technique / sound) |")
    lines = [head, "|" + "---|" * 13]
    for _, r in _order(summary).iterrows():
        sound = summary[(summary["domain"] == r["domain"]) & (summary["variant"] == r["variant"])
                        & (summary["family"] == "sound")]
        sb = float(sound["budget_error"].iloc[0]) if len(sound) else float("nan")
        lines.append(
            f"| {r['domain']} | {r['variant']} | {r['technique']} | {r['params']} | "
            f"{r['positions']} | {fmt(r['node_ratio'])} | {fmt(r['time_ratio'], 2)} | "
            f"{fmt(r['fired'], 1)} | {_error_cell(r)} | {fmt(r['value_error_mean'], 4)} | "
            f"{fmt(r['value_error_max'], 4)} | {fmt(r['budget_depth'], 2)} / "
            f"{fmt(r['ref_budget_depth'], 2)} | {pct(r['budget_error'])} / {pct(sb)} |")
    return "\n".join(lines)


def error_positions(df: pd.DataFrame) -> str:
    """Markdown: one row per (domain, variant, technique, position) whose chosen move is not an
    exact best move ('' when there is none)."""
    need = {"decision_error", "position", "best_move", "exact_best_moves", "technique"}
    if not need <= set(df.columns):
        return ""
    bad = df[df["decision_error"].fillna(0).astype(int) == 1]
    if bad.empty:
        return ""
    bad = _order(bad) if {"family", "domain", "variant"} <= set(bad.columns) else bad
    rows = ["| domain | variant | technique | position | move chosen | exact best moves | value error |",
            "|---|---|---|---|---|---|---|"]
    for _, r in bad.iterrows():
        rows.append(f"| {r.get('domain', '')} | {r.get('variant', '')} | {r['technique']} | {r['position']} | "
                    f"{r['best_move']} | {r['exact_best_moves']} | {fmt(r.get('value_error', math.nan), 4)} |")
    return "\n".join(rows)


def technique_rates(df: pd.DataFrame) -> str:
    """Markdown: per (domain, variant, technique) the null-move cut-success rate (null-move
    searches that cut over those tried) and the LMR re-search rate (reduced searches that had
    to be searched again at full depth over the reductions), pooled over positions with
    Clopper–Pearson 95 % CIs; '' when the table has no such counts (runs from before they were
    counted)."""
    cols = {"null_tried", "null_cuts", "lmr_reduced", "lmr_researches"}
    if not cols <= set(df.columns):
        return ""
    g = df.groupby(["domain", "variant", "technique"], sort=False)[sorted(cols)].sum().reset_index()
    g = g[(g["null_tried"] > 0) | (g["lmr_reduced"] > 0)]
    if g.empty:
        return ""

    def rate(k, n) -> str:
        if not n:
            return "-"
        lo, hi = clopper_pearson(int(k), int(n))
        return f"{100 * k / n:.1f} % [{100 * lo:.1f}, {100 * hi:.1f}] ({int(k):,}/{int(n):,})"
    rows = ["Pooled over the positions; 95 % Clopper–Pearson CIs (over searches, which are not "
            "independent within a position: read them as lower bounds on the uncertainty). A null "
            "move that rarely cuts costs nodes without saving any, which is how a null-move node "
            "ratio above 1 arises (its tried searches are overhead); a high LMR re-search rate "
            "means the reductions were mostly wrong and searched twice.", "",
            "| domain | variant | technique | null move: cuts / tried | LMR: re-searched / reduced |",
            "|---|---|---|---|---|"]
    for _, r in g.iterrows():
        rows.append(f"| {r['domain']} | {r['variant']} | {r['technique']} | "
                    f"{rate(r['null_cuts'], r['null_tried'])} | {rate(r['lmr_researches'], r['lmr_reduced'])} |")
    return "\n".join(rows)


def connect4_table(summary: pd.DataFrame) -> str:
    sub = _order(summary[summary["domain"] == "connect4"])
    lines = ["| technique | positions | moves changing the game-theoretic result (nominal depth) "
             "| moves changing it (at the node budget) |", "|---|---|---|---|"]
    for _, r in sub.iterrows():
        lines.append(f"| {r['technique']} | {r['positions']} | {pct(r['result_change'])} | "
                     f"{pct(r['budget_result_change'])} |")
    return "\n".join(lines)


def chess_table(summary: pd.DataFrame, budget: int, depth: int) -> str:
    sub = _order(summary[summary["domain"] == "chess"])
    lines = [f"| technique | positions | solved at {budget} nodes | solved at depth {depth} |",
             "|---|---|---|---|"]
    for _, r in sub.iterrows():
        lines.append(f"| {r['technique']} | {r['positions']} | {pct(r['budget_solved'])} | "
                     f"{pct(r['solved'])} |")
    return "\n".join(lines)


def match_table(m: pd.DataFrame) -> str:
    lines = ["| domain | technique (A) vs sound alpha-beta (B) | budget / move | openings | games "
             "| A wins-draws-B wins | A's score | Elo (A − B) | 95 % CI | mean depth A / B |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for _, r in m.iterrows():
        lines.append(f"| {r['domain']} | {r['technique']} | {r['budget']} | {r['openings']} | "
                     f"{r['games']} | {r['a_wins']}-{r['draws']}-{r['b_wins']} | "
                     f"{fmt(r['score'])} | {fmt(r['elo'], 0)} | [{fmt(r['elo_lo'], 0)}, "
                     f"{fmt(r['elo_hi'], 0)}] | {fmt(r['a_mean_depth'], 2)} / "
                     f"{fmt(r['b_mean_depth'], 2)} |")
    return "\n".join(lines)


def paired_budget_effect(df: pd.DataFrame, seed: int = 0) -> pd.DataFrame:
    """Per (domain, variant, technique): mean over positions of (technique's budget-move error
    − sound's), with a 95 % percentile bootstrap CI over positions. Negative = the depth bought
    under the same node budget made fewer wrong decisions than sound alpha-beta."""
    out = []
    rng = np.random.default_rng(seed)
    for (d, v), part in df.groupby(["domain", "variant"], sort=False):
        sound = part[part["family"] == "sound"].set_index("position")["budget_decision_error"]
        for (t, fam), g in part[part["family"] != "sound"].groupby(["technique", "family"],
                                                                    sort=False):
            diff = (g.set_index("position")["budget_decision_error"] - sound).dropna().to_numpy(float)
            if len(diff) == 0:
                continue
            boots = rng.choice(diff, size=(2000, len(diff))).mean(axis=1)
            out.append(dict(domain=d, variant=v, technique=t, family=fam, n=len(diff),
                            diff=float(diff.mean()), lo=float(np.percentile(boots, 2.5)),
                            hi=float(np.percentile(boots, 97.5))))
    return pd.DataFrame(out)


def verdict(df: pd.DataFrame, summary: pd.DataFrame, m: pd.DataFrame,
            paired: pd.DataFrame | None = None) -> tuple[str, list[str]]:
    """(one-line headline, bullet lines): part (a) from the decision errors, part (b) from the
    matches (and, for the incremental tree, the budget-move errors). ``paired``: pairings
    played in stored game pairs (studies.tradeoff.matches_report.pairings); when given, part (b) is judged from
    them (pentanomial, Holm: studies.tradeoff.matches_report.match_verdict), not from ``m``'s game totals."""
    if paired is not None and len(paired):
        return _paired_verdict(df, summary, paired)
    erring, techs, line_a = _part_a(summary)
    lines = [line_a]
    wins = losses = ties = 0
    mline = []
    for _, r in m.iterrows():
        if r["openings"] < 2:
            ties += 1
            w = "too few openings to tell"
        elif r["elo_lo"] > 0:
            wins += 1
            w = "wins"
        elif r["elo_hi"] < 0:
            losses += 1
            w = "loses"
        else:
            ties += 1
            w = "no significant difference"
        mline.append(f"{r['technique']} in {r['domain']}: {w} (score {fmt(r['score'])}, "
                     f"Elo {fmt(r['elo'], 0)} [{fmt(r['elo_lo'], 0)}, {fmt(r['elo_hi'], 0)}], "
                     f"depth {fmt(r['a_mean_depth'], 2)} vs {fmt(r['b_mean_depth'], 2)})")
    eff = paired_budget_effect(df)
    inc = eff[eff["domain"] == "incremental"] if len(eff) else eff
    better = int((inc["hi"] < 0).sum()) if len(inc) else 0
    worse = int((inc["lo"] > 0).sum()) if len(inc) else 0
    lines.append(
        f"**(b) “the depth bought is worth more than the error”, at equal node budget.** "
        f"Matches against sound alpha-beta: {wins} of {len(m)} techniques win (Elo CI above 0), "
        f"{losses} lose (CI below 0), {ties} show no significant difference.")
    lines += [f"  - {x}" for x in mline]
    if len(m):
        games = int(m["games"].sum())
        pts = float((m["a_wins"] + 0.5 * m["draws"]).sum())
        lines.append(f"  - Pooled over all {len(m)} matches ({games} games): the unsound side "
                     f"scored {fmt(pts / games)} ({int(m['a_wins'].sum())} wins, "
                     f"{int(m['draws'].sum())} draws, {int(m['b_wins'].sum())} losses), "
                     f"searching {fmt(float((m['a_mean_depth'] - m['b_mean_depth']).mean()), 2)} "
                     f"plies deeper on average.")
    if len(inc):
        lines.append(
            f"  - Incremental tree (exact truth at every position), move chosen under the node "
            f"budget: {better} of {len(inc)} technique x correlation cells make significantly "
            f"fewer wrong decisions than sound alpha-beta under the same budget, {worse} "
            f"significantly more, the rest are not distinguishable.")
    if len(m) == 0:
        head = "(a) " + ("supported" if erring else "not observed") + "; (b) not tested (no matches)"
    else:
        b = "supported" if wins > losses and wins >= ties else \
            "refuted" if losses > wins and losses >= ties else "not supported at this sample size"
        head = (f"(a) {'supported' if erring else 'not observed'}: {len(erring)}/{len(techs)} "
                f"unsound configurations erred; (b) {b}: {wins} win, {ties} no significant "
                f"difference, {losses} lose of {len(m)} matches at equal node budget.")
    return head, lines


#: families that are not unsound pruning: the sound reference, and quiescence (it extends
#: the search beyond the horizon rather than pruning it, so part (a) does not count it)
NOT_UNSOUND = ("sound", "quiescence")


def unsound_rows(summary: pd.DataFrame) -> pd.DataFrame:
    """The rows of unsound techniques only (not the sound reference, not quiescence)."""
    return summary[~summary["family"].isin(NOT_UNSOUND)]


def _part_a(summary: pd.DataFrame) -> tuple[list[str], list[str], str]:
    uns = unsound_rows(summary)
    by_tech = uns.groupby("technique")["decision_error"].max()
    erring = sorted(t for t, e in by_tech.items() if e > 0)
    clean = sorted(t for t, e in by_tech.items() if e == 0)
    sound_err = summary[summary["family"] == "sound"]["decision_error"].max()
    q = sorted(summary[summary["family"] == "quiescence"]["technique"].unique())
    line = (f"**(a) “they can prune the best move”.** {len(erring)} of {len(by_tech)} unsound "
            f"configurations chose a move that is not an exact best move in at least one "
            f"position (worst rate {pct(uns['decision_error'].max())}); sound alpha-beta never "
            f"did (max {pct(sound_err)})."
            + (f" Never wrong on this sample: {', '.join(clean)}." if clean else "")
            + (f" Not counted (quiescence extends the search, it does not prune): "
               f"{', '.join(q)}." if q else ""))
    return erring, list(by_tech.index), line


def _paired_verdict(df: pd.DataFrame, summary: pd.DataFrame, paired: pd.DataFrame
                    ) -> tuple[str, list[str]]:
    erring, techs, line_a = _part_a(summary)
    cat, det, verdicts = match_verdict(paired)
    lines = [line_a, f"**(b) “the depth bought is worth more than the error”, in game pairs, "
                     f"at equal nodes and at equal CPU time per move (fixed rules of "
                     f"{RULES_FIXED}, docs/matches.md).** {cat}: {det}."]
    head = (f"(a) {'supported' if erring else 'not observed'}: {len(erring)}/{len(techs)} "
            f"unsound configurations erred; (b) {cat}: {len(verdicts)} pairings in game pairs, "
            f"{sum(v.words == STRONGER for v in verdicts)} stronger, "
            f"{sum(v.words == WEAKER for v in verdicts)} weaker, "
            f"{sum(v.words.startswith('no difference') for v in verdicts)} no difference shown, "
            f"{sum(v.words == NOT_SHOWN for v in verdicts)} not shown at this power, "
            f"{sum(v.words == NO_DEPTH for v in verdicts)} buy too little depth (Holm); "
            f"{conditions_text(verdicts)}.")
    return head, lines


def datasets(df: pd.DataFrame) -> list[str]:
    """The exact positions of the run, named per domain (every verdict states its data set)."""
    out = []
    for (d, v), g in df.groupby(["domain", "variant"], sort=False):
        ids = sorted(g["position"].unique(), key=lambda x: (len(x), x))
        what = {"incremental": f"IncrementalTree {v}, tree seeds derived from the study seed",
                "connect4": "lines of the Connect Four benchmark file",
                "othello": "random_position(ply) positions, seeds derived from the study seed",
                "chess": "Bratko-Kopec positions"}.get(d, d)
        out.append(f"{d} ({what}): {len(ids)}: {', '.join(ids)}")
    return out


def _sections(run_dir: Path, match_dirs: tuple = ()) -> dict:
    df = load_table(run_dir, "table")
    m = load_table(run_dir, "matches")
    if len(df) == 0:
        raise ValueError(f"{run_dir}: no rows (table/part-*.parquet)")
    summary = summarise(df)
    dirs = [d for d in (run_dir, *match_dirs) if has_games(d)]
    paired, uncounted = engine_grade(pairings(dirs))
    head, lines = verdict(df, summary, m, paired)
    if len(uncounted):
        lines.append(f"Not counted in (b): {len(uncounted)} pairings played fresh-per-depth "
                     f"({_tally(uncounted)}; a fresh search at every depth, no table or best move "
                     f"carried over, handicaps LMR and null move most; the engine-grade pairings "
                     f"above are the verdict's: a rule adopted after the 10^4-node results were "
                     f"seen, declared and fixed on {RULES_FIXED} in docs/matches.md).")
    return dict(df=df, m=m, summary=summary, head=head, lines=lines, paired=paired,
                uncounted=uncounted, match_dirs=dirs)


def engine_grade(paired: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(the pairings part (b) is judged from, the others): when any pairing was played as an
    engine plays (``play`` "engine": one iterative deepening per move, its table and best move
    carried over), only those; pairings played fresh-per-depth are then set aside (shown, not
    counted, nor in Holm's family). With no engine-grade pairing, all of them (a trade-off run
    judged on its own)."""
    if not len(paired) or "play" not in paired.columns or not (paired["play"] == "engine").any():
        return paired, paired.iloc[0:0]
    engine = paired["play"] == "engine"
    return paired[engine].reset_index(drop=True), paired[~engine].reset_index(drop=True)


def match_games(run_dirs: list) -> pd.DataFrame:
    """The game rows of every run of ``run_dirs`` that stored game pairs, concatenated."""
    parts = [load_table(d, "games") for d in run_dirs if has_games(d)]
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


def _tally(paired: pd.DataFrame) -> str:
    return ", ".join(f"{dom} {int(n)}" for dom, n in paired.groupby("domain", sort=True).size().items())


def claim_counts(run_dir: str | Path, match_dirs: tuple = ()) -> dict:
    """The numbers behind the verdict on claim 000-n/001-l, as plain values (for the claims
    registry): unsound configurations that erred, matches won / lost / undecided; with runs
    that stored game pairs (``run_dir`` itself or ``match_dirs``), the part-(b) verdict from
    their pairings (``paired``: category, detail, pairings, games) and the data sets named."""
    s = _sections(Path(run_dir), tuple(match_dirs))
    uns = unsound_rows(s["summary"])
    by_tech = uns.groupby("technique")["decision_error"].max()
    m = s["m"]
    decided = m[m["openings"] >= 2] if len(m) else m
    wins = int((decided["elo_lo"] > 0).sum()) if len(m) else 0
    losses = int((decided["elo_hi"] < 0).sum()) if len(m) else 0
    return dict(head=s["head"], configs=int(len(by_tech)), erring=int((by_tech > 0).sum()),
                worst_error=float(uns["decision_error"].max()) if len(uns) else 0.0,
                matches=int(len(m)), wins=wins, losses=losses,
                undecided=int(len(m)) - wins - losses,
                games=int(m["games"].sum()) if len(m) else 0,
                match_rows=[{k: r[k] for k in ("domain", "technique", "a_wins", "draws", "b_wins", "games")
                             if k in r} for r in m.to_dict("records")] if len(m) else [],
                paired=_paired_counts(s["paired"]),
                datasets=datasets(s["df"]) + opening_sets(s["match_dirs"]))


def _paired_counts(paired: pd.DataFrame) -> dict | None:
    if not len(paired):
        return None
    cat, det, verdicts = match_verdict(paired)
    return dict(category=cat, detail=det, pairings=len(verdicts),
                conditions=conditions_text(verdicts),
                games=int(paired["games"].sum()), pairs=int(paired["pairs"].sum()),
                stronger=sum(v.words == STRONGER for v in verdicts),
                weaker=sum(v.words == WEAKER for v in verdicts),
                no_depth=sum(v.words == NO_DEPTH for v in verdicts))


def tradeoff_section(run_dir: str | Path, match_dirs: tuple = ()) -> str:
    """Markdown for the project's top-level report: the verdict, the headline numbers per
    technique family and domain, the matches (with ``match_dirs``' game pairs), the data sets
    named; figures linked from the run directory."""
    run_dir = Path(run_dir)
    s = _sections(run_dir, tuple(match_dirs))
    summary = s["summary"]
    fam = summary.groupby(["domain", "family"], sort=False).agg(
        configs=("technique", "nunique"), best_ratio=("node_ratio", "min"),
        max_err=("decision_error", "max")).reset_index()
    out = ["## Sound versus unsound pruning", "",
           f"Claim: {CLAIM}", "", f"**Verdict:** {s['head']}", ""]
    out += s["lines"]
    out += ["", "| domain | family | configurations | lowest node ratio | worst decision error |",
            "|---|---|---|---|---|"]
    for _, r in fam.iterrows():
        out.append(f"| {r['domain']} | {r['family']} | {r['configs']} | {fmt(r['best_ratio'])} | "
                   f"{pct(r['max_err'])} |")
    if len(s["paired"]):
        cat, det, verdicts = match_verdict(s["paired"])
        out += ["", "Matches in game pairs (pentanomial; Holm over the pairings of this table):", "",
                pairing_table(s["paired"], verdicts), ""]
        if len(s["uncounted"]):
            out += ["Not counted in the verdict: pairings played fresh-per-depth (the trade-off "
                    "study's own small matches; Holm over these alone):", "",
                    pairing_table(s["uncounted"], match_verdict(s["uncounted"])[2]), ""]
        out += ["Opening sets:", ""]
        out += [f"- {x}" for x in opening_sets(s["match_dirs"])]
        games = match_games(s["match_dirs"])
        if len(games):
            out += ["", "Nodes per CPU second per technique, in every domain and condition (each "
                    "side's nodes over the thread CPU time of its moves, per game, as the rows "
                    "recorded it during the games; \"recorded\": games whose rows hold it, rows "
                    f"written before {RULES_FIXED} do not). Under equal CPU time a technique whose "
                    "nodes are dearer (null-move and ProbCut searches, re-searches, static "
                    "evaluations) searches fewer of them:", "", nps_table(nps_summary(games))]
    elif len(s["m"]):
        out += ["", match_table(s["m"])]
    out += ["", "Positions of the trade-off table (the exact data set):", ""]
    out += [f"- {x}" for x in datasets(s["df"])]
    figs = sorted(f for f in (run_dir / "figures").glob("pareto_*.*")
                  if f.suffix in (".png", ".pdf", ".svg"))
    if figs:
        out += [""] + [f"![{f.stem}]({f})" for f in figs]
    out.append(f"\nFull report: {run_dir / 'report.md'}")
    return "\n".join(out) + "\n"


def _seconds(sess: dict) -> str:
    sec = sess.get("seconds")
    if sec is None:
        return "not recorded (interrupted run)"
    out = f"{float(sec):.1f} s"
    cpu = sess.get("cpu_seconds")
    if cpu is not None:
        parts = ", ".join(f"{k} {v:.0f} s" for k, v in (sess.get("task_cpu_seconds") or {}).items())
        out += f" (CPU {float(cpu):.0f} s summed over workers: {parts})"
    return out


def _domains_in_order(summary: pd.DataFrame) -> list[str]:
    present = set(summary["domain"])
    return [d for d in DOMAINS if d in present] + sorted(present - set(DOMAINS))


def tradeoff_tables(run_dir: str | Path) -> dict[str, pd.DataFrame]:
    """The tables ``searchlab-report --tables`` exports for a trade-off run: the per-technique
    summary (:func:`summarise`) of its position rows (none for a matches-only run)."""
    df = load_table(Path(run_dir), "table")
    return {"tradeoff_summary": summarise(df)} if len(df) else {}


def write_tradeoff_report(run_dir: str | Path, fig_format: str = "png") -> Path:
    """report.md of a trade-off run (a matches-only run: studies.tradeoff.matches_report.write_matches_report);
    the Pareto figures in ``fig_format`` (png, pdf or svg), linked as written."""
    run_dir = Path(run_dir)
    if is_tuning_run(run_dir):
        return write_tuning_report(run_dir)
    if len(load_table(run_dir, "table")) == 0 and has_games(run_dir):
        path = write_matches_report(run_dir)
        games = load_table(run_dir, "games")
        if "budget_mode" in games.columns and (games["budget_mode"] == "cpu").any():
            with path.open("a") as f:       # the clock and its noise (tuning_report.py)
                f.write("\n## Time control: the clock and its noise\n\n"
                        + time_control_section(run_dir))
        return path
    s = _sections(run_dir)
    df, m, summary = s["df"], s["m"], s["summary"]
    try:
        cfg = (run_dir / "config.yaml").read_text()
    except OSError:
        cfg = ""
    conf = yaml.safe_load(cfg) if cfg else {}
    prov = {}
    try:
        prov = json.loads((run_dir / "provenance.json").read_text())
    except (OSError, ValueError):
        pass
    fits = {}
    try:
        fits = json.loads((run_dir / "probcut.json").read_text())
    except (OSError, ValueError):
        pass
    sess = (prov.get("sessions") or [{}])[-1]
    out = [f"# {conf.get('study', 'unsound_tradeoff')}: sound versus unsound pruning", "",
           f"Claim under test: {CLAIM}", "",
           "Every unsound configuration is compared with sound alpha-beta of the same ordering "
           "and nominal depth (the exact reference: `exact_best_moves`, one sound search per "
           "root move). *Node ratio* = nodes (quiescence nodes included) / the sound search's "
           "nodes; *decision error* = share of positions whose chosen move is not among the "
           "exact best moves; *value error* = |value − exact value|; *depth at budget* = the "
           "depth iterative deepening completes within the domain's node budget; *budget-move "
           "error* = share of positions where the move chosen under that budget is not an "
           "exact best move at the nominal depth (on the incremental tree the nominal depth is "
           "the whole tree, so this is the true decision).", "",
           f"**Verdict:** {s['head']}", ""]
    out += s["lines"]
    out += ["", f"Run: `{run_dir}`; commit {sess.get('commit', 'unknown')}"
            f"{' (dirty)' if sess.get('dirty') else ''}; seed {conf.get('seed', 'n/a')}; "
            f"n_jobs {conf.get('n_jobs', 'n/a')}; "
            f"wall time {_seconds(sess)}; "
            f"{len(df)} technique x position rows, {len(m)} matches.", ""]
    for d in _domains_in_order(summary):
        f = pareto_figure(summary, d, run_dir / "figures" / f"pareto_{d}.png",
                          fig_format=fig_format)
        dc = (conf.get("domains") or {}).get(d, {})
        out += [f"## {DOMAIN_TITLE.get(d, d)}", "",
                f"Positions: {df[df['domain'] == d]['position'].nunique()} per variant; nominal "
                f"depth {dc.get('depth', 'n/a')}; ordering {dc.get('ordering', 'n/a')}; node "
                f"budget {dc.get('budget', 'n/a')}; value scale {dc.get('value_scale', 'n/a')}.",
                "", f"![Pareto: {d}](figures/{f.name})", ""]
        if d == "connect4":
            out += ["Game-theoretic check (Pons' exact scores, `solve()` after the move): share "
                    "of chosen moves that turn a win into a draw or loss, or a draw into a loss.",
                    "", connect4_table(summary), ""]
        if d == "chess":
            out += ["Bratko-Kopec: share of positions where the chosen move is a `bm` move.", "",
                    chess_table(summary, dc.get("budget", 0), dc.get("depth", 0)), ""]
    out += ["## The trade-off table", "", tradeoff_table(summary), ""]
    wrong = error_positions(df)
    out += ["## The positions that went wrong", "",
            "Per technique, every position whose chosen move (nominal depth) is not an exact best "
            "move: the position, the move chosen and the exact best moves, and the value error.", "",
            wrong or "None: every technique chose an exact best move at every position.", ""]
    rates = technique_rates(df)
    if rates:
        out += ["## How often null move cut and LMR re-searched", "", rates, ""]
    eff = paired_budget_effect(df)
    if len(eff):
        out += ["## At equal node budget: the move chosen, technique minus sound", "",
                "Mean over positions of (technique's budget-move error − sound's), with a 95 % "
                "bootstrap CI over positions; negative = the technique's extra depth chose "
                "better.", "",
                "| domain | variant | technique | positions | difference | 95 % CI |",
                "|---|---|---|---|---|---|"]
        for _, r in eff.iterrows():
            out.append(f"| {r['domain']} | {r['variant']} | {r['technique']} | {r['n']} | "
                       f"{fmt(r['diff'])} | [{fmt(r['lo'])}, {fmt(r['hi'])}] |")
        out.append("")
    out += ["## Matches at equal node budget", ""]
    if len(s["paired"]):
        cat, det, verdicts = match_verdict(s["paired"])
        out += ["Each technique (A) plays sound alpha-beta (B) with the same ordering; each side "
                "deepens iteratively until its node budget per move is spent; every opening is "
                "played twice, colours swapped (a game pair; pentanomial statistics, Holm over "
                "the pairings).", "", pairing_table(s["paired"], verdicts), "", "Openings:", ""]
        out += [f"- {x}" for x in opening_sets(s["match_dirs"])] + [""]
    elif len(m):
        out += ["Each technique (A) plays sound alpha-beta (B) with the same ordering; each side "
                "deepens iteratively until its node budget per move is spent; every seeded "
                "random opening is played twice, colours swapped. The number of openings is "
                "kept modest (runtime), so the Elo CIs are wide.", "", match_table(m), ""]
    else:
        out += ["No matches were configured in this run.", ""]
    good_fits = {k: v for k, v in fits.items() if isinstance(v, dict) and "slope" in v}
    if good_fits:
        out += ["## ProbCut models (fit_probcut on seeded sample positions)", "",
                "| domain/variant | positions | shallow | deep | slope | intercept | sigma |",
                "|---|---|---|---|---|---|---|"]
        for k, v in good_fits.items():
            out.append(f"| {k} | {v['positions']} | {v['shallow']} | {v['deep']} | "
                       f"{fmt(v['slope'])} | {fmt(v['intercept'])} | {fmt(v['sigma'])} |")
        bad = {k: v for k, v in fits.items() if isinstance(v, dict) and "error" in v}
        for k, v in bad.items():
            out.append(f"\nProbCut not run in {k}: {v['error']}")
        out.append("")
    out += ["## Notes", "",
            "- Connect Four and Othello have no null move of their own; the study adds one "
            "(the side to move passes, `searchlab/studies/tradeoff/domains.py`). Quiescence runs only "
            "where the game has noisy moves (chess captures).",
            "- Futility and razoring margins are multiples of each domain's value scale. Under "
            "the static ordering, at a frontier node (remaining depth 1) the first move searched "
            "is the one with the best static value, which is the exact leaf value there, so the "
            "moves futility pruning skips cannot be better: zero futility errors are expected "
            "with this ordering (not with others, nor with quiescence extending the leaves).",
            "- In chess at depth 3, null move with R >= 2 cannot fire below the root (it needs "
            "remaining depth > R at ply >= 1): its rows equal the sound search "
            "(`domains.chess.depth=4` makes it fire, at about ten times the cost).",
            "- Quiescence extends the tree, so its value errors measure the difference from "
            "the horizon-only search, not a mistake against a deeper truth.",
            "- Outside the incremental tree, the exact reference is the sound search at the "
            "same nominal depth, not the game-theoretic value (except the Connect Four and "
            "Bratko-Kopec checks above)."]
    path = run_dir / "report.md"
    path.write_text("\n".join(out) + "\n")
    return path

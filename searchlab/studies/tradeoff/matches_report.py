"""The matches of trade-off runs played in stored game pairs: the pairing table (how each side
played, pentanomial statistics, Holm-adjusted p-values, the GSPRT with its H0/H1, the smallest
detectable Elo, the depth bought with its paired CI and the node ratio, the verdict words), the
opening sets named, the verdict on "the depth bought is worth more than the error", and
report.md of a matches-only run (presets unsound_matches, chess_matches).

Every number comes from the runs' ``games/`` tables (studies/tradeoff/matches.py summarises them).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pandas as pd

from searchlab.analysis.format import number
from searchlab.studies.tradeoff.match_words import (MARGIN, MIN_DEPTH_GAIN, NO_DEPTH, NOT_SHOWN, STRONGER,
                                                    WEAKER)
from searchlab.studies.tradeoff.matches import (ALPHA, EQUAL_NODES, EQUAL_TIME, GSPRT_ALPHA,
                                                GSPRT_BETA, GSPRT_ELO0, GSPRT_ELO1, MIN_PAIRS,
                                                POWER, PairingVerdict, judge_pairings, play_text)
from searchlab.studies.tradeoff.tradeoff_tables import load_table

#: the GSPRT as the reports state it
GSPRT_TEXT = (f"GSPRT H0: Elo = {GSPRT_ELO0:g} against H1: Elo = {GSPRT_ELO1:+g} (A over B), "
              f"alpha = {GSPRT_ALPHA}, beta = {GSPRT_BETA}, exact pentanomial LLR")


def has_games(run_dir: str | Path) -> bool:
    return any((Path(run_dir) / "games").glob("part-*.parquet"))


def pairings(run_dirs: list[str | Path]) -> pd.DataFrame:
    """One row per pairing (studies.tradeoff.matches.summarize_games) over the runs that stored game
    pairs, with the run's directory in ``run``."""
    parts = []
    for d in run_dirs:
        if has_games(d):
            s = load_table(d, "matches")
            s["run"] = str(d)
            parts.append(s)
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


def _f(x: float) -> str:
    """An Elo figure: whole numbers, ±∞ where a score of 0 or 1 makes it infinite."""
    x = float(x)
    if math.isinf(x):
        return "∞" if x > 0 else "−∞"
    return number(round(x)) if math.isfinite(x) else number(x)


def _depth(v: PairingVerdict) -> str:
    if math.isnan(v.depth_bought):
        return "-"
    ci = "" if math.isnan(v.depth_lo) else f" [{v.depth_lo:+.2f}, {v.depth_hi:+.2f}]"
    return f"{v.depth_bought:+.2f}{ci}"


def budget_text(r) -> str:
    """A pairing's budget per move: its nodes, or under a time control "cap N" (the budget
    is then a node cap; the time is in the play column)."""
    cap = str(r.get("budget_mode", "nodes")) == "cpu"
    return ("cap " if cap else "") + f"{int(r['budget']):,}"


#: what the "p (Holm)" column of a pairing table holds
HOLM_NOTE = ("Column \"p (Holm)\": the two-sided p-value of \"A's score = ½\" (pentanomial over the "
             "game pairs), then in brackets the same p after Holm's correction for testing every "
             "pairing of the table at once (each pairing's p multiplied by the number of pairings "
             "not yet rejected, kept monotone, capped at 1: \"(1)\" means the adjusted p is 1, no "
             "evidence once the other pairings are counted); \"-\": not testable.")


def pairing_table(summary: pd.DataFrame, verdicts: list[PairingVerdict]) -> str:
    """Markdown: per pairing how both sides played, games, pairs, the pentanomial counts,
    score, Elo with its 95 % CI, p and Holm-adjusted p, the GSPRT (LLR and state; GSPRT_TEXT),
    the smallest detectable Elo, mean depths, the depth bought with its paired 95 % CI, the
    node ratio, and the verdict words (match_words.pairing_words); HOLM_NOTE says what the
    "p (Holm)" column holds."""
    by = {(v.domain, v.technique, v.budget, v.play): v for v in verdicts}
    lines = ["| domain | A (vs sound alpha-beta) | play | nodes / move | games | pairs | "
             "pentanomial 0-½-1-1½-2 | A's score | Elo (A − B) [95 % CI] | p (Holm) | "
             f"GSPRT LLR: state | detectable Elo ({POWER:.0%} power) | mean depth A / B | "
             "depth bought A − B [95 % CI] | node ratio A / B | verdict |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for _, r in summary.iterrows():
        v = by.get((r["domain"], r["technique"], int(r["budget"]), play_text(r)))
        pent = "-".join(str(int(r[f"p{k}"])) for k in range(5))
        llr = r.get("gsprt_llr", math.nan)
        lines.append(
            f"| {r['domain']} | {r['technique']} | {play_text(r)} | {budget_text(r)} | "
            f"{int(r['games'])} | {int(r['pairs'])} | {pent} | {r['score']:.3f} | "
            f"{_f(r['elo'])} [{_f(r['elo_lo'])}, {_f(r['elo_hi'])}] | "
            + (f"{r['p_value']:.3g} ({v.p_holm:.3g})" if v and v.kind != "not testable"
               else "-")
            + (f" | {llr:.2f}: {r['gsprt_state']}" if math.isfinite(llr) else " | -")
            + f" | ±{_f(r['min_elo'])} | {r['a_mean_depth']:.2f} / {r['b_mean_depth']:.2f} | "
            f"{_depth(v) if v else '-'} | "
            + (f"{v.node_ratio:.3f}" if v and math.isfinite(v.node_ratio) else "-")
            + f" | {v.words if v else 'no complete pair'} |")
    return "\n".join(lines) + "\n\n" + HOLM_NOTE


def opening_sets(run_dirs: list[str | Path]) -> list[str]:
    """One line per (run, domain) naming the opening set: how many, of how many plies, the
    first three, and where the full list is (the ``opening`` column of the run's games)."""
    out = []
    for d in run_dirs:
        if not has_games(d):
            continue
        g = load_table(d, "games")
        for dom, part in g.groupby("domain", sort=True):
            ops = part.drop_duplicates("pair").sort_values("pair")
            first = ", ".join(f"`{o}`" for o in ops["opening"].head(3))
            plies = sorted({len(o.split()) if dom != "connect4" else len(o)
                            for o in ops["opening"]})
            out.append(f"{dom}: {len(ops)} distinct random openings of {'/'.join(map(str, plies))} "
                       f"plies (pairs {int(ops['pair'].min())}-{int(ops['pair'].max())}; first "
                       f"{first}; all in the `opening` column of `{_shown_path(Path(d) / 'games')}`)")
    return out


def _shown_path(p: Path) -> str:
    """A run's table as the report shows it: from its ``results`` folder on (the repository's
    layout, the same on every machine), else relative to the working directory, else the run's
    folder and the table's name; never the absolute path of the machine that wrote it."""
    parts = Path(p).parts
    if "results" in parts:
        return Path(*parts[len(parts) - 1 - parts[::-1].index("results"):]).as_posix()
    try:
        return Path(p).resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return Path(*parts[-2:]).as_posix()


#: the date the verdict rules of ``match_verdict`` were fixed (docs/matches.md, "The verdict on
#: 000-n / 001-l: fixed rules")
RULES_FIXED = "2026-12-05"


def match_verdict(summary: pd.DataFrame) -> tuple[str, str, list[PairingVerdict]]:
    """(category, detail, per-pairing verdicts) for part (b) of claim 000-n/001-l, "the depth
    bought is worth more than the error", by the fixed rules of docs/matches.md (RULES_FIXED):
    every pairing of ``summary`` is counted, at equal nodes and at equal CPU time per move
    alike, with one Holm correction over all of them; each is worded by
    match_words.pairing_words (pairings that buy too little depth are not judged on strength):

    - "holds": every pairing "stronger";
    - "holds only under conditions": some pairings "stronger", others not; the detail names
      the conditions (equal nodes or equal CPU time, domain, budget) with and without a
      stronger pairing (``conditions_text``);
    - "does not hold": none "stronger", at least one "weaker" (a pairing that buys depth and
      loses): the claim is not reproduced at these budgets with these implementations;
    - "not shown at this power": none decided (the CI half widths and detectable Elo stated).

    The detail counts every word, per condition too, names the decided pairings, states how
    the pairings were played, the GSPRT's hypotheses, and which conditions were not played
    (no time-control pairing: "equal CPU time: not played"). Which pairings the summary holds
    (engine-grade only) is the caller's choice (tradeoff_report.engine_grade), declared there."""
    verdicts = judge_pairings(summary, ALPHA, MARGIN)
    stronger = [v for v in verdicts if v.words == STRONGER]
    weaker = [v for v in verdicts if v.words == WEAKER]
    no_depth = [v for v in verdicts if v.words == NO_DEPTH]
    no_diff = [v for v in verdicts if v.words.startswith("no difference shown")]
    not_shown = [v for v in verdicts if v.words == NOT_SHOWN]
    untested = [v for v in verdicts if v.kind == "not testable"]

    def names(vs):
        return ", ".join(f"{v.technique} in {v.domain} at {v.condition[1]} "
                         f"({_f(v.elo)} [{_f(v.elo_lo)}, {_f(v.elo_hi)}] Elo, depth bought "
                         f"{_depth(v)})" for v in vs)
    plays = sorted({v.play for v in verdicts})
    det = (f"{len(verdicts)} pairings (played {', '.join(plays) or '-'}), Holm's correction "
           f"over the {len(verdicts) - len(untested)} testable ones at level {ALPHA}: stronger "
           f"in {len(stronger)}, weaker in {len(weaker)}, no difference shown in "
           f"{len(no_diff)}, not shown at this power in {len(not_shown)}, buys too little depth in "
           f"{len(no_depth)} (depth bought's 95 % CI lies below the minimum gain of "
           f"{MIN_DEPTH_GAIN:g} ply: strength "
           f"not judged)"
           + (f"; {len(untested)} not testable (under {MIN_PAIRS} pairs or no variance)"
              if untested else ""))
    det = f"{conditions_text(verdicts)}; {det}"
    if stronger and len(stronger) == len(verdicts):
        cat = "holds"
    elif stronger:
        cat = "holds only under conditions"
    elif weaker:
        cat = "does not hold"
        det = "not reproduced at these budgets with these implementations; " + det
    else:
        cat = "not shown at this power"
    if stronger:
        det += f"; stronger: {names(stronger)}"
    if weaker:
        det += f"; weaker: {names(weaker)}"
    if no_depth:
        det += f"; buys too little depth: {names(no_depth)}"
    if no_diff:
        det += "; no difference shown: " + ", ".join(
            f"{v.technique} in {v.domain} at {v.condition[1]} ({v.words})" for v in no_diff)
    if not_shown:
        mde = [v.min_elo for v in not_shown]
        det += (f"; not shown at this power: {len(not_shown)}, the runs detect differences of "
                f"{_f(min(mde))}–{_f(max(mde))} Elo or more ({POWER:.0%} power, level {ALPHA}, "
                f"before Holm)")
    det += f"; {GSPRT_TEXT}: " + ", ".join(
        f"{s} {sum(v.gsprt_state == s for v in verdicts)}"
        for s in ("H1 accepted", "H0 accepted", "continue"))
    det += f"; rules fixed {RULES_FIXED} (docs/matches.md)"
    return cat, det, verdicts


def by_condition(verdicts: list[PairingVerdict]) -> dict[tuple[str, str, str], list[PairingVerdict]]:
    """The verdicts grouped by condition (kind, domain, budget): equal nodes before equal CPU
    time, then by domain and budget as they sort."""
    out: dict[tuple[str, str, str], list[PairingVerdict]] = {}
    for v in verdicts:
        kind, budget = v.condition
        out.setdefault((kind, v.domain, budget), []).append(v)
    rank = {EQUAL_NODES: 0, EQUAL_TIME: 1}
    return dict(sorted(out.items(), key=lambda kv: (rank.get(kv[0][0], 2), kv[0][1],
                                                    kv[1][0].cpu_seconds if kv[0][0] == EQUAL_TIME
                                                    else kv[1][0].budget)))


def conditions_text(verdicts: list[PairingVerdict]) -> str:
    """The conditions the verdict rests on, named and counted: per kind (equal nodes, equal CPU
    time per move) the conditions (domain, budget) with their stronger / weaker / other counts;
    where some pairings are stronger, the conditions with and without a stronger one; a kind
    with no pairing: "not played"."""
    groups = by_condition(verdicts)
    parts = []
    for kind in (EQUAL_NODES, EQUAL_TIME):
        mine = {k: vs for k, vs in groups.items() if k[0] == kind}
        if not mine:
            parts.append(f"{kind} per move: not played (no such pairing among the runs read)")
            continue
        n = sum(len(vs) for vs in mine.values())
        s = sum(v.words == STRONGER for vs in mine.values() for v in vs)
        cells = ", ".join(
            f"{dom} {budget} ({sum(v.words == STRONGER for v in vs)} stronger, "
            f"{sum(v.words == WEAKER for v in vs)} weaker of {len(vs)})"
            for (_, dom, budget), vs in mine.items())
        parts.append(f"{kind} per move: stronger in {s} of {n} pairings: {cells}")
    with_s = [f"{k[0]}, {k[1]}, {k[2]}" for k, vs in groups.items()
              if any(v.words == STRONGER for v in vs)]
    without = [f"{k[0]}, {k[1]}, {k[2]}" for k, vs in groups.items()
               if not any(v.words == STRONGER for v in vs)]
    text = "conditions: " + "; ".join(parts)
    if with_s and without:
        text += (f"; a stronger pairing only under: {' | '.join(with_s)}; none under: "
                 f"{' | '.join(without)}")
    return text


def write_matches_report(run_dir: str | Path) -> Path:
    """report.md of a matches-only trade-off run: the opening set, the pairing table, the
    verdict of its pairings, the run's time."""
    run_dir = Path(run_dir)
    summary = pairings([run_dir])
    cat, det, verdicts = match_verdict(summary)
    sess = {}
    try:
        sess = (json.loads((run_dir / "provenance.json").read_text()).get("sessions") or [{}])[-1]
    except (OSError, ValueError):
        pass
    cpu = sess.get("task_cpu_seconds") or {}
    plays = sorted({v.play for v in verdicts})
    out = [f"# {run_dir.name}: unsound pruning against sound alpha-beta in game pairs", "",
           "Each technique (A) plays sound alpha-beta (B) with the same ordering and budget "
           f"per move (nodes, or CPU time under a time control; compiled engine), both playing {' / '.join(plays) or '-'} "
           "(engine: one iterative deepening per move, table, killers and history kept across "
           "its iterations, and across moves with persist; fresh-per-depth: every depth a "
           "fresh search); every opening is played twice, colours swapped (a game pair). "
           "Statistics: pentanomial over the pairs (searchlab/analysis/stats.py): Elo with a "
           f"fixed-n 95 % CI, Holm's correction over the pairings, {GSPRT_TEXT}, the smallest "
           f"Elo difference the run detects at {POWER:.0%} power and level {ALPHA}; the depth "
           "bought (A's mean depth per move minus B's, per game pair, Student-t 95 % CI) and "
           "the node ratio beside Elo. Verdict words per pairing: stronger / weaker (Holm), "
           f"no difference shown at ±X Elo (the CI lies within ±X, X at most {MARGIN:.0f}), not "
           f"shown at this power, or buys too little depth (the depth bought's CI lies below the stated "
           f"minimum gain of {MIN_DEPTH_GAIN:g} ply: strength not judged; a depth CI that contains "
           f"0 but reaches {MIN_DEPTH_GAIN:g} ply is 'not shown at this power').", "",
           f"**Verdict (the depth bought is worth more than the error):** {cat}: {det}.", "",
           "Openings:", ""] + [f"- {x}" for x in opening_sets([run_dir])]
    out += ["", pairing_table(summary, verdicts), "",
            "Game endings per pairing: " + "; ".join(
                f"{r['domain']} {r['technique']}: {r['endings']}" for _, r in summary.iterrows()),
            "", f"Commit {sess.get('commit', 'unknown')}; CPU seconds per domain: "
            + (", ".join(f"{k} {v:.0f}" for k, v in cpu.items()) or "not recorded")
            + f"; wall {sess.get('seconds', 'not recorded')} s (last session)."]
    path = run_dir / "report.md"
    path.write_text("\n".join(out) + "\n")
    return path

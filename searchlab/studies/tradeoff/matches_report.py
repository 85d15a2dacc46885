"""The matches of trade-off runs played in stored game pairs: the pairing table (pentanomial
statistics, Holm-adjusted p-values, the smallest detectable Elo), the opening sets named, the
verdict on "the depth bought is worth more than the error", and report.md of a matches-only
run (presets unsound_matches, chess_matches).

Every number comes from the runs' ``games/`` tables (studies/tradeoff/matches.py summarises them).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pandas as pd

from searchlab.analysis.format import number
from searchlab.studies.tradeoff.matches import ALPHA, MIN_PAIRS, POWER, PairingVerdict, judge_pairings
from searchlab.studies.tradeoff.tradeoff_tables import load_table

#: the equivalence margin (Elo) below which a pairing whose CI lies inside counts as "no effect"
MARGIN = 50.0


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


def pairing_table(summary: pd.DataFrame, verdicts: list[PairingVerdict]) -> str:
    """Markdown: per pairing games, pairs, the pentanomial counts, score, Elo with its 95 % CI,
    p and Holm-adjusted p, the smallest detectable Elo, the verdict kind."""
    by = {(v.domain, v.technique, v.budget): v for v in verdicts}
    lines = ["| domain | A (vs sound alpha-beta) | nodes / move | games | pairs | pentanomial "
             "0-½-1-1½-2 | A's score | Elo (A − B) [95 % CI] | p (Holm) | detectable Elo "
             f"({POWER:.0%} power) | mean depth A / B | verdict |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for _, r in summary.iterrows():
        v = by.get((r["domain"], r["technique"], int(r["budget"])))
        pent = "-".join(str(int(r[f"p{k}"])) for k in range(5))
        lines.append(
            f"| {r['domain']} | {r['technique']} | {int(r['budget']):,} | {int(r['games'])} | "
            f"{int(r['pairs'])} | {pent} | {r['score']:.3f} | {_f(r['elo'])} "
            f"[{_f(r['elo_lo'])}, {_f(r['elo_hi'])}] | "
            + (f"{r['p_value']:.3g} ({v.p_holm:.3g})" if v and v.kind != "not testable"
               else "-")
            + f" | ±{_f(r['min_elo'])} | {r['a_mean_depth']:.2f} / {r['b_mean_depth']:.2f} | "
            f"{v.kind if v else 'no complete pair'} |")
    return "\n".join(lines)


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
                       f"{first}; all in the `opening` column of `{Path(d) / 'games'}`)")
    return out


def match_verdict(summary: pd.DataFrame) -> tuple[str, str, list[PairingVerdict]]:
    """(category, detail, per-pairing verdicts) for part (b) of claim 000-n/001-l, "the depth
    bought is worth more than the error", from pairings in game pairs with Holm's correction
    over all of them:

    - "holds": every pairing shows A (the unsound technique) stronger;
    - "holds only under conditions": some pairings show A stronger, others not (named);
    - "does not hold": no pairing shows A stronger and at least one shows it weaker;
    - "not shown at this power": no pairing is decided (the detectable Elo stated)."""
    verdicts = judge_pairings(summary, ALPHA, MARGIN)
    stronger = [v for v in verdicts if v.kind == "A stronger"]
    weaker = [v for v in verdicts if v.kind == "A weaker"]
    untested = [v for v in verdicts if v.kind == "not testable"]
    rest = [v for v in verdicts if v.kind not in ("A stronger", "A weaker", "not testable")]

    def names(vs):
        return ", ".join(f"{v.technique} in {v.domain} at {v.budget:,} nodes "
                         f"({_f(v.elo)} [{_f(v.elo_lo)}, {_f(v.elo_hi)}])" for v in vs)
    det = (f"{len(verdicts)} pairings, Holm's correction over the {len(verdicts) - len(untested)} "
           f"testable ones at level {ALPHA}: A stronger in {len(stronger)}, weaker in "
           f"{len(weaker)}, neither in {len(rest)}"
           + (f", {len(untested)} not testable (under {MIN_PAIRS} pairs or no variance)"
              if untested else ""))
    if stronger and not weaker and not rest and not untested:
        cat = "holds"
    elif stronger:
        cat = "holds only under conditions"
    elif weaker:
        cat = "does not hold"
    else:
        cat = "not shown at this power"
    if stronger:
        det += f"; worth it: {names(stronger)}"
    if weaker:
        det += f"; not worth it: {names(weaker)}"
    if rest or untested:
        mde = [v.min_elo for v in rest + untested]
        eq = [v for v in rest if v.kind == "no effect"]
        det += (f"; undecided: {len(rest) + len(untested)}" + (f" ({len(eq)} with the CI inside ±{MARGIN:.0f} "
                                                 f"Elo)" if eq else "")
                + f", the runs detect differences of {_f(min(mde))}–{_f(max(mde))} Elo or more "
                f"({POWER:.0%} power, level {ALPHA}, before Holm)")
    return cat, det, verdicts


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
    out = [f"# {run_dir.name}: unsound pruning against sound alpha-beta in game pairs", "",
           "Each technique (A) plays sound alpha-beta (B) with the same ordering; each side "
           "deepens iteratively until its node budget per move is spent (compiled engine); "
           "every opening is played twice, colours swapped (a game pair). Statistics: "
           "pentanomial over the pairs (searchlab/analysis/stats.py), Holm's correction over "
           "the pairings, the smallest Elo difference the run detects at "
           f"{POWER:.0%} power and level {ALPHA}.", "",
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

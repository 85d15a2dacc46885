"""Deep real-game ordering studies: per-position paired comparisons of policies at depth.

The tables come from the presets ordering_connect4_deep, ordering_othello_deep and
ordering_hex_deep (experiments/): >= 100 positions per game, every policy searched
on every position at every depth of its sweep, on the compiled engine, with a per-search node
budget (a search that reaches it has status "aborted").

Vocabulary (searchlab.studies.sweep.policies): a *setting* is a game with its position source
(``connect4 Test_L1_R1``, ``othello ply 20``, ``hex 7x7 ply 4``); a *unit* is one position;
counts are ``nodes`` (root and leaves included; for ``id`` every iteration).

- A depth is *complete* for a policy when the policy finished (status "ok") on every position
  of the setting there. Comparisons use complete depths only: a mean over the positions that
  finished inside the budget would leave out the hard ones and bias the ratio low.
- ``paired_comparison``: nodes(policy) / nodes(baseline) on the same positions at the deepest
  depth complete for both (or a given depth): the geometric mean of the per-position ratios and
  the ratio of the means, each with a bootstrap CI that resamples positions
  (searchlab.analysis.stats.paired_ratio), and the two-sided p-value of a paired t-test of the
  log ratios (scipy.stats.ttest_1samp).
- ``ebf_at_depth``: per policy, the effective branching factor at its deepest complete depth d
  from the same positions' counts at d and d - 2 (so the parity of d cancels):
  EBF = sqrt(geometric mean of nodes(d) / nodes(d - 2)), with the CI of that paired ratio.
- ``deep_checks``: the comparisons the ordering claims rest on (CLAIM_COMPARISONS), per game,
  with Holm-adjusted p-values per claim family and the verdict kind of each
  (searchlab.analysis.stats.classify: the claim is "fewer nodes than the baseline").
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Optional

import numpy as np
import pandas as pd
from scipy import stats as sst

from searchlab.games.registry import registry as game_registry
from searchlab.errors import InvalidParameterError

from searchlab.analysis.estimators import Estimate
from searchlab.studies.sweep.policies import prepare
from searchlab.analysis.stats import classify, holm, paired_ratio
from searchlab.analysis.markdown_tables import md_table

__all__ = ["GAME_ORDER", "DEEP_STUDIES", "CLAIM_COMPARISONS", "PairedComparison", "complete_depths", "common_depths",
           "paired_comparison", "ebf_at_depth", "claim_comparisons", "deep_checks", "deep_section",
           "dataset_label", "fmt_comparison"]

#: the game's own order (claim 002-a) per game
#: each game's own order (the game registry's own_ordering), for the games that have one
GAME_ORDER = {name: e.own_ordering for name, e in game_registry().items() if e.own_ordering}
#: the presets whose tables deep_checks reads (analysis/reproduce.py runs them)
DEEP_STUDIES = ("ordering_connect4_deep", "ordering_othello_deep", "ordering_hex_deep")
_DYN = "id+tt+killer+history"

#: claim family -> (policy, baseline) pairs; "{X}" is the game's own order. Each pair is judged
#: at the deepest depth complete for both policies on every position.
CLAIM_COMPARISONS: dict[str, list[tuple[str, str]]] = {
    "game order": [("{X}", "natural"), (_DYN + "+{X}", _DYN)],
    "iterative deepening": [("id", "natural"), (_DYN, "tt+killer+history")],
    "killer and history": [("killer", "natural"), ("history", "natural"), (_DYN, "id+tt")],
    "transposition table": [("tt", "natural"), ("id+tt", "id")],
    "perfect order": [("perfect", "natural")],
}


@dataclass(frozen=True)
class PairedComparison:
    """nodes(policy) / nodes(baseline) over the same ``n`` positions of ``setting`` at depth
    ``d`` (both finished on all of them). ``ratio``: geometric mean of per-position ratios with
    a bootstrap CI; ``mean_ratio``: sum / sum with its CI; ``p_raw``: paired t-test of the log
    ratios against 0 (two-sided); ``p_holm`` and ``kind`` are set by ``deep_checks``."""

    setting: str
    policy: str
    baseline: str
    d: int
    n: int
    ratio: Estimate
    mean_ratio: Estimate
    p_raw: float
    p_holm: float = math.nan
    kind: str = ""


def _units(df: pd.DataFrame) -> dict[str, int]:
    """Positions per setting, over every row (aborted and failed included)."""
    return {s: int(g["unit"].nunique()) for s, g in df.groupby("setting")}


def _with_keys(table: pd.DataFrame) -> pd.DataFrame:
    """All rows with setting / policy / unit columns (policies.prepare keeps only ok rows)."""
    if table.empty:
        raise InvalidParameterError("the table has no rows")
    t = table.reset_index(drop=True)
    status = t["status"].astype(str) if "status" in t else pd.Series("ok", index=t.index)
    df = prepare(t.assign(status="ok"))
    df["status"] = status.loc[df.index].to_numpy()
    df["ok"] = df["status"].eq("ok")
    return df


def complete_depths(table: pd.DataFrame) -> pd.DataFrame:
    """Per setting and policy: the depths searched, the deepest complete depth (every position
    finished, status ok; NaN if none) and the shallowest depth with an unfinished position.
    Columns: setting, policy, positions, depths, deepest_complete, first_incomplete,
    aborted (rows with status aborted), engines (the `engine` column's values)."""
    df = _with_keys(table)
    units = _units(df)
    rows = []
    for (setting, policy), g in df.groupby(["setting", "policy"], sort=True):
        done = g.groupby("d")["ok"].sum()
        full = sorted(int(d) for d, k in done.items() if k == units[setting])
        short = sorted(int(d) for d, k in done.items() if k < units[setting])
        engines = ",".join(sorted(g["engine"].dropna().astype(str).unique())) if "engine" in g else ""
        rows.append(dict(setting=setting, policy=policy, positions=units[setting],
                         depths=f"{int(g['d'].min())}-{int(g['d'].max())}",
                         deepest_complete=full[-1] if full else math.nan,
                         first_incomplete=short[0] if short else math.nan,
                         aborted=int((g["status"] == "aborted").sum()), engines=engines))
    return pd.DataFrame(rows, columns=["setting", "policy", "positions", "depths", "deepest_complete",
                                       "first_incomplete", "aborted", "engines"])


def _nodes(df: pd.DataFrame, setting: str, policy: str, d: int) -> pd.Series:
    g = df[(df["setting"] == setting) & (df["policy"] == policy) & (df["d"] == d) & df["ok"]]
    return g.set_index("unit")["nodes"].astype(float)


def _complete(df: pd.DataFrame, setting: str, policy: str, n_units: int) -> list[int]:
    g = df[(df["setting"] == setting) & (df["policy"] == policy) & df["ok"]]
    k = g.groupby("d")["unit"].nunique()
    return sorted(int(d) for d, v in k.items() if v == n_units)


def _log_ttest(a: np.ndarray, b: np.ndarray) -> float:
    lr = np.log(a / b)
    if np.ptp(lr) == 0:                       # every position gives the same ratio
        return 1.0 if lr[0] == 0 else 0.0
    return float(sst.ttest_1samp(lr, 0.0).pvalue)


def paired_comparison(table: pd.DataFrame, setting: str, policy: str, baseline: str,
                      d: Optional[int] = None, *, n_resamples: int = 999,
                      seed: int = 0) -> Optional[PairedComparison]:
    """``policy`` against ``baseline`` on ``setting`` (module docstring). ``d`` None: the deepest
    depth complete for both. None when no depth is complete for both (or ``d`` is not);
    InvalidParameterError when the setting or a policy is not in the table."""
    df = table if "ok" in table.columns and "unit" in table.columns else _with_keys(table)
    if setting not in set(df["setting"]):
        raise InvalidParameterError(f"setting {setting!r} is not in the table; it has "
                                    f"{sorted(df['setting'].unique())}")
    have = set(df.loc[df["setting"] == setting, "policy"])
    for p in (policy, baseline):
        if p not in have:
            raise InvalidParameterError(f"policy {p!r} has no rows for {setting!r}; it has {sorted(have)}")
    n_units = _units(df)[setting]
    common = sorted(set(_complete(df, setting, policy, n_units)) & set(_complete(df, setting, baseline, n_units)))
    if d is None:
        if not common:
            return None
        d = common[-1]
    elif d not in common:
        return None
    a, b = _nodes(df, setting, policy, d), _nodes(df, setting, baseline, d)
    units = a.index.intersection(b.index)
    a, b = a[units].to_numpy(), b[units].to_numpy()
    return PairedComparison(setting, policy, baseline, int(d), len(units),
                            paired_ratio(a, b, kind="geometric", n_resamples=n_resamples, seed=seed),
                            paired_ratio(a, b, kind="mean", n_resamples=n_resamples, seed=seed),
                            _log_ttest(a, b))


def common_depths(table: pd.DataFrame) -> dict[str, int]:
    """Per setting, the deepest depth d >= 3 at which every policy finished every position at d
    and at d - 2 (settings without one are left out): where policies' EBFs compare."""
    df = _with_keys(table)
    units = _units(df)
    out = {}
    for setting, g in df.groupby("setting", sort=True):
        fulls = [set(_complete(df, setting, p, units[setting])) for p in g["policy"].unique()]
        both = set.intersection(*fulls)
        ds = [d for d in both if d >= 3 and d - 2 in both]
        if ds:
            out[setting] = max(ds)
    return out


def ebf_at_depth(table: pd.DataFrame, *, at: Optional[dict[str, int]] = None,
                 n_resamples: int = 999) -> pd.DataFrame:
    """Per setting and policy, the EBF at the deepest complete depth d >= 3 whose d - 2 is also
    complete (or at ``at[setting]``, e.g. common_depths(), where both are complete): sqrt of the
    geometric mean over positions of nodes(d) / nodes(d - 2), with a bootstrap CI (positions
    resampled); b̄ the setting's mean measured branching factor (column ``branching``) and
    alpha = log EBF / log b̄. Columns: setting, policy, d, n, ebf, ebf_low, ebf_high, bbar,
    alpha."""
    df = _with_keys(table)
    units = _units(df)
    rows = []
    for (setting, policy), _ in df.groupby(["setting", "policy"], sort=True):
        full = _complete(df, setting, policy, units[setting])
        ds = [d for d in full if d >= 3 and d - 2 in full]
        if at is not None:
            ds = [d for d in ds if d == at.get(setting)]
        if not ds:
            continue
        d = ds[-1]
        a, b = _nodes(df, setting, policy, d), _nodes(df, setting, policy, d - 2)
        r = paired_ratio(a.to_numpy(), b[a.index].to_numpy(), kind="geometric", n_resamples=n_resamples)
        bbar = float(df.loc[df["setting"] == setting, "bbar"].mean())
        e = math.sqrt(r.value)
        rows.append(dict(setting=setting, policy=policy, d=d, n=len(a), ebf=e,
                         ebf_low=math.sqrt(r.low) if math.isfinite(r.low) else math.nan,
                         ebf_high=math.sqrt(r.high) if math.isfinite(r.high) else math.nan,
                         bbar=bbar, alpha=math.log(e) / math.log(bbar) if e > 0 and bbar > 1 else math.nan))
    return pd.DataFrame(rows, columns=["setting", "policy", "d", "n", "ebf", "ebf_low", "ebf_high",
                                       "bbar", "alpha"])


def _game_of(df: pd.DataFrame, setting: str) -> str:
    return str(df.loc[df["setting"] == setting, "game"].iloc[0])


def claim_comparisons(game: str) -> dict[str, list[tuple[str, str]]]:
    """CLAIM_COMPARISONS with the game's own order filled in (InvalidParameterError for a game
    without one)."""
    if game not in GAME_ORDER:
        raise InvalidParameterError(f"game must be one of {sorted(GAME_ORDER)}; got {game!r}")
    x = GAME_ORDER[game]
    return {fam: [(p.format(X=x), q.format(X=x)) for p, q in pairs]
            for fam, pairs in CLAIM_COMPARISONS.items()}


def dataset_label(df: pd.DataFrame, setting: str) -> str:
    """The data set of a setting, named: its positions and where they come from."""
    g = df[df["setting"] == setting]
    game, n = _game_of(df, setting), int(g["unit"].nunique())
    src = str(g["positions"].iloc[0]) if "positions" in g else ""
    if game == "connect4":
        return f"Connect Four, {n} positions of Pons' {src} (a seeded sample of the file)"
    if game == "othello":
        return f"Othello, {n} seeded random-play positions after {setting.split()[-1]} plies"
    if game == "hex":
        return f"Hex {src}, {n} seeded random-play positions after {setting.split()[-1]} moves"
    return f"{setting}, {n} positions"


def deep_checks(table: pd.DataFrame, *, n_resamples: int = 999) -> dict[str, Any]:
    """Every comparison of CLAIM_COMPARISONS on every game setting of ``table``, with p-values
    Holm-adjusted per claim family over the games, and each comparison's verdict kind
    (classify of the geometric-mean ratio's CI against 1, claimed side: below 1; a CI that
    excludes 1 but whose Holm-adjusted p exceeds 0.05 is "not shown at this power").
    Returns {"settings": {setting: {dataset, game, order, n, bbar}}, "families": {family:
    [PairedComparison]}, "depths": complete_depths(), "ebf": ebf_at_depth(), "common":
    common_depths(), "ebf_common": ebf_at_depth(at=common_depths()), "means": {setting:
    {d: {policy: mean nodes}}} over the complete cells}. Settings of
    games without an own order are left out; InvalidParameterError when none is left."""
    df = _with_keys(table)
    df = df[df["game"].isin(list(GAME_ORDER))] if "game" in df else df.iloc[0:0]
    if df.empty:
        raise InvalidParameterError("the table has no rows of a game with its own order "
                                    f"({', '.join(sorted(GAME_ORDER))})")
    settings = {}
    families: dict[str, list[PairedComparison]] = {f: [] for f in CLAIM_COMPARISONS}
    for setting in sorted(df["setting"].unique()):
        game = _game_of(df, setting)
        have = set(df.loc[df["setting"] == setting, "policy"])
        settings[setting] = dict(dataset=dataset_label(df, setting), game=game, order=GAME_ORDER[game],
                                 n=int(df.loc[df["setting"] == setting, "unit"].nunique()),
                                 bbar=float(df.loc[df["setting"] == setting, "bbar"].mean()))
        for fam, pairs in claim_comparisons(game).items():
            for p, q in pairs:
                if p in have and q in have:
                    c = paired_comparison(df, setting, p, q, n_resamples=n_resamples)
                    if c is not None:
                        families[fam].append(c)
    for fam, comps in families.items():
        if not comps:
            continue
        adj = holm([c.p_raw for c in comps])
        out = []
        for c, p in zip(comps, adj):
            kind = classify(c.ratio.low, c.ratio.high, 1.0, direction=-1) \
                if math.isfinite(c.ratio.low) and math.isfinite(c.ratio.high) else "not shown at this power"
            if kind in ("shown", "contradicted") and p > 0.05:
                kind = "not shown at this power"
            out.append(PairedComparison(**{**c.__dict__, "p_holm": float(p), "kind": kind}))
        families[fam] = out
    common = common_depths(table)
    return dict(settings=settings, families=families, depths=complete_depths(table),
                ebf=ebf_at_depth(table, n_resamples=n_resamples), common=common,
                ebf_common=ebf_at_depth(table, at=common, n_resamples=n_resamples),
                means=_complete_means(df))


def _complete_means(df: pd.DataFrame) -> dict[str, dict[int, dict[str, float]]]:
    """setting -> depth -> policy -> mean nodes, for the complete (setting, policy, depth) cells."""
    units = _units(df)
    out: dict[str, dict[int, dict[str, float]]] = {}
    for (s, p, d), g in df[df["ok"]].groupby(["setting", "policy", "d"]):
        if g["unit"].nunique() == units[s]:
            out.setdefault(s, {}).setdefault(int(d), {})[p] = float(g["nodes"].mean())
    return out


def _ci(e: Estimate) -> str:
    """'0.216 [0.168, 0.276]' (3 significant digits)."""
    return f"{e.value:.3g} [{e.low:.3g}, {e.high:.3g}]"


def fmt_comparison(c: PairedComparison) -> str:
    """'centre / natural 0.216 [0.168, 0.276] (connect4 Test_L1_R1, d = 10, n = 100, Holm p =
    7.6e-22: shown)': the geometric mean of the per-position ratios with its 95 % CI."""
    return (f"{c.policy} / {c.baseline} {_ci(c.ratio)} ({c.setting}, d = {c.d}, n = {c.n}, "
            f"Holm p = {c.p_holm:.2g}: {c.kind})")


def deep_section(data: dict[str, Any]) -> str:
    """The report section: data sets, the depth each policy reached, EBF at depth, and the
    paired comparisons the ordering claims rest on."""
    parts = ["Every policy searched every position at every depth of its study on the compiled engine "
             "(perfect order: the reference engine's exact-value oracle, shallow), with a per-search node "
             "budget; a search that reached it has status \"aborted\". A depth counts for a policy only where "
             "the policy finished on *every* position (a mean over the positions that finished would leave "
             "out the hard ones). Ratios are per position and paired (the same positions, the same depth): "
             "the geometric mean of nodes(policy) / nodes(baseline) with a 95 % bootstrap CI over positions; "
             "p: a paired t-test of the log ratios, Holm-adjusted over the games within each claim family."]
    parts.append("Data sets:\n\n" + "\n".join(f"- `{s}`: {v['dataset']}; mean branching b̄ = {v['bbar']:.2f}"
                                            for s, v in data["settings"].items()))
    dep = data["depths"]
    dep = dep[dep["setting"].isin(list(data["settings"]))]
    ebf = data["ebf"].set_index(["setting", "policy"])
    common = data.get("common", {})
    ebf_c = data["ebf_common"].set_index(["setting", "policy"]) if "ebf_common" in data else ebf.iloc[0:0]
    parts.append("EBF compares across policies only at one depth: the column \"at the common depth\" "
                 "gives every policy's EBF at the deepest depth every policy completed (with d − 2), "
                 "\"at its own depth\" each policy's deepest. α = log EBF / log b̄ measures against the "
                 "root's branching, not against the positions' own minimal trees (tables, shrinking "
                 "branching and quiescence change those): that comparison is the section \"Real games "
                 "against each position's own minimal tree\".")
    for s in data["settings"]:
        rows = []
        for r in dep[dep["setting"] == s].itertuples(index=False):
            key = (s, r.policy)
            e = ebf.loc[key] if key in ebf.index else None
            c = ebf_c.loc[key] if key in ebf_c.index else None
            rows.append([r.policy, r.depths, "none" if math.isnan(r.deepest_complete) else int(r.deepest_complete),
                         "-" if math.isnan(r.first_incomplete) else int(r.first_incomplete), r.aborted, r.engines,
                         "n/a" if c is None else f"{c['ebf']:.3g} [{c['ebf_low']:.3g}, {c['ebf_high']:.3g}]",
                         "n/a" if e is None else f"{e['ebf']:.3g} [{e['ebf_low']:.3g}, {e['ebf_high']:.3g}] (d = {int(e['d'])})",
                         "n/a" if e is None else f"{e['alpha']:.2f}"])
        at = f"d = {common[s]}" if s in common else "none"
        parts.append(f"### {s}: depth reached and EBF per policy\n\n" + md_table(
            ["policy", "depths searched", "deepest complete depth", "first depth with an aborted search",
             "aborted searches", "engine", f"EBF at the common depth ({at}; 95 % CI)",
             "EBF at its own depth (95 % CI)", "α = log EBF / log b̄ (own depth)"], rows))
    rows = []
    for fam, comps in data["families"].items():
        for c in comps:
            rows.append([fam, c.setting, f"{c.policy} / {c.baseline}", c.d, c.n, _ci(c.ratio),
                         _ci(c.mean_ratio), f"{c.p_holm:.2g}", c.kind])
    parts.append("### Paired comparisons the ordering claims rest on\n\n" + md_table(
        ["claim family", "setting", "ratio", "d", "n", "geometric mean (95 % CI)", "ratio of means (95 % CI)",
         "p (Holm)", "kind"], rows))
    return "\n\n".join(parts)

"""Chess ordering as engines compose it, on every WAC and BK position, as a study of the engine
(``searchlab experiment=chess_ordering``, the claim-study family ``chess_ordering``).

Every position (WAC's 300 and BK's 24) is one step: alpha-beta at depth DEPTH with quiescence
(QUIESCENCE plies), iterative deepening and a transposition table, under the staged order of
chess engines and its parts (POLICIES), and ``id+staged`` again under aspiration windows of
half-width ASPIRATION centipawns around the previous iteration's value. Rows go to the table
``chess_order`` (nodes over all iterations, quiescence nodes, cutoffs, re-searches, status,
value). Every search has the same cap (MAX_NODES); a search beyond it is "aborted" and the
positions where either side of a comparison was aborted leave that comparison (counted in
its row: censoring stated, never compared at different caps).

``summarise`` gives the paired comparisons (COMPARISONS): the geometric mean over positions of
nodes(A) / nodes(B) with a paired bootstrap CI (searchlab.analysis.stats.paired_ratio). They
are what claims 000-l/001-i (killers and history on top of the staged order), and 001-k
(captures first; aspiration windows) are judged on in analysis/REPORT.md
(``killer_history_comparison`` in ordering_checks.killer_and_history /
``captures_aspiration_verdict``). Every aspiration search must
return the full window's value (aspiration windows are sound); ``summarise`` counts the
positions where it did not, which must be 0.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import pandas as pd

from searchlab.algorithms.search_api import search
from searchlab.algorithms.pruning import Pruning, Quiescence
from searchlab.analysis.stats import paired_ratio
from searchlab.analysis.markdown_tables import md_table
from searchlab.experiment.games import GameSpec, Position, make_game, select_positions
from searchlab.studies.claim_study.claim_steps import Step
from searchlab.studies.ordering import aspiration_study as AS
from searchlab.studies.claims.verdict import Verdict
from searchlab.analysis.format import interval

__all__ = ["KINDS", "SIZES", "POLICIES", "ASPIRATION", "COMPARISONS", "MAX_NODES", "chess_order_steps",
           "position_rows", "summarise", "section", "killer_history_comparison", "comparison_text",
           "captures_aspiration_verdict"]

KINDS = ("chess_order",)
#: the staged order (tt move, captures by MVV-LVA, killers, quiet moves by history) and its
#: parts, each with iterative deepening and a transposition table
POLICIES = ("id+tt", "id+tt+tactical", "id+staged")
#: aspiration half-widths (centipawns) tried on id+staged
ASPIRATION = (25.0, 50.0, 100.0)
QUIESCENCE = 8
MAX_NODES = 20_000_000
SOURCES = ("wac", "bk")
#: size -> (positions per source (None = all), depth)
SIZES = {"full": (None, 5), "small": (3, 3), "tiny": (1, 2)}
#: (label, A, B, the claim it informs): nodes(A) / nodes(B), paired per position
COMPARISONS = (
    ("killers and history on top of tt + captures", "id+staged", "id+tt+tactical", "000-l"),
    ("captures first (MVV-LVA) after the table's move", "id+tt+tactical", "id+tt", "001-k"),
) + tuple((f"aspiration ±{w:g} cp against the full window", f"id+staged asp {w:g}", "id+staged", "001-k")
          for w in ASPIRATION)


def _variants() -> list[tuple[str, str, float | None]]:
    """(row label, ordering, aspiration) of every search of a position."""
    return [(p, p, None) for p in POLICIES] + [(f"id+staged asp {w:g}", "id+staged", w) for w in ASPIRATION]


def position_rows(spec: GameSpec, position: Position, depth: int) -> list[dict]:
    """One step: every variant's search of one position at ``depth`` with quiescence."""
    game = make_game(spec, position)
    pruning = Pruning(quiescence=Quiescence(max_depth=QUIESCENCE))
    rows = []
    for label, ordering, asp in _variants():
        r = search(game, "alphabeta", ordering, depth=depth, pruning=pruning, aspiration=asp,
                   max_nodes=MAX_NODES)
        rows.append({"source": spec.positions, "instance": position.instance, "position": position.id,
                     "variant": label, "ordering": ordering, "aspiration": math.nan if asp is None else asp,
                     "depth": depth, "status": r.status, "nodes": int(r.nodes), "q_nodes": int(r.q_nodes),
                     "cutoffs": int(r.cutoffs), "re_searches": int(r.re_searches),
                     "value": math.nan if r.value is None else float(r.value)})
    return rows


def chess_order_steps(size: str = "full", seed: int = 0) -> list[Step]:
    """One step per position of WAC and BK (the first ``n`` of a seeded permutation per
    source at small sizes, every position in file order at full size)."""
    n, depth = SIZES[size]
    steps = []
    for source in SOURCES:
        spec = GameSpec("chess", source, sample=n)
        positions = select_positions(spec, seed, 0)
        for pos in positions:
            steps.append(Step("chess_order", (source, pos.instance), position_rows,
                              dict(spec=spec, position=pos, depth=depth), 35 ** (depth / 2)))
    return steps


@dataclass(frozen=True)
class Comparison:
    """nodes(a) / nodes(b) over the positions where both finished."""

    label: str
    a: str
    b: str
    claim: str
    n: int                 # positions compared
    censored: int          # positions left out: either search aborted
    ratio: float           # geometric mean
    low: float
    high: float


def summarise(tables: dict[str, pd.DataFrame], size: str = "full", seed: int = 0, *,
              n_resamples: int = 999) -> dict[str, Any]:
    """The paired comparisons, the depth, the positions, and ``value_mismatches``: positions
    where an aspiration search's value differs from the full window's (must be 0)."""
    t = tables["chess_order"]
    if t.empty:
        return {"comparisons": [], "positions": 0, "depth": SIZES[size][1], "value_mismatches": 0}
    wide = t.pivot_table(index=["source", "instance"], columns="variant", values="nodes", aggfunc="first")
    ok = t.assign(ok=t.status == "ok").pivot_table(index=["source", "instance"], columns="variant",
                                                   values="ok", aggfunc="first")
    value = t.pivot_table(index=["source", "instance"], columns="variant", values="value", aggfunc="first")
    out = []
    for label, a, b, claim in COMPARISONS:
        both = (ok[a] & ok[b]).astype(bool)
        x, y = wide.loc[both, a].to_numpy(float), wide.loc[both, b].to_numpy(float)
        est = paired_ratio(x, y, kind="geometric", n_resamples=n_resamples, seed=seed)
        out.append(Comparison(label, a, b, claim, int(both.sum()), int((~both).sum()), est.value,
                              est.low, est.high))
    mismatches = 0
    for w in ASPIRATION:
        v = f"id+staged asp {w:g}"
        both = (ok[v] & ok["id+staged"]).astype(bool)
        mismatches += int((value.loc[both, v] != value.loc[both, "id+staged"]).sum())
    return {"comparisons": out, "positions": len(wide), "depth": int(t.depth.iloc[0]),
            "value_mismatches": mismatches}


def _ci(c: Comparison) -> str:
    return interval(c.ratio, c.low, c.high, ".3f")


def section(res: dict[str, Any]) -> str:
    """The comparisons' table with the study's design."""
    if not res.get("comparisons"):
        return "The chess ordering study did not run."
    head = ["comparison", "A / B", "positions (censored)", "nodes A / nodes B (geometric mean, 95 % CI)", "claim"]
    rows = [[c.label, f"{c.a} / {c.b}", f"{c.n} ({c.censored})", _ci(c), c.claim] for c in res["comparisons"]]
    return "\n".join([
        f"WAC and BK ({res['positions']} positions), depth {res['depth']} with quiescence ({QUIESCENCE} plies), "
        f"iterative deepening and a transposition table; nodes over all iterations; the same cap "
        f"({MAX_NODES:,} nodes) for every search, and a position leaves a comparison when either "
        "search hit it (censored). `staged` = the table's move, captures by MVV-LVA, killers, "
        "quiet moves by history; `tactical` = captures by MVV-LVA first. Aspiration searches "
        f"returned the full window's value on every position but {res['value_mismatches']}.", "",
        md_table(head, rows), ""])


COMMAND = "searchlab experiment=chess_ordering (run by analysis/reproduce.py; searchlab.studies.ordering.chess_ordering_study)"


def _word(c: Comparison) -> str:
    """'fewer' / 'more' / 'no difference shown' from the CI of nodes(A) / nodes(B)."""
    if c.high < 1:
        return "fewer"
    if c.low > 1:
        return "more"
    return "no difference shown"


def _chess(ctx: Any) -> dict | None:
    res = (ctx.exact or {}).get("chess_ordering")
    return res if res and res.get("comparisons") else None


def killer_history_comparison(ctx: Any) -> Comparison | None:
    """000-l/001-i's chess domain: killers and history added to the staged order's table move
    and captures (``ctx.exact["chess_ordering"]``); None when the study did not run."""
    res = _chess(ctx)
    return None if res is None else next(c for c in res["comparisons"] if c.claim == "000-l")


def comparison_text(c: Comparison) -> str:
    """One comparison as measured text: label, ratio with CI, n and censored positions."""
    return f"{c.label}: nodes {c.a} / {c.b} = {_ci(c)} (n = {c.n}, {c.censored} censored)"


def _synthetic_aspiration(ctx: Any) -> tuple[str, str]:
    """The ordering study's aspiration windows on incremental trees (id+tt), from
    ``ctx.exact["ordering"]["tree"]`` when it ran: (measured text, the widths that cost nodes
    with why, "" when none). Why a window costs: iterative deepening searches iterations 2..d
    with (v - δ, v + δ) around the previous value and re-searches with the full window when the
    result falls outside, so a window that misses at most iterations pays a second search at
    each (searchlab.algorithms.drivers.iterative_deepening)."""
    t = ((ctx.exact or {}).get("ordering") or {}).get("tree") or {}
    asp = t.get("aspiration") or {}
    if "none" not in asp or len(asp) < 2:
        return "", ""
    base, windowed = asp["none"], t["d"] - 1
    parts, costs = [], []
    for k, v in asp.items():
        if k == "none":
            continue
        change = v["nodes"] / base["nodes"] - 1
        line = (f"±{k:g}: nodes {change:+.0%}, cutoffs {v['cutoffs'] - base['cutoffs']:+.0f}, "
                f"{v['re_searches']:.2f} re-searches per search of the {windowed} windowed iterations")
        parts.append(line)
        if change > 0:
            costs.append(f"±{k:g}: {change:+.0%}, the window missed at {v['re_searches']:.2f} of {windowed} iterations")
    text = (f"aspiration windows on incremental trees (b = {t['b']}, d = {t['d']}, correlation 0.5, id+tt, "
            f"n = {t['n']} trees, mean over trees): " + "; ".join(parts))
    return text, "; ".join(costs)


def captures_aspiration_verdict(ctx: Any, fallback=None) -> Verdict:
    """001-k in chess: captures first and aspiration windows, paired per position

    Captures first after the table's move, and aspiration windows on the staged order, each as
    a paired ratio of nodes over WAC + BK (``ctx.exact["chess_ordering"]``); "fewer" / "more"
    when the 95 % CI lies below / above 1. Holds when captures first and at least one
    aspiration width search fewer nodes; does not hold when captures first and every width
    search more; holds only under conditions when captures first search fewer and every width
    more, or when the windows save in chess but cost nodes on the ordering study's incremental
    trees (``_synthetic_aspiration``, quoted with the re-searches that explain it); otherwise not
    shown at this power. Without the study, ``fallback(ctx)`` (no data without a fallback)."""
    res = _chess(ctx)
    if res is None:
        if fallback is None:
            return Verdict("no data", "the chess ordering study did not run", "not measured",
                           "fewer nodes (ratio < 1)", COMMAND)
        return fallback(ctx)
    cs = [c for c in res["comparisons"] if c.claim == "001-k"]
    cap, asp = cs[0], cs[1:]
    cap_w, words = _word(cap), [_word(c) for c in asp]
    measured = "; ".join(comparison_text(c) for c in cs) + f"; depth {res['depth']}, quiescence {QUIESCENCE}"
    theory = "captures first and aspiration windows each search fewer nodes (ratio < 1)"
    detail = (f"captures first: {cap_w} nodes ({cap.ratio:.2f}x); aspiration windows: "
              + ", ".join(f"±{w:g} cp {word} ({c.ratio:.2f}x)" for w, word, c in zip(ASPIRATION, words, asp)))
    synth, costs = _synthetic_aspiration(ctx)
    if synth:
        measured += "; " + synth
    games = (ctx.exact or {}).get("aspiration")            # studies/ordering/aspiration_study.py
    if games is not None and len(games):
        measured += "; " + AS.conditions(games)
        more = AS.costly(games)
        if more:
            costs = "; ".join(x for x in (costs, "in games: " + ", ".join(more)) if x)
    if cap_w == "fewer" and "fewer" in words and costs:
        cat = "holds only under conditions"
        detail += ("; the windows save nodes in chess at this depth but cost nodes elsewhere "
                   "(" + costs + "): they pay only where successive iterations' values stay inside the window")
    elif cap_w == "fewer" and "fewer" in words:
        cat = "holds"
    elif cap_w == "more" and all(w == "more" for w in words):
        cat = "does not hold"
    elif cap_w == "fewer" and all(w == "more" for w in words):
        cat = "holds only under conditions"
        detail += ": captures first holds, aspiration windows cost nodes at every width measured"
    else:
        cat = "not shown at this power"
    return Verdict(cat, detail, measured, theory, COMMAND)

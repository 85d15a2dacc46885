"""The real-game part of the ordering claims (002-a, 000-k/001-h, 000-l/001-i, 000-m/001-j),
judged from the deep studies (ordering_connect4_deep, ordering_othello_deep, ordering_hex_deep):
per-position paired ratios at depth with bootstrap CIs and Holm-adjusted p-values
(searchlab.studies.ordering.deep_ordering.deep_checks, stored as ``exact["deep_ordering"]``).

Each function returns plain values the verdicts of searchlab.studies.ordering.ordering_checks combine with their
synthetic-tree measurements; ``game_order_verdict`` is 002-a's whole verdict (a claim about
games only). A comparison's kind is stats.classify's: "shown" (the CI of nodes(policy) /
nodes(baseline) lies below 1 and the Holm-adjusted p <= 0.05), "contradicted" (above 1),
"not shown at this power".
"""

from __future__ import annotations

from typing import Any, Optional

from searchlab.studies.ordering.deep_ordering import DEEP_STUDIES, PairedComparison, fmt_comparison
from searchlab.studies.claims.verdict import Verdict

COMMAND = ("searchlab.studies.ordering.deep_ordering.deep_checks() on the tables of "
           + ", ".join(f"experiment={s}" for s in DEEP_STUDIES) + " (run by analysis/reproduce.py)")


def data(ctx) -> Optional[dict[str, Any]]:
    """The deep studies' checks, or None when this run has none."""
    return (ctx.exact or {}).get("deep_ordering")


def comparisons(deep: dict[str, Any], family: str, policy: Optional[str] = None) -> list[PairedComparison]:
    """The family's comparisons (only those whose policy is ``policy``, when given)."""
    comps = deep["families"].get(family, [])
    return [c for c in comps if policy is None or c.policy == policy]


def datasets(deep: dict[str, Any]) -> str:
    return "; ".join(f"{v['dataset']}" for v in deep["settings"].values())


def measured(comps: list[PairedComparison]) -> str:
    return "; ".join(fmt_comparison(c) for c in comps)


def combine(kinds: list[str]) -> str:
    """A verdict category from comparison kinds: all shown -> holds; some shown -> holds only
    under conditions; none shown but one contradicted -> does not hold; else not shown at this
    power. ValueError on an empty list."""
    if not kinds:
        raise ValueError("no comparison to judge")
    if all(k == "shown" for k in kinds):
        return "holds"
    if any(k == "shown" for k in kinds):
        return "holds only under conditions"
    if any(k == "contradicted" for k in kinds):
        return "does not hold"
    return "not shown at this power"


def _where(comps: list[PairedComparison], kind: str) -> str:
    return ", ".join(f"{c.setting} ({c.policy} / {c.baseline})" for c in comps if c.kind == kind)


def game_order_verdict(deep: dict[str, Any]) -> Verdict:
    """002-a: the game's own order (centre, corners, adjacent) against natural order, alone and
    on top of id+tt+killer+history; perfect order against natural ("the earlier the good move,
    the more gets cut")."""
    settings = deep["settings"]
    comps = comparisons(deep, "game order")
    alone = [c for c in comps if c.baseline == "natural"]
    on_top = [c for c in comps if c.baseline != "natural"]
    perfect = comparisons(deep, "perfect order")
    if not alone:
        return Verdict("no data", "the deep studies have no game-order comparison", "not measured",
                       "fewer nodes than natural order", COMMAND)
    cat = combine([c.kind for c in alone])
    games_shown = [c.setting for c in alone if c.kind == "shown"]
    det = (f"alone, the game's order searches fewer nodes than natural order in {len(games_shown)}/{len(alone)} "
           f"games ({', '.join(games_shown) or 'none'})")
    if on_top:
        helps = [c for c in on_top if c.kind == "shown"]
        det += (f"; on top of id+tt+killer+history it saves nodes in {len(helps)}/{len(on_top)}"
                + (f" (costs more in {_where(on_top, 'contradicted')})" if _where(on_top, "contradicted") else ""))
        if cat == "holds" and len(helps) < len(on_top):
            cat = "holds only under conditions"
    if perfect:
        det += "; perfect order: " + ", ".join(f"{c.setting} {c.ratio.value:.2g}× natural (d = {c.d})"
                                                for c in perfect)
    missing = [s for s, v in settings.items() if v["order"] and s not in {c.setting for c in alone}]
    if missing:
        det += f"; no complete comparison in {', '.join(missing)}"
    return Verdict(cat, det, f"{datasets(deep)}: " + measured(alone + on_top + perfect),
                   "fewer nodes than natural order (95 % CI of the paired ratio below 1)", COMMAND)


def family_summary(deep: dict[str, Any], family: str) -> tuple[list[str], str]:
    """(kinds, measured text) of a claim family's game comparisons."""
    comps = comparisons(deep, family)
    return [c.kind for c in comps], measured(comps)


def cheapest_single(deep: dict[str, Any], singles: tuple[str, ...] = ("static", "id", "tt", "killer", "history")
                    ) -> list[tuple[str, str, int]]:
    """Per setting, the single technique (the game's own order included) with the fewest mean
    nodes at the deepest depth every one of them completed: [(setting, policy, d)]. Nodes only:
    static ordering's per-child evaluations are not counted."""
    dep = deep["depths"]
    out = []
    for s, v in deep["settings"].items():
        pols = set(singles) | {v["order"]}
        sub = dep[(dep["setting"] == s) & dep["policy"].isin(pols)]
        if sub.empty or sub["deepest_complete"].isna().any():
            continue
        d = int(sub["deepest_complete"].min())
        means = deep.get("means", {}).get(s, {}).get(d, {})
        cands = {p: means[p] for p in pols if p in means}
        if cands:
            out.append((s, min(cands, key=cands.get), d))
    return out

"""The verdict type, the claim record and the context verdicts are computed from.

A verdict's category is one of "holds", "holds only under conditions", "does not hold",
"not shown at this power" (the test could not tell: its CI contains the null value and the run
is too small to rule out the effect; searchlab.analysis.stats.classify), "pending" (needs a
study this run did not include, named) and "no data" (this run has no rows the claim needs; the verdict says which
study provides them). No figure in a verdict is typed by hand: every number
is formatted (``searchlab.analysis.format.number``) from a measurement or a computation.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from typing import Any, Callable

import pandas as pd

#: the studies a pending claim needs (what is run to measure it)
NEEDED_STUDIES: dict[str, str] = {
    "games": "the real-game studies (Connect Four, Othello, chess)",
    "ordering": "the ordering studies (iterative deepening, killer, history, transposition table, aspiration)",
    "unsound": "the trade-off study (null move, LMR, futility, forward pruning, quiescence)",
}


#: the four course notes the claims come from, by title (a claim's id starts with its note's
#: number; docs/claims.md lists every claim)
SOURCES = {
    "000": "note 000, the lecture notes on alpha-beta pruning (the standard tree A, B, C)",
    "001": "note 001, the slides \"Alpha-Beta Pruning Algorithm: Optimization Strategy for Adversarial Search & Game Trees\"",
    "002": "note 002, the demo page \"Alpha-beta pruning: which branches can I skip without changing the answer?\"",
    "003": "note 003, the class \"CSE 4355 W5 C1: Minimax and alpha-beta\"",
}


#: the published results behind the course notes' claims, by short name (docs/claims.md's
#: "Literature"); a claim cites them through LITERATURE_OF
LITERATURE = {
    "Knuth & Moore 1975": "D. E. Knuth and R. W. Moore, \"An analysis of alpha-beta pruning\", Artificial "
                          "Intelligence 6(4):293–326, 1975: alpha-beta's correctness, the minimal tree "
                          "b^⌈d/2⌉ + b^⌊d/2⌋ − 1 under perfect order, no pruning under the worst order",
    "Fuller, Gaschnig & Gillogly 1973": "S. H. Fuller, J. G. Gaschnig and J. J. Gillogly, \"Analysis of the "
                                        "alpha-beta pruning algorithm\", Carnegie Mellon University technical "
                                        "report, 1973: simulations of random order, growth near b^(3/4)",
    "Pearl 1982": "J. Pearl, \"The solution for the branching factor of the alpha-beta pruning algorithm and "
                  "its optimality\", Communications of the ACM 25(8):559–564, 1982: random order's branching "
                  "factor R_b = ξ_b / (1 − ξ_b), ξ_b the positive root of x^b + x − 1 = 0",
    "Marsland 1986": "T. A. Marsland, \"A review of game-tree pruning\", ICCA Journal 9(1):3–19, 1986: "
                     "iterative deepening, killer and history heuristics, transposition tables, aspiration",
}
#: claim id -> the literature it rests on (ids without an entry: the notes' own statements)
LITERATURE_OF = {
    "000-a": ("Knuth & Moore 1975",), "000-e": ("Knuth & Moore 1975",),
    "000-f": ("Fuller, Gaschnig & Gillogly 1973", "Knuth & Moore 1975", "Pearl 1982"),
    "000-g": ("Knuth & Moore 1975",), "000-k": ("Marsland 1986",), "000-l": ("Marsland 1986",),
    "000-m": ("Marsland 1986",),
}


def literature(ids) -> tuple[str, ...]:
    """The literature (short names of :data:`LITERATURE`) behind a claim with these ids."""
    return tuple(dict.fromkeys(ref for i in ids for ref in LITERATURE_OF.get(i, ())))


@dataclass(frozen=True)
class Verdict:
    category: str           # holds | holds only under conditions | does not hold | not shown at this power | pending | no data
    detail: str             # e.g. "holds within CI", "deviates by +0.06 in α"
    measured: str           # the measured / computed figure (with CI and n where statistical)
    theory: str             # the theory figure it is compared with
    command: str = ""       # how the figure was produced

    def cell(self) -> str:
        return f"**{self.category}**: {self.detail}" if self.detail else f"**{self.category}**"


@dataclass(frozen=True)
class Claim:
    """One entry of the claims registry: the claim ids it judges, the claim in words, the notes
    it comes from, its topic and the function computing its verdict. A claim judged in two
    halves has two entries with the same ids; the second names its half (``name``), which its
    ``label`` (the claims table's "claim" cell, default the ids) and ``key`` (what reports key
    its verdict by, unique over the registry; default the first id) then carry."""

    ids: tuple[str, ...]
    text: str
    source: str
    topic: str
    evaluate: Callable[["Context"], Verdict]
    name: str = ""
    label: str = ""
    key: str = ""

    def __post_init__(self) -> None:
        # frozen: the defaults derived from the ids are set once, here
        if not self.label:
            object.__setattr__(self, "label", ", ".join(self.ids) + (f" ({self.name})" if self.name else ""))
        if not self.key:
            object.__setattr__(self, "key", "-".join([self.ids[0], *self.name.split()]))


@dataclass
class Context:
    """What verdicts are computed from."""

    df: pd.DataFrame                       # ok rows only
    summary: pd.DataFrame                  # estimators.summarize(df) (leaves)
    excluded: int = 0
    exact: dict[str, Any] | None = None    # exact_checks() output, or None
    command: str = "searchlab-report RUN_DIR"
    exact_command: str = "searchlab.studies.claims.exact_trees.exact_checks()"

    def iid(self, continuous: bool = True) -> pd.DataFrame:
        df = self.df
        if df.empty or "tree" not in df.columns:
            return df.iloc[0:0]
        sub = df[df["tree"] == "iid"]
        if "levels" in sub.columns:
            lv = sub["levels"].fillna(0)
            sub = sub[lv == 0] if continuous else sub[lv > 0]
        return sub

    def summ(self, **eq) -> pd.DataFrame:
        s = self.summary
        if s.empty:
            return s
        for k, v in eq.items():
            if k not in s.columns:
                return s.iloc[0:0]
            if k == "levels" and v == 0:
                s = s[s[k].fillna(0) == 0]
            else:
                s = s[s[k] == v]
        return s


def no_data(what: str, study: str) -> Verdict:
    return Verdict("no data", f"this run has no {what}; run the {study} study (analysis/reproduce.py runs it)",
                   f"not measured in this run: no {what}", "see the claim",
                   f"searchlab experiment={study}")


def pending(key: str, extra: str = "") -> Verdict:
    need = NEEDED_STUDIES[key]
    return Verdict("pending", f"needs {need}" + (f"; {extra}" if extra else ""),
                   "not measured: needs " + need.split(" (")[0], "not computed yet")


def exact_missing(ctx: Context) -> Verdict | None:
    if ctx.exact is None:
        return Verdict("no data", "exact checks were not run (searchlab.search unavailable)",
                       "not computed", "not computed", "searchlab.studies.claims.exact_trees.exact_checks()")
    return None


def run_standalone(argv: list[str] | None, doc: str, sizes: Any,
                   measure: Callable[[str], dict[str, Any]],
                   verdicts: tuple[Callable[[Context], Verdict], ...],
                   section: Callable[[dict[str, Any]], str]) -> None:
    """The ``python -m searchlab.studies.claims.<family> [--size ...]`` command of a family whose
    measurements are exact checks: ``measure(size)`` gives the ``exact`` entries, each verdict
    is printed with its measurement, then ``section(exact)`` (the report section) and the time."""
    ap = argparse.ArgumentParser(description=doc)
    ap.add_argument("--size", choices=tuple(sizes), default="full")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    exact = measure(args.size)
    ctx = Context(df=pd.DataFrame(), summary=pd.DataFrame(), exact=exact)
    for fn in verdicts:
        v = fn(ctx)
        print(f"{fn.__name__}: {v.category}: {v.detail}\n  measured: {v.measured}\n")
    print(section(exact))
    print(f"\n{time.perf_counter() - t0:.0f} s")

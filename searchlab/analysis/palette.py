"""One look for every figure: a fixed colour per ordering policy and per pruning technique.

Colours come from two colour-blind-safe schemes: Okabe & Ito (2008) for the five classic
orderings (worst, natural, random, static, perfect: the colours figures.py always used) and
Paul Tol's "muted" scheme for the dynamic and game orderings; pruning techniques take Paul
Tol's "bright" scheme by family (null move, LMR, futility, razoring, beam, ProbCut, quiescence).
A policy keeps its colour in every figure of every run: the colour is a function of its name,
never of its position in a legend.

A composite policy (``id+killer``) takes the colour of its last component and a dashed line
(it *is* related to ``killer``); an algorithm prefix (``pvs:``) changes the marker; a pruning
technique (``static · null_r2``) takes the technique's colour, hollow markers and the technique's
line style.
"""

from __future__ import annotations

from searchlab.algorithms.ordering_registry import describe
from searchlab.config_dirs import CONF_DIR

__all__ = ["OKABE_ITO", "TOL_MUTED", "TOL_BRIGHT", "ORDERING_COLOURS", "TECHNIQUE_COLOURS",
           "SERIES", "ordering_colour", "technique_colour", "policy_style", "technique_style",
           "split_policy"]

OKABE_ITO = {"orange": "#E69F00", "skyblue": "#56B4E9", "green": "#009E73", "yellow": "#F0E442",
             "blue": "#0072B2", "vermillion": "#D55E00", "purple": "#CC79A7", "black": "#000000"}
TOL_MUTED = {"indigo": "#332288", "cyan": "#88CCEE", "teal": "#44AA99", "green": "#117733",
             "olive": "#999933", "sand": "#DDCC77", "rose": "#CC6677", "wine": "#882255",
             "purple": "#AA4499", "grey": "#777777"}
TOL_BRIGHT = {"blue": "#4477AA", "cyan": "#66CCEE", "green": "#228833", "yellow": "#CCBB44",
              "red": "#EE6677", "purple": "#AA3377", "grey": "#BBBBBB"}

ORDERING_COLOURS = {
    "worst": OKABE_ITO["vermillion"], "natural": OKABE_ITO["orange"], "random": OKABE_ITO["blue"],
    "static": OKABE_ITO["purple"], "perfect": OKABE_ITO["green"],
    "id": TOL_MUTED["indigo"], "killer": TOL_MUTED["wine"], "history": TOL_MUTED["olive"],
    "tt": TOL_MUTED["teal"], "centre": TOL_MUTED["rose"], "corners": TOL_MUTED["sand"],
    "captures": TOL_MUTED["cyan"], "adjacent": TOL_MUTED["purple"],
}
_OTHER = TOL_MUTED["grey"]
#: colours for series that are not orderings or techniques (one line per b, say), in order
SERIES = tuple(v for k, v in TOL_MUTED.items() if k != "grey")
TECHNIQUE_COLOURS = {"none": OKABE_ITO["black"], "null": TOL_BRIGHT["blue"], "lmr": TOL_BRIGHT["red"],
                     "futility": TOL_BRIGHT["green"], "razor": TOL_BRIGHT["yellow"],
                     "beam": TOL_BRIGHT["purple"], "probcut": TOL_BRIGHT["cyan"],
                     "quiescence": TOL_BRIGHT["grey"]}
_ALG_MARKERS = {"alphabeta": "o", "pvs": "s", "negascout": "s", "mtdf": "^", "minimax": "x",
                "aspiration": "D", "scout": "P"}
_LINESTYLES = ["-", "--", ":", "-."]


def split_policy(policy: str) -> tuple[str, str, str]:
    """``"pvs:id+killer · null_r2"`` -> ("pvs", "id+killer", "null_r2"); the algorithm is
    ``alphabeta`` and the technique ``none`` when absent."""
    spec, _, tech = str(policy).partition(" · ")
    alg, _, order = spec.rpartition(":")
    return alg or "alphabeta", order, tech or "none"


def ordering_colour(ordering: str) -> str:
    """The colour of an ordering spec: its last component's (``id+killer`` -> killer's)."""
    for p in reversed(describe(ordering).written):
        if p in ORDERING_COLOURS:
            return ORDERING_COLOURS[p]
    return _OTHER


def _family(technique: str) -> str:
    t = str(technique)
    for fam in TECHNIQUE_COLOURS:
        if t.startswith(fam):
            return fam
    return "other"


def technique_colour(technique: str) -> str:
    """The colour of a pruning technique, by family (``null_r2`` and ``null_r3`` share null move's)."""
    return TECHNIQUE_COLOURS.get(_family(technique), _OTHER)


def technique_style(technique: str) -> dict:
    """Line keywords for a technique: its family's colour; variants of one family differ by
    line style and marker (the variant's rank in its family's sorted option names)."""
    fam = _family(technique)
    names = sorted(p.stem for p in (CONF_DIR / "pruning").glob(f"{fam}*.yaml"))
    k = names.index(technique) if technique in names else 0
    return dict(color=technique_colour(technique), ls=_LINESTYLES[k % len(_LINESTYLES)],
                marker="osD^v"[k % 5], ms=4)


def policy_style(policy: str) -> dict:
    """Line/marker keywords for a policy label of searchlab.studies.sweep.policies."""
    alg, order, tech = split_policy(policy)
    n_parts = len(describe(order).written)
    style = dict(color=ordering_colour(order), marker=_ALG_MARKERS.get(alg, "v"), ms=4,
                 ls=_LINESTYLES[min(n_parts - 1, len(_LINESTYLES) - 1)] if n_parts else "-")
    if tech != "none":
        # under a technique the technique's colour: within one ordering the techniques must
        # differ at a glance; the ordering shows in the hollow marker's edge and the label
        style.update(color=technique_colour(tech), mfc="white", ls=technique_style(tech)["ls"])
    return style

"""The rigor studies that run searches, as steps of the engine (the claim-study family
``rigor``: ``searchlab experiment=rigor``): the worst case over all orderings
(studies.rigor.worstcase), the constructed worst case attained, Knuth-Moore node types
(studies.rigor.nodetypes), Pearl's critical case and ties and the cut rule (studies.rigor.discrete),
and what ordering policies cost besides nodes (studies.ordering.ordering_costs).

Each part's step bodies and its summary from the rows live in its own module; this one plans
the steps, names the tables and summarises a run's tables into the records the report
sections take (``summarise``: the same numbers as each module's in-process ``study``).
"""

from __future__ import annotations

import pandas as pd

from searchlab.studies.claim_study.claim_steps import Step
from searchlab.studies.ordering import ordering_costs as K
from searchlab.studies.rigor import discrete as D
from searchlab.studies.rigor import nodetypes as N
from searchlab.studies.rigor import worstcase as W

__all__ = ["SIZES", "KINDS", "SEED", "rigor_steps", "summarise", "section"]

#: the sizes (claim_study.size): the reproduction's --small and full
SIZES = ("full", "small")
#: the tables the steps write
KINDS = ("worst_case", "worst_attained", "node_types", "critical_leaves", "cut_rule", "policy_costs")
#: the studies' seed (experiments/rigor.yaml)
SEED = 14


def rigor_steps(size: str = "full", seed: int = SEED) -> list[Step]:
    """Every part at ``size`` as steps: one per worst-case cell, constructed-tree cell,
    (b, d, ordering) of node types, (b, w) of the critical case, (b, d, leaf model) of the
    cut rule and (domain, policy) of the policy costs. Work: leaves (or nodes) searched, roughly."""
    small = size == "small"
    steps = [Step("worst_case", (b, d, m), W.worst_case_rows, dict(b=b, d=d, method=m, n=n, seed=seed, steps=st),
                  n * b ** d * (50 if m == "exhaustive" else max(st, 1)))
             for b, d, m, n, st in W.worst_case_plan(small)]
    steps += [Step("worst_attained", (b, d), W.attained_rows, dict(b=b, d=d), 3 * b ** d * 20)
              for b, d in W.DEFAULT_ATTAINED]
    steps += [Step("node_types", (b, d, o), N.node_type_rows, dict(b=b, d=d, ordering=o, n=n, seed=seed),
                   n * int(b ** (0.75 * d)) * 20) for b, d, o, n in N.node_type_plan(small)]
    steps += [Step("critical_leaves", (b, k), D.critical_rows, dict(b=b, k=k, depths=ds, seeds=seeds),
                   len(seeds) * int(b ** (0.5 * max(ds))) * 4) for b, k, ds, seeds in D.critical_plan(small, seed)]
    steps += [Step("cut_rule", (b, d, m), D.cut_rule_rows, dict(b=b, d=d, model=m, n=n, seed=seed),
                   n * int(b ** (0.75 * d)) * 40) for b, d, m, n in D.cut_rule_plan(small)]
    steps += [Step("policy_costs", (k, p), K.cost_rows, dict(small=small, domain=k, policy=p), n * 20_000)
              for k, (_, n, policies) in enumerate(K.cost_domains(small)) for p in policies]
    return steps


def summarise(tables: dict[str, pd.DataFrame], size: str = "full", seed: int = SEED, *,
              n_resamples: int = 999) -> dict:
    """The records of every part from the run's tables: ``worstcase``, ``worst_attained``,
    ``nodetypes``, ``critical``, ``cut_rule``, ``costs`` (as analysis/reproduce.py's rigor results).
    ValueError for an incomplete run."""
    small = size == "small"
    return {"worstcase": W.worst_cases_from(tables["worst_case"], W.worst_case_plan(small)),
            "worst_attained": W.attained_from(tables["worst_attained"]),
            "nodetypes": N.node_types_from(tables["node_types"], N.node_type_plan(small)),
            "critical": D.critical_from(tables["critical_leaves"], D.critical_plan(small, seed), n_resamples),
            "cut_rule": D.cut_rule_from(tables["cut_rule"], D.cut_rule_plan(small), n_resamples),
            "costs": K.costs_from(tables["policy_costs"], small, n_resamples)}


def section(res: dict) -> str:
    """The parts' report sections, one after another (as in analysis/REPORT.md)."""
    return "\n\n".join([
        "### The worst case over all orderings", W.attained_section(res["worst_attained"]), W.section(res["worstcase"]),
        "### Node types: PV, CUT and ALL nodes against the minimal tree", N.section(res["nodetypes"]),
        "### Pearl's critical case, ties and the cut rule", D.section(res["critical"], res["cut_rule"]),
        "### What ordering policies cost besides nodes", K.section(res["costs"])])

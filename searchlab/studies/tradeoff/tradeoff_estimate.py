"""The budget guard for the trade-off study: each task's work (nodes) estimated from the config
alone, before any work, and the refusal of a study whose tasks exceed ``runner.max_nodes``.

With b the domain's branching factor (the incremental tree's ``b``; a game's nominal branching
factor, the game registry's nominal_b, as the search studies' guard uses: budget.py), d the
domain's ``depth``, F = budget.full_tree_nodes(b, d) and T the number of techniques:

- position task (measure.run_position): the exact truth (every root move searched to depth d:
  at most F), the sound reference search (at most F), every technique's search at depth d (at
  most F, QUIESCENCE_FACTOR * F for a quiescence technique: its capture searches extend the
  horizon) and one search under the node budget (at most ``budget``) each for the reference
  and every technique: ``2 F + sum over techniques of factor * F + (T + 1) * budget``;
- match task (measure.run_match_task): 2 games per opening of its chunk
  (``match.pairs_per_task``), each at most MAX_PLIES moves (both players' moves counted;
  chess: ``match.max_plies``), each move searched within ``match.budget`` nodes:
  ``2 * openings * MAX_PLIES * match.budget``;
- tuning task (``tasks: tuning``, tuning_study.py): a match task at the stage's budget
  (``tuning.tune_budget`` or ``tuning.confirm_budget``).

The technique factors are empirical, like budget.py's random-order bound (null-move,
verification, LMR and ProbCut searches re-search subtrees, so F is not a proof): on the small
preset's 612 rows (analysis/reproduce.py's small run) every technique but quiescence visited
at most 0.21 F (chess, depth 2; 0.06 F elsewhere), quiescence at most 3.84 F (chess, depth
2); searches under the budget within ``budget``; tests/experiment/test_tradeoff.py
checks the bounds on the tiny preset's rows.
"""

from __future__ import annotations

import dataclasses

from searchlab.experiment.budget import full_tree_nodes, human
from searchlab.games.registry import entry as game_entry
from searchlab.games.registry import registry as game_registry
from searchlab.experiment.schema import ConfigError
from searchlab.algorithms.pruning import Technique
from searchlab.studies.tradeoff.tradeoff_config import (DomainConf, TradeoffConfig,
                                                 selected_domains)
from searchlab.limits import MAX_COUNT

#: A quiescence technique's search at depth d: at most QUIESCENCE_FACTOR full trees (above).
QUIESCENCE_FACTOR = 8
#: Longest game in plies, the games' own (GameEntry.max_plies: Connect Four fills 42 cells;
#: Othello 60 discs, a pass at most before each)
MAX_PLIES = {n: e.max_plies for n, e in game_registry().items() if e.max_plies is not None}


def full_tree(domain: str, dconf: DomainConf) -> int:
    """F: the full tree of the domain's branching factor to its depth (module doc)."""
    return full_tree_nodes(dconf.b if domain == "incremental" else game_entry(domain).nominal_b, dconf.depth)


def position_work(domain: str, dconf: DomainConf, techniques: list[Technique]) -> int:
    """Upper bound of the nodes one position task of ``domain`` visits (module doc)."""
    factors = 2 + sum(QUIESCENCE_FACTOR if t.quiescence is not None else 1 for t in techniques)
    work = factors * full_tree(domain, dconf) + (len(techniques) + 1) * dconf.budget
    return min(work, MAX_COUNT)


def match_work(domain: str, dconf: DomainConf, openings: int | None = None) -> int:
    """Upper bound of the nodes one match task of ``domain`` over ``openings`` openings
    (default: the whole set, or one chunk of ``pairs_per_task``) visits (module doc)."""
    m = dconf.match
    n = openings if openings is not None else (m.pairs_per_task or m.openings)
    plies = min(MAX_PLIES.get(domain, m.max_plies), m.max_plies)
    return min(2 * n * plies * m.budget, MAX_COUNT)


def check_budget(cfg: TradeoffConfig, max_nodes: int) -> None:
    """The budget guard: ConfigError (one line) when any task's estimated work exceeds
    ``max_nodes``, naming the domains and kinds of task over it, before any work."""
    over: list[tuple[str, int, int]] = []          # (what, work, tasks)
    for n in selected_domains(cfg):
        d = getattr(cfg.domains, n)
        w = position_work(n, d, cfg.techniques) if cfg.tasks in ("all", "positions") else 0
        if w > max_nodes:
            over.append((f"{n} positions d={d.depth}", w, d.positions
                         * (len(d.correlations) if n == "incremental" else 1)))
        if d.match.enabled and cfg.tasks == "tuning":
            t = cfg.tuning
            budget = t.tune_budget if t.stage == "tune" else t.confirm_budget
            ops = t.tune_openings if t.stage == "tune" else t.confirm_openings
            m = dataclasses.replace(d.match, budget=budget)
            w = match_work(n, dataclasses.replace(d, match=m), d.match.pairs_per_task or ops)
            if w > max_nodes:
                over.append((f"{n} tuning {t.stage} budget={budget}", w, len(t.settings)))
        elif d.match.enabled and d.match.techniques and cfg.tasks != "positions":
            w = match_work(n, d)
            if w > max_nodes:
                over.append((f"{n} matches budget={d.match.budget}", w, len(d.match.techniques)))
    if over:
        over.sort(key=lambda x: -x[1])
        listed = "; ".join(f"{what}: ~{human(w)} nodes x{k}" for what, w, k in over)
        raise ConfigError(
            f"{sum(k for *_, k in over)} tasks are estimated above runner.max_nodes={max_nodes}: "
            f"{listed} — raise runner.max_nodes, or shrink the study (tradeoff.domains.<domain>"
            f".depth, .budget, .match)")

"""The tuning study of the unsound techniques (``tradeoff.tasks: tuning``): each technique swept
over its grid (play/tuning.py GRID), the best setting per technique family and domain chosen at
a short budget, then confirmed at a longer one on disjoint openings.

Two stages, two runs (``tradeoff.tuning.stage``):

- ``tune``: every grid setting of ``tuning.settings`` plays sound alpha-beta in every domain
  whose ``match`` is enabled, at ``tuning.tune_budget`` nodes per move, on the first
  ``tuning.tune_openings`` openings of the domain's seeded opening set (pair ids 0 .. n-1);
- ``confirm``: reads the tune stage's run (``tuning.tuned_run``, checked: the same study,
  seed and settings, complete), picks per (domain, family) the setting with the highest
  pentanomial score (A's mean score over the complete game pairs; ties: the first in
  ``tuning.settings``: ``chosen_settings``), and plays only those at
  ``tuning.confirm_budget`` on the next ``tuning.confirm_openings`` openings of the same set
  (pair ids from ``tune_openings`` on), disjoint from the tuning ones by construction and
  checked (``play.tuning.check_disjoint``).

Why two stages and not one run that confirms every setting: the confirmation depends on the
tuning's outcome, and the runner's tasks must be independent (any order, any number of
workers, resumable). Confirming every setting at the long budget would keep one stage but cost
about as many long matches as there are grid settings (15 per domain) instead of one per
family (4 per domain), and the report would still report only the chosen one. So each stage is
a run of independent tasks; the second is a function of the config and the first run's
stored games, and its config hash includes the chosen settings (a changed tune run cannot be
resumed into an old confirmation).

Each setting is its ``pruning.Technique`` record (``grid_technique``: GRID's) played by the trade-off study's match
task (tradeoff_measure.run_match_task), so the rows are MATCH_GAME_SCHEMA rows in ``games/``
with ``technique`` the grid name and ``budget`` the stage's budget. ProbCut settings use the
domain's fitted model (``probcut.json``); a domain whose fit failed plays none of them.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pandas as pd

from searchlab.experiment.schema import ConfigError
from searchlab.play.openings import Opening
from searchlab.play.tuning import GRID, check_disjoint, family, pick_best
from searchlab.algorithms.pruning import Technique
from searchlab.studies.tradeoff.tradeoff_config import (DomainConf, TradeoffConfig,
                                                        selected_domains)
from searchlab.studies.tradeoff.tradeoff_measure import match_game, match_openings
from searchlab.studies.tradeoff.tradeoff_tables import load_table


def grid_technique(name: str) -> Technique:
    """The grid setting ``name``: its Technique record (label = name), as the trade-off study
    plays it (futility margins in value-scale units, ProbCut's threshold with the domain's
    fitted model). KeyError for an unknown name (validated before: tuning.settings)."""
    return GRID[name]


def tuning_domains(cfg: TradeoffConfig) -> list[str]:
    """The selected domains whose matches are enabled: those the tuning plays in."""
    return [n for n in selected_domains(cfg) if getattr(cfg.domains, n).match.enabled]


def stage_conf(dconf: DomainConf, budget: int) -> DomainConf:
    """The domain's config with its match budget set to a stage's budget."""
    return dataclasses.replace(dconf, match=dataclasses.replace(dconf.match, budget=budget))


def opening_split(domain: str, dconf: DomainConf, cfg: TradeoffConfig
                  ) -> tuple[list[Opening], list[Opening]]:
    """(tuning openings, confirmation openings): one seeded set of ``tune_openings +
    confirm_openings`` distinct openings (tradeoff_measure.match_openings, balance filter
    included), split in order; disjointness checked (InvalidParameterError otherwise)."""
    t = cfg.tuning
    d = dataclasses.replace(dconf, match=dataclasses.replace(
        dconf.match, openings=t.tune_openings + t.confirm_openings))
    ops = match_openings(domain, d, cfg.seed)
    tune, confirm = ops[:t.tune_openings], ops[t.tune_openings:]
    check_disjoint(match_game(domain, dconf), [o.state for o in tune], [o.state for o in confirm])
    return tune, confirm


def playable(name: str, domain: str, models: dict) -> bool:
    """Whether grid setting ``name`` is played in ``domain``: ProbCut needs the domain's
    fitted model."""
    return family(name) != "probcut" or (domain, domain) in models


def tuning_matches(cfg: TradeoffConfig, models: dict, chosen: dict | None = None) -> list[tuple]:
    """The stage's pairings as (domain, stage DomainConf, Technique, openings, first pair
    id): stage tune every playable setting on the tuning openings; stage confirm the
    ``chosen`` setting of each (domain, family) on the confirmation openings."""
    t = cfg.tuning
    out = []
    for n in tuning_domains(cfg):
        d = getattr(cfg.domains, n)
        tune, confirm = opening_split(n, d, cfg)
        if t.stage == "tune":
            for name in t.settings:
                if playable(name, n, models):
                    out.append((n, stage_conf(d, t.tune_budget), grid_technique(name), tune, 0))
        else:
            for (dom_name, _fam), name in sorted((chosen or {}).items()):
                if dom_name == n:
                    out.append((n, stage_conf(d, t.confirm_budget), grid_technique(name),
                                confirm, t.tune_openings))
    return out


def chosen_settings(summary: pd.DataFrame, order: list[str]) -> dict[tuple[str, str], str]:
    """{(domain, family): grid setting} from a tune stage's pairing summary
    (matches.summarize_games): per domain and family the setting with the highest ``score``
    (A's mean score per game over its games; every game of a complete tune run is in a
    complete pair), ties: the first in ``order`` (play.tuning.pick_best)."""
    out = {}
    for (dom_name, fam), g in summary.groupby(["domain", "family"], sort=True):
        scores = {str(r["technique"]): float(r["score"]) for _, r in g.iterrows()}
        out[(str(dom_name), str(fam))] = pick_best(scores, order)
    return out


def tune_config(cfg: TradeoffConfig) -> TradeoffConfig:
    """The tune stage's config of a confirm stage's ``cfg`` (stage tune, no tuned_run)."""
    return dataclasses.replace(cfg, tuning=dataclasses.replace(cfg.tuning, stage="tune",
                                                               tuned_run=""))


def chosen_from_run(cfg: TradeoffConfig, expected_hash: str) -> dict[tuple[str, str], str]:
    """The chosen settings of the tune run ``cfg.tuning.tuned_run`` (chosen_settings over its
    games). ConfigError naming ``tradeoff.tuning.tuned_run`` when the directory holds no
    finished run, or one of another config than this study's tune stage (its manifest's
    config hash is not ``expected_hash``, the hash of ``tune_config(cfg)``)."""
    key = "tradeoff.tuning.tuned_run"
    run = Path(cfg.tuning.tuned_run)
    try:
        man = json.loads((run / "manifest.json").read_text())
    except (OSError, ValueError) as e:
        raise ConfigError(f"{key}: {run} is not a finished run directory (manifest.json: "
                          f"{type(e).__name__})") from None
    if man.get("config_hash") != expected_hash:
        raise ConfigError(f"{key}: {run} is a run of another config (config hash "
                          f"{man.get('config_hash')!r}, this study's tune stage has "
                          f"{expected_hash!r}): run the tune stage with the same preset and "
                          f"overrides first")
    if not man.get("complete"):
        raise ConfigError(f"{key}: {run} is incomplete (resume the tune stage first)")
    summary = load_table(run, "matches")
    if not len(summary):
        raise ConfigError(f"{key}: {run} holds no games")
    return chosen_settings(summary, list(cfg.tuning.settings))


__all__ = ["grid_technique", "tuning_matches", "chosen_settings", "chosen_from_run",
           "opening_split", "tune_config", "tuning_domains", "stage_conf"]

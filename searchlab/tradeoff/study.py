"""Run the trade-off study: plan tasks, run them in parallel, store tidy Parquet incrementally.

Tasks: one per (domain, variant, position) — the exact truth is computed once, then every
technique that applies is searched at the nominal depth and under the node budget — and one
per (domain, match technique) — ``run_match`` of the technique against sound alpha-beta.

Output (``<results_dir>/<study>/<timestamp>/``): ``table/part-*.parquet`` (one row per
technique x position), ``matches/part-*.parquet`` (one row per match), ``probcut.json`` (the
fitted models), ``config.yaml``, ``provenance.json``, ``report.md`` and ``figures/``. Parts
are written atomically (temp file + os.replace) as tasks finish.
"""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path
from typing import Any, Iterable

import numpy as np
from joblib import Parallel, delayed
from omegaconf import OmegaConf
from tqdm import tqdm

from searchlab.algorithms.api import search
from searchlab.algorithms.calibration import fit_probcut, sample_states
from searchlab.algorithms.exact import exact_best_moves
from searchlab.algorithms.pruning import (Beam, Futility, LateMoveReductions, NullMove, ProbCut,
                                          Pruning, Quiescence)
from searchlab.errors import SearchlabError
from searchlab.experiment import provenance
from searchlab.games.connect4 import solve
from searchlab.games.othello import random_position
from searchlab.play.match import Player, run_match
from searchlab.tradeoff import domains as dom
from searchlab.tradeoff.config import TechniqueConf, TradeoffConfig, selected_domains
from searchlab.tradeoff.report import write_report
from searchlab.tradeoff.tables import MATCH_SCHEMA, NONDETERMINISTIC, ROW_SCHEMA, load_table, write_part  # noqa: F401

SOUND = "sound"

# --- techniques -----------------------------------------------------------------------------
def params_text(t: TechniqueConf) -> str:
    """The technique's parameters as one short string (for tables)."""
    rec = getattr(t, t.family if t.family != "razoring" else "futility", None) \
        if t.family != SOUND else None
    if rec is None:
        return "-"
    d = dataclasses.asdict(rec)
    return ", ".join(f"{k}={v}" for k, v in d.items() if v not in (None, [], ()))


def build_pruning(t: TechniqueConf, scale: float, probcut: ProbCut | None) -> Pruning | None:
    """The Pruning record of technique ``t`` in a domain of value scale ``scale``; None when
    it needs a ProbCut model and there is none."""
    kw: dict[str, Any] = {}
    if t.null_move is not None:
        n = t.null_move
        kw["null_move"] = NullMove(n.reduction, n.adaptive_depth, n.verify)
    if t.lmr is not None:
        x = t.lmr
        kw["lmr"] = LateMoveReductions(x.after, x.min_depth, x.reduction, x.schedule)
    if t.futility is not None:
        f = t.futility
        kw["futility"] = Futility(f.margin * scale,
                                  None if f.razor_margin is None else f.razor_margin * scale,
                                  f.razor_depth)
    if t.beam is not None:
        kw["beam"] = Beam(t.beam.width, tuple(t.beam.widths))
    if t.probcut is not None:
        if probcut is None:
            return None
        kw["probcut"] = dataclasses.replace(probcut, threshold=t.probcut.threshold)
    if t.quiescence is not None:
        kw["quiescence"] = Quiescence(t.quiescence.max_depth)
    return Pruning(**kw)


def applies(t: TechniqueConf, game: Any) -> bool:
    """Whether the domain's game provides what the technique needs (quiescence: noisy moves)."""
    if t.quiescence is not None and not game.capabilities.noisy_moves:
        return False
    if t.null_move is not None and not game.capabilities.null_move:
        return False
    return True


# --- one position ---------------------------------------------------------------------------
def at_budget(game: Any, ordering: str, pruning: Pruning | None, budget: int,
              max_depth: int) -> tuple[int, Any, int]:
    """Iterative deepening under a node budget, as play/match.py's ``choose_move`` but
    counting quiescence nodes against the budget too: (depth reached, move, nodes used)."""
    used, best, reached = 0, None, 0
    for depth in range(1, max_depth + 1):
        r = search(game, "alphabeta", ordering, depth=depth, engine="reference",
                   max_nodes=budget - used, pruning=pruning)
        if r.status != "ok":
            break
        used += r.nodes + r.q_nodes
        best, reached = r.best_move, depth
        if used >= budget or r.per_ply[-1] == 0:
            break
    if best is None:
        best = list(game.legal_moves(game.initial_state()))[0]
    return reached, best, used


def _c4_move_results(moves: str, legal: Iterable[int]) -> dict[int, int]:
    """Connect Four: the exact score (for the mover) of playing each root move (``solve``)."""
    return {m: -solve(moves + str(m + 1)).score for m in legal}


def run_position(pos: dom.Position, dconf: Any, techniques: list[TechniqueConf],
                 models: dict, study: str) -> list[dict]:
    """Every applicable technique on one position: a list of table rows."""
    game = pos.game()
    depth, ordering = dconf.depth, dconf.ordering
    max_depth = depth if pos.domain == "incremental" else dconf.budget_max_depth
    exact_value, exact_best = exact_best_moves(game, depth, ordering=ordering, engine="reference")
    truth_best = exact_best                   # the decision judged at the budget
    c4 = pos.domain == "connect4"
    chess_dom = pos.domain == "chess"
    if c4:
        legal = list(game.legal_moves(game.initial_state()))
        results = _c4_move_results(pos.spec["moves"], legal)
        sign = int(np.sign(pos.spec["score"]))
        keeps = {m for m, s in results.items() if int(np.sign(s)) == sign}

    def c4_change(m):
        return int(m not in keeps) if c4 else -1

    def solved(m):
        if not chess_dom:
            return -1
        bm, am = pos.spec["bm_uci"], pos.spec["am_uci"]
        return int((m in bm and m not in am) if bm else (m not in am))

    ref = search(game, "alphabeta", ordering, depth=depth, engine="reference")
    ref_bd = at_budget(game, ordering, None, dconf.budget, max_depth)[0]
    rows = []
    for t in techniques:
        if not applies(t, game):
            continue
        pr = build_pruning(t, dconf.value_scale, models.get((pos.domain, pos.variant)))
        if pr is None:
            continue
        r = search(game, "alphabeta", ordering, depth=depth, engine="reference", pruning=pr)
        bd, bmove, bnodes = at_budget(game, ordering, pr, dconf.budget, max_depth)
        total = r.nodes + r.q_nodes
        rows.append(dict(
            study=study, domain=pos.domain, variant=pos.variant, position=pos.pid,
            position_seed=pos.seed, technique=t.label, family=t.family, params=params_text(t),
            depth=depth, ordering=ordering, budget=dconf.budget,
            nodes=r.nodes, q_nodes=r.q_nodes, nodes_total=total, ref_nodes=ref.nodes,
            node_ratio=total / ref.nodes, wall_seconds=r.wall_time,
            ref_wall_seconds=ref.wall_time, time_ratio=r.wall_time / max(ref.wall_time, 1e-9),
            fired=int(sum(r.extra.get("pruned", {}).values())),
            value=float(r.value), exact_value=float(exact_value),
            value_error=abs(float(r.value) - float(exact_value)),
            best_move=str(r.best_move), exact_best_moves=" ".join(map(str, exact_best)),
            decision_error=int(r.best_move not in exact_best),
            budget_depth=bd, ref_budget_depth=ref_bd, budget_nodes=bnodes,
            budget_move=str(bmove), budget_decision_error=int(bmove not in truth_best),
            exact_score=int(pos.spec["score"]) if c4 else -1,
            result_change=c4_change(r.best_move), budget_result_change=c4_change(bmove),
            solved=solved(r.best_move), budget_solved=solved(bmove)))
    return rows


# --- matches --------------------------------------------------------------------------------
def match_openings(domain: str, m: Any, study_seed: int) -> list:
    seed = dom.seed_for(study_seed, domain, "openings")
    if domain == "connect4":
        g = dom.connect4_game("")
        states = [s for s in sample_states(g, m.opening_ply, 4 * m.openings, seed)
                  if not g.is_terminal(s)]
        return states[:m.openings]
    return [random_position(m.opening_ply, dom.seed_for(seed, i)) for i in range(m.openings)]


def run_match_task(domain: str, dconf: Any, t: TechniqueConf, models: dict, openings: list,
                   study: str, seed: int) -> dict:
    m = dconf.match
    game = dom.connect4_game("") if domain == "connect4" else dom.othello_game("")
    pr = build_pruning(t, dconf.value_scale, models.get((domain, domain)))
    a = Player(t.label, "alphabeta", m.ordering, pr, m.budget)
    b = Player("alpha-beta (sound)", "alphabeta", m.ordering, None, m.budget)
    t0 = time.perf_counter()
    r = run_match(game, a, b, openings, seed=seed % (2**32))
    return dict(study=study, domain=domain, technique=t.label, family=t.family,
                opponent=b.name, ordering=m.ordering, budget=m.budget, openings=len(openings),
                games=r.games, a_wins=r.a_wins, draws=r.draws, b_wins=r.b_wins,
                score=r.score, elo=r.elo, elo_lo=r.elo_ci[0], elo_hi=r.elo_ci[1],
                a_mean_depth=r.a_mean_depth, b_mean_depth=r.b_mean_depth, seed=seed,
                wall_seconds=time.perf_counter() - t0)


# --- ProbCut models -------------------------------------------------------------------------
def fit_models(cfg: TradeoffConfig, names: list[str]) -> tuple[dict, dict]:
    """ProbCut models per (domain, variant), fitted on seeded sample positions; and a JSON-able
    record of each fit (or of why it failed)."""
    models, info = {}, {}
    if not any(t.probcut is not None for t in cfg.techniques):
        return models, info
    for n in names:
        d = getattr(cfg.domains, n)
        for v in dom.variants(n, d):
            game, states = dom.fit_game_and_states(n, v, d, cfg.seed)
            key = f"{n}/{v}"
            try:
                pc = fit_probcut(game, states, d.probcut_fit.shallow, d.probcut_fit.deep)
            except (SearchlabError, ValueError) as e:
                info[key] = {"error": str(e), "positions": len(states)}
                continue
            models[(n, v)] = pc
            info[key] = dict(positions=len(states), shallow=pc.shallow, deep=pc.deep,
                             slope=pc.slope, intercept=pc.intercept, sigma=pc.sigma)
    return models, info


# --- the study ------------------------------------------------------------------------------
def default_run_dir(cfg: TradeoffConfig) -> Path:
    return Path(cfg.results_dir) / cfg.study / time.strftime("%Y-%m-%d_%H-%M-%S")


def plan(cfg: TradeoffConfig) -> tuple[list[dom.Position], list[tuple[str, TechniqueConf]]]:
    names = selected_domains(cfg)
    pos = [p for n in names for p in dom.positions(n, getattr(cfg.domains, n), cfg.seed)]
    by_label = {t.label: t for t in cfg.techniques}
    matches = [(n, by_label[lab]) for n in names if getattr(cfg.domains, n).match.enabled
               for lab in getattr(cfg.domains, n).match.techniques]
    return pos, matches


def _call(kind: str, args: tuple) -> tuple[str, Any, float]:
    """Run one task; also return its CPU seconds (the worker's process time)."""
    c0 = time.process_time()
    out = run_position(*args) if kind == "pos" else run_match_task(*args)
    return kind, out, time.process_time() - c0


def run_study(cfg: TradeoffConfig, run_dir: str | Path | None = None, *,
              progress: bool | None = None, report: bool = True) -> Path:
    """Run the whole study into ``run_dir`` (default: results/<study>/<timestamp>); returns it."""
    run_dir = Path(run_dir) if run_dir is not None else default_run_dir(cfg)
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "config.yaml").write_text(OmegaConf.to_yaml(OmegaConf.structured(cfg)))
    t_start = time.perf_counter()
    names = selected_domains(cfg)
    positions, matches = plan(cfg)
    session = provenance.session_record(cfg.n_jobs, "loky", len(positions) + len(matches), False)
    provenance.add_session(run_dir, "", session)
    t0 = time.perf_counter()
    models, fit_info = fit_models(cfg, names)
    fit_info["_seconds"] = time.perf_counter() - t0
    provenance.write_json_atomic(run_dir / "probcut.json", fit_info)

    tasks: list[tuple[str, tuple]] = []
    openings = {n: match_openings(n, getattr(cfg.domains, n).match, cfg.seed)
                for n in {m[0] for m in matches}}
    for n, t in matches:        # the long tasks first, for load balance
        tasks.append(("match", (n, getattr(cfg.domains, n), t, models, openings[n], cfg.study,
                                dom.seed_for(cfg.seed, n, "match", t.label))))
    for p in positions:
        tasks.append(("pos", (p, getattr(cfg.domains, p.domain), cfg.techniques, models,
                              cfg.study)))
    show = cfg.progress if progress is None else progress
    n_pos = n_match = 0
    timing: dict[str, float] = {}
    gen = Parallel(n_jobs=cfg.n_jobs, return_as="generator_unordered", batch_size=1)(
        delayed(_call)(k, a) for k, a in tasks)
    for kind, out, cpu in tqdm(gen, total=len(tasks), disable=not show, desc=cfg.study):
        if kind == "pos":
            if out:
                write_part(run_dir / "table", n_pos, out, ROW_SCHEMA)
                key = out[0]["domain"]
            n_pos += 1
        else:
            write_part(run_dir / "matches", n_match, [out], MATCH_SCHEMA)
            key = f"match:{out['domain']}"
            n_match += 1
        if kind == "match" or out:
            timing[key] = timing.get(key, 0.0) + cpu
    elapsed = time.perf_counter() - t_start
    provenance.finish_session(run_dir, {"finished": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
                                        "seconds": elapsed, "positions": n_pos,
                                        "matches": n_match, "task_cpu_seconds": timing,
                                        "cpu_seconds": sum(timing.values())
                                        + fit_info["_seconds"]})
    if report:
        write_report(run_dir)
    return run_dir

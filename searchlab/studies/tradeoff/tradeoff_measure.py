"""The trade-off study's measurements: the bodies of its two task kinds (tasks.py).

- position (``run_position``): the exact truth of one position (every root move's exact value,
  ``exact_best_moves``) is computed once, then every technique that applies is searched at the
  nominal depth and under the node budget: one row per technique (TRADEOFF_SCHEMA);
- match (``run_match_task``): game pairs of one technique against sound alpha-beta over a chunk
  of the opening set: one row per game (MATCH_GAME_SCHEMA).

ProbCut's models (``fit_models``) and the match openings are computed once per run, in the
main process, and handed to the tasks.
"""

from __future__ import annotations

import dataclasses
import math
import os
import time
from typing import Any, Iterable

import numpy as np

from searchlab.algorithms.search_api import search
from searchlab.algorithms.calibration import fit_probcut
from searchlab.algorithms.ground_truth import exact_best_moves
from searchlab.algorithms.pruning import Pruning, Quiescence, Technique
from searchlab.errors import SearchlabError
from searchlab.games.chess_game import Chess
from searchlab.games.connect4 import solve
from searchlab.games.othello import square_name
from searchlab.games.registry import entry as game_entry
from searchlab.games.registry import game_names
from searchlab.contracts.position import FromState
from searchlab.play.clock_noise import ClockNoise, clock_noise
from searchlab.play.match import Player, play_game
from searchlab.play.openings import Opening, random_openings
from searchlab.studies.tradeoff import domains as dom
from searchlab.studies.tradeoff.tradeoff_config import DOMAINS, TradeoffConfig, null_move_guarded

SOUND = "sound"

# --- techniques ---------------------------------------------------------------------------
# A technique is one pruning.Technique record: its Pruning in a domain is
# ``t.scaled(value_scale, the domain's ProbCut fit)``, its table text ``t.params_text()``.
def applies(t: Technique, game: Any) -> bool:
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


def run_position(pos: dom.Position, dconf: Any, techniques: list[Technique],
                 models: dict, study: str) -> list[dict]:
    """Every applicable technique on one position: a list of table rows."""
    guarded = null_move_guarded(pos.domain, dconf)
    game = pos.game(guarded)
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
        pr = t.scaled(dconf.value_scale, models.get((pos.domain, pos.variant)))
        if pr is None:
            continue
        r = search(game, "alphabeta", ordering, depth=depth, engine="reference", pruning=pr)
        bd, bmove, bnodes = at_budget(game, ordering, pr, dconf.budget, max_depth)
        total = r.nodes + r.q_nodes
        rows.append(dict(
            study=study, domain=pos.domain, variant=pos.variant, position=pos.pid,
            position_seed=pos.seed, technique=t.label, family=t.family, params=t.params_text(),
            depth=depth, ordering=ordering, budget=dconf.budget,
            nodes=r.nodes, q_nodes=r.q_nodes, nodes_total=total, ref_nodes=ref.nodes,
            node_ratio=total / ref.nodes, wall_seconds=r.wall_time,
            ref_wall_seconds=ref.wall_time, time_ratio=r.wall_time / max(ref.wall_time, 1e-9),
            fired=int(sum(r.extra.get("pruned", {}).values())),
            # the techniques' own rates (tradeoff_report.technique_rates): null move's cuts
            # over its null-window searches, LMR's re-searches over its reductions
            null_tried=int(r.extra.get("tried", {}).get("null_move", 0)),
            null_cuts=int(r.extra.get("pruned", {}).get("null_move", 0)),
            lmr_reduced=int(r.extra.get("pruned", {}).get("lmr", 0)),
            lmr_researches=int(r.re_searches) if r.extra.get("pruned", {}).get("lmr") else 0,
            value=float(r.value), exact_value=float(exact_value),
            value_error=abs(float(r.value) - float(exact_value)),
            best_move=str(r.best_move), exact_best_moves=" ".join(map(str, exact_best)),
            decision_error=int(r.best_move not in exact_best),
            budget_depth=bd, ref_budget_depth=ref_bd, budget_nodes=bnodes,
            budget_move=str(bmove), budget_decision_error=int(bmove not in truth_best),
            exact_score=int(pos.spec["score"]) if c4 else -1,
            result_change=c4_change(r.best_move), budget_result_change=c4_change(bmove),
            solved=solved(r.best_move), budget_solved=solved(bmove),
            null_move_guard=guarded))
    return rows


# --- matches --------------------------------------------------------------------------------
#: the side A plays when it is the game's MAX (the side to move at the start) / MIN
#: (the games' own side names, GameEntry.sides)
COLOURS = {n: game_entry(n).sides for n in DOMAINS if n in game_names()}


def match_game(domain: str, dconf: Any = None):
    """The game a domain's matches are played in (from its start position); Connect Four's
    null move guarded unless ``dconf.null_move_guard`` is false (None: guarded)."""
    if domain == "connect4":
        return dom.connect4_game("", dconf is None or null_move_guarded(domain, dconf))
    if domain == "othello":
        return dom.othello_game("")
    return Chess()


def opening_text(domain: str, moves: tuple) -> str:
    """An opening's moves as the domain writes them: Connect Four columns 1-7 (Pons'
    notation), Othello squares (``pass`` for a pass), chess UCI."""
    if domain == "connect4":
        return "".join(str(int(m) + 1) for m in moves)
    if domain == "othello":
        return " ".join(square_name(int(m)) for m in moves)
    return " ".join(map(str, moves))


def _quiescence(m: Any) -> Pruning | None:
    return None if m.quiescence is None else Pruning(quiescence=Quiescence(m.quiescence))


def match_openings(domain: str, dconf: Any, study_seed: int) -> list[Opening]:
    """The domain's opening set: ``match.openings`` distinct random openings
    (play/openings.py), kept only if balanced when ``match.balance_margin`` is set (the sound
    player's search at ``balance_depth`` within margin x value_scale of 0)."""
    m = dconf.match
    game = match_game(domain, dconf)
    accept = None
    if m.balance_margin is not None:
        bound = m.balance_margin * dconf.value_scale

        def accept(s):
            # the reference engine: the same value node for node as the compiled one (the
            # openings of the 2026-12-01 chess run were drawn with it: identical), and no
            # compile of the chess engine in the planning process for a few hundred searches
            r = search(FromState(game, s), "alphabeta", m.ordering, depth=m.balance_depth,
                       pruning=_quiescence(m), engine="reference")
            return abs(float(r.value)) <= bound
    return random_openings(game, m.opening_ply, m.openings,
                           dom.seed_for(study_seed, domain, "openings"), accept)


def match_players(domain: str, dconf: Any, t: Technique, models: dict
                  ) -> tuple[Player, Player]:
    """(A, B): the technique against sound alpha-beta, same ordering and budget, both playing
    as ``match.play`` says (play/match.py: "engine", an engine session per side and game whose
    table, killers and history persist across iterations and, with
    ``match.persist_across_moves``, across moves; or "fresh-per-depth"); both get the match's
    quiescence, if any."""
    m = dconf.match
    pr = t.scaled(dconf.value_scale, models.get((domain, domain)))
    if m.quiescence is not None:
        pr = dataclasses.replace(pr or Pruning(), quiescence=Quiescence(m.quiescence))
    persist = persists(m)
    a = Player(t.label, "alphabeta", m.ordering, pr, m.budget, play=m.play, persist=persist,
               budget_mode=m.budget_mode, cpu_seconds=m.cpu_seconds)
    b = Player("alpha-beta (sound)", "alphabeta", m.ordering, _quiescence(m), m.budget,
               play=m.play, persist=persist, budget_mode=m.budget_mode,
               cpu_seconds=m.cpu_seconds)
    return a, b


def clock_text() -> str:
    """The clock of CPU-time matches as the rows record it: ``time.thread_time`` with the
    implementation and resolution Python reports on this machine."""
    info = time.get_clock_info("thread_time")
    return f"time.thread_time ({info.implementation}), resolution {info.resolution:g} s"


def persists(m: Any) -> bool:
    """Whether the players' table, killers and history carry over from move to move: engine
    play with ``persist_across_moves`` (never under fresh-per-depth, where nothing carries)."""
    return m.play == "engine" and bool(m.persist_across_moves)


def run_match_task(domain: str, dconf: Any, t: Technique, models: dict, openings: list,
                   first_pair: int, study: str, seed: int) -> list[dict]:
    """Every opening of ``openings`` (pair ids from ``first_pair``) played as a game pair:
    one MATCH_GAME_SCHEMA row per game."""
    m = dconf.match
    game = match_game(domain, dconf)
    a, b = match_players(domain, dconf, t, models)
    if openings:
        # the engines' compile (first use) or cache load, before the first game's clock starts
        warm_up_match(game, openings[0].state, a, b)
    rows = []
    for i, op in enumerate(openings):
        for a_is_max in (True, False):
            load = os.getloadavg()[0]          # the machine as the game starts
            probe = clock_probe(game, op.state, b) if m.budget_mode == "cpu" else None
            t0 = time.perf_counter()
            g = play_game(game, op.state, a, b, a_is_max, m.max_plies, pair=first_pair + i)
            rows.append(dict(
                study=study, domain=domain, technique=t.label, family=t.family,
                opponent=b.name, ordering=m.ordering, budget=m.budget, pair=g.opening,
                opening=opening_text(domain, op.moves),
                a_color=COLOURS[domain][0 if a_is_max else 1], a_is_max=a_is_max,
                result=g.result, ending=g.ending, plies=g.plies,
                a_mean_depth=_mean(g.a_depths), b_mean_depth=_mean(g.b_depths),
                a_mean_nodes=_mean(g.a_nodes), b_mean_nodes=_mean(g.b_nodes), seed=seed,
                wall_seconds=time.perf_counter() - t0, play=m.play,
                persist_across_moves=persists(m),
                null_move_guard=null_move_guarded(domain, dconf),
                budget_mode=m.budget_mode, cpu_seconds=m.cpu_seconds,
                clock=clock_text() if m.budget_mode == "cpu" else "",
                a_cv_nodes=_cv(g.a_nodes), b_cv_nodes=_cv(g.b_nodes),
                a_nps=_nps(g.a_nodes, g.a_cpu), b_nps=_nps(g.b_nodes, g.b_cpu), load_avg=load,
                probe_cv=probe.cvs[0] if probe else math.nan,
                probe_nodes=float(np.mean(probe.nodes[0])) if probe else math.nan))
    return rows


#: repeats of the clock probe per game of a CPU-time match (each one search of the opening at
#: the game's CPU time per move: a few hundredths of a second per game at 0.01 s per move)
PROBE_REPEATS = 3


def clock_probe(game: Any, state: Any, sound: Player) -> ClockNoise:
    """The clock's noise as the game starts: the sound player's search of ``state`` repeated
    PROBE_REPEATS times at its CPU time per move, each in a new engine session
    (play/clock_noise.py: only the clock differs between the repeats)."""
    return clock_noise(game, [state], sound.session_config(), PROBE_REPEATS)


def _nps(nodes: list, cpu: list) -> float:
    """A side's nodes per CPU second over its moves of one game; NaN without CPU time."""
    total = float(sum(cpu))
    return float(sum(nodes)) / total if total > 0 else math.nan


#: the node budget per move of the warm-up game (run_match_task): enough to enter every
#: entry point of the players' engine sessions, small enough to cost nothing once compiled
WARM_UP_BUDGET = 64


def warm_up_match(game: Any, opening: Any, a: Player, b: Player) -> None:
    """Two plies between copies of the players with WARM_UP_BUDGET nodes per move: the
    engine's compile (first use on a machine) or its load from numba's cache happens here, so
    no game's ``wall_seconds`` includes it. Its record is discarded."""
    small = {"budget": min(WARM_UP_BUDGET, a.budget)}
    play_game(game, opening, dataclasses.replace(a, **small), dataclasses.replace(b, **small),
              True, max_plies=2, pair=-1)


def _mean(x: list) -> float:
    return float(np.mean(x)) if x else 0.0


def _cv(x: list) -> float:
    """Standard deviation over mean (ddof 0) of a side's nodes per move; NaN without moves."""
    m = _mean(x)
    return float(np.std(x) / m) if x and m > 0 else float("nan")


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

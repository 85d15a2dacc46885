"""Alpha-beta against Monte Carlo tree search as the branching factor grows (docs/mcts.md, "The
study").

Pairings: in each domain (Hex n x n for n in ``hex_sizes``, Connect Four, Othello), alpha-beta
at its best (engine-grade play, play/match.py: iterative deepening with a transposition table,
killers, history and the game's own order, table kept across moves) as A against MCTS (UCT with
random rollouts and the solver; ``mcts_*`` options) as B, at every node budget per move of
``node_budgets`` (nodes counted the same way for both: docs/mcts.md) and every CPU time per move
of ``cpu_seconds`` (thread time; a node cap ``cpu_node_cap``). Each pairing plays ``openings``
distinct seeded random openings of ``opening_ply`` plies (Hex: ``hex_opening_ply``) twice with
colours swapped (game pairs); a Hex board with fewer distinct openings (3x3: 72 after two
stones) plays all of them. The games are rows of the trade-off study's match schema, so
studies/tradeoff/matches.py gives each pairing its pentanomial Elo of alpha-beta minus MCTS with
a 95 % CI, the GSPRT and the Holm-adjusted verdict over every pairing of the run.

Branching factor ``b`` per domain: the mean number of legal moves over the positions of
``b_games`` seeded uniformly random games (every non-terminal position counted), a property of
the game, not of the players. The headline (``figure``): Elo(alpha-beta - MCTS) against b, one
line per budget, with CIs; ``sign_changes``: the b between two adjacent domains of one budget
line where the estimate changes sign, and whether both ends' CIs exclude 0.

Randomness: every opening set and every MCTS player's stream derive from ``seed``
(experiment.seeds.derive_seed with the domain's name; play/match.mcts_seed per move).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.ticker import NullFormatter, ScalarFormatter
from joblib import Parallel, delayed
from tqdm import tqdm

from scipy.stats import binomtest

from searchlab.algorithms.mcts import MCTSOptions
from searchlab.analysis.stats import holm
from searchlab.errors import InvalidParameterError
from searchlab.experiment.seeds import derive_seed
from searchlab.games.connect4 import ConnectFour
from searchlab.games.hex import Hex
from searchlab.games.othello import Othello
from searchlab.limits import check_int, check_number
from searchlab.play.match import Player, play_game
from searchlab.play.openings import random_openings
from searchlab.studies.tradeoff.matches import judge_pairings, summarize_games

OWN_ORDER = {"hex": "adjacent", "connect4": "centre", "othello": "corners"}
AB_NAME, MCTS_NAME = "alpha-beta", "mcts"


@dataclass(frozen=True)
class StudyConfig:
    """The study's size and players (the module docstring); defaults: the full study."""

    hex_sizes: tuple[int, ...] = (3, 4, 5, 6, 7, 8, 9, 10, 11)
    others: tuple[str, ...] = ("connect4", "othello")
    node_budgets: tuple[int, ...] = (1_000, 10_000, 100_000)
    cpu_seconds: tuple[float, ...] = (0.05,)
    cpu_node_cap: int = 10**9
    openings: int = 100
    opening_ply: int = 4
    hex_opening_ply: int = 2
    max_plies: int = 400
    mcts_exploration: float = math.sqrt(2.0)
    mcts_solver: bool = True
    b_games: int = 200
    seed: int = 2026
    n_jobs: int = 1
    pairs_per_task: int = 10
    extra: dict = field(default_factory=dict, compare=False)

    def domains(self) -> list[str]:
        return [f"hex{n}" for n in self.hex_sizes] + list(self.others)


TINY = StudyConfig(hex_sizes=(3, 4), others=("connect4",), node_budgets=(300,), cpu_seconds=(),
                   openings=2, b_games=10, opening_ply=2)


def validate(cfg: StudyConfig) -> StudyConfig:
    """One line naming the parameter for a bad value, before any game is played."""
    for n in cfg.hex_sizes:
        check_int("hex_sizes[]", n, 3, 11)
    for d in cfg.others:
        if d not in ("connect4", "othello"):
            raise InvalidParameterError(f"others must list connect4 and/or othello; got {d!r}")
    if not cfg.domains():
        raise InvalidParameterError("the study needs at least one domain (hex_sizes or others)")
    if not cfg.node_budgets and not cfg.cpu_seconds:
        raise InvalidParameterError("the study needs a budget: node_budgets or cpu_seconds")
    for b in cfg.node_budgets:
        check_int("node_budgets[]", b, 1, 10**12)
    for s in cfg.cpu_seconds:
        check_number("cpu_seconds[]", s, 1e-4, 3600.0)
    for name in ("openings", "b_games", "n_jobs", "pairs_per_task", "max_plies"):
        check_int(name, getattr(cfg, name), 1, 10**6)
    check_int("opening_ply", cfg.opening_ply, 0, 40)
    check_int("hex_opening_ply", cfg.hex_opening_ply, 0, 40)
    check_number("mcts_exploration", cfg.mcts_exploration, 0.0)
    return cfg


def game_of(domain: str) -> Any:
    if domain.startswith("hex"):
        return Hex(int(domain[3:]))
    return ConnectFour() if domain == "connect4" else Othello()


def family_of(domain: str) -> str:
    return "hex" if domain.startswith("hex") else domain


def branching(domain: str, games: int, seed: int) -> float:
    """Mean legal moves over every non-terminal position of ``games`` uniformly random games."""
    g = game_of(domain)
    rng = np.random.default_rng(derive_seed(seed, f"mcts-study/b/{domain}"))
    total = count = 0
    for _ in range(games):
        s = g.initial_state()
        while not g.is_terminal(s):
            moves = g.legal_moves(s)
            total, count = total + len(moves), count + 1
            s = g.play(s, moves[int(rng.integers(len(moves)))])
    return total / count


def players(domain: str, cfg: StudyConfig, mode: str, budget: float) -> tuple[Player, Player]:
    """(alpha-beta at its best, MCTS) at one budget: ``mode`` "nodes" (budget nodes per move) or
    "cpu" (budget seconds of thread CPU time per move, nodes capped at cpu_node_cap)."""
    cpu = mode == "cpu"
    nodes = cfg.cpu_node_cap if cpu else int(budget)
    kw = dict(budget=nodes, budget_mode=mode, cpu_seconds=float(budget) if cpu else None)
    ab = Player(AB_NAME, "alphabeta", OWN_ORDER[family_of(domain)], play="engine", persist=True, **kw)
    mc = Player(MCTS_NAME, "mcts", mcts=MCTSOptions(exploration=cfg.mcts_exploration, solver=cfg.mcts_solver),
                seed=derive_seed(cfg.seed, f"mcts-study/player/{domain}") >> 1, **kw)
    return ab, mc


def openings_of(domain: str, cfg: StudyConfig) -> int:
    """``cfg.openings``, or on a Hex board with fewer distinct positions after
    ``hex_opening_ply`` stones (3x3 after 2: 72) all of them."""
    if not domain.startswith("hex"):
        return cfg.openings
    cells, k = int(domain[3:]) ** 2, cfg.hex_opening_ply
    x = (k + 1) // 2
    return min(cfg.openings, math.comb(cells, x) * math.comb(cells - x, k - x))


def tasks(cfg: StudyConfig) -> list[tuple]:
    """(domain, mode, budget, first pair, openings' moves): ``pairs_per_task`` pairs each."""
    out = []
    budgets = [("nodes", b) for b in cfg.node_budgets] + [("cpu", s) for s in cfg.cpu_seconds]
    for domain in cfg.domains():
        g = game_of(domain)
        ply = cfg.hex_opening_ply if domain.startswith("hex") else cfg.opening_ply
        ops = random_openings(g, ply, openings_of(domain, cfg), derive_seed(cfg.seed, f"mcts-study/openings/{domain}"))
        for mode, budget in budgets:
            for i in range(0, len(ops), cfg.pairs_per_task):
                out.append((domain, mode, budget, i, tuple(o.moves for o in ops[i:i + cfg.pairs_per_task])))
    return out


def run_task(task: tuple, cfg: StudyConfig) -> list[dict]:
    """Play one task's game pairs: one row per game (the trade-off study's match columns)."""
    domain, mode, budget, first, openings = task
    g = game_of(domain)
    ab, mc = players(domain, cfg, mode, budget)
    rows = []
    for i, moves in enumerate(openings):
        s = g.initial_state()
        for m in moves:
            s = g.play(s, m)
        for a_is_max in (True, False):
            t0 = time.perf_counter()
            r = play_game(g, s, ab, mc, a_is_max, cfg.max_plies, pair=first + i)
            rows.append(dict(
                study="mcts_vs_alphabeta", domain=domain, technique=AB_NAME, family="mcts-study",
                opponent=MCTS_NAME, ordering=ab.ordering, budget=ab.budget, pair=r.opening,
                opening=" ".join(map(str, moves)), a_is_max=a_is_max, result=r.result,
                ending=r.ending, plies=r.plies, a_mean_depth=_mean(r.a_depths),
                b_mean_depth=_mean(r.b_depths), a_mean_nodes=_mean(r.a_nodes),
                b_mean_nodes=_mean(r.b_nodes), wall_seconds=time.perf_counter() - t0, play="engine",
                persist_across_moves=True, budget_mode=mode,
                cpu_seconds=float(budget) if mode == "cpu" else math.nan,
                a_cv_nodes=math.nan, b_cv_nodes=math.nan))
    return rows


def _mean(x: list) -> float:
    return float(np.mean(x)) if x else 0.0


def run(cfg: StudyConfig, progress: bool = True) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(games, summary): every task played (joblib over ``n_jobs`` processes, a progress bar),
    then ``summarize``."""
    validate(cfg)
    todo = tasks(cfg)
    if cfg.n_jobs == 1:
        parts = [run_task(t, cfg) for t in tqdm(todo, disable=not progress, desc="mcts vs alpha-beta")]
    else:
        parts = Parallel(n_jobs=cfg.n_jobs)(delayed(run_task)(t, cfg)
                                           for t in tqdm(todo, disable=not progress, desc="mcts vs alpha-beta"))
    games = pd.DataFrame([row for p in parts for row in p])
    return games, summarize(games, cfg)


def budget_label(r: Any) -> str:
    return f"{int(r['budget']):,} nodes/move" if r["budget_mode"] == "nodes" else f"{float(r['cpu_seconds']):g} s CPU/move"


def summarize(games: pd.DataFrame, cfg: StudyConfig) -> pd.DataFrame:
    """One row per pairing (studies/tradeoff/matches.summarize_games) with its verdict after
    Holm over the run's pairings, the domain's b and the budget's label."""
    s = summarize_games(games)
    verdicts = judge_pairings(s)
    s["verdict"] = [v.kind for v in verdicts]
    s["p_holm"] = [v.p_holm for v in verdicts]
    bs = {d: branching(d, cfg.b_games, cfg.seed) for d in s["domain"].unique()}
    s["b"] = s["domain"].map(bs)
    s["budget_label"] = [budget_label(r) for _, r in s.iterrows()]
    return s.sort_values(["budget_label", "b"]).reset_index(drop=True)


def sign_changes(summary: pd.DataFrame) -> list[dict]:
    """Per budget line, where Elo(alpha-beta - MCTS) changes sign between adjacent b's (strictly
    opposite signs; NaN and 0 are no sign): the two domains, their b's and Elo's, and whether both
    CIs exclude 0 (a change the run shows)."""
    out = []
    for label, g in summary.groupby("budget_label", sort=True):
        g = g.sort_values("b")
        rows = list(g.itertuples())
        for lo, hi in zip(rows, rows[1:]):
            # strictly opposite signs: an Elo of exactly 0 (every pair split) is no sign to change from
            if np.sign(lo.elo) * np.sign(hi.elo) < 0:
                shown = (lo.elo_lo > 0 or lo.elo_hi < 0) and (hi.elo_lo > 0 or hi.elo_hi < 0)
                out.append(dict(budget=label, from_domain=lo.domain, to_domain=hi.domain,
                                b_low=lo.b, b_high=hi.b, elo_low_b=lo.elo, elo_high_b=hi.elo, shown=bool(shown)))
    return out


def open_ended(summary: pd.DataFrame) -> pd.Series:
    """The pairings whose Elo CI is not a finite interval: every complete pair of one outcome (a
    clean sweep: the pentanomial's variance is 0, so its normal approximation has no CI and
    studies/tradeoff/matches calls the pairing "not testable"), or no complete pair."""
    lo, hi = summary["elo_lo"].astype(float), summary["elo_hi"].astype(float)
    return ~(np.isfinite(lo) & np.isfinite(hi)) | (summary["verdict"] == "not testable")


def sign_test_sweeps(summary: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """An exact two-sided sign test on game pairs for each pairing whose Elo CI is open-ended
    (``open_ended``): A's won pairs (1½ or 2 points of 2) against its lost pairs (0 or ½), even
    pairs left out, p from scipy.stats.binomtest under p = ½; Holm over these pairings at
    ``alpha``. One row per such pairing: domain, budget_label, b, pairs, won, lost, p_sign,
    p_holm_sign and sweep_verdict ("A stronger", "A weaker", or "not shown at this power": e.g.
    fewer than 6 decided pairs, whose sweep has p ≥ 2^-5 = 0.031 before Holm)."""
    cols = ["domain", "budget_label", "b", "pairs", "won", "lost", "p_sign", "p_holm_sign", "sweep_verdict"]
    s = summary[open_ended(summary)]
    if s.empty:
        return pd.DataFrame(columns=cols)
    won = (s["p3"] + s["p4"]).astype(int).to_numpy()
    lost = (s["p0"] + s["p1"]).astype(int).to_numpy()
    p = np.array([binomtest(int(w), int(w + k)).pvalue if w + k else 1.0 for w, k in zip(won, lost)])
    ph = holm(p)
    kind = ["not shown at this power" if q >= alpha else ("A stronger" if w > k else "A weaker")
            for q, w, k in zip(ph, won, lost)]
    out = s[["domain", "budget_label", "b", "pairs"]].assign(won=won, lost=lost, p_sign=p, p_holm_sign=ph,
                                                             sweep_verdict=kind)
    return out[cols].reset_index(drop=True)


ELO_CLIP = 800.0


#: the marker of each game family in the figure (Hex's points are joined along b: one rule set)
MARKERS = {"hex": "o", "connect4": "s", "othello": "D"}


def figure(summary: pd.DataFrame, path: Any) -> Any:
    """Elo(alpha-beta - MCTS) against b (log axis), one colour per budget (node budgets solid in
    ascending order, CPU-time budgets dashed) with 95 % CIs. Only Hex's points are joined (one
    rule set as b grows); Connect Four and Othello are markers of their own. A pairing whose
    estimate or CI end is infinite (a clean sweep: ``open_ended``) is drawn as a triangle at
    +-ELO_CLIP pointing the way of the sweep, its CI left open; each budget's points are
    shifted a little along b so the CIs do not hide each other; the domains are named at the top,
    the legend beside the axes."""
    fig, ax = plt.subplots(figsize=(8.8, 4.8))
    order = sorted(summary.groupby("budget_label", sort=False),
                   key=lambda kv: (kv[1]["budget_mode"].iloc[0] != "nodes" if "budget_mode" in kv[1] else 0,
                                   float(kv[1]["budget"].iloc[0]) if "budget" in kv[1] else 0.0))
    swept = False
    for k, (label, g) in enumerate(order):
        g = g.sort_values("b")
        colour = f"C{k}"
        shift = 1.0 + 0.018 * (k - (len(order) - 1) / 2)          # multiplicative: the axis is log
        b = g["b"].to_numpy(float) * shift
        elo, lo, hi = (g[c].to_numpy(float) for c in ("elo", "elo_lo", "elo_hi"))
        cpu = "budget_mode" in g and g["budget_mode"].iloc[0] == "cpu"
        fam = np.array([family_of(d) for d in g["domain"]])
        hexes = fam == "hex"
        e = np.clip(elo, -ELO_CLIP, ELO_CLIP)
        # joined through the finite estimates only: a line up to a sweep's marker would read as an
        # Elo of ELO_CLIP
        joined = hexes & np.isfinite(elo)
        ax.plot(b[joined], e[joined], ls="--" if cpu else "-", color=colour, lw=1.2, label=label)
        for i in range(len(g)):
            if math.isnan(elo[i]):
                continue
            if not math.isfinite(elo[i]):                          # a sweep: no estimate to draw
                swept = True
                ax.plot(b[i], math.copysign(ELO_CLIP, elo[i]), marker="^" if elo[i] > 0 else "v", ms=8,
                        color=colour, mfc="white", mew=1.5, ls="none")
                continue
            lo_i = -ELO_CLIP if not math.isfinite(lo[i]) else max(lo[i], -ELO_CLIP)
            hi_i = ELO_CLIP if not math.isfinite(hi[i]) else min(hi[i], ELO_CLIP)
            ax.errorbar(b[i], e[i], yerr=[[max(e[i] - lo_i, 0)], [max(hi_i - e[i], 0)]], marker=MARKERS[fam[i]],
                        ms=5, capsize=3, color=colour, ls="none")
    # the legend: budgets (colour, line style), then the markers' meaning
    handles, labels = ax.get_legend_handles_labels()
    for fam_name, m in MARKERS.items():
        if any(family_of(d) == fam_name for d in summary["domain"]):
            handles.append(plt.Line2D([], [], marker=m, color="0.3", ls="none", ms=5))
            labels.append({"hex": "Hex (joined along b)", "connect4": "Connect Four", "othello": "Othello"}[fam_name])
    if swept:
        handles.append(plt.Line2D([], [], marker="^", color="0.3", mfc="white", ls="none", ms=8))
        labels.append(f"clean sweep: Elo infinite, drawn at ±{ELO_CLIP:g}")
    # each domain named once, at the top, above its b
    for domain, bd in summary.groupby("domain")["b"].first().items():
        ax.annotate(domain, (bd, 1), xycoords=("data", "axes fraction"), xytext=(0, -3),
                    textcoords="offset points", fontsize=6.5, rotation=90, ha="center", va="top", color="0.35")
    ax.axhline(0, color="grey", lw=0.8)
    # down to the lowest CI end drawn (the symmetric range left most of the plot empty when
    # every estimate was positive), up with room for the domains' names; no tick beyond the clip
    ends = np.concatenate([summary[c].to_numpy(float) for c in ("elo", "elo_lo")])
    ends = ends[np.isfinite(ends)]
    bottom = max(-ELO_CLIP, min(ends.min() if len(ends) else 0.0, 0.0)) - 0.15 * ELO_CLIP
    ax.set_ylim(bottom, ELO_CLIP * 1.5)
    ax.set_yticks([t for t in np.linspace(-ELO_CLIP, ELO_CLIP, 9) if t >= bottom])
    ax.set_xscale("log")
    ax.xaxis.set_major_formatter(ScalarFormatter())
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xticks(sorted({round(float(x), 1) for x in summary["b"]}))
    ax.tick_params(axis="x", labelsize=7)
    ax.set_xlabel("mean branching factor b (legal moves over random games; log scale)")
    ax.set_ylabel(f"Elo(alpha-beta − MCTS), 95 % CI\n(> 0: alpha-beta stronger; clipped at ±{ELO_CLIP:g})")
    ax.set_title("Alpha-beta against MCTS at equal budgets per move", fontsize=10)
    ax.legend(handles, labels, fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))   # off the data
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path

"""Studies of search with three or more players (claim 000-q).

- ``leaves_table`` / ``fit_exponents``: leaves of max^n, max^n with shallow pruning, paranoid
  (alpha-beta) and best-reply search versus depth on constant-sum synthetic n-player trees;
  the exponent alpha = log(growth per ply) / log b with a bootstrap CI over instances, against
  max^n's 1 (b^d: shallow pruning gains nothing asymptotically, Korf 1991) and paranoid's best
  case (n - 1) / n (b^(d(n-1)/n), Sturtevant & Korf 2000), measured too: "paranoid-perfect" is
  paranoid with the perfect (oracle) ordering. BRS's tree has (n - 1)·b moves at
  its MIN plies, so its exponent is reported against log b as well.
- ``rolit_match``: max^n (shallow pruning), paranoid and BRS play Rolit against each other (the
  compiled engine, algorithms/multiplayer_compiled.py: the reference's counts) at an
  equal node budget per move (iterative deepening until the budget runs out; the move of the
  deepest completed iteration), every seating order from each random opening; win shares with
  95 % CIs from a bootstrap over openings.
- ``cc_rows`` / ``cc_summary``: the second domain, OpenSpiel's chinese_checkers (3 players,
  through the adapter; games/openspiel_chinese_checkers.py), leaves and nodes versus depth of
  max^n, shallow pruning, paranoid (natural and perfect order) on seeded random-play
  positions, each search as deep as a node budget allows (reference engine); growth per ply
  with bootstrap CIs over positions where at least CC_MIN_DEPTHS depths were reached by every
  position, and paranoid's leaves against its best case b^(d(n-1)/n) with b^d = max^n's
  leaves at that depth. Best-reply search is not available there (OpenSpiel states cannot
  change the player to move). Without open-spiel the steps are left out and the summary says
  the domain was not measured.
- ``multiplayer_steps(size, seed)`` / ``summarise(tables, size, seed)``: the whole study (SIZES) as steps
  whose rows form the tables ``leaves``, ``games`` and ``cc`` (studies/claim_study/claim_steps.py), and its results
  from them: run in-process by studies/multiplayer/multiplayer_verdicts.py, or as the engine's preset
  ``searchlab experiment=multiplayer`` (studies/claim_study/claim_study.py).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any, Iterable

import numpy as np
import pandas as pd
from scipy import stats

from searchlab.analysis import estimators as E
from searchlab.analysis.stats import mean_ci
from searchlab.algorithms.multiplayer import search_multiplayer
from searchlab.studies.claim_study.claim_steps import Step
from searchlab.games import openspiel
from searchlab.games.openspiel_chinese_checkers import OpenSpielChineseCheckers
from searchlab.games.rolit import Rolit
from searchlab.trees.nplayer_tree import NPlayerTree

TREE_ALGORITHMS = ("maxn", "maxn-shallow", "paranoid", "paranoid-perfect", "brs")
MATCH_ALGORITHMS = ("maxn-shallow", "paranoid", "brs")


def leaves_rows(n: int, b: int, d: int, instance: int, seed: int = 0, total: int = 12,
                max_leaves: int = 60000) -> list[dict]:
    """The rows of one tree of leaves_table (its docstring): every algorithm of TREE_ALGORITHMS."""
    rows = []
    const = NPlayerTree(n, b, d, seed=seed * 1000 + instance, values="constsum", total=total)
    iid = NPlayerTree(n, b, d, seed=seed * 1000 + instance)
    for alg in TREE_ALGORITHMS:
        if alg == "brs" and ((n - 1) * b) ** (d // 2) * b ** ((d + 1) // 2) > 4 * max_leaves:
            continue
        tree = const if alg.startswith("maxn") else iid
        if alg == "paranoid-perfect":
            r = search_multiplayer(tree, "paranoid", ordering="perfect")
        else:
            r = search_multiplayer(tree, alg, engine="auto")
        rows.append(dict(players=n, b=b, d=d, instance=instance, algorithm=alg, leaves=r.leaves,
                         nodes=r.nodes, cutoffs=r.cutoffs))
    return rows


def leaves_points(players: Iterable[int], bs: Iterable[int], ds: Iterable[int], instances: int,
                  max_leaves: int) -> list[tuple[int, int, int, int]]:
    """The (n, b, d, instance) trees of leaves_table (b^d <= max_leaves)."""
    return [(n, b, d, k) for n in players for b in bs for d in ds if b ** d <= max_leaves
            for k in range(instances)]


def leaves_table(players: Iterable[int], bs: Iterable[int], ds: Iterable[int], instances: int,
                 seed: int = 0, total: int = 12, max_leaves: int = 60000) -> pd.DataFrame:
    """One row per (n, b, d, instance, algorithm): leaves, nodes, cutoffs. Trees: max^n and
    shallow pruning search NPlayerTree(n, b, d, seed=seed*1000+k, values="constsum",
    total=total) (shallow pruning's conditions); paranoid and BRS the i.i.d. continuous tree of
    the same seed (no ties, which would cut more than the theory counts); depths whose full
    tree exceeds ``max_leaves`` leaves are skipped (BRS's tree is larger: it is searched to
    the same depth only while ((n-1)·b)^(d/2)·b^(d/2) stays within 4·max_leaves). Searched by
    the compiled kernel (engine "auto": the same counts, tests/algorithms/
    test_multiplayer_kernel.py), perfect-order paranoid by the reference."""
    return pd.DataFrame([r for n, b, d, k in leaves_points(players, bs, ds, instances, max_leaves)
                         for r in leaves_rows(n, b, d, k, seed, total, max_leaves)])


@dataclass(frozen=True)
class ExponentFit:
    players: int
    b: int
    algorithm: str
    alpha: float            # log(growth per ply) / log b
    lo: float
    hi: float
    best_case: float        # paranoid's (n-1)/n
    d_min: int
    d_max: int
    instances: int


def fit_exponents(df: pd.DataFrame, seed: int = 0, resamples: int = 999) -> list[ExponentFit]:
    """alpha = log(leaves per ply) / log b per (n, b, algorithm): estimators.fit_with_ci with one
    line through all depths (the n-player trees' pattern repeats every n plies, not every 2),
    CI by bootstrapping instances."""
    out = []
    for (n, b, alg), g in df.groupby(["players", "b", "algorithm"]):
        ds, _, mat = E.count_matrix(g, "leaves")
        if len(ds) < 2:
            continue
        _, al, _ = E.fit_with_ci(ds, mat, b, method="plain", n_resamples=resamples, seed=seed)
        out.append(ExponentFit(int(n), int(b), alg, al.value, al.low, al.high, (n - 1) / n, int(ds.min()),
                               int(ds.max()), mat.shape[0]))
    return out


def exponent_frame(fits: list[ExponentFit]) -> pd.DataFrame:
    return pd.DataFrame([f.__dict__ for f in fits])


# --------------------------------------------------------------------------- Rolit matches

def choose_move(game: Rolit, state: Any, algorithm: str, budget: int) -> tuple[int, int]:
    """(move, depth reached): iterative deepening from depth 1 while the node budget lasts;
    the move of the deepest completed iteration (depth 1 always completes: it is refused a
    budget below the number of legal moves + 1)."""
    g = Rolit(game.n_players, state)
    used, move, reached = 0, None, 0
    depth = 1
    while depth <= 64:
        left = budget - used
        if left < 1:
            break
        r = search_multiplayer(g, algorithm, depth=depth, max_nodes=left if move is not None else None,
                               engine="auto")
        used += r.nodes
        if r.status != "ok":
            break
        move, reached = r.best_move, depth
        depth += 1
        if sum(d.bit_count() for d in state.discs) + depth > 64 + 1:
            break
    return move, reached


def play_game(players: int, seats: tuple[str, ...], opening: Any, budget: int) -> dict[str, Any]:
    """One game from ``opening`` (a RolitState); seats[i] plays for player i. Returns the
    final disc counts, each player's share of the win (1/k for a k-way tie) and depths."""
    g = Rolit(players, opening)
    s = opening
    depths = {i: [] for i in range(players)}
    while not g.is_terminal(s):
        p = s.mover
        m, dr = choose_move(g, s, seats[p], budget)
        depths[p].append(dr)
        s = g.play(s, m)
    win = g.winners(s)
    return dict(discs=[s.discs[i].bit_count() for i in range(players)],
                share=[1.0 / len(win) if i in win else 0.0 for i in range(players)],
                depth=[float(np.mean(depths[i])) for i in range(players)])


def opening(players: int, opening_plies: int, seed: int, k: int) -> Any:
    """Opening ``k`` of a match: Rolit.random(players, opening_plies, seed*1000+k)'s position."""
    return Rolit.random(players, opening_plies, seed * 1000 + k).initial_state()


def game_rows(k: int, seats: tuple[str, ...], players: int, opening_plies: int, seed: int,
              budget: int) -> list[dict]:
    """One game of a match (opening ``k``, seats[i] plays for player i): a row per player."""
    res = play_game(players, seats, opening(players, opening_plies, seed, k), budget)
    return [dict(opening=k, seats="/".join(seats), player=i, algorithm=alg, share=res["share"][i],
                 discs=res["discs"][i], depth=res["depth"][i]) for i, alg in enumerate(seats)]


def match_games(openings: int, algorithms: tuple[str, ...] = MATCH_ALGORITHMS) -> list[tuple[int, tuple[str, ...]]]:
    """The (opening, seating) games of a match: every seating permutation from every opening."""
    return [(k, seats) for k in range(openings) for seats in itertools.permutations(algorithms)]


def rolit_match(openings: int, budget: int, players: int = 3, opening_plies: int = 4,
                seed: int = 0, algorithms: tuple[str, ...] = MATCH_ALGORITHMS,
                resamples: int = 999) -> dict[str, Any]:
    """Every seating permutation of ``algorithms`` (players = len(algorithms)) from each of
    ``openings`` random openings (Rolit.random(players, opening_plies, seed*1000+k)), then
    match_summary."""
    if len(algorithms) != players:
        raise ValueError("one algorithm per player")
    rows = [r for k, seats in match_games(openings, algorithms)
            for r in game_rows(k, seats, players, opening_plies, seed, budget)]
    return match_summary(pd.DataFrame(rows), budget, players, seed, resamples)


def match_summary(df: pd.DataFrame, budget: int, players: int, seed: int = 0,
                  resamples: int = 999) -> dict[str, Any]:
    """A match's per-game table (game_rows, any row order) summarised: per algorithm, mean win
    share with a 95 % percentile bootstrap CI over openings (games from one opening are
    resampled together), mean discs, mean depth reached; ``min_detectable`` the smallest
    difference in win share the design detects (two-sided 5 %, 80 % power, normal
    approximation from the observed spread)."""
    df = df.sort_values(["opening", "seats", "player"]).reset_index(drop=True)
    openings = int(df["opening"].nunique())
    summary = []
    for alg, g in df.groupby("algorithm"):
        per_opening = g.groupby("opening")["share"].mean().to_numpy()
        mean = float(per_opening.mean())
        if len(per_opening) > 1 and per_opening.std() > 0:
            ci = stats.bootstrap((per_opening,), np.mean, n_resamples=resamples, method="percentile",
                                 random_state=np.random.default_rng(seed)).confidence_interval
            lo, hi = float(ci.low), float(ci.high)
        else:
            lo = hi = mean
        summary.append(dict(algorithm=alg, games=len(g), openings=len(per_opening), win_share=mean,
                            lo=lo, hi=hi, discs=float(g["discs"].mean()), depth=float(g["depth"].mean())))
    summ = pd.DataFrame(summary)
    sd = df.groupby(["algorithm", "opening"])["share"].mean().groupby("algorithm").std().mean()
    mde = 2.8 * float(sd) * math.sqrt(2.0 / openings) if openings > 1 else float("nan")
    return dict(games=df, summary=summ, budget=budget, players=players, openings=openings,
                min_detectable=mde)


# --------------------------------------------------------------------------- chinese_checkers

CC_ALGORITHMS = ("maxn", "maxn-shallow", "paranoid", "paranoid-perfect")
CC_PLAYERS = 3
CC_MAX_DEPTH = 6
CC_MIN_DEPTHS = 3       # depths every position must reach for a fitted growth with a CI
CC_NOT_MEASURED = "not measured: open-spiel is not installed (pip install -e '.[openspiel]')"


def cc_rows(position: int, players: int, plies: int, seed: int, budget: int) -> list[dict]:
    """One random-play position of chinese_checkers (OpenSpielChineseCheckers.random(players,
    plies, seed*1000+position)): per algorithm of CC_ALGORITHMS a row per depth 1, 2, ...
    completed within ``budget`` nodes (the first search to exceed it ends that algorithm's
    depths; paranoid-perfect, whose oracle costs a full tree, is searched only to the depths
    max^n completed). Counts are the reference engine's (nodes, leaves, cutoffs); ``branching``
    is the root's number of moves; ``keeps_turn`` 1 when the chosen root move starts a hop
    chain (the root player moves again at ply 1)."""
    g = OpenSpielChineseCheckers.random(players, plies, seed * 1000 + position)
    root = g.initial_state()
    root_moves = len(g.legal_moves(root))
    rows: list[dict] = []
    maxn_depth = 0
    for alg in CC_ALGORITHMS:
        for d in range(1, CC_MAX_DEPTH + 1):
            if alg == "paranoid-perfect":
                if d > maxn_depth:
                    break
                r = search_multiplayer(g, "paranoid", depth=d, ordering="perfect")
            else:
                r = search_multiplayer(g, alg, depth=d, max_nodes=budget)
            if r.status != "ok":
                break
            if alg == "maxn":
                maxn_depth = d
            keeps = g.to_move(g.play(root, r.best_move)) == g.to_move(root)
            rows.append(dict(players=players, position=position, algorithm=alg, d=d, leaves=r.leaves,
                             nodes=r.nodes, cutoffs=r.cutoffs, branching=root_moves, keeps_turn=int(keeps)))
    return rows


def cc_summary(df: pd.DataFrame, seed: int = 0, resamples: int = 999) -> dict[str, Any]:
    """The chinese_checkers table (cc_rows, any row order) summarised.

    ``depths``: per algorithm and depth completed by every position, mean leaves,
    nodes, cutoffs, the share of positions whose chosen root move keeps the turn, and (paranoid rows) the mean of paranoid's best case L_maxn^((n-1)/n) per position
    (b^(d(n-1)/n) with b^d = that position's max^n leaves) and the mean ratio leaves / bound.
    ``fits``: per algorithm whose every position reached >= CC_MIN_DEPTHS depths, the growth
    per ply (estimators.fit_with_ci, one line through those depths, CI by bootstrapping
    positions) and alpha = log(growth) / log(max^n's growth); others are listed in
    ``not_shown`` with the depths they reached. ``measured`` is False (with ``reason``) when
    the table is empty."""
    if df is None or len(df) == 0:
        return dict(measured=False, reason=CC_NOT_MEASURED, positions=0)
    n = int(df["players"].iloc[0])
    positions = int(df["position"].nunique())
    maxn = df[df["algorithm"] == "maxn"].set_index(["position", "d"])["leaves"]
    rows = []
    for (alg, d), g in df.groupby(["algorithm", "d"]):
        row = dict(algorithm=alg, d=int(d), positions=len(g), leaves=float(g["leaves"].mean()),
                   nodes=float(g["nodes"].mean()), cutoffs=float(g["cutoffs"].mean()),
                   keeps_turn=float(g["keeps_turn"].mean()), bound=np.nan, ratio=np.nan)
        if alg.startswith("paranoid"):
            keys = [(p, d) for p in g["position"] if (p, d) in maxn.index]
            if len(keys) == len(g):
                bound = np.array([maxn[k] ** ((n - 1) / n) for k in keys])
                row.update(bound=float(bound.mean()), ratio=float((g["leaves"].to_numpy() / bound).mean()))
        rows.append(row)
    depths = pd.DataFrame(rows)
    # only depths every position completed: a mean over the positions that happened to fit in
    # the budget (a hop chain's short plies) would not be comparable across depths
    depths = depths[depths["positions"] == positions].sort_values(["algorithm", "d"]).reset_index(drop=True)
    fits, not_shown, growth = [], {}, {}
    for alg, g in df.groupby("algorithm"):
        full = [d for d, gd in g.groupby("d") if gd["position"].nunique() == positions]
        if len(full) < CC_MIN_DEPTHS:
            not_shown[alg] = int(max(full, default=0))
            continue
        sub = g[g["d"].isin(full)].rename(columns={"position": "instance"})
        ds, _, mat = E.count_matrix(sub, "leaves")
        be, _, _ = E.fit_with_ci(ds, mat, method="plain", n_resamples=resamples, seed=seed)
        growth[alg] = be
        fits.append(dict(algorithm=alg, growth=be.value, lo=be.low, hi=be.high, d_min=int(ds.min()),
                         d_max=int(ds.max()), positions=positions))
    fit_df = pd.DataFrame(fits, columns=["algorithm", "growth", "lo", "hi", "d_min", "d_max", "positions"])
    if "maxn" in growth and len(fit_df):
        fit_df["alpha"] = np.log(fit_df["growth"]) / math.log(growth["maxn"].value)
    else:
        fit_df["alpha"] = np.nan
    return dict(measured=True, players=n, positions=positions, depths=depths, fits=fit_df,
                not_shown=not_shown, branching=float(df.groupby("position")["branching"].first().mean()),
                shallow_cutoffs=int(df.loc[df["algorithm"] == "maxn-shallow", "cutoffs"].sum()))


# --------------------------------------------------------------------------- the study as steps

#: (bs, depths, trees per point, max leaves, Rolit openings, nodes per move) by size
SIZES = {
    "full": ((3, 4), range(2, 10), 10, 20000, 200, 1000),
    "small": ((3,), range(2, 8), 4, 3000, 10, 200),
    "tiny": ((2,), range(2, 6), 3, 100, 1, 40),
}
#: chinese_checkers by size: (positions, random plies before each, node budget per search)
CC_SIZES = {"full": (6, 30, 100000), "small": (3, 30, 5000), "tiny": (2, 20, 600)}
KINDS = ("leaves", "games", "cc")
PLAYERS = (3, 4)
MATCH_PLAYERS = 3
OPENING_PLIES = 4


def multiplayer_steps(size: str = "full", seed: int = 15, openings: int | None = None,
         budget: int | None = None) -> list[Step]:
    """The study at ``size`` (SIZES) as steps: one per synthetic tree, one per Rolit game
    (``openings`` and ``budget``, nodes per move, override the size's)."""
    bs, ds, inst, maxl, n_open, n_budget = SIZES[size]
    openings = n_open if openings is None else openings
    budget = n_budget if budget is None else budget
    steps = [Step("leaves", (n, b, d, k), leaves_rows,
                  dict(n=n, b=b, d=d, instance=k, seed=seed, max_leaves=maxl), b ** d)
             for n, b, d, k in leaves_points(PLAYERS, bs, ds, inst, maxl)]
    steps += [Step("games", (k, *seats, budget), game_rows,
                   dict(k=k, seats=seats, players=MATCH_PLAYERS, opening_plies=OPENING_PLIES, seed=seed,
                        budget=budget), 60 * budget)
              for k, seats in match_games(openings)]
    if openspiel.available():           # else the summary reports CC_NOT_MEASURED
        positions, plies, cc_budget = CC_SIZES[size]
        steps += [Step("cc", (k, CC_PLAYERS, plies, cc_budget), cc_rows,
                       dict(position=k, players=CC_PLAYERS, plies=plies, seed=seed, budget=cc_budget), 4 * cc_budget)
                  for k in range(positions)]
    return steps


def skipped() -> list[str]:
    """Messages for the parts of the study multiplayer_steps() leaves out on this machine."""
    return [] if openspiel.available() else [f"chinese_checkers (second domain): {CC_NOT_MEASURED}"]


def paranoid_best_leaves(b: int, d: int, n: int) -> int:
    """Paranoid's exact finite-depth best case (perfect order, root player to move): the
    root player's plies are every n-th, so the minimal tree has b^⌈d/n⌉ + b^(d−⌈d/n⌉) − 1 leaves
    (Knuth–Moore's form with the coalition's plies counted together)."""
    k = -(-d // n)
    return b ** k + b ** (d - k) - 1


def paranoid_best_case(leaves: pd.DataFrame, seed: int = 0, resamples: int = 999) -> pd.DataFrame:
    """Per (n, b, d >= 2) and paranoid algorithm: the trees (n), mean leaves, the exact best case
    ``paranoid_best_leaves``, the mean ratio leaves / best case with a 95 % bootstrap CI over the
    trees, and how many trees equal the best case exactly."""
    rows = []
    par = leaves[leaves["algorithm"].astype(str).str.startswith("paranoid") & (leaves["d"] >= 2)]
    for (n, b, d, alg), g in par.groupby(["players", "b", "d", "algorithm"]):
        best = paranoid_best_leaves(int(b), int(d), int(n))
        ratio = g["leaves"].to_numpy(float) / best
        e = mean_ci(ratio, n_resamples=resamples, seed=seed) if len(ratio) > 1 else None
        rows.append(dict(players=int(n), b=int(b), d=int(d), algorithm=alg, trees=len(g),
                         leaves=float(g["leaves"].mean()), best=best, ratio=float(ratio.mean()),
                         lo=e.low if e else float("nan"), hi=e.high if e else float("nan"),
                         equal=int((g["leaves"].to_numpy() == best).sum())))
    return pd.DataFrame(rows, columns=["players", "b", "d", "algorithm", "trees", "leaves", "best", "ratio", "lo",
                                       "hi", "equal"])


def summarise(tables: dict[str, pd.DataFrame], size: str, seed: int = 15, budget: int | None = None
              ) -> dict[str, Any]:
    """The study's results from its tables (any row order): exponent fits and the match
    summary; what studies/multiplayer/multiplayer_verdicts.py's verdict reads."""
    leaves = tables["leaves"]
    budget = SIZES[size][5] if budget is None else budget
    return dict(size=size, seed=seed, instances=SIZES[size][2],
                fits=exponent_frame(fit_exponents(leaves, seed=seed)),
                paranoid_best=paranoid_best_case(leaves, seed=seed),
                match=match_summary(tables["games"], budget, MATCH_PLAYERS, seed=seed), rows=len(leaves),
                cc=dict(cc_summary(tables.get("cc"), seed=seed), plies=CC_SIZES[size][1], budget=CC_SIZES[size][2]))

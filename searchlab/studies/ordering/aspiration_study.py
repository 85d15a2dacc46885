"""Aspiration windows at several depths in chess, Connect Four and Othello (claim 001-k
"aspiration windows increase cutoffs"), as a study of the engine (``searchlab
experiment=aspiration``, the claim-study family ``aspiration``).

Per game, every position is one step: the game's iterative-deepening policy (POLICY) at each
depth of the size, once with the full window and once per aspiration half-width of the game
(WIDTHS: centipawns in chess; Connect Four's and Othello's evaluations lie in [-1, 1]), on the
engine ``search()`` picks (the compiled engine where one exists), the same node cap for every
search (MAX_NODES). Iterative deepening searches iteration k > 1 with (v - w, v + w) around the
previous iteration's value and searches again with the full window when the result falls
outside (searchlab.algorithms.drivers.iterative_deepening): a window pays where successive
iterations' values stay inside it, and costs a second search at every miss.

``summarise`` gives per (game, depth, width): work (nodes + quiescence nodes) with the window
over work without it, the geometric mean over the positions where both searches finished with a
paired bootstrap CI (with at least MIN_CI positions, else n/a); the same for cutoffs; the mean re-searches per search (of the depth - 1
windowed iterations); and the positions where the window's root value differs from the full
window's (aspiration windows are sound: must be 0).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd

from searchlab.algorithms.pruning import Pruning, Quiescence
from searchlab.algorithms.search_api import search
from searchlab.analysis.format import interval, number
from searchlab.analysis.markdown_tables import md_table
from searchlab.analysis.stats import paired_ratio
from searchlab.experiment.games import GameSpec, Position, make_game, select_positions
from searchlab.studies.claim_study.claim_steps import Step

__all__ = ["KINDS", "SIZES", "WIDTHS", "POLICY", "MAX_NODES", "aspiration_steps", "position_rows", "summarise",
           "section", "conditions"]

KINDS = ("aspiration",)
#: below this many positions a cell gets no ratio and no bootstrap CI (n/a)
MIN_CI = 10
MAX_NODES = 20_000_000
#: chess's quiescence plies (as the chess ordering studies)
QUIESCENCE = 8
#: each game's iterative-deepening policy (the chess_ordering study's staged order in chess)
POLICY = {"chess": "id+staged", "connect4": "id+tt+killer+history+centre", "othello": "id+tt+killer+history+corners"}
#: aspiration half-widths per game: centipawns in chess (chess_ordering's), fractions of the
#: [-1, 1] evaluation in Connect Four (one open line is 1/240) and Othello
WIDTHS = {"chess": (25.0, 50.0, 100.0), "connect4": (0.01, 0.05, 0.2), "othello": (0.02, 0.05, 0.2)}
_SPECS = {"chess": GameSpec("chess", "wac", sample=None), "connect4": GameSpec("connect4", "Test_L1_R1"),
          "othello": GameSpec("othello", "random", ply=20)}
#: size -> game -> (positions, depths)
SIZES = {
    "full": {"chess": (50, (3, 4, 5, 6, 7)), "connect4": (30, (6, 8, 10, 12, 14)), "othello": (30, (4, 5, 6, 7, 8))},
    "small": {"chess": (2, (2, 3)), "connect4": (3, (4, 6)), "othello": (2, (3, 4))},
    "tiny": {"chess": (1, (2,)), "connect4": (2, (3, 4)), "othello": (1, (2, 3))},
}


@dataclass(frozen=True)
class Domain:
    game: str
    spec: GameSpec
    positions: int
    depths: tuple[int, ...]


def domains(size: str) -> list[Domain]:
    """The games of ``size`` with their position source sampled to its positions."""
    out = []
    for game, (n, depths) in SIZES[size].items():
        spec = _SPECS[game]
        if spec.positions != "random":
            spec = GameSpec(spec.name, spec.positions, sample=n, ply=spec.ply)
        out.append(Domain(game, spec, n, depths))
    return out


def position_rows(spec: GameSpec, position: Position, depths: tuple[int, ...]) -> list[dict]:
    """One step: the game's policy at every depth, with the full window and each width."""
    game = make_game(spec, position)
    pruning = Pruning(quiescence=Quiescence(max_depth=QUIESCENCE)) if spec.name == "chess" else None
    rows = []
    for d in depths:
        for w in (None, *WIDTHS[spec.name]):
            r = search(game, "alphabeta", POLICY[spec.name], depth=d, pruning=pruning, aspiration=w,
                       max_nodes=MAX_NODES)
            rows.append({"game": spec.name, "instance": position.instance, "position": position.id, "depth": int(d),
                         "width": math.nan if w is None else float(w), "status": r.status, "nodes": int(r.nodes),
                         "q_nodes": int(r.q_nodes), "cutoffs": int(r.cutoffs), "re_searches": int(r.re_searches),
                         "value": math.nan if r.value is None else float(r.value)})
    return rows


def aspiration_steps(size: str = "full", seed: int = 0) -> list[Step]:
    """One step per (game, position); positions from searchlab.experiment.games with root ``seed``."""
    steps = []
    for dom in domains(size):
        for pos in select_positions(dom.spec, seed, dom.positions):
            steps.append(Step("aspiration", (dom.game, pos.instance), position_rows,
                              dict(spec=dom.spec, position=pos, depths=dom.depths),
                              len(dom.depths) * 4 ** max(dom.depths)))
    return steps


def summarise(tables: dict[str, pd.DataFrame], size: str = "full", seed: int = 0, *,
              n_resamples: int = 999) -> pd.DataFrame:
    """One row per (game, depth, width) (module docstring): n, censored, work ratio with its CI,
    cutoffs ratio with its CI, mean re-searches, windowed iterations, value mismatches."""
    t = tables["aspiration"]
    rows = []
    if t.empty:
        return pd.DataFrame(rows)
    t = t.assign(work=t["nodes"].astype(float) + t["q_nodes"].astype(float), ok=t["status"] == "ok")
    for (game, d), g in t.groupby(["game", "depth"], sort=False):
        full = g[g["width"].isna()].set_index("instance")
        for w, gw in g[g["width"].notna()].groupby("width"):
            gw = gw.set_index("instance")
            both = full.index.intersection(gw.index)
            both = [i for i in both if full.at[i, "ok"] and gw.at[i, "ok"]]
            row = dict(game=game, depth=int(d), width=float(w), n=len(both), censored=len(gw) - len(both),
                       windowed=int(d) - 1, re_searches=float(gw.loc[both, "re_searches"].mean()) if both else math.nan,
                       mismatches=int(sum(gw.at[i, "value"] != full.at[i, "value"] for i in both)))
            for what in ("work", "cutoffs"):
                a, b = gw.loc[both, what].to_numpy(float), full.loc[both, what].to_numpy(float)
                if len(both) >= MIN_CI and (a > 0).all() and (b > 0).all():
                    e = paired_ratio(a, b, kind="geometric", n_resamples=n_resamples, seed=seed)
                    row.update({what: e.value, f"{what}_lo": e.low, f"{what}_hi": e.high})
                else:
                    row.update({what: math.nan, f"{what}_lo": math.nan, f"{what}_hi": math.nan})
            rows.append(row)
    return pd.DataFrame(rows)


#: a ratio within this of 1 is "about equal" even when its CI excludes 1 (a window that never
#: fails differs from the full window by a handful of nodes)
MATERIAL = 0.01


def _word(lo: float, hi: float, ratio: float = math.nan) -> str:
    """"fewer" / "more" when the CI lies below / above 1 and the ratio differs from 1 by more
    than MATERIAL; else "not shown" (NaN ratio: the CI alone)."""
    small = math.isfinite(ratio) and abs(ratio - 1) <= MATERIAL
    return "not shown" if small else "fewer" if hi < 1 else "more" if lo > 1 else "not shown"


def section(res: pd.DataFrame) -> str:
    """The report's table: per game, depth and width, work and cutoffs over the full window's."""
    if res is None or res.empty:
        return "The aspiration study did not run."
    rows = [[r.game, POLICY[r.game], r.depth, number(r.width), f"{r.n} ({r.censored})",
             interval(r.work, r.work_lo, r.work_hi), interval(r.cutoffs, r.cutoffs_lo, r.cutoffs_hi),
             f"{number(r.re_searches)} of {r.windowed}", r.mismatches] for r in res.itertuples()]
    return ("Aspiration windows against the full window, the same policy and depth, paired per position "
            "(geometric mean over the positions where both searches finished within "
            f"{MAX_NODES:,} nodes, 95 % bootstrap CI; work = nodes + quiescence nodes); widths: centipawns in "
            "chess, fractions of the [-1, 1] evaluation in Connect Four and Othello:\n\n"
            + md_table(["game", "policy", "depth", "half-width", "positions (censored)", "work / full window",
                        "cutoffs / full window", "re-searches per search", "value mismatches"], rows)
            + "\n\n" + conditions(res))


def costly(res: pd.DataFrame) -> list[str]:
    """The cells (game, depth, width) whose work ratio's CI lies above 1."""
    if res is None or res.empty:
        return []
    return [f"{r.game} d={r.depth} ±{number(r.width)} ({number(r.work)}x)" for r in res.itertuples()
            if _word(r.work_lo, r.work_hi, r.work) == "more"]


def conditions(res: pd.DataFrame) -> str:
    """Where the windows save work and where they cost it (CI below / above 1), per game."""
    if res is None or res.empty:
        return ""
    parts = []
    for game, g in res.groupby("game", sort=False):
        words = {k: [f"d={r.depth} ±{number(r.width)}" for r in g.itertuples()
                     if _word(r.work_lo, r.work_hi, r.work) == k] for k in ("fewer", "more")}
        cuts = {k: sum(_word(r.cutoffs_lo, r.cutoffs_hi, r.cutoffs) == k for r in g.itertuples())
                for k in ("fewer", "more")}
        parts.append(f"{game}: less work at {', '.join(words['fewer']) or 'no cell'}; more at "
                     f"{', '.join(words['more']) or 'no cell'} (of {len(g)} cells); cutoffs more at {cuts['more']}, "
                     f"fewer at {cuts['fewer']} cells")
    return (f"Aspiration windows by game (work's CI below / above 1, the ratio at least {MATERIAL:.0%} from 1): "
            + "; ".join(parts) + ".")

"""Real games against each position's own minimal tree, as a study of the engine
(``searchlab experiment=minimal_trees``, the claim-study family ``minimal_trees``).

Per game (Connect Four, Othello, Hex 7x7, chess with quiescence), every position is one step
of the engine's runner: ``real_minimal.position_rows`` searches it with every policy of the
game at every depth 1..D, each beside the position's perfectly ordered tree under that
policy's own table and quiescence settings (searchlab.algorithms.minimal_tree). The rows go
to the ``minimal`` table; ``summarise`` gives, per game, real_minimal.summarise's summary:
nodes / own minimal tree at the common depth D per policy (geometric mean, paired bootstrap CI
over positions) and the growth exponent alpha against the minimal tree's growth from the
depths every policy finished on every position (percentile bootstrap CI over positions).

Every policy of a game has the same node cap (``MAX_NODES``): a search beyond it is
"aborted", its row has no ratio, and its depth leaves the alpha fit of every policy
(censoring handled by dropping the depth for all, never by comparing at different depths).
``close_to_own_minimal_tree`` is claim 000-j's verdict on the chess rows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import matplotlib.pyplot as plt
from matplotlib.ticker import LogLocator, MaxNLocator, NullLocator, ScalarFormatter
import numpy as np
import pandas as pd

from searchlab.algorithms.pruning import Pruning, Quiescence
from searchlab.analysis import figures as P
from searchlab.analysis.markdown_tables import md_table
from searchlab.experiment.games import GameSpec, Position, make_game, select_positions
from searchlab.studies.claim_study.claim_steps import Step
from searchlab.studies.claims.verdict import Verdict
from searchlab.studies.ordering import real_minimal as RM
from searchlab.analysis.format import interval

__all__ = ["KINDS", "SIZES", "DOMAINS", "MAX_NODES", "minimal_steps", "position_step_rows",
           "summarise", "section", "close_to_own_minimal_tree", "CHESS_POLICY"]

KINDS = ("minimal",)
#: The same cap for every policy of a comparison (a search beyond it is "aborted").
MAX_NODES = 20_000_000
#: chess's horizon: quiescence of at most 8 plies, for the policies and their minimal trees
QUIESCENCE = 8
#: the policy 000-j is judged on ("reasonable ordering", as an engine orders)
CHESS_POLICY = "id+tt+killer+history+captures"


@dataclass(frozen=True)
class Domain:
    """One game of the study: its positions, depths 1..depth, the policies compared."""

    label: str
    spec: GameSpec
    positions: int
    depth: int
    policies: tuple[str, ...]
    quiescence: int = 0          # chess: quiescence plies (0 = none)


def _domains(sizes: dict[str, tuple[int, int]]) -> tuple[Domain, ...]:
    """The four games with (positions, depth) per game."""
    c4 = ("centre", "killer+history+centre", "tt+centre", "id+tt+killer+history+centre")
    ot = ("corners", "killer+history+corners", "tt+corners", "id+tt+killer+history+corners")
    hx = ("adjacent", "killer+history+adjacent", "tt+adjacent", "id+tt+killer+history+adjacent")
    ch = ("captures", "killer+history+captures", "id+tt+captures", CHESS_POLICY, "id+staged")
    make = {
        "connect4": lambda: Domain("Connect Four (Test_L1_R1)",
                                   GameSpec("connect4", "Test_L1_R1", sample=sizes["connect4"][0]),
                                   *sizes["connect4"], c4),
        "othello": lambda: Domain("Othello (ply 20)", GameSpec("othello", "random", ply=20), *sizes["othello"], ot),
        "hex": lambda: Domain("Hex 7x7 (ply 4)", GameSpec("hex", "7x7", ply=4), *sizes["hex"], hx),
        "chess": lambda: Domain("chess (WAC, quiescence 8)", GameSpec("chess", "wac", sample=sizes["chess"][0]),
                                *sizes["chess"], ch, QUIESCENCE),
    }
    return tuple(f() for k, f in make.items() if k in sizes)     # a size may name some games only


#: size -> the games' (positions, depth): depths at full size that every policy reaches on
#: every position within the cap (Connect Four 10, Othello 7, Hex 7x7 5, chess 5); small for
#: the quick reproduction, tiny for the tests
SIZES = {
    "full": {"connect4": (30, 10), "othello": (30, 7), "hex": (30, 5), "chess": (50, 5)},
    # 000-j at depths 1..6 (chess only; experiments/minimal_trees_chess.yaml): the same 50 WAC
    # positions and cap; depths where any search hits the cap leave the fit (depth 7: over 10
    # minutes for one position, docs/minimal-trees.md)
    "chess_deep": {"chess": (50, 6)},
    "chess_deep_small": {"chess": (2, 3)},       # the quick reproduction's stand-in for chess_deep
    "chess_deep_tiny": {"chess": (1, 2)},        # the tests'
    "small": {"connect4": (3, 4), "othello": (2, 3), "hex": (2, 2), "chess": (2, 2)},
    "tiny": {"connect4": (2, 3), "othello": (1, 2), "hex": (1, 1), "chess": (1, 1)},
}
DOMAINS = {size: _domains(s) for size, s in SIZES.items()}
_LABELS = {dom.spec.name: dom.label for dom in DOMAINS["full"]}


def position_step_rows(spec: GameSpec, position: Position, depth: int, policies: tuple[str, ...],
                       quiescence: int) -> list[dict]:
    """One step: the rows of one position (real_minimal.position_rows at depths 1..depth),
    tagged with the game."""
    pruning = Pruning(quiescence=Quiescence(max_depth=quiescence)) if quiescence else None
    rows = RM.position_rows(make_game(spec, position), position.id, range(1, depth + 1), policies,
                            pruning=pruning, max_nodes=MAX_NODES)
    return [dict(r, game=spec.name, instance=position.instance) for r in rows]


def minimal_steps(size: str = "full", seed: int = 0) -> list[Step]:
    """The study at ``size`` (SIZES) as steps: one per (game, position). Positions come from
    searchlab.experiment.games with root ``seed`` (file sources sampled by a seeded permutation,
    Othello and Hex seeded per position). Work: the policies' count times the depth's nominal
    growth, for the runner's batching only."""
    steps = []
    for dom in DOMAINS[size]:
        for pos in select_positions(dom.spec, seed, dom.positions):
            steps.append(Step("minimal", (dom.spec.name, pos.instance), position_step_rows,
                              dict(spec=dom.spec, position=pos, depth=dom.depth,
                                   policies=dom.policies, quiescence=dom.quiescence),
                              len(dom.policies) * 4 ** dom.depth))
    return steps


def summarise(tables: dict[str, pd.DataFrame], size: str = "full", seed: int = 0, *,
              n_resamples: int = 999) -> dict[str, RM.RealMinimal]:
    """Per game (in DOMAINS order, games without rows left out): real_minimal.summarise of
    its rows at its depth, positions in instance order (a function of the table only)."""
    table = tables["minimal"]
    out = {}
    for dom in DOMAINS[size]:
        rows = table[table["game"] == dom.spec.name].sort_values(["instance", "depth", "policy"])
        if len(rows):
            r = RM.summarise(rows.reset_index(drop=True), dom.policies, dom.depth,
                             n_resamples=n_resamples, seed=seed)
            if dom.spec.name == "chess":
                r = replace(r, by_depth=by_depth(r.table, dom.policies, CHESS_POLICY, n_resamples, seed))
            out[dom.spec.name] = r
    return out


def by_depth(table: pd.DataFrame, policies: tuple[str, ...], policy: str, n_resamples: int = 999,
             seed: int = 0) -> pd.DataFrame:
    """``policy``'s summary row (real_minimal's columns) at every depth d of ``table`` from 2 on,
    as if the study had stopped at d: the ratio at d, alpha from the depths up to d at which
    every policy finished on every position."""
    rows = []
    for d in sorted(int(x) for x in table.depth.unique() if x >= 2):
        upto = table[table.depth <= d].reset_index(drop=True)
        r = RM.summarise(upto, policies, d, n_resamples=n_resamples, seed=seed)
        rows.append(r.summary[r.summary.policy == policy].iloc[0])
    return pd.DataFrame(rows).reset_index(drop=True)


def _ci(v: float, lo: float, hi: float, digits: int = 2) -> str:
    return interval(v, lo, hi, f".{digits}f")


def plot_ratios(res: dict[str, RM.RealMinimal], path: Path, fmt: str = "png",
                titles: dict[str, str] | None = None) -> Path:
    """Geometric mean of nodes / own minimal tree against depth, one panel per game, one line
    per policy (ok rows only); ``titles``: a panel's title instead of the game's label."""
    fig, axes = plt.subplots(1, len(res), figsize=(3.6 * len(res), 3.4), squeeze=False)
    for ax, (game, r) in zip(axes[0], res.items()):
        ok = r.table[r.table.status == "ok"]
        g = ok.groupby(["policy", "depth"])["ratio"].agg(lambda x: float(np.exp(np.log(x).mean())))
        for policy in r.summary.policy:
            if policy in g.index.get_level_values(0):
                s = g.loc[policy]
                ax.plot(s.index, s.to_numpy(), marker="o", ms=3, label=policy)
        ax.set_yscale("log")
        # labelled ticks at 1, 1.5, 2, 3, 5, 7 per decade: the ratios span less than a decade
        ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 1.5, 2.0, 3.0, 5.0, 7.0)))
        ax.yaxis.set_major_formatter(ScalarFormatter())
        ax.yaxis.set_minor_locator(NullLocator())
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.axhline(1.0, color="grey", lw=0.8, ls="--")
        ax.set_title((titles or {}).get(game, _LABELS.get(game, game)), fontsize=10)
        ax.set_xlabel("depth")
        ax.legend(fontsize=6, loc="upper left")
    axes[0][0].set_ylabel("nodes / own minimal tree (geometric mean)")
    fig.tight_layout()
    return P.save(fig, path, fmt)


_HEAD = ["policy", "table", "positions (aborted)", "work / minimal at d", "α on work",
         "nodes / minimal at d", "α on nodes", "quiescence share (policy, minimal)",
         "b_eff policy", "b_eff minimal"]


def _policy_rows(s: pd.DataFrame) -> list[list[str]]:
    """The rows of _HEAD, one per summary row."""
    return [[x.policy, "yes" if x.tt else "no", f"{x.positions} ({x.aborted})",
             _ci(x.work_ratio, x.work_ci_low, x.work_ci_high), _ci(x.work_alpha, x.work_alpha_low,
                                                                   x.work_alpha_high, 3),
             _ci(x.gmean_ratio, x.ci_low, x.ci_high), _ci(x.alpha, x.alpha_low, x.alpha_high, 3),
             f"{x.q_share:.0%}, {x.q_share_minimal:.0%}" if math.isfinite(x.q_share) else "n/a",
             f"{x.beff:.2f}" if math.isfinite(x.beff) else "n/a",
             f"{x.beff_minimal:.2f}" if math.isfinite(x.beff_minimal) else "n/a"]
            for x in s.itertuples()]


def _deep_section(r: RM.RealMinimal) -> list[str]:
    """The deep chess run (preset minimal_trees_chess): its table at its depth, and the judged
    policy's ratio and alpha as if the study had stopped at each depth."""
    s = r.summary
    d = int(s.depth.iloc[0])
    out = [f"### {_LABELS['chess']} to depth {d} (preset {DEEP_PRESET}): {int(s.positions.iloc[0])} positions, "
           f"fit depths {', '.join(map(str, r.fit_depths)) or 'none'}", "",
           f"The same positions, seed, cap and policies as the table above, searched to depth {d} "
           f"(`searchlab experiment={DEEP_PRESET}`); 000-j is judged on this run when it is complete.", "",
           md_table(_HEAD, _policy_rows(s)), ""]
    if r.by_depth is not None and len(r.by_depth):
        rows = [[int(x.depth), f"{x.positions} ({x.aborted})", x.fit_depths.replace(",", ", ") or "none",
                 _ci(x.work_ratio, x.work_ci_low, x.work_ci_high),
                 _ci(x.work_alpha, x.work_alpha_low, x.work_alpha_high, 3),
                 _ci(x.gmean_ratio, x.ci_low, x.ci_high), _ci(x.alpha, x.alpha_low, x.alpha_high, 3)]
                for x in r.by_depth.itertuples()]
        out += [f"{CHESS_POLICY} as if the study had stopped at depth d: the ratio at d, α from the depths up to "
                "d where every search finished within the cap.", "",
                md_table(["d", "positions (aborted)", "fit depths", "work / minimal at d", "α on work",
                          "nodes / minimal at d", "α on nodes"], rows), ""]
    return out


def section(res: dict[str, RM.RealMinimal], fig_dir: Path, fmt: str = "png",
            deep: dict[str, RM.RealMinimal] | None = None) -> str:
    """Per game: positions, depths, the table of nodes / own minimal tree at the common depth
    and alpha per policy, and one figure of the ratios by depth. ``deep``: the deep chess run's
    results (preset minimal_trees_chess), shown after the games' tables and in the figure's
    chess panel instead of the shallower chess rows."""
    if not res:
        return "The minimal-tree study did not run."
    head = _HEAD
    out = ["Every policy against the position's *own* minimal tree: alpha-beta that searches a best "
           "child first, the children's exact depth-limited values known, under the policy's table "
           "and quiescence settings (searchlab.algorithms.minimal_tree). Ratio: geometric mean over "
           "positions with a paired bootstrap CI, on work = nodes + quiescence nodes (both sides; the "
           "convention of the deep chess study) and on the main search's nodes alone; α: "
           "log b_eff(policy) / (2 log b_eff(minimal)), "
           "1/2 when a policy grows as its minimal tree does, 3/4 for random order's b^(3/4) growth, "
           f"with a percentile bootstrap CI over positions. The same cap ({MAX_NODES:,} nodes) for "
           "every policy; a depth where any search hit it leaves every policy's fit.", ""]
    for game, r in res.items():
        s = r.summary
        d = int(s.depth.iloc[0])
        out += [f"### {_LABELS.get(game, game)}: depth {d}, {int(s.positions.iloc[0])} positions, fit depths "
                f"{', '.join(map(str, r.fit_depths)) or 'none'}", ""]
        out += [md_table(head, _policy_rows(s)), ""]
    shown, titles = dict(res), {}
    chess = (deep or {}).get("chess")
    if chess is not None:
        out += _deep_section(chess)
        shown["chess"] = chess
        titles["chess"] = f"{_LABELS['chess']}\n{DEEP_PRESET}, depths 1..{int(chess.summary.depth.iloc[0])}"
    path = plot_ratios(shown, Path(fig_dir) / "minimal_tree_ratios", fmt, titles)
    out += [f"![nodes over the own minimal tree by depth](figures/{path.name})", ""]
    return "\n".join(out)


HALFWAY = 0.625       # between 1/2 (the minimal tree's growth) and 3/4 (random order's)
#: below these, 000-j's verdict is "not shown at this power" (a growth fit on two depths or a
#: handful of positions says nothing about the exponent)
MIN_POSITIONS, MIN_FIT_DEPTHS = 10, 3
COMMAND = "searchlab experiment=minimal_trees (run by analysis/reproduce.py; searchlab.studies.ordering.minimal_trees_study)"
#: the preset of the chess rows to depth 6 (claim_study.size=chess_deep), its ``exact`` key in the
#: reproduction
DEEP_PRESET = "minimal_trees_chess"
#: the runs 000-j may be judged on: exact key -> command; the deepest complete one is used
#: (analysis/reproduce.py puts a deep run in ``exact`` only when it is complete)
RUNS = {DEEP_PRESET: f"searchlab experiment={DEEP_PRESET} (run by analysis/reproduce.py; "
                     "searchlab.studies.ordering.minimal_trees_study)",
        "minimal_trees": COMMAND}


def judged_chess(exact: dict | None) -> tuple[str, RM.RealMinimal] | None:
    """000-j's rows: (exact key, chess results) of the run in RUNS with CHESS_POLICY's row at the
    greatest depth (on a tie, the first of RUNS); None without any."""
    found = []
    for key in RUNS:
        r = ((exact or {}).get(key) or {}).get("chess")
        if r is not None and (r.summary.policy == CHESS_POLICY).any():
            found.append((int(r.summary.depth.iloc[0]), key, r))
    if not found:
        return None
    depth, key, r = max(found, key=lambda f: f[0])      # max keeps the first of equal depths
    return key, r


def close_to_own_minimal_tree(ctx: Any, fallback=None) -> Verdict:
    """000-j: chess against each position's own minimal tree

    CHESS_POLICY's growth exponent against the minimal trees' growth, from the chess rows of the
    deepest minimal-tree run in ``ctx.exact`` (judged_chess: the preset minimal_trees_chess's,
    depths 1..6, when present, else the minimal-tree study's, depth 5); without any,
    ``fallback(ctx)``. Fewer than MIN_POSITIONS positions or MIN_FIT_DEPTHS fit depths judge
    nothing ("not shown at this power")."""
    judged = judged_chess(ctx.exact)
    if judged is None:
        if fallback is None:
            return Verdict("no data", "the minimal-tree study did not run", "not measured",
                           "b^(d/2) (growth exponent 1/2)", COMMAND)
        return fallback(ctx)
    key, r = judged
    command = RUNS[key]
    x = r.summary[r.summary.policy == CHESS_POLICY].iloc[0]
    work = _has_work(x)
    # one convention for the report: work = nodes + quiescence nodes on both sides (chess_deep's);
    # the main search's nodes alone beside it
    measured = ((f"the {key} run: " if key == DEEP_PRESET else "") + f"{CHESS_POLICY}, {x.positions} WAC positions with quiescence (8 plies), depths 1.."
                f"{x.depth}, {x.aborted} aborted at depth {x.depth}: "
                + (f"work (nodes + quiescence nodes) / the position's own minimal tree's work = "
                   f"{_ci(x.work_ratio, x.work_ci_low, x.work_ci_high)} (geometric mean), growth exponent α "
                   f"against the minimal tree's growth over depths {x.fit_depths} = "
                   f"{_ci(x.work_alpha, x.work_alpha_low, x.work_alpha_high, 3)}; " if work else "")
                + f"{'without quiescence, ' if work else ''}nodes / own minimal tree's nodes = "
                f"{_ci(x.gmean_ratio, x.ci_low, x.ci_high)}, α = {_ci(x.alpha, x.alpha_low, x.alpha_high, 3)}"
                + (f"; quiescence share of work at depth {x.depth}: the search {x.q_share:.0%}, its minimal tree "
                   f"{x.q_share_minimal:.0%}" if work else "") + f" (n = {x.positions - x.aborted})")
    theory = "α = 1/2: the search grows as the minimal tree does, b^(d/2)"
    n_fit = len(r.fit_depths)
    a, lo, hi, ratio = ((x.work_alpha, x.work_alpha_low, x.work_alpha_high, x.work_ratio) if work else
                        (x.alpha, x.alpha_low, x.alpha_high, x.gmean_ratio))
    what = "work (nodes + quiescence nodes)" if work else "nodes"
    if x.positions - x.aborted < MIN_POSITIONS or n_fit < MIN_FIT_DEPTHS or not math.isfinite(a):
        return Verdict("not shown at this power", f"{x.positions - x.aborted} positions and {n_fit} fit "
                       f"depths; a verdict needs at least {MIN_POSITIONS} and {MIN_FIT_DEPTHS}",
                       measured, theory, command)
    if hi < HALFWAY:
        return Verdict("holds", f"counting {what} over depths {x.fit_depths} (n = {x.positions - x.aborted}), the "
                       f"search grows as its minimal tree to the power {2 * a:.2f} "
                       f"(α = {a:.3f}; the CI lies below {HALFWAY}, halfway to random order's 3/4) and costs "
                       f"{ratio:.2f}x its own minimal tree at depth {x.depth}"
                       + (f" ({x.gmean_ratio:.2f}x and α = {x.alpha:.3f} without quiescence)" if work else ""),
                       measured, theory, command)
    if lo > HALFWAY:
        return Verdict("does not hold", f"counting {what} over depths {x.fit_depths} (n = {x.positions - x.aborted}), "
                       f"α = {a:.3f}: nearer random order's 3/4 than 1/2",
                       measured, theory, command)
    return Verdict("not shown at this power", f"counting {what} over depths {x.fit_depths} (n = "
                   f"{x.positions - x.aborted}), α = {a:.3f}: the CI straddles {HALFWAY}",
                   measured, theory, command)


def _has_work(x) -> bool:
    """The summary row carries the work-convention figures (real_minimal's ``work_*``)."""
    return "work_alpha" in x.index and math.isfinite(x.work_ratio)

"""Reproduce the background's claims from scratch: analysis/REPORT.md, analysis/parts/ and
analysis/figures/.

    .venv/bin/python analysis/reproduce.py                     # every part, full size (analysis/README.md)
    .venv/bin/python analysis/reproduce.py --part pruning      # one part (PARTS), REPORT.md reassembled
    .venv/bin/python analysis/reproduce.py --small --out DIR   # a quick check (a few minutes)

The reproduction runs in parts (PARTS: trees, real_games, pruning, mcts), each with its own studies;
a part writes parts/<part>.md and .json, and REPORT.md is assembled from the newest of every
part (assemble_report).

Runs the studies knuth_moore, ordering_ebf, pearl, discrete_values and ordered_p through
``searchlab.experiment.api.run_study`` (tables under results/reproduce/<study>/, not committed),
adds the exact computations (the textbook trees with their traces and tree figures, the b = 35
arithmetic), the rigor studies (the presets convergence, exact_counts and rigor: paired
finite-depth convergence, exact expectations, the worst case over all orderings, node types,
Pearl's critical case and the cut rule, the policy costs) and the
parallel study (searchlab experiment=parallel; searchlab.studies.parallel.parallel_verdicts), the deep chess
ordering study chess_deep (WAC and BK at depths 1..7 on the compiled engine,
searchlab.studies.ordering.chess_deep; 750 s at full size on 2 cores, see its preset),
and writes REPORT.md with a verdict
on every claim of docs/claims.md. Every number in the report is computed; none is typed by
hand. Prints its run time.

The real-game ordering verdicts rest on the deep studies ordering_connect4_deep,
ordering_othello_deep and ordering_hex_deep (compiled engine, 100 positions each;
searchlab.studies.ordering.deep_ordering). ``--only NAME[,NAME]`` runs just those studies into --runs
and stops, so a later ``--resume`` reuses their tables:

    .venv/bin/python analysis/reproduce.py --only ordering_hex_deep --resume
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Callable, NamedTuple

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

import pandas as pd  # noqa: E402

from searchlab.analysis import estimators as E  # noqa: E402
from searchlab.analysis import theory as T  # noqa: E402
from searchlab.studies.ordering import deep_ordering as DO  # noqa: E402
from searchlab.analysis.format import number  # noqa: E402
from searchlab.analysis.markdown_tables import md_table  # noqa: E402
from searchlab.studies.chance import chance_verdicts as CH  # noqa: E402
from searchlab.studies.ordering import aspiration_study as AS  # noqa: E402
from searchlab.studies.ordering import chess_deep as CD  # noqa: E402
from searchlab.studies.ordering import minimal_trees_study as MT  # noqa: E402
from searchlab.studies.ordering import chess_ordering_study as COS  # noqa: E402
from searchlab.studies.claims import exact_trees as X  # noqa: E402
from searchlab.studies.multiplayer import multiplayer_verdicts as MP  # noqa: E402
from searchlab.studies.ordering import ordering_checks as OC  # noqa: E402
from searchlab.studies.rigor import discrete as RD  # noqa: E402
from searchlab.studies.parallel import parallel_verdicts as PC  # noqa: E402
from searchlab.experiment.api import node_caps  # noqa: E402
from searchlab.studies.sweep import sweep_report as R  # noqa: E402
from searchlab.studies.tradeoff.matches_report import has_games  # noqa: E402
from searchlab.studies.tradeoff.tradeoff_report import claim_counts, tradeoff_section  # noqa: E402

#: (study, overrides at full size, extra overrides for --small)
DISCRETE_TREES = "sweep.trees=[{model:iid,levels:2},{model:iid,levels:3},{model:iid,levels:8},{model:iid,levels:0}]"
STUDIES: list[tuple[str, list[str], list[str]]] = [
    ("knuth_moore", [], ["sweep.b=[2,3,4,8]", "sweep.d=1..7", "sweep.instances=3"]),
    # full size: the presets as they are (each b as deep as the preset's per-task budget allows)
    ("ordering_ebf", [], ["sweep.b=[2,4,8,16]", "sweep.d_budget=200000", "sweep.instances=6"]),
    ("pearl", [], ["sweep.b=[2,4,8]", "sweep.d_budget=300000", "sweep.instances=6"]),
    # tree.levels=0: the preset's own tree section (levels 2) would otherwise be set on every
    # sweep.trees entry (validation._tree_params_onto), listing one model twice
    ("discrete_values", [DISCRETE_TREES, "tree.levels=0", "sweep.b=[2,4,8,16]", "sweep.d_budget=20000000"],
     ["sweep.b=[2,4,8]", "sweep.d_budget=100000", "sweep.instances=5"]),
    ("ordered_p", [], ["sweep.d_by_b={2: \"2..10\", 8: \"2..6\", 16: \"2..4\"}", "sweep.d=2..8",
                       "sweep.instances=5"]),
    # move-ordering policies: their section is added because the table has them
    ("ordering_incremental", [], ["sweep.b=[4]", "sweep.d=2..6", "sweep.instances=3"]),
    ("ordering_games", [], ["sweep.instances=3"]),
    # the deep real-game ordering studies on the compiled engine (100 positions each; their
    # section and the real-game ordering verdicts: searchlab.studies.ordering.deep_ordering).
    # ordering_connect4_deep replaces ordering_connect4: its first 30 positions, depths 1..8
    # and policies are that preset's.
    ("ordering_connect4_deep", [], ["game.sample=6", "sweep.d=1..7", "sweep.d_by_ordering={perfect: 1..4}"]),
    ("ordering_othello_deep", [], ["sweep.instances=6", "sweep.d=1..5", "sweep.d_by_ordering={perfect: 1..3}"]),
    ("ordering_hex_deep", [], ["sweep.instances=6", "sweep.d=1..4", "sweep.d_by_ordering={perfect: 1..2}"]),
]


def run_preset(preset: str, small: bool, jobs: int, runs_dir: Path, resume: bool,
               log=print) -> tuple[Path, float]:
    """A study that is its own task kind (the engine's preset ``preset``, or ``preset``_small):
    unsound_tradeoff or parallel; its run dir and seconds. With ``resume``, the run's stored
    tasks are kept when its config is the preset's (a run of another config is run afresh)."""
    out = runs_dir / preset
    if out.exists() and not resume:
        shutil.rmtree(out)
    name = f"{preset}_small" if small else preset
    ov = [f"runner.n_jobs={jobs}", f"runner.progress={BARS}"]
    where(preset, name, log)
    log(f"== {name}: {' '.join(ov)}")
    t0 = time.perf_counter()
    _run_or_afresh(name, ov, out, log, progress=BARS == "true")
    return out, _recorded_seconds(out, time.perf_counter() - t0, resume)


def _run_or_afresh(name: str, ov: list[str], out: Path, log, progress: bool = False) -> Path:
    """run_study(name, ov) into ``out``, resuming what is there; tables of another config (the
    preset changed since they were written) are removed and the study run afresh."""
    from searchlab.experiment.api import RunError, run_study

    try:
        return run_study(name, ov, output_dir=out, progress=progress)
    except RunError as e:
        log(f"{name}: cannot resume ({e}); running it afresh")
        shutil.rmtree(out)
        return run_study(name, ov, output_dir=out, progress=progress)


#: the match presets (game pairs): the 10^4-node ones are part of every
#: reproduction (000-n's verdict rests on them; a few minutes at full size); the 10^5-node one
#: runs only with --matches (699 s measured on 2 cores, analysis/README.md), otherwise a run already under --runs
#: is read, if any
MATCH_PRESETS = {"full": ("unsound_matches", "chess_matches"),
                 "small": ("unsound_matches_small", "chess_matches_small")}
EXTRA_MATCH_PRESETS = {"full": ("unsound_matches_1e5",), "small": ()}
#: the 10^6-node preset (hours of CPU: its header): runs only with --matches-1e6, else a
#: finished run of it under --runs is read
LONG_MATCH_PRESETS = {"full": ("unsound_matches_1e6",), "small": ()}


def run_matches(small: bool, jobs: int, runs_dir: Path, resume: bool, extra: bool,
                log=print, long: bool = False) -> tuple[list[Path], list]:
    """The match runs under runs_dir and their rows of the "Studies run" table: each preset of
    MATCH_PRESETS is run (with ``resume``, its finished tasks are kept: the trade-off runner
    resumes a run directory of the same config); those of EXTRA_MATCH_PRESETS only with
    ``extra``, of LONG_MATCH_PRESETS only with ``long``; otherwise an existing, finished run
    of one that stored game pairs is read as it is."""

    size = "small" if small else "full"
    dirs, info = [], []
    for preset in MATCH_PRESETS[size] + EXTRA_MATCH_PRESETS[size] + LONG_MATCH_PRESETS[size]:
        out = runs_dir / preset
        ran = (preset in MATCH_PRESETS[size] or (extra and preset in EXTRA_MATCH_PRESETS[size])
               or (long and preset in LONG_MATCH_PRESETS[size]))
        if ran:
            if out.exists() and not resume:
                shutil.rmtree(out)
            log(f"== {preset}: runner.n_jobs={jobs}")
            t0 = time.perf_counter()
            _run_or_afresh(preset, [f"runner.n_jobs={jobs}", "runner.progress=false"], out, log)
            info.append((preset, f"searchlab experiment={preset}", "see its section", "see its section",
                         _recorded_seconds(out, time.perf_counter() - t0, resume), _rel(out)))
        if has_games(out) and not ran and not _complete(out):
            # an interrupted run of an extra preset: half its pairings would be reported as if whole
            flag = "--matches-1e6" if preset in LONG_MATCH_PRESETS[size] else "--matches"
            log(f"{preset}: not read, its run under {out} is incomplete (finish it with {flag} --resume)")
        elif has_games(out):
            dirs.append(out)
    return dirs, info


def _complete(run_dir: Path) -> bool:
    """Whether the run under ``run_dir`` finished every task (its manifest says so)."""
    manifest = run_dir / "manifest.json"
    return manifest.exists() and bool(json.loads(manifest.read_text()).get("complete"))


#: the tuning study (stage tune, then stage confirm into <preset>_confirm) and the time-control
#: matches: run only with --matches (cost in their preset headers);
#: without it, runs of them already under --runs are read, if any. Not in the digest test
#: (tests/analysis/test_reproduce_same.py): the time-control games are not reproducible.
TUNING_PRESETS = {"full": ("unsound_tuning", "unsound_matches_time"),
                  "small": ("unsound_tuning_small", "unsound_matches_time_small")}
#: chess on the clock (equal CPU time per move, the engine-grade pairings of chess_matches):
#: runs with --matches after the other time-control preset (its cost: analysis/README.md);
#: its pairings, and the other time-control ones, are counted in 000-n's verdict beside the
#: node-budget ones (docs/matches.md, the fixed rules)
CHESS_TIME_PRESETS = {"full": "chess_matches_time", "small": "chess_matches_time_small"}


def time_dirs(small: bool, runs_dir: Path) -> list[Path]:
    """The run directories of the time-control presets (Connect Four and Othello, then chess)."""
    size = "small" if small else "full"
    return [runs_dir / TUNING_PRESETS[size][1], runs_dir / CHESS_TIME_PRESETS[size]]


def run_tuning(small: bool, jobs: int, runs_dir: Path, resume: bool, run: bool, log=print) -> str:
    """The report section of the tuning study and the time-control matches (studies/tradeoff/
    tuning_report.py), running them first with ``run`` (--matches): the tune stage into
    runs_dir/<tuning preset>, the confirm stage over it into runs_dir/<tuning preset>_confirm,
    the time-control presets (TUNING_PRESETS' and CHESS_TIME_PRESETS') into runs_dir/<its
    name>. Their seconds are stated in the section (not in the "Studies run" table). With
    ``resume``, finished tasks are kept (the runner resumes a run of the same config)."""
    from searchlab.studies.tradeoff.tuning_report import time_control_section, tuning_section

    tuning, timed = TUNING_PRESETS["small" if small else "full"]
    tune, confirm = runs_dir / tuning, runs_dir / f"{tuning}_confirm"
    timed_dirs = time_dirs(small, runs_dir)
    ov = [f"runner.n_jobs={jobs}", "runner.progress=false"]
    stages = [(tuning, tune, []), (tuning, confirm, ["tradeoff.tuning.stage=confirm",
                                                     f"tradeoff.tuning.tuned_run={tune}"])]
    stages += [(d.name, d, []) for d in timed_dirs]
    secs = {}
    for name, out, extra in stages:
        if not run:                              # an earlier --matches run's time, if recorded
            if (out / "reproduce_seconds.txt").exists():
                secs[out.name] = float((out / "reproduce_seconds.txt").read_text())
            continue
        if out.exists() and not resume:
            shutil.rmtree(out)
        where("matches", out.name, log)
        t0 = time.perf_counter()
        _run_or_afresh(name, ov + extra, out, log)
        secs[out.name] = _recorded_seconds(out, time.perf_counter() - t0, resume)

    def unread(d: Path) -> str:
        """Why the run under d is not reported ("" when it is): an interrupted run would be
        reported as if whole."""
        if not has_games(d):
            return "Not run (it runs with --matches)."
        if not _complete(d):
            return f"Not read: its run under {d} is incomplete (finish it with --matches --resume)."
        return ""
    text = [f"Run by `analysis/reproduce.py{' --small' if small else ''} --matches` "
            f"(presets {tuning}, {timed} and {timed_dirs[1].name}; `searchlab "
            f"experiment={tuning}` then the same with "
            f"`tradeoff.tuning.stage=confirm tradeoff.tuning.tuned_run=RUN_DIR`)"
            + (": " + ", ".join(f"{k} {v:.0f} s" for k, v in secs.items()) if secs else "")
            + ".", "", "### Tuning then confirming on disjoint openings", ""]
    text.append(unread(tune) or tuning_section(tune, None if unread(confirm) else confirm))
    if not unread(tune) and has_games(confirm) and not _complete(confirm):
        text += ["", unread(confirm)]
    text += ["", "### Time-control matches (CPU time per move)", "",
             "Their pairings are counted in the verdict on 000-n / 001-l beside the node-budget "
             "ones (the section on sound versus unsound pruning; docs/matches.md, fixed rules)."]
    for d in timed_dirs:
        text += ["", f"Preset {d.name}:", "", unread(d) or time_control_section(d)]
    out = "\n".join(text)
    for d in (confirm, tune, *timed_dirs):        # the run directories as the report names them
        out = out.replace(str(d), str(_rel(d)))
    return out


def _recorded_seconds(out: Path, secs: float, resume: bool) -> float:
    """The seconds a study's tables took: with ``resume``, the time recorded in
    out/reproduce_seconds.txt when it is longer than this invocation's (the tables were produced
    earlier, and a resumed run only reads them); otherwise ``secs``, which is recorded."""
    timing = out / "reproduce_seconds.txt"
    if resume and timing.exists() and float(timing.read_text()) > secs:
        return float(timing.read_text())
    timing.write_text(f"{secs:.1f}")
    return secs


#: the claim studies of every reproduction, in the order they run
CLAIM_STUDIES = ("chance", "multiplayer", "minimal_trees", "chess_ordering", "ordering_checks")
#: claim studies run at a size of their own: preset -> (its family's entry in ``results``, the
#: claim_study.size per reproduction size); the others run at the reproduction's size, "full" or "small"
OWN_SIZES = {"minimal_trees_chess": ("minimal_trees", {"full": "chess_deep", "small": "chess_deep_small"})}


def run_claim_studies(small: bool, jobs: int, runs_dir: Path, resume: bool, log=print,
                      names: tuple[str, ...] = CLAIM_STUDIES, shared: tuple[str, ...] = ()) -> tuple[dict, list]:
    """The chance-node, n-player, minimal-tree, chess-ordering and shallow ordering studies (the engine's presets experiment=chance,
    experiment=multiplayer, experiment=minimal_trees, experiment=chess_ordering and experiment=ordering_checks, size small or full): their results computed from the
    runs' tables (the same numbers as studies.chance.chance_verdicts.chance_checks / multiplayer_checks), and
    info rows. With ``resume``, a run's stored tasks of the same config are not run again.
    ``names``: the studies to run (default CLAIM_STUDIES). ``shared``: studies another part runs
    too (rigor: the trees part): a complete run of theirs under ``runs_dir`` is read, not run
    again, and its row says so with no seconds (they are counted in the part that ran it)."""
    from searchlab.studies.claim_study.claim_study_report import results

    exact, info = {}, []
    for name in names:
        key, sizes = OWN_SIZES.get(name, (name, {}))
        size = sizes.get("small" if small else "full", "small" if small else "full")
        out = runs_dir / name
        if name in shared and _complete(out):
            log(f"== {name}: read from the run under {_rel(out)} (another part's)")
            exact[name] = results(out)[key]
            info.append((name, f"searchlab experiment={name} claim_study.size={size} (read: the trees part's "
                         "run; its seconds are counted there)", "see its section", "see its section", 0.0, _rel(out)))
            continue
        if out.exists() and not resume:
            shutil.rmtree(out)
        ov = [f"claim_study.size={size}", f"runner.n_jobs={jobs}", "runner.progress=false"]
        log(f"== {name}: {' '.join(ov)}")
        t0 = time.perf_counter()
        _run_or_afresh(name, ov, out, log)
        secs = _recorded_seconds(out, time.perf_counter() - t0, resume)
        exact[name] = results(out)[key]
        info.append((name, f"searchlab experiment={name} claim_study.size={size}", "see its section",
                     "see its section", secs, _rel(out)))
    return exact, info


def _rel(path: Path) -> Path:
    """``path`` relative to the repository root when it lies inside it (--runs may point elsewhere)."""
    return path.relative_to(ROOT) if path.is_relative_to(ROOT) else path


def tradeoff_report_section(run_dir: Path, fig_dir: Path, match_dirs: tuple = ()) -> str:
    """The trade-off study's section (with the match runs' game pairs), its Pareto figures
    copied beside the report's."""
    text = tradeoff_section(run_dir, match_dirs)
    for f in sorted((run_dir / "figures").glob("pareto_*.png")):
        shutil.copy(f, fig_dir / f.name)
        text = text.replace(f"]({f})", f"](figures/{f.name})")
    text = text.replace(f"Full report: {run_dir / 'report.md'}",
                        f"Full report of the study: `{_rel(run_dir / 'report.md')}` "
                        "(not committed; `searchlab-report RUN_DIR` rewrites it).")
    return text.split("\n", 1)[1].lstrip()          # drop its own "## " heading


#: The deep chess ordering study: its own table, analysed by searchlab.studies.ordering.chess_deep
#: (not by the tree and policy sections), each policy's cap read from the run's config
#: (node_caps). --small: 10 WAC positions and BK at depths 1..5.
CHESS_DEEP = ("chess_deep", [], ["sweep.games=[{name:chess,positions:wac,sample:10},{name:chess,positions:bk}]",
                                 "sweep.d=1..5"])


#: the stages of each part, in order (the progress line says "stage k of n")
PART_STAGES = {"trees": ("tree studies", "parallel", "rigor studies", "claim studies", "analysis"),
               "real_games": ("tree studies", "chess_deep", "claim studies", "analysis"),
               "pruning": ("unsound_tradeoff", "matches", "analysis"),
               "mcts": ("mcts_vs_alphabeta", "analysis")}
STAGES = PART_STAGES["trees"]
#: progress bars when a person watches (a terminal); a redirected log stays free of them
BARS = "true" if sys.stderr.isatty() else "false"


def where(stage: str, detail: str = "", log=print) -> None:
    """Say where the reproduction is ("stage 2 of 8: unsound_tradeoff"), and name it on the
    progress bar of the study that runs next (searchlab.experiment.runner.PROGRESS_DESC_ENV)."""
    from searchlab.experiment.runner import PROGRESS_DESC_ENV
    k = STAGES.index(stage) + 1 if stage in STAGES else "?"
    text = f"stage {k} of {len(STAGES)}: {stage}" + (f", {detail}" if detail else "")
    os.environ[PROGRESS_DESC_ENV] = text
    log(f"[{text}]")


def run_studies(small: bool, jobs: int, runs_dir: Path, resume: bool, log=print,
                only: tuple[str, ...] = (), studies=STUDIES) -> tuple[pd.DataFrame, list]:
    """Run the ``studies`` (default STUDIES; ``only``: just those) into runs_dir/<study>; their
    rows and the rows of the "Studies run" table."""

    frames, info = [], []
    todo = [st for st in studies if not only or st[0] in only]
    for k, (name, full, extra) in enumerate(todo, 1):
        where("chess_deep" if name == "chess_deep" else "tree studies",
              f"study {k} of {len(todo)}: {name}", log)
        ov = list(full) + (list(extra) if small else [])
        ov += [f"runner.n_jobs={jobs}", f"runner.progress={BARS}", "runner.report=false"]
        out = runs_dir / name
        if out.exists() and not resume:
            shutil.rmtree(out)
        t0 = time.perf_counter()
        log(f"== {name}: {' '.join(ov)}")
        run_dir = _run_or_afresh(name, ov, out, log)
        secs = _recorded_seconds(out, time.perf_counter() - t0, resume)
        df = R.load_run(run_dir)
        frames.append(df)
        ok = int((df["status"] == "ok").sum()) if "status" in df.columns else len(df)
        info.append((name, " ".join(o for o in ov if not o.startswith("runner.")) or "(preset as is)",
                     len(df), ok, secs, _rel(run_dir)))
    return _one_row_per_search(pd.concat(frames, ignore_index=True)), info


#: what makes two game rows the same search (the positions are seeded: the same counts)
_SEARCH_KEY = ["game", "positions", "position", "algorithm", "ordering", "d", "pruning"]


def _one_row_per_search(df: pd.DataFrame) -> pd.DataFrame:
    """Game searches that two studies both ran (ordering_games' Othello positions are the first
    of ordering_othello_deep's) count once: the later study's row is kept."""
    if "game" not in df.columns or not set(_SEARCH_KEY) <= set(df.columns):
        return df
    games = df["game"].notna()
    dup = df[games].duplicated(subset=_SEARCH_KEY, keep="last")
    return df.drop(index=dup[dup].index).reset_index(drop=True)


def traces_section(fig_dir: Path) -> str:
    import matplotlib.pyplot as plt

    from searchlab.algorithms.trace import trace_figure, trace_text
    from searchlab.trees import ExplicitTree

    cases = [
        ("textbook", X.TEXTBOOK, "000-b: the textbook tree, left to right"),
        ("textbook_c_first", X.TEXTBOOK_C_FIRST, "000-c / 000-i: C first with its leaves 2, 5, 14, then A, B"),
        ("homework", X.HOMEWORK, "003-b: the homework tree, left to right"),
        ("homework_c_first", [X.HOMEWORK[2], X.HOMEWORK[0], X.HOMEWORK[1]],
         "003-b: the homework tree with its best child C first"),
    ]
    parts = []
    for slug, nested, caption in cases:
        tree = ExplicitTree(nested)
        txt = trace_text(tree, "alphabeta", "natural")
        fig = trace_figure(tree, "alphabeta", "natural", path=str(fig_dir / f"trace_{slug}.png"))
        plt.close(fig)
        parts.append(f"### {caption}\n\nTree (MAX root, MIN children): `{nested}`\n\n```\n{txt}\n```\n\n"
                     f"![{slug}](figures/trace_{slug}.png)")
    return ("Alpha-beta's trace on each explicit tree of the notes (`searchlab.algorithms.trace.trace_text`; figures "
            "by `trace_figure`: pruned branches grey and dashed, each node's entry window and returned value, "
            "'≤' / '≥' marking bounds).\n\n" + "\n\n".join(parts))


def arithmetic_section() -> str:
    rows = [[f.claim, f.what, number(f.value, 4), f.stated] for f in T.chess_arithmetic()]
    extra = []
    for b in (2, 8, 35, 250):
        extra.append([b, number(b ** 0.75, 4), number(T.pearl_rb(b), 4), number(b ** 0.5, 4),
                      number(T.depth_reachable(1e9, b, "minimax")), number(T.depth_reachable(1e9, b, "random")),
                      number(T.depth_reachable(1e9, b, "pearl")), number(T.depth_reachable(1e9, b, "perfect"))])
    return ("Computed by `searchlab.analysis.theory.chess_arithmetic()`; the last column quotes the note.\n\n"
            + md_table(["claim", "quantity", "computed", "the note says"], rows)
            + "\n\nDepth reachable with 10^9 positions, d = log(10^9) / log(b_eff):\n\n"
            + md_table(["b", "b^(3/4)", "Pearl R_b", "√b", "depth minimax", "depth b^(3/4)", "depth R_b",
                          "depth √b"], extra))


def ordered_section(summary: pd.DataFrame) -> str:
    s = summary[(summary["tree"] == "ordered") & (summary["algorithm"] != "minimax")] if len(summary) else summary
    if s.empty or "p" not in s.columns:
        return "No ordered-tree rows: the p sweep did not run."
    # p sets the quality of *natural* order; other orderings (perfect, worst) ignore it
    s = s[s["ordering"] == "natural"].dropna(subset=["alpha_fit", "p"])
    s = s.sort_values(["b", "p", "d_max", "n"]).groupby(["b", "p"]).tail(1)
    s = s[s.groupby("b")["p"].transform("nunique") >= 2]
    if s.empty:
        return "No p sweep: the ordered trees of this run have a single p per b."
    bs = sorted(int(b) for b in s["b"].unique())
    ps = sorted(s["p"].unique())
    rows = []
    for p in ps:
        row = [number(p)]
        for b in bs:
            r = s[(s["b"] == b) & (s["p"] == p)]
            row.append(R._ci(r["alpha_fit"].iloc[0], r["alpha_fit_lo"].iloc[0], r["alpha_fit_hi"].iloc[0])
                       + f" (d ≤ {int(r['d_max'].iloc[0])}, n={int(r['n'].iloc[0])})" if len(r) else "not run")
        rows.append(row)
    lines = []
    for b in bs:
        sb = s[s["b"] == b].sort_values("p")
        a0, a1 = sb["alpha_fit"].iloc[0], sb["alpha_fit"].iloc[-1]
        near = sb.iloc[(sb["p"] - 1.0 / b).abs().argmin()]
        lines.append(f"b = {b}: α = {number(a0)} at p = {number(sb['p'].iloc[0])}, {number(near.alpha_fit)} at "
                     f"p = {number(near.p)} (≈ 1/b, random order), {number(a1)} at p = {number(sb['p'].iloc[-1])}")
    return ("Ordered trees (docs/trees.md): natural order puts the best move first with probability p. Fitted "
            "exponent α (leaves, parity fit, 95 % bootstrap CI) per p and b:\n\n"
            + md_table(["p"] + [f"b = {b}" for b in bs], rows) + "\n\n" + "; ".join(lines) + ".\n\n"
            + _ordered_conclusion(s, summary))


def _ordered_conclusion(s: pd.DataFrame, summary: pd.DataFrame) -> str:
    """Sentences whose every statement is checked against the numbers above."""
    out = []
    p0 = s[s["p"] == s["p"].min()]
    p1 = s[s["p"] == s["p"].max()]
    if len(p0) and (p0["alpha_fit_hi"] < 1).all():
        out.append(f"At p = {number(p0['p'].min())} (worst-first at every node) the exponent stays below 1 at every b "
                   f"(at most {number(p0['alpha_fit_hi'].max())}): windows inherited from ancestors still cut.")
    if len(p1):
        out.append(f"At p = {number(p1['p'].max())} it is {number(p1['alpha_fit'].min())}..{number(p1['alpha_fit'].max())}: "
                   "the Knuth–Moore minimal tree, 1/2 plus its finite-depth offset.")
    mono = all((g.sort_values("p")["alpha_fit"].diff().dropna() <= 0.02).all() for _, g in s.groupby("b"))
    out.append("In between, the exponent falls " + ("monotonically (within 0.02)" if mono else
                                                     "overall, though not monotonically at every b") + " as p grows.")
    iid = summary[(summary["tree"] == "iid") & (summary["ordering"] == "random")
                  & (summary["levels"].fillna(0) == 0)].dropna(subset=["alpha_fit"]) if len(summary) else summary
    cmp_, diffs = [], []
    for b in sorted(s["b"].unique()):
        sb = s[s["b"] == b]
        near = sb.iloc[(sb["p"] - 1.0 / b).abs().argmin()]
        r = iid[iid["b"] == b].sort_values("d_max")
        if len(r) and abs(near.p - 1.0 / b) < 1e-9:
            cmp_.append(f"b = {int(b)}: ordered {number(near.alpha_fit)} vs i.i.d. {number(r['alpha_fit'].iloc[-1])}")
            diffs.append(near.alpha_fit - r["alpha_fit"].iloc[-1])
    if cmp_:
        big = max(abs(x) for x in diffs)
        out.append("Random order (p = 1/b) on ordered trees against random order on i.i.d. trees: " + "; ".join(cmp_)
                   + (f". They differ by up to {number(big)} in α: the value model, not only the ordering, sets the "
                      "exponent." if big > 0.03 else f". They agree within {number(big)} in α."))
    return " ".join(out)


def discrete_section(summary: pd.DataFrame) -> str:
    if summary.empty or "levels" not in summary.columns:
        return "No discrete-value rows."
    s = summary[(summary["tree"] == "iid") & summary["ordering"].isin(["random", "natural"])
                & (summary["algorithm"] != "minimax")].dropna(subset=["alpha_fit"])
    s = s.assign(levels=s["levels"].fillna(0))
    if (s["levels"] > 0).sum() == 0:
        return "No discrete-value rows: the discrete_values study did not run."
    s = s.sort_values(["b", "levels", "d_max", "n"]).groupby(["b", "levels"]).tail(1)
    s = s[s["b"].isin(s.loc[s["levels"] > 0, "b"].unique())]
    ks = sorted(int(k) for k in s["levels"].unique())
    # the discrete cells' exponent computed from the DP over the fit's own depths; the sampled
    # fit beside it is its check
    exact = {(int(r.b), int(r.levels)): RD.exact_discrete_alpha(int(r.b), int(r.levels), str(r.depths).split(","))
             for r in s[s["levels"] > 0].itertuples()}
    rows = []
    for b in sorted(int(x) for x in s["b"].unique()):
        row = [b]
        for k in ks:
            r = s[(s["b"] == b) & (s["levels"] == k)]
            if not len(r):
                row.append("not run")
                continue
            sampled = (R._ci(r["alpha_fit"].iloc[0], r["alpha_fit_lo"].iloc[0], r["alpha_fit_hi"].iloc[0])
                       + f" (d ≤ {int(r['d_max'].iloc[0])})")
            row.append(sampled if k == 0 else f"**{number(exact[(b, k)])}**; sampled {sampled}")
        row.append(number(T.pearl_alpha(b)))
        rows.append(row)
    return ("Random-order alpha-beta on i.i.d. trees with K distinct leaf values (K = 0: continuous). Exponent α "
            "(leaves, parity fit of log N on d over the deepest depths run): for K levels **exact**, the same fit "
            "of the exact E[leaves] (searchlab.theory.exact, the window DP), with the sampled fit (mean over trees, "
            "95 % CI) as its check; continuous: sampled (the exact continuous sequence is in \"Random-order "
            "alpha-beta from exact expectations\"):\n\n"
            + md_table(["b"] + [("continuous" if k == 0 else f"K = {k}") for k in ks] + ["Pearl α (continuous)"],
                         rows)
            + "\n\n" + _discrete_conclusion(s, exact))


def _discrete_conclusion(s: pd.DataFrame, exact: dict[tuple[int, int], float]) -> str:
    disc = s[s["levels"] > 0]
    keys = [(int(r.b), int(r.levels)) for r in disc.itertuples()]
    below = [k for k in keys if exact[k] < T.pearl_alpha(k[0])]
    kmin = int(disc["levels"].min())
    k2 = [exact[k] for k in keys if k[1] == kmin]
    miss = [f"b = {r.b}, K = {r.levels}: exact {number(exact[(int(r.b), int(r.levels))])} outside "
            f"[{number(r.alpha_fit_lo)}, {number(r.alpha_fit_hi)}]" for r in disc.itertuples()
            if not r.alpha_fit_lo <= exact[(int(r.b), int(r.levels))] <= r.alpha_fit_hi]
    check = (f"The sampled fits' 95 % CIs contain the exact exponent in {len(keys) - len(miss)} of {len(keys)} cells"
             + (f" (missed: {'; '.join(miss)})" if miss else "") + ".")
    return (f"{len(below)} of {len(keys)} exact discrete-value exponents lie below Pearl's continuous-value exponent "
            f"(and so below 3/4). With K = {kmin} the exact exponent is {number(min(k2))}..{number(max(k2))}: ties cut "
            "(the spec's 'Ties cut'), so with few leaf values random order prunes about as well as perfect order on "
            "continuous values, and neither b^(3/4) nor R_b describes it. " + check)


def _bad_arguments(args: argparse.Namespace, runs_dir: Path) -> str | None:
    """What is wrong with the arguments (one line), checked before any work; None if nothing.
    Creates the output directories (they would be created anyway) and probes a write."""
    if not 1 <= args.jobs <= 4096:
        return f"--jobs must be in [1, 4096]; got {args.jobs}"
    if not 1 <= args.resamples <= 1_000_000:
        return f"--resamples must be in [1, 1000000]; got {args.resamples}"
    names = [n for n, _, _ in STUDIES + [CHESS_DEEP]]
    given = [] if args.only is None else [x.strip() for x in args.only.split(",")]
    if args.only is not None and (not given or not all(given)):
        # '' or ',' named no study: without this check the whole reproduction ran
        return (f"--only needs study names, comma-separated, none empty; got {args.only!r} "
                f"(studies: {', '.join(names)})")
    unknown = [x for x in given if x not in names]
    if unknown:
        return f"--only: {', '.join(unknown)} is not a study of STUDIES or CHESS_DEEP ({', '.join(names)})"
    for flag, d in (("--runs", runs_dir), ("--out", Path(args.out).absolute())):
        try:
            d.mkdir(parents=True, exist_ok=True)
            probe = d / f".reproduce-probe-{os.getpid()}"
            probe.write_bytes(b"")
            probe.unlink()
        except OSError as e:
            return f"{flag} {d}: cannot write there ({e.strerror or e})"
    return None


def adopt_convergence_cache(cache: Path, size: str, jobs: int, log=print) -> int:
    """A reproduction written before the convergence study ran on the engine kept its counts in
    ``cache/b{b}.npz`` (depths, seeds, leaves[seed, depth], ordering). With --resume, the counts
    that match the study's tasks (the same depths, tree seeds and order) become the run's rows,
    so they are not measured again: the same counts, hence the same numbers. Returns the rows
    adopted (0 when the directory already holds an engine run or no matching cache)."""
    import numpy as np
    from searchlab.studies.rigor import convergence as CV
    from searchlab.experiment import api, provenance, store
    from searchlab.studies.claim_study.claim_study import claim_tasks, config_hash, from_engine
    from searchlab.studies.claim_study.families import family

    if (cache / "provenance.json").exists() or not any(cache.glob("b*.npz")):
        return 0
    cfg = from_engine(api.compose("convergence", [f"claim_study.size={size}"]))
    rows = []
    for t in claim_tasks(cfg):
        kw = t.step.kwargs
        path = cache / f"b{kw['b']}.npz"
        if not path.exists():
            continue
        got = np.load(path)
        trees = range(kw["first"], kw["first"] + len(kw["seeds"]))
        if (got["depths"].tolist() != kw["depths"] or str(got.get("ordering", "random")) != CV.ORDERING
                or len(got["seeds"]) < trees.stop
                or [int(got["seeds"][i]) for i in trees] != kw["seeds"]):
            continue
        rows += [{"b": kw["b"], "tree": i, "d": d, "leaves": int(got["leaves"][i, j]),
                  "task_id": t.task_id} for i in trees for j, d in enumerate(kw["depths"])]
    if rows:
        provenance.add_session(cache, config_hash(cfg), provenance.session_record(jobs, "loky", 0, True))
        store.PartWriter(cache, "paired_leaves", family("convergence").schema("paired_leaves")).write(rows)
        log(f"convergence: {len(rows)} counts of the earlier reproduction's cache ({cache}/b*.npz) "
            "adopted as the run's rows")
    return len(rows)


def run_rigor(small: bool, jobs: int, runs_dir: Path, resume: bool, resamples: int,
              log=print) -> tuple[dict, list, list]:
    """The rigor studies: measurements for the claims registry, the rows of the
    "Studies run" table, and the report sections (built later, once figures can be written).
    The convergence counts, the exact expectations and the other rigor studies are the engine's
    runs of experiment=convergence, experiment=exact_counts and experiment=rigor under
    runs_dir/convergence, runs_dir/exact_counts and runs_dir/rigor (resumed with ``resume``),
    analysed from their tables."""
    from searchlab.studies.rigor import convergence as CV
    from searchlab.studies.claim_study.claim_study import load_tables
    from searchlab.studies.rigor import exact_counts as EC
    from searchlab.studies.rigor import rigor_study as RS

    cache = runs_dir / "convergence"
    if cache.exists() and not resume:
        shutil.rmtree(cache)
    size = "small" if small else "full"
    ov = [f"claim_study.size={size}", f"runner.n_jobs={jobs}", "runner.progress=false",
          "runner.report=false"]
    log(f"== convergence: {' '.join(ov)}")
    t0 = time.perf_counter()
    if resume:
        adopt_convergence_cache(cache, size, jobs, log)
    _run_or_afresh("convergence", ov, cache, log)
    secs = _recorded_seconds(cache, time.perf_counter() - t0, resume)
    conv = CV.summarise(load_tables(cache), size, CV.SEED, n_resamples=resamples)
    rel = str(cache.relative_to(ROOT) if cache.is_relative_to(ROOT) else cache)
    n = min(r.n for r in conv.values())
    info = [("convergence (paired, kernel)", f"b = {', '.join(map(str, conv))}, n = {n} trees per b, the same "
             "seeds at every depth", "n/a", "n/a", secs, rel)]
    out = {"convergence": conv}
    exact_dir = runs_dir / "exact_counts"
    if exact_dir.exists() and not resume:
        shutil.rmtree(exact_dir)
    log(f"== exact_counts (DP over the search window): {' '.join(ov)}")
    t1 = time.perf_counter()
    _run_or_afresh("exact_counts", ov, exact_dir, log)
    secs = _recorded_seconds(exact_dir, time.perf_counter() - t1, resume)
    out["exact_counts"] = EC.summarise(load_tables(exact_dir), size, EC.SEED)
    out["exact_counts"].sampled = conv           # the sampled study is the exact numbers' check
    info.append(("exact expectations (DP over the window)",
                 f"searchlab experiment=exact_counts claim_study.size={size}", "n/a", "n/a", secs,
                 _rel(exact_dir)))
    rigor_dir = runs_dir / "rigor"
    if rigor_dir.exists() and not resume:
        shutil.rmtree(rigor_dir)
    log(f"== rigor (worst case, node types, critical case, cut rule, policy costs): {' '.join(ov)}")
    t1 = time.perf_counter()
    _run_or_afresh("rigor", ov, rigor_dir, log)
    secs = _recorded_seconds(rigor_dir, time.perf_counter() - t1, resume)
    out.update(RS.summarise(load_tables(rigor_dir), size, RS.SEED, n_resamples=resamples))
    info.append(("worst case over all orderings and attained, node types, Pearl's critical case, ties and the "
                 "cut rule, policy costs", f"searchlab experiment=rigor claim_study.size={size}", "n/a", "n/a",
                 secs, _rel(rigor_dir)))
    return out, info


def rigor_sections(rig: dict, fig_dir: Path, tree_rows: pd.DataFrame) -> list[tuple[str, str]]:
    from searchlab.studies.rigor import convergence as CV
    from searchlab.studies.ordering import ordering_costs as K
    from searchlab.studies.rigor import discrete as D
    from searchlab.studies.rigor import nodetypes as N
    from searchlab.studies.rigor import worstcase as W

    from searchlab.studies.rigor import exact_counts as EC

    return [
        ("Random-order alpha-beta from exact expectations (DP over the search window)",
         EC.section(rig["exact_counts"], fig_dir, tree_rows)),
        ("Finite-depth convergence to Pearl's R_b (paired trees)", CV.section(rig["convergence"], fig_dir)),
        ("Sensitivity of every fitted exponent", CV.stability_section(tree_rows)),
        ("The worst case over all orderings", W.attained_section(rig["worst_attained"]) + "\n\n"
         + W.section(rig["worstcase"])),
        ("Node types: PV, CUT and ALL nodes against the minimal tree", N.section(rig["nodetypes"])),
        ("Pearl's critical case, ties and the cut rule", D.section(rig["critical"], rig["cut_rule"])),
        ("What ordering policies cost besides nodes", K.section(rig["costs"])),
    ]


# --- the parts of the reproduction ---------------------------------------------------------------

#: The parts of the reproduction, in report order, each with what it covers. A part runs its own
#: studies and writes parts/<part>.md, a report of its own (its studies, its sections and the
#: verdicts of the claims it owns), and parts/<part>.json, what the assembly reads; REPORT.md is
#: then assembled from the newest file of every part of the same size, its header naming when,
#: at which commit and by which command each part was made. The whole reproduction takes longer
#: than a working session on 2 cores; one part fits in one, and regenerating a part replaces
#: only its own sections and verdicts.
PARTS = {
    "trees": "synthetic trees: growth exponents and their fits, exact checks and expectations, "
             "convergence, worst case and node types, chance nodes, three or more players, "
             "parallel alpha-beta",
    "real_games": "move ordering in real games: the shallow and deep ordering studies, chess at "
                  "depth 7, each position's own minimal tree, chess ordering as engines compose it",
    "pruning": "sound versus unsound pruning: the trade-off study and the engine-grade matches",
    "mcts": "alpha-beta against Monte Carlo tree search as b grows (the second half of 000-p), "
            "and search traps",
}
#: the studies of STUDIES each part runs (chess_deep: real_games)
PART_STUDIES = {"trees": ("knuth_moore", "ordering_ebf", "pearl", "discrete_values", "ordered_p",
                          "ordering_incremental"),
                "real_games": ("ordering_games", "ordering_connect4_deep", "ordering_othello_deep",
                               "ordering_hex_deep"),
                "pruning": (), "mcts": ()}
#: the claims judged on a part other than trees, by their key (Claim.key: the first id; the second
#: half of 000-p is 000-p-second-half): the data their verdicts rest on is that part's (000-k also
#: reads the rigor study's policy costs, which real_games runs)
CLAIM_PART = {"000-j": "real_games", "000-k": "real_games", "000-l": "real_games",
              "000-m": "real_games", "001-k": "real_games", "002-a": "real_games",
              "001-m": "real_games", "000-n": "pruning", "000-p-second-half": "mcts"}
#: sections of the sweep report that are about synthetic trees only (left out of other parts)
TREE_ONLY = ("Estimators", "Effective branching factors", "Estimators compared", "Knuth–Moore exactness",
             "Figures", "Where b^(3/4) describes random order")
#: the sweep report's sections every sweep part has: suffixed with the part so headings stay unique
SHARED = ("Run", "Move-ordering policies", "Excluded rows")


class PartRun(NamedTuple):
    """What a part's studies produced: the sweep rows (``df``, maybe empty), the results the
    claims registry reads (``exact``), the "Studies run" rows (``info``), the trees' summary
    (None: computed from df), and ``sections(fig_dir)``, the part's own sections, built once
    figures can be written. (A NamedTuple: this script is loaded by path in the tests, outside
    sys.modules, where a dataclass cannot be made.)"""

    df: pd.DataFrame
    exact: dict
    info: list
    sections: Callable[[Path], list[tuple[str, str]]]
    summary: pd.DataFrame | None = None


def _studies(names: tuple[str, ...]) -> list:
    return [st for st in STUDIES if st[0] in names]


def run_trees(args: argparse.Namespace, runs_dir: Path) -> PartRun:
    """The trees part: the tree studies, parallel, the rigor studies, chance and n-player."""
    df, info = run_studies(args.small, args.jobs, runs_dir, args.resume, studies=_studies(PART_STUDIES["trees"]))
    parallel_dir, parallel_secs = run_preset("parallel", args.small, args.jobs, runs_dir, args.resume)
    info.append(("parallel", "searchlab experiment=parallel" + ("_small" if args.small else ""),
                 "see its section", "see its section", parallel_secs, _rel(parallel_dir)))
    where("rigor studies")
    rigor, rigor_info = run_rigor(args.small, args.jobs, runs_dir, args.resume, args.resamples)
    where("claim studies")
    claims, claim_info = run_claim_studies(args.small, args.jobs, runs_dir, args.resume,
                                           names=("chance", "multiplayer"))
    where("analysis")
    exact = X.exact_checks() | claims | rigor
    exact["parallel"] = PC.summarise(PC.load_run(parallel_dir), parallel_secs,
                                     command="searchlab experiment=parallel" + ("_small" if args.small else ""))
    # every status: summarize fits only the (configuration, depth) cells where every instance
    # finished (an aborted search leaves the hard instances out)
    trees = df[df["b"].notna()]
    summary = E.summarize(trees, n_resamples=args.resamples)
    ok, _ = E.ok_rows(trees)

    def sections(fig_dir: Path) -> list[tuple[str, str]]:
        return [
            ("Textbook trees and their traces", traces_section(fig_dir)),
            ("The b = 35 arithmetic", arithmetic_section()),
            ("Ordered trees: the knob p from 0 to 1", ordered_section(summary)),
            ("Discrete leaf values", discrete_section(summary)),
            ("Chance nodes: expectiminimax, Star1, Star2", CH.chance_section(exact["chance"])),
            ("Three or more players: max^n, paranoid, best-reply search",
             MP.multiplayer_section(exact["multiplayer"])),
            ("Parallel alpha-beta: speedup and search overhead", PC.parallel_section(exact["parallel"], fig_dir)),
        ] + rigor_sections(rigor, fig_dir, ok)

    return PartRun(df, exact, info + rigor_info + claim_info, sections, summary)


def complete_deep_chess(claims: dict, runs_dir: Path, log=print) -> dict:
    """``claims`` without the deep chess run's entry (minimal_trees_chess) unless its run under
    ``runs_dir`` is complete: 000-j (MT.judged_chess) and the section then use the depth-5 rows."""
    deep = runs_dir / MT.DEEP_PRESET
    if MT.DEEP_PRESET in claims and not _complete(deep):
        log(f"{MT.DEEP_PRESET}: the run under {_rel(deep)} is incomplete; 000-j is judged on minimal_trees")
        return {k: v for k, v in claims.items() if k != MT.DEEP_PRESET}
    return claims


def run_real_games(args: argparse.Namespace, runs_dir: Path) -> PartRun:
    """The real_games part: the shallow and deep ordering studies, chess_deep, the minimal-tree
    study and its chess rows to depth 6 (minimal_trees_chess: 000-j is judged on it when it is
    complete), the chess-ordering and shallow ordering studies, and the rigor study (its policy
    costs: 000-k)."""
    df, info = run_studies(args.small, args.jobs, runs_dir, args.resume,
                           studies=_studies(PART_STUDIES["real_games"]))
    chess_deep, chess_info = run_studies(args.small, args.jobs, runs_dir, args.resume, studies=[CHESS_DEEP])
    where("claim studies")
    claims, claim_info = run_claim_studies(args.small, args.jobs, runs_dir, args.resume,
                                           names=("minimal_trees", "minimal_trees_chess", "chess_ordering",
                                                  "ordering_checks", "aspiration", "rigor"),
                                           shared=("rigor",))
    where("analysis")
    claims = complete_deep_chess(claims, runs_dir)
    exact = X.exact_checks() | claims.pop("rigor") | claims
    exact["ordering"] = exact.pop("ordering_checks")      # the shallow ordering measurements
    exact["chess_deep"] = CD.measure(chess_deep, node_caps(runs_dir / CHESS_DEEP[0]), n_resamples=args.resamples)
    deep_rows = df[df["experiment"].isin(DO.DEEP_STUDIES)] if "experiment" in df.columns else df.iloc[0:0]
    if len(deep_rows):
        print("deep real-game ordering studies: paired comparisons ...")
        exact["deep_ordering"] = DO.deep_checks(deep_rows, n_resamples=args.resamples)

    def sections(fig_dir: Path) -> list[tuple[str, str]]:
        return [
            ("Ordering techniques: iterative deepening, killer, history, transposition table",
             OC.ordering_section(exact["ordering"])),
            ("Ordering in real games, searched deep (compiled engine, paired per position)",
             DO.deep_section(exact["deep_ordering"]) if "deep_ordering" in exact else
             "The deep studies (" + ", ".join(DO.DEEP_STUDIES) + ") did not run."),
            ("Real games against each position's own minimal tree",
             MT.section(exact["minimal_trees"], fig_dir, deep=exact.get(MT.DEEP_PRESET))),
            ("Chess at depth 7: ordering policies on WAC and Bratko-Kopec (compiled engine)",
             CD.section(exact["chess_deep"])),
            ("Chess ordering as engines compose it, and aspiration windows (paired per position)",
             COS.section(exact["chess_ordering"])),
            ("Aspiration windows at several depths: chess, Connect Four, Othello (paired per position)",
             AS.section(exact["aspiration"])),
        ]

    return PartRun(df, exact, info + chess_info + claim_info, sections)


def run_pruning(args: argparse.Namespace, runs_dir: Path) -> PartRun:
    """The pruning part: the trade-off study and the match presets (10^5 nodes, the tuning
    study and the time-control matches only with --matches; else earlier finished runs of them
    under --runs are read). 000-n's verdict counts the node-budget, confirmation and
    time-control pairings together (docs/matches.md, fixed rules)."""
    tradeoff_dir, tradeoff_secs = run_preset("unsound_tradeoff", args.small, args.jobs, runs_dir, args.resume)
    info = [("unsound_tradeoff", "searchlab experiment=unsound_tradeoff" + ("_small" if args.small else ""),
             "see its section", "see its section", tradeoff_secs, _rel(tradeoff_dir))]
    where("matches")
    match_dirs, match_info = run_matches(args.small, args.jobs, runs_dir, args.resume, args.matches,
                                         long=args.matches_1e6)
    tuning_text = run_tuning(args.small, args.jobs, runs_dir, args.resume, args.matches)
    tuning = TUNING_PRESETS["small" if args.small else "full"][0]
    confirm = runs_dir / f"{tuning}_confirm"
    # the tuned settings' confirmation at the longer budget is judged with the other pairings,
    # and so are the time-control pairings (equal CPU time per move: a condition the verdict names)
    for d in (confirm, *time_dirs(args.small, runs_dir)):
        if has_games(d) and _complete(d):
            match_dirs.append(d)
    # their rows of the "Studies run" table (and the part's seconds): the finished runs read
    for d, cmd in ((runs_dir / tuning, f"searchlab experiment={tuning}"),
                   (confirm, f"searchlab experiment={tuning} tradeoff.tuning.stage=confirm "
                             f"tradeoff.tuning.tuned_run={_rel(runs_dir / tuning)}"),
                   *((d, f"searchlab experiment={d.name}") for d in time_dirs(args.small, runs_dir))):
        if has_games(d) and _complete(d) and (d / "reproduce_seconds.txt").exists():
            match_info.append((d.name, cmd, "see its section", "see its section",
                               float((d / "reproduce_seconds.txt").read_text()), _rel(d)))
    where("analysis")
    exact = {"tradeoff": claim_counts(tradeoff_dir, tuple(match_dirs))}

    def sections(fig_dir: Path) -> list[tuple[str, str]]:
        return [("Sound versus unsound pruning", tradeoff_report_section(tradeoff_dir, fig_dir, tuple(match_dirs))),
                ("Unsound techniques tuned, and time-control matches", tuning_text)]

    return PartRun(pd.DataFrame(), exact, info + match_info, sections)


#: the MCTS study's size (searchlab/studies/mcts/mcts_study.py SIZES) per reproduction size: the
#: study's own full size is about 2 CPU hours (docs/mcts.md), more than the rest of a part, so the
#: full reproduction runs its medium size (analysis/README.md states what that cost)
MCTS_SIZE = {"full": "medium", "small": "small"}
MCTS_PRESET = "mcts_vs_alphabeta"


def session_seconds(run_dir: Path) -> tuple[float, float | None]:
    """(wall, CPU) seconds of the sessions that ran tasks of the run under ``run_dir``, from its
    provenance.json (the runner's records: a session's ``seconds`` and its workers'
    ``cpu_seconds``); CPU None when a session did not record it."""
    sessions = [x for x in _read_json(run_dir / "provenance.json").get("sessions", []) if x.get("tasks")]
    wall = sum(float(x.get("seconds", 0.0)) for x in sessions)
    cpu = [x.get("cpu_seconds") for x in sessions]
    return wall, (sum(float(c) for c in cpu) if cpu and None not in cpu else None)


def run_mcts(args: argparse.Namespace, runs_dir: Path) -> PartRun:
    """The mcts part: the study mcts_vs_alphabeta (its own part: at MCTS_SIZE it is about 20
    minutes of CPU, and it judges one claim only) at MCTS_SIZE, its section and the verdict on
    the second half of 000-p (studies/mcts/mcts_verdict.py)."""
    from searchlab.studies.claim_study.claim_study_report import results
    from searchlab.studies.mcts import mcts_study as MC

    size = MCTS_SIZE["small" if args.small else "full"]
    out = runs_dir / MCTS_PRESET
    if out.exists() and not args.resume:
        shutil.rmtree(out)
    ov = [f"claim_study.size={size}", f"runner.n_jobs={args.jobs}", f"runner.progress={BARS}"]
    where("mcts_vs_alphabeta", f"size {size}")
    print(f"== {MCTS_PRESET}: {' '.join(ov)}")
    t0 = time.perf_counter()
    _run_or_afresh(MCTS_PRESET, ov, out, print, progress=BARS == "true")
    secs = _recorded_seconds(out, time.perf_counter() - t0, args.resume)
    where("analysis")
    exact = results(out)
    wall, cpu = session_seconds(out)
    command = f"searchlab experiment={MCTS_PRESET} claim_study.size={size}"
    info = [(MCTS_PRESET, command, "see its section", "see its section", secs, _rel(out))]
    cost = (f"Run by `{command}` (size `{size}`: searchlab/studies/mcts/mcts_study.py SIZES; the study's own full "
            f"size is not run here, docs/mcts.md states its cost): {wall:.0f} s of wall time"
            + (f" and {cpu:.0f} s of CPU time in its workers" if cpu is not None else "")
            + f" ({args.jobs} worker processes; provenance.json of `{_rel(out)}`).")

    def sections(fig_dir: Path) -> list[tuple[str, str]]:
        return [("Alpha-beta against Monte Carlo tree search as b grows", cost + "\n\n" + MC.section(exact, fig_dir))]

    return PartRun(pd.DataFrame(), exact, info, sections)


RUNNERS = {"trees": run_trees, "real_games": run_real_games, "pruning": run_pruning, "mcts": run_mcts}


def part_sections(part: str, run: PartRun, out: Path, command: str, source: str, resamples: int
                  ) -> tuple[list[tuple[str, str]], list]:
    """The part's sections (figures under out/figures/) and every claim's verdict from its data.
    A part with sweep rows gets the sweep report's sections too (those about synthetic trees only
    in the trees part; the shared ones named after the part)."""
    fig_dir = out / "figures"
    extra = run.sections(fig_dir)
    if run.df.empty:
        from searchlab.studies.claims.registry import evaluate_all
        from searchlab.studies.claims.verdict import Context
        ctx = Context(df=run.df, summary=pd.DataFrame(), exact=run.exact, command=command)
        return extra, evaluate_all(ctx)
    # the sweep report's own figures (policies_*.png, ...) of a part other than trees go to
    # figures/<part>/: the same names are the trees part's
    sections, results = R.report_sections(run.df, out, source=source, command=command, exact_results=run.exact,
                                          extra_sections=extra, n_resamples=resamples, summary=run.summary,
                                          fig_dir=fig_dir if part == "trees" else fig_dir / part)
    if part != "trees":
        sections = [(h, b) for h, b in sections if h not in TREE_ONLY]
    label = {"trees": "synthetic trees", "real_games": "real games"}[part]
    return [(f"{h}: {label}" if h in SHARED else h, b) for h, b in sections], results


def _read_json(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def write_part(part: str, run: PartRun, out: Path, *, command: str, size: str, jobs: int, runs: Path,
               t_studies: float, t_analysis0: float, resamples: int) -> Path:
    """parts/<part>.md (the part's own report) and parts/<part>.json (generated, commit, command,
    size, seconds, studies run, section headings, its claims' verdict rows, its figures); the
    part's earlier figures are removed first. Raises ValueError, with the other part's figures
    put back as they were, if the part wrote a file another part's .json lists (REPORT.md would
    show one part's figure under the other's section). Returns the .md path."""
    from searchlab.experiment.provenance import commit_label

    parts_dir, fig_dir = out / "parts", out / "figures"
    parts_dir.mkdir(parents=True, exist_ok=True)
    fig_dir.mkdir(parents=True, exist_ok=True)
    for name in _read_json(parts_dir / f"{part}.json").get("figures", []):
        (fig_dir / name).unlink(missing_ok=True)
    owner = {name: other for other in PARTS if other != part
             for name in _read_json(parts_dir / f"{other}.json").get("figures", [])}
    kept = {name: (fig_dir / name).read_bytes() for name in owner if (fig_dir / name).is_file()}
    before = {str(f.relative_to(fig_dir)): f.stat().st_mtime_ns for f in fig_dir.rglob("*") if f.is_file()}
    sections, results = part_sections(part, run, out, command, str(_rel(runs)), resamples)
    owned = [(c, v) for c, v in results if CLAIM_PART.get(c.key, "trees") == part]
    figures = sorted(str(f.relative_to(fig_dir)) for f in fig_dir.rglob("*")
                     if f.is_file() and before.get(str(f.relative_to(fig_dir))) != f.stat().st_mtime_ns)
    clash = [name for name in figures if name in owner]
    if clash:
        for name, data in kept.items():
            (fig_dir / name).write_bytes(data)
        raise ValueError(f"part {part} wrote figures that another part owns: "
                         + ", ".join(f"{name} (part {owner[name]})" for name in clash)
                         + f"; their files under {fig_dir} are restored; give part {part}'s figures "
                         "other names or a folder of their own (figures/<part>/)")
    t_analysis = time.perf_counter() - t_analysis0
    meta = dict(part=part, covers=PARTS[part], size=size, command=command, jobs=jobs,
                generated=R.utc_stamp(), commit=commit_label(), runs=str(_rel(runs)),
                studies_seconds=round(t_studies, 1), analysis_seconds=round(t_analysis, 1),
                info=[[n, o, r, k, round(float(s), 1), str(d)] for n, o, r, k, s, d in run.info],
                sections=[h for h, _ in sections], figures=figures,
                claims={c.key: {"category": v.category, "row": R.claim_row(c, v)} for c, v in owned})
    md = R.write_markdown(sections + [("Claims judged in this part", R.claims_section(owned))],
                          parts_dir / f"{part}.md",
                          title=f"searchlab reproduction, part {part}: {PARTS[part]}", command=command,
                          preamble=_part_preamble(meta))
    (parts_dir / f"{part}.json").write_text(json.dumps(meta, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return md


def _studies_table(metas: list[dict]) -> str:
    return md_table(["part", "study", "overrides", "rows", "ok", "seconds", "table"],
                    [[m["part"], n, o, r, k, f"{s:.0f}", f"`{d}`"] for m in metas for n, o, r, k, s, d in m["info"]])


def _part_preamble(m: dict) -> str:
    return (f"Size {m['size']}, commit {m['commit']}, {m['jobs']} worker processes: the studies took "
            f"{m['studies_seconds']:.0f} s ({m['studies_seconds'] / 60:.1f} min), the analysis and this "
            f"report {m['analysis_seconds']:.0f} s. The studies' tables are under `{m['runs']}` (not committed); "
            "each row's provenance (config hash, version, commit) is in them. analysis/REPORT.md assembles "
            "this part with the others.\n\nStudies run:\n\n" + _studies_table([m]))


def _split_sections(md: str, headings: list[str]) -> list[tuple[str, str]]:
    """The (heading, body) sections of a part's report, by the headings its .json lists (in
    order; the claims section after them is left out)."""
    lines = md.split("\n")
    starts = []
    for h in headings:
        starts.append(lines.index(f"## {h}", starts[-1] + 1 if starts else 0))
    ends = starts[1:] + [next(i for i in range(starts[-1] + 1, len(lines)) if lines[i].startswith("## "))]
    return [(h, "\n".join(lines[a + 1:b]).strip("\n")) for h, a, b in zip(headings, starts, ends)]


def assemble_report(out: Path, size: str) -> Path:
    """out/REPORT.md from the newest parts/<part>.md and .json of every part of ``size``: a
    header with each part's provenance, every part's sections in PARTS order, and one claims
    table taking each claim's verdict from the part that owns it (CLAIM_PART). A part not yet
    generated at this size is named in the header; its claims say so."""
    from searchlab.studies.claims.registry import CLAIMS

    metas, sections = [], []
    for part in PARTS:
        m = _read_json(out / "parts" / f"{part}.json")
        if m.get("size") != size:
            continue
        metas.append(m)
        sections += _split_sections((out / "parts" / f"{part}.md").read_text(encoding="utf-8"), m["sections"])
    have = {m["part"]: m for m in metas}
    rows, cats = [], []
    for c in CLAIMS:
        part = CLAIM_PART.get(c.key, "trees")
        got = have.get(part, {}).get("claims", {}).get(c.key)
        if got is None:
            rows.append([c.label, c.text, "", "", "", f"not judged: part {part} not generated at size {size}", ""])
            cats.append("not judged")
        else:
            rows.append(got["row"])
            cats.append(got["category"])
    tally = ", ".join(f"{k}: {n}" for k, n in pd.Series(cats).value_counts().items())
    claims = (f"{len(rows)} entries covering {len({i for c in CLAIMS for i in c.ids})} claim IDs ({tally}); each verdict "
              "comes from the part named in the header that owns its claim.\n\n" + md_table(R.CLAIM_COLUMNS, rows))
    parts = md_table(["part", "covers", "generated", "commit", "command", "studies (s)", "analysis (s)"],
                     [[m["part"], m["covers"], m["generated"], m["commit"], f"`{m['command']}`",
                       f"{m['studies_seconds']:.0f}", f"{m['analysis_seconds']:.0f}"] for m in metas])
    missing = [p for p in PARTS if p not in have]
    t = sum(m["studies_seconds"] for m in metas)
    preamble = (f"This is searchlab's own reproduction of the claims in docs/claims.md ({size} size), assembled "
                "from its parts: each part runs its own studies and writes `analysis/parts/<part>.md`; "
                "`.venv/bin/python analysis/reproduce.py --part PART` regenerates one part (and this "
                "file), `.venv/bin/python analysis/reproduce.py` all of them. The parts' studies took "
                f"{t:.0f} s ({t / 60:.1f} min) in all, each on the machine and at the commit its row states:\n\n"
                + parts
                + (f"\n\nNot generated at this size: {', '.join(missing)}." if missing else "")
                + "\n\nStudies run:\n\n" + _studies_table(metas))
    return R.write_markdown(sections + [("Claims", claims)], out / "REPORT.md",
                            title="searchlab: reproducing the alpha-beta claims",
                            command=".venv/bin/python analysis/reproduce.py", preamble=preamble)


def main(argv: list[str] | None = None) -> int:
    global STAGES
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--small", action="store_true", help="a quick check with small studies")
    ap.add_argument("--part", default="all", choices=["all", *PARTS],
                    help="run one part and reassemble REPORT.md from the parts (default all: every part)")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes (runner.n_jobs, default 2)")
    ap.add_argument("--out", type=Path, default=HERE, help="where REPORT.md, parts/ and figures/ go (default analysis/)")
    ap.add_argument("--runs", type=Path, default=ROOT / "results" / "reproduce",
                    help="where the studies' tables go (default results/reproduce/)")
    ap.add_argument("--resume", action="store_true", help="reuse finished tasks of earlier runs instead of starting fresh")
    ap.add_argument("--resamples", type=int, default=999, help="bootstrap resamples (default 999)")
    ap.add_argument("--matches", action="store_true",
                    help="also run (or resume) the 10^5-node match preset unsound_matches_1e5, the "
                         "tuning study and the time-control matches (part pruning; TUNING_PRESETS, "
                         "CHESS_TIME_PRESETS); "
                         "without it, runs of them already under --runs are read")
    ap.add_argument("--matches-1e6", action="store_true",
                    help="also run (or resume) the 10^6-node match preset unsound_matches_1e6 (part "
                         "pruning; hours of CPU: its header); without it, a finished run of it under "
                         "--runs is read")
    ap.add_argument("--only", default=None, help="comma-separated studies of STUDIES or chess_deep: run just those into "
                    "--runs and stop (no report); e.g. ordering_hex_deep")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    runs_dir = (args.runs / ("small" if args.small else "full")).absolute()
    problem = _bad_arguments(args, runs_dir)
    if problem:                                  # before any study runs, not after all of them
        print(f"reproduce.py: error: {problem}", file=sys.stderr)
        return 2
    if args.only is not None:
        only = tuple(x.strip() for x in args.only.split(","))
        _, info = run_studies(args.small, args.jobs, runs_dir, args.resume, only=only,
                              studies=STUDIES + [CHESS_DEEP])
        for name, _, rows, ok, secs, table_dir in info:
            print(f"{name}: {rows} rows ({ok} ok) in {secs:.0f} s; table under {table_dir}")
        return 0
    size = "small" if args.small else "full"
    for part in (PARTS if args.part == "all" else [args.part]):
        STAGES = PART_STAGES[part]
        cmd = (".venv/bin/python analysis/reproduce.py" + (" --small" if args.small else "")
               + f" --part {part}" + (" --matches" if args.matches and part == "pruning" else "")
               + (" --matches-1e6" if args.matches_1e6 and part == "pruning" else ""))
        print(f"== part {part}: {PARTS[part]}")
        t_part = time.perf_counter()
        run = RUNNERS[part](args, runs_dir)
        t_analysis0 = time.perf_counter()
        # on --resume: the seconds the tables took when produced, not this invocation's
        t_studies = sum(i[4] for i in run.info)
        print(f"part {part}: studies done in {t_analysis0 - t_part:.0f} s; analysing")
        path = write_part(part, run, args.out, command=cmd, size=size, jobs=args.jobs, runs=runs_dir,
                          t_studies=t_studies, t_analysis0=t_analysis0, resamples=args.resamples)
        print(f"wrote {path}")
    path = assemble_report(args.out, size)
    total = time.perf_counter() - t0
    print(f"wrote {path} and {len(list((args.out / 'figures').glob('*.png')))} figures in {args.out / 'figures'}")
    print(f"run time: {total:.0f} s ({total / 60:.1f} min)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Paper-ready output: reports split by every swept axis, exported tables, the public
figure API, one palette, figures whose labels do not overlap."""

from __future__ import annotations

import dataclasses
import itertools
import re
import subprocess
import sys
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
import pytest

matplotlib.use("Agg")

import searchlab  # noqa: E402
import searchlab.export as X  # noqa: E402
import searchlab.plot as SP  # noqa: E402
from searchlab.analysis import palette  # noqa: E402
from searchlab.analysis.format import number  # noqa: E402
from searchlab.analysis.labels import text_box  # noqa: E402
from searchlab.studies.sweep.facets import pruning_effect, swept_axes  # noqa: E402
from searchlab.experiment.api import run_study  # noqa: E402
from searchlab.studies.sweep.sweep_report import write_report  # noqa: E402
from searchlab.report.report_cli import main as report_main  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
README_CMD = ["tree=incremental", "ordering=static", "sweep.pruning=[none,null_r2,lmr_log]"]


@pytest.fixture(scope="module")
def prune_run(tmp_path_factory) -> Path:
    """The README's pruning example at a small size."""
    out = tmp_path_factory.mktemp("prune") / "run"
    return run_study("quick", README_CMD + ["sweep.b=[2,4]", "sweep.d=1..6", "sweep.instances=4",
                                            "runner.n_jobs=1"], output_dir=out, progress=False)


@pytest.fixture(scope="module")
def iid_run(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("iid") / "run"
    return run_study("quick", ["sweep.b=[2,4]", "sweep.d=1..5", "sweep.instances=4",
                               "runner.n_jobs=1"], output_dir=out, progress=False)


def _section(md: str, heading: str) -> str:
    start = md.index(f"## {heading}\n")
    nxt = md.find("\n## ", start + 3)
    return md[start: nxt if nxt > 0 else None]


# --------------------------------------------------------------------------- swept axes

def test_pruning_report_names_each_technique_with_its_node_ratio_and_error_rate(prune_run):
    report = write_report(prune_run, exact=False, n_resamples=99).read_text()
    table = searchlab.load(prune_run)
    assert swept_axes(table) == ["b", "pruning"]
    sec = _section(report, "Pruning techniques against plain alpha-beta")
    # independent of facets: the paired ratio and the changed moves from the raw rows
    ok = table[table["status"] == "ok"]
    keys = ["b", "d", "instance"]
    plain = ok[ok["pruning"] == "none"].set_index(keys)
    for tech in ("null_r2", "lmr_log"):
        t = ok[ok["pruning"] == tech].set_index(keys)
        t, p = t.align(plain, join="inner", axis=0)
        deep = t.reset_index().groupby("b")["d"].max()
        ratios = []
        for b, d in deep.items():
            sel = (t.index.get_level_values("b") == b) & (t.index.get_level_values("d") == d)
            ratios.append(float(np.exp(np.log(t["nodes"][sel] / p["nodes"][sel]).mean())))
        deep2 = t.index.get_level_values("d") >= 2
        moved = int((t["best_move"][deep2] != p["best_move"][deep2]).sum())
        row = next(line for line in sec.splitlines() if line.startswith(f"| {tech} |"))
        assert f"| {number(min(ratios))} – {number(max(ratios))} (2 settings) |" in row
        assert f"({moved} of {int(deep2.sum())} searches)" in row
    # the EBF table has a pruning column: one row per technique, never three identical rows
    ebf = _section(report, "Effective branching factors")
    assert "| pruning |" in ebf
    for tech in ("none", "null_r2", "lmr_log"):
        assert re.search(rf"\| static \| {tech} \|", ebf)
    # the policies section keeps the techniques apart and compares orderings only within one
    pol = _section(report, "Move-ordering policies")
    assert "static · null_r2" in pol and "static · lmr_log" in pol
    assert "201 of 230" not in pol and "Same value, whatever the order" not in pol  # one ordering


def test_unsound_technique_is_not_compared_with_knuth_moore(prune_run):
    from searchlab.studies.sweep.policies import relative_to_perfect
    rel = relative_to_perfect(searchlab.load(prune_run))
    assert set(rel["policy"]) == {"static"}                 # plain alpha-beta only
    assert (rel["ratio"] >= 1 - 1e-9).all()                 # sound search: never below the minimal tree
    assert (rel["ratio_lo"] <= rel["ratio"]).all() and (rel["ratio"] <= rel["ratio_hi"]).all()


@pytest.mark.slow
def test_readme_pruning_table_is_what_the_command_writes(tmp_path):
    """The README's table is copied from the report of its own command (full size: ~20 s)."""
    readme = (ROOT / "README.md").read_text()
    assert ".venv/bin/searchlab " + " ".join(README_CMD) in readme
    want = re.search(r"<!-- pruning-example-table: begin -->\n(.*?)\n<!-- pruning-example-table: end -->",
                     readme, re.S)[1]
    run = run_study(None, README_CMD + ["runner.n_jobs=2"], output_dir=tmp_path / "run",
                    progress=False)
    sec = _section(write_report(run, exact=False, n_resamples=99).read_text(),
                   "Pruning techniques against plain alpha-beta")
    got = "\n".join(line for line in sec.split("\n\n")[2].splitlines() if line.startswith("|"))
    assert got == want


# --------------------------------------------------------------------------- exports

def test_export_writes_tidy_csv_and_booktabs_latex(prune_run, tmp_path):
    paths = X.write_tables(prune_run, tmp_path, formats="csv,latex,md", n_resamples=99)
    names = {p.name for p in paths}
    assert {"ebf.csv", "ebf.tex", "ebf.md", "pruning_effect.csv", "policies_ebf.tex"} <= names
    csv = pd.read_csv(tmp_path / "pruning_effect.csv")
    assert {"technique", "n", "estimate", "lo", "hi", "move_changed"} <= set(csv.columns)
    assert set(csv["technique"]) == {"null_r2", "lmr_log"}
    assert ((csv["lo"] <= csv["estimate"] + 1e-12) & (csv["estimate"] <= csv["hi"] + 1e-12)).all()
    ebf = pd.read_csv(tmp_path / "ebf.csv")
    assert set(ebf["pruning"]) == {"none", "null_r2", "lmr_log"}
    assert set(ebf["estimator"]) >= {"fit", "alpha", "per-depth"}
    tex = (tmp_path / "ebf.tex").read_text()
    for rule in (r"\toprule", r"\midrule", r"\bottomrule"):
        assert tex.count(rule) == 1
    assert re.search(r"& \d[\d.]* \[\d[\d.]*, \d[\d.]*\] (&|\\\\)", tex)   # CI in brackets
    assert "n = 4 per row" in tex and r"null\_r2" in tex
    with pytest.raises(ValueError, match="csv, latex, md"):
        X.write_tables(prune_run, tmp_path, formats="xlsx")


def test_report_cli_tables_and_pdf_link_what_was_written(prune_run, capsys):
    assert report_main([str(prune_run), "--no-exact", "--resamples", "49", "--format", "pdf",
                        "--tables", "csv,latex"]) == 0
    md = (prune_run / "report.md").read_text()
    links = re.findall(r"\]\(((?:figures|tables)/[^)]+)\)", md)
    figs = [x for x in links if x.startswith("figures/")]
    assert figs and all(x.endswith(".pdf") for x in figs)
    assert all((prune_run / x).is_file() for x in links)
    assert "tables/pruning_effect.tex" in links
    capsys.readouterr()


def test_report_cli_rejects_unknown_table_format(prune_run):
    out = subprocess.run([sys.executable, "-m", "searchlab.report.report_cli", str(prune_run), "--tables",
                          "csv,docx"], capture_output=True, text=True)
    assert out.returncode == 2
    assert "--tables" in out.stderr and "csv, latex, md" in out.stderr


# --------------------------------------------------------------------------- figures

def _texts(fig):
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    out = []
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        items = [ax.title, ax.xaxis.label, ax.yaxis.label]
        # only the ticks drawn: matplotlib also lists ticks beyond the view limits
        for ticks, labels, (lo, hi) in ((ax.get_xticks(), ax.get_xticklabels(), sorted(ax.get_xlim())),
                                        (ax.get_yticks(), ax.get_yticklabels(), sorted(ax.get_ylim()))):
            items += [t for v, t in zip(ticks, labels)
                      if t.get_text() and lo - 1e-9 * abs(lo) <= v <= hi + 1e-9 * abs(hi)]
        items += [t for t in ax.texts if t.get_visible()]           # annotations, point labels
        out.append([(t.get_text(), text_box(t, r)) for t in items if t.get_text()])
    legends = [lg for lg in fig.legends] + [ax.get_legend() for ax in fig.axes if ax.get_legend()]
    leg_boxes = [lg.get_window_extent(r) for lg in legends]
    titles = [(t.get_text(), t.get_window_extent(r)) for t in fig.texts if t.get_text()]
    return out, leg_boxes, titles, r


def _assert_no_overlap(fig):
    """No two labels of a panel overlap, no label or legend leaves the saved image (every
    report figure is saved with bbox_inches="tight", searchlab.analysis.figures.save: the image
    is the figure's tight box, which must lie on the canvas), no point label leaves its panel,
    a figure legend covers no panel: all from the renderer's bounding boxes."""
    per_axes, legends, sup, r = _texts(fig)
    tight = fig.get_tightbbox(r).transformed(fig.dpi_scale_trans)
    page = tight
    for ax in fig.axes:
        box = ax.get_window_extent(r)
        for t in ax.texts:
            tb = text_box(t, r)
            assert tb.x0 >= box.x0 - 1 and tb.x1 <= box.x1 + 1 and tb.y0 >= box.y0 - 1 \
                and tb.y1 <= box.y1 + 1, f"point label {t.get_text()!r} leaves its panel"
    for name, box in [t for texts in per_axes for t in texts] + sup + \
            [("legend", lg) for lg in legends]:
        assert box.x0 >= page.x0 - 1 and box.y0 >= page.y0 - 1 and box.x1 <= page.x1 + 1 \
            and box.y1 <= page.y1 + 1, f"{name!r} is clipped by the figure's edge"
    for texts in per_axes:
        for (a, ba), (b, bb) in itertools.combinations(texts, 2):
            assert not ba.overlaps(bb), f"labels {a!r} and {b!r} overlap"
    panels = [ax.get_window_extent(r) for ax in fig.axes if ax.get_visible()]
    for lg in legends:
        for p in panels:
            inter = lg.intersection(lg, p) if hasattr(lg, "intersection") else None
            # a figure legend lies outside every panel (an axes legend may sit inside its own)
            if lg in [x.get_window_extent(r) for x in fig.legends]:
                assert inter is None or inter.width * inter.height < 1, "legend covers a panel"
    all_titles = [t for texts in per_axes for t in texts if t[0] == t[0]]
    for (a, ba) in sup:
        for (b, bb) in all_titles:
            assert not ba.overlaps(bb), f"{a!r} overlaps {b!r}"


def test_public_figures_have_their_artists_and_no_overlapping_labels(iid_run, prune_run):
    iid, prune = searchlab.load(iid_run), searchlab.load(prune_run)
    fig = SP.ebf_vs_b(iid, curves=("b", "sqrt(b)"), n_resamples=99)
    ax = fig.axes[0]
    assert [ln.get_label() for ln in ax.get_lines() if not ln.get_label().startswith("_")][:2] == \
        ["$b$ (minimax)", r"$\sqrt{b}$ (perfect order)"]
    conts = [c for c in ax.containers if c.has_yerr]
    assert {c.get_label() for c in conts} == {"worst (measured)", "random (measured)", "perfect (measured)"}
    _assert_no_overlap(fig)
    for f in (SP.leaves_vs_depth(iid), SP.alpha_vs_b(iid, n_resamples=99),
              SP.convergence(iid, b=4, ordering="random", n_resamples=99),
              SP.policies(prune, "ebf"), SP.policies(prune, "vs_perfect"),
              SP.policies(prune, "fail_high_first"), SP.pruning(prune, n_resamples=99)):
        assert isinstance(f, matplotlib.figure.Figure)
        assert any(ax.containers or ax.get_lines() for ax in f.axes)
        _assert_no_overlap(f)
    with pytest.raises(ValueError, match="curves must be among"):
        SP.ebf_vs_b(iid, curves=("b^2",), n_resamples=99)
    with pytest.raises(ValueError, match="kind must be one of"):
        SP.policies(prune, "bars")
    with pytest.raises(ValueError, match="pruning needs a technique paired"):
        SP.pruning(iid)


def _pareto_summary() -> pd.DataFrame:
    """A trade-off summary where labels would collide: eight sound-in-practice techniques at
    error 0 and nearly the same savings, a few with errors."""
    from searchlab.studies.tradeoff.tradeoff_report import PALETTE
    fams = [f for f in PALETTE if f != "sound"]
    rows = [dict(technique="alpha-beta", family="sound", decision_error=0.0, savings=0.0)]
    for k in range(8):
        rows.append(dict(technique=f"{fams[k % len(fams)]}_{k}", family=fams[k % len(fams)],
                         decision_error=0.0, savings=0.30 + 0.004 * k))
    for k, e in enumerate((0.05, 0.06, 0.2)):
        rows.append(dict(technique=f"beam_{k}", family="beam", decision_error=e, savings=0.6 + 0.01 * k))
    df = pd.DataFrame(rows).assign(domain="incremental", variant="incremental")
    return df.assign(decision_error_lo=df["decision_error"] * 0.5, decision_error_hi=df["decision_error"] * 1.5,
                     savings_lo=df["savings"] - 0.02, savings_hi=df["savings"] + 0.02)


def test_pareto_figure_has_cis_placed_labels_and_no_negative_error_axis():
    from searchlab.studies.tradeoff.tradeoff_report import pareto_figure
    s = _pareto_summary()
    fig = pareto_figure(s, "incremental")
    ax = fig.axes[0]
    assert ax.get_xlim()[0] == 0                        # an error rate is never negative
    bars = [c for c in ax.containers if isinstance(c, matplotlib.container.ErrorbarContainer)]
    assert bars and bars[0].has_xerr and bars[0].has_yerr
    named = " ".join(t.get_text() for t in ax.texts).replace("\n", " ")
    assert all(n in named for n in s["technique"])                      # every point named
    assert "unlabelled" not in ax.get_title()
    _assert_no_overlap(fig)
    # all errors 0: still a 0..1 % axis, not a negative margin
    fig = pareto_figure(s.assign(decision_error=0.0, decision_error_lo=0.0, decision_error_hi=0.0),
                        "incremental")
    assert fig.axes[0].get_xlim() == (0.0, 1.0)
    _assert_no_overlap(fig)



def test_pareto_figure_is_written_in_the_format_asked(tmp_path):
    from searchlab.studies.tradeoff.tradeoff_report import pareto_figure
    for fmt in ("png", "pdf", "svg"):
        out = pareto_figure(_pareto_summary(), "incremental", tmp_path / "pareto_incremental.png",
                            fig_format=fmt)
        assert out == tmp_path / f"pareto_incremental.{fmt}" and out.stat().st_size > 1000


def test_pareto_summary_has_bootstrap_cis_over_positions():
    from searchlab.studies.tradeoff.tradeoff_report import summarise
    rng = np.random.default_rng(0)
    n = 40
    df = pd.DataFrame(dict(domain="incremental", variant="v", technique="null_r2", family="null_move",
                           params="R=2", position=np.arange(n), node_ratio=rng.uniform(0.5, 0.9, n),
                           time_ratio=1.0, decision_error=rng.integers(0, 2, n).astype(float),
                           value_error=0.0, fired=1.0, budget_depth=3, ref_budget_depth=3,
                           budget_decision_error=0.0, result_change=0.0, budget_result_change=0.0,
                           solved=1.0, budget_solved=1.0))
    s = summarise(df).iloc[0]
    assert s["decision_error_lo"] < s["decision_error"] < s["decision_error_hi"]
    assert s["savings_lo"] < s["savings"] < s["savings_hi"]
    assert s["savings"] == pytest.approx(1 - df["node_ratio"].mean())
    assert summarise(df).equals(summarise(df))                          # seeded


def test_policy_ebf_bars_carry_cis_and_one_colour_per_policy(prune_run):
    fig = SP.policies(searchlab.load(prune_run), "ebf")
    ax = fig.axes[0]
    bars = [c for c in ax.containers if isinstance(c, matplotlib.container.BarContainer)]
    assert len(bars) == 1 and len(bars[0]) == 3
    cols = {matplotlib.colors.to_hex(p.get_facecolor()) for p in bars[0]}
    assert len(cols) == 3                                       # none, null_r2, lmr_log differ
    assert ax.get_xlim()[0] == 0
    ticks = [t.get_text() for t in ax.get_yticklabels()]
    assert set(ticks) == {"static", "static · null_r2", "static · lmr_log"}
    lines = [c for c in ax.containers if isinstance(c, matplotlib.container.ErrorbarContainer)]
    assert lines                                                # the CIs


def test_palette_is_one_colour_per_ordering_everywhere():
    from searchlab.analysis import figures
    assert figures.ORDERING_COLOURS is palette.ORDERING_COLOURS
    assert palette.policy_style("random")["color"] == palette.ORDERING_COLOURS["random"]
    assert palette.policy_style("pvs:random")["color"] == palette.ORDERING_COLOURS["random"]
    assert palette.policy_style("id+killer")["color"] == palette.ORDERING_COLOURS["killer"]
    assert palette.policy_style("static · null_r2")["color"] == palette.technique_colour("null_r3")
    base = ["worst", "natural", "random", "static", "perfect", "id", "killer", "history", "tt",
            "centre", "corners", "captures", "adjacent"]
    assert len({palette.ORDERING_COLOURS[o] for o in base}) == len(base)


def test_game_only_report_does_not_say_no_ok_rows():
    from searchlab.studies.sweep.sweep_report import summary_table
    assert "status-ok rows:" not in summary_table(pd.DataFrame())
    assert "no i.i.d." in summary_table(pd.DataFrame())


def test_pruning_effect_pairs_units_and_counts_changed_moves():
    rows = []
    for inst, (n0, n1, m1) in enumerate([(100, 50, 0), (100, 25, 1)]):
        for tech, n, m in (("none", n0, 0), ("null_r2", n1, m1)):
            rows.append(dict(tree="iid", b=2, d=4, levels=None, algorithm="alphabeta", ordering="natural",
                             pruning=tech, instance=inst, nodes=n, leaves=n, value=0.5, best_move=m,
                             status="ok"))
    eff = pruning_effect(pd.DataFrame(rows), n_resamples=99)
    (r,) = eff.itertuples()
    assert r.n == 2 and r.moves_changed == 1 and r.move_changed == 0.5
    assert r.node_ratio == pytest.approx(np.sqrt(0.5 * 0.25))
    assert r.node_ratio_lo <= r.node_ratio <= r.node_ratio_hi


def test_provenance_names_the_code_without_git(prune_run, monkeypatch):
    import json
    from searchlab.experiment import provenance
    prov = json.loads((prune_run / "provenance.json").read_text())
    assert re.fullmatch(r"sha256:[0-9a-f]{16}", prov["source_hash"])
    assert prov["source_hash"] == provenance.source_hash()
    assert prov["sessions"][-1]["source_hash"] == prov["source_hash"]
    # the hash follows the sources: another package folder with one byte changed differs
    provenance.source_hash.cache_clear()
    monkeypatch.setattr(provenance, "PACKAGE", Path(provenance.PACKAGE) / "conf")
    other = provenance.source_hash()
    provenance.source_hash.cache_clear()
    assert other != prov["source_hash"]


def test_report_format_reaches_every_kinds_writer(tmp_path, monkeypatch):
    """searchlab-report --format: every study kind's report writer gets the format asked (each
    draws png, pdf and svg; the sweep's is tested with its run above)."""
    import json

    from searchlab.experiment import api, kind_registry
    from searchlab.report.report_cli import main as report_main
    got = []
    kinds = tuple(k if k.section is None else
                  dataclasses.replace(k, report=lambda d, fig_format="png", name=k.name:
                                      got.append((name, fig_format)) or d / "report.md")
                  for k in kind_registry.study_kinds())
    monkeypatch.setattr(kind_registry, "_LOADED", {k.name: k for k in kinds})
    names = [k.name for k in kinds if k.section is not None]
    assert names == ["tradeoff", "parallel", "claim_study"]
    for kind in names:
        (tmp_path / kind).mkdir()
        (tmp_path / kind / "manifest.json").write_text(json.dumps({"kind": kind}))
    assert api.write_run_report(tmp_path / "tradeoff", fmt="svg") == tmp_path / "tradeoff" / "report.md"
    assert report_main(["--format", "pdf", str(tmp_path / "parallel")]) == 0
    assert report_main([str(tmp_path / "claim_study")]) == 0
    assert got == [("tradeoff", "svg"), ("parallel", "pdf"), ("claim_study", "png")]


def test_alpha_vs_p_and_alpha_vs_levels_have_cis_and_no_overlapping_labels():
    """The ordered-tree and discrete-value figures of a sweep's report: one CI-carrying series
    per b (per b and ordering), the theory lines, labels that fit (renderer boxes)."""
    from searchlab.analysis import figures as F
    rows = [dict(b=b, p=p, d_max=8, n=10, alpha_fit=1 - p / 2, alpha_fit_lo=0.95 - p / 2,
                 alpha_fit_hi=1.05 - p / 2) for b in (2, 4, 8) for p in (1 / b, 0.5, 0.8, 1.0)]
    fig = F.plot_alpha_vs_p(pd.DataFrame(rows))
    ax = fig.axes[0]
    bars = [c for c in ax.containers if isinstance(c, matplotlib.container.ErrorbarContainer)]
    assert len(bars) == 3 and all(c.has_yerr for c in bars)
    assert {ln.get_label() for ln in ax.get_lines()} >= {"1", "3/4", "1/2"}
    _assert_no_overlap(fig)
    rows = [dict(b=b, ordering=o, levels=k, alpha_fit=0.5 + 0.03 * k ** 0.5, alpha_fit_lo=0.48 + 0.03 * k ** 0.5,
                 alpha_fit_hi=0.52 + 0.03 * k ** 0.5) for b in (2, 4, 8, 16) for o in ("random",)
            for k in (2, 3, 8, 0)]
    fig = F.plot_alpha_vs_levels(pd.DataFrame(rows))
    ax = fig.axes[0]
    bars = [c for c in ax.containers if isinstance(c, matplotlib.container.ErrorbarContainer)]
    assert len(bars) == 4 and all(c.has_yerr for c in bars)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["2", "3", "8", "cont."]
    _assert_no_overlap(fig)
    matplotlib.pyplot.close("all")

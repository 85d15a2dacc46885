"""Paper figures: ``ax=`` into one's own grid, figures left open, the paper style's fonts
and widths, mathtext labels, ticks at the measured b, human panel titles, one-line errors."""

from __future__ import annotations

import re
import zlib

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

import searchlab.plot as SP  # noqa: E402
from searchlab.analysis.format import panel_title  # noqa: E402


def _table(bs=(2, 3, 5, 8), depths=range(1, 7), instances=5, seed=1) -> pd.DataFrame:
    """A sweep-shaped table: random order grows as b^(3/4) per ply, perfect order as √b."""
    rng = np.random.default_rng(seed)
    rows = []
    for b in bs:
        for d in depths:
            for i in range(instances):
                for ordering, a in (("random", 0.75), ("perfect", 0.5)):
                    leaves = max(1, round(b ** (a * d) * rng.lognormal(0, 0.1)))
                    rows.append(dict(status="ok", tree="iid", b=b, d=d, levels=0, instance=i,
                                     ordering=ordering, algorithm="alphabeta", leaves=leaves,
                                     nodes=2 * leaves))
    return pd.DataFrame(rows)


@pytest.fixture(scope="module")
def table():
    return _table()


def test_every_plot_function_draws_into_the_callers_axes_and_leaves_the_figure_open(table):
    fig, axes = plt.subplots(2, 2)
    try:
        got = SP.ebf_vs_b(table, ax=axes[0, 0], n_resamples=49)
        assert got is axes[0, 0] and got.lines          # the theory curves are on the caller's axes
        assert SP.alpha_vs_b(table, ax=axes[0, 1], n_resamples=49) is axes[0, 1]
        assert SP.leaves_vs_depth(table, b=3, ax=axes[1, 0]) is axes[1, 0]
        assert SP.convergence(table, b=5, ordering="random", ax=axes[1, 1], n_resamples=49) is axes[1, 1]
        assert all(a.has_data() for a in axes.flat)
        assert len(fig.axes) == 4                       # nothing added, nothing replaced
        assert plt.fignum_exists(fig.number)
    finally:
        plt.close(fig)


def test_save_does_not_close_the_callers_figure(table, tmp_path):
    fig = SP.ebf_vs_b(table, n_resamples=49)
    path = SP.save(fig, tmp_path / "f.png")
    assert path.exists() and plt.fignum_exists(fig.number)
    fig.axes[0].set_title("still mine")                 # the caller can keep working on it
    SP.save(fig.axes[0], tmp_path / "g.svg")            # an Axes saves its figure
    assert (tmp_path / "g.svg").exists()
    plt.close(fig)


def test_multi_panel_figure_takes_one_axes_per_panel_and_names_the_count(table):
    fig, axes = plt.subplots(1, 3)
    try:
        with pytest.raises(ValueError, match=r"^ax must be a sequence of 4 matplotlib Axes .*b = 2, b = 3"):
            SP.leaves_vs_depth(table, ax=axes)
        got = SP.leaves_vs_depth(table.loc[table["b"] != 8], ax=axes)
        assert list(got) == list(axes) and all(a.has_data() for a in axes)
        with pytest.raises(ValueError, match="sequence of 4 matplotlib Axes .*one panel per setting"):
            SP.policies(table, "ebf", ax=axes)
        own = SP.policies(table, "ebf")                 # no ax: its own Figure
        assert isinstance(own, matplotlib.figure.Figure) and own is not fig
        plt.close(own)
    finally:
        plt.close(fig)


def test_log2_axis_has_a_tick_at_every_measured_b_and_mathtext_labels(table):
    fig = SP.ebf_vs_b(table, n_resamples=49)
    ax = fig.axes[0]
    fig.canvas.draw()
    assert list(ax.get_xticks()) == [2.0, 3.0, 5.0, 8.0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["2", "3", "5", "8"]
    labels = ax.get_legend_handles_labels()[1]
    assert "$b^{3/4}$ (random-order rule)" in labels and r"$\sqrt{b}$ (perfect order)" in labels
    assert "leaves EBF" in ax.get_ylabel()
    plt.close(fig)


def _pdf_fonts(pdf: bytes) -> set[str]:
    """The /Subtype of every font dictionary in a PDF, compressed object streams included."""
    chunks = [pdf]
    for m in re.finditer(rb"stream\r?\n", pdf):
        end = pdf.find(b"endstream", m.end())
        try:
            chunks.append(zlib.decompress(pdf[m.end():end]))
        except zlib.error:
            pass
    found = set()
    for c in chunks:
        for m in re.finditer(rb"/Type\s*/Font\b(.{0,400})", c, re.S):
            sub = re.search(rb"/Subtype\s*/(\w+)", m.group(0) + m.group(1)) or \
                re.search(rb"/Subtype\s*/(\w+)", c[max(0, m.start() - 400):m.start()])
            if sub:
                found.add(sub.group(1).decode())
    return found


def test_pdf_written_under_the_paper_style_has_no_type3_fonts_and_is_one_column_wide(table, tmp_path):
    with SP.paper_style(columns=1):
        fig = SP.ebf_vs_b(table, n_resamples=49)
        assert fig.get_size_inches()[0] == pytest.approx(3.5)
        path = SP.save(fig, tmp_path / "beff.pdf")
        plt.close(fig)
    pdf = path.read_bytes()
    fonts = _pdf_fonts(pdf)
    assert "Type3" not in fonts and b"/Type3" not in pdf
    assert fonts & {"TrueType", "Type0", "CIDFontType2"}, fonts
    assert b"/FontFile2" in pdf                          # the TrueType program is embedded
    box = [float(x) for x in re.search(rb"/MediaBox\s*\[\s*([\d. ]+)\]", pdf).group(1).split()]
    assert box[2] - box[0] <= 3.5 * 72 + 1               # the tight box fits a column
    # outside the block: the report's look again (matplotlib's default writes Type 3)
    fig = SP.ebf_vs_b(table, n_resamples=49)
    assert tuple(fig.get_size_inches()) == (6.4, 4.6)
    path = SP.save(fig, tmp_path / "default.pdf")
    plt.close(fig)
    assert "Type3" in _pdf_fonts(path.read_bytes())      # so the check above can fail


def test_paper_style_two_columns_and_bad_columns():
    with SP.paper_style(columns=2) as rc:
        assert rc["pdf.fonttype"] == 42 and rc["ps.fonttype"] == 42
        assert plt.rcParams["figure.figsize"][0] == pytest.approx(7.16)
    with pytest.raises(ValueError, match=r"columns must be 1 \(3.5 in\) or 2 \(7.16 in\); got 3"):
        with SP.paper_style(columns=3):
            pass


def test_panel_titles_are_words_not_config_keys():
    assert panel_title("iid b=2 levels=0") == "i.i.d. tree, $b = 2$"
    assert panel_title("ordered b=4 p=0.5") == "ordered tree, $b = 4$, $p = 0.5$"
    assert panel_title("iid b=3 levels=4") == "i.i.d. tree, $b = 3$, 4 leaf values"
    assert panel_title("connect4 openings") == "connect4 openings"


def test_policies_panel_titles_are_human(table):
    fig = SP.policies(table, "vs_perfect")
    titles = {a.get_title() for a in fig.axes if a.get_visible()}
    assert "i.i.d. tree, $b = 2$" in titles and not any("levels=" in t for t in titles)
    plt.close(fig)


def test_palette_is_public():
    assert SP.palette.ordering_colour("random") == SP.palette.ORDERING_COLOURS["random"]
    assert SP.palette.technique_colour("null_r2") == SP.palette.TECHNIQUE_COLOURS["null"]


TRADEOFF = pd.DataFrame({"domain": ["connect4"], "technique": ["null"], "x": [1.0]})
SWEEP = pd.DataFrame({"b": [2], "d": [1]})


@pytest.mark.parametrize("call, wrong", [
    (lambda t: SP.ebf_vs_b(t), TRADEOFF), (lambda t: SP.alpha_vs_b(t), TRADEOFF),
    (lambda t: SP.leaves_vs_depth(t), TRADEOFF), (lambda t: SP.convergence(t, b=2), TRADEOFF),
    (lambda t: SP.policies(t), TRADEOFF), (lambda t: SP.pruning(t), TRADEOFF),
    (lambda t: SP.exact_overlay(t), TRADEOFF), (lambda t: SP.pareto(t), SWEEP)])
def test_bad_tables_give_one_line_naming_what_the_table_holds(call, wrong):
    with pytest.raises(ValueError) as e:
        call(wrong)
    msg = str(e.value)
    assert "\n" not in msg and "columns" in msg and "table" in msg
    if wrong is TRADEOFF:
        assert "trade-off study's table: searchlab.plot.pareto draws it" in msg


def test_a_game_table_without_b_says_so():
    t = pd.DataFrame({"status": ["ok"], "game": ["connect4"], "b": [np.nan], "d": [2], "leaves": [5],
                      "nodes": [9], "ordering": ["natural"], "algorithm": ["alphabeta"], "instance": [0]})
    with pytest.raises(ValueError, match="fixed b; every b in the table is empty.*game run's table"):
        SP.ebf_vs_b(t)
    with pytest.raises(ValueError, match="fixed b"):
        SP.leaves_vs_depth(t)


def test_unknown_b_and_count_are_one_line_errors(table):
    with pytest.raises(ValueError, match=r"b must be one of the table's b: 2, 3, 5, 8; got 7"):
        SP.leaves_vs_depth(table, b=7)
    with pytest.raises(ValueError, match="count must be leaves or nodes"):
        SP.leaves_vs_depth(table, count="d")

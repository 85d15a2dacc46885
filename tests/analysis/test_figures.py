import os

import matplotlib

from searchlab.analysis import estimators as E
from searchlab.analysis import figures as P


def test_figures_without_display(tmp_path, table, monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    assert matplotlib.get_backend().lower() == "agg"
    s = E.summarize(table, n_resamples=99)
    ab = s[s["algorithm"] == "alphabeta"]
    paths = [
        P.plot_beff_vs_b(ab, tmp_path / "beff"),
        P.plot_leaves_vs_depth(table, tmp_path / "leaves"),
        P.plot_alpha(ab, tmp_path / "alpha"),
        P.plot_convergence(table, tmp_path / "conv", b=4, ordering="random", n_resamples=99),
        P.plot_alpha(ab, tmp_path / "alpha_vec", fmt="svg"),
        P.plot_beff_vs_b(ab, tmp_path / "beff_pdf", fmt="pdf"),
    ]
    for p in paths:
        assert p.exists() and os.path.getsize(p) > 1000
    assert [p.suffix for p in paths] == [".png"] * 4 + [".svg", ".pdf"]


def test_palette_is_okabe_ito():
    # the five classic orderings in Okabe-Ito; dynamic and game orderings in Paul Tol's muted
    from searchlab.analysis.palette import TOL_MUTED
    classic = {o: P.ORDERING_COLOURS[o] for o in ("worst", "natural", "random", "static", "perfect")}
    assert set(classic.values()) <= set(P.OKABE_ITO.values())
    assert set(P.ORDERING_COLOURS.values()) - set(classic.values()) <= set(TOL_MUTED.values())
    assert set(P.SERIES_COLOURS) <= set(P.OKABE_ITO.values())

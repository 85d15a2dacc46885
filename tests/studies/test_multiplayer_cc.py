"""000-q's second domain (OpenSpiel chinese_checkers): the summary, the verdict and the report
section from chinese_checkers tables, and the study without open-spiel. Needs no open-spiel:
the tables here are written by hand (tests/games/test_openspiel_chinese_checkers.py measures)."""

from __future__ import annotations

import pandas as pd
import pytest

from searchlab.studies.multiplayer import multiplayer_study as MS
from searchlab.studies.multiplayer import multiplayer_verdicts as MP
from searchlab.studies.claims.verdict import Context


def _cc_table(shallow: float = 1.0, paranoid_base: float = 6.0) -> pd.DataFrame:
    """3 positions, depths 1..3: max^n b^d (b = 30, 32, 34), shallow pruning ``shallow`` times
    max^n's leaves, paranoid paranoid_base^d, perfect order 3^d."""
    rows = []
    for k, b in enumerate((30, 32, 34)):
        for d in (1, 2, 3):
            for alg, leaves in (("maxn", b ** d), ("maxn-shallow", int(shallow * b ** d)),
                                ("paranoid", int(paranoid_base ** d) + k), ("paranoid-perfect", 3 ** d)):
                rows.append(dict(players=3, position=k, algorithm=alg, d=d, leaves=leaves, nodes=leaves + 1,
                                 cutoffs=0, branching=b, keeps_turn=int(alg == "paranoid-perfect")))
    return pd.DataFrame(rows)


def _synthetic_part() -> dict:
    """000-q's synthetic-tree fits and Rolit match as multiplayer_study.summarise gives them,
    written by hand with values under which the synthetic part holds (the verdict's other
    inputs are the tests' subject here; tests/studies/test_chance_multiplayer.py measures them)."""
    fits = pd.DataFrame([dict(players=3, b=3, algorithm=a, alpha=al, lo=al - 0.01, hi=al + 0.01, best_case=2 / 3,
                              d_min=2, d_max=7, instances=4)
                         for a, al in (("maxn", 1.0), ("maxn-shallow", 0.99), ("paranoid", 0.8),
                                       ("paranoid-perfect", 0.7), ("brs", 0.9))])
    summary = pd.DataFrame([dict(algorithm=a, games=60, openings=10, win_share=w, lo=w - 0.1, hi=w + 0.1, discs=20.0,
                                 depth=3.0) for a, w in (("maxn-shallow", 0.2), ("paranoid", 0.4), ("brs", 0.4))])
    return dict(size="small", seed=15, instances=4, fits=fits, rows=100,
                match=dict(summary=summary, budget=200, players=3, openings=10, min_detectable=0.2))


@pytest.fixture(scope="module")
def without_openspiel():
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(MS.openspiel, "available", lambda: False)
        steps = MS.multiplayer_steps("tiny", 15)
        assert MS.skipped() == [f"chinese_checkers (second domain): {MS.CC_NOT_MEASURED}"]
        tables = {"leaves": pd.DataFrame(), "games": pd.DataFrame(), "cc": pd.DataFrame()}
        yield steps, dict(_synthetic_part(), cc=dict(MS.cc_summary(tables["cc"]), plies=20, budget=600))


def _verdict(base: dict, cc_table: pd.DataFrame | None):
    c = dict(base)
    c["cc"] = dict(MS.cc_summary(cc_table, seed=1, resamples=199), plies=30, budget=1000)
    return MP.pruning_with_many_players(Context(df=pd.DataFrame(), summary=pd.DataFrame(),
                                                exact={"multiplayer": c})), c


def test_without_openspiel_the_domain_is_left_out_and_said_to_be_unmeasured(without_openspiel):
    steps, measured = without_openspiel
    assert steps and not [s for s in steps if s.kind == "cc"]
    assert measured["cc"]["measured"] is False
    v = MP.pruning_with_many_players(Context(df=pd.DataFrame(), summary=pd.DataFrame(),
                                             exact={"multiplayer": measured}))
    assert MS.CC_NOT_MEASURED in v.measured and "chinese_checkers was not measured" in v.detail
    assert MS.CC_NOT_MEASURED in MP.multiplayer_section(measured)


def test_summary_fits_growth_and_compares_paranoid_with_its_best_case():
    s = MS.cc_summary(_cc_table(), seed=1, resamples=199)
    f = s["fits"].set_index("algorithm")
    assert f.loc["maxn", "growth"] == pytest.approx(32, rel=0.01) and f.loc["maxn", "alpha"] == pytest.approx(1)
    assert f.loc["paranoid-perfect", "growth"] == pytest.approx(3)
    assert f.loc["maxn", "lo"] <= f.loc["maxn", "growth"] <= f.loc["maxn", "hi"]
    dep = s["depths"].set_index(["algorithm", "d"])
    bound = sum((b ** 2) ** (2 / 3) for b in (30, 32, 34)) / 3
    assert dep.loc[("paranoid", 2), "bound"] == pytest.approx(bound)
    assert dep.loc[("maxn", 2), "bound"] != dep.loc[("maxn", 2), "bound"]        # NaN: no bound for max^n
    # two depths only: growth "not shown"
    two = MS.cc_summary(_cc_table()[lambda t: t["d"] < 3], seed=1, resamples=199)
    assert two["fits"].empty and two["not_shown"] == {a: 2 for a in MS.CC_ALGORITHMS}
    assert "not shown" in MP.cc_measured(dict(two, plies=30, budget=1000))


def test_verdict_can_fail_on_chinese_checkers(without_openspiel):
    _, measured = without_openspiel
    ok, c = _verdict(measured, _cc_table())
    assert "chinese_checkers does not contradict it" in ok.detail and "3 positions" in ok.measured
    assert "| paranoid-perfect |" in MP.multiplayer_section(c)
    pruned, _ = _verdict(measured, _cc_table(shallow=0.5))
    assert pruned.category == "does not hold" and "shallow pruning saves" in pruned.detail
    slow, _ = _verdict(measured, _cc_table(paranoid_base=40.0))
    assert slow.category == "does not hold" and "as fast as max^n" in slow.detail


def test_perfect_paranoid_below_the_floor_is_explained_from_keeps_turn():
    """000-q: the hop-chain explanation of perfect-order paranoid's small counts is in the
    section and the verdict's measured text, with the table's share of positions whose best
    root move keeps the turn."""
    cc = dict(MS.cc_summary(_cc_table(), seed=1, resamples=199), plies=30, budget=1000)
    note = MP.cc_hop_note(cc)
    assert "counting convention, not a defect" in note and "d=2: 1, d=3: 1" in note
    assert "down to 9 leaves at d=2" in note
    assert note in "\n\n".join(MP.cc_section(cc)) and note in MP.cc_measured(cc)
    none = dict(cc, depths=cc["depths"][cc["depths"]["algorithm"] != "paranoid-perfect"])
    assert MP.cc_hop_note(none) == ""

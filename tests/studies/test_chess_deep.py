"""searchlab.studies.ordering.chess_deep: solved share by depth and by node budget (aborted searches
unsolved, restarts summed for policies without id, censoring, each policy's own cap), paired
ratios, the minimal-tree comparison and the verdict, on a hand-made table whose answers are
known."""

from __future__ import annotations

import pandas as pd
import pytest

from searchlab.studies.ordering import chess_deep as CD
from searchlab.studies.claims.verdict import Context


def _row(pos, policy, d, work, ok=True, solved=False, horizon=None, b=4.0):
    per_ply = [1] * d + [horizon if horizon is not None else 4 ** d]
    return dict(game="chess", positions="wac", position=pos, ordering=policy, d=d,
                nodes=work, q_nodes=0, status="ok" if ok else "aborted",
                solved=(solved if ok else None), per_ply=per_ply, branching=b, wall_seconds=0.1)


BEST = "id+tt+killer+history+captures"
CAPS = {"natural": 1000, "captures": 1000, BEST: 1000}


def _table() -> pd.DataFrame:
    rows = []
    for pos in ("A", "B", "C"):
        # natural: depth 1 then 2; 100 + 300 nodes; solves only at depth 2 on A
        rows += [_row(pos, "natural", 1, 100), _row(pos, "natural", 2, 300, solved=pos == "A")]
        # id+...: the row counts every iteration; depth 3 aborted on C
        best = "id+tt+killer+history+captures"
        rows += [_row(pos, best, 1, 50, solved=True, horizon=4),
                 _row(pos, best, 2, 150, solved=True, horizon=7),
                 _row(pos, best, 3, 250, ok=pos != "C", solved=True, horizon=20)]
        rows += [_row(pos, "captures", d, 40 * d, solved=pos != "B") for d in (1, 2)]
    return pd.DataFrame(rows)


def test_solved_share_by_depth_and_budget():
    df = CD._frame(_table(), CAPS)
    bd = CD.solved_by_depth(df).set_index(["ordering", "d"])
    assert bd.loc[("natural", 2), "solved"] == 1 and bd.loc[("natural", 1), "solved"] == 0
    best = "id+tt+killer+history+captures"
    assert bd.loc[(best, 3), "aborted"] == 1 and bd.loc[(best, 3), "solved"] == 2
    bb = CD.solved_by_budget(df, budgets=(200, 400, 1000)).set_index(["ordering", "budget"])
    # natural restarts: depth 2 costs 100 + 300 = 400
    assert bb.loc[("natural", 200), "mean_depth"] == 1 and bb.loc[("natural", 200), "solved"] == 0
    assert bb.loc[("natural", 400), "mean_depth"] == 2 and bb.loc[("natural", 400), "solved"] == 1
    assert bb.loc[("natural", 400), "censored"] == 3      # its deepest run fit: might go deeper
    # id: the depth-3 row (250) already counts every iteration; C's aborted row never fits
    assert bb.loc[(best, 200), "mean_depth"] == 2
    assert bb.loc[(best, 1000), "mean_depth"] == pytest.approx(8 / 3)
    assert bb.loc[(best, 1000), "censored"] == 2


def test_measure_section_and_verdicts():
    d = CD.measure(_table(), CAPS, n_resamples=99)
    assert d["aborted"] == 1 and d["n"] == {"wac": 3}
    (cap,) = [r for r in d["captures"] if r["b"] == "natural"]
    assert cap["d"] == 2 and cap["ratio"] == pytest.approx(80 / 300)    # the same on every position
    # minimal tree at d=3, b=4: 4^2 + 4 - 1 = 19 leaves; horizon 20 on A and B
    m3 = [m for m in d["minimal"] if m["d"] == 3][0]
    assert m3["n"] == 2 and m3["ratio"] == pytest.approx(20 / 19)
    # alpha over 1 -> 3: ln(20 / 4) / (2 ln 4)
    assert m3["alpha"] == pytest.approx(0.5805, abs=1e-3)
    text = CD.section(d)
    assert "Solved share by depth, wac" in text and "captures / natural" in text
    # the KM(b̄) table is printed marked invalid and judges nothing (000-j without the
    # minimal-tree study: the shallow measurement's verdict, or pending)
    assert "**Invalid as a minimal tree, kept for the record; no verdict uses it**" in text
    ctx = Context(df=pd.DataFrame(), summary=pd.DataFrame(), exact={"chess_deep": d})
    v = CD.close_to_minimal_tree(ctx)
    assert "growth exponent" not in v.measured and "not a minimal tree of the position (invalid)" in v.detail


def _capped_table() -> pd.DataFrame:
    """natural capped at 300 nodes, captures at 1000: natural's depth-2 search stops at its cap
    on B (counted unsolved), and on A and C finishes (300 nodes) and solves A."""
    rows = []
    for pos in ("A", "B", "C"):
        rows += [_row(pos, "natural", 1, 100),
                 _row(pos, "natural", 2, 300, ok=pos != "B", solved=pos == "A")]
        rows += [_row(pos, "captures", 1, 40), _row(pos, "captures", 2, 80 + 20 * (pos == "C"),
                                                    solved=pos != "B")]
    return pd.DataFrame(rows)


def test_budgets_above_a_policys_cap_are_beyond_cap_never_counted():
    caps = {"natural": 300, "captures": 1000}
    df = CD._frame(_capped_table(), caps)
    bb = CD.solved_by_budget(df, budgets=(150, 300, 1000)).set_index(["ordering", "budget"])
    # natural: within its cap the curve is defined (restarts summed: depth 2 costs 400 > 300)
    assert not bb.loc[("natural", 300), "beyond_cap"] and bb.loc[("natural", 300), "mean_depth"] == 1
    # above its cap: no share, neither solved nor unsolved (ignoring the cap would give 1/3 here,
    # B's stopped search counted unsolved)
    beyond = bb.loc[("natural", 1000)]
    assert beyond["beyond_cap"] and pd.isna(beyond["share"]) and pd.isna(beyond["solved"])
    assert bb.loc[("captures", 1000), "share"] == pytest.approx(2 / 3)
    bd = CD.solved_by_depth(df).set_index(["ordering", "d"])
    # solved share by depth: every policy under the common cap (300), its own cap beside it
    assert bd.loc[("natural", 2), "cap"] == 300 and bd.loc[("captures", 2), "cap"] == 300
    assert bd.loc[("captures", 2), "own_cap"] == 1000
    assert bd.loc[("natural", 2), "aborted"] == 1 and bd.loc[("natural", 2), "solved"] == 1


def test_solved_share_by_depth_is_judged_under_the_common_cap():
    """captures (own cap 1000) finishes position C's depth 2 with 700 nodes, above natural's
    cap of 300: in the by-depth table it counts as not finished (censored), so its solved share
    there is that of a 300-node cap, as natural's is."""
    rows = []
    for pos in ("A", "B", "C"):
        rows += [_row(pos, "natural", 1, 100), _row(pos, "natural", 2, 300, solved=True)]
        rows += [_row(pos, "captures", 1, 40),
                 _row(pos, "captures", 2, 700 if pos == "C" else 80, solved=True)]
    df = CD._frame(pd.DataFrame(rows), {"natural": 300, "captures": 1000})
    bd = CD.solved_by_depth(df).set_index(["ordering", "d"])
    cap2 = bd.loc[("captures", 2)]
    assert cap2["solved"] == 2 and cap2["aborted"] == 1 and cap2["censored"] == 1
    assert cap2["share"] == pytest.approx(2 / 3)
    assert bd.loc[("natural", 2), "share"] == 1.0 and bd.loc[("natural", 2), "censored"] == 0
    text = CD.section(CD.measure(pd.DataFrame(rows), {"natural": 300, "captures": 1000},
                                 n_resamples=99))
    assert "one cap of 300 nodes per search" in text


def test_the_section_states_each_cap_and_marks_budgets_beyond_it():
    d = CD.measure(_capped_table(), {"natural": 300, "captures": 1000}, n_resamples=99)
    assert d["caps"] == {"captures": 1000, "natural": 300}
    text = CD.section(d)
    assert "300 nodes for natural; 1,000 nodes for captures" in text
    # the budget table: natural beyond its cap at 1e4 .. 5e6, captures too (cap 1,000)
    (nat,) = [ln for ln in text.splitlines() if ln.startswith("| natural") and "beyond cap" in ln]
    assert nat.count("beyond cap") == len(CD.BUDGETS)
    assert "| natural | 300 |" in text                  # the by-depth table names the own cap


def test_paired_ratios_only_over_positions_both_finished(monkeypatch):
    df = CD._frame(_capped_table(), {"natural": 300, "captures": 1000})
    # FINISHED: at d=2 both finished on 2 of 3 positions (< 90 %), so d=1: 40 / 100 everywhere
    (r,) = CD.paired(df, [("captures", "natural")], n_resamples=99)
    assert r["d"] == 1 and r["n"] == 3 and r["ratio"] == pytest.approx(0.4)
    # with a 50 % rule d=2 qualifies: B (natural stopped at its cap) is left out
    monkeypatch.setattr(CD, "FINISHED", 0.5)
    (r2,) = CD.paired(df, [("captures", "natural")], n_resamples=99)
    assert r2["d"] == 2
    assert r2["n"] == 2 and r2["ratio"] == pytest.approx(((80 / 300) * (100 / 300)) ** 0.5)


def test_a_pair_of_different_caps_is_judged_under_the_smaller_one():
    """Censoring made explicit: captures (cap 1000) finished position B's depth 2 with 500
    nodes, above natural's cap of 300; under the common cap (300) that search counts as not
    finished, so B leaves the pair at depth 2, exactly as natural's own stop at 300 would."""
    rows = []
    for pos in ("A", "B", "C"):
        rows += [_row(pos, "natural", 1, 100), _row(pos, "natural", 2, 200)]
        rows += [_row(pos, "captures", 1, 40), _row(pos, "captures", 2, 500 if pos == "B" else 80)]
    df = CD._frame(pd.DataFrame(rows), {"natural": 300, "captures": 1000})
    (r,) = CD.paired(df, [("captures", "natural")], n_resamples=99)
    # at d=2 only A and C finish within 300 for both (< 90 %): d=1, where all three do
    assert (r["d"], r["n"], r["cap"], r["censored"]) == (1, 3, 300, 0)
    assert r["ratio"] == pytest.approx(0.4)
    from unittest import mock
    with mock.patch.object(CD, "FINISHED", 0.5):
        (r2,) = CD.paired(df, [("captures", "natural")], n_resamples=99)
    assert (r2["d"], r2["n"], r2["cap"], r2["censored"]) == (2, 2, 300, 1)
    assert r2["ratio"] == pytest.approx(80 / 200)
    # with equal caps nothing is censored and B stays in
    df_eq = CD._frame(pd.DataFrame(rows), {"natural": 1000, "captures": 1000})
    with mock.patch.object(CD, "FINISHED", 0.5):
        (r3,) = CD.paired(df_eq, [("captures", "natural")], n_resamples=99)
    assert (r3["d"], r3["n"], r3["censored"]) == (2, 3, 0)


def test_a_policy_without_a_cap_is_refused():
    with pytest.raises(ValueError, match="no node cap for the policies \\['natural'\\]"):
        CD.measure(_capped_table(), {"captures": 1000})


def test_killer_history_captures_pair_is_printed_but_not_000l_evidence():
    """000-l: the deep study's killer+history+captures / captures (1.37x in the report) is shown
    with its reason and left out of the verdict's evidence; the verdict's category and domains
    are the shallow verdict's (the staged order's comparison in chess)."""
    from searchlab.studies.claims.verdict import Verdict
    from searchlab.studies.ordering import ordering_checks as O
    d = {"killer": [dict(a="killer", b="natural", d=4, ratio=0.37, low=0.35, high=0.39, n=295, p_holm=1e-9,
                         kind="shown"),
                    dict(a="killer+history+captures", b="captures", d=5, ratio=1.37, low=1.28, high=1.47, n=314,
                         p_holm=1e-16, kind="contradicted")]}
    ctx = Context(df=pd.DataFrame(), summary=pd.DataFrame(), exact={"chess_deep": d})
    base = Verdict("holds only under conditions", "improve in 6/7 domains (…, chess (staged order))", "m", "t", "c")
    orig = O.killer_and_history
    try:
        O.killer_and_history = lambda ctx: base
        v = CD.killer_and_history(ctx)
    finally:
        O.killer_and_history = orig
    assert v.category == base.category and v.detail.startswith(base.detail)
    assert "killer / natural at d=4: 0.37 [0.35, 0.39] (n=295, Holm p=1e-09) (shown)" in v.measured
    assert "(contradicted; not evidence on 000-l: in this composition history outranks captures" in v.measured
    assert "killer+history+captures / captures = 1.37 is left out of the evidence" in v.detail

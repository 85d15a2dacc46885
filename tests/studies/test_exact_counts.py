"""The exact expectations against the kernel on sampled trees (the check of the DP), and the
study's derived figures on a small size."""

from __future__ import annotations

import math

from searchlab.studies.rigor import exact_counts as EC
from searchlab.analysis import theory as T


def test_simulation_agrees_with_the_dp():
    cells = EC.simulation_check(EC.CHECK_SMALL, n=1500, base_seed=7, per_height=16)
    assert len(cells) == 2 * len(EC.CHECK_SMALL)
    x2, k, p = EC.chi_square(cells)
    assert k == len(EC.CHECK_SMALL)
    assert p > 1e-3, [(c.b, c.d, c.leaves_model, c.count, c.mean, c.exact_low, c.z) for c in cells]
    assert all(abs(c.z) < 4.5 for c in cells)


def test_simulation_check_detects_a_wrong_model():
    # the same cells judged against the other cut rule's numbers must fail: the check has power
    cells = EC.simulation_check([(2, 10, "K=2")], n=1500, base_seed=7)
    wrong = EC.expected_counts(2, 10, EC.uniform_pmf(2), cut_rule=">").leaves[10]
    c = next(c for c in cells if c.count == "leaves")
    assert abs((c.mean - wrong) / c.se) > 5


def test_crossover_leaves_rb_for_sqrt_b():
    cr = {c.K: c for c in EC.crossover(2, (2, 8, 32), 40)}
    # fewer levels leave R_b sooner; the growth ends near sqrt(b)
    assert cr[2].depth is not None and cr[8].depth is not None and cr[2].depth < cr[8].depth
    assert abs(cr[2].growth[40] - math.sqrt(2)) < 0.01


def test_critical_case_growth_near_rb_and_off_critical_near_sqrt_b():
    rows = EC.critical(2, 40)
    xi = T.pearl_xi(2)
    at = {(round(r.w - xi, 2), r.d): r.growth for r in rows}
    assert abs(at[(0.0, 40)] - T.pearl_rb(2)) < 0.05
    assert abs(at[(0.15, 40)] - math.sqrt(2)) < 0.05


def test_study_rows_check_dedupes_shared_trees_and_agrees():
    import pandas as pd

    from searchlab.algorithms.kernels import run_kernel
    from searchlab.trees import IIDTree

    rows = []
    for levels in (0, 3):
        for seed in range(400):
            r = run_kernel(IIDTree(2, 6, seed, levels=levels), "alphabeta", "natural")
            row = dict(tree="iid", algorithm="alphabeta", ordering="natural", b=2, d=6, levels=levels,
                       win_prob=float("nan"), seed=seed, ordering_seed=0, status="ok",
                       nodes=r.nodes, leaves=r.leaves)
            rows.append(row)
            rows.append(dict(row, algorithm="alphabeta-failhard"))     # the same tree again
    st = EC.ExactStudy(True, {}, [], [], [])
    cells = EC.study_rows_check(st, pd.DataFrame(rows))
    assert {(c.leaves_model, c.count) for c in cells} == {(m, c) for m in ("continuous", "K=3")
                                                         for c in ("nodes", "leaves")}
    assert all(c.n == 400 for c in cells)                 # duplicates counted once
    assert all(abs(c.z) < 4 for c in cells)


def test_large_z_of_small_skewed_cells_is_named_a_small_n_artefact():
    """The section's five largest |z| of the studies' cells (n = 20 trees, K = 8, |z| 4.47 in the
    report) carry their sample skewness and a note that reads them as small-n artefacts; a
    large sample's cells get no such note."""
    small = [EC.CheckCell(2, 22, "K=8", "nodes", 20, 73595.0, 3950.0, 91264.9, 91264.9, 2.3),
             EC.CheckCell(8, 6, "K=2", "nodes", 20, 2343.0, 11.0, 2370.09, 2370.09, 0.4)]
    note = EC._small_n_note(small, 0.685)
    assert note.startswith("2 of these 2 cells (|z| up to 4.47) have n = 20–20 trees and skewed counts "
                           "(sample skewness 0.40–2.30)")
    assert "small-n artefacts" in note and "p = 0.685" in note
    big = [EC.CheckCell(2, 22, "K=8", "nodes", 400, 73595.0, 3950.0, 91264.9, 91264.9, 2.3)]
    assert EC._small_n_note(big, 0.5) == ""

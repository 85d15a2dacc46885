"""000-d's measurement: the reference search's real stack, and the verdict computed from it."""

import pandas as pd

from searchlab.analysis.memory import StackCell, measure_stack, stack_fit, stack_section, stack_study
from searchlab.claims.exact_trees import depth_first_memory
from searchlab.claims.verdict import Context


def test_the_stack_grows_one_frame_per_ply_and_not_with_b():
    cells = stack_study(((2, 2), (2, 5), (2, 8), (5, 2), (5, 5)))
    base = cells[0].max_frames - 2
    assert [c.max_frames - c.d for c in cells] == [base] * 5       # d + a constant, whatever b
    fit = stack_fit(cells)
    assert abs(fit["per_b"][2]["slope"] - 1.0) < 1e-9 and fit["spread_over_b"] == {2: 0, 5: 0}
    assert "| 5 | 5 |" in stack_section(cells)


def test_measure_stack_sees_the_recursion_not_the_caller():
    shallow, deep = measure_stack(3, 1), measure_stack(3, 7)
    assert deep.max_frames - shallow.max_frames == 6 and deep.leaves > shallow.leaves


def _ctx(stack):
    mem = [(2, 2400, 7), (4, 2450, 49), (6, 2500, 195)]
    return Context(df=pd.DataFrame(), summary=pd.DataFrame(), exact={"memory": mem, "stack": stack})


def _cells(frames):
    return [StackCell(b, d, 1, f, 2500, b ** (d // 2)) for (b, d), f in frames.items()]


def test_000d_verdict_follows_the_measured_stack():
    v = depth_first_memory(_ctx(_cells({(2, 2): 7, (2, 4): 9, (2, 6): 11, (4, 2): 7, (4, 4): 9})))
    assert v.category == "holds" and "1.00–1.00 frames per ply" in v.detail
    assert "5 searches" in v.measured and "d=4: 0 frames" in v.measured
    v2 = depth_first_memory(_ctx(_cells({(2, 2): 7, (2, 4): 9, (4, 2): 8, (4, 4): 10})))
    assert v2.category == "holds only under conditions"
    v3 = depth_first_memory(_ctx(_cells({(2, 2): 7, (2, 4): 9, (2, 6): 17})))      # not linear in d
    assert v3.category == "does not hold"
    v4 = depth_first_memory(_ctx(None))
    assert v4.category == "holds only under conditions" and "not measured" in v4.detail

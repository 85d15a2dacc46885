"""000-d's measurement: the reference search's real stack, and the verdict computed from it."""

import pandas as pd

from searchlab.studies.claims.memory import StackCell, measure_stack, stack_fit, stack_section, stack_study
from searchlab.studies.claims.exact_trees import depth_first_memory
from searchlab.studies.claims.verdict import Context


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


def _ws(bytes_of, arrays=16, nrt=23):
    from searchlab.studies.claims.memory import WorkspaceCell

    return [WorkspaceCell(b, d, 1, arrays if (b, d) != (4, 4) else arrays + (nrt != 23), bytes_of(b, d), 8, nrt,
                          b ** d, True) for b, d in ((2, 2), (2, 4), (2, 6), (4, 2), (4, 4))]


def _ctx(stack, workspace=()):
    mem = [(2, 2400, 7), (4, 2450, 49), (6, 2500, 195)]
    ws = _ws(lambda b, d: 64 + 24 * b * d) if workspace == () else workspace
    return Context(df=pd.DataFrame(), summary=pd.DataFrame(), exact={"memory": mem, "stack": stack, "workspace": ws})


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


# --------------------------------------------------------------------------- the compiled kernel

def test_compiled_workspace_is_a_fixed_set_of_arrays_linear_in_b_times_d():
    from searchlab.studies.claims.memory import workspace_fit, workspace_study

    cells = workspace_study(((2, 2), (2, 6), (2, 10), (6, 2), (6, 4), (12, 3)))
    assert all(c.same_nodes for c in cells)                    # the recorded run is the same search
    assert len({c.arrays for c in cells}) == 1 and len({c.nrt_allocations for c in cells}) == 1
    assert cells[2].nodes > 10 * cells[0].nodes                 # more work, the same allocations
    fit = workspace_fit(cells)
    assert fit["max_resid"] < 1e-6 and fit["coef"][3] > 0       # exactly A + B d + C b + D b d
    for c in cells:                                             # the kernel's own arrays, by hand
        d1 = c.d + 1
        assert c.workspace_bytes == 8 * (8 * d1 + 3 * d1 * c.b + 5 * c.b)


def test_000d_verdict_reads_the_compiled_workspace():
    stack = _cells({(2, 2): 7, (2, 4): 9, (2, 6): 11, (4, 2): 7, (4, 4): 9})
    ok = depth_first_memory(_ctx(stack))
    assert ok.category == "holds" and "compiled kernel: a fixed set of 16 arrays" in ok.detail
    assert "O(b·d)" in ok.detail and "5 searches" in ok.measured
    quad = depth_first_memory(_ctx(stack, _ws(lambda b, d: 8 * d * d * b)))
    assert quad.category == "holds only under conditions" and "not linear in b·d" in quad.detail
    grows = depth_first_memory(_ctx(stack, _ws(lambda b, d: 24 * b * d, nrt=24)))
    assert grows.category == "holds only under conditions" and "not a fixed set of arrays" in grows.detail
    missing = depth_first_memory(_ctx(stack, None))
    assert missing.category == "holds only under conditions" and "workspace was not measured" in missing.detail

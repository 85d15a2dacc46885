"""The memory of depth-first alpha-beta (000-d / 001-b "memory O(b·d)"), measured on the search's
real stack rather than on the heap.

tracemalloc sees Python objects allocated while the search runs, not the interpreter's frame
stack, so on its own it cannot show how the stack grows. ``stack_study`` runs the reference
search (``search(IIDTree(b, d), 'alphabeta', engine='reference')``) under ``sys.setprofile`` and
records the deepest Python call stack reached during the search (frames above the caller's), the
number of frames per ply that implies, and beside it tracemalloc's peak (the heap: each frame's
move list and child states, the b part of b·d).

The compiled kernel's workspace (``workspace_study``): numba allocates the kernel's per-ply
arrays (the explicit stack: keys, windows, values, child positions; the move buffers of b entries
per ply) inside compiled code, which neither tracemalloc nor the frame stack sees. Two
measurements cover it: (1) numba's runtime statistics (its NRT allocation counter, switched on
for the measurement: the counter numba's own tests read) count the allocations one compiled
search makes, so a per-node allocation would show as a count growing
with the tree; (2) the same kernel's Python function (``search_kernel.py_func``, the very code
numba compiles) runs once with the module's numpy replaced by a recorder of every array it
creates, which gives the workspace's arrays and bytes at that (b, d), and the same node counts as
the compiled search (checked).
"""

from __future__ import annotations

import sys
import tracemalloc
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba.core.runtime import _nrt_python as _nrt

from searchlab.algorithms.search_api import search
from searchlab.algorithms.kernels import _alphabeta as _ab
from searchlab.trees import IIDTree

from searchlab.analysis.markdown_tables import md_table

__all__ = ["StackCell", "DEFAULT_CELLS", "measure_stack", "stack_study", "stack_fit", "stack_section",
           "WorkspaceCell", "WORKSPACE_CELLS", "measure_workspace", "workspace_study", "workspace_fit"]

#: (b, d) cells: depths 2..12 at b = 2 and 3, 2..8 at b = 4, 2..6 at b = 8 (alpha-beta's leaves stay
#: below about 10^5 in natural order, so the traced runs take seconds)
DEFAULT_CELLS = tuple([(2, d) for d in (2, 4, 6, 8, 10, 12)] + [(3, d) for d in (2, 4, 6, 8, 10)]
                      + [(4, d) for d in (2, 4, 6, 8)] + [(8, d) for d in (2, 4, 6)])


@dataclass(frozen=True)
class StackCell:
    """One reference search: its tree, the deepest Python stack above the caller (frames), the
    tracemalloc peak (bytes) and the leaves examined."""

    b: int
    d: int
    seed: int
    max_frames: int
    heap_peak: int
    leaves: int


def measure_stack(b: int, d: int, seed: int = 1) -> StackCell:
    """The deepest call stack and heap peak of one natural-order reference alpha-beta search of
    IIDTree(b, d, seed). Frames are counted by a profile hook on Python calls and returns,
    relative to the frame that calls search(); C calls are not frames and are ignored."""
    tree = IIDTree(b, d, seed=seed)
    search(tree, "alphabeta", "natural", engine="reference")        # warm imports and caches
    depth = peak = 0

    def hook(frame, event, arg):
        nonlocal depth, peak
        if event == "call":
            depth += 1
            peak = max(peak, depth)
        elif event == "return":
            depth -= 1

    sys.setprofile(hook)
    try:
        r = search(tree, "alphabeta", "natural", engine="reference")
    finally:
        sys.setprofile(None)
    tracemalloc.start()
    try:
        search(tree, "alphabeta", "natural", engine="reference")
        _, heap = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return StackCell(b, d, seed, peak, heap, r.leaves)


def stack_study(cells=DEFAULT_CELLS, seed: int = 1) -> list[StackCell]:
    """``measure_stack`` at every (b, d) of ``cells``."""
    return [measure_stack(b, d, seed) for b, d in cells]


def stack_fit(cells: list[StackCell]) -> dict:
    """Per b: the least-squares line max_frames = slope·d + intercept and its largest residual
    (frames); over all b: the spread of max_frames across b at each d measured at two or more b."""
    out = {}
    for b in sorted({c.b for c in cells}):
        cs = [c for c in cells if c.b == b]
        d = np.array([c.d for c in cs], float)
        f = np.array([c.max_frames for c in cs], float)
        if len(cs) >= 2:
            slope, icpt = np.polyfit(d, f, 1)
            resid = float(np.max(np.abs(f - (slope * d + icpt))))
        else:
            slope, icpt, resid = float("nan"), float("nan"), float("nan")
        out[b] = dict(slope=float(slope), intercept=float(icpt), max_resid=resid,
                      leaves_growth=cs[-1].leaves / cs[0].leaves, d=(int(d.min()), int(d.max())))
    spread = {}
    for dd in sorted({c.d for c in cells}):
        fr = [c.max_frames for c in cells if c.d == dd]
        if len(fr) >= 2:
            spread[dd] = max(fr) - min(fr)
    return dict(per_b=out, spread_over_b=spread)


def stack_section(cells: list[StackCell]) -> str:
    if not cells:
        return "The stack measurement did not run."
    fit = stack_fit(cells)
    rows = [[c.b, c.d, f"{c.leaves:,}", c.max_frames, f"{c.max_frames / c.d:.2f}", f"{c.heap_peak:,}"] for c in cells]
    lines = "; ".join(f"b={b}: {v['slope']:.2f} frames/ply (d {v['d'][0]}..{v['d'][1]}, largest residual "
                      f"{v['max_resid']:.2f} frames; leaves ×{v['leaves_growth']:,.0f})"
                      for b, v in fit["per_b"].items())
    return ("The reference search's real stack (`searchlab.studies.claims.memory.stack_study`): the deepest Python call "
            "stack above the caller during one natural-order alpha-beta search of IIDTree(b, d, seed=1), counted by "
            "a `sys.setprofile` hook, and tracemalloc's heap peak of the same search (which does not see frames). "
            "Linear fit of the deepest stack in d per b: " + lines + ":\n\n"
            + md_table(["b", "d", "leaves", "deepest stack (frames)", "frames / ply", "heap peak (B)"], rows))


# --------------------------------------------------------------------------- the compiled kernel

#: (b, d) cells of the workspace measurement: the recorded (Python) run of the kernel visits the
#: same nodes as the compiled one, so the cells keep natural-order alpha-beta under ~10^4 nodes
WORKSPACE_CELLS = tuple([(2, d) for d in (2, 4, 6, 8, 10, 12)] + [(4, d) for d in (2, 4, 6, 8)]
                        + [(8, d) for d in (2, 3, 4, 5)] + [(16, d) for d in (2, 3, 4)]
                        + [(32, d) for d in (2, 3)])


@dataclass(frozen=True)
class WorkspaceCell:
    """One natural-order alpha-beta search of IIDTree(b, d, seed) by the compiled tree kernel:
    the arrays the kernel's own code creates (count, total bytes, the largest), the allocations
    numba's runtime made during the compiled search (the workspace and the arguments' wrappers), the
    nodes of the compiled search and whether the recorded run visited exactly as many."""

    b: int
    d: int
    seed: int
    arrays: int
    workspace_bytes: int
    largest_bytes: int
    nrt_allocations: int
    nodes: int
    same_nodes: bool


class _ArrayRecorder:
    """Stands in for numpy inside the kernel module: every array made by zeros, empty, full,
    ones (the kernel's allocators) is recorded; everything else is numpy itself."""

    ALLOCATORS = ("zeros", "empty", "full", "ones")

    def __init__(self) -> None:
        self.arrays: list[np.ndarray] = []

    def __getattr__(self, name: str) -> Any:
        attr = getattr(np, name)
        if name not in self.ALLOCATORS:
            return attr

        def make(*args, **kwargs):
            a = attr(*args, **kwargs)
            self.arrays.append(a)
            return a
        return make


def _compiled_allocations(fn) -> tuple[Any, int]:
    """``fn()``'s result and the number of allocations numba's runtime made during it (its
    statistics switched on for the call, and back off if they were off)."""
    was_on = _nrt.memsys_stats_enabled()
    if not was_on:
        _nrt.memsys_enable_stats()
    try:
        a0 = _nrt.memsys_get_stats_alloc()
        out = fn()
        return out, int(_nrt.memsys_get_stats_alloc() - a0)
    finally:
        if not was_on:
            _nrt.memsys_disable_stats()


def measure_workspace(b: int, d: int, seed: int = 1) -> WorkspaceCell:
    """The compiled tree kernel's workspace for IIDTree(b, d, seed), alpha-beta, natural order:
    numba's allocation count during the compiled search, then the arrays the kernel's Python
    function creates in a recorded run of the same search (module docstring)."""
    tree = IIDTree(b, d, seed=seed)
    search(tree, "alphabeta", "natural", engine="kernel")          # compiled and warm
    compiled, allocations = _compiled_allocations(lambda: search(tree, "alphabeta", "natural", engine="kernel"))
    rec = _ArrayRecorder()
    kernel, numpy_module = _ab.search_kernel, _ab.np
    _ab.search_kernel, _ab.np = kernel.py_func, rec
    try:
        recorded = search(tree, "alphabeta", "natural", engine="kernel")
    finally:
        _ab.search_kernel, _ab.np = kernel, numpy_module
    sizes = [int(a.nbytes) for a in rec.arrays]
    return WorkspaceCell(b, d, seed, len(sizes), sum(sizes), max(sizes, default=0),
                         allocations,
                         compiled.nodes, recorded.nodes == compiled.nodes)


def workspace_study(cells=WORKSPACE_CELLS, seed: int = 1) -> list[WorkspaceCell]:
    """``measure_workspace`` at every (b, d) of ``cells``."""
    return [measure_workspace(b, d, seed) for b, d in cells]


def workspace_fit(cells: list[WorkspaceCell]) -> dict:
    """Least squares of the workspace bytes on (1, d, b, b·d) over the cells, its largest
    residual (bytes; 0 when the workspace is exactly that bilinear form), the coefficients; the
    range of the array count and of numba's allocation count over the cells, and of the nodes."""
    d = np.array([c.d for c in cells], float)
    b = np.array([c.b for c in cells], float)
    y = np.array([c.workspace_bytes for c in cells], float)
    X = np.column_stack([np.ones_like(d), d, b, b * d])
    coef, *_ = np.linalg.lstsq(X, y, rcond=None)
    resid = float(np.max(np.abs(X @ coef - y))) if len(cells) else float("nan")
    nrt = [c.nrt_allocations for c in cells]
    return dict(coef=[float(x) for x in coef], max_resid=resid,
                arrays=(min(c.arrays for c in cells), max(c.arrays for c in cells)),
                nrt=(min(nrt), max(nrt)) if nrt else None,
                nodes=(min(c.nodes for c in cells), max(c.nodes for c in cells)),
                same_nodes=all(c.same_nodes for c in cells), cells=len(cells),
                bs=sorted({c.b for c in cells}), ds=(min(c.d for c in cells), max(c.d for c in cells)))

"""The memory of depth-first alpha-beta (000-d / 001-b "memory O(b·d)"), measured on the search's
real stack rather than on the heap.

tracemalloc sees Python objects allocated while the search runs, not the interpreter's frame
stack, so on its own it cannot show how the stack grows. ``stack_study`` runs the reference
search (``search(IIDTree(b, d), 'alphabeta', engine='reference')``) under ``sys.setprofile`` and
records the deepest Python call stack reached during the search (frames above the caller's), the
number of frames per ply that implies, and beside it tracemalloc's peak (the heap: each frame's
move list and child states, the b part of b·d). The compiled kernel's workspace is not measured
here (its per-ply arrays are allocated inside numba, which no Python tool sees).
"""

from __future__ import annotations

import sys
import tracemalloc
from dataclasses import dataclass

import numpy as np

from searchlab.algorithms.api import search
from searchlab.trees import IIDTree

from .tables import md_table

__all__ = ["StackCell", "DEFAULT_CELLS", "measure_stack", "stack_study", "stack_fit", "stack_section"]

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
    return ("The reference search's real stack (`searchlab.analysis.memory.stack_study`): the deepest Python call "
            "stack above the caller during one natural-order alpha-beta search of IIDTree(b, d, seed=1), counted by "
            "a `sys.setprofile` hook, and tracemalloc's heap peak of the same search (which does not see frames). "
            "Linear fit of the deepest stack in d per b: " + lines + ":\n\n"
            + md_table(["b", "d", "leaves", "deepest stack (frames)", "frames / ply", "heap peak (B)"], rows))

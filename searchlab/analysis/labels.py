"""Point labels that neither overlap nor leave their panel: a deterministic placement rule.

``place_labels`` puts each label next to its point in the first free place of a fixed list of
candidate offsets (16 directions at growing distances, nearest first), where free means: the
label's box, measured by the renderer, lies inside the axes and overlaps no label placed
before it and no point's marker. Points are labelled in a fixed order (by x, then y), so the
same data give the same figure. Points whose markers overlap share one label (their names,
wrapped). A label far from its point gets a thin leader line; a label
with no free place among the candidates is not drawn, and its text is returned so that the
caller can list it elsewhere (say so, rather than overprint).

Call it after the figure's layout is final (tight_layout, legends): the boxes are measured in
display coordinates.
"""

from __future__ import annotations

import math
import textwrap
from typing import Sequence

from matplotlib.text import Text

#: the candidate directions, in order: right, up, left, down, the diagonals, then between them
_DIRECTIONS = ((1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (-1, 1), (-1, -1), (1, -1),
               (2, 1), (-2, 1), (-2, -1), (2, -1), (1, 2), (-1, 2), (-1, -2), (1, -2))
#: distances from the point (points, i.e. 1/72 inch)
_RADII = (4, 9, 15, 22, 30, 40, 52, 66, 82, 100, 120)


def place_labels(ax, xs: Sequence[float], ys: Sequence[float], labels: Sequence[str], *,
                 fontsize: float = 6, marker_size: float = 60) -> list[str]:
    """Annotate point i of ``ax`` with ``labels[i]`` without overlaps (module docstring).

    ``marker_size``: the scatter ``s`` of the points (points^2), so that a label does not cover
    a marker. Returns the labels that found no free place (not drawn)."""
    fig = ax.figure
    renderer = fig.canvas.get_renderer()
    to_px = fig.dpi / 72.0
    ax_box = ax.get_window_extent(renderer)
    pts = [ax.transData.transform((x, y)) for x, y in zip(xs, ys)]
    half = math.sqrt(marker_size) / 2 * to_px + 1
    marker_boxes = [(px - half, py - half, px + half, py + half) for px, py in pts]
    # points whose markers overlap share one label (their names, wrapped): a pile of labels
    # at one place cannot be read however it is spread
    xs, ys, labels, pts = _merge_piles(xs, ys, labels, pts, 2 * half)
    placed: list[tuple[float, float, float, float]] = []
    leaders: list[tuple[tuple[float, float], tuple[float, float]]] = []
    dropped = []
    for i in sorted(range(len(labels)), key=lambda k: (xs[k], ys[k], str(labels[k]))):
        if not str(labels[i]):
            continue
        for r in _RADII:
            done = False
            for dx, dy in _DIRECTIONS:
                norm = math.hypot(dx, dy)
                off = (r * dx / norm, r * dy / norm)
                ha = "left" if dx > 0 else "right" if dx < 0 else "center"
                va = "bottom" if dy > 0 else "top" if dy < 0 else "center"
                far = r > 15
                t = ax.annotate(str(labels[i]), (xs[i], ys[i]), xytext=off,
                                textcoords="offset points", fontsize=fontsize, ha=ha, va=va,
                                zorder=4, annotation_clip=False,
                                arrowprops=dict(arrowstyle="-", lw=0.4, color="0.4",
                                                shrinkA=0, shrinkB=half / to_px)
                                if far else None)
                bb = text_box(t, renderer)
                box = (bb.x0 - 1, bb.y0 - 1, bb.x1 + 1, bb.y1 + 1)
                inside = (box[0] >= ax_box.x0 and box[2] <= ax_box.x1 and box[1] >= ax_box.y0
                          and box[3] <= ax_box.y1)
                # a leader line runs from the point to the box's nearest edge centre: it
                # must cross no placed label, and no placed leader may cross the new box
                end = ((box[0] + box[2]) / 2 if dx == 0 else box[0] if dx > 0 else box[2],
                       (box[1] + box[3]) / 2 if dy == 0 else box[1] if dy > 0 else box[3])
                seg = (tuple(pts[i]), end)
                if inside and not any(_overlap(box, o) for o in placed) \
                        and not any(_overlap(box, m) for m in marker_boxes) \
                        and not (far and any(_crosses(seg, o) for o in placed)) \
                        and not any(_crosses(s, box) for s in leaders):
                    placed.append(box)
                    if far:
                        leaders.append(seg)
                    done = True
                    break
                t.remove()
            if done:
                break
        else:
            dropped.append(str(labels[i]))
    return dropped


def _merge_piles(xs, ys, labels, pts, radius: float):
    """Group points closer than ``radius`` pixels (greedy, in input order); one entry per
    group at its first point, labelled with the group's names joined and wrapped."""
    groups: list[list[int]] = []
    for i, (px, py) in enumerate(pts):
        for g in groups:
            gx, gy = pts[g[0]]
            if math.hypot(px - gx, py - gy) < radius:
                g.append(i)
                break
        else:
            groups.append([i])
    text = [textwrap.fill(", ".join(str(labels[i]) for i in g if str(labels[i])), 44)
            for g in groups]
    first = [g[0] for g in groups]
    return ([xs[i] for i in first], [ys[i] for i in first], text, [pts[i] for i in first])


def text_box(t, renderer):
    """The box of a Text's glyphs only: an Annotation's own extent includes its leader line,
    which runs from the point to the text and may cross markers and other leaders."""
    if hasattr(t, "update_positions"):          # an Annotation places its text when drawn
        t.update_positions(renderer)
    return Text.get_window_extent(t, renderer)


def _crosses(seg, box, samples: int = 24) -> bool:
    """Whether the segment passes through the box (sampled along its length: boxes are
    several pixels wide, so 24 samples over a leader of at most 120 points find any crossing)."""
    (x0, y0), (x1, y1) = seg
    for k in range(1, samples):
        x, y = x0 + (x1 - x0) * k / samples, y0 + (y1 - y0) * k / samples
        if box[0] < x < box[2] and box[1] < y < box[3]:
            return True
    return False


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
